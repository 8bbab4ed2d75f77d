//! `cubeful-cli duel --a PLAYER --b PLAYER --games N`: cubeless money games with duplicate dice.

use anyhow::Result;
use cubeful_train::duel::{self, DuelConfig};
use cubeful_train::players::PlayerSpec;

/// The most games of a duel (days of play even for the fastest players).
const MAX_GAMES: u64 = 1_000_000_000;

#[derive(clap::Args)]
pub struct Args {
    /// Player A: cubeful, with options after a colon if need be, separated by commas (nets=DIR;
    /// plies=N or level=NAME; prune=on|off: cubeful:nets=DIR,plies=1), pubeval, pubeval:DIR
    /// or random.
    #[arg(long)]
    a: PlayerSpec,
    /// Player B (same choices).
    #[arg(long)]
    b: PlayerSpec,
    /// Number of games, 1 to 1000000000 (played in pairs with the same dice, sides swapped; an
    /// odd number is rounded up).
    #[arg(long, default_value_t = 1000, value_parser = crate::options::count(1, MAX_GAMES))]
    games: usize,
    /// Dice seed: the same seed plays the same dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = crate::options::threads())]
    threads: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let a = args.a.load()?;
    let b = args.b.load()?;
    let threads = args.threads.unwrap_or_else(crate::options::all_cores);
    let config = DuelConfig {
        games: args.games,
        seed: args.seed,
        threads,
    };
    let r = duel::run(&a, &b, (&args.a.to_string(), &args.b.to_string()), &config);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        println!(
            "{} vs {}: {} games (seed {}), {:+.3} ppg for A, 95% CI ±{:.3}",
            r.a, r.b, r.games, r.seed, r.ppg, r.ci95
        );
        println!(
            "A wins {:.1}% (gammons {:.1}%, backgammons {:.1}%); A loses gammons {:.1}%, backgammons {:.1}%",
            100.0 * r.win_rate,
            100.0 * r.win_gammon_rate,
            100.0 * r.win_backgammon_rate,
            100.0 * r.lose_gammon_rate,
            100.0 * r.lose_backgammon_rate
        );
        println!(
            "{:.1} games/s on {} threads ({:.1} s)",
            r.games_per_second, threads, r.seconds
        );
    }
    Ok(())
}
