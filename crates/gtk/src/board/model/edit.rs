//! Edit mode on the board: the draft of [`crate::edit`] is drawn instead of the match's
//! position, and clicks and drags become [`EditOp`]s for the controller's editor (the board
//! changes nothing itself: the window hands the operation to the controller and shows the
//! draft it gets back).

use super::{Action, BoardModel, Button};
use crate::board::geometry::{Geometry, Hit, Seat, Slot};
use crate::board::scene::{Floating, Scene};
use crate::edit::{Draft, EditOp};
use crate::i18n::gettext_f;

/// A checker of the draft being dragged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct EditDrag {
    seat: Seat,
    from: Slot,
    x: f64,
    y: f64,
}

impl BoardModel {
    /// Shows `draft` (edit mode) instead of the match's checkers; `None` ends edit mode.
    pub fn set_edit(&mut self, draft: Option<Draft>) {
        if draft.is_some() {
            self.turn = None;
            self.drag = None;
        }
        if draft.is_none() {
            self.edit_drag = None;
        }
        self.edit = draft;
    }

    /// The draft shown in edit mode.
    pub fn edit_draft(&self) -> Option<&Draft> {
        self.edit.as_ref()
    }

    /// Picks up a checker of either colour (edit mode).
    pub(super) fn edit_drag_begin(&mut self, geom: &Geometry, x: f64, y: f64) -> bool {
        self.edit_drag = None;
        let Some(draft) = &self.edit else {
            return false;
        };
        let Some(Hit::Slot(slot)) = geom.hit(x, y, None, None, None) else {
            return false;
        };
        let seat = [Seat::Bottom, Seat::Top]
            .into_iter()
            .find(|&s| draft.count(s, slot) > 0);
        let Some(seat) = seat else {
            return false;
        };
        self.edit_drag = Some(EditDrag {
            seat,
            from: slot,
            x,
            y,
        });
        true
    }

    /// The pointer moved while dragging in edit mode.
    pub(super) fn edit_drag_update(&mut self, x: f64, y: f64) {
        if let Some(drag) = self.edit_drag.as_mut() {
            drag.x = x;
            drag.y = y;
        }
    }

    /// Released: a move of the dragged checker, or a click.
    pub(super) fn edit_drag_end(&mut self, geom: &Geometry, x: f64, y: f64, moved: bool) -> Action {
        let drag = self.edit_drag.take();
        if !moved {
            return self.edit_click(geom, x, y, Button::Primary);
        }
        let Some(drag) = drag else {
            return Action::Nothing;
        };
        match geom.drop_slot(x, y) {
            Some(to) if to != drag.from => Action::Edit(EditOp::Move {
                seat: drag.seat,
                from: drag.from,
                to,
            }),
            // Dropped outside or in place: the checker goes back.
            _ => Action::Changed,
        }
    }

    /// A click in edit mode: the cube (primary button: its value, secondary: its owner), a
    /// point's or bar's count (primary: the bottom player's colour), or the dice of a half
    /// (primary: the first die, secondary: the second).
    pub(super) fn edit_click(&mut self, geom: &Geometry, x: f64, y: f64, button: Button) -> Action {
        let Some(draft) = &self.edit else {
            return Action::Nothing;
        };
        let primary = button == Button::Primary;
        if geom.cube(draft.cube_place()).contains(x, y) {
            return Action::Edit(EditOp::CycleCube { owner: !primary });
        }
        if let Some((slot, n, tip)) = geom.edit_place(x, y) {
            let seat = match button {
                Button::Primary => Seat::Bottom,
                Button::Secondary => Seat::Top,
            };
            return Action::Edit(EditOp::Click { slot, seat, n, tip });
        }
        match geom.hit(x, y, None, None, None) {
            Some(Hit::Half(seat)) => Action::Edit(EditOp::CycleDice {
                seat,
                first: primary,
            }),
            _ => Action::Nothing,
        }
    }

    /// The draft's checkers, trays and pip counts in `scene`, with the checker being dragged.
    pub(super) fn edit_scene(&self, scene: &mut Scene) {
        let Some(draft) = &self.edit else {
            return;
        };
        scene.board = draft.board();
        scene.off = [draft.off(Seat::Bottom), draft.off(Seat::Top)];
        let pips = draft.pips();
        for seat in [Seat::Bottom, Seat::Top] {
            scene.info[seat.index()].pips =
                gettext_f("Pips {}", &[&pips[seat.index()].to_string()]);
        }
        scene.last_move = None;
        scene.highlights.clear();
        scene.source = None;
        scene.floating = None;
        if let Some(drag) = self.edit_drag {
            match drag.from {
                Slot::Tray(seat) => {
                    let off = &mut scene.off[seat.index()];
                    *off = off.saturating_sub(1);
                }
                slot => super::remove_one(&mut scene.board, slot, drag.seat),
            }
            scene.source = Some(drag.from);
            scene.floating = Some(Floating {
                seat: drag.seat,
                x: drag.x,
                y: drag.y,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::MatchState;

    fn geom() -> Geometry {
        Geometry::new(1000.0, 800.0)
    }

    fn model() -> BoardModel {
        let draft = Draft::new(MatchState::money(), ["Ann".into(), "Bot".into()]);
        let mut m = BoardModel::default();
        m.set_display(draft.display());
        m.set_edit(Some(draft));
        m
    }

    #[test]
    fn clicks_give_counts_by_height_and_button() {
        let g = geom();
        let mut m = model();
        // The third checker's place on the bottom player's 4 point.
        let (x, y) = g.checker(Slot::Point(4), 2);
        assert_eq!(
            m.click(&g, x, y, Button::Primary),
            Action::Edit(EditOp::Click {
                slot: Slot::Point(4),
                seat: Seat::Bottom,
                n: 3,
                tip: 5
            })
        );
        let (x, y) = g.checker(Slot::Point(20), 0);
        assert_eq!(
            m.click(&g, x, y, Button::Secondary),
            Action::Edit(EditOp::Click {
                slot: Slot::Point(20),
                seat: Seat::Top,
                n: 1,
                tip: 5
            })
        );
        // The frame beyond the base of point 4 empties it.
        let r = g.point(4);
        let (x, y) = (r.x + r.w / 2.0, r.y + r.h + g.unit * 0.2);
        assert!(matches!(
            m.click(&g, x, y, Button::Primary),
            Action::Edit(EditOp::Click { n: 0, .. })
        ));
        // The bar: the second place from the middle.
        let (x, y) = g.checker(Slot::Bar(Seat::Top), 1);
        assert!(matches!(
            m.click(&g, x, y, Button::Primary),
            Action::Edit(EditOp::Click {
                slot: Slot::Bar(Seat::Top),
                n: 2,
                ..
            })
        ));
        // The cube and the dice area of a half.
        let (x, y) = g.cube(crate::board::CubePlace::Centre).centre();
        assert_eq!(
            m.click(&g, x, y, Button::Secondary),
            Action::Edit(EditOp::CycleCube { owner: true })
        );
        let (x, y) = g.dice_area(Seat::Top).centre();
        assert_eq!(
            m.click(&g, x, y, Button::Primary),
            Action::Edit(EditOp::CycleDice {
                seat: Seat::Top,
                first: true
            })
        );
    }

    #[test]
    fn drags_move_a_checker_of_either_colour_and_the_scene_shows_the_draft() {
        let g = geom();
        let mut m = model();
        let (x0, y0) = g.checker(Slot::Point(19), 4);
        assert!(m.drag_begin(&g, x0, y0));
        m.drag_update(x0 + 30.0, y0 + 40.0);
        let scene = m.scene(&g);
        assert_eq!(scene.board[19], -4, "one of the five is in the air");
        assert_eq!(scene.floating.map(|f| f.seat), Some(Seat::Top));
        let (x1, y1) = g.point(16).centre();
        assert_eq!(
            m.drag_end(&g, x1, y1, true),
            Action::Edit(EditOp::Move {
                seat: Seat::Top,
                from: Slot::Point(19),
                to: Slot::Point(16)
            })
        );
        // A draft with 16 checkers is drawn as it is.
        let mut draft = m.edit_draft().unwrap().clone();
        draft.apply(EditOp::Click {
            slot: Slot::Point(3),
            seat: Seat::Bottom,
            n: 1,
            tip: 5,
        });
        m.set_edit(Some(draft));
        let scene = m.scene(&g);
        assert_eq!(scene.board[3], 1);
        assert_eq!(scene.off, [0, 0]);
        assert_eq!(scene.info[0].pips, "Pips 170");
        m.set_edit(None);
        assert_eq!(m.scene(&g).board[3], 0);
    }
}
