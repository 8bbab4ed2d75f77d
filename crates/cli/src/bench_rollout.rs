//! `cubeful-cli bench rollout`: rollout speed in games per second per thread — the starting
//! position, 0-ply checker play, cubeless, played to the end (no truncation, no bearoff
//! truncation), with and without variance reduction — and, with `--gnubg`, GNU Backgammon's
//! rollout with the same settings in the same run. Figures are recorded in docs/BENCHMARKS.md.
//!
//! Times are wall-clock; CPU times (this process's, and the GNU Backgammon child's) are read
//! from `/proc/self/stat` on Linux, which makes the comparison fairer on a busy machine. GNU
//! Backgammon's figure is the time of a run with the rollout minus the same run without it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use cubeful_engine::cube::{CubeContext, Ownership};
use cubeful_engine::search::rollout::{Rollout, RolloutSettings, Subject};
use cubeful_engine::search::Level;
use cubeful_engine::{position_id, Position};
use serde::Serialize;

use crate::nets::EngineArgs;

#[derive(clap::Args)]
pub struct Args {
    /// Games rolled out without variance reduction (1 to 100000000).
    #[arg(long, default_value_t = 1296, value_name = "N", value_parser = crate::options::trials())]
    games: u32,
    /// Games rolled out with variance reduction (each costs about 21 times more; 1 to
    /// 100000000).
    #[arg(long, default_value_t = 72, value_name = "N", value_parser = crate::options::trials())]
    vr_games: u32,
    /// Only without variance reduction.
    #[arg(long)]
    no_vr: bool,
    /// Threads, 1 to 256.
    #[arg(long, default_value_t = 1, value_name = "T", value_parser = crate::options::threads())]
    threads: usize,
    /// The dice seed.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Also time GNU Backgammon's rollout with the same settings (optionally the path of its
    /// program; default: `gnubg` on the PATH or /usr/games/gnubg).
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "gnubg")]
    gnubg: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// One measurement.
#[derive(Serialize)]
struct Measure {
    program: &'static str,
    variance_reduction: bool,
    games: u32,
    threads: usize,
    seconds: f64,
    /// CPU seconds of all threads (Linux only).
    cpu_seconds: Option<f64>,
    games_per_second_per_thread: f64,
    /// Games per CPU second.
    games_per_cpu_second: Option<f64>,
}

#[derive(Serialize)]
struct Report {
    position: String,
    machine: String,
    load: String,
    measures: Vec<Measure>,
    /// Cubeful's games per second over GNU Backgammon's (wall clock), without and with
    /// variance reduction.
    ratio: Vec<(bool, f64)>,
    /// The same from CPU times.
    cpu_ratio: Vec<(bool, f64)>,
}

pub fn run(args: &Args) -> Result<()> {
    if args.games == 0 || args.vr_games == 0 || args.threads == 0 {
        bail!("--games, --vr-games and --threads must be at least 1");
    }
    let nets = args.engine.nets.load()?;
    let bearoff = args.engine.bearoff()?;
    let gnubg = match &args.gnubg {
        Some(path) => Some(find_gnubg(path)?),
        None => None,
    };
    let position = Position::starting();
    let ctx = CubeContext::money(1, Ownership::Centered);
    let mut cases = vec![(false, args.games)];
    if !args.no_vr {
        cases.push((true, args.vr_games));
    }
    let mut measures = Vec::new();
    let mut ratio = Vec::new();
    let mut cpu_ratio = Vec::new();
    for (vr, games) in cases {
        let settings = RolloutSettings {
            trials: games,
            cubeful: false,
            variance_reduction: vr,
            quasi_random: true,
            seed: args.seed,
            truncation: None,
            truncate_bearoff_two_sided: false,
            truncate_bearoff_one_sided: false,
            threads: args.threads,
            ..RolloutSettings::default()
        };
        let mut rollout = Rollout::new(
            nets.clone(),
            bearoff.clone(),
            &position,
            &ctx,
            Subject::Position,
            &settings,
        )?;
        let cpu = cpu_seconds();
        let start = Instant::now();
        let result = rollout.run(&AtomicBool::new(false), &mut |_| {});
        let seconds = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);
        std::hint::black_box(&result);
        let ours = measure("cubeful", vr, games, args.threads, seconds, cpu);
        if let Some(gnubg) = &gnubg {
            let theirs = gnubg_rollout(gnubg, &position, vr, games, args.threads, args.seed)?;
            ratio.push((
                vr,
                ours.games_per_second_per_thread / theirs.games_per_second_per_thread,
            ));
            if let (Some(a), Some(b)) = (ours.games_per_cpu_second, theirs.games_per_cpu_second) {
                cpu_ratio.push((vr, a / b));
            }
            measures.push(ours);
            measures.push(theirs);
        } else {
            measures.push(ours);
        }
    }
    let report = Report {
        position: position_id::encode(&position),
        machine: machine(),
        load: std::fs::read_to_string("/proc/loadavg")
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .unwrap_or_default(),
        measures,
        ratio,
        cpu_ratio,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "rollout: position {} before the roll, cubeless, 0-ply checker play ({}), no truncation, \
         no bearoff truncation, quasi-random dice, {} thread(s)",
        report.position,
        Level::Expert.name(),
        args.threads
    );
    println!("machine: {}, load {}", report.machine, report.load);
    println!(
        "{:<16} {:>3} {:>7} {:>9} {:>9} {:>16} {:>14}",
        "program", "VR", "games", "seconds", "CPU s", "games/s/thread", "games/CPU s"
    );
    for m in &report.measures {
        println!(
            "{:<16} {:>3} {:>7} {:>9.3} {:>9} {:>16.2} {:>14}",
            m.program,
            if m.variance_reduction { "on" } else { "off" },
            m.games,
            m.seconds,
            m.cpu_seconds
                .map_or_else(|| "-".to_owned(), |c| format!("{c:.3}")),
            m.games_per_second_per_thread,
            m.games_per_cpu_second
                .map_or_else(|| "-".to_owned(), |c| format!("{c:.2}"))
        );
    }
    for (vr, r) in &report.ratio {
        let cpu = report
            .cpu_ratio
            .iter()
            .find(|(v, _)| v == vr)
            .map_or_else(String::new, |(_, c)| format!(", by CPU time {c:.2}"));
        println!(
            "Cubeful / GNU Backgammon, VR {}: {r:.2} (wall clock){cpu}",
            if *vr { "on" } else { "off" }
        );
    }
    Ok(())
}

fn measure(
    program: &'static str,
    vr: bool,
    games: u32,
    threads: usize,
    seconds: f64,
    cpu: Option<f64>,
) -> Measure {
    let seconds = seconds.max(1e-9);
    Measure {
        program,
        variance_reduction: vr,
        games,
        threads,
        seconds,
        cpu_seconds: cpu,
        games_per_second_per_thread: f64::from(games) / seconds / threads as f64,
        games_per_cpu_second: cpu.filter(|&c| c > 0.0).map(|c| f64::from(games) / c),
    }
}

/// GNU Backgammon's program: `path` itself if it is a file, else searched on the PATH, else
/// /usr/games/gnubg.
fn find_gnubg(path: &Path) -> Result<PathBuf> {
    if path.is_file() {
        return Ok(path.to_path_buf());
    }
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(path))
                .find(|p| p.is_file())
        })
        .or_else(|| Some(PathBuf::from("/usr/games/gnubg")).filter(|p| p.is_file()))
        .with_context(|| format!("GNU Backgammon not found ({})", path.display()))
}

/// Times GNU Backgammon rolling out `position` with the same settings: a command script run by
/// `gnubg -t -q`, minus the same script without the rollout.
fn gnubg_rollout(
    gnubg: &Path,
    position: &Position,
    vr: bool,
    games: u32,
    threads: usize,
    seed: u64,
) -> Result<Measure> {
    let script = |rollout: bool| {
        let mut s = String::new();
        for line in [
            "set player 0 human".to_owned(),
            "set player 1 human".to_owned(),
            "new game".to_owned(),
            format!("set board {}", position_id::encode(position)),
            format!("set rollout trials {games}"),
            format!("set rollout seed {seed}"),
            "set rollout cubeful off".to_owned(),
            "set rollout chequerplay plies 0".to_owned(),
            format!("set rollout varredn {}", if vr { "on" } else { "off" }),
            "set rollout quasirandom on".to_owned(),
            "set rollout truncation enable off".to_owned(),
            "set rollout bearofftruncation exact off".to_owned(),
            "set rollout bearofftruncation onesided off".to_owned(),
            "set rollout late enable off".to_owned(),
            format!("set threads {threads}"),
        ] {
            s.push_str(&line);
            s.push('\n');
        }
        if rollout {
            s.push_str("rollout\n");
        }
        s.push_str("quit\ny\n");
        s
    };
    // The script goes to GNU Backgammon's standard input through a pipe: no file is written.
    let run = |rollout: bool| -> Result<(f64, Option<f64>)> {
        let script = script(rollout);
        let cpu = children_cpu_seconds();
        let start = Instant::now();
        let mut child = Command::new(gnubg)
            .args(["-t", "-q"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot run {}", gnubg.display()))?;
        if let Some(mut stdin) = child.stdin.take() {
            // A program that quits without reading everything closes the pipe: not an error.
            let _ = stdin.write_all(script.as_bytes());
        }
        let status = child
            .wait()
            .with_context(|| format!("cannot run {}", gnubg.display()))?;
        let seconds = start.elapsed().as_secs_f64();
        if !status.success() {
            bail!("{} failed: {status}", gnubg.display());
        }
        Ok((seconds, children_cpu_seconds().zip(cpu).map(|(b, a)| b - a)))
    };
    let base = run(false);
    let full = run(true);
    let (base, full) = (base?, full?);
    let cpu = full.1.zip(base.1).map(|(f, b)| (f - b).max(0.0));
    Ok(measure(
        "GNU Backgammon",
        vr,
        games,
        threads,
        full.0 - base.0,
        cpu,
    ))
}

/// Fields 14 to 17 of `/proc/self/stat` (user and system time of this process, then of its
/// waited-for children), in seconds; `None` off Linux.
fn proc_times() -> Option<[f64; 4]> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold blanks.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3.
    let tick = 100.0;
    let get = |n: usize| fields.get(n - 3)?.parse::<f64>().ok().map(|t| t / tick);
    Some([get(14)?, get(15)?, get(16)?, get(17)?])
}

fn cpu_seconds() -> Option<f64> {
    proc_times().map(|t| t[0] + t[1])
}

fn children_cpu_seconds() -> Option<f64> {
    proc_times().map(|t| t[2] + t[3])
}

/// Cores and processor model.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown processor".to_owned());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cores} cores, {model}")
}
