//! AdamW and the learning-rate schedule.

use rayon::prelude::*;

/// Parameters per parallel piece of the update (fixed, so results do not depend on
/// the number of threads; the update is element-wise anyway).
const PIECE: usize = 1 << 14;

/// AdamW (Adam with decoupled weight decay, Loshchilov & Hutter).
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    pub beta1: f32,
    pub beta2: f32,
    pub eps: f32,
    pub weight_decay: f32,
    /// Steps taken so far.
    pub step: u64,
    /// First and second moment estimates, one per parameter.
    pub m: Vec<f32>,
    pub v: Vec<f32>,
}

impl AdamW {
    pub fn new(params: usize, weight_decay: f32) -> AdamW {
        AdamW {
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay,
            step: 0,
            m: vec![0.0; params],
            v: vec![0.0; params],
        }
    }

    /// One step with learning rate `lr`; parameters at index `decay_end` and beyond
    /// (the biases) are not decayed.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32, decay_end: usize) {
        self.step += 1;
        let (b1, b2, eps, wd) = (self.beta1, self.beta2, self.eps, self.weight_decay);
        let c1 = 1.0 - b1.powi(self.step.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - b2.powi(self.step.min(i32::MAX as u64) as i32);
        params
            .par_chunks_mut(PIECE)
            .zip(grad.par_chunks(PIECE))
            .zip(self.m.par_chunks_mut(PIECE))
            .zip(self.v.par_chunks_mut(PIECE))
            .enumerate()
            .for_each(|(piece, (((p, g), m), v))| {
                for i in 0..p.len() {
                    m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                    v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                    let update = (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                    let decay = if piece * PIECE + i < decay_end {
                        wd * p[i]
                    } else {
                        0.0
                    };
                    p[i] -= lr * (update + decay);
                }
            });
    }
}

/// Learning rate at `step` of `total`: linear warm-up over `warmup` steps to `lr`,
/// then a cosine decay to `lr_min` at the last step.
pub fn learning_rate(step: u64, total: u64, warmup: u64, lr: f32, lr_min: f32) -> f32 {
    if step < warmup {
        return lr * (step + 1) as f32 / warmup as f32;
    }
    let span = total.saturating_sub(warmup).max(1);
    let progress = ((step - warmup) as f32 / span as f32).min(1.0);
    lr_min + 0.5 * (lr - lr_min) * (1.0 + (std::f32::consts::PI * progress).cos())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_warms_up_then_decays() {
        assert!((learning_rate(0, 100, 10, 1.0, 0.0) - 0.1).abs() < 1e-6);
        assert!((learning_rate(9, 100, 10, 1.0, 0.0) - 1.0).abs() < 1e-6);
        assert!((learning_rate(10, 100, 10, 1.0, 0.0) - 1.0).abs() < 1e-6);
        assert!((learning_rate(55, 100, 10, 1.0, 0.0) - 0.5).abs() < 1e-3);
        assert!((learning_rate(100, 100, 10, 1.0, 0.01) - 0.01).abs() < 1e-6);
    }

    #[test]
    fn adamw_minimises_a_quadratic() {
        // f(p) = Σ (p_i - i)²: the minimum is p_i = i.
        let n = 40_000;
        let mut p = vec![0.0f32; n];
        let mut opt = AdamW::new(n, 0.0);
        for _ in 0..2000 {
            let g: Vec<f32> = p
                .iter()
                .enumerate()
                .map(|(i, x)| 2.0 * (x - (i % 3) as f32))
                .collect();
            opt.step(&mut p, &g, 0.01, n);
        }
        for (i, x) in p.iter().enumerate() {
            assert!((x - (i % 3) as f32).abs() < 0.05, "{i}: {x}");
        }
    }
}
