//! The ASCII board GNU Backgammon draws in its terminal interface (manual §1):
//!
//! ```text
//!  GNU Backgammon  Position ID: 4HPwATDgc/ABMA
//!                  Match ID   : cAkAAAAAAAAA
//!  +13-14-15-16-17-18------19-20-21-22-23-24-+     O: gnubg
//!  | X           O    |   | O              X |     0 points
//!  ...
//! v|                  |BAR|                  |     (Cube: 1)
//!  ...
//!  +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: you
//! ```
//!
//! The layout is fixed: player 1 (X) bears off at the bottom right, player 0 (O) at the top right.
//! The point numbers are those of the player on roll, and the arrow left of the bar line points
//! to the side whose numbers are 1..12 (`^` when O is on roll, `v` when X is).

use crate::game::match_state::{CubeOwner, GameState, MatchState, Player};
use crate::rules::position::{Position, Side};
use crate::{match_id, position_id};

/// Names of the two players, player 0 (O) first.
pub type Names<'a> = [&'a str; 2];

const LABELS_HIGH: &str = " +13-14-15-16-17-18------19-20-21-22-23-24-+";
const LABELS_LOW: &str = " +12-11-10--9--8--7-------6--5--4--3--2--1-+";

/// Draws `position` (oriented to `state.on_roll`) with the match information of `state`.
pub fn draw(position: &Position, state: &MatchState, names: Names) -> String {
    // Checkers per player in that player's own numbering: index 0..=23 = points 1..=24, 24 = bar.
    let (x, o) = match state.on_roll {
        Player::One => (position.side(Side::Player), position.side(Side::Opponent)),
        Player::Zero => (position.side(Side::Opponent), position.side(Side::Player)),
    };
    // Checkers on X's point `p` (X numbering, 1..=24) as (count, symbol).
    let at = |p: usize| -> (u8, char) {
        if x[p - 1] > 0 {
            (x[p - 1], 'X')
        } else {
            (o[24 - p], 'O')
        }
    };
    let notes = annotations(state, names);

    let mut out = String::new();
    out.push_str(&format!(
        " {:<15} Position ID: {}\n",
        "GNU Backgammon",
        position_id::encode(position)
    ));
    out.push_str(&format!(
        " {:<15} Match ID   : {}\n",
        "",
        match_id::encode(state)
    ));
    let x_on_roll = state.on_roll == Player::One;
    let (top_labels, bottom_labels) = if x_on_roll {
        (LABELS_HIGH, LABELS_LOW)
    } else {
        (LABELS_LOW, LABELS_HIGH)
    };
    push_line(&mut out, top_labels, &notes[0]);

    // Top half: X's points 13..=18 | O's bar | 19..=24, rows from the edge towards the middle.
    let top_points: [usize; 12] = [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24];
    for row in 0..5 {
        let line = half_row(&top_points, at, (o[24], 'O'), row);
        push_line(&mut out, &line, &notes[1 + usize::from(row)]);
    }
    let arrow = if x_on_roll { 'v' } else { '^' };
    push_line(
        &mut out,
        &format!("{arrow}|                  |BAR|                  |"),
        &notes[6],
    );
    // Bottom half: X's points 12..=7 | X's bar | 6..=1, rows from the middle towards the edge.
    let bottom_points: [usize; 12] = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    for row in (0..5).rev() {
        let line = half_row(&bottom_points, at, (x[24], 'X'), row);
        push_line(&mut out, &line, &notes[11 - usize::from(row)]);
    }
    push_line(&mut out, bottom_labels, &notes[12]);
    out
}

/// One row of a half board. Row 0 is at the board's edge, row 4 next to the bar line; row 4 shows
/// the size of stacks of five or more.
fn half_row(
    points: &[usize; 12],
    at: impl Fn(usize) -> (u8, char),
    bar: (u8, char),
    row: u8,
) -> String {
    let cell = |(count, symbol): (u8, char)| -> String {
        let c = if row < 4 {
            if count > row {
                symbol
            } else {
                ' '
            }
        } else {
            match count {
                0..=4 => ' ',
                5 => symbol,
                n => char::from_digit(u32::from(n), 16)
                    .map(|c| c.to_ascii_uppercase())
                    .unwrap_or('?'),
            }
        };
        format!(" {c} ")
    };
    let mut line = String::from(" |");
    for &p in &points[..6] {
        line.push_str(&cell(at(p)));
    }
    line.push('|');
    line.push_str(&cell(bar));
    line.push('|');
    for &p in &points[6..] {
        line.push_str(&cell(at(p)));
    }
    line.push('|');
    line
}

fn push_line(out: &mut String, board: &str, note: &str) {
    out.push_str(board);
    if !note.is_empty() {
        out.push_str("     ");
        out.push_str(note);
    }
    out.push('\n');
}

/// The texts right of the board, one per line (13 lines).
fn annotations(state: &MatchState, names: Names) -> Vec<String> {
    let mut notes = vec![String::new(); 13];
    notes[0] = format!("O: {}", names[0]);
    notes[12] = format!("X: {}", names[1]);
    let score = |p: Player| {
        let s = state.score[p.index()];
        if s == 1 {
            "1 point".to_string()
        } else {
            format!("{s} points")
        }
    };
    notes[1] = score(Player::Zero);
    notes[11] = score(Player::One);
    // Status of a player: line 2 for O, line 10 for X.
    let status_line = |p: Player| if p == Player::Zero { 2 } else { 10 };
    if state.game_state == GameState::Playing || state.game_state == GameState::NoGame {
        if let Some(r) = state.resigned {
            let what = match r {
                crate::game::match_state::Resignation::Single => "a single game",
                crate::game::match_state::Resignation::Gammon => "a gammon",
                crate::game::match_state::Resignation::Backgammon => "a backgammon",
            };
            notes[status_line(state.turn.other())] = format!("Resigns {what}");
        } else if state.doubled {
            notes[status_line(state.on_roll)] = format!("Doubles to {}", state.cube_value() * 2);
        } else if let Some(d) = state.dice {
            notes[status_line(state.on_roll)] = format!("Rolled {d}");
        } else {
            notes[status_line(state.on_roll)] = "On roll".to_string();
        }
    }
    let cube = format!("(Cube: {})", state.cube_value());
    let match_text = if state.is_money() {
        String::new()
    } else {
        let crawford = if state.crawford {
            ", Crawford game"
        } else {
            ""
        };
        format!("{} point match{crawford} ", state.match_length)
    };
    match state.cube_owner {
        CubeOwner::Centered => notes[6] = format!("{match_text}{cube}"),
        CubeOwner::Owned(p) => {
            notes[6] = match_text.trim_end().to_string();
            notes[if p == Player::Zero { 3 } else { 9 }] = cube;
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starting_position_like_the_manual() {
        let mut state = MatchState::money();
        state.on_roll = Player::Zero;
        state.turn = Player::Zero;
        state.dice = Some(crate::Dice::new(3, 1).unwrap());
        let text = draw(&Position::starting(), &state, ["gnubg", "anthon"]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], " GNU Backgammon  Position ID: 4HPwATDgc/ABMA");
        assert_eq!(
            lines[2],
            " +12-11-10--9--8--7-------6--5--4--3--2--1-+     O: gnubg"
        );
        assert_eq!(
            lines[3],
            " | X           O    |   | O              X |     0 points"
        );
        assert_eq!(
            lines[4],
            " | X           O    |   | O              X |     Rolled 31"
        );
        assert_eq!(lines[5], " | X           O    |   | O                |");
        assert_eq!(lines[6], " | X                |   | O                |");
        assert_eq!(lines[7], " | X                |   | O                |");
        assert_eq!(
            lines[8],
            "^|                  |BAR|                  |     (Cube: 1)"
        );
        assert_eq!(lines[9], " | O                |   | X                |");
        assert_eq!(
            lines[13],
            " | O           X    |   | X              O |     0 points"
        );
        assert_eq!(
            lines[14],
            " +13-14-15-16-17-18------19-20-21-22-23-24-+     X: anthon"
        );
    }
}
