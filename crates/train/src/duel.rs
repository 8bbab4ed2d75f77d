//! Duels: cubeless money games between two players with duplicate dice.
//!
//! Games come in pairs. Both games of a pair use the same dice sequence; in the first, player A
//! makes the opening move, in the second, player B does — so each player gets exactly the rolls
//! the other got. This cancels most of the luck of the dice and narrows the confidence interval.
//! Each pair is seeded from the duel's seed and its index alone, so the result does not depend on
//! the number of threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use cubeful_engine::{Dice, Position, Side, WinKind};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::players::{Player, PlayerData};

/// Settings of a duel.
#[derive(Clone, Debug)]
pub struct DuelConfig {
    /// Number of games; rounded up to an even number (whole pairs). None are played for 0.
    pub games: usize,
    pub seed: u64,
    pub threads: usize,
}

/// Outcome of one game for player A: points won (negative when lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub points: i32,
}

/// Statistics of a finished duel, from player A's side.
#[derive(Clone, Debug, Serialize)]
pub struct DuelReport {
    pub a: String,
    pub b: String,
    pub games: usize,
    pub seed: u64,
    /// Points per game won by A.
    pub ppg: f64,
    /// Half-width of the 95% confidence interval of `ppg` (over the pair averages).
    pub ci95: f64,
    /// Share of games A won, and how: all as fractions of all games.
    pub win_rate: f64,
    pub win_gammon_rate: f64,
    pub win_backgammon_rate: f64,
    pub lose_gammon_rate: f64,
    pub lose_backgammon_rate: f64,
    pub games_per_second: f64,
    pub seconds: f64,
}

/// The dice of one pair: the first roll is never a double (the opening roll).
struct DiceStream {
    rng: ChaCha8Rng,
    rolls: Vec<Dice>,
}

impl DiceStream {
    fn new(seed: u64, pair: u64) -> DiceStream {
        DiceStream {
            rng: ChaCha8Rng::seed_from_u64(seed ^ pair.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            rolls: Vec::new(),
        }
    }

    fn get(&mut self, i: usize) -> Dice {
        while self.rolls.len() <= i {
            let d = crate::roll(&mut self.rng, self.rolls.is_empty());
            self.rolls.push(d);
        }
        self.rolls[i]
    }
}

/// Plays one game; `players[0]` moves first. Returns the points won by `players[0]`.
pub fn play_game(
    players: [&mut Player; 2],
    dice: &mut impl FnMut(usize) -> Dice,
    rng: &mut ChaCha8Rng,
) -> i32 {
    let mut position = Position::starting();
    for turn in 0.. {
        let mover = turn % 2;
        let roll = dice(turn);
        let chosen = players[mover].choose(&position, roll, rng);
        if let Some(result) = chosen.position.result() {
            debug_assert_eq!(result.winner, Side::Player);
            let points = result.kind.points() as i32;
            return if mover == 0 { points } else { -points };
        }
        position = chosen.position.swap();
        assert!(turn < 100_000, "a game did not end");
    }
    unreachable!()
}

/// Runs a duel between A and B. The statistics are kept as running sums, so the memory used
/// does not grow with the number of games; no more threads are started than there are pairs.
pub fn run(a: &PlayerData, b: &PlayerData, names: (&str, &str), config: &DuelConfig) -> DuelReport {
    let pairs = config.games.div_ceil(2) as u64;
    let next = AtomicU64::new(0);
    let tally = Mutex::new(Tally::default());
    let threads = config
        .threads
        .max(1)
        .min(usize::try_from(pairs).unwrap_or(usize::MAX));
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut pa = Player::new(a);
                let mut pb = Player::new(b);
                loop {
                    let pair = next.fetch_add(1, Ordering::Relaxed);
                    if pair >= pairs {
                        break;
                    }
                    let mut stream = DiceStream::new(config.seed, pair);
                    let mut rng = ChaCha8Rng::seed_from_u64(config.seed.wrapping_add(pair));
                    let first = play_game([&mut pa, &mut pb], &mut |i| stream.get(i), &mut rng);
                    let second = -play_game([&mut pb, &mut pa], &mut |i| stream.get(i), &mut rng);
                    tally
                        .lock()
                        .expect("no panics while locked")
                        .add(first, second);
                }
            });
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let tally = tally.into_inner().expect("threads finished");
    report(names, config.seed, &tally, seconds)
}

/// Running sums of a duel's results, from player A's side. They are whole numbers, so the
/// statistics are exact and do not depend on the order in which the pairs finish.
#[derive(Clone, Debug, Default)]
struct Tally {
    pairs: u64,
    /// Sum over the pairs of the points of both games.
    sum: i64,
    /// Sum over the pairs of the square of the points of both games.
    sum_squares: i128,
    wins: u64,
    win_gammons: u64,
    win_backgammons: u64,
    lose_gammons: u64,
    lose_backgammons: u64,
}

impl Tally {
    fn add(&mut self, first: i32, second: i32) {
        let g = WinKind::Gammon.points() as i32;
        let bg = WinKind::Backgammon.points() as i32;
        let pair = i64::from(first) + i64::from(second);
        self.pairs += 1;
        self.sum += pair;
        self.sum_squares += i128::from(pair) * i128::from(pair);
        for p in [first, second] {
            self.wins += u64::from(p > 0);
            self.win_gammons += u64::from(p >= g);
            self.win_backgammons += u64::from(p >= bg);
            self.lose_gammons += u64::from(p <= -g);
            self.lose_backgammons += u64::from(p <= -bg);
        }
    }
}

fn report(names: (&str, &str), seed: u64, tally: &Tally, seconds: f64) -> DuelReport {
    let games = tally.pairs * 2;
    let n = tally.pairs as f64;
    // Points per game: the mean of the pair means (each pair's points over its two games).
    let ppg = if tally.pairs > 0 {
        tally.sum as f64 / (2.0 * n)
    } else {
        0.0
    };
    // Sample variance of the pair means, from the exact sums: (n Σs² − (Σs)²) / (n (n − 1)) / 4.
    let var = if tally.pairs > 1 {
        let pairs = i128::from(tally.pairs);
        let spread = pairs * tally.sum_squares - i128::from(tally.sum) * i128::from(tally.sum);
        spread as f64 / (n * (n - 1.0)) / 4.0
    } else {
        0.0
    };
    let ci95 = if tally.pairs > 0 {
        1.96 * (var / n).sqrt()
    } else {
        0.0
    };
    let rate = |count: u64| {
        if games > 0 {
            count as f64 / games as f64
        } else {
            0.0
        }
    };
    DuelReport {
        a: names.0.to_string(),
        b: names.1.to_string(),
        games: usize::try_from(games).unwrap_or(usize::MAX),
        seed,
        ppg,
        ci95,
        win_rate: rate(tally.wins),
        win_gammon_rate: rate(tally.win_gammons),
        win_backgammon_rate: rate(tally.win_backgammons),
        lose_gammon_rate: rate(tally.lose_gammons),
        lose_backgammon_rate: rate(tally.lose_backgammons),
        games_per_second: games as f64 / seconds.max(1e-9),
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_against_itself_is_even_and_deterministic() {
        let cfg = DuelConfig {
            games: 200,
            seed: 5,
            threads: 2,
        };
        let r1 = run(&PlayerData::Random, &PlayerData::Random, ("r", "r"), &cfg);
        let r2 = run(
            &PlayerData::Random,
            &PlayerData::Random,
            ("r", "r"),
            &DuelConfig { threads: 1, ..cfg },
        );
        assert_eq!(r1.games, 200);
        assert_eq!(r1.ppg, r2.ppg, "independent of the number of threads");
        assert!(r1.ppg.abs() < 3.0 * r1.ci95.max(0.05), "{r1:?}");
    }

    /// The running sums give the statistics of the pair results as a list would.
    #[test]
    fn the_tally_gives_the_statistics_of_the_pairs() {
        let pairs = [(1, -2), (3, 1), (-1, -1), (2, 2), (-3, 1)];
        let mut tally = Tally::default();
        for &(x, y) in &pairs {
            tally.add(x, y);
        }
        let r = report(("a", "b"), 0, &tally, 1.0);
        let means: Vec<f64> = pairs.iter().map(|&(x, y)| f64::from(x + y) / 2.0).collect();
        let n = means.len() as f64;
        let mean = means.iter().sum::<f64>() / n;
        let var = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert_eq!(r.games, 10);
        assert!((r.ppg - mean).abs() < 1e-12);
        assert!((r.ci95 - 1.96 * (var / n).sqrt()).abs() < 1e-12);
        assert!((r.win_rate - 0.6).abs() < 1e-12);
        assert!((r.win_gammon_rate - 0.3).abs() < 1e-12);
        assert!((r.win_backgammon_rate - 0.1).abs() < 1e-12);
        assert!((r.lose_gammon_rate - 0.2).abs() < 1e-12);
        assert!((r.lose_backgammon_rate - 0.1).abs() < 1e-12);
        let empty = report(("a", "b"), 0, &Tally::default(), 1.0);
        assert_eq!((empty.games, empty.ppg, empty.ci95), (0, 0.0, 0.0));
    }

    #[test]
    fn opening_roll_is_not_a_double() {
        for pair in 0..500 {
            let mut s = DiceStream::new(1, pair);
            assert!(!s.get(0).is_double());
            let d = s.get(3);
            assert_eq!(s.get(3), d);
        }
    }
}
