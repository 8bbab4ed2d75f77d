//! Move assembly: building a checker play one step at a time from clicks and drags.
//!
//! The engine decides what is legal: [`legal_moves`] gives every legal result of the roll (the
//! distinct final positions), and [`play_steps`] says whether one step can physically be
//! played. A partial move is allowed exactly when it can still be completed to one of the
//! engine's legal results with the dice left, so the player can never start down a path that
//! ends in an illegal play, and a move that uses fewer dice than the rules require cannot be
//! finished (its position is not among the legal results).
//!
//! Everything here is in the *mover's* numbering (points 1..=24 from the player on roll, 25 the
//! bar, 0 off), like [`Position`]. Front ends translate their screen places into this numbering.

use std::collections::HashMap;

use crate::rules::dice::Dice;
use crate::rules::movegen::play_steps;
use crate::rules::movegen::{legal_moves, LegalMove};
use crate::rules::moves::{Move, Step};
use crate::rules::position::Position;

/// The mover's bar as a source point.
pub const BAR: u8 = 25;
/// "Borne off" as a destination point.
pub const OFF: u8 = 0;

/// One step of the partial move and the die it used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayedStep {
    pub step: Step,
    pub die: u8,
}

/// Which die a click asks for: the left one (mouse button 1) or the right one (button 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DieChoice {
    Left,
    Right,
}

/// Why a requested step was refused. The board simply does not move; the message is for a
/// status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssemblyError {
    /// There is no checker of the mover there.
    NoChecker,
    /// All dice are used.
    NoDiceLeft,
    /// No legal play continues this way.
    Illegal,
    /// Nothing to undo.
    NothingToUndo,
}

/// The dice still to play, largest first: up to four values (doubles), `len` of them valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Remaining {
    dice: [u8; 4],
    len: u8,
}

impl Remaining {
    fn of(dice: Dice) -> Remaining {
        if dice.is_double() {
            Remaining {
                dice: [dice.first(); 4],
                len: 4,
            }
        } else {
            Remaining {
                dice: [dice.high(), dice.low(), 0, 0],
                len: 2,
            }
        }
    }

    fn values(&self) -> &[u8] {
        &self.dice[..usize::from(self.len)]
    }

    /// The distinct values left, largest first.
    fn distinct(&self) -> Vec<u8> {
        let mut v = self.values().to_vec();
        v.dedup();
        v
    }

    fn without(&self, die: u8) -> Option<Remaining> {
        let i = self.values().iter().position(|&d| d == die)?;
        let mut out = *self;
        out.dice.copy_within(i + 1..4, i);
        out.dice[3] = 0;
        out.len -= 1;
        Some(out)
    }
}

/// How good a path of one checker is: dice used, blots hit, pips of dice (smaller is better).
type PathKey = (usize, usize, u32);

/// A state of the search for a checker's destinations: position, dice left, where the
/// checker is, the steps so far and the blots hit on the way.
type Frontier = (Position, Remaining, u8, Vec<PlayedStep>, usize);

/// A checker play being assembled by the player on roll.
#[derive(Clone, Debug)]
pub struct MoveAssembly {
    start: Position,
    dice: Dice,
    legal: Vec<LegalMove>,
    played: Vec<PlayedStep>,
    current: Position,
    /// Memo of [`MoveAssembly::completable`]: can this state still end in a legal result?
    memo: HashMap<(Position, Remaining), bool>,
}

impl MoveAssembly {
    /// Starts assembling a play of `dice` from `start` (seen from the mover). Asks the engine
    /// for the legal results.
    pub fn new(start: Position, dice: Dice) -> MoveAssembly {
        MoveAssembly {
            start,
            dice,
            legal: legal_moves(&start, dice),
            played: Vec::new(),
            current: start,
            memo: HashMap::new(),
        }
    }

    /// The position before the move.
    pub fn start(&self) -> Position {
        self.start
    }

    /// The roll being played.
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// The position after the steps played so far (seen from the mover).
    pub fn current(&self) -> Position {
        self.current
    }

    /// The steps played so far.
    pub fn played(&self) -> &[PlayedStep] {
        &self.played
    }

    /// The engine's legal results of the roll.
    pub fn legal(&self) -> &[LegalMove] {
        &self.legal
    }

    /// The dice not used yet, largest first (four entries at most, for doubles).
    pub fn remaining_dice(&self) -> Vec<u8> {
        self.remaining().values().to_vec()
    }

    /// For display: whether the left and right die (as rolled) are used up. For doubles the
    /// left die counts as used after two steps and the right one after four.
    pub fn dice_used(&self) -> [bool; 2] {
        let n = self.played.len();
        if self.dice.is_double() {
            [n >= 2, n >= 4]
        } else {
            let left = self.played.iter().any(|p| p.die == self.dice.first());
            let right = self.played.iter().any(|p| p.die == self.dice.second());
            [left, right]
        }
    }

    /// True when the roll cannot be played at all (the only legal result is the empty move).
    pub fn cannot_move(&self) -> bool {
        self.legal.len() == 1 && self.legal[0].mv.is_empty()
    }

    /// The only legal play, when the roll leaves no choice (including "cannot move").
    pub fn forced(&self) -> Option<LegalMove> {
        (self.legal.len() == 1).then(|| self.legal[0])
    }

    /// True when the steps played make a complete legal move: the dice may be clicked.
    pub fn is_complete(&self) -> bool {
        self.legal.iter().any(|m| m.position == self.current)
    }

    /// The finished play, if [`MoveAssembly::is_complete`]: the steps as played and the
    /// resulting position.
    pub fn finished(&self) -> Option<LegalMove> {
        if !self.is_complete() {
            return None;
        }
        if self.played.is_empty() {
            return Some(LegalMove {
                mv: Move::NONE,
                position: self.current,
            });
        }
        let steps: Vec<Step> = self.played.iter().map(|p| p.step).collect();
        Some(LegalMove {
            mv: Move::from_steps(&steps),
            position: self.current,
        })
    }

    /// True if the mover has a checker on `point` (1..=25) in the current position.
    pub fn has_checker(&self, point: u8) -> bool {
        (1..=BAR).contains(&point) && self.current.board()[usize::from(point)] > 0
    }

    /// Every destination the checker on `from` can reach now, with the steps that get it
    /// there: one die, or several dice in a row for the same checker, every intermediate state
    /// still completable. Destinations are sorted by distance (nearest first); for each, the
    /// path with the fewest dice is kept.
    pub fn targets(&mut self, from: u8) -> Vec<(u8, Vec<PlayedStep>)> {
        // Every path of this checker, breadth first; per destination the best path is kept:
        // fewest dice, then fewest hits on the way (a drag over a blot does not hit it when it
        // need not), then the smallest dice (bearing off with the smaller die keeps the larger).
        let mut best: Vec<(u8, Vec<PlayedStep>, PathKey)> = Vec::new();
        if !self.has_checker(from) {
            return Vec::new();
        }
        let mut frontier: Vec<Frontier> =
            vec![(self.current, self.remaining(), from, Vec::new(), 0)];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for (pos, rem, at, path, hits) in frontier {
                if at == OFF {
                    continue;
                }
                for die in rem.distinct() {
                    let Some((after, step)) = step_with(&pos, at, die) else {
                        continue;
                    };
                    let rest = rem.without(die).expect("die is in the remaining dice");
                    if !self.completable(after, rest) {
                        continue;
                    }
                    let hit = step.to != OFF && pos.board()[usize::from(step.to)] == -1;
                    let hits = hits + usize::from(hit);
                    let mut path = path.clone();
                    path.push(PlayedStep { step, die });
                    let dice_sum: u32 = path.iter().map(|p| u32::from(p.die)).sum();
                    let key = (path.len(), hits, dice_sum);
                    match best.iter_mut().find(|(to, _, _)| *to == step.to) {
                        Some(entry) if key < entry.2 => *entry = (step.to, path.clone(), key),
                        Some(_) => {}
                        None => best.push((step.to, path.clone(), key)),
                    }
                    next.push((after, rest, step.to, path, hits));
                }
            }
            frontier = next;
        }
        let mut found: Vec<(u8, Vec<PlayedStep>)> =
            best.into_iter().map(|(to, path, _)| (to, path)).collect();
        // Nearest first; "off" (0) last.
        found.sort_by_key(|(to, path)| (if *to == OFF { u8::MAX } else { from - to }, path.len()));
        found
    }

    /// The destinations of [`MoveAssembly::targets`] only.
    pub fn target_points(&mut self, from: u8) -> Vec<u8> {
        self.targets(from).into_iter().map(|(to, _)| to).collect()
    }

    /// Moves the checker on `from` to `to` (0 = off), by one die or several in a row.
    pub fn move_checker(&mut self, from: u8, to: u8) -> Result<(), AssemblyError> {
        self.check_can_move(from)?;
        let path = self
            .targets(from)
            .into_iter()
            .find(|(t, _)| *t == to)
            .map(|(_, p)| p)
            .ok_or(AssemblyError::Illegal)?;
        self.apply(&path);
        Ok(())
    }

    /// Moves the checker on `from` by the chosen die (a click: left button = left die, right
    /// button = right die). When that die is used up, or cannot be played by this checker,
    /// the other die is used, as in GNU Backgammon. Returns the step played.
    pub fn move_by_die(&mut self, from: u8, choice: DieChoice) -> Result<Step, AssemblyError> {
        self.check_can_move(from)?;
        let (left, right) = (self.dice.first(), self.dice.second());
        let order = match choice {
            DieChoice::Left => [left, right],
            DieChoice::Right => [right, left],
        };
        let rem = self.remaining();
        for die in order {
            if rem.without(die).is_none() {
                continue;
            }
            if let Some(step) = self.try_step(from, die) {
                return Ok(step);
            }
        }
        Err(AssemblyError::Illegal)
    }

    /// Makes `point` with two checkers (right-click on an empty point, or on a blot of the
    /// opponent to point on it): two steps of the remaining dice, each landing on `point`.
    pub fn make_point(&mut self, point: u8) -> Result<(), AssemblyError> {
        if self.remaining().len < 2 {
            return Err(AssemblyError::NoDiceLeft);
        }
        if !(1..=24).contains(&point) {
            return Err(AssemblyError::Illegal);
        }
        let rem = self.remaining();
        let values = rem.distinct();
        let mut pairs: Vec<(u8, u8)> = Vec::new();
        for (i, &a) in values.iter().enumerate() {
            for &b in &values[i..] {
                if a != b || rem.values().iter().filter(|&&d| d == a).count() >= 2 {
                    pairs.push((a, b));
                }
            }
        }
        for (a, b) in pairs {
            for (d1, d2) in [(a, b), (b, a)] {
                let (s1, s2) = (point + d1, point + d2);
                if s1 > BAR || s2 > BAR {
                    continue;
                }
                let Some((p1, step1)) = step_with(&self.current, s1, d1) else {
                    continue;
                };
                let r1 = rem.without(d1).expect("die is remaining");
                if step1.to != point || !self.completable(p1, r1) {
                    continue;
                }
                let Some((p2, step2)) = step_with(&p1, s2, d2) else {
                    continue;
                };
                let r2 = r1.without(d2).expect("die is remaining");
                if step2.to != point || !self.completable(p2, r2) {
                    continue;
                }
                self.apply(&[
                    PlayedStep {
                        step: step1,
                        die: d1,
                    },
                    PlayedStep {
                        step: step2,
                        die: d2,
                    },
                ]);
                return Ok(());
            }
        }
        Err(AssemblyError::Illegal)
    }

    /// Bears off as many checkers as the remaining dice legally allow (a click on the tray).
    /// Returns how many were borne off.
    pub fn bear_off(&mut self) -> Result<usize, AssemblyError> {
        let mut count = 0;
        'outer: loop {
            let rem = self.remaining();
            for die in rem.distinct() {
                for from in (1..=6u8).rev() {
                    if !self.has_checker(from) {
                        continue;
                    }
                    let Some((after, step)) = step_with(&self.current, from, die) else {
                        continue;
                    };
                    if step.to != OFF {
                        continue;
                    }
                    let rest = rem.without(die).expect("die is remaining");
                    if self.completable(after, rest) {
                        self.apply(&[PlayedStep { step, die }]);
                        count += 1;
                        continue 'outer;
                    }
                }
            }
            break;
        }
        if count == 0 {
            Err(AssemblyError::Illegal)
        } else {
            Ok(count)
        }
    }

    /// Takes back the last step. Returns it.
    pub fn undo(&mut self) -> Result<PlayedStep, AssemblyError> {
        let last = self.played.pop().ok_or(AssemblyError::NothingToUndo)?;
        self.current = self.replay();
        Ok(last)
    }

    /// Takes back every step.
    pub fn undo_all(&mut self) {
        self.played.clear();
        self.current = self.start;
    }

    /// Replaces the partial move by the steps of `mv` (for showing a hint on the board).
    pub fn show(&mut self, mv: &LegalMove) {
        self.played.clear();
        let mut rem = Remaining::of(self.dice);
        for s in mv.mv.steps() {
            let die = if s.to == OFF {
                // The smallest remaining die that bears this checker off.
                rem.values()
                    .iter()
                    .rev()
                    .copied()
                    .find(|&d| d >= s.from)
                    .unwrap_or(s.from)
            } else {
                s.from - s.to
            };
            rem = rem.without(die).unwrap_or(rem);
            self.played.push(PlayedStep { step: *s, die });
        }
        self.current = mv.position;
    }

    fn check_can_move(&self, from: u8) -> Result<(), AssemblyError> {
        if !self.has_checker(from) {
            return Err(AssemblyError::NoChecker);
        }
        if self.remaining().len == 0 {
            return Err(AssemblyError::NoDiceLeft);
        }
        Ok(())
    }

    fn try_step(&mut self, from: u8, die: u8) -> Option<Step> {
        let (after, step) = step_with(&self.current, from, die)?;
        let rest = self.remaining().without(die)?;
        if !self.completable(after, rest) {
            return None;
        }
        self.apply(&[PlayedStep { step, die }]);
        Some(step)
    }

    fn apply(&mut self, steps: &[PlayedStep]) {
        self.played.extend_from_slice(steps);
        self.current = self.replay();
    }

    fn replay(&self) -> Position {
        let steps: Vec<Step> = self.played.iter().map(|p| p.step).collect();
        play_steps(&self.start, &steps).unwrap_or(self.start)
    }

    fn remaining(&self) -> Remaining {
        let mut rem = Remaining::of(self.dice);
        for p in &self.played {
            rem = rem.without(p.die).unwrap_or(rem);
        }
        rem
    }

    /// True if `pos` with `rem` dice left can still end in one of the legal results.
    fn completable(&mut self, pos: Position, rem: Remaining) -> bool {
        if let Some(&known) = self.memo.get(&(pos, rem)) {
            return known;
        }
        let mut ok = self.legal.iter().any(|m| m.position == pos);
        if !ok {
            'search: for die in rem.distinct() {
                let rest = rem.without(die).expect("die is remaining");
                for from in (1..=BAR).rev() {
                    if pos.board()[usize::from(from)] <= 0 {
                        continue;
                    }
                    if let Some((after, _)) = step_with(&pos, from, die) {
                        if self.completable(after, rest) {
                            ok = true;
                            break 'search;
                        }
                    }
                }
            }
        }
        self.memo.insert((pos, rem), ok);
        ok
    }
}

/// The step of the checker on `from` by `die` and the position after it, if the engine says
/// it can be played physically.
fn step_with(pos: &Position, from: u8, die: u8) -> Option<(Position, Step)> {
    let to = from.checked_sub(die).unwrap_or(OFF);
    let step = Step { from, to };
    play_steps(pos, &[step]).map(|after| (after, step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ids::position_id;

    fn dice(s: &str) -> Dice {
        s.parse().unwrap()
    }

    fn pos(id: &str) -> Position {
        position_id::decode(id).unwrap()
    }

    #[test]
    fn opening_31_by_clicks() {
        let mut a = MoveAssembly::new(Position::starting(), dice("31"));
        assert!(!a.is_complete());
        // Left click on 8 moves it by the left die (3).
        let s = a.move_by_die(8, DieChoice::Left).unwrap();
        assert_eq!(s, Step { from: 8, to: 5 });
        assert_eq!(a.dice_used(), [true, false]);
        assert!(!a.is_complete(), "one die is not a complete move");
        assert!(a.finished().is_none());
        // Left click again: the 3 is used, so the 1 is played.
        let s = a.move_by_die(6, DieChoice::Left).unwrap();
        assert_eq!(s, Step { from: 6, to: 5 });
        assert!(a.is_complete());
        let done = a.finished().unwrap();
        assert_eq!(
            crate::formats::notation::format_move(&a.start(), &done.mv),
            "8/5 6/5"
        );
        assert!(legal_moves(&Position::starting(), dice("31"))
            .iter()
            .any(|m| m.position == done.position));
        // No dice left.
        assert_eq!(
            a.move_by_die(13, DieChoice::Left),
            Err(AssemblyError::NoDiceLeft)
        );
    }

    #[test]
    fn right_click_uses_right_die() {
        let mut a = MoveAssembly::new(Position::starting(), dice("31"));
        let s = a.move_by_die(24, DieChoice::Right).unwrap();
        assert_eq!(s, Step { from: 24, to: 23 });
    }

    #[test]
    fn blocked_die_falls_back_to_the_other() {
        // 65 from the start: the 6 point can neither bear off (not all checkers are home) nor
        // play the 5 (the opponent holds our 1 point), so clicks on it are refused.
        let mut a = MoveAssembly::new(Position::starting(), dice("65"));
        assert_eq!(
            a.move_by_die(6, DieChoice::Right),
            Err(AssemblyError::Illegal)
        );
        assert!(a.played().is_empty());
        // From 13, the left die (6) goes to 7; a right click plays the 5 (13/8).
        assert_eq!(
            a.move_by_die(13, DieChoice::Right).unwrap(),
            Step { from: 13, to: 8 }
        );
    }

    #[test]
    fn targets_and_compound_drag() {
        let mut a = MoveAssembly::new(Position::starting(), dice("64"));
        // From 24: 18 (6), 20 (4), 14 (both).
        let t = a.target_points(24);
        assert_eq!(t, vec![20, 18, 14]);
        a.move_checker(24, 14).unwrap();
        assert_eq!(a.played().len(), 2);
        assert!(a.is_complete());
        // No checker on 3.
        assert_eq!(a.undo().unwrap().step.to, 14);
        a.undo().unwrap();
        assert_eq!(a.move_checker(3, 1), Err(AssemblyError::NoChecker));
        // 8/2 with the 6 is fine, 8/4 with the 4 too.
        assert_eq!(a.target_points(8), vec![4, 2]);
    }

    #[test]
    fn make_point_shortcut() {
        // 31: right-click on the 5 point plays 8/5 6/5.
        let mut a = MoveAssembly::new(Position::starting(), dice("31"));
        a.make_point(5).unwrap();
        assert!(a.is_complete());
        assert_eq!(
            crate::formats::notation::format_move(&a.start(), &a.finished().unwrap().mv),
            "8/5 6/5"
        );
        // 64: the 2 point (8/2 6/2).
        let mut a = MoveAssembly::new(Position::starting(), dice("64"));
        a.make_point(2).unwrap();
        assert_eq!(
            crate::formats::notation::format_move(&a.start(), &a.finished().unwrap().mv),
            "8/2 6/2"
        );
        // 21: no way to make the 9 point.
        let mut a = MoveAssembly::new(Position::starting(), dice("21"));
        assert_eq!(a.make_point(9), Err(AssemblyError::Illegal));
        // Doubles: 33 makes the 5 point from the 8 (8/5(2)).
        let mut a = MoveAssembly::new(Position::starting(), dice("33"));
        a.make_point(5).unwrap();
        assert_eq!(a.played().len(), 2);
        assert!(!a.is_complete());
    }

    #[test]
    fn fewer_dice_than_required_cannot_finish() {
        let mut a = MoveAssembly::new(Position::starting(), dice("66"));
        a.move_checker(24, 18).unwrap();
        a.move_checker(24, 18).unwrap();
        a.move_checker(13, 7).unwrap();
        assert!(!a.is_complete());
        a.move_checker(13, 7).unwrap();
        assert!(a.is_complete());
        assert_eq!(a.dice_used(), [true, true]);
    }

    #[test]
    fn bearing_off_by_the_tray() {
        // All 15 checkers home: three on each point 1..5.
        let mut me = [0u8; 25];
        for p in me.iter_mut().take(5) {
            *p = 3;
        }
        let mut them = [0u8; 25];
        them[0] = 15;
        let start = Position::from_sides(&me, &them).unwrap();
        let mut a = MoveAssembly::new(start, dice("64"));
        // Targets of the 5 point include off.
        assert!(a.target_points(5).contains(&OFF));
        assert_eq!(a.bear_off().unwrap(), 2);
        assert!(a.is_complete());
        assert_eq!(a.current().off(crate::Side::Player), 2);
        // Doubles bear off four.
        let mut a = MoveAssembly::new(start, dice("55"));
        assert_eq!(a.bear_off().unwrap(), 4);
        assert!(a.is_complete());
    }

    #[test]
    fn entering_from_the_bar_comes_first() {
        // Player on the bar: the 6 point of the opponent (our 19) is made, 20 is open.
        let p = pos("4HPwATDgc/ABMA");
        let mut me = p.side(crate::Side::Player);
        me[5] -= 1;
        me[24] = 1;
        let them = p.side(crate::Side::Opponent);
        let start = Position::from_sides(&me, &them).unwrap();
        let mut a = MoveAssembly::new(start, dice("52"));
        // The checker on 13 may not move before the bar checker is in.
        assert!(a.target_points(13).is_empty());
        assert_eq!(
            a.move_by_die(13, DieChoice::Left),
            Err(AssemblyError::Illegal)
        );
        assert!(!a.target_points(BAR).is_empty());
        a.move_by_die(BAR, DieChoice::Left).unwrap();
        assert!(!a.target_points(13).is_empty());
    }

    #[test]
    fn dance_is_complete_at_once() {
        let mut me = [0u8; 25];
        me[24] = 1;
        me[12] = 14;
        let mut them = [0u8; 25];
        for p in them.iter_mut().take(6) {
            *p = 2;
        }
        let start = Position::from_sides(&me, &them).unwrap();
        let a = MoveAssembly::new(start, dice("64"));
        assert!(a.cannot_move());
        assert!(a.is_complete());
        assert!(a.finished().unwrap().mv.is_empty());
        assert_eq!(a.forced().unwrap().position, start);
    }

    #[test]
    fn show_a_hint_and_undo() {
        let mut a = MoveAssembly::new(Position::starting(), dice("42"));
        let m = a.legal()[3];
        a.show(&m);
        assert!(a.is_complete());
        assert_eq!(a.current(), m.position);
        a.undo().unwrap();
        a.undo().unwrap();
        assert_eq!(a.current(), Position::starting());
        assert_eq!(a.undo(), Err(AssemblyError::NothingToUndo));
    }

    #[test]
    fn every_legal_result_can_be_assembled_step_by_step() {
        // For a handful of rolls in the opening, every legal result is reachable by playing its
        // steps one by one through `move_checker`.
        for roll in ["31", "64", "55", "21", "66", "11"] {
            let d = dice(roll);
            for m in legal_moves(&Position::starting(), d) {
                let mut a = MoveAssembly::new(Position::starting(), d);
                for s in m.mv.steps() {
                    a.move_checker(s.from, s.to)
                        .unwrap_or_else(|e| panic!("{roll}: {:?} refused: {e:?}", s));
                }
                assert!(a.is_complete(), "{roll}");
                assert_eq!(a.current(), m.position);
            }
        }
    }
}
