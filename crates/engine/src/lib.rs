//! Cubeful's backgammon engine: rules, move generation, position and match identifiers, move
//! notation and board formats. A pure library: no I/O besides what callers hand it, no global state.
//!
//! Orientation: a [`Position`] is always seen from the player on roll, as in GNU Backgammon. The
//! players of a match are numbered as GNU Backgammon numbers them ([`Player::Zero`] = O,
//! [`Player::One`] = X).

pub mod ascii_board;
pub mod bearoff;
pub mod class;
pub mod cube;
pub mod dice;
pub mod eval;
pub mod fibs;
pub mod game;
pub mod gnubg_id;
pub mod inputs;
pub mod mat;
pub mod match_id;
pub mod match_state;
pub mod met;
pub mod movegen;
pub mod moves;
pub mod nn;
pub mod notation;
pub mod position;
pub mod position_id;
pub mod pubeval;
pub mod search;
pub mod xgid;

pub use dice::{Dice, DiceError};
pub use match_state::{CubeOwner, GameState, MatchState, Player, Resignation};
pub use movegen::{legal_moves, LegalMove, MoveGenerator};
pub use moves::{Move, Step};
pub use position::{GameResult, Position, PositionError, Side, WinKind};
