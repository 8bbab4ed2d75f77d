//! A computer player: decides the next action of a [`Game`] with the [`Search`] at a playing
//! level, cubeful and match-aware.
//!
//! Every decision is the best action of the one hint function, [`hint::hint`], so the bot
//! decides exactly as the hints of every front end advise:
//!
//! * double when the cube decision is a proper double (`Double, take`, `Double, pass`,
//!   `Redouble, …`, `Double, beaver`); never when too good, optional or not available;
//! * take, drop or beaver from the doubler's double/take equity; answers to a beaver or
//!   raccoon compare the taker's equity with the cube doubled on the side of the player first
//!   doubled;
//! * play the best play at the level;
//! * accept a resignation when what is offered is worth at least as much as playing on
//!   (cubeful equity in money play, match winning chances in a match), judged without the
//!   noise of the weaker levels;
//! * offer to resign, before the roll or after it, the smallest resignation the opponent
//!   accepts when it costs the bot nothing: the bot has no chance left and what the opponent
//!   wins is as good as settled ([`resign`] has the rule). An offer the bot makes is one it
//!   accepts itself in the mirrored position.
//!
//! [`Bot::choose`] (from a [`Game`]) and [`Bot::decide_or_resign`] (from a [`Query`], as a
//! worker thread gets it) make every decision, resignations included; [`Bot::decide`] makes
//! every decision except offering to resign. The functions below ask the same questions about a
//! bare position and [`MatchState`] (as a FIBS board line or a UBGI context gives them).

use crate::analysis::hint::{self, Hint, Query, Question};
use crate::analysis::resign;
use crate::cube::Response;
use crate::game::match_state::{MatchState, Player, Resignation};
use crate::game::{Action, Decision, Game};
use crate::rules::dice::Dice;
use crate::rules::movegen::LegalMove;
use crate::rules::position::Position;
use crate::search::{EvalSettings, Level, Search};

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
    ///
    /// Before the roll and with the dice to play, the action is [`Action::Resign`] when the
    /// bot should offer to resign ([`Bot::resignation_offer`]), never an offer the opponent
    /// has rejected before in this game; otherwise it is [`Bot::decide`]'s.
    pub fn choose(&self, game: &Game, search: &mut Search) -> Option<(Player, Action)> {
        let query = Query::from_game(game)?;
        let may_double = matches!(
            game.decision(),
            Decision::Roll {
                may_double: true,
                ..
            }
        );
        let rejected = resign::rejected_offer(game, query.player());
        self.decide_or_resign(&query, may_double, rejected, search)
    }

    /// [`Bot::decide`], but first, when the player on roll is about to roll or to play his
    /// dice, whether he offers to resign: then the action is [`Action::Resign`]. `rejected` is
    /// the largest offer of that player the opponent has rejected in this game
    /// ([`resign::rejected_offer`] of the game), which he may not repeat. This is
    /// [`Bot::choose`] for a caller that holds only the query (a worker thread).
    pub fn decide_or_resign(
        &self,
        query: &Query,
        may_double: bool,
        rejected: Option<Resignation>,
        search: &mut Search,
    ) -> Option<(Player, Action)> {
        if let Some(offer) = self.resignation_offer(query, rejected, search) {
            return Some((query.player(), Action::Resign(offer)));
        }
        self.decide(query, may_double, search)
    }

    /// The resignation the player on roll of `query` should offer now, if any: `query` asks
    /// for the cube decision before the roll or the play of the dice; `None` for any other
    /// question. Only offers larger than `rejected` are considered. See [`resign`].
    pub fn resignation_offer(
        &self,
        query: &Query,
        rejected: Option<Resignation>,
        search: &mut Search,
    ) -> Option<Resignation> {
        resign::resignation_offer(search, query, rejected, &self.settings)
    }

    /// The decision `query` asks about, made by this bot from the position, the match state and
    /// the rules alone (what a front end hands a worker thread instead of a whole [`Game`] with
    /// its dice): the player who decides and the action. It never offers to resign (see
    /// [`Bot::decide_or_resign`]). `may_double` is the flag of the game's [`Decision::Roll`]
    /// (the rules let the player on roll double now, the cube is not at its maximum); it only
    /// matters for [`Question::Cube`]. `None` only when the hint has no action, which never
    /// happens for a query [`Query::from_game`] builds.
    pub fn decide(
        &self,
        query: &Query,
        may_double: bool,
        search: &mut Search,
    ) -> Option<(Player, Action)> {
        let player = query.player();
        // Nothing to think about when the cube is out of reach.
        if query.question == Question::Cube && (!may_double || !query.cube_context().can_double()) {
            return Some((player, Action::Roll));
        }
        let settings = match query.question {
            Question::AnswerResignation(_) => resign::without_noise(&self.settings),
            _ => self.settings,
        };
        let action = hint::hint(search, query, &settings).action()?;
        Some((player, action))
    }
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
    let query = Query {
        position: *position,
        state: *state,
        beavers,
        question: Question::Cube,
    };
    if !query.cube_context().can_double() {
        return false;
    }
    matches!(hint::hint(search, &query, settings), Hint::Cube(h) if h.double)
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
    let query = Query {
        position: *position,
        state: *state,
        beavers: may_beaver,
        question: Question::AnswerDouble { may_beaver },
    };
    match hint::hint(search, &query, settings) {
        Hint::Take(h) => h.response,
        other => unreachable!("a double to answer gets a take hint, not {other:?}"),
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
    let query = Query {
        position: *position,
        state: *state,
        beavers,
        question: Question::Move(dice),
    };
    match hint::hint(search, &query, settings) {
        Hint::Moves(h) => h.moves[0].mv,
        other => unreachable!("a roll to play gets ranked plays, not {other:?}"),
    }
}

/// Whether the player to act (`state.turn`) should accept the opponent's offer to resign
/// `offer`. If `state.dice` is set the resigner has rolled, and playing on is valued after the
/// best play of those dice. Judged at `settings` without noise, as the bot offers
/// resignations ([`resign::without_noise`]).
pub fn accept_resignation(
    search: &mut Search,
    position: &Position,
    state: &MatchState,
    offer: Resignation,
    settings: &EvalSettings,
    beavers: bool,
) -> bool {
    let query = Query {
        position: *position,
        state: *state,
        beavers,
        question: Question::AnswerResignation(offer),
    };
    let settings = resign::without_noise(settings);
    matches!(hint::hint(search, &query, &settings), Hint::Resignation(h) if h.accept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Nets;
    use crate::game::{RandomDice, Rules};
    use std::sync::Arc;

    /// The bot's every decision is the hint's best action (it only skips the search when the
    /// cube is out of reach before the roll), resignations judged without noise; an offer to
    /// resign is the resignation rule's.
    #[test]
    fn the_bot_follows_the_hint() {
        let mut s = Search::new(Arc::new(Nets::embedded()));
        let bot = Bot::new(Level::Beginner);
        for rules in [Rules::money(), Rules::match_to(5)] {
            let mut g = Game::new(rules, Box::new(RandomDice::new(3))).unwrap();
            g.new_game().unwrap();
            let mut checked = 0;
            while let Some((player, action)) = bot.choose(&g, &mut s) {
                let query = Query::from_game(&g).unwrap();
                assert_eq!(query.player(), player);
                let offer = resign::resignation_offer(
                    &mut s,
                    &query,
                    resign::rejected_offer(&g, player),
                    bot.settings(),
                );
                if let Some(r) = offer {
                    assert_eq!(action, Action::Resign(r));
                    g.apply(player, action).unwrap();
                    continue;
                }
                let settings = match query.question {
                    Question::AnswerResignation(_) => resign::without_noise(bot.settings()),
                    _ => *bot.settings(),
                };
                let advised = hint::hint(&mut s, &query, &settings).action().unwrap();
                match g.decision() {
                    Decision::Roll { may_double, .. }
                        if !may_double || !query.cube_context().can_double() =>
                    {
                        assert_eq!(action, Action::Roll);
                        assert_eq!(advised, Action::Roll);
                    }
                    _ => assert_eq!(action, advised, "{:?}", g.decision()),
                }
                g.apply(player, action).unwrap();
                checked += 1;
                assert!(checked < 5_000);
            }
            assert!(g.outcome().is_some() && checked > 10);
        }
    }

    /// Deciding from the query alone (position, match state, rules) is deciding from the game.
    #[test]
    fn deciding_from_a_query_is_choosing_from_the_game() {
        let mut s = Search::new(Arc::new(Nets::embedded()));
        let bot = Bot::new(Level::Beginner);
        let mut g = Game::new(Rules::match_to(3), Box::new(RandomDice::new(11))).unwrap();
        g.new_game().unwrap();
        let mut cube_questions = 0;
        while let Some(chosen) = bot.choose(&g, &mut s) {
            let query = Query::from_game(&g).unwrap();
            let may_double = match g.decision() {
                Decision::Roll { may_double, .. } => {
                    cube_questions += 1;
                    may_double
                }
                _ => false,
            };
            let rejected = resign::rejected_offer(&g, chosen.0);
            assert_eq!(
                bot.decide_or_resign(&query, may_double, rejected, &mut s),
                Some(chosen)
            );
            if !matches!(chosen.1, Action::Resign(_)) {
                assert_eq!(bot.decide(&query, may_double, &mut s), Some(chosen));
            }
            g.apply(chosen.0, chosen.1).unwrap();
        }
        assert!(cube_questions > 3);
        // Before the roll with the cube out of reach the bot rolls without asking the hint.
        let mut g = Game::new(Rules::match_to(3), Box::new(RandomDice::new(5))).unwrap();
        g.new_game().unwrap();
        while !matches!(g.decision(), Decision::Roll { .. }) {
            let (player, action) = bot.choose(&g, &mut s).unwrap();
            g.apply(player, action).unwrap();
        }
        let query = Query::from_game(&g).unwrap();
        assert_eq!(
            bot.decide(&query, false, &mut s),
            Some((query.player(), Action::Roll))
        );
    }
}
