//! End-to-end tests of the `cubeful-cli` binary.

use std::path::PathBuf;
mod common;

use common::{assert_refused, run, stdout};
use cubeful_testkit::ScratchDir;

#[test]
fn moves_of_the_opening_31() {
    let text = stdout(&["moves", "4HPwATDgc/ABMA", "31"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 16, "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["8/5", "6/5", "4HPwATCwZ/ABMA"]),
        "{text}"
    );
}

#[test]
fn moves_as_json() {
    let text = stdout(&["moves", "4HPwATDgc/ABMA", "65", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let moves = value.as_array().expect("an array");
    assert!(moves.iter().any(|m| m["move"] == "24/13"), "{text}");
    for m in moves {
        assert!(m["move"].is_string() && m["position"].as_str().unwrap().len() == 14);
    }
}

#[test]
fn dance_gives_the_unchanged_position() {
    // The player on roll has a checker on the bar; the opponent has closed its home board.
    let closed = "27YBBwAA8P8DQA"; // XGID=------------cN-----bbbbbbA:0:0:1:00:0:0:0:0:10
    let text = stdout(&["moves", closed, "64", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let moves = value.as_array().unwrap();
    assert_eq!(moves.len(), 1, "{text}");
    assert_eq!(moves[0]["move"], "");
    assert_eq!(moves[0]["position"], closed);
}

#[test]
fn show_draws_the_board_with_ids() {
    let text = stdout(&["show", "4HPwATDgc/ABMA:QYkqASAAIAAA"]);
    assert!(text.contains("Position ID: 4HPwATDgc/ABMA"), "{text}");
    assert!(text.contains("Match ID   : QYkqASAAIAAA"), "{text}");
    assert!(text.contains("9 point match"), "{text}");
    assert!(text.contains("Rolled 52"), "{text}");
    assert!(text.contains("Pip counts: O 167, X 167"), "{text}");
    assert!(
        text.contains("XGID=-b----E-C---eE---c-e----B-:1:-1:1:52:4:2:0:9:10"),
        "{text}"
    );
    assert!(text.contains("v|                  |BAR|"), "{text}");
}

#[test]
fn show_xgid_and_json() {
    let text = stdout(&[
        "show",
        "--json",
        "--xgid",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["position_id"], "4HPwATDgc/ABMA");
    assert_eq!(v["on_roll"], "X");
    assert_eq!(v["pips"][0], 167);
    assert_eq!(v["cube"], 1);
    assert_eq!(v["match_length"], 0);
}

#[test]
fn bad_input_is_refused_in_one_line() {
    assert_refused(&["moves", "4HPwATDgc/ABM", "31"], "14 characters");
    assert_refused(&["moves", "4HPwATDgc/AB!A", "31"], "not Base64");
    assert_refused(&["moves", "4HPwATDgc/ABMA", "70"], "1 to 6");
    assert_refused(&["moves", "4HPwATDgc/ABMA", "3"], "two digits");
    assert_refused(&["moves", "//////////////", "31"], "Position ID");
    assert_refused(&["show", "4HPwATDgc/ABMA:zzzzzzzzzzzz"], "Match ID");
    assert_refused(&["show", "--xgid", "XGID=nonsense"], "XGID");
    // 16 checkers on one point.
    assert_refused(&["show", "//8AAAAAAAAAAA"], "Position ID");
    assert_refused(&["show"], "Position ID");
}

#[test]
fn bench_movegen_reproduces_the_totals() {
    let dir = cubeful_testkit::shared_path("data/movegen");
    let text = stdout(&[
        "bench",
        "movegen",
        "--json",
        "--passes",
        "1",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["results"], 218_356 + 185_957 + 140_720 + 122_570);
    assert_eq!(v["rolls"], 42_000);
    assert!(v["generations_per_second"].as_f64().unwrap() > 0.0);
}

fn pubeval_dir() -> String {
    cubeful_testkit::shared_path("data/pubeval")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn eval_prints_consistent_chances() {
    let text = stdout(&["eval", "4HPwATDgc/ABMA", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let f = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k} in {text}"));
    let (w, wg, wbg, lg, lbg) = (
        f("win"),
        f("win_gammon"),
        f("win_backgammon"),
        f("lose_gammon"),
        f("lose_backgammon"),
    );
    assert!(
        wbg <= wg && wg <= w && lbg <= lg && lg <= 1.0 - w + 1e-6,
        "{text}"
    );
    let equity = 2.0 * w - 1.0 + wg - lg + wbg - lbg;
    assert!((f("equity") - equity).abs() < 1e-5, "{text}");
    // The opening position is close to even for the player on roll.
    assert!((0.4..0.65).contains(&w), "{text}");
    let plain = stdout(&["eval", "4HPwATDgc/ABMA"]);
    assert!(
        plain.contains("Cubeless") && plain.contains("Cubeful"),
        "{plain}"
    );
}

#[test]
fn eval_with_missing_nets_names_the_file() {
    assert_refused(
        &["eval", "4HPwATDgc/ABMA", "--nets", "/nonexistent/nets"],
        "contact.net",
    );
}

#[test]
fn duel_nets_far_ahead_of_random() {
    let text = stdout(&[
        "duel", "--a", "cubeful", "--b", "random", "--games", "300", "--seed", "3", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["games"], 300);
    assert_eq!(v["seed"], 3);
    let ppg = v["ppg"].as_f64().unwrap();
    assert!(v["ci95"].as_f64().unwrap() > 0.0);
    assert!(ppg > 0.8, "{text}");
}

#[test]
fn pubeval_beats_random() {
    let pubeval = format!("pubeval:{}", pubeval_dir());
    let text = stdout(&[
        "duel", "--a", &pubeval, "--b", "random", "--games", "400", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert!(v["ppg"].as_f64().unwrap() > 0.8, "{text}");
}

#[test]
fn duel_refuses_unknown_players_and_missing_weights() {
    let out = run(&["duel", "--a", "gnubg", "--b", "random"]);
    assert_eq!(out.status.code(), Some(2));
    assert_refused(
        &["duel", "--a", "pubeval:/nonexistent", "--b", "random"],
        "WT.cntc",
    );
}

#[test]
fn bench_eval_reports_a_rate() {
    let text = stdout(&[
        "bench",
        "eval",
        "--positions",
        "200",
        "--seconds",
        "0.2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert!(v["evals_per_second"].as_f64().unwrap() > 1000.0, "{text}");
}

#[test]
fn hint_ranks_the_opening_42() {
    let text = stdout(&[
        "hint",
        "4HPwATDgc/ABMA",
        "--dice",
        "42",
        "--plies",
        "2",
        "--json",
        "--no-bearoff",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let moves = v["moves"].as_array().expect("moves");
    assert!(moves.len() > 10, "{text}");
    assert_eq!(moves[0]["move"], "8/4 6/4", "{text}");
    assert_eq!(moves[0]["plies"], 2);
    for key in [
        "equity",
        "win",
        "win_gammon",
        "win_backgammon",
        "lose_gammon",
        "lose_backgammon",
    ] {
        assert!(moves[0][key].is_number(), "{key} in {text}");
    }
    let equities: Vec<f64> = moves
        .iter()
        .filter(|m| m["plies"] == 2)
        .map(|m| m["equity"].as_f64().unwrap())
        .collect();
    assert!(equities.windows(2).all(|w| w[0] >= w[1]), "{text}");
}

#[test]
fn hint_without_dice_gives_the_cube_decision() {
    let text = stdout(&[
        "hint",
        "4HPwATDgc/ABMA",
        "--plies",
        "1",
        "--json",
        "--no-bearoff",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let cube = &v["cube"];
    assert_eq!(cube["double_pass"], 1.0, "{text}");
    let nd = cube["no_double"].as_f64().unwrap();
    let dt = cube["double_take"].as_f64().unwrap();
    assert!(nd > -0.3 && nd < 0.3 && dt < nd, "{text}");
    assert!(
        cube["action"].as_str().unwrap().starts_with("No double"),
        "{text}"
    );
    // Plain text names the proper action.
    let plain = stdout(&["hint", "4HPwATDgc/ABMA", "--plies", "0", "--no-bearoff"]);
    assert!(plain.contains("Proper cube action"), "{plain}");
}

#[test]
fn eval_at_a_match_score_reports_match_winning_chances() {
    // 9-point match, 2-4, player 0 owns a 2-cube, player 1 on roll.
    let text = stdout(&[
        "eval",
        "4HPwATDgc/ABMA:QYkqASAAIAAA",
        "--plies",
        "1",
        "--json",
        "--no-bearoff",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let mwc = v["mwc"].as_f64().expect("mwc in match play");
    assert!((0.4..0.8).contains(&mwc), "{text}");
    assert_eq!(v["plies"], 1);
    assert!(v["cubeful_equity"].is_number() && v["cubeless_equity"].is_number());
}

#[test]
fn bearoff_positions_use_the_databases() {
    let dir = ScratchDir::new("cli-bearoff");
    // Both sides have two checkers on low points: the player on roll bears off at once.
    let text = stdout(&[
        "eval",
        "CgAAKAAAAAAAAA",
        "--json",
        "--bearoff-dir",
        dir.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["class"], "bearoff");
    assert_eq!(v["win"], 1.0, "{text}");
}

#[test]
fn duel_with_lookahead_players() {
    let text = stdout(&[
        "duel",
        "--a",
        "cubeful:plies=1",
        "--b",
        "cubeful:level=beginner",
        "--games",
        "10",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["games"], 10);
    assert!(v["a"].as_str().unwrap().contains("plies=1"), "{text}");
}

#[test]
fn bench_decisions_lists_its_decisions_and_measures_choices_made_elsewhere() {
    let dir = ScratchDir::new("bench-choices");
    let cache = dir.to_str().unwrap();
    // The arguments of a 10-decision set cached in `cache`, then `extra`.
    fn with<'a>(cache: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec![
            "bench",
            "decisions",
            "--positions",
            "10",
            "--reference-plies",
            "1",
        ];
        args.extend_from_slice(&["--cache", cache]);
        args.extend_from_slice(extra);
        args
    }
    let listing = stdout(&with(cache, &["--list"]));
    let rows: Vec<Vec<&str>> = listing
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 10, "{listing}");
    // Each decision played as `hint` would at 0-ply, written to a file of choices.
    let mut choices = String::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], i.to_string());
        assert!(["contact", "crashed", "race"].contains(&row[3]), "{row:?}");
        let text = stdout(&[
            "hint",
            row[1],
            "--dice",
            row[2],
            "--plies",
            "0",
            "--json",
            "--no-bearoff",
        ]);
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        choices.push_str(&format!(
            "{i} {}\n",
            v["moves"][0]["move"].as_str().unwrap()
        ));
    }
    let file = dir.join("choices.txt");
    std::fs::write(&file, &choices).unwrap();
    let per_decision = dir.join("errors.tsv");
    let text = stdout(&with(
        cache,
        &[
            "--choices",
            file.to_str().unwrap(),
            "--json",
            "--against",
            "../../data/nets",
            "--errors",
            per_decision.to_str().unwrap(),
        ],
    ));
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["overall"]["decisions"], 10, "{text}");
    let mean = v["overall"]["mean_error_millipoints"].as_f64().unwrap();
    assert!(mean >= 0.0);
    // Every decision's error, whose mean is the figure reported.
    let rows = std::fs::read_to_string(&per_decision).unwrap();
    let errors: Vec<f64> = rows
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(4).unwrap().parse().unwrap())
        .collect();
    assert_eq!(errors.len(), 10, "{rows}");
    assert!(
        (errors.iter().sum::<f64>() / 10.0 - mean).abs() < 0.01,
        "{rows}"
    );
    assert_eq!(rows.lines().nth(1).unwrap().split('\t').count(), 6);
    // A file with an illegal play: refused, naming the line.
    std::fs::write(&file, "0 25/1\n").unwrap();
    let out = run(&with(cache, &["--choices", file.to_str().unwrap()]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("line 1: decision 0 (roll "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bench_decisions_takes_the_move_filter_reduction_and_grandmaster_depth() {
    let dir = ScratchDir::new("bench-filter");
    let cache = dir.to_str().unwrap();
    let run_with = |extra: &[&str]| -> String {
        let mut args = vec!["bench", "decisions", "--positions", "10"];
        args.extend_from_slice(&["--reference-plies", "1", "--cache", cache]);
        args.extend_from_slice(extra);
        stdout(&args)
    };
    let normal = run_with(&["--plies", "1"]);
    assert!(normal.contains("1-ply choices against"), "{normal}");
    let large = run_with(&["--plies", "1", "--filter", "large"]);
    assert!(
        large.contains("1-ply choices with the large move filter against"),
        "{large}"
    );
    let deep = run_with(&["--plies", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&deep).expect("valid JSON");
    assert_eq!(v["overall"]["decisions"], 10, "{deep}");
    let reduced = run_with(&["--plies", "2", "--reduced"]);
    assert!(
        reduced.contains("2-ply reduced choices against"),
        "{reduced}"
    );
    let out = run(&["bench", "decisions", "--positions", "10", "--reduced"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--reduced needs --plies 2 or 3"));
    let out = run(&[
        "bench",
        "decisions",
        "--positions",
        "10",
        "--filter",
        "huge",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("normal, large"));
}

#[test]
fn bench_decisions_measures_several_seeds_as_one_set() {
    let dir = ScratchDir::new("bench-seeds");
    let cache = dir.to_str().unwrap();
    fn with<'a>(cache: &'a str, seed: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["bench", "decisions", "--positions", "10"];
        args.extend_from_slice(&["--reference-plies", "1", "--cache", cache, "--seed", seed]);
        args.extend_from_slice(extra);
        args
    }
    let rows = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split('\t').map(str::to_string).collect())
            .collect()
    };
    let one = rows(&stdout(&with(cache, "1", &["--list"])));
    let two = rows(&stdout(&with(cache, "2", &["--list"])));
    let both = rows(&stdout(&with(cache, "1,2", &["--list"])));
    assert_eq!(both.len(), 20);
    // Numbered in order: seed 1's decisions, then seed 2's.
    for (n, row) in both.iter().enumerate() {
        let alone = if n < 10 { &one[n] } else { &two[n - 10] };
        assert_eq!(row[0], n.to_string());
        assert_eq!(row[1..], alone[1..], "decision {n}");
    }
    let overall = |seed: &str, extra: &[&str]| -> (f64, usize, String) {
        let text = stdout(&with(
            cache,
            seed,
            &[&["--json", "--plies", "0"], extra].concat(),
        ));
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        (
            v["overall"]["mean_error_millipoints"].as_f64().unwrap(),
            v["overall"]["decisions"].as_u64().unwrap() as usize,
            v["set"].as_str().unwrap().to_string(),
        )
    };
    let (m1, n1, _) = overall("1", &[]);
    let (m2, n2, _) = overall("2", &[]);
    let (m, n, set) = overall("1,2", &[]);
    assert_eq!((n1, n2, n), (10, 10, 20));
    assert!((m - (m1 + m2) / 2.0).abs() < 1e-6, "{m} {m1} {m2}");
    assert!(set.contains("seed1") && set.contains("seed2"), "{set}");
    // Choices made elsewhere, numbered as the listing: only decision 13 differs from the
    // nets' own (the worst candidate there, a play of seed 2's fourth decision). The nets' own
    // choice is the best cubeless equity at 0-ply, the engine's `Probabilities::equity` of the
    // hint's chances (the first of equals): the hint ranks by cubeful equity, which can order
    // near-certain wins otherwise.
    let cubeless = |m: &serde_json::Value| -> f32 {
        let keys = [
            "win",
            "win_gammon",
            "win_backgammon",
            "lose_gammon",
            "lose_backgammon",
        ];
        let chances = keys.map(|k| m[k].as_f64().unwrap() as f32);
        cubeful_engine::eval::Probabilities::from_array(chances).equity()
    };
    let mut choices = String::new();
    for row in &both {
        let text = stdout(&[
            "hint",
            &row[1],
            "--dice",
            &row[2],
            "--plies",
            "0",
            "--json",
            "--no-bearoff",
        ]);
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let moves = v["moves"].as_array().unwrap();
        let pick = if row[0] == "13" {
            moves.len() - 1
        } else {
            let mut best = 0;
            for (i, m) in moves.iter().enumerate() {
                if cubeless(m) > cubeless(&moves[best]) {
                    best = i;
                }
            }
            best
        };
        choices.push_str(&format!(
            "{} {}\n",
            row[0],
            moves[pick]["move"].as_str().unwrap()
        ));
    }
    let file = dir.join("choices.txt");
    std::fs::write(&file, &choices).unwrap();
    let errors = |extra: &[&str]| -> (f64, Vec<f64>) {
        let tsv = dir.join("errors.tsv");
        let (mean, n, _) = overall(
            "1,2",
            &[extra, &["--errors", tsv.to_str().unwrap()]].concat(),
        );
        assert_eq!(n, 20);
        let text = std::fs::read_to_string(&tsv).unwrap();
        let rows = rows(&text);
        for (k, row) in rows.iter().enumerate() {
            assert_eq!(row[..4], both[k][..4], "the listing's numbers");
        }
        (mean, rows.iter().map(|r| r[4].parse().unwrap()).collect())
    };
    let (mean_nets, nets) = errors(&[]);
    let (mean_file, file_errors) = errors(&["--choices", file.to_str().unwrap()]);
    for k in (0..20).filter(|&k| k != 13) {
        assert_eq!(nets[k], file_errors[k], "decision {k}: the same play");
    }
    assert_ne!(nets[13], file_errors[13], "decision 13: another play");
    let expected = mean_nets + (file_errors[13] - nets[13]) / 20.0;
    assert!(
        (mean_file - expected).abs() < 0.01,
        "{mean_file} {expected}"
    );
    // A number beyond both sets is refused, naming the line.
    std::fs::write(&file, format!("{choices}20 8/5 6/5\n")).unwrap();
    let out = run(&with(cache, "1,2", &["--choices", file.to_str().unwrap()]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("line 21: there is no decision 20 (the set has 20)"),
        "{err}"
    );
}

#[test]
fn bench_decisions_measures_a_list_of_decisions() {
    let dir = ScratchDir::new("bench-list");
    let cache = dir.to_str().unwrap();
    let base = [
        "bench",
        "decisions",
        "--reference-plies",
        "1",
        "--cache",
        cache,
    ];
    let seeded = [&base[..], &["--positions", "10", "--seed", "3"]].concat();
    // Seed 3's decisions as a list: position ID and roll, with a comment.
    let listing = stdout(&[&seeded[..], &["--list"]].concat());
    let mut list = String::from("# from seed 3\n");
    for row in listing.lines().filter(|l| !l.starts_with('#')) {
        let row: Vec<&str> = row.split('\t').collect();
        list.push_str(&format!("{} {}\n", row[1], row[2]));
    }
    let file = dir.join("list.txt");
    std::fs::write(&file, &list).unwrap();
    let listed = [&base[..], &["--decisions-from", file.to_str().unwrap()]].concat();
    let measure = |args: &[&str]| -> serde_json::Value {
        let text = stdout(&[args, &["--json", "--plies", "0"]].concat());
        serde_json::from_str(&text).expect("valid JSON")
    };
    let (a, b) = (measure(&seeded), measure(&listed));
    assert_eq!(b["overall"]["decisions"], 10);
    assert_eq!(
        a["overall"], b["overall"],
        "the same decisions, scored alike"
    );
    assert!(b["set"].as_str().unwrap().contains("-list"), "{b}");
    // The same listing, in the same order.
    let relisted = stdout(&[&listed[..], &["--list"]].concat());
    assert_eq!(relisted, listing);
    // A bad line is named; a list with a seed is refused.
    std::fs::write(&file, format!("{list}4HPwATDgc/ABMA 77\n")).unwrap();
    let out = run(&listed);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("line 12: roll \"77\""), "{err}");
    assert_refused(&[&listed[..], &["--seed", "2"]].concat(), "--seed");
}

#[test]
fn bench_decisions_chooses_bearoffs_by_the_databases_when_asked() {
    let dir = ScratchDir::new("bench-bearoff");
    let cache = dir.to_str().unwrap();
    let with = |seed: &str, extra: &[&str]| -> Vec<String> {
        let mut args = vec!["bench", "decisions", "--positions", "10", "--seed", seed];
        args.extend_from_slice(&["--reference-plies", "1", "--cache", cache]);
        args.extend_from_slice(extra);
        args.into_iter().map(str::to_string).collect()
    };
    let errors = |seed: &str, extra: &[&str]| -> Vec<String> {
        let tsv = dir.join("errors.tsv");
        let args = with(
            seed,
            &[extra, &["--errors", tsv.to_str().unwrap()]].concat(),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = stdout(&args);
        if extra.contains(&"--bearoff") {
            assert!(
                text.contains("0-ply choices with the bearoff databases"),
                "{text}"
            );
        }
        let rows = std::fs::read_to_string(&tsv).unwrap();
        rows.lines()
            .skip(1)
            .map(|l| l.split('\t').nth(4).unwrap().to_string())
            .collect()
    };
    // A set of ten decisions holding a bearoff where the databases choose another play than
    // the race net (which sets do depends on the embedded nets: with adam13x's, seed 15 is the
    // first from 10; with adam16ex's, seed 10, whose decision 8 is a lost bearoff where plays tie).
    let found = (10..60).map(|s| s.to_string()).find_map(|seed| {
        let with_databases = errors(&seed, &["--bearoff"]);
        (with_databases != errors(&seed, &[])).then_some((seed, with_databases))
    });
    let (seed, with_databases) = found.expect("a set where the race net alone chooses otherwise");
    // The plays `hint` ranks first at 0-ply with the bearoff databases by cubeless equity (the
    // benchmark's measure; hint's own order is the cubeful money equity's), as a file of choices.
    let listing = with(&seed, &["--list"]);
    let listing: Vec<&str> = listing.iter().map(String::as_str).collect();
    let mut choices = String::new();
    for row in stdout(&listing).lines().filter(|l| !l.starts_with('#')) {
        let row: Vec<&str> = row.split('\t').collect();
        let text = stdout(&["hint", row[1], "--dice", row[2], "--plies", "0", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let cubeless = |m: &serde_json::Value| {
            let p = |k: &str| m[k].as_f64().unwrap();
            2.0 * p("win") - 1.0 + p("win_gammon") + p("win_backgammon")
                - p("lose_gammon")
                - p("lose_backgammon")
        };
        // The first of equals, as the benchmark takes them (bearoffs lost whatever the play
        // tie exactly).
        let best = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .reduce(|best, m| {
                if cubeless(m) > cubeless(best) {
                    m
                } else {
                    best
                }
            })
            .unwrap();
        choices.push_str(&format!("{} {}\n", row[0], best["move"].as_str().unwrap()));
    }
    let file = dir.join("choices.txt");
    std::fs::write(&file, &choices).unwrap();
    assert_eq!(
        with_databases,
        errors(&seed, &["--choices", file.to_str().unwrap()]),
        "seed {seed}"
    );
}

/// A fresh [`ScratchDir`] with an empty subfolder for each of `subfolders`: the folder and the
/// subfolders' paths.
fn fresh_folders<const N: usize>(name: &str, subfolders: [&str; N]) -> (ScratchDir, [PathBuf; N]) {
    let dir = ScratchDir::new(name);
    let paths = subfolders.map(|sub| dir.join(sub));
    for path in &paths {
        std::fs::create_dir_all(path).unwrap();
    }
    (dir, paths)
}

/// `train label --chunks 1 --threads 1` with `args`, which must succeed: its standard error.
fn train_label_one_chunk(args: &[&str]) -> String {
    let out = run(&[&["train", "label", "--chunks", "1", "--threads", "1"], args].concat());
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// A fresh [`ScratchDir`] holding `data/`: one chunk of 30 self-play positions with 1-ply
/// targets, as `train label` writes it.
fn labelled_data(name: &str) -> (ScratchDir, PathBuf) {
    let (dir, [data]) = fresh_folders(name, ["data"]);
    let d = data.to_str().unwrap();
    train_label_one_chunk(&["--dir", d, "--chunk-positions", "30", "--plies", "1"]);
    (dir, data)
}

#[test]
fn train_supervised_widens_the_nets_it_is_asked_to() {
    let (dir, data) = labelled_data("widen");
    let d = data.to_str().unwrap();
    let embedded = cubeful_engine::eval::Nets::embedded();
    let widths = |extra: &[&str]| -> [usize; 3] {
        let nets = dir.join("nets");
        let mut args = vec![
            "train",
            "supervised",
            "--optimizer",
            "adam",
            "--data-dir",
            d,
        ];
        args.extend_from_slice(&["--epochs", "1", "--threads", "1", "--out"]);
        args.push(nets.to_str().unwrap());
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{out:?}");
        let n = cubeful_engine::eval::Nets::load_dir(&nets).unwrap();
        [n.contact.hidden(), n.crashed.hidden(), n.race.hidden()]
    };
    // The shipped nets need not be of one width (a 256-unit contact net beside a 192-unit
    // crashed one since round adam17).
    let (c, k, r) = (
        embedded.contact.hidden(),
        embedded.crashed.hidden(),
        embedded.race.hidden(),
    );
    assert_eq!(widths(&[]), [c, k, r]);
    assert_eq!(
        widths(&["--hidden-race", &(r + 64).to_string()]),
        [c, k, r + 64]
    );
    assert_eq!(
        widths(&["--hidden", &(c + 64).to_string()]),
        [c + 64, c + 64, r]
    );
    assert_eq!(
        widths(&["--hidden-crashed", &(c + 128).to_string()]),
        [c, c + 128, r]
    );
    assert_eq!(
        widths(&[
            "--hidden",
            &(c + 64).to_string(),
            "--hidden-crashed",
            &(c + 128).to_string()
        ]),
        [c + 64, c + 128, r]
    );
    // Narrowing is refused, naming the net.
    let out = run(&[
        "train",
        "supervised",
        "--optimizer",
        "adam",
        "--data-dir",
        d,
        "--out",
        "x",
        "--hidden-race",
        "8",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("cannot widen the race net to 8 hidden units: it has"),
        "{err}"
    );
    // A second layer is widened (the shipped contact net has one), never narrowed.
    let s = embedded.contact.second();
    assert!(s > 8);
    let nets = dir.join("nets2");
    let second = |units: usize| {
        run(&[
            "train",
            "supervised",
            "--optimizer",
            "adam",
            "--data-dir",
            d,
            "--epochs",
            "1",
            "--threads",
            "1",
            "--out",
            nets.to_str().unwrap(),
            "--second-layer",
            &units.to_string(),
        ])
    };
    let out = second(s + 64);
    assert!(out.status.success(), "{out:?}");
    let n = cubeful_engine::eval::Nets::load_dir(&nets).unwrap();
    assert_eq!((n.contact.hidden(), n.contact.second()), (c, s + 64));
    assert_eq!(n.crashed.second(), embedded.crashed.second());
    let out = second(8);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!(
            "the contact net's second hidden layer has {s} units, more than 8"
        )),
        "{err}"
    );
}

#[test]
fn train_supervised_classes_trains_only_those_nets() {
    let (dir, data) = labelled_data("classes");
    let nets = dir.join("nets");
    let embedded = cubeful_engine::eval::Nets::embedded();
    let c = embedded.contact.hidden();
    let wider = (c + 64).to_string();
    let out = run(&[
        "train",
        "supervised",
        "--optimizer",
        "adam",
        "--data-dir",
        data.to_str().unwrap(),
        "--epochs",
        "1",
        "--threads",
        "1",
        "--hidden",
        &wider,
        "--classes",
        "contact",
        "--out",
        nets.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("supervised: only the contact nets: "), "{err}");
    let n = cubeful_engine::eval::Nets::load_dir(&nets).unwrap();
    // The contact net widened and trained; the others written as they started, not widened.
    assert_eq!(n.contact.hidden(), c + 64);
    assert_ne!(n.contact.params().w1, embedded.contact.params().w1);
    assert_eq!(n.crashed, embedded.crashed);
    assert_eq!(n.race, embedded.race);
    // An unknown class is refused by name.
    let out = run(&[
        "train",
        "supervised",
        "--data-dir",
        data.to_str().unwrap(),
        "--out",
        "x",
        "--classes",
        "contact,bearoff",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid value 'bearoff'"), "{err}");
}

#[test]
fn train_hard_keeps_the_examples_the_nets_misjudge() {
    let (dir, data) = labelled_data("hard");
    let d = data.to_str().unwrap();
    let hard = dir.join("hard.bin");
    let count = |min_error: &str| -> usize {
        let out = run(&[
            "train",
            "hard",
            "--data-dir",
            d,
            "--min-error",
            min_error,
            "--out",
            hard.to_str().unwrap(),
            "--threads",
            "2",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(err.contains(" of 30 examples at least "), "{err}");
        // The file's record count (after the 8-byte magic) is what the summary says.
        let bytes = std::fs::read(&hard).unwrap();
        let n = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize;
        let summary = format!("hard: {n} of 30");
        assert!(err.lines().any(|l| l.starts_with(&summary)), "{err}");
        n
    };
    assert_eq!(count("0"), 30);
    assert_eq!(count("3"), 0);
    // 1-ply targets differ from 0-ply somewhat: a middle threshold keeps some, not all.
    let some = count("0.01");
    assert!(some > 0 && some < 30, "{some}");
    assert_refused(
        &[
            "train",
            "hard",
            "--data-dir",
            d,
            "--min-error",
            "4",
            "--out",
            "x",
        ],
        "--min-error",
    );
}

#[test]
fn train_depth_trains_a_net_of_two_hidden_layers_and_prints_every_epoch() {
    let (_dir, [data]) = fresh_folders("depth", ["data"]);
    let d = data.to_str().unwrap();
    train_label_one_chunk(&[
        "--dir",
        d,
        "--class",
        "contact",
        "--chunk-positions",
        "200",
        "--plies",
        "0",
    ]);
    let args = [
        "train",
        "depth",
        "--data-dir",
        d,
        "--class",
        "contact",
        "--hidden",
        "8,4",
    ];
    let text = stdout(&[&args[..], &["--epochs", "2", "--validation", "0.2"]].concat());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (epoch, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("epoch {epoch}/2,")), "{text}");
        assert!(
            line.contains("held-out loss") && line.contains("equity RMSE"),
            "{text}"
        );
    }
    // The parts of `--part` divide the examples: ahead or behind in the race, with checkers
    // back or free; no position is both ahead and behind.
    let examples = |parts: &[&str]| -> usize {
        let out = run(&[&args[..], &["--epochs", "1", "--validation", "0.2"], parts].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        // "…, N training and M held-out examples"
        let line = err.lines().find(|l| l.ends_with("held-out examples"));
        let words: Vec<&str> = line.expect("the sizes").split_whitespace().collect();
        let n = words.len();
        words[n - 6].parse::<usize>().unwrap() + words[n - 3].parse::<usize>().unwrap()
    };
    let all = examples(&[]);
    let (ahead, behind) = (
        examples(&["--part", "ahead"]),
        examples(&["--part", "behind"]),
    );
    assert!(
        ahead > 0 && behind > 0 && ahead + behind == all,
        "{ahead} + {behind} ≠ {all}"
    );
    let (back, free) = (examples(&["--part", "back"]), examples(&["--part", "free"]));
    assert!(
        back > 0 && free > 0 && back + free == all,
        "{back} + {free} ≠ {all}"
    );
    let both = run(&[&args[..], &["--part", "ahead", "--part", "behind"]].concat());
    let err = String::from_utf8_lossy(&both.stderr);
    assert_eq!(both.status.code(), Some(2), "{err}");
    assert!(err.contains("0 contact examples are too few"), "{err}");
    // No race in the folder: nothing to train on.
    let race = [
        "train",
        "depth",
        "--data-dir",
        d,
        "--class",
        "race",
        "--hidden",
        "8",
    ];
    let out = run(&race);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("0 race examples are too few"), "{err}");
    assert!(!err.contains("panicked") && out.stdout.is_empty(), "{err}");
    assert_refused(
        &[&args[..4], &["--class", "contact", "--hidden", "0"]].concat(),
        "--hidden",
    );
}

/// A folder `name` holding a chunk of 40 races labelled at 0-ply (`zero`) and the same races
/// labelled again at 1-ply (`one`), for `train compare`.
fn races_at_zero_and_one_ply(name: &str) -> (ScratchDir, String, String) {
    let (dir, [zero, one]) = fresh_folders(name, ["zero", "one"]);
    let (z, o) = (zero.to_str().unwrap(), one.to_str().unwrap());
    train_label_one_chunk(&["--dir", z, "--class", "race", "--chunk-positions", "40"]);
    train_label_one_chunk(&["--from", z, "--dir", o, "--plies", "1"]);
    (dir, z.to_string(), o.to_string())
}

/// `train compare` of `data` against `reference`, with `more` arguments: its output.
fn train_compare(reference: &str, data: &str, more: &[&str]) -> String {
    let args = [
        &[
            "train",
            "compare",
            "--reference",
            reference,
            "--data-dir",
            data,
        ],
        more,
    ];
    stdout(&args.concat())
}

#[test]
fn train_compare_splits_the_races_by_the_lead_of_the_side_on_roll() {
    let (_dir, z, o) = races_at_zero_and_one_ply("compare");
    let text = train_compare(&z, &o, &["--races-by-lead"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[3].starts_with("races by the pip lead"), "{text}");
    for label in [
        "behind >20",
        "behind 9-20",
        "within 8",
        "ahead 9-20",
        "ahead >20",
    ] {
        assert!(lines[4].contains(label), "{text}");
    }
    // Each cell is "count mean RMSE": the races of the first table (fields 9–11 of its row,
    // after the set, the files and the contact and crashed cells) are the five cells' counts.
    let fields =
        |line: &str| -> Vec<String> { line.split_whitespace().map(str::to_string).collect() };
    let (row, by_lead) = (fields(lines[2]), fields(lines[5]));
    let races: usize = row[8].parse().unwrap();
    assert!(races > 0, "{text}");
    let counts: usize = (0..5)
        .map(|i| by_lead[1 + 3 * i].parse::<usize>().unwrap())
        .sum();
    assert_eq!(counts, races, "{text}");
    // Without the flag, only the first table.
    let text = train_compare(&z, &o, &[]);
    assert_eq!(text.lines().count(), 3, "{text}");
}

#[test]
fn train_compare_takes_a_second_references_noise_out() {
    let (_dir, z, o) = races_at_zero_and_one_ply("compare-second");
    // The 1-ply labels against the 0-ply ones, with themselves as the second reference: every
    // (t − r₁)(t − r₂) is 0, so nothing is left beyond the "noise", which is the plain RMSE
    // over √2.
    let text = train_compare(&z, &o, &["--second-reference", &o]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[3].starts_with("beyond the rollouts' noise"), "{text}");
    let fields: Vec<&str> = lines[2].split_whitespace().collect();
    let (count, rmse): (usize, f64) = (
        fields[fields.len() - 3].parse().unwrap(),
        fields[fields.len() - 1].parse().unwrap(),
    );
    assert!(count > 0 && rmse > 0.0, "{text}");
    let crossed: Vec<&str> = lines[5].split_whitespace().collect();
    let n = crossed.len();
    assert_eq!(crossed[n - 3].parse::<usize>().unwrap(), count, "{text}");
    assert_eq!(crossed[n - 2], "0.0000", "{text}");
    let noise: f64 = crossed[n - 1].parse().unwrap();
    assert!((noise - rmse / 2f64.sqrt()).abs() < 0.0002, "{text}");
}

#[test]
fn train_label_from_labels_the_same_positions_again() {
    let (_dir, [first, second, third]) = fresh_folders("relabel", ["first", "second", "third"]);
    let label = train_label_one_chunk;
    label(&[
        "--dir",
        first.to_str().unwrap(),
        "--chunk-positions",
        "5",
        "--plies",
        "1",
    ]);
    let text = label(&[
        "--from",
        first.to_str().unwrap(),
        "--dir",
        second.to_str().unwrap(),
        "--plies",
        "2",
        "--prune",
    ]);
    assert!(text.contains("(5 positions at 2-ply, pruned)"), "{text}");
    // Data files: an 8-byte magic, a u64 count, then per example 26 bytes of position and five
    // f32 chances.
    let a = std::fs::read(first.join("chunk-00000.bin")).unwrap();
    let b = std::fs::read(second.join("chunk-00000.bin")).unwrap();
    assert_eq!(a.len(), b.len());
    let records = |bytes: &[u8]| -> Vec<Vec<u8>> {
        bytes[16..bytes.len() - 4]
            .chunks(46)
            .map(<[u8]>::to_vec)
            .collect()
    };
    let (ra, rb) = (records(&a), records(&b));
    assert_eq!(ra.len(), 5);
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(x[..26], y[..26], "the same positions, in the same order");
    }
    assert!(
        ra.iter().zip(&rb).any(|(x, y)| x[26..] != y[26..]),
        "2-ply targets differ from 1-ply ones somewhere"
    );
    // Blended: each target halfway between the old (1-ply) and the new (2-ply) one.
    let text = label(&[
        "--from",
        first.to_str().unwrap(),
        "--dir",
        third.to_str().unwrap(),
        "--plies",
        "2",
        "--prune",
        "--blend",
        "0.5",
    ]);
    assert!(
        text.contains("blended with 0.5 of the old targets"),
        "{text}"
    );
    let rc = records(&std::fs::read(third.join("chunk-00000.bin")).unwrap());
    let chances = |r: &[u8]| -> Vec<f32> {
        r[26..]
            .chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    for ((x, y), z) in ra.iter().zip(&rb).zip(&rc) {
        assert_eq!(x[..26], z[..26]);
        for ((a, b), c) in chances(x).iter().zip(chances(y)).zip(chances(z)) {
            assert!((c - (a + b) / 2.0).abs() < 1e-6, "{a} {b} {c}");
        }
    }
    assert_refused(
        &[
            "train",
            "label",
            "--dir",
            third.to_str().unwrap(),
            "--blend",
            "0.5",
        ],
        "--from",
    );
    // Written chunks are skipped: a second run writes nothing.
    let again = label(&[
        "--from",
        first.to_str().unwrap(),
        "--dir",
        second.to_str().unwrap(),
    ]);
    assert!(!again.contains("positions at"), "{again}");
    let d = second.to_str().unwrap();
    let f = first.to_str().unwrap();
    assert_refused(
        &[
            "train",
            "label",
            "--dir",
            d,
            "--from",
            f,
            "--explore",
            "0.5",
        ],
        "--explore",
    );
    assert_refused(
        &["train", "label", "--dir", d, "--prune", "--rollout", "9"],
        "--prune",
    );
    for wrong in [
        ["--first-plays", "5", "--class", "contact"],
        ["--first-plays", "5", "--source", "races"],
        ["--first-plays", "0", "--seed", "1"],
    ] {
        let args = [&["train", "label", "--dir", d], &wrong[..]].concat();
        assert_refused(&args, "--first-plays");
    }
    // Only positions of a class are picked for their gammon in doubt.
    assert_refused(&["train", "label", "--dir", d, "--gammonish"], "--class");
    // Close races are races, and not also picked for their gammon.
    for (wrong, named) in [
        (&["--close-races", "8"][..], "--class"),
        (
            &["--close-races", "8", "--class", "contact"][..],
            "--close-races",
        ),
        (
            &["--close-races", "8", "--class", "race", "--gammonish"][..],
            "--gammonish",
        ),
        // Back games have contact, and are picked for that alone.
        (&["--back-checkers", "3"][..], "--class"),
        (
            &["--back-checkers", "3", "--class", "race"][..],
            "--back-checkers",
        ),
        (
            &["--back-checkers", "3", "--class", "crashed", "--gammonish"][..],
            "--gammonish",
        ),
        (
            &["--back-checkers", "0", "--class", "crashed"][..],
            "--back-checkers",
        ),
    ] {
        let args = [&["train", "label", "--dir", d][..], wrong].concat();
        assert_refused(&args, named);
    }
    assert_refused(
        &["train", "label", "--dir", d, "--from", f, "--gammonish"],
        "--gammonish",
    );
    // The databases inside the search are for --plies (rollouts use them anyway).
    for (wrong, named) in [
        (&["--bearoff-leaves", "--rollout", "9"][..], "--rollout"),
        (&["--bearoff-leaves", "--no-bearoff"][..], "--no-bearoff"),
    ] {
        let args = [&["train", "label", "--dir", d], wrong].concat();
        assert_refused(&args, named);
    }
    // Truncation is for rollouts, after at least one ply.
    for (wrong, named) in [
        (&["--truncate", "10"][..], "--rollout"),
        (&["--rollout", "9", "--truncate", "0"][..], "--truncate"),
    ] {
        let args = [&["train", "label", "--dir", d], wrong].concat();
        assert_refused(&args, named);
    }
}

#[test]
fn train_label_with_rollouts_keeps_the_misjudged_positions() {
    let dir = ScratchDir::new("label");
    let d = dir.to_str().unwrap();
    let label = |threshold: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "label",
            "--dir",
            d,
            "--chunks",
            "1",
            "--chunk-positions",
            "6",
            "--rollout",
            "24",
            "--probe",
            "12",
            "--threshold",
            threshold,
            "--no-bearoff",
            "--threads",
            "1",
        ];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stderr).to_string();
        std::fs::remove_file(dir.join("chunk-00000.bin")).unwrap();
        text
    };
    // Threshold 0: every position probed is rolled out and kept.
    for source in ["self-play", "candidates", "races", "holding-games"] {
        let all = label("0", &["--source", source]);
        assert!(
            all.contains("(6 positions rolled out, of 6 probed"),
            "{all}"
        );
    }
    // The largest threshold: no probe is that far from 0-ply, so the chunk is empty.
    let none = label("3", &["--source", "self-play"]);
    assert!(
        none.contains("(0 positions rolled out, of 6 probed"),
        "{none}"
    );
    // Truncated rollouts label every position too.
    let cut = label("0", &["--truncate", "4", "--first-plays", "3"]);
    assert!(
        cut.contains("(6 positions rolled out, of 6 probed"),
        "{cut}"
    );
    assert_refused(
        &[
            "train",
            "label",
            "--dir",
            d,
            "--rollout",
            "9",
            "--threshold",
            "4",
        ],
        "--threshold",
    );
    assert_refused(&["train", "label", "--dir", d, "--probe", "9"], "--rollout");
}
