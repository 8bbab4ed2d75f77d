//! Training positions with target chances, and their file format.
//!
//! File layout (little-endian): magic `CFDATA1\0`, record count (u64), then per record the 26
//! signed bytes of [`Position::board`] followed by the five target chances as f32 (win, win gammon,
//! win backgammon, lose gammon, lose backgammon, for the player on roll before the roll), and at
//! the end a CRC-32 of everything before it.
//!
//! A data set may also be a folder of such files ([`load_dir`]): every `*.bin` file directly in
//! it, in name order, as `cubeful-cli train label` writes its chunks.

use std::path::{Path, PathBuf};

use cubeful_engine::eval::Probabilities;
use cubeful_engine::files::{read_regular, write_atomically, FileError};
use cubeful_engine::Position;
use thiserror::Error;

const MAGIC: &[u8; 8] = b"CFDATA1\0";
const RECORD: usize = 26 + 5 * 4;

/// One training example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Example {
    pub position: Position,
    pub target: Probabilities,
}

/// A data file that could not be used.
#[derive(Debug, Error)]
pub enum DatasetError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    File(#[from] FileError),
    #[error("data file {path}: {reason}")]
    Format { path: PathBuf, reason: String },
    #[error("data folder {path} holds no data files (*.bin)")]
    EmptyFolder { path: PathBuf },
}

/// Largest data file read (about 23 million examples).
const MAX_FILE_BYTES: u64 = 1 << 30;

/// Writes examples atomically (see [`write_atomically`]).
pub fn save(path: &Path, examples: &[Example]) -> Result<(), DatasetError> {
    let mut bytes = Vec::with_capacity(16 + examples.len() * RECORD + 4);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(examples.len() as u64).to_le_bytes());
    for e in examples {
        bytes.extend(e.position.board().iter().map(|&b| b as u8));
        for v in e.target.to_array() {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    Ok(write_atomically(path, &bytes)?)
}

/// The data files of folder `dir`: the regular files directly in it whose names end in `.bin`
/// and do not start with a dot (temporary files of a write in progress), in name order.
pub fn files_in(dir: &Path) -> Result<Vec<PathBuf>, DatasetError> {
    let io = |source| DatasetError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || !name.ends_with(".bin") {
            continue;
        }
        if entry.file_type().map_err(io)?.is_file() {
            files.push(entry.path());
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(DatasetError::EmptyFolder {
            path: dir.to_path_buf(),
        });
    }
    Ok(files)
}

/// Loads every data file of folder `dir` ([`files_in`]), in name order, and returns the
/// examples with the number of files read.
pub fn load_dir(dir: &Path) -> Result<(Vec<Example>, usize), DatasetError> {
    let files = files_in(dir)?;
    let mut out = Vec::new();
    for path in &files {
        out.extend(load(path)?);
    }
    Ok((out, files.len()))
}

/// Reads a data file, checking its size, checksum and every position.
pub fn load(path: &Path) -> Result<Vec<Example>, DatasetError> {
    let bytes = read_regular(path, MAX_FILE_BYTES)?;
    let bad = |reason: String| DatasetError::Format {
        path: path.to_path_buf(),
        reason,
    };
    if bytes.len() < 20 || &bytes[..8] != MAGIC {
        return Err(bad("not a Cubeful training data file".into()));
    }
    let count = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")) as usize;
    let expected = count
        .checked_mul(RECORD)
        .and_then(|n| n.checked_add(20))
        .ok_or_else(|| bad(format!("impossible record count {count}")))?;
    if bytes.len() != expected {
        return Err(bad(format!(
            "{} bytes, but {count} records need {expected} (truncated?)",
            bytes.len()
        )));
    }
    let crc = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[..expected - 4]) != crc {
        return Err(bad("checksum mismatch (corrupt file)".into()));
    }
    let mut out = Vec::with_capacity(count);
    for (i, rec) in bytes[16..expected - 4].chunks_exact(RECORD).enumerate() {
        let mut board = [0i8; 26];
        for (b, &x) in board.iter_mut().zip(&rec[..26]) {
            *b = x as i8;
        }
        let position = Position::from_board(board)
            .map_err(|e| bad(format!("record {i}: impossible position: {e}")))?;
        let f = |k: usize| f32::from_le_bytes(rec[26 + 4 * k..30 + 4 * k].try_into().expect("4"));
        out.push(Example {
            position,
            target: Probabilities::from_array([f(0), f(1), f(2), f(3), f(4)]),
        });
    }
    Ok(out)
}

/// The examples of `new` with each target mixed with the target of the same position in `old`:
/// `weight · old + (1 − weight) · new`, chance by chance. `new` holds positions of `old` in the
/// same order, some perhaps left out (finished games are not labelled); a position of `new`
/// that `old` does not hold at or after the previous match keeps its new target only.
///
/// Why: our nets judge the player on roll a little low, so even-ply targets are low and odd-ply
/// targets high by about as much (docs/TRAINING.md, round adam18); half of each cancels it.
pub fn blend(old: &[Example], new: &[Example], weight: f32) -> Vec<Example> {
    let mut rest = old.iter();
    new.iter()
        .map(|example| {
            let Some(source) = rest.by_ref().find(|o| o.position == example.position) else {
                return *example;
            };
            let (a, b) = (source.target.to_array(), example.target.to_array());
            let mut mixed = [0.0; 5];
            for (m, (x, y)) in mixed.iter_mut().zip(a.iter().zip(b)) {
                *m = weight * x + (1.0 - weight) * y;
            }
            Example {
                position: example.position,
                target: Probabilities::from_array(mixed),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_testkit::ScratchDir;

    #[test]
    fn round_trip_and_corruption() {
        let dir = ScratchDir::new("data");
        let path = dir.join("d.bin");
        let ex = vec![
            Example {
                position: Position::starting(),
                target: Probabilities::from_array([0.5, 0.1, 0.01, 0.12, 0.005]),
            };
            3
        ];
        save(&path, &ex).unwrap();
        assert_eq!(load(&path).unwrap(), ex);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[30] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("checksum"));
        std::fs::write(&path, &bytes[..50]).unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("truncated"));
    }

    fn example(win: f32) -> Example {
        Example {
            position: Position::starting(),
            target: Probabilities::from_array([win, 0.1, 0.01, 0.12, 0.005]),
        }
    }

    #[test]
    fn blending_mixes_the_targets_of_the_same_positions() {
        let other = cubeful_engine::position_id::decode("xx0PAiBo70YAGA").unwrap();
        let old = [
            example(0.2),
            Example {
                position: other,
                target: Probabilities::from_array([0.6, 0.2, 0.0, 0.1, 0.0]),
            },
            example(0.4),
        ];
        // The new labels skip the middle position (as for a finished game).
        let new = [example(0.6), example(0.8)];
        let mixed = blend(&old, &new, 0.25);
        assert_eq!(mixed.len(), 2);
        assert!((mixed[0].target.win - (0.25 * 0.2 + 0.75 * 0.6)).abs() < 1e-6);
        assert!((mixed[1].target.win - (0.25 * 0.4 + 0.75 * 0.8)).abs() < 1e-6);
        assert!((mixed[1].target.lose_gammon - 0.12).abs() < 1e-6);
        // A position the old set does not hold keeps its new target.
        let lone = Example {
            position: other,
            target: Probabilities::from_array([0.9, 0.0, 0.0, 0.0, 0.0]),
        };
        assert_eq!(blend(&old[..1], &[lone], 0.5), [lone]);
        assert_eq!(blend(&old, &new, 0.0), new);
    }

    #[test]
    fn a_folder_loads_its_data_files_in_name_order() {
        let dir = ScratchDir::new("data-dir");
        let err = load_dir(&dir).unwrap_err();
        assert!(matches!(err, DatasetError::EmptyFolder { .. }), "{err}");
        // Written out of order; read back by name.
        save(&dir.join("chunk-00002.bin"), &[example(0.3)]).unwrap();
        save(&dir.join("chunk-00000.bin"), &[example(0.1), example(0.15)]).unwrap();
        save(&dir.join("chunk-00001.bin"), &[example(0.2)]).unwrap();
        // Not data files: a temporary file of a write in progress, other names, a sub-folder.
        std::fs::write(dir.join(".chunk-00003.bin.77.1.0.tmp"), b"partial").unwrap();
        std::fs::write(dir.join(".hidden.bin"), b"partial").unwrap();
        std::fs::write(dir.join("notes.txt"), b"x").unwrap();
        std::fs::create_dir_all(dir.join("old.bin")).unwrap();
        let names: Vec<String> = files_in(&dir)
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["chunk-00000.bin", "chunk-00001.bin", "chunk-00002.bin"]
        );
        let (examples, files) = load_dir(&dir).unwrap();
        assert_eq!(files, 3);
        let wins: Vec<f32> = examples.iter().map(|e| e.target.win).collect();
        assert_eq!(wins, [0.1, 0.15, 0.2, 0.3]);
        // A corrupt file fails the whole folder, naming the file.
        std::fs::write(dir.join("chunk-00004.bin"), b"CFDATA1\0garbage-garbage").unwrap();
        let err = load_dir(&dir).unwrap_err().to_string();
        assert!(err.contains("chunk-00004.bin"), "{err}");
    }
}
