//! `cubeful-cli bench cube-levels`: how well 0-ply cube decisions agree with deeper ones for a
//! range of cube efficiencies (`crates/train/src/cube_levels.rs` says how).

use std::time::Instant;

use anyhow::Result;
use cubeful_train::cube_levels::{measure, EfficiencyScore, Errors, Reference};

#[derive(clap::Args)]
pub struct Args {
    /// Nets to measure (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Self-play positions (each judged in three cube situations).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(10..=100_000))]
    positions: u32,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Lookahead of the reference decisions.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    reference_plies: u8,
    /// Judge by cubeful rollouts of this many trials instead of the search (GNU Backgammon's
    /// default rollout settings), only where the efficiencies disagree.
    #[arg(long, value_name = "TRIALS", value_parser = clap::value_parser!(u32).range(36..=100_000))]
    rollout: Option<u32>,
    /// Cube efficiencies to measure, comma-separated, each from 0 to 1.
    #[arg(long, value_delimiter = ',', default_value = "0.60,0.64,0.68,0.72,0.76,0.80,0.84", value_parser = efficiency)]
    x: Vec<f32>,
    /// Worker threads (the figures do not depend on them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

fn efficiency(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "a cube efficiency is a number from 0 to 1, not {s:?}"
        )),
    }
}

fn cell(e: &Errors) -> String {
    format!(
        "{:>6.2} {:>6.2} {:>5}",
        e.double_millipoints, e.take_millipoints, e.wrong_doubles
    )
}

pub fn run(args: &Args) -> Result<()> {
    let nets = args.nets.load()?;
    let started = Instant::now();
    let reference = match args.rollout {
        Some(trials) => Reference::Rollout { trials },
        None => Reference::Search {
            plies: args.reference_plies,
        },
    };
    let scores: Vec<EfficiencyScore> = measure(
        &nets,
        args.positions as usize,
        args.seed,
        reference,
        &args.x,
        args.threads as usize,
    );
    if args.json {
        println!("{}", serde_json::to_string_pretty(&scores)?);
        return Ok(());
    }
    let judge = match reference {
        Reference::Search { plies } => format!("{plies}-ply decisions"),
        Reference::Rollout { trials } => {
            format!("rollouts of {trials} trials where the efficiencies disagree")
        }
    };
    println!(
        "cube-levels: 0-ply cube decisions judged by {judge}, {} positions × 3 situations, {:.0} s",
        args.positions,
        started.elapsed().as_secs_f64()
    );
    println!("per situation: doubler and taker error per case (thousandths of a point), wrong doubles; cases judged:");
    if let Some(s) = scores.first() {
        println!(
            "       money, centred {}, money, owned {}, match {}, contact+crashed {}, race {}",
            s.money_centred.positions,
            s.money_owned.positions,
            s.match_play.positions,
            s.contact.positions,
            s.race.positions
        );
    }
    println!(
        "{:>5}  {:<19}  {:<19}  {:<19}  {:<19}  {:<19}",
        "x", "money, centred", "money, owned", "7-point match", "contact+crashed", "race"
    );
    for s in &scores {
        println!(
            "{:>5.2}  {}  {}  {}  {}  {}",
            s.x,
            cell(&s.money_centred),
            cell(&s.money_owned),
            cell(&s.match_play),
            cell(&s.contact),
            cell(&s.race)
        );
    }
    Ok(())
}
