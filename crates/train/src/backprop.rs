//! Gradients of a net's loss, and gradient steps.
//!
//! - [`Sgd`]: online stochastic gradient descent with the cross-entropy loss of the five sigmoid
//!   outputs (whose gradient at the output pre-activation is simply `target − output`), one
//!   example at a time: what TD(λ) and the first supervised rounds use.
//! - [`Gradient`] and [`Backprop`]: the gradient of a [`Loss`] summed over examples, for
//!   mini-batch optimisers ([`crate::adam`]).

use cubeful_engine::eval::nn::{Net, Params, OUTPUTS};

/// The loss a net's five sigmoid outputs `y` are trained to minimise against target chances `t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// Binary cross-entropy of each output, `Σ −[t·ln y + (1−t)·ln(1−y)]`, reported less the
    /// targets' own entropy (so that a perfect fit scores 0; the gradient is the same). Its
    /// gradient at an output's pre-activation is `y − t`: no vanishing when a sigmoid saturates.
    CrossEntropy,
    /// Squared error, `Σ (y − t)²`; gradient `2·(y − t)·y·(1 − y)` at the pre-activation.
    SquaredError,
    /// Squared error of the outputs plus that of the cubeless equity they make,
    /// `Σ (y − t)² + (Δe)²/4` with `Δe = Σ c·(y − t)`, `c = (2, 1, 1, −1, −1)` (win, win gammon,
    /// win backgammon, lose gammon, lose backgammon): choices are made on the equity, whose error
    /// the outputs' errors can cancel or add up to; the quarter weighs a win-chance error the
    /// same in both terms. Gradient `(2·(y − t) + c·Δe/2)·y·(1 − y)`.
    SquaredErrorEquity,
}

/// The weight of each output in the cubeless equity (win, win gammon, win backgammon, lose
/// gammon, lose backgammon; gammons include backgammons).
const EQUITY_WEIGHTS: [f64; OUTPUTS] = [2.0, 1.0, 1.0, -1.0, -1.0];

impl Loss {
    /// The loss of outputs `out` against `target`.
    pub fn value(self, out: &[f32; OUTPUTS], target: &[f32; OUTPUTS]) -> f64 {
        let mut sum = 0.0f64;
        for (&y, &t) in out.iter().zip(target) {
            let (y, t) = (f64::from(y), f64::from(t).clamp(0.0, 1.0));
            sum += match self {
                Loss::CrossEntropy => {
                    let y = y.clamp(1e-12, 1.0 - 1e-12);
                    let term = |p: f64, q: f64| if p > 0.0 { p * (p / q).ln() } else { 0.0 };
                    term(t, y) + term(1.0 - t, 1.0 - y)
                }
                Loss::SquaredError | Loss::SquaredErrorEquity => (y - t) * (y - t),
            };
        }
        if self == Loss::SquaredErrorEquity {
            let de = equity_error(out, target);
            sum += de * de / 4.0;
        }
        sum
    }

    /// The derivatives of the loss with respect to the pre-activations of the outputs `out`,
    /// whose targets are `target`.
    #[inline]
    pub(crate) fn output_deltas(
        self,
        out: &[f32; OUTPUTS],
        target: &[f32; OUTPUTS],
    ) -> [f32; OUTPUTS] {
        let de = match self {
            Loss::SquaredErrorEquity => equity_error(out, target) as f32,
            _ => 0.0,
        };
        let mut dz = [0.0f32; OUTPUTS];
        for (o, d) in dz.iter_mut().enumerate() {
            let (y, t) = (out[o], target[o].clamp(0.0, 1.0));
            *d = match self {
                Loss::CrossEntropy => y - t,
                Loss::SquaredError => 2.0 * (y - t) * y * (1.0 - y),
                Loss::SquaredErrorEquity => {
                    (2.0 * (y - t) + EQUITY_WEIGHTS[o] as f32 * de / 2.0) * y * (1.0 - y)
                }
            };
        }
        dz
    }
}

/// The cubeless equity of outputs `out` less that of `target` (`Σ c·(y − t)`).
fn equity_error(out: &[f32; OUTPUTS], target: &[f32; OUTPUTS]) -> f64 {
    out.iter()
        .zip(target)
        .zip(EQUITY_WEIGHTS)
        .map(|((&y, &t), c)| c * (f64::from(y) - f64::from(t).clamp(0.0, 1.0)))
        .sum()
}

/// A gradient (or any vector) of a net's parameters, flat, in the order of
/// [`Params::parts`]: hidden weights (input-major, as [`Net::params`] gives them), hidden
/// biases, the second hidden layer's weights and biases (none in a net of one hidden layer),
/// output weights (output-major), output biases.
#[derive(Clone, Debug, PartialEq)]
pub struct Gradient {
    values: Vec<f32>,
    /// The length of each of the six parts.
    lens: [usize; 6],
}

impl Gradient {
    /// A zero gradient of `net`'s shape.
    pub fn zeros_like(net: &Net) -> Gradient {
        Gradient {
            values: vec![0.0; net.parameter_count()],
            lens: net.params().parts().map(<[f32]>::len),
        }
    }

    /// Number of parameters.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True for a net without parameters (never for a usable net).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// True if `net` has this gradient's shape.
    pub fn fits(&self, net: &Net) -> bool {
        net.params().parts().map(<[f32]>::len) == self.lens
    }

    /// Sets every value to zero.
    pub fn clear(&mut self) {
        self.values.fill(0.0);
    }

    /// All values, flat.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Adds `other` (of the same shape) to this gradient.
    pub fn add(&mut self, other: &Gradient) {
        assert_eq!(
            self.values.len(),
            other.values.len(),
            "gradients of two shapes"
        );
        for (a, &b) in self.values.iter_mut().zip(&other.values) {
            *a += b;
        }
    }

    /// Multiplies every value by `factor`.
    pub fn scale(&mut self, factor: f32) {
        for a in &mut self.values {
            *a *= factor;
        }
    }

    /// The six parts, as a net's [`Params`].
    pub fn parts(&self) -> Params<'_> {
        let mut rest = &self.values[..];
        let [w1, b1, w_mid, b_mid, w2, b2] = self.lens.map(|n| {
            let (part, tail) = rest.split_at(n);
            rest = tail;
            part
        });
        Params {
            w1,
            b1,
            w_mid,
            b_mid,
            w2,
            b2,
        }
    }

    /// The six parts, mutable, in the order of [`Params::parts`].
    fn parts_mut(&mut self) -> [&mut [f32]; 6] {
        let mut rest = &mut self.values[..];
        self.lens.map(|n| {
            let (part, tail) = std::mem::take(&mut rest).split_at_mut(n);
            rest = tail;
            part
        })
    }
}

/// Scratch space for computing gradients with backpropagation.
#[derive(Clone, Debug, Default)]
pub struct Backprop {
    hidden: Vec<f32>,
    delta: Vec<f32>,
}

impl Backprop {
    /// Scratch space (it grows to the nets it meets).
    pub fn new() -> Backprop {
        Backprop::default()
    }

    /// Adds to `grad` the gradient of `loss` for one example (inputs `x`, at least
    /// [`Net::inputs`] values, and `target`) and returns the example's loss, both at `net`'s
    /// current weights.
    ///
    /// # Panics
    /// If `grad` is not of `net`'s shape.
    pub fn accumulate(
        &mut self,
        net: &Net,
        x: &[f32],
        target: &[f32; OUTPUTS],
        loss: Loss,
        grad: &mut Gradient,
    ) -> f64 {
        assert!(grad.fits(net), "a gradient of another shape");
        let (nh, ns) = (net.hidden(), net.second());
        let scratch = net.scratch_len();
        if self.hidden.len() < scratch {
            self.hidden.resize(scratch, 0.0);
        }
        if self.delta.len() < scratch {
            self.delta.resize(scratch, 0.0);
        }
        let mut out = [0.0f32; OUTPUTS];
        net.forward(x, &mut self.hidden, &mut out);
        let value = loss.value(&out, target);
        let dz = loss.output_deltas(&out, target);
        let params = net.params();
        let [gw1, gb1, gw_mid, gb_mid, gw2, gb2] = grad.parts_mut();
        let (h, top) = self.hidden[..scratch].split_at(nh);
        let (delta, delta_top) = self.delta[..scratch].split_at_mut(nh);
        // The deltas of the last hidden layer, and the output layer's gradient.
        let (top, top_delta) = if ns > 0 {
            (top, &mut *delta_top)
        } else {
            (h, &mut *delta)
        };
        let nt = top.len();
        top_delta.fill(0.0);
        for (o, &d) in dz.iter().enumerate() {
            let row = &params.w2[o * nt..(o + 1) * nt];
            for ((g, &a), (dk, &w)) in gw2[o * nt..(o + 1) * nt]
                .iter_mut()
                .zip(top)
                .zip(top_delta.iter_mut().zip(row))
            {
                *g += d * a;
                *dk += d * w;
            }
            gb2[o] += d;
        }
        if ns > 0 {
            // Through the second layer's sigmoids, its gradient, and back to the first layer.
            for ((dj, &a), gb) in delta_top.iter_mut().zip(top).zip(gb_mid.iter_mut()) {
                *dj *= a * (1.0 - a);
                *gb += *dj;
            }
            for (k, (dk, &hk)) in delta.iter_mut().zip(h).enumerate() {
                let row = &params.w_mid[k * ns..(k + 1) * ns];
                let mut back = 0.0f32;
                for ((g, &w), &dj) in gw_mid[k * ns..(k + 1) * ns]
                    .iter_mut()
                    .zip(row)
                    .zip(delta_top.iter())
                {
                    *g += hk * dj;
                    back += w * dj;
                }
                *dk = back;
            }
        }
        for ((dk, &hk), gb) in delta.iter_mut().zip(h).zip(gb1.iter_mut()) {
            *dk *= hk * (1.0 - hk);
            *gb += *dk;
        }
        for (i, &xi) in x[..net.inputs()].iter().enumerate() {
            if xi != 0.0 {
                for (g, &dk) in gw1[i * nh..(i + 1) * nh].iter_mut().zip(delta.iter()) {
                    *g += xi * dk;
                }
            }
        }
        value
    }
}

/// Scratch space for gradient steps on nets of up to `hidden` hidden units.
pub struct Sgd {
    hidden: Vec<f32>,
    delta: Vec<f32>,
    /// For nets of two hidden layers: the gradient by [`Backprop`].
    deep: Backprop,
    grad: Option<Gradient>,
}

impl Sgd {
    pub fn new(hidden: usize) -> Sgd {
        Sgd {
            hidden: vec![0.0; hidden],
            delta: vec![0.0; hidden],
            deep: Backprop::new(),
            grad: None,
        }
    }

    /// One step of size `alpha` moving the outputs for inputs `x` towards `target`. Returns the
    /// squared error of the outputs before the step, summed over the five outputs.
    pub fn step(&mut self, net: &mut Net, x: &[f32], target: &[f32; OUTPUTS], alpha: f32) -> f32 {
        if net.second() > 0 {
            return self.step_deep(net, x, target, alpha);
        }
        let nh = net.hidden();
        if self.hidden.len() < nh {
            self.hidden.resize(nh, 0.0);
            self.delta.resize(nh, 0.0);
        }
        let mut out = [0.0f32; OUTPUTS];
        net.forward(x, &mut self.hidden, &mut out);
        let h = &self.hidden[..nh];
        let mut err = [0.0f32; OUTPUTS];
        let mut sq = 0.0;
        for o in 0..OUTPUTS {
            err[o] = target[o] - out[o];
            sq += err[o] * err[o];
        }
        let params = net.params_mut();
        // Hidden deltas with the output weights before they change.
        let delta = &mut self.delta[..nh];
        for (k, d) in delta.iter_mut().enumerate() {
            let mut s = 0.0;
            for (o, e) in err.iter().enumerate() {
                s += e * params.w2[o * nh + k];
            }
            *d = s * h[k] * (1.0 - h[k]);
        }
        for (o, e) in err.iter().enumerate() {
            let step = alpha * e;
            for (w, &hk) in params.w2[o * nh..(o + 1) * nh].iter_mut().zip(h) {
                *w += step * hk;
            }
            params.b2[o] += step;
        }
        for (b, &d) in params.b1.iter_mut().zip(delta.iter()) {
            *b += alpha * d;
        }
        for (i, &xi) in x[..net_inputs(params.w1.len(), nh)].iter().enumerate() {
            if xi != 0.0 {
                let s = alpha * xi;
                for (w, &d) in params.w1[i * nh..(i + 1) * nh].iter_mut().zip(delta.iter()) {
                    *w += s * d;
                }
            }
        }
        sq
    }
}

impl Sgd {
    /// [`Sgd::step`] for a net of two hidden layers: the cross-entropy gradient (whose output
    /// deltas are `output − target`, the same step as the one-layer pass) by [`Backprop`].
    fn step_deep(&mut self, net: &mut Net, x: &[f32], target: &[f32; OUTPUTS], alpha: f32) -> f32 {
        let grad = match &mut self.grad {
            Some(g) if g.fits(net) => g,
            slot => slot.insert(Gradient::zeros_like(net)),
        };
        grad.clear();
        let scratch = net.scratch_len();
        if self.hidden.len() < scratch {
            self.hidden.resize(scratch, 0.0);
        }
        let mut out = [0.0f32; OUTPUTS];
        net.forward(x, &mut self.hidden, &mut out);
        let sq = out.iter().zip(target).map(|(y, t)| (t - y) * (t - y)).sum();
        self.deep
            .accumulate(net, x, target, Loss::CrossEntropy, grad);
        let mut offset = 0;
        for part in net.params_mut().parts() {
            for (w, &g) in part.iter_mut().zip(&grad.values()[offset..]) {
                *w -= alpha * g;
            }
            offset += part.len();
        }
        sq
    }
}

fn net_inputs(w1_len: usize, hidden: usize) -> usize {
    w1_len / hidden
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::eval::nn::NetClass;

    #[test]
    fn steps_reduce_the_error() {
        let mut seed = 3u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((seed >> 40) as f32) / (1u64 << 24) as f32
        };
        let mut net = Net::random(NetClass::Race, 1, 10, 6, 0.3, &mut next);
        let x: Vec<f32> = (0..10)
            .map(|i| if i % 2 == 0 { 1.0 } else { 0.5 })
            .collect();
        let target = [0.9, 0.3, 0.05, 0.1, 0.01];
        let mut sgd = Sgd::new(6);
        let first = sgd.step(&mut net, &x, &target, 0.1);
        let mut last = first;
        for _ in 0..500 {
            last = sgd.step(&mut net, &x, &target, 0.1);
        }
        assert!(last < first / 100.0, "{first} -> {last}");
    }

    /// A small net of 7 inputs and 4 hidden units (57 parameters), or with a second hidden
    /// layer of `second` units.
    fn small_net_of(seed: u64, second: usize) -> Net {
        let mut seed = seed;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 40) as f32) / (1u64 << 24) as f32
        };
        Net::random_deep(NetClass::Contact, 1, 7, 4, second, 0.8, &mut next)
    }

    fn small_net(seed: u64) -> Net {
        small_net_of(seed, 0)
    }

    fn loss_of(net: &Net, x: &[f32], target: &[f32; OUTPUTS], loss: Loss) -> f64 {
        let mut hidden = vec![0.0; net.scratch_len()];
        let mut out = [0.0f32; OUTPUTS];
        net.forward(x, &mut hidden, &mut out);
        loss.value(&out, target)
    }

    /// Central finite differences of the loss against the backpropagated gradient, for every
    /// parameter of a small net (7 inputs, 4 hidden units: 57 parameters; with a second layer
    /// of 3 units, 67), with inputs that include zeros and fractions and targets strictly inside
    /// and on the edges of [0, 1].
    fn check_gradient(loss: Loss) {
        check_gradient_of(loss, 0, 57);
        check_gradient_of(loss, 3, 67);
    }

    fn check_gradient_of(loss: Loss, second: usize, parameters: usize) {
        let x = [1.0f32, 0.0, 0.5, 0.25, 0.0, 1.0, 0.8];
        let target = [0.7f32, 0.2, 0.0, 0.15, 1.0];
        for seed in [1u64, 2, 3] {
            let net = small_net_of(seed, second);
            let mut grad = Gradient::zeros_like(&net);
            let mut bp = Backprop::new();
            let value = bp.accumulate(&net, &x, &target, loss, &mut grad);
            assert!((value - loss_of(&net, &x, &target, loss)).abs() < 1e-9);
            let analytic = grad.values().to_vec();
            assert_eq!(analytic.len(), parameters);
            let h = 1e-2f32;
            let mut checked_nonzero = 0;
            for (k, &a) in analytic.iter().enumerate() {
                let shifted = |delta: f32| {
                    let mut n = net.clone();
                    let mut k = k;
                    for part in n.params_mut().parts() {
                        if k < part.len() {
                            part[k] += delta;
                            break;
                        }
                        k -= part.len();
                    }
                    loss_of(&n, &x, &target, loss)
                };
                let numeric = (shifted(h) - shifted(-h)) / (2.0 * f64::from(h));
                let a = f64::from(a);
                assert!(
                    (numeric - a).abs() <= 2e-4 + 1e-2 * a.abs(),
                    "{loss:?} seed {seed} parameter {k}: backprop {a}, finite differences {numeric}"
                );
                if a.abs() > 1e-3 {
                    checked_nonzero += 1;
                }
            }
            // The rows of the zero inputs have zero gradient; most others do not.
            assert!(checked_nonzero > 30, "{second}: {checked_nonzero}");
        }
    }

    #[test]
    fn cross_entropy_gradient_matches_finite_differences() {
        check_gradient(Loss::CrossEntropy);
    }

    #[test]
    fn squared_error_gradient_matches_finite_differences() {
        check_gradient(Loss::SquaredError);
    }

    #[test]
    fn equity_weighted_gradient_matches_finite_differences() {
        check_gradient(Loss::SquaredErrorEquity);
    }

    #[test]
    fn the_equity_term_counts_errors_that_add_up_in_the_equity() {
        let t = [0.5, 0.2, 0.02, 0.1, 0.01];
        // The same output errors, once cancelling in the equity, once adding up.
        let cancel = [0.52, 0.16, 0.02, 0.1, 0.01];
        let add = [0.52, 0.24, 0.02, 0.1, 0.01];
        let plain = Loss::SquaredError;
        assert!((plain.value(&cancel, &t) - plain.value(&add, &t)).abs() < 1e-6);
        let eq = Loss::SquaredErrorEquity;
        assert!((eq.value(&cancel, &t) - plain.value(&cancel, &t)).abs() < 1e-6);
        let de: f64 = 2.0 * 0.02 + 0.04;
        assert!((eq.value(&add, &t) - plain.value(&add, &t) - de * de / 4.0).abs() < 1e-7);
    }

    #[test]
    fn steps_reduce_the_error_of_a_two_layer_net() {
        let mut net = small_net_of(4, 3);
        let x = [1.0f32, 0.0, 0.5, 0.25, 0.0, 1.0, 0.8];
        let target = [0.9, 0.3, 0.05, 0.1, 0.01];
        let mut sgd = Sgd::new(4);
        let first = sgd.step(&mut net, &x, &target, 0.1);
        let mut last = first;
        for _ in 0..2000 {
            last = sgd.step(&mut net, &x, &target, 0.1);
        }
        assert!(last < first / 100.0, "{first} -> {last}");
    }

    #[test]
    fn gradients_add_over_examples() {
        let net = small_net(9);
        let xs = [
            [1.0f32, 0.0, 0.5, 0.0, 1.0, 0.0, 0.3],
            [0.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0],
        ];
        let target = [0.4f32, 0.1, 0.01, 0.2, 0.02];
        let mut bp = Backprop::new();
        let mut both = Gradient::zeros_like(&net);
        let mut parts = [Gradient::zeros_like(&net), Gradient::zeros_like(&net)];
        for (x, g) in xs.iter().zip(parts.iter_mut()) {
            bp.accumulate(&net, x, &target, Loss::CrossEntropy, &mut both);
            bp.accumulate(&net, x, &target, Loss::CrossEntropy, g);
        }
        let [mut sum, second] = parts;
        sum.add(&second);
        assert_eq!(sum, both);
    }

    #[test]
    fn cross_entropy_is_zero_only_at_the_target() {
        let t = [0.6f32, 0.2, 0.0, 0.1, 1.0];
        assert!(Loss::CrossEntropy.value(&t, &t).abs() < 1e-9);
        let off = [0.61f32, 0.2, 0.0, 0.1, 1.0];
        assert!(Loss::CrossEntropy.value(&off, &t) > 1e-5);
    }
}
