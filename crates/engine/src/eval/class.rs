//! Position classes: which evaluator judges a position (docs/ENGINE.md §Position classes).
//!
//! The classes form a graph without cycles — contact → crashed → race → bearoff, contact → race — so
//! a game only ever moves "down" the list, and the evaluation never jumps back and forth between
//! two nets.

use crate::rules::position::{Position, Side, BAR, OFF};

/// The evaluator class of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PositionClass {
    /// One side has borne off all its checkers: the result is known exactly.
    Over,
    /// No contact, and both sides have all their checkers in their home boards (a pure bearoff).
    /// A bearoff database answers these when one is available; otherwise the race net does.
    Bearoff,
    /// No contact: neither side can hit the other any more.
    Race,
    /// Contact, and one side's game has "crashed": it has at most six active checkers left
    /// (checkers buried on its ace point and spares on its two-point do not count).
    Crashed,
    /// Contact: some checker still has to pass an opposing checker.
    Contact,
}

impl PositionClass {
    /// A short lower-case name: `over`, `bearoff`, `race`, `crashed`, `contact`.
    pub fn name(self) -> &'static str {
        match self {
            PositionClass::Over => "over",
            PositionClass::Bearoff => "bearoff",
            PositionClass::Race => "race",
            PositionClass::Crashed => "crashed",
            PositionClass::Contact => "contact",
        }
    }
}

/// The class of `position` (gnubg's criteria for contact and crashed; docs/ENGINE.md §Position
/// classes).
///
/// Read straight from the board (this runs for every position evaluated): each side's
/// farthest-back checker as an index of its own point array (0 = its ace point, 24 = its bar),
/// and for the crashed test its checkers on the board and on its ace and two points.
pub fn classify(position: &Position) -> PositionClass {
    let b = position.board();
    let (Some(back_player), Some(back_opponent)) = (
        position.back_index(Side::Player),
        position.back_index(Side::Opponent),
    ) else {
        return PositionClass::Over;
    };
    if back_player + back_opponent > 22 {
        let mine = |c: i8| i32::from(c.max(0));
        let theirs = |c: i8| i32::from(c.min(0)).abs();
        let player_total: i32 = b[1..=BAR].iter().map(|&c| mine(c)).sum();
        let opponent_total: i32 = b[OFF..=24].iter().map(|&c| theirs(c)).sum();
        if crashed(opponent_total, theirs(b[24]), theirs(b[23]))
            || crashed(player_total, mine(b[1]), mine(b[2]))
        {
            PositionClass::Crashed
        } else {
            PositionClass::Contact
        }
    } else if back_player < 6 && back_opponent < 6 {
        PositionClass::Bearoff
    } else {
        PositionClass::Race
    }
}

/// gnubg's crashed test for one side with `total` checkers on the board (bar included), `ace`
/// on its ace point and `two` on its two-point: at most six active checkers.
fn crashed(total: i32, ace: i32, two: i32) -> bool {
    const N: i32 = 6;
    // Dead checkers: all of a made ace point, and all but one checker on the two-point.
    total <= N
        || (ace >= 2 && (total - ace <= N || (two >= 2 && total - ace - (two - 1) <= N)))
        || (ace <= 1 && two >= 1 && total - (two - 1) <= N)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        Position::from_points(player, opponent).unwrap()
    }

    #[test]
    fn classes() {
        assert_eq!(classify(&Position::starting()), PositionClass::Contact);
        assert_eq!(classify(&pos(&[], &[(1, 3)])), PositionClass::Over);
        assert_eq!(
            classify(&pos(&[(6, 5), (1, 10)], &[(5, 15)])),
            PositionClass::Bearoff
        );
        assert_eq!(
            classify(&pos(&[(7, 5), (1, 10)], &[(5, 15)])),
            PositionClass::Race
        );
        // The player's 20 point faces the opponent's 6 point: contact. The opponent has 10 on its ace
        // point and 5 elsewhere -> at most 6 active -> crashed.
        assert_eq!(
            classify(&pos(&[(20, 2), (6, 13)], &[(1, 10), (6, 5)])),
            PositionClass::Crashed
        );
        assert_eq!(
            classify(&pos(&[(20, 2), (6, 13)], &[(1, 2), (6, 13)])),
            PositionClass::Contact
        );
    }

    /// The classes as the per-side arrays define them (the definition), for comparison.
    fn by_sides(position: &Position) -> PositionClass {
        use crate::rules::position::Side;
        let player = position.side(Side::Player);
        let opponent = position.side(Side::Opponent);
        let back = |s: &[u8; 25]| (0..25).rev().find(|&i| s[i] > 0);
        let side_crashed = |s: &[u8; 25]| {
            let total: i32 = s.iter().map(|&c| i32::from(c)).sum();
            crashed(total, i32::from(s[0]), i32::from(s[1]))
        };
        let (Some(bp), Some(bo)) = (back(&player), back(&opponent)) else {
            return PositionClass::Over;
        };
        if bp + bo > 22 {
            if side_crashed(&opponent) || side_crashed(&player) {
                PositionClass::Crashed
            } else {
                PositionClass::Contact
            }
        } else if bp < 6 && bo < 6 {
            PositionClass::Bearoff
        } else {
            PositionClass::Race
        }
    }

    #[test]
    fn board_reading_agrees_with_the_side_arrays_in_real_games() {
        use crate::rules::dice::Dice;
        use crate::rules::movegen::legal_moves;
        let mut state = 11u64;
        let mut seen = [0usize; 5];
        for _ in 0..300 {
            let mut p = Position::starting();
            loop {
                for q in [p, p.swap()] {
                    assert_eq!(classify(&q), by_sides(&q), "{q:?}");
                    seen[classify(&q) as usize] += 1;
                }
                let r = crate::game::splitmix64(&mut state);
                let dice = Dice::new((r % 6) as u8 + 1, ((r >> 8) % 6) as u8 + 1).unwrap();
                let moves = legal_moves(&p, dice);
                let next = moves[(r >> 16) as usize % moves.len()].position;
                if next.result().is_some() {
                    assert_eq!(classify(&next), PositionClass::Over);
                    break;
                }
                p = next.swap();
            }
        }
        assert!(seen[1..].iter().all(|&n| n > 0), "{seen:?}");
    }
}
