//! Rollouts: many games played out from a position with the same dice for every alternative,
//! as GNU Backgammon rolls out (docs/ANALYSIS.md §Rollouts).
//!
//! A [`Rollout`] rolls out one [`Subject`]: a position before the roll, the candidate plays of a
//! roll, or a cube decision (no double and double/take; double/pass is +1). Every *trial* plays
//! one game from each alternative with the trial's dice ([`dice`]: quasi-random for the first
//! plies), choosing plays and cube actions with the [`RolloutSettings`] of the early or late
//! plies, optionally truncated after some plies or on entering a bearoff database, with lookahead
//! variance reduction. Trials run on a local pool of `threads` threads, each with its own
//! [`Search`](crate::search::Search); their results are added in trial order, so a seed gives
//! the same figures bit for bit whatever the number of threads. Stop rules
//! ([`StopRule`]): the trial limit, the standard error, GNU Backgammon's JSD test between
//! candidates.
//!
//! Front ends drive a rollout with [`Rollout::run`]: a progress callback after every trial
//! ([`Progress`]: trials, every alternative's figures, time left) and a cancel flag that every
//! thread checks at every ply, so a cancelled rollout stops within one trial with valid partial
//! figures; calling [`Rollout::run`] again goes on where it stopped (also after
//! [`Rollout::set_trials`] raised the limit: a rollout is extended with the same dice as a
//! longer one).
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use std::sync::Arc;
//! use cubeful_engine::cube::{CubeContext, Ownership};
//! use cubeful_engine::eval::Nets;
//! use cubeful_engine::search::rollout::{format, Rollout, RolloutSettings, Subject};
//! use cubeful_engine::Position;
//!
//! let settings = RolloutSettings { trials: 648, seed: 1, ..RolloutSettings::default() };
//! let ctx = CubeContext::money(1, Ownership::Centered);
//! let mut rollout = Rollout::new(
//!     Arc::new(Nets::embedded()), None, &Position::starting(), &ctx, Subject::Position, &settings,
//! ).unwrap();
//! let result = rollout.run(&AtomicBool::new(false), &mut |p| eprintln!("{}/{}", p.trials, p.target));
//! println!("{}", format::result_text(&result, &["Current position".into()]));
//! ```
//!
//! Results convert to the shapes a match record stores ([`record`]): a candidate play's
//! `CandidateEval`, a cube decision's `CubeAnalysis`, with GNU Backgammon's rollout settings
//! text ([`format::settings_text`]).

pub mod dice;
pub mod format;
pub mod record;
mod result;
mod run;
mod settings;
mod stats;
mod stop;
mod trial;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use thiserror::Error;

use crate::cube::{CubeContext, Scoring};
use crate::eval::bearoff::BearoffDb;
use crate::eval::Nets;
use crate::rules::movegen::LegalMove;
use crate::rules::position::Position;

pub use result::{
    AlternativeResult, AlternativeStatus, Progress, RolloutResult, StopReason, SubjectKind,
};
pub use settings::{LateSettings, PhaseSettings, RolloutSettings, StopRule};
pub use stats::OUTPUTS;

use dice::RolloutDice;
use result::Units;
use stats::RunningStats;
use trial::{to_decider, Alternative, Worker};

/// What to roll out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The position before the roll, for its player on roll (who may double at once in a
    /// cubeful rollout).
    Position,
    /// Candidate plays of a roll: each play's resulting position (seen from the mover, as move
    /// generation gives it) is rolled out with the opponent on roll, the results seen from the
    /// mover.
    Moves(Vec<LegalMove>),
    /// The cube decision of the player on roll: no double, and double/take (the opponent owning
    /// the doubled cube). Always cubeful.
    Cube,
}

/// Why a rollout cannot start.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RolloutError {
    /// The position is a finished game.
    #[error("the game is over: there is nothing to roll out")]
    GameOver,
    /// A move rollout without candidates.
    #[error("no candidate plays to roll out")]
    NoCandidates,
    /// A cube rollout where the player on roll may not double.
    #[error("the player on roll cannot double here: there is no cube decision to roll out")]
    CubeNotAvailable,
    /// Zero trials.
    #[error("a rollout needs at least one trial")]
    NoTrials,
    /// The thread pool could not be started.
    #[error("cannot start the rollout threads: {0}")]
    Threads(String),
}

/// A rollout in progress (see the [module documentation](self)).
pub struct Rollout<'a> {
    kind: SubjectKind,
    /// The decision maker's cube before the decision.
    ctx: CubeContext<'a>,
    settings: RolloutSettings,
    alternatives: Vec<Alternative<'a>>,
    units: Vec<Units>,
    stats: Vec<RunningStats>,
    status: Vec<AlternativeStatus>,
    jsd: Vec<Option<f64>>,
    dice: RolloutDice,
    nets: Arc<Nets>,
    bearoff: Option<Arc<BearoffDb>>,
    pool: rayon::ThreadPool,
    /// One player of trials per pool thread, created on first use and kept between runs.
    workers: Vec<Mutex<Option<Worker>>>,
    /// Trials played but not yet added (they are added in trial order), by (trial, alternative).
    pending: HashMap<(u64, usize), [f64; OUTPUTS]>,
    elapsed: Duration,
    cancelled: bool,
}

impl<'a> Rollout<'a> {
    /// Prepares a rollout of `subject` in `position` (seen from the player on roll, whose cube
    /// is `ctx`), with `nets` and, if given, the bearoff databases (exact values in the
    /// evaluations, and the truncation points). No trial is played before [`Rollout::run`].
    pub fn new(
        nets: Arc<Nets>,
        bearoff: Option<Arc<BearoffDb>>,
        position: &Position,
        ctx: &CubeContext<'a>,
        subject: Subject,
        settings: &RolloutSettings,
    ) -> Result<Rollout<'a>, RolloutError> {
        if settings.trials == 0 {
            return Err(RolloutError::NoTrials);
        }
        if position.result().is_some() {
            return Err(RolloutError::GameOver);
        }
        let mut settings = settings.clone();
        if matches!(subject, Subject::Cube) {
            settings.cubeful = true;
        }
        let settings = settings.normalised();
        let ctx = *ctx;
        let money = ctx.is_money();
        let scale = |cube: u32| match ctx.scoring {
            Scoring::Money { .. } => None,
            Scoring::Match { .. } => {
                let mut c = ctx;
                c.cube = cube;
                c.scale()
            }
        };
        let units = |cube: u32| Units {
            scale: scale(ctx.cube),
            cubeless_factor: if money {
                f64::from(cube) / f64::from(ctx.cube)
            } else {
                1.0
            },
            cubeful: settings.cubeful,
        };
        let (kind, alternatives, units) = match subject {
            Subject::Position => (
                SubjectKind::Position,
                vec![Alternative::new(
                    *position, ctx, &ctx, true, false, ctx.cube,
                )],
                vec![units(ctx.cube)],
            ),
            Subject::Moves(moves) => {
                if moves.is_empty() {
                    return Err(RolloutError::NoCandidates);
                }
                let alternatives = moves
                    .iter()
                    .map(|m| {
                        let mut alt = Alternative::new(
                            m.position.swap(),
                            ctx.swapped(),
                            &ctx,
                            true,
                            true,
                            ctx.cube,
                        );
                        if let Some(result) = m.position.result() {
                            let p =
                                crate::eval::Probabilities::of_result(result.winner, result.kind);
                            let v = trial::exact_value(&p, &ctx);
                            alt.finished = Some(alt.outputs(&to_decider(&p, v, true, money)));
                        }
                        alt
                    })
                    .collect();
                let u = vec![units(ctx.cube); moves.len()];
                (SubjectKind::Moves, alternatives, u)
            }
            Subject::Cube => {
                if !ctx.can_double() {
                    return Err(RolloutError::CubeNotAvailable);
                }
                let doubled = ctx.doubled();
                (
                    SubjectKind::Cube,
                    vec![
                        Alternative::new(*position, ctx, &ctx, false, false, ctx.cube),
                        Alternative::new(*position, doubled, &doubled, false, false, ctx.cube),
                    ],
                    vec![units(ctx.cube), units(doubled.cube)],
                )
            }
        };
        let threads = settings.thread_count();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("rollout-{i}"))
            .build()
            .map_err(|e| RolloutError::Threads(e.to_string()))?;
        let n = alternatives.len();
        Ok(Rollout {
            kind,
            ctx,
            dice: RolloutDice::new(settings.seed, settings.quasi_random),
            settings,
            alternatives,
            units,
            stats: vec![RunningStats::new(); n],
            status: vec![AlternativeStatus::Running; n],
            jsd: vec![None; n],
            nets,
            bearoff,
            workers: (0..threads).map(|_| Mutex::new(None)).collect(),
            pool,
            pending: HashMap::new(),
            elapsed: Duration::ZERO,
            cancelled: false,
        })
    }

    /// Plays trials until every alternative has stopped (trial limit or stop rule) or `cancel`
    /// is set; `progress` is called on this thread after every trial added. Returns the result
    /// so far. Calling it again continues (see [`Rollout::set_trials`]).
    pub fn run(
        &mut self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> RolloutResult {
        run::run(self, cancel, progress);
        self.result()
    }

    /// Raises (or lowers) the trial limit; alternatives that stopped at the old limit run again
    /// at the next [`Rollout::run`].
    pub fn set_trials(&mut self, trials: u32) {
        self.settings.trials = trials.max(1);
    }

    /// The settings in use (every evaluation's cubefulness set to the rollout's).
    pub fn settings(&self) -> &RolloutSettings {
        &self.settings
    }

    /// The figures so far.
    pub fn result(&self) -> RolloutResult {
        let alternatives = self.alternative_results();
        let cube = (self.kind == SubjectKind::Cube).then(|| {
            let (nd, dt) = (&alternatives[0], &alternatives[1]);
            crate::cube::decide(
                nd.equity as f32,
                dt.equity as f32,
                &self.ctx,
                nd.mean[1] > 0.0,
            )
        });
        RolloutResult {
            kind: self.kind,
            alternatives,
            settings: self.settings.clone(),
            cube,
            cancelled: self.cancelled,
            elapsed: self.elapsed,
        }
    }

    fn alternative_results(&self) -> Vec<AlternativeResult> {
        (0..self.alternatives.len())
            .map(|i| {
                AlternativeResult::new(&self.stats[i], &self.units[i], self.status[i], self.jsd[i])
            })
            .collect()
    }
}

/// Rolls out `subject` in one go (see [`Rollout::new`] and [`Rollout::run`]).
#[allow(clippy::too_many_arguments)]
pub fn rollout(
    nets: Arc<Nets>,
    bearoff: Option<Arc<BearoffDb>>,
    position: &Position,
    ctx: &CubeContext,
    subject: Subject,
    settings: &RolloutSettings,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<RolloutResult, RolloutError> {
    let mut r = Rollout::new(nets, bearoff, position, ctx, subject, settings)?;
    Ok(r.run(cancel, progress))
}
