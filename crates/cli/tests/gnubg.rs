//! End to end with the real GNU Backgammon: `gnubg -t` plays three 3-point matches and three
//! money games against `cubeful-cli external` (its player 1 is set to `external
//! 127.0.0.1:PORT`). Every game must finish and GNU Backgammon must print no error or warning
//! about the external player.
//!
//! Where gnubg is not installed the test says so loudly and passes; under CI (`CI=true`) it
//! fails instead (`.ci/run` installs the Debian package `gnubg`).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cubeful_testkit::ScratchDir;

#[test]
fn gnubg_plays_matches_and_money_games_against_cubeful() {
    let Some(gnubg) = cubeful_testkit::gnubg("the end-to-end test against it") else {
        return;
    };

    // The server: fast (0-ply) and without bearoff databases, one connection.
    let mut server = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args([
            "external",
            "127.0.0.1:0",
            "--level",
            "expert",
            "--no-bearoff",
            "--connections",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubeful-cli external starts");
    let mut server_out = BufReader::new(server.stdout.take().unwrap());
    let mut first = String::new();
    server_out.read_line(&mut first).unwrap();
    let port: u16 = first
        .trim()
        .trim_end_matches("...")
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        let mut line = String::new();
        while server_out
            .read_line(&mut line)
            .map(|n| n > 0)
            .unwrap_or(false)
        {
            text.push_str(&line);
            line.clear();
        }
        text
    });

    // GNU Backgammon, scripted through its standard input, in a home of its own.
    let home = ScratchDir::new("gnubg-home");
    let script = format!(
        "set player 0 gnubg\n\
         set player 0 chequerplay evaluation plies 0\n\
         set player 0 cubedecision evaluation plies 0\n\
         set player 1 external 127.0.0.1:{port}\n\
         set player 1 name cubeful\n\
         set seed 20240601\n\
         set display off\n\
         set automatic game on\n\
         new match 3\n\
         new match 3\n\
         new match 3\n\
         set automatic game off\n\
         new session\n\
         new game\n\
         new game\n\
         show score\n\
         quit\n"
    );
    let mut child = cubeful_testkit::spawn_gnubg(&gnubg, &home, &["-r"], &script);
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = server.kill();
            panic!("GNU Backgammon did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = server.kill();
    let _ = server.wait();
    let server_log = log.join().unwrap_or_default();

    let context = format!("gnubg output:\n{output}\nserver log:\n{server_log}");
    assert!(
        server_log.contains("Accepted connection from 127.0.0.1"),
        "{context}"
    );
    assert_eq!(
        output.matches("has won the match").count(),
        3,
        "three matches must finish\n{context}"
    );
    assert!(
        output.matches("(money session").count() >= 3,
        "three money games must finish\n{context}"
    );
    for bad in [
        "Error",
        "Warning",
        "badly formed",
        "illegal",
        "External connection closed",
    ] {
        assert!(!output.contains(bad), "gnubg printed {bad:?}\n{context}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "too slow: {:?}",
        started.elapsed()
    );
}
