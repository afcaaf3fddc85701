//! Training the evaluation: the training data format (`data`) and the Texel tuner of
//! the classical weights (`tune`).

pub mod data;
pub mod tune;
