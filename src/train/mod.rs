//! Training the evaluation: the training data format (`data`), self-play data
//! generation (`datagen`), the quiet-position filter both tuners use (`quiet`), the
//! Texel tuner of the classical weights (`tune`), the network trainer (`trainer`,
//! with its `dataset`, `float_net` and `optimizer`), data made in shards from a
//! committed manifest (`shards`) and its statistics (`stats`), and the command lines
//! of `jungle tune`, `datagen`, `data` and `train` (`command`).

pub mod command;
pub mod data;
pub mod datagen;
pub mod dataset;
pub mod float_net;
pub mod optimizer;
pub mod quiet;
pub mod shards;
pub mod stats;
pub mod trainer;
pub mod tune;
