//! End-to-end test of copying the position in the desktop app under Xvfb: Ctrl+C puts GNU
//! Backgammon's ASCII board of the position on the clipboard (read back with xclip, compared
//! with the engine's), Ctrl+Shift+C a PNG image of the board; a text field of the ID bar with
//! the focus keeps Ctrl+C for its own selection.
//!
//! Needs `Xvfb`, `xdotool`, ImageMagick's `import` and `xclip`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::Duration;

use common::{App, Launch};
use cubeful_engine::formats::ascii_board;
use cubeful_engine::gnubg_id;
use cubeful_gtk::board::export::{height_for, CLIPBOARD_WIDTH};

/// The clipboard's content as `target` (a MIME type), as bytes (empty if none).
fn clipboard_as(app: &App, target: &str) -> Vec<u8> {
    Command::new("xclip")
        .args(["-selection", "clipboard", "-t", target, "-out"])
        .env("DISPLAY", &app.display)
        .stderr(Stdio::null())
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default()
}

/// Waits until the clipboard's text is `want` (or gives up after a few seconds), and returns
/// what it holds.
fn clipboard_text(app: &App, want: &str) -> String {
    let mut text = String::new();
    for _ in 0..25 {
        text = app.clipboard();
        if text == want {
            break;
        }
        sleep(Duration::from_millis(200));
    }
    text
}

#[test]
fn the_position_is_copied_as_text_and_as_an_image() {
    let Some(app) = Launch::new("gtk-e2e-copy")
        .settings("(player_name: \"Anna\", level: \"beginner\", animate: false, window: (width: 1000, height: 820))")
        .seed(5)
        .with_match()
        .start()
    else {
        return;
    };
    let s = app.wait_settled(90);

    // Ctrl+C: the engine's ASCII board of the position on the board, with the names.
    let id = s["game"]["gnubg_id"].as_str().expect("a GNU Backgammon ID");
    let (position, state) = gnubg_id::decode(id).expect("the ID decodes");
    let want = ascii_board::draw(&position, &state, ["Cubeful", "Anna"]);
    assert!(want.contains(&id[..14]), "the board names its Position ID");
    app.key("ctrl+c");
    let copied = clipboard_text(&app, &want);
    assert_eq!(copied, want, "the ASCII board copied");
    app.wait_for("the message", 10, |s| {
        s["toast"] == "Position copied as text."
    });

    // Ctrl+Shift+C: a PNG of the board, as wide as the clipboard image is made.
    app.key("ctrl+shift+c");
    app.wait_for("the message", 10, |s| {
        s["toast"] == "Position copied as an image."
    });
    let mut png = Vec::new();
    for _ in 0..25 {
        png = clipboard_as(&app, "image/png");
        if png.starts_with(b"\x89PNG\r\n\x1a\n") {
            break;
        }
        sleep(Duration::from_millis(200));
    }
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n"),
        "a PNG on the clipboard ({} bytes)",
        png.len()
    );
    let image = cairo::ImageSurface::create_from_png(&mut png.as_slice()).expect("it decodes");
    assert_eq!(image.width() as u32, CLIPBOARD_WIDTH);
    assert_eq!(image.height() as u32, height_for(CLIPBOARD_WIDTH));
    assert!(
        png.len() > 20_000,
        "a board, not a blank: {} bytes",
        png.len()
    );
    let shot = app.work.join("copied.png");
    std::fs::write(&shot, &png).unwrap();

    // The XGID field with the focus and its text selected: Ctrl+C copies the selection, not
    // the board.
    let s = app.wait_for("the ID bar", 10, |s| s["ids"]["copy_xy"][1].is_array());
    let xgid = s["ids"]["xgid"].as_str().unwrap().to_string();
    let button = &s["ids"]["copy_xy"][1];
    // The field is left of its copy button.
    let field = serde_json::json!([button[0].as_f64().unwrap() - 100.0, button[1]]);
    // On a loaded machine the click may not have given the field the focus before the keys
    // arrive (the board is copied then): up to three tries.
    let mut copied = String::new();
    for _ in 0..3 {
        app.click(&field);
        sleep(Duration::from_millis(600));
        app.key("ctrl+a");
        sleep(Duration::from_millis(300));
        app.key("ctrl+c");
        copied = clipboard_text(&app, &xgid);
        if copied == xgid {
            break;
        }
    }
    assert_eq!(copied, xgid, "the field's own copy");
    assert_eq!(app.state()["game"]["gnubg_id"].as_str(), Some(id));
}
