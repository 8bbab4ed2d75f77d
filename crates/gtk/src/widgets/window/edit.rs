//! Edit mode in the window: the stateful action `win.edit-position` (Ctrl+E, the header bar's
//! toggle button, the menu's "Edit Position"), the edit bar under the board, the board showing
//! the draft and handing its clicks and drags to the controller's editor, and leaving edit mode
//! by playing on from the set-up or cancelling. Turning the toggle off plays on from the
//! position, as releasing GNU Backgammon's Edit button does.

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::position_id;
use gtk::{gio, glib};
use serde_json::{json, Value};

use super::CubefulWindow;
use crate::board::{CubePlace, Seat, Slot};
use crate::controller::edit::EditPlay;
use crate::controller::Controller;
use crate::edit::EditOp;
use crate::widgets::edit_bar::EditBar;

/// The window's edit-mode parts.
#[derive(Debug, Default)]
pub struct EditState {
    /// The bar under the board (shown in edit mode).
    bar: Option<EditBar>,
    /// `win.edit-position`, whose state is true in edit mode.
    action: Option<gio::SimpleAction>,
}

impl CubefulWindow {
    /// Creates the edit bar and the `win.edit-position` action.
    pub(super) fn edit_setup(&self) {
        let bar = EditBar::new();
        bar.connect_op(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |op| window.edit_op(op)
        ));
        bar.connect_play(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move || window.edit_play()
        ));
        bar.connect_cancel(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move || window.edit_cancel()
        ));
        let imp = self.imp();
        imp.edit_slot.set_child(Some(&bar));
        imp.edit_slot.set_visible(false);
        let action = gio::SimpleAction::new_stateful("edit-position", None, &false.to_variant());
        action.connect_activate(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |_, _| window.toggle_edit()
        ));
        self.add_action(&action);
        let mut state = imp.edit.borrow_mut();
        state.bar = Some(bar);
        state.action = Some(action);
    }

    /// Ctrl+E, the toggle button: enters edit mode, or leaves it playing on from the draft.
    pub fn toggle_edit(&self) {
        if self.imp().controller.borrow().is_editing() {
            self.edit_play();
        } else {
            self.refresh_match_defaults();
            self.control(Controller::enter_edit);
            self.edit_refresh();
        }
    }

    /// A change to the draft, from the board or the edit bar.
    pub(super) fn edit_op(&self, op: EditOp) {
        let changed = self.imp().controller.borrow_mut().edit(op);
        if let Some(effects) = changed {
            self.run(effects);
            self.edit_refresh();
        }
    }

    /// Play From Here: the set-up becomes part of the match (a new match first asks about
    /// an unsaved one); a position no game can have stays in the editor with its reason.
    pub fn edit_play(&self) {
        self.refresh_match_defaults();
        let plan = self.imp().controller.borrow().plan_edit_play();
        match plan {
            Err(sentence) => self.toast(&sentence),
            Ok(plan @ EditPlay::SetUp(_)) => self.control(|c| c.play_from_edit(plan)),
            Ok(plan @ EditPlay::NewSession(_)) => self.files_when_saved(Box::new(move |window| {
                window.files_new_match();
                window.control(|c| c.play_from_edit(plan));
                window.edit_refresh();
            })),
        }
        self.edit_refresh();
    }

    /// A Position ID, GNU Backgammon ID or XGID pasted (Ctrl+V) or typed into the ID bar
    /// while editing: it sets the draft.
    pub(super) fn edit_paste(&self, text: &str) {
        let result = self.imp().controller.borrow_mut().paste_into_draft(text);
        match result {
            Ok(()) => self.edit_refresh(),
            Err(sentence) => self.toast(&sentence),
        }
    }

    /// Cancel: leaves edit mode, the match as it was.
    pub fn edit_cancel(&self) {
        self.control(Controller::cancel_edit);
        self.edit_refresh();
    }

    /// Shows the controller's draft (or the match again): the board, the edit bar, the
    /// toggle's state, then everything else.
    /// Shows or hides the editor when the controller entered or left edit mode by itself (a
    /// new match or a file opened while editing ends it).
    pub(super) fn edit_sync(&self) {
        let editing = self.imp().controller.borrow().is_editing();
        if self.imp().edit_slot.is_visible() != editing {
            self.edit_refresh();
        }
    }

    fn edit_refresh(&self) {
        let imp = self.imp();
        let draft = imp.controller.borrow().draft().cloned();
        imp.board.set_edit(draft.clone());
        imp.edit_slot.set_visible(draft.is_some());
        let state = imp.edit.borrow();
        if let Some(action) = &state.action {
            action.set_state(&draft.is_some().to_variant());
        }
        if let (Some(bar), Some(draft)) = (&state.bar, &draft) {
            bar.show(draft, draft.validate().err().as_deref());
        }
        drop(state);
        self.render();
        // Once the bar is laid out again (a sentence shown or gone), tests see where its
        // buttons are.
        if imp.debug_state.borrow().is_some() {
            glib::timeout_add_local_once(
                std::time::Duration::from_millis(200),
                glib::clone!(
                    #[weak(rename_to = window)]
                    self,
                    move || window.write_debug_state()
                ),
            );
        }
    }

    /// For `--debug-state`: the Position ID of the board on screen (`null` for a draft no
    /// game can have) as `position_id`, and `edit`: the draft, whether it is valid and why
    /// not, and where to click (window coordinates) its points, bars, trays, dice and cube.
    pub(super) fn edit_debug_state(&self, state: &mut Value) {
        let imp = self.imp();
        let c = imp.controller.borrow();
        state["position_id"] = json!(c.shown_state().map(|(p, _)| position_id::encode(&p)));
        let Some(draft) = c.draft() else {
            state["edit"] = json!({ "active": false });
            return;
        };
        let board = &imp.board;
        let to_window = |(x, y): (f64, f64)| -> Option<[f64; 2]> {
            let p = board.compute_point(self, &gtk::graphene::Point::new(x as f32, y as f32))?;
            let (sx, sy) = self.surface_transform();
            Some([f64::from(p.x()) + sx, f64::from(p.y()) + sy])
        };
        let g = board.geometry();
        let points: Vec<Value> = (1..=24u8)
            .map(|p| {
                let r = g.point(p);
                let border_y = if crate::board::Geometry::point_is_top(p) {
                    r.y - g.unit * 0.2
                } else {
                    r.y + r.h + g.unit * 0.2
                };
                json!({
                    "places": (0..5u8).map(|i| to_window(g.checker(Slot::Point(p), i))).collect::<Vec<_>>(),
                    "border": to_window((r.x + r.w / 2.0, border_y)),
                })
            })
            .collect();
        let bars: Vec<Value> = [Seat::Bottom, Seat::Top]
            .iter()
            .map(|&s| {
                json!((0..3u8)
                    .map(|i| to_window(g.checker(Slot::Bar(s), i)))
                    .collect::<Vec<_>>())
            })
            .collect();
        let seat_name = |s: Seat| match s {
            Seat::Bottom => "bottom",
            Seat::Top => "top",
        };
        let validity = draft.validate();
        let bar_state = imp
            .edit
            .borrow()
            .bar
            .as_ref()
            .map(|b| b.debug_state(self))
            .unwrap_or(Value::Null);
        let place = match draft.cube_place() {
            CubePlace::Owned(s) => CubePlace::Owned(s),
            _ => CubePlace::Centre,
        };
        state["edit"] = json!({
            "active": true,
            "valid": validity.is_ok(),
            "message": validity.err(),
            "pips": draft.pips(),
            "board": draft.board(),
            "off": [draft.off(Seat::Bottom), draft.off(Seat::Top)],
            "on_roll": seat_name(draft.on_roll),
            "dice": draft.dice.map(|d| [d.first(), d.second()]),
            "cube": { "value": draft.cube_value, "owner": draft.cube_owner.map(seat_name) },
            "score": draft.score,
            "length": draft.match_length,
            "crawford": draft.crawford,
            "points": points,
            "bars": bars,
            "trays": [to_window(g.tray(Seat::Bottom).centre()), to_window(g.tray(Seat::Top).centre())],
            "dice_xy": [to_window(g.dice_area(Seat::Bottom).centre()), to_window(g.dice_area(Seat::Top).centre())],
            "cube_xy": to_window(g.cube(place).centre()),
            "bar": bar_state,
        });
    }
}
