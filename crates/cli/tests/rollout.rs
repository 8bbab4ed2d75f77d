//! `cubeful-cli rollout` and `cubeful-cli bench rollout`: GNU Backgammon's printout, the JSON
//! for programs, the same figures with one or two threads, and refused input.

mod common;

use common::{assert_refused, stdout};
use cubeful_engine::{gnubg_id, CubeOwner, MatchState, Player, Position};
use cubeful_testkit::ScratchDir;
use serde_json::Value;

/// Short rollouts: a few plies, then a 0-ply evaluation.
const QUICK: [&str; 6] = ["--trials", "36", "--truncate", "4", "--seed", "7"];

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).expect("JSON output")
}

fn with(base: &[&str], more: &[&str]) -> Vec<String> {
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

fn run_json(args: &[String]) -> Value {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    json(&refs)
}

#[test]
fn a_position_rollout_prints_as_gnubg_does() {
    let text = stdout(
        &with(&["rollout", "4HPwATDgc/ABMA"], &QUICK)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Current position:");
    // "  0.531 0.154 0.007 - 0.469 0.120 0.005 CL +0.097 CF +0.176"
    assert!(lines[1].starts_with("  0."), "{text}");
    assert!(lines[1].contains(" - ") && lines[1].contains(" CL ") && lines[1].contains(" CF "));
    assert!(
        lines[2].starts_with(" [0.") && lines[2].ends_with(']'),
        "{text}"
    );
    assert_eq!(
        lines[3],
        "Truncated cubeful rollout (depth 4) with variance reduction"
    );
    assert_eq!(
        lines[4],
        "36 games, SplitMix64 dice gen. with seed 7 and quasi-random dice"
    );
    assert!(
        text.contains("Play: 0-ply cubeful prune [expert]"),
        "{text}"
    );
    // Cubeless: no CF column.
    let text = stdout(
        &with(
            &["rollout", "4HPwATDgc/ABMA", "--cubeless", "--no-vr"],
            &QUICK,
        )
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    assert!(!text.contains(" CF "), "{text}");
    assert!(
        text.contains("Truncated cubeless rollout (depth 4)"),
        "{text}"
    );
    assert!(text.contains("without variance reduction"), "{text}");
}

#[test]
fn candidate_plays_and_cube_decisions_as_json() {
    let v = run_json(&with(
        &[
            "rollout",
            "4HPwATDgc/ABMA",
            "--dice",
            "31",
            "--candidates",
            "3",
            "--json",
        ],
        &QUICK,
    ));
    assert_eq!(v["kind"], "moves");
    assert_eq!(v["dice"], "31");
    let alternatives = v["alternatives"].as_array().unwrap();
    assert_eq!(alternatives.len(), 3);
    assert_eq!(alternatives[0]["name"], "8/5 6/5");
    for a in alternatives {
        assert_eq!(a["trials"], 36);
        assert_eq!(a["mean"].as_array().unwrap().len(), 7);
        assert_eq!(a["std_error"].as_array().unwrap().len(), 7);
        assert!(a["equity"].as_f64().unwrap().abs() < 3.0);
        assert_eq!(a["status"], serde_json::json!({"done": "trial_limit"}));
    }
    assert_eq!(v["settings"]["seed"], 7);
    assert_eq!(v["settings"]["truncation"], 4);

    let v = run_json(&with(
        &["rollout", "4HPwATDgc/ABMA", "--cube", "--json"],
        &QUICK,
    ));
    assert_eq!(v["kind"], "cube");
    assert_eq!(v["alternatives"][0]["name"], "No double");
    assert_eq!(v["alternatives"][1]["name"], "Double, take");
    assert_eq!(v["cube"]["double_pass"], 1.0);
    // The opening position is no double (a beaver with beavers allowed, as by default).
    assert!(v["cube"]["action"]
        .as_str()
        .unwrap()
        .starts_with("No double, "));
    // Match play: match winning chances beside the equities.
    let state = MatchState {
        match_length: 7,
        score: [2, 4],
        on_roll: Player::One,
        turn: Player::One,
        ..MatchState::money()
    };
    let id = gnubg_id::encode(&Position::starting(), &state);
    let v = run_json(&with(&["rollout", &id, "--json"], &QUICK));
    let mwc = v["alternatives"][0]["mwc"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&mwc));
}

#[test]
fn one_and_two_threads_give_the_same_figures() {
    let args = |threads: &str| {
        with(
            &[
                "rollout",
                "4HPwATDgc/ABMA",
                "--dice",
                "42",
                "--candidates",
                "2",
                "--json",
                "--threads",
                threads,
            ],
            &QUICK,
        )
    };
    let one = run_json(&args("1"));
    let two = run_json(&args("2"));
    assert_eq!(one["alternatives"], two["alternatives"]);
}

#[test]
fn bad_input_is_refused() {
    assert_refused(&["rollout", "nonsense"], "bad GNU Backgammon ID");
    assert_refused(&["rollout", "4HPwATDgc/ABMA", "--trials", "0"], "--trials");
    assert_refused(&["rollout", "4HPwATDgc/ABMA", "--dice", "71"], "bad dice");
    assert_refused(&["rollout", "4HPwATDgc/ABMA", "--stop-se=-1"], "--stop-se");
    assert_refused(
        &["rollout", "4HPwATDgc/ABMA", "--candidates", "0"],
        "--candidates",
    );
    // The opponent owns the cube: no cube decision.
    let state = MatchState {
        cube_log2: 1,
        cube_owner: CubeOwner::Owned(Player::Zero),
        on_roll: Player::One,
        turn: Player::One,
        ..MatchState::money()
    };
    let id = gnubg_id::encode(&Position::starting(), &state);
    assert_refused(&["rollout", &id, "--cube"], "cannot double");
}

#[test]
fn the_benchmark_reports_games_per_second() {
    let v = json(&[
        "bench",
        "rollout",
        "--games",
        "6",
        "--vr-games",
        "1",
        "--json",
    ]);
    let measures = v["measures"].as_array().unwrap();
    assert_eq!(measures.len(), 2);
    assert_eq!(measures[0]["variance_reduction"], false);
    assert_eq!(measures[1]["variance_reduction"], true);
    for m in measures {
        assert_eq!(m["program"], "cubeful");
        assert!(m["games_per_second_per_thread"].as_f64().unwrap() > 0.0);
    }
    assert_refused(&["bench", "rollout", "--games", "0"], "--games");
}

/// Rollouts stored in a match record are written as GNU Backgammon's `X ver 3` values, which
/// GNU Backgammon loads and saves back unchanged (but for the dice generator's name, which it
/// does not know and replaces by its default). Skipped loudly without gnubg, except under CI.
#[test]
fn gnubg_loads_rollouts_written_as_sgf() {
    use cubeful_engine::formats::sgf;
    use cubeful_engine::game::record::analysis::EvalSource;
    use cubeful_engine::search::rollout::{record, Rollout, RolloutSettings, Subject};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    let Some(gnubg) = cubeful_testkit::gnubg("the test of our rollouts in SGF against it") else {
        return;
    };
    // Rollouts of the plays of an opening 31 and of the opening cube decision.
    let nets = Arc::new(cubeful_engine::eval::Nets::embedded());
    let ctx =
        cubeful_engine::cube::CubeContext::money(1, cubeful_engine::cube::Ownership::Centered);
    let settings = RolloutSettings {
        trials: 36,
        seed: 1234,
        truncation: Some(5),
        threads: 2,
        ..RolloutSettings::default()
    };
    let moves = cubeful_engine::legal_moves(
        &Position::starting(),
        cubeful_engine::Dice::new(3, 1).unwrap(),
    );
    let roll = |subject| {
        Rollout::new(
            nets.clone(),
            None,
            &Position::starting(),
            &ctx,
            subject,
            &settings,
        )
        .unwrap()
        .run(&AtomicBool::new(false), &mut |_| {})
    };
    let plays = roll(Subject::Moves(moves[..2].to_vec()));
    let cube = roll(Subject::Cube);
    // Put them into an analysed match from the corpus: its first analysed play and cube
    // decision.
    let path = cubeful_testkit::shared_path("corpus/sgf/gnubg-scripts_test-match01_analyzed.sgf");
    let text = std::fs::read_to_string(&path).expect("the corpus SGF");
    let (mut record, _) = sgf::read(&text).unwrap();
    let entries = &mut record.games[0].entries;
    let play = entries
        .iter_mut()
        .find(|e| {
            e.analysis
                .as_ref()
                .is_some_and(|a| a.moves.as_ref().is_some_and(|m| m.candidates.len() >= 2))
        })
        .expect("an analysed play");
    let analysis = play.analysis.as_mut().unwrap();
    let m = analysis.moves.as_mut().unwrap();
    for i in 0..2 {
        m.candidates[i].eval = Some(record::candidate_eval(&plays, i).unwrap());
    }
    analysis.cube = Some(record::cube_analysis(&cube).unwrap());
    let expected = (m.candidates[..2].to_vec(), analysis.cube.clone().unwrap());

    let dir = ScratchDir::new("rollout-sgf");
    std::fs::create_dir_all(dir.join("home")).unwrap();
    let ours = dir.join("ours.sgf");
    let theirs = dir.join("theirs.sgf");
    std::fs::write(&ours, sgf::write(&record)).unwrap();
    let script = format!(
        "set confirm new off\nset confirm save off\nload match {}\nsave match {}\nquit\n",
        ours.display(),
        theirs.display()
    );
    let mut child = std::process::Command::new(&gnubg)
        .args(["-t", "-q"])
        .env("HOME", dir.join("home"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("gnubg starts");
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait().unwrap();
    let saved = std::fs::read_to_string(&theirs).expect("gnubg saved the match");
    let (back, _) = sgf::read(&saved).unwrap();
    let found = back.games[0]
        .entries
        .iter()
        .find_map(|e| {
            let a = e.analysis.as_ref()?;
            let c = a.moves.as_ref()?.candidates.first()?;
            matches!(c.eval.as_ref()?.source, EvalSource::Rollout(_)).then_some(a)
        })
        .expect("gnubg kept the rolled-out plays");
    let unnamed = |s: &str| s.replace("\"SplitMix64\"", "\"Mersenne Twister\"");
    for (got, want) in found.moves.as_ref().unwrap().candidates[..2]
        .iter()
        .zip(&expected.0)
    {
        let (got, want) = (got.eval.as_ref().unwrap(), want.eval.as_ref().unwrap());
        let (EvalSource::Rollout(g), EvalSource::Rollout(w)) = (&got.source, &want.source) else {
            panic!("{got:?}")
        };
        assert_eq!(g.trials, w.trials);
        assert_eq!(unnamed(&g.settings), unnamed(&w.settings));
        for (a, b) in got.probabilities.iter().zip(&want.probabilities) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
        for (a, b) in g.std_dev.iter().zip(&w.std_dev) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
        assert!((got.equity - want.equity).abs() < 1e-6);
    }
    let cube_back = found.cube.as_ref().expect("gnubg kept the cube rollout");
    for (a, b) in cube_back
        .no_double
        .iter()
        .chain(&cube_back.double_take)
        .zip(expected.1.no_double.iter().chain(&expected.1.double_take))
    {
        assert!((a - b).abs() < 1e-6, "{a} vs {b}");
    }
    let (EvalSource::Rollout(g), EvalSource::Rollout(w)) = (&cube_back.source, &expected.1.source)
    else {
        panic!("{cube_back:?}")
    };
    assert_eq!(g.trials, w.trials);
    assert_eq!(unnamed(&g.settings), unnamed(&w.settings));
}
