//! The race net's per-side block (docs/ENGINE.md §Race encoding): 23 points × 4, 14 "checkers off"
//! one-hot inputs and 1 cross-over input, 107 inputs in all.

use super::contact::SideInfo;
use super::POINT_CODE;

/// Inputs per side in the race net.
pub(super) const RACE_SIDE_INPUTS: usize = 107;

/// Writes one side's race block (`side.n` is gnubg's layout: index 0..=23 own points 1..=24, 24
/// bar). Only points 1..=23 are encoded: in a race no checker can be on its own
/// 24-point or on the bar, so if this is ever called on a contact position those two slots get no
/// point inputs (the 24-point still counts in the cross-over, the bar does not).
pub(super) fn race_side(side: &SideInfo, out: &mut [f32; RACE_SIDE_INPUTS]) {
    let n = &side.n;
    let (points, rest) = out.split_at_mut(92);
    for (slot, &c) in points.chunks_exact_mut(4).zip(&n[..23]) {
        slot.copy_from_slice(&POINT_CODE[usize::from(c)]);
    }
    let (off_inputs, cross) = rest.split_at_mut(14);
    // Checkers off, one-hot: input k is set when k + 1 checkers are off; 0 off (and the
    // impossible 15 off of a finished game) sets nothing.
    off_inputs.fill(0.0);
    let off = usize::from(side.off);
    if (1..=14).contains(&off) {
        off_inputs[off - 1] = 1.0;
    }
    // Cross-overs: quadrant boundaries still to cross before all checkers are home, over 10.
    let crossings: u32 = n[..24]
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 / 6) * u32::from(c))
        .sum();
    cross[0] = crossings as f32 / 10.0;
}
