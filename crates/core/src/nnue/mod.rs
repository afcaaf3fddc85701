//! The learned evaluation (NNUE): an efficiently updatable perspective network.
//!
//! Architecture (as in the strong chess engines, adapted to the 7×9 board):
//! - Inputs, once per perspective (Red's and Blue's): one-hot animal × owner (the
//!   perspective's own animals, then the other side's) × square, [`INPUTS`] = 8 × 2 × 63
//!   = 1008 features, with the board seen from that side (Blue's squares flipped by
//!   rank, `Square::flip_rank`), so both sides share one set of weights.
//! - A feature transformer to [`HIDDEN`] neurons per perspective (the accumulator),
//!   `i16` weights and sums, scaled by [`QA`].
//! - Activation SCReLU (`clamp(x, 0, 1)²`) or CReLU (`clamp(x, 0, 1)`), chosen by the
//!   network file.
//! - One output neuron per bucket, the bucket chosen by the number of animals on the
//!   board; inputs are the side to move's activations, then the other side's. `i16`
//!   weights scaled by [`QB`], `i32` sums; the output times the file's `scale` is the
//!   score in centipawns from the side to move.
//!
//! `network` holds the quantised network and its evaluation, `format` the file format,
//! `accumulator` the incremental updates used by the search, `features` the input
//! indexing shared with the trainer.

pub mod accumulator;
pub mod features;
pub mod format;
pub mod network;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use format::NetworkError;
pub use network::{Activation, Network};

/// Inputs per perspective: animal × owner × square.
pub const INPUTS: usize = 8 * 2 * 63;
/// Neurons per perspective in the hidden layer. Changing it changes the file format's
/// architecture: networks of another size are refused.
pub const HIDDEN: usize = 256;
/// Most output buckets a file may have (one per number of animals on the board).
pub const MAX_BUCKETS: usize = 16;
/// Quantisation of the feature transformer: 1.0 is stored as `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is stored as `QB`.
pub const QB: i32 = 64;
/// Largest float weight the trainer allows (weights are clipped to ±this), so that
/// quantised values and sums provably fit: see `network::Network::validate`.
pub const WEIGHT_CLIP: f32 = 1.98;

/// Fewest animals on the board for the network to evaluate a position; with fewer the
/// search uses the classical evaluation. The training data has almost no such
/// positions (of the third network's 3,035,495: 881 with 4 animals or fewer, 14,202
/// with 5 or 6; of the first network's 865,668: 461 and 7,535; the built-in sixth
/// network's 10,721,687 have 9,854 and 127,832, not yet measured here), and there the
/// first network was wrong in ways that cost mates: it scored a tiger and a lion against
/// a lion as even, and a search at depth 10 found a mate in 4 where a mate in 3 was
/// (tests/mates.txt). Three animals or fewer are the tablebases' in play.
pub const MIN_ANIMALS: u32 = 7;

/// The network built into the binary (see CHANGES.md for how it was trained).
pub static EMBEDDED: &[u8] = include_bytes!("default.nnue");

/// Which evaluation the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// The hand-written, Texel-tuned evaluation (`crate::eval`).
    Classical,
    /// The network (the default: it beat the classical evaluation, CHANGES.md).
    #[default]
    Nnue,
}

impl EvalKind {
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Classical => "classical",
            EvalKind::Nnue => "nnue",
        }
    }

    pub fn from_name(name: &str) -> Option<EvalKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "classical" => Some(EvalKind::Classical),
            "nnue" => Some(EvalKind::Nnue),
            _ => None,
        }
    }
}

/// The embedded network, parsed once. A broken embedded file (a build defect, which a
/// test rules out) logs an error and gives a network of zeros, which scores 0.
pub fn embedded() -> std::sync::Arc<Network> {
    static NET: std::sync::OnceLock<std::sync::Arc<Network>> = std::sync::OnceLock::new();
    NET.get_or_init(|| match Network::from_bytes(EMBEDDED) {
        Ok(net) => std::sync::Arc::new(net),
        Err(e) => {
            log::error!("the embedded network is unusable: {e}");
            std::sync::Arc::new(Network::zeros(1, Activation::SCReLU, 400))
        }
    })
    .clone()
}
