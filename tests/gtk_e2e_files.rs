//! End-to-end tests of the desktop application's files (built as the `e2e_files` test of
//! `crates/gtk`), under Xvfb like `gtk_e2e.rs`, each with its own config, cache, data and home
//! folders in a test folder:
//!
//! * a match killed with SIGKILL in the middle is offered again at the next start and, once
//!   accepted, goes on exactly where it stopped (same position and match IDs, same number of
//!   actions, same last action); starting a new match over it asks Save / Discard / Cancel;
//! * a match file given on the command line opens, with its name in the title and all its
//!   games;
//! * Ctrl+S on a match in no file asks for a name (the file chooser, answered with Enter), the
//!   file reads back as the match the app shows, and the next Ctrl+S writes to it without
//!   asking.
//!
//! The tests take turns (one app at a time on a two-core machine).

#[path = "e2e_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::thread::sleep;
use std::time::Duration;

use common::Launch;
use cubeful_engine::formats::match_file;
use cubeful_engine::game::record::replay::describe;
use cubeful_engine::game::record::MatchRecord;
use cubeful_engine::game::{Game, RandomDice};
use cubeful_engine::{match_id, position_id};
use serde_json::Value;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const SETTINGS: &str =
    "(player_name: \"Anna\", level: \"expert\", animate: false, window: (width: 1000, height: 820))";

/// The app in the test folder `name` with the settings, an empty home folder and the dice of
/// seed 5.
fn launch(name: &str) -> Launch {
    Launch::new(name).settings(SETTINGS).home().seed(5)
}

/// The record in a match file, replayed as the app does (leniently).
fn read_record(path: &Path) -> MatchRecord {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let loaded = match_file::read(&bytes).unwrap();
    loaded.record.replay_lenient().unwrap().record
}

fn actions(record: &MatchRecord) -> u64 {
    record.games.iter().map(|g| g.entries.len() as u64).sum()
}

fn last_action(record: &MatchRecord) -> Option<String> {
    record
        .games
        .iter()
        .rev()
        .find_map(|g| g.entries.last())
        .map(|e| describe(&e.action))
}

/// Position ID, match ID, number of actions and last action as the app shows them.
fn shown(s: &Value) -> (String, String, u64, String) {
    (
        s["game"]["position_id"].as_str().unwrap_or("").to_string(),
        s["game"]["match_id"].as_str().unwrap_or("").to_string(),
        s["files"]["actions"].as_u64().unwrap_or(0),
        s["files"]["last_action"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn a_killed_match_is_resumed_exactly() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut app) = launch("gtk-e2e-files-resume").start() else {
        return;
    };
    // Nothing to resume at the first start.
    assert_eq!(app.state()["files"]["resume_offered"], false);
    app.start_match();
    // Two of our turns, each followed by the bot's answer.
    for _ in 0..2 {
        let s = app.wait_settled(90);
        if !common::human_to_act(&s) {
            break;
        }
        app.play_our_turn();
    }
    let s = app.wait_settled(90);
    let s = app.wait_for("the autosave to be written", 10, |t| {
        t["files"]["autosaved_actions"] == t["files"]["actions"]
            && t["files"]["actions"] == s["files"]["actions"]
    });
    let before = shown(&s);
    assert!(before.2 >= 4, "a few actions were played: {s:#}");
    assert_eq!(s["files"]["modified"], true);
    assert!(
        s["files"]["title"]
            .as_str()
            .is_some_and(|t| t.starts_with("• Anna – Cubeful")),
        "{s:#}"
    );
    let autosave = app.work.join("data/cubeful/autosave.sgf");
    assert_eq!(
        s["files"]["autosave"].as_str(),
        Some(autosave.to_str().unwrap())
    );
    // The autosave holds the match as shown.
    let saved = read_record(&autosave);
    assert_eq!(actions(&saved), before.2);
    assert_eq!(last_action(&saved).unwrap_or_default(), before.3);

    app.kill9();
    assert!(autosave.exists(), "the autosave survives the kill");

    app.restart();
    app.wait_for("the offer to resume", 30, |s| {
        s["files"]["resume_offered"] == true
    });
    sleep(Duration::from_millis(800));
    app.key("Return");
    let s = app.wait_for("the resumed match", 30, |s| {
        s["game"].is_object() && s["files"]["resume_offered"] == false
    });
    let after = shown(&s);
    assert_eq!(after, before, "the same match, exactly: {s:#}");
    assert_eq!(s["files"]["modified"], true);

    // A new match over it asks first; Cancel (Escape) keeps the match as it was.
    sleep(Duration::from_millis(300));
    app.key("ctrl+n");
    app.wait_for("the Save / Discard / Cancel question", 10, |s| {
        s["files"]["confirm_open"] == true
    });
    sleep(Duration::from_millis(500));
    app.key("Escape");
    let s = app.wait_for("the question to close", 10, |s| {
        s["files"]["confirm_open"] == false
    });
    assert_eq!(shown(&s), before);
    assert!(autosave.exists());
}

#[test]
fn a_match_file_on_the_command_line_opens() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !common::display_tools() {
        return;
    }
    let file = cubeful_testkit::shared_path("corpus/sgf/gnubg-scripts_test-match01_analyzed.sgf")
        .canonicalize()
        .expect("the corpus beside the repository");
    let record = read_record(&file);
    let Some(app) = launch("gtk-e2e-files-open").arg(&file).start() else {
        return;
    };
    let s = app.wait_for("the file to be loaded", 30, |s| {
        s["game"].is_object() && s["files"]["path"].is_string()
    });
    assert_eq!(s["files"]["path"].as_str(), file.to_str());
    assert_eq!(
        s["files"]["title"].as_str(),
        Some("gnubg-scripts_test-match01_analyzed.sgf – Cubeful")
    );
    assert_eq!(
        s["files"]["games"].as_u64(),
        Some(record.games.len() as u64)
    );
    assert_eq!(s["files"]["actions"].as_u64(), Some(actions(&record)));
    assert_eq!(s["files"]["modified"], false);
    assert_eq!(s["files"]["resume_offered"], false);
    // The position shown is where the record ends.
    let game = Game::from_record(&record, Box::new(RandomDice::new(1))).unwrap();
    assert_eq!(
        s["game"]["position_id"].as_str(),
        Some(position_id::encode(&game.position()).as_str())
    );
    assert_eq!(
        s["game"]["match_id"].as_str(),
        Some(match_id::encode(&game.match_state()).as_str())
    );
    // It is the first of the recent files.
    assert_eq!(s["files"]["recent"][0].as_str(), file.to_str());
}

#[test]
fn saving_asks_for_a_name_once_and_reads_back_equal() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some(app) = launch("gtk-e2e-files-save").with_match().start() else {
        return;
    };
    let s = app.wait_settled(90);
    if common::human_to_act(&s) {
        app.play_our_turn();
    }
    let s = app.wait_settled(90);
    assert_eq!(s["files"]["modified"], true, "{s:#}");
    assert!(s["files"]["path"].is_null());

    // Ctrl+S: the match is in no file, so the chooser asks (in the home folder, with a name
    // made of the players' names); Enter accepts it.
    app.key("ctrl+s");
    app.wait_for("the file chooser", 20, |s| {
        s["files"]["chooser_open"] == true
    });
    sleep(Duration::from_millis(2000));
    app.key("Return");
    let s = app.wait_for("the match to be saved", 20, |s| {
        s["files"]["path"].is_string() && s["files"]["modified"] == false
    });
    let path = PathBuf::from(s["files"]["path"].as_str().unwrap());
    assert_eq!(path, app.work.join("home/Anna-Cubeful.sgf"));
    assert_eq!(
        s["files"]["title"].as_str(),
        Some("Anna-Cubeful.sgf – Cubeful")
    );
    let check = |s: &Value| {
        let record = read_record(&path);
        let (position, matchid, count, last) = shown(s);
        assert_eq!(actions(&record), count);
        assert_eq!(last_action(&record).unwrap_or_default(), last);
        assert_eq!(record.info.players[1], "Anna");
        let game = Game::from_record(&record, Box::new(RandomDice::new(1))).unwrap();
        assert_eq!(position_id::encode(&game.position()), position);
        assert_eq!(match_id::encode(&game.match_state()), matchid);
    };
    check(&s);
    // Nothing left to resume: the autosave is gone once the match is saved.
    assert!(!app.work.join("data/cubeful/autosave.sgf").exists());

    // One more turn, and Ctrl+S writes to the same file without asking.
    if common::human_to_act(&s) {
        app.play_our_turn();
        let s = app.wait_settled(90);
        assert_eq!(s["files"]["modified"], true);
        app.key("ctrl+s");
        let s = app.wait_for("the match to be saved again", 20, |s| {
            s["files"]["modified"] == false
        });
        assert_eq!(s["files"]["chooser_open"], false);
        assert_eq!(s["files"]["path"].as_str(), path.to_str());
        check(&s);
    }
}
