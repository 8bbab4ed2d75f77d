//! Mutated match files through the `.mat` importer and writer: pieces of the corpus files with
//! bytes flipped, lines deleted, duplicated or swapped, text truncated and digits replaced must
//! never make the import or the export panic or hang, and whatever imports must export to a
//! file that imports again (checked for every fourth case). `cargo test` runs 100,000 cases;
//! the ignored test runs 1,000,000
//! (`cargo test --release -p cubeful-engine --test mat_fuzz -- --ignored`).

use std::time::Instant;

use cubeful_engine::formats::mat::{export, import};

/// The corpus files' bytes.
fn corpus() -> Vec<Vec<u8>> {
    let root = cubeful_testkit::shared_path("corpus/mat");
    let mut files = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name != "SOURCES.tsv" && name != "README.md"
            })
            .collect();
        paths.sort();
        for path in paths {
            files.push(std::fs::read(path).unwrap());
        }
    }
    files
}

#[path = "fuzz/mutate.rs"]
mod mutate;

use mutate::Rng;

/// A piece of a corpus file: its header and up to 36 lines from somewhere after it (often from a
/// `Game` line), so that each case stays small.
fn piece(file: &[u8], rng: &mut Rng) -> Vec<u8> {
    let lines: Vec<&[u8]> = file.split_inclusive(|&b| b == b'\n').collect();
    let header_end = lines
        .iter()
        .position(|l| {
            let t = String::from_utf8_lossy(l).to_ascii_lowercase();
            t.contains("point match")
        })
        .map_or(0, |i| i + 1);
    let body = &lines[header_end..];
    let mut start = rng.below(body.len());
    if rng.below(3) > 0 {
        // Start at a game.
        if let Some(k) = body[..=start.min(body.len().saturating_sub(1))]
            .iter()
            .rposition(|l| l.windows(5).any(|w| w == b"Game "))
        {
            start = k;
        }
    }
    let end = (start + 1 + rng.below(36)).min(body.len());
    let mut out = Vec::new();
    for l in &lines[..header_end] {
        out.extend_from_slice(l);
    }
    for l in body.get(start..end).unwrap_or(&[]) {
        out.extend_from_slice(l);
    }
    out
}

/// Applies one to four random mutations.
fn mutate(mut bytes: Vec<u8>, rng: &mut Rng) -> Vec<u8> {
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        match rng.below(8) {
            // Flip bits of a byte.
            0 => {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
            // A random byte.
            1 => {
                let i = rng.below(bytes.len());
                bytes[i] = rng.below(256) as u8;
            }
            // A digit replaced by another.
            2 | 3 => {
                let digits: Vec<usize> = (0..bytes.len())
                    .filter(|&i| bytes[i].is_ascii_digit())
                    .collect();
                if !digits.is_empty() {
                    let i = digits[rng.below(digits.len())];
                    bytes[i] = b'0' + rng.below(10) as u8;
                }
            }
            // Truncation.
            4 => {
                let at = rng.below(bytes.len() + 1);
                bytes.truncate(at);
            }
            // Line deleted, duplicated or swapped with the next.
            _ => {
                let mut lines: Vec<Vec<u8>> = bytes
                    .split_inclusive(|&b| b == b'\n')
                    .map(<[u8]>::to_vec)
                    .collect();
                let i = rng.below(lines.len());
                match rng.below(3) {
                    0 => {
                        lines.remove(i);
                    }
                    1 => {
                        let copy = lines[i].clone();
                        lines.insert(i, copy);
                    }
                    _ if i + 1 < lines.len() => lines.swap(i, i + 1),
                    _ => {}
                }
                bytes = lines.concat();
            }
        }
    }
    bytes
}

/// Runs `cases` mutated inputs; returns how many imported.
fn run(cases: usize, seed: u64) -> usize {
    let files = corpus();
    assert_eq!(files.len(), 1900);
    let mut rng = Rng(seed);
    let mut imported = 0;
    let started = Instant::now();
    for case in 0..cases {
        let file = &files[rng.below(files.len())];
        let input = mutate(piece(file, &mut rng), &mut rng);
        let at = Instant::now();
        if let Ok((record, _warnings)) = import(&input) {
            imported += 1;
            let text = export(&record);
            // Reading the export back is checked for every fourth case.
            if case % 4 == 0 {
                let (again, _) = import(text.as_bytes()).unwrap_or_else(|e| {
                    panic!(
                        "case {case}: our export does not import: {e}\ninput:\n{}\nexport:\n{text}",
                        String::from_utf8_lossy(&input)
                    )
                });
                assert_eq!(again.games.len(), record.games.len(), "case {case}");
            }
        }
        // A case is a few small games: anything slow is a hang in the making.
        assert!(
            at.elapsed().as_secs() < 5,
            "case {case} took {:?}:\n{}",
            at.elapsed(),
            String::from_utf8_lossy(&input)
        );
    }
    println!(
        "{cases} mutated .mat inputs ({imported} imported and exported) in {:.1?}",
        started.elapsed()
    );
    imported
}

#[test]
fn mutated_match_files_never_panic() {
    let imported = run(100_000, 0x6D61_7466_757A_7A31);
    // Most mutations leave a readable file: the cases exercise the importer, not only the
    // reader's refusals.
    assert!(imported > 50_000, "only {imported} of 100,000 imported");
}

#[test]
#[ignore = "a million cases: run with --release -- --ignored"]
fn a_million_mutated_match_files_never_panic() {
    run(1_000_000, 0x6D61_7466_757A_7A32);
}
