//! Replaying a [`MatchRecord`] through the rules: every action is applied to a
//! [`Game`], which refuses what the rules do not allow, and the position and
//! match state (everything a Match ID holds) are kept before and after every action.
//!
//! [`MatchRecord::replay`] is strict: the first action the rules refuse, a game whose starting
//! score does not follow from the game before, a wrong Crawford flag or a recorded result that
//! is not how the game ended is a [`ReplayError`] that names the game (counting from 1), the
//! action (counting from 1 within its game) and what is wrong. [`MatchRecord::replay_lenient`]
//! is for imports: it stops a game at its first bad action, starts the next game at the score the
//! record gives, and returns what it had to overlook as warnings, with the record cut where the
//! replay stopped.
//!
//! How a record is replayed:
//!
//! * Each game starts at its recorded score and Crawford flag, with the cube at
//!   `2^auto_doubles`. From the second game on, the score must be the previous game's starting
//!   score plus what it scored: the points of the replayed ending, or, for a game whose record
//!   stops before its end, the recorded result (none: nobody scored, the game was abandoned). The
//!   Crawford flag must be what the rules make it: the first game with exactly one player at
//!   match point is the Crawford game (when the match uses the Crawford rule), and no other.
//! * The first roll of a game is the opening roll: the player who moves first rolls both dice
//!   (a double, which only a corrected roll gives, is accepted too).
//! * A [`RecordAction::Move`] rolls the dice and plays the move (an empty move when the roll
//!   cannot be played). When the player has already rolled (the dice were set up, or a
//!   resignation came between roll and move) the dice must be the same, and only the move is
//!   played. A [`RecordAction::Roll`] rolls without moving.
//! * A [`RecordAction::SetUp`] replaces the board, cube, player on roll and dice
//!   ([`Game::set_up`]).
//! * Cube actions are refused when the match does not use the cube
//!   ([`MatchInfo::cube_used`](super::MatchInfo::cube_used)).

use thiserror::Error;

use crate::game::match_state::{GameState, MatchState, Player};
use crate::game::record::{GameRecord, GameResult, MatchInfo, MatchRecord, RecordAction, Variant};
use crate::game::{Decision, Ending, Event, Game, GameError, GameOutcome, ScriptedDice, Stage};
use crate::rules::dice::Dice;
use crate::rules::moves::Move;
use crate::rules::position::{Position, BAR, OFF};

/// The position and match state at one moment of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Snapshot {
    /// The checkers, seen from `state.on_roll`.
    pub position: Position,
    /// Everything a Match ID holds.
    pub state: MatchState,
}

impl Snapshot {
    fn of(game: &Game) -> Snapshot {
        Snapshot {
            position: game.position(),
            state: game.match_state(),
        }
    }
}

/// One game of a replayed record.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayedGame {
    /// `states[i]`: before entry `i`; the last one after the last entry replayed.
    states: Vec<Snapshot>,
    /// For each replayed entry that rolls the dice: the moment after the roll, before the move.
    rolled: Vec<Option<Snapshot>>,
    /// How the game ended, if the replay reached its end.
    pub outcome: Option<GameOutcome>,
    /// What the game scored, as the next game's score counts it: the replayed ending, or the
    /// result recorded for a game whose record stops before its end.
    pub result: Option<GameResult>,
    /// The game could not be started at all (lenient replay only): none of it was replayed.
    pub skipped: bool,
}

impl ReplayedGame {
    /// Entries replayed: all of the game's, except in a lenient replay that cut the game.
    pub fn replayed(&self) -> usize {
        self.states.len() - 1
    }

    /// The state when the game started, before its first action.
    pub fn start(&self) -> &Snapshot {
        &self.states[0]
    }

    /// The state after the last entry replayed.
    pub fn end(&self) -> &Snapshot {
        &self.states[self.states.len() - 1]
    }

    /// The state before entry `entry` (counting from 0), if it was replayed.
    pub fn before(&self, entry: usize) -> Option<&Snapshot> {
        (entry < self.replayed()).then(|| &self.states[entry])
    }

    /// The state after entry `entry` (counting from 0), if it was replayed.
    pub fn after(&self, entry: usize) -> Option<&Snapshot> {
        (entry < self.replayed()).then(|| &self.states[entry + 1])
    }

    /// For a [`RecordAction::Move`] or [`RecordAction::Roll`]: the state once the dice are
    /// rolled, before the move (oriented to the mover, dice set, as GNU Backgammon shows a
    /// position to play).
    pub fn rolled(&self, entry: usize) -> Option<&Snapshot> {
        self.rolled.get(entry).and_then(Option::as_ref)
    }

    /// The states before every action and after the last, in order.
    pub fn states(&self) -> &[Snapshot] {
        &self.states
    }
}

/// A replayed record: the state around every action, and the game at the end of the record to
/// play on from.
#[derive(Clone, Debug)]
pub struct Replay {
    games: Vec<ReplayedGame>,
    game: Game,
}

impl Replay {
    /// The games, in record order.
    pub fn games(&self) -> &[ReplayedGame] {
        &self.games
    }

    /// Game `index` (counting from 0).
    pub fn game(&self, index: usize) -> Option<&ReplayedGame> {
        self.games.get(index)
    }

    /// The match at the end of the record.
    pub fn final_game(&self) -> &Game {
        &self.game
    }

    /// The match at the end of the record, to play on (its dice source has no dice: replace it
    /// with [`Game::set_dice_source`]).
    pub fn into_game(self) -> Game {
        self.game
    }
}

/// What is wrong with one action of a record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionFault {
    /// The rules refuse the action.
    #[error("{0}")]
    Rules(#[from] GameError),
    /// The roll cannot be played, but the record moves checkers with it.
    #[error("the roll {dice} cannot be played, but the record plays {played}")]
    PlayedUnplayable { dice: Dice, played: String },
    /// The player had already rolled other dice (set up, or rolled before a resignation).
    #[error("the dice rolled are {rolled}, but the record plays {recorded}")]
    DiceMismatch { rolled: Dice, recorded: Dice },
    /// A cube action in a match played without the cube.
    #[error("the cube is not used in this match")]
    NoCube,
}

/// Why a record cannot be replayed. Games and actions count from 1.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The match's rules are not possible (a match longer than the engine plays).
    #[error("the match cannot be played: {0}")]
    Rules(GameError),
    /// A variant of backgammon the engine does not play.
    #[error("Cubeful replays standard backgammon only; this match is {}", variant_name(*.0))]
    Variant(Variant),
    /// The game's starting score does not follow from the game before.
    #[error(
        "game {game} starts at {}-{}, but the games before end at {}-{}",
        found[0], found[1], expected[0], expected[1]
    )]
    Score {
        game: usize,
        expected: [u16; 2],
        found: [u16; 2],
    },
    /// The game's Crawford flag is not what the rules make it.
    #[error("game {game} {}", crawford_text(*expected))]
    Crawford { game: usize, expected: bool },
    /// The game cannot start at its recorded score or cube (a score that ends the match, too
    /// many automatic doubles, a Crawford game without a player at match point).
    #[error("game {game} cannot start: {error}")]
    Start { game: usize, error: GameError },
    /// An action the rules refuse.
    #[error("game {game}, action {entry} ({action}): {fault}")]
    Action {
        game: usize,
        entry: usize,
        /// The action, in words.
        action: String,
        fault: ActionFault,
    },
    /// The recorded result is not how the game ended.
    #[error(
        "game {game}: the record says {}, but the game ends with {}",
        result_text(recorded),
        result_text(replayed)
    )]
    Result {
        game: usize,
        recorded: GameResult,
        replayed: GameResult,
    },
}

impl ReplayError {
    /// The game (counting from 1) the error is about, if any.
    pub fn game(&self) -> Option<usize> {
        match self {
            ReplayError::Rules(_) | ReplayError::Variant(_) => None,
            ReplayError::Score { game, .. }
            | ReplayError::Crawford { game, .. }
            | ReplayError::Start { game, .. }
            | ReplayError::Action { game, .. }
            | ReplayError::Result { game, .. } => Some(*game),
        }
    }
}

/// What a lenient replay overlooked, with what it did about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayWarning {
    pub error: ReplayError,
    /// Entries of the game left out from the bad one on (0 when nothing was left out).
    pub dropped: usize,
}

/// The result of [`MatchRecord::replay_lenient`].
#[derive(Clone, Debug)]
pub struct LenientReplay {
    pub replay: Replay,
    /// The record without what could not be replayed: each game cut before its first bad
    /// action, games that cannot start left out, recorded results that disagree with the play
    /// replaced by the replayed ones. Its scores are the record's, so it replays strictly unless
    /// a warning is about a score or Crawford flag.
    pub record: MatchRecord,
    pub warnings: Vec<ReplayWarning>,
}

fn crawford_text(expected: bool) -> &'static str {
    if expected {
        "is the Crawford game, but the record does not say so"
    } else {
        "is marked as the Crawford game, but is not"
    }
}

fn variant_name(variant: Variant) -> String {
    match variant {
        Variant::Standard => "standard backgammon".to_string(),
        Variant::Nackgammon => "Nackgammon".to_string(),
        Variant::Hypergammon(n) => format!("{n}-checker Hypergammon"),
    }
}

fn result_text(result: &GameResult) -> String {
    format!(
        "{} winning {} point{}{}",
        result.winner,
        result.points,
        if result.points == 1 { "" } else { "s" },
        if result.resigned {
            " by resignation"
        } else {
            ""
        }
    )
}

/// A move as plain steps (`13/7 8/7`, `bar/22`, `6/off`), without the position.
pub(crate) fn plain_steps(mv: &Move) -> String {
    let point = |p: u8| match usize::from(p) {
        BAR => "bar".to_string(),
        OFF => "off".to_string(),
        n => n.to_string(),
    };
    mv.steps()
        .iter()
        .map(|s| format!("{}/{}", point(s.from), point(s.to)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The action in words, for error messages.
pub fn describe(action: &RecordAction) -> String {
    match action {
        RecordAction::Move { player, dice, mv } if mv.is_empty() => {
            format!("{player} rolls {dice} and cannot move")
        }
        RecordAction::Move { player, dice, mv } => {
            format!("{player} rolls {dice} and plays {}", plain_steps(mv))
        }
        RecordAction::Roll { player, dice } => format!("{player} rolls {dice}"),
        RecordAction::Double { player } => format!("{player} doubles"),
        RecordAction::Take { player } => format!("{player} takes"),
        RecordAction::Drop { player } => format!("{player} drops"),
        RecordAction::Beaver { player } => format!("{player} beavers"),
        RecordAction::Resign {
            player,
            resignation,
        } => format!(
            "{player} resigns {}",
            crate::game::resignation_name(*resignation)
        ),
        RecordAction::AcceptResignation { player } => {
            format!("{player} accepts the resignation")
        }
        RecordAction::RejectResignation { player } => {
            format!("{player} rejects the resignation")
        }
        RecordAction::SetUp(setup) => format!(
            "set-up: {} on roll{}, cube {}",
            setup.on_roll,
            setup.dice.map_or(String::new(), |d| format!(" with {d}")),
            1u32 << setup.cube_log2.min(31)
        ),
    }
}

/// True if both rolls show the same two dice (in any order).
fn same_roll(a: Dice, b: Dice) -> bool {
    a.normalized() == b.normalized()
}

/// Rolls `dice` for `player` unless the player has already rolled them. Returns the state after
/// the roll and whether the roll passed the turn at once (no checker could move).
fn roll_for(game: &mut Game, player: Player, dice: Dice) -> Result<(Snapshot, bool), ActionFault> {
    let before = Snapshot::of(game);
    let events = if game.stage == Stage::Opening {
        if dice.is_double() {
            game.open_with(player, dice)?
        } else {
            // The opening throw: each player's die, player 0's first; the mover's is higher.
            let (high, low) = (dice.high(), dice.low());
            let throw = match player {
                Player::Zero => Dice::new(high, low),
                Player::One => Dice::new(low, high),
            }
            .expect("dice values are valid");
            game.roll_dice(player, throw)?
        }
    } else if let Decision::Move {
        player: mover,
        dice: rolled,
    } = game.decision()
    {
        if mover != player {
            return Err(GameError::NotYourTurn {
                player,
                to_act: mover,
            }
            .into());
        }
        if !same_roll(rolled, dice) {
            return Err(ActionFault::DiceMismatch {
                rolled,
                recorded: dice,
            });
        }
        Vec::new()
    } else {
        game.roll_dice(player, dice)?
    };
    let passed = events.iter().any(|e| matches!(e, Event::CannotMove { .. }));
    let rolled = if passed {
        let mut state = before.state;
        state.on_roll = player;
        state.turn = player;
        state.dice = Some(dice);
        state.game_state = GameState::Playing;
        let position = if before.state.on_roll == player {
            before.position
        } else {
            before.position.swap()
        };
        Snapshot { position, state }
    } else {
        Snapshot::of(game)
    };
    Ok((rolled, passed))
}

/// Applies one action; returns the state after the roll for a move or roll.
fn apply(
    game: &mut Game,
    info: &MatchInfo,
    action: &RecordAction,
) -> Result<Option<Snapshot>, ActionFault> {
    let cube = |info: &MatchInfo| {
        if info.cube_used {
            Ok(())
        } else {
            Err(ActionFault::NoCube)
        }
    };
    match action {
        RecordAction::Move { player, dice, mv } => {
            let (rolled, passed) = roll_for(game, *player, *dice)?;
            if passed {
                if !mv.is_empty() {
                    return Err(ActionFault::PlayedUnplayable {
                        dice: *dice,
                        played: plain_steps(mv),
                    });
                }
            } else {
                game.play(*player, mv)?;
            }
            Ok(Some(rolled))
        }
        RecordAction::Roll { player, dice } => {
            let (rolled, _) = roll_for(game, *player, *dice)?;
            Ok(Some(rolled))
        }
        RecordAction::Double { player } => {
            cube(info)?;
            game.double(*player)?;
            Ok(None)
        }
        RecordAction::Take { player } => {
            cube(info)?;
            game.take(*player)?;
            Ok(None)
        }
        RecordAction::Drop { player } => {
            cube(info)?;
            game.drop_double(*player)?;
            Ok(None)
        }
        RecordAction::Beaver { player } => {
            cube(info)?;
            game.beaver(*player)?;
            Ok(None)
        }
        RecordAction::Resign {
            player,
            resignation,
        } => {
            game.resign(*player, *resignation)?;
            Ok(None)
        }
        RecordAction::AcceptResignation { player } => {
            game.accept_resignation(*player)?;
            Ok(None)
        }
        RecordAction::RejectResignation { player } => {
            game.reject_resignation(*player)?;
            Ok(None)
        }
        RecordAction::SetUp(setup) => {
            game.set_up(setup)?;
            Ok(None)
        }
    }
}

fn outcome_result(outcome: &GameOutcome) -> GameResult {
    GameResult {
        winner: outcome.winner,
        points: outcome.points,
        resigned: matches!(outcome.ending, Ending::Resigned(_)),
    }
}

/// `score` plus what `result` scored.
fn add_result(score: [u16; 2], result: Option<GameResult>) -> [u16; 2] {
    let mut score = score;
    if let Some(r) = result {
        let i = r.winner.index();
        let points = u16::try_from(r.points).unwrap_or(u16::MAX);
        score[i] = score[i].saturating_add(points).min(0x7FFF);
    }
    score
}

/// Replays `record`; with `lenient`, overlooks what can be overlooked and reports it in
/// `warnings` (and leaves `kept` as the record of what was replayed).
fn run(
    record: &MatchRecord,
    lenient: bool,
    warnings: &mut Vec<ReplayWarning>,
    kept: &mut MatchRecord,
) -> Result<Replay, ReplayError> {
    let info = &record.info;
    if info.variant != Variant::Standard {
        return Err(ReplayError::Variant(info.variant));
    }
    let mut game = Game::new(
        info.rules.clone(),
        Box::new(ScriptedDice::new(std::iter::empty())),
    )
    .map_err(ReplayError::Rules)?;
    let rules = info.rules.clone();
    let mut games = Vec::with_capacity(record.games.len());
    kept.info = info.clone();
    kept.games.clear();
    // The score the next game must start at (unknown before the first game).
    let mut next_score: Option<[u16; 2]> = None;
    for (index, recorded) in record.games.iter().enumerate() {
        let number = index + 1;
        let mut problem = |error: ReplayError, dropped: usize| -> Result<(), ReplayError> {
            if lenient {
                warnings.push(ReplayWarning { error, dropped });
                Ok(())
            } else {
                Err(error)
            }
        };
        if let Some(expected) = next_score {
            if recorded.score != expected {
                problem(
                    ReplayError::Score {
                        game: number,
                        expected,
                        found: recorded.score,
                    },
                    0,
                )?;
            }
            let crawford = rules.crawford
                && !game.crawford_played
                && crate::game::crawford_score(recorded.score, rules.match_length);
            if recorded.crawford != crawford {
                problem(
                    ReplayError::Crawford {
                        game: number,
                        expected: crawford,
                    },
                    0,
                )?;
            }
        }
        if let Err(error) =
            game.begin_game_at(recorded.score, recorded.crawford, recorded.auto_doubles)
        {
            problem(
                ReplayError::Start {
                    game: number,
                    error,
                },
                recorded.entries.len(),
            )?;
            let here = Snapshot::of(&game);
            games.push(ReplayedGame {
                states: vec![here],
                rolled: Vec::new(),
                outcome: None,
                result: None,
                skipped: true,
            });
            continue;
        }
        let mut states = Vec::with_capacity(recorded.entries.len() + 1);
        let mut rolled = Vec::with_capacity(recorded.entries.len());
        states.push(Snapshot::of(&game));
        let mut cut = recorded.entries.len();
        for (i, entry) in recorded.entries.iter().enumerate() {
            match apply(&mut game, info, &entry.action) {
                Ok(r) => {
                    rolled.push(r);
                    states.push(Snapshot::of(&game));
                }
                Err(fault) => {
                    problem(
                        ReplayError::Action {
                            game: number,
                            entry: i + 1,
                            action: describe(&entry.action),
                            fault,
                        },
                        recorded.entries.len() - i,
                    )?;
                    cut = i;
                    break;
                }
            }
        }
        let outcome = game.outcome();
        let result = match outcome {
            Some(outcome) => {
                let replayed = outcome_result(&outcome);
                if let Some(recorded_result) = recorded.result {
                    if recorded_result != replayed {
                        problem(
                            ReplayError::Result {
                                game: number,
                                recorded: recorded_result,
                                replayed,
                            },
                            0,
                        )?;
                    }
                }
                Some(replayed)
            }
            None => recorded.result,
        };
        next_score = Some(add_result(recorded.score, result));
        kept.games.push(GameRecord {
            entries: recorded.entries[..cut].to_vec(),
            result,
            ..recorded.clone()
        });
        games.push(ReplayedGame {
            states,
            rolled,
            outcome,
            result,
            skipped: false,
        });
    }
    Ok(Replay { games, game })
}

impl MatchRecord {
    /// Replays the record through the rules (see the [module documentation](self)). The first
    /// problem is the error.
    pub fn replay(&self) -> Result<Replay, ReplayError> {
        let mut warnings = Vec::new();
        let mut kept = MatchRecord::default();
        run(self, false, &mut warnings, &mut kept)
    }

    /// Replays the record, overlooking what an import has to: a game stops at its first bad
    /// action, a game starts at its recorded score and Crawford flag even when they do not
    /// follow from the game before, a recorded result that disagrees with the play gives way to
    /// the play, and a game that cannot start at all is left out. Fails only when the match
    /// itself cannot be played (a variant, impossible rules).
    pub fn replay_lenient(&self) -> Result<LenientReplay, ReplayError> {
        let mut warnings = Vec::new();
        let mut record = MatchRecord::default();
        let replay = run(self, true, &mut warnings, &mut record)?;
        Ok(LenientReplay {
            replay,
            record,
            warnings,
        })
    }

    /// Cuts the record just before entry `entry` (counting from 0) of game `game` (counting from
    /// 0): later games and entries are removed, and the game's result is forgotten, so that
    /// play can go on from there ([`Game::from_record`]). Out-of-range numbers cut nothing
    /// more than there is.
    pub fn truncate_at(&mut self, game: usize, entry: usize) {
        if game >= self.games.len() {
            return;
        }
        self.games.truncate(game + 1);
        let last = &mut self.games[game];
        if entry < last.entries.len() {
            last.entries.truncate(entry);
            last.result = None;
        }
    }

    /// The match as it stood just before entry `entry` of game `game` (both counting from 0),
    /// to play on from there with the dice of `dice`.
    pub fn game_at(
        &self,
        game: usize,
        entry: usize,
        dice: Box<dyn crate::game::DiceSource>,
    ) -> Result<Game, ReplayError> {
        let mut cut = self.clone();
        cut.truncate_at(game, entry);
        Game::from_record(&cut, dice)
    }

    /// Appends an action to the last game (a new game must be started with
    /// [`MatchRecord::start_game`] first; without one, nothing is appended and `false` is
    /// returned).
    pub fn push(&mut self, entry: super::Entry) -> bool {
        match self.games.last_mut() {
            Some(game) => {
                game.entries.push(entry);
                true
            }
            None => false,
        }
    }

    /// Starts a new game at `score`, as the Crawford game or not.
    pub fn start_game(&mut self, score: [u16; 2], crawford: bool) {
        self.games.push(GameRecord {
            score,
            crawford,
            ..GameRecord::default()
        });
    }
}
