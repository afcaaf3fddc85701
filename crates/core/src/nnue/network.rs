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

/// Largest |output weight| a file may hold: `WEIGHT_CLIP · QB` rounded, and small
/// enough that `QA · w` fits an `i16`.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
const _: () = assert!(QA * MAX_OUTPUT_WEIGHT as i32 <= i16::MAX as i32);

/// A quantised network, ready for the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Feature transformer: one row per input (`INPUTS` rows), in units of 1/QA.
    pub ft_weights: Vec<Row>,
    pub ft_bias: Row,
    /// Per bucket: weights of the side to move's activations, then the other side's,
    /// in units of 1/QB.
    pub out_weights: Vec<[Row; 2]>,
    /// Per bucket, in units of 1/(QA·QB).
    pub out_bias: Vec<i32>,
    pub activation: Activation,
    /// Centipawns per unit of output (the trainer's sigmoid scale K).
    pub scale: i32,
    /// Free text: how the network was made.
    pub description: String,
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
        let sum = output_sum(self.activation, us, them, &self.out_weights[b]);
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
        output_sum(self.activation, &acc.0[0], &acc.0[1], &self.out_weights[b])
            + i64::from(self.out_bias[b])
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

/// The output layer's weighted sum of the activations, in units of 1/(QA·QB) (SCReLU's
/// extra QA divided out), without the bias.
///
/// On x86-64 CPUs with AVX2 the same code is compiled a second time for AVX2 (twice
/// the vector width) and chosen at run time; elsewhere the baseline build runs.
#[inline]
fn output_sum(activation: Activation, us: &Row, them: &Row, w: &[Row; 2]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { output_sum_avx2(activation, us, them, w) };
    }
    output_sum_generic(activation, us, them, w)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_sum_avx2(activation: Activation, us: &Row, them: &Row, w: &[Row; 2]) -> i64 {
    output_sum_generic(activation, us, them, w)
}

#[inline(always)]
fn output_sum_generic(activation: Activation, us: &Row, them: &Row, w: &[Row; 2]) -> i64 {
    match activation {
        Activation::SCReLU => screlu_dot(us, them, w) / i64::from(QA),
        Activation::CReLU => crelu_dot(us, them, w),
    }
}

/// Σ clamp(a, 0, QA)² · w over both halves, in units of 1/(QA²·QB).
///
/// `v · w` with `v ≤ QA = 255` and `|w| ≤ 127` fits an `i16` (≤ 32385), and
/// `(v·w) · v ≤ 8.3M` an `i32`; a half of `HIDDEN` = 256 such terms is at most
/// 2.11·10⁹, still inside an `i32` (checked below), so each half is one `i32` sum
/// (wrapping adds are exact when the true sum fits) and the halves are added in `i64`.
/// A plain sum of `i16 × i16` products is the reduction LLVM turns into `pmaddwd`.
#[inline(always)]
fn screlu_dot(us: &Row, them: &Row, w: &[Row; 2]) -> i64 {
    i64::from(screlu_half(us, &w[0])) + i64::from(screlu_half(them, &w[1]))
}

const _: () = assert!(
    (QA as i64) * (QA as i64) * (MAX_OUTPUT_WEIGHT as i64) * (HIDDEN as i64) <= i32::MAX as i64
);

#[inline(always)]
fn screlu_half(acc: &Row, w: &Row) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.0.iter().zip(&w.0) {
        let v = a.clamp(0, QA as i16);
        sum = sum.wrapping_add(i32::from(v.wrapping_mul(w)) * i32::from(v));
    }
    sum
}

/// Σ clamp(a, 0, QA) · w over both halves, in units of 1/(QA·QB) (each term at most
/// 255 · 127, a half at most 8.3M).
#[inline(always)]
fn crelu_dot(us: &Row, them: &Row, w: &[Row; 2]) -> i64 {
    let half = |acc: &Row, w: &Row| {
        let mut sum = 0i32;
        for (&a, &w) in acc.0.iter().zip(&w.0) {
            sum = sum.wrapping_add(i32::from(a.clamp(0, QA as i16)) * i32::from(w));
        }
        sum
    };
    i64::from(half(us, &w[0])) + i64::from(half(them, &w[1]))
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
