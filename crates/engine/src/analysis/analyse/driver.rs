//! Running the tasks of an analysis: in parallel on a pool of `threads` workers (each with its
//! own [`Search`]), taking the tasks in record order, reporting each action's analysis as soon as
//! it is ready and the progress after every task, stopping promptly when asked to. When checker
//! plays or cube decisions are rolled out, one worker takes the positions in turn and each
//! rollout runs on all the threads instead.
//!
//! Every task is computed from its own snapshots only and the searches (and rollouts, by their
//! seed) are deterministic, so the analysis is the same whatever the number of threads and the
//! order the tasks finish in; only the order of the reports differs.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::analysis::hint::cube_context;
use crate::analysis::marks;
use crate::cube::CubeContext;
use crate::game::record::analysis::CubeAnalysis;
use crate::game::record::{ActionAnalysis, MatchInfo, RecordAction};
use crate::rules::position::Position;
use crate::search::Search;

use super::checker::analyse_play;
use super::cube::analyse_cube;
use super::luck::luck;
use super::plan::{before_roll, cube_available, Task, Work};
use super::rollouts::{roll_out_cube, roll_out_plays, Roller};
use super::settings::{AnalysisLevel, AnalysisSettings};
use super::{
    as_written, AnalyseError, Analysed, Observer, Progress, Run, LUCK_DECIMALS, TRIAL_PROGRESS,
};

/// What the workers bring back.
struct Collected {
    results: Vec<Analysed>,
    done: usize,
}

/// One worker's tools.
struct Worker<'a> {
    search: Search,
    roller: Roller<'a>,
}

impl Worker<'_> {
    fn cancelled(&self) -> bool {
        self.roller.cancel.load(Ordering::Relaxed)
    }
}

/// Runs `tasks` of the match `info` under `settings`; returns the analyses made (record order)
/// and whether the run was cancelled before the end.
pub(super) fn execute(
    info: &MatchInfo,
    tasks: &[Task],
    settings: &AnalysisSettings,
    run: &Run,
    observer: &dyn Observer,
) -> Result<(Vec<Analysed>, bool), AnalyseError> {
    let start = Instant::now();
    let total = tasks.len();
    observer.progress(&Progress::at(0, total, Duration::ZERO));
    if total == 0 {
        return Ok((Vec::new(), false));
    }
    let rollouts = settings.uses_rollouts();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(if rollouts { 1 } else { run.threads })
        .thread_name(|i| format!("cubeful-analyse-{i}"))
        .build()
        .map_err(|e| AnalyseError::Threads(e.to_string()))?;
    let workers = pool.current_num_threads().clamp(1, total);
    let next = AtomicUsize::new(0);
    let collected = Mutex::new(Collected {
        results: Vec::with_capacity(total + total / 8),
        done: 0,
    });
    let never = AtomicBool::new(false);
    let cancel = run.cancel.unwrap_or(&never);
    // A rollout's trials: the first one reported, then at most every TRIAL_PROGRESS.
    let positions_done = AtomicUsize::new(0);
    let last_trials: Mutex<Option<Instant>> = Mutex::new(None);
    let trials = |done: u32, target: u32| {
        let mut last = last_trials.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < TRIAL_PROGRESS) {
            return;
        }
        *last = Some(Instant::now());
        let mut p = Progress::at(
            positions_done.load(Ordering::Relaxed),
            total,
            start.elapsed(),
        );
        p.trials = Some((done, target));
        observer.progress(&p);
    };
    pool.scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| {
                let mut search = Search::new(run.nets.clone());
                search.set_bearoff(run.bearoff.clone());
                let mut worker = Worker {
                    search,
                    roller: Roller {
                        nets: run.nets.clone(),
                        bearoff: run.bearoff.clone(),
                        threads: run.threads,
                        cancel,
                        trials: &trials,
                    },
                };
                loop {
                    if worker.cancelled() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = tasks.get(i) else { break };
                    let Some(out) = perform(task, info, settings, &mut worker) else {
                        break;
                    };
                    for a in &out {
                        observer.analysed(a);
                    }
                    let mut c = collected.lock().unwrap_or_else(|e| e.into_inner());
                    c.results.extend(out);
                    c.done += 1;
                    positions_done.store(c.done, Ordering::Relaxed);
                    observer.progress(&Progress::at(c.done, total, start.elapsed()));
                }
            });
        }
    });
    let c = collected.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut results = c.results;
    results.sort_by_key(|a| (a.game, a.entry));
    Ok((results, c.done < total))
}

/// The cube decision of the player on roll in `position` at the settings' cube level. `None`
/// when he may not double — or when the run was cancelled during a rollout (the caller checks).
fn cube_decision(
    worker: &mut Worker,
    position: &Position,
    ctx: &CubeContext,
    settings: &AnalysisSettings,
) -> Option<CubeAnalysis> {
    match &settings.cube {
        AnalysisLevel::Ply(_) => {
            analyse_cube(&mut worker.search, position, ctx, &settings.cube_settings())
        }
        AnalysisLevel::Rollout(level) => {
            if !ctx.can_double() {
                return None;
            }
            roll_out_cube(&worker.roller, position, ctx, level)
        }
    }
}

/// Analyses one task; `None` if the run was cancelled meanwhile.
fn perform(
    task: &Task,
    info: &MatchInfo,
    settings: &AnalysisSettings,
    worker: &mut Worker,
) -> Option<Vec<Analysed>> {
    let beavers = info.rules.beavers_apply();
    match &task.work {
        Work::Turn { rolled, parts } => {
            let target = &task.targets[0];
            let (dice, played) = match &target.action {
                RecordAction::Move { dice, mv, .. } => (*dice, Some(mv)),
                RecordAction::Roll { dice, .. } => (*dice, None),
                _ => return Some(Vec::new()),
            };
            let ctx = cube_context(&before_roll(rolled), beavers);
            let position = &rolled.position;
            let mut a = target.existing.clone().unwrap_or_default();
            if parts.cube {
                a.cube = if cube_available(info, rolled) {
                    cube_decision(worker, position, &ctx, settings)
                } else {
                    None
                };
                a.cube_rollout_mark = false;
                if worker.cancelled() {
                    return None;
                }
            }
            if let (Some(mv), true) = (played, parts.moves) {
                a.moves = analyse_play(
                    &mut worker.search,
                    position,
                    dice,
                    mv,
                    &ctx,
                    settings.checker.eval_settings(),
                    settings.max_candidates,
                );
                if let (AnalysisLevel::Rollout(level), Some(moves)) =
                    (&settings.checker, &mut a.moves)
                {
                    if moves.candidates.len() > 1 {
                        // Kept at n-ply if the rollout cannot be made (or is cancelled: below).
                        if let Some(rolled) =
                            roll_out_plays(&worker.roller, position, &ctx, moves, level)
                        {
                            *moves = rolled;
                        }
                    }
                }
                if worker.cancelled() {
                    return None;
                }
            }
            if parts.luck {
                let l = luck(&mut worker.search, position, dice, &ctx, &settings.luck);
                a.luck = Some(as_written(l, LUCK_DECIMALS));
            }
            marks::mark(
                &target.action,
                &mut a,
                &target.before,
                info,
                &settings.thresholds,
            );
            Some(vec![Analysed {
                game: task.game,
                entry: target.entry,
                analysis: a,
            }])
        }
        Work::Cube => {
            let at = &task.targets[0].before;
            let mut state = at.state;
            state.doubled = false;
            state.turn = state.on_roll;
            state.resigned = None;
            let ctx = cube_context(&state, beavers);
            let cube = cube_decision(worker, &at.position, &ctx, settings);
            if worker.cancelled() {
                return None;
            }
            Some(
                task.targets
                    .iter()
                    .map(|t| {
                        let mut a: ActionAnalysis = t.existing.clone().unwrap_or_default();
                        a.cube = cube.clone();
                        a.cube_rollout_mark = false;
                        marks::mark(&t.action, &mut a, &t.before, info, &settings.thresholds);
                        Analysed {
                            game: task.game,
                            entry: t.entry,
                            analysis: a,
                        }
                    })
                    .collect(),
            )
        }
    }
}

impl Progress {
    /// The progress after `done` of `total` tasks in `elapsed`, the time left extrapolated from
    /// the pace so far.
    fn at(done: usize, total: usize, elapsed: Duration) -> Progress {
        let remaining = (done > 0).then(|| {
            let left = (total - done.min(total)) as f64;
            Duration::from_secs_f64(elapsed.as_secs_f64() * left / done as f64)
        });
        Progress {
            done,
            total,
            elapsed,
            remaining,
            trials: None,
        }
    }
}
