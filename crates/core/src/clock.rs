//! The engine's clock: `std::time::Instant` where the platform has one, and in
//! WebAssembly (`wasm32-unknown-unknown`, where `Instant::now` panics) an instant read
//! from the host page's `performance.now()`, which the module imports as
//! `env.jungle_now_ms` (the web crate's glue provides it). The search, the bench and
//! the table builder take their time from here and nowhere else.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use self::wasm::Instant;

/// Bits that differ from one call to the next and from one run to the next: the seed
/// of weakened play's random choices (mixed further by the caller).
#[cfg(not(target_arch = "wasm32"))]
pub fn seed_bits() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x1234_5678, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id())
}

#[cfg(target_arch = "wasm32")]
pub fn seed_bits() -> u64 {
    wasm::now_ms().to_bits()
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds from a fixed start, never going back (`performance.now()`).
        fn jungle_now_ms() -> f64;
    }

    pub fn now_ms() -> f64 {
        // SAFETY: an import without arguments that returns a number; the web crate's
        // glue defines it as `() => performance.now()`.
        unsafe { jungle_now_ms() }
    }

    /// A moment, in milliseconds on the host's monotonic clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            Instant(now_ms())
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// The time from `earlier` to this moment (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }

        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            Some(*self + d)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0 - d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
