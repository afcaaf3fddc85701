//! Training the evaluation: the Texel tuner of the classical weights (`tune`).

pub mod tune;
