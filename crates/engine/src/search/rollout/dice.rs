//! The dice of a rollout: GNU Backgammon's quasi-random ("rotated", stratified) dice for the
//! first [`QUASI_RANDOM_PLIES`] plies of every trial, pseudo-random dice after them or when the
//! quasi-random dice are off (docs/ANALYSIS.md §Rollout dice).
//!
//! A rollout seed gives a table of independent random permutations of the 36 ordered rolls, one
//! per *generation* `g` (0 to 5) and ply `t`. Trial `k` is written in base 36, digits `d₀` (least
//! significant) to `d₅`; its roll at ply `t` is the last of
//!
//! ```text
//! x₀ = P[0][t](d₀),   x_g = P[g][t]((d_g + x_{g−1}) mod 36)   for g = 1 … min(t, 5)
//! ```
//!
//! read as `first = x div 6 + 1`, `second = x mod 6 + 1` and sorted larger first. Every ply is
//! balanced over every aligned block of 36 trials (each ordered roll once), and the first `m ≤ 6`
//! plies are balanced jointly over every aligned block of `36^m` trials: the first two rolls of
//! 1296 trials are every pair once. The dice of a trial depend only on the seed and the trial
//! number, so every alternative of a rollout sees the same dice, whatever thread plays it.

use crate::game::splitmix64;
use crate::rules::dice::Dice;

/// Plies of each trial that use the quasi-random table; later plies use pseudo-random dice.
pub const QUASI_RANDOM_PLIES: usize = 128;

/// Generations of permutations: the number of base-36 digits of the trial number that are used.
const GENERATIONS: usize = 6;

/// The 36 ordered rolls of two dice.
const ORDERED_ROLLS: usize = 36;

/// The dice of every trial of one rollout.
#[derive(Clone, Debug)]
pub struct RolloutDice {
    seed: u64,
    /// `table[t][g]`: the permutation of generation `g` at ply `t` (`None`: pseudo-random dice
    /// throughout).
    table: Option<Box<[[[u8; ORDERED_ROLLS]; GENERATIONS]; QUASI_RANDOM_PLIES]>>,
}

impl RolloutDice {
    /// The dice of a rollout with `seed`, quasi-random for the first [`QUASI_RANDOM_PLIES`]
    /// plies if `quasi_random`.
    pub fn new(seed: u64, quasi_random: bool) -> RolloutDice {
        let table = quasi_random.then(|| {
            let mut state = seed ^ 0x5155_4153_4952_4E44;
            let mut table = Box::new([[[0u8; ORDERED_ROLLS]; GENERATIONS]; QUASI_RANDOM_PLIES]);
            for ply in table.iter_mut() {
                for perm in ply.iter_mut() {
                    for (i, x) in perm.iter_mut().enumerate() {
                        *x = i as u8;
                    }
                    // Fisher–Yates with unbiased bounded draws.
                    for i in (1..ORDERED_ROLLS).rev() {
                        let j = bounded(&mut state, i as u64 + 1) as usize;
                        perm.swap(i, j);
                    }
                }
            }
            table
        });
        RolloutDice { seed, table }
    }

    /// The seed the dice were made from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether the first plies use quasi-random dice.
    pub fn is_quasi_random(&self) -> bool {
        self.table.is_some()
    }

    /// The quasi-random roll of ply `ply` in trial `trial` as an index 0..36 (`first − 1`·6 +
    /// `second − 1`, unsorted), or `None` when that ply uses pseudo-random dice.
    pub fn quasi_index(&self, trial: u64, ply: usize) -> Option<u8> {
        let table = self.table.as_ref()?;
        let perms = table.get(ply)?;
        let mut digits = trial;
        let mut x = perms[0][(digits % 36) as usize];
        for perm in perms.iter().take(ply.min(GENERATIONS - 1) + 1).skip(1) {
            digits /= 36;
            x = perm[((digits % 36) as usize + x as usize) % ORDERED_ROLLS];
        }
        Some(x)
    }

    /// The dice of trial `trial`, ply by ply.
    pub fn trial(&self, trial: u64) -> TrialDice<'_> {
        let mut state = self.seed ^ 0x7472_6961_6C20_6469;
        let mixed = splitmix64(&mut state);
        let mut state = mixed ^ trial.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        splitmix64(&mut state);
        TrialDice {
            dice: self,
            trial,
            state,
        }
    }
}

/// The rolls of one trial. Ask for the plies in order: the pseudo-random rolls (after the
/// quasi-random plies, or all of them when those are off) come from the trial's own generator.
#[derive(Clone, Debug)]
pub struct TrialDice<'a> {
    dice: &'a RolloutDice,
    trial: u64,
    state: u64,
}

impl TrialDice<'_> {
    /// The roll of ply `ply`, larger die first.
    pub fn roll(&mut self, ply: usize) -> Dice {
        let x = match self.dice.quasi_index(self.trial, ply) {
            Some(x) => x,
            None => bounded(&mut self.state, ORDERED_ROLLS as u64) as u8,
        };
        Dice::new(x / 6 + 1, x % 6 + 1)
            .expect("an index below 36 is a roll")
            .normalized()
    }
}

/// A uniform number below `n` (rejection sampling, so exactly uniform).
fn bounded(state: &mut u64, n: u64) -> u64 {
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let x = splitmix64(state);
        if x < zone {
            return x % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_of_36_are_balanced_at_every_quasi_random_ply() {
        let dice = RolloutDice::new(7, true);
        for block in [0u64, 1, 35, 36, 1000] {
            for ply in [0, 1, 5, 6, 50, 127] {
                let mut seen = [false; 36];
                for k in block * 36..block * 36 + 36 {
                    let x = dice.quasi_index(k, ply).unwrap() as usize;
                    assert!(!seen[x], "block {block} ply {ply}");
                    seen[x] = true;
                }
            }
        }
        assert_eq!(dice.quasi_index(0, QUASI_RANDOM_PLIES), None);
        assert_eq!(RolloutDice::new(7, false).quasi_index(0, 0), None);
    }

    #[test]
    fn pseudo_random_dice_are_fair_and_reproducible() {
        let dice = RolloutDice::new(3, false);
        let mut counts = [0u32; 36];
        for k in 0..2000 {
            let mut t = dice.trial(k);
            for ply in 0..18 {
                let d = t.roll(ply);
                counts[usize::from((d.first() - 1) * 6 + d.second() - 1)] += 1;
            }
        }
        // Sorted rolls: non-doubles twice as often as doubles, never small-first.
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                let c = counts[usize::from((a - 1) * 6 + b - 1)];
                match a.cmp(&b) {
                    std::cmp::Ordering::Less => assert_eq!(c, 0),
                    std::cmp::Ordering::Equal => assert!((800..1200).contains(&c), "{a}{b}: {c}"),
                    std::cmp::Ordering::Greater => {
                        assert!((1750..2250).contains(&c), "{a}{b}: {c}")
                    }
                }
            }
        }
        let mut a = dice.trial(5);
        let mut b = dice.trial(5);
        assert!((0..40).all(|p| a.roll(p) == b.roll(p)));
    }
}
