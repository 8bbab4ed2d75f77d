//! eXtreme Gammon's position ID, the XGID:
//!
//! ```text
//! XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
//!      position                   | | | |  | | | | max cube (log2)
//!                                 | | | |  | | | match length (0 = money)
//!                                 | | | |  | | rules: Crawford (match) / Jacoby+beaver (money)
//!                                 | | | |  | score of the top player (gnubg player 0, O)
//!                                 | | | |  score of the bottom player (gnubg player 1, X)
//!                                 | | | dice: 00 not rolled, 2 digits rolled, D double pending
//!                                 | | turn: 1 bottom, -1 top
//!                                 | cube position: 1 bottom owns, 0 centred, -1 top owns
//!                                 cube value (log2)
//! ```
//!
//! # Orientation
//!
//! Unlike a [`Position`], an XGID is written from a fixed physical viewpoint, whoever is on roll.
//! The **bottom** player writes upper-case letters and is GNU Backgammon's player 1 (X); the
//! **top** player writes lower-case letters and is player 0 (O). Character 0 is the top player's
//! bar, characters 1 to 24 are the points numbered from the bottom player's side (the bottom
//! player's own point `i`, the top player's own point `25 - i`), character 25 is the bottom
//! player's bar. `-` is an empty point, `A`..`P` (`a`..`p`) are 1 to 16 checkers.
//!
//! Converting to and from the library's types ([`Position`] oriented to
//! [`MatchState::on_roll`]) follows GNU Backgammon's `set xgid` importer:
//! * the turn field is the player on roll (the dice owner). With `D` (a double offered and not
//!   answered yet) it is the doubler: `on_roll` = the doubler, [`MatchState::turn`] = the other
//!   player, [`MatchState::doubled`] = true, and the cube fields describe the cube before the
//!   double, as in the Match ID;
//! * dice are kept in the order written (`21` and `12` both read; the order survives);
//! * the rules field is the Crawford flag in match play (0 or 1) and a bit mask in money play
//!   (1 = Jacoby, 2 = beavers);
//! * the game state is always "playing" and no resignation is pending.
//!
//! XGIDs cannot carry a resignation, a finished game, the Jacoby flag of a match, or dice
//! rolled while a double is pending; [`representable`] gives the part of a [`MatchState`] that
//! survives the trip. The beaver/raccoon dice codes `B` and `R` of eXtreme Gammon have no
//! counterpart in [`MatchState`] (nor in GNU Backgammon) and are rejected.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::game::match_state::{CubeOwner, GameState, MatchState, Player};
use crate::rules::dice::Dice;
use crate::rules::position::{Position, PositionError, Side};

/// Number of characters in the position field.
pub const XGID_POSITION_LEN: usize = 26;

/// The largest cube exponent a [`MatchState`] (and a Match ID) holds: a cube of 32768.
pub const MAX_CUBE_LOG2: u8 = 15;

/// The fields of an XGID after the position, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XgidField {
    Cube,
    CubePosition,
    Turn,
    Dice,
    ScoreBottom,
    ScoreTop,
    Rules,
    MatchLength,
    MaxCube,
}

impl XgidField {
    /// The nine numeric fields in the order they are written.
    const ALL: [XgidField; 9] = [
        XgidField::Cube,
        XgidField::CubePosition,
        XgidField::Turn,
        XgidField::Dice,
        XgidField::ScoreBottom,
        XgidField::ScoreTop,
        XgidField::Rules,
        XgidField::MatchLength,
        XgidField::MaxCube,
    ];
}

impl fmt::Display for XgidField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            XgidField::Cube => "cube (field 2)",
            XgidField::CubePosition => "cube position (field 3)",
            XgidField::Turn => "turn (field 4)",
            XgidField::Dice => "dice (field 5)",
            XgidField::ScoreBottom => "bottom player's score (field 6)",
            XgidField::ScoreTop => "top player's score (field 7)",
            XgidField::Rules => "rules (field 8)",
            XgidField::MatchLength => "match length (field 9)",
            XgidField::MaxCube => "maximum cube (field 10)",
        })
    }
}

/// Why a text is not a valid XGID.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum XgidError {
    /// Not ten `:`-separated fields.
    #[error(
        "an XGID has 10 fields separated by ':' (the position and 9 numbers), this one has {0}"
    )]
    FieldCount(usize),
    /// The position field does not have 26 characters.
    #[error("the position field of an XGID has 26 characters, this one has {0}")]
    PositionLength(usize),
    /// A character of the position field is not `-`, `A`..`P` or `a`..`p`.
    #[error("character {ch:?} at position {index} of the position field is not '-', A-P or a-p")]
    BadChecker { ch: char, index: usize },
    /// Checkers of one player on the other player's bar.
    #[error(
        "character {ch:?} at position {index} puts the {wrong} player's checkers on the {owner} \
         player's bar"
    )]
    WrongBar {
        ch: char,
        index: usize,
        wrong: &'static str,
        owner: &'static str,
    },
    /// More than 15 checkers of one player.
    #[error("the {player} player has {count} checkers on the board; at most 15 are allowed")]
    TooManyCheckers {
        /// `"bottom"` (upper case) or `"top"` (lower case).
        player: &'static str,
        count: u32,
    },
    /// The checkers do not form a legal position (both players on the bar against closed
    /// boards).
    #[error("not a legal position: {0}")]
    Position(#[from] PositionError),
    /// A numeric field is not a number or out of range.
    #[error("the {field} is {}; expected {expected}", crate::formats::quote(.value))]
    BadField {
        field: XgidField,
        value: String,
        expected: &'static str,
    },
    /// eXtreme Gammon's beaver (`B`) or raccoon (`R`) dice codes.
    #[error(
        "the dice field {} records a beaver or raccoon, which cannot be represented",
        crate::formats::quote(.0)
    )]
    Beaver(String),
    /// A score above the match length.
    #[error("the {field} is {score}, more than the match length {length}")]
    ScoreBeyondMatch {
        field: XgidField,
        score: u16,
        length: u16,
    },
}

/// A parsed XGID: the position (oriented to the player on roll), the match state and the
/// XGID-only fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xgid {
    /// The checkers, oriented to `state.on_roll` (see the [module documentation](self)).
    pub position: Position,
    /// The match state. Parsing always yields [`GameState::Playing`] and no resignation.
    pub state: MatchState,
    /// log2 of the money-play cube limit (10 = 1024, eXtreme Gammon's default). GNU Backgammon
    /// ignores it; kept so that an XGID is written back unchanged.
    pub max_cube_log2: u8,
    /// Beavers allowed (money play only; bit 2 of the rules field). Ignored in match play.
    pub beavers: bool,
}

impl Xgid {
    /// The maximum cube written when none is known: eXtreme Gammon's default, 2^10.
    pub const DEFAULT_MAX_CUBE_LOG2: u8 = 10;

    /// An XGID for `position` (oriented to `state.on_roll`) and `state`, with the default
    /// maximum cube and no beavers.
    pub fn new(position: Position, state: MatchState) -> Xgid {
        Xgid {
            position,
            state,
            max_cube_log2: Xgid::DEFAULT_MAX_CUBE_LOG2,
            beavers: false,
        }
    }

    /// Parses an XGID, with or without the leading `XGID=` (any case). Surrounding whitespace is
    /// ignored.
    ///
    /// ```
    /// use cubeful_engine::formats::ids::xgid::Xgid;
    /// use cubeful_engine::{Player, Side};
    ///
    /// // Top player (O, gnubg player 0) to play 4-2 in a 5-point match, owning the 2-cube.
    /// let x = Xgid::parse("XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8")?;
    /// assert_eq!(x.state.on_roll, Player::Zero);
    /// // The position is seen from O: five checkers on O's own 1 point (character 24).
    /// assert_eq!(x.position.checkers(Side::Player, 1)?, 5);
    /// assert_eq!(x.max_cube_log2, 8);
    /// assert_eq!(x.to_string(), "XGID=-BDB-------------a------e-:1:-1:-1:42:0:0:0:5:8");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(s: &str) -> Result<Xgid, XgidError> {
        let s = s.trim();
        let s = match s.get(..5) {
            Some(head) if head.eq_ignore_ascii_case("XGID=") => &s[5..],
            _ => s,
        };
        let fields: Vec<&str> = s.split(':').collect();
        let [board, rest @ ..] = fields.as_slice() else {
            return Err(XgidError::FieldCount(fields.len()));
        };
        let Ok(rest) = <[&str; 9]>::try_from(rest) else {
            return Err(XgidError::FieldCount(fields.len()));
        };
        let value = |i: usize| Field {
            field: XgidField::ALL[i],
            text: rest[i],
        };

        let (bottom, top) = parse_board(board)?;

        let cube_log2 = value(0).int(0, i64::from(MAX_CUBE_LOG2), "0 to 15 (log2 of the cube)")?;
        let cube_owner =
            match value(1).int(-1, 1, "1 (bottom owns), 0 (centred) or -1 (top owns)")? {
                1 => CubeOwner::Owned(Player::One),
                -1 => CubeOwner::Owned(Player::Zero),
                _ => CubeOwner::Centered,
            };
        let on_roll = match value(2).text {
            "1" => Player::One,
            "-1" => Player::Zero,
            _ => return Err(value(2).bad("1 (bottom) or -1 (top)")),
        };
        let (dice, doubled) = value(3).dice()?;
        let score_bottom = value(4).int(0, 0x7fff, "a score from 0 to 32767")?;
        let score_top = value(5).int(0, 0x7fff, "a score from 0 to 32767")?;
        let match_length = value(7).int(0, 0x7fff, "a match length from 0 (money) to 32767")?;
        let (crawford, jacoby, beavers) = if match_length == 0 {
            let rules = value(6).int(0, 3, "0 to 3 in money play (1 = Jacoby, 2 = beavers)")?;
            (false, rules & 1 != 0, rules & 2 != 0)
        } else {
            let rules = value(6).int(0, 1, "0 or 1 in match play (1 = Crawford game)")?;
            (rules == 1, false, false)
        };
        let max_cube_log2 =
            value(8).int(0, i64::from(MAX_CUBE_LOG2), "0 to 15 (log2 of the cube)")?;

        let (score_bottom, score_top, match_length) =
            (score_bottom as u16, score_top as u16, match_length as u16);
        if match_length > 0 {
            for (field, score) in [
                (XgidField::ScoreBottom, score_bottom),
                (XgidField::ScoreTop, score_top),
            ] {
                if score > match_length {
                    return Err(XgidError::ScoreBeyondMatch {
                        field,
                        score,
                        length: match_length,
                    });
                }
            }
        }

        let position = match on_roll {
            Player::One => Position::from_sides(&bottom, &top)?,
            Player::Zero => Position::from_sides(&top, &bottom)?,
        };
        let state = MatchState {
            cube_log2: cube_log2 as u8,
            cube_owner,
            on_roll,
            crawford,
            game_state: GameState::Playing,
            turn: if doubled { on_roll.other() } else { on_roll },
            doubled,
            resigned: None,
            dice,
            match_length,
            score: [score_top, score_bottom],
            jacoby,
        };
        Ok(Xgid {
            position,
            state,
            max_cube_log2: max_cube_log2 as u8,
            beavers,
        })
    }

    /// The rules field as written: the Crawford flag in match play, Jacoby + 2 × beavers in money
    /// play.
    fn rules(&self) -> u8 {
        if self.state.is_money() {
            u8::from(self.state.jacoby) | u8::from(self.beavers) << 1
        } else {
            u8::from(self.state.crawford)
        }
    }
}

/// One numeric field being parsed.
struct Field<'a> {
    field: XgidField,
    text: &'a str,
}

impl Field<'_> {
    fn bad(&self, expected: &'static str) -> XgidError {
        XgidError::BadField {
            field: self.field,
            value: self.text.to_string(),
            expected,
        }
    }

    /// An integer in `min..=max`: an optional `-` and ASCII digits.
    fn int(&self, min: i64, max: i64, expected: &'static str) -> Result<i64, XgidError> {
        let digits = self.text.strip_prefix('-').unwrap_or(self.text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.bad(expected));
        }
        match self.text.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(self.bad(expected)),
        }
    }

    /// The dice field: `00`, two dice `11`..`66`, or `D`. Returns the dice and whether a double
    /// is pending.
    fn dice(&self) -> Result<(Option<Dice>, bool), XgidError> {
        const EXPECTED: &str = "00 (not rolled), two dice such as 31, or D (double offered)";
        match self.text.as_bytes() {
            b"D" => Ok((None, true)),
            b"B" | b"R" => Err(XgidError::Beaver(self.text.to_string())),
            b"00" => Ok((None, false)),
            &[a, b] if (b'1'..=b'6').contains(&a) && (b'1'..=b'6').contains(&b) => {
                let dice = Dice::new(a - b'0', b - b'0').map_err(|_| self.bad(EXPECTED))?;
                Ok((Some(dice), false))
            }
            _ => Err(self.bad(EXPECTED)),
        }
    }
}

/// The two per-side arrays (GNU Backgammon layout: own points 1..=24, then the bar) of the
/// bottom and the top player.
fn parse_board(board: &str) -> Result<([u8; 25], [u8; 25]), XgidError> {
    let len = board.chars().count();
    if len != XGID_POSITION_LEN {
        return Err(XgidError::PositionLength(len));
    }
    let mut bottom = [0u8; 25];
    let mut top = [0u8; 25];
    for (index, ch) in board.chars().enumerate() {
        let (is_bottom, count) = match ch {
            '-' => continue,
            'A'..='P' => (true, ch as u8 - b'A' + 1),
            'a'..='p' => (false, ch as u8 - b'a' + 1),
            _ => return Err(XgidError::BadChecker { ch, index }),
        };
        match (index, is_bottom) {
            (0, false) => top[24] = count,
            (25, true) => bottom[24] = count,
            (0, true) | (25, false) => {
                let (wrong, owner) = if is_bottom {
                    ("bottom", "top")
                } else {
                    ("top", "bottom")
                };
                return Err(XgidError::WrongBar {
                    ch,
                    index,
                    wrong,
                    owner,
                });
            }
            (point, true) => bottom[point - 1] = count,
            (point, false) => top[24 - point] = count,
        }
    }
    for (player, side) in [("bottom", &bottom), ("top", &top)] {
        let count: u32 = side.iter().map(|&c| u32::from(c)).sum();
        if count > 15 {
            return Err(XgidError::TooManyCheckers { player, count });
        }
    }
    Ok((bottom, top))
}

fn checker_char(count: u8, upper: bool) -> char {
    if count == 0 {
        '-'
    } else {
        let base = if upper { b'A' } else { b'a' };
        // Positions hold at most 15 checkers a side; clamp anyway so the output stays a letter.
        char::from(base + count.min(16) - 1)
    }
}

impl fmt::Display for Xgid {
    /// Writes the XGID with its `XGID=` prefix. The dice are written as `D` while a double is
    /// pending, as stored otherwise; fields an XGID cannot hold are left out (see
    /// [`representable`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = &self.state;
        let (bottom, top) = match state.on_roll {
            Player::One => (
                self.position.side(Side::Player),
                self.position.side(Side::Opponent),
            ),
            Player::Zero => (
                self.position.side(Side::Opponent),
                self.position.side(Side::Player),
            ),
        };
        let mut board = String::with_capacity(XGID_POSITION_LEN);
        board.push(checker_char(top[24], false));
        for point in 1..=24 {
            let ch = if bottom[point - 1] > 0 {
                checker_char(bottom[point - 1], true)
            } else {
                checker_char(top[24 - point], false)
            };
            board.push(ch);
        }
        board.push(checker_char(bottom[24], true));

        let cube_position = match state.cube_owner {
            CubeOwner::Centered => 0,
            CubeOwner::Owned(Player::One) => 1,
            CubeOwner::Owned(Player::Zero) => -1,
        };
        let turn = match state.on_roll {
            Player::One => 1,
            Player::Zero => -1,
        };
        let dice = match (state.doubled, state.dice) {
            (true, _) => "D".to_string(),
            (false, Some(d)) => d.to_string(),
            (false, None) => "00".to_string(),
        };
        write!(
            f,
            "XGID={board}:{}:{cube_position}:{turn}:{dice}:{}:{}:{}:{}:{}",
            state.cube_log2,
            state.score[1],
            state.score[0],
            self.rules(),
            state.match_length,
            self.max_cube_log2
        )
    }
}

impl FromStr for Xgid {
    type Err = XgidError;

    fn from_str(s: &str) -> Result<Xgid, XgidError> {
        Xgid::parse(s)
    }
}

/// The XGID of `position` (oriented to `state.on_roll`) and `state`, with the default maximum
/// cube and no beavers.
pub fn encode(position: &Position, state: &MatchState) -> String {
    Xgid::new(*position, *state).to_string()
}

/// The position (oriented to the player on roll) and match state of an XGID, dropping the
/// XGID-only fields.
pub fn decode(s: &str) -> Result<(Position, MatchState), XgidError> {
    Xgid::parse(s).map(|x| (x.position, x.state))
}

/// The part of `state` an XGID carries: what parsing [`encode`]'s output gives back.
///
/// The game state becomes [`GameState::Playing`] with no resignation; the player to act is the
/// player on roll, or the other player while a double is pending (whose dice are then dropped);
/// the Crawford flag is dropped in money play and the Jacoby flag in match play.
pub fn representable(state: &MatchState) -> MatchState {
    let mut s = *state;
    s.game_state = GameState::Playing;
    s.resigned = None;
    if s.doubled {
        s.turn = s.on_roll.other();
        s.dice = None;
    } else {
        s.turn = s.on_roll;
    }
    if s.is_money() {
        s.crawford = false;
    } else {
        s.jacoby = false;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";

    #[test]
    fn starting_position() {
        let x = Xgid::parse(START).unwrap();
        assert_eq!(x.position, Position::starting());
        assert_eq!(x.state, MatchState::money());
        assert_eq!(x.max_cube_log2, 10);
        assert_eq!(x.to_string(), START);
        assert_eq!(Xgid::parse(&START[5..]), Ok(x));
        assert_eq!(encode(&Position::starting(), &MatchState::money()), START);
    }

    #[test]
    fn top_on_roll_and_pending_double() {
        // O (top) doubled in a 7-point match, X to answer.
        let x = Xgid::parse("XGID=-BF-CB--A--a--a------cccdA:1:-1:-1:D:2:0:0:7:10").unwrap();
        assert_eq!(x.state.on_roll, Player::Zero);
        assert_eq!(x.state.turn, Player::One);
        assert!(x.state.doubled);
        assert_eq!(x.state.score, [0, 2]);
        assert_eq!(x.state.cube_owner, CubeOwner::Owned(Player::Zero));
        // O's own 1 point holds 4 checkers: character 24.
        assert_eq!(x.position.checkers(Side::Player, 1), Ok(4));
        assert_eq!(x.position.bar(Side::Opponent), 1);
    }

    #[test]
    fn errors() {
        assert_eq!(Xgid::parse("XGID="), Err(XgidError::FieldCount(1)));
        assert_eq!(
            Xgid::parse("-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10"),
            Err(XgidError::PositionLength(25))
        );
        assert!(matches!(
            Xgid::parse("Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"),
            Err(XgidError::WrongBar { index: 0, .. })
        ));
        assert!(matches!(
            Xgid::parse("-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10"),
            Err(XgidError::BadField {
                field: XgidField::Turn,
                ..
            })
        ));
        assert!(matches!(
            Xgid::parse("-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10"),
            Err(XgidError::BadField {
                field: XgidField::Dice,
                ..
            })
        ));
        assert_eq!(
            Xgid::parse("-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10"),
            Err(XgidError::Beaver("B".into()))
        );
        assert!(matches!(
            Xgid::parse("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10"),
            Err(XgidError::BadField {
                field: XgidField::Rules,
                ..
            })
        ));
        assert_eq!(
            Xgid::parse("-b----E-C---eE---c-e----B-:0:0:1:00:8:0:0:7:10"),
            Err(XgidError::ScoreBeyondMatch {
                field: XgidField::ScoreBottom,
                score: 8,
                length: 7
            })
        );
        assert_eq!(
            Xgid::parse("-b----E-C---eE---c-e----F-:0:0:1:00:0:0:0:0:10"),
            Err(XgidError::TooManyCheckers {
                player: "bottom",
                count: 19
            })
        );
        // Both players on the bar against closed boards.
        assert_eq!(
            Xgid::parse("aBBBBBB------------bbbbbbA:0:0:1:00:0:0:0:0:10"),
            Err(XgidError::Position(PositionError::BothClosedOut))
        );
    }
}
