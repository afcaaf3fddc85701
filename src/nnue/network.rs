//! The quantised network and its output layer.

use super::accumulator::Accumulator;
use super::{HIDDEN, INPUTS, QA, QB};
use crate::board::{Color, Position};
use crate::eval::EVAL_LIMIT;

/// One row of `HIDDEN` values, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

impl Row {
    pub const ZERO: Row = Row([0; HIDDEN]);
}

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    CReLU = 0,
    /// `clamp(x, 0, 1)²`.
    SCReLU = 1,
}

impl Activation {
    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }

    pub fn from_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }
}

/// Sums of the output layer are kept in this many `i32` lanes (a vector's worth), each
/// summing `2 * HIDDEN / LANES` products; see `screlu_dot` for why they cannot overflow.
const LANES: usize = 16;
const _: () = assert!(HIDDEN % LANES == 0);
/// Largest |output weight| a file may hold: `WEIGHT_CLIP · QB` rounded, and small
/// enough that `QA · w` fits an `i16`.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
const _: () = assert!(QA * MAX_OUTPUT_WEIGHT as i32 <= i16::MAX as i32);

/// A quantised network, ready for the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Feature transformer: one row per input (`INPUTS` rows), in units of 1/QA.
    pub(crate) ft_weights: Vec<Row>,
    pub(crate) ft_bias: Row,
    /// Per bucket: weights of the side to move's activations, then the other side's,
    /// in units of 1/QB.
    pub(crate) out_weights: Vec<[Row; 2]>,
    /// Per bucket, in units of 1/(QA·QB).
    pub(crate) out_bias: Vec<i32>,
    pub(crate) activation: Activation,
    /// Centipawns per unit of output (the trainer's sigmoid scale K).
    pub(crate) scale: i32,
    /// Free text: how the network was made.
    pub(crate) description: String,
}

impl Network {
    /// A network whose every weight is zero (it scores every position 0).
    pub fn zeros(buckets: usize, activation: Activation, scale: i32) -> Network {
        Network {
            ft_weights: vec![Row::ZERO; INPUTS],
            ft_bias: Row::ZERO,
            out_weights: vec![[Row::ZERO; 2]; buckets.max(1)],
            out_bias: vec![0; buckets.max(1)],
            activation,
            scale,
            description: String::new(),
        }
    }

    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    pub fn activation(&self) -> Activation {
        self.activation
    }

    pub fn scale(&self) -> i32 {
        self.scale
    }

    pub fn description(&self) -> &str {
        &self.description
    }

    /// One line naming the architecture, e.g. `(1008 -> 256)x2 screlu -> 1 x8 buckets`.
    pub fn architecture(&self) -> String {
        format!(
            "({INPUTS} -> {HIDDEN})x2 {} -> 1 x{} buckets, QA {QA} QB {QB}, scale {}",
            self.activation.name(),
            self.buckets(),
            self.scale
        )
    }

    /// The output bucket for `animals` animals on the board (1..=16): the range is cut
    /// into `buckets` equal parts.
    #[inline]
    pub fn bucket(&self, animals: u32) -> usize {
        bucket_of(animals, self.buckets())
    }

    /// The score in centipawns for the side to move, from an up-to-date accumulator.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color, animals: u32) -> i32 {
        let b = self.bucket(animals);
        let (us, them) = (&acc.0[side.index()], &acc.0[side.other().index()]);
        let w = &self.out_weights[b];
        // Both sums are in units of 1/(QA·QB) once SCReLU's extra QA is divided out.
        let sum = match self.activation {
            Activation::SCReLU => screlu_dot(us, them, w) / i64::from(QA),
            Activation::CReLU => crelu_dot(us, them, w),
        };
        let out = (sum + i64::from(self.out_bias[b])) * i64::from(self.scale) / i64::from(QA * QB);
        out.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// The score of a position from scratch (a full refresh, then `evaluate`).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let acc = Accumulator::refresh(self, pos);
        self.evaluate(&acc, pos.side_to_move(), pos.all_occupied().count())
    }

    /// The output before the scale, in units of 1/(QA·QB), of a position given by its
    /// active inputs (side to move's, other side's): for calibration in the trainer.
    pub fn raw_output(&self, us: &[u16], them: &[u16]) -> i64 {
        let acc = self.accumulate(us, them);
        let b = self.bucket(us.len() as u32);
        let w = &self.out_weights[b];
        let sum = match self.activation {
            Activation::SCReLU => screlu_dot(&acc.0[0], &acc.0[1], w) / i64::from(QA),
            Activation::CReLU => crelu_dot(&acc.0[0], &acc.0[1], w),
        };
        sum + i64::from(self.out_bias[b])
    }

    /// The accumulator `[us, them]` of the given inputs.
    fn accumulate(&self, us: &[u16], them: &[u16]) -> Accumulator {
        let mut acc = Accumulator([self.ft_bias; 2]);
        for (row, list) in acc.0.iter_mut().zip([us, them]) {
            for &f in list {
                for (a, w) in row.0.iter_mut().zip(&self.ft_weights[f as usize].0) {
                    *a = a.wrapping_add(*w);
                }
            }
        }
        acc
    }

    /// The score of a position given by its active inputs: the side to move's and the
    /// other side's (for the trainer's checks; the search uses `evaluate`).
    pub fn evaluate_inputs(&self, us: &[u16], them: &[u16]) -> i32 {
        let acc = self.accumulate(us, them);
        self.evaluate(&acc, Color::Red, us.len() as u32)
    }

    /// Checks that no sum can overflow: every accumulator (bias plus at most 16 rows)
    /// fits an `i16`, and every output weight is within ±`MAX_OUTPUT_WEIGHT`. On
    /// failure, names the part that is out of range.
    pub(crate) fn validate(&self) -> Result<(), &'static str> {
        for j in 0..HIDDEN {
            let widest = self
                .ft_weights
                .iter()
                .map(|r| i32::from(r.0[j]).abs())
                .max()
                .unwrap_or(0);
            if i32::from(self.ft_bias.0[j]).abs() + 16 * widest > i32::from(i16::MAX) {
                return Err("feature weights (an accumulator could overflow)");
            }
        }
        let too_big = |r: &Row| r.0.iter().any(|&w| w.abs() > MAX_OUTPUT_WEIGHT);
        if self.out_weights.iter().flatten().any(too_big) {
            return Err("output weights (beyond the quantised range)");
        }
        Ok(())
    }
}

/// The output bucket for `animals` on the board with `buckets` buckets.
#[inline]
pub fn bucket_of(animals: u32, buckets: usize) -> usize {
    ((animals.clamp(1, 16) as usize - 1) * buckets / 16).min(buckets - 1)
}

/// Σ clamp(a, 0, QA)² · w over both halves, in units of 1/(QA²·QB).
///
/// `v · w` with `v ≤ QA = 255` and `|w| ≤ 127` fits an `i16` (≤ 32385), and
/// `(v·w) · v ≤ 8.3M` an `i32`; each of the `LANES` lanes adds `2·HIDDEN/LANES` (32
/// for 256) such terms, at most 2.7·10⁸, well inside an `i32`. The lanes are added in
/// `i64`. The fixed-size chunks let LLVM keep the lanes in vector registers.
#[inline]
fn screlu_dot(us: &Row, them: &Row, w: &[Row; 2]) -> i64 {
    let mut lanes = [0i32; LANES];
    for (acc, wr) in [(us, &w[0]), (them, &w[1])] {
        for (a, w) in acc.0.chunks_exact(LANES).zip(wr.0.chunks_exact(LANES)) {
            for i in 0..LANES {
                let v = a[i].clamp(0, QA as i16);
                let vw = v.wrapping_mul(w[i]);
                lanes[i] = lanes[i].wrapping_add(i32::from(vw) * i32::from(v));
            }
        }
    }
    lanes.iter().map(|&x| i64::from(x)).sum()
}

/// Σ clamp(a, 0, QA) · w over both halves, in units of 1/(QA·QB) (each term at most
/// 255 · 127, so an `i32` lane holds them).
#[inline]
fn crelu_dot(us: &Row, them: &Row, w: &[Row; 2]) -> i64 {
    let mut lanes = [0i32; LANES];
    for (acc, wr) in [(us, &w[0]), (them, &w[1])] {
        for (a, w) in acc.0.chunks_exact(LANES).zip(wr.0.chunks_exact(LANES)) {
            for i in 0..LANES {
                let v = a[i].clamp(0, QA as i16);
                lanes[i] = lanes[i].wrapping_add(i32::from(v) * i32::from(w[i]));
            }
        }
    }
    lanes.iter().map(|&x| i64::from(x)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_split_the_animal_count_evenly() {
        assert_eq!(bucket_of(16, 8), 7);
        assert_eq!(bucket_of(15, 8), 7);
        assert_eq!(bucket_of(2, 8), 0);
        assert_eq!(bucket_of(3, 8), 1);
        assert_eq!(bucket_of(0, 8), 0);
        for n in 0..=20 {
            assert_eq!(bucket_of(n, 1), 0);
        }
    }

    /// A network whose output is exactly known: one hidden unit, bias 1.0.
    #[test]
    fn output_follows_the_quantisation() {
        for activation in [Activation::SCReLU, Activation::CReLU] {
            let mut net = Network::zeros(1, activation, 400);
            net.ft_bias.0[0] = QA as i16 / 2; // 0.5 (127/255)
            net.out_weights[0][0].0[0] = QB as i16; // 1.0
            net.out_bias[0] = QA * QB / 4; // 0.25
            let cp = net.evaluate_position(&Position::startpos());
            let a = 127.0 / 255.0f64;
            let act = match activation {
                Activation::SCReLU => a * a,
                Activation::CReLU => a,
            };
            let expected = ((act + 0.25) * 400.0) as i32;
            assert!(
                (cp - expected).abs() <= 1,
                "{activation:?}: {cp} vs {expected}"
            );
        }
    }

    #[test]
    fn extreme_weights_do_not_overflow() {
        // Every accumulator at QA and every weight at the limit: the largest sum.
        let mut net = Network::zeros(1, Activation::SCReLU, 400);
        net.ft_bias = Row([QA as i16; HIDDEN]);
        net.out_weights[0] = [Row([MAX_OUTPUT_WEIGHT; HIDDEN]); 2];
        let acc = Accumulator::refresh(&net, &Position::startpos());
        assert_eq!(
            screlu_dot(&acc.0[0], &acc.0[1], &net.out_weights[0]),
            2 * HIDDEN as i64 * 255 * 255 * 127
        );
        assert_eq!(net.evaluate(&acc, Color::Red, 16), EVAL_LIMIT);
        net.out_weights[0] = [Row([-MAX_OUTPUT_WEIGHT; HIDDEN]); 2];
        assert_eq!(net.evaluate(&acc, Color::Red, 16), -EVAL_LIMIT);
        assert!(net.validate().is_ok());
    }
}
