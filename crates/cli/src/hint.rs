//! `cubeful-cli hint <POSITION-ID>[:<MATCH-ID>] [--dice 31] [--plies N | --level NAME] [--json]`:
//! the ranked plays of a roll, or the cube decision before the roll.

use anyhow::{Context, Result};
use cubeful_engine::cube::CubeContext;
use cubeful_engine::met::MatchEquityTable;
use cubeful_engine::search::{EvalSettings, Level};
use cubeful_engine::{gnubg_id, notation, Dice};
use serde::Serialize;

use crate::nets::EngineArgs;

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

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    equity: f32,
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
    plies: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    mwc: Option<f32>,
}

#[derive(Serialize)]
struct MovesJson {
    moves: Vec<MoveJson>,
}

#[derive(Serialize)]
struct CubeJson {
    no_double: f32,
    double_take: f32,
    double_pass: f32,
    action: &'static str,
    plies: u8,
}

#[derive(Serialize)]
struct CubeWrap {
    cube: CubeJson,
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
            let moves: Vec<MoveJson> = ranked
                .iter()
                .map(|r| {
                    let p = r.probabilities;
                    MoveJson {
                        mv: notation::format_move(&position, &r.mv.mv),
                        equity: r.equity,
                        win: p.win,
                        win_gammon: p.win_gammon,
                        win_backgammon: p.win_backgammon,
                        lose_gammon: p.lose_gammon,
                        lose_backgammon: p.lose_backgammon,
                        plies: r.plies,
                        mwc: r.mwc,
                    }
                })
                .collect();
            if args.json {
                println!("{}", serde_json::to_string_pretty(&MovesJson { moves })?);
            } else {
                let best = moves.first().map_or(0.0, |m| m.equity);
                println!("Rolled {dice}:");
                for (i, m) in moves.iter().take(args.top.max(1)).enumerate() {
                    let mv = if m.mv.is_empty() { "(no move)" } else { &m.mv };
                    let diff = if i == 0 {
                        String::new()
                    } else {
                        format!(" ({:+.3})", m.equity - best)
                    };
                    println!(
                        "{:>3}. {}-ply  {:<28} Eq.: {:+.3}{diff}",
                        i + 1,
                        m.plies,
                        mv,
                        m.equity
                    );
                    println!(
                        "       {:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}",
                        m.win,
                        m.win_gammon,
                        m.win_backgammon,
                        1.0 - m.win,
                        m.lose_gammon,
                        m.lose_backgammon
                    );
                }
            }
        }
        None => {
            let a = search.cube_decision(&position, &ctx, &settings);
            let d = a.decision;
            if args.json {
                let json = CubeWrap {
                    cube: CubeJson {
                        no_double: d.no_double,
                        double_take: d.double_take,
                        double_pass: d.double_pass,
                        action: d.action.text(),
                        plies: a.plies,
                    },
                };
                println!("{}", serde_json::to_string_pretty(&json)?);
            } else {
                let p = a.probabilities;
                println!("Cube analysis, {}-ply:", a.plies);
                println!(
                    "  Chances: {:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}",
                    p.win,
                    p.win_gammon,
                    p.win_backgammon,
                    1.0 - p.win,
                    p.lose_gammon,
                    p.lose_backgammon
                );
                print!("{d}");
            }
        }
    }
    Ok(())
}
