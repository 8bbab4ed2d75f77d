//! End-to-end tests of `cubeful-cli bearoff …` and `cubeful-cli bench bearoff`.

use std::path::Path;
use std::process::Command;
mod common;

use common::{assert_refused, run, stdout};
use cubeful_testkit::ScratchDir;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Player on roll: checkers on the 6- and 5-points; opponent: on the 4- and 3-points.
const TWO_CHECKERS: &str = "FAAAgAIAAAAAAA";
/// Player on roll: five each on the 6-, 5- and 4-points; opponent: fifteen on the ace point.
const FIFTEEN: &str = "/38AAAD4vg8AAA";

#[test]
fn show_verify_and_regenerate() {
    let scratch = ScratchDir::new("cli-bearoff-show");
    // The database folder does not exist yet.
    let dir = scratch.join("bearoff");
    let d = s(&dir);
    // First use: generated into the folder.
    let out = run(&["bearoff", "show", TWO_CHECKERS, "--dir", d]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("generating the two-sided"), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Two-sided database (6 checkers a side)"),
        "{text}"
    );
    assert!(
        text.contains("Correct cube action: No double, take"),
        "{text}"
    );

    // JSON, from the saved files now; also through the environment variable.
    let out = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args(["bearoff", "show", TWO_CHECKERS, "--json"])
        .env("CUBEFUL_BEAROFF_DIR", d)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let two = &json["two_sided"];
    let win = two["win"].as_f64().unwrap();
    let race = json["one_sided_race"]["win"].as_f64().unwrap();
    assert!(
        (win - race).abs() < 1e-6,
        "two checkers a side: one-sided race is exact"
    );
    let (c, o, x) = (
        two["centred"].as_f64().unwrap(),
        two["owned"].as_f64().unwrap(),
        two["opponent_owned"].as_f64().unwrap(),
    );
    assert!(o >= c && c >= x && (-1.0..=1.0).contains(&c), "{two}");
    let sum: f64 = json["player"]["all_off"]["probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-6);

    // Fifteen checkers: one-sided only, with the first-checker distribution.
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["bearoff", "show", FIFTEEN, "--json", "--dir", d])).unwrap();
    assert!(json["two_sided"].is_null());
    assert!(json["player"]["first_off"]["mean"].as_f64().unwrap() >= 1.0);
    assert!(json["oracle"]["win"].as_f64().unwrap() < 0.1);

    // A contact position: the databases know nothing.
    let text = stdout(&["bearoff", "show", "4HPwATDgc/ABMA", "--dir", d]);
    assert!(text.contains("evaluator uses its nets"), "{text}");

    // Both files verify.
    let text = stdout(&["bearoff", "verify", "--dir", d]);
    assert_eq!(text.matches("identical").count(), 2, "{text}");

    // Corrupt the one-sided file: verify refuses it, show regenerates it.
    let one = dir.join("one-sided-6x15.cbd");
    let mut bytes = std::fs::read(&one).unwrap();
    bytes[5000] ^= 0x08;
    std::fs::write(&one, &bytes).unwrap();
    assert_refused(&["bearoff", "verify", s(&one)], "checksum");
    let out = run(&["bearoff", "show", FIFTEEN, "--dir", d]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rejected") && err.contains("checksum"),
        "{err}"
    );
    stdout(&["bearoff", "verify", s(&one)]);
}

#[test]
fn generate_and_verify_files() {
    let dir = ScratchDir::new("cli-bearoff-generate");
    let two = dir.join("two.cbd");
    let text = stdout(&["bearoff", "generate", "--two-sided", "3", "-o", s(&two)]);
    assert!(
        text.contains("two-sided database of 6 points and 3 checkers"),
        "{text}"
    );
    let text = stdout(&["bearoff", "verify", s(&two), "--all"]);
    assert!(
        text.contains("7056 of 7056 entries solved again: identical"),
        "{text}"
    );
    // Into the folder, under the conventional name.
    let text = stdout(&[
        "bearoff",
        "generate",
        "--one-sided",
        "--points",
        "4",
        "--checkers",
        "5",
        "--dir",
        s(&dir),
    ]);
    assert!(text.contains("one-sided-4x5.cbd"), "{text}");
    let text = stdout(&["bearoff", "verify", s(&dir.join("one-sided-4x5.cbd"))]);
    assert!(text.contains("126 of 126"), "{text}");
    // Truncated.
    let bytes = std::fs::read(&two).unwrap();
    std::fs::write(&two, &bytes[..bytes.len() - 10]).unwrap();
    assert_refused(&["bearoff", "verify", s(&two)], "truncated");
}

#[test]
fn bad_input_is_refused() {
    assert_refused(&["bearoff", "show", "not-an-id"], "bad Position ID");
    assert_refused(
        &[
            "bearoff",
            "generate",
            "--one-sided",
            "--points",
            "11",
            "-o",
            "/nonexistent/x",
        ],
        "1 to 10 points",
    );
    assert_refused(
        &[
            "bearoff",
            "generate",
            "--two-sided",
            "0",
            "-o",
            "/nonexistent/x",
        ],
        "checkers",
    );
    assert_refused(
        &["bearoff", "verify", "/nonexistent/file.cbd"],
        "cannot read",
    );
    let dir = ScratchDir::new("cli-bearoff-bad");
    let junk = dir.join("junk.cbd");
    std::fs::write(
        &junk,
        b"definitely not a database, but long enough to have a header",
    )
    .unwrap();
    assert_refused(
        &["bearoff", "verify", s(&junk)],
        "not a Cubeful bearoff database",
    );
}

#[test]
fn bench_reports_json() {
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "bench",
        "bearoff",
        "--lookups",
        "10000",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["one_sided_positions"], 54_264);
    assert_eq!(json["two_sided_pairs"], 853_776);
    for key in [
        "one_sided_generation_seconds",
        "two_sided_generation_seconds",
        "two_sided_lookup_ns",
        "one_sided_race_ns",
    ] {
        assert!(json[key].as_f64().unwrap() > 0.0, "{key}: {json}");
    }
}
