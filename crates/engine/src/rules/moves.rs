//! A checker play: up to four single-die steps.

use crate::rules::position::{BAR, OFF};

/// One checker moved by one die, in the mover's numbering: `from` is 1..=24 or 25 (the bar), `to` is
/// 1..=24 or 0 (borne off).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

impl Step {
    /// True if the step starts on the bar.
    pub fn from_bar(self) -> bool {
        usize::from(self.from) == BAR
    }

    /// True if the step bears a checker off.
    pub fn bears_off(self) -> bool {
        usize::from(self.to) == OFF
    }
}

/// A complete checker play: the steps in the order played. Empty when the roll cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    steps: [Step; 4],
    len: u8,
}

impl Move {
    /// The empty move (no checker can be moved).
    pub const NONE: Move = Move {
        steps: [Step { from: 0, to: 0 }; 4],
        len: 0,
    };

    /// A move from up to four steps. Longer input is cut to four.
    pub fn from_steps(steps: &[Step]) -> Move {
        let mut m = Move::NONE;
        for &s in steps.iter().take(4) {
            m.push(s);
        }
        m
    }

    /// The steps in the order played.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }

    /// Number of steps (dice used).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// True for the empty move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn push(&mut self, step: Step) {
        debug_assert!(self.len < 4);
        self.steps[usize::from(self.len)] = step;
        self.len += 1;
    }

    pub(crate) fn pop(&mut self) {
        debug_assert!(self.len > 0);
        self.len -= 1;
    }
}
