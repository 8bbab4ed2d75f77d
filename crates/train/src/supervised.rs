//! Supervised training on targets our own engine computes.
//!
//! 1. Positions from self-play games of the current nets, with some exploration so that the set
//!    is not only the nets' favourite lines ([`crate::sampling`]).
//! 2. [`one_ply_targets`]: for each position, the 1-ply chances: over the 21 rolls, the average
//!    (weighted 1 for doubles, 2 otherwise) of the 0-ply chances after the best play of the roll.
//!    This is a deeper, better-informed judgement of the same nets.
//! 3. [`train`]: epochs of online gradient descent of the nets towards those targets, shuffled
//!    deterministically, keeping the nets with the lowest error on held-out positions.
//!
//! Repeating the three steps makes 0-ply imitate 1-ply of the previous round.

use std::sync::{Arc, Mutex};

use cubeful_engine::eval::bearoff::BearoffDb;
use cubeful_engine::eval::class::classify;
use cubeful_engine::eval::inputs::MAX_INPUTS;
use cubeful_engine::eval::{encode_inputs, net_class, Evaluator, Nets, Probabilities};
use cubeful_engine::{Dice, Position};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::backprop::Sgd;
use crate::dataset::Example;
use crate::parallel_map;

/// The 1-ply chances of `position` for the player on roll with `evaluator`'s nets.
pub fn one_ply(evaluator: &mut Evaluator, position: &Position) -> Probabilities {
    let mut sum = [0.0f32; 5];
    for dice in Dice::all() {
        let (_, p) = evaluator.best_move(position, dice);
        let w = dice.weight() as f32;
        for (s, v) in sum.iter_mut().zip(p.to_array()) {
            *s += w * v;
        }
    }
    Probabilities::from_array(sum.map(|s| s / 36.0))
}

/// 1-ply targets for `positions` (finished games are skipped).
pub fn one_ply_targets(nets: &Arc<Nets>, positions: &[Position], threads: usize) -> Vec<Example> {
    parallel_map(
        positions.len(),
        threads,
        || Evaluator::new(nets.clone()),
        |evaluator, i| {
            let position = positions[i];
            (position.result().is_none()).then(|| Example {
                position,
                target: one_ply(evaluator, &position),
            })
        },
    )
    .into_iter()
    .flatten()
    .collect()
}

/// Cubeless `plies`-ply targets for `positions` (finished games are skipped): the chances
/// [`Search::evaluate`](cubeful_engine::search::Search::evaluate) gives with the cube ignored, the
/// best play of each roll inside the search chosen at 0-ply (among the plays the pruning nets
/// keep, with `prune`). With `bearoff`, the search judges pure bearoffs by the databases (at the
/// root and at its leaves), as the program plays, instead of by the race net.
pub fn deep_targets(
    nets: &Arc<Nets>,
    positions: &[Position],
    plies: u8,
    prune: bool,
    bearoff: Option<&Arc<BearoffDb>>,
    threads: usize,
) -> Vec<Example> {
    use cubeful_engine::cube::{CubeContext, Ownership};
    use cubeful_engine::search::{EvalSettings, FilterPreset, Search};
    let settings = EvalSettings {
        plies,
        cubeful: false,
        noise: 0.0,
        deterministic: true,
        filter: FilterPreset::Normal,
        reduced: false,
        prune,
    };
    let ctx = CubeContext::money(1, Ownership::Centered);
    let searches: Mutex<Vec<Search>> = Mutex::new(Vec::new());
    let out = parallel_map(
        positions.len(),
        threads,
        || Evaluator::new(nets.clone()),
        |evaluator, i| {
            let position = positions[i];
            if position.result().is_some() {
                return None;
            }
            // Searchers (each with its own evaluation cache) are reused across positions.
            let mut search = searches
                .lock()
                .expect("no panic while locked")
                .pop()
                .unwrap_or_else(|| {
                    let mut search = Search::new(evaluator.nets().clone());
                    search.set_bearoff(bearoff.cloned());
                    search
                });
            let target = search.evaluate(&position, &ctx, &settings).probabilities;
            searches.lock().expect("no panic while locked").push(search);
            Some(Example { position, target })
        },
    );
    out.into_iter().flatten().collect()
}

/// Settings of supervised training.
#[derive(Clone, Debug)]
pub struct SupervisedConfig {
    pub epochs: usize,
    pub alpha: f32,
    /// The learning rate is multiplied by this after every epoch.
    pub alpha_decay: f32,
    /// Share of the examples held out to pick the best epoch.
    pub validation: f64,
    pub seed: u64,
}

/// Report after each epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub alpha: f32,
    /// Mean squared error per example (sum over the five outputs) on the training part.
    pub train_loss: f64,
    /// Root mean squared error of the cubeless equity on the held-out part.
    pub validation_equity_rmse: f64,
    pub best: bool,
}

/// Mean squared error of the equity of `nets` on `examples`.
pub fn equity_rmse(nets: &Nets, examples: &[Example]) -> f64 {
    let mut evaluator = Evaluator::new(Arc::new(nets.clone()));
    evaluator.set_cache(false);
    let mut sum = 0.0f64;
    for e in examples {
        let d = evaluator.evaluate(&e.position).equity() - e.target.equity();
        sum += f64::from(d * d);
    }
    (sum / examples.len().max(1) as f64).sqrt()
}

/// The examples that `nets` judge worst at 0-ply, in their order: those whose cubeless equity
/// (as the engine evaluates, sanity rules applied) is at least `min_error` from their target's.
/// Training on them again (hard-example mining) weighs the positions where the nets are most
/// wrong, which is where their costly choices are (docs/TRAINING.md, round adam10).
pub fn hard_examples(
    nets: &Arc<Nets>,
    examples: &[Example],
    min_error: f32,
    threads: usize,
) -> Vec<Example> {
    const BLOCK: usize = 4096;
    parallel_map(
        examples.len().div_ceil(BLOCK),
        threads,
        || {
            let mut evaluator = Evaluator::new(nets.clone());
            evaluator.set_cache(false);
            evaluator
        },
        |evaluator, block| {
            examples[block * BLOCK..((block + 1) * BLOCK).min(examples.len())]
                .iter()
                .filter(|e| {
                    let d = evaluator.evaluate(&e.position).equity() - e.target.equity();
                    d.abs() >= min_error
                })
                .copied()
                .collect::<Vec<_>>()
        },
    )
    .into_iter()
    .flatten()
    .collect()
}

/// Trains `nets` towards the examples' targets; returns the nets of the epoch with the lowest
/// held-out error.
pub fn train(
    mut nets: Nets,
    examples: &[Example],
    config: &SupervisedConfig,
    mut report: impl FnMut(&EpochReport),
) -> Nets {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut order: Vec<usize> = (0..examples.len()).collect();
    order.shuffle(&mut rng);
    let held = ((examples.len() as f64) * config.validation) as usize;
    let validation: Vec<Example> = order[..held].iter().map(|&i| examples[i]).collect();
    let mut train_idx: Vec<usize> = order[held..].to_vec();
    let mut best = (equity_rmse(&nets, &validation), nets.clone());
    let hidden = nets
        .contact
        .scratch_len()
        .max(nets.crashed.scratch_len())
        .max(nets.race.scratch_len());
    let mut sgd = Sgd::new(hidden);
    let mut inputs = vec![0.0f32; MAX_INPUTS];
    let mut alpha = config.alpha;
    for epoch in 1..=config.epochs {
        train_idx.shuffle(&mut rng);
        let mut loss = 0.0f64;
        for &i in &train_idx {
            let e = &examples[i];
            let Some(class) = net_class(classify(&e.position)) else {
                continue;
            };
            let x = encode_inputs(class, &e.position, &mut inputs);
            let net = nets.net_mut(class);
            loss += f64::from(sgd.step(net, x, &e.target.to_array(), alpha));
            net.trained += 1;
        }
        let rmse = equity_rmse(&nets, &validation);
        // Without held-out examples every epoch counts as the best so far.
        let is_best = validation.is_empty() || rmse < best.0;
        if is_best {
            best = (rmse, nets.clone());
        }
        report(&EpochReport {
            epoch,
            alpha,
            train_loss: loss / train_idx.len().max(1) as f64,
            validation_equity_rmse: rmse,
            best: is_best,
        });
        alpha *= config.alpha_decay;
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_targets_judge_pure_bearoffs_by_the_databases_when_given_them() {
        let nets = Arc::new(Nets::embedded());
        let db = Arc::new(BearoffDb::generate(&mut |_| {}));
        // Two checkers each on low points: the player on roll bears off at once and wins.
        let bearoff = cubeful_engine::position_id::decode("CgAAKAAAAAAAAA").unwrap();
        // A race, not a pure bearoff (a checker of the player's still on its 7-point): the net
        // judges it at 0-ply, the databases judge its leaves.
        let player = [
            2, 2, 2, 3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let opponent = [
            3, 3, 3, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let race = Position::from_sides(&player, &opponent).unwrap();
        assert_eq!(
            classify(&race),
            cubeful_engine::eval::class::PositionClass::Race
        );
        let positions = [bearoff, race];
        let plain = deep_targets(&nets, &positions, 0, false, None, 1);
        let with_db = deep_targets(&nets, &positions, 0, false, Some(&db), 1);
        assert_eq!(with_db[0].target.win, 1.0);
        assert!(plain[0].target.win < 1.0, "{:?}", plain[0].target);
        assert_eq!(
            plain[1].target, with_db[1].target,
            "0-ply of a race: the net alone"
        );
        let plain = deep_targets(&nets, &positions, 1, false, None, 1);
        let with_db = deep_targets(&nets, &positions, 1, false, Some(&db), 1);
        assert_eq!(with_db[0].target.win, 1.0);
        assert_ne!(
            plain[1].target, with_db[1].target,
            "1-ply: bearoffs at the leaves"
        );
    }

    #[test]
    fn hard_examples_are_those_the_nets_misjudge() {
        let nets = Arc::new(Nets::embedded());
        let mut evaluator = Evaluator::new(nets.clone());
        let positions = crate::sampling::SelfPlay::new(&nets, 0.1, 1).positions(40, 5);
        // Targets the nets agree with, except every fifth, moved by 0.1 in win chance (0.2 in
        // equity) or less (0.02: under the threshold).
        let examples: Vec<Example> = positions
            .iter()
            .enumerate()
            .map(|(i, &position)| {
                let mut target = evaluator.evaluate(&position).to_array();
                let shift = match i % 5 {
                    0 => 0.1,
                    1 => 0.01,
                    _ => 0.0,
                };
                target[0] = if target[0] > 0.5 {
                    target[0] - shift
                } else {
                    target[0] + shift
                };
                Example {
                    position,
                    target: Probabilities::from_array(target),
                }
            })
            .collect();
        let hard = hard_examples(&nets, &examples, 0.05, 2);
        let expected: Vec<Example> = examples.iter().step_by(5).copied().collect();
        assert_eq!(hard, expected);
        assert_eq!(hard_examples(&nets, &examples, 0.05, 1), expected);
        assert_eq!(
            hard_examples(&nets, &examples, 0.0, 2).len(),
            examples.len()
        );
    }

    #[test]
    fn zero_ply_targets_are_the_nets_own_chances() {
        let nets = Arc::new(Nets::embedded());
        let positions = crate::sampling::SelfPlay::new(&nets, 0.2, 1).positions(40, 5);
        let mut evaluator = Evaluator::new(nets.clone());
        let examples = deep_targets(&nets, &positions, 0, false, None, 2);
        assert_eq!(examples.len(), positions.len());
        for e in &examples {
            assert_eq!(
                e.target,
                evaluator.evaluate(&e.position),
                "{:?}",
                e.position
            );
        }
        let two = deep_targets(&nets, &positions, 2, true, None, 2);
        assert!(
            examples.iter().zip(&two).any(|(a, b)| a.target != b.target),
            "2-ply targets differ from 0-ply ones somewhere"
        );
    }

    #[test]
    fn one_ply_is_consistent_and_training_fits_it() {
        let nets = Arc::new(Nets::embedded());
        let positions = crate::sampling::SelfPlay::new(&nets, 0.2, 2).positions(300, 4);
        assert_eq!(positions.len(), 300);
        let again = crate::sampling::SelfPlay::new(&nets, 0.2, 1).positions(300, 4);
        assert_eq!(positions, again, "deterministic whatever the threads");
        let examples = one_ply_targets(&nets, &positions, 2);
        for e in &examples {
            let t = e.target;
            assert!(t.win_gammon <= t.win + 1e-6 && t.win_backgammon <= t.win_gammon + 1e-6);
        }
        let before = equity_rmse(&nets, &examples);
        let trained = train(
            (*nets).clone(),
            &examples,
            &SupervisedConfig {
                epochs: 3,
                alpha: 0.005,
                alpha_decay: 0.7,
                validation: 0.0,
                seed: 1,
            },
            |_| {},
        );
        let after = equity_rmse(&trained, &examples);
        assert!(after < before, "{before} -> {after}");
    }
}
