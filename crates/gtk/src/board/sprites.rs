//! Bitmaps of what looks the same from one frame to the next: the backdrop (frame, felt,
//! points and their numbers) and one checker of each colour. Drawn once by the vector code of
//! [`super::render`] at the screen's pixel density, they are then copied in each frame, which
//! is what keeps a repaint of the board within a frame's time on a software renderer. They are
//! made again whenever the size, the scale factor or the colours change.

use gtk::cairo;

use super::geometry::{Geometry, Seat};
use super::render::{draw_backdrop, draw_checker};
use super::scene::Colours;

/// What the bitmaps were made for.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key {
    /// The widget's size in logical pixels.
    width: i32,
    height: i32,
    /// Device pixels per logical pixel.
    scale: i32,
    colours: Colours,
}

/// One checker's bitmap: a square of `size` logical pixels with the checker in its middle.
struct Checker {
    surface: cairo::ImageSurface,
    size: f64,
}

/// The backdrop and the checkers of one board size, scale and set of colours.
pub struct Sprites {
    key: Key,
    backdrop: cairo::ImageSurface,
    checkers: [Checker; 2],
}

impl Sprites {
    /// Sprites for a widget of `width` × `height` logical pixels shown at `scale`.
    pub fn new(
        width: i32,
        height: i32,
        scale: i32,
        colours: Colours,
    ) -> Result<Sprites, cairo::Error> {
        let key = Key {
            width: width.max(1),
            height: height.max(1),
            scale: scale.max(1),
            colours,
        };
        let geom = Geometry::new(f64::from(key.width), f64::from(key.height));
        let backdrop = surface(key.width, key.height, key.scale)?;
        {
            let cr = cairo::Context::new(&backdrop)?;
            draw_backdrop(&cr, &colours, &geom)?;
        }
        backdrop.flush();
        let checker = |seat: Seat| -> Result<Checker, cairo::Error> {
            let r = geom.radius();
            // The rim's stroke reaches a little outside the radius; a pixel of margin more.
            let size = (2.0 * r * 1.06 + 2.0).ceil();
            let side = size as i32;
            let surface = surface(side, side, key.scale)?;
            {
                let cr = cairo::Context::new(&surface)?;
                let c = size / 2.0;
                draw_checker(&cr, c, c, r, colours.checkers[seat.index()], false)?;
            }
            surface.flush();
            Ok(Checker { surface, size })
        };
        Ok(Sprites {
            key,
            backdrop,
            checkers: [checker(Seat::Bottom)?, checker(Seat::Top)?],
        })
    }

    /// Whether these sprites are the ones for this size, scale and colours.
    pub fn fits(&self, width: i32, height: i32, scale: i32, colours: &Colours) -> bool {
        self.key
            == Key {
                width: width.max(1),
                height: height.max(1),
                scale: scale.max(1),
                colours: *colours,
            }
    }

    /// Copies the backdrop onto `cr`, whose origin is the widget's top-left corner.
    pub fn paint_backdrop(&self, cr: &cairo::Context) -> Result<(), cairo::Error> {
        cr.save()?;
        cr.set_source_surface(&self.backdrop, 0.0, 0.0)?;
        cr.paint()?;
        cr.restore()
    }

    /// Copies a checker of `seat` with its centre at (`x`, `y`), moved by less than half a
    /// device pixel so that it lands on whole pixels and stays sharp.
    pub fn paint_checker(
        &self,
        cr: &cairo::Context,
        seat: Seat,
        x: f64,
        y: f64,
    ) -> Result<(), cairo::Error> {
        let checker = &self.checkers[seat.index()];
        let scale = f64::from(self.key.scale);
        let snap = |v: f64| ((v - checker.size / 2.0) * scale).round() / scale;
        let (left, top) = (snap(x), snap(y));
        cr.save()?;
        cr.set_source_surface(&checker.surface, left, top)?;
        cr.rectangle(left, top, checker.size, checker.size);
        cr.fill()?;
        cr.restore()
    }
}

/// A transparent image of `width` × `height` logical pixels at `scale` device pixels each.
fn surface(width: i32, height: i32, scale: i32) -> Result<cairo::ImageSurface, cairo::Error> {
    let surface = cairo::ImageSurface::create(
        cairo::Format::ARgb32,
        width.saturating_mul(scale),
        height.saturating_mul(scale),
    )?;
    surface.set_device_scale(f64::from(scale), f64::from(scale));
    Ok(surface)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::model::{BoardModel, Display};
    use crate::board::render::{draw, draw_with};

    const W: i32 = 855;
    const H: i32 = 695;

    fn rendered(scale: i32, sprites: Option<&Sprites>) -> cairo::ImageSurface {
        let geom = Geometry::new(f64::from(W), f64::from(H));
        let mut model = BoardModel::default();
        model.set_display(Display::default());
        let scene = model.scene(&geom);
        let target = surface(W, H, scale).unwrap();
        {
            let cr = cairo::Context::new(&target).unwrap();
            match sprites {
                Some(s) => draw_with(&cr, &scene, &geom, Some(s)).unwrap(),
                None => draw(&cr, &scene, &geom).unwrap(),
            }
        }
        target.flush();
        target
    }

    /// The share of pixels whose channels differ by more than `tolerance` (of 255).
    fn differing(a: &mut cairo::ImageSurface, b: &mut cairo::ImageSurface, tolerance: u8) -> f64 {
        let (n, stride) = (a.height() as usize, a.stride() as usize);
        let width = a.width() as usize;
        let da = a.data().unwrap().to_vec();
        let db = b.data().unwrap();
        let mut bad = 0usize;
        for y in 0..n {
            for x in 0..width * 4 {
                let i = y * stride + x;
                if da[i].abs_diff(db[i]) > tolerance {
                    bad += 1;
                }
            }
        }
        bad as f64 / (n * width * 4) as f64
    }

    #[test]
    fn sprites_draw_the_same_board_as_vectors() {
        for scale in [1, 2] {
            let sprites = Sprites::new(W, H, scale, Colours::default()).unwrap();
            let mut vector = rendered(scale, None);
            let mut copied = rendered(scale, Some(&sprites));
            // Checkers land on whole pixels: their antialiased edges move by under a pixel.
            let share = differing(&mut vector, &mut copied, 40);
            assert!(
                share < 0.004,
                "scale {scale}: {share:.5} of the channels differ"
            );
            let blank = surface(W, H, scale).unwrap();
            let mut blank = blank;
            assert!(
                differing(&mut vector, &mut blank, 40) > 0.5,
                "the comparison sees a board"
            );
        }
    }

    #[test]
    fn sprites_know_what_they_were_made_for() {
        let colours = Colours::default();
        let sprites = Sprites::new(W, H, 1, colours).unwrap();
        assert!(sprites.fits(W, H, 1, &colours));
        assert!(!sprites.fits(W + 1, H, 1, &colours));
        assert!(!sprites.fits(W, H, 2, &colours));
        let mut other = colours;
        other.felt = other.points[0];
        assert!(!sprites.fits(W, H, 1, &other));
    }
}
