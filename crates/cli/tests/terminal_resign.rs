//! The bot offers to resign in the terminal session (`cubeful-cli -c FILE`), and the person
//! accepts or rejects, as in `gnubg -t`.

use std::path::PathBuf;
use std::process::{Command, Output};

use cubeful_engine::{gnubg_id, MatchState, Player, Position};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_cubeful-cli");

/// Fast, reproducible engine settings.
const ENGINE: &[&str] = &["--no-bearoff", "--level", "expert"];

/// Runs `cubeful-cli -c SCRIPT` with a seed; the person is "alice" (player 1, X), the bot
/// "cubeful" (player 0, O).
fn run_script(name: &str, seed: u64, script: &str) -> Output {
    let path: PathBuf = std::env::temp_dir().join(format!(
        "cubeful-terminal-resign-{}-{name}.txt",
        std::process::id()
    ));
    std::fs::write(&path, script).expect("write the script");
    let out = Command::new(BIN)
        .args(ENGINE)
        .args(["--seed", &seed.to_string(), "-c"])
        .arg(&path)
        .env("USER", "alice")
        .output()
        .expect("cubeful-cli runs");
    let _ = std::fs::remove_file(path);
    out
}

#[track_caller]
fn assert_ok(out: &Output) -> String {
    let stdout = String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("Refused"), "{stdout}");
    stdout
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l}: {e}")))
        .collect()
}

/// A position from the checkers of the player on roll and of his opponent, each as
/// (point in the side's own numbering, checkers).
fn sides(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    Position::from_points(player, opponent).unwrap()
}

/// The GNU Backgammon ID of `position` with the bot (O) on roll before rolling in a 7-point
/// match at `score`.
fn bot_on_roll(position: Position, score: [u16; 2]) -> String {
    let state = MatchState {
        on_roll: Player::Zero,
        turn: Player::Zero,
        score,
        ..MatchState::new_match(7)
    };
    gnubg_id::encode(&position, &state)
}

#[test]
fn the_bot_offers_to_resign_and_the_person_rejects_then_accepts() {
    // Game 1: the bot has three checkers left on its 15-point, alice bears her last one off
    // next turn: the bot can neither win nor be gammoned and offers a single game. Alice
    // rejects; the bot plays on without offering it again, and alice bears off.
    // Game 2: all the bot's checkers on its 13-point: a sure gammon, which it offers and alice
    // accepts.
    let hopeless = bot_on_roll(sides(&[(15, 3)], &[(1, 1)]), [0, 0]);
    let gammon = bot_on_roll(sides(&[(13, 15)], &[(1, 1)]), [0, 1]);
    let script = format!(
        "\
new match 7
set gnubgid {hopeless}
show board --json
hint --json
reject
show board --json
roll
move 1/off
show score --json
set gnubgid {gammon}
show board --json
accept
show score --json
"
    );
    let out = run_script("offers", 4, &script);
    let stdout = assert_ok(&out);
    let docs = json_lines(&stdout);
    // The offer, in GNU Backgammon's words, and alice's decision.
    let single = "cubeful offers to resign a single game.";
    let gammon_offer = "cubeful offers to resign a gammon.";
    assert_eq!(stdout.matches(single).count(), 1, "{stdout}");
    assert_eq!(stdout.matches(gammon_offer).count(), 1, "{stdout}");
    assert!(
        stdout.contains("alice: accept or reject the offer to resign a single game."),
        "{stdout}"
    );
    let offered = &docs[0];
    assert_eq!(offered["to_act"], "X", "{offered}");
    assert_eq!(offered["resigned"], 1, "{offered}");
    // The hint tells alice to accept: it gives her as much as playing on.
    assert_eq!(docs[1]["response"], "accept", "{}", docs[1]);
    // Rejected: the bot rolled and moved, with no second offer, and alice is to act.
    let reject_at = stdout
        .find("alice rejects the resignation.")
        .expect("rejected");
    let after = &stdout[reject_at..];
    assert!(after.contains("cubeful moves "), "{after}");
    assert_eq!(docs[2]["to_act"], "X", "{}", docs[2]);
    assert!(docs[2]["resigned"].is_null() || docs[2]["resigned"] == 0);
    let game_one = &after[..after.find(gammon_offer).expect("the gammon offer")];
    assert!(!game_one.contains("offers to resign"), "{game_one}");
    assert!(
        game_one.contains("alice wins a single game and 1 point."),
        "{game_one}"
    );
    assert_eq!(docs[3]["score"], serde_json::json!([0, 1]), "{}", docs[3]);
    // Game 2: the gammon offered and accepted.
    assert_eq!(docs[4]["resigned"], 2, "{}", docs[4]);
    assert!(
        stdout.contains("alice accepts the resignation."),
        "{stdout}"
    );
    assert!(
        stdout.contains("alice wins a gammon and 2 points."),
        "{stdout}"
    );
    assert_eq!(docs[5]["score"], serde_json::json!([0, 3]), "{}", docs[5]);
}

#[test]
fn the_bot_does_not_resign_a_game_it_can_win() {
    // The opening position of a match with the bot on roll: it plays.
    let start = bot_on_roll(Position::starting(), [0, 0]);
    let script = format!("new match 7\nset gnubgid {start}\nshow board --json\n");
    let out = run_script("opening", 2, &script);
    let stdout = assert_ok(&out);
    assert!(!stdout.contains("offers to resign"), "{stdout}");
    let board = json_lines(&stdout).pop().unwrap();
    assert_eq!(board["to_act"], "X", "{board}");
    assert!(stdout.contains("cubeful moves "), "{stdout}");
}

#[test]
fn gnubg_s_synonyms_answer_the_offer() {
    // `decline` rejects and `agree` accepts, as in GNU Backgammon; the second offer is a
    // gammon in a fresh game (a rejected offer is never made again in the same game).
    let hopeless = bot_on_roll(sides(&[(15, 3)], &[(1, 1)]), [0, 0]);
    let gammon = bot_on_roll(sides(&[(13, 15)], &[(1, 1)]), [0, 0]);
    let script =
        format!("new match 7\nset gnubgid {hopeless}\ndecline\nset gnubgid {gammon}\nagree\n");
    let out = run_script("synonyms", 6, &script);
    let stdout = assert_ok(&out);
    assert!(
        stdout.contains("alice rejects the resignation."),
        "{stdout}"
    );
    assert!(
        stdout.contains("alice wins a gammon and 2 points."),
        "{stdout}"
    );
}
