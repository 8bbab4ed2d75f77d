//! The 25 hand-crafted inputs per side of the contact and crashed nets (docs/ENGINE.md §Extra
//! inputs and the sections after it).
//!
//! Everything is computed from two [`SideInfo`]s with integer arithmetic and bit masks; each
//! feature is converted to `f32` once, at the end. Notation follows docs/ENGINE.md §Notation: S is
//! the side the block describes, T the other side, `s[i]` / `t[i]` their checkers in their own
//! numbering.

use super::extra::*;
use super::tables::{block_mask, ENTER_LOSS, ESCAPES, ESCAPES_PAST_FIRST, ROLLS};
use crate::rules::position::{Position, BAR, OFF};

/// Bits 0..24: the 24 points of a side (the bar excluded).
const POINTS: u32 = (1 << 24) - 1;
/// Bit of the bar in a 25-bit mask of indices.
const BAR_BIT: u32 = 1 << 24;
/// Bits of the home board, indices 0..6.
const HOME: u32 = 0x3f;

/// What the features need to know about one side, gathered in one pass over the board.
#[derive(Clone, Copy, Debug)]
pub(super) struct SideInfo {
    /// Checkers per index: 0..=23 own points 1..=24, 24 the bar.
    pub n: [u8; 25],
    /// Bit i set when the side has made index i (two or more checkers), i in 0..24.
    pub made: u32,
    /// Bit i set when the side has a blot (exactly one checker) on index i, i in 0..24.
    pub blots: u32,
    /// Bit i set when index i (0..=24, bar included) holds a checker.
    pub occupied: u32,
    /// Bit i set when home point index i (0..6) holds exactly two checkers.
    pub home_pairs: u32,
    /// Highest occupied index (24 = on the bar); −1 when the side has no checker left.
    pub back: i32,
    /// Checkers still in play (board and bar).
    pub count: u32,
    /// Σ i · `n[i]` over indices 0..=24 (the pip count less `count`).
    pub index_sum: u32,
    /// Checkers borne off.
    pub off: u8,
}

impl SideInfo {
    const EMPTY: SideInfo = SideInfo {
        n: [0; 25],
        made: 0,
        blots: 0,
        occupied: 0,
        home_pairs: 0,
        back: -1,
        count: 0,
        index_sum: 0,
        off: 15,
    };

    /// Both sides of `position`: (player on roll, opponent), read straight off the signed board.
    pub fn both(position: &Position) -> (SideInfo, SideInfo) {
        let board = position.board();
        let mut player = SideInfo::EMPTY;
        let mut opponent = SideInfo::EMPTY;
        // Points 1..=24 as three words of eight signed counts (point 8w + k + 1 in byte k of
        // word w), split into each side's counts eight at a time.
        for w in 0..3 {
            let mut bytes = [0u8; 8];
            for (byte, &c) in bytes.iter_mut().zip(&board[1 + 8 * w..9 + 8 * w]) {
                *byte = c as u8;
            }
            let x = u64::from_le_bytes(bytes);
            // 1 in every byte holding a negative (opponent) count, and 0xff there.
            let negative = (x >> 7) & LOW_BITS;
            let fill = negative * 0xff;
            let mine = x & !fill;
            // Two's complement negation of the negative bytes only: !c + 1 stays in the byte.
            let theirs = ((x & fill) ^ fill) + negative;
            player.n[8 * w..8 * w + 8].copy_from_slice(&mine.to_le_bytes());
            // The opponent's index of point 8w + k + 1 is 23 − 8w − k: the word reversed.
            opponent.n[16 - 8 * w..24 - 8 * w].copy_from_slice(&theirs.swap_bytes().to_le_bytes());
        }
        player.n[24] = board[BAR].unsigned_abs();
        opponent.n[24] = board[OFF].unsigned_abs();
        player.summarise();
        opponent.summarise();
        (player, opponent)
    }

    /// Fills the masks and sums from `n`, eight indices at a time. A side has at most 15
    /// checkers, so every count, every per-byte sum below and every partial product fits in its
    /// byte without carrying into the next.
    #[inline]
    fn summarise(&mut self) {
        let (mut made, mut occupied, mut count, mut index_sum) = (0u32, 0u32, 0u32, 0u32);
        for w in 0..3 {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&self.n[8 * w..8 * w + 8]);
            let x = u64::from_le_bytes(bytes);
            // Adding 0x7f (0x7e) sets a byte's top bit exactly when its count is ≥ 1 (≥ 2).
            occupied |= top_bits(x.wrapping_add(LOW_BITS * 0x7f)) << (8 * w);
            let made_here = top_bits(x.wrapping_add(LOW_BITS * 0x7e));
            made |= made_here << (8 * w);
            if w == 0 {
                // Made but not holding three (0x7d: top bit set from 3 up).
                let three = top_bits(x.wrapping_add(LOW_BITS * 0x7d));
                self.home_pairs = made_here & !three & HOME;
            }
            // The top byte of x · Σ_j c_j 256^j is Σ_k byte_k · c_(7−k).
            let checkers = (x.wrapping_mul(LOW_BITS) >> 56) as u32;
            let weighted = (x.wrapping_mul(0x0001_0203_0405_0607) >> 56) as u32;
            count += checkers;
            index_sum += weighted + 8 * w as u32 * checkers;
        }
        let bar = u32::from(self.n[24]);
        occupied |= u32::from(bar > 0) << 24;
        self.made = made;
        self.blots = occupied & !made & POINTS;
        self.occupied = occupied;
        self.count = count + bar;
        debug_assert!(self.count <= u32::from(crate::rules::position::CHECKERS));
        self.index_sum = index_sum + 24 * bar;
        self.back = highest(occupied);
        self.off = 15u32.saturating_sub(self.count) as u8;
    }
}

/// 0x01 in every byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// The top bits of the eight bytes of `x`, as bits 0..8 (byte k's top bit to bit k).
#[inline]
fn top_bits(x: u64) -> u32 {
    // Bit 8k moves to bit 56 + k: multiplying by Σ_k 2^(56 − 7k) puts every one there without
    // two partial products ever meeting, so nothing carries.
    ((((x >> 7) & LOW_BITS).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u32
}

/// Index of the highest set bit, −1 for an empty mask.
#[inline]
fn highest(mask: u32) -> i32 {
    31 - mask.leading_zeros() as i32
}

/// Mask of the indices below `i` (bits 0..i); `i` may be negative (empty) or up to 32.
#[inline]
fn below(i: i32) -> u32 {
    match i {
        i if i <= 0 => 0,
        i if i >= 32 => u32::MAX,
        i => (1 << i) - 1,
    }
}

/// The indices of the set bits of a mask, lowest first.
struct Bits(u32);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// Maps a mask of one side's point indices (bits 0..24) to the same points in the other side's
/// numbering (index i ↦ 23 − i).
#[inline]
fn mirror(mask: u32) -> u32 {
    (mask & POINTS).reverse_bits() >> 8
}

/// Writes inputs 3..25 of S's block (everything but OFF1–3, which depend on the net).
pub(super) fn extras(s: &SideInfo, t: &SideInfo, out: &mut [f32; 25]) {
    let sn = &s.n;
    // T's rearmost checker in T's numbering (−1: T has nothing left) and in S's numbering, q.
    let r_t = t.back;
    let q = 23 - r_t;

    // BREAK_CONTACT: pips for each S checker behind T's rearmost checker (S index > q) to pass
    // it, Σ_{i > q} (i + 1 − q)·s[i]. If T is on the bar (q = −1) every S checker counts.
    // FREEPIP: S's pips in front of T's rearmost checker, Σ_{i < q} (i + 1)·s[i]. S has no
    // checker on index q itself (T holds it; only when T has no checker left is q = 24, S's
    // bar), so the two split S's pips Σ (i + 1)·s[i] and one loop over the (usually few)
    // checkers behind q gives both.
    let (mut behind_pips, mut behind) = (0u32, 0u32);
    for i in Bits(s.occupied & !below(q + 1)) {
        behind_pips += (i as u32 + 1) * u32::from(sn[i]);
        behind += u32::from(sn[i]);
    }
    let break_contact = behind_pips as i32 - q * behind as i32;
    let on_q = if q == 24 { 25 * u32::from(sn[24]) } else { 0 };
    let free_pips = s.index_sum + s.count - behind_pips - on_q;
    out[BREAK_CONTACT] = break_contact as f32 * (1.0 / 167.0);
    out[FREEPIP] = free_pips as f32 * 0.01;

    // BACK_CHEQUER. An empty side (a finished game, never fed to a net) reads as 0.
    out[BACK_CHEQUER] = s.back.max(0) as f32 * (1.0 / 24.0);

    // BACK_ANCHOR: the rearmost made point is the highest made index, since every index above
    // the rearmost checker is empty. [quirk] −1/24 when no point is made.
    out[BACK_ANCHOR] = highest(s.made) as f32 * (1.0 / 24.0);

    // FORWARD_ANCHOR: the lowest made point in T's home board (S indices 18..=23), else the
    // highest made point among S indices 12..=17, else "none" = 2.
    let in_t_home = s.made & (HOME << 18);
    let in_t_outfield = s.made & (HOME << 12);
    out[FORWARD_ANCHOR] = if in_t_home != 0 {
        (24 - in_t_home.trailing_zeros()) as f32 * (1.0 / 6.0)
    } else if in_t_outfield != 0 {
        (24 - highest(in_t_outfield)) as f32 * (1.0 / 6.0)
    } else {
        2.0
    };

    let (pip_loss, p1, p2) = shots(s, t);
    out[PIPLOSS] = pip_loss as f32 * (1.0 / 432.0);
    out[P1] = p1 as f32 * (1.0 / 36.0);
    out[P2] = p2 as f32 * (1.0 / 36.0);

    // Escapes of T's rearmost checker through S's points, and S's containment of T.
    let containment = Containment::new(s.made);
    let r_t_index = r_t.max(0) as usize;
    out[BACKESCAPES] = f32::from(containment.escapes(r_t_index)) * (1.0 / 36.0);
    // [quirk] BACKRESCAPES is 0, not 1, when nothing blocks T's rearmost checker.
    out[BACKRESCAPES] = f32::from(ESCAPES_PAST_FIRST[block_mask(s.made, r_t_index)]) * (1.0 / 36.0);
    let acontain = f32::from(36 - containment.acontain_min(r_t)) * (1.0 / 36.0);
    let contain = f32::from(36 - containment.contain_min()) * (1.0 / 36.0);
    out[ACONTAIN] = acontain;
    out[ACONTAIN2] = acontain * acontain;
    out[CONTAIN] = contain;
    out[CONTAIN2] = contain * contain;

    // MOBILITY: S's checkers outside its home board, weighted by distance to home and escapes.
    let mut mobility = 0u32;
    for i in Bits(s.occupied & !HOME) {
        let escapes = u32::from(ESCAPES[block_mask(t.made, i)]);
        mobility += (i as u32 - 5) * u32::from(sn[i]) * escapes;
    }
    out[MOBILITY] = mobility as f32 * (1.0 / 3600.0);

    out[MOMENT2] = moment2(s) as f32 * (1.0 / 400.0);

    // ENTER / ENTER2 against T's home board (bit k−1 = T's k-point made).
    let t_home = (t.made & HOME) as usize;
    out[ENTER] = match sn[24] {
        0 => 0.0,
        1 => f32::from(ENTER_LOSS[0][t_home]) * (1.0 / 294.0),
        _ => f32::from(ENTER_LOSS[1][t_home]) * (1.0 / 294.0),
    };
    // [quirk] Computed whether or not S is on the bar.
    let open = 6 - t_home.count_ones();
    out[ENTER2] = (36 - open * open) as f32 * (1.0 / 36.0);

    out[TIMING] = timing(s, q) as f32 * 0.01;
    out[BACKBONE] = backbone(s.made);

    // BACKG / BACKG1: anchors in T's home board and S's checkers there (bar included).
    let anchors = (s.made >> 18).count_ones();
    let (backg, backg1) = if anchors == 0 {
        (0.0, 0.0)
    } else {
        let back_checkers: u32 = sn[18..=24].iter().map(|&c| u32::from(c)).sum();
        if anchors == 1 {
            (0.0, back_checkers as f32 * 0.125)
        } else {
            ((back_checkers as f32 - 3.0) * 0.25, 0.0)
        }
    };
    out[BACKG] = backg;
    out[BACKG1] = backg1;
}

/// E_S(p) for p = 15..=23 (a T checker on T's index p, on one of S's points 1..9) and their
/// running minimum, for BACKESCAPES, ACONTAIN and CONTAIN (docs/ENGINE.md §Containment and
/// mobility inputs).
struct Containment {
    /// S's made points.
    made: u32,
    /// `escapes[k]` = E_S(15 + k).
    escapes: [u8; 9],
    /// `least[k]` = min E_S(p) over 15 ≤ p ≤ 15 + k.
    least: [u8; 9],
}

impl Containment {
    #[inline]
    fn new(made: u32) -> Containment {
        let mut escapes = [0u8; 9];
        let mut least = [0u8; 9];
        let mut run = 36;
        for (k, (e, m)) in escapes.iter_mut().zip(&mut least).enumerate() {
            *e = ESCAPES[block_mask(made, 15 + k)];
            run = run.min(*e);
            *m = run;
        }
        Containment {
            made,
            escapes,
            least,
        }
    }

    /// E_S(p) for any p in 0..=24.
    #[inline]
    fn escapes(&self, p: usize) -> u8 {
        match p {
            15..=23 => self.escapes[p - 15],
            _ => ESCAPES[block_mask(self.made, p)],
        }
    }

    /// Least E_S(p) over 15 ≤ p ≤ r_T (36 for an empty range; the bar included when T is on it).
    #[inline]
    fn acontain_min(&self, r_t: i32) -> u8 {
        match r_t {
            15..=23 => self.least[r_t as usize - 15],
            24 => self.least[8].min(ESCAPES[block_mask(self.made, 24)]),
            _ => 36,
        }
    }

    /// Least E_S(p) over 15 ≤ p ≤ 23.
    #[inline]
    fn contain_min(&self) -> u8 {
        self.least[8]
    }
}

/// MOMENT2 numerator: ⌈M / N⁺⌉ where M sums (i − μ)² over the checkers above μ = ⌈mean index⌉.
fn moment2(s: &SideInfo) -> u32 {
    if s.count == 0 {
        return 0;
    }
    let mean = s.index_sum.div_ceil(s.count) as i32;
    let (mut above, mut moment) = (0u32, 0u32);
    for i in Bits(s.occupied & !below(mean + 1)) {
        let d = i as u32 - mean as u32;
        let c = u32::from(s.n[i]);
        above += c;
        moment += c * d * d;
    }
    if above == 0 {
        0
    } else {
        moment.div_ceil(above)
    }
}

/// TIMING numerator (docs/ENGINE.md §Structure and timing inputs): pips the free checkers can play,
/// weighting a checker on index i by i, after filling the home board to two checkers a point. Never
/// negative: a home point only consumes checkers counted earlier at a higher index.
fn timing(s: &SideInfo, q: i32) -> i32 {
    let sn = &s.n;
    let m = q.clamp(11, 23);
    let bar = i32::from(sn[24]);
    let mut pips = 24 * bar;
    let mut free = bar;
    // Beyond the midpoint and T's rearmost checker: a 2-checker point is an anchor S keeps, a
    // blot is free, a stack frees all but two.
    for i in Bits(s.occupied & POINTS & !below(m + 1)) {
        let n = i32::from(sn[i]);
        let spare = if n == 1 { 1 } else { n - 2 };
        free += spare;
        pips += spare * i as i32;
    }
    // Between the home board and there, every checker is free.
    for i in Bits(s.occupied & below(m + 1) & !HOME) {
        let n = i32::from(sn[i]);
        free += n;
        pips += n * i as i32;
    }
    // Home board, from the 6-point down: spares are free; a point short of two checkers takes
    // free ones if there are enough.
    for i in (0..=5).rev() {
        let n = i32::from(sn[i]);
        if n > 2 {
            free += n - 2;
            pips += (n - 2) * i as i32;
        } else if free >= 2 - n {
            free -= 2 - n;
            pips -= (2 - n) * i as i32;
        }
    }
    pips
}

/// BACKBONE (docs/ENGINE.md §Structure and timing inputs). **\[quirk\]** Every distance is measured
/// from the rearmost made point r (ace point and bar excluded), not between consecutive points;
/// gnubg also multiplies the terms and the normaliser by `s[r]`, which cancels and is left out
/// here.
fn backbone(made: u32) -> f32 {
    let candidates = made & POINTS & !1;
    if candidates == 0 {
        return 0.0;
    }
    let r = highest(candidates);
    let others = candidates & !(1 << r);
    if others == 0 {
        return 0.0;
    }
    // Weight of a made point d pips in front of r: 11 up to 6 pips, then 13 − d, 0 from 13 on.
    const WEIGHT: [u8; 24] = {
        let mut table = [0u8; 24];
        let mut d = 1;
        while d < 24 {
            table[d] = if d <= 6 {
                11
            } else if d <= 11 {
                13 - d as u8
            } else {
                0
            };
            d += 1;
        }
        table
    };
    let mut weight = 0i32;
    for x in Bits(others) {
        weight += i32::from(WEIGHT[r as usize - x]);
    }
    1.0 - weight as f32 / (11 * others.count_ones()) as f32
}

/// PIPLOSS, P1 and P2 numerators (docs/ENGINE.md §Shot inputs): Σ_ρ w_ρ·loss(ρ), Σ_ρ w_ρ·[hits ≥ 1]
/// and Σ_ρ w_ρ·[hits ≥ 2] over the 21 rolls ρ, for S's shots at T's blots.
fn shots(s: &SideInfo, t: &SideInfo) -> (u32, u32, u32) {
    // Targets: T's blots, in S's numbering. With at most two made home points S would not hit
    // on its own 1- and 2-points (T's 24- and 23-points, T indices 23 and 22). This is the
    // 2024 (weights 1.01) rule; before, gnubg counted occupied rather than made points.
    let mut blots_t = t.blots;
    if (s.made & HOME).count_ones() <= 2 {
        blots_t &= !(0b11 << 22);
    }
    if blots_t == 0 {
        return (0, 0, 0);
    }
    let targets = mirror(blots_t);
    // Hitters: every occupied index but a home point held by exactly two checkers.
    let hitters = s.occupied & !s.home_pairs;
    // Checkers only move forward (to lower indices): nothing above the lowest target, no shot.
    if hitters >> (targets.trailing_zeros() + 1) == 0 {
        return (0, 0, 0);
    }
    let shots = Shots {
        hitters,
        targets,
        blocked: mirror(t.made),
        t_blots: mirror(t.blots),
        t_made_own: t.made,
        t_blots_own: t.blots,
    };
    // Bit d set when some hitter is d pips above some target: rolls with no way of such a
    // distance cannot hit and are skipped.
    let mut distances = 0u32;
    for b in Bits(targets) {
        distances |= hitters >> b;
    }
    let live = ROLLS.iter().filter(|roll| roll.distances & distances != 0);
    let (mut pip_loss, mut p1, mut p2) = (0, 0, 0);
    let mut tally = |weight: u32, (hits, loss): (u32, u32)| {
        pip_loss += weight * loss;
        if hits >= 1 {
            p1 += weight;
        }
        if hits >= 2 {
            p2 += weight;
        }
    };
    match s.n[24] {
        0 => live.for_each(|r| tally(r.weight, shots.off_bar(&s.n, r.low, r.high))),
        1 => live.for_each(|r| tally(r.weight, shots.one_on_bar(r.low, r.high))),
        _ => live.for_each(|r| tally(r.weight, shots.several_on_bar(r.low, r.high))),
    }
    (pip_loss, p1, p2)
}

/// The masks the shot heuristic works on, all 25-bit masks of indices. Each roll's ways
/// (docs/ENGINE.md §Shot ways) are evaluated in its own function below, returning
/// `(hits, loss)` of step 3 of docs/ENGINE.md §Shot inputs.
struct Shots {
    /// S's hitters (S numbering, bar = 24).
    hitters: u32,
    /// T's eligible blots (S numbering).
    targets: u32,
    /// T's made points (S numbering).
    blocked: u32,
    /// All of T's blots (S numbering).
    t_blots: u32,
    /// T's made points in T's numbering (the entry test of one checker on the bar).
    t_made_own: u32,
    /// T's blots in T's numbering (the \[quirk\] blot test of one checker on the bar).
    t_blots_own: u32,
}

impl Shots {
    /// A(w) before the path test: hitters `d` pips above an eligible target. Shifted-out
    /// bits (≥ 32) would be indices above the bar, so nothing is lost.
    #[inline]
    fn reach(&self, d: u32) -> u32 {
        self.hitters & (self.targets << d)
    }

    /// Hitters whose intermediate point `x` pips ahead (S index j − x) is made by T.
    #[inline]
    fn blocked_at(&self, x: u32) -> u32 {
        self.blocked << x
    }

    /// Hitters with a T blot `x` pips ahead.
    #[inline]
    fn blot_at(&self, x: u32) -> u32 {
        self.t_blots << x
    }

    /// S not on the bar, roll (l, h) with l ≤ h.
    #[inline]
    fn off_bar(&self, n: &[u8; 25], l: u32, h: u32) -> (u32, u32) {
        let (mut hits, mut loss) = (0u32, 0u32);
        // Direct ways: l (and h for a non-double).
        let a = self.reach(l);
        let mut last = usize::MAX;
        if a != 0 {
            let k = highest(a) as u32;
            loss = k + 1 - l;
            hits = 1;
            last = k as usize;
            // A double can hit with two different checkers.
            if l == h && a & (a - 1) != 0 {
                hits += 1;
            }
        }
        if l != h {
            let a = self.reach(h);
            if a != 0 {
                let k = highest(a) as usize;
                loss = loss.max(k as u32 + 1 - h);
                // One lone checker cannot hit twice.
                if k != last || n[k] != 1 {
                    hits += 1;
                }
            }
            // Both dice: at least one of the two intermediate points must be open.
            let closed = self.blocked_at(l) & self.blocked_at(h);
            let on_the_way = self.blot_at(l) | self.blot_at(h);
            combined(
                self.reach(l + h) & !closed,
                l + h,
                on_the_way,
                &mut hits,
                &mut loss,
            );
        } else {
            // Doubles: 2d, 3d and 4d with every intermediate point open.
            let (mut closed, mut on_the_way) = (0, 0);
            for m in 2..=4 {
                closed |= self.blocked_at((m - 1) * l);
                on_the_way |= self.blot_at((m - 1) * l);
                combined(
                    self.reach(m * l) & !closed,
                    m * l,
                    on_the_way,
                    &mut hits,
                    &mut loss,
                );
            }
        }
        (hits, loss)
    }

    /// One S checker on the bar, roll (l, h) with l ≤ h.
    #[inline]
    fn one_on_bar(&self, l: u32, h: u32) -> (u32, u32) {
        let (mut hits, mut loss) = (0u32, 0u32);
        // Set once a checker on the board has hit and the other die is needed to enter.
        let mut entering_die_used = false;
        // The other listed way's distance is the die that must enter. [quirk] For a double that
        // is the 2d combination, so gnubg tests T's 2d-point rather than its d-point.
        let (first_entry, second) = if l == h { (2 * l, None) } else { (h, Some(h)) };
        let mut direct = |a: u32, d: u32, entry: u32| {
            if a & BAR_BIT != 0 {
                hits += 1;
                loss = loss.max(25 - d);
            }
            let board = a & POINTS;
            let entry_closed = self.t_made_own & (1 << (entry - 1)) != 0;
            if board != 0 && !entering_die_used && !entry_closed {
                entering_die_used = true;
                hits += 1;
                loss = loss.max(highest(board) as u32 + 1 - d);
            }
        };
        direct(self.reach(l), l, first_entry);
        if let Some(h) = second {
            direct(self.reach(h), h, l);
        }
        // Combined ways count only when the bar checker enters and hits. [quirk] gnubg looks
        // for a blot on the way at T index x + 1, two pips beyond the real intermediate point
        // (T index x − 1).
        let mut enter_and_hit = |a: u32, d: u32, quirk_blot: bool| {
            if a & BAR_BIT != 0 {
                hits = hits.max(1);
                loss = loss.max(25 - d);
                if quirk_blot {
                    hits += 1;
                }
            }
        };
        let quirk_blot_at = |x: u32| self.t_blots_own & (1 << (x + 1)) != 0;
        if l != h {
            let closed = self.blocked_at(l) & self.blocked_at(h);
            let quirk = quirk_blot_at(l) || quirk_blot_at(h);
            enter_and_hit(self.reach(l + h) & !closed, l + h, quirk);
        } else {
            let (mut closed, mut quirk) = (0, false);
            for m in 2..=4 {
                closed |= self.blocked_at((m - 1) * l);
                quirk |= quirk_blot_at((m - 1) * l);
                enter_and_hit(self.reach(m * l) & !closed, m * l, quirk);
            }
        }
        (hits, loss)
    }

    /// Two or more S checkers on the bar: only the first two listed ways, only direct, only
    /// from the bar (for a double the second way is the 2d combination, which never counts).
    #[inline]
    fn several_on_bar(&self, l: u32, h: u32) -> (u32, u32) {
        let (mut hits, mut loss) = (0u32, 0u32);
        let dice: &[u32] = if l == h { &[l] } else { &[l, h] };
        for &d in dice {
            if self.reach(d) & BAR_BIT != 0 {
                hits += 1;
                loss = loss.max(25 - d);
            }
        }
        (hits, loss)
    }
}

/// A combined way of distance `d` from the hitters `a`, S not on the bar: the highest hitter
/// hits (`hits = max(hits, 1)`) and one more hit is counted when a T blot sits on its path
/// (`on_the_way`: hitters with a T blot on one of the way's intermediate points).
#[inline]
fn combined(a: u32, d: u32, on_the_way: u32, hits: &mut u32, loss: &mut u32) {
    if a != 0 {
        let k = highest(a) as u32;
        *loss = (*loss).max(k + 1 - d);
        *hits = (*hits).max(1);
        if on_the_way & (1 << k) != 0 {
            *hits += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    //! A slow, literal transcription of docs/ENGINE.md §Extra inputs (and the sections after it) on
    //! plain arrays (no bit masks, no tables), compared with the fast implementation on many random
    //! positions.

    use super::super::extra::*;
    use super::super::tests::arbitrary_position;
    use super::super::{contact_inputs, CONTACT_INPUTS, EXTRAS_ON_ROLL, EXTRAS_OPPONENT};
    use super::*;
    use crate::rules::position::Side;
    use proptest::prelude::*;

    /// E_B(p) (or E1_B(p) with `past_first`) of docs/ENGINE.md §Escape counts, for a checker at
    /// index p of its own side against the blocking side's board `b`.
    fn escapes(b: &[u8; 25], p: usize, past_first: bool) -> u32 {
        let blk = |d: usize| d <= p.min(12) && b[23 + d - p] >= 2;
        let first = (1..=12).find(|&d| blk(d));
        if past_first && first.is_none() {
            return 0;
        }
        let mut count = 0;
        for u in 1..=6 {
            for v in 1..=6 {
                if !blk(u + v)
                    && (!blk(u) || !blk(v))
                    && (!past_first || u + v > first.unwrap_or(0))
                {
                    count += 1;
                }
            }
        }
        count
    }

    struct Way {
        distance: usize,
        intermediates: Vec<usize>,
        all_required: bool,
        direct: bool,
    }

    /// The single-checker ways of roll (l, h), l ≤ h, in the order of docs/ENGINE.md §Shot ways.
    fn ways(l: usize, h: usize) -> Vec<Way> {
        let direct = |d| Way {
            distance: d,
            intermediates: vec![],
            all_required: true,
            direct: true,
        };
        if l == h {
            let mut list = vec![direct(l)];
            for m in 2..=4 {
                list.push(Way {
                    distance: m * l,
                    intermediates: (1..m).map(|k| k * l).collect(),
                    all_required: true,
                    direct: false,
                });
            }
            list
        } else {
            vec![
                direct(l),
                direct(h),
                Way {
                    distance: l + h,
                    intermediates: vec![l, h],
                    all_required: false,
                    direct: false,
                },
            ]
        }
    }

    /// (Σ w·loss, Σ w·[hits ≥ 1], Σ w·[hits ≥ 2]) of docs/ENGINE.md §Shot inputs.
    fn shots(s: &[u8; 25], t: &[u8; 25]) -> (u32, u32, u32) {
        let home_made = (0..6).filter(|&i| s[i] >= 2).count();
        let eligible_blot = |beta: usize| {
            let ti = 23 - beta;
            t[ti] == 1 && !(home_made <= 2 && ti >= 22)
        };
        let hitter = |j: usize| s[j] > 0 && !(j < 6 && s[j] == 2);
        let hitters_of = |way: &Way| -> Vec<usize> {
            (0..25)
                .filter(|&j| {
                    if !hitter(j) || j < way.distance || !eligible_blot(j - way.distance) {
                        return false;
                    }
                    let open = |x: &usize| t[23 - (j - x)] < 2;
                    way.direct
                        || if way.all_required {
                            way.intermediates.iter().all(open)
                        } else {
                            way.intermediates.iter().any(open)
                        }
                })
                .collect()
        };
        let (mut pip_loss, mut p1, mut p2) = (0, 0, 0);
        for l in 1..=6 {
            for h in l..=6 {
                let ways = ways(l, h);
                let (mut hits, mut loss) = (0u32, 0usize);
                match s[24] {
                    0 => {
                        let mut last = None;
                        for way in &ways {
                            let a = hitters_of(way);
                            let Some(&k) = a.last() else { continue };
                            let d = way.distance;
                            loss = loss.max(k - d + 1);
                            if way.direct {
                                if !(last == Some(k) && s[k] == 1) {
                                    hits += 1;
                                }
                                last = Some(k);
                                if l == h && a.iter().any(|&j| j != k) {
                                    hits += 1;
                                }
                            } else {
                                hits = hits.max(1);
                                if way.intermediates.iter().any(|&x| t[23 - (k - x)] == 1) {
                                    hits += 1;
                                }
                            }
                        }
                    }
                    1 => {
                        let mut committed = false;
                        for (index, way) in ways.iter().enumerate() {
                            let a = hitters_of(way);
                            if a.is_empty() {
                                continue;
                            }
                            let d = way.distance;
                            if way.direct {
                                let e = ways[1 - index].distance;
                                for &k in a.iter().rev() {
                                    if k != 24 {
                                        if committed || t[e - 1] >= 2 {
                                            break;
                                        }
                                        committed = true;
                                    }
                                    hits += 1;
                                    loss = loss.max(k - d + 1);
                                }
                            } else if a.contains(&24) {
                                hits = hits.max(1);
                                loss = loss.max(25 - d);
                                if way.intermediates.iter().any(|&x| t[x + 1] == 1) {
                                    hits += 1;
                                }
                            }
                        }
                    }
                    _ => {
                        for way in &ways[..2] {
                            if way.direct && hitters_of(way).contains(&24) {
                                hits += 1;
                                loss = loss.max(25 - way.distance);
                            }
                        }
                    }
                }
                let w = if l == h { 1 } else { 2 };
                pip_loss += w * loss as u32;
                p1 += w * u32::from(hits >= 1);
                p2 += w * u32::from(hits >= 2);
            }
        }
        (pip_loss, p1, p2)
    }

    /// Inputs 3..25 of S's block, straight from the definitions (OFF1–3 left at 0).
    fn reference(s: &[u8; 25], t: &[u8; 25]) -> [f64; 25] {
        let mut out = [0.0; 25];
        let r_t = (0..25).rev().find(|&i| t[i] > 0).map_or(-1, |i| i as i32);
        let q = 23 - r_t;
        let sc = |i: i32| i32::from(s[i as usize]);

        let bc: i32 = ((q + 1).max(0)..=24).map(|i| (i + 1 - q) * sc(i)).sum();
        out[BREAK_CONTACT] = f64::from(bc) / 167.0;

        let b = (0..25).rev().find(|&i| s[i] > 0).unwrap_or(0);
        out[BACK_CHEQUER] = b as f64 / 24.0;
        let start = if b == 24 { 23 } else { b };
        let a = (0..=start)
            .rev()
            .find(|&i| s[i] >= 2)
            .map_or(-1, |i| i as i32);
        out[BACK_ANCHOR] = f64::from(a) / 24.0;

        let mut n = (18..=a.max(17) as usize)
            .find(|&j| s[j] >= 2)
            .map(|j| 24 - j);
        if n.is_none() {
            n = (12..=17).rev().find(|&j| s[j] >= 2).map(|j| 24 - j);
        }
        out[FORWARD_ANCHOR] = n.map_or(2.0, |n| n as f64 / 6.0);

        let (pip_loss, p1, p2) = shots(s, t);
        out[PIPLOSS] = f64::from(pip_loss) / 432.0;
        out[P1] = f64::from(p1) / 36.0;
        out[P2] = f64::from(p2) / 36.0;

        let rt = r_t.max(0) as usize;
        out[BACKESCAPES] = f64::from(escapes(s, rt, false)) / 36.0;
        out[BACKRESCAPES] = f64::from(escapes(s, rt, true)) / 36.0;
        let m_a = (15..=rt).map(|p| escapes(s, p, false)).min().unwrap_or(36);
        out[ACONTAIN] = f64::from(36 - m_a) / 36.0;
        out[ACONTAIN2] = out[ACONTAIN] * out[ACONTAIN];
        let m_c = (15..=23).map(|p| escapes(s, p, false)).min().unwrap();
        out[CONTAIN] = f64::from(36 - m_c) / 36.0;
        out[CONTAIN2] = out[CONTAIN] * out[CONTAIN];

        let mobility: u32 = (6..=24)
            .map(|i| (i as u32 - 5) * u32::from(s[i]) * escapes(t, i, false))
            .sum();
        out[MOBILITY] = f64::from(mobility) / 3600.0;

        let count: i32 = (0..25).map(sc).sum();
        if count > 0 {
            let sum: i32 = (0..25).map(|i| i * sc(i)).sum();
            let mu = (sum + count - 1) / count;
            let above: i32 = (mu + 1..25).map(sc).sum();
            let m: i32 = (mu + 1..25).map(|i| sc(i) * (i - mu) * (i - mu)).sum();
            let m = if above > 0 {
                (m + above - 1) / above
            } else {
                0
            };
            out[MOMENT2] = f64::from(m) / 400.0;
        }

        if s[24] > 0 {
            let c = |k: usize| u32::from(t[k - 1] >= 2);
            let two = u32::from(s[24] >= 2);
            let mut loss = 0;
            for k in 1..=6 {
                loss += c(k) * 4 * k as u32;
                for l in k + 1..=6 {
                    loss += c(k) * c(l) * 2 * (k + l) as u32;
                    loss +=
                        two * (c(k) * (1 - c(l)) * 2 * k as u32 + (1 - c(k)) * c(l) * 2 * l as u32);
                }
            }
            out[ENTER] = f64::from(loss) / 294.0;
        }
        let closed = (0..6).filter(|&i| t[i] >= 2).count() as f64;
        out[ENTER2] = 1.0 - (1.0 - closed / 6.0).powi(2);

        let m = q.max(11) as usize;
        let (mut tp, mut c) = (24 * sc(24), sc(24));
        for i in (m + 1..=23).rev() {
            let free = match s[i] {
                2 => 0,
                1 => 1,
                n => (i32::from(n) - 2).max(0),
            };
            c += free;
            tp += free * i as i32;
        }
        for i in (6..=m.min(23)).rev() {
            c += sc(i as i32);
            tp += sc(i as i32) * i as i32;
        }
        for i in (0..=5).rev() {
            let n = sc(i);
            if n > 2 {
                tp += i * (n - 2);
                c += n - 2;
            } else if c >= 2 - n {
                tp -= i * (2 - n);
                c -= 2 - n;
            }
        }
        out[TIMING] = f64::from(tp) / 100.0;

        if let Some(r) = (1..=23).rev().find(|&i| s[i] >= 2) {
            let others: Vec<usize> = (1..r).filter(|&x| s[x] >= 2).collect();
            if !others.is_empty() {
                let omega: usize = others
                    .iter()
                    .map(|&x| match r - x {
                        d if d <= 6 => 11,
                        d if d <= 11 => 13 - d,
                        _ => 0,
                    })
                    .sum();
                out[BACKBONE] = 1.0 - omega as f64 / (11 * others.len()) as f64;
            }
        }

        let anchors = (18..=23).filter(|&i| s[i] >= 2).count();
        let w: i32 = (18..=24).map(sc).sum();
        match anchors {
            0 => {}
            1 => out[BACKG1] = f64::from(w) / 8.0,
            _ => out[BACKG] = f64::from(w - 3) / 4.0,
        }

        let free_pips: i32 = (0..q.clamp(0, 24)).map(|i| (i + 1) * sc(i)).sum();
        out[FREEPIP] = f64::from(free_pips) / 100.0;
        out
    }

    /// Compares both extras blocks of `position` with the reference.
    fn compare(position: &Position) -> Result<(), TestCaseError> {
        let mut out = [0.0; CONTACT_INPUTS];
        contact_inputs(position, &mut out);
        let player = position.side(Side::Player);
        let opponent = position.side(Side::Opponent);
        for (start, s, t) in [
            (EXTRAS_ON_ROLL, &player, &opponent),
            (EXTRAS_OPPONENT, &opponent, &player),
        ] {
            let expected = reference(s, t);
            for i in OFF3 + 1..25 {
                let got = f64::from(out[start + i]);
                prop_assert!(
                    (got - expected[i]).abs() <= 1e-6 * expected[i].abs().max(1.0),
                    "input {} of block {start} of {position:?}: got {got}, expected {}",
                    i,
                    expected[i]
                );
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// The word-at-a-time summaries equal the plain per-index definitions.
        #[test]
        fn side_info_matches_the_board(position in arbitrary_position()) {
            let (player, opponent) = SideInfo::both(&position);
            for (info, side) in [(player, Side::Player), (opponent, Side::Opponent)] {
                let n = position.side(side);
                prop_assert_eq!(info.n, n);
                let mask = |f: &dyn Fn(usize) -> bool, to: usize| {
                    (0..to).filter(|&i| f(i)).fold(0u32, |m, i| m | 1 << i)
                };
                prop_assert_eq!(info.made, mask(&|i| n[i] >= 2, 24));
                prop_assert_eq!(info.blots, mask(&|i| n[i] == 1, 24));
                prop_assert_eq!(info.occupied, mask(&|i| n[i] > 0, 25));
                prop_assert_eq!(info.home_pairs, mask(&|i| n[i] == 2, 6));
                let count: u32 = n.iter().map(|&c| u32::from(c)).sum();
                prop_assert_eq!(info.count, count);
                let index_sum: u32 = (0..25).map(|i| i as u32 * u32::from(n[i])).sum();
                prop_assert_eq!(info.index_sum, index_sum);
                prop_assert_eq!(info.back, (0..25).rev().find(|&i| n[i] > 0).map_or(-1, |i| i as i32));
                prop_assert_eq!(u32::from(info.off), 15 - count);
            }
        }

        /// The fast features equal the literal definitions on arbitrary positions (bar cases,
        /// several checkers on the bar, blots everywhere included).
        #[test]
        fn matches_the_literal_definitions(position in arbitrary_position()) {
            compare(&position)?;
        }
    }

    #[test]
    fn matches_on_corpus_positions() {
        let text = cubeful_testkit::read_shared("data/movegen/contact_ids.txt");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let p = crate::formats::ids::position_id::decode(line).expect("valid id");
            compare(&p).unwrap();
            compare(&p.swap()).unwrap();
        }
    }
}
