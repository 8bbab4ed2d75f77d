//! The window's side of the tutor: the `win.tutor` toggle (header bar button and menu item),
//! which flips the setting and saves it; the tutor's settings handed to the controller; the
//! warning dialog opened and closed on the controller's word, its answer passed back; and the
//! tutor's part of the debug state.

use adw::prelude::*;
use adw::subclass::prelude::*;
use gtk::{gio, glib};
use serde_json::{json, Value};

use super::CubefulWindow;
use crate::board::{Seat, Slot};
use crate::controller::tutor::{TutorSettings, TutorUpdate};
use crate::controller::{Controller, State};
use crate::settings::Settings;
use crate::widgets::tutor_dialog::{Answer, TutorDialog};

/// The window's tutor state.
#[derive(Debug, Default)]
pub struct TutorState {
    /// The warning on screen.
    dialog: Option<TutorDialog>,
}

impl CubefulWindow {
    /// Adds the stateful `win.tutor` action (on or off, as the settings say) and hands the
    /// tutor's settings to the controller.
    pub(super) fn tutor_setup(&self, settings: &Settings) {
        let action = gio::SimpleAction::new_stateful("tutor", None, &settings.tutor.to_variant());
        action.connect_activate(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |action, _| {
                let on = !action
                    .state()
                    .and_then(|s| s.get::<bool>())
                    .unwrap_or(false);
                if let Some(app) = window.app() {
                    app.update_settings(|s| s.tutor = on);
                }
                let mut settings = window.settings();
                settings.tutor = on;
                window.tutor_apply_settings(&settings);
            }
        ));
        self.add_action(&action);
        self.tutor_apply_settings(settings);
    }

    /// Applies the tutor's settings: the toggle's state and the controller's tutor.
    pub(super) fn tutor_apply_settings(&self, settings: &Settings) {
        if let Some(action) = self
            .lookup_action("tutor")
            .and_downcast::<gio::SimpleAction>()
        {
            action.set_state(&settings.tutor.to_variant());
        }
        let tutor = TutorSettings::from(settings);
        self.control(|c| c.set_tutor(tutor));
    }

    /// Carries out the controller's word about the warning.
    pub(super) fn tutor_update(&self, update: TutorUpdate) {
        if let Some(old) = self.imp().tutor.borrow_mut().dialog.take() {
            old.dismiss();
        }
        let TutorUpdate::Warn(judgement) = update else {
            self.write_debug_state();
            return;
        };
        let dialog = TutorDialog::new(self, &judgement.sentence(), &judgement.better_sentence());
        dialog.connect_answer(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |answer| window.tutor_answer(answer)
        ));
        // Once it is laid out, tests see where its buttons are.
        dialog.connect_map(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |_| {
                glib::timeout_add_local_once(
                    std::time::Duration::from_millis(300),
                    glib::clone!(
                        #[weak]
                        window,
                        move || window.write_debug_state()
                    ),
                );
            }
        ));
        self.imp().tutor.borrow_mut().dialog = Some(dialog.clone());
        dialog.present();
        self.write_debug_state();
    }

    fn tutor_answer(&self, answer: Answer) {
        // The dialog closes itself.
        self.imp().tutor.borrow_mut().dialog = None;
        match answer {
            Answer::Keep => self.control(Controller::tutor_keep),
            Answer::Reconsider => {
                // The checkers go back to the start of the move.
                let board = &self.imp().board;
                for _ in 0..8 {
                    if !board.move_started() {
                        break;
                    }
                    board.undo();
                }
                self.control(Controller::tutor_reconsider);
            }
        }
    }

    /// The tutor's part of the debug state: on, a judgement pending, the warning shown (its
    /// texts, the window's title and its buttons in the dialog's surface coordinates), and
    /// where the bottom player's points are (window coordinates, points 1 to 24).
    pub(super) fn tutor_debug_state(&self) -> Value {
        let imp = self.imp();
        let c = imp.controller.borrow();
        let dialog = imp.tutor.borrow().dialog.clone();
        let board = &imp.board;
        let geom = board.geometry();
        let (sx, sy) = self.surface_transform();
        let toggle = self.tutor_toggle();
        let points: Vec<Option<[f64; 2]>> = (1..=24u8)
            .map(|p| {
                let (x, y) = geom.checker(Slot::from_mover(Seat::Bottom, p), 0);
                let w =
                    board.compute_point(self, &gtk::graphene::Point::new(x as f32, y as f32))?;
                Some([f64::from(w.x()) + sx, f64::from(w.y()) + sy])
            })
            .collect();
        json!({
            "on": c.tutor_settings().on,
            "level": c.tutor_settings().level.name(),
            "judging": c.tutor_job().is_some(),
            "tutoring": matches!(c.state(), State::Tutoring { .. }),
            "warning": c.tutor_warning().map(|j| json!({
                "skill": format!("{:?}", j.skill),
                "chosen": j.chosen,
                "better": j.better,
                "equity_lost": j.equity_lost,
                "mwc_lost": j.mwc_lost,
            })),
            "dialog": dialog.map(|d| {
                let (text, better) = d.texts();
                json!({
                    "title": d.title().map(|t| t.to_string()),
                    "visible": d.is_visible(),
                    "text": text,
                    "better": better,
                    "reconsider_xy": d.button_centres().map(|b| [b[0].0, b[0].1]),
                    "keep_xy": d.button_centres().map(|b| [b[1].0, b[1].1]),
                })
            }),
            "points_xy": points,
            "toggle_active": toggle.as_ref().map(|t| t.is_active()),
            "toggle_xy": toggle.and_then(|t| {
                let b = t.compute_bounds(self)?;
                (b.width() > 0.0).then(|| {
                    [
                        f64::from(b.x() + b.width() / 2.0) + sx,
                        f64::from(b.y() + b.height() / 2.0) + sy,
                    ]
                })
            }),
        })
    }

    /// The header bar's tutor toggle.
    fn tutor_toggle(&self) -> Option<gtk::ToggleButton> {
        fn find(w: &gtk::Widget) -> Option<gtk::ToggleButton> {
            if let Some(t) = w.downcast_ref::<gtk::ToggleButton>() {
                if t.action_name().as_deref() == Some("win.tutor") {
                    return Some(t.clone());
                }
            }
            let mut child = w.first_child();
            while let Some(c) = child {
                if let Some(found) = find(&c) {
                    return Some(found);
                }
                child = c.next_sibling();
            }
            None
        }
        find(self.upcast_ref())
    }
}
