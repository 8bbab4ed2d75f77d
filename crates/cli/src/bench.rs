//! `cubeful-cli bench …`: speed measurements (figures recorded in docs/BENCHMARKS.md), and the
//! decision benchmark of the nets' strength (docs/TRAINING.md).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use cubeful_engine::eval::Evaluator;
use cubeful_engine::{position_id, Dice, MoveGenerator, Position, Side};
use serde::Serialize;

#[derive(clap::Subcommand)]
pub enum What {
    /// Static (0-ply) evaluations per second on one thread over random contact positions, with
    /// the evaluation cache off: the same measurement as GNU Backgammon's `calibrate`.
    Eval {
        /// Number of distinct random contact positions, 1 to 1000000.
        #[arg(long, default_value_t = 10_000, value_parser = crate::options::count(1, 1_000_000))]
        positions: usize,
        /// Minimum measuring time in seconds (more than 0, at most 3600).
        #[arg(long, default_value_t = 3.0, value_parser = crate::options::number_above(0.0, 3600.0))]
        seconds: f64,
        #[command(flatten)]
        nets: crate::nets::NetsArg,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Move generation over the two benchmark files (contact and race positions), all 21 rolls.
    Movegen {
        /// Folder holding contact_ids.txt and race_ids.txt.
        #[arg(long, default_value = "../shared/data/movegen")]
        dir: PathBuf,
        /// Timed passes over all positions, 1 to 1000; the fastest is reported.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
        passes: u32,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Checker-play decisions for the 15 opening rolls at a given lookahead (cubeful, money,
    /// World Class move filters, one thread), as `hint` makes them.
    Hint {
        /// Lookahead, 1 to 4.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
        plies: u8,
        /// Timed passes over the 15 rolls, 1 to 1000; the fastest is reported.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
        passes: u32,
        #[command(flatten)]
        nets: crate::nets::NetsArg,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Bearoff databases: generation time (one-sided 6x15, two-sided 6x6) and look-up time.
    Bearoff(crate::bench_bearoff::Args),
    /// Checker-play strength: mean equity lost per decision on a fixed set of self-play
    /// decisions scored at 2-ply (docs/TRAINING.md).
    Decisions(crate::bench_decisions::Args),
    /// Cube decisions: how well 0-ply ones agree with deeper ones for a range of cube
    /// efficiencies (Janowski's x).
    CubeLevels(crate::bench_cube_levels::Args),
    /// Rollout speed: games per second per thread (0-ply, cubeless, untruncated), with and
    /// without variance reduction; `--gnubg` times GNU Backgammon's in the same run.
    Rollout(crate::bench_rollout::Args),
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
        What::Eval {
            positions,
            seconds,
            nets,
            json,
        } => eval(*positions, *seconds, nets, *json),
        What::Bearoff(args) => crate::bench_bearoff::run(args),
        What::Decisions(args) => crate::bench_decisions::run(args),
        What::CubeLevels(args) => crate::bench_cube_levels::run(args),
        What::Rollout(args) => crate::bench_rollout::run(args),
        What::Hint {
            plies,
            passes,
            nets,
            json,
        } => hint(*plies, *passes, nets, *json),
    }
}

#[derive(Serialize)]
struct EvalReport {
    positions: usize,
    evaluations: u64,
    seconds: f64,
    evals_per_second: f64,
    threads: u32,
    cache: bool,
}

/// Random legal contact positions with no checker on the bar or borne off (as `calibrate` uses),
/// collected from random games with a fixed seed.
fn random_contact_positions(count: usize) -> Vec<Position> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(2026);
    let mut generator = MoveGenerator::new();
    let mut seen = std::collections::HashSet::new();
    // Grown as positions are found, not reserved for `count` up front.
    let mut out = Vec::new();
    while out.len() < count {
        let mut position = Position::starting();
        for _ in 0..200 {
            let dice = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).expect("1..=6");
            let moves = generator.generate(&position, dice);
            let next = moves[rng.gen_range(0..moves.len())].position;
            if next.result().is_some() {
                break;
            }
            position = next.swap();
            let plain = [Side::Player, Side::Opponent]
                .iter()
                .all(|&s| position.bar(s) == 0 && position.off(s) == 0);
            if plain
                && cubeful_engine::eval::class::classify(&position)
                    == cubeful_engine::eval::class::PositionClass::Contact
                && seen.insert(position)
            {
                out.push(position);
                if out.len() == count {
                    break;
                }
            }
        }
    }
    out
}

fn eval(count: usize, seconds: f64, nets: &crate::nets::NetsArg, json: bool) -> Result<()> {
    if count == 0 {
        bail!("--positions must be at least 1");
    }
    let positions = random_contact_positions(count);
    let mut evaluator = Evaluator::new(nets.load()?);
    evaluator.set_cache(false);
    // Warm up, then measure whole passes until the time is reached.
    let mut checksum = 0.0f32;
    for p in positions.iter().take(1000) {
        checksum += evaluator.evaluate(p).win;
    }
    let start = Instant::now();
    let mut evaluations = 0u64;
    while start.elapsed().as_secs_f64() < seconds {
        for p in &positions {
            checksum += evaluator.evaluate(p).win;
        }
        evaluations += positions.len() as u64;
    }
    let elapsed = start.elapsed().as_secs_f64();
    std::hint::black_box(checksum);
    let report = EvalReport {
        positions: positions.len(),
        evaluations,
        seconds: elapsed,
        evals_per_second: evaluations as f64 / elapsed,
        threads: 1,
        cache: false,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "eval: {:.0} static evaluations/second ({} evaluations of {} random contact positions in {:.2} s, one thread, cache off)",
            report.evals_per_second, report.evaluations, report.positions, report.seconds
        );
    }
    Ok(())
}

fn load(path: &Path) -> Result<Vec<Position>> {
    let bytes = cubeful_engine::files::read_regular(path, 64 << 20)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))?;
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

#[derive(Serialize)]
struct HintReport {
    plies: u8,
    decisions: usize,
    seconds: f64,
    seconds_per_decision: f64,
    best_moves: Vec<String>,
}

fn hint(plies: u8, passes: u32, nets: &crate::nets::NetsArg, json: bool) -> Result<()> {
    use cubeful_engine::cube::{CubeContext, Ownership};
    use cubeful_engine::search::{EvalSettings, Level, Search};
    let nets = nets.load()?;
    let start_position = Position::starting();
    let rolls: Vec<Dice> = Dice::all().filter(|d| !d.is_double()).collect();
    let ctx = CubeContext::money(1, Ownership::Centered);
    let settings = EvalSettings {
        plies,
        ..Level::WorldClass.settings()
    };
    let mut best = f64::INFINITY;
    let mut best_moves = Vec::new();
    for _ in 0..passes.max(1) {
        // A fresh searcher per pass: no cached evaluations from the previous pass.
        let mut search = Search::new(nets.clone());
        let t = Instant::now();
        best_moves = rolls
            .iter()
            .map(|&d| {
                let m = search.best_move(&start_position, d, &ctx, &settings);
                format!(
                    "{d}: {}",
                    cubeful_engine::formats::notation::format_move(&start_position, &m.mv.mv)
                )
            })
            .collect();
        best = best.min(t.elapsed().as_secs_f64());
    }
    let report = HintReport {
        plies,
        decisions: rolls.len(),
        seconds: best,
        seconds_per_decision: best / rolls.len() as f64,
        best_moves,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "hint: {} opening decisions at {}-ply in {:.3} s ({:.4} s per decision, one thread, best of {} passes)",
            report.decisions, plies, report.seconds, report.seconds_per_decision, passes.max(1)
        );
        for m in &report.best_moves {
            println!("  {m}");
        }
    }
    Ok(())
}
