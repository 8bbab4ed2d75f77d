//! `cubeful-cli analyse FILE... [--level L] [--cube-level L] [--out FILE.sgf]
//! [--report text|json|html] [--threads T]`: GNU Backgammon's `analyse match` on match files,
//! with the engine's analyser (`analysis::analyse`) and statistics (`analysis::stats`).
//!
//! One file: the statistics as GNU Backgammon's `show statistics match` prints them, then the
//! marked decisions (or the statistics as JSON, or an HTML page); `--out` writes the analysed
//! match as SGF. Several files: one summary line per player name over all of them (text or
//! JSON). A progress bar over all the positions to analyse runs on standard error when it is a
//! terminal.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use cubeful_engine::analysis::analyse::{
    self, AnalysisLevel, AnalysisSettings, Existing, Observer, Progress, Run,
};
use cubeful_engine::analysis::marks::Thresholds;
use cubeful_engine::analysis::stats::report::ReportStyle;
use cubeful_engine::analysis::stats::summary::Summary;
use cubeful_engine::analysis::stats::{self, MatchStatistics, StatsSettings};
use cubeful_engine::eval::bearoff::BearoffDb;
use cubeful_engine::eval::Nets;
use cubeful_engine::formats::match_file::MatchFormat;
use cubeful_engine::game::record::MatchRecord;
use cubeful_engine::search::rollout::RolloutSettings;
use cubeful_engine::search::{EvalSettings, Level};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::matches;
use crate::nets::EngineArgs;

/// What to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportKind {
    /// GNU Backgammon's `show statistics match` and the marked decisions.
    Text,
    /// The statistics and marked decisions as JSON.
    Json,
    /// A self-contained HTML page.
    Html,
}

/// What becomes of the analysis a file already has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExistingArg {
    Replace,
    KeepAsGood,
    Keep,
}

#[derive(clap::Args)]
pub struct Args {
    /// The match files to analyse (SGF, Jellyfish .mat or match text).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Level of the checker-play analysis: 0 to 4 plies (`2` or `2ply`: cubeful, with GNU
    /// Backgammon's analysis move filter, the Large one) or a level name (expert, worldclass =
    /// 2-ply with the Normal filter, supremo, grandmaster, …).
    #[arg(long, default_value = "2", value_parser = parse_level, value_name = "L")]
    level: AnalysisLevel,
    /// Level of the cube analysis [default: the checker-play level].
    #[arg(long, value_parser = parse_level, value_name = "L")]
    cube_level: Option<AnalysisLevel>,
    /// Roll out checker plays and cube decisions with this many trials per alternative (GNU
    /// Backgammon's default rollout otherwise); the plays rolled out are the best ones at
    /// `--level` and the play made.
    #[arg(long, value_name = "TRIALS", value_parser = crate::options::trials())]
    rollout: Option<u32>,
    /// With --rollout: how many of the best plays are rolled out (besides the play made; 1 to
    /// 1000).
    #[arg(long, default_value_t = 3, value_name = "N", requires = "rollout",
          value_parser = crate::options::candidates())]
    rollout_candidates: usize,
    /// Level of the luck analysis [default: 0-ply].
    #[arg(long, default_value = "0", value_parser = parse_level, value_name = "L")]
    luck_level: AnalysisLevel,
    /// Write the analysed match here as SGF (one input file only).
    #[arg(long, value_name = "FILE.sgf")]
    out: Option<PathBuf>,
    /// What to print.
    #[arg(long, value_enum, default_value_t = ReportKind::Text)]
    report: ReportKind,
    /// Worker threads, 0 (one per processor, the default) to 256.
    #[arg(long, default_value_t = 0, value_name = "T", value_parser = crate::options::threads_or_zero())]
    threads: usize,
    /// Analyse only this player's actions: 0, 1 or a player's name.
    #[arg(long, value_name = "PLAYER")]
    player: Option<String>,
    /// What becomes of analysis the file already has: `keep-as-good` (GNU Backgammon's way: a
    /// checker play or cube decision analysed at least as deeply as asked keeps it; the luck is
    /// computed again), `replace` (analyse everything again) or `keep` (analyse only actions
    /// without analysis).
    #[arg(long, value_enum, default_value_t = ExistingArg::KeepAsGood, value_name = "WHAT")]
    existing: ExistingArg,
    /// Do not analyse checker plays.
    #[arg(long)]
    no_moves: bool,
    /// Do not analyse cube decisions.
    #[arg(long)]
    no_cube: bool,
    /// Do not analyse the luck of the rolls.
    #[arg(long)]
    no_luck: bool,
    /// Keep at most this many candidate plays per checker play (and the play made) [default:
    /// all, as GNU Backgammon; 1 to 1000].
    #[arg(long, value_name = "N", value_parser = crate::options::candidates())]
    candidates: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// A level: `0`…`4`, `2ply`, `2-ply`, or a playing level's name.
fn parse_level(text: &str) -> Result<AnalysisLevel, String> {
    let t = text.trim().to_lowercase();
    let digits = t
        .strip_suffix("-ply")
        .or_else(|| t.strip_suffix("ply"))
        .unwrap_or(&t);
    if let Ok(plies) = digits.trim().parse::<u8>() {
        if plies > 4 {
            return Err(format!("at most 4 plies, not {plies}"));
        }
        return Ok(AnalysisLevel::plies(plies));
    }
    text.parse::<Level>()
        .map(AnalysisLevel::of)
        .map_err(|e| format!("{e}, or a number of plies 0 to 4"))
}

/// Shows the progress on standard error: a bar over `total` positions, of which `offset` were
/// done in earlier files.
struct Bar {
    bar: ProgressBar,
    offset: u64,
}

impl Observer for Bar {
    fn progress(&self, progress: &Progress) {
        self.bar.set_position(self.offset + progress.done as u64);
    }
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:40}] {pos}/{len} positions, {elapsed} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// The analysis settings the options ask for.
fn settings(args: &Args, record: &MatchRecord) -> Result<AnalysisSettings> {
    let players = match args.player.as_deref() {
        None => [true, true],
        Some("0") => [true, false],
        Some("1") => [false, true],
        Some(name) => match record.info.players.iter().position(|p| p == name) {
            Some(i) => [i == 0, i == 1],
            None => bail!(
                "no player {name:?} in this match (its players are {:?} and {:?}; or give 0 or 1)",
                record.info.players[0],
                record.info.players[1]
            ),
        },
    };
    let luck: EvalSettings = *args.luck_level.eval_settings();
    let (checker, cube) = match args.rollout {
        None => (
            args.level.clone(),
            args.cube_level
                .clone()
                .unwrap_or_else(|| args.level.clone()),
        ),
        Some(trials) => {
            let rollout = RolloutSettings {
                trials,
                ..RolloutSettings::default()
            };
            let preselect = *args.level.eval_settings();
            (
                AnalysisLevel::rollout(preselect, args.rollout_candidates, rollout.clone()),
                AnalysisLevel::rollout(preselect, 1, rollout),
            )
        }
    };
    Ok(AnalysisSettings {
        checker,
        cube,
        luck,
        thresholds: Thresholds::default(),
        players,
        moves: !args.no_moves,
        cube_decisions: !args.no_cube,
        luck_analysis: !args.no_luck,
        max_candidates: args.candidates,
        existing: match args.existing {
            ExistingArg::Replace => Existing::Replace,
            ExistingArg::KeepAsGood => Existing::KeepAsGood,
            ExistingArg::Keep => Existing::Keep,
        },
    })
}

/// The nets and bearoff databases, loaded once and shared by the workers.
fn engine(args: &EngineArgs) -> Result<(Arc<Nets>, Option<Arc<BearoffDb>>)> {
    let bearoff = if args.no_bearoff {
        None
    } else {
        let dir = crate::bearoff::DirArg {
            dir: args.bearoff_dir.clone(),
        };
        Some(Arc::new(dir.open()?))
    };
    Ok((args.nets.load()?, bearoff))
}

/// One loaded file and what its analysis will take.
struct Job {
    path: PathBuf,
    record: MatchRecord,
    settings: AnalysisSettings,
    positions: usize,
}

pub fn run(args: &Args) -> Result<()> {
    if args.out.is_some() && args.files.len() > 1 {
        bail!("--out writes one analysed match: give one input file");
    }
    if let Some(out) = &args.out {
        let format = matches::format_for(out)?;
        if format != MatchFormat::Sgf {
            bail!(
                "{}: the analysis is written as SGF; name the file .sgf",
                out.display()
            );
        }
    }
    let mut jobs = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let loaded = matches::load(path)?;
        for warning in &loaded.warnings {
            eprintln!("warning: {}: {warning}", path.display());
        }
        let settings =
            settings(args, &loaded.record).with_context(|| format!("{}", path.display()))?;
        let positions = analyse::positions_to_analyse(&loaded.record, &settings)
            .with_context(|| format!("{}", path.display()))?;
        jobs.push(Job {
            path: path.clone(),
            record: loaded.record,
            settings,
            positions,
        });
    }
    let (nets, bearoff) = engine(&args.engine)?;
    let total: u64 = jobs.iter().map(|j| j.positions as u64).sum();
    let bar = progress_bar(total);
    let mut offset = 0u64;
    let mut analysed = Vec::with_capacity(jobs.len());
    for job in jobs {
        bar.set_message(file_name(&job.path));
        let observer = Bar {
            bar: bar.clone(),
            offset,
        };
        let run = Run {
            threads: args.threads,
            cancel: None,
            nets: nets.clone(),
            bearoff: bearoff.clone(),
        };
        let mut record = job.record;
        analyse::analyse_record(&mut record, &job.settings, &run, &observer)
            .with_context(|| format!("{}", job.path.display()))?;
        offset += job.positions as u64;
        bar.set_position(offset);
        analysed.push((job.path, record));
    }
    bar.finish_and_clear();
    if let (Some(out), [(_, record)]) = (&args.out, analysed.as_slice()) {
        matches::save(out, record, MatchFormat::Sgf)?;
    }
    let stats_settings = StatsSettings::default();
    let mut all = Vec::with_capacity(analysed.len());
    for (path, record) in &analysed {
        let s = stats::match_statistics(record, &stats_settings)
            .with_context(|| format!("{}", path.display()))?;
        all.push((record, s));
    }
    let text = match all.as_slice() {
        [(record, one)] => one_file(record, one, args.report)?,
        _ => many_files(&all, args.report)?,
    };
    print(&text)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The report of one analysed match.
fn one_file(record: &MatchRecord, stats: &MatchStatistics, kind: ReportKind) -> Result<String> {
    Ok(match kind {
        ReportKind::Text => {
            let mut out = stats::report::report(stats);
            out.push_str(&marked_text(stats));
            out
        }
        ReportKind::Json => serde_json::to_string_pretty(stats)? + "\n",
        ReportKind::Html => stats::html::page(&record.info, stats, &ReportStyle::default()),
    })
}

/// The marked decisions, one line each.
fn marked_text(stats: &MatchStatistics) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("Marked decisions\n\n");
    if stats.marked.is_empty() {
        out.push_str("none\n");
        return out;
    }
    for m in &stats.marked {
        let what = match &m.dice {
            Some(dice) => format!(
                "{dice}: {}",
                if m.played.is_empty() {
                    "(no move)"
                } else {
                    &m.played
                }
            ),
            None => m.played.clone(),
        };
        let _ = writeln!(
            out,
            "game {:>2} action {:>3}  {:<16} {:<32} {:<9} {:+.3}  (best: {})",
            m.game, m.action, stats.players[m.player], what, m.mark, m.error, m.best
        );
    }
    out
}

/// The summary of several analysed matches: one line per player name over all of them.
fn many_files(all: &[(&MatchRecord, MatchStatistics)], kind: ReportKind) -> Result<String> {
    let mut summary = Summary::new();
    for (_, stats) in all {
        summary.add(stats);
    }
    Ok(match kind {
        ReportKind::Text => summary.table(ReportStyle::default().ratings),
        ReportKind::Json => serde_json::to_string_pretty(&summary)? + "\n",
        ReportKind::Html => {
            bail!("--report html shows one match: give one file (or --report text or json)")
        }
    })
}

/// Writes `text` to standard output; a closed pipe (`| head`) is not an error.
fn print(text: &str) -> Result<()> {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
