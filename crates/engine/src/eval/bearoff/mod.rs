//! Bearoff databases: exact knowledge of the end of the race, as GNU Backgammon has them
//! (docs/ENGINE.md §Bearoff databases).
//!
//! * [`OneSided`]: for every position of up to 15 checkers on a side's six home points (54,264
//!   positions), the exact distribution of the number of rolls needed to bear off all checkers,
//!   playing to minimise its expectation, and of the number of rolls needed to bear off the first
//!   checker (gammons). Two sides inside it are evaluated as independent races
//!   ([`OneSided::race`]), gammons included, backgammons impossible.
//! * [`TwoSided`]: for every pair of positions of up to N checkers a side on the home points
//!   (default N = 6: 924 × 924 = 853,776 pairs), the exact cubeless winning chance of the player on
//!   roll and the exact cubeful money equities with the cube centred, owned, and owned by the
//!   opponent, with optimal doubling, taking and passing. Its module documents the recursion.
//! * [`BearoffDb`] holds both and is the evaluator's [`BearoffOracle`]: the two-sided database
//!   answers when both sides fit in it, else the one-sided one for pure bearoffs, else nobody (the
//!   evaluator falls back to its nets).
//!
//! Positions are indexed by a combinatorial number ([`index`]): a look-up is a handful of table
//! reads, with no allocation.
//!
//! # Gammons and backgammons
//!
//! In a pure bearoff every checker of each side is in its own home board, so a loser never has a
//! checker in the winner's home board or on the bar: **no backgammons**. A side with all 15
//! checkers still on the board can lose a **gammon**; the one-sided race evaluation computes it
//! from the first-checker-off distribution. The two-sided databases hold at most 10 checkers a side,
//! so both sides have borne off at least five: no gammons there, every game is worth exactly one
//! cube unit, and cubeful equities lie in [−1, +1] per unit. The Jacoby rule only changes how
//! gammons count, so it would not change these equities; they are money equities without beavers.
//!
//! # Storage
//!
//! The default databases are **generated on first use**, deterministically, into a folder the
//! caller chooses ([`BearoffDb::open_or_generate`]; the command-line program uses the user cache
//! folder, `ProjectDirs::from("org", "Cubeful", "cubeful")`, subfolder `bearoff`). They are not
//! shipped in `data/`: the one-sided file is 3.3 MB and the two-sided one 13.7 MB, while
//! generating both takes about two seconds on one core, so the repository would carry 17 MB of
//! derived data to save two seconds once per machine. Loading a saved file (CRC included) takes
//! about 30 ms. Each file carries a CRC-32 ([`storage`] has the format) and is checked whole
//! before use; a missing, truncated, corrupt or mismatched file is reported through the [`Event`]
//! callback and regenerated, never trusted. Files are written atomically (temporary file, then
//! rename: [`crate::files::write_atomically`]), so concurrent programs never read half a file,
//! and read only from regular files of a bounded size ([`storage::MAX_FILE_BYTES`]). If the
//! folder cannot be written, the databases are used from memory and the failure is reported.
//! [`verify_file`] checks a file further: every entry's shape, and entries solved again from the
//! file's own values.
//!
//! # Use
//!
//! ```no_run
//! use std::path::Path;
//! use std::sync::Arc;
//! use cubeful_engine::eval::bearoff::BearoffDb;
//! use cubeful_engine::eval::{Evaluator, Nets};
//!
//! let db = BearoffDb::open_or_generate(Path::new("/tmp/cubeful-bearoff"), &mut |event| {
//!     eprintln!("{event:?}");
//! });
//! let mut evaluator = Evaluator::new(Arc::new(Nets::embedded()));
//! evaluator.set_bearoff(Some(Arc::new(db)));
//! ```
//!
//! The one-sided distributions also give what sharper race rules need (docs/ENGINE.md §Sanity
//! rules): the largest number of rolls a side can need ([`Distribution::max_rolls`], a tight bound
//! on a side's turns to finish) and the chance to be off within `k` rolls
//! ([`Distribution::cumulative`], the winner's side of a race backgammon estimate). The evaluator
//! does not use them yet: its sanity rules bound the turns by the crossings left.

pub mod index;
mod moves;
pub mod one_sided;
pub mod storage;
pub mod two_sided;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::eval::{BearoffOracle, Probabilities};
use crate::rules::position::{Position, Side};

pub use index::{Counts, Layout, MAX_CHECKERS, MAX_POINTS};
pub use one_sided::{Distribution, Goal, OneSided, MAX_ROLLS};
pub use storage::{DbKind, FileInfo, FORMAT_VERSION};
pub use two_sided::{
    CubeAction, CubeDecision, CubeState, TwoSided, TwoSidedValues, DEFAULT_TWO_SIDED_CHECKERS,
    MAX_TWO_SIDED_CHECKERS, TWO_SIDED_POINTS,
};

/// File name of the default one-sided database (6 points, 15 checkers).
pub const ONE_SIDED_FILE: &str = "one-sided-6x15.cbd";
/// File name of the default two-sided database (6 points, 6 checkers a side).
pub const TWO_SIDED_FILE: &str = "two-sided-6x6.cbd";

/// The conventional file name of a one-sided database.
pub fn one_sided_file_name(layout: Layout) -> String {
    format!("one-sided-{}x{}.cbd", layout.points(), layout.checkers())
}

/// The conventional file name of a two-sided database of `checkers` checkers a side.
pub fn two_sided_file_name(checkers: u8) -> String {
    format!("two-sided-{TWO_SIDED_POINTS}x{checkers}.cbd")
}

/// Why a database file cannot be used, apart from input/output errors.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FormatError {
    #[error("the file is {0} bytes long, too short for a bearoff database")]
    TooShort(usize),
    #[error("it is not a Cubeful bearoff database (wrong magic bytes)")]
    Magic,
    #[error("it is of format version {0}; this program reads version {FORMAT_VERSION}")]
    Version(u32),
    #[error("it should be {expected} bytes long for its declared payload but is {found} (truncated or padded)")]
    Length { expected: u64, found: u64 },
    #[error("its checksum does not match its contents (stored {stored:08x}, computed {computed:08x}): the file is corrupt")]
    Checksum { stored: u32, computed: u32 },
    #[error("it declares the unknown database kind {0}")]
    Kind(u8),
    #[error("it declares {points} points and {checkers} checkers, which this program cannot use")]
    Parameters { points: u8, checkers: u8 },
    #[error("its contents are malformed: {0}")]
    Malformed(&'static str),
}

/// Errors of the bearoff databases.
#[derive(Debug, Error)]
pub enum BearoffError {
    #[error("a bearoff database has 1 to {max} points, not {points}")]
    Points { points: u8, max: u8 },
    #[error("a bearoff database holds 1 to {max} checkers a side, not {checkers}")]
    Checkers { checkers: u8, max: u8 },
    #[error("cannot read bearoff database {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write bearoff database {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("bearoff database {path}: {source}")]
    Format { path: PathBuf, source: FormatError },
    #[error("bearoff database {path} is a {found}, but a {expected} database was expected")]
    Mismatch {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("bearoff database {path}: {what} differs from its recomputation (the file is wrong)")]
    Recomputation { path: PathBuf, what: String },
}

fn describe(kind: DbKind, layout: Layout) -> String {
    format!(
        "{kind} database of {} points and {} checkers",
        layout.points(),
        layout.checkers()
    )
}

impl OneSided {
    /// The whole file (see [`storage`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        storage::encode(DbKind::OneSided, self.layout(), &self.payload())
    }

    /// Reads a whole file, checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<OneSided, FormatError> {
        match Database::from_bytes(bytes)? {
            Database::OneSided(db) => Ok(db),
            Database::TwoSided(_) => Err(FormatError::Kind(2)),
        }
    }

    /// Writes the database to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), BearoffError> {
        storage::write_atomic(path, &self.to_bytes())
    }

    /// Loads a one-sided database file.
    pub fn load(path: &Path) -> Result<OneSided, BearoffError> {
        match Database::load(path)? {
            Database::OneSided(db) => Ok(db),
            Database::TwoSided(db) => {
                Err(mismatch(path, DbKind::TwoSided, db.layout(), "one-sided"))
            }
        }
    }
}

impl TwoSided {
    /// The whole file (see [`storage`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        storage::encode(DbKind::TwoSided, self.layout(), &self.payload())
    }

    /// Reads a whole file, checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<TwoSided, FormatError> {
        match Database::from_bytes(bytes)? {
            Database::TwoSided(db) => Ok(db),
            Database::OneSided(_) => Err(FormatError::Kind(1)),
        }
    }

    /// Writes the database to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), BearoffError> {
        storage::write_atomic(path, &self.to_bytes())
    }

    /// Loads a two-sided database file.
    pub fn load(path: &Path) -> Result<TwoSided, BearoffError> {
        match Database::load(path)? {
            Database::TwoSided(db) => Ok(db),
            Database::OneSided(db) => {
                Err(mismatch(path, DbKind::OneSided, db.layout(), "two-sided"))
            }
        }
    }
}

fn mismatch(path: &Path, kind: DbKind, layout: Layout, expected: &str) -> BearoffError {
    BearoffError::Mismatch {
        path: path.to_path_buf(),
        found: describe(kind, layout),
        expected: expected.to_string(),
    }
}

/// A database of either kind, as read from a file.
#[derive(Clone, Debug)]
pub enum Database {
    OneSided(OneSided),
    TwoSided(TwoSided),
}

impl Database {
    /// Reads a whole file of either kind, checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<Database, FormatError> {
        Database::from_bytes_with_info(bytes).map(|(db, _)| db)
    }

    fn from_bytes_with_info(bytes: &[u8]) -> Result<(Database, FileInfo), FormatError> {
        let (info, payload) = storage::decode(bytes)?;
        let db = match info.kind {
            DbKind::OneSided => Database::OneSided(OneSided::from_payload(info.layout, payload)?),
            DbKind::TwoSided => Database::TwoSided(TwoSided::from_payload(info.layout, payload)?),
        };
        Ok((db, info))
    }

    /// Loads a file of either kind.
    pub fn load(path: &Path) -> Result<Database, BearoffError> {
        Database::load_with_info(path).map(|(db, _)| db)
    }

    /// Loads a file of either kind, with what its header says.
    pub fn load_with_info(path: &Path) -> Result<(Database, FileInfo), BearoffError> {
        let bytes = storage::read(path)?;
        Database::from_bytes_with_info(&bytes).map_err(|source| BearoffError::Format {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// What [`verify_file`] checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    pub info: FileInfo,
    /// Entries solved again and found identical.
    pub recomputed: u64,
}

/// Checks a database file: header, length and CRC-32, the shape of every entry, and `samples`
/// entries (or all with `None`) solved again from the file's own values and compared bit for bit.
/// The samples are spread deterministically over the whole database.
pub fn verify_file(path: &Path, samples: Option<u64>) -> Result<VerifyReport, BearoffError> {
    let (db, info) = Database::load_with_info(path)?;
    let wrong = |what: String| BearoffError::Recomputation {
        path: path.to_path_buf(),
        what,
    };
    let mut recomputed = 0u64;
    match &db {
        Database::OneSided(db) => {
            db.check_sums().map_err(|i| {
                wrong(format!(
                    "position {i} (its probabilities do not add up to 1)"
                ))
            })?;
            for index in spread(u64::from(db.len()), samples) {
                let index = index as u32;
                if !db.recomputes(index) {
                    return Err(wrong(format!("position {index}")));
                }
                recomputed += 1;
            }
        }
        Database::TwoSided(db) => {
            let n = u64::from(db.positions());
            for pair in spread(n * n, samples) {
                let (i, j) = ((pair / n) as u32, (pair % n) as u32);
                if !db.recomputes(i, j) {
                    return Err(wrong(format!("pair ({i}, {j})")));
                }
                recomputed += 1;
            }
        }
    }
    Ok(VerifyReport { info, recomputed })
}

/// `samples` indices below `count` (all of them with `None`), spread over the range: the last
/// ones, and a fixed pseudo-random scatter.
fn spread(count: u64, samples: Option<u64>) -> Box<dyn Iterator<Item = u64>> {
    match samples {
        Some(s) if s < count => {
            let mut state = 0x9e37_79b9_7f4a_7c15u64;
            Box::new((0..s).map(move |k| {
                if k < s / 10 {
                    count - 1 - k
                } else {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    (state >> 11) % count
                }
            }))
        }
        _ => Box::new(0..count),
    }
}

/// What happens while [`BearoffDb::open_or_generate`] obtains the databases.
#[derive(Debug)]
pub enum Event<'a> {
    /// A valid database file was loaded.
    Loaded { path: &'a Path },
    /// A database is generated: its file is missing (`problem` is `None`) or was rejected.
    Generating {
        what: &'a str,
        path: Option<&'a Path>,
        problem: Option<&'a BearoffError>,
    },
    /// Generation progress: `done` of `total` positions (one-sided) or pairs (two-sided).
    Progress {
        what: &'a str,
        done: u64,
        total: u64,
    },
    /// A generated database was written.
    Saved { path: &'a Path, bytes: u64 },
    /// A generated database could not be written; it is used from memory this time.
    NotSaved {
        path: &'a Path,
        error: &'a BearoffError,
    },
}

/// The bearoff databases the evaluator consults (see the [module documentation](self)).
#[derive(Clone, Debug, Default)]
pub struct BearoffDb {
    one_sided: Option<OneSided>,
    two_sided: Option<TwoSided>,
}

impl BearoffDb {
    /// Databases from parts; either may be missing.
    pub fn new(one_sided: Option<OneSided>, two_sided: Option<TwoSided>) -> BearoffDb {
        BearoffDb {
            one_sided,
            two_sided,
        }
    }

    /// Generates the default databases in memory (one-sided 6×15, two-sided 6×6).
    pub fn generate(report: &mut dyn FnMut(Event<'_>)) -> BearoffDb {
        report(Event::Generating {
            what: "one-sided",
            path: None,
            problem: None,
        });
        let one_sided = generate_one_sided(report);
        report(Event::Generating {
            what: "two-sided",
            path: None,
            problem: None,
        });
        BearoffDb::new(Some(one_sided), Some(generate_two_sided(report)))
    }

    /// The default databases from `dir` (files [`ONE_SIDED_FILE`] and [`TWO_SIDED_FILE`]): each
    /// file is loaded if it is valid and has the expected parameters, otherwise the database is
    /// generated and saved there (see [Storage](self#storage)). Never fails: problems are
    /// reported through `report` and the databases are then used from memory.
    pub fn open_or_generate(dir: &Path, report: &mut dyn FnMut(Event<'_>)) -> BearoffDb {
        let one_sided = obtain(
            &dir.join(ONE_SIDED_FILE),
            "one-sided",
            report,
            |path| {
                let db = OneSided::load(path)?;
                expect_layout(path, DbKind::OneSided, db.layout(), Layout::ONE_SIDED)?;
                Ok(db)
            },
            |report| {
                let db = generate_one_sided(report);
                let bytes = db.to_bytes();
                (db, bytes)
            },
        );
        let two_sided = obtain(
            &dir.join(TWO_SIDED_FILE),
            "two-sided",
            report,
            |path| {
                let db = TwoSided::load(path)?;
                let expected =
                    TwoSided::layout_for(DEFAULT_TWO_SIDED_CHECKERS).expect("default is valid");
                expect_layout(path, DbKind::TwoSided, db.layout(), expected)?;
                Ok(db)
            },
            |report| {
                let db = generate_two_sided(report);
                let bytes = db.to_bytes();
                (db, bytes)
            },
        );
        BearoffDb::new(Some(one_sided), Some(two_sided))
    }

    /// The one-sided database, if any.
    pub fn one_sided(&self) -> Option<&OneSided> {
        self.one_sided.as_ref()
    }

    /// The two-sided database, if any.
    pub fn two_sided(&self) -> Option<&TwoSided> {
        self.two_sided.as_ref()
    }

    /// The two-sided values of `position` (player on roll first), when the two-sided database
    /// covers it: both sides have checkers left, all on their home points, at most N of them.
    pub fn two_sided_values(&self, position: &Position) -> Option<TwoSidedValues> {
        let db = self.two_sided.as_ref()?;
        let (i, j) = two_sided_indices(db, position)?;
        db.values(i, j)
    }

    /// The cube decision of the player on roll in `position` (money play), when the two-sided
    /// database covers it.
    pub fn cube_decision(&self, position: &Position, cube: CubeState) -> Option<CubeDecision> {
        let db = self.two_sided.as_ref()?;
        let (i, j) = two_sided_indices(db, position)?;
        db.cube_decision(i, j, cube)
    }
}

fn two_sided_indices(db: &TwoSided, position: &Position) -> Option<(u32, u32)> {
    let i = db.index(&position.side(Side::Player))?;
    let j = db.index(&position.side(Side::Opponent))?;
    (i > 0 && j > 0).then_some((i, j))
}

impl BearoffOracle for BearoffDb {
    /// Exact chances of a pure bearoff: from the two-sided database when both sides fit (no
    /// gammons there), else from the one-sided race evaluation; `None` otherwise.
    fn probabilities(&self, position: &Position) -> Option<Probabilities> {
        if let Some(v) = self.two_sided_values(position) {
            return Some(Probabilities {
                win: v.win,
                ..Probabilities::default()
            });
        }
        self.one_sided
            .as_ref()?
            .race(&position.side(Side::Player), &position.side(Side::Opponent))
    }

    /// From the one-sided database ([`OneSided::backgammon`]).
    fn backgammon(&self, position: &Position, winner: Side) -> Option<f32> {
        let chance = self.one_sided.as_ref()?.backgammon(
            &position.side(winner),
            &position.side(winner.other()),
            winner == Side::Player,
        )?;
        Some(chance as f32)
    }
}

fn expect_layout(
    path: &Path,
    kind: DbKind,
    found: Layout,
    expected: Layout,
) -> Result<(), BearoffError> {
    if found == expected {
        Ok(())
    } else {
        Err(BearoffError::Mismatch {
            path: path.to_path_buf(),
            found: describe(kind, found),
            expected: describe(kind, expected),
        })
    }
}

/// Loads the database at `path`, or generates it (and its file bytes) and saves it there.
fn obtain<T>(
    path: &Path,
    what: &str,
    report: &mut dyn FnMut(Event<'_>),
    load: impl FnOnce(&Path) -> Result<T, BearoffError>,
    generate: impl FnOnce(&mut dyn FnMut(Event<'_>)) -> (T, Vec<u8>),
) -> T {
    match load(path) {
        Ok(db) => {
            report(Event::Loaded { path });
            db
        }
        Err(problem) => {
            let missing = matches!(&problem, BearoffError::Read { source, .. }
                if source.kind() == std::io::ErrorKind::NotFound);
            report(Event::Generating {
                what,
                path: Some(path),
                problem: (!missing).then_some(&problem),
            });
            let (db, bytes) = generate(report);
            save_reporting(path, &bytes, report);
            db
        }
    }
}

fn save_reporting(path: &Path, bytes: &[u8], report: &mut dyn FnMut(Event<'_>)) {
    // The databases' folder is a cache the program owns (the caller chose it): it is created
    // here, unlike the folder of a file the user names, which must exist.
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => std::fs::create_dir_all(p),
        _ => Ok(()),
    };
    let saved = folder
        .map_err(|source| BearoffError::Write {
            path: path.to_path_buf(),
            source,
        })
        .and_then(|()| storage::write_atomic(path, bytes));
    match saved {
        Ok(()) => report(Event::Saved {
            path,
            bytes: bytes.len() as u64,
        }),
        Err(error) => report(Event::NotSaved {
            path,
            error: &error,
        }),
    }
}

fn generate_one_sided(report: &mut dyn FnMut(Event<'_>)) -> OneSided {
    OneSided::generate(Layout::ONE_SIDED, &mut |done, total| {
        report(Event::Progress {
            what: "one-sided",
            done,
            total,
        })
    })
}

fn generate_two_sided(report: &mut dyn FnMut(Event<'_>)) -> TwoSided {
    TwoSided::generate(DEFAULT_TWO_SIDED_CHECKERS, &mut |done, total| {
        report(Event::Progress {
            what: "two-sided",
            done,
            total,
        })
    })
    .expect("the default two-sided layout is valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_is_in_range_and_sized() {
        assert_eq!(spread(10, None).count(), 10);
        assert_eq!(spread(10, Some(20)).count(), 10);
        let s: Vec<u64> = spread(1000, Some(50)).collect();
        assert_eq!(s.len(), 50);
        assert!(s.iter().all(|&i| i < 1000));
        assert_eq!(s[0], 999);
    }
}
