//! Cube theory: cubeless and cubeful equities by Rick Janowski's model, take and cash points
//! for money and match play, and cube decisions reported as GNU Backgammon reports them.
//!
//! # The model (the manual's appendix "Cubeful equities")
//!
//! The formulas are collected in docs/CUBE.md §Janowski's model.
//!
//! For the player on roll with cubeless chances `p` (a [`Probabilities`]):
//!
//! ```text
//! E(cubeful) = E(dead)·(1 − x) + E(live)·x
//! ```
//!
//! `E(dead)` is the cubeless equity, `x` the cube efficiency ([`cube_efficiency`]), and
//! `E(live)` the equity with a fully live cube: a piecewise-linear function of the winning
//! chance through `(0, −L)`, `(TP, −1)`, `(CP, +1)` and `(1, +W)`, where `W` and `L` are the
//! average cubeless values of the games won and lost ([`average_win_loss`]),
//! `TP = (L − ½)/(W + L + ½)` the live take point and `CP = (L + 1)/(W + L + ½)` the live cash
//! point ([`money_live_equity`]). Who owns the cube decides which of those corners exist: with a
//! centred cube all four; if the player on roll owns it, he cannot be doubled out, so the curve
//! runs `(0, −L)`, `(CP, +1)`, `(1, +W)`; if the opponent owns it, the player cannot double,
//! so `(0, −L)`, `(TP, −1)`, `(1, +W)`.
//!
//! In match play the same model works in match winning chances (MWC): the corners are the MWCs
//! of losing with the current gammon rates, of the opponent cashing, of cashing, and of winning
//! with the current gammon rates, and the take and cash points come from the match equity table
//! by the live-cube recursion `TP(live, n) = TP(dead, n)·(1 − TP(live, 2n))` run down from the
//! last cube level at which the cube is still alive ([`match_cube_points`]). Crawford games and
//! scores at which the cube is dead use the cubeless MWC.
//!
//! # Units
//!
//! * [`cubeful_equity`] returns **normalised equity** of the player on roll: money play in units
//!   of the context's cube value (GNU Backgammon's "normalised to a 1-cube"), match play as EMG
//!   with respect to the context's cube (see [`crate::cube::met::MwcScale`]).
//! * [`cubeful_mwc`] returns the MWC (match play only). MWCs are absolute, so a search comparing
//!   positions with different cube values should compare MWCs in match play, and money
//!   equities multiplied by the cube value.
//! * Cube decisions ([`CubeDecision`]) are in normalised equity of the player who considers
//!   doubling, with the cube value before the double: double/pass is always +1.
//!
//! A search calls [`cubeful_equity`] or [`cubeful_mwc`] at its leaves with a [`CubeContext`]
//! describing the cube at that node ([`CubeContext::swapped`] after a move,
//! [`CubeContext::doubled`] for a double/take), and turns its no-double and double/take
//! equities into a decision with [`decide`].

pub mod met;

use std::fmt;

use crate::cube::met::{MatchEquityTable, MatchScore, MwcScale};
use crate::eval::class::{classify, PositionClass};
use crate::eval::Probabilities;
use crate::game::match_state::{CubeOwner, MatchState, Player};
use crate::rules::position::{Position, Side};

/// Below this winning chance (or above one minus it) the cube is treated as dead.
const EPSILON: f32 = 1e-7;

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

    fn for_owner(&self, owner: Ownership, jacoby: bool) -> f32 {
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

/// Cube efficiency of contact and crashed positions in searches of two plies and more (and
/// of cube contexts built without a position).
pub const CONTACT_EFFICIENCY: f32 = 0.68;
/// Cube efficiency of contact and crashed positions in the cube actions of 0- and 1-ply
/// evaluations: GNU Backgammon's since December 2023. Cubeful used the deep value here from
/// 2026-11-26 while its nets judged the player on roll low; with adam18bx's nets 0.76 halves
/// the cube error by GNU Backgammon's analysis of 800 games against it, but raises the checker
/// error, so checker plays keep the deep value (docs/CUBE.md, docs/BENCHMARKS.md §Cube
/// efficiency by depth).
pub const SHALLOW_CONTACT_EFFICIENCY: f32 = 0.76;
/// Cube efficiency of bearoff positions without exact cubeful equities (one-sided database).
pub const BEAROFF_EFFICIENCY: f32 = 0.6;

/// Janowski's cube efficiency ("cube life index") `x` by position class and by the depth of
/// the evaluation it serves, as GNU Backgammon sets it since December 2023 (its
/// `EvalEfficiency`):
///
/// | class | 0- and 1-ply evaluations | 2 plies and more |
/// |---|---|---|
/// | contact, crashed: cube actions | 0.76 | 0.68 |
/// | contact, crashed: checker plays | 0.68 | 0.68 |
/// | race (pips `n` of the player on roll) | 0.60 + 0.0025·n within [0.6, 0.8] | 0.55 + 0.00125·n within [0.6, 0.7] |
/// | bearoff without exact cubeful equities | 0.6 | 0.6 |
/// | game over | 0 (dead cube) | 0 |
///
/// `plies` is the depth of the whole evaluation (the search's, not the leaf's): a 2-ply
/// search values its 0-ply leaves with the 2-ply column. GNU Backgammon's authors found that
/// with their nets the deep value made shallow evaluations double too early and take too late,
/// and gave them a livelier cube; with our nets since adam18bx the same holds for cube actions,
/// while the checker plays of 0-ply games against GNU Backgammon lose more with it (in two pairs
/// of runs), so they keep the deep value (docs/CUBE.md). Positions with exact cubeful equities
/// use [`CubeEfficiency::Exact`] instead.
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
        PositionClass::Crashed | PositionClass::Contact
            if shallow && purpose == Purpose::CubeAction =>
        {
            SHALLOW_CONTACT_EFFICIENCY
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

/// What a cubeful evaluation is for. Shallow evaluations of contact and crashed positions
/// value the cube more live for cube actions than for checker plays ([`cube_efficiency`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// Choosing a play: the values of the positions after each candidate.
    CheckerPlay,
    /// Doubling, taking, and the value of a position before the roll.
    CubeAction,
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

/// Cubeless equity of the player on roll as GNU Backgammon's `Utility` computes it. Money:
/// `2·win − 1 + (wg − lg)·g + (wbg − lbg)·g` with gammon price `g` = 1, or 0 under the Jacoby
/// rule with a centred cube. Match: EMG with the score's gammon and backgammon prices.
pub fn cubeless_equity(p: &Probabilities, ctx: &CubeContext) -> f32 {
    match ctx.scoring {
        Scoring::Money { jacoby, .. } => {
            let price = if jacoby && ctx.owner == Ownership::Centered {
                0.0
            } else {
                1.0
            };
            2.0 * p.win - 1.0
                + (p.win_gammon - p.lose_gammon) * price
                + (p.win_backgammon - p.lose_backgammon) * price
        }
        Scoring::Match {
            score,
            on_roll,
            met,
        } => {
            let gp = met.gammon_prices(&score, ctx.cube);
            let (me, opp) = (on_roll.index(), on_roll.other().index());
            (2.0 * f64::from(p.win) - 1.0 + f64::from(p.win_gammon) * gp.gammon[me]
                - f64::from(p.lose_gammon) * gp.gammon[opp]
                + f64::from(p.win_backgammon) * gp.backgammon[me]
                - f64::from(p.lose_backgammon) * gp.backgammon[opp]) as f32
        }
    }
}

/// Cubeless MWC of the player on roll (match play): every result's probability times the MWC
/// after it, with the cube at its current value (the appendix's `MWC(cubeless)`).
pub fn cubeless_mwc(p: &Probabilities, ctx: &CubeContext) -> Option<f32> {
    match ctx.scoring {
        Scoring::Money { .. } => None,
        Scoring::Match {
            score,
            on_roll,
            met,
        } => Some(dead_mwc(p, met, &score, on_roll, ctx.cube) as f32),
    }
}

fn dead_mwc(
    p: &Probabilities,
    met: &MatchEquityTable,
    score: &MatchScore,
    on_roll: Player,
    cube: u32,
) -> f64 {
    let o = met.outcomes(score, on_roll, cube);
    let (w, wg, wbg) = (
        f64::from(p.win),
        f64::from(p.win_gammon),
        f64::from(p.win_backgammon),
    );
    let (lg, lbg) = (f64::from(p.lose_gammon), f64::from(p.lose_backgammon));
    (w - wg) * o.win[0]
        + (wg - wbg) * o.win[1]
        + wbg * o.win[2]
        + (1.0 - w - lg) * o.lose[0]
        + (lg - lbg) * o.lose[1]
        + lbg * o.lose[2]
}

/// Average cubeless values `(W, L)` of the games the player on roll wins and loses:
/// `W = (win + wg + wbg)/win`, `L = (lose + lg + lbg)/lose` (gammon chances cumulative).
/// `None` when winning or losing is (almost) impossible.
pub fn average_win_loss(p: &Probabilities) -> Option<(f32, f32)> {
    if p.win <= EPSILON || p.win >= 1.0 - EPSILON {
        return None;
    }
    Some((
        1.0 + (p.win_gammon + p.win_backgammon) / p.win,
        1.0 + (p.lose_gammon + p.lose_backgammon) / (1.0 - p.win),
    ))
}

/// Janowski's money take point of a player whose games won are worth `w` and games lost `l` on
/// average, with cube efficiency `x`: `(L − ½)/(W + L + ½x)`. `x = 0` gives the dead-cube take
/// point `(L − ½)/(W + L)`, `x = 1` the fully live one.
pub fn money_take_point(w: f32, l: f32, x: f32) -> f32 {
    (l - 0.5) / (w + l + 0.5 * x)
}

/// Janowski's money cash point of a player (the opponent's take point seen from him):
/// `(L + ½ + ½x)/(W + L + ½x)`; dead `(L + ½)/(W + L)`, live `(L + 1)/(W + L + ½)`.
pub fn money_cash_point(w: f32, l: f32, x: f32) -> f32 {
    (l + 0.5 + 0.5 * x) / (w + l + 0.5 * x)
}

/// Janowski's money points of a player with average win `W` and loss `L` (GNU Backgammon's
/// `getMoneyPoints`, the "market window"), each as `[dead cube, live cube]` winning chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoneyPoints {
    /// Least winning chance to take a double.
    pub take: [f32; 2],
    /// Least winning chance to beaver a double.
    pub beaver: [f32; 2],
    /// Least winning chance (as the doubler) to raccoon a beaver.
    pub raccoon: [f32; 2],
    /// Initial (centred-cube) double point.
    pub initial_double: [f32; 2],
    /// Redouble point.
    pub redouble: [f32; 2],
    /// Cash point: the opponent's take point seen from this player.
    pub cash: [f32; 2],
    /// Too-good point: above it, playing on beats cashing.
    pub too_good: [f32; 2],
}

/// The money points of a player with average win `w` and loss `l` (see [`MoneyPoints`]).
pub fn money_points(w: f32, l: f32, jacoby: bool, beavers: bool) -> MoneyPoints {
    let dead = w + l;
    let live = w + l + 0.5;
    let initial_dead = match (jacoby, beavers) {
        (false, _) => l / dead,
        (true, true) => (l - 0.25) / (l + w - 0.5),
        (true, false) => (l - 0.5) / (l + w - 1.0),
    };
    MoneyPoints {
        take: [(l - 0.5) / dead, (l - 0.5) / live],
        beaver: [l / dead, l / live],
        raccoon: [l / dead, (l + 0.5) / live],
        initial_double: [initial_dead, (l + 1.0) / live],
        redouble: [l / dead, (l + 1.0) / live],
        cash: [(l + 0.5) / dead, (l + 1.0) / live],
        too_good: [(l + 1.0) / dead, (l + 1.0) / live],
    }
}

/// Money equity with a fully live cube (normalised to the cube), by linear interpolation
/// between `(0, −L)`, `(TP, −1)`, `(CP, +1)` and `(1, +W)` for a centred cube, without the
/// take-point corner when the player on roll owns the cube and without the cash-point corner
/// when the opponent owns it. Under the Jacoby rule with a centred cube the ends are cut at ∓1:
/// gammons do not count before a double.
pub fn money_live_equity(win: f32, w: f32, l: f32, owner: Ownership, jacoby: bool) -> f32 {
    let tp = (l - 0.5) / (w + l + 0.5);
    let cp = (l + 1.0) / (w + l + 0.5);
    match owner {
        Ownership::Centered => {
            if win < tp {
                if jacoby {
                    -1.0
                } else {
                    -l + (l - 1.0) * win / tp
                }
            } else if win < cp {
                -1.0 + 2.0 * (win - tp) / (cp - tp)
            } else if jacoby {
                1.0
            } else {
                1.0 + (w - 1.0) * (win - cp) / (1.0 - cp)
            }
        }
        Ownership::OnRoll => {
            if win < cp {
                -l + (1.0 + l) * win / cp
            } else {
                1.0 + (w - 1.0) * (win - cp) / (1.0 - cp)
            }
        }
        Ownership::Opponent => {
            if win < tp {
                -l + (l - 1.0) * win / tp
            } else {
                -1.0 + (w + 1.0) * (win - tp) / (1.0 - tp)
            }
        }
    }
}

/// Janowski money cubeful equity, normalised to the cube: `dead·(1 − x) + live·x`.
fn money_janowski(p: &Probabilities, owner: Ownership, jacoby: bool, x: f32) -> f32 {
    let price = if jacoby && owner == Ownership::Centered {
        0.0
    } else {
        1.0
    };
    let dead = 2.0 * p.win - 1.0
        + (p.win_gammon - p.lose_gammon + p.win_backgammon - p.lose_backgammon) * price;
    match average_win_loss(p) {
        None => dead,
        Some((w, l)) => dead * (1.0 - x) + money_live_equity(p.win, w, l, owner, jacoby) * x,
    }
}

/// The efficiency implied by exact cubeful money equities:
/// `(E(exact) − E(dead))/(E(live) − E(dead))` for the context's cube owner, clamped to [0, 1];
/// the bearoff default when dead and live agree.
fn effective_efficiency(p: &Probabilities, exact: &ExactCubeful, owner: Ownership) -> f32 {
    let dead = money_janowski(p, owner, false, 0.0);
    let live = money_janowski(p, owner, false, 1.0);
    let e = exact.for_owner(owner, false);
    if (live - dead).abs() < 1e-6 {
        BEAROFF_EFFICIENCY
    } else {
        ((e - dead) / (live - dead)).clamp(0.0, 1.0)
    }
}

/// Cubeful equity of the player on roll at 0-ply, normalised: money in units of the cube
/// value, match play as EMG at the context's cube. See the module documentation.
pub fn cubeful_equity(p: &Probabilities, ctx: &CubeContext) -> f32 {
    match ctx.scoring {
        Scoring::Money { jacoby, .. } => match ctx.efficiency {
            CubeEfficiency::Exact(exact) => exact.for_owner(ctx.owner, jacoby),
            CubeEfficiency::Fixed(x) => money_janowski(p, ctx.owner, jacoby, x),
        },
        Scoring::Match { .. } => {
            let mwc = cubeful_mwc(p, ctx).unwrap_or(0.0);
            ctx.mwc_to_equity(mwc).unwrap_or(0.0)
        }
    }
}

/// Gammon and backgammon rates of both players: `[gammon, backgammon]` shares of the games each
/// wins (gammons excluding backgammons), indexed by player.
fn gammon_rates(p: &Probabilities, on_roll: Player) -> [[f64; 2]; 2] {
    let w = f64::from(p.win);
    let mut rates = [[0.0; 2]; 2];
    if w > 0.0 {
        rates[on_roll.index()] = [
            (f64::from(p.win_gammon) - f64::from(p.win_backgammon)) / w,
            f64::from(p.win_backgammon) / w,
        ];
    }
    if w < 1.0 {
        rates[on_roll.other().index()] = [
            (f64::from(p.lose_gammon) - f64::from(p.lose_backgammon)) / (1.0 - w),
            f64::from(p.lose_backgammon) / (1.0 - w),
        ];
    }
    rates
}

/// Take and cash points at one cube level of a match (see [`match_cube_points`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeLevelPoints {
    /// Cube value before the double these points are about.
    pub cube: u32,
    /// The doubled cube can still be redoubled by the taker (the recursion applies); otherwise
    /// the points are dead-cube points (with the automatic redouble where one follows).
    pub live: bool,
    /// Cash point of each player (indexed by player): the winning chance above which the
    /// player's double is a pass with a live cube.
    pub cash: [f64; 2],
}

impl CubeLevelPoints {
    /// The live take point of `taker` when the other player doubles at this level.
    pub fn take_point(&self, taker: Player) -> f64 {
        1.0 - self.cash[taker.other().index()]
    }
}

/// Largest number of cube levels a match up to [`crate::cube::met::MAX_AWAY`] points can have.
const LEVELS: usize = 16;

/// The live-cube cash points of both players at every cube level from the context's cube up to
/// the highest level at which the cube is still alive (GNU Backgammon's `GetPoints`), lowest
/// level first. `None` in money play.
///
/// At the top level the doubled cube is dead: a player's cash point is where passing and
/// taking are equal for the opponent, `CP = (DTL − DP)/(DTL − DTW)` with `DP` the MWC of
/// cashing, `DTW`/`DTL` of winning/losing the doubled cube at the current gammon rates (a cube
/// that the opponent would redouble at once — because the doubler then needs no more than the
/// doubled cube — counts as redoubled). Below it the taker can redouble, and the recursion
/// `CP(n) = 1 − CP'(2n)·(DP − DTW)/(RDP − DTW)` (`RDP`: the MWC after passing the redouble,
/// `CP'` the taker's cash point at the next level) is the appendix's
/// `TP(live, n) = TP(dead, n)·(1 − TP(live, 2n))` with the taker's gain measured as cashing the
/// redouble.
pub fn match_cube_points(p: &Probabilities, ctx: &CubeContext) -> Option<Vec<CubeLevelPoints>> {
    let Scoring::Match {
        score,
        on_roll,
        met,
    } = ctx.scoring
    else {
        return None;
    };
    let mut levels = [CubeLevelPoints {
        cube: 0,
        live: false,
        cash: [0.0; 2],
    }; LEVELS];
    let n = cash_point_levels(
        met,
        &score,
        ctx.cube,
        &gammon_rates(p, on_roll),
        &mut levels,
    );
    Some(levels[..n].to_vec())
}

/// Fills `levels[0..n]` (lowest cube first) and returns `n`.
fn cash_point_levels(
    met: &MatchEquityTable,
    score: &MatchScore,
    cube: u32,
    rates: &[[f64; 2]; 2],
    levels: &mut [CubeLevelPoints; LEVELS],
) -> usize {
    let cube = cube.max(1);
    // GNU Backgammon's indices: points needed minus one.
    let idx = [
        i64::from(score.away(Player::Zero)) - 1,
        i64::from(score.away(Player::One)) - 1,
    ];
    let mut top = 0;
    let mut dead = i64::from(cube);
    while idx[0] >= 2 * dead && idx[1] >= 2 * dead && top + 1 < LEVELS {
        top += 1;
        dead *= 2;
    }
    let me = |k: Player, winner: Player, points: i64| {
        met.mwc_after(score, k, winner, points.clamp(0, u32::MAX as i64) as u32)
    };
    // MWC of k when `winner` wins `c` points times 1, 2 or 3, at the winner's gammon rates.
    let result = |k: Player, winner: Player, c: i64| {
        let [g, bg] = rates[winner.index()];
        (1.0 - g - bg) * me(k, winner, c) + g * me(k, winner, 2 * c) + bg * me(k, winner, 3 * c)
    };
    let ratio = |num: f64, den: f64| if den.abs() < 1e-12 { 1.0 } else { num / den };
    for n in (0..=top).rev() {
        let c = i64::from(cube) << n;
        let alive = idx[0] >= 2 * c && idx[1] >= 2 * c;
        let mut cash = [0.0; 2];
        for k in [Player::Zero, Player::One] {
            let o = k.other();
            let dp = me(k, k, c);
            cash[k.index()] = if !alive {
                // Automatic redouble: if k needs no more than the doubled cube but the opponent
                // needs more, the opponent redoubles at once.
                let (ik, io) = (idx[k.index()], idx[o.index()]);
                let prime = if ik < 2 * c && io >= 2 * c { 2 * c } else { c };
                let dtl = result(k, o, 2 * prime);
                let dtw = result(k, k, 2 * prime);
                ratio(dtl - dp, dtl - dtw)
            } else {
                let rdp = me(k, o, 2 * c);
                let dtw = result(k, k, 2 * c);
                let next = levels[n + 1].cash[o.index()];
                1.0 - next * ratio(dp - dtw, rdp - dtw)
            };
        }
        levels[n] = CubeLevelPoints {
            cube: c as u32,
            live: alive,
            cash,
        };
    }
    top + 1
}

/// The dead-cube take point of the opponent of `doubler` when `doubler` doubles now (GNU
/// Backgammon's market window "dead cube", without automatic redoubles): the winning chance of
/// the taker at which taking a dead doubled cube and passing give the same MWC. `None` in money
/// play (use [`money_take_point`] with `x = 0`).
pub fn match_dead_take_point(p: &Probabilities, ctx: &CubeContext, doubler: Player) -> Option<f64> {
    let Scoring::Match {
        score,
        on_roll,
        met,
    } = ctx.scoring
    else {
        return None;
    };
    let rates = gammon_rates(p, on_roll);
    let taker = doubler.other();
    let c = ctx.cube;
    let result = |winner: Player| {
        let [g, bg] = rates[winner.index()];
        (1.0 - g - bg) * met.mwc_after(&score, doubler, winner, 2 * c)
            + g * met.mwc_after(&score, doubler, winner, 4 * c)
            + bg * met.mwc_after(&score, doubler, winner, 6 * c)
    };
    let dtw = result(doubler);
    let dtl = result(taker);
    let dp = met.mwc_after(&score, doubler, doubler, c);
    let risk = dtw - dp;
    let gain = dp - dtl;
    Some(risk / (risk + gain))
}

/// Cubeful MWC of the player on roll at 0-ply (match play; `None` in money play): the
/// cubeless MWC when the cube is dead ([`CubeContext::cube_is_live`]), otherwise
/// `MWC(dead)·(1 − x) + MWC(live)·x` with the live-cube MWC interpolated through the corners
/// for the cube owner (see the module documentation), corrected where a player holds a free
/// redouble ([`FreeRedouble`]).
pub fn cubeful_mwc(p: &Probabilities, ctx: &CubeContext) -> Option<f32> {
    match_cubeful_mwc(p, ctx, true).map(|v| v as f32)
}

/// [`cubeful_mwc`]; with `own_double` false, without the player on roll's option of giving a
/// free redouble now (his "no double" value: [`cube_decision`] weighs the double itself).
fn match_cubeful_mwc(p: &Probabilities, ctx: &CubeContext, own_double: bool) -> Option<f64> {
    let Scoring::Match {
        score,
        on_roll,
        met,
    } = ctx.scoring
    else {
        return None;
    };
    let dead = dead_mwc(p, met, &score, on_roll, ctx.cube);
    if !ctx.cube_is_live() {
        return Some(dead);
    }
    let x = match ctx.efficiency {
        CubeEfficiency::Fixed(x) => x,
        CubeEfficiency::Exact(exact) => effective_efficiency(p, &exact, ctx.owner),
    };
    let live = live_mwc(p, met, &score, on_roll, ctx.cube, ctx.owner);
    let janowski = dead * f64::from(1.0 - x) + live * f64::from(x);
    Some(
        match FreeRedouble::find(p, met, &score, on_roll, ctx.cube, ctx.owner) {
            Some(FreeRedouble::Opponent(redoubled)) => janowski.min(redoubled),
            Some(FreeRedouble::OnRoll(redoubled)) if own_double => janowski.max(redoubled),
            _ => janowski,
        },
    )
}

/// A redouble that costs its giver nothing, and the MWC of the player on roll once it is given
/// and answered.
///
/// The redouble is free when the other player already wins the match by winning any game at
/// the current cube, and the giver, who has access to the cube, does not: it raises only what
/// the giver wins, and the doubled cube is dead (its new owner gains nothing by owning it). So
/// the giver redoubles as soon as he may, rather than waiting and losing his market, unless he
/// is too good (playing on for a gammon); the other player then takes (the cubeless MWC at
/// the doubled cube) or passes, whichever is better for him. The typical case: the 2-away
/// leader doubles the 3-away trailer, who may recube to 4 at no cost. Janowski's
/// interpolation with a partly live cube values that recube far below what it is worth: our
/// cubeful rollouts and GNU Backgammon's 2-ply give the leader's double/take 0.25 to 0.30 less
/// than the interpolation does (docs/CUBE.md). Post-Crawford the same holds for the trailer's
/// double against the 1-away leader.
#[derive(Clone, Copy, Debug, PartialEq)]
enum FreeRedouble {
    /// The player on roll holds it (and may give it now).
    OnRoll(f64),
    /// The opponent holds it (and gives it at his turn).
    Opponent(f64),
}

impl FreeRedouble {
    fn find(
        p: &Probabilities,
        met: &MatchEquityTable,
        score: &MatchScore,
        on_roll: Player,
        cube: u32,
        owner: Ownership,
    ) -> Option<FreeRedouble> {
        if score.crawford {
            return None;
        }
        let away = |k: Player| u32::from(score.away(k));
        let giver = if owner != Ownership::OnRoll
            && away(on_roll) <= cube
            && away(on_roll.other()) > cube
        {
            on_roll.other()
        } else if owner != Ownership::Opponent
            && away(on_roll.other()) <= cube
            && away(on_roll) > cube
        {
            on_roll
        } else {
            return None;
        };
        let take = dead_mwc(p, met, score, on_roll, 2 * cube);
        let pass = met.mwc_after(score, on_roll, giver, cube);
        Some(if giver == on_roll {
            FreeRedouble::OnRoll(take.min(pass))
        } else {
            FreeRedouble::Opponent(take.max(pass))
        })
    }
}

/// The fully live cube MWC of the player on roll.
fn live_mwc(
    p: &Probabilities,
    met: &MatchEquityTable,
    score: &MatchScore,
    on_roll: Player,
    cube: u32,
    owner: Ownership,
) -> f64 {
    let rates = gammon_rates(p, on_roll);
    let mut levels = [CubeLevelPoints {
        cube: 0,
        live: false,
        cash: [0.0; 2],
    }; LEVELS];
    cash_point_levels(met, score, cube, &rates, &mut levels);
    let (me, opp) = (on_roll.index(), on_roll.other().index());
    let too_good = levels[0].cash[me];
    let opp_too_good = 1.0 - levels[0].cash[opp];
    let o = met.outcomes(score, on_roll, cube);
    let win = f64::from(p.win);
    let cash = o.win[0];
    let opp_cash = o.lose[0];
    let [g_me, bg_me] = rates[me];
    let [g_opp, bg_opp] = rates[opp];
    let lose_all = (1.0 - g_opp - bg_opp) * o.lose[0] + g_opp * o.lose[1] + bg_opp * o.lose[2];
    let win_all = (1.0 - g_me - bg_me) * o.win[0] + g_me * o.win[1] + bg_me * o.win[2];
    // Line from (x0, y0) to (x1, y1) at `win`; the left end if the segment is degenerate.
    let line = |x0: f64, y0: f64, x1: f64, y1: f64| {
        if x1 - x0 > 0.0 {
            y0 + (y1 - y0) * (win - x0) / (x1 - x0)
        } else {
            y0
        }
    };
    match owner {
        Ownership::Centered => {
            if win <= opp_too_good {
                line(0.0, lose_all, opp_too_good, opp_cash)
            } else if win < too_good {
                line(opp_too_good, opp_cash, too_good, cash)
            } else if too_good < 1.0 {
                line(too_good, cash, 1.0, win_all)
            } else {
                win_all
            }
        }
        Ownership::OnRoll => {
            if win <= too_good {
                line(0.0, lose_all, too_good, cash)
            } else if too_good < 1.0 {
                line(too_good, cash, 1.0, win_all)
            } else {
                win_all
            }
        }
        Ownership::Opponent => {
            if win <= opp_too_good {
                line(0.0, lose_all, opp_too_good, opp_cash)
            } else {
                line(opp_too_good, opp_cash, 1.0, win_all)
            }
        }
    }
}

/// One of the three cube alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeOption {
    NoDouble,
    DoubleTake,
    DoublePass,
}

/// The proper cube action, as GNU Backgammon names it (`cubedecision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeAction {
    DoubleTake,
    DoublePass,
    NoDoubleTake,
    TooGoodTake,
    TooGoodPass,
    DoubleBeaver,
    NoDoubleBeaver,
    RedoubleTake,
    RedoublePass,
    NoRedoubleTake,
    TooGoodRedoubleTake,
    TooGoodRedoublePass,
    NoRedoubleBeaver,
    /// Match play: the cube is centred but doubling makes no sense (Crawford game, …).
    NoDoubleDeadCube,
    /// Match play: the player owns the cube but redoubling makes no sense.
    NoRedoubleDeadCube,
    /// The player on roll has no access to the cube.
    NotAvailable,
    OptionalDoubleTake,
    OptionalRedoubleTake,
    OptionalDoubleBeaver,
    OptionalDoublePass,
    OptionalRedoublePass,
}

impl CubeAction {
    /// GNU Backgammon's text for the action (`GetCubeRecommendation`).
    pub fn text(self) -> &'static str {
        match self {
            CubeAction::DoubleTake => "Double, take",
            CubeAction::DoublePass => "Double, pass",
            CubeAction::NoDoubleTake => "No double, take",
            CubeAction::TooGoodTake => "Too good to double, take",
            CubeAction::TooGoodPass => "Too good to double, pass",
            CubeAction::DoubleBeaver => "Double, beaver",
            CubeAction::NoDoubleBeaver => "No double, beaver",
            CubeAction::RedoubleTake => "Redouble, take",
            CubeAction::RedoublePass => "Redouble, pass",
            CubeAction::NoRedoubleTake => "No redouble, take",
            CubeAction::TooGoodRedoubleTake => "Too good to redouble, take",
            CubeAction::TooGoodRedoublePass => "Too good to redouble, pass",
            CubeAction::NoRedoubleBeaver => "No redouble, beaver",
            CubeAction::NoDoubleDeadCube => "Never double, take (dead cube)",
            CubeAction::NoRedoubleDeadCube => "Never redouble, take (dead cube)",
            CubeAction::NotAvailable => "Double not available",
            CubeAction::OptionalDoubleTake => "Optional double, take",
            CubeAction::OptionalRedoubleTake => "Optional redouble, take",
            CubeAction::OptionalDoubleBeaver => "Optional double, beaver",
            CubeAction::OptionalDoublePass => "Optional double, pass",
            CubeAction::OptionalRedoublePass => "Optional redouble, pass",
        }
    }

    /// The player should double (or may: the optional doubles).
    pub fn is_double(self) -> bool {
        matches!(
            self,
            CubeAction::DoubleTake
                | CubeAction::DoublePass
                | CubeAction::DoubleBeaver
                | CubeAction::RedoubleTake
                | CubeAction::RedoublePass
                | CubeAction::OptionalDoubleTake
                | CubeAction::OptionalRedoubleTake
                | CubeAction::OptionalDoubleBeaver
                | CubeAction::OptionalDoublePass
                | CubeAction::OptionalRedoublePass
        )
    }

    /// The opponent's proper response to a double: take, pass or beaver.
    pub fn response(self) -> Response {
        match self {
            CubeAction::DoublePass
            | CubeAction::TooGoodPass
            | CubeAction::RedoublePass
            | CubeAction::TooGoodRedoublePass
            | CubeAction::OptionalDoublePass
            | CubeAction::OptionalRedoublePass => Response::Pass,
            CubeAction::DoubleBeaver
            | CubeAction::NoDoubleBeaver
            | CubeAction::NoRedoubleBeaver
            | CubeAction::OptionalDoubleBeaver => Response::Beaver,
            _ => Response::Take,
        }
    }
}

impl fmt::Display for CubeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// The doubled player's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Response {
    Take,
    Pass,
    /// Take and redouble at once, keeping the cube (money play with beavers).
    Beaver,
}

/// The three cubeful equities of a cube decision and the proper action. Equities are
/// normalised for the player considering the double, with the cube value before the double
/// (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeDecision {
    pub no_double: f32,
    pub double_take: f32,
    pub double_pass: f32,
    pub action: CubeAction,
    /// The equity of the proper action (GNU Backgammon's `OUTPUT_OPTIMAL`: the double/take
    /// equity whenever double/take is between no double and double/pass, also when a beaver
    /// makes the double wrong).
    pub optimal: f32,
    /// Whether the cube was centred (for the "double"/"redouble" wording of the report).
    pub centered: bool,
}

impl CubeDecision {
    /// The equity of one alternative.
    pub fn equity(&self, option: CubeOption) -> f32 {
        match option {
            CubeOption::NoDouble => self.no_double,
            CubeOption::DoubleTake => self.double_take,
            CubeOption::DoublePass => self.double_pass,
        }
    }

    /// The alternatives in GNU Backgammon's display order: the proper one first, then the
    /// one better for the doubler (`getCubeDecisionOrdering`).
    pub fn ordering(&self) -> [CubeOption; 3] {
        use CubeAction as A;
        use CubeOption as O;
        match self.action {
            A::DoubleTake | A::DoubleBeaver | A::RedoubleTake => {
                [O::DoubleTake, O::DoublePass, O::NoDouble]
            }
            A::DoublePass | A::RedoublePass => [O::DoublePass, O::DoubleTake, O::NoDouble],
            A::TooGoodPass
            | A::TooGoodRedoublePass
            | A::OptionalDoublePass
            | A::OptionalRedoublePass => [O::NoDouble, O::DoubleTake, O::DoublePass],
            _ => [O::NoDouble, O::DoublePass, O::DoubleTake],
        }
    }

    /// GNU Backgammon's percentage after the proper action (`getPercent`): for "no double"
    /// actions, the share of passes needed to make doubling right; for "too good, pass", the
    /// share of takes needed to make doubling right. `None` otherwise.
    pub fn bluff_percent(&self) -> Option<f32> {
        use CubeAction::*;
        match self.action {
            NoDoubleTake | NoDoubleBeaver | NoRedoubleTake | NoRedoubleBeaver => {
                Some((self.no_double - self.double_take) / (self.double_pass - self.double_take))
            }
            TooGoodPass | TooGoodRedoublePass if self.no_double <= self.double_take => {
                Some((self.no_double - self.double_pass) / (self.double_take - self.double_pass))
            }
            _ => None,
        }
    }

    /// The "Proper cube action: …" line, with the percentage where GNU Backgammon shows one.
    pub fn proper_cube_action(&self) -> String {
        match self.bluff_percent() {
            Some(r) if r >= 0.0 => {
                format!("Proper cube action: {} ({:.1}%)", self.action, 100.0 * r)
            }
            _ => format!("Proper cube action: {}", self.action),
        }
    }

    fn label(&self, option: CubeOption) -> &'static str {
        match (option, self.centered) {
            (CubeOption::NoDouble, true) => "No double",
            (CubeOption::DoubleTake, true) => "Double, take",
            (CubeOption::DoublePass, true) => "Double, pass",
            (CubeOption::NoDouble, false) => "No redouble",
            (CubeOption::DoubleTake, false) => "Redouble, take",
            (CubeOption::DoublePass, false) => "Redouble, pass",
        }
    }
}

impl fmt::Display for CubeDecision {
    /// GNU Backgammon's cube analysis block:
    ///
    /// ```text
    /// Cubeful equities:
    /// 1. Double, take        +0.556
    /// 2. Double, pass        +1.000  (+0.444)
    /// 3. No double           +0.412  (-0.144)
    ///
    /// Proper cube action: Double, take
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Cubeful equities:")?;
        let order = self.ordering();
        let first = self.equity(order[0]);
        for (i, option) in order.into_iter().enumerate() {
            let e = self.equity(option);
            write!(f, "{}. {:<20}{:+6.3}", i + 1, self.label(option), e)?;
            if i > 0 {
                write!(f, "  ({:+6.3})", e - first)?;
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        writeln!(f, "{}", self.proper_cube_action())
    }
}

/// The cube decision from the no-double and double/take equities (normalised for the player
/// on roll, cube value before the double; double/pass is +1), following GNU Backgammon's
/// `FindBestCubeDecision`. `can_win_gammon`: whether the player on roll still has gammon
/// chances (a position that cannot win a gammon is never "too good").
pub fn decide(
    no_double: f32,
    double_take: f32,
    ctx: &CubeContext,
    can_win_gammon: bool,
) -> CubeDecision {
    let (nd, dt, dp) = (no_double, double_take, 1.0f32);
    let centered = ctx.owner == Ownership::Centered;
    let (money, jacoby, beavers) = match ctx.scoring {
        Scoring::Money { jacoby, beavers } => (true, jacoby, beavers),
        Scoring::Match { .. } => (false, false, false),
    };
    let pick = |centred_action: CubeAction, owned_action: CubeAction| {
        if centered {
            centred_action
        } else {
            owned_action
        }
    };
    let optional = |a: f32, b: f32| (a - b).abs() <= 1e-5;
    let beaver_range = money && beavers && (-2.0..=0.0).contains(&dt);
    use CubeAction::*;
    let mut optimal = nd;
    let action = if !ctx.can_double() {
        if !money && ctx.owner != Ownership::Opponent {
            pick(NoDoubleDeadCube, NoRedoubleDeadCube)
        } else {
            NotAvailable
        }
    } else if dt >= nd && dp >= nd {
        if dp > dt {
            optimal = dt;
            let opt = optional(dt, nd);
            if beaver_range {
                if dt * 2.0 < nd {
                    NoDoubleBeaver
                } else if opt {
                    OptionalDoubleBeaver
                } else {
                    DoubleBeaver
                }
            } else if opt {
                pick(OptionalDoubleTake, OptionalRedoubleTake)
            } else {
                pick(DoubleTake, RedoubleTake)
            }
        } else {
            optimal = dp;
            if optional(nd, dp) && can_win_gammon && (!money || !centered || !jacoby) {
                pick(OptionalDoublePass, OptionalRedoublePass)
            } else {
                pick(DoublePass, RedoublePass)
            }
        }
    } else if nd > dt {
        if dt > dp {
            if can_win_gammon {
                pick(TooGoodPass, TooGoodRedoublePass)
            } else {
                pick(DoublePass, RedoublePass)
            }
        } else if nd > dp {
            if can_win_gammon {
                pick(TooGoodTake, TooGoodRedoubleTake)
            } else {
                pick(NoDoubleTake, NoRedoubleTake)
            }
        } else if beaver_range {
            pick(NoDoubleBeaver, NoRedoubleBeaver)
        } else {
            pick(NoDoubleTake, NoRedoubleTake)
        }
    } else if can_win_gammon {
        pick(TooGoodPass, TooGoodRedoublePass)
    } else {
        pick(DoublePass, RedoublePass)
    };
    CubeDecision {
        no_double: nd,
        double_take: dt,
        double_pass: dp,
        action,
        optimal,
        centered,
    }
}

/// The 0-ply cube decision of the player on roll: no double at the context's cube, double/take
/// with the doubled cube owned by the opponent (money: twice its equity; match: its MWC as EMG
/// at the current cube), double/pass = +1.
pub fn cube_decision(p: &Probabilities, ctx: &CubeContext) -> CubeDecision {
    let nd = match ctx.scoring {
        Scoring::Money { .. } => cubeful_equity(p, ctx),
        Scoring::Match { .. } => {
            let mwc = match_cubeful_mwc(p, ctx, false).unwrap_or(0.0);
            ctx.mwc_to_equity(mwc as f32).unwrap_or(0.0)
        }
    };
    let doubled = ctx.doubled();
    let dt = if ctx.owner == Ownership::Opponent {
        nd
    } else {
        match ctx.scoring {
            Scoring::Money { .. } => 2.0 * cubeful_equity(p, &doubled),
            Scoring::Match { .. } => {
                let mwc = cubeful_mwc(p, &doubled).unwrap_or(0.0);
                ctx.mwc_to_equity(mwc).unwrap_or(0.0)
            }
        }
    };
    decide(nd, dt, ctx, p.win_gammon > 0.0)
}

/// The doubled player's best answer given the doubler's double/take equity (normalised as in
/// [`CubeDecision`]): pass if taking is worse than passing (`double_take > +1` for the
/// doubler); with beavers in money play, beaver when taking is better than even for the taker
/// (`double_take < 0`); take otherwise.
pub fn response(double_take: f32, ctx: &CubeContext) -> Response {
    match ctx.scoring {
        Scoring::Money { beavers: true, .. } if double_take < 0.0 => Response::Beaver,
        _ if double_take > 1.0 => Response::Pass,
        _ => Response::Take,
    }
}

/// Whether the original doubler should raccoon (redouble at once after a beaver, the beaver
/// keeping the cube): in money play with beavers, when his equity with the beavered cube is
/// positive — the beaver was a mistake.
pub fn should_raccoon(double_take: f32, ctx: &CubeContext) -> bool {
    matches!(ctx.scoring, Scoring::Money { beavers: true, .. }) && double_take > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probs(a: [f32; 5]) -> Probabilities {
        Probabilities::from_array(a)
    }

    #[test]
    fn efficiency_by_class() {
        use Purpose::{CheckerPlay, CubeAction};
        for purpose in [CheckerPlay, CubeAction] {
            let x = |class, pips, plies| cube_efficiency(class, pips, plies, purpose);
            for plies in [2, 3, 4] {
                assert_eq!(x(PositionClass::Contact, 150, plies), 0.68);
                assert_eq!(x(PositionClass::Crashed, 150, plies), 0.68);
                assert_eq!(x(PositionClass::Bearoff, 20, plies), 0.6);
                assert_eq!(x(PositionClass::Over, 0, plies), 0.0);
                assert!((x(PositionClass::Race, 40, plies) - 0.6).abs() < 1e-6);
                assert!((x(PositionClass::Race, 80, plies) - 0.65).abs() < 1e-6);
                assert!((x(PositionClass::Race, 120, plies) - 0.7).abs() < 1e-6);
                assert_eq!(x(PositionClass::Race, 20, plies), 0.6);
                assert_eq!(x(PositionClass::Race, 160, plies), 0.7);
            }
            for plies in [0, 1] {
                let contact = if purpose == CubeAction { 0.76 } else { 0.68 };
                assert_eq!(x(PositionClass::Contact, 150, plies), contact);
                assert_eq!(x(PositionClass::Crashed, 150, plies), contact);
                assert_eq!(x(PositionClass::Bearoff, 20, plies), 0.6);
                assert_eq!(x(PositionClass::Over, 0, plies), 0.0);
                assert_eq!(x(PositionClass::Race, 0, plies), 0.6);
                assert!((x(PositionClass::Race, 40, plies) - 0.7).abs() < 1e-6);
                assert!((x(PositionClass::Race, 80, plies) - 0.8).abs() < 1e-6);
                assert_eq!(x(PositionClass::Race, 160, plies), 0.8);
            }
        }
        let start = Position::starting();
        assert_eq!(position_cube_efficiency(&start, 2, CubeAction), 0.68);
        assert_eq!(position_cube_efficiency(&start, 0, CubeAction), 0.76);
        assert_eq!(position_cube_efficiency(&start, 0, CheckerPlay), 0.68);
    }

    #[test]
    fn gammonless_money_points() {
        let m = money_points(1.0, 1.0, false, false);
        assert!((m.take[0] - 0.25).abs() < 1e-6);
        assert!((m.take[1] - 0.2).abs() < 1e-6);
        assert!((m.cash[0] - 0.75).abs() < 1e-6);
        assert!((m.cash[1] - 0.8).abs() < 1e-6);
        assert!((money_take_point(1.0, 1.0, 0.7) - 0.5 / 2.35).abs() < 1e-6);
        assert!((money_cash_point(1.0, 1.0, 1.0) - 0.8).abs() < 1e-6);
    }

    #[test]
    fn live_curves_meet_their_corners() {
        let (w, l) = (1.3, 1.1);
        let tp = (l - 0.5) / (w + l + 0.5);
        let cp = (l + 1.0) / (w + l + 0.5);
        for owner in [Ownership::Centered, Ownership::OnRoll, Ownership::Opponent] {
            assert!((money_live_equity(0.0, w, l, owner, false) + l).abs() < 1e-6);
            assert!((money_live_equity(1.0, w, l, owner, false) - w).abs() < 1e-6);
        }
        assert!((money_live_equity(tp, w, l, Ownership::Centered, false) + 1.0).abs() < 1e-5);
        assert!((money_live_equity(cp, w, l, Ownership::Centered, false) - 1.0).abs() < 1e-5);
        assert!((money_live_equity(cp, w, l, Ownership::OnRoll, false) - 1.0).abs() < 1e-5);
        assert!((money_live_equity(tp, w, l, Ownership::Opponent, false) + 1.0).abs() < 1e-5);
        // Jacoby: no gammons before the cube is turned.
        assert_eq!(
            money_live_equity(0.05, w, l, Ownership::Centered, true),
            -1.0
        );
        assert_eq!(
            money_live_equity(0.95, w, l, Ownership::Centered, true),
            1.0
        );
    }

    #[test]
    fn certain_results_are_dead() {
        let ctx = CubeContext::money(1, Ownership::Centered);
        let won = probs([1.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(cubeful_equity(&won, &ctx), 2.0);
        let lost = probs([0.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(cubeful_equity(&lost, &ctx), -1.0);
    }

    #[test]
    fn swapping_and_doubling() {
        let met = MatchEquityTable::kazaross_xg2();
        let ctx = CubeContext::new_match(
            met,
            MatchScore::new(7, [2, 3], false),
            Player::One,
            1,
            Ownership::Centered,
        );
        let d = ctx.doubled();
        assert_eq!((d.cube, d.owner), (2, Ownership::Opponent));
        assert!(!d.can_double());
        let s = d.swapped();
        assert_eq!(s.owner, Ownership::OnRoll);
        assert!(s.can_double());
        match s.scoring {
            Scoring::Match { on_roll, .. } => assert_eq!(on_roll, Player::Zero),
            _ => unreachable!(),
        }
    }

    #[test]
    fn from_state_reads_the_cube() {
        let mut state = MatchState::new_match(5);
        state.cube_log2 = 1;
        state.cube_owner = CubeOwner::Owned(Player::Zero);
        state.on_roll = Player::One;
        let met = MatchEquityTable::kazaross_xg2();
        let ctx = CubeContext::from_state(&state, met, false);
        assert_eq!(ctx.cube, 2);
        assert_eq!(ctx.owner, Ownership::Opponent);
        assert!(!ctx.is_money());
        let money = CubeContext::from_state(&MatchState::money(), met, true);
        assert!(money.is_money());
        assert!(money.can_double());
    }
}
