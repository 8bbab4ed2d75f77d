//! End-to-end test of the trays in edit mode under Xvfb, as in GNU Backgammon's manual
//! ("Clearing the board"): a click in a bear-off tray clears the board, a click on the
//! opposite side (the strip where the cube waits, level with the tray) sets the starting
//! position, and checkers are still dragged to and from a tray one at a time — a press on a
//! tray full of checkers that is released in place is a click all the same.
//!
//! Needs `Xvfb`, `xdotool` and ImageMagick's `import`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::thread::sleep;
use std::time::Duration;

use common::Launch;
use serde_json::{json, Value};

/// The place `n` (1 = at the base) of point `p` (bottom player's numbering).
fn place(s: &Value, p: usize, n: usize) -> Value {
    s["edit"]["points"][p - 1]["places"][n - 1].clone()
}

/// Bottom numbering signed count of point `p` in the draft.
fn on(s: &Value, p: usize) -> i64 {
    s["edit"]["board"][p].as_i64().unwrap_or(99)
}

/// The starting position in the board's layout of the debug state.
fn starting(s: &Value) -> bool {
    on(s, 6) == 5
        && on(s, 8) == 3
        && on(s, 13) == 5
        && on(s, 24) == 2
        && on(s, 1) == -2
        && on(s, 19) == -5
        && s["edit"]["off"] == json!([0, 0])
}

/// The side opposite tray `i` (0 bottom, 1 top): the cube strip (the centred cube's x), level
/// with the tray's centre.
fn opposite(s: &Value, i: usize) -> Value {
    json!([s["edit"]["cube_xy"][0], s["edit"]["trays"][i][1]])
}

#[test]
fn tray_clicks_clear_and_set_the_starting_position() {
    let Some(app) = Launch::new("gtk-e2e-edit-trays")
        .settings("(player_name: \"Anna\", level: \"beginner\", animate: false, window: (width: 1100, height: 860))")
        .seed(11)
        .with_match()
        .start()
    else {
        return;
    };
    app.wait_settled(60);
    app.key("ctrl+e");
    app.wait_for("edit mode", 10, |s| s["edit"]["active"] == true);
    sleep(Duration::from_millis(500));
    let s = app.state();

    // The bottom tray (empty): everything borne off.
    app.click(&s["edit"]["trays"][0]);
    let s = app.wait_for("a clear board", 10, |s| s["edit"]["off"] == json!([15, 15]));
    assert_eq!(s["edit"]["board"], json!(vec![0; 26]));
    // Opposite the top tray: the starting position.
    app.click(&opposite(&s, 1));
    let s = app.wait_for("the starting position", 10, starting);

    // A drag into the bottom player's tray bears one checker off; one out of it brings it back
    // onto the 3 point.
    app.drag(&place(&s, 6, 5), &s["edit"]["trays"][0]);
    let s = app.wait_for("one checker off", 10, |s| {
        s["edit"]["off"] == json!([1, 0]) && on(s, 6) == 4
    });
    app.drag(&s["edit"]["trays"][0], &place(&s, 3, 1));
    let s = app.wait_for("the checker on the 3 point", 10, |s| {
        s["edit"]["off"] == json!([0, 0]) && on(s, 3) == 1
    });

    // The top tray with checkers in it, clicked: cleared too (nothing is dragged).
    app.drag(&place(&s, 19, 5), &s["edit"]["trays"][1]);
    let s = app.wait_for("one of the top player's off", 10, |s| {
        s["edit"]["off"] == json!([0, 1])
    });
    app.click(&s["edit"]["trays"][1]);
    let s = app.wait_for("a clear board again", 10, |s| {
        s["edit"]["off"] == json!([15, 15])
    });
    // Opposite the bottom tray: the starting position again; still editing.
    app.click(&opposite(&s, 0));
    let s = app.wait_for("the starting position again", 10, starting);
    assert_eq!(s["edit"]["active"], true);
    app.key("Escape");
}
