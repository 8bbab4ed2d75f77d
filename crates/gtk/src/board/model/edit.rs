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
    /// point's or bar's count (primary: the bottom player's colour), the dice of a half
    /// (primary: the first die, secondary: the second), or the trays as in GNU Backgammon
    /// (its manual, "Clearing the board"): a click in a bear-off tray of either colour bears
    /// every checker off ([`EditOp::Clear`], the edit bar's Clear), a click on the opposite side
    /// sets the starting position ([`EditOp::Starting`], its Starting Position).
    ///
    /// GNU Backgammon has two trays on the side opposite the bear-off; our board has one
    /// tray-like strip there, drawn like the trays, as wide and as tall as both of them with
    /// the gap between: [`Geometry::cube_strip`], where the cube waits. All of it outside the
    /// cube (a click on the cube still turns the cube) is the opposite trays. Both areas come
    /// from the geometry, in the board's own layout, so they follow the board whichever
    /// player it is drawn for. A press on a tray that becomes a drag still moves one checker
    /// ([`BoardModel::edit_drag_end`]); only a press and release in place arrives here.
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
        if geom.cube_strip().contains(x, y) {
            return Action::Edit(EditOp::Starting);
        }
        match geom.hit(x, y, None, None, None) {
            Some(Hit::Slot(Slot::Tray(_))) => Action::Edit(EditOp::Clear),
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

    /// A press and release in place, as the board's drag gesture reports a click.
    fn press_release(m: &mut BoardModel, g: &Geometry, (x, y): (f64, f64)) -> Action {
        m.drag_begin(g, x, y);
        let action = m.drag_end(g, x, y, false);
        assert!(!m.is_dragging());
        action
    }

    /// The draft after `action`, which must be an edit.
    fn applied(m: &BoardModel, action: Action) -> Draft {
        let Action::Edit(op) = action else {
            panic!("not an edit: {action:?}");
        };
        let mut draft = m.edit_draft().unwrap().clone();
        draft.apply(op);
        draft
    }

    #[test]
    fn a_click_in_a_tray_clears_the_board_and_one_opposite_sets_the_start() {
        // Wider than the board, so that it is centred with a margin: the areas come from the
        // geometry, not from fixed coordinates.
        let g = Geometry::new(1400.0, 700.0);
        assert!(g.ox > 0.0);
        let mut m = model();
        for seat in [Seat::Bottom, Seat::Top] {
            // The primary button (press and release without a drag) on an empty tray…
            let action = press_release(&mut m, &g, g.tray(seat).centre());
            assert_eq!(action, Action::Edit(EditOp::Clear), "{seat:?}");
            let cleared = applied(&m, action);
            assert_eq!(cleared.off(Seat::Bottom), 15);
            assert_eq!(cleared.off(Seat::Top), 15);
            assert_eq!(cleared.board(), [0; 26]);
            // …and the secondary button.
            let (x, y) = g.tray(seat).centre();
            assert_eq!(
                m.click(&g, x, y, Button::Secondary),
                Action::Edit(EditOp::Clear)
            );
        }
        // A tray full of checkers: a press there picks one up, but released in place it is a
        // click all the same.
        let mut cleared = m.edit_draft().unwrap().clone();
        cleared.apply(EditOp::Clear);
        m.set_edit(Some(cleared.clone()));
        let (x, y) = g.slab(Seat::Top, 3).centre();
        assert!(m.drag_begin(&g, x, y), "a checker of the tray is picked up");
        assert_eq!(m.drag_end(&g, x, y, false), Action::Edit(EditOp::Clear));

        // The opposite side: the strip where the cube waits, the tray's place mirrored, at
        // either end of it (either colour's end), with either button.
        for seat in [Seat::Bottom, Seat::Top] {
            let tray = g.tray(seat);
            let strip = g.cube_strip();
            let (sx, _) = strip.centre();
            let (_, ty) = tray.centre();
            assert!(strip.contains(sx, ty), "the strip spans both trays' height");
            let action = press_release(&mut m, &g, (sx, ty));
            assert_eq!(action, Action::Edit(EditOp::Starting), "{seat:?}");
            let start = applied(&m, action);
            assert_eq!(start.board(), Draft::default().board());
            assert_eq!(start.pips(), [167, 167]);
            assert_eq!(
                m.click(&g, sx, tray.y + tray.h / 4.0, Button::Secondary),
                Action::Edit(EditOp::Starting)
            );
        }
        // The cube in the strip is still the cube.
        let (x, y) = g.cube(crate::board::CubePlace::Centre).centre();
        assert_eq!(
            press_release(&mut m, &g, (x, y)),
            Action::Edit(EditOp::CycleCube { owner: false })
        );
        let mut owned = cleared;
        owned.apply(EditOp::Cube {
            value: 2,
            owner: Some(Seat::Bottom),
        });
        m.set_edit(Some(owned));
        let (x, y) = g
            .cube(crate::board::CubePlace::Owned(Seat::Bottom))
            .centre();
        assert_eq!(
            m.click(&g, x, y, Button::Secondary),
            Action::Edit(EditOp::CycleCube { owner: true })
        );
        // Outside the board's areas: nothing.
        let frame = g.frame();
        assert_eq!(
            press_release(&mut m, &g, (frame.x + 1.0, frame.y + 1.0)),
            Action::Nothing
        );
    }

    #[test]
    fn dragging_to_and_from_the_trays_still_moves_one_checker() {
        let g = Geometry::new(1400.0, 700.0);
        let mut m = model();
        // From the 6 point into the bottom player's tray.
        let (x0, y0) = g.checker(Slot::Point(6), 4);
        assert!(m.drag_begin(&g, x0, y0));
        let (x1, y1) = g.tray(Seat::Bottom).centre();
        m.drag_update(x1, y1);
        let action = m.drag_end(&g, x1, y1, true);
        assert_eq!(
            action,
            Action::Edit(EditOp::Move {
                seat: Seat::Bottom,
                from: Slot::Point(6),
                to: Slot::Tray(Seat::Bottom)
            })
        );
        let draft = applied(&m, action);
        assert_eq!((draft.off(Seat::Bottom), draft.off(Seat::Top)), (1, 0));
        m.set_edit(Some(draft));
        // And out of the tray onto the 3 point: the tray shows one fewer while it is dragged.
        let (x0, y0) = g.slab(Seat::Bottom, 0).centre();
        assert!(m.drag_begin(&g, x0, y0));
        let (x1, y1) = g.point(3).centre();
        m.drag_update(x1, y1);
        let scene = m.scene(&g);
        assert_eq!(scene.off, [0, 0]);
        assert_eq!(scene.source, Some(Slot::Tray(Seat::Bottom)));
        let action = m.drag_end(&g, x1, y1, true);
        assert_eq!(
            action,
            Action::Edit(EditOp::Move {
                seat: Seat::Bottom,
                from: Slot::Tray(Seat::Bottom),
                to: Slot::Point(3)
            })
        );
        let draft = applied(&m, action);
        assert_eq!(draft.off(Seat::Bottom), 0);
        assert_eq!(draft.count(Seat::Bottom, Slot::Point(3)), 1);
        assert_eq!(draft.count(Seat::Bottom, Slot::Point(6)), 4);
        // A drag out of a tray dropped back on it or into the opposite strip is no click: the
        // checker goes back, nothing is cleared or set.
        m.set_edit(Some(draft.clone()));
        let mut one_off = draft;
        one_off.apply(EditOp::Move {
            seat: Seat::Top,
            from: Slot::Point(19),
            to: Slot::Tray(Seat::Top),
        });
        m.set_edit(Some(one_off));
        let (x0, y0) = g.slab(Seat::Top, 0).centre();
        for (x1, y1) in [
            (x0 + 10.0, y0 + 10.0),
            g.cube_strip().centre(),
            (g.cube_strip().centre().0, g.tray(Seat::Top).centre().1),
        ] {
            assert!(m.drag_begin(&g, x0, y0));
            m.drag_update(x1, y1);
            assert_eq!(m.drag_end(&g, x1, y1, true), Action::Changed);
        }
    }
}
