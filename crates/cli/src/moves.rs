//! `cubeful-cli moves <POSITION-ID> <DICE> [--json]`

use anyhow::{Context, Result};
use cubeful_engine::{legal_moves, notation, position_id, Dice};
use serde::Serialize;

#[derive(clap::Args)]
pub struct Args {
    /// GNU Backgammon Position ID, oriented to the player on roll (e.g. 4HPwATDgc/ABMA).
    position: String,
    /// The roll, two digits such as 31.
    dice: String,
    /// Print a JSON array of {"move", "position"} objects.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Entry {
    #[serde(rename = "move")]
    mv: String,
    position: String,
}

pub fn run(args: &Args) -> Result<()> {
    let position = position_id::decode(&args.position).with_context(|| {
        format!(
            "bad Position ID {}",
            cubeful_engine::formats::quote(&args.position)
        )
    })?;
    let dice: Dice = args
        .dice
        .parse()
        .with_context(|| format!("bad dice {:?}", args.dice))?;
    let entries: Vec<Entry> = legal_moves(&position, dice)
        .iter()
        .map(|m| Entry {
            mv: notation::format_move(&position, &m.mv),
            position: position_id::encode(&m.position),
        })
        .collect();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&entries)?);
    } else {
        let width = entries.iter().map(|e| e.mv.len()).max().unwrap_or(0).max(6);
        for e in &entries {
            let mv = if e.mv.is_empty() { "(no move)" } else { &e.mv };
            println!("{mv:<width$}  {}", e.position);
        }
    }
    Ok(())
}
