//! The project's one small random generator: SplitMix64 (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", 2014). Data generation, opening books,
//! training, the greedy player, weakened play and the tests all draw from it, so that
//! a seed means the same stream everywhere. It is owned here rather than taken from a
//! crate because the files it makes (training data, books) are to be made again byte
//! for byte from the commands that made them: its stream must never change.
//!
//! It is not for cryptography. `below` reduces by a modulo, whose bias (at most n/2^64)
//! no use here can see.

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// The stream of `seed` (any value, 0 included).
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A stream that differs from run to run (the clock, the process).
    pub fn from_time() -> Rng {
        Rng(crate::clock::seed_bits())
    }

    /// Where the stream stands: `Rng::new(state)` goes on from here.
    pub const fn state(&self) -> u64 {
        self.0
    }

    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        finalise(self.0)
    }

    /// A number in `0..n` (`n` ≥ 1; 0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// A number in [0, 1), with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in [0, 1), with 24 random bits.
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// SplitMix64's output function: every output bit depends on every input bit, so
/// nearby inputs (a counter, a clock reading) give unrelated values.
const fn finalise(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A well-mixed value of `seed` and two numbers: a reproducible draw for each (a, b)
/// without a shared stream (an epoch's shuffle, a game of a run).
pub fn mix(seed: u64, a: u64, b: u64) -> u64 {
    Rng::new(seed ^ a.wrapping_mul(GAMMA) ^ b.rotate_left(29)).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs of SplitMix64 seeded with 1234567 (the reference values of
        // the algorithm's published C code).
        let mut rng = Rng::new(1_234_567);
        let expected = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[test]
    fn draws_stay_in_range_and_spread() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 10];
        for _ in 0..10_000 {
            seen[rng.below(10)] += 1;
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            assert!((0.0..1.0).contains(&rng.unit_f32()));
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
        assert_ne!(mix(1, 2, 3), mix(1, 3, 2));
    }
}
