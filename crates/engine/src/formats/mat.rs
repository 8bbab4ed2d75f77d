//! Jellyfish match files (`.mat`, `.txt`), the plain-text match format most backgammon programs
//! export (GNU Backgammon, eXtreme Gammon, Backgammon Galaxy, Backgammon Studio, ...): the reader
//! ([`MatchFile`]), the import into a validated match record ([`import`], which plays every move
//! through the rules and reports the file's defects as [`ImportWarning`]s), and the writer
//! ([`export`], GNU Backgammon's layout).
//!
//! The reader turns the text into a typed [`MatchFile`]: the header (tags and comments), the match
//! length, and per game the players, the starting score and the sequence of [`Action`]s as written
//! (rolls with their move text, cube actions, wins, resignations). It does not play the moves:
//! move texts are kept as written, to be read with [`crate::formats::notation::parse_move`] against the
//! position of the game, and no cube or score logic is applied.
//!
//! The layout follows GNU Backgammon's importer, which is lenient in the same places:
//!
//! * a UTF-8 byte order mark is skipped; CRLF, LF and CR line ends are accepted; text that is not
//!   valid UTF-8 is read as Latin-1 ([`MatchFile::from_bytes`]);
//! * before the `N point match` line (`0` = money session, any case of `point match`), lines
//!   starting with `;` or `#` are comments, `; [Name "value"]` lines are tags, and the `+---+` /
//!   `| ... |` boxes of Hardy Hübener's archive are comment text; other lines are skipped;
//! * a line containing `Game ` starts a game; the next non-blank line holds
//!   `name0 : score0   name1 : score1` (names may contain blanks; a GamesGrid rating after a comma,
//!   `name,1543`, is split off);
//! * each move line is split into the left column (player 0) and the right column (player 1): if
//!   the line holds two `:` (two rolls) the right column starts two characters before the second
//!   one, otherwise at the first double blank after column 15; the left column starts after the
//!   move number `n)`.
//!
//! Comment lines inside games (such as eXtreme Gammon's `; Set Pos=` extension) are not applied;
//! they are kept in [`MatchFile::skipped`] with the other lines the reader did not use. Errors
//! carry 1-based line numbers.

use std::fmt;

use thiserror::Error;

use crate::game::match_state::Player;
use crate::game::record::Variant;
use crate::rules::dice::Dice;

mod export;
mod import;

pub use export::{export, export_checked, ExportWarning};
pub use import::{import, import_file, import_str, ImportWarning, WarningKind};

/// Why a text is not a readable Jellyfish match file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MatError {
    /// No `N point match` line was found.
    #[error("no match length line ('N point match') was found")]
    NoMatchLength,
    /// The match length does not fit.
    #[error("line {line}: the match length {} is too large", crate::formats::shorten(.text))]
    BadMatchLength { line: usize, text: String },
    /// A `Game n` line is not followed by the players' names and scores.
    #[error("line {line}: expected the players and scores ('name : score   name : score')")]
    BadScoreLine { line: usize },
    /// The file ends right after a `Game n` line.
    #[error("line {line}: the file ends after the game header")]
    MissingScoreLine { line: usize },
    /// A match longer than the engine plays (64 points).
    #[error("line {line}: a {length}-point match is longer than Cubeful plays (64 points)")]
    MatchTooLong { line: usize, length: u32 },
    /// The `Variation` tag names a variant the engine does not play.
    #[error("the match is {0:?}; Cubeful imports standard backgammon only")]
    Variant(Variant),
    /// The match cannot be set up (not expected with a readable file).
    #[error("the match cannot be played: {0}")]
    Unplayable(String),
}

/// A `; [Name "value"]` header tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The tag name, such as `Event` or `Player 1 Elo`.
    pub name: String,
    /// The value between the quotes.
    pub value: String,
    /// Line number (1-based).
    pub line: usize,
}

/// A line the reader did not use, kept for diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    /// Line number (1-based).
    pub line: usize,
    /// The line's text, without the line end.
    pub text: String,
}

/// A whole match file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MatchFile {
    /// `; [Name "value"]` tags of the header, in file order.
    pub tags: Vec<Tag>,
    /// Other header comment lines (without the `;`/`#`) and the text of header boxes.
    pub comments: Vec<String>,
    /// Match length in points; 0 for a money session.
    pub match_length: u32,
    /// Line number of the `N point match` line.
    pub match_length_line: usize,
    /// The games in file order.
    pub games: Vec<Game>,
    /// Lines that were skipped: unknown header lines, text between games, a second
    /// `N point match` line, comments inside games.
    pub skipped: Vec<SkippedLine>,
}

/// One game of a match file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The number written after `Game` (0 if none could be read).
    pub number: u32,
    /// Line number of the `Game n` line.
    pub line: usize,
    /// Player names: index 0 = left column = GNU Backgammon's player 0, index 1 = right column.
    pub players: [String; 2],
    /// Ratings written after the names (`name,1543`, GamesGrid), if any.
    pub ratings: [Option<String>; 2],
    /// The score at the start of the game.
    pub score: [u32; 2],
    /// What happened, in order.
    pub actions: Vec<Action>,
}

impl Game {
    /// The player in `player`'s column.
    pub fn player_name(&self, player: Player) -> &str {
        &self.players[player.index()]
    }
}

/// One entry of a game: what a player did, with the line it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// Line number (1-based).
    pub line: usize,
    /// The column it was written in: left = [`Player::Zero`], right = [`Player::One`].
    pub player: Player,
    /// What was done.
    pub kind: ActionKind,
}

/// What a player did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// A roll and what was played with it.
    Roll { dice: Dice, play: Play },
    /// `Doubles => n` (the new cube value, if written).
    Double { cube: Option<u32> },
    /// `Beavers => n`: the taker redoubles at once, keeping the cube.
    Beaver { cube: Option<u32> },
    /// `Raccoons => n`: the doubler redoubles a beaver.
    Raccoon { cube: Option<u32> },
    /// `Takes`.
    Take,
    /// `Drops`.
    Drop,
    /// `Wins n point(s) [and the match]`. When the game is still in progress (no drop before it,
    /// checkers left to bear off) the loser resigned, as GNU Backgammon reads it.
    Win { points: u32, and_match: bool },
    /// `Losses n point` (Backgammon Galaxy writes it for the loser; informational).
    Lose { points: u32 },
    /// `Resigns`.
    Resign,
    /// A column the reader does not understand (GNU Backgammon warns and ignores it).
    Unknown { text: String },
}

/// What was written after a roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Play {
    /// The move as written, trimmed; empty for a dance or for a roll that was not played (the
    /// player resigned or the game ended on the roll).
    Move(String),
    /// `Cannot Move` (eXtreme Gammon, Backgammon Studio): the roll could not be played.
    CannotMove,
    /// `???` or `????` (eXtreme Gammon): the player rolled and then resigned.
    Unplayed,
    /// `Illegal play (<Snowie position>)`: the play was illegal and the position after it is
    /// given in Snowie's text format (kept as written, without the parentheses).
    Illegal { snowie: Option<String> },
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Play::Move(text) => f.write_str(text),
            Play::CannotMove => f.write_str("Cannot Move"),
            Play::Unplayed => f.write_str("???"),
            Play::Illegal { snowie: Some(s) } => write!(f, "Illegal play ({s})"),
            Play::Illegal { snowie: None } => f.write_str("Illegal play"),
        }
    }
}

impl MatchFile {
    /// Reads a match file from raw bytes: UTF-8 (with or without a byte order mark), or Latin-1
    /// when the bytes are not valid UTF-8.
    pub fn from_bytes(bytes: &[u8]) -> Result<MatchFile, MatError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => MatchFile::parse(text),
            Err(_) => {
                let text: String = bytes.iter().map(|&b| char::from(b)).collect();
                MatchFile::parse(&text)
            }
        }
    }

    /// Reads a match file from text.
    pub fn parse(text: &str) -> Result<MatchFile, MatError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = split_lines(text).into_iter().enumerate();
        let mut file = MatchFile::default();

        // Header: everything up to the match length line.
        loop {
            let Some((index, line)) = lines.next() else {
                return Err(MatError::NoMatchLength);
            };
            let number = index + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix([';', '#']) {
                read_comment(rest.trim(), number, &mut file);
            } else if line.starts_with('|') {
                let inner = trimmed.trim_start_matches('|').trim_end_matches('|').trim();
                if !inner.is_empty() {
                    file.comments.push(inner.to_string());
                }
            } else if line.starts_with('+') && trimmed.chars().all(|c| c == '+' || c == '-') {
                // Box border.
            } else if let Some(length) = match_length(trimmed) {
                file.match_length =
                    length.map_err(|text| MatError::BadMatchLength { line: number, text })?;
                file.match_length_line = number;
                break;
            } else {
                file.skipped.push(SkippedLine {
                    line: number,
                    text: line.to_string(),
                });
            }
        }

        // Games.
        let mut game: Option<Game> = None;
        while let Some((index, line)) = lines.next() {
            let number = index + 1;
            if line.trim().is_empty() {
                continue;
            }
            if let Some(at) = line.find("Game ") {
                if let Some(done) = game.take() {
                    file.games.push(done);
                }
                let header_line = number;
                let game_number = leading_number(line[at + 5..].trim_start()).unwrap_or(0);
                let score_line = loop {
                    match lines.next() {
                        None => return Err(MatError::MissingScoreLine { line: header_line }),
                        Some((_, l)) if l.trim().is_empty() => continue,
                        Some((i, l)) => break (i + 1, l),
                    }
                };
                let (players, ratings, score) = read_score_line(score_line.1)
                    .ok_or(MatError::BadScoreLine { line: score_line.0 })?;
                game = Some(Game {
                    number: game_number,
                    line: header_line,
                    players,
                    ratings,
                    score,
                    actions: Vec::new(),
                });
                continue;
            }
            let Some(current) = game.as_mut() else {
                file.skipped.push(SkippedLine {
                    line: number,
                    text: line.to_string(),
                });
                continue;
            };
            if line.starts_with([';', '#', '|', '+']) {
                file.skipped.push(SkippedLine {
                    line: number,
                    text: line.to_string(),
                });
                continue;
            }
            let (left, right) = split_columns(line);
            for (player, column) in [(Player::Zero, Some(left)), (Player::One, right)] {
                if let Some(kind) = column.and_then(read_action) {
                    current.actions.push(Action {
                        line: number,
                        player,
                        kind,
                    });
                }
            }
        }
        if let Some(done) = game {
            file.games.push(done);
        }
        Ok(file)
    }

    /// The value of the first tag called `name` (case-insensitive), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.as_str())
    }
}

/// Splits text into lines at CRLF, LF or a lone CR.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\r', '\n']) {
            None => {
                lines.push(rest);
                break;
            }
            Some(i) => {
                lines.push(&rest[..i]);
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + skip..];
            }
        }
    }
    lines
}

/// Stores a header comment: a `[Name "value"]` tag or free text.
fn read_comment(text: &str, line: usize, file: &mut MatchFile) {
    if text.is_empty() {
        return;
    }
    if let Some(inner) = text.strip_prefix('[') {
        if let Some(quote) = inner.find('"') {
            let name = inner[..quote].trim();
            let value = &inner[quote + 1..];
            let value = value
                .rfind("\"]")
                .map_or(value.trim_end_matches(']'), |end| &value[..end]);
            if !name.is_empty() {
                file.tags.push(Tag {
                    name: name.to_string(),
                    value: value.to_string(),
                    line,
                });
                return;
            }
        }
    }
    file.comments.push(text.to_string());
}

/// Recognises `N point match` (any case, any blanks): `Some(Ok(n))`, `Some(Err(text))` when the
/// number does not fit, `None` when the line is something else.
fn match_length(line: &str) -> Option<Result<u32, String>> {
    let digits_end = line
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(line.len());
    if digits_end == 0 {
        return None;
    }
    let words: Vec<&str> = line[digits_end..].split_whitespace().collect();
    let is_header = words.len() >= 2
        && words[0].eq_ignore_ascii_case("point")
        && words[1].to_ascii_lowercase().starts_with("match");
    if !is_header {
        return None;
    }
    let digits = &line[..digits_end];
    Some(digits.parse::<u32>().map_err(|_| digits.to_string()))
}

/// The number at the start of `text` (digits only), if any.
fn leading_number(text: &str) -> Option<u32> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text[..end].parse().ok()
}

type ScoreLine = ([String; 2], [Option<String>; 2], [u32; 2]);

/// Reads `name0 : score0   name1 : score1` the way GNU Backgammon does: the first name is
/// everything before the first `:`; the second starts after the first score (also when no blank
/// separates them, as GNU Backgammon writes a long first name).
fn read_score_line(line: &str) -> Option<ScoreLine> {
    let (name0, rest) = line.split_once(':')?;
    let rest = rest.trim_start();
    let score0 = leading_number(rest)?;
    let after_digits = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    // GNU Backgammon writes the first column padded to 31 characters, so that a long first
    // name runs into the second (`... : 0Johan Huyck : 0`): a letter right after the score
    // starts the second name.
    let rest = if after_digits.starts_with(char::is_alphabetic) {
        after_digits
    } else {
        rest.trim_start_matches(|c: char| !c.is_whitespace())
    };
    let (name1, rest) = rest.split_once(':')?;
    let score1 = leading_number(rest.trim_start())?;
    let (name0, rating0) = split_rating(name0);
    let (name1, rating1) = split_rating(name1);
    Some(([name0, name1], [rating0, rating1], [score0, score1]))
}

/// Normalises blanks in a name and splits off a trailing `,<rating>`.
fn split_rating(name: &str) -> (String, Option<String>) {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((base, rating)) = name.rsplit_once(',') {
        let rating = rating.trim();
        if leading_number(rating).is_some_and(|r| r > 0) {
            return (base.trim_end().to_string(), Some(rating.to_string()));
        }
    }
    (name, None)
}

/// Splits a move line into the left column (after the move number) and the right column, with
/// GNU Backgammon's heuristic (see the module documentation).
fn split_columns(line: &str) -> (&str, Option<&str>) {
    let (left, right) = match second_roll(line) {
        Some(at) => (&line[..at], Some(&line[at..])),
        None => match line.char_indices().nth(15).map(|(i, _)| i) {
            Some(from) => match line[from..].find("  ") {
                Some(gap) => (&line[..from + gap], Some(&line[from + gap..])),
                None => (line, None),
            },
            None => (line, None),
        },
    };
    (strip_move_number(left), right)
}

/// Byte index where the second of two rolls starts (two characters before the second `:`).
fn second_roll(line: &str) -> Option<usize> {
    let first = line.find(':')?;
    let second = first + 1 + line[first + 1..].find(':')?;
    let start = second.checked_sub(2)?;
    (second > 3 && line.is_char_boundary(start)).then_some(start)
}

/// Removes a leading move number `n)`.
fn strip_move_number(column: &str) -> &str {
    let trimmed = column.trim_start();
    let digits = trimmed.len()
        - trimmed
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    match trimmed[digits..].strip_prefix(')') {
        Some(rest) if digits > 0 => rest,
        _ => column,
    }
}

/// Reads one column; `None` when it is blank.
fn read_action(column: &str) -> Option<ActionKind> {
    let text = column.trim();
    if text.is_empty() {
        return None;
    }
    let bytes = text.as_bytes();
    if bytes.len() >= 3
        && (b'1'..=b'6').contains(&bytes[0])
        && (b'1'..=b'6').contains(&bytes[1])
        && bytes[2] == b':'
    {
        let dice = Dice::new(bytes[0] - b'0', bytes[1] - b'0').ok()?;
        return Some(ActionKind::Roll {
            dice,
            play: read_play(text[3..].trim()),
        });
    }
    let lower = text.to_ascii_lowercase();
    let number_after = |word_len: usize| {
        let rest = &text[word_len.min(text.len())..];
        let rest = rest.trim_start_matches(|c: char| !c.is_ascii_digit());
        leading_number(rest)
    };
    let first_word_len = text.find(char::is_whitespace).unwrap_or(text.len());
    let kind = if lower.starts_with("double") {
        ActionKind::Double {
            cube: number_after(first_word_len),
        }
    } else if lower.starts_with("beaver") {
        ActionKind::Beaver {
            cube: number_after(first_word_len),
        }
    } else if lower.starts_with("raccoon") {
        ActionKind::Raccoon {
            cube: number_after(first_word_len),
        }
    } else if lower.starts_with("take") {
        ActionKind::Take
    } else if lower.starts_with("drop") {
        ActionKind::Drop
    } else if lower.starts_with("win") {
        ActionKind::Win {
            points: number_after(first_word_len).unwrap_or(0),
            and_match: lower.contains("match"),
        }
    } else if lower.starts_with("loss") || lower.starts_with("lose") {
        ActionKind::Lose {
            points: number_after(first_word_len).unwrap_or(0),
        }
    } else if lower.starts_with("resign") {
        ActionKind::Resign
    } else {
        ActionKind::Unknown {
            text: text.to_string(),
        }
    };
    Some(kind)
}

/// Reads what follows `NN:`.
fn read_play(text: &str) -> Play {
    let lower = text.to_ascii_lowercase();
    if lower.starts_with("???") {
        Play::Unplayed
    } else if lower.starts_with("cannot move") {
        Play::CannotMove
    } else if lower.starts_with("illegal play") {
        let snowie = text.find('(').map(|open| {
            let inner = &text[open + 1..];
            inner[..inner.rfind(')').unwrap_or(inner.len())].to_string()
        });
        Play::Illegal { snowie }
    } else {
        Play::Move(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const GNUBG: &str = "; [EventDate \"2025.11.08\"]\n\n 7 point match\n\n Game 1\n charlot1 : 0                   charlot2 : 0\n  1)                             41: 13/9 24/23 \n  2) 31: 6/5 8/5                 41: 6/5 9/5 \n 10) 61: 9/8 13/7                 Doubles => 2\n 11)  Takes                      64: 13/7 7/3 \n 16)  Doubles => 2                Drops\n      Wins 1 point\n\n Game 2\n charlot1 : 1                   charlot2 : 0\n  1) 62: 13/7* 24/22             51: \n                                  Wins 2 points and the match\n";

    fn roll(d: &str, text: &str) -> ActionKind {
        ActionKind::Roll {
            dice: d.parse().unwrap(),
            play: Play::Move(text.to_string()),
        }
    }

    #[test]
    fn reads_gnubg_layout() {
        let f = MatchFile::parse(GNUBG).unwrap();
        assert_eq!(f.match_length, 7);
        assert_eq!(f.match_length_line, 3);
        assert_eq!(f.tag("eventdate"), Some("2025.11.08"));
        assert_eq!(f.games.len(), 2);
        let g = &f.games[0];
        assert_eq!(g.players, ["charlot1".to_string(), "charlot2".to_string()]);
        assert_eq!(g.score, [0, 0]);
        assert_eq!(g.number, 1);
        let kinds: Vec<(Player, ActionKind)> = g
            .actions
            .iter()
            .map(|a| (a.player, a.kind.clone()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (Player::One, roll("41", "13/9 24/23")),
                (Player::Zero, roll("31", "6/5 8/5")),
                (Player::One, roll("41", "6/5 9/5")),
                (Player::Zero, roll("61", "9/8 13/7")),
                (Player::One, ActionKind::Double { cube: Some(2) }),
                (Player::Zero, ActionKind::Take),
                (Player::One, roll("64", "13/7 7/3")),
                (Player::Zero, ActionKind::Double { cube: Some(2) }),
                (Player::One, ActionKind::Drop),
                (
                    Player::Zero,
                    ActionKind::Win {
                        points: 1,
                        and_match: false
                    }
                ),
            ]
        );
        assert_eq!(g.actions[0].line, 7);
        let g = &f.games[1];
        assert_eq!(g.score, [1, 0]);
        assert_eq!(g.actions[1].kind, roll("51", ""));
        assert_eq!(
            g.actions[2].kind,
            ActionKind::Win {
                points: 2,
                and_match: true
            }
        );
        assert_eq!(g.actions[2].player, Player::One);
    }

    #[test]
    fn reads_xg_and_hardy_quirks() {
        let text = "\u{feff}; [Site \"Paris, Fédération\"]\r\n; [Player 1 \"Maxence Job\"]\r\n; free comment\r\n\r\n7 Point Match\r\n\r\n Game 1\r\n Kévin Unger : 0                       Maxence Job,1543 : 0\r\n  1) 51: 13/8 24/23                    64: Cannot Move                   \r\n  2) 11: 1/Off(4)                      33: ????                          \r\n      Wins 2 point\r\n";
        let f = MatchFile::parse(text).unwrap();
        assert_eq!(f.tag("Site"), Some("Paris, Fédération"));
        assert_eq!(f.tag("Player 1"), Some("Maxence Job"));
        assert_eq!(f.comments, vec!["free comment".to_string()]);
        let g = &f.games[0];
        assert_eq!(g.players[0], "Kévin Unger");
        assert_eq!(g.players[1], "Maxence Job");
        assert_eq!(g.ratings[1].as_deref(), Some("1543"));
        assert_eq!(
            g.actions[1].kind,
            ActionKind::Roll {
                dice: "64".parse().unwrap(),
                play: Play::CannotMove
            }
        );
        assert_eq!(g.actions[2].kind, roll("11", "1/Off(4)"));
        assert_eq!(
            g.actions[3].kind,
            ActionKind::Roll {
                dice: "33".parse().unwrap(),
                play: Play::Unplayed
            }
        );

        let hardy = "+------+\r\n|  World Cup 1988  |\r\n+------+\r\n\r\n 25 point match\r\n 15 point match\r\n\r\n Game 1\r\n A : 0     B : 0\r\n  8) 65: Illegal play (25;0;1;0;0;A;B;0) 21: 25/23 23/22 \r\n  9) 35: 8/3 6/3                 Resigns\r\n 23) 55: Illegal play             Wins 2 points\r\n";
        let f = MatchFile::parse(hardy).unwrap();
        assert_eq!(f.comments, vec!["World Cup 1988".to_string()]);
        assert_eq!(f.match_length, 25);
        assert_eq!(f.skipped.len(), 1);
        assert_eq!(f.skipped[0].line, 6);
        let a = &f.games[0].actions;
        assert_eq!(
            a[0].kind,
            ActionKind::Roll {
                dice: "65".parse().unwrap(),
                play: Play::Illegal {
                    snowie: Some("25;0;1;0;0;A;B;0".to_string())
                }
            }
        );
        assert_eq!(a[1].kind, roll("21", "25/23 23/22"));
        assert_eq!(a[1].player, Player::One);
        assert_eq!(a[2].kind, roll("35", "8/3 6/3"));
        assert_eq!(a[3].kind, ActionKind::Resign);
        assert_eq!(
            a[4].kind,
            ActionKind::Roll {
                dice: "55".parse().unwrap(),
                play: Play::Illegal { snowie: None }
            }
        );
        assert_eq!(a[5].player, Player::One);
    }

    #[test]
    fn column_split_heuristic() {
        // Two rolls: the right column starts two characters before the second ':'.
        assert_eq!(
            split_columns("  9) 11: 25/24 23/22 22/21* 13/12 61: 25/24 20/14 "),
            (" 11: 25/24 23/22 22/21* 13/12 ", Some("61: 25/24 20/14 "))
        );
        // One roll on the right only.
        let (l, r) = split_columns("  1)                             41: 13/9 24/23 ");
        assert_eq!(l.trim(), "");
        assert_eq!(r.map(str::trim), Some("41: 13/9 24/23"));
        // A left-column win after a drop.
        assert_eq!(
            split_columns("      Wins 1 point"),
            ("      Wins 1 point", None)
        );
        // A right-column win.
        let (l, r) = split_columns("                                  Wins 2 points");
        assert_eq!(l.trim(), "");
        assert_eq!(r.map(str::trim), Some("Wins 2 points"));
        // Studio's misaligned two-digit move numbers.
        let (l, r) = split_columns("  10)  Takes                            64: 10/6 10/4");
        assert_eq!(l.trim(), "Takes");
        assert_eq!(r.map(str::trim), Some("64: 10/6 10/4"));
    }

    #[test]
    fn latin1_and_errors() {
        let bytes = b" 3 point match\n Game 1\n M\xfcller : 0   B : 0\n  1) 31: 8/5 6/5\n";
        let f = MatchFile::from_bytes(bytes).unwrap();
        assert_eq!(f.games[0].players[0], "Müller");
        assert_eq!(MatchFile::parse(""), Err(MatError::NoMatchLength));
        assert_eq!(
            MatchFile::parse("; c\n 3 point match\n Game 1\n no score here\n"),
            Err(MatError::BadScoreLine { line: 4 })
        );
        assert_eq!(
            MatchFile::parse(" 3 point match\n Game 1\n\n"),
            Err(MatError::MissingScoreLine { line: 2 })
        );
        assert!(matches!(
            MatchFile::parse("99999999999 point match\n"),
            Err(MatError::BadMatchLength { line: 1, .. })
        ));
        assert_eq!(MatchFile::parse("0 point match").unwrap().match_length, 0);
    }

    #[test]
    fn cube_and_end_actions() {
        assert_eq!(
            read_action(" Beavers => 4"),
            Some(ActionKind::Beaver { cube: Some(4) })
        );
        assert_eq!(
            read_action("Raccoons => 8"),
            Some(ActionKind::Raccoon { cube: Some(8) })
        );
        assert_eq!(
            read_action("Double => 2"),
            Some(ActionKind::Double { cube: Some(2) })
        );
        assert_eq!(read_action("Take"), Some(ActionKind::Take));
        assert_eq!(
            read_action("Losses 3 point"),
            Some(ActionKind::Lose { points: 3 })
        );
        assert_eq!(
            read_action("Wins 4016 point"),
            Some(ActionKind::Win {
                points: 4016,
                and_match: false
            })
        );
        assert_eq!(read_action("   "), None);
        assert_eq!(
            read_action("4/0 1/0"),
            Some(ActionKind::Unknown {
                text: "4/0 1/0".to_string()
            })
        );
        assert_eq!(
            read_action("21: ???"),
            Some(ActionKind::Roll {
                dice: "21".parse().unwrap(),
                play: Play::Unplayed
            })
        );
    }

    /// A line built from fragments of real match files.
    fn mat_line() -> impl Strategy<Value = String> {
        const FRAGMENTS: &[&str] = &[
            " ",
            "  ",
            "          ",
            "\t",
            " 5 point match",
            "0 Point Match",
            "99999999999 point match",
            " Game ",
            "Game 1",
            "Game",
            "1",
            "12",
            ")",
            " 1)",
            "12) ",
            ":",
            " : ",
            "31:",
            "66: ",
            "8/5 6/5",
            "25/22*",
            "bar/",
            "/off",
            "Off(4)",
            "(2)",
            "*",
            "/",
            "Cannot Move",
            "???",
            "????",
            "Illegal play (",
            "25;0;1;",
            ")",
            "Doubles => 2",
            " Takes",
            "Drops",
            "Beavers => 4",
            "Raccoons",
            "Wins 2 points",
            " and the match",
            "Losses 1 point",
            "Resigns",
            "; [Site \"",
            "\"]",
            "; ",
            "# ",
            "|  box  |",
            "+----+",
            "Kévin Unger",
            "name,1543",
            "é",
            "\u{feff}",
            " a : 0      b : 0",
            "  1) 31: 8/5 6/5                 42: 8/4 6/4",
        ];
        prop_oneof![
            4 => prop::collection::vec(prop::sample::select(FRAGMENTS), 0..8)
                .prop_map(|f| f.concat()),
            1 => any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100_000))]

        /// Arbitrary text and soups of match-file lines never make the reader panic, and every
        /// action it reports points at an existing line.
        #[test]
        fn parse_never_panics(
            text in prop_oneof![
                any::<String>(),
                (
                    prop::collection::vec(mat_line(), 0..16),
                    prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
                    any::<bool>(),
                )
                    .prop_map(|(lines, end, bom)| {
                        let body = lines.join(end);
                        if bom { format!("\u{feff}{body}") } else { body }
                    }),
            ],
        ) {
            if let Ok(file) = MatchFile::parse(&text) {
                let lines = split_lines(text.strip_prefix('\u{feff}').unwrap_or(&text)).len();
                for game in &file.games {
                    prop_assert!(game.line >= 1 && game.line <= lines);
                    for action in &game.actions {
                        prop_assert!(action.line > game.line && action.line <= lines);
                    }
                }
            }
            let _ = MatchFile::from_bytes(text.as_bytes());
        }

        /// Arbitrary bytes (not necessarily UTF-8) are read as Latin-1 without panicking.
        #[test]
        fn bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = MatchFile::from_bytes(&bytes);
        }
    }
}
