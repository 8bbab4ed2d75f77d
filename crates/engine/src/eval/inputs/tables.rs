//! Tables the input encoders look up, all built at compile time by `const fn`s (nothing is
//! allocated or initialised at run time).
//!
//! * [`ESCAPES`] and [`ESCAPES_PAST_FIRST`]: the escape counts E and E1 of docs/ENGINE.md
//!   §Escape counts, indexed by a 12-bit mask of blocked distances (see [`block_mask`]).
//! * [`SHOTS`]: the 39 single-checker "ways" to use a roll and the 21 rolls listing them, for the
//!   shot heuristic of PIPLOSS, P1 and P2 (docs/ENGINE.md §Shot ways and §Shot inputs).
//! * [`ENTER_LOSS`]: the pips a side on the bar wastes against each home board (ENTER of
//!   docs/ENGINE.md §Structure and timing inputs).

/// Number of distinct rolls of two dice (6 doubles and 15 non-doubles).
pub(super) const ROLL_COUNT: usize = 21;
/// Number of distinct single-checker ways over all rolls (docs/ENGINE.md §Shot ways).
pub(super) const WAY_COUNT: usize = 39;

/// E(mask): how many of the 36 ordered rolls carry a checker past the blocked distances in `mask`
/// (bit d−1 set = the point d pips ahead is blocked). A roll (u, v) escapes when the point u + v
/// ahead is open and at least one of u and v is open; doubles are treated like any other pair.
pub(super) static ESCAPES: [u8; 4096] = escape_table(false);

/// E1(mask): like [`ESCAPES`] but counting only rolls whose total jumps past the nearest blocked
/// distance. **\[quirk\]** A mask with no block at all scores 0, not 36 (docs/ENGINE.md §Escape
/// counts).
pub(super) static ESCAPES_PAST_FIRST: [u8; 4096] = escape_table(true);

/// True when bit `d − 1` of `mask` is set (distance or point number `d`, 1-based).
const fn bit(mask: u32, d: u32) -> bool {
    mask & (1 << (d - 1)) != 0
}

const fn escape_table(past_first: bool) -> [u8; 4096] {
    let mut table = [0u8; 4096];
    let mut mask = 0u32;
    while mask < 4096 {
        // Distance of the nearest block; 0 when nothing blocks (only used with a block present).
        let first = mask.trailing_zeros() + 1;
        let mut count = 0u8;
        if !(past_first && mask == 0) {
            let mut u = 1;
            while u <= 6 {
                let mut v = 1;
                while v <= 6 {
                    if !bit(mask, u + v)
                        && (!bit(mask, u) || !bit(mask, v))
                        && (!past_first || u + v > first)
                    {
                        count += 1;
                    }
                    v += 1;
                }
                u += 1;
            }
        }
        table[mask as usize] = count;
        mask += 1;
    }
    table
}

/// The 12-bit mask of blocked distances in front of a checker at index `p` (0..=24, 24 = bar) of
/// its own side's numbering, given `made`, the blocking side's made points (bit i set when the
/// blocker has two or more checkers on its index i, i in 0..24). Bit d−1 is set when the point d
/// pips ahead is made, for d ≤ min(p, 12): the point d pips ahead is the blocker's index
/// 23 − p + d, and distances past the ace point or beyond 12 count as open.
#[inline]
pub(super) fn block_mask(made: u32, p: usize) -> usize {
    debug_assert!(p <= 24 && made < 1 << 24);
    ((made >> (24 - p)) as usize) & ((1 << p.min(12)) - 1)
}

/// One way a single checker can use (part of) a roll: move `distance` pips, touching down on the
/// intermediate distances `steps[..step_count]` first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Way {
    /// Total pips moved.
    pub distance: u8,
    /// Intermediate landing distances (unused entries are 0).
    pub steps: [u8; 3],
    /// How many entries of `steps` are used: 0 for a single die.
    pub step_count: u8,
    /// True when every intermediate point must be open (doubles), false when one open
    /// intermediate is enough (a non-double can play either die first).
    pub all_open: bool,
}

impl Way {
    /// True for a single-die ("direct") way.
    #[inline]
    pub fn is_direct(&self) -> bool {
        self.step_count == 0
    }

    /// The intermediate landing distances.
    #[inline]
    pub fn steps(&self) -> &[u8] {
        &self.steps[..self.step_count as usize]
    }
}

/// One of the 21 distinct rolls and the ways a single checker can play it, in gnubg's order:
/// non-double l < h: l, h, l + h; double d: d, 2d, 3d, 4d.
#[derive(Clone, Copy, Debug)]
pub(super) struct Roll {
    /// 1 for a double, 2 for a non-double (the number of ordered rolls it stands for).
    pub weight: u8,
    pub is_double: bool,
    /// Indices into [`ShotTables::ways`]; `ways[..way_count]` are used.
    pub ways: [u8; 4],
    pub way_count: u8,
    /// Bit w set for each way w of this roll, to skip rolls without any shot quickly.
    pub way_mask: u64,
}

impl Roll {
    /// The way indices of this roll, in order.
    #[inline]
    pub fn ways(&self) -> &[u8] {
        &self.ways[..self.way_count as usize]
    }
}

/// The ways and rolls of the shot heuristic. Ways 0..6 are the single dice 1..6, shared by every
/// roll containing that number; every combination (pattern, distance) is its own way.
#[derive(Debug)]
pub(super) struct ShotTables {
    pub ways: [Way; WAY_COUNT],
    pub rolls: [Roll; ROLL_COUNT],
}

/// The shot tables, enumerated from the 21 rolls at compile time.
pub(super) static SHOTS: ShotTables = shot_tables();

const fn shot_tables() -> ShotTables {
    let empty_way = Way {
        distance: 0,
        steps: [0; 3],
        step_count: 0,
        all_open: false,
    };
    let mut ways = [empty_way; WAY_COUNT];
    let mut die = 1u8;
    while die <= 6 {
        ways[die as usize - 1].distance = die;
        die += 1;
    }
    let mut rolls = [Roll {
        weight: 0,
        is_double: false,
        ways: [0; 4],
        way_count: 0,
        way_mask: 0,
    }; ROLL_COUNT];
    let mut next_way = 6;
    let mut next_roll = 0;
    let mut high = 1u8;
    while high <= 6 {
        let mut low = 1u8;
        while low <= high {
            let mut roll = Roll {
                weight: 0,
                is_double: false,
                ways: [0; 4],
                way_count: 0,
                way_mask: 0,
            };
            if low == high {
                roll.weight = 1;
                roll.is_double = true;
                roll.ways[0] = low - 1;
                let mut multiple = 2u8;
                while multiple <= 4 {
                    let mut steps = [0u8; 3];
                    let mut k = 1;
                    while k < multiple {
                        steps[k as usize - 1] = k * low;
                        k += 1;
                    }
                    ways[next_way] = Way {
                        distance: multiple * low,
                        steps,
                        step_count: multiple - 1,
                        all_open: true,
                    };
                    roll.ways[multiple as usize - 1] = next_way as u8;
                    next_way += 1;
                    multiple += 1;
                }
                roll.way_count = 4;
            } else {
                roll.weight = 2;
                roll.ways[0] = low - 1;
                roll.ways[1] = high - 1;
                ways[next_way] = Way {
                    distance: low + high,
                    steps: [low, high, 0],
                    step_count: 2,
                    all_open: false,
                };
                roll.ways[2] = next_way as u8;
                next_way += 1;
                roll.way_count = 3;
            }
            let mut i = 0;
            while i < roll.way_count as usize {
                roll.way_mask |= 1 << roll.ways[i];
                i += 1;
            }
            rolls[next_roll] = roll;
            next_roll += 1;
            low += 1;
        }
        high += 1;
    }
    assert!(next_way == WAY_COUNT && next_roll == ROLL_COUNT);
    ShotTables { ways, rolls }
}

/// `ENTER_LOSS[two][mask]`: pips lost by a side with one (`two` = 0) or at least two (`two` = 1)
/// checkers on the bar, summed over the 36 ordered rolls, against a home board whose made points
/// are `mask` (bit k−1 set = the opponent's k-point is made):
/// a blocked double k-k loses 4k; a non-double with both entry points blocked loses k + l per
/// order; with two or more on the bar, a non-double with one entry point blocked loses that die.
pub(super) static ENTER_LOSS: [[u16; 64]; 2] = [enter_loss_table(false), enter_loss_table(true)];

const fn enter_loss_table(two_on_bar: bool) -> [u16; 64] {
    let mut table = [0u16; 64];
    let mut mask = 0u32;
    while mask < 64 {
        let mut loss = 0u16;
        let mut k = 1u32;
        while k <= 6 {
            if bit(mask, k) {
                loss += 4 * k as u16;
            }
            let mut l = k + 1;
            while l <= 6 {
                if bit(mask, k) && bit(mask, l) {
                    loss += 2 * (k + l) as u16;
                } else if two_on_bar && bit(mask, k) {
                    loss += 2 * k as u16;
                } else if two_on_bar && bit(mask, l) {
                    loss += 2 * l as u16;
                }
                l += 1;
            }
            k += 1;
        }
        table[mask as usize] = loss;
        mask += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_table_corners() {
        assert_eq!(ESCAPES[0], 36);
        assert_eq!(ESCAPES_PAST_FIRST[0], 0);
        // Everything blocked: nothing escapes.
        assert_eq!(ESCAPES[4095], 0);
        // Only the point 1 pip ahead blocked: 1-1 fails (its only intermediate is blocked), every
        // other roll passes, and all of them jump past that first block.
        assert_eq!(ESCAPES[1], 35);
        assert_eq!(ESCAPES_PAST_FIRST[1], 35);
    }

    #[test]
    fn shot_tables_are_consistent() {
        let total: u32 = SHOTS.rolls.iter().map(|r| u32::from(r.weight)).sum();
        assert_eq!(total, 36);
        for roll in &SHOTS.rolls {
            let first = SHOTS.ways[roll.ways()[0] as usize];
            assert!(first.is_direct());
            for &w in roll.ways() {
                let way = SHOTS.ways[w as usize];
                assert!(way.distance >= 1 && way.distance <= 24);
                assert!(way.steps().iter().all(|&s| s > 0 && s < way.distance));
            }
        }
        // Every way object is used by some roll, and the single dice are shared.
        for w in 0..WAY_COUNT as u8 {
            let users = SHOTS.rolls.iter().filter(|r| r.ways().contains(&w)).count();
            assert_eq!(users, if w < 6 { 6 } else { 1 }, "way {w}");
        }
    }

    #[test]
    fn enter_loss_extremes() {
        assert_eq!(ENTER_LOSS[0][0], 0);
        assert_eq!(ENTER_LOSS[1][0], 0);
        // A closed board wastes every pip of every roll: 36 rolls × 49/6 pips.
        assert_eq!(ENTER_LOSS[0][63], 294);
        assert_eq!(ENTER_LOSS[1][63], 294);
    }
}
