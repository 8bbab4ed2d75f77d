//! `cubeful-cli bench …`: speed measurements. Figures are recorded in docs/BENCHMARKS.md.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use cubeful_engine::{position_id, Dice, MoveGenerator, Position};
use serde::Serialize;

#[derive(clap::Subcommand)]
pub enum What {
    /// Move generation over the two benchmark files (contact and race positions), all 21 rolls.
    Movegen {
        /// Folder holding contact_ids.txt and race_ids.txt.
        #[arg(long, default_value = "../shared/data/movegen")]
        dir: PathBuf,
        /// Timed passes over all positions; the fastest is reported.
        #[arg(long, default_value_t = 5)]
        passes: u32,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct MovegenReport {
    positions: usize,
    rolls: usize,
    results: usize,
    passes: u32,
    seconds: f64,
    generations_per_second: f64,
    results_per_second: f64,
}

pub fn run(what: &What) -> Result<()> {
    match what {
        What::Movegen { dir, passes, json } => movegen(dir, *passes, *json),
    }
}

fn load(path: &Path) -> Result<Vec<Position>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            position_id::decode(l)
                .with_context(|| format!("{} line {}: bad Position ID", path.display(), i + 1))
        })
        .collect()
}

fn movegen(dir: &Path, passes: u32, json: bool) -> Result<()> {
    if passes == 0 {
        bail!("--passes must be at least 1");
    }
    let mut positions = load(&dir.join("contact_ids.txt"))?;
    positions.extend(load(&dir.join("race_ids.txt"))?);
    let rolls: Vec<Dice> = Dice::all().collect();
    let mut generator = MoveGenerator::new();
    let mut best = f64::INFINITY;
    let mut results = 0;
    for _ in 0..passes {
        let start = Instant::now();
        let mut total = 0;
        for position in &positions {
            for &dice in &rolls {
                total += generator.generate(position, dice).len();
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
        results = total;
    }
    let generations = positions.len() * rolls.len();
    let report = MovegenReport {
        positions: positions.len(),
        rolls: generations,
        results,
        passes,
        seconds: best,
        generations_per_second: generations as f64 / best,
        results_per_second: results as f64 / best,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "movegen: {} positions x 21 rolls = {} generations, {} results, best of {} passes: \
             {:.3} s ({:.0} generations/s, {:.0} results/s, one thread)",
            report.positions,
            report.rolls,
            report.results,
            report.passes,
            report.seconds,
            report.generations_per_second,
            report.results_per_second
        );
    }
    Ok(())
}
