//! Training and strength measurement for Cubeful's nets. Kept apart from the engine's play path:
//! nothing here is needed to play or analyse.
//!
//! - [`players`]: the players a duel can pit against each other (our nets, PubEval, random).
//! - [`duel`]: cubeless money games with duplicate dice, and their statistics.
//! - [`backprop`]: gradient steps on a net.
//! - [`td`]: TD(λ) self-play training from random weights, resumable from checkpoints.
//! - [`dataset`]: training positions with targets, and their file format.
//! - [`supervised`]: positions from self-play, 1-ply targets, supervised epochs.

pub mod backprop;
pub mod dataset;
pub mod duel;
pub mod players;
pub mod supervised;
pub mod td;

use cubeful_engine::Dice;
use rand::Rng;

/// A random roll; the opening roll of a game is never a double (each player throws one die and
/// the higher starts with both). Every training game and duel draws its dice through this.
pub fn roll(rng: &mut impl Rng, opening: bool) -> Dice {
    loop {
        let (a, b) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
        if !opening || a != b {
            return Dice::new(a, b).expect("dice in 1..=6");
        }
    }
}
