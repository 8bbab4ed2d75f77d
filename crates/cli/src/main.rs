//! `cubeful-cli`: the command-line interface to the Cubeful backgammon engine.
//!
//! Bad input never panics: every command returns an error that is printed as one line on standard
//! error, with exit code 2.

mod analyse;
mod bearoff;
mod bench;
mod bench_bearoff;
mod bench_cube_levels;
mod bench_decisions;
mod bench_rollout;
mod duel;
mod eval;
mod external;
mod hint;
mod matches;
mod moves;
mod nets;
mod report;
mod rollout;
mod show;
mod temperature;
mod terminal;
mod train;
mod ubgi;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cubeful-cli",
    version,
    about = "Cubeful backgammon engine, command line",
    long_about = "Cubeful backgammon engine, command line. Without a subcommand: an interactive \
                  session (play matches against the bot; see docs/CLI.md).",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    terminal: terminal::Args,
}

#[derive(Subcommand)]
enum Command {
    /// List every distinct legal play of a roll, in GNU Backgammon notation.
    Moves(moves::Args),
    /// Draw a position as GNU Backgammon's ASCII board, with its IDs, pip counts, cube and score.
    Show(show::Args),
    /// The chances, cubeless and cubeful equities of the player on roll.
    Eval(eval::Args),
    /// The best plays of a roll, or the cube decision before the roll.
    Hint(hint::Args),
    /// Roll out a position, the best plays of a roll, or a cube decision (GNU Backgammon-style).
    Rollout(rollout::Args),
    /// The temperature map: each roll's best play and equity as a 6×6 grid, and the average.
    Temperature(temperature::Args),
    /// Measure the engine's speed.
    Bench {
        #[command(subcommand)]
        what: bench::What,
    },
    /// Play cubeless money games between two players and report points per game.
    Duel(duel::Args),
    /// The bearoff databases: show what they know about a position, verify or generate a file.
    Bearoff {
        #[command(subcommand)]
        what: bearoff::What,
    },
    /// Play for GNU Backgammon's external-player interface on a TCP port (see docs/CLI.md).
    External(external::Args),
    /// Speak UBGI (Universal Backgammon Interface) on standard input and output.
    Ubgi(ubgi::Args),
    /// Convert a match file between SGF, Jellyfish .mat and plain text (by the output's extension).
    Convert(matches::ConvertArgs),
    /// Analyse match files as GNU Backgammon's `analyse match` does: errors, luck, statistics.
    Analyse(analyse::Args),
    /// Match files: show their games and actions.
    Match {
        #[command(subcommand)]
        what: matches::MatchWhat,
    },
    /// Train nets from scratch (see docs/TRAINING.md).
    Train {
        #[command(subcommand)]
        what: train::What,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => terminal::run(&cli.terminal),
        Some(Command::Moves(args)) => moves::run(&args),
        Some(Command::Show(args)) => show::run(&args),
        Some(Command::Eval(args)) => eval::run(&args),
        Some(Command::Hint(args)) => hint::run(&args),
        Some(Command::Rollout(args)) => rollout::run(&args),
        Some(Command::Temperature(args)) => temperature::run(&args),
        Some(Command::Bench { what }) => bench::run(&what),
        Some(Command::Duel(args)) => duel::run(&args),
        Some(Command::Bearoff { what }) => bearoff::run(&what),
        Some(Command::External(args)) => external::run(&args),
        Some(Command::Ubgi(args)) => ubgi::run(&args),
        Some(Command::Train { what }) => train::run(&what),
        Some(Command::Convert(args)) => matches::convert(&args),
        Some(Command::Match { what }) => matches::run(&what),
        Some(Command::Analyse(args)) => analyse::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cubeful-cli: {}", one_line(&e));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes in one line. Engine errors often repeat their cause in their own
/// message; a cause already contained in the text so far is not repeated.
pub(crate) fn one_line(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let message = cause.to_string();
        if text.contains(&message) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&message);
    }
    text
}
