//! Cubeful's backgammon engine: rules, move generation, position and match identifiers, move
//! notation and board formats, neural-net evaluation, cube theory and n-ply search. A pure
//! library: no I/O besides what callers hand it, no global state.
//!
//! Orientation: a [`Position`] is always seen from the player on roll, as in GNU Backgammon. The
//! players of a match are numbered as GNU Backgammon numbers them ([`Player::Zero`] = O,
//! [`Player::One`] = X).
//!
//! The crate is laid out by concept (`docs/ARCHITECTURE.md`):
//!
//! * [`rules`]: positions, dice, moves, legal move generation, partial-move assembly.
//! * [`game`]: the match state machine, match state, dice sources.
//! * [`eval`]: 0-ply evaluation: position classes, net inputs, nets, PubEval, bearoff databases.
//! * [`cube`]: cube theory (Janowski, money and match) and match equity tables.
//! * [`search`]: n-ply cubeful search, move filters, playing levels.
//! * [`analysis`]: the one hint/decision API every front end uses, and the bot.
//! * [`formats`]: identifiers (Position ID, Match ID, GNUID, XGID), move notation, FIBS boards,
//!   the ASCII board, Jellyfish `.mat`.
//! * [`files`]: the one way the project writes a file (atomically) and a bounded read.

pub mod analysis;
pub mod cube;
pub mod eval;
pub mod files;
pub mod formats;
pub mod game;
pub mod rules;
pub mod search;

pub use formats::ids::{gnubg_id, match_id, position_id, xgid};
pub use formats::notation;
pub use game::match_state::{CubeOwner, GameState, MatchState, Player, Resignation};
pub use rules::dice::{Dice, DiceError};
pub use rules::movegen::{legal_moves, LegalMove, MoveGenerator};
pub use rules::moves::{Move, Step};
pub use rules::position::{GameResult, Position, PositionError, Side, WinKind};
