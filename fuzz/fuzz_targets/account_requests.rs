//! The account and puzzle-rating requests of the online server
//! (`jungle_online::requests_fuzz`): the first byte chooses the request (sign-up or
//! log-in, password change or deletion, a puzzle attempt, the next puzzle's query,
//! the ratings of an attempt), the rest is its body. Checks: nothing panics, a rating
//! in an attempt is refused, usernames normalise stably, ratings stay in bounds.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jungle_online::requests_fuzz::exercise(data));
