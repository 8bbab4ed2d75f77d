//! Position and match identifiers: GNU Backgammon's Position ID, Match ID and the combined
//! GNUID, and eXtreme Gammon's XGID.

pub mod gnubg_id;
pub mod match_id;
pub mod position_id;
pub mod xgid;
