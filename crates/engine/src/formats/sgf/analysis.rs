//! The value grammar of the SGF analysis properties (`A`, `DA`, `MR`, `LU`), format version 3
//! as GNU Backgammon writes it, and the older forms it still reads.
//!
//! ```text
//! candidate  = letters " " [ eval | rollout ]            (inside A[..]; no eval = unevaluated)
//! eval       = "E ver 3 " w wg wbg lg lbg equity " " plies["C"] " 0 " det " " noise " " prune
//! rollout    = "X ver 3 Score " equity " " score2 " Trials " n " Output " 7 numbers
//!              " StdDev " 7 numbers " " settings
//! cube eval  = "E ver 3 " plies["C"] " " det " " noise " " prune " " 7 numbers " " 7 numbers
//! cube rollout = "X ver 3 Eq Trials " n " NoDouble Output " 7 " StdDev " 7
//!                " DoubleTake Output " 7 " StdDev " 7 " " settings
//! ```
//!
//! The seven numbers of a cube decision are the five chances, the cubeless equity and the
//! cubeful value after no double, then after double/take. `settings` is the rollout's `SK … RC …`
//! text, kept verbatim. Older forms: `E` values without `ver` (version 0/1: a cube eval starts
//! with four unused numbers and has an extra "reduced" field and no pruning flag; a candidate
//! eval has no pruning flag), `ver 2` (cube evals have the extra "reduced" field), and `R`
//! rollouts, read by the same keywords as `X` ones. A value without `ver` takes the version of
//! the last value that had one, as GNU Backgammon's reader does. Everything is written as
//! version 3.
//!
//! Evaluations are written with `%.6f`, luck with `%.5f` and rollout figures with `%.10g`, as
//! GNU Backgammon writes them, so numbers read are written back unchanged. `inf`, `-inf` and
//! `nan` are read and written.

use std::fmt::Write as _;

use crate::game::match_state::Player;
use crate::game::record::analysis::{
    Candidate, CandidateEval, CubeAnalysis, EvalContext, EvalSource, MoveAnalysis, RolloutStats,
};
use crate::rules::moves::Move;

use super::letters::{move_letters, parse_move_letters};

/// The analysis format version GNU Backgammon's reader assumes for a value that does not say:
/// the version of the last value that did (0 at the start of a file).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Version(i64);

/// The version written.
const FORMAT_VERSION: i64 = 3;

/// Decimals of evaluations (`%.6f`) and of the luck (`%.5f`).
const EVAL_DECIMALS: usize = 6;
const LUCK_DECIMALS: usize = 5;

/// GNU Backgammon's score of a rolled-out candidate whose value has no `Score` (old files).
const NO_SCORE: f64 = -99999.0;

// ---------------------------------------------------------------------------------------------
// Tokens

/// Whitespace-separated tokens of a value, with access to the untouched rest of the text.
#[derive(Clone)]
struct Tokens<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens { text, pos: 0 }
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&self) -> Option<&'a str> {
        self.clone().next()
    }

    fn next(&mut self) -> Option<&'a str> {
        self.skip_space();
        let rest = &self.text[self.pos..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            return None;
        }
        self.pos += end;
        Some(&rest[..end])
    }

    /// The text after the tokens read so far, trimmed.
    fn rest(&self) -> &'a str {
        self.text[self.pos..].trim()
    }

    fn expect(&mut self, what: &str) -> Result<&'a str, String> {
        self.next()
            .ok_or_else(|| format!("the value ends where {what} should be"))
    }

    /// A number as it will be written: `%.<precision>f` (`Some`) or `%.10g` (`None`), so that
    /// writing what was read gives the same text and reading that the same number.
    fn written(&mut self, what: &str, precision: Option<usize>) -> Result<f64, String> {
        let token = self.expect(what)?;
        let x = parse_number(token).ok_or_else(|| format!("{what} is not a number: {token:?}"))?;
        // A plain decimal with few enough digits is already the number its text reads as
        // (the nearest double is far closer to it than half a unit of the last place written).
        if let Some((significant, decimals)) = plain_digits(token) {
            let exact = match precision {
                Some(precision) => decimals <= precision && significant + precision <= 15,
                None => significant <= 10,
            };
            if exact {
                return Ok(x);
            }
        }
        Ok(match precision {
            Some(precision) => quantise_fixed(x, precision),
            None => quantise_general(x),
        })
    }

    fn numbers<const N: usize>(
        &mut self,
        what: &str,
        precision: Option<usize>,
    ) -> Result<[f64; N], String> {
        let mut out = [0.0; N];
        for value in &mut out {
            *value = self.written(what, precision)?;
        }
        Ok(out)
    }

    fn integer(&mut self, what: &str) -> Result<i64, String> {
        let token = self.expect(what)?;
        token
            .parse()
            .map_err(|_| format!("{what} is not an integer: {token:?}"))
    }

    fn flag(&mut self, what: &str) -> Result<bool, String> {
        Ok(self.integer(what)? != 0)
    }

    /// Moves past the next occurrence of the token `keyword`; false (and nothing consumed) if
    /// there is none.
    fn skip_to(&mut self, keyword: &str) -> bool {
        let mut probe = self.clone();
        while let Some(token) = probe.next() {
            if token == keyword {
                *self = probe;
                return true;
            }
        }
        false
    }

    /// Reads `ver N` if it comes next, updating `version`; returns the version in force.
    fn version(&mut self, version: &mut Version) -> Result<i64, String> {
        if self.peek() == Some("ver") {
            self.next();
            version.0 = self.integer("the format version")?;
        }
        Ok(version.0)
    }
}

/// The significant digits and the decimals of a plain decimal number (`-0.001230`: 4 and 6);
/// `None` for anything else (exponents, infinities, NaN).
fn plain_digits(token: &str) -> Option<(usize, usize)> {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let all = whole.bytes().chain(fraction.bytes());
    let significant = all.skip_while(|&b| b == b'0').count();
    Some((significant, fraction.len()))
}

/// A number as C's `strtod` reads it in the C locale (`inf`, `-inf`, `nan` included).
pub(super) fn parse_number(token: &str) -> Option<f64> {
    token.parse().ok()
}

// ---------------------------------------------------------------------------------------------
// Numbers as GNU Backgammon writes them

/// `x` as `%.<precision>f` writes it, read back.
pub(super) fn quantise_fixed(x: f64, precision: usize) -> f64 {
    parse_number(&format_fixed(x, precision)).unwrap_or(x)
}

/// `x` as `%.10g` writes it, read back.
fn quantise_general(x: f64) -> f64 {
    parse_number(&format_general(x, 10)).unwrap_or(x)
}

/// `%.<precision>f`, with C's spelling of infinities and NaN.
pub(super) fn format_fixed(x: f64, precision: usize) -> String {
    let mut out = String::new();
    push_fixed(&mut out, x, precision);
    out
}

/// Appends `%.<precision>f`.
fn push_fixed(out: &mut String, x: f64, precision: usize) {
    match special(x) {
        Some(text) => out.push_str(text),
        None => {
            let _ = write!(out, "{x:.precision$}");
        }
    }
}

/// `%.<significant>g`: the shorter of fixed and exponent notation, trailing zeros removed.
pub(super) fn format_general(x: f64, significant: usize) -> String {
    if let Some(text) = special(x) {
        return text.to_owned();
    }
    let significant = significant.max(1);
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    // The exponent after rounding to the significant digits decides the notation.
    let scientific = format!("{:.*e}", significant - 1, x);
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("exponent notation has an 'e'");
    let exponent: i64 = exponent.parse().expect("the exponent is an integer");
    if exponent < -4 || exponent >= significant as i64 {
        let mantissa = strip_zeros(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        let decimals = (significant as i64 - 1 - exponent) as usize;
        strip_zeros(&format!("{x:.decimals$}")).to_owned()
    }
}

fn special(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("nan")
    } else if x == f64::INFINITY {
        Some("inf")
    } else if x == f64::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

/// Removes trailing zeros after a decimal point, and the point if nothing follows it.
fn strip_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

// ---------------------------------------------------------------------------------------------
// Luck

/// Reads an `LU` value.
pub(super) fn parse_luck(text: &str) -> Result<f64, String> {
    let mut tokens = Tokens::new(text);
    tokens.written("the luck", Some(LUCK_DECIMALS))
}

/// Writes an `LU` value (`%.5f`).
pub(super) fn format_luck(luck: f64) -> String {
    format_fixed(luck, LUCK_DECIMALS)
}

// ---------------------------------------------------------------------------------------------
// Evaluation contexts

/// Reads `<plies>[C]`.
fn plies(tokens: &mut Tokens) -> Result<(u8, bool), String> {
    let token = tokens.expect("the number of plies")?;
    let (digits, cubeful) = match token.strip_suffix('C') {
        Some(digits) => (digits, true),
        None => (token, false),
    };
    let plies = digits
        .parse()
        .map_err(|_| format!("the number of plies is not '<n>' or '<n>C': {token:?}"))?;
    Ok((plies, cubeful))
}

fn format_context(context: &EvalContext, reduced_field: bool) -> String {
    format!(
        "{}{}{} {} {} {}",
        context.plies,
        if context.cubeful { "C" } else { "" },
        if reduced_field { " 0" } else { "" },
        u8::from(context.deterministic),
        format_fixed(context.noise, EVAL_DECIMALS),
        u8::from(context.prune),
    )
}

// ---------------------------------------------------------------------------------------------
// Checker plays

/// Reads the values of an `A` property (the index of the play made, then one value per
/// candidate) and the `MR` value, if any, for a play by `player`.
pub(super) fn parse_move_analysis(
    player: Player,
    values: &[String],
    marks: Option<&str>,
    version: &mut Version,
) -> Result<MoveAnalysis, String> {
    let (index, candidate_values) = values.split_first().ok_or_else(|| "no value".to_owned())?;
    let played: usize = index
        .trim()
        .parse()
        .map_err(|_| format!("the index of the play made is not a number: {index:?}"))?;
    if candidate_values.is_empty() {
        return Err("no candidate plays".to_owned());
    }
    let candidates = candidate_values
        .iter()
        .enumerate()
        .map(|(i, value)| {
            parse_candidate(player, value, version).map_err(|e| format!("candidate {}: {e}", i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if played >= candidates.len() {
        return Err(format!(
            "the play made is candidate {played} (counted from 0) of only {}",
            candidates.len()
        ));
    }
    let rollout_marks = marks.map_or_else(Vec::new, |m| parse_marks(m, candidates.len()));
    Ok(MoveAnalysis {
        played,
        candidates,
        rollout_marks,
    })
}

/// The `MR` value: 1-based candidate numbers, read up to the first that is not a positive
/// number; numbers outside the list are skipped. Sorted, without repetitions.
fn parse_marks(text: &str, candidates: usize) -> Vec<usize> {
    let mut marks: Vec<usize> = text
        .split_whitespace()
        .map_while(|t| t.parse::<usize>().ok().filter(|&n| n > 0))
        .filter(|&n| n <= candidates)
        .collect();
    marks.sort_unstable();
    marks.dedup();
    marks
}

/// The `A` values (index first) and the `MR` value of a checker play's analysis.
pub(super) fn format_move_analysis(
    player: Player,
    analysis: &MoveAnalysis,
) -> (Vec<String>, String) {
    let mut values = Vec::with_capacity(analysis.candidates.len() + 1);
    values.push(analysis.played.to_string());
    values.extend(
        analysis
            .candidates
            .iter()
            .map(|c| format_candidate(player, c)),
    );
    let mut marks: Vec<usize> = analysis
        .rollout_marks
        .iter()
        .copied()
        .filter(|&n| (1..=analysis.candidates.len()).contains(&n))
        .collect();
    marks.sort_unstable();
    marks.dedup();
    let marks = marks.iter().map(|n| format!("{n} ")).collect();
    (values, marks)
}

fn parse_candidate(player: Player, text: &str, version: &mut Version) -> Result<Candidate, String> {
    let mut tokens = Tokens::new(text);
    let mv = match tokens.peek() {
        None | Some("E" | "R" | "X") => Move::NONE,
        Some(letters) => {
            tokens.next();
            parse_move_letters(player, letters).map_err(|e| format!("bad play {letters:?}: {e}"))?
        }
    };
    let eval = match tokens.next() {
        None => None,
        Some("E") => Some(parse_candidate_eval(&mut tokens, version)?),
        Some(kind @ ("R" | "X")) => Some(parse_candidate_rollout(&mut tokens, kind, version)?),
        Some(other) => {
            return Err(format!(
                "expected E (evaluation), X or R (rollout) after the play, found {other:?}"
            ))
        }
    };
    Ok(Candidate { mv, eval })
}

fn parse_candidate_eval(
    tokens: &mut Tokens,
    version: &mut Version,
) -> Result<CandidateEval, String> {
    let version = tokens.version(version)?;
    let probabilities = tokens.numbers::<5>("a chance", Some(EVAL_DECIMALS))?;
    let equity = tokens.written("the equity", Some(EVAL_DECIMALS))?;
    let (plies, cubeful) = plies(tokens)?;
    tokens.integer("the reduced-evaluation field")?;
    let deterministic = tokens.flag("the deterministic-noise flag")?;
    let noise = tokens.written("the noise", Some(EVAL_DECIMALS))?;
    let prune = if version < 2 {
        false
    } else {
        tokens.flag("the pruning flag")?
    };
    Ok(CandidateEval {
        probabilities,
        equity,
        source: EvalSource::Eval(EvalContext {
            plies,
            cubeful,
            deterministic,
            noise,
            prune,
        }),
    })
}

fn parse_candidate_rollout(
    tokens: &mut Tokens,
    kind: &str,
    version: &mut Version,
) -> Result<CandidateEval, String> {
    if kind == "X" {
        tokens.version(version)?;
    }
    let [equity, score2] = if tokens.skip_to("Score") {
        tokens.numbers::<2>("a score", None)?
    } else {
        [NO_SCORE, NO_SCORE]
    };
    let trials = trials(tokens)?;
    let (output, std_dev) = output_and_std_dev(tokens)?;
    Ok(CandidateEval {
        probabilities: [output[0], output[1], output[2], output[3], output[4]],
        equity,
        source: EvalSource::Rollout(RolloutStats {
            trials,
            std_dev,
            move_means: [output[5], output[6], score2],
            settings: tokens.rest().to_owned(),
        }),
    })
}

/// `Trials <n>`, if present (0 otherwise, as GNU Backgammon reads it).
fn trials(tokens: &mut Tokens) -> Result<u32, String> {
    if !tokens.skip_to("Trials") {
        return Ok(0);
    }
    let n = tokens.integer("the number of trials")?;
    u32::try_from(n).map_err(|_| format!("{n} is not a number of trials"))
}

/// `Output <7 numbers> StdDev <7 numbers>`.
fn output_and_std_dev(tokens: &mut Tokens) -> Result<([f64; 7], [f64; 7]), String> {
    if !tokens.skip_to("Output") {
        return Err("a rollout without 'Output'".to_owned());
    }
    let output = tokens.numbers::<7>("a rollout output", None)?;
    if !tokens.skip_to("StdDev") {
        return Err("a rollout without 'StdDev'".to_owned());
    }
    let std_dev = tokens.numbers::<7>("a standard deviation", None)?;
    Ok((output, std_dev))
}

fn format_candidate(player: Player, candidate: &Candidate) -> String {
    let mut out = move_letters(player, &candidate.mv);
    out.push(' ');
    if let Some(eval) = &candidate.eval {
        let p = &eval.probabilities;
        match &eval.source {
            EvalSource::Eval(context) => {
                out.push_str(&format!("E ver {FORMAT_VERSION}"));
                for x in p.iter().chain([&eval.equity]) {
                    out.push(' ');
                    push_fixed(&mut out, *x, EVAL_DECIMALS);
                }
                out.push(' ');
                out.push_str(&format_context(context, true));
            }
            EvalSource::Rollout(stats) => {
                let [cubeless, cubeful, score2] = stats.move_means;
                out.push_str(&format!(
                    "X ver {FORMAT_VERSION} Score {} {} Trials {} Output",
                    format_general(eval.equity, 10),
                    format_general(score2, 10),
                    stats.trials
                ));
                push_general(&mut out, p.iter().copied().chain([cubeless, cubeful]));
                out.push_str(" StdDev");
                push_general(&mut out, stats.std_dev.iter().copied());
                push_settings(&mut out, &stats.settings);
            }
        }
    }
    out
}

fn push_general(out: &mut String, numbers: impl Iterator<Item = f64>) {
    for x in numbers {
        out.push(' ');
        out.push_str(&format_general(x, 10));
    }
}

fn push_settings(out: &mut String, settings: &str) {
    let settings = settings.trim();
    if !settings.is_empty() {
        out.push(' ');
        out.push_str(settings);
    }
}

// ---------------------------------------------------------------------------------------------
// Cube decisions

/// Reads a `DA` value.
pub(super) fn parse_cube_analysis(
    text: &str,
    version: &mut Version,
) -> Result<CubeAnalysis, String> {
    let mut tokens = Tokens::new(text);
    match tokens.next() {
        Some("E") => parse_cube_eval(&mut tokens, version),
        Some(kind @ ("R" | "X")) => parse_cube_rollout(&mut tokens, kind, version),
        Some(other) => Err(format!(
            "expected E (evaluation), X or R (rollout), found {other:?}"
        )),
        None => Err("empty value".to_owned()),
    }
}

fn parse_cube_eval(tokens: &mut Tokens, version: &mut Version) -> Result<CubeAnalysis, String> {
    let version = tokens.version(version)?;
    if version < 2 {
        tokens.numbers::<4>("an unused leading number", None)?;
    }
    let (plies, cubeful) = plies(tokens)?;
    if version < 3 {
        tokens.integer("the reduced-evaluation field")?;
    }
    let deterministic = tokens.flag("the deterministic-noise flag")?;
    let noise = tokens.written("the noise", Some(EVAL_DECIMALS))?;
    let prune = if version < 2 {
        false
    } else {
        tokens.flag("the pruning flag")?
    };
    let no_double = tokens.numbers::<7>("a no-double output", Some(EVAL_DECIMALS))?;
    let double_take = tokens.numbers::<7>("a double/take output", Some(EVAL_DECIMALS))?;
    Ok(CubeAnalysis {
        no_double,
        double_take,
        source: EvalSource::Eval(EvalContext {
            plies,
            cubeful,
            deterministic,
            noise,
            prune,
        }),
        double_take_rollout: None,
    })
}

fn parse_cube_rollout(
    tokens: &mut Tokens,
    kind: &str,
    version: &mut Version,
) -> Result<CubeAnalysis, String> {
    if kind == "X" {
        tokens.version(version)?;
    }
    let trials = trials(tokens)?;
    if !tokens.skip_to("NoDouble") {
        return Err("a cube rollout without 'NoDouble'".to_owned());
    }
    let (no_double, no_double_sd) = output_and_std_dev(tokens)?;
    if !tokens.skip_to("DoubleTake") {
        return Err("a cube rollout without 'DoubleTake'".to_owned());
    }
    let (double_take, double_take_sd) = output_and_std_dev(tokens)?;
    let settings = tokens.rest().to_owned();
    let stats = |std_dev| RolloutStats {
        trials,
        std_dev,
        move_means: [0.0; 3],
        settings: settings.clone(),
    };
    Ok(CubeAnalysis {
        no_double,
        double_take,
        source: EvalSource::Rollout(stats(no_double_sd)),
        double_take_rollout: Some(stats(double_take_sd)),
    })
}

/// Writes a `DA` value.
pub(super) fn format_cube_analysis(analysis: &CubeAnalysis) -> String {
    match &analysis.source {
        EvalSource::Eval(context) => {
            let mut out = format!("E ver {FORMAT_VERSION} {}", format_context(context, false));
            for x in analysis.no_double.iter().chain(&analysis.double_take) {
                out.push(' ');
                push_fixed(&mut out, *x, EVAL_DECIMALS);
            }
            out
        }
        EvalSource::Rollout(stats) => {
            let double_take_sd = analysis
                .double_take_rollout
                .as_ref()
                .map_or([0.0; 7], |r| r.std_dev);
            let mut out = format!(
                "X ver {FORMAT_VERSION} Eq Trials {} NoDouble Output",
                stats.trials
            );
            push_general(&mut out, analysis.no_double.iter().copied());
            out.push_str(" StdDev");
            push_general(&mut out, stats.std_dev.iter().copied());
            out.push_str(" DoubleTake Output");
            push_general(&mut out, analysis.double_take.iter().copied());
            out.push_str(" StdDev");
            push_general(&mut out, double_take_sd.iter().copied());
            push_settings(&mut out, &stats.settings);
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Step;

    #[test]
    fn general_format_is_cs_g() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (0.5, "0.5"),
            (-0.123456789012, "-0.123456789"),
            (1296.0, "1296"),
            (0.00012345, "0.00012345"),
            (0.000012345, "1.2345e-05"),
            (12345678901.0, "1.23456789e+10"),
            (1234567890.0, "1234567890"),
            (9999999999.5, "1e+10"),
            (1e100, "1e+100"),
            (0.4963649988174438, "0.4963649988"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for &(x, text) in cases {
            assert_eq!(format_general(x, 10), text, "{x}");
        }
        assert_eq!(format_fixed(-0.0, 5), "-0.00000");
        assert_eq!(format_fixed(0.0018649, 5), "0.00186");
        assert_eq!(format_fixed(f64::NEG_INFINITY, 5), "-inf");
        for text in ["inf", "-inf", "nan", "-nan", "1e-5", "-0.00000", "Infinity"] {
            assert!(parse_number(text).is_some(), "{text}");
        }
        assert!(parse_number("0,5").is_none());
    }

    #[test]
    fn formatting_is_stable_after_one_round() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = f64::from_bits(seed);
            if !x.is_finite() {
                continue;
            }
            let general = format_general(x, 10);
            assert_eq!(
                format_general(parse_number(&general).unwrap(), 10),
                general,
                "{x:e}"
            );
            let fixed = format_fixed(x, 6);
            assert_eq!(
                format_fixed(parse_number(&fixed).unwrap(), 6),
                fixed,
                "{x:e}"
            );
        }
    }

    #[test]
    fn quantising_matches_writing() {
        assert_eq!(plain_digits("-0.001230"), Some((4, 6)));
        assert_eq!(plain_digits("12"), Some((2, 0)));
        assert_eq!(plain_digits("1e5"), None);
        assert_eq!(plain_digits("."), None);
        assert_eq!(plain_digits("-inf"), None);
        let mut seed = 7u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let digits = (seed >> 40) % 10_000_000_000;
            let scale = 10f64.powi(((seed >> 20) % 14) as i32 - 4);
            let text = format!("{}", digits as f64 / scale);
            for precision in [Some(5), Some(6), None] {
                let mut tokens = Tokens::new(&text);
                let read = tokens.written("x", precision).unwrap();
                let x: f64 = text.parse().unwrap();
                let expected = match precision {
                    Some(p) => quantise_fixed(x, p),
                    None => quantise_general(x),
                };
                assert_eq!(read.to_bits(), expected.to_bits(), "{text} {precision:?}");
            }
        }
    }

    #[test]
    fn reads_and_writes_a_version_3_candidate() {
        let text =
            "lpab E ver 3 0.496365 0.140890 0.006297 0.135264 0.005951 -0.004723 2C 0 1 0.000000 1";
        let mut version = Version::default();
        let c = parse_candidate(Player::One, text, &mut version).unwrap();
        assert_eq!(
            c.mv.steps(),
            [Step { from: 13, to: 9 }, Step { from: 24, to: 23 }]
        );
        let eval = c.eval.as_ref().unwrap();
        assert_eq!(eval.probabilities[1], 0.140890);
        assert_eq!(eval.equity, -0.004723);
        assert_eq!(
            eval.source,
            EvalSource::Eval(EvalContext {
                plies: 2,
                cubeful: true,
                deterministic: true,
                noise: 0.0,
                prune: true
            })
        );
        assert_eq!(format_candidate(Player::One, &c), text);
        let unevaluated = parse_candidate(Player::Zero, "mhfe ", &mut version).unwrap();
        assert_eq!(unevaluated.eval, None);
        assert_eq!(format_candidate(Player::Zero, &unevaluated), "mhfe ");
    }

    #[test]
    fn reads_old_candidate_forms() {
        // No version: no pruning flag; the version is inherited from the last value that had one.
        let mut version = Version::default();
        let c = parse_candidate(
            Player::Zero,
            "hefe E 0.5 0.1 0.01 0.1 0.01 0.02 1 0 1 0.03",
            &mut version,
        )
        .unwrap();
        let eval = c.eval.unwrap();
        assert_eq!(
            eval.source,
            EvalSource::Eval(EvalContext {
                plies: 1,
                cubeful: false,
                deterministic: true,
                noise: 0.03,
                prune: false
            })
        );
        parse_candidate(
            Player::Zero,
            "hefe E ver 2 0.5 0.1 0.01 0.1 0.01 0.02 1 0 1 0.03 1",
            &mut version,
        )
        .unwrap();
        let c = parse_candidate(
            Player::Zero,
            "hefe E 0.5 0.1 0.01 0.1 0.01 0.02 1 0 1 0.03 1",
            &mut version,
        )
        .unwrap();
        assert!(matches!(
            c.eval.unwrap().source,
            EvalSource::Eval(EvalContext { prune: true, .. })
        ));
        // A candidate without letters.
        let c = parse_candidate(
            Player::Zero,
            "E ver 3 0.5 0.1 0.01 0.1 0.01 0.02 1 0 1 0.0 1",
            &mut version,
        )
        .unwrap();
        assert_eq!(c.mv, Move::NONE);
    }

    #[test]
    fn reads_and_writes_rollouts() {
        let settings = "SK 0 RC 1 1 0 1 0 0 0 0 0 0 \"Mersenne Twister\" 11  cube0 ver 3 0C 0 0.000000 0  \
                        cheq0 ver 3 0C 0 0.000000 0  cube1 ver 3 0C 0 0.000000 0  cheq1 ver 3 0C 0 0.000000 0  \
                        latecube0 ver 3 0 0 0.000000 0  latecheq0 ver 3 0 0 0.000000 0  latecube1 ver 3 0 0 0.000000 0  \
                        latecheq1 ver 3 0 0 0.000000 0  cubetrunc ver 3 0 0 0.000000 0  cheqtrunc ver 3 0 0 0.000000 0";
        let text = format!(
            "mhxw X ver 3 Score 0.01234567891 -0.5 Trials 1296 Output 0.5 0.14 0.006 0.13 0.005 0.01 0.012 \
             StdDev 0.001 0.002 0.0003 0.002 0.0004 0.005 0.006 {settings}"
        );
        let mut version = Version::default();
        let c = parse_candidate(Player::Zero, &text, &mut version).unwrap();
        let eval = c.eval.as_ref().unwrap();
        assert_eq!(eval.equity, 0.01234567891);
        let EvalSource::Rollout(stats) = &eval.source else {
            panic!("{eval:?}")
        };
        assert_eq!(stats.trials, 1296);
        assert_eq!(stats.move_means, [0.01, 0.012, -0.5]);
        assert_eq!(stats.std_dev[6], 0.006);
        assert_eq!(stats.settings, settings);
        assert_eq!(format_candidate(Player::Zero, &c), text.replace(" \n", " "));

        let da = format!(
            "X ver 3 Eq Trials 648 NoDouble Output 0.7 0.2 0.01 0.05 0.001 0.5 0.6 StdDev 0.001 0.001 0.001 0.001 0.001 0.002 0.003 \
             DoubleTake Output 0.7 0.2 0.01 0.05 0.001 1 1.2 StdDev 0.001 0.001 0.001 0.001 0.001 0.004 0.005 {settings}"
        );
        let cube = parse_cube_analysis(&da, &mut version).unwrap();
        assert_eq!(cube.no_double[6], 0.6);
        assert_eq!(cube.double_take[6], 1.2);
        let Some(dt) = &cube.double_take_rollout else {
            panic!()
        };
        assert_eq!(dt.std_dev[6], 0.005);
        assert_eq!(dt.trials, 648);
        assert_eq!(format_cube_analysis(&cube), da);
        // An old R rollout reads by its keywords.
        let old = "R Trials 36 NoDouble Output 1 0 0 0 0 1 1 StdDev 0 0 0 0 0 0 0 DoubleTake Output 1 0 0 0 0 2 1 StdDev 0 0 0 0 0 0 0 RC 1 1 0 0 36 \"x\" 1 1 0 0";
        let cube = parse_cube_analysis(old, &mut version).unwrap();
        assert_eq!(cube.double_take[5], 2.0);
    }

    #[test]
    fn reads_and_writes_cube_evals() {
        let text = "E ver 3 2C 1 0.000000 1 0.883969 0.128146 0.002942 0.000000 0.000000 0.901881 0.562528 \
                    0.883969 0.128146 0.002942 0.000000 0.000000 0.901881 0.609616";
        let mut version = Version::default();
        let cube = parse_cube_analysis(text, &mut version).unwrap();
        assert_eq!(cube.no_double[6], 0.562528);
        assert_eq!(cube.double_take[6], 0.609616);
        assert_eq!(format_cube_analysis(&cube), text);
        // Version 0/1: four unused numbers and a reduced field, no pruning flag.
        let old = "E 0 0 0 0 2C 0 1 0.000000 0.8 0.1 0 0 0 0.9 0.5 0.8 0.1 0 0 0 0.9 0.6";
        let cube = parse_cube_analysis(old, &mut Version::default()).unwrap();
        assert_eq!(cube.double_take[6], 0.6);
        // Version 2: a reduced field and a pruning flag.
        let v2 = "E ver 2 2C 0 1 0.000000 1 0.8 0.1 0 0 0 0.9 0.5 0.8 0.1 0 0 0 0.9 0.6";
        let cube = parse_cube_analysis(v2, &mut Version::default()).unwrap();
        assert!(matches!(
            cube.source,
            EvalSource::Eval(EvalContext {
                prune: true,
                plies: 2,
                ..
            })
        ));
        for bad in [
            "",
            "Q",
            "E ver 3 2C 1 0.0 1 0.5",
            "E ver x",
            "X ver 3 Trials 5",
            "E ver 3 2D 1 0 1",
        ] {
            assert!(
                parse_cube_analysis(bad, &mut Version::default()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn move_analysis_and_marks() {
        let values: Vec<String> = [
            "1",
            "mhxw E ver 3 0.5 0.1 0.0 0.1 0.0 0.01 2C 0 1 0.000000 1",
            "mhfe ",
            "xwwr ",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut version = Version::default();
        let a = parse_move_analysis(Player::Zero, &values, Some("3 1 9 3 "), &mut version).unwrap();
        assert_eq!(a.played, 1);
        assert_eq!(a.candidates.len(), 3);
        assert_eq!(a.rollout_marks, [1, 3]);
        let (written, marks) = format_move_analysis(Player::Zero, &a);
        assert_eq!(written[0], "1");
        assert_eq!(written[2], "mhfe ");
        assert_eq!(marks, "1 3 ");
        assert!(parse_move_analysis(Player::Zero, &values[..1], None, &mut version).is_err());
        let mut bad = values.clone();
        bad[0] = "3".into();
        assert!(parse_move_analysis(Player::Zero, &bad, None, &mut version).is_err());
        bad[0] = "x".into();
        assert!(parse_move_analysis(Player::Zero, &bad, None, &mut version).is_err());
        assert_eq!(parse_marks("2 0 3", 5), [2]);
        assert_eq!(parse_marks("", 5), Vec::<usize>::new());
    }
}
