//! Pointer input: a drag gesture for the primary button (a drag moves a checker, a press and
//! release in place is a click), a click gesture for the secondary button, and a motion
//! controller for the cursor shape. Each handler hands the coordinates to the view-model.

use gtk::glib;
use gtk::prelude::*;
use gtk::subclass::prelude::*;

use crate::board::{Button, Hit, Seat, Slot};

/// Pointer travel (logical pixels) below which a press and release is a click.
const CLICK_SLOP: f64 = 4.0;

impl super::imp::CubefulBoard {
    pub(super) fn setup_input(&self) {
        let obj = self.obj();

        let drag = gtk::GestureDrag::new();
        drag.set_button(gtk::gdk::BUTTON_PRIMARY);
        drag.connect_drag_begin(glib::clone!(
            #[weak]
            obj,
            move |_, x, y| {
                let imp = obj.imp();
                imp.drag_start.set((x, y));
                let geom = obj.geometry();
                if imp.model.borrow_mut().drag_begin(&geom, x, y) {
                    obj.set_cursor_from_name(Some("grabbing"));
                    obj.queue_draw();
                }
            }
        ));
        drag.connect_drag_update(glib::clone!(
            #[weak]
            obj,
            move |_, dx, dy| {
                let imp = obj.imp();
                let (x0, y0) = imp.drag_start.get();
                let mut model = imp.model.borrow_mut();
                if model.is_dragging() {
                    model.drag_update(x0 + dx, y0 + dy);
                    drop(model);
                    obj.queue_draw();
                }
            }
        ));
        drag.connect_drag_end(glib::clone!(
            #[weak]
            obj,
            move |_, dx, dy| {
                let imp = obj.imp();
                let (x0, y0) = imp.drag_start.get();
                let moved = dx.hypot(dy) > CLICK_SLOP;
                let geom = obj.geometry();
                let (x, y) = if moved { (x0 + dx, y0 + dy) } else { (x0, y0) };
                let action = imp.model.borrow_mut().drag_end(&geom, x, y, moved);
                obj.set_cursor_from_name(None);
                imp.emit(action);
            }
        ));
        obj.add_controller(drag);

        let secondary = gtk::GestureClick::new();
        secondary.set_button(gtk::gdk::BUTTON_SECONDARY);
        secondary.connect_pressed(glib::clone!(
            #[weak]
            obj,
            move |_, _, x, y| {
                let geom = obj.geometry();
                let action = obj
                    .imp()
                    .model
                    .borrow_mut()
                    .click(&geom, x, y, Button::Secondary);
                obj.imp().emit(action);
            }
        ));
        obj.add_controller(secondary);

        let motion = gtk::EventControllerMotion::new();
        motion.connect_motion(glib::clone!(
            #[weak]
            obj,
            move |_, x, y| obj.imp().update_cursor(x, y)
        ));
        obj.add_controller(motion);
    }

    /// A hand over checkers the human may move, the default cursor elsewhere.
    fn update_cursor(&self, x: f64, y: f64) {
        let obj = self.obj();
        let model = self.model.borrow();
        if model.is_dragging() {
            return;
        }
        // Edit mode: everything on the board can be clicked; checkers can be dragged.
        if let Some(draft) = model.edit_draft() {
            let over_checker = match obj.geometry().hit(x, y, None, None, None) {
                Some(Hit::Slot(slot)) => [Seat::Bottom, Seat::Top]
                    .into_iter()
                    .any(|seat| draft.count(seat, slot) > 0),
                _ => false,
            };
            obj.set_cursor_from_name(Some(if over_checker { "grab" } else { "pointer" }));
            return;
        }
        let movable = match (model.moving_seat(), model.assembly()) {
            (Some(seat), Some(assembly)) => match obj.geometry().hit(x, y, None, None, None) {
                Some(Hit::Slot(slot @ (Slot::Point(_) | Slot::Bar(_)))) => {
                    slot.to_mover(seat).is_some_and(|p| assembly.has_checker(p))
                }
                _ => false,
            },
            _ => false,
        };
        obj.set_cursor_from_name(movable.then_some("grab"));
    }
}
