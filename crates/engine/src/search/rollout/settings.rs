//! What a rollout does: trials, cubeful or cubeless, variance reduction, dice, truncation, the
//! checker-play and cube settings of the early and late plies, and the stop rules
//! (docs/ANALYSIS.md §Rollouts).

use serde::Serialize;

use crate::search::{EvalSettings, FilterPreset, Level};

/// How the player on roll plays and decides the cube during some plies of a trial.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PhaseSettings {
    /// Checker play (with its move filters).
    #[serde(with = "EvalSettingsDef")]
    pub checker: EvalSettings,
    /// Cube decisions (cubeful rollouts).
    #[serde(with = "EvalSettingsDef")]
    pub cube: EvalSettings,
}

impl PhaseSettings {
    /// Both at `settings`.
    pub fn both(settings: EvalSettings) -> PhaseSettings {
        PhaseSettings {
            checker: settings,
            cube: settings,
        }
    }
}

/// Other settings from some ply on (GNU Backgammon's "late evaluations").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LateSettings {
    /// The first ply (0 = the first roll of the trial) that uses [`LateSettings::phase`].
    pub from_ply: u32,
    pub phase: PhaseSettings,
}

/// When an alternative (or the whole rollout) stops before the trial limit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum StopRule {
    /// Only at the trial limit.
    TrialLimit,
    /// An alternative stops once it has `min_trials` trials and the standard errors of its
    /// cubeless and (cubeful rollouts) cubeful equities, in normalised equity, are at most
    /// `limit`. The two sides of a cube decision stop together.
    StandardError { limit: f64, min_trials: u32 },
    /// GNU Backgammon's joint standard deviations: a candidate play whose equity is more than
    /// `limit` joint standard errors below the best one's is paused once it has `min_trials`
    /// trials (and resumed if it comes back within the limit); the rollout ends when fewer than
    /// two candidates are left. A cube decision stops when no double vs. the better of
    /// double/take and double/pass, and double/take vs. double/pass, are both beyond the limit.
    Jsd { limit: f64, min_trials: u32 },
}

/// The settings of a rollout. [`RolloutSettings::default`] is GNU Backgammon's default rollout
/// except that cube decisions and the truncation evaluation are at 0-ply (GNU Backgammon: 2-ply).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RolloutSettings {
    /// Trials (games) per alternative.
    pub trials: u32,
    /// Cube decisions during the trials and cubeful values; a cubeless rollout never turns the
    /// cube. The `cubeful` flags of every [`EvalSettings`] below are replaced by this one. Cube
    /// decision rollouts are always cubeful.
    pub cubeful: bool,
    /// Lookahead variance reduction: before each roll, the luck of the roll as the evaluator sees
    /// it is subtracted.
    pub variance_reduction: bool,
    /// GNU Backgammon's quasi-random (stratified) dice for the first plies.
    pub quasi_random: bool,
    /// The dice seed: the same seed gives the same results, whatever the number of threads.
    pub seed: u64,
    /// Stop each trial after this many plies (half-moves) and evaluate the position with
    /// [`RolloutSettings::truncation_eval`]; `None` plays every game to the end.
    pub truncation: Option<u32>,
    /// The evaluation at the truncation point.
    #[serde(with = "EvalSettingsDef")]
    pub truncation_eval: EvalSettings,
    /// Stop a trial on entering the two-sided bearoff database: cubeless rollouts, and cubeful
    /// money rollouts where a cube decision could be made (the exact cubeful equity is used).
    pub truncate_bearoff_two_sided: bool,
    /// Cubeless rollouts: stop a trial on entering the one-sided bearoff database.
    pub truncate_bearoff_one_sided: bool,
    /// Checker play and cube decisions of the first plies (all plies without `late`).
    pub early: PhaseSettings,
    /// Other settings from some ply on.
    pub late: Option<LateSettings>,
    pub stop: StopRule,
    /// Threads playing trials; 0 = as many as the machine has cores.
    pub threads: usize,
}

impl Default for RolloutSettings {
    /// GNU Backgammon's default rollout: 1296 trials, cubeful, variance reduction, quasi-random
    /// dice, checker play and cube at 0-ply with the pruning nets choosing which plays the full
    /// nets judge (its "0-ply cubeful prune \[expert\]"), truncation at the bearoff databases.
    fn default() -> RolloutSettings {
        let expert = EvalSettings {
            prune: true,
            ..Level::Expert.settings()
        };
        RolloutSettings {
            trials: 1296,
            cubeful: true,
            variance_reduction: true,
            quasi_random: true,
            seed: 0,
            truncation: None,
            truncation_eval: expert,
            truncate_bearoff_two_sided: true,
            truncate_bearoff_one_sided: true,
            early: PhaseSettings::both(expert),
            late: None,
            stop: StopRule::TrialLimit,
            threads: 0,
        }
    }
}

impl RolloutSettings {
    /// The settings used at ply `ply` of a trial.
    pub fn phase(&self, ply: usize) -> &PhaseSettings {
        match &self.late {
            Some(late) if ply >= late.from_ply as usize => &late.phase,
            _ => &self.early,
        }
    }

    /// The number of threads to use.
    pub fn thread_count(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }

    /// A copy with every evaluation's cubefulness set to the rollout's.
    pub(super) fn normalised(&self) -> RolloutSettings {
        let mut s = self.clone();
        let cubeful = s.cubeful;
        let fix = |e: &mut EvalSettings| e.cubeful = cubeful;
        fix(&mut s.truncation_eval);
        fix(&mut s.early.checker);
        fix(&mut s.early.cube);
        if let Some(late) = &mut s.late {
            fix(&mut late.phase.checker);
            fix(&mut late.phase.cube);
        }
        if s.truncation == Some(0) {
            s.truncation = None;
        }
        s
    }
}

/// The serde shape of [`EvalSettings`].
#[derive(Serialize)]
#[serde(remote = "EvalSettings")]
struct EvalSettingsDef {
    plies: u8,
    cubeful: bool,
    noise: f32,
    deterministic: bool,
    #[serde(with = "FilterPresetDef")]
    filter: FilterPreset,
    reduced: bool,
    prune: bool,
}

/// The serde shape of [`FilterPreset`].
#[derive(Serialize)]
#[serde(remote = "FilterPreset")]
enum FilterPresetDef {
    Normal,
    Large,
}
