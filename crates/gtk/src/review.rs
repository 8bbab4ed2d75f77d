//! The record of a match as the record pane shows it, and the review of it, without GTK.
//!
//! [`RecordView::new`] replays a [`MatchRecord`] and turns it into what the pane lists: per
//! game a selector label ("Game 3: 2–4, Crawford") and numbered rows with two columns, one per
//! player, each cell one action in GNU Backgammon's notation ("43: 24/20 13/10",
//! "Doubles => 2", "Takes") with its marks from the stored analysis: the mark of the action
//! (doubtful `?!`, bad `?`, very bad `??`), the mark of the cube decision before a checker
//! play, and the luck of the roll. Marks are written as symbols as well as coloured, so that
//! they do not depend on colour.
//!
//! The cursor of the review is an action of the record (`Some((game, entry))`, both from 0) or
//! the live position (`None`). [`RecordView::navigate`] moves it as GNU Backgammon's keys do
//! ([`Nav`]), and [`RecordView::display`] is the board at the selected action: the position
//! after it, with the dice that were played, the cube as it stood, and the checkers that moved
//! marked ([`last_move`]).

use cubeful_engine::formats::notation::format_move;
use cubeful_engine::game::match_state::{GameState, MatchState};
use cubeful_engine::game::record::analysis::{Luck, Skill};
use cubeful_engine::game::record::{ActionAnalysis, MatchRecord, RecordAction, Replay, Snapshot};
use cubeful_engine::{CubeOwner, Move, Player, Position, Resignation};

use crate::board::model::LastMove;
use crate::board::{CubePlace, Display, Seat, Slot};
use crate::i18n::{gettext, gettext_f};
use crate::session::seat_of;

/// The cursor of the review: an action of the record (game, entry; both from 0), or `None`
/// for the live position (the game in progress, or the end of the match).
pub type Selection = Option<(usize, usize)>;

/// A move of the review cursor (GNU Backgammon's keys in brackets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nav {
    /// The action before (Page Up); from the live position, the last action.
    Previous,
    /// The action after (Page Down); after the last action, the live position.
    Next,
    /// The nearest earlier action with an error mark, across games (Ctrl+Page Up).
    PreviousMarked,
    /// The nearest later action with an error mark, across games (Ctrl+Page Down).
    NextMarked,
    /// The first action of the selected game (Home).
    First,
    /// The last action of the selected game (End); in the last game, the live position.
    Last,
    /// The first action of the game before.
    PreviousGame,
    /// The first action of the next game; from the last game, the live position.
    NextGame,
}

/// One action as the pane shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Who acted.
    pub player: Player,
    /// "43: 24/20 13/10?!", "Doubles => 2", "No double?? · 61: 13/7 8/7".
    pub text: String,
    /// The worse of the action's mark and the mark of the cube decision before it.
    pub skill: Skill,
    /// The luck of the roll (for an action that rolled).
    pub luck: Luck,
}

impl Cell {
    /// The action has an error mark (what Ctrl+Page Up/Down look for).
    pub fn is_marked(&self) -> bool {
        self.skill != Skill::None
    }
}

/// One numbered line of a game: at most one action per player, read left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The number shown (from 1).
    pub number: usize,
    /// The entries (indices into the game's cells) in the column of player 0 and player 1.
    pub entries: [Option<usize>; 2],
}

/// One game of the record.
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    /// "Game 3: 2–4, Crawford" (translated; the score of player 0 first).
    pub label: String,
    /// One cell per entry of the game, in order.
    pub cells: Vec<Cell>,
    /// The rows of the pane.
    pub rows: Vec<Row>,
}

impl GameView {
    /// The row showing entry `entry`.
    pub fn row_of(&self, entry: usize) -> Option<usize> {
        self.rows
            .iter()
            .position(|r| r.entries.contains(&Some(entry)))
    }
}

/// The record of a match as the pane shows it, with the replay to show its positions.
#[derive(Clone, Debug)]
pub struct RecordView {
    games: Vec<GameView>,
    replay: Option<Replay>,
    record: MatchRecord,
}

impl RecordView {
    /// The view of `record`. A record the rules refuse (it cannot come from a game being
    /// played, but may from a file) is replayed leniently: the games and actions that replay
    /// are shown.
    pub fn new(record: &MatchRecord) -> RecordView {
        let (record, replay) = match record.replay() {
            Ok(replay) => (record.clone(), Some(replay)),
            Err(_) => match record.replay_lenient() {
                Ok(lenient) => (lenient.record, Some(lenient.replay)),
                Err(_) => (record.clone(), None),
            },
        };
        let games = record
            .games
            .iter()
            .enumerate()
            .map(|(g, game)| {
                let replayed = replay.as_ref().and_then(|r| r.game(g));
                let cells: Vec<Cell> = game
                    .entries
                    .iter()
                    .enumerate()
                    .map(|(e, entry)| {
                        let before = replayed.and_then(|r| r.rolled(e).or_else(|| r.before(e)));
                        let after = replayed.and_then(|r| r.after(e));
                        cell(&entry.action, entry.analysis.as_deref(), before, after)
                    })
                    .collect();
                GameView {
                    label: game_label(g, game.score, game.crawford),
                    rows: rows(&cells),
                    cells,
                }
            })
            .collect();
        RecordView {
            games,
            replay,
            record,
        }
    }

    /// The games, in order.
    pub fn games(&self) -> &[GameView] {
        &self.games
    }

    /// The record shown.
    pub fn record(&self) -> &MatchRecord {
        &self.record
    }

    /// The cell of an action.
    pub fn cell(&self, game: usize, entry: usize) -> Option<&Cell> {
        self.games.get(game)?.cells.get(entry)
    }

    /// `Some(selection)` when it names an action of the record.
    pub fn contains(&self, game: usize, entry: usize) -> bool {
        self.cell(game, entry).is_some()
    }

    /// Actions with an error mark in the whole record.
    pub fn marked_count(&self) -> usize {
        self.games
            .iter()
            .flat_map(|g| &g.cells)
            .filter(|c| c.is_marked())
            .count()
    }

    /// Every action of the record in order.
    fn all(&self) -> impl DoubleEndedIterator<Item = (usize, usize)> + '_ {
        self.games
            .iter()
            .enumerate()
            .flat_map(|(g, game)| (0..game.cells.len()).map(move |e| (g, e)))
    }

    /// The game the cursor is in (the last game for the live position).
    fn current_game(&self, from: Selection) -> Option<usize> {
        match from {
            Some((g, _)) => Some(g),
            None => self.games.len().checked_sub(1),
        }
    }

    /// The first action of the first game from `game` on that has actions.
    fn first_from(&self, game: usize) -> Selection {
        (game..self.games.len()).find_map(|g| (!self.games[g].cells.is_empty()).then_some((g, 0)))
    }

    /// Where `nav` moves the cursor from `from`. Where it cannot move (before the first
    /// action, no marked action further on), the cursor stays.
    pub fn navigate(&self, from: Selection, nav: Nav) -> Selection {
        let from = from.filter(|&(g, e)| self.contains(g, e));
        let last_game = self.games.len().checked_sub(1);
        match nav {
            Nav::Next => {
                let (g, e) = from?;
                self.all().skip_while(|&x| x != (g, e)).nth(1)
            }
            Nav::Previous => match from {
                None => self.all().next_back().or(from),
                Some(sel) => self.all().rev().skip_while(|&x| x != sel).nth(1).or(from),
            },
            Nav::NextMarked => {
                let (g, e) = from?;
                self.all()
                    .skip_while(|&x| x != (g, e))
                    .skip(1)
                    .find(|&(g, e)| self.games[g].cells[e].is_marked())
                    .or(from)
            }
            Nav::PreviousMarked => {
                let marked = |&(g, e): &(usize, usize)| self.games[g].cells[e].is_marked();
                match from {
                    None => self.all().rev().find(marked).or(from),
                    Some(sel) => self
                        .all()
                        .rev()
                        .skip_while(|&x| x != sel)
                        .skip(1)
                        .find(marked)
                        .or(from),
                }
            }
            Nav::First => {
                let g = self.current_game(from)?;
                if self.games[g].cells.is_empty() {
                    from
                } else {
                    Some((g, 0))
                }
            }
            Nav::Last => {
                let g = self.current_game(from)?;
                if Some(g) == last_game {
                    None
                } else {
                    Some((g, self.games[g].cells.len().checked_sub(1)?))
                }
            }
            Nav::NextGame => {
                let (g, _) = from?;
                self.first_from(g + 1)
            }
            Nav::PreviousGame => {
                let g = self.current_game(from)?;
                (0..g)
                    .rev()
                    .find(|&g| !self.games[g].cells.is_empty())
                    .map(|g| (g, 0))
                    .or(from)
            }
        }
    }

    /// The board at action `entry` of game `game`: the position after it (as GNU Backgammon
    /// shows a selected action), the dice of a roll, the cube as it stood, a resignation
    /// offered, and the checkers that moved marked. `names`: by seat. `None` for an action
    /// that is not in the record or was not replayed.
    /// The position (seen from the player on roll) and match state after entry `entry` of
    /// game `game`, as the board shows them when that action is selected.
    pub fn state_after(&self, game: usize, entry: usize) -> Option<(Position, MatchState)> {
        let after = self.replay.as_ref()?.game(game)?.after(entry)?;
        Some((after.position, after.state))
    }

    pub fn display(&self, game: usize, entry: usize, names: &[String; 2]) -> Option<Display> {
        let replayed = self.replay.as_ref()?.game(game)?;
        let after = replayed.after(entry)?;
        let action = &self.record.games.get(game)?.entries.get(entry)?.action;
        let mover = action.player();
        let state = &after.state;
        let seat = seat_of;
        let position = match state.on_roll {
            Player::One => after.position,
            Player::Zero => after.position.swap(),
        };
        let dice = match action {
            RecordAction::Move { player, dice, .. } | RecordAction::Roll { player, dice } => {
                Some((seat(*player), *dice))
            }
            _ => state.dice.map(|d| (seat(state.on_roll), d)),
        };
        let value = 1u32 << state.cube_log2.min(15);
        let cube = if state.doubled {
            Some((value * 2, CubePlace::Offered(seat(state.turn))))
        } else {
            Some((
                value,
                match state.cube_owner {
                    CubeOwner::Centered => CubePlace::Centre,
                    CubeOwner::Owned(p) => CubePlace::Owned(seat(p)),
                },
            ))
        };
        let in_game = state.game_state == GameState::Playing;
        let last_move = match action {
            RecordAction::Move { mv, .. } if !mv.is_empty() => Some(last_move(seat(mover), mv)),
            _ => None,
        };
        Some(Display {
            position,
            names: names.clone(),
            scores: [
                u32::from(state.score[Player::One.index()]),
                u32::from(state.score[Player::Zero.index()]),
            ],
            match_length: state.match_length,
            crawford: state.crawford,
            on_roll: in_game.then(|| seat(state.on_roll)),
            dice,
            cube,
            cube_live: !state.crawford,
            resignation: state
                .resigned
                .map(|r| (seat(state.turn.other()), resignation_value(r))),
            turn: None,
            roll: None,
            prompt: None,
            idle: false,
            last_move,
        })
    }
}

/// 1 (single), 2 (gammon) or 3 (backgammon), as the board draws a resignation.
fn resignation_value(r: Resignation) -> u8 {
    match r {
        Resignation::Single => 1,
        Resignation::Gammon => 2,
        Resignation::Backgammon => 3,
    }
}

/// The checkers `mv` moved, for the mover at `seat`: where each checker ended (a checker moved
/// twice counts once, at its end) and where each started.
pub fn last_move(seat: Seat, mv: &Move) -> LastMove {
    let mut to: Vec<u8> = Vec::new();
    let mut from: Vec<u8> = Vec::new();
    for step in mv.steps() {
        match to.iter().position(|&t| t == step.from) {
            // The checker that arrived there moves on.
            Some(i) => {
                to.remove(i);
            }
            None => from.push(step.from),
        }
        to.push(step.to);
    }
    let slots = |points: Vec<u8>| -> Vec<Slot> {
        points
            .into_iter()
            .map(|p| Slot::from_mover(seat, p))
            .collect()
    };
    LastMove {
        seat,
        from: slots(from),
        to: slots(to),
    }
}

/// "Game 3: 2–4" or "Game 3: 2–4, Crawford" (score of player 0 first).
fn game_label(game: usize, score: [u16; 2], crawford: bool) -> String {
    let number = (game + 1).to_string();
    let (a, b) = (score[0].to_string(), score[1].to_string());
    if crawford {
        gettext_f("Game {}: {}–{}, Crawford", &[&number, &a, &b])
    } else {
        gettext_f("Game {}: {}–{}", &[&number, &a, &b])
    }
}

/// The symbol GNU Backgammon writes after an action with this mark.
pub fn skill_symbol(skill: Skill) -> &'static str {
    match skill {
        Skill::None => "",
        Skill::Doubtful => "?!",
        Skill::Bad => "?",
        Skill::VeryBad => "??",
    }
}

/// The symbol written after the dice of a lucky or unlucky roll.
pub fn luck_symbol(luck: Luck) -> &'static str {
    match luck {
        Luck::VeryLucky => "++",
        Luck::Lucky => "+",
        Luck::None => "",
        Luck::Unlucky => "−",
        Luck::VeryUnlucky => "−−",
    }
}

/// The CSS class of a mark ("" for none).
pub fn skill_class(skill: Skill) -> &'static str {
    match skill {
        Skill::None => "",
        Skill::Doubtful => "mark-doubtful",
        Skill::Bad => "mark-bad",
        Skill::VeryBad => "mark-very-bad",
    }
}

/// The CSS class of the luck of a roll ("" for none).
pub fn luck_class(luck: Luck) -> &'static str {
    match luck {
        Luck::VeryLucky => "luck-very-lucky",
        Luck::Lucky => "luck-lucky",
        Luck::None => "",
        Luck::Unlucky => "luck-unlucky",
        Luck::VeryUnlucky => "luck-very-unlucky",
    }
}

/// The cell of one action. `before`: the state the mover saw (after the roll for a checker
/// play); `after`: the state after the action.
fn cell(
    action: &RecordAction,
    analysis: Option<&ActionAnalysis>,
    before: Option<&Snapshot>,
    after: Option<&Snapshot>,
) -> Cell {
    let skill_of = |a: &ActionAnalysis| a.skill;
    let skill = analysis.map(skill_of).unwrap_or_default();
    let cube_skill = analysis.map(|a| a.cube_skill).unwrap_or_default();
    let luck = analysis.map(|a| a.luck_mark).unwrap_or_default();
    let mark = skill_symbol(skill);
    let rolled = |dice: cubeful_engine::Dice| {
        format!("{}{}{}", dice.first(), dice.second(), luck_symbol(luck))
    };
    let cube_value = |s: Option<&Snapshot>| s.map(|s| 1u32 << s.state.cube_log2.min(15));
    let mut text = match action {
        RecordAction::Move { dice, mv, .. } => {
            let played = match before {
                Some(b) if !mv.is_empty() => format_move(&b.position, mv),
                _ if mv.is_empty() => gettext("cannot move"),
                _ => String::new(),
            };
            format!("{}: {played}{mark}", rolled(*dice))
        }
        RecordAction::Roll { dice, .. } => format!("{}:{mark}", rolled(*dice)),
        RecordAction::Double { .. } => {
            // The cube offered is twice the cube before the double.
            let value = cube_value(before).map(|v| (v * 2).to_string());
            match value {
                Some(v) => format!("{}{mark}", gettext_f("Doubles => {}", &[&v])),
                None => format!("{}{mark}", gettext("Doubles")),
            }
        }
        RecordAction::Take { .. } => format!("{}{mark}", gettext("Takes")),
        RecordAction::Drop { .. } => format!("{}{mark}", gettext("Drops")),
        RecordAction::Beaver { .. } => match cube_value(after) {
            Some(v) => format!("{}{mark}", gettext_f("Beavers => {}", &[&v.to_string()])),
            None => format!("{}{mark}", gettext("Beavers the cube")),
        },
        RecordAction::Resign { resignation, .. } => {
            let what = match resignation {
                Resignation::Single => gettext("Resigns a single game"),
                Resignation::Gammon => gettext("Resigns a gammon"),
                Resignation::Backgammon => gettext("Resigns a backgammon"),
            };
            format!("{what}{mark}")
        }
        RecordAction::AcceptResignation { .. } => format!("{}{mark}", gettext("Accepts")),
        RecordAction::RejectResignation { .. } => format!("{}{mark}", gettext("Rejects")),
        RecordAction::SetUp(_) => gettext("Position set up"),
    };
    if cube_skill != Skill::None {
        text = format!(
            "{}{} · {text}",
            gettext("No double"),
            skill_symbol(cube_skill)
        );
    }
    Cell {
        player: action.player(),
        text,
        skill: skill.max(cube_skill),
        luck,
    }
}

/// Numbered rows: each action goes in its player's column; a new row starts when that column
/// is taken or would be read before the action already in the row.
fn rows(cells: &[Cell]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        let column = cell.player.index();
        let fits = rows.last().is_some_and(|row| {
            row.entries[column].is_none() && (column == 1 || row.entries[1].is_none())
        });
        if !fits {
            rows.push(Row {
                number: rows.len() + 1,
                entries: [None, None],
            });
        }
        if let Some(row) = rows.last_mut() {
            row.entries[column] = Some(i);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::formats::match_file;
    use std::path::PathBuf;

    fn corpus(name: &str) -> PathBuf {
        cubeful_testkit::shared_path("corpus/sgf").join(name)
    }

    fn load(name: &str) -> MatchRecord {
        let path = corpus(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        match_file::read(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .record
    }

    const LASSE: &str = "gnubg-scripts_match1486073_analyzed.sgf";

    /// The text without the luck symbols after the dice.
    fn plain(text: &str) -> String {
        text.replace(['+', '−'], "")
    }

    fn cell_text(view: &RecordView, game: usize, row: usize, column: usize) -> String {
        let g = &view.games()[game];
        let e = g.rows[row].entries[column].expect("a cell");
        plain(&g.cells[e].text)
    }

    #[test]
    fn rows_and_marks_are_as_gnu_backgammon_shows_them() {
        let record = load(LASSE);
        let view = RecordView::new(&record);
        assert_eq!(view.games().len(), record.games.len());
        // GNU Backgammon 1.07 shows game 2 of this match as (its screenshot in the shared
        // docs/ui): row 1 "43: 24/20 13/10" | "54: 24/15*", row 8 "31: 7/4 6/5?!" |
        // "55: 16/11 8/3(2) 6/1?!", row 9 "43: 8/5 8/4?!", row 16 right "53: 11/3??".
        let game = &view.games()[1];
        assert_eq!(game.label, "Game 2: 2–0, Crawford");
        assert_eq!(cell_text(&view, 1, 0, 0), "43: 24/20 13/10");
        assert_eq!(cell_text(&view, 1, 0, 1), "54: 24/15*");
        assert_eq!(cell_text(&view, 1, 1, 0), "43: bar/21 13/10*");
        assert_eq!(cell_text(&view, 1, 7, 0), "31: 7/4 6/5?!");
        assert_eq!(cell_text(&view, 1, 7, 1), "55: 16/11 8/3(2) 6/1?!");
        assert_eq!(cell_text(&view, 1, 8, 0), "43: 8/5 8/4?!");
        assert_eq!(cell_text(&view, 1, 15, 1), "53: 11/3??");
        assert_eq!(cell_text(&view, 1, 3, 0), "64: cannot move");
        let e = game.rows[15].entries[1].unwrap();
        assert_eq!(game.cells[e].skill, Skill::VeryBad);
        assert_eq!(skill_class(game.cells[e].skill), "mark-very-bad");

        for (g, (game, rec)) in view.games().iter().zip(&record.games).enumerate() {
            // Every entry in exactly one row, in its player's column, in order.
            assert_eq!(game.cells.len(), rec.entries.len());
            let listed: Vec<usize> = game
                .rows
                .iter()
                .flat_map(|r| r.entries.iter().flatten().copied())
                .collect();
            assert_eq!(
                listed,
                (0..rec.entries.len()).collect::<Vec<_>>(),
                "game {g}"
            );
            for (i, row) in game.rows.iter().enumerate() {
                assert_eq!(row.number, i + 1);
                for (column, e) in row.entries.iter().enumerate() {
                    if let Some(e) = e {
                        assert_eq!(rec.entries[*e].action.player().index(), column);
                    }
                }
            }
            // Marks are the stored analysis' marks.
            for (cell, entry) in game.cells.iter().zip(&rec.entries) {
                let a = entry.analysis.as_deref();
                let skill = a.map(|a| a.skill.max(a.cube_skill)).unwrap_or_default();
                assert_eq!(cell.skill, skill);
                assert_eq!(cell.luck, a.map(|a| a.luck_mark).unwrap_or_default());
                assert!(cell.text.contains(skill_symbol(cell.skill)));
            }
        }
        let marked = record
            .games
            .iter()
            .flat_map(|g| &g.entries)
            .filter(|e| {
                e.analysis
                    .as_deref()
                    .is_some_and(|a| a.skill != Skill::None || a.cube_skill != Skill::None)
            })
            .count();
        assert!(marked > 5, "an analysed match has marks: {marked}");
        assert_eq!(view.marked_count(), marked);
    }

    #[test]
    fn navigation_visits_the_actions_in_order() {
        let view = RecordView::new(&load(LASSE));
        let all: Vec<(usize, usize)> = view.all().collect();
        let last_game = view.games().len() - 1;
        // Page Down from the first action walks through every action, then to the live end.
        let mut at = Some(all[0]);
        let mut walked = vec![all[0]];
        while let Some(next) = view.navigate(at, Nav::Next) {
            walked.push(next);
            at = Some(next);
        }
        assert_eq!(walked, all);
        assert_eq!(view.navigate(None, Nav::Next), None);
        // Page Up from the live end walks back and stops at the first action.
        let mut at = None;
        let mut back = Vec::new();
        loop {
            let prev = view.navigate(at, Nav::Previous);
            if prev == at {
                break;
            }
            back.push(prev.unwrap());
            at = prev;
        }
        back.reverse();
        assert_eq!(back, all);
        // Ctrl+Page Down: exactly the marked actions, in order, across games.
        let marked: Vec<(usize, usize)> = all
            .iter()
            .copied()
            .filter(|&(g, e)| view.games()[g].cells[e].is_marked())
            .collect();
        let mut at = Some(all[0]);
        let mut seen = Vec::new();
        if view.games()[0].cells[0].is_marked() {
            seen.push(all[0]);
        }
        loop {
            let next = view.navigate(at, Nav::NextMarked);
            if next == at {
                break;
            }
            seen.push(next.unwrap());
            at = next;
        }
        assert_eq!(seen, marked);
        assert!(
            marked
                .iter()
                .map(|m| m.0)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                > 1
        );
        // Ctrl+Page Up from the live end: the same, backwards.
        let mut at = None;
        let mut back = Vec::new();
        loop {
            let prev = view.navigate(at, Nav::PreviousMarked);
            if prev == at {
                break;
            }
            back.push(prev.unwrap());
            at = prev;
        }
        back.reverse();
        assert_eq!(back, marked);
        // Games: Home/End, previous/next game.
        assert!(last_game >= 1);
        assert_eq!(view.navigate(Some((0, 7)), Nav::First), Some((0, 0)));
        let end_of_0 = view.games()[0].cells.len() - 1;
        assert_eq!(view.navigate(Some((0, 7)), Nav::Last), Some((0, end_of_0)));
        assert_eq!(view.navigate(Some((last_game, 3)), Nav::Last), None);
        assert_eq!(view.navigate(Some((0, 7)), Nav::NextGame), Some((1, 0)));
        assert_eq!(view.navigate(Some((1, 7)), Nav::PreviousGame), Some((0, 0)));
        assert_eq!(view.navigate(Some((0, 3)), Nav::PreviousGame), Some((0, 3)));
        assert_eq!(view.navigate(Some((last_game, 1)), Nav::NextGame), None);
        assert_eq!(view.navigate(None, Nav::First), Some((last_game, 0)));
        assert_eq!(
            view.navigate(None, Nav::PreviousGame),
            Some((last_game - 1, 0))
        );
        // A selection that is not in the record counts as the live end.
        assert_eq!(view.navigate(Some((99, 0)), Nav::Next), None);
    }

    #[test]
    fn the_board_at_an_action_shows_the_position_after_it() {
        let record = load(LASSE);
        let view = RecordView::new(&record);
        let replay = record.replay().unwrap();
        let names = ["jonnyb1169".to_string(), "lasse".to_string()];
        let mut moves = 0;
        for (g, game) in record.games.iter().enumerate() {
            for (e, entry) in game.entries.iter().enumerate() {
                let d = view.display(g, e, &names).expect("every action is shown");
                let after = replay.game(g).unwrap().after(e).unwrap();
                let bottom = match after.state.on_roll {
                    Player::One => after.position,
                    Player::Zero => after.position.swap(),
                };
                assert_eq!(d.position, bottom);
                assert!(d.turn.is_none() && d.roll.is_none(), "read-only");
                if let RecordAction::Move { player, dice, mv } = &entry.action {
                    assert_eq!(d.dice, Some((seat_of(*player), *dice)));
                    if mv.is_empty() {
                        assert!(d.last_move.is_none());
                        continue;
                    }
                    moves += 1;
                    let last = d.last_move.expect("the move is marked");
                    assert_eq!(last.seat, seat_of(*player));
                    assert!(!last.to.is_empty() && last.to.len() <= mv.steps().len());
                    // Each marked slot holds the mover's checkers.
                    let board = d.position.board();
                    for slot in &last.to {
                        let mine = match (slot, last.seat) {
                            (Slot::Point(p), Seat::Bottom) => board[usize::from(*p)] > 0,
                            (Slot::Point(p), Seat::Top) => board[usize::from(*p)] < 0,
                            _ => true,
                        };
                        assert!(mine, "game {g} entry {e}: {slot:?}");
                    }
                }
            }
        }
        assert!(moves > 100);
        assert!(view.display(0, 10_000, &names).is_none());
    }

    #[test]
    fn a_move_chain_is_marked_once_at_its_end() {
        // 24/18*/13 as two steps of one checker (bottom player's numbering = mover's).
        let mv = Move::from_steps(&[
            cubeful_engine::Step { from: 24, to: 18 },
            cubeful_engine::Step { from: 18, to: 13 },
            cubeful_engine::Step { from: 8, to: 2 },
            cubeful_engine::Step { from: 8, to: 2 },
        ]);
        let last = last_move(Seat::Bottom, &mv);
        assert_eq!(
            last.from,
            vec![Slot::Point(24), Slot::Point(8), Slot::Point(8)]
        );
        assert_eq!(
            last.to,
            vec![Slot::Point(13), Slot::Point(2), Slot::Point(2)]
        );
        let top = last_move(Seat::Top, &mv);
        assert_eq!(top.to[0], Slot::Point(12));
    }

    #[test]
    fn every_corpus_file_is_listed_with_its_marks() {
        for name in [
            "gbf_test.sgf",
            "gnubg-scripts_match1484923_analyzed.sgf",
            "gnubg-scripts_test-match01_analyzed.sgf",
            "gnubgparser_charlot1-charlot2_7p_2025-11-08-2305.sgf",
            "gnubgparser_charlot1-charlot2_7p_2025-11-08-2308.sgf",
        ] {
            let record = load(name);
            let view = RecordView::new(&record);
            let entries: usize = record.games.iter().map(|g| g.entries.len()).sum();
            let cells: usize = view.games().iter().map(|g| g.cells.len()).sum();
            assert_eq!(cells, entries, "{name}");
            for (g, game) in view.games().iter().enumerate() {
                assert!(
                    game.label.starts_with(&format!("Game {}: ", g + 1)),
                    "{name}"
                );
                for cell in &game.cells {
                    assert!(!cell.text.is_empty(), "{name}");
                }
            }
        }
    }
}
