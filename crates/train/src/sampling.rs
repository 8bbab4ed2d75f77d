//! Positions to label: drawn from self-play games of the current nets ([`SelfPlay`]: all of
//! them, one net class, the first plays, races with the gammon in doubt, close races, back
//! games, and the positions after the best plays of a roll, which a choice weighs against each
//! other), or made up where self-play hardly goes ([`random_races`], [`random_holding_games`]).
//! Every sampler is deterministic for a seed, whatever the threads.

use std::collections::HashSet;
use std::sync::Arc;

use cubeful_engine::eval::class::{classify, PositionClass};
use cubeful_engine::eval::nn::NetClass;
use cubeful_engine::eval::{net_class, Evaluator, Nets};
use cubeful_engine::{Dice, Position, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::parallel_map;

/// Self-play games of `nets` that positions are drawn from (before the roll, from the player on
/// roll). With probability `explore` a move is picked at random among the five best instead of
/// the best, so that the positions are not only the nets' favourite lines. `threads` play the
/// games; the positions do not depend on how many.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay<'a> {
    nets: &'a Arc<Nets>,
    explore: f64,
    threads: usize,
}

/// Which self-play positions [`SelfPlay::bases`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bases {
    /// Any position, as [`SelfPlay::positions`] draws them.
    All,
    /// The positions of one net class, as [`SelfPlay::of_class`] keeps them.
    Class(NetClass),
    /// The positions of the first plays of each side, as [`SelfPlay::early_positions`] draws
    /// them.
    FirstPlays(usize),
    /// The positions of one net class whose gammon is in doubt, as [`SelfPlay::gammonish`]
    /// keeps them.
    Gammonish(NetClass),
    /// Races whose pip counts differ by at most this many pips, as [`SelfPlay::close_races`]
    /// keeps them.
    CloseRaces(u32),
    /// The positions of one net class where a side has at least `checkers` checkers back, as
    /// [`SelfPlay::back_games`] keeps them.
    BackGames { class: NetClass, checkers: u8 },
}

/// The least 0-ply chance of a gammon, for either side, that [`SelfPlay::gammonish`] calls in
/// doubt (and the most: one minus it).
pub const GAMMON_IN_DOUBT: f32 = 0.02;

impl<'a> SelfPlay<'a> {
    /// # Panics
    ///
    /// If `explore` is not a probability (from 0 to 1; `train sample` and `train label` check it
    /// where they parse it).
    pub fn new(nets: &'a Arc<Nets>, explore: f64, threads: usize) -> Self {
        assert!(
            (0.0..=1.0).contains(&explore),
            "explore {explore} is not a probability"
        );
        SelfPlay {
            nets,
            explore,
            threads,
        }
    }

    /// About `count` positions of whole games.
    pub fn positions(&self, count: usize, seed: u64) -> Vec<Position> {
        // Games average well over 50 positions; play enough games, then trim.
        let games = count / 40 + 1;
        let mut all: Vec<Position> = self
            .games(games, seed, usize::MAX)
            .into_iter()
            .flatten()
            .collect();
        all.truncate(count);
        all
    }

    /// `count` distinct positions from the first `plies_per_side` plays of each side (the
    /// starting position left out: its plays are the opening book's); fewer only if 1,000
    /// batches of games hold too few. The early game is where a net's mistakes cost most often
    /// (docs/TRAINING.md, round adam14).
    pub fn early_positions(&self, count: usize, seed: u64, plies_per_side: usize) -> Vec<Position> {
        let turns = plies_per_side.saturating_mul(2).max(2);
        let mut seen = HashSet::new();
        in_batches(count, 1_000, |batch, missing| {
            let batch_seed = seed ^ (batch + 1).wrapping_mul(0xE703_7ED1_A0B4_28DB);
            let games = missing / (turns - 1) + 1;
            self.games(games, batch_seed, turns)
                .into_iter()
                .flat_map(|game| game.into_iter().skip(1))
                .filter(|p| seen.insert(*p))
                .collect()
        })
    }

    /// The positions of `games` games, each stopped after `max_turns` turns or at its end, game
    /// by game. Game `g` draws from a generator seeded by `seed` and `g`.
    fn games(&self, games: usize, seed: u64, max_turns: usize) -> Vec<Vec<Position>> {
        parallel_map(
            games,
            self.threads,
            || Evaluator::new(self.nets.clone()),
            |evaluator, g| {
                let mut rng = ChaCha8Rng::seed_from_u64(
                    seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                );
                let mut position = Position::starting();
                let mut out = Vec::new();
                for turn in 0..max_turns.min(10_000) {
                    let dice = crate::roll(&mut rng, turn == 0);
                    out.push(position);
                    match exploring_play(evaluator, &position, dice, self.explore, &mut rng) {
                        Some(next) => position = next,
                        None => break,
                    }
                }
                out
            },
        )
    }

    /// `count` positions of one net class (batch after batch of games with seeds made from
    /// `seed`, keeping the positions of `class`); fewer only if 2,000 batches of 20,000
    /// positions hold too few.
    pub fn of_class(&self, count: usize, seed: u64, class: NetClass) -> Vec<Position> {
        seeded_batches(count, seed, 0xD1B5_4A32_D192_ED03, |batch_seed| {
            self.class_batch(batch_seed, class)
        })
    }

    /// The positions of `class` among 20,000 positions.
    fn class_batch(&self, seed: u64, class: NetClass) -> Vec<Position> {
        self.positions(20_000, seed)
            .into_iter()
            .filter(|p| net_class(classify(p)) == Some(class))
            .collect()
    }

    /// `count` positions of one net class (as [`SelfPlay::of_class`] keeps them) whose gammon is
    /// in doubt: the 0-ply chance of either side winning a gammon is between
    /// [`GAMMON_IN_DOUBT`] and one minus it. A race play that saves or wins a gammon costs the
    /// race net more than others (docs/TRAINING.md, round adam25), and in more than four races
    /// in five of plain self-play the gammon is settled.
    pub fn gammonish(&self, count: usize, seed: u64, class: NetClass) -> Vec<Position> {
        let in_doubt = |g: f32| (GAMMON_IN_DOUBT..=1.0 - GAMMON_IN_DOUBT).contains(&g);
        seeded_batches(count, seed, 0x8BB8_4B93_962E_ACC9, |batch_seed| {
            let of_class = self.class_batch(batch_seed, class);
            let keep = parallel_map(
                of_class.len(),
                self.threads,
                || Evaluator::new(self.nets.clone()),
                |evaluator, i| {
                    let p = evaluator.evaluate(&of_class[i]);
                    in_doubt(p.win_gammon) || in_doubt(p.lose_gammon)
                },
            );
            of_class
                .into_iter()
                .zip(keep)
                .filter_map(|(p, keep)| keep.then_some(p))
                .collect()
        })
    }

    /// `count` races (as [`SelfPlay::of_class`] keeps the race net's positions) that are not
    /// pure bearoffs and whose pip counts differ by at most `max_difference`: where the race net
    /// is farthest from the truth (twice gnubg's error within eight pips, docs/TRAINING.md round
    /// adam27), and fewer than one race in ten of plain self-play.
    pub fn close_races(&self, count: usize, seed: u64, max_difference: u32) -> Vec<Position> {
        seeded_batches(count, seed, 0x9E37_79B9_7F4A_7C15, |batch_seed| {
            let mut races = self.class_batch(batch_seed, NetClass::Race);
            races.retain(|p| {
                classify(p) == PositionClass::Race && pip_difference(p) <= max_difference
            });
            races
        })
    }

    /// `count` positions of one net class (as [`SelfPlay::of_class`] keeps them) where a side
    /// has at least `checkers` checkers back: on the bar or in the other side's home board (back
    /// games and ace-point games). In the games against GNU Backgammon the whole crashed gap is
    /// in such positions (docs/TRAINING.md, round adam29), and self-play holds few of them.
    pub fn back_games(
        &self,
        count: usize,
        seed: u64,
        class: NetClass,
        checkers: u8,
    ) -> Vec<Position> {
        seeded_batches(count, seed, 0xA076_1D64_78BD_642F, |batch_seed| {
            let mut positions = self.class_batch(batch_seed, class);
            positions.retain(|p| most_back(p) >= checkers);
            positions
        })
    }

    /// `count` positions of `bases`.
    pub fn bases(&self, count: usize, seed: u64, bases: Bases) -> Vec<Position> {
        match bases {
            Bases::All => self.positions(count, seed),
            Bases::Class(class) => self.of_class(count, seed, class),
            Bases::FirstPlays(plies) => self.early_positions(count, seed, plies),
            Bases::Gammonish(class) => self.gammonish(count, seed, class),
            Bases::CloseRaces(max_difference) => self.close_races(count, seed, max_difference),
            Bases::BackGames { class, checkers } => self.back_games(count, seed, class, checkers),
        }
    }

    /// `count` positions that a choice weighs against each other: for positions of `bases`, a
    /// random roll, and the positions after its `top` best plays at 0-ply (distinct, games not
    /// over), from the opponent on roll (more positions are drawn until there are `count`).
    /// Self-play alone holds only the plays chosen; the nets must also judge the ones a close
    /// choice rejects.
    pub fn candidates(&self, count: usize, seed: u64, bases: Bases, top: usize) -> Vec<Position> {
        // Some rolls have fewer than `top` plays, some lead to the end: top up batch by batch.
        in_batches(count, 1_000, |batch, missing| {
            let batch_seed = seed ^ batch.wrapping_mul(0xA076_1D64_78BD_642F);
            let wanted = missing / top.max(1) + 1;
            let base = self.bases(wanted, batch_seed, bases);
            let per_base = parallel_map(
                base.len(),
                self.threads,
                || Evaluator::new(self.nets.clone()),
                |evaluator, i| {
                    let mut rng = ChaCha8Rng::seed_from_u64(
                        batch_seed
                            ^ 0xCA4D_1DA7
                            ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    let dice = crate::roll(&mut rng, false);
                    evaluator
                        .rank_moves(&base[i], dice)
                        .into_iter()
                        .take(top)
                        .map(|(m, _)| m.position)
                        .filter(|after| after.result().is_none())
                        .map(|after| after.swap())
                        .collect::<Vec<_>>()
                },
            );
            per_base.into_iter().flatten().collect()
        })
    }
}

/// One play of exploring self-play: `evaluator`'s best play of `dice` in `position`, or with
/// probability `explore` one of its five best at random; the position after it from the other
/// side, or `None` when the play ends the game.
pub(crate) fn exploring_play(
    evaluator: &mut Evaluator,
    position: &Position,
    dice: Dice,
    explore: f64,
    rng: &mut impl Rng,
) -> Option<Position> {
    let ranked = evaluator.rank_moves(position, dice);
    let pick = if rng.gen_bool(explore) {
        rng.gen_range(0..ranked.len().min(5))
    } else {
        0
    };
    let next = ranked[pick].0.position;
    next.result().is_none().then(|| next.swap())
}

/// [`in_batches`] of at most 2,000 batches, batch b made by `batch` from a seed of its own:
/// `seed` mixed with b and the sampler's `salt` (so that two samplers given one seed play other
/// games).
fn seeded_batches(
    count: usize,
    seed: u64,
    salt: u64,
    mut batch: impl FnMut(u64) -> Vec<Position>,
) -> Vec<Position> {
    in_batches(count, 2_000, |b, _| {
        batch(seed ^ (b + 1).wrapping_mul(salt))
    })
}

/// The positions `batch(b, missing)` makes for batches b = 0, 1, … (at most `max_batches`),
/// until there are `count` of them (fewer if the batches run out), the last batch trimmed.
fn in_batches(
    count: usize,
    max_batches: u64,
    mut batch: impl FnMut(u64, usize) -> Vec<Position>,
) -> Vec<Position> {
    let mut all = Vec::new();
    for b in 0..max_batches {
        if all.len() >= count {
            break;
        }
        all.extend(batch(b, count - all.len()));
    }
    all.truncate(count);
    all
}

/// How many checkers `side` has back: on its bar or in the other side's home board.
pub fn back_checkers(position: &Position, side: Side) -> u8 {
    position.side(side)[18..].iter().sum()
}

/// The most checkers back of either side ([`back_checkers`]).
fn most_back(position: &Position) -> u8 {
    back_checkers(position, Side::Player).max(back_checkers(position, Side::Opponent))
}

/// How many pips apart the two sides' pip counts are.
fn pip_difference(position: &Position) -> u32 {
    position
        .pip_count(Side::Player)
        .abs_diff(position.pip_count(Side::Opponent))
}

/// `count` race positions made up rather than played: each side's checkers (1 to 15 of them,
/// all 15 more often than not) spread over its own points 1 to a farthest point of 3 to 18, the
/// two farthest points together at most 24 so that no checker has to pass another. Each point
/// draws a random weight, often raised to a high power, so that many positions have their
/// checkers stacked five and more deep on a few points — races self-play hardly ever reaches
/// and where the 0-ply race net is least sure (docs/TRAINING.md, round adam5). Deterministic
/// for a seed.
pub fn random_races(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let player_top = rng.gen_range(3..=18usize);
        let opponent_top = rng.gen_range(3..=(24 - player_top).min(18));
        let player = random_race_side(&mut rng, player_top);
        let opponent = random_race_side(&mut rng, opponent_top);
        if let Ok(position) = Position::from_sides(&player, &opponent) {
            if position.result().is_none() && position.is_race() {
                out.push(position);
            }
        }
    }
    out
}

/// One side of [`random_races`]: a checker on `top` (its farthest point), the others on points
/// 1 to `top` by random weights.
fn random_race_side(rng: &mut ChaCha8Rng, top: usize) -> [u8; 25] {
    let checkers = if rng.gen_bool(0.6) {
        15
    } else {
        rng.gen_range(1..=15u8)
    };
    let power = [1, 3, 6][rng.gen_range(0..3)];
    let weights: Vec<f64> = (0..top).map(|_| rng.gen::<f64>().powi(power)).collect();
    let mut side = [0u8; 25];
    side[top - 1] = 1;
    for _ in 1..checkers {
        side[weighted(rng, &weights)] += 1;
    }
    side
}

/// `count` contact positions made up rather than played, of the kind self-play hardly reaches
/// and the nets misjudge most (docs/TRAINING.md, stage 4): a holding side against a side
/// bearing in or off.
///
/// - The holding side: one to three anchors (or one or two blots) in the other's home board,
///   up to three checkers on the bar, the rest on its points 1 to 12, at most six on a point.
/// - The bearing side: 0 to 8 checkers off; in half the positions one or two stragglers left
///   behind on its points 13 to 24 (often trapped behind the holding side's board); the rest on
///   its points 1 to 6–11, clear of the anchors, at most ten on a point (crunched boards have
///   their checkers buried deep on the low points).
///
/// Either side is on roll. Deterministic for a seed.
pub fn random_holding_games(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut back = [0u8; 25];
        // Checkers back, on the other side's home board (own points 19 to 24).
        let mut left = 15u8;
        if rng.gen_bool(0.7) {
            for _ in 0..rng.gen_range(1..=3) {
                let point = rng.gen_range(18..24usize);
                if back[point] == 0 {
                    let n = if rng.gen_bool(0.8) { 2 } else { 3 };
                    back[point] = n;
                    left -= n;
                }
            }
        } else {
            for _ in 0..rng.gen_range(1..=2) {
                let point = rng.gen_range(18..24usize);
                back[point] += 1;
                left -= 1;
            }
        }
        let bar = [0, 0, 0, 0, 0, 0, 1, 1, 2, 3][rng.gen_range(0..10)];
        back[24] = bar;
        left -= bar;
        let power = [1, 2, 3][rng.gen_range(0..3)];
        let mut weights: Vec<f64> = (0..12).map(|_| rng.gen::<f64>().powi(power)).collect();
        for _ in 0..left {
            let point = weighted(&mut rng, &weights);
            back[point] += 1;
            if back[point] == 6 {
                weights[point] = 0.0;
            }
        }
        // The side bearing in or off, clear of the holding side's points. Its point `q`
        // (1 to 24) is the holding side's point 25 − q, at index 24 − q.
        let mut front = [0u8; 25];
        let mut on_board = 15 - rng.gen_range(0..=8u8);
        if rng.gen_bool(0.5) {
            let stragglers = if rng.gen_bool(0.75) { 1 } else { 2 };
            for _ in 0..stragglers {
                let q = rng.gen_range(13..=24usize);
                if back[24 - q] == 0 {
                    front[q - 1] += 1;
                    on_board -= 1;
                }
            }
        }
        let power = [1, 3, 6][rng.gen_range(0..3)];
        let top = rng.gen_range(6..=11usize);
        let mut weights: Vec<f64> = (0..top)
            .map(|i| {
                if back[23 - i] > 0 {
                    0.0
                } else {
                    rng.gen::<f64>().powi(power)
                }
            })
            .collect();
        let mut placed = 0;
        while placed < on_board && weights.iter().any(|&w| w > 0.0) {
            let point = weighted(&mut rng, &weights);
            front[point] += 1;
            placed += 1;
            if front[point] == 10 {
                weights[point] = 0.0;
            }
        }
        if placed < on_board {
            continue;
        }
        let sides = if rng.gen_bool(0.5) {
            (back, front)
        } else {
            (front, back)
        };
        if let Ok(position) = Position::from_sides(&sides.0, &sides.1) {
            if position.result().is_none() && !position.is_race() {
                out.push(position);
            }
        }
    }
    out
}

/// An index drawn with probability proportional to `weights` (not all zero).
fn weighted(rng: &mut ChaCha8Rng, weights: &[f64]) -> usize {
    let total: f64 = weights.iter().sum();
    let mut pick = rng.gen::<f64>() * total;
    let mut last = 0;
    for (i, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            if pick < w {
                return i;
            }
            pick -= w;
            last = i;
        }
    }
    last
}
#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::eval::Evaluator;

    #[test]
    fn positions_of_one_class_are_of_that_class() {
        let nets = Arc::new(Nets::embedded());
        for class in NetClass::ALL {
            let positions = SelfPlay::new(&nets, 0.1, 2).of_class(150, 8, class);
            assert_eq!(positions.len(), 150, "{class:?}");
            assert!(positions
                .iter()
                .all(|p| net_class(classify(p)) == Some(class)));
            assert_eq!(
                positions,
                SelfPlay::new(&nets, 0.1, 1).of_class(150, 8, class),
                "deterministic whatever the threads"
            );
        }
    }

    #[test]
    fn gammonish_positions_are_races_with_the_gammon_in_doubt() {
        let nets = Arc::new(Nets::embedded());
        let positions = SelfPlay::new(&nets, 0.1, 2).gammonish(60, 4, NetClass::Race);
        assert_eq!(positions.len(), 60);
        let mut evaluator = Evaluator::new(nets.clone());
        let in_doubt = |g: f32| (GAMMON_IN_DOUBT..=1.0 - GAMMON_IN_DOUBT).contains(&g);
        for p in &positions {
            assert_eq!(net_class(classify(p)), Some(NetClass::Race));
            let chances = evaluator.evaluate(p);
            assert!(
                in_doubt(chances.win_gammon) || in_doubt(chances.lose_gammon),
                "{chances:?}"
            );
        }
        // Plain race self-play holds many races whose gammon is settled (mostly: no gammon).
        let races = SelfPlay::new(&nets, 0.1, 2).of_class(200, 4, NetClass::Race);
        let settled = races
            .iter()
            .filter(|p| {
                let chances = evaluator.evaluate(p);
                !in_doubt(chances.win_gammon) && !in_doubt(chances.lose_gammon)
            })
            .count();
        assert!(settled > 100, "{settled} of 200 races settled");
        assert_eq!(
            positions,
            SelfPlay::new(&nets, 0.1, 1).gammonish(60, 4, NetClass::Race),
            "deterministic whatever the threads"
        );
    }

    #[test]
    fn close_races_are_races_with_the_pip_counts_close() {
        let nets = Arc::new(Nets::embedded());
        let positions = SelfPlay::new(&nets, 0.1, 2).close_races(60, 4, 8);
        assert_eq!(positions.len(), 60);
        for p in &positions {
            assert_eq!(classify(p), PositionClass::Race, "no pure bearoffs");
            assert!(pip_difference(p) <= 8, "{}", pip_difference(p));
        }
        // Plain race self-play holds mostly races far apart, and pure bearoffs.
        let races = SelfPlay::new(&nets, 0.1, 2).of_class(200, 4, NetClass::Race);
        let close = races
            .iter()
            .filter(|p| classify(p) == PositionClass::Race && pip_difference(p) <= 8)
            .count();
        assert!(close < 50, "{close} of 200 races close");
        assert_eq!(
            positions,
            SelfPlay::new(&nets, 0.1, 1).close_races(60, 4, 8),
            "deterministic whatever the threads"
        );
        assert_eq!(
            positions,
            SelfPlay::new(&nets, 0.1, 2).bases(60, 4, Bases::CloseRaces(8))
        );
    }

    #[test]
    fn back_games_have_a_side_with_checkers_back() {
        let nets = Arc::new(Nets::embedded());
        let positions = SelfPlay::new(&nets, 0.1, 2).back_games(40, 6, NetClass::Crashed, 3);
        assert_eq!(positions.len(), 40);
        for p in &positions {
            assert_eq!(classify(p), PositionClass::Crashed);
            assert!(most_back(p) >= 3, "{} back", most_back(p));
        }
        // In plain crashed self-play most positions have no side three checkers back.
        let crashed = SelfPlay::new(&nets, 0.1, 2).of_class(200, 6, NetClass::Crashed);
        let back = crashed.iter().filter(|p| most_back(p) >= 3).count();
        assert!(back < 100, "{back} of 200 crashed positions back games");
        assert_eq!(
            positions,
            SelfPlay::new(&nets, 0.1, 1).back_games(40, 6, NetClass::Crashed, 3),
            "deterministic whatever the threads"
        );
        let class = NetClass::Crashed;
        assert_eq!(
            positions,
            SelfPlay::new(&nets, 0.1, 2).bases(40, 6, Bases::BackGames { class, checkers: 3 })
        );
        // Back checkers count the bar and the other side's home board, nothing nearer.
        let mut player = [0u8; 25];
        player[24] = 1; // on the bar
        player[18] = 2; // the other side's 6-point
        player[17] = 4; // its bar point: not back
        player[0] = 8;
        let mut opponent = [0u8; 25];
        opponent[20] = 1; // the player's 4-point, from the opponent's side
        opponent[0] = 14;
        let p = Position::from_sides(&player, &opponent).unwrap();
        assert_eq!(back_checkers(&p, Side::Player), 3);
        assert_eq!(back_checkers(&p, Side::Opponent), 1);
    }

    #[test]
    fn candidate_positions_are_the_results_of_the_best_plays() {
        let nets = Arc::new(Nets::embedded());
        let positions = SelfPlay::new(&nets, 0.1, 2).candidates(100, 3, Bases::All, 5);
        assert_eq!(positions.len(), 100);
        assert_eq!(
            positions,
            SelfPlay::new(&nets, 0.1, 1).candidates(100, 3, Bases::All, 5),
            "deterministic whatever the threads"
        );
        // The first base position's roll gives the first candidates, best first, each from the
        // opponent on roll.
        let base = SelfPlay::new(&nets, 0.1, 1).positions(21, 3)[0]; // batch 0: seed 3 itself
        let mut rng = ChaCha8Rng::seed_from_u64(3 ^ 0xCA4D_1DA7 ^ 0x9E37_79B9_7F4A_7C15);
        let dice = crate::roll(&mut rng, false);
        let mut evaluator = Evaluator::new(nets.clone());
        let ranked = evaluator.rank_moves(&base, dice);
        let firsts: Vec<Position> = ranked
            .iter()
            .take(5)
            .map(|(m, _)| m.position.swap())
            .collect();
        assert_eq!(positions[..firsts.len()], firsts[..]);
        // Of one class: the bases are, so many more candidates are of it than among the
        // candidates of all positions (a play often takes a crashed position to contact or a
        // race, so not all of them: how many depends on the nets that play).
        let crashed =
            SelfPlay::new(&nets, 0.1, 2).candidates(50, 3, Bases::Class(NetClass::Crashed), 5);
        assert_eq!(crashed.len(), 50);
        let is_crashed = |p: &&Position| net_class(classify(p)) == Some(NetClass::Crashed);
        let still = crashed.iter().filter(is_crashed).count();
        let among_all = positions.iter().filter(is_crashed).count();
        // (21 of 50 against 0 of 100 with adam31b's nets.)
        assert!(
            still >= 15 && still * 100 > 4 * among_all * 50,
            "{still} of 50, {among_all} of 100"
        );
    }

    #[test]
    fn early_positions_come_from_the_first_plays_and_are_distinct() {
        use cubeful_engine::Side;
        let nets = Arc::new(Nets::embedded());
        let start = Position::starting();
        // After one play of each side at most: with one play, the side on roll has not moved.
        let first = SelfPlay::new(&nets, 0.5, 2).early_positions(40, 9, 1);
        assert_eq!(first.len(), 40);
        assert_eq!(
            first,
            SelfPlay::new(&nets, 0.5, 1).early_positions(40, 9, 1)
        );
        let distinct: std::collections::HashSet<_> = first.iter().collect();
        assert_eq!(distinct.len(), first.len());
        for p in &first {
            assert_ne!(*p, start, "the starting position is left out");
            assert_eq!(p.side(Side::Player), start.side(Side::Player));
            assert_eq!(p.pip_count(Side::Player), 167);
            assert!(p.pip_count(Side::Opponent) < 167);
        }
        // Ten plays a side: the positions of the first twenty turns of whole games.
        let early = SelfPlay::new(&nets, 0.1, 2).early_positions(300, 9, 10);
        assert_eq!(early.len(), 300);
        // (Game g of a batch is the same however many the batch plays.)
        let games: Vec<Vec<Position>> = (1..=4u64)
            .flat_map(|b| {
                let batch_seed = 9 ^ b.wrapping_mul(0xE703_7ED1_A0B4_28DB);
                SelfPlay::new(&nets, 0.1, 2).games(40, batch_seed, 10_000)
            })
            .collect();
        let openings: std::collections::HashSet<Position> = games
            .iter()
            .flat_map(|g| g.iter().take(20).copied())
            .collect();
        assert!(early.iter().all(|p| openings.contains(p)));
        let late = games
            .iter()
            .flat_map(|g| g.iter().skip(20))
            .find(|p| !openings.contains(p));
        assert!(!early.contains(late.expect("games go on past twenty turns")));
        // Candidates from those bases: the positions after the best plays of their rolls.
        let candidates = SelfPlay::new(&nets, 0.1, 2).candidates(60, 9, Bases::FirstPlays(3), 5);
        assert_eq!(candidates.len(), 60);
        let base = SelfPlay::new(&nets, 0.1, 1).early_positions(60 / 5 + 1, 9, 3)[0];
        let mut rng = ChaCha8Rng::seed_from_u64(9 ^ 0xCA4D_1DA7 ^ 0x9E37_79B9_7F4A_7C15);
        let dice = crate::roll(&mut rng, false);
        let best = Evaluator::new(nets.clone()).rank_moves(&base, dice)[0]
            .0
            .position;
        assert_eq!(candidates[0], best.swap());
    }

    #[test]
    fn random_races_are_varied_valid_races_with_stacks() {
        let races = random_races(2000, 3);
        assert_eq!(races, random_races(2000, 3), "deterministic");
        let mut stacked = 0;
        let mut pips = Vec::new();
        for p in &races {
            assert!(p.is_race() && p.result().is_none(), "{p:?}");
            for side in [Side::Player, Side::Opponent] {
                assert!(p.bar(side) == 0);
                pips.push(p.pip_count(side));
            }
            if p.side(Side::Player).iter().any(|&n| n >= 5) {
                stacked += 1;
            }
        }
        assert!(stacked > 700, "{stacked} of 2000 have a stack of five");
        pips.sort_unstable();
        assert!(
            pips[pips.len() / 10] < 50 && pips[pips.len() * 9 / 10] > 120,
            "{pips:?}"
        );
        let distinct: std::collections::HashSet<_> = races.iter().collect();
        assert!(distinct.len() > 1990);
    }

    #[test]
    fn random_holding_games_have_checkers_back_against_a_bear_in() {
        let games = random_holding_games(2000, 5);
        assert_eq!(games, random_holding_games(2000, 5), "deterministic");
        let (mut holding_on_roll, mut stragglers, mut crunched, mut on_bar) = (0, 0, 0, 0);
        for p in &games {
            assert!(!p.is_race() && p.result().is_none(), "{p:?}");
            // Some side holds (checkers in the other's home board or on the bar, at most six
            // on a point) while the other bears in (nothing on the bar, at most ten on a point,
            // at most two checkers outside its points 1 to 11).
            let fits = |holder: Side, bearer: Side| {
                let (h, b) = (p.side(holder), p.side(bearer));
                h[18..25].iter().sum::<u8>() >= 1
                    && h[..24].iter().all(|&n| n <= 6)
                    && b[24] == 0
                    && b.iter().all(|&n| n <= 10)
                    && b[11..24].iter().sum::<u8>() <= 2
            };
            let on_roll = fits(Side::Player, Side::Opponent);
            assert!(on_roll || fits(Side::Opponent, Side::Player), "{p:?}");
            let (holder, bearer) = if on_roll {
                (Side::Player, Side::Opponent)
            } else {
                (Side::Opponent, Side::Player)
            };
            holding_on_roll += usize::from(on_roll);
            stragglers += usize::from(p.side(bearer)[12..24].iter().any(|&n| n > 0));
            crunched += usize::from(p.side(bearer).iter().any(|&n| n >= 7));
            on_bar += usize::from(p.bar(holder) > 0);
        }
        assert!((800..1200).contains(&holding_on_roll), "{holding_on_roll}");
        assert!((400..900).contains(&stragglers), "{stragglers}");
        assert!(crunched > 100, "{crunched}");
        assert!((500..1000).contains(&on_bar), "{on_bar}");
        let distinct: std::collections::HashSet<_> = games.iter().collect();
        assert!(distinct.len() > 1990);
    }
}
