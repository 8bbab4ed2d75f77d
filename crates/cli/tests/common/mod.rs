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

/// Starts `cubeful-cli external 127.0.0.1:0 ARGS…` with its standard error going to `stderr`,
/// reads the port it listens on from its first line, and keeps draining its standard output
/// (its log) so that it never blocks on a full pipe. The caller kills the child.
pub fn spawn_external(args: &[&str], stderr: std::process::Stdio) -> (std::process::Child, u16) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args(["external", "127.0.0.1:0"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("cubeful-cli external starts");
    let mut reader = std::io::BufReader::new(child.stdout.take().expect("piped"));
    let mut first = String::new();
    reader
        .read_line(&mut first)
        .expect("the server says where it listens");
    assert!(first.contains("127.0.0.1:"), "{first}");
    let port = first
        .trim()
        .trim_end_matches("...")
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    std::thread::spawn(move || {
        let mut sink = String::new();
        while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
            sink.clear();
        }
    });
    (child, port)
}
