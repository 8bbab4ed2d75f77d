//! Analysis by rollouts ([`AnalysisLevel::Rollout`](super::AnalysisLevel::Rollout)), with the
//! engine's rollouts ([`crate::search::rollout`]): the best plays of an n-ply ranking and the play
//! made are rolled out and ranked by their rollout equities; a cube decision is rolled out as no
//! double against double/take. The figures are stored as GNU Backgammon stores rollouts (SGF
//! `X ver 3` values).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::cube::CubeContext;
use crate::eval::bearoff::BearoffDb;
use crate::eval::Nets;
use crate::game::record::analysis::{Candidate, CubeAnalysis, EvalSource, MoveAnalysis};
use crate::rules::movegen::{play_steps, LegalMove};
use crate::rules::position::Position;
use crate::search::rollout::{record, Rollout, Subject};

use super::settings::RolloutLevel;

/// What a rollout needs besides the position.
pub(crate) struct Roller<'a> {
    pub nets: Arc<Nets>,
    pub bearoff: Option<Arc<BearoffDb>>,
    /// Threads of each rollout (0: one per processor).
    pub threads: usize,
    pub cancel: &'a AtomicBool,
    /// Told the trials done and the trial limit as a rollout runs (after every trial).
    pub trials: &'a (dyn Fn(u32, u32) + Sync),
}

/// Rolls out the best plays of `moves` (an n-ply analysis of a play in `position`, seen from the
/// mover whose cube is `ctx`): the first `level.candidates` candidates scored at the deepest ply
/// of the list, and the play made. They are ranked first by their rollout equities, the others
/// follow as they were. `None` if the rollout could not be made or was cancelled.
pub(crate) fn roll_out_plays(
    roller: &Roller,
    position: &Position,
    ctx: &CubeContext,
    moves: &MoveAnalysis,
    level: &RolloutLevel,
) -> Option<MoveAnalysis> {
    let depth = |i: usize| match moves.candidates[i].eval.as_ref().map(|e| &e.source) {
        Some(EvalSource::Eval(c)) => Some(c.plies),
        _ => None,
    };
    let deepest = (0..moves.candidates.len()).filter_map(depth).max()?;
    let mut chosen: Vec<usize> = (0..moves.candidates.len())
        .take_while(|&i| depth(i) == Some(deepest))
        .take(level.candidates)
        .collect();
    if !chosen.contains(&moves.played) {
        chosen.push(moves.played);
    }
    let legal: Vec<LegalMove> = chosen
        .iter()
        .map(|&i| {
            let mv = moves.candidates[i].mv;
            play_steps(position, mv.steps()).map(|position| LegalMove { mv, position })
        })
        .collect::<Option<_>>()?;
    let mut settings = level.settings.clone();
    settings.threads = roller.threads;
    let mut rollout = Rollout::new(
        roller.nets.clone(),
        roller.bearoff.clone(),
        position,
        ctx,
        Subject::Moves(legal),
        &settings,
    )
    .ok()?;
    let result = rollout.run(roller.cancel, &mut |p| (roller.trials)(p.trials, p.target));
    if result.cancelled {
        return None;
    }
    let mut candidates = moves.candidates.clone();
    for (j, &i) in chosen.iter().enumerate() {
        candidates[i].eval = Some(record::candidate_eval(&result, j)?);
    }
    // The rolled-out plays first, by their rollout equities; the others after, in their order.
    let played = candidates[moves.played].clone();
    let mut rolled: Vec<Candidate> = chosen.iter().map(|&i| candidates[i].clone()).collect();
    let equity = |c: &Candidate| c.eval.as_ref().map_or(f64::NEG_INFINITY, |e| e.equity);
    rolled.sort_by(|a, b| equity(b).total_cmp(&equity(a)));
    let rest = (0..candidates.len())
        .filter(|i| !chosen.contains(i))
        .map(|i| candidates[i].clone());
    let reordered: Vec<Candidate> = rolled.into_iter().chain(rest).collect();
    Some(MoveAnalysis {
        played: reordered.iter().position(|c| *c == played)?,
        candidates: reordered,
        rollout_marks: Vec::new(),
    })
}

/// Rolls out the cube decision of the player on roll in `position` (cube `ctx`). `None` if he
/// may not double or the run was cancelled.
pub(crate) fn roll_out_cube(
    roller: &Roller,
    position: &Position,
    ctx: &CubeContext,
    level: &RolloutLevel,
) -> Option<CubeAnalysis> {
    let mut settings = level.settings.clone();
    settings.threads = roller.threads;
    let mut rollout = Rollout::new(
        roller.nets.clone(),
        roller.bearoff.clone(),
        position,
        ctx,
        Subject::Cube,
        &settings,
    )
    .ok()?;
    let result = rollout.run(roller.cancel, &mut |p| (roller.trials)(p.trials, p.target));
    if result.cancelled {
        return None;
    }
    record::cube_analysis(&result)
}
