//! Helpers shared by the integration tests: locating `../shared` beside the checkout.

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
