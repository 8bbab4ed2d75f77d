//! A rollout as GNU Backgammon prints it (docs/ANALYSIS.md §Rollout output), and its settings
//! as the rollout-context text GNU Backgammon writes into SGF analysis values (`SK … RC …`).
//!
//! The result of an alternative is two lines, the means and, in brackets, the standard errors:
//!
//! ```text
//!   0.531 0.154 0.007 - 0.469 0.120 0.005 CL +0.097 CF +0.176
//!  [0.009 0.008 0.001 - 0.009 0.010 0.002 CL  0.024 CF  0.059]
//! ```
//!
//! win, win gammon, win backgammon, then lose (1 − win, whose standard error is that of win),
//! lose gammon, lose backgammon; the cubeless equity (`CL`) and, in a cubeful rollout, the
//! cubeful equity (`CF`, normalised equity in match play), both in units of the decision's
//! cube. A description of the rollout follows:
//!
//! ```text
//! Full cubeful rollout with variance reduction
//! 1296 games, SplitMix64 dice gen. with seed 42 and quasi-random dice
//! Play: 0-ply cubeful prune [expert]
//! Cube: 0-ply cubeful prune [expert]
//! ```

use crate::search::{EvalSettings, FilterPreset, Level};

use super::result::{AlternativeResult, AlternativeStatus, RolloutResult, StopReason, SubjectKind};
use super::settings::{RolloutSettings, StopRule};

/// The name of the rollout's dice generator, as the output and the settings text give it.
pub const RNG_NAME: &str = "SplitMix64";

/// The two result lines of an alternative (means, then standard errors), each line prefixed by
/// `indent`; the `CF` column only for a cubeful rollout.
pub fn result_lines(a: &AlternativeResult, cubeful: bool, indent: &str) -> String {
    let m = &a.mean;
    let s = &a.std_error;
    let mut means = format!(
        "{indent}  {:5.3} {:5.3} {:5.3} - {:5.3} {:5.3} {:5.3} CL {:+6.3}",
        m[0],
        m[1],
        m[2],
        1.0 - m[0],
        m[3],
        m[4],
        a.cubeless
    );
    let mut errors = format!(
        "{indent} [{:5.3} {:5.3} {:5.3} - {:5.3} {:5.3} {:5.3} CL {:6.3}",
        s[0], s[1], s[2], s[0], s[3], s[4], a.cubeless_std_error
    );
    if cubeful {
        means.push_str(&format!(" CF {:+6.3}", a.equity));
        errors.push_str(&format!(" CF {:6.3}", a.equity_std_error));
    }
    errors.push(']');
    format!("{means}\n{errors}\n")
}

/// The description of the rollout for an alternative with `trials` games, each line prefixed by
/// `indent`.
pub fn context_lines(settings: &RolloutSettings, trials: u32, indent: &str) -> String {
    let mut lines = Vec::new();
    let mut first = format!(
        "{} {} rollout",
        if settings.truncation.is_some() {
            "Truncated"
        } else {
            "Full"
        },
        if settings.cubeful {
            "cubeful"
        } else {
            "cubeless"
        }
    );
    if let Some(depth) = settings.truncation {
        first.push_str(&format!(" (depth {depth})"));
    }
    if !settings.cubeful {
        if settings.truncate_bearoff_one_sided {
            first.push_str(" (truncated at one-sided bearoff)");
        } else if settings.truncate_bearoff_two_sided {
            first.push_str(" (truncated at exact bearoff)");
        }
    }
    first.push_str(if settings.variance_reduction {
        " with variance reduction"
    } else {
        " without variance reduction"
    });
    lines.push(first);
    lines.push(format!(
        "{trials} games, {RNG_NAME} dice gen. with seed {}{}",
        settings.seed,
        if settings.quasi_random {
            " and quasi-random dice"
        } else {
            ""
        }
    ));
    match settings.stop {
        StopRule::TrialLimit => {}
        StopRule::StandardError { limit, min_trials } => lines.push(format!(
            "Stop when the standard errors are at most {limit:.4} (after at least {min_trials} games)"
        )),
        StopRule::Jsd { limit, min_trials } => lines.push(format!(
            "Stop when candidates are more than {limit:.2} joint standard deviations apart \
             (after at least {min_trials} games)"
        )),
    }
    lines.push(format!("Play: {}", eval_text(&settings.early.checker)));
    if settings.cubeful {
        lines.push(format!("Cube: {}", eval_text(&settings.early.cube)));
    }
    if let Some(late) = &settings.late {
        lines.push(format!(
            "Late play (from ply {}): {}",
            late.from_ply,
            eval_text(&late.phase.checker)
        ));
        if settings.cubeful {
            lines.push(format!(
                "Late cube (from ply {}): {}",
                late.from_ply,
                eval_text(&late.phase.cube)
            ));
        }
    }
    if settings.truncation.is_some() {
        lines.push(format!(
            "Truncation: {}",
            eval_text(&settings.truncation_eval)
        ));
    }
    lines.iter().map(|l| format!("{indent}{l}\n")).collect()
}

/// An evaluation setting as GNU Backgammon describes it: `2-ply cubeful [world class]`.
pub fn eval_text(e: &EvalSettings) -> String {
    let mut text = format!(
        "{}-ply {}",
        e.plies,
        if e.cubeful { "cubeful" } else { "cubeless" }
    );
    if e.noise > 0.0 {
        text.push_str(&format!(
            " noise {:.3}{}",
            e.noise,
            if e.deterministic { "" } else { " (random)" }
        ));
    }
    if e.plies > 0 && e.filter == FilterPreset::Large {
        text.push_str(" large filter");
    }
    if e.prune {
        text.push_str(" prune");
    }
    if e.reduced {
        text.push_str(" reduced");
    }
    if let Some(level) = level_of(e) {
        text.push_str(&format!(" [{}]", level_name(level)));
    }
    text
}

/// The predefined level with these settings (whatever their cubefulness), if any.
fn level_of(e: &EvalSettings) -> Option<Level> {
    Level::ALL.into_iter().find(|l| {
        let s = l.settings();
        s.plies == e.plies
            && s.noise == e.noise
            && (e.noise == 0.0 || s.deterministic == e.deterministic)
            && (e.plies == 0 || s.filter == e.filter)
            && !e.reduced
    })
}

/// GNU Backgammon's name of a level.
fn level_name(level: Level) -> &'static str {
    match level {
        Level::Beginner => "beginner",
        Level::Casual => "casual",
        Level::Intermediate => "intermediate",
        Level::Advanced => "advanced",
        Level::Expert => "expert",
        Level::WorldClass => "world class",
        Level::Supremo => "supremo",
        Level::Grandmaster => "grandmaster",
    }
}

/// A whole rollout as text. `names` names the alternatives in order: the candidate plays in GNU
/// Backgammon's notation, or a title for a position (`names[0]`); cube rollouts name their own
/// alternatives.
pub fn result_text(result: &RolloutResult, names: &[String]) -> String {
    let s = &result.settings;
    let name = |i: usize| {
        names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("#{}", i + 1))
    };
    let mut out = String::new();
    match result.kind {
        SubjectKind::Position => {
            let a = &result.alternatives[0];
            out.push_str(&format!("{}:\n", name(0)));
            out.push_str(&result_lines(a, s.cubeful, ""));
            out.push_str(&context_lines(s, a.trials, ""));
        }
        SubjectKind::Moves => {
            let order = result.ranking();
            let best = result.alternatives[order[0]].equity;
            for (rank, &i) in order.iter().enumerate() {
                let a = &result.alternatives[i];
                let diff = if rank == 0 {
                    String::new()
                } else {
                    format!(" ({:+.3})", a.equity - best)
                };
                out.push_str(&format!(
                    "{:>5}. {:<16} {:<28} Eq.: {:+.3}{diff}\n",
                    format!("{}", rank + 1),
                    "Rollout",
                    name(i),
                    a.equity
                ));
                out.push_str(&result_lines(a, s.cubeful, "     "));
                out.push_str(&format!("       {}\n", status_text(a)));
            }
            out.push_str(&context_lines(s, result.alternatives[order[0]].trials, ""));
        }
        SubjectKind::Cube => {
            if let Some(decision) = &result.cube {
                out.push_str(&decision.to_string());
                out.push('\n');
            }
            out.push_str("Rollout details:\n");
            let centred = result.cube.is_none_or(|d| d.centered);
            let labels = if centred {
                ["No double", "Double, take"]
            } else {
                ["No redouble", "Redouble, take"]
            };
            for (a, label) in result.alternatives.iter().zip(labels) {
                out.push_str(&format!("{label}:\n"));
                out.push_str(&result_lines(a, true, ""));
            }
            out.push_str(&context_lines(s, result.alternatives[0].trials, ""));
        }
    }
    if result.cancelled {
        out.push_str("Rollout interrupted.\n");
    }
    out
}

/// `1296 games`, with why a candidate stopped early.
fn status_text(a: &AlternativeResult) -> String {
    let why = match (a.status, a.jsd) {
        (AlternativeStatus::Paused, Some(j)) => format!(" (stopped: {j:.2} JSD behind)"),
        (AlternativeStatus::Done(StopReason::StandardError), _) => {
            " (stopped: standard error)".to_owned()
        }
        _ => String::new(),
    };
    format!("{} games{why}", a.trials)
}

/// The rollout settings as GNU Backgammon writes them after a rollout in an SGF analysis value
/// (`SK 0 RC …`, docs/ANALYSIS.md §Rollouts in match records): the switches, the dice generator
/// and seed, then the cube and checker contexts of both players, early and late, and the
/// truncation contexts.
pub fn settings_text(s: &RolloutSettings) -> String {
    let late = s.late.as_ref();
    let late_phase = late.map_or(s.early, |l| l.phase);
    let flag = |b: bool| u8::from(b);
    let mut out = format!(
        "SK 0 RC {} {} 0 {} {} {} {} {} {} {} \"{RNG_NAME}\" {}",
        flag(s.cubeful),
        flag(s.variance_reduction),
        flag(s.quasi_random),
        flag(late.is_some()),
        flag(s.truncation.is_some()),
        s.truncation.unwrap_or(0),
        flag(s.truncate_bearoff_two_sided),
        flag(s.truncate_bearoff_one_sided),
        late.map_or(0, |l| l.from_ply),
        s.seed
    );
    // The blanks between the parts are GNU Backgammon's.
    let phases = [
        ("", &s.early, 0),
        ("", &s.early, 1),
        ("late", &late_phase, 0),
        ("late", &late_phase, 1),
    ];
    for (i, (prefix, phase, player)) in phases.into_iter().enumerate() {
        out.push_str(&format!(
            "{}{prefix}cube{player} ver 3 {}  {prefix}cheq{player} ver 3 {}{}",
            if i == 0 { "  " } else { " " },
            context_text(&phase.cube),
            context_text(&phase.checker),
            filter_text(&format!("{prefix}filt{player}"), &phase.checker)
        ));
    }
    out.push_str(&format!(
        " cubetrunc ver 3 {} cheqtrunc ver 3 {}",
        context_text(&s.truncation_eval),
        context_text(&s.truncation_eval)
    ));
    out
}

/// An evaluation context as GNU Backgammon writes it: `2C 1 0.000000 1` (plies, `C` if cubeful,
/// deterministic noise, noise, pruning nets).
fn context_text(e: &EvalSettings) -> String {
    format!(
        "{}{} {} {:.6} {}",
        e.plies,
        if e.cubeful { "C" } else { "" },
        u8::from(e.deterministic),
        e.noise,
        u8::from(e.prune)
    )
}

/// The move filters of a checker context with plies: ` filt0 accept extra threshold … `, one
/// triple per ply (`-1 0 0.00000` where a ply is not pruned); nothing at 0-ply.
fn filter_text(keyword: &str, e: &EvalSettings) -> String {
    if e.plies == 0 {
        return String::new();
    }
    let mut out = format!(" {keyword}");
    for sub in 0..e.plies {
        let f = e.filter.filter(e.plies, sub);
        match f.accept {
            Some(accept) => out.push_str(&format!(" {accept} {} {:.5}", f.extra, f.threshold)),
            None => out.push_str(" -1 0 0.00000"),
        }
    }
    out.push(' ');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::rollout::result::AlternativeStatus;

    #[test]
    fn lines_have_gnubg_layout() {
        let a = AlternativeResult {
            trials: 36,
            mean: [0.531, 0.154, 0.007, 0.120, 0.005, 0.097, 0.176],
            std_error: [0.009, 0.008, 0.001, 0.010, 0.002, 0.024, 0.059],
            equity: 0.176,
            equity_std_error: 0.059,
            cubeless: 0.097,
            cubeless_std_error: 0.024,
            mwc: None,
            mwc_std_error: None,
            status: AlternativeStatus::Running,
            jsd: None,
        };
        assert_eq!(
            result_lines(&a, true, ""),
            "  0.531 0.154 0.007 - 0.469 0.120 0.005 CL +0.097 CF +0.176\n \
             [0.009 0.008 0.001 - 0.009 0.010 0.002 CL  0.024 CF  0.059]\n"
        );
        assert_eq!(
            result_lines(&a, false, "").lines().next(),
            Some("  0.531 0.154 0.007 - 0.469 0.120 0.005 CL +0.097")
        );
        let s = RolloutSettings {
            trials: 36,
            seed: 42,
            ..RolloutSettings::default()
        };
        assert_eq!(
            context_lines(&s, 36, ""),
            "Full cubeful rollout with variance reduction\n\
             36 games, SplitMix64 dice gen. with seed 42 and quasi-random dice\n\
             Play: 0-ply cubeful prune [expert]\nCube: 0-ply cubeful prune [expert]\n"
        );
        let cubeless = RolloutSettings {
            cubeful: false,
            variance_reduction: false,
            ..s
        };
        assert!(context_lines(&cubeless, 7, "").starts_with(
            "Full cubeless rollout (truncated at one-sided bearoff) without variance reduction\n"
        ));
    }

    #[test]
    fn settings_text_has_every_context() {
        let mut s = RolloutSettings {
            seed: 11,
            ..RolloutSettings::default()
        };
        s.early.checker = Level::WorldClass.settings();
        let text = settings_text(&s);
        assert!(
            text.starts_with(
                "SK 0 RC 1 1 0 1 0 0 0 1 1 0 \"SplitMix64\" 11  cube0 ver 3 0C 1 0.000000 1  \
                 cheq0 ver 3 2C 1 0.000000 1 filt0 0 8 0.16000 -1 0 0.00000  cube1"
            ),
            "{text}"
        );
        // Without filters, GNU Backgammon's single blanks (as it writes them back).
        let plain = settings_text(&RolloutSettings {
            seed: 0,
            ..RolloutSettings::default()
        });
        assert_eq!(
            plain,
            "SK 0 RC 1 1 0 1 0 0 0 1 1 0 \"SplitMix64\" 0  cube0 ver 3 0C 1 0.000000 1  \
             cheq0 ver 3 0C 1 0.000000 1 cube1 ver 3 0C 1 0.000000 1  cheq1 ver 3 0C 1 0.000000 1 \
             latecube0 ver 3 0C 1 0.000000 1  latecheq0 ver 3 0C 1 0.000000 1 \
             latecube1 ver 3 0C 1 0.000000 1  latecheq1 ver 3 0C 1 0.000000 1 \
             cubetrunc ver 3 0C 1 0.000000 1 cheqtrunc ver 3 0C 1 0.000000 1"
        );
        for keyword in [
            "cube1 ver 3",
            "cheq1 ver 3",
            "latecube0",
            "latecheq1",
            "latefilt1",
            "cubetrunc ver 3",
            "cheqtrunc ver 3",
        ] {
            assert!(text.contains(keyword), "{keyword} in {text}");
        }
    }
}
