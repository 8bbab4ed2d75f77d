//! Gradient steps on a net: online stochastic gradient descent with the cross-entropy loss of the
//! five sigmoid outputs (whose gradient at the output pre-activation is simply `target − output`).

use cubeful_engine::eval::nn::{Net, OUTPUTS};

/// Scratch space for gradient steps on nets of up to `hidden` hidden units.
pub struct Sgd {
    hidden: Vec<f32>,
    delta: Vec<f32>,
}

impl Sgd {
    pub fn new(hidden: usize) -> Sgd {
        Sgd {
            hidden: vec![0.0; hidden],
            delta: vec![0.0; hidden],
        }
    }

    /// One step of size `alpha` moving the outputs for inputs `x` towards `target`. Returns the
    /// squared error of the outputs before the step, summed over the five outputs.
    pub fn step(&mut self, net: &mut Net, x: &[f32], target: &[f32; OUTPUTS], alpha: f32) -> f32 {
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
}
