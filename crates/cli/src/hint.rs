//! `cubeful-cli hint <POSITION-ID>[:<MATCH-ID>] [--dice 31] [--plies N | --level NAME] [--json]`:
//! the hint for the decision the IDs describe, from the engine's one hint function: the ranked
//! plays of a roll, the cube decision before the roll, the answer to a double on offer (take,
//! drop or beaver) or to an offer to resign.

use crate::nets::EngineArgs;
use crate::report;
use anyhow::{Context, Result};
use cubeful_engine::analysis::hint::{self, Query, Question};
use cubeful_engine::game::Rules;
use cubeful_engine::search::{EvalSettings, Level};
use cubeful_engine::{gnubg_id, Dice};

#[derive(clap::Args)]
pub struct Args {
    /// GNU Backgammon Position ID, optionally `:MATCH-ID` (without it: money game, cube centred).
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
    /// Reduced evaluation: inside the search, average over 7 of the 21 rolls (about 3x faster).
    #[arg(long)]
    reduced: bool,
    /// Money play without beavers (GNU Backgammon allows them by default; a Match ID does not
    /// say).
    #[arg(long)]
    no_beavers: bool,
    /// How many plays to list (all with --json).
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: &Args) -> Result<()> {
    let (position, state) = gnubg_id::decode(&args.position)
        .with_context(|| format!("bad GNU Backgammon ID {:?}", args.position))?;
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
    let hint = hint::hint(&mut search, &query, &settings);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&hint)?);
    } else {
        let heading = match query.question {
            Question::Move(dice) => report::rolled(dice),
            _ => String::new(),
        };
        print!("{}", report::hint_text(&hint, &heading, args.top.max(1)));
    }
    Ok(())
}
