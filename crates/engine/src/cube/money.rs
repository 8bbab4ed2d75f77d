//! Janowski's model for money play: average win and loss, take, cash and double points, the
//! live-cube equity and its mix with the dead one.

use crate::eval::Probabilities;

use super::context::Ownership;
use super::efficiency::{ExactCubeful, BEAROFF_EFFICIENCY};

/// Below this winning chance (or above one minus it) the cube is treated as dead.
const EPSILON: f32 = 1e-7;

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
pub(super) fn money_janowski(p: &Probabilities, owner: Ownership, jacoby: bool, x: f32) -> f32 {
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
pub(super) fn effective_efficiency(
    p: &Probabilities,
    exact: &ExactCubeful,
    owner: Ownership,
) -> f32 {
    let dead = money_janowski(p, owner, false, 0.0);
    let live = money_janowski(p, owner, false, 1.0);
    let e = exact.for_owner(owner, false);
    if (live - dead).abs() < 1e-6 {
        BEAROFF_EFFICIENCY
    } else {
        ((e - dead) / (live - dead)).clamp(0.0, 1.0)
    }
}
