//! A scripted UBGI conversation with `cubeful-cli ubgi`, covering every command and every error
//! code, the way a host talks to an engine: one command at a time, waiting for the answer.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
            .args(["ubgi", "--no-bearoff"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cubeful-cli ubgi starts");
        let stdin = child.stdin.take().unwrap();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").expect("write a command");
        self.stdin.flush().unwrap();
    }

    fn next(&mut self) -> String {
        match self.lines.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                line
            }
            Err(_) => panic!("no answer:\n{}", self.transcript.join("\n")),
        }
    }

    /// Reads lines until one starts with `prefix`; returns all of them.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Sends a command that answers nothing, and checks that with `isready`.
    fn quiet(&mut self, line: &str) {
        self.send(line);
        self.send("isready");
        let answer = self.next();
        assert_eq!(answer, "readyok", "{line}:\n{}", self.transcript.join("\n"));
    }

    /// Sends a command that must be refused with `code`.
    fn refused(&mut self, line: &str, code: &str) {
        self.send(line);
        let answer = self.next();
        assert!(
            answer.starts_with(&format!("error {code} ")),
            "{line} -> {answer}\n{}",
            self.transcript.join("\n")
        );
    }
}

/// The steps of a move, in any order.
fn steps(text: &str) -> Vec<String> {
    let mut s: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    s.sort();
    s
}

fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1))
        .copied()
}

#[test]
fn a_conversation_covering_every_command_and_error() {
    let mut e = Engine::start();

    // Handshake.
    e.send("ubgi");
    let hello = e.until("ubgiok");
    assert!(hello[0].starts_with("id name Cubeful"), "{hello:?}");
    assert!(hello.iter().any(|l| l.starts_with("id author ")));
    for option in ["Threads", "Seed", "Deterministic", "EvalMode", "Level"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "{option}: {hello:?}"
        );
    }
    e.send("isready");
    assert_eq!(e.next(), "readyok");
    e.quiet("stop");

    // Options.
    e.quiet("setoption name Threads value 2");
    e.quiet("setoption name Seed value 42");
    e.quiet("setoption name Deterministic value true");
    e.quiet("setoption name EvalMode value cubeful");
    e.quiet("setoption name Level value expert");
    e.refused("setoption name Hash value 16", "unsupported_feature");
    e.refused("setoption name Threads value 0", "bad_argument");
    e.refused("setoption name Level value godlike", "bad_argument");
    e.refused("setoption Threads 2", "bad_argument");

    // Unknown commands; empty lines are ignored.
    e.refused("frobnicate now", "unknown_command");
    e.quiet("");

    // Context.
    e.quiet("newsession type match length 5 jacoby off crawford on");
    e.quiet("setscore 1 2");
    e.quiet("setcube value 2 owner p0");
    e.quiet("setturn p1");
    e.quiet("newgame");
    e.refused("newsession type match", "bad_argument");
    e.refused("newsession type nackgammon", "unsupported_feature");
    e.refused("setscore 5 0", "bad_argument");
    e.refused("setscore 1 2 crawford", "bad_argument");
    e.refused("setcube value 3 owner p0", "bad_argument");
    e.refused("setcube value 2 owner nobody", "bad_argument");
    e.refused("setturn p2", "bad_argument");

    // Decisions need a position, and a checker play needs dice.
    e.refused("go role chequer", "missing_context");
    e.quiet("position gnubgid 4HPwATDgc/ABMA");
    e.refused("go role chequer", "missing_context");
    e.refused("go role turn", "missing_context");
    e.refused("dice 7 1", "bad_argument");
    e.refused("position fen rnbqkbnr", "unsupported_feature");
    e.refused("position gnubgid nonsense", "bad_argument");
    e.refused("go role analyse", "bad_argument");
    e.refused("go role chequer depth 9", "bad_argument");
    e.quiet("dice 3 1");

    // A checker play: info with equity and probabilities, then the move.
    e.send("go role chequer movetime 1000 nodes 100 trials 10");
    let answer = e.until("bestmove ");
    let info = answer
        .iter()
        .find(|l| l.starts_with("info "))
        .expect("an info line");
    for key in [
        "eq", "pwin", "pgammon", "pbg", "plgammon", "plbg", "mwc", "depth", "time_ms", "pv",
    ] {
        assert!(value(info, key).is_some(), "{key} missing in {info}");
    }
    let pwin: f64 = value(info, "pwin").unwrap().parse().unwrap();
    assert!((0.4..0.7).contains(&pwin), "{info}");
    let id_line = answer
        .iter()
        .find(|l| l.starts_with("bestmoveid "))
        .expect("bestmoveid");
    assert_eq!(id_line.len(), "bestmoveid ".len() + 14, "{id_line}");
    let best = answer.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_eq!(steps(best), steps("8/5 6/5"), "{answer:?}");

    // The cube and the whole turn.
    e.send("go role cube");
    let cube = e.until("bestcube ");
    assert_eq!(cube.last().unwrap(), "bestcube nodouble");
    e.send("go role turn depth 1");
    let turn = e.until("bestturn ");
    let last = turn.last().unwrap();
    assert!(last.starts_with("bestturn cube=nodouble moveid="), "{last}");
    let (_, mv) = last.split_once(" move=").expect("a move");
    assert_eq!(steps(mv), steps("8/5 6/5"), "{last}");

    // An XGID with dice: X (bottom) to play 5-2.
    e.quiet("position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10");
    e.send("go");
    let play = e.until("bestmove ");
    assert!(play.last().unwrap().len() > "bestmove ".len());

    // Money play: a big race lead doubles; the same position with the double on offer is a
    // drop for the opponent.
    e.quiet("newsession type money");
    e.quiet("position gnubgid wPd9AADw+T4AAA:cAkAAAAAAAAE");
    e.send("go role cube");
    assert_eq!(e.until("bestcube ").last().unwrap(), "bestcube double");
    e.send("go role turn");
    let doubled = e.next();
    assert!(doubled.starts_with("error missing_context"), "{doubled}");
    e.quiet("dice 6 5");
    e.send("go role turn");
    assert_eq!(e.until("bestturn ").last().unwrap(), "bestturn cube=double");
    e.quiet("position gnubgid wPd9AADw+T4AAA:cBEAAAAAAAAE");
    e.send("go role cube");
    assert_eq!(e.until("bestcube ").last().unwrap(), "bestcube drop");
    e.refused("go role turn", "bad_argument");

    // A long search: other commands wait, isready answers at once, stop waits for the move.
    e.quiet("setoption name Level value grandmaster");
    e.quiet("position gnubgid 4HPwATDgc/ABMA");
    e.quiet("dice 4 2");
    e.send("go role chequer depth 3");
    e.send("newgame");
    e.send("isready");
    e.send("stop");
    let during = e.until("bestmove ");
    let error = during
        .iter()
        .position(|l| l.starts_with("error search_in_progress "))
        .unwrap_or_else(|| panic!("no search_in_progress error: {during:?}"));
    let ready = during.iter().position(|l| l == "readyok").expect("readyok");
    assert!(error < ready, "{during:?}");
    let best = during.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_eq!(steps(best), steps("8/4 6/4"), "{during:?}");

    // The engine is idle again.
    e.quiet("newgame");
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn end_of_input_ends_the_engine() {
    let out = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args(["ubgi", "--no-bearoff"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(
                b"ubgi\n\xff\xfe\nposition gnubgid 4HPwATDgc/ABMA\ndice 6 6\ngo role chequer\n",
            )?;
            drop(stdin);
            child.wait_with_output()
        })
        .expect("runs");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(
        text.contains("error bad_argument the line is not UTF-8"),
        "{text}"
    );
    // The search started just before the end of input still answers.
    assert!(
        text.lines().last().unwrap().starts_with("bestmove "),
        "{text}"
    );
}
