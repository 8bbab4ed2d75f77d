//! Running means and standard errors of the seven outputs of a rollout's trials.
//!
//! Welford's update in `f64`: after `n` trials the mean and the sum of squared deviations; the
//! standard error is the unbiased sample standard deviation over `√n` (GNU Backgammon's),
//! 0 before the second trial. Trials are added in trial order, so the figures are the same bit
//! for bit whatever the number of threads that played them.

use serde::Serialize;

/// The seven outputs of a trial: five chances, cubeless equity, cubeful value.
pub const OUTPUTS: usize = 7;

/// Running mean and variance of the trials of one alternative.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunningStats {
    n: u32,
    mean: [f64; OUTPUTS],
    m2: [f64; OUTPUTS],
}

impl RunningStats {
    /// No trials yet.
    pub fn new() -> RunningStats {
        RunningStats::default()
    }

    /// Adds the outputs of the next trial.
    pub fn push(&mut self, x: &[f64; OUTPUTS]) {
        self.n += 1;
        let n = f64::from(self.n);
        for ((mean, m2), &x) in self.mean.iter_mut().zip(&mut self.m2).zip(x) {
            let delta = x - *mean;
            *mean += delta / n;
            *m2 += delta * (x - *mean);
        }
    }

    /// Trials added.
    pub fn count(&self) -> u32 {
        self.n
    }

    /// Means of the outputs (0 before the first trial).
    pub fn mean(&self) -> [f64; OUTPUTS] {
        self.mean
    }

    /// Standard errors of the means: `√(s²/n)` with the unbiased sample variance `s²`.
    pub fn std_error(&self) -> [f64; OUTPUTS] {
        if self.n < 2 {
            return [0.0; OUTPUTS];
        }
        let n = f64::from(self.n);
        self.m2.map(|m2| (m2.max(0.0) / (n - 1.0) / n).sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_textbook_formulas() {
        let xs = [1.0, 4.0, -2.0, 0.5, 3.0];
        let mut s = RunningStats::new();
        for x in xs {
            s.push(&[x; OUTPUTS]);
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert_eq!(s.count(), 5);
        assert!((s.mean()[3] - mean).abs() < 1e-12);
        assert!((s.std_error()[6] - (var / n).sqrt()).abs() < 1e-12);
        let mut one = RunningStats::new();
        one.push(&[2.0; OUTPUTS]);
        assert_eq!(one.std_error(), [0.0; OUTPUTS]);
    }
}
