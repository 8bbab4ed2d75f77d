//! `cubeful-cli train …`: training our nets from scratch. See docs/TRAINING.md.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use cubeful_train::dataset;
use cubeful_train::duel::{self, DuelConfig};
use cubeful_train::players::{PlayerData, PlayerSpec};
use cubeful_train::supervised::{self, SupervisedConfig};
use cubeful_train::td::{self, TdConfig};

#[derive(clap::Subcommand)]
pub enum What {
    /// TD(λ) self-play from random weights, checkpointing into DIR (resumes from it if present).
    Td(TdArgs),
    /// Positions from self-play of the nets, labelled with the nets' own 1-ply chances.
    Sample(SampleArgs),
    /// Supervised epochs of the nets towards a data file's targets.
    Supervised(SupervisedArgs),
    /// Positions from self-play, labelled with cubeless n-ply chances, written in chunks to a
    /// folder; resumable (chunks already written are skipped).
    Label(LabelArgs),
}

#[derive(clap::Args)]
pub struct LabelArgs {
    /// Nets that play the games and compute the targets (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Folder for the chunks (`chunk-00000.bin`, …).
    #[arg(long)]
    dir: PathBuf,
    /// Number of chunks to have in the folder when done.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    chunks: u32,
    /// Positions per chunk.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    chunk_positions: u32,
    /// Lookahead of the targets.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    plies: u8,
    /// Chunk i uses seed `seed * 1_000_003 + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Chance of playing one of the five best moves at random instead of the best.
    #[arg(long, default_value_t = 0.1)]
    explore: f64,
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args)]
pub struct SampleArgs {
    /// Nets that play the games and compute the targets (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Number of positions.
    #[arg(long, default_value_t = 200_000)]
    positions: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Chance of playing one of the five best moves at random instead of the best.
    #[arg(long, default_value_t = 0.1)]
    explore: f64,
    /// Output data file.
    #[arg(long)]
    out: PathBuf,
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args)]
pub struct SupervisedArgs {
    /// Starting nets (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Data files written by `train sample`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Folder for the trained nets.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 8)]
    epochs: usize,
    #[arg(long, default_value_t = 0.005)]
    alpha: f32,
    #[arg(long, default_value_t = 0.7)]
    alpha_decay: f32,
    #[arg(long, default_value_t = 0.02)]
    validation: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
        What::Sample(args) => run_sample(args),
        What::Supervised(args) => run_supervised(args),
        What::Label(args) => run_label(args),
    }
}

fn threads_or_all(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn run_sample(args: &SampleArgs) -> Result<()> {
    let threads = threads_or_all(args.threads);
    let nets = args.nets.load()?;
    let start = Instant::now();
    let positions =
        supervised::sample_positions(&nets, args.positions, args.seed, args.explore, threads);
    eprintln!(
        "sample: {} positions from self-play in {}; computing 1-ply targets…",
        positions.len(),
        hms(start.elapsed().as_secs_f64())
    );
    let t = Instant::now();
    let examples = supervised::one_ply_targets(&nets, &positions, threads);
    eprintln!(
        "sample: {} targets in {} ({:.0} positions/s)",
        examples.len(),
        hms(t.elapsed().as_secs_f64()),
        examples.len() as f64 / t.elapsed().as_secs_f64().max(1e-9)
    );
    dataset::save(&args.out, &examples)?;
    eprintln!("sample: wrote {}", args.out.display());
    Ok(())
}

fn run_label(args: &LabelArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.explore) {
        anyhow::bail!("--explore must be between 0 and 1");
    }
    let threads = threads_or_all(args.threads);
    let nets = args.nets.load()?;
    if !args.dir.is_dir() {
        anyhow::bail!("--dir {} is not a folder", args.dir.display());
    }
    for chunk in 0..args.chunks {
        let path = args.dir.join(format!("chunk-{chunk:05}.bin"));
        if path.exists() {
            continue;
        }
        let start = Instant::now();
        let seed = args
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(u64::from(chunk));
        let positions = supervised::sample_positions(
            &nets,
            args.chunk_positions as usize,
            seed,
            args.explore,
            threads,
        );
        let examples = supervised::deep_targets(&nets, &positions, args.plies, threads);
        dataset::save(&path, &examples)?;
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "label: {} ({} positions at {}-ply) in {:.0} s, {:.1} positions/s",
            path.display(),
            examples.len(),
            args.plies,
            secs,
            examples.len() as f64 / secs
        );
    }
    Ok(())
}

fn run_supervised(args: &SupervisedArgs) -> Result<()> {
    let nets = (*args.nets.load()?).clone();
    let mut examples = Vec::new();
    for path in &args.data {
        examples.extend(dataset::load(path)?);
    }
    eprintln!("supervised: {} examples", examples.len());
    let config = SupervisedConfig {
        epochs: args.epochs,
        alpha: args.alpha,
        alpha_decay: args.alpha_decay,
        validation: args.validation,
        seed: args.seed,
    };
    let start = Instant::now();
    let best = supervised::train(nets, &examples, &config, |r| {
        eprintln!(
            "supervised: epoch {}/{}, alpha {:.5}, train loss {:.5}, held-out equity RMSE {:.5}{} ({})",
            r.epoch,
            config.epochs,
            r.alpha,
            r.train_loss,
            r.validation_equity_rmse,
            if r.best { " (best)" } else { "" },
            hms(start.elapsed().as_secs_f64())
        );
    });
    best.save_dir(&args.out)?;
    eprintln!("supervised: best nets written to {}", args.out.display());
    Ok(())
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
