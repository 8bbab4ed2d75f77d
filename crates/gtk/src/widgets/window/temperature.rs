//! The window's temperature map: the action `win.temperature-map` (Ctrl+Shift+T) opens the
//! temperature map window for the position on the board (`Controller::shown_state`: the live
//! position, the action reviewed, or a position being set up) and computes its map on the job
//! pool (`JobKind::Task` running `temperature_view::compute`), with progress; Cancel, closing
//! the window or asking for another map cancels the job. Pressing the shortcut again computes
//! the map of the position now on the board.

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::game::Rules;
use cubeful_engine::position_id;
use gtk::glib;

use super::CubefulWindow;
use crate::i18n::{gettext, gettext_f};
use crate::jobs::{Job, JobHandle, JobId, JobKind, Output, Reply};
use crate::temperature_view::{compute, is_cube_decision, work, MapProblem, MapRequest, Maps};
use crate::widgets::temperature_window::TemperatureWindow;

/// Temperature map jobs have ids from here on, apart from the controller's and the analyses'.
const FIRST_ID: u64 = 1 << 62;

/// What the map job answers.
type MapResult = Result<Option<Maps>, MapProblem>;

/// The window's temperature map state (a field of the window).
#[derive(Debug, Default)]
pub struct TemperatureState {
    window: Option<TemperatureWindow>,
    /// The job computing the map of `asked`.
    running: Option<JobHandle>,
    /// The map last asked for (computing, shown, cancelled or refused): not asked again
    /// unless the user asks.
    asked: Option<MapRequest>,
    /// The maps shown, of `asked`.
    shown: Option<Maps>,
    next_id: u64,
}

impl CubefulWindow {
    fn temperature_state(&self) -> std::cell::RefMut<'_, TemperatureState> {
        self.imp().temperature.borrow_mut()
    }

    /// Opens (or raises) the temperature map window and computes the map of the position on
    /// the board, unless it shows that map already.
    pub fn show_temperature_map(&self) {
        let existing = self.temperature_state().window.clone();
        let w = existing.unwrap_or_else(|| {
            let w = TemperatureWindow::new(self, 0);
            w.connect_level_changed(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_| window.update_temperature_map(true)
            ));
            w.connect_cancel(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move || window.cancel_temperature_map()
            ));
            w.connect_again(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move || window.update_temperature_map(true)
            ));
            // Closed (hidden): its map is not wanted any more.
            w.connect_visible_notify(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |w| {
                    if !w.is_visible() {
                        let mut s = window.temperature_state();
                        if let Some(job) = s.running.take() {
                            // Not finished: computed anew when opened again.
                            job.cancel();
                            s.asked = None;
                        }
                        drop(s);
                        window.write_debug_state();
                    }
                }
            ));
            self.temperature_state().window = Some(w.clone());
            w
        });
        w.present();
        self.update_temperature_map(false);
    }

    /// While the map window is open, it follows the position on the board (called whenever
    /// the window shows a new state): a new position is mapped, the same one is left alone.
    pub(super) fn temperature_follow(&self) {
        let open = self
            .temperature_state()
            .window
            .as_ref()
            .is_some_and(|w| w.is_visible());
        if open {
            self.update_temperature_map(false);
        }
    }

    /// What the map of the board would be asked for at `plies`; `None` with no position.
    fn temperature_request(&self, plies: u8) -> Option<MapRequest> {
        let c = self.imp().controller.borrow();
        let (position, state) = c.shown_state()?;
        let beavers = c
            .session()
            .map_or(Rules::money().beavers, |s| s.game().rules().beavers_apply());
        Some(MapRequest {
            position,
            state,
            beavers,
            plies,
        })
    }

    /// Asks for the map of the board (again if `force`, else only if it is another one).
    fn update_temperature_map(&self, force: bool) {
        let Some(w) = self.temperature_state().window.clone() else {
            return;
        };
        let Some(request) = self.temperature_request(w.plies()) else {
            if let Some(job) = self.temperature_state().running.take() {
                job.cancel();
            }
            self.temperature_state().asked = None;
            w.set_subtitle("");
            w.set_message(
                &gettext("No Position"),
                &gettext(
                    "Start a match, open one or set up a position to see its temperature map.",
                ),
                false,
            );
            self.write_debug_state();
            return;
        };
        {
            let s = self.temperature_state();
            // Asked already: computing, shown, refused or cancelled (Compute Again forces it).
            if !force && s.asked == Some(request) {
                return;
            }
        }
        let name = {
            let c = self.imp().controller.borrow();
            c.session()
                .map(|s| s.name(request.state.on_roll).to_string())
                .unwrap_or_default()
        };
        let id = position_id::encode(&request.position);
        w.set_subtitle(&if name.is_empty() {
            gettext_f("Position ID {}", &[&id])
        } else {
            gettext_f("{} on roll · Position ID {}", &[&name, &id])
        });
        let job = {
            let mut s = self.temperature_state();
            if let Some(job) = s.running.take() {
                job.cancel();
            }
            s.next_id += 1;
            let job = Job::new(
                JobId(FIRST_ID + s.next_id),
                JobKind::Task(Box::new(move |search, progress| {
                    let result: MapResult = compute(search, &request, &mut |done, total| {
                        progress.report(done, total);
                        !progress.is_cancelled()
                    });
                    Box::new(result)
                })),
            );
            s.running = Some(job.handle());
            s.asked = Some(request);
            s.shown = None;
            job
        };
        w.set_computing(0, work(&request));
        if let Some(pool) = self.imp().pool.borrow().as_ref() {
            pool.submit(job);
        }
        self.write_debug_state();
    }

    /// The user cancelled the map being computed.
    fn cancel_temperature_map(&self) {
        let (job, w) = {
            let mut s = self.temperature_state();
            (s.running.take(), s.window.clone())
        };
        if let Some(job) = job {
            job.cancel();
        }
        if let Some(w) = w {
            w.set_message(
                &gettext("Map Cancelled"),
                &gettext("Compute it again, or choose a faster level."),
                true,
            );
        }
        self.write_debug_state();
    }

    /// The main window closes: the map window goes, and its job is cancelled.
    pub(super) fn close_temperature_map(&self) {
        let (job, w) = {
            let mut s = self.temperature_state();
            (s.running.take(), s.window.take())
        };
        if let Some(job) = job {
            job.cancel();
        }
        if let Some(w) = w {
            w.destroy();
        }
    }

    /// Takes the replies of temperature map jobs; gives back every other reply.
    pub(super) fn temperature_reply(&self, reply: Reply) -> Option<Reply> {
        if reply.id().0 < FIRST_ID {
            return Some(reply);
        }
        let (w, running) = {
            let s = self.temperature_state();
            (s.window.clone(), s.running.as_ref().map(|j| j.id))
        };
        let (Some(w), true) = (w, running == Some(reply.id())) else {
            return None; // stale: cancelled or replaced
        };
        match reply {
            Reply::Progress { done, total, .. } => w.set_computing(done, total),
            Reply::Done {
                output: Output::Task(any),
                ..
            } => {
                self.temperature_state().running = None;
                match any.downcast::<MapResult>().map(|b| *b) {
                    Ok(Ok(Some(maps))) => {
                        w.set_maps(&maps);
                        self.temperature_state().shown = Some(maps);
                    }
                    Ok(Err(problem)) => w.set_message(&gettext("No Map"), &problem.text(), false),
                    // Stopped by its cancel flag, whose reply is `Cancelled`: nothing to show.
                    Ok(Ok(None)) | Err(_) => {}
                }
            }
            Reply::Done { .. } | Reply::Cancelled { .. } => {
                self.temperature_state().running = None;
            }
        }
        self.write_debug_state();
        None
    }

    /// The temperature map for the debug state: whether the window is open, its level, whether
    /// a map is being computed (rolls done of to do), and the maps shown (each roll's play and
    /// equity, and the average).
    pub(super) fn temperature_debug_state(&self) -> serde_json::Value {
        use serde_json::json;
        let s = self.temperature_state();
        let Some(w) = s.window.as_ref() else {
            return json!({ "open": false });
        };
        let maps = s.shown.as_ref().map(|maps| {
            maps.all()
                .iter()
                .map(|m| {
                    json!({
                        "plies": m.plies,
                        "average": m.average,
                        "average_mwc": m.average_mwc,
                        "cells": m.entries().iter().map(|e| json!({
                            "roll": e.dice.to_string(),
                            "play": e.text,
                            "equity": e.equity,
                            "mwc": e.mwc,
                            "rank": e.rank,
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect::<Vec<_>>()
        });
        let (done, total) = w.progress();
        json!({
            "open": w.is_visible(),
            "level": w.plies(),
            "computing": s.running.is_some(),
            "progress": [done, total],
            "page": w.page(),
            "map_page": w.map_page(),
            "cube": s.asked.as_ref().map(is_cube_decision),
            "position_id": s.asked.as_ref().map(|r| position_id::encode(&r.position)),
            "maps": maps,
            // The first map's rolls and average, the shape tests read.
            "cells": s.shown.as_ref().map(|m| m.all()[0].entries().len()),
            "average": s.shown.as_ref().map(|m| m.all()[0].average),
        })
    }
}
