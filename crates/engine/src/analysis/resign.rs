//! When the computer player offers to resign, and how much.
//!
//! The bot considers resigning whenever it is about to play: before the roll and with the dice
//! rolled. Like GNU Backgammon's computer player it offers the resignation that gives the
//! opponent what playing on would, once the opponent essentially cannot lose any more. The
//! rule:
//!
//! * the offers tried are a single game, a gammon and a backgammon, smallest first, skipping
//!   those the opponent has rejected before in this game (the rules forbid repeating them,
//!   see [`crate::game`]);
//! * the first offer the opponent would *accept* — the very question
//!   [`crate::analysis::bot::accept_resignation`] answers, asked in the position after the offer
//!   ([`offered`]) at the same settings — is the candidate: anything smaller gives the
//!   opponent less than playing on;
//! * it is offered only if it costs the resigner nothing: its value of playing on (cubeful
//!   money equity normalised to the cube, or in match play the match winning chance converted
//!   to normalised equity at the cube) exceeds the value of resigning by at most
//!   [`TOLERANCE`]. That only happens when the resigner has no winning chance left and the
//!   opponent's gammons and backgammons are either impossible or certain (or, at the score,
//!   worth nothing more);
//! * noise plays no part: the weaker levels' noise makes them misplay, not give up games they
//!   can still win (or hang on to games that are lost). Offers are judged at the bot's plies
//!   without noise ([`without_noise`]), and the bot answers resignations the same way
//!   ([`crate::analysis::bot`]).
//!
//! So a resignation the bot offers is one the bot accepts at the same level in the mirrored
//! position, and the smallest such. A cheap 0-ply look first skips every position where the
//! resigner still wins more than one game in a hundred, so the bot's thinking time hardly
//! grows.

use crate::analysis::hint::{self, Hint, Query, Question, ResignationHint};
use crate::game::match_state::{Player, Resignation};
use crate::game::{Event, Game};
use crate::search::{EvalSettings, Search};

/// The most a resignation may cost the resigner, in normalised equity (money: points per cube;
/// match play: the match winning chance lost, converted to normalised equity at the cube).
/// Winning chances of about one in 20,000 or more already cost more.
pub const TOLERANCE: f32 = 1e-4;

/// A player whose winning chance at noise-free 0-ply is above this is not asked about at his
/// level (a quick filter: a deeper look does not find such a game lost for sure).
const QUICK_WINS: f32 = 0.01;

/// The three resignations, smallest first.
const OFFERS: [Resignation; 3] = [
    Resignation::Single,
    Resignation::Gammon,
    Resignation::Backgammon,
];

/// The resignation the player on roll of `query` should offer now, if any (see the [module
/// documentation](self)), judged at `settings` without noise. `query` asks for the cube
/// decision before the roll ([`Question::Cube`]) or the play of the dice rolled
/// ([`Question::Move`]); for any other question nobody is about to play and the answer is
/// `None`. `rejected`: the largest offer of this player the opponent has rejected in this game
/// ([`rejected_offer`]); only larger offers are considered.
pub fn resignation_offer(
    search: &mut Search,
    query: &Query,
    rejected: Option<Resignation>,
    settings: &EvalSettings,
) -> Option<Resignation> {
    if !matches!(query.question, Question::Cube | Question::Move(_)) {
        return None;
    }
    let calm = without_noise(settings);
    let quick = EvalSettings {
        plies: 0,
        prune: false,
        reduced: false,
        ..calm
    };
    if winning_chance(search, query, &quick) > QUICK_WINS {
        return None;
    }
    let (offer, cost) = smallest_accepted(search, query, rejected, &calm)?;
    (cost <= TOLERANCE).then_some(offer)
}

/// The cubeless winning chance of the player on roll of `query` at `settings`: before the
/// roll, or after his best play of the dice.
fn winning_chance(search: &mut Search, query: &Query, settings: &EvalSettings) -> f32 {
    let ctx = query.cube_context();
    match query.question {
        Question::Move(dice) => {
            search
                .best_move(&query.position, dice, &ctx, settings)
                .probabilities
                .win
        }
        _ => {
            search
                .evaluate(&query.position, &ctx, settings)
                .probabilities
                .win
        }
    }
}

/// `settings` without noise: resignations, offered or answered, are judged on the truth of
/// the position at the level's depth, never on the noise that makes weaker levels misplay.
pub fn without_noise(settings: &EvalSettings) -> EvalSettings {
    EvalSettings {
        noise: 0.0,
        ..*settings
    }
}

/// The query the opponent answers once the player on roll of `query` has offered `offer`:
/// the same position, dice and cube, the opponent to act, the offer pending.
pub fn offered(query: &Query, offer: Resignation) -> Query {
    let mut state = query.state;
    state.turn = state.on_roll.other();
    state.doubled = false;
    state.resigned = Some(offer);
    Query {
        position: query.position,
        state,
        beavers: query.beavers,
        question: Question::AnswerResignation(offer),
    }
}

/// The opponent's answer to `offer` from the player on roll of `query`, at `settings`: the
/// hint every front end gets for that resignation.
pub fn opponent_answer(
    search: &mut Search,
    query: &Query,
    offer: Resignation,
    settings: &EvalSettings,
) -> ResignationHint {
    match hint::hint(search, &offered(query, offer), settings) {
        Hint::Resignation(h) => h,
        other => unreachable!("a resignation to answer gets a resignation hint, not {other:?}"),
    }
}

/// What resigning `hint.offer` costs the resigner (the player on roll of `query`): his value of
/// playing on minus his value of resigning, in normalised equity. In match play the match
/// winning chances of the hint are converted at the resigner's cube, so a chance of winning
/// the game counts as much at every score.
pub fn resignation_cost(query: &Query, hint: &ResignationHint) -> f32 {
    // The hint is the opponent's: what he gains by accepting is what the resigner loses.
    let in_mwc = hint.accepting - hint.playing_on;
    if !hint.mwc {
        return in_mwc;
    }
    let ctx = query.with_question(Question::Cube).cube_context();
    match (
        ctx.mwc_to_equity(1.0 - hint.playing_on),
        ctx.mwc_to_equity(1.0 - hint.accepting),
    ) {
        (Some(playing_on), Some(resigning)) if playing_on.is_finite() && resigning.is_finite() => {
            playing_on - resigning
        }
        _ => in_mwc,
    }
}

/// The smallest offer above `rejected` the opponent accepts at `settings`, with its cost to the
/// resigner.
fn smallest_accepted(
    search: &mut Search,
    query: &Query,
    rejected: Option<Resignation>,
    settings: &EvalSettings,
) -> Option<(Resignation, f32)> {
    for offer in OFFERS {
        if rejected.is_some_and(|r| offer <= r) {
            continue;
        }
        let answer = opponent_answer(search, query, offer, settings);
        if answer.accept {
            return Some((offer, resignation_cost(query, &answer)));
        }
    }
    None
}

/// The largest resignation `player` has offered and had rejected in the game being played
/// (`None` if none): the rules let him offer only more in this game.
pub fn rejected_offer(game: &Game, player: Player) -> Option<Resignation> {
    let log = game.current_record()?;
    if log.outcome.is_some() {
        return None;
    }
    log.events
        .iter()
        .filter_map(|e| match e {
            Event::ResignationRejected {
                player: answerer,
                resignation,
            } if *answerer == player.other() => Some(*resignation),
            _ => None,
        })
        .max()
}
