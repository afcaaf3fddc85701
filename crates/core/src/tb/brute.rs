//! A brute-force AND-OR search for `verify` and the tests, independent of the tablebase code: it
//! knows only the rules core (move generation, making moves, the end of the game).
//!
//! `wins_within(p, k)`: the side to move can force the end of the game in its favour
//! within `k` plies. `loses_within(p, k)`: the opponent can. The no-capture rule
//! variants (`*_rule`) treat a capture as the end of the count: it wins (or loses)
//! when the position it leads to is won (lost) within the whole rule from a count of 0,
//! which the same search decides in the smaller position.

use crate::board::movegen::generate_with;
use crate::board::{MoveList, MoveRules, Position, Standard};
use std::collections::HashMap;
use std::marker::PhantomData;

pub struct Brute<R: MoveRules = Standard> {
    memo: HashMap<(u64, u32, u8), bool>,
    /// The no-capture rule for the `_rule` searches (the tests' DTZ check).
    #[cfg_attr(not(test), allow(dead_code))]
    pub rule: u32,
    _rules: PhantomData<R>,
}

impl<R: MoveRules> Brute<R> {
    pub fn new(rule: u32) -> Brute<R> {
        Brute {
            memo: HashMap::new(),
            rule,
            _rules: PhantomData,
        }
    }

    fn moves(pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        generate_with::<R>(pos, &mut list);
        list
    }

    pub fn wins_within(&mut self, pos: &Position, k: u32) -> bool {
        if k == 0 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(pos.key(), k, 0)) {
            return v;
        }
        let mut result = false;
        for &m in Self::moves(pos).iter() {
            let mut child = *pos;
            child.play(m);
            if child.is_over_on_board() || self.loses_within(&child, k - 1) {
                result = true;
                break;
            }
        }
        self.memo.insert((pos.key(), k, 0), result);
        result
    }

    pub fn loses_within(&mut self, pos: &Position, k: u32) -> bool {
        let moves = Self::moves(pos);
        if moves.is_empty() {
            return true;
        }
        if k < 2 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(pos.key(), k, 1)) {
            return v;
        }
        let mut result = true;
        for &m in moves.iter() {
            let mut child = *pos;
            child.play(m);
            if child.is_over_on_board() || !self.wins_within(&child, k - 1) {
                result = false;
                break;
            }
        }
        self.memo.insert((pos.key(), k, 1), result);
        result
    }
}

/// The searches under the no-capture rule (the tests' DTZ check).
#[cfg(test)]
impl<R: MoveRules> Brute<R> {
    /// Won within the no-capture rule from a count of 0 (the whole rule's plies).
    pub fn rule_win(&mut self, pos: &Position) -> bool {
        self.wins_within_rule(pos, self.rule)
    }

    pub fn rule_loss(&mut self, pos: &Position) -> bool {
        self.loses_within_rule(pos, self.rule)
    }

    /// The side to move can force, within `k` plies, a win or a capture into a
    /// position it wins within the rule.
    pub fn wins_within_rule(&mut self, pos: &Position, k: u32) -> bool {
        if k == 0 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(pos.key(), k, 2)) {
            return v;
        }
        let mut result = false;
        for &m in Self::moves(pos).iter() {
            let capture = pos.is_capture(m);
            let mut child = *pos;
            child.play(m);
            let good = if child.is_over_on_board() {
                true
            } else if capture {
                self.rule_loss(&child)
            } else {
                self.loses_within_rule(&child, k - 1)
            };
            if good {
                result = true;
                break;
            }
        }
        self.memo.insert((pos.key(), k, 2), result);
        result
    }

    pub fn loses_within_rule(&mut self, pos: &Position, k: u32) -> bool {
        let moves = Self::moves(pos);
        if moves.is_empty() {
            return true;
        }
        if k == 0 {
            return false;
        }
        if let Some(&v) = self.memo.get(&(pos.key(), k, 3)) {
            return v;
        }
        let mut result = true;
        for &m in moves.iter() {
            let capture = pos.is_capture(m);
            let mut child = *pos;
            child.play(m);
            let bad = if child.is_over_on_board() {
                false
            } else if capture {
                self.rule_win(&child)
            } else {
                k >= 2 && self.wins_within_rule(&child, k - 1)
            };
            if !bad {
                result = false;
                break;
            }
        }
        self.memo.insert((pos.key(), k, 3), result);
        result
    }
}
