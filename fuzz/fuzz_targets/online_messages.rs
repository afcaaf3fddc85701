//! The online server's message handling (`jungle_online::messages`): each line a
//! client's message from a seat (or none) at a later time, read into a type or
//! refused, then decided by the game model and folded in. Checks: nothing panics, and
//! the game's log replays to the same state.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| jungle_online::messages::exercise(data));
