//! `cubeful-cli train …`: training our nets from scratch. See docs/TRAINING.md.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use cubeful_train::duel::{self, DuelConfig};
use cubeful_train::players::{PlayerData, PlayerSpec};
use cubeful_train::td::{self, TdConfig};

#[derive(clap::Subcommand)]
pub enum What {
    /// TD(λ) self-play from random weights, checkpointing into DIR (resumes from it if present).
    Td(TdArgs),
}

#[derive(clap::Args)]
pub struct TdArgs {
    /// Checkpoint folder: nets and state.ron are written here and resumed from.
    #[arg(long)]
    dir: PathBuf,
    /// Total games (a resumed run is extended to this many).
    #[arg(long, default_value_t = 300_000)]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 0.02)]
    alpha: f32,
    /// Games after which the learning rate halves.
    #[arg(long, default_value_t = 100_000)]
    alpha_half_life: u64,
    #[arg(long, default_value_t = 0.002)]
    alpha_end: f32,
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    #[arg(long, default_value_t = 64)]
    hidden_race: usize,
    #[arg(long, default_value_t = 16)]
    batch: usize,
    #[arg(long, default_value_t = 5_000)]
    checkpoint_every: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// At each checkpoint, play this many games against PubEval and print the result (0: never).
    #[arg(long, default_value_t = 1000)]
    bench_games: usize,
    /// PubEval weights for the checkpoint benchmark.
    #[arg(long, default_value = cubeful_train::players::DEFAULT_PUBEVAL_DIR)]
    pubeval: PathBuf,
}

pub fn run(what: &What) -> Result<()> {
    match what {
        What::Td(args) => run_td(args),
    }
}

fn run_td(args: &TdArgs) -> Result<()> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = TdConfig {
        games: args.games,
        seed: args.seed,
        alpha_start: args.alpha,
        alpha_half_life: args.alpha_half_life,
        alpha_end: args.alpha_end,
        lambda: args.lambda,
        hidden_contact: args.hidden,
        hidden_race: args.hidden_race,
        init_scale: 0.1,
        batch: args.batch,
        checkpoint_every: args.checkpoint_every,
    };
    let pubeval = if args.bench_games > 0 {
        Some(
            PlayerSpec::PubEval {
                dir: args.pubeval.clone(),
            }
            .load()?,
        )
    } else {
        None
    };
    let started = Instant::now();
    let mut last_line = Instant::now();
    let state = td::train(&args.dir, &config, threads, |p, nets| {
        if p.checkpoint || last_line.elapsed().as_secs() >= 10 {
            last_line = Instant::now();
            eprintln!(
                "td: {}/{} games ({:.1}%), {:.1} games/s, {:.0} positions/s, loss {:.4}, alpha {:.4}, ETA {}{}",
                p.games_done,
                p.games_total,
                100.0 * p.games_done as f64 / p.games_total as f64,
                p.games_per_second,
                p.positions_per_second,
                p.loss,
                p.alpha,
                hms(p.eta_seconds),
                if p.checkpoint { ", checkpoint saved" } else { "" }
            );
        }
        if p.checkpoint {
            if let Some(pubeval) = &pubeval {
                let me = PlayerData::Cubeful(Arc::new(nets.clone()));
                let r = duel::run(
                    &me,
                    pubeval,
                    ("td", "pubeval"),
                    &DuelConfig {
                        games: args.bench_games,
                        seed: 12345,
                        threads,
                    },
                );
                eprintln!(
                    "td: after {} games: {:+.3} ppg vs PubEval (±{:.3}, {} games), {:.1}% wins",
                    p.games_done,
                    r.ppg,
                    r.ci95,
                    r.games,
                    100.0 * r.win_rate
                );
            }
        }
    })?;
    eprintln!(
        "td: done, {} games, {} positions trained, {} this session",
        state.games_done,
        state.positions_done,
        hms(started.elapsed().as_secs_f64())
    );
    Ok(())
}

fn hms(seconds: f64) -> String {
    let s = seconds.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}
