//! Move notation: [`format_move`] writes a play the way GNU Backgammon does (`8/5 6/5`,
//! `8/5(2)`, `bar/22*`, `6/off`, `24/18*/13`); [`parse_move`] reads every variant GNU Backgammon
//! and the common match-file producers write (`13/11(2)`, `Bar/22`, `1/Off(4)`, `25/0`,
//! consolidated `11/4`, `Cannot Move`, ...) and matches it to a legal play.

use std::fmt;
use std::fmt::Write as _;

use thiserror::Error;

use crate::rules::dice::Dice;
use crate::rules::movegen::{legal_moves, LegalMove};
use crate::rules::moves::Move;
use crate::rules::position::{Position, BAR, OFF};

/// Formats `mv`, played from `before` (the position before the move, seen from the mover), the way
/// GNU Backgammon prints it: steps ordered by source point, highest first; steps of one checker
/// joined (`24/13`), with an intermediate point kept where it hit (`24/18*/13`); identical steps
/// counted (`8/5(2)`); `*` after a point where a blot was hit; `bar` and `off`. The empty move
/// formats as an empty string.
pub fn format_move(before: &Position, mv: &Move) -> String {
    let board = before.board();
    let blot_at = |point: i32| point > 0 && point < BAR as i32 && board[point as usize] < 0;

    /// One checker's movement: source, destination and the points where it hit on the way.
    #[derive(Clone, Copy, PartialEq, Eq)]
    struct Row {
        from: i32,
        to: i32,
        hits_on_the_way: u32,
    }

    // Steps ordered by source then destination, both descending.
    let mut rows: Vec<Row> = mv
        .steps()
        .iter()
        .map(|s| Row {
            from: i32::from(s.from),
            to: i32::from(s.to),
            hits_on_the_way: 0,
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse((r.from, r.to)));

    // Join the steps of a single checker, remembering an intermediate point where it hit.
    let mut alive = vec![true; rows.len()];
    for i in 0..rows.len() {
        for j in i + 1..rows.len() {
            if alive[i] && alive[j] && rows[i].to == rows[j].from {
                if blot_at(rows[i].to) {
                    rows[i].hits_on_the_way |= 1 << rows[i].to;
                }
                rows[i].hits_on_the_way |= rows[j].hits_on_the_way;
                rows[i].to = rows[j].to;
                alive[j] = false;
            }
        }
    }

    // Count identical movements.
    let mut counted: Vec<(Row, u32)> = Vec::with_capacity(rows.len());
    for (row, _) in rows.into_iter().zip(alive).filter(|(_, a)| *a) {
        match counted.iter_mut().find(|(c, _)| *c == row) {
            Some((_, n)) => *n += 1,
            None => counted.push((row, 1)),
        }
    }

    // A blot is hit once: by the first movement (in print order) that reaches its point.
    let mut hit_points = 0u32;
    let mut out = String::new();
    for (row, n) in counted {
        if !out.is_empty() {
            out.push(' ');
        }
        if row.from == BAR as i32 {
            out.push_str("bar");
        } else {
            let _ = write!(out, "{}", row.from);
        }
        for p in (row.to + 1..row.from).rev() {
            if row.hits_on_the_way & (1 << p) != 0 {
                let _ = write!(out, "/{p}*");
                hit_points |= 1 << p;
            }
        }
        if row.to == OFF as i32 {
            out.push_str("/off");
        } else {
            let _ = write!(out, "/{}", row.to);
            if blot_at(row.to) && hit_points & (1 << row.to) == 0 {
                out.push('*');
                hit_points |= 1 << row.to;
            }
        }
        if n > 1 {
            let _ = write!(out, "({n})");
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// One checker movement as written in a move text, for error messages: the movement in canonical
/// form (`13/7`, `bar/22`, `6/off`) and the character (counted from 1) where it starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    /// The movement, such as `13/7`.
    pub text: String,
    /// Character position (1-based) of its first point in the parsed text.
    pub at: usize,
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' at character {}", self.text, self.at)
    }
}

/// Why a move text could not be read, or does not describe a legal play of the roll. Character
/// positions count from 1 in the text handed to [`parse_move`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveParseError {
    /// Something that is not part of the move notation.
    #[error("bad token '{}' at character {at}", crate::formats::shorten(.token))]
    BadToken { token: String, at: usize },
    /// A number that is not a point (points are 0..=25).
    #[error(
        "'{}' at character {at} is not a point (1 to 24; 25 or bar; 0 or off)",
        crate::formats::shorten(.token)
    )]
    NoSuchPoint { token: String, at: usize },
    /// A `/` with no point before it, two in a row, or at the end.
    #[error("misplaced '/' at character {at}")]
    MisplacedSlash { at: usize },
    /// A source point without a destination.
    #[error("the move from the point at character {at} has no destination")]
    MissingDestination { at: usize },
    /// A repeat count that is malformed, out of 1..=4, or not after a complete movement.
    #[error("bad repeat count at character {at} (write (2), (3) or (4) after a movement)")]
    BadRepeat { at: usize },
    /// The text starts with a roll (`61: ...`) that is not the roll being played.
    #[error(
        "the text is written for the roll {}, but the roll is {dice}",
        crate::formats::shorten(.written)
    )]
    DiceMismatch { written: String, dice: Dice },
    /// A movement starting from off the board (`0/...`, `off/...`).
    #[error("a checker cannot move from off the board ({segment})")]
    FromOff { segment: Segment },
    /// A movement ending on the bar (`.../25`, `.../bar`).
    #[error("a checker cannot move to the bar ({segment})")]
    ToBar { segment: Segment },
    /// A movement away from home (`6/8`).
    #[error("a checker cannot move backwards ({segment})")]
    Backwards { segment: Segment },
    /// A movement whose distance no combination of the dice covers.
    #[error("{segment} cannot be played with the roll {dice}")]
    NotRolled { segment: Segment, dice: Dice },
    /// More movements than the roll has dice.
    #[error("the move needs {needed} dice but the roll {dice} has only {available}")]
    TooManySteps {
        needed: usize,
        available: usize,
        dice: Dice,
    },
    /// The dice are used up before a movement is complete (`61: 13/7 8/2`).
    #[error("no die of the roll {dice} is left to finish {segment}")]
    NoDieLeft { segment: Segment, dice: Dice },
    /// The source point holds none of the mover's checkers.
    #[error("no checker on {} ({segment})", point_name(*point))]
    NoChecker { point: u8, segment: Segment },
    /// A checker other than one on the bar is moved while the mover has a checker on the bar.
    #[error("a checker on the bar must enter first ({segment})")]
    MustEnterFirst { segment: Segment },
    /// The landing point holds two or more of the opponent's checkers.
    #[error("point {point} is blocked ({segment})")]
    Blocked { point: u8, segment: Segment },
    /// Bearing off while some of the mover's checkers are outside the home board.
    #[error("cannot bear off while checkers are outside the home board ({segment})")]
    BearOffTooEarly { segment: Segment },
    /// Bearing off with a die larger than needed while a checker stands on a higher point.
    #[error(
        "a {die} bears off from point {point} only when no checker is on a higher point ({segment})"
    )]
    BearOffFromLower {
        point: u8,
        die: u8,
        segment: Segment,
    },
    /// The play is possible on the board but leaves dice unused that could be played.
    #[error("{}", fewer_dice_message(*used, *possible))]
    FewerDice { used: usize, possible: usize },
    /// Only one die of a non-double can be played, and it must be the larger one.
    #[error("the move plays the smaller die, but the larger ({die}) can be played")]
    LargerDieRequired { die: u8 },
    /// No move (empty text or `Cannot Move`) although the roll can be played.
    #[error("no move is given, but the roll {dice} can be played")]
    MissingMove { dice: Dice },
    /// The play reaches no legal position for another reason (not expected to happen).
    #[error("the move is not legal")]
    Illegal,
}

fn point_name(point: u8) -> String {
    if usize::from(point) == BAR {
        "the bar".to_string()
    } else {
        format!("point {point}")
    }
}

fn fewer_dice_message(used: usize, possible: usize) -> String {
    let possible = if possible == 2 {
        "both".to_string()
    } else {
        possible.to_string()
    };
    match used {
        1 => format!("the move uses only one die but {possible} can be played"),
        _ => format!("the move uses {used} dice but {possible} can be played"),
    }
}

/// Reads a move written in any of the notations GNU Backgammon and the common match-file
/// producers use, and returns the legal play it denotes.
///
/// `position` is the position before the move, seen from the mover; `dice` the roll. Accepted:
///
/// * movements `from/to` separated by blanks or commas, in any order (`8/5 6/5`, `6/5, 8/5`);
/// * chains `24/18/13`, with hit markers `24/18*/13`; `*` is optional and ignored where no blot is
///   hit;
/// * repetition `13/11(2)`, `8/7*(2)`, `1/Off(4)`;
/// * the bar as `bar`, `b` or `25`; off as `off`, `o`, `0` or `-`; words in any case;
/// * GNU Backgammon's slash-less pairs (`8 5 6 5` is `8/5 6/5`);
/// * consolidated movements that span several dice (`61: 11/4`, `44: 24/8`, `33: 13/7(2)`),
///   including bearing off with a larger die (`65: 9/off`); where the checker could pass over a
///   blot on the way, the path that does not hit is preferred unless the text marks a hit;
/// * an optional roll prefix (`61: 11/4`), which must be the roll being played;
/// * the empty text or `Cannot Move`, for a roll that cannot be played.
///
/// Two plays are the same move when they reach the same position, so the text is matched to a
/// legal move by the position it produces; the result is an element of
/// [`legal_moves`]`(position, dice)`. Unreadable or illegal text gives a [`MoveParseError`] that
/// says what is wrong and where. Never panics.
pub fn parse_move(
    position: &Position,
    dice: Dice,
    text: &str,
) -> Result<LegalMove, MoveParseError> {
    let chars: Vec<char> = text.chars().collect();
    let start = strip_roll_prefix(&chars, dice)?;
    let body: String = chars[start..].iter().collect();
    let tokens = if body.trim().eq_ignore_ascii_case("cannot move") {
        Vec::new()
    } else {
        lex(&chars, start)?
    };
    let chains = build_chains(&tokens)?;
    let hops = build_hops(&chains, dice)?;
    let legal = legal_moves(position, dice);
    if hops.is_empty() {
        return match legal.as_slice() {
            [only] if only.mv.is_empty() => Ok(*only),
            _ => Err(MoveParseError::MissingMove { dice }),
        };
    }
    let mut search = Search {
        hops: &hops,
        legal: &legal,
        dice,
        best: None,
        failure: None,
        incomplete_play: None,
    };
    let dice_left = if dice.is_double() {
        DiceLeft::new(&[dice.first(); 4])
    } else {
        DiceLeft::new(&[dice.first(), dice.second()])
    };
    search.explore(&State {
        board: *position.board(),
        at: std::array::from_fn(|i| hops.get(i).map_or(0, |h| h.from)),
        done: [false; 4],
        inner_hits: [0; 4],
        end_hit: [false; 4],
        dice: dice_left,
        steps: 0,
        pips: 0,
    });
    if let Some((_, index)) = search.best {
        return Ok(legal[index]);
    }
    if let Some((steps, _)) = search.incomplete_play {
        let possible = legal.first().map_or(0, |m| m.mv.len());
        return Err(if steps < possible {
            MoveParseError::FewerDice {
                used: steps,
                possible,
            }
        } else if !dice.is_double() && steps == 1 {
            MoveParseError::LargerDieRequired { die: dice.high() }
        } else {
            MoveParseError::Illegal
        });
    }
    Err(search
        .failure
        .map_or(MoveParseError::Illegal, |(_, error)| error))
}

/// Skips blanks and an optional roll prefix such as `61:`; returns the index of the first
/// character after it.
fn strip_roll_prefix(chars: &[char], dice: Dice) -> Result<usize, MoveParseError> {
    let first = chars
        .iter()
        .position(|c| !c.is_whitespace())
        .unwrap_or(chars.len());
    match chars.get(first..first + 3) {
        Some([a @ '1'..='6', b @ '1'..='6', ':']) => {
            let (a, b) = (*a as u8 - b'0', *b as u8 - b'0');
            let same =
                (a, b) == (dice.first(), dice.second()) || (b, a) == (dice.first(), dice.second());
            if same {
                Ok(first + 3)
            } else {
                Err(MoveParseError::DiceMismatch {
                    written: format!("{a}{b}"),
                    dice,
                })
            }
        }
        _ => Ok(0),
    }
}

/// A lexical token of the move notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    /// A point: 1..=24, 25 = bar, 0 = off.
    Point(u8),
    Slash,
    Star,
    /// `(n)`.
    Repeat(u8),
}

#[derive(Clone, Copy, Debug)]
struct Token {
    tok: Tok,
    /// 1-based character position.
    at: usize,
}

/// Splits `chars[start..]` into tokens. Blanks and commas separate; they produce no token.
fn lex(chars: &[char], start: usize) -> Result<Vec<Token>, MoveParseError> {
    let mut tokens = Vec::new();
    let mut i = start;
    while let Some(&c) = chars.get(i) {
        let at = i + 1;
        match c {
            c if c.is_whitespace() || c == ',' => i += 1,
            '/' => {
                tokens.push(Token {
                    tok: Tok::Slash,
                    at,
                });
                i += 1;
            }
            '*' => {
                tokens.push(Token { tok: Tok::Star, at });
                i += 1;
            }
            '-' => {
                tokens.push(Token {
                    tok: Tok::Point(OFF as u8),
                    at,
                });
                i += 1;
            }
            '0'..='9' => {
                let end = run_end(chars, i, |c| c.is_ascii_digit());
                let value = number(&chars[i..end]);
                if value > BAR as u32 {
                    return Err(MoveParseError::NoSuchPoint {
                        token: chars[i..end].iter().collect(),
                        at,
                    });
                }
                tokens.push(Token {
                    tok: Tok::Point(value as u8),
                    at,
                });
                i = end;
            }
            '(' => {
                let end = run_end(chars, i + 1, |c| c.is_ascii_digit());
                let count = number(&chars[i + 1..end]);
                if end == i + 1 || chars.get(end) != Some(&')') || !(1..=4).contains(&count) {
                    return Err(MoveParseError::BadRepeat { at });
                }
                tokens.push(Token {
                    tok: Tok::Repeat(count as u8),
                    at,
                });
                i = end + 1;
            }
            c if c.is_ascii_alphabetic() => {
                let end = run_end(chars, i, |c| c.is_ascii_alphabetic());
                let word: String = chars[i..end].iter().collect();
                let point = match word.to_ascii_lowercase().as_str() {
                    "b" | "ba" | "bar" => BAR,
                    "o" | "of" | "off" => OFF,
                    _ => return Err(bad_token(chars, i)),
                };
                tokens.push(Token {
                    tok: Tok::Point(point as u8),
                    at,
                });
                i = end;
            }
            _ => return Err(bad_token(chars, i)),
        }
    }
    Ok(tokens)
}

/// Index just past the run of characters from `from` that satisfy `keep`.
fn run_end(chars: &[char], from: usize, keep: impl Fn(char) -> bool) -> usize {
    chars
        .get(from..)
        .and_then(|rest| rest.iter().position(|&c| !keep(c)))
        .map_or(chars.len(), |n| from + n)
}

/// The value of a run of ASCII digits, saturating instead of overflowing.
fn number(digits: &[char]) -> u32 {
    digits.iter().fold(0u32, |n, &d| {
        n.saturating_mul(10)
            .saturating_add(u32::from(d as u8 - b'0'))
    })
}

/// The error for an unexpected character at `i`: the token is the alphanumeric run starting there
/// (at least the character itself).
fn bad_token(chars: &[char], i: usize) -> MoveParseError {
    let end = run_end(chars, i + 1, char::is_alphanumeric).max(i + 1);
    MoveParseError::BadToken {
        token: chars[i..end].iter().collect(),
        at: i + 1,
    }
}

/// Points of one written checker path (`24/18*/13`), repeated `repeat` times.
#[derive(Debug)]
struct Chain {
    /// (point, marked with `*`, character position).
    points: Vec<(u8, bool, usize)>,
    repeat: u8,
}

/// Groups tokens into chains. A `/` continues the current chain; a point without `/` starts a new
/// chain, except that it completes a chain holding a lone point (GNU Backgammon's slash-less
/// pairs: `8 5 6 5`).
fn build_chains(tokens: &[Token]) -> Result<Vec<Chain>, MoveParseError> {
    let mut chains: Vec<Chain> = Vec::new();
    // A '/' waiting for its point.
    let mut slash: Option<usize> = None;
    // Whether the last chain may still be extended by '/' (no repeat count yet).
    let mut open = false;
    for token in tokens {
        match token.tok {
            Tok::Point(p) => {
                let entry = (p, false, token.at);
                match chains.last_mut() {
                    Some(chain) if slash.is_some() || (open && chain.points.len() == 1) => {
                        chain.points.push(entry)
                    }
                    _ => chains.push(Chain {
                        points: vec![entry],
                        repeat: 1,
                    }),
                }
                slash = None;
                open = true;
            }
            Tok::Slash => {
                if slash.is_some() || !open {
                    return Err(MoveParseError::MisplacedSlash { at: token.at });
                }
                slash = Some(token.at);
            }
            Tok::Star => {
                if slash.is_none() {
                    if let Some(last) = chains.last_mut().and_then(|c| c.points.last_mut()) {
                        last.1 = true;
                    }
                }
            }
            Tok::Repeat(n) => match chains.last_mut() {
                Some(chain) if open && slash.is_none() && chain.points.len() >= 2 => {
                    chain.repeat = n;
                    open = false;
                }
                _ => return Err(MoveParseError::BadRepeat { at: token.at }),
            },
        }
    }
    if let Some(at) = slash {
        return Err(MoveParseError::MisplacedSlash { at });
    }
    if let Some(chain) = chains.last() {
        if chain.points.len() == 1 {
            return Err(MoveParseError::MissingDestination {
                at: chain.points[0].2,
            });
        }
    }
    Ok(chains)
}

/// One checker movement between two written points, possibly spanning several dice.
#[derive(Clone, Debug)]
struct Hop {
    from: u8,
    /// 0 = off.
    to: u8,
    /// The destination carries a hit marker.
    marked: bool,
    segment: Segment,
}

fn point_text(point: u8) -> String {
    match usize::from(point) {
        BAR => "bar".to_string(),
        OFF => "off".to_string(),
        _ => point.to_string(),
    }
}

/// Turns chains into movements, checking each against the board's geometry and the dice.
fn build_hops(chains: &[Chain], dice: Dice) -> Result<Vec<Hop>, MoveParseError> {
    let available = if dice.is_double() { 4 } else { 2 };
    let mut hops = Vec::new();
    let mut needed = 0usize;
    for chain in chains {
        for pair in chain.points.windows(2) {
            let ((from, _, at), (to, marked, _)) = (pair[0], pair[1]);
            let segment = Segment {
                text: format!("{}/{}", point_text(from), point_text(to)),
                at,
            };
            if usize::from(from) == OFF {
                return Err(MoveParseError::FromOff { segment });
            }
            if usize::from(to) == BAR {
                return Err(MoveParseError::ToBar { segment });
            }
            if to >= from {
                return Err(MoveParseError::Backwards { segment });
            }
            let Some(dice_needed) = dice_for(from - to, usize::from(to) == OFF, dice) else {
                return Err(MoveParseError::NotRolled { segment, dice });
            };
            needed += dice_needed * usize::from(chain.repeat);
            for _ in 0..chain.repeat {
                hops.push(Hop {
                    from,
                    to,
                    marked,
                    segment: segment.clone(),
                });
            }
            if needed > available {
                // Count the rest too, for the message; stop growing the list.
                let rest: usize = chains
                    .iter()
                    .map(|c| c.points.len().saturating_sub(1) * usize::from(c.repeat))
                    .sum();
                return Err(MoveParseError::TooManySteps {
                    needed: needed.max(rest),
                    available,
                    dice,
                });
            }
        }
    }
    Ok(hops)
}

/// The least number of dice that can move a checker `distance` pips (to exactly the destination,
/// or off the board with any overage when `off`), or `None` if the roll cannot.
fn dice_for(distance: u8, off: bool, dice: Dice) -> Option<usize> {
    let (a, b) = (dice.first(), dice.second());
    if dice.is_double() {
        let steps = if off {
            distance.div_ceil(a)
        } else {
            match distance % a {
                0 => distance / a,
                _ => return None,
            }
        };
        (steps <= 4).then_some(usize::from(steps))
    } else if off {
        if distance <= a.max(b) {
            Some(1)
        } else {
            (distance <= a + b).then_some(2)
        }
    } else if distance == a || distance == b {
        Some(1)
    } else {
        (distance == a + b).then_some(2)
    }
}

/// The dice not yet used, as a small multiset.
#[derive(Clone, Copy, Debug)]
struct DiceLeft {
    values: [u8; 4],
    len: usize,
}

impl DiceLeft {
    fn new(values: &[u8]) -> DiceLeft {
        let mut left = DiceLeft {
            values: [0; 4],
            len: values.len().min(4),
        };
        left.values[..left.len].copy_from_slice(&values[..left.len]);
        left
    }

    /// The distinct values left, in the order written.
    fn distinct(&self) -> impl Iterator<Item = u8> + '_ {
        let values = &self.values[..self.len];
        values
            .iter()
            .enumerate()
            .filter(|&(i, v)| !values[..i].contains(v))
            .map(|(_, &v)| v)
    }

    /// Whether some of the dice left move a checker exactly `distance` pips, or at least
    /// `distance` pips when bearing off (`off`).
    fn covers(&self, distance: u8, off: bool) -> bool {
        let values = &self.values[..self.len];
        (1u32..1 << values.len()).any(|subset| {
            let sum: u8 = values
                .iter()
                .enumerate()
                .filter(|&(i, _)| subset & (1 << i) != 0)
                .map(|(_, &v)| v)
                .sum();
            if off {
                sum >= distance
            } else {
                sum == distance
            }
        })
    }

    fn without(&self, value: u8) -> DiceLeft {
        let mut left = *self;
        if let Some(i) = left.values[..left.len].iter().position(|&v| v == value) {
            left.values.copy_within(i + 1..left.len, i);
            left.len -= 1;
        }
        left
    }
}

/// Search state: the board after the steps so far and the progress of each movement.
#[derive(Clone, Copy, Debug)]
struct State {
    board: [i8; 26],
    /// Where each movement's checker currently is.
    at: [u8; 4],
    done: [bool; 4],
    /// Blots hit on points the text does not name (inside consolidated movements).
    inner_hits: [u8; 4],
    /// Whether the movement hit on its written destination.
    end_hit: [bool; 4],
    dice: DiceLeft,
    steps: usize,
    pips: u32,
}

/// Cost of a realisation: (hits the text does not ask for, hit markers not honoured). Lower is
/// better; (0, 0) is a perfect reading.
type Cost = (u32, u32);

/// Depth-first search over the ways of playing the written movements die by die.
struct Search<'a> {
    hops: &'a [Hop],
    legal: &'a [LegalMove],
    dice: Dice,
    /// The cheapest realisation reaching a legal position: (cost, index in `legal`).
    best: Option<(Cost, usize)>,
    /// The error met deepest in the search (most steps played before it).
    failure: Option<(usize, MoveParseError)>,
    /// The longest play that completes the text on the board but is not legal: (steps, pips).
    incomplete_play: Option<(usize, u32)>,
}

impl Search<'_> {
    fn perfect(&self) -> bool {
        matches!(self.best, Some(((0, 0), _)))
    }

    /// Records an error met after `steps` steps. Errors on the board outrank running out of
    /// dice; among errors of the same class the one met deepest (the first of those) is kept.
    fn fail(&mut self, steps: usize, error: MoveParseError) {
        let rank = |steps: usize, error: &MoveParseError| {
            (!matches!(error, MoveParseError::NoDieLeft { .. }), steps)
        };
        let new_rank = rank(steps, &error);
        let better = match &self.failure {
            Some((d, e)) => new_rank > rank(*d, e),
            None => true,
        };
        if better {
            self.failure = Some((steps, error));
        }
    }

    fn explore(&mut self, state: &State) {
        let n = self.hops.len();
        if state.done[..n].iter().all(|&d| d) {
            self.finish(state);
            return;
        }
        let mut tried = false;
        for (h, hop) in self.hops.iter().enumerate() {
            if state.done[h] {
                continue;
            }
            for die in state.dice.distinct() {
                if self.perfect() {
                    return;
                }
                let from = state.at[h];
                let to = if from > die { from - die } else { OFF as u8 };
                if hop.to != OFF as u8 && (from < die || to < hop.to) {
                    continue; // would pass the written destination
                }
                let rest = state.dice.without(die);
                if to != hop.to && !rest.covers(to - hop.to, hop.to == OFF as u8) {
                    continue; // the dice left could not finish this movement
                }
                tried = true;
                match step(&state.board, from, to, die) {
                    Err(kind) => self.fail(state.steps, kind.error(hop.segment.clone())),
                    Ok((board, hit)) => {
                        let mut next = *state;
                        next.board = board;
                        next.at[h] = to;
                        next.dice = rest;
                        next.steps += 1;
                        next.pips += u32::from(die);
                        if to == hop.to {
                            next.done[h] = true;
                            next.end_hit[h] = hit;
                        } else if hit {
                            next.inner_hits[h] += 1;
                        }
                        self.explore(&next);
                    }
                }
            }
        }
        if !tried {
            if let Some(hop) = (0..n).find(|&h| !state.done[h]).map(|h| &self.hops[h]) {
                let error = MoveParseError::NoDieLeft {
                    segment: hop.segment.clone(),
                    dice: self.dice,
                };
                self.fail(state.steps, error);
            }
        }
    }

    /// Every movement is complete: keep the play if it is legal and the best reading so far.
    fn finish(&mut self, state: &State) {
        let Some(index) = self
            .legal
            .iter()
            .position(|m| m.position.board() == &state.board)
        else {
            let longer = match self.incomplete_play {
                Some(play) => (state.steps, state.pips) > play,
                None => true,
            };
            if longer {
                self.incomplete_play = Some((state.steps, state.pips));
            }
            return;
        };
        let mut cost: Cost = (0, 0);
        for (h, hop) in self.hops.iter().enumerate() {
            let inner = u32::from(state.inner_hits[h]);
            // A marker on a destination that was not hit may stand for a hit on the way.
            let spare_marker = u32::from(hop.marked && !state.end_hit[h]);
            cost.0 += inner.saturating_sub(spare_marker);
            cost.1 += spare_marker.saturating_sub(inner);
        }
        let cheaper = match self.best {
            Some((c, _)) => cost < c,
            None => true,
        };
        if cheaper {
            self.best = Some((cost, index));
        }
    }
}

/// Why a single step is impossible on the board.
#[derive(Clone, Copy, Debug)]
enum StepError {
    NoChecker(u8),
    MustEnterFirst,
    Blocked(u8),
    BearOffTooEarly,
    BearOffFromLower(u8, u8),
}

impl StepError {
    fn error(self, segment: Segment) -> MoveParseError {
        match self {
            StepError::NoChecker(point) => MoveParseError::NoChecker { point, segment },
            StepError::MustEnterFirst => MoveParseError::MustEnterFirst { segment },
            StepError::Blocked(point) => MoveParseError::Blocked { point, segment },
            StepError::BearOffTooEarly => MoveParseError::BearOffTooEarly { segment },
            StepError::BearOffFromLower(point, die) => MoveParseError::BearOffFromLower {
                point,
                die,
                segment,
            },
        }
    }
}

/// Plays one checker from `from` to `to` (0 = off) with `die` under the rules, returning the new
/// board and whether a blot was hit.
fn step(board: &[i8; 26], from: u8, to: u8, die: u8) -> Result<([i8; 26], bool), StepError> {
    let (f, t) = (usize::from(from), usize::from(to));
    if board[f] <= 0 {
        return Err(StepError::NoChecker(from));
    }
    if f != BAR && board[BAR] > 0 {
        return Err(StepError::MustEnterFirst);
    }
    if t == OFF {
        if board[7..=BAR].iter().any(|&c| c > 0) {
            return Err(StepError::BearOffTooEarly);
        }
        if die > from && board[f + 1..=6].iter().any(|&c| c > 0) {
            return Err(StepError::BearOffFromLower(from, die));
        }
    } else if board[t] < -1 {
        return Err(StepError::Blocked(to));
    }
    let mut next = *board;
    next[f] -= 1;
    let mut hit = false;
    if t != OFF {
        if next[t] == -1 {
            next[t] = 1;
            next[OFF] -= 1;
            hit = true;
        } else {
            next[t] += 1;
        }
    }
    Ok((next, hit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::Dice;
    use crate::rules::movegen::legal_moves;
    use crate::rules::moves::Step;

    fn fmt(pos: &Position, steps: &[(u8, u8)]) -> String {
        let steps: Vec<Step> = steps.iter().map(|&(from, to)| Step { from, to }).collect();
        format_move(pos, &Move::from_steps(&steps))
    }

    #[test]
    fn gnubg_examples() {
        let start = Position::starting();
        assert_eq!(fmt(&start, &[(6, 5), (8, 5)]), "8/5 6/5");
        assert_eq!(
            fmt(&start, &[(8, 5), (8, 5), (6, 3), (6, 3)]),
            "8/5(2) 6/3(2)"
        );
        assert_eq!(fmt(&start, &[(24, 18), (18, 13)]), "24/13");
        assert_eq!(fmt(&start, &[(13, 7), (7, 4), (13, 7), (7, 4)]), "13/4(2)");
        assert_eq!(fmt(&start, &[]), "");
        // A blot on our 18 and 22 (their 7 and 3); a checker of ours on the bar.
        let mut me = [0u8; 25];
        me[24] = 1;
        me[23] = 1;
        me[5] = 13;
        let mut them = [0u8; 25];
        them[6] = 1; // their 7 = our 18
        them[2] = 1; // their 3 = our 22
        them[12] = 13;
        let p = Position::from_sides(&me, &them).unwrap();
        assert_eq!(fmt(&p, &[(25, 22), (24, 18)]), "bar/22* 24/18*");
        assert_eq!(fmt(&p, &[(25, 22), (22, 18)]), "bar/22*/18*");
        let mut home = [0u8; 25];
        home[5] = 2;
        let h = Position::from_sides(&home, &them).unwrap();
        assert_eq!(fmt(&h, &[(6, 0), (6, 0)]), "6/off(2)");
    }

    #[test]
    fn hits_belong_to_the_checker_that_made_them() {
        // Blots on our 6 and 4. With 33: one checker 12/9/6*/3, another 7/4*.
        let mut me = [0u8; 25];
        me[11] = 1; // 12
        me[6] = 1; // 7
        me[12] = 13;
        let mut them = [0u8; 25];
        them[24 - 6] = 1; // our 6
        them[24 - 4] = 1; // our 4
        them[0] = 13; // their 1 = our 24
        let p = Position::from_sides(&me, &them).unwrap();
        assert_eq!(fmt(&p, &[(12, 9), (9, 6), (6, 3), (7, 4)]), "12/6*/3 7/4*");
        // Two checkers arriving on a blot: only one of them hit it.
        assert_eq!(fmt(&p, &[(12, 6), (7, 6)]), "12/6* 7/6");
    }

    #[test]
    fn opening_moves_format() {
        let start = Position::starting();
        let moves = legal_moves(&start, Dice::new(3, 1).unwrap());
        let texts: Vec<String> = moves.iter().map(|m| format_move(&start, &m.mv)).collect();
        assert!(texts.contains(&"8/5 6/5".to_string()), "{texts:?}");
        assert!(texts.contains(&"24/20".to_string()), "{texts:?}");
        let moves = legal_moves(&start, Dice::new(6, 5).unwrap());
        let texts: Vec<String> = moves.iter().map(|m| format_move(&start, &m.mv)).collect();
        assert!(texts.contains(&"24/13".to_string()), "{texts:?}");
    }
}

#[cfg(test)]
mod parse_tests {
    use super::*;
    use crate::rules::movegen::play_steps;
    use crate::rules::moves::Step;
    use crate::rules::position::Side;
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn dice(s: &str) -> Dice {
        s.parse().unwrap()
    }

    /// A position from the mover's checkers and the opponent's, both as (point, count) in the
    /// mover's numbering; the mover's bar is 25, the opponent's bar 0.
    fn pos(mine: &[(usize, i8)], theirs: &[(usize, i8)]) -> Position {
        let mut board = [0i8; 26];
        for &(p, n) in mine {
            board[p] += n;
        }
        for &(p, n) in theirs {
            board[p] -= n;
        }
        Position::from_board(board).unwrap()
    }

    /// The position after playing `steps` (no legality check beyond the board's).
    fn after(p: &Position, steps: &[(u8, u8)]) -> Position {
        let steps: Vec<Step> = steps.iter().map(|&(from, to)| Step { from, to }).collect();
        play_steps(p, &steps).expect("playable steps")
    }

    fn parse(p: &Position, d: &str, text: &str) -> Position {
        parse_move(p, dice(d), text)
            .unwrap_or_else(|e| panic!("{d}: {text:?}: {e}"))
            .position
    }

    fn error(p: &Position, d: &str, text: &str) -> MoveParseError {
        match parse_move(p, dice(d), text) {
            Ok(m) => panic!("{d}: {text:?} parsed as {}", format_move(p, &m.mv)),
            Err(e) => e,
        }
    }

    #[test]
    fn separators_and_order() {
        let start = Position::starting();
        let expected = after(&start, &[(8, 5), (6, 5)]);
        for text in [
            "8/5 6/5",
            "6/5 8/5",
            "8/5, 6/5",
            "8/5,6/5",
            "  8/5   6/5  ",
            "8/5\t6/5",
            "8 5 6 5",
            "8/5 6 5",
            "31: 8/5 6/5",
            "13: 6/5 8/5",
        ] {
            assert_eq!(parse(&start, "31", text), expected, "{text:?}");
        }
    }

    #[test]
    fn chains_and_consolidation() {
        let start = Position::starting();
        let run = after(&start, &[(24, 18), (18, 13)]);
        for text in [
            "24/18/13",
            "24/13",
            "24/18 18/13",
            "18/13 24/18",
            "24/18*/13",
        ] {
            assert_eq!(parse(&start, "65", text), run, "{text:?}");
        }
        // 61: 13/6 can only go through 7 (12 is blocked).
        assert_eq!(
            parse(&start, "61", "13/6"),
            after(&start, &[(13, 7), (7, 6)])
        );
        // Doubles: consolidated and repeated.
        let both = after(&start, &[(13, 10), (10, 7), (13, 10), (10, 7)]);
        for text in [
            "13/7(2)",
            "13/7 13/7",
            "13/10/7(2)",
            "13/10(2) 10/7(2)",
            "33: 13/7(2)",
        ] {
            assert_eq!(parse(&start, "33", text), both, "{text:?}");
        }
        let four = after(&start, &[(24, 20), (20, 16), (24, 20), (20, 16)]);
        assert_eq!(parse(&start, "44", "24/16(2)"), four);
        // 44: 24/8 in four steps (the starting position blocks it on 12).
        let open = pos(
            &[(24, 2), (13, 5), (8, 3), (6, 5)],
            &[(18, 1), (4, 1), (1, 13)],
        );
        assert_eq!(
            parse(&open, "44", "44: 24/8"),
            after(&open, &[(24, 20), (20, 16), (16, 12), (12, 8)])
        );
        assert_eq!(
            error(&start, "44", "24/8").to_string(),
            "point 12 is blocked ('24/8' at character 1)"
        );
        // XG writes several one-pip steps as one movement: `11: 6/3`.
        assert_eq!(
            parse(&start, "11", "8/7 6/3"),
            after(&start, &[(8, 7), (6, 5), (5, 4), (4, 3)])
        );
        // A chain whose later part is listed first.
        assert_eq!(
            parse(&start, "11", "7/6 8/7 6/5(2)"),
            after(&start, &[(8, 7), (7, 6), (6, 5), (6, 5)])
        );
    }

    #[test]
    fn consolidated_moves_prefer_not_to_hit() {
        // Blot on 18 (reachable 24/18 with the 6), point 19 open (24/19 with the 5).
        let p = pos(&[(24, 2), (13, 5), (8, 3), (6, 5)], &[(18, 1), (1, 14)]);
        let quiet = after(&p, &[(24, 19), (19, 13)]);
        let hit = after(&p, &[(24, 18), (18, 13)]);
        assert_ne!(quiet, hit);
        assert_eq!(parse(&p, "65", "24/13"), quiet);
        assert_eq!(parse(&p, "56", "24/13"), quiet);
        assert_eq!(hit.bar(Side::Opponent), 1);
        assert_eq!(parse(&p, "65", "24/18*/13"), hit);
        assert_eq!(parse(&p, "65", "24/18/13"), hit);
        // A marker on a destination that is not hit stands for the hit on the way.
        assert_eq!(parse(&p, "65", "24/13*"), hit);
        // Only one path: the hit is made even if not marked.
        let q = pos(
            &[(24, 2), (13, 5), (8, 3), (6, 5)],
            &[(18, 1), (19, 2), (1, 12)],
        );
        assert_eq!(parse(&q, "65", "24/13"), after(&q, &[(24, 18), (18, 13)]));
    }

    #[test]
    fn repetition_and_hit_markers() {
        let start = Position::starting();
        let p = after(&start, &[(8, 7), (8, 7), (6, 5), (6, 5)]);
        for text in [
            "8/7(2) 6/5(2)",
            "8/7*(2) 6/5(2)",
            "8/7(2)* 6/5 6/5",
            "6/5(2) 8/7(2)",
        ] {
            assert_eq!(parse(&start, "11", text), p, "{text:?}");
        }
        // `6/4*(2)`: the first checker hits, the second lands on it.
        let q = pos(&[(24, 2), (13, 5), (8, 3), (6, 5)], &[(4, 1), (12, 14)]);
        let r = parse(&q, "22", "24/20 6/4*(2)");
        assert_eq!(r, after(&q, &[(24, 22), (22, 20), (6, 4), (6, 4)]));
        assert_eq!(r.bar(Side::Opponent), 1);
        // Hit markers where nothing is hit are ignored.
        assert_eq!(
            parse(&start, "61", "13/7* 8/7*"),
            after(&start, &[(13, 7), (8, 7)])
        );
    }

    #[test]
    fn bar_and_off_spellings() {
        let p = pos(&[(25, 1), (13, 14)], &[(1, 2), (12, 13)]);
        let entered = after(&p, &[(25, 22), (22, 21)]);
        for text in [
            "bar/22 22/21",
            "b/22/21",
            "25/21",
            "Bar/21",
            "BAR/22 22/21",
            "bar 21",
        ] {
            assert_eq!(parse(&p, "31", text), entered, "{text:?}");
        }
        let home = pos(&[(6, 2)], &[(20, 15)]);
        let off = after(&home, &[(6, 0), (6, 0)]);
        for text in [
            "6/off(2)",
            "6/0 6/0",
            "6/o 6/O",
            "6/- 6/-",
            "6/Off(2)",
            "6/OFF 6/of",
        ] {
            assert_eq!(parse(&home, "66", text), off, "{text:?}");
        }
        let ones = pos(&[(1, 4)], &[(20, 15)]);
        assert_eq!(
            parse(&ones, "11", "1/Off(4)").off(Side::Player),
            15,
            "all borne off"
        );
    }

    #[test]
    fn bear_off_with_overage() {
        // 65: 9/off, either 9/4/off or 9/3/off: nothing on 4..=6 after the first step.
        let p = pos(&[(9, 1), (3, 2), (2, 3)], &[(20, 15)]);
        let r = parse(&p, "65", "9/off");
        assert_eq!(r.off(Side::Player), 10);
        assert_eq!(r, parse(&p, "65", "9/3/off"));
        assert_eq!(r, parse(&p, "65", "9/4 4/0"));
        // 44: 5/off is 5/1/off.
        let q = pos(&[(5, 1), (1, 2)], &[(20, 15)]);
        assert_eq!(
            parse(&q, "44", "5/off 1/off(2)").off(Side::Player),
            15,
            "every checker off"
        );
    }

    #[test]
    fn empty_text_and_dances() {
        // Closed out on the bar.
        let p = pos(
            &[(25, 1), (13, 14)],
            &[(24, 2), (23, 2), (22, 2), (21, 2), (20, 2), (19, 2), (1, 3)],
        );
        for text in [
            "",
            "   ",
            "Cannot Move",
            "cannot move",
            "64:",
            "64: Cannot Move",
        ] {
            let m = parse_move(&p, dice("64"), text).unwrap();
            assert!(m.mv.is_empty(), "{text:?}");
            assert_eq!(m.position, p);
        }
        let start = Position::starting();
        assert_eq!(
            error(&start, "64", ""),
            MoveParseError::MissingMove { dice: dice("64") }
        );
        assert_eq!(
            error(&start, "64", "Cannot Move").to_string(),
            "no move is given, but the roll 64 can be played"
        );
    }

    #[test]
    fn syntax_errors_say_where() {
        let start = Position::starting();
        let e = error(&start, "31", "8/5 x1");
        assert_eq!(e.to_string(), "bad token 'x1' at character 5");
        assert_eq!(
            error(&start, "31", "8/5 6/5?"),
            MoveParseError::BadToken {
                token: "?".into(),
                at: 8
            }
        );
        assert_eq!(
            error(&start, "31", "8/5 6/5 é"),
            MoveParseError::BadToken {
                token: "é".into(),
                at: 9
            }
        );
        assert!(matches!(
            error(&start, "31", "26/23"),
            MoveParseError::NoSuchPoint { at: 1, .. }
        ));
        assert!(matches!(
            error(&start, "31", "8/99999999999999999999999"),
            MoveParseError::NoSuchPoint { at: 3, .. }
        ));
        assert_eq!(
            error(&start, "31", "/8/5"),
            MoveParseError::MisplacedSlash { at: 1 }
        );
        assert_eq!(
            error(&start, "31", "8//5"),
            MoveParseError::MisplacedSlash { at: 3 }
        );
        assert_eq!(
            error(&start, "31", "8/5 6/"),
            MoveParseError::MisplacedSlash { at: 6 }
        );
        assert_eq!(
            error(&start, "31", "8/5 6"),
            MoveParseError::MissingDestination { at: 5 }
        );
        for (text, at) in [
            ("8/5(0)", 4),
            ("8/5(5)", 4),
            ("8(2)", 2),
            ("8/5(2", 4),
            ("(2)", 1),
            ("8/5()", 4),
        ] {
            assert_eq!(
                error(&start, "33", text),
                MoveParseError::BadRepeat { at },
                "{text:?}"
            );
        }
        assert!(matches!(
            error(&start, "31", "62: 8/5 6/5"),
            MoveParseError::DiceMismatch { .. }
        ));
    }

    #[test]
    fn geometry_and_dice_errors() {
        let start = Position::starting();
        let seg = |text: &str, at| Segment {
            text: text.into(),
            at,
        };
        assert_eq!(
            error(&start, "31", "0/5"),
            MoveParseError::FromOff {
                segment: seg("off/5", 1)
            }
        );
        assert_eq!(
            error(&start, "31", "5/bar"),
            MoveParseError::ToBar {
                segment: seg("5/bar", 1)
            }
        );
        assert_eq!(
            error(&start, "31", "6/8"),
            MoveParseError::Backwards {
                segment: seg("6/8", 1)
            }
        );
        assert_eq!(
            error(&start, "61", "13/10"),
            MoveParseError::NotRolled {
                segment: seg("13/10", 1),
                dice: dice("61")
            }
        );
        assert_eq!(
            error(&start, "61", "13/7 13/12 8/7"),
            MoveParseError::TooManySteps {
                needed: 3,
                available: 2,
                dice: dice("61")
            }
        );
        assert_eq!(
            error(&start, "66", "24/18(5)").to_string(),
            "bad repeat count at character 6 (write (2), (3) or (4) after a movement)"
        );
        assert_eq!(
            error(&start, "61", "13/7 8/2"),
            MoveParseError::NoDieLeft {
                segment: seg("8/2", 6),
                dice: dice("61")
            }
        );
    }

    #[test]
    fn board_errors() {
        let start = Position::starting();
        let e = error(&start, "61", "14/8 8/7");
        assert_eq!(
            e.to_string(),
            "no checker on point 14 ('14/8' at character 1)"
        );
        // The opponent holds our 7 point.
        let p = pos(&[(24, 2), (13, 5), (8, 3), (6, 5)], &[(7, 2), (12, 13)]);
        let e = error(&p, "61", "13/7 8/7");
        assert_eq!(e.to_string(), "point 7 is blocked ('13/7' at character 1)");
        assert_eq!(
            error(&start, "51", "13/8 6/1").to_string(),
            "point 1 is blocked ('6/1' at character 6)"
        );
        let bar = pos(&[(25, 1), (13, 14)], &[(1, 2), (12, 13)]);
        assert!(matches!(
            error(&bar, "31", "13/10 13/12"),
            MoveParseError::MustEnterFirst { .. }
        ));
        assert!(matches!(
            error(&bar, "31", "13/9"),
            MoveParseError::MustEnterFirst { .. }
        ));
        assert!(matches!(
            error(&start, "61", "6/off"),
            MoveParseError::BearOffTooEarly { .. }
        ));
        let home = pos(&[(5, 1), (2, 1), (1, 13)], &[(20, 15)]);
        assert_eq!(
            error(&home, "65", "2/off").to_string(),
            "a 6 bears off from point 2 only when no checker is on a higher point \
             ('2/off' at character 1)"
        );
        assert!(matches!(
            error(&bar, "31", "bar/22 13/12 13/12"),
            MoveParseError::TooManySteps { .. }
        ));
    }

    #[test]
    fn rule_errors() {
        let start = Position::starting();
        assert_eq!(
            error(&start, "61", "13/7").to_string(),
            "the move uses only one die but both can be played"
        );
        assert_eq!(
            error(&start, "44", "24/20 24/16"),
            MoveParseError::FewerDice {
                used: 3,
                possible: 4
            }
        );
        // One checker on 13, the rest on 1: after 13/7 or 13/8 the 2 point blocks the other
        // die, so only one die can be played, and it must be the 6.
        let p = pos(&[(13, 1), (1, 14)], &[(2, 2), (20, 13)]);
        assert_eq!(parse(&p, "65", "13/7"), after(&p, &[(13, 7)]));
        assert_eq!(
            error(&p, "65", "13/8"),
            MoveParseError::LargerDieRequired { die: 6 }
        );
    }

    /// Every legal play round-trips through the consolidated notation (`24/13`, `bar/22*/16`,
    /// `13/7(2)`) and through the plain per-step notation of .mat files (`25/22 13/7*`, `6/0`),
    /// in positions from random games.
    #[test]
    fn legal_moves_round_trip() {
        let mut rng = StdRng::seed_from_u64(20240805);
        let mut checked = 0usize;
        for _game in 0..40 {
            let mut position = Position::starting();
            for _ply in 0..200 {
                let d = Dice::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
                let legal = legal_moves(&position, d);
                for m in &legal {
                    let texts = [consolidated(&position, &m.mv), plain(&position, &m.mv)];
                    for text in texts {
                        let parsed = parse_move(&position, d, &text)
                            .unwrap_or_else(|e| panic!("{position:?} {d} {text:?}: {e}"));
                        assert_eq!(parsed.position, m.position, "{position:?} {d} {text:?}");
                        checked += 1;
                    }
                }
                let next = legal[rng.gen_range(0..legal.len())].position;
                if next.result().is_some() {
                    break;
                }
                position = next.swap();
            }
        }
        assert!(checked > 30_000, "{checked}");
    }

    /// The steps of `mv` in play order, each with whether it hit.
    fn steps_with_hits(before: &Position, mv: &Move) -> Vec<(Step, bool)> {
        let mut position = *before;
        mv.steps()
            .iter()
            .map(|&s| {
                let hit = s.to != 0 && position.board()[usize::from(s.to)] == -1;
                position = play_steps(&position, &[s]).unwrap();
                (s, hit)
            })
            .collect()
    }

    /// The steps of a move one by one, numerically, with `*` after hits (gnubg's .mat export).
    fn plain(before: &Position, mv: &Move) -> String {
        let texts: Vec<String> = steps_with_hits(before, mv)
            .iter()
            .map(|(s, hit)| format!("{}/{}{}", s.from, s.to, if *hit { "*" } else { "" }))
            .collect();
        texts.join(" ")
    }

    /// Each checker's steps joined into one movement that names only the points where it hit
    /// (`24/18*/13`, `13/4`), identical movements counted (`13/7(2)`).
    fn consolidated(before: &Position, mv: &Move) -> String {
        // Paths as (points named, last point).
        let mut paths: Vec<(String, u8)> = Vec::new();
        for (s, hit) in steps_with_hits(before, mv) {
            let to = match (s.to, hit) {
                (0, _) => "off".to_string(),
                (t, true) => format!("{t}*"),
                (t, false) => t.to_string(),
            };
            match paths
                .iter_mut()
                .find(|(_, end)| *end == s.from && s.from != 25)
            {
                Some(path) => {
                    if path.0.ends_with('*') {
                        path.0.push('/');
                        path.0.push_str(&to);
                    } else {
                        // Drop the unhit intermediate point.
                        let cut = path.0.rfind('/').unwrap();
                        path.0.truncate(cut + 1);
                        path.0.push_str(&to);
                    }
                    path.1 = s.to;
                }
                None => {
                    let from = if s.from == 25 {
                        "bar".to_string()
                    } else {
                        s.from.to_string()
                    };
                    paths.push((format!("{from}/{to}"), s.to));
                }
            }
        }
        let mut counted: Vec<(String, usize)> = Vec::new();
        for (text, _) in paths {
            match counted.iter_mut().find(|(t, _)| *t == text) {
                Some((_, n)) => *n += 1,
                None => counted.push((text, 1)),
            }
        }
        let texts: Vec<String> = counted
            .into_iter()
            .map(|(t, n)| if n > 1 { format!("{t}({n})") } else { t })
            .collect();
        texts.join(" ")
    }

    fn sample_positions() -> Vec<Position> {
        vec![
            Position::starting(),
            pos(&[(25, 1), (13, 14)], &[(1, 2), (12, 13)]),
            pos(&[(9, 1), (3, 2), (2, 3)], &[(20, 15)]),
            pos(
                &[(24, 2), (13, 5), (8, 3), (6, 5)],
                &[(18, 1), (4, 1), (1, 13)],
            ),
            pos(
                &[(25, 2), (6, 13)],
                &[(24, 2), (23, 2), (22, 2), (21, 2), (20, 2), (0, 1), (1, 4)],
            ),
        ]
    }

    fn move_soup() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            "[0-9]{1,2}",
            "[0-9]{3,30}",
            Just("/".to_string()),
            Just("*".to_string()),
            Just("(".to_string()),
            Just(")".to_string()),
            "\\([0-9]\\)",
            Just("bar".to_string()),
            Just("off".to_string()),
            Just("Off".to_string()),
            Just("b".to_string()),
            Just("o".to_string()),
            Just("-".to_string()),
            Just(" ".to_string()),
            Just(",".to_string()),
            "[1-6][1-6]:",
            Just("Cannot Move".to_string()),
            "[a-z]{1,3}",
        ];
        prop::collection::vec(token, 0..16).prop_map(|t| t.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100_000))]

        /// Arbitrary text and move-like soups never make the parser panic, and whatever it
        /// accepts is one of the legal plays.
        #[test]
        fn parse_move_never_panics(
            text in prop_oneof![any::<String>(), move_soup()],
            which in 0usize..5,
            d1 in 1u8..=6,
            d2 in 1u8..=6,
        ) {
            let position = sample_positions()[which];
            let d = Dice::new(d1, d2).unwrap();
            if let Ok(m) = parse_move(&position, d, &text) {
                prop_assert!(legal_moves(&position, d).contains(&m));
            }
        }
    }
}
