//! The cube a cubeful evaluation sees: its value and owner, money or match rules, and how live
//! it is ([`CubeContext`]).

use crate::cube::met::{MatchEquityTable, MatchScore, MwcScale};
use crate::game::match_state::{CubeOwner, MatchState, Player};
use crate::rules::position::Position;

use super::efficiency::{
    position_cube_efficiency, CubeEfficiency, ExactCubeful, Purpose, CONTACT_EFFICIENCY,
};

/// Who owns the cube, seen from the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ownership {
    /// Either player may double.
    Centered,
    /// The player on roll owns the cube: only he may redouble.
    OnRoll,
    /// The opponent owns the cube: the player on roll may not double.
    Opponent,
}

impl Ownership {
    /// The same cube seen from the other player.
    pub fn flipped(self) -> Ownership {
        match self {
            Ownership::Centered => Ownership::Centered,
            Ownership::OnRoll => Ownership::Opponent,
            Ownership::Opponent => Ownership::OnRoll,
        }
    }

    /// From the absolute owner of a match state and the player on roll.
    pub fn relative(owner: CubeOwner, on_roll: Player) -> Ownership {
        match owner {
            CubeOwner::Centered => Ownership::Centered,
            CubeOwner::Owned(p) if p == on_roll => Ownership::OnRoll,
            CubeOwner::Owned(_) => Ownership::Opponent,
        }
    }
}

/// Money session or match, with what the equities depend on.
#[derive(Clone, Copy, Debug)]
pub enum Scoring<'a> {
    /// A money game. `jacoby`: gammons count only after a double (so not while the cube is
    /// centred); `beavers`: a doubled player may beaver (and the doubler then raccoon).
    Money { jacoby: bool, beavers: bool },
    /// A match at `score`, `on_roll` being the player whose chances are evaluated.
    Match {
        score: MatchScore,
        on_roll: Player,
        met: &'a MatchEquityTable,
    },
}

/// Everything a cubeful evaluation needs besides the chances: cube value and owner, money or
/// match rules, and the cube efficiency. Cheap to copy.
#[derive(Clone, Copy, Debug)]
pub struct CubeContext<'a> {
    /// Cube value (1, 2, 4, …).
    pub cube: u32,
    pub owner: Ownership,
    pub scoring: Scoring<'a>,
    pub efficiency: CubeEfficiency,
}

impl CubeContext<'static> {
    /// Money game without Jacoby rule or beavers; contact efficiency.
    pub fn money(cube: u32, owner: Ownership) -> CubeContext<'static> {
        CubeContext::money_with_rules(cube, owner, false, false)
    }

    /// Money game with the given rules; contact efficiency.
    pub fn money_with_rules(
        cube: u32,
        owner: Ownership,
        jacoby: bool,
        beavers: bool,
    ) -> CubeContext<'static> {
        CubeContext {
            cube,
            owner,
            scoring: Scoring::Money { jacoby, beavers },
            efficiency: CubeEfficiency::Fixed(CONTACT_EFFICIENCY),
        }
    }
}

impl<'a> CubeContext<'a> {
    /// Match play; contact efficiency.
    pub fn new_match(
        met: &'a MatchEquityTable,
        score: MatchScore,
        on_roll: Player,
        cube: u32,
        owner: Ownership,
    ) -> CubeContext<'a> {
        CubeContext {
            cube,
            owner,
            scoring: Scoring::Match {
                score,
                on_roll,
                met,
            },
            efficiency: CubeEfficiency::Fixed(CONTACT_EFFICIENCY),
        }
    }

    /// The context of a match state, for its player on roll (`beavers` applies to money
    /// sessions; the Match ID has no flag for it). Contact efficiency.
    pub fn from_state(
        state: &MatchState,
        met: &'a MatchEquityTable,
        beavers: bool,
    ) -> CubeContext<'a> {
        let owner = Ownership::relative(state.cube_owner, state.on_roll);
        let scoring = match MatchScore::from_state(state) {
            None => Scoring::Money {
                jacoby: state.jacoby,
                beavers,
            },
            Some(score) => Scoring::Match {
                score,
                on_roll: state.on_roll,
                met,
            },
        };
        CubeContext {
            cube: state.cube_value(),
            owner,
            scoring,
            efficiency: CubeEfficiency::Fixed(CONTACT_EFFICIENCY),
        }
    }

    /// With cube efficiency `x`.
    pub fn with_efficiency(mut self, x: f32) -> CubeContext<'a> {
        self.efficiency = CubeEfficiency::Fixed(x);
        self
    }

    /// With the efficiency of `position` in an evaluation of `plies` for `purpose`
    /// ([`position_cube_efficiency`]).
    pub fn with_position(
        self,
        position: &Position,
        plies: u8,
        purpose: Purpose,
    ) -> CubeContext<'a> {
        self.with_efficiency(position_cube_efficiency(position, plies, purpose))
    }

    /// With exact cubeful money equities (two-sided bearoff).
    pub fn with_exact(mut self, exact: ExactCubeful) -> CubeContext<'a> {
        self.efficiency = CubeEfficiency::Exact(exact);
        self
    }

    /// True in money play.
    pub fn is_money(&self) -> bool {
        matches!(self.scoring, Scoring::Money { .. })
    }

    /// The same cube seen by the other player (he is on roll next). Exact equities, which
    /// belong to a position, are replaced by the contact efficiency.
    pub fn swapped(&self) -> CubeContext<'a> {
        let mut next = *self;
        next.owner = self.owner.flipped();
        if let Scoring::Match { on_roll, .. } = &mut next.scoring {
            *on_roll = on_roll.other();
        }
        if let CubeEfficiency::Exact(_) = next.efficiency {
            next.efficiency = CubeEfficiency::Fixed(CONTACT_EFFICIENCY);
        }
        next
    }

    /// The cube after the player on roll doubles and the opponent takes: twice the value,
    /// owned by the opponent (the same player is still on roll).
    pub fn doubled(&self) -> CubeContext<'a> {
        let mut next = *self;
        next.cube = self.cube.saturating_mul(2);
        next.owner = Ownership::Opponent;
        next
    }

    /// The player on roll may double now (GNU Backgammon's `GetDPEq`): he has access to the
    /// cube and, in match play, it is not the Crawford game, he does not win the match by
    /// cashing the current cube, and he is not the leader of a post-Crawford game.
    pub fn can_double(&self) -> bool {
        if self.owner == Ownership::Opponent {
            return false;
        }
        match self.scoring {
            Scoring::Money { .. } => true,
            Scoring::Match { score, on_roll, .. } => {
                let away = u32::from(score.away(on_roll));
                !score.crawford && self.cube < away && !(score.is_post_crawford() && away == 1)
            }
        }
    }

    /// The cube still matters for the equity (GNU Backgammon's `fDoCubeful`): always in money
    /// play; in match play not in the Crawford game, not at 2-away/2-away, and not when both
    /// players would win the match by winning the current cube.
    pub fn cube_is_live(&self) -> bool {
        match self.scoring {
            Scoring::Money { .. } => true,
            Scoring::Match { score, .. } => {
                let away = [score.away(Player::Zero), score.away(Player::One)].map(u32::from);
                (away[0] > self.cube || away[1] > self.cube)
                    && !(away[0] == 2 && away[1] == 2)
                    && !score.crawford
            }
        }
    }

    /// The MWC ↔ normalised equity map of the player on roll at this cube (match play).
    pub fn scale(&self) -> Option<MwcScale> {
        match self.scoring {
            Scoring::Money { .. } => None,
            Scoring::Match {
                score,
                on_roll,
                met,
            } => Some(met.scale(&score, on_roll, self.cube)),
        }
    }

    /// MWC of a normalised equity (match play).
    pub fn equity_to_mwc(&self, equity: f32) -> Option<f32> {
        self.scale().map(|s| s.mwc(f64::from(equity)) as f32)
    }

    /// Normalised equity (EMG) of an MWC (match play).
    pub fn mwc_to_equity(&self, mwc: f32) -> Option<f32> {
        self.scale().map(|s| s.emg(f64::from(mwc)) as f32)
    }
}
