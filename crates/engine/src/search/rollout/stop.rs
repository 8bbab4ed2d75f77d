//! The stop rules checked after every trial: standard error and GNU Backgammon's joint standard
//! deviations (JSD) between candidates (docs/ANALYSIS.md §Rollout stop rules).

use super::result::AlternativeResult;

/// Denominators below this are taken as this (equal equities with no spread).
const MIN_DENOMINATOR: f64 = 1e-8;

/// The standard errors of the cubeless and (cubeful rollouts) cubeful equity are within `limit`.
pub(super) fn standard_error_met(a: &AlternativeResult, limit: f64, cubeful: bool) -> bool {
    a.cubeless_std_error <= limit && (!cubeful || a.equity_std_error <= limit)
}

/// For candidate plays: the best one's index and every other one's JSD,
/// `(E_best − E_i) / √(SE_best² + SE_i²)` (`None` for the best).
pub(super) fn move_jsd(alternatives: &[AlternativeResult]) -> (usize, Vec<Option<f64>>) {
    let mut best = 0;
    for (i, a) in alternatives.iter().enumerate() {
        if a.equity > alternatives[best].equity {
            best = i;
        }
    }
    let b = &alternatives[best];
    let jsd = alternatives
        .iter()
        .enumerate()
        .map(|(i, a)| {
            (i != best).then(|| {
                let spread = (b.equity_std_error.powi(2) + a.equity_std_error.powi(2)).sqrt();
                (b.equity - a.equity) / spread.max(MIN_DENOMINATOR)
            })
        })
        .collect();
    (best, jsd)
}

/// For a cube decision (double/pass = +1): the JSD of no double against the better of
/// double/take and double/pass, and of double/take against double/pass, both as absolute
/// values.
pub(super) fn cube_jsd(no_double: &AlternativeResult, double_take: &AlternativeResult) -> [f64; 2] {
    let dp = 1.0;
    let (nd, dt) = (no_double, double_take);
    let first = if dp < dt.equity {
        (nd.equity - dp).abs() / nd.equity_std_error.max(MIN_DENOMINATOR)
    } else {
        let spread = (nd.equity_std_error.powi(2) + dt.equity_std_error.powi(2)).sqrt();
        (nd.equity - dt.equity).abs() / spread.max(MIN_DENOMINATOR)
    };
    let second = (dt.equity - dp).abs() / dt.equity_std_error.max(MIN_DENOMINATOR);
    [first, second]
}
