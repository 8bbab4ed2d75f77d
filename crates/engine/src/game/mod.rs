//! Playing a match or a money session: a typed, validated state machine of the whole game of
//! backgammon, cube and score included.
//!
//! A [`Game`] holds a match to N points or a money session ([`Rules`]), its score, the game being
//! played and the record of every game so far. Players act through [`Game::apply`] (or the
//! shorthand methods [`Game::roll`], [`Game::double`], [`Game::play`], …), naming the player who
//! acts; every command either succeeds and returns the [`Event`]s it caused, or fails with a
//! [`GameError`] that says why and leaves the game exactly as it was.
//!
//! The rules, as GNU Backgammon applies them:
//!
//! * **Opening roll.** Each player throws one die; equal dice are thrown again; the player with
//!   the higher die starts and plays both dice. The opening throw is drawn from the game's
//!   [`DiceSource`] as one [`Dice`]: first die player 0's (O's), second die player 1's (X's).
//! * **Turns.** Before rolling, the player on roll may double (if he has access to the cube),
//!   resign, or roll. After the roll he must play a legal move ([`crate::rules::movegen`]); a roll that
//!   cannot be played passes the turn at once ([`Event::CannotMove`]).
//! * **Cube.** A doubled player takes (and owns the cube at twice the value), drops (and loses the
//!   game at the current value), or — in money play with beavers — beavers: takes and at once
//!   redoubles, keeping the cube on his side; the doubler may then take, drop or raccoon (beaver
//!   back), up to [`MAX_BEAVERS`] times in a row. Whatever the chain, the cube ends up owned by
//!   the player who was doubled first, and the doubler rolls. The cube goes up to
//!   2^[`MAX_CUBE_LOG2`].
//! * **Match play.** No doubling in the Crawford game (the first game after a player reaches
//!   match point, when [`Rules::crawford`] is on); doubling is free again in the post-Crawford
//!   games. Beavers and the Jacoby rule do not apply. The match ends when a player reaches the
//!   match length.
//! * **Money play.** Under the Jacoby rule ([`Rules::jacoby`]) gammons and backgammons count as
//!   single games while the cube is centred (nobody has doubled).
//! * **Scoring.** A game won by bearing off scores 1, 2 or 3 (single, gammon, backgammon) times
//!   the cube; a dropped double scores the cube value before the double; an accepted resignation
//!   scores what was resigned times the cube.
//! * **Resignations.** The player who has to act may offer to resign a single game, a gammon or
//!   a backgammon; the opponent accepts (the game ends) or rejects (play goes on where it
//!   stopped). A rejected offer cannot be repeated at the same or a lower value in the same game.
//!
//! Every game is written into a [`MatchRecord`] as it is played ([`Game::record`]); a record
//! (read from a file, or cut at an earlier action) is played on from its end with
//! [`Game::from_record`].
//!
//! The position ([`Game::position`]) is always oriented to the player on roll, and
//! [`Game::match_state`] is everything a GNU Backgammon Match ID holds, so
//! `gnubg_id::encode(&game.position(), &game.match_state())` is the current position's ID.
//! [`Game::decision`] says who has to decide what next; [`crate::analysis::bot::Bot`] makes
//! those decisions for a computer player.
//!
//! ```
//! use cubeful_engine::game::{Action, Decision, Game, Rules, ScriptedDice};
//! use cubeful_engine::{Dice, Player};
//!
//! // A 3-point match; the opening roll is 3 for O, 1 for X, then X rolls 5-2.
//! let dice = ScriptedDice::parse("31 52").unwrap();
//! let mut game = Game::new(Rules::match_to(3), Box::new(dice)).unwrap();
//! game.new_game().unwrap();
//! assert_eq!(game.decision(), Decision::Move { player: Player::Zero, dice: Dice::new(3, 1).unwrap() });
//! game.play_text(Player::Zero, "8/5 6/5").unwrap();
//! // X may not move before rolling, and O may not roll for X.
//! assert!(game.play_text(Player::One, "13/8 13/11").is_err());
//! assert!(game.roll(Player::Zero).is_err());
//! game.apply(Player::One, Action::Roll).unwrap();
//! game.play_text(Player::One, "13/8 13/11").unwrap();
//! assert_eq!(game.to_act(), Some(Player::Zero));
//! ```

pub mod flow;
pub mod match_state;
pub mod record;
mod source;

use thiserror::Error;

pub use source::{splitmix64, DiceSource, RandomDice, ScriptedDice};

use crate::formats::notation::{format_move, parse_move, MoveParseError};
use crate::game::match_state::{CubeOwner, GameState, MatchState, Player, Resignation};
use crate::game::record::replay::ReplayError;
use crate::game::record::{
    ActionAnalysis, Entry, GameRecord, MatchInfo, MatchRecord, RecordAction, Setup,
};
use crate::rules::dice::Dice;
use crate::rules::movegen::{legal_moves, LegalMove};
use crate::rules::moves::Move;
use crate::rules::position::{Position, Side, WinKind, BAR, OFF};

/// The largest cube: 2^15 = 32768, the largest a Match ID can hold.
pub const MAX_CUBE_LOG2: u8 = 15;

/// Beavers and raccoons allowed in a row after one double (GNU Backgammon's default).
pub const MAX_BEAVERS: u8 = 3;

/// The longest match (GNU Backgammon's limit).
pub const MAX_MATCH_LENGTH: u16 = 64;

/// Ties of the opening roll drawn in one go before giving up (only a broken dice source ties
/// that often).
const MAX_OPENING_TIES: usize = 100;

/// The rules of a match or money session.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Match length in points; 0 for a money session.
    pub match_length: u16,
    /// Match play: the Crawford rule is in use.
    pub crawford: bool,
    /// Money play: the Jacoby rule is in use.
    pub jacoby: bool,
    /// Money play: beavers and raccoons are allowed.
    pub beavers: bool,
}

impl Rules {
    /// A money session with GNU Backgammon's default rules: Jacoby rule and beavers.
    pub fn money() -> Rules {
        Rules {
            match_length: 0,
            crawford: true,
            jacoby: true,
            beavers: true,
        }
    }

    /// A match to `length` points with the Crawford rule.
    pub fn match_to(length: u16) -> Rules {
        Rules {
            match_length: length,
            crawford: true,
            jacoby: false,
            beavers: false,
        }
    }

    /// True for a money session.
    pub fn is_money(&self) -> bool {
        self.match_length == 0
    }

    /// The Jacoby rule applies (money play with the rule on).
    pub fn jacoby_applies(&self) -> bool {
        self.is_money() && self.jacoby
    }

    /// Beavers are allowed (money play with the rule on).
    pub fn beavers_apply(&self) -> bool {
        self.is_money() && self.beavers
    }

    fn validate(&self) -> Result<(), GameError> {
        if self.match_length > MAX_MATCH_LENGTH {
            return Err(GameError::InvalidRules(format!(
                "a match is at most {MAX_MATCH_LENGTH} points long, not {}",
                self.match_length
            )));
        }
        Ok(())
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::money()
    }
}

/// Something a player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Roll the dice (also the opening roll, which either player may throw).
    Roll,
    /// Offer a double (or redouble) before rolling.
    Double,
    /// Accept the double on offer.
    Take,
    /// Refuse the double on offer and lose the game at the current cube.
    Drop,
    /// Take the double and at once redouble, keeping the cube (money play with beavers; after a
    /// beaver the same action is the doubler's raccoon).
    Beaver,
    /// Play the rolled dice. The steps are checked by the position they lead to, which must be
    /// one of [`legal_moves`].
    Move(Move),
    /// Offer to resign.
    Resign(Resignation),
    /// Accept the resignation on offer.
    AcceptResignation,
    /// Reject the resignation on offer.
    RejectResignation,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Won by bearing off all checkers: single game, gammon or backgammon.
    BearOff(WinKind),
    /// The loser dropped a double.
    Dropped,
    /// The loser resigned and the winner accepted.
    Resigned(Resignation),
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameOutcome {
    pub winner: Player,
    /// Points won: the game's value times the cube.
    pub points: u32,
    pub ending: Ending,
    /// The Jacoby rule cut a gammon or backgammon to a single game (centred cube, money play).
    pub jacoby: bool,
}

/// What happened. Commands return their events in order; the same events make up the record of
/// each game ([`GameLog::events`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Game `number` (counting from 1) starts at `score`.
    GameStarted {
        number: usize,
        score: [u16; 2],
        crawford: bool,
    },
    /// Both players threw `die` for the opening roll: they throw again.
    OpeningTie { die: u8 },
    /// The opening roll: `dice` holds player 0's die first and player 1's second; the higher one
    /// starts and plays both.
    OpeningRoll { dice: Dice, starter: Player },
    /// `player` rolled `dice`.
    Rolled { player: Player, dice: Dice },
    /// `player` played `mv` with `dice`. `before` is the position before the move, seen from the
    /// mover; `text` the move in GNU Backgammon notation.
    Moved {
        player: Player,
        dice: Dice,
        mv: Move,
        before: Position,
        text: String,
    },
    /// `player` rolled `dice` and cannot move any checker: the turn passes.
    CannotMove { player: Player, dice: Dice },
    /// `player` offers the cube at `cube`.
    Doubled { player: Player, cube: u32 },
    /// `player` accepted: the cube is at `cube`.
    Took { player: Player, cube: u32 },
    /// `player` took and at once redoubled to `cube` (`raccoon` when it answers a beaver).
    Beavered {
        player: Player,
        cube: u32,
        raccoon: bool,
    },
    /// `player` refused the double and gives up `points`.
    Dropped { player: Player, points: u32 },
    /// `player` offers to resign.
    ResignationOffered {
        player: Player,
        resignation: Resignation,
    },
    /// `player` accepted the opponent's resignation.
    ResignationAccepted {
        player: Player,
        resignation: Resignation,
    },
    /// `player` rejected the opponent's resignation; play goes on.
    ResignationRejected {
        player: Player,
        resignation: Resignation,
    },
    /// The game is over.
    GameOver(GameOutcome),
    /// The match is over.
    MatchOver { winner: Player, score: [u16; 2] },
}

/// Who has to decide what now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// No game is being played: start one with [`Game::new_game`].
    NewGame,
    /// The match is over.
    MatchOver { winner: Player },
    /// The opening roll is to be thrown (either player may roll).
    OpeningRoll,
    /// `player` is on roll and may roll, or double if `may_double`.
    Roll { player: Player, may_double: bool },
    /// `player` must play `dice`.
    Move { player: Player, dice: Dice },
    /// `player` must take, drop or (if `may_beaver`) beaver a double; taking puts the cube at
    /// `cube`.
    AnswerDouble {
        player: Player,
        cube: u32,
        may_beaver: bool,
    },
    /// `player` must accept or reject the opponent's offer to resign.
    AnswerResignation {
        player: Player,
        resignation: Resignation,
    },
}

impl Decision {
    /// The player who has to decide, if a player has to.
    pub fn player(&self) -> Option<Player> {
        match *self {
            Decision::NewGame | Decision::MatchOver { .. } | Decision::OpeningRoll => None,
            Decision::Roll { player, .. }
            | Decision::Move { player, .. }
            | Decision::AnswerDouble { player, .. }
            | Decision::AnswerResignation { player, .. } => Some(player),
        }
    }
}

/// The record of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLog {
    /// 1 for the first game of the match or session.
    pub number: usize,
    /// The score when the game started.
    pub score: [u16; 2],
    /// This is the Crawford game.
    pub crawford: bool,
    /// The position and match state the game was set up from, when it did not start from the
    /// opening position (see [`Game::from_position`]).
    pub setup: Option<(Position, MatchState)>,
    /// Everything that happened, in order.
    pub events: Vec<Event>,
    /// How the game ended, once it has.
    pub outcome: Option<GameOutcome>,
}

/// Why a command was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("no game in progress (start a new game)")]
    NoGame,
    #[error("a game is in progress: finish it first")]
    GameInProgress,
    #[error("the game is over (start a new game)")]
    GameOver,
    #[error("the match is over: {winner} won it")]
    MatchOver { winner: Player },
    #[error("it is {to_act}'s turn, not {player}'s")]
    NotYourTurn { player: Player, to_act: Player },
    #[error("throw the opening roll first")]
    OpeningRollPending,
    #[error("you must roll first")]
    MustRollFirst,
    #[error("you have already rolled the dice")]
    AlreadyRolled,
    #[error("a double is on offer: it must be taken or dropped first")]
    DoublePending,
    #[error("no double has been offered")]
    NoDoubleOffered,
    #[error("a resignation is on offer: it must be accepted or rejected first")]
    ResignationPending,
    #[error("no resignation has been offered")]
    NoResignationOffered,
    #[error("the cube is owned by your opponent")]
    CubeOwnedByOpponent,
    #[error("there is no doubling in the Crawford game")]
    CrawfordGame,
    #[error("the cube is already at {0}; it cannot go higher")]
    CubeAtMaximum(u32),
    #[error("beavers are not allowed in match play")]
    BeaverInMatch,
    #[error("beavers are not allowed in this session")]
    BeaversOff,
    #[error("only {0} beavers and raccoons are allowed in a row")]
    TooManyBeavers(u8),
    #[error("that move is not legal: {0}")]
    IllegalMove(MoveParseError),
    #[error("that move is not legal: it does not lead to a position the roll {dice} allows")]
    NotALegalMove { dice: Dice },
    #[error("the offer to resign {} was rejected already; offer more or play on", resignation_name(*.0))]
    ResignationRejectedBefore(Resignation),
    #[error("there are no dice to roll: enter the roll")]
    NoDice,
    #[error("invalid rules: {0}")]
    InvalidRules(String),
    #[error("cannot set up that game: {0}")]
    InvalidSetup(String),
}

/// "a single game", "a gammon", "a backgammon".
pub fn resignation_name(r: Resignation) -> &'static str {
    match r {
        Resignation::Single => "a single game",
        Resignation::Gammon => "a gammon",
        Resignation::Backgammon => "a backgammon",
    }
}

/// The phase within a game being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Turn {
    /// The player on roll may double, resign or roll.
    BeforeRoll,
    /// The player on roll must play these dice.
    Moving(Dice),
    /// A double is on offer. `beavers` counts the beavers and raccoons since the double: even,
    /// the player not on roll answers; odd, the player on roll does.
    Doubled { beavers: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stage {
    /// No game started yet.
    Idle,
    /// A game has started and waits for its opening roll.
    Opening,
    Playing(Turn),
    /// `offer` waits for an answer; play resumes at `resume` if it is rejected. The resigner is
    /// the player who had to act at `resume`.
    Resigned {
        offer: Resignation,
        resume: Turn,
    },
    Over(GameOutcome),
}

/// A match or money session being played. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    score: [u16; 2],
    /// The game being played is the Crawford game.
    crawford_game: bool,
    /// The Crawford game has been played (or is being played).
    crawford_played: bool,
    stage: Stage,
    /// Oriented to `on_roll`.
    position: Position,
    on_roll: Player,
    cube_log2: u8,
    cube_owner: CubeOwner,
    /// The largest resignation each player has had rejected in this game.
    rejected: [Option<Resignation>; 2],
    games: Vec<GameLog>,
    /// The match record, written as the match is played (see [`Game::record`]).
    record: MatchRecord,
    dice: Box<dyn DiceSource>,
}

impl Game {
    /// A new match or session under `rules`, with no game started yet: call
    /// [`Game::new_game`].
    pub fn new(rules: Rules, dice: Box<dyn DiceSource>) -> Result<Game, GameError> {
        rules.validate()?;
        Ok(Game {
            score: [0, 0],
            crawford_game: false,
            crawford_played: false,
            stage: Stage::Idle,
            position: Position::starting(),
            on_roll: Player::One,
            cube_log2: 0,
            cube_owner: CubeOwner::Centered,
            rejected: [None; 2],
            games: Vec::new(),
            record: MatchRecord {
                info: MatchInfo::new([String::new(), String::new()], rules.clone()),
                games: Vec::new(),
            },
            rules,
            dice,
        })
    }

    /// A game in progress set up from a position (oriented to `state.on_roll`) and a match
    /// state, as read from a GNU Backgammon ID or an XGID.
    ///
    /// The match length, score, cube, Crawford flag, dice, pending double or resignation come from
    /// `state` (and, in money play, the Jacoby rule); `rules` gives the rest (Crawford rule,
    /// beavers). The state must describe a game being played whose position is not finished.
    pub fn from_position(
        rules: Rules,
        position: Position,
        state: MatchState,
        dice: Box<dyn DiceSource>,
    ) -> Result<Game, GameError> {
        let setup = |why: &str| Err(GameError::InvalidSetup(why.to_string()));
        let mut rules = rules;
        rules.match_length = state.match_length;
        if state.is_money() {
            rules.jacoby = state.jacoby;
        }
        rules.validate()?;
        match state.game_state {
            GameState::Playing | GameState::NoGame => {}
            _ => return setup("the game in that Match ID is over"),
        }
        if position.result().is_some() {
            return setup("the game in that position is over");
        }
        if !state.is_money() {
            if state.score.iter().any(|&s| s >= state.match_length) {
                return setup("a score is not below the match length");
            }
        } else if state.crawford {
            return setup("a money session has no Crawford game");
        }
        if state.cube_log2 > MAX_CUBE_LOG2 {
            return setup("the cube is too large");
        }
        let base = if state.doubled {
            if state.dice.is_some() {
                return setup("a double is on offer but the dice are rolled");
            }
            if state.turn != state.on_roll {
                Turn::Doubled { beavers: 0 }
            } else if state.is_money() {
                if state.cube_log2 == 0 {
                    return setup("a beaver is on offer but the cube was never turned");
                }
                Turn::Doubled { beavers: 1 }
            } else {
                return setup("a beaver is on offer in match play");
            }
        } else if let Some(dice) = state.dice {
            Turn::Moving(dice)
        } else {
            Turn::BeforeRoll
        };
        let stage = match state.resigned {
            Some(offer) => {
                let resigner = turn_player(base, state.on_roll);
                if state.turn != resigner.other() {
                    return setup("the resignation is not answered by the resigner's opponent");
                }
                Stage::Resigned {
                    offer,
                    resume: base,
                }
            }
            None => {
                if !state.doubled && state.turn != state.on_roll {
                    return setup("the player to act is not the player on roll");
                }
                Stage::Playing(base)
            }
        };
        let one_away =
            !state.is_money() && state.score.iter().any(|&s| s + 1 == state.match_length);
        let crawford_game = state.crawford && !state.is_money();
        let mut game = Game::new(rules, dice)?;
        game.score = state.score;
        game.crawford_game = crawford_game;
        game.crawford_played = crawford_game || one_away;
        game.stage = stage;
        game.position = position;
        game.on_roll = state.on_roll;
        game.cube_log2 = state.cube_log2;
        game.cube_owner = state.cube_owner;
        game.games.push(GameLog {
            number: 1,
            score: state.score,
            crawford: crawford_game,
            setup: Some((position, state)),
            events: Vec::new(),
            outcome: None,
        });
        game.record.games.push(GameRecord {
            score: state.score,
            crawford: crawford_game,
            ..GameRecord::default()
        });
        game.record_state_as_setup();
        Ok(game)
    }

    /// The match recorded in `record`, replayed through the rules and ready to be played on from
    /// its end: the last game goes on where the record stops (or the next game is to be started).
    /// The game's own record ([`Game::record`]) starts as a copy of `record` (with the results of
    /// finished games filled in where the record left them out) and grows as play goes on.
    ///
    /// Every action is checked as [`MatchRecord::replay`] checks it; the first that breaks the
    /// rules is the error. `dice` is the dice source for the rolls to come.
    pub fn from_record(
        record: &MatchRecord,
        dice: Box<dyn DiceSource>,
    ) -> Result<Game, ReplayError> {
        let replay = record.replay()?;
        let mut game = replay.into_game();
        game.dice = dice;
        let mut copy = record.clone();
        for (kept, played) in copy.games.iter_mut().zip(&game.record.games) {
            if kept.result.is_none() {
                kept.result = played.result;
            }
        }
        game.record = copy;
        Ok(game)
    }

    // ------------------------------------------------------------------------------------------
    // Looking at the game
    // ------------------------------------------------------------------------------------------

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The checkers, seen from the player on roll ([`Game::on_roll`]).
    pub fn position(&self) -> Position {
        self.position
    }

    /// The player on roll: the one who rolls (or rolled) the dice of this turn, also while a
    /// double or resignation waits for an answer.
    pub fn on_roll(&self) -> Player {
        self.on_roll
    }

    /// The player who has to act now, if a player has to.
    pub fn to_act(&self) -> Option<Player> {
        self.decision().player()
    }

    /// The score of player 0 and player 1 (including the game just finished).
    pub fn score(&self) -> [u16; 2] {
        self.score
    }

    /// The cube value.
    pub fn cube_value(&self) -> u32 {
        1 << self.cube_log2
    }

    /// Who may double next.
    pub fn cube_owner(&self) -> CubeOwner {
        self.cube_owner
    }

    /// The dice to be played, once rolled.
    pub fn dice(&self) -> Option<Dice> {
        match self.stage {
            Stage::Playing(Turn::Moving(d))
            | Stage::Resigned {
                resume: Turn::Moving(d),
                ..
            } => Some(d),
            _ => None,
        }
    }

    /// The game being played is the Crawford game.
    pub fn is_crawford_game(&self) -> bool {
        self.crawford_game
    }

    /// The game being played comes after the Crawford game (match play, a player at match
    /// point, not the Crawford game).
    pub fn is_post_crawford(&self) -> bool {
        !self.rules.is_money() && !self.crawford_game && self.one_away()
    }

    /// A game is being played (started and not over).
    pub fn in_progress(&self) -> bool {
        matches!(
            self.stage,
            Stage::Opening | Stage::Playing(_) | Stage::Resigned { .. }
        )
    }

    /// The winner of the match, once it is over (never in a money session).
    pub fn match_winner(&self) -> Option<Player> {
        if self.rules.is_money() {
            return None;
        }
        [Player::Zero, Player::One]
            .into_iter()
            .find(|p| self.score[p.index()] >= self.rules.match_length)
    }

    /// The outcome of the game just finished, while no new game has started.
    pub fn outcome(&self) -> Option<GameOutcome> {
        match self.stage {
            Stage::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// The games so far, the current one last.
    pub fn games(&self) -> &[GameLog] {
        &self.games
    }

    /// The record of the current (or last) game.
    pub fn current_record(&self) -> Option<&GameLog> {
        self.games.last()
    }

    /// The match record written as the match is played: one [`GameRecord`] per game started,
    /// one [`Entry`] per action. A roll and the move played with it are one
    /// [`RecordAction::Move`] (the opening roll is the starter's, with both dice, larger first); a
    /// roll not played yet, or followed by a resignation, is a [`RecordAction::Roll`]; edits of
    /// the position, turn, cube or dice ([`Game::set_position`], [`Game::set_turn`],
    /// [`Game::set_cube`], and the set-up of [`Game::from_position`]) are
    /// [`RecordAction::SetUp`]s. Replaying the record ([`MatchRecord::replay`],
    /// [`Game::from_record`]) reaches the same state as the game.
    pub fn record(&self) -> &MatchRecord {
        &self.record
    }

    /// The record, for importers that add what the rules do not produce (match information,
    /// results recorded for games cut short).
    pub(crate) fn record_mut(&mut self) -> &mut MatchRecord {
        &mut self.record
    }

    /// Stores (or, with `None`, clears) the analysis of entry `entry` of game `game` of the
    /// record. Only the analysis slot changes, never an action, so the game goes on exactly as
    /// before. Returns `false` (changing nothing) when there is no such entry.
    pub fn set_analysis(
        &mut self,
        game: usize,
        entry: usize,
        analysis: Option<Box<ActionAnalysis>>,
    ) -> bool {
        match self
            .record
            .games
            .get_mut(game)
            .and_then(|g| g.entries.get_mut(entry))
        {
            Some(slot) => {
                slot.analysis = analysis;
                true
            }
            None => false,
        }
    }

    /// The names of player 0 and player 1, as the record holds them (empty unless set).
    pub fn players(&self) -> &[String; 2] {
        &self.record.info.players
    }

    /// Names player 0 and player 1 in the record.
    pub fn set_players(&mut self, names: [String; 2]) {
        self.record.info.players = names;
    }

    /// The match information of the record (players, event, place, …) for a front end to fill
    /// in. The rules in it follow the game's rules and are overwritten when they change.
    pub fn match_info_mut(&mut self) -> &mut MatchInfo {
        &mut self.record.info
    }

    /// Who has to decide what now.
    pub fn decision(&self) -> Decision {
        match self.stage {
            Stage::Idle => Decision::NewGame,
            Stage::Over(_) => match self.match_winner() {
                Some(winner) => Decision::MatchOver { winner },
                None => Decision::NewGame,
            },
            Stage::Opening => Decision::OpeningRoll,
            Stage::Playing(Turn::BeforeRoll) => Decision::Roll {
                player: self.on_roll,
                may_double: self.check_double_allowed().is_ok(),
            },
            Stage::Playing(Turn::Moving(dice)) => Decision::Move {
                player: self.on_roll,
                dice,
            },
            Stage::Playing(Turn::Doubled { beavers }) => Decision::AnswerDouble {
                player: turn_player(Turn::Doubled { beavers }, self.on_roll),
                cube: self.cube_value() * 2,
                may_beaver: self.check_beaver_allowed(beavers).is_ok(),
            },
            Stage::Resigned { offer, resume } => Decision::AnswerResignation {
                player: turn_player(resume, self.on_roll).other(),
                resignation: offer,
            },
        }
    }

    /// The legal plays of the rolled dice (empty before the roll).
    pub fn legal_moves(&self) -> Vec<LegalMove> {
        match self.stage {
            Stage::Playing(Turn::Moving(dice)) => legal_moves(&self.position, dice),
            _ => Vec::new(),
        }
    }

    /// Whether `player` may double now, and if not, why.
    pub fn can_double(&self, player: Player) -> Result<(), GameError> {
        match self.current_turn()? {
            Turn::BeforeRoll if player == self.on_roll => self.check_double_allowed(),
            Turn::Moving(_) if player == self.on_roll => Err(GameError::AlreadyRolled),
            Turn::Doubled { .. } => Err(GameError::DoublePending),
            _ => Err(GameError::NotYourTurn {
                player,
                to_act: self.on_roll,
            }),
        }
    }

    /// Everything a GNU Backgammon Match ID holds about the current state. After a game ends the
    /// score includes it (capped at the match length).
    pub fn match_state(&self) -> MatchState {
        let (game_state, turn, doubled, resigned, dice) = match self.stage {
            Stage::Idle | Stage::Opening => (GameState::NoGame, self.on_roll, false, None, None),
            Stage::Playing(t) => (
                GameState::Playing,
                turn_player(t, self.on_roll),
                matches!(t, Turn::Doubled { .. }),
                None,
                turn_dice(t),
            ),
            Stage::Resigned { offer, resume } => (
                GameState::Playing,
                turn_player(resume, self.on_roll).other(),
                matches!(resume, Turn::Doubled { .. }),
                Some(offer),
                turn_dice(resume),
            ),
            Stage::Over(outcome) => {
                let (state, resigned) = match outcome.ending {
                    Ending::BearOff(_) => (GameState::Over, None),
                    Ending::Dropped => (GameState::Dropped, None),
                    Ending::Resigned(r) => (GameState::Resigned, Some(r)),
                };
                (state, self.on_roll, false, resigned, None)
            }
        };
        let mut score = self.score;
        if !self.rules.is_money() {
            for s in &mut score {
                *s = (*s).min(self.rules.match_length);
            }
        }
        MatchState {
            cube_log2: self.cube_log2,
            cube_owner: self.cube_owner,
            on_roll: self.on_roll,
            crawford: self.crawford_game,
            game_state,
            turn,
            doubled,
            resigned,
            dice,
            match_length: self.rules.match_length,
            score,
            jacoby: self.rules.jacoby_applies(),
        }
    }

    // ------------------------------------------------------------------------------------------
    // Playing
    // ------------------------------------------------------------------------------------------

    /// Starts the next game (the first one of a new match or session, or the one after a
    /// finished game) and throws its opening roll from the dice source. If the source has no
    /// dice, the game waits for [`Game::roll_dice`].
    pub fn new_game(&mut self) -> Result<Vec<Event>, GameError> {
        match self.stage {
            Stage::Idle | Stage::Over(_) => {}
            _ => return Err(GameError::GameInProgress),
        }
        if let Some(winner) = self.match_winner() {
            return Err(GameError::MatchOver { winner });
        }
        let crawford = self.rules.crawford
            && !self.crawford_played
            && crawford_score(self.score, self.rules.match_length);
        let mut events = Vec::new();
        self.start_game(crawford, 0, &mut events);
        self.opening_from_source(&mut events);
        Ok(events)
    }

    /// Starts the next game at `score` (which need not follow from the games before: the record
    /// being replayed says so), as the Crawford game or not, with the cube at `2^auto_doubles`,
    /// abandoning a game in progress. The opening roll is left to the caller.
    pub(crate) fn begin_game_at(
        &mut self,
        score: [u16; 2],
        crawford: bool,
        auto_doubles: u8,
    ) -> Result<Vec<Event>, GameError> {
        let bad = |why: &str| Err(GameError::InvalidSetup(why.to_string()));
        if self.rules.is_money() {
            if crawford {
                return bad("a money session has no Crawford game");
            }
        } else if score.iter().any(|&s| s >= self.rules.match_length) {
            return bad("a score is not below the match length");
        }
        if auto_doubles > MAX_CUBE_LOG2 {
            return bad("too many automatic doubles");
        }
        let previous = self.score;
        self.score = score;
        let one_away = self.one_away();
        if crawford && !one_away {
            self.score = previous;
            return bad("the Crawford game needs a player at match point");
        }
        self.crawford_played = crawford || one_away;
        let mut events = Vec::new();
        self.start_game(crawford, auto_doubles, &mut events);
        Ok(events)
    }

    /// Resets the board and cube for a new game and records its start.
    fn start_game(&mut self, crawford: bool, auto_doubles: u8, events: &mut Vec<Event>) {
        self.crawford_played |= crawford;
        self.crawford_game = crawford;
        self.position = Position::starting();
        self.on_roll = Player::One;
        self.cube_log2 = auto_doubles;
        self.cube_owner = CubeOwner::Centered;
        self.rejected = [None; 2];
        self.stage = Stage::Opening;
        self.games.push(GameLog {
            number: self.games.len() + 1,
            score: self.score,
            crawford,
            setup: None,
            events: Vec::new(),
            outcome: None,
        });
        self.emit(
            events,
            Event::GameStarted {
                number: self.games.len(),
                score: self.score,
                crawford,
            },
        );
        if let Some(game) = self.record.games.last_mut() {
            game.auto_doubles = auto_doubles;
        }
    }

    /// Applies `action` by `player`.
    pub fn apply(&mut self, player: Player, action: Action) -> Result<Vec<Event>, GameError> {
        match action {
            Action::Roll => self.roll(player),
            Action::Double => self.double(player),
            Action::Take => self.take(player),
            Action::Drop => self.drop_double(player),
            Action::Beaver => self.beaver(player),
            Action::Move(mv) => self.play(player, &mv),
            Action::Resign(r) => self.resign(player, r),
            Action::AcceptResignation => self.accept_resignation(player),
            Action::RejectResignation => self.reject_resignation(player),
        }
    }

    /// `player` rolls the dice from the dice source (or throws the opening roll).
    pub fn roll(&mut self, player: Player) -> Result<Vec<Event>, GameError> {
        if self.stage == Stage::Opening {
            let mut events = Vec::new();
            if !self.opening_from_source(&mut events) {
                return Err(GameError::NoDice);
            }
            return Ok(events);
        }
        self.check_roll(player)?;
        let dice = self.dice.roll().ok_or(GameError::NoDice)?;
        let mut events = Vec::new();
        self.do_roll(dice, &mut events);
        Ok(events)
    }

    /// `player` rolls `dice` given by the caller (manual dice). For the opening roll the first
    /// die is player 0's and the second player 1's; equal dice are a tie to be thrown again.
    pub fn roll_dice(&mut self, player: Player, dice: Dice) -> Result<Vec<Event>, GameError> {
        let mut events = Vec::new();
        if self.stage == Stage::Opening {
            self.opening(dice, &mut events);
            return Ok(events);
        }
        self.check_roll(player)?;
        self.do_roll(dice, &mut events);
        Ok(events)
    }

    /// The opening turn with any dice, a double included (a record may hold an opening roll
    /// corrected by hand): `starter` plays `dice`.
    pub(crate) fn open_with(
        &mut self,
        starter: Player,
        dice: Dice,
    ) -> Result<Vec<Event>, GameError> {
        if self.stage != Stage::Opening {
            self.current_turn()?;
            return Err(GameError::AlreadyRolled);
        }
        self.on_roll = starter;
        let mut events = Vec::new();
        self.do_roll(dice, &mut events);
        Ok(events)
    }

    /// `player` offers a double.
    pub fn double(&mut self, player: Player) -> Result<Vec<Event>, GameError> {
        self.can_double(player)?;
        self.stage = Stage::Playing(Turn::Doubled { beavers: 0 });
        let mut events = Vec::new();
        let cube = self.cube_value() * 2;
        self.emit(&mut events, Event::Doubled { player, cube });
        Ok(events)
    }

    /// `player` takes the double on offer.
    pub fn take(&mut self, player: Player) -> Result<Vec<Event>, GameError> {
        self.answering_double(player)?;
        self.cube_log2 += 1;
        self.cube_owner = CubeOwner::Owned(self.on_roll.other());
        self.stage = Stage::Playing(Turn::BeforeRoll);
        let mut events = Vec::new();
        let cube = self.cube_value();
        self.emit(&mut events, Event::Took { player, cube });
        Ok(events)
    }

    /// `player` drops the double on offer and loses the game at the current cube.
    pub fn drop_double(&mut self, player: Player) -> Result<Vec<Event>, GameError> {
        self.answering_double(player)?;
        let mut events = Vec::new();
        let points = self.cube_value();
        self.emit(&mut events, Event::Dropped { player, points });
        self.finish(player.other(), Ending::Dropped, 1, &mut events);
        Ok(events)
    }

    /// `player` beavers (or raccoons) the double on offer: takes it and at once redoubles.
    pub fn beaver(&mut self, player: Player) -> Result<Vec<Event>, GameError> {
        let beavers = self.answering_double(player)?;
        self.check_beaver_allowed(beavers)?;
        self.cube_log2 += 1;
        self.cube_owner = CubeOwner::Owned(self.on_roll.other());
        self.stage = Stage::Playing(Turn::Doubled {
            beavers: beavers + 1,
        });
        let mut events = Vec::new();
        let cube = self.cube_value() * 2;
        self.emit(
            &mut events,
            Event::Beavered {
                player,
                cube,
                raccoon: beavers > 0,
            },
        );
        Ok(events)
    }

    /// `player` plays the rolled dice with the steps of `mv`.
    pub fn play(&mut self, player: Player, mv: &Move) -> Result<Vec<Event>, GameError> {
        let dice = self.check_move(player)?;
        let legal = legal_moves(&self.position, dice);
        let target = apply_steps(&self.position, mv);
        let Some(found) = legal
            .iter()
            .find(|m| Some(m.position) == target && (m.mv.is_empty() == mv.is_empty()))
        else {
            return Err(GameError::NotALegalMove { dice });
        };
        // Keep the caller's steps when they are the same move (they say how it was played).
        let chosen = LegalMove {
            mv: *mv,
            position: found.position,
        };
        let mut events = Vec::new();
        self.do_move(dice, chosen, &mut events);
        Ok(events)
    }

    /// `player` plays the rolled dice with a move written in any notation
    /// [`parse_move`] reads (`8/5 6/5`, `13/11(2)`, `bar/22*`, … ; empty or `Cannot Move` for a
    /// roll that cannot be played).
    pub fn play_text(&mut self, player: Player, text: &str) -> Result<Vec<Event>, GameError> {
        let dice = self.check_move(player)?;
        let legal = parse_move(&self.position, dice, text).map_err(GameError::IllegalMove)?;
        let mut events = Vec::new();
        self.do_move(dice, legal, &mut events);
        Ok(events)
    }

    /// `player` offers to resign `resignation`. Only the player who has to act may resign.
    pub fn resign(
        &mut self,
        player: Player,
        resignation: Resignation,
    ) -> Result<Vec<Event>, GameError> {
        let turn = self.current_turn()?;
        let to_act = turn_player(turn, self.on_roll);
        if player != to_act {
            return Err(GameError::NotYourTurn { player, to_act });
        }
        if let Some(rejected) = self.rejected[player.index()] {
            if resignation <= rejected {
                return Err(GameError::ResignationRejectedBefore(rejected));
            }
        }
        self.stage = Stage::Resigned {
            offer: resignation,
            resume: turn,
        };
        let mut events = Vec::new();
        self.emit(
            &mut events,
            Event::ResignationOffered {
                player,
                resignation,
            },
        );
        Ok(events)
    }

    /// `player` accepts the resignation on offer: the game ends.
    pub fn accept_resignation(&mut self, player: Player) -> Result<Vec<Event>, GameError> {
        let (offer, _) = self.answering_resignation(player)?;
        let mut events = Vec::new();
        self.emit(
            &mut events,
            Event::ResignationAccepted {
                player,
                resignation: offer,
            },
        );
        self.finish(player, Ending::Resigned(offer), offer as u32, &mut events);
        Ok(events)
    }

    /// `player` rejects the resignation on offer: play goes on where it stopped.
    pub fn reject_resignation(&mut self, player: Player) -> Result<Vec<Event>, GameError> {
        let (offer, resume) = self.answering_resignation(player)?;
        let resigner = player.other();
        let previous = self.rejected[resigner.index()];
        self.rejected[resigner.index()] = Some(previous.map_or(offer, |p| p.max(offer)));
        self.stage = Stage::Playing(resume);
        let mut events = Vec::new();
        self.emit(
            &mut events,
            Event::ResignationRejected {
                player,
                resignation: offer,
            },
        );
        Ok(events)
    }

    // ------------------------------------------------------------------------------------------
    // Editing (setting up positions, manual dice, rule changes)
    // ------------------------------------------------------------------------------------------

    /// Replaces the dice source.
    pub fn set_dice_source(&mut self, dice: Box<dyn DiceSource>) {
        self.dice = dice;
    }

    /// Sets the dice of the current turn: throws the opening roll, rolls for the player on roll,
    /// or replaces a roll not played yet. Returns the events (a roll that cannot be played passes
    /// the turn at once).
    pub fn set_dice(&mut self, dice: Dice) -> Result<Vec<Event>, GameError> {
        let mut events = Vec::new();
        match self.stage {
            Stage::Opening => {
                self.opening(dice, &mut events);
            }
            Stage::Playing(Turn::BeforeRoll) | Stage::Playing(Turn::Moving(_)) => {
                self.do_roll(dice, &mut events);
            }
            _ => {
                self.current_turn()?;
                return Err(GameError::DoublePending);
            }
        }
        Ok(events)
    }

    /// Replaces the checkers of the game in progress (oriented to the player on roll). The game
    /// must not be over in the new position.
    pub fn set_position(&mut self, position: Position) -> Result<(), GameError> {
        if !matches!(self.stage, Stage::Playing(_) | Stage::Resigned { .. }) {
            return Err(GameError::NoGame);
        }
        if position.result().is_some() {
            return Err(GameError::InvalidSetup(
                "the game in that position is over".to_string(),
            ));
        }
        self.position = position;
        self.record_state_as_setup();
        Ok(())
    }

    /// Makes `player` the player on roll, before the roll (the dice of the current turn, if any,
    /// are forgotten). Not while a double or a resignation is on offer.
    pub fn set_turn(&mut self, player: Player) -> Result<(), GameError> {
        match self.current_turn()? {
            Turn::BeforeRoll | Turn::Moving(_) => {}
            Turn::Doubled { .. } => return Err(GameError::DoublePending),
        }
        if player != self.on_roll {
            self.position = self.position.swap();
            self.on_roll = player;
        }
        self.stage = Stage::Playing(Turn::BeforeRoll);
        self.record_state_as_setup();
        Ok(())
    }

    /// Sets the cube of the game in progress: its value (`2^cube_log2`) and who owns it. Not
    /// while a double or a resignation is on offer, and not to a turned cube in the Crawford game.
    pub fn set_cube(&mut self, cube_log2: u8, owner: CubeOwner) -> Result<(), GameError> {
        let dice = match self.current_turn()? {
            Turn::BeforeRoll => None,
            Turn::Moving(dice) => Some(dice),
            Turn::Doubled { .. } => return Err(GameError::DoublePending),
        };
        self.set_up(&Setup {
            position: self.position,
            on_roll: self.on_roll,
            cube_log2,
            cube_owner: owner,
            dice,
        })
        .map(|_| ())
    }

    /// Sets up the game in progress as a record's [`RecordAction::SetUp`] says: the checkers
    /// (seen from `setup.on_roll`), the player on roll, the cube and, if given, the dice that
    /// player has rolled (to be played even if no checker can move: the move is then empty). A
    /// double or resignation on offer is withdrawn; play goes on from the set-up position. Also
    /// allowed before the opening roll, to start a game from a position.
    pub fn set_up(&mut self, setup: &Setup) -> Result<Vec<Event>, GameError> {
        let bad = |why: &str| Err(GameError::InvalidSetup(why.to_string()));
        match self.stage {
            Stage::Opening | Stage::Playing(_) | Stage::Resigned { .. } => {}
            _ => {
                self.current_turn()?;
                return Err(GameError::NoGame);
            }
        }
        if setup.position.result().is_some() {
            return bad("the game in that position is over");
        }
        if setup.cube_log2 > MAX_CUBE_LOG2 {
            return bad("the cube is too large");
        }
        if self.crawford_game && (setup.cube_log2 != 0 || setup.cube_owner != CubeOwner::Centered) {
            return bad("the cube cannot be turned in the Crawford game");
        }
        self.position = setup.position;
        self.on_roll = setup.on_roll;
        self.cube_log2 = setup.cube_log2;
        self.cube_owner = setup.cube_owner;
        self.stage = Stage::Playing(match setup.dice {
            Some(dice) => Turn::Moving(dice),
            None => Turn::BeforeRoll,
        });
        self.push_entry(RecordAction::SetUp(*setup));
        Ok(Vec::new())
    }

    /// Sets whether the game in progress is the Crawford game (match play; a player must be at
    /// match point, and no double may have been made).
    pub fn set_crawford_game(&mut self, crawford: bool) -> Result<(), GameError> {
        let bad = |why: &str| Err(GameError::InvalidSetup(why.to_string()));
        if self.rules.is_money() {
            return bad("a money session has no Crawford game");
        }
        match self.stage {
            Stage::Playing(Turn::BeforeRoll) | Stage::Playing(Turn::Moving(_)) => {}
            Stage::Playing(Turn::Doubled { .. }) => return Err(GameError::DoublePending),
            _ => {
                self.current_turn()?;
            }
        }
        if crawford {
            if !self.one_away() {
                return bad("the Crawford game needs a player at match point");
            }
            if self.cube_log2 != 0 || self.cube_owner != CubeOwner::Centered {
                return bad("the cube has been turned in this game");
            }
            self.crawford_played = true;
        }
        self.crawford_game = crawford;
        if let Some(record) = self.games.last_mut() {
            record.crawford = crawford;
        }
        if let Some(game) = self.record.games.last_mut() {
            game.crawford = crawford;
        }
        Ok(())
    }

    /// Turns the Jacoby rule on or off (money play; it counts when a game ends).
    pub fn set_jacoby(&mut self, on: bool) {
        self.rules.jacoby = on;
        self.record.info.rules.jacoby = on;
    }

    /// Allows or forbids beavers (money play).
    pub fn set_beavers(&mut self, on: bool) {
        self.rules.beavers = on;
        self.record.info.rules.beavers = on;
    }

    /// Turns the Crawford rule on or off for the games to come (match play).
    pub fn set_crawford_rule(&mut self, on: bool) {
        self.rules.crawford = on;
        self.record.info.rules.crawford = on;
    }

    // ------------------------------------------------------------------------------------------
    // Internals
    // ------------------------------------------------------------------------------------------

    fn one_away(&self) -> bool {
        !self.rules.is_money()
            && self
                .score
                .iter()
                .any(|&s| u32::from(s) + 1 == u32::from(self.rules.match_length))
    }

    /// The turn being played, or why none is.
    fn current_turn(&self) -> Result<Turn, GameError> {
        match self.stage {
            Stage::Playing(t) => Ok(t),
            Stage::Idle => Err(GameError::NoGame),
            Stage::Opening => Err(GameError::OpeningRollPending),
            Stage::Resigned { .. } => Err(GameError::ResignationPending),
            Stage::Over(_) => Err(match self.match_winner() {
                Some(winner) => GameError::MatchOver { winner },
                None => GameError::GameOver,
            }),
        }
    }

    fn check_double_allowed(&self) -> Result<(), GameError> {
        if self.crawford_game {
            return Err(GameError::CrawfordGame);
        }
        if self.cube_owner == CubeOwner::Owned(self.on_roll.other()) {
            return Err(GameError::CubeOwnedByOpponent);
        }
        if self.cube_log2 >= MAX_CUBE_LOG2 {
            return Err(GameError::CubeAtMaximum(self.cube_value()));
        }
        Ok(())
    }

    fn check_beaver_allowed(&self, beavers: u8) -> Result<(), GameError> {
        if !self.rules.is_money() {
            return Err(GameError::BeaverInMatch);
        }
        if !self.rules.beavers {
            return Err(GameError::BeaversOff);
        }
        if beavers >= MAX_BEAVERS {
            return Err(GameError::TooManyBeavers(MAX_BEAVERS));
        }
        if self.cube_log2 + 2 > MAX_CUBE_LOG2 {
            return Err(GameError::CubeAtMaximum(self.cube_value() * 2));
        }
        Ok(())
    }

    fn check_roll(&self, player: Player) -> Result<(), GameError> {
        match self.current_turn()? {
            Turn::BeforeRoll if player == self.on_roll => Ok(()),
            Turn::Moving(_) if player == self.on_roll => Err(GameError::AlreadyRolled),
            Turn::Doubled { .. } => Err(GameError::DoublePending),
            _ => Err(GameError::NotYourTurn {
                player,
                to_act: self.on_roll,
            }),
        }
    }

    fn check_move(&self, player: Player) -> Result<Dice, GameError> {
        match self.current_turn()? {
            Turn::Moving(dice) if player == self.on_roll => Ok(dice),
            Turn::BeforeRoll if player == self.on_roll => Err(GameError::MustRollFirst),
            Turn::Doubled { .. } => Err(GameError::DoublePending),
            _ => Err(GameError::NotYourTurn {
                player,
                to_act: self.on_roll,
            }),
        }
    }

    /// Checks that `player` is the one to answer a double on offer; returns the beaver count.
    fn answering_double(&self, player: Player) -> Result<u8, GameError> {
        match self.current_turn()? {
            Turn::Doubled { beavers } => {
                let to_act = turn_player(Turn::Doubled { beavers }, self.on_roll);
                if player == to_act {
                    Ok(beavers)
                } else {
                    Err(GameError::NotYourTurn { player, to_act })
                }
            }
            _ => Err(GameError::NoDoubleOffered),
        }
    }

    fn answering_resignation(&self, player: Player) -> Result<(Resignation, Turn), GameError> {
        match self.stage {
            Stage::Resigned { offer, resume } => {
                let to_act = turn_player(resume, self.on_roll).other();
                if player == to_act {
                    Ok((offer, resume))
                } else {
                    Err(GameError::NotYourTurn { player, to_act })
                }
            }
            Stage::Playing(_) => Err(GameError::NoResignationOffered),
            _ => self
                .current_turn()
                .and(Err(GameError::NoResignationOffered)),
        }
    }

    /// Records `event` in the current game and appends it to `events`.
    fn emit(&mut self, events: &mut Vec<Event>, event: Event) {
        if let Some(record) = self.games.last_mut() {
            record.events.push(event.clone());
        }
        self.record_event(&event);
        events.push(event);
    }

    /// Appends an action to the current game of the match record.
    fn push_entry(&mut self, action: RecordAction) {
        if let Some(game) = self.record.games.last_mut() {
            game.entries.push(Entry::new(action));
        }
    }

    /// Writes what `event` says into the match record.
    fn record_event(&mut self, event: &Event) {
        match *event {
            Event::GameStarted {
                score, crawford, ..
            } => self.record.games.push(GameRecord {
                score,
                crawford,
                ..GameRecord::default()
            }),
            Event::OpeningTie { .. } | Event::MatchOver { .. } => {}
            Event::OpeningRoll { dice, starter } => self.record_roll(starter, dice.normalized()),
            Event::Rolled { player, dice } => self.record_roll(player, dice),
            Event::Moved {
                player, dice, mv, ..
            } => self.record_move(player, dice, mv),
            Event::CannotMove { player, dice } => self.record_move(player, dice, Move::NONE),
            Event::Doubled { player, .. } => self.push_entry(RecordAction::Double { player }),
            Event::Took { player, .. } => self.push_entry(RecordAction::Take { player }),
            Event::Beavered { player, .. } => self.push_entry(RecordAction::Beaver { player }),
            Event::Dropped { player, .. } => self.push_entry(RecordAction::Drop { player }),
            Event::ResignationOffered {
                player,
                resignation,
            } => self.push_entry(RecordAction::Resign {
                player,
                resignation,
            }),
            Event::ResignationAccepted { player, .. } => {
                self.push_entry(RecordAction::AcceptResignation { player })
            }
            Event::ResignationRejected { player, .. } => {
                self.push_entry(RecordAction::RejectResignation { player })
            }
            Event::GameOver(outcome) => {
                if let Some(game) = self.record.games.last_mut() {
                    game.result = Some(record::GameResult {
                        winner: outcome.winner,
                        points: outcome.points,
                        resigned: matches!(outcome.ending, Ending::Resigned(_)),
                    });
                }
            }
        }
    }

    /// `player` rolled `dice`: a new roll, or a correction of the roll not played yet.
    fn record_roll(&mut self, player: Player, dice: Dice) {
        if let Some(entry) = self
            .record
            .games
            .last_mut()
            .and_then(|g| g.entries.last_mut())
        {
            match &mut entry.action {
                RecordAction::Roll { player: p, dice: d } if *p == player => {
                    *d = dice;
                    return;
                }
                RecordAction::SetUp(Setup {
                    on_roll,
                    dice: d @ Some(_),
                    ..
                }) if *on_roll == player => {
                    *d = Some(dice);
                    return;
                }
                _ => {}
            }
        }
        self.push_entry(RecordAction::Roll { player, dice });
    }

    /// `player` played `mv`: the roll entry just before becomes the move; otherwise (the dice
    /// were set up, or a resignation came between roll and move) the move follows.
    fn record_move(&mut self, player: Player, dice: Dice, mv: Move) {
        if let Some(entry) = self
            .record
            .games
            .last_mut()
            .and_then(|g| g.entries.last_mut())
        {
            if let RecordAction::Roll { player: p, dice: d } = entry.action {
                if p == player {
                    entry.action = RecordAction::Move {
                        player,
                        dice: d,
                        mv,
                    };
                    return;
                }
            }
        }
        self.push_entry(RecordAction::Move { player, dice, mv });
    }

    /// Records the current state of the game in progress as a set-up, followed by the double,
    /// beavers and resignation on offer, so that a replay reaches the same state.
    fn record_state_as_setup(&mut self) {
        let (turn, offer) = match self.stage {
            Stage::Playing(turn) => (turn, None),
            Stage::Resigned { offer, resume } => (resume, Some(offer)),
            _ => (Turn::BeforeRoll, None),
        };
        let beavers = match turn {
            Turn::Doubled { beavers } => Some(beavers),
            _ => None,
        };
        let on_roll = self.on_roll;
        // Each beaver doubled the cube and gave it to the player first doubled.
        let cube_log2 = self.cube_log2.saturating_sub(beavers.unwrap_or(0));
        let cube_owner = match beavers {
            Some(b) if b > 0 && cube_log2 > 0 => CubeOwner::Owned(on_roll),
            Some(b) if b > 0 => CubeOwner::Centered,
            _ => self.cube_owner,
        };
        self.push_entry(RecordAction::SetUp(Setup {
            position: self.position,
            on_roll,
            cube_log2,
            cube_owner,
            dice: turn_dice(turn),
        }));
        if let Some(beavers) = beavers {
            self.push_entry(RecordAction::Double { player: on_roll });
            for i in 0..beavers {
                let player = if i % 2 == 0 { on_roll.other() } else { on_roll };
                self.push_entry(RecordAction::Beaver { player });
            }
        }
        if let Some(resignation) = offer {
            self.push_entry(RecordAction::Resign {
                player: turn_player(turn, on_roll),
                resignation,
            });
        }
    }

    /// Throws opening rolls from the source until one decides who starts. False if the source
    /// had no dice at all.
    fn opening_from_source(&mut self, events: &mut Vec<Event>) -> bool {
        for i in 0..MAX_OPENING_TIES {
            let Some(dice) = self.dice.roll() else {
                return i > 0;
            };
            if self.opening(dice, events) {
                break;
            }
        }
        true
    }

    /// One opening throw; true if it decided who starts.
    fn opening(&mut self, dice: Dice, events: &mut Vec<Event>) -> bool {
        if dice.is_double() {
            self.emit(events, Event::OpeningTie { die: dice.first() });
            return false;
        }
        let starter = if dice.first() > dice.second() {
            Player::Zero
        } else {
            Player::One
        };
        self.on_roll = starter;
        self.emit(events, Event::OpeningRoll { dice, starter });
        self.begin_moving(dice.normalized(), events);
        true
    }

    fn do_roll(&mut self, dice: Dice, events: &mut Vec<Event>) {
        let player = self.on_roll;
        self.emit(events, Event::Rolled { player, dice });
        self.begin_moving(dice, events);
    }

    /// The dice are rolled: wait for the move, or pass the turn if no checker can move.
    fn begin_moving(&mut self, dice: Dice, events: &mut Vec<Event>) {
        let legal = legal_moves(&self.position, dice);
        if legal.iter().all(|m| m.mv.is_empty()) {
            let player = self.on_roll;
            self.emit(events, Event::CannotMove { player, dice });
            let after = self.position;
            self.pass_turn(after);
        } else {
            self.stage = Stage::Playing(Turn::Moving(dice));
        }
    }

    fn do_move(&mut self, dice: Dice, legal: LegalMove, events: &mut Vec<Event>) {
        let player = self.on_roll;
        let before = self.position;
        let text = format_move(&before, &legal.mv);
        self.emit(
            events,
            Event::Moved {
                player,
                dice,
                mv: legal.mv,
                before,
                text,
            },
        );
        match legal.position.result() {
            Some(result) => {
                self.position = legal.position;
                let winner = match result.winner {
                    Side::Player => player,
                    Side::Opponent => player.other(),
                };
                self.finish(
                    winner,
                    Ending::BearOff(result.kind),
                    result.kind.points(),
                    events,
                );
            }
            None => self.pass_turn(legal.position),
        }
    }

    /// The turn passes to the opponent; `after` is the position seen from the player who just
    /// moved.
    fn pass_turn(&mut self, after: Position) {
        self.on_roll = self.on_roll.other();
        self.position = after.swap();
        self.stage = Stage::Playing(Turn::BeforeRoll);
    }

    /// Ends the game: `winner` scores `value` (1, 2, 3) times the cube, less under the Jacoby rule.
    fn finish(&mut self, winner: Player, ending: Ending, value: u32, events: &mut Vec<Event>) {
        let jacoby = self.rules.jacoby_applies()
            && self.cube_owner == CubeOwner::Centered
            && value > 1
            && ending != Ending::Dropped;
        let value = if jacoby { 1 } else { value };
        let points = value.saturating_mul(self.cube_value());
        let index = winner.index();
        let gained = u16::try_from(points).unwrap_or(u16::MAX);
        self.score[index] = self.score[index].saturating_add(gained).min(0x7FFF);
        let outcome = GameOutcome {
            winner,
            points,
            ending,
            jacoby,
        };
        self.stage = Stage::Over(outcome);
        if let Some(record) = self.games.last_mut() {
            record.outcome = Some(outcome);
        }
        self.emit(events, Event::GameOver(outcome));
        if let Some(winner) = self.match_winner() {
            let score = self.score;
            self.emit(events, Event::MatchOver { winner, score });
        }
    }
}

/// At `score` in a match to `length`, exactly one player is at match point: the first game at
/// such a score is the Crawford game (GNU Backgammon's rule; at 0-0 in a 1-point match, or at
/// double match point, nobody has just reached match point and there is no Crawford game).
pub(crate) fn crawford_score(score: [u16; 2], length: u16) -> bool {
    let at = |s: u16| length > 0 && u32::from(s) + 1 == u32::from(length);
    at(score[0]) != at(score[1])
}

/// The player who has to act in `turn` when `on_roll` is on roll.
fn turn_player(turn: Turn, on_roll: Player) -> Player {
    match turn {
        Turn::BeforeRoll | Turn::Moving(_) => on_roll,
        Turn::Doubled { beavers } if beavers % 2 == 0 => on_roll.other(),
        Turn::Doubled { .. } => on_roll,
    }
}

fn turn_dice(turn: Turn) -> Option<Dice> {
    match turn {
        Turn::Moving(d) => Some(d),
        _ => None,
    }
}

/// The position after playing the steps of `mv` one by one (hitting blots on the way), or `None`
/// if a step is impossible on the board (no checker to move, a blocked point). Whether the steps
/// match the dice is not checked here: the result is compared with the legal plays.
pub(crate) fn apply_steps(position: &Position, mv: &Move) -> Option<Position> {
    let mut board = *position.board();
    for step in mv.steps() {
        let (from, to) = (usize::from(step.from), usize::from(step.to));
        if !(1..=BAR).contains(&from) || to >= BAR || to >= from || board[from] <= 0 {
            return None;
        }
        if to != OFF {
            match board[to] {
                c if c <= -2 => return None,
                -1 => {
                    board[to] = 0;
                    board[OFF] -= 1;
                }
                _ => {}
            }
            board[to] += 1;
        }
        board[from] -= 1;
    }
    Position::from_board(board).ok()
}

#[cfg(test)]
mod tests;
