//! End-to-end test of setting up positions in the desktop app under Xvfb: a GNU Backgammon ID
//! and an XGID put on the clipboard (with xclip) and pasted with Ctrl+V set the board, the
//! match state with them; a text that is neither says so in one sentence and changes nothing;
//! the bar under the board shows both IDs of the position and its button copies the XGID.
//!
//! Needs `Xvfb`, `xdotool`, ImageMagick's `import` and `xclip`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::thread::sleep;
use std::time::Duration;

use common::Launch;
use cubeful_engine::game::match_state::MatchState;
use cubeful_engine::{gnubg_id, position_id, xgid, CubeOwner, Player, Position};

/// A bearoff race: the same home boards for both players.
fn race() -> Position {
    let home = [
        2, 3, 3, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    Position::from_sides(&home, &home).unwrap()
}

#[test]
fn ids_pasted_with_ctrl_v_set_the_board() {
    let Some(app) = Launch::new("gtk-e2e-position")
        .settings("(player_name: \"Anna\", level: \"expert\", animate: false, window: (width: 1000, height: 820))")
        .seed(3)
        .start()
    else {
        return;
    };
    assert!(app.state()["game"].is_null(), "no match at the start");

    // A 7-point match at 2–4, Anna (player 1, the bottom) on roll with the cube at 2, hers.
    let mut state = MatchState::new_match(7);
    state.score = [2, 4];
    state.on_roll = Player::One;
    state.turn = Player::One;
    state.cube_log2 = 1;
    state.cube_owner = CubeOwner::Owned(Player::One);
    let id = gnubg_id::encode(&race(), &state);
    app.set_clipboard(&format!("GNUbg ID: {id}\n"));
    app.key("ctrl+v");
    let s = app.wait_for("the pasted position", 20, |s| {
        s["game"]["gnubg_id"].as_str() == Some(id.as_str())
    });
    assert_eq!(s["game"]["score"], serde_json::json!([2, 4]));
    assert_eq!(s["game"]["human_to_act"], 1, "{s:#}");
    // The bar under the board shows both IDs of the position; its buttons copy them.
    let s = app.wait_for("the IDs under the board", 10, |s| {
        s["ids"]["gnubg_id"].as_str() == Some(id.as_str())
    });
    let xgid_shown = xgid::encode(&race(), &state);
    assert_eq!(s["ids"]["xgid"].as_str(), Some(xgid_shown.as_str()));
    // Once the window has settled after the paste, the button where it is now.
    sleep(Duration::from_millis(800));
    app.key("Page_Up");
    app.key("Escape");
    let s = app.wait_for("the live position again", 10, |s| {
        s["record"]["selected_entry"] == -1 && s["ids"]["copy_xy"][1].is_array()
    });
    app.click(&s["ids"]["copy_xy"][1]);
    let mut copied = String::new();
    for _ in 0..20 {
        copied = app.clipboard();
        if copied == xgid_shown {
            break;
        }
        sleep(Duration::from_millis(200));
    }
    assert_eq!(copied, xgid_shown, "the XGID copied: {}", s["ids"]);
    assert_eq!(s["record"]["selected_text"], serde_json::Value::Null);

    // A Position ID alone: the checkers move, the match stays (a set-up in its record).
    let mut fewer = [0u8; 25];
    fewer[0] = 3;
    fewer[1] = 2;
    let small = Position::from_sides(&fewer, &fewer).unwrap();
    app.set_clipboard(&position_id::encode(&small));
    app.key("ctrl+v");
    let s = app.wait_for("the checkers set up", 20, |s| {
        s["game"]["position_id"].as_str() == Some(position_id::encode(&small).as_str())
    });
    assert_eq!(
        s["game"]["score"],
        serde_json::json!([2, 4]),
        "the same match"
    );

    // Something else: one sentence, nothing changed.
    app.set_clipboard("the best move is 8/5 6/5");
    app.key("ctrl+v");
    let s = app.wait_for("the message", 20, |s| {
        s["toast"]
            .as_str()
            .is_some_and(|t| t.contains("not a Position ID"))
    });
    assert_eq!(
        s["game"]["position_id"].as_str(),
        Some(position_id::encode(&small).as_str())
    );

    // Typed into the bar under the board: the GNU Backgammon ID field takes a Position ID too.
    let typed = Position::from_points(&[(1, 2), (2, 2)], &[(1, 1), (3, 2)]).unwrap();
    let typed_id = position_id::encode(&typed);
    let s = app.wait_for("the ID fields", 10, |s| s["ids"]["entry_xy"][0].is_array());
    app.click(&s["ids"]["entry_xy"][0]);
    sleep(Duration::from_millis(300));
    app.key("ctrl+a");
    app.type_text(&typed_id);
    app.key("Return");
    app.wait_for("the typed position", 20, |s| {
        s["game"]["position_id"].as_str() == Some(typed_id.as_str())
            && s["position_id"].as_str() == Some(typed_id.as_str())
    });

    // An XGID: a money game with the bot on roll. It would replace the unsaved match, so the
    // app asks first: Cancel keeps the match, Discard lets the XGID in, and the bot plays.
    let mut money = MatchState::money();
    money.on_roll = Player::Zero;
    money.turn = Player::Zero;
    let x = xgid::encode(&Position::starting(), &money);
    app.set_clipboard(&x);
    app.key("ctrl+v");
    app.wait_for("the Save / Discard / Cancel question", 10, |s| {
        s["files"]["confirm_open"] == true
    });
    sleep(Duration::from_millis(500));
    app.key("Escape");
    let s = app.wait_for("the question to close", 10, |s| {
        s["files"]["confirm_open"] == false
    });
    assert_eq!(
        s["game"]["score"],
        serde_json::json!([2, 4]),
        "the match kept"
    );
    app.key("ctrl+v");
    app.wait_for("the question again", 10, |s| {
        s["files"]["confirm_open"] == true
    });
    sleep(Duration::from_millis(500));
    app.key("alt+d");
    app.wait_for("the money game from the XGID, the bot moving", 60, |s| {
        s["game"]["score"] == serde_json::json!([0, 0])
            && s["game"]["human_to_act"] == 1
            && s["game"]["position_id"].as_str() != Some(position_id::encode(&small).as_str())
    });
}
