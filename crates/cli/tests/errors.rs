//! Error messages: one line, the user's input shortened and escaped, no repeated prefixes;
//! standard input that is not UTF-8 is refused line by line.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_cubeful-cli");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("cubeful-cli runs")
}

/// The error printed by a failing command: exactly one line.
#[track_caller]
fn error_line(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        !stderr.trim_end().chars().any(char::is_control),
        "{stderr:?}"
    );
    stderr.trim_end().to_string()
}

#[test]
fn a_huge_bad_id_gives_a_short_one_line_message() {
    let huge = "A".repeat(100_000);
    for args in [
        vec!["hint", &huge],
        vec!["eval", &huge],
        vec!["moves", &huge, "31"],
        vec!["show", &huge],
        vec!["show", "--xgid", &huge],
    ] {
        let line = error_line(&args);
        assert!(line.len() < 200, "{} bytes: {line}", line.len());
    }
    let nasty = format!("4HPw\u{1}\u{7f}{}", "x".repeat(1000));
    let line = error_line(&["hint", &nasty]);
    assert!(line.len() < 200 && line.contains("\\u{1}\\u{7f}"), "{line}");
}

#[test]
fn no_message_repeats_itself() {
    for (args, quoted) in [
        (
            vec!["moves", "4HPwATDgc/ABMAxx", "31"],
            "\"4HPwATDgc/ABMAxx\"",
        ),
        (vec!["hint", "4HPwATDgc/ABMAxx"], "\"4HPwATDgc/ABMAxx\""),
        (
            vec!["hint", "4HPwATDgc/ABMA:cAhvAAAAAAA"],
            "\"cAhvAAAAAAA\"",
        ),
        (
            vec!["eval", "4HPwATDgc/ABMA:cAhvAAAAAAA"],
            "\"cAhvAAAAAAA\"",
        ),
    ] {
        let line = error_line(&args);
        assert_eq!(line.matches(quoted).count(), 1, "{line}");
        assert!(
            !line.contains("Position ID \"4HPwATDgc/ABMAxx\": Position ID"),
            "{line}"
        );
        assert!(
            !line.contains("Match ID \"cAhvAAAAAAA\": Match ID"),
            "{line}"
        );
    }
    // No Rust names in what a user reads.
    let line = error_line(&["hint", "XGID=nonsense"]);
    assert!(!line.contains("::"), "{line}");
}

#[test]
fn the_terminal_session_refuses_a_line_that_is_not_utf8_and_goes_on() {
    let mut child = Command::new(BIN)
        .args(["--no-bearoff", "--level", "beginner"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubeful-cli runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"hel\xffp\nhelp\n\xc3\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert!(stdout.contains("line 1 is not valid UTF-8"), "{stdout}");
    assert!(stdout.contains("line 3 is not valid UTF-8"), "{stdout}");
    // The help after the bad line was answered.
    assert!(stdout.contains("new match"), "{stdout}");
    assert_eq!(stdout.matches("not valid UTF-8").count(), 2, "{stdout}");
}

#[test]
fn a_commands_file_with_a_line_that_is_not_utf8_runs_its_other_lines() {
    let path = std::env::temp_dir().join(format!("cubeful-errors-{}.txt", std::process::id()));
    std::fs::write(&path, b"help\n\xfe\xff\r\nhelp\n").unwrap();
    let out = Command::new(BIN)
        .args(["--no-bearoff", "--level", "beginner", "-c"])
        .arg(&path)
        .output()
        .expect("cubeful-cli runs");
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert!(stdout.contains("line 2 is not valid UTF-8"), "{stdout}");
    assert_eq!(stdout.matches("new match").count(), 2, "{stdout}");
}
