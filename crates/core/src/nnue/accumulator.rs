//! Accumulators: the hidden layer's sums before activation, one row per perspective,
//! updated incrementally as moves are played.
//!
//! A move changes at most three inputs per perspective (the mover leaves its square,
//! arrives on another, and the animal there, if any, is captured), so a child's
//! accumulator is its parent's plus one row minus one or two: about `3 · HIDDEN`
//! additions per perspective instead of `16 · HIDDEN` for a refresh. The loops run
//! over fixed-size arrays so that LLVM turns them into vector code on stable Rust.

use super::features;
use super::network::{Network, Row};
use super::HIDDEN;
use crate::board::{Animal, Color, Move, Position, Square};

/// `[Red's row, Blue's row]` (indexed by `Color::index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator(pub [Row; 2]);

impl Accumulator {
    /// The accumulator of `pos` computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator([net.ft_bias; 2]);
        for color in Color::BOTH {
            for animal in Animal::ALL {
                if let Some(sq) = pos.square_of(color, animal) {
                    for p in Color::BOTH {
                        let row = &net.ft_weights[features::index(p, color, animal, sq)];
                        add_assign(&mut acc.0[p.index()], row);
                    }
                }
            }
        }
        acc
    }

    /// Writes into `child` the accumulator after `m` is played in `pos`, whose
    /// accumulator is `self`.
    ///
    /// On x86-64 CPUs with AVX2 the same code runs compiled for AVX2 (chosen at run
    /// time), elsewhere the baseline build.
    #[inline]
    pub fn apply_move(&self, net: &Network, pos: &Position, m: Move, child: &mut Accumulator) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.apply_move_avx2(net, pos, m, child) };
        }
        self.apply_move_generic(net, pos, m, child)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_move_avx2(
        &self,
        net: &Network,
        pos: &Position,
        m: Move,
        child: &mut Accumulator,
    ) {
        self.apply_move_generic(net, pos, m, child)
    }

    #[inline(always)]
    fn apply_move_generic(&self, net: &Network, pos: &Position, m: Move, child: &mut Accumulator) {
        let us = pos.side_to_move();
        let mover = pos.mover(m);
        let victim = pos.captured_by(m);
        for p in Color::BOTH {
            let row = |c: Color, a: Animal, s: Square| &net.ft_weights[features::index(p, c, a, s)];
            let (from, to) = (row(us, mover, m.from()), row(us, mover, m.to()));
            let (parent, out) = (&self.0[p.index()], &mut child.0[p.index()]);
            match victim {
                None => add_sub(out, parent, to, from),
                Some(v) => add_sub_sub(out, parent, to, from, row(us.other(), v, m.to())),
            }
        }
    }
}

/// `acc += row`. Wrapping: every true accumulator fits an `i16` (checked when a file is
/// loaded), and wrapping arithmetic is exact modulo 2¹⁶, so intermediate sums need not.
#[inline(always)]
fn add_assign(acc: &mut Row, row: &Row) {
    for i in 0..HIDDEN {
        acc.0[i] = acc.0[i].wrapping_add(row.0[i]);
    }
}

/// `out = parent + add - sub`.
#[inline(always)]
fn add_sub(out: &mut Row, parent: &Row, add: &Row, sub: &Row) {
    for i in 0..HIDDEN {
        out.0[i] = parent.0[i].wrapping_add(add.0[i]).wrapping_sub(sub.0[i]);
    }
}

/// `out = parent + add - sub1 - sub2`.
#[inline(always)]
fn add_sub_sub(out: &mut Row, parent: &Row, add: &Row, sub1: &Row, sub2: &Row) {
    for i in 0..HIDDEN {
        out.0[i] = parent.0[i]
            .wrapping_add(add.0[i])
            .wrapping_sub(sub1.0[i])
            .wrapping_sub(sub2.0[i]);
    }
}

/// One accumulator per ply of the search path: ply 0 is refreshed at the root, each
/// child computed from its parent when its move is played.
pub struct AccumulatorStack {
    stack: Vec<Accumulator>,
}

impl AccumulatorStack {
    /// A stack for plies `0..=max_ply`.
    pub fn new(max_ply: usize) -> AccumulatorStack {
        AccumulatorStack {
            stack: vec![Accumulator([Row::ZERO; 2]); max_ply + 1],
        }
    }

    /// Refreshes ply 0 from the root position.
    pub fn refresh_root(&mut self, net: &Network, root: &Position) {
        self.stack[0] = Accumulator::refresh(net, root);
    }

    /// Sets ply `ply + 1` to the accumulator after `m` is played in `pos` (at `ply`).
    #[inline]
    pub fn push_move(&mut self, net: &Network, ply: usize, pos: &Position, m: Move) {
        let (done, rest) = self.stack.split_at_mut(ply + 1);
        done[ply].apply_move(net, pos, m, &mut rest[0]);
    }

    /// Sets ply `ply + 1` after a null move (no animal moves: the same sums).
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.stack[ply + 1] = self.stack[ply];
    }

    #[inline]
    pub fn at(&self, ply: usize) -> &Accumulator {
        &self.stack[ply]
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::nnue::network::Activation;
    use crate::nnue::INPUTS;

    /// A network with pseudo-random weights in the allowed range.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut state = seed | 1;
        let mut next = move |range: i32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % (2 * range as u64 + 1)) as i32 - range
        };
        let mut net = Network::zeros(8, Activation::SCReLU, 400);
        for r in net.ft_weights.iter_mut().chain([&mut net.ft_bias]) {
            for w in r.0.iter_mut() {
                *w = next(500) as i16;
            }
        }
        for r in net.out_weights.iter_mut().flatten() {
            for w in r.0.iter_mut() {
                *w = next(127) as i16;
            }
        }
        for b in &mut net.out_bias {
            *b = next(20_000);
        }
        assert_eq!(net.ft_weights.len(), INPUTS);
        net
    }

    #[test]
    fn incremental_updates_match_a_refresh_along_random_games() {
        let net = random_network(7);
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut stack = AccumulatorStack::new(400);
        let mut captures = 0;
        for _game in 0..40 {
            let mut pos = Position::startpos();
            stack.refresh_root(&net, &pos);
            for ply in 0..300 {
                let moves = legal_moves(&pos);
                if moves.is_empty() || pos.is_over_on_board() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let m = moves[(rng % moves.len() as u64) as usize];
                captures += pos.is_capture(m) as u32;
                if rng % 11 == 0 {
                    // A null move now and then, as the search plays them.
                    stack.push_null(ply);
                    pos.play_null();
                } else {
                    stack.push_move(&net, ply, &pos, m);
                    pos.play(m);
                }
                assert_eq!(
                    *stack.at(ply + 1),
                    Accumulator::refresh(&net, &pos),
                    "{pos:?}"
                );
                let eval = net.evaluate(
                    stack.at(ply + 1),
                    pos.side_to_move(),
                    pos.all_occupied().count(),
                );
                assert_eq!(eval, net.evaluate_position(&pos));
            }
        }
        assert!(
            captures > 100,
            "the games must exercise captures: {captures}"
        );
    }
}
