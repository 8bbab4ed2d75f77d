//! The forward pass of [`Net::forward`] on x86-64 processors with AVX2, for nets whose hidden
//! layers are multiples of 64 units: the non-zero inputs are found eight at a time, the hidden
//! layer is accumulated in registers 64 units at a time (instead of through memory, input by
//! input), and the hidden sigmoids are computed eight at a time.
//!
//! Every sum is formed in the same order with the same roundings as the portable pass
//! (`Net::forward_portable`), and [`sigmoid8`] reproduces [`sigmoid`](super::sigmoid) operation by operation
//! (rounding half away from zero included), so the results are identical bit for bit for finite
//! inputs (the only kind the input encoders make); the tests compare them. The evaluation of positions spends most of its time here and in the inputs.

use std::arch::x86_64::*;

use super::{Net, DENSE_INDEX, OUTPUTS};

/// Hidden units accumulated in registers at a time (eight vectors of eight).
pub(super) const BLOCK: usize = 64;

/// Most inputs the pass takes (its lists of non-zero inputs live on the stack).
pub(super) const MAX_INPUTS: usize = 256;

/// `Net::forward` with the hidden layer kept in registers.
///
/// # Safety
/// The processor must support AVX2; `net.hidden()` and `net.second()` must be multiples of
/// [`BLOCK`], `net.inputs()` at most [`MAX_INPUTS`], `x` at least `net.inputs()` long and
/// `hidden` at least `net.scratch_len()` long (all asserted).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn forward(net: &Net, x: &[f32], hidden: &mut [f32], out: &mut [f32; OUTPUTS]) {
    let (n_hidden, n_second) = (net.hidden, net.second);
    let inputs = net.inputs;
    assert!(
        n_hidden.is_multiple_of(BLOCK) && n_second.is_multiple_of(BLOCK) && inputs <= MAX_INPUTS
    );
    assert!(x.len() >= inputs && hidden.len() >= n_hidden + n_second);
    let (w1, b1, w2, b2) = (&net.w1, &net.b1, &net.w2, &net.b2);
    // The net's shape is checked when it is made or read: these follow from it.
    let top = net.top();
    assert!(w1.len() == inputs * n_hidden && b1.len() == n_hidden && w2.len() == OUTPUTS * top);
    assert!(net.w_mid.len() == n_hidden * n_second && net.b_mid.len() == n_second);
    assert!(n_second == 0 || n_hidden <= DENSE_INDEX.len());

    // The non-zero inputs, in order.
    let mut index = [0u16; MAX_INPUTS];
    let mut value = [0.0f32; MAX_INPUTS];
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

    // The indices are inputs of the net, and `w1` holds `inputs` rows (asserted above).
    hidden_layer::<8>(w1, b1, n_hidden, &index[..active], &value[..active], hidden);
    if n_second == 0 {
        *out = output_layer(w2, b2, n_hidden, hidden);
        return;
    }
    // The second layer: every unit of the first adds its row (`w_mid` holds `n_hidden` rows,
    // asserted above).
    let (first, second) = hidden.split_at_mut(n_hidden);
    hidden_layer::<8>(
        &net.w_mid,
        &net.b_mid,
        n_second,
        &DENSE_INDEX[..n_hidden],
        first,
        second,
    );
    *out = output_layer(w2, b2, n_second, second);
}

/// The output layer for the hidden activations `hidden`: `sigmoid(b2[o] + dot(row o of w2,
/// hidden))` for the five outputs, each sum formed with the portable `dot`'s eight partial sums
/// and the five sigmoids computed together by [`sigmoid8`], so the result is the portable
/// `Net::output_layer`'s bit for bit.
///
/// # Safety
/// The processor must support AVX2. Asserted: `n_hidden` is a multiple of 8, `w2` holds
/// `OUTPUTS · n_hidden` weights, `b2` `OUTPUTS` biases and `hidden` at least `n_hidden` values.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn output_layer(
    w2: &[f32],
    b2: &[f32],
    n_hidden: usize,
    hidden: &[f32],
) -> [f32; OUTPUTS] {
    assert!(n_hidden.is_multiple_of(8));
    assert!(w2.len() >= OUTPUTS * n_hidden && b2.len() >= OUTPUTS && hidden.len() >= n_hidden);
    let h = hidden.as_ptr();
    let mut sums = [0.0f32; 8];
    for (o, sum_o) in sums.iter_mut().take(OUTPUTS).enumerate() {
        let row = w2.as_ptr().add(o * n_hidden);
        let mut acc = _mm256_setzero_ps();
        for c in (0..n_hidden).step_by(8) {
            acc = _mm256_add_ps(
                acc,
                _mm256_mul_ps(_mm256_loadu_ps(row.add(c)), _mm256_loadu_ps(h.add(c))),
            );
        }
        let mut lanes = [0.0f32; 8];
        _mm256_storeu_ps(lanes.as_mut_ptr(), acc);
        let sum: f32 = lanes.iter().sum();
        *sum_o = b2[o] + sum;
    }
    let mut activations = [0.0f32; 8];
    _mm256_storeu_ps(
        activations.as_mut_ptr(),
        sigmoid8(_mm256_loadu_ps(sums.as_ptr())),
    );
    let mut out = [0.0f32; OUTPUTS];
    out.copy_from_slice(&activations[..OUTPUTS]);
    out
}

/// The hidden layer for the non-zero inputs `index` (in increasing order) with values `value`:
/// `hidden[u] = sigmoid(b1[u] + Σ w1[index[n]·n_hidden + u] · value[n])`, the sum formed input by
/// input (each product rounded, a value of 1 added without multiplying) as the portable pass
/// forms it, with `8·K` units at a time kept in `K` registers.
///
/// # Safety
/// The processor must support AVX2, and `w1` must hold the row `index[n]·n_hidden .. +n_hidden`
/// of every index (the callers make their indices from the net's inputs). Asserted: `n_hidden`
/// is a multiple of `8·K`, `b1` and `hidden` are at least `n_hidden` long, `index` and `value`
/// equally long.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn hidden_layer<const K: usize>(
    w1: &[f32],
    b1: &[f32],
    n_hidden: usize,
    index: &[u16],
    value: &[f32],
    hidden: &mut [f32],
) {
    assert!(K > 0 && n_hidden.is_multiple_of(8 * K));
    assert!(b1.len() >= n_hidden && hidden.len() >= n_hidden && index.len() == value.len());
    let h = hidden.as_mut_ptr();
    for block in (0..n_hidden).step_by(8 * K) {
        let mut acc = [_mm256_setzero_ps(); K];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_loadu_ps(b1.as_ptr().add(block + 8 * k));
        }
        for (&i, &xi) in index.iter().zip(value) {
            let row = w1.as_ptr().add(usize::from(i) * n_hidden + block);
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
            _mm256_storeu_ps(h.add(block + 8 * k), sigmoid8(*a));
        }
    }
}

/// [`sigmoid`](super::sigmoid) on eight values, operation by operation: `1 / (1 + e^(−x))` with
/// `e^y = 2^round(y·log2 e) · P(y·log2 e − round(…))`, `round` half away from zero.
///
/// # Safety
/// The processor must support AVX2.
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
    // Round half away from zero: to nearest even, then ties moved away from zero (a tie is an
    // integer and a half, so t ± ½ is exact).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nn::sigmoid;
    use crate::eval::nn::NetClass;

    fn avx2() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }

    #[test]
    fn vector_sigmoid_is_the_scalar_one() {
        if !avx2() {
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
                let v = sigmoid8(_mm256_loadu_ps(chunk.as_ptr()));
                _mm256_storeu_ps(got.as_mut_ptr(), v);
            }
            for (x, g) in chunk.iter().zip(got) {
                let want = sigmoid(*x);
                assert_eq!(g.to_bits(), want.to_bits(), "sigmoid({x:e}): {g} vs {want}");
            }
        }
    }

    #[test]
    fn blocked_pass_is_the_portable_one_bit_for_bit() {
        if !avx2() {
            return;
        }
        let mut state = 3u64;
        let mut uniform =
            || (crate::game::splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32;
        let shapes = [
            (250, 128, 0),
            (214, 64, 0),
            (200, 192, 0),
            (13, 64, 0),
            (250, 256, 64),
            (214, 64, 128),
        ];
        for (inputs, hidden, second) in shapes {
            let net = Net::random_deep(
                NetClass::Contact,
                1,
                inputs,
                hidden,
                second,
                0.8,
                &mut uniform,
            );
            let hidden = hidden + second;
            for case in 0..300 {
                // Mostly zeros and ones, as real inputs are, and some other values.
                let x: Vec<f32> = (0..inputs)
                    .map(|_| match (uniform() * 10.0) as u32 {
                        0..=5 => 0.0,
                        6 | 7 => 1.0,
                        8 => uniform() * 4.0 - 2.0,
                        _ => uniform(),
                    })
                    .collect();
                let (mut h1, mut h2) = (vec![0.0; hidden], vec![0.0; hidden]);
                let (mut o1, mut o2) = ([0.0; OUTPUTS], [0.0; OUTPUTS]);
                net.forward_portable(&x, &mut h1, &mut o1);
                // SAFETY: AVX2 is available; the shapes fit (multiples of 64, ≤ 256 inputs).
                unsafe { forward(&net, &x, &mut h2, &mut o2) };
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&h1), bits(&h2), "hidden, case {case}");
                assert_eq!(bits(&o1), bits(&o2), "outputs, case {case}");
            }
        }
    }

    #[test]
    fn output_layer_is_the_portable_one_bit_for_bit() {
        if !avx2() {
            return;
        }
        let mut state = 5u64;
        let mut uniform =
            || (crate::game::splitmix64(&mut state) >> 40) as f32 / (1u64 << 24) as f32;
        // The pruning nets' 32 units, other multiples of 8, and the full nets' sizes.
        for hidden in [8, 32, 40, 128, 256] {
            let net = Net::random(NetClass::Contact, 1, 200, hidden, 2.0, &mut uniform);
            for case in 0..500 {
                let h: Vec<f32> = (0..hidden).map(|_| uniform()).collect();
                let bits = |v: [f32; OUTPUTS]| v.map(f32::to_bits);
                assert_eq!(
                    bits(net.output_layer(&h)),
                    bits(net.output_layer_portable(&h)),
                    "{hidden} hidden units, case {case}"
                );
            }
        }
    }
}
