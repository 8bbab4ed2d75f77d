//! What a rollout reports: per alternative its trials, the means and standard errors of the
//! seven outputs, the normalised equities they rank by, and whether it is still running.

use std::time::Duration;

use serde::{Serialize, Serializer};

use crate::cube::met::MwcScale;
use crate::cube::CubeDecision;

use super::settings::RolloutSettings;
use super::stats::{RunningStats, OUTPUTS};

/// What was rolled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SubjectKind {
    /// A position before the roll (one alternative).
    Position,
    /// Candidate plays of a roll (one alternative each, in the order given).
    Moves,
    /// A cube decision: no double (alternative 0) and double/take (alternative 1).
    Cube,
}

/// Why an alternative stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// It reached the trial limit.
    TrialLimit,
    /// Its standard errors reached the limit.
    StandardError,
    /// The JSD rule ended it (the candidates left were clearly apart).
    Jsd,
}

/// Where an alternative stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AlternativeStatus {
    /// Trials are (or would be) played for it.
    Running,
    /// Paused by the JSD rule: clearly worse than the best candidate for now.
    Paused,
    /// Finished.
    Done(StopReason),
}

/// The rollout of one alternative so far.
///
/// `mean` and `std_error` are GNU Backgammon's seven outputs, from the side of the player whose
/// decision is rolled out: P(win), P(win gammon), P(win backgammon), P(lose gammon), P(lose
/// backgammon) (gammons include backgammons; means clamped to [0, 1]), the cubeless equity at
/// the alternative's own cube (money: per unit of that cube; match play: normalised equity
/// with the score's gammon prices), and the cubeful value (money: points per unit of the
/// *basis* cube — the cube of the decision, so that no double and double/take compare; match
/// play: the match winning chance). In a cubeless rollout the cube never moves and output 6 is
/// the cubeless value (money: output 5; match play: the cubeless match winning chance).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlternativeResult {
    pub trials: u32,
    pub mean: [f64; OUTPUTS],
    pub std_error: [f64; OUTPUTS],
    /// The equity alternatives rank by: cubeful (cubeless in a cubeless rollout), normalised to
    /// the basis cube (money) or as normalised equity, EMG (match play).
    pub equity: f64,
    pub equity_std_error: f64,
    /// The cubeless equity in the units of [`AlternativeResult::equity`] (money: double/take's
    /// is scaled to the basis cube).
    pub cubeless: f64,
    pub cubeless_std_error: f64,
    /// Match play: the cubeful match winning chance (the cubeless one in a cubeless rollout).
    pub mwc: Option<f64>,
    pub mwc_std_error: Option<f64>,
    pub status: AlternativeStatus,
    /// Candidate plays: joint standard deviations below the best candidate (`None` for the best
    /// and for other kinds of rollout).
    pub jsd: Option<f64>,
}

/// How an alternative's outputs convert to normalised equities.
#[derive(Clone, Copy, Debug)]
pub(super) struct Units {
    /// Match play: MWC ↔ EMG of the decision maker at the basis cube.
    pub scale: Option<MwcScale>,
    /// Output 5 times this is the cubeless equity at the basis cube.
    pub cubeless_factor: f64,
    pub cubeful: bool,
}

impl AlternativeResult {
    pub(super) fn new(
        stats: &RunningStats,
        units: &Units,
        status: AlternativeStatus,
        jsd: Option<f64>,
    ) -> AlternativeResult {
        let mut mean = stats.mean();
        for p in &mut mean[..5] {
            *p = p.clamp(0.0, 1.0);
        }
        let se = stats.std_error();
        let cubeless = mean[5] * units.cubeless_factor;
        let cubeless_se = se[5] * units.cubeless_factor;
        let (cubeful, cubeful_se) = match units.scale {
            None => (mean[6], se[6]),
            Some(scale) => (scale.emg(mean[6]), scale.emg_difference(se[6])),
        };
        let (equity, equity_std_error) = if units.cubeful {
            (cubeful, cubeful_se)
        } else {
            (cubeless, cubeless_se)
        };
        AlternativeResult {
            trials: stats.count(),
            mean,
            std_error: se,
            equity,
            equity_std_error,
            cubeless,
            cubeless_std_error: cubeless_se,
            mwc: units.scale.map(|_| mean[6]),
            mwc_std_error: units.scale.map(|_| se[6]),
            status,
            jsd,
        }
    }
}

/// The result of a rollout (final, or partial after a cancel).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RolloutResult {
    pub kind: SubjectKind,
    /// One per alternative, in the order of the subject (cube: no double, double/take).
    pub alternatives: Vec<AlternativeResult>,
    /// The settings used (every evaluation's cubefulness set to the rollout's).
    pub settings: RolloutSettings,
    /// Cube rollouts: the decision from the rolled-out no double and double/take equities
    /// (double/pass +1), normalised for the player who may double.
    #[serde(skip)]
    pub cube: Option<CubeDecision>,
    /// The rollout was cancelled before it finished; the figures are those of the trials
    /// completed (in trial order).
    pub cancelled: bool,
    /// Time spent rolling out, over every run.
    #[serde(serialize_with = "seconds")]
    pub elapsed: Duration,
}

impl RolloutResult {
    /// Alternatives by decreasing equity (stable), as indices.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.alternatives.len()).collect();
        order.sort_by(|&a, &b| {
            self.alternatives[b]
                .equity
                .total_cmp(&self.alternatives[a].equity)
        });
        order
    }
}

/// Progress of a running rollout, given to the progress callback after every trial added.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'r> {
    /// Trials done by every alternative still running (the slowest one's count).
    pub trials: u32,
    /// The trial limit.
    pub target: u32,
    /// Every alternative as it stands.
    pub alternatives: &'r [AlternativeResult],
    pub elapsed: Duration,
    /// Estimated time left to the trial limit (`None` before the first trial of this run).
    pub remaining: Option<Duration>,
}

fn seconds<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}
