//! `cubeful-cli analyse` on real files of the corpus (`../shared/corpus`): the report of one
//! file, the analysed SGF it writes, a pass-through that keeps GNU Backgammon's analysis, the
//! summary of several files, bad input; and, where GNU Backgammon is installed, that it reports
//! the same statistics as we do for the analysis we write.

mod common;

use std::path::PathBuf;

use common::{assert_refused, run, stdout};
use cubeful_engine::formats::sgf::{self, tree};
use cubeful_engine::game::record::analysis::EvalSource;
use cubeful_engine::game::record::RecordAction;
use cubeful_testkit::ScratchDir;

fn corpus(rel: &str) -> PathBuf {
    cubeful_testkit::shared_path("corpus").join(rel)
}

/// A 3-point match GNU Backgammon 1.07 analysed (2 games, about 100 plays).
fn small_match() -> PathBuf {
    corpus("sgf/gnubg-scripts_match1486073_analyzed.sgf")
}

/// The values of every `A`, `DA` and `LU` property of an SGF text, in order.
fn analysis_values(text: &str) -> Vec<(String, Vec<String>)> {
    let collection = tree::parse(text).unwrap();
    let mut out = Vec::new();
    for game in &collection.trees {
        for node in game.main_line() {
            for p in &node.properties {
                let ident = p.canonical_ident();
                if ["A", "DA", "LU"].contains(&ident.as_str()) {
                    out.push((ident, p.values.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn one_file_report_and_analysed_sgf() {
    let dir = ScratchDir::new("analyse-one");
    let out = dir.join("analysed.sgf");
    let text = stdout(&[
        "analyse",
        small_match().to_str().unwrap(),
        "--level",
        "1",
        "--cube-level",
        "0ply",
        "--threads",
        "2",
        "--existing",
        "replace",
        "--no-bearoff",
        "--out",
        out.to_str().unwrap(),
    ]);
    for heading in [
        "Chequerplay statistics",
        "Luck statistics",
        "Cube statistics",
        "Overall statistics",
        "Marked decisions",
    ] {
        assert!(text.contains(heading), "{heading} missing:\n{text}");
    }
    assert!(text.starts_with("Player "), "{text}");
    assert!(text.contains("lasse") && text.contains("jonnyb1169"));

    // The SGF written holds our analysis: checker plays at 1-ply, cube decisions at 0-ply.
    let written = std::fs::read_to_string(&out).unwrap();
    let (record, warnings) = sgf::read(&written).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let (mut plays, mut cubes) = (0, 0);
    for game in &record.games {
        assert!(
            game.stored_statistics.is_none(),
            "GNU Backgammon's GS is stale"
        );
        for entry in &game.entries {
            let Some(a) = &entry.analysis else { continue };
            if let Some(m) = &a.moves {
                plays += 1;
                let deepest = m
                    .candidates
                    .iter()
                    .filter_map(|c| match &c.eval.as_ref()?.source {
                        EvalSource::Eval(e) => Some(e.plies),
                        EvalSource::Rollout(_) => None,
                    })
                    .max();
                assert!(deepest == Some(1) || m.candidates.len() == 1);
            }
            if let Some(c) = &a.cube {
                cubes += 1;
                assert!(matches!(&c.source, EvalSource::Eval(e) if e.plies == 0));
            }
            if let RecordAction::Move { .. } = entry.action {
                assert!(a.luck.is_some());
            }
        }
    }
    assert!(plays > 80 && cubes > 20, "{plays} {cubes}");

    // JSON: the same statistics for programs.
    let json = stdout(&[
        "analyse",
        out.to_str().unwrap(),
        "--existing",
        "keep",
        "--report",
        "json",
        "--no-bearoff",
    ]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["players"][0], "lasse");
    assert_eq!(value["match_length"], 3);
    assert!(value["marked"].is_array());
}

#[test]
fn gnubg_analysis_passes_through() {
    let dir = ScratchDir::new("analyse-keep");
    for name in [
        "gnubg-scripts_match1486073_analyzed.sgf",
        "gnubg-scripts_test-match01_analyzed.sgf",
    ] {
        let input = corpus(&format!("sgf/{name}"));
        let out = dir.join(name);
        stdout(&[
            "analyse",
            input.to_str().unwrap(),
            "--existing",
            "keep",
            "--no-bearoff",
            "--out",
            out.to_str().unwrap(),
        ]);
        let original = std::fs::read_to_string(&input).unwrap();
        let written = std::fs::read_to_string(&out).unwrap();
        let values = analysis_values(&original);
        assert!(values.len() > 100);
        assert_eq!(analysis_values(&written), values, "{name}");
    }
}

#[test]
fn several_files_are_summarised_per_player() {
    // Three analysed matches (nothing left to analyse) and a .mat file analysed at 0-ply.
    let files = [
        corpus("sgf/gnubg-scripts_match1486073_analyzed.sgf"),
        corpus("sgf/gnubg-scripts_match1484923_analyzed.sgf"),
        corpus("sgf/gnubg-scripts_test-match01_analyzed.sgf"),
        corpus("paired/gbf_charlot1-charlot2_7p_2025-11-08-2305.mat"),
    ];
    let mut args = vec!["analyse"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--existing", "keep", "--level", "0", "--no-bearoff"]);
    let table = stdout(&args);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("Player"), "{table}");
    // lasse plays in two of the matches, everyone else in one.
    let lasse = lines.iter().find(|l| l.starts_with("lasse ")).unwrap();
    assert_eq!(lasse.split_whitespace().nth(1), Some("2"), "{table}");
    for name in [
        "jonnyb1169",
        "klara",
        "gnubg",
        "LMDN",
        "charlot1",
        "charlot2",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("{name} "))),
            "{name} missing:\n{table}"
        );
    }
    args.extend(["--report", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&args)).unwrap();
    assert_eq!(json["players"].as_array().unwrap().len(), 7);
    // One page per match: refused for several.
    let out = run(&[
        "analyse",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        "--existing",
        "keep",
        "--report",
        "html",
        "--no-bearoff",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give one file"));
    // The page of one match.
    let page = stdout(&[
        "analyse",
        files[0].to_str().unwrap(),
        "--existing",
        "keep",
        "--report",
        "html",
        "--no-bearoff",
    ]);
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("jonnyb1169"));
}

#[test]
fn rollouts_on_request() {
    // The first four actions of a match, rolled out.
    let dir = ScratchDir::new("analyse-rollout");
    let text = std::fs::read_to_string(small_match()).unwrap();
    let (mut record, _) = sgf::read(&text).unwrap();
    record.truncate_at(0, 4);
    record.games[0].stored_statistics = None;
    let input = dir.join("short.sgf");
    std::fs::write(&input, sgf::write(&record)).unwrap();
    let out = dir.join("rolled.sgf");
    stdout(&[
        "analyse",
        input.to_str().unwrap(),
        "--rollout",
        "2",
        "--rollout-candidates",
        "1",
        "--level",
        "0",
        "--existing",
        "replace",
        "--no-bearoff",
        "--out",
        out.to_str().unwrap(),
    ]);
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("X ver 3 Score"), "{written}");
    assert!(written.contains("Trials 2 "), "{written}");
}

#[test]
fn bad_input_is_refused() {
    let file = small_match();
    let file = file.to_str().unwrap();
    // Options clap refuses (its message has a usage line too).
    for (level, expect) in [("7", "at most 4 plies"), ("godlike", "unknown level")] {
        let out = run(&["analyse", file, "--level", level]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(expect) && !err.contains("panicked"), "{err}");
        assert!(out.stdout.is_empty());
    }
    let dir = ScratchDir::new("analyse-bad");
    let mat = dir.join("out.mat");
    assert_refused(
        &["analyse", file, "--out", mat.to_str().unwrap()],
        "written as SGF",
    );
    let sgf_out = dir.join("out.sgf");
    assert_refused(
        &["analyse", file, file, "--out", sgf_out.to_str().unwrap()],
        "one input file",
    );
    assert_refused(
        &["analyse", file, "--player", "nobody", "--no-bearoff"],
        "no player \"nobody\"",
    );
    let missing = dir.join("missing.sgf");
    let out = run(&["analyse", missing.to_str().unwrap(), "--no-bearoff"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.sgf"));
}

/// The statistics part of a report: from the `Player` line to the last non-empty line before
/// `Marked decisions` (ours) or the end of the output (GNU Backgammon's), lines right-trimmed.
fn statistics_block(text: &str) -> Vec<String> {
    let start = text
        .find("Player ")
        .unwrap_or_else(|| panic!("no Player line in:\n{text}"));
    let rest = &text[start..];
    let end = rest.find("Marked decisions").unwrap_or(rest.len());
    let mut lines: Vec<String> = rest[..end]
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect();
    // GNU Backgammon's prompt or our next section ends the block.
    if let Some(i) = lines
        .iter()
        .position(|l| l.starts_with("(") || l.contains("gnubg"))
    {
        lines.truncate(i);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

#[test]
fn gnubg_reports_what_we_report_for_our_analysis() {
    let Some(gnubg) = cubeful_testkit::gnubg("the analysis test against it") else {
        return;
    };
    let dir = ScratchDir::new("analyse-gnubg");
    // A .mat match (no analysis of its own) and a GNU Backgammon SGF analysed again.
    let inputs = [
        corpus("paired/gbf_charlot1-charlot2_7p_2025-11-08-2305.mat"),
        small_match(),
    ];
    for (i, input) in inputs.iter().enumerate() {
        let out = dir.join(format!("ours{i}.sgf"));
        let ours = stdout(&[
            "analyse",
            input.to_str().unwrap(),
            "--level",
            "0",
            "--existing",
            "replace",
            "--no-bearoff",
            "--out",
            out.to_str().unwrap(),
        ]);
        let home = dir.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let script = format!(
            "set confirm new off\nload match {}\nshow statistics match\nquit\n",
            out.display()
        );
        let output = cubeful_testkit::run_gnubg_script(&gnubg, &home, &script);
        let said = String::from_utf8_lossy(&output.stdout).into_owned();
        let theirs = statistics_block(&said);
        let ours = statistics_block(&ours);
        assert!(ours.len() > 40, "{ours:?}");
        assert_eq!(
            ours,
            theirs,
            "{}: GNU Backgammon's statistics differ from ours:\n{}\n---- gnubg said:\n{said}",
            input.display(),
            ours.join("\n")
        );
    }
}
