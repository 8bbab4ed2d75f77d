//! Replays every game of the Jellyfish match corpus (`shared/corpus/mat/`, five producers) with
//! the .mat reader and the move parser: every move text must parse to a legal play of the position
//! reached so far. The few real defects of the files are listed exactly below, so the test fails
//! both if parsing regresses and if an exception silently disappears.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use cubeful_engine::formats::mat::{ActionKind, Game, MatchFile, Play};
use cubeful_engine::formats::notation::{parse_move, MoveParseError};
use cubeful_engine::{legal_moves, Dice, Player, Position, Side};

/// What kept a game from being replayed to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A move text that is not a legal play of the position: the replay stops (GNU Backgammon
    /// stops the import there, or warns and drops the move).
    Illegal,
    /// A Snowie `Illegal play (...)` line: the play is replaced by a position, which this replay
    /// does not apply, so the game stops.
    Snowie,
    /// A column that is neither a roll nor a cube or end action: GNU Backgammon warns and ignores
    /// it, and so does the replay.
    Unreadable,
    /// A roll by the player not on roll while the player on roll was not on the bar (so the gap
    /// cannot be an unrecorded dance), or a roll after the game was over: the replay stops.
    OutOfTurn,
}

/// The exceptions of the corpus, as (`producer/file:line`, kind), in replay order; every other
/// roll of the 1,900 files replays. Galaxy has 2, Hardy's hand-transcribed archive 41; gnubg, Studio
/// and XG none. The comment after each entry gives the text and why it cannot be played.
const EXPECTED_EXCEPTIONS: &[(&str, Kind)] = &[
    // Galaxy writes `24)  Losses 2 point ... Wins 2 point and the match` into the right column.
    ("galaxy/match2900236.txt:59", Kind::Unreadable),
    ("galaxy/match3241209.txt:102", Kind::Unreadable),
    // `55: 25/20 20/15 15/10 10/5`: nobody is on the bar.
    ("hardy/cmj85pywe000keugg85z178bz.txt:342", Kind::Illegal),
    // `64: 13/7`, then a resignation: only one die played where both can be.
    ("hardy/cmj85q5mg000qeuggisvp5h8g.txt:43", Kind::Illegal),
    // `22: 3/1`, then a resignation: one die played where four can be.
    ("hardy/cmj85q6rs000reuggdx9yt6hb.txt:110", Kind::Illegal),
    // `34: 3/0 3/0` in both columns: the right one copies the left one.
    ("hardy/cmj85q92v000teuggfyk40xsj.txt:61", Kind::Illegal),
    // `61: 12/6 11/9`, `63: 13/3`, `21: 6/2`: distances no die covers.
    ("hardy/cmj85qi800011eugg8mjr0fy2.txt:38", Kind::Illegal),
    ("hardy/cmj85qi800011eugg8mjr0fy2.txt:220", Kind::Illegal),
    ("hardy/cmj85qi800011eugg8mjr0fy2.txt:342", Kind::Illegal),
    // `65: Illegal play (25;0;1;...)`.
    ("hardy/cmj85qjee0012euggyjvtzidj.txt:561", Kind::Snowie),
    // `61: 4/0 1/0`, `62: 1/0 1/0`, `44: 3/0 3/0 2/0 2/0`, `11: 2/1 1/0 1/0 1/0`: the other
    // column's move copied (bearing off with checkers outside, from the bar, ...).
    ("hardy/cmj85qkjj0013euggt5x3vuqy.txt:182", Kind::Illegal),
    ("hardy/cmj85qkjj0013euggt5x3vuqy.txt:245", Kind::Illegal),
    ("hardy/cmj85qkjj0013euggt5x3vuqy.txt:307", Kind::Illegal),
    ("hardy/cmj85qkjj0013euggt5x3vuqy.txt:343", Kind::Illegal),
    // `54: Illegal play (21;0;1;...)`.
    ("hardy/cmj85wrj3001weuggpddobbkj.txt:128", Kind::Snowie),
    // `Malcom Davis : 6`: the score line repeated as a move.
    ("hardy/cmj85xoe7001yeuggwtqxh1jl.txt:129", Kind::Unreadable),
    // `41: 41: 24/23 13/9`: the roll written twice; the first reads as a left roll left unplayed.
    ("hardy/cmj85xs20003qeugg3jc1u3wp.txt:184", Kind::OutOfTurn),
    // `4/0 1/0` without its roll, so the opponent's `41:` on the same line is out of turn.
    ("hardy/cmj85xs20003qeugg3jc1u3wp.txt:323", Kind::Unreadable),
    ("hardy/cmj85xs20003qeugg3jc1u3wp.txt:323", Kind::OutOfTurn),
    // `33: 13/10 6/4`: 6/4 is not a 3.
    ("hardy/cmj85xs20003qeugg3jc1u3wp.txt:412", Kind::Illegal),
    // `33: 5/2 4/1 4/1 3/0`, `24: 2/0 4/0`: the other column's move copied.
    ("hardy/cmj85xv3x005yeugguhtkrn8j.txt:230", Kind::Illegal),
    ("hardy/cmj85xv3x005yeugguhtkrn8j.txt:258", Kind::Illegal),
    // `Frederic Banjout : 3`: the score line repeated as a move.
    ("hardy/cmj85xxg90075euggs9rg25cu.txt:206", Kind::Unreadable),
    // `36: 2/0 2/0`: the other column's move copied.
    ("hardy/cmj85xxg90075euggs9rg25cu.txt:352", Kind::Illegal),
    // `Frederic Banjout : 15       Frederic Banjou` + `t : 15`, `Frederic Banjout : 17`.
    ("hardy/cmj85xxg90075euggs9rg25cu.txt:456", Kind::Unreadable),
    ("hardy/cmj85xxg90075euggs9rg25cu.txt:456", Kind::Unreadable),
    ("hardy/cmj85xxg90075euggs9rg25cu.txt:513", Kind::Unreadable),
    // `15: 3/2 4/0`, `46: 5/1 5/0`, `22: 3/1 3/1 3/1 3/1`, `31: 3/0 3/2`: the other column's
    // move copied.
    ("hardy/cmj85xxg90075euggs9rg25cu.txt:535", Kind::Illegal),
    ("hardy/cmj85xyxi0082euggeg3brcum.txt:194", Kind::Illegal),
    ("hardy/cmj85y69x00d5euggzmtsb8et.txt:359", Kind::Illegal),
    ("hardy/cmj85y69x00d5euggzmtsb8et.txt:392", Kind::Illegal),
    // `64: 7/1 7/4` (7/4 is not a 6 or a 4; the file's own remarks call it illegal).
    ("hardy/cmj85yc1600h3euggjuzo3ywx.txt:42", Kind::Illegal),
    // `54: 25/16 14/15`: backwards (the remarks: Sconyers replaced 10/15 for 10/14).
    ("hardy/cmj85yc1600h3euggjuzo3ywx.txt:217", Kind::Illegal),
    // `22: 25/24 6/3`, `65: 5/3 5/0`, `31: 24/22 6/1`, `21: 21/16*`, `53: 14/4`: distances no
    // die covers.
    ("hardy/cmj85ygf700k6euggn3r0eui6.txt:93", Kind::Illegal),
    ("hardy/cmj85ygf700k6euggn3r0eui6.txt:232", Kind::Illegal),
    ("hardy/cmj85ygf700k6euggn3r0eui6.txt:350", Kind::Illegal),
    ("hardy/cmj85ygf700k6euggn3r0eui6.txt:398", Kind::Illegal),
    ("hardy/cmj85ygf700k6euggn3r0eui6.txt:462", Kind::Illegal),
    // `21: 1/0 1/0` with one checker on the 1 point.
    ("hardy/cmj85yhwm00l7euggrstxikq5.txt:218", Kind::Illegal),
    // `23: 1/0 1/0`, `53: 4/0 1/0`, `54: 3/0 3/0`: a larger die bearing off from a lower point.
    ("hardy/cmj8640eu02qjeuggow7n2snk.txt:274", Kind::Illegal),
    ("hardy/cmj86427i02qkeugggfqf3z0n.txt:35", Kind::Illegal),
    ("hardy/cmj86427i02qkeugggfqf3z0n.txt:420", Kind::Illegal),
    // `55: Illegal play` (no position given), then `Wins 2 points`.
    ("hardy/cmj864h3202qseuggbljw2pwe.txt:60", Kind::Snowie),
];

#[derive(Default, Debug, Clone, Copy)]
struct Counts {
    files: usize,
    games: usize,
    /// Games skipped because their starting score already reaches the match length (GNU
    /// Backgammon ignores such trailing games).
    games_after_match: usize,
    /// Rolls whose text was parsed to a legal play (including dances).
    moves: usize,
    /// Of those, plays that moved at least one checker.
    checker_plays: usize,
    /// Of those, rolls that could not be played (`Cannot Move`, empty text).
    dances: usize,
    /// Empty move texts for a roll with exactly one legal play: GNU Backgammon plays it.
    forced_unwritten: usize,
    /// Rolls left unplayed before a resignation (empty text with a choice of plays, `???`).
    unplayed: usize,
    /// Turns missing from the file while the player on roll was on the bar (Hardy's archive does
    /// not always record the rolls of a player who danced).
    unrecorded_dances: usize,
    /// Games ended by bearing off the last checker during the replay.
    borne_off: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.files += o.files;
        self.games += o.games;
        self.games_after_match += o.games_after_match;
        self.moves += o.moves;
        self.checker_plays += o.checker_plays;
        self.dances += o.dances;
        self.forced_unwritten += o.forced_unwritten;
        self.unplayed += o.unplayed;
        self.unrecorded_dances += o.unrecorded_dances;
        self.borne_off += o.borne_off;
    }
}

/// An exception met while replaying: line, kind, details.
type Exception = (usize, Kind, String);

/// Replays one game, reporting exceptions through `report`; stops at the first one that makes
/// the rest of the game unreliable.
fn replay(game: &Game, counts: &mut Counts, report: &mut dyn FnMut(Exception)) {
    let mut position = Position::starting();
    let mut on_roll: Option<Player> = None;
    // Set once the game can have no further roll: last checker borne off, or a roll left unplayed.
    let mut over = false;
    for action in &game.actions {
        let line = action.line;
        match &action.kind {
            ActionKind::Roll { dice, play } => {
                if over {
                    let detail = format!("roll {dice} after the game was over");
                    return report((line, Kind::OutOfTurn, detail));
                }
                match on_roll {
                    None => on_roll = Some(action.player),
                    Some(p) if p != action.player => {
                        // The player on roll has no line: acceptable only as a dance.
                        if position.bar(Side::Player) == 0 {
                            let detail = format!("roll {dice} out of turn");
                            return report((line, Kind::OutOfTurn, detail));
                        }
                        counts.unrecorded_dances += 1;
                        position = position.swap();
                        on_roll = Some(action.player);
                    }
                    Some(_) => {}
                }
                let text = match play {
                    Play::Move(text) => text.as_str(),
                    Play::CannotMove => "Cannot Move",
                    Play::Unplayed => {
                        counts.unplayed += 1;
                        over = true;
                        continue;
                    }
                    Play::Illegal { .. } => {
                        return report((line, Kind::Snowie, format!("{dice}: {play}")));
                    }
                };
                let played = match parse_move(&position, *dice, text) {
                    Ok(m) => {
                        counts.moves += 1;
                        if m.mv.is_empty() {
                            counts.dances += 1;
                        } else {
                            counts.checker_plays += 1;
                        }
                        m.position
                    }
                    Err(MoveParseError::MissingMove { .. }) => {
                        let legal = legal_moves(&position, *dice);
                        if legal.len() == 1 {
                            counts.forced_unwritten += 1;
                            legal[0].position
                        } else {
                            // Rolled, then resigned: a `Wins` line must follow.
                            counts.unplayed += 1;
                            over = true;
                            continue;
                        }
                    }
                    Err(e) => {
                        let detail = format!("{dice}: '{text}': {e}");
                        return report((line, Kind::Illegal, detail));
                    }
                };
                if played.result().is_some() {
                    counts.borne_off += 1;
                    over = true;
                } else {
                    position = played.swap();
                    on_roll = on_roll.map(Player::other);
                }
            }
            ActionKind::Unknown { text } => {
                report((line, Kind::Unreadable, format!("'{text}'")));
            }
            ActionKind::Win { .. } => return,
            _ => {}
        }
    }
}

fn replay_file(path: &Path, name: &str, counts: &mut Counts, exceptions: &mut Vec<Found>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = MatchFile::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    counts.files += 1;
    assert!(!file.games.is_empty(), "{name}: no games");
    for game in &file.games {
        let length = file.match_length;
        if length > 0 && game.score.iter().any(|&s| s >= length) {
            counts.games_after_match += 1;
            continue;
        }
        counts.games += 1;
        replay(game, counts, &mut |(line, kind, detail)| {
            exceptions.push((format!("{name}:{line}"), kind, detail));
        });
    }
}

/// An exception with its location.
type Found = (String, Kind, String);

#[test]
fn every_corpus_move_parses() {
    let root = cubeful_testkit::shared_path("corpus/mat");
    let mut per_producer: BTreeMap<String, Counts> = BTreeMap::new();
    let mut exceptions = Vec::new();
    let mut producers: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus/mat")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    producers.sort();
    for dir in producers {
        let producer = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("producer dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name != "SOURCES.tsv" && name != "README.md"
            })
            .collect();
        files.sort();
        let counts = per_producer.entry(producer.clone()).or_default();
        for path in files {
            let name = format!("{producer}/{}", path.file_name().unwrap().to_string_lossy());
            replay_file(&path, &name, counts, &mut exceptions);
        }
    }

    let mut total = Counts::default();
    let mut summary = String::from(
        "producer  files  games  after-end   moves  checker  dances  forced  unplayed  \
         unrecorded  borne-off\n",
    );
    let mut row = |name: &str, c: &Counts| {
        writeln!(
            summary,
            "{name:<8} {:>6} {:>6} {:>10} {:>7} {:>8} {:>7} {:>7} {:>9} {:>11} {:>10}",
            c.files,
            c.games,
            c.games_after_match,
            c.moves,
            c.checker_plays,
            c.dances,
            c.forced_unwritten,
            c.unplayed,
            c.unrecorded_dances,
            c.borne_off
        )
        .unwrap();
    };
    for (producer, c) in &per_producer {
        total += *c;
        row(producer, c);
    }
    row("total", &total);
    println!("{summary}");
    for (at, kind, detail) in &exceptions {
        println!("exception {at}: {kind:?}: {detail}");
    }

    assert_eq!(total.files, 1900, "the corpus has 1,900 files");
    let found: Vec<(&str, Kind)> = exceptions
        .iter()
        .map(|(at, kind, _)| (at.as_str(), *kind))
        .collect();
    assert_eq!(
        found, EXPECTED_EXCEPTIONS,
        "the exceptions changed (see the list printed above)"
    );
    // Every producer's every move parses apart from the listed exceptions; these totals catch a
    // regression that would turn a move into a dance or an unplayed roll instead.
    let moves: Vec<(&str, usize)> = per_producer
        .iter()
        .map(|(p, c)| (p.as_str(), c.moves))
        .collect();
    assert_eq!(moves, EXPECTED_MOVES);
}

/// Rolls replayed per producer (checker plays and dances).
const EXPECTED_MOVES: &[(&str, usize)] = &[
    ("galaxy", 186_683),
    ("gnubg", 544),
    ("hardy", 66_591),
    ("studio", 25_108),
    ("xg", 1_171),
];

/// The roll order of a replay does not depend on how the dice are written.
#[test]
fn low_first_dice_parse_like_high_first() {
    let start = Position::starting();
    let a = parse_move(&start, Dice::new(3, 5).unwrap(), "8/3 6/3").unwrap();
    let b = parse_move(&start, Dice::new(5, 3).unwrap(), "8/3 6/3").unwrap();
    assert_eq!(a.position, b.position);
}

// ----------------------------------------------------------------------------------------------
// Import into match records, strict replay, export and round trip
// ----------------------------------------------------------------------------------------------

use cubeful_engine::formats::mat::{export, import, ImportWarning, WarningKind};
use cubeful_engine::game::record::{MatchRecord, RecordAction, ReplayError};

/// What else the import reports, as (`producer/file:line`, kind), in file order: files that
/// are readable but not consistent. GNU Backgammon reads all of them silently (except the three
/// Galaxy files whose left player has no name, where it aborts).
const EXPECTED_OTHER_WARNINGS: &[(&str, Other)] = &[
    // `  : 0      lasse : 0` and the like: a player without a name (`Player 1`, `Player 2`).
    ("galaxy/match3755271.txt:16", Other::EmptyName),
    ("galaxy/match4025136.txt:16", Other::EmptyName),
    ("galaxy/match4148943.txt:16", Other::EmptyName),
    ("galaxy/match4926796.txt:16", Other::EmptyName),
    ("galaxy/match6047230.txt:16", Other::EmptyName),
    ("galaxy/match6564801.txt:16", Other::EmptyName),
    ("galaxy/match6698738.txt:16", Other::EmptyName),
    ("galaxy/match8320876.txt:16", Other::EmptyName),
    ("galaxy/match8474864.txt:16", Other::EmptyName),
    ("galaxy/match8562506.txt:16", Other::EmptyName),
    ("galaxy/match8600489.txt:16", Other::EmptyName),
    // `John OHagan` in game 1, `John Ohagan` after.
    ("hardy/cmj85p6ev0006euggttr9qp6o.txt:31", Other::NamesDiffer),
    // Three games at 8-13, 9-13, 10-13 of a 13-point match that is over.
    (
        "hardy/cmj85p6ev0006euggttr9qp6o.txt:306",
        Other::AfterMatchEnd,
    ),
    (
        "hardy/cmj85p6ev0006euggttr9qp6o.txt:320",
        Other::AfterMatchEnd,
    ),
    (
        "hardy/cmj85p6ev0006euggttr9qp6o.txt:328",
        Other::AfterMatchEnd,
    ),
    // Score lines that do not follow from the game before (a `Wins` line with other points than
    // the play, the winner in the wrong column, a game or a cube left out of the transcript).
    (
        "hardy/cmj85pmb20009euggnhrgvp6g.txt:53",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85qerl000yeuggc61rkbm8.txt:254",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85qi800011eugg8mjr0fy2.txt:51",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85sii1001keuggwocujh51.txt:51",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85sii1001keuggwocujh51.txt:94",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85sjo7001leuggzk8whlf9.txt:87",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85sjo7001leuggzk8whlf9.txt:112",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85sjo7001leuggzk8whlf9.txt:147",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85un7k001teuggn59p0qp0.txt:220",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85xmy0001xeuggxcdsi4tf.txt:100",
        Other::ScoreMismatch,
    ),
    // Spelling variants of the players' names.
    ("hardy/cmj85yamr00g8euggxswd9bpp.txt:45", Other::NamesDiffer),
    (
        "hardy/cmj85yhwm00l7euggrstxikq5.txt:222",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj85yhwm00l7euggrstxikq5.txt:247",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj861ulu02fdeugg2nc2orev.txt:235",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj864f7g02qreugg23zsu0b5.txt:206",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj864f7g02qreugg23zsu0b5.txt:231",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj864f7g02qreugg23zsu0b5.txt:436",
        Other::ScoreMismatch,
    ),
    (
        "hardy/cmj864f7g02qreugg23zsu0b5.txt:497",
        Other::ScoreMismatch,
    ),
];

/// The import's warnings that are not about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Other {
    EmptyName,
    NamesDiffer,
    AfterMatchEnd,
    ScoreMismatch,
}

/// Move entries (checker plays and dances) per producer in the imported records: every roll
/// the reader-level replay above counts, plus the forced plays left unwritten, which the import
/// plays as GNU Backgammon does.
const EXPECTED_IMPORTED_MOVES: &[(&str, usize)] = &[
    ("galaxy", 186_683),
    ("gnubg", 544),
    ("hardy", 66_600),
    ("studio", 25_108),
    ("xg", 1_171),
];

/// The corpus files, as (`producer/file`, path), sorted.
fn corpus_files() -> Vec<(String, std::path::PathBuf)> {
    let root = cubeful_testkit::shared_path("corpus/mat");
    let mut all = Vec::new();
    let mut producers: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus/mat")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    producers.sort();
    for dir in producers {
        let producer = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("producer dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name != "SOURCES.tsv" && name != "README.md"
            })
            .collect();
        files.sort();
        for path in files {
            let name = format!("{producer}/{}", path.file_name().unwrap().to_string_lossy());
            all.push((name, path));
        }
    }
    all
}

/// The actions of a record's games with the scores and Crawford flags, for comparisons.
fn outline(record: &MatchRecord) -> Vec<([u16; 2], bool, Vec<RecordAction>)> {
    record
        .games
        .iter()
        .map(|g| {
            (
                g.score,
                g.crawford,
                g.entries.iter().map(|e| e.action.clone()).collect(),
            )
        })
        .collect()
}

/// `again` (the import of the export of `record`) has the same games: the same scores, Crawford
/// flags, actions and results. A game cut short at a defect, whose result only a `Wins` line
/// gives, reads back with that result (its winner) as a resignation after the same actions.
fn assert_same_games(name: &str, record: &MatchRecord, again: &MatchRecord) {
    let (a, b) = (outline(record), outline(again));
    assert_eq!(a.len(), b.len(), "{name}: games");
    let replay = record.replay_lenient().unwrap().replay;
    for (i, ((a, ga), (b, gb))) in a
        .iter()
        .zip(&record.games)
        .zip(b.iter().zip(&again.games))
        .enumerate()
    {
        assert_eq!((a.0, a.1), (b.0, b.1), "{name}: game {}", i + 1);
        let cut_with_result = replay.game(i).unwrap().outcome.is_none() && ga.result.is_some();
        if cut_with_result {
            assert!(b.2.len() >= a.2.len(), "{name}: game {}", i + 1);
            assert!(b.2[..a.2.len()] == a.2[..], "{name}: game {}", i + 1);
            assert!(
                b.2[a.2.len()..].iter().all(|x| matches!(
                    x,
                    RecordAction::SetUp(_)
                        | RecordAction::Resign { .. }
                        | RecordAction::AcceptResignation { .. }
                )),
                "{name}: game {}",
                i + 1
            );
            // The points read back are those of the resignation the `Wins` line makes (a
            // single game, gammon or backgammon at the cube), which the recorded points of a
            // game cut at a defect need not be.
            let (ra, rb) = (ga.result.unwrap(), gb.result.unwrap());
            assert_eq!(ra.winner, rb.winner, "{name}: game {}", i + 1);
        } else {
            if let Some(at) = (0..a.2.len().max(b.2.len())).find(|&k| a.2.get(k) != b.2.get(k)) {
                panic!(
                    "{name}: game {}, action {}: {:?} read back as {:?}",
                    i + 1,
                    at + 1,
                    a.2.get(at),
                    b.2.get(at)
                );
            }
            assert_eq!(gb.result, ga.result, "{name}: game {}", i + 1);
        }
    }
}

#[test]
fn every_corpus_file_imports_replays_and_round_trips() {
    let mut move_warnings: Vec<(String, Kind)> = Vec::new();
    let mut other_warnings: Vec<(String, Other)> = Vec::new();
    let mut moves: BTreeMap<String, usize> = BTreeMap::new();
    let (mut files, mut games, mut entries, mut set_ups) = (0, 0, 0, 0);
    for (name, path) in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        let (record, warnings) = import(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        files += 1;
        games += record.games.len();
        let producer = name.split('/').next().unwrap().to_string();
        for game in &record.games {
            entries += game.entries.len();
            for entry in &game.entries {
                match entry.action {
                    RecordAction::Move { .. } => *moves.entry(producer.clone()).or_default() += 1,
                    RecordAction::SetUp(_) => set_ups += 1,
                    _ => {}
                }
            }
        }
        let mut first_score_mismatch = None;
        for ImportWarning { line, game, kind } in &warnings {
            let at = format!("{name}:{line}");
            println!("warning {at}: {kind}");
            let sorted = match kind {
                WarningKind::IllegalMove { .. } => Ok(Kind::Illegal),
                WarningKind::IllegalPlay { .. } => Ok(Kind::Snowie),
                WarningKind::Unreadable { .. } => Ok(Kind::Unreadable),
                WarningKind::Refused { .. } => Ok(Kind::OutOfTurn),
                WarningKind::EmptyName { .. } => Err(Other::EmptyName),
                WarningKind::OtherPlayers { .. } => Err(Other::NamesDiffer),
                WarningKind::GameAfterMatchEnd { .. } => Err(Other::AfterMatchEnd),
                WarningKind::ScoreMismatch { .. } => {
                    first_score_mismatch = first_score_mismatch.or(*game);
                    Err(Other::ScoreMismatch)
                }
                WarningKind::ScoreTooLarge { .. } | WarningKind::CubeNotUsed { .. } => {
                    panic!("{at}: {kind}")
                }
            };
            match sorted {
                Ok(kind) => move_warnings.push((at, kind)),
                Err(other) => other_warnings.push((at, other)),
            }
        }

        // Strict replay: everything imported is legal; only the score lines the warnings name
        // do not follow from the game before.
        match (record.replay(), first_score_mismatch) {
            (Ok(replay), None) => assert_eq!(replay.games().len(), record.games.len()),
            (Err(ReplayError::Score { game, .. }), Some(first)) => {
                assert_eq!(game, first, "{name}")
            }
            (other, _) => panic!("{name}: {:?}", other.err()),
        }
        let lenient = record.replay_lenient().unwrap();
        for w in &lenient.warnings {
            assert!(
                matches!(w.error, ReplayError::Score { .. }) && w.dropped == 0,
                "{name}: {}",
                w.error
            );
        }
        assert_eq!(
            lenient.record, record,
            "{name}: the lenient replay changed the record"
        );

        // Round trip: what we write reads back to the same games, actions and results, and
        // writing it again gives the same text.
        let text = export(&record);
        let (again, _) = import(text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again.info.players, record.info.players, "{name}");
        assert_eq!(again.info.rules, record.info.rules, "{name}");
        assert_eq!(again.info.date, record.info.date, "{name}");
        assert_eq!(again.info.event, record.info.event, "{name}");
        assert_eq!(again.info.place, record.info.place, "{name}");
        assert_eq!(again.info.comment, record.info.comment, "{name}");
        assert_same_games(&name, &record, &again);
        // Writing what was read back gives the same text; for a file with a defect, whose cut
        // games' `Wins` lines read back as resignations, after one more round.
        let second = export(&again);
        let cut = warnings.iter().any(|w| w.kind.ends_game());
        let (first, second) = if cut {
            let third = export(&import(second.as_bytes()).unwrap().0);
            (second, third)
        } else {
            (text, second)
        };
        if let Some((n, (a, b))) = first
            .lines()
            .zip(second.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
        {
            panic!(
                "{name}: the export is not stable at line {}:\n{a}\n{b}",
                n + 1
            );
        }
        assert_eq!(
            first.len(),
            second.len(),
            "{name}: the export is not stable"
        );
    }
    println!(
        "{files} files, {games} games, {entries} actions ({set_ups} set-ups), moves {moves:?}"
    );
    assert_eq!(files, 1900);
    assert_eq!(games, 7029);
    let found: Vec<(&str, Kind)> = move_warnings
        .iter()
        .map(|(a, k)| (a.as_str(), *k))
        .collect();
    assert_eq!(found, EXPECTED_EXCEPTIONS);
    let found: Vec<(&str, Other)> = other_warnings
        .iter()
        .map(|(a, k)| (a.as_str(), *k))
        .collect();
    assert_eq!(found, EXPECTED_OTHER_WARNINGS);
    let moves: Vec<(&str, usize)> = moves.iter().map(|(p, n)| (p.as_str(), *n)).collect();
    assert_eq!(moves, EXPECTED_IMPORTED_MOVES);
}
