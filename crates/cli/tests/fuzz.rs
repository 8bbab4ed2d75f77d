//! Mutated protocol lines through the binary: `cubeful-cli ubgi` on standard input and
//! `cubeful-cli external` over a loopback socket get a few thousand hostile lines each (see
//! `fuzz/lines.rs` for the seeds and mutations). Neither may panic or stop answering: the UBGI
//! engine ends normally at the end of its input with every output line a protocol line, and the
//! external player answers every line and still serves the next connection.
//!
//! The million-case versions run in process (`cargo test --release -p cubeful-cli -- --ignored
//! million`): `ubgi::fuzz_tests` and `external::fuzz_tests`.

mod common;

#[path = "fuzz/lines.rs"]
mod lines;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lines::{external_case, external_seeds, seed, ubgi_case, ubgi_seeds, Rng};

#[test]
fn ubgi_survives_mutated_lines() {
    const CASES: usize = 3_000;
    let started = Instant::now();
    let seeds = ubgi_seeds();
    let mut rng = Rng(seed(0xF022_0101));
    let mut input = String::new();
    for case in 0..CASES {
        let line = ubgi_case(&mut rng, &seeds);
        // `quit` would end the session early.
        if line.trim() != "quit" {
            input.push_str(&line);
            input.push('\n');
        }
        // Decisions in whatever context the lines before left (a 0-ply search).
        if case % 10 == 9 {
            input.push_str("go depth 0\n");
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args(["ubgi", "--no-bearoff"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubeful-cli ubgi starts");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The engine may stop reading only by ending, which the checks below report.
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("cubeful-cli ubgi ends");
    writer.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !stderr.contains("panicked"),
        "{}: {stderr}",
        out.status
    );
    let known = [
        "error ", "readyok", "id ", "option ", "ubgiok", "info ", "bestmove", "bestcube",
        "bestturn",
    ];
    let mut errors = 0;
    let mut answers = 0;
    for line in stdout.lines() {
        assert!(
            known.iter().any(|k| line.starts_with(k)),
            "not a UBGI line: {line:?}"
        );
        errors += usize::from(line.starts_with("error "));
        answers += usize::from(line.starts_with("best"));
    }
    println!(
        "UBGI through the binary: {CASES} mutated lines in {:.1} s: {errors} errors, {answers} \
         decisions",
        started.elapsed().as_secs_f64()
    );
    assert!(errors > CASES / 4, "{errors} errors");
    // Most decisions lack a position or dice after the mutated lines; some must be made.
    assert!(answers > 0, "no decision was made");
}

/// The server, killed when the test ends.
struct Server {
    child: std::process::Child,
    port: u16,
    log: std::thread::JoinHandle<String>,
}

fn start_external() -> Server {
    let (mut child, port) =
        common::spawn_external(&["--level", "beginner", "--no-bearoff"], Stdio::piped());
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    Server { child, port, log }
}

#[test]
fn external_player_survives_mutated_lines() {
    const CASES: usize = 2_000;
    let started = Instant::now();
    let seeds = external_seeds();
    let mut rng = Rng(seed(0xF022_0102));
    let mut server = start_external();
    let stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let reader = BufReader::new(stream.try_clone().unwrap());
    let answers = std::thread::spawn(move || reader.lines().map_while(Result::ok).collect());
    let mut writer = stream.try_clone().unwrap();
    let mut expected = 0;
    for _ in 0..CASES {
        let line = external_case(&mut rng, &seeds);
        // `version` answers four lines.
        expected += if line.eq_ignore_ascii_case("version") {
            4
        } else {
            1
        };
        writer
            .write_all(format!("{line}\n").as_bytes())
            .expect("the server reads");
    }
    stream.shutdown(Shutdown::Write).unwrap();
    let answers: Vec<String> = answers.join().unwrap();
    let errors = answers.iter().filter(|a| a.starts_with("Error:")).count();
    println!(
        "external player through the binary: {CASES} mutated lines in {:.1} s: {} answer lines, \
         {errors} errors",
        started.elapsed().as_secs_f64(),
        answers.len()
    );
    assert_eq!(answers.len(), expected, "every line is answered");
    assert!(errors > CASES / 4, "{errors} errors");
    // Still serving.
    let mut again = TcpStream::connect(("127.0.0.1", server.port)).expect("connect again");
    again
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    again.write_all(b"help\n").unwrap();
    let mut reply = String::new();
    BufReader::new(again.try_clone().unwrap())
        .read_line(&mut reply)
        .expect("an answer");
    assert!(reply.starts_with("Commands:"), "{reply:?}");
    let _ = server.child.kill();
    let _ = server.child.wait();
    let log = server.log.join().unwrap();
    assert!(!log.contains("panicked"), "{log}");
}
