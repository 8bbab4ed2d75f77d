//! Importing a Jellyfish match file: the [`MatchFile`] read by the reader is played through the
//! match state machine ([`Game`]), which checks every roll, move and cube action and writes the
//! [`MatchRecord`].
//!
//! The import follows GNU Backgammon's (docs/formats.md describes it), including its leniency:
//!
//! * Each game starts at the score its score line gives (GNU Backgammon's behaviour); when that
//!   is not where the game before ended, the import says so ([`WarningKind::ScoreMismatch`]).
//!   The Crawford game is the first game with exactly one player at match point (the `Crawford`
//!   tag can turn the rule off). Games that start at a score that already ends the match are
//!   left out, with a warning.
//! * A roll's move text is read with [`parse_move`]: every notation the producers write. An empty
//!   text is a dance when the roll cannot be played, the only play when there is one (GNU
//!   Backgammon plays it), and otherwise a roll left unplayed before a resignation, as are `???`
//!   and `????`.
//! * `Beavers` and `Raccoons` redouble at once; the double is taken by the next roll, as in
//!   Jellyfish files. `Wins n points` while the game is still going on is the loser's
//!   resignation (a single game, gammon or backgammon by `n` and the cube, as GNU Backgammon
//!   reads it) and its acceptance.
//! * A `Wins` line while the winner is to act (after the loser's move, or after the winner's
//!   roll) is a resignation the loser made then; the record hands the turn back to the loser (a
//!   set-up) and has him resign there. A `Wins` line before the opening roll gives the game's
//!   result without any action.
//! * A roll by the player not on roll while the player on roll is on the bar facing a made
//!   point is the turn of a player who danced and whose roll was not written (Hardy Hübener's
//!   archive leaves such rolls out): the turn passes to the roller (a set-up in the record).
//! * A defect — an illegal move, a roll out of turn or after the end of the game, a cube action
//!   the rules refuse, an illegal play replaced by a Snowie position — ends the game where it
//!   is, with a warning naming the game and the line; a `Wins` line after it still gives the
//!   game's recorded result. Columns that are neither a roll nor a cube action nor a result are
//!   ignored with a warning. Nothing is dropped silently and nothing panics.
//! * A player without a name (Backgammon Galaxy writes some) is called `Player 1` (left column)
//!   or `Player 2` (right column), with a warning; GNU Backgammon cannot read such files at all.

use std::fmt;

use thiserror::Error;

use super::{ActionKind, MatError, MatchFile, Play};
use crate::formats::notation::{parse_move, MoveParseError};
use crate::game::match_state::{Player, Resignation};
use crate::game::record::{GameResult, MatchInfo, MatchRecord, RecordAction, Variant};
use crate::game::{
    apply_steps, crawford_score, Decision, Game, GameError, Rules, ScriptedDice, MAX_MATCH_LENGTH,
};
use crate::rules::dice::Dice;
use crate::rules::movegen::{legal_moves, LegalMove};
use crate::rules::moves::{Move, Step};
use crate::rules::position::{Position, Side};

/// The largest score a record holds (the Match ID's limit).
const MAX_SCORE: u32 = 0x7FFF;

/// Something in the file the import had to overlook or repair, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportWarning {
    /// Line of the file (counting from 1).
    pub line: usize,
    /// The game of the record it concerns (counting from 1), if any. Games left out of the
    /// record (after the end of the match) have none.
    pub game: Option<usize>,
    pub kind: WarningKind,
}

impl fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.game {
            Some(game) => write!(f, "line {}, game {game}: {}", self.line, self.kind),
            None => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

/// What was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WarningKind {
    /// A move text that is not a legal play of the roll: the game stops before it.
    #[error("{player} rolls {dice}: '{text}' is not a legal play ({error}); the game stops here")]
    IllegalMove {
        player: Player,
        dice: Dice,
        text: String,
        error: MoveParseError,
    },
    /// A roll or cube action the rules refuse (out of turn, after the end of the game, a cube
    /// the player may not turn, …): the game stops before it.
    #[error("{action} is not possible: {error}; the game stops here")]
    Refused { action: String, error: GameError },
    /// A double in a match played without the cube (`CubeLimit` 1): the game stops before it.
    #[error("{player} doubles, but the match is played without the cube; the game stops here")]
    CubeNotUsed { player: Player },
    /// `Illegal play (…)`: the play is replaced by a position, which is not applied; the game
    /// stops before it.
    #[error(
        "{player} rolls {dice}: an illegal play replaced by a position (not applied); \
         the game stops here"
    )]
    IllegalPlay { player: Player, dice: Dice },
    /// A column that is neither a roll, a cube action nor a result: ignored.
    #[error("'{text}' is neither a roll, a cube action nor a result; ignored")]
    Unreadable { text: String },
    /// The score line is not where the game before ended; the game starts at the score line's
    /// score.
    #[error(
        "the score line says {}-{}, but the game before ended at {}-{}; the score line is kept",
        found[0], found[1], expected[0], expected[1]
    )]
    ScoreMismatch { expected: [u16; 2], found: [u16; 2] },
    /// A game whose score line already ends the match: left out (GNU Backgammon stops there).
    #[error(
        "the score line {}-{} already ends the match; the game is left out",
        score[0],
        score[1]
    )]
    GameAfterMatchEnd { score: [u32; 2] },
    /// A score too large for a record (money sessions): cut to 32767.
    #[error("the score {score} is too large; 32767 is kept")]
    ScoreTooLarge { score: u32 },
    /// A player without a name: named `Player 1` or `Player 2`.
    #[error("{player} has no name; called '{name}'")]
    EmptyName { player: Player, name: String },
    /// A later game names other players than the first game (whose names the record keeps).
    #[error("the players are '{}' and '{}' here, not those of the first game", names[0], names[1])]
    OtherPlayers { names: [String; 2] },
}

impl WarningKind {
    /// The warning is about a defect that ends its game where it is.
    pub fn ends_game(&self) -> bool {
        matches!(
            self,
            WarningKind::IllegalMove { .. }
                | WarningKind::Refused { .. }
                | WarningKind::IllegalPlay { .. }
                | WarningKind::CubeNotUsed { .. }
        )
    }
}

/// Reads and imports a match file from raw bytes (UTF-8, or Latin-1 when not UTF-8).
pub fn import(bytes: &[u8]) -> Result<(MatchRecord, Vec<ImportWarning>), MatError> {
    import_file(&MatchFile::from_bytes(bytes)?)
}

/// Reads and imports a match file from text.
pub fn import_str(text: &str) -> Result<(MatchRecord, Vec<ImportWarning>), MatError> {
    import_file(&MatchFile::parse(text)?)
}

/// Imports a match file already read.
pub fn import_file(file: &MatchFile) -> Result<(MatchRecord, Vec<ImportWarning>), MatError> {
    let mut warnings = Vec::new();
    let info = match_info(file, &mut warnings)?;
    let mut game = Game::new(
        info.rules.clone(),
        Box::new(ScriptedDice::new(std::iter::empty())),
    )
    .map_err(|e| MatError::Unplayable(e.to_string()))?;
    let length = u32::from(info.rules.match_length);
    let mut crawford_played = false;
    let mut next_score: Option<[u16; 2]> = None;
    let mut imported = 0usize;
    let mut other_names: Vec<[String; 2]> = Vec::new();
    for fg in &file.games {
        if length > 0 && fg.score.iter().any(|&s| s >= length) {
            warnings.push(ImportWarning {
                line: fg.line,
                game: None,
                kind: WarningKind::GameAfterMatchEnd { score: fg.score },
            });
            continue;
        }
        imported += 1;
        let number = imported;
        let warn = |warnings: &mut Vec<ImportWarning>, line: usize, kind: WarningKind| {
            warnings.push(ImportWarning {
                line,
                game: Some(number),
                kind,
            });
        };
        if number > 1 && fg.players != file.games[0].players && !other_names.contains(&fg.players) {
            other_names.push(fg.players.clone());
            warn(
                &mut warnings,
                fg.line,
                WarningKind::OtherPlayers {
                    names: fg.players.clone(),
                },
            );
        }
        let mut score = [0u16; 2];
        for (s, &written) in score.iter_mut().zip(&fg.score) {
            if written > MAX_SCORE {
                warn(
                    &mut warnings,
                    fg.line,
                    WarningKind::ScoreTooLarge { score: written },
                );
            }
            *s = written.min(MAX_SCORE) as u16;
        }
        if let Some(expected) = next_score {
            if expected != score {
                warn(
                    &mut warnings,
                    fg.line,
                    WarningKind::ScoreMismatch {
                        expected,
                        found: score,
                    },
                );
            }
        }
        let one_away = length > 0 && score.iter().any(|&s| u32::from(s) + 1 == length);
        let crawford = info.rules.crawford
            && !crawford_played
            && crawford_score(score, info.rules.match_length);
        crawford_played = crawford || one_away;
        game.begin_game_at(score, crawford, 0)
            .map_err(|e| MatError::Unplayable(e.to_string()))?;
        let cut_result = import_game(&mut game, fg, info.cube_used, &mut |line, kind| {
            warn(&mut warnings, line, kind)
        });
        let result = match game.outcome() {
            Some(_) => game.record().games.last().and_then(|g| g.result),
            None => cut_result,
        };
        if let Some(last) = game.record_mut().games.last_mut() {
            last.result = result;
        }
        next_score = Some(add_result(score, result));
    }
    let mut record = game.record().clone();
    record.info = info;
    Ok((record, warnings))
}

/// `score` plus what `result` scored.
fn add_result(score: [u16; 2], result: Option<GameResult>) -> [u16; 2] {
    let mut score = score;
    if let Some(r) = result {
        let i = r.winner.index();
        let points = u16::try_from(r.points).unwrap_or(u16::MAX);
        score[i] = score[i].saturating_add(points).min(MAX_SCORE as u16);
    }
    score
}

/// The match information from the header and the first game's score line.
fn match_info(file: &MatchFile, warnings: &mut Vec<ImportWarning>) -> Result<MatchInfo, MatError> {
    let length = u16::try_from(file.match_length)
        .ok()
        .filter(|&l| l <= MAX_MATCH_LENGTH)
        .ok_or(MatError::MatchTooLong {
            line: file.match_length_line,
            length: file.match_length,
        })?;
    let mut rules = if length == 0 {
        Rules::money()
    } else {
        Rules::match_to(length)
    };
    let mut info = MatchInfo::new([String::new(), String::new()], rules.clone());
    let mut comment: Vec<String> = file.comments.clone();
    let on_off = |value: &str| {
        let v = value.trim().to_ascii_lowercase();
        match v.as_str() {
            "on" | "yes" | "true" | "1" => Some(true),
            "off" | "no" | "false" | "0" => Some(false),
            _ => None,
        }
    };
    for tag in &file.tags {
        let name = tag.name.to_ascii_lowercase();
        let value = tag.value.clone();
        let mut keep_as_comment = false;
        match name.as_str() {
            "event" => info.event = Some(value),
            "round" => info.round = Some(value),
            "site" => info.place = Some(value),
            "transcriber" => info.transcriber = Some(value),
            "annotator" => info.annotator = Some(value),
            "eventdate" => match parse_date(&value) {
                Some(date) => info.date = Some(date),
                None => keep_as_comment = true,
            },
            "variation" => {
                let v = value.to_ascii_lowercase();
                info.variant = if v.starts_with("backgammon") {
                    Variant::Standard
                } else if v.starts_with("nackgammon") {
                    Variant::Nackgammon
                } else if let Some(rest) = v.strip_prefix("hypergammon") {
                    let n = rest
                        .trim()
                        .trim_start_matches('(')
                        .chars()
                        .next()
                        .and_then(|c| c.to_digit(10))
                        .filter(|n| (1..=3).contains(n))
                        .unwrap_or(3);
                    Variant::Hypergammon(n as u8)
                } else {
                    keep_as_comment = true;
                    info.variant
                };
            }
            "cubelimit" => {
                if value.trim() == "1" {
                    info.cube_used = false;
                }
            }
            "crawford" if length > 0 => match on_off(&value) {
                Some(on) => rules.crawford = on,
                None => keep_as_comment = true,
            },
            "jacoby" if length == 0 => match on_off(&value) {
                Some(on) => rules.jacoby = on,
                None => keep_as_comment = true,
            },
            "beaver" | "beavers" if length == 0 => match on_off(&value) {
                Some(on) => rules.beavers = on,
                None => keep_as_comment = true,
            },
            // What GNU Backgammon discards too: the match information has no place for them
            // (player names and ratings come from the score lines).
            "eventtime" | "unrated" | "match id" | "crawford" | "jacoby" | "beaver" | "beavers" => {
            }
            n if n.starts_with("player") => {}
            n if n.starts_with("game ") && value.is_empty() => {}
            _ => keep_as_comment = true,
        }
        if keep_as_comment {
            comment.push(format!("[{} \"{}\"]", tag.name, tag.value));
        }
    }
    if info.variant != Variant::Standard {
        return Err(MatError::Variant(info.variant));
    }
    info.rules = rules;
    if !comment.is_empty() {
        info.comment = Some(comment.join("\n"));
    }
    if let Some(first) = file.games.first() {
        info.ratings = first.ratings.clone();
        for (i, name) in first.players.iter().enumerate() {
            let player = if i == 0 { Player::Zero } else { Player::One };
            if name.is_empty() {
                let substitute = format!("Player {}", i + 1);
                warnings.push(ImportWarning {
                    line: first.line,
                    game: Some(1),
                    kind: WarningKind::EmptyName {
                        player,
                        name: substitute.clone(),
                    },
                });
                info.players[i] = substitute;
            } else {
                info.players[i] = name.clone();
            }
        }
    }
    Ok(info)
}

/// `YYYY.MM.DD` (or with `-` or `/`) as `YYYY-MM-DD`.
fn parse_date(text: &str) -> Option<String> {
    let parts: Vec<&str> = text.trim().split(['.', '-', '/']).collect();
    let [y, m, d] = parts.as_slice() else {
        return None;
    };
    let all_digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if y.len() != 4 || !all_digits(y) || !all_digits(m) || !all_digits(d) {
        return None;
    }
    let (m, d): (u32, u32) = (m.parse().ok()?, d.parse().ok()?);
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then(|| format!("{y}-{m:02}-{d:02}"))
}

/// The position seen from `player`.
fn seen_by(game: &Game, player: Player) -> Position {
    if game.on_roll() == player {
        game.position()
    } else {
        game.position().swap()
    }
}

/// The player on roll in `position` is on the bar and could have danced: the opponent holds a
/// point of the player's entry zone.
fn could_have_danced(position: &Position) -> bool {
    position.bar(Side::Player) > 0 && position.board()[19..=24].iter().any(|&c| c <= -2)
}

/// Plays one game's actions into `game`; reports warnings through `warn`. Returns the result a
/// `Wins` line gives for a game cut short by a defect.
fn import_game(
    game: &mut Game,
    fg: &super::Game,
    cube_used: bool,
    warn: &mut dyn FnMut(usize, WarningKind),
) -> Option<GameResult> {
    let mut cut = false;
    let mut cut_result = None;
    // A beaver or raccoon is on offer: the next roll takes it.
    let mut beavered = false;
    for action in &fg.actions {
        let player = action.player;
        let line = action.line;
        let refused = |warn: &mut dyn FnMut(usize, WarningKind), what: String, error| {
            warn(
                line,
                WarningKind::Refused {
                    action: what,
                    error,
                },
            )
        };
        if cut {
            if let ActionKind::Win { points, .. } = action.kind {
                if cut_result.is_none() {
                    cut_result = Some(GameResult {
                        winner: player,
                        points,
                        resigned: false,
                    });
                }
            }
            continue;
        }
        match &action.kind {
            ActionKind::Roll { dice, play } => {
                let dice = *dice;
                // An implicit take of a beaver or raccoon.
                if beavered {
                    if let Decision::AnswerDouble { player: taker, .. } = game.decision() {
                        if let Err(e) = game.take(taker) {
                            refused(warn, format!("{taker} takes"), e);
                            cut = true;
                            continue;
                        }
                    }
                    beavered = false;
                }
                pass_unrecorded_dance(game, player);
                if matches!(play, Play::Illegal { .. }) {
                    warn(line, WarningKind::IllegalPlay { player, dice });
                    cut = true;
                    continue;
                }
                // Read the move before rolling, so that an illegal one leaves no trace.
                let position = seen_by(game, player);
                let text = match play {
                    Play::Move(text) => text.as_str(),
                    Play::CannotMove => "Cannot Move",
                    Play::Unplayed | Play::Illegal { .. } => "",
                };
                let chosen = match parse_move(&position, dice, text) {
                    Ok(legal) => Some(steps_as_written(&position, dice, text, &legal)),
                    Err(MoveParseError::MissingMove { .. }) => {
                        let legal = legal_moves(&position, dice);
                        match legal.as_slice() {
                            [only] => Some(canonical(&only.mv)),
                            _ => None,
                        }
                    }
                    Err(error) => match steps_in_order(&position, dice, text) {
                        Some(mv) => Some(mv),
                        None => {
                            warn(
                                line,
                                WarningKind::IllegalMove {
                                    player,
                                    dice,
                                    text: text.to_string(),
                                    error,
                                },
                            );
                            cut = true;
                            continue;
                        }
                    },
                };
                let rolled = if game.decision() == Decision::OpeningRoll {
                    if dice.is_double() {
                        game.open_with(player, dice)
                    } else {
                        let (high, low) = (dice.high(), dice.low());
                        let throw = match player {
                            Player::Zero => Dice::new(high, low),
                            Player::One => Dice::new(low, high),
                        }
                        .expect("dice values are valid");
                        let events = game.roll_dice(player, throw);
                        // The record keeps the dice in the order written.
                        if let Some(RecordAction::Roll { dice: d, .. }) = game
                            .record_mut()
                            .games
                            .last_mut()
                            .and_then(|g| g.entries.last_mut())
                            .map(|e| &mut e.action)
                        {
                            *d = dice;
                        }
                        events
                    }
                } else {
                    game.roll_dice(player, dice)
                };
                match rolled {
                    Err(e) => {
                        refused(warn, format!("{player} rolls {dice}"), e);
                        cut = true;
                    }
                    Ok(events) => {
                        let passed = events
                            .iter()
                            .any(|e| matches!(e, crate::game::Event::CannotMove { .. }));
                        if let (Some(mv), false) = (chosen, passed) {
                            if let Err(e) = game.play(player, &mv) {
                                refused(warn, format!("{player} plays {text}"), e);
                                cut = true;
                            }
                        }
                    }
                }
            }
            ActionKind::Double { .. } => {
                pass_unrecorded_dance(game, player);
                if !cube_used {
                    warn(line, WarningKind::CubeNotUsed { player });
                    cut = true;
                } else if let Err(e) = game.double(player) {
                    refused(warn, format!("{player} doubles"), e);
                    cut = true;
                }
            }
            ActionKind::Beaver { .. } | ActionKind::Raccoon { .. } => match game.beaver(player) {
                Ok(_) => beavered = true,
                Err(e) => {
                    let what = if matches!(action.kind, ActionKind::Beaver { .. }) {
                        "beavers"
                    } else {
                        "raccoons"
                    };
                    refused(warn, format!("{player} {what}"), e);
                    cut = true;
                }
            },
            ActionKind::Take => {
                beavered = false;
                if let Err(e) = game.take(player) {
                    refused(warn, format!("{player} takes"), e);
                    cut = true;
                }
            }
            ActionKind::Drop => {
                beavered = false;
                if let Err(e) = game.drop_double(player) {
                    refused(warn, format!("{player} drops"), e);
                    cut = true;
                }
            }
            ActionKind::Win { points, .. } => {
                if game.outcome().is_some() {
                    continue;
                }
                let loser = player.other();
                match game.decision() {
                    // Resigned before the opening roll: the game has no action, only its result.
                    Decision::OpeningRoll => {
                        cut = true;
                        cut_result = Some(GameResult {
                            winner: player,
                            points: *points,
                            resigned: true,
                        });
                        continue;
                    }
                    // The loser resigned after his own move, or after the winner rolled
                    // (Backgammon Galaxy and Hardy's archive write it so): the turn goes back to
                    // the loser, who resigns.
                    Decision::Roll { player: to_act, .. }
                    | Decision::Move { player: to_act, .. }
                        if to_act == player =>
                    {
                        let _ = game.set_turn(loser);
                    }
                    _ => {}
                }
                let cube = game.cube_value();
                let resignation = if *points <= cube {
                    Resignation::Single
                } else if *points <= 2 * cube {
                    Resignation::Gammon
                } else {
                    Resignation::Backgammon
                };
                let done = game
                    .resign(loser, resignation)
                    .and_then(|_| game.accept_resignation(player));
                if let Err(e) = done {
                    refused(
                        warn,
                        format!("{player} wins {points} point(s) by resignation"),
                        e,
                    );
                    cut = true;
                    cut_result = Some(GameResult {
                        winner: player,
                        points: *points,
                        resigned: true,
                    });
                }
            }
            ActionKind::Unknown { text } => {
                warn(line, WarningKind::Unreadable { text: text.clone() });
            }
            ActionKind::Lose { .. } | ActionKind::Resign => {}
        }
    }
    cut_result
}

/// GNU Backgammon's order of the steps of a move: by source point, then destination, highest
/// first.
fn canonical(mv: &Move) -> Move {
    let mut steps = mv.steps().to_vec();
    steps.sort_by_key(|s| std::cmp::Reverse((s.from, s.to)));
    Move::from_steps(&steps)
}

/// The steps of `text` as written, with consolidated movements split into single dice the way
/// GNU Backgammon splits them, in GNU Backgammon's order — when they are the play `legal`
/// (which [`parse_move`] matched to the text); otherwise `legal`'s own steps in that order.
fn steps_as_written(position: &Position, dice: Dice, text: &str, legal: &LegalMove) -> Move {
    written_steps(position, dice, text)
        .map(|steps| canonical(&Move::from_steps(&steps)))
        .filter(|mv| apply_steps(position, mv) == Some(legal.position))
        .unwrap_or_else(|| canonical(&legal.mv))
}

/// The steps of `text` played one after the other, as GNU Backgammon checks a written move
/// (`5/1 1/0` bears off the checker that has just arrived on the 1), when they are a legal play
/// of the roll; in GNU Backgammon's order.
fn steps_in_order(position: &Position, dice: Dice, text: &str) -> Option<Move> {
    let steps = written_steps(position, dice, text)?;
    let mv = Move::from_steps(&steps);
    let reached = apply_steps(position, &mv)?;
    legal_moves(position, dice)
        .iter()
        .any(|m| m.position == reached && m.mv.len() == mv.len())
        .then(|| canonical(&mv))
}

/// The single-die steps a move text writes, or `None` if it is not plain `from/to` notation.
fn written_steps(position: &Position, dice: Dice, text: &str) -> Option<Vec<Step>> {
    let point = |t: &str| -> Option<u8> {
        match t {
            "bar" | "b" => Some(25),
            "off" | "o" | "-" => Some(0),
            _ => t.parse::<u8>().ok().filter(|&p| p <= 25),
        }
    };
    let board = position.board();
    let mut steps = Vec::new();
    for token in text
        .to_ascii_lowercase()
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        let token = token.replace('*', "");
        let (body, count) = match token.find('(') {
            Some(open) => {
                let inner = token[open + 1..].strip_suffix(')')?;
                (token[..open].to_string(), inner.parse::<usize>().ok()?)
            }
            None => (token.clone(), 1),
        };
        let points: Vec<u8> = body.split('/').map(point).collect::<Option<_>>()?;
        if points.len() < 2 || count == 0 || count > 4 {
            return None;
        }
        for _ in 0..count {
            for pair in points.windows(2) {
                let (from, to) = (pair[0], pair[1]);
                if to >= from || from == 0 || to == 25 {
                    return None;
                }
                let distance = from - to;
                if dice.is_double() {
                    let d = dice.first();
                    let mut at = from;
                    while at > to {
                        let next = at.saturating_sub(d).max(to);
                        steps.push(Step { from: at, to: next });
                        at = next;
                    }
                } else if distance == dice.first() + dice.second()
                    || (to == 0
                        && distance > dice.high()
                        && distance < dice.first() + dice.second())
                {
                    // Consolidated (`61: 11/4`, `62: 7/off`): the first die whose intermediate
                    // point holds no opposing checker (GNU Backgammon tries the dice in the
                    // order written).
                    let first = [dice.first(), dice.second()]
                        .into_iter()
                        .find(|&d| d < distance && board[usize::from(from - d)] >= 0)?;
                    steps.push(Step {
                        from,
                        to: from - first,
                    });
                    steps.push(Step {
                        from: from - first,
                        to,
                    });
                } else {
                    steps.push(Step { from, to });
                }
                if steps.len() > 4 {
                    return None;
                }
            }
        }
    }
    uses_the_dice(&steps, dice).then_some(steps)
}

/// Each step is one die of the roll (bearing off with a larger die allowed), each die used at
/// most once.
fn uses_the_dice(steps: &[Step], dice: Dice) -> bool {
    let fits = |step: &Step, die: u8| {
        let distance = step.from - step.to;
        distance == die || (step.to == 0 && distance < die)
    };
    if dice.is_double() {
        return steps.len() <= 4 && steps.iter().all(|s| fits(s, dice.first()));
    }
    let (a, b) = (dice.first(), dice.second());
    match steps {
        [] => true,
        [s] => fits(s, a) || fits(s, b),
        [s, t] => (fits(s, a) && fits(t, b)) || (fits(s, b) && fits(t, a)),
        _ => false,
    }
}

/// If `player` acts while the opponent is on roll, on the bar and could have danced, the
/// opponent's dance was not written: the turn passes to `player`.
fn pass_unrecorded_dance(game: &mut Game, player: Player) {
    if let Decision::Roll {
        player: on_roll, ..
    } = game.decision()
    {
        if on_roll != player && could_have_danced(&game.position()) {
            // Cannot fail: a turn before the roll.
            let _ = game.set_turn(player);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::RecordAction;

    fn actions(record: &MatchRecord, game: usize) -> Vec<RecordAction> {
        record.games[game]
            .entries
            .iter()
            .map(|e| e.action.clone())
            .collect()
    }

    #[test]
    fn header_tags_become_match_information() {
        let text = "; [Event \"Open\"]\n; [Round \"Final\"]\n; [Site \"Monte Carlo\"]\n\
            ; [Transcriber \"T. Scribe\"]\n; [EventDate \"2024.8.3\"]\n; [ClockType \"Live8\"]\n\
            ; a free comment\n; [Player 1 \"Ann\"]\n; [EventTime \"10.00\"]\n\n 3 point match\n\n\
            Game 1\n Ann : 0                        Bob,1600 : 0\n\
            1) 31: 8/5 6/5                 61: 13/7 8/7\n\
            2)  Doubles => 2                Drops\n      Wins 1 point\n";
        let (record, warnings) = import_str(text).unwrap();
        assert_eq!(warnings, []);
        let info = &record.info;
        assert_eq!(info.players, ["Ann".to_string(), "Bob".to_string()]);
        assert_eq!(info.ratings, [None, Some("1600".to_string())]);
        assert_eq!(info.event.as_deref(), Some("Open"));
        assert_eq!(info.round.as_deref(), Some("Final"));
        assert_eq!(info.place.as_deref(), Some("Monte Carlo"));
        assert_eq!(info.transcriber.as_deref(), Some("T. Scribe"));
        assert_eq!(info.date.as_deref(), Some("2024-08-03"));
        assert_eq!(
            info.comment.as_deref(),
            Some("a free comment\n[ClockType \"Live8\"]")
        );
        assert_eq!(info.rules, Rules::match_to(3));
        assert!(info.cube_used);
        assert_eq!(
            record.games[0].result,
            Some(GameResult {
                winner: Player::Zero,
                points: 1,
                resigned: false
            })
        );
        record.replay().unwrap();
        assert_eq!(parse_date("2024.13.01"), None);
        assert_eq!(parse_date("24.01.01"), None);
    }

    #[test]
    fn no_cube_variants_and_match_lengths() {
        let text = "; [CubeLimit \"1\"]\n 3 point match\n Game 1\n A : 0   B : 0\n\
            1) 31: 8/5 6/5                 61: 13/7 8/7\n\
            2)  Doubles => 2                Takes\n";
        let (record, warnings) = import_str(text).unwrap();
        assert!(!record.info.cube_used);
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].line, 6);
        assert_eq!(warnings[0].game, Some(1));
        assert!(matches!(
            warnings[0].kind,
            WarningKind::CubeNotUsed {
                player: Player::Zero
            }
        ));
        assert_eq!(actions(&record, 0).len(), 2);
        record.replay().unwrap();
        let nack = "; [Variation \"NackGammon\"]\n 3 point match\n";
        assert_eq!(
            import_str(nack).unwrap_err(),
            MatError::Variant(Variant::Nackgammon)
        );
        assert!(matches!(
            import_str(" 65 point match\n"),
            Err(MatError::MatchTooLong {
                line: 1,
                length: 65
            })
        ));
    }

    #[test]
    fn beavers_resignations_and_defects() {
        // A money session: X beavers O's double, O's roll takes it; O resigns a gammon after
        // his move; in game 2, X's move is illegal and the game stops with a warning, its
        // `Wins` line giving the result.
        let text = " 0 point match\n\n Game 1\n O : 0                          X : 0\n\
            1) 31: 8/5 6/5                 61: 13/7 8/7\n\
            2)  Doubles => 2                Beavers => 4\n\
            3) 52: 13/8 13/11              \n\
            \x20                                Wins 8 points\n\n\
            Game 2\n O : 0                          X : 8\n\
            1) 31: 8/5 6/5                 61: 13/5\n\
            2) 44: 24/20(2) 13/9(2)        Wins 1 point\n";
        let (record, warnings) = import_str(text).unwrap();
        use RecordAction::*;
        let (o, x) = (Player::Zero, Player::One);
        let game = actions(&record, 0);
        assert_eq!(
            game[2..5],
            [
                Double { player: o },
                Beaver { player: x },
                Take { player: o }
            ]
        );
        assert!(matches!(
            game[5],
            Move {
                player: Player::Zero,
                ..
            }
        ));
        // The turn goes back to O, who resigns a gammon at the cube of 4.
        assert!(matches!(game[6], SetUp(_)));
        assert_eq!(
            game[7..],
            [
                Resign {
                    player: o,
                    resignation: Resignation::Gammon
                },
                AcceptResignation { player: x }
            ]
        );
        assert_eq!(
            record.games[0].result,
            Some(GameResult {
                winner: x,
                points: 8,
                resigned: true
            })
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].line, 12);
        assert_eq!(warnings[0].game, Some(2));
        assert!(matches!(
            &warnings[0].kind,
            WarningKind::IllegalMove { player: Player::One, text, .. } if text == "13/5"
        ));
        assert_eq!(
            warnings[0].to_string(),
            "line 12, game 2: X rolls 61: '13/5' is not a legal play ('13/5' at character 1 \
             cannot be played with the roll 61); the game stops here"
        );
        assert_eq!(actions(&record, 1).len(), 1);
        assert_eq!(
            record.games[1].result,
            Some(GameResult {
                winner: x,
                points: 1,
                resigned: false
            })
        );
        record.replay().unwrap();
    }

    #[test]
    fn scores_names_and_games_after_the_end() {
        let text = " 3 point match\n Game 1\n  : 0                     B : 0\n\
            1) 31: 8/5 6/5                 61: 13/7 8/7\n\
            2)  Doubles => 2                Drops\n      Wins 1 point\n\
            Game 2\n  : 0                     B : 1\n\
            1) 31: 8/5 6/5\n\
            Game 3\n  : 3                     B : 1\n";
        let (record, warnings) = import_str(text).unwrap();
        assert_eq!(record.info.players[0], "Player 1");
        let kinds: Vec<_> = warnings.iter().map(|w| (w.line, w.kind.clone())).collect();
        assert_eq!(
            kinds,
            [
                (
                    2,
                    WarningKind::EmptyName {
                        player: Player::Zero,
                        name: "Player 1".to_string()
                    }
                ),
                (
                    7,
                    WarningKind::ScoreMismatch {
                        expected: [1, 0],
                        found: [0, 1]
                    }
                ),
                (10, WarningKind::GameAfterMatchEnd { score: [3, 1] }),
            ]
        );
        assert_eq!(record.games.len(), 2);
        assert_eq!(record.games[1].score, [0, 1]);
        assert!(matches!(
            record.replay(),
            Err(crate::game::record::ReplayError::Score { game: 2, .. })
        ));
    }

    #[test]
    fn moves_keep_the_steps_written() {
        let start = Position::starting();
        let dice = Dice::new(6, 1).unwrap();
        let legal = parse_move(&start, dice, "13/7/6").unwrap();
        let mv = steps_as_written(&start, dice, "13/6", &legal);
        assert_eq!(
            mv.steps(),
            [Step { from: 13, to: 7 }, Step { from: 7, to: 6 }]
        );
        let mv = steps_as_written(&start, dice, "8/7 13/7", &legal);
        assert_eq!(mv, canonical(&legal.mv));
        let legal = parse_move(&start, dice, "8/7 13/7").unwrap();
        let mv = steps_as_written(&start, dice, "8/7 13/7", &legal);
        assert_eq!(
            mv.steps(),
            [Step { from: 13, to: 7 }, Step { from: 8, to: 7 }]
        );
        // Written steps that do not use the dice are not kept.
        assert_eq!(written_steps(&start, dice, "13/5"), None);
        assert_eq!(written_steps(&start, dice, "13/x"), None);
    }
}
