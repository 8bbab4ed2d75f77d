//! The harness shared by the desktop application's end-to-end tests: a private X server
//! (Xvfb), the `cubeful` program started on it with its folders (config, cache, data) inside a
//! test folder, the state it writes with `--debug-state`, keys and mouse through xdotool, and
//! screenshots through ImageMagick's `import`.
//!
//! Each test file includes it with `#[path = "e2e_common/mod.rs"] mod common;`. Not every test
//! uses every helper, hence `dead_code` is allowed here.
#![allow(dead_code)]

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;

/// A child process killed when the test ends, however it ends.
pub struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether `tool` is on the `PATH`.
pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether the display stack (Xvfb, xdotool, ImageMagick's `import`, xclip) is installed.
/// Without it the test should return at once: it says so loudly here, and under CI (`CI` set,
/// where `.ci/run` installs the tools) it fails instead of passing silently.
pub fn display_tools() -> bool {
    for tool in ["Xvfb", "xdotool", "import", "xclip"] {
        if !have(tool) {
            let message =
                format!("{tool} is not installed (Debian: xvfb, xdotool, imagemagick, xclip)");
            assert!(std::env::var_os("CI").is_none(), "{message}");
            eprintln!("\n*** GUI END-TO-END TEST SKIPPED: {message} ***\n");
            return false;
        }
    }
    true
}

/// A fresh, empty test folder named `name` in Cargo's temporary folder for tests.
pub fn work_dir(name: &str) -> PathBuf {
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    work
}

/// Writes the app's settings file (RON) in the config folder of `work`.
pub fn write_settings(work: &Path, ron: &str) {
    let config = work.join("config/cubeful");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("gtk-settings.ron"), ron).unwrap();
}

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Starts Xvfb on a free display; returns it and the display name.
pub fn start_xvfb() -> (Guard, String) {
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

/// How an end-to-end test starts: its test folder (a fresh one in Cargo's temporary folder for
/// tests), the settings written there, the program's arguments, and whether a match is started
/// once the window is up. [`Launch::start`] starts Xvfb and the app on it.
///
/// ```ignore
/// let Some(app) = common::Launch::new("gtk-e2e-x").settings(SETTINGS).seed(5).with_match().start()
/// else {
///     return; // no display stack
/// };
/// ```
pub struct Launch {
    name: String,
    settings: Option<String>,
    args: Vec<OsString>,
    env: Vec<(&'static str, OsString)>,
    home: bool,
    with_match: bool,
}

impl Launch {
    /// A start in the test folder `name`, with no settings file, no arguments and no match.
    pub fn new(name: &str) -> Launch {
        Launch {
            name: name.to_string(),
            settings: None,
            args: Vec::new(),
            env: Vec::new(),
            home: false,
            with_match: false,
        }
    }

    /// The app's settings file (RON), written before the start.
    pub fn settings(mut self, ron: &str) -> Launch {
        self.settings = Some(ron.to_string());
        self
    }

    /// `--seed SEED`: the dice of the match.
    pub fn seed(self, seed: u64) -> Launch {
        self.arg("--seed").arg(seed.to_string())
    }

    /// One more command-line argument (a file to open, say).
    pub fn arg(mut self, arg: impl Into<OsString>) -> Launch {
        self.args.push(arg.into());
        self
    }

    /// An empty home folder inside the test folder as `HOME` (where the file choosers open).
    pub fn home(mut self) -> Launch {
        self.home = true;
        self
    }

    /// Starts a match with the defaults of the new-match dialog once the window is up
    /// ([`App::start_match`]).
    pub fn with_match(mut self) -> Launch {
        self.with_match = true;
        self
    }

    /// Prepares the test folder, starts Xvfb and the app on it, and the match if asked.
    /// `None` without the display stack ([`display_tools`]: the test should return at once).
    pub fn start(mut self) -> Option<Running> {
        if !display_tools() {
            return None;
        }
        let work = work_dir(&self.name);
        if let Some(ron) = &self.settings {
            write_settings(&work, ron);
        }
        if self.home {
            let home = work.join("home");
            std::fs::create_dir_all(&home).unwrap();
            self.env.push(("HOME", home.into()));
        }
        let (xvfb, display) = start_xvfb();
        let app = App::start_with_env(&display, &work, &self.args, &self.env);
        if self.with_match {
            app.start_match();
        }
        Some(Running {
            app,
            args: self.args,
            env: self.env,
            _xvfb: xvfb,
        })
    }
}

/// The app started by [`Launch::start`], with the X server it runs on: both end when the test
/// does (the app first). It derefs to the [`App`].
pub struct Running {
    app: App,
    args: Vec<OsString>,
    env: Vec<(&'static str, OsString)>,
    _xvfb: Guard,
}

impl Running {
    /// Ends the app if it still runs (SIGKILL) and starts it again on the same display, in the
    /// same test folder (the settings and files as the last run left them), with the same
    /// arguments; no match is started.
    pub fn restart(&mut self) {
        self.app.kill9();
        self.app = App::start_with_env(&self.app.display, &self.app.work, &self.args, &self.env);
    }
}

impl std::ops::Deref for Running {
    type Target = App;

    fn deref(&self) -> &App {
        &self.app
    }
}

impl std::ops::DerefMut for Running {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.app
    }
}

/// The running app.
pub struct App {
    pub display: String,
    /// The `--debug-state` file.
    pub state: PathBuf,
    /// The test folder holding the app's config, cache and data folders.
    pub work: PathBuf,
    /// Screen position of the window's top-left corner.
    pub origin: (i64, i64),
    /// The X window id, for screenshots of the window alone.
    pub window: Option<String>,
    /// The process; `None` once killed.
    pub child: Option<Guard>,
}

impl App {
    /// Starts `cubeful --debug-state work/state.json` with `args` on `display`, its XDG config,
    /// cache and data folders inside `work` (so the user's own folders are never touched), in
    /// English; returns once the window is up and its board laid out.
    pub fn start(display: &str, work: &Path, args: &[OsString]) -> App {
        Self::start_with_env(display, work, args, &[])
    }

    /// [`App::start`] with extra environment variables.
    pub fn start_with_env(
        display: &str,
        work: &Path,
        args: &[OsString],
        env: &[(&str, OsString)],
    ) -> App {
        let state = work.join("state.json");
        let _ = std::fs::remove_file(&state);
        let mut command = Command::new(env!("CARGO_BIN_EXE_cubeful"));
        command
            .arg("--debug-state")
            .arg(&state)
            .args(args)
            .env("DISPLAY", display)
            .env("GDK_BACKEND", "x11")
            .env("GSK_RENDERER", "cairo")
            .env("XDG_CONFIG_HOME", work.join("config"))
            .env("XDG_CACHE_HOME", work.join("cache"))
            .env("XDG_DATA_HOME", work.join("data"))
            .env("LANG", "C.UTF-8")
            .env("LANGUAGE", "")
            .env("LC_ALL", "")
            .env("NO_AT_BRIDGE", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        for (key, value) in env {
            command.env(key, value);
        }
        let child = Guard(command.spawn().expect("cubeful starts"));
        let mut app = App {
            display: display.to_string(),
            state,
            work: work.to_path_buf(),
            origin: (0, 0),
            window: None,
            child: Some(child),
        };
        // The board is laid out once its coordinates are well inside the window.
        app.wait_for("the window", 60, |s| {
            s["roll_xy"][0].as_f64().is_some_and(|x| x > 100.0)
        });
        app.locate_window();
        app
    }

    /// Finds the window's X id and position (without a window manager it sits at 0,0).
    fn locate_window(&mut self) {
        let pid = self.child.as_ref().map(|c| c.0.id().to_string());
        let mut command = Command::new("xdotool");
        command.args(["search", "--onlyvisible"]);
        match &pid {
            Some(pid) => command.args(["--pid", pid]),
            None => command.args(["--name", "Cubeful"]),
        };
        let out = command
            .arg("getwindowgeometry")
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool runs");
        let text = String::from_utf8_lossy(&out.stdout);
        self.window = text
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
                self.origin = (xy[0], xy[1]);
            }
        }
    }

    /// Kills the app with SIGKILL (no chance to clean up) and waits for it to end.
    pub fn kill9(&mut self) {
        if let Some(mut guard) = self.child.take() {
            let _ = guard.0.kill();
            let _ = guard.0.wait();
        }
    }

    /// Waits up to `secs` for the app to end by itself; true if it did.
    pub fn wait_exit(&mut self, secs: u64) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(secs) {
            if let Some(guard) = self.child.as_mut() {
                if let Ok(Some(_)) = guard.0.try_wait() {
                    self.child = None;
                    return true;
                }
            } else {
                return true;
            }
            sleep(Duration::from_millis(100));
        }
        false
    }

    /// Runs xdotool with `args`; fails the test if it fails.
    pub fn xdotool(&self, args: &[&str]) {
        let status = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .status()
            .expect("xdotool runs");
        assert!(status.success(), "xdotool {args:?} failed");
    }

    /// Presses a key (xdotool's names: "ctrl+n", "Return", "Escape"…).
    pub fn key(&self, key: &str) {
        self.xdotool(&["key", key]);
    }

    /// Types text as key presses.
    pub fn type_text(&self, text: &str) {
        self.xdotool(&["type", "--delay", "20", text]);
    }

    /// The last state the app wrote (`Null` before the first).
    pub fn state(&self) -> Value {
        std::fs::read_to_string(&self.state)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null)
    }

    /// Waits until `pred` holds for the state (or fails after `secs`).
    pub fn wait_for(&self, what: &str, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
        self.poll(secs, &pred).unwrap_or_else(|| {
            panic!(
                "timed out waiting for {what}; last state: {:#}",
                self.state()
            )
        })
    }

    /// The state once `pred` holds for it, or `None` if it does not within `secs`.
    fn poll(&self, secs: u64, pred: &impl Fn(&Value) -> bool) -> Option<Value> {
        let start = Instant::now();
        loop {
            let s = self.state();
            if pred(&s) {
                return Some(s);
            }
            if start.elapsed() >= Duration::from_secs(secs) {
                return None;
            }
            sleep(Duration::from_millis(100));
        }
    }

    /// Screen coordinates of a window point from the state.
    pub fn screen(&self, xy: &Value) -> (i64, i64) {
        let x = xy[0].as_f64().expect("x") as i64;
        let y = xy[1].as_f64().expect("y") as i64;
        (self.origin.0 + x, self.origin.1 + y)
    }

    /// Moves the pointer to a window point from the state.
    pub fn hover(&self, xy: &Value) {
        let (x, y) = self.screen(xy);
        self.xdotool(&["mousemove", &x.to_string(), &y.to_string()]);
    }

    /// Clicks a window point from the state.
    pub fn click(&self, xy: &Value) {
        self.hover(xy);
        sleep(Duration::from_millis(100));
        self.xdotool(&["click", "1"]);
    }

    /// Clicks a window point from the state until `pred` holds for the state, and returns
    /// that state: up to three clicks, each given `secs` to show. For the first click on a
    /// window that has just appeared, which without a window manager it now and then does not
    /// take; only for clicks whose effect `pred` tells apart (a second click must not undo a
    /// first that took).
    pub fn click_until(
        &self,
        xy: &Value,
        what: &str,
        secs: u64,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        for _ in 0..3 {
            self.click(xy);
            if let Some(s) = self.poll(secs, &pred) {
                return s;
            }
        }
        panic!(
            "three clicks and still not {what}; last state: {:#}",
            self.state()
        );
    }

    /// Saves a screenshot of the window (of the screen if the window was not found) as PNG.
    pub fn screenshot(&self, path: &Path) {
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

    /// Puts `text` on the display's clipboard (xclip keeps serving it in the background until
    /// another program takes the clipboard or the display goes).
    pub fn set_clipboard(&self, text: &str) {
        use std::io::Write;
        let mut xclip = Command::new("xclip")
            .args(["-selection", "clipboard", "-in"])
            .env("DISPLAY", &self.display)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("xclip runs");
        xclip
            .stdin
            .take()
            .expect("xclip's input")
            .write_all(text.as_bytes())
            .expect("xclip reads the text");
        // xclip forks a server for the selection once its input is read and exits, and the
        // server takes the selection only after that: wait until the display has the text (on
        // a loaded machine a key pressed at once would paste the clipboard's old text).
        let _ = xclip.wait();
        let start = Instant::now();
        while self.clipboard() != text {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the clipboard did not take the text {text:?}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// The text on the display's clipboard (empty if none).
    pub fn clipboard(&self) -> String {
        Command::new("xclip")
            .args(["-selection", "clipboard", "-out"])
            .env("DISPLAY", &self.display)
            .stderr(Stdio::null())
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    /// Starts a match with the defaults of the new-match dialog: Ctrl+N opens it, Enter
    /// starts it (Start has the focus). Waits until the match is there.
    pub fn start_match(&self) {
        let start = self.state();
        self.hover(&start["roll_xy"]);
        sleep(Duration::from_millis(300));
        self.key("ctrl+n");
        sleep(Duration::from_millis(1500));
        self.key("Return");
        self.wait_for("the match to start", 30, |s| s["game"].is_object());
    }
}

impl App {
    /// Presses the primary button at window point `from` and glides to `to` in small steps
    /// (as a hand would, so GTK sees a drag), leaving the button down.
    pub fn press_and_move(&self, from: &Value, to: &Value) {
        let (fx, fy) = self.screen(from);
        let (tx, ty) = self.screen(to);
        self.xdotool(&["mousemove", &fx.to_string(), &fy.to_string()]);
        sleep(Duration::from_millis(100));
        self.xdotool(&["mousedown", "1"]);
        for i in 1..=8 {
            let x = fx + (tx - fx) * i / 8;
            let y = fy + (ty - fy) * i / 8;
            self.xdotool(&["mousemove", &x.to_string(), &y.to_string()]);
            sleep(Duration::from_millis(40));
        }
    }

    /// Drags with the primary button from window point `from` to `to`.
    pub fn drag(&self, from: &Value, to: &Value) {
        self.press_and_move(from, to);
        self.xdotool(&["mouseup", "1"]);
    }

    /// Plays our turn: rolls if needed (a click on the board), drags checkers along the steps
    /// the state offers until the move is complete, and clicks the dice to finish. Returns
    /// once the move is played (the position changed). If the bot has doubled, takes instead
    /// (Ctrl+T) and returns once the double is answered.
    pub fn play_our_turn(&self) {
        let s = self.wait_for("our turn", 60, human_to_act);
        if decision(&s).starts_with("AnswerDouble") {
            self.key("ctrl+t");
            self.wait_for("the double to be taken", 20, |s| {
                !decision(s).starts_with("AnswerDouble")
            });
            return;
        }
        if decision(&s).starts_with("Roll") {
            self.click(&s["roll_xy"]);
            self.wait_for("the dice", 20, |s| decision(s).starts_with("Move"));
        }
        let s = self.wait_for("our move", 20, |s| {
            human_to_act(s) && decision(s).starts_with("Move")
        });
        let before = s["game"]["position_id"].as_str().unwrap_or("").to_string();
        let actions = s["files"]["actions"].as_u64();
        for _ in 0..4 {
            let s = self.state();
            if s["can_finish"] == true {
                break;
            }
            let step = &s["step"];
            assert!(step.is_object(), "no legal step offered: {s:#}");
            let played = s["partial"].as_array().map_or(0, Vec::len);
            self.drag(&step["from_xy"], &step["to_xy"]);
            self.wait_for("the step to be played", 10, |s| {
                s["partial"].as_array().map_or(0, Vec::len) > played
            });
        }
        let s = self.wait_for("a complete move", 5, |s| s["can_finish"] == true);
        self.click(&s["dice_xy"]);
        self.wait_for("our move to be played", 20, |s| {
            s["game"]["position_id"].as_str() != Some(before.as_str())
                || s["files"]["actions"].as_u64() != actions
        });
    }

    /// Waits until nobody is busy and a person is to act, or the game or match is over.
    pub fn wait_settled(&self, secs: u64) -> Value {
        self.wait_for("the bot to finish", secs, |s| {
            s["busy"] == false
                && (human_to_act(s)
                    || decision(s).contains("NewGame")
                    || decision(s).contains("MatchOver"))
        })
    }
}

/// A person is to act and no job is running.
pub fn human_to_act(s: &Value) -> bool {
    s["game"]["human_to_act"] == 1 && s["busy"] == false
}

/// The engine's decision in the state (`"Roll…"`, `"Move…"`, …), or "".
pub fn decision(s: &Value) -> String {
    s["game"]["decision"].as_str().unwrap_or("").to_string()
}
