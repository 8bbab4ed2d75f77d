//! `cubeful-cli temperature <ID> [--plies N | --level NAME] [--cube] [--json]`: Sho Sengoku's
//! temperature map of the position before the roll, from the engine's
//! `analysis::temperature`: the 36 rolls as a 6×6 grid (rows the first die, columns the second)
//! with the equity after each roll's best play, the average, and the best plays. With `--cube`
//! the two maps of the cube decision: no double and double/take, in the units of the cube
//! before the double.
//!
//! The ID is a GNU Backgammon Position ID (optionally `:MATCH-ID`) or an XGID (`XGID=…`). Dice
//! the ID holds are ignored: the map is of the position before the roll.

use anyhow::{Context, Result};
use cubeful_engine::analysis::hint::cube_context;
use cubeful_engine::analysis::temperature::{
    temperature_map, temperature_maps_for_cube, TemperatureMap,
};
use cubeful_engine::formats::ids::xgid::Xgid;
use cubeful_engine::game::Rules;
use cubeful_engine::search::{EvalSettings, Level};
use cubeful_engine::{MatchState, Position};
use serde::Serialize;

use crate::nets::EngineArgs;

#[derive(clap::Args)]
pub struct Args {
    /// GNU Backgammon Position ID, optionally `:MATCH-ID` (without it: money game, cube
    /// centred), or an XGID (`XGID=…`).
    position: String,
    /// Lookahead of each roll's play, 0 to 4 (default: 0, as GNU Backgammon's map).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=4), conflicts_with = "level")]
    plies: Option<u8>,
    /// A predefined level: beginner … expert, worldclass, supremo, grandmaster.
    #[arg(long)]
    level: Option<Level>,
    /// The two maps of the cube decision: no double, and double/take (cube doubled and owned
    /// by the opponent).
    #[arg(long)]
    cube: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The two maps of `--cube --json`.
#[derive(Serialize)]
struct CubeMaps<'a> {
    no_double: &'a TemperatureMap,
    double_take: &'a TemperatureMap,
}

/// The position and match state of a GNU Backgammon ID or an XGID, with the beaver rule (an
/// XGID says; GNU Backgammon's default otherwise).
fn decode(id: &str) -> Result<(Position, MatchState, bool)> {
    let trimmed = id.trim();
    if trimmed
        .get(..5)
        .is_some_and(|head| head.eq_ignore_ascii_case("XGID="))
    {
        let x = Xgid::parse(trimmed).context("bad XGID")?;
        return Ok((x.position, x.state, x.beavers));
    }
    let (position, state) = crate::position_arg::parse(id)?;
    Ok((position, state, Rules::money().beavers))
}

pub fn run(args: &Args) -> Result<()> {
    let (position, state, beavers) = decode(&args.position)?;
    let settings = match (args.level, args.plies) {
        (Some(level), _) => level.settings(),
        (None, plies) => EvalSettings {
            plies: plies.unwrap_or(0),
            ..Level::WorldClass.settings()
        },
    };
    let ctx = cube_context(&state, beavers);
    let mut search = args.engine.search()?;
    if args.cube {
        let (nd, dt) = temperature_maps_for_cube(&mut search, &position, &ctx, &settings)?;
        if args.json {
            let maps = CubeMaps {
                no_double: &nd,
                double_take: &dt,
            };
            println!("{}", serde_json::to_string_pretty(&maps)?);
        } else {
            print!("{}", map_text(&nd, "No double"));
            println!();
            print!("{}", map_text(&dt, "Double, take"));
        }
    } else {
        let map = temperature_map(&mut search, &position, &ctx, &settings);
        if args.json {
            println!("{}", serde_json::to_string_pretty(&map)?);
        } else {
            print!("{}", map_text(&map, "Temperature map"));
        }
    }
    Ok(())
}

/// A map as text: the title, the 6×6 grid of equities (rows die 1, columns die 2), the
/// average, then each roll's best play (rolls in GNU Backgammon's order, with their rank).
pub fn map_text(map: &TemperatureMap, title: &str) -> String {
    let mut text = format!("{title}, {}-ply:\n\n       ", map.plies);
    for die2 in 1..=6 {
        text.push_str(&format!("{die2:>8}"));
    }
    text.push('\n');
    for (i, row) in map.grid().iter().enumerate() {
        text.push_str(&format!("{:>7}", i + 1));
        for cell in row {
            text.push_str(&format!("{:>+8.3}", cell.equity));
        }
        text.push('\n');
    }
    text.push_str(&format!("\nAverage: {:+.3}", map.average));
    if let Some(mwc) = map.average_mwc {
        text.push_str(&format!(" (MWC {:.1}%)", 100.0 * mwc));
    }
    text.push_str("\n\nRoll  Rank  Equity  Best play\n");
    for e in map.entries() {
        let play = if e.text.is_empty() {
            "(no move)"
        } else {
            &e.text
        };
        text.push_str(&format!(
            " {}   {:>4}  {:+.3}  {play}",
            e.dice, e.rank, e.equity
        ));
        if let Some(mwc) = e.mwc {
            text.push_str(&format!("  (MWC {:.1}%)", 100.0 * mwc));
        }
        text.push('\n');
    }
    text
}
