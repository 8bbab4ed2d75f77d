//! The match as a document: which file it belongs to, whether it changed since it was last
//! saved, what the window's title says, the automatic save that survives a crash, and the list
//! of recently used files. No GTK here (the window code is `widgets/window/files.rs`); the
//! tests run without a display.
//!
//! * **Opening** ([`read_match_file`], [`open_session`]): the file is read through the engine
//!   (`formats::match_file`, SGF or Jellyfish `.mat` told apart by the contents) and replayed
//!   leniently as the engine offers it: what the rules refuse is cut off, with a warning each.
//!   The match goes on with the person at the bottom seat (player 1, GNU Backgammon's usual
//!   human) and the bot playing the top seat (player 0) at the level of the settings, both
//!   under the names the file gives them.
//! * **Changed or not** ([`Document::is_modified`]): the record as it would be written is
//!   compared with the record as it was last read or written. A match that never was in a file
//!   counts as changed once somebody did something (a roll not yet played is not enough).
//! * **Autosave** ([`Autosave`]): while a match has unsaved changes and is not over, the window
//!   writes it after every step, atomically, to `autosave.sgf` in the user's data folder
//!   (`~/.local/share/cubeful` on Linux; [`DATA_DIR_ENV`] overrides it), with the seats and the
//!   file it belongs to beside it in `autosave.ron`. At the next start [`Autosave::load`] finds
//!   it and the window offers to resume it; a file that cannot be read is reported and moved
//!   aside (`autosave.sgf.broken`), never a panic.
//! * **Recent files** ([`remember_recent`], [`existing_recent`]): up to [`MAX_RECENT`], most
//!   recent first, missing files dropped; kept in the settings.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use cubeful_engine::analysis::stats::{self, StatsSettings};
use cubeful_engine::files::{read_regular, write_atomically, FileError};
use cubeful_engine::formats::match_file::{self, MatchFileError, MatchFormat};
use cubeful_engine::game::record::replay::describe;
use cubeful_engine::game::record::{MatchInfo, MatchRecord, RecordAction, ReplayError};
use cubeful_engine::game::{DiceSource, Game, RandomDice, ScriptedDice};
use cubeful_engine::search::Level;
use cubeful_engine::{Dice, Player};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::i18n::{gettext, gettext_f};
use crate::session::{default_player_name, MatchSetup, Opponent, Session};

/// The environment variable naming the folder of the automatic save (for tests; otherwise the
/// user's data folder).
pub const DATA_DIR_ENV: &str = "CUBEFUL_DATA_DIR";

/// How many recently used files are remembered.
pub const MAX_RECENT: usize = 10;

/// The largest match file read (real matches are well under a megabyte).
pub const MAX_MATCH_FILE: u64 = 64 << 20;

/// File name of the automatic save of the match.
pub const AUTOSAVE_FILE: &str = "autosave.sgf";

/// File name of the seats and file of the automatic save.
pub const AUTOSAVE_SEATS_FILE: &str = "autosave.ron";

/// Why a match could not be read, written or resumed. [`DocumentError::message`] is the one
/// translated sentence the user sees.
#[derive(Debug, Error)]
pub enum DocumentError {
    /// The file could not be read (missing, unreadable, not a regular file, too large).
    #[error("{0}")]
    Read(FileError),
    /// The file is not a match file the engine can read.
    #[error("{path}: {source}")]
    Format {
        path: PathBuf,
        #[source]
        source: MatchFileError,
    },
    /// The match in the file cannot be played through the rules at all.
    #[error("{path}: {source}")]
    Replay {
        path: PathBuf,
        #[source]
        source: ReplayError,
    },
    /// Writing the file failed (the old file, if any, is unharmed).
    #[error("{0}")]
    Write(FileError),
    /// The match could not be put in the format asked for.
    #[error("{0}")]
    Export(MatchFileError),
    /// The statistics report needs an analysed match.
    #[error("the match has not been analysed")]
    NotAnalysed,
    /// The statistics could not be computed.
    #[error("{0}")]
    Statistics(String),
    /// The folder of the automatic save could not be made or cleaned.
    #[error("{path}: {source}")]
    Folder {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

impl DocumentError {
    /// The problem in one translated sentence (the engine's details, in English, in brackets).
    pub fn message(&self) -> String {
        match self {
            DocumentError::Read(e) => {
                let path = match e {
                    FileError::NotRegularSource { path }
                    | FileError::TooLarge { path, .. }
                    | FileError::Io { path, .. }
                    | FileError::NotRegularTarget { path }
                    | FileError::NoFolder { path, .. } => path.clone(),
                };
                gettext_f(
                    "The file “{}” could not be read ({}).",
                    &[&display_name(&path), &e.to_string()],
                )
            }
            DocumentError::Format { path, source } => gettext_f(
                "“{}” is not a match file Cubeful can read ({}).",
                &[&display_name(path), &source.to_string()],
            ),
            DocumentError::Replay { path, source } => gettext_f(
                "The match in “{}” cannot be played through ({}).",
                &[&display_name(path), &source.to_string()],
            ),
            DocumentError::Write(e) => gettext_f(
                "The match could not be saved, and any earlier file is unchanged ({}).",
                &[&e.to_string()],
            ),
            DocumentError::Export(e) => gettext_f(
                "The match could not be written in that format ({}).",
                &[&e.to_string()],
            ),
            DocumentError::NotAnalysed => gettext(
                "The match has not been analysed yet, so there are no statistics to export.",
            ),
            DocumentError::Statistics(e) => gettext_f(
                "The statistics of the match could not be computed ({}).",
                &[e],
            ),
            DocumentError::Folder { path, source } => gettext_f(
                "The folder “{}” could not be used ({}).",
                &[&path.display().to_string(), &source.to_string()],
            ),
        }
    }
}

// ----------------------------------------------------------------------------------------
// The record as written
// ----------------------------------------------------------------------------------------

/// The record of `session` as it is written to a file: the game's record with the players'
/// names of the seats.
pub fn record_to_save(session: &Session) -> MatchRecord {
    let mut record = session.game().record().clone();
    record.info.players = [
        session.name(Player::Zero).to_string(),
        session.name(Player::One).to_string(),
    ];
    record
}

/// True if `record` is what [`record_to_save`] gives for `session` (without copying the
/// session's record).
pub fn same_record(record: &MatchRecord, session: &Session) -> bool {
    let live = session.game().record();
    if record.games != live.games {
        return false;
    }
    let names = [session.name(Player::Zero), session.name(Player::One)];
    let info = &record.info;
    info.players[0] == names[0]
        && info.players[1] == names[1]
        && MatchInfo {
            players: Default::default(),
            ..info.clone()
        } == MatchInfo {
            players: Default::default(),
            ..live.info.clone()
        }
}

/// The number of actions in `record` (all games).
pub fn action_count(record: &MatchRecord) -> usize {
    record.games.iter().map(|g| g.entries.len()).sum()
}

/// True if somebody did something in `record`: an action other than a roll not yet played.
pub fn has_actions(record: &MatchRecord) -> bool {
    record
        .games
        .iter()
        .flat_map(|g| &g.entries)
        .any(|e| !matches!(e.action, RecordAction::Roll { .. }))
}

/// The last action of `record` in words (the engine's description), if any.
pub fn last_action(record: &MatchRecord) -> Option<String> {
    record
        .games
        .iter()
        .rev()
        .find_map(|g| g.entries.last())
        .map(|e| describe(&e.action))
}

/// True if any action of `record` carries analysis.
pub fn has_analysis(record: &MatchRecord) -> bool {
    record
        .games
        .iter()
        .flat_map(|g| &g.entries)
        .any(|e| e.analysis.is_some())
}

// ----------------------------------------------------------------------------------------
// The document
// ----------------------------------------------------------------------------------------

/// The match's file and whether it changed since it was last read or written.
#[derive(Clone, Debug, Default)]
pub struct Document {
    /// The file the match was read from or last saved to.
    path: Option<PathBuf>,
    /// The format of that file.
    format: Option<MatchFormat>,
    /// The record (as [`record_to_save`] makes it) when it was last read or written; `None` if
    /// it never was.
    saved: Option<MatchRecord>,
}

impl Document {
    /// A match that is in no file yet.
    pub fn untitled() -> Document {
        Document::default()
    }

    /// A match read from (or saved to) `path` in `format`, whose record was then `record`.
    pub fn in_file(path: PathBuf, format: MatchFormat, record: MatchRecord) -> Document {
        Document {
            path: Some(path),
            format: Some(format),
            saved: Some(record),
        }
    }

    /// A match resumed after a crash: it belongs to `file` (if it did) and counts as changed
    /// (the file, if any, does not hold what was played since).
    pub fn resumed(file: Option<(PathBuf, MatchFormat)>) -> Document {
        let (path, format) = file.unzip();
        Document {
            path,
            format,
            saved: None,
        }
    }

    /// The match's file, if it has one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The format of the match's file.
    pub fn format(&self) -> Option<MatchFormat> {
        self.format
    }

    /// Where Ctrl+S writes without asking: the match's file if it is SGF (the only format that
    /// keeps everything); otherwise the user is asked for a name.
    pub fn save_target(&self) -> Option<&Path> {
        match self.format {
            Some(MatchFormat::Sgf) => self.path(),
            _ => None,
        }
    }

    /// True if `record` (as [`record_to_save`] makes it) holds something not in the file: it
    /// differs from what was last read or written, or it never was in a file and somebody did
    /// something ([`has_actions`]).
    pub fn is_modified(&self, record: &MatchRecord) -> bool {
        match &self.saved {
            Some(saved) => saved != record,
            None => has_actions(record),
        }
    }

    /// [`Document::is_modified`] for the record of `session` (without copying it).
    pub fn is_session_modified(&self, session: &Session) -> bool {
        match &self.saved {
            Some(saved) => !same_record(saved, session),
            None => has_actions(session.game().record()),
        }
    }

    /// `record` was written to `path` in `format`: the document belongs to that file now when
    /// the format keeps the whole match (SGF); an export (`.mat`, text) changes nothing.
    pub fn saved_as(&mut self, path: PathBuf, format: MatchFormat, record: MatchRecord) {
        if format == MatchFormat::Sgf {
            self.path = Some(path);
            self.format = Some(format);
            self.saved = Some(record);
        }
    }

    /// The window's title: the file's name, else the players and the score; `None` without a
    /// match. A `•` before it says there are unsaved changes.
    pub fn title(&self, session: Option<&Session>) -> Option<String> {
        let session = session?;
        let text = match &self.path {
            Some(path) => display_name(path),
            None => {
                let game = session.game();
                let score = game.score();
                let (bottom, top) = (Player::One, Player::Zero);
                gettext_f(
                    "{} – {} ({}–{})",
                    &[
                        session.name(bottom),
                        session.name(top),
                        &score[bottom.index()].to_string(),
                        &score[top.index()].to_string(),
                    ],
                )
            }
        };
        Some(if self.is_session_modified(session) {
            format!("• {text}")
        } else {
            text
        })
    }

    /// A file name to propose when saving: the file's own name with the format's extension,
    /// else the players' names.
    pub fn suggested_name(&self, session: &Session, format: MatchFormat) -> String {
        let stem = match &self.path {
            Some(path) => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            None => format!(
                "{}-{}",
                session.name(Player::One),
                session.name(Player::Zero)
            ),
        };
        let stem: String = stem
            .chars()
            .map(|c| if c == '/' || c.is_control() { '_' } else { c })
            .collect();
        let stem = if stem.trim().is_empty() {
            "match".to_string()
        } else {
            stem
        };
        format!("{stem}.{}", format.extension())
    }
}

// ----------------------------------------------------------------------------------------
// Opening
// ----------------------------------------------------------------------------------------

/// A match file read and checked against the rules.
#[derive(Clone, Debug)]
pub struct OpenedMatch {
    /// The record, cut where the rules refuse an action.
    pub record: MatchRecord,
    pub format: MatchFormat,
    /// What the reader or the replay had to leave out or repair, one sentence each.
    pub warnings: Vec<String>,
}

/// Reads the match file `path` (SGF or Jellyfish text, told apart by the contents) and replays
/// it leniently: what the rules refuse is cut off, with a warning each.
pub fn read_match_file(path: &Path) -> Result<OpenedMatch, DocumentError> {
    let bytes = read_regular(path, MAX_MATCH_FILE).map_err(DocumentError::Read)?;
    let loaded = match_file::read(&bytes).map_err(|source| DocumentError::Format {
        path: path.into(),
        source,
    })?;
    let lenient = loaded
        .record
        .replay_lenient()
        .map_err(|source| DocumentError::Replay {
            path: path.into(),
            source,
        })?;
    let mut warnings = loaded.warnings;
    for warning in &lenient.warnings {
        let text = if warning.dropped > 0 {
            format!("{} ({} left out)", warning.error, warning.dropped)
        } else {
            warning.error.to_string()
        };
        if !warnings.contains(&text) {
            warnings.push(text);
        }
    }
    Ok(OpenedMatch {
        record: lenient.record,
        format: loaded.format,
        warnings,
    })
}

/// The dice for the rolls to come: entered by hand, or random from `seed` (random when
/// `None`).
fn dice_source(manual: bool, seed: Option<u64>) -> Box<dyn DiceSource> {
    if manual {
        Box::new(ScriptedDice::new(Vec::<Dice>::new()))
    } else {
        Box::new(RandomDice::new(seed.unwrap_or_else(rand::random)))
    }
}

/// The game of `record`, ready to be played on with `dice`. A record that replays only
/// leniently (a game starting at a score that does not follow from the game before) goes on
/// from its lenient replay.
fn game_from_record(
    record: &MatchRecord,
    dice: impl Fn() -> Box<dyn DiceSource>,
) -> Result<Game, ReplayError> {
    match Game::from_record(record, dice()) {
        Ok(game) => Ok(game),
        Err(strict) => {
            let lenient = record.replay_lenient().map_err(|_| strict)?;
            let mut game = lenient.replay.into_game();
            game.set_dice_source(dice());
            Ok(game)
        }
    }
}

/// The names of the seats (bottom, top) for `record`: the file's names, or the defaults.
fn seat_names(record: &MatchRecord) -> [String; 2] {
    let [zero, one] = &record.info.players;
    let bottom = if one.trim().is_empty() {
        default_player_name()
    } else {
        one.clone()
    };
    let top = if zero.trim().is_empty() {
        "Cubeful".to_string()
    } else {
        zero.clone()
    };
    [bottom, top]
}

/// The setup of a match read from a file: its rules, the file's names (bottom seat = player 1,
/// the person; top seat = player 0, the bot at `level`), random dice from `seed`.
pub fn setup_for(record: &MatchRecord, level: Level, seed: Option<u64>) -> MatchSetup {
    let rules = &record.info.rules;
    MatchSetup {
        length: rules.match_length,
        crawford: rules.crawford,
        jacoby: rules.jacoby,
        beavers: rules.beavers,
        opponent: Opponent::Bot(level),
        names: seat_names(record),
        manual_dice: false,
        seed,
    }
}

/// The session and document of a match read from `path`: the person plays the bottom seat,
/// the bot the top seat at `level` (see [`setup_for`]).
pub fn open_session(
    opened: &OpenedMatch,
    path: &Path,
    level: Level,
    seed: Option<u64>,
) -> Result<(Session, Document), DocumentError> {
    let setup = setup_for(&opened.record, level, seed);
    let game = game_from_record(&opened.record, || dice_source(false, seed)).map_err(|source| {
        DocumentError::Replay {
            path: path.into(),
            source,
        }
    })?;
    let session = Session::from_game(setup, game);
    let document = Document::in_file(path.into(), opened.format, record_to_save(&session));
    Ok((session, document))
}

// ----------------------------------------------------------------------------------------
// Saving and exporting
// ----------------------------------------------------------------------------------------

/// What can be written from a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// A match file: SGF (everything), Jellyfish `.mat` or plain text.
    Match(MatchFormat),
    /// The statistics report as an HTML page (needs an analysed match).
    HtmlReport,
}

impl Export {
    /// The file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            Export::Match(format) => format.extension(),
            Export::HtmlReport => "html",
        }
    }
}

/// The contents of `record` written as `what`.
pub fn render(record: &MatchRecord, what: Export) -> Result<String, DocumentError> {
    match what {
        Export::Match(format) => match_file::write(record, format).map_err(DocumentError::Export),
        Export::HtmlReport => {
            if !has_analysis(record) {
                return Err(DocumentError::NotAnalysed);
            }
            let statistics = stats::match_statistics(record, &StatsSettings::default())
                .map_err(|e| DocumentError::Statistics(e.to_string()))?;
            Ok(stats::html::page(
                &record.info,
                &statistics,
                &stats::report::ReportStyle::default(),
            ))
        }
    }
}

/// Writes `record` to `path` as `what`, atomically: on failure the old file is unharmed.
pub fn write(path: &Path, record: &MatchRecord, what: Export) -> Result<(), DocumentError> {
    let text = render(record, what)?;
    write_atomically(path, text.as_bytes()).map_err(DocumentError::Write)
}

/// `path` with the extension of `what` when it has none of its own (a name typed without
/// one).
pub fn with_extension(path: &Path, what: Export) -> PathBuf {
    if path.extension().is_some() {
        path.to_path_buf()
    } else {
        path.with_extension(what.extension())
    }
}

// ----------------------------------------------------------------------------------------
// Autosave
// ----------------------------------------------------------------------------------------

/// Who sat where in the automatically saved match, and the file it belonged to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Seats {
    /// Names by seat (bottom, top).
    pub names: [String; 2],
    /// The bot's level by [`Level::name`]; `None` when two people play.
    pub bot: Option<String>,
    /// The dice are entered by hand.
    pub manual_dice: bool,
    /// The match's file, if it had one.
    pub path: Option<PathBuf>,
    /// That file's format by extension (`sgf`, `mat`).
    pub format: Option<String>,
}

impl Seats {
    /// The seats of `session`, belonging to `document`'s file.
    pub fn of(session: &Session, document: &Document) -> Seats {
        let setup = session.setup();
        Seats {
            names: setup.names.clone(),
            bot: session.bot_level().map(|l| l.name().to_string()),
            manual_dice: setup.manual_dice,
            path: document.path().map(Path::to_path_buf),
            format: document.format().map(|f| f.extension().to_string()),
        }
    }
}

/// A match saved automatically, ready to be resumed.
#[derive(Clone, Debug)]
pub struct Resumable {
    pub record: MatchRecord,
    /// `None` if the seats file was missing or unreadable (then the defaults of a loaded match
    /// apply: the person at the bottom, the bot at the top).
    pub seats: Option<Seats>,
}

impl Resumable {
    /// The session and document to go on with: seats as saved (the bot at its saved level, or
    /// `level` when unknown), dice from `seed`.
    pub fn session(
        &self,
        path: &Path,
        level: Level,
        seed: Option<u64>,
    ) -> Result<(Session, Document), DocumentError> {
        let mut setup = setup_for(&self.record, level, seed);
        let mut file = None;
        if let Some(seats) = &self.seats {
            if seats.names.iter().all(|n| !n.trim().is_empty()) {
                setup.names = seats.names.clone();
            }
            setup.opponent = match &seats.bot {
                Some(name) => Opponent::Bot(name.parse().unwrap_or(level)),
                None => Opponent::Human,
            };
            setup.manual_dice = seats.manual_dice;
            let format = match seats.format.as_deref() {
                Some(ext) => MatchFormat::from_path(Path::new(&format!("x.{ext}"))),
                None => None,
            };
            file = seats.path.clone().zip(format);
        }
        let manual = setup.manual_dice;
        let game =
            game_from_record(&self.record, || dice_source(manual, seed)).map_err(|source| {
                DocumentError::Replay {
                    path: path.into(),
                    source,
                }
            })?;
        Ok((Session::from_game(setup, game), Document::resumed(file)))
    }

    /// The match in a few words for the resume question: players, score, games.
    pub fn summary(&self) -> String {
        let names = match &self.seats {
            Some(seats) if seats.names.iter().all(|n| !n.trim().is_empty()) => seats.names.clone(),
            _ => seat_names(&self.record),
        };
        let (score, games) = match self.record.replay_lenient() {
            Ok(l) => {
                let game = l.replay.final_game();
                (game.score(), l.record.games.len())
            }
            Err(_) => ([0, 0], self.record.games.len()),
        };
        let length = self.record.info.rules.match_length;
        let score_text = format!(
            "{}–{}",
            score[Player::One.index()],
            score[Player::Zero.index()]
        );
        if length == 0 {
            gettext_f(
                "{} against {}, money session, {} (game {}).",
                &[&names[0], &names[1], &score_text, &games.to_string()],
            )
        } else {
            gettext_f(
                "{} against {}, {}-point match, {} (game {}).",
                &[
                    &names[0],
                    &names[1],
                    &length.to_string(),
                    &score_text,
                    &games.to_string(),
                ],
            )
        }
    }
}

/// The automatic save of the match in progress, in one folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Autosave {
    dir: PathBuf,
}

impl Autosave {
    /// The folder of the automatic save: [`DATA_DIR_ENV`] if set, else the user's data folder
    /// (`~/.local/share/cubeful` on Linux); `None` without a home folder.
    pub fn default_dir() -> Option<PathBuf> {
        Autosave::dir_from(std::env::var_os(DATA_DIR_ENV))
    }

    /// The folder of the automatic save when [`DATA_DIR_ENV`] is `over`.
    fn dir_from(over: Option<std::ffi::OsString>) -> Option<PathBuf> {
        if let Some(dir) = over.filter(|d| !d.is_empty()) {
            return Some(PathBuf::from(dir));
        }
        directories::ProjectDirs::from("org", "Cubeful", "cubeful").map(|d| d.data_dir().into())
    }

    /// The automatic save in `dir` (made when first needed).
    pub fn new(dir: PathBuf) -> Autosave {
        Autosave { dir }
    }

    /// The saved match.
    pub fn match_path(&self) -> PathBuf {
        self.dir.join(AUTOSAVE_FILE)
    }

    /// The seats beside it.
    pub fn seats_path(&self) -> PathBuf {
        self.dir.join(AUTOSAVE_SEATS_FILE)
    }

    /// Writes `record` (and `seats`) atomically: the seats first, then the match, so the match
    /// is never older than its seats file claims.
    pub fn save(&self, record: &MatchRecord, seats: &Seats) -> Result<(), DocumentError> {
        fs::create_dir_all(&self.dir).map_err(|source| DocumentError::Folder {
            path: self.dir.clone(),
            source,
        })?;
        let ron = ron::ser::to_string_pretty(seats, ron::ser::PrettyConfig::default())
            .unwrap_or_default();
        write_atomically(&self.seats_path(), ron.as_bytes()).map_err(DocumentError::Write)?;
        write(&self.match_path(), record, Export::Match(MatchFormat::Sgf))
    }

    /// The saved match, if there is one. A match file that cannot be read or replayed is the
    /// error (a missing or broken seats file only loses the seats).
    pub fn load(&self) -> Result<Option<Resumable>, DocumentError> {
        let path = self.match_path();
        match fs::symlink_metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            _ => {}
        }
        let bytes = read_regular(&path, MAX_MATCH_FILE).map_err(DocumentError::Read)?;
        let loaded = match_file::read(&bytes).map_err(|source| DocumentError::Format {
            path: path.clone(),
            source,
        })?;
        loaded
            .record
            .replay_lenient()
            .map_err(|source| DocumentError::Replay {
                path: path.clone(),
                source,
            })?;
        // A small RON file of ours; anything else (a FIFO, a huge file) is no seats file.
        let seats = read_regular(&self.seats_path(), 64 * 1024)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| ron::from_str::<Seats>(&text).ok());
        Ok(Some(Resumable {
            record: loaded.record,
            seats,
        }))
    }

    /// Removes the automatic save (there being none is fine).
    pub fn remove(&self) -> Result<(), DocumentError> {
        for path in [self.match_path(), self.seats_path()] {
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(source) => return Err(DocumentError::Folder { path, source }),
            }
        }
        Ok(())
    }

    /// Moves an automatic save that cannot be read aside (`autosave.sgf.broken`), so that it is
    /// reported once and kept for a person to look at.
    pub fn set_aside(&self) -> Result<PathBuf, DocumentError> {
        let from = self.match_path();
        let to = self.dir.join(format!("{AUTOSAVE_FILE}.broken"));
        fs::rename(&from, &to).map_err(|source| DocumentError::Folder {
            path: from.clone(),
            source,
        })?;
        let _ = fs::remove_file(self.seats_path());
        Ok(to)
    }
}

// ----------------------------------------------------------------------------------------
// Recent files
// ----------------------------------------------------------------------------------------

/// Puts `path` first in the list of recent files (once), keeping at most [`MAX_RECENT`].
pub fn remember_recent(list: &mut Vec<PathBuf>, path: &Path) {
    let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    list.retain(|p| *p != path);
    list.insert(0, path);
    list.truncate(MAX_RECENT);
}

/// The recent files that still exist, most recent first, at most [`MAX_RECENT`].
pub fn existing_recent(list: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for path in list {
        if path.is_file() && !out.contains(path) {
            out.push(path.clone());
        }
    }
    out.truncate(MAX_RECENT);
    out
}

#[cfg(test)]
mod tests;
