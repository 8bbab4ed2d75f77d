//! A rollout result in the shapes a match record stores (`game::record::analysis`), so that an
//! analysis can keep rollouts and the SGF writer writes them as GNU Backgammon's `X ver 3`
//! values:
//!
//! * a candidate play: [`candidate_eval`] — the five chances, the ranking equity, and a
//!   [`RolloutStats`] with the trials, the seven standard errors, the cubeless equity, the
//!   cubeful value (equity, or match winning chance in match play) and the secondary score
//!   (cubeless);
//! * a cube decision: [`cube_analysis`] — the seven outputs after no double and after
//!   double/take (cubeful value in units of the cube before the double, or the match winning
//!   chance), with one [`RolloutStats`] per side.
//!
//! The settings text of every [`RolloutStats`] is [`super::format::settings_text`].

use crate::game::record::analysis::{CandidateEval, CubeAnalysis, EvalSource, RolloutStats};

use super::format::settings_text;
use super::result::{AlternativeResult, RolloutResult, SubjectKind};

/// The figures of one alternative beside its means.
fn stats(result: &RolloutResult, a: &AlternativeResult, move_means: [f64; 3]) -> RolloutStats {
    RolloutStats {
        trials: a.trials,
        std_dev: a.std_error,
        move_means,
        settings: settings_text(&result.settings),
    }
}

/// Candidate play `index` of a move rollout as a record's candidate evaluation (`None` for
/// other rollouts or a bad index).
pub fn candidate_eval(result: &RolloutResult, index: usize) -> Option<CandidateEval> {
    if result.kind != SubjectKind::Moves {
        return None;
    }
    let a = result.alternatives.get(index)?;
    let m = &a.mean;
    Some(CandidateEval {
        probabilities: [m[0], m[1], m[2], m[3], m[4]],
        equity: a.equity,
        source: EvalSource::Rollout(stats(result, a, [m[5], m[6], a.cubeless])),
    })
}

/// A cube rollout as a record's cube analysis (`None` for other rollouts).
pub fn cube_analysis(result: &RolloutResult) -> Option<CubeAnalysis> {
    if result.kind != SubjectKind::Cube {
        return None;
    }
    let (nd, dt) = (&result.alternatives[0], &result.alternatives[1]);
    Some(CubeAnalysis {
        no_double: nd.mean,
        double_take: dt.mean,
        source: EvalSource::Rollout(stats(result, nd, [0.0; 3])),
        double_take_rollout: Some(stats(result, dt, [0.0; 3])),
    })
}
