//! Mutated protocol lines for the UBGI engine and the GNU Backgammon external player, shared by
//! the end-to-end fuzz test (`tests/fuzz.rs`, through the binary) and the in-process million-case
//! tests at the end of `src/ubgi.rs` and `src/external.rs` (included there with `#[path]`).
//!
//! Seeds: every command of each protocol with its arguments, the IDs of the shared ID corpus and
//! the `board:` lines of the recorded GNU Backgammon external-player session. A case is a seed
//! mutated by a deterministic generator (bytes flipped, replaced, deleted, duplicated, swapped
//! and repeated, words of the protocol inserted, text cut off). Searches are kept cheap: a `go`
//! gets `depth 0` appended and an `evaluation` gets `plies 0` (the last value of an argument
//! wins), so that a case that reaches the engine costs a 0-ply decision.

#![allow(dead_code)]

#[path = "../../../engine/tests/fuzz/mutate.rs"]
mod mutate;

pub use mutate::{mutate, seed, Rng};

use cubeful_testkit::read_shared;

/// `(position ID, match ID, XGID)` of the ID oracle.
fn corpus_ids() -> Vec<(String, String, String)> {
    let text = read_shared("corpus/ids/backgammoncalculator_gnu_4ply_identifier_oracle.csv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((
                f.get(2)?.to_string(),
                f.get(3)?.to_string(),
                f.last()?.to_string(),
            ))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// UBGI
// ---------------------------------------------------------------------------------------------

const UBGI_COMMANDS: &[&str] = &[
    "ubgi",
    "isready",
    "stop",
    "newgame",
    "setoption name Threads value 2",
    "setoption name Seed value 42",
    "setoption name Deterministic value false",
    "setoption name EvalMode value cubeless",
    "setoption name EvalMode value cubeful",
    "setoption name Level value expert",
    "setoption name Level value beginner",
    "newsession type match length 7 jacoby off crawford on",
    "newsession type money jacoby on",
    "newsession type match length 64",
    "setscore 3 5",
    "setscore 6 2 crawford",
    "setscore 6 6 postcrawford",
    "setcube value 2 owner p0",
    "setcube value 1 owner center",
    "setcube value 32768 owner p1",
    "setturn p1",
    "setturn p0",
    "dice 3 1",
    "dice 66",
    "dice 5 2",
    "go role chequer",
    "go role cube",
    "go role turn",
    "go",
    "go role checker movetime 100 nodes 5 trials 6",
];

const UBGI_ALPHABET: &[u8] = b" abcdeghilmnoprstuvwxyz0123456789:=/-+pP";
const UBGI_TOKENS: &[&str] = &[
    " ",
    "\t",
    "name",
    "value",
    "type",
    "length",
    "jacoby",
    "crawford",
    "on",
    "off",
    "p0",
    "p1",
    "center",
    "owner",
    "role",
    "depth",
    "chequer",
    "cube",
    "turn",
    "movetime",
    "-1",
    "0",
    "65",
    "32767",
    "32768",
    "4294967296",
    "99999999999999999999",
    "go",
    "position",
    "gnubgid",
    "xgid",
    "XGID=",
    ":",
    "é",
    "\u{3000}",
    "\r",
    "money",
    "match",
    "nackgammon",
    "crawford",
    "postcrawford",
    "Threads",
    "Level",
    "setoption",
];

/// UBGI command lines: every command and `position` lines with the corpus IDs.
pub fn ubgi_seeds() -> Vec<String> {
    let mut seeds: Vec<String> = UBGI_COMMANDS.iter().map(|s| s.to_string()).collect();
    for (position, matchid, xgid) in corpus_ids().into_iter().step_by(4) {
        seeds.push(format!("position gnubgid {position}:{matchid}"));
        seeds.push(format!("position gnubgid {position}"));
        seeds.push(format!("position xgid {xgid}"));
    }
    seeds
}

/// One UBGI case: a line without line breaks (a `go` with `depth 0` appended).
pub fn ubgi_case(rng: &mut Rng, seeds: &[String]) -> String {
    let mut bytes = rng.pick(seeds).as_bytes().to_vec();
    if rng.below(4) != 0 {
        mutate(rng, &mut bytes, UBGI_ALPHABET, UBGI_TOKENS);
    }
    let mut line = String::from_utf8_lossy(&bytes).replace(['\n', '\r'], " ");
    if line.split_whitespace().next() == Some("go") {
        line.push_str(" depth 0");
    }
    line
}

// ---------------------------------------------------------------------------------------------
// GNU Backgammon external player
// ---------------------------------------------------------------------------------------------

const EXTERNAL_COMMANDS: &[&str] = &[
    "version",
    "help",
    "set debug on",
    "set debug off",
    "set interface new",
    "set interface old",
    "set",
    "unknown",
];

const EXTERNAL_OPTIONS: &[&str] = &[
    "",
    "",
    " jacobyrule on",
    " crawfordrule off",
    " beavers off",
    " resignation 1",
    " resignation 2",
    " resignation 3",
    " jacobyrule off crawfordrule on beavers on resignation 0",
];

const EVALUATION_OPTIONS: &[&str] = &[
    "",
    " plies 1 cube on",
    " cubeful",
    " cubeless",
    " noise 0.1 deterministic",
    " noise 500",
    " prune",
    " cube off deterministic off",
];

const EXTERNAL_ALPHABET: &[u8] = b"0123456789:- board";
const EXTERNAL_TOKENS: &[&str] = &[
    ":",
    "-",
    "-15",
    "15",
    "16",
    "9999",
    "32768",
    "0",
    "1",
    "-1",
    "2",
    "25",
    " ",
    "\t",
    "board:",
    "\0",
    "\r",
    "+1",
    "é",
    "::",
    "99999999999999999999",
    "resignation",
    "jacobyrule",
    "crawfordrule",
    "beavers",
    "on",
    "off",
    "plies",
    "noise",
    "NaN",
    "inf",
    "1e9",
    "cube",
    "cubeful",
    "cubeless",
    "evaluation",
    "fibsboard",
    "deterministic",
    "prune",
];

/// External-player lines: the `board:` lines of the recorded GNU Backgammon session with the
/// session options, as `evaluation fibsboard` lines with the evaluation options, and the other
/// commands.
pub fn external_seeds() -> Vec<String> {
    let trace = read_shared("docs/gnubg-external-trace.txt");
    let boards: Vec<String> = trace
        .lines()
        .filter_map(|l| l.strip_prefix("C>S b'board:"))
        .map(|rest| format!("board:{}", rest.split("\\n").next().unwrap_or(rest)))
        .collect();
    assert!(boards.len() > 20, "{} boards in the trace", boards.len());
    let mut seeds: Vec<String> = EXTERNAL_COMMANDS.iter().map(|s| s.to_string()).collect();
    for (i, board) in boards.iter().enumerate() {
        seeds.push(format!(
            "{board}{}",
            EXTERNAL_OPTIONS[i % EXTERNAL_OPTIONS.len()]
        ));
        seeds.push(format!(
            "evaluation fibsboard {board}{}",
            EVALUATION_OPTIONS[i % EVALUATION_OPTIONS.len()]
        ));
    }
    seeds
}

/// One external-player case: a line without line breaks, NUL bytes and surrounding blanks (as
/// the server hands it to its answer), an `evaluation` with `plies 0` appended. Lines that close
/// the connection (`exit`, `quit`) become `help`.
pub fn external_case(rng: &mut Rng, seeds: &[String]) -> String {
    let mut bytes = rng.pick(seeds).as_bytes().to_vec();
    if rng.below(4) != 0 {
        mutate(rng, &mut bytes, EXTERNAL_ALPHABET, EXTERNAL_TOKENS);
    }
    let text = String::from_utf8_lossy(&bytes).replace(['\n', '\0'], " ");
    let mut line = text.trim().to_string();
    let first = line
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if first == "evaluation" {
        line.push_str(" plies 0");
    }
    if matches!(first.as_str(), "exit" | "quit") || line.is_empty() {
        line = "help".to_string();
    }
    line
}

/// What a run of mutated lines came to: the lines answered, those refused with an error
/// message, and the messages that are not one line under 1,000 bytes (with their lines).
#[derive(Default)]
pub struct Tally {
    pub answered: usize,
    pub refused: usize,
    pub bad_messages: Vec<(String, String)>,
}

impl Tally {
    /// Counts a refusal of `line` with `message`.
    pub fn refuse(&mut self, message: &str, line: &str) {
        self.refused += 1;
        if message.contains('\n') || message.len() >= 1000 {
            self.bad_messages
                .push((message.to_string(), line.to_string()));
        }
    }

    /// Prints the tally of `cases` lines run by `what` since `started` (`extra` after the
    /// counts) with the first bad messages, checks that a fair share of the lines were answered
    /// and refused, and returns the number of bad messages.
    pub fn report(
        &self,
        what: &str,
        cases: usize,
        extra: &str,
        started: std::time::Instant,
    ) -> usize {
        println!(
            "{what}: {cases} cases in {:.1} s: {} answered, {} refused{extra}; {} error messages \
             not one line under 1,000 bytes",
            started.elapsed().as_secs_f64(),
            self.answered,
            self.refused,
            self.bad_messages.len()
        );
        for (message, line) in self.bad_messages.iter().take(3) {
            let cut = |s: &str| s.chars().take(200).collect::<String>();
            println!(
                "  {:?} ({} bytes) for {:?}",
                cut(message),
                message.len(),
                cut(line)
            );
        }
        assert!(
            self.answered > cases / 20 && self.refused > cases / 4,
            "{} answered, {} refused",
            self.answered,
            self.refused
        );
        self.bad_messages.len()
    }
}
