//! Tables the input encoders look up, all built at compile time by `const fn`s (nothing is
//! allocated or initialised at run time).
//!
//! * [`ESCAPES`] and [`ESCAPES_PAST_FIRST`]: the escape counts E and E1 of docs/ENGINE.md
//!   §Escape counts, indexed by a 12-bit mask of blocked distances (see [`block_mask`]).
//! * [`ROLLS`]: the 21 distinct rolls and the distances of their ways, for the shot heuristic of
//!   PIPLOSS, P1 and P2 (docs/ENGINE.md §Shot ways and §Shot inputs).
//! * [`ENTER_LOSS`]: the pips a side on the bar wastes against each home board (ENTER of
//!   docs/ENGINE.md §Structure and timing inputs).

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

/// One of the 21 distinct rolls for the shot heuristic (docs/ENGINE.md §Shot ways).
#[derive(Clone, Copy, Debug)]
pub(super) struct Roll {
    /// The lower die.
    pub low: u32,
    /// The higher die (equal to `low` for a double).
    pub high: u32,
    /// 1 for a double, 2 for a non-double (the number of ordered rolls it stands for).
    pub weight: u32,
    /// Bit d set for the distance d of each of the roll's ways: l, h and l + h for a
    /// non-double, d, 2d, 3d and 4d for a double.
    pub distances: u32,
}

/// The 21 rolls, in the order (low, high) = (1, 1), (1, 2), (2, 2), (1, 3), ….
pub(super) static ROLLS: [Roll; 21] = rolls();

const fn rolls() -> [Roll; 21] {
    let mut rolls = [Roll {
        low: 0,
        high: 0,
        weight: 0,
        distances: 0,
    }; 21];
    let mut next = 0;
    let mut high = 1;
    while high <= 6 {
        let mut low = 1;
        while low <= high {
            rolls[next] = if low == high {
                Roll {
                    low,
                    high,
                    weight: 1,
                    distances: 1 << low | 1 << (2 * low) | 1 << (3 * low) | 1 << (4 * low),
                }
            } else {
                Roll {
                    low,
                    high,
                    weight: 2,
                    distances: 1 << low | 1 << high | 1 << (low + high),
                }
            };
            next += 1;
            low += 1;
        }
        high += 1;
    }
    rolls
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
    fn rolls_cover_the_36_ordered_rolls() {
        assert_eq!(ROLLS.iter().map(|r| r.weight).sum::<u32>(), 36);
        for (i, a) in ROLLS.iter().enumerate() {
            assert!(1 <= a.low && a.low <= a.high && a.high <= 6);
            assert_eq!(a.weight, if a.low == a.high { 1 } else { 2 });
            assert_eq!(
                a.distances.count_ones(),
                if a.low == a.high { 4 } else { 3 }
            );
            assert!(a.distances < 1 << 25);
            assert!(ROLLS[..i]
                .iter()
                .all(|b| (b.low, b.high) != (a.low, a.high)));
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
