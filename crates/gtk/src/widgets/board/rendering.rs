//! Painting: the scene of the view-model drawn by [`crate::board::render::draw_with`] into the
//! Cairo context of a snapshot node. GTK gives that context in logical pixels with the device
//! scale already set, so the board is sharp on HiDPI screens without any care here. The
//! backdrop and the checkers come from [`Sprites`] made for the widget's size, scale factor and
//! colours, kept until one of those changes.

use gtk::graphene;
use gtk::prelude::*;
use gtk::subclass::prelude::*;

use crate::board::render;
use crate::board::sprites::Sprites;

impl super::imp::CubefulBoard {
    pub(super) fn render(&self, snapshot: &gtk::Snapshot) {
        let obj = self.obj();
        let (w, h) = (obj.width(), obj.height());
        if w <= 0 || h <= 0 {
            return;
        }
        let geom = obj.geometry();
        let scene = self.model.borrow().scene(&geom);
        let scale = obj.scale_factor();
        let mut sprites = self.sprites.borrow_mut();
        if !sprites
            .as_ref()
            .is_some_and(|s| s.fits(w, h, scale, &scene.colours))
        {
            *sprites = match Sprites::new(w, h, scale, scene.colours) {
                Ok(s) => Some(s),
                Err(e) => {
                    glib_warning(&e);
                    None
                }
            };
        }
        let cr = snapshot.append_cairo(&graphene::Rect::new(0.0, 0.0, w as f32, h as f32));
        if let Err(e) = render::draw_with(&cr, &scene, &geom, sprites.as_ref()) {
            glib_warning(&e);
        }
    }
}

/// Cairo errors only happen when memory runs out; the frame is skipped.
fn glib_warning(e: &gtk::cairo::Error) {
    gtk::glib::g_warning!("cubeful", "drawing the board failed: {e}");
}
