//! GNU Backgammon's SGF files of the corpus (`shared/corpus/sgf/`, `shared/corpus/paired/`):
//! every file reads without a warning, with all its games and every analysis property; every
//! move and every candidate play of the analysis is a legal play of the position reached; the
//! files round-trip through the writer exactly, and the writer reproduces GNU Backgammon's own
//! text byte for byte (apart from the program name).

use std::path::PathBuf;

use cubeful_engine::formats::sgf::{self, tree};
use cubeful_engine::game::record::analysis::{Luck, Skill};
use cubeful_engine::game::record::{MatchRecord, RecordAction};
use cubeful_engine::rules::movegen::play_steps;
use cubeful_engine::{legal_moves, Player, Position, Resignation};

/// The SGF files of the corpus.
fn corpus_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["corpus/sgf", "corpus/paired"] {
        let dir = cubeful_testkit::shared_dir().join(dir);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sgf") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 8, "{files:?}");
    files
}

fn read_file(path: &PathBuf) -> (String, MatchRecord) {
    let text = std::fs::read_to_string(path).unwrap();
    let (record, warnings) = sgf::read(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        warnings.is_empty(),
        "{}: {}",
        path.display(),
        warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
    (text, record)
}

fn name(path: &std::path::Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Games, `A`, `DA` and `LU` properties of each file, counted with `grep` when the corpus was
/// assembled.
const EXPECTED: &[(&str, usize, usize, usize, usize)] = &[
    (
        "gbf_charlot1-charlot2_7p_2025-11-08-2305.sgf",
        4,
        171,
        27,
        189,
    ),
    ("gbf_test.sgf", 7, 297, 207, 334),
    ("gnubg-scripts_match1484923_analyzed.sgf", 4, 193, 92, 203),
    ("gnubg-scripts_match1486073_analyzed.sgf", 2, 101, 27, 109),
    ("gnubg-scripts_test-match01_analyzed.sgf", 3, 149, 45, 159),
    (
        "gnubgparser_charlot1-charlot2_7p_2025-11-08-2305.sgf",
        4,
        171,
        27,
        189,
    ),
    (
        "gnubgparser_charlot1-charlot2_7p_2025-11-08-2308.sgf",
        5,
        220,
        43,
        236,
    ),
];

#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    games: usize,
    moves: usize,
    cube_actions: usize,
    rolls: usize,
    a: usize,
    da: usize,
    lu: usize,
    skill: usize,
    cube_skill: usize,
    luck_marks: usize,
    gs: usize,
    resigned: usize,
}

/// The counts of the parsed tree, property by property.
fn tree_counts(text: &str) -> Counts {
    let collection = tree::parse(text).unwrap();
    let mut c = Counts {
        games: collection.trees.len(),
        ..Counts::default()
    };
    for game in &collection.trees {
        let root = game.root().unwrap();
        c.gs += usize::from(root.has("GS"));
        c.resigned += usize::from(root.value("RE").is_some_and(|r| r.ends_with('R')));
        for node in game.main_line().skip(1) {
            match node.value("B").or(node.value("W")) {
                Some("double" | "take" | "drop") => c.cube_actions += 1,
                Some(_) => c.moves += 1,
                None => c.rolls += usize::from(node.has("DI")),
            }
            c.a += usize::from(node.has("A"));
            c.da += usize::from(node.has("DA"));
            c.lu += usize::from(node.has("LU"));
            c.skill += usize::from(node.has("BM") || node.has("DO"));
            c.cube_skill += usize::from(node.has("BC") || node.has("DC"));
            c.luck_marks += usize::from(node.has("GB") || node.has("GW"));
        }
    }
    c
}

/// The same counts from the record.
fn record_counts(record: &MatchRecord) -> Counts {
    let mut c = Counts {
        games: record.games.len(),
        ..Counts::default()
    };
    for game in &record.games {
        c.gs += usize::from(game.stored_statistics.is_some());
        c.resigned += usize::from(game.result.is_some_and(|r| r.resigned));
        for entry in &game.entries {
            match entry.action {
                RecordAction::Move { .. } => c.moves += 1,
                RecordAction::Double { .. }
                | RecordAction::Beaver { .. }
                | RecordAction::Take { .. }
                | RecordAction::Drop { .. } => c.cube_actions += 1,
                RecordAction::Roll { .. } => c.rolls += 1,
                _ => {}
            }
            let Some(a) = &entry.analysis else { continue };
            c.a += usize::from(a.moves.is_some());
            c.da += usize::from(a.cube.is_some());
            c.lu += usize::from(a.luck.is_some());
            c.skill += usize::from(a.skill != Skill::None);
            c.cube_skill += usize::from(a.cube_skill != Skill::None);
            c.luck_marks += usize::from(a.luck_mark != Luck::None);
        }
    }
    c
}

#[test]
fn every_file_reads_with_all_games_and_analysis() {
    let mut total = Counts::default();
    for path in corpus_files() {
        let (text, record) = read_file(&path);
        let from_tree = tree_counts(&text);
        let from_record = record_counts(&record);
        assert_eq!(from_record, from_tree, "{}", path.display());
        let expected = EXPECTED
            .iter()
            .find(|e| e.0 == name(&path))
            .unwrap_or_else(|| panic!("no expected counts for {}", path.display()));
        assert_eq!(
            (
                from_record.games,
                from_record.a,
                from_record.da,
                from_record.lu
            ),
            (expected.1, expected.2, expected.3, expected.4),
            "{}",
            path.display()
        );
        println!("{}: {from_record:?}", name(&path));
        total.games += from_record.games;
        total.moves += from_record.moves;
        total.a += from_record.a;
        total.da += from_record.da;
        total.lu += from_record.lu;
        total.resigned += from_record.resigned;
        total.luck_marks += from_record.luck_marks;
        total.skill += from_record.skill;
        total.cube_skill += from_record.cube_skill;
    }
    println!("total: {total:?}");
    assert_eq!(total.games, 36);
    assert!(total.luck_marks > 90 && total.skill > 100 && total.cube_skill > 0);
}

#[test]
fn match_information_is_read() {
    let (_, record) = read_file(&cubeful_testkit::shared_path("corpus/sgf/gbf_test.sgf"));
    let info = &record.info;
    assert_eq!(info.players, ["Kévin Unger", "Maxence Job"]);
    assert_eq!(info.rules.match_length, 7);
    assert!(info.rules.crawford && info.cube_used);
    assert_eq!(info.date.as_deref(), Some("2023-11-26"));
    assert_eq!(info.event.as_deref(), Some("HSBT Paris 2023"));
    assert_eq!(info.round.as_deref(), Some("Tableau Or 2"));
    assert_eq!(
        info.place.as_deref(),
        Some("Paris, Fédération Française de Bridge")
    );
    assert_eq!(info.annotator.as_deref(), Some("Kévin Unger"));
    assert_eq!(info.application.as_deref(), Some("GNU Backgammon:1.08.003"));
    let scores: Vec<[u16; 2]> = record.games.iter().map(|g| g.score).collect();
    assert_eq!(
        scores,
        [[0, 0], [1, 0], [3, 0], [3, 1], [3, 2], [3, 4], [5, 4]]
    );
    assert!(record.games.iter().all(|g| !g.crawford));
    // The Crawford games of the corpus (RU[Crawford:CrawfordGame]).
    let crawford_games: usize = corpus_files()
        .iter()
        .map(|p| read_file(p).1.games.iter().filter(|g| g.crawford).count())
        .sum();
    assert_eq!(crawford_games, 5);
    // Game 2 ended RE[W+2R] at a 2-cube: a single game resigned, accepted.
    let game = &record.games[1];
    let result = game.result.unwrap();
    assert_eq!(
        (result.winner, result.points, result.resigned),
        (Player::Zero, 2, true)
    );
    let tail: Vec<&RecordAction> = game
        .entries
        .iter()
        .rev()
        .take(2)
        .map(|e| &e.action)
        .collect();
    assert_eq!(
        tail,
        [
            &RecordAction::AcceptResignation {
                player: Player::Zero
            },
            &RecordAction::Resign {
                player: Player::One,
                resignation: Resignation::Single
            },
        ]
    );
    assert_eq!(
        game.stored_statistics.as_ref().map(Vec::len),
        Some(3),
        "GS[M:..][C:..][D:..]"
    );
}

/// Every move of every game is a legal play of the position reached, and so is every candidate
/// of its analysis; the played candidate is the move played.
#[test]
fn every_move_and_candidate_is_legal() {
    let mut moves = 0;
    let mut candidates = 0;
    for path in corpus_files() {
        let (_, record) = read_file(&path);
        for (g, game) in record.games.iter().enumerate() {
            // Each player's checkers in his own numbering.
            let start = Position::starting();
            let mut sides = [start.side(cubeful_engine::Side::Player); 2];
            for (e, entry) in game.entries.iter().enumerate() {
                let RecordAction::Move { player, dice, mv } = entry.action else {
                    continue;
                };
                let at = format!("{} game {} entry {e}", name(&path), g + 1);
                let (me, you) = (player.index(), player.other().index());
                let before = Position::from_sides(&sides[me], &sides[you]).unwrap();
                let legal = legal_moves(&before, dice);
                let reach = |m: &cubeful_engine::Move| {
                    let after = play_steps(&before, m.steps())?;
                    legal
                        .iter()
                        .any(|l| l.position == after && l.mv.is_empty() == m.is_empty())
                        .then_some(after)
                };
                let after = reach(&mv).unwrap_or_else(|| panic!("{at}: {mv:?} is not legal"));
                moves += 1;
                if let Some(analysis) = entry.analysis.as_ref().and_then(|a| a.moves.as_ref()) {
                    for c in &analysis.candidates {
                        assert!(reach(&c.mv).is_some(), "{at}: candidate {c:?} is not legal");
                        candidates += 1;
                    }
                    let played = &analysis.candidates[analysis.played];
                    assert_eq!(
                        play_steps(&before, played.mv.steps()),
                        Some(after),
                        "{at}: the played candidate is not the move"
                    );
                }
                sides[me] = after.side(cubeful_engine::Side::Player);
                sides[you] = after.side(cubeful_engine::Side::Opponent);
            }
        }
    }
    println!("{moves} moves and {candidates} candidate plays are legal");
    assert!(moves > 1500 && candidates > 10_000, "{moves} {candidates}");
}

#[test]
fn files_round_trip_exactly() {
    for path in corpus_files() {
        let (text, record) = read_file(&path);
        let written = sgf::write(&record);
        let (again, warnings) = sgf::read(&written).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            again.info.application.as_deref(),
            Some(sgf::APPLICATION),
            "written files name Cubeful"
        );
        let mut expected = record.clone();
        expected.info.application = again.info.application.clone();
        assert!(
            again == expected,
            "{}: read(write(read(f))) != read(f)",
            path.display()
        );
        assert_eq!(sgf::write(&again), written, "{}", path.display());

        // What GNU Backgammon wrote, the writer writes again (bar the program's name).
        let original = text.replace(
            record.info.application.as_deref().unwrap(),
            sgf::APPLICATION,
        );
        if let Some(line) = original
            .lines()
            .zip(written.lines())
            .position(|(a, b)| a != b)
        {
            panic!(
                "{}: line {} differs:\n  file:    {}\n  written: {}",
                path.display(),
                line + 1,
                original.lines().nth(line).unwrap(),
                written.lines().nth(line).unwrap()
            );
        }
        assert_eq!(written, original, "{}", path.display());
    }
}

/// Every game of every file replays through the match state machine, to the recorded result.
#[test]
fn every_file_replays() {
    for path in corpus_files() {
        let (_, record) = read_file(&path);
        let replay = record
            .replay()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(replay.games().len(), record.games.len());
    }
}
