//! `cubeful-cli eval <POSITION-ID>[:<MATCH-ID>] [--plies N] [--json]`: the chances and equities of
//! the player on roll.

use anyhow::Result;
use cubeful_engine::analysis::hint;
use cubeful_engine::eval::class::classify;
use cubeful_engine::game::Rules;
use cubeful_engine::position_id;
use cubeful_engine::search::EvalSettings;
use serde::Serialize;

use crate::nets::EngineArgs;

#[derive(clap::Args)]
pub struct Args {
    #[arg(help = crate::position_arg::HELP)]
    position: String,
    /// Lookahead, 0 to 4.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    plies: u8,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Serialize)]
struct EvalJson {
    position_id: String,
    class: &'static str,
    plies: u8,
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
    /// Cubeless money equity from the five chances.
    equity: f32,
    /// Cubeless equity at the score (money equity, or EMG in match play).
    cubeless_equity: f32,
    /// Cubeful equity (normalised to the cube; EMG in match play).
    cubeful_equity: f32,
    /// Cubeful match winning chance (match play only).
    mwc: Option<f32>,
}

pub fn run(args: &Args) -> Result<()> {
    let (position, state) = crate::position_arg::parse(&args.position)?;
    let mut search = args.engine.search()?;
    let settings = EvalSettings {
        plies: args.plies,
        ..EvalSettings::default()
    };
    // GNU Backgammon's default money rules (a Match ID has no beaver flag); the beaver rule
    // does not change an evaluation.
    let beavers = Rules::money().beavers;
    let e = hint::evaluate(&mut search, &position, &state, beavers, &settings);
    let p = e.probabilities;
    let class = classify(&position).name();
    if args.json {
        let json = EvalJson {
            position_id: position_id::encode(&position),
            class,
            plies: e.plies,
            win: p.win,
            win_gammon: p.win_gammon,
            win_backgammon: p.win_backgammon,
            lose_gammon: p.lose_gammon,
            lose_backgammon: p.lose_backgammon,
            equity: p.equity(),
            cubeless_equity: e.cubeless,
            cubeful_equity: e.cubeful,
            mwc: e.mwc,
        };
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!(
            "Position ID {} ({class}), player on roll, {}-ply:",
            position_id::encode(&position),
            e.plies
        );
        println!("   Win     W(g)    W(bg)   L(g)    L(bg)   Cubeless  Cubeful");
        println!(
            "   {:.3}   {:.3}   {:.3}   {:.3}   {:.3}   {:+.3}    {:+.3}",
            p.win,
            p.win_gammon,
            p.win_backgammon,
            p.lose_gammon,
            p.lose_backgammon,
            e.cubeless,
            e.cubeful
        );
        if let Some(mwc) = e.mwc {
            println!("   Match winning chance (cubeful): {:.1}%", 100.0 * mwc);
        }
    }
    Ok(())
}
