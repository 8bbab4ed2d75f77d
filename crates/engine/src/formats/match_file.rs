//! Match files by kind: which format a file is in, reading one into a [`MatchRecord`] and
//! writing a record in a format. The front ends read and write files through this module (and
//! write them with [`crate::files::write_atomically`]); the formats themselves live in
//! [`crate::formats::sgf`], [`crate::formats::mat`] and [`crate::formats::text`].

use std::fmt;
use std::path::Path;

use thiserror::Error;

use crate::formats::{mat, sgf, text};
use crate::game::record::MatchRecord;

/// A match file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchFormat {
    /// GNU Backgammon's SGF (`.sgf`): everything, analysis included.
    Sgf,
    /// Jellyfish match text (`.mat`, also `.gam`): moves, cube actions and results.
    Mat,
    /// Plain text as GNU Backgammon's `export match text` writes it (`.txt`); write only.
    Text,
}

impl MatchFormat {
    /// The format named by a file's extension (case-insensitive), if any.
    pub fn from_path(path: &Path) -> Option<MatchFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "sgf" => Some(MatchFormat::Sgf),
            "mat" | "gam" => Some(MatchFormat::Mat),
            "txt" => Some(MatchFormat::Text),
            _ => None,
        }
    }

    /// The format of a file's contents when reading: SGF if it starts (after blanks) with `(;`,
    /// otherwise Jellyfish match text (many `.txt` files are `.mat` files).
    pub fn sniff(bytes: &[u8]) -> MatchFormat {
        let start = bytes
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(bytes)
            .iter()
            .copied()
            .skip_while(u8::is_ascii_whitespace);
        let head: Vec<u8> = start.filter(|b| !b.is_ascii_whitespace()).take(2).collect();
        if head == b"(;" {
            MatchFormat::Sgf
        } else {
            MatchFormat::Mat
        }
    }

    /// The usual extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            MatchFormat::Sgf => "sgf",
            MatchFormat::Mat => "mat",
            MatchFormat::Text => "txt",
        }
    }

    /// Whether the format holds analysis.
    pub fn keeps_analysis(self) -> bool {
        matches!(self, MatchFormat::Sgf | MatchFormat::Text)
    }
}

impl fmt::Display for MatchFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MatchFormat::Sgf => "SGF",
            MatchFormat::Mat => "Jellyfish .mat",
            MatchFormat::Text => "plain text",
        })
    }
}

/// Why a match file could not be read or written.
#[derive(Debug, Error)]
pub enum MatchFileError {
    #[error(transparent)]
    Sgf(#[from] sgf::SgfReadError),
    #[error(transparent)]
    Mat(#[from] mat::MatError),
    #[error(transparent)]
    Text(#[from] text::TextError),
}

/// A record read from a file, with what the reader had to skip or repair, one sentence each.
#[derive(Clone, Debug)]
pub struct LoadedMatch {
    pub record: MatchRecord,
    pub format: MatchFormat,
    pub warnings: Vec<String>,
}

/// Reads a match file's contents: SGF or Jellyfish text, told apart by the contents.
pub fn read(bytes: &[u8]) -> Result<LoadedMatch, MatchFileError> {
    let format = MatchFormat::sniff(bytes);
    let (record, warnings) = match format {
        MatchFormat::Sgf => {
            let (record, warnings) = sgf::read_bytes(bytes)?;
            (record, warnings.iter().map(ToString::to_string).collect())
        }
        _ => {
            let (record, warnings) = mat::import(bytes)?;
            (record, warnings.iter().map(ToString::to_string).collect())
        }
    };
    Ok(LoadedMatch {
        record,
        format,
        warnings,
    })
}

/// Writes a record in `format`.
pub fn write(record: &MatchRecord, format: MatchFormat) -> Result<String, MatchFileError> {
    Ok(match format {
        MatchFormat::Sgf => sgf::write(record),
        MatchFormat::Mat => mat::export(record),
        MatchFormat::Text => text::export_match(record)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name_and_by_contents() {
        assert_eq!(
            MatchFormat::from_path(Path::new("a/b.SGF")),
            Some(MatchFormat::Sgf)
        );
        assert_eq!(
            MatchFormat::from_path(Path::new("x.mat")),
            Some(MatchFormat::Mat)
        );
        assert_eq!(
            MatchFormat::from_path(Path::new("x.txt")),
            Some(MatchFormat::Text)
        );
        assert_eq!(MatchFormat::from_path(Path::new("x.xg")), None);
        assert_eq!(MatchFormat::from_path(Path::new("noext")), None);
        assert_eq!(MatchFormat::sniff(b"\n  ( ;FF[4]GM[6]"), MatchFormat::Sgf);
        assert_eq!(MatchFormat::sniff(b"\xEF\xBB\xBF(;FF[4]"), MatchFormat::Sgf);
        assert_eq!(MatchFormat::sniff(b" 5 point match\n"), MatchFormat::Mat);
        assert_eq!(MatchFormat::sniff(b""), MatchFormat::Mat);
    }

    #[test]
    fn a_mat_file_converts_to_sgf_and_back() {
        let mat_text = " 3 point match\n\n Game 1\n Alice : 0                          Bob : 0\n  1)                             41: 13/9 24/23\n  2) 31: 8/5 6/5                 Doubles => 2\n  3)  Drops\n      Wins 1 point\n";
        let loaded = read(mat_text.as_bytes()).unwrap();
        assert_eq!(loaded.format, MatchFormat::Mat);
        assert_eq!(
            loaded.record.info.players,
            ["Alice".to_string(), "Bob".to_string()]
        );
        let sgf_text = write(&loaded.record, MatchFormat::Sgf).unwrap();
        let again = read(sgf_text.as_bytes()).unwrap();
        assert_eq!(again.format, MatchFormat::Sgf);
        assert_eq!(again.record.games.len(), 1);
        assert_eq!(
            again.record.games[0].entries.len(),
            loaded.record.games[0].entries.len()
        );
        assert_eq!(again.record.games[0].result, loaded.record.games[0].result);
        assert!(again.record.replay().is_ok());
        let mat_again = write(&again.record, MatchFormat::Mat).unwrap();
        assert!(mat_again.contains("31: 8/5 6/5"), "{mat_again}");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(read(b"(;FF[4]GM[6]B[zz").is_err());
        assert!(read(b"hello").is_err());
    }
}
