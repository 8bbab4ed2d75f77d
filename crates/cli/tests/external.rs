//! `cubeful-cli external`: a Rust client replays the board lines of a real GNU Backgammon session
//! (read at run time from the shared reference folder, see `trace_file()`; NUL bytes included)
//! over a loopback socket and checks that every answer is a legal one of the same kind; then
//! hostile input, disconnects and the other commands.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::Duration;

use cubeful_engine::formats::fibs::FibsBoard;
use cubeful_engine::{legal_moves, notation};

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
    let args = [&["--level", "expert", "--no-bearoff"], extra].concat();
    let (child, port) = common::spawn_external(&args, Stdio::null());
    Server { child, port }
}

fn connect(server: &Server) -> (TcpStream, BufReader<TcpStream>) {
    let stream = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let reader = BufReader::new(stream.try_clone().unwrap());
    (stream, reader)
}

fn answer(stream: &mut TcpStream, reader: &mut BufReader<TcpStream>, bytes: &[u8]) -> String {
    stream.write_all(bytes).expect("send");
    let mut line = String::new();
    reader.read_line(&mut line).expect("an answer");
    assert!(line.ends_with('\n'), "{line:?}");
    line.pop();
    line
}

/// Decodes the Python `b'...'` literal of a trace line.
fn python_bytes(literal: &str) -> Vec<u8> {
    let inner = literal
        .strip_prefix("b'")
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or_else(|| panic!("not a bytes literal: {literal}"));
    let mut out = Vec::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c as u8);
            continue;
        }
        match chars.next() {
            Some('n') => out.push(b'\n'),
            Some('r') => out.push(b'\r'),
            Some('t') => out.push(b'\t'),
            Some('\\') => out.push(b'\\'),
            Some('\'') => out.push(b'\''),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).unwrap());
            }
            other => panic!("unknown escape {other:?}"),
        }
    }
    out
}

fn trace_file() -> PathBuf {
    cubeful_testkit::shared_path("docs/gnubg-external-trace.txt")
}

#[test]
fn replays_the_recorded_gnubg_session_with_legal_answers() {
    let path = trace_file();
    let trace = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the recorded session {} is needed (shared/ beside the checkout): {e}",
            path.display()
        )
    });
    let mut exchanges = Vec::new();
    let mut pending: Option<Vec<u8>> = None;
    for line in trace.lines() {
        if let Some(sent) = line.strip_prefix("C>S ") {
            pending = Some(python_bytes(sent));
        } else if let Some(reply) = line.strip_prefix("S>C ") {
            let request = pending.take().expect("a request before each reply");
            let reply = String::from_utf8(python_bytes(reply)).unwrap();
            exchanges.push((request, reply.trim_end_matches('\n').to_string()));
        }
    }
    assert!(exchanges.len() > 100, "{} exchanges", exchanges.len());

    let server = start_server(&["--connections", "1"]);
    let (mut stream, mut reader) = connect(&server);
    let mut moves = 0;
    for (request, recorded) in &exchanges {
        // The client's bytes exactly as GNU Backgammon sent them: line, newline, NUL.
        assert!(request.ends_with(b"\n\0"));
        let ours = answer(&mut stream, &mut reader, request);
        let text = String::from_utf8_lossy(request);
        let board = FibsBoard::parse(&text).expect("a valid board line");
        let game = board.to_game().expect("a game");
        let recorded = recorded.trim();
        match recorded {
            "roll" | "double" => {
                assert!(ours == "roll" || ours == "double", "{text}: {ours:?}");
                assert!(game.state.dice.is_none() && !game.state.doubled);
            }
            "take" | "drop" | "beaver" => {
                assert!(ours == "take" || ours == "drop", "{text}: {ours:?}");
                assert!(game.state.doubled);
            }
            _ => {
                // A move (or no move): it must be legal for the roll.
                let dice = game.state.dice.expect("dice");
                let legal = legal_moves(&game.position, dice);
                let parsed = notation::parse_move(&game.position, dice, &ours)
                    .unwrap_or_else(|e| panic!("{text}: illegal answer {ours:?}: {e}"));
                assert!(legal.contains(&parsed));
                // GNU Backgammon's plain notation: one from/to per die, 25 for the bar, 0 for
                // off, a blank after each of the first three.
                let steps = ours.split_whitespace().count();
                assert_eq!(steps, parsed.mv.len(), "{ours:?}");
                assert_eq!(ours.ends_with(' '), (1..4).contains(&steps), "{ours:?}");
                assert!(!ours.contains("bar") && !ours.contains("off"), "{ours:?}");
                if recorded.is_empty() {
                    assert_eq!(ours, "", "{text}");
                }
                moves += 1;
            }
        }
    }
    assert!(moves > 50);
}

#[test]
fn hostile_lines_get_errors_and_the_server_survives() {
    let server = start_server(&["--connections", "3"]);
    let board = "board:gnubg:root:5:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:4:1:4:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    {
        let (mut s, mut r) = connect(&server);
        let mut ask = |bytes: &[u8]| answer(&mut s, &mut r, bytes);
        for hostile in [
            &b"\n"[..],
            b"\0garbage\n",
            b"hello there\n",
            b"board:\n",
            b"board:a:b:c\n",
            b"board:gnubg:root:5:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:9:9:4:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1\n",
            b"\xff\xfe\xfd binary\n",
            b"evaluation\n",
            b"evaluation fibsboard nothing\n",
            b"set prompt >\n",
            b"set debug maybe\n",
        ] {
            let reply = ask(hostile);
            assert!(
                reply.starts_with("Error: "),
                "{:?} -> {reply:?}",
                String::from_utf8_lossy(hostile)
            );
        }
        // A line far too long.
        let mut long = vec![b'9'; 200_000];
        long.push(b'\n');
        assert!(ask(&long).starts_with("Error: line too long"));
        // Options after a board: unknown ones are errors, known ones work.
        assert!(ask(format!("{board} plies 2\n").as_bytes()).starts_with("Error: "));
        assert!(ask(format!("{board} resignation 7\n").as_bytes()).starts_with("Error: "));
        // The connection is still usable.
        let mv = ask(format!("{board}\n\0").as_bytes());
        assert!(!mv.starts_with("Error"), "{mv}");
        let accept = ask(format!("{board} resignation 3 jacobyrule off\n").as_bytes());
        assert_eq!(accept, "accept");
        let reject = ask(format!("{board} resignation 1\n").as_bytes());
        assert!(reject == "accept" || reject == "reject", "{reject}");
        // Evaluation: five probabilities and the equity (match winning chance in a match).
        let eval =
            ask(format!("evaluation fibsboard {board} plies 1 cubeful noise 0\n").as_bytes());
        let numbers: Vec<f64> = eval
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(numbers.len(), 6, "{eval}");
        assert!(
            numbers[..5].iter().all(|p| (0.0..=1.0).contains(p)),
            "{eval}"
        );
        assert!(
            numbers[1] <= numbers[0] && numbers[2] <= numbers[1],
            "{eval}"
        );
        assert!((0.0..=1.0).contains(&numbers[5]), "{eval}");
        assert!(eval
            .split_whitespace()
            .all(|n| n.split('.').nth(1).unwrap().len() == 6));
        let eval_money = ask(
            b"EVALUATION FIBSBOARD board:a:b:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1 CUBE OFF\n",
        );
        assert_eq!(eval_money.split_whitespace().count(), 6, "{eval_money}");
        assert!(ask(b"version\n").starts_with("Interface: "));
        // The version has four lines.
        for _ in 0..3 {
            let mut rest = String::new();
            r.read_line(&mut rest).unwrap();
            assert!(rest.contains(": "), "{rest}");
        }
    }
    {
        // A client that vanishes in the middle of a line.
        let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        s.write_all(b"board:gnubg:root:5:0:0").unwrap();
        drop(s);
    }
    {
        // The server takes the next connection, answers, and closes on exit.
        let (mut s, mut r) = connect(&server);
        assert_eq!(answer(&mut s, &mut r, b"set debug on\n"), "Debug output ON");
        let help = answer(&mut s, &mut r, b"help\n");
        assert!(help.contains("evaluation"), "{help}");
        s.write_all(b"exit\n").unwrap();
        let mut rest = Vec::new();
        r.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty());
    }
    // All three connections served: the server exits by itself.
    let mut server = server;
    let status = server.child.wait().unwrap();
    assert!(status.success());
}
