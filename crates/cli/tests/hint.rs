//! One hint for every front end: `cubeful-cli hint --json`, the terminal session's `hint --json`
//! and the engine's hint function (which the GTK worker calls, see its tests) give the same
//! ranking with the same numbers for the same position, for plays, cube decisions and doubles
//! to answer; and the JSON is the engine's documented serialisation.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;

use common::stdout;
use cubeful_engine::analysis::hint::{self, Hint, Query};
use cubeful_engine::eval::Nets;
use cubeful_engine::search::{Level, Search};
use cubeful_engine::{gnubg_id, CubeOwner, Dice, MatchState, Player, Position, Resignation};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_cubeful-cli");

/// A middle-game position: the player on roll has made his 5 point and kept his back
/// checkers; his opponent has split his.
fn middle_game() -> Position {
    let mut mine = [0u8; 25];
    let mut theirs = [0u8; 25];
    for (point, n) in [(6, 4), (8, 3), (13, 4), (5, 2), (24, 2)] {
        mine[point - 1] = n;
    }
    for (point, n) in [(6, 5), (8, 3), (13, 5), (18, 1), (24, 1)] {
        theirs[point - 1] = n;
    }
    Position::from_sides(&mine, &theirs).unwrap()
}

/// X on roll, money play with the Jacoby rule.
fn money_x() -> MatchState {
    MatchState {
        on_roll: Player::One,
        turn: Player::One,
        jacoby: true,
        ..MatchState::money()
    }
}

/// The engine's hint at the expert level, as every front end must give it.
fn engine_hint(position: Position, state: MatchState) -> Hint {
    let mut search = Search::new(Arc::new(Nets::embedded()));
    let query = Query::from_state(position, state, true);
    hint::hint(&mut search, &query, &Level::Expert.settings())
}

/// `cubeful-cli hint ID --json` at the expert level.
fn cli_hint(id: &str) -> Value {
    let text = stdout(&["hint", id, "--level", "expert", "--json", "--no-bearoff"]);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON {text}: {e}"))
}

/// The terminal session's `hint --json` after `set gnubgid ID` (X, the person, decides).
fn terminal_hint(setup: &str, id: &str) -> (Value, String) {
    let mut child = Command::new(BIN)
        .args(["--no-bearoff", "--level", "expert", "--seed", "1"])
        .env("USER", "alice")
        .env_remove("CUBEFUL_BEAROFF_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubeful-cli starts");
    let script = format!("{setup}\nset gnubgid {id}\nhint --json\nhint\nquit\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("Refused"), "{text}");
    let json = text
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON in {text}"));
    (serde_json::from_str(json).unwrap(), text)
}

/// A number of the JSON as the `f32` it was printed from.
#[track_caller]
fn f32_of(v: &Value) -> f32 {
    v.as_f64().unwrap_or_else(|| panic!("a number, not {v}")) as f32
}

#[track_caller]
fn assert_same_plays(engine: &Hint, json: &Value, front_end: &str) {
    let Hint::Moves(plays) = engine else {
        panic!("plays expected, got {engine:?}");
    };
    let moves = json["moves"].as_array().unwrap_or_else(|| panic!("{json}"));
    assert_eq!(moves.len(), plays.moves.len(), "{front_end}: {json}");
    for (i, (m, p)) in moves.iter().zip(&plays.moves).enumerate() {
        assert_eq!(m["move"], p.text.as_str(), "{front_end}: play {i}");
        assert_eq!(f32_of(&m["equity"]), p.equity, "{front_end}: play {i}");
        assert_eq!(
            f32_of(&m["win"]),
            p.probabilities.win,
            "{front_end}: play {i}"
        );
        assert_eq!(
            f32_of(&m["difference"]),
            p.difference,
            "{front_end}: play {i}"
        );
        assert_eq!(m["plies"], u64::from(p.plies));
        match p.mwc {
            Some(mwc) => assert_eq!(f32_of(&m["mwc"]), mwc),
            None => assert!(m.get("mwc").is_none()),
        }
    }
}

#[test]
fn every_front_end_ranks_the_plays_the_same() {
    let pos = middle_game();
    // Money play, X to play 6-4.
    let state = MatchState {
        dice: Dice::new(6, 4).ok(),
        ..money_x()
    };
    let id = gnubg_id::encode(&pos, &state);
    let engine = engine_hint(pos, state);
    assert_same_plays(&engine, &cli_hint(&id), "cubeful-cli hint");
    let (terminal, _) = terminal_hint("new session", &id);
    assert_same_plays(&engine, &terminal, "terminal");
    // A 7-point match at 2-4 with the cube at 2 on X's side: match winning chances too.
    let state = MatchState {
        dice: Dice::new(5, 3).ok(),
        cube_log2: 1,
        cube_owner: CubeOwner::Owned(Player::One),
        score: [2, 4],
        jacoby: false,
        ..MatchState::new_match(7)
    };
    let state = MatchState {
        on_roll: Player::One,
        turn: Player::One,
        ..state
    };
    let id = gnubg_id::encode(&pos, &state);
    let engine = engine_hint(pos, state);
    assert_same_plays(&engine, &cli_hint(&id), "cubeful-cli hint (match)");
    let (terminal, _) = terminal_hint("new match 7", &id);
    assert_same_plays(&engine, &terminal, "terminal (match)");
}

#[test]
fn every_front_end_gives_the_same_cube_decision() {
    let pos = middle_game();
    let id = gnubg_id::encode(&pos, &money_x());
    let Hint::Cube(cube) = engine_hint(pos, money_x()) else {
        panic!("a cube decision expected");
    };
    let (terminal, text) = terminal_hint("new session", &id);
    for (json, who) in [(cli_hint(&id), "cubeful-cli hint"), (terminal, "terminal")] {
        let c = &json["cube"];
        assert_eq!(f32_of(&c["no_double"]), cube.decision.no_double, "{who}");
        assert_eq!(
            f32_of(&c["double_take"]),
            cube.decision.double_take,
            "{who}"
        );
        assert_eq!(
            f32_of(&c["double_pass"]),
            cube.decision.double_pass,
            "{who}"
        );
        assert_eq!(c["action"], cube.decision.action.text(), "{who}");
        assert_eq!(json["double"], cube.double, "{who}");
        assert_eq!(json["plies"], u64::from(cube.plies), "{who}");
    }
    assert!(text.contains("Proper cube action"), "{text}");
}

#[test]
fn a_pending_double_is_answered_take_or_drop_everywhere() {
    // O doubled X in the middle game: X answers. With beavers (money) the answer may be a
    // beaver; the equities are X's.
    let pos = middle_game();
    let doubled = MatchState {
        on_roll: Player::Zero,
        turn: Player::One,
        doubled: true,
        jacoby: true,
        ..MatchState::money()
    };
    let id = gnubg_id::encode(&pos, &doubled);
    let Hint::Take(take) = engine_hint(pos, doubled) else {
        panic!("a take hint expected");
    };
    let word = match take.response {
        cubeful_engine::cube::Response::Take => "take",
        cubeful_engine::cube::Response::Pass => "drop",
        cubeful_engine::cube::Response::Beaver => "beaver",
    };
    let (terminal, text) = terminal_hint("new session", &id);
    for (json, who) in [(cli_hint(&id), "cubeful-cli hint"), (terminal, "terminal")] {
        assert_eq!(json["response"], word, "{who}: {json}");
        assert_eq!(f32_of(&json["take"]), take.take, "{who}");
        assert_eq!(f32_of(&json["drop"]), -1.0, "{who}");
        assert_eq!(f32_of(&json["beaver"]), take.beaver.unwrap(), "{who}");
        assert_eq!(
            f32_of(&json["cube"]["double_take"]),
            take.decision.double_take,
            "{who}"
        );
        assert!(json.get("moves").is_none(), "{who}: not a cube hint");
    }
    // The plain text is about taking, not about doubling.
    assert!(
        text.contains(&format!("Proper answer to the double: {word}.")),
        "{text}"
    );
    assert!(text.contains("1. ") && text.contains("Drop"), "{text}");
    assert!(!text.contains("Proper cube action"), "{text}");
    // In a match there are no beavers.
    let doubled = MatchState {
        match_length: 5,
        jacoby: false,
        ..doubled
    };
    let id = gnubg_id::encode(&pos, &doubled);
    let json = cli_hint(&id);
    assert!(json.get("beaver").is_none(), "{json}");
    assert!(
        json["response"] == "take" || json["response"] == "drop",
        "{json}"
    );
    let (terminal, _) = terminal_hint("new match 5", &id);
    assert_eq!(terminal["response"], json["response"]);
    assert_eq!(terminal["take"], json["take"]);
}

#[test]
fn beavers_follow_the_rules_given() {
    // Doubled at the opening position: a beaver with beavers, a take without.
    let doubled = MatchState {
        on_roll: Player::Zero,
        turn: Player::One,
        doubled: true,
        ..MatchState::money()
    };
    let id = gnubg_id::encode(&Position::starting(), &doubled);
    assert_eq!(cli_hint(&id)["response"], "beaver");
    let text = stdout(&[
        "hint",
        &id,
        "--level",
        "expert",
        "--json",
        "--no-bearoff",
        "--no-beavers",
    ]);
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["response"], "take", "{json}");
    assert!(json.get("beaver").is_none(), "{json}");
    // The terminal follows `set beavers`.
    let (terminal, _) = terminal_hint("set beavers off\nnew session", &id);
    assert_eq!(terminal["response"], "take", "{terminal}");
    let (terminal, _) = terminal_hint("new session", &id);
    assert_eq!(terminal["response"], "beaver", "{terminal}");
}

#[test]
fn resignations_get_an_answer() {
    // O, on roll at the opening, offers X to resign a single game: X accepts.
    let resigned = MatchState {
        on_roll: Player::Zero,
        turn: Player::One,
        resigned: Some(Resignation::Single),
        ..MatchState::money()
    };
    let id = gnubg_id::encode(&Position::starting(), &resigned);
    let json = cli_hint(&id);
    assert_eq!(json["response"], "accept", "{json}");
    assert_eq!(json["offer"], "single");
    assert_eq!(json["points"], 1);
    assert_eq!(json["mwc"], false);
    assert!(f32_of(&json["accepting"]) >= f32_of(&json["playing_on"]));
    let text = stdout(&["hint", &id, "--level", "expert", "--no-bearoff"]);
    assert!(
        text.contains("Proper answer to the resignation: accept."),
        "{text}"
    );
}

/// `hint` (like `eval`, `rollout` and `temperature`) reads an XGID, labelled or not, as it
/// reads the same position's GNU Backgammon ID.
#[test]
fn an_xgid_gives_the_same_hint_as_the_gnubg_id() {
    let state = MatchState {
        dice: Some(Dice::new(3, 1).unwrap()),
        ..money_x()
    };
    let gnubg = gnubg_id::encode(&middle_game(), &state);
    let xgid = cubeful_engine::xgid::encode(&middle_game(), &state);
    // `--`: an XGID without its label may begin with '-'.
    let hint = |id: &str| stdout(&["hint", "--plies", "0", "--json", "--no-bearoff", "--", id]);
    let expected = hint(&gnubg);
    assert_eq!(hint(&xgid), expected);
    assert_eq!(hint(xgid.trim_start_matches("XGID=")), expected);
}
