//! The state of a match or money session apart from the checkers: score, cube, who is on roll,
//! dice, pending double or resignation. This is what a GNU Backgammon Match ID encodes.

use std::fmt;

use crate::rules::dice::Dice;

/// One of the two players of a match, as GNU Backgammon numbers them: player 0 is "O" (drawn at
/// the top of the ASCII board, White in SGF, the left column in .mat files), player 1 is "X"
/// (the bottom, Black in SGF, the right column; usually the human).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    Zero = 0,
    One = 1,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Zero => Player::One,
            Player::One => Player::Zero,
        }
    }

    /// 0 or 1.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Player from 0 or 1.
    pub fn from_index(i: usize) -> Option<Player> {
        match i {
            0 => Some(Player::Zero),
            1 => Some(Player::One),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Zero => "O",
            Player::One => "X",
        })
    }
}

/// Who may double next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeOwner {
    /// Either player may double.
    Centered,
    /// Only this player may (re)double.
    Owned(Player),
}

/// Phase of the current game, as in GNU Backgammon's Match ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// No game in progress (GNU Backgammon also prints this for the first move of a game).
    NoGame = 0,
    Playing = 1,
    Over = 2,
    Resigned = 3,
    Dropped = 4,
}

impl GameState {
    /// From the 3-bit code of the Match ID.
    pub fn from_code(code: u8) -> Option<GameState> {
        Some(match code {
            0 => GameState::NoGame,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            4 => GameState::Dropped,
            _ => return None,
        })
    }
}

/// Size of a resignation offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resignation {
    Single = 1,
    Gammon = 2,
    Backgammon = 3,
}

impl Resignation {
    /// From the 2-bit code of the Match ID (0 = none).
    pub fn from_code(code: u8) -> Option<Option<Resignation>> {
        Some(match code {
            0 => None,
            1 => Some(Resignation::Single),
            2 => Some(Resignation::Gammon),
            3 => Some(Resignation::Backgammon),
            _ => return None,
        })
    }
}

/// Everything a GNU Backgammon Match ID holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchState {
    /// log2 of the cube value (0 = cube at 1). At most 15.
    pub cube_log2: u8,
    pub cube_owner: CubeOwner,
    /// The player on roll: the one who owns (or is about to roll) the dice. GNU Backgammon's
    /// `fMove`. The Position ID is oriented to this player, also while a double is pending.
    pub on_roll: Player,
    /// This game is the Crawford game.
    pub crawford: bool,
    pub game_state: GameState,
    /// The player who has to act now (GNU Backgammon's `fTurn`): differs from `on_roll` while a
    /// double or a resignation waits for an answer.
    pub turn: Player,
    /// A double has been offered and not answered yet.
    pub doubled: bool,
    pub resigned: Option<Resignation>,
    /// The dice rolled, in the order written, or `None` before the roll.
    pub dice: Option<Dice>,
    /// Match length in points; 0 for a money session. At most 32767.
    pub match_length: u16,
    /// Scores of player 0 and player 1. Each at most 32767.
    pub score: [u16; 2],
    /// The Jacoby rule is in use (money play).
    pub jacoby: bool,
}

impl MatchState {
    /// A money session at its first game, player 1 (X) to roll, cube centred at 1.
    pub fn money() -> MatchState {
        MatchState {
            cube_log2: 0,
            cube_owner: CubeOwner::Centered,
            on_roll: Player::One,
            crawford: false,
            game_state: GameState::Playing,
            turn: Player::One,
            doubled: false,
            resigned: None,
            dice: None,
            match_length: 0,
            score: [0, 0],
            jacoby: false,
        }
    }

    /// A new match to `length` points, player 1 (X) to roll.
    pub fn new_match(length: u16) -> MatchState {
        MatchState {
            match_length: length,
            ..MatchState::money()
        }
    }

    /// The cube value (1, 2, 4, …).
    pub fn cube_value(&self) -> u32 {
        1u32 << self.cube_log2
    }

    /// True in a money session.
    pub fn is_money(&self) -> bool {
        self.match_length == 0
    }

    /// Points player `p` still needs to win the match (`None` in money play).
    pub fn away(&self, p: Player) -> Option<u16> {
        if self.is_money() {
            None
        } else {
            Some(self.match_length.saturating_sub(self.score[p.index()]))
        }
    }

    /// A game after the Crawford game, where one player is 1-away and doubling is allowed again.
    pub fn is_post_crawford(&self) -> bool {
        !self.is_money()
            && !self.crawford
            && (self.away(Player::Zero) == Some(1) || self.away(Player::One) == Some(1))
    }
}
