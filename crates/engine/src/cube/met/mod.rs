//! Match equity tables (METs): the chance of winning a match from a given score, before a game
//! starts, and everything derived from it — the match winning chance (MWC) after a game result,
//! gammon prices, and the conversions between MWC and normalised equity (EMG / NEMG).
//!
//! # Tables
//!
//! A [`MatchEquityTable`] holds, like GNU Backgammon (`matchequity.c`), up to [`MAX_AWAY`] points
//! for each player:
//!
//! * the **pre-Crawford** table: `pre[i][j]` is the MWC of player 0 when player 0 needs `i`
//!   points and player 1 needs `j` points. The row and column for 1-away hold the MWC **at the
//!   start of the Crawford game**;
//! * one **post-Crawford** table per player: `post[p][n]` is the MWC of player `p` as the
//!   *trailer*, needing `n` points, when the leader needs 1 point and the Crawford game is over
//!   (`post[p][1]` is double match point, 0.5 for symmetric tables).
//!
//! Explicit tables shorter than [`MAX_AWAY`] are extended the way GNU Backgammon extends them
//! (docs/CUBE.md §Extending a table): the post-Crawford tables keep their first
//! `length − 1` entries and continue with Zadeh's recurrence (trailer gammon rate 0.25, free-drop
//! corrections 0.015 at 2-away and 0.004 at 4-away); the pre-Crawford table is completed with
//! David Montgomery's normal approximation for every row (and, mirrored, column) beyond the
//! native size.
//!
//! # Which table a score uses
//!
//! [`MatchEquityTable::mwc_after`] follows GNU Backgammon's `getME`: if the game being scored is
//! the Crawford game, or is already a post-Crawford game, the result is read from the
//! post-Crawford table; otherwise from the pre-Crawford table — also when the result *creates* a
//! 1-away score, because the next game is then the Crawford game. [`MatchEquityTable::mwc_at_score`]
//! (GNU Backgammon's `getMEAtScore`) reads the post-Crawford table only in a post-Crawford game.
//!
//! # Normalised equity
//!
//! For the player on roll, with cube value `c`, let `W` be the MWC after winning `c` points and
//! `L` the MWC after losing `c` points. The appendix of the GNU Backgammon manual defines the
//! normalised money game equity as `NEMG = 2·(MWC − L)/(W − L) − 1`; its code (`mwc2eq`) computes
//! the equivalent-to-money-game equity as `EMG = (2·MWC − (W + L))/(W − L)`. The two are the same
//! linear map (`MWC = L` ↦ −1, `MWC = W` ↦ +1); [`MwcScale`] implements both names
//! (docs/CUBE.md §Units).
//!
//! # Files
//!
//! * GNU Backgammon's XML format (`met.dtd`): explicit tables, and the parameter tables of types
//!   `zadeh` (Zadeh's formulae) and `mec` (Claes Thornberg's match equity calculator) — see
//!   [`MatchEquityTable::from_gnubg_xml`]. Malformed files are rejected with the reason and the
//!   line and column.
//! * Cubeful's own text format (`data/met/*.met`), used for the embedded default table
//!   Kazaross-XG2 — see [`MatchEquityTable::from_met_text`] for the grammar.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use thiserror::Error;

use crate::game::match_state::{MatchState, Player};

mod generate;
mod text;
mod xml;

use generate::build;
use text::parse_text;
use xml::parse_xml;

/// The largest away score a table covers (GNU Backgammon's `MAXSCORE`). Scores further away are
/// looked up as if the player needed `MAX_AWAY` points.
pub const MAX_AWAY: usize = 64;

/// The longest table file read: GNU Backgammon's tables are under 20 KB, so 16 MiB is ample,
/// and a device or a huge file is refused before it is read.
const MAX_MET_FILE_BYTES: u64 = 16 << 20;

/// Reads a table file: a regular file of at most [`MAX_MET_FILE_BYTES`].
fn read_met_file(path: &Path) -> Result<Vec<u8>, MetError> {
    crate::files::read_regular(path, MAX_MET_FILE_BYTES).map_err(|e| MetError::Io {
        path: path.to_path_buf(),
        source: e.into_reason(),
    })
}

/// Gammon rate of the trailer in the post-Crawford extension (GNU Backgammon's `GAMMONRATE`).
const EXTENSION_GAMMON_RATE: f64 = 0.25;
/// Free-drop corrections of the post-Crawford extension, at 2-away and 4-away.
const EXTENSION_FREE_DROP: (f64, f64) = (0.015, 0.004);

/// The project's default table, in the project's own text format.
const DEFAULT_TABLE_TEXT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/met/kazaross-xg2.met"
));

/// First line of a table in Cubeful's text format.
const TEXT_MAGIC: &str = "cubeful-met 1";

/// Which file format an error refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MetFormat {
    /// GNU Backgammon's XML format (`met.dtd`).
    GnubgXml,
    /// Cubeful's own text format (`data/met/*.met`).
    Text,
}

impl fmt::Display for MetFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MetFormat::GnubgXml => "GNU Backgammon XML",
            MetFormat::Text => "Cubeful text",
        })
    }
}

/// Why a match equity table could not be loaded.
#[derive(Debug, Error)]
pub enum MetError {
    /// The file could not be read.
    #[error("cannot read match equity table {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file is not a valid table. `line` and `column` are 1-based (column in characters).
    #[error("malformed {format} match equity table at line {line}, column {column}: {reason}")]
    Malformed {
        format: MetFormat,
        line: usize,
        column: usize,
        reason: String,
    },
}

/// How a table (or one of its parts) was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Numbers given in the file.
    Explicit,
    /// Generated by Zadeh's formulae (GNU Backgammon's `zadeh` type).
    Zadeh,
    /// Generated by Claes Thornberg's match equity calculator (GNU Backgammon's `mec` type).
    Mec,
}

impl TableKind {
    fn from_attr(value: &str) -> Option<TableKind> {
        match value {
            "explicit" => Some(TableKind::Explicit),
            "zadeh" => Some(TableKind::Zadeh),
            "mec" => Some(TableKind::Mec),
            _ => None,
        }
    }

    /// The name GNU Backgammon's XML uses for this kind.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Explicit => "explicit",
            TableKind::Zadeh => "zadeh",
            TableKind::Mec => "mec",
        }
    }
}

/// The score of a match, as far as match equities are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchScore {
    /// Match length in points (at least 1).
    pub length: u16,
    /// Points won so far by player 0 and player 1.
    pub score: [u16; 2],
    /// The current game is the Crawford game.
    pub crawford: bool,
}

impl MatchScore {
    /// A score. `crawford` marks the Crawford game itself.
    pub fn new(length: u16, score: [u16; 2], crawford: bool) -> MatchScore {
        MatchScore {
            length,
            score,
            crawford,
        }
    }

    /// The score of a match state; `None` for a money session.
    pub fn from_state(state: &MatchState) -> Option<MatchScore> {
        (!state.is_money())
            .then(|| MatchScore::new(state.match_length, state.score, state.crawford))
    }

    /// Points player `p` still needs (0 once the match is won).
    pub fn away(&self, p: Player) -> u16 {
        self.length.saturating_sub(self.score[p.index()])
    }

    /// A game after the Crawford game: someone is 1-away and this is not the Crawford game.
    pub fn is_post_crawford(&self) -> bool {
        !self.crawford
            && self.away(Player::Zero) > 0
            && self.away(Player::One) > 0
            && (self.away(Player::Zero) == 1 || self.away(Player::One) == 1)
    }
}

/// Gammon and backgammon prices at a score and cube (GNU Backgammon's `getGammonPrice`),
/// indexed by player. A price is the extra normalised equity a gammon (backgammon) is worth over
/// a single win (gammon): 1 and 1 in money play. Prices are floored at 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GammonPrices {
    pub gammon: [f64; 2],
    pub backgammon: [f64; 2],
}

/// MWCs of one player after the game ends, for the three sizes of a win and of a loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcomes {
    /// After winning 1, 2 and 3 times the cube.
    pub win: [f64; 3],
    /// After losing 1, 2 and 3 times the cube.
    pub lose: [f64; 3],
}

/// The linear map between match winning chance and normalised equity at one score and cube,
/// for one player: `lose` (the MWC after losing the cube value) maps to −1, `win` (after winning
/// it) to +1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MwcScale {
    /// MWC after winning the cube value.
    pub win: f64,
    /// MWC after losing the cube value.
    pub lose: f64,
}

impl MwcScale {
    /// The scale of `player` at `score` with the cube at `cube`.
    pub fn new(met: &MatchEquityTable, score: &MatchScore, player: Player, cube: u32) -> MwcScale {
        MwcScale {
            win: met.mwc_after(score, player, player, cube),
            lose: met.mwc_after(score, player, player.other(), cube),
        }
    }

    fn span(&self) -> f64 {
        self.win - self.lose
    }

    /// EMG of an MWC (docs/CUBE.md §Units, GNU Backgammon's `mwc2eq`):
    /// `(2·MWC − (W + L)) / (W − L)`. 0 if `W = L` (a degenerate scale).
    pub fn emg(&self, mwc: f64) -> f64 {
        if self.span().abs() < 1e-12 {
            return 0.0;
        }
        (2.0 * mwc - (self.win + self.lose)) / self.span()
    }

    /// MWC of an EMG (`eq2mwc`): `(EMG·(W − L) + (W + L)) / 2`.
    pub fn mwc(&self, emg: f64) -> f64 {
        0.5 * (emg * self.span() + (self.win + self.lose))
    }

    /// NEMG of an MWC as the manual's appendix defines it: `2·(MWC − L)/(W − L) − 1`
    /// (algebraically equal to [`MwcScale::emg`]).
    pub fn nemg(&self, mwc: f64) -> f64 {
        if self.span().abs() < 1e-12 {
            return 0.0;
        }
        2.0 * (mwc - self.lose) / self.span() - 1.0
    }

    /// MWC of a NEMG: `L + (NEMG + 1)·(W − L)/2`.
    pub fn mwc_from_nemg(&self, nemg: f64) -> f64 {
        self.lose + (nemg + 1.0) * self.span() / 2.0
    }

    /// A standard error (or any difference) in MWC converted to EMG: `× 2/(W − L)`.
    pub fn emg_difference(&self, mwc_difference: f64) -> f64 {
        if self.span().abs() < 1e-12 {
            return 0.0;
        }
        2.0 * mwc_difference / self.span()
    }

    /// A standard error (or any difference) in EMG converted to MWC: `× (W − L)/2`.
    pub fn mwc_difference(&self, emg_difference: f64) -> f64 {
        emg_difference * self.span() / 2.0
    }
}

/// A match equity table, extended to [`MAX_AWAY`] points. See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchEquityTable {
    name: String,
    description: String,
    source: String,
    pre_kind: TableKind,
    post_kind: [TableKind; 2],
    /// The explicit numbers as given (pre-Crawford rows, post-Crawford rows per player, whether
    /// one post-Crawford row serves both players); `None` for formula tables.
    native: Option<Native>,
    /// `pre[i][j]`: player 0's MWC needing `i + 1` against `j + 1`.
    pre: Box<[[f64; MAX_AWAY]; MAX_AWAY]>,
    /// `post[p][n]`: player `p`'s MWC as trailer needing `n + 1`, post-Crawford.
    post: [[f64; MAX_AWAY]; 2],
}

#[derive(Clone, Debug, PartialEq)]
struct Native {
    length: usize,
    pre: Vec<Vec<f64>>,
    post: [Vec<f64>; 2],
    post_both: bool,
}

impl Default for MatchEquityTable {
    /// The default table, Kazaross-XG2 (see [`MatchEquityTable::kazaross_xg2`]).
    fn default() -> MatchEquityTable {
        MatchEquityTable::kazaross_xg2().clone()
    }
}

impl MatchEquityTable {
    /// The default table: Neil Kazaross' XG2 25-point table, GNU Backgammon's default since
    /// version 1.00, from the project's data file `data/met/kazaross-xg2.met` (compiled in).
    pub fn kazaross_xg2() -> &'static MatchEquityTable {
        static TABLE: OnceLock<MatchEquityTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            MatchEquityTable::from_met_text(DEFAULT_TABLE_TEXT)
                .expect("the embedded data/met/kazaross-xg2.met is valid")
        })
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The table's description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Where the numbers come from (Cubeful's text format only; empty otherwise).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Attaches a provenance note (written by [`MatchEquityTable::to_met_text`]).
    pub fn with_source(mut self, source: impl Into<String>) -> MatchEquityTable {
        self.source = source.into().replace(['\n', '\r'], " ");
        self
    }

    /// Native length of an explicit table; `None` for a table generated by formula.
    pub fn native_length(&self) -> Option<usize> {
        self.native.as_ref().map(|n| n.length)
    }

    /// How the pre-Crawford table was obtained.
    pub fn pre_crawford_kind(&self) -> TableKind {
        self.pre_kind
    }

    /// How the post-Crawford table of `trailer` was obtained.
    pub fn post_crawford_kind(&self, trailer: Player) -> TableKind {
        self.post_kind[trailer.index()]
    }

    /// Pre-Crawford MWC of player 0 when player 0 needs `away0` points and player 1 needs
    /// `away1`. A player who needs 0 points has won (1.0 or 0.0). Aways above [`MAX_AWAY`] are
    /// read as `MAX_AWAY`.
    pub fn pre_crawford(&self, away0: usize, away1: usize) -> f64 {
        if away0 == 0 {
            return 1.0;
        }
        if away1 == 0 {
            return 0.0;
        }
        self.pre[away0.min(MAX_AWAY) - 1][away1.min(MAX_AWAY) - 1]
    }

    /// Post-Crawford MWC of `trailer`, who needs `away` points while the opponent needs 1.
    /// `away = 0` means the trailer has won (1.0). Aways above [`MAX_AWAY`] are read as
    /// `MAX_AWAY`.
    pub fn post_crawford(&self, trailer: Player, away: usize) -> f64 {
        if away == 0 {
            return 1.0;
        }
        self.post[trailer.index()][away.min(MAX_AWAY) - 1]
    }

    /// MWC of `player` from the aways of both players, in the Crawford game or before it
    /// (`post_crawford == false`) or after it.
    fn mwc_of_aways(&self, away: [i64; 2], player: Player, post_crawford: bool) -> f64 {
        match self.lookup(away, player, post_crawford) {
            AwayLookup::Won => 1.0,
            AwayLookup::Lost => 0.0,
            AwayLookup::Entry(m) => m,
            AwayLookup::Complement(m) => 1.0 - m,
        }
    }

    /// Where the MWC of `player` at these aways comes from: a finished match, or one table entry
    /// (player 0's pre-Crawford MWC, or the post-Crawford trailer's) taken as it is or as `1 − `
    /// it. Callers that must round as GNU Backgammon does (single precision) complement the
    /// entry in their own precision.
    pub(crate) fn lookup(&self, away: [i64; 2], player: Player, post_crawford: bool) -> AwayLookup {
        let mine = player.index();
        if away[mine] <= 0 {
            return AwayLookup::Won;
        }
        if away[1 - mine] <= 0 {
            return AwayLookup::Lost;
        }
        let a = [away[0] as usize, away[1] as usize];
        if post_crawford && (a[0] == 1 || a[1] == 1) {
            // The trailer's own table (with both at 1-away, double match point: the table of the
            // player asked about).
            let trailer = if a[0] == 1 && a[1] != 1 {
                Player::One
            } else if a[1] == 1 && a[0] != 1 {
                Player::Zero
            } else {
                player
            };
            let m = self.post_crawford(trailer, a[trailer.index()]);
            if trailer == player {
                AwayLookup::Entry(m)
            } else {
                AwayLookup::Complement(m)
            }
        } else {
            let m0 = self.pre_crawford(a[0], a[1]);
            match player {
                Player::Zero => AwayLookup::Entry(m0),
                Player::One => AwayLookup::Complement(m0),
            }
        }
    }

    /// MWC of `player` at the start of a game at `score` (GNU Backgammon's `getMEAtScore`): the
    /// post-Crawford table in a post-Crawford game, the pre-Crawford table otherwise (including
    /// the Crawford game, whose equity is the pre-Crawford table's 1-away row).
    pub fn mwc_at_score(&self, score: &MatchScore, player: Player) -> f64 {
        let away = [
            i64::from(score.away(Player::Zero)),
            i64::from(score.away(Player::One)),
        ];
        self.mwc_of_aways(away, player, score.is_post_crawford())
    }

    /// MWC of `player` after `winner` wins `points` points in the game at `score` (GNU
    /// Backgammon's `getME`): post-Crawford table if this game is the Crawford game or later,
    /// pre-Crawford table otherwise.
    pub fn mwc_after(
        &self,
        score: &MatchScore,
        player: Player,
        winner: Player,
        points: u32,
    ) -> f64 {
        let mut away = [
            i64::from(score.away(Player::Zero)),
            i64::from(score.away(Player::One)),
        ];
        let post = score.crawford || away[0] == 1 || away[1] == 1;
        away[winner.index()] -= i64::from(points);
        self.mwc_of_aways(away, player, post)
    }

    /// MWCs of `player` after every game result with the cube at `cube`.
    pub fn outcomes(&self, score: &MatchScore, player: Player, cube: u32) -> Outcomes {
        let at = |winner: Player, k: u32| self.mwc_after(score, player, winner, k * cube);
        Outcomes {
            win: [1, 2, 3].map(|k| at(player, k)),
            lose: [1, 2, 3].map(|k| at(player.other(), k)),
        }
    }

    /// Gammon and backgammon prices at `score` with the cube at `cube` (docs/CUBE.md §Gammon
    /// prices): with `W₁, W₂, W₃` (`L₁, L₂, L₃`) player 0's MWC after winning (losing) 1, 2, 3
    /// cubes, gammon price of player 0 = `2(W₂ − W₁)/(W₁ − L₁)`, of player 1 =
    /// `2(L₁ − L₂)/(W₁ − L₁)`, backgammon prices `2(W₃ − W₂)/(W₁ − L₁)` and
    /// `2(L₂ − L₃)/(W₁ − L₁)`; all floored at 0, and all 0 when `|W₁ − L₁|/2 ≤ 10⁻⁷`.
    pub fn gammon_prices(&self, score: &MatchScore, cube: u32) -> GammonPrices {
        let o = self.outcomes(score, Player::Zero, cube);
        let half_span = (o.win[0] - o.lose[0]) / 2.0;
        if half_span.abs() <= 1e-7 {
            return GammonPrices {
                gammon: [0.0; 2],
                backgammon: [0.0; 2],
            };
        }
        let price = |v: f64| (v / half_span).max(0.0);
        GammonPrices {
            gammon: [price(o.win[1] - o.win[0]), price(o.lose[0] - o.lose[1])],
            backgammon: [price(o.win[2] - o.win[1]), price(o.lose[1] - o.lose[2])],
        }
    }

    /// The MWC ↔ normalised equity map of `player` at `score` with the cube at `cube`.
    pub fn scale(&self, score: &MatchScore, player: Player, cube: u32) -> MwcScale {
        MwcScale::new(self, score, player, cube)
    }

    /// EMG (= NEMG) of `player`'s MWC at `score` with the cube at `cube`.
    pub fn mwc_to_emg(&self, mwc: f64, score: &MatchScore, player: Player, cube: u32) -> f64 {
        self.scale(score, player, cube).emg(mwc)
    }

    /// MWC of `player`'s EMG (= NEMG) at `score` with the cube at `cube`.
    pub fn emg_to_mwc(&self, emg: f64, score: &MatchScore, player: Player, cube: u32) -> f64 {
        self.scale(score, player, cube).mwc(emg)
    }

    /// Loads a GNU Backgammon MET XML file. See [`MatchEquityTable::from_gnubg_xml`].
    pub fn load_gnubg_xml(path: impl AsRef<Path>) -> Result<MatchEquityTable, MetError> {
        let path = path.as_ref();
        let bytes = read_met_file(path)?;
        let text = decode_utf8(&bytes, MetFormat::GnubgXml)?;
        MatchEquityTable::from_gnubg_xml(text)
    }

    /// Loads a table in Cubeful's text format from a file. See
    /// [`MatchEquityTable::from_met_text`].
    pub fn load_met_text(path: impl AsRef<Path>) -> Result<MatchEquityTable, MetError> {
        let path = path.as_ref();
        let bytes = read_met_file(path)?;
        let text = decode_utf8(&bytes, MetFormat::Text)?;
        MatchEquityTable::from_met_text(text)
    }

    /// Parses a GNU Backgammon MET XML document (`met.dtd`):
    ///
    /// ```text
    /// <met>
    ///   <info><name>…</name><description>…</description><length>25</length></info>
    ///   <pre-crawford-table type="explicit|zadeh|mec"> <row><me>0.5</me>…</row>… | <parameters>…</parameters> </pre-crawford-table>
    ///   <post-crawford-table type="…" player="both|0|1"> <row>…</row> | <parameters>…</parameters> </post-crawford-table>+
    /// </met>
    /// ```
    ///
    /// Rules enforced (a violation is reported with line and column):
    /// * well-formed XML; only the elements of the DTD, in its order; text only in `name`,
    ///   `description`, `length`, `me` and `parameter`;
    /// * an explicit pre-Crawford table has exactly `length` rows of `length` numbers
    ///   (1 ≤ `length` ≤ 64); an explicit post-Crawford table has one row of at least
    ///   `length − 1` numbers (GNU Backgammon uses the first `length − 1` and extends the rest);
    /// * every number is finite and within [0, 1];
    /// * post-Crawford tables: one with `player="both"` (the default), or one each for players
    ///   `0` and `1`;
    /// * parameter tables use only their type's parameters (`zadeh`: `gammon-rate-leader`,
    ///   `gammon-rate-trailer`, `delta`, `delta-bar`; post-Crawford `zadeh`:
    ///   `gammon-rate-trailer`, `free-drop-2-away`, `free-drop-4-away`; `mec`: `gammon-rate`,
    ///   `win-rate`, and for post-Crawford also the two free drops); missing ones take GNU
    ///   Backgammon's defaults; a generated table must stay within [0, 1].
    ///
    /// Two deliberate differences from GNU Backgammon 1.08: a formula table (`length` −1) is
    /// used as generated for all 64 points (GNU Backgammon runs its explicit-table extension on
    /// it with length −1, which overwrites the whole generated table with the normal
    /// approximation); and `mec`'s 4-away free-drop correction lowers the trailer's MWC as it
    /// does at 2-away (`mec.c` adds it to both players).
    pub fn from_gnubg_xml(text: &str) -> Result<MatchEquityTable, MetError> {
        let doc = parse_xml(text)
            .map_err(|(pos, reason)| malformed(text, MetFormat::GnubgXml, pos, reason))?;
        build(doc).map_err(|(pos, reason)| malformed(text, MetFormat::GnubgXml, pos, reason))
    }

    /// Parses a table in Cubeful's own text format (used for `data/met/kazaross-xg2.met`):
    ///
    /// ```text
    /// cubeful-met 1
    /// # comment lines start with '#'; blank lines are ignored
    /// name = Kazaross XG2 25 point MET
    /// description = …            (optional)
    /// source = …                 (optional: provenance)
    /// length = 25                (1 ..= 64)
    /// [pre-crawford]
    /// 0.5 0.67736 …              (length lines of length numbers: the player needing 1, 2, …
    ///                             points against an opponent needing 1, 2, … points)
    /// [post-crawford both]       (or one section each: [post-crawford 0], [post-crawford 1])
    /// 0.5 0.48803 …              (one line, at least length − 1 numbers: the trailer needing
    ///                             1, 2, … points against a leader at 1-away, after Crawford)
    /// ```
    ///
    /// The numbers are used as an explicit GNU Backgammon table of the same length: extended to
    /// 64 points the same way.
    pub fn from_met_text(text: &str) -> Result<MatchEquityTable, MetError> {
        parse_text(text).map_err(|(pos, reason)| malformed(text, MetFormat::Text, pos, reason))
    }

    /// Writes the table in Cubeful's text format. An explicit table is written at its native
    /// length with its numbers as given; a formula table as an explicit 64-point table.
    pub fn to_met_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        out.push_str(TEXT_MAGIC);
        out.push('\n');
        out.push_str("# Match equity table in Cubeful's text format (crates/engine/src/met.rs).\n");
        let _ = writeln!(out, "name = {}", one_line(&self.name));
        if !self.description.is_empty() {
            let _ = writeln!(out, "description = {}", one_line(&self.description));
        }
        if !self.source.is_empty() {
            let _ = writeln!(out, "source = {}", one_line(&self.source));
        }
        let (length, pre, post, both): (usize, Vec<Vec<f64>>, [Vec<f64>; 2], bool) =
            match &self.native {
                Some(n) => (n.length, n.pre.clone(), n.post.clone(), n.post_both),
                None => (
                    MAX_AWAY,
                    self.pre.iter().map(|r| r.to_vec()).collect(),
                    [self.post[0].to_vec(), self.post[1].to_vec()],
                    self.post[0] == self.post[1],
                ),
            };
        let _ = writeln!(out, "length = {length}");
        let line = |v: &[f64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        out.push_str("[pre-crawford]\n");
        for row in &pre {
            out.push_str(&line(row));
            out.push('\n');
        }
        if both {
            out.push_str("[post-crawford both]\n");
            out.push_str(&line(&post[0]));
            out.push('\n');
        } else {
            for (p, row) in post.iter().enumerate() {
                let _ = writeln!(out, "[post-crawford {p}]");
                out.push_str(&line(row));
                out.push('\n');
            }
        }
        out
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn decode_utf8(bytes: &[u8], format: MetFormat) -> Result<&str, MetError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
        let (line, column) = line_column(valid, valid.len());
        MetError::Malformed {
            format,
            line,
            column,
            reason: "the file is not valid UTF-8".to_string(),
        }
    })
}

/// 1-based line and column (in characters) of byte offset `pos` in `text`.
fn line_column(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// Longest reason given in a [`MetError::Malformed`], in characters.
const REASON_CHARS: usize = 200;

/// A reason on one short line: runs of white space (line breaks of quoted file text included)
/// become one space, other control characters are escaped, and a long reason is cut.
fn tidy_reason(reason: &str) -> String {
    let mut out = String::new();
    for (i, c) in one_line(reason).chars().enumerate() {
        if i == REASON_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.push_str(&c.escape_default().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

fn malformed(text: &str, format: MetFormat, pos: usize, reason: String) -> MetError {
    // Point at the next non-blank character: event offsets may include leading whitespace.
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let skip = text[pos..]
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map_or(text.len() - pos, |(i, _)| i);
    let (line, column) = line_column(text, pos + skip);
    MetError::Malformed {
        format,
        line,
        column,
        reason: tidy_reason(&reason),
    }
}

/// An error during parsing: byte offset and reason.
type Located = (usize, String);

/// The source of a MWC at given aways ([`MatchEquityTable::lookup`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum AwayLookup {
    /// The player has won the match.
    Won,
    /// The player has lost the match.
    Lost,
    /// The player's MWC is this table entry.
    Entry(f64),
    /// The player's MWC is one minus this table entry.
    Complement(f64),
}

#[cfg(test)]
mod tests {
    use super::generate::{erfc, extend_post_crawford, normal_cdf};
    use super::*;

    #[test]
    fn erfc_matches_known_values() {
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
        assert!((erfc(1.0) - 0.157_299_207_050_285_1).abs() < 1e-7);
        assert!((erfc(-1.0) - 1.842_700_792_949_715).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-7);
    }

    #[test]
    fn reasons_are_one_short_line() {
        let reason = tidy_reason("expected `</me>`, but `</\n me>` was found");
        assert_eq!(reason, "expected `</me>`, but `</ me>` was found");
        let long = tidy_reason(&format!("not a number: \"{}\0\"", "0.6>".repeat(600)));
        assert!(
            long.chars().count() <= REASON_CHARS + 1 && long.ends_with('…'),
            "{long}"
        );
        assert_eq!(tidy_reason("a\0b"), "a\\u{0}b");
    }

    #[test]
    fn line_columns() {
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("ab\ncd", 0), (1, 1));
    }

    #[test]
    fn default_table_loads() {
        let met = MatchEquityTable::kazaross_xg2();
        assert_eq!(met.native_length(), Some(25));
        assert!((met.pre_crawford(1, 2) - 0.67736).abs() < 1e-12);
        assert!((met.post_crawford(Player::Zero, 2) - 0.48803).abs() < 1e-12);
    }

    #[test]
    fn zadeh_post_crawford_matches_recurrence() {
        let mut pc = [0.0; MAX_AWAY];
        extend_post_crawford(&mut pc, 0, 0.25, 0.015, 0.004);
        assert!((pc[0] - 0.5).abs() < 1e-12);
        assert!((pc[1] - (0.5 - 0.015)).abs() < 1e-12);
        // 3-away: ½(0.25·1 + 0.75·0.5)
        assert!((pc[2] - 0.3125).abs() < 1e-12);
    }

    #[test]
    fn crawford_scoring_uses_post_crawford_table() {
        let met = MatchEquityTable::kazaross_xg2();
        // Crawford game at 1-away/3-away (5-point match, 4-2): the trailer wins 1 point → 1-away,
        // 2-away after Crawford.
        let s = MatchScore::new(5, [4, 2], true);
        let m = met.mwc_after(&s, Player::One, Player::One, 1);
        assert!((m - met.post_crawford(Player::One, 2)).abs() < 1e-12);
        // Before Crawford (3-2 to 5): winning 1 point makes 1-away — read from the pre-Crawford
        // table's Crawford row.
        let s = MatchScore::new(5, [3, 2], false);
        let m = met.mwc_after(&s, Player::Zero, Player::Zero, 1);
        assert!((m - met.pre_crawford(1, 3)).abs() < 1e-12);
    }
}
