//! A computer player: decides the next action of a [`Game`] with the [`Search`] at a playing
//! level, cubeful and match-aware.
//!
//! The decision functions also work on a bare position and [`MatchState`] (as a FIBS board line
//! or a UBGI context gives them), so that every front end decides the same way:
//!
//! * [`should_double`]: double when the cube decision is a proper double (`Double, take`,
//!   `Double, pass`, `Redouble, …`, `Double, beaver`); never when too good, optional or not
//!   available.
//! * [`answer_double`]: take, drop or beaver from the doubler's double/take equity; answers to a
//!   beaver or raccoon compare the taker's equity with the cube doubled on the side of the
//!   player first doubled.
//! * [`best_move`]: the best play at the level.
//! * [`accept_resignation`]: accept when what is offered is worth at least as much as playing
//!   on (cubeful equity in money play, match winning chances in a match).
//!
//! The bot does not offer resignations itself.

use crate::cube::met::{MatchEquityTable, MatchScore};
use crate::cube::{response, CubeAction, CubeContext, Ownership, Response};
use crate::game::match_state::{CubeOwner, MatchState, Player, Resignation};
use crate::rules::dice::Dice;
use crate::rules::movegen::LegalMove;
use crate::rules::position::Position;
use crate::search::{EvalSettings, Level, Search};

use crate::game::{Action, Decision, Game};

/// Tolerance when comparing equities (accept a resignation that costs nothing).
const EPSILON: f32 = 1e-6;

/// A computer player at some evaluation settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bot {
    settings: EvalSettings,
}

impl Bot {
    /// A bot playing at `level`.
    pub fn new(level: Level) -> Bot {
        Bot::with_settings(level.settings())
    }

    /// A bot with explicit evaluation settings.
    pub fn with_settings(settings: EvalSettings) -> Bot {
        Bot { settings }
    }

    /// The evaluation settings.
    pub fn settings(&self) -> &EvalSettings {
        &self.settings
    }

    /// The decision pending in `game`, made by this bot: the player who has to act and the
    /// action. `None` when no player has to decide (no game, opening roll, match over).
    pub fn choose(&self, game: &Game, search: &mut Search) -> Option<(Player, Action)> {
        let position = game.position();
        let state = game.match_state();
        let beavers = game.rules().beavers_apply();
        let s = &self.settings;
        let action = match game.decision() {
            Decision::Roll { player, may_double } => {
                let double = may_double && should_double(search, &position, &state, s, beavers);
                return Some((player, if double { Action::Double } else { Action::Roll }));
            }
            Decision::Move { player, dice } => {
                let mv = best_move(search, &position, dice, &state, s, beavers);
                return Some((player, Action::Move(mv.mv)));
            }
            Decision::AnswerDouble {
                player, may_beaver, ..
            } => (
                player,
                match answer_double(search, &position, &state, s, may_beaver) {
                    Response::Take => Action::Take,
                    Response::Pass => Action::Drop,
                    Response::Beaver => Action::Beaver,
                },
            ),
            Decision::AnswerResignation {
                player,
                resignation,
            } => {
                let accept = accept_resignation(search, &position, &state, resignation, s, beavers);
                (
                    player,
                    if accept {
                        Action::AcceptResignation
                    } else {
                        Action::RejectResignation
                    },
                )
            }
            Decision::NewGame | Decision::MatchOver { .. } | Decision::OpeningRoll => return None,
        };
        Some(action)
    }
}

fn context<'a>(state: &MatchState, beavers: bool) -> CubeContext<'a> {
    CubeContext::from_state(state, MatchEquityTable::kazaross_xg2(), beavers)
}

/// Whether the player on roll (`state.on_roll`, who owns `position`'s orientation) should double
/// before rolling.
pub fn should_double(
    search: &mut Search,
    position: &Position,
    state: &MatchState,
    settings: &EvalSettings,
    beavers: bool,
) -> bool {
    let ctx = context(state, beavers && state.is_money());
    if !ctx.can_double() {
        return false;
    }
    let analysis = search.cube_decision(position, &ctx, settings);
    matches!(
        analysis.decision.action,
        CubeAction::DoubleTake
            | CubeAction::DoublePass
            | CubeAction::DoubleBeaver
            | CubeAction::RedoubleTake
            | CubeAction::RedoublePass
    )
}

/// The answer of the player to act (`state.turn`) to the double on offer. `position` is
/// oriented to `state.on_roll` as everywhere (the first doubler is on roll); the cube value and
/// owner are those of `state`, before the double on offer. `may_beaver`: a beaver is allowed.
pub fn answer_double(
    search: &mut Search,
    position: &Position,
    state: &MatchState,
    settings: &EvalSettings,
    may_beaver: bool,
) -> Response {
    let beavers = may_beaver && state.is_money();
    let ctx = context(state, beavers);
    let owner = Ownership::relative(state.cube_owner, state.on_roll);
    let answer = if state.is_money() && owner == Ownership::Opponent {
        // A beaver chain: the cube sits with the player who was doubled first (not on roll),
        // and taking doubles it there. The taker's equity in units of the current cube:
        let e = search.evaluate(position, &ctx, settings).cubeful;
        let take = if state.turn == state.on_roll {
            2.0 * e
        } else {
            -2.0 * e
        };
        if take < -1.0 {
            Response::Pass
        } else if take > 0.0 {
            Response::Beaver
        } else {
            Response::Take
        }
    } else {
        let analysis = search.cube_decision(position, &ctx, settings);
        response(analysis.decision.double_take, &ctx)
    };
    match answer {
        Response::Beaver if !beavers => Response::Take,
        other => other,
    }
}

/// The best play of `dice` for the player on roll.
pub fn best_move(
    search: &mut Search,
    position: &Position,
    dice: Dice,
    state: &MatchState,
    settings: &EvalSettings,
    beavers: bool,
) -> LegalMove {
    let ctx = context(state, beavers && state.is_money());
    search.best_move(position, dice, &ctx, settings).mv
}

/// Whether the player to act (`state.turn`) should accept the opponent's offer to resign
/// `offer`. If `state.dice` is set the resigner has rolled, and playing on is valued after the
/// best play of those dice.
pub fn accept_resignation(
    search: &mut Search,
    position: &Position,
    state: &MatchState,
    offer: Resignation,
    settings: &EvalSettings,
    beavers: bool,
) -> bool {
    let ctx = context(state, beavers && state.is_money());
    let (equity, mwc) = match state.dice {
        Some(dice) => {
            let best = search.best_move(position, dice, &ctx, settings);
            (best.equity, best.mwc)
        }
        None => {
            let e = search.evaluate(position, &ctx, settings);
            (e.cubeful, e.mwc)
        }
    };
    let answerer = state.turn;
    let mine = answerer == state.on_roll;
    let value = if state.is_money() && state.jacoby && state.cube_owner == CubeOwner::Centered {
        1
    } else {
        offer as u32
    };
    match MatchScore::from_state(state) {
        None => {
            let playing_on = if mine { equity } else { -equity };
            value as f32 >= playing_on - EPSILON
        }
        Some(score) => {
            let playing_on = match mwc {
                Some(m) if mine => m,
                Some(m) => 1.0 - m,
                None => return false,
            };
            let points = value.saturating_mul(state.cube_value());
            let accepted =
                MatchEquityTable::kazaross_xg2().mwc_after(&score, answerer, answerer, points);
            accepted as f32 >= playing_on - EPSILON
        }
    }
}
