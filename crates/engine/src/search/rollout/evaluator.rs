//! The 0-ply evaluator of a rollout's hot path: the chances of a position exactly as
//! [`Evaluator::evaluate`](crate::eval::Evaluator::evaluate) gives them, bit for bit, computed
//! faster.
//!
//! A 0-ply rollout spends nearly all its time judging the result of every play of every roll
//! (21 rolls a ply with variance reduction). The evaluation is the engine's: the position's
//! class, the bearoff databases for bearoffs, otherwise the class's net on the same inputs
//! (`eval::encode_inputs`) followed by the sanity rules (`eval::sanity_check`). Only the net's
//! forward pass is done differently, on x86-64 processors with AVX2: the non-zero inputs are
//! found eight at a time, the hidden layer is accumulated in registers 64 units at a time
//! (instead of through memory, input by input), and the hidden sigmoids are computed eight at a
//! time. Every sum is formed in the same order with the same roundings as `Net::forward`, and
//! the vector sigmoid reproduces `eval::nn::sigmoid` operation by operation (rounding half away
//! from zero included), so the results are identical; the tests compare them.
//!
//! Most positions a rollout evaluates are new (without variance reduction almost all of them),
//! so the cache is optional: with variance reduction some plays of different rolls lead to the
//! same position and the cache pays.

use std::sync::Arc;

use crate::eval::bearoff::BearoffDb;
use crate::eval::class::{classify, PositionClass};
use crate::eval::inputs::CONTACT_INPUTS;
use crate::eval::nn::{Net, OUTPUTS};
use crate::eval::{encode_inputs, net_class, sanity_check, BearoffOracle, Nets, Probabilities};
use crate::rules::position::Position;

/// Slots of the evaluation cache (a power of two).
const CACHE_BITS: u32 = 16;

/// Largest hidden layer the fast forward pass handles (larger nets use `Net::forward`).
const MAX_HIDDEN: usize = 256;

#[derive(Clone, Copy)]
struct CacheEntry {
    position: Position,
    probabilities: Probabilities,
}

/// A rollout thread's 0-ply evaluator (see the module documentation).
pub(super) struct RolloutEvaluator {
    nets: Arc<Nets>,
    bearoff: Option<Arc<BearoffDb>>,
    inputs: [f32; CONTACT_INPUTS],
    scratch: Scratch,
    cache: Option<Vec<Option<CacheEntry>>>,
    avx2: bool,
}

/// Buffers of the forward pass, kept between evaluations.
struct Scratch {
    /// The non-zero inputs: indices and values.
    index: [u16; CONTACT_INPUTS],
    value: [f32; CONTACT_INPUTS],
    hidden: [f32; MAX_HIDDEN],
}

impl RolloutEvaluator {
    /// An evaluator of `nets` with the bearoff databases `bearoff`, with a cache if `cache`.
    pub fn new(nets: Arc<Nets>, bearoff: Option<Arc<BearoffDb>>, cache: bool) -> Self {
        RolloutEvaluator {
            nets,
            bearoff,
            inputs: [0.0; CONTACT_INPUTS],
            scratch: Scratch {
                index: [0; CONTACT_INPUTS],
                value: [0.0; CONTACT_INPUTS],
                hidden: [0.0; MAX_HIDDEN],
            },
            cache: cache.then(|| vec![None; 1 << CACHE_BITS]),
            avx2: avx2_available(),
        }
    }

    /// The 0-ply chances of `position` for its player on roll.
    pub fn evaluate(&mut self, position: &Position) -> Probabilities {
        let class = classify(position);
        if class == PositionClass::Over {
            let result = position.result().expect("an Over position has a result");
            return Probabilities::of_result(result.winner, result.kind);
        }
        let slot = (position.fingerprint() >> (64 - CACHE_BITS)) as usize;
        if let Some(cache) = &self.cache {
            if let Some(entry) = cache[slot] {
                if entry.position == *position {
                    return entry.probabilities;
                }
            }
        }
        let mut p = None;
        if class == PositionClass::Bearoff {
            if let Some(db) = &self.bearoff {
                p = BearoffOracle::probabilities(db.as_ref(), position);
            }
        }
        let p = match p {
            Some(p) => p,
            None => {
                let class = net_class(class).expect("not Over");
                let net = self.nets.net(class);
                let x = encode_inputs(class, position, &mut self.inputs);
                let out = forward(net, x, self.avx2, &mut self.scratch);
                let mut p = Probabilities::from_array(out);
                sanity_check(position, &mut p);
                p
            }
        };
        if let Some(cache) = &mut self.cache {
            cache[slot] = Some(CacheEntry {
                position: *position,
                probabilities: p,
            });
        }
        p
    }
}

fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The net's five outputs for inputs `x`, identical to `Net::forward`'s.
fn forward(net: &Net, x: &[f32], avx2: bool, scratch: &mut Scratch) -> [f32; OUTPUTS] {
    let hidden = net.hidden();
    #[cfg(target_arch = "x86_64")]
    {
        if avx2 && hidden.is_multiple_of(64) && hidden <= MAX_HIDDEN && x.len() <= CONTACT_INPUTS {
            // SAFETY: AVX2 is available (checked when the evaluator was made); the sizes were
            // checked just above, and `Net` guarantees weights of `inputs × hidden`,
            // `hidden`, `OUTPUTS × hidden` and `OUTPUTS` values.
            return unsafe { avx2::forward(net, x, scratch) };
        }
    }
    let _ = avx2;
    let mut out = [0.0f32; OUTPUTS];
    if hidden <= MAX_HIDDEN {
        net.forward(x, &mut scratch.hidden, &mut out);
    } else {
        net.forward(x, &mut vec![0.0f32; hidden], &mut out);
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{Scratch, MAX_HIDDEN, OUTPUTS};
    use crate::eval::inputs::CONTACT_INPUTS;
    use crate::eval::nn::{sigmoid, Net};

    /// Hidden units accumulated in registers at a time (eight vectors of eight).
    const BLOCK: usize = 64;

    /// `Net::forward` with the hidden layer kept in registers.
    ///
    /// # Safety
    /// The processor must support AVX2; `net.hidden()` must be a multiple of 64 and at most
    /// `MAX_HIDDEN`, and `x` at most `CONTACT_INPUTS` long.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn forward(net: &Net, x: &[f32], scratch: &mut Scratch) -> [f32; OUTPUTS] {
        let (w1, b1, w2, b2) = net.params();
        let hidden = net.hidden();
        let inputs = net.inputs().min(x.len());
        assert!(hidden.is_multiple_of(BLOCK) && hidden <= MAX_HIDDEN && inputs <= CONTACT_INPUTS);
        assert!(w1.len() >= inputs * hidden && b1.len() >= hidden && w2.len() >= OUTPUTS * hidden);
        // The non-zero inputs, in order.
        let Scratch {
            index,
            value,
            hidden: h,
        } = scratch;
        let mut active = 0usize;
        let zero = _mm256_setzero_ps();
        let mut i = 0;
        while i + 8 <= inputs {
            let v = _mm256_loadu_ps(x.as_ptr().add(i));
            // Not equal, unordered: true for NaN, as `x != 0.0` is.
            let mut mask = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_NEQ_UQ>(v, zero)) as u32;
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                index[active] = (i + k) as u16;
                value[active] = x[i + k];
                active += 1;
                mask &= mask - 1;
            }
            i += 8;
        }
        for (k, &xk) in x[i..inputs].iter().enumerate() {
            if xk != 0.0 {
                index[active] = (i + k) as u16;
                value[active] = xk;
                active += 1;
            }
        }
        // Hidden layer: bias plus each active input's row (times the input unless it is 1),
        // added input by input as `Net::forward` adds them.
        for block in (0..hidden).step_by(BLOCK) {
            let mut acc = [zero; 8];
            for (k, a) in acc.iter_mut().enumerate() {
                *a = _mm256_loadu_ps(b1.as_ptr().add(block + 8 * k));
            }
            for n in 0..active {
                let row = w1.as_ptr().add(usize::from(index[n]) * hidden + block);
                let xi = value[n];
                if xi == 1.0 {
                    for (k, a) in acc.iter_mut().enumerate() {
                        *a = _mm256_add_ps(*a, _mm256_loadu_ps(row.add(8 * k)));
                    }
                } else {
                    let xv = _mm256_set1_ps(xi);
                    for (k, a) in acc.iter_mut().enumerate() {
                        *a = _mm256_add_ps(*a, _mm256_mul_ps(_mm256_loadu_ps(row.add(8 * k)), xv));
                    }
                }
            }
            for (k, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(h.as_mut_ptr().add(block + 8 * k), sigmoid8(*a));
            }
        }
        // Output layer: `sigmoid(b2 + dot(row, h))` with `dot`'s eight partial sums.
        let mut out = [0.0f32; OUTPUTS];
        for (o, out_o) in out.iter_mut().enumerate() {
            let row = w2.as_ptr().add(o * hidden);
            let mut acc = zero;
            for c in (0..hidden).step_by(8) {
                acc = _mm256_add_ps(
                    acc,
                    _mm256_mul_ps(
                        _mm256_loadu_ps(row.add(c)),
                        _mm256_loadu_ps(h.as_ptr().add(c)),
                    ),
                );
            }
            let mut lanes = [0.0f32; 8];
            _mm256_storeu_ps(lanes.as_mut_ptr(), acc);
            let sum: f32 = lanes.iter().sum();
            *out_o = sigmoid(b2[o] + sum);
        }
        out
    }

    /// `eval::nn::sigmoid` on eight values, operation by operation: `1 / (1 + e^(−x))` with
    /// `e^y = 2^round(y·log2 e) · P(y·log2 e − round(…))`, `round` half away from zero.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sigmoid8(x: __m256) -> __m256 {
        let one = _mm256_set1_ps(1.0);
        // −x, then clamped to [−87, 87].
        let y = _mm256_xor_ps(x, _mm256_set1_ps(-0.0));
        let y = _mm256_max_ps(
            _mm256_min_ps(y, _mm256_set1_ps(87.0)),
            _mm256_set1_ps(-87.0),
        );
        let t = _mm256_mul_ps(y, _mm256_set1_ps(std::f32::consts::LOG2_E));
        // Round half away from zero: to nearest even, then ties moved away from zero (a tie is
        // an integer and a half, so t ± ½ is exact).
        let even = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(t);
        let half = _mm256_set1_ps(0.5);
        let sign = _mm256_and_ps(t, _mm256_set1_ps(-0.0));
        let away = _mm256_add_ps(t, _mm256_or_ps(half, sign));
        let off = _mm256_andnot_ps(_mm256_set1_ps(-0.0), _mm256_sub_ps(t, even));
        let tie = _mm256_cmp_ps::<_CMP_EQ_OQ>(off, half);
        let r = _mm256_blendv_ps(even, away, tie);
        let f = _mm256_sub_ps(t, r);
        let c = |v: f32| _mm256_set1_ps(v);
        let mut p = _mm256_add_ps(c(0.001_333_356), _mm256_mul_ps(f, c(0.000_154_035_3)));
        p = _mm256_add_ps(c(0.009_618_129), _mm256_mul_ps(f, p));
        p = _mm256_add_ps(c(0.055_504_11), _mm256_mul_ps(f, p));
        p = _mm256_add_ps(c(0.240_226_5), _mm256_mul_ps(f, p));
        p = _mm256_add_ps(c(std::f32::consts::LN_2), _mm256_mul_ps(f, p));
        p = _mm256_add_ps(one, _mm256_mul_ps(f, p));
        let bits = _mm256_slli_epi32::<23>(_mm256_add_epi32(
            _mm256_cvttps_epi32(r),
            _mm256_set1_epi32(127),
        ));
        let e = _mm256_mul_ps(_mm256_castsi256_ps(bits), p);
        _mm256_div_ps(one, _mm256_add_ps(one, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::rules::dice::Dice;
    use crate::rules::movegen::MoveGenerator;

    #[test]
    fn vector_sigmoid_is_the_scalar_one() {
        if !avx2_available() {
            return;
        }
        let mut values: Vec<f32> = (-200_000..200_000).map(|k| k as f32 * 0.0005).collect();
        values.extend([-1000.0, 1000.0, 87.0, -87.0, 0.0, -0.0, 1e-30, -1e-30]);
        // Ties of the rounding: −x·log2 e exactly an integer and a half, where one exists.
        for k in -120..120 {
            let t = k as f32 + 0.5;
            let x = -(t / std::f32::consts::LOG2_E);
            values.extend([
                x,
                f32::from_bits(x.to_bits() + 1),
                f32::from_bits(x.to_bits() - 1),
            ]);
        }
        let mut state = 99u64;
        for _ in 0..100_000 {
            let bits = crate::game::splitmix64(&mut state) as u32;
            let v = f32::from_bits(bits);
            if v.is_finite() {
                values.push(v);
            }
        }
        for chunk in values.chunks_exact(8) {
            let mut got = [0.0f32; 8];
            // SAFETY: AVX2 is available (checked above).
            unsafe {
                use std::arch::x86_64::*;
                let v = avx2::sigmoid8(_mm256_loadu_ps(chunk.as_ptr()));
                _mm256_storeu_ps(got.as_mut_ptr(), v);
            }
            for (x, g) in chunk.iter().zip(got) {
                let want = crate::eval::nn::sigmoid(*x);
                assert_eq!(g.to_bits(), want.to_bits(), "sigmoid({x:e}): {g} vs {want}");
            }
        }
    }

    #[test]
    fn evaluations_are_the_evaluators_bit_for_bit() {
        let nets = Arc::new(Nets::embedded());
        let db = Arc::new(BearoffDb::new(
            Some(crate::eval::bearoff::OneSided::generate(
                crate::eval::bearoff::Layout::ONE_SIDED,
                &mut |_, _| {},
            )),
            None,
        ));
        for bearoff in [None, Some(db)] {
            let mut reference = Evaluator::new(nets.clone());
            reference.set_cache(false);
            reference.set_bearoff(
                bearoff
                    .clone()
                    .map(|d| d as Arc<dyn crate::eval::BearoffOracle>),
            );
            let mut fast = RolloutEvaluator::new(nets.clone(), bearoff.clone(), true);
            let mut generator = MoveGenerator::new();
            let mut state = 5u64;
            let mut classes = [0usize; 5];
            for _ in 0..150 {
                let mut position = Position::starting();
                for _ in 0..200 {
                    for p in [position, position.swap()] {
                        let a = reference.evaluate(&p);
                        let b = fast.evaluate(&p);
                        let c = fast.evaluate(&p);
                        for (x, y) in a.to_array().iter().zip(b.to_array()) {
                            assert_eq!(x.to_bits(), y.to_bits(), "{p:?}: {a:?} vs {b:?}");
                        }
                        assert_eq!(b, c);
                    }
                    classes[classify(&position) as usize] += 1;
                    let r = crate::game::splitmix64(&mut state);
                    let dice = Dice::new((r % 6) as u8 + 1, ((r >> 8) % 6) as u8 + 1).unwrap();
                    let moves = generator.generate(&position, dice);
                    let next = moves[(r >> 16) as usize % moves.len()].position;
                    if next.result().is_some() {
                        break;
                    }
                    position = next.swap();
                }
            }
            // Every class was seen many times.
            assert!(
                classes.iter().filter(|&&n| n > 100).count() >= 4,
                "{classes:?}"
            );
        }
    }
}
