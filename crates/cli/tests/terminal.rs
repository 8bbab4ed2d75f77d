//! End-to-end tests of the terminal session (`cubeful-cli` without a subcommand): scripts run
//! with `-c FILE`, and a whole match played through piped standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_cubeful-cli");

/// Fast, reproducible engine settings for every test.
const ENGINE: &[&str] = &["--no-bearoff", "--level", "expert"];

fn script_file(text: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let path =
        std::env::temp_dir().join(format!("cubeful-terminal-{}-{n}.txt", std::process::id()));
    std::fs::write(&path, text).expect("write the script");
    path
}

/// Runs `cubeful-cli -c SCRIPT` with a seed.
fn run_script(seed: u64, script: &str) -> Output {
    let path = script_file(script);
    let out = Command::new(BIN)
        .args(ENGINE)
        .args(["--seed", &seed.to_string(), "-c"])
        .arg(&path)
        .env("USER", "alice")
        .output()
        .expect("cubeful-cli runs");
    let _ = std::fs::remove_file(path);
    out
}

fn text(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// The JSON documents printed (one per line).
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON {l}: {e}")))
        .collect()
}

#[track_caller]
fn assert_ok(out: &Output) -> String {
    let stdout = text(out);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("Refused"), "{stdout}");
    stdout
}

#[test]
fn a_scripted_match_between_bots_runs_to_the_end() {
    let out = run_script(
        3,
        "new match 3\nset player 1 bot beginner\nshow score --json\nquit\nroll\n",
    );
    let stdout = assert_ok(&out);
    assert!(stdout.contains("has won the match."), "{stdout}");
    assert!(stdout.contains("Game 1 of the 3-point match"), "{stdout}");
    let score = json_lines(&stdout).pop().expect("show score --json");
    let s = score["score"].as_array().unwrap();
    let winner = score["winner"].as_str().expect("a winner");
    let (w, l) = if winner == "O" { (0, 1) } else { (1, 0) };
    assert!(
        s[w].as_u64().unwrap() >= 3 && s[l].as_u64().unwrap() < 3,
        "{score}"
    );
    // The board was shown with its IDs.
    assert!(stdout.contains("Position ID: ") && stdout.contains("Match ID   : "));
    // The same seed plays the same match.
    let again = run_script(
        3,
        "new match 3\nset player 1 bot beginner\nshow score --json\nquit\n",
    );
    assert_eq!(text(&again), stdout);
}

#[test]
fn refused_commands_say_why_and_change_nothing() {
    let script = "\
roll
frobnicate
new match 3
set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA
show board --json
move 24/1
take
accept
set dice 31
double
move 13/8
show board --json
set player 7 human
resign everything
";
    let out = run_script(1, script);
    let stdout = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim(),
        "cubeful-cli: 9 commands were refused",
        "{stderr}"
    );
    for reason in [
        "Refused: no game in progress",
        "Refused: unknown command 'frobnicate'",
        "Refused: you must roll first",
        "Refused: no double has been offered",
        "Refused: there is nothing to accept",
        "Refused: you have already rolled the dice",
        "Refused: that move is not legal: ",
        "Refused: no player is called '7'",
        "Refused: unknown resignation 'everything'",
    ] {
        assert!(stdout.contains(reason), "missing {reason:?} in\n{stdout}");
    }
    // The refused move left the position as it was after the roll of 3-1.
    let boards = json_lines(&stdout);
    assert_eq!(boards.len(), 2);
    assert_eq!(boards[0]["position_id"], "4HPwATDgc/ABMA");
    assert_eq!(boards[1]["position_id"], "4HPwATDgc/ABMA");
    assert_eq!(boards[1]["dice"], serde_json::json!([3, 1]));
    assert_eq!(boards[1]["to_act"], "X");
}

#[test]
fn setting_up_positions_and_rules() {
    let script = "\
new session
set xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10
show board --json
set matchid cAkAAAAAAAAA
show board --json
set board 4HPwATDgc/ABMA
set player 0 name Bob
set player 0 human
set turn bob
show board --json
set jacoby off
set beavers off
show board --json
set gnubgid 4HPwATDgc/ABMA:cAmgAEAAEAAE
set crawford on
show board --json
show pipcount
show score --json
help
help set
";
    let out = run_script(5, script);
    let stdout = assert_ok(&out);
    let boards = json_lines(&stdout);
    // The XGID: X on roll with 5-2 at the starting position, money game.
    assert_eq!(boards[0]["dice"], serde_json::json!([5, 2]));
    assert_eq!(boards[0]["to_act"], "X");
    assert_eq!(boards[0]["position_id"], "4HPwATDgc/ABMA");
    // The Match ID keeps the checkers.
    assert_eq!(boards[1]["match_id"], "cAkAAAAAAAAA");
    // set turn by name; names appear in the JSON.
    assert_eq!(boards[2]["on_roll"], "O");
    assert_eq!(boards[2]["names"], serde_json::json!(["Bob", "alice"]));
    assert_eq!(boards[3]["jacoby"], false);
    assert_eq!(boards[3]["beavers"], false);
    // A 5-point match at 4-2 from the GNU Backgammon ID, made the Crawford game.
    let crawford = &boards[4];
    assert_eq!(crawford["match_length"], 5);
    assert_eq!(crawford["crawford"], true, "{crawford}");
    assert!(
        stdout.contains("The pip counts are: Bob 167, alice 167."),
        "{stdout}"
    );
    let score = json_lines(&stdout).pop().unwrap();
    assert_eq!(score["names"], serde_json::json!(["Bob", "alice"]));
    assert!(stdout.contains("new match N | new session | new game"));
    assert!(stdout.contains("set board POSITION-ID"));
}

#[test]
fn hints_evaluations_and_resignations() {
    let script = "\
new match 5
set gnubgid 4HPwATDgc/ABMA:cAmgAAAAAAAE
show board --json
hint 3 --json
hint
eval --json
eval
set dice 64
hint 2 --json
resign backgammon
show score --json
";
    let out = run_script(9, script);
    let stdout = assert_ok(&out);
    let docs = json_lines(&stdout);
    assert_eq!(docs[0]["to_act"], "X", "{stdout}");
    // Before the roll: the cube decision.
    assert!(docs[1]["cube"]["action"].is_string(), "{}", docs[1]);
    assert!(stdout.contains("Proper cube action"));
    let eval = &docs[2];
    let win = eval["win"].as_f64().unwrap();
    assert!((0.3..0.7).contains(&win), "{eval}");
    assert!(eval["mwc"].is_number());
    assert!(stdout.contains("Match winning chance"));
    // After the roll: the best plays.
    let moves = docs[3]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert!(moves[0]["move"].is_string());
    // The bot accepts a resignation of a backgammon at the start of a game, and the game
    // after it starts by itself.
    assert!(
        stdout.contains("cubeful accepts the resignation."),
        "{stdout}"
    );
    assert!(
        stdout.contains("cubeful wins a backgammon and 3 points."),
        "{stdout}"
    );
    assert!(stdout.contains("Game 2 of the 5-point match"), "{stdout}");
    let score = docs.last().unwrap();
    assert_eq!(score["score"], serde_json::json!([3, 0]));
}

#[test]
fn doubles_against_the_bot() {
    // X (alice) is far ahead in a race and doubles: the bot passes.
    let script = "\
new session
set gnubgid 4O7uAAB3dwcAAA:cAkAAAAAAAAE
double
show score --json
";
    let out = run_script(2, script);
    let stdout = assert_ok(&out);
    assert!(stdout.contains("alice doubles to 2."), "{stdout}");
    assert!(
        stdout.contains("cubeful refuses the cube and gives up 1 point."),
        "{stdout}"
    );
    let score = json_lines(&stdout).pop().unwrap();
    assert_eq!(score["score"], serde_json::json!([0, 1]));
}

/// A session driven through pipes, reading one JSON document per request.
struct Driver {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    transcript: String,
    started: Instant,
}

impl Driver {
    fn start(args: &[&str]) -> Driver {
        let mut child = Command::new(BIN)
            .args(ENGINE)
            .args(args)
            .env("USER", "alice")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cubeful-cli starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Driver {
            child,
            stdin,
            stdout,
            transcript: String::new(),
            started: Instant::now(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write a command");
        self.stdin.flush().unwrap();
    }

    /// Sends `line` and returns the next JSON document printed.
    fn ask(&mut self, line: &str) -> Value {
        self.send(line);
        loop {
            assert!(
                self.started.elapsed() < Duration::from_secs(120),
                "too slow:\n{}",
                self.transcript
            );
            let mut text = String::new();
            let n = self.stdout.read_line(&mut text).expect("read output");
            assert!(n > 0, "the session ended:\n{}", self.transcript);
            self.transcript.push_str(&text);
            assert!(!text.starts_with("Refused"), "{}", self.transcript);
            if text.starts_with('{') {
                return serde_json::from_str(&text).expect("JSON");
            }
        }
    }
}

#[test]
fn a_whole_match_through_piped_stdin() {
    let mut d = Driver::start(&["--seed", "17"]);
    d.send("new match 3");
    let mut moves = 0;
    let mut decisions = 0;
    loop {
        decisions += 1;
        assert!(decisions < 2_000, "{}", d.transcript);
        let board = d.ask("show board --json");
        if board["game_over"] == true {
            let score = d.ask("show score --json");
            if score["winner"].is_string() {
                break;
            }
            // A money session would wait; a match goes on by itself.
            panic!("the next game did not start:\n{}", d.transcript);
        }
        assert_eq!(board["to_act"], "X", "{board}");
        let decision = board["decision"].as_str().unwrap().to_string();
        if decision.contains(": move ") {
            let hint = d.ask("hint 1 --json");
            let mv = hint["moves"][0]["move"].as_str().unwrap().to_string();
            d.send(&format!("move {mv}"));
            moves += 1;
        } else if decision.contains("roll or double") {
            d.send("roll");
        } else if decision.contains("take") {
            let hint = d.ask("hint --json");
            d.send(hint["response"].as_str().unwrap());
        } else if decision.contains("accept or reject") {
            d.send("reject");
        } else {
            panic!("unexpected decision {decision:?}:\n{}", d.transcript);
        }
    }
    assert!(moves > 5, "{}", d.transcript);
    assert!(d.transcript.contains("has won the match."));
    d.send("quit");
    let status = d.child.wait().unwrap();
    assert!(status.success());
}
