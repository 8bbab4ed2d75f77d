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
mod options;
mod position_arg;
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Bad arguments: one line, as for every other error (see `clap_one_line`).
        Err(e)
            if e.use_stderr()
                && e.kind() != clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            eprintln!(
                "cubeful-cli: {}",
                one_line(&anyhow::Error::msg(clap_one_line(&e)))
            );
            return ExitCode::from(2);
        }
        // --help and --version (clap ignores a closed standard output here), and the help of a
        // command group given without its subcommand (`bench`), on standard error with status 2.
        Err(e) => e.exit(),
    };
    if !matches!(cli.command, Some(Command::External(_))) {
        die_quietly_on_closed_pipe();
    }
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

/// The error and its causes in one line, joined with ": ". Engine errors often repeat their
/// cause in their own message: a cause already contained in the text so far is not repeated,
/// and a cause that begins with the end of the text so far (`bad Position ID "X"` followed by
/// `Position ID "X": …`) is joined without the repeated part. Control characters are escaped so
/// that the message stays on one line, and an overlong message is cut.
pub(crate) fn one_line(error: &anyhow::Error) -> String {
    /// Longest message printed, in characters.
    const MAX_CHARS: usize = 600;
    let mut text = String::new();
    for cause in error.chain() {
        let message = cause.to_string();
        let message = message.trim();
        if message.is_empty() || text.contains(message) {
            continue;
        }
        let overlap = overlap(&text, message);
        if overlap > 0 {
            text.push_str(&message[overlap..]);
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(message);
    }
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX_CHARS {
            out.push('…');
            break;
        }
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// The length of the longest end of `text` that `message` begins with, counted only when it
/// starts a word of `text`, ends a word of `message` and is at least 8 bytes long (shorter
/// overlaps are chance).
fn overlap(text: &str, message: &str) -> usize {
    let mut best = 0;
    for (start, _) in text.char_indices() {
        let end = &text[start..];
        let starts_word = start == 0 || text[..start].ends_with([' ', '(', ':']);
        if end.len() < 8 || !starts_word || !message.starts_with(end) {
            continue;
        }
        let after = &message[end.len()..];
        if after.is_empty() || after.starts_with([':', ' ', ',', ';', ')']) {
            best = end.len();
            break;
        }
    }
    best
}

/// A command-line error of clap on one line: its message without the "error: " prefix, the
/// usage and the pointer to --help, other lines (an argument's name, a tip) joined to it.
fn clap_one_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let mut text = String::new();
    for line in rendered.lines() {
        let line = line.trim();
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if !text.is_empty() {
            text.push_str(if text.ends_with(':') { " " } else { "; " });
        }
        text.push_str(line);
    }
    text
}

/// Restores the default action of SIGPIPE, so that writing to a closed pipe
/// (`cubeful-cli moves … | head -1`) ends the program quietly, as for other command-line tools,
/// with the conventional status 141 in a shell.
///
/// Rust ignores SIGPIPE, so such a write fails with EPIPE instead and `println!` panics on it
/// ("failed printing to stdout: Broken pipe"). Restoring the signal is the one change that
/// covers every `println!` of every command; handling the error instead would take a checked
/// writer in each of them. Sockets are not affected (the standard library sends with
/// MSG_NOSIGNAL, or sets SO_NOSIGPIPE), and the `external` server keeps Rust's behaviour anyway,
/// so that a client that goes away is an error of its connection, never the server's end. The
/// one child process (`bench rollout --gnubg`) is not written to.
fn die_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called on the main thread before any other thread is started; SIG_DFL is a valid
    // action for SIGPIPE and no handler of ours is replaced.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;
    use anyhow::{anyhow, Context};

    #[test]
    fn errors_print_on_one_line_without_repeats() {
        let e = Err::<(), _>(anyhow!("Position ID \"X\": too short"))
            .context("bad Position ID \"X\"")
            .unwrap_err();
        assert_eq!(one_line(&e), "bad Position ID \"X\": too short");
        let e = Err::<(), _>(anyhow!("inner"))
            .context("outer: inner")
            .unwrap_err();
        assert_eq!(one_line(&e), "outer: inner");
        let e = Err::<(), _>(anyhow!("two\nlines\0"))
            .context("cannot read")
            .unwrap_err();
        assert_eq!(one_line(&e), "cannot read: two lines\\u{0}");
        let e = anyhow!("{}", "x".repeat(100_000));
        assert!(one_line(&e).len() < 700);
        // Short chance overlaps are not merged.
        let e = Err::<(), _>(anyhow!("file missing"))
            .context("the file")
            .unwrap_err();
        assert_eq!(one_line(&e), "the file: file missing");
    }
}
