//! What Cubeful writes as SGF, the real GNU Backgammon loads: every SGF file of the corpus
//! (`shared/corpus/sgf/`, `shared/corpus/paired/`) re-written by `formats::sgf::write`, and a
//! money session written from scratch with comments, a beaver, a resignation after a roll, a
//! set-up position with the cube and dice, and a dropped double. `gnubg -t` loads each file,
//! exports it as a `.mat` match file and saves it again as SGF; then
//!
//! * the `.mat` export must show the same games, scores, dice, moves (compared as positions,
//!   through the move parser), cube actions and results as the record (games with a set-up are
//!   left out: GNU Backgammon's `.mat` export cannot show them), and
//! * GNU Backgammon's own SGF of what it loaded must read back to the same record: actions,
//!   set-ups, comments, results, analysis and match information (not the statistics, which it
//!   recomputes, nor the game comments, which it does not keep), and
//! * the board GNU Backgammon shows for the session's set-up (loaded alone) must have the
//!   set-up's Position ID, player on roll, cube value, cube owner and dice.
//!
//! Where gnubg is not installed the test says so loudly and passes; under CI (`CI=true`) it
//! fails instead (`.ci/run` installs the Debian package `gnubg`).

mod common;

use std::path::{Path, PathBuf};

use cubeful_engine::formats::mat::{ActionKind, MatchFile, Play};
use cubeful_engine::formats::notation::parse_move;
use cubeful_engine::formats::sgf;
use cubeful_engine::game::record::{
    Entry, GameRecord, GameResult, MatchInfo, MatchRecord, RecordAction, Setup,
};
use cubeful_engine::game::Rules;
use cubeful_engine::rules::movegen::play_steps;
use cubeful_engine::{match_id, position_id, CubeOwner, Dice, Player, Position, Resignation};
use cubeful_testkit::ScratchDir;

/// Moves a player makes in a money session, from his own side of the board.
struct Moves {
    /// Each player's checkers in his own numbering.
    sides: [[u8; 25]; 2],
}

impl Moves {
    fn new() -> Moves {
        let start = Position::starting().side(cubeful_engine::Side::Player);
        Moves {
            sides: [start, start],
        }
    }

    fn play(&mut self, player: Player, dice: &str, text: &str) -> Entry {
        let dice: Dice = dice.parse().unwrap();
        let (me, you) = (player.index(), player.other().index());
        let before = Position::from_sides(&self.sides[me], &self.sides[you]).unwrap();
        let legal = parse_move(&before, dice, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        self.sides[me] = legal.position.side(cubeful_engine::Side::Player);
        self.sides[you] = legal.position.side(cubeful_engine::Side::Opponent);
        Entry::new(RecordAction::Move {
            player,
            dice,
            mv: legal.mv,
        })
    }
}

fn with_comment(mut entry: Entry, comment: &str) -> Entry {
    entry.comment = Some(comment.to_owned());
    entry
}

/// A money session: a beaver and a resignation after a roll in game 1; a set-up position with
/// the cube on Black's side and the dice set, then a dropped double, in game 2.
fn session() -> MatchRecord {
    let mut info = MatchInfo::new(["Alice".into(), "Bob Smith".into()], Rules::money());
    info.date = Some("2025-03-04".into());
    info.event = Some("Club night".into());
    info.place = Some("Café \"Le Dé\"".into());
    info.comment = Some("A session written by Cubeful:\nsecond line".into());
    let (zero, one) = (Player::Zero, Player::One);
    let mut moves = Moves::new();
    let game1 = GameRecord {
        entries: vec![
            with_comment(
                moves.play(zero, "31", "8/5 6/5"),
                "the best opening, with ] and \\",
            ),
            Entry::new(RecordAction::Double { player: one }),
            with_comment(Entry::new(RecordAction::Beaver { player: zero }), "beaver!"),
            Entry::new(RecordAction::Take { player: one }),
            moves.play(one, "52", "13/8 13/11"),
            moves.play(zero, "64", "24/18 24/20"),
            Entry::new(RecordAction::Roll {
                player: one,
                dice: "21".parse().unwrap(),
            }),
            Entry::new(RecordAction::Resign {
                player: one,
                resignation: Resignation::Gammon,
            }),
            Entry::new(RecordAction::AcceptResignation { player: zero }),
        ],
        result: Some(GameResult {
            winner: zero,
            points: 8,
            resigned: true,
        }),
        ..GameRecord::default()
    };
    let mut white = [0u8; 25];
    white[0] = 2;
    white[5] = 3;
    white[24] = 1;
    let mut black = [0u8; 25];
    black[0] = 2;
    black[4] = 4;
    black[12] = 3;
    let setup = Setup {
        position: Position::from_sides(&white, &black).unwrap(),
        on_roll: zero,
        cube_log2: 1,
        cube_owner: CubeOwner::Owned(one),
        dice: Some("53".parse().unwrap()),
    };
    let mut moves = Moves {
        sides: [white, black],
    };
    let game2 = GameRecord {
        score: [8, 0],
        entries: vec![
            with_comment(
                Entry::new(RecordAction::SetUp(setup)),
                "a position to study",
            ),
            moves.play(zero, "53", "bar/22 6/1"),
            Entry::new(RecordAction::Double { player: one }),
            with_comment(
                Entry::new(RecordAction::Drop { player: zero }),
                "too strong",
            ),
        ],
        result: Some(GameResult {
            winner: one,
            points: 2,
            resigned: false,
        }),
        ..GameRecord::default()
    };
    let record = MatchRecord {
        info,
        games: vec![game1, game2],
    };
    record
        .replay()
        .unwrap_or_else(|e| panic!("the session does not replay: {e}"));
    record
}

/// What a game shows in a `.mat` export, in order: rolls (with the position reached, if a move
/// was played), cube actions, the win.
#[derive(Debug, PartialEq)]
enum Shown {
    Roll(Player, Dice, Option<Position>),
    Double(Player),
    Beaver(Player),
    Take(Player),
    Drop(Player),
    Win(Player, u32),
}

/// What the record says a `.mat` export shows of game `index`. Positions are the mover's after
/// the move (none for a roll without a move or a dance).
fn expected_shown(record: &MatchRecord, index: usize) -> Vec<Shown> {
    let replay = record.replay().unwrap();
    let replayed = &replay.games()[index];
    let game = &record.games[index];
    let mut shown = Vec::new();
    let mut after_beaver = false;
    for (e, entry) in game.entries.iter().enumerate() {
        match entry.action {
            RecordAction::Move { player, dice, mv } => {
                // A dance is shown as the dice alone.
                let before = replayed.rolled(e).unwrap().position;
                let reached = (!mv.is_empty()).then(|| play_steps(&before, mv.steps()).unwrap());
                shown.push(Shown::Roll(player, dice, reached));
            }
            RecordAction::Roll { player, dice } => shown.push(Shown::Roll(player, dice, None)),
            RecordAction::Double { player } => shown.push(Shown::Double(player)),
            RecordAction::Beaver { player } => shown.push(Shown::Beaver(player)),
            // After a beaver GNU Backgammon's .mat export leaves the take out.
            RecordAction::Take { player } if !after_beaver => shown.push(Shown::Take(player)),
            RecordAction::Drop { player } => shown.push(Shown::Drop(player)),
            _ => {}
        }
        after_beaver = matches!(entry.action, RecordAction::Beaver { .. });
    }
    if let Some(result) = game.result {
        shown.push(Shown::Win(result.winner, result.points));
    }
    shown
}

/// What GNU Backgammon's `.mat` export shows of a game, with the moves read against the
/// record's positions.
fn exported_shown(
    record: &MatchRecord,
    index: usize,
    game: &cubeful_engine::formats::mat::Game,
) -> Vec<Shown> {
    let replay = record.replay().unwrap();
    let replayed = &replay.games()[index];
    // The record's roll entries, in order, give the positions to read the moves against.
    let mut rolls = record.games[index]
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(
                e.action,
                RecordAction::Move { .. } | RecordAction::Roll { .. }
            )
        })
        .map(|(i, _)| replayed.rolled(i).unwrap().position);
    let mut shown = Vec::new();
    for action in &game.actions {
        let player = action.player;
        shown.push(match &action.kind {
            ActionKind::Roll { dice, play } => {
                let before = rolls.next().expect("no more rolls in the record");
                let text = match play {
                    Play::Move(text) => text.clone(),
                    other => panic!("{other}"),
                };
                let reached = if text.is_empty() {
                    // Rolled and resigned, or a dance: the position stays.
                    None
                } else {
                    let legal = parse_move(&before, *dice, &text)
                        .unwrap_or_else(|e| panic!("gnubg's move {text:?}: {e}"));
                    Some(legal.position)
                };
                Shown::Roll(player, *dice, reached)
            }
            ActionKind::Double { .. } => Shown::Double(player),
            ActionKind::Beaver { .. } | ActionKind::Raccoon { .. } => Shown::Beaver(player),
            ActionKind::Take => Shown::Take(player),
            ActionKind::Drop => Shown::Drop(player),
            ActionKind::Win { points, .. } => Shown::Win(player, *points),
            other => panic!("unexpected {other:?} in gnubg's export"),
        });
    }
    shown
}

/// The record as GNU Backgammon 1.07 keeps it: no program name, no statistics (it recomputes
/// them), no game comments (it does not keep them), no luck of `-inf` (1.08's `LU[-inf]`: 1.07
/// drops it when it saves its own files too), and a set-up's dice left out when the move that
/// follows rolls them (it merges the two).
fn as_gnubg_keeps_it(record: &MatchRecord) -> MatchRecord {
    let mut record = record.clone();
    record.info.application = None;
    for game in &mut record.games {
        game.stored_statistics = None;
        game.comment = None;
        for entry in &mut game.entries {
            if let Some(analysis) = entry.analysis.as_mut() {
                if analysis.luck == Some(f64::NEG_INFINITY) {
                    analysis.luck = None;
                }
            }
            if entry.analysis.as_deref() == Some(&Default::default()) {
                entry.analysis = None;
            }
        }
        for i in 0..game.entries.len() {
            let next = game.entries.get(i + 1).map(|e| e.action.clone());
            if let RecordAction::SetUp(setup) = &mut game.entries[i].action {
                if let Some(RecordAction::Move { player, dice, .. }) = next {
                    if setup.dice == Some(dice) && setup.on_roll == player {
                        setup.dice = None;
                    }
                }
            }
        }
    }
    record
}

#[test]
fn gnubg_loads_what_cubeful_writes() {
    let Some(gnubg) = cubeful_testkit::gnubg("the SGF test against it") else {
        return;
    };

    // The cases: the corpus files, read and written again, and the session.
    let mut cases: Vec<(String, MatchRecord)> = Vec::new();
    for dir in ["corpus/sgf", "corpus/paired"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(cubeful_testkit::shared_path(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let (record, _) = sgf::read(&text).unwrap();
            let name = format!(
                "{}-{}",
                dir.replace('/', "-"),
                path.file_stem().unwrap().to_string_lossy()
            );
            cases.push((name, record));
        }
    }
    assert_eq!(cases.len(), 8);
    cases.push(("session".into(), session()));

    let dir = ScratchDir::new("gnubg-sgf");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut script = String::from("set confirm new off\nset confirm save off\n");
    for (name, record) in &cases {
        let file = dir.join(format!("{name}.sgf"));
        std::fs::write(&file, sgf::write(record)).unwrap();
        script.push_str(&format!(
            "load match {}\nexport match mat {}\nsave match {}\n",
            file.display(),
            dir.join(format!("{name}.mat")).display(),
            dir.join(format!("{name}.gnubg.sgf")).display()
        ));
    }
    // The set-up of the session's second game alone, as `save position` would write it: once
    // loaded, GNU Backgammon shows its board, cube and dice.
    let (name, session) = cases.last().unwrap();
    assert_eq!(name, "session");
    let position = MatchRecord {
        info: session.info.clone(),
        games: vec![GameRecord {
            score: session.games[1].score,
            entries: session.games[1].entries[..1].to_vec(),
            ..GameRecord::default()
        }],
    };
    let file = dir.join("position.sgf");
    std::fs::write(&file, sgf::write(&position)).unwrap();
    script.push_str(&format!(
        "load match {}\nshow board\nquit\n",
        file.display()
    ));
    let output = cubeful_testkit::run_gnubg_script(&gnubg, &home, &script);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );

    // GNU Backgammon sees the set-up as the record has it.
    let RecordAction::SetUp(setup) = &position.games[0].entries[0].action else {
        panic!("the session's second game starts with a set-up")
    };
    let id = |label: &str| -> String {
        said.rsplit_once(label)
            .and_then(|(_, rest)| rest.split_whitespace().nth(1).map(str::to_owned))
            .unwrap_or_else(|| panic!("no {label} in gnubg's output:\n{said}"))
    };
    assert_eq!(
        id("Position ID"),
        position_id::encode(&setup.position),
        "gnubg said:\n{said}"
    );
    let state = match_id::decode(&id("Match ID")).unwrap();
    assert_eq!(
        (state.on_roll, state.cube_log2, state.cube_owner, state.dice),
        (setup.on_roll, setup.cube_log2, setup.cube_owner, setup.dice),
        "gnubg said:\n{said}"
    );
    assert_eq!(state.score, [8, 0]);

    let mut games = 0;
    let mut rolls = 0;
    for (name, record) in &cases {
        let at = |what: &str| format!("{name}: {what}\ngnubg said:\n{said}");
        let mat = read(&dir.join(format!("{name}.mat")), &at);
        let exported = MatchFile::parse(&mat).unwrap_or_else(|e| panic!("{}", at(&e.to_string())));
        assert_eq!(exported.games.len(), record.games.len(), "{}", at("games"));
        for (index, (game, shown)) in record.games.iter().zip(&exported.games).enumerate() {
            assert_eq!(
                shown.players,
                record.info.players,
                "{}",
                at(&format!("game {} players", index + 1))
            );
            assert_eq!(
                shown.score,
                game.score.map(u32::from),
                "{}",
                at(&format!("game {} score", index + 1))
            );
            if game
                .entries
                .iter()
                .any(|e| matches!(e.action, RecordAction::SetUp(_)))
            {
                continue;
            }
            let expected = expected_shown(record, index);
            let got = exported_shown(record, index, shown);
            assert_eq!(got, expected, "{}", at(&format!("game {}", index + 1)));
            games += 1;
            rolls += expected
                .iter()
                .filter(|s| matches!(s, Shown::Roll(..)))
                .count();
        }

        let saved = read(&dir.join(format!("{name}.gnubg.sgf")), &at);
        let (again, warnings) =
            sgf::read(&saved).unwrap_or_else(|e| panic!("{}", at(&e.to_string())));
        assert!(warnings.is_empty(), "{}", at(&format!("{warnings:?}")));
        let (expected, got) = (as_gnubg_keeps_it(record), as_gnubg_keeps_it(&again));
        assert_eq!(got.info, expected.info, "{}", at("match information"));
        for (index, (a, b)) in got.games.iter().zip(&expected.games).enumerate() {
            for (e, (x, y)) in a.entries.iter().zip(&b.entries).enumerate() {
                assert_eq!(x, y, "{}", at(&format!("game {}, entry {e}", index + 1)));
            }
            assert_eq!(a, b, "{}", at(&format!("game {}", index + 1)));
        }
        assert_eq!(got, expected, "{}", at("the record"));
    }
    println!(
        "gnubg loaded {} files written by Cubeful; {games} games ({rolls} rolls) agree in its .mat \
         export, and its SGF of every file reads back to the same record",
        cases.len()
    );
    assert!(games >= 36 && rolls > 1700, "{games} games, {rolls} rolls");
}

fn read(path: &Path, at: &dyn Fn(&str) -> String) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}", at(&format!("{}: {e}", path.display()))))
}
