//! The one hint and decision function every front end uses: what is the best decision here, and
//! how do the alternatives rank?
//!
//! A [`Query`] is a position (oriented to the player on roll), its [`MatchState`], the beaver
//! rule and the [`Question`] to answer. [`hint`] answers it at some [`EvalSettings`] with a
//! [`Hint`], which depends on who has to decide what:
//!
//! * the dice are rolled ([`Question::Move`]): every legal play ranked best first
//!   ([`MoveHint`]);
//! * before the roll ([`Question::Cube`]): the cube decision of the player on roll, with the
//!   no double, double/take and double/pass equities and the proper action ([`CubeHint`]);
//! * a double is on offer ([`Question::AnswerDouble`]): the answer of the player doubled, with
//!   the take, drop and (where allowed) beaver equities ([`TakeHint`]). While a double waits
//!   for an answer the hint is always about taking, in every front end;
//! * a resignation is on offer ([`Question::AnswerResignation`]): whether to accept it
//!   ([`ResignationHint`]).
//!
//! The cube context is built in one place, [`cube_context`], from the match state (score, cube,
//! Crawford game, the Jacoby rule of a money session) and the beaver rule of the query: nothing
//! is assumed. The bot ([`super::bot`]) decides with the same function ([`Hint::action`]).
//!
//! Equities follow the conventions of [`crate::search`]: money equities normalised to the cube
//! before the decision, match play as normalised equity (EMG), with the match winning chance
//! alongside where one is known.
//!
//! The hint types are plain data. They serialise (serde) to the JSON documents the command-line
//! tools print, one object per kind with distinct keys:
//!
//! * plays: `{"dice": "31", "moves": [{"move": "8/5 6/5", "equity": …, "win": …,
//!   "win_gammon": …, "win_backgammon": …, "lose_gammon": …, "lose_backgammon": …,
//!   "plies": 2, "mwc": …, "difference": 0.0}, …]}` (`mwc` in match play only);
//! * the cube: `{"cube": {"no_double": …, "double_take": …, "double_pass": …, "action":
//!   "No double, take", "optimal": …, "centered": true}, "double": false, "probabilities": {…},
//!   "plies": 2}`;
//! * a double to answer: `{"response": "take", "take": …, "drop": -1.0, "beaver": …, "cube":
//!   {…}, "probabilities": {…}, "on_roll_answers": false, "plies": 2}` (`beaver` only where a
//!   beaver is allowed; `response` is `take`, `drop` or `beaver`);
//! * a resignation to answer: `{"response": "accept", "offer": "gammon", "points": 2,
//!   "accepting": …, "playing_on": …, "mwc": false, "plies": 2}`.

use serde::{Serialize, Serializer};

use crate::cube::met::{MatchEquityTable, MatchScore};
use crate::cube::{response, CubeAction, CubeContext, CubeDecision, Ownership, Response};
use crate::eval::Probabilities;
use crate::formats::notation::format_move;
use crate::game::match_state::{CubeOwner, MatchState, Player, Resignation};
use crate::game::{Action, Decision, Game};
use crate::rules::dice::Dice;
use crate::rules::movegen::LegalMove;
use crate::rules::position::Position;
use crate::search::{EvalSettings, PositionEval, Search};

mod rollout;

pub use rollout::{rollout_hint, RolloutHint, RolloutHintError};

/// Tolerance when comparing equities (accept a resignation that costs nothing).
const EPSILON: f32 = 1e-6;

/// What is to be decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// The player on roll plays these dice: rank the plays.
    Move(Dice),
    /// The player on roll may double before rolling: the cube decision.
    Cube,
    /// The double on offer is to be taken, dropped or (if `may_beaver`) beavered by the player
    /// to act (`MatchState::turn`).
    AnswerDouble { may_beaver: bool },
    /// The player to act (`MatchState::turn`) accepts or rejects the opponent's offer to resign
    /// this much.
    AnswerResignation(Resignation),
}

/// A decision to give a hint about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    /// The checkers, seen from the player on roll (`state.on_roll`), also while a double or a
    /// resignation waits for an answer.
    pub position: Position,
    /// Score, cube, Crawford game, Jacoby rule, who is on roll and who acts, the dice.
    pub state: MatchState,
    /// Money play: beavers (and raccoons) are allowed. A Match ID has no flag for it, so it
    /// comes from the rules of the session. Ignored in match play.
    pub beavers: bool,
    pub question: Question,
}

impl Query {
    /// The decision pending in `game`, under its rules; `None` when no player has to decide (no
    /// game, the opening roll, the match is over).
    pub fn from_game(game: &Game) -> Option<Query> {
        let question = match game.decision() {
            Decision::Roll { .. } => Question::Cube,
            Decision::Move { dice, .. } => Question::Move(dice),
            Decision::AnswerDouble { may_beaver, .. } => Question::AnswerDouble { may_beaver },
            Decision::AnswerResignation { resignation, .. } => {
                Question::AnswerResignation(resignation)
            }
            Decision::NewGame | Decision::MatchOver { .. } | Decision::OpeningRoll => return None,
        };
        Some(Query {
            position: game.position(),
            state: game.match_state(),
            beavers: game.rules().beavers_apply(),
            question,
        })
    }

    /// The decision a position and match state say is pending (as a GNU Backgammon ID, a FIBS
    /// board or a UBGI context gives them): a resignation on offer, else a double on offer
    /// (beavered if `beavers` and money play), else the play of the dice rolled, else the cube
    /// decision before the roll.
    pub fn from_state(position: Position, state: MatchState, beavers: bool) -> Query {
        let question = if let Some(offer) = state.resigned {
            Question::AnswerResignation(offer)
        } else if state.doubled {
            Question::AnswerDouble {
                may_beaver: beavers && state.is_money(),
            }
        } else if let Some(dice) = state.dice {
            Question::Move(dice)
        } else {
            Question::Cube
        };
        Query {
            position,
            state,
            beavers,
            question,
        }
    }

    /// The same position and state with another question.
    pub fn with_question(self, question: Question) -> Query {
        Query { question, ..self }
    }

    /// The player who has to decide: the player on roll for a play or a cube decision, the
    /// player to act (`state.turn`) for an answer.
    pub fn player(&self) -> Player {
        match self.question {
            Question::Move(_) | Question::Cube => self.state.on_roll,
            Question::AnswerDouble { .. } | Question::AnswerResignation(_) => self.state.turn,
        }
    }

    /// The cube context of the player on roll for this question (see [`cube_context`]): when a
    /// double is to be answered, beavers count only if the answer may be a beaver.
    pub fn cube_context(&self) -> CubeContext<'static> {
        let beavers = match self.question {
            Question::AnswerDouble { may_beaver } => may_beaver,
            _ => self.beavers,
        };
        cube_context(&self.state, beavers)
    }
}

/// The cube context of `state` for its player on roll: cube value and owner, money play (with
/// the state's Jacoby rule and `beavers`) or the match score with the Kazaross XG2 match equity
/// table. Every evaluation and decision of the front ends starts here.
pub fn cube_context(state: &MatchState, beavers: bool) -> CubeContext<'static> {
    CubeContext::from_state(
        state,
        MatchEquityTable::kazaross_xg2(),
        beavers && state.is_money(),
    )
}

/// Evaluates `position` before the roll for the player on roll of `state` (its chances and
/// cubeless and cubeful equities). The beaver rule does not change an evaluation; it only names
/// cube actions and answers doubles.
pub fn evaluate(
    search: &mut Search,
    position: &Position,
    state: &MatchState,
    beavers: bool,
    settings: &EvalSettings,
) -> PositionEval {
    search.evaluate(position, &cube_context(state, beavers), settings)
}

/// The answer to a [`Query`] (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Hint {
    /// The dice are rolled: the plays, best first.
    Moves(MoveHint),
    /// Before the roll: the cube decision of the player on roll.
    Cube(CubeHint),
    /// A double is on offer: take, drop or beaver.
    Take(TakeHint),
    /// A resignation is on offer: accept or reject.
    Resignation(ResignationHint),
}

impl Hint {
    /// The best action, as the player who decides would take it in a [`Game`]. `None` only for
    /// a play list without plays (never returned by [`hint`]).
    pub fn action(&self) -> Option<Action> {
        Some(match self {
            Hint::Moves(h) => Action::Move(h.moves.first()?.mv.mv),
            Hint::Cube(h) if h.double => Action::Double,
            Hint::Cube(_) => Action::Roll,
            Hint::Take(h) => match h.response {
                Response::Take => Action::Take,
                Response::Pass => Action::Drop,
                Response::Beaver => Action::Beaver,
            },
            Hint::Resignation(h) if h.accept => Action::AcceptResignation,
            Hint::Resignation(_) => Action::RejectResignation,
        })
    }
}

/// The ranked plays of a roll.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveHint {
    /// The roll played.
    #[serde(serialize_with = "as_text")]
    pub dice: Dice,
    /// Every legal play (one empty play when no checker can move), best first. The plays that
    /// survived the move filters come first, scored at the full depth; the others follow at the
    /// depth they were pruned at.
    pub moves: Vec<RankedPlay>,
}

/// One play of a [`MoveHint`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankedPlay {
    /// The play, and the position it leads to (seen from the mover).
    #[serde(skip)]
    pub mv: LegalMove,
    /// The play in GNU Backgammon's notation (`8/5 6/5`; empty when no checker can move).
    #[serde(rename = "move")]
    pub text: String,
    /// Equity of the mover after the play (cubeful unless the settings are cubeless).
    pub equity: f32,
    /// Cubeless chances of the mover after the play.
    #[serde(flatten, with = "ProbabilitiesDef")]
    pub probabilities: Probabilities,
    /// The depth the play was last scored at.
    pub plies: u8,
    /// Match winning chance after the play (match play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f32>,
    /// `equity` minus the best play's: 0 for the best play, negative or 0 for the others.
    pub difference: f32,
}

/// The cube decision of the player on roll before he rolls.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CubeHint {
    /// No double, double/take and double/pass equities, the proper action and its equity.
    #[serde(rename = "cube", with = "CubeDecisionDef")]
    pub decision: CubeDecision,
    /// The player should double now: the proper action is a double (or redouble) that the
    /// opponent takes, passes or beavers; never when too good, optional or not available.
    pub double: bool,
    /// Cubeless chances of the player on roll.
    #[serde(with = "ProbabilitiesDef")]
    pub probabilities: Probabilities,
    pub plies: u8,
}

/// The answer to a double on offer, from the side of the player who answers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TakeHint {
    /// The proper answer: take, drop (`Response::Pass`) or beaver (raccoon, when the double
    /// answered is itself a beaver).
    #[serde(serialize_with = "response_word_ser")]
    pub response: Response,
    /// Equity of the answering player after taking, normalised to the cube before the double
    /// (money play: in units of that cube; match play: EMG).
    pub take: f32,
    /// The same after dropping: −1, the cube before the double is lost.
    pub drop: f32,
    /// The same after beavering (money play with beavers, when one more beaver is allowed):
    /// taking with the cube doubled once more on the answering player's side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beaver: Option<f32>,
    /// The cube decision of the player on roll that the answer rests on (for a first double,
    /// the doubler's: its double/take equity is the negative of `take`).
    #[serde(rename = "cube", with = "CubeDecisionDef")]
    pub decision: CubeDecision,
    /// Cubeless chances of the player on roll.
    #[serde(with = "ProbabilitiesDef")]
    pub probabilities: Probabilities,
    /// The player answering is the player on roll (he answers a beaver); otherwise he is the
    /// opponent of the player on roll.
    pub on_roll_answers: bool,
    pub plies: u8,
}

impl TakeHint {
    /// The alternatives with their equities, best first (the proper answer first).
    pub fn ranked(&self) -> Vec<(Response, f32)> {
        let mut all = vec![(Response::Take, self.take)];
        if let Some(beaver) = self.beaver {
            all.push((Response::Beaver, beaver));
        }
        all.push((Response::Pass, self.drop));
        // The proper answer first, then by equity (stable among equals).
        all.sort_by(|a, b| {
            (b.0 == self.response)
                .cmp(&(a.0 == self.response))
                .then(b.1.total_cmp(&a.1))
        });
        all
    }

    /// Cubeless chances of the player answering.
    pub fn answerer_probabilities(&self) -> Probabilities {
        if self.on_roll_answers {
            self.probabilities
        } else {
            self.probabilities.invert()
        }
    }
}

/// The answer to an offer to resign, from the side of the player who answers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ResignationHint {
    /// Accepting is at least as good as playing on.
    #[serde(rename = "response", serialize_with = "accept_word")]
    pub accept: bool,
    /// What is offered.
    #[serde(serialize_with = "resignation_word")]
    pub offer: Resignation,
    /// Points the answering player wins by accepting: the offer times the cube (a single game
    /// under the Jacoby rule with a centred cube).
    pub points: u32,
    /// Value of accepting for the answering player: money equity normalised to the cube, or
    /// the match winning chance (`mwc`).
    pub accepting: f32,
    /// Value of playing on, the same way (after the resigner's best play when he has rolled).
    pub playing_on: f32,
    /// The values are match winning chances (match play), not equities.
    pub mwc: bool,
    pub plies: u8,
}

/// Answers `query` at `settings` (see the [module documentation](self)).
pub fn hint(search: &mut Search, query: &Query, settings: &EvalSettings) -> Hint {
    match query.question {
        Question::Move(dice) => Hint::Moves(move_hint(search, query, dice, settings)),
        Question::Cube => Hint::Cube(cube_hint(search, query, settings)),
        Question::AnswerDouble { may_beaver } => {
            Hint::Take(take_hint(search, query, may_beaver, settings))
        }
        Question::AnswerResignation(offer) => {
            Hint::Resignation(resignation_hint(search, query, offer, settings))
        }
    }
}

fn move_hint(search: &mut Search, query: &Query, dice: Dice, settings: &EvalSettings) -> MoveHint {
    let position = &query.position;
    let ranked = search.rank_moves(position, dice, &query.cube_context(), settings);
    let best = ranked.first().map_or(0.0, |r| r.equity);
    MoveHint {
        dice,
        moves: ranked
            .iter()
            .map(|r| RankedPlay {
                mv: r.mv,
                text: format_move(position, &r.mv.mv),
                equity: r.equity,
                probabilities: r.probabilities,
                plies: r.plies,
                mwc: r.mwc,
                difference: r.equity - best,
            })
            .collect(),
    }
}

fn cube_hint(search: &mut Search, query: &Query, settings: &EvalSettings) -> CubeHint {
    let ctx = query.cube_context();
    let analysis = search.cube_decision(&query.position, &ctx, settings);
    CubeHint {
        decision: analysis.decision,
        double: is_double(&ctx, analysis.decision.action),
        probabilities: analysis.probabilities,
        plies: analysis.plies,
    }
}

/// Whether `action` doubles (and the player on roll of `ctx` may).
fn is_double(ctx: &CubeContext, action: CubeAction) -> bool {
    ctx.can_double()
        && matches!(
            action,
            CubeAction::DoubleTake
                | CubeAction::DoublePass
                | CubeAction::DoubleBeaver
                | CubeAction::RedoubleTake
                | CubeAction::RedoublePass
        )
}

/// The answer to the double on offer. The cube value and owner of `query.state` are those
/// before the double on offer; the player on roll made the first double of the chain.
fn take_hint(
    search: &mut Search,
    query: &Query,
    may_beaver: bool,
    settings: &EvalSettings,
) -> TakeHint {
    let state = &query.state;
    let position = &query.position;
    let may_beaver = may_beaver && state.is_money();
    let ctx = cube_context(state, may_beaver);
    let analysis = search.cube_decision(position, &ctx, settings);
    let decision = analysis.decision;
    let owner = Ownership::relative(state.cube_owner, state.on_roll);
    let on_roll_answers = state.turn == state.on_roll;
    let (take, answer) = if state.is_money() && owner == Ownership::Opponent {
        // A beaver chain: the cube sits with the player who was doubled first (not on roll),
        // and taking doubles it there. The equity of the player on roll with that cube, in
        // units of the current cube, is twice his equity now.
        let e = search.evaluate(position, &ctx, settings).cubeful;
        let take = if on_roll_answers { 2.0 * e } else { -2.0 * e };
        let answer = if take < -1.0 {
            Response::Pass
        } else if take > 0.0 {
            Response::Beaver
        } else {
            Response::Take
        };
        (take, answer)
    } else {
        (-decision.double_take, response(decision.double_take, &ctx))
    };
    finish_take(
        query,
        may_beaver,
        decision,
        take,
        answer,
        analysis.probabilities,
        analysis.plies,
    )
}

/// The answer to the double on offer in `query` from the doubler's cube `decision`, the take
/// equity of the player doubled and his best `answer` (a beaver only where `may_beaver`).
fn finish_take(
    query: &Query,
    may_beaver: bool,
    decision: CubeDecision,
    take: f32,
    answer: Response,
    probabilities: Probabilities,
    plies: u8,
) -> TakeHint {
    let state = &query.state;
    let may_beaver = may_beaver && state.is_money();
    let answer = match answer {
        Response::Beaver if !may_beaver => Response::Take,
        other => other,
    };
    TakeHint {
        response: answer,
        take,
        drop: -1.0,
        // The beaver keeps the cube on the same side at twice the value.
        beaver: may_beaver.then_some(2.0 * take),
        decision,
        probabilities,
        on_roll_answers: state.turn == state.on_roll,
        plies,
    }
}

/// Whether the player to act accepts `offer`. If the dice are rolled the resigner has rolled,
/// and playing on is valued after his best play of those dice.
fn resignation_hint(
    search: &mut Search,
    query: &Query,
    offer: Resignation,
    settings: &EvalSettings,
) -> ResignationHint {
    let state = &query.state;
    let position = &query.position;
    let ctx = query.cube_context();
    let (equity, mwc, plies) = match state.dice {
        Some(dice) => {
            let best = search.best_move(position, dice, &ctx, settings);
            (best.equity, best.mwc, best.plies)
        }
        None => {
            let e = search.evaluate(position, &ctx, settings);
            (e.cubeful, e.mwc, e.plies)
        }
    };
    let answerer = state.turn;
    let mine = answerer == state.on_roll;
    let value = if state.is_money() && state.jacoby && state.cube_owner == CubeOwner::Centered {
        1
    } else {
        offer as u32
    };
    let points = value.saturating_mul(state.cube_value());
    let (accepting, playing_on, is_mwc) = match MatchScore::from_state(state) {
        None => (value as f32, if mine { equity } else { -equity }, false),
        Some(score) => {
            // In match play every evaluation has a match winning chance; the normalised
            // equity converts if one ever lacked it.
            let m = mwc.or_else(|| ctx.equity_to_mwc(equity)).unwrap_or(0.5);
            let playing_on = if mine { m } else { 1.0 - m };
            let accepting =
                MatchEquityTable::kazaross_xg2().mwc_after(&score, answerer, answerer, points);
            (accepting as f32, playing_on, true)
        }
    };
    ResignationHint {
        accept: accepting >= playing_on - EPSILON,
        offer,
        points,
        accepting,
        playing_on,
        mwc: is_mwc,
        plies,
    }
}

// ------------------------------------------------------------------------------------------
// Serialisation helpers
// ------------------------------------------------------------------------------------------

/// The serde shape of [`Probabilities`].
#[derive(Serialize)]
#[serde(remote = "Probabilities")]
struct ProbabilitiesDef {
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
}

/// The serde shape of [`CubeDecision`]: the action as GNU Backgammon's text.
#[derive(Serialize)]
#[serde(remote = "CubeDecision")]
struct CubeDecisionDef {
    no_double: f32,
    double_take: f32,
    double_pass: f32,
    #[serde(serialize_with = "as_text")]
    action: CubeAction,
    optimal: f32,
    centered: bool,
}

fn as_text<T: std::fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// `take`, `drop` or `beaver`: the words GNU Backgammon's external player protocol uses.
pub fn response_word(r: Response) -> &'static str {
    match r {
        Response::Take => "take",
        Response::Pass => "drop",
        Response::Beaver => "beaver",
    }
}

fn response_word_ser<S: Serializer>(r: &Response, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(response_word(*r))
}

fn accept_word<S: Serializer>(accept: &bool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(if *accept { "accept" } else { "reject" })
}

fn resignation_word<S: Serializer>(r: &Resignation, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match r {
        Resignation::Single => "single",
        Resignation::Gammon => "gammon",
        Resignation::Backgammon => "backgammon",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Nets;
    use crate::game::{Rules, ScriptedDice};
    use crate::search::Level;
    use std::sync::Arc;

    const O: Player = Player::Zero;
    const X: Player = Player::One;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    /// A position from the checkers of the player on roll and of his opponent, by point.
    fn sides(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        Position::from_points(player, opponent).unwrap()
    }

    /// Money play (Jacoby rule as given), X on roll before rolling, cube centred at 1.
    fn money(jacoby: bool) -> MatchState {
        MatchState {
            on_roll: X,
            turn: X,
            jacoby,
            ..MatchState::money()
        }
    }

    fn query(position: Position, state: MatchState, beavers: bool, question: Question) -> Query {
        Query {
            position,
            state,
            beavers,
            question,
        }
    }

    fn settings() -> EvalSettings {
        Level::Expert.settings()
    }

    /// X has borne off 13 checkers and is off next roll; O has 15 checkers far from home:
    /// a sure gammon for X if he plays on.
    fn gammonish() -> Position {
        sides(&[(1, 2)], &[(12, 15)])
    }

    /// A 20% lead in a long race without gammons: double, pass.
    fn race_lead() -> Position {
        sides(&[(8, 5), (7, 5), (5, 5)], &[(8, 5), (9, 5), (7, 5)])
    }

    #[test]
    fn plays_are_ranked_as_the_search_ranks_them() {
        let mut s = search();
        for (state, jacoby) in [
            (money(true), true),
            (money(false), false),
            (MatchState::new_match(7), false),
        ] {
            let state = MatchState { jacoby, ..state };
            let dice = Dice::new(3, 1).unwrap();
            let q = query(Position::starting(), state, true, Question::Move(dice));
            let Hint::Moves(h) = hint(&mut s, &q, &settings()) else {
                panic!("plays expected");
            };
            assert_eq!(h.dice, dice);
            let ctx = cube_context(&state, true);
            let ranked = s.rank_moves(&Position::starting(), dice, &ctx, &settings());
            assert_eq!(h.moves.len(), ranked.len());
            for (play, r) in h.moves.iter().zip(&ranked) {
                assert_eq!(play.mv, r.mv);
                assert_eq!(play.equity, r.equity);
                assert_eq!(play.probabilities, r.probabilities);
                assert_eq!(play.mwc, r.mwc);
                assert_eq!(play.difference, r.equity - ranked[0].equity);
                assert_eq!(play.text, format_move(&Position::starting(), &r.mv.mv));
            }
            assert_eq!(h.moves[0].text, "8/5 6/5");
            assert_eq!(h.moves[0].difference, 0.0);
            assert!(h.moves.iter().all(|m| m.difference <= 0.0));
            assert_eq!(h.moves[0].mwc.is_some(), !state.is_money());
            let action = Hint::Moves(h.clone()).action();
            assert_eq!(action, Some(Action::Move(h.moves[0].mv.mv)));
        }
    }

    #[test]
    fn cube_decision_before_the_roll() {
        let mut s = search();
        // The opening position: no double; with beavers the double would be beavered.
        for beavers in [false, true] {
            let q = query(Position::starting(), money(true), beavers, Question::Cube);
            let Hint::Cube(h) = hint(&mut s, &q, &settings()) else {
                panic!("cube expected");
            };
            let ctx = cube_context(&money(true), beavers);
            let direct = s.cube_decision(&Position::starting(), &ctx, &settings());
            assert_eq!(h.decision, direct.decision);
            assert_eq!(h.probabilities, direct.probabilities);
            assert!(!h.double);
            let expected = if beavers {
                CubeAction::NoDoubleBeaver
            } else {
                CubeAction::NoDoubleTake
            };
            assert_eq!(h.decision.action, expected, "beavers {beavers}");
            assert_eq!(Hint::Cube(h).action(), Some(Action::Roll));
        }
        // A long race lead: double, pass (the rules do not matter).
        let q = query(race_lead(), money(false), false, Question::Cube);
        let Hint::Cube(h) = hint(&mut s, &q, &settings()) else {
            panic!("cube expected");
        };
        assert!(h.double, "{:?}", h.decision);
        assert_eq!(h.decision.action, CubeAction::DoublePass);
        assert_eq!(Hint::Cube(h).action(), Some(Action::Double));
    }

    #[test]
    fn the_jacoby_rule_decides_whether_to_play_on_for_the_gammon() {
        let mut s = search();
        let cube = |s: &mut Search, jacoby: bool| {
            let q = query(gammonish(), money(jacoby), true, Question::Cube);
            match hint(s, &q, &settings()) {
                Hint::Cube(h) => h,
                other => panic!("{other:?}"),
            }
        };
        // Without the Jacoby rule the gammon counts: too good to double.
        let free = cube(&mut s, false);
        assert_eq!(free.decision.action, CubeAction::TooGoodPass);
        assert!(!free.double);
        // Under it a gammon with a centred cube is a single game: cash now.
        let jacoby = cube(&mut s, true);
        assert!(jacoby.double, "{:?}", jacoby.decision);
        assert!(jacoby.decision.no_double < free.decision.no_double);
    }

    #[test]
    fn match_play_has_no_beavers_and_a_dead_cube_in_the_crawford_game() {
        let mut s = search();
        // 5-point match, X 4-away, O 1-away: the Crawford game.
        let crawford = MatchState {
            on_roll: X,
            turn: X,
            score: [4, 1],
            crawford: true,
            ..MatchState::new_match(5)
        };
        let q = query(race_lead(), crawford, true, Question::Cube);
        let Hint::Cube(h) = hint(&mut s, &q, &settings()) else {
            panic!("cube expected");
        };
        assert_eq!(h.decision.action, CubeAction::NoDoubleDeadCube);
        assert!(!h.double);
        // A double to answer in match play: no beaver, whatever the session's rule says.
        let doubled = MatchState {
            turn: O,
            doubled: true,
            score: [0, 0],
            crawford: false,
            ..crawford
        };
        let q = Query::from_state(Position::starting(), doubled, true);
        assert_eq!(q.question, Question::AnswerDouble { may_beaver: false });
        let Hint::Take(h) = hint(&mut s, &q, &settings()) else {
            panic!("take expected");
        };
        assert_eq!(h.beaver, None);
        assert_eq!(h.response, Response::Take);
        assert_eq!(h.take, -h.decision.double_take);
        assert_eq!(h.drop, -1.0);
    }

    #[test]
    fn a_pending_double_is_answered_take_drop_or_beaver() {
        let mut s = search();
        // O doubles X at the opening (money): a blunder X takes, or beavers when allowed.
        for (jacoby, beavers) in [(true, false), (true, true), (false, false), (false, true)] {
            let doubled = MatchState {
                on_roll: O,
                turn: X,
                doubled: true,
                ..money(jacoby)
            };
            let q = Query::from_state(Position::starting(), doubled, beavers);
            assert_eq!(
                q.question,
                Question::AnswerDouble {
                    may_beaver: beavers
                }
            );
            assert_eq!(q.player(), X);
            let Hint::Take(h) = hint(&mut s, &q, &settings()) else {
                panic!("take expected");
            };
            let ctx = cube_context(&doubled, beavers);
            let direct = s.cube_decision(&Position::starting(), &ctx, &settings());
            assert_eq!(h.decision, direct.decision);
            assert_eq!(h.take, -direct.decision.double_take);
            assert!(h.take > 0.0, "taking an opening double is good: {h:?}");
            assert!(!h.on_roll_answers);
            assert_eq!(h.answerer_probabilities(), direct.probabilities.invert());
            if beavers {
                assert_eq!(h.response, Response::Beaver);
                assert_eq!(h.beaver, Some(2.0 * h.take));
                assert_eq!(Hint::Take(h).action(), Some(Action::Beaver));
                let ranked = h.ranked();
                assert_eq!(
                    ranked.iter().map(|r| r.0).collect::<Vec<_>>(),
                    [Response::Beaver, Response::Take, Response::Pass]
                );
            } else {
                assert_eq!(h.response, Response::Take);
                assert_eq!(h.beaver, None);
                assert_eq!(Hint::Take(h).action(), Some(Action::Take));
                assert_eq!(
                    h.ranked(),
                    vec![(Response::Take, h.take), (Response::Pass, -1.0)]
                );
            }
        }
        // Far behind in a long race: drop.
        let lead = MatchState {
            doubled: true,
            turn: O,
            ..money(false)
        };
        let q = Query::from_state(race_lead(), lead, true);
        let Hint::Take(h) = hint(&mut s, &q, &settings()) else {
            panic!("take expected");
        };
        assert_eq!(h.response, Response::Pass);
        assert!(h.take < h.drop, "{h:?}");
        assert_eq!(h.ranked()[0], (Response::Pass, -1.0));
        assert_eq!(Hint::Take(h).action(), Some(Action::Drop));
    }

    #[test]
    fn answers_to_a_beaver_compare_the_cube_on_the_beaver_side() {
        let mut s = search();
        // O, far ahead in a race, doubled and X beavered: the cube is at 2 on X's side and 4 is
        // offered; O (on roll) answers. Taking keeps the cube with X at 4: twice O's equity now.
        let state = MatchState {
            on_roll: O,
            turn: O,
            doubled: true,
            cube_log2: 1,
            cube_owner: CubeOwner::Owned(X),
            jacoby: true,
            ..MatchState::money()
        };
        let g = Game::from_position(
            Rules::money(),
            race_lead(),
            state,
            Box::new(ScriptedDice::parse("").unwrap()),
        )
        .unwrap();
        let q = Query::from_game(&g).unwrap();
        assert_eq!(q.player(), O);
        assert_eq!(q.question, Question::AnswerDouble { may_beaver: true });
        let Hint::Take(h) = hint(&mut s, &q, &settings()) else {
            panic!("take expected");
        };
        assert!(h.on_roll_answers);
        let e = s
            .evaluate(&race_lead(), &q.cube_context(), &settings())
            .cubeful;
        assert_eq!(h.take, 2.0 * e);
        assert_eq!(h.answerer_probabilities(), h.probabilities);
        // O is the favourite: the beaver was a mistake and he raccoons.
        assert!(h.take > 0.0, "{h:?}");
        assert_eq!(h.response, Response::Beaver);
        assert_eq!(h.beaver, Some(4.0 * e));
        // Had O raccooned, X would answer with the cube at 4 on his side: he drops.
        let raccooned = MatchState {
            turn: X,
            cube_log2: 2,
            ..state
        };
        let q = query(
            race_lead(),
            raccooned,
            true,
            Question::AnswerDouble { may_beaver: false },
        );
        let Hint::Take(h) = hint(&mut s, &q, &settings()) else {
            panic!("take expected");
        };
        assert!(!h.on_roll_answers);
        assert_eq!(h.take, -2.0 * e);
        assert_eq!(h.response, Response::Pass, "{h:?}");
        assert_eq!(h.beaver, None);
    }

    #[test]
    fn resignations_are_accepted_when_they_give_as_much_as_playing_on() {
        let mut s = search();
        // X is on roll with a sure gammon; O offers to resign.
        let offered = |jacoby: bool, offer: Resignation| {
            let state = MatchState {
                resigned: Some(offer),
                turn: X,
                ..money(jacoby)
            };
            Query::from_state(gammonish(), state, true)
        };
        let answer = |s: &mut Search, q: Query| match hint(s, &q, &settings()) {
            Hint::Resignation(h) => h,
            other => panic!("{other:?}"),
        };
        let single = answer(&mut s, offered(false, Resignation::Single));
        assert!(!single.accept, "{single:?}");
        assert!(!single.mwc);
        assert_eq!((single.points, single.accepting), (1, 1.0));
        assert!(single.playing_on > 1.5, "{single:?}");
        assert_eq!(
            Hint::Resignation(single).action(),
            Some(Action::RejectResignation)
        );
        let gammon = answer(&mut s, offered(false, Resignation::Gammon));
        assert!(gammon.accept, "{gammon:?}");
        assert_eq!(gammon.points, 2);
        // Under the Jacoby rule a gammon is worth a single game with the cube centred.
        let jacoby = answer(&mut s, offered(true, Resignation::Single));
        assert!(jacoby.accept, "{jacoby:?}");
        // In a match, a single game that wins the match is as good as anything.
        let state = MatchState {
            resigned: Some(Resignation::Single),
            on_roll: X,
            turn: X,
            score: [0, 2],
            ..MatchState::new_match(3)
        };
        let m = answer(&mut s, Query::from_state(gammonish(), state, false));
        assert!(m.mwc && m.accept, "{m:?}");
        assert_eq!(m.accepting, 1.0);
        // The same offer early in a long match is rejected.
        let state = MatchState {
            score: [0, 0],
            ..state
        };
        let m = answer(&mut s, Query::from_state(gammonish(), state, false));
        assert!(m.mwc && !m.accept, "{m:?}");
        assert!(m.accepting < m.playing_on);
    }

    #[test]
    fn queries_follow_the_game_and_the_state() {
        let mut g = Game::new(
            Rules::money(),
            Box::new(ScriptedDice::parse("25 31").unwrap()),
        )
        .unwrap();
        assert_eq!(Query::from_game(&g), None, "no game yet");
        g.new_game().unwrap();
        let q = Query::from_game(&g).unwrap();
        assert_eq!(q.question, Question::Move(Dice::new(5, 2).unwrap()));
        assert_eq!(q.player(), X);
        assert!(q.beavers);
        assert!(q.state.jacoby, "the Jacoby rule comes from the rules");
        g.play_text(X, "13/8 13/11").unwrap();
        assert_eq!(Query::from_game(&g).unwrap().question, Question::Cube);
        g.apply(O, Action::Double).unwrap();
        let q = Query::from_game(&g).unwrap();
        assert_eq!(q.question, Question::AnswerDouble { may_beaver: true });
        assert_eq!(q.player(), X);
        let mut no_beavers = Rules::money();
        no_beavers.beavers = false;
        no_beavers.jacoby = false;
        let mut g = Game::new(no_beavers, Box::new(ScriptedDice::parse("25").unwrap())).unwrap();
        g.new_game().unwrap();
        g.play_text(X, "13/8 13/11").unwrap();
        g.apply(O, Action::Double).unwrap();
        let q = Query::from_game(&g).unwrap();
        assert_eq!(q.question, Question::AnswerDouble { may_beaver: false });
        assert!(!q.beavers && !q.state.jacoby);
        // From a bare state: resignation before double before dice before cube.
        let state = money(true);
        let p = Position::starting();
        assert_eq!(Query::from_state(p, state, true).question, Question::Cube);
        let rolled = MatchState {
            dice: Dice::new(6, 1).ok(),
            ..state
        };
        assert_eq!(
            Query::from_state(p, rolled, true).question,
            Question::Move(Dice::new(6, 1).unwrap())
        );
        let resigned = MatchState {
            resigned: Some(Resignation::Gammon),
            doubled: true,
            ..state
        };
        assert_eq!(
            Query::from_state(p, resigned, true).question,
            Question::AnswerResignation(Resignation::Gammon)
        );
    }
}
