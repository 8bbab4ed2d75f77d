//! The luck of a roll (docs/ANALYSIS.md §Luck): the value of the roll for the player who rolled it
//! minus the average value of all rolls, both at the luck level (cubeful 0-ply by default), in
//! normalised equity of the roller (money: per cube; match: EMG).
//!
//! * The value of a roll is the score of its best play; a roll that cannot be played is worth
//!   minus the opponent's evaluation of the unchanged position with him on roll (the empty play
//!   scores exactly that).
//! * A normal turn averages the 21 rolls, doubles weighing 1/36 and the others 2/36.
//! * The opening roll (the board is the starting position and the roll is not a double) has 30
//!   equally likely outcomes: the 15 non-doubles played by the roller, each worth his best play,
//!   and the same 15 played by his opponent, each worth minus the opponent's best play. The luck
//!   of winning the opening roll-off is part of it.

use crate::cube::CubeContext;
use crate::rules::dice::Dice;
use crate::rules::position::Position;
use crate::search::{EvalSettings, Search};

/// The luck of rolling `dice` in `position` (before the roll, seen from the roller, whose cube is
/// `ctx`) at `settings`.
pub fn luck(
    search: &mut Search,
    position: &Position,
    dice: Dice,
    ctx: &CubeContext,
    settings: &EvalSettings,
) -> f64 {
    let rolled = dice.normalized();
    let mut actual = 0.0f64;
    let mut sum = 0.0f64;
    if *position == Position::starting() && !dice.is_double() {
        let opponent = ctx.swapped();
        for d in Dice::all().filter(|d| !d.is_double()) {
            let mine = value(search, position, d, ctx, settings);
            let theirs = -value(search, position, d, &opponent, settings);
            sum += mine + theirs;
            if d.normalized() == rolled {
                actual = mine;
            }
        }
        return actual - sum / 30.0;
    }
    for d in Dice::all() {
        let v = value(search, position, d, ctx, settings);
        sum += f64::from(d.weight()) * v;
        if d.normalized() == rolled {
            actual = v;
        }
    }
    actual - sum / 36.0
}

/// The score of the best play of `dice` (the empty play when none is legal).
fn value(
    search: &mut Search,
    position: &Position,
    dice: Dice,
    ctx: &CubeContext,
    settings: &EvalSettings,
) -> f64 {
    f64::from(search.best_move(position, dice, ctx, settings).equity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::met::{MatchEquityTable, MatchScore};
    use crate::cube::Ownership;
    use crate::eval::Nets;
    use crate::game::match_state::Player;
    use crate::search::Level;
    use std::sync::Arc;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    #[test]
    fn luck_averages_to_zero_over_the_rolls() {
        let mut s = search();
        let settings = Level::Expert.settings();
        let ctx = CubeContext::money(1, Ownership::Centered);
        // A middle-game position: the opening after 31 played 8/5 6/5, the opponent on roll.
        let start = Position::starting();
        let three_one =
            crate::formats::notation::parse_move(&start, Dice::new(3, 1).unwrap(), "8/5 6/5")
                .unwrap()
                .position
                .swap();
        let total: f64 = Dice::all()
            .map(|d| f64::from(d.weight()) * luck(&mut s, &three_one, d, &ctx, &settings))
            .sum();
        assert!(total.abs() < 1e-4, "{total}");
        let six_six = luck(
            &mut s,
            &three_one,
            Dice::new(6, 6).unwrap(),
            &ctx,
            &settings,
        );
        let two_one = luck(
            &mut s,
            &three_one,
            Dice::new(2, 1).unwrap(),
            &ctx,
            &settings,
        );
        assert!(six_six > two_one, "{six_six} {two_one}");
    }

    #[test]
    fn opening_luck_counts_the_roll_off() {
        let mut s = search();
        let settings = Level::Expert.settings();
        let start = Position::starting();
        // Money with a centred cube: both players value a roll alike, so the 30 outcomes
        // average to zero and the luck is the value of the roll played.
        let ctx = CubeContext::money(1, Ownership::Centered);
        let d = Dice::new(3, 1).unwrap();
        let l = luck(&mut s, &start, d, &ctx, &settings);
        let v = f64::from(s.best_move(&start, d, &ctx, &settings).equity);
        assert!((l - v).abs() < 1e-6, "{l} {v}");
        let total: f64 = Dice::all()
            .filter(|d| !d.is_double())
            .map(|d| luck(&mut s, &start, d, &ctx, &settings))
            .sum();
        // Over the 15 rolls of the roller, the luck sums to the advantage of moving first.
        assert!(total > 0.0 && total / 15.0 < 0.2, "{total}");
        // A double at the start (a corrected roll) is an ordinary roll.
        let dd = Dice::new(4, 4).unwrap();
        let l = luck(&mut s, &start, dd, &ctx, &settings);
        assert!(l.is_finite());
        // Match play at an unequal score: the two players value the same opening differently.
        let met = MatchEquityTable::kazaross_xg2();
        let score = MatchScore::new(5, [0, 3], false);
        let a = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered);
        let b = CubeContext::new_match(met, score, Player::One, 1, Ownership::Centered);
        let la = luck(&mut s, &start, d, &a, &settings);
        let lb = luck(&mut s, &start, d, &b, &settings);
        assert!(la.is_finite() && lb.is_finite() && (la - lb).abs() > 1e-6);
    }
}
