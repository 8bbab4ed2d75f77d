//! End-to-end test of edit mode in the desktop app under Xvfb: Ctrl+E enters it, Clear empties
//! the board, clicks set the checkers of points (the primary button for the bottom player's
//! colour, the secondary for the top player's; where on the point sets how many), drags move a
//! checker to another point and to the bar, clicks on the dice area set the dice and who is on
//! roll; the Position ID in the debug state is the one the engine gives for the intended
//! position. Sixteen checkers are refused in a sentence and cannot be played from; fixed, the
//! position is played from, and the game's record holds the set-up.
//!
//! With `CUBEFUL_UPDATE_SCREENSHOT=1` the screenshot of edit mode goes to `docs/edit-mode.png`.
//! Needs `Xvfb`, `xdotool` and ImageMagick's `import` and `convert`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::thread::sleep;
use std::time::Duration;

use common::{App, Launch};
use cubeful_engine::{position_id, Position};
use serde_json::Value;

/// Clicks a window point with mouse button `button` (1 primary, 3 secondary).
fn click_with(app: &App, xy: &Value, button: &str) {
    app.hover(xy);
    sleep(Duration::from_millis(100));
    app.xdotool(&["click", button]);
}

/// The place `n` (1 = at the base) of point `p` (bottom player's numbering).
fn place(s: &Value, p: usize, n: usize) -> Value {
    s["edit"]["points"][p - 1]["places"][n - 1].clone()
}

/// Bottom numbering signed count of point `p` in the draft.
fn on(s: &Value, p: usize) -> i64 {
    s["edit"]["board"][p].as_i64().unwrap_or(99)
}

#[test]
fn a_position_set_up_by_clicks_and_drags_is_played_from() {
    let Some(app) = Launch::new("gtk-e2e-edit")
        .settings("(player_name: \"Anna\", level: \"beginner\", animate: false, window: (width: 1100, height: 860))")
        .seed(11)
        .with_match()
        .start()
    else {
        return;
    };
    app.wait_settled(60);
    let cells = |s: &Value| s["record"]["cells"].as_array().map_or(0, Vec::len);
    let cells_before = cells(&app.state());

    // Ctrl+E: edit mode, the bar under the board; Clear bears everything off.
    app.key("ctrl+e");
    let s = app.wait_for("edit mode", 10, |s| s["edit"]["active"] == true);
    assert!(s["status"].as_str().unwrap_or("").starts_with("Editing"));
    sleep(Duration::from_millis(500));
    let s = app.state();
    app.click(&s["edit"]["bar"]["clear_xy"]);
    let s = app.wait_for("a clear board", 10, |s| {
        s["edit"]["off"] == serde_json::json!([15, 15])
    });

    // Anna (bottom, primary button): 3 on her 6 point, 2 on the 5, 6 on the 4 (the tip of
    // a full stack adds one). The bot (top, secondary button): 3 on its 6 point (our 19), 2 on
    // its 5 (our 20), 1 on its ace (our 24).
    click_with(&app, &place(&s, 6, 3), "1");
    click_with(&app, &place(&s, 5, 2), "1");
    click_with(&app, &place(&s, 4, 5), "1");
    app.wait_for("five on the 4 point", 10, |s| on(s, 4) == 5);
    click_with(&app, &place(&s, 4, 5), "1");
    click_with(&app, &place(&s, 19, 3), "3");
    click_with(&app, &place(&s, 20, 2), "3");
    click_with(&app, &place(&s, 24, 1), "3");
    let s = app.wait_for("the clicked checkers", 10, |s| {
        on(s, 6) == 3
            && on(s, 5) == 2
            && on(s, 4) == 6
            && on(s, 19) == -3
            && on(s, 20) == -2
            && on(s, 24) == -1
    });
    // Drags: one of the bot's checkers from our 20 to our 21; one of Anna's from her 4 point
    // to the bar.
    app.drag(&place(&s, 20, 2), &place(&s, 21, 1));
    let s = app.wait_for("the dragged checker", 10, |s| {
        on(s, 20) == -1 && on(s, 21) == -1
    });
    app.drag(&place(&s, 4, 5), &s["edit"]["bars"][0][0]);
    let s = app.wait_for("a checker on the bar", 10, |s| {
        on(s, 4) == 5 && on(s, 25) == 1
    });

    // The dice: Anna on roll with 4-2 (primary clicks raise the first die, secondary the
    // second).
    for _ in 0..4 {
        click_with(&app, &s["edit"]["dice_xy"][0], "1");
        sleep(Duration::from_millis(150));
    }
    click_with(&app, &s["edit"]["dice_xy"][0], "3");
    let s = app.wait_for("the dice 4-2", 10, |s| {
        s["edit"]["dice"] == serde_json::json!([4, 2]) && s["edit"]["on_roll"] == "bottom"
    });

    // The Position ID is the engine's for the intended position (Anna on roll).
    let mut anna = [0u8; 25];
    anna[5] = 3;
    anna[4] = 2;
    anna[3] = 5;
    anna[24] = 1;
    let mut bot = [0u8; 25];
    bot[5] = 3; // our 19
    bot[4] = 1; // our 20
    bot[3] = 1; // our 21
    bot[0] = 1; // our 24
    let expected = position_id::encode(&Position::from_sides(&anna, &bot).unwrap());
    assert_eq!(
        s["position_id"].as_str(),
        Some(expected.as_str()),
        "{:#}",
        s["edit"]
    );
    assert_eq!(s["edit"]["valid"], true);
    assert_eq!(
        s["edit"]["pips"],
        serde_json::json!([3 * 6 + 2 * 5 + 5 * 4 + 25, 3 * 6 + 5 + 4 + 1])
    );
    assert!(s["ids"]["gnubg_id"]
        .as_str()
        .unwrap_or("")
        .starts_with(&expected));

    sleep(Duration::from_millis(400));
    let shot = app.work.join("edit-mode.png");
    app.screenshot(&shot);
    let cropped = std::process::Command::new("convert")
        .arg(&shot)
        .args(["-crop", "1280x860+0+0", "+repage"])
        .arg(&shot)
        .status()
        .is_ok_and(|s| s.success());
    assert!(cropped, "ImageMagick's convert crops the screenshot");
    if std::env::var_os("CUBEFUL_UPDATE_SCREENSHOT").is_some() {
        let docs = common::repo_root().join("docs");
        std::fs::copy(&shot, docs.join("edit-mode.png")).expect("docs/ is writable");
    }

    // Sixteen checkers: a sentence, no Position ID, Play refused (Ctrl+E and the button).
    click_with(&app, &place(&s, 10, 5), "1");
    let s = app.wait_for("sixteen checkers refused", 10, |s| {
        s["edit"]["valid"] == false && s["position_id"].is_null()
    });
    let message = s["edit"]["message"].as_str().unwrap_or("").to_string();
    assert!(message.contains("16 checkers"), "{message}");
    assert_eq!(s["edit"]["bar"]["message"].as_str(), Some(message.as_str()));
    assert_eq!(s["edit"]["bar"]["play_sensitive"], false);
    app.key("ctrl+e");
    let s = app.wait_for("the refusal", 10, |s| {
        s["toast"].as_str() == Some(message.as_str())
    });
    assert_eq!(s["edit"]["active"], true, "still editing");

    // Fixed (the frame beyond the point's base empties it) and played from.
    click_with(&app, &s["edit"]["points"][9]["border"], "1");
    let s = app.wait_for("valid again", 10, |s| s["edit"]["valid"] == true);
    assert_eq!(s["position_id"].as_str(), Some(expected.as_str()));
    // Where Play is once the bar is laid out without the sentence, and the toast of the
    // refusal (over the bar) has gone.
    sleep(Duration::from_millis(6500));
    let s = app.state();
    assert_eq!(s["edit"]["bar"]["play_sensitive"], true);
    app.click(&s["edit"]["bar"]["play_xy"]);
    let s = app.wait_for("play from the set-up", 20, |s| {
        s["edit"]["active"] == false && s["game"]["position_id"].as_str() == Some(expected.as_str())
    });
    assert_eq!(
        s["game"]["human_to_act"], 1,
        "Anna is to move: {:#}",
        s["game"]
    );
    assert_eq!(s["game"]["dice"], serde_json::json!([4, 2]));
    assert_eq!(s["position_id"].as_str(), Some(expected.as_str()));

    // The record holds the set-up: its last action, selected in the pane.
    let s = app.wait_for("the set-up in the record pane", 10, |s| {
        cells(s) > cells_before
    });
    let last = s["record"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .max_by_key(|c| (c["game"].as_u64(), c["entry"].as_u64()))
        .unwrap()
        .clone();
    app.click(&last["xy"]);
    let s = app.wait_for("the set-up selected", 10, |s| {
        s["record"]["selected_text"].as_str() == Some("Position set up")
    });
    assert_eq!(
        s["position_id"].as_str(),
        Some(expected.as_str()),
        "reviewing shows it too"
    );
    app.key("Escape");
}
