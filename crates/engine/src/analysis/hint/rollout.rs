//! The hint by rollout: the decision of a [`Query`] rolled out with the engine's rollouts
//! ([`crate::search::rollout`]) instead of evaluated at some ply, answered with an ordinary
//! [`Hint`] whose figures are the rollout's, so front ends show it as any other hint:
//!
//! * a play ([`Question::Move`]): the best `candidates` plays of a 0-ply hint are rolled out and
//!   ranked by their rollout equities; the other plays follow with their 0-ply figures;
//! * a cube decision ([`Question::Cube`]): no double and double/take rolled out (double/pass is
//!   +1), the proper action from the rolled-out equities;
//! * an answer to a double ([`Question::AnswerDouble`]): the doubler's cube decision rolled
//!   out, the answer from its double/take equity.
//!
//! The rollout uses the nets and the bearoff databases of the [`Search`] (exact values inside
//! the databases, and the truncation points there). Answers to resignations, beaver chains and
//! cube decisions where the player on roll may not double are not rolled out
//! ([`RolloutHintError::NotAvailable`]).

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use thiserror::Error;

use super::{finish_take, is_double, CubeHint, Hint, MoveHint, Query, Question};
use crate::analysis::analyse::AnalysisLevel;
use crate::cube::response;
use crate::eval::Probabilities;
use crate::search::rollout::{AlternativeResult, Rollout, RolloutResult, RolloutSettings, Subject};
use crate::search::Search;

/// A hint whose figures come from a rollout. It serialises as its [`Hint`] with `rolled` and
/// `trials` beside the hint's keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RolloutHint {
    #[serde(flatten)]
    pub hint: Hint,
    /// How many plays of the list were rolled out (the first ones; 0 for a cube decision).
    pub rolled: usize,
    /// The trials played (the most of any alternative: a stop rule may pause some).
    pub trials: u32,
}

/// Why a hint rollout gives no hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum RolloutHintError {
    /// This decision is not rolled out (a resignation, a beaver chain, no double possible, a
    /// finished game).
    #[error("this decision cannot be rolled out")]
    NotAvailable,
    /// The rollout was stopped before its end.
    #[error("the rollout was stopped")]
    Stopped,
}

/// Rolls out the decision of `query` with `settings` (a play: its best `candidates` plays, at
/// least one), with the nets and bearoff databases of `search`. `progress` is told the trials
/// done and the trial limit after every trial and returns false to stop the rollout.
pub fn rollout_hint(
    search: &mut Search,
    query: &Query,
    settings: &RolloutSettings,
    candidates: usize,
    progress: &mut dyn FnMut(u32, u32) -> bool,
) -> Result<RolloutHint, RolloutHintError> {
    if query.position.result().is_some() {
        return Err(RolloutHintError::NotAvailable);
    }
    let nets = search.evaluator().nets().clone();
    let bearoff = search.bearoff().cloned();
    let ctx = query.cube_context();
    let subject = match query.question {
        Question::Move(_) => None,
        Question::Cube | Question::AnswerDouble { .. } => {
            if !ctx.can_double() {
                return Err(RolloutHintError::NotAvailable);
            }
            Some(Subject::Cube)
        }
        Question::AnswerResignation(_) => return Err(RolloutHintError::NotAvailable),
    };
    let stop = AtomicBool::new(false);
    let mut run = |rollout: &mut Rollout| -> Result<RolloutResult, RolloutHintError> {
        let result = rollout.run(&stop, &mut |p| {
            if !progress(p.trials, p.target) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        if result.cancelled || stop.load(Ordering::Relaxed) {
            Err(RolloutHintError::Stopped)
        } else {
            Ok(result)
        }
    };
    let Some(subject) = subject else {
        // A play: the candidates are the best plays of a 0-ply hint.
        let preselect = *AnalysisLevel::plies(0).eval_settings();
        let Hint::Moves(base) = super::hint(search, query, &preselect) else {
            return Err(RolloutHintError::NotAvailable);
        };
        let k = base.moves.len().min(candidates.max(1));
        let legal = base.moves[..k].iter().map(|m| m.mv).collect();
        let mut rollout = Rollout::new(
            nets,
            bearoff,
            &query.position,
            &ctx,
            Subject::Moves(legal),
            settings,
        )
        .map_err(|_| RolloutHintError::NotAvailable)?;
        let result = run(&mut rollout)?;
        let mut rolled: Vec<_> = base.moves[..k]
            .iter()
            .zip(&result.alternatives)
            .map(|(m, a)| {
                let mut m = m.clone();
                m.equity = a.equity as f32;
                m.mwc = a.mwc.map(|x| x as f32);
                m.probabilities = chances(a);
                m.plies = 0;
                m
            })
            .collect();
        rolled.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        let best = rolled.first().map_or(0.0, |m| m.equity);
        let moves = rolled
            .into_iter()
            .chain(base.moves[k..].iter().cloned())
            .map(|mut m| {
                m.difference = m.equity - best;
                m
            })
            .collect();
        return Ok(RolloutHint {
            hint: Hint::Moves(MoveHint {
                dice: base.dice,
                moves,
            }),
            rolled: k,
            trials: trials(&result),
        });
    };
    let mut rollout = Rollout::new(nets, bearoff, &query.position, &ctx, subject, settings)
        .map_err(|_| RolloutHintError::NotAvailable)?;
    let result = run(&mut rollout)?;
    let decision = result.cube.ok_or(RolloutHintError::NotAvailable)?;
    let probabilities = chances(&result.alternatives[0]);
    let hint = match query.question {
        Question::AnswerDouble { may_beaver } => Hint::Take(finish_take(
            query,
            may_beaver,
            decision,
            -decision.double_take,
            response(decision.double_take, &ctx),
            probabilities,
            0,
        )),
        _ => Hint::Cube(CubeHint {
            decision,
            double: is_double(&ctx, decision.action),
            probabilities,
            plies: 0,
        }),
    };
    Ok(RolloutHint {
        hint,
        rolled: 0,
        trials: trials(&result),
    })
}

/// The cubeless chances of an alternative rolled out.
fn chances(a: &AlternativeResult) -> Probabilities {
    Probabilities {
        win: a.mean[0] as f32,
        win_gammon: a.mean[1] as f32,
        win_backgammon: a.mean[2] as f32,
        lose_gammon: a.mean[3] as f32,
        lose_backgammon: a.mean[4] as f32,
    }
}

/// The trials played (the most of any alternative: a stop rule may pause some).
fn trials(result: &RolloutResult) -> u32 {
    result
        .alternatives
        .iter()
        .map(|a| a.trials)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cube::{CubeAction, Response};
    use crate::eval::bearoff::{BearoffDb, TwoSided};
    use crate::eval::Nets;
    use crate::game::match_state::{MatchState, Player, Resignation};
    use crate::rules::dice::Dice;
    use crate::rules::position::Position;
    use crate::search::Level;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    /// A few trials on two threads.
    fn small(trials: u32) -> RolloutSettings {
        RolloutSettings {
            trials,
            threads: 2,
            ..RolloutSettings::default()
        }
    }

    /// Money play, cube centred, the player on roll before rolling.
    fn money(position: Position, question: Question) -> Query {
        let state = MatchState {
            on_roll: Player::One,
            turn: Player::One,
            ..MatchState::money()
        };
        Query {
            position,
            state,
            beavers: true,
            question,
        }
    }

    fn sides(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        Position::from_points(player, opponent).unwrap()
    }

    fn go(search: &mut Search, query: &Query, trials: u32) -> RolloutHint {
        let mut last = (0, 0);
        let r = rollout_hint(search, query, &small(trials), 10, &mut |d, t| {
            last = (d, t);
            true
        })
        .unwrap_or_else(|e| panic!("rolled out expected: {e}"));
        assert_eq!(last, (trials, trials), "progress to the end");
        assert_eq!(r.trials, trials);
        r
    }

    #[test]
    fn a_play_by_rollout_ranks_the_blunder_last() {
        // 6-1 with checkers on the 6- and 1-points: 6/off 1/off wins now, 6/5/off leaves a
        // checker behind and the opponent (two checkers on his ace point) wins next roll.
        let dice = Dice::new(6, 1).unwrap();
        let q = money(sides(&[(6, 1), (1, 1)], &[(1, 2)]), Question::Move(dice));
        let mut s = search();
        let r = go(&mut s, &q, 36);
        let Hint::Moves(h) = &r.hint else {
            panic!("a play list expected, got {:?}", r.hint);
        };
        assert_eq!(r.rolled, 2);
        assert_eq!(h.moves.len(), 2);
        assert_eq!(h.dice, dice);
        assert!(h.moves[0].mv.position.result().is_some(), "{:?}", h.moves);
        assert!((h.moves[0].equity - 1.0).abs() < 1e-4, "{:?}", h.moves[0]);
        assert!((h.moves[1].equity + 1.0).abs() < 1e-4, "{:?}", h.moves[1]);
        assert!((h.moves[1].difference + 2.0).abs() < 1e-4);
        assert_eq!(h.moves[0].difference, 0.0);
        // From the opening, the rolled-out plays come first, best first; every play is listed.
        let q = money(
            Position::starting(),
            Question::Move(Dice::new(6, 4).unwrap()),
        );
        let r = rollout_hint(&mut s, &q, &small(36), 3, &mut |_, _| true).unwrap();
        let Hint::Moves(h) = &r.hint else {
            panic!("a play list expected");
        };
        let Hint::Moves(full) = super::super::hint(&mut s, &q, &Level::Beginner.settings()) else {
            panic!("a play list expected");
        };
        assert_eq!(r.rolled, 3);
        assert_eq!(h.moves.len(), full.moves.len());
        assert!(h.moves[..3].windows(2).all(|w| w[0].equity >= w[1].equity));
        assert!(h.moves[..3]
            .iter()
            .all(|m| m.plies == 0 && m.difference <= 0.0));
    }

    #[test]
    fn a_cube_by_rollout_agrees_with_the_search_in_clear_cases() {
        let mut s = search();
        let expert = Level::Expert.settings();
        // The opening: no double. A race 99 pips to 109, on roll: double, take (a rollout of
        // 1296 trials: double/take +0.898, no double +0.827; at 99 to 105 the two are within
        // 0.002 and the levels may differ).
        for (position, double) in [
            (Position::starting(), false),
            (
                sides(
                    &[(8, 4), (7, 4), (6, 4), (5, 3)],
                    &[(9, 3), (8, 3), (7, 4), (6, 5)],
                ),
                true,
            ),
        ] {
            let q = money(position, Question::Cube);
            let Hint::Cube(n) = super::super::hint(&mut s, &q, &expert) else {
                panic!("a cube hint expected");
            };
            let r = go(&mut s, &q, 144);
            let Hint::Cube(c) = &r.hint else {
                panic!("a cube hint expected, got {:?}", r.hint);
            };
            assert_eq!(r.rolled, 0);
            assert_eq!((c.double, n.double), (double, double), "{c:?} / {n:?}");
            assert_eq!(c.decision.action, n.decision.action, "{c:?} / {n:?}");
            if double {
                assert_eq!(c.decision.action, CubeAction::DoubleTake);
            }
            assert_eq!(c.plies, 0);
            // The answer to that double: take.
            let mut q = q.with_question(Question::AnswerDouble { may_beaver: true });
            q.state.doubled = true;
            q.state.turn = Player::Zero;
            if double {
                let r = go(&mut s, &q, 144);
                let Hint::Take(t) = &r.hint else {
                    panic!("a take hint expected, got {:?}", r.hint);
                };
                assert_eq!(t.response, Response::Take, "{t:?}");
                assert_eq!(t.take, -t.decision.double_take);
                assert!(!t.on_roll_answers);
            }
        }
    }

    #[test]
    fn resignations_and_cubes_nobody_may_double_are_not_rolled_out() {
        let mut s = search();
        let q = money(
            Position::starting(),
            Question::AnswerResignation(Resignation::Single),
        );
        let mut asked = false;
        let r = rollout_hint(&mut s, &q, &small(36), 3, &mut |_, _| {
            asked = true;
            true
        });
        assert_eq!(r, Err(RolloutHintError::NotAvailable));
        assert!(!asked);
        // The opponent owns the cube.
        let mut q = money(Position::starting(), Question::Cube);
        q.state.cube_owner = crate::game::match_state::CubeOwner::Owned(Player::Zero);
        q.state.cube_log2 = 1;
        let r = rollout_hint(&mut s, &q, &small(36), 3, &mut |_, _| true);
        assert_eq!(r, Err(RolloutHintError::NotAvailable));
    }

    #[test]
    fn a_rollout_stops_when_asked() {
        let mut s = search();
        for question in [Question::Cube, Question::Move(Dice::new(3, 1).unwrap())] {
            let q = money(Position::starting(), question);
            let mut last = 0;
            let r = rollout_hint(&mut s, &q, &small(1296), 3, &mut |d, _| {
                last = d;
                d < 3
            });
            assert_eq!(r, Err(RolloutHintError::Stopped), "{question:?}");
            assert!(last < 100, "stopped soon after asked: {last}");
        }
    }

    #[test]
    fn a_bearoff_rollout_uses_the_search_databases() {
        // A three-checker two-sided database is enough here.
        let two = TwoSided::generate(3, &mut |_, _| {}).unwrap();
        let db = Arc::new(BearoffDb::new(None, Some(two)));
        let mut s = search();
        s.set_bearoff(Some(db.clone()));
        assert!(s.bearoff().is_some());
        let dice = Dice::new(2, 1).unwrap();
        let q = money(
            sides(&[(6, 1), (5, 1), (4, 1)], &[(6, 2), (5, 1)]),
            Question::Move(dice),
        );
        let r = go(&mut s, &q, 36);
        let Hint::Moves(h) = &r.hint else {
            panic!("a play list expected");
        };
        assert!(r.rolled >= 2, "{h:?}");
        // Each play rolled out is worth what the database gives the opponent, to the sign.
        for m in &h.moves[..r.rolled] {
            let exact = db.two_sided_values(&m.mv.position.swap()).unwrap();
            assert!(
                (m.equity + exact.centred).abs() < 1e-3,
                "{}: {} against {}",
                m.text,
                m.equity,
                -exact.centred
            );
        }
        // Without them the rollout plays on inside the bearoff and its figures are the nets'.
        let r = go(&mut search(), &q, 36);
        let Hint::Moves(without) = &r.hint else {
            panic!("a play list expected");
        };
        assert!(
            without.moves[..r.rolled].iter().any(|m| {
                let exact = db.two_sided_values(&m.mv.position.swap()).unwrap();
                (m.equity + exact.centred).abs() > 0.01
            }),
            "{without:?}"
        );
    }
}
