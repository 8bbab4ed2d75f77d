//! Cube decisions: the three alternatives' equities, the proper action as GNU Backgammon names
//! and reports it, and the doubled player's answer.

use std::fmt;

use crate::eval::Probabilities;

use super::context::{CubeContext, Ownership, Scoring};
use super::equity::cubeful_equity;
use super::match_play::{cubeful_mwc, match_cubeful_mwc};

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
/// (see [the cube module](crate::cube)).
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
