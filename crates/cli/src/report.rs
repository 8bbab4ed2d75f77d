//! Text reports shared by the `hint` command and the terminal session, in GNU Backgammon's
//! layout: ranked plays, cube decisions, answers to doubles and resignations. The JSON of the
//! same reports is the engine's own serialisation of its hints
//! (`cubeful_engine::analysis::hint`).

use cubeful_engine::analysis::hint::{
    response_word, CubeHint, Hint, RankedPlay, ResignationHint, TakeHint,
};
use cubeful_engine::cube::Response;
use cubeful_engine::eval::Probabilities;
use cubeful_engine::Dice;

/// A hint as text: the first `top` plays under `heading` (e.g. "Rolled 31:"), or the cube
/// decision, or the answer to a double or a resignation.
pub fn hint_text(hint: &Hint, heading: &str, top: usize) -> String {
    match hint {
        Hint::Moves(h) => moves_text(heading, &h.moves, top),
        Hint::Cube(h) => cube_text(h),
        Hint::Take(h) => take_text(h),
        Hint::Resignation(h) => resignation_text(h),
    }
}

/// The first `top` plays as GNU Backgammon lists them, under `heading`.
pub fn moves_text(heading: &str, moves: &[RankedPlay], top: usize) -> String {
    moves_text_rolled(heading, moves, top, 0)
}

/// [`hint_text`] of a hint by rollout whose first `rolled` plays were rolled out: those are
/// labelled "rolled" where the others give their depth.
pub fn rollout_hint_text(hint: &Hint, heading: &str, top: usize, rolled: usize) -> String {
    match hint {
        Hint::Moves(h) => moves_text_rolled(heading, &h.moves, top, rolled),
        other => hint_text(other, heading, top),
    }
}

fn moves_text_rolled(heading: &str, moves: &[RankedPlay], top: usize, rolled: usize) -> String {
    let mut text = format!("{heading}\n");
    for (i, m) in moves.iter().take(top).enumerate() {
        let mv = if m.text.is_empty() {
            "(no move)"
        } else {
            &m.text
        };
        let diff = if i == 0 {
            String::new()
        } else {
            format!(" ({:+.3})", m.difference)
        };
        // "rolled" is as wide as "2-ply " so the columns stay aligned.
        let depth = if i < rolled {
            "rolled".to_string()
        } else {
            format!("{}-ply ", m.plies)
        };
        text.push_str(&format!(
            "{:>3}. {depth} {:<28} Eq.: {:+.3}{diff}\n       {}\n",
            i + 1,
            mv,
            m.equity,
            chances(&m.probabilities)
        ));
    }
    text
}

/// A cube analysis: the chances, then GNU Backgammon's "Cubeful equities" block.
pub fn cube_text(hint: &CubeHint) -> String {
    format!(
        "Cube analysis, {}-ply:\n  Chances: {}\n{}",
        hint.plies,
        chances(&hint.probabilities),
        hint.decision
    )
}

/// The answer to a double: the chances of the player answering, the alternatives best first
/// and the proper answer.
pub fn take_text(hint: &TakeHint) -> String {
    let mut text = format!(
        "Take decision, {}-ply:\n  Chances: {}\nCubeful equities:\n",
        hint.plies,
        chances(&hint.answerer_probabilities())
    );
    let ranked = hint.ranked();
    let best = ranked[0].1;
    for (i, (answer, equity)) in ranked.iter().enumerate() {
        let name = match answer {
            Response::Take => "Take",
            Response::Pass => "Drop",
            Response::Beaver => "Beaver",
        };
        text.push_str(&format!("{}. {name:<20}{equity:+6.3}", i + 1));
        if i > 0 {
            text.push_str(&format!("  ({:+6.3})", equity - best));
        }
        text.push('\n');
    }
    text.push_str(&format!(
        "\nProper answer to the double: {}.\n",
        response_word(hint.response)
    ));
    text
}

/// The answer to an offer to resign: what accepting and playing on are worth.
pub fn resignation_text(hint: &ResignationHint) -> String {
    let (what, format): (&str, fn(f32) -> String) = if hint.mwc {
        ("Match winning chances", |v| format!("{:.1}%", 100.0 * v))
    } else {
        ("Equities", |v| format!("{v:+.3}"))
    };
    format!(
        "Resignation of {} point{} offered, {}-ply:\n{what}: accepting {}, playing on {}\n\
         Proper answer to the resignation: {}.\n",
        hint.points,
        if hint.points == 1 { "" } else { "s" },
        hint.plies,
        format(hint.accepting),
        format(hint.playing_on),
        if hint.accept { "accept" } else { "reject" }
    )
}

/// Chances as GNU Backgammon prints them: `win wg wbg - lose lg lbg`.
fn chances(p: &Probabilities) -> String {
    format!(
        "{:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}",
        p.win,
        p.win_gammon,
        p.win_backgammon,
        1.0 - p.win,
        p.lose_gammon,
        p.lose_backgammon
    )
}

/// Heading of a move list for `dice`.
pub fn rolled(dice: Dice) -> String {
    format!("Rolled {dice}:")
}
