//! The tutor of the terminal session (`set tutor on`): a person's bad play or missed double is
//! refused once with the tutor's warning, and kept when entered again.

use std::path::PathBuf;
use std::process::{Command, Output};

use cubeful_engine::{xgid, Dice, MatchState, Player, Position};

const BIN: &str = env!("CARGO_BIN_EXE_cubeful-cli");

/// Fast, reproducible engine settings (the tutor judges at the session's level).
const ENGINE: &[&str] = &["--no-bearoff", "--level", "expert"];

/// Runs `cubeful-cli -c SCRIPT`; the person is "alice" (player 1, X), the bot "cubeful".
fn run_script(name: &str, script: &str) -> Output {
    let path: PathBuf = std::env::temp_dir().join(format!(
        "cubeful-terminal-tutor-{}-{name}.txt",
        std::process::id()
    ));
    std::fs::write(&path, script).expect("write the script");
    let out = Command::new(BIN)
        .args(ENGINE)
        .args(["--seed", "5", "-c"])
        .arg(&path)
        .env("USER", "alice")
        .output()
        .expect("cubeful-cli runs");
    let _ = std::fs::remove_file(path);
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Alice (X) to act in a money session: the position seen from her, the dice if rolled.
fn alice(position: &Position, dice: Option<Dice>) -> String {
    let mut state = MatchState::money();
    state.on_roll = Player::One;
    state.turn = Player::One;
    state.dice = dice;
    xgid::encode(position, &state)
}

#[test]
fn a_blunder_is_refused_once_then_kept() {
    let opening = alice(&Position::starting(), Some(Dice::new(3, 1).unwrap()));
    let script =
        format!("new session\nset xgid {opening}\nset tutor on\nmove 6/5 6/3\nmove 6/5 6/3\n");
    let out = run_script("blunder", &script);
    let text = stdout(&out);
    // One refusal: the warning; the exit status says a command was refused.
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert_eq!(text.matches("Refused:").count(), 1, "{text}");
    let warning = text
        .lines()
        .find(|l| l.starts_with("Refused: the tutor warns: the play 6/5 6/3 is "))
        .unwrap_or_else(|| panic!("no warning in {text}"));
    assert!(
        warning.contains(" equity (the best play is 8/5 6/5). Enter it again to keep it."),
        "{warning}"
    );
    // Entered again, it is played.
    assert!(text.contains("6/5 6/3"), "{text}");
    let after = text.split(warning).nth(1).unwrap();
    assert!(after.contains("6/5 6/3"), "{text}");

    // The best play is not judged a mistake; with the tutor off nothing is judged.
    for script in [
        format!("new session\nset xgid {opening}\nset tutor on\nmove 8/5 6/5\n"),
        format!("new session\nset xgid {opening}\nset tutor on\nset tutor off\nmove 6/5 6/3\n"),
    ] {
        let out = run_script("good", &script);
        let text = stdout(&out);
        assert!(out.status.success(), "{text}");
        assert!(!text.contains("tutor warns"), "{text}");
    }
}

#[test]
fn a_missed_double_is_refused_once() {
    // Alice leads a long race by 14 pips (100 to 114), the cube in the middle: double, pass,
    // and not doubling costs about 0.1 at the session's 0-ply (0.2 at 2-ply). (With a 20-pip
    // lead the 0-ply race net is so sure of the race, 92% where 2-ply says 87%, that not
    // doubling is merely doubtful at 0-ply.)
    let race = Position::from_points(&[(8, 5), (7, 5), (5, 5)], &[(8, 5), (9, 3), (7, 5), (6, 2)])
        .unwrap();
    let race = alice(&race, None);
    let script = format!("new session\nset xgid {race}\nset tutor on\nroll\ndouble\n");
    let out = run_script("missed-double", &script);
    let text = stdout(&out);
    assert_eq!(text.matches("Refused:").count(), 1, "{text}");
    assert!(
        text.contains("Refused: the tutor warns: not doubling is ")
            && text.contains("(better: double). Enter it again to keep it."),
        "{text}"
    );
    // Doubling instead is right: the bot answers.
    assert!(text.contains("cubeful"), "{text}");
    assert!(
        !text.contains("Refused: the tutor warns: doubling"),
        "{text}"
    );
}
