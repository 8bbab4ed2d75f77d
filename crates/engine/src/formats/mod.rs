//! Text and file formats: identifiers, move notation, FIBS boards, the ASCII board, match files
//! (GNU Backgammon's SGF, Jellyfish `.mat`, plain-text export) and telling them apart.

pub mod ascii_board;
pub mod fibs;
pub mod ids;
pub mod mat;
pub mod match_file;
pub mod notation;
pub mod sgf;
pub mod text;
