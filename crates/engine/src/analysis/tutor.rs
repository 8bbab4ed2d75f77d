//! The tutor's judgement (GNU Backgammon's tutor mode): how bad is the action a person chose,
//! given the hint about that decision at the tutor's level? Every front end that tutors asks
//! [`judge`]; it words the [`Verdict`] and decides from its [`Skill`] whether to warn.
//!
//! The loss is measured as GNU Backgammon's analysis measures it ([`marks`]): a checker play
//! against the best ranked play, a cube action with [`CubeJudgement`] (doubling with its
//! `double_error`, rolling without doubling — a missed double — with its `no_double_error`),
//! an answer to a double against the proper answer, a resignation with
//! [`resign::resignation_cost`]. Units are normalised equity (money: per cube; match: EMG of
//! the player who decides at the cube before the decision); in match play the loss is also
//! given in match winning chance.

use crate::analysis::hint::{CubeHint, Hint, Query, Question};
use crate::analysis::marks::{self, CubeJudgement, MwcScaleF32, Thresholds};
use crate::analysis::resign;
use crate::cube::met::{MatchEquityTable, MatchScore};
use crate::cube::{CubeAction, Response};
use crate::game::match_state::Resignation;
use crate::game::record::analysis::Skill;
use crate::game::Action;
use crate::rules::movegen::play_steps;

/// The kind of decision judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// A checker play.
    Play,
    /// The cube decision before the roll: double, or roll without doubling.
    Cube,
    /// The answer to a double: take, drop or beaver.
    AnswerDouble,
    /// An offer to resign, instead of playing on.
    Resignation,
}

/// One action of a decision, as the tutor names it (front ends word it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// A checker play, in GNU Backgammon's notation (`8/5 6/5`).
    Play(String),
    /// Roll without doubling.
    NoDouble,
    Double,
    Take,
    Drop,
    Beaver,
    /// Offer to resign this much.
    Resign(Resignation),
    /// Play on instead of resigning.
    PlayOn,
}

/// What the chosen action loses against the better one (both ≥ 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// Normalised equity (money: per cube; match: EMG).
    pub equity: f32,
    /// Match play: the match winning chance lost (0 to 1).
    pub mwc: Option<f32>,
}

/// The tutor's judgement of an action.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub kind: DecisionKind,
    /// GNU Backgammon's mark of the loss ([`Skill::None`]: no mistake worth a mark).
    pub skill: Skill,
    pub loss: Loss,
    /// The action chosen.
    pub chosen: Choice,
    /// The best action by the hint (the chosen one when it loses nothing).
    pub better: Choice,
}

/// Judges `action`, the answer of the player who decides in `query`, from the engine's `hint`
/// about that decision (for a resignation: the opponent's hint about the offer,
/// [`resign::offered`]; `query` stays the resigner's). A roll without doubling
/// ([`Action::Roll`]) is judged against the cube hint of [`Question::Cube`]: a missed double.
/// `None` when the hint does not answer the action's question (or the play is not among its
/// ranked plays): there is nothing to judge.
pub fn judge(query: &Query, action: &Action, hint: &Hint) -> Option<Verdict> {
    let player = query.player();
    // A loss in normalised equity as a loss in MWC, at the cube before the decision.
    let mwc_of = |loss: f32| {
        MatchScore::from_state(&query.state).map(|score| {
            let scale = MwcScaleF32::new(
                MatchEquityTable::kazaross_xg2(),
                &score,
                player,
                query.state.cube_value(),
            );
            scale.mwc_change(loss)
        })
    };
    // (kind, error ≤ 0, MWC lost, chosen, better)
    let (kind, error, mwc, chosen, better) = match (action, hint, query.question) {
        (Action::Move(mv), Hint::Moves(h), Question::Move(_)) => {
            let after = play_steps(&query.position, mv.steps())?;
            let best = h.moves.first()?;
            let played = h.moves.iter().find(|r| r.mv.position == after)?;
            let error = (played.equity - best.equity).min(0.0);
            let mwc = match (best.mwc, played.mwc) {
                (Some(b), Some(p)) => Some((b - p).max(0.0)),
                _ => None,
            };
            (
                DecisionKind::Play,
                error,
                mwc,
                Choice::Play(played.text.clone()),
                Choice::Play(best.text.clone()),
            )
        }
        (Action::Double | Action::Roll, Hint::Cube(h), Question::Cube) => {
            let judgement = cube_judgement(query, h);
            let (error, chosen) = if *action == Action::Double {
                (judgement.double_error(), Choice::Double)
            } else {
                (judgement.no_double_error(), Choice::NoDouble)
            };
            let error = (error as f32).min(0.0);
            let better = if h.double {
                Choice::Double
            } else {
                Choice::NoDouble
            };
            (DecisionKind::Cube, error, mwc_of(-error), chosen, better)
        }
        (
            Action::Take | Action::Drop | Action::Beaver,
            Hint::Take(h),
            Question::AnswerDouble { .. },
        ) => {
            let response = match action {
                Action::Take => Response::Take,
                Action::Drop => Response::Pass,
                _ => Response::Beaver,
            };
            let ranked = h.ranked();
            let value = |r: Response| ranked.iter().find(|(x, _)| *x == r).map(|(_, v)| *v);
            let error = (value(response)? - value(h.response)?).min(0.0);
            (
                DecisionKind::AnswerDouble,
                error,
                mwc_of(-error),
                answer_choice(response),
                answer_choice(h.response),
            )
        }
        (Action::Resign(offer), Hint::Resignation(h), Question::Move(_) | Question::Cube) => {
            if h.offer != *offer {
                return None;
            }
            let cost = resign::resignation_cost(query, h).max(0.0);
            // The opponent's gain in MWC by accepting is the resigner's loss.
            let mwc = h.mwc.then(|| (h.accepting - h.playing_on).max(0.0));
            (
                DecisionKind::Resignation,
                -cost,
                mwc,
                Choice::Resign(*offer),
                Choice::PlayOn,
            )
        }
        _ => return None,
    };
    let skill = marks::skill(f64::from(error), &Thresholds::default());
    let better = if error < 0.0 { better } else { chosen.clone() };
    Some(Verdict {
        kind,
        skill,
        loss: Loss {
            equity: -error,
            mwc: mwc.map(|m| m.max(0.0)),
        },
        chosen,
        better,
    })
}

/// GNU Backgammon's judgement of the cube decision of a cube hint (normalised equity of the
/// player on roll; no double is optimal when he has no cube to double).
fn cube_judgement(query: &Query, h: &CubeHint) -> CubeJudgement {
    let d = h.decision;
    let available = !matches!(
        d.action,
        CubeAction::NotAvailable | CubeAction::NoDoubleDeadCube | CubeAction::NoRedoubleDeadCube
    );
    CubeJudgement {
        doubler: query.state.on_roll,
        available,
        no_double: f64::from(d.no_double),
        double_take: f64::from(d.double_take),
        double_pass: f64::from(d.double_pass),
        optimal: f64::from(if available { d.optimal } else { d.no_double }),
        action: d.action,
        close: false,
    }
}

fn answer_choice(r: Response) -> Choice {
    match r {
        Response::Take => Choice::Take,
        Response::Pass => Choice::Drop,
        Response::Beaver => Choice::Beaver,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::analysis::hint::hint;
    use crate::eval::Nets;
    use crate::formats::notation::format_move;
    use crate::game::match_state::{MatchState, Player};
    use crate::rules::dice::Dice;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Position;
    use crate::search::{Level, Search};

    const O: Player = Player::Zero;
    const X: Player = Player::One;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    /// The hint at the tutor's level (expert) and the verdict on `action`.
    fn verdict(s: &mut Search, asked: &Query, query: &Query, action: Action) -> Verdict {
        let h = hint(s, asked, &Level::Expert.settings());
        judge(query, &action, &h).expect("a verdict")
    }

    /// X to play 31 from the starting position, in `state`.
    fn opening_31(state: MatchState) -> Query {
        let dice = Dice::new(3, 1).unwrap();
        let state = MatchState {
            on_roll: X,
            turn: X,
            dice: Some(dice),
            ..state
        };
        Query::from_state(Position::starting(), state, false)
    }

    /// The play of 31 from the starting position written `text`.
    fn play(text: &str) -> Action {
        let start = Position::starting();
        let plays = legal_moves(&start, Dice::new(3, 1).unwrap());
        let found = plays
            .iter()
            .find(|m| format_move(&start, &m.mv) == text)
            .unwrap_or_else(|| panic!("no play {text}"));
        Action::Move(found.mv)
    }

    fn money_before_roll(position: Position) -> Query {
        let state = MatchState {
            on_roll: X,
            turn: X,
            ..MatchState::money()
        };
        Query::from_state(position, state, false)
    }

    #[test]
    fn a_blunder_and_a_good_play_from_the_opening() {
        let mut s = search();
        let q = opening_31(MatchState::money());
        let v = verdict(&mut s, &q, &q, play("6/5 6/3"));
        assert_eq!(v.kind, DecisionKind::Play);
        assert!(v.skill >= Skill::Bad, "{v:?}");
        assert_eq!(v.chosen, Choice::Play("6/5 6/3".into()));
        assert_eq!(v.better, Choice::Play("8/5 6/5".into()));
        assert!(v.loss.equity > 0.08, "{v:?}");
        assert_eq!(v.loss.mwc, None, "money play");
        let Hint::Moves(h) = hint(&mut s, &q, &Level::Expert.settings()) else {
            panic!("plays expected");
        };
        let blunder = h.moves.iter().find(|p| p.text == "6/5 6/3").unwrap();
        assert_eq!(v.loss.equity, h.moves[0].equity - blunder.equity);

        let v = verdict(&mut s, &q, &q, play("8/5 6/5"));
        assert_eq!(v.skill, Skill::None, "{v:?}");
        assert_eq!(v.loss.equity, 0.0);
        assert_eq!(v.better, v.chosen);
    }

    #[test]
    fn in_match_play_the_loss_is_also_in_match_winning_chance() {
        let mut s = search();
        let q = opening_31(MatchState::new_match(7));
        let v = verdict(&mut s, &q, &q, play("6/5 6/3"));
        assert!(v.skill >= Skill::Bad, "{v:?}");
        let Hint::Moves(h) = hint(&mut s, &q, &Level::Expert.settings()) else {
            panic!("plays expected");
        };
        let blunder = h.moves.iter().find(|p| p.text == "6/5 6/3").unwrap();
        let mwc = v.loss.mwc.expect("match play");
        assert_eq!(mwc, h.moves[0].mwc.unwrap() - blunder.mwc.unwrap());
        // At 0-0 of a 7-point match, an EMG of 1 is worth well under half the match.
        assert!(mwc > 0.0 && mwc < v.loss.equity / 2.0, "{v:?}");

        // A missed double in match play: the MWC lost is the EMG lost at the player's scale.
        let position =
            Position::from_points(&[(8, 5), (7, 5), (5, 5)], &[(8, 5), (9, 5), (7, 5)]).unwrap();
        let state = MatchState {
            on_roll: X,
            turn: X,
            ..MatchState::new_match(7)
        };
        let q = Query::from_state(position, state, false);
        let v = verdict(&mut s, &q, &q, Action::Roll);
        let score = MatchScore::from_state(&state).unwrap();
        let scale = MwcScaleF32::new(MatchEquityTable::kazaross_xg2(), &score, X, 1);
        assert!(v.loss.equity > 0.0, "{v:?}");
        assert_eq!(v.loss.mwc, Some(scale.mwc_change(v.loss.equity)));
    }

    #[test]
    fn a_missed_double_and_a_hopeless_double() {
        let mut s = search();
        // A long race lead of 20%: double, pass. Rolling instead loses.
        let race =
            Position::from_points(&[(8, 5), (7, 5), (5, 5)], &[(8, 5), (9, 5), (7, 5)]).unwrap();
        let q = money_before_roll(race);
        let v = verdict(&mut s, &q, &q, Action::Roll);
        assert_eq!(v.kind, DecisionKind::Cube);
        assert!(v.skill >= Skill::Doubtful, "{v:?}");
        assert_eq!(v.chosen, Choice::NoDouble);
        assert_eq!(v.better, Choice::Double);
        let Hint::Cube(h) = hint(&mut s, &q, &Level::Expert.settings()) else {
            panic!("cube expected");
        };
        assert!(h.double);
        let lost = h.decision.optimal - h.decision.no_double;
        assert!((v.loss.equity - lost).abs() < 1e-6, "{v:?} {h:?}");
        // Doubling there is right.
        let v = verdict(&mut s, &q, &q, Action::Double);
        assert_eq!(v.skill, Skill::None, "{v:?}");
        assert_eq!(v.better, Choice::Double);

        // In the opening position rolling is right and doubling is a mistake.
        let q = money_before_roll(Position::starting());
        let v = verdict(&mut s, &q, &q, Action::Roll);
        assert_eq!(v.skill, Skill::None, "{v:?}");
        assert_eq!(v.loss.equity, 0.0);
        // Hopeless: all fifteen checkers far from home (five on the bar) against two checkers to
        // bear off.
        let hopeless = Position::from_points(&[(25, 5), (14, 10)], &[(1, 1), (2, 1)]).unwrap();
        let q = money_before_roll(hopeless);
        let v = verdict(&mut s, &q, &q, Action::Double);
        assert_eq!(v.skill, Skill::VeryBad, "{v:?}");
        assert_eq!((&v.chosen, &v.better), (&Choice::Double, &Choice::NoDouble));
        assert!(v.loss.equity > 0.5, "{v:?}");
    }

    #[test]
    fn a_hopeless_take_is_very_bad_and_the_drop_is_right() {
        let mut s = search();
        // X doubled and bears off his last two checkers next roll; O has fifteen checkers far
        // from home, five of them on the bar.
        let position = Position::from_points(&[(1, 1), (2, 1)], &[(25, 5), (14, 10)]).unwrap();
        let state = MatchState {
            on_roll: X,
            turn: O,
            doubled: true,
            ..MatchState::money()
        };
        let q = Query::from_state(position, state, false);
        assert_eq!(q.question, Question::AnswerDouble { may_beaver: false });
        let v = verdict(&mut s, &q, &q, Action::Take);
        assert_eq!(v.kind, DecisionKind::AnswerDouble);
        assert_eq!(v.skill, Skill::VeryBad, "{v:?}");
        assert_eq!((&v.chosen, &v.better), (&Choice::Take, &Choice::Drop));
        assert!(v.loss.equity > 1.0, "{v:?}");
        let v = verdict(&mut s, &q, &q, Action::Drop);
        assert_eq!(v.skill, Skill::None, "{v:?}");
        assert_eq!(v.better, Choice::Drop);
    }

    #[test]
    fn a_needless_resignation_and_a_question_not_answered() {
        let mut s = search();
        let q = money_before_roll(Position::starting());
        let offered = resign::offered(&q, Resignation::Single);
        let action = Action::Resign(Resignation::Single);
        let v = verdict(&mut s, &offered, &q, action);
        assert_eq!(v.kind, DecisionKind::Resignation);
        assert_eq!(v.skill, Skill::VeryBad, "{v:?}");
        assert_eq!(v.chosen, Choice::Resign(Resignation::Single));
        assert_eq!(v.better, Choice::PlayOn);
        assert!(v.loss.equity > 0.5 && v.loss.equity < 1.5, "{v:?}");
        assert_eq!(v.loss.mwc, None);

        // A hint about another question judges nothing.
        let cube = hint(&mut s, &q, &Level::Expert.settings());
        assert_eq!(judge(&q, &action, &cube), None);
        assert_eq!(judge(&q, &Action::Take, &cube), None);
        let q31 = opening_31(MatchState::money());
        let plays = hint(&mut s, &q31, &Level::Expert.settings());
        assert_eq!(judge(&q, &Action::Roll, &plays), None);
    }
}
