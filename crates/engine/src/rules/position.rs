//! The checker position: where the 30 checkers stand, seen from the player on roll.
//!
//! A [`Position`] is always oriented to the *player on roll* (the player who owns the dice, or who is
//! about to roll), exactly as GNU Backgammon's internal board is. Points are numbered 1..=24 from that
//! player's side: the player moves from 24 towards 1 and bears off from the home board 1..=6. The
//! opponent's point `p` in the opponent's own numbering is point `25 - p` here.
//!
//! The board is one signed array, so two players on the same point cannot be represented at all;
//! the validating constructors reject more than 15 checkers a side and the one dead-locked position
//! GNU Backgammon rejects (both players on the bar against closed boards). Borne-off checkers are not
//! stored: they are derived as 15 minus the checkers on the board.

use std::fmt;

use thiserror::Error;

/// Number of checkers each side starts with.
pub const CHECKERS: u8 = 15;
/// Index of the player's bar in [`Position::board`], also the notation for "bar" as a source point.
pub const BAR: usize = 25;
/// Index of the opponent's bar in [`Position::board`]; also "off" as a destination in move notation.
pub const OFF: usize = 0;

/// One of the two sides of a [`Position`], relative to who is on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The player on roll (the mover).
    Player,
    /// The player not on roll.
    Opponent,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Player => Side::Opponent,
            Side::Opponent => Side::Player,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Player => "player on roll",
            Side::Opponent => "opponent",
        })
    }
}

/// Why a set of checker counts is not a backgammon position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A side has more than 15 checkers on the board and the bar.
    #[error("the {side} has {count} checkers on the board; at most 15 are allowed")]
    TooManyCheckers { side: Side, count: u32 },
    /// Both sides have checkers on the same point (numbered from the player on roll).
    #[error("both players have checkers on point {point} (numbered from the player on roll)")]
    SharedPoint { point: u8 },
    /// Both players are on the bar and both home boards are closed: nobody could ever move.
    #[error("both players are on the bar against closed boards")]
    BothClosedOut,
    /// A point index outside 0..=25 was used.
    #[error("point {0} does not exist (points are 1 to 24, the bar is 25)")]
    NoSuchPoint(usize),
}

/// How a finished game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WinKind {
    /// The loser has borne off at least one checker.
    Single = 1,
    /// The loser has borne off no checker.
    Gammon = 2,
    /// Gammon, and the loser still has a checker on the bar or in the winner's home board.
    Backgammon = 3,
}

impl WinKind {
    /// Points won at cube value 1.
    pub fn points(self) -> u32 {
        self as u32
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub winner: Side,
    pub kind: WinKind,
}

/// A backgammon position seen from the player on roll. Small and `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// `board[1..=24]`: points from the mover's side; positive counts are the mover's checkers,
    /// negative counts the opponent's. `board[25]` (≥ 0): the mover's bar. `board[0]` (≤ 0): the
    /// opponent's bar, stored negative like all the opponent's checkers.
    board: [i8; 26],
}

impl Position {
    /// The starting position of a game of backgammon.
    pub fn starting() -> Position {
        let mut side = [0u8; 25];
        side[5] = 5;
        side[7] = 3;
        side[12] = 5;
        side[23] = 2;
        Position::from_sides(&side, &side).expect("the starting position is valid")
    }

    /// Builds a position from two per-side arrays in GNU Backgammon's layout: index 0..=23 is the
    /// side's own point 1..=24 (each side numbered from its own home), index 24 its bar.
    pub fn from_sides(player: &[u8; 25], opponent: &[u8; 25]) -> Result<Position, PositionError> {
        for (side, counts) in [(Side::Player, player), (Side::Opponent, opponent)] {
            let count: u32 = counts.iter().map(|&c| u32::from(c)).sum();
            if count > u32::from(CHECKERS) {
                return Err(PositionError::TooManyCheckers { side, count });
            }
        }
        let mut board = [0i8; 26];
        for point in 1..=24usize {
            let mine = player[point - 1];
            let theirs = opponent[24 - point];
            if mine > 0 && theirs > 0 {
                return Err(PositionError::SharedPoint { point: point as u8 });
            }
            board[point] = mine as i8 - theirs as i8;
        }
        board[BAR] = player[24] as i8;
        board[OFF] = -(opponent[24] as i8);
        let position = Position { board };
        if position.both_closed_out() {
            return Err(PositionError::BothClosedOut);
        }
        Ok(position)
    }

    /// Builds a position from lists of `(point, checkers)` for each side, every point numbered
    /// from that side's own home (1 to 24, 25 for its bar); a point listed twice counts the sum.
    /// Checkers not listed are borne off. For tests, examples and set-ups written by hand:
    /// `Position::from_points(&[(6, 5), (8, 3)], &[(25, 1)])`.
    pub fn from_points(
        player: &[(usize, u8)],
        opponent: &[(usize, u8)],
    ) -> Result<Position, PositionError> {
        let side = |points: &[(usize, u8)]| -> Result<[u8; 25], PositionError> {
            let mut counts = [0u8; 25];
            for &(point, n) in points {
                if !(1..=25).contains(&point) {
                    return Err(PositionError::NoSuchPoint(point));
                }
                counts[point - 1] = counts[point - 1].saturating_add(n);
            }
            Ok(counts)
        };
        Position::from_sides(&side(player)?, &side(opponent)?)
    }

    /// Builds a position from the signed board layout of [`Position::board`], validating it.
    pub fn from_board(board: [i8; 26]) -> Result<Position, PositionError> {
        if board[BAR] < 0 || board[OFF] > 0 {
            // A negative bar count is not a number of checkers at all.
            return Err(PositionError::TooManyCheckers {
                side: if board[BAR] < 0 {
                    Side::Player
                } else {
                    Side::Opponent
                },
                count: 16,
            });
        }
        let mut player = [0u8; 25];
        let mut opponent = [0u8; 25];
        for point in 1..=24usize {
            let c = board[point];
            if c > 0 {
                player[point - 1] = c as u8;
            } else {
                opponent[24 - point] = c.unsigned_abs();
            }
        }
        player[24] = board[BAR] as u8;
        opponent[24] = board[OFF].unsigned_abs();
        Position::from_sides(&player, &opponent)
    }

    /// Trusted constructor for hot paths that transform an already valid position.
    #[inline]
    pub(crate) fn from_board_unchecked(board: [i8; 26]) -> Position {
        debug_assert!(
            Position::from_board(board).is_ok(),
            "invalid board {board:?}"
        );
        Position { board }
    }

    /// The signed board, see the field documentation: index 1..=24 points from the mover's side,
    /// positive = mover, negative = opponent; 25 = mover's bar; 0 = opponent's bar (negative).
    #[inline]
    pub fn board(&self) -> &[i8; 26] {
        &self.board
    }

    /// The side's checkers in GNU Backgammon's layout: index 0..=23 = own points 1..=24, 24 = bar.
    pub fn side(&self, side: Side) -> [u8; 25] {
        let mut out = [0u8; 25];
        match side {
            Side::Player => {
                for point in 1..=24 {
                    out[point - 1] = self.board[point].max(0) as u8;
                }
                out[24] = self.board[BAR] as u8;
            }
            Side::Opponent => {
                for point in 1..=24 {
                    out[24 - point] = (-self.board[point]).max(0) as u8;
                }
                out[24] = (-self.board[OFF]) as u8;
            }
        }
        out
    }

    /// The farthest-back checker of `side` as an index of [`Position::side`]'s array (0 = its
    /// ace point, 24 = its bar), read straight from the board; `None` when it has none left.
    pub fn back_index(&self, side: Side) -> Option<usize> {
        let b = &self.board;
        match side {
            Side::Player if b[BAR] > 0 => Some(24),
            Side::Player => (1..=24).rev().find(|&p| b[p] > 0).map(|p| p - 1),
            Side::Opponent if b[OFF] < 0 => Some(24),
            Side::Opponent => (1..=24).find(|&p| b[p] < 0).map(|p| 24 - p),
        }
    }

    /// Checkers of `side` on its own point `point` (1..=24, each side numbered from its own home
    /// board) or on its bar (`point` = 25).
    pub fn checkers(&self, side: Side, point: usize) -> Result<u8, PositionError> {
        if !(1..=25).contains(&point) {
            return Err(PositionError::NoSuchPoint(point));
        }
        Ok(self.side(side)[point - 1])
    }

    /// Checkers of `side` on its bar.
    pub fn bar(&self, side: Side) -> u8 {
        match side {
            Side::Player => self.board[BAR] as u8,
            Side::Opponent => (-self.board[OFF]) as u8,
        }
    }

    /// Checkers of `side` still in play (on the board or on the bar).
    pub fn on_board(&self, side: Side) -> u8 {
        let points = &self.board[1..=24];
        let n: i32 = match side {
            Side::Player => points.iter().map(|&c| i32::from(c.max(0))).sum(),
            Side::Opponent => points.iter().map(|&c| -i32::from(c.min(0))).sum(),
        };
        n as u8 + self.bar(side)
    }

    /// Checkers of `side` borne off.
    pub fn off(&self, side: Side) -> u8 {
        CHECKERS - self.on_board(side)
    }

    /// The same position seen from the other side (the opponent becomes the player on roll).
    #[inline]
    pub fn swap(&self) -> Position {
        let mut board = [0i8; 26];
        for (i, b) in board.iter_mut().enumerate() {
            *b = -self.board[25 - i];
        }
        Position { board }
    }

    /// Pip count of `side`: the sum over its checkers of their distance from bearing off (the bar
    /// counts 25).
    pub fn pip_count(&self, side: Side) -> u32 {
        let mut pips = 0u32;
        for point in 1..=24u32 {
            let c = i32::from(self.board[point as usize]);
            match side {
                Side::Player if c > 0 => pips += point * c as u32,
                Side::Opponent if c < 0 => pips += (25 - point) * (-c) as u32,
                _ => {}
            }
        }
        pips + 25 * u32::from(self.bar(side))
    }

    /// True when neither side can hit the other any more: every checker of the player is past
    /// every checker of the opponent.
    pub fn is_race(&self) -> bool {
        // The player's rearmost checker (highest point, bar = 25) must be in front of the
        // opponent's rearmost checker (lowest point in our numbering, opponent's bar = 0).
        let player_back = (1..=25).rev().find(|&p| self.board[p] > 0).unwrap_or(0);
        let opponent_back = (0..=24).find(|&p| self.board[p] < 0).unwrap_or(25);
        player_back < opponent_back
    }

    /// The result if the game is over (one side has borne off all 15 checkers), else `None`.
    pub fn result(&self) -> Option<GameResult> {
        let (winner, loser_view) = if self.on_board(Side::Player) == 0 {
            (Side::Player, *self)
        } else if self.on_board(Side::Opponent) == 0 {
            (Side::Opponent, self.swap())
        } else {
            return None;
        };
        // `loser_view` is oriented to the winner; the loser's checkers are negative.
        let kind = if loser_view.off(Side::Opponent) > 0 {
            WinKind::Single
        } else if loser_view.board[OFF] < 0 || (1..=6).any(|p| loser_view.board[p] < 0) {
            WinKind::Backgammon
        } else {
            WinKind::Gammon
        };
        Some(GameResult { winner, kind })
    }

    /// A 64-bit FNV-1a hash of the board: the same for equal positions, well spread otherwise
    /// (evaluation cache slots, per-position choices of the search).
    #[inline]
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &self.board {
            h = (h ^ u64::from(b as u8)).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }

    fn both_closed_out(&self) -> bool {
        self.board[BAR] > 0
            && self.board[OFF] < 0
            && (1..=6).all(|p| self.board[p] >= 2)
            && (19..=24).all(|p| self.board[p] <= -2)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position {{ bar: {}, points:", self.board[BAR])?;
        for p in (1..=24).rev() {
            if self.board[p] != 0 {
                write!(f, " {}:{}", p, self.board[p])?;
            }
        }
        write!(f, ", opp bar: {} }}", -self.board[OFF])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_position_counts() {
        let p = Position::starting();
        assert_eq!(p.pip_count(Side::Player), 167);
        assert_eq!(p.pip_count(Side::Opponent), 167);
        assert_eq!(p.on_board(Side::Player), 15);
        assert_eq!(p.off(Side::Opponent), 0);
        assert_eq!(p.swap(), p);
        assert_eq!(p.board()[24], 2);
        assert_eq!(p.board()[1], -2);
        assert!(p.result().is_none());
        assert!(!p.is_race());
    }

    #[test]
    fn from_points_numbers_each_side_from_its_home() {
        let start = [(6, 5), (8, 3), (13, 5), (24, 2)];
        assert_eq!(
            Position::from_points(&start, &start),
            Ok(Position::starting())
        );
        let p = Position::from_points(&[(25, 1), (6, 2), (6, 1)], &[(1, 2)]).unwrap();
        assert_eq!(
            (p.bar(Side::Player), p.checkers(Side::Player, 6)),
            (1, Ok(3))
        );
        assert_eq!((p.off(Side::Player), p.off(Side::Opponent)), (11, 13));
        assert_eq!(
            p.board()[24],
            -2,
            "the opponent's ace point is our 24 point"
        );
        assert_eq!(
            Position::from_points(&[(0, 1)], &[]),
            Err(PositionError::NoSuchPoint(0))
        );
        assert_eq!(
            Position::from_points(&[], &[(26, 1)]),
            Err(PositionError::NoSuchPoint(26))
        );
        assert!(matches!(
            Position::from_points(&[(6, 200), (5, 200)], &[]),
            Err(PositionError::TooManyCheckers { .. })
        ));
    }

    #[test]
    fn rejects_bad_counts() {
        let mut s = [0u8; 25];
        s[0] = 16;
        assert!(matches!(
            Position::from_sides(&s, &[0; 25]),
            Err(PositionError::TooManyCheckers {
                side: Side::Player,
                count: 16
            })
        ));
        let mut a = [0u8; 25];
        let mut b = [0u8; 25];
        a[5] = 1; // player's 6 point
        b[18] = 1; // opponent's 19 point = player's 6 point
        assert_eq!(
            Position::from_sides(&a, &b),
            Err(PositionError::SharedPoint { point: 6 })
        );
    }

    #[test]
    fn rejects_double_closeout() {
        let mut a = [0u8; 25];
        for p in a.iter_mut().take(6) {
            *p = 2;
        }
        a[24] = 1;
        let b = a;
        assert_eq!(
            Position::from_sides(&a, &b),
            Err(PositionError::BothClosedOut)
        );
    }

    #[test]
    fn game_results() {
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        them[0] = 1;
        assert_eq!(
            Position::from_sides(&me, &them).unwrap().result(),
            Some(GameResult {
                winner: Side::Player,
                kind: WinKind::Single
            })
        );
        them[0] = 15;
        assert_eq!(
            Position::from_sides(&me, &them)
                .unwrap()
                .result()
                .unwrap()
                .kind,
            WinKind::Gammon
        );
        them[0] = 14;
        them[19] = 1; // opponent's 20 point = my 5 point: in my home board
        assert_eq!(
            Position::from_sides(&me, &them)
                .unwrap()
                .result()
                .unwrap()
                .kind,
            WinKind::Backgammon
        );
        them[19] = 0;
        them[24] = 1; // on the bar
        let p = Position::from_sides(&me, &them).unwrap();
        assert_eq!(p.result().unwrap().kind, WinKind::Backgammon);
        // Seen from the loser.
        let q = p.swap();
        assert_eq!(
            q.result(),
            Some(GameResult {
                winner: Side::Opponent,
                kind: WinKind::Backgammon
            })
        );
        me[3] = 1;
        assert!(Position::from_sides(&me, &them).unwrap().result().is_none());
    }
}
