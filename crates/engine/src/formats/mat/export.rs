//! Writing a match record as a Jellyfish match file, byte for byte as GNU Backgammon's
//! `export match mat` writes it (docs/formats.md):
//!
//! * the header: `; [Site "…"]`, `; [Event "…"]`, `; [Round "…"]`,
//!   `; [EventDate "YYYY.MM.DD"]`, `; [Transcriber "…"]` (those known), the match comment as
//!   `; ` lines after a blank line, a blank line, ` N point match` and a blank line;
//! * per game ` Game n`, the score line ` %-31s%s : %d` and the numbered move lines: `%3d) `,
//!   the left column padded to 27 characters and a blank, the right column. A roll is
//!   `<d1><d2>: ` and the steps as played, `from/to` with the bar as 25 and off as 0, `*` where a
//!   blot is hit, each step followed by a blank but the fourth; a dance is the dice alone. Cube
//!   actions are ` Doubles => n`, ` Takes`, ` Drops` (with `Wins n point(s)`), and the end of a
//!   game `Wins n point(s)` in the winner's column.
//!
//! Where the record holds what GNU Backgammon's writer cannot express, the file says it the way
//! Jellyfish files and the importer do: beavers and raccoons as ` Beavers => n` and
//! ` Raccoons => n` (the take that follows is left out, as Jellyfish does); a turn that passes
//! without a roll (an unrecorded dance) as an empty column; a game whose record stops before
//! its end with a recorded result as a `Wins` line; a match played without the cube as
//! `; [CubeLimit "1"]`. A player without a name is written `Player 1` or `Player 2` (what the
//! importer calls a nameless player), since a score line without a name cannot be read back.
//! What cannot be written at all — a set-up that changes the checkers or the cube, a rejected
//! resignation — is left out and reported by [`export_checked`].

use std::fmt;
use std::fmt::Write as _;

use crate::game::match_state::{GameState, Player};
use crate::game::record::replay::ReplayedGame;
use crate::game::record::{GameRecord, MatchRecord, RecordAction};
use crate::rules::moves::Move;
use crate::rules::position::{Position, BAR, OFF};

/// Something of the record a `.mat` file cannot hold, left out of the export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportWarning {
    /// The game (counting from 1).
    pub game: usize,
    /// The entry of the game (counting from 1).
    pub entry: usize,
    pub what: String,
}

impl fmt::Display for ExportWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, action {}: {} cannot be written in a .mat file and is left out",
            self.game, self.entry, self.what
        )
    }
}

/// The record as GNU Backgammon writes a `.mat` file.
pub fn export(record: &MatchRecord) -> String {
    export_checked(record).0
}

/// The record as GNU Backgammon writes a `.mat` file, with what had to be left out.
pub fn export_checked(record: &MatchRecord) -> (String, Vec<ExportWarning>) {
    let info = &record.info;
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &Option<String>| {
        if let Some(v) = value {
            let _ = writeln!(out, "; [{name} \"{v}\"]");
        }
    };
    tag(&mut out, "Site", &info.place);
    tag(&mut out, "Event", &info.event);
    tag(&mut out, "Round", &info.round);
    if let Some(date) = info.date.as_deref().and_then(dotted_date) {
        let _ = writeln!(out, "; [EventDate \"{date}\"]");
    }
    tag(
        &mut out,
        "Transcriber",
        &info.transcriber.clone().or_else(|| info.annotator.clone()),
    );
    if !info.cube_used {
        out.push_str("; [CubeLimit \"1\"]\n");
    }
    if let Some(comment) = &info.comment {
        out.push('\n');
        for line in comment.lines() {
            let _ = writeln!(out, "; {line}");
        }
    }
    out.push('\n');
    let _ = write!(out, " {} point match\n\n", info.rules.match_length);

    let names: Vec<String> = info
        .players
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if n.trim().is_empty() {
                format!("Player {}", i + 1)
            } else {
                n.clone()
            }
        })
        .collect();
    // The replay gives the position before each move (for the hit marks) and the end of each
    // game. Entries it could not replay are written without them.
    let replay = record.replay_lenient().ok().map(|l| l.replay);
    let mut warnings = Vec::new();
    for (index, game) in record.games.iter().enumerate() {
        let replayed = replay
            .as_ref()
            .and_then(|r| r.game(index))
            .filter(|g| !g.skipped);
        write_game(
            &mut out,
            index,
            game,
            replayed,
            [&names[0], &names[1]],
            &mut warnings,
        );
    }
    (out, warnings)
}

/// `YYYY-MM-DD` as `YYYY.MM.DD` (GNU Backgammon writes the year only when after 1900).
fn dotted_date(date: &str) -> Option<String> {
    let parts: Vec<u32> = date
        .split(['-', '.', '/'])
        .map(|p| p.trim().parse().ok())
        .collect::<Option<_>>()?;
    match parts.as_slice() {
        [y, m, d] if *y > 1900 && *y <= 9999 && (1..=12).contains(m) && (1..=31).contains(d) => {
            Some(format!("{y:4}.{m:02}.{d:02}"))
        }
        _ => None,
    }
}

/// A step's point as GNU Backgammon writes it plainly: 25 for the bar, 0 for off.
fn plain_point(p: u8) -> String {
    match usize::from(p) {
        BAR => "25".to_string(),
        OFF => "0".to_string(),
        n => n.to_string(),
    }
}

/// GNU Backgammon's plain move format: the steps in the order stored, `*` after a step that
/// lands on a point where the opponent had a checker before the move (the first step to land
/// there), a blank after each step but the fourth.
fn format_plain(before: Option<&Position>, mv: &Move) -> String {
    let steps = mv.steps();
    let mut out = String::new();
    for (i, step) in steps.iter().enumerate() {
        out.push_str(&plain_point(step.from));
        out.push('/');
        out.push_str(&plain_point(step.to));
        let to = usize::from(step.to);
        if let Some(board) = before.map(Position::board) {
            if to != OFF && to < BAR && board[to] < 0 && !steps[..i].iter().any(|s| s.to == step.to)
            {
                out.push('*');
            }
        }
        if i < 3 {
            out.push(' ');
        }
    }
    out
}

fn plural(n: u32) -> &'static str {
    if n > 1 {
        "s"
    } else {
        ""
    }
}

/// The column of a player: 0 = left (player 0), 1 = right.
fn column(player: Player) -> usize {
    player.index()
}

/// Writes one game (a port of GNU Backgammon's writer, with the columns following the players
/// when turns do not alternate).
fn write_game(
    out: &mut String,
    index: usize,
    game: &GameRecord,
    replayed: Option<&ReplayedGame>,
    names: [&str; 2],
    warnings: &mut Vec<ExportWarning>,
) {
    let _ = writeln!(out, " Game {}", index + 1);
    // Padded to 31 bytes, as C's printf pads; at least one blank before the second name (GNU
    // Backgammon glues it to a long first column, and then reads the second name wrong).
    let left = format!("{} : {}", names[0], game.score[0]);
    let pad = 31usize.saturating_sub(left.len()).max(1);
    let _ = writeln!(
        out,
        " {left}{}{} : {}",
        " ".repeat(pad),
        names[1],
        game.score[1]
    );

    // `i` counts the columns written (GNU Backgammon's counter): even = left, odd = right.
    let mut i: usize = 0;
    let mut dice_rolled = false;
    let mut file_cube: u32 = 1 << game.auto_doubles.min(15);
    // The line is open (something written after the last line end).
    let mut open = false;
    let mut ended = false;
    let entries = &game.entries;
    let mut skip_next_take = false;
    // Who rolled the dice not played.
    let mut roller: Option<Player> = None;
    for (e, entry) in entries.iter().enumerate() {
        let warn = |warnings: &mut Vec<ExportWarning>, what: String| {
            warnings.push(ExportWarning {
                game: index + 1,
                entry: e + 1,
                what,
            })
        };
        let action = &entry.action;
        let mut is_move = false;
        let mut set_dice = false;
        let mut resign = false;
        let mut drop = false;
        let text = match action {
            RecordAction::Move { dice, mv, .. } => {
                is_move = true;
                skip_next_take = false;
                dice_rolled = false;
                let before = replayed.and_then(|g| g.rolled(e)).map(|s| s.position);
                format!(
                    "{}{}: {}",
                    dice.first(),
                    dice.second(),
                    format_plain(before.as_ref(), mv)
                )
            }
            RecordAction::Roll { dice, player } => {
                // A roll not played (followed by a resignation, or the record stops): the dice.
                set_dice = true;
                dice_rolled = true;
                roller = Some(*player);
                format!("{}{}: ", dice.first(), dice.second())
            }
            RecordAction::Double { .. } => {
                file_cube = file_cube.saturating_mul(2);
                format!(" Doubles => {file_cube}")
            }
            RecordAction::Beaver { .. } => {
                let raccoon = matches!(
                    e.checked_sub(1).map(|p| &entries[p].action),
                    Some(RecordAction::Beaver { .. })
                );
                file_cube = file_cube.saturating_mul(2);
                skip_next_take = true;
                if raccoon {
                    format!(" Raccoons => {file_cube}")
                } else {
                    format!(" Beavers => {file_cube}")
                }
            }
            RecordAction::Take { .. } => {
                if skip_next_take {
                    skip_next_take = false;
                    continue;
                }
                " Takes".to_string()
            }
            RecordAction::Drop { .. } => {
                drop = true;
                skip_next_take = false;
                let points = file_cube / 2;
                format!(
                    " Drops{}Wins {} point{}",
                    if i & 1 == 1 {
                        "\n      ".to_string()
                    } else {
                        " ".repeat(23)
                    },
                    points,
                    if file_cube == 2 { "" } else { "s" }
                )
            }
            RecordAction::Resign {
                player,
                resignation,
            } => {
                let answer = entries[e + 1..].iter().find_map(|x| match x.action {
                    RecordAction::AcceptResignation { .. } => Some(true),
                    RecordAction::RejectResignation { .. } => Some(false),
                    _ => None,
                });
                match answer {
                    Some(true) => {}
                    Some(false) => {
                        warn(warnings, "a rejected resignation".to_string());
                        continue;
                    }
                    None => continue,
                }
                resign = true;
                let points = (*resignation as u32).saturating_mul(file_cube);
                resignation_text(*player, points, i, dice_rolled, roller)
            }
            RecordAction::AcceptResignation { .. } | RecordAction::RejectResignation { .. } => {
                continue
            }
            RecordAction::SetUp(setup) => {
                // A turn passing (a dance not written, a resignation made after the move) is
                // written by the columns themselves; anything else cannot be.
                let before = replayed.and_then(|g| g.before(e));
                let turn_only = before.is_some_and(|b| {
                    let seen = if b.state.on_roll == setup.on_roll {
                        b.position
                    } else {
                        b.position.swap()
                    };
                    seen == setup.position
                        && b.state.cube_log2 == setup.cube_log2
                        && b.state.cube_owner == setup.cube_owner
                        && (setup.dice.is_none() || b.state.dice == setup.dice)
                });
                if !turn_only {
                    warn(
                        warnings,
                        "a set-up that changes the checkers, cube or dice".to_string(),
                    );
                }
                continue;
            }
        };
        let player = action.player();
        // The first move by the right player (GNU Backgammon), or any action in the column it
        // does not belong to: an empty column first.
        if !resign && i & 1 != column(player) {
            if i & 1 == 0 {
                let _ = write!(out, "{:3}) {:<27} ", (i >> 1) + 1, "");
            } else {
                out.push('\n');
            }
            i += 1;
        }
        if i & 1 == 1 || resign {
            out.push_str(&text);
            if !set_dice {
                out.push('\n');
                open = false;
            } else {
                open = true;
            }
        } else if !set_dice {
            let _ = write!(out, "{:3}) {:<27} ", (i >> 1) + 1, text);
            open = true;
        } else {
            let _ = write!(out, "{:3}) {:<3}", (i >> 1) + 1, text);
            open = true;
        }
        if drop {
            out.push('\n');
            if i & 1 == 0 {
                out.push('\n');
            }
            open = false;
            ended = true;
        }
        if resign {
            open = false;
            ended = true;
        }
        if is_move {
            if let Some(after) = replayed.and_then(|g| g.after(e)) {
                if after.state.game_state == GameState::Over {
                    let points = replayed
                        .and_then(|g| g.outcome)
                        .map_or(file_cube, |o| o.points);
                    let _ = write!(
                        out,
                        "{}Wins {points} point{}\n\n",
                        if i & 1 == 1 {
                            " ".repeat(34)
                        } else {
                            "\n      ".to_string()
                        },
                        plural(points)
                    );
                    open = false;
                    ended = true;
                }
            }
        }
        i += 1;
    }
    match game.result {
        // A game cut short with a recorded result: written as the loser's resignation.
        Some(result) if !ended => {
            out.push_str(&resignation_text(
                result.winner.other(),
                result.points,
                i,
                dice_rolled,
                roller,
            ));
            out.push('\n');
        }
        _ => {
            if open {
                out.push('\n');
            }
            if !ended {
                out.push('\n');
            }
        }
    }
}

/// GNU Backgammon's text for `resigner`'s accepted resignation worth `points`, written when `i`
/// columns have been written and the dice of `roller` are rolled and not played
/// (`dice_rolled`).
fn resignation_text(
    resigner: Player,
    points: u32,
    i: usize,
    dice_rolled: bool,
    roller: Option<Player>,
) -> String {
    let odd = i & 1 == 1;
    let flip = odd ^ dice_rolled;
    let wins = format!("Wins {points} point{}\n", plural(points));
    let winner = resigner.other();
    if dice_rolled && roller == Some(winner) {
        // The winner had rolled (GNU Backgammon would write the result right after the dice,
        // where no reader finds it): a line of its own.
        let pad = if winner == Player::Zero { 6 } else { 34 };
        return format!("\n{}{wins}", " ".repeat(pad));
    }
    match resigner {
        Player::One => format!("{}      {wins}", if flip { "\n" } else { "" }),
        Player::Zero => {
            let pad = match (flip, odd) {
                (true, _) => 1,
                (false, true) => 24,
                (false, false) => 34,
            };
            format!("{}{wins}", " ".repeat(pad))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::mat::import_str;
    use crate::game::match_state::Resignation;
    use crate::game::{Game, Rules, ScriptedDice};

    fn scripted(rolls: &str) -> Box<ScriptedDice> {
        Box::new(ScriptedDice::parse(rolls).unwrap())
    }

    /// The actions of every game, the steps of each move in GNU Backgammon's order (the order
    /// the importer gives them).
    fn actions(record: &MatchRecord) -> Vec<Vec<RecordAction>> {
        record
            .games
            .iter()
            .map(|g| {
                g.entries
                    .iter()
                    .map(|e| match e.action {
                        RecordAction::Move { player, dice, mv } => {
                            let mut steps = mv.steps().to_vec();
                            steps.sort_by_key(|s| std::cmp::Reverse((s.from, s.to)));
                            RecordAction::Move {
                                player,
                                dice,
                                mv: Move::from_steps(&steps),
                            }
                        }
                        ref other => other.clone(),
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn gnubg_layout_of_a_played_match() {
        let (o, x) = (Player::Zero, Player::One);
        let mut g = Game::new(Rules::match_to(3), scripted("31 52 64 11")).unwrap();
        g.set_players(["Ann".to_string(), "Bob".to_string()]);
        g.match_info_mut().date = Some("2025-03-04".to_string());
        g.match_info_mut().comment = Some("first line\nsecond line".to_string());
        g.new_game().unwrap();
        g.play_text(o, "8/5 6/5").unwrap();
        g.roll(x).unwrap();
        g.play_text(x, "13/8 13/11").unwrap();
        g.double(o).unwrap();
        g.take(x).unwrap();
        g.roll(o).unwrap();
        g.play_text(o, "24/18 13/9").unwrap();
        g.roll(x).unwrap();
        g.resign(x, Resignation::Single).unwrap();
        g.accept_resignation(o).unwrap();
        let text = export(g.record());
        assert_eq!(
            text,
            "; [EventDate \"2025.03.04\"]\n\n; first line\n; second line\n\n 3 point match\n\n \
             Game 1\n Ann : 0                        Bob : 0\n  \
             1) 31: 8/5 6/5                 52: 13/8 13/11 \n  \
             2)  Doubles => 2                Takes\n  \
             3) 64: 24/18 13/9              11: \n      Wins 2 points\n\n"
        );
        let (again, warnings) = import_str(&text).unwrap();
        assert_eq!(warnings, []);
        assert_eq!(actions(&again), actions(g.record()));
        assert_eq!(again.games[0].result, g.record().games[0].result);
    }

    #[test]
    fn beavers_and_raccoons_read_back() {
        let (o, x) = (Player::Zero, Player::One);
        let mut g = Game::new(Rules::money(), scripted("31 52 64")).unwrap();
        g.new_game().unwrap();
        g.play_text(o, "8/5 6/5").unwrap();
        g.roll(x).unwrap();
        g.play_text(x, "13/8 13/11").unwrap();
        g.double(o).unwrap();
        g.beaver(x).unwrap();
        g.beaver(o).unwrap();
        g.take(x).unwrap();
        g.roll(o).unwrap();
        g.play_text(o, "24/18 13/9").unwrap();
        g.double(x).unwrap();
        g.drop_double(o).unwrap();
        let text = export(g.record());
        assert!(text.contains(" Doubles => 2                Beavers => 4\n"));
        assert!(text.contains(" Raccoons => 8"));
        assert!(!text.contains("Takes"), "{text}");
        assert!(text.contains(" Doubles => 16"));
        let (again, warnings) = import_str(&text).unwrap();
        assert_eq!(warnings, []);
        assert_eq!(actions(&again), actions(g.record()));
        assert_eq!(again.games[0].result.map(|r| r.points), Some(8), "{text}");
    }

    #[test]
    fn what_a_mat_file_cannot_hold_is_reported() {
        let (o, x) = (Player::Zero, Player::One);
        let mut g = Game::new(Rules::money(), scripted("31 52")).unwrap();
        g.new_game().unwrap();
        g.play_text(o, "8/5 6/5").unwrap();
        g.resign(x, Resignation::Single).unwrap();
        g.reject_resignation(o).unwrap();
        g.roll(x).unwrap();
        let p = g.position();
        g.set_cube(2, crate::game::match_state::CubeOwner::Owned(x))
            .unwrap();
        g.set_position(p).unwrap();
        let (text, warnings) = export_checked(g.record());
        let what: Vec<(usize, &str)> = warnings
            .iter()
            .map(|w| (w.entry, w.what.as_str()))
            .collect();
        assert_eq!(
            what,
            [
                (2, "a rejected resignation"),
                (5, "a set-up that changes the checkers, cube or dice"),
            ]
        );
        assert_eq!(
            warnings[0].to_string(),
            "game 1, action 2: a rejected resignation cannot be written in a .mat file and is \
             left out"
        );
        assert!(
            text.contains("  1) 31: 8/5 6/5                 52: \n"),
            "{text}"
        );
        assert_eq!(dotted_date("1999-12-31").as_deref(), Some("1999.12.31"));
        assert_eq!(dotted_date("1800-01-01"), None);
        assert_eq!(dotted_date("someday"), None);
    }
}
