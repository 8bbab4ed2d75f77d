//! The cubeless and cubeful equities of the player on roll, money or match (the entry points of
//! a search's leaves).

use crate::eval::Probabilities;

use super::context::{CubeContext, Ownership, Scoring};
use super::efficiency::CubeEfficiency;
use super::match_play::cubeful_mwc;
use super::money::money_janowski;

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

/// Cubeful equity of the player on roll at 0-ply, normalised: money in units of the cube
/// value, match play as EMG at the context's cube. See [the cube module](crate::cube).
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
