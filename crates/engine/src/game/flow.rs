//! Who acts next: what a front end should do now with a [`Game`], given which players the
//! computer plays and how the routine steps are handled.
//!
//! [`next`] is the one answer every front end asks for after each change: a person decides
//! ([`Next::HumanDecides`]), the bot decides ([`Next::BotDecides`]), a routine step happens by
//! itself (an automatic roll, the next game of a match), the dice are to be entered by hand, or
//! nothing happens until the user starts something (the game or the match is over). It looks
//! only at the game and the [`Flow`], so it is deterministic.
//!
//! ```
//! use cubeful_engine::game::flow::{next, Flow, Next};
//! use cubeful_engine::game::{Decision, Game, Rules, ScriptedDice};
//! use cubeful_engine::{Dice, Player};
//!
//! // O (player 0) is the computer; X rolls 5-2 at the opening and moves first.
//! let dice = Box::new(ScriptedDice::parse("25").unwrap());
//! let mut game = Game::new(Rules::match_to(3), dice).unwrap();
//! game.new_game().unwrap();
//! let flow = Flow::against_computer(Player::Zero);
//! let dice = Dice::new(5, 2).unwrap();
//! let to_move = Decision::Move { player: Player::One, dice };
//! assert_eq!(next(&game, &flow), Next::HumanDecides(to_move));
//! game.play_text(Player::One, "13/8 13/11").unwrap();
//! let bot_rolls = matches!(
//!     next(&game, &flow),
//!     Next::BotDecides(Decision::Roll { player: Player::Zero, .. })
//! );
//! assert!(bot_rolls);
//! ```

use crate::game::match_state::Player;
use crate::game::{Decision, Game};

/// Who plays which side and how the routine steps are handled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flow {
    /// The computer plays player 0 (`[0]`) and/or player 1 (`[1]`); people play the others.
    pub computer: [bool; 2],
    /// Roll for a person who cannot double: with nothing to decide before the roll, the roll
    /// happens by itself (GNU Backgammon's "automatic roll").
    pub auto_roll: bool,
    /// The dice are entered by hand: rolls that happen by themselves and the opening roll wait
    /// for them ([`Next::EnterDice`]).
    pub manual_dice: bool,
    /// Start the next game by itself when one ends and the match goes on. A money session
    /// between two computer players never does: it has no end.
    pub auto_next_game: bool,
}

impl Flow {
    /// A person (player 1, X) against the computer playing `computer`, nothing automatic.
    pub fn against_computer(computer: Player) -> Flow {
        let mut flow = Flow::default();
        flow.computer[computer.index()] = true;
        flow
    }

    /// The computer plays `player`.
    pub fn is_computer(&self, player: Player) -> bool {
        self.computer[player.index()]
    }

    /// At least one person plays.
    pub fn has_human(&self) -> bool {
        self.computer.contains(&false)
    }
}

/// What happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// A person has to make this decision ([`Decision::Roll`], [`Decision::Move`],
    /// [`Decision::AnswerDouble`] or [`Decision::AnswerResignation`]): wait for him.
    HumanDecides(Decision),
    /// The computer has to make this decision: ask the bot and apply its action.
    BotDecides(Decision),
    /// Roll for this player now: he is a person who cannot double ([`Flow::auto_roll`]).
    AutoRoll(Player),
    /// The opening roll is to be thrown (by either player, e.g. on a click).
    OpeningRoll,
    /// The dice are entered by hand ([`Flow::manual_dice`]): the opening roll (`None`), or
    /// the roll of this person who cannot double (with [`Flow::auto_roll`]).
    EnterDice(Option<Player>),
    /// A game is over and the match goes on: start the next game now
    /// ([`Flow::auto_next_game`]).
    NextGame,
    /// No game is being played (none has started, or the last one is over and the next one is
    /// not started by itself): wait for the user to start one.
    GameOver,
    /// The match is over: this player won it.
    MatchOver(Player),
}

impl Next {
    /// The player who acts (or is rolled for), if one does.
    pub fn player(&self) -> Option<Player> {
        match *self {
            Next::HumanDecides(d) | Next::BotDecides(d) => d.player(),
            Next::AutoRoll(p) | Next::EnterDice(Some(p)) => Some(p),
            Next::OpeningRoll
            | Next::EnterDice(None)
            | Next::NextGame
            | Next::GameOver
            | Next::MatchOver(_) => None,
        }
    }

    /// The person who has to decide now, if one has to.
    pub fn human(&self) -> Option<Player> {
        match *self {
            Next::HumanDecides(d) => d.player(),
            _ => None,
        }
    }
}

/// What happens next in `game` under `flow`.
pub fn next(game: &Game, flow: &Flow) -> Next {
    match game.decision() {
        Decision::MatchOver { winner } => Next::MatchOver(winner),
        Decision::NewGame => {
            // A game has been played (none has while the match has not started).
            let finished = game.outcome().is_some();
            let endless = game.rules().is_money() && !flow.has_human();
            if flow.auto_next_game && finished && !endless {
                Next::NextGame
            } else {
                Next::GameOver
            }
        }
        Decision::OpeningRoll if flow.manual_dice => Next::EnterDice(None),
        Decision::OpeningRoll => Next::OpeningRoll,
        decision @ Decision::Roll { player, may_double } => {
            if flow.is_computer(player) {
                Next::BotDecides(decision)
            } else if flow.auto_roll && !may_double {
                if flow.manual_dice {
                    Next::EnterDice(Some(player))
                } else {
                    Next::AutoRoll(player)
                }
            } else {
                Next::HumanDecides(decision)
            }
        }
        decision @ (Decision::Move { player, .. }
        | Decision::AnswerDouble { player, .. }
        | Decision::AnswerResignation { player, .. }) => {
            if flow.is_computer(player) {
                Next::BotDecides(decision)
            } else {
                Next::HumanDecides(decision)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::match_state::{CubeOwner, GameState, MatchState, Resignation};
    use crate::game::{Action, Rules, ScriptedDice};
    use crate::rules::dice::Dice;
    use crate::rules::position::Position;

    const O: Player = Player::Zero;
    const X: Player = Player::One;

    fn game(rules: Rules, rolls: &str) -> Game {
        Game::new(rules, Box::new(ScriptedDice::parse(rolls).unwrap())).unwrap()
    }

    fn dice(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    const PEOPLE: Flow = Flow {
        computer: [false, false],
        auto_roll: false,
        manual_dice: false,
        auto_next_game: false,
    };

    #[test]
    fn who_decides_follows_the_players() {
        // X throws 5 to O's 2: X moves first.
        let mut g = game(Rules::match_to(3), "25");
        assert_eq!(next(&g, &PEOPLE), Next::GameOver, "no game started yet");
        g.new_game().unwrap();
        let mv = Decision::Move {
            player: X,
            dice: dice(5, 2),
        };
        assert_eq!(next(&g, &PEOPLE), Next::HumanDecides(mv));
        assert_eq!(next(&g, &PEOPLE).human(), Some(X));
        let bot_x = Flow {
            computer: [false, true],
            ..PEOPLE
        };
        assert_eq!(next(&g, &bot_x), Next::BotDecides(mv));
        assert_eq!(next(&g, &bot_x).human(), None);
        assert_eq!(next(&g, &bot_x).player(), Some(X));
        g.play_text(X, "13/8 13/11").unwrap();
        let roll = Decision::Roll {
            player: O,
            may_double: true,
        };
        assert_eq!(next(&g, &bot_x), Next::HumanDecides(roll));
        assert_eq!(next(&g, &Flow::against_computer(O)), Next::BotDecides(roll));
        // Automatic rolls only for a person who cannot double.
        let auto = Flow {
            auto_roll: true,
            ..PEOPLE
        };
        assert_eq!(next(&g, &auto), Next::HumanDecides(roll));
        // A double: the answer is the doubled player's, person or computer.
        g.apply(O, Action::Double).unwrap();
        let answer = Decision::AnswerDouble {
            player: X,
            cube: 2,
            may_beaver: false,
        };
        assert_eq!(next(&g, &PEOPLE), Next::HumanDecides(answer));
        assert_eq!(next(&g, &bot_x), Next::BotDecides(answer));
        g.apply(X, Action::Take).unwrap();
        // O rolls again and cannot double now (X owns the cube): rolled for him with auto_roll,
        // or asked for the dice when they are entered by hand.
        let cannot = Decision::Roll {
            player: O,
            may_double: false,
        };
        assert_eq!(next(&g, &PEOPLE), Next::HumanDecides(cannot));
        assert_eq!(next(&g, &auto), Next::AutoRoll(O));
        let manual = Flow {
            manual_dice: true,
            ..auto
        };
        assert_eq!(next(&g, &manual), Next::EnterDice(Some(O)));
        assert_eq!(
            next(&g, &Flow::against_computer(O)),
            Next::BotDecides(cannot)
        );
        // A resignation is answered by the resigner's opponent.
        g.apply(O, Action::Resign(Resignation::Single)).unwrap();
        let offer = Decision::AnswerResignation {
            player: X,
            resignation: Resignation::Single,
        };
        assert_eq!(next(&g, &PEOPLE), Next::HumanDecides(offer));
        assert_eq!(next(&g, &bot_x), Next::BotDecides(offer));
    }

    #[test]
    fn the_opening_roll_and_manual_dice() {
        // No dice in the source: the opening roll waits.
        let mut g = game(Rules::money(), "");
        g.new_game().unwrap();
        assert_eq!(g.decision(), Decision::OpeningRoll);
        assert_eq!(next(&g, &PEOPLE), Next::OpeningRoll);
        let manual = Flow {
            manual_dice: true,
            ..PEOPLE
        };
        assert_eq!(next(&g, &manual), Next::EnterDice(None));
        assert_eq!(next(&g, &manual).player(), None);
    }

    #[test]
    fn games_and_matches_end() {
        // X wins a 1-point match when O drops the first double.
        let mut g = game(Rules::match_to(2), "25");
        g.new_game().unwrap();
        g.play_text(X, "13/8 13/11").unwrap();
        g.apply(O, Action::Double).unwrap();
        g.apply(X, Action::Drop).unwrap();
        let auto = Flow {
            auto_next_game: true,
            ..PEOPLE
        };
        // The match goes on at 1-0: the next game starts by itself only when asked to.
        assert_eq!(next(&g, &PEOPLE), Next::GameOver);
        assert_eq!(next(&g, &auto), Next::NextGame);
        let bots = Flow {
            computer: [true, true],
            ..auto
        };
        assert_eq!(next(&g, &bots), Next::NextGame, "a match between bots ends");
        // The match is over once a player reaches the length.
        let mut state = MatchState {
            score: [0, 1],
            on_roll: O,
            turn: O,
            crawford: true,
            ..MatchState::new_match(2)
        };
        state.game_state = GameState::Playing;
        let mut g = Game::from_position(
            Rules::match_to(2),
            Position::starting(),
            state,
            Box::new(ScriptedDice::parse("").unwrap()),
        )
        .unwrap();
        g.apply(O, Action::Resign(Resignation::Single)).unwrap();
        g.apply(X, Action::AcceptResignation).unwrap();
        assert_eq!(next(&g, &auto), Next::MatchOver(X));
        assert_eq!(next(&g, &bots), Next::MatchOver(X));
    }

    #[test]
    fn money_sessions_between_bots_do_not_go_on_by_themselves() {
        let mut g = game(Rules::money(), "25");
        g.new_game().unwrap();
        g.play_text(X, "13/8 13/11").unwrap();
        g.apply(O, Action::Double).unwrap();
        g.apply(X, Action::Drop).unwrap();
        assert_eq!(g.cube_owner(), CubeOwner::Centered);
        let bots = Flow {
            computer: [true, true],
            auto_next_game: true,
            ..PEOPLE
        };
        assert_eq!(next(&g, &bots), Next::GameOver);
        let one_human = Flow {
            computer: [true, false],
            ..bots
        };
        assert_eq!(next(&g, &one_human), Next::NextGame);
    }
}
