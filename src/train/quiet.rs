//! Which positions a static evaluation should be fitted to: quiet ones.

use crate::board::geometry::TRAPS;
use crate::board::movegen::generate_to_with;
use crate::board::{Color, MoveList, Position};
use crate::game::Rules;
use crate::with_move_rules;

/// The evaluation is meaningful here: no animal stands on an enemy trap (next to the
/// enemy den, a win or a forced capture), and the side to move has no capture (the
/// static score would miss the exchange). Animals on their own traps are fine: that
/// is where defenders stand.
pub fn is_quiet(pos: &Position, rules: Rules) -> bool {
    let intruders = (pos.occupied(Color::Red) & TRAPS[Color::Blue.index()])
        | (pos.occupied(Color::Blue) & TRAPS[Color::Red.index()]);
    if intruders.any() {
        return false;
    }
    let enemies = pos.occupied(pos.side_to_move().other());
    let mut captures = MoveList::new();
    with_move_rules!(rules.moves, R => generate_to_with::<R>(pos, enemies, &mut captures));
    captures.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(fen: &str) -> bool {
        is_quiet(&Position::from_fen(fen).expect("valid"), Rules::default())
    }

    #[test]
    fn captures_and_trap_intruders_are_not_quiet() {
        assert!(quiet("l6/7/7/7/7/7/7/7/6L r"));
        // The red dog on a4 can take the blue cat on a5; the cat cannot take the dog.
        assert!(!quiet("l6/7/7/7/c6/D6/7/7/6L r"));
        assert!(quiet("l6/7/7/7/c6/D6/7/7/6L b"));
        // A red rat on Blue's trap d8, one step from the den, for either side to move.
        assert!(!quiet("l6/3R3/7/7/7/7/7/7/6L b"));
        assert!(!quiet("l6/3R3/7/7/7/7/7/7/6L r"));
        // A red dog on its own trap d2 is a defender.
        assert!(quiet("l6/7/7/7/7/7/7/3D3/6L r"));
    }
}
