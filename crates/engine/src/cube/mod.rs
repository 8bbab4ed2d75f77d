//! Cube theory: cubeless and cubeful equities by Rick Janowski's model, take and cash points
//! for money and match play, and cube decisions reported as GNU Backgammon reports them.
//!
//! # The model (the manual's appendix "Cubeful equities")
//!
//! The formulas are collected in docs/CUBE.md §Janowski's model.
//!
//! For the player on roll with cubeless chances `p` (a [`Probabilities`](crate::eval::Probabilities)):
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

mod context;
mod decision;
mod efficiency;
mod equity;
mod match_play;
pub mod met;
mod money;

pub use context::{CubeContext, Ownership, Scoring};
pub use decision::{
    cube_decision, decide, response, should_raccoon, CubeAction, CubeDecision, CubeOption, Response,
};
pub use efficiency::{
    cube_efficiency, position_cube_efficiency, CubeEfficiency, ExactCubeful, Purpose,
    BEAROFF_EFFICIENCY, CONTACT_EFFICIENCY, CUBE_ACTION_CONTACT_EFFICIENCY,
};
pub use equity::{cubeful_equity, cubeless_equity};
pub use match_play::{
    cubeful_mwc, cubeless_mwc, match_cube_points, match_dead_take_point, CubeLevelPoints,
};
pub use money::{
    average_win_loss, money_cash_point, money_live_equity, money_points, money_take_point,
    MoneyPoints,
};

#[cfg(test)]
mod tests {
    use super::met::{MatchEquityTable, MatchScore};
    use super::*;
    use crate::eval::class::PositionClass;
    use crate::eval::Probabilities;
    use crate::game::match_state::{CubeOwner, MatchState, Player};
    use crate::rules::position::Position;

    fn probs(a: [f32; 5]) -> Probabilities {
        Probabilities::from_array(a)
    }

    #[test]
    fn efficiency_by_class() {
        use Purpose::{CheckerPlay, CubeAction};
        for purpose in [CheckerPlay, CubeAction] {
            let x = |class, pips, plies| cube_efficiency(class, pips, plies, purpose);
            // Contact and crashed: a livelier cube for cube actions at every depth.
            let contact = if purpose == CubeAction { 0.76 } else { 0.68 };
            for plies in [2, 3, 4] {
                assert_eq!(x(PositionClass::Contact, 150, plies), contact);
                assert_eq!(x(PositionClass::Crashed, 150, plies), contact);
                assert_eq!(x(PositionClass::Bearoff, 20, plies), 0.6);
                assert_eq!(x(PositionClass::Over, 0, plies), 0.0);
                assert!((x(PositionClass::Race, 40, plies) - 0.6).abs() < 1e-6);
                assert!((x(PositionClass::Race, 80, plies) - 0.65).abs() < 1e-6);
                assert!((x(PositionClass::Race, 120, plies) - 0.7).abs() < 1e-6);
                assert_eq!(x(PositionClass::Race, 20, plies), 0.6);
                assert_eq!(x(PositionClass::Race, 160, plies), 0.7);
            }
            for plies in [0, 1] {
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
        assert_eq!(position_cube_efficiency(&start, 2, CubeAction), 0.76);
        assert_eq!(position_cube_efficiency(&start, 2, CheckerPlay), 0.68);
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
