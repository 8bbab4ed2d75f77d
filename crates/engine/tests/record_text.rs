//! The plain-text export of match records and positions: the layout GNU Backgammon's
//! `export match text` uses, checked against the record and, where gnubg is installed, against
//! gnubg's own text export of the same matches.

use cubeful_engine::formats::mat::import;
use cubeful_engine::formats::notation::format_move;
use cubeful_engine::formats::text::{export_game, export_match, export_position, TextError};
use cubeful_engine::game::record::{MatchRecord, RecordAction};
use cubeful_engine::{gnubg_id, match_id, position_id, Dice, MatchState, Player, Position};
use cubeful_testkit::ScratchDir;

fn corpus(rel: &str) -> MatchRecord {
    let path = cubeful_testkit::shared_path("corpus/mat").join(rel);
    import(&std::fs::read(path).unwrap()).unwrap().0
}

const FILES: &[&str] = &[
    "gnubg/gnubgparser_charlot1-charlot2_7p_2025-11-08-2305.mat",
    "gnubg/gnubgparser_gnubg_roll_then_resign_1p.mat",
    "gnubg/gnubgparser_gnubg_selfplay_drops_7p.mat",
    "gnubg/gnubg-scripts_test-match01.txt",
    "xg/gbf_test.mat",
    "hardy/cmj85qrh90019eugg8y1xibs0.txt",
];

#[test]
fn match_text_shows_every_action_with_its_board() {
    for file in FILES {
        let record = corpus(file);
        let text = export_match(&record).unwrap();
        let replay = record.replay_lenient().unwrap().replay;
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.starts_with("The score (after "))
                .count(),
            record.games.len(),
            "{file}"
        );
        // Every Position ID and Match ID shown reads back.
        for line in &lines {
            if let Some(id) = line.trim().strip_prefix("GNU Backgammon  Position ID: ") {
                position_id::decode(id).unwrap_or_else(|e| panic!("{file}: {id}: {e}"));
            }
            if let Some(id) = line.trim().strip_prefix("Match ID   : ") {
                match_id::decode(id).unwrap_or_else(|e| panic!("{file}: {id}: {e}"));
            }
        }
        // Each game: the actions numbered from 1, every move written as GNU Backgammon writes
        // it from the position shown, the result at the end.
        for (index, game) in record.games.iter().enumerate() {
            let one = export_game(&record, index).unwrap();
            assert!(text.contains(&one), "{file}: game {}", index + 1);
            let numbered: Vec<usize> = one
                .lines()
                .filter_map(|l| l.strip_prefix("Move number "))
                .map(|l| l.split(':').next().unwrap().parse().unwrap())
                .collect();
            assert_eq!(
                numbered,
                (1..=numbered.len()).collect::<Vec<_>>(),
                "{file}: game {}",
                index + 1
            );
            let shown = game
                .entries
                .iter()
                .filter(|e| {
                    !matches!(
                        e.action,
                        RecordAction::AcceptResignation { .. }
                            | RecordAction::RejectResignation { .. }
                    )
                })
                .count();
            assert_eq!(numbered.len(), shown, "{file}: game {}", index + 1);
            let played = replay.game(index).unwrap();
            for (e, entry) in game.entries.iter().enumerate() {
                if let RecordAction::Move { player, mv, .. } = entry.action {
                    let name = &record.info.players[player.index()];
                    let before = played.rolled(e).unwrap();
                    let line = if mv.is_empty() {
                        format!("* {name} cannot move")
                    } else {
                        format!("* {name} moves {}", format_move(&before.position, &mv))
                    };
                    assert!(one.contains(&line), "{file}: game {}: {line}", index + 1);
                    let id = gnubg_id::encode(&before.position, &before.state);
                    let pid = id.split(':').next().unwrap();
                    assert!(one.contains(pid), "{file}: game {}: {pid}", index + 1);
                }
            }
            if let Some(result) = game.result {
                let winner = &record.info.players[result.winner.index()];
                let line = format!(
                    "{winner} wins {} point{}",
                    result.points,
                    if result.points == 1 { "" } else { "s" }
                );
                assert!(one.contains(&line), "{file}: game {}: {line}", index + 1);
            }
        }
    }
    let record = corpus(FILES[0]);
    assert_eq!(export_game(&record, 99), Err(TextError::NoSuchGame(100)));
}

#[test]
fn position_text_names_the_decision() {
    let start = Position::starting();
    let mut state = MatchState::new_match(7);
    state.score = [2, 5];
    state.dice = Some(Dice::new(3, 1).unwrap());
    state.on_roll = Player::Zero;
    state.turn = Player::Zero;
    let text = export_position(&start, &state, ["Ann", "Bob"]);
    assert!(
        text.starts_with("The score is: Ann 2, Bob 5 (match to 7 points)\n\nAnn to play 31\n\n")
    );
    assert!(text.contains(&format!("Position ID: {}", position_id::encode(&start))));
    assert!(text.contains(&format!("Match ID   : {}", match_id::encode(&state))));
    assert!(text.ends_with("Pip counts: O 167, X 167\n\n"));
    state.dice = None;
    let text = export_position(&start, &state, ["Ann", "Bob"]);
    assert!(text.contains("\n\nAnn on roll, cube decision?\n\n"));
    state.doubled = true;
    state.turn = Player::One;
    let text = export_position(&start, &state, ["Ann", "Bob"]);
    assert!(text.contains("\n\nAnn doubles to 2\n\n"));
    let money = MatchState::money();
    let text = export_position(&start, &money, ["Ann", "Bob"]);
    assert!(text.starts_with("The score is: Ann 0, Bob 0 (money session)\n\nBob on roll"));
}

/// The lines that say what happened: action headers, IDs, actions and results.
fn essentials(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| {
            l.starts_with("Move number ")
                || l.trim_start().starts_with("GNU Backgammon  Position ID:")
                || l.trim_start().starts_with("Match ID   :")
                || l.starts_with("* ")
                || l.starts_with("Pip counts:")
                || l.contains(" wins ")
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn gnubg_text_export_says_what_ours_says() {
    let Some(gnubg) = cubeful_testkit::gnubg("the comparison of our text export with its own")
    else {
        return;
    };
    let dir = ScratchDir::new("text-gnubg");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut compared = 0;
    for (i, file) in FILES.iter().enumerate().take(5) {
        let record = corpus(file);
        let input = cubeful_testkit::shared_path("corpus/mat").join(file);
        let output = dir.join(format!("{i}.txt"));
        let script = format!(
            "set display off\nimport mat {}\nexport match text {}\nquit\n",
            input.display(),
            output.display()
        );
        cubeful_testkit::run_gnubg_script(&gnubg, &home, &script);
        for index in 0..record.games.len() {
            // gnubg writes game 1 to the file named, the others to `name_002.txt`, ...
            let path = if index == 0 {
                output.clone()
            } else {
                dir.join(format!("{i}_{:03}.txt", index + 1))
            };
            let theirs = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{file}: {}: {e}", path.display()));
            let ours = export_game(&record, index).unwrap();
            // GNU Backgammon leaves out a roll followed by a resignation, and the
            // resignation; everything it writes, we write in the same order.
            let theirs = essentials(&theirs);
            let ours = essentials(&ours);
            let mut at = 0;
            for line in &theirs {
                match ours[at..].iter().position(|l| l == line) {
                    Some(k) => at += k + 1,
                    None => panic!(
                        "{file}: game {}: gnubg's line not found in ours (from line {at}):\n\
                         {line}\n\nours:\n{}",
                        index + 1,
                        ours.join("\n")
                    ),
                }
            }
            compared += theirs.len();
        }
    }
    println!("{compared} lines of gnubg's text export found in ours");
}
