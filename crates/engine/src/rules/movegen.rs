//! Legal move generation.
//!
//! The rules, as GNU Backgammon applies them:
//! - checkers on the bar enter first;
//! - a double is played four times;
//! - as many dice as possible must be used; if only one die of a non-double can be used, the larger
//!   one must be played when it can (equivalently: the most pips of dice must be used);
//! - a single opposing checker (a blot) is hit; two or more block the point;
//! - checkers are borne off only when all of the mover's checkers are in the home board, and a die
//!   larger than needed bears off only from the highest occupied point.
//!
//! The result is the list of *distinct resulting positions*, each with one move reaching it (the
//! first one found, in the order GNU Backgammon searches: dice as given, then swapped; sources from
//! the bar and the highest point down). The resulting positions stay oriented to the mover.

use crate::rules::dice::Dice;
use crate::rules::moves::{Move, Step};
use crate::rules::position::{Position, BAR, OFF};

/// A legal play and the position it leads to (still seen from the mover).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegalMove {
    pub mv: Move,
    pub position: Position,
}

/// Every distinct legal result of rolling `dice` in `position`. When no checker can move the list
/// holds one entry: the empty move and the unchanged position.
pub fn legal_moves(position: &Position, dice: Dice) -> Vec<LegalMove> {
    let mut generator = MoveGenerator::new();
    generator.generate(position, dice).to_vec()
}

/// Reusable move generator: keeps its buffers between calls so that generating moves allocates
/// nothing once warmed up.
#[derive(Debug, Default)]
pub struct MoveGenerator {
    moves: Vec<LegalMove>,
    /// Open-addressing set of indices into `moves`, keyed by the resulting board. An entry counts
    /// only if its epoch is the current one, so clearing the set is one increment.
    table: Vec<Slot>,
    epoch: u32,
    max_steps: usize,
    max_pips: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    epoch: u32,
    index: u32,
}

impl MoveGenerator {
    /// A generator with empty buffers.
    pub fn new() -> MoveGenerator {
        MoveGenerator {
            moves: Vec::with_capacity(64),
            table: vec![Slot::default(); 256],
            epoch: 1,
            max_steps: 0,
            max_pips: 0,
        }
    }

    /// The distinct legal results of `dice` in `position`; see [`legal_moves`].
    pub fn generate(&mut self, position: &Position, dice: Dice) -> &[LegalMove] {
        self.moves.clear();
        self.clear_table();
        self.max_steps = 0;
        self.max_pips = 0;
        let board = *position.board();
        let mut mv = Move::NONE;
        if dice.is_double() {
            let d = dice.first();
            self.search(&board, &[d, d, d, d], 0, BAR, 0, &mut mv);
        } else {
            let (a, b) = (dice.first(), dice.second());
            self.search(&board, &[a, b], 0, BAR, 0, &mut mv);
            self.search(&board, &[b, a], 0, BAR, 0, &mut mv);
        }
        if self.moves.is_empty() {
            self.moves.push(LegalMove {
                mv: Move::NONE,
                position: *position,
            });
        }
        &self.moves
    }

    /// Plays `dice[depth..]` on `board`. `top` is the highest source point allowed (for doubles the
    /// sources are taken in non-increasing order, which reaches every result exactly once per
    /// ordering class). Returns true if some checker could be moved at this depth.
    fn search(
        &mut self,
        board: &[i8; 26],
        dice: &[u8],
        depth: usize,
        top: usize,
        pips: u32,
        mv: &mut Move,
    ) -> bool {
        let Some(&die) = dice.get(depth) else {
            return false;
        };
        let is_double = dice.len() == 4;
        let lowest = if board[BAR] > 0 { BAR } else { 1 };
        let mut used = false;
        let mut from = top;
        while from >= lowest {
            if board[from] > 0 {
                if let Some(to) = destination(board, from, die) {
                    used = true;
                    let mut next = *board;
                    apply(&mut next, from, to);
                    mv.push(Step {
                        from: from as u8,
                        to: to as u8,
                    });
                    let next_top = if is_double { from } else { BAR };
                    let pips = pips + u32::from(die);
                    if !self.search(&next, dice, depth + 1, next_top, pips, mv) {
                        self.save(&next, mv, pips);
                    }
                    mv.pop();
                }
            }
            from -= 1;
        }
        used
    }

    fn save(&mut self, board: &[i8; 26], mv: &Move, pips: u32) {
        let steps = mv.len();
        if steps < self.max_steps || pips < self.max_pips {
            return;
        }
        if steps > self.max_steps || pips > self.max_pips {
            self.moves.clear();
            self.clear_table();
            self.max_steps = steps;
            self.max_pips = pips;
        }
        // Grow the table when it is half full, so probes stay short.
        if self.moves.len() * 2 >= self.table.len() {
            self.table = vec![Slot::default(); self.table.len() * 2];
            self.epoch = 1;
            for i in 0..self.moves.len() {
                let slot = self.find_slot(self.moves[i].position.board());
                self.table[slot] = Slot {
                    epoch: self.epoch,
                    index: i as u32,
                };
            }
        }
        let slot = self.find_slot(board);
        if self.table[slot].epoch == self.epoch {
            return; // This result was already reached; keep the first move found.
        }
        self.table[slot] = Slot {
            epoch: self.epoch,
            index: self.moves.len() as u32,
        };
        self.moves.push(LegalMove {
            mv: *mv,
            position: Position::from_board_unchecked(*board),
        });
    }

    /// Empties the set of results seen.
    fn clear_table(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // After 2^32 clears, stale entries could look current: wipe them for real.
            self.table.fill(Slot::default());
            self.epoch = 1;
        }
    }

    /// The slot holding `board`, or the free slot where it belongs.
    fn find_slot(&self, board: &[i8; 26]) -> usize {
        let mask = self.table.len() - 1;
        let mut slot = (hash(board) as usize) & mask;
        loop {
            let entry = self.table[slot];
            if entry.epoch != self.epoch
                || self.moves[entry.index as usize].position.board() == board
            {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// Where a checker on `from` lands with `die`, if that is legal: `Some(0)` bears off.
#[inline]
fn destination(board: &[i8; 26], from: usize, die: u8) -> Option<usize> {
    let die = usize::from(die);
    if from > die {
        let to = from - die;
        return (board[to] >= -1).then_some(to);
    }
    // Bearing off: every checker must be home (none on 7..=25).
    if board[7..=BAR].iter().any(|&c| c > 0) {
        return None;
    }
    if from == die {
        return Some(OFF);
    }
    // A larger die bears off only from the highest occupied point.
    if board[from + 1..=6].iter().any(|&c| c > 0) {
        None
    } else {
        Some(OFF)
    }
}

/// Moves one checker from `from` to `to` (0 = off), hitting a blot there.
#[inline]
fn apply(board: &mut [i8; 26], from: usize, to: usize) {
    board[from] -= 1;
    if to != OFF {
        if board[to] == -1 {
            board[to] = 1;
            board[OFF] -= 1;
        } else {
            board[to] += 1;
        }
    }
}

#[inline]
fn hash(board: &[i8; 26]) -> u64 {
    // FxHash-style mixing of the 26 bytes read as three words.
    let mut words = [0u8; 32];
    for (w, &b) in words.iter_mut().zip(board.iter()) {
        *w = b as u8;
    }
    let mut h = 0u64;
    for chunk in words.chunks_exact(8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    h ^ (h >> 29)
}

/// Plays `steps` on `position` one by one, checking only that each step is physically possible
/// (a checker to move, bar first, destination not blocked, bearing off only with all checkers home).
/// Dice and the "use as many dice as possible" rule are not checked here. Returns `None` if a
/// step is impossible.
pub fn play_steps(position: &Position, steps: &[Step]) -> Option<Position> {
    let mut board = *position.board();
    for s in steps {
        let from = usize::from(s.from);
        let to = usize::from(s.to);
        if from == 0 || from > BAR || to >= from || board[from] <= 0 {
            return None;
        }
        if from != BAR && board[BAR] > 0 {
            return None;
        }
        if to != OFF && board[to] < -1 {
            return None;
        }
        if to == OFF && board[7..=BAR].iter().any(|&c| c > 0) {
            return None;
        }
        apply(&mut board, from, to);
    }
    Some(Position::from_board_unchecked(board))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Side;

    fn dice(s: &str) -> Dice {
        s.parse().unwrap()
    }

    #[test]
    fn opening_rolls_use_all_dice() {
        let start = Position::starting();
        for d in Dice::all() {
            let moves = legal_moves(&start, d);
            let used = if d.is_double() { 4 } else { 2 };
            assert!(moves.len() > 1, "roll {d}");
            for m in &moves {
                assert_eq!(m.mv.len(), used, "roll {d}");
                assert_eq!(m.position.on_board(Side::Player), 15);
                assert_eq!(
                    m.position.pip_count(Side::Player),
                    167 - u32::from(d.first() + d.second()) * if d.is_double() { 2 } else { 1 }
                );
            }
        }
    }

    #[test]
    fn only_one_die_must_be_the_larger() {
        // One checker on 13, the rest on 24 where both dice are blocked (18 and 19 made).
        // With 65: 13/8 is blocked (8 made), 13/7 is open but 7/2 is blocked (2 made):
        // only one die can be played, and it must be the 6.
        let mut me = [0u8; 25];
        me[12] = 1;
        me[23] = 14;
        let mut them = [0u8; 25];
        them[24 - 8] = 2; // our 8
        them[24 - 2] = 2; // our 2
        them[24 - 18] = 2; // our 18: 24/18 blocked
        them[24 - 19] = 2; // our 19: 24/19 blocked
        let pos = Position::from_sides(&me, &them).unwrap();
        let moves = legal_moves(&pos, dice("65"));
        assert_eq!(moves.len(), 1);
        assert_eq!(
            moves[0].mv.steps(),
            &[Step { from: 13, to: 7 }],
            "{:?}",
            moves
        );
    }

    #[test]
    fn dance_gives_unchanged_position() {
        let mut me = [0u8; 25];
        me[24] = 1;
        me[12] = 14;
        let mut them = [0u8; 25];
        for p in them.iter_mut().take(6) {
            *p = 2; // their home board (our 19..24) is closed
        }
        let pos = Position::from_sides(&me, &them).unwrap();
        let moves = legal_moves(&pos, dice("64"));
        assert_eq!(moves.len(), 1);
        assert!(moves[0].mv.is_empty());
        assert_eq!(moves[0].position, pos);
    }

    #[test]
    fn bear_off_with_larger_die_only_from_highest() {
        let mut me = [0u8; 25];
        me[1] = 1; // point 2
        me[3] = 1; // point 4
        me[0] = 13;
        let pos = Position::from_sides(&me, &[0; 25]).unwrap();
        let moves = legal_moves(&pos, dice("65"));
        // Both dice bear off from 4 and then 2 (6 from the highest point 4, then 5 from 2).
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].position.off(Side::Player), 2);
    }

    #[test]
    fn hitting_sends_to_bar() {
        let mut me = [0u8; 25];
        me[12] = 15;
        let mut them = [0u8; 25];
        them[24 - 10] = 1; // blot on our 10
        them[0] = 14;
        let pos = Position::from_sides(&me, &them).unwrap();
        let moves = legal_moves(&pos, dice("33"));
        assert!(moves.iter().any(|m| m.position.bar(Side::Opponent) == 1));
    }
}
