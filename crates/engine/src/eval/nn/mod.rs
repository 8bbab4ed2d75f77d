//! Neural nets: a multilayer perceptron with one or two hidden layers of sigmoid units and five
//! sigmoid outputs, and its file format.
//!
//! # File format (versions 1 and 2)
//!
//! All numbers little-endian. Version 1 holds a net of one hidden layer; version 2 one of two
//! (a net of one hidden layer is always written as version 1, so its file is the same as before
//! version 2 existed).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CUBEFUL` followed by byte 0x1A |
//! | 8 | 4 | format version (u32), 1 or 2 |
//! | 12 | 4 | position class (u32): 0 contact, 1 crashed, 2 race |
//! | 16 | 4 | input encoding version (u32), see [`crate::eval::inputs::INPUT_VERSION`] |
//! | 20 | 4 | number of inputs (u32) |
//! | 24 | 4 | number of units of the (first) hidden layer (u32) |
//! | 28 | 4 | version 2 only: number of units of the second hidden layer (u32) |
//! | 28 (v2: 32) | 4 | number of outputs (u32), always 5 |
//! | 32 (v2: 36) | 8 | training counter (u64): positions the net was trained on |
//! | 40 (v2: 44) | 4·(…) | weights (f32): hidden weights input by input (for each input its H outgoing weights), hidden biases; version 2: the second layer's weights unit by unit of the first (for each its S outgoing weights), its biases; then output weights output by output (for each output its incoming weights from the last hidden layer), output biases |
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
/// The format of a net of one hidden layer.
const FORMAT_VERSION: u32 = 1;
/// The format of a net of two hidden layers.
const FORMAT_VERSION_DEEP: u32 = 2;
const HEADER_LEN: usize = 40;
const HEADER_LEN_DEEP: usize = 44;

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
    #[error("the file is {0} bytes long, too short for a net header (40 bytes, 44 for version 2)")]
    TooShort(usize),
    #[error("it is not a Cubeful net file (wrong magic bytes)")]
    BadMagic,
    #[error("it is a net file of format version {0}; this program reads versions 1 and 2")]
    UnsupportedVersion(u32),
    #[error("it names position class {0}, which does not exist")]
    BadClass(u32),
    #[error("it declares {inputs} inputs, {hidden} hidden units ({second} in a second layer) and {outputs} outputs, which is not a usable net")]
    BadShape {
        inputs: u32,
        hidden: u32,
        second: u32,
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

/// A perceptron of one hidden layer, `hidden = σ(b1 + W1·x)`, `out = σ(b2 + W2·hidden)`, or of
/// two, `second = σ(b_mid + W_mid·hidden)`, `out = σ(b2 + W2·second)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    class: NetClass,
    input_version: u32,
    inputs: usize,
    hidden: usize,
    /// Units of the second hidden layer; 0 for a net of one hidden layer.
    second: usize,
    /// Positions the net has been trained on.
    pub trained: u64,
    /// `inputs × hidden`, input-major.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `hidden × second`, first-layer-unit-major; empty without a second layer.
    w_mid: Vec<f32>,
    b_mid: Vec<f32>,
    /// `OUTPUTS × top` (the last hidden layer's units), output-major.
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// A net's parameters, layer by layer, for training code. The second layer's are empty in a net
/// of one hidden layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params<'a> {
    pub w1: &'a [f32],
    pub b1: &'a [f32],
    pub w_mid: &'a [f32],
    pub b_mid: &'a [f32],
    pub w2: &'a [f32],
    pub b2: &'a [f32],
}

impl<'a> Params<'a> {
    /// The six parts in the order of the file (and of training's flat gradients).
    pub fn parts(self) -> [&'a [f32]; 6] {
        [self.w1, self.b1, self.w_mid, self.b_mid, self.w2, self.b2]
    }
}

/// Mutable views of a net's parameters, for training.
pub struct ParamsMut<'a> {
    pub w1: &'a mut [f32],
    pub b1: &'a mut [f32],
    pub w_mid: &'a mut [f32],
    pub b_mid: &'a mut [f32],
    pub w2: &'a mut [f32],
    pub b2: &'a mut [f32],
}

impl<'a> ParamsMut<'a> {
    /// The six parts in the order of [`Params::parts`].
    pub fn parts(self) -> [&'a mut [f32]; 6] {
        [self.w1, self.b1, self.w_mid, self.b_mid, self.w2, self.b2]
    }
}

impl Net {
    /// A net of one hidden layer with small random weights drawn from `uniform(-scale, scale)`
    /// by `next_uniform`, a source of numbers in [0, 1). The caller owns the randomness (and so
    /// its determinism).
    pub fn random(
        class: NetClass,
        input_version: u32,
        inputs: usize,
        hidden: usize,
        scale: f32,
        next_uniform: impl FnMut() -> f32,
    ) -> Net {
        Net::random_deep(class, input_version, inputs, hidden, 0, scale, next_uniform)
    }

    /// A net of two hidden layers (`hidden`, then `second` units; `second` 0: of one) with small
    /// random weights, as [`Net::random`].
    pub fn random_deep(
        class: NetClass,
        input_version: u32,
        inputs: usize,
        hidden: usize,
        second: usize,
        scale: f32,
        mut next_uniform: impl FnMut() -> f32,
    ) -> Net {
        let mut draw = |n: usize| uniform_weights(n, scale, &mut next_uniform);
        assert!(
            second == 0 || hidden <= MAX_DENSE,
            "a first hidden layer of more than {MAX_DENSE} units under a second"
        );
        let top = if second > 0 { second } else { hidden };
        Net {
            class,
            input_version,
            inputs,
            hidden,
            second,
            trained: 0,
            w1: draw(inputs * hidden),
            b1: draw(hidden),
            w_mid: draw(hidden * second),
            b_mid: draw(second),
            w2: draw(OUTPUTS * top),
            b2: draw(OUTPUTS),
        }
    }

    /// The same net with `hidden` units in its first hidden layer (at least as many as it has),
    /// computing the same function: the new units get small random input weights and biases
    /// drawn from `uniform(-scale, scale)` by `next_uniform` (a source of numbers in [0, 1)) and
    /// zero outgoing weights, so training can put them to use without first undoing what the
    /// net knows. `None` if `hidden` is smaller than the net's (or, under a second layer, more
    /// than 4,096).
    pub fn widened(
        &self,
        hidden: usize,
        scale: f32,
        mut next_uniform: impl FnMut() -> f32,
    ) -> Option<Net> {
        if hidden < self.hidden || (self.second > 0 && hidden > MAX_DENSE) {
            return None;
        }
        let old = self.hidden;
        let mut draw = || (next_uniform() * 2.0 - 1.0) * scale;
        let w1 = widen_rows(&self.w1, old, hidden, &mut draw);
        let b1 = widen_rows(&self.b1, old, hidden, &mut draw);
        let (mut w_mid, mut w2) = (self.w_mid.clone(), self.w2.clone());
        if self.second > 0 {
            // The new units' rows of the second layer's weights.
            w_mid.extend(std::iter::repeat_n(0.0, (hidden - old) * self.second));
        } else {
            w2 = widen_rows(&self.w2, old, hidden, || 0.0);
        }
        Some(Net {
            hidden,
            w1,
            b1,
            w_mid,
            w2,
            ..self.clone()
        })
    }

    /// The same net with `second` units in its second hidden layer (at least as many as it
    /// has), computing the same function: the new units get small random weights from the
    /// first layer and biases drawn from `uniform(-scale, scale)` by `next_uniform`, and zero
    /// weights into the outputs, as [`Net::widened`] does for the first layer. `None` if the net
    /// has no second layer or `second` is smaller than its.
    pub fn widened_second(
        &self,
        second: usize,
        scale: f32,
        mut next_uniform: impl FnMut() -> f32,
    ) -> Option<Net> {
        let old = self.second;
        if old == 0 || second < old {
            return None;
        }
        let mut draw = || (next_uniform() * 2.0 - 1.0) * scale;
        Some(Net {
            second,
            w_mid: widen_rows(&self.w_mid, old, second, &mut draw),
            b_mid: widen_rows(&self.b_mid, old, second, &mut draw),
            w2: widen_rows(&self.w2, old, second, || 0.0),
            ..self.clone()
        })
    }

    /// This net's first hidden layer under a new second layer of `second` units and a new
    /// output layer, both drawn from `uniform(-scale, scale)` by `next_uniform`: a start for
    /// training a two-layer net that keeps the features the first layer has learnt (the
    /// function itself is not kept). `None` if the net already has two hidden layers or
    /// `second` is 0.
    pub fn deepened(
        &self,
        second: usize,
        scale: f32,
        mut next_uniform: impl FnMut() -> f32,
    ) -> Option<Net> {
        if self.second > 0 || second == 0 || self.hidden > MAX_DENSE {
            return None;
        }
        let mut draw = |n: usize| uniform_weights(n, scale, &mut next_uniform);
        Some(Net {
            second,
            w_mid: draw(self.hidden * second),
            b_mid: draw(second),
            w2: draw(OUTPUTS * second),
            b2: draw(OUTPUTS),
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

    /// Units of the (first) hidden layer.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Units of the second hidden layer, 0 for a net of one hidden layer.
    pub fn second(&self) -> usize {
        self.second
    }

    /// Units of the last hidden layer, the one the outputs read.
    pub fn top(&self) -> usize {
        if self.second > 0 {
            self.second
        } else {
            self.hidden
        }
    }

    /// The scratch space [`Net::forward`] needs: every hidden layer's units.
    pub fn scratch_len(&self) -> usize {
        self.hidden + self.second
    }

    /// All parameters, for training code.
    pub fn params_mut(&mut self) -> ParamsMut<'_> {
        ParamsMut {
            w1: &mut self.w1,
            b1: &mut self.b1,
            w_mid: &mut self.w_mid,
            b_mid: &mut self.b_mid,
            w2: &mut self.w2,
            b2: &mut self.b2,
        }
    }

    /// All parameters: hidden-layer weights (input-major), hidden biases, the second layer's
    /// weights (first-layer-unit-major) and biases, output weights (output-major), output
    /// biases.
    pub fn params(&self) -> Params<'_> {
        Params {
            w1: &self.w1,
            b1: &self.b1,
            w_mid: &self.w_mid,
            b_mid: &self.b_mid,
            w2: &self.w2,
            b2: &self.b2,
        }
    }

    /// Evaluates the net. `hidden` is scratch space of at least [`Net::scratch_len`] values; on
    /// return it holds the hidden activations, the first layer's then the second's (training
    /// uses them). `x` must have [`Net::inputs`] values.
    ///
    /// On x86-64 processors with AVX2 and FMA the pass runs with eight floats per operation:
    /// for hidden layers of a multiple of 64 units the register-blocked pass of
    /// `blocked` (the usual nets), otherwise the same code as the portable pass
    /// compiled for those instructions. The choice is made at run time; the results are the
    /// same bit for bit whichever runs.
    #[inline]
    pub fn forward(&self, x: &[f32], hidden: &mut [f32], out: &mut [f32; OUTPUTS]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                if self.hidden.is_multiple_of(blocked::BLOCK)
                    && self.second.is_multiple_of(blocked::BLOCK)
                    && self.inputs <= blocked::MAX_INPUTS
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

    /// The first hidden layer's activations for sparse inputs: `hidden[u] = σ(b1[u] + Σ
    /// w1[index[n]][u] · value[n])`, the sum formed input by input in the order given (the
    /// indices must increase, as a dense input vector's non-zero entries do), exactly as
    /// [`Net::forward`] forms it for the same inputs. For callers that know their non-zero
    /// inputs without a dense vector (the pruning nets), who then ask [`Net::upper_layers`] for
    /// the outputs. `hidden` must hold at least [`Net::hidden`] values.
    ///
    /// # Panics
    /// If `index` and `value` differ in length or an index is not an input of the net.
    pub fn hidden_sparse(&self, index: &[u16], value: &[f32], hidden: &mut [f32]) {
        assert_eq!(index.len(), value.len());
        assert!(index.iter().all(|&i| usize::from(i) < self.inputs));
        dense_layer(&self.w1, &self.b1, self.hidden, index, value, hidden);
    }

    /// The outputs from the first hidden layer's activations, `hidden[..Net::hidden]`, as
    /// [`Net::forward`] computes them: through the second hidden layer, if the net has one
    /// (its activations left in `hidden[Net::hidden..Net::scratch_len]`), then `σ(b2 +
    /// dot(row, top))`. `hidden` must hold at least [`Net::scratch_len`] values.
    pub fn upper_layers(&self, hidden: &mut [f32]) -> [f32; OUTPUTS] {
        let (first, rest) = hidden.split_at_mut(self.hidden);
        if self.second == 0 {
            return self.output_layer(first);
        }
        let rest = &mut rest[..self.second];
        self.second_layer(first, rest);
        self.output_layer(rest)
    }

    /// The second hidden layer from the first's activations `first`: every unit of the first
    /// adds its row, in order, as the first layer adds the rows of its inputs.
    fn second_layer(&self, first: &[f32], second: &mut [f32]) {
        // Every net with a second layer has at most MAX_DENSE first-layer units (checked when
        // it is read or made).
        dense_layer(
            &self.w_mid,
            &self.b_mid,
            self.second,
            &DENSE_INDEX[..self.hidden],
            &first[..self.hidden],
            second,
        );
    }

    /// The five outputs for the last hidden layer's activations `top` ([`Net::top`] values),
    /// as [`Net::forward`] computes them: `σ(b2 + dot(row, top))`.
    pub fn output_layer(&self, top: &[f32]) -> [f32; OUTPUTS] {
        let n = self.top();
        #[cfg(target_arch = "x86_64")]
        {
            if n.is_multiple_of(8) && std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available (checked just above); `output_layer` asserts the
                // shapes itself.
                return unsafe { blocked::output_layer(&self.w2, &self.b2, n, top) };
            }
        }
        self.output_layer_portable(top)
    }

    /// [`Net::output_layer`] without vector instructions: the reference the AVX2 pass matches
    /// bit for bit (the tests compare them).
    fn output_layer_portable(&self, top: &[f32]) -> [f32; OUTPUTS] {
        let n = self.top();
        let h = &top[..n];
        let mut out = [0.0f32; OUTPUTS];
        for (o, out_o) in out.iter_mut().enumerate() {
            let row = &self.w2[o * n..(o + 1) * n];
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
                add_row(h, &self.w1[i * self.hidden..(i + 1) * self.hidden], xi);
            }
        }
        for a in h.iter_mut() {
            *a = sigmoid(*a);
        }
        if self.second == 0 {
            *out = self.output_layer_portable(h);
            return;
        }
        let (first, rest) = hidden.split_at_mut(self.hidden);
        let top = &mut rest[..self.second];
        top.copy_from_slice(&self.b_mid);
        for (k, &a) in first.iter().enumerate() {
            add_row(top, &self.w_mid[k * self.second..(k + 1) * self.second], a);
        }
        for a in top.iter_mut() {
            *a = sigmoid(*a);
        }
        *out = self.output_layer_portable(top);
    }

    fn header_len(&self) -> usize {
        if self.second > 0 {
            HEADER_LEN_DEEP
        } else {
            HEADER_LEN
        }
    }

    /// The bytes of the net file (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.header_len() + 4 * self.parameter_count() + 4);
        b.extend_from_slice(MAGIC);
        let mut fields = vec![
            if self.second > 0 {
                FORMAT_VERSION_DEEP
            } else {
                FORMAT_VERSION
            },
            self.class.code(),
            self.input_version,
            self.inputs as u32,
            self.hidden as u32,
        ];
        if self.second > 0 {
            fields.push(self.second as u32);
        }
        fields.push(OUTPUTS as u32);
        for v in fields {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.trained.to_le_bytes());
        for part in self.params().parts() {
            for w in part {
                b.extend_from_slice(&w.to_le_bytes());
            }
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
        let header = match version {
            FORMAT_VERSION => HEADER_LEN,
            FORMAT_VERSION_DEEP => HEADER_LEN_DEEP,
            _ => return Err(NetFormatError::UnsupportedVersion(version)),
        };
        if bytes.len() < header {
            return Err(NetFormatError::TooShort(bytes.len()));
        }
        let class = NetClass::from_code(u32_at(12)).ok_or(NetFormatError::BadClass(u32_at(12)))?;
        let input_version = u32_at(16);
        let (inputs, hidden) = (u32_at(20), u32_at(24));
        let (second, outputs) = if version == FORMAT_VERSION_DEEP {
            (u32_at(28), u32_at(32))
        } else {
            (0, u32_at(28))
        };
        if inputs == 0
            || hidden == 0
            || outputs as usize != OUTPUTS
            || inputs > 100_000
            || hidden > 100_000
            || (version == FORMAT_VERSION_DEEP && (second == 0 || hidden as usize > MAX_DENSE))
            || second > 100_000
        {
            return Err(NetFormatError::BadShape {
                inputs,
                hidden,
                second,
                outputs,
            });
        }
        let (inputs, hidden, second) = (inputs as usize, hidden as usize, second as usize);
        let top = if second > 0 { second } else { hidden };
        let count = inputs * hidden + hidden + hidden * second + second + OUTPUTS * top + OUTPUTS;
        let expected = header + 4 * count + 4;
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
        let trained = u64::from_le_bytes(bytes[header - 8..header].try_into().expect("8 bytes"));
        let mut floats = body[header..]
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
            second,
            trained,
            w1: take(inputs * hidden)?,
            b1: take(hidden)?,
            w_mid: take(hidden * second)?,
            b_mid: take(second)?,
            w2: take(OUTPUTS * top)?,
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
        self.params().parts().iter().map(|p| p.len()).sum()
    }
}

/// `n` weights drawn from `uniform(-scale, scale)` by `next_uniform`, a source of numbers in
/// [0, 1).
/// `matrix`, rows of `old` values, with `new − old` values from `fill` added to the end of each
/// row: a layer's weights (or biases, one row) for `new` units where it had `old`.
fn widen_rows(matrix: &[f32], old: usize, new: usize, mut fill: impl FnMut() -> f32) -> Vec<f32> {
    let mut out = Vec::with_capacity(matrix.len() / old * new);
    for row in matrix.chunks_exact(old) {
        out.extend_from_slice(row);
        out.extend((old..new).map(|_| fill()));
    }
    out
}

fn uniform_weights(n: usize, scale: f32, next_uniform: &mut impl FnMut() -> f32) -> Vec<f32> {
    (0..n)
        .map(|_| (next_uniform() * 2.0 - 1.0) * scale)
        .collect()
}

/// Most units of a first hidden layer under a second.
const MAX_DENSE: usize = 4096;

/// The indices 0, 1, 2, …: the first hidden layer's units as the inputs of the second.
static DENSE_INDEX: [u16; MAX_DENSE] = {
    let mut index = [0u16; MAX_DENSE];
    let mut k = 0;
    while k < MAX_DENSE {
        index[k] = k as u16;
        k += 1;
    }
    index
};

/// `row · x` added to `acc`, a value of 1 added without multiplying (as the blocked pass does;
/// the two give the same sums, since multiplying by 1 is exact).
#[inline(always)]
fn add_row(acc: &mut [f32], row: &[f32], x: f32) {
    if x == 1.0 {
        for (a, &w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    } else {
        for (a, &w) in acc.iter_mut().zip(row) {
            *a += w * x;
        }
    }
}

/// A layer of `n` sigmoid units over sparse inputs: `out[u] = σ(b[u] + Σ w[index[k]][u] ·
/// value[k])`, `w` input-major, the sum formed input by input in the order given; with AVX2
/// in registers a block of units at a time, bit for bit the same. The indices must be rows of
/// `w` (callers check).
fn dense_layer(w: &[f32], b: &[f32], n: usize, index: &[u16], value: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY (all three): AVX2 is available (checked just above) and the indices are
            // rows of `w` (the callers' contract); `hidden_layer` asserts the block size and
            // the slice lengths itself.
            if n.is_multiple_of(64) {
                unsafe { blocked::hidden_layer::<8>(w, b, n, index, value, out) };
                return;
            } else if n.is_multiple_of(32) {
                unsafe { blocked::hidden_layer::<4>(w, b, n, index, value, out) };
                return;
            } else if n.is_multiple_of(16) {
                unsafe { blocked::hidden_layer::<2>(w, b, n, index, value, out) };
                return;
            }
        }
    }
    let h = &mut out[..n];
    h.copy_from_slice(&b[..n]);
    for (&i, &xi) in index.iter().zip(value) {
        add_row(h, &w[usize::from(i) * n..(usize::from(i) + 1) * n], xi);
    }
    for a in h.iter_mut() {
        *a = sigmoid(*a);
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
        let Params { w1, b1, w2, b2, .. } = net.params();
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
        let Params { w1, b1, w2, .. } = wide.params();
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

    /// A two-layer net's outputs computed in f64 from its parameters.
    fn naive_deep(net: &Net, x: &[f32]) -> [f64; OUTPUTS] {
        let (nh, ns) = (net.hidden(), net.second());
        let Params {
            w1,
            b1,
            w_mid,
            b_mid,
            w2,
            b2,
        } = net.params();
        let s = |z: f64| 1.0 / (1.0 + (-z).exp());
        let first: Vec<f64> = (0..nh)
            .map(|k| {
                s(f64::from(b1[k])
                    + (0..net.inputs())
                        .map(|i| f64::from(w1[i * nh + k]) * f64::from(x[i]))
                        .sum::<f64>())
            })
            .collect();
        let second: Vec<f64> = (0..ns)
            .map(|j| {
                s(f64::from(b_mid[j])
                    + (0..nh)
                        .map(|k| f64::from(w_mid[k * ns + j]) * first[k])
                        .sum::<f64>())
            })
            .collect();
        std::array::from_fn(|o| {
            s(f64::from(b2[o])
                + (0..ns)
                    .map(|j| f64::from(w2[o * ns + j]) * second[j])
                    .sum::<f64>())
        })
    }

    #[test]
    fn a_two_layer_net_computes_its_formula() {
        let mut seed = 11;
        // Shapes for the blocked pass (multiples of 64), the portable one, and a mix.
        for (inputs, hidden, second) in [(250, 128, 64), (30, 12, 5), (40, 64, 24)] {
            let net = Net::random_deep(NetClass::Contact, 1, inputs, hidden, second, 0.5, || {
                lcg(&mut seed)
            });
            assert_eq!(
                (net.hidden(), net.second(), net.top(), net.scratch_len()),
                (hidden, second, second, hidden + second)
            );
            for _ in 0..20 {
                let x: Vec<f32> = (0..inputs)
                    .map(|i| if i % 3 == 0 { 0.0 } else { lcg(&mut seed) })
                    .collect();
                let mut h = vec![0.0; net.scratch_len()];
                let mut out = [0.0; OUTPUTS];
                net.forward(&x, &mut h, &mut out);
                let want = naive_deep(&net, &x);
                for o in 0..OUTPUTS {
                    assert!(
                        (f64::from(out[o]) - want[o]).abs() < 1e-5,
                        "{out:?} {want:?}"
                    );
                }
                // The sparse first layer and the upper layers give the same, bit for bit.
                let (index, value): (Vec<u16>, Vec<f32>) = x
                    .iter()
                    .enumerate()
                    .filter(|(_, &v)| v != 0.0)
                    .map(|(i, &v)| (i as u16, v))
                    .unzip();
                let mut h2 = vec![0.0; net.scratch_len()];
                net.hidden_sparse(&index, &value, &mut h2);
                let out2 = net.upper_layers(&mut h2);
                assert_eq!(out.map(f32::to_bits), out2.map(f32::to_bits));
                assert_eq!(
                    h.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    h2.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn a_widened_two_layer_net_computes_the_same_function() {
        let mut seed = 5;
        let net = Net::random_deep(NetClass::Crashed, 1, 40, 64, 32, 0.3, || lcg(&mut seed));
        let wide = net.widened(128, 0.1, || lcg(&mut seed)).unwrap();
        assert_eq!((wide.hidden(), wide.second()), (128, 32));
        for _ in 0..20 {
            let x: Vec<f32> = (0..40).map(|_| lcg(&mut seed)).collect();
            let (mut h, mut h2) = (vec![0.0; 96], vec![0.0; 160]);
            let (mut out, mut out2) = ([0.0; OUTPUTS], [0.0; OUTPUTS]);
            net.forward(&x, &mut h, &mut out);
            wide.forward(&x, &mut h2, &mut out2);
            for o in 0..OUTPUTS {
                assert!((out[o] - out2[o]).abs() < 1e-5, "{out:?} {out2:?}");
            }
        }
    }

    #[test]
    fn a_net_with_a_widened_second_layer_computes_the_same_function() {
        let mut seed = 7;
        let one = Net::random(NetClass::Contact, 1, 40, 64, 0.3, || lcg(&mut seed));
        assert!(one.widened_second(64, 0.1, || lcg(&mut seed)).is_none());
        // The blocked pass (multiples of 64) and the portable one (24 units) both.
        for second in [64, 24] {
            let net = Net::random_deep(NetClass::Contact, 1, 40, 128, second, 0.3, || {
                lcg(&mut seed)
            });
            assert!(net
                .widened_second(second - 1, 0.1, || lcg(&mut seed))
                .is_none());
            let wide = net
                .widened_second(2 * second, 0.1, || lcg(&mut seed))
                .unwrap();
            assert_eq!((wide.hidden(), wide.second()), (128, 2 * second));
            let Params {
                w_mid, b_mid, w2, ..
            } = wide.params();
            assert!(w_mid
                .chunks(2 * second)
                .all(|row| row[second..].iter().any(|&w| w != 0.0)));
            assert!(b_mid[second..].iter().any(|&b| b != 0.0));
            assert!(w2
                .chunks(2 * second)
                .all(|row| row[second..].iter().all(|&w| w == 0.0)));
            for _ in 0..20 {
                let x: Vec<f32> = (0..40).map(|_| lcg(&mut seed)).collect();
                let (mut h, mut h2) = (vec![0.0; net.scratch_len()], vec![0.0; wide.scratch_len()]);
                let (mut out, mut out2) = ([0.0; OUTPUTS], [0.0; OUTPUTS]);
                net.forward(&x, &mut h, &mut out);
                wide.forward(&x, &mut h2, &mut out2);
                for o in 0..OUTPUTS {
                    assert!((out[o] - out2[o]).abs() < 1e-5, "{out:?} {out2:?}");
                }
            }
        }
    }

    #[test]
    fn a_deepened_net_keeps_its_first_layer() {
        let mut seed = 9;
        let net = Net::random(NetClass::Contact, 1, 30, 16, 0.3, || lcg(&mut seed));
        assert!(net.deepened(0, 0.1, || lcg(&mut seed)).is_none());
        let deep = net.deepened(8, 0.1, || lcg(&mut seed)).unwrap();
        assert_eq!((deep.hidden(), deep.second(), deep.top()), (16, 8, 8));
        assert_eq!(deep.params().w1, net.params().w1);
        assert_eq!(deep.params().b1, net.params().b1);
        assert_eq!(deep.params().w2.len(), OUTPUTS * 8);
        assert!(deep.deepened(8, 0.1, || lcg(&mut seed)).is_none());
        assert_eq!(
            deep.parameter_count(),
            30 * 16 + 16 + 16 * 8 + 8 + 5 * 8 + 5
        );
    }

    #[test]
    fn two_layer_files_round_trip_and_one_layer_files_stay_version_1() {
        let mut seed = 2;
        let mut net = Net::random_deep(NetClass::Race, 3, 20, 8, 4, 0.1, || lcg(&mut seed));
        net.trained = 777;
        let bytes = net.to_bytes();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);
        assert_eq!(bytes.len(), 44 + 4 * net.parameter_count() + 4);
        assert_eq!(Net::from_bytes(&bytes).unwrap(), net);
        let flat = Net::random(NetClass::Race, 3, 20, 8, 0.1, || lcg(&mut seed));
        let flat_bytes = flat.to_bytes();
        assert_eq!(u32::from_le_bytes(flat_bytes[8..12].try_into().unwrap()), 1);
        assert_eq!(flat_bytes.len(), 40 + 4 * flat.parameter_count() + 4);
        // A version 2 header that declares no second layer is refused, whatever follows.
        let mut no_second = bytes.clone();
        no_second[28..32].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(
            Net::from_bytes(&no_second).unwrap_err(),
            NetFormatError::BadShape { second: 0, .. }
        ));
        assert_eq!(
            Net::from_bytes(&bytes[..42]).unwrap_err(),
            NetFormatError::TooShort(42)
        );
        assert!(matches!(
            Net::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err(),
            NetFormatError::WrongLength { .. }
        ));
    }
}
