//! Neural nets: a multilayer perceptron with one hidden layer of sigmoid units and five sigmoid
//! outputs, and its file format.
//!
//! # File format (version 1)
//!
//! All numbers little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CUBEFUL` followed by byte 0x1A |
//! | 8 | 4 | format version (u32), currently 1 |
//! | 12 | 4 | position class (u32): 0 contact, 1 crashed, 2 race |
//! | 16 | 4 | input encoding version (u32), see [`crate::eval::inputs::INPUT_VERSION`] |
//! | 20 | 4 | number of inputs (u32) |
//! | 24 | 4 | number of hidden units (u32) |
//! | 28 | 4 | number of outputs (u32), always 5 |
//! | 32 | 8 | training counter (u64): positions the net was trained on |
//! | 40 | 4·(I·H + H + O·H + O) | weights (f32): hidden weights input by input (for each input its H outgoing weights), hidden biases, output weights output by output (for each output its H incoming weights), output biases |
//! | end − 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! The layout is input-major so that evaluation adds one contiguous row per non-zero input:
//! most inputs of a position are zero.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::files::{read_regular, write_atomically};

#[cfg(target_arch = "x86_64")]
mod blocked;

/// Number of outputs of every net: win, win gammon, win backgammon, lose gammon, lose backgammon.
pub const OUTPUTS: usize = 5;

const MAGIC: &[u8; 8] = b"CUBEFUL\x1a";
const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 40;

/// The longest net file [`Net::load`] reads: 16 MiB, room for about 16,000 hidden units on the
/// 250 contact inputs, while the nets in use have a few hundred (under 400 KB). A longer file
/// (or a device like `/dev/zero`) is refused before it is read.
pub const MAX_NET_FILE_BYTES: u64 = 16 << 20;

/// Which kind of position a net judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetClass {
    Contact,
    Crashed,
    Race,
}

impl NetClass {
    /// All classes with a net.
    pub const ALL: [NetClass; 3] = [NetClass::Contact, NetClass::Crashed, NetClass::Race];

    fn code(self) -> u32 {
        match self {
            NetClass::Contact => 0,
            NetClass::Crashed => 1,
            NetClass::Race => 2,
        }
    }

    fn from_code(code: u32) -> Option<NetClass> {
        Some(match code {
            0 => NetClass::Contact,
            1 => NetClass::Crashed,
            2 => NetClass::Race,
            _ => return None,
        })
    }

    /// Lower-case name, also the file stem of the net in a nets folder (`contact.net`, …).
    pub fn name(self) -> &'static str {
        match self {
            NetClass::Contact => "contact",
            NetClass::Crashed => "crashed",
            NetClass::Race => "race",
        }
    }
}

/// What is wrong with the bytes of a net file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NetFormatError {
    #[error("the file is {0} bytes long, too short for a net header (40 bytes)")]
    TooShort(usize),
    #[error("it is not a Cubeful net file (wrong magic bytes)")]
    BadMagic,
    #[error("it is a net file of format version {0}; this program reads version 1")]
    UnsupportedVersion(u32),
    #[error("it names position class {0}, which does not exist")]
    BadClass(u32),
    #[error("it declares {inputs} inputs, {hidden} hidden units and {outputs} outputs, which is not a usable net")]
    BadShape {
        inputs: u32,
        hidden: u32,
        outputs: u32,
    },
    #[error("it should be {expected} bytes long for its declared shape but is {found} (truncated or padded)")]
    WrongLength { expected: usize, found: usize },
    #[error("its checksum does not match its contents (the file is corrupt)")]
    BadChecksum,
    #[error("it contains a weight that is not a finite number")]
    NotFinite,
}

/// A net file that could not be used, with the file's name.
#[derive(Debug, Error)]
pub enum NetFileError {
    #[error("cannot read net file {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("net file {path}: {source}")]
    Format {
        path: PathBuf,
        source: NetFormatError,
    },
    #[error("net file {path} is a {found} net, but a {expected} net was expected")]
    WrongClass {
        path: PathBuf,
        expected: &'static str,
        found: &'static str,
    },
    #[error("net file {path} expects {found} inputs of encoding version {found_version}, but this program computes {expected} inputs of version {expected_version}")]
    WrongInputs {
        path: PathBuf,
        expected: usize,
        found: usize,
        expected_version: u32,
        found_version: u32,
    },
}

/// A one-hidden-layer perceptron: `hidden = σ(b1 + W1·x)`, `out = σ(b2 + W2·hidden)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    class: NetClass,
    input_version: u32,
    inputs: usize,
    hidden: usize,
    /// Positions the net has been trained on.
    pub trained: u64,
    /// `inputs × hidden`, input-major.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `OUTPUTS × hidden`, output-major.
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// Mutable views of a net's parameters, for training.
pub struct ParamsMut<'a> {
    pub w1: &'a mut [f32],
    pub b1: &'a mut [f32],
    pub w2: &'a mut [f32],
    pub b2: &'a mut [f32],
}

impl Net {
    /// A net with small random weights drawn from `uniform(-scale, scale)` by `next_uniform`, a
    /// source of numbers in [0, 1). The caller owns the randomness (and so its determinism).
    pub fn random(
        class: NetClass,
        input_version: u32,
        inputs: usize,
        hidden: usize,
        scale: f32,
        mut next_uniform: impl FnMut() -> f32,
    ) -> Net {
        let mut draw = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| (next_uniform() * 2.0 - 1.0) * scale)
                .collect()
        };
        Net {
            class,
            input_version,
            inputs,
            hidden,
            trained: 0,
            w1: draw(inputs * hidden),
            b1: draw(hidden),
            w2: draw(OUTPUTS * hidden),
            b2: draw(OUTPUTS),
        }
    }

    /// The same net with `hidden` hidden units (at least as many as it has), computing the same
    /// function: the new units get small random input weights and biases drawn from
    /// `uniform(-scale, scale)` by `next_uniform` (a source of numbers in [0, 1)) and zero
    /// output weights, so training can put them to use without first undoing what the net
    /// knows. `None` if `hidden` is smaller than the net's.
    pub fn widened(
        &self,
        hidden: usize,
        scale: f32,
        mut next_uniform: impl FnMut() -> f32,
    ) -> Option<Net> {
        if hidden < self.hidden {
            return None;
        }
        let (old, inputs) = (self.hidden, self.inputs);
        let mut draw = || (next_uniform() * 2.0 - 1.0) * scale;
        let mut w1 = Vec::with_capacity(inputs * hidden);
        for row in self.w1.chunks_exact(old) {
            w1.extend_from_slice(row);
            w1.extend((old..hidden).map(|_| draw()));
        }
        let mut b1 = self.b1.clone();
        b1.extend((old..hidden).map(|_| draw()));
        let mut w2 = Vec::with_capacity(OUTPUTS * hidden);
        for row in self.w2.chunks_exact(old) {
            w2.extend_from_slice(row);
            w2.extend(std::iter::repeat_n(0.0, hidden - old));
        }
        Some(Net {
            hidden,
            w1,
            b1,
            w2,
            ..self.clone()
        })
    }

    pub fn class(&self) -> NetClass {
        self.class
    }

    pub fn input_version(&self) -> u32 {
        self.input_version
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// All parameters, for training code.
    pub fn params_mut(&mut self) -> ParamsMut<'_> {
        ParamsMut {
            w1: &mut self.w1,
            b1: &mut self.b1,
            w2: &mut self.w2,
            b2: &mut self.b2,
        }
    }

    /// Hidden-layer weights (input-major), hidden biases, output weights (output-major), output
    /// biases.
    pub fn params(&self) -> (&[f32], &[f32], &[f32], &[f32]) {
        (&self.w1, &self.b1, &self.w2, &self.b2)
    }

    /// Evaluates the net. `hidden` is scratch space of at least [`Net::hidden`] values; on return
    /// it holds the hidden activations (training uses them). `x` must have [`Net::inputs`] values.
    ///
    /// On x86-64 processors with AVX2 and FMA the pass runs with eight floats per operation:
    /// for hidden layers of a multiple of 64 units the register-blocked pass of
    /// [`blocked`](self::blocked) (the usual nets), otherwise the same code as the portable pass
    /// compiled for those instructions. The choice is made at run time; the results are the
    /// same bit for bit whichever runs.
    #[inline]
    pub fn forward(&self, x: &[f32], hidden: &mut [f32], out: &mut [f32; OUTPUTS]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                if self.hidden.is_multiple_of(blocked::BLOCK) && self.inputs <= blocked::MAX_INPUTS
                {
                    // SAFETY: the processor supports AVX2 (checked above) and the net's shape
                    // suits the blocked pass; it asserts the slice lengths itself.
                    unsafe { blocked::forward(self, x, hidden, out) };
                } else {
                    // SAFETY: the processor supports AVX2 and FMA, checked just above.
                    unsafe { self.forward_avx2(x, hidden, out) };
                }
                return;
            }
        }
        self.forward_portable(x, hidden, out);
    }

    /// The hidden activations for sparse inputs: `hidden[u] = σ(b1[u] + Σ w1[index[n]][u] ·
    /// value[n])`, the sum formed input by input in the order given (the indices must increase,
    /// as a dense input vector's non-zero entries do), exactly as [`Net::forward`] forms it for
    /// the same inputs. For callers that know their non-zero inputs without a dense vector (the
    /// pruning nets). `hidden` must hold at least [`Net::hidden`] values.
    ///
    /// # Panics
    /// If `index` and `value` differ in length or an index is not an input of the net.
    pub fn hidden_sparse(&self, index: &[u16], value: &[f32], hidden: &mut [f32]) {
        assert_eq!(index.len(), value.len());
        assert!(index.iter().all(|&i| usize::from(i) < self.inputs));
        let nh = self.hidden;
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY (all three): AVX2 is available (checked just above) and the indices are
                // inputs of the net, whose rows `w1` holds (asserted above); `hidden_layer`
                // asserts the block size and the slice lengths itself.
                if nh.is_multiple_of(64) {
                    unsafe {
                        blocked::hidden_layer::<8>(&self.w1, &self.b1, nh, index, value, hidden)
                    };
                    return;
                } else if nh.is_multiple_of(32) {
                    unsafe {
                        blocked::hidden_layer::<4>(&self.w1, &self.b1, nh, index, value, hidden)
                    };
                    return;
                } else if nh.is_multiple_of(16) {
                    unsafe {
                        blocked::hidden_layer::<2>(&self.w1, &self.b1, nh, index, value, hidden)
                    };
                    return;
                }
            }
        }
        let h = &mut hidden[..nh];
        h.copy_from_slice(&self.b1);
        for (&i, &xi) in index.iter().zip(value) {
            let row = &self.w1[usize::from(i) * nh..(usize::from(i) + 1) * nh];
            if xi == 1.0 {
                for (a, &w) in h.iter_mut().zip(row) {
                    *a += w;
                }
            } else {
                for (a, &w) in h.iter_mut().zip(row) {
                    *a += w * xi;
                }
            }
        }
        for a in h.iter_mut() {
            *a = sigmoid(*a);
        }
    }

    /// The five outputs for the hidden activations `hidden` ([`Net::hidden`] values), as
    /// [`Net::forward`] computes them: `σ(b2 + dot(row, hidden))`.
    pub fn output_layer(&self, hidden: &[f32]) -> [f32; OUTPUTS] {
        #[cfg(target_arch = "x86_64")]
        {
            if self.hidden.is_multiple_of(8) && std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available (checked just above); `output_layer` asserts the
                // shapes itself.
                return unsafe { blocked::output_layer(&self.w2, &self.b2, self.hidden, hidden) };
            }
        }
        self.output_layer_portable(hidden)
    }

    /// [`Net::output_layer`] without vector instructions: the reference the AVX2 pass matches
    /// bit for bit (the tests compare them).
    fn output_layer_portable(&self, hidden: &[f32]) -> [f32; OUTPUTS] {
        let h = &hidden[..self.hidden];
        let mut out = [0.0f32; OUTPUTS];
        for (o, out_o) in out.iter_mut().enumerate() {
            let row = &self.w2[o * self.hidden..(o + 1) * self.hidden];
            *out_o = sigmoid(self.b2[o] + dot(row, h));
        }
        out
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn forward_avx2(&self, x: &[f32], hidden: &mut [f32], out: &mut [f32; OUTPUTS]) {
        self.forward_portable(x, hidden, out);
    }

    #[inline(always)]
    fn forward_portable(&self, x: &[f32], hidden: &mut [f32], out: &mut [f32; OUTPUTS]) {
        let h = &mut hidden[..self.hidden];
        h.copy_from_slice(&self.b1);
        for (i, &xi) in x[..self.inputs].iter().enumerate() {
            if xi != 0.0 {
                let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
                if xi == 1.0 {
                    for (a, &w) in h.iter_mut().zip(row) {
                        *a += w;
                    }
                } else {
                    for (a, &w) in h.iter_mut().zip(row) {
                        *a += w * xi;
                    }
                }
            }
        }
        for a in h.iter_mut() {
            *a = sigmoid(*a);
        }
        *out = self.output_layer_portable(h);
    }

    /// The bytes of the net file (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER_LEN + 4 * self.parameter_count() + 4);
        b.extend_from_slice(MAGIC);
        for v in [
            FORMAT_VERSION,
            self.class.code(),
            self.input_version,
            self.inputs as u32,
            self.hidden as u32,
            OUTPUTS as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.trained.to_le_bytes());
        for w in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// Reads a net from the bytes of a net file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetFormatError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetFormatError::TooShort(bytes.len()));
        }
        if &bytes[..8] != MAGIC {
            return Err(NetFormatError::BadMagic);
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(NetFormatError::UnsupportedVersion(version));
        }
        let class = NetClass::from_code(u32_at(12)).ok_or(NetFormatError::BadClass(u32_at(12)))?;
        let input_version = u32_at(16);
        let (inputs, hidden, outputs) = (u32_at(20), u32_at(24), u32_at(28));
        if inputs == 0
            || hidden == 0
            || outputs as usize != OUTPUTS
            || inputs > 100_000
            || hidden > 100_000
        {
            return Err(NetFormatError::BadShape {
                inputs,
                hidden,
                outputs,
            });
        }
        let (inputs, hidden) = (inputs as usize, hidden as usize);
        let count = inputs * hidden + hidden + OUTPUTS * hidden + OUTPUTS;
        let expected = HEADER_LEN + 4 * count + 4;
        if bytes.len() != expected {
            return Err(NetFormatError::WrongLength {
                expected,
                found: bytes.len(),
            });
        }
        let body = &bytes[..expected - 4];
        let crc = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
        if crc32fast::hash(body) != crc {
            return Err(NetFormatError::BadChecksum);
        }
        let trained = u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes"));
        let mut floats = body[HEADER_LEN..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        let mut take = |n: usize| -> Result<Vec<f32>, NetFormatError> {
            let v: Vec<f32> = floats.by_ref().take(n).collect();
            if v.iter().all(|w| w.is_finite()) {
                Ok(v)
            } else {
                Err(NetFormatError::NotFinite)
            }
        };
        Ok(Net {
            class,
            input_version,
            inputs,
            hidden,
            trained,
            w1: take(inputs * hidden)?,
            b1: take(hidden)?,
            w2: take(OUTPUTS * hidden)?,
            b2: take(OUTPUTS)?,
        })
    }

    /// Reads a net file and checks that it is a net of `class` for the current input encoding
    /// (`inputs` values of version `input_version`).
    pub fn load(
        path: &Path,
        class: NetClass,
        inputs: usize,
        input_version: u32,
    ) -> Result<Net, NetFileError> {
        let bytes = read_regular(path, MAX_NET_FILE_BYTES).map_err(|e| NetFileError::Io {
            path: path.to_path_buf(),
            source: e.into_reason(),
        })?;
        let net = Net::from_bytes(&bytes).map_err(|source| NetFileError::Format {
            path: path.to_path_buf(),
            source,
        })?;
        net.check(path, class, inputs, input_version)?;
        Ok(net)
    }

    /// Checks class and input encoding; `origin` names the net in errors.
    pub fn check(
        &self,
        origin: &Path,
        class: NetClass,
        inputs: usize,
        input_version: u32,
    ) -> Result<(), NetFileError> {
        if self.class != class {
            return Err(NetFileError::WrongClass {
                path: origin.to_path_buf(),
                expected: class.name(),
                found: self.class.name(),
            });
        }
        if self.inputs != inputs || self.input_version != input_version {
            return Err(NetFileError::WrongInputs {
                path: origin.to_path_buf(),
                expected: inputs,
                found: self.inputs,
                expected_version: input_version,
                found_version: self.input_version,
            });
        }
        Ok(())
    }

    /// Writes the net file atomically ([`write_atomically`]): to a temporary file created
    /// exclusively beside `path`, then renamed over it, so a failed save never damages an
    /// existing file. The folder must exist, and an existing `path` must be a regular file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        Ok(write_atomically(path, &self.to_bytes())?)
    }

    /// Number of weights and biases.
    pub fn parameter_count(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }
}

#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight independent partial sums let the compiler vectorise the loop.
    let mut acc = [0.0f32; 8];
    let chunks = a.len() / 8 * 8;
    for (ca, cb) in a[..chunks].chunks_exact(8).zip(b[..chunks].chunks_exact(8)) {
        for k in 0..8 {
            acc[k] += ca[k] * cb[k];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for (x, y) in a[chunks..].iter().zip(&b[chunks..]) {
        sum += x * y;
    }
    sum
}

/// The logistic function 1 / (1 + e^(−x)), accurate to about 1e-7 and fast: e^(−x) is computed
/// as 2^(−x·log2 e) from the exponent bits and a polynomial for the fraction.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + fast_exp(-x))
}

#[inline(always)]
fn fast_exp(x: f32) -> f32 {
    let x = x.clamp(-87.0, 87.0);
    let t = x * std::f32::consts::LOG2_E;
    let i = round_half_away(t);
    let f = t - i as f32; // in [-0.5, 0.5]
                          // 2^f = e^(f ln 2) by its Taylor series to degree 6: relative error below 2e-7 here.
    let p = 1.0
        + f * (std::f32::consts::LN_2
            + f * (0.240_226_5
                + f * (0.055_504_11
                    + f * (0.009_618_129 + f * (0.001_333_356 + f * 0.000_154_035_3)))));
    let bits = ((i + 127) as u32) << 23;
    f32::from_bits(bits) * p
}

/// `t.round()` (half away from zero) as an integer, for |t| < 2³¹, without the call into the C
/// library that `f32::round` compiles to on x86-64 processors older than SSE4.1 (the default
/// target): `t − trunc(t)` is exact, so comparing it with ½ rounds exactly as `round` does.
#[inline(always)]
fn round_half_away(t: f32) -> i32 {
    let whole = t as i32; // towards zero
    let fraction = t - whole as f32;
    if fraction >= 0.5 {
        whole + 1
    } else if fraction <= -0.5 {
        whole - 1
    } else {
        whole
    }
}

/// Inverse of the sigmoid, for tests and training diagnostics.
pub fn logit(p: f32) -> f32 {
    (p / (1.0 - p)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f32 {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((*seed >> 40) as f32) / (1u64 << 24) as f32
    }

    #[test]
    fn sigmoid_is_accurate() {
        let mut x = -30.0f32;
        while x < 30.0 {
            let exact = 1.0 / (1.0 + (-f64::from(x)).exp());
            assert!((f64::from(sigmoid(x)) - exact).abs() < 2e-7, "{x}");
            x += 0.013;
        }
        assert_eq!(sigmoid(-1000.0), sigmoid(-87.0));
        assert!(sigmoid(1000.0) <= 1.0);
    }

    #[test]
    fn rounding_is_f32_round() {
        let mut values: Vec<f32> = (-2_600_000..2_600_000)
            .map(|k| k as f32 * 0.000_05)
            .collect();
        for k in -130..130 {
            let tie = k as f32 + 0.5;
            values.extend([
                tie,
                f32::from_bits(tie.to_bits() + 1),
                f32::from_bits(tie.to_bits() - 1),
            ]);
        }
        values.extend([0.0, -0.0, 0.499_999_97, -0.499_999_97, 125.5, -125.5]);
        for t in values {
            assert_eq!(round_half_away(t), t.round() as i32, "{t:e}");
        }
    }

    #[test]
    fn forward_matches_naive() {
        let mut seed = 7;
        let net = Net::random(NetClass::Race, 1, 30, 12, 0.5, || lcg(&mut seed));
        let x: Vec<f32> = (0..30)
            .map(|i| {
                if i % 3 == 0 {
                    0.0
                } else {
                    lcg(&mut seed) * 2.0
                }
            })
            .collect();
        let mut h = vec![0.0; 12];
        let mut out = [0.0; OUTPUTS];
        net.forward(&x, &mut h, &mut out);
        let (w1, b1, w2, b2) = net.params();
        for o in 0..OUTPUTS {
            let mut acc = f64::from(b2[o]);
            for k in 0..12 {
                let mut z = f64::from(b1[k]);
                for i in 0..30 {
                    z += f64::from(w1[i * 12 + k]) * f64::from(x[i]);
                }
                acc += f64::from(w2[o * 12 + k]) / (1.0 + (-z).exp());
            }
            let expect = 1.0 / (1.0 + (-acc).exp());
            assert!((f64::from(out[o]) - expect).abs() < 1e-5);
        }
    }

    #[test]
    fn a_widened_net_computes_the_same_function() {
        let mut seed = 3;
        let net = Net::random(NetClass::Contact, 2, 40, 64, 0.3, || lcg(&mut seed));
        assert!(net.widened(63, 0.1, || lcg(&mut seed)).is_none());
        let wide = net.widened(192, 0.1, || lcg(&mut seed)).unwrap();
        assert_eq!(
            (wide.hidden(), wide.inputs(), wide.class()),
            (192, 40, net.class())
        );
        let (w1, b1, w2, _) = wide.params();
        assert!(w1[64..192].iter().any(|&w| w != 0.0) && b1[64..].iter().any(|&b| b != 0.0));
        assert!(w2
            .chunks(192)
            .all(|row| row[64..].iter().all(|&w| w == 0.0)));
        for _ in 0..20 {
            let x: Vec<f32> = (0..40).map(|_| lcg(&mut seed) * 2.0).collect();
            let (mut h, mut h2) = (vec![0.0; 64], vec![0.0; 192]);
            let (mut out, mut out2) = ([0.0; OUTPUTS], [0.0; OUTPUTS]);
            net.forward(&x, &mut h, &mut out);
            wide.forward(&x, &mut h2, &mut out2);
            for o in 0..OUTPUTS {
                assert!((out[o] - out2[o]).abs() < 1e-5, "{out:?} {out2:?}");
            }
            assert!(h.iter().zip(&h2).all(|(a, b)| (a - b).abs() < 1e-6));
        }
    }

    #[test]
    fn file_round_trip_and_corruption() {
        let mut seed = 1;
        let mut net = Net::random(NetClass::Crashed, 3, 20, 8, 0.1, || lcg(&mut seed));
        net.trained = 12345;
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes(&bytes).unwrap(), net);
        assert_eq!(
            Net::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(),
            NetFormatError::WrongLength {
                expected: bytes.len(),
                found: bytes.len() - 1
            }
        );
        assert_eq!(
            Net::from_bytes(&bytes[..10]).unwrap_err(),
            NetFormatError::TooShort(10)
        );
        let mut flipped = bytes.clone();
        flipped[100] ^= 0x40;
        assert_eq!(
            Net::from_bytes(&flipped).unwrap_err(),
            NetFormatError::BadChecksum
        );
        let mut foreign = bytes.clone();
        foreign[0] = b'X';
        assert_eq!(
            Net::from_bytes(&foreign).unwrap_err(),
            NetFormatError::BadMagic
        );
        assert!(Net::from_bytes(b"GIF89a and then some more bytes to be long enough..").is_err());
        let mut big = bytes.clone();
        big[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            Net::from_bytes(&big).unwrap_err(),
            NetFormatError::BadShape { .. }
        ));
    }
}
