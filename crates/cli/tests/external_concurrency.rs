//! `cubeful-cli external` under hostile or slow clients: connections are served concurrently up
//! to `--max-connections` (beyond it a client gets one error line), a line must be complete
//! within `--idle-timeout` (trickling bytes without a newline counts as idle), and every line
//! gets an answer. Every wait here is bounded, so that a server that blocks fails the test
//! instead of hanging it.

mod common;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_cubeful-cli");

/// The opening roll 41 for player 1, from the recorded GNU Backgammon session.
const BOARD: &str = "board:gnubg:root:5:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:4:1:4:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

/// The server, killed when the test ends.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(extra: &[&str]) -> Server {
    let args = [&["--level", "beginner", "--no-bearoff"], extra].concat();
    let (child, port) = common::spawn_external(&args, Stdio::null());
    Server { child, port }
}

/// A connection whose reads give up after `timeout`.
fn connect(server: &Server, timeout: Duration) -> (TcpStream, BufReader<TcpStream>) {
    let stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    stream.set_read_timeout(Some(timeout)).unwrap();
    let reader = BufReader::new(stream.try_clone().unwrap());
    (stream, reader)
}

/// Sends `bytes` and reads one answer line (without its newline); panics when none comes.
fn ask(stream: &mut TcpStream, reader: &mut BufReader<TcpStream>, bytes: &[u8]) -> String {
    stream.write_all(bytes).expect("send");
    let mut line = String::new();
    reader
        .read_line(&mut line)
        .unwrap_or_else(|e| panic!("no answer to {:?}: {e}", String::from_utf8_lossy(bytes)));
    assert!(line.ends_with('\n'), "{line:?}");
    line.pop();
    line
}

/// Whether the server has closed the connection: end of file or a reset, not a time-out.
fn closed(reader: &mut BufReader<TcpStream>) -> bool {
    let mut byte = [0u8; 1];
    match reader.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
    }
}

#[test]
fn a_silent_client_does_not_block_the_next_one() {
    let server = start_server(&["--idle-timeout", "600"]);
    // The first client connects and says nothing.
    let (_silent, _silent_reader) = connect(&server, Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(200));
    // The second is answered at once.
    let started = Instant::now();
    let (mut s, mut r) = connect(&server, Duration::from_secs(20));
    let answer = ask(&mut s, &mut r, format!("{BOARD}\n\0").as_bytes());
    assert!(!answer.starts_with("Error"), "{answer}");
    assert!(ask(&mut s, &mut r, b"help\n").contains("evaluation"));
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_client_trickling_bytes_without_a_newline_is_dropped_after_the_idle_timeout() {
    let server = start_server(&["--idle-timeout", "2"]);
    // Timed from before the connection: the server's clock cannot start earlier, so a loaded
    // machine delaying this side cannot make the drop look early.
    let started = Instant::now();
    let (mut s, mut r) = connect(&server, Duration::from_millis(250));
    let mut dropped = None;
    while started.elapsed() < Duration::from_secs(15) {
        if s.write_all(b"b").is_err() || closed(&mut r) {
            dropped = Some(started.elapsed());
            break;
        }
    }
    let dropped = dropped.expect("the trickling client is still connected after 15 seconds");
    assert!(dropped >= Duration::from_millis(1500), "{dropped:?}");
    // The server goes on serving.
    let (mut s, mut r) = connect(&server, Duration::from_secs(20));
    assert_eq!(ask(&mut s, &mut r, b"set debug on\n"), "Debug output ON");
}

#[test]
fn a_silent_client_is_dropped_after_the_idle_timeout() {
    let server = start_server(&["--idle-timeout", "1"]);
    let (_s, mut r) = connect(&server, Duration::from_secs(10));
    let started = Instant::now();
    assert!(closed(&mut r), "not dropped within 10 seconds");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn clients_beyond_the_limit_are_refused_with_one_line() {
    let server = start_server(&["--max-connections", "1"]);
    let (mut a, mut ra) = connect(&server, Duration::from_secs(20));
    assert_eq!(ask(&mut a, &mut ra, b"set debug on\n"), "Debug output ON");
    // A second client is told so and disconnected.
    let (mut b, mut rb) = connect(&server, Duration::from_secs(20));
    // It may have sent its first line before hearing of the refusal.
    let _ = b.write_all(format!("{BOARD}\n\0").as_bytes());
    let mut refusal = String::new();
    rb.read_line(&mut refusal).expect("a refusal line");
    assert!(
        refusal.starts_with("Error: too many connections") && refusal.ends_with('\n'),
        "{refusal:?}"
    );
    assert!(closed(&mut rb));
    // The first one is still served; once it leaves, a new client is.
    assert_eq!(ask(&mut a, &mut ra, b"set debug off\n"), "Debug output OFF");
    a.write_all(b"exit\n").unwrap();
    assert!(closed(&mut ra));
    let started = Instant::now();
    loop {
        let (mut c, mut rc) = connect(&server, Duration::from_secs(20));
        let answer = ask(&mut c, &mut rc, b"set debug on\n");
        if answer == "Debug output ON" {
            break;
        }
        assert!(answer.starts_with("Error: too many"), "{answer}");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never served again"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_connection_limit_is_range_checked() {
    for bad in ["0", "100000", "x"] {
        let out = Command::new(BIN)
            .args(["external", "127.0.0.1:0", "--max-connections", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--max-connections {bad}");
    }
}

#[test]
fn every_line_gets_an_answer() {
    let server = start_server(&["--connections", "1"]);
    let (mut s, mut r) = connect(&server, Duration::from_secs(20));
    for line in [&b"\0\n"[..], b"\0\0 \0\n", b"\n", b"\r\n", b"\x01\n"] {
        let answer = ask(&mut s, &mut r, line);
        assert!(answer.starts_with("Error: "), "{line:?} -> {answer:?}");
    }
    // GNU Backgammon's own way: line, newline, NUL; the NUL starts the next line.
    for _ in 0..2 {
        let answer = ask(&mut s, &mut r, format!("{BOARD}\n\0").as_bytes());
        assert!(!answer.starts_with("Error"), "{answer}");
    }
    // The NUL after the last line, then the end: no answer, a clean close.
    s.write_all(b"exit\n").unwrap();
    assert!(closed(&mut r));
}

#[test]
fn error_answers_are_one_short_line() {
    let server = start_server(&["--connections", "1"]);
    let (mut s, mut r) = connect(&server, Duration::from_secs(20));
    let long = "\u{1}".repeat(30_000) + &"x".repeat(30_000);
    for line in [
        format!("{long}\n"),
        format!("set debug {long}\n"),
        format!("{BOARD} {long}\n"),
        format!("board:{long}\n"),
        format!(
            "{}\n",
            BOARD.replace(":5:0:0:0:", &format!(":{long}:0:0:0:"))
        ),
    ] {
        let answer = ask(&mut s, &mut r, line.as_bytes());
        assert!(answer.starts_with("Error: "), "{answer}");
        assert!(answer.len() < 250, "{} bytes: {answer}", answer.len());
        assert!(!answer.chars().any(char::is_control), "{answer:?}");
    }
}
