//! The analysis of a cube decision, stored as GNU Backgammon stores it (SGF `DA`; docs/ANALYSIS.md
//! §Cube decisions): for the player who may double, the cubeless chances, the cubeless equity and
//! the cubeful value after no double and after double/take — the cubeful value as normalised money
//! equity (double/pass = +1) in money play, as the match winning chance in match play. The first
//! six numbers are the same in both halves, as GNU Backgammon writes them.
//!
//! GNU Backgammon analyses a cube decision only when the cube is in use and the player may double
//! ([`CubeContext::can_double`]: access to the cube, not the Crawford game, not a dead cube, not
//! the post-Crawford leader); before a checker play, never at the opening position.

use crate::cube::{cubeless_equity, CubeContext, Scoring};
use crate::game::record::analysis::{CubeAnalysis, EvalSource};
use crate::rules::position::Position;
use crate::search::{EvalSettings, Search};

use super::settings::eval_context;
use super::{as_written, EVAL_DECIMALS};

/// Analyses the cube decision of the player on roll in `position` (seen from him) with the cube
/// context `ctx` at `settings` (evaluated cubeful). `None` when he may not double.
pub fn analyse_cube(
    search: &mut Search,
    position: &Position,
    ctx: &CubeContext,
    settings: &EvalSettings,
) -> Option<CubeAnalysis> {
    if !ctx.can_double() {
        return None;
    }
    let settings = EvalSettings {
        cubeful: true,
        ..*settings
    };
    let a = search.cube_decision(position, ctx, &settings);
    let p = a.probabilities;
    let cubeless = f64::from(cubeless_equity(&p, ctx));
    let value = |equity: f32| -> f64 {
        match ctx.scoring {
            Scoring::Money { .. } => f64::from(equity),
            Scoring::Match { .. } => ctx
                .scale()
                .map_or(0.5, |scale| scale.mwc(f64::from(equity))),
        }
    };
    let block = |cubeful: f64| -> [f64; 7] {
        let c = p.to_array().map(f64::from);
        [c[0], c[1], c[2], c[3], c[4], cubeless, cubeful].map(|x| as_written(x, EVAL_DECIMALS))
    };
    Some(CubeAnalysis {
        no_double: block(value(a.decision.no_double)),
        double_take: block(value(a.decision.double_take)),
        source: EvalSource::Eval(eval_context(&settings, a.plies)),
        double_take_rollout: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::marks::judge_cube;
    use crate::cube::met::{MatchEquityTable, MatchScore};
    use crate::cube::Ownership;
    use crate::eval::Nets;
    use crate::game::match_state::{MatchState, Player};
    use crate::game::record::{MatchInfo, Snapshot};
    use crate::game::Rules;
    use crate::search::Level;
    use std::sync::Arc;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    /// A 20% lead in a long race without gammons: double, pass.
    fn race_lead() -> Position {
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        (me[7], me[6], me[4]) = (5, 5, 5);
        (them[7], them[8], them[6]) = (5, 5, 5);
        Position::from_sides(&me, &them).unwrap()
    }

    #[test]
    fn money_values_are_normalised_equities() {
        let mut s = search();
        let ctx = CubeContext::money(2, Ownership::Centered);
        let settings = Level::Expert.settings();
        let a = analyse_cube(&mut s, &race_lead(), &ctx, &settings).unwrap();
        let d = s.cube_decision(&race_lead(), &ctx, &settings).decision;
        assert!((a.no_double[6] - f64::from(d.no_double)).abs() < 1e-6);
        assert!((a.double_take[6] - f64::from(d.double_take)).abs() < 1e-6);
        assert_eq!(a.no_double[..6], a.double_take[..6]);
        assert!(a.double_take[6] > 1.0, "{a:?}");
        // The opponent owns the cube: nothing to analyse.
        let owned = CubeContext::money(2, Ownership::Opponent);
        assert!(analyse_cube(&mut s, &race_lead(), &owned, &settings).is_none());
    }

    #[test]
    fn match_values_are_winning_chances_that_marks_read_back() {
        let mut s = search();
        let met = MatchEquityTable::kazaross_xg2();
        let score = MatchScore::new(7, [2, 3], false);
        let ctx = CubeContext::new_match(met, score, Player::Zero, 1, Ownership::Centered);
        let settings = Level::Expert.settings();
        let position = race_lead();
        let a = analyse_cube(&mut s, &position, &ctx, &settings).unwrap();
        assert!(a.no_double[6] > 0.0 && a.no_double[6] < 1.0);
        let d = s.cube_decision(&position, &ctx, &settings).decision;
        // The analysis of the marks converts the MWCs back to the same normalised equities.
        let mut state = MatchState::new_match(7);
        state.score = [2, 3];
        state.on_roll = Player::Zero;
        state.turn = Player::Zero;
        let before = Snapshot { position, state };
        let info = MatchInfo::new(["a".into(), "b".into()], Rules::match_to(7));
        let j = judge_cube(&a, &before, Player::Zero, &info, met).unwrap();
        assert!(
            (j.no_double - f64::from(d.no_double)).abs() < 1e-4,
            "{j:?} {d:?}"
        );
        assert!((j.double_take - f64::from(d.double_take)).abs() < 1e-4);
        // The Crawford game: no cube decision.
        let crawford = MatchScore::new(7, [6, 3], true);
        let ctx = CubeContext::new_match(met, crawford, Player::Zero, 1, Ownership::Centered);
        assert!(analyse_cube(&mut s, &position, &ctx, &settings).is_none());
    }
}
