//! Edit mode's model, without GTK: the position being set up (a [`Draft`]) and what the user
//! does to it ([`EditOp`]).
//!
//! A draft holds the checkers of both colours per point, on the bar and (derived, 15 minus
//! those on the board) in the trays, the dice, the cube, the score, the match length and who is
//! on roll. It may be impossible as a backgammon position while it is being edited — 16
//! checkers of a colour, a side with all its checkers borne off, a score at the match length —
//! and it can still be drawn; [`Draft::validate`] says in one sentence why it cannot be played
//! from, or gives the engine's `Position` and `MatchState`. A point never holds both colours:
//! setting a point's checkers replaces the other colour's.
//!
//! Clicks follow GNU Backgammon's quick edit: where on a point the click lands sets how many
//! checkers it holds (the primary button for the bottom player's colour, the secondary for the
//! top player's); clicking the last place of a full stack adds one more; clicking the frame
//! beyond the point's base empties it. Checkers are dragged between points, to and from the
//! bar and the tray. A click in a bear-off tray clears the board and one on the opposite side
//! sets the starting position, as in GNU Backgammon (the board turns them into
//! [`EditOp::Clear`] and [`EditOp::Starting`], the edit bar's buttons).

use cubeful_engine::eval::bearoff::index::pips;
use cubeful_engine::game::record::Setup;
use cubeful_engine::game::{Game, Rules, ScriptedDice};
use cubeful_engine::{CubeOwner, Dice, GameState, MatchState, Position, PositionError, Side};

use crate::board::{CubePlace, Display, Seat, Slot};
use crate::i18n::{gettext, gettext_f};
use crate::session::{player_at, seat_of};

/// Checkers of a colour in a game.
pub const CHECKERS: u8 = 15;
/// The most checkers a slot of a draft can hold.
pub const MAX_ON_SLOT: u8 = 15;
/// log2 of the largest cube value.
pub const MAX_CUBE_LOG2: u8 = 15;

/// One change to a draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditOp {
    /// A click on a point or a bar for `seat`'s colour: `n` is the place clicked (1 = the
    /// checker at the edge, 0 = the frame beyond the point's base, which empties it); `tip` is
    /// the last place of the drawn stack, where a click on a full stack adds a checker.
    Click {
        slot: Slot,
        seat: Seat,
        n: u8,
        tip: u8,
    },
    /// One checker of `seat` dragged from `from` to `to` (points, `seat`'s bar, `seat`'s tray).
    Move { seat: Seat, from: Slot, to: Slot },
    /// All checkers borne off (the edit bar's Clear, a click in a tray).
    Clear,
    /// The starting position (the edit bar's Starting Position, a click on the side opposite
    /// the trays).
    Starting,
    /// The dice rolled by the player at `seat` (who is then on roll), or no dice.
    Dice(Option<(Seat, Dice)>),
    /// A click on the dice area of `seat`'s half: that player is on roll with dice; the
    /// `first` die (or the second) goes up by one, after a 6 the first die takes the dice away.
    CycleDice { seat: Seat, first: bool },
    /// A click on the cube: the value doubles (after 64 it is 1 again, in the middle), or
    /// with `owner` the owner goes round: the middle, the bottom player, the top player.
    CycleCube { owner: bool },
    /// The cube's value (1, 2, 4, …) and its owner (`None`: in the middle).
    Cube { value: u32, owner: Option<Seat> },
    /// The player at this seat is on roll, before rolling (the dice are taken away).
    Turn(Seat),
    /// The score of the player at `seat`.
    Score { seat: Seat, score: u16 },
    /// The match length; 0 for money play.
    Length(u16),
    /// Whether this is the Crawford game.
    Crawford(bool),
}

/// A position being set up, drawable even when no game could have it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// Per seat ([`Seat::index`]), in that player's own numbering: index 0..=23 its points
    /// 1..=24, index 24 its bar (GNU Backgammon's layout).
    checkers: [[u8; 25]; 2],
    pub on_roll: Seat,
    /// The dice of the player on roll, if rolled.
    pub dice: Option<Dice>,
    /// 1, 2, 4, …
    pub cube_value: u32,
    /// `None`: the cube is in the middle.
    pub cube_owner: Option<Seat>,
    /// By seat.
    pub score: [u16; 2],
    /// 0 for money play.
    pub match_length: u16,
    pub crawford: bool,
    /// The Jacoby rule (money play), kept from the game the draft was made from.
    pub jacoby: bool,
    /// The players' names by seat, for the sentences.
    pub names: [String; 2],
}

impl Default for Draft {
    fn default() -> Draft {
        Draft::new(MatchState::money(), [String::new(), String::new()])
    }
}

impl Draft {
    /// The starting position, with the score, length and cube of `state`, the bottom player
    /// on roll.
    pub fn new(state: MatchState, names: [String; 2]) -> Draft {
        let mut draft = Draft::from_state(Position::starting(), state, names);
        draft.on_roll = Seat::Bottom;
        draft.dice = None;
        draft
    }

    /// A draft of `position` (seen from `state.on_roll`) in `state`.
    pub fn from_state(position: Position, state: MatchState, names: [String; 2]) -> Draft {
        let on_roll = seat_of(state.on_roll);
        let mut checkers = [[0u8; 25]; 2];
        checkers[on_roll.index()] = position.side(Side::Player);
        checkers[on_roll.other().index()] = position.side(Side::Opponent);
        let mut score = [0; 2];
        for seat in [Seat::Bottom, Seat::Top] {
            score[seat.index()] = state.score[player_at(seat).index()];
        }
        Draft {
            checkers,
            on_roll,
            dice: state.dice,
            cube_value: state.cube_value(),
            cube_owner: match state.cube_owner {
                CubeOwner::Centered => None,
                CubeOwner::Owned(p) => Some(seat_of(p)),
            },
            score,
            match_length: state.match_length,
            crawford: state.crawford && state.match_length > 0,
            jacoby: state.jacoby,
            names,
        }
    }

    /// Checkers of `seat` on `slot` (a point in the bottom player's numbering, a bar or a
    /// tray); another seat's bar or tray holds none of `seat`'s.
    pub fn count(&self, seat: Seat, slot: Slot) -> u8 {
        match slot.to_mover(seat) {
            Some(0) => self.off(seat),
            Some(p) => self.checkers[seat.index()][usize::from(p) - 1],
            None => 0,
        }
    }

    /// Checkers of `seat` on the board and the bar (may be more than 15 in a draft).
    pub fn on_board(&self, seat: Seat) -> u32 {
        self.checkers[seat.index()]
            .iter()
            .map(|&c| u32::from(c))
            .sum()
    }

    /// Checkers of `seat` borne off: 15 minus those on the board (none when there are more).
    pub fn off(&self, seat: Seat) -> u8 {
        u32::from(CHECKERS).saturating_sub(self.on_board(seat)) as u8
    }

    /// `seat`'s checkers in its own numbering (index 24: its bar).
    pub fn side(&self, seat: Seat) -> [u8; 25] {
        self.checkers[seat.index()]
    }

    /// The checkers in the board's layout ([`crate::board::Scene::board`]): bottom player's
    /// numbering, positive for the bottom player, negative for the top player; index 25 the
    /// bottom player's bar, index 0 the top player's (negative).
    pub fn board(&self) -> [i8; 26] {
        let [bottom, top] = &self.checkers;
        let mut board = [0i8; 26];
        for p in 1..=24usize {
            board[p] = bottom[p - 1] as i8 - top[24 - p] as i8;
        }
        board[25] = bottom[24] as i8;
        board[0] = -(top[24] as i8);
        board
    }

    /// Pip counts by seat, from the draft as it is (the engine's count of a side).
    pub fn pips(&self) -> [u32; 2] {
        [pips(&self.checkers[0]), pips(&self.checkers[1])]
    }

    /// Whose cube it is on the board.
    pub fn cube_place(&self) -> CubePlace {
        match self.cube_owner {
            Some(seat) => CubePlace::Owned(seat),
            None => CubePlace::Centre,
        }
    }

    /// Applies `op`; false (and the draft unchanged) when it does nothing.
    pub fn apply(&mut self, op: EditOp) -> bool {
        let before = self.clone();
        match op {
            EditOp::Click { slot, seat, n, tip } => self.click(slot, seat, n, tip),
            EditOp::Move { seat, from, to } => self.move_checker(seat, from, to),
            EditOp::Clear => self.checkers = [[0; 25]; 2],
            EditOp::Starting => {
                let start = Position::starting().side(Side::Player);
                self.checkers = [start, start];
            }
            EditOp::Dice(None) => self.dice = None,
            EditOp::Dice(Some((seat, dice))) => {
                self.on_roll = seat;
                self.dice = Some(dice);
            }
            EditOp::CycleDice { seat, first } => self.cycle_dice(seat, first),
            EditOp::CycleCube { owner: true } => {
                self.cube_owner = match self.cube_owner {
                    None => Some(Seat::Bottom),
                    Some(Seat::Bottom) => Some(Seat::Top),
                    Some(Seat::Top) => None,
                }
            }
            EditOp::CycleCube { owner: false } => {
                if self.cube_value >= 64 {
                    self.cube_value = 1;
                    self.cube_owner = None;
                } else {
                    self.cube_value *= 2;
                }
            }
            EditOp::Cube { value, owner } => {
                let value = value.clamp(1, 1 << MAX_CUBE_LOG2);
                self.cube_value = value.next_power_of_two();
                self.cube_owner = owner;
            }
            EditOp::Turn(seat) => {
                self.on_roll = seat;
                self.dice = None;
            }
            EditOp::Score { seat, score } => self.score[seat.index()] = score,
            EditOp::Length(length) => {
                self.match_length = length;
                if length == 0 {
                    self.crawford = false;
                }
            }
            EditOp::Crawford(on) => self.crawford = on,
        }
        *self != before
    }

    fn cycle_dice(&mut self, seat: Seat, first: bool) {
        let dice = match self.dice {
            Some(d) if self.on_roll == seat => d,
            _ => {
                self.on_roll = seat;
                self.dice = Dice::new(1, 1).ok();
                return;
            }
        };
        let up = |v: u8| v % 6 + 1;
        self.dice = if first && dice.first() == 6 {
            None
        } else if first {
            Dice::new(up(dice.first()), dice.second()).ok()
        } else {
            Dice::new(dice.first(), up(dice.second())).ok()
        };
    }

    fn slot_index(seat: Seat, slot: Slot) -> Option<usize> {
        match slot {
            Slot::Point(_) | Slot::Bar(_) => slot
                .to_mover(seat)
                .filter(|&p| p >= 1)
                .map(|p| usize::from(p) - 1),
            Slot::Tray(_) => None,
        }
    }

    /// The other colour's index of the same point (`None` for a bar).
    fn other_index(seat: Seat, slot: Slot) -> Option<usize> {
        match slot {
            Slot::Point(_) => Draft::slot_index(seat.other(), slot),
            _ => None,
        }
    }

    fn click(&mut self, slot: Slot, seat: Seat, n: u8, tip: u8) {
        // A click on a bar sets that bar's colour, whichever button.
        let seat = match slot {
            Slot::Bar(owner) => owner,
            _ => seat,
        };
        let Some(i) = Draft::slot_index(seat, slot) else {
            return;
        };
        let now = self.checkers[seat.index()][i];
        let count = if n == 0 {
            0
        } else if n >= tip && now >= tip {
            (now + 1).min(MAX_ON_SLOT)
        } else if n == now {
            // Clicking the count a point has already empties it.
            0
        } else {
            n.min(MAX_ON_SLOT)
        };
        self.checkers[seat.index()][i] = count;
        if count > 0 {
            if let Some(j) = Draft::other_index(seat, slot) {
                self.checkers[seat.other().index()][j] = 0;
            }
        }
    }

    fn move_checker(&mut self, seat: Seat, from: Slot, to: Slot) {
        // Any bar or tray stands for the dragged colour's own.
        let own = |slot: Slot| match slot {
            Slot::Bar(_) => Slot::Bar(seat),
            Slot::Tray(_) => Slot::Tray(seat),
            point => point,
        };
        let (from, to) = (own(from), own(to));
        if from == to || self.count(seat, from) == 0 {
            return;
        }
        let s = seat.index();
        if let Some(j) = Draft::slot_index(seat, to) {
            if self.checkers[s][j] >= MAX_ON_SLOT {
                return;
            }
            // A blot of the other colour is hit (to its bar); a made point cannot be landed on.
            if let Some(k) = Draft::other_index(seat, to) {
                let o = seat.other().index();
                match self.checkers[o][k] {
                    0 => {}
                    1 if self.checkers[o][24] < MAX_ON_SLOT => {
                        self.checkers[o][k] = 0;
                        self.checkers[o][24] += 1;
                    }
                    _ => return,
                }
            }
            self.checkers[s][j] += 1;
        }
        if let Some(i) = Draft::slot_index(seat, from) {
            self.checkers[s][i] -= 1;
        }
    }

    /// The checkers as an engine `Position` seen from the player on roll, or why they are none.
    pub fn position(&self) -> Result<Position, String> {
        for seat in [Seat::Bottom, Seat::Top] {
            let n = self.on_board(seat);
            if n > u32::from(CHECKERS) {
                return Err(gettext_f(
                    "{} has {} checkers on the board; a player has only 15.",
                    &[&self.name(seat), &n.to_string()],
                ));
            }
        }
        let mover = self.on_roll;
        Position::from_sides(
            &self.checkers[mover.index()],
            &self.checkers[mover.other().index()],
        )
        .map_err(|e| match e {
            PositionError::BothClosedOut => gettext(
                "Both players are on the bar against closed boards: nobody could ever move.",
            ),
            PositionError::SharedPoint { .. } => {
                gettext("Both players have checkers on the same point.")
            }
            PositionError::TooManyCheckers { .. } | PositionError::NoSuchPoint(_) => {
                gettext("This is not a backgammon position.")
            }
        })
    }

    /// The engine's match state of the draft (not checked).
    pub fn match_state(&self) -> MatchState {
        let on_roll = player_at(self.on_roll);
        let mut score = [0; 2];
        for seat in [Seat::Bottom, Seat::Top] {
            score[player_at(seat).index()] = self.score[seat.index()];
        }
        MatchState {
            cube_log2: self.cube_value.max(1).trailing_zeros().min(31) as u8,
            cube_owner: match self.cube_owner {
                Some(seat) => CubeOwner::Owned(player_at(seat)),
                None => CubeOwner::Centered,
            },
            on_roll,
            crawford: self.crawford,
            game_state: GameState::Playing,
            turn: on_roll,
            doubled: false,
            resigned: None,
            dice: self.dice,
            match_length: self.match_length,
            score,
            jacoby: self.jacoby && self.match_length == 0,
        }
    }

    /// The position (seen from the player on roll) and match state to play from, or one
    /// sentence saying why there are none.
    pub fn validate(&self) -> Result<(Position, MatchState), String> {
        let position = self.position()?;
        for seat in [Seat::Bottom, Seat::Top] {
            if self.on_board(seat) == 0 {
                return Err(gettext_f(
                    "{} has borne off all 15 checkers: the game is over.",
                    &[&self.name(seat)],
                ));
            }
        }
        let state = self.match_state();
        if state.match_length > 0 {
            if self.score.iter().any(|&s| s >= self.match_length) {
                return Err(gettext_f(
                    "A score must be below the match length ({}).",
                    &[&self.match_length.to_string()],
                ));
            }
        } else if self.crawford {
            return Err(gettext("A money session has no Crawford game."));
        }
        if self.crawford {
            let at_match_point = self.score.iter().any(|&s| s + 1 == self.match_length);
            if !at_match_point {
                return Err(gettext(
                    "Only a player one point from winning the match can be in the Crawford game.",
                ));
            }
            if self.cube_value != 1 || self.cube_owner.is_some() {
                return Err(gettext("The cube cannot be turned in the Crawford game."));
            }
        }
        if self.cube_value == 1 && self.cube_owner.is_some() {
            return Err(gettext(
                "A cube at 1 is in the middle: nobody owns it before a double.",
            ));
        }
        // The engine has the last word: a game set up from the draft.
        let mut rules = Rules {
            match_length: self.match_length,
            ..Rules::default()
        };
        rules.jacoby = state.jacoby;
        let game = Game::from_position(
            rules,
            position,
            state,
            Box::new(ScriptedDice::new(Vec::<Dice>::new())),
        );
        match game {
            Ok(_) => Ok((position, state)),
            Err(_) => Err(gettext(
                "No game can be played from this position and score.",
            )),
        }
    }

    /// The draft as the engine's set-up of a game in progress (the position seen from the
    /// player on roll), if it is valid.
    pub fn setup(&self) -> Result<Setup, String> {
        let (position, state) = self.validate()?;
        Ok(Setup {
            position,
            on_roll: state.on_roll,
            cube_log2: state.cube_log2,
            cube_owner: state.cube_owner,
            dice: state.dice,
        })
    }

    /// What the board shows around the checkers (names, score, cube, dice, who is on roll);
    /// the checkers are the valid position's, or none: the board draws the draft itself.
    pub fn display(&self) -> Display {
        let position = self
            .position()
            .map(|p| match self.on_roll {
                Seat::Bottom => p,
                Seat::Top => p.swap(),
            })
            .unwrap_or_else(|_| {
                Position::from_sides(&[0; 25], &[0; 25]).expect("an empty board is a position")
            });
        Display {
            position,
            names: self.names.clone(),
            scores: [u32::from(self.score[0]), u32::from(self.score[1])],
            match_length: self.match_length,
            crawford: self.crawford,
            on_roll: Some(self.on_roll),
            dice: self.dice.map(|d| (self.on_roll, d)),
            cube: Some((self.cube_value, self.cube_place())),
            cube_live: !self.crawford,
            resignation: None,
            turn: None,
            roll: None,
            prompt: None,
            idle: false,
            last_move: None,
        }
    }

    fn name(&self, seat: Seat) -> String {
        let name = &self.names[seat.index()];
        if !name.is_empty() {
            return name.clone();
        }
        match seat {
            Seat::Bottom => gettext("The bottom player"),
            Seat::Top => gettext("The top player"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::{position_id, Player};

    fn draft() -> Draft {
        Draft::new(MatchState::money(), ["Ann".into(), "Bot".into()])
    }

    fn click(d: &mut Draft, p: u8, seat: Seat, n: u8) -> bool {
        d.apply(EditOp::Click {
            slot: Slot::Point(p),
            seat,
            n,
            tip: 5,
        })
    }

    #[test]
    fn starts_at_the_starting_position_and_is_valid() {
        let d = draft();
        let (position, state) = d.validate().unwrap();
        assert_eq!(position, Position::starting());
        assert_eq!(state.on_roll, Player::One);
        assert_eq!(d.pips(), [167, 167]);
        assert_eq!(d.off(Seat::Bottom), 0);
        assert_eq!(d.board()[24], 2);
        assert_eq!(d.board()[1], -2);
        assert_eq!(d.board()[19], -5);
        assert_eq!(d.board()[6], 5);
    }

    #[test]
    fn clicks_set_counts_replace_the_other_colour_and_grow_at_the_tip() {
        let mut d = draft();
        d.apply(EditOp::Clear);
        assert_eq!(d.off(Seat::Bottom), 15);
        assert!(click(&mut d, 6, Seat::Bottom, 3));
        assert_eq!(d.count(Seat::Bottom, Slot::Point(6)), 3);
        // The top player's colour on the same point replaces the bottom player's.
        assert!(click(&mut d, 6, Seat::Top, 2));
        assert_eq!(d.count(Seat::Bottom, Slot::Point(6)), 0);
        assert_eq!(d.count(Seat::Top, Slot::Point(6)), 2);
        assert_eq!(
            d.side(Seat::Top)[18],
            2,
            "bottom point 6 is the top player's 19"
        );
        // The tip of a full stack adds one; the count it has already empties it.
        click(&mut d, 8, Seat::Bottom, 5);
        click(&mut d, 8, Seat::Bottom, 5);
        assert_eq!(d.count(Seat::Bottom, Slot::Point(8)), 6);
        click(&mut d, 9, Seat::Bottom, 2);
        click(&mut d, 9, Seat::Bottom, 2);
        assert_eq!(d.count(Seat::Bottom, Slot::Point(9)), 0);
        // The frame beyond the base empties a point.
        click(&mut d, 8, Seat::Bottom, 0);
        assert_eq!(d.count(Seat::Bottom, Slot::Point(8)), 0);
        // A bar click sets that bar's colour whatever the button.
        d.apply(EditOp::Click {
            slot: Slot::Bar(Seat::Top),
            seat: Seat::Bottom,
            n: 2,
            tip: 3,
        });
        assert_eq!(d.count(Seat::Top, Slot::Bar(Seat::Top)), 2);
        assert_eq!(d.board()[0], -2);
    }

    #[test]
    fn drags_move_hit_and_bear_off() {
        let mut d = draft();
        let from = Slot::Point(24);
        // A back checker of the bottom player to its 18 point, then to the bar.
        assert!(d.apply(EditOp::Move {
            seat: Seat::Bottom,
            from,
            to: Slot::Point(18)
        }));
        assert_eq!(d.count(Seat::Bottom, Slot::Point(24)), 1);
        assert!(d.apply(EditOp::Move {
            seat: Seat::Bottom,
            from: Slot::Point(18),
            to: Slot::Bar(Seat::Top)
        }));
        assert_eq!(d.count(Seat::Bottom, Slot::Bar(Seat::Bottom)), 1);
        // Onto the top player's blot: hit to its bar. Onto a made point: refused.
        d.apply(EditOp::Click {
            slot: Slot::Point(20),
            seat: Seat::Top,
            n: 1,
            tip: 5,
        });
        assert!(d.apply(EditOp::Move {
            seat: Seat::Bottom,
            from: Slot::Point(24),
            to: Slot::Point(20)
        }));
        assert_eq!(d.count(Seat::Top, Slot::Bar(Seat::Top)), 1);
        assert!(!d.apply(EditOp::Move {
            seat: Seat::Bottom,
            from: Slot::Point(20),
            to: Slot::Point(19)
        }));
        // To the tray and back.
        assert!(d.apply(EditOp::Move {
            seat: Seat::Bottom,
            from: Slot::Point(6),
            to: Slot::Tray(Seat::Bottom)
        }));
        assert_eq!(d.off(Seat::Bottom), 1);
        assert!(d.apply(EditOp::Move {
            seat: Seat::Bottom,
            from: Slot::Tray(Seat::Bottom),
            to: Slot::Point(2)
        }));
        assert_eq!(d.off(Seat::Bottom), 0);
        // Nothing to take from an empty tray.
        assert!(!d.apply(EditOp::Move {
            seat: Seat::Bottom,
            from: Slot::Tray(Seat::Bottom),
            to: Slot::Point(2)
        }));
    }

    #[test]
    fn sixteen_checkers_are_drawn_and_refused_in_a_sentence() {
        let mut d = draft();
        click(&mut d, 3, Seat::Bottom, 1);
        assert_eq!(d.on_board(Seat::Bottom), 16);
        assert_eq!(d.off(Seat::Bottom), 0);
        assert_eq!(d.board()[3], 1);
        let why = d.validate().unwrap_err();
        assert!(why.contains("Ann has 16 checkers"), "{why}");
        assert!(
            d.display().position.result().is_some(),
            "an empty board stands in"
        );
    }

    #[test]
    fn the_match_state_is_checked() {
        let mut d = draft();
        d.apply(EditOp::Length(5));
        d.apply(EditOp::Score {
            seat: Seat::Top,
            score: 5,
        });
        assert!(d.validate().unwrap_err().contains("below the match length"));
        d.apply(EditOp::Score {
            seat: Seat::Top,
            score: 3,
        });
        d.apply(EditOp::Crawford(true));
        assert!(d.validate().unwrap_err().contains("Crawford"));
        d.apply(EditOp::Score {
            seat: Seat::Top,
            score: 4,
        });
        assert!(d.validate().is_ok());
        d.apply(EditOp::Cube {
            value: 2,
            owner: Some(Seat::Bottom),
        });
        assert!(d.validate().unwrap_err().contains("Crawford"));
        d.apply(EditOp::Crawford(false));
        let (_, state) = d.validate().unwrap();
        assert_eq!(state.cube_log2, 1);
        assert_eq!(state.cube_owner, CubeOwner::Owned(Player::One));
        assert_eq!(state.score, [4, 0], "player 0 sits at the top");
        d.apply(EditOp::Cube {
            value: 1,
            owner: Some(Seat::Top),
        });
        assert!(d.validate().is_err());
        d.apply(EditOp::Length(0));
        d.apply(EditOp::Cube {
            value: 1,
            owner: None,
        });
        assert!(d.validate().is_ok());
    }

    #[test]
    fn a_side_all_borne_off_and_closed_out_bars_are_refused() {
        let mut d = draft();
        d.apply(EditOp::Clear);
        click(&mut d, 1, Seat::Bottom, 1);
        assert!(d
            .validate()
            .unwrap_err()
            .contains("Bot has borne off all 15"));
        // Both on the bar against closed boards.
        d.apply(EditOp::Clear);
        for p in 1..=6 {
            click(&mut d, p, Seat::Bottom, 2);
            click(&mut d, 25 - p, Seat::Top, 2);
        }
        for seat in [Seat::Bottom, Seat::Top] {
            d.apply(EditOp::Click {
                slot: Slot::Bar(seat),
                seat,
                n: 1,
                tip: 3,
            });
        }
        assert!(d.validate().unwrap_err().contains("closed boards"));
    }

    #[test]
    fn dice_and_cube_cycle() {
        let mut d = draft();
        d.apply(EditOp::CycleDice {
            seat: Seat::Top,
            first: true,
        });
        assert_eq!((d.on_roll, d.dice), (Seat::Top, Dice::new(1, 1).ok()));
        for _ in 0..4 {
            d.apply(EditOp::CycleDice {
                seat: Seat::Top,
                first: false,
            });
        }
        d.apply(EditOp::CycleDice {
            seat: Seat::Top,
            first: true,
        });
        assert_eq!(d.dice, Dice::new(2, 5).ok());
        for _ in 0..4 {
            d.apply(EditOp::CycleDice {
                seat: Seat::Top,
                first: true,
            });
        }
        assert_eq!(d.dice, Dice::new(6, 5).ok());
        d.apply(EditOp::CycleDice {
            seat: Seat::Top,
            first: true,
        });
        assert_eq!(d.dice, None);
        d.apply(EditOp::CycleCube { owner: false });
        d.apply(EditOp::CycleCube { owner: true });
        assert_eq!((d.cube_value, d.cube_owner), (2, Some(Seat::Bottom)));
        for _ in 0..5 {
            d.apply(EditOp::CycleCube { owner: false });
        }
        assert_eq!((d.cube_value, d.cube_owner), (64, Some(Seat::Bottom)));
        d.apply(EditOp::CycleCube { owner: false });
        assert_eq!((d.cube_value, d.cube_owner), (1, None));
    }

    #[test]
    fn turn_and_dice_orient_the_position() {
        let mut d = draft();
        d.apply(EditOp::Clear);
        click(&mut d, 1, Seat::Bottom, 2);
        click(&mut d, 2, Seat::Top, 1);
        d.apply(EditOp::Dice(Some((Seat::Top, Dice::new(5, 2).unwrap()))));
        let (position, state) = d.validate().unwrap();
        assert_eq!(state.on_roll, Player::Zero);
        assert_eq!(state.dice, Some(Dice::new(5, 2).unwrap()));
        // Seen from the top player: its checker on its own 23 point, ours on its 24.
        assert_eq!(position.checkers(Side::Player, 23).unwrap(), 1);
        assert_eq!(position.checkers(Side::Opponent, 1).unwrap(), 2);
        d.apply(EditOp::Turn(Seat::Bottom));
        assert_eq!(d.dice, None);
        let (position, _) = d.validate().unwrap();
        let back = Draft::from_state(position, d.match_state(), d.names.clone());
        assert_eq!(back, d);
        assert_eq!(d.pips(), [2, 23]);
        assert_eq!(
            position_id::encode(&position),
            position_id::encode(
                &Position::from_sides(&d.side(Seat::Bottom), &d.side(Seat::Top)).unwrap()
            )
        );
    }
}
