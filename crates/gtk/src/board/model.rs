//! The board's view-model: what the match looks like (set by the window from the engine's game
//! state), the move being made by a human (a [`MoveAssembly`]), the checker being dragged and
//! the checker in flight during an animation. It turns pointer input, given in widget
//! coordinates with the [`Geometry`] of the moment, into [`Action`]s, and produces the
//! [`Scene`] to draw. No GTK here, so all of it is tested without a display.

use cubeful_engine::rules::movegen::play_steps;
use cubeful_engine::{Dice, LegalMove, Position, Side, Step};

use super::geometry::{CubePlace, Geometry, Hit, Seat, Slot, MAX_BAR_STACK, MAX_STACK};
use super::scene::{Colours, CubeScene, DiceScene, Floating, Scene, SeatInfo};
use crate::edit::{Draft, EditOp};
use crate::i18n::{gettext, gettext_f, ngettext_f};
use cubeful_engine::rules::assembly::{AssemblyError, DieChoice, MoveAssembly};

mod edit;

/// The state of the match as the board shows it, set by the window.
#[derive(Clone, Debug, PartialEq)]
pub struct Display {
    /// The checkers seen from the bottom player (as if the bottom player were on roll).
    pub position: Position,
    /// Names by seat.
    pub names: [String; 2],
    /// Scores by seat.
    pub scores: [u32; 2],
    /// Match length (0 for money play).
    pub match_length: u16,
    /// The Crawford game is being played.
    pub crawford: bool,
    pub on_roll: Option<Seat>,
    /// The dice on the board and whose they are.
    pub dice: Option<(Seat, Dice)>,
    /// Cube value and where it is; `None` hides the cube.
    pub cube: Option<(u32, CubePlace)>,
    /// False in the Crawford game.
    pub cube_live: bool,
    pub resignation: Option<(Seat, u8)>,
    /// A human at this seat may move the checkers now (the dice are in `dice`).
    pub turn: Option<Seat>,
    /// A human at this seat may roll by clicking the board.
    pub roll: Option<Seat>,
    /// A short text for a half of the board ("Click to roll", "Thinking…").
    pub prompt: Option<(Seat, String)>,
    /// No match yet: the info strips and the match text stay empty.
    pub idle: bool,
    /// The last move made, its checkers marked on the board.
    pub last_move: Option<LastMove>,
}

/// The checkers moved by the last move: where they ended and where they started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The seat of the player who moved.
    pub seat: Seat,
    /// Where each moved checker started (a slot twice for two checkers).
    pub from: Vec<Slot>,
    /// Where each moved checker ended (a checker moved twice counts once, at its end).
    pub to: Vec<Slot>,
}

impl Default for Display {
    fn default() -> Display {
        Display {
            position: Position::starting(),
            names: [String::new(), String::new()],
            scores: [0, 0],
            match_length: 0,
            crawford: false,
            on_roll: None,
            dice: None,
            cube: Some((1, CubePlace::Centre)),
            cube_live: true,
            resignation: None,
            turn: None,
            roll: None,
            prompt: None,
            idle: false,
            last_move: None,
        }
    }
}

/// Which mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    Primary,
    Secondary,
}

/// What an input asks the window to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Nothing to do.
    Nothing,
    /// The board changed (a step was played or taken back): redraw.
    Changed,
    /// A step was refused; the board did not change.
    Refused(AssemblyError),
    /// The dice were clicked but the move is not complete yet.
    Incomplete,
    /// The human asked to roll.
    Roll,
    /// The human finished the move (the play is in the mover's numbering).
    FinishMove(LegalMove),
    /// The cube was clicked (primary: double or take; secondary: drop).
    Cube(Button),
    /// The resignation flag was clicked (primary: accept; secondary: decline).
    Resignation(Button),
    /// Edit mode: a change to the draft.
    Edit(EditOp),
}

/// A human's move in progress.
#[derive(Clone, Debug)]
struct Turn {
    seat: Seat,
    assembly: MoveAssembly,
}

/// A checker being dragged.
#[derive(Clone, Debug)]
struct Drag {
    /// Where it was picked up (bottom numbering).
    from: Slot,
    /// Pointer position.
    x: f64,
    y: f64,
    /// Legal destinations.
    targets: Vec<Slot>,
}

/// A played move being shown step by step.
#[derive(Clone, Debug)]
struct Animation {
    seat: Seat,
    /// Positions (mover's view) before each step and after the last.
    frames: Vec<Position>,
    steps: Vec<Step>,
    /// The step in flight.
    index: usize,
    /// Progress of that step, 0..=1.
    t: f64,
}

/// The board's view-model.
#[derive(Clone, Debug)]
pub struct BoardModel {
    display: Display,
    colours: Colours,
    turn: Option<Turn>,
    drag: Option<Drag>,
    animation: Option<Animation>,
    /// Edit mode: the draft shown instead of the match's checkers.
    edit: Option<Draft>,
    /// Edit mode: the checker being dragged.
    edit_drag: Option<edit::EditDrag>,
}

impl Default for BoardModel {
    fn default() -> BoardModel {
        BoardModel::new(Colours::default())
    }
}

impl BoardModel {
    /// An empty board with these colours.
    pub fn new(colours: Colours) -> BoardModel {
        BoardModel {
            display: Display {
                cube: None,
                ..Display::default()
            },
            colours,
            turn: None,
            drag: None,
            animation: None,
            edit: None,
            edit_drag: None,
        }
    }

    /// The colours used.
    pub fn colours(&self) -> Colours {
        self.colours
    }

    /// Changes the colours.
    pub fn set_colours(&mut self, colours: Colours) {
        self.colours = colours;
    }

    /// The display set last.
    pub fn display(&self) -> &Display {
        &self.display
    }

    /// Shows a new state of the match. A move in progress is kept if the same turn (seat,
    /// dice and position) is still on; otherwise it starts afresh or ends.
    pub fn set_display(&mut self, display: Display) {
        let same_turn = self.display.turn == display.turn
            && self.display.dice == display.dice
            && self.display.position == display.position;
        self.display = display;
        if !same_turn || self.turn.is_none() {
            self.drag = None;
            self.turn = match (self.display.turn, self.display.dice) {
                (Some(seat), Some((dice_seat, dice))) if seat == dice_seat => Some(Turn {
                    seat,
                    assembly: MoveAssembly::new(mover_view(self.display.position, seat), dice),
                }),
                _ => None,
            };
        }
    }

    /// The move in progress, if a human is moving.
    pub fn assembly(&self) -> Option<&MoveAssembly> {
        self.turn.as_ref().map(|t| &t.assembly)
    }

    /// The seat of the human moving now.
    pub fn moving_seat(&self) -> Option<Seat> {
        self.turn.as_ref().map(|t| t.seat)
    }

    /// True while a move is being animated.
    pub fn is_animating(&self) -> bool {
        self.animation.is_some()
    }

    /// True while a checker is being dragged.
    pub fn is_dragging(&self) -> bool {
        self.drag.is_some() || self.edit_drag.is_some()
    }

    /// Starts animating `mv`, played from `start` (mover's view) by the player at `seat`.
    /// Returns false (and animates nothing) for an empty move.
    pub fn animate(&mut self, seat: Seat, start: Position, mv: &LegalMove) -> bool {
        let steps: Vec<Step> = mv.mv.steps().to_vec();
        if steps.is_empty() {
            return false;
        }
        let mut frames = vec![start];
        for s in &steps {
            let last = *frames.last().expect("frames start non-empty");
            frames.push(play_steps(&last, std::slice::from_ref(s)).unwrap_or(last));
        }
        self.drag = None;
        self.animation = Some(Animation {
            seat,
            frames,
            steps,
            index: 0,
            t: 0.0,
        });
        true
    }

    /// Advances the animation by `fraction` of one step. Returns true while it runs.
    pub fn advance(&mut self, fraction: f64) -> bool {
        let Some(anim) = self.animation.as_mut() else {
            return false;
        };
        anim.t += fraction.max(0.0);
        while anim.t >= 1.0 {
            anim.t -= 1.0;
            anim.index += 1;
            if anim.index >= anim.steps.len() {
                self.animation = None;
                return false;
            }
        }
        true
    }

    /// Stops an animation at once.
    pub fn stop_animation(&mut self) {
        self.animation = None;
    }

    /// Shows `mv` (a legal play of the current roll, mover's numbering) as the partial move,
    /// for example a move picked in the hint window. The player may still change it.
    pub fn show_move(&mut self, mv: &LegalMove) -> bool {
        match self.turn.as_mut() {
            Some(turn) => {
                turn.assembly.show(mv);
                self.drag = None;
                true
            }
            None => false,
        }
    }

    /// Takes back every step of the move in progress.
    pub fn take_back_all(&mut self) {
        if let Some(turn) = self.turn.as_mut() {
            turn.assembly.undo_all();
        }
        self.drag = None;
    }

    /// Takes back the last step of the move in progress.
    pub fn undo(&mut self) -> Action {
        self.drag = None;
        match self.turn.as_mut() {
            Some(turn) => match turn.assembly.undo() {
                Ok(_) => Action::Changed,
                Err(e) => Action::Refused(e),
            },
            None => Action::Nothing,
        }
    }

    /// Finishes the move if it is complete (the same as clicking the dice).
    pub fn finish(&mut self) -> Action {
        match self.turn.as_ref() {
            Some(turn) => match turn.assembly.finished() {
                Some(mv) => Action::FinishMove(mv),
                None => Action::Incomplete,
            },
            None => Action::Nothing,
        }
    }

    /// Pointer pressed at (`x`, `y`) with the primary button: picks up a checker of the
    /// human on roll if there is one. Returns true if a drag started.
    pub fn drag_begin(&mut self, geom: &Geometry, x: f64, y: f64) -> bool {
        self.drag = None;
        if self.edit.is_some() {
            return self.edit_drag_begin(geom, x, y);
        }
        if self.animation.is_some() {
            return false;
        }
        let Some(turn) = self.turn.as_mut() else {
            return false;
        };
        let Some(Hit::Slot(slot)) = geom.hit(x, y, None, None, None) else {
            return false;
        };
        let Some(from) = slot.to_mover(turn.seat) else {
            return false;
        };
        if from == 0 || !turn.assembly.has_checker(from) {
            return false;
        }
        let targets = turn
            .assembly
            .target_points(from)
            .into_iter()
            .map(|to| Slot::from_mover(turn.seat, to))
            .collect();
        self.drag = Some(Drag {
            from: slot,
            x,
            y,
            targets,
        });
        true
    }

    /// The pointer moved while dragging.
    pub fn drag_update(&mut self, x: f64, y: f64) {
        self.edit_drag_update(x, y);
        if let Some(drag) = self.drag.as_mut() {
            drag.x = x;
            drag.y = y;
        }
    }

    /// Legal destinations of the checker being dragged.
    pub fn drag_targets(&self) -> Vec<Slot> {
        self.drag
            .as_ref()
            .map(|d| d.targets.clone())
            .unwrap_or_default()
    }

    /// The pointer was released at (`x`, `y`). `moved` is false for a press and release in
    /// the same place, which is a click.
    pub fn drag_end(&mut self, geom: &Geometry, x: f64, y: f64, moved: bool) -> Action {
        if self.edit.is_some() {
            return self.edit_drag_end(geom, x, y, moved);
        }
        let drag = self.drag.take();
        if !moved {
            return self.click(geom, x, y, Button::Primary);
        }
        let Some(drag) = drag else {
            return Action::Nothing;
        };
        let Some(turn) = self.turn.as_mut() else {
            return Action::Nothing;
        };
        let Some(to_slot) = geom.drop_slot(x, y) else {
            return Action::Changed; // dropped outside: the checker goes back
        };
        if to_slot == drag.from {
            return Action::Changed;
        }
        let (Some(from), Some(to)) = (drag.from.to_mover(turn.seat), to_slot.to_mover(turn.seat))
        else {
            return Action::Refused(AssemblyError::Illegal);
        };
        match turn.assembly.move_checker(from, to) {
            Ok(()) => Action::Changed,
            Err(e) => Action::Refused(e),
        }
    }

    /// A click at (`x`, `y`).
    pub fn click(&mut self, geom: &Geometry, x: f64, y: f64, button: Button) -> Action {
        self.drag = None;
        if self.animation.is_some() {
            return Action::Nothing;
        }
        if self.edit.is_some() {
            return self.edit_click(geom, x, y, button);
        }
        let cube = self.display.cube.map(|(_, place)| place);
        let resign = self.display.resignation.map(|(seat, _)| seat);
        let dice_seat = self.display.dice.map(|(seat, _)| seat);
        let Some(hit) = geom.hit(x, y, cube, resign, dice_seat) else {
            return Action::Nothing;
        };
        match hit {
            Hit::Resignation => return Action::Resignation(button),
            Hit::Cube => return Action::Cube(button),
            _ => {}
        }
        // Before a roll the whole board rolls, the dice of the last turn included.
        if self.display.roll.is_some()
            && button == Button::Primary
            && matches!(hit, Hit::Half(_) | Hit::Slot(_) | Hit::Dice(_))
        {
            return Action::Roll;
        }
        let Some(turn) = self.turn.as_mut() else {
            return Action::Nothing;
        };
        match hit {
            Hit::Dice(seat) if seat == turn.seat => match turn.assembly.finished() {
                Some(mv) => Action::FinishMove(mv),
                None => Action::Incomplete,
            },
            Hit::Slot(Slot::Tray(seat)) if seat == turn.seat => match turn.assembly.bear_off() {
                Ok(_) => Action::Changed,
                Err(e) => Action::Refused(e),
            },
            Hit::Slot(slot) => {
                let Some(point) = slot.to_mover(turn.seat) else {
                    return Action::Nothing;
                };
                let result = if turn.assembly.has_checker(point) {
                    let choice = match button {
                        Button::Primary => DieChoice::Left,
                        Button::Secondary => DieChoice::Right,
                    };
                    turn.assembly.move_by_die(point, choice).map(|_| ())
                } else if button == Button::Secondary {
                    turn.assembly.make_point(point)
                } else {
                    Err(AssemblyError::NoChecker)
                };
                match result {
                    Ok(()) => Action::Changed,
                    Err(e) => Action::Refused(e),
                }
            }
            _ => Action::Nothing,
        }
    }

    /// The checkers as shown now, from the bottom player's side: the animation frame, the
    /// move in progress, or the display's position.
    pub fn shown_position(&self) -> Position {
        if let Some(anim) = &self.animation {
            return bottom_view(anim.frames[anim.index], anim.seat);
        }
        if let Some(turn) = &self.turn {
            return bottom_view(turn.assembly.current(), turn.seat);
        }
        self.display.position
    }

    /// The scene to draw in a widget laid out as `geom` (in edit mode, with the draft).
    pub fn scene(&self, geom: &Geometry) -> Scene {
        let mut scene = self.match_scene(geom);
        self.edit_scene(&mut scene);
        scene
    }

    /// The scene of the match.
    fn match_scene(&self, geom: &Geometry) -> Scene {
        let d = &self.display;
        let position = self.shown_position();
        let mut board = *position.board();
        let mut floating = None;
        let mut source = None;
        let mut highlights = Vec::new();

        if let Some(anim) = &self.animation {
            let step = anim.steps[anim.index];
            let from = Slot::from_mover(anim.seat, step.from);
            let to = Slot::from_mover(anim.seat, step.to);
            let height = count_on(&board, from, anim.seat);
            remove_one(&mut board, from, anim.seat);
            let (x0, y0) = stack_top(geom, from, height.saturating_sub(1));
            let (x1, y1) = match to {
                // Borne off: onto the next free place in the tray.
                Slot::Tray(seat) => {
                    let side = if seat == Seat::Bottom {
                        Side::Player
                    } else {
                        Side::Opponent
                    };
                    geom.slab(seat, position.off(side).min(14)).centre()
                }
                _ => stack_top(geom, to, count_on(&board, to, anim.seat)),
            };
            let t = ease(anim.t);
            floating = Some(Floating {
                seat: anim.seat,
                x: x0 + (x1 - x0) * t,
                y: y0 + (y1 - y0) * t,
            });
        } else if let (Some(drag), Some(turn)) = (&self.drag, &self.turn) {
            remove_one(&mut board, drag.from, turn.seat);
            floating = Some(Floating {
                seat: turn.seat,
                x: drag.x,
                y: drag.y,
            });
            source = Some(drag.from);
            highlights = drag.targets.clone();
        }

        let off = [position.off(Side::Player), position.off(Side::Opponent)];
        let pips = [
            shown_pips(&position, Side::Player),
            shown_pips(&position, Side::Opponent),
        ];
        let info = [Seat::Bottom, Seat::Top].map(|seat| {
            if d.idle {
                SeatInfo::default()
            } else {
                SeatInfo {
                    name: d.names[seat.index()].clone(),
                    score: score_text(d.scores[seat.index()], d.match_length),
                    pips: gettext_f("Pips {}", &[&pips[seat.index()].to_string()]),
                }
            }
        });

        let dice = d.dice.map(|(seat, dice)| {
            let used = match (&self.turn, &self.animation) {
                (_, Some(_)) => [false, false],
                (Some(turn), None) if turn.seat == seat => turn.assembly.dice_used(),
                _ => [false, false],
            };
            DiceScene {
                seat,
                values: [dice.first(), dice.second()],
                used,
            }
        });

        Scene {
            board,
            off,
            info,
            match_text: if d.idle {
                String::new()
            } else {
                match_text(d.match_length, d.crawford)
            },
            on_roll: d.on_roll,
            dice,
            cube: d.cube.map(|(value, place)| CubeScene {
                place,
                // A real cube shows 64 while it is still at 1.
                value: if value <= 1 { 64 } else { value },
                live: d.cube_live,
            }),
            resignation: d.resignation,
            // The last move stays marked until a step of the next one is played.
            last_move: d.last_move.clone().filter(|_| {
                self.animation.is_none()
                    && self
                        .turn
                        .as_ref()
                        .is_none_or(|t| bottom_view(t.assembly.current(), t.seat) == d.position)
            }),
            highlights,
            source,
            floating,
            prompt: d.prompt.clone(),
            colours: self.colours,
        }
    }
}

/// The position seen from the player at `seat`, given the bottom player's view.
pub fn mover_view(bottom: Position, seat: Seat) -> Position {
    match seat {
        Seat::Bottom => bottom,
        Seat::Top => bottom.swap(),
    }
}

/// The bottom player's view of a position seen from the player at `seat`.
pub fn bottom_view(mover: Position, seat: Seat) -> Position {
    mover_view(mover, seat)
}

fn shown_pips(position: &Position, side: Side) -> u32 {
    position.pip_count(side)
}

/// "Score 3 of 7" or, in money play, "Score 3".
fn score_text(score: u32, length: u16) -> String {
    if length == 0 {
        gettext_f("Score {}", &[&score.to_string()])
    } else {
        gettext_f("Score {} of {}", &[&score.to_string(), &length.to_string()])
    }
}

/// "Match to 7 points", "Crawford game", "Money session".
fn match_text(length: u16, crawford: bool) -> String {
    if length == 0 {
        gettext("Money session")
    } else if crawford {
        ngettext_f(
            "Match to {} point · Crawford game",
            "Match to {} points · Crawford game",
            u32::from(length),
            &[&length.to_string()],
        )
    } else {
        ngettext_f(
            "Match to {} point",
            "Match to {} points",
            u32::from(length),
            &[&length.to_string()],
        )
    }
}

/// Checkers of `seat` on `slot` in a bottom-view board.
fn count_on(board: &[i8; 26], slot: Slot, seat: Seat) -> u8 {
    let v = match slot {
        Slot::Point(p) => board[usize::from(p)],
        Slot::Bar(Seat::Bottom) => board[25],
        Slot::Bar(Seat::Top) => board[0],
        Slot::Tray(_) => return 0,
    };
    match seat {
        Seat::Bottom => v.max(0) as u8,
        Seat::Top => (-v).max(0) as u8,
    }
}

/// Takes one checker of `seat` off `slot` (for drawing it elsewhere).
fn remove_one(board: &mut [i8; 26], slot: Slot, seat: Seat) {
    let i = match slot {
        Slot::Point(p) => usize::from(p),
        Slot::Bar(Seat::Bottom) => 25,
        Slot::Bar(Seat::Top) => 0,
        Slot::Tray(_) => return,
    };
    match seat {
        Seat::Bottom if board[i] > 0 => board[i] -= 1,
        Seat::Top if board[i] < 0 => board[i] += 1,
        _ => {}
    }
}

/// Where the `index`-th checker of a stack is drawn (clamped to the visible stack).
fn stack_top(geom: &Geometry, slot: Slot, index: u8) -> (f64, f64) {
    let max = match slot {
        Slot::Bar(_) => MAX_BAR_STACK,
        _ => MAX_STACK,
    };
    geom.checker(slot, index.min(max - 1))
}

/// Smooth start and stop.
fn ease(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geom() -> Geometry {
        Geometry::new(1710.0, 1460.0)
    }

    fn dice(s: &str) -> Dice {
        s.parse().unwrap()
    }

    fn turn_display(seat: Seat, roll: &str) -> Display {
        Display {
            on_roll: Some(seat),
            dice: Some((seat, dice(roll))),
            turn: Some(seat),
            ..Display::default()
        }
    }

    fn checker_xy(g: &Geometry, slot: Slot, index: u8) -> (f64, f64) {
        g.checker(slot, index)
    }

    #[test]
    fn drag_highlights_and_moves() {
        let g = geom();
        let mut m = BoardModel::default();
        m.set_display(turn_display(Seat::Bottom, "31"));
        // Pick up the top checker of the 8 point.
        let (x, y) = checker_xy(&g, Slot::Point(8), 2);
        assert!(m.drag_begin(&g, x, y));
        let targets = m.drag_targets();
        assert_eq!(
            targets,
            vec![Slot::Point(7), Slot::Point(5), Slot::Point(4)]
        );
        let scene = m.scene(&g);
        assert_eq!(scene.highlights, targets);
        assert_eq!(scene.source, Some(Slot::Point(8)));
        assert_eq!(
            scene.count(Slot::Point(8), Seat::Bottom),
            2,
            "one is lifted"
        );
        assert!(scene.floating.is_some());
        // Drop it on the 5 point.
        let (x5, y5) = g.point(5).centre();
        m.drag_update(x5, y5);
        assert_eq!(m.drag_end(&g, x5, y5, true), Action::Changed);
        let scene = m.scene(&g);
        assert_eq!(scene.count(Slot::Point(5), Seat::Bottom), 1);
        assert_eq!(scene.count(Slot::Point(8), Seat::Bottom), 2);
        assert!(scene.highlights.is_empty());
        assert_eq!(scene.dice.unwrap().used, [true, false]);
        // Dice clicked too early: refused.
        let (dx, dy) = g.dice(Seat::Bottom)[0].centre();
        assert_eq!(m.click(&g, dx, dy, Button::Primary), Action::Incomplete);
        // 6/5 by a plain click (left die used, so the 1 is played).
        let (x6, y6) = checker_xy(&g, Slot::Point(6), 0);
        assert_eq!(m.drag_end(&g, x6, y6, false), Action::Changed);
        match m.click(&g, dx, dy, Button::Primary) {
            Action::FinishMove(mv) => {
                assert_eq!(
                    cubeful_engine::formats::notation::format_move(&Position::starting(), &mv.mv),
                    "8/5 6/5"
                );
            }
            other => panic!("expected a finished move, got {other:?}"),
        }
    }

    #[test]
    fn illegal_drop_snaps_back() {
        let g = geom();
        let mut m = BoardModel::default();
        m.set_display(turn_display(Seat::Bottom, "31"));
        let (x, y) = checker_xy(&g, Slot::Point(6), 0);
        assert!(m.drag_begin(&g, x, y));
        // Backwards to the 9 point: not a target.
        let (x2, y2) = g.point(9).centre();
        assert_eq!(
            m.drag_end(&g, x2, y2, true),
            Action::Refused(AssemblyError::Illegal)
        );
        assert_eq!(m.shown_position(), Position::starting());
        // Opponent's checkers cannot be picked up.
        let (x, y) = checker_xy(&g, Slot::Point(1), 0);
        assert!(!m.drag_begin(&g, x, y));
    }

    #[test]
    fn right_click_makes_a_point_and_undo() {
        let g = geom();
        let mut m = BoardModel::default();
        m.set_display(turn_display(Seat::Bottom, "31"));
        let (x, y) = g.point(5).centre();
        assert_eq!(m.click(&g, x, y, Button::Secondary), Action::Changed);
        assert!(m.assembly().unwrap().is_complete());
        assert_eq!(m.undo(), Action::Changed);
        assert_eq!(m.undo(), Action::Changed);
        assert_eq!(m.undo(), Action::Refused(AssemblyError::NothingToUndo));
        assert_eq!(m.shown_position(), Position::starting());
    }

    #[test]
    fn top_player_moves_in_own_numbering() {
        // Human vs human: the top player moves. His 8 point is the bottom player's 17.
        let g = geom();
        let mut m = BoardModel::default();
        m.set_display(turn_display(Seat::Top, "31"));
        let (x, y) = checker_xy(&g, Slot::Point(17), 2);
        assert!(m.drag_begin(&g, x, y));
        assert!(m.drag_targets().contains(&Slot::Point(20)));
        let (tx, ty) = g.point(20).centre();
        assert_eq!(m.drag_end(&g, tx, ty, true), Action::Changed);
        let scene = m.scene(&g);
        assert_eq!(scene.count(Slot::Point(20), Seat::Top), 1);
        assert_eq!(scene.count(Slot::Point(17), Seat::Top), 2);
    }

    #[test]
    fn same_turn_keeps_partial_move_new_turn_resets() {
        let g = geom();
        let mut m = BoardModel::default();
        let d = turn_display(Seat::Bottom, "31");
        m.set_display(d.clone());
        let (x, y) = checker_xy(&g, Slot::Point(8), 2);
        assert_eq!(m.click(&g, x, y, Button::Primary), Action::Changed);
        m.set_display(d.clone());
        assert_eq!(m.assembly().unwrap().played().len(), 1);
        m.set_display(Display { turn: None, ..d });
        assert!(m.assembly().is_none());
        assert_eq!(m.shown_position(), Position::starting());
    }

    #[test]
    fn roll_cube_and_resignation_clicks() {
        let g = geom();
        let mut m = BoardModel::default();
        m.set_display(Display {
            on_roll: Some(Seat::Bottom),
            roll: Some(Seat::Bottom),
            resignation: Some((Seat::Top, 2)),
            ..Display::default()
        });
        let r = g.half(Seat::Bottom);
        assert_eq!(
            m.click(&g, r.x + 5.0, r.y + r.h / 2.0, Button::Primary),
            Action::Roll
        );
        let (x, y) = g.cube(CubePlace::Centre).centre();
        assert_eq!(
            m.click(&g, x, y, Button::Primary),
            Action::Cube(Button::Primary)
        );
        let (x, y) = g.resignation(Seat::Top).centre();
        assert_eq!(
            m.click(&g, x, y, Button::Secondary),
            Action::Resignation(Button::Secondary)
        );
        // The opponent's dice of the last turn are still shown: a click on them rolls too.
        m.set_display(Display {
            on_roll: Some(Seat::Bottom),
            roll: Some(Seat::Bottom),
            dice: Some((Seat::Top, dice("52"))),
            ..Display::default()
        });
        assert!(m.assembly().is_none());
        let (x, y) = g.dice(Seat::Top)[1].centre();
        assert_eq!(m.click(&g, x, y, Button::Primary), Action::Roll);
        assert_eq!(m.click(&g, x, y, Button::Secondary), Action::Nothing);
    }

    #[test]
    fn animation_moves_a_checker_step_by_step() {
        let g = geom();
        let mut m = BoardModel::default();
        m.set_display(Display::default());
        // The top player plays 13/10 10/9 (from his side).
        let start = Position::starting();
        let mv = cubeful_engine::formats::notation::parse_move(&start, dice("31"), "13/10 10/9")
            .unwrap();
        assert!(m.animate(Seat::Top, start, &mv));
        let s0 = m.scene(&g);
        let f0 = s0.floating.unwrap();
        // His 13 point is the bottom player's 12: one of five lifted.
        assert_eq!(s0.count(Slot::Point(12), Seat::Top), 4);
        let (x12, _) = g.checker(Slot::Point(12), 4);
        assert!((f0.x - x12).abs() < 1e-6);
        assert!(m.advance(0.5));
        let f1 = m.scene(&g).floating.unwrap();
        assert!(f1.x > f0.x, "moving right along the top row");
        assert!(m.advance(0.6));
        assert_eq!(m.scene(&g).count(Slot::Point(15), Seat::Top), 0);
        assert!(!m.advance(1.0));
        assert!(!m.is_animating());
        assert!(m.scene(&g).floating.is_none());
    }

    #[test]
    fn scene_texts() {
        let g = geom();
        let mut m = BoardModel::default();
        m.set_display(Display {
            names: ["Ann".into(), "Bot".into()],
            scores: [2, 4],
            match_length: 5,
            ..Display::default()
        });
        let s = m.scene(&g);
        assert_eq!(s.info[0].name, "Ann");
        assert_eq!(s.info[1].score, "Score 4 of 5");
        assert_eq!(s.info[0].pips, "Pips 167");
        assert_eq!(s.match_text, "Match to 5 points");
    }
}
