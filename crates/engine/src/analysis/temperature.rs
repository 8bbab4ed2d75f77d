//! Sho Sengoku's temperature map, as GNU Backgammon shows it (`show temperaturemap`): for a
//! position before the roll, the 36 rolls of the player on roll as a 6×6 grid (rows the first
//! die, columns the second), each cell holding the best play of that roll and the equity after
//! it, plus the average over the 36 rolls. Cells are coloured from the worst roll to the best.
//!
//! # What each cell holds
//!
//! For each of the 21 distinct rolls the plays are ranked at the given [`EvalSettings`] by the
//! engine's one ranking ([`Search::best_move_for`]) for the question the map answers: the cell
//! holds the best play ([`Move::NONE`] when no checker can move), its GNU Backgammon notation and
//! the equity of the roller after it — cubeful unless the settings are cubeless, normalised to
//! the cube (money) or as EMG (match play, with the match winning chance alongside). The two
//! orders of a non-double (31 and 13) are two cells sharing one entry.
//!
//! The average is the mean over the 36 cells (doubles weigh 1/36, other rolls 2/36). At 0-ply
//! it is the no-double equity of the position at 1-ply (the search averages the rolls the same
//! way, each played as well as the 0-ply evaluation sees it, when the settings do not prune);
//! at n-ply the map's plays are chosen at n-ply, so the average is what an (n+1)-ply search
//! would give if it chose its plays as carefully.
//!
//! # The question a map answers
//!
//! At shallow depth the engine values the cube as livelier for a cube action than for a checker
//! play ([`Purpose`], docs/CUBE.md), and a map's cells take the efficiency of the question the
//! map belongs to. A map before the roll ([`temperature_map`], [`temperature_maps_for_cube`]) is
//! the inside of a cube decision, [`Purpose::CubeAction`]: so its average is the 1-ply
//! no-double equity of the cube hint, while the hint for one roll, a checker play, values the
//! same plays with the less lively cube: its equities differ from the cells' by a little (about
//! 0.015 at the opening) and where plays are close its first play may be another (the opening
//! 64 at 0 ply: the map's 8/2 6/2, the hint's 24/14). A map after a
//! candidate play ([`temperature_map_after_move`]) is the inside of that checker play's
//! valuation, [`Purpose::CheckerPlay`]: its average is the mover's 1-ply equity of the play as
//! the hint lists it.
//!
//! # Colours
//!
//! GNU Backgammon shades each cell linearly from white (the smallest equity of all maps shown
//! together) to red (the largest). [`TemperatureMap::range`], [`common_range`] and [`heat`] give
//! that scale; [`RollEntry::rank`] (1 = best roll) and [`RollEntry::deviation`] (equity minus the
//! average) order the rolls for any other scheme.
//!
//! # For a cube decision
//!
//! [`temperature_maps_for_cube`] gives two maps of the same position: with the cube as it is (no
//! double), and after double/take (the cube doubled and owned by the opponent). Both are in the
//! units of the cube before the double — in money play the double/take map's equities are
//! scaled by the cube ratio (2), in match play its match winning chances are expressed as EMG at
//! the current cube — so the two maps compare cell by cell and show which rolls lose the market.
//! The double/take map is not simply twice the no-double map: after the double the roller has
//! lost access to the cube, and the best play of a roll may change with the cube. (Cubeless,
//! money play without the Jacoby rule, it is exactly twice.)
//!
//! # After a candidate play
//!
//! [`temperature_map_after_move`] is the map GNU Backgammon opens from the hint's list of
//! plays: the opponent's rolls after the play, with the equities seen from the mover.
//!
//! # Cost
//!
//! One checker-play ranking per distinct roll: 21 rankings at the settings' depth. 0-ply and
//! 1-ply maps are fast; deeper ones take 21 hints' time. [`roll_entry`] computes one cell, so a
//! caller with several searchers can spread the rolls over threads and assemble the map with
//! [`TemperatureMap::from_entries`]; [`temperature_map_with_progress`] reports each roll done
//! and stops early when asked.

use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::cube::{CubeContext, Purpose, Scoring};
use crate::eval::Probabilities;
use crate::formats::notation::format_move;
use crate::rules::dice::Dice;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::{EvalSettings, Search};

/// Number of distinct rolls.
pub const ROLLS: usize = 21;

/// Why entries do not make a temperature map, or a map cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TemperatureError {
    /// [`TemperatureMap::from_entries`] needs each of the 21 rolls exactly once.
    #[error("a temperature map needs each of the 21 rolls once: roll {0} is missing")]
    MissingRoll(String),
    /// The same roll (in either order) was given twice.
    #[error("a temperature map needs each of the 21 rolls once: roll {0} appears twice")]
    DuplicateRoll(String),
    /// The player on roll has no access to the cube (the opponent owns it, the Crawford game,
    /// or doubling would be pointless at this score): there is no double/take map.
    #[error("the player on roll cannot double here")]
    CannotDouble,
    /// The play ended the game: the opponent has no roll to map.
    #[error("the game is over after this play")]
    GameOver,
}

/// One distinct roll of a [`TemperatureMap`]: its best play and the equity after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollEntry {
    /// The roll, larger die first.
    #[serde(serialize_with = "as_text")]
    pub dice: Dice,
    /// The best play; [`Move::NONE`] when no checker can move.
    #[serde(skip)]
    pub mv: Move,
    /// The best play in GNU Backgammon notation (empty when no checker can move).
    #[serde(rename = "move")]
    pub text: String,
    /// Equity of the roller after the play: cubeful (unless the settings are cubeless),
    /// normalised to the cube of the map's context (money) or EMG (match play).
    pub equity: f32,
    /// Match winning chance of the roller after the play (match play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mwc: Option<f32>,
    /// Cubeless chances of the roller after the play.
    #[serde(skip)]
    pub probabilities: Probabilities,
    /// 1 for the best roll; rolls with equal equities share a rank (the next rank skips).
    pub rank: u8,
    /// `equity` minus the map's average.
    pub deviation: f32,
}

impl RollEntry {
    /// How many of the 36 ordered rolls this entry stands for: 1 for a double, 2 otherwise.
    pub fn weight(&self) -> u32 {
        self.dice.weight()
    }
}

/// The temperature map of a position before the roll (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TemperatureMap {
    /// The depth the plays were ranked at.
    pub plies: u8,
    /// Mean equity over the 36 rolls.
    pub average: f32,
    /// Mean match winning chance over the 36 rolls (match play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_mwc: Option<f32>,
    /// The 21 distinct rolls in the order of [`Dice::all`]: 11, 21, 22, 31, 32, 33, …, 66.
    #[serde(rename = "rolls")]
    entries: Vec<RollEntry>,
}

/// Index of a roll in [`Dice::all`]'s order.
fn index(dice: Dice) -> usize {
    let (high, low) = (usize::from(dice.high()), usize::from(dice.low()));
    high * (high - 1) / 2 + low - 1
}

impl TemperatureMap {
    /// A map from the entries of the 21 rolls in any order (as [`roll_entry`] computes them,
    /// perhaps on several threads). The ranks, deviations and averages are computed here; the
    /// `rank` and `deviation` the entries carry are ignored.
    pub fn from_entries(
        entries: Vec<RollEntry>,
        plies: u8,
    ) -> Result<TemperatureMap, TemperatureError> {
        let mut slots: Vec<Option<RollEntry>> = vec![None; ROLLS];
        for mut e in entries {
            e.dice = e.dice.normalized();
            let slot = &mut slots[index(e.dice)];
            if slot.is_some() {
                return Err(TemperatureError::DuplicateRoll(e.dice.to_string()));
            }
            *slot = Some(e);
        }
        let mut entries = Vec::with_capacity(ROLLS);
        for (slot, dice) in slots.into_iter().zip(Dice::all()) {
            entries.push(slot.ok_or_else(|| TemperatureError::MissingRoll(dice.to_string()))?);
        }
        let weighted = |f: &dyn Fn(&RollEntry) -> f32| {
            entries
                .iter()
                .map(|e| e.weight() as f32 * f(e))
                .sum::<f32>()
                / 36.0
        };
        let average = weighted(&|e| e.equity);
        let average_mwc = entries
            .iter()
            .all(|e| e.mwc.is_some())
            .then(|| weighted(&|e| e.mwc.unwrap_or(0.0)));
        let equities: Vec<f32> = entries.iter().map(|e| e.equity).collect();
        for e in entries.iter_mut() {
            let better = equities.iter().filter(|&&x| x > e.equity).count();
            e.rank = (better + 1) as u8;
            e.deviation = e.equity - average;
        }
        Ok(TemperatureMap {
            plies,
            average,
            average_mwc,
            entries,
        })
    }

    /// The 21 distinct rolls, in the order of [`Dice::all`].
    pub fn entries(&self) -> &[RollEntry] {
        &self.entries
    }

    /// The entry of a roll (in either order).
    pub fn entry(&self, dice: Dice) -> &RollEntry {
        &self.entries[index(dice)]
    }

    /// The cell in row `die1`, column `die2` (each 1 to 6) of the 6×6 grid; `None` outside it.
    /// Cells (a, b) and (b, a) are the same entry.
    pub fn cell(&self, die1: u8, die2: u8) -> Option<&RollEntry> {
        Dice::new(die1, die2).ok().map(|d| self.entry(d))
    }

    /// The 6×6 grid: `grid()[i][j]` is the cell of dice `i + 1` and `j + 1`.
    pub fn grid(&self) -> [[&RollEntry; 6]; 6] {
        std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let dice = Dice::new(i as u8 + 1, j as u8 + 1).expect("dice 1 to 6");
                self.entry(dice)
            })
        })
    }

    /// The rolls from best to worst (equal equities in the order of [`Dice::all`]).
    pub fn ranked(&self) -> Vec<&RollEntry> {
        let mut ranked: Vec<&RollEntry> = self.entries.iter().collect();
        ranked.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        ranked
    }

    /// The smallest and largest equity of the map.
    pub fn range(&self) -> (f32, f32) {
        common_range(std::slice::from_ref(self))
    }
}

/// The smallest and largest equity over several maps shown together (GNU Backgammon colours
/// all of them on one scale). `(0, 0)` for no maps.
pub fn common_range(maps: &[TemperatureMap]) -> (f32, f32) {
    let mut equities = maps.iter().flat_map(|m| m.entries.iter().map(|e| e.equity));
    let Some(first) = equities.next() else {
        return (0.0, 0.0);
    };
    equities.fold((first, first), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

/// Where `equity` lies on the scale `range` (from [`TemperatureMap::range`] or
/// [`common_range`]): 0 at the minimum (GNU Backgammon's white), 1 at the maximum (full red),
/// linear between, clamped. 0 when the range is empty.
pub fn heat(equity: f32, range: (f32, f32)) -> f32 {
    let (lo, hi) = range;
    if hi > lo {
        ((equity - lo) / (hi - lo)).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// One cell of the map: the best play of `dice` in `position` (before the roll, seen from the
/// roller, whose cube is `ctx`) at `settings`, with the equity after it, both valued for
/// `purpose`, the question the map answers (see [the module documentation](self)). Rank and
/// deviation are left at 0 (set by [`TemperatureMap::from_entries`]).
pub fn roll_entry(
    search: &mut Search,
    position: &Position,
    dice: Dice,
    ctx: &CubeContext,
    settings: &EvalSettings,
    purpose: Purpose,
) -> RollEntry {
    let dice = dice.normalized();
    let best = search.best_move_for(position, dice, ctx, settings, purpose);
    RollEntry {
        dice,
        mv: best.mv.mv,
        text: format_move(position, &best.mv.mv),
        equity: best.equity,
        mwc: best.mwc,
        probabilities: best.probabilities,
        rank: 0,
        deviation: 0.0,
    }
}

/// The temperature map of `position` before the roll for its player on roll, whose cube is
/// `ctx` (as [`super::hint::cube_context`] builds it from a match state), at `settings`.
pub fn temperature_map(
    search: &mut Search,
    position: &Position,
    ctx: &CubeContext,
    settings: &EvalSettings,
) -> TemperatureMap {
    temperature_map_with_progress(search, position, ctx, settings, &mut |_| true)
        .expect("never stopped")
}

/// [`temperature_map`], calling `progress` with the number of rolls done (1 to 21) after each
/// roll; when it returns `false` the computation stops and `None` is returned.
pub fn temperature_map_with_progress(
    search: &mut Search,
    position: &Position,
    ctx: &CubeContext,
    settings: &EvalSettings,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Option<TemperatureMap> {
    let mut entries = Vec::with_capacity(ROLLS);
    for (done, dice) in Dice::all().enumerate() {
        entries.push(roll_entry(
            search,
            position,
            dice,
            ctx,
            settings,
            Purpose::CubeAction,
        ));
        if !progress(done + 1) {
            return None;
        }
    }
    let plies = settings.plies.min(4);
    Some(TemperatureMap::from_entries(entries, plies).expect("each roll once"))
}

/// The two maps of a cube decision (see the [module documentation](self)): no double (the cube
/// `ctx` as it is) and double/take (the cube doubled and owned by the opponent), both in the
/// units of the cube before the double. An error when the player on roll cannot double.
pub fn temperature_maps_for_cube(
    search: &mut Search,
    position: &Position,
    ctx: &CubeContext,
    settings: &EvalSettings,
) -> Result<(TemperatureMap, TemperatureMap), TemperatureError> {
    if !ctx.can_double() {
        return Err(TemperatureError::CannotDouble);
    }
    let no_double = temperature_map(search, position, ctx, settings);
    let doubled = ctx.doubled();
    let mut entries = Vec::with_capacity(ROLLS);
    for dice in Dice::all() {
        let mut e = roll_entry(
            search,
            position,
            dice,
            &doubled,
            settings,
            Purpose::CubeAction,
        );
        e.equity = match ctx.scoring {
            Scoring::Money { .. } => e.equity * doubled.cube as f32 / ctx.cube as f32,
            Scoring::Match { .. } => match e.mwc {
                Some(mwc) => ctx.mwc_to_equity(mwc).unwrap_or(e.equity),
                None => e.equity,
            },
        };
        entries.push(e);
    }
    let double_take = TemperatureMap::from_entries(entries, no_double.plies)?;
    Ok((no_double, double_take))
}

/// The map GNU Backgammon draws for a candidate play of the hint's list: the rolls of the
/// opponent in `after` (the position reached by the play, seen from the mover, as
/// [`crate::rules::movegen::LegalMove::position`] gives it), each with the opponent's best play,
/// but with every equity from the mover's side (negated in money play; in match play the
/// mover's match winning chance, as EMG at the mover's cube `ctx`). So rank 1 is the roll that
/// is best for the mover — the opponent's worst. An error when the play ended the game.
pub fn temperature_map_after_move(
    search: &mut Search,
    after: &Position,
    ctx: &CubeContext,
    settings: &EvalSettings,
) -> Result<TemperatureMap, TemperatureError> {
    if after.result().is_some() {
        return Err(TemperatureError::GameOver);
    }
    let next = after.swap();
    let theirs = ctx.swapped();
    let mut entries = Vec::with_capacity(ROLLS);
    for dice in Dice::all() {
        let mut e = roll_entry(search, &next, dice, &theirs, settings, Purpose::CheckerPlay);
        e.probabilities = e.probabilities.invert();
        match e.mwc {
            Some(mwc) if !ctx.is_money() => {
                let mine = 1.0 - mwc;
                e.mwc = Some(mine);
                e.equity = ctx.mwc_to_equity(mine).unwrap_or(-e.equity);
            }
            _ => e.equity = -e.equity,
        }
        entries.push(e);
    }
    TemperatureMap::from_entries(entries, settings.plies.min(4))
}

fn as_text<T: std::fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::hint::{self, cube_context, Hint, Query, Question};
    use crate::cube::Ownership;
    use crate::eval::Nets;
    use crate::game::match_state::{CubeOwner, MatchState, Player};
    use crate::search::Level;
    use std::sync::Arc;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    /// Money play, X on roll before rolling, cube centred at 1.
    fn money(jacoby: bool) -> MatchState {
        MatchState {
            on_roll: Player::One,
            turn: Player::One,
            jacoby,
            ..MatchState::money()
        }
    }

    fn zero_ply() -> EvalSettings {
        Level::Expert.settings()
    }

    fn dice(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    /// A position from the checkers of the player on roll and of his opponent, by point.
    fn sides(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        Position::from_points(player, opponent).unwrap()
    }

    #[test]
    fn the_opening_map_has_the_cube_searchs_best_plays_and_their_average() {
        let mut s = search();
        let state = money(true);
        let ctx = cube_context(&state, true);
        let start = Position::starting();
        let map = temperature_map(&mut s, &start, &ctx, &zero_ply());
        assert_eq!(map.plies, 0);
        assert_eq!(map.entries().len(), ROLLS);
        assert_eq!(map.average_mwc, None);
        // Each distinct roll once, larger die first, in the order of `Dice::all`.
        let rolls: Vec<Dice> = map.entries().iter().map(|e| e.dice).collect();
        assert_eq!(rolls, Dice::all().collect::<Vec<_>>());
        // 36 cells; the two orders of a non-double are the same entry.
        let grid = map.grid();
        let mut cells = 0;
        for (i, row) in grid.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let (a, b) = (i as u8 + 1, j as u8 + 1);
                assert_eq!(cell.dice, dice(a, b).normalized());
                assert_eq!(*cell, grid[j][i]);
                assert_eq!(Some(*cell), map.cell(a, b));
                cells += 1;
            }
        }
        assert_eq!(cells, 36);
        assert_eq!(map.cell(0, 3), None);
        assert_eq!(map.cell(3, 7), None);
        // The average is the mean over the 36 cells.
        let mean = grid.iter().flatten().map(|e| e.equity).sum::<f32>() / 36.0;
        assert!((map.average - mean).abs() < 1e-6, "{} {mean}", map.average);
        // Each roll's play is the best play as the cube decision's search ranks it, with its
        // equity; the hint for the roll (a checker play, its cube less lively at 0 ply) values
        // the same play a little differently, and where plays are close may put another first.
        for e in map.entries() {
            let best = s.best_move_for(&start, e.dice, &ctx, &zero_ply(), Purpose::CubeAction);
            assert_eq!(e.mv, best.mv.mv, "{}", e.dice);
            assert_eq!(e.text, format_move(&start, &best.mv.mv));
            assert_eq!(e.equity, best.equity);
            assert_eq!(e.deviation, e.equity - map.average);
            let q = Query {
                position: start,
                state,
                beavers: true,
                question: Question::Move(e.dice),
            };
            let Hint::Moves(h) = hint::hint(&mut s, &q, &zero_ply()) else {
                panic!("plays expected");
            };
            let listed = h.moves.iter().find(|m| m.mv.mv == e.mv).unwrap();
            let gap = e.equity - listed.equity;
            assert!(gap.abs() < 0.05, "{}: {gap}", e.dice);
            assert!(h.moves[0].equity - listed.equity < 0.05, "{}", e.dice);
        }
        // What the nets play at the opening, as every book does.
        for ((a, b), play) in [
            ((3, 1), "8/5 6/5"),
            ((4, 2), "8/4 6/4"),
            ((6, 5), "24/13"),
            ((6, 1), "13/7 8/7"),
            ((5, 5), "13/3(2)"),
        ] {
            assert_eq!(map.entry(dice(a, b)).text, play);
            assert_eq!(map.cell(b, a).unwrap().text, play);
        }
        // Doubles are the best rolls; 66 is the best of all, and two of the small rolls that
        // must split or slot, 21, 41 and 51, the worst (within 0.015 of each other at 0-ply,
        // so the nets may order the three either way).
        let ranked = map.ranked();
        assert_eq!(ranked[0].dice, dice(6, 6));
        assert_eq!(ranked[0].rank, 1);
        assert!(ranked[..4].iter().all(|e| e.dice.is_double()));
        assert!(ranked[ROLLS - 2..]
            .iter()
            .all(|e| [dice(2, 1), dice(4, 1), dice(5, 1)].contains(&e.dice)));
        for pair in ranked.windows(2) {
            assert!(pair[0].equity >= pair[1].equity);
            assert!(pair[0].rank <= pair[1].rank);
        }
        // The deviations cancel over the 36 rolls.
        let spread: f32 = map
            .entries()
            .iter()
            .map(|e| e.weight() as f32 * e.deviation)
            .sum();
        assert!(spread.abs() < 1e-5, "{spread}");
    }

    #[test]
    fn the_zero_ply_average_is_the_one_ply_no_double_equity() {
        let mut s = search();
        let one_ply = EvalSettings {
            plies: 1,
            ..zero_ply()
        };
        for (position, state) in [
            (Position::starting(), money(false)),
            (Position::starting(), MatchState::new_match(7)),
            (
                sides(
                    &[(6, 3), (8, 4), (13, 4), (24, 2), (5, 2)],
                    &[(6, 5), (8, 3), (13, 5), (24, 2)],
                ),
                money(true),
            ),
        ] {
            let ctx = cube_context(&state, false);
            let map = temperature_map(&mut s, &position, &ctx, &zero_ply());
            let direct = s.cube_decision(&position, &ctx, &one_ply);
            assert!(
                (map.average - direct.decision.no_double).abs() < 1e-5,
                "{} {:?}",
                map.average,
                direct.decision
            );
            assert_eq!(map.average_mwc.is_some(), !state.is_money());
        }
    }

    #[test]
    fn a_roll_that_bears_off_everything_ranks_first() {
        let mut s = search();
        // Four checkers each on the 6 point, the rest borne off: only 66 wins at once.
        let position = sides(&[(6, 4)], &[(6, 4)]);
        let ctx = cube_context(&money(false), false);
        let map = temperature_map(&mut s, &position, &ctx, &zero_ply());
        let best = map.ranked()[0];
        assert_eq!(best.dice, dice(6, 6));
        assert_eq!(best.text, "6/off(4)");
        assert_eq!(best.equity, 1.0);
        assert_eq!(best.rank, 1);
        assert!(map.entries().iter().filter(|e| e.rank == 1).count() == 1);
        assert!(map.ranked()[1].equity < 1.0);
        assert_eq!(map.range().1, 1.0);
        assert_eq!(heat(best.equity, map.range()), 1.0);
    }

    #[test]
    fn a_roll_without_a_play_has_an_empty_move() {
        let mut s = search();
        // The player on roll is on the bar against a closed board: no roll enters.
        let position = sides(
            &[(25, 1), (13, 4), (8, 5), (6, 5)],
            &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 3)],
        );
        let ctx = cube_context(&money(false), false);
        let map = temperature_map(&mut s, &position, &ctx, &zero_ply());
        for e in map.entries() {
            assert!(e.mv.is_empty(), "{}: {}", e.dice, e.text);
            assert_eq!(e.text, "");
            assert_eq!(e.rank, 1);
            assert_eq!(e.equity, map.entries()[0].equity);
            assert!((e.equity - map.average).abs() < 1e-6);
        }
        assert_eq!(heat(map.average, map.range()), 0.0);
    }

    #[test]
    fn the_double_take_map_is_in_the_units_of_the_cube_before_the_double() {
        let mut s = search();
        let start = Position::starting();
        let ctx = cube_context(&money(false), false);
        assert_eq!(ctx.owner, Ownership::Centered);
        // Cubeless, money play without the Jacoby rule: exactly twice the no-double map.
        let cubeless = EvalSettings {
            cubeful: false,
            ..zero_ply()
        };
        let (nd, dt) = temperature_maps_for_cube(&mut s, &start, &ctx, &cubeless).unwrap();
        for (a, b) in nd.entries().iter().zip(dt.entries()) {
            assert_eq!(a.mv, b.mv);
            assert!((b.equity - 2.0 * a.equity).abs() < 1e-5, "{}", a.dice);
        }
        // Cubeful: the doubled cube on the opponent's side costs the roller his access to it,
        // so every roll is worth less than twice its no-double value.
        let (nd, dt) = temperature_maps_for_cube(&mut s, &start, &ctx, &zero_ply()).unwrap();
        assert_eq!(nd, temperature_map(&mut s, &start, &ctx, &zero_ply()));
        for (a, b) in nd.entries().iter().zip(dt.entries()) {
            assert!(
                b.equity < 2.0 * a.equity,
                "{}: {} {}",
                a.dice,
                a.equity,
                b.equity
            );
            let direct = s.best_move_for(
                &start,
                a.dice,
                &ctx.doubled(),
                &zero_ply(),
                Purpose::CubeAction,
            );
            assert_eq!(b.mv, direct.mv.mv);
            assert_eq!(b.equity, 2.0 * direct.equity);
        }
        // The 1-ply double/take equity plays each roll as the no-double map does; the map
        // plays it best for the doubled cube, so its average is at least as high, and equal
        // when the plays agree.
        let one_ply = EvalSettings {
            plies: 1,
            ..zero_ply()
        };
        let decision = s.cube_decision(&start, &ctx, &one_ply).decision;
        assert!(dt.average >= decision.double_take - 1e-5);
        let mut same_plays = 0.0;
        for (a, b) in nd.entries().iter().zip(dt.entries()) {
            let ranked = s.rank_moves_for(
                &start,
                a.dice,
                &ctx.doubled(),
                &zero_ply(),
                Purpose::CubeAction,
            );
            let of_nd = ranked.iter().find(|r| r.mv.mv == a.mv).unwrap();
            assert!(b.equity >= 2.0 * of_nd.equity);
            same_plays += a.weight() as f32 * 2.0 * of_nd.equity / 36.0;
        }
        assert!((same_plays - decision.double_take).abs() < 1e-5);
        // Both maps on one colour scale.
        let range = common_range(&[nd.clone(), dt.clone()]);
        assert_eq!(range.0, dt.range().0);
        assert_eq!(range.1, nd.range().1.max(dt.range().1));
    }

    #[test]
    fn match_play_maps_carry_match_winning_chances() {
        let mut s = search();
        let start = Position::starting();
        let state = MatchState {
            on_roll: Player::One,
            turn: Player::One,
            score: [2, 1],
            ..MatchState::new_match(5)
        };
        let ctx = cube_context(&state, false);
        let (nd, dt) = temperature_maps_for_cube(&mut s, &start, &ctx, &zero_ply()).unwrap();
        for map in [&nd, &dt] {
            assert!(map.entries().iter().all(|e| e.mwc.is_some()));
            let mean = map
                .entries()
                .iter()
                .map(|e| e.weight() as f32 * e.mwc.unwrap())
                .sum::<f32>()
                / 36.0;
            assert!((map.average_mwc.unwrap() - mean).abs() < 1e-6);
        }
        // The double/take cells are the match winning chances after the double as EMG at the
        // cube before it, so that they compare with the no-double cells.
        for e in dt.entries() {
            let emg = ctx.mwc_to_equity(e.mwc.unwrap()).unwrap();
            assert!((e.equity - emg).abs() < 1e-6);
        }
        let emg = ctx.mwc_to_equity(dt.average_mwc.unwrap()).unwrap();
        assert!((dt.average - emg).abs() < 1e-4, "{} {emg}", dt.average);
    }

    #[test]
    fn after_a_play_the_opponents_rolls_are_seen_from_the_mover() {
        let mut s = search();
        let start = Position::starting();
        let one_ply = EvalSettings {
            plies: 1,
            ..zero_ply()
        };
        for state in [money(false), MatchState::new_match(7)] {
            let ctx = cube_context(&state, false);
            let ranked = s.rank_moves(&start, dice(3, 1), &ctx, &one_ply);
            let play = ranked[0];
            assert_eq!(format_move(&start, &play.mv.mv), "8/5 6/5");
            let map =
                temperature_map_after_move(&mut s, &play.mv.position, &ctx, &zero_ply()).unwrap();
            // The mover's 1-ply equity of the play averages the opponent's 0-ply replies (the
            // opponent does not double after the opening 31).
            assert!(
                (map.average - play.equity).abs() < 1e-5,
                "{} {}",
                map.average,
                play.equity
            );
            // Each cell is the opponent's own roll, valued as the inside of the mover's checker
            // play, seen from the other side.
            let entries = Dice::all()
                .map(|d| {
                    roll_entry(
                        &mut s,
                        &play.mv.position.swap(),
                        d,
                        &ctx.swapped(),
                        &zero_ply(),
                        Purpose::CheckerPlay,
                    )
                })
                .collect();
            let theirs = TemperatureMap::from_entries(entries, 0).unwrap();
            for (mine, e) in map.entries().iter().zip(theirs.entries()) {
                assert_eq!(mine.mv, e.mv);
                assert_eq!(mine.probabilities, e.probabilities.invert());
                match e.mwc {
                    None => assert_eq!(mine.equity, -e.equity),
                    Some(m) => {
                        assert!((mine.mwc.unwrap() - (1.0 - m)).abs() < 1e-6);
                        assert!((mine.equity + e.equity).abs() < 1e-5, "{}", e.dice);
                    }
                }
                assert_eq!(
                    mine.rank as usize,
                    ROLLS + 1 - e.rank as usize - ties(&theirs, e)
                );
            }
            // The opponent's best roll is the mover's worst.
            assert_eq!(map.ranked().last().unwrap().dice, theirs.ranked()[0].dice);
        }
        // A play that ends the game leaves no rolls to map.
        let position = sides(&[(6, 4)], &[(6, 4)]);
        let ctx = cube_context(&money(false), false);
        let win = s.best_move(&position, dice(6, 6), &ctx, &zero_ply());
        assert_eq!(
            temperature_map_after_move(&mut s, &win.mv.position, &ctx, &zero_ply()),
            Err(TemperatureError::GameOver)
        );
    }

    /// How many other rolls of `map` have the same equity as `e`.
    fn ties(map: &TemperatureMap, e: &RollEntry) -> usize {
        map.entries()
            .iter()
            .filter(|x| x.equity == e.equity)
            .count()
            - 1
    }

    #[test]
    fn no_double_take_map_without_access_to_the_cube() {
        let mut s = search();
        let owned = MatchState {
            cube_log2: 1,
            cube_owner: CubeOwner::Owned(Player::Zero),
            ..money(false)
        };
        let ctx = cube_context(&owned, false);
        assert_eq!(
            temperature_maps_for_cube(&mut s, &Position::starting(), &ctx, &zero_ply()),
            Err(TemperatureError::CannotDouble)
        );
    }

    #[test]
    fn progress_counts_the_rolls_and_can_stop() {
        let mut s = search();
        let ctx = cube_context(&money(false), false);
        let start = Position::starting();
        let mut seen = Vec::new();
        let map = temperature_map_with_progress(&mut s, &start, &ctx, &zero_ply(), &mut |n| {
            seen.push(n);
            true
        });
        assert_eq!(seen, (1..=ROLLS).collect::<Vec<_>>());
        assert_eq!(
            map,
            Some(temperature_map(&mut s, &start, &ctx, &zero_ply()))
        );
        let mut calls = 0;
        let stopped = temperature_map_with_progress(&mut s, &start, &ctx, &zero_ply(), &mut |n| {
            calls += 1;
            n < 5
        });
        assert_eq!((stopped, calls), (None, 5));
    }

    #[test]
    fn a_map_assembles_from_entries_in_any_order_each_roll_once() {
        let mut s = search();
        let ctx = cube_context(&money(false), false);
        let start = Position::starting();
        let map = temperature_map(&mut s, &start, &ctx, &zero_ply());
        // Reversed, with the dice written low first: the same map.
        let mut entries: Vec<RollEntry> = Dice::all()
            .map(|d| {
                roll_entry(
                    &mut s,
                    &start,
                    dice(d.low(), d.high()),
                    &ctx,
                    &zero_ply(),
                    Purpose::CubeAction,
                )
            })
            .collect();
        entries.reverse();
        assert_eq!(TemperatureMap::from_entries(entries.clone(), 0), Ok(map));
        let mut twice = entries.clone();
        twice[0] = twice[1].clone();
        assert_eq!(
            TemperatureMap::from_entries(twice, 0),
            Err(TemperatureError::DuplicateRoll("65".into()))
        );
        entries.pop();
        assert_eq!(
            TemperatureMap::from_entries(entries, 0),
            Err(TemperatureError::MissingRoll("11".into()))
        );
    }

    #[test]
    fn heat_is_linear_from_the_worst_to_the_best() {
        assert_eq!(heat(-0.5, (-0.5, 0.5)), 0.0);
        assert_eq!(heat(0.0, (-0.5, 0.5)), 0.5);
        assert_eq!(heat(0.5, (-0.5, 0.5)), 1.0);
        assert_eq!(heat(2.0, (-0.5, 0.5)), 1.0);
        assert_eq!(heat(0.3, (0.3, 0.3)), 0.0);
        assert_eq!(common_range(&[]), (0.0, 0.0));
    }
}
