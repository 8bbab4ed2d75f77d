//! The parallel loop of a rollout: trials are played on the pool's threads in any order and
//! added in trial order, after which the stop rules are checked (docs/ANALYSIS.md §Rollout
//! stop rules).
//!
//! A job is one trial of one alternative; its result depends only on the seed, the trial
//! number and the alternative, so the order in which the threads finish does not matter. The
//! calling thread hands out jobs (a few more than there are threads, lowest trial first), adds
//! finished trials in order — trial `k` of every running alternative before trial `k + 1` — and
//! checks the stop rules whenever all running alternatives have the same number of trials. A
//! candidate play resumed by the JSD rule first catches up on the trials it missed (with the
//! same dice), without stop checks in between. Jobs played beyond a stop are kept for a later
//! run; cancelling sets a flag every job checks at every ply.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::result::{AlternativeResult, AlternativeStatus, Progress, StopReason, SubjectKind};
use super::settings::StopRule;
use super::stats::OUTPUTS;
use super::stop::{cube_jsd, move_jsd, standard_error_met};
use super::trial::Worker;
use super::Rollout;

use crate::game::splitmix64;

/// A finished job: trial, alternative, outputs (`None` if it was abandoned).
type Done = (u64, usize, Option<[f64; OUTPUTS]>);

pub(super) fn run(r: &mut Rollout, cancel: &AtomicBool, progress: &mut dyn FnMut(&Progress)) {
    let started = Instant::now();
    let elapsed_before = r.elapsed;
    r.cancelled = false;
    let trials = r.settings.trials;
    for (i, status) in r.status.iter_mut().enumerate() {
        let n = r.stats[i].count();
        match *status {
            AlternativeStatus::Done(StopReason::TrialLimit) if n < trials => {
                *status = AlternativeStatus::Running
            }
            AlternativeStatus::Running if n >= trials => {
                *status = AlternativeStatus::Done(StopReason::TrialLimit)
            }
            _ => {}
        }
    }
    let Rollout {
        kind,
        settings,
        alternatives,
        units,
        stats,
        status,
        jsd,
        dice,
        nets,
        bearoff,
        pool,
        workers,
        pending,
        cancelled,
        ..
    } = r;
    let (settings, alternatives, dice, workers) = (&*settings, &*alternatives, &*dice, &*workers);
    let (nets, bearoff) = (&*nets, &*bearoff);
    let noisy = {
        let all = [
            settings.early.checker,
            settings.early.cube,
            settings.truncation_eval,
        ];
        let late = settings
            .late
            .map(|l| [l.phase.checker, l.phase.cube])
            .unwrap_or_default();
        all.iter()
            .chain(late.iter())
            .any(|e| e.noise > 0.0 && !e.deterministic)
    };
    let stop_jobs = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Done>();
    // Trials handed out ahead: enough that the workers never run dry while this thread waits
    // for a core (a 0-ply trial without variance reduction lasts about a millisecond, less
    // than a scheduler's time slice, and with every core busy playing trials this thread only
    // gets one now and then). Results are still added in trial order, so the number ahead
    // changes nothing in the results.
    let capacity = 32 * pool.current_num_threads();
    // Next trial to hand out, per alternative.
    let mut next: Vec<u64> = stats.iter().map(|s| u64::from(s.count())).collect();
    let mut in_flight = 0usize;
    let mut jobs_done = 0u64;
    let mut snapshot: Vec<AlternativeResult> = Vec::new();

    pool.in_place_scope(|scope| {
        'outer: loop {
            // Add every trial that can be added, in order.
            loop {
                let running: Vec<usize> = (0..alternatives.len())
                    .filter(|&i| status[i] == AlternativeStatus::Running)
                    .collect();
                let Some(k) = running.iter().map(|&i| stats[i].count()).min() else {
                    break 'outer;
                };
                let turn: Vec<usize> = running
                    .iter()
                    .copied()
                    .filter(|&i| stats[i].count() == k)
                    .collect();
                if !turn
                    .iter()
                    .all(|&i| pending.contains_key(&(u64::from(k), i)))
                {
                    break;
                }
                for &i in &turn {
                    let x = pending
                        .remove(&(u64::from(k), i))
                        .expect("checked to be there");
                    stats[i].push(&x);
                }
                let in_step = running.iter().all(|&i| stats[i].count() == k + 1);
                let results: Vec<AlternativeResult> =
                    units_results(stats, units, status, jsd).collect();
                check_stops(*kind, settings, &results, status, jsd, in_step);
                snapshot.clear();
                snapshot.extend(units_results(stats, units, status, jsd));
                let elapsed = elapsed_before + started.elapsed();
                let left: u64 = (0..alternatives.len())
                    .filter(|&i| status[i] == AlternativeStatus::Running)
                    .map(|i| u64::from(trials.saturating_sub(stats[i].count())))
                    .sum();
                let remaining = (jobs_done > 0)
                    .then(|| {
                        let secs = started.elapsed().as_secs_f64() * left as f64 / jobs_done as f64;
                        Duration::try_from_secs_f64(secs).ok()
                    })
                    .flatten();
                let slowest = (0..alternatives.len())
                    .filter(|&i| status[i] == AlternativeStatus::Running)
                    .map(|i| stats[i].count())
                    .min()
                    .unwrap_or_else(|| stats.iter().map(|s| s.count()).max().unwrap_or(0));
                progress(&Progress {
                    trials: slowest,
                    target: trials,
                    alternatives: &snapshot,
                    elapsed,
                    remaining,
                });
                if cancel.load(Ordering::Relaxed) {
                    *cancelled = true;
                    break 'outer;
                }
            }
            // Hand out jobs, lowest trial first.
            while in_flight < capacity {
                let pick = (0..alternatives.len())
                    .filter(|&i| status[i] == AlternativeStatus::Running)
                    .filter_map(|i| {
                        while pending.contains_key(&(next[i], i)) {
                            next[i] += 1;
                        }
                        (next[i] < u64::from(trials)).then_some((next[i], i))
                    })
                    .min();
                let Some((k, i)) = pick else {
                    break;
                };
                next[i] += 1;
                in_flight += 1;
                let tx = tx.clone();
                let alt = &alternatives[i];
                let stop_jobs = &stop_jobs;
                let noise_seed = noisy.then(|| {
                    let mut s = settings.seed ^ (k << 8) ^ ((i as u64) << 48);
                    splitmix64(&mut s)
                });
                scope.spawn(move |_| {
                    // Reports the job even if it panics, so that the loop never waits for it
                    // (the panic itself reaches the caller when the scope ends).
                    let mut report = Report {
                        tx,
                        done: (k, i, None),
                    };
                    let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
                    let mut worker = workers[slot].lock().unwrap_or_else(|e| e.into_inner());
                    let worker = worker.get_or_insert_with(|| {
                        Worker::new(nets.clone(), bearoff.clone(), settings.variance_reduction)
                    });
                    let stop =
                        || stop_jobs.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed);
                    report.done.2 = worker.play(alt, k, noise_seed, dice, settings, &stop);
                });
            }
            if in_flight == 0 {
                // Nothing running and nothing to add: only possible if every alternative is
                // done, which the adding loop has seen.
                break;
            }
            let Ok(done) = rx.recv() else { break };
            in_flight -= 1;
            let mut complete = receive(done, pending, &mut jobs_done);
            while let Ok(done) = rx.try_recv() {
                in_flight -= 1;
                complete &= receive(done, pending, &mut jobs_done);
            }
            if cancel.load(Ordering::Relaxed) {
                *cancelled = true;
                break;
            }
            if !complete {
                // A job gave up without being asked to: it panicked. Stop; the panic reaches
                // the caller when the scope ends.
                break;
            }
        }
        stop_jobs.store(true, Ordering::Relaxed);
    });
    drop(tx);
    while let Ok(done) = rx.try_recv() {
        receive(done, pending, &mut jobs_done);
    }
    r.elapsed = elapsed_before + started.elapsed();
}

/// Sends a job's result when dropped: at its end, or while a panic unwinds it.
struct Report {
    tx: mpsc::Sender<Done>,
    done: Done,
}

impl Drop for Report {
    fn drop(&mut self) {
        // The receiver outlives every job of the scope.
        let _ = self.tx.send(self.done);
    }
}

/// Keeps a finished job's result; false if the job had no result (it was abandoned).
fn receive(
    (k, i, result): Done,
    pending: &mut std::collections::HashMap<(u64, usize), [f64; OUTPUTS]>,
    jobs_done: &mut u64,
) -> bool {
    match result {
        Some(x) => {
            pending.insert((k, i), x);
            *jobs_done += 1;
            true
        }
        None => false,
    }
}

fn units_results<'x>(
    stats: &'x [super::stats::RunningStats],
    units: &'x [super::result::Units],
    status: &'x [AlternativeStatus],
    jsd: &'x [Option<f64>],
) -> impl Iterator<Item = AlternativeResult> + 'x {
    (0..stats.len()).map(move |i| AlternativeResult::new(&stats[i], &units[i], status[i], jsd[i]))
}

/// The stop rules after a trial was added. `in_step`: every running alternative has the same
/// number of trials (the rules other than the trial limit wait for that).
fn check_stops(
    kind: SubjectKind,
    settings: &super::RolloutSettings,
    results: &[AlternativeResult],
    status: &mut [AlternativeStatus],
    jsd: &mut [Option<f64>],
    in_step: bool,
) {
    for (s, a) in status.iter_mut().zip(results) {
        if *s == AlternativeStatus::Running && a.trials >= settings.trials {
            *s = AlternativeStatus::Done(StopReason::TrialLimit);
        }
    }
    if kind == SubjectKind::Moves && results.len() >= 2 {
        let (_, values) = move_jsd(results);
        jsd.copy_from_slice(&values);
    }
    if !in_step {
        return;
    }
    match settings.stop {
        StopRule::TrialLimit => {}
        StopRule::StandardError { limit, min_trials } => {
            let met = |a: &AlternativeResult| {
                a.trials >= min_trials && standard_error_met(a, limit, settings.cubeful)
            };
            if kind == SubjectKind::Cube {
                if results.iter().all(met) {
                    for s in status.iter_mut() {
                        if *s == AlternativeStatus::Running {
                            *s = AlternativeStatus::Done(StopReason::StandardError);
                        }
                    }
                }
            } else {
                for (s, a) in status.iter_mut().zip(results) {
                    if *s == AlternativeStatus::Running && met(a) {
                        *s = AlternativeStatus::Done(StopReason::StandardError);
                    }
                }
            }
        }
        StopRule::Jsd { limit, min_trials } => match kind {
            SubjectKind::Position => {}
            SubjectKind::Cube => {
                let (nd, dt) = (&results[0], &results[1]);
                if nd.trials >= min_trials
                    && dt.trials >= min_trials
                    && cube_jsd(nd, dt).iter().all(|&j| j > limit)
                {
                    for s in status.iter_mut() {
                        if *s == AlternativeStatus::Running {
                            *s = AlternativeStatus::Done(StopReason::Jsd);
                        }
                    }
                }
            }
            SubjectKind::Moves => {
                if results.len() < 2 {
                    return;
                }
                let (best, values) = move_jsd(results);
                for (i, s) in status.iter_mut().enumerate() {
                    match (*s, values[i]) {
                        (AlternativeStatus::Running, Some(j))
                            if j > limit && results[i].trials >= min_trials =>
                        {
                            *s = AlternativeStatus::Paused
                        }
                        (AlternativeStatus::Paused, Some(j)) if j <= limit => {
                            *s = AlternativeStatus::Running
                        }
                        (AlternativeStatus::Paused, None) if i == best => {
                            *s = AlternativeStatus::Running
                        }
                        _ => {}
                    }
                }
                let running = status
                    .iter()
                    .filter(|s| **s == AlternativeStatus::Running)
                    .count();
                if running < 2 {
                    for s in status.iter_mut() {
                        if *s == AlternativeStatus::Running {
                            *s = AlternativeStatus::Done(StopReason::Jsd);
                        }
                    }
                }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{CubeContext, Ownership};
    use crate::eval::Nets;
    use crate::rules::dice::Dice;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Position;
    use crate::search::rollout::{RolloutSettings, Subject};
    use std::sync::Arc;

    fn alternative(equity: f64, se: f64, trials: u32) -> AlternativeResult {
        AlternativeResult {
            trials,
            mean: [0.5, 0.1, 0.0, 0.1, 0.0, equity, equity],
            std_error: [0.01, 0.01, 0.0, 0.01, 0.0, se, se],
            equity,
            equity_std_error: se,
            cubeless: equity,
            cubeless_std_error: se,
            mwc: None,
            mwc_std_error: None,
            status: AlternativeStatus::Running,
            jsd: None,
        }
    }

    #[test]
    fn jsd_pauses_and_resumes_candidates() {
        let settings = RolloutSettings {
            trials: 1000,
            stop: StopRule::Jsd {
                limit: 2.0,
                min_trials: 10,
            },
            ..RolloutSettings::default()
        };
        let results = [
            alternative(0.10, 0.01, 20),
            alternative(0.09, 0.01, 20),
            alternative(-0.20, 0.01, 20),
            alternative(0.0, 0.05, 5),
        ];
        let mut status = [AlternativeStatus::Running; 4];
        let mut jsd = [None; 4];
        check_stops(
            SubjectKind::Moves,
            &settings,
            &results,
            &mut status,
            &mut jsd,
            true,
        );
        assert_eq!(jsd[0], None);
        // (0.10 − 0.09) / √(0.01² + 0.01²)
        assert!((jsd[1].unwrap() - 0.5f64.sqrt()).abs() < 1e-9);
        // Far behind: paused; close: running; too few trials: running.
        assert_eq!(
            status,
            [
                AlternativeStatus::Running,
                AlternativeStatus::Running,
                AlternativeStatus::Paused,
                AlternativeStatus::Running
            ]
        );
        // Back within the limit: resumed.
        let closer = [
            alternative(0.10, 0.01, 30),
            alternative(0.09, 0.01, 30),
            alternative(0.08, 0.01, 20),
            alternative(0.0, 0.05, 30),
        ];
        check_stops(
            SubjectKind::Moves,
            &settings,
            &closer,
            &mut status,
            &mut jsd,
            true,
        );
        assert_eq!(status[2], AlternativeStatus::Running);
        // Only the best left running: the rollout ends.
        let apart = [
            alternative(0.50, 0.01, 40),
            alternative(0.09, 0.01, 40),
            alternative(0.08, 0.01, 40),
            alternative(0.0, 0.01, 40),
        ];
        check_stops(
            SubjectKind::Moves,
            &settings,
            &apart,
            &mut status,
            &mut jsd,
            true,
        );
        assert_eq!(status[0], AlternativeStatus::Done(StopReason::Jsd));
        assert!(status[1..].iter().all(|s| *s == AlternativeStatus::Paused));
        // Out of step (a candidate catching up): only the trial limit applies.
        let mut status = [AlternativeStatus::Running; 4];
        check_stops(
            SubjectKind::Moves,
            &settings,
            &results,
            &mut status,
            &mut jsd,
            false,
        );
        assert!(status.iter().all(|s| *s == AlternativeStatus::Running));
    }

    #[test]
    fn a_resumed_candidate_catches_up_with_the_same_dice() {
        let position = Position::starting();
        let moves: Vec<_> = legal_moves(&position, Dice::new(6, 5).unwrap())
            .into_iter()
            .take(2)
            .collect();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let settings = RolloutSettings {
            trials: 12,
            seed: 77,
            truncation: Some(2),
            threads: 2,
            ..RolloutSettings::default()
        };
        let nets = Arc::new(Nets::embedded());
        let new = || {
            Rollout::new(
                nets.clone(),
                None,
                &position,
                &ctx,
                Subject::Moves(moves.clone()),
                &settings,
            )
            .unwrap()
        };
        let straight = new().run(&AtomicBool::new(false), &mut |_| {});
        let mut r = new();
        r.status[1] = AlternativeStatus::Paused;
        let first = r.run(&AtomicBool::new(false), &mut |_| {});
        assert_eq!(
            (first.alternatives[0].trials, first.alternatives[1].trials),
            (12, 0)
        );
        r.status[1] = AlternativeStatus::Running;
        let caught_up = r.run(&AtomicBool::new(false), &mut |_| {});
        assert_eq!(caught_up.alternatives, straight.alternatives);
    }
}
