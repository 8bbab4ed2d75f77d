//! Where the dice of a [`Game`](super::Game) come from.
//!
//! A game draws every roll from a [`DiceSource`]: a seeded pseudo-random generator
//! ([`RandomDice`]) for play, or a queue of rolls given in advance ([`ScriptedDice`]) for tests,
//! replays and "manual dice" in a user interface. A source that has nothing to give returns
//! `None`; the game then refuses to roll until the dice are entered
//! ([`Game::roll_dice`](super::Game::roll_dice)).

use std::collections::VecDeque;
use std::fmt;

use crate::rules::dice::Dice;

/// A source of rolls for a game. The opening roll is drawn as one [`Dice`] too: its first die is
/// player 0's (O's), its second die player 1's (X's).
pub trait DiceSource: Send + fmt::Debug {
    /// The next roll, or `None` when the source has no roll to give (for example manual dice
    /// that have not been entered yet).
    fn roll(&mut self) -> Option<Dice>;

    /// A copy of the source in its current state (so that a [`Game`](super::Game) can be
    /// cloned, for example to let a worker thread think about it).
    fn box_clone(&self) -> Box<dyn DiceSource>;
}

impl Clone for Box<dyn DiceSource> {
    fn clone(&self) -> Box<dyn DiceSource> {
        self.box_clone()
    }
}

/// One step of the SplitMix64 generator: advances `state` and returns the next well-mixed
/// 64-bit value. Small, fast and the same on every machine; also used to derive seeds.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Fair dice from a small seeded generator (SplitMix64). The same seed gives the same rolls on
/// every machine, which makes games reproducible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomDice {
    state: u64,
}

impl RandomDice {
    /// Dice seeded with `seed`.
    pub fn new(seed: u64) -> RandomDice {
        RandomDice { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.state)
    }

    /// One die, uniform on 1..=6 (rejection sampling on three random bits at a time).
    fn die(&mut self) -> u8 {
        loop {
            let mut bits = self.next_u64();
            for _ in 0..21 {
                let value = (bits & 7) as u8;
                if value < 6 {
                    return value + 1;
                }
                bits >>= 3;
            }
        }
    }
}

impl DiceSource for RandomDice {
    fn roll(&mut self) -> Option<Dice> {
        let (a, b) = (self.die(), self.die());
        Dice::new(a, b).ok()
    }

    fn box_clone(&self) -> Box<dyn DiceSource> {
        Box::new(self.clone())
    }
}

/// Rolls given in advance, used in order; after the last one, either nothing (the game waits
/// for dice to be entered) or the rolls of a [`RandomDice`] fallback.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptedDice {
    queue: VecDeque<Dice>,
    fallback: Option<RandomDice>,
}

impl ScriptedDice {
    /// The rolls of `rolls`, in order, and nothing after them.
    pub fn new(rolls: impl IntoIterator<Item = Dice>) -> ScriptedDice {
        ScriptedDice {
            queue: rolls.into_iter().collect(),
            fallback: None,
        }
    }

    /// Parses rolls written as in [`Dice`]'s `FromStr` (`"31"`, `"3-1"`), separated by blanks or
    /// commas: `"31 52 66"`.
    pub fn parse(text: &str) -> Result<ScriptedDice, crate::rules::dice::DiceError> {
        let rolls = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<Dice>, _>>()?;
        Ok(ScriptedDice::new(rolls))
    }

    /// Continue with seeded random dice once the given rolls are used up.
    pub fn then_random(mut self, seed: u64) -> ScriptedDice {
        self.fallback = Some(RandomDice::new(seed));
        self
    }

    /// Adds a roll at the end of the queue (manual dice entered by a user).
    pub fn push(&mut self, dice: Dice) {
        self.queue.push_back(dice);
    }

    /// Rolls still queued.
    pub fn remaining(&self) -> usize {
        self.queue.len()
    }
}

impl DiceSource for ScriptedDice {
    fn roll(&mut self) -> Option<Dice> {
        match self.queue.pop_front() {
            Some(d) => Some(d),
            None => self.fallback.as_mut().and_then(DiceSource::roll),
        }
    }

    fn box_clone(&self) -> Box<dyn DiceSource> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_dice_are_fair_and_reproducible() {
        let mut a = RandomDice::new(7);
        let mut b = RandomDice::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            let d = a.roll().unwrap();
            assert_eq!(Some(d), b.roll());
            counts[usize::from(d.first()) - 1] += 1;
            counts[usize::from(d.second()) - 1] += 1;
        }
        for c in counts {
            assert!((19_000..21_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn scripted_dice_run_out_or_fall_back() {
        let mut s = ScriptedDice::parse("31, 6-6 52").unwrap();
        assert_eq!(s.remaining(), 3);
        assert_eq!(s.roll(), Some(Dice::new(3, 1).unwrap()));
        assert_eq!(s.roll(), Some(Dice::new(6, 6).unwrap()));
        assert_eq!(s.roll(), Some(Dice::new(5, 2).unwrap()));
        assert_eq!(s.roll(), None);
        s.push(Dice::new(4, 4).unwrap());
        assert_eq!(s.roll(), Some(Dice::new(4, 4).unwrap()));
        let mut f = ScriptedDice::new([]).then_random(1);
        assert!(f.roll().is_some());
        assert!(ScriptedDice::parse("37").is_err());
    }
}
