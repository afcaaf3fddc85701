//! `jungle train`: fits the network to self-play positions.
//!
//! - Target: `λ · result + (1 − λ) · sigmoid(score / K)`, the game result (0, ½, 1)
//!   blended with the search score; the prediction is `sigmoid(output)`, and the
//!   network's output times K is its score in centipawns, so K is also the network
//!   file's scale. K is fitted to the data unless given (see [`fit_k`]).
//! - Loss: mean squared error of the prediction; AdamW; warm-up then cosine decay of
//!   the learning rate; weights clipped to ±`WEIGHT_CLIP` after each step.
//! - Mini-batches of a fresh permutation every epoch, drawn from `--seed`; each
//!   position is mirrored left to right at random (also from the seed).
//! - Reproducible whatever the number of threads: a batch is cut into fixed chunks of
//!   [`CHUNK`] positions, each chunk's gradient summed in its own buffer, and the
//!   buffers added in chunk order.

use super::dataset::Dataset;
use super::float_net::{self, sigmoid, FloatNetwork, Inputs};
use super::optimizer::{learning_rate, AdamW};
use crate::nnue::{Activation, Network, QA, QB};
use crate::rng::{mix, Rng};
use rayon::prelude::*;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Positions per gradient chunk (fixed: results do not depend on the thread count).
pub const CHUNK: usize = 1024;

#[derive(Clone, Debug)]
pub struct Settings {
    pub epochs: usize,
    pub batch_size: usize,
    pub lr: f32,
    pub lr_min: f32,
    /// Warm-up steps (batches).
    pub warmup: u64,
    pub weight_decay: f32,
    /// Weight of the game result in the target (0: the score only).
    pub lambda: f32,
    /// Sigmoid scale of the score; `None`: fitted to the training positions.
    pub k: Option<f32>,
    /// Weight in the training loss of a position from a drawn game that lies
    /// `shuffle_plies` or more plies after the last capture (a long drawn shuffle);
    /// every other position weighs 1. The held-out loss is not weighted.
    pub shuffle_weight: f32,
    pub shuffle_plies: u8,
    pub buckets: usize,
    pub activation: Activation,
    /// Every N-th block of positions is held out (0: none).
    pub holdout: usize,
    pub mirror: bool,
    pub seed: u64,
    /// Quantised network, written after every epoch.
    pub out: Option<PathBuf>,
    /// Float checkpoint (weights and optimiser state), written after every epoch.
    pub checkpoint: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    /// Stop after this many epochs in this run (the schedule still spans `epochs`):
    /// with `checkpoint` and `resume`, a long run in slices.
    pub stop_after: Option<usize>,
    /// Progress lines on stderr during an epoch.
    pub progress: bool,
    /// The command line, stored in the network's description.
    pub command_line: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            epochs: 10,
            batch_size: 16384,
            lr: 1e-3,
            lr_min: 1e-5,
            warmup: 100,
            weight_decay: 0.01,
            lambda: 0.5,
            k: None,
            shuffle_weight: 1.0,
            shuffle_plies: 80,
            buckets: 8,
            activation: Activation::SCReLU,
            holdout: 20,
            mirror: true,
            seed: 1,
            out: None,
            checkpoint: None,
            resume: None,
            stop_after: None,
            progress: true,
            command_line: String::new(),
        }
    }
}

/// Why training stopped.
#[derive(Debug)]
pub enum TrainError {
    Settings(String),
    Io { file: PathBuf, error: io::Error },
    Checkpoint { file: PathBuf, problem: String },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Settings(s) => write!(f, "{s}"),
            TrainError::Io { file, error } => {
                write!(f, "{}: {error}", crate::text::quote_path(file))
            }
            TrainError::Checkpoint { file, problem } => {
                write!(f, "checkpoint {}: {problem}", crate::text::quote_path(file))
            }
        }
    }
}

impl std::error::Error for TrainError {}

/// Losses of one epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochStats {
    pub epoch: usize,
    pub train_loss: f64,
    pub holdout_loss: Option<f64>,
    pub seconds: f64,
    pub positions: usize,
}

/// What a run produced.
pub struct Outcome {
    pub net: FloatNetwork,
    pub k: f32,
    pub epochs: Vec<EpochStats>,
    /// Loss of the untrained network on the held-out (or training) positions.
    pub initial_loss: f64,
    /// Mean and largest |quantised − float| in centipawns on held-out positions.
    pub quantisation_error: (f64, f64),
}

/// The training target of a position.
#[inline]
fn target(score: i16, result: f32, lambda: f32, k: f32) -> f32 {
    lambda * result + (1.0 - lambda) * sigmoid(f32::from(score) / k)
}

/// Mean squared error of `sigmoid(score / k)` against the game results.
fn result_error(ds: &Dataset, idx: &[u32], k: f32) -> f64 {
    let parts: Vec<f64> = idx
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter()
                .map(|&i| {
                    let (s, r) = ds.label(i as usize);
                    let e = f64::from(sigmoid(f32::from(s) / k) - r);
                    e * e
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / idx.len().max(1) as f64
}

/// The scale K for which `sigmoid(score / K)` best predicts the game results (least
/// squares, golden-section search on ln K over [50, 50000], on up to a million
/// training positions), rounded to a whole number so that the quantised network's
/// integer scale is exactly the float one's.
pub fn fit_k(ds: &Dataset, train: &[u32]) -> f32 {
    let stride = (train.len() / 1_000_000).max(1);
    let idx: Vec<u32> = train.iter().step_by(stride).copied().collect();
    let f = |lnk: f64| result_error(ds, &idx, lnk.exp() as f32);
    let (mut a, mut b) = (50f64.ln(), 50_000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp().round() as f32
}

/// Loss of one position and, when `grad` is given, its gradient added there, both
/// times `weight`.
#[inline]
fn sample_loss(
    net: &FloatNetwork,
    x: &Inputs,
    target: f32,
    weight: f32,
    grad: Option<&mut [f32]>,
) -> f64 {
    let fwd = net.forward(x);
    let p = sigmoid(fwd.output);
    let e = p - target;
    if let Some(g) = grad {
        net.backward(x, &fwd, weight * 2.0 * e * p * (1.0 - p), g);
    }
    f64::from(weight * e * e)
}

/// Mean loss over positions (no mirroring).
fn mean_loss(net: &FloatNetwork, ds: &Dataset, idx: &[u32], lambda: f32) -> f64 {
    let parts: Vec<f64> = idx
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter()
                .map(|&i| {
                    let (s, r, x) = ds.get(i as usize, false, net.buckets);
                    sample_loss(net, &x, target(s, r, lambda, net.scale), 1.0, None)
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / idx.len().max(1) as f64
}

/// Gradient buffers of the chunks of a batch, reused across batches.
struct Gradients {
    chunks: Vec<Vec<f32>>,
    total: Vec<f32>,
}

impl Gradients {
    fn new(params: usize, batch: usize) -> Gradients {
        Gradients {
            chunks: vec![vec![0.0; params]; batch.div_ceil(CHUNK)],
            total: vec![0.0; params],
        }
    }

    /// The weighted mean gradient of `batch` into `self.total` (zero when every
    /// weight is 0); returns the summed weighted loss.
    fn compute(
        &mut self,
        net: &FloatNetwork,
        ds: &Dataset,
        batch: &[u32],
        settings: &Settings,
        epoch: usize,
    ) -> f64 {
        let pieces = batch.chunks(CHUNK);
        let n = pieces.len();
        let losses: Vec<(f64, f64)> = self.chunks[..n]
            .par_iter_mut()
            .zip(batch.par_chunks(CHUNK))
            .map(|(g, idx)| {
                g.fill(0.0);
                let (mut loss, mut weights) = (0.0, 0.0);
                for &i in idx {
                    let mirror =
                        settings.mirror && mix(settings.seed, epoch as u64, u64::from(i)) & 1 == 1;
                    let (s, r, x) = ds.get(i as usize, mirror, net.buckets);
                    let t = target(s, r, settings.lambda, net.scale);
                    let w = ds.weight(i as usize, settings.shuffle_plies, settings.shuffle_weight);
                    loss += sample_loss(net, &x, t, w, Some(g));
                    weights += f64::from(w);
                }
                (loss, weights)
            })
            .collect();
        let weights: f64 = losses.iter().map(|l| l.1).sum();
        // With every weight 1 this is 1 / batch length, exactly.
        let scale = if weights > 0.0 {
            (1.0 / weights) as f32
        } else {
            0.0
        };
        let chunks = &self.chunks[..n];
        self.total
            .par_chunks_mut(CHUNK * 16)
            .enumerate()
            .for_each(|(piece, out)| {
                let at = piece * CHUNK * 16;
                for (j, o) in out.iter_mut().enumerate() {
                    let mut sum = 0.0;
                    for c in chunks {
                        sum += c[at + j];
                    }
                    *o = sum * scale;
                }
            });
        losses.iter().map(|l| l.0).sum()
    }
}

/// A permutation of `idx` for `epoch` (Fisher–Yates from the seed).
fn shuffled(idx: &[u32], seed: u64, epoch: usize) -> Vec<u32> {
    let mut v = idx.to_vec();
    let mut rng = Rng::new(mix(seed, 0x0054_ff1e, epoch as u64));
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
    v
}

fn check(settings: &Settings) -> Result<(), TrainError> {
    let bad = |s: &str| Err(TrainError::Settings(s.to_string()));
    if settings.batch_size == 0 {
        return bad("--batch must be at least 1");
    }
    if !(1..=crate::nnue::MAX_BUCKETS).contains(&settings.buckets) {
        return bad("--buckets must be from 1 to 16");
    }
    if !(0.0..=1.0).contains(&settings.lambda) {
        return bad("--lambda must be from 0 to 1");
    }
    if !(0.0..=1.0).contains(&settings.shuffle_weight) {
        return bad("--shuffle-weight must be from 0 to 1");
    }
    if settings.k.is_some_and(|k| !(1.0..=100_000.0).contains(&k)) {
        return bad("--k must be from 1 to 100000");
    }
    if !(settings.lr > 0.0 && settings.lr.is_finite() && settings.lr_min >= 0.0) {
        return bad("--lr must be above 0 and --lr-min at least 0");
    }
    Ok(())
}

/// Trains on `ds`; writes epoch lines to `log` and progress to stderr.
pub fn train(
    ds: &Dataset,
    settings: &Settings,
    log: &mut impl Write,
) -> Result<Outcome, TrainError> {
    check(settings)?;
    let io_err = |file: &Path| {
        let file = file.to_path_buf();
        move |error| TrainError::Io {
            file: file.clone(),
            error,
        }
    };
    let stdout_err = io_err(Path::new("<output>"));
    let (train, held) = ds.split(settings.holdout);
    if train.is_empty() {
        return Err(TrainError::Settings(
            "no training positions left after the held-out split".into(),
        ));
    }
    let (mut net, mut opt, first_epoch) = match &settings.resume {
        Some(path) => {
            let (net, mut opt, epoch) = load_checkpoint(path)?;
            opt.weight_decay = settings.weight_decay;
            if net.buckets != settings.buckets || net.activation != settings.activation {
                return Err(TrainError::Checkpoint {
                    file: path.clone(),
                    problem: format!(
                        "it has {} buckets and {}, the settings ask for {} and {}",
                        net.buckets,
                        net.activation.name(),
                        settings.buckets,
                        settings.activation.name()
                    ),
                });
            }
            (net, opt, epoch)
        }
        None => {
            let k = match settings.k {
                Some(k) => k.round(),
                None => fit_k(ds, &train),
            };
            let net = FloatNetwork::new(settings.seed, settings.buckets, settings.activation, k);
            let opt = AdamW::new(net.params.len(), settings.weight_decay);
            (net, opt, 0)
        }
    };
    let k = net.scale;
    writeln!(
        log,
        "positions {} (training {}, held out {}), K {k}, lambda {}{}, {}",
        ds.len(),
        train.len(),
        held.len(),
        settings.lambda,
        if settings.shuffle_weight == 1.0 {
            String::new()
        } else {
            format!(
                ", drawn positions {}+ plies after a capture weigh {}",
                settings.shuffle_plies, settings.shuffle_weight
            )
        },
        net.quantise("").architecture()
    )
    .map_err(&stdout_err)?;
    let measure_on = if held.is_empty() { &train } else { &held };
    let initial_loss = mean_loss(&net, ds, measure_on, settings.lambda);

    let steps_per_epoch = train.len().div_ceil(settings.batch_size) as u64;
    let total_steps = steps_per_epoch * settings.epochs as u64;
    let mut grads = Gradients::new(net.params.len(), settings.batch_size);
    let decay_end = float_net::out_b(net.buckets);
    let mut epochs = Vec::new();
    let last_epoch = settings
        .stop_after
        .map_or(settings.epochs, |n| (first_epoch + n).min(settings.epochs));
    for epoch in first_epoch..last_epoch {
        let start = Instant::now();
        let mut last_report = Instant::now();
        let order = shuffled(&train, settings.seed, epoch);
        let mut loss_sum = 0.0;
        let mut lr = settings.lr;
        for (b, batch) in order.chunks(settings.batch_size).enumerate() {
            lr = learning_rate(
                opt.step,
                total_steps,
                settings.warmup,
                settings.lr,
                settings.lr_min,
            );
            loss_sum += grads.compute(&net, ds, batch, settings, epoch);
            opt.step(&mut net.params, &grads.total, lr, decay_end);
            net.clip();
            if settings.progress && last_report.elapsed().as_secs_f64() >= 5.0 {
                last_report = Instant::now();
                let done = (b + 1) * settings.batch_size;
                eprintln!(
                    "epoch {}/{} batch {}/{} loss {:.6} lr {lr:.2e} {:.0} pos/s",
                    epoch + 1,
                    settings.epochs,
                    b + 1,
                    steps_per_epoch,
                    loss_sum / done as f64,
                    done as f64 / start.elapsed().as_secs_f64()
                );
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        let stats = EpochStats {
            epoch: epoch + 1,
            train_loss: loss_sum / train.len() as f64,
            holdout_loss: (!held.is_empty()).then(|| mean_loss(&net, ds, &held, settings.lambda)),
            seconds,
            positions: train.len(),
        };
        writeln!(
            log,
            "epoch {}/{}: train loss {:.6} held-out loss {} lr {lr:.2e} {seconds:.1} s ({:.2} s per million positions, {:.0} pos/s)",
            stats.epoch,
            settings.epochs,
            stats.train_loss,
            stats.holdout_loss.map_or("-".into(), |l| format!("{l:.6}")),
            seconds * 1e6 / train.len() as f64,
            train.len() as f64 / seconds
        )
        .map_err(&stdout_err)?;
        if let Some(path) = &settings.out {
            let text = description(settings, ds, &train, &held, &stats, k);
            let q = quantise_calibrated(&net, ds, &train, &text);
            write_atomically(path, &q.to_bytes()).map_err(io_err(path))?;
        }
        if let Some(path) = &settings.checkpoint {
            write_atomically(path, &checkpoint_bytes(&net, &opt, epoch + 1))
                .map_err(io_err(path))?;
        }
        epochs.push(stats);
    }
    let quantised = quantise_calibrated(&net, ds, &train, "");
    let quantisation_error = quantisation_error(&net, &quantised, ds, measure_on);
    writeln!(
        log,
        "quantised vs float on {} {} positions: mean |difference| {:.2} cp, largest {:.1} cp",
        measure_on.len().min(QUANT_CHECK),
        if held.is_empty() {
            "training"
        } else {
            "held-out"
        },
        quantisation_error.0,
        quantisation_error.1
    )
    .map_err(&stdout_err)?;
    Ok(Outcome {
        net,
        k,
        epochs,
        initial_loss,
        quantisation_error,
    })
}

/// Positions compared by `quantisation_error` and used by `quantise_calibrated`.
const QUANT_CHECK: usize = 20_000;

/// The quantised network, with each bucket's output bias corrected by the mean
/// difference between the quantised and the float scores on up to `QUANT_CHECK` of
/// the training positions. The rounding of the weights is the same for every
/// position, so much of its error is a common offset, which this removes.
pub fn quantise_calibrated(
    net: &FloatNetwork,
    ds: &Dataset,
    train: &[u32],
    description: &str,
) -> Network {
    let mut q = net.quantise(description);
    let stride = (train.len() / QUANT_CHECK).max(1);
    let idx: Vec<u32> = train.iter().step_by(stride).copied().collect();
    let diffs: Vec<(usize, f64)> = idx
        .par_iter()
        .map(|&i| {
            let (_, _, x) = ds.get(i as usize, false, net.buckets);
            // In units of 1/(QA·QB) before the scale (no clamping, no truncation).
            let float = f64::from(net.forward(&x).output) * f64::from(QA * QB);
            let quant = q.raw_output(x.us.as_slice(), x.them.as_slice()) as f64;
            (x.bucket, quant - float)
        })
        .collect();
    for b in 0..net.buckets {
        let (n, sum) = diffs
            .iter()
            .filter(|d| d.0 == b)
            .fold((0usize, 0.0f64), |(n, s), d| (n + 1, s + d.1));
        if n >= 100 {
            q.out_bias[b] -= (sum / n as f64).round() as i32;
        }
    }
    q
}

/// Mean and largest |quantised − float| score in centipawns (both clamped as the
/// engine clamps), on up to `QUANT_CHECK` of the positions.
pub fn quantisation_error(
    net: &FloatNetwork,
    q: &Network,
    ds: &Dataset,
    idx: &[u32],
) -> (f64, f64) {
    let limit = crate::eval::EVAL_LIMIT as f32;
    let diffs: Vec<f64> = idx[..idx.len().min(QUANT_CHECK)]
        .par_iter()
        .map(|&i| {
            let (_, _, x) = ds.get(i as usize, false, net.buckets);
            let float = (net.forward(&x).output * net.scale).clamp(-limit, limit);
            let quant = q.evaluate_inputs(x.us.as_slice(), x.them.as_slice()) as f32;
            f64::from(quant - float)
        })
        .collect();
    let n = diffs.len().max(1) as f64;
    log::debug!(
        "quantised - float: mean {:.3} cp",
        diffs.iter().sum::<f64>() / n
    );
    let mean = diffs.iter().map(|d| d.abs()).sum::<f64>() / n;
    (mean, diffs.iter().map(|d| d.abs()).fold(0.0, f64::max))
}

/// The network's description: how it was made.
fn description(
    settings: &Settings,
    ds: &Dataset,
    train: &[u32],
    held: &[u32],
    stats: &EpochStats,
    k: f32,
) -> String {
    format!(
        "{}\npositions {} (training {}, held out {}); epoch {} of {}; K {k}; lambda {}; train loss {:.6}; held-out loss {}",
        settings.command_line,
        ds.len(),
        train.len(),
        held.len(),
        stats.epoch,
        settings.epochs,
        settings.lambda,
        stats.train_loss,
        stats.holdout_loss.map_or("-".into(), |l| format!("{l:.6}"))
    )
}

/// Writes to a temporary file beside `path`, then renames it: an interrupted run
/// never leaves half a file.
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"JUNGLEFC";
const CHECKPOINT_VERSION: u32 = 1;

/// Float checkpoint: magic, version, hidden size, buckets, activation, scale (f32),
/// epochs done, optimiser step (u64), parameter count (u64), then the parameters and
/// the optimiser's two moment vectors (f32 each), then a CRC-32 of all before it.
fn checkpoint_bytes(net: &FloatNetwork, opt: &AdamW, epochs_done: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(48 + 12 * net.params.len());
    out.extend_from_slice(CHECKPOINT_MAGIC);
    for v in [
        CHECKPOINT_VERSION,
        crate::nnue::HIDDEN as u32,
        net.buckets as u32,
        net.activation as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&net.scale.to_le_bytes());
    out.extend_from_slice(&(epochs_done as u32).to_le_bytes());
    out.extend_from_slice(&opt.step.to_le_bytes());
    out.extend_from_slice(&(net.params.len() as u64).to_le_bytes());
    for v in [&net.params, &opt.m, &opt.v] {
        for x in v.iter() {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Reads a float checkpoint: the network, the optimiser, and the epochs done.
pub fn load_checkpoint(path: &Path) -> Result<(FloatNetwork, AdamW, usize), TrainError> {
    let bad = |problem: &str| TrainError::Checkpoint {
        file: path.to_path_buf(),
        problem: problem.to_string(),
    };
    let bytes = std::fs::read(path).map_err(|error| TrainError::Io {
        file: path.to_path_buf(),
        error,
    })?;
    const HEAD: usize = 48;
    if bytes.len() < HEAD + 4 {
        return Err(bad("truncated"));
    }
    if &bytes[..8] != CHECKPOINT_MAGIC {
        return Err(bad("not a float checkpoint (bad magic)"));
    }
    let u32_at =
        |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let u64_at = |o: usize| u64::from(u32_at(o)) | u64::from(u32_at(o + 4)) << 32;
    if u32_at(8) != CHECKPOINT_VERSION {
        return Err(bad("unsupported version"));
    }
    if u32_at(12) as usize != crate::nnue::HIDDEN {
        return Err(bad("hidden layer size differs from this engine's"));
    }
    let buckets = u32_at(16) as usize;
    let activation = u8::try_from(u32_at(20))
        .ok()
        .and_then(Activation::from_code)
        .ok_or_else(|| bad("unknown activation"))?;
    if !(1..=crate::nnue::MAX_BUCKETS).contains(&buckets) {
        return Err(bad("bad bucket count"));
    }
    let n = float_net::param_count(buckets);
    if u64_at(40) != n as u64 {
        return Err(bad("parameter count does not match the architecture"));
    }
    if bytes.len() != HEAD + 12 * n + 4 {
        return Err(bad("truncated or too long"));
    }
    let end = bytes.len() - 4;
    if crc32fast::hash(&bytes[..end]) != u32_at(end) {
        return Err(bad("checksum mismatch (corrupt file)"));
    }
    let floats = |k: usize| -> Vec<f32> {
        let at = HEAD + 4 * n * k;
        (0..n).map(|i| f32::from_bits(u32_at(at + 4 * i))).collect()
    };
    let net = FloatNetwork {
        params: floats(0),
        buckets,
        activation,
        scale: f32::from_bits(u32_at(24)),
    };
    let mut opt = AdamW::new(n, 0.0);
    opt.step = u64_at(32);
    opt.m = floats(1);
    opt.v = floats(2);
    Ok((net, opt, u32_at(28) as usize))
}

/// `jungle train`: loads the data, trains, writes the network; errors as text.
pub fn run(
    files: &[String],
    settings: &Settings,
    threads: usize,
    log: &mut (impl Write + Send),
) -> Result<(), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    pool.install(|| {
        let start = Instant::now();
        let ds = Dataset::load(files).map_err(|e| e.to_string())?;
        let _ = writeln!(
            log,
            "loaded {} positions in {:.1} s",
            ds.len(),
            start.elapsed().as_secs_f64()
        );
        let outcome = train(&ds, settings, log).map_err(|e| e.to_string())?;
        if let Some(path) = &settings.out {
            let _ = writeln!(
                log,
                "wrote {} (loss {:.6} before training)",
                crate::text::quote_path(path),
                outcome.initial_loss
            );
        }
        // The network just written must load: the engine will read it.
        if let Some(path) = &settings.out {
            Network::load(path).map_err(|e| format!("the written network is unusable: {e}"))?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::Position;
    use crate::train::data::{Outcome as Result3, Sample};

    /// Positions of random games, scored by the classical evaluation (a target the
    /// network can learn), with the result of a coin weighted by that score.
    pub(crate) fn classical_samples(games: usize, seed: u64) -> Vec<Sample> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..80 {
                let moves = legal_moves(&pos);
                if moves.is_empty() || pos.is_over_on_board() {
                    break;
                }
                let score = crate::eval::evaluate(&pos).clamp(-3000, 3000);
                let p = sigmoid(score as f32 / 800.0);
                let outcome = if rng.unit_f32() < p {
                    Result3::Win
                } else {
                    Result3::Loss
                };
                out.push(Sample {
                    pos,
                    score: score as i16,
                    outcome,
                });
                pos.play(moves[rng.below(moves.len())]);
            }
        }
        out
    }

    fn small_settings() -> Settings {
        Settings {
            epochs: 4,
            batch_size: 1024,
            lr: 3e-3,
            warmup: 5,
            holdout: 4,
            k: Some(800.0),
            progress: false,
            ..Settings::default()
        }
    }

    #[test]
    fn a_tiny_run_lowers_the_loss_and_quantises_faithfully() {
        let ds = Dataset::from_samples(&classical_samples(300, 5));
        assert!(ds.len() > 15_000, "{}", ds.len());
        let mut log = Vec::new();
        // Against the score alone (the coin-flip results are noise no network can fit).
        let settings = Settings {
            lambda: 0.0,
            ..small_settings()
        };
        let out = train(&ds, &settings, &mut log).expect("trains");
        let held = out
            .epochs
            .last()
            .and_then(|e| e.holdout_loss)
            .expect("held-out loss");
        assert!(
            held < 0.3 * out.initial_loss,
            "held-out loss {held} vs {} before training",
            out.initial_loss
        );
        assert!(out.epochs[3].train_loss < out.epochs[0].train_loss);
        // The quantised network agrees with the float one: on held-out positions the
        // mean difference is below 1% of the scale (K = 800 cp per output unit here),
        // the largest below 4% (measured: 0.5% and 2.2%).
        let (mean, max) = out.quantisation_error;
        assert!(
            mean < 8.0 && max < 32.0,
            "quantisation error mean {mean} max {max}"
        );
        // And it learned the classical evaluation's sign on most positions.
        let (_, held_idx) = ds.split(4);
        let q = quantise_calibrated(&out.net, &ds, &ds.split(4).0, "test");
        let agree = held_idx
            .iter()
            .filter(|&&i| {
                let (s, _, x) = ds.get(i as usize, false, 8);
                let e = q.evaluate_inputs(x.us.as_slice(), x.them.as_slice());
                s.abs() < 100 || (e > 0) == (s > 0)
            })
            .count();
        assert!(
            agree * 10 > held_idx.len() * 8,
            "{agree} of {}",
            held_idx.len()
        );
        let text = String::from_utf8(log).unwrap();
        assert!(text.contains("epoch 4/4: train loss"), "{text}");
    }

    #[test]
    fn long_drawn_shuffles_weigh_what_the_settings_say() {
        let samples = classical_samples(20, 3);
        let shuffle = Sample {
            pos: Position::from_fen("l6/7/7/7/7/7/7/7/6L r 90 200").unwrap(),
            score: 0,
            outcome: crate::train::data::Outcome::Draw,
        };
        let won = Sample {
            outcome: crate::train::data::Outcome::Win,
            ..shuffle
        };
        let mut with = vec![samples[0], samples[1], shuffle, won];
        let ds = Dataset::from_samples(&with);
        assert_eq!(ds.weight(2, 80, 0.25), 0.25);
        assert_eq!(ds.weight(2, 91, 0.25), 1.0);
        assert_eq!((ds.weight(3, 80, 0.25), ds.weight(0, 0, 0.25)), (1.0, 1.0));
        // Weight 0: the shuffle adds nothing to the gradient.
        let settings = Settings {
            shuffle_weight: 0.0,
            mirror: false,
            ..small_settings()
        };
        let net = FloatNetwork::new(1, 8, Activation::SCReLU, 800.0);
        let mut grads = Gradients::new(net.params.len(), 4);
        grads.compute(&net, &ds, &[0, 1, 2, 3], &settings, 0);
        let weighted = grads.total.clone();
        with.remove(2);
        let without = Dataset::from_samples(&with);
        grads.compute(&net, &without, &[0, 1, 2], &settings, 0);
        assert_eq!(weighted, grads.total);
        // Weight 1 (the default) is plain training; a batch of weight 0 moves nothing.
        grads.compute(&net, &ds, &[2], &settings, 0);
        assert!(grads.total.iter().all(|&g| g == 0.0));
        let bad = Settings {
            shuffle_weight: 1.5,
            ..small_settings()
        };
        let err = train(&ds, &bad, &mut io::sink()).err().expect("refused");
        assert!(err.to_string().contains("--shuffle-weight"), "{err}");
    }

    #[test]
    fn runs_are_reproducible_across_thread_counts_and_resumable() {
        let ds = Dataset::from_samples(&classical_samples(40, 9));
        let settings = Settings {
            epochs: 2,
            ..small_settings()
        };
        let run = |threads: usize, settings: &Settings| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| train(&ds, settings, &mut io::sink()).unwrap().net)
        };
        let one = run(1, &settings);
        assert_eq!(one, run(2, &settings));
        assert_ne!(
            one,
            run(
                1,
                &Settings {
                    seed: 2,
                    ..settings.clone()
                }
            )
        );

        // One epoch and a checkpoint, then the second epoch from it: the same network.
        let ck = std::env::temp_dir().join(format!("jungle-ck-{}.bin", std::process::id()));
        let first = Settings {
            checkpoint: Some(ck.clone()),
            stop_after: Some(1),
            ..settings.clone()
        };
        let after_one = run(1, &first);
        assert_ne!(after_one, one);
        let (net, _, done) = load_checkpoint(&ck).unwrap();
        assert_eq!((net, done), (after_one, 1));
        let second = Settings {
            resume: Some(ck.clone()),
            ..settings.clone()
        };
        assert_eq!(run(2, &second), one);
        // Corrupt checkpoints are refused.
        let mut bytes = std::fs::read(&ck).unwrap();
        bytes[60] ^= 1;
        std::fs::write(&ck, &bytes).unwrap();
        assert!(matches!(
            load_checkpoint(&ck),
            Err(TrainError::Checkpoint { .. })
        ));
        let _ = std::fs::remove_file(&ck);
    }

    #[test]
    fn k_fits_the_scale_of_the_results() {
        // Results drawn with sigmoid(score / 800): the fit finds about 800.
        let ds = Dataset::from_samples(&classical_samples(300, 11));
        let (train_idx, _) = ds.split(0);
        let k = fit_k(&ds, &train_idx);
        assert!((600.0..1100.0).contains(&k), "K {k}");
    }

    #[test]
    fn bad_settings_are_refused() {
        let ds = Dataset::from_samples(&classical_samples(2, 1));
        for s in [
            Settings {
                batch_size: 0,
                ..small_settings()
            },
            Settings {
                buckets: 0,
                ..small_settings()
            },
            Settings {
                lambda: 1.5,
                ..small_settings()
            },
            Settings {
                k: Some(0.0),
                ..small_settings()
            },
        ] {
            assert!(matches!(
                train(&ds, &s, &mut io::sink()),
                Err(TrainError::Settings(_))
            ));
        }
    }
}
