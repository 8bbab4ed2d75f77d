//! Ranges of the numeric command-line options, shared by the subcommands.
//!
//! Every numeric option has a range, checked where clap parses it: a value outside it (or a
//! number too large for its type, NaN or an infinity) is refused at once with a one-line error
//! that names the option and its range (`main` prints clap's errors on one line), before anything
//! is allocated or started.
//!
//! Threads: every `--threads` takes at most [`MAX_THREADS`] (256). The cap is fixed rather than a
//! multiple of the machine's cores so that a command line means the same on every machine (a
//! script written on a big server still runs on a laptop, where threads beyond the cores only
//! share them); it only stops absurd values (`--threads 4294967296` would start threads until
//! the system refuses). Where 0 is accepted it means one thread per core.

use clap::builder::RangedU64ValueParser;

/// The most worker threads any command starts.
pub const MAX_THREADS: u64 = 256;

/// The most rollout trials (games) per alternative.
pub const MAX_TRIALS: i64 = 100_000_000;

/// The most candidate plays rolled out or listed.
pub const MAX_CANDIDATES: u64 = 1000;

/// One thread per core, at most [`MAX_THREADS`]: the default of `--threads`.
pub fn all_cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_THREADS as usize)
}

/// `--threads N` where N is 1 to [`MAX_THREADS`].
pub fn threads() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=MAX_THREADS)
}

/// `--threads N` where N is 0 (one per core) to [`MAX_THREADS`].
pub fn threads_or_zero() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(0..=MAX_THREADS)
}

/// A count stored in a `usize`, in `low..=high`.
pub fn count(low: u64, high: u64) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(low..=high)
}

/// `--trials`-like options: 1 to [`MAX_TRIALS`].
pub fn trials() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_TRIALS)
}

/// `--candidates`-like options: 1 to [`MAX_CANDIDATES`].
pub fn candidates() -> RangedU64ValueParser<usize> {
    count(1, MAX_CANDIDATES)
}

/// A finite number in `low..=high` (NaN and the infinities are refused).
pub fn number(low: f64, high: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    move |s| match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (low..=high).contains(&v) => Ok(v),
        _ => Err(format!("expected a number from {low} to {high}")),
    }
}

/// A finite number greater than `low` and at most `high`.
pub fn number_above(
    low: f64,
    high: f64,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync {
    move |s| match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > low && v <= high => Ok(v),
        _ => Err(format!(
            "expected a number greater than {low} and at most {high}"
        )),
    }
}

/// [`number`] for an `f32` option.
pub fn number_f32(
    low: f32,
    high: f32,
) -> impl Fn(&str) -> Result<f32, String> + Clone + Send + Sync {
    move |s| match s.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && (low..=high).contains(&v) => Ok(v),
        _ => Err(format!("expected a number from {low} to {high}")),
    }
}

/// A probability: a number from 0 to 1.
pub fn probability(s: &str) -> Result<f64, String> {
    number(0.0, 1.0)(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_finite_and_in_range() {
        assert_eq!(probability("0.25"), Ok(0.25));
        assert_eq!(probability("1"), Ok(1.0));
        for bad in ["nan", "NaN", "inf", "-inf", "7", "-0.1", "", "x"] {
            assert!(probability(bad).is_err(), "{bad}");
        }
        let above = number_above(0.0, 10.0);
        assert!(above("0").is_err());
        assert!(above("inf").is_err());
        assert_eq!(above("10"), Ok(10.0));
        let f = number_f32(0.0, 1.0);
        assert!(f("nan").is_err() && f("5").is_err());
        assert_eq!(f("0.5"), Ok(0.5));
    }
}
