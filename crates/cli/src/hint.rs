//! `cubeful-cli hint <POSITION-ID>[:<MATCH-ID>] [--dice 31] [--plies N | --level NAME] [--json]`:
//! the hint for the decision the IDs describe, from the engine's one hint function: the ranked
//! plays of a roll, the cube decision before the roll, the answer to a double on offer (take,
//! drop or beaver) or to an offer to resign. With `--rollout [--trials N]` the decision is
//! rolled out instead (the engine's hint by rollout: the best plays of a 0-ply hint, or the
//! cube decision), with the engine's default rollout settings and the bearoff databases.

use crate::nets::EngineArgs;
use crate::report;
use anyhow::{bail, Context, Result};
use cubeful_engine::analysis::hint::{self, Query, Question, RolloutHintError};
use cubeful_engine::game::Rules;
use cubeful_engine::search::rollout::RolloutSettings;
use cubeful_engine::search::{EvalSettings, Level};
use cubeful_engine::Dice;

#[derive(clap::Args)]
pub struct Args {
    #[arg(help = crate::position_arg::HELP)]
    position: String,
    /// The roll to play (otherwise the Match ID's dice; without dice: the cube decision, or the
    /// answer to the double or resignation the Match ID holds).
    #[arg(long)]
    dice: Option<String>,
    /// Lookahead, 0 to 4 (default: 2, like World Class).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=4), conflicts_with = "level")]
    plies: Option<u8>,
    /// A predefined level: beginner … expert, worldclass, supremo, grandmaster.
    #[arg(long)]
    level: Option<Level>,
    /// Reduced evaluation: below the first roll of the search, average over 7 of the 21 rolls
    /// (a 2-ply decision in about half the time, a little less precise).
    #[arg(long)]
    reduced: bool,
    /// Money play without beavers (GNU Backgammon allows them by default; a Match ID does not
    /// say).
    #[arg(long)]
    no_beavers: bool,
    /// Roll the decision out instead (the engine's default rollout settings).
    #[arg(long, conflicts_with_all = ["plies", "level", "reduced"])]
    rollout: bool,
    /// With --rollout: games per alternative (1 to 100000000).
    #[arg(long, default_value_t = 1296, value_name = "N", requires = "rollout",
          value_parser = crate::options::trials())]
    trials: u32,
    /// With --rollout: how many of the best plays to roll out (1 to 1000).
    #[arg(long, default_value_t = 5, value_name = "N", requires = "rollout",
          value_parser = crate::options::candidates())]
    candidates: usize,
    /// With --rollout: the dice seed [default: from the clock].
    #[arg(long, value_name = "S", requires = "rollout")]
    seed: Option<u64>,
    /// With --rollout: threads, 0 (all cores, the default) to 256.
    #[arg(long, default_value_t = 0, value_name = "T", requires = "rollout",
          value_parser = crate::options::threads_or_zero())]
    threads: usize,
    /// How many plays to list, 1 to 1000 (all with --json).
    #[arg(long, default_value_t = 10, value_parser = crate::options::candidates())]
    top: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: &Args) -> Result<()> {
    let (position, state) = crate::position_arg::parse(&args.position)?;
    let beavers = Rules::money().beavers && !args.no_beavers;
    let mut query = Query::from_state(position, state, beavers);
    if let Some(d) = &args.dice {
        let dice = d
            .parse::<Dice>()
            .with_context(|| format!("bad dice {d:?}"))?;
        query = query.with_question(Question::Move(dice));
    }
    let mut settings = match (args.level, args.plies) {
        (Some(level), _) => level.settings(),
        (None, plies) => EvalSettings {
            plies: plies.unwrap_or(2),
            ..Level::WorldClass.settings()
        },
    };
    settings.reduced = args.reduced;
    let mut search = args.engine.search()?;
    if args.rollout {
        return rollout(args, &query, &mut search);
    }
    let hint = hint::hint(&mut search, &query, &settings);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&hint)?);
    } else {
        print!(
            "{}",
            report::hint_text(&hint, &heading(&query), args.top.max(1))
        );
    }
    Ok(())
}

/// The heading of a play list.
fn heading(query: &Query) -> String {
    match query.question {
        Question::Move(dice) => report::rolled(dice),
        _ => String::new(),
    }
}

/// `--rollout`: the engine's hint by rollout, with a progress bar on a terminal.
fn rollout(args: &Args, query: &Query, search: &mut cubeful_engine::search::Search) -> Result<()> {
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    if args.candidates == 0 {
        bail!("--candidates must be at least 1");
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
    });
    let settings = RolloutSettings {
        trials: args.trials,
        seed,
        threads: args.threads,
        ..RolloutSettings::default()
    };
    let bar = crate::rollout::progress_bar(args.json, args.trials);
    let rolled = hint::rollout_hint(search, query, &settings, args.candidates, &mut |done, _| {
        bar.set_position(u64::from(done));
        true
    });
    bar.finish_and_clear();
    let rolled = match rolled {
        Ok(r) => r,
        Err(RolloutHintError::NotAvailable) => {
            bail!("this decision cannot be rolled out (only plays, cube decisions and doubles can)")
        }
        Err(RolloutHintError::Stopped) => bail!("the rollout was stopped"),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rolled)?);
    } else {
        print!(
            "{}",
            report::rollout_hint_text(
                &rolled.hint,
                &heading(query),
                args.top.max(1),
                rolled.rolled
            )
        );
        match rolled.rolled {
            0 => println!("(rollout, {} trials)", rolled.trials),
            n => println!(
                "(rollout, {} trials: the first {n} plays rolled out, the others at 0-ply)",
                rolled.trials
            ),
        }
    }
    Ok(())
}
