//! How live the cube is: Janowski's cube efficiency by position class, depth and purpose, or
//! the exact cubeful equities of a two-sided bearoff database.

use crate::eval::class::{classify, PositionClass};
use crate::rules::position::{Position, Side};

use super::context::Ownership;

/// Exact cubeful money equities of the player on roll, per cube position, as a two-sided
/// bearoff database provides them (normalised to the cube value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactCubeful {
    /// The player on roll owns the cube.
    pub owned: f32,
    /// Centred cube.
    pub centered: f32,
    /// The opponent owns the cube.
    pub opponent_owns: f32,
    /// Centred cube under the Jacoby rule, if the database has it.
    pub centered_jacoby: Option<f32>,
}

impl ExactCubeful {
    /// From `[owned, centred, opponent owns]`.
    pub fn from_array(a: [f32; 3]) -> ExactCubeful {
        ExactCubeful {
            owned: a[0],
            centered: a[1],
            opponent_owns: a[2],
            centered_jacoby: None,
        }
    }

    pub(super) fn for_owner(&self, owner: Ownership, jacoby: bool) -> f32 {
        match owner {
            Ownership::OnRoll => self.owned,
            Ownership::Opponent => self.opponent_owns,
            Ownership::Centered if jacoby => self.centered_jacoby.unwrap_or(self.centered),
            Ownership::Centered => self.centered,
        }
    }
}

/// How live the cube is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CubeEfficiency {
    /// Janowski's cube efficiency `x` (0 = dead cube, 1 = fully live).
    Fixed(f32),
    /// Exact cubeful money equities (two-sided bearoff database). Money play uses them
    /// directly; match play uses the effective efficiency they imply,
    /// `x = (E(exact) − E(dead))/(E(live) − E(dead))` (the appendix's "calculated x").
    Exact(ExactCubeful),
}

/// Cube efficiency of contact and crashed positions in checker plays at every depth (and of
/// cube contexts built without a position).
pub const CONTACT_EFFICIENCY: f32 = 0.68;
/// Cube efficiency of contact and crashed positions in cube actions at every depth: GNU
/// Backgammon's at 0 and 1 ply since December 2023 (it keeps 0.68 deeper). With adam18bx's
/// nets 0.76 halved the 0-ply cube error by GNU Backgammon's analysis of 800 games against it,
/// but raised the checker error, so checker plays keep 0.68; with adam41w's nets the deep 0.68
/// made World Class double too early, by our own cubeful rollouts and by gnubg's 2-ply alike,
/// so since 2026-12-05 cube actions use 0.76 at every depth (docs/CUBE.md, docs/BENCHMARKS.md
/// §Cube efficiency by depth and §The World Class cube).
pub const CUBE_ACTION_CONTACT_EFFICIENCY: f32 = 0.76;
/// Cube efficiency of bearoff positions without exact cubeful equities (one-sided database).
pub const BEAROFF_EFFICIENCY: f32 = 0.6;

/// Janowski's cube efficiency ("cube life index") `x` by position class, by the depth of the
/// evaluation it serves and by its purpose, after GNU Backgammon's since December 2023 (its
/// `EvalEfficiency`, which uses 0.76 for every shallow contact evaluation and 0.68 deeper):
///
/// | class | 0- and 1-ply evaluations | 2 plies and more |
/// |---|---|---|
/// | contact, crashed: cube actions | 0.76 | 0.76 |
/// | contact, crashed: checker plays | 0.68 | 0.68 |
/// | race (pips `n` of the player on roll) | 0.60 + 0.0025·n within [0.6, 0.8] | 0.55 + 0.00125·n within [0.6, 0.7] |
/// | bearoff without exact cubeful equities | 0.6 | 0.6 |
/// | game over | 0 (dead cube) | 0 |
///
/// `plies` is the depth of the whole evaluation (the search's, not the leaf's): a 2-ply
/// search values its 0-ply leaves with the 2-ply column. GNU Backgammon's authors found that
/// with their nets the deep value made shallow evaluations double too early and take too late,
/// and gave them a livelier cube; with our nets the same holds for cube actions at 0 ply (since
/// adam18bx) and at 2 (since adam41w), while the checker plays of 0-ply games against GNU
/// Backgammon lose more with it (in two pairs of runs), so they keep 0.68 (docs/CUBE.md).
/// Positions with exact cubeful equities use [`CubeEfficiency::Exact`] instead.
pub fn cube_efficiency(
    class: PositionClass,
    pips_on_roll: u32,
    plies: u8,
    purpose: Purpose,
) -> f32 {
    let shallow = plies < 2;
    let pips = pips_on_roll as f32;
    match class {
        PositionClass::Over => 0.0,
        PositionClass::Bearoff => BEAROFF_EFFICIENCY,
        PositionClass::Race if shallow => (0.60 + 0.0025 * pips).clamp(0.6, 0.8),
        PositionClass::Race => (0.55 + 0.00125 * pips).clamp(0.6, 0.7),
        PositionClass::Crashed | PositionClass::Contact if purpose == Purpose::CubeAction => {
            CUBE_ACTION_CONTACT_EFFICIENCY
        }
        PositionClass::Crashed | PositionClass::Contact => CONTACT_EFFICIENCY,
    }
}

/// [`cube_efficiency`] of a position (class and pip count of the player on roll) in an
/// evaluation of `plies` for `purpose`.
pub fn position_cube_efficiency(position: &Position, plies: u8, purpose: Purpose) -> f32 {
    cube_efficiency(
        classify(position),
        position.pip_count(Side::Player),
        plies,
        purpose,
    )
}

/// What a cubeful evaluation is for. Evaluations of contact and crashed positions value the
/// cube more live for cube actions than for checker plays ([`cube_efficiency`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// Choosing a play: the values of the positions after each candidate.
    CheckerPlay,
    /// Doubling, taking, and the value of a position before the roll.
    CubeAction,
}
