//! `cubeful-cli hint ID --rollout`: the engine's hint by rollout, as a table with a rollout note
//! or as the hint's JSON with `rolled` and `trials`; decisions that are not rolled out are
//! refused in one line.

mod common;

use common::{assert_refused, stdout};
use cubeful_engine::{gnubg_id, MatchState, Player, Position, Resignation};
use serde_json::Value;

const OPENING: &str = "4HPwATDgc/ABMA";

fn json(args: &[&str]) -> Value {
    let text = stdout(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad JSON {text}: {e}"))
}

fn f64_of(v: &Value) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("a number expected, got {v}"))
}

#[test]
fn a_roll_is_rolled_out_and_ranked_by_the_rollout() {
    let base = [
        "hint",
        OPENING,
        "--dice",
        "64",
        "--rollout",
        "--trials",
        "36",
        "--candidates",
        "3",
        "--seed",
        "1",
        "--no-bearoff",
    ];
    let mut args = base.to_vec();
    args.push("--json");
    let v = json(&args);
    assert_eq!(v["dice"], "64", "{v}");
    assert_eq!(v["rolled"], 3);
    assert_eq!(v["trials"], 36);
    let moves = v["moves"].as_array().expect("the plays");
    assert!(moves.len() > 3, "every play is listed");
    let equity = |i: usize| f64_of(&moves[i]["equity"]);
    assert!(equity(0) >= equity(1) && equity(1) >= equity(2), "{v}");
    assert_eq!(f64_of(&moves[0]["difference"]), 0.0);
    for m in moves {
        let d = f64_of(&m["difference"]);
        assert!((d - (f64_of(&m["equity"]) - equity(0))).abs() < 1e-6, "{m}");
    }
    // The same seed gives the same rollout; the table says it is one.
    let text = stdout(&base);
    assert!(text.starts_with("Rolled 64:"), "{text}");
    assert!(
        text.contains("(rollout, 36 trials: the first 3 plays rolled out"),
        "{text}"
    );
    let best = moves[0]["move"].as_str().expect("a play");
    assert!(
        text.lines().nth(1).is_some_and(|l| l.contains(best)),
        "{best}: {text}"
    );
    // The rolled-out plays say so, the others give their depth, in the same columns.
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("Eq.:")).collect();
    assert!(
        rows[..3].iter().all(|l| l[3..].starts_with(". rolled ")),
        "{text}"
    );
    assert!(rows[3..].iter().all(|l| l.contains(". 0-ply  ")), "{text}");
    let column = |l: &str| l.find("Eq.:");
    assert!(rows.iter().all(|l| column(l) == column(rows[0])), "{text}");
}

#[test]
fn a_cube_decision_is_rolled_out() {
    let v = json(&[
        "hint",
        OPENING,
        "--rollout",
        "--trials",
        "36",
        "--seed",
        "1",
        "--no-bearoff",
        "--json",
    ]);
    assert_eq!(v["double"], false, "{v}");
    assert_eq!(v["rolled"], 0);
    assert_eq!(v["trials"], 36);
    assert_eq!(v["plies"], 0);
    assert!(f64_of(&v["cube"]["no_double"]).abs() < 0.5, "{v}");
    let text = stdout(&[
        "hint",
        OPENING,
        "--rollout",
        "--trials",
        "36",
        "--seed",
        "1",
        "--no-bearoff",
    ]);
    assert!(text.contains("(rollout, 36 trials)"), "{text}");
}

#[test]
fn what_is_not_rolled_out_is_refused() {
    let resigned = MatchState {
        on_roll: Player::Zero,
        turn: Player::One,
        resigned: Some(Resignation::Single),
        ..MatchState::money()
    };
    let id = gnubg_id::encode(&Position::starting(), &resigned);
    assert_refused(
        &["hint", &id, "--rollout", "--trials", "36", "--no-bearoff"],
        "cannot be rolled out",
    );
    assert_refused(
        &[
            "hint",
            OPENING,
            "--rollout",
            "--trials",
            "0",
            "--no-bearoff",
        ],
        "--trials",
    );
    // The rollout's options need --rollout.
    let out = common::run(&["hint", OPENING, "--trials", "36"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--rollout"));
    assert!(out.stdout.is_empty());
}
