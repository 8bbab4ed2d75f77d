//! Position classes: which evaluator judges a position (docs/ENGINE.md §Position classes).
//!
//! The classes form a graph without cycles — contact → crashed → race → bearoff, contact → race — so
//! a game only ever moves "down" the list, and the evaluation never jumps back and forth between
//! two nets.

use crate::rules::position::{Position, Side};

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
pub fn classify(position: &Position) -> PositionClass {
    let player = position.side(Side::Player);
    let opponent = position.side(Side::Opponent);
    let back = |s: &[u8; 25]| (0..25).rev().find(|&i| s[i] > 0);
    let (Some(back_player), Some(back_opponent)) = (back(&player), back(&opponent)) else {
        return PositionClass::Over;
    };
    if back_player + back_opponent > 22 {
        if crashed(&opponent) || crashed(&player) {
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

/// gnubg's crashed test for one side: at most six active checkers.
fn crashed(side: &[u8; 25]) -> bool {
    const N: i32 = 6;
    let total: i32 = side.iter().map(|&c| i32::from(c)).sum();
    let ace = i32::from(side[0]);
    let two = i32::from(side[1]);
    // Dead checkers: all of a made ace point, and all but one checker on the two-point.
    total <= N
        || (ace >= 2 && (total - ace <= N || (two >= 2 && total - ace - (two - 1) <= N)))
        || (ace <= 1 && two >= 1 && total - (two - 1) <= N)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        let mut a = [0u8; 25];
        let mut b = [0u8; 25];
        for &(p, n) in player {
            a[p - 1] = n;
        }
        for &(p, n) in opponent {
            b[p - 1] = n;
        }
        Position::from_sides(&a, &b).unwrap()
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
}
