//! The board as an image: PNG or SVG bytes of a [`Display`], drawn by the same vector code as
//! the screen ([`render::draw`]), for copying the position to the clipboard and exporting it
//! to a file. No GTK here (Cairo only), so it is tested without a display.

use std::path::Path;

use thiserror::Error;

use super::geometry::{Geometry, HEIGHT, WIDTH};
use super::model::{BoardModel, Display};
use super::render;
use super::scene::Colours;

/// Width of an exported board: pixels for PNG, points for SVG (the height follows from the
/// board's proportions, [`height_for`]).
pub const EXPORT_WIDTH: u32 = 1200;

/// Width of the board copied to the clipboard as an image, in pixels.
pub const CLIPBOARD_WIDTH: u32 = 800;

/// An image format the board can be written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Svg,
}

impl ImageFormat {
    /// The format a file name asks for by its extension (`.png`, `.svg`, in any case).
    pub fn from_path(path: &Path) -> Option<ImageFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "png" => Some(ImageFormat::Png),
            "svg" => Some(ImageFormat::Svg),
            _ => None,
        }
    }

    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Svg => "svg",
        }
    }
}

/// Why the board could not be drawn as an image.
#[derive(Debug, Error)]
pub enum ExportError {
    /// Cairo failed to make the surface or to draw.
    #[error("drawing the board failed: {0}")]
    Draw(#[from] cairo::Error),
    /// Cairo failed to encode the PNG or to finish the SVG.
    #[error("encoding the image failed: {0}")]
    Encode(String),
}

/// The height of a board image `width` wide: the board's own proportions.
pub fn height_for(width: u32) -> u32 {
    ((f64::from(width) * HEIGHT / WIDTH).round() as u32).max(1)
}

/// What an image of `display` shows: the checkers, dice, cube, names and scores, without
/// the prompts of the moment ("Click to roll"), anything to click, or the marks of the last
/// move.
pub fn still(display: &Display) -> Display {
    Display {
        prompt: None,
        turn: None,
        roll: None,
        last_move: None,
        ..display.clone()
    }
}

/// Draws `display` in `colours` on `cr`, laid out over `width` × `height`.
fn draw(
    cr: &cairo::Context,
    display: &Display,
    colours: Colours,
    width: f64,
    height: f64,
) -> Result<(), cairo::Error> {
    let geom = Geometry::new(width, height);
    let mut model = BoardModel::new(colours);
    model.set_display(still(display));
    render::draw(cr, &model.scene(&geom), &geom)
}

/// The board showing `display` in `colours` as PNG bytes, `width` pixels wide.
pub fn png(display: &Display, colours: Colours, width: u32) -> Result<Vec<u8>, ExportError> {
    let height = height_for(width);
    let w = i32::try_from(width).map_err(|_| cairo::Error::InvalidSize)?;
    let h = i32::try_from(height).map_err(|_| cairo::Error::InvalidSize)?;
    let surface = cairo::ImageSurface::create(cairo::Format::ARgb32, w, h)?;
    {
        let cr = cairo::Context::new(&surface)?;
        draw(&cr, display, colours, f64::from(width), f64::from(height))?;
    }
    surface.flush();
    let mut bytes = Vec::new();
    surface
        .write_to_png(&mut bytes)
        .map_err(|e| ExportError::Encode(e.to_string()))?;
    Ok(bytes)
}

/// The board showing `display` in `colours` as an SVG document, `width` points wide.
pub fn svg(display: &Display, colours: Colours, width: u32) -> Result<Vec<u8>, ExportError> {
    let (w, h) = (f64::from(width), f64::from(height_for(width)));
    let surface = cairo::SvgSurface::for_stream(w, h, Vec::<u8>::new())?;
    {
        let cr = cairo::Context::new(&surface)?;
        draw(&cr, display, colours, w, h)?;
    }
    let stream = surface
        .finish_output_stream()
        .map_err(|e| ExportError::Encode(e.error.to_string()))?;
    stream
        .downcast::<Vec<u8>>()
        .map(|bytes| *bytes)
        .map_err(|_| ExportError::Encode("unexpected output stream".into()))
}

/// The board showing `display` in `colours` as `format`, `width` wide.
pub fn image(
    format: ImageFormat,
    display: &Display,
    colours: Colours,
    width: u32,
) -> Result<Vec<u8>, ExportError> {
    match format {
        ImageFormat::Png => png(display, colours, width),
        ImageFormat::Svg => svg(display, colours, width),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::Seat;
    use crate::board::scene::Rgb;
    use cubeful_engine::{Dice, Position};

    fn display() -> Display {
        Display {
            position: Position::starting(),
            names: ["Ann".into(), "Bob".into()],
            scores: [1, 2],
            match_length: 5,
            on_roll: Some(Seat::Bottom),
            dice: Some((Seat::Bottom, Dice::new(3, 1).unwrap())),
            turn: Some(Seat::Bottom),
            prompt: Some((Seat::Top, "Click to roll".into())),
            last_move: Some(crate::board::model::LastMove {
                seat: Seat::Top,
                from: vec![crate::board::Slot::Point(24)],
                to: vec![crate::board::Slot::Point(18)],
            }),
            ..Display::default()
        }
    }

    /// The colour of the pixel at `(x, y)` of a decoded image.
    fn pixel(surface: &mut cairo::ImageSurface, x: f64, y: f64) -> Rgb {
        let stride = surface.stride() as usize;
        let (xi, yi) = (x.round() as usize, y.round() as usize);
        let data = surface.data().unwrap();
        let i = yi * stride + xi * 4;
        // ARgb32 is native-endian 0xAARRGGBB: little-endian B, G, R, A.
        Rgb::from_bytes(data[i + 2], data[i + 1], data[i])
    }

    fn close(a: Rgb, b: Rgb) -> bool {
        (a.0 - b.0).abs() < 0.09 && (a.1 - b.1).abs() < 0.09 && (a.2 - b.2).abs() < 0.09
    }

    #[test]
    fn formats_by_extension() {
        assert_eq!(
            ImageFormat::from_path(Path::new("/tmp/a.PNG")),
            Some(ImageFormat::Png)
        );
        assert_eq!(
            ImageFormat::from_path(Path::new("b.svg")),
            Some(ImageFormat::Svg)
        );
        assert_eq!(ImageFormat::from_path(Path::new("c.jpg")), None);
        assert_eq!(ImageFormat::from_path(Path::new("png")), None);
        assert_eq!(ImageFormat::Svg.extension(), "svg");
    }

    #[test]
    fn the_image_keeps_the_position_and_drops_the_prompts() {
        let d = still(&display());
        assert_eq!(d.prompt, None);
        assert_eq!(d.turn, None);
        assert_eq!(d.roll, None);
        assert_eq!(d.last_move, None);
        assert_eq!(d.position, Position::starting());
        assert_eq!(d.dice, display().dice);
        assert_eq!(d.names, display().names);
    }

    #[test]
    fn png_decodes_to_the_board_in_its_colours() {
        let colours = Colours::default();
        let bytes = png(&display(), colours, 600).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let mut surface = cairo::ImageSurface::create_from_png(&mut bytes.as_slice()).unwrap();
        assert_eq!(surface.width(), 600);
        assert_eq!(surface.height() as u32, height_for(600));
        assert!(
            (f64::from(surface.height()) / 600.0 - HEIGHT / WIDTH).abs() < 0.01,
            "the board's proportions"
        );
        // The bottom player's checkers on its 6 point and the top player's on its 6 point,
        // each in its colour (the same layout as the screen).
        let geom = Geometry::new(600.0, f64::from(surface.height()));
        let (x, y) = geom.checker(crate::board::Slot::Point(6), 0);
        let bottom = pixel(&mut surface, x + geom.radius() * 0.8, y);
        assert!(close(bottom, colours.checkers[0]), "{bottom:?}");
        let (x, y) = geom.checker(crate::board::Slot::Point(19), 0);
        let top = pixel(&mut surface, x + geom.radius() * 0.8, y);
        assert!(close(top, colours.checkers[1]), "{top:?}");
    }

    #[test]
    fn other_colours_and_sizes() {
        let colours = Colours {
            checkers: [Rgb::from_bytes(0, 0, 255), Rgb::from_bytes(255, 255, 0)],
            ..Colours::default()
        };
        let bytes = png(&display(), colours, 300).unwrap();
        let mut surface = cairo::ImageSurface::create_from_png(&mut bytes.as_slice()).unwrap();
        assert_eq!(surface.width(), 300);
        let geom = Geometry::new(300.0, f64::from(surface.height()));
        let (x, y) = geom.checker(crate::board::Slot::Point(13), 0);
        let c = pixel(&mut surface, x + geom.radius() * 0.8, y);
        // Blue, give or take the checker's shading.
        assert!(c.2 > 0.7 && c.0 < 0.15 && c.1 < 0.15, "{c:?}");
    }

    #[test]
    fn svg_is_a_vector_drawing_with_the_checkers() {
        let colours = Colours::default();
        let bytes = svg(&display(), colours, EXPORT_WIDTH).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        if let Some(dir) = std::env::var_os("CUBEFUL_TEST_PNG_DIR") {
            let _ = cubeful_engine::files::write_atomically(
                &Path::new(&dir).join("board.svg"),
                text.as_bytes(),
            );
        }
        assert!(text.starts_with("<?xml") || text.starts_with("<svg"));
        assert!(text.contains("<svg"));
        assert!(text.trim_end().ends_with("</svg>"));
        let height = height_for(EXPORT_WIDTH);
        assert!(
            text.contains(&format!("width=\"{EXPORT_WIDTH}pt\""))
                && text.contains(&format!("height=\"{height}pt\"")),
            "{}",
            &text[..300.min(text.len())]
        );
        // Every checker is a disc filled with its player's colour: at least 15 fills of each
        // player's colour, in whatever colours the players have.
        assert!(count_fills(&text, colours.checkers[0]) >= 15);
        assert!(count_fills(&text, colours.checkers[1]) >= 15);
        let mut other = colours;
        other.checkers = [Rgb::from_bytes(0, 0, 255), Rgb::from_bytes(255, 255, 0)];
        let text = String::from_utf8(svg(&display(), other, 400).unwrap()).unwrap();
        assert!(text.contains("width=\"400pt\""));
        assert!(count_fills(&text, other.checkers[0]) >= 15);
        assert!(count_fills(&text, other.checkers[1]) >= 15);
        assert_eq!(count_fills(&text, colours.checkers[0]), 0);
    }

    /// How often the SVG fills with `colour` (cairo writes `fill:rgb(r%,g%,b%)`).
    fn count_fills(svg: &str, colour: Rgb) -> usize {
        svg.split("fill:rgb(")
            .skip(1)
            .filter(|rest| {
                let Some(end) = rest.find(')') else {
                    return false;
                };
                let parts: Vec<f64> = rest[..end]
                    .split(',')
                    .filter_map(|p| p.trim().trim_end_matches('%').parse().ok())
                    .collect();
                parts.len() == 3
                    && (parts[0] / 100.0 - colour.0).abs() < 0.01
                    && (parts[1] / 100.0 - colour.1).abs() < 0.01
                    && (parts[2] / 100.0 - colour.2).abs() < 0.01
            })
            .count()
    }
}
