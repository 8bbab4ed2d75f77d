//! The file format of bearoff databases, and atomic writes.
//!
//! # File format (version 1)
//!
//! All numbers little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CUBEFULB` |
//! | 8 | 4 | format version (u32), currently 1 |
//! | 12 | 1 | kind: 1 one-sided, 2 two-sided |
//! | 13 | 1 | points a side |
//! | 14 | 1 | most checkers a side |
//! | 15 | 1 | reserved, 0 |
//! | 16 | 8 | payload length in bytes (u64) |
//! | 24 | payload | one-sided: per position and goal (all off, first off), the first roll count (u8), the number of probabilities `m` (u8) and `m` f32; two-sided: per pair (player on roll's index major), win, centred, owned, opponent-owned as f32 |
//! | end − 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! A file is read whole and checked (magic, version, length, checksum, parameters, payload shape)
//! before anything in it is used.

use std::fmt;
use std::path::Path;

use crate::files::{read_regular, write_atomically};

use super::index::Layout;
use super::two_sided::{MAX_TWO_SIDED_CHECKERS, TWO_SIDED_POINTS};
use super::{BearoffError, FormatError};

/// The first eight bytes of every bearoff database file.
pub const MAGIC: &[u8; 8] = b"CUBEFULB";
/// The format version this program writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 24;

/// The two kinds of database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DbKind {
    OneSided,
    TwoSided,
}

impl DbKind {
    fn code(self) -> u8 {
        match self {
            DbKind::OneSided => 1,
            DbKind::TwoSided => 2,
        }
    }

    fn from_code(code: u8) -> Option<DbKind> {
        match code {
            1 => Some(DbKind::OneSided),
            2 => Some(DbKind::TwoSided),
            _ => None,
        }
    }
}

impl fmt::Display for DbKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DbKind::OneSided => "one-sided",
            DbKind::TwoSided => "two-sided",
        })
    }
}

/// What a database file's header says, once the file has passed its checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileInfo {
    pub kind: DbKind,
    pub layout: Layout,
    /// Length of the whole file.
    pub bytes: u64,
    /// The stored (and verified) CRC-32.
    pub crc: u32,
}

/// A whole file: header, payload, checksum.
pub(super) fn encode(kind: DbKind, layout: Layout, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len() + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[kind.code(), layout.points(), layout.checkers(), 0]);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Checks a whole file and returns its header and payload.
pub(super) fn decode(bytes: &[u8]) -> Result<(FileInfo, &[u8]), FormatError> {
    if bytes.len() < HEADER_LEN + 4 {
        return Err(FormatError::TooShort(bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return Err(FormatError::Magic);
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(FormatError::Version(version));
    }
    let payload_len = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let expected = payload_len.saturating_add((HEADER_LEN + 4) as u64);
    if expected != bytes.len() as u64 {
        return Err(FormatError::Length {
            expected,
            found: bytes.len() as u64,
        });
    }
    let body = &bytes[..bytes.len() - 4];
    let stored = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
    let computed = crc32fast::hash(body);
    if stored != computed {
        return Err(FormatError::Checksum { stored, computed });
    }
    let (kind, points, checkers) = (bytes[12], bytes[13], bytes[14]);
    let kind = DbKind::from_code(kind).ok_or(FormatError::Kind(kind))?;
    let bad = FormatError::Parameters { points, checkers };
    let layout = Layout::new(points, checkers).map_err(|_| bad.clone())?;
    if kind == DbKind::TwoSided && (points != TWO_SIDED_POINTS || checkers > MAX_TWO_SIDED_CHECKERS)
    {
        return Err(bad);
    }
    let info = FileInfo {
        kind,
        layout,
        bytes: bytes.len() as u64,
        crc: stored,
    };
    Ok((info, &body[HEADER_LEN..]))
}

/// Binomial coefficient, for [`MAX_FILE_BYTES`].
const fn binomial(n: u64, k: u64) -> u64 {
    let mut result = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

/// The largest file any database this program can read may have; a longer file is refused
/// before it is read. The largest one-sided database (10 points, 15 checkers: C(25, 15) =
/// 3,268,760 positions) has two entries a position of at most 2 + 4 × [`MAX_ROLLS`] bytes each,
/// about 3.4 GB; the largest two-sided one (6 points, 10 checkers: 8,008 positions) has 16 bytes
/// per pair, about 1 GB. The default databases are 3.3 MB and 13.7 MB.
///
/// [`MAX_ROLLS`]: super::MAX_ROLLS
pub const MAX_FILE_BYTES: u64 = {
    let one_sided =
        2 * binomial(
            (super::MAX_POINTS + super::MAX_CHECKERS) as u64,
            super::MAX_CHECKERS as u64,
        ) * (2 + 4 * super::MAX_ROLLS as u64);
    let positions = binomial(
        (TWO_SIDED_POINTS + MAX_TWO_SIDED_CHECKERS) as u64,
        MAX_TWO_SIDED_CHECKERS as u64,
    );
    let two_sided = 16 * positions * positions;
    let payload = if one_sided > two_sided {
        one_sided
    } else {
        two_sided
    };
    HEADER_LEN as u64 + payload + 4
};

/// Reads a whole file: a regular file of at most [`MAX_FILE_BYTES`] (a FIFO or a device is
/// refused, not read).
pub(super) fn read(path: &Path) -> Result<Vec<u8>, BearoffError> {
    read_regular(path, MAX_FILE_BYTES).map_err(|e| BearoffError::Read {
        path: path.to_path_buf(),
        source: e.into_reason(),
    })
}

/// Writes `bytes` to `path` with [`write_atomically`]: into a temporary file created exclusively in
/// the same folder, synced to disk, then renamed over `path`. Readers see the old file or the new
/// one, never a part. The folder must exist, and an existing `path` must be a regular file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), BearoffError> {
    write_atomically(path, bytes).map_err(|e| BearoffError::Write {
        path: path.to_path_buf(),
        source: e.into_reason(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_testkit::ScratchDir;

    #[test]
    fn header_round_trip_and_rejections() {
        let layout = Layout::new(6, 3).unwrap();
        let file = encode(DbKind::TwoSided, layout, &[1, 2, 3, 4]);
        let (info, payload) = decode(&file).unwrap();
        assert_eq!(
            (info.kind, info.layout, payload),
            (DbKind::TwoSided, layout, &[1, 2, 3, 4][..])
        );
        assert_eq!(info.bytes, file.len() as u64);

        assert_eq!(decode(&file[..10]), Err(FormatError::TooShort(10)));
        assert!(matches!(
            decode(&file[..file.len() - 1]),
            Err(FormatError::Length { .. })
        ));
        let mut bad = file.clone();
        bad[0] = b'X';
        assert_eq!(decode(&bad), Err(FormatError::Magic));
        let mut bad = file.clone();
        bad[HEADER_LEN + 1] ^= 0x10;
        assert!(matches!(decode(&bad), Err(FormatError::Checksum { .. })));
        let mut bad = file.clone();
        bad[8] = 9;
        assert_eq!(decode(&bad), Err(FormatError::Version(9)));
        // Parameters are checked after the checksum: re-encode with a bad layout.
        let file = encode(DbKind::TwoSided, Layout::new(7, 3).unwrap(), &[]);
        assert!(matches!(decode(&file), Err(FormatError::Parameters { .. })));
    }

    #[test]
    fn atomic_write_replaces() {
        let scratch = ScratchDir::new("bo-storage");
        // A folder that does not exist yet, inside the scratch folder.
        let dir = scratch.join("missing");
        let path = dir.join("sub").join("x.cbd");
        // The folder is not created.
        assert!(matches!(
            write_atomic(&path, b"one"),
            Err(BearoffError::Write { .. })
        ));
        assert!(!dir.exists());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let leftovers = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1);
    }
}
