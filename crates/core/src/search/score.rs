//! Search scores and their display.
//!
//! A win found `n` plies from the root scores `MATE - n`, a loss `-MATE + n`. Entering
//! the enemy den, taking the last enemy animal and leaving the opponent without a move
//! are all mates.

/// Score of a won position at the root (never reached: a win takes at least one ply).
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITE: i32 = 31_000;
/// Longest line the search follows.
pub const MAX_PLY: usize = 128;

/// The side to move wins with its move at `ply` (so the game ends at `ply + 1`).
#[inline]
pub const fn mate_in(plies_from_root: usize) -> i32 {
    MATE - plies_from_root as i32
}

/// The side to move has lost at `ply`.
#[inline]
pub const fn mated_in(plies_from_root: usize) -> i32 {
    -MATE + plies_from_root as i32
}

#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Mate scores are stored in the table relative to the node, not the root.
#[inline]
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as the protocol prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like evaluation from the side to move's view.
    Cp(i32),
    /// Win (positive) or loss (negative) in this many moves of the winner.
    Mate(i32),
}

impl Score {
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            let plies = MATE - score;
            Score::Mate((plies + 1) / 2)
        } else if score <= -MATE_BOUND {
            let plies = MATE + score;
            Score::Mate(-(plies / 2).max(1))
        } else {
            Score::Cp(score)
        }
    }
}

impl Score {
    /// The score as one number on the search's scale: centipawns, a mate in `n` of
    /// the side to move as `MATE - (2n - 1)` plies, a mate against it in `n` as
    /// `-MATE + 2n`. The inverse of `from_internal` up to the plies a move count
    /// hides; how scores read from `info` lines and reviews are compared.
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
            Score::Mate(n) => -MATE + 2 * n.saturating_abs().max(1),
        }
    }
}

/// Whether a reported score is exact, or only a bound (an aspiration window failed:
/// the true score is at least, or at most, this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ScoreBound {
    #[default]
    Exact,
    Lower,
    Upper,
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(mate_in(5)), Score::Mate(3));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(-1));
        assert_eq!(Score::from_internal(37), Score::Cp(37));
        assert_eq!(Score::from_internal(mate_in(1)).to_string(), "mate 1");
    }

    #[test]
    fn internal_scores_round_trip_through_move_counts() {
        for s in [
            mate_in(1),
            mate_in(3),
            mated_in(2),
            mated_in(4),
            0,
            250,
            -17,
        ] {
            assert_eq!(Score::from_internal(s).to_internal(), s, "{s}");
        }
        // An even distance to a win reads as the next odd one: mate in 1 move.
        assert_eq!(Score::from_internal(mate_in(2)).to_internal(), mate_in(1));
        assert_eq!(Score::Mate(2).to_internal(), 30_000 - 3);
        assert_eq!(Score::Mate(-1).to_internal(), -30_000 + 2);
        assert_eq!(Score::Mate(0).to_internal(), -30_000 + 2);
    }

    #[test]
    fn table_adjustment_round_trips() {
        for s in [mate_in(7), mated_in(9), 0, 250, -250] {
            assert_eq!(from_table(to_table(s, 5), 5), s);
        }
        assert_eq!(to_table(mate_in(7), 5), mate_in(2));
    }
}
