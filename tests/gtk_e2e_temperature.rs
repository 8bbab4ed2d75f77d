//! End-to-end test of the study tools in the desktop app under Xvfb: a position pasted with
//! Ctrl+V (a money game, the person on roll before rolling: a cube decision), its temperature
//! map opened with Ctrl+Shift+T and compared roll by roll with the engine's
//! `temperature_map` (no double) and `temperature_maps_for_cube` (double/take) at 0-ply, the
//! map window closed with Escape; then the hint window's "Rollout" level: the rollout reports
//! its trials and the Stop button stops it. With `CUBEFUL_UPDATE_SCREENSHOT=1` the screenshot
//! of the map window replaces `docs/temperature-map.png`.
//!
//! Needs `Xvfb`, `xdotool`, ImageMagick's `import` and `xclip`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::process::Command;
use std::sync::Arc;
use std::thread::sleep;
use std::time::Duration;

use common::{App, Launch};
use cubeful_engine::analysis::analyse::AnalysisLevel;
use cubeful_engine::analysis::hint::cube_context;
use cubeful_engine::analysis::temperature::{
    temperature_map, temperature_maps_for_cube, TemperatureMap,
};
use cubeful_engine::eval::Nets;
use cubeful_engine::game::match_state::MatchState;
use cubeful_engine::search::Search;
use cubeful_engine::{gnubg_id, position_id, Player, Position};
use serde_json::Value;

/// The player on roll has made his 5-point (the opening 31 played), the opponent is as at the
/// start: contact everywhere, so that no bearoff database changes an evaluation.
fn position() -> Position {
    let mut mine = [0u8; 25];
    (mine[4], mine[5], mine[7], mine[12], mine[23]) = (2, 4, 2, 5, 2);
    let mut theirs = [0u8; 25];
    (theirs[5], theirs[7], theirs[12], theirs[23]) = (5, 3, 5, 2);
    Position::from_sides(&mine, &theirs).expect("a valid position")
}

/// The X window id of the app's window titled `title`.
fn window_id(app: &App, title: &str) -> Option<String> {
    let out = Command::new("xdotool")
        .args(["search", "--name", title])
        .env("DISPLAY", &app.display)
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .map(str::to_string)
}

/// Checks the cells of a map in the debug state against the engine's map.
fn check_map(shown: &Value, expected: &TemperatureMap, what: &str) {
    let cells = shown["cells"].as_array().expect("cells");
    assert_eq!(cells.len(), 21, "{what}: 21 rolls");
    for (cell, e) in cells.iter().zip(expected.entries()) {
        assert_eq!(cell["roll"], e.dice.to_string(), "{what}: the rolls' order");
        assert_eq!(cell["play"], e.text, "{what}: the best play of {}", e.dice);
        let equity = cell["equity"].as_f64().expect("equity");
        assert!(
            (equity - f64::from(e.equity)).abs() < 1e-4,
            "{what}: the equity of {}: {equity} shown, {} expected",
            e.dice,
            e.equity
        );
        assert_eq!(cell["rank"], e.rank, "{what}: the rank of {}", e.dice);
    }
    let average = shown["average"].as_f64().expect("average");
    assert!(
        (average - f64::from(expected.average)).abs() < 1e-4,
        "{what}: the average"
    );
}

#[test]
fn temperature_map_and_hint_rollout() {
    let Some(app) = Launch::new("gtk-e2e-temperature")
        .settings("(player_name: \"Anna\", level: \"expert\", animate: false, window: (width: 1000, height: 820))")
        .seed(5)
        .start()
    else {
        return;
    };

    // Money play, cube centred, Anna (the bottom player) on roll before rolling.
    let position = position();
    let mut state = MatchState::money();
    state.on_roll = Player::One;
    state.turn = Player::One;
    let id = gnubg_id::encode(&position, &state);
    app.set_clipboard(&id);
    app.key("ctrl+v");
    let s = app.wait_for("the pasted position", 20, |s| {
        s["game"]["gnubg_id"].as_str() == Some(id.as_str()) && common::human_to_act(s)
    });
    assert!(common::decision(&s).starts_with("Roll"), "{s:#}");

    // Ctrl+Shift+T: the two maps of the cube decision at 0-ply. (Without a window manager
    // the keys go to the window under the pointer.)
    app.hover(&s["roll_xy"]);
    sleep(Duration::from_millis(300));
    app.key("ctrl+shift+t");
    let s = app.wait_for("the temperature map", 60, |s| {
        s["temperature"]["open"] == true
            && s["temperature"]["computing"] == false
            && s["temperature"]["cells"] == 21
    });
    let t = &s["temperature"];
    assert_eq!(t["level"], 0, "0-ply by default");
    assert_eq!(t["cube"], true, "a cube decision: {t:#}");
    assert_eq!(t["page"], "maps");
    assert_eq!(t["progress"], serde_json::json!([42, 42]));
    assert_eq!(t["position_id"], position_id::encode(&position));
    let (engine_position, engine_state): (Position, MatchState) =
        gnubg_id::decode(&id).expect("the ID decodes");
    let ctx = cube_context(&engine_state, true);
    let settings = *AnalysisLevel::plies(0).eval_settings();
    let mut search = Search::new(Arc::new(Nets::embedded()));
    let no_double = temperature_map(&mut search, &engine_position, &ctx, &settings);
    let (_, double_take) =
        temperature_maps_for_cube(&mut search, &engine_position, &ctx, &settings)
            .expect("the player on roll may double");
    let maps = t["maps"].as_array().expect("the maps");
    assert_eq!(maps.len(), 2);
    check_map(&maps[0], &no_double, "no double");
    check_map(&maps[1], &double_take, "double/take");

    // The map window, for the manual (docs/temperature-map.png), without a tooltip.
    app.xdotool(&["mousemove", "1270", "890"]);
    sleep(Duration::from_millis(800));
    let shot = app.work.join("temperature-map.png");
    let map_window = window_id(&app, "^Temperature Map$");
    let status = Command::new("import")
        .args(["-window", map_window.as_deref().unwrap_or("root")])
        .arg(&shot)
        .env("DISPLAY", &app.display)
        .status()
        .expect("import runs");
    assert!(status.success());
    assert!(std::fs::metadata(&shot).map_or(0, |m| m.len()) > 20_000);
    if std::env::var_os("CUBEFUL_UPDATE_SCREENSHOT").is_some() {
        let docs = common::repo_root().join("docs");
        std::fs::copy(&shot, docs.join("temperature-map.png")).expect("docs/ is writable");
    }

    // Escape closes it.
    let (_, (ox, oy)) = window_origin(&app, "^Temperature Map$");
    app.xdotool(&[
        "mousemove",
        &(ox + 300).to_string(),
        &(oy + 300).to_string(),
    ]);
    sleep(Duration::from_millis(300));
    app.key("Escape");
    let s = app.wait_for("the map window to close", 10, |s| {
        s["temperature"]["open"] == false
    });

    // The hint window, then its level menu's last entry, "Rollout": the trials come in, and
    // Stop stops the rollout.
    app.hover(&s["roll_xy"]);
    sleep(Duration::from_millis(300));
    app.key("ctrl+h");
    app.wait_for("the hint", 60, |s| {
        s["hint"]["open"] == true && s["hint"]["page"] == "cube"
    });
    sleep(Duration::from_millis(500));
    choose_rollout(&app);
    let s = app.wait_for("the rollout's trials", 60, |s| {
        s["hint"]["rollout"] == true
            && s["hint"]["running"] == true
            && s["hint"]["trials"][0].as_u64().is_some_and(|t| t > 0)
    });
    let target = s["hint"]["trials"][1].as_u64().expect("the trial limit");
    assert_eq!(target, 1296, "the app's rollout settings: {s:#}");
    press_stop(&app);
    let s = app.wait_for("the rollout to stop", 20, |s| {
        s["hint"]["page"] == "stopped" && s["hint"]["running"] == false
    });
    assert_eq!(s["hint"]["rollout"], true);
}

/// The screen position of the app's window titled `title`, and its X id.
fn window_origin(app: &App, title: &str) -> (String, (i64, i64)) {
    let id = window_id(app, title).unwrap_or_else(|| panic!("no window {title}"));
    let out = Command::new("xdotool")
        .args(["getwindowgeometry", &id])
        .env("DISPLAY", &app.display)
        .output()
        .expect("xdotool runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let xy: Vec<i64> = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Position: "))
        .map(|pos| {
            pos.split(|c: char| !c.is_ascii_digit() && c != '-')
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let origin = (
        xy.first().copied().unwrap_or(0),
        xy.get(1).copied().unwrap_or(0),
    );
    (id, origin)
}

/// Clicks the point `xy` (from the debug state, in the coordinates of the window `title`).
fn click_in(app: &App, title: &str, xy: &Value) {
    let (_, (ox, oy)) = window_origin(app, title);
    let x = ox + xy[0].as_f64().expect("x") as i64;
    let y = oy + xy[1].as_f64().expect("y") as i64;
    app.xdotool(&["mousemove", &x.to_string(), &y.to_string()]);
    sleep(Duration::from_millis(150));
    app.xdotool(&["click", "1"]);
}

/// Picks "Rollout", the last entry of the hint window's level menu: a click opens the menu,
/// End goes to its last entry and Return picks it.
fn choose_rollout(app: &App) {
    let s = app.wait_for("the level menu's place", 10, |s| {
        s["hint"]["level_xy"].is_array()
    });
    click_in(app, "^Hint$", &s["hint"]["level_xy"]);
    sleep(Duration::from_millis(600));
    app.key("End");
    sleep(Duration::from_millis(200));
    app.key("Return");
}

/// Presses the hint window's Stop button.
fn press_stop(app: &App) {
    let s = app.wait_for("the Stop button's place", 10, |s| {
        s["hint"]["stop_xy"].is_array()
    });
    click_in(app, "^Hint$", &s["hint"]["stop_xy"]);
}
