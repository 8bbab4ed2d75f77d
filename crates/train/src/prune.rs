//! Training the pruning nets by distillation (docs/TRAINING.md §Pruning nets).
//!
//! The pruning nets ([`cubeful_engine::eval::prune`]) see only the base inputs and have a few
//! hidden units; inside the search they order the plays of a roll so that the full nets judge
//! only the best few. They learn to imitate the full nets:
//!
//! 1. **Positions** ([`distill_examples`]): every position of a label set (the positions of
//!    `cubeful-cli train label`, whose own targets are not used), and for each of them up to
//!    `plays` positions after a play of one random roll, seen from the opponent now on roll —
//!    the positions the pruning nets judge in the search, good plays and bad ones alike.
//! 2. **Targets**: the full nets' 0-ply chances of each position (sanity rules applied), never
//!    another program's output.
//! 3. **Training** ([`train`]): for each class, a net of [`BASE_INPUTS`] inputs starts from small
//!    random weights and descends the cross-entropy of the five outputs with Adam in
//!    mini-batches, the rate falling along half a cosine wave; the epoch with the lowest loss on
//!    held-out examples (split by a hash of the position) is kept.
//! 4. **Agreement** ([`agreement`]): on held-out positions and a random roll each, how often the
//!    full nets' best play survives the pruning and what the pruning costs in equity, for several
//!    numbers of plays kept.

use std::sync::Arc;
use std::time::Instant;

use cubeful_engine::eval::class::classify;
use cubeful_engine::eval::inputs::{base_inputs, BASE_INPUTS, INPUT_VERSION};
use cubeful_engine::eval::nn::{Net, NetClass};
use cubeful_engine::eval::prune::PruneNets;
use cubeful_engine::eval::{net_class, Evaluator, Nets};
use cubeful_engine::rules::movegen::legal_moves;
use cubeful_engine::search::prune_keep;
use cubeful_engine::Position;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::adam::{Adam, AdamParams};
use crate::backprop::{Backprop, Gradient, Loss};
use crate::dataset::Example;
use crate::minibatch::Schedule;

/// Settings of the distillation.
#[derive(Clone, Debug)]
pub struct DistillConfig {
    /// Hidden units of the contact, crashed and race pruning nets.
    pub hidden: [usize; 3],
    pub epochs: usize,
    /// Examples per mini-batch.
    pub batch: usize,
    /// Initial learning rate (Adam's step size).
    pub alpha: f32,
    /// Final learning rate of the cosine schedule.
    pub alpha_end: f32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
}

impl Default for DistillConfig {
    /// 64 hidden units for contact, 128 for crashed, 16 for race (GNU Backgammon's have 16, 16
    /// and 8): nets that rank well enough for the search to judge three plays fewer per roll
    /// with the full nets than GNU Backgammon's rule (`search::prune_keep`, docs/TRAINING.md
    /// §Pruning nets); 15 epochs of batches of 64 with a rate from 0.003 down to 0.0001.
    fn default() -> DistillConfig {
        DistillConfig {
            hidden: [64, 128, 16],
            epochs: 15,
            batch: 64,
            alpha: 0.003,
            alpha_end: 0.0001,
            seed: 1,
        }
    }
}

/// Figures of one class's pruning net after an epoch (epoch 0: the random start).
#[derive(Clone, Debug)]
pub struct DistillReport {
    pub class: NetClass,
    pub epoch: usize,
    /// Mean loss per training example during the epoch (`None` for epoch 0).
    pub train_loss: Option<f64>,
    /// Mean cross-entropy per held-out example (less the targets' own entropy).
    pub validation_loss: f64,
    /// Training and held-out examples of the class.
    pub examples: (usize, usize),
    /// Whether this is the best epoch so far.
    pub best: bool,
    pub seconds: f64,
}

/// The distillation examples of `positions` (see the module documentation): each position
/// itself and up to `plays` positions after a play of one random roll (drawn from `seed` and
/// the position's index, so the result does not depend on `threads`), each with the full nets'
/// 0-ply chances as target. Finished games are left out.
pub fn distill_examples(
    nets: &Arc<Nets>,
    positions: &[Position],
    plays: usize,
    seed: u64,
    threads: usize,
) -> Vec<Example> {
    let per_position = crate::parallel_map(
        positions.len(),
        threads,
        || Evaluator::new(nets.clone()),
        |evaluator, i| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9));
            let position = positions[i];
            let mut out = Vec::with_capacity(plays + 1);
            let mut push = |p: Position, evaluator: &mut Evaluator| {
                if p.result().is_none() {
                    out.push(Example {
                        position: p,
                        target: evaluator.evaluate(&p),
                    });
                }
            };
            push(position, evaluator);
            if position.result().is_none() && plays > 0 {
                let dice = crate::roll(&mut rng, false);
                let moves = legal_moves(&position, dice);
                let chosen: Vec<_> = moves.choose_multiple(&mut rng, plays).copied().collect();
                for m in chosen {
                    push(m.position.swap(), evaluator);
                }
            }
            out
        },
    );
    per_position.into_iter().flatten().collect()
}

fn class_index(class: NetClass) -> usize {
    match class {
        NetClass::Contact => 0,
        NetClass::Crashed => 1,
        NetClass::Race => 2,
    }
}

/// Mean loss of the pruning net `net` on `examples`.
fn mean_loss(net: &Net, examples: &[&Example]) -> f64 {
    if examples.is_empty() {
        return 0.0;
    }
    let mut x = [0.0f32; BASE_INPUTS];
    let mut hidden = vec![0.0f32; net.scratch_len()];
    let mut out = [0.0f32; 5];
    let mut sum = 0.0;
    for e in examples {
        base_inputs(&e.position, &mut x);
        net.forward(&x, &mut hidden, &mut out);
        sum += Loss::CrossEntropy.value(&out, &e.target.to_array());
    }
    sum / examples.len() as f64
}

/// Trains one class's pruning net from random weights; returns the net of the best epoch.
fn train_class(
    class: NetClass,
    train: &[&Example],
    validation: &[&Example],
    config: &DistillConfig,
    report: &(dyn Fn(&DistillReport) + Sync),
) -> Net {
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed.wrapping_add(class_index(class) as u64));
    let hidden = config.hidden[class_index(class)].max(1);
    let mut net = Net::random(class, INPUT_VERSION, BASE_INPUTS, hidden, 0.1, || {
        rng.gen::<f32>()
    });
    let mut adam = Adam::new(net.parameter_count(), AdamParams::default());
    let mut grad = Gradient::zeros_like(&net);
    let mut backprop = Backprop::new();
    let mut x = [0.0f32; BASE_INPUTS];
    let batch = config.batch.max(1);
    let steps_per_epoch = train.len().div_ceil(batch);
    let total = steps_per_epoch * config.epochs;
    let schedule = Schedule::Cosine {
        end: config.alpha_end,
    };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let first = mean_loss(&net, validation);
    let mut best = (first, net.clone());
    report(&DistillReport {
        class,
        epoch: 0,
        train_loss: None,
        validation_loss: first,
        examples: (train.len(), validation.len()),
        best: true,
        seconds: start.elapsed().as_secs_f64(),
    });
    let mut step = 0;
    for epoch in 1..=config.epochs {
        order.shuffle(&mut rng);
        let mut loss_sum = 0.0;
        for chunk in order.chunks(batch) {
            grad.clear();
            for &i in chunk {
                let e = train[i];
                base_inputs(&e.position, &mut x);
                loss_sum += backprop.accumulate(
                    &net,
                    &x,
                    &e.target.to_array(),
                    Loss::CrossEntropy,
                    &mut grad,
                );
            }
            grad.scale(1.0 / chunk.len() as f32);
            let alpha = schedule.alpha(config.alpha, epoch, step, total);
            adam.step_net(&mut net, &grad, alpha);
            net.trained += chunk.len() as u64;
            step += 1;
        }
        let validation_loss = mean_loss(&net, validation);
        let is_best = validation_loss < best.0;
        if is_best {
            best = (validation_loss, net.clone());
        }
        report(&DistillReport {
            class,
            epoch,
            train_loss: Some(loss_sum / train.len().max(1) as f64),
            validation_loss,
            examples: (train.len(), validation.len()),
            best: is_best,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    best.1
}

/// The examples of each class (contact, crashed, race); finished games in none.
fn by_class(examples: &[Example]) -> [Vec<&Example>; 3] {
    let mut out: [Vec<&Example>; 3] = Default::default();
    for e in examples {
        if let Some(c) = net_class(classify(&e.position)) {
            out[class_index(c)].push(e);
        }
    }
    out
}

/// Trains the three pruning nets on `train`, each on the examples of its class, keeping the
/// epoch with the lowest loss on the class's `validation` examples. The classes train on
/// threads of their own; the result does not depend on the timing. `report` hears every epoch
/// of every class (from the training threads).
pub fn train(
    train: &[Example],
    validation: &[Example],
    config: &DistillConfig,
    report: &(dyn Fn(&DistillReport) + Sync),
) -> PruneNets {
    let (train, validation) = (by_class(train), by_class(validation));
    let nets: Vec<Net> = std::thread::scope(|scope| {
        let handles: Vec<_> = NetClass::ALL
            .iter()
            .map(|&class| {
                let (t, v) = (&train[class_index(class)], &validation[class_index(class)]);
                scope.spawn(move || train_class(class, t, v, config, report))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a training thread panicked"))
            .collect()
    });
    let mut nets = nets.into_iter();
    let mut next = || nets.next().expect("three nets");
    PruneNets {
        contact: next(),
        crashed: next(),
        race: next(),
    }
}

/// How well pruning keeps the full nets' choice, for one class and one rule of how many plays
/// to keep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgreementRow {
    /// Plays kept: `Some(k)` a fixed number, `None` the search's rule ([`prune_keep`]).
    pub keep: Option<usize>,
    /// Decisions (position and roll with at least two plays).
    pub decisions: usize,
    /// Decisions with more plays than kept (where pruning acts).
    pub pruned: usize,
    /// Decisions where the full nets' best play was among those kept.
    pub kept_best: usize,
    /// Mean equity lost per decision (full nets' 0-ply cubeless money equity of their best play
    /// less that of the best play kept), in thousandths of a point.
    pub mean_loss_millipoints: f64,
}

/// Agreement figures per class (contact, crashed, race) and rule.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    pub rows: [Vec<AgreementRow>; 3],
}

/// For each position (before the roll) and one random roll, ranks the plays by the pruning nets
/// and by the full nets of `nets` (0-ply, no bearoff database) and measures, for each number in
/// `keeps` and for the search's rule, whether the full nets' best play survives; classes by the
/// position before the roll. Deterministic for a `seed`.
pub fn agreement(
    nets: &Arc<Nets>,
    positions: &[Position],
    keeps: &[usize],
    seed: u64,
    threads: usize,
) -> Agreement {
    let rules: Vec<Option<usize>> = keeps
        .iter()
        .map(|&k| Some(k))
        .chain(std::iter::once(None))
        .collect();
    // Per position: class index and, per rule, (pruned, kept best, loss); None when skipped.
    type Outcome = Option<(usize, Vec<(bool, bool, f32)>)>;
    let outcomes: Vec<Outcome> = crate::parallel_map(
        positions.len(),
        threads,
        || Evaluator::new(nets.clone()),
        |evaluator, i| {
            let position = positions[i];
            let class = net_class(classify(&position))?;
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x2545_F491));
            let dice = crate::roll(&mut rng, false);
            let moves = legal_moves(&position, dice);
            if moves.len() < 2 {
                return None;
            }
            let mut scored: Vec<(f32, f32, usize)> = moves
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    let full = evaluator.evaluate_after_move(&m.position).equity();
                    let rough = match m.position.result() {
                        Some(_) => full,
                        None => evaluator
                            .evaluate_prune(&m.position.swap())
                            .map_or(full, |p| p.invert().equity()),
                    };
                    (rough, full, k)
                })
                .collect();
            let best_full = scored.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(&b.2)));
            let rows = rules
                .iter()
                .map(|rule| {
                    let keep = rule.unwrap_or_else(|| prune_keep(moves.len()));
                    let kept = &scored[..keep.min(scored.len())];
                    let best_kept = kept.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
                    (
                        moves.len() > keep,
                        best_kept >= best_full,
                        best_full - best_kept,
                    )
                })
                .collect();
            Some((class_index(class), rows))
        },
    );
    let mut agreement = Agreement::default();
    for (c, rows) in agreement.rows.iter_mut().enumerate() {
        *rows = rules
            .iter()
            .map(|&keep| AgreementRow {
                keep,
                ..AgreementRow::default()
            })
            .collect();
        let mut losses = vec![0.0f64; rules.len()];
        for (class, outcome) in outcomes.iter().flatten() {
            if *class != c {
                continue;
            }
            for ((row, &(pruned, kept, loss)), sum) in
                rows.iter_mut().zip(outcome).zip(losses.iter_mut())
            {
                row.decisions += 1;
                row.pruned += usize::from(pruned);
                row.kept_best += usize::from(kept);
                *sum += f64::from(loss);
            }
        }
        for (row, sum) in rows.iter_mut().zip(losses) {
            if row.decisions > 0 {
                row.mean_loss_millipoints = 1000.0 * sum / row.decisions as f64;
            }
        }
    }
    agreement
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minibatch::split_validation;

    #[test]
    fn distillation_learns_and_the_embedded_pruning_nets_agree_with_the_full_nets() {
        let nets = Arc::new(Nets::embedded());
        let positions = crate::sampling::SelfPlay::new(&nets, 0.1, 2).positions(600, 5);
        let examples = distill_examples(&nets, &positions, 3, 9, 2);
        assert!(examples.len() > 2 * positions.len(), "{}", examples.len());
        // The same examples whatever the number of threads.
        assert_eq!(examples, distill_examples(&nets, &positions, 3, 9, 1));
        let (t, v) = split_validation(&examples, 0.2);
        let config = DistillConfig {
            epochs: 3,
            ..DistillConfig::default()
        };
        let first = std::sync::Mutex::new([None; 3]);
        let last = std::sync::Mutex::new([None; 3]);
        let trained = train(&t, &v, &config, &|r: &DistillReport| {
            let k = class_index(r.class);
            if r.epoch == 0 {
                first.lock().unwrap()[k] = Some(r.validation_loss);
            }
            last.lock().unwrap()[k] = Some(r.validation_loss);
        });
        // Contact has most examples: its held-out loss must fall well below the random start.
        let (a, b) = (
            first.lock().unwrap()[0].unwrap(),
            last.lock().unwrap()[0].unwrap(),
        );
        assert!(b < 0.7 * a, "contact loss {a} -> {b}");
        assert_eq!(trained.contact.inputs(), BASE_INPUTS);
        assert_eq!(trained.race.hidden(), 16);

        // The embedded pruning nets keep the full nets' best play in nearly every contact
        // decision with the search's rule; a pruning net that ranked at random would not.
        let a = agreement(&nets, &positions, &[1], 3, 2);
        let contact = &a.rows[0];
        let rule = contact.iter().find(|r| r.keep.is_none()).unwrap();
        assert!(rule.decisions > 200, "{rule:?}");
        assert!(rule.pruned > rule.decisions / 4, "{rule:?}");
        let share = rule.kept_best as f64 / rule.decisions as f64;
        assert!(share > 0.9, "{rule:?}");
        assert!(rule.mean_loss_millipoints < 5.0, "{rule:?}");
        // Keeping a single play is a much harsher test, still far above chance.
        let one = contact.iter().find(|r| r.keep == Some(1)).unwrap();
        assert!(one.kept_best < rule.kept_best, "{one:?} {rule:?}");
        assert!(one.kept_best as f64 > 0.4 * one.decisions as f64, "{one:?}");
    }
}
