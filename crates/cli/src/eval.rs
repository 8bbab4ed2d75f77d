//! `cubeful-cli eval <POSITION-ID>[:<MATCH-ID>] [--json]`: the 0-ply chances of the player on roll.

use anyhow::{Context, Result};
use cubeful_engine::class::classify;
use cubeful_engine::eval::Evaluator;
use cubeful_engine::{gnubg_id, position_id};
use serde::Serialize;

use crate::nets::NetsArg;

#[derive(clap::Args)]
pub struct Args {
    /// GNU Backgammon Position ID (optionally `:MATCH-ID`), oriented to the player on roll.
    position: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    nets: NetsArg,
}

#[derive(Serialize)]
struct EvalJson {
    position_id: String,
    class: &'static str,
    plies: u32,
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
    equity: f32,
}

pub fn run(args: &Args) -> Result<()> {
    let (position, _state) = gnubg_id::decode(&args.position)
        .with_context(|| format!("bad Position ID {:?}", args.position))?;
    let nets = args.nets.load()?;
    let mut evaluator = Evaluator::new(nets);
    let p = evaluator.evaluate(&position);
    let class = classify(&position).name();
    if args.json {
        let json = EvalJson {
            position_id: position_id::encode(&position),
            class,
            plies: 0,
            win: p.win,
            win_gammon: p.win_gammon,
            win_backgammon: p.win_backgammon,
            lose_gammon: p.lose_gammon,
            lose_backgammon: p.lose_backgammon,
            equity: p.equity(),
        };
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!(
            "Position ID {} ({class}), player on roll, cubeless, 0-ply:",
            position_id::encode(&position)
        );
        println!("   Win     W(g)    W(bg)   L(g)    L(bg)   Equity");
        println!(
            "   {:.3}   {:.3}   {:.3}   {:.3}   {:.3}   {:+.3}",
            p.win,
            p.win_gammon,
            p.win_backgammon,
            p.lose_gammon,
            p.lose_backgammon,
            p.equity()
        );
    }
    Ok(())
}
