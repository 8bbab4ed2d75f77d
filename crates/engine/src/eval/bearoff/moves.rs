//! Legal plays of one side alone, for positions without contact.
//!
//! The databases only hold positions where the two sides can no longer meet, so a side's plays do
//! not depend on the other side: no point is blocked and nothing is hit. The rules are the usual
//! ones (they agree with [`crate::rules::movegen`], which the tests check position by position):
//!
//! * a die moves a checker `die` points down; a checker on the point equal to the die is borne off;
//! * bearing off needs every checker in the home board (points 1..=6), and a die larger than the
//!   highest occupied point bears off a checker from that point;
//! * as many dice as possible are played. Without contact a die can always be played while
//!   checkers remain (the highest checker can move or bear off), so every play uses all dice or
//!   bears off the last checker, and the "larger die" rule never has to choose.

use crate::rules::dice::Dice;

use super::index::Counts;

/// Calls `visit` with the result of every legal play of `dice` from `counts` (checkers on points
/// 1..=`points`). Results can repeat; they never equal `counts` unless it is empty.
pub fn for_each_play(counts: &Counts, points: usize, dice: Dice, visit: &mut impl FnMut(&Counts)) {
    let left = super::index::total(counts);
    let mut found = false;
    let mut counted = |c: &Counts| {
        found = true;
        visit(c);
    };
    if dice.is_double() {
        let d = dice.first();
        play(counts, points, left, &[d, d, d, d], 0, points, &mut counted);
    } else {
        let (a, b) = (dice.first(), dice.second());
        play(counts, points, left, &[a, b], 0, points, &mut counted);
        play(counts, points, left, &[b, a], 0, points, &mut counted);
    }
    if !found {
        // Only an empty position has no play (see the module documentation).
        visit(counts);
    }
}

/// Plays `dice[depth..]`. Sources are tried from `top` down; for doubles a later checker never
/// starts above an earlier one, which reaches every result while pruning reorderings. A branch
/// that cannot go on while checkers remain is only an artefact of that pruning (some other order
/// plays every die) and yields nothing.
fn play(
    counts: &Counts,
    points: usize,
    left: u32,
    dice: &[u8],
    depth: usize,
    top: usize,
    visit: &mut impl FnMut(&Counts),
) {
    if depth == dice.len() || left == 0 {
        visit(counts);
        return;
    }
    let die = usize::from(dice[depth]);
    let double = dice.len() == 4;
    for from in (1..=top).rev() {
        if counts[from - 1] == 0 {
            continue;
        }
        let Some(to) = destination(counts, points, from, die) else {
            continue;
        };
        let mut next = *counts;
        next[from - 1] -= 1;
        let mut next_left = left;
        if to > 0 {
            next[to - 1] += 1;
        } else {
            next_left -= 1;
        }
        let next_top = if double { from } else { points };
        play(&next, points, next_left, dice, depth + 1, next_top, visit);
    }
}

/// Where a checker on `from` lands with `die` (0 = borne off), if that is legal.
#[inline]
fn destination(counts: &Counts, points: usize, from: usize, die: usize) -> Option<usize> {
    if from > die {
        return Some(from - die);
    }
    let outside_home = counts[6.min(points)..points].iter().any(|&c| c > 0);
    if outside_home {
        return None;
    }
    if from == die || counts[from..points].iter().all(|&c| c == 0) {
        Some(0)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(counts: &[u8], points: usize, dice: Dice) -> Vec<Vec<u8>> {
        let mut c: Counts = Default::default();
        c[..counts.len()].copy_from_slice(counts);
        let mut out = Vec::new();
        for_each_play(&c, points, dice, &mut |r| out.push(r[..points].to_vec()));
        out.sort();
        out.dedup();
        out
    }

    /// Every legal result by brute force: every order of the dice, every source at every step,
    /// keeping the plays that use the most dice.
    fn brute_force(
        counts: &Counts,
        points: usize,
        dice: Dice,
    ) -> std::collections::BTreeSet<Counts> {
        fn go(c: &Counts, points: usize, dice: &[u8], used: usize, out: &mut Vec<(usize, Counts)>) {
            let left = crate::eval::bearoff::index::total(c);
            if dice.is_empty() || left == 0 {
                // Dice left over once every checker is off count as played.
                out.push((used + dice.len(), *c));
                return;
            }
            let mut moved = false;
            for from in 1..=points {
                if c[from - 1] == 0 {
                    continue;
                }
                if let Some(to) = destination(c, points, from, usize::from(dice[0])) {
                    moved = true;
                    let mut n = *c;
                    n[from - 1] -= 1;
                    if to > 0 {
                        n[to - 1] += 1;
                    }
                    go(&n, points, &dice[1..], used + 1, out);
                }
            }
            if !moved {
                out.push((used, *c));
            }
        }
        let mut out = Vec::new();
        let (a, b) = (dice.first(), dice.second());
        if dice.is_double() {
            go(counts, points, &[a; 4], 0, &mut out);
        } else {
            go(counts, points, &[a, b], 0, &mut out);
            go(counts, points, &[b, a], 0, &mut out);
        }
        let most = out.iter().map(|r| r.0).max().unwrap();
        out.into_iter()
            .filter(|r| r.0 == most)
            .map(|r| r.1)
            .collect()
    }

    /// The same results as the engine's move generator and as brute force, for every position of up to 15 checkers
    /// on the home points with up to 6 checkers (all the two-sided database uses) and every 5th
    /// one beyond, every roll; and for a sample of 8-point positions. The opponent waits on its
    /// ace point, out of the way.
    #[test]
    fn agrees_with_the_engine() {
        use crate::eval::bearoff::index::Layout;
        use crate::rules::movegen::MoveGenerator;
        use crate::rules::position::{Position, Side};
        use std::collections::BTreeSet;

        let mut opponent = [0u8; 25];
        opponent[0] = 15;
        let mut generator = MoveGenerator::new();
        for (layout, keep) in [(Layout::ONE_SIDED, 5), (Layout::new(8, 15).unwrap(), 97)] {
            let points = usize::from(layout.points());
            for i in (1..layout.count()).filter(|&i| i < 924 || i % keep == 0) {
                let counts = layout.counts(i).unwrap();
                let mut mine = [0u8; 25];
                mine[..points].copy_from_slice(&counts[..points]);
                let p = Position::from_sides(&mine, &opponent).unwrap();
                for dice in Dice::all() {
                    let engine: BTreeSet<u32> = generator
                        .generate(&p, dice)
                        .iter()
                        .map(|m| layout.index(&m.position.side(Side::Player)).unwrap())
                        .collect();
                    let mut ours = BTreeSet::new();
                    for_each_play(&counts, points, dice, &mut |r| {
                        ours.insert(layout.index(r).unwrap());
                    });
                    assert_eq!(engine, ours, "{counts:?} {dice}");
                    let brute: BTreeSet<u32> = brute_force(&counts, points, dice)
                        .iter()
                        .map(|r| layout.index(r).unwrap())
                        .collect();
                    assert_eq!(brute, ours, "{counts:?} {dice}");
                }
            }
        }
    }

    #[test]
    fn single_checker() {
        // A checker on the 6-point with 21 reaches the 3-point; with 51 it is borne off.
        let d = |a, b| Dice::new(a, b).unwrap();
        assert_eq!(
            results(&[0, 0, 0, 0, 0, 1], 6, d(2, 1)),
            vec![vec![0, 0, 1, 0, 0, 0]]
        );
        assert_eq!(results(&[0, 0, 0, 0, 0, 1], 6, d(5, 1)), vec![vec![0; 6]]);
        assert_eq!(
            results(&[0, 0, 0, 0, 0, 1], 6, d(1, 1)),
            vec![vec![0, 1, 0, 0, 0, 0]]
        );
    }

    #[test]
    fn outside_checkers_must_come_home_first() {
        // Checkers on the 8 and the 1 point, 61. The 1 cannot bear off while the 8 is outside:
        // 6 first gives 8/2 and then 2/1 or 1/off; 1 first gives 8/7 and then 7/1.
        let d = Dice::new(6, 1).unwrap();
        let r = results(&[1, 0, 0, 0, 0, 0, 0, 1], 8, d);
        assert_eq!(
            r,
            vec![vec![0, 1, 0, 0, 0, 0, 0, 0], vec![2, 0, 0, 0, 0, 0, 0, 0],]
        );
    }
}
