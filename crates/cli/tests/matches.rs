//! `cubeful-cli convert`, `match show` and the terminal's save/load/import/export commands, on
//! real files of the corpus (`../shared/corpus`).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{assert_refused, run, stdout};
use cubeful_testkit::ScratchDir;

fn corpus(rel: &str) -> PathBuf {
    cubeful_testkit::shared_path("corpus").join(rel)
}

/// The actions of `match show --json` without the file name and format.
fn shown_games(file: &Path) -> serde_json::Value {
    let text = stdout(&["match", "show", file.to_str().unwrap(), "--json"]);
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["games"].take()
}

#[test]
fn mat_to_sgf_to_mat_keeps_every_move_and_id() {
    let dir = ScratchDir::new("matches-convert");
    for rel in ["mat/gnubg", "mat/xg", "mat/studio"] {
        let folder = corpus(rel);
        let mut files: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "mat"))
            .collect();
        files.sort();
        for file in files.iter().take(3) {
            let sgf = dir.join("m.sgf");
            let mat = dir.join("m.mat");
            let out = run(&["convert", file.to_str().unwrap(), sgf.to_str().unwrap()]);
            assert!(
                out.status.success(),
                "{}: {}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            stdout(&["convert", sgf.to_str().unwrap(), mat.to_str().unwrap()]);
            let original = shown_games(file);
            assert!(original.as_array().is_some_and(|g| !g.is_empty()));
            assert_eq!(shown_games(&sgf), original, "{} via SGF", file.display());
            assert_eq!(shown_games(&mat), original, "{} via .mat", file.display());
        }
    }
}

#[test]
fn match_show_prints_ids_and_moves_of_an_analysed_sgf() {
    let file = corpus("sgf/gbf_test.sgf");
    let text = stdout(&["match", "show", file.to_str().unwrap()]);
    assert!(text.contains("Game 1:"), "{text}");
    // The opening position's ID before the first move, and the first move in gnubg notation.
    assert!(text.contains("4HPwATDgc/ABMA:"), "{text}");
    assert!(text.contains("51: 24/23 13/8"), "{text}");
    let games = shown_games(&file);
    assert_eq!(games.as_array().unwrap().len(), 7);
    // Every action carries its position's class; a game starts in contact and, played out,
    // reaches a race or a bearoff; `eval` agrees with the class shown.
    let first = &games[0]["actions"];
    let classes: Vec<&str> = first
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["class"].as_str().unwrap())
        .collect();
    assert_eq!(classes[0], "contact");
    assert!(classes
        .iter()
        .all(|c| ["over", "bearoff", "race", "crashed", "contact"].contains(c)));
    for action in first.as_array().unwrap().iter().step_by(7) {
        let id = action["position_id"].as_str().unwrap();
        let eval: serde_json::Value =
            serde_json::from_str(&stdout(&["eval", id, "--json", "--no-bearoff"])).unwrap();
        assert_eq!(eval["class"], action["class"], "{id}");
    }
}

#[test]
fn bad_files_are_refused_in_one_line() {
    let dir = ScratchDir::new("matches-bad");
    let bad = dir.join("bad.sgf");
    std::fs::write(&bad, "(;FF[4]GM[6]\n;B[41lp").unwrap();
    assert_refused(&["match", "show", bad.to_str().unwrap()], "line 2");
    let junk = dir.join("junk.mat");
    std::fs::write(&junk, "hello\n").unwrap();
    assert_refused(&["match", "show", junk.to_str().unwrap()], "point match");
    assert_refused(
        &["match", "show", dir.join("missing.sgf").to_str().unwrap()],
        "missing.sgf",
    );
    assert_refused(&["match", "show", "/dev/zero"], "not a regular file");
    let out = dir.join("x.xg");
    assert_refused(
        &[
            "convert",
            corpus("sgf/gbf_test.sgf").to_str().unwrap(),
            out.to_str().unwrap(),
        ],
        ".sgf, .mat or .txt",
    );
    assert_refused(
        &[
            "convert",
            corpus("sgf/gbf_test.sgf").to_str().unwrap(),
            dir.join("no/such/folder/x.sgf").to_str().unwrap(),
        ],
        "does not exist",
    );
}

#[test]
fn terminal_saves_loads_imports_and_exports() {
    let dir = ScratchDir::new("matches-terminal");
    let sgf = dir.join("t.sgf");
    let mat = dir.join("t.mat");
    let txt = dir.join("t.txt");
    let pos = dir.join("p.txt");
    let imported = corpus("mat/gnubg")
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "mat"))
        .min()
        .unwrap();
    let script = format!(
        "new match 3\nroll\nsave match {s}\nexport match mat {m}\nexport match text {t}\n\
         export position text {p}\nload match {s}\nshow score\nimport mat {i}\nshow score\n",
        s = sgf.display(),
        m = mat.display(),
        t = txt.display(),
        p = pos.display(),
        i = imported.display()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubeful-cli"))
        .args(["--seed", "7"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for f in [&sgf, &mat, &txt, &pos] {
        assert!(f.is_file(), "{} was not written:\n{text}", f.display());
    }
    assert!(std::fs::read_to_string(&sgf)
        .unwrap()
        .starts_with("(;FF[4]GM[6]"));
    assert!(std::fs::read_to_string(&mat)
        .unwrap()
        .contains(" 3 point match"));
    assert!(std::fs::read_to_string(&pos)
        .unwrap()
        .contains("Position ID"));
    assert!(
        text.contains(&format!("Loaded {}", sgf.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("Loaded {}", imported.display())),
        "{text}"
    );
    // The saved match loads back to the same games and actions.
    assert_eq!(shown_games(&sgf), shown_games(&mat));
}
