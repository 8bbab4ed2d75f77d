//! `cubeful-cli rollout <POSITION-ID>[:<MATCH-ID>] [--dice 31 | --cube] [options]`: GNU
//! Backgammon-style rollouts of a position before the roll, of the best candidate plays of a
//! roll, or of a cube decision (docs/CLI.md, docs/ANALYSIS.md §Rollouts). The result is printed
//! as GNU Backgammon prints rollouts, or as JSON; a progress bar runs on standard error when it
//! is a terminal.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use cubeful_engine::analysis::hint;
use cubeful_engine::game::Rules;
use cubeful_engine::notation::format_move;
use cubeful_engine::search::rollout::{
    format, LateSettings, PhaseSettings, Progress, Rollout, RolloutResult, RolloutSettings,
    StopRule, Subject, SubjectKind,
};
use cubeful_engine::search::{EvalSettings, Level, Search};
use cubeful_engine::Dice;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::nets::EngineArgs;

/// The latest ply of --truncate and --late (games rarely last 200 plies).
const MAX_PLY: i64 = 10_000;

#[derive(clap::Args)]
pub struct Args {
    #[arg(help = crate::position_arg::HELP)]
    position: String,
    /// Roll out the best plays of this roll (otherwise of the Match ID's dice, if it has any).
    #[arg(long, conflicts_with = "cube")]
    dice: Option<String>,
    /// Roll out the cube decision of the player on roll: no double and double/take.
    #[arg(long)]
    cube: bool,
    /// How many of the best plays (ranked at --plies) to roll out (1 to 1000).
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = crate::options::candidates())]
    candidates: usize,
    /// Games per alternative (1 to 100000000).
    #[arg(long, default_value_t = 1296, value_name = "N", value_parser = crate::options::trials())]
    trials: u32,
    /// Stop every game after P plies and evaluate it (at --truncation-plies; 0: never, at most
    /// 10000).
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(0..=MAX_PLY))]
    truncate: Option<u32>,
    /// Lookahead of the evaluation at the truncation point, 0 to 4.
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(u8).range(0..=4))]
    truncation_plies: u8,
    /// Checker play during the games: lookahead 0 to 4 (with World Class move filters).
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(u8).range(0..=4))]
    plies: u8,
    /// Cube decisions during the games: lookahead 0 to 4 [default: --plies].
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u8).range(0..=4))]
    cube_plies: Option<u8>,
    /// Use other settings from this ply of each game on (--late-plies; 0 to 10000).
    #[arg(long, value_name = "PLY", value_parser = clap::value_parser!(u32).range(0..=MAX_PLY))]
    late: Option<u32>,
    /// Checker and cube lookahead from the --late ply on.
    #[arg(long, default_value_t = 0, value_name = "P", requires = "late", value_parser = clap::value_parser!(u8).range(0..=4))]
    late_plies: u8,
    /// A cubeless rollout: nobody ever doubles.
    #[arg(long, conflicts_with = "cube")]
    cubeless: bool,
    /// No lookahead variance reduction.
    #[arg(long)]
    no_vr: bool,
    /// Pseudo-random dice throughout (no quasi-random dice).
    #[arg(long)]
    no_quasi_random: bool,
    /// Play on inside the bearoff databases instead of stopping there with their values.
    #[arg(long)]
    no_bearoff_truncation: bool,
    /// The dice seed [default: from the clock; the output gives it].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Threads, 0 (all cores, the default) to 256.
    #[arg(long, default_value_t = 0, value_name = "T", value_parser = crate::options::threads_or_zero())]
    threads: usize,
    /// Stop an alternative once the standard errors of its equities are at most X (more than
    /// 0, at most 100).
    #[arg(long, value_name = "X", conflicts_with = "stop_jsd",
          value_parser = crate::options::number_above(0.0, 100.0))]
    stop_se: Option<f64>,
    /// Pause candidates more than X joint standard deviations behind the best (GNU
    /// Backgammon's JSD rule; 2.33 is its default; more than 0, at most 100).
    #[arg(long, value_name = "X", value_parser = crate::options::number_above(0.0, 100.0))]
    stop_jsd: Option<f64>,
    /// Trials before a stop rule may stop anything (0 to 100000000).
    #[arg(long, default_value_t = 324, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=crate::options::MAX_TRIALS))]
    min_trials: u32,
    /// Money play without beavers (a Match ID does not say).
    #[arg(long)]
    no_beavers: bool,
    /// Print JSON (and no progress bar).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// One alternative in the JSON output.
#[derive(Serialize)]
struct AlternativeJson<'a> {
    name: &'a str,
    #[serde(flatten)]
    result: &'a cubeful_engine::search::rollout::AlternativeResult,
}

#[derive(Serialize)]
struct CubeJson {
    no_double: f32,
    double_take: f32,
    double_pass: f32,
    action: String,
    optimal: f32,
}

#[derive(Serialize)]
struct RolloutJson<'a> {
    position: &'a str,
    kind: SubjectKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<String>,
    alternatives: Vec<AlternativeJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cube: Option<CubeJson>,
    cancelled: bool,
    seconds: f64,
    settings: &'a RolloutSettings,
}

pub fn run(args: &Args) -> Result<()> {
    let (position, state) = crate::position_arg::parse(&args.position)?;
    if position.result().is_some() {
        bail!(
            "the game is over in {:?}: there is nothing to roll out",
            args.position
        );
    }
    if state.resigned.is_some() {
        bail!("a resignation is on offer: there is no position to roll out");
    }
    if state.doubled && !args.cube {
        bail!("a double is on offer: roll out the cube decision with --cube");
    }
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    if args.candidates == 0 {
        bail!("--candidates must be at least 1");
    }
    for (name, x) in [("--stop-se", args.stop_se), ("--stop-jsd", args.stop_jsd)] {
        if x.is_some_and(|x| !(x.is_finite() && x > 0.0)) {
            bail!("{name} must be a positive number");
        }
    }
    let dice = match &args.dice {
        Some(d) => Some(
            d.parse::<Dice>()
                .with_context(|| format!("bad dice {d:?}"))?,
        ),
        None if args.cube => None,
        None => state.dice,
    };
    let beavers = Rules::money().beavers && !args.no_beavers;
    let ctx = hint::cube_context(&state, beavers);
    if args.cube && !ctx.can_double() {
        bail!("the player on roll cannot double here: there is no cube decision to roll out");
    }
    let settings = settings(args);
    let nets = args.engine.nets.load()?;
    let bearoff = args.engine.bearoff()?;
    let (subject, names) = match dice {
        _ if args.cube => (
            Subject::Cube,
            vec!["No double".into(), "Double, take".into()],
        ),
        Some(dice) => {
            // The candidates: the best plays at the rollout's checker settings.
            let mut search = Search::new(nets.clone());
            search.set_bearoff(bearoff.clone());
            let ranked = search.rank_moves(&position, dice, &ctx, &settings.early.checker);
            let chosen: Vec<_> = ranked.iter().take(args.candidates).map(|r| r.mv).collect();
            let names = chosen
                .iter()
                .map(|m| {
                    let text = format_move(&position, &m.mv);
                    if text.is_empty() {
                        "(no move)".to_owned()
                    } else {
                        text
                    }
                })
                .collect();
            (Subject::Moves(chosen), names)
        }
        None => (Subject::Position, vec!["Current position".into()]),
    };
    let mut rollout = Rollout::new(nets, bearoff, &position, &ctx, subject, &settings)?;
    let bar = progress_bar(args.json, settings.trials);
    let cancel = AtomicBool::new(false);
    let result = rollout.run(&cancel, &mut |p: &Progress| show_progress(&bar, p));
    bar.finish_and_clear();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json(args, dice, &names, &result))?
        );
    } else {
        if let Some(d) = dice {
            println!("Rolled {d}:");
        }
        print!("{}", format::result_text(&result, &names));
    }
    Ok(())
}

/// The rollout settings of the command line.
fn settings(args: &Args) -> RolloutSettings {
    // World Class move filters and its pruning nets (at 0-ply too, as GNU Backgammon's rollouts).
    let at = |plies: u8| EvalSettings {
        plies,
        ..Level::WorldClass.settings()
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
    });
    let truncate_bearoff = !args.no_bearoff_truncation;
    RolloutSettings {
        trials: args.trials,
        cubeful: !args.cubeless,
        variance_reduction: !args.no_vr,
        quasi_random: !args.no_quasi_random,
        seed,
        truncation: args.truncate.filter(|&t| t > 0),
        truncation_eval: at(args.truncation_plies),
        truncate_bearoff_two_sided: truncate_bearoff,
        truncate_bearoff_one_sided: truncate_bearoff,
        early: PhaseSettings {
            checker: at(args.plies),
            cube: at(args.cube_plies.unwrap_or(args.plies)),
        },
        late: args.late.map(|from_ply| LateSettings {
            from_ply,
            phase: PhaseSettings::both(at(args.late_plies)),
        }),
        stop: match (args.stop_se, args.stop_jsd) {
            (Some(limit), _) => StopRule::StandardError {
                limit,
                min_trials: args.min_trials,
            },
            (None, Some(limit)) => StopRule::Jsd {
                limit,
                min_trials: args.min_trials,
            },
            (None, None) => StopRule::TrialLimit,
        },
        threads: args.threads,
    }
}

/// A progress bar on standard error, hidden for JSON or when standard error is not a terminal.
pub(crate) fn progress_bar(json: bool, trials: u32) -> ProgressBar {
    if json || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(u64::from(trials)), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn show_progress(bar: &ProgressBar, p: &Progress) {
    bar.set_position(u64::from(p.trials));
    let se = p
        .alternatives
        .iter()
        .map(|a| a.equity_std_error)
        .fold(0.0f64, f64::max);
    let left = p
        .remaining
        .map_or_else(String::new, |d| format!(", {:.0} s left", d.as_secs_f64()));
    bar.set_message(format!("SE {se:.3}{left}"));
}

fn json<'a>(
    args: &'a Args,
    dice: Option<Dice>,
    names: &'a [String],
    result: &'a RolloutResult,
) -> RolloutJson<'a> {
    RolloutJson {
        position: &args.position,
        kind: result.kind,
        dice: dice
            .filter(|_| result.kind == SubjectKind::Moves)
            .map(|d| d.to_string()),
        alternatives: result
            .alternatives
            .iter()
            .zip(names)
            .map(|(a, name)| AlternativeJson { name, result: a })
            .collect(),
        cube: result.cube.map(|d| CubeJson {
            no_double: d.no_double,
            double_take: d.double_take,
            double_pass: d.double_pass,
            action: d.action.to_string(),
            optimal: d.optimal,
        }),
        cancelled: result.cancelled,
        seconds: result.elapsed.as_secs_f64(),
        settings: &result.settings,
    }
}
