//! The two-sided database: for every pair of positions with up to N checkers on the six home points
//! of each side, the exact cubeless winning chance of the player on roll and the exact cubeful
//! money equities for the three cube positions.
//!
//! # No gammons, no backgammons
//!
//! A side with at most N ≤ [`MAX_TWO_SIDED_CHECKERS`] (< 15) checkers on the board has borne off
//! at least one, so neither side can lose a gammon; backgammons need a gammon. Every game in the
//! database is therefore worth exactly one cube unit, and the equities lie in [−1, +1].
//!
//! # The recursion
//!
//! Let `i` be the player on roll's position, `j` the opponent's, and `i ⊕ r` the positions the
//! player can reach with roll `r` (weight `p(r)` = 1/36 or 2/36). Bearing off the last checker wins
//! one unit at once. Otherwise the opponent is on roll in `(j, t)`. For the cubeless chance, with
//! best play for winning:
//!
//! ```text
//! W(i, j) = Σ_r p(r) · max_{t ∈ i ⊕ r} [ t = ∅ ? 1 : 1 − W(j, t) ]
//! ```
//!
//! Cubeful equities are money equities per unit of the current cube, for the player on roll, with
//! the cube centred (`C`), owned by the player on roll (`O`) or owned by the opponent (`X`). First
//! the equity of rolling without doubling, `ND_s`; the cube state is seen from the other side after
//! the move (centred stays centred, "owned" becomes "opponent owns" and vice versa), and each state
//! gets its own best play:
//!
//! ```text
//! ND_C(i, j) = Σ_r p(r) · max_t [ t = ∅ ? 1 : −E_C(j, t) ]
//! ND_O(i, j) = Σ_r p(r) · max_t [ t = ∅ ? 1 : −E_X(j, t) ]
//! ND_X(i, j) = Σ_r p(r) · max_t [ t = ∅ ? 1 : −E_O(j, t) ]
//! ```
//!
//! Then the cube decision before the roll. Only a player with access to the cube (centred or owned)
//! may double. After double/take the opponent owns the cube at twice the value and the player rolls
//! without access to it: `2·ND_X(i, j)` units. Double/pass gives +1. The opponent takes or passes,
//! whichever is better for him, and the player doubles if that beats not doubling:
//!
//! ```text
//! E_C = max(ND_C, min(2·ND_X, 1))     E_O = max(ND_O, min(2·ND_X, 1))     E_X = ND_X
//! ```
//!
//! Every play lowers the mover's [index](super::index) (and pip count), so `(i, j)` only needs
//! `(j, t)` with `t < i`: the pairs are solved by increasing `i + j`, each exactly once, with no
//! iteration. Values are accumulated in `f64` and stored as `f32`; solving a pair again from the
//! stored values reproduces it bit for bit ([`TwoSided::recomputes`]).
//!
//! Money play without the Jacoby rule or beavers: with no gammons possible, the Jacoby rule (which
//! only changes how gammons score) would change nothing anyway. Match play is out of scope.

use crate::rules::dice::Dice;

use super::index::{Counts, Layout};
use super::moves::for_each_play;
use super::{BearoffError, FormatError};

/// Checkers a side of the default two-sided database: 924 positions a side, 853,776 pairs.
pub const DEFAULT_TWO_SIDED_CHECKERS: u8 = 6;
/// Most checkers a side of a two-sided database: 8,008 positions a side, 64 million pairs, 1 GiB.
pub const MAX_TWO_SIDED_CHECKERS: u8 = 10;
/// Two-sided databases cover the six home points.
pub const TWO_SIDED_POINTS: u8 = 6;

const ROLLS: usize = 21;

/// The values of one pair, for the player on roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoSidedValues {
    /// Cubeless probability of winning (best play for winning).
    pub win: f32,
    /// Cubeful money equity per cube unit, cube centred.
    pub centred: f32,
    /// Cubeful money equity per cube unit, cube owned by the player on roll.
    pub owned: f32,
    /// Cubeful money equity per cube unit, cube owned by the opponent.
    pub opponent_owned: f32,
}

impl TwoSidedValues {
    fn from_array(a: [f32; 4]) -> TwoSidedValues {
        TwoSidedValues {
            win: a[0],
            centred: a[1],
            owned: a[2],
            opponent_owned: a[3],
        }
    }

    /// Cubeless equity, `2·win − 1` (no gammons in these positions).
    pub fn cubeless_equity(&self) -> f32 {
        2.0 * self.win - 1.0
    }
}

/// Where the cube is, from the player on roll's side (money play).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeState {
    /// Either player may double.
    Centred,
    /// The player on roll owns the cube.
    Owned,
    /// The opponent owns the cube: the player on roll cannot double.
    OpponentOwned,
}

/// The correct cube action of the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeAction {
    /// Doubling loses equity; the opponent would take.
    NoDoubleTake,
    /// Double; the opponent should take.
    DoubleTake,
    /// Double; the opponent should pass.
    DoublePass,
    /// Not doubling is at least as good as the +1 of a pass (here: the player cannot lose).
    TooGoodPass,
    /// The opponent owns the cube.
    CannotDouble,
}

impl CubeAction {
    /// GNU Backgammon's wording.
    pub fn text(self) -> &'static str {
        match self {
            CubeAction::NoDoubleTake => "No double, take",
            CubeAction::DoubleTake => "Double, take",
            CubeAction::DoublePass => "Double, pass",
            CubeAction::TooGoodPass => "Too good to double, pass",
            CubeAction::CannotDouble => "No double (the opponent owns the cube)",
        }
    }
}

/// A cube decision: the three cubeful equities (per unit of the current cube) and the action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeDecision {
    pub no_double: f64,
    pub double_take: f64,
    pub double_pass: f64,
    pub action: CubeAction,
}

/// For every position and roll, the distinct positions a play can reach (sorted).
#[derive(Clone, Debug)]
struct Successors {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Successors {
    fn new(layout: Layout) -> Successors {
        let count = layout.count();
        let points = usize::from(layout.points());
        let mut offsets = Vec::with_capacity(count as usize * ROLLS + 1);
        let mut targets = Vec::new();
        offsets.push(0);
        let mut found = Vec::new();
        for index in 0..count {
            let counts = layout.counts(index).expect("index in range");
            for dice in Dice::all() {
                if index > 0 {
                    found.clear();
                    for_each_play(&counts, points, dice, &mut |after: &Counts| {
                        found.push(layout.index(after).expect("plays stay in the layout"));
                    });
                    found.sort_unstable();
                    found.dedup();
                    targets.extend_from_slice(&found);
                }
                offsets.push(targets.len() as u32);
            }
        }
        Successors { offsets, targets }
    }

    #[inline]
    fn of(&self, index: u32, roll: usize) -> &[u32] {
        let k = index as usize * ROLLS + roll;
        &self.targets[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }
}

/// Weights of the 21 rolls in [`Dice::all`] order, out of 36.
fn roll_weights() -> [f64; ROLLS] {
    let mut w = [0.0; ROLLS];
    for (slot, dice) in w.iter_mut().zip(Dice::all()) {
        *slot = f64::from(dice.weight()) / 36.0;
    }
    w
}

/// A two-sided bearoff database (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct TwoSided {
    layout: Layout,
    n: usize,
    /// `values[i·n + j]`: win, centred, owned, opponent-owned for the player on roll in `i`
    /// against `j`.
    values: Vec<[f32; 4]>,
    successors: Successors,
    weights: [f64; ROLLS],
}

impl TwoSided {
    /// The layout of a two-sided database of `checkers` checkers a side.
    pub fn layout_for(checkers: u8) -> Result<Layout, BearoffError> {
        if !(1..=MAX_TWO_SIDED_CHECKERS).contains(&checkers) {
            return Err(BearoffError::Checkers {
                checkers,
                max: MAX_TWO_SIDED_CHECKERS,
            });
        }
        Layout::new(TWO_SIDED_POINTS, checkers)
    }

    fn empty(layout: Layout) -> TwoSided {
        let n = layout.count() as usize;
        TwoSided {
            layout,
            n,
            values: vec![[0.0; 4]; n * n],
            successors: Successors::new(layout),
            weights: roll_weights(),
        }
    }

    /// Solves every pair of positions of up to `checkers` checkers a side. `progress(done, total)`
    /// is called now and then with the number of pairs solved.
    pub fn generate(
        checkers: u8,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<TwoSided, BearoffError> {
        let layout = TwoSided::layout_for(checkers)?;
        let mut db = TwoSided::empty(layout);
        let n = db.n;
        let total = (n * n) as u64;
        progress(0, total);
        // A side without checkers has won: the player on roll if i = 0, else the opponent.
        for k in 0..n {
            db.values[k] = [1.0; 4];
            if k > 0 {
                db.values[k * n] = [0.0, -1.0, -1.0, -1.0];
            }
        }
        let mut done = 2 * n as u64 - 1;
        let step = (total / 100).max(1);
        let mut next_report = step;
        for sum in 2..=2 * (n - 1) {
            for i in sum.saturating_sub(n - 1).max(1)..=(sum - 1).min(n - 1) {
                let j = sum - i;
                db.values[i * n + j] = db.solve(i as u32, j as u32);
            }
            done += (sum.min(n - 1) - sum.saturating_sub(n - 1).max(1) + 1) as u64;
            if done >= next_report {
                progress(done, total);
                next_report = done + step;
            }
        }
        progress(total, total);
        Ok(db)
    }

    /// `ND_s` for the three cube states, and the cubeless chance (see the module documentation).
    /// Index 0: cubeless win; 1: centred; 2: owned; 3: opponent owns.
    fn no_double(&self, i: u32, j: u32) -> [f64; 4] {
        let n = self.n;
        let row = &self.values[j as usize * n..(j as usize + 1) * n];
        let mut nd = [0.0f64; 4];
        for (roll, &weight) in self.weights.iter().enumerate() {
            let mut best = [f64::NEG_INFINITY; 4];
            for &t in self.successors.of(i, roll) {
                let v = if t == 0 {
                    [1.0; 4]
                } else {
                    let e = row[t as usize];
                    // The opponent's view after the move: the cube states swap ownership.
                    [
                        1.0 - f64::from(e[0]),
                        -f64::from(e[1]),
                        -f64::from(e[3]),
                        -f64::from(e[2]),
                    ]
                };
                for k in 0..4 {
                    best[k] = best[k].max(v[k]);
                }
            }
            for k in 0..4 {
                nd[k] += weight * best[k];
            }
        }
        nd
    }

    /// Solves the pair `(i, j)` (both non-empty) from the pairs it leads to.
    fn solve(&self, i: u32, j: u32) -> [f32; 4] {
        let nd = self.no_double(i, j);
        let double = (2.0 * nd[3]).min(1.0);
        [
            nd[0] as f32,
            nd[1].max(double) as f32,
            nd[2].max(double) as f32,
            nd[3] as f32,
        ]
    }

    /// True if the stored pair `(i, j)` is exactly what solving it again gives.
    pub fn recomputes(&self, i: u32, j: u32) -> bool {
        let n = self.n as u32;
        if i >= n || j >= n {
            return false;
        }
        let stored = self.values[(i * n + j) as usize];
        let expected = match (i, j) {
            (0, _) => [1.0; 4],
            (_, 0) => [0.0, -1.0, -1.0, -1.0],
            _ => self.solve(i, j),
        };
        stored
            .iter()
            .zip(expected)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    }

    /// The layout of each side (6 points, up to N checkers).
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Checkers a side (N).
    pub fn checkers(&self) -> u8 {
        self.layout.checkers()
    }

    /// Positions a side.
    pub fn positions(&self) -> u32 {
        self.n as u32
    }

    /// The index of a side's checkers (see [`Layout::index`]).
    #[inline]
    pub fn index(&self, counts: &[u8]) -> Option<u32> {
        self.layout.index(counts)
    }

    /// The values of the player on roll in position `player` against `opponent` (indices). A side
    /// without checkers has won (the player on roll's side is checked first).
    #[inline]
    pub fn values(&self, player: u32, opponent: u32) -> Option<TwoSidedValues> {
        let n = self.n;
        let (i, j) = (player as usize, opponent as usize);
        (i < n && j < n).then(|| TwoSidedValues::from_array(self.values[i * n + j]))
    }

    /// The values for two sides' checkers (`Position::side` layouts or plain counts).
    #[inline]
    pub fn lookup(&self, player: &[u8], opponent: &[u8]) -> Option<TwoSidedValues> {
        self.values(self.index(player)?, self.index(opponent)?)
    }

    /// The cube decision of the player on roll (indices; both sides must have checkers left).
    pub fn cube_decision(
        &self,
        player: u32,
        opponent: u32,
        cube: CubeState,
    ) -> Option<CubeDecision> {
        let n = self.n as u32;
        if player == 0 || opponent == 0 || player >= n || opponent >= n {
            return None;
        }
        let nd = self.no_double(player, opponent);
        let double_take = 2.0 * nd[3];
        let double_pass = 1.0;
        let no_double = match cube {
            CubeState::Centred => nd[1],
            CubeState::Owned => nd[2],
            CubeState::OpponentOwned => nd[3],
        };
        let action = if cube == CubeState::OpponentOwned {
            CubeAction::CannotDouble
        } else {
            // An opponent indifferent between taking and passing passes.
            let take = double_take < double_pass;
            // Without gammons (none are possible here) playing on can never beat the +1 of a
            // pass, so a won position is "double, pass", as GNU Backgammon reports it; "too good"
            // would need a no-double equity above +1.
            match (take, double_take.min(double_pass) > no_double) {
                (true, true) => CubeAction::DoubleTake,
                (true, false) => CubeAction::NoDoubleTake,
                (false, _) if double_pass >= no_double - 1e-9 => CubeAction::DoublePass,
                (false, _) => CubeAction::TooGoodPass,
            }
        };
        Some(CubeDecision {
            no_double,
            double_take,
            double_pass,
            action,
        })
    }

    /// The payload of the file format: the four values (f32, little-endian) of every pair, pairs
    /// ordered by the player on roll's index, then the opponent's.
    pub(super) fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 * self.values.len());
        for v in &self.values {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a payload written by [`TwoSided::payload`].
    pub(super) fn from_payload(layout: Layout, payload: &[u8]) -> Result<TwoSided, FormatError> {
        let n = layout.count() as usize;
        // Checked before allocating anything for the declared size.
        if payload.len() != 16 * n * n {
            return Err(FormatError::Malformed("the payload has the wrong size"));
        }
        let mut db = TwoSided::empty(layout);
        for (v, bytes) in db.values.iter_mut().zip(payload.chunks_exact(16)) {
            for (x, b) in v.iter_mut().zip(bytes.chunks_exact(4)) {
                *x = f32::from_le_bytes(b.try_into().expect("4 bytes"));
            }
            let in_range =
                (0.0..=1.0).contains(&v[0]) && v[1..].iter().all(|e| (-1.0..=1.0).contains(e));
            if !in_range {
                return Err(FormatError::Malformed("a value is out of range"));
            }
        }
        Ok(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_database_is_consistent() {
        let db = TwoSided::generate(3, &mut |_, _| {}).unwrap();
        let n = db.positions();
        assert_eq!(n, 84);
        for i in 0..n {
            for j in 0..n {
                assert!(db.recomputes(i, j), "({i}, {j})");
                let v = db.values(i, j).unwrap();
                assert!((0.0..=1.0).contains(&v.win));
                assert!(
                    v.owned >= v.centred && v.centred >= v.opponent_owned,
                    "{v:?}"
                );
            }
        }
        // A checker on the ace point bears off at once.
        let ace = db.index(&[1]).unwrap();
        let six = db.index(&[0, 0, 0, 0, 0, 1]).unwrap();
        assert_eq!(db.values(ace, six).unwrap().centred, 1.0);
        // A checker on the 6-point against the ace point: 27/36 to win, cash it.
        let v = db.values(six, ace).unwrap();
        assert!((v.win - 0.75).abs() < 1e-6);
        let d = db.cube_decision(six, ace, CubeState::Centred).unwrap();
        assert_eq!(d.action, CubeAction::DoublePass);
        assert!((d.no_double - 0.5).abs() < 1e-6);
        assert_eq!(v.centred, 1.0);
        assert!(TwoSided::generate(0, &mut |_, _| {}).is_err());
        assert!(TwoSided::generate(11, &mut |_, _| {}).is_err());
    }

    #[test]
    fn payload_round_trip() {
        let db = TwoSided::generate(2, &mut |_, _| {}).unwrap();
        let bytes = db.payload();
        let back = TwoSided::from_payload(db.layout(), &bytes).unwrap();
        assert_eq!(back.payload(), bytes);
        assert!(TwoSided::from_payload(db.layout(), &bytes[1..]).is_err());
    }
}
