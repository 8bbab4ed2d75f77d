//! End-to-end test of exporting the board as an image in the desktop app under Xvfb (built as
//! the `e2e_export` test of `crates/gtk`): with a match on the board, the main menu's Export ▸
//! Position as PNG or SVG… opens the file chooser in the home folder with the name
//! `position.png`; Enter accepts it and the board is written as a PNG that decodes, as wide as
//! exports are made. Again, with `board.svg` typed as the name: the file name's extension picks
//! SVG, and the file is an SVG document of the same size that draws something.
//!
//! Needs `Xvfb`, `xdotool`, ImageMagick's `import` and `xclip`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::{App, Launch};
use cubeful_gtk::board::export::{height_for, EXPORT_WIDTH};

/// Opens the main menu (F10) and picks Export ▸ Position as PNG or SVG… with the keys; returns
/// once the file chooser is open.
fn open_export_chooser(app: &App) {
    // On a loaded machine a key may come before the menu is ready for it: up to three tries,
    // Escape closing what a failed one left open.
    for _ in 0..3 {
        // Without a window manager the window takes keys again after a file chooser has
        // closed only once something in it is clicked: the GNU Backgammon ID field of the bar
        // under the board (which changes nothing).
        let s = app.wait_for("the ID fields", 10, |s| s["ids"]["entry_xy"][0].is_array());
        app.click(&s["ids"]["entry_xy"][0]);
        sleep(Duration::from_millis(300));
        // The keys go to the window under the pointer.
        app.hover(&s["roll_xy"]);
        sleep(Duration::from_millis(300));
        app.key("F10");
        sleep(Duration::from_millis(1000));
        for key in MENU_KEYS {
            app.key(key);
            // The submenu slides in before its items take keys.
            let pause = if *key == "Right" { 1000 } else { 200 };
            sleep(Duration::from_millis(pause));
        }
        if wait_until(app, 10, |s| s["files"]["chooser_open"] == true) {
            // The chooser takes keys once it is laid out.
            sleep(Duration::from_millis(2000));
            return;
        }
        eprintln!("the file chooser did not open; again");
        app.key("Escape");
        sleep(Duration::from_millis(300));
        app.key("Escape");
        sleep(Duration::from_millis(1000));
    }
    panic!("the menu does not open the file chooser: {:#}", app.state());
}

/// Whether `pred` holds for the state within `secs`.
fn wait_until(app: &App, secs: u64, pred: impl Fn(&serde_json::Value) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if pred(&app.state()) {
            return true;
        }
        sleep(Duration::from_millis(100));
    }
    false
}

/// The keys from the opened main menu (its first item, New Match…, highlighted) to Export ▸
/// Position as PNG or SVG…: down to Export, the tenth item, Right opens the submenu, P is the
/// mnemonic of _Position.
const MENU_KEYS: &[&str] = &[
    "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Down", "Right", "p",
];

/// Waits for the toast of an export to `name` and returns the file's bytes.
fn exported(app: &App, folder: &Path, name: &str) -> (PathBuf, Vec<u8>) {
    let toast = format!("Position exported to “{name}”.");
    app.wait_for("the export", 20, |s| {
        s["toast"].as_str() == Some(toast.as_str())
    });
    assert_eq!(app.state()["files"]["chooser_open"], false);
    let path = folder.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (path, bytes)
}

/// The width and height of a PNG from its IHDR chunk (right after the signature).
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(
        png.len() > 24 && &png[12..16] == b"IHDR",
        "an IHDR chunk first"
    );
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&png[16..20]), be(&png[20..24]))
}

/// The value of attribute `name` in the `<svg …>` tag of `svg`.
fn svg_attribute<'a>(svg: &'a str, name: &str) -> Option<&'a str> {
    let tag = &svg[svg.find("<svg")?..];
    let tag = &tag[..tag.find('>')?];
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

#[test]
fn the_board_is_exported_as_png_and_svg() {
    let Some(app) = Launch::new("gtk-e2e-export")
        .settings(
            "(player_name: \"Anna\", level: \"beginner\", animate: false, \
             window: (width: 1000, height: 820))",
        )
        .home()
        .seed(5)
        .with_match()
        .start()
    else {
        return;
    };
    app.wait_settled(90);
    let home = app.work.join("home");
    let height = height_for(EXPORT_WIDTH);

    // PNG: the name the chooser offers, accepted with Enter.
    open_export_chooser(&app);
    app.key("Return");
    let (_, png) = exported(&app, &home, "position.png");
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n"),
        "the PNG signature ({} bytes)",
        png.len()
    );
    assert_eq!(png_size(&png), (EXPORT_WIDTH, height), "IHDR");
    let image = cairo::ImageSurface::create_from_png(&mut png.as_slice()).expect("it decodes");
    assert_eq!(image.width() as u32, EXPORT_WIDTH);
    assert_eq!(image.height() as u32, height);
    assert!(
        png.len() > 20_000,
        "a board, not a blank: {} bytes",
        png.len()
    );

    // SVG: a name typed over the offered one; its extension picks the format.
    open_export_chooser(&app);
    app.key("ctrl+a");
    sleep(Duration::from_millis(300));
    app.type_text("board.svg");
    sleep(Duration::from_millis(500));
    app.key("Return");
    let (path, svg) = exported(&app, &home, "board.svg");
    let svg = String::from_utf8(svg).unwrap_or_else(|_| panic!("{}: not UTF-8", path.display()));
    assert!(
        svg.starts_with("<?xml") || svg.starts_with("<svg"),
        "an XML or SVG header: {:?}",
        &svg[..svg.len().min(80)]
    );
    assert!(svg.trim_end().ends_with("</svg>"), "a complete document");
    assert_eq!(
        svg_attribute(&svg, "width"),
        Some(format!("{EXPORT_WIDTH}pt").as_str())
    );
    assert_eq!(
        svg_attribute(&svg, "height"),
        Some(format!("{height}pt").as_str())
    );
    // The drawing after the definitions (the glyphs of the names and numbers).
    let drawing = &svg[svg.find("</defs>").unwrap_or(0)..];
    let paths = drawing.matches("<path").count();
    assert!(paths > 30, "the board's drawing: {paths} paths");
    assert!(drawing.contains("<use"), "the text of the board");
    // The PNG of the first export is still there, unchanged.
    assert_eq!(std::fs::read(home.join("position.png")).unwrap(), png);
}
