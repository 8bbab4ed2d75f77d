//! End-to-end test of two people at one board under Xvfb: with the preference on (the
//! default), the board turns to the player on roll — the position on screen is the one the
//! player on roll sees, the dice are in the bottom half — and each player drags their own
//! checkers from the bottom. `CUBEFUL_UPDATE_SCREENSHOT=1` keeps the turned board as
//! `docs/two-people.png`.
//!
//! Needs `Xvfb`, `xdotool`, ImageMagick's `import` and `xclip`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::collections::HashSet;
use std::thread::sleep;
use std::time::Duration;

use common::{decision, App, Launch};
use serde_json::Value;

/// A person (either) is to act and nothing is running.
fn someone_to_act(s: &Value) -> bool {
    s["game"]["human_to_act"].is_number() && s["busy"] == false
}

/// Drags the checkers of the player moving along the steps the state offers until the move
/// is complete, then clicks the dice; returns once the move is played.
fn play_a_move(app: &App) {
    let s = app.state();
    let before = s["game"]["position_id"].as_str().unwrap_or("").to_string();
    for _ in 0..4 {
        let s = app.state();
        if s["can_finish"] == true {
            break;
        }
        let step = &s["step"];
        assert!(step.is_object(), "no legal step offered: {s:#}");
        let played = s["partial"].as_array().map_or(0, Vec::len);
        app.drag(&step["from_xy"], &step["to_xy"]);
        app.wait_for("the step to be played", 10, |s| {
            s["partial"].as_array().map_or(0, Vec::len) > played
        });
    }
    let s = app.wait_for("a complete move", 5, |s| s["can_finish"] == true);
    app.click(&s["dice_xy"]);
    app.wait_for("the move to be played", 20, |s| {
        s["game"]["position_id"].as_str() != Some(before.as_str())
    });
}

#[test]
fn the_board_turns_to_the_player_on_roll() {
    let Some(app) = Launch::new("gtk-e2e-seats")
        .settings(
            "(player_name: \"Anna\", opponent_name: \"Bert\", animate: false, \
             new_match: (human_vs_human: true), window: (width: 1000, height: 820))",
        )
        .seed(3)
        .with_match()
        .start()
    else {
        return;
    };
    // The new-match dialog is gone before the first drag.
    sleep(Duration::from_millis(1500));

    let mut movers = HashSet::new();
    for turn in 0..4 {
        let s = app.wait_for("a person to act", 30, someone_to_act);
        if decision(&s).starts_with("Roll") {
            // The next player's roll: the board has turned to them already.
            assert_eq!(s["bottom_player"], s["game"]["on_roll"], "{s:#}");
            app.click(&s["roll_xy"]);
        }
        let s = app.wait_for("a move", 20, |s| {
            someone_to_act(s) && decision(s).starts_with("Move") && s["step"].is_object()
        });
        let on_roll = s["game"]["on_roll"].as_u64().unwrap();
        // The player on roll sits at the bottom: the board shows the position as they see it
        // (the Position ID is from the player on roll), with their dice in the bottom half.
        assert_eq!(s["bottom_player"], on_roll, "{s:#}");
        assert_eq!(s["shown"]["position_id"], s["game"]["position_id"]);
        assert_eq!(s["dice"]["seat"], "bottom", "{s:#}");
        movers.insert(on_roll);
        // Player 0 (Bert) at the bottom, in his own colour, after the first moves.
        if turn == 2 && std::env::var_os("CUBEFUL_UPDATE_SCREENSHOT").is_some() {
            let shot = app.work.join("two-people.png");
            app.screenshot(&shot);
            let docs = common::repo_root().join("docs");
            std::fs::copy(&shot, docs.join("two-people.png")).expect("docs/ is writable");
        }
        play_a_move(&app);
    }
    assert_eq!(movers.len(), 2, "both players moved from the bottom");
}
