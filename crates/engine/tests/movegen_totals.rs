//! The move-generation totals published with the benchmark position files must be reproduced
//! exactly (shared/data/movegen/README.md).

use cubeful_engine::{position_id, Dice, MoveGenerator};

fn total(file: &str, doubles: bool) -> usize {
    let text = cubeful_testkit::read_shared(&format!("data/movegen/{file}"));
    let mut generator = MoveGenerator::new();
    let mut total = 0;
    let mut positions = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let position = position_id::decode(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        positions += 1;
        for dice in Dice::all().filter(|d| d.is_double() == doubles) {
            total += generator.generate(&position, dice).len();
        }
    }
    assert_eq!(positions, 1000, "{file}");
    total
}

#[test]
fn contact_doubles() {
    assert_eq!(total("contact_ids.txt", true), 218_356);
}

#[test]
fn contact_non_doubles() {
    assert_eq!(total("contact_ids.txt", false), 185_957);
}

#[test]
fn race_doubles() {
    assert_eq!(total("race_ids.txt", true), 140_720);
}

#[test]
fn race_non_doubles() {
    assert_eq!(total("race_ids.txt", false), 122_570);
}
