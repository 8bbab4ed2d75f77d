//! End-to-end test of the tutor in the desktop app under Xvfb: with the tutor on (the header
//! bar's toggle, saved in the settings), the opening position with 31 to play is pasted as an
//! XGID; the checkers are dragged to play the blunder 6/5 6/3; the tutor's warning opens (the
//! window keeps drawing behind it) and says how much the play loses and that 8/5 6/5 is best;
//! Reconsider takes the checkers back and the decision is Anna's again; the same blunder once
//! more, Keep plays it; after the bot's turn, Anna's roll is judged (she could double) and,
//! doubling being wrong this early, rolled without a warning. With
//! `CUBEFUL_UPDATE_SCREENSHOT=1` the screenshot of the warning replaces `docs/tutor.png`.
//!
//! Needs `Xvfb`, `xdotool`, ImageMagick's `import` and `convert`, and `xclip`, like the other
//! GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::process::Command;
use std::thread::sleep;
use std::time::Duration;

use common::{App, Launch};
use cubeful_engine::game::match_state::MatchState;
use cubeful_engine::{position_id, xgid, Dice, Player, Position};
use serde_json::Value;

/// Drags a checker of the bottom player from point `from` to point `to` (his numbering) and
/// waits until the board took the step.
fn drag(app: &App, from: u8, to: u8) {
    let s = app.state();
    let points = &s["tutor"]["points_xy"];
    let played = s["partial"].as_array().map_or(0, Vec::len);
    app.drag(&points[usize::from(from) - 1], &points[usize::from(to) - 1]);
    app.wait_for("the step to be played", 10, |s| {
        s["partial"].as_array().map_or(0, Vec::len) > played
    });
}

/// Waits until the board has stopped moving (the side pane opens beside it with a match) and
/// returns the state.
fn settled_board(app: &App) -> Value {
    let mut last = Value::Null;
    for _ in 0..50 {
        sleep(Duration::from_millis(400));
        let s = app.state();
        let points = s["tutor"]["points_xy"].clone();
        if points[23].is_array() && points == last {
            return s;
        }
        last = points;
    }
    panic!("the board keeps moving: {last}");
}

/// Plays 6/5 6/3 with the mouse and clicks the dice to finish; returns the state once the
/// tutor's warning is on screen with its buttons laid out.
fn play_the_blunder(app: &App) -> Value {
    settled_board(app);
    drag(app, 6, 5);
    drag(app, 6, 3);
    let s = app.wait_for("a complete move", 5, |s| s["can_finish"] == true);
    app.click(&s["dice_xy"]);
    app.wait_for("the tutor's warning", 60, |s| {
        s["tutor"]["dialog"]["visible"] == true && s["tutor"]["dialog"]["keep_xy"].is_array()
    })
}

/// Screen position of the top-left corner of the X window titled `title`.
fn window_origin(app: &App, title: &str) -> (i64, i64) {
    let out = Command::new("xdotool")
        .args([
            "search",
            "--onlyvisible",
            "--name",
            title,
            "getwindowgeometry",
        ])
        .env("DISPLAY", &app.display)
        .output()
        .expect("xdotool runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let pos = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Position: "))
        .unwrap_or_else(|| panic!("no window {title}: {text}"));
    let xy: Vec<i64> = pos
        .split(|c: char| !c.is_ascii_digit() && c != '-')
        .filter_map(|n| n.parse().ok())
        .collect();
    (xy[0], xy[1])
}

/// Clicks a button of the tutor's dialog (`button`: `reconsider_xy` or `keep_xy`, in the
/// dialog's coordinates) until the dialog is gone; returns the state then. (A window that has
/// just appeared may not take the first click yet, without a window manager.)
fn click_dialog(app: &App, button: &str) -> Value {
    for _ in 0..5 {
        sleep(Duration::from_millis(300));
        let s = app.state();
        let xy = &s["tutor"]["dialog"][button];
        let (ox, oy) = window_origin(app, "^The Tutor$");
        let x = ox + xy[0].as_f64().expect("x") as i64;
        let y = oy + xy[1].as_f64().expect("y") as i64;
        app.xdotool(&["mousemove", &x.to_string(), &y.to_string()]);
        sleep(Duration::from_millis(150));
        app.xdotool(&["click", "1"]);
        for _ in 0..20 {
            let s = app.state();
            if s["tutor"]["dialog"].is_null() {
                return s;
            }
            sleep(Duration::from_millis(100));
        }
    }
    panic!(
        "the tutor's dialog does not take the click on {button}: {:#}",
        app.state()
    );
}

#[test]
fn the_tutor_warns_about_a_blunder() {
    let Some(app) = Launch::new("gtk-e2e-tutor")
        .settings(
            "(player_name: \"Anna\", level: \"expert\", animate: false, tutor_level: \"expert\", \
             window: (width: 1000, height: 820))",
        )
        .seed(3)
        .start()
    else {
        return;
    };
    let s = app.state();
    assert_eq!(s["tutor"]["on"], false, "the tutor is off by default");

    // The header bar's toggle turns the tutor on, and the setting is saved.
    let s = app.wait_for("the tutor's toggle", 10, |s| {
        s["tutor"]["toggle_xy"].is_array()
    });
    assert_eq!(s["tutor"]["toggle_active"], false);
    let s = app.click_until(&s["tutor"]["toggle_xy"], "the tutor on", 5, |s| {
        s["tutor"]["on"] == true
    });
    assert_eq!(s["tutor"]["toggle_active"], true);
    let saved = std::fs::read_to_string(app.work.join("config/cubeful/gtk-settings.ron"))
        .expect("the settings are saved");
    assert!(saved.contains("tutor: true"), "{saved}");

    // The opening position, Anna (player 1, at the bottom) to play 31 in a money session.
    let mut state = MatchState::money();
    state.on_roll = Player::One;
    state.turn = Player::One;
    state.dice = Some(Dice::new(3, 1).unwrap());
    let start = position_id::encode(&Position::starting());
    app.set_clipboard(&xgid::encode(&Position::starting(), &state));
    app.key("ctrl+v");
    app.wait_for("Anna to play 31", 30, |s| {
        common::human_to_act(s)
            && common::decision(s).starts_with("Move")
            && s["tutor"]["points_xy"][23].is_array()
    });

    // The blunder: the tutor warns, nothing is played yet.
    let s = play_the_blunder(&app);
    let dialog = &s["tutor"]["dialog"];
    assert_eq!(dialog["title"], "The Tutor");
    let text = dialog["text"].as_str().unwrap_or("");
    assert!(
        text.starts_with("This play is ") && text.ends_with(" equity."),
        "{s:#}"
    );
    assert_eq!(dialog["better"], "The best play is 8/5 6/5.");
    assert_eq!(s["tutor"]["warning"]["chosen"], "6/5 6/3");
    assert_eq!(s["game"]["position_id"].as_str(), Some(start.as_str()));
    assert_eq!(
        s["status"],
        "The tutor warns: reconsider or keep your choice."
    );

    // The warning beside the board, for the manual.
    sleep(Duration::from_millis(500));
    let (ox, oy) = window_origin(&app, "^The Tutor$");
    let dialog_id = String::from_utf8_lossy(
        &Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", "^The Tutor$"])
            .env("DISPLAY", &app.display)
            .output()
            .expect("xdotool runs")
            .stdout,
    )
    .lines()
    .next()
    .unwrap_or_default()
    .to_string();
    app.xdotool(&["windowmove", &dialog_id, "540", "300"]);
    app.wait_for("the dialog moved", 10, |_| {
        window_origin(&app, "^The Tutor$") != (ox, oy)
    });
    sleep(Duration::from_millis(500));
    let shot = app.work.join("tutor.png");
    let took = Command::new("import")
        .args(["-window", "root"])
        .arg(&shot)
        .env("DISPLAY", &app.display)
        .status()
        .is_ok_and(|s| s.success());
    assert!(took, "import takes the screenshot");
    let cropped = Command::new("convert")
        .arg(&shot)
        .args(["-crop", "1000x820+0+0", "+repage"])
        .arg(&shot)
        .status()
        .is_ok_and(|s| s.success());
    assert!(cropped, "ImageMagick's convert crops the screenshot");
    if std::env::var_os("CUBEFUL_UPDATE_SCREENSHOT").is_some() {
        let docs = common::repo_root().join("docs");
        std::fs::copy(&shot, docs.join("tutor.png")).expect("docs/ is writable");
    }

    // Reconsider: the checkers go back, Anna plays the roll again.
    click_dialog(&app, "reconsider_xy");
    let s = app.wait_for("the warning to go", 10, |s| {
        s["tutor"]["dialog"].is_null()
            && s["partial"].as_array().is_some_and(Vec::is_empty)
            && common::human_to_act(s)
    });
    assert_eq!(s["game"]["position_id"].as_str(), Some(start.as_str()));
    assert!(common::decision(&s).starts_with("Move"), "{s:#}");
    assert_eq!(s["tutor"]["warning"], Value::Null);

    // The same blunder again, kept: it is played.
    play_the_blunder(&app);
    click_dialog(&app, "keep_xy");
    let s = app.wait_for("the blunder to be played", 30, |s| {
        s["tutor"]["dialog"].is_null()
            && s["game"]["log"].as_array().is_some_and(|l| {
                l.iter()
                    .any(|e| e.as_str().is_some_and(|e| e.contains("6/5 6/3")))
            })
    });
    assert_ne!(s["game"]["position_id"].as_str(), Some(start.as_str()));

    // The bot plays; Anna's roll is judged too, as she could double instead: not doubling is
    // right this early, so the dice are rolled without a warning.
    app.wait_for("Anna to roll", 60, |s| {
        common::human_to_act(s) && common::decision(s).starts_with("Roll")
    });
    app.key("ctrl+r");
    let s = app.wait_for("Anna's dice", 30, |s| {
        common::human_to_act(s) && common::decision(s).starts_with("Move")
    });
    assert!(s["tutor"]["dialog"].is_null(), "{s:#}");
    // `--seed` holds for a game pasted in too: the same dice on every run (a roll that
    // leaves Anna dancing would turn the wait above into a double to answer).
    let log: Vec<&str> = s["game"]["log"]
        .as_array()
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(
        log.contains(&"Cubeful rolls 6-2.") && log.contains(&"Anna rolls 2-2."),
        "{log:?}"
    );
    assert_eq!(s["tutor"]["warning"], Value::Null);
}
