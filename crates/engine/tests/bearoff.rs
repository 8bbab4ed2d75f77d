//! Bearoff databases: hand-checkable facts, agreement with the engine's move generator, the
//! one-sided and two-sided databases against each other, cubeful bounds and orderings, files.

use std::sync::{Arc, OnceLock};

use cubeful_engine::eval::bearoff::{
    self, BearoffDb, CubeAction, CubeState, Event, Goal, Layout, OneSided, TwoSided,
};
use cubeful_engine::eval::{BearoffOracle, Evaluator, Nets};
use cubeful_engine::{legal_moves, Dice, Position, Side};
use cubeful_testkit::ScratchDir;

/// The default databases, generated once for all tests of this file.
fn db() -> &'static BearoffDb {
    static DB: OnceLock<BearoffDb> = OnceLock::new();
    DB.get_or_init(|| BearoffDb::generate(&mut |_| {}))
}

fn one() -> &'static OneSided {
    db().one_sided().unwrap()
}

fn two() -> &'static TwoSided {
    db().two_sided().unwrap()
}

fn side(points: &[(usize, u8)]) -> [u8; 25] {
    let mut s = [0u8; 25];
    for &(p, n) in points {
        s[p - 1] = n;
    }
    s
}

fn position(player: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    Position::from_points(player, opponent).unwrap()
}

#[test]
fn one_checker_on_the_ace_point_is_off_in_one_roll() {
    let d = one()
        .distribution_of(&side(&[(1, 1)]), Goal::AllOff)
        .unwrap();
    assert_eq!((d.min_rolls(), d.max_rolls()), (1, 1));
    assert_eq!(d.probability(1), 1.0);
    assert_eq!((d.mean(), d.sd()), (1.0, 0.0));
}

/// Fifteen checkers on the ace point: every non-double bears off two, every double four, so the
/// number of rolls depends only on how many doubles come. Computed here independently, over the
/// number of checkers left, with P(double) = 1/6.
#[test]
fn fifteen_on_the_ace_point() {
    // p[c]: probability of having c > 0 checkers left after the rolls so far; expected[k]: of
    // finishing with the k-th roll.
    let mut expected = [0.0f64; 10];
    let mut p = vec![0.0f64; 16];
    p[15] = 1.0;
    for finished in expected.iter_mut().skip(1) {
        let mut next = vec![0.0f64; 16];
        for (c, &q) in p.iter().enumerate().skip(1) {
            next[c.saturating_sub(4)] += q / 6.0;
            next[c.saturating_sub(2)] += q * 5.0 / 6.0;
        }
        *finished = next[0];
        next[0] = 0.0;
        p = next;
    }
    let d = one()
        .distribution_of(&side(&[(1, 15)]), Goal::AllOff)
        .unwrap();
    assert_eq!(d.min_rolls(), 4); // four doubles
    assert_eq!(d.max_rolls(), 8); // eight non-doubles
    for (k, &e) in expected.iter().enumerate() {
        assert!(
            (d.probability(k) - e).abs() < 1e-6,
            "{k} rolls: {} vs {e}",
            d.probability(k)
        );
    }
    assert!((d.probability(4) - (1.0f64 / 6.0).powi(4)).abs() < 1e-7);
    // The first checker always comes off at once.
    let g = one()
        .distribution_of(&side(&[(1, 15)]), Goal::FirstOff)
        .unwrap();
    assert_eq!(g.probability(1), 1.0);
}

/// Generation is deterministic: the default files are the same bytes on every machine. (A change
/// here means the databases changed: bump the file format version.)
#[test]
fn default_databases_are_deterministic() {
    let crc = |bytes: Vec<u8>| u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
    assert_eq!(crc(one().to_bytes()), 0xf6cf_4b91);
    assert_eq!(crc(two().to_bytes()), 0x203c_daa7);
    assert_eq!(one().to_bytes().len(), 3_329_380);
    assert_eq!(two().to_bytes().len(), 13_660_444);
}

#[test]
fn every_distribution_sums_to_one() {
    assert_eq!(one().check_sums(), Ok(()));
    assert_eq!(one().len(), 54_264);
    let longest = (0..one().len())
        .map(|i| one().distribution(i, Goal::AllOff).unwrap().max_rolls())
        .max()
        .unwrap();
    assert!(longest < bearoff::MAX_ROLLS, "{longest}");
}

/// The distinct positions (one-sided indices) a roll leads to, from the engine's move generator
/// (opponent out of the way on its ace point).
fn plays(counts: &bearoff::Counts, dice: Dice) -> Vec<u32> {
    let mut mine = [0u8; 25];
    mine[..6].copy_from_slice(&counts[..6]);
    let p = Position::from_sides(&mine, &side(&[(1, 15)])).unwrap();
    legal_moves(&p, dice)
        .iter()
        .map(|m| {
            Layout::ONE_SIDED
                .index(&m.position.side(Side::Player))
                .unwrap()
        })
        .collect()
}

/// Adding a checker never makes the bearoff faster.
///
/// The exact statement is about the best achievable chance to finish within `k` rolls,
/// `F_k(x) = Σ_r p(r) · max_{y ∈ x ⊕ r} F_{k−1}(y)`, computed here independently (engine move
/// generation) for every position of up to 10 checkers: `F_k(x + checker) ≤ F_k(x)` for every `k`,
/// and the database's distributions never beat it, `P(T(x) ≤ k) ≤ F_k(x)`.
///
/// The database minimises the *expected* number of rolls (as GNU Backgammon's does), and for
/// that play the expectation, the fewest and the most rolls never decrease when a checker is
/// added, for all 54,264 positions. Its cumulative distributions are ordered too except in a
/// few far-tail cases (65 of 232,560 pairs, at 12 to 14 checkers), where minimising the mean gives
/// up a little of an unlikely fast finish: e.g. 3-4-4 on the 1-2-3 points plus one on the ace
/// point finishes within 3 rolls with 0.4115% against 0.4029% without it. Those differences stay
/// below 1e-4.
#[test]
fn more_checkers_never_bear_off_faster() {
    let layout = Layout::ONE_SIDED;
    let db = one();
    let mut crossings = 0;
    for i in 0..layout.count_up_to(14) {
        let counts = layout.counts(i).unwrap();
        let small = db.distribution(i, Goal::AllOff).unwrap();
        for point in 0..6 {
            let mut more = counts;
            more[point] += 1;
            let j = layout.index(&more).unwrap();
            let big = db.distribution(j, Goal::AllOff).unwrap();
            assert!(big.mean() >= small.mean(), "{more:?}");
            assert!(big.min_rolls() >= small.min_rolls(), "{more:?}");
            assert!(big.max_rolls() >= small.max_rolls(), "{more:?}");
            let worst = (0..=big.max_rolls())
                .map(|k| big.cumulative(k) - small.cumulative(k))
                .fold(0.0f64, f64::max);
            assert!(worst < 1e-4, "{more:?}: {worst}");
            if worst > 1e-7 {
                crossings += 1;
            }
        }
    }
    assert!(crossings <= 65, "{crossings}");

    // F_k over positions of up to 10 checkers (a prefix of the indices), k = 0..=K.
    const K: usize = 16;
    let n = layout.count_up_to(10) as usize;
    let successors: Vec<Vec<Vec<u32>>> = (0..n)
        .map(|i| {
            let counts = layout.counts(i as u32).unwrap();
            Dice::all()
                .map(|d| if i == 0 { vec![0] } else { plays(&counts, d) })
                .collect()
        })
        .collect();
    let mut f = vec![vec![0.0f64; n]; K + 1];
    f[0][0] = 1.0;
    for k in 1..=K {
        f[k][0] = 1.0;
        for i in 1..n {
            f[k][i] = Dice::all()
                .zip(&successors[i])
                .map(|(d, ys)| {
                    let best = ys.iter().map(|&y| f[k - 1][y as usize]).fold(0.0, f64::max);
                    f64::from(d.weight()) / 36.0 * best
                })
                .sum();
        }
    }
    for i in 0..layout.count_up_to(9) {
        let counts = layout.counts(i).unwrap();
        let t = db.distribution(i, Goal::AllOff).unwrap();
        for (k, fk) in f.iter().enumerate() {
            assert!(t.cumulative(k) <= fk[i as usize] + 1e-6, "{counts:?}, {k}");
            for point in 0..6 {
                let mut more = counts;
                more[point] += 1;
                let j = layout.index(&more).unwrap() as usize;
                assert!(fk[j] <= fk[i as usize] + 1e-12, "{more:?}, {k}");
            }
        }
    }
}

/// Where each side's "fewest rolls" play is also its best play for winning, the one-sided race is
/// exact and must equal the two-sided value. That is the case with up to two checkers a side:
/// there, at every roll, the play the one-sided database chooses leads to a distribution that is
/// stochastically fastest among all plays (checked below: its `P(T ≤ k)` is the highest for every
/// `k`). A play that is fastest for every deadline at once is best against any opponent, so the
/// race of the two one-sided distributions is the game's exact value. (With three checkers this
/// fails: e.g. 6-6-5 against 5-1-1 differs by 0.0014.)
#[test]
fn two_sided_agrees_with_one_sided_where_exact() {
    let (one, two) = (one(), two());
    let layout = Layout::ONE_SIDED;
    let up_to_two = layout.count_up_to(2);
    assert_eq!(up_to_two, 28);
    for i in 1..up_to_two {
        let counts = layout.counts(i).unwrap();
        for dice in Dice::all() {
            let ys = plays(&counts, dice);
            let chosen = ys
                .iter()
                .copied()
                .min_by(|&a, &b| {
                    let (ma, mb) = (one.mean(a, Goal::AllOff), one.mean(b, Goal::AllOff));
                    ma.partial_cmp(&mb).unwrap()
                })
                .unwrap();
            let c = one.distribution(chosen, Goal::AllOff).unwrap();
            for &y in &ys {
                let d = one.distribution(y, Goal::AllOff).unwrap();
                for k in 0..10 {
                    assert!(
                        c.cumulative(k) >= d.cumulative(k) - 1e-7,
                        "{counts:?} {dice}"
                    );
                }
            }
        }
    }
    for i in 1..up_to_two {
        for j in 1..up_to_two {
            let a = layout.counts(i).unwrap();
            let b = layout.counts(j).unwrap();
            let race = one.race(&a, &b).unwrap().win;
            let exact = two.values(i, j).unwrap().win;
            assert!(
                (race - exact).abs() < 1e-6,
                "{a:?} vs {b:?}: {race} {exact}"
            );
        }
    }
    // Three checkers: not exact any more.
    let p = position(&[(6, 2), (5, 1)], &[(5, 1), (1, 2)]);
    let race = one
        .race(&p.side(Side::Player), &p.side(Side::Opponent))
        .unwrap()
        .win;
    let exact = two
        .lookup(&p.side(Side::Player), &p.side(Side::Opponent))
        .unwrap()
        .win;
    assert!((race - exact).abs() > 1e-3, "{race} {exact}");
}

#[test]
fn cubeful_equities_are_bounded_and_ordered() {
    let two = two();
    let n = two.positions();
    for i in 1..n {
        for j in 1..n {
            let v = two.values(i, j).unwrap();
            assert!((0.0..=1.0).contains(&v.win));
            for e in [v.centred, v.owned, v.opponent_owned] {
                assert!((-1.0..=1.0).contains(&e), "({i}, {j}): {v:?}");
            }
            assert!(
                v.owned >= v.centred && v.centred >= v.opponent_owned,
                "({i}, {j}): {v:?}"
            );
            // Owning the cube is worth at least the cubeless equity (the owner may ignore it),
            // and an opponent's cube is worth at most it.
            let cubeless = v.cubeless_equity();
            assert!(v.owned >= cubeless - 1e-5, "({i}, {j}): {v:?}");
            assert!(v.opponent_owned <= cubeless + 1e-5, "({i}, {j}): {v:?}");
        }
    }
}

#[test]
fn cube_decisions_of_known_positions() {
    let db = db();
    // A checker on the ace point against anything: the player wins at once. With no gammon
    // possible, playing on is worth no more than the pass: "double, pass", as GNU Backgammon
    // says (never "too good").
    let p = position(&[(1, 1)], &[(6, 6)]);
    let d = db.cube_decision(&p, CubeState::Centred).unwrap();
    assert!((d.no_double - 1.0).abs() < 1e-9);
    assert_eq!(d.action, CubeAction::DoublePass);
    // 6-point against the ace point: 27/36 to win: a pass (equity after a take would be 1).
    let p = position(&[(6, 1)], &[(1, 1)]);
    let d = db.cube_decision(&p, CubeState::Centred).unwrap();
    assert_eq!(d.action, CubeAction::DoublePass);
    assert!((d.no_double - 0.5).abs() < 1e-6);
    let d = db.cube_decision(&p, CubeState::OpponentOwned).unwrap();
    assert_eq!(d.action, CubeAction::CannotDouble);
    assert!((d.no_double - 0.5).abs() < 1e-6);
    // Checkers on the 6- and 5-points each: the stored centred equity is the best of the three
    // cube actions computed one roll ahead.
    let p = position(&[(6, 1), (5, 1)], &[(6, 1), (5, 1)]);
    let v = db.two_sided_values(&p).unwrap();
    let d = db.cube_decision(&p, CubeState::Centred).unwrap();
    let best = d.no_double.max(d.double_take.min(d.double_pass));
    assert!((best - f64::from(v.centred)).abs() < 1e-6);
}

#[test]
fn oracle_and_evaluator_use_the_databases() {
    let db = db();
    // Inside the two-sided database: exact, no gammons.
    let p = position(&[(6, 1)], &[(1, 1)]);
    let probs = db.probabilities(&p).unwrap();
    assert!((probs.win - 0.75).abs() < 1e-6);
    assert_eq!(probs.win_gammon + probs.lose_gammon, 0.0);
    // Fifteen checkers against one: one-sided race with gammons.
    let p = position(&[(6, 15)], &[(1, 1)]);
    let probs = db.probabilities(&p).unwrap();
    // The player loses, and saves the gammon only with a roll that bears a checker off from the
    // 6-point: any 6, 51, 42, 22 or 33 (17 of 36).
    assert_eq!(probs.win, 0.0);
    assert!((probs.lose_gammon - 19.0 / 36.0).abs() < 1e-6, "{probs:?}");
    assert_eq!(probs.lose_backgammon, 0.0);
    // Three on the ace point against fifteen on the 6-point: a sure win, a gammon if the player
    // rolls a double or the opponent misses with its one roll.
    let p = position(&[(1, 3)], &[(6, 15)]);
    let probs = db.probabilities(&p).unwrap();
    let gammon = 1.0 / 6.0 + 5.0 / 6.0 * 19.0 / 36.0;
    assert_eq!(probs.win, 1.0);
    assert!((probs.win_gammon - gammon).abs() < 1e-6, "{probs:?}");
    // Not a pure bearoff: nothing.
    assert!(db.probabilities(&position(&[(7, 1)], &[(1, 1)])).is_none());
    assert!(db.probabilities(&Position::starting()).is_none());

    let mut evaluator = Evaluator::new(Arc::new(Nets::embedded()));
    evaluator.set_bearoff(Some(Arc::new(db.clone())));
    let p = position(&[(6, 1)], &[(1, 1)]);
    assert!((evaluator.evaluate(&p).win - 0.75).abs() < 1e-6);
}

#[test]
fn race_backgammons_come_from_the_one_sided_database() {
    let mut evaluator = Evaluator::new(Arc::new(Nets::embedded()));
    evaluator.set_bearoff(Some(Arc::new(db().clone())));
    // The player on roll still has a checker on its 23-point, five pips inside the opponent's
    // home board, and the opponent is off with its next roll: a backgammon unless the player
    // gets out now (all rolls but 1-1, 2-1 and 3-1).
    let stuck = 5.0 / 36.0;
    let loser_on_roll = position(&[(6, 14), (23, 1)], &[(1, 1)]);
    let p = evaluator.evaluate(&loser_on_roll);
    assert!((p.lose_backgammon - stuck).abs() < 1e-6, "{p:?}");
    assert!(p.lose_gammon >= p.lose_backgammon);
    assert_eq!(p.win, 0.0);
    // The same race with the winner on roll: a sure backgammon.
    let p = evaluator.evaluate(&loser_on_roll.swap());
    assert_eq!((p.win, p.win_gammon, p.win_backgammon), (1.0, 1.0, 1.0));
    // Two stragglers on the 19- and 20-points against a winner with two checkers on the ace
    // point: the player's own equity by the database, not by the race net.
    let two = position(&[(6, 13), (19, 1), (20, 1)], &[(1, 2)]);
    let exact = one()
        .backgammon(&side(&[(1, 2)]), &side(&[(6, 13), (19, 1), (20, 1)]), false)
        .unwrap();
    assert!((evaluator.evaluate(&two).lose_backgammon - exact as f32).abs() < 1e-6);
    // Without the databases the race net answers.
    let mut alone = Evaluator::new(Arc::new(Nets::embedded()));
    assert!((alone.evaluate(&loser_on_roll).lose_backgammon - stuck).abs() > 0.01);
}

#[test]
fn files_round_trip_and_corruption_is_rejected() {
    let dir = ScratchDir::new("bearoff-test");
    let small = TwoSided::generate(3, &mut |_, _| {}).unwrap();
    let path = dir.join("two-sided-6x3.cbd");
    small.save(&path).unwrap();
    let report = bearoff::verify_file(&path, None).unwrap();
    assert_eq!(report.recomputed, 84 * 84);
    assert_eq!(TwoSided::load(&path).unwrap().to_bytes(), small.to_bytes());
    // A one-sided loader refuses a two-sided file.
    let err = OneSided::load(&path).unwrap_err().to_string();
    assert!(err.contains("two-sided"), "{err}");
    // Flip one bit in the payload: the checksum catches it.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = bearoff::verify_file(&path, Some(10))
        .unwrap_err()
        .to_string();
    assert!(err.contains("checksum"), "{err}");
    // Truncated.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let err = TwoSided::load(&path).unwrap_err().to_string();
    assert!(err.contains("truncated"), "{err}");
}

/// A wrong value with a valid checksum (a buggy generator) is caught by the recomputation.
#[test]
fn verification_recomputes_entries() {
    let dir = ScratchDir::new("bearoff-recompute");
    let layout = Layout::new(6, 3).unwrap();
    let db = OneSided::generate(layout, &mut |_, _| {});
    let path = dir.join("one.cbd");
    db.save(&path).unwrap();
    assert_eq!(bearoff::verify_file(&path, None).unwrap().recomputed, 84);
    // Change the last probability of the payload by one unit in the last place: its sum still
    // passes, its checksum is made valid again, only solving it again can tell.
    let mut bytes = std::fs::read(&path).unwrap();
    let end = bytes.len() - 4;
    bytes[end - 4] ^= 1;
    let crc = crc32(&bytes[..end]);
    bytes[end..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let err = bearoff::verify_file(&path, None).unwrap_err().to_string();
    assert!(err.contains("recomputation"), "{err}");
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn open_or_generate_regenerates_bad_files() {
    let scratch = ScratchDir::new("bearoff-cache");
    // The cache folder does not exist yet: open_or_generate makes it.
    let dir = scratch.join("cache");
    let mut events = Vec::new();
    let first = BearoffDb::open_or_generate(&dir, &mut |e| events.push(format!("{e:?}")));
    assert!(
        events.iter().filter(|e| e.starts_with("Saved")).count() == 2,
        "{events:?}"
    );
    // Loaded the second time.
    events.clear();
    BearoffDb::open_or_generate(&dir, &mut |e| events.push(format!("{e:?}")));
    assert!(events.iter().all(|e| e.starts_with("Loaded")), "{events:?}");
    // Corrupt the two-sided file: regenerated, identical to the first.
    let path = dir.join(bearoff::TWO_SIDED_FILE);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[1000] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let mut problems = Vec::new();
    let again = BearoffDb::open_or_generate(&dir, &mut |e| {
        if let Event::Generating {
            problem: Some(p), ..
        } = e
        {
            problems.push(p.to_string());
        }
    });
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("checksum"), "{problems:?}");
    assert_eq!(
        again.two_sided().unwrap().to_bytes(),
        first.two_sided().unwrap().to_bytes()
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        first.two_sided().unwrap().to_bytes()
    );
}

/// An independent, plain recursive solver over `Position`s with the engine's move generator and a
/// hash map, for every pair of up to three checkers a side: the database's indexing, ordering and
/// cube bookkeeping must give the same numbers.
#[test]
fn two_sided_matches_a_plain_recursive_solver() {
    use std::collections::HashMap;

    type Values = [f64; 4]; // win, centred, owned, opponent owns
    fn solve(p: Position, memo: &mut HashMap<Position, Values>) -> Values {
        if let Some(v) = memo.get(&p) {
            return *v;
        }
        let mut nd = [0.0f64; 4];
        for dice in Dice::all() {
            let mut best = [f64::NEG_INFINITY; 4];
            for m in legal_moves(&p, dice) {
                let v = if m.position.result().is_some() {
                    [1.0; 4]
                } else {
                    let o = solve(m.position.swap(), memo);
                    [1.0 - o[0], -o[1], -o[3], -o[2]]
                };
                for k in 0..4 {
                    best[k] = best[k].max(v[k]);
                }
            }
            for k in 0..4 {
                nd[k] += f64::from(dice.weight()) / 36.0 * best[k];
            }
        }
        let double = (2.0 * nd[3]).min(1.0);
        let v = [nd[0], nd[1].max(double), nd[2].max(double), nd[3]];
        memo.insert(p, v);
        v
    }

    let two = two();
    let layout = Layout::ONE_SIDED;
    let mut memo = HashMap::new();
    for i in 1..layout.count_up_to(3) {
        for j in 1..layout.count_up_to(3) {
            let (a, b) = (layout.counts(i).unwrap(), layout.counts(j).unwrap());
            let mut sa = [0u8; 25];
            let mut sb = [0u8; 25];
            sa[..6].copy_from_slice(&a[..6]);
            sb[..6].copy_from_slice(&b[..6]);
            let expected = solve(Position::from_sides(&sa, &sb).unwrap(), &mut memo);
            let v = two.values(i, j).unwrap();
            let got = [v.win, v.centred, v.owned, v.opponent_owned];
            for k in 0..4 {
                assert!(
                    (f64::from(got[k]) - expected[k]).abs() < 1e-5,
                    "{a:?} vs {b:?}: {got:?} {expected:?}"
                );
            }
        }
    }
}

/// The engine's cube decision at 0-ply inside the two-sided database is the database's own
/// (money, centred cube): no double, double/take and double/pass equities, and the action.
/// The database's stored centred value includes doubling now, so it must not be taken as the
/// no-double equity (that would call every correct double "no double").
#[test]
fn zero_ply_cube_decisions_in_the_database_are_the_databases() {
    use cubeful_engine::cube::{CubeAction as Action, CubeContext, Ownership};
    use cubeful_engine::search::{Level, Search};
    let db = Arc::new(db().clone());
    let mut search = Search::new(Arc::new(Nets::embedded()));
    search.set_bearoff(Some(db.clone()));
    let settings = Level::Expert.settings();
    assert_eq!(settings.plies, 0);
    let ctx = CubeContext::money(1, Ownership::Centered);
    let mut doubles = 0;
    type Points = &'static [(usize, u8)];
    let cases: [(Points, Points); 8] = [
        (&[(6, 1), (5, 1)], &[(6, 1), (5, 1)]),
        (&[(4, 1), (2, 1)], &[(6, 1), (5, 1)]),
        (&[(3, 2)], &[(6, 2)]),
        (&[(6, 1), (1, 1)], &[(5, 1), (4, 1)]),
        (&[(2, 3)], &[(6, 1), (4, 2)]),
        (&[(5, 2), (2, 1)], &[(6, 3)]),
        (&[(6, 1)], &[(1, 1)]),
        (&[(4, 2), (3, 2)], &[(5, 2), (6, 2)]),
    ];
    for (player, opponent) in cases {
        let p = position(player, opponent);
        let exact = db.cube_decision(&p, CubeState::Centred).unwrap();
        let ours = search.cube_decision(&p, &ctx, &settings).decision;
        for (a, b) in [
            (ours.no_double, exact.no_double),
            (ours.double_pass, exact.double_pass),
        ] {
            assert!(
                (f64::from(a) - b).abs() < 1e-4,
                "{p:?}: {ours:?} vs {exact:?}"
            );
        }
        // The search plays each roll as the no-double cube would (one play per roll for all
        // cube states, as GNU Backgammon's search does); the database plays each cube state
        // perfectly, so its double/take can only be a little higher.
        let dt = f64::from(ours.double_take);
        assert!(
            dt <= exact.double_take + 1e-4 && dt >= exact.double_take - 0.05,
            "{p:?}: {ours:?} vs {exact:?}"
        );
        let doubles_here = matches!(
            exact.action,
            CubeAction::DoubleTake | CubeAction::DoublePass
        );
        assert_eq!(
            matches!(ours.action, Action::DoubleTake | Action::DoublePass),
            doubles_here,
            "{p:?}: {ours:?} vs {exact:?}"
        );
        doubles += usize::from(doubles_here);
    }
    assert!(doubles >= 2, "the cases include correct doubles");
}
