//! The deterministic generator and the byte mutations of the fuzz tests, shared by the engine's
//! parser fuzzing (`crates/engine/tests/fuzz.rs`) and the protocol-line fuzzing of the command-line
//! program (`crates/cli/tests/fuzz/lines.rs`), both of which include this file with `#[path]`.

#![allow(dead_code)]

use cubeful_engine::game::splitmix64;

/// A deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The seed of a run: `CUBEFUL_FUZZ_SEED` if set, else `default`.
pub fn seed(default: u64) -> u64 {
    std::env::var("CUBEFUL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Applies one to four mutations to `bytes`: bit flips, characters of `alphabet` or any byte
/// written over one, ranges deleted, duplicated or repeated (up to a few kilobytes, so that
/// echoed input gets long), `tokens` inserted, digits changed, bytes swapped, truncation.
pub fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>, alphabet: &[u8], tokens: &[&str]) {
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len();
        let at = rng.below(len + 1);
        match rng.below(13) {
            0 if at < len => bytes[at] ^= 1 << rng.below(8),
            1 if at < len => bytes[at] = *rng.pick(alphabet),
            2 if at < len => bytes[at] = rng.below(256) as u8,
            3 => {
                let end = (at + 1 + rng.below(8)).min(len);
                bytes.drain(at.min(end)..end);
            }
            4 => {
                let end = (at + rng.below(24)).min(len);
                let copy = bytes[at.min(end)..end].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, copy);
            }
            5 | 6 => {
                let token = rng.pick(tokens).as_bytes();
                bytes.splice(at..at, token.iter().copied());
            }
            7 if rng.below(3) == 0 => bytes.truncate(at),
            8 => {
                let digits: Vec<usize> = (0..len).filter(|&i| bytes[i].is_ascii_digit()).collect();
                if !digits.is_empty() {
                    let i = *rng.pick(&digits);
                    bytes[i] = b'0' + rng.below(10) as u8;
                }
            }
            9 if len > 1 => {
                let other = rng.below(len);
                bytes.swap(at.min(len - 1), other);
            }
            10 if rng.below(8) == 0 => {
                // A piece repeated many times: long fields, long names, long lines.
                let end = (at + 1 + rng.below(8)).min(len);
                let piece = bytes[at.min(end)..end].to_vec();
                if !piece.is_empty() {
                    let times = 1 + rng.below(3000 / piece.len());
                    let long: Vec<u8> = piece.repeat(times);
                    bytes.splice(at..at, long);
                }
            }
            _ => {
                let b = *rng.pick(alphabet);
                bytes.insert(at, b);
            }
        }
    }
}
