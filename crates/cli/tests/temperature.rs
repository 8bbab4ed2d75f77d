//! `cubeful-cli temperature`: the temperature map of the engine (`analysis::temperature`) as
//! text and as JSON, for a GNU Backgammon ID or an XGID, with the cube decision's two maps under
//! `--cube`.

mod common;

use std::sync::Arc;

use common::{assert_refused, stdout};
use cubeful_engine::analysis::hint::cube_context;
use cubeful_engine::analysis::temperature::{
    temperature_map, temperature_maps_for_cube, TemperatureMap,
};
use cubeful_engine::eval::Nets;
use cubeful_engine::search::{Level, Search};
use cubeful_engine::{gnubg_id, xgid, CubeOwner, Dice, MatchState, Player, Position};
use serde_json::Value;

/// The opening position, X on roll, money play (what a lone Position ID means).
const OPENING: &str = "4HPwATDgc/ABMA";

/// The engine's maps at 0-ply for a money game with the cube centred (no bearoff databases, as
/// the commands below are run).
fn engine_maps() -> (TemperatureMap, TemperatureMap) {
    let mut search = Search::new(Arc::new(Nets::embedded()));
    let ctx = cube_context(&MatchState::money(), true);
    let settings = Level::Expert.settings();
    let start = Position::starting();
    let map = temperature_map(&mut search, &start, &ctx, &settings);
    let (nd, dt) = temperature_maps_for_cube(&mut search, &start, &ctx, &settings).unwrap();
    assert_eq!(map, nd);
    (nd, dt)
}

/// A number of the JSON as the `f32` it was printed from.
#[track_caller]
fn f32_of(v: &Value) -> f32 {
    v.as_f64().unwrap_or_else(|| panic!("a number, not {v}")) as f32
}

#[track_caller]
fn assert_same_map(json: &Value, map: &TemperatureMap) {
    assert_eq!(json["plies"], 0);
    assert_eq!(f32_of(&json["average"]), map.average);
    assert!(json.get("average_mwc").is_none(), "money play: {json}");
    let rolls = json["rolls"].as_array().unwrap_or_else(|| panic!("{json}"));
    assert_eq!(rolls.len(), 21);
    for (r, e) in rolls.iter().zip(map.entries()) {
        assert_eq!(r["dice"], e.dice.to_string().as_str());
        assert_eq!(r["move"], e.text.as_str());
        assert_eq!(f32_of(&r["equity"]), e.equity);
        assert_eq!(f32_of(&r["deviation"]), e.deviation);
        assert_eq!(r["rank"], u64::from(e.rank));
    }
}

/// The grid of a text map: six rows of six signed equities under a header `1 … 6`.
fn grid_of(text: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.split_whitespace().eq(["1", "2", "3", "4", "5", "6"]))
        .unwrap_or_else(|| panic!("no grid header in {text}"));
    lines[header + 1..header + 7]
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let cells: Vec<String> = l.split_whitespace().map(String::from).collect();
            assert_eq!(cells.len(), 7, "{l}");
            assert_eq!(cells[0], (i + 1).to_string());
            cells[1..].to_vec()
        })
        .collect()
}

#[test]
fn the_text_map_is_a_grid_the_average_and_the_best_plays() {
    let (map, _) = engine_maps();
    let text = stdout(&["temperature", OPENING, "--plies", "0", "--no-bearoff"]);
    assert!(text.starts_with("Temperature map, 0-ply:"), "{text}");
    let grid = grid_of(&text);
    for (i, row) in grid.iter().enumerate() {
        for (j, cell) in row.iter().enumerate() {
            let dice = Dice::new(i as u8 + 1, j as u8 + 1).unwrap();
            assert_eq!(*cell, format!("{:+.3}", map.entry(dice).equity), "{dice}");
            assert_eq!(*cell, grid[j][i], "both orders of {dice}");
        }
    }
    assert!(
        text.contains(&format!("\nAverage: {:+.3}\n", map.average)),
        "{text}"
    );
    // One line per roll: the roll, its rank, its equity and its best play.
    for e in map.entries() {
        let line = format!(
            " {}   {:>4}  {:+.3}  {}\n",
            e.dice, e.rank, e.equity, e.text
        );
        assert!(text.contains(&line), "{line:?} in {text}");
    }
    let line_of = |roll: &str| text.lines().find(|l| l.starts_with(roll)).unwrap();
    assert!(line_of(" 31 ").ends_with("  8/5 6/5"), "{text}");
    assert!(line_of(" 65 ").ends_with("  24/13"), "{text}");
    assert!(text.contains("  24/18(2) 13/7(2)\n"), "{text}");
    // The same position as an XGID gives the same map.
    let x = xgid::encode(&Position::starting(), &MatchState::money());
    assert_eq!(stdout(&["temperature", &x, "--no-bearoff"]), text);
}

#[test]
fn the_json_map_is_the_engines() {
    let (nd, dt) = engine_maps();
    let text = stdout(&["temperature", OPENING, "--json", "--no-bearoff"]);
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_same_map(&json, &nd);
    // The cube decision's two maps.
    let text = stdout(&["temperature", OPENING, "--cube", "--json", "--no-bearoff"]);
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_same_map(&json["no_double"], &nd);
    assert_same_map(&json["double_take"], &dt);
    let text = stdout(&["temperature", OPENING, "--cube", "--no-bearoff"]);
    let (no_double, double_take) = text.split_once("Double, take, 0-ply:").unwrap();
    assert!(no_double.starts_with("No double, 0-ply:"), "{text}");
    let cell = |t: &str| grid_of(t)[5][5].clone();
    assert_eq!(
        cell(no_double),
        format!("{:+.3}", nd.entry(Dice::new(6, 6).unwrap()).equity)
    );
    assert_eq!(
        cell(double_take),
        format!("{:+.3}", dt.entry(Dice::new(6, 6).unwrap()).equity)
    );
}

#[test]
fn bad_input_is_refused() {
    assert_refused(
        &["temperature", "junk", "--no-bearoff"],
        "bad GNU Backgammon ID",
    );
    assert_refused(
        &["temperature", "XGID=nonsense", "--no-bearoff"],
        "bad XGID",
    );
    // The opponent owns the cube: no double/take map.
    let owned = MatchState {
        cube_log2: 1,
        cube_owner: CubeOwner::Owned(Player::Zero),
        ..MatchState::money()
    };
    let id = gnubg_id::encode(&Position::starting(), &owned);
    assert_refused(
        &["temperature", &id, "--cube", "--no-bearoff"],
        "cannot double",
    );
}
