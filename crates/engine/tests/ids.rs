//! Position ID, Match ID, GNUID and XGID against the shared corpus (`shared/corpus/ids/`) and
//! random input.
//!
//! * `vectors.txt`: every vector, every listed fact, exact re-encoding;
//! * `backgammoncalculator_gnu_4ply_identifier_oracle.csv`: 3,802 gnubg-printed ID pairs with
//!   independently transcribed facts, plus that package's XGID conversion;
//! * `gnubg_textexport_pairs_bglab.tsv.gz`: 187,737 gnubg-printed ID pairs, round trips;
//! * property tests: random states round-trip, random text never makes a parser panic.

use std::collections::HashMap;
use std::io::Read;

use cubeful_engine::formats::ids::gnubg_id::{self, GnubgIdError};
use cubeful_engine::formats::ids::match_id::{self, MatchIdError};
use cubeful_engine::formats::ids::position_id::{self, PositionIdError};
use cubeful_engine::formats::ids::xgid::{self, Xgid, XgidError};
use cubeful_engine::{CubeOwner, Dice, GameState, MatchState, Player, Position, Resignation, Side};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Helpers

/// The checkers of gnubg player `p` in gnubg's per-side layout (own points 1..=24, then the bar).
fn side_of(position: &Position, state: &MatchState, p: Player) -> [u8; 25] {
    if p == state.on_roll {
        position.side(Side::Player)
    } else {
        position.side(Side::Opponent)
    }
}

fn borne_off(side: &[u8; 25]) -> u8 {
    15 - side.iter().sum::<u8>()
}

fn owner_code(owner: CubeOwner) -> i32 {
    match owner {
        CubeOwner::Centered => -1,
        CubeOwner::Owned(p) => p.index() as i32,
    }
}

fn dice_pair(state: &MatchState) -> (u8, u8) {
    state.dice.map_or((0, 0), |d| (d.first(), d.second()))
}

/// Splits one CSV record, honouring double quotes.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// CSV text as records keyed by the header's column names.
fn csv_records(text: &str) -> Vec<HashMap<String, String>> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = csv_fields(lines.next().expect("a header line"));
    lines
        .map(|line| {
            let fields = csv_fields(line);
            assert_eq!(fields.len(), header.len(), "{line}");
            header.iter().cloned().zip(fields).collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Manual examples

#[test]
fn manual_position_id() {
    assert_eq!(position_id::encode(&Position::starting()), "4HPwATDgc/ABMA");
    assert_eq!(
        position_id::decode("4HPwATDgc/ABMA"),
        Ok(Position::starting())
    );
}

#[test]
fn manual_match_id() {
    let state = match_id::decode("QYkqASAAIAAA").expect("the manual's Match ID");
    assert_eq!(state.match_length, 9);
    assert_eq!(state.score, [2, 4]);
    assert_eq!(state.cube_value(), 2);
    assert_eq!(state.cube_owner, CubeOwner::Owned(Player::Zero));
    assert_eq!(state.on_roll, Player::One);
    assert_eq!(state.turn, Player::One);
    assert_eq!(state.dice, Dice::new(5, 2).ok());
    assert_eq!(state.game_state, GameState::Playing);
    assert!(!state.doubled);
    assert_eq!(state.resigned, None);
    assert!(!state.crawford);
    assert!(state.jacoby, "bit 66 is 0: the Jacoby rule is in use");
    assert_eq!(match_id::encode(&state), "QYkqASAAIAAA");
}

#[test]
fn match_id_rejects_invalid_codes() {
    // Start from a valid key and break one field at a time.
    let valid = match_id::match_key(&match_id::decode("QYkqASAAIAAA").expect("valid"));
    let with = |f: &dyn Fn(&mut [u8; 9])| {
        let mut key = valid;
        f(&mut key);
        match_id::from_key(&key)
    };
    // Cube owner code 2 (bits 4-5).
    assert_eq!(
        with(&|k| k[0] = (k[0] & !0x30) | 0x20),
        Err(MatchIdError::CubeOwner(2))
    );
    // Game states 5, 6, 7 (bits 8-10).
    for gs in 5..=7u8 {
        assert_eq!(
            with(&|k| k[1] = (k[1] & !0x07) | gs),
            Err(MatchIdError::GameState(gs))
        );
    }
    // First die 7 (bits 15-17: bit 7 of byte 1 and bits 0-1 of byte 2).
    assert!(matches!(
        with(&|k| {
            k[1] |= 0x80;
            k[2] |= 0x03;
        }),
        Err(MatchIdError::DieValue {
            die: 1,
            value: 7,
            ..
        })
    ));
    // Second die 0, first die 5.
    assert_eq!(
        with(&|k| k[2] &= !0x1c),
        Err(MatchIdError::OneDieMissing {
            first: 5,
            second: 0
        })
    );
    // Unused bit 67.
    assert_eq!(with(&|k| k[8] |= 0x08), Err(MatchIdError::TrailingBits));
    // Crawford in money play: gnubg rejects it too.
    let mut money = MatchState::money();
    money.crawford = true;
    assert_eq!(
        match_id::decode(&match_id::encode(&money)),
        Err(MatchIdError::CrawfordInMoney)
    );
    // A score above the match length (a score equal to it is what gnubg prints at match end).
    let mut over = MatchState::new_match(5);
    over.score = [5, 3];
    assert_eq!(match_id::decode(&match_id::encode(&over)), Ok(over));
    over.score = [6, 3];
    assert_eq!(
        match_id::decode(&match_id::encode(&over)),
        Err(MatchIdError::ScoreBeyondMatch {
            player: Player::Zero,
            score: 6,
            length: 5
        })
    );
    // Text errors name the place.
    assert_eq!(match_id::decode(""), Err(MatchIdError::Length(0)));
    assert_eq!(
        match_id::decode("QYkqASAAIAéA"),
        Err(MatchIdError::BadCharacter {
            ch: 'é', index: 10
        })
    );
}

#[test]
fn match_id_accepts_what_gnubg_prints() {
    // Game state 0 while the dice are set: the first move of a game in gnubg text exports.
    let s = match_id::decode("cAhvAAAAAAAE").expect("gnubg prints this");
    assert_eq!(s.game_state, GameState::NoGame);
    assert_eq!(s.dice, Dice::new(6, 3).ok());
    assert_eq!(match_id::encode(&s), "cAhvAAAAAAAE");
    // BGBlitz writes the smaller die first; the order is kept.
    let s = match_id::decode("QYnoAGAAGAAE").expect("BGBlitz prints this");
    assert_eq!(dice_pair(&s), (1, 2));
    assert_eq!(match_id::encode(&s), "QYnoAGAAGAAE");
    // Every field at its largest legal value.
    let max = MatchState {
        cube_log2: 15,
        cube_owner: CubeOwner::Owned(Player::One),
        on_roll: Player::One,
        crawford: true,
        game_state: GameState::Dropped,
        turn: Player::One,
        doubled: true,
        resigned: Some(Resignation::Backgammon),
        dice: Dice::new(6, 6).ok(),
        match_length: 0x7fff,
        score: [0x7fff, 0x7fff],
        jacoby: false,
    };
    assert_eq!(match_id::decode(&match_id::encode(&max)), Ok(max));
}

// ---------------------------------------------------------------------------------------------
// vectors.txt

/// Checkers of one player as the vectors list them: `[p:n ...] bar:b off:o`.
fn parse_board_facts(text: &str) -> ([u8; 25], u8) {
    let text = text.trim();
    let (points, rest) = text
        .strip_prefix('[')
        .and_then(|t| t.split_once(']'))
        .unwrap_or_else(|| panic!("board facts {text:?}"));
    let mut side = [0u8; 25];
    for item in points.split_whitespace() {
        let (p, n) = item.split_once(':').expect("p:n");
        let p: usize = p.parse().expect("point");
        side[p - 1] = n.parse().expect("count");
    }
    let mut off = None;
    for item in rest.split_whitespace() {
        match item.split_once(':') {
            Some(("bar", b)) => side[24] = b.parse().expect("bar"),
            Some(("off", o)) => off = Some(o.parse().expect("off")),
            _ => panic!("board facts {text:?}"),
        }
    }
    (side, off.expect("off count"))
}

/// `key=value, key=value` fact lines.
fn parse_fields(text: &str) -> HashMap<String, String> {
    text.split(',')
        .map(|kv| {
            let (k, v) = kv.trim().split_once('=').expect("key=value");
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[derive(Default, Debug)]
struct Vector {
    title: String,
    source: String,
    position_id: Option<String>,
    match_id: Option<String>,
    xgid: Option<String>,
    boards: HashMap<String, ([u8; 25], u8)>,
    match_fields: HashMap<String, String>,
    xgid_fields: HashMap<String, String>,
}

fn read_vectors() -> Vec<Vector> {
    let text = cubeful_testkit::read_shared("corpus/ids/vectors.txt");
    let mut vectors: Vec<Vector> = Vec::new();
    let mut last_id = "";
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            if title.starts_with("Bulk files") {
                // Prose about the bulk files, tested below.
                break;
            }
            vectors.push(Vector {
                title: title.to_string(),
                ..Vector::default()
            });
            continue;
        }
        let Some(v) = vectors.last_mut() else {
            continue;
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with("cube=") || trimmed.starts_with("cube_log2=") {
            let fields = parse_fields(trimmed);
            match last_id {
                "match_id" => v.match_fields = fields,
                "xgid" => v.xgid_fields = fields,
                _ => panic!("fields without an ID: {line}"),
            }
            continue;
        }
        let (key, value) = line.split_once(':').expect("key: value");
        let (key, value) = (key.trim(), value.trim());
        match key {
            "source" => v.source = value.to_string(),
            "position_id" => {
                v.position_id = Some(value.to_string());
                last_id = "position_id";
            }
            "match_id" => {
                v.match_id = Some(value.to_string());
                last_id = "match_id";
            }
            "xgid" => {
                v.xgid = Some(value.to_string());
                last_id = "xgid";
            }
            "not-on-roll" | "on-roll" | "bottom(X,p1)" | "top(O,p0)" => {
                v.boards.insert(key.to_string(), parse_board_facts(value));
            }
            "note" => {}
            _ => panic!("unexpected line in vectors.txt: {line}"),
        }
    }
    vectors
        .into_iter()
        .filter(|v| v.position_id.is_some() || v.match_id.is_some() || v.xgid.is_some())
        .collect()
}

fn num(fields: &HashMap<String, String>, key: &str) -> i32 {
    fields
        .get(key)
        .unwrap_or_else(|| panic!("field {key} missing"))
        .parse()
        .unwrap_or_else(|e| panic!("field {key}: {e}"))
}

fn check_match_fields(state: &MatchState, f: &HashMap<String, String>, what: &str) {
    let (die1, die2) = dice_pair(state);
    let actual = [
        ("cube", state.cube_value() as i32),
        ("cube_owner", owner_code(state.cube_owner)),
        ("dice_owner", state.on_roll.index() as i32),
        ("crawford", i32::from(state.crawford)),
        ("game_state", state.game_state as i32),
        ("turn", state.turn.index() as i32),
        ("doubled", i32::from(state.doubled)),
        ("resigned", state.resigned.map_or(0, |r| r as i32)),
        ("die1", i32::from(die1)),
        ("die2", i32::from(die2)),
        ("match_len", i32::from(state.match_length)),
        ("score0", i32::from(state.score[0])),
        ("score1", i32::from(state.score[1])),
        ("no_jacoby", i32::from(!state.jacoby)),
    ];
    assert_eq!(f.len(), actual.len(), "{what}: fields {f:?}");
    for (key, value) in actual {
        assert_eq!(value, num(f, key), "{what}: {key}");
    }
}

fn check_xgid_fields(x: &Xgid, f: &HashMap<String, String>, what: &str) {
    let s = &x.state;
    let dice = if s.doubled {
        "D".to_string()
    } else {
        let (a, b) = dice_pair(s);
        format!("{a}{b}")
    };
    assert_eq!(f["dice"], dice, "{what}: dice");
    let cube_pos = match s.cube_owner {
        CubeOwner::Centered => 0,
        CubeOwner::Owned(Player::One) => 1,
        CubeOwner::Owned(Player::Zero) => -1,
    };
    let rules = if s.is_money() {
        i32::from(s.jacoby) | i32::from(x.beavers) << 1
    } else {
        i32::from(s.crawford)
    };
    let actual = [
        ("cube_log2", i32::from(s.cube_log2)),
        ("cube_pos", cube_pos),
        ("turn", if s.on_roll == Player::One { 1 } else { -1 }),
        ("score_bottom", i32::from(s.score[1])),
        ("score_top", i32::from(s.score[0])),
        ("crawjac", rules),
        ("match_len", i32::from(s.match_length)),
        ("max_cube", i32::from(x.max_cube_log2)),
    ];
    assert_eq!(f.len(), actual.len() + 1, "{what}: fields {f:?}");
    for (key, value) in actual {
        assert_eq!(value, num(f, key), "{what}: {key}");
    }
}

#[test]
fn every_vector() {
    let vectors = read_vectors();
    assert_eq!(vectors.len(), 26, "vectors in vectors.txt");
    let mut checked = [0usize; 3];
    for v in &vectors {
        let what = &v.title;
        let mut gnubg: (Option<Position>, Option<MatchState>) = (None, None);

        if let Some(id) = &v.position_id {
            let position = position_id::decode(id).unwrap_or_else(|e| panic!("{what}: {e}"));
            for (key, side) in [("on-roll", Side::Player), ("not-on-roll", Side::Opponent)] {
                let (want, off) = v.boards[key];
                assert_eq!(position.side(side), want, "{what}: {key}");
                assert_eq!(position.off(side), off, "{what}: {key} off");
            }
            // Every Position ID here was printed by gnubg or BGBlitz: re-encoding is exact.
            assert_eq!(&position_id::encode(&position), id, "{what}");
            gnubg.0 = Some(position);
            checked[0] += 1;
        }

        if let Some(id) = &v.match_id {
            let state = match_id::decode(id).unwrap_or_else(|e| panic!("{what}: {e}"));
            check_match_fields(&state, &v.match_fields, what);
            // Exact also for BGBlitz's low-die-first IDs, as the dice order is kept.
            assert_eq!(&match_id::encode(&state), id, "{what}");
            gnubg.1 = Some(state);
            checked[1] += 1;
        }

        if let Some(id) = &v.xgid {
            let x = Xgid::parse(id).unwrap_or_else(|e| panic!("{what}: {e}"));
            for (key, player) in [("bottom(X,p1)", Player::One), ("top(O,p0)", Player::Zero)] {
                let (want, off) = v.boards[key];
                let side = side_of(&x.position, &x.state, player);
                assert_eq!(side, want, "{what}: {key}");
                assert_eq!(borne_off(&side), off, "{what}: {key} off");
            }
            check_xgid_fields(&x, &v.xgid_fields, what);
            // Real programs' XGIDs (BGBlitz, the common start example) are written back
            // exactly. The converter-produced ones (backgammoncalculator) are in the same
            // canonical form, so the same holds for them.
            assert_eq!(&x.to_string(), id, "{what}");
            checked[2] += 1;

            // Cross-check with the Position ID and Match ID of the same vector.
            if let (Some(position), Some(state)) = gnubg {
                assert_eq!(x.position, position, "{what}: XGID vs Position ID");
                let mut want = xgid::representable(&state);
                let mut got = x.state;
                if v.source.contains("BGBlitz") {
                    // BGBlitz's Match ID has the low die first (12) while its XGID says 21.
                    want.dice = want.dice.map(Dice::normalized);
                    got.dice = got.dice.map(Dice::normalized);
                }
                assert_eq!(got, want, "{what}: XGID vs Match ID");
                if !v.source.contains("BGBlitz") && x.max_cube_log2 == 10 {
                    // Our GNUID → XGID conversion gives the converter's XGID.
                    assert_eq!(&xgid::encode(&position, &state), id, "{what}");
                }
            }
        }
    }
    // 24 Position IDs, 24 Match IDs, 23 XGIDs.
    assert_eq!(checked, [24, 24, 23]);
}

#[test]
fn backgammoncalculator_regressions() {
    let text =
        cubeful_testkit::read_shared("corpus/ids/backgammoncalculator_identifier_regressions.csv");
    let records = csv_records(&text);
    assert_eq!(records.len(), 4);
    for r in &records {
        let id = &r["record_id"];
        let position = position_id::decode(&r["position_id"]).expect("Position ID");
        let state = match_id::decode(&r["match_id"]).expect("Match ID");
        // GNUID → XGID with the default maximum cube of 10, as the package normalises.
        assert_eq!(
            xgid::encode(&position, &state),
            r["expected_normalized_xgid"],
            "{id}"
        );
        // XGID → (position, state) agrees with the GNUID apart from what an XGID cannot hold.
        let x = Xgid::parse(&r["xgid"]).expect("XGID");
        assert_eq!(x.position, position, "{id}");
        assert_eq!(x.state, xgid::representable(&state), "{id}");
        assert_eq!(x.to_string(), r["xgid"], "{id}");
    }
}

// ---------------------------------------------------------------------------------------------
// The backgammoncalculator oracle: 3,802 gnubg-printed pairs with transcribed facts

fn numbers(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|n| n.parse().expect("a count"))
        .collect()
}

#[test]
fn gnubg_4ply_oracle() {
    let text = cubeful_testkit::read_shared(
        "corpus/ids/backgammoncalculator_gnu_4ply_identifier_oracle.csv",
    );
    let records = csv_records(&text);
    assert_eq!(records.len(), 3802);
    let mut actions: HashMap<String, usize> = HashMap::new();
    for r in &records {
        let what = format!("{} move {}", r["source_file"], r["move_number"]);
        let int = |key: &str| -> u16 {
            r[key]
                .parse()
                .unwrap_or_else(|e| panic!("{what}: {key}: {e}"))
        };
        let position = position_id::decode(&r["position_id"]).unwrap_or_else(|e| panic!("{e}"));
        let state = match_id::decode(&r["match_id"]).unwrap_or_else(|e| panic!("{e}"));

        // Checkers, in the CSV's physical orientation: both arrays are indexed by the points
        // numbered from X's side (X's own point i, O's own point 25 - i).
        let o = side_of(&position, &state, Player::Zero);
        let x = side_of(&position, &state, Player::One);
        let x_points: Vec<u8> = x[..24].to_vec();
        let o_points: Vec<u8> = (1..=24).map(|i| o[24 - i]).collect();
        assert_eq!(x_points, numbers(&r["X_points"]), "{what}: X points");
        assert_eq!(o_points, numbers(&r["O_points"]), "{what}: O points");
        assert_eq!(u16::from(o[24]), int("O_bar"), "{what}");
        assert_eq!(u16::from(x[24]), int("X_bar"), "{what}");
        assert_eq!(u16::from(borne_off(&o)), int("O_off"), "{what}");
        assert_eq!(u16::from(borne_off(&x)), int("X_off"), "{what}");

        // Who acts and how.
        let actor = match r["actor_color"].as_str() {
            "O" => Player::Zero,
            "X" => Player::One,
            other => panic!("{what}: actor {other}"),
        };
        assert_eq!(state.on_roll, actor, "{what}: dice owner");
        let action = r["action"].as_str();
        *actions.entry(action.to_string()).or_default() += 1;
        match action {
            "roll" => {
                let (a, b) = dice_pair(&state);
                assert_eq!((u16::from(a), u16::from(b)), (int("die1"), int("die2")));
                assert!(state.dice.is_some() && !state.doubled, "{what}");
                assert_eq!(state.turn, actor, "{what}");
            }
            "cube_decision" => {
                assert_eq!((int("die1"), int("die2")), (0, 0), "{what}");
                assert!(state.dice.is_none() && !state.doubled, "{what}");
                assert_eq!(state.turn, actor, "{what}");
            }
            "double" => {
                // Pending double: the doubler keeps the dice (and the board orientation), the
                // opponent is to act.
                assert_eq!((int("die1"), int("die2")), (0, 0), "{what}");
                assert!(state.dice.is_none() && state.doubled, "{what}");
                assert_eq!(state.turn, actor.other(), "{what}");
            }
            other => panic!("{what}: action {other}"),
        }

        // Score, match, cube.
        assert_eq!(state.score, [int("score_o"), int("score_x")], "{what}");
        assert_eq!(state.match_length, int("match_length"), "{what}");
        assert_eq!(u16::from(state.crawford), int("crawford"), "{what}");
        assert_eq!(
            u16::from(state.is_post_crawford()),
            int("post_crawford"),
            "{what}"
        );
        assert_eq!(state.cube_value(), u32::from(int("cube_value")), "{what}");
        let owner = match state.cube_owner {
            CubeOwner::Centered => "centered",
            CubeOwner::Owned(Player::Zero) => "O",
            CubeOwner::Owned(Player::One) => "X",
        };
        assert_eq!(owner, r["cube_owner"], "{what}");
        // Not a listed fact: gnubg prints game state 0 ("no game") for the first move of a
        // game and 1 ("playing") afterwards.
        let want_state = if r["move_number"] == "1" {
            GameState::NoGame
        } else {
            GameState::Playing
        };
        assert_eq!(state.game_state, want_state, "{what}");
        assert_eq!(state.resigned, None, "{what}");

        // Exact re-encoding, separately and combined.
        assert_eq!(position_id::encode(&position), r["position_id"], "{what}");
        assert_eq!(match_id::encode(&state), r["match_id"], "{what}");
        let gnuid = format!("{}:{}", r["position_id"], r["match_id"]);
        assert_eq!(gnubg_id::decode(&gnuid), Ok((position, state)), "{what}");
        assert_eq!(gnubg_id::encode(&position, &state), gnuid, "{what}");

        // The XGID column is backgammoncalculator's conversion, not eXtreme Gammon's output. It
        // agrees with ours in every field of every row (including the 98 pending doubles:
        // dice `D`, turn = the doubler, cube before the double), so the exact string is tested.
        assert_eq!(
            xgid::encode(&position, &state),
            r["expected_xgid"],
            "{what}"
        );
        let parsed = Xgid::parse(&r["expected_xgid"]).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(parsed.position, position, "{what}");
        assert_eq!(parsed.state, xgid::representable(&state), "{what}");
    }
    assert_eq!(actions["roll"], 3606);
    assert_eq!(actions["cube_decision"], 98);
    assert_eq!(actions["double"], 98);
}

// ---------------------------------------------------------------------------------------------
// 187,737 pairs from gnubg text exports

#[test]
fn gnubg_text_export_pairs() {
    let path = cubeful_testkit::shared_path("corpus/ids/gnubg_textexport_pairs_bglab.tsv.gz");
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gzip text");
    let mut pairs = 0usize;
    let mut game_states = [0usize; 5];
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.split('\t');
        let (Some(pos), Some(mid)) = (cols.next(), cols.next()) else {
            panic!("bad line {line:?}");
        };
        let position = position_id::decode(pos).unwrap_or_else(|e| panic!("{pos}: {e}"));
        let state = match_id::decode(mid).unwrap_or_else(|e| panic!("{mid}: {e}"));
        assert_eq!(position_id::encode(&position), pos);
        assert_eq!(match_id::encode(&state), mid);
        let gnuid = gnubg_id::encode(&position, &state);
        assert_eq!(gnuid, format!("{pos}:{mid}"));
        assert_eq!(gnubg_id::decode(&gnuid), Ok((position, state)), "{gnuid}");
        game_states[state.game_state as usize] += 1;

        let x = Xgid::new(position, state);
        let text = x.to_string();
        let back = Xgid::parse(&text).unwrap_or_else(|e| panic!("{gnuid} -> {text}: {e}"));
        assert_eq!(back.position, position, "{gnuid} -> {text}");
        assert_eq!(back.state, xgid::representable(&state), "{gnuid} -> {text}");
        assert_eq!(back.to_string(), text);
        pairs += 1;
    }
    assert_eq!(pairs, 187_737);
    // gnubg prints game state 0 (with the dice set) for the first move of a game.
    assert_eq!(game_states, [1688, 186_049, 0, 0, 0]);
}

// ---------------------------------------------------------------------------------------------
// Property tests

fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::Zero), Just(Player::One)]
}

fn dice() -> impl Strategy<Value = Option<Dice>> {
    prop::option::of((1u8..=6, 1u8..=6).prop_filter_map("a roll", |(a, b)| Dice::new(a, b).ok()))
}

/// Any state a Match ID can hold: match lengths of every size (often short), scores within the
/// match, no Crawford game in money play.
fn match_state() -> impl Strategy<Value = MatchState> {
    let cube_owner = prop_oneof![
        Just(CubeOwner::Centered),
        player().prop_map(CubeOwner::Owned)
    ];
    let game_state = prop_oneof![
        Just(GameState::NoGame),
        Just(GameState::Playing),
        Just(GameState::Over),
        Just(GameState::Resigned),
        Just(GameState::Dropped),
    ];
    let resigned = prop::option::of(prop_oneof![
        Just(Resignation::Single),
        Just(Resignation::Gammon),
        Just(Resignation::Backgammon),
    ]);
    let length = prop_oneof![Just(0u16), 1u16..=25, 0u16..=0x7fff];
    (
        0u8..=15,
        cube_owner,
        player(),
        player(),
        any::<bool>(),
        game_state,
        any::<bool>(),
        resigned,
        dice(),
        length,
        any::<bool>(),
        (0u16..=0x7fff, 0u16..=0x7fff),
    )
        .prop_map(
            |(
                cube_log2,
                cube_owner,
                on_roll,
                turn,
                crawford,
                game_state,
                doubled,
                resigned,
                dice,
                match_length,
                jacoby,
                (s0, s1),
            )| {
                let score = if match_length == 0 {
                    [s0, s1]
                } else {
                    [s0 % (match_length + 1), s1 % (match_length + 1)]
                };
                MatchState {
                    cube_log2,
                    cube_owner,
                    on_roll,
                    crawford: crawford && match_length > 0,
                    game_state,
                    turn,
                    doubled,
                    resigned,
                    dice,
                    match_length,
                    score,
                    jacoby,
                }
            },
        )
}

/// Legal positions: up to 15 checkers a side scattered over off (0), the points (1..=24) and the
/// bar (25); an opponent checker landing on a point the player holds is borne off instead.
fn position() -> impl Strategy<Value = Position> {
    let locations = || prop::collection::vec(0usize..=25, 0..=15);
    (locations(), locations()).prop_filter_map("a legal position", |(mine, theirs)| {
        let mut player = [0u8; 25];
        let mut opponent = [0u8; 25];
        for loc in mine.into_iter().filter(|&l| l > 0) {
            player[loc - 1] += 1;
        }
        for loc in theirs.into_iter().filter(|&l| l > 0) {
            // The opponent's own point `loc` is the player's point 25 - loc.
            if loc <= 24 && player[24 - loc] > 0 {
                continue;
            }
            opponent[loc - 1] += 1;
        }
        Position::from_sides(&player, &opponent).ok()
    })
}

/// Characters the fuzz tests insert: the Base64 alphabet, XGID letters and separators, and a
/// few that are none of these (one of them outside ASCII).
const EDIT_CHARS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-:= \té";

fn edit_char() -> impl Strategy<Value = char> {
    prop::sample::select(EDIT_CHARS.chars().collect::<Vec<char>>())
}

/// Text from the fuzz alphabet.
fn fuzz_text(len: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec(edit_char(), len).prop_map(|chars| chars.into_iter().collect())
}

/// Up to three edits (replace, insert or delete one character) of a text. With no edit the
/// text stays valid, so the parsers are exercised on both sides of every check.
fn edited(text: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    let edits = prop::collection::vec((any::<usize>(), 0u8..3, edit_char()), 0..=3);
    (text, edits).prop_map(|(text, edits)| {
        let mut chars: Vec<char> = text.chars().collect();
        for (at, kind, ch) in edits {
            let i = at % (chars.len() + 1);
            match kind {
                0 if i < chars.len() => chars[i] = ch,
                1 => chars.insert(i, ch),
                _ if i < chars.len() => {
                    chars.remove(i);
                }
                _ => {}
            }
        }
        chars.into_iter().collect()
    })
}

/// Text shaped like an XGID: mostly empty points, mostly nine fields, plausible and
/// implausible field values.
fn xgid_like() -> impl Strategy<Value = String> {
    let checker = prop_oneof![
        12 => Just('-'),
        2 => prop::char::range('A', 'E'),
        2 => prop::char::range('a', 'e'),
        1 => prop::sample::select("FPQZfpqz0:=-é".chars().collect::<Vec<char>>()),
    ];
    let board = prop::collection::vec(checker, 24..=27)
        .prop_map(|chars| chars.into_iter().collect::<String>());
    let number = || {
        prop_oneof![
            6 => prop::sample::select(vec!["0", "1", "-1"]),
            1 => prop::sample::select(vec![
                "2", "3", "7", "10", "15", "16", "-0", "+1", "", "x", "99999999999", "-",
            ]),
        ]
    };
    let dice = prop::sample::select(vec![
        "00", "D", "B", "R", "11", "21", "12", "66", "61", "06", "60", "70", "1", "123", "d",
    ]);
    let fields = prop_oneof![8 => Just(9usize), 1 => 0usize..=12];
    (
        prop::sample::select(vec!["XGID=", "xgid=", "", " XGID=", "XGID"]),
        board,
        prop::collection::vec(number(), 9),
        dice,
        fields,
    )
        .prop_map(|(prefix, board, numbers, dice, fields)| {
            let mut parts: Vec<String> = numbers.iter().map(|s| s.to_string()).collect();
            parts[3] = dice.to_string();
            parts.truncate(fields);
            let mut s = format!("{prefix}{board}");
            for p in parts {
                s.push(':');
                s.push_str(&p);
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn match_id_round_trip(state in match_state()) {
        let id = match_id::encode(&state);
        prop_assert_eq!(id.len(), 12);
        prop_assert_eq!(match_id::decode(&id), Ok(state));
    }

    #[test]
    fn gnubg_id_round_trip(position in position(), state in match_state()) {
        let id = gnubg_id::encode(&position, &state);
        prop_assert_eq!(gnubg_id::decode(&id), Ok((position, state)));
        prop_assert_eq!(gnubg_id::decode(&format!("GNUID={id}")), Ok((position, state)));
    }

    #[test]
    fn xgid_round_trip(
        position in position(),
        state in match_state(),
        max_cube_log2 in 0u8..=15,
        beavers in any::<bool>(),
    ) {
        let x = Xgid { position, state, max_cube_log2, beavers };
        let text = x.to_string();
        let back = Xgid::parse(&text);
        let want = Xgid {
            position,
            state: xgid::representable(&state),
            max_cube_log2,
            beavers: beavers && state.is_money(),
        };
        prop_assert_eq!(back, Ok(want));
        prop_assert_eq!(xgid::decode(&text), Ok((want.position, want.state)));
        // A state an XGID fully represents comes back unchanged.
        prop_assert_eq!(xgid::decode(&xgid::encode(&position, &want.state)), Ok((position, want.state)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100_000))]

    #[test]
    fn match_id_decode_never_panics(
        s in prop_oneof![
            any::<String>(),
            fuzz_text(10..=14),
            edited(match_state().prop_map(|s| match_id::encode(&s))),
        ],
    ) {
        if let Ok(state) = match_id::decode(&s) {
            // Whatever is accepted is written back identically.
            prop_assert_eq!(match_id::encode(&state), s.trim());
        }
    }

    #[test]
    fn position_id_decode_never_panics(
        s in prop_oneof![
            any::<String>(),
            fuzz_text(12..=16),
            edited(position().prop_map(|p| position_id::encode(&p))),
        ],
    ) {
        if let Ok(position) = position_id::decode(&s) {
            prop_assert_eq!(position_id::encode(&position), s.trim());
        }
    }

    #[test]
    fn gnubg_id_decode_never_panics(
        s in prop_oneof![
            any::<String>(),
            fuzz_text(0..=30),
            edited(
                (
                    prop::sample::select(vec![
                        "", "GNUID=", "gnubgid ", "GNUbg ID: ", "GNUID", "XGID=", "gnuid:",
                    ]),
                    position(),
                    prop::sample::select(vec![":", " ", " : ", "::", "", ":\n"]),
                    prop::option::of(match_state()),
                )
                    .prop_map(|(label, p, sep, s)| {
                        let m = s.map(|s| match_id::encode(&s)).unwrap_or_default();
                        format!("{label}{}{sep}{m}", position_id::encode(&p))
                    }),
            ),
        ],
    ) {
        if let Ok((position, state)) = gnubg_id::decode(&s) {
            let id = gnubg_id::encode(&position, &state);
            prop_assert_eq!(gnubg_id::decode(&id), Ok((position, state)));
        }
    }

    #[test]
    fn xgid_parse_never_panics(
        s in prop_oneof![
            any::<String>(),
            xgid_like(),
            edited(
                (position(), match_state(), 0u8..=15, any::<bool>()).prop_map(
                    |(position, state, max_cube_log2, beavers)| {
                        Xgid { position, state, max_cube_log2, beavers }.to_string()
                    },
                ),
            ),
        ],
    ) {
        if let Ok(x) = Xgid::parse(&s) {
            prop_assert_eq!(Xgid::parse(&x.to_string()), Ok(x));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Error messages say what and where

#[test]
fn error_messages() {
    let e = match_id::decode("QYkqASAAIA?A").expect_err("bad character");
    assert_eq!(
        e.to_string(),
        "character '?' at position 10 is not Base64 (A-Z, a-z, 0-9, +, /)"
    );
    let e = gnubg_id::decode("4HPwATDgc/ABMA:IYkqASAAIAAA").expect_err("owner 2");
    assert!(matches!(
        e,
        GnubgIdError::Match {
            source: MatchIdError::CubeOwner(2),
            ..
        }
    ));
    assert!(e.to_string().contains("cube owner code 2"), "{e}");
    let e = gnubg_id::decode("4HPwATDgc/ABM:cAhvAAAAAAAE").expect_err("short");
    assert!(matches!(
        e,
        GnubgIdError::Position {
            source: PositionIdError::Length(13),
            ..
        }
    ));
    let e = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:x").expect_err("max");
    assert_eq!(
        e.to_string(),
        "the maximum cube (field 10) is \"x\"; expected 0 to 15 (log2 of the cube)"
    );
    let e = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0").expect_err("short");
    assert_eq!(e, XgidError::FieldCount(8));
}
