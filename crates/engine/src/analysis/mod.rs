//! Decisions for front ends: the one hint function ([`hint`]) every front end asks what the
//! best decision is, and the bot ([`bot`]) that plays by it.

pub mod bot;
pub mod hint;
