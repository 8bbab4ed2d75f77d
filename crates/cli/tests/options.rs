//! Numeric options out of their ranges are refused where they are parsed (one line naming the
//! option, exit code 2, at once, never a panic), and output to a closed pipe ends the program
//! quietly.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::assert_refused;
use cubeful_testkit::ScratchDir;

/// Refused quickly (nothing is allocated or started for the value), on one line naming `option`.
fn refused(args: &[&str], option: &str) {
    let start = Instant::now();
    assert_refused(args, option);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{args:?} took {:?}",
        start.elapsed()
    );
}

#[test]
fn duel_counts_are_checked() {
    let duel = ["duel", "--a", "random", "--b", "random"];
    for (option, value) in [
        ("--games", "18446744073709551615"),
        ("--games", "1000000000000"),
        ("--games", "0"),
        ("--threads", "4294967296"),
        ("--threads", "0"),
        ("--threads", "257"),
    ] {
        let mut args = duel.to_vec();
        args.extend([option, value]);
        refused(&args, option);
    }
}

#[test]
fn sizes_of_benchmarks_and_samples_are_checked() {
    refused(
        &["bench", "eval", "--positions", "18446744073709551615"],
        "--positions",
    );
    refused(&["bench", "eval", "--positions", "0"], "--positions");
    for seconds in ["nan", "inf", "0", "-1", "1e9"] {
        let arg = format!("--seconds={seconds}");
        refused(&["bench", "eval", &arg], "--seconds");
    }
    refused(
        &["duel", "--a", "random", "--b", "random", "--games=-1"],
        "--games",
    );
    refused(&["bench", "movegen", "--passes", "0"], "--passes");
    refused(&["bench", "bearoff", "--lookups", "0"], "--lookups");
    refused(&["bench", "rollout", "--threads", "100000"], "--threads");
    let out = std::env::temp_dir().join(format!("cubeful-options-{}.bin", std::process::id()));
    let out = out.to_str().unwrap();
    refused(
        &[
            "train",
            "sample",
            "--out",
            out,
            "--positions",
            "18446744073709551615",
        ],
        "--positions",
    );
    for explore in ["7", "nan", "-0.5", "inf"] {
        let arg = format!("--explore={explore}");
        refused(&["train", "sample", "--out", out, &arg], "--explore");
        refused(&["train", "label", "--dir", out, &arg], "--explore");
    }
    refused(
        &["train", "sample", "--out", out, "--threads", "4294967296"],
        "--threads",
    );
    assert!(!std::path::Path::new(out).exists());
}

#[test]
fn td_settings_are_checked() {
    let scratch = ScratchDir::new("options-td");
    // The training folder does not exist yet: a bad option must not make it.
    let dir = scratch.join("td");
    let dir = dir.to_str().unwrap();
    for (option, value) in [
        ("--alpha", "inf"),
        ("--alpha", "nan"),
        ("--alpha", "0"),
        ("--alpha-end", "1.5"),
        ("--lambda", "5"),
        ("--lambda", "nan"),
        ("--games", "0"),
        ("--batch", "18446744073709551615"),
        ("--hidden", "0"),
        ("--hidden-race", "100000"),
        ("--checkpoint-every", "0"),
        ("--alpha-half-life", "0"),
        ("--bench-games", "18446744073709551615"),
        ("--threads", "4294967296"),
    ] {
        refused(&["train", "td", "--dir", dir, option, value], option);
    }
    assert!(
        !std::path::Path::new(dir).exists(),
        "nothing is started for a bad option"
    );
}

#[test]
fn search_options_are_checked() {
    let id = "4HPwATDgc/ABMA";
    for (option, value) in [
        ("--trials", "0"),
        ("--trials", "4294967296"),
        ("--candidates", "0"),
        ("--threads", "4294967296"),
        ("--stop-se", "nan"),
        ("--stop-jsd", "inf"),
        ("--truncate", "4294967295"),
        ("--late", "99999"),
    ] {
        refused(&["rollout", id, option, value], option);
    }
    refused(&["hint", id, "--dice", "42", "--top", "0"], "--top");
    refused(
        &["hint", id, "--dice", "42", "--rollout", "--threads", "1000"],
        "--threads",
    );
    refused(&["analyse", "x.sgf", "--threads", "1000"], "--threads");
    refused(&["analyse", "x.sgf", "--candidates", "0"], "--candidates");
    refused(&["external", "0", "--idle-timeout", "0"], "--idle-timeout");
    refused(
        &["external", "0", "--idle-timeout", "18446744073709551615"],
        "--idle-timeout",
    );
    refused(&["bearoff", "verify", "--samples", "0"], "--samples");
}

/// Any other command-line error of clap is one line too.
#[test]
fn command_line_errors_are_one_line() {
    refused(&["show", "--no-such-option"], "--no-such-option");
    refused(&["train", "td"], "--dir");
    refused(&["eval", "--plies", "9"], "--plies");
}

/// A command group without its subcommand still shows its help (on standard error, status 2).
#[test]
fn a_group_without_its_subcommand_shows_its_help() {
    let out = common::run(&["bench"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("Usage:") && err.contains("movegen"), "{err}");
}

/// Runs `args` with standard output a pipe whose reading end is closed at once; the program
/// must end without a panic or an error message (status 0, or killed by SIGPIPE as the
/// conventional shell status 141 says).
fn quiet_on_closed_pipe(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args(args)
        .env_remove("CUBEFUL_BEAROFF_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubeful-cli starts");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("cubeful-cli ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe") && err.trim().is_empty(),
        "{args:?}: {err}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        assert!(
            out.status.success() || out.status.signal() == Some(13),
            "{args:?}: {:?}",
            out.status
        );
    }
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    quiet_on_closed_pipe(&["moves", "4HPwATDgc/ABMA", "11"]);
    quiet_on_closed_pipe(&["show", "4HPwATDgc/ABMA"]);
    quiet_on_closed_pipe(&["eval", "4HPwATDgc/ABMA", "--json"]);
    quiet_on_closed_pipe(&["bench", "eval", "--positions", "100", "--seconds", "0.05"]);
    quiet_on_closed_pipe(&["--help"]);
    quiet_on_closed_pipe(&["duel", "--help"]);
}
