//! Training the evaluation: the training data format (`data`), self-play data
//! generation (`datagen`), the quiet-position filter both tuners use (`quiet`) and the
//! Texel tuner of the classical weights (`tune`).

pub mod data;
pub mod datagen;
pub mod quiet;
pub mod tune;
