//! The Adam optimiser (Kingma and Ba, "Adam: a method for stochastic optimization", 2015): each
//! parameter moves against a running mean of its gradient divided by the root of a running mean
//! of its squared gradient, both corrected for their start at zero. Steps are therefore about
//! `alpha` in size whatever the scale of the gradient, which suits nets whose input rows are
//! touched by very different shares of the examples.
//!
//! [`Adam`] keeps the state of one flat vector of parameters; [`Adam::step_net`] treats a
//! [`Net`]'s weights and biases as that vector, in the order of
//! [`Gradient`].

use cubeful_engine::eval::nn::Net;

use crate::backprop::Gradient;

/// The constants of Adam.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamParams {
    /// Decay of the running mean of the gradient.
    pub beta1: f32,
    /// Decay of the running mean of the squared gradient.
    pub beta2: f32,
    /// Added to the root of the second moment so that the step stays finite.
    pub epsilon: f32,
}

impl Default for AdamParams {
    /// The published defaults: β1 0.9, β2 0.999, ε 1e-8.
    fn default() -> AdamParams {
        AdamParams {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
        }
    }
}

/// Adam's state for one vector of parameters.
#[derive(Clone, Debug)]
pub struct Adam {
    params: AdamParams,
    /// First moment (running mean of the gradient).
    m: Vec<f32>,
    /// Second moment (running mean of the squared gradient).
    v: Vec<f32>,
    /// Steps taken.
    t: u64,
    /// β1^t and β2^t, kept as products so that long runs stay exact enough.
    beta1_power: f64,
    beta2_power: f64,
}

impl Adam {
    /// Fresh state (zero moments) for `len` parameters.
    pub fn new(len: usize, params: AdamParams) -> Adam {
        Adam {
            params,
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
            beta1_power: 1.0,
            beta2_power: 1.0,
        }
    }

    /// Number of parameters this state is for.
    pub fn len(&self) -> usize {
        self.m.len()
    }

    /// True for a state of no parameters.
    pub fn is_empty(&self) -> bool {
        self.m.is_empty()
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.t
    }

    /// One step of size `alpha` on `params` down the gradient `grad` (of a loss to minimise).
    ///
    /// # Panics
    /// If `params` or `grad` is not as long as the state.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], alpha: f32) {
        assert_eq!(params.len(), self.len(), "parameters of another size");
        let (a, b1, b2) = self.begin(alpha);
        self.update(0, params, grad, a, b1, b2);
    }

    /// One step of size `alpha` on the weights and biases of `net` down `grad`.
    ///
    /// # Panics
    /// If the state or the gradient is not of `net`'s size.
    pub fn step_net(&mut self, net: &mut Net, grad: &Gradient, alpha: f32) {
        assert_eq!(net.parameter_count(), self.len(), "a net of another size");
        assert_eq!(grad.len(), self.len(), "a gradient of another size");
        let (a, b1, b2) = self.begin(alpha);
        let mut offset = 0;
        for (params, g) in net
            .params_mut()
            .parts()
            .into_iter()
            .zip(grad.parts().parts())
        {
            self.update(offset, params, g, a, b1, b2);
            offset += g.len();
        }
    }

    /// Advances the step count; returns the bias-corrected step size and the two decays.
    fn begin(&mut self, alpha: f32) -> (f32, f32, f32) {
        self.t += 1;
        self.beta1_power *= f64::from(self.params.beta1);
        self.beta2_power *= f64::from(self.params.beta2);
        // α·√(1−β2^t)/(1−β1^t): the bias corrections of both moments folded into the step size,
        // as in the paper's efficient form.
        let corrected =
            f64::from(alpha) * (1.0 - self.beta2_power).sqrt() / (1.0 - self.beta1_power);
        (corrected as f32, self.params.beta1, self.params.beta2)
    }

    fn update(
        &mut self,
        offset: usize,
        params: &mut [f32],
        grad: &[f32],
        a: f32,
        b1: f32,
        b2: f32,
    ) {
        assert_eq!(params.len(), grad.len(), "gradient of another size");
        let n = params.len();
        let m = &mut self.m[offset..offset + n];
        let v = &mut self.v[offset..offset + n];
        // ε is scaled like the moment it is added to in the folded form, so that the step equals
        // the textbook α·m̂/(√v̂ + ε).
        let eps = self.params.epsilon * ((1.0 - self.beta2_power).sqrt() as f32);
        for (((p, &g), m), v) in params.iter_mut().zip(grad).zip(m).zip(v) {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *p -= a * *m / (v.sqrt() + eps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// f(x) = Σ aᵢ (xᵢ − cᵢ)², with curvatures spanning four orders of magnitude.
    fn quadratic_gradient(x: &[f32], a: &[f32], c: &[f32], g: &mut [f32]) {
        for i in 0..x.len() {
            g[i] = 2.0 * a[i] * (x[i] - c[i]);
        }
    }

    #[test]
    fn a_badly_scaled_quadratic_converges() {
        let a = [100.0f32, 1.0, 0.01, 3.0];
        let c = [0.5f32, -1.0, 2.0, 0.0];
        let mut x = [0.0f32, 0.0, 0.0, 1.0];
        let mut g = [0.0f32; 4];
        let mut adam = Adam::new(4, AdamParams::default());
        // 3,000 steps at 0.05, then 3,000 at 0.005: Adam's steps do not depend on the curvature,
        // so even the flat coordinate (a = 0.01) travels its 2.0 in about 40 steps.
        for step in 0..6000 {
            let alpha = if step < 3000 { 0.05 } else { 0.005 };
            quadratic_gradient(&x, &a, &c, &mut g);
            adam.step(&mut x, &g, alpha);
        }
        for i in 0..4 {
            assert!((x[i] - c[i]).abs() < 2e-3, "x{i} = {} not {}", x[i], c[i]);
        }
        assert_eq!(adam.steps(), 6000);
    }

    #[test]
    fn the_first_step_is_alpha_against_the_gradient_sign() {
        // After one step m̂ = g and v̂ = g², so every parameter moves by α·sign(g) whatever |g|.
        let mut x = [1.0f32, 1.0, 1.0];
        let g = [1e-3f32, -50.0, 2.0];
        let mut adam = Adam::new(3, AdamParams::default());
        adam.step(&mut x, &g, 0.01);
        assert!((x[0] - 0.99).abs() < 1e-5, "{}", x[0]);
        assert!((x[1] - 1.01).abs() < 1e-5, "{}", x[1]);
        assert!((x[2] - 0.99).abs() < 1e-5, "{}", x[2]);
    }

    #[test]
    fn zero_gradients_do_not_move_fresh_parameters() {
        let mut x = [0.25f32; 5];
        let mut adam = Adam::new(5, AdamParams::default());
        for _ in 0..10 {
            adam.step(&mut x, &[0.0; 5], 0.1);
        }
        assert_eq!(x, [0.25f32; 5]);
    }
}
