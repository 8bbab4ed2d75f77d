//! PubEval, Tesauro's public linear evaluation function (1993): the classic yardstick of playing
//! strength. It scores the position after each legal move with one of two weight vectors (contact
//! or race) over a raw 122-value encoding, and plays the highest score. It never doubles.
//!
//! The weights are not part of Cubeful; they are read at run time from a folder holding `WT.cntc`
//! and `WT.race` (122 numbers each, one per line).

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::files::read_regular;
use crate::rules::dice::Dice;
use crate::rules::movegen::{LegalMove, MoveGenerator};
use crate::rules::position::{Position, Side};

/// Number of PubEval inputs and weights per vector.
pub const PUBEVAL_INPUTS: usize = 122;

/// The longest weights file read: 122 numbers take about 2 KB even with generous spacing, so
/// 1 MiB is ample, and a device or a huge file is refused before it is read.
const MAX_WEIGHTS_FILE_BYTES: u64 = 1 << 20;

/// A weights file that could not be used.
#[derive(Debug, Error)]
pub enum PubEvalError {
    #[error("cannot read PubEval weights {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("PubEval weights {path}, line {line}: {text:?} is not a number")]
    NotANumber {
        path: PathBuf,
        line: usize,
        text: String,
    },
    #[error("PubEval weights {path} hold {found} numbers; 122 are needed")]
    WrongCount { path: PathBuf, found: usize },
}

/// The two PubEval weight vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct PubEval {
    contact: [f32; PUBEVAL_INPUTS],
    race: [f32; PUBEVAL_INPUTS],
}

impl PubEval {
    /// Weights from two vectors (contact, race).
    pub fn new(contact: [f32; PUBEVAL_INPUTS], race: [f32; PUBEVAL_INPUTS]) -> PubEval {
        PubEval { contact, race }
    }

    /// Reads `WT.cntc` and `WT.race` from `dir`.
    pub fn load(dir: &Path) -> Result<PubEval, PubEvalError> {
        Ok(PubEval {
            contact: read_weights(&dir.join("WT.cntc"))?,
            race: read_weights(&dir.join("WT.race"))?,
        })
    }

    /// PubEval's score of `after`, the position right after the mover's play, seen from the mover
    /// (as move generation returns it). Higher is better for the mover.
    pub fn score(&self, after: &Position) -> f32 {
        if after.off(Side::Player) == 15 {
            return f32::INFINITY;
        }
        let x = encode(after);
        let w = if after.is_race() {
            &self.race
        } else {
            &self.contact
        };
        x.iter().zip(w.iter()).map(|(a, b)| a * b).sum()
    }

    /// PubEval's choice among the legal plays of `dice` (the first of equal scores).
    pub fn choose(
        &self,
        position: &Position,
        dice: Dice,
        generator: &mut MoveGenerator,
    ) -> LegalMove {
        let moves = generator.generate(position, dice);
        let mut best = moves[0];
        let mut best_score = f32::NEG_INFINITY;
        for m in moves {
            let s = self.score(&m.position);
            if s > best_score {
                best_score = s;
                best = *m;
            }
        }
        best
    }
}

/// PubEval's 122 inputs for `after` (seen from the mover). With the 28-slot board of the published
/// function — 0 the opponent's bar (≤ 0), 1..=24 the points (mover positive), 25 the mover's bar,
/// 26 the mover's checkers off — and for j = 1..=24, n = board[25 − j]: five inputs per point
/// (an opposing blot, exactly one own checker, two or more, exactly three, and (n − 3)/2 beyond
/// three), then `−board[0]/2` and `board[26]/15`.
pub fn encode(after: &Position) -> [f32; PUBEVAL_INPUTS] {
    let b = after.board();
    let mut x = [0.0f32; PUBEVAL_INPUTS];
    for j in 1..=24usize {
        let n = b[25 - j];
        let k = 5 * (j - 1);
        if n == -1 {
            x[k] = 1.0;
        }
        if n == 1 {
            x[k + 1] = 1.0;
        }
        if n >= 2 {
            x[k + 2] = 1.0;
        }
        if n == 3 {
            x[k + 3] = 1.0;
        }
        if n >= 4 {
            x[k + 4] = f32::from(n - 3) / 2.0;
        }
    }
    x[120] = -f32::from(b[0]) / 2.0;
    x[121] = f32::from(after.off(Side::Player)) / 15.0;
    x
}

fn read_weights(path: &Path) -> Result<[f32; PUBEVAL_INPUTS], PubEvalError> {
    let io = |source| PubEvalError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bytes = read_regular(path, MAX_WEIGHTS_FILE_BYTES).map_err(|e| io(e.into_reason()))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "it is not text",
        ))
    })?;
    let mut values = Vec::with_capacity(PUBEVAL_INPUTS);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let v: f32 = t.parse().map_err(|_| PubEvalError::NotANumber {
            path: path.to_path_buf(),
            line: i + 1,
            text: t.to_string(),
        })?;
        values.push(v);
    }
    values
        .try_into()
        .map_err(|v: Vec<f32>| PubEvalError::WrongCount {
            path: path.to_path_buf(),
            found: v.len(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_testkit::ScratchDir;

    #[test]
    fn encoding_of_the_starting_position() {
        // Hand-computed: board[25 - j] for j = 1..24 runs over points 24 down to 1.
        let x = encode(&Position::starting());
        // j = 1 -> point 24: two own checkers -> ">= 2".
        assert_eq!(&x[0..5], &[0.0, 0.0, 1.0, 0.0, 0.0]);
        // j = 12 -> point 13: five own checkers -> ">= 2" and (5 - 3) / 2 = 1.
        assert_eq!(&x[55..60], &[0.0, 0.0, 1.0, 0.0, 1.0]);
        // j = 17 -> point 8: three own checkers -> ">= 2" and "exactly 3".
        assert_eq!(&x[80..85], &[0.0, 0.0, 1.0, 1.0, 0.0]);
        // j = 24 -> point 1: two opposing checkers -> nothing (only a blot counts).
        assert_eq!(&x[115..120], &[0.0; 5]);
        assert_eq!(x[120], 0.0);
        assert_eq!(x[121], 0.0);
        let ones = x.iter().filter(|&&v| v != 0.0).count();
        assert_eq!(ones, 7); // four points held, plus three "more than two" extras.
    }

    #[test]
    fn encoding_of_blots_bar_and_off() {
        let mut me = [0u8; 25];
        me[0] = 1; // my point 1
        me[5] = 9; // my point 6: 9 checkers
        let mut them = [0u8; 25];
        them[24] = 2; // two on the bar
        them[10] = 1; // their 11 = my 14: a blot
        them[0] = 12;
        let p = Position::from_sides(&me, &them).unwrap();
        let x = encode(&p);
        // Point 1 is j = 24: exactly one own checker.
        assert_eq!(x[115 + 1], 1.0);
        // Point 6 is j = 19: >= 2 and (9 - 3) / 2 = 3.
        assert_eq!(&x[90..95], &[0.0, 0.0, 1.0, 0.0, 3.0]);
        // Point 14 is j = 11: an opposing blot.
        assert_eq!(x[50], 1.0);
        assert_eq!(x[120], 1.0); // two on the bar / 2
        assert!((x[121] - 5.0 / 15.0).abs() < 1e-7);
    }

    #[test]
    fn weights_errors_name_the_file() {
        let dir = ScratchDir::new("pubeval");
        std::fs::write(dir.join("WT.cntc"), "1\n2\nx\n").unwrap();
        let e = PubEval::load(&dir).unwrap_err().to_string();
        assert!(e.contains("WT.cntc") && e.contains("line 3"), "{e}");
        std::fs::write(dir.join("WT.cntc"), "1\n2\n").unwrap();
        let e = PubEval::load(&dir).unwrap_err().to_string();
        assert!(e.contains("2 numbers"), "{e}");
    }
}
