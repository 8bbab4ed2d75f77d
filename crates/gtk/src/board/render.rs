//! Drawing the board with Cairo. [`draw`] takes a plain `&cairo::Context`, so the same code
//! paints the widget (GTK hands it a context already scaled for HiDPI), renders into an image
//! surface in the tests, and can export positions later. Everything is vector drawing in
//! logical units: crisp at any size and scale factor.

use gtk::{cairo, pango};
use std::f64::consts::PI;

use super::geometry::{Geometry, Rect, Seat, Slot, MAX_BAR_STACK, MAX_STACK, POINT_LENGTH};
use super::scene::{Colours, Rgb, Scene};
use super::sprites::Sprites;

/// Draws `scene` laid out as `geom`, every part as vectors.
pub fn draw(cr: &cairo::Context, scene: &Scene, geom: &Geometry) -> Result<(), cairo::Error> {
    draw_with(cr, scene, geom, None)
}

/// Draws `scene` laid out as `geom`, taking the backdrop and the checkers from `sprites` when
/// given (they must have been made for this geometry and these colours).
pub fn draw_with(
    cr: &cairo::Context,
    scene: &Scene,
    geom: &Geometry,
    sprites: Option<&Sprites>,
) -> Result<(), cairo::Error> {
    if geom.unit <= 0.0 {
        return Ok(());
    }
    cr.save()?;
    let c = &scene.colours;
    match sprites {
        Some(sprites) => sprites.paint_backdrop(cr)?,
        None => draw_backdrop(cr, c, geom)?,
    }
    draw_info(cr, scene, geom)?;
    draw_highlights(cr, scene, geom)?;
    draw_checkers(cr, scene, geom, sprites)?;
    draw_trays(cr, scene, geom)?;
    draw_last_move(cr, scene, geom)?;
    if let Some(dice) = &scene.dice {
        let colour = c.checkers[dice.seat.index()];
        for (i, r) in geom.dice(dice.seat).iter().enumerate() {
            draw_die(cr, r, dice.values[i], colour, dice.used[i])?;
        }
    }
    if let Some(cube) = &scene.cube {
        draw_cube(cr, &geom.cube(cube.place), cube.value, cube.live)?;
    }
    if let Some((seat, value)) = scene.resignation {
        draw_resignation(cr, &geom.resignation(seat), value)?;
    }
    if let Some((seat, text)) = &scene.prompt {
        // A resignation flag in the same half keeps the middle: the text goes beside it.
        let beside_flag = scene.resignation.is_some_and(|(by, _)| by.other() == *seat);
        draw_prompt(cr, geom, *seat, text, beside_flag)?;
    }
    if let Some(f) = &scene.floating {
        draw_checker(
            cr,
            f.x,
            f.y,
            geom.radius(),
            c.checkers[f.seat.index()],
            true,
        )?;
    }
    cr.restore()
}

fn set(cr: &cairo::Context, c: Rgb) {
    cr.set_source_rgb(c.0, c.1, c.2);
}

fn set_alpha(cr: &cairo::Context, c: Rgb, a: f64) {
    cr.set_source_rgba(c.0, c.1, c.2, a);
}

fn rounded(cr: &cairo::Context, r: &Rect, radius: f64) {
    let radius = radius.min(r.w / 2.0).min(r.h / 2.0).max(0.0);
    cr.new_sub_path();
    cr.arc(r.x + r.w - radius, r.y + radius, radius, -PI / 2.0, 0.0);
    cr.arc(
        r.x + r.w - radius,
        r.y + r.h - radius,
        radius,
        0.0,
        PI / 2.0,
    );
    cr.arc(r.x + radius, r.y + r.h - radius, radius, PI / 2.0, PI);
    cr.arc(r.x + radius, r.y + radius, radius, PI, 1.5 * PI);
    cr.close_path();
}

/// Lays out `text` in a font `size` pixels high.
fn layout(cr: &cairo::Context, text: &str, size: f64, bold: bool) -> pango::Layout {
    let layout = pangocairo::functions::create_layout(cr);
    let mut font = pango::FontDescription::from_string("Sans");
    font.set_absolute_size(size.max(1.0) * f64::from(pango::SCALE));
    if bold {
        font.set_weight(pango::Weight::Bold);
    }
    layout.set_font_description(Some(&font));
    layout.set_text(text);
    layout
}

/// Draws `text` with its centre at (`x`, `y`).
fn text_centred(cr: &cairo::Context, text: &str, x: f64, y: f64, size: f64, bold: bool) {
    let l = layout(cr, text, size, bold);
    let (w, h) = l.pixel_size();
    cr.move_to(x - f64::from(w) / 2.0, y - f64::from(h) / 2.0);
    pangocairo::functions::show_layout(cr, &l);
    cr.new_path();
}

/// Draws `text` vertically centred at `y`, starting at `x` (or ending there if `right`).
/// Returns its width.
fn text_at(
    cr: &cairo::Context,
    text: &str,
    x: f64,
    y: f64,
    size: f64,
    bold: bool,
    right: bool,
) -> f64 {
    let l = layout(cr, text, size, bold);
    let (w, h) = l.pixel_size();
    let x = if right { x - f64::from(w) } else { x };
    cr.move_to(x, y - f64::from(h) / 2.0);
    pangocairo::functions::show_layout(cr, &l);
    cr.new_path();
    f64::from(w)
}

fn draw_info(cr: &cairo::Context, scene: &Scene, geom: &Geometry) -> Result<(), cairo::Error> {
    let u = geom.unit;
    let c = &scene.colours;
    for seat in [Seat::Top, Seat::Bottom] {
        let strip = geom.info(seat);
        let inner = Rect {
            x: strip.x,
            y: strip.y + 0.08 * u,
            w: strip.w,
            h: strip.h - 0.16 * u,
        };
        let on_roll = scene.on_roll == Some(seat);
        rounded(cr, &inner, 0.2 * u);
        // Opaque and light, whatever the window's style: the texts on it are dark, and must
        // read in the dark style too.
        let white = Rgb(1.0, 1.0, 1.0);
        if on_roll {
            set(cr, c.highlight.mix(white, 0.65));
        } else {
            set(cr, c.frame.mix(white, 0.82));
        }
        cr.fill()?;
        let (_, cy) = inner.centre();
        let mut x = inner.x + 0.25 * u;
        if on_roll {
            // A marker pointing at the player on roll.
            cr.move_to(x, cy - 0.2 * u);
            cr.line_to(x + 0.3 * u, cy);
            cr.line_to(x, cy + 0.2 * u);
            cr.close_path();
            set(cr, Rgb(0.1, 0.1, 0.1));
            cr.fill()?;
        }
        x += 0.45 * u;
        draw_checker(
            cr,
            x + 0.3 * u,
            cy,
            0.28 * u,
            c.checkers[seat.index()],
            false,
        )?;
        x += 0.8 * u;
        let info = &scene.info[seat.index()];
        set(cr, Rgb(0.08, 0.08, 0.08));
        text_at(cr, &info.name, x, cy, 0.36 * u, on_roll, false);
        let right = inner.x + inner.w - 0.3 * u;
        let w = text_at(cr, &info.pips, right, cy, 0.3 * u, false, true);
        text_at(
            cr,
            &info.score,
            right - w - 0.6 * u,
            cy,
            0.3 * u,
            true,
            true,
        );
        if seat == Seat::Top && !scene.match_text.is_empty() {
            set(cr, Rgb(0.2, 0.2, 0.2));
            text_centred(
                cr,
                &scene.match_text,
                inner.x + inner.w / 2.0,
                cy,
                0.28 * u,
                false,
            );
        }
    }
    Ok(())
}

/// What never changes during a game: the frame, the felt, the bar, the trays' floors, the
/// points and their numbers.
pub(super) fn draw_backdrop(
    cr: &cairo::Context,
    c: &Colours,
    geom: &Geometry,
) -> Result<(), cairo::Error> {
    draw_frame(cr, c, geom)?;
    for p in 1..=24u8 {
        draw_point(cr, geom, p, c.points[usize::from(p % 2 == 0)])?;
    }
    draw_point_numbers(cr, geom, c.frame.contrast())
}

fn draw_frame(cr: &cairo::Context, c: &Colours, geom: &Geometry) -> Result<(), cairo::Error> {
    let u = geom.unit;
    let frame = geom.frame();
    rounded(cr, &frame, 0.25 * u);
    set(cr, c.frame);
    cr.fill()?;
    // A lighter bevel along the frame's edge.
    rounded(cr, &frame, 0.25 * u);
    set_alpha(cr, Rgb(1.0, 1.0, 1.0), 0.15);
    cr.set_line_width(0.05 * u);
    cr.stroke()?;
    for seat in [Seat::Top, Seat::Bottom] {
        let half = geom.half(seat);
        cr.rectangle(half.x, half.y, half.w, half.h);
        set(cr, c.felt);
        cr.fill()?;
        let tray = geom.tray(seat);
        cr.rectangle(tray.x, tray.y, tray.w, tray.h);
        set(cr, c.felt.mix(Rgb(0.0, 0.0, 0.0), 0.25));
        cr.fill()?;
    }
    let strip = geom.cube_strip();
    cr.rectangle(strip.x, strip.y, strip.w, strip.h);
    set(cr, c.felt.mix(Rgb(0.0, 0.0, 0.0), 0.25));
    cr.fill()?;
    // The bar: the frame colour, a little darker, with a centre line.
    let bar = geom.bar();
    cr.rectangle(bar.x, bar.y, bar.w, bar.h);
    set(cr, c.frame.mix(Rgb(0.0, 0.0, 0.0), 0.15));
    cr.fill()?;
    Ok(())
}

fn draw_point(
    cr: &cairo::Context,
    geom: &Geometry,
    p: u8,
    colour: Rgb,
) -> Result<(), cairo::Error> {
    let r = geom.point(p);
    let inset = r.w * 0.04;
    triangle(cr, geom, p, &r, inset);
    set(cr, colour);
    cr.fill_preserve()?;
    set_alpha(cr, colour.mix(Rgb(0.0, 0.0, 0.0), 0.4), 0.6);
    cr.set_line_width(geom.unit * 0.02);
    cr.stroke()
}

/// The triangle path of point `p` inside `r`.
fn triangle(cr: &cairo::Context, geom: &Geometry, p: u8, r: &Rect, inset: f64) {
    let tip = POINT_LENGTH * 0.92 * geom.unit;
    if Geometry::point_is_top(p) {
        cr.move_to(r.x + inset, r.y);
        cr.line_to(r.x + r.w - inset, r.y);
        cr.line_to(r.x + r.w / 2.0, r.y + tip);
    } else {
        cr.move_to(r.x + inset, r.y + r.h);
        cr.line_to(r.x + r.w - inset, r.y + r.h);
        cr.line_to(r.x + r.w / 2.0, r.y + r.h - tip);
    }
    cr.close_path();
}

fn draw_point_numbers(
    cr: &cairo::Context,
    geom: &Geometry,
    colour: Rgb,
) -> Result<(), cairo::Error> {
    let frame = geom.frame();
    let u = geom.unit;
    set_alpha(cr, colour, 0.85);
    for p in 1..=24u8 {
        let r = geom.point(p);
        let y = if Geometry::point_is_top(p) {
            frame.y + 0.2 * u
        } else {
            frame.y + frame.h - 0.2 * u
        };
        text_centred(cr, &p.to_string(), r.x + r.w / 2.0, y, 0.26 * u, false);
    }
    Ok(())
}

fn draw_highlights(
    cr: &cairo::Context,
    scene: &Scene,
    geom: &Geometry,
) -> Result<(), cairo::Error> {
    let c = scene.colours.highlight;
    let u = geom.unit;
    for slot in &scene.highlights {
        match *slot {
            Slot::Point(p) => {
                let r = geom.point(p);
                triangle(cr, geom, p, &r, r.w * 0.04);
                set_alpha(cr, c, 0.55);
                cr.fill_preserve()?;
                set(cr, c);
                cr.set_line_width(0.06 * u);
                cr.stroke()?;
            }
            Slot::Tray(seat) => {
                let r = geom.tray(seat);
                rounded(cr, &r, 0.1 * u);
                set_alpha(cr, c, 0.45);
                cr.fill_preserve()?;
                set(cr, c);
                cr.set_line_width(0.06 * u);
                cr.stroke()?;
            }
            Slot::Bar(_) => {}
        }
    }
    if let Some(Slot::Point(p)) = scene.source {
        let r = geom.point(p);
        triangle(cr, geom, p, &r, r.w * 0.04);
        set_alpha(cr, Rgb(1.0, 1.0, 1.0), 0.5);
        cr.set_line_width(0.04 * u);
        cr.stroke()?;
    }
    Ok(())
}

fn draw_checkers(
    cr: &cairo::Context,
    scene: &Scene,
    geom: &Geometry,
    sprites: Option<&Sprites>,
) -> Result<(), cairo::Error> {
    let mut slots: Vec<Slot> = (1..=24).map(Slot::Point).collect();
    slots.push(Slot::Bar(Seat::Bottom));
    slots.push(Slot::Bar(Seat::Top));
    for slot in slots {
        for seat in [Seat::Bottom, Seat::Top] {
            let n = scene.count(slot, seat);
            if n == 0 {
                continue;
            }
            let max = if matches!(slot, Slot::Bar(_)) {
                MAX_BAR_STACK
            } else {
                MAX_STACK
            };
            let colour = scene.colours.checkers[seat.index()];
            let shown = n.min(max);
            for i in 0..shown {
                let (x, y) = geom.checker(slot, i);
                match sprites {
                    Some(sprites) => sprites.paint_checker(cr, seat, x, y)?,
                    None => draw_checker(cr, x, y, geom.radius(), colour, false)?,
                }
            }
            if n > max {
                let (x, y) = geom.checker(slot, shown - 1);
                set(cr, colour.contrast());
                text_centred(cr, &n.to_string(), x, y, 0.42 * geom.unit, true);
            }
        }
    }
    Ok(())
}

/// One checker of radius `r` with its centre at (`x`, `y`): a disc with a rim and a soft shine; `lifted`
/// adds a shadow under it.
pub(super) fn draw_checker(
    cr: &cairo::Context,
    x: f64,
    y: f64,
    r: f64,
    colour: Rgb,
    lifted: bool,
) -> Result<(), cairo::Error> {
    cr.new_path();
    if lifted {
        cr.arc(x + 0.08 * r, y + 0.14 * r, r * 1.02, 0.0, 2.0 * PI);
        cr.set_source_rgba(0.0, 0.0, 0.0, 0.35);
        cr.fill()?;
    }
    cr.arc(x, y, r, 0.0, 2.0 * PI);
    set(cr, colour);
    cr.fill_preserve()?;
    let rim = if colour.luminance() > 0.5 {
        colour.mix(Rgb(0.0, 0.0, 0.0), 0.45)
    } else {
        colour.mix(Rgb(0.0, 0.0, 0.0), 0.55)
    };
    set(cr, rim);
    cr.set_line_width(r * 0.08);
    cr.stroke()?;
    // Inner ring.
    cr.arc(x, y, r * 0.68, 0.0, 2.0 * PI);
    set_alpha(cr, rim, 0.45);
    cr.set_line_width(r * 0.05);
    cr.stroke()?;
    // Shine: a light crescent in the upper left, well inside the disc.
    let shine = cairo::RadialGradient::new(x - r * 0.35, y - r * 0.35, 0.0, x, y, r * 0.9);
    shine.add_color_stop_rgba(0.0, 1.0, 1.0, 1.0, 0.28);
    shine.add_color_stop_rgba(1.0, 1.0, 1.0, 1.0, 0.0);
    cr.arc(x, y, r * 0.9, 0.0, 2.0 * PI);
    cr.set_source(&shine)?;
    cr.fill()
}

/// Marks the last move: a ring in the highlight colour on each checker that moved, at the
/// top of the stack it ended on (or on the slab borne off), and a dashed outline where each
/// started from.
fn draw_last_move(cr: &cairo::Context, scene: &Scene, geom: &Geometry) -> Result<(), cairo::Error> {
    let Some(last) = &scene.last_move else {
        return Ok(());
    };
    let r = geom.radius();
    let colour = scene.colours.highlight;
    let mut marked: Vec<(Slot, u8)> = Vec::new();
    for &slot in &last.to {
        match marked.iter_mut().find(|(s, _)| *s == slot) {
            Some((_, n)) => *n += 1,
            None => marked.push((slot, 1)),
        }
    }
    cr.set_line_width(r * 0.16);
    for (slot, n) in marked {
        let count = scene.count(slot, last.seat);
        if let Slot::Tray(seat) = slot {
            for i in count.saturating_sub(n)..count.min(15) {
                let rect = geom.slab(seat, i);
                rounded(cr, &rect, rect.h * 0.35);
                set(cr, colour);
                cr.stroke()?;
            }
            continue;
        }
        let max = if matches!(slot, Slot::Bar(_)) {
            MAX_BAR_STACK
        } else {
            MAX_STACK
        };
        let shown = count.min(max);
        // The top `n` checkers drawn (the moved ones are on top of the stack).
        for i in shown.saturating_sub(n)..shown {
            let (x, y) = geom.checker(slot, i);
            cr.new_path();
            cr.arc(x, y, r * 0.86, 0.0, 2.0 * PI);
            set(cr, colour);
            cr.stroke()?;
        }
    }
    // Where the checkers came from: a dashed circle on the first free place of the stack.
    cr.set_line_width(r * 0.1);
    cr.set_dash(&[r * 0.3, r * 0.2], 0.0);
    let mut seen: Vec<(Slot, u8)> = Vec::new();
    for &slot in &last.from {
        if matches!(slot, Slot::Tray(_)) {
            continue;
        }
        let k = match seen.iter_mut().find(|(s, _)| *s == slot) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((slot, 0));
                0
            }
        };
        let max = if matches!(slot, Slot::Bar(_)) {
            MAX_BAR_STACK
        } else {
            MAX_STACK
        };
        // Only over the checkers of the mover (or an empty point), never over the other's.
        if scene.count(slot, last.seat.other()) > 0 {
            continue;
        }
        let index = (scene.count(slot, last.seat) + k).min(max - 1);
        let (x, y) = geom.checker(slot, index);
        cr.new_path();
        cr.arc(x, y, r * 0.8, 0.0, 2.0 * PI);
        set_alpha(cr, colour, 0.9);
        cr.stroke()?;
    }
    cr.set_dash(&[], 0.0);
    Ok(())
}

fn draw_trays(cr: &cairo::Context, scene: &Scene, geom: &Geometry) -> Result<(), cairo::Error> {
    for seat in [Seat::Bottom, Seat::Top] {
        let colour = scene.colours.checkers[seat.index()];
        for i in 0..scene.off[seat.index()].min(15) {
            let r = geom.slab(seat, i);
            rounded(cr, &r, r.h * 0.35);
            set(cr, colour);
            cr.fill_preserve()?;
            set(cr, colour.mix(Rgb(0.0, 0.0, 0.0), 0.5));
            cr.set_line_width(geom.unit * 0.025);
            cr.stroke()?;
        }
    }
    Ok(())
}

fn draw_die(
    cr: &cairo::Context,
    r: &Rect,
    value: u8,
    colour: Rgb,
    used: bool,
) -> Result<(), cairo::Error> {
    let alpha = if used { 0.35 } else { 1.0 };
    cr.save()?;
    rounded(cr, r, r.w * 0.18);
    cr.set_source_rgba(0.0, 0.0, 0.0, 0.25 * alpha);
    cr.save()?;
    cr.translate(r.w * 0.04, r.w * 0.05);
    cr.fill()?;
    cr.restore()?;
    rounded(cr, r, r.w * 0.18);
    set_alpha(cr, colour, alpha);
    cr.fill_preserve()?;
    set_alpha(cr, colour.mix(Rgb(0.0, 0.0, 0.0), 0.5), alpha);
    cr.set_line_width(r.w * 0.04);
    cr.stroke()?;
    let pip = colour.contrast();
    set_alpha(cr, pip, alpha);
    let (cx, cy) = r.centre();
    let o = r.w * 0.27;
    let spots: &[(f64, f64)] = match value {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
    };
    for (dx, dy) in spots {
        cr.arc(cx + dx * o, cy + dy * o, r.w * 0.085, 0.0, 2.0 * PI);
        cr.fill()?;
    }
    cr.restore()
}

fn draw_cube(cr: &cairo::Context, r: &Rect, value: u32, live: bool) -> Result<(), cairo::Error> {
    let alpha = if live { 1.0 } else { 0.4 };
    rounded(cr, r, r.w * 0.15);
    cr.set_source_rgba(0.98, 0.97, 0.92, alpha);
    cr.fill_preserve()?;
    cr.set_source_rgba(0.2, 0.2, 0.2, alpha);
    cr.set_line_width(r.w * 0.05);
    cr.stroke()?;
    cr.set_source_rgba(0.1, 0.1, 0.1, alpha);
    let (cx, cy) = r.centre();
    let size = if value >= 100 { r.w * 0.36 } else { r.w * 0.48 };
    text_centred(cr, &value.to_string(), cx, cy, size, true);
    Ok(())
}

fn draw_resignation(cr: &cairo::Context, r: &Rect, value: u8) -> Result<(), cairo::Error> {
    rounded(cr, r, r.w * 0.08);
    cr.set_source_rgb(1.0, 1.0, 1.0);
    cr.fill_preserve()?;
    cr.set_source_rgb(0.15, 0.15, 0.15);
    cr.set_line_width(r.w * 0.04);
    cr.stroke()?;
    let (cx, cy) = r.centre();
    text_centred(cr, &value.to_string(), cx, cy, r.w * 0.55, true);
    Ok(())
}

/// The prompt `text` in the middle of `seat`'s half, or when `beside_flag` between the
/// resignation flag in the middle and the board's edge.
fn draw_prompt(
    cr: &cairo::Context,
    geom: &Geometry,
    seat: Seat,
    text: &str,
    beside_flag: bool,
) -> Result<(), cairo::Error> {
    let half = geom.half(seat);
    let (cx, cy) = half.centre();
    let cy = match (beside_flag, seat) {
        (false, _) => cy,
        (true, Seat::Bottom) => cy + 1.5 * geom.unit,
        (true, Seat::Top) => cy - 1.5 * geom.unit,
    };
    let size = 0.32 * geom.unit;
    let l = layout(cr, text, size, true);
    // Wrapped to fit the half, centred.
    l.set_width(((half.w - 1.0 * geom.unit).max(1.0) * f64::from(pango::SCALE)) as i32);
    l.set_wrap(pango::WrapMode::WordChar);
    l.set_alignment(pango::Alignment::Center);
    let (_, logical) = l.pixel_extents();
    let (w, h) = (f64::from(logical.width()), f64::from(logical.height()));
    let pill = Rect {
        x: cx - w / 2.0 - 0.3 * geom.unit,
        y: cy - h / 2.0 - 0.15 * geom.unit,
        w: w + 0.6 * geom.unit,
        h: h + 0.3 * geom.unit,
    };
    rounded(cr, &pill, (0.4 * geom.unit).min(pill.h / 2.0));
    cr.set_source_rgba(0.0, 0.0, 0.0, 0.45);
    cr.fill()?;
    cr.set_source_rgb(1.0, 1.0, 1.0);
    cr.move_to(cx - w / 2.0 - f64::from(logical.x()), cy - h / 2.0);
    pangocairo::functions::show_layout(cr, &l);
    cr.new_path();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::{CubePlace, HEIGHT, WIDTH};
    use crate::board::model::{BoardModel, Display};
    use crate::board::scene::{Colours, CubeScene, DiceScene};
    use cubeful_engine::Position;

    const W: i32 = 855;
    const H: i32 = 695;

    fn render(scene: &Scene) -> (cairo::ImageSurface, Geometry) {
        let surface = cairo::ImageSurface::create(cairo::Format::Rgb24, W, H).unwrap();
        let geom = Geometry::new(f64::from(W), f64::from(H));
        {
            let cr = cairo::Context::new(&surface).unwrap();
            cr.set_source_rgb(1.0, 1.0, 1.0);
            cr.paint().unwrap();
            draw(&cr, scene, &geom).unwrap();
        }
        save_for_inspection(&surface);
        (surface, geom)
    }

    /// With `CUBEFUL_TEST_PNG_DIR` set, keeps each rendered board as a PNG there to look at.
    fn save_for_inspection(surface: &cairo::ImageSurface) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        if let Some(dir) = std::env::var_os("CUBEFUL_TEST_PNG_DIR") {
            let n = COUNT.fetch_add(1, Ordering::Relaxed);
            let path = std::path::Path::new(&dir).join(format!("board-{n}.png"));
            let mut png = Vec::new();
            if surface.write_to_png(&mut png).is_ok() {
                let _ = cubeful_engine::files::write_atomically(&path, &png);
            }
        }
    }

    fn pixel(surface: &mut cairo::ImageSurface, x: f64, y: f64) -> Rgb {
        surface.flush();
        let stride = surface.stride() as usize;
        let (xi, yi) = (x.round() as usize, y.round() as usize);
        let data = surface.data().unwrap();
        let i = yi * stride + xi * 4;
        // Rgb24 is native-endian 0x00RRGGBB: little-endian B, G, R, X.
        Rgb::from_bytes(data[i + 2], data[i + 1], data[i])
    }

    fn close(a: Rgb, b: Rgb) -> bool {
        (a.0 - b.0).abs() < 0.09 && (a.1 - b.1).abs() < 0.09 && (a.2 - b.2).abs() < 0.09
    }

    fn starting_scene() -> Scene {
        let mut model = BoardModel::default();
        model.set_display(Display::default());
        let geom = Geometry::new(f64::from(W), f64::from(H));
        model.scene(&geom)
    }

    /// A point just left of a checker's centre: inside the disc, off the shine and rings.
    fn body(geom: &Geometry, slot: Slot, i: u8) -> (f64, f64) {
        let (x, y) = geom.checker(slot, i);
        (x + geom.radius() * 0.8, y)
    }

    #[test]
    fn checkers_of_each_colour_on_their_points() {
        let scene = starting_scene();
        let colours = Colours::default();
        let (mut s, geom) = render(&scene);
        // Bottom player (light): 24 (2), 13 (5), 8 (3), 6 (5). Top player (dark) mirrored.
        for (p, n) in [(24u8, 2u8), (13, 5), (8, 3), (6, 5)] {
            for i in 0..n {
                let (x, y) = body(&geom, Slot::Point(p), i);
                let c = pixel(&mut s, x, y);
                assert!(
                    close(c, colours.checkers[0]),
                    "point {p} checker {i}: {c:?}"
                );
            }
            // Nothing above the stack: the point's own colour or the felt.
            let (x, y) = body(&geom, Slot::Point(p), n);
            let c = pixel(&mut s, x, y);
            assert!(!close(c, colours.checkers[0]), "point {p} above the stack");
            let (x, y) = body(&geom, Slot::Point(25 - p), 0);
            let c = pixel(&mut s, x, y);
            assert!(
                close(c, colours.checkers[1]),
                "point {} dark: {c:?}",
                25 - p
            );
        }
        // An empty point has no checker.
        let (x, y) = body(&geom, Slot::Point(3), 0);
        let c = pixel(&mut s, x, y);
        assert!(!close(c, colours.checkers[0]) && !close(c, colours.checkers[1]));
    }

    #[test]
    fn a_prompt_leaves_the_resignation_flag_visible() {
        let mut scene = starting_scene();
        scene.resignation = Some((Seat::Top, 1));
        scene.prompt = Some((
            Seat::Bottom,
            "Click the flag to accept, right-click to reject".to_string(),
        ));
        let (mut s, geom) = render(&scene);
        // The flag (top player's offer, in the bottom half): white beside its digit.
        let r = geom.resignation(Seat::Top);
        let c = pixel(&mut s, r.x + r.w * 0.15, r.y + r.h * 0.5);
        assert!(close(c, Rgb(1.0, 1.0, 1.0)), "the flag is covered: {c:?}");
    }

    #[test]
    fn cube_in_its_place() {
        let mut scene = starting_scene();
        let cube_white = Rgb(0.98, 0.97, 0.92);
        for (place, other) in [
            (CubePlace::Centre, CubePlace::Owned(Seat::Top)),
            (CubePlace::Owned(Seat::Top), CubePlace::Centre),
            (CubePlace::Owned(Seat::Bottom), CubePlace::Owned(Seat::Top)),
            (CubePlace::Offered(Seat::Bottom), CubePlace::Centre),
        ] {
            scene.cube = Some(CubeScene {
                place,
                value: 2,
                live: true,
            });
            let (mut s, geom) = render(&scene);
            let r = geom.cube(place);
            // Near a corner, away from the number.
            let c = pixel(&mut s, r.x + r.w * 0.2, r.y + r.h * 0.2);
            assert!(close(c, cube_white), "{place:?}: {c:?}");
            let r = geom.cube(other);
            let c = pixel(&mut s, r.x + r.w * 0.2, r.y + r.h * 0.2);
            assert!(!close(c, cube_white), "{place:?} not at {other:?}");
        }
    }

    #[test]
    fn dice_bar_tray_and_highlights() {
        let mut scene = starting_scene();
        let colours = Colours::default();
        // Bottom player: one on the bar, two borne off (taken from the 6 point).
        scene.board[6] = 2;
        scene.board[25] = 1;
        scene.off[0] = 2;
        scene.dice = Some(DiceScene {
            seat: Seat::Bottom,
            values: [6, 1],
            used: [false, false],
        });
        scene.highlights = vec![Slot::Point(3)];
        let (mut s, geom) = render(&scene);
        let (x, y) = body(&geom, Slot::Bar(Seat::Bottom), 0);
        assert!(close(pixel(&mut s, x, y), colours.checkers[0]));
        for i in 0..2 {
            let (x, y) = geom.slab(Seat::Bottom, i).centre();
            assert!(close(pixel(&mut s, x, y), colours.checkers[0]), "slab {i}");
        }
        let (x, y) = geom.slab(Seat::Bottom, 2).centre();
        assert!(!close(pixel(&mut s, x, y), colours.checkers[0]));
        // Dice in the bottom player's colour in the right half.
        let r = geom.dice(Seat::Bottom)[0];
        assert!(close(
            pixel(&mut s, r.x + r.w * 0.5, r.y + r.h * 0.15),
            colours.checkers[0]
        ));
        // The highlighted point is tinted towards the highlight colour near its base.
        let r = geom.point(3);
        let c = pixel(&mut s, r.x + r.w / 2.0, r.y + r.h - 0.2 * geom.unit);
        let plain = pixel(
            &mut s,
            geom.point(4).x + r.w / 2.0,
            r.y + r.h - 0.2 * geom.unit,
        );
        assert!(
            c.1 > plain.1 + 0.1,
            "highlight is greener: {c:?} vs {plain:?}"
        );
    }

    #[test]
    fn scales_to_any_size_and_device_scale() {
        let scene = starting_scene();
        // A tiny board and a large HiDPI one both draw without error and keep proportions.
        for (w, h, scale) in [(40, 30, 1.0), (1700, 1400, 2.0)] {
            let surface = cairo::ImageSurface::create(
                cairo::Format::ARgb32,
                (f64::from(w) * scale) as i32,
                (f64::from(h) * scale) as i32,
            )
            .unwrap();
            surface.set_device_scale(scale, scale);
            let cr = cairo::Context::new(&surface).unwrap();
            let geom = Geometry::new(f64::from(w), f64::from(h));
            assert!(
                (geom.unit * WIDTH - f64::from(w)).abs() < 1e-6
                    || (geom.unit * HEIGHT - f64::from(h)).abs() < 1e-6
            );
            draw(&cr, &scene, &geom).unwrap();
        }
    }

    #[test]
    fn empty_and_zero_sized() {
        let surface = cairo::ImageSurface::create(cairo::Format::ARgb32, 10, 10).unwrap();
        let cr = cairo::Context::new(&surface).unwrap();
        draw(
            &cr,
            &Scene::empty(Colours::default()),
            &Geometry::new(0.0, 0.0),
        )
        .unwrap();
        let _ = Position::starting();
    }

    #[test]
    fn the_last_move_is_marked_on_its_checkers() {
        use crate::board::model::LastMove;
        let mut scene = starting_scene();
        let ring = |surface: &mut cairo::ImageSurface, geom: &Geometry, slot: Slot, i: u8| {
            let (x, y) = geom.checker(slot, i);
            pixel(surface, x + 0.86 * geom.radius(), y)
        };
        let (mut plain, geom) = render(&scene);
        let highlight = scene.colours.highlight;
        assert!(!close(
            ring(&mut plain, &geom, Slot::Point(6), 4),
            highlight
        ));
        // The bottom player moved two checkers to 6 (its top two are ringed) from 8, whose
        // first free place gets a dashed outline.
        scene.last_move = Some(LastMove {
            seat: Seat::Bottom,
            from: vec![Slot::Point(8), Slot::Point(8)],
            to: vec![Slot::Point(6), Slot::Point(6)],
        });
        let (mut marked, geom) = render(&scene);
        assert!(close(
            ring(&mut marked, &geom, Slot::Point(6), 4),
            highlight
        ));
        assert!(close(
            ring(&mut marked, &geom, Slot::Point(6), 3),
            highlight
        ));
        assert!(!close(
            ring(&mut marked, &geom, Slot::Point(6), 2),
            highlight
        ));
        // The other checkers look as before.
        assert_eq!(
            ring(&mut marked, &geom, Slot::Point(13), 4),
            ring(&mut plain, &geom, Slot::Point(13), 4)
        );
    }
}
