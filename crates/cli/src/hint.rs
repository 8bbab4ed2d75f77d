//! `cubeful-cli hint <POSITION-ID>[:<MATCH-ID>] [--dice 31] [--plies N | --level NAME] [--json]`:
//! the ranked plays of a roll, or the cube decision before the roll.

use crate::nets::EngineArgs;
use crate::report::{self, CubeWrap, MoveJson, MovesJson};
use anyhow::{Context, Result};
use cubeful_engine::cube::met::MatchEquityTable;
use cubeful_engine::cube::CubeContext;
use cubeful_engine::search::{EvalSettings, Level};
use cubeful_engine::{gnubg_id, Dice};

#[derive(clap::Args)]
pub struct Args {
    /// GNU Backgammon Position ID, optionally `:MATCH-ID` (without it: money game, cube centred).
    position: String,
    /// The roll to play (otherwise the Match ID's dice; without dice: the cube decision).
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
    let dice = match &args.dice {
        Some(d) => Some(
            d.parse::<Dice>()
                .with_context(|| format!("bad dice {d:?}"))?,
        ),
        None => state.dice,
    };
    let mut settings = match (args.level, args.plies) {
        (Some(level), _) => level.settings(),
        (None, plies) => EvalSettings {
            plies: plies.unwrap_or(2),
            ..Level::WorldClass.settings()
        },
    };
    settings.reduced = args.reduced;
    let met = MatchEquityTable::kazaross_xg2();
    let ctx = CubeContext::from_state(&state, met, false);
    let mut search = args.engine.search()?;
    match dice {
        Some(dice) => {
            let ranked = search.rank_moves(&position, dice, &ctx, &settings);
            let moves: Vec<MoveJson> = ranked.iter().map(|r| MoveJson::new(&position, r)).collect();
            if args.json {
                println!("{}", serde_json::to_string_pretty(&MovesJson { moves })?);
            } else {
                print!(
                    "{}",
                    report::moves_text(&report::rolled(dice), &moves, args.top.max(1))
                );
            }
        }
        None => {
            let analysis = search.cube_decision(&position, &ctx, &settings);
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&CubeWrap::new(&analysis))?
                );
            } else {
                print!("{}", report::cube_text(&analysis));
            }
        }
    }
    Ok(())
}
