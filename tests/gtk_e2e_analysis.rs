//! End-to-end tests of the analysis in the desktop app.
//!
//! (a) `cubeful FILE` opens an analysed match (GNU Backgammon's SGF from the shared corpus);
//! Ctrl+Page Down selects a marked action and the analysis pane lists its candidate plays with
//! the play made marked; Ctrl+I opens the statistics window, Ctrl+G the equity graph, and Escape closes each. With
//! `CUBEFUL_UPDATE_SCREENSHOT=1` the three screenshots replace `docs/analysis-pane.png`,
//! `docs/statistics.png` and `docs/equity-graph.png`.
//!
//! (b) A `.mat` match without analysis is opened and analysed at 2-ply, World Class, the default (Ctrl+Shift+A) while
//! the test keeps browsing with Page Up / Page Down: the selection moves while the analysis
//! runs, the results are stored (marks, analysis in the record) and the longest time the main
//! loop was held up during the analysis is printed (docs/BENCHMARKS.md).
//!
//! (c) A match is played against the bot in the app (six of our turns), then analysed in the
//! background at 3-ply while the test browses back through it with Page Up: the selection moves
//! while the analysis runs, and every action of the fresh record is analysed and stored.
//!
//! Needs `Xvfb`, `xdotool` and ImageMagick's `import` and `convert`, like the other GUI tests.

#[path = "e2e_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::{App, Launch};

fn corpus(path: &str) -> PathBuf {
    cubeful_testkit::shared_path("corpus").join(path)
}

/// The X id of the visible window titled `title`.
fn window_named(app: &App, title: &str) -> String {
    let out = Command::new("xdotool")
        .args(["search", "--onlyvisible", "--name", title])
        .env("DISPLAY", &app.display)
        .output()
        .expect("xdotool runs");
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .next()
        .unwrap_or_else(|| panic!("no window named {title}"))
        .trim()
        .to_string()
}

/// A screenshot of X window `id` as `path`, copied to docs/`name` when asked.
fn screenshot(app: &App, id: &str, path: &Path, name: &str) {
    let status = Command::new("import")
        .args(["-window", id])
        .arg(path)
        .env("DISPLAY", &app.display)
        .status()
        .expect("import runs");
    assert!(status.success());
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 8_000,
        "{} is too small ({size} bytes)",
        path.display()
    );
    if std::env::var_os("CUBEFUL_UPDATE_SCREENSHOT").is_some() {
        let docs = common::repo_root().join("docs");
        std::fs::copy(path, docs.join(name)).expect("docs/ is writable");
    }
}

#[test]
fn the_analysis_pane_statistics_and_graph_show_a_stored_analysis() {
    // The analysis level chosen last time (3-ply) comes back from the settings.
    let Some(app) = Launch::new("gtk-e2e-analysis-a")
        .settings("(window: (width: 1200, height: 800), analysis_plies: 3)")
        .arg(corpus("sgf/gnubg-scripts_match1486073_analyzed.sgf"))
        .start()
    else {
        return;
    };
    app.wait_for("the match in the record pane", 60, |s| {
        s["record"]["games"] == 2 && s["record"]["pane_rows"].as_u64().unwrap_or(0) > 0
    });
    let s = app.state();
    assert_eq!(s["analysis"]["pane_level"], 3);
    // Nothing selected: the pane says how to get an analysis.
    assert_eq!(s["analysis"]["pane_candidates"], 0);
    assert!(s["analysis"]["analysed_entries"].as_u64().unwrap() > 100);

    app.xdotool(&["windowfocus", &window_named(&app, "Cubeful$")]);
    // Home, then Ctrl+Page Down: the first marked action of the last game.
    app.key("Home");
    app.wait_for("the first action", 10, |s| {
        s["record"]["selected_entry"] == 0
    });
    app.key("ctrl+Page_Down");
    let s = app.wait_for("a marked action with its candidates", 10, |s| {
        s["record"]["selected_entry"].as_i64().unwrap_or(0) > 0
            && s["analysis"]["pane_candidates"].as_u64().unwrap_or(0) > 1
    });
    let text = s["record"]["selected_text"].as_str().unwrap_or("");
    assert!(text.ends_with("7/4 6/5?!"), "{text}");
    let heading = s["analysis"]["pane_heading"].as_str().unwrap_or("");
    assert!(heading.ends_with("7/4 6/5"), "{heading}");
    // A doubtful play is not the best: the play made is ranked lower, and marked.
    let played = s["analysis"]["pane_played"]
        .as_u64()
        .expect("the play made is listed");
    assert!(played > 0, "{s:#}");

    sleep(Duration::from_millis(500));
    let shot = app.work.join("analysis-pane.png");
    app.screenshot(&shot);
    let cropped = Command::new("convert")
        .arg(&shot)
        .args(["-crop", "1200x800+0+0", "+repage"])
        .arg(&shot)
        .status()
        .is_ok_and(|s| s.success());
    assert!(cropped, "ImageMagick's convert crops the screenshot");
    if std::env::var_os("CUBEFUL_UPDATE_SCREENSHOT").is_some() {
        std::fs::copy(&shot, common::repo_root().join("docs/analysis-pane.png"))
            .expect("docs/ is writable");
    }

    // The statistics window: GNU Backgammon's rows for both players.
    app.key("ctrl+i");
    let s = app.wait_for("the statistics", 10, |s| {
        s["analysis"]["statistics_visible"] == true
    });
    assert!(
        s["analysis"]["statistics_rows"].as_u64().unwrap_or(0) > 25,
        "{s:#}"
    );
    sleep(Duration::from_millis(800));
    let id = window_named(&app, "^Statistics$");
    screenshot(
        &app,
        &id,
        &app.work.join("statistics.png"),
        "statistics.png",
    );
    // Back to the main window (the statistics stay open behind the graph).
    sleep(Duration::from_millis(300));
    app.xdotool(&["windowfocus", &window_named(&app, "Cubeful$")]);
    sleep(Duration::from_millis(300));
    app.key("ctrl+g");
    let s = app.wait_for("the equity graph", 10, |s| {
        s["analysis"]["graph_visible"] == true
    });
    assert!(
        s["analysis"]["graph_points"].as_u64().unwrap_or(0) > 50,
        "{s:#}"
    );
    sleep(Duration::from_millis(800));
    let id = window_named(&app, "^Equity Graph$");
    screenshot(
        &app,
        &id,
        &app.work.join("equity-graph.png"),
        "equity-graph.png",
    );
    // Escape closes each window, as in every other utility window of the app (the keyboard
    // focus follows the pointer: there is no window manager).
    app.xdotool(&["mousemove", "--window", &id, "200", "200"]);
    sleep(Duration::from_millis(300));
    app.key("Escape");
    app.wait_for("the equity graph closed by Escape", 10, |s| {
        s["analysis"]["graph_visible"] == false
    });
    let id = window_named(&app, "^Statistics$");
    app.xdotool(&["mousemove", "--window", &id, "200", "200"]);
    sleep(Duration::from_millis(300));
    app.key("Escape");
    app.wait_for("the statistics closed by Escape", 10, |s| {
        s["analysis"]["statistics_visible"] == false
    });
}

#[test]
fn a_match_is_analysed_in_the_background_while_browsing() {
    let Some(app) = Launch::new("gtk-e2e-analysis-b")
        .settings("(window: (width: 1200, height: 800))")
        .arg(corpus("mat/gnubg/gnubgparser_gnubg_selfplay_drops_7p.mat"))
        .start()
    else {
        return;
    };
    let s = app.wait_for("the match in the record pane", 60, |s| {
        s["record"]["games"].as_u64().unwrap_or(0) > 1
            && s["record"]["pane_rows"].as_u64().unwrap_or(0) > 0
    });
    assert_eq!(
        s["analysis"]["analysed_entries"], 0,
        "a .mat has no analysis"
    );
    assert_eq!(s["record"]["marked"], 0);

    // Into the record.
    app.key("Home");
    let s = app.wait_for("the first action of the last game", 10, |s| {
        s["record"]["selected_entry"] == 0
    });
    // The pane's level: GNU Backgammon's World Class analysis (2-ply) unless chosen otherwise.
    assert_eq!(s["analysis"]["pane_level"], 2);

    // The analysis of the match.
    app.key("ctrl+shift+a");
    app.wait_for("the analysis to start", 20, |s| {
        s["analysis"]["running"] == true
    });

    // Browse while it runs: each Page Down moves the selection at once.
    let mut moves_while_running = 0;
    for _ in 0..6 {
        let before = app.state()["record"]["selected_entry"]
            .as_i64()
            .unwrap_or(-1);
        let sent = Instant::now();
        app.key("Page_Down");
        let s = app.wait_for("the selection to move", 5, |s| {
            s["record"]["selected_entry"].as_i64().unwrap_or(-1) != before
        });
        let took = sent.elapsed();
        if s["analysis"]["running"] == true {
            moves_while_running += 1;
            assert!(
                took < Duration::from_millis(2500),
                "Page Down took {took:?} during the analysis"
            );
        }
        sleep(Duration::from_millis(150));
    }
    assert!(
        moves_while_running >= 3,
        "the selection moved {moves_while_running} times while the analysis ran"
    );
    app.key("Page_Up");

    // The end: everything stored, marks in the record.
    let s = app.wait_for("the analysis to end", 300, |s| {
        s["analysis"]["running"] == false && s["analysis"]["last_end"].is_string()
    });
    assert_eq!(s["analysis"]["last_end"], "Analysis finished.");
    let stored = s["analysis"]["stored"].as_u64().unwrap();
    let analysed = s["analysis"]["analysed_entries"].as_u64().unwrap();
    assert!(stored > 50, "{s:#}");
    assert_eq!(analysed, stored, "{s:#}");
    app.wait_for("the marks in the record", 10, |s| {
        s["record"]["marked"].as_u64().unwrap_or(0) > 0
    });
    // The selected action now shows its analysis.
    let s = app.wait_for("the pane to follow", 10, |s| {
        s["analysis"]["pane_candidates"].as_u64().unwrap_or(0) > 0
            || s["record"]["selected_text"]
                .as_str()
                .is_some_and(|t| !t.contains(':'))
    });
    let stall = s["analysis"]["longest_stall_ms"].as_f64().unwrap();
    eprintln!(
        "GUI responsiveness: {stored} actions analysed at 2-ply; {} frames, longest {:.1} ms, {} over 16 ms; longest main-loop stall during the analysis {stall:.1} ms; {} marks",
        s["analysis"]["frames"],
        s["analysis"]["longest_frame_ms"].as_f64().unwrap_or(0.0),
        s["analysis"]["frames_over_16ms"],
        s["record"]["marked"]
    );
    assert!(stall < 1000.0, "the main loop was held up {stall} ms");
}

#[test]
fn a_freshly_played_match_is_analysed_in_the_background_while_browsing() {
    let Some(app) = Launch::new("gtk-e2e-analysis-c")
        .settings(
            "(player_name: \"Anna\", level: \"expert\", animate: false, analysis_plies: 3, \
             window: (width: 1200, height: 800))",
        )
        .seed(5)
        .with_match()
        .start()
    else {
        return;
    };
    for _ in 0..6 {
        let s = app.wait_settled(90);
        if !common::human_to_act(&s) {
            break;
        }
        app.play_our_turn();
    }
    let s = app.wait_settled(90);
    let actions = s["files"]["actions"].as_u64().unwrap_or(0);
    assert!(actions >= 10, "a few turns were played: {s:#}");
    assert_eq!(s["analysis"]["analysed_entries"], 0);
    assert_eq!(s["analysis"]["pane_level"], 3);

    app.key("ctrl+shift+a");
    app.wait_for("the analysis to start", 20, |s| {
        s["analysis"]["running"] == true
    });
    // Back through the game while it runs: each Page Up moves the selection at once.
    let mut moves_while_running = 0;
    for _ in 0..6 {
        let before = app.state()["record"]["selected_entry"].clone();
        let sent = Instant::now();
        app.key("Page_Up");
        let s = app.wait_for("the selection to move", 5, |s| {
            s["record"]["selected_entry"] != before
        });
        let took = sent.elapsed();
        if s["analysis"]["running"] == true {
            moves_while_running += 1;
            assert!(
                took < Duration::from_millis(2500),
                "Page Up took {took:?} during the analysis"
            );
        }
        sleep(Duration::from_millis(150));
    }
    assert!(
        moves_while_running >= 3,
        "the selection moved {moves_while_running} times while the analysis ran"
    );
    let s = app.wait_for("the analysis to end", 300, |s| {
        s["analysis"]["running"] == false && s["analysis"]["last_end"].is_string()
    });
    assert_eq!(s["analysis"]["last_end"], "Analysis finished.", "{s:#}");
    let stored = s["analysis"]["stored"].as_u64().unwrap();
    assert_eq!(s["analysis"]["analysed_entries"].as_u64(), Some(stored));
    // Every roll-and-play of the record has its analysis (the cube actions with theirs).
    assert!(
        stored >= actions / 2,
        "{stored} of {actions} actions: {s:#}"
    );
    // The selected action shows its analysis at the level asked.
    let s = app.wait_for("the pane to show the analysis", 10, |s| {
        s["analysis"]["pane_candidates"].as_u64().unwrap_or(0) > 0
            || s["record"]["selected_text"]
                .as_str()
                .is_some_and(|t| !t.contains(':'))
    });
    eprintln!(
        "fresh match: {actions} actions, {stored} analyses stored at 3-ply; {} frames, longest {:.1} ms, {} over 16 ms; longest main-loop stall {:.1} ms",
        s["analysis"]["frames"],
        s["analysis"]["longest_frame_ms"].as_f64().unwrap_or(0.0),
        s["analysis"]["frames_over_16ms"],
        s["analysis"]["longest_stall_ms"].as_f64().unwrap_or(0.0),
    );
}
