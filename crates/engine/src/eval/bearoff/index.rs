//! Combinatorial indexing of one side's checkers on its lowest points.
//!
//! A *layout* of `P` points and at most `C` checkers has `binom(P + C, P)` positions: 54,264 for
//! 6 points and 15 checkers, 924 for 6 points and 6 checkers. A position is the list of checker
//! counts `c(1) … c(P)` on points 1..=P (the rest are borne off).
//!
//! # The index
//!
//! List the points from the *highest* down, `d(1) = c(P), d(2) = c(P − 1), …, d(P) = c(1)`, and
//! let `S(k) = d(1) + … + d(k)` be the checkers on the `k` highest points. The numbers
//! `s(k) = k − 1 + S(k)` are strictly increasing (`s(1) ≥ 0`), so by the combinatorial number
//! system
//!
//! ```text
//! index = Σ_{k=1..P} binom(s(k), k)
//! ```
//!
//! is a bijection from the positions onto `0 .. binom(P + C, P)` (`s(P) ≤ P − 1 + C`). Two
//! properties make this order convenient:
//!
//! * **Prefixes.** Positions with at most `n` checkers are exactly the indices below
//!   `binom(P + n, P)`. The 6-point, 6-checker space is the first 924 indices of the 6-point,
//!   15-checker space, and the empty position is index 0.
//! * **Moves go down.** Moving a checker from a higher to a lower point lowers `S(k)` for some `k`
//!   and raises none; bearing a checker off does too. As `binom(s, k)` grows strictly with `s`
//!   (for `s ≥ k − 1`), every legal bearoff play leads to a *smaller* index. Positions can
//!   therefore be solved in index order, each from already solved ones.
//!
//! Computing an index is `P` table look-ups and additions: O(1) for a fixed layout, no allocation.

use super::BearoffError;

/// Most points a layout may have (one-sided databases on more points grow past memory quickly:
/// 10 points and 15 checkers are already 3,268,760 positions).
pub const MAX_POINTS: u8 = 10;
/// Most checkers a side has.
pub const MAX_CHECKERS: u8 = 15;

/// Checker counts on points 1..=[`MAX_POINTS`] (index 0 = point 1); entries past the layout's
/// points are zero.
pub type Counts = [u8; MAX_POINTS as usize];

const BINOM_N: usize = (MAX_POINTS + MAX_CHECKERS) as usize + 1;

/// Pascal's triangle, `BINOM[n][k] = binom(n, k)` (0 when `k > n`).
static BINOM: [[u32; BINOM_N]; BINOM_N] = pascal();

const fn pascal() -> [[u32; BINOM_N]; BINOM_N] {
    let mut t = [[0u32; BINOM_N]; BINOM_N];
    let mut n = 0;
    while n < BINOM_N {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
}

/// `binom(n, k)` for the small arguments of this module.
pub fn binomial(n: usize, k: usize) -> u32 {
    if n < BINOM_N && k < BINOM_N {
        BINOM[n][k]
    } else {
        0
    }
}

/// The positions of up to `checkers` checkers on points 1..=`points` of one side, and their
/// indices (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    points: u8,
    checkers: u8,
}

impl Layout {
    /// The layout of the standard one-sided database: 6 points, 15 checkers.
    pub const ONE_SIDED: Layout = Layout {
        points: 6,
        checkers: 15,
    };

    /// A layout of `points` points (1..=[`MAX_POINTS`]) and up to `checkers` checkers
    /// (1..=[`MAX_CHECKERS`]).
    pub fn new(points: u8, checkers: u8) -> Result<Layout, BearoffError> {
        if !(1..=MAX_POINTS).contains(&points) {
            return Err(BearoffError::Points {
                points,
                max: MAX_POINTS,
            });
        }
        if !(1..=MAX_CHECKERS).contains(&checkers) {
            return Err(BearoffError::Checkers {
                checkers,
                max: MAX_CHECKERS,
            });
        }
        Ok(Layout { points, checkers })
    }

    /// Number of points.
    pub fn points(self) -> u8 {
        self.points
    }

    /// Most checkers.
    pub fn checkers(self) -> u8 {
        self.checkers
    }

    /// Number of positions, `binom(points + checkers, points)`.
    pub fn count(self) -> u32 {
        self.count_up_to(self.checkers)
    }

    /// Number of positions with at most `n` checkers (they are the indices below it).
    pub fn count_up_to(self, n: u8) -> u32 {
        binomial(
            usize::from(self.points) + usize::from(n.min(self.checkers)),
            usize::from(self.points),
        )
    }

    /// The index of the position with `counts[k]` checkers on point `k + 1`. Any slice works,
    /// such as a side of [`crate::Position::side`] (its bar entry must then be 0). `None` when a
    /// checker stands beyond the layout's points or there are too many checkers.
    #[inline]
    pub fn index(self, counts: &[u8]) -> Option<u32> {
        let p = usize::from(self.points);
        if counts.iter().skip(p).any(|&c| c != 0) {
            return None;
        }
        let mut prefix = 0usize;
        let mut index = 0u32;
        for k in 1..=p {
            prefix += usize::from(counts.get(p - k).copied().unwrap_or(0));
            if prefix > usize::from(self.checkers) {
                return None;
            }
            index += BINOM[k - 1 + prefix][k];
        }
        Some(index)
    }

    /// The position of an index, `None` when the index is out of range.
    pub fn counts(self, index: u32) -> Option<Counts> {
        if index >= self.count() {
            return None;
        }
        let p = usize::from(self.points);
        let mut s = [0usize; MAX_POINTS as usize + 1];
        let mut rest = index;
        let mut bound = p + usize::from(self.checkers); // s(k) < bound
        for k in (1..=p).rev() {
            // The largest s(k) < bound with binom(s(k), k) ≤ rest; binom(k − 1, k) = 0 stops it.
            let mut v = bound - 1;
            while BINOM[v][k] > rest {
                v -= 1;
            }
            s[k] = v;
            rest -= BINOM[v][k];
            bound = v;
        }
        let mut counts = [0u8; MAX_POINTS as usize];
        let mut previous = 0usize;
        for k in 1..=p {
            let prefix = s[k] - (k - 1);
            counts[p - k] = (prefix - previous) as u8;
            previous = prefix;
        }
        Some(counts)
    }
}

/// Checkers in `counts`.
pub fn total(counts: &[u8]) -> u32 {
    counts.iter().map(|&c| u32::from(c)).sum()
}

/// Pips of `counts` (a checker on point `p` counts `p`).
pub fn pips(counts: &[u8]) -> u32 {
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(Layout::ONE_SIDED.count(), 54_264);
        assert_eq!(Layout::new(6, 6).unwrap().count(), 924);
        assert_eq!(Layout::ONE_SIDED.count_up_to(6), 924);
        assert_eq!(Layout::new(10, 15).unwrap().count(), 3_268_760);
        assert!(Layout::new(0, 5).is_err());
        assert!(Layout::new(11, 5).is_err());
        assert!(Layout::new(6, 0).is_err());
        assert!(Layout::new(6, 16).is_err());
    }

    #[test]
    fn round_trip_and_prefix_order() {
        for layout in [
            Layout::ONE_SIDED,
            Layout::new(3, 15).unwrap(),
            Layout::new(8, 4).unwrap(),
        ] {
            let mut last_total = 0;
            for i in 0..layout.count() {
                let c = layout.counts(i).unwrap();
                assert_eq!(layout.index(&c), Some(i));
                let t = total(&c);
                assert!(t <= u32::from(layout.checkers()));
                // Positions are grouped by number of checkers, fewest first.
                assert!(t >= last_total);
                last_total = t;
                assert!(i < layout.count_up_to(t as u8));
            }
            assert_eq!(layout.counts(layout.count()), None);
        }
    }

    #[test]
    fn moves_lower_the_index() {
        let layout = Layout::ONE_SIDED;
        for i in 0..layout.count() {
            let c = layout.counts(i).unwrap();
            for from in 0..6 {
                if c[from] == 0 {
                    continue;
                }
                for to in (0..from).map(Some).chain([None]) {
                    let mut d = c;
                    d[from] -= 1;
                    if let Some(to) = to {
                        d[to] += 1;
                    }
                    assert!(layout.index(&d).unwrap() < i);
                }
            }
        }
    }

    #[test]
    fn rejects_what_does_not_fit() {
        let layout = Layout::new(6, 6).unwrap();
        assert_eq!(layout.index(&[0; 25]), Some(0));
        assert_eq!(layout.index(&[7, 0, 0]), None);
        let mut side = [0u8; 25];
        side[6] = 1; // the 7-point
        assert_eq!(layout.index(&side), None);
        side[6] = 0;
        side[24] = 1; // the bar
        assert_eq!(layout.index(&side), None);
        side[24] = 0;
        side[5] = 6;
        assert_eq!(layout.index(&side), Some(923));
    }
}
