//! The user's settings, kept as RON in the user's config folder
//! (`~/.config/cubeful/gtk-settings.ron` on Linux, from the `directories` crate).
//!
//! Unknown fields are ignored and missing ones take their defaults, so files written by other
//! versions still load. A file that cannot be read or parsed is never fatal: [`Settings::load`]
//! returns the defaults together with the problem, the caller tells the user, and the broken
//! file is moved aside (`gtk-settings.ron.broken`) before the defaults are saved over it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use cubeful_engine::files::{read_regular, write_atomically};
use cubeful_engine::game::MAX_MATCH_LENGTH;
use cubeful_engine::search::Level;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::scene::{Colours, Rgb};

/// File name of the settings in the config folder.
pub const FILE_NAME: &str = "gtk-settings.ron";

/// Why the settings file could not be used.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The file is not valid settings.
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
}

/// The longest settings file read: settings take about 1 KB.
const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// Colours of the board, as `#rrggbb`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ColourSettings {
    /// The checkers of the player at the bottom (you).
    pub player: String,
    /// The checkers of the player at the top.
    pub opponent: String,
    /// The playing surface.
    pub board: String,
}

impl Default for ColourSettings {
    fn default() -> ColourSettings {
        let c = Colours::default();
        ColourSettings {
            player: c.checkers[0].to_hex(),
            opponent: c.checkers[1].to_hex(),
            board: c.felt.to_hex(),
        }
    }
}

impl ColourSettings {
    /// The board colours; an unreadable colour keeps its default.
    pub fn colours(&self) -> Colours {
        let d = Colours::default();
        Colours {
            checkers: [
                Rgb::parse(&self.player).unwrap_or(d.checkers[0]),
                Rgb::parse(&self.opponent).unwrap_or(d.checkers[1]),
            ],
            felt: Rgb::parse(&self.board).unwrap_or(d.felt),
            ..d
        }
    }
}

/// The sizes of a side of the main window, in pixels, taken from the settings file.
pub const WINDOW_SIDES: std::ops::RangeInclusive<i32> = 200..=16_384;

/// The size of the main window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowSettings {
    pub width: i32,
    pub height: i32,
    pub maximized: bool,
}

impl Default for WindowSettings {
    fn default() -> WindowSettings {
        WindowSettings {
            width: 960,
            height: 820,
            maximized: false,
        }
    }
}

/// The choices of the new-match dialog, remembered for next time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NewMatchSettings {
    /// Match length; 0 for a money session.
    pub length: u16,
    /// Both players are people (otherwise the top player is the bot).
    pub human_vs_human: bool,
    /// The dice are entered by hand.
    pub manual_dice: bool,
    /// Match play: the Crawford rule.
    pub crawford: bool,
    /// Money play: the Jacoby rule.
    pub jacoby: bool,
    /// Money play: beavers.
    pub beavers: bool,
}

impl Default for NewMatchSettings {
    fn default() -> NewMatchSettings {
        NewMatchSettings {
            length: 5,
            human_vs_human: false,
            manual_dice: false,
            crawford: true,
            jacoby: true,
            beavers: true,
        }
    }
}

/// From which mark on the tutor warns (GNU Backgammon's marks: doubtful `?!`, bad `?`, very
/// bad `??`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TutorThreshold {
    Doubtful,
    #[default]
    Bad,
    VeryBad,
}

/// Everything the application remembers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Your name (empty: "You").
    pub player_name: String,
    /// The top player's name (empty: the bot's or "Player 2").
    pub opponent_name: String,
    /// The bot's level, by [`Level::name`].
    pub level: String,
    /// The level of the hints, by [`Level::name`].
    pub hint_level: String,
    /// Show the bot's moves checker by checker.
    pub animate: bool,
    /// Play a move at once when the roll leaves no choice.
    pub auto_forced_moves: bool,
    /// Start the next game of a match without waiting for a click.
    pub auto_next_game: bool,
    /// Two people at one board: the board turns to the player on roll.
    pub turn_board: bool,
    pub colours: ColourSettings,
    pub window: WindowSettings,
    pub new_match: NewMatchSettings,
    /// Match files opened or saved lately, most recent first (at most
    /// [`crate::document::MAX_RECENT`]).
    pub recent_files: Vec<PathBuf>,
    /// The folder last used in a file chooser.
    pub last_folder: Option<PathBuf>,
    /// The level of the analysis pane, in plies (0 to 3; 2 is World Class).
    pub analysis_plies: u8,
    /// The tutor judges the people's plays and cube actions before they count.
    pub tutor: bool,
    /// The level the tutor judges at, by [`Level::name`].
    pub tutor_level: String,
    /// The tutor warns from this mark on.
    pub tutor_threshold: TutorThreshold,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            player_name: String::new(),
            opponent_name: String::new(),
            level: Level::Expert.name().to_string(),
            hint_level: Level::WorldClass.name().to_string(),
            animate: true,
            auto_forced_moves: false,
            auto_next_game: false,
            turn_board: true,
            colours: ColourSettings::default(),
            window: WindowSettings::default(),
            new_match: NewMatchSettings::default(),
            recent_files: Vec::new(),
            last_folder: None,
            analysis_plies: 2,
            tutor: false,
            tutor_level: Level::WorldClass.name().to_string(),
            tutor_threshold: TutorThreshold::Bad,
        }
    }
}

impl Settings {
    /// The folder of the settings file, if the system has a home folder.
    pub fn default_dir() -> Option<PathBuf> {
        directories::ProjectDirs::from("org", "Cubeful", "cubeful").map(|d| d.config_dir().into())
    }

    /// The bot's level (Expert if the name is unknown).
    pub fn level(&self) -> Level {
        self.level.parse().unwrap_or(Level::Expert)
    }

    /// The hint level (World Class if the name is unknown).
    pub fn hint_level(&self) -> Level {
        self.hint_level.parse().unwrap_or(Level::WorldClass)
    }

    /// The tutor's level (World Class if the name is unknown).
    pub fn tutor_level(&self) -> Level {
        self.tutor_level.parse().unwrap_or(Level::WorldClass)
    }

    /// Reads the settings from `path`. A missing file gives the defaults and no error; an
    /// unreadable or invalid one gives the defaults and the error.
    pub fn load(path: &Path) -> (Settings, Option<SettingsError>) {
        let bytes = match read_regular(path, MAX_SETTINGS_BYTES) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return (Settings::default(), None),
            Err(e) => {
                return (
                    Settings::default(),
                    Some(SettingsError::Io {
                        path: path.into(),
                        source: e.into_reason(),
                    }),
                )
            }
        };
        match ron::from_str::<Settings>(&String::from_utf8_lossy(&bytes)) {
            Ok(settings) => (settings.checked(), None),
            Err(e) => (
                Settings::default(),
                Some(SettingsError::Parse {
                    path: path.into(),
                    message: e.to_string(),
                }),
            ),
        }
    }

    /// The settings with each value a (hand-edited) file may hold out of its range replaced by
    /// its default: a window side outside [`WINDOW_SIDES`] (GTK refuses a negative size with a
    /// critical warning), a match longer than the engine's [`MAX_MATCH_LENGTH`], an analysis
    /// level above 3 plies; the list of recent files is cut to its length.
    fn checked(mut self) -> Settings {
        let window = WindowSettings::default();
        if !WINDOW_SIDES.contains(&self.window.width) {
            self.window.width = window.width;
        }
        if !WINDOW_SIDES.contains(&self.window.height) {
            self.window.height = window.height;
        }
        if self.new_match.length > MAX_MATCH_LENGTH {
            self.new_match.length = NewMatchSettings::default().length;
        }
        if self.analysis_plies > 3 {
            self.analysis_plies = Settings::default().analysis_plies;
        }
        self.recent_files.truncate(crate::document::MAX_RECENT);
        self
    }

    /// Loads the settings and, if the file was broken, moves it aside to `<name>.broken` and
    /// saves the defaults in its place. Returns the settings and the problem to report.
    pub fn load_or_repair(path: &Path) -> (Settings, Option<SettingsError>) {
        let (settings, error) = Settings::load(path);
        if error.is_some() {
            let mut aside = path.as_os_str().to_owned();
            aside.push(".broken");
            let _ = fs::rename(path, PathBuf::from(aside));
            let _ = settings.save(path);
        }
        (settings, error)
    }

    /// Writes the settings to `path` with [`write_atomically`] (a temporary file created
    /// exclusively beside it, then renamed, so a crash never leaves half a file), creating the
    /// folder if needed.
    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let io = |source| SettingsError::Io {
            path: path.into(),
            source,
        };
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let text =
            ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).map_err(|e| {
                SettingsError::Parse {
                    path: path.into(),
                    message: e.to_string(),
                }
            })?;
        write_atomically(path, text.as_bytes()).map_err(|e| io(e.into_reason()))
    }
}

/// Copies into `current` the preferences that the preferences window changed (`edited`
/// against `shown`, the settings it started from or last reported), and nothing else: what
/// changed elsewhere meanwhile — the tutor toggled in the header bar, the window's size — stays.
pub fn merge_preferences(current: &mut Settings, shown: &Settings, edited: &Settings) {
    macro_rules! changed {
        ($($field:ident),*) => {
            $(if edited.$field != shown.$field {
                current.$field = edited.$field.clone();
            })*
        };
    }
    changed!(
        player_name,
        opponent_name,
        level,
        animate,
        auto_forced_moves,
        auto_next_game,
        turn_board,
        tutor,
        tutor_level,
        tutor_threshold,
        colours
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_testkit::ScratchDir;

    #[test]
    fn the_preferences_window_changes_only_what_it_changed() {
        let shown = Settings::default();
        // The tutor turned on in the header bar while the window was open…
        let mut current = Settings {
            tutor: true,
            ..shown.clone()
        };
        // …and then the name changed in the window, which still shows the tutor off.
        let edited = Settings {
            player_name: "Anna".into(),
            ..shown.clone()
        };
        merge_preferences(&mut current, &shown, &edited);
        assert_eq!(
            (current.player_name.as_str(), current.tutor),
            ("Anna", true)
        );
        // Switching the tutor off in the window does reach the settings.
        let off = Settings {
            tutor: false,
            ..edited.clone()
        };
        let shown = Settings {
            tutor: true,
            ..edited.clone()
        };
        merge_preferences(&mut current, &shown, &off);
        assert!(!current.tutor);
    }

    #[test]
    fn round_trip() {
        let dir = ScratchDir::new("gtk-round");
        let path = dir.join("sub").join(FILE_NAME);
        let mut s = Settings {
            player_name: "Anna".into(),
            level: "grandmaster".into(),
            ..Settings::default()
        };
        s.window.width = 1234;
        s.new_match.length = 0;
        s.colours.player = "#112233".into();
        s.recent_files = vec![PathBuf::from("/m/a.sgf"), PathBuf::from("/m/b é.mat")];
        s.last_folder = Some(PathBuf::from("/m"));
        s.analysis_plies = 3;
        s.save(&path).unwrap();
        let (back, err) = Settings::load(&path);
        assert!(err.is_none());
        assert_eq!(back, s);
        assert_eq!(back.analysis_plies, 3);
        assert_eq!(back.level(), Level::Grandmaster);
        assert_eq!(
            back.colours.colours().checkers[0],
            Rgb::from_bytes(0x11, 0x22, 0x33)
        );
    }

    #[test]
    fn missing_file_is_defaults_without_error() {
        let dir = ScratchDir::new("gtk-missing");
        let (s, err) = Settings::load(&dir.join(FILE_NAME));
        assert!(err.is_none());
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn partial_and_unknown_fields() {
        let dir = ScratchDir::new("gtk-partial");
        let path = dir.join(FILE_NAME);
        fs::write(
            &path,
            "(player_name: \"Bo\", future_option: 3, window: (width: 800))",
        )
        .unwrap();
        let (s, err) = Settings::load(&path);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(s.player_name, "Bo");
        assert_eq!(s.window.width, 800);
        assert_eq!(s.window.height, WindowSettings::default().height);
        assert!(s.animate);
    }

    /// Values out of range in a hand-edited file give their defaults; the rest is kept.
    #[test]
    fn out_of_range_values_are_replaced_by_defaults() {
        let dir = ScratchDir::new("gtk-ranges");
        let path = dir.join(FILE_NAME);
        let defaults = Settings::default();
        for (width, height) in [(-5, 700), (0, 0), (800, i32::MIN), (100_000, i32::MAX)] {
            fs::write(
                &path,
                format!("(player_name: \"Bo\", window: (width: {width}, height: {height}, maximized: true), new_match: (length: 99, crawford: false), analysis_plies: 200)"),
            )
            .unwrap();
            let (s, err) = Settings::load(&path);
            assert!(err.is_none(), "{err:?}");
            assert!(WINDOW_SIDES.contains(&s.window.width), "{width}");
            assert!(WINDOW_SIDES.contains(&s.window.height), "{height}");
            if WINDOW_SIDES.contains(&width) {
                assert_eq!(s.window.width, width);
            } else {
                assert_eq!(s.window.width, defaults.window.width);
            }
            assert!(s.window.maximized);
            assert_eq!(s.new_match.length, defaults.new_match.length);
            assert!(!s.new_match.crawford);
            assert_eq!(s.analysis_plies, defaults.analysis_plies);
            assert_eq!(s.player_name, "Bo");
        }
        fs::write(
            &path,
            "(window: (width: 1200, height: 900), new_match: (length: 64))",
        )
        .unwrap();
        let (s, _) = Settings::load(&path);
        assert_eq!((s.window.width, s.window.height), (1200, 900));
        assert_eq!(s.new_match.length, MAX_MATCH_LENGTH);
    }

    #[test]
    fn corrupt_file_is_reported_and_replaced() {
        let dir = ScratchDir::new("gtk-corrupt");
        let path = dir.join(FILE_NAME);
        fs::write(&path, "(player_name: \"unterminated").unwrap();
        let (s, err) = Settings::load_or_repair(&path);
        assert!(matches!(err, Some(SettingsError::Parse { .. })), "{err:?}");
        assert_eq!(s, Settings::default());
        // The broken file was kept aside and valid defaults written.
        assert!(dir.join(format!("{FILE_NAME}.broken")).exists());
        let (again, err) = Settings::load(&path);
        assert!(err.is_none());
        assert_eq!(again, Settings::default());
        // Bad values inside a valid file fall back per value.
        fs::write(&path, "(level: \"wizard\", colours: (player: \"red\"))").unwrap();
        let (s, err) = Settings::load(&path);
        assert!(err.is_none());
        assert_eq!(s.level(), Level::Expert);
        assert_eq!(
            s.colours.colours().checkers[0],
            Colours::default().checkers[0]
        );
    }

    /// Saving never writes through a link planted where the temporary file used to be named,
    /// and a settings file that is not a regular file is neither read nor replaced.
    #[cfg(unix)]
    #[test]
    fn saving_never_follows_a_planted_link_nor_replaces_a_fifo() {
        let dir = ScratchDir::new("gtk-links");
        let victim = dir.join("victim");
        fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join(format!("{FILE_NAME}.tmp"))).unwrap();
        let path = dir.join(FILE_NAME);
        Settings::default().save(&path).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert!(fs::symlink_metadata(&path).unwrap().is_file());

        let fifo = dir.join("fifo.ron");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let (_, err) = Settings::load(&fifo);
        assert!(matches!(err, Some(SettingsError::Io { .. })), "{err:?}");
        let err = Settings::default().save(&fifo).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
}
