//! Rollouts (`search::rollout`): convergence to the bearoff databases' exact values, exact
//! truncation, bit-identical results whatever the number of threads, cancellation, the stop
//! rules, the quasi-random dice, variance reduction, match play and the record shapes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use cubeful_engine::cube::met::{MatchEquityTable, MatchScore};
use cubeful_engine::cube::{CubeContext, Ownership};
use cubeful_engine::eval::bearoff::{BearoffDb, CubeState};
use cubeful_engine::eval::Nets;
use cubeful_engine::game::record::analysis::EvalSource;
use cubeful_engine::search::rollout::dice::RolloutDice;
use cubeful_engine::search::rollout::{
    format, record, AlternativeStatus, Progress, Rollout, RolloutResult, RolloutSettings,
    StopReason, StopRule, Subject,
};
use cubeful_engine::search::Search;
use cubeful_engine::{Dice, Player, Position};

fn nets() -> Arc<Nets> {
    static NETS: OnceLock<Arc<Nets>> = OnceLock::new();
    NETS.get_or_init(|| Arc::new(Nets::embedded())).clone()
}

/// The default bearoff databases, generated once for all tests of this file.
fn db() -> Arc<BearoffDb> {
    static DB: OnceLock<Arc<BearoffDb>> = OnceLock::new();
    DB.get_or_init(|| Arc::new(BearoffDb::generate(&mut |_| {})))
        .clone()
}

/// A position from the checkers of the player on roll and of his opponent, by point.
fn position(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    Position::from_points(player, opponent).unwrap()
}

fn money() -> CubeContext<'static> {
    CubeContext::money(1, Ownership::Centered)
}

fn run(
    position: &Position,
    ctx: &CubeContext,
    subject: Subject,
    settings: &RolloutSettings,
) -> RolloutResult {
    Rollout::new(nets(), Some(db()), position, ctx, subject, settings)
        .unwrap()
        .run(&AtomicBool::new(false), &mut |_| {})
}

/// Two-sided bearoff positions (at most six checkers a side on the home points).
fn bearoff_positions() -> Vec<Position> {
    vec![
        position(&[(6, 1), (5, 1), (2, 1)], &[(4, 1), (3, 1), (1, 1)]),
        position(&[(6, 2), (4, 2)], &[(5, 1), (3, 2), (2, 1)]),
        position(&[(3, 2), (2, 2)], &[(6, 1), (1, 2)]),
        position(&[(5, 1), (4, 1), (3, 1), (2, 1), (1, 1)], &[(6, 3), (5, 1)]),
    ]
}

/// Plays on to the end inside the databases (no bearoff truncation), plain dice averages.
fn untruncated(cubeful: bool) -> RolloutSettings {
    RolloutSettings {
        trials: 1296,
        cubeful,
        variance_reduction: false,
        seed: 11,
        truncate_bearoff_two_sided: false,
        truncate_bearoff_one_sided: false,
        threads: 2,
        ..RolloutSettings::default()
    }
}

#[test]
fn cubeless_rollouts_converge_to_the_exact_bearoff_values() {
    let db = db();
    for p in bearoff_positions() {
        let exact = db.two_sided_values(&p).unwrap();
        let r = run(&p, &money(), Subject::Position, &untruncated(false));
        let a = &r.alternatives[0];
        assert_eq!(a.trials, 1296);
        let win = f64::from(exact.win);
        assert!(
            (a.mean[0] - win).abs() <= 2.0 * a.std_error[0],
            "{p:?}: {} ± {} vs {win}",
            a.mean[0],
            a.std_error[0]
        );
        let equity = 2.0 * win - 1.0;
        assert!(
            (a.mean[5] - equity).abs() <= 2.0 * a.std_error[5],
            "{p:?}: {} ± {} vs {equity}",
            a.mean[5],
            a.std_error[5]
        );
        assert!(a.std_error[0] > 0.0);
        // No gammons in these positions.
        assert_eq!(&a.mean[1..5], &[0.0; 4]);
        // With variance reduction the evaluations are exact, so is every trial.
        let vr = RolloutSettings {
            trials: 36,
            variance_reduction: true,
            ..untruncated(false)
        };
        let b = &run(&p, &money(), Subject::Position, &vr).alternatives[0];
        assert!((b.mean[0] - win).abs() < 1e-5, "{} vs {win}", b.mean[0]);
        assert!(b.std_error[0] < 1e-5);
    }
}

#[test]
fn cubeful_money_rollouts_converge_to_the_exact_cubeful_equities() {
    let db = db();
    for p in bearoff_positions() {
        let exact = db.two_sided_values(&p).unwrap();
        let r = run(&p, &money(), Subject::Position, &untruncated(true));
        let a = &r.alternatives[0];
        let e = f64::from(exact.centred);
        assert!(
            (a.equity - e).abs() <= 2.0 * a.equity_std_error,
            "{p:?}: {} ± {} vs {e}",
            a.equity,
            a.equity_std_error
        );
        // The cube decision: no double and double/take against the database's.
        let d = db.cube_decision(&p, CubeState::Centred).unwrap();
        let r = run(&p, &money(), Subject::Cube, &untruncated(true));
        let (nd, dt) = (&r.alternatives[0], &r.alternatives[1]);
        assert!(
            (nd.equity - d.no_double).abs() <= 2.0 * nd.equity_std_error,
            "{p:?}: ND {} ± {} vs {}",
            nd.equity,
            nd.equity_std_error,
            d.no_double
        );
        assert!(
            (dt.equity - d.double_take).abs() <= 2.0 * dt.equity_std_error,
            "{p:?}: DT {} ± {} vs {}",
            dt.equity,
            dt.equity_std_error,
            d.double_take
        );
    }
}

#[test]
fn truncation_at_the_two_sided_database_is_exact() {
    let db = db();
    for p in bearoff_positions() {
        let exact = db.two_sided_values(&p).unwrap();
        for cubeful in [false, true] {
            let settings = RolloutSettings {
                trials: 72,
                cubeful,
                seed: 3,
                threads: 1,
                ..RolloutSettings::default()
            };
            let a = &run(&p, &money(), Subject::Position, &settings).alternatives[0];
            assert_eq!(a.trials, 72);
            assert_eq!(a.std_error, [0.0; 7], "{p:?}");
            assert_eq!(a.mean[0], f64::from(exact.win));
            let expected = if cubeful {
                exact.centred
            } else {
                exact.cubeless_equity()
            };
            assert!((a.equity - f64::from(expected)).abs() < 1e-6);
        }
    }
}

/// A middle-game position with a few sensible plays of 31 to compare.
fn opening_31() -> Subject {
    let mut search = Search::new(nets());
    let ranked = search.rank_moves(
        &Position::starting(),
        Dice::new(3, 1).unwrap(),
        &money(),
        &cubeful_engine::search::Level::Expert.settings(),
    );
    Subject::Moves(ranked.iter().take(3).map(|r| r.mv).collect())
}

fn same_bits(a: &RolloutResult, b: &RolloutResult) {
    assert_eq!(a.alternatives.len(), b.alternatives.len());
    for (x, y) in a.alternatives.iter().zip(&b.alternatives) {
        assert_eq!(x.trials, y.trials);
        for k in 0..7 {
            assert_eq!(x.mean[k].to_bits(), y.mean[k].to_bits(), "mean {k}");
            assert_eq!(x.std_error[k].to_bits(), y.std_error[k].to_bits(), "SE {k}");
        }
        assert_eq!(x.equity.to_bits(), y.equity.to_bits());
        assert_eq!(x.status, y.status);
    }
}

#[test]
fn seeded_rollouts_are_bit_identical_with_one_and_two_threads() {
    let settings = |threads| RolloutSettings {
        trials: 40,
        seed: 2026,
        truncation: Some(6),
        threads,
        ..RolloutSettings::default()
    };
    let one = run(&Position::starting(), &money(), opening_31(), &settings(1));
    let two = run(&Position::starting(), &money(), opening_31(), &settings(2));
    same_bits(&one, &two);
    assert_eq!(one.alternatives[0].trials, 40);
    // Cubeless, no variance reduction, pseudo-random dice: the same.
    let other = |threads| RolloutSettings {
        cubeful: false,
        variance_reduction: false,
        quasi_random: false,
        trials: 100,
        ..settings(threads)
    };
    same_bits(
        &run(&Position::starting(), &money(), Subject::Cube, &other(1)),
        &run(&Position::starting(), &money(), Subject::Cube, &other(2)),
    );
}

#[test]
fn a_cancelled_rollout_stops_within_one_trial_and_goes_on_where_it_stopped() {
    let settings = RolloutSettings {
        trials: 30,
        seed: 5,
        truncation: Some(4),
        threads: 2,
        ..RolloutSettings::default()
    };
    let p = Position::starting();
    let ctx = money();
    let mut rollout = Rollout::new(nets(), Some(db()), &p, &ctx, opening_31(), &settings).unwrap();
    let cancel = AtomicBool::new(false);
    let k = 7;
    let mut calls = 0;
    let partial = rollout.run(&cancel, &mut |progress: &Progress| {
        calls += 1;
        assert_eq!(progress.target, 30);
        assert_eq!(progress.alternatives.len(), 3);
        if progress.trials >= k {
            cancel.store(true, Ordering::Relaxed);
        }
    });
    assert!(partial.cancelled);
    assert!(calls >= k as usize);
    for a in &partial.alternatives {
        assert!(a.trials <= k + 1, "{} trials", a.trials);
        assert!(a.trials >= 1);
        assert!(a.mean.iter().all(|x| x.is_finite()));
        assert_eq!(a.status, AlternativeStatus::Running);
    }
    // Going on gives exactly the uninterrupted rollout.
    cancel.store(false, Ordering::Relaxed);
    let finished = rollout.run(&cancel, &mut |_| {});
    assert!(!finished.cancelled);
    let straight = run(&p, &ctx, opening_31(), &settings);
    same_bits(&finished, &straight);
    // Extending it gives the longer rollout.
    rollout.set_trials(40);
    let extended = rollout.run(&cancel, &mut |_| {});
    let longer = run(
        &p,
        &ctx,
        opening_31(),
        &RolloutSettings {
            trials: 40,
            ..settings.clone()
        },
    );
    same_bits(&extended, &longer);
    // A flag set before the start stops at once, with no trial.
    cancel.store(true, Ordering::Relaxed);
    let mut fresh = Rollout::new(nets(), Some(db()), &p, &ctx, opening_31(), &settings).unwrap();
    let none = fresh.run(&cancel, &mut |_| {});
    assert!(none.cancelled);
    assert!(none.alternatives.iter().all(|a| a.trials <= 1));
}

#[test]
fn the_jsd_rule_pauses_a_clearly_bad_candidate() {
    // Two close plays of an opening 31 (second and third best at 0-ply) and the worst one.
    let mut search = Search::new(nets());
    let ranked = search.rank_moves(
        &Position::starting(),
        Dice::new(3, 1).unwrap(),
        &money(),
        &cubeful_engine::search::Level::Expert.settings(),
    );
    let worst = *ranked.last().unwrap();
    let moves = vec![ranked[1].mv, ranked[2].mv, worst.mv];
    let settings = RolloutSettings {
        trials: 648,
        cubeful: false,
        variance_reduction: false,
        seed: 8,
        truncation: Some(4),
        stop: StopRule::Jsd {
            limit: 2.33,
            min_trials: 36,
        },
        threads: 2,
        ..RolloutSettings::default()
    };
    let r = run(
        &Position::starting(),
        &money(),
        Subject::Moves(moves),
        &settings,
    );
    let bad = &r.alternatives[2];
    assert_eq!(bad.status, AlternativeStatus::Paused, "{bad:?}");
    assert!(
        bad.trials >= 36 && bad.trials < 648,
        "{} trials",
        bad.trials
    );
    assert!(bad.jsd.unwrap() > 2.33);
    // The close ones go on to the trial limit.
    for good in &r.alternatives[..2] {
        assert_eq!(good.status, AlternativeStatus::Done(StopReason::TrialLimit));
        assert_eq!(good.trials, 648);
        assert!(good.jsd.is_none_or(|j| j <= 2.33));
    }
    assert!(r.alternatives[r.ranking()[0]].jsd.is_none());
}

#[test]
fn the_standard_error_rule_stops_before_the_trial_limit() {
    let settings = RolloutSettings {
        trials: 5000,
        cubeful: false,
        seed: 9,
        truncation: Some(4),
        stop: StopRule::StandardError {
            limit: 0.01,
            min_trials: 36,
        },
        threads: 2,
        ..RolloutSettings::default()
    };
    let a = &run(
        &Position::starting(),
        &money(),
        Subject::Position,
        &settings,
    )
    .alternatives[0];
    assert_eq!(a.status, AlternativeStatus::Done(StopReason::StandardError));
    assert!(a.trials >= 36 && a.trials < 5000, "{} trials", a.trials);
    assert!(a.cubeless_std_error <= 0.01 && a.equity_std_error <= 0.01);
    // One trial fewer would not have met the rule: the rollout stopped as soon as it could.
    let shorter = RolloutSettings {
        trials: a.trials - 1,
        stop: StopRule::TrialLimit,
        ..settings
    };
    let b = &run(&Position::starting(), &money(), Subject::Position, &shorter).alternatives[0];
    assert!(b.trials < 36 || b.cubeless_std_error > 0.01);
}

#[test]
fn quasi_random_dice_are_stratified() {
    for seed in [0, 1, 2026] {
        let dice = RolloutDice::new(seed, true);
        // Every aligned block of 36 trials has each first roll once (as ordered dice), so the
        // sorted rolls have each double once and each other roll twice.
        for block in 0..40u64 {
            let mut seen = [false; 36];
            let mut sorted = std::collections::HashMap::new();
            for k in block * 36..(block + 1) * 36 {
                let x = dice.quasi_index(k, 0).unwrap() as usize;
                assert!(!seen[x]);
                seen[x] = true;
                *sorted.entry(dice.trial(k).roll(0)).or_insert(0) += 1;
            }
            for (d, n) in sorted {
                assert_eq!(n, if d.is_double() { 1 } else { 2 }, "{d}");
            }
        }
        // 1296 trials cover every pair of first two rolls once.
        let mut pairs = std::collections::HashSet::new();
        for k in 0..1296 {
            pairs.insert((
                dice.quasi_index(k, 0).unwrap(),
                dice.quasi_index(k, 1).unwrap(),
            ));
        }
        assert_eq!(pairs.len(), 1296);
    }
    // The seed matters.
    let a = RolloutDice::new(1, true);
    let b = RolloutDice::new(2, true);
    assert!((0..36).any(|k| a.quasi_index(k, 0) != b.quasi_index(k, 0)));
}

#[test]
fn variance_reduction_lowers_the_standard_error_without_bias() {
    // A race the nets judge (outside the bearoff databases).
    let p = position(
        &[(10, 2), (9, 2), (8, 2), (6, 3), (5, 2), (3, 2), (2, 2)],
        &[(11, 2), (9, 3), (7, 2), (6, 2), (4, 3), (2, 3)],
    );
    let settings = |vr| RolloutSettings {
        trials: 324,
        cubeful: false,
        variance_reduction: vr,
        seed: 4,
        threads: 2,
        ..RolloutSettings::default()
    };
    let with = &run(&p, &money(), Subject::Position, &settings(true)).alternatives[0];
    let without = &run(&p, &money(), Subject::Position, &settings(false)).alternatives[0];
    assert!(
        with.std_error[5] < 0.3 * without.std_error[5],
        "{} vs {}",
        with.std_error[5],
        without.std_error[5]
    );
    assert!(with.std_error[0] < 0.3 * without.std_error[0]);
    let spread = (with.std_error[5].powi(2) + without.std_error[5].powi(2)).sqrt();
    assert!(
        (with.mean[5] - without.mean[5]).abs() <= 2.0 * spread,
        "{} vs {} (± {spread})",
        with.mean[5],
        without.mean[5]
    );
}

#[test]
fn match_play_rollouts_give_match_winning_chances() {
    let met = MatchEquityTable::kazaross_xg2();
    // 5-point match, 2-away 4-away for the player on roll (player 1), cube centred.
    let ctx = CubeContext::new_match(
        met,
        MatchScore::new(5, [1, 3], false),
        Player::One,
        1,
        Ownership::Centered,
    );
    let settings = RolloutSettings {
        trials: 72,
        seed: 12,
        truncation: Some(6),
        threads: 2,
        ..RolloutSettings::default()
    };
    let r = run(&Position::starting(), &ctx, Subject::Cube, &settings);
    for a in &r.alternatives {
        let mwc = a.mwc.unwrap();
        assert!((0.0..=1.0).contains(&mwc));
        assert!((ctx.mwc_to_equity(mwc as f32).unwrap() as f64 - a.equity).abs() < 1e-4);
        assert!(a.mwc_std_error.unwrap() > 0.0);
    }
    let decision = r.cube.unwrap();
    assert_eq!(decision.double_pass, 1.0);
    assert!(!decision.action.is_double(), "{decision:?}");
    let text = format::result_text(&r, &[]);
    assert!(text.contains("Proper cube action:"), "{text}");
    assert!(text.contains("No double:\n"), "{text}");
    // The Crawford game: no cube decision to roll out.
    let crawford = CubeContext::new_match(
        met,
        MatchScore::new(5, [4, 3], true),
        Player::One,
        1,
        Ownership::Centered,
    );
    assert!(Rollout::new(
        nets(),
        None,
        &Position::starting(),
        &crawford,
        Subject::Cube,
        &settings
    )
    .is_err());
}

#[test]
fn results_convert_to_the_record_shapes() {
    let settings = RolloutSettings {
        trials: 36,
        seed: 21,
        truncation: Some(4),
        threads: 2,
        ..RolloutSettings::default()
    };
    let r = run(&Position::starting(), &money(), opening_31(), &settings);
    let c = record::candidate_eval(&r, 1).unwrap();
    let a = &r.alternatives[1];
    assert_eq!(
        c.probabilities,
        [a.mean[0], a.mean[1], a.mean[2], a.mean[3], a.mean[4]]
    );
    assert_eq!(c.equity, a.equity);
    let EvalSource::Rollout(stats) = &c.source else {
        panic!("{c:?}")
    };
    assert_eq!(stats.trials, 36);
    assert_eq!(stats.std_dev, a.std_error);
    assert_eq!(stats.move_means, [a.mean[5], a.mean[6], a.cubeless]);
    assert!(stats
        .settings
        .starts_with("SK 0 RC 1 1 0 1 0 1 4 1 1 0 \"SplitMix64\" 21"));
    assert!(record::cube_analysis(&r).is_none());
    let cube = run(&Position::starting(), &money(), Subject::Cube, &settings);
    let ca = record::cube_analysis(&cube).unwrap();
    assert_eq!(ca.no_double, cube.alternatives[0].mean);
    assert_eq!(ca.double_take, cube.alternatives[1].mean);
    assert!(ca.double_take_rollout.is_some());
    assert!(record::candidate_eval(&cube, 0).is_none());
    // The double/take side is in units of the cube before the double.
    let d = cube.cube.unwrap();
    assert!((f64::from(d.double_take) - ca.double_take[6]).abs() < 1e-6);
}

#[test]
fn rollouts_can_move_to_a_worker_thread() {
    fn send<T: Send>() {}
    fn shared<T: Send + Sync>() {}
    send::<Rollout<'static>>();
    shared::<RolloutResult>();
    // A rollout made on one thread runs on another, cancelled from a third.
    let cancel = Arc::new(AtomicBool::new(false));
    let settings = RolloutSettings {
        trials: 1_000_000,
        cubeful: false,
        truncation: Some(2),
        threads: 1,
        ..RolloutSettings::default()
    };
    let mut rollout = Rollout::new(
        nets(),
        None,
        &Position::starting(),
        &money(),
        Subject::Position,
        &settings,
    )
    .unwrap();
    let flag = cancel.clone();
    let worker = std::thread::spawn(move || rollout.run(&flag, &mut |_| {}));
    std::thread::sleep(std::time::Duration::from_millis(200));
    cancel.store(true, Ordering::Relaxed);
    let result = worker.join().unwrap();
    assert!(result.cancelled);
    let a = &result.alternatives[0];
    assert!(a.trials > 0 && a.trials < 1_000_000);
}
