//! Plain-text export of a match or a position, laid out like GNU Backgammon's
//! `export match text` and `export position text`: per game the score, the match information,
//! then every action with its number, the ASCII board ([`ascii_board`]) with the Position and
//! Match IDs, the pip counts, what was done and — where the record holds analysis — the ranked
//! candidate plays with the played one marked, its error, and the cube figures; at the end the
//! result.
//!
//! GNU Backgammon writes one file per game; [`export_match`] returns the games one after the
//! other, each as its file would read, and [`export_game`] one game. The statistics GNU
//! Backgammon appends to each game, and its time-stamped trailer, are not written.

use std::fmt::Write as _;

use thiserror::Error;

use crate::formats::ascii_board;
use crate::formats::notation::format_move;
use crate::game::match_state::{GameState, MatchState, Player};
use crate::game::record::analysis::{ActionAnalysis, EvalSource, Luck, Skill};
use crate::game::record::replay::{ReplayError, ReplayedGame, Snapshot};
use crate::game::record::{MatchInfo, MatchRecord, RecordAction};
use crate::game::resignation_name;
use crate::rules::position::{Position, Side};

/// Why a record cannot be written as text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TextError {
    /// The match cannot be replayed at all (a variant, impossible rules).
    #[error("the match cannot be replayed: {0}")]
    Replay(#[from] ReplayError),
    /// No game with that number.
    #[error("the match has no game {0}")]
    NoSuchGame(usize),
}

/// The whole match as GNU Backgammon's text export writes its games, one after the other.
pub fn export_match(record: &MatchRecord) -> Result<String, TextError> {
    let lenient = record.replay_lenient()?;
    let mut out = String::new();
    for index in 0..record.games.len() {
        write_game(&mut out, record, &lenient, index);
    }
    Ok(out)
}

/// Game `index` (counting from 0) as GNU Backgammon's text export writes it.
pub fn export_game(record: &MatchRecord, index: usize) -> Result<String, TextError> {
    if index >= record.games.len() {
        return Err(TextError::NoSuchGame(index + 1));
    }
    let lenient = record.replay_lenient()?;
    let mut out = String::new();
    write_game(&mut out, record, &lenient, index);
    Ok(out)
}

/// A position as GNU Backgammon's `export position text` writes it: the score, the decision
/// (`X to play 62`, `O on roll, cube decision?`, `X doubles to 2`, …), the board with its IDs
/// and the pip counts. `position` is seen from `state.on_roll`; `names` are player 0's and
/// player 1's.
pub fn export_position(position: &Position, state: &MatchState, names: [&str; 2]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "The score is: {} {}, {} {}{}\n\n",
        names[0],
        state.score[0],
        names[1],
        state.score[1],
        match_suffix(state.match_length, state.crawford, state.is_post_crawford())
    );
    let name = |p: Player| names[p.index()];
    let header = if let Some(r) = state.resigned {
        let resigner = state.turn.other();
        format!(
            "{} resigns {}",
            name(resigner),
            points((r as u32).saturating_mul(state.cube_value()))
        )
    } else if state.doubled {
        let doubler = state.turn.other();
        format!("{} doubles to {}", name(doubler), state.cube_value() * 2)
    } else if let Some(dice) = state.dice {
        format!("{} to play {dice}", name(state.on_roll))
    } else {
        format!("{} on roll, cube decision?", name(state.on_roll))
    };
    let _ = write!(out, "{header}\n\n");
    board(&mut out, position, state, names);
    out
}

/// "1 point", "3 points".
fn points(n: u32) -> String {
    format!("{n} point{}", if n == 1 { "" } else { "s" })
}

/// ` (match to 7 points)`, with the Crawford state, or ` (money session)`.
fn match_suffix(length: u16, crawford: bool, post_crawford: bool) -> String {
    if length == 0 {
        return " (money session)".to_string();
    }
    format!(
        " (match to {}){}",
        points(u32::from(length)),
        if crawford {
            ", Crawford game"
        } else if post_crawford {
            ", post-Crawford play"
        } else {
            ""
        }
    )
}

/// The board with its IDs and the pip counts.
fn board(out: &mut String, position: &Position, state: &MatchState, names: [&str; 2]) {
    out.push_str(&ascii_board::draw(position, state, names));
    let (zero, one) = match state.on_roll {
        Player::Zero => (Side::Player, Side::Opponent),
        Player::One => (Side::Opponent, Side::Player),
    };
    let _ = write!(
        out,
        "Pip counts: O {}, X {}\n\n",
        position.pip_count(zero),
        position.pip_count(one)
    );
}

/// The match information block (only the fields known).
fn match_information(info: &MatchInfo) -> String {
    let mut lines = Vec::new();
    if let Some(date) = &info.date {
        // GNU Backgammon prints the date as MM/DD/YY.
        let parts: Vec<&str> = date.split('-').collect();
        match parts.as_slice() {
            [y, m, d] if y.len() == 4 => lines.push(format!("Date: {m}/{d}/{}", &y[2..])),
            _ => lines.push(format!("Date: {date}")),
        }
    }
    for (label, value) in [
        ("Event", &info.event),
        ("Round", &info.round),
        ("Place", &info.place),
        ("Annotator", &info.annotator),
        ("Transcriber", &info.transcriber),
    ] {
        if let Some(v) = value {
            lines.push(format!("{label}: {v}"));
        }
    }
    for (i, rating) in info.ratings.iter().enumerate() {
        if let Some(r) = rating {
            lines.push(format!("Rating of {}: {r}", info.players[i]));
        }
    }
    if let Some(comment) = &info.comment {
        lines.push("Comment:".to_string());
        lines.extend(comment.lines().map(|l| format!("  {l}")));
    }
    if lines.is_empty() {
        return String::new();
    }
    format!("Match Information:\n{}\n\n", lines.join("\n"))
}

fn write_game(
    out: &mut String,
    record: &MatchRecord,
    lenient: &crate::game::record::replay::LenientReplay,
    index: usize,
) {
    let info = &record.info;
    let game = &record.games[index];
    let names = [info.players[0].as_str(), info.players[1].as_str()];
    let name = |p: Player| names[p.index()];
    let length = info.rules.match_length;
    let one_away = length > 0 && game.score.iter().any(|&s| s + 1 == length);
    let _ = write!(
        out,
        "The score (after {index} game{}) is: {} {}, {} {}{}\n\n",
        if index == 1 { "" } else { "s" },
        names[0],
        game.score[0],
        names[1],
        game.score[1],
        match_suffix(length, game.crawford, one_away && !game.crawford)
    );
    out.push_str(&match_information(info));
    if let Some(comment) = &game.comment {
        let _ = write!(out, "{comment}\n\n");
    }
    let replayed: Option<&ReplayedGame> = lenient.replay.game(index).filter(|g| !g.skipped);
    let replayed_entries = replayed.map_or(0, ReplayedGame::replayed);
    let mut number = 0;
    let entries = &game.entries;
    for (e, entry) in entries.iter().enumerate() {
        if e >= replayed_entries {
            let why = lenient
                .warnings
                .iter()
                .find(|w| w.error.game() == Some(index + 1) && w.dropped > 0)
                .map_or_else(String::new, |w| format!(": {}", w.error));
            let _ = write!(
                out,
                "The rest of the game ({} action{}) cannot be replayed{why}\n\n",
                entries.len() - e,
                if entries.len() - e == 1 { "" } else { "s" }
            );
            break;
        }
        let Some(g) = replayed else { break };
        let before = g.before(e).copied().unwrap_or(*g.start());
        let after = g.after(e).copied().unwrap_or(before);
        let mut numbered = |out: &mut String, header: String, shown: &Snapshot| {
            number += 1;
            let _ = write!(out, "Move number {number}:  {header}\n\n");
            board(out, &shown.position, &shown.state, names);
        };
        match &entry.action {
            RecordAction::Move { player, dice, mv } => {
                let mut rolled = g.rolled(e).copied().unwrap_or(before);
                if before.state.game_state == GameState::NoGame {
                    // GNU Backgammon shows the opening move before the game has started.
                    rolled.state.game_state = GameState::NoGame;
                }
                numbered(out, format!("{} to play {dice}", name(*player)), &rolled);
                let text = format_move(&rolled.position, mv);
                if mv.is_empty() {
                    let _ = write!(out, "* {} cannot move\n\n", name(*player));
                } else {
                    let _ = write!(out, "* {} moves {text}\n\n", name(*player));
                }
                let luck = entry.analysis.as_ref().and_then(|a| a.luck);
                match luck {
                    Some(l) if l.is_finite() => {
                        let _ = writeln!(out, "Rolled {dice} ({l:+.3}):");
                    }
                    _ => {
                        let _ = writeln!(out, "Rolled {dice}:");
                    }
                }
                move_analysis(
                    out,
                    entry.analysis.as_deref(),
                    &rolled.position,
                    if mv.is_empty() { "Cannot move" } else { &text },
                );
                out.push_str("\n\n");
            }
            RecordAction::Roll { player, dice } => {
                let rolled = g.rolled(e).copied().unwrap_or(before);
                numbered(out, format!("{} to play {dice}", name(*player)), &rolled);
                let _ = write!(out, "* {} rolls {dice}\n\n", name(*player));
            }
            RecordAction::Double { player } => {
                numbered(
                    out,
                    format!("{} on roll, cube decision?", name(*player)),
                    &before,
                );
                let _ = write!(out, "* {} doubles\n\n", name(*player));
                cube_analysis(out, entry.analysis.as_deref());
            }
            RecordAction::Take { player }
            | RecordAction::Drop { player }
            | RecordAction::Beaver { player } => {
                let doubler = player.other();
                numbered(
                    out,
                    format!(
                        "{} doubles to {}",
                        name(doubler),
                        before.state.cube_value() * 2
                    ),
                    &before,
                );
                let verb = match entry.action {
                    RecordAction::Take { .. } => "accepts",
                    RecordAction::Drop { .. } => "rejects",
                    _ => "beavers",
                };
                let _ = write!(out, "* {} {verb}\n\n", name(*player));
                cube_analysis(out, entry.analysis.as_deref());
            }
            RecordAction::Resign {
                player,
                resignation,
            } => {
                numbered(
                    out,
                    format!(
                        "{} resigns {}",
                        name(*player),
                        points((*resignation as u32).saturating_mul(before.state.cube_value()))
                    ),
                    &after,
                );
                let _ = write!(
                    out,
                    "* {} resigns {}\n\n",
                    name(*player),
                    resignation_name(*resignation)
                );
            }
            RecordAction::AcceptResignation { player } => {
                let _ = write!(out, "* {} accepts the resignation\n\n", name(*player));
            }
            RecordAction::RejectResignation { player } => {
                let _ = write!(out, "* {} rejects the resignation\n\n", name(*player));
            }
            RecordAction::SetUp(_) => {
                numbered(out, "the position is set up".to_string(), &after);
            }
        }
        if let Some(comment) = &entry.comment {
            let _ = write!(out, "{comment}\n\n");
        }
    }
    let over = replayed.is_some_and(|g| g.end().state.game_state != GameState::Playing);
    let result = replayed.and_then(|g| g.result).or(game.result);
    if let Some(result) = result {
        let _ = write!(
            out,
            "{} wins {}{}\n\n",
            name(result.winner),
            points(result.points),
            if over { "" } else { " (as recorded)" }
        );
    }
}

fn skill_name(skill: Skill) -> Option<&'static str> {
    match skill {
        Skill::None => None,
        Skill::Doubtful => Some("doubtful"),
        Skill::Bad => Some("bad"),
        Skill::VeryBad => Some("very bad"),
    }
}

fn source_name(source: &EvalSource) -> String {
    match source {
        EvalSource::Eval(ctx) => format!(
            "{} {}-ply",
            if ctx.cubeful { "Cubeful" } else { "Cubeless" },
            ctx.plies
        ),
        EvalSource::Rollout(_) => "Rollout".to_string(),
    }
}

/// The played move, or the ranked candidates with the played one marked and its error.
fn move_analysis(
    out: &mut String,
    analysis: Option<&ActionAnalysis>,
    before: &Position,
    played_text: &str,
) {
    let Some(moves) = analysis.and_then(|a| a.moves.as_ref()) else {
        let _ = writeln!(out, "*    {played_text}");
        return;
    };
    let best = moves
        .candidates
        .first()
        .and_then(|c| c.eval.as_ref())
        .map(|e| e.equity);
    for (i, candidate) in moves.candidates.iter().enumerate() {
        let mark = if i == moves.played { '*' } else { ' ' };
        let text = format_move(before, &candidate.mv);
        let text = if text.is_empty() {
            "Cannot move".to_string()
        } else {
            text
        };
        match &candidate.eval {
            Some(eval) => {
                let diff = match best {
                    Some(b) if i > 0 => format!(" ({:+.3})", eval.equity - b),
                    _ => String::new(),
                };
                let _ = writeln!(
                    out,
                    "{mark}{:>5}. {:<14} {text:<28} Eq.: {:+.3}{diff}",
                    i + 1,
                    source_name(&eval.source),
                    eval.equity
                );
                let p = eval.probabilities;
                let _ = writeln!(
                    out,
                    "       {:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}",
                    p[0],
                    p[1],
                    p[2],
                    1.0 - p[0],
                    p[3],
                    p[4]
                );
            }
            None => {
                let _ = writeln!(out, "{mark}{:>5}. {text}", i + 1);
            }
        }
    }
    if let Some(a) = analysis {
        if let Some(skill) = skill_name(a.skill) {
            let error = match (best, moves.candidates.get(moves.played)) {
                (Some(b), Some(c)) => c
                    .eval
                    .as_ref()
                    .map_or(String::new(), |e| format!(" ({:+.3})", e.equity - b)),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "Alert: {skill} move, ranked {} of {}{error}",
                moves.played + 1,
                moves.candidates.len()
            );
        }
        let luck = match a.luck_mark {
            Luck::VeryLucky => Some("very lucky"),
            Luck::Lucky => Some("lucky"),
            Luck::Unlucky => Some("unlucky"),
            Luck::VeryUnlucky => Some("very unlucky"),
            Luck::None => None,
        };
        if let Some(luck) = luck {
            let _ = writeln!(out, "Alert: {luck} roll");
        }
    }
}

/// The cube figures of a cube decision, when analysed.
fn cube_analysis(out: &mut String, analysis: Option<&ActionAnalysis>) {
    let Some(a) = analysis else { return };
    if let Some(cube) = &a.cube {
        let _ = writeln!(out, "Cube analysis ({}):", source_name(&cube.source));
        let _ = writeln!(out, "       No double           {:+.3}", cube.no_double[6]);
        let _ = writeln!(
            out,
            "       Double, take        {:+.3}",
            cube.double_take[6]
        );
    }
    if let Some(skill) = skill_name(a.skill) {
        let _ = writeln!(out, "Alert: {skill} cube decision");
    }
    if a.cube.is_some() || a.skill != Skill::None {
        out.push('\n');
    }
}
