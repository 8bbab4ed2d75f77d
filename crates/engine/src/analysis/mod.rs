//! Judging decisions: the one hint function ([`hint`]) every front end asks what the best
//! decision is, the bot ([`bot`]) that plays by it, the analysis of a whole match record
//! ([`analyse`]: every checker play, cube decision and roll), the marks GNU Backgammon puts on
//! them ([`marks`]), the tutor's judgement of a person's action ([`tutor`]) and the statistics
//! computed from a record's stored analysis ([`stats`]).

pub mod analyse;
pub mod bot;
pub mod hint;
pub mod marks;
pub mod resign;
pub mod stats;
pub mod temperature;
pub mod tutor;
