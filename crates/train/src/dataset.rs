//! Training positions with target chances, and their file format.
//!
//! File layout (little-endian): magic `CFDATA1\0`, record count (u64), then per record the 26
//! signed bytes of [`Position::board`] followed by the five target chances as f32 (win, win gammon,
//! win backgammon, lose gammon, lose backgammon, for the player on roll before the roll), and at
//! the end a CRC-32 of everything before it.

use std::path::{Path, PathBuf};

use cubeful_engine::eval::Probabilities;
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
    #[error("cannot access data file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("data file {path}: {reason}")]
    Format { path: PathBuf, reason: String },
}

/// Writes examples atomically (temporary file, then rename).
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
    let io = |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    };
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Reads a data file, checking its size, checksum and every position.
pub fn load(path: &Path) -> Result<Vec<Example>, DatasetError> {
    let bytes = std::fs::read(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruption() {
        let dir = std::env::temp_dir().join(format!("cubeful-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
