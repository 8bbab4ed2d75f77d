//! What the tests of every Cubeful crate share, so that each knows one way to find the
//! `shared/` folder beside the checkout and to run GNU Backgammon:
//!
//! * [`shared_dir`], [`shared_path`], [`read_shared`] and [`optional_shared_dir`]: the
//!   specification and corpus folder that CI places beside the checkout (`CUBEFUL_SHARED`
//!   overrides where it is);
//! * [`gnubg`] and [`run_gnubg_script`]: Debian's `gnubg`, the measuring stick for
//!   compatibility, found on the machine and fed a script;
//! * [`not_run`]: how a test that cannot run here says so — loudly on a developer's machine,
//!   as a failure under CI (`CI=true`), where everything it needs is installed;
//! * [`ScratchDir`]: an empty folder of a test's own, removed when the test ends.
//!
//! A development dependency only: nothing here is part of the program.

use std::io::Write as _;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where `shared/` is: `CUBEFUL_SHARED`, or beside the checkout.
fn shared_location() -> PathBuf {
    match std::env::var_os("CUBEFUL_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// The `shared/` folder beside the project checkout (CI places it there); `CUBEFUL_SHARED`
/// overrides. Panics when it is not there: the tests that call this cannot do without it.
pub fn shared_dir() -> PathBuf {
    let dir = shared_location();
    assert!(
        dir.is_dir(),
        "the shared/ folder was not found at {} (set CUBEFUL_SHARED)",
        dir.display()
    );
    dir
}

/// A path below `shared/`, e.g. `shared_path("corpus/mat")`.
pub fn shared_path(rel: &str) -> PathBuf {
    shared_dir().join(rel)
}

/// The text of a file below `shared/`.
pub fn read_shared(rel: &str) -> String {
    let path = shared_path(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The `shared/` folder when it holds the corpus; otherwise `None`, after [`not_run`] has said
/// that `what` did not run.
pub fn optional_shared_dir(what: &str) -> Option<PathBuf> {
    let dir = shared_location();
    if dir.join("corpus").is_dir() {
        return Some(dir);
    }
    not_run(&format!(
        "the shared/ corpus was NOT FOUND at {}, so {what} did NOT RUN (set CUBEFUL_SHARED)",
        dir.display()
    ));
    None
}

/// Says that a test could not do its work here: a failure under CI (`CI=true`), a message no
/// one can miss elsewhere. The caller returns afterwards.
pub fn not_run(message: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{message}");
    }
    eprintln!("\n{0}\n!!! {message}\n{0}\n", "!".repeat(78));
}

/// An empty folder in the system's temporary folder, `cubeful-NAME-PID-N` (N counts the
/// process's scratch folders, so that tests running side by side never share one), removed with
/// all it holds when the value is dropped — at the end of the test, passed or failed.
#[derive(Debug)]
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(name: &str) -> ScratchDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("cubeful-{name}-{}-{n}", std::process::id()));
        // What a killed run of the same process ID left there.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
        ScratchDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// GNU Backgammon's program: `/usr/games/gnubg` (where Debian puts it) or `gnubg` on the
/// `PATH`.
pub fn find_gnubg() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/games/gnubg");
    if fixed.is_file() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("gnubg"))
            .find(|p| p.is_file())
    })
}

/// GNU Backgammon's program for a test that compares with it; when it is not installed,
/// [`not_run`] says that `what` (e.g. "the SGF test against it") did not run, and `None`.
pub fn gnubg(what: &str) -> Option<PathBuf> {
    let found = find_gnubg();
    if found.is_none() {
        not_run(&format!(
            "GNU Backgammon (gnubg) is NOT INSTALLED, so {what} did NOT RUN. Install the \
             Debian package gnubg (.ci/run does)."
        ));
    }
    found
}

/// Starts GNU Backgammon's terminal mode (`gnubg -t -q`, plus `extra_args`) with `home` as its
/// home folder and writes `script` to its standard input, which it then closes; standard output
/// and error are piped. For a caller that watches the clock; [`run_gnubg`] waits.
pub fn spawn_gnubg(gnubg: &Path, home: &Path, extra_args: &[&str], script: &str) -> Child {
    let mut child = Command::new(gnubg)
        .args(["-t", "-q"])
        .args(extra_args)
        .env("HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gnubg starts");
    child
        .stdin
        .take()
        .expect("gnubg's standard input is piped")
        .write_all(script.as_bytes())
        .expect("gnubg reads its script");
    child
}

/// Runs GNU Backgammon's terminal mode (`gnubg -t -q`, plus `extra_args`) with `home` as its
/// home folder, feeds it `script` on standard input and waits for it to finish; its output.
pub fn run_gnubg(gnubg: &Path, home: &Path, extra_args: &[&str], script: &str) -> Output {
    spawn_gnubg(gnubg, home, extra_args, script)
        .wait_with_output()
        .expect("gnubg ends")
}

/// [`run_gnubg`] without extra arguments.
pub fn run_gnubg_script(gnubg: &Path, home: &Path, script: &str) -> Output {
    run_gnubg(gnubg, home, &[], script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_is_found_beside_the_checkout() {
        assert!(shared_path("corpus").is_dir());
        assert!(optional_shared_dir("this test").is_some());
        assert!(!read_shared("docs/formats.md").is_empty());
    }

    #[test]
    fn gnubg_answers_a_script() {
        let Some(program) = gnubg("the test of the test kit's gnubg runner") else {
            return;
        };
        let home = ScratchDir::new("testkit");
        let out = run_gnubg_script(&program, &home, "new game\nshow board\nquit\ny\n");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Position ID"), "{text}");
    }

    #[test]
    fn scratch_folders_are_apart_and_go_away() {
        let (a, b) = (ScratchDir::new("same"), ScratchDir::new("same"));
        assert_ne!(a.path(), b.path());
        assert!(a.is_dir() && std::fs::read_dir(&*a).unwrap().next().is_none());
        std::fs::create_dir_all(a.join("inner")).unwrap();
        std::fs::write(a.join("inner/file"), b"x").unwrap();
        let path = a.path().to_path_buf();
        drop(a);
        assert!(!path.exists());
        assert!(b.is_dir());
    }
}
