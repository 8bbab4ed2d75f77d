//! The match analyser (`analysis::analyse`) end to end:
//!
//! * a 3-point match the bot played against itself, one side at the noisy Beginner level and
//!   the other at 0-ply, is analysed: the noisy side has clearly more error and more marked
//!   plays; the analysis is the same with one and two threads, reaches the observer action by
//!   action, survives writing to SGF and reading back, and a cancelled run stops early;
//! * GNU Backgammon's analysed SGF files pass through an analysis that has nothing to do
//!   (`Existing::Keep`) and are written with their `A`, `DA` and `LU` values unchanged.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cubeful_engine::analysis::analyse::{
    analyse, analyse_record, positions_to_analyse, Analysed, AnalysisLevel, AnalysisSettings,
    Existing, Observer, Outcome, Progress, Run,
};
use cubeful_engine::analysis::bot::Bot;
use cubeful_engine::analysis::marks::checker_error;
use cubeful_engine::eval::Nets;
use cubeful_engine::formats::sgf::{self, tree};
use cubeful_engine::game::record::analysis::{EvalSource, Skill};
use cubeful_engine::game::record::{MatchRecord, RecordAction};
use cubeful_engine::game::{Game, RandomDice, Rules, ScriptedDice};
use cubeful_engine::search::rollout::RolloutSettings;
use cubeful_engine::search::{Level, Search};
use cubeful_engine::Player;

fn nets() -> Arc<Nets> {
    Arc::new(Nets::embedded())
}

/// A 3-point match: player 0 at Beginner (noise 0.06), player 1 at Expert (0-ply, no noise).
fn self_played(seed: u64) -> MatchRecord {
    let mut search = Search::new(nets());
    let bots = [Bot::new(Level::Beginner), Bot::new(Level::Expert)];
    let mut game = Game::new(Rules::match_to(3), Box::new(RandomDice::new(seed))).unwrap();
    game.set_players(["Noisy".into(), "Expert".into()]);
    let mut actions = 0;
    while game.match_winner().is_none() {
        game.new_game().unwrap();
        while let Some(to_act) = game.to_act() {
            let Some((player, action)) = bots[to_act.index()].choose(&game, &mut search) else {
                break;
            };
            game.apply(player, action).unwrap();
            actions += 1;
            assert!(actions < 5_000);
        }
    }
    game.record().clone()
}

/// Checker plays and cube decisions at 1-ply, luck at 0-ply: quick, and not the level the
/// Expert side played at.
fn quick_settings() -> AnalysisSettings {
    AnalysisSettings {
        checker: AnalysisLevel::plies(1),
        cube: AnalysisLevel::plies(1),
        ..AnalysisSettings::default()
    }
}

fn run_with(threads: usize) -> Run<'static> {
    Run {
        threads,
        cancel: None,
        nets: nets(),
        bearoff: None,
    }
}

/// Per player: checker error (normalised, summed), marked checker plays, marked cube actions.
fn tally(record: &MatchRecord) -> [(f64, usize, usize); 2] {
    let mut t = [(0.0, 0, 0); 2];
    for game in &record.games {
        for entry in &game.entries {
            let Some(a) = &entry.analysis else { continue };
            let p = entry.action.player().index();
            if let Some(moves) = &a.moves {
                t[p].0 -= checker_error(moves).unwrap();
                t[p].1 += usize::from(a.skill != Skill::None);
            }
            if !matches!(entry.action, RecordAction::Move { .. }) && a.skill != Skill::None
                || a.cube_skill != Skill::None
            {
                t[p].2 += 1;
            }
        }
    }
    t
}

/// Collects what the observer is told.
#[derive(Default)]
struct Collector {
    analysed: Mutex<Vec<Analysed>>,
    progress: Mutex<Vec<Progress>>,
    cancel_after: Option<(usize, Arc<AtomicBool>)>,
    seen: AtomicUsize,
}

impl Observer for Collector {
    fn analysed(&self, result: &Analysed) {
        self.analysed.lock().unwrap().push(result.clone());
        let n = self.seen.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some((after, flag)) = &self.cancel_after {
            if n >= *after {
                flag.store(true, Ordering::SeqCst);
            }
        }
    }

    fn progress(&self, progress: &Progress) {
        self.progress.lock().unwrap().push(*progress);
    }
}

/// The first match from `seed` on (seed, seed + 1, …) that lasts at least two games: whether one
/// seed's match ends in a single game depends on the nets' cube decisions.
fn self_played_two_games(seed: u64) -> MatchRecord {
    (seed..seed + 20)
        .map(self_played)
        .find(|r| r.games.len() >= 2)
        .expect("one of twenty matches lasts two games")
}

#[test]
fn the_noisy_side_is_found_out() {
    let record = self_played_two_games(7);
    assert!(record.games.len() >= 2);
    let settings = quick_settings();

    let collector = Collector::default();
    let mut analysed = record.clone();
    let outcome = analyse_record(&mut analysed, &settings, &run_with(2), &collector).unwrap();
    assert!(!outcome.cancelled);
    assert!(outcome.total > 50, "{}", outcome.total);

    let [noisy, expert] = tally(&analysed);
    eprintln!("noisy: {noisy:?}, expert: {expert:?}");
    assert!(noisy.0 > 2.0 * expert.0 + 0.2, "{noisy:?} {expert:?}");
    // Marked decisions: in the ten matches from seeds 1, 21, …, 181 (adam10r's nets) the noisy
    // side had 7 to 21 and the expert 0 to 4, the smallest gap 6 (here 11 and 4).
    assert!(noisy.1 > expert.1 + 3, "{noisy:?} {expert:?}");

    // Every checker play of the record has its analysis: the played play among the candidates,
    // the best first, all evaluated at the analysis level or below, and its luck.
    let mut plays = 0;
    for game in &analysed.games {
        for (i, entry) in game.entries.iter().enumerate() {
            let RecordAction::Move { mv, .. } = &entry.action else {
                continue;
            };
            let a = entry.analysis.as_ref().expect("analysed");
            assert!(a.luck.is_some_and(f64::is_finite));
            if i == 0 {
                assert!(a.cube.is_none(), "no cube decision at the opening");
            }
            let Some(moves) = &a.moves else {
                assert!(mv.is_empty());
                continue;
            };
            plays += 1;
            assert!(checker_error(moves).unwrap() <= 1e-9);
            assert_eq!(&moves.candidates[moves.played].mv, mv);
            for c in &moves.candidates {
                let EvalSource::Eval(ctx) = &c.eval.as_ref().unwrap().source else {
                    panic!("an n-ply evaluation")
                };
                assert!(ctx.plies <= 1 && ctx.cubeful);
            }
        }
    }
    assert!(plays > 40);

    // The observer saw every action once, and the progress went up to the end.
    let mut seen = collector.analysed.into_inner().unwrap();
    // Stored as they come (in any order), they make the same record.
    let mut streamed = record.clone();
    for a in &seen {
        assert!(a.store(&mut streamed));
    }
    assert_eq!(streamed, analysed);
    seen.sort_by_key(|a| (a.game, a.entry));
    assert_eq!(seen, outcome.analysed);
    let progress = collector.progress.into_inner().unwrap();
    assert_eq!(progress.first().map(|p| p.done), Some(0));
    assert!(progress.windows(2).all(|w| w[0].done < w[1].done));
    let last = progress.last().unwrap();
    assert_eq!((last.done, last.total), (outcome.total, outcome.total));
    assert_eq!(last.remaining, Some(std::time::Duration::ZERO));

    // The same with one thread.
    let single = analyse(&record, &settings, &run_with(1), &()).unwrap();
    assert_eq!(single, outcome);

    // Through SGF and back: the same analysis (it is stored to the decimals SGF holds).
    let text = sgf::write(&analysed);
    let (read, warnings) = sgf::read(&text).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    for (g, game) in analysed.games.iter().enumerate() {
        for (e, entry) in game.entries.iter().enumerate() {
            let back = &read.games[g].entries[e];
            assert_eq!(back.action, entry.action);
            let (Some(a), Some(b)) = (&entry.analysis, &back.analysis) else {
                assert_eq!(entry.analysis.is_some(), back.analysis.is_some());
                continue;
            };
            assert_eq!(
                (a.skill, a.cube_skill, a.luck_mark),
                (b.skill, b.cube_skill, b.luck_mark)
            );
            assert_eq!(a.luck, b.luck);
            assert_eq!(a.cube.is_some(), b.cube.is_some());
            if let (Some(x), Some(y)) = (&a.cube, &b.cube) {
                for (u, v) in x
                    .no_double
                    .iter()
                    .chain(&x.double_take)
                    .zip(y.no_double.iter().chain(&y.double_take))
                {
                    assert!((u - v).abs() < 1e-6);
                }
            }
            assert_eq!(a.moves.is_some(), b.moves.is_some());
            if let (Some(x), Some(y)) = (&a.moves, &b.moves) {
                assert_eq!(x.played, y.played);
                assert_eq!(x.candidates.len(), y.candidates.len());
                for (u, v) in x.candidates.iter().zip(&y.candidates) {
                    assert_eq!(u.mv.steps().len(), v.mv.steps().len());
                    assert_eq!(u.eval, v.eval);
                }
            }
        }
    }
}

#[test]
fn players_toggles_and_cancelling() {
    let record = self_played(3);
    let zero_ply = AnalysisSettings {
        checker: AnalysisLevel::plies(0),
        cube: AnalysisLevel::plies(0),
        ..AnalysisSettings::default()
    };
    // One player only, no luck: the other player's actions are untouched, nobody has luck.
    let settings = AnalysisSettings {
        players: [false, true],
        luck_analysis: false,
        ..zero_ply.clone()
    };
    let outcome = analyse(&record, &settings, &run_with(2), &()).unwrap();
    assert!(!outcome.analysed.is_empty());
    for a in &outcome.analysed {
        let entry = &record.games[a.game].entries[a.entry];
        assert_eq!(entry.action.player(), Player::One);
        assert_eq!(a.analysis.luck, None);
    }
    // Doubles and their answers share the cube decision.
    let all = analyse(&record, &zero_ply, &run_with(2), &()).unwrap();
    let mut cube_actions = 0;
    for (i, a) in all.analysed.iter().enumerate() {
        let action = &record.games[a.game].entries[a.entry].action;
        if let RecordAction::Take { .. } | RecordAction::Drop { .. } = action {
            let double = &all.analysed[i - 1];
            assert_eq!(double.entry + 1, a.entry);
            assert!(a.analysis.cube.is_some());
            assert_eq!(a.analysis.cube, double.analysis.cube);
            cube_actions += 1;
        }
    }
    eprintln!("{cube_actions} answered doubles");

    // Cancelled before starting: nothing analysed.
    let flag = AtomicBool::new(true);
    let run = Run {
        cancel: Some(&flag),
        ..run_with(2)
    };
    let none = analyse(&record, &zero_ply, &run, &()).unwrap();
    assert!(none.cancelled && none.analysed.is_empty());
    // Cancelled by the observer after a few actions: the run stops soon after.
    let flag = Arc::new(AtomicBool::new(false));
    let collector = Collector {
        cancel_after: Some((5, flag.clone())),
        ..Collector::default()
    };
    let run = Run {
        cancel: Some(&flag),
        ..run_with(2)
    };
    let some: Outcome = analyse(&record, &zero_ply, &run, &collector).unwrap();
    assert!(some.cancelled);
    assert!(
        some.analysed.len() >= 5 && some.analysed.len() < 10,
        "{}",
        some.analysed.len()
    );
    assert!(some.analysed.len() < some.total);
}

/// The values of every `A`, `DA` and `LU` property of an SGF text, in order.
fn analysis_values(text: &str) -> Vec<(String, Vec<String>)> {
    let collection = tree::parse(text).unwrap();
    let mut out = Vec::new();
    for game in &collection.trees {
        for node in game.main_line() {
            for p in &node.properties {
                if ["A", "DA", "LU"].contains(&p.canonical_ident().as_str()) {
                    out.push((p.canonical_ident(), p.values.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn gnubg_analysis_passes_through_unchanged() {
    let settings = AnalysisSettings {
        existing: Existing::Keep,
        checker: AnalysisLevel::plies(0),
        cube: AnalysisLevel::plies(0),
        ..AnalysisSettings::default()
    };
    let dir = cubeful_testkit::shared_path("corpus/sgf");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 6);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut record, _) = sgf::read(&text).unwrap();
        let original = record.clone();
        assert_eq!(
            positions_to_analyse(&record, &settings).unwrap(),
            0,
            "{}",
            path.display()
        );
        let outcome = analyse_record(&mut record, &settings, &run_with(2), &()).unwrap();
        assert!(outcome.analysed.is_empty());
        assert_eq!(record, original);
        let written = sgf::write(&record);
        let before = analysis_values(&text);
        assert!(before.len() > 100);
        assert_eq!(analysis_values(&written), before, "{}", path.display());
    }
}

#[test]
fn existing_analysis_is_kept_when_as_good() {
    let record = self_played(5);
    let run = run_with(2);
    let level = |plies: u8, existing: Existing| AnalysisSettings {
        checker: AnalysisLevel::plies(plies),
        cube: AnalysisLevel::plies(plies),
        luck: Level::Expert.settings(),
        existing,
        ..AnalysisSettings::default()
    };
    let plies_of = |record: &MatchRecord| -> Vec<u8> {
        let mut out = Vec::new();
        for game in &record.games {
            for entry in &game.entries {
                let Some(a) = &entry.analysis else { continue };
                for c in a.moves.iter().flat_map(|m| &m.candidates) {
                    if let Some(EvalSource::Eval(e)) = c.eval.as_ref().map(|e| &e.source) {
                        out.push(e.plies);
                    }
                }
                if let Some(EvalSource::Eval(e)) = a.cube.as_ref().map(|c| &c.source) {
                    out.push(e.plies);
                }
            }
        }
        out
    };
    let mut zero = record.clone();
    analyse_record(&mut zero, &level(0, Existing::KeepAsGood), &run, &()).unwrap();
    assert!(plies_of(&zero).iter().all(|&p| p == 0));
    // Deeper: analysed again.
    let mut one = zero.clone();
    analyse_record(&mut one, &level(1, Existing::KeepAsGood), &run, &()).unwrap();
    assert!(plies_of(&one).contains(&1));
    // Shallower: the 1-ply analysis stays (GNU Backgammon keeps an analysis as good as asked),
    // only the luck is computed again, and it is the same.
    let mut again = one.clone();
    let outcome = analyse_record(&mut again, &level(0, Existing::KeepAsGood), &run, &()).unwrap();
    assert!(!outcome.analysed.is_empty());
    assert_eq!(again, one);
    // Replace: a fresh 0-ply analysis, the same as the first one.
    let mut replaced = one.clone();
    analyse_record(&mut replaced, &level(0, Existing::Replace), &run, &()).unwrap();
    assert_eq!(replaced, zero);
    // Keep: nothing to do on an analysed record.
    assert_eq!(
        positions_to_analyse(&one, &level(2, Existing::Keep)).unwrap(),
        0
    );
    assert!(positions_to_analyse(&one, &level(2, Existing::KeepAsGood)).unwrap() > 0);
}

#[test]
fn a_rollout_reports_its_trials_as_it_runs() {
    let mut record = self_played(11);
    // The opening play and the cube decision before the second play.
    record.truncate_at(0, 2);
    let rollouts = RolloutSettings {
        trials: 72,
        truncation: Some(3),
        seed: 5,
        ..RolloutSettings::default()
    };
    let settings = AnalysisSettings {
        checker: AnalysisLevel::rollout(Level::Expert.settings(), 2, rollouts.clone()),
        cube: AnalysisLevel::rollout(Level::Expert.settings(), 1, rollouts),
        existing: Existing::Replace,
        ..AnalysisSettings::default()
    };
    let collector = Collector::default();
    let outcome = analyse(&record, &settings, &run_with(1), &collector).unwrap();
    assert!(!outcome.cancelled && outcome.total >= 1);
    let progress = collector.progress.lock().unwrap();
    let trials: Vec<(usize, u32, u32)> = progress
        .iter()
        .filter_map(|p| p.trials.map(|(t, target)| (p.done, t, target)))
        .collect();
    assert!(
        !trials.is_empty(),
        "no trial progress in {} reports",
        progress.len()
    );
    for &(done, t, target) in &trials {
        assert_eq!(target, 72);
        assert!(t <= target && done < outcome.total);
    }
    // The positions' own reports come in order, trial reports among them.
    assert!(progress.windows(2).all(|w| w[0].done <= w[1].done));
    assert_eq!(
        progress.last().map(|p| (p.done, p.trials)),
        Some((outcome.total, None))
    );
}

#[test]
fn rollout_levels() {
    let mut record = self_played(11);
    // The first ten actions of the first game: plays, and the cube decisions before them.
    record.truncate_at(0, 10);
    let rollouts = RolloutSettings {
        trials: 18,
        truncation: Some(4),
        variance_reduction: false,
        seed: 3,
        ..RolloutSettings::default()
    };
    let settings = AnalysisSettings {
        checker: AnalysisLevel::rollout(Level::Expert.settings(), 2, rollouts.clone()),
        cube: AnalysisLevel::rollout(Level::Expert.settings(), 1, rollouts),
        existing: Existing::Replace,
        ..AnalysisSettings::default()
    };
    let two = analyse(&record, &settings, &run_with(2), &()).unwrap();
    let one = analyse(&record, &settings, &run_with(1), &()).unwrap();
    assert_eq!(one, two, "the same rollouts whatever the threads");
    let (mut plays, mut cubes) = (0, 0);
    for a in &two.analysed {
        let entry = &record.games[a.game].entries[a.entry];
        if let Some(moves) = &a.analysis.moves {
            if moves.candidates.len() < 2 {
                continue;
            }
            plays += 1;
            let rolled = |i: usize| {
                matches!(
                    moves.candidates[i].eval.as_ref().map(|e| &e.source),
                    Some(EvalSource::Rollout(s)) if s.trials == 18
                )
            };
            // The best two of the 0-ply ranking and the play made are rolled out, ranked first.
            assert!(rolled(0) && rolled(moves.played), "{moves:?}");
            let n = (0..moves.candidates.len())
                .take_while(|&i| rolled(i))
                .count();
            assert!((2..=3).contains(&n) && moves.played < n);
            assert!(moves.candidates[n..].iter().all(|c| !matches!(
                c.eval.as_ref().map(|e| &e.source),
                Some(EvalSource::Rollout(_))
            )));
            let RecordAction::Move { mv, .. } = &entry.action else {
                panic!("a play")
            };
            assert_eq!(&moves.candidates[moves.played].mv, mv);
        }
        if let Some(cube) = &a.analysis.cube {
            cubes += 1;
            assert!(matches!(&cube.source, EvalSource::Rollout(s) if s.trials == 18));
            assert!(cube.double_take_rollout.is_some());
        }
    }
    assert!(plays >= 4 && cubes >= 3, "{plays} {cubes}");
    // Written as GNU Backgammon's rollouts and read back.
    let mut analysed = record.clone();
    two.apply(&mut analysed);
    let text = sgf::write(&analysed);
    assert!(text.contains("X ver 3 Score") && text.contains("DA[X ver 3 Eq Trials 18"));
    let (back, warnings) = sgf::read(&text).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(back.games[0].entries.len(), analysed.games[0].entries.len());
    // Rollouts with no trials are refused.
    let mut none = settings.clone();
    if let AnalysisLevel::Rollout(r) = &mut none.cube {
        r.settings.trials = 0;
    }
    assert!(analyse(&record, &none, &run_with(1), &()).is_err());
}

#[test]
fn money_session_with_beavers() {
    // Beginner bots beaver and raccoon now and then.
    let mut search = Search::new(nets());
    let bot = Bot::new(Level::Beginner);
    let mut game = Game::new(Rules::money(), Box::new(RandomDice::new(5))).unwrap();
    for _ in 0..6 {
        game.new_game().unwrap();
        let mut actions = 0;
        while let Some((player, action)) = bot.choose(&game, &mut search) {
            game.apply(player, action).unwrap();
            actions += 1;
            assert!(actions < 5_000);
        }
    }
    // And one game with a beaver for sure: O opens with 31, X doubles, O beavers, X takes.
    let dice = ScriptedDice::parse("31 52").unwrap().then_random(9);
    game.set_dice_source(Box::new(dice));
    game.new_game().unwrap();
    let (o, x) = (Player::Zero, Player::One);
    game.play_text(o, "8/5 6/5").unwrap();
    game.double(x).unwrap();
    game.beaver(o).unwrap();
    game.take(x).unwrap();
    game.roll(x).unwrap();
    game.play_text(x, "13/8 13/11").unwrap();
    let record = game.record().clone();
    let settings = AnalysisSettings {
        checker: AnalysisLevel::plies(0),
        cube: AnalysisLevel::plies(0),
        ..AnalysisSettings::default()
    };
    let outcome = analyse(&record, &settings, &run_with(2), &()).unwrap();
    let analysed: std::collections::HashMap<(usize, usize), &Analysed> = outcome
        .analysed
        .iter()
        .map(|a| ((a.game, a.entry), a))
        .collect();
    let (mut doubles, mut beavers) = (0, 0);
    for (g, game) in record.games.iter().enumerate() {
        for (e, entry) in game.entries.iter().enumerate() {
            let a = analysed.get(&(g, e));
            match entry.action {
                RecordAction::Double { .. } => {
                    doubles += 1;
                    assert!(a.is_some_and(|a| a.analysis.cube.is_some()));
                }
                RecordAction::Beaver { .. } => {
                    beavers += 1;
                    assert!(a.is_none());
                    // The answer to the beaver is not analysed either.
                    assert!(!analysed.contains_key(&(g, e + 1)));
                }
                RecordAction::Take { .. } | RecordAction::Drop { .. } => {
                    let after_double =
                        matches!(game.entries[e - 1].action, RecordAction::Double { .. });
                    assert_eq!(a.is_some(), after_double);
                }
                _ => {}
            }
        }
    }
    eprintln!("{doubles} doubles, {beavers} beavers");
    assert!(doubles > 0 && beavers > 0);
}
