//! Hostile input for every text and byte parser of the engine that reads what users paste or
//! files from the wild (the `.mat` and SGF readers have their own `mat_fuzz.rs` and
//! `sgf_fuzz.rs`): GNU Backgammon Position IDs, Match IDs and combined IDs, XGIDs, move notation,
//! FIBS `board:` lines, match equity tables (GNU Backgammon XML and Cubeful's text format) and
//! net files.
//!
//! Every case is a real input (the shared corpus: ID oracles and pairs, FIBS boards and the
//! recorded GNU Backgammon external-player session, METs; the project's nets; positions of random
//! games) mutated by a deterministic generator: bytes flipped, replaced, deleted, duplicated,
//! swapped and repeated, pieces of the format inserted, text cut off. No input may panic; every
//! error must say something; what parses must survive a round trip (write it, read it back, get
//! the same value). `cargo test` runs a short version of each parser; the `#[ignore]`d versions
//! run a million cases each:
//!
//! ```text
//! cargo test --release -p cubeful-engine --test fuzz -- --ignored million
//! ```
//!
//! `CUBEFUL_FUZZ_SEED` replaces the seeds (to explore further or to reproduce a failure).
//! `error_messages_are_one_short_line` checks the shape of every error message met on the way
//! (one line, under 1,000 bytes).

use std::fmt::Display;
use std::io::Read as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use cubeful_engine::cube::met::MatchEquityTable;
use cubeful_engine::eval::nn::{Net, NetClass};
use cubeful_engine::formats::fibs::{FibsBoard, FibsGame};
use cubeful_engine::formats::ids::identify;
use cubeful_engine::game::splitmix64;
use cubeful_engine::xgid::Xgid;
use cubeful_engine::{
    gnubg_id, legal_moves, match_id, notation, position_id, Dice, MatchState, Position,
};

// ---------------------------------------------------------------------------------------------
// The generator and the mutations
// ---------------------------------------------------------------------------------------------

#[path = "fuzz/mutate.rs"]
mod mutate;

use mutate::{mutate, seed, Rng};

/// One to three characters of `seed` (ASCII) replaced by characters of `alphabet`: inputs that
/// keep their shape, so that many stay valid and reach the checks after the syntax.
fn gently_mutated(rng: &mut Rng, seed: &str, alphabet: &[u8]) -> String {
    let mut bytes = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        if !bytes.is_empty() {
            let at = rng.below(bytes.len());
            if bytes[at].is_ascii() {
                bytes[at] = *rng.pick(alphabet);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Mutated text from a seed string.
fn mutated_text(rng: &mut Rng, seed: &str, alphabet: &[u8], tokens: &[&str]) -> String {
    let mut bytes = seed.as_bytes().to_vec();
    mutate(rng, &mut bytes, alphabet, tokens);
    String::from_utf8_lossy(&bytes).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Counting and checking
// ---------------------------------------------------------------------------------------------

/// What a run saw.
#[derive(Default)]
struct Stats {
    cases: usize,
    accepted: usize,
    refused: usize,
    /// Error messages that are not one line under 1,000 bytes: (message, input), first few.
    bad_messages: Vec<(String, String)>,
    bad_message_count: usize,
    slowest: Duration,
}

impl Stats {
    /// Records a refusal: its message must say something; its shape is recorded.
    fn refused(&mut self, error: &dyn Display, input: &str) {
        self.refused += 1;
        let message = error.to_string();
        assert!(!message.is_empty(), "an empty error message for {input:?}");
        if message.contains('\n') || message.len() >= 1000 {
            self.bad_message_count += 1;
            if self.bad_messages.len() < 5 {
                self.bad_messages.push((message, input.to_string()));
            }
        }
    }

    fn report(&self, name: &str, started: Instant) {
        println!(
            "{name}: {} cases in {:.1} s: {} accepted, {} refused with an error; slowest case \
             {:.1?}; {} error messages not one line under 1,000 bytes",
            self.cases,
            started.elapsed().as_secs_f64(),
            self.accepted,
            self.refused,
            self.slowest,
            self.bad_message_count
        );
        assert_eq!(self.accepted + self.refused, self.cases);
    }

    /// A case must not take long: anything slow is a hang in the making.
    fn timed(&mut self, at: Instant, input: &dyn std::fmt::Debug) {
        let took = at.elapsed();
        self.slowest = self.slowest.max(took);
        assert!(took.as_secs() < 5, "a case took {took:?}: {input:?}");
    }
}

/// Asserts that both outcomes are common: the mutations reach past the first checks and still
/// break inputs.
fn assert_mix(stats: &Stats, min_share: usize) {
    let min = stats.cases / min_share;
    assert!(
        stats.accepted >= min && stats.refused >= min,
        "{} accepted, {} refused of {}",
        stats.accepted,
        stats.refused,
        stats.cases
    );
}

// ---------------------------------------------------------------------------------------------
// Seeds from the corpus
// ---------------------------------------------------------------------------------------------

/// Position IDs, Match IDs and XGIDs found in the ID corpus (the oracle, the regressions, the
/// vectors and the ID pairs exported by GNU Backgammon).
struct IdSeeds {
    positions: Vec<String>,
    matches: Vec<String>,
    xgids: Vec<String>,
}

fn id_seeds() -> &'static IdSeeds {
    static SEEDS: std::sync::OnceLock<IdSeeds> = std::sync::OnceLock::new();
    SEEDS.get_or_init(read_id_seeds)
}

fn read_id_seeds() -> IdSeeds {
    let dir = cubeful_testkit::shared_path("corpus/ids");
    let mut text = String::new();
    for name in [
        "vectors.txt",
        "backgammoncalculator_gnu_4ply_identifier_oracle.csv",
        "backgammoncalculator_identifier_regressions.csv",
    ] {
        text.push_str(&std::fs::read_to_string(dir.join(name)).unwrap());
        text.push('\n');
    }
    let gz = std::fs::File::open(dir.join("gnubg_textexport_pairs_bglab.tsv.gz")).unwrap();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut text)
        .unwrap();
    let mut seeds = IdSeeds {
        positions: Vec::new(),
        matches: Vec::new(),
        xgids: Vec::new(),
    };
    let base64 = |w: &str| {
        w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    };
    for word in text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '"' | '\'' | '`')) {
        let word = word.trim_end_matches(['.', ';', ')']);
        if word.len() > 5 && word[..5].eq_ignore_ascii_case("XGID=") {
            seeds.xgids.push(word.to_string());
        } else if word.len() == 14 && base64(word) {
            seeds.positions.push(word.to_string());
        } else if word.len() == 12 && base64(word) {
            seeds.matches.push(word.to_string());
        }
    }
    for v in [&mut seeds.positions, &mut seeds.matches, &mut seeds.xgids] {
        v.sort();
        v.dedup();
    }
    assert!(seeds.positions.len() > 10_000, "{}", seeds.positions.len());
    assert!(seeds.matches.len() > 1_000, "{}", seeds.matches.len());
    assert!(seeds.xgids.len() > 1_000, "{}", seeds.xgids.len());
    seeds
}

/// Positions (seen from the player on roll) and match states to build other inputs from: the
/// corpus Position IDs and Match IDs that decode, and positions of random games (bar, hits,
/// bearoffs, finished games).
struct Situations {
    positions: Vec<Position>,
    states: Vec<MatchState>,
}

fn situations() -> &'static Situations {
    static SITUATIONS: std::sync::OnceLock<Situations> = std::sync::OnceLock::new();
    SITUATIONS.get_or_init(|| build_situations(&mut Rng(0x5171_0A71), id_seeds()))
}

fn build_situations(rng: &mut Rng, ids: &IdSeeds) -> Situations {
    let mut positions: Vec<Position> = ids
        .positions
        .iter()
        .step_by(7)
        .filter_map(|id| position_id::decode(id).ok())
        .collect();
    for _ in 0..200 {
        let mut position = Position::starting();
        for _ in 0..200 {
            let dice = random_dice(rng);
            let moves = legal_moves(&position, dice);
            let next = rng.pick(&moves).position;
            positions.push(next);
            if next.result().is_some() {
                break;
            }
            position = next.swap();
        }
    }
    let states = ids
        .matches
        .iter()
        .filter_map(|id| match_id::decode(id).ok())
        .collect();
    Situations { positions, states }
}

fn random_dice(rng: &mut Rng) -> Dice {
    Dice::new(1 + rng.below(6) as u8, 1 + rng.below(6) as u8).unwrap()
}

const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// ---------------------------------------------------------------------------------------------
// Position ID, Match ID, combined GNU Backgammon ID
// ---------------------------------------------------------------------------------------------

const ID_TOKENS: &[&str] = &[
    ":",
    " ",
    "\t",
    "\n",
    "=",
    "GNUID=",
    "GNUbg ID: ",
    "gnubgid ",
    "XGID=",
    "xgid=",
    "A",
    "/",
    "+",
    "//////",
    "AAAA",
    "é",
    "\u{3000}",
    "\0",
    "::",
    "4HPwATDgc/ABMA",
    "cAhvAAAAAAAE",
    "-",
];

fn fuzz_position_ids(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let seeds = id_seeds();
    let mut stats = Stats::default();
    for _ in 0..cases {
        let from = rng_pick_string(&mut rng, &seeds.positions);
        let text = if rng.below(3) == 0 {
            gently_mutated(&mut rng, from, BASE64)
        } else {
            mutated_text(&mut rng, from, BASE64, ID_TOKENS)
        };
        let at = Instant::now();
        stats.cases += 1;
        match position_id::decode(&text) {
            Ok(position) => {
                stats.accepted += 1;
                // IDs are canonical: no trailing bits, no bits after the key.
                assert_eq!(position_id::encode(&position), text.trim(), "{text:?}");
            }
            Err(e) => stats.refused(&e, &text),
        }
        stats.timed(at, &text);
    }
    stats.report("Position ID", started);
    stats
}

fn rng_pick_string<'a>(rng: &mut Rng, items: &'a [String]) -> &'a str {
    rng.pick(items).as_str()
}

fn fuzz_match_ids(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let seeds = id_seeds();
    let mut stats = Stats::default();
    for _ in 0..cases {
        let from = rng_pick_string(&mut rng, &seeds.matches);
        let text = if rng.below(3) == 0 {
            gently_mutated(&mut rng, from, BASE64)
        } else {
            mutated_text(&mut rng, from, BASE64, ID_TOKENS)
        };
        let at = Instant::now();
        stats.cases += 1;
        match match_id::decode(&text) {
            Ok(state) => {
                stats.accepted += 1;
                assert_eq!(match_id::encode(&state), text.trim(), "{text:?}");
            }
            Err(e) => stats.refused(&e, &text),
        }
        stats.timed(at, &text);
    }
    stats.report("Match ID", started);
    stats
}

/// Combined IDs with labels and separators, read by `gnubg_id::decode_parts` and by `identify`
/// (which also tries XGIDs).
fn fuzz_gnubg_ids(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let seeds = id_seeds();
    let labels = ["", "", "GNUID=", "GNUbg ID: ", "gnubgid ", "  ", "XGID="];
    let separators = [":", ":", " ", " : ", "\t"];
    let mut stats = Stats::default();
    for _ in 0..cases {
        let seed_text = match rng.below(8) {
            0 => rng_pick_string(&mut rng, &seeds.positions).to_string(),
            1 => rng_pick_string(&mut rng, &seeds.xgids).to_string(),
            _ => format!(
                "{}{}{}{}",
                rng.pick(&labels),
                rng_pick_string(&mut rng, &seeds.positions),
                rng.pick(&separators),
                rng_pick_string(&mut rng, &seeds.matches)
            ),
        };
        let text = if rng.below(3) == 0 {
            gently_mutated(&mut rng, &seed_text, BASE64)
        } else {
            mutated_text(&mut rng, &seed_text, BASE64, ID_TOKENS)
        };
        let at = Instant::now();
        stats.cases += 1;
        match gnubg_id::decode_parts(&text) {
            Ok((position, state)) => {
                stats.accepted += 1;
                let again = match state {
                    Some(s) => gnubg_id::decode_parts(&gnubg_id::encode(&position, &s)),
                    None => gnubg_id::decode_parts(&position_id::encode(&position)),
                };
                assert_eq!(again, Ok((position, state)), "{text:?}");
                assert_eq!(identify(&text), Ok((position, state)), "{text:?}");
            }
            Err(e) => {
                stats.refused(&e, &text);
                if let Err(e) = identify(&text) {
                    // Counted in the shape check, not as a second case.
                    let mut shape = Stats::default();
                    shape.refused(&e, &text);
                    stats.bad_message_count += shape.bad_message_count;
                    stats.bad_messages.extend(shape.bad_messages);
                }
            }
        }
        stats.timed(at, &text);
    }
    stats.report("GNU Backgammon ID (POSITIONID:MATCHID, identify)", started);
    stats
}

// ---------------------------------------------------------------------------------------------
// XGID
// ---------------------------------------------------------------------------------------------

const XGID_ALPHABET: &[u8] = b"-:0123456789ABCDEFGHIJKLMNOPabcdefghijklmnopqDBR";
const XGID_TOKENS: &[&str] = &[
    ":",
    "-",
    "-1",
    "1",
    "0",
    "00",
    "D",
    "B",
    "R",
    "66",
    "12",
    "XGID=",
    "xgid=",
    "32767",
    "32768",
    "15",
    "16",
    "10",
    "-0",
    "+1",
    "007",
    " ",
    "\t",
    "é",
    "::",
    "P",
    "p",
    "-----",
    "99999999999999999999",
];

fn fuzz_xgids(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let seeds = id_seeds();
    let mut stats = Stats::default();
    for _ in 0..cases {
        let from = rng_pick_string(&mut rng, &seeds.xgids);
        let text = if rng.below(3) == 0 {
            gently_mutated(&mut rng, from, XGID_ALPHABET)
        } else {
            mutated_text(&mut rng, from, XGID_ALPHABET, XGID_TOKENS)
        };
        let at = Instant::now();
        stats.cases += 1;
        match Xgid::parse(&text) {
            Ok(x) => {
                stats.accepted += 1;
                let written = x.to_string();
                let again = Xgid::parse(&written)
                    .unwrap_or_else(|e| panic!("{text:?} was written as {written:?}: {e}"));
                assert_eq!(again, x, "{text:?} -> {written:?}");
                assert_eq!(again.to_string(), written);
            }
            Err(e) => stats.refused(&e, &text),
        }
        stats.timed(at, &text);
    }
    stats.report("XGID", started);
    stats
}

// ---------------------------------------------------------------------------------------------
// Move notation
// ---------------------------------------------------------------------------------------------

const MOVE_ALPHABET: &[u8] = b"0123456789/*() ,:-barofBAROFx";
const MOVE_TOKENS: &[&str] = &[
    "/",
    "*",
    "(2)",
    "(3)",
    "(4)",
    "(5)",
    "(0)",
    "(",
    ")",
    ",",
    " ",
    "bar",
    "Bar",
    "b",
    "off",
    "Off",
    "o",
    "-",
    "25",
    "0",
    "26",
    "99",
    "Cannot Move",
    "cannot move",
    "61: ",
    "44: ",
    "66:",
    "bar/22",
    "6/off",
    "24/18*/13",
    "13/11(2)",
    "8/5 6/5",
    "\t",
    "é",
    "/off(4)",
    "1/Off(4)",
    "999999999999999999999",
];

/// Moves written by `format_move` for a legal play of a position and roll (or `Cannot Move`, or
/// with the roll in front), mutated, read by `parse_move` against the same position and roll.
/// What reads must be one of the legal plays; an unmutated text must read as the play it was
/// written for.
fn fuzz_notation(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let situations = situations();
    let mut stats = Stats::default();
    for case in 0..cases {
        let position = *rng.pick(&situations.positions);
        let dice = random_dice(&mut rng);
        let legal = legal_moves(&position, dice);
        let play = *rng.pick(&legal);
        let mut text = notation::format_move(&position, &play.mv);
        match rng.below(6) {
            0 => text = format!("{dice}: {text}"),
            1 if play.mv.is_empty() => text = "Cannot Move".to_string(),
            _ => {}
        }
        let mutated = case % 8 != 0;
        if mutated {
            text = mutated_text(&mut rng, &text, MOVE_ALPHABET, MOVE_TOKENS);
        }
        let at = Instant::now();
        stats.cases += 1;
        match notation::parse_move(&position, dice, &text) {
            Ok(found) => {
                stats.accepted += 1;
                assert!(
                    legal.iter().any(|m| m.position == found.position),
                    "{text:?} read as a play that is not legal"
                );
                if !mutated {
                    assert_eq!(found.position, play.position, "{text:?} ({dice})");
                }
            }
            Err(e) => {
                assert!(mutated, "{text:?} ({dice}) written by format_move: {e}");
                stats.refused(&e, &text);
            }
        }
        stats.timed(at, &text);
    }
    stats.report("move notation", started);
    stats
}

// ---------------------------------------------------------------------------------------------
// FIBS board lines
// ---------------------------------------------------------------------------------------------

const FIBS_ALPHABET: &[u8] = b"0123456789:-: board";
const FIBS_TOKENS: &[&str] = &[
    ":",
    "-",
    "-15",
    "15",
    "16",
    "-16",
    "9999",
    "32767",
    "32768",
    "65536",
    "0",
    "1",
    "-1",
    "2",
    "25",
    " ",
    "\t",
    "board:",
    "\0",
    "\n",
    "\r\n",
    "+1",
    "00",
    "é",
    "::",
    "4294967296",
    "99999999999999999999",
    "You",
    "\u{7}",
];

/// `board:` lines of the corpus and of the recorded GNU Backgammon session.
fn fibs_seeds(situations: &Situations, rng: &mut Rng) -> Vec<String> {
    let mut seeds = Vec::new();
    let examples = cubeful_testkit::read_shared("corpus/fibs/board_examples.txt");
    seeds.extend(
        examples
            .lines()
            .filter(|l| l.starts_with("board:"))
            .map(str::to_string),
    );
    let trace = cubeful_testkit::read_shared("docs/gnubg-external-trace.txt");
    for line in trace.lines() {
        if let Some(rest) = line.strip_prefix("C>S b'board:") {
            let body = rest.split("\\n").next().unwrap_or(rest);
            seeds.push(format!("board:{body}"));
        }
    }
    assert!(seeds.len() > 20, "{} FIBS seeds", seeds.len());
    // Lines written for positions and states of the corpus and of random games.
    for _ in 0..2000 {
        let position = *rng.pick(&situations.positions);
        let mut state = *rng.pick(&situations.states);
        if state.match_length > 0 {
            state.score = state.score.map(|s| s.min(state.match_length - 1));
        }
        let game = FibsGame::new(position, state, ["gnubg".into(), "You".into()]);
        if let Ok(board) = FibsBoard::from_game(&game) {
            seeds.push(board.to_string());
        }
    }
    seeds
}

/// `board:` lines read by `FibsBoard::parse`; what parses must write back to a line that parses
/// to the same board, and interpreting it (`to_game`) must not panic; a game it gives must be
/// written by `from_game` and read back to the same position and state.
fn fuzz_fibs(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let situations = situations();
    let seeds = fibs_seeds(situations, &mut rng);
    let mut stats = Stats::default();
    let mut games = 0usize;
    for _ in 0..cases {
        let from = rng_pick_string(&mut rng, &seeds);
        let text = mutated_text(&mut rng, from, FIBS_ALPHABET, FIBS_TOKENS);
        let at = Instant::now();
        stats.cases += 1;
        match FibsBoard::parse(&text) {
            Ok(board) => {
                stats.accepted += 1;
                let written = board.to_string();
                assert_eq!(FibsBoard::parse(&written).as_ref(), Ok(&board), "{text:?}");
                match board.to_game() {
                    Ok(game) => {
                        games += 1;
                        let line = FibsBoard::from_game(&game)
                            .unwrap_or_else(|e| panic!("{text:?}: from_game fails: {e}"));
                        let again = FibsBoard::parse(&line.to_string())
                            .and_then(|b| b.to_game())
                            .unwrap_or_else(|e| panic!("{text:?} written as {line}: {e}"));
                        assert_eq!(
                            (again.position, again.state),
                            (game.position, game.state),
                            "{text:?} written as {line}"
                        );
                    }
                    Err(e) => {
                        let mut shape = Stats::default();
                        shape.refused(&e, &text);
                        stats.bad_message_count += shape.bad_message_count;
                        stats.bad_messages.extend(shape.bad_messages);
                    }
                }
            }
            Err(e) => stats.refused(&e, &text),
        }
        stats.timed(at, &text);
    }
    println!("  ({games} of the accepted lines are games)");
    stats.report("FIBS board", started);
    stats
}

// ---------------------------------------------------------------------------------------------
// Match equity tables
// ---------------------------------------------------------------------------------------------

const XML_ALPHABET: &[u8] = b"<>/=\"' \n.0123456789e-metrowplayinfo&;#!?[]";
const XML_TOKENS: &[&str] = &[
    "<row>",
    "</row>",
    "<me>0.5</me>",
    "<me>",
    "</me>",
    "<",
    ">",
    "/>",
    "</",
    "<!--",
    "-->",
    "&amp;",
    "&#0;",
    "&#x110000;",
    "&lt;",
    "&bogus;",
    "<![CDATA[",
    "]]>",
    " type=\"zadeh\"",
    " type=\"mec\"",
    " type=\"explicit\"",
    " type=\"x\"",
    " player=\"0\"",
    " player=\"1\"",
    " player=\"both\"",
    " player=\"2\"",
    "<length>64</length>",
    "<length>-1</length>",
    "<length>65</length>",
    "<length>0</length>",
    "1e308",
    "NaN",
    "inf",
    "-0",
    "-0.5",
    "1.5",
    "\"",
    "'",
    "=",
    "<parameters>",
    "</parameters>",
    "<parameter name=\"delta\">0.5</parameter>",
    "<parameter name=\"gammon-rate\">2</parameter>",
    "<?xml version=\"1.0\"?>",
    "<!DOCTYPE met>",
    "é",
    "\u{FEFF}",
    "\0",
    "<info>",
    "</info>",
    "<met>",
    "</met>",
    "<pre-crawford-table>",
    "</pre-crawford-table>",
    "<post-crawford-table>",
    "</post-crawford-table>",
    "<name>x</name>",
];

const MET_TEXT_ALPHABET: &[u8] = b" \n.0123456789e-#=[]abcdefghijklmnopqrstuvwxyz";
const MET_TEXT_TOKENS: &[&str] = &[
    "\n",
    "#",
    "=",
    "[pre-crawford]\n",
    "[post-crawford both]\n",
    "[post-crawford 0]\n",
    "[post-crawford 1]\n",
    "[post-crawford 2]\n",
    "length = 64\n",
    "length = 65\n",
    "length = 0\n",
    "name = x\n",
    "cubeful-met 1\n",
    "cubeful-met 2\n",
    " 0.5",
    " 1.5",
    " NaN",
    " inf",
    " -0",
    " 1e308",
    "é",
    "\u{FEFF}",
    "\0",
    "\r\n",
    "\t",
];

fn met_xml_seeds() -> Vec<String> {
    let dir = cubeful_testkit::shared_path("corpus/met");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    paths.sort();
    let seeds: Vec<String> = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(seeds.len() >= 10, "{} MET XML files", seeds.len());
    seeds
}

/// GNU Backgammon MET XML read by `MatchEquityTable::from_gnubg_xml`; what reads must be written
/// in Cubeful's text format, read back, and written to the same text.
fn fuzz_met_xml(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let seeds = met_xml_seeds();
    let mut stats = Stats::default();
    for _ in 0..cases {
        let from = rng_pick_string(&mut rng, &seeds);
        let text = mutated_text(&mut rng, from, XML_ALPHABET, XML_TOKENS);
        let at = Instant::now();
        stats.cases += 1;
        match MatchEquityTable::from_gnubg_xml(&text) {
            Ok(table) => {
                stats.accepted += 1;
                let written = table.to_met_text();
                let again = MatchEquityTable::from_met_text(&written)
                    .unwrap_or_else(|e| panic!("written as\n{written}\ndoes not read: {e}"));
                assert_eq!(again.to_met_text(), written);
            }
            Err(e) => stats.refused(&e, &text),
        }
        stats.timed(at, &"(MET XML)");
    }
    stats.report("MET XML", started);
    stats
}

/// Cubeful's MET text format (the tables of the XML corpus written by `to_met_text`), read by
/// `MatchEquityTable::from_met_text`; what reads must write to a text that reads to the same
/// table.
fn fuzz_met_text(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let seeds: Vec<String> = met_xml_seeds()
        .iter()
        .filter_map(|x| MatchEquityTable::from_gnubg_xml(x).ok())
        .map(|t| t.to_met_text())
        .chain([MatchEquityTable::kazaross_xg2().to_met_text()])
        .collect();
    let mut stats = Stats::default();
    for _ in 0..cases {
        let from = rng_pick_string(&mut rng, &seeds);
        let text = mutated_text(&mut rng, from, MET_TEXT_ALPHABET, MET_TEXT_TOKENS);
        let at = Instant::now();
        stats.cases += 1;
        match MatchEquityTable::from_met_text(&text) {
            Ok(table) => {
                stats.accepted += 1;
                let written = table.to_met_text();
                let again = MatchEquityTable::from_met_text(&written)
                    .unwrap_or_else(|e| panic!("written as\n{written}\ndoes not read: {e}"));
                assert_eq!(again.to_met_text(), written);
            }
            Err(e) => stats.refused(&e, &text),
        }
        stats.timed(at, &"(MET text)");
    }
    stats.report("MET text", started);
    stats
}

// ---------------------------------------------------------------------------------------------
// Net files
// ---------------------------------------------------------------------------------------------

/// The project's net files and small random nets of every class.
fn net_seeds(rng: &mut Rng) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/nets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "net"))
        .collect();
    files.sort();
    let files: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(files.len() >= 3, "{} net files", files.len());
    let mut small = Vec::new();
    for class in NetClass::ALL {
        for inputs in 1..6 {
            for hidden in 1..4 {
                // One hidden layer (format version 1), or two (version 2).
                for second in 0..3 {
                    let mut state = rng.next();
                    let net = Net::random_deep(class, 1, inputs, hidden, second, 1.0, || {
                        (splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32
                    });
                    small.push(net.to_bytes());
                }
            }
        }
    }
    (files, small)
}

/// Net files read by `Net::from_bytes`: header fields set to edge values, weights to NaN and
/// infinities, bytes flipped, cut and appended; in half the cases the checksum is recomputed so
/// that the checks after it run. What reads must write back the same bytes.
fn fuzz_nets(cases: usize, seed: u64) -> Stats {
    let started = Instant::now();
    let mut rng = Rng(seed);
    let (files, small) = net_seeds(&mut rng);
    let edge: [u32; 10] = [0, 1, 2, 3, 5, 6, 100_000, 100_001, u32::MAX, 0x8000_0000];
    let mut stats = Stats::default();
    for _ in 0..cases {
        // The project's files (up to 200 kB) in one case of 64, small nets otherwise.
        let mut bytes = if rng.below(64) == 0 {
            rng.pick(&files).clone()
        } else {
            rng.pick(&small).clone()
        };
        for _ in 0..1 + rng.below(3) {
            let len = bytes.len();
            match rng.below(8) {
                0 if len >= 40 => {
                    // The header's u32 fields (version 2 has one more).
                    let field = 8 + 4 * rng.below(7);
                    bytes[field..field + 4].copy_from_slice(&rng.pick(&edge).to_le_bytes());
                }
                1 if len >= 44 => {
                    let at = 40 + 4 * rng.below((len - 44) / 4 + 1);
                    let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -0.0];
                    if at + 4 <= len {
                        bytes[at..at + 4].copy_from_slice(&rng.pick(&bad).to_le_bytes());
                    }
                }
                2 if len > 0 => {
                    let at = rng.below(len.min(48));
                    bytes[at] ^= 1 << rng.below(8);
                }
                3 if len > 0 => {
                    let at = rng.below(len);
                    bytes[at] = rng.below(256) as u8;
                }
                4 => {
                    let at = rng.below(len + 1);
                    bytes.truncate(at);
                }
                5 => {
                    let n = 1 + rng.below(16);
                    bytes.extend((0..n).map(|_| rng.below(256) as u8));
                }
                6 if len > 0 => {
                    let at = rng.below(len);
                    let end = (at + 1 + rng.below(8)).min(len);
                    bytes.drain(at..end);
                }
                _ => {}
            }
        }
        if rng.below(2) == 0 && bytes.len() >= 4 {
            let end = bytes.len() - 4;
            let crc = crc32(&bytes[..end]);
            bytes[end..].copy_from_slice(&crc.to_le_bytes());
        }
        let at = Instant::now();
        stats.cases += 1;
        match Net::from_bytes(&bytes) {
            Ok(net) => {
                stats.accepted += 1;
                assert!(
                    net.to_bytes() == bytes,
                    "a net does not write back its bytes"
                );
            }
            Err(e) => stats.refused(&e, &format!("({} bytes)", bytes.len())),
        }
        stats.timed(at, &bytes.len());
    }
    stats.report("net files", started);
    stats
}

/// CRC-32 (IEEE), bit by bit: the tests do not depend on the engine's checksum crate.
fn crc32(bytes: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        std::array::from_fn(|n| {
            let mut c = n as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            c
        })
    });
    !bytes.iter().fold(!0u32, |c, &b| {
        table[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8)
    })
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

const MILLION: usize = 1_000_000;

#[test]
fn position_ids() {
    let stats = fuzz_position_ids(30_000, seed(0xF022_0001));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn position_ids_million() {
    fuzz_position_ids(MILLION, seed(0xF022_1001));
}

#[test]
fn match_ids() {
    let stats = fuzz_match_ids(30_000, seed(0xF022_0002));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn match_ids_million() {
    fuzz_match_ids(MILLION, seed(0xF022_1002));
}

#[test]
fn gnubg_ids() {
    let stats = fuzz_gnubg_ids(30_000, seed(0xF022_0003));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn gnubg_ids_million() {
    fuzz_gnubg_ids(MILLION, seed(0xF022_1003));
}

#[test]
fn xgids() {
    let stats = fuzz_xgids(30_000, seed(0xF022_0004));
    // A changed character rarely leaves an XGID valid (checker counts, field ranges).
    assert_mix(&stats, 50);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn xgids_million() {
    fuzz_xgids(MILLION, seed(0xF022_1004));
}

#[test]
fn move_notation() {
    let stats = fuzz_notation(10_000, seed(0xF022_0005));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn move_notation_million() {
    fuzz_notation(MILLION, seed(0xF022_1005));
}

#[test]
fn fibs_boards() {
    let stats = fuzz_fibs(20_000, seed(0xF022_0006));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn fibs_boards_million() {
    fuzz_fibs(MILLION, seed(0xF022_1006));
}

#[test]
fn met_xml() {
    let stats = fuzz_met_xml(1_000, seed(0xF022_0007));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn met_xml_million() {
    fuzz_met_xml(MILLION, seed(0xF022_1007));
}

#[test]
fn met_text() {
    let stats = fuzz_met_text(1_000, seed(0xF022_0008));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn met_text_million() {
    fuzz_met_text(MILLION, seed(0xF022_1008));
}

#[test]
fn net_files() {
    let stats = fuzz_nets(20_000, seed(0xF022_0009));
    assert_mix(&stats, 20);
}

#[test]
#[ignore = "a million cases: cargo test --release -p cubeful-engine --test fuzz -- --ignored"]
fn net_files_million() {
    fuzz_nets(MILLION, seed(0xF022_1009));
}

/// Every error message met by the fuzzers above is one line shorter than 1,000 bytes (the MET
/// readers' reasons, which quote file text, are tidied to one line of at most 200 characters).
#[test]
fn error_messages_are_one_short_line() {
    let runs = [
        ("Position ID", fuzz_position_ids(20_000, 1)),
        ("Match ID", fuzz_match_ids(20_000, 2)),
        ("GNU Backgammon ID", fuzz_gnubg_ids(20_000, 3)),
        ("XGID", fuzz_xgids(20_000, 4)),
        ("move notation", fuzz_notation(5_000, 5)),
        ("FIBS board", fuzz_fibs(20_000, 6)),
        ("MET XML", fuzz_met_xml(1_000, 7)),
        ("MET text", fuzz_met_text(1_000, 8)),
        ("net files", fuzz_nets(5_000, 9)),
    ];
    let mut failures = Vec::new();
    for (name, stats) in &runs {
        for (message, input) in &stats.bad_messages {
            let cut = |s: &str| s.chars().take(300).collect::<String>();
            failures.push(format!(
                "{name} ({} in all): message {:?} ({} bytes) for input {:?}",
                stats.bad_message_count,
                cut(message),
                message.len(),
                cut(input)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
