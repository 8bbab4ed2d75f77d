//! Decisions for front ends: the bot.

pub mod bot;
