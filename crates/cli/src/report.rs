//! Reports shared by the `hint` command and the terminal session: ranked plays and cube
//! decisions, as JSON objects and as text in GNU Backgammon's layout.

use cubeful_engine::search::{CubeAnalysis, RankedMove};
use cubeful_engine::{notation, Dice, Position};
use serde::Serialize;

/// One ranked play (the JSON of `hint --json`).
#[derive(Serialize)]
pub struct MoveJson {
    #[serde(rename = "move")]
    pub mv: String,
    pub equity: f32,
    pub win: f32,
    pub win_gammon: f32,
    pub win_backgammon: f32,
    pub lose_gammon: f32,
    pub lose_backgammon: f32,
    pub plies: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f32>,
}

impl MoveJson {
    /// The report of `ranked`, a play from `position`.
    pub fn new(position: &Position, ranked: &RankedMove) -> MoveJson {
        let p = ranked.probabilities;
        MoveJson {
            mv: notation::format_move(position, &ranked.mv.mv),
            equity: ranked.equity,
            win: p.win,
            win_gammon: p.win_gammon,
            win_backgammon: p.win_backgammon,
            lose_gammon: p.lose_gammon,
            lose_backgammon: p.lose_backgammon,
            plies: ranked.plies,
            mwc: ranked.mwc,
        }
    }
}

/// `{"moves": [...]}`.
#[derive(Serialize)]
pub struct MovesJson {
    pub moves: Vec<MoveJson>,
}

/// A cube decision (the JSON of `hint --json` before the roll).
#[derive(Serialize)]
pub struct CubeJson {
    pub no_double: f32,
    pub double_take: f32,
    pub double_pass: f32,
    pub action: &'static str,
    pub plies: u8,
}

/// `{"cube": {...}}`.
#[derive(Serialize)]
pub struct CubeWrap {
    pub cube: CubeJson,
}

impl CubeWrap {
    /// The report of a cube analysis.
    pub fn new(analysis: &CubeAnalysis) -> CubeWrap {
        let d = analysis.decision;
        CubeWrap {
            cube: CubeJson {
                no_double: d.no_double,
                double_take: d.double_take,
                double_pass: d.double_pass,
                action: d.action.text(),
                plies: analysis.plies,
            },
        }
    }
}

/// The first `top` plays as GNU Backgammon lists them, under `heading`, e.g. "Rolled 31:".
pub fn moves_text(heading: &str, moves: &[MoveJson], top: usize) -> String {
    let best = moves.first().map_or(0.0, |m| m.equity);
    let mut text = format!("{heading}\n");
    for (i, m) in moves.iter().take(top).enumerate() {
        let mv = if m.mv.is_empty() { "(no move)" } else { &m.mv };
        let diff = if i == 0 {
            String::new()
        } else {
            format!(" ({:+.3})", m.equity - best)
        };
        text.push_str(&format!(
            "{:>3}. {}-ply  {:<28} Eq.: {:+.3}{diff}\n       {:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}\n",
            i + 1,
            m.plies,
            mv,
            m.equity,
            m.win,
            m.win_gammon,
            m.win_backgammon,
            1.0 - m.win,
            m.lose_gammon,
            m.lose_backgammon
        ));
    }
    text
}

/// A cube analysis: the chances, then GNU Backgammon's "Cubeful equities" block.
pub fn cube_text(analysis: &CubeAnalysis) -> String {
    let p = analysis.probabilities;
    format!(
        "Cube analysis, {}-ply:\n  Chances: {:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}\n{}",
        analysis.plies,
        p.win,
        p.win_gammon,
        p.win_backgammon,
        1.0 - p.win,
        p.lose_gammon,
        p.lose_backgammon,
        analysis.decision
    )
}

/// Heading of a move list for `dice`.
pub fn rolled(dice: Dice) -> String {
    format!("Rolled {dice}:")
}
