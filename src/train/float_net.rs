//! The float network the trainer fits: the same shape as the engine's quantised
//! [`Network`], with its forward and backward passes and its quantisation.
//!
//! All parameters live in one flat vector (feature weights input-major, feature
//! biases, output weights per bucket — side to move's half, then the other's —, output
//! biases), so that gradients, the optimiser and checkpoints treat them alike.

use crate::nnue::features::FeatureList;
use crate::nnue::network::{bucket_of, Row, MAX_OUTPUT_WEIGHT};
use crate::nnue::{Activation, Network, HIDDEN, INPUTS, QA, QB, WEIGHT_CLIP};

const H: usize = HIDDEN;

/// Offsets of the parameter groups in the flat vector.
pub const FT_W: usize = 0;
pub const FT_B: usize = INPUTS * H;
pub const OUT_W: usize = FT_B + H;

/// Number of parameters with `buckets` output buckets.
pub fn param_count(buckets: usize) -> usize {
    OUT_W + buckets * 2 * H + buckets
}

/// Offset of the output biases.
pub fn out_b(buckets: usize) -> usize {
    OUT_W + buckets * 2 * H
}

#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub params: Vec<f32>,
    pub buckets: usize,
    pub activation: Activation,
    /// Centipawns per unit of output (the sigmoid scale K of the training target).
    pub scale: f32,
}

/// One position's inputs: the side to move's features, the other side's, the bucket.
#[derive(Clone, Copy, Debug)]
pub struct Inputs {
    pub us: FeatureList,
    pub them: FeatureList,
    pub bucket: usize,
}

impl Inputs {
    /// The inputs of a position, optionally mirrored left to right.
    pub fn of(pos: &crate::board::Position, buckets: usize) -> Inputs {
        let squares = crate::nnue::features::squares_of(pos);
        Inputs::from_squares(&squares, pos.side_to_move(), buckets)
    }

    pub fn from_squares(
        squares: &[[Option<crate::board::Square>; 8]; 2],
        side: crate::board::Color,
        buckets: usize,
    ) -> Inputs {
        let [red, blue] = crate::nnue::features::active(squares);
        let animals = squares.iter().flatten().filter(|s| s.is_some()).count() as u32;
        let (us, them) = match side {
            crate::board::Color::Red => (red, blue),
            crate::board::Color::Blue => (blue, red),
        };
        Inputs {
            us,
            them,
            bucket: bucket_of(animals, buckets),
        }
    }
}

/// What the forward pass keeps for the backward pass.
pub struct Forward {
    pub acc: [[f32; H]; 2],
    pub output: f32,
}

#[inline]
fn activate(activation: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::SCReLU => c * c,
        Activation::CReLU => c,
    }
}

#[inline]
fn activate_derivative(activation: Activation, x: f32) -> f32 {
    if x <= 0.0 || x >= 1.0 {
        return 0.0;
    }
    match activation {
        Activation::SCReLU => 2.0 * x,
        Activation::CReLU => 1.0,
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl FloatNetwork {
    /// Random initial weights (uniform in ±1/√fan-in), reproducible from `seed`.
    pub fn new(seed: u64, buckets: usize, activation: Activation, scale: f32) -> FloatNetwork {
        let mut rng = crate::rng::Rng::new(seed ^ 0x5eed_f00d);
        let n = param_count(buckets);
        let mut params = vec![0.0f32; n];
        let ft = 1.0 / (INPUTS as f32).sqrt();
        let out = 1.0 / ((2 * H) as f32).sqrt();
        for (i, p) in params.iter_mut().enumerate() {
            let bound = if i < FT_B {
                ft
            } else if (OUT_W..out_b(buckets)).contains(&i) {
                out
            } else {
                0.0
            };
            *p = (rng.unit_f32() * 2.0 - 1.0) * bound;
        }
        FloatNetwork {
            params,
            buckets,
            activation,
            scale,
        }
    }

    #[inline]
    fn row(&self, feature: u16) -> &[f32] {
        let at = FT_W + feature as usize * H;
        &self.params[at..at + H]
    }

    /// The forward pass: accumulators (before activation) and the output in units of
    /// the scale (the training prediction is its sigmoid).
    pub fn forward(&self, x: &Inputs) -> Forward {
        let mut acc = [[0.0f32; H]; 2];
        for (side, list) in [x.us, x.them].iter().enumerate() {
            let a = &mut acc[side];
            a.copy_from_slice(&self.params[FT_B..FT_B + H]);
            for &f in list.as_slice() {
                for (v, w) in a.iter_mut().zip(self.row(f)) {
                    *v += w;
                }
            }
        }
        let w = &self.params[OUT_W + x.bucket * 2 * H..OUT_W + (x.bucket + 1) * 2 * H];
        let mut output = self.params[out_b(self.buckets) + x.bucket];
        for side in 0..2 {
            let mut sum = 0.0f32;
            for (a, w) in acc[side].iter().zip(&w[side * H..(side + 1) * H]) {
                sum += activate(self.activation, *a) * w;
            }
            output += sum;
        }
        Forward { acc, output }
    }

    /// The score in centipawns for the side to move (float, unclamped).
    pub fn evaluate(&self, pos: &crate::board::Position) -> f32 {
        self.forward(&Inputs::of(pos, self.buckets)).output * self.scale
    }

    /// Adds to `grad` the gradient of the loss for one sample whose derivative with
    /// respect to the output is `d_output`.
    pub fn backward(&self, x: &Inputs, fwd: &Forward, d_output: f32, grad: &mut [f32]) {
        let ob = OUT_W + x.bucket * 2 * H;
        grad[out_b(self.buckets) + x.bucket] += d_output;
        let mut d_acc = [[0.0f32; H]; 2];
        for side in 0..2 {
            let w = &self.params[ob + side * H..ob + (side + 1) * H];
            let gw = &mut grad[ob + side * H..ob + (side + 1) * H];
            for j in 0..H {
                let a = fwd.acc[side][j];
                gw[j] += d_output * activate(self.activation, a);
                d_acc[side][j] = d_output * w[j] * activate_derivative(self.activation, a);
            }
        }
        for (j, g) in grad[FT_B..FT_B + H].iter_mut().enumerate() {
            *g += d_acc[0][j] + d_acc[1][j];
        }
        for (side, list) in [x.us, x.them].iter().enumerate() {
            for &f in list.as_slice() {
                let at = FT_W + f as usize * H;
                for (g, d) in grad[at..at + H].iter_mut().zip(&d_acc[side]) {
                    *g += d;
                }
            }
        }
    }

    /// Keeps every weight (not the output biases) within ±`WEIGHT_CLIP`, so that the
    /// quantised network's sums provably fit (see `Network::validate`).
    pub fn clip(&mut self) {
        let end = out_b(self.buckets);
        for p in &mut self.params[..end] {
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The engine's network: feature weights and biases times QA, output weights times
    /// QB, output biases times QA·QB, rounded.
    pub fn quantise(&self, description: &str) -> Network {
        let q = |x: f32, s: i32, lim: i32| (x * s as f32).round().clamp(-lim as f32, lim as f32);
        let ft_lim = (WEIGHT_CLIP * QA as f32).round() as i32;
        let row = |at: usize, s: i32, lim: i32| {
            let mut r = Row::ZERO;
            for (j, v) in r.0.iter_mut().enumerate() {
                *v = q(self.params[at + j], s, lim) as i16;
            }
            r
        };
        let ob = out_b(self.buckets);
        let lim_out = i32::from(MAX_OUTPUT_WEIGHT);
        Network {
            ft_weights: (0..INPUTS).map(|f| row(FT_W + f * H, QA, ft_lim)).collect(),
            ft_bias: row(FT_B, QA, ft_lim),
            out_weights: (0..self.buckets)
                .map(|b| {
                    let at = OUT_W + b * 2 * H;
                    [row(at, QB, lim_out), row(at + H, QB, lim_out)]
                })
                .collect(),
            out_bias: (0..self.buckets)
                .map(|b| (self.params[ob + b] * (QA * QB) as f32).round() as i32)
                .collect(),
            activation: self.activation,
            scale: self.scale.round() as i32,
            description: description.to_string(),
        }
    }
}
