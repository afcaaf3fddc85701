//! Training the evaluation: the training data format (`data`), the quiet-position
//! filter (`quiet`) and the Texel tuner of the classical weights (`tune`).

pub mod data;
pub mod quiet;
pub mod tune;
