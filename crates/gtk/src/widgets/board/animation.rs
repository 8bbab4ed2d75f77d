//! Animation of played moves: a frame-clock tick callback advances the view-model's animation
//! by the time elapsed and is removed as soon as the move is shown, so an idle board costs
//! nothing.

use gtk::glib;
use gtk::prelude::*;
use gtk::subclass::prelude::*;

/// Time for one checker step.
const STEP_MICROS: f64 = 260_000.0;

impl super::imp::CubefulBoard {
    pub(super) fn start_animation(&self) {
        let obj = self.obj();
        self.last_frame.set(None);
        let id = obj.add_tick_callback(|obj, clock| {
            let imp = obj.imp();
            let now = clock.frame_time();
            let elapsed = imp.last_frame.get().map_or(0, |t| now - t);
            imp.last_frame.set(Some(now));
            let running = imp.model.borrow_mut().advance(elapsed as f64 / STEP_MICROS);
            obj.queue_draw();
            if running {
                glib::ControlFlow::Continue
            } else {
                imp.tick.replace(None);
                imp.finish_animation();
                glib::ControlFlow::Break
            }
        });
        self.tick.replace(Some(id));
    }

    /// Ends any animation at once.
    pub(super) fn stop_animation(&self) {
        if let Some(id) = self.tick.take() {
            id.remove();
        }
        self.model.borrow_mut().stop_animation();
        self.finish_animation();
    }

    fn finish_animation(&self) {
        if let Some(done) = self.animation_done.take() {
            let _ = done.try_send(());
        }
    }
}
