//! Helpers shared by the end-to-end tests of `cubeful-cli`.

#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `cubeful-cli` with `args` (the bearoff folder from the environment is ignored).
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args(args)
        .env_remove("CUBEFUL_BEAROFF_DIR")
        .output()
        .expect("cubeful-cli runs")
}

/// Standard output of a run that must succeed.
pub fn stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "cubeful-cli {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Bad input: exit code 2, exactly one line on standard error mentioning `expect`, nothing on
/// standard output, never a panic.
pub fn assert_refused(args: &[&str], expect: &str) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.contains(expect),
        "{args:?}: {err:?} should mention {expect:?}"
    );
    assert!(out.stdout.is_empty());
}

/// Runs GNU Backgammon's terminal mode (`gnubg -t -q`) with `home` as its home folder, feeds it
/// `script` on standard input and waits for it to finish.
#[allow(dead_code)]
pub fn run_gnubg_script(gnubg: &std::path::Path, home: &std::path::Path, script: &str) -> Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = Command::new(gnubg)
        .args(["-t", "-q"])
        .env("HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gnubg starts");
    child
        .stdin
        .take()
        .expect("gnubg's standard input is piped")
        .write_all(script.as_bytes())
        .expect("gnubg reads its script");
    child.wait_with_output().expect("gnubg ends")
}
