//! Text and file formats: identifiers, move notation, FIBS boards, the ASCII board, `.mat`,
//! plain-text match export.

pub mod ascii_board;
pub mod fibs;
pub mod ids;
pub mod mat;
pub mod notation;
pub mod sgf;
pub mod text;
