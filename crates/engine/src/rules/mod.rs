//! The rules of backgammon: the position, dice, moves, legal move generation, and assembling a
//! checker play one step at a time.

pub mod assembly;
pub mod dice;
pub mod movegen;
pub mod moves;
pub mod position;
