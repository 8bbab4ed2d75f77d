//! The depth trial: perceptrons with one or more hidden layers (sigmoid units, as the engine's
//! nets, or another [`Activation`] to learn whether one would pay), trained from random weights
//! on the examples of one net class (or of one [`Part`] of it, to learn whether nets specialised
//! by the kind of game would), to learn whether another hidden layer pays before the engine's
//! evaluator and net files carry one (docs/TRAINING.md, round adam29; the engine's nets have one
//! or two since round adam34; other activations and parts: round adam52).
//!
//! Rounds adam19–adam21 and adam27 found the one-layer contact and crashed nets lagging their
//! own 2-ply teacher whatever the data and the width.
//! [`train`] fits nets of any shape on the same examples with the same optimiser (Adam,
//! mini-batches, a cosine schedule, [`Loss`]) and reports each epoch's held-out figures, so two
//! shapes compare on equal terms. The trial's nets are not saved: they answer a question.

use std::time::Instant;

use cubeful_engine::eval::inputs::{input_count, MAX_INPUTS};
use cubeful_engine::eval::nn::{sigmoid, NetClass, OUTPUTS};
use cubeful_engine::eval::{encode_inputs, Probabilities};
use cubeful_engine::{Position, Side};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::adam::{Adam, AdamParams};
use crate::backprop::Loss;
use crate::dataset::Example;
use crate::minibatch::Schedule;

/// The hidden units' activation function (the outputs are always sigmoids).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// The logistic function, as every net of the engine.
    #[default]
    Sigmoid,
    /// max(0, z).
    Relu,
    /// clamp(z / 6 + 1/2, 0, 1), PyTorch's `Hardsigmoid` (wildbg's contact nets).
    HardSigmoid,
}

impl Activation {
    fn apply(self, z: f32) -> f32 {
        match self {
            Activation::Sigmoid => sigmoid(z),
            Activation::Relu => z.max(0.0),
            Activation::HardSigmoid => (z / 6.0 + 0.5).clamp(0.0, 1.0),
        }
    }

    /// The derivative at the pre-activation whose value is `a`.
    fn slope(self, a: f32) -> f32 {
        match self {
            Activation::Sigmoid => a * (1.0 - a),
            Activation::Relu if a > 0.0 => 1.0,
            Activation::HardSigmoid if a > 0.0 && a < 1.0 => 1.0 / 6.0,
            // Off the rectifier's slope, or on either flat end of the hard sigmoid.
            Activation::Relu | Activation::HardSigmoid => 0.0,
        }
    }
}

/// A part of a class's positions, from the view of the player on roll, for nets specialised by
/// the kind of game (`train depth --part`, round adam52): does one net per part fit better than
/// one net for the class?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The player on roll leads the race (fewer pips).
    Ahead,
    /// The player on roll trails the race or is level.
    Behind,
    /// The player on roll has two or more checkers back: on the bar or in the opponent's home
    /// board (an anchor, a back game, checkers to escape).
    Back,
    /// The player on roll has at most one checker back.
    Free,
}

impl Part {
    /// Whether `position` (the player on roll to move) belongs to this part.
    pub fn contains(self, position: &Position) -> bool {
        let lead = || position.pip_count(Side::Player) < position.pip_count(Side::Opponent);
        // Its points 19 to 24 and its bar.
        let back = || -> u32 {
            let side = position.side(Side::Player);
            side[18..].iter().map(|&n| u32::from(n)).sum()
        };
        match self {
            Part::Ahead => lead(),
            Part::Behind => !lead(),
            Part::Back => back() >= 2,
            Part::Free => back() < 2,
        }
    }
}

/// A perceptron: `sizes[0]` inputs, hidden layers of `sizes[1..n − 1]` units of one
/// [`Activation`], and [`OUTPUTS`] sigmoid outputs. Layer `l` maps `sizes[l]` values to `sizes[l + 1]`; its weights
/// are input-major (for each input its outgoing weights), then its biases, all layers in one
/// vector so that one [`Adam`] state steps them all.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    sizes: Vec<usize>,
    /// Each layer's (number of inputs, number of outputs, offset of its weights in `params`);
    /// its biases follow its weights.
    layers: Vec<(usize, usize, usize)>,
    params: Vec<f32>,
    activation: Activation,
}

impl Mlp {
    /// A net of `inputs` inputs and the given hidden layers of `activation` units, its weights
    /// drawn uniformly from ±√(6 / (fan-in + fan-out)) of each layer (Glorot's scale; layers
    /// into rectified units ±√(6 / fan-in), He's), biases zero; deterministic for a seed.
    ///
    /// # Panics
    /// If a layer has no units.
    pub fn random(inputs: usize, hidden: &[usize], activation: Activation, seed: u64) -> Mlp {
        let mut sizes = vec![inputs];
        sizes.extend_from_slice(hidden);
        sizes.push(OUTPUTS);
        assert!(sizes.iter().all(|&n| n > 0), "a layer without units");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut params, mut layers) = (Vec::new(), Vec::new());
        let last = sizes.len() - 2;
        for (l, pair) in sizes.windows(2).enumerate() {
            let (n_in, n_out) = (pair[0], pair[1]);
            layers.push((n_in, n_out, params.len()));
            let scale = if l < last && activation == Activation::Relu {
                (6.0 / n_in as f32).sqrt()
            } else {
                (6.0 / (n_in + n_out) as f32).sqrt()
            };
            params.extend((0..n_in * n_out).map(|_| rng.gen_range(-scale..scale)));
            params.extend(std::iter::repeat_n(0.0, n_out));
        }
        Mlp {
            sizes,
            layers,
            params,
            activation,
        }
    }

    /// Inputs, the hidden layers' sizes, outputs.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// Number of weights and biases.
    pub fn parameter_count(&self) -> usize {
        self.params.len()
    }

    /// Evaluates the net on inputs `x`, leaving every layer's activations in `acts` (the inputs
    /// first, the outputs last), and returns the outputs. Zero inputs cost nothing (most of a
    /// position's are zero).
    pub fn forward(&self, x: &[f32], acts: &mut Activations) -> [f32; OUTPUTS] {
        assert_eq!(x.len(), self.sizes[0], "inputs of another size");
        acts.values.resize(self.sizes.len(), Vec::new());
        acts.values[0].clear();
        acts.values[0].extend_from_slice(x);
        let top = self.layers.len() - 1;
        for (l, &(n_in, n_out, offset)) in self.layers.iter().enumerate() {
            let (before, after) = acts.values.split_at_mut(l + 1);
            let (input, out) = (&before[l], &mut after[0]);
            let w = &self.params[offset..offset + n_in * n_out];
            out.clear();
            out.extend_from_slice(&self.params[offset + n_in * n_out..][..n_out]);
            for (&a, row) in input.iter().zip(w.chunks_exact(n_out)) {
                if a != 0.0 {
                    for (z, &wij) in out.iter_mut().zip(row) {
                        *z += a * wij;
                    }
                }
            }
            let activation = if l == top {
                Activation::Sigmoid
            } else {
                self.activation
            };
            for z in out.iter_mut() {
                *z = activation.apply(*z);
            }
        }
        let last = acts.values.last().expect("an output layer");
        std::array::from_fn(|o| last[o])
    }

    /// Adds the gradient of `loss` at the example whose activations [`Mlp::forward`] left in
    /// `acts` and whose target is `target` to `grad` (as long as the parameters).
    fn accumulate(
        &self,
        acts: &mut Activations,
        target: &[f32; OUTPUTS],
        loss: Loss,
        grad: &mut [f32],
    ) {
        let out = acts.values.last().expect("an output layer");
        let out: [f32; OUTPUTS] = std::array::from_fn(|o| out[o]);
        acts.delta.clear();
        acts.delta
            .extend_from_slice(&loss.output_deltas(&out, target));
        for (l, &(n_in, n_out, offset)) in self.layers.iter().enumerate().rev() {
            let input = &acts.values[l];
            let (gw, gb) = grad[offset..offset + n_in * n_out + n_out].split_at_mut(n_in * n_out);
            for (g, &d) in gb.iter_mut().zip(&acts.delta) {
                *g += d;
            }
            for (&a, row) in input.iter().zip(gw.chunks_exact_mut(n_out)) {
                if a != 0.0 {
                    for (g, &d) in row.iter_mut().zip(&acts.delta) {
                        *g += a * d;
                    }
                }
            }
            if l > 0 {
                // The deltas of the layer below: back through the weights and its units.
                let w = &self.params[offset..offset + n_in * n_out];
                acts.below.clear();
                acts.below
                    .extend(input.iter().zip(w.chunks_exact(n_out)).map(|(&a, row)| {
                        let back: f32 = row.iter().zip(&acts.delta).map(|(&w, &d)| w * d).sum();
                        back * self.activation.slope(a)
                    }));
                std::mem::swap(&mut acts.delta, &mut acts.below);
            }
        }
    }
}

/// Scratch space of [`Mlp::forward`] and the gradient: every layer's activations and the deltas
/// going back.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    values: Vec<Vec<f32>>,
    delta: Vec<f32>,
    below: Vec<f32>,
}

/// Settings of a depth-trial run.
#[derive(Clone, Debug)]
pub struct DepthConfig {
    /// The hidden layers' sizes, input side first.
    pub hidden: Vec<usize>,
    pub epochs: usize,
    /// Examples per mini-batch (at least 1).
    pub batch: usize,
    pub alpha: f32,
    pub schedule: Schedule,
    pub loss: Loss,
    /// The hidden units' activation.
    pub activation: Activation,
    /// Seed of the weights and the shuffles.
    pub seed: u64,
}

/// The figures of one epoch (epoch 0: the random net).
#[derive(Clone, Copy, Debug)]
pub struct DepthEpoch {
    pub epoch: usize,
    /// The learning rate at the epoch's end.
    pub alpha: f32,
    /// Mean loss per training example during the epoch (`None` for epoch 0).
    pub train_loss: Option<f64>,
    /// Mean loss per held-out example after the epoch.
    pub held_out_loss: f64,
    /// Root mean squared error of the raw outputs' cubeless equity on the held-out examples.
    pub equity_rmse: f64,
    /// Seconds since the start.
    pub seconds: f64,
}

/// The examples of one class with their inputs computed once: `inputs` values an example.
struct Encoded {
    inputs: usize,
    x: Vec<f32>,
    targets: Vec<[f32; OUTPUTS]>,
}

impl Encoded {
    fn new(class: NetClass, examples: &[Example]) -> Encoded {
        let inputs = input_count(class);
        let mut buf = vec![0.0f32; MAX_INPUTS];
        let mut x = Vec::with_capacity(examples.len() * inputs);
        for e in examples {
            x.extend_from_slice(encode_inputs(class, &e.position, &mut buf));
        }
        let targets = examples.iter().map(|e| e.target.to_array()).collect();
        Encoded { inputs, x, targets }
    }

    fn len(&self) -> usize {
        self.targets.len()
    }

    fn x(&self, i: usize) -> &[f32] {
        &self.x[i * self.inputs..(i + 1) * self.inputs]
    }

    /// Mean loss and equity RMSE of `net` on these examples.
    fn measure(&self, net: &Mlp, loss: Loss) -> (f64, f64) {
        let mut acts = Activations::default();
        let (mut sum, mut squares) = (0.0f64, 0.0f64);
        let equity = |p: &[f32; OUTPUTS]| Probabilities::from_array(*p).equity();
        for i in 0..self.len() {
            let out = net.forward(self.x(i), &mut acts);
            sum += loss.value(&out, &self.targets[i]);
            let d = f64::from(equity(&out) - equity(&self.targets[i]));
            squares += d * d;
        }
        let n = self.len().max(1) as f64;
        (sum / n, (squares / n).sqrt())
    }
}

/// Trains a net of `config`'s shape from random weights on `train` (examples of `class`), one
/// thread, reporting the held-out figures on `held_out` after every epoch (and before the
/// first) to `report`; returns the net of the last epoch. Deterministic for a seed.
pub fn train(
    class: NetClass,
    train: &[Example],
    held_out: &[Example],
    config: &DepthConfig,
    mut report: impl FnMut(&DepthEpoch),
) -> Mlp {
    let start = Instant::now();
    let (train, held_out) = (Encoded::new(class, train), Encoded::new(class, held_out));
    let mut net = Mlp::random(train.inputs, &config.hidden, config.activation, config.seed);
    let mut adam = Adam::new(net.parameter_count(), AdamParams::default());
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ 0x5EED);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let batch = config.batch.max(1);
    let steps = config.epochs * train.len().div_ceil(batch);
    let (mut grad, mut acts, mut step, mut alpha) = (
        vec![0.0f32; net.parameter_count()],
        Activations::default(),
        0,
        config.alpha,
    );
    let figures = |net: &Mlp, epoch, alpha, train_loss| {
        let (held_out_loss, equity_rmse) = held_out.measure(net, config.loss);
        DepthEpoch {
            epoch,
            alpha,
            train_loss,
            held_out_loss,
            equity_rmse,
            seconds: start.elapsed().as_secs_f64(),
        }
    };
    report(&figures(&net, 0, 0.0, None));
    for epoch in 1..=config.epochs {
        order.shuffle(&mut rng);
        let mut sum = 0.0f64;
        for chunk in order.chunks(batch) {
            grad.fill(0.0);
            for &i in chunk {
                let out = net.forward(train.x(i), &mut acts);
                sum += config.loss.value(&out, &train.targets[i]);
                net.accumulate(&mut acts, &train.targets[i], config.loss, &mut grad);
            }
            let scale = 1.0 / chunk.len() as f32;
            grad.iter_mut().for_each(|g| *g *= scale);
            alpha = config.schedule.alpha(config.alpha, epoch, step, steps);
            adam.step(&mut net.params, &grad, alpha);
            step += 1;
        }
        let train_loss = sum / train.len().max(1) as f64;
        report(&figures(&net, epoch, alpha, Some(train_loss)));
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gradient `accumulate` adds, against central differences of the loss, for every
    /// activation.
    #[test]
    fn gradient_matches_finite_differences() {
        for activation in [
            Activation::Sigmoid,
            Activation::Relu,
            Activation::HardSigmoid,
        ] {
            gradient_check(activation);
        }
    }

    fn gradient_check(activation: Activation) {
        let mut net = Mlp::random(7, &[5, 4], activation, 3);
        // Non-zero biases, so that they matter to the check.
        for (k, p) in net.params.iter_mut().enumerate() {
            *p += 0.01 * (k % 7) as f32;
        }
        let x = [0.5, 0.0, 1.0, 0.25, 0.0, 2.0, 0.75];
        let target = [0.6, 0.2, 0.01, 0.1, 0.0];
        for loss in [
            Loss::CrossEntropy,
            Loss::SquaredError,
            Loss::SquaredErrorEquity,
        ] {
            let mut acts = Activations::default();
            let mut grad = vec![0.0f32; net.parameter_count()];
            net.forward(&x, &mut acts);
            net.accumulate(&mut acts, &target, loss, &mut grad);
            let mut checked = 0;
            for (k, &analytic) in grad.iter().enumerate() {
                let h = 1e-2f32;
                let at = |delta: f32| {
                    let mut moved = net.clone();
                    moved.params[k] += delta;
                    let out = moved.forward(&x, &mut Activations::default());
                    loss.value(&out, &target)
                };
                let numeric = (at(h) - at(-h)) / (2.0 * f64::from(h));
                let analytic = f64::from(analytic);
                assert!(
                    (numeric - analytic).abs() <= 2e-3 * (1.0 + numeric.abs()),
                    "{activation:?} {loss:?} parameter {k}: numeric {numeric}, analytic {analytic}"
                );
                checked += usize::from(analytic != 0.0);
            }
            // Zero inputs have zero gradients; everything else moves.
            assert!(checked > net.parameter_count() / 2, "{checked}");
        }
    }

    /// Both shapes learn the embedded contact net's own chances on self-play positions: the
    /// held-out loss falls far below the random net's, and a run is repeatable.
    #[test]
    fn training_fits_held_out_examples() {
        use std::sync::Arc;

        use cubeful_engine::eval::{Evaluator, Nets};

        let nets = Arc::new(Nets::embedded());
        let positions =
            crate::sampling::SelfPlay::new(&nets, 0.1, 2).of_class(600, 8, NetClass::Contact);
        let mut evaluator = Evaluator::new(nets);
        let examples: Vec<Example> = positions
            .iter()
            .map(|&position| Example {
                position,
                target: evaluator.evaluate(&position),
            })
            .collect();
        let (train_set, held_out) = examples.split_at(500);
        for hidden in [vec![16], vec![16, 8]] {
            let config = DepthConfig {
                hidden,
                epochs: 30,
                batch: 16,
                alpha: 0.003,
                schedule: Schedule::Cosine { end: 0.0001 },
                loss: Loss::SquaredError,
                activation: Activation::Sigmoid,
                seed: 4,
            };
            let mut epochs = Vec::new();
            let net = train(NetClass::Contact, train_set, held_out, &config, |e| {
                epochs.push(*e)
            });
            assert_eq!(epochs.len(), 31);
            let (first, last) = (epochs[0], epochs[30]);
            assert!(
                last.held_out_loss < first.held_out_loss / 5.0,
                "{:?}: {} → {}",
                config.hidden,
                first.held_out_loss,
                last.held_out_loss
            );
            assert!(
                last.equity_rmse < first.equity_rmse / 2.0,
                "{} → {}",
                first.equity_rmse,
                last.equity_rmse
            );
            let again = train(NetClass::Contact, train_set, held_out, &config, |_| {});
            assert_eq!(net, again, "deterministic");
        }
    }

    #[test]
    fn parts_by_race_and_back_checkers() {
        let start = Position::starting();
        // Level race: behind; two checkers on the opponent's ace point: back.
        assert!(Part::Behind.contains(&start) && !Part::Ahead.contains(&start));
        assert!(Part::Back.contains(&start) && !Part::Free.contains(&start));
        // The player's back checkers run to the midpoint: 24 pips ahead, none back.
        let mut board = *start.board();
        board[24] = 0;
        board[13] += 2;
        let ran = Position::from_board(board).unwrap();
        assert!(Part::Ahead.contains(&ran) && Part::Free.contains(&ran));
        // One checker back and one on the bar: two back.
        board[24] = 1;
        board[13] -= 2;
        board[25] = 1;
        let split = Position::from_board(board).unwrap();
        assert_eq!(split.bar(Side::Player), 1);
        assert!(Part::Back.contains(&split) && Part::Behind.contains(&split));
    }

    #[test]
    fn shapes_and_layers() {
        let net = Mlp::random(10, &[8, 3], Activation::Sigmoid, 1);
        assert_eq!(net.sizes(), &[10, 8, 3, OUTPUTS]);
        assert_eq!(
            net.parameter_count(),
            10 * 8 + 8 + 8 * 3 + 3 + 3 * OUTPUTS + OUTPUTS
        );
        assert_eq!(net.layers, [(10, 8, 0), (8, 3, 88), (3, OUTPUTS, 115)]);
        assert_eq!(
            net,
            Mlp::random(10, &[8, 3], Activation::Sigmoid, 1),
            "deterministic"
        );
        assert_ne!(net, Mlp::random(10, &[8, 3], Activation::Sigmoid, 2));
        assert_ne!(net, Mlp::random(10, &[8, 3], Activation::Relu, 1));
    }
}
