//! Match analysis: GNU Backgammon's `analyse match` for a [`MatchRecord`] (docs/ANALYSIS.md §The
//! analyser).
//!
//! For every action of the record, as its [`AnalysisSettings`] ask:
//!
//! * a checker play: the cube decision before it when the mover could double ([`cube`]), every
//!   distinct legal play ranked at the analysis level with the move filters, the played play
//!   always scored at full depth ([`checker`]), and the luck of the roll ([`luck`]);
//! * a roll left unplayed: its luck;
//! * a double and the take or pass answering it: the doubler's cube decision, stored on both;
//!
//! all in the units GNU Backgammon stores (normalised equity; in match play EMG, with the cube
//! decision's cubeful values as match winning chances) and to the decimals its SGF files hold,
//! so that its SGF files show our analysis and we show theirs.
//! [`marks::mark`](crate::analysis::marks::mark) then sets the skill and luck marks.
//! Unnormalised figures (points, MWC) follow from these with
//! [`marks::unnormalised`](crate::analysis::marks::unnormalised).
//!
//! The positions are analysed in parallel ([`Run::threads`] workers, each with its own
//! [`Search`](crate::search::Search)), in record order; each action's analysis is handed to an [`Observer`] as soon as it
//! is ready, with the [`Progress`] after every position, and [`Run::cancel`] stops the run between
//! two steps of a position. The result is the same with any number of threads.
//!
//! Checker plays and cube decisions can also be rolled out ([`AnalysisLevel::Rollout`], with
//! [`crate::search::rollout`]): then the positions are taken one at a time and each rollout runs
//! on all the threads.
//!
//! ```no_run
//! # use std::sync::{Arc, atomic::AtomicBool};
//! # use cubeful_engine::analysis::analyse::*;
//! # use cubeful_engine::eval::Nets;
//! # fn demo(record: &mut cubeful_engine::game::record::MatchRecord) {
//! let cancel = AtomicBool::new(false);
//! let run = Run {
//!     threads: 2,
//!     cancel: Some(&cancel),
//!     nets: Arc::new(Nets::embedded()),
//!     bearoff: None,
//! };
//! let outcome = analyse_record(record, &AnalysisSettings::default(), &run, &()).unwrap();
//! assert!(!outcome.cancelled);
//! # }
//! ```

pub mod checker;
pub mod cube;
mod driver;
pub mod luck;
mod plan;
mod rollouts;
mod settings;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;

use crate::eval::bearoff::BearoffDb;
use crate::eval::Nets;
use crate::game::record::{ActionAnalysis, MatchRecord, ReplayError};

pub use settings::{AnalysisLevel, AnalysisSettings, Existing, RolloutLevel};

/// How to run an analysis: the threads, the cancel flag, the nets and bearoff databases.
#[derive(Clone)]
pub struct Run<'a> {
    /// Worker threads (each with its own [`crate::search::Search`] over the shared nets); 0
    /// takes one per processor.
    pub threads: usize,
    /// Set to `true` (from any thread) to stop the run: no new position is started, and the
    /// position in progress stops at its next step (a rollout within a trial). What was analysed
    /// by then is returned.
    pub cancel: Option<&'a AtomicBool>,
    pub nets: Arc<Nets>,
    /// The bearoff databases (exact bearoff values, rollout truncation), if used.
    pub bearoff: Option<Arc<BearoffDb>>,
}

/// The analysis of one action, ready: marks set, to be stored in
/// `record.games[game].entries[entry].analysis` (both counting from 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Analysed {
    pub game: usize,
    pub entry: usize,
    pub analysis: ActionAnalysis,
}

impl Analysed {
    /// Stores the analysis in `record` (the record analysed, or a copy a front end keeps while
    /// the analysis runs): it replaces the action's analysis, and the statistics another
    /// program stored with the game are dropped, as they no longer describe its analysis.
    /// Returns false (and changes nothing) if the record has no such action.
    pub fn store(&self, record: &mut MatchRecord) -> bool {
        let Some(game) = record.games.get_mut(self.game) else {
            return false;
        };
        let Some(entry) = game.entries.get_mut(self.entry) else {
            return false;
        };
        entry.analysis =
            (self.analysis != ActionAnalysis::default()).then(|| Box::new(self.analysis.clone()));
        game.stored_statistics = None;
        true
    }
}

/// How far a run has come. Positions are the unit: a checker play with its cube decision and
/// luck is one, a double with its answer is one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Positions analysed.
    pub done: usize,
    /// Positions to analyse in all.
    pub total: usize,
    /// Time since the run started.
    pub elapsed: Duration,
    /// Time left at the pace so far (`None` before the first position is done).
    pub remaining: Option<Duration>,
    /// The rollout under way, when positions are rolled out: its trials done and its trial
    /// limit. Reported after its first trial, then every [`TRIAL_PROGRESS`] at most.
    pub trials: Option<(u32, u32)>,
}

/// How often a rollout in an analysis reports its trials.
pub const TRIAL_PROGRESS: Duration = Duration::from_millis(100);

impl Progress {
    /// The share done, 0 to 1 (1 when there is nothing to do).
    pub fn fraction(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.done as f64 / self.total as f64
        }
    }
}

/// Receives an analysis as it runs. Both methods are called from the worker threads: actions
/// in the order they finish (roughly record order), progress in increasing `done`.
pub trait Observer: Sync {
    /// An action's analysis is ready.
    fn analysed(&self, _result: &Analysed) {}
    /// A position is done (also called once with `done == 0` at the start).
    fn progress(&self, _progress: &Progress) {}
}

/// Observes nothing.
impl Observer for () {}

/// What a run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The analysed actions in record order.
    pub analysed: Vec<Analysed>,
    /// Positions there were to analyse.
    pub total: usize,
    /// The run was cancelled before the end: some positions were not analysed.
    pub cancelled: bool,
}

impl Outcome {
    /// Stores the analyses in `record` (the record analysed), each with [`Analysed::store`].
    pub fn apply(&self, record: &mut MatchRecord) {
        for a in &self.analysed {
            a.store(record);
        }
    }
}

/// Why a record cannot be analysed.
#[derive(Debug, Error)]
pub enum AnalyseError {
    /// The record cannot be replayed at all (a variant Cubeful does not play, impossible rules).
    #[error("the match cannot be analysed: {0}")]
    Replay(#[from] ReplayError),
    /// The worker threads could not be started.
    #[error("cannot start the analysis threads: {0}")]
    Threads(String),
    /// The settings cannot be used.
    #[error("bad analysis settings: {0}")]
    Settings(String),
}

/// Checks what cannot be analysed with.
fn check(settings: &AnalysisSettings) -> Result<(), AnalyseError> {
    for level in [&settings.checker, &settings.cube] {
        if let AnalysisLevel::Rollout(r) = level {
            if r.settings.trials == 0 {
                return Err(AnalyseError::Settings(
                    "a rollout needs at least one trial".into(),
                ));
            }
        }
    }
    Ok(())
}

/// Analyses `record` under `settings` (see the [module documentation](self)) without changing
/// it. The record is replayed leniently: a game is analysed up to its first action the rules
/// refuse.
pub fn analyse(
    record: &MatchRecord,
    settings: &AnalysisSettings,
    run: &Run,
    observer: &dyn Observer,
) -> Result<Outcome, AnalyseError> {
    check(settings)?;
    let replay = record.replay_lenient()?.replay;
    let tasks = plan::plan(record, &replay, settings);
    let (analysed, cancelled) = driver::execute(&record.info, &tasks, settings, run, observer)?;
    Ok(Outcome {
        analysed,
        total: tasks.len(),
        cancelled,
    })
}

/// [`analyse`], then stores the result in `record` ([`Outcome::apply`]).
pub fn analyse_record(
    record: &mut MatchRecord,
    settings: &AnalysisSettings,
    run: &Run,
    observer: &dyn Observer,
) -> Result<Outcome, AnalyseError> {
    let outcome = analyse(record, settings, run, observer)?;
    outcome.apply(record);
    Ok(outcome)
}

/// `x` as an SGF file holds it: GNU Backgammon writes evaluations with 6 decimals and the luck
/// with 5. The analysis stores its figures so, so that what is shown and counted before saving
/// is exactly what a saved file shows and counts (in Cubeful and in GNU Backgammon).
pub(crate) fn as_written(x: f64, decimals: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{x:.decimals$}").parse().unwrap_or(x)
}

/// Decimals of the evaluations and of the luck in an SGF file.
pub(crate) const EVAL_DECIMALS: usize = 6;
pub(crate) const LUCK_DECIMALS: usize = 5;

/// The number of positions an analysis of `record` under `settings` would analyse (0 when there
/// is nothing to do, e.g. everything is analysed and only unanalysed actions are asked for).
pub fn positions_to_analyse(
    record: &MatchRecord,
    settings: &AnalysisSettings,
) -> Result<usize, AnalyseError> {
    let replay = record.replay_lenient()?.replay;
    Ok(plan::plan(record, &replay, settings).len())
}
