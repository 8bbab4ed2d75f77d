//! FIBS `board:` lines (the CLIP "rawboard", boardstyle 3) as FIBS sends them and as GNU
//! Backgammon exchanges them with external players.
//!
//! A line is `board:` followed by 52 colon-separated fields: two names, then 50 integers (match
//! length, scores, the 26 board slots, turn, dice, cube, doubling flags, colour, direction, and
//! bookkeeping counters). [`FibsBoard`] holds the fields exactly as written: parsing a valid line
//! and formatting it again with [`Display`](std::fmt::Display) gives the canonical text (spaces
//! after colons and a trailing newline or NUL byte are dropped, numbers are written plainly).
//!
//! [`FibsBoard::to_game`] interprets a line the way GNU Backgammon's `ProcessFIBSBoardInfo` does
//! and returns the engine's [`Position`] and [`MatchState`]; [`FibsBoard::from_game`] writes a
//! game the way GNU Backgammon's `FIBSBoard` writer does for its external players.
//!
//! # Player numbering
//!
//! A FIBS line is written for one participant, "you" (field 1), whose checkers carry the sign of
//! the `colour` field. [`FibsGame`] always makes "you" [`Player::One`] (X) and the opponent
//! [`Player::Zero`] (O). GNU Backgammon's reader labels the *player who has to act* as its
//! player 1 instead; the two labellings agree whenever "you" are to act, which is the case for
//! every line GNU Backgammon sends to an external player.
//!
//! # GNU Backgammon's external-player lines
//!
//! GNU Backgammon writes every line for its player 1 (the positive checkers, colour 1, moving
//! down), with `turn` -1 when player 0 is on roll, `was doubled` 1 while a double is pending,
//! field 51 = post-Crawford and field 52 = "not the Crawford game". Its names and scores,
//! however, come out in player order 0, 1 on lines without a pending double and 1, 0 on lines
//! with one, so on most lines field 1 holds the *opponent's* name and score although the
//! board is written for player 1. Both [`FibsBoard::to_game`] (like GNU Backgammon's own reader)
//! and [`FibsBoard::from_game`] take fields 1 and 4 as "you", so such lines read back and are
//! rewritten unchanged, names and scores included.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::game::match_state::{CubeOwner, GameState, MatchState, Player};
use crate::rules::dice::Dice;
use crate::rules::position::{Position, PositionError, Side, CHECKERS};

/// Number of colon-separated fields after `board:`.
pub const FIELD_COUNT: usize = 52;

/// The match length FIBS writes for an unlimited match (a money session).
pub const UNLIMITED_MATCH: u32 = 9999;

/// The largest cube value accepted (2¹⁵, the largest a Match ID can hold).
pub const MAX_CUBE: u32 = 1 << 15;

/// The largest score accepted (15 bits, as in a Match ID).
pub const MAX_SCORE: u32 = 32767;

const PREFIX: &str = "board:";

/// Field numbers (1-based, as in the FIBS documentation) used by error messages.
mod field {
    pub const NAME: usize = 1;
    pub const OPPONENT: usize = 2;
    pub const MATCH_LENGTH: usize = 3;
    pub const SCORE: usize = 4;
    pub const OPPONENT_SCORE: usize = 5;
    pub const BOARD: usize = 6;
    pub const TURN: usize = 32;
    pub const DICE: usize = 33;
    pub const OPPONENT_DICE: usize = 35;
    pub const CUBE: usize = 37;
    pub const MAY_DOUBLE: usize = 38;
    pub const OPPONENT_MAY_DOUBLE: usize = 39;
    pub const WAS_DOUBLED: usize = 40;
    pub const COLOUR: usize = 41;
    pub const DIRECTION: usize = 42;
    pub const HOME: usize = 43;
    pub const BAR: usize = 44;
    pub const ON_HOME: usize = 45;
    pub const OPPONENT_ON_HOME: usize = 46;
    pub const ON_BAR: usize = 47;
    pub const OPPONENT_ON_BAR: usize = 48;
    pub const CAN_MOVE: usize = 49;
    pub const FORCED_MOVE: usize = 50;
    pub const POST_CRAWFORD: usize = 51;
    pub const REDOUBLES: usize = 52;
}

/// A human-readable label for field `number` (1-based), for error messages.
fn field_label(number: &usize) -> String {
    let number = *number;
    if (field::BOARD..field::BOARD + 26).contains(&number) {
        return format!("board[{}]", number - field::BOARD);
    }
    let name = match number {
        field::NAME => "name",
        field::OPPONENT => "opponent's name",
        field::MATCH_LENGTH => "match length",
        field::SCORE => "score",
        field::OPPONENT_SCORE => "opponent's score",
        field::TURN => "turn",
        33 | 34 => "dice",
        35 | 36 => "opponent's dice",
        field::CUBE => "cube",
        field::MAY_DOUBLE => "may double",
        field::OPPONENT_MAY_DOUBLE => "opponent may double",
        field::WAS_DOUBLED => "was doubled",
        field::COLOUR => "colour",
        field::DIRECTION => "direction",
        field::HOME => "home",
        field::BAR => "bar",
        field::ON_HOME => "on home",
        field::OPPONENT_ON_HOME => "opponent on home",
        field::ON_BAR => "on bar",
        field::OPPONENT_ON_BAR => "opponent on bar",
        field::CAN_MOVE => "can move",
        field::FORCED_MOVE => "forced move",
        field::POST_CRAWFORD => "did Crawford / post-Crawford",
        field::REDOUBLES => "redoubles / non-Crawford",
        _ => "unknown field",
    };
    name.to_string()
}

/// Why a text is not a FIBS `board:` line, or why a line or game cannot be converted.
///
/// Field numbers are 1-based and count the fields after `board:` (field 1 is your name, fields
/// 6 to 31 the board, field 52 the last one), as in the FIBS documentation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FibsError {
    /// The line does not start with `board:`.
    #[error("a FIBS board line starts with \"board:\"")]
    MissingPrefix,
    /// Not exactly 52 fields after `board:`.
    #[error("a FIBS board line has 52 fields after \"board:\", this one has {found}")]
    FieldCount { found: usize },
    /// A name is empty, or contains a colon, a control character or surrounding blanks.
    #[error("field {field} ({}) is not a usable player name: {}", field_label(.field), crate::formats::quote(.text))]
    BadName { field: usize, text: String },
    /// A numeric field holds something that is not an integer.
    #[error("field {field} ({}) is not a number: {}", field_label(.field), crate::formats::quote(.text))]
    NotANumber { field: usize, text: String },
    /// A numeric field is outside the values it can take.
    #[error("field {field} ({}) is {}, outside {min} to {max}", field_label(.field), crate::formats::shorten(.text))]
    OutOfRange {
        field: usize,
        text: String,
        min: i64,
        max: i64,
    },
    /// A value is in range but not one of the values the field allows.
    #[error("field {field} ({}) is {}, expected {expected}", field_label(.field), crate::formats::shorten(.text))]
    BadValue {
        field: usize,
        text: String,
        expected: &'static str,
    },
    /// One die of a pair is 0 (not rolled) and the other is not.
    #[error("fields {field} and {} ({}) must both be 0 or both 1 to 6, not {first} and {second}", .field + 1, field_label(.field))]
    DicePair { field: usize, first: u8, second: u8 },
    /// A side has more than 15 checkers on the board, on the bar and borne off.
    #[error("{colour} has {count} checkers on the board, on the bar and borne off; at most 15 are allowed")]
    TooManyCheckers { colour: FibsColour, count: u32 },
    /// The turn field is 0: the game is over, there is no position to play.
    #[error("the turn field is 0: the game is over")]
    GameOver,
    /// In match play a score has already reached the match length.
    #[error("a score of {score} is not below the match length {length}")]
    ScoreNotBelowLength { score: u32, length: u32 },
    /// The checkers do not form a legal position.
    #[error("not a legal position: {0}")]
    Position(#[from] PositionError),
}

/// The colour of a side's checkers on a FIBS board: O checkers are positive, X negative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FibsColour {
    /// Negative counts; written as `-1`.
    X,
    /// Positive counts; written as `1`.
    O,
}

impl FibsColour {
    /// The sign of this colour's checker counts (and its value in the `turn` and `colour`
    /// fields): `1` for O, `-1` for X.
    pub fn sign(self) -> i8 {
        match self {
            FibsColour::X => -1,
            FibsColour::O => 1,
        }
    }

    /// The colour written as `sign` (`1` or `-1`).
    pub fn from_sign(sign: i64) -> Option<FibsColour> {
        match sign {
            1 => Some(FibsColour::O),
            -1 => Some(FibsColour::X),
            _ => None,
        }
    }

    /// The other colour.
    pub fn other(self) -> FibsColour {
        match self {
            FibsColour::X => FibsColour::O,
            FibsColour::O => FibsColour::X,
        }
    }
}

impl fmt::Display for FibsColour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FibsColour::X => "X",
            FibsColour::O => "O",
        })
    }
}

/// The way "you" move on a FIBS board, which fixes the numbering of the 26 board slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// You move from slot 24 towards slot 1 (written `-1`): slot `p` is your point `p`, your bar
    /// is slot 25 and your home slot 0. GNU Backgammon always writes this.
    Down,
    /// You move from slot 1 towards slot 24 (written `1`): slot `p` is your point `25 - p`, your
    /// bar is slot 0 and your home slot 25.
    Up,
}

impl Direction {
    /// `-1` for [`Direction::Down`], `1` for [`Direction::Up`].
    pub fn sign(self) -> i8 {
        match self {
            Direction::Down => -1,
            Direction::Up => 1,
        }
    }

    /// The direction written as `sign` (`1` or `-1`).
    pub fn from_sign(sign: i64) -> Option<Direction> {
        match sign {
            -1 => Some(Direction::Down),
            1 => Some(Direction::Up),
            _ => None,
        }
    }

    /// The board slot holding your point `point` (1..=24; 25 gives your bar slot).
    pub fn slot(self, point: usize) -> usize {
        match self {
            Direction::Down => point,
            Direction::Up => 25 - point,
        }
    }
}

/// All 52 fields of a FIBS `board:` line, as written.
///
/// "You" are the participant the line is written for (field 1); the opponent is field 2. Parse
/// with [`FibsBoard::parse`] (or [`str::parse`]) and format with [`Display`](fmt::Display).
/// Values built by hand can be checked with [`FibsBoard::validate`]; a board that validates
/// formats to a line that parses back to the same board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FibsBoard {
    /// Field 1: your name (FIBS writes `You` to a player's own client).
    pub name: String,
    /// Field 2: the opponent's name.
    pub opponent: String,
    /// Field 3: match length; [`UNLIMITED_MATCH`] (9999) for an unlimited match. GNU Backgammon
    /// writes 0 for money play.
    pub match_length: u32,
    /// Field 4: your score.
    pub score: u32,
    /// Field 5: the opponent's score.
    pub opponent_score: u32,
    /// Fields 6–31: the board slots 0..=25. Positive counts are O checkers, negative X checkers.
    /// Slots 1..=24 are points, numbered according to [`FibsBoard::direction`]; slots 0 and 25
    /// are the bars (your bar is slot 25 when you move down, slot 0 when you move up). Bar counts
    /// are read by absolute value, as GNU Backgammon does; GNU Backgammon writes the opponent's
    /// bar negative in slot 0 and yours positive in slot 25.
    pub board: [i8; 26],
    /// Field 32: whose turn it is: the colour on roll, or `None` (written `0`) when the game is
    /// over.
    pub turn: Option<FibsColour>,
    /// Fields 33–34: your dice, `None` (written `0:0`) when you have not rolled.
    pub dice: Option<Dice>,
    /// Fields 35–36: the opponent's dice.
    pub opponent_dice: Option<Dice>,
    /// Field 37: the cube value (a power of two, at most [`MAX_CUBE`]).
    pub cube: u32,
    /// Field 38: you may double.
    pub may_double: bool,
    /// Field 39: the opponent may double.
    pub opponent_may_double: bool,
    /// Field 40: a double is pending. FIBS writes 1 when your opponent has just doubled. GNU
    /// Backgammon extends the field with a sign meant to tell who doubled: its `show board`
    /// rawboard output writes -1 when player 1 must answer, its external-player writer always
    /// writes 1. Readers only test for non-zero.
    pub was_doubled: i8,
    /// Field 41: your colour.
    pub colour: FibsColour,
    /// Field 42: the direction you move in.
    pub direction: Direction,
    /// Field 43: your home slot, 0 or 25 (obsolete in FIBS, ignored when interpreting).
    pub home: u8,
    /// Field 44: your bar slot, 25 or 0 (ignored when interpreting; [`FibsBoard::direction`]
    /// decides, as in GNU Backgammon).
    pub bar: u8,
    /// Field 45: your checkers borne off.
    pub on_home: u8,
    /// Field 46: the opponent's checkers borne off.
    pub opponent_on_home: u8,
    /// Field 47: your checkers on the bar (GNU Backgammon writes 0).
    pub on_bar: u8,
    /// Field 48: the opponent's checkers on the bar (GNU Backgammon writes 0).
    pub opponent_on_bar: u8,
    /// Field 49: how many checkers you can move, 0 to 4 (GNU Backgammon writes 0).
    pub can_move: u8,
    /// Field 50: "forced move", documented by FIBS as "don't use".
    pub forced_move: u32,
    /// Field 51: FIBS's "did Crawford" field, which GNU Backgammon reads and writes as the
    /// post-Crawford flag (a game after the Crawford game).
    pub post_crawford: bool,
    /// Field 52: FIBS's maximum number of instant redoubles; GNU Backgammon writes 1 here when
    /// the game is *not* the Crawford game and reads any non-zero value that way.
    pub redoubles: u32,
}

/// A FIBS board interpreted with the engine's types: what [`FibsBoard::to_game`] returns and
/// [`FibsBoard::from_game`] writes.
///
/// "You" (the line's field 1) are [`FibsGame::YOU`] = [`Player::One`], the opponent
/// [`FibsGame::OPPONENT`] = [`Player::Zero`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FibsGame {
    /// The checkers, seen from [`MatchState::on_roll`] as everywhere in the engine (also while a
    /// double is pending; see [`FibsGame::position_to_act`]).
    pub position: Position,
    /// Match length, scores, cube, dice and whose turn it is.
    pub state: MatchState,
    /// The players' names, indexed by [`Player::index`].
    pub names: [String; 2],
    /// The colour of your checkers on the FIBS board.
    pub colour: FibsColour,
    /// The direction you move in on the FIBS board.
    pub direction: Direction,
}

impl FibsGame {
    /// The player a FIBS line is written for ("you", field 1).
    pub const YOU: Player = Player::One;
    /// Your opponent (field 2).
    pub const OPPONENT: Player = Player::Zero;

    /// A game with the names and match state given, seen the way GNU Backgammon writes it
    /// (you are O and move down).
    pub fn new(position: Position, state: MatchState, names: [String; 2]) -> FibsGame {
        FibsGame {
            position,
            state,
            names,
            colour: FibsColour::O,
            direction: Direction::Down,
        }
    }

    /// The name of player `p`.
    pub fn name(&self, p: Player) -> &str {
        &self.names[p.index()]
    }

    /// The position seen from the player who has to act ([`MatchState::turn`]): the player on
    /// roll, or the one who must answer a pending double. This is the board GNU Backgammon's
    /// reader hands to its evaluator.
    pub fn position_to_act(&self) -> Position {
        if self.state.turn == self.state.on_roll {
            self.position
        } else {
            self.position.swap()
        }
    }
}

impl FibsBoard {
    /// Parses a `board:` line.
    ///
    /// Accepted: blanks (spaces, tabs) around any field, as in boards quoted on forums; leading
    /// blanks; trailing blanks, newlines and NUL bytes (GNU Backgammon's external-player protocol
    /// ends each line with `\n\0`). Rejected with a [`FibsError`] naming the field: anything but
    /// exactly 52 fields, names that are empty or contain control characters, non-numbers,
    /// values out of range (a point with more than 15 checkers, dice outside 0..=6, a cube that
    /// is not a power of two, flags other than 0/1, ...), half-rolled dice, and a side with more
    /// than 15 checkers in total. The game itself is not checked here (see
    /// [`FibsBoard::to_game`]).
    pub fn parse(line: &str) -> Result<FibsBoard, FibsError> {
        let line = line
            .trim_start_matches(is_blank)
            .trim_end_matches(|c: char| is_blank(c) || matches!(c, '\n' | '\r' | '\0'));
        let body = line.strip_prefix(PREFIX).ok_or(FibsError::MissingPrefix)?;
        let fields: Vec<&str> = body.split(':').map(|f| f.trim_matches(is_blank)).collect();
        if fields.len() != FIELD_COUNT {
            return Err(FibsError::FieldCount {
                found: fields.len(),
            });
        }
        let fields = Fields(&fields);

        let mut board = [0i8; 26];
        for (slot, count) in board.iter_mut().enumerate() {
            *count = fields.int(field::BOARD + slot, -15, 15)? as i8;
        }
        let parsed = FibsBoard {
            name: fields.name(field::NAME)?,
            opponent: fields.name(field::OPPONENT)?,
            match_length: fields.int(field::MATCH_LENGTH, 0, i64::from(UNLIMITED_MATCH))? as u32,
            score: fields.int(field::SCORE, 0, i64::from(MAX_SCORE))? as u32,
            opponent_score: fields.int(field::OPPONENT_SCORE, 0, i64::from(MAX_SCORE))? as u32,
            board,
            turn: match fields.int(field::TURN, -1, 1)? {
                0 => None,
                sign => FibsColour::from_sign(sign),
            },
            dice: fields.dice(field::DICE)?,
            opponent_dice: fields.dice(field::OPPONENT_DICE)?,
            cube: fields.int(field::CUBE, 1, i64::from(MAX_CUBE))? as u32,
            may_double: fields.flag(field::MAY_DOUBLE)?,
            opponent_may_double: fields.flag(field::OPPONENT_MAY_DOUBLE)?,
            was_doubled: fields.int(field::WAS_DOUBLED, -1, 1)? as i8,
            colour: fields.sign(field::COLOUR, FibsColour::from_sign)?,
            direction: fields.sign(field::DIRECTION, Direction::from_sign)?,
            home: fields.int(field::HOME, 0, 25)? as u8,
            bar: fields.int(field::BAR, 0, 25)? as u8,
            on_home: fields.int(field::ON_HOME, 0, 15)? as u8,
            opponent_on_home: fields.int(field::OPPONENT_ON_HOME, 0, 15)? as u8,
            on_bar: fields.int(field::ON_BAR, 0, 15)? as u8,
            opponent_on_bar: fields.int(field::OPPONENT_ON_BAR, 0, 15)? as u8,
            can_move: fields.int(field::CAN_MOVE, 0, 4)? as u8,
            forced_move: fields.int(field::FORCED_MOVE, 0, i64::from(u32::MAX))? as u32,
            post_crawford: fields.flag(field::POST_CRAWFORD)?,
            redoubles: fields.int(field::REDOUBLES, 0, i64::from(u32::MAX))? as u32,
        };
        parsed.validate()?;
        Ok(parsed)
    }

    /// Checks everything [`FibsBoard::parse`] checks, for a board built or changed by hand.
    pub fn validate(&self) -> Result<(), FibsError> {
        check_name(field::NAME, &self.name)?;
        check_name(field::OPPONENT, &self.opponent)?;
        check_range(field::MATCH_LENGTH, self.match_length, 0, UNLIMITED_MATCH)?;
        check_range(field::SCORE, self.score, 0, MAX_SCORE)?;
        check_range(field::OPPONENT_SCORE, self.opponent_score, 0, MAX_SCORE)?;
        for (slot, &count) in self.board.iter().enumerate() {
            if !(-15..=15).contains(&count) {
                return Err(out_of_range(field::BOARD + slot, count, -15, 15));
            }
        }
        check_range(field::CUBE, self.cube, 1, MAX_CUBE)?;
        if !self.cube.is_power_of_two() {
            return Err(FibsError::BadValue {
                field: field::CUBE,
                text: self.cube.to_string(),
                expected: "a power of two",
            });
        }
        if !(-1..=1).contains(&self.was_doubled) {
            return Err(out_of_range(field::WAS_DOUBLED, self.was_doubled, -1, 1));
        }
        for (number, slot) in [(field::HOME, self.home), (field::BAR, self.bar)] {
            if slot != 0 && slot != 25 {
                return Err(FibsError::BadValue {
                    field: number,
                    text: slot.to_string(),
                    expected: "0 or 25",
                });
            }
        }
        for (number, count) in [
            (field::ON_HOME, self.on_home),
            (field::OPPONENT_ON_HOME, self.opponent_on_home),
            (field::ON_BAR, self.on_bar),
            (field::OPPONENT_ON_BAR, self.opponent_on_bar),
        ] {
            check_range(number, count, 0, CHECKERS)?;
        }
        check_range(field::CAN_MOVE, self.can_move, 0, 4)?;

        let (yours, theirs) = self.sides();
        for (colour, side, off) in [
            (self.colour, &yours, self.on_home),
            (self.colour.other(), &theirs, self.opponent_on_home),
        ] {
            let count = side.iter().map(|&c| u32::from(c)).sum::<u32>() + u32::from(off);
            if count > u32::from(CHECKERS) {
                return Err(FibsError::TooManyCheckers { colour, count });
            }
        }
        Ok(())
    }

    /// Your checkers and the opponent's in GNU Backgammon's per-side layout (index 0..=23 =
    /// the side's own points 1..=24, index 24 = its bar).
    pub fn sides(&self) -> ([u8; 25], [u8; 25]) {
        let mut yours = [0u8; 25];
        let mut theirs = [0u8; 25];
        let sign = self.colour.sign();
        for point in 1..=24usize {
            let count = self.board[self.direction.slot(point)];
            if count.signum() == sign {
                yours[point - 1] = count.unsigned_abs();
            } else if count != 0 {
                // The opponent's own point 25 - point.
                theirs[24 - point] = count.unsigned_abs();
            }
        }
        let your_bar = self.direction.slot(25);
        yours[24] = self.board[your_bar].unsigned_abs();
        theirs[24] = self.board[25 - your_bar].unsigned_abs();
        (yours, theirs)
    }

    /// True when a double waits for an answer: the `was doubled` field is set, or both
    /// may-double flags are 0 (FIBS clears both while a double is pending). GNU Backgammon's
    /// rule.
    pub fn is_doubled(&self) -> bool {
        self.was_doubled != 0 || (!self.may_double && !self.opponent_may_double)
    }

    /// Interprets the line as GNU Backgammon's `ProcessFIBSBoardInfo` does.
    ///
    /// * Match length 9999 (and 0) mean money play; in match play both scores must be below the
    ///   match length.
    /// * The colour in the `turn` field is on roll (it owns the dice, or doubled); the player
    ///   to act is the other one while a double is pending (see [`FibsBoard::is_doubled`]).
    /// * The cube belongs to whoever alone may double; if both or neither may, it is centred.
    /// * Dice are your dice, or the opponent's if yours are not set.
    /// * The game is the Crawford game when someone is 1-away in a match and neither field 51
    ///   (post-Crawford) nor field 52 (non-Crawford) is set.
    /// * Bar slots count by absolute value; the home, bar, on-home, on-bar, can-move and
    ///   forced-move fields are not used (the position alone says what is borne off).
    ///
    /// Unlike GNU Backgammon the match length is not clamped to 64 points, and "you" stay
    /// [`FibsGame::YOU`] even when the opponent is to act. The Jacoby rule cannot be known from a
    /// FIBS line and is set off. A board changed by hand is validated first
    /// ([`FibsBoard::validate`]).
    pub fn to_game(&self) -> Result<FibsGame, FibsError> {
        self.validate()?;
        let turn = self.turn.ok_or(FibsError::GameOver)?;
        let match_length = if self.match_length == UNLIMITED_MATCH {
            0
        } else {
            self.match_length
        };
        if match_length != 0 {
            for score in [self.score, self.opponent_score] {
                if score >= match_length {
                    return Err(FibsError::ScoreNotBelowLength {
                        score,
                        length: match_length,
                    });
                }
            }
        }

        let (yours, theirs) = self.sides();
        let you_on_roll = turn == self.colour;
        let position = if you_on_roll {
            Position::from_sides(&yours, &theirs)?
        } else {
            Position::from_sides(&theirs, &yours)?
        };
        let on_roll = if you_on_roll {
            FibsGame::YOU
        } else {
            FibsGame::OPPONENT
        };
        let doubled = self.is_doubled();
        let cube_owner = match (self.may_double, self.opponent_may_double) {
            (true, false) => CubeOwner::Owned(FibsGame::YOU),
            (false, true) => CubeOwner::Owned(FibsGame::OPPONENT),
            _ => CubeOwner::Centered,
        };
        let one_away = match_length != 0
            && (match_length - self.score == 1 || match_length - self.opponent_score == 1);
        let crawford = one_away && !self.post_crawford && self.redoubles == 0;

        let mut score = [0u16; 2];
        score[FibsGame::YOU.index()] = self.score as u16;
        score[FibsGame::OPPONENT.index()] = self.opponent_score as u16;
        let mut names = [String::new(), String::new()];
        names[FibsGame::YOU.index()] = self.name.clone();
        names[FibsGame::OPPONENT.index()] = self.opponent.clone();

        let state = MatchState {
            cube_log2: self.cube.trailing_zeros() as u8,
            cube_owner,
            on_roll,
            crawford,
            game_state: GameState::Playing,
            turn: if doubled { on_roll.other() } else { on_roll },
            doubled,
            resigned: None,
            dice: self.dice.or(self.opponent_dice),
            match_length: match_length as u16,
            score,
            jacoby: false,
        };
        Ok(FibsGame {
            position,
            state,
            names,
            colour: self.colour,
            direction: self.direction,
        })
    }

    /// Writes `game` the way GNU Backgammon's `FIBSBoard` writer does for an external player.
    ///
    /// The line is written for [`FibsGame::YOU`] (field 1, your score in field 4) as O moving
    /// down: colour 1, direction -1, home 0, bar 25; the opponent's bar goes negative into slot 0
    /// and yours into slot 25. `turn` is 1 when you are on roll and -1 otherwise; both dice
    /// fields hold the dice rolled; the may-double flags say who may double (both while the cube
    /// is centred); `was doubled` is 1 while a double is pending (the sign GNU Backgammon's
    /// external-player writer produces); on-home fields count borne-off checkers; on-bar,
    /// can-move and forced-move are 0; field 51 is the post-Crawford flag and field 52 is 1
    /// unless this is the Crawford game. Colons in names become `_`, as in GNU Backgammon.
    /// [`FibsGame::colour`] and [`FibsGame::direction`] are not used.
    ///
    /// Fails if a name is empty or contains control characters, or if the match length,
    /// scores or cube exceed what a FIBS line can hold.
    pub fn from_game(game: &FibsGame) -> Result<FibsBoard, FibsError> {
        let state = &game.state;
        let you = FibsGame::YOU;
        let opponent = FibsGame::OPPONENT;
        // The position seen from you.
        let view = if state.on_roll == you {
            game.position
        } else {
            game.position.swap()
        };
        let cube = 1u64 << state.cube_log2.min(40);
        if cube > u64::from(MAX_CUBE) {
            return Err(out_of_range(field::CUBE, cube, 1, MAX_CUBE));
        }
        let board = FibsBoard {
            name: game.name(you).replace(':', "_"),
            opponent: game.name(opponent).replace(':', "_"),
            match_length: u32::from(state.match_length),
            score: u32::from(state.score[you.index()]),
            opponent_score: u32::from(state.score[opponent.index()]),
            board: *view.board(),
            turn: Some(if state.on_roll == you {
                FibsColour::O
            } else {
                FibsColour::X
            }),
            dice: state.dice,
            opponent_dice: state.dice,
            cube: cube as u32,
            may_double: state.cube_owner != CubeOwner::Owned(opponent),
            opponent_may_double: state.cube_owner != CubeOwner::Owned(you),
            was_doubled: i8::from(state.doubled),
            colour: FibsColour::O,
            direction: Direction::Down,
            home: 0,
            bar: 25,
            on_home: view.off(Side::Player),
            opponent_on_home: view.off(Side::Opponent),
            on_bar: 0,
            opponent_on_bar: 0,
            can_move: 0,
            forced_move: 0,
            post_crawford: state.is_post_crawford(),
            redoubles: u32::from(!state.crawford),
        };
        board.validate()?;
        Ok(board)
    }
}

impl FromStr for FibsBoard {
    type Err = FibsError;

    /// Same as [`FibsBoard::parse`].
    fn from_str(s: &str) -> Result<FibsBoard, FibsError> {
        FibsBoard::parse(s)
    }
}

impl fmt::Display for FibsBoard {
    /// The canonical line: `board:` and the 52 fields, no spaces, no line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dice = |d: Option<Dice>| d.map_or((0, 0), |d| (d.first(), d.second()));
        write!(
            f,
            "{PREFIX}{}:{}:{}:{}:{}",
            self.name, self.opponent, self.match_length, self.score, self.opponent_score
        )?;
        for count in self.board {
            write!(f, ":{count}")?;
        }
        let (d1, d2) = dice(self.dice);
        let (o1, o2) = dice(self.opponent_dice);
        write!(
            f,
            ":{}:{d1}:{d2}:{o1}:{o2}:{}:{}:{}:{}:{}:{}:{}:{}",
            self.turn.map_or(0, FibsColour::sign),
            self.cube,
            u8::from(self.may_double),
            u8::from(self.opponent_may_double),
            self.was_doubled,
            self.colour.sign(),
            self.direction.sign(),
            self.home,
            self.bar,
        )?;
        write!(
            f,
            ":{}:{}:{}:{}:{}:{}:{}:{}",
            self.on_home,
            self.opponent_on_home,
            self.on_bar,
            self.opponent_on_bar,
            self.can_move,
            self.forced_move,
            u8::from(self.post_crawford),
            self.redoubles,
        )
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn out_of_range(
    field: usize,
    value: impl fmt::Display,
    min: impl Into<i64>,
    max: impl Into<i64>,
) -> FibsError {
    FibsError::OutOfRange {
        field,
        text: value.to_string(),
        min: min.into(),
        max: max.into(),
    }
}

fn check_range<T>(field: usize, value: T, min: T, max: T) -> Result<(), FibsError>
where
    T: PartialOrd + fmt::Display + Into<i64>,
{
    if value < min || value > max {
        Err(out_of_range(field, value, min, max))
    } else {
        Ok(())
    }
}

fn check_name(field: usize, name: &str) -> Result<(), FibsError> {
    let usable = !name.is_empty()
        && !name.starts_with(is_blank)
        && !name.ends_with(is_blank)
        && !name.chars().any(|c| c == ':' || c.is_control());
    if usable {
        Ok(())
    } else {
        Err(FibsError::BadName {
            field,
            text: name.to_string(),
        })
    }
}

/// The 52 trimmed fields of a line, read by 1-based field number.
struct Fields<'a>(&'a [&'a str]);

impl Fields<'_> {
    fn text(&self, field: usize) -> &str {
        self.0[field - 1]
    }

    fn name(&self, field: usize) -> Result<String, FibsError> {
        let text = self.text(field);
        check_name(field, text)?;
        Ok(text.to_string())
    }

    fn int(&self, field: usize, min: i64, max: i64) -> Result<i64, FibsError> {
        let text = self.text(field);
        match text.parse::<i64>() {
            Ok(value) if (min..=max).contains(&value) => Ok(value),
            Ok(_) => Err(out_of_range(field, text, min, max)),
            Err(e) => match e.kind() {
                std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                    Err(out_of_range(field, text, min, max))
                }
                _ => Err(FibsError::NotANumber {
                    field,
                    text: text.to_string(),
                }),
            },
        }
    }

    fn flag(&self, field: usize) -> Result<bool, FibsError> {
        Ok(self.int(field, 0, 1)? == 1)
    }

    fn sign<T>(&self, field: usize, from_sign: fn(i64) -> Option<T>) -> Result<T, FibsError> {
        let value = self.int(field, -1, 1)?;
        from_sign(value).ok_or_else(|| FibsError::BadValue {
            field,
            text: self.text(field).to_string(),
            expected: "1 or -1",
        })
    }

    fn dice(&self, field: usize) -> Result<Option<Dice>, FibsError> {
        let first = self.int(field, 0, 6)? as u8;
        let second = self.int(field + 1, 0, 6)? as u8;
        match (first, second) {
            (0, 0) => Ok(None),
            (1..=6, 1..=6) => Ok(Some(Dice::new(first, second).expect("dice in 1..=6"))),
            _ => Err(FibsError::DicePair {
                field,
                first,
                second,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board line posted on a backgammon forum (one of the FIBS board examples that
    /// tests/fibs.rs reads), spaces removed.
    const FORUM: &str = "board:mpgnu:buster:17:0:2:0:0:0:2:1:4:3:0:1:0:1:0:0:2:0:0:0:0:0:1:-2:-2:-1:-4:-4:0:-1:3:6:0:0:1:1:1:0:-1:1:25:0:2:0:0:0:2:2:0:0";

    /// The first board GNU Backgammon sent in the recorded external-player session that
    /// tests/fibs.rs replays.
    const TRACE_FIRST: &str = "board:gnubg:root:5:0:0:0:-1:-1:0:0:0:5:0:3:0:0:0:-4:5:-1:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    fn with_field(line: &str, number: usize, value: &str) -> String {
        let body = line.strip_prefix(PREFIX).unwrap();
        let mut fields: Vec<&str> = body.split(':').collect();
        fields[number - 1] = value;
        format!("{PREFIX}{}", fields.join(":"))
    }

    #[test]
    fn parses_and_formats_the_forum_example() {
        let b = FibsBoard::parse(FORUM).unwrap();
        assert_eq!(b.name, "mpgnu");
        assert_eq!(b.opponent, "buster");
        assert_eq!((b.match_length, b.score, b.opponent_score), (17, 0, 2));
        assert_eq!(b.board[3], 2);
        assert_eq!(b.board[24], -4);
        assert_eq!(b.turn, Some(FibsColour::X));
        assert_eq!(b.dice, Some(Dice::new(3, 6).unwrap()));
        assert_eq!(b.opponent_dice, None);
        assert_eq!(b.cube, 1);
        assert!(b.may_double && b.opponent_may_double);
        assert_eq!(b.was_doubled, 0);
        assert_eq!((b.colour, b.direction), (FibsColour::X, Direction::Up));
        assert_eq!((b.home, b.bar), (25, 0));
        assert_eq!((b.on_home, b.opponent_on_home), (2, 0));
        assert_eq!((b.can_move, b.forced_move), (2, 2));
        assert!(!b.post_crawford);
        assert_eq!(b.redoubles, 0);
        assert_eq!(b.to_string(), FORUM);
        assert_eq!(FORUM.parse::<FibsBoard>().unwrap(), b);
    }

    #[test]
    fn tolerates_blanks_and_line_ends() {
        let spaced = FORUM.replace(':', ": ").replacen("board: ", "board:", 1);
        assert_eq!(FibsBoard::parse(&spaced).unwrap().to_string(), FORUM);
        let ended = format!("  {FORUM} \r\n\0");
        assert_eq!(FibsBoard::parse(&ended).unwrap().to_string(), FORUM);
        let signed = with_field(FORUM, 3, "+017");
        assert_eq!(FibsBoard::parse(&signed).unwrap().to_string(), FORUM);
    }

    #[test]
    fn rejects_malformed_lines() {
        assert_eq!(FibsBoard::parse("bored:a:b"), Err(FibsError::MissingPrefix));
        assert_eq!(
            FibsBoard::parse(&FORUM[..FORUM.len() - 2]),
            Err(FibsError::FieldCount { found: 51 })
        );
        assert_eq!(
            FibsBoard::parse(&format!("{FORUM}:0")),
            Err(FibsError::FieldCount { found: 53 })
        );
        let e = FibsBoard::parse(&with_field(FORUM, 12, "x")).unwrap_err();
        assert_eq!(
            e,
            FibsError::NotANumber {
                field: 12,
                text: "x".into()
            }
        );
        assert_eq!(e.to_string(), "field 12 (board[6]) is not a number: \"x\"");
        let e = FibsBoard::parse(&with_field(FORUM, 12, "16")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "field 12 (board[6]) is 16, outside -15 to 15"
        );
        let e = FibsBoard::parse(&with_field(FORUM, 33, "7")).unwrap_err();
        assert!(matches!(e, FibsError::OutOfRange { field: 33, .. }), "{e}");
        let e = FibsBoard::parse(&with_field(FORUM, 34, "0")).unwrap_err();
        assert_eq!(
            e,
            FibsError::DicePair {
                field: 33,
                first: 3,
                second: 0
            }
        );
        let e = FibsBoard::parse(&with_field(FORUM, 37, "3")).unwrap_err();
        assert!(matches!(e, FibsError::BadValue { field: 37, .. }), "{e}");
        let e = FibsBoard::parse(&with_field(FORUM, 41, "0")).unwrap_err();
        assert!(matches!(e, FibsError::BadValue { field: 41, .. }), "{e}");
        let e = FibsBoard::parse(&with_field(FORUM, 38, "2")).unwrap_err();
        assert!(matches!(e, FibsError::OutOfRange { field: 38, .. }), "{e}");
        let e = FibsBoard::parse(&with_field(FORUM, 1, "")).unwrap_err();
        assert!(matches!(e, FibsError::BadName { field: 1, .. }), "{e}");
        let e = FibsBoard::parse(&with_field(FORUM, 2, "a\u{1}b")).unwrap_err();
        assert!(matches!(e, FibsError::BadName { field: 2, .. }), "{e}");
        let e = FibsBoard::parse(&with_field(FORUM, 4, "99999999999999999999999")).unwrap_err();
        assert!(matches!(e, FibsError::OutOfRange { field: 4, .. }), "{e}");
        // 13 X checkers on the board and 3 borne off.
        let e = FibsBoard::parse(&with_field(FORUM, 45, "3")).unwrap_err();
        assert_eq!(
            e,
            FibsError::TooManyCheckers {
                colour: FibsColour::X,
                count: 16
            }
        );
        // A 16th O checker on O's bar (slot 25, since mpgnu = X moves up and has its bar at 0).
        let e = FibsBoard::parse(&with_field(FORUM, 31, "1")).unwrap_err();
        assert_eq!(
            e,
            FibsError::TooManyCheckers {
                colour: FibsColour::O,
                count: 16
            }
        );
    }

    #[test]
    fn forum_example_as_a_game() {
        let game = FibsBoard::parse(FORUM).unwrap().to_game().unwrap();
        let s = &game.state;
        assert_eq!(game.name(Player::One), "mpgnu");
        assert_eq!(game.name(Player::Zero), "buster");
        assert_eq!(
            (game.colour, game.direction),
            (FibsColour::X, Direction::Up)
        );
        assert_eq!(s.match_length, 17);
        assert_eq!(s.score, [2, 0]);
        assert_eq!(
            (s.on_roll, s.turn, s.doubled),
            (Player::One, Player::One, false)
        );
        assert_eq!(s.dice, Some(Dice::new(3, 6).unwrap()));
        assert_eq!((s.cube_value(), s.cube_owner), (1, CubeOwner::Centered));
        assert!(!s.crawford);
        let p = game.position;
        assert_eq!(p.pip_count(Side::Player), 33);
        assert_eq!(p.pip_count(Side::Opponent), 111);
        assert_eq!((p.off(Side::Player), p.off(Side::Opponent)), (2, 0));
        assert_eq!(p.side(Side::Player)[..6], [4, 4, 1, 2, 2, 0]);
        assert!(p.is_race());
        // gnubg's writer puts mpgnu down as O moving from 24 to 1.
        let written = FibsBoard::from_game(&game).unwrap().to_string();
        assert_eq!(
            written,
            "board:mpgnu:buster:17:0:2:0:4:4:1:2:2:-1:0:0:0:0:0:-2:0:0:-1:0:-1:0:-3:-4:-1:-2:0:0:0:\
             1:3:6:3:6:1:1:1:0:1:-1:0:25:2:0:0:0:0:0:0:1"
        );
        let again = FibsBoard::parse(&written).unwrap().to_game().unwrap();
        assert_eq!(again.position, game.position);
        assert_eq!(again.state, game.state);
        assert_eq!(again.names, game.names);
    }

    #[test]
    fn first_trace_line_as_a_game() {
        let board = FibsBoard::parse(TRACE_FIRST).unwrap();
        let game = board.to_game().unwrap();
        let s = &game.state;
        assert_eq!(
            (s.on_roll, s.turn, s.dice),
            (Player::One, Player::One, None)
        );
        assert_eq!(game.position.pip_count(Side::Player), 167);
        // X opened with 21 played 24/23 13/11.
        assert_eq!(game.position.pip_count(Side::Opponent), 164);
        assert_eq!(game.position.side(Side::Opponent)[22..], [1, 1, 0]);
        assert_eq!(FibsBoard::from_game(&game).unwrap(), board);
    }

    #[test]
    fn pending_doubles() {
        // You (O) are on roll and doubled; the opponent must answer.
        let you_doubled = with_field(&with_field(TRACE_FIRST, 40, "1"), 39, "1");
        let game = FibsBoard::parse(&you_doubled).unwrap().to_game().unwrap();
        let s = game.state;
        assert!(s.doubled);
        assert_eq!((s.on_roll, s.turn), (Player::One, Player::Zero));
        assert_eq!(game.position_to_act(), game.position.swap());
        // FIBS style: both may-double flags cleared, the opponent (X) on roll.
        let they_doubled = with_field(
            &with_field(&with_field(TRACE_FIRST, 32, "-1"), 38, "0"),
            39,
            "0",
        );
        let game = FibsBoard::parse(&they_doubled).unwrap().to_game().unwrap();
        let s = game.state;
        assert!(s.doubled);
        assert_eq!((s.on_roll, s.turn), (Player::Zero, Player::One));
        assert_eq!(s.cube_owner, CubeOwner::Centered);
        assert_eq!(game.position.pip_count(Side::Player), 164);
        assert_eq!(game.position_to_act().pip_count(Side::Player), 167);
    }

    #[test]
    fn crawford_detection() {
        // 5-point match, you at 4: 1-away.
        let line = with_field(&with_field(TRACE_FIRST, 4, "4"), 52, "0");
        let game = FibsBoard::parse(&line).unwrap().to_game().unwrap();
        assert!(game.state.crawford);
        assert!(!game.state.is_post_crawford());
        assert_eq!(FibsBoard::from_game(&game).unwrap().to_string(), line);
        let post = with_field(&line, 51, "1");
        let game = FibsBoard::parse(&post).unwrap().to_game().unwrap();
        assert!(!game.state.crawford && game.state.is_post_crawford());
        let written = FibsBoard::from_game(&game).unwrap();
        assert!(written.post_crawford);
        assert_eq!(written.redoubles, 1);
        let no_rule = with_field(&line, 52, "3");
        assert!(
            !FibsBoard::parse(&no_rule)
                .unwrap()
                .to_game()
                .unwrap()
                .state
                .crawford
        );
        // Nobody 1-away: never Crawford.
        let early = with_field(TRACE_FIRST, 52, "0");
        assert!(
            !FibsBoard::parse(&early)
                .unwrap()
                .to_game()
                .unwrap()
                .state
                .crawford
        );
    }

    #[test]
    fn money_and_bad_games() {
        let money = with_field(&with_field(TRACE_FIRST, 3, "9999"), 5, "12");
        let game = FibsBoard::parse(&money).unwrap().to_game().unwrap();
        assert!(game.state.is_money());
        assert_eq!(game.state.score, [12, 0]);
        assert_eq!(FibsBoard::from_game(&game).unwrap().match_length, 0);
        let over = with_field(TRACE_FIRST, 32, "0");
        assert_eq!(
            FibsBoard::parse(&over).unwrap().to_game(),
            Err(FibsError::GameOver)
        );
        let won = with_field(TRACE_FIRST, 5, "5");
        assert_eq!(
            FibsBoard::parse(&won).unwrap().to_game(),
            Err(FibsError::ScoreNotBelowLength {
                score: 5,
                length: 5
            })
        );
    }

    #[test]
    fn hand_made_boards_are_validated_before_conversion() {
        let mut board = FibsBoard::parse(TRACE_FIRST).unwrap();
        board.cube = 0;
        assert!(matches!(
            board.to_game(),
            Err(FibsError::OutOfRange { field: 37, .. })
        ));
        board.cube = 6;
        assert!(matches!(
            board.to_game(),
            Err(FibsError::BadValue { field: 37, .. })
        ));
        board.cube = 2;
        board.board[6] = 16;
        assert!(matches!(
            board.validate(),
            Err(FibsError::OutOfRange { field: 12, .. })
        ));
        board.board[6] = 10;
        assert!(matches!(
            board.validate(),
            Err(FibsError::TooManyCheckers {
                colour: FibsColour::O,
                count: 20
            })
        ));
        board.board[6] = 5;
        board.name = "x:y".into();
        assert!(matches!(
            board.to_game(),
            Err(FibsError::BadName { field: 1, .. })
        ));
    }

    #[test]
    fn writer_sanitises_names() {
        let mut game = FibsBoard::parse(TRACE_FIRST).unwrap().to_game().unwrap();
        game.names[1] = "a:b".into();
        assert_eq!(FibsBoard::from_game(&game).unwrap().name, "a_b");
        game.names[0] = "bad\nname".into();
        assert!(matches!(
            FibsBoard::from_game(&game),
            Err(FibsError::BadName { field: 2, .. })
        ));
    }
}
