//! `cubeful-cli bench bearoff`: generation time of the default bearoff databases, file size, load
//! time, and look-up time per position. Figures are recorded in docs/BENCHMARKS.md.

use std::time::Instant;

use anyhow::{bail, Result};
use cubeful_engine::eval::bearoff::{
    BearoffDb, Layout, OneSided, TwoSided, DEFAULT_TWO_SIDED_CHECKERS,
};
use cubeful_engine::eval::BearoffOracle;
use cubeful_engine::Position;
use serde::Serialize;

#[derive(clap::Args)]
pub struct Args {
    /// Look-ups timed per kind of position, 1 to 1000000000.
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    lookups: u64,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report {
    one_sided_positions: u32,
    one_sided_generation_seconds: f64,
    one_sided_file_bytes: usize,
    one_sided_load_seconds: f64,
    two_sided_pairs: u64,
    two_sided_generation_seconds: f64,
    two_sided_file_bytes: usize,
    two_sided_load_seconds: f64,
    lookups: u64,
    /// Evaluator oracle on positions inside the two-sided database.
    two_sided_lookup_ns: f64,
    /// Evaluator oracle on positions only the one-sided database holds (race evaluation).
    one_sided_race_ns: f64,
    threads: u32,
}

/// Pure bearoff positions from a fixed pseudo-random sequence: both sides with up to `max`
/// checkers (at least one) on the home points.
fn positions(count: usize, min: u32, max: u32) -> Vec<Position> {
    let layout = Layout::ONE_SIDED;
    let mut state = 2026u64;
    let mut next = |m: u32| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % u64::from(m)) as u32
    };
    let (lo, hi) = (
        layout.count_up_to(min as u8 - 1),
        layout.count_up_to(max as u8),
    );
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let a = layout.counts(lo + next(hi - lo)).expect("in range");
        let b = layout.counts(lo + next(hi - lo)).expect("in range");
        let mut sa = [0u8; 25];
        let mut sb = [0u8; 25];
        sa[..6].copy_from_slice(&a[..6]);
        sb[..6].copy_from_slice(&b[..6]);
        if let Ok(p) = Position::from_sides(&sa, &sb) {
            out.push(p);
        }
    }
    out
}

fn time_lookups(db: &BearoffDb, positions: &[Position], lookups: u64) -> f64 {
    let mut sum = 0.0f32;
    let start = Instant::now();
    let mut done = 0u64;
    while done < lookups {
        for p in positions {
            sum += db.probabilities(p).map_or(0.0, |v| v.win);
        }
        done += positions.len() as u64;
    }
    let elapsed = start.elapsed().as_secs_f64();
    std::hint::black_box(sum);
    elapsed * 1e9 / done as f64
}

pub fn run(args: &Args) -> Result<()> {
    if args.lookups == 0 {
        bail!("--lookups must be at least 1");
    }
    let start = Instant::now();
    let one = OneSided::generate(Layout::ONE_SIDED, &mut |_, _| {});
    let one_seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let two = TwoSided::generate(DEFAULT_TWO_SIDED_CHECKERS, &mut |_, _| {})?;
    let two_seconds = start.elapsed().as_secs_f64();

    let one_bytes = one.to_bytes();
    let two_bytes = two.to_bytes();
    let start = Instant::now();
    let one = OneSided::from_bytes(&one_bytes)?;
    let one_load = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let two = TwoSided::from_bytes(&two_bytes)?;
    let two_load = start.elapsed().as_secs_f64();

    let n = u64::from(two.positions());
    let db = BearoffDb::new(Some(one), Some(two));
    let small = positions(4096, 1, u32::from(DEFAULT_TWO_SIDED_CHECKERS));
    let large = positions(4096, 7, 15);
    let two_ns = time_lookups(&db, &small, args.lookups);
    let one_ns = time_lookups(&db, &large, args.lookups);

    let report = Report {
        one_sided_positions: Layout::ONE_SIDED.count(),
        one_sided_generation_seconds: one_seconds,
        one_sided_file_bytes: one_bytes.len(),
        one_sided_load_seconds: one_load,
        two_sided_pairs: n * n,
        two_sided_generation_seconds: two_seconds,
        two_sided_file_bytes: two_bytes.len(),
        two_sided_load_seconds: two_load,
        lookups: args.lookups,
        two_sided_lookup_ns: two_ns,
        one_sided_race_ns: one_ns,
        threads: 1,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "bearoff: one-sided 6x15 ({} positions) generated in {:.2} s, {} bytes, loaded in {:.3} s",
            report.one_sided_positions, one_seconds, report.one_sided_file_bytes, one_load
        );
        println!(
            "bearoff: two-sided 6x{} ({} pairs) generated in {:.2} s, {} bytes, loaded in {:.3} s",
            DEFAULT_TWO_SIDED_CHECKERS,
            report.two_sided_pairs,
            two_seconds,
            report.two_sided_file_bytes,
            two_load
        );
        println!(
            "bearoff: look-up {two_ns:.0} ns per position (two-sided), {one_ns:.0} ns per position (one-sided race), one thread"
        );
    }
    Ok(())
}
