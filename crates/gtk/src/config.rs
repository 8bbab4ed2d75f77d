//! Build-time configuration: application id, version, where the translations are.

use std::path::PathBuf;

/// The application id (D-Bus name, desktop file and icon name).
pub const APP_ID: &str = "org.cubeful.Cubeful";
/// The program's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The resource path of the compiled-in resources.
pub const RESOURCE_PATH: &str = "/org/cubeful/Cubeful";

/// Where the compiled translations (`<lang>/LC_MESSAGES/cubeful.mo`) are: `$CUBEFUL_LOCALEDIR`
/// if set; else the ones `build.rs` compiled for this build, when they are still there (plain
/// `cargo run`); else `$LOCALEDIR` given at build time, or `/usr/share/locale`.
pub fn locale_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CUBEFUL_LOCALEDIR") {
        return PathBuf::from(dir);
    }
    let built = PathBuf::from(concat!(env!("OUT_DIR"), "/locale"));
    if built.is_dir() {
        return built;
    }
    PathBuf::from(option_env!("LOCALEDIR").unwrap_or("/usr/share/locale"))
}
