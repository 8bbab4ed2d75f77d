//! The analysis stored with an action of a match record: what GNU Backgammon's SGF analysis
//! properties hold (`A`, `DA`, `LU`, the skill and luck marks), so that analysis read from a file
//! is shown and written back unchanged, and Cubeful's own analysis is written the same way.
//!
//! Chances are always the five cumulative outputs of the player who acts, in the order win, win
//! gammon, win backgammon, lose gammon, lose backgammon. Equities are normalised money equities
//! (in match play GNU Backgammon's normalised equity converted from the match winning chance).

use crate::rules::moves::Move;

/// How an evaluation was made (GNU Backgammon's evaluation context).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalContext {
    /// Lookahead in plies (0 = the nets alone).
    pub plies: u8,
    pub cubeful: bool,
    /// The noise, if any, is the same for the same position.
    pub deterministic: bool,
    /// Standard deviation of the noise added to every equity.
    pub noise: f64,
    /// Pruning nets were used inside the search.
    pub prune: bool,
}

/// A rollout's figures beyond the means.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutStats {
    /// Games rolled out.
    pub trials: u32,
    /// Standard errors of the seven outputs (five chances, cubeless equity, cubeful equity).
    pub std_dev: [f64; 7],
    /// A checker play's rollout only: the means kept beside the candidate's five chances and
    /// ranking equity — the cubeless equity, the cubeful value (equity, or match winning chance
    /// in match play) and the secondary score (cubeless, normalised) — so that they are shown
    /// and written back unchanged. All zero for a cube decision, whose means are in
    /// [`CubeAnalysis`].
    pub move_means: [f64; 3],
    /// The rollout settings as written by the program that ran it (GNU Backgammon's `SK … RC …`
    /// text), kept verbatim.
    pub settings: String,
}

/// How a figure was obtained: an n-ply evaluation or a rollout.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalSource {
    Eval(EvalContext),
    Rollout(RolloutStats),
}

/// One candidate play of a checker-play decision, with its evaluation if it was evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub eval: Option<CandidateEval>,
}

/// The evaluation of a candidate play.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateEval {
    /// Chances of the mover after the play.
    pub probabilities: [f64; 5],
    /// The equity the candidates are ranked by (cubeful when the evaluation was).
    pub equity: f64,
    pub source: EvalSource,
}

/// The analysis of a checker play: the candidates, best first, and which one was played.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// Index into `candidates` of the play made.
    pub played: usize,
    pub candidates: Vec<Candidate>,
    /// 1-based indices of candidates marked for a rollout (SGF `MR`).
    pub rollout_marks: Vec<usize>,
}

/// The analysis of a cube decision: the value of not doubling and of double/take for the player
/// who may double (double/pass is the cube value, or its match winning chance, and is not stored).
#[derive(Clone, Debug, PartialEq)]
pub struct CubeAnalysis {
    /// Five chances, cubeless equity and cubeful value (equity in money play, match winning
    /// chance in match play) after no double.
    pub no_double: [f64; 7],
    /// The same after double/take.
    pub double_take: [f64; 7],
    pub source: EvalSource,
    /// The rollout of the double/take side when the decision was rolled out; `source` then holds
    /// the no-double side's.
    pub double_take_rollout: Option<RolloutStats>,
}

/// How bad a decision was (GNU Backgammon's marks; thresholds in `analysis`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skill {
    #[default]
    None,
    Doubtful,
    Bad,
    VeryBad,
}

/// How lucky a roll was for the player who rolled it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Luck {
    VeryUnlucky,
    Unlucky,
    #[default]
    None,
    Lucky,
    VeryLucky,
}

/// Everything analysis says about one action. Which parts are present depends on the action: a
/// checker play has the cube decision before it, the play's analysis and the roll's luck; a cube
/// action its cube decision; a roll without a move its luck.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActionAnalysis {
    /// The cube decision: before a checker play, whether the mover should have doubled; on a
    /// double, take, drop or beaver, the decision the action answers.
    pub cube: Option<CubeAnalysis>,
    /// The cube decision is marked for a rollout (SGF `CR`).
    pub cube_rollout_mark: bool,
    pub moves: Option<MoveAnalysis>,
    /// The luck of the roll for the player who rolled, in normalised equity (may be −∞ as GNU
    /// Backgammon sometimes writes it).
    pub luck: Option<f64>,
    pub luck_mark: Luck,
    /// The mark of the action itself: the checker play, or the cube action.
    pub skill: Skill,
    /// The mark of the cube decision before a checker play (SGF `BC`/`DC`).
    pub cube_skill: Skill,
}
