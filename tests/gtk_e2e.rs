//! End-to-end test of the desktop application under Xvfb (built as the `e2e` test of
//! `crates/gtk`): starts `cubeful` on a private X server, starts a match with Ctrl+N and Enter,
//! rolls by clicking the board, drags checkers with xdotool (mouse down, moves, mouse up) until
//! the move is complete, clicks the dice to finish, and checks through the `--debug-state` file
//! that the move played is one the engine calls legal, that the status line says the move is
//! complete before it is played, that the bot answered and its dice stay on the board until
//! we roll, and that the board never changed size (it must not jump while the buttons below
//! it come and go). It takes a screenshot while a checker is lifted (legal targets
//! highlighted) and one at the end; with `CUBEFUL_UPDATE_SCREENSHOT=1` the first one replaces
//! `docs/screenshot.png`.
//!
//! Needs `Xvfb`, `xdotool` and ImageMagick's `import` (Debian: xvfb, xdotool, imagemagick).
//! Without them the test says so loudly and passes, so that `cargo test` works on a machine
//! without a display stack; under CI (`CI` set) it fails instead, and `.ci/run` installs them.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use cubeful_engine::formats::notation::parse_move;
use cubeful_engine::{position_id, Dice};
use serde_json::Value;

/// A child process killed when the test ends, however it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Starts Xvfb on a free display; returns it and the display name.
fn start_xvfb() -> (Guard, String) {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x900x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    let mut out = child.stdout.take().expect("piped");
    let mut number = String::new();
    let mut byte = [0u8; 1];
    while out.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
        number.push(byte[0] as char);
    }
    assert!(!number.is_empty(), "Xvfb did not report its display");
    (Guard(child), format!(":{}", number.trim()))
}

struct App {
    display: String,
    state: PathBuf,
    /// Screen position of the window's top-left corner.
    origin: (i64, i64),
    /// The X window id, for screenshots of the window alone.
    window: Option<String>,
}

impl App {
    fn xdotool(&self, args: &[&str]) {
        let status = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .status()
            .expect("xdotool runs");
        assert!(status.success(), "xdotool {args:?} failed");
    }

    fn state(&self) -> Value {
        std::fs::read_to_string(&self.state)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null)
    }

    /// Waits until `pred` holds for the state (or fails after `secs`).
    fn wait_for(&self, what: &str, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let s = self.state();
            if pred(&s) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "timed out waiting for {what}; last state: {s:#}"
            );
            sleep(Duration::from_millis(100));
        }
    }

    /// Screen coordinates of a window point from the state.
    fn screen(&self, xy: &Value) -> (i64, i64) {
        let x = xy[0].as_f64().expect("x") as i64;
        let y = xy[1].as_f64().expect("y") as i64;
        (self.origin.0 + x, self.origin.1 + y)
    }

    fn click(&self, xy: &Value) {
        let (x, y) = self.screen(xy);
        self.xdotool(&["mousemove", &x.to_string(), &y.to_string()]);
        sleep(Duration::from_millis(100));
        self.xdotool(&["click", "1"]);
    }

    fn screenshot(&self, path: &Path) {
        let status = Command::new("import")
            .args(["-window", self.window.as_deref().unwrap_or("root")])
            .arg(path)
            .env("DISPLAY", &self.display)
            .status()
            .expect("import runs");
        assert!(status.success());
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        assert!(
            size > 20_000,
            "screenshot {} is too small ({size} bytes)",
            path.display()
        );
    }
}

fn human_to_act(s: &Value) -> bool {
    s["game"]["human_to_act"] == 1 && s["busy"] == false
}

fn decision(s: &Value) -> String {
    s["game"]["decision"].as_str().unwrap_or("").to_string()
}

#[test]
fn play_a_move_with_the_mouse() {
    for tool in ["Xvfb", "xdotool", "import"] {
        if !have(tool) {
            let message = format!("{tool} is not installed (Debian: xvfb, xdotool, imagemagick)");
            // CI installs them (.ci/run): there a missing tool is a failure, never a silent pass.
            assert!(std::env::var_os("CI").is_none(), "{message}");
            eprintln!("\n*** GUI END-TO-END TEST SKIPPED: {message} ***\n");
            return;
        }
    }
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("gtk-e2e");
    let _ = std::fs::remove_dir_all(&work);
    let config = work.join("config/cubeful");
    std::fs::create_dir_all(&config).unwrap();
    // A name for the screenshot, and the bot at a fast level.
    std::fs::write(
        config.join("gtk-settings.ron"),
        "(player_name: \"Anna\", level: \"expert\", window: (width: 1000, height: 820))",
    )
    .unwrap();
    let state = work.join("state.json");

    let (_xvfb, display) = start_xvfb();
    let _app = Guard(
        Command::new(env!("CARGO_BIN_EXE_cubeful"))
            .arg("--debug-state")
            .arg(&state)
            .args(["--seed", "11"])
            .env("DISPLAY", &display)
            .env("GDK_BACKEND", "x11")
            .env("GSK_RENDERER", "cairo")
            .env("XDG_CONFIG_HOME", work.join("config"))
            .env("XDG_CACHE_HOME", work.join("cache"))
            .env("LANG", "C.UTF-8")
            .env("LANGUAGE", "")
            .env("LC_ALL", "")
            .env("NO_AT_BRIDGE", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("cubeful starts"),
    );
    let mut app = App {
        display,
        state,
        origin: (0, 0),
        window: None,
    };
    // The board is laid out once its coordinates are well inside the window.
    app.wait_for("the window", 60, |s| {
        s["roll_xy"][0].as_f64().is_some_and(|x| x > 100.0)
    });
    // Where the window is (without a window manager it sits at 0,0; ask anyway).
    let out = Command::new("xdotool")
        .args([
            "search",
            "--onlyvisible",
            "--name",
            "^Cubeful$",
            "getwindowgeometry",
        ])
        .env("DISPLAY", &app.display)
        .output()
        .expect("xdotool runs");
    let text = String::from_utf8_lossy(&out.stdout);
    app.window = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Window "))
        .map(|id| id.trim().to_string());
    if let Some(pos) = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Position: "))
    {
        let xy: Vec<i64> = pos
            .split(|c: char| !c.is_ascii_digit() && c != '-')
            .filter_map(|n| n.parse().ok())
            .collect();
        if xy.len() >= 2 {
            app.origin = (xy[0], xy[1]);
        }
    }

    // Start a match: Ctrl+N opens the dialog, Enter starts it (Start has the focus).
    let start = app.state();
    let (cx, cy) = app.screen(&start["roll_xy"]);
    app.xdotool(&["mousemove", &cx.to_string(), &cy.to_string()]);
    sleep(Duration::from_millis(300));
    app.xdotool(&["key", "ctrl+n"]);
    sleep(Duration::from_millis(1500));
    app.xdotool(&["key", "Return"]);
    app.wait_for("the match to start", 30, |s| s["game"].is_object());

    // Our turn: roll by clicking the board if needed.
    let s = app.wait_for("our turn", 60, human_to_act);
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
        let (fx, fy) = app.screen(&step["from_xy"]);
        let (tx, ty) = app.screen(&step["to_xy"]);
        app.xdotool(&["mousemove", &fx.to_string(), &fy.to_string()]);
        sleep(Duration::from_millis(100));
        app.xdotool(&["mousedown", "1"]);
        for i in 1..=8 {
            let x = fx + (tx - fx) * i / 8;
            let y = fy + (ty - fy) * i / 8;
            app.xdotool(&["mousemove", &x.to_string(), &y.to_string()]);
            sleep(Duration::from_millis(40));
        }
        if !shot_taken {
            // The checker is lifted and its legal targets are highlighted.
            sleep(Duration::from_millis(300));
            let path = work.join("dragging.png");
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
    app.screenshot(&work.join("after.png"));
    let sizes = s["sizes"].as_array().expect("the board's sizes");
    assert_eq!(sizes.len(), 1, "the board changed size: {sizes:?}");
}
