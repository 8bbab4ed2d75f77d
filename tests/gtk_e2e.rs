//! End-to-end test of the desktop application under Xvfb (built as the `e2e` test of
//! `crates/gtk`): starts `cubeful` on a private X server, starts a match with Ctrl+N and Enter,
//! rolls by clicking the board, drags checkers with xdotool (mouse down, moves, mouse up) until
//! the move is complete, clicks the dice to finish, and checks through the `--debug-state` file
//! that the move played is one the engine calls legal, that the status line says the move is
//! complete before it is played, that the bot answered and its dice stay on the board until
//! we roll, and that the board never changed size once the match was under way (it must not
//! jump while the buttons below it come and go). It takes a screenshot while a checker is lifted (legal targets
//! highlighted) and one at the end; with `CUBEFUL_UPDATE_SCREENSHOT=1` the first one replaces
//! `docs/screenshot.png`.
//!
//! Needs `Xvfb`, `xdotool` and ImageMagick's `import` (Debian: xvfb, xdotool, imagemagick).
//! Without them the test says so loudly and passes, so that `cargo test` works on a machine
//! without a display stack; under CI (`CI` set) it fails instead, and `.ci/run` installs them.

#[path = "e2e_common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::thread::sleep;
use std::time::Duration;

use common::{decision, human_to_act, Launch};
use cubeful_engine::formats::notation::parse_move;
use cubeful_engine::{position_id, Dice};
use serde_json::Value;

#[test]
fn play_a_move_with_the_mouse() {
    // A name for the screenshot, and the bot at a fast level.
    let Some(app) = Launch::new("gtk-e2e")
        .settings("(player_name: \"Anna\", level: \"expert\", window: (width: 1000, height: 820))")
        .seed(11)
        .with_match()
        .start()
    else {
        return;
    };

    // Our turn: roll by clicking the board if needed.
    let s = app.wait_for("our turn", 60, human_to_act);
    // The board's sizes so far: the side pane beside it may have appeared with the match.
    let sizes_at_start = s["sizes"].as_array().map_or(0, Vec::len);
    if decision(&s).starts_with("Roll") {
        app.click(&s["roll_xy"]);
        app.wait_for("the dice", 20, |s| decision(s).starts_with("Move"));
    }
    let s = app.wait_for("our move", 20, |s| {
        human_to_act(s) && decision(s).starts_with("Move")
    });
    let before = s["game"]["position_id"].as_str().unwrap().to_string();
    let dice = s["game"]["dice"].as_array().unwrap().clone();
    let dice = Dice::new(
        dice[0].as_u64().unwrap() as u8,
        dice[1].as_u64().unwrap() as u8,
    )
    .unwrap();

    // Drag checkers until the move is complete.
    let mut shot_taken = false;
    for _ in 0..4 {
        let s = app.state();
        if s["can_finish"] == true {
            break;
        }
        let step = &s["step"];
        assert!(step.is_object(), "no legal step offered: {s:#}");
        let played = s["partial"].as_array().map_or(0, Vec::len);
        app.press_and_move(&step["from_xy"], &step["to_xy"]);
        if !shot_taken {
            // The checker is lifted and its legal targets are highlighted.
            sleep(Duration::from_millis(300));
            let path = app.work.join("dragging.png");
            app.screenshot(&path);
            if std::env::var_os("CUBEFUL_UPDATE_SCREENSHOT").is_some() {
                let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs");
                std::fs::copy(&path, docs.join("screenshot.png")).expect("docs/ is writable");
            }
            shot_taken = true;
        }
        app.xdotool(&["mouseup", "1"]);
        app.wait_for("the step to be played", 10, |s| {
            s["partial"].as_array().map_or(0, Vec::len) > played
        });
    }
    let s = app.wait_for("a complete move", 5, |s| s["can_finish"] == true);
    assert!(!s["partial"].as_array().unwrap().is_empty() || s["step"].is_null());
    let status = s["status"].as_str().unwrap_or("");
    assert!(
        status.contains("the move is complete"),
        "the status line says what to do now: {status:?}"
    );

    // Finish by clicking the dice.
    app.click(&s["dice_xy"]);
    let s = app.wait_for("our move to be played", 20, |s| {
        s["game"]["position_id"].as_str() != Some(before.as_str())
    });
    let played = s["game"]["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .rev()
        .find_map(|l| l.strip_prefix("Anna plays "))
        .expect("the log tells our move")
        .trim_end_matches('.')
        .to_string();
    let start_position = position_id::decode(&before).unwrap();
    parse_move(&start_position, dice, &played).unwrap_or_else(|e| {
        panic!("the app played {played:?} with {dice}, which is not legal: {e}")
    });

    // The bot answers and it is our turn again (or the bot doubled, or the game ended).
    let s = app.wait_for("the bot's answer", 60, |s| {
        let log: Vec<&str> = s["game"]["log"]
            .as_array()
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let ours = log.iter().rposition(|l| l.starts_with("Anna plays "));
        let bot_after = ours.is_some_and(|i| log[i..].iter().any(|l| l.starts_with("Cubeful ")));
        s["busy"] == false && bot_after
    });
    assert!(
        s["game"]["human_to_act"] == 1 || decision(&s).contains("NewGame"),
        "{s:#}"
    );
    let last = s["game"]["log"].as_array().and_then(|l| l.last()).cloned();
    let bot_moved = last
        .as_ref()
        .and_then(Value::as_str)
        .is_some_and(|l| l.starts_with("Cubeful plays ") || l.contains("cannot move"));
    if decision(&s).starts_with("Roll") && bot_moved {
        // The bot moved: its dice stay in its half (the top player's) until we roll.
        assert_eq!(s["dice"]["seat"], "top", "{s:#}");
    }
    app.screenshot(&app.work.join("after.png"));
    let sizes = s["sizes"].as_array().expect("the board's sizes");
    assert_eq!(
        sizes.len(),
        sizes_at_start,
        "the board changed size while playing: {sizes:?}"
    );
}
