//! The rule set the move generator is compiled for.
//!
//! Every rule that changes which moves exist lives behind this trait, so that a variant
//! is a new implementor and the generator is monomorphised for each: the default rules
//! pay nothing for variants they do not use. Rules that only decide when a game ends
//! (draw counters) are runtime settings of `crate::game::DrawRules`.

/// Compile-time description of how animals move and capture.
pub trait MoveRules: Copy + Send + Sync + Default + 'static {
    /// Name used by `UCI_Variant` and shown by `d`.
    const NAME: &'static str;
}

/// The rules written down in `protocol.md`: only the rat swims; lion and tiger jump the
/// rivers unless a rat is in the way; any animal in an enemy trap can be taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standard;

impl MoveRules for Standard {
    const NAME: &'static str = "jungle";
}
