//! Training and strength measurement for Cubeful's nets. Kept apart from the engine's play path:
//! nothing here is needed to play or analyse.
//!
//! - [`players`]: the players a duel can pit against each other (our nets, PubEval, random).
//! - [`duel`]: cubeless money games with duplicate dice, and their statistics.
//! - [`backprop`]: gradient steps on a net.
//! - [`td`]: TD(λ) self-play training from random weights, resumable from checkpoints.

pub mod backprop;
pub mod duel;
pub mod players;
pub mod td;
