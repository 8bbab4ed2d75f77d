//! Match statistics from stored analysis: GNU Backgammon's per-player counts and sums (its
//! `statcontext`), gathered game by game from the analysis a [`MatchRecord`] holds and added up
//! for the match or session (docs/ANALYSIS.md §Marks and statistics).
//!
//! Nothing is evaluated here: the figures are the ones stored in each action's
//! [`ActionAnalysis`](crate::game::record::ActionAnalysis) (by Cubeful's analyser or read from a
//! GNU Backgammon SGF file), judged with [`crate::analysis::marks`] and replayed through the rules
//! for the cube and score before every action. As GNU Backgammon does:
//!
//! * every checker play counts as a move; its skill mark is re-derived from the stored error with
//!   the thresholds (an unanalysed play is unmarked), and only plays with more than one candidate
//!   (unforced) add to the error total;
//! * a roll's luck mark is the one stored (GNU Backgammon reads it from the file and does not
//!   re-derive it); a roll counts only when its luck was analysed (non-finite luck, which newer
//!   GNU Backgammon versions write for unanalysed rolls, counts as not analysed), and only the
//!   roll of a checker play: the luck of a roll left without a move (a record that stops after
//!   the roll) is not counted, as in GNU Backgammon's report;
//! * every analysed cube decision counts, even where the doubler had no cube to double (then
//!   only the close-decision test applies, with no double as the optimal action, and nothing
//!   is an error); after a beaver, the cube is taken to belong to the player who took last
//!   (the original doubler), as GNU Backgammon's statistics have it;
//! * sums are kept in single precision, per game, and the match adds the games.
//!
//! [`figures`] derives rates, ratings and results; [`report`] prints GNU Backgammon's
//! `show statistics match`; [`html`] writes a self-contained page; [`summary`] sums many records
//! per player name.

pub mod figures;
pub mod html;
pub mod report;
pub mod summary;

use serde::Serialize;
use thiserror::Error;

use crate::analysis::marks::{
    checker_error, cube_judgement, is_unforced, mwc_after_f32, mwc_at_score_f32, skill,
    unnormalised, CubeJudgement, Thresholds,
};
use crate::cube::met::{MatchEquityTable, MatchScore};
use crate::formats::notation::format_move;
use crate::game::match_state::{CubeOwner, Player};
use crate::game::record::analysis::{CubeAnalysis, Luck, Skill};
use crate::game::record::{GameRecord, MatchInfo, MatchRecord, RecordAction, ReplayError};
use crate::game::record::{ReplayedGame, Snapshot};

/// Why statistics cannot be computed.
#[derive(Debug, Error)]
pub enum StatsError {
    /// The record cannot be replayed at all (a variant of backgammon, impossible rules).
    #[error("the match cannot be replayed: {0}")]
    Replay(#[from] ReplayError),
}

/// A normalised amount and its unnormalised counterpart: money, points (× the cube); match, a
/// change in match winning chance (a fraction, printed ×100 as a percentage).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Amount {
    pub normalised: f32,
    pub unnormalised: f32,
}

impl Amount {
    /// The amount from its two parts.
    pub fn new(normalised: f32, unnormalised: f32) -> Amount {
        Amount {
            normalised,
            unnormalised,
        }
    }

    fn add(&mut self, other: Amount) {
        self.normalised += other.normalised;
        self.unnormalised += other.unnormalised;
    }
}

/// The six kinds of cube error GNU Backgammon counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CubeError {
    /// Did not double where doubling was right and the opponent should take.
    MissedDoubleBelowCashPoint,
    /// Did not double where the opponent should have passed.
    MissedDoubleAboveCashPoint,
    /// Doubled too early.
    WrongDoubleBelowDoublePoint,
    /// Doubled a position too good to double.
    WrongDoubleAboveTooGood,
    /// Took a double that should have been passed.
    WrongTake,
    /// Passed a double that should have been taken.
    WrongPass,
}

impl CubeError {
    /// All six, in the report's order.
    pub const ALL: [CubeError; 6] = [
        CubeError::MissedDoubleBelowCashPoint,
        CubeError::MissedDoubleAboveCashPoint,
        CubeError::WrongDoubleBelowDoublePoint,
        CubeError::WrongDoubleAboveTooGood,
        CubeError::WrongTake,
        CubeError::WrongPass,
    ];

    /// Position in [`CubeError::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// GNU Backgammon's row label, without the unit.
    pub fn label(self) -> &'static str {
        match self {
            CubeError::MissedDoubleBelowCashPoint => "Missed doubles below CP",
            CubeError::MissedDoubleAboveCashPoint => "Missed doubles above CP",
            CubeError::WrongDoubleBelowDoublePoint => "Wrong doubles below DP",
            CubeError::WrongDoubleAboveTooGood => "Wrong doubles above TG",
            CubeError::WrongTake => "Wrong takes",
            CubeError::WrongPass => "Wrong passes",
        }
    }
}

/// The count and cost of one kind of cube error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CubeErrorSum {
    pub count: u32,
    /// The equity given up (positive).
    pub cost: Amount,
}

/// One player's counts and sums (one side of GNU Backgammon's `statcontext`). Costs are
/// positive (equity given up); luck and results carry their sign.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerStats {
    /// Checker plays, analysed or not (dances included).
    pub total_moves: u32,
    /// Analysed plays with more than one legal play.
    pub unforced_moves: u32,
    /// Plays by skill mark: unmarked, doubtful, bad, very bad.
    pub moves_by_skill: [u32; 4],
    /// Analysed rolls by luck mark: very unlucky, unlucky, unmarked, lucky, very lucky.
    pub rolls_by_luck: [u32; 5],
    /// Analysed cube decisions where the player could double, plus doubles, takes and passes.
    pub total_cube_decisions: u32,
    /// Close decisions and actual cube actions.
    pub close_cube_decisions: u32,
    pub doubles: u32,
    pub takes: u32,
    pub passes: u32,
    /// Cube errors in [`CubeError::ALL`] order.
    pub cube_errors: [CubeErrorSum; 6],
    /// Checker-play error total of the unforced plays.
    pub checker_cost: Amount,
    /// Luck total of the analysed rolls.
    pub luck: Amount,
    /// Match: change in match winning chance; money: points won or lost.
    pub actual_result: f32,
    /// The actual result minus the player's luck plus the opponent's.
    pub luck_adjusted_result: f32,
}

impl PlayerStats {
    /// Adds another player's (or game's) counts and sums.
    pub fn add(&mut self, other: &PlayerStats) {
        self.total_moves += other.total_moves;
        self.unforced_moves += other.unforced_moves;
        for (a, b) in self.moves_by_skill.iter_mut().zip(other.moves_by_skill) {
            *a += b;
        }
        for (a, b) in self.rolls_by_luck.iter_mut().zip(other.rolls_by_luck) {
            *a += b;
        }
        self.total_cube_decisions += other.total_cube_decisions;
        self.close_cube_decisions += other.close_cube_decisions;
        self.doubles += other.doubles;
        self.takes += other.takes;
        self.passes += other.passes;
        for (a, b) in self.cube_errors.iter_mut().zip(&other.cube_errors) {
            a.count += b.count;
            a.cost.add(b.cost);
        }
        self.checker_cost.add(other.checker_cost);
        self.luck.add(other.luck);
        self.actual_result += other.actual_result;
        self.luck_adjusted_result += other.luck_adjusted_result;
    }

    fn cube_error(&mut self, kind: CubeError, error: f32, unnormalised: f32) {
        let sum = &mut self.cube_errors[kind.index()];
        sum.count += 1;
        sum.cost.add(Amount::new(-error, -unnormalised));
    }
}

/// The statistics of one game, or the sum of several.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Statistics {
    /// Player 0's and player 1's.
    pub players: [PlayerStats; 2],
    /// Games added up.
    pub games: u32,
    /// Match length; 0 for money play (the unit of the unnormalised amounts).
    pub match_length: u16,
}

impl Statistics {
    /// Empty statistics for a match of `match_length` (0: money).
    pub fn new(match_length: u16) -> Statistics {
        Statistics {
            match_length,
            ..Statistics::default()
        }
    }

    /// True for money play.
    pub fn is_money(&self) -> bool {
        self.match_length == 0
    }

    /// Adds another game's (or sum's) statistics.
    pub fn add(&mut self, other: &Statistics) {
        for (a, b) in self.players.iter_mut().zip(&other.players) {
            a.add(b);
        }
        self.games += other.games;
    }
}

/// Whether a marked action is a checker play or a cube action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MarkKind {
    Checker,
    Cube,
}

/// An action that earned a skill mark, for lists of errors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MarkedAction {
    /// Game number, from 1.
    pub game: usize,
    /// Action number within the game, from 1 (as `match show` numbers them).
    pub action: usize,
    pub player: usize,
    pub kind: MarkKind,
    /// The roll of a checker play.
    pub dice: Option<String>,
    /// What was played: the move in GNU Backgammon notation (empty: no move), or the cube
    /// action ("No double", "Double", "Take", "Pass").
    pub played: String,
    /// The best play, or the proper cube action in GNU Backgammon's words.
    pub best: String,
    /// The error in normalised equity (≤ 0).
    pub error: f32,
    /// "doubtful", "bad" or "very bad".
    pub mark: &'static str,
}

/// The statistics of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameStatistics {
    /// From 1.
    pub number: usize,
    /// The score when the game started.
    pub score: [u16; 2],
    pub crawford: bool,
    /// The winner (0 or 1) and the points won, when the game ended.
    pub result: Option<(usize, u32)>,
    pub statistics: Statistics,
}

/// The statistics of a whole match or session.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchStatistics {
    pub players: [String; 2],
    /// 0 for a money session.
    pub match_length: u16,
    pub games: Vec<GameStatistics>,
    /// The sum of the games.
    pub total: Statistics,
    /// Every action with a skill mark, in record order.
    pub marked: Vec<MarkedAction>,
    pub thresholds: Thresholds,
}

/// What statistics are computed with: mark thresholds and the match equity table.
#[derive(Clone, Copy, Debug)]
pub struct StatsSettings<'a> {
    pub thresholds: Thresholds,
    pub met: &'a MatchEquityTable,
}

impl Default for StatsSettings<'static> {
    /// GNU Backgammon's defaults: [`Thresholds::default`] and its default table.
    fn default() -> StatsSettings<'static> {
        StatsSettings {
            thresholds: Thresholds::default(),
            met: MatchEquityTable::kazaross_xg2(),
        }
    }
}

/// The name of a skill mark ("" for none).
pub fn skill_name(s: Skill) -> &'static str {
    match s {
        Skill::None => "",
        Skill::Doubtful => "doubtful",
        Skill::Bad => "bad",
        Skill::VeryBad => "very bad",
    }
}

fn skill_index(s: Skill) -> usize {
    match s {
        Skill::None => 0,
        Skill::Doubtful => 1,
        Skill::Bad => 2,
        Skill::VeryBad => 3,
    }
}

fn luck_index(l: Luck) -> usize {
    match l {
        Luck::VeryUnlucky => 0,
        Luck::Unlucky => 1,
        Luck::None => 2,
        Luck::Lucky => 3,
        Luck::VeryLucky => 4,
    }
}

/// The statistics of `record` from the analysis it holds. The record is replayed leniently
/// (as when it was loaded): what the rules refuse is left out.
pub fn match_statistics(
    record: &MatchRecord,
    settings: &StatsSettings,
) -> Result<MatchStatistics, StatsError> {
    let lenient = record.replay_lenient()?;
    let info = &lenient.record.info;
    let mut games = Vec::with_capacity(lenient.record.games.len());
    let mut marked = Vec::new();
    let mut total = Statistics::new(info.rules.match_length);
    for (index, (game, replayed)) in lenient
        .record
        .games
        .iter()
        .zip(lenient.replay.games())
        .enumerate()
    {
        if replayed.skipped {
            continue;
        }
        let mut gather = Gatherer {
            info,
            settings,
            game: index + 1,
            stats: Statistics::new(info.rules.match_length),
            marked: &mut marked,
        };
        gather.game(game, replayed);
        let stats = gather.stats;
        total.add(&stats);
        games.push(GameStatistics {
            number: index + 1,
            score: game.score,
            crawford: game.crawford,
            result: replayed.result.map(|r| (r.winner.index(), r.points)),
            statistics: stats,
        });
    }
    Ok(MatchStatistics {
        players: info.players.clone(),
        match_length: info.rules.match_length,
        games,
        total,
        marked,
        thresholds: settings.thresholds,
    })
}

/// Gathers one game's statistics.
struct Gatherer<'a, 'm> {
    info: &'a MatchInfo,
    settings: &'a StatsSettings<'a>,
    game: usize,
    stats: Statistics,
    marked: &'m mut Vec<MarkedAction>,
}

impl Gatherer<'_, '_> {
    fn game(&mut self, game: &GameRecord, replayed: &ReplayedGame) {
        let mut offered: Option<&CubeAnalysis> = None;
        let mut luck_events: Vec<(Player, f32)> = Vec::new();
        // GNU Backgammon's statistics give the cube to whoever takes last: after a beaver the
        // original doubler "takes" the beaver and is taken to own the cube (docs/ANALYSIS.md
        // §Marks and statistics). `beavered`: a beaver since the double on offer.
        let mut beavered = false;
        let mut owner: Option<Player> = None;
        for (i, entry) in game.entries.iter().enumerate().take(replayed.replayed()) {
            let Some(replayed_before) = replayed.before(i) else {
                break;
            };
            let mut adjusted = *replayed_before;
            if let Some(p) = owner {
                adjusted.state.cube_owner = CubeOwner::Owned(p);
            }
            let before = &adjusted;
            let analysis = entry.analysis.as_deref();
            let cube = analysis.and_then(|a| a.cube.as_ref());
            match &entry.action {
                RecordAction::Move { player, dice, mv } => {
                    let at = replayed.rolled(i).unwrap_or(before);
                    self.checker_play(i, *player, analysis, before, at, &dice.to_string(), mv);
                    if let Some(cube) = cube {
                        self.no_double(i, *player, cube, before);
                    }
                    self.luck(*player, analysis, before, &mut luck_events);
                }
                RecordAction::Double { player } => {
                    offered = cube;
                    beavered = false;
                    if let Some(cube) = cube {
                        self.double(i, *player, cube, before);
                    }
                }
                RecordAction::Take { player } | RecordAction::Drop { player } => {
                    let take = matches!(entry.action, RecordAction::Take { .. });
                    if let Some(cube) = cube.or(offered) {
                        self.answer(i, *player, take, cube, before);
                    }
                    offered = None;
                    owner = (take && beavered).then_some(*player);
                    beavered = false;
                }
                RecordAction::Beaver { .. } => {
                    offered = None;
                    beavered = true;
                }
                _ => {}
            }
        }
        self.results(game, replayed, &luck_events);
    }

    fn unnormalised(&self, amount: f32, before: &Snapshot, player: Player) -> f32 {
        unnormalised(amount, before, player, self.settings.met)
    }

    #[allow(clippy::too_many_arguments)]
    fn checker_play(
        &mut self,
        i: usize,
        player: Player,
        analysis: Option<&crate::game::record::ActionAnalysis>,
        before: &Snapshot,
        at: &Snapshot,
        dice: &str,
        mv: &crate::rules::moves::Move,
    ) {
        let mut mark = Skill::None;
        if let Some(moves) = analysis.and_then(|a| a.moves.as_ref()) {
            let error = checker_error(moves);
            if let Some(e) = error {
                mark = skill(e, &self.settings.thresholds);
            }
            if is_unforced(moves) {
                let p = &mut self.stats.players[player.index()];
                p.unforced_moves += 1;
                if let Some(e) = error {
                    let e = e as f32;
                    let u = unnormalised(e, before, player, self.settings.met);
                    p.checker_cost.add(Amount::new(-e, -u));
                }
            }
            if mark != Skill::None {
                let best = moves
                    .candidates
                    .first()
                    .map(|c| format_move(&at.position, &c.mv))
                    .unwrap_or_default();
                self.marked.push(MarkedAction {
                    game: self.game,
                    action: i + 1,
                    player: player.index(),
                    kind: MarkKind::Checker,
                    dice: Some(dice.to_string()),
                    played: format_move(&at.position, mv),
                    best,
                    error: error.unwrap_or(0.0) as f32,
                    mark: skill_name(mark),
                });
            }
        }
        let p = &mut self.stats.players[player.index()];
        p.total_moves += 1;
        p.moves_by_skill[skill_index(mark)] += 1;
    }

    fn judge(&self, cube: &CubeAnalysis, before: &Snapshot, doubler: Player) -> CubeJudgement {
        cube_judgement(cube, before, doubler, self.info, self.settings.met)
    }

    fn mark_cube(&mut self, i: usize, player: Player, played: &str, j: &CubeJudgement, error: f64) {
        let mark = skill(error, &self.settings.thresholds);
        if mark != Skill::None {
            self.marked.push(MarkedAction {
                game: self.game,
                action: i + 1,
                player: player.index(),
                kind: MarkKind::Cube,
                dice: None,
                played: played.to_string(),
                best: j.action.text().to_string(),
                error: error as f32,
                mark: skill_name(mark),
            });
        }
    }

    /// The cube decision before a checker play: not doubling.
    fn no_double(&mut self, i: usize, player: Player, cube: &CubeAnalysis, before: &Snapshot) {
        let j = self.judge(cube, before, player);
        let error = j.no_double_error() as f32;
        let u = self.unnormalised(error, before, player);
        let p = &mut self.stats.players[player.index()];
        p.total_cube_decisions += 1;
        let missed = j.is_missed_double();
        if j.close || missed {
            p.close_cube_decisions += 1;
        }
        if missed {
            let kind = if j.is_pass() {
                CubeError::MissedDoubleAboveCashPoint
            } else {
                CubeError::MissedDoubleBelowCashPoint
            };
            p.cube_error(kind, error, u);
        }
        self.mark_cube(i, player, "No double", &j, f64::from(error));
    }

    fn double(&mut self, i: usize, player: Player, cube: &CubeAnalysis, before: &Snapshot) {
        let j = self.judge(cube, before, player);
        let error = j.double_error() as f32;
        let u = self.unnormalised(error, before, player);
        let p = &mut self.stats.players[player.index()];
        p.total_cube_decisions += 1;
        p.close_cube_decisions += 1;
        p.doubles += 1;
        if error < 0.0 {
            let kind = if j.is_too_good() {
                CubeError::WrongDoubleAboveTooGood
            } else {
                CubeError::WrongDoubleBelowDoublePoint
            };
            p.cube_error(kind, error, u);
        }
        self.mark_cube(i, player, "Double", &j, f64::from(error));
    }

    /// A take (`take`) or a pass of the double on offer, by `player`.
    fn answer(
        &mut self,
        i: usize,
        player: Player,
        take: bool,
        cube: &CubeAnalysis,
        before: &Snapshot,
    ) {
        let doubler = player.other();
        let j = self.judge(cube, before, doubler);
        let error = if take { j.take_error() } else { j.pass_error() } as f32;
        // Unnormalised with the doubler's cube state, as GNU Backgammon converts it.
        let u = self.unnormalised(error, before, doubler);
        let p = &mut self.stats.players[player.index()];
        p.total_cube_decisions += 1;
        p.close_cube_decisions += 1;
        if take {
            p.takes += 1;
        } else {
            p.passes += 1;
        }
        if error < 0.0 {
            let kind = if take {
                CubeError::WrongTake
            } else {
                CubeError::WrongPass
            };
            p.cube_error(kind, error, u);
        }
        self.mark_cube(
            i,
            player,
            if take { "Take" } else { "Pass" },
            &j,
            f64::from(error),
        );
    }

    fn luck(
        &mut self,
        player: Player,
        analysis: Option<&crate::game::record::ActionAnalysis>,
        before: &Snapshot,
        events: &mut Vec<(Player, f32)>,
    ) {
        let Some(a) = analysis else { return };
        let Some(luck) = a.luck.filter(|l| l.is_finite()) else {
            return;
        };
        let luck = luck as f32;
        let u = self.unnormalised(luck, before, player);
        let p = &mut self.stats.players[player.index()];
        p.luck.add(Amount::new(luck, u));
        p.rolls_by_luck[luck_index(a.luck_mark)] += 1;
        events.push((player, u));
    }

    /// The actual and luck-adjusted results of the game.
    fn results(&mut self, game: &GameRecord, replayed: &ReplayedGame, luck: &[(Player, f32)]) {
        self.stats.games = 1;
        let mut actual = [0.0f32; 2];
        if let Some(result) = replayed.result {
            let w = result.winner;
            let won = match MatchScore::from_state(&replayed.start().state) {
                None => result.points as f32,
                Some(_) if self.info.rules.match_length == 0 => result.points as f32,
                Some(_) => {
                    let score =
                        MatchScore::new(self.info.rules.match_length, game.score, game.crawford);
                    let met = self.settings.met;
                    mwc_after_f32(met, &score, w, w, result.points)
                        - mwc_at_score_f32(met, &score, w)
                }
            };
            actual[w.index()] = won;
            actual[w.other().index()] = -won;
        }
        let mut adjusted = actual;
        for &(player, u) in luck {
            adjusted[player.index()] -= u;
            adjusted[player.other().index()] += u;
        }
        for p in 0..2 {
            self.stats.players[p].actual_result = actual[p];
            self.stats.players[p].luck_adjusted_result = adjusted[p];
        }
    }
}
