//! GNU Backgammon's SGF dialect (`GM[6]`): match records with their analysis, both ways.
//!
//! [`read`] turns the text of an SGF file into a [`MatchRecord`] (and warnings about what it
//! ignored); [`write()`] turns a record into the text GNU Backgammon writes and loads. The generic
//! SGF syntax is in [`tree`]; this module gives the properties their backgammon meaning, the way
//! GNU Backgammon reads and writes them:
//!
//! * **One game tree per game.** Its root node holds the match and game information: `MI`
//!   (`length:`, `game:` counted from 0, `ws:`/`bs:` the score of White = player 0 and Black =
//!   player 1 at the start of the game), `PW`/`PB` (names), `RU` (`NoCube`, `Crawford`,
//!   `CrawfordGame`, `Jacoby`, variants), `CV` (the cube after automatic doubles), `RE` (`W+2`,
//!   `B+3R` — `R` for a resignation), `GS` (statistics, kept verbatim) and, in the first game,
//!   `WR BR DT EV RO PC AN GC` (ratings, date, event, round, place, annotator, match comment).
//!   Trees whose root is not `GM[6]` are an error; variations are ignored (only the main line
//!   is read), as GNU Backgammon does.
//! * **Moves**: `;B[41lpab]` — the dice as written, then from/to letters: White's point `p` is
//!   `'a' + p - 1`, Black's is `'x' - (p - 1)` (so the letters are points counted from White's
//!   side), `y` is the bar and `z` off. A roll that cannot be played is just the dice (`;B[64]`).
//!   Steps become [`Move`](crate::rules::moves::Move)s in the mover's numbering, in the order
//!   written.
//! * **Cube**: `;W[double]`, `;B[take]`, `;B[drop]`. A beaver is a `double` by the player who
//!   was doubled and reads as [`RecordAction::Beaver`](crate::game::record::RecordAction);
//!   it is written back as such a `double`.
//! * **Resignations** are not nodes: only `RE[..R]` says the game ended by one. Reading such a
//!   result appends a resignation (of `points / cube`, clamped to single..backgammon) by the
//!   loser and its acceptance by the winner, so that the record replays; writing a resigned
//!   game writes `RE[W+nR]` and no resignation nodes (a rejected resignation is not saved).
//! * **Set-ups**: `;PL[W]AE[a:y]AW[..]AB[..]` sets the board (`AE` clears points, `AW`/`AB` add
//!   one checker per value, `from:to` ranges allowed), `;CV[n]` the cube value, `;CP[c|w|b]` the
//!   cube owner, `;PL[B]DI[53]` the dice. Consecutive set-up nodes read as one
//!   [`Setup`](crate::game::record::Setup); a `PL`+`DI` node that does not follow a set-up is a
//!   roll without a move ([`RecordAction::Roll`](crate::game::record::RecordAction): the player
//!   resigned after rolling). A set-up is written as GNU Backgammon's `save position` writes
//!   one: board, cube value, cube owner and, if the dice are set, the dice.
//! * **Comments** `C[..]` on any action; a comment in a root node is the game's comment.
//! * **Analysis** (see [`crate::game::record::analysis`]): `DA` (cube decision, evaluation or
//!   rollout) with `CR` (marked for rollout), `A` (candidate plays, index of the one played
//!   first) with `MR` (marked candidates), `LU` (luck, may be `-inf`), `GB`/`GW` (luck marks),
//!   `BM`/`DO` (skill of the play or cube action), `BC`/`DC` (skill of the cube decision before
//!   a play). `GB`/`GW` name the player the roll was good for; they become the luck of the roll
//!   for the player who rolled, for a roll without a move too (GNU Backgammon writes them that
//!   way but its reader forgets to turn them round there). The value grammar (format version 3, plus the older forms GNU Backgammon still
//!   reads) is in the `analysis` submodule.
//!
//! Text values are read as GNU Backgammon reads them: comments and match information have every
//! whitespace character other than a line break turned into a blank; names are kept as written.
//! Unknown properties, the time-control properties of old versions (`WL`, `BL`, `MI` tags other
//! than the four above) and variations are ignored; [`SgfWarning`]s say what was ignored where
//! that may matter. Problems that make a game unreadable (not backgammon, bad dice, bad move
//! letters, an impossible set-up position) are [`SgfReadError`]s with the game and node.
//!
//! # Round trips
//!
//! The reader keeps only what the writer writes (it normalises the rest), so for every text `f`
//! that reads, `read(write(read(f)))` equals `read(f)` except for [`MatchInfo::application`]
//! (written files name Cubeful), and for every record `r`, `write(read(write(r)))` equals
//! `write(r)`. Numbers are written as GNU Backgammon writes them (`%.6f` for evaluations, `%.5f`
//! for luck, `%.10g` for rollouts), so numbers read from a file are written back unchanged.
//!
//! [`MatchRecord`]: crate::game::record::MatchRecord
//! [`MatchInfo::application`]: crate::game::record::MatchInfo::application

mod analysis;
mod letters;
mod read;
pub mod tree;
mod write;

pub use read::{read, read_bytes, SgfReadError, SgfWarning, SgfWarningKind};
pub use write::{write, APPLICATION};
