//! Janowski's model in match winning chances: the cubeless MWC, the live-cube cash points of
//! every cube level (GNU Backgammon's `GetPoints`), the live-cube MWC, and free redoubles.

use crate::cube::met::{MatchEquityTable, MatchScore};
use crate::eval::Probabilities;
use crate::game::match_state::Player;

use super::context::{CubeContext, Ownership, Scoring};
use super::efficiency::CubeEfficiency;
use super::money::effective_efficiency;

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
/// play (use [`money_take_point`](super::money_take_point) with `x = 0`).
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
/// for the cube owner (see [the cube module](crate::cube)), corrected where a player holds a free
/// redouble (`FreeRedouble`).
pub fn cubeful_mwc(p: &Probabilities, ctx: &CubeContext) -> Option<f32> {
    match_cubeful_mwc(p, ctx, true).map(|v| v as f32)
}

/// [`cubeful_mwc`]; with `own_double` false, without the player on roll's option of giving a
/// free redouble now (his "no double" value: [`cube_decision`] weighs the double itself).
pub(super) fn match_cubeful_mwc(
    p: &Probabilities,
    ctx: &CubeContext,
    own_double: bool,
) -> Option<f64> {
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
