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
