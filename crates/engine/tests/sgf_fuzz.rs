//! Hostile input for the SGF reader: pieces of the corpus files and of hand-written files with
//! every feature of the dialect, mutated (bytes flipped, deleted, duplicated; nodes duplicated,
//! swapped and moved; brackets, parentheses and properties inserted; text cut off), are read. No
//! input may panic or hang; what reads must write, and the written text must read back to the
//! same record and write to the same text. `cargo test` runs 100,000 cases;
//! `cargo test --release -- --ignored` runs 1,000,000.

use std::time::Instant;

use cubeful_engine::formats::sgf::{self, tree};
use cubeful_engine::game::record::MatchRecord;

/// Hand-written games with what the corpus lacks: set-ups, cube set-ups, beavers, resignations,
/// comments, rollouts, old analysis forms, variations, money play and variants.
const EXTRA: &[&str] = &[
    "(;FF[4]GM[6]CA[UTF-8]AP[x]MI[length:0][game:0][ws:0][bs:0]PW[a]PB[b]RU[Jacoby]RE[W+8]C[game]
;W[31hefe]C[first \\] move]
;B[double]
;W[double]DA[E ver 3 2C 1 0.000000 1 0.7 0.2 0.01 0.05 0.001 0.5 0.6 0.7 0.2 0.01 0.05 0.001 1 1.2]BM[2]
;B[double]
;W[take]
;B[52lqln]LU[-inf]GB[1]
;W[double]
;B[drop])
",
    "(;FF[4]GM[6]CA[UTF-8]MI[length:5][game:0][ws:2][bs:1]PW[white]PB[black]RU[Crawford]RE[B+4R]GS[M:1 2][D:3]
;PL[W]AE[a:y]AW[a][a][f][f][f][y]AB[x][x][t][t][t][t]C[set up]
;CV[4]
;CP[b]
;PL[W]DI[53]
;W[53yvfa]
;AE[c:e]AB[c]
;CV[2]CP[w]
;PL[B]DI[21]LU[0.1]GW[2])
",
    "(;FF[4]GM[6]MI[length:7][game:0][ws:0][bs:0]
;W[31hefe]DA[X ver 3 Eq Trials 1296 NoDouble Output 0.7 0.2 0.01 0.05 0.001 0.5123456789 0.6 StdDev 0.001 0.001 0.001 0.001 0.001 0.001 0.001 DoubleTake Output 0.7 0.2 0.01 0.05 0.001 1 1.2 StdDev 0.002 0.002 0.002 0.002 0.002 0.002 0.002 SK 0 RC 1 1 0 1 0 0 0 0 0 0 \"Mersenne Twister\" 1234  cube0 ver 3 0C 0 0.000000 0]CR[]A[0][hefe X ver 3 Score 0.123456789 0.2 Trials 1296 Output 0.55 0.15 0.01 0.12 0.005 0.25 0.3 StdDev 0.003 0.003 0.003 0.003 0.003 0.003 0.003 SK 0 RC 1][xuut E ver 3 0.5 0.14 0.006 0.13 0.005 -0.004723 2C 0 1 0.000000 1][mjml ]MR[1 3 ]LU[0.01234]BM[1]DC[]
;B[41lpab]DA[E 0 0 0 0 1C 0 1 0.5 0.5 0.1 0.0 0.1 0.0 0.0 0.5 0.5 0.1 0.0 0.1 0.0 0.0 0.4]A[0][lpab E 0.5 0.1 0.0 0.1 0.0 0.02 1C 0 0 0.0]
(;W[64xrxt]WL[100])
(;W[11fefeeded]))
(;FF[4]GM[6]MI[length:7][game:1][ws:1][bs:0]RU[Nackgammon:NoCube]CV[2]
;W[31wtws])
",
];

/// Pieces to insert.
const TOKENS: &[&str] = &[
    "(",
    ")",
    ";",
    "[",
    "]",
    "\\",
    ":",
    "\n",
    "(;",
    ")(",
    "[]",
    "B[double]",
    "W[take]",
    ";W[drop]",
    ";B[double]",
    ";PL[B]DI[66]",
    ";PL[W]",
    "DI[00]",
    ";AE[a:y]",
    "AW[a:x]",
    "AB[y]",
    "AE[x]",
    ";CV[64]",
    "CV[3]",
    ";CP[b]",
    "CP[q]",
    "RE[B+3R]",
    "RE[W+0]",
    "RE[W+99999999999R]",
    "LU[-inf]",
    "LU[nan]",
    "LU[x]",
    "GB[2]",
    "GW[]",
    "BM[]",
    "DO[]",
    "BC[2]",
    "MI[length:65]",
    "MI[length:3][ws:9][bs:-1]",
    "A[9]",
    "A[0][ ]",
    "A[0][yz X]",
    "MR[0 1 2]",
    "CR[]",
    "DA[X ver 3 Eq]",
    "DA[E ver 9]",
    "DA[R]",
    "RU[Hypergammon2:Jacoby]",
    "GM[1]",
    "GM[6]",
    "FF[4]",
    "C[\u{0}\t\r]",
    "PW[é]",
    "GaMe[6]",
    "XY[1]",
    "W[66yaybycyd]",
    "B[12]",
    "W[31zz]",
    "W[31hehehehehe]",
    " E ver 3 ",
    " X ver 3 Score ",
    "ver ",
    "1e308",
    "-0",
    "inf",
    "\u{FEFF}",
    "é",
    "\u{0}",
];

#[path = "fuzz/mutate.rs"]
mod mutate;

use mutate::Rng;

/// Seeds: each corpus game cut into windows of a few nodes (with its root), and the extra games.
fn seeds(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = EXTRA.iter().map(|s| s.as_bytes().to_vec()).collect();
    for dir in ["corpus/sgf", "corpus/paired"] {
        let dir = cubeful_testkit::shared_dir().join(dir);
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sgf"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let collection = tree::parse(&text).unwrap();
            for game in &collection.trees {
                let nodes = &game.nodes;
                for _ in 0..12 {
                    let start = 1 + rng.below(nodes.len() - 1);
                    let len = rng.below(5).min(nodes.len() - start);
                    let mut window = vec![nodes[0].clone()];
                    window.extend_from_slice(&nodes[start..start + len]);
                    let piece = tree::Collection::new(vec![tree::GameTree::new(window)]);
                    seeds.push(tree::write(&piece).into_bytes());
                }
            }
        }
    }
    seeds
}

/// Byte offsets of the node starts (`;`) of a text.
fn node_starts(bytes: &[u8]) -> Vec<usize> {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b';')
        .map(|(i, _)| i)
        .collect()
}

/// The node starting at `start`: up to the next `;`, `(` or `)` outside a value, roughly.
fn node_at(bytes: &[u8], start: usize) -> std::ops::Range<usize> {
    let end = bytes[start + 1..]
        .iter()
        .position(|&b| b == b';' || b == b')')
        .map_or(bytes.len(), |p| start + 1 + p);
    start..end
}

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len();
        let at = rng.below(len + 1);
        match rng.below(10) {
            0 if at < len => bytes[at] ^= 1 << rng.below(8),
            1 if at < len => {
                const ALPHABET: &[u8] = b"()[];:\\ \nabxyz0123456789-+.eEBWAR";
                bytes[at] = ALPHABET[rng.below(ALPHABET.len())];
            }
            2 => {
                let end = (at + 1 + rng.below(24)).min(len);
                bytes.drain(at.min(end)..end);
            }
            3 => {
                let end = (at + rng.below(60)).min(len);
                let copy = bytes[at.min(end)..end].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, copy);
            }
            4 | 5 => {
                // Duplicate, move or swap whole nodes.
                let starts = node_starts(bytes);
                if starts.len() < 2 {
                    continue;
                }
                let a = node_at(bytes, starts[rng.below(starts.len())]);
                let b = node_at(bytes, starts[rng.below(starts.len())]);
                let node = bytes[a.clone()].to_vec();
                match rng.below(3) {
                    0 => {
                        bytes.splice(b.start..b.start, node);
                    }
                    1 if a.end <= b.start => {
                        let other = bytes[b.clone()].to_vec();
                        bytes.splice(b.clone(), node);
                        bytes.splice(a, other);
                    }
                    _ => {
                        bytes.drain(a);
                    }
                }
            }
            6 | 7 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                bytes.splice(at..at, token.iter().copied());
            }
            8 if rng.below(4) == 0 => bytes.truncate(at),
            _ => {
                // A digit for another: dice, scores, indices, numbers.
                let digits: Vec<usize> = (0..len).filter(|&i| bytes[i].is_ascii_digit()).collect();
                if !digits.is_empty() {
                    let i = digits[rng.below(digits.len())];
                    bytes[i] = b'0' + rng.below(10) as u8;
                }
            }
        }
    }
}

/// Writing what was read and reading it back gives the same record, and writing that gives the
/// same text. Records are compared through `Debug`, so that a NaN read from the input compares
/// equal to itself.
fn check_round_trip(record: &mut MatchRecord, input: &str) {
    let written = sgf::write(record);
    let (mut again, _) = sgf::read(&written).unwrap_or_else(|e| {
        panic!("what was written does not read: {e}\ninput: {input:?}\nwritten: {written:?}")
    });
    let rewritten = sgf::write(&again);
    assert_eq!(rewritten, written, "input: {input:?}");
    record.info.application = None;
    again.info.application = None;
    if again == *record {
        return;
    }
    // Not equal: a NaN read from the input, or a real difference.
    let (a, b) = (format!("{record:?}"), format!("{again:?}"));
    if a != b {
        let at = a
            .char_indices()
            .zip(b.chars())
            .find(|((_, x), y)| x != y)
            .map_or(a.len().min(b.len()), |((i, _), _)| i);
        let from = a.floor_char_boundary(at.saturating_sub(150));
        let to_a = a.ceil_char_boundary((at + 150).min(a.len()));
        let to_b = b.ceil_char_boundary((at + 150).min(b.len()));
        panic!(
            "read(write(r)) != r\n  read:  ...{}...\n  again: ...{}...\ninput: {input:?}\nwritten: {written:?}",
            &a[from..to_a],
            &b[from.min(b.len())..to_b]
        );
    }
}

/// Runs `cases` mutated inputs from `seed` (or from the seed in `CUBEFUL_FUZZ_SEED`, to explore
/// further or to reproduce a failure).
fn fuzz(cases: usize, seed: u64) {
    let seed = std::env::var("CUBEFUL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(seed);
    let started = Instant::now();
    let mut rng = Rng(seed);
    let seeds = seeds(&mut rng);
    let (mut read, mut failed, mut warned, mut bytes_read) = (0usize, 0usize, 0usize, 0usize);
    for case in 0..cases {
        let mut bytes = seeds[rng.below(seeds.len())].clone();
        mutate(&mut rng, &mut bytes);
        bytes_read += bytes.len();
        // Most cases as text; some as bytes, through the charset decoding.
        let text = if case % 8 == 0 {
            tree::decode(&bytes)
        } else {
            String::from_utf8_lossy(&bytes).into_owned()
        };
        match sgf::read(&text) {
            Ok((mut record, warnings)) => {
                read += 1;
                warned += usize::from(!warnings.is_empty());
                for w in &warnings {
                    assert!(!w.to_string().is_empty());
                }
                check_round_trip(&mut record, &text);
            }
            Err(error) => {
                failed += 1;
                assert!(!error.to_string().is_empty());
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "seed {seed}: {cases} mutated SGF inputs ({} MB) in {seconds:.1} s: {read} read ({warned} with warnings), \
         {failed} refused with an error; every one read was written and read back identically",
        bytes_read / 1_000_000
    );
    assert_eq!(read + failed, cases);
    // The mutations must keep a good share of the inputs readable and break the others.
    assert!(
        read > cases / 5 && failed > cases / 5,
        "{read} read, {failed} failed"
    );
    assert!(warned > cases / 50, "{warned} with warnings");
}

#[test]
fn a_hundred_thousand_mutated_inputs() {
    fuzz(100_000, 0x5EED_0001);
}

#[test]
#[ignore = "a million cases: run with cargo test --release -- --ignored"]
fn a_million_mutated_inputs() {
    fuzz(1_000_000, 0x5EED_0002);
}
