//! Compiles the resources (`resources/cubeful.gresource.xml`: CSS, icons, the shortcuts
//! window) into the program, and the translations (`po/<lang>.po` for each language in
//! `po/LINGUAS`) into `$OUT_DIR/locale/<lang>/LC_MESSAGES/cubeful.mo`, where the program finds
//! them when run from the build tree. Needs `glib-compile-resources` (libglib2.0-dev-bin,
//! pulled in by libgtk-4-dev) and `msgfmt` (gettext); without `msgfmt` the program is built
//! untranslated, with a warning.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let resources = root.join("resources");
    glib_build_tools::compile_resources(
        &[&resources],
        resources
            .join("cubeful.gresource.xml")
            .to_str()
            .expect("the path is UTF-8"),
        "cubeful.gresource",
    );
    println!("cargo:rerun-if-changed={}", resources.display());
    compile_translations(&root.join("po"));
}

fn compile_translations(po: &Path) {
    println!("cargo:rerun-if-changed={}", po.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("locale");
    let Ok(linguas) = std::fs::read_to_string(po.join("LINGUAS")) else {
        println!("cargo:warning=po/LINGUAS is missing: building without translations");
        return;
    };
    for lang in linguas
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let source = po.join(format!("{lang}.po"));
        println!("cargo:rerun-if-changed={}", source.display());
        let dir = out.join(lang).join("LC_MESSAGES");
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
        let status = Command::new("msgfmt")
            .arg("--check")
            .arg("-o")
            .arg(dir.join("cubeful.mo"))
            .arg(&source)
            .status();
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => panic!("msgfmt failed on {} ({s})", source.display()),
            Err(e) => {
                println!(
                    "cargo:warning=msgfmt not found ({e}): building without the {lang} translation"
                );
            }
        }
    }
}
