//! The one-sided database: for every position of one side, the exact distribution of the number of
//! rolls it needs to bear off all its checkers, and to bear off its first checker.
//!
//! # Definition
//!
//! For a position `x` of one side (checkers on points 1..=P, see [`Layout`]) and a goal:
//!
//! * [`Goal::AllOff`]: `T(x)`, the number of rolls to bear off every checker, when each roll is
//!   played to minimise the *expected* number of rolls still needed;
//! * [`Goal::FirstOff`]: `G(x)`, the number of rolls until at least one checker is borne off,
//!   playing to minimise its expectation (saving the gammon). It only matters for a side that has
//!   borne off nothing yet, but it is defined for every position.
//!
//! With `R` the 21 rolls (probability 1/36 or 2/36) and `x ⊕ r` the positions reachable with `r`,
//!
//! ```text
//! P(T(∅) = 0) = 1,    P(T(x) = k + 1) = Σ_r p(r) · P(T(y_r) = k),   y_r = argmin_{y ∈ x ⊕ r} E[T(y)]
//! ```
//!
//! and for `G` the same, except that a roll which can bear a checker off ends the count at 1. Every
//! play leads to a smaller [index](super::index), so the positions are solved in index order.
//! Ties between plays of equal expectation go to the first play found (sources from the highest
//! point down, for each order of the dice), which makes the database deterministic.
//!
//! The distributions are accumulated in `f64` and stored as `f32`; the expectations used to choose
//! plays are computed from the stored `f32` values, so a stored entry is reproduced *bit for bit* by
//! solving it again from the entries below it. [`OneSided::recomputes`] does exactly that when a file
//! is verified.
//!
//! # Race evaluation
//!
//! Two sides both inside the database race independently: the player on roll wins if
//! `T_player ≤ T_opponent` (the player rolls first). With `A`, `B` the two distributions,
//!
//! ```text
//! P(win)         = Σ_i P(T_A = i) · P(T_B ≥ i)
//! P(win gammon)  = Σ_i P(T_A = i) · P(G_B ≥ i)        (only if the opponent has borne off nothing)
//! P(lose gammon) = Σ_j P(T_B = j) · P(G_A ≥ j + 1)    (only if the player has borne off nothing)
//! ```
//!
//! # Race backgammons
//!
//! In a race where the loser still has all its checkers and some of them in the winner's home
//! board, the winner's backgammon is the race between the winner bearing off (`T_W`, when all its
//! checkers are home) and the loser bringing those stragglers out of the zone. Carrying a
//! checker from the winner's home board (the loser's points 19–24) to the loser's 18-point is a
//! bearoff from points 1–6 in all but a rule the loser seldom needs (a die larger than a
//! straggler's distance may always carry it out, where a bearoff allows that only from the
//! highest point), so its rolls `Z` are read from the database as those of the stragglers put on
//! points 1–6, as GNU Backgammon reads them. The winner on roll wins a backgammon with
//! `Σ_i P(T_W = i) · P(Z ≥ i)`, the loser on roll saves it one roll sooner:
//! `Σ_i P(T_W = i) · P(Z ≥ i + 1)` ([`OneSided::backgammon`]).
//!
//! Backgammons are impossible: every checker of the loser is in its own home board, which is the
//! far end of the board for the winner, never the winner's home board, and none is on the bar.
//! This race value is exact only as far as each side's "fewest rolls" play is also its best play
//! for winning; the two-sided database ([`super::two_sided`]) is exact everywhere it reaches.

use crate::eval::Probabilities;
use crate::rules::dice::Dice;
use crate::rules::position::CHECKERS;

use super::index::{total, Counts, Layout};
use super::moves::for_each_play;
use super::FormatError;

/// Rolls covered by a distribution: `0 .. MAX_ROLLS`. Every roll moves at least two pips or bears
/// off the last checker, so 10 points of 15 checkers (150 pips) finish within 76 rolls.
pub const MAX_ROLLS: usize = 128;

/// What a distribution counts the rolls to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Bear off every checker.
    AllOff = 0,
    /// Bear off at least one checker (saves the gammon).
    FirstOff = 1,
}

/// The distribution of a number of rolls: `P(rolls = k)` for every `k`, borrowed from a database.
#[derive(Clone, Copy, Debug)]
pub struct Distribution<'a> {
    first: usize,
    probs: &'a [f32],
}

impl<'a> Distribution<'a> {
    /// `P(rolls = k)`.
    pub fn probability(&self, k: usize) -> f64 {
        k.checked_sub(self.first)
            .and_then(|i| self.probs.get(i))
            .map_or(0.0, |&p| f64::from(p))
    }

    /// The fewest rolls with a non-zero probability.
    pub fn min_rolls(&self) -> usize {
        self.first
    }

    /// The most rolls with a non-zero probability.
    pub fn max_rolls(&self) -> usize {
        self.first + self.probs.len().saturating_sub(1)
    }

    /// `P(rolls ≤ k)`.
    pub fn cumulative(&self, k: usize) -> f64 {
        self.iter()
            .take_while(|&(r, _)| r <= k)
            .map(|(_, p)| p)
            .sum()
    }

    /// The sum of all probabilities (1 up to rounding).
    pub fn total(&self) -> f64 {
        self.probs.iter().map(|&p| f64::from(p)).sum()
    }

    /// The expected number of rolls.
    pub fn mean(&self) -> f64 {
        self.iter().map(|(k, p)| k as f64 * p).sum()
    }

    /// The standard deviation of the number of rolls.
    pub fn sd(&self) -> f64 {
        let mean = self.mean();
        let var: f64 = self
            .iter()
            .map(|(k, p)| (k as f64 - mean) * (k as f64 - mean) * p)
            .sum();
        var.max(0.0).sqrt()
    }

    /// `(k, P(rolls = k))` over the rolls with a stored probability, in increasing `k`.
    pub fn iter(&self) -> impl Iterator<Item = (usize, f64)> + 'a {
        let first = self.first;
        self.probs
            .iter()
            .enumerate()
            .map(move |(i, &p)| (first + i, f64::from(p)))
    }

    /// `Σ_k P(self = k) · P(other ≥ k + shift)`.
    fn against(&self, other: &Distribution<'_>, shift: usize) -> f64 {
        // P(other ≥ m) for increasing m, maintained as 1 − P(other < m).
        let mut below = 0.0f64; // P(other < m) for the current m
        let mut next = 0usize; // other's rolls already added to `below`
        let mut sum = 0.0;
        let total = other.total();
        for (k, p) in self.iter() {
            let m = k + shift;
            while next < m {
                below += other.probability(next);
                next += 1;
            }
            sum += p * (total - below);
        }
        sum
    }
}

/// One solved entry before storage: probabilities for rolls `first ..`.
#[derive(Clone, Copy)]
pub(super) struct Solved {
    first: usize,
    len: usize,
    probs: [f32; MAX_ROLLS],
}

impl Solved {
    fn from_f64(acc: &[f64; MAX_ROLLS]) -> Solved {
        let mut probs = [0.0f32; MAX_ROLLS];
        for (out, &p) in probs.iter_mut().zip(acc) {
            *out = p as f32;
        }
        let first = probs.iter().position(|&p| p != 0.0).unwrap_or(0);
        let last = probs.iter().rposition(|&p| p != 0.0).unwrap_or(0);
        let len = last + 1 - first;
        probs.copy_within(first..=last, 0);
        Solved { first, len, probs }
    }

    fn certain(rolls: usize) -> Solved {
        let mut probs = [0.0f32; MAX_ROLLS];
        probs[0] = 1.0;
        Solved {
            first: rolls,
            len: 1,
            probs,
        }
    }

    fn probs(&self) -> &[f32] {
        &self.probs[..self.len]
    }
}

/// A one-sided bearoff database (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct OneSided {
    layout: Layout,
    /// Start in `data` of entry `2·index + goal`; one more entry marks the end.
    offsets: Vec<u32>,
    /// The roll count of each entry's first stored probability.
    firsts: Vec<u8>,
    data: Vec<f32>,
    /// Expectation of each entry, computed from the stored values (derived, not stored).
    means: Vec<f64>,
}

impl OneSided {
    /// Solves every position of `layout`. `progress(done, total)` is called now and then with the
    /// number of positions solved.
    pub fn generate(layout: Layout, progress: &mut dyn FnMut(u64, u64)) -> OneSided {
        let count = layout.count();
        let mut db = OneSided::with_capacity(layout, count as usize);
        let step = (count / 100).max(1);
        progress(0, u64::from(count));
        for index in 0..count {
            let solved = db.solve(index);
            for s in &solved {
                db.push(s.first, s.probs());
            }
            if (index + 1) % step == 0 {
                progress(u64::from(index) + 1, u64::from(count));
            }
        }
        progress(u64::from(count), u64::from(count));
        db
    }

    fn with_capacity(layout: Layout, count: usize) -> OneSided {
        let mut offsets = Vec::with_capacity(2 * count + 1);
        offsets.push(0);
        OneSided {
            layout,
            offsets,
            firsts: Vec::with_capacity(2 * count),
            data: Vec::with_capacity(12 * count),
            means: Vec::with_capacity(2 * count),
        }
    }

    fn push(&mut self, first: usize, probs: &[f32]) {
        self.firsts.push(first as u8);
        self.data.extend_from_slice(probs);
        self.offsets.push(self.data.len() as u32);
        let slot = self.firsts.len() - 1;
        let mean = self.slot(slot).mean();
        self.means.push(mean);
    }

    fn slot(&self, slot: usize) -> Distribution<'_> {
        let (a, b) = (self.offsets[slot] as usize, self.offsets[slot + 1] as usize);
        Distribution {
            first: usize::from(self.firsts[slot]),
            probs: &self.data[a..b],
        }
    }

    /// Solves position `index` from the entries below it (which must be present).
    pub(super) fn solve(&self, index: u32) -> [Solved; 2] {
        let layout = self.layout;
        let counts = layout.counts(index).expect("index in range");
        if index == 0 {
            return [Solved::certain(0), Solved::certain(0)];
        }
        let points = usize::from(layout.points());
        let checkers = total(&counts);
        let mut acc = [[0.0f64; MAX_ROLLS]; 2];
        for dice in Dice::all() {
            let weight = f64::from(dice.weight()) / 36.0;
            let mut best_all = (f64::INFINITY, 0usize);
            let mut best_first = (f64::INFINITY, 0usize);
            let mut bears_off = false;
            for_each_play(&counts, points, dice, &mut |after: &Counts| {
                let j = layout.index(after).expect("plays stay in the layout") as usize;
                let mean = self.means[2 * j];
                if mean < best_all.0 {
                    best_all = (mean, j);
                }
                if total(after) < checkers {
                    bears_off = true;
                } else {
                    let mean = self.means[2 * j + 1];
                    if mean < best_first.0 {
                        best_first = (mean, j);
                    }
                }
            });
            add_shifted(&mut acc[0], &self.slot(2 * best_all.1), weight);
            if bears_off {
                acc[1][1] += weight;
            } else {
                add_shifted(&mut acc[1], &self.slot(2 * best_first.1 + 1), weight);
            }
        }
        [Solved::from_f64(&acc[0]), Solved::from_f64(&acc[1])]
    }

    /// True if entry `index` is exactly what solving it again from the entries below gives.
    pub fn recomputes(&self, index: u32) -> bool {
        if index >= self.layout.count() {
            return false;
        }
        let solved = self.solve(index);
        solved.iter().enumerate().all(|(goal, s)| {
            let d = self.slot(2 * index as usize + goal);
            d.first == s.first
                && d.probs.len() == s.len
                && d.probs
                    .iter()
                    .zip(s.probs())
                    .all(|(a, b)| a.to_bits() == b.to_bits())
        })
    }

    /// The layout (points and checkers).
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Number of positions.
    pub fn len(&self) -> u32 {
        self.layout.count()
    }

    /// Always false: a layout has at least the empty position.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The index of a side's checkers (see [`Layout::index`]).
    #[inline]
    pub fn index(&self, counts: &[u8]) -> Option<u32> {
        self.layout.index(counts)
    }

    /// The distribution of position `index` for `goal`.
    #[inline]
    pub fn distribution(&self, index: u32, goal: Goal) -> Option<Distribution<'_>> {
        (index < self.layout.count()).then(|| self.slot(2 * index as usize + goal as usize))
    }

    /// The distribution of a side's checkers for `goal`.
    pub fn distribution_of(&self, counts: &[u8], goal: Goal) -> Option<Distribution<'_>> {
        self.distribution(self.index(counts)?, goal)
    }

    /// The expected number of rolls of position `index` for `goal`.
    pub fn mean(&self, index: u32, goal: Goal) -> Option<f64> {
        (index < self.layout.count()).then(|| self.means[2 * index as usize + goal as usize])
    }

    /// Race evaluation of two sides both inside the database (`Position::side` layouts or plain
    /// counts), for the player on roll: see the [module documentation](self). `None` when a side
    /// does not fit or has no checkers left.
    pub fn race(&self, player: &[u8], opponent: &[u8]) -> Option<Probabilities> {
        let a = self.index(player)?;
        let b = self.index(opponent)?;
        if a == 0 || b == 0 {
            return None;
        }
        let ta = self.distribution(a, Goal::AllOff)?;
        let tb = self.distribution(b, Goal::AllOff)?;
        let win = ta.against(&tb, 0);
        let win_gammon = if total(opponent) == u32::from(CHECKERS) {
            ta.against(&self.distribution(b, Goal::FirstOff)?, 0)
        } else {
            0.0
        };
        let lose_gammon = if total(player) == u32::from(CHECKERS) {
            tb.against(&self.distribution(a, Goal::FirstOff)?, 1)
        } else {
            0.0
        };
        let mut p = Probabilities {
            win: win as f32,
            win_gammon: win_gammon as f32,
            win_backgammon: 0.0,
            lose_gammon: lose_gammon as f32,
            lose_backgammon: 0.0,
        };
        p.make_consistent();
        Some(p)
    }

    /// The winner's chance of a backgammon in a race (see [Race backgammons](self#race-backgammons)):
    /// `winner` and `loser` are the sides' checkers (`Position::side` layouts), `winner_on_roll`
    /// says who rolls next. `None` when the winner's checkers do not fit the database (not all
    /// home, say) or the stragglers do not; `Some(0)` when the loser has borne off a checker or
    /// has none in the winner's home board.
    pub fn backgammon(&self, winner: &[u8], loser: &[u8], winner_on_roll: bool) -> Option<f64> {
        if total(loser) < u32::from(CHECKERS) {
            return Some(0.0);
        }
        let mut stragglers = [0u8; 6];
        stragglers.copy_from_slice(loser.get(18..24)?);
        if stragglers.iter().all(|&n| n == 0) {
            return Some(0.0);
        }
        if loser.get(24).is_some_and(|&bar| bar > 0) {
            return None; // on the bar: not a race
        }
        let w = self.index(winner)?;
        if w == 0 {
            return None;
        }
        let finish = self.distribution(w, Goal::AllOff)?;
        let escape = self.distribution_of(&stragglers, Goal::AllOff)?;
        Some(finish.against(&escape, usize::from(!winner_on_roll)))
    }

    /// Checks every entry's shape: probabilities in [0, 1] that add up to 1 (within 1e-5).
    pub fn check_sums(&self) -> Result<(), u32> {
        for index in 0..self.layout.count() {
            for goal in [Goal::AllOff, Goal::FirstOff] {
                let d = self.slot(2 * index as usize + goal as usize);
                let ok = d.probs.iter().all(|p| (0.0..=1.0).contains(p))
                    && (d.total() - 1.0).abs() < 1e-5;
                if !ok {
                    return Err(index);
                }
            }
        }
        Ok(())
    }

    /// The payload of the file format: for every entry (position by position, all-off then
    /// first-off), its first roll count (u8), its number of probabilities (u8), then the
    /// probabilities (f32, little-endian).
    pub(super) fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 * self.firsts.len() + 4 * self.data.len());
        for slot in 0..self.firsts.len() {
            let d = self.slot(slot);
            out.push(d.first as u8);
            out.push(d.probs.len() as u8);
            for p in d.probs {
                out.extend_from_slice(&p.to_le_bytes());
            }
        }
        out
    }

    /// Reads a payload written by [`OneSided::payload`].
    pub(super) fn from_payload(layout: Layout, payload: &[u8]) -> Result<OneSided, FormatError> {
        let count = layout.count() as usize;
        // Every entry takes at least 6 bytes: checked before allocating for the declared size.
        if payload.len() < 12 * count {
            return Err(FormatError::Malformed(
                "the payload is too short for its positions",
            ));
        }
        let mut db = OneSided::with_capacity(layout, count);
        let mut rest = payload;
        for _ in 0..2 * count {
            let [first, len, tail @ ..] = rest else {
                return Err(FormatError::Malformed("the payload ends inside an entry"));
            };
            let (first, len) = (usize::from(*first), usize::from(*len));
            if len == 0 || first + len > MAX_ROLLS {
                return Err(FormatError::Malformed(
                    "an entry has an impossible roll range",
                ));
            }
            if tail.len() < 4 * len {
                return Err(FormatError::Malformed("the payload ends inside an entry"));
            }
            let mut probs = [0.0f32; MAX_ROLLS];
            for (p, bytes) in probs.iter_mut().zip(tail[..4 * len].chunks_exact(4)) {
                *p = f32::from_le_bytes(bytes.try_into().expect("4 bytes"));
                if !(0.0..=1.0).contains(p) {
                    return Err(FormatError::Malformed("a probability is outside [0, 1]"));
                }
            }
            db.push(first, &probs[..len]);
            rest = &tail[4 * len..];
        }
        if !rest.is_empty() {
            return Err(FormatError::Malformed("bytes follow the last entry"));
        }
        Ok(db)
    }
}

/// `acc[k + 1] += weight · P(d = k)`.
fn add_shifted(acc: &mut [f64; MAX_ROLLS], d: &Distribution<'_>, weight: f64) {
    for (k, p) in d.iter() {
        if let Some(slot) = acc.get_mut(k + 1) {
            *slot += weight * p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> OneSided {
        OneSided::generate(Layout::new(6, 4).unwrap(), &mut |_, _| {})
    }

    #[test]
    fn hand_checked_facts() {
        let db = small();
        let d = db.distribution_of(&[1], Goal::AllOff).unwrap();
        assert_eq!(
            (d.min_rolls(), d.max_rolls(), d.probability(1)),
            (1, 1, 1.0)
        );
        // One checker on the 6-point: off in one roll unless 11, 21, 31, 41 or 32 (9 of 36).
        let d = db
            .distribution_of(&[0, 0, 0, 0, 0, 1], Goal::AllOff)
            .unwrap();
        assert!((d.probability(1) - 27.0 / 36.0).abs() < 1e-7);
        assert!((d.probability(2) - 9.0 / 36.0).abs() < 1e-7);
        // Two checkers on the ace point: one roll; four: one roll with a double, else two.
        let d = db.distribution_of(&[4], Goal::AllOff).unwrap();
        assert!((d.probability(1) - 1.0 / 6.0).abs() < 1e-7);
        assert!((d.mean() - 11.0 / 6.0).abs() < 1e-6);
        let g = db.distribution_of(&[4], Goal::FirstOff).unwrap();
        assert_eq!(g.probability(1), 1.0);
    }

    #[test]
    fn entries_sum_to_one_and_recompute() {
        let db = small();
        assert_eq!(db.check_sums(), Ok(()));
        for i in 0..db.len() {
            assert!(db.recomputes(i), "entry {i}");
        }
    }

    #[test]
    fn payload_round_trip() {
        let db = small();
        let bytes = db.payload();
        let back = OneSided::from_payload(db.layout(), &bytes).unwrap();
        assert_eq!(back.payload(), bytes);
        assert!(OneSided::from_payload(db.layout(), &bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(OneSided::from_payload(db.layout(), &longer).is_err());
    }

    #[test]
    fn race_of_single_checkers() {
        let db = small();
        // Player on roll with a checker on the ace point always wins.
        let p = db.race(&[1], &[0, 0, 0, 0, 0, 1]).unwrap();
        assert_eq!(p.win, 1.0);
        // Checker on the 6-point against one on the ace point: the player must get off at once.
        let p = db.race(&[0, 0, 0, 0, 0, 1], &[1]).unwrap();
        assert!((p.win - 0.75).abs() < 1e-6);
        assert_eq!((p.win_gammon, p.lose_gammon), (0.0, 0.0));
        assert_eq!(db.race(&[], &[1]), None);
    }

    #[test]
    fn backgammon_of_one_straggler() {
        let db = small();
        // The loser: fourteen checkers on its 6-point and one on its 23-point, five pips inside
        // the winner's home board; one roll carries it out unless it is 1-1, 2-1 or 3-1.
        let mut loser = [0u8; 25];
        loser[5] = 14;
        loser[22] = 1;
        let stuck = 5.0 / 36.0;
        // A winner with one checker on the ace point is off with its first roll.
        let ace = [1u8];
        assert_eq!(db.backgammon(&ace, &loser, true), Some(1.0));
        let p = db.backgammon(&ace, &loser, false).unwrap();
        assert!((p - stuck).abs() < 1e-6, "{p}");
        // One on the 6-point is off in one roll three times in four, else in two; the
        // straggler is always out in two rolls.
        let six = [0u8, 0, 0, 0, 0, 1];
        let p = db.backgammon(&six, &loser, true).unwrap();
        assert!((p - (0.75 + 0.25 * stuck)).abs() < 1e-6, "{p}");
        let p = db.backgammon(&six, &loser, false).unwrap();
        assert!((p - 0.75 * stuck).abs() < 1e-6, "{p}");
        // No backgammon once the loser has borne off a checker or has none in the zone.
        let mut off = loser;
        off[5] = 13;
        assert_eq!(db.backgammon(&ace, &off, true), Some(0.0));
        let mut out = loser;
        out[22] = 0;
        out[17] = 1;
        assert_eq!(db.backgammon(&ace, &out, true), Some(0.0));
        // A winner not yet home is not in the database.
        assert_eq!(db.backgammon(&[0, 0, 0, 0, 0, 0, 1], &loser, true), None);
    }
}
