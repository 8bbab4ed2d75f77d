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
//! (`shared/docs/formats.md` §5, `analysis.md` §5): the post-Crawford tables keep their first
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
//! normalised money game equity as `NEMG = 2·(MWC − L)/(W − L) − 1`; `analysis.md` §2.2 defines
//! the equivalent-to-money-game equity as `EMG = (2·MWC − (W + L))/(W − L)`. The two are the same
//! linear map (`MWC = L` ↦ −1, `MWC = W` ↦ +1); [`MwcScale`] implements both names.
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

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use thiserror::Error;

use crate::match_state::{MatchState, Player};

/// The largest away score a table covers (GNU Backgammon's `MAXSCORE`). Scores further away are
/// looked up as if the player needed `MAX_AWAY` points.
pub const MAX_AWAY: usize = 64;

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

    /// EMG of an MWC (analysis.md §2.2, GNU Backgammon's `mwc2eq`):
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
        let mine = player.index();
        if away[mine] <= 0 {
            return 1.0;
        }
        if away[1 - mine] <= 0 {
            return 0.0;
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
                m
            } else {
                1.0 - m
            }
        } else {
            let m0 = self.pre_crawford(a[0], a[1]);
            match player {
                Player::Zero => m0,
                Player::One => 1.0 - m0,
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

    /// Gammon and backgammon prices at `score` with the cube at `cube` (analysis.md §5):
    /// with `W₁, W₂, W₃` (`L₁, L₂, L₃`) player 0's MWC after winning (losing) 1, 2, 3 cubes,
    /// gammon price of player 0 = `2(W₂ − W₁)/(W₁ − L₁)`, of player 1 = `2(L₁ − L₂)/(W₁ − L₁)`,
    /// backgammon prices `2(W₃ − W₂)/(W₁ − L₁)` and `2(L₂ − L₃)/(W₁ − L₁)`; all floored at 0, and
    /// all 0 when `|W₁ − L₁|/2 ≤ 10⁻⁷`.
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
        let bytes = std::fs::read(path).map_err(|source| MetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let text = decode_utf8(&bytes, MetFormat::GnubgXml)?;
        MatchEquityTable::from_gnubg_xml(text)
    }

    /// Loads a table in Cubeful's text format from a file. See
    /// [`MatchEquityTable::from_met_text`].
    pub fn load_met_text(path: impl AsRef<Path>) -> Result<MatchEquityTable, MetError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| MetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
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
        reason,
    }
}

/// An error during parsing: byte offset and reason.
type Located = (usize, String);

// ---------------------------------------------------------------------------------------------
// The parsed content of a file, before the tables are built.

/// Which player a post-Crawford table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PostPlayer {
    Both,
    One(Player),
}

#[derive(Clone, Debug)]
struct TableSpec {
    kind: TableKind,
    rows: Vec<Vec<f64>>,
    params: Vec<(String, f64)>,
    player: PostPlayer,
    /// Byte offset of the table's start, for errors found while building.
    pos: usize,
}

#[derive(Clone, Debug, Default)]
struct Document {
    name: Option<String>,
    description: Option<String>,
    source: Option<String>,
    /// Declared length and its offset.
    length: Option<(i64, usize)>,
    pre: Option<TableSpec>,
    posts: Vec<TableSpec>,
    /// Offset of the root element (for errors about missing parts).
    root: usize,
}

// ---------------------------------------------------------------------------------------------
// GNU Backgammon XML.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    Met,
    Info,
    Name,
    Description,
    Length,
    Pre,
    Post,
    Row,
    Me,
    Parameters,
    Parameter,
}

impl Tag {
    fn from_name(name: &[u8]) -> Option<Tag> {
        Some(match name {
            b"met" => Tag::Met,
            b"info" => Tag::Info,
            b"name" => Tag::Name,
            b"description" => Tag::Description,
            b"length" => Tag::Length,
            b"pre-crawford-table" => Tag::Pre,
            b"post-crawford-table" => Tag::Post,
            b"row" => Tag::Row,
            b"me" => Tag::Me,
            b"parameters" => Tag::Parameters,
            b"parameter" => Tag::Parameter,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Tag::Met => "met",
            Tag::Info => "info",
            Tag::Name => "name",
            Tag::Description => "description",
            Tag::Length => "length",
            Tag::Pre => "pre-crawford-table",
            Tag::Post => "post-crawford-table",
            Tag::Row => "row",
            Tag::Me => "me",
            Tag::Parameters => "parameters",
            Tag::Parameter => "parameter",
        }
    }

    /// Elements allowed directly inside `parent` (`None`: the document itself).
    fn allowed_in(self, parent: Option<Tag>) -> bool {
        matches!(
            (parent, self),
            (None, Tag::Met)
                | (Some(Tag::Met), Tag::Info | Tag::Pre | Tag::Post)
                | (Some(Tag::Info), Tag::Name | Tag::Description | Tag::Length)
                | (Some(Tag::Pre | Tag::Post), Tag::Row | Tag::Parameters)
                | (Some(Tag::Row), Tag::Me)
                | (Some(Tag::Parameters), Tag::Parameter)
        )
    }

    fn has_text(self) -> bool {
        matches!(
            self,
            Tag::Name | Tag::Description | Tag::Length | Tag::Me | Tag::Parameter
        )
    }
}

/// Reading state of the XML walk.
#[derive(Default)]
struct XmlState {
    doc: Document,
    stack: Vec<Tag>,
    seen_root: bool,
    text: String,
    table: Option<TableSpec>,
    row: Vec<f64>,
    param_name: Option<String>,
}

fn attributes(e: &BytesStart<'_>, pos: usize) -> Result<Vec<(String, String)>, Located> {
    let mut out = Vec::new();
    for attr in e.attributes() {
        let attr = attr.map_err(|err| (pos, format!("bad attribute: {err}")))?;
        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
        let value = attr
            .unescape_value()
            .map_err(|err| (pos, format!("bad value of attribute {key}: {err}")))?
            .into_owned();
        out.push((key, value));
    }
    Ok(out)
}

fn parse_number(text: &str, what: &str, pos: usize) -> Result<f64, Located> {
    let t = text.trim();
    // Plain decimal numbers only (no "inf", "nan", hexadecimal or signs other than '-', '+').
    let plain = !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    match t.parse::<f64>() {
        Ok(v) if plain && v.is_finite() => Ok(v),
        _ => Err((pos, format!("{what} is not a number: {t:?}"))),
    }
}

fn parse_probability(text: &str, what: &str, pos: usize) -> Result<f64, Located> {
    let v = parse_number(text, what, pos)?;
    if (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err((pos, format!("{what} {v} is outside [0, 1]")))
    }
}

impl XmlState {
    fn start(&mut self, e: &BytesStart<'_>, pos: usize) -> Result<(), Located> {
        let raw = e.name();
        let parent = self.stack.last().copied();
        let tag = Tag::from_name(raw.as_ref()).ok_or_else(|| {
            let name = String::from_utf8_lossy(raw.as_ref()).into_owned();
            match parent {
                Some(p) => (
                    pos,
                    format!("unexpected element <{name}> inside <{}>", p.name()),
                ),
                None => (pos, format!("the root element must be <met>, not <{name}>")),
            }
        })?;
        if !tag.allowed_in(parent) {
            return Err(match parent {
                Some(p) => (
                    pos,
                    format!(
                        "element <{}> is not allowed inside <{}>",
                        tag.name(),
                        p.name()
                    ),
                ),
                None => (
                    pos,
                    format!("the root element must be <met>, not <{}>", tag.name()),
                ),
            });
        }
        let doc = &mut self.doc;
        match tag {
            Tag::Met => {
                if self.seen_root {
                    return Err((pos, "a second root element".to_string()));
                }
                self.seen_root = true;
                doc.root = pos;
            }
            Tag::Info => {
                if doc.name.is_some() || doc.length.is_some() || doc.pre.is_some() {
                    return Err((pos, "<info> must come first, once".to_string()));
                }
            }
            Tag::Name | Tag::Description | Tag::Length => {
                let dup = match tag {
                    Tag::Name => doc.name.is_some(),
                    Tag::Description => doc.description.is_some(),
                    _ => doc.length.is_some(),
                };
                if dup {
                    return Err((pos, format!("<{}> given twice", tag.name())));
                }
            }
            Tag::Pre | Tag::Post => {
                if doc.name.is_none() && doc.length.is_none() {
                    return Err((pos, format!("<{}> before <info>", tag.name())));
                }
                if tag == Tag::Pre && (doc.pre.is_some() || !doc.posts.is_empty()) {
                    return Err((
                        pos,
                        "<pre-crawford-table> must come once, before the post-Crawford tables"
                            .to_string(),
                    ));
                }
                if tag == Tag::Post && doc.pre.is_none() {
                    return Err((
                        pos,
                        "<post-crawford-table> before <pre-crawford-table>".to_string(),
                    ));
                }
                let mut kind = TableKind::Explicit;
                let mut player = PostPlayer::Both;
                for (key, value) in attributes(e, pos)? {
                    match key.as_str() {
                        "type" => {
                            kind = TableKind::from_attr(&value).ok_or_else(|| {
                                (pos, format!("unknown table type {value:?} (expected explicit, zadeh or mec)"))
                            })?;
                        }
                        "player" if tag == Tag::Post => {
                            player = match value.as_str() {
                                "both" => PostPlayer::Both,
                                "0" => PostPlayer::One(Player::Zero),
                                "1" => PostPlayer::One(Player::One),
                                _ => {
                                    return Err((
                                        pos,
                                        format!("unknown player {value:?} (expected both, 0 or 1)"),
                                    ))
                                }
                            };
                        }
                        _ => {}
                    }
                }
                self.table = Some(TableSpec {
                    kind,
                    rows: Vec::new(),
                    params: Vec::new(),
                    player,
                    pos,
                });
            }
            Tag::Row => {
                let table = self
                    .table
                    .as_ref()
                    .ok_or((pos, "<row> outside a table".to_string()))?;
                if table.kind != TableKind::Explicit {
                    return Err((
                        pos,
                        format!("<row> in a table of type {}", table.kind.name()),
                    ));
                }
                if parent == Some(Tag::Post) && !table.rows.is_empty() {
                    return Err((pos, "a post-Crawford table has a single <row>".to_string()));
                }
                self.row.clear();
            }
            Tag::Parameters => {
                let table = self
                    .table
                    .as_ref()
                    .ok_or((pos, "<parameters> outside a table".to_string()))?;
                if table.kind == TableKind::Explicit {
                    return Err((pos, "<parameters> in an explicit table".to_string()));
                }
                if !table.params.is_empty() || !table.rows.is_empty() {
                    return Err((pos, "<parameters> given twice".to_string()));
                }
            }
            Tag::Parameter => {
                let name = attributes(e, pos)?
                    .into_iter()
                    .find(|(k, _)| k == "name")
                    .map(|(_, v)| v)
                    .ok_or((pos, "<parameter> without a name attribute".to_string()))?;
                self.param_name = Some(name);
            }
            Tag::Me => {}
        }
        self.text.clear();
        self.stack.push(tag);
        Ok(())
    }

    fn text(&mut self, content: &str, pos: usize) -> Result<(), Located> {
        match self.stack.last() {
            Some(tag) if tag.has_text() => {
                self.text.push_str(content);
                Ok(())
            }
            _ if content.trim().is_empty() => Ok(()),
            Some(tag) => Err((pos, format!("unexpected text inside <{}>", tag.name()))),
            None => Err((pos, "text outside the root element".to_string())),
        }
    }

    fn end(&mut self, pos: usize) -> Result<(), Located> {
        let tag = self
            .stack
            .pop()
            .ok_or((pos, "unbalanced end tag".to_string()))?;
        let text = std::mem::take(&mut self.text);
        let doc = &mut self.doc;
        match tag {
            Tag::Name => doc.name = Some(text.trim().to_string()),
            Tag::Description => doc.description = Some(text.trim().to_string()),
            Tag::Length => {
                let t = text.trim();
                let n = t
                    .parse::<i64>()
                    .map_err(|_| (pos, format!("<length> is not an integer: {t:?}")))?;
                doc.length = Some((n, pos));
            }
            Tag::Me => {
                let v = parse_probability(&text, "match equity", pos)?;
                self.row.push(v);
            }
            Tag::Row => {
                let row = std::mem::take(&mut self.row);
                if let Some(table) = self.table.as_mut() {
                    table.rows.push(row);
                }
            }
            Tag::Parameter => {
                let name = self.param_name.take().unwrap_or_default();
                let v = parse_number(&text, &format!("parameter {name}"), pos)?;
                if let Some(table) = self.table.as_mut() {
                    table.params.push((name, v));
                }
            }
            Tag::Pre | Tag::Post => {
                let table = self
                    .table
                    .take()
                    .ok_or((pos, "table state lost".to_string()))?;
                if tag == Tag::Pre {
                    doc.pre = Some(table);
                } else {
                    doc.posts.push(table);
                }
            }
            Tag::Met | Tag::Info | Tag::Parameters => {}
        }
        Ok(())
    }
}

fn parse_xml(text: &str) -> Result<Document, Located> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut state = XmlState::default();
    loop {
        let pos = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = reader.read_event().map_err(|e| {
            let at = usize::try_from(reader.error_position()).unwrap_or(pos);
            (at, format!("XML error: {e}"))
        })?;
        match event {
            Event::Start(e) => state.start(&e, pos)?,
            Event::Empty(e) => {
                state.start(&e, pos)?;
                state.end(pos)?;
            }
            Event::End(_) => state.end(pos)?,
            Event::Text(t) => {
                let content = t.unescape().map_err(|e| (pos, format!("XML error: {e}")))?;
                state.text(&content, pos)?;
            }
            Event::CData(t) => {
                let content = String::from_utf8_lossy(&t).into_owned();
                state.text(&content, pos)?;
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_) => {}
            Event::Eof => break,
        }
    }
    if let Some(tag) = state.stack.last() {
        return Err((
            text.len(),
            format!("the document ends inside <{}>", tag.name()),
        ));
    }
    if !state.seen_root {
        return Err((0, "no <met> element".to_string()));
    }
    Ok(state.doc)
}

// ---------------------------------------------------------------------------------------------
// Cubeful's text format.

fn parse_text(text: &str) -> Result<MatchEquityTable, Located> {
    enum Section {
        Header,
        Pre,
        Post,
    }
    let mut doc = Document::default();
    let mut section = Section::Header;
    let mut seen_magic = false;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let pos = offset;
        offset += raw.len();
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !seen_magic {
            if line != TEXT_MAGIC {
                return Err((pos, format!("the first line must be {TEXT_MAGIC:?}")));
            }
            seen_magic = true;
            doc.root = pos;
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let words: Vec<&str> = inner.split_whitespace().collect();
            section = match words.as_slice() {
                ["pre-crawford"] => {
                    if doc.pre.is_some() || !doc.posts.is_empty() {
                        return Err((
                            pos,
                            "[pre-crawford] must come once, before the post-Crawford tables"
                                .to_string(),
                        ));
                    }
                    doc.pre = Some(TableSpec {
                        kind: TableKind::Explicit,
                        rows: Vec::new(),
                        params: Vec::new(),
                        player: PostPlayer::Both,
                        pos,
                    });
                    Section::Pre
                }
                ["post-crawford", who] => {
                    if doc.pre.is_none() {
                        return Err((
                            pos,
                            "a post-Crawford table before [pre-crawford]".to_string(),
                        ));
                    }
                    let player = match *who {
                        "both" => PostPlayer::Both,
                        "0" => PostPlayer::One(Player::Zero),
                        "1" => PostPlayer::One(Player::One),
                        _ => {
                            return Err((
                                pos,
                                format!("unknown player {who:?} (expected both, 0 or 1)"),
                            ))
                        }
                    };
                    doc.posts.push(TableSpec {
                        kind: TableKind::Explicit,
                        rows: Vec::new(),
                        params: Vec::new(),
                        player,
                        pos,
                    });
                    Section::Post
                }
                _ => return Err((pos, format!("unknown section [{inner}]"))),
            };
            continue;
        }
        match section {
            Section::Header => {
                let (key, value) = line
                    .split_once('=')
                    .ok_or((pos, "expected `key = value`".to_string()))?;
                let (key, value) = (key.trim(), value.trim().to_string());
                let slot = match key {
                    "name" => &mut doc.name,
                    "description" => &mut doc.description,
                    "source" => &mut doc.source,
                    "length" => {
                        if doc.length.is_some() {
                            return Err((pos, "length given twice".to_string()));
                        }
                        let n = value
                            .parse::<i64>()
                            .map_err(|_| (pos, format!("length is not an integer: {value:?}")))?;
                        doc.length = Some((n, pos));
                        continue;
                    }
                    _ => return Err((pos, format!("unknown key {key:?}"))),
                };
                if slot.is_some() {
                    return Err((pos, format!("{key} given twice")));
                }
                *slot = Some(value);
            }
            Section::Pre | Section::Post => {
                let row = line
                    .split_whitespace()
                    .map(|w| parse_probability(w, "match equity", pos))
                    .collect::<Result<Vec<f64>, _>>()?;
                let table = match section {
                    Section::Pre => doc.pre.as_mut(),
                    _ => doc.posts.last_mut(),
                }
                .ok_or((pos, "numbers outside a table".to_string()))?;
                if matches!(section, Section::Post) && !table.rows.is_empty() {
                    return Err((pos, "a post-Crawford table has a single line".to_string()));
                }
                table.rows.push(row);
            }
        }
    }
    if !seen_magic {
        return Err((0, format!("the first line must be {TEXT_MAGIC:?}")));
    }
    match doc.length {
        Some((n, pos)) if !(1..=MAX_AWAY as i64).contains(&n) => {
            return Err((pos, format!("length {n} is outside 1..={MAX_AWAY}")))
        }
        None => return Err((text.len(), "no length given".to_string())),
        _ => {}
    }
    build(doc)
}

// ---------------------------------------------------------------------------------------------
// Building a table from a document.

/// Looks up the parameters of a formula table, with defaults; unknown names are errors.
fn params<const N: usize>(
    table: &TableSpec,
    names: [(&str, f64); N],
    what: &str,
) -> Result<[f64; N], Located> {
    let mut values = names.map(|(_, v)| v);
    let mut seen = [false; N];
    for (name, v) in &table.params {
        let i = names.iter().position(|(n, _)| n == name).ok_or_else(|| {
            let known: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            (
                table.pos,
                format!(
                    "unknown parameter {name:?} for a {what} table (known: {})",
                    known.join(", ")
                ),
            )
        })?;
        if seen[i] {
            return Err((table.pos, format!("parameter {name:?} given twice")));
        }
        seen[i] = true;
        values[i] = *v;
    }
    Ok(values)
}

fn check_rate(v: f64, name: &str, pos: usize) -> Result<(), Located> {
    if (0.0..=1.0).contains(&v) {
        Ok(())
    } else {
        Err((pos, format!("parameter {name} = {v} is outside [0, 1]")))
    }
}

fn build(doc: Document) -> Result<MatchEquityTable, Located> {
    let name = doc
        .name
        .clone()
        .ok_or((doc.root, "no <name> in <info>".to_string()))?;
    let pre_spec = doc
        .pre
        .as_ref()
        .ok_or((doc.root, "no pre-Crawford table".to_string()))?;
    let (declared, length_pos) = doc.length.unwrap_or((-1, doc.root));
    let explicit_length = if (1..=MAX_AWAY as i64).contains(&declared) {
        Some(declared as usize)
    } else {
        None
    };
    let needs_length = pre_spec.kind == TableKind::Explicit
        || doc.posts.iter().any(|p| p.kind == TableKind::Explicit);
    if needs_length && explicit_length.is_none() {
        return Err((
            length_pos,
            format!("an explicit table needs a <length> within 1..={MAX_AWAY}, not {declared}"),
        ));
    }

    if pre_spec.kind == TableKind::Explicit {
        let length = explicit_length.unwrap_or(1);
        if pre_spec.rows.len() != length {
            return Err((
                pre_spec.pos,
                format!(
                    "the pre-Crawford table has {} rows; length {length} needs {length}",
                    pre_spec.rows.len()
                ),
            ));
        }
        if let Some((i, row)) = pre_spec
            .rows
            .iter()
            .enumerate()
            .find(|(_, r)| r.len() != length)
        {
            return Err((
                pre_spec.pos,
                format!(
                    "row {} of the pre-Crawford table has {} entries; length {length} needs {length}",
                    i + 1,
                    row.len()
                ),
            ));
        }
    }
    if doc.posts.is_empty() {
        return Err((doc.root, "no post-Crawford table".to_string()));
    }

    // Which spec serves which player's post-Crawford table.
    let mut post_specs: [Option<&TableSpec>; 2] = [None, None];
    let mut post_both = false;
    for spec in &doc.posts {
        let targets: &[usize] = match spec.player {
            PostPlayer::Both => {
                post_both = true;
                &[0, 1]
            }
            PostPlayer::One(p) => {
                if p == Player::Zero {
                    &[0]
                } else {
                    &[1]
                }
            }
        };
        for &t in targets {
            if post_specs[t].is_some() {
                return Err((
                    spec.pos,
                    format!("a second post-Crawford table for player {t}"),
                ));
            }
            post_specs[t] = Some(spec);
        }
    }
    let [Some(post0), Some(post1)] = post_specs else {
        return Err((
            doc.posts[0].pos,
            "post-Crawford tables must be one with player=\"both\" or one each for players 0 and 1"
                .to_string(),
        ));
    };

    let mut post = [[0.0; MAX_AWAY]; 2];
    let mut native_post: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (p, spec) in [post0, post1].into_iter().enumerate() {
        match spec.kind {
            TableKind::Explicit => {
                let length = explicit_length.unwrap_or(1);
                let row = spec.rows.first().cloned().unwrap_or_default();
                if row.len() + 1 < length || row.len() > MAX_AWAY {
                    return Err((
                        spec.pos,
                        format!(
                            "the post-Crawford table has {} entries; a {length}-point table needs {} to {MAX_AWAY}",
                            row.len(),
                            length.saturating_sub(1).max(1)
                        ),
                    ));
                }
                if row.is_empty() {
                    return Err((spec.pos, "the post-Crawford table is empty".to_string()));
                }
                let keep = length - 1;
                post[p][..keep].copy_from_slice(&row[..keep]);
                extend_post_crawford(
                    &mut post[p],
                    keep,
                    EXTENSION_GAMMON_RATE,
                    EXTENSION_FREE_DROP.0,
                    EXTENSION_FREE_DROP.1,
                );
                native_post[p] = row;
            }
            TableKind::Zadeh => {
                let [g, fd2, fd4] = params(
                    spec,
                    [
                        ("gammon-rate-trailer", 0.25),
                        ("free-drop-2-away", 0.015),
                        ("free-drop-4-away", 0.004),
                    ],
                    "post-Crawford zadeh",
                )?;
                check_rate(g, "gammon-rate-trailer", spec.pos)?;
                check_rate(fd2, "free-drop-2-away", spec.pos)?;
                check_rate(fd4, "free-drop-4-away", spec.pos)?;
                extend_post_crawford(&mut post[p], 0, g, fd2, fd4);
            }
            TableKind::Mec => {
                let [g, win, fd2, fd4] = params(
                    spec,
                    [
                        ("gammon-rate", 0.25),
                        ("win-rate", 0.5),
                        ("free-drop-2-away", 0.015),
                        ("free-drop-4-away", 0.004),
                    ],
                    "post-Crawford mec",
                )?;
                check_rate(g, "gammon-rate", spec.pos)?;
                check_rate(win, "win-rate", spec.pos)?;
                check_rate(fd2, "free-drop-2-away", spec.pos)?;
                check_rate(fd4, "free-drop-4-away", spec.pos)?;
                post[p] = mec::post_crawford(g, win, fd2, fd4);
            }
        }
        if let Some((n, v)) = post[p]
            .iter()
            .enumerate()
            .find(|(_, v)| !(0.0..=1.0).contains(*v))
        {
            return Err((
                spec.pos,
                format!("the post-Crawford table of player {p} gives MWC {v} at {}-away, outside [0, 1]", n + 1),
            ));
        }
    }

    let mut pre = Box::new([[0.0; MAX_AWAY]; MAX_AWAY]);
    let mut native_pre = Vec::new();
    match pre_spec.kind {
        TableKind::Explicit => {
            let length = explicit_length.unwrap_or(1);
            for (i, row) in pre_spec.rows.iter().enumerate() {
                pre[i][..length].copy_from_slice(row);
            }
            extend_pre_crawford(&mut pre, length);
            native_pre = pre_spec.rows.clone();
        }
        TableKind::Zadeh => {
            let [g1, g2, delta, delta_bar] = params(
                pre_spec,
                [
                    ("gammon-rate-leader", 0.25),
                    ("gammon-rate-trailer", 0.15),
                    ("delta", 0.08),
                    ("delta-bar", 0.06),
                ],
                "zadeh",
            )?;
            check_rate(g1, "gammon-rate-leader", pre_spec.pos)?;
            check_rate(g2, "gammon-rate-trailer", pre_spec.pos)?;
            zadeh_pre_crawford(&mut pre, &post[0], g1, g2, delta, delta_bar);
        }
        TableKind::Mec => {
            let [g, win] = params(pre_spec, [("gammon-rate", 0.25), ("win-rate", 0.5)], "mec")?;
            check_rate(g, "gammon-rate", pre_spec.pos)?;
            check_rate(win, "win-rate", pre_spec.pos)?;
            mec::pre_crawford(g, win, &post, &mut pre);
        }
    }
    for (i, row) in pre.iter().enumerate() {
        if let Some((j, v)) = row
            .iter()
            .enumerate()
            .find(|(_, v)| !(0.0..=1.0).contains(*v))
        {
            return Err((
                pre_spec.pos,
                format!(
                    "the pre-Crawford table gives MWC {v} at {}-away, {}-away, outside [0, 1]",
                    i + 1,
                    j + 1
                ),
            ));
        }
    }

    let native = (pre_spec.kind == TableKind::Explicit
        && post0.kind == TableKind::Explicit
        && post1.kind == TableKind::Explicit)
        .then(|| Native {
            length: explicit_length.unwrap_or(1),
            pre: native_pre,
            post: native_post,
            post_both,
        });
    Ok(MatchEquityTable {
        name,
        description: doc.description.unwrap_or_default(),
        source: doc.source.unwrap_or_default(),
        pre_kind: pre_spec.kind,
        post_kind: [post0.kind, post1.kind],
        native,
        pre,
        post,
    })
}

/// Zadeh's post-Crawford recurrence from index `start` on (GNU Backgammon's
/// `initPostCrawfordMET`): the trailer doubles at once, so wins 2 or (gammon, rate `g`) 4
/// points, or loses the match: `P[i] = ½·(g·P[i−4] + (1−g)·P[i−2])` with `P[<0] = 1`, then the
/// free-drop corrections `fd2` at 2-away and `fd4` at 4-away are subtracted.
fn extend_post_crawford(pc: &mut [f64; MAX_AWAY], start: usize, g: f64, fd2: f64, fd4: f64) {
    for i in start..MAX_AWAY {
        let back = |k: usize| if i >= k { pc[i - k] } else { 1.0 };
        pc[i] = 0.5 * (g * back(4) + (1.0 - g) * back(2));
        if i == 1 {
            pc[i] -= fd2;
        }
        if i == 3 {
            pc[i] -= fd4;
        }
    }
}

/// Standard normal cumulative distribution function.
fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// Complementary error function (Chebyshev fit, fractional error below 1.2·10⁻⁷ everywhere).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Completes the pre-Crawford table beyond its native size `n` (GNU Backgammon's `ExtendMET`,
/// after David Montgomery): for a player needing `a` points against `b ≤ a`, the match is a
/// random walk with per-game standard deviations `σ(a)`, `σ(b)` over `(a + b)/2` games;
/// MWC = P(a normal variable with σ = √(σ(a)² + σ(b)²)·√((a+b)/2) lies in [a − b, 6σ]).
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
fn extend_pre_crawford(pre: &mut [[f64; MAX_AWAY]; MAX_AWAY], n: usize) {
    const SD: [f64; 11] = [
        0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72,
    ];
    let sd = |away: usize| if away > 10 { 1.77 } else { SD[away] };
    for i in n..MAX_AWAY {
        let a = i + 1;
        for (j, cell) in pre[i].iter_mut().enumerate().take(i + 1) {
            let b = j + 1;
            let games = (a + b) as f64 / 2.0;
            let sigma = (sd(a).powi(2) + sd(b).powi(2)).sqrt() * games.sqrt();
            let gap = (a - b) as f64;
            *cell = if 6.0 * sigma > gap {
                normal_cdf(6.0) - normal_cdf(gap / sigma)
            } else {
                0.0
            };
        }
    }
    for i in 0..MAX_AWAY {
        for j in (if i < n { n } else { i + 1 })..MAX_AWAY {
            pre[i][j] = 1.0 - pre[j][i];
        }
    }
}

/// Zadeh's pre-Crawford table (GNU Backgammon's `initMETZadeh`). `post` is the post-Crawford
/// table used for the Crawford row; `g1`, `g2` the gammon rates of leader and trailer;
/// `delta`, `delta_bar` the cube-efficiency parameters.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
fn zadeh_pre_crawford(
    pre: &mut [[f64; MAX_AWAY]; MAX_AWAY],
    post: &[f64; MAX_AWAY],
    g1: f64,
    g2: f64,
    delta: f64,
    delta_bar: f64,
) {
    const LEVELS: usize = 7;
    let pc = |k: isize| if k >= 0 { post[k as usize] } else { 1.0 };
    for i in 0..MAX_AWAY {
        let ii = i as isize;
        pre[i][0] = g1 * 0.5 * pc(ii - 2) + (1.0 - g1) * 0.5 * pc(ii - 1);
        pre[0][i] = 1.0 - pre[i][0];
    }
    for i in 1..MAX_AWAY {
        for j in 1..=i {
            // M(a, b) with the conventions M(<0, ·) = 1, M(·, <0) = 0.
            let m = |pre: &[[f64; MAX_AWAY]; MAX_AWAY], a: isize, b: isize| {
                if a < 0 {
                    1.0
                } else if b < 0 {
                    0.0
                } else {
                    pre[a as usize][b as usize]
                }
            };
            // Dead-cube drop point of the opponent when the player at (a, b) doubles to 2v.
            let dbar = |pre: &[[f64; MAX_AWAY]; MAX_AWAY], a: isize, b: isize, v: isize| {
                let vp = if a < 2 * v && b >= 2 * v { 2 * v } else { v };
                let lose = g2 * m(pre, a, b - 4 * vp) + (1.0 - g2) * m(pre, a, b - 2 * vp);
                (m(pre, a - v, b) - lose)
                    / (g1 * m(pre, a - 4 * vp, b) + (1.0 - g1) * m(pre, a - 2 * vp, b) - lose)
            };
            let (a, b) = (i as isize, j as isize);
            let mut d1 = [0.0; LEVELS + 1];
            let mut d2 = [0.0; LEVELS + 1];
            for level in (0..LEVELS).rev() {
                let v = 1isize << level;
                let d1bar = dbar(pre, a, b, v);
                let d2bar = dbar(pre, b, a, v);
                if a < 2 * v || b < 2 * v {
                    d1[level] = d1bar;
                    d2[level] = d2bar;
                } else {
                    d1[level] = 1.0 + (d2[level + 1] + delta) * (d1bar - 1.0);
                    d2[level] = 1.0 + (d1[level + 1] + delta) * (d2bar - 1.0);
                }
            }
            let value = ((d2[0] + delta_bar - 0.5) * m(pre, a - 1, b)
                + (d1[0] + delta_bar - 0.5) * m(pre, a, b - 1))
                / (d1[0] + delta_bar + d2[0] + delta_bar - 1.0);
            pre[i][j] = value;
            if i != j {
                pre[j][i] = 1.0 - value;
            }
        }
    }
}

/// Claes Thornberg's match equity calculator (`mec`), reimplemented from its description in
/// GNU Backgammon: post-Crawford equities from the gammon rate and a per-game win rate of the
/// favourite (player 0), Crawford equities from those, and pre-Crawford equities by
/// interpolating between the double points of both players, found recursively over the cube
/// levels.
mod mec {
    use super::MAX_AWAY;

    /// `E[p][o]`: equity of the favourite needing `p` points against `o` (0 = won).
    type Grid = Vec<[f64; MAX_AWAY + 1]>;

    #[allow(clippy::needless_range_loop)] // matrix code reads best with indices
    fn grid() -> Grid {
        let mut e = vec![[0.0; MAX_AWAY + 1]; MAX_AWAY + 1];
        for i in 1..=MAX_AWAY {
            e[0][i] = 1.0;
            e[i][0] = 0.0;
        }
        e
    }

    /// Post-Crawford equities of the favourite as trailer, `P[n]` for `n + 1` away.
    pub(super) fn post_crawford(g: f64, win: f64, fd2: f64, fd4: f64) -> [f64; MAX_AWAY] {
        let mut e = grid();
        e[1][1] = win;
        for i in 2..=MAX_AWAY {
            if i % 2 == 0 {
                // The trailer at an even score gets a free drop to the odd score below.
                e[1][i] = e[1][i - 1];
                e[i][1] = e[i - 1][1];
                let fd = match i {
                    2 => fd2,
                    4 => fd4,
                    _ => 0.0,
                };
                e[1][i] += fd;
                e[i][1] -= fd;
            } else {
                e[1][i] = e[0][i] * win
                    + e[1][i - 2] * (1.0 - win) * (1.0 - g)
                    + e[1][i.saturating_sub(4)] * (1.0 - win) * g;
                e[i][1] = e[i][0] * (1.0 - win)
                    + e[i - 2][1] * win * (1.0 - g)
                    + e[i.saturating_sub(4)][1] * win * g;
            }
        }
        let mut out = [0.0; MAX_AWAY];
        for (n, v) in out.iter_mut().enumerate() {
            *v = e[n + 1][1];
        }
        out
    }

    #[derive(Clone, Copy)]
    struct DoublePoint {
        equity: f64,
        win: f64,
    }

    /// Where `p` (needing `p`, winning a game with chance `wpp`) doubles `o` to `c`: the
    /// winning chance and equity (for `p`) at which `o` is indifferent between pass and take.
    fn double_point(p: usize, o: usize, c: usize, g: f64, wpp: f64, e: &Grid) -> DoublePoint {
        if p <= c / 2 {
            // A single win is enough for p: no reason to double.
            return DoublePoint {
                equity: 1.0,
                win: 1.0,
            };
        }
        let redouble = double_point(o, p, 2 * c, g, 1.0 - wpp, e);
        // o's equity at o-away, x-away.
        let eq_o = |x: usize| {
            if wpp > 0.5 {
                1.0 - e[x][o]
            } else {
                e[o][x]
            }
        };
        let after = |k: usize| p.saturating_sub(k);
        // o loses every game on a c-cube (no recube).
        let e0 = eq_o(after(c)) * (1.0 - g) + eq_o(after(2 * c)) * g;
        // o passes: loses c/2 points.
        let pass = eq_o(after(c / 2));
        let w = (pass - e0) * redouble.win / (redouble.equity - e0);
        DoublePoint {
            equity: 1.0 - pass,
            win: 1.0 - w,
        }
    }

    /// Pre-Crawford table (player 0 = the favourite) from the post-Crawford tables.
    #[allow(clippy::needless_range_loop)] // matrix code reads best with indices
    pub(super) fn pre_crawford(
        g: f64,
        win: f64,
        post: &[[f64; MAX_AWAY]; 2],
        pre: &mut [[f64; MAX_AWAY]; MAX_AWAY],
    ) {
        let ml = MAX_AWAY;
        let mut e = grid();
        for i in 0..ml {
            e[i + 1][1] = post[0][i];
            e[1][i + 1] = 1.0 - post[1][i];
        }
        // Crawford game: downwards, so the post-Crawford values below are still in place.
        for i in (2..=ml).rev() {
            e[1][i] = e[0][i] * win
                + e[1][i - 1] * (1.0 - win) * (1.0 - g)
                + e[1][i - 2] * (1.0 - win) * g;
            e[i][1] = e[i][0] * (1.0 - win) + e[i - 1][1] * win * (1.0 - g) + e[i - 2][1] * win * g;
        }
        let interpolate = |a: usize, b: usize, e: &Grid| {
            let fav = double_point(a, b, 2, g, win, e);
            let dog = double_point(b, a, 2, g, 1.0 - win, e);
            let (dog_e, dog_w) = (1.0 - dog.equity, 1.0 - dog.win);
            dog_e + (fav.equity - dog_e) * (win - dog_w) / (fav.win - dog_w)
        };
        for i in 2..=ml {
            for j in i..=ml {
                e[i][j] = interpolate(i, j, &e);
                if i != j {
                    e[j][i] = interpolate(j, i, &e);
                }
            }
        }
        for i in 0..ml {
            for j in 0..ml {
                pre[i][j] = e[i + 1][j + 1];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erfc_matches_known_values() {
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
        assert!((erfc(1.0) - 0.157_299_207_050_285_1).abs() < 1e-7);
        assert!((erfc(-1.0) - 1.842_700_792_949_715).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-7);
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
