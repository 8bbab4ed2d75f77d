//! The statistics as GNU Backgammon's `show statistics match` prints them, to the character:
//! every row is the label padded to 40 bytes, a space, player 0's value padded to 23 bytes, a
//! space, player 1's value padded to 23 bytes (padding counts bytes, as C's `%-23s` does, so a
//! name with accented letters looks shorter); each section is its title, an empty line, its rows
//! and two empty lines; the report ends with one more empty line (docs/ANALYSIS.md §Marks and
//! statistics).
//!
//! Number formats, with GNU Backgammon's defaults of 3 output digits and an error-rate factor
//! of 1000 (mEMG): counts `%3d`; totals five spaces, `%+6.3f` and the unnormalised amount in
//! parentheses (match: `%+7.3f%%` of the MWC change × 100; money: `%+7.3f` points); rates three
//! spaces, `%+6.1f` of the rate × 1000, three spaces and the unnormalised rate in parentheses;
//! errors are printed negated, luck with its sign.

use std::fmt::Write as _;

use super::figures::{
    advantages, fibs_estimate, luck_based_fibs_difference, snowie_rate, Advantage, RatingScale,
};
use super::{Amount, CubeError, MatchStatistics, PlayerStats};

/// How the report is printed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportStyle {
    /// Rating names.
    pub ratings: RatingScale,
    /// Print "Snowie error rate" with the stray `( +0.000%)` GNU Backgammon printed until 2026
    /// (1.07 and 1.08 do).
    pub snowie_parenthesis: bool,
}

impl Default for ReportStyle {
    /// As GNU Backgammon 1.07 prints it.
    fn default() -> ReportStyle {
        ReportStyle {
            ratings: RatingScale::Gnubg107,
            snowie_parenthesis: true,
        }
    }
}

/// Output digits (GNU Backgammon's default).
const DIGITS: usize = 3;
/// The factor of error rates (m = milli).
const RATE_FACTOR: f32 = 1000.0;
/// Decimals of a rate: digits − trunc(log₁₀ factor − 0.5) = 1.
const RATE_DECIMALS: usize = 1;

/// `%+w.pf` or `%w.pf` as C prints it (C spells infinities and NaN `inf`, `nan`).
fn c_fixed(x: f64, width: usize, precision: usize, plus: bool) -> String {
    let body = if x.is_nan() {
        if x.is_sign_negative() {
            "-nan".to_string()
        } else if plus {
            "+nan".to_string()
        } else {
            "nan".to_string()
        }
    } else if x.is_infinite() {
        match (x < 0.0, plus) {
            (true, _) => "-inf".to_string(),
            (false, true) => "+inf".to_string(),
            (false, false) => "inf".to_string(),
        }
    } else if plus {
        format!("{x:+.precision$}")
    } else {
        format!("{x:.precision$}")
    };
    format!("{body:>width$}")
}

/// `text` padded with spaces to `width` bytes (C's `%-Ns`).
fn pad(text: &str, width: usize) -> String {
    let mut out = text.to_string();
    for _ in text.len()..width {
        out.push(' ');
    }
    out
}

fn row(out: &mut String, label: &str, a: &str, b: &str) {
    let _ = writeln!(out, "{} {} {}", pad(label, 40), pad(a, 23), pad(b, 23));
}

/// One row of the report: the label and the two players' values, as printed (values keep
/// GNU Backgammon's leading spaces; trim them to show them elsewhere).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub label: String,
    pub values: [String; 2],
}

/// One section of the report: its title and rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub title: &'static str,
    pub rows: Vec<Row>,
}

impl Section {
    fn new(title: &'static str) -> Section {
        Section {
            title,
            rows: Vec::new(),
        }
    }

    fn push(&mut self, label: impl Into<String>, a: String, b: String) {
        self.rows.push(Row {
            label: label.into(),
            values: [a, b],
        });
    }

    fn each(
        &mut self,
        label: impl Into<String>,
        p: &[PlayerStats; 2],
        f: impl Fn(&PlayerStats) -> String,
    ) {
        let values = [f(&p[0]), f(&p[1])];
        self.rows.push(Row {
            label: label.into(),
            values,
        });
    }

    fn count(&mut self, label: &str, p: &[PlayerStats; 2], f: impl Fn(&PlayerStats) -> u32) {
        self.each(label, p, |s| format!("{:3}", f(s)));
    }
}

struct Units {
    money: bool,
}

impl Units {
    /// " EMG (MWC)" or " EMG (Points)".
    fn name(&self) -> &'static str {
        if self.money {
            "Points"
        } else {
            "MWC"
        }
    }

    /// The unnormalised amount: match `%+7.3f%%` of ×100, money `%+7.3f`. The ×100 is in
    /// single precision, as GNU Backgammon's `ru * 100.0f`: in double the last digit can round
    /// the other way (0.36095500f is 36.095 in double, 36.096 in single precision).
    fn unnormalised(&self, x: f32) -> String {
        if self.money {
            c_fixed(f64::from(x), 7, 3, true)
        } else {
            format!("{}%", c_fixed(f64::from(x * 100.0), 7, 3, true))
        }
    }

    /// GNU Backgammon's total: `     -1.204 (-22.871%)`.
    fn total(&self, a: Amount) -> String {
        format!(
            "     {} ({})",
            c_fixed(f64::from(a.normalised), DIGITS + 3, DIGITS, true),
            self.unnormalised(a.unnormalised)
        )
    }

    /// GNU Backgammon's rate: `    -50.2   ( -0.953%)`.
    fn rate(&self, a: Amount) -> String {
        format!(
            "   {}   ({})",
            c_fixed(
                f64::from(RATE_FACTOR * a.normalised),
                RATE_DECIMALS + 5,
                RATE_DECIMALS,
                true
            ),
            self.unnormalised(a.unnormalised)
        )
    }

    /// The Snowie rate: the rate's first part, with a zero parenthesis in the old style.
    fn snowie(&self, rate: f32, parenthesis: bool) -> String {
        let first = format!(
            "   {}",
            c_fixed(
                f64::from(RATE_FACTOR * rate),
                RATE_DECIMALS + 5,
                RATE_DECIMALS,
                true
            )
        );
        if parenthesis {
            format!("{first}   ({})", self.unnormalised(0.0))
        } else {
            first
        }
    }

    /// A cube-error bucket: `  0`, or `  2 (-0.186 ( -1.366%))`.
    fn bucket(&self, count: u32, cost: Amount) -> String {
        if count == 0 {
            format!("{count:3}")
        } else {
            format!(
                "{count:3} ({} ({}))",
                c_fixed(-f64::from(cost.normalised), 6, 3, true),
                self.unnormalised(-cost.unnormalised)
            )
        }
    }

    /// A result: match `%+7.2f%%` of ×100 (in single precision, as GNU Backgammon's
    /// `100.0f * ar[i]`), money `%+7.3f`.
    fn result(&self, x: f32) -> String {
        if self.money {
            c_fixed(f64::from(x), 7, 3, true)
        } else {
            format!("{}%", c_fixed(f64::from(x * 100.0), 7, 2, true))
        }
    }
}

fn negated(a: Amount) -> Amount {
    Amount::new(-a.normalised, -a.unnormalised)
}

/// The report in GNU Backgammon 1.07's layout ([`ReportStyle::default`]).
pub fn report(stats: &MatchStatistics) -> String {
    report_with(stats, &ReportStyle::default())
}

/// The report in `style`.
pub fn report_with(stats: &MatchStatistics, style: &ReportStyle) -> String {
    let mut out = String::new();
    row(&mut out, "Player", &stats.players[0], &stats.players[1]);
    out.push('\n');
    for section in sections(stats, style) {
        let _ = writeln!(out, "{}\n", section.title);
        for r in &section.rows {
            row(&mut out, &r.label, &r.values[0], &r.values[1]);
        }
        out.push_str("\n\n");
    }
    out.push('\n');
    out
}

/// The report's sections and rows, in GNU Backgammon's order: chequerplay, luck, cube and
/// overall statistics.
pub fn sections(stats: &MatchStatistics, style: &ReportStyle) -> Vec<Section> {
    let total = &stats.total;
    let p = &total.players;
    let u = Units {
        money: stats.match_length == 0,
    };
    let unit = u.name();
    let t = &stats.thresholds;
    let na = |r: Option<&'static str>| r.unwrap_or("n/a").to_string();

    let mut chequer = Section::new("Chequerplay statistics");
    chequer.count("Total moves", p, |s| s.total_moves);
    chequer.count("Unforced moves", p, |s| s.unforced_moves);
    chequer.count("Unmarked moves", p, |s| s.moves_by_skill[0]);
    chequer.count("Moves marked doubtful", p, |s| s.moves_by_skill[1]);
    chequer.count("Moves marked bad", p, |s| s.moves_by_skill[2]);
    chequer.count("Moves marked very bad", p, |s| s.moves_by_skill[3]);
    chequer.each(format!("Error total EMG ({unit})"), p, |s| {
        u.total(negated(s.checker_cost))
    });
    chequer.each(format!("Error rate mEMG ({unit})"), p, |s| {
        u.rate(negated(s.checker_rate()))
    });
    chequer.each("Chequerplay rating", p, |s| {
        na(s.checker_rating(style.ratings))
    });

    let mut luck = Section::new("Luck statistics");
    luck.count("Rolls marked very lucky", p, |s| s.rolls_by_luck[4]);
    luck.count("Rolls marked lucky", p, |s| s.rolls_by_luck[3]);
    luck.count("Rolls unmarked", p, |s| s.rolls_by_luck[2]);
    luck.count("Rolls marked unlucky", p, |s| s.rolls_by_luck[1]);
    luck.count("Rolls marked very unlucky", p, |s| s.rolls_by_luck[0]);
    luck.each(format!("Luck total EMG ({unit})"), p, |s| u.total(s.luck));
    luck.each(format!("Luck rate mEMG ({unit})"), p, |s| {
        s.luck_rate().map_or("n/a".to_string(), |r| u.rate(r))
    });
    luck.each("Luck rating", p, |s| s.luck_rating(t).to_string());

    let mut cube = Section::new("Cube statistics");
    cube.count("Total cube decisions", p, |s| s.total_cube_decisions);
    cube.count("Close or actual cube decisions", p, |s| {
        s.close_cube_decisions
    });
    cube.count("Doubles", p, |s| s.doubles);
    cube.count("Takes", p, |s| s.takes);
    cube.count("Passes", p, |s| s.passes);
    for kind in CubeError::ALL {
        cube.each(format!("{} (EMG ({unit}))", kind.label()), p, |s| {
            let e = s.cube_errors[kind.index()];
            u.bucket(e.count, e.cost)
        });
    }
    cube.each(format!("Error total EMG ({unit})"), p, |s| {
        u.total(negated(s.cube_cost()))
    });
    cube.each(format!("Error rate mEMG ({unit})"), p, |s| {
        u.rate(negated(s.cube_rate()))
    });
    cube.each("Cube decision rating", p, |s| {
        na(s.cube_rating(style.ratings))
    });

    let mut overall = Section::new("Overall statistics");
    overall.each(format!("Error total EMG ({unit})"), p, |s| {
        u.total(negated(s.overall_cost()))
    });
    overall.each(format!("Error rate mEMG ({unit})"), p, |s| {
        u.rate(negated(s.overall_rate()))
    });
    overall.push(
        "Snowie error rate",
        u.snowie(-snowie_rate(total, 0), style.snowie_parenthesis),
        u.snowie(-snowie_rate(total, 1), style.snowie_parenthesis),
    );
    overall.each("Overall rating", p, |s| na(s.overall_rating(style.ratings)));
    if p[0].actual_result > 0.0 || p[1].actual_result > 0.0 {
        overall.each("Actual result", p, |s| u.result(s.actual_result));
        overall.each("Luck adjusted result", p, |s| {
            u.result(s.luck_adjusted_result)
        });
        if !u.money {
            let diff = luck_based_fibs_difference(total)
                .map_or("n/a".to_string(), |d| c_fixed(d, 7, 2, true));
            overall.push("Luck based FIBS rating diff.", diff, String::new());
        }
    }
    if !u.money {
        let f = [0, 1].map(|i| fibs_estimate(&p[i], stats.match_length));
        let show = |x: Option<f64>| x.map_or("n/a".to_string(), |x| c_fixed(x, 6, 1, false));
        overall.push(
            "Error based abs. FIBS rating",
            show(f[0].rating),
            show(f[1].rating),
        );
        overall.push(
            "Chequerplay errors rating loss",
            show(f[0].checker_loss),
            show(f[1].checker_loss),
        );
        overall.push(
            "Cube errors rating loss",
            show(f[0].cube_loss),
            show(f[1].cube_loss),
        );
    } else if total.games > 1 {
        let ppg = |a: &Option<Advantage>| {
            a.map_or(String::new(), |a| c_fixed(a.ppg, DIGITS + 3, DIGITS, true))
        };
        let interval = |a: &Option<Advantage>| {
            a.map_or(String::new(), |a| {
                format!(
                    "[{},{}]",
                    c_fixed(a.interval.0, DIGITS + 3, DIGITS, false),
                    c_fixed(a.interval.1, DIGITS + 3, DIGITS, false)
                )
            })
        };
        let a = [advantages(stats, 0), advantages(stats, 1)];
        for (k, label) in [
            "Advantage (actual) in ppg",
            "Advantage (luck adjusted) in ppg",
        ]
        .into_iter()
        .enumerate()
        {
            overall.push(label, ppg(&a[0][k]), ppg(&a[1][k]));
            overall.push(
                "95% confidence interval (ppg)",
                interval(&a[0][k]),
                interval(&a[1][k]),
            );
        }
    }
    vec![chequer, luck, cube, overall]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_number_formats() {
        assert_eq!(c_fixed(-1.204, 6, 3, true), "-1.204");
        assert_eq!(c_fixed(-0.0, 6, 3, true), "-0.000");
        assert_eq!(c_fixed(0.0, 6, 3, true), "+0.000");
        assert_eq!(c_fixed(-5.131, 6, 3, false), "-5.131");
        assert_eq!(c_fixed(5.131, 6, 3, false), " 5.131");
        assert_eq!(c_fixed(f64::NEG_INFINITY, 7, 3, true), "   -inf");
        assert_eq!(c_fixed(1848.44, 6, 1, false), "1848.4");
        assert_eq!(pad("Kévin Unger", 23).len(), 23);
        assert_eq!(pad("Kévin Unger", 23).chars().count(), 22);
    }

    #[test]
    fn percentages_are_scaled_in_single_precision_as_gnubg_does() {
        // A match's luck total whose ×100 rounds one way in double precision and the other in
        // single (gnubg's `ru * 100.0f`): found by the comparison with gnubg's own report.
        let match_units = Units { money: false };
        let luck = Amount::new(1.88654, 0.360_955);
        assert!(
            match_units.total(luck).ends_with("(+36.096%)"),
            "{}",
            match_units.total(luck)
        );
        assert_eq!(match_units.unnormalised(0.360_955), "+36.096%");
        assert_eq!(match_units.result(0.5), " +50.00%");
        let money_units = Units { money: true };
        assert_eq!(money_units.unnormalised(0.360_955), " +0.361");
    }
}
