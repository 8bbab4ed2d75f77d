//! How `cubeful-cli` writes files and reads its data files (issue #15, parts 1 and 4): a planted
//! symbolic link is never followed, `-o` onto a FIFO or into a missing folder is refused, and a
//! `--nets` folder that cannot be used fails at once, in every command and in the terminal
//! session, with one line and exit code 2.

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use cubeful_testkit::ScratchDir;

const BIN: &str = env!("CARGO_BIN_EXE_cubeful-cli");

/// The starting position.
const START: &str = "4HPwATDgc/ABMA";

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path)
        .map(|m| m.file_type().is_fifo())
        .unwrap_or(false)
}

/// Runs `command` with `stdin` as its input, killing it and failing the test when it takes longer
/// than `seconds` (so that a regression fails instead of hanging).
fn run_within(mut command: Command, stdin: &str, seconds: u64) -> Output {
    let mut child = command
        .env_remove("CUBEFUL_BEAROFF_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    // Read the output on other threads, so a chatty child never blocks on a full pipe.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the command can be waited for") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish within {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn cli(args: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command.args(args);
    command
}

/// Exit code 2, one line on standard error mentioning every one of `expect`, nothing on standard
/// output.
fn assert_one_line_error(out: &Output, expect: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for e in expect {
        assert!(err.contains(e), "{err:?} should mention {e:?}");
    }
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

const GENERATE: [&str; 7] = [
    "bearoff",
    "generate",
    "--one-sided",
    "--points",
    "2",
    "--checkers",
    "2",
];

#[test]
fn bearoff_generate_never_follows_a_planted_temporary_link() {
    let dir = ScratchDir::new("cli-files-link");
    let victim = dir.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    let target = dir.join("x.cbd");
    // The reproduction: the shell plants links at the names the writer used to choose
    // (`.NAME.PID.N.tmp`), then becomes the program, keeping its process id.
    let script = format!(
        "for n in 0 1 2 3; do ln -s \"$1\" \"$2/.x.cbd.$$.$n.tmp\" || exit 9; done; exec \"$3\" {} -o \"$4\"",
        GENERATE.join(" ")
    );
    let mut command = Command::new("sh");
    command.args(["-c", &script, "sh", s(&victim), s(&dir), BIN, s(&target)]);
    let out = run_within(command, "", 60);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        std::fs::read(&victim).unwrap() == b"precious",
        "the file behind the planted link was overwritten"
    );
    let meta = std::fs::symlink_metadata(&target).unwrap();
    assert!(meta.is_file(), "the target is a regular file, not a link");
    let out = run_within(cli(&["bearoff", "verify", s(&target)]), "", 60);
    assert!(out.status.success());
}

#[test]
fn output_onto_a_fifo_is_refused_and_the_fifo_kept() {
    let dir = ScratchDir::new("cli-files-fifo");
    let fifo = dir.join("x.cbd");
    mkfifo(&fifo);
    let mut args = GENERATE.to_vec();
    args.extend(["-o", s(&fifo)]);
    let out = run_within(cli(&args), "", 60);
    assert_one_line_error(&out, &["x.cbd", "not a regular file"]);
    assert!(is_fifo(&fifo), "the FIFO is still a FIFO");
}

#[test]
fn output_into_a_missing_folder_is_refused_and_creates_nothing() {
    let dir = ScratchDir::new("cli-files-missing");
    let target = dir.join("no/such/x.cbd");
    let mut args = GENERATE.to_vec();
    args.extend(["-o", s(&target)]);
    let out = run_within(cli(&args), "", 60);
    assert_one_line_error(&out, &["does not exist"]);
    assert!(!dir.join("no").exists(), "no folder is created");
}

#[test]
fn nets_from_a_fifo_fail_at_once() {
    let dir = ScratchDir::new("cli-files-nets-fifo");
    mkfifo(&dir.join("contact.net"));
    let out = run_within(cli(&["eval", START, "--nets", s(&dir)]), "", 30);
    assert_one_line_error(&out, &["contact.net", "not a regular file"]);
    let out = run_within(cli(&["--nets", s(&dir)]), "new match 3\nroll\n", 30);
    assert_one_line_error(&out, &["contact.net", "not a regular file"]);
}

#[test]
fn nets_from_dev_zero_fail_at_once_without_eating_memory() {
    let dir = ScratchDir::new("cli-files-nets-zero");
    symlink("/dev/zero", dir.join("contact.net")).unwrap();
    // Under a limit of 4 GB of address space: reading /dev/zero until memory runs out would
    // abort there rather than harm the machine.
    let mut command = Command::new("sh");
    command.args([
        "-c",
        "ulimit -v 4000000 && exec \"$0\" eval \"$1\" --nets \"$2\"",
        BIN,
        START,
        s(&dir),
    ]);
    let out = run_within(command, "", 30);
    assert_one_line_error(&out, &["contact.net", "not a regular file"]);
}

#[test]
fn the_terminal_session_checks_its_nets_before_it_starts() {
    let dir = ScratchDir::new("cli-files-nets-empty");
    // What `eval` says about the folder …
    let eval = run_within(cli(&["eval", START, "--nets", s(&dir)]), "", 30);
    assert_one_line_error(&eval, &["contact.net"]);
    // … the session says before it starts, and it runs no command.
    let out = run_within(cli(&["--nets", s(&dir)]), "new match 3\nroll\n", 30);
    assert_one_line_error(&out, &["contact.net"]);
    assert_eq!(out.stderr, eval.stderr);
}
