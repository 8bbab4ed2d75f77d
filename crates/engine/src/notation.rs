//! Move notation as GNU Backgammon writes it: `8/5 6/5`, `8/5(2)`, `bar/22*`, `6/off`,
//! `24/18*/13`.

use std::fmt::Write as _;

use crate::moves::Move;
use crate::position::{Position, BAR, OFF};

/// Formats `mv`, played from `before` (the position before the move, seen from the mover), the way
/// GNU Backgammon prints it: steps ordered by source point, highest first; steps of one checker
/// joined (`24/13`), with an intermediate point kept where it hit (`24/18*/13`); identical steps
/// counted (`8/5(2)`); `*` after a point where a blot was hit; `bar` and `off`. The empty move
/// formats as an empty string.
pub fn format_move(before: &Position, mv: &Move) -> String {
    let board = before.board();
    let blot_at = |point: i32| point > 0 && point < BAR as i32 && board[point as usize] < 0;

    // (source, destination) pairs, ordered by source then destination, both descending.
    let mut rows: Vec<(i32, i32)> = mv
        .steps()
        .iter()
        .map(|s| (i32::from(s.from), i32::from(s.to)))
        .collect();
    rows.sort_by(|a, b| b.cmp(a));

    // Join the steps of a single checker; remember intermediate points where a blot was hit.
    let mut hit_on_the_way = 0u32;
    let mut alive = vec![true; rows.len()];
    for i in 0..rows.len() {
        for j in i..rows.len() {
            if alive[i] && alive[j] && rows[i].1 == rows[j].0 {
                if blot_at(rows[i].1) {
                    hit_on_the_way |= 1 << rows[i].1;
                }
                rows[i].1 = rows[j].1;
                alive[j] = false;
            }
        }
    }
    let rows: Vec<(i32, i32)> = rows
        .into_iter()
        .zip(alive)
        .filter_map(|(r, a)| a.then_some(r))
        .collect();

    // Count identical rows.
    let mut counted: Vec<((i32, i32), u32)> = Vec::with_capacity(rows.len());
    for r in rows {
        match counted.iter_mut().find(|(c, _)| *c == r) {
            Some((_, n)) => *n += 1,
            None => counted.push((r, 1)),
        }
    }

    let mut out = String::new();
    for ((from, to), n) in counted {
        if !out.is_empty() {
            out.push(' ');
        }
        if from == BAR as i32 {
            out.push_str("bar");
        } else {
            let _ = write!(out, "{from}");
        }
        for p in (to + 1..from).rev() {
            if hit_on_the_way & (1 << p) != 0 {
                let _ = write!(out, "/{p}*");
            }
        }
        if to == OFF as i32 {
            out.push_str("/off");
        } else {
            let _ = write!(out, "/{to}");
            if blot_at(to) {
                out.push('*');
            }
        }
        if n > 1 {
            let _ = write!(out, "({n})");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::movegen::legal_moves;
    use crate::moves::Step;

    fn fmt(pos: &Position, steps: &[(u8, u8)]) -> String {
        let steps: Vec<Step> = steps.iter().map(|&(from, to)| Step { from, to }).collect();
        format_move(pos, &Move::from_steps(&steps))
    }

    #[test]
    fn gnubg_examples() {
        let start = Position::starting();
        assert_eq!(fmt(&start, &[(6, 5), (8, 5)]), "8/5 6/5");
        assert_eq!(
            fmt(&start, &[(8, 5), (8, 5), (6, 3), (6, 3)]),
            "8/5(2) 6/3(2)"
        );
        assert_eq!(fmt(&start, &[(24, 18), (18, 13)]), "24/13");
        assert_eq!(fmt(&start, &[(13, 7), (7, 4), (13, 7), (7, 4)]), "13/4(2)");
        assert_eq!(fmt(&start, &[]), "");
        // A blot on our 18 and 22 (their 7 and 3); a checker of ours on the bar.
        let mut me = [0u8; 25];
        me[24] = 1;
        me[23] = 1;
        me[5] = 13;
        let mut them = [0u8; 25];
        them[6] = 1; // their 7 = our 18
        them[2] = 1; // their 3 = our 22
        them[12] = 13;
        let p = Position::from_sides(&me, &them).unwrap();
        assert_eq!(fmt(&p, &[(25, 22), (24, 18)]), "bar/22* 24/18*");
        assert_eq!(fmt(&p, &[(25, 22), (22, 18)]), "bar/22*/18*");
        let mut home = [0u8; 25];
        home[5] = 2;
        let h = Position::from_sides(&home, &them).unwrap();
        assert_eq!(fmt(&h, &[(6, 0), (6, 0)]), "6/off(2)");
    }

    #[test]
    fn opening_moves_format() {
        let start = Position::starting();
        let moves = legal_moves(&start, Dice::new(3, 1).unwrap());
        let texts: Vec<String> = moves.iter().map(|m| format_move(&start, &m.mv)).collect();
        assert!(texts.contains(&"8/5 6/5".to_string()), "{texts:?}");
        assert!(texts.contains(&"24/20".to_string()), "{texts:?}");
        let moves = legal_moves(&start, Dice::new(6, 5).unwrap());
        let texts: Vec<String> = moves.iter().map(|m| format_move(&start, &m.mv)).collect();
        assert!(texts.contains(&"24/13".to_string()), "{texts:?}");
    }
}
