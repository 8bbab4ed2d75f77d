//! The analysis of one checker play, as GNU Backgammon stores it (docs/ANALYSIS.md §Checker
//! plays): every distinct legal play ranked at the analysis level with the move filters, the
//! plays that survived the filters first (best first, scored at full depth), then the pruned ones
//! at the depth they were pruned at; the played play is always scored at full depth and placed
//! among the survivors by its score. A forced play (one legal play) is scored at 0-ply only, and a
//! roll that cannot be played has no checker-play analysis.

use crate::cube::{cubeless_equity, cubeless_mwc, CubeContext, Purpose};
use crate::game::record::analysis::{Candidate, CandidateEval, EvalSource, MoveAnalysis};
use crate::rules::dice::Dice;
use crate::rules::movegen::play_steps;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::{EvalSettings, RankedMove, Search};

use super::settings::eval_context;
use super::{as_written, EVAL_DECIMALS};

/// Analyses the play `played` of `dice` in `position` (seen from the mover, `ctx` his cube before
/// the move) at `settings`. `max_candidates` keeps only the first candidates (and the played
/// one). `None` when the roll cannot be played or `played` is not one of its legal plays.
pub fn analyse_play(
    search: &mut Search,
    position: &Position,
    dice: Dice,
    played: &Move,
    ctx: &CubeContext,
    settings: &EvalSettings,
    max_candidates: Option<usize>,
) -> Option<MoveAnalysis> {
    let after = play_steps(position, played.steps())?;
    let forced = crate::rules::movegen::legal_moves(position, dice);
    if forced.len() == 1 && forced[0].mv.is_empty() {
        return None;
    }
    let mut ranked = if forced.len() == 1 {
        // Nothing to choose: GNU Backgammon scores the only play statically.
        search.rank_moves(
            position,
            dice,
            ctx,
            &EvalSettings {
                plies: 0,
                ..*settings
            },
        )
    } else {
        search.rank_moves(position, dice, ctx, settings)
    };
    let full = ranked.first()?.plies;
    let mut index = ranked.iter().position(|r| r.mv.position == after)?;
    if ranked[index].plies < full {
        // Score the play made at full depth and put it among the plays scored there.
        let mut rescored = rescore(search, &ranked[index], ctx, settings, full);
        rescored.mv.mv = *played;
        ranked.remove(index);
        let survivors = ranked.iter().take_while(|r| r.plies == full).count();
        index = ranked[..survivors]
            .iter()
            .position(|r| r.equity < rescored.equity)
            .unwrap_or(survivors);
        ranked.insert(index, rescored);
    }
    ranked[index].mv.mv = *played;
    let mut candidates: Vec<Candidate> = Vec::with_capacity(ranked.len());
    let keep = max_candidates.unwrap_or(usize::MAX).max(1);
    for (i, r) in ranked.iter().enumerate() {
        if i < keep || i == index {
            candidates.push(candidate(r, settings));
        }
    }
    Some(MoveAnalysis {
        played: index.min(keep),
        candidates,
        rollout_marks: Vec::new(),
    })
}

/// A ranked play as a stored candidate.
fn candidate(r: &RankedMove, settings: &EvalSettings) -> Candidate {
    Candidate {
        mv: r.mv.mv,
        eval: Some(CandidateEval {
            probabilities: r
                .probabilities
                .to_array()
                .map(|x| as_written(f64::from(x), EVAL_DECIMALS)),
            equity: as_written(f64::from(r.equity), EVAL_DECIMALS),
            source: EvalSource::Eval(eval_context(settings, r.plies)),
        }),
    }
}

/// `r` scored again at `plies`: its resulting position evaluated for the opponent on roll at
/// that depth and seen from the mover — the same figures the search gives the candidates it
/// scores there.
fn rescore(
    search: &mut Search,
    r: &RankedMove,
    ctx: &CubeContext,
    settings: &EvalSettings,
    plies: u8,
) -> RankedMove {
    let deep = EvalSettings { plies, ..*settings };
    let opponent = ctx.swapped();
    let e = search.evaluate_for(
        &r.mv.position.swap(),
        &opponent,
        &deep,
        Purpose::CheckerPlay,
    );
    let probabilities = e.probabilities.invert();
    let (equity, mwc) = if settings.cubeful {
        match e.mwc {
            Some(m) => {
                let mine = 1.0 - m;
                (ctx.mwc_to_equity(mine).unwrap_or(0.0), Some(mine))
            }
            None => (-e.cubeful, None),
        }
    } else {
        (
            cubeless_equity(&probabilities, ctx),
            cubeless_mwc(&probabilities, ctx),
        )
    };
    RankedMove {
        mv: r.mv,
        probabilities,
        equity,
        mwc,
        plies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Ownership;
    use crate::eval::Nets;
    use crate::formats::notation::parse_move;
    use crate::search::Level;
    use std::sync::Arc;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    #[test]
    fn candidates_are_ranked_and_the_played_one_is_at_full_depth() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let start = Position::starting();
        let dice = Dice::new(2, 1).unwrap();
        // A poor play the 0-ply filter prunes: 6/5 6/4.
        let poor = parse_move(&start, dice, "6/5 6/4").unwrap();
        let settings = Level::WorldClass.settings();
        let a = analyse_play(&mut s, &start, dice, &poor.mv, &ctx, &settings, None).unwrap();
        let all = crate::rules::movegen::legal_moves(&start, dice).len();
        assert_eq!(a.candidates.len(), all);
        let plies = |c: &Candidate| match &c.eval.as_ref().unwrap().source {
            EvalSource::Eval(e) => e.plies,
            EvalSource::Rollout(_) => unreachable!(),
        };
        assert_eq!(plies(&a.candidates[a.played]), 2);
        assert_eq!(a.candidates[a.played].mv, poor.mv);
        // Survivors (2-ply) first and sorted; the played play among them.
        let deep: Vec<f64> = a
            .candidates
            .iter()
            .take_while(|c| plies(c) == 2)
            .map(|c| c.eval.as_ref().unwrap().equity)
            .collect();
        assert!(a.played < deep.len());
        assert!(deep.windows(2).all(|w| w[0] >= w[1]), "{deep:?}");
        assert!(a.candidates[deep.len()..].iter().all(|c| plies(c) == 0));
        assert!(deep[0] > deep[a.played] + 0.05);
        // At most the 0-ply filter's 8 survivors plus the played one.
        assert!(deep.len() <= 9);
        // The best play at the top: the 0-ply filter is deterministic, so the analysis of the
        // best play lists the same best candidate at the same equity.
        let best = a.candidates[0].mv;
        let b = analyse_play(&mut s, &start, dice, &best, &ctx, &settings, Some(3)).unwrap();
        assert_eq!(b.played, 0);
        assert_eq!(b.candidates.len(), 3);
        assert_eq!(b.candidates[0], a.candidates[0]);
        // Trimmed with the played play beyond the kept ones: it follows them.
        let c = analyse_play(&mut s, &start, dice, &poor.mv, &ctx, &settings, Some(1)).unwrap();
        assert_eq!((c.candidates.len(), c.played), (2, 1));
        assert_eq!(c.candidates[1], a.candidates[a.played]);
    }

    #[test]
    fn forced_plays_and_dances() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let settings = Level::WorldClass.settings();
        // The player on roll has one checker on the bar against a closed board: 6-5 dances.
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        me[24] = 1;
        me[5] = 14;
        for point in them.iter_mut().take(6) {
            *point = 2;
        }
        them[12] = 3;
        let closed = Position::from_sides(&me, &them).unwrap();
        let dice = Dice::new(6, 5).unwrap();
        assert!(analyse_play(&mut s, &closed, dice, &Move::NONE, &ctx, &settings, None).is_none());
        // One checker left on the ace point: any roll bears it off, the only play.
        let mut me = [0u8; 25];
        me[0] = 1;
        let mut them = [0u8; 25];
        them[0] = 5;
        let last = Position::from_sides(&me, &them).unwrap();
        let legal = crate::rules::movegen::legal_moves(&last, dice);
        assert_eq!(legal.len(), 1);
        let a = analyse_play(&mut s, &last, dice, &legal[0].mv, &ctx, &settings, None).unwrap();
        assert_eq!((a.played, a.candidates.len()), (0, 1));
        let eval = a.candidates[0].eval.as_ref().unwrap();
        assert!(matches!(&eval.source, EvalSource::Eval(e) if e.plies == 0));
        assert!((eval.equity - 1.0).abs() < 1e-6);
    }

    #[test]
    fn rescoring_matches_the_search() {
        // The figures of a candidate scored again at n-ply are those the search gives it,
        // also at 0 and 1 ply, where a checker play's cube is less lively than a cube action's
        // (docs/CUBE.md).
        let mut s = search();
        let start = Position::starting();
        let dice = Dice::new(4, 3).unwrap();
        let met = crate::cube::met::MatchEquityTable::kazaross_xg2();
        let score = crate::cube::met::MatchScore::new(5, [1, 2], false);
        for plies in 0..=2 {
            let settings = EvalSettings {
                plies,
                ..Level::WorldClass.settings()
            };
            for ctx in [
                CubeContext::money(2, Ownership::Centered),
                CubeContext::new_match(met, score, crate::Player::One, 1, Ownership::Centered),
            ] {
                let ranked = s.rank_moves(&start, dice, &ctx, &settings);
                let top = ranked[0];
                assert_eq!(top.plies, plies);
                let again = rescore(&mut s, &top, &ctx, &settings, plies);
                assert!(
                    (again.equity - top.equity).abs() < 1e-6,
                    "{plies}-ply: {} {}",
                    again.equity,
                    top.equity
                );
                assert_eq!(again.probabilities, top.probabilities);
            }
        }
    }
}
