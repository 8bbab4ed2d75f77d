//! Helpers shared by the integration tests: locating `../shared` beside the checkout, running
//! GNU Backgammon on a script.

#![allow(dead_code)]

use std::path::PathBuf;

/// The `shared/` folder beside the project checkout (CI places it there). Override with
/// `CUBEFUL_SHARED`.
pub fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("CUBEFUL_SHARED") {
        return PathBuf::from(dir);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../../shared");
    assert!(
        dir.is_dir(),
        "the shared/ folder was not found at {} (set CUBEFUL_SHARED)",
        dir.display()
    );
    dir
}

/// Reads a file below `shared/`.
pub fn read_shared(rel: &str) -> String {
    let path = shared_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Runs GNU Backgammon's terminal mode (`gnubg -t -q`) with `home` as its home folder, feeds it
/// `script` on standard input and waits for it to finish; its output.
pub fn run_gnubg_script(
    gnubg: &std::path::Path,
    home: &std::path::Path,
    script: &str,
) -> std::process::Output {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(gnubg)
        .args(["-t", "-q"])
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
    child.wait_with_output().expect("gnubg ends")
}
