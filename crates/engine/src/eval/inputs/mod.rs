//! Input encoding of the evaluation nets: GNU Backgammon's contact, crashed and race inputs,
//! re-derived from their definitions in docs/ENGINE.md §Inputs (cited below by section).
//!
//! Every encoder sees the position from the player on roll (gnubg's side 1) and lists the
//! opponent (side 0) first in the base encoding:
//!
//! | net | inputs | layout |
//! |---|---|---|
//! | contact, crashed | [`CONTACT_INPUTS`] = 250 | 0..100 opponent base, 100..200 on-roll base, 200..225 on-roll extras ([`EXTRAS_ON_ROLL`]), 225..250 opponent extras ([`EXTRAS_OPPONENT`]) |
//! | race | [`RACE_INPUTS`] = 214 | 0..107 opponent, 107..214 on roll |
//!
//! The 25 extras of a block are indexed by the constants of [`extra`]. gnubg's quirks are kept
//! (so its published test vectors are our proof of correctness) and marked **\[quirk\]** where
//! they are implemented.
//!
//! Speed: the encoders allocate nothing and keep no state. Escape counts, the 21 rolls of the
//! shot heuristic (with the distances of their ways as bit masks) and the bar-entry losses come
//! from tables built at compile time by `const fn`s (`tables.rs`), so there is no lazy
//! initialisation either. Each side is summarised once as bit masks (made points, blots,
//! occupied points), eight points at a time, and the features loop over set bits only; the shot
//! counting works each roll out with masks and skips rolls no hitter can use: a contact or
//! crashed call is about 4,000 instructions (≈0.4 µs on a 2.4 GHz EPYC VM), a race call about a
//! quarter of that.

mod contact;
mod race;
mod tables;

use crate::eval::nn::NetClass;
use crate::rules::position::Position;
use contact::SideInfo;

/// Inputs of the contact and crashed nets.
pub const CONTACT_INPUTS: usize = 250;
/// Inputs of the race net.
pub const RACE_INPUTS: usize = 214;
/// The most inputs of any net: a buffer this long holds the inputs of every class
/// ([`crate::eval::encode_inputs`]).
pub const MAX_INPUTS: usize = if CONTACT_INPUTS > RACE_INPUTS {
    CONTACT_INPUTS
} else {
    RACE_INPUTS
};

/// Inputs of `class`'s net: [`CONTACT_INPUTS`] for the contact and crashed nets,
/// [`RACE_INPUTS`] for the race net.
pub const fn input_count(class: NetClass) -> usize {
    match class {
        NetClass::Contact | NetClass::Crashed => CONTACT_INPUTS,
        NetClass::Race => RACE_INPUTS,
    }
}
/// Inputs of the pruning nets: the base encoding of both sides only (docs/ENGINE.md §Pruning
/// nets), the first 200 inputs of the contact and crashed nets.
pub const BASE_INPUTS: usize = 200;
/// Version of the encoding, stored in net files so a net is never fed inputs it was not trained
/// on. Bump it whenever any input changes meaning or position.
pub const INPUT_VERSION: u32 = 1;

/// Base (point-by-point) inputs per side in the contact and crashed nets: 25 slots × 4.
pub const BASE_INPUTS_PER_SIDE: usize = 100;
/// Hand-crafted inputs per side in the contact and crashed nets.
pub const EXTRA_INPUTS: usize = 25;
/// First input of the on-roll side's extras block (the block of the player on roll against the
/// opponent).
pub const EXTRAS_ON_ROLL: usize = 200;
/// First input of the opponent's extras block.
pub const EXTRAS_OPPONENT: usize = 225;

/// Positions of the 25 hand-crafted inputs inside a side's block (docs/ENGINE.md §Extra inputs),
/// for a side S playing against the other side T. Each line says what the input measures, how it is
/// scaled, and its range: bounds over every valid position in which both sides still have checkers
/// (checked by the tests), not typical values.
pub mod extra {
    /// Borne-off checkers, first bucket: min(off, B)/B, B = 3 (contact) or 5 (crashed); [0, 1].
    pub const OFF1: usize = 0;
    /// Borne-off checkers, second bucket: min(max(off − B, 0), B)/B; [0, 1].
    pub const OFF2: usize = 1;
    /// Borne-off checkers, rest: max(off − 2B, 0)/B; ≤ 2/3 (contact) or 1 (crashed) in the net's own class, 3 at most otherwise.
    pub const OFF3: usize = 2;
    /// Pips S's checkers behind T's rearmost checker need to pass it, /167 (1 at the opening); [0, 390/167].
    pub const BREAK_CONTACT: usize = 3;
    /// Index of S's rearmost checker (bar = 24), /24; [0, 1].
    pub const BACK_CHEQUER: usize = 4;
    /// Index of S's rearmost made point, /24, −1/24 when none is made; [−1/24, 23/24].
    pub const BACK_ANCHOR: usize = 5;
    /// Most advanced S anchor in T's home board, else nearest in T's outfield, as T's point number /6, 2 if none; [1/6, 2].
    pub const FORWARD_ANCHOR: usize = 6;
    /// Pips T loses to S's shots, heuristic maximum per roll averaged over the 36 rolls, /12; [0, 2].
    pub const PIPLOSS: usize = 7;
    /// Rolls with which S hits at least one T blot (shot heuristic), /36; [0, 1].
    pub const P1: usize = 8;
    /// Rolls with which S hits two T checkers (shot heuristic), /36; [0, 1].
    pub const P2: usize = 9;
    /// Rolls with which T's rearmost checker escapes past S's points, /36; [0, 1].
    pub const BACKESCAPES: usize = 10;
    /// 1 − (fewest escaping rolls for a T checker from S's 9-point back to T's rearmost checker)/36; [0, 1].
    pub const ACONTAIN: usize = 11;
    /// ACONTAIN squared; [0, 1].
    pub const ACONTAIN2: usize = 12;
    /// 1 − (fewest escaping rolls for a T checker on any of S's points 1..=9)/36; [0, 1].
    pub const CONTAIN: usize = 13;
    /// CONTAIN squared; [0, 1].
    pub const CONTAIN2: usize = 14;
    /// Σ over S's checkers outside home of (distance to home) × (rolls escaping T's points), /3600; [0, 2.85].
    pub const MOBILITY: usize = 15;
    /// One-sided second moment of S's checkers behind their mean index, /400; [0, 1.44].
    pub const MOMENT2: usize = 16;
    /// Expected pips of S's next roll wasted on the bar against T's home board, /294 (all pips of all 36 rolls); [0, 1].
    pub const ENTER: usize = 17;
    /// Probability a single bar checker of S fails to enter T's home board, computed even off the bar; [0, 1].
    pub const ENTER2: usize = 18;
    /// Free pips S can play before breaking its points or home board, /100; [0, 3.6].
    pub const TIMING: usize = 19;
    /// How far S's made points are from its rearmost made point: 0 all within 6 pips, → 1 all 12+ away; [0, 1].
    pub const BACKBONE: usize = 20;
    /// Back game with 2+ anchors in T's home board: (S checkers there and on the bar − 3)/4, else 0; [0, 3].
    pub const BACKG: usize = 21;
    /// One anchor in T's home board: (S checkers there and on the bar)/8, else 0; [0, 1.875].
    pub const BACKG1: usize = 22;
    /// S's pips in front of T's rearmost checker (already past every T checker), /100; [0, 3.6].
    pub const FREEPIP: usize = 23;
    /// Rolls with which T's rearmost checker jumps past S's nearest block, /36, 0 if nothing blocks; [0, 1].
    pub const BACKRESCAPES: usize = 24;
}

/// Base code of a point slot with n = 0..=15 checkers (docs/ENGINE.md §Base encoding): one-hot for
/// 1, 2 and 3, then 3 + an overflow unit (n − 3)/2 from 4 up. Also the race net's point code (§Race
/// encoding).
pub(crate) const POINT_CODE: [[f32; 4]; 16] = [
    [0.0, 0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0, 0.5],
    [0.0, 0.0, 1.0, 1.0],
    [0.0, 0.0, 1.0, 1.5],
    [0.0, 0.0, 1.0, 2.0],
    [0.0, 0.0, 1.0, 2.5],
    [0.0, 0.0, 1.0, 3.0],
    [0.0, 0.0, 1.0, 3.5],
    [0.0, 0.0, 1.0, 4.0],
    [0.0, 0.0, 1.0, 4.5],
    [0.0, 0.0, 1.0, 5.0],
    [0.0, 0.0, 1.0, 5.5],
    [0.0, 0.0, 1.0, 6.0],
];

/// Base code of the bar slot with n = 0..=15 checkers (docs/ENGINE.md §Base encoding): a
/// thermometer for 1, 2 and 3, then the same overflow unit (n − 3)/2.
pub(crate) const BAR_CODE: [[f32; 4]; 16] = [
    [0.0, 0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0, 0.0],
    [1.0, 1.0, 0.0, 0.0],
    [1.0, 1.0, 1.0, 0.0],
    [1.0, 1.0, 1.0, 0.5],
    [1.0, 1.0, 1.0, 1.0],
    [1.0, 1.0, 1.0, 1.5],
    [1.0, 1.0, 1.0, 2.0],
    [1.0, 1.0, 1.0, 2.5],
    [1.0, 1.0, 1.0, 3.0],
    [1.0, 1.0, 1.0, 3.5],
    [1.0, 1.0, 1.0, 4.0],
    [1.0, 1.0, 1.0, 4.5],
    [1.0, 1.0, 1.0, 5.0],
    [1.0, 1.0, 1.0, 5.5],
    [1.0, 1.0, 1.0, 6.0],
];

/// Inputs of the contact net (docs/ENGINE.md §Input layout: opponent base 0..99, on-roll base
/// 100..199, extras on-roll 200..224, extras opponent 225..249).
///
/// **\[quirk\]** OFF1–3 use buckets of 3 checkers, and each block holds the *other* side's values
/// (a block-assembly mistake gnubg kept for compatibility with its trained nets, docs/ENGINE.md
/// §Input layout).
pub fn contact_inputs(position: &Position, out: &mut [f32; CONTACT_INPUTS]) {
    let (player, opponent) = encode_contact_like(position, out);
    let (on_roll, other) = extras_blocks(out);
    write_off(opponent.off, 3, on_roll);
    write_off(player.off, 3, other);
}

/// Inputs of the crashed net (same layout as [`contact_inputs`], the crashed OFF1-3 bucket
/// variant: buckets of 5 checkers, each block holding its own side's values).
pub fn crashed_inputs(position: &Position, out: &mut [f32; CONTACT_INPUTS]) {
    let (player, opponent) = encode_contact_like(position, out);
    let (on_roll, other) = extras_blocks(out);
    write_off(player.off, 5, on_roll);
    write_off(opponent.off, 5, other);
}

/// Inputs of the race net (docs/ENGINE.md §Race encoding: 23 points x 4 + 14 off one-hot + 1
/// cross-over per side, opponent first).
pub fn race_inputs(position: &Position, out: &mut [f32; RACE_INPUTS]) {
    let (player, opponent) = SideInfo::both(position);
    let (opponent_block, player_block) = out.split_at_mut(race::RACE_SIDE_INPUTS);
    race::race_side(&opponent, opponent_block.try_into().expect("107 inputs"));
    race::race_side(&player, player_block.try_into().expect("107 inputs"));
}

/// Inputs of the pruning nets (docs/ENGINE.md §Pruning nets): the base encoding of the opponent
/// (0..100) then of the player on roll (100..200), exactly the first [`BASE_INPUTS`] inputs of
/// [`contact_inputs`], for a position of any class.
pub fn base_inputs(position: &Position, out: &mut [f32; BASE_INPUTS]) {
    use crate::rules::position::Side;
    let (opponent_base, player_base) = out.split_at_mut(BASE_INPUTS_PER_SIDE);
    encode_base(&position.side(Side::Opponent), opponent_base);
    encode_base(&position.side(Side::Player), player_base);
}

/// Writes the base encoding of both sides and every extra input but OFF1–3; returns the two
/// sides' summaries (player on roll, opponent).
fn encode_contact_like(
    position: &Position,
    out: &mut [f32; CONTACT_INPUTS],
) -> (SideInfo, SideInfo) {
    let (player, opponent) = SideInfo::both(position);
    let (base, _) = out.split_at_mut(EXTRAS_ON_ROLL);
    let (opponent_base, player_base) = base.split_at_mut(BASE_INPUTS_PER_SIDE);
    encode_base(&opponent.n, opponent_base);
    encode_base(&player.n, player_base);
    let (on_roll, other) = extras_blocks(out);
    contact::extras(&player, &opponent, on_roll);
    contact::extras(&opponent, &player, other);
    (player, opponent)
}

/// The two 25-input extras blocks: on roll (200..225) and opponent (225..250).
fn extras_blocks(
    out: &mut [f32; CONTACT_INPUTS],
) -> (&mut [f32; EXTRA_INPUTS], &mut [f32; EXTRA_INPUTS]) {
    let (on_roll, other) = out[EXTRAS_ON_ROLL..].split_at_mut(EXTRA_INPUTS);
    (
        on_roll.try_into().expect("25 inputs"),
        other.try_into().expect("25 inputs"),
    )
}

/// One side's 100 base inputs: 24 point slots, then the bar slot.
fn encode_base(n: &[u8; 25], out: &mut [f32]) {
    let (points, bar) = out.split_at_mut(96);
    for (slot, &c) in points.chunks_exact_mut(4).zip(&n[..24]) {
        slot.copy_from_slice(&POINT_CODE[usize::from(c)]);
    }
    bar.copy_from_slice(&BAR_CODE[usize::from(n[24])]);
}

/// OFF1–3 thermometer with buckets of `bucket` checkers (docs/ENGINE.md §Extra inputs).
fn write_off(off: u8, bucket: u8, block: &mut [f32; EXTRA_INPUTS]) {
    let b = f32::from(bucket);
    block[extra::OFF1] = f32::from(off.min(bucket)) / b;
    block[extra::OFF2] = f32::from(off.saturating_sub(bucket).min(bucket)) / b;
    block[extra::OFF3] = f32::from(off.saturating_sub(2 * bucket)) / b;
}

#[cfg(test)]
mod tests {
    use super::extra::*;
    use super::*;
    use crate::formats::ids::position_id;
    use crate::rules::dice::Dice;
    use crate::rules::movegen::legal_moves;
    use crate::rules::position::Side;
    use proptest::prelude::*;

    fn position(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
        Position::from_points(player, opponent).unwrap()
    }

    fn contact(position: &Position) -> [f32; CONTACT_INPUTS] {
        let mut out = [f32::NAN; CONTACT_INPUTS];
        contact_inputs(position, &mut out);
        out
    }

    fn crashed(position: &Position) -> [f32; CONTACT_INPUTS] {
        let mut out = [f32::NAN; CONTACT_INPUTS];
        crashed_inputs(position, &mut out);
        out
    }

    fn race(position: &Position) -> [f32; RACE_INPUTS] {
        let mut out = [f32::NAN; RACE_INPUTS];
        race_inputs(position, &mut out);
        out
    }

    const NAMES: [&str; EXTRA_INPUTS] = [
        "OFF1",
        "OFF2",
        "OFF3",
        "BREAK_CONTACT",
        "BACK_CHEQUER",
        "BACK_ANCHOR",
        "FORWARD_ANCHOR",
        "PIPLOSS",
        "P1",
        "P2",
        "BACKESCAPES",
        "ACONTAIN",
        "ACONTAIN2",
        "CONTAIN",
        "CONTAIN2",
        "MOBILITY",
        "MOMENT2",
        "ENTER",
        "ENTER2",
        "TIMING",
        "BACKBONE",
        "BACKG",
        "BACKG1",
        "FREEPIP",
        "BACKRESCAPES",
    ];

    /// Expected extras as GNU Backgammon computes them (docs/ENGINE.md §Test vectors), as (on roll,
    /// opponent) pairs in block order with ACONTAIN2 and CONTAIN2 filled in as squares.
    fn check_vector(position: &Position, table: [(f64, f64); EXTRA_INPUTS]) {
        let out = contact(position);
        let mut failures = Vec::new();
        for (i, (on_roll, other)) in table.into_iter().enumerate() {
            for (expected, got, block) in [
                (on_roll, out[EXTRAS_ON_ROLL + i], "on roll"),
                (other, out[EXTRAS_OPPONENT + i], "opponent"),
            ] {
                // The vectors print 6 decimals: allow half a unit of the last place plus f32
                // rounding.
                if (f64::from(got) - expected).abs() > 6e-7 {
                    failures.push(format!(
                        "{} ({block}): got {got}, expected {expected}",
                        NAMES[i]
                    ));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// Fills the squares of ACONTAIN and CONTAIN into a table given without them.
    fn with_squares(rows: [(f64, f64); EXTRA_INPUTS - 2]) -> [(f64, f64); EXTRA_INPUTS] {
        let mut table = [(0.0, 0.0); EXTRA_INPUTS];
        let mut rows = rows.into_iter();
        for (i, entry) in table.iter_mut().enumerate() {
            *entry = match i {
                ACONTAIN2 | CONTAIN2 => (0.0, 0.0),
                _ => rows.next().unwrap(),
            };
        }
        for (square, base) in [(ACONTAIN2, ACONTAIN), (CONTAIN2, CONTAIN)] {
            let (a, b) = table[base];
            table[square] = (a * a, b * b);
        }
        table
    }

    #[test]
    fn vector_p1_opening() {
        let p = Position::starting();
        check_vector(
            &p,
            with_squares([
                (0.0, 0.0),           // OFF1
                (0.0, 0.0),           // OFF2
                (0.0, 0.0),           // OFF3
                (1.0, 1.0),           // BREAK_CONTACT
                (0.958333, 0.958333), // BACK_CHEQUER
                (0.958333, 0.958333), // BACK_ANCHOR
                (0.166667, 0.166667), // FORWARD_ANCHOR
                (0.0, 0.0),           // PIPLOSS
                (0.0, 0.0),           // P1
                (0.0, 0.0),           // P2
                (0.666667, 0.666667), // BACKESCAPES
                (0.388889, 0.388889), // ACONTAIN
                (0.388889, 0.388889), // CONTAIN
                (0.620556, 0.620556), // MOBILITY
                (0.105, 0.105),       // MOMENT2
                (0.0, 0.0),           // ENTER
                (0.305556, 0.305556), // ENTER2
                (0.52, 0.52),         // TIMING
                (0.939394, 0.939394), // BACKBONE
                (0.0, 0.0),           // BACKG
                (0.25, 0.25),         // BACKG1
                (0.0, 0.0),           // FREEPIP
                (0.5, 0.5),           // BACKRESCAPES
            ]),
        );
    }

    #[test]
    fn vector_p2_bar_hit() {
        let p = position(
            &[(25, 1), (5, 1), (6, 4), (8, 3), (13, 4), (24, 2)],
            &[(4, 2), (6, 5), (8, 2), (13, 4), (22, 1), (24, 1)],
        );
        check_vector(
            &p,
            with_squares([
                (0.0, 0.0),           // OFF1
                (0.0, 0.0),           // OFF2
                (0.0, 0.0),           // OFF3
                (1.065868, 1.0),      // BREAK_CONTACT
                (1.0, 0.958333),      // BACK_CHEQUER
                (0.958333, 0.5),      // BACK_ANCHOR
                (0.166667, 2.0),      // FORWARD_ANCHOR
                (0.090278, 1.064815), // PIPLOSS
                (0.361111, 0.638889), // P1
                (0.0, 0.055556),      // P2
                (0.666667, 0.555556), // BACKESCAPES
                (0.388889, 0.472222), // ACONTAIN
                (0.388889, 0.472222), // CONTAIN
                (0.627778, 0.524444), // MOBILITY
                (0.165, 0.1275),      // MOMENT2
                (0.204082, 0.0),      // ENTER
                (0.555556, 0.305556), // ENTER2
                (0.63, 0.83),         // TIMING
                (0.939394, 0.363636), // BACKBONE
                (0.0, 0.0),           // BACKG
                (0.375, 0.0),         // BACKG1
                (0.0, 0.0),           // FREEPIP
                (0.5, 0.472222),      // BACKRESCAPES
            ]),
        );
    }

    #[test]
    fn vector_p3_anchors() {
        let p = position(
            &[(4, 2), (6, 3), (8, 2), (13, 3), (23, 3), (24, 2)],
            &[(3, 2), (4, 2), (5, 3), (6, 4), (10, 1)],
        );
        assert_eq!(p.off(Side::Opponent), 3);
        check_vector(
            &p,
            with_squares([
                (1.0, 0.0),           // OFF1: the opponent's 3 off, in the on-roll block [quirk]
                (0.0, 0.0),           // OFF2
                (0.0, 0.0),           // OFF3
                (0.281437, 0.377246), // BREAK_CONTACT
                (0.958333, 0.375),    // BACK_CHEQUER
                (0.958333, 0.208333), // BACK_ANCHOR
                (0.333333, 2.0),      // FORWARD_ANCHOR
                (0.208333, 0.0),      // PIPLOSS
                (0.166667, 0.0),      // P1
                (0.0, 0.0),           // P2
                (0.75, 0.361111),     // BACKESCAPES
                (0.0, 0.638889),      // ACONTAIN
                (0.472222, 0.638889), // CONTAIN
                (0.663333, 0.03),     // MOBILITY
                (0.2225, 0.04),       // MOMENT2
                (0.0, 0.0),           // ENTER
                (0.888889, 0.555556), // ENTER2
                (0.63, 0.21),         // TIMING
                (0.763636, 0.0),      // BACKBONE
                (0.5, 0.0),           // BACKG
                (0.0, 0.0),           // BACKG1
                (0.81, 0.0),          // FREEPIP
                (0.166667, 0.361111), // BACKRESCAPES
            ]),
        );
        // The crashed net puts each side's own OFF values in its block, in buckets of 5.
        let out = crashed(&p);
        assert_eq!(out[EXTRAS_ON_ROLL + OFF1], 0.0);
        assert_eq!(out[EXTRAS_OPPONENT + OFF1], 0.6);
        // Everything else is shared with the contact net.
        let contact = contact(&p);
        for i in
            (0..CONTACT_INPUTS).filter(|&i| i < EXTRAS_ON_ROLL || (i - EXTRAS_ON_ROLL) % 25 > 2)
        {
            assert_eq!(out[i], contact[i], "input {i}");
        }
    }

    #[test]
    fn escape_tables_against_opening_board() {
        let (opening, _) = SideInfo::both(&Position::starting());
        let e: Vec<u8> = (0..=24)
            .map(|p| tables::ESCAPES[tables::block_mask(opening.made, p)])
            .collect();
        let e1: Vec<u8> = (0..=24)
            .map(|p| tables::ESCAPES_PAST_FIRST[tables::block_mask(opening.made, p)])
            .collect();
        assert_eq!(
            e,
            [
                36, 35, 34, 33, 32, 31, 30, 30, 31, 32, 33, 34, 34, 34, 33, 32, 31, 27, 28, 25, 25,
                24, 22, 24, 25
            ]
        );
        assert_eq!(
            e1,
            [
                0, 35, 34, 32, 29, 25, 20, 15, 10, 6, 3, 1, 34, 34, 32, 29, 25, 27, 28, 25, 25, 23,
                19, 18, 15
            ]
        );
    }

    #[test]
    fn off_buckets() {
        // Opponent 8 off, player 2 off: a contact position (the opponent still has a back
        // checker on its 24-point).
        let p = position(
            &[(6, 5), (8, 3), (13, 3), (20, 2)],
            &[(1, 2), (2, 2), (3, 2), (24, 1)],
        );
        assert_eq!((p.off(Side::Player), p.off(Side::Opponent)), (2, 8));
        let c = contact(&p);
        // Contact: buckets of 3, swapped blocks.
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        assert!(close(c[EXTRAS_ON_ROLL + OFF1], 1.0));
        assert!(close(c[EXTRAS_ON_ROLL + OFF2], 1.0));
        assert!(close(c[EXTRAS_ON_ROLL + OFF3], 2.0 / 3.0));
        assert!(close(c[EXTRAS_OPPONENT + OFF1], 2.0 / 3.0));
        assert!(close(c[EXTRAS_OPPONENT + OFF2], 0.0));
        assert!(close(c[EXTRAS_OPPONENT + OFF3], 0.0));
        // Crashed: buckets of 5, own blocks.
        let k = crashed(&p);
        assert!(close(k[EXTRAS_ON_ROLL + OFF1], 0.4));
        assert!(close(k[EXTRAS_ON_ROLL + OFF2], 0.0));
        assert!(close(k[EXTRAS_OPPONENT + OFF1], 1.0));
        assert!(close(k[EXTRAS_OPPONENT + OFF2], 0.6));
        assert!(close(k[EXTRAS_OPPONENT + OFF3], 0.0));
    }

    #[test]
    fn base_encoding_points_overflow_and_bar() {
        // Player: 1 on its 1-point, 2 on its 2-point, 3 on its 3-point, 4 on its 4-point, 5 on the
        // bar. Opponent: 15 on its 20-point.
        let p = position(&[(1, 1), (2, 2), (3, 3), (4, 4), (25, 5)], &[(20, 15)]);
        let out = contact(&p);
        let player = &out[100..200];
        assert_eq!(player[0..4], [1.0, 0.0, 0.0, 0.0]); // exactly one
        assert_eq!(player[4..8], [0.0, 1.0, 0.0, 0.0]); // exactly two
        assert_eq!(player[8..12], [0.0, 0.0, 1.0, 0.0]); // three
        assert_eq!(player[12..16], [0.0, 0.0, 1.0, 0.5]); // four: overflow (4 − 3)/2
        assert!(player[16..96].iter().all(|&x| x == 0.0));
        assert_eq!(player[96..100], [1.0, 1.0, 1.0, 1.0]); // bar thermometer, (5 − 3)/2
        let opponent = &out[0..100];
        assert!(opponent[..76].iter().all(|&x| x == 0.0));
        assert_eq!(opponent[76..80], [0.0, 0.0, 1.0, 6.0]); // fifteen: (15 − 3)/2
        assert!(opponent[80..96].iter().all(|&x| x == 0.0));
        assert_eq!(opponent[96..100], [0.0; 4]);

        // Bar thermometer for 1, 2, 3 and 4 checkers.
        for (count, code) in [
            (1, [1.0, 0.0, 0.0, 0.0]),
            (2, [1.0, 1.0, 0.0, 0.0]),
            (3, [1.0, 1.0, 1.0, 0.0]),
            (4, [1.0, 1.0, 1.0, 0.5]),
        ] {
            let p = position(&[(25, count), (6, 15 - count)], &[(6, 15)]);
            let out = contact(&p);
            assert_eq!(out[196..200], code, "{count} on the bar");
            assert_eq!(out[100 + 20..100 + 24], POINT_CODE[usize::from(15 - count)]);
        }
    }

    #[test]
    fn race_encoding() {
        // Player: 3 off; 1 on its 1-point, 2 on its 7-point, 4 on its 13-point, 5 on its
        // 23-point. Opponent: 14 off, 1 on its 1-point (the player's 24-point: still a race).
        let p = position(&[(1, 1), (7, 2), (13, 4), (23, 5)], &[(1, 1)]);
        assert!(p.is_race());
        let out = race(&p);
        let (opponent, player) = out.split_at(107);
        // Opponent: one checker on its 1-point, 14 off (one-hot input 13), nothing to cross.
        assert_eq!(opponent[0..4], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(opponent.iter().filter(|&&x| x != 0.0).count(), 2);
        assert_eq!(opponent[92 + 13], 1.0);
        assert_eq!(opponent[106], 0.0);
        // Player.
        assert_eq!(player[0..4], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(player[24..28], [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(player[48..52], [0.0, 0.0, 1.0, 0.5]);
        assert_eq!(player[88..92], [0.0, 0.0, 1.0, 1.0]);
        let off = &player[92..106];
        assert_eq!(off.iter().filter(|&&x| x != 0.0).count(), 1);
        assert_eq!(off[2], 1.0); // 3 off

        // Cross-overs: 2 checkers in quadrant 1, 4 in quadrant 2, 5 in quadrant 3.
        assert!((player[106] - (2.0 + 8.0 + 15.0) / 10.0).abs() < 1e-6);

        // Nothing off: no one-hot input set.
        let out = race(&position(&[(6, 15)], &[(5, 15)]));
        assert!(out[92..106].iter().all(|&x| x == 0.0));
        assert!(out[107 + 92..107 + 106].iter().all(|&x| x == 0.0));
    }

    #[test]
    fn blocks_follow_the_side_on_roll() {
        // Swapping the position swaps the base blocks; the extras blocks swap too (the contact
        // net's OFF values are the other side's in both cases).
        let p = position(
            &[(25, 1), (5, 1), (6, 4), (8, 3), (13, 4), (24, 2)],
            &[(4, 2), (6, 5), (8, 2), (13, 4), (22, 1), (24, 1)],
        );
        for encode in [contact, crashed] {
            let a = encode(&p);
            let b = encode(&p.swap());
            assert_eq!(a[..100], b[100..200]);
            assert_eq!(a[100..200], b[..100]);
            assert_eq!(a[200..225], b[225..250]);
            assert_eq!(a[225..250], b[200..225]);
        }
        let a = race(&p);
        let b = race(&p.swap());
        assert_eq!(a[..107], b[107..]);
    }

    /// Inclusive bounds of every extra input, valid for any position in which both sides still
    /// have checkers (see the docs of [`extra`]).
    const EXTRA_BOUNDS: [(f32, f32); EXTRA_INPUTS] = [
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 3.0),
        (0.0, 390.0 / 167.0),
        (0.0, 1.0),
        (-1.0 / 24.0, 23.0 / 24.0),
        (1.0 / 6.0, 2.0),
        (0.0, 2.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 2.85),
        (0.0, 1.44),
        (0.0, 1.0),
        (0.0, 1.0),
        (0.0, 3.6),
        (0.0, 1.0),
        (0.0, 3.0),
        (0.0, 1.875),
        (0.0, 3.6),
        (0.0, 1.0),
    ];

    /// Checks finiteness and the documented ranges of all three encodings.
    fn check_ranges(p: &Position) {
        let eps = 1e-6;
        for (net, out) in [("contact", contact(p)), ("crashed", crashed(p))] {
            for (i, &x) in out.iter().enumerate() {
                assert!(x.is_finite(), "{net} input {i} of {p:?} is {x}");
                let (lo, hi) = if i < EXTRAS_ON_ROLL {
                    (0.0, if i % 4 == 3 { 6.0 } else { 1.0 })
                } else {
                    EXTRA_BOUNDS[(i - EXTRAS_ON_ROLL) % EXTRA_INPUTS]
                };
                assert!(
                    x >= lo - eps && x <= hi + eps,
                    "{net} input {i} of {p:?} is {x}, outside [{lo}, {hi}]"
                );
            }
        }
        let out = race(p);
        for (i, &x) in out.iter().enumerate() {
            let hi = match i % 107 {
                106 => 4.5,
                j if j < 92 && j % 4 == 3 => 6.0,
                _ => 1.0,
            };
            assert!(
                x.is_finite() && (0.0..=hi).contains(&x),
                "race input {i} of {p:?} is {x}"
            );
        }
        // The contact net's OFF3 stays within 2/3 and the crashed net's within 1 on contact
        // positions (at most 8 off per side).
        if !p.is_race() {
            let c = crashed(p);
            let c_off3 = [c[EXTRAS_ON_ROLL + OFF3], c[EXTRAS_OPPONENT + OFF3]];
            assert!(c_off3.iter().all(|&x| x <= 1.0 + eps));
        }
    }

    /// Every distinct dice roll, for the random games.
    fn all_dice() -> Vec<Dice> {
        Dice::all().collect()
    }

    /// One side's checkers: 15 checkers, most of them on up to 6 preferred locations (so that
    /// points get made), the rest anywhere; location 24 is the bar and 25 is borne off.
    fn arbitrary_side() -> impl Strategy<Value = [u8; 25]> {
        (
            proptest::array::uniform6(0u8..26),
            proptest::collection::vec((0u8..10, 0u8..26), 15),
        )
            .prop_map(|(preferred, picks)| {
                let mut n = [0u8; 25];
                for (choice, anywhere) in picks {
                    let location = preferred.get(usize::from(choice)).unwrap_or(&anywhere);
                    if let Some(slot) = n.get_mut(usize::from(*location)) {
                        *slot += 1;
                    }
                }
                n
            })
    }

    /// Arbitrary valid positions, not necessarily reachable in play: where both sides picked the
    /// same point the opponent's checkers there are borne off instead.
    pub(super) fn arbitrary_position() -> impl Strategy<Value = Position> {
        (arbitrary_side(), arbitrary_side()).prop_filter_map(
            "both sides closed out",
            |(player, mut opponent)| {
                for i in 0..24 {
                    if player[i] > 0 {
                        opponent[23 - i] = 0;
                    }
                }
                Position::from_sides(&player, &opponent).ok()
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5_000))]

        /// Arbitrary positions encode to finite inputs within the documented ranges.
        #[test]
        fn arbitrary_positions_give_finite_inputs_in_range(position in arbitrary_position()) {
            check_ranges(&position);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Random games: every position reached (from either side's view) encodes to finite
        /// inputs within the documented ranges, without panicking.
        #[test]
        fn random_games_give_finite_inputs_in_range(
            choices in proptest::collection::vec((0usize..21, any::<u16>()), 1..200)
        ) {
            let dice = all_dice();
            let mut p = Position::starting();
            for (roll, pick) in choices {
                check_ranges(&p);
                check_ranges(&p.swap());
                let moves = legal_moves(&p, dice[roll]);
                p = moves[usize::from(pick) % moves.len()].position;
                if p.result().is_some() {
                    // Finished games are never fed to a net, but must not panic either.
                    for x in contact(&p).iter().chain(crashed(&p).iter()).chain(race(&p).iter()) {
                        prop_assert!(x.is_finite());
                    }
                    break;
                }
                p = p.swap();
            }
        }
    }

    #[test]
    fn corpus_positions_are_in_range() {
        let text = cubeful_testkit::read_shared("data/movegen/contact_ids.txt");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let p = position_id::decode(line).expect("valid id");
            check_ranges(&p);
            check_ranges(&p.swap());
        }
    }
}
