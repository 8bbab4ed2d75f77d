//! `cubeful-cli match stats`: GNU Backgammon's report from the analysis stored in a match file,
//! as text, JSON and an HTML page; files without analysis; errors in one sentence.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_refused, run, stdout};
use cubeful_testkit::ScratchDir;

/// Two analysed actions of a 3-point match, with a name that needs escaping: player 1's
/// opening 53 played 8/3 6/3 where the analysis prefers 24/21 13/8 by 0.114 (a bad move).
const SMALL: &str = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:3][game:0][ws:0][bs:0]\
PW[<Ann & \"Co\">]PB[Bob]RU[Crawford]\n\
;B[53qvsv]A[1][lqad E ver 3 0.506958 0.138414 0.006971 0.128936 0.005446 0.200000 1C 0 1 0.000000 1]\
[qvsv E ver 3 0.513585 0.162085 0.007085 0.129371 0.006846 0.086027 1C 0 1 0.000000 1]MR[]LU[0.06400]\n\
;W[44xtxtmimi]DA[E ver 3 2C 1 0.000000 1 0.484622 0.130712 0.004983 0.159952 0.007782 -0.082241 0.491081 \
0.484622 0.130712 0.004983 0.159952 0.007782 -0.082241 0.446087]A[0][xtxtmimi E ver 3 0.579842 0.152305 \
0.005302 0.070231 0.001182 0.370150 1C 0 1 0.000000 1][xtxtfbfb E ver 3 0.548172 0.141419 0.004835 0.082112 \
0.001290 0.236267 1C 0 1 0.000000 1]MR[]LU[0.45000]GW[1])\n";

fn small_file(dir: &Path) -> PathBuf {
    let path = dir.join("small.sgf");
    std::fs::write(&path, SMALL).unwrap();
    path
}

#[test]
fn text_report_has_gnubgs_rows() {
    let dir = ScratchDir::new("match-stats-text");
    let file = small_file(&dir);
    let text = stdout(&["match", "stats", file.to_str().unwrap()]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Player                                   <Ann & \"Co\">            Bob                    "
    );
    for (label, a, b) in [
        ("Total moves", "1", "1"),
        ("Unforced moves", "1", "1"),
        ("Moves marked bad", "0", "1"),
        ("Rolls marked lucky", "1", "0"),
        ("Total cube decisions", "1", "0"),
        ("Chequerplay rating", "Supernatural", "Awful!"),
    ] {
        let row = lines
            .iter()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("{label}:\n{text}"));
        assert_eq!(row.len(), 88, "{row:?}");
        assert_eq!(row[41..64].trim(), a, "{row:?}");
        assert_eq!(row[65..].trim(), b, "{row:?}");
    }
    assert!(text.contains(
        "Error total EMG (MWC)                         -0.000 ( -0.000%)       -0.114 ("
    ));
    // An unfinished match: no result rows, but the FIBS estimates.
    assert!(!text.contains("Actual result"));
    assert!(text.contains("Error based abs. FIBS rating"));
    assert!(text.ends_with("\n\n\n\n"));
    assert_eq!(
        [
            "Chequerplay statistics",
            "Luck statistics",
            "Cube statistics",
            "Overall statistics"
        ]
        .iter()
        .filter(|t| lines.contains(t))
        .count(),
        4
    );
}

#[test]
fn json_has_the_sums_figures_and_marked_actions() {
    let dir = ScratchDir::new("match-stats-json");
    let file = small_file(&dir);
    let text = stdout(&["match", "stats", file.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], "SGF", "{v}");
    let stats = &v["statistics"];
    assert_eq!(stats["players"][0], "<Ann & \"Co\">");
    assert_eq!(stats["match_length"], 3);
    let bob = &stats["total"]["players"][1];
    assert_eq!(bob["total_moves"], 1);
    assert_eq!(bob["moves_by_skill"], serde_json::json!([0, 0, 1, 0]));
    let cost = bob["checker_cost"]["normalised"].as_f64().unwrap();
    assert!((cost - 0.113973).abs() < 1e-6, "{cost}");
    let marked = stats["marked"].as_array().unwrap();
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0]["game"], 1);
    assert_eq!(marked[0]["action"], 1);
    assert_eq!(marked[0]["player"], 1);
    assert_eq!(marked[0]["mark"], "bad");
    assert_eq!(marked[0]["dice"], "53");
    assert_eq!(marked[0]["played"], "8/3 6/3");
    assert_eq!(marked[0]["best"], "24/21 13/8");
    let figures = &v["figures"];
    assert_eq!(figures[1]["checker_rating"], "Awful!");
    assert_eq!(figures[0]["luck_rating"], "Go to Las Vegas");
    assert!(figures[0]["fibs"]["rating"].is_number());
    assert!(figures[0]["advantage"].is_null());
}

#[test]
fn html_page_is_self_contained_and_escaped() {
    let dir = ScratchDir::new("match-stats-html");
    let file = small_file(&dir);
    let page = dir.join("stats.html");
    let text = stdout(&[
        "match",
        "stats",
        file.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(text.starts_with("Player "), "the report is still printed");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("&lt;Ann &amp; &quot;Co&quot;&gt;"));
    assert!(!html.contains("<Ann"));
    assert!(html.contains("prefers-color-scheme: dark"));
    for external in ["<script", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(external), "{external}");
    }
    assert!(html.contains("<td>Moves marked bad</td>"));
    assert!(html.contains("<td>8/3 6/3</td><td>24/21 13/8</td>"));
    assert!(html.contains("3-point match"));
}

#[test]
fn errors_are_one_sentence() {
    let dir = ScratchDir::new("match-stats-errors");
    let missing = dir.join("missing.sgf");
    assert_refused(
        &["match", "stats", missing.to_str().unwrap()],
        "cannot read",
    );
    let broken = dir.join("broken.sgf");
    std::fs::write(&broken, "(;FF[4]GM[6]").unwrap();
    assert_refused(&["match", "stats", broken.to_str().unwrap()], "broken.sgf");
    let file = small_file(&dir);
    let nowhere = dir.join("no/such/folder/x.html");
    assert_refused(
        &[
            "match",
            "stats",
            file.to_str().unwrap(),
            "--html",
            nowhere.to_str().unwrap(),
        ],
        "does not exist",
    );
}

#[test]
fn corpus_reports_are_gnubgs() {
    let Some(shared) = cubeful_testkit::optional_shared_dir("`match stats` on the corpus") else {
        return;
    };
    let sgf = shared.join("corpus/sgf/gnubg-scripts_match1486073_analyzed.sgf");
    let expected = std::fs::read_to_string(
        shared.join("corpus/sgf/statistics/gnubg-scripts_match1486073_analyzed.txt"),
    )
    .unwrap();
    assert_eq!(stdout(&["match", "stats", sgf.to_str().unwrap()]), expected);

    // The same match as a .mat file, without analysis: the counts gnubg can make without it.
    let mat = shared.join("corpus/mat/galaxy/gnubg-scripts_match1486073.txt");
    let out = run(&["match", "stats", mat.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(
        "Total moves                               55                      54                    \n"
    ));
    assert!(text.contains(
        "Unforced moves                             0                       0                    \n"
    ));
    assert!(text.contains(
        "Chequerplay rating                       n/a                     n/a                    \n"
    ));
    assert!(text.contains(
        "Actual result                             +50.00%                 -50.00%               \n"
    ));
}
