//! Figures derived from the sums of [`PlayerStats`]: error rates, ratings, luck rating, the
//! money advantage per game with GNU Backgammon's confidence interval, and the FIBS-rating
//! estimates of match play (docs/ANALYSIS.md §Marks and statistics).

use serde::Serialize;

use super::{Amount, MatchStatistics, PlayerStats, Statistics};
use crate::analysis::marks::{luck_mark, Thresholds};
use crate::game::record::analysis::Luck;

/// Which rating names to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum RatingScale {
    /// GNU Backgammon up to 1.08.003: Awful! … Supernatural, eight levels.
    #[default]
    Gnubg107,
    /// GNU Backgammon after 1.08.003, similar to the BMAB's: Beginner … Super Grandmaster.
    Bmab,
}

/// The rating of an error rate (normalised equity per decision, positive), searched from the
/// best level down: the first whose bound is above the rate.
pub fn rating(rate: f32, scale: RatingScale) -> &'static str {
    let levels: &[(f32, &str)] = match scale {
        RatingScale::Gnubg107 => &[
            (0.002, "Supernatural"),
            (0.005, "World class"),
            (0.008, "Expert"),
            (0.012, "Advanced"),
            (0.018, "Intermediate"),
            (0.026, "Casual player"),
            (0.035, "Beginner"),
        ],
        RatingScale::Bmab => &[
            (0.005, "Super Grandmaster"),
            (0.008, "Grandmaster"),
            (0.013, "Master"),
            (0.020, "Advanced"),
            (0.032, "Intermediate"),
        ],
    };
    levels
        .iter()
        .find(|(bound, _)| rate < *bound)
        .map(|(_, name)| *name)
        .unwrap_or(match scale {
            RatingScale::Gnubg107 => "Awful!",
            RatingScale::Bmab => "Beginner",
        })
}

/// The luck rating of a luck rate (normalised luck per move): the roll marks applied to ten
/// times the rate.
pub fn luck_rating(rate: f32, t: &Thresholds) -> &'static str {
    match luck_mark(f64::from(10.0 * rate), t) {
        Luck::VeryUnlucky => "Go to bed",
        Luck::Unlucky => "Bad dice, man!",
        Luck::None => "None",
        Luck::Lucky => "Good dice, man!",
        Luck::VeryLucky => "Go to Las Vegas",
    }
}

fn per(total: Amount, n: u32) -> Amount {
    if n == 0 {
        Amount::default()
    } else {
        Amount::new(total.normalised / n as f32, total.unnormalised / n as f32)
    }
}

impl PlayerStats {
    /// The six cube-error costs added up.
    pub fn cube_cost(&self) -> Amount {
        let mut total = Amount::default();
        for e in &self.cube_errors {
            total.normalised += e.cost.normalised;
            total.unnormalised += e.cost.unnormalised;
        }
        total
    }

    /// Checker and cube costs.
    pub fn overall_cost(&self) -> Amount {
        let cube = self.cube_cost();
        Amount::new(
            self.checker_cost.normalised + cube.normalised,
            self.checker_cost.unnormalised + cube.unnormalised,
        )
    }

    /// Checker cost per unforced move (0 without unforced moves).
    pub fn checker_rate(&self) -> Amount {
        per(self.checker_cost, self.unforced_moves)
    }

    /// Cube cost per close or actual cube decision (0 without).
    pub fn cube_rate(&self) -> Amount {
        per(self.cube_cost(), self.close_cube_decisions)
    }

    /// Overall cost per decision: unforced moves and close cube decisions.
    pub fn overall_rate(&self) -> Amount {
        per(
            self.overall_cost(),
            self.unforced_moves + self.close_cube_decisions,
        )
    }

    /// Luck per move (all moves, not only the unforced); `None` without moves.
    pub fn luck_rate(&self) -> Option<Amount> {
        (self.total_moves > 0).then(|| per(self.luck, self.total_moves))
    }

    /// Rating of the checker play; `None` without unforced moves.
    pub fn checker_rating(&self, scale: RatingScale) -> Option<&'static str> {
        (self.unforced_moves > 0).then(|| rating(self.checker_rate().normalised, scale))
    }

    /// Rating of the cube play; `None` without close decisions.
    pub fn cube_rating(&self, scale: RatingScale) -> Option<&'static str> {
        (self.close_cube_decisions > 0).then(|| rating(self.cube_rate().normalised, scale))
    }

    /// Overall rating; `None` without any decision.
    pub fn overall_rating(&self, scale: RatingScale) -> Option<&'static str> {
        (self.unforced_moves + self.close_cube_decisions > 0)
            .then(|| rating(self.overall_rate().normalised, scale))
    }

    /// Luck rating ("None" without moves).
    pub fn luck_rating(&self, t: &Thresholds) -> &'static str {
        luck_rating(self.luck_rate().unwrap_or_default().normalised, t)
    }
}

/// GNU Backgammon's default rating offset of the error-based FIBS rating.
pub const FIBS_RATING_OFFSET: f64 = 2050.0;

/// Match play: the FIBS-rating estimates from one player's errors (Kees van den Doel's
/// formulas as GNU Backgammon uses them).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FibsEstimate {
    /// Rating lost to checker errors: EPM·(8798 + 25526/N), EPM the normalised checker error
    /// per unforced move; `None` without unforced moves.
    pub checker_loss: Option<f64>,
    /// Rating lost to cube errors: EPC·(863 − 519/N), EPC per close cube decision; `None`
    /// without close decisions.
    pub cube_loss: Option<f64>,
    /// Offset minus both losses; `None` when neither is known.
    pub rating: Option<f64>,
}

/// The FIBS estimates of `p` in a match of `length` points.
pub fn fibs_estimate(p: &PlayerStats, length: u16) -> FibsEstimate {
    let n = f64::from(length.max(1));
    let checker_loss = (p.unforced_moves > 0)
        .then(|| f64::from(p.checker_rate().normalised) * (8798.0 + 25526.0 / n));
    let cube_loss = (p.close_cube_decisions > 0)
        .then(|| f64::from(p.cube_rate().normalised) * (863.0 - 519.0 / n));
    let rating = (checker_loss.is_some() || cube_loss.is_some())
        .then(|| FIBS_RATING_OFFSET - checker_loss.unwrap_or(0.0) - cube_loss.unwrap_or(0.0));
    FibsEstimate {
        checker_loss,
        cube_loss,
        rating,
    }
}

/// Match play: player 0's rating advantage implied by the luck-adjusted result, with the luck
/// taken out: with `r = 0.5 +` player 0's luck-adjusted MWC change, `−(2000/√N)·log₁₀(1/r − 1)`
/// floored at −2100; `None` unless `0 < r < 1`. As in GNU Backgammon, the test is made in double
/// precision and the formula applied to `r` in single precision, so that a won match whose
/// result falls a rounding error short of +50% gives +∞.
pub fn luck_based_fibs_difference(stats: &Statistics) -> Option<f64> {
    let n = f64::from(stats.match_length.max(1));
    let r = 0.5 + f64::from(stats.players[0].luck_adjusted_result);
    (r > 0.0 && r < 1.0).then(|| {
        let r = f64::from(r as f32);
        (-(2000.0 / n.sqrt()) * (1.0 / r - 1.0).log10()).max(-2100.0)
    })
}

/// Money play over several games: the advantage per game and GNU Backgammon's 95% confidence
/// interval, which is centred on the **total** (a quirk it prints as is).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Advantage {
    /// Total ÷ games.
    pub ppg: f64,
    /// Total ∓ 1.95996·√(s²/games), `s²` the sample variance of the per-game values.
    pub interval: (f64, f64),
}

/// The advantage of per-game values `values` (their sum is the total).
pub fn advantage(values: &[f32]) -> Option<Advantage> {
    let n = values.len();
    if n < 2 {
        return None;
    }
    let total: f64 = values.iter().map(|&v| f64::from(v)).sum();
    let mean = total / n as f64;
    let variance = values
        .iter()
        .map(|&v| (f64::from(v) - mean).powi(2))
        .sum::<f64>()
        / (n - 1) as f64;
    let half = 1.95996 * (variance / n as f64).sqrt();
    Some(Advantage {
        ppg: mean,
        interval: (total - half, total + half),
    })
}

/// The Snowie error rate of player `p` (0 or 1): the overall normalised error total divided by
/// the moves of **both** players (0 without moves).
pub fn snowie_rate(stats: &Statistics, p: usize) -> f32 {
    let moves = stats.players[0].total_moves + stats.players[1].total_moves;
    if moves == 0 {
        0.0
    } else {
        stats.players[p].overall_cost().normalised / moves as f32
    }
}

/// The per-game advantages of player `p` in money play (actual and luck-adjusted); `None` for
/// one game.
pub fn advantages(stats: &MatchStatistics, p: usize) -> [Option<Advantage>; 2] {
    let of = |f: fn(&PlayerStats) -> f32| {
        let values: Vec<f32> = stats
            .games
            .iter()
            .map(|g| f(&g.statistics.players[p]))
            .collect();
        advantage(&values)
    };
    [of(|s| s.actual_result), of(|s| s.luck_adjusted_result)]
}

/// Everything derived from one player's match totals, for JSON and front ends.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerFigures {
    /// Checker error per unforced move.
    pub checker_rate: Amount,
    /// The six cube-error costs added up, and per close or actual decision.
    pub cube_cost: Amount,
    pub cube_rate: Amount,
    /// Checker and cube costs, and per decision.
    pub overall_cost: Amount,
    pub overall_rate: Amount,
    /// Overall normalised error per move of both players.
    pub snowie_rate: f32,
    /// Luck per move; `None` without moves.
    pub luck_rate: Option<Amount>,
    pub checker_rating: Option<&'static str>,
    pub cube_rating: Option<&'static str>,
    pub overall_rating: Option<&'static str>,
    pub luck_rating: &'static str,
    /// Match play: the FIBS-rating estimates.
    pub fibs: Option<FibsEstimate>,
    /// Match play, player 0 only: the luck-based FIBS rating difference.
    pub luck_based_fibs_difference: Option<f64>,
    /// Money play over several games: actual and luck-adjusted advantage per game.
    pub advantage: Option<Advantage>,
    pub luck_adjusted_advantage: Option<Advantage>,
}

/// The figures of both players of `stats`, with ratings named on `scale`.
pub fn player_figures(stats: &MatchStatistics, scale: RatingScale) -> [PlayerFigures; 2] {
    let total = &stats.total;
    let money = stats.match_length == 0;
    [0, 1].map(|i| {
        let p = &total.players[i];
        let [advantage, luck_adjusted_advantage] = if money {
            advantages(stats, i)
        } else {
            [None, None]
        };
        PlayerFigures {
            checker_rate: p.checker_rate(),
            cube_cost: p.cube_cost(),
            cube_rate: p.cube_rate(),
            overall_cost: p.overall_cost(),
            overall_rate: p.overall_rate(),
            snowie_rate: snowie_rate(total, i),
            luck_rate: p.luck_rate(),
            checker_rating: p.checker_rating(scale),
            cube_rating: p.cube_rating(scale),
            overall_rating: p.overall_rating(scale),
            luck_rating: p.luck_rating(&stats.thresholds),
            fibs: (!money).then(|| fibs_estimate(p, stats.match_length)),
            luck_based_fibs_difference: if !money && i == 0 {
                luck_based_fibs_difference(total)
            } else {
                None
            },
            advantage,
            luck_adjusted_advantage,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_by_rate() {
        assert_eq!(rating(0.0, RatingScale::Gnubg107), "Supernatural");
        assert_eq!(rating(0.0019, RatingScale::Gnubg107), "Supernatural");
        assert_eq!(rating(0.002, RatingScale::Gnubg107), "World class");
        assert_eq!(rating(0.0063, RatingScale::Gnubg107), "Expert");
        assert_eq!(rating(0.0146, RatingScale::Gnubg107), "Intermediate");
        assert_eq!(rating(0.0266, RatingScale::Gnubg107), "Beginner");
        assert_eq!(rating(0.0502, RatingScale::Gnubg107), "Awful!");
        assert_eq!(rating(0.004, RatingScale::Bmab), "Super Grandmaster");
        assert_eq!(rating(0.019, RatingScale::Bmab), "Advanced");
        assert_eq!(rating(0.05, RatingScale::Bmab), "Beginner");
    }

    #[test]
    fn luck_ratings() {
        let t = Thresholds::default();
        assert_eq!(luck_rating(-0.038, &t), "Bad dice, man!");
        assert_eq!(luck_rating(0.0053, &t), "None");
        assert_eq!(luck_rating(0.0331, &t), "Good dice, man!");
        assert_eq!(luck_rating(0.07, &t), "Go to Las Vegas");
        assert_eq!(luck_rating(-0.07, &t), "Go to bed");
    }

    #[test]
    fn fibs_figures_of_the_captured_match() {
        // analysis.md §3.4: 3-point match, 1.204 (printed; 1.2037 here) over 24 unforced
        // moves, no cube error: a loss of 868.0 and a rating of 1182.0.
        let p = PlayerStats {
            unforced_moves: 24,
            close_cube_decisions: 7,
            checker_cost: Amount::new(1.2037, 0.22871),
            ..PlayerStats::default()
        };
        let f = fibs_estimate(&p, 3);
        assert_eq!(format!("{:.1}", f.checker_loss.unwrap()), "868.0");
        assert_eq!(f.cube_loss, Some(0.0));
        assert_eq!(format!("{:.1}", f.rating.unwrap()), "1182.0");
        // EPM·(8798 + 25526/N), not 2526/N.
        let one = PlayerStats {
            unforced_moves: 1,
            checker_cost: Amount::new(0.01, 0.0),
            ..PlayerStats::default()
        };
        assert!((fibs_estimate(&one, 1).checker_loss.unwrap() - 343.24).abs() < 1e-3);
        assert_eq!(fibs_estimate(&PlayerStats::default(), 5).rating, None);
        let mut s = Statistics::new(3);
        s.players[0].luck_adjusted_result = -0.2424;
        let d = luck_based_fibs_difference(&s).unwrap();
        assert!((d + 530.7).abs() < 0.2, "{d}");
        s.players[0].luck_adjusted_result = 0.5;
        assert_eq!(luck_based_fibs_difference(&s), None);
    }

    #[test]
    fn advantage_interval_is_centred_on_the_total() {
        let a = advantage(&[1.0, -1.0, 2.0, -4.0]).unwrap();
        assert_eq!(a.ppg, -0.5);
        let half = 1.95996 * (7.0f64 / 4.0).sqrt();
        assert!((a.interval.0 - (-2.0 - half)).abs() < 1e-12);
        assert!((a.interval.1 - (-2.0 + half)).abs() < 1e-12);
        assert_eq!(advantage(&[1.0]), None);
    }
}
