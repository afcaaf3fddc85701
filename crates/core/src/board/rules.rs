//! The rule set the move generator is compiled for.
//!
//! Every rule that changes which moves exist lives behind the `MoveRules` trait, so a
//! variant is an implementor and the generator is monomorphised for each: the default
//! rules pay nothing for the variants they do not use. `MoveRuleFlags` is the same
//! choice at run time, and `with_move_rules!` turns it into the compiled generator.
//! Rules that only decide when a game ends (draw counters, anti-chase) live in
//! `crate::game`.

/// Compile-time description of how animals move and capture.
pub trait MoveRules: Copy + Send + Sync + Default + 'static {
    /// Seed 004's variant: the dog may enter water like the rat. A dog in water takes
    /// nothing on land and cannot be taken from land; in water it may take the enemy
    /// rat or dog; it blocks river jumps as a rat does.
    const DOG_SWIMS: bool = false;
    /// Seed 003's reading: an animal on an enemy trap cannot capture while it stands
    /// there.
    const TRAPPED_LOSE_ATTACK: bool = false;
}

/// The rules written down in `protocol.md`: only the rat swims; lion and tiger jump the
/// rivers unless a rat is in the way; any animal in an enemy trap can be taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standard;
impl MoveRules for Standard {}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DogSwims;
impl MoveRules for DogSwims {
    const DOG_SWIMS: bool = true;
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrappedLoseAttack;
impl MoveRules for TrappedLoseAttack {
    const TRAPPED_LOSE_ATTACK: bool = true;
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DogSwimsTrappedLoseAttack;
impl MoveRules for DogSwimsTrappedLoseAttack {
    const DOG_SWIMS: bool = true;
    const TRAPPED_LOSE_ATTACK: bool = true;
}

/// The move rules chosen at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveRuleFlags {
    pub dog_swims: bool,
    pub trapped_lose_attack: bool,
}

/// Runs `$body` with `$R` bound to the compiled rule set matching `$flags`.
#[macro_export]
macro_rules! with_move_rules {
    ($flags:expr, $R:ident => $body:expr) => {{
        let flags: $crate::board::rules::MoveRuleFlags = $flags;
        match (flags.dog_swims, flags.trapped_lose_attack) {
            (false, false) => {
                type $R = $crate::board::rules::Standard;
                $body
            }
            (true, false) => {
                type $R = $crate::board::rules::DogSwims;
                $body
            }
            (false, true) => {
                type $R = $crate::board::rules::TrappedLoseAttack;
                $body
            }
            (true, true) => {
                type $R = $crate::board::rules::DogSwimsTrappedLoseAttack;
                $body
            }
        }
    }};
}
