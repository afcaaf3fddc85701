//! One search thread: iterative deepening over principal variation search.

use super::limits::Limits;
use super::ordering::{
    self, is_tactical, piece_to, Continuation, Heuristics, MovePicker, PIECE_TO,
};
use super::parameters::SearchParams;
use super::score::{
    from_table, is_mate, mate_in, mated_in, to_table, INFINITE, MATE_BOUND, MAX_PLY,
};
use super::tbprobe::TbSearch;
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use crate::board::geometry::TRAPS;
use crate::board::movegen::{count_with, generate_to_with, is_legal_with};
use crate::board::MoveRules;
use crate::board::{Bitboard, Move, MoveList, Position};
use crate::eval::evaluate;
use crate::game::anti_chase::{self, Forbidden, MoveRecord};
use crate::game::Rules;
use crate::nnue::{AccumulatorStack, Network};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// State all threads of one search share.
pub struct SharedState {
    pub stop: AtomicBool,
    /// Set while pondering: the clock does not run until `ponderhit`.
    pub pondering: AtomicBool,
    /// Nodes of each thread, for totals in reports.
    pub nodes: Vec<AtomicU64>,
    /// Tablebase hits of each thread.
    pub tb_hits: Vec<AtomicU64>,
}

impl SharedState {
    pub fn new(threads: usize) -> SharedState {
        SharedState {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            tb_hits: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    pub fn total_tb_hits(&self) -> u64 {
        self.tb_hits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A root move with what the last iterations learned about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub previous_score: i32,
    /// Score shown to the user (the last fully known one).
    pub display_score: i32,
    pub bound: Option<Bound>,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

impl RootMove {
    fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            previous_score: -INFINITE,
            display_score: -INFINITE,
            bound: None,
            seldepth: 0,
            pv: vec![mv],
        }
    }
}

/// Late-move reductions, indexed by depth and move number.
struct Reductions([[i32; 64]; 64]);

impl Reductions {
    fn new(params: &SearchParams) -> Reductions {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (params.lmr_base as f64 / 100.0
                    + (d as f64).ln() * (n as f64).ln() / (params.lmr_divisor as f64 / 100.0))
                    as i32;
            }
        }
        Reductions(t)
    }

    #[inline]
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth as usize).min(63)][moves.min(63)]
    }
}

pub struct Worker<'a, R: MoveRules> {
    pub id: usize,
    tt: &'a TranspositionTable,
    shared: &'a SharedState,
    pub heur: &'a mut Heuristics,
    limits: &'a Limits,
    time: TimeManager,
    /// The search began as a ponder search and its clock has not started yet.
    awaiting_ponderhit: bool,
    rules: Rules,
    /// Moves of the game and of the search path (kept only for the anti-chase rules).
    records: Vec<MoveRecord>,
    move_rules: PhantomData<R>,
    /// Keys of the game so far and of the search path, the current position last.
    keys: Vec<u64>,
    /// Index in `keys` of the root position.
    root_index: usize,
    /// A repetition of a position from before the root (or of the root) is a draw
    /// only at its third occurrence (`SearchOptions::rules_repetition`).
    pub rules_repetition: bool,
    pub nodes: u64,
    pub seldepth: usize,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    pub root_moves: Vec<RootMove>,
    pub pv_index: usize,
    pub completed_depth: i32,
    /// The margins and reduction constants (`parameters.rs`).
    params: SearchParams,
    reductions: Reductions,
    /// The network when the search evaluates with it (`Eval nnue`), else `None`.
    nnue: Option<&'a Network>,
    /// The network's accumulators along the search path, by ply.
    accumulators: AccumulatorStack,
    /// Endgame tables to probe below the root.
    pub tb: Option<&'a TbSearch>,
    pub tb_hits: u64,
    /// The static score at each ply of the search path (for "improving").
    static_evals: [i32; MAX_PLY + 2],
    /// The continuation-history row of the move played at each ply of the search
    /// path (`None` for a null move; kept only with `SearchParams::cont_history`).
    continuation_rows: [Option<usize>; MAX_PLY + 2],
}

impl<'a, R: MoveRules> Worker<'a, R> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        tt: &'a TranspositionTable,
        shared: &'a SharedState,
        heur: &'a mut Heuristics,
        limits: &'a Limits,
        time: TimeManager,
        rules: Rules,
        game_keys: &[u64],
        game_records: &[MoveRecord],
        root_moves: Vec<Move>,
        nnue: Option<&'a Network>,
    ) -> Worker<'a, R> {
        let mut keys = Vec::with_capacity(game_keys.len() + MAX_PLY + 4);
        keys.extend_from_slice(game_keys);
        Worker {
            id,
            tt,
            shared,
            heur,
            limits,
            time,
            awaiting_ponderhit: limits.ponder,
            rules,
            records: if rules.anti_chase {
                game_records.to_vec()
            } else {
                Vec::new()
            },
            move_rules: PhantomData,
            root_index: game_keys.len().saturating_sub(1),
            rules_repetition: false,
            keys,
            nodes: 0,
            seldepth: 0,
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves: root_moves.into_iter().map(RootMove::new).collect(),
            pv_index: 0,
            completed_depth: 0,
            params: SearchParams::DEFAULT,
            reductions: Reductions::new(&SearchParams::DEFAULT),
            nnue,
            accumulators: AccumulatorStack::new(if nnue.is_some() { MAX_PLY + 1 } else { 0 }),
            tb: None,
            tb_hits: 0,
            static_evals: [0; MAX_PLY + 2],
            continuation_rows: [None; MAX_PLY + 2],
        }
    }

    /// Searches with `params` instead of the defaults.
    pub fn set_params(&mut self, params: SearchParams) {
        if params != self.params {
            self.params = params;
            self.reductions = Reductions::new(&params);
        }
        if params.cont_history != 0 {
            self.heur.allocate_continuation();
        }
    }

    /// The continuation history's view of the path to a node at `ply`.
    #[inline]
    fn continuation(&self, ply: usize) -> Continuation {
        let weight = self.params.cont_history;
        if weight == 0 {
            return Continuation::default();
        }
        let up = |k: usize| ply.checked_sub(k).and_then(|p| self.continuation_rows[p]);
        Continuation {
            rows: [up(1), up(2)],
            weight,
        }
    }

    /// Records `m`, played at `ply` in `pos`, for the continuation history of the
    /// plies below (`None`: a null move).
    #[inline]
    fn set_continuation_row(&mut self, ply: usize, pos: &Position, m: Option<Move>) {
        if self.params.cont_history != 0 {
            self.continuation_rows[ply] = m.map(|m| piece_to(pos, m) * PIECE_TO);
        }
    }

    /// The static score of `pos` (at `ply`) for the side to move.
    #[inline]
    fn evaluate(&self, pos: &Position, ply: usize) -> i32 {
        match self.network_for(pos) {
            Some(net) => net.evaluate(
                self.accumulators.at(ply),
                pos.side_to_move(),
                pos.all_occupied().count(),
            ),
            None => evaluate(pos),
        }
    }

    /// The network when it evaluates `pos` and the positions below it: below
    /// `MIN_ANIMALS` it is not asked, and no move adds an animal, so from such a
    /// position on no accumulator is read again and none is kept up to date.
    #[inline]
    fn network_for(&self, pos: &Position) -> Option<&'a Network> {
        self.nnue
            .filter(|_| pos.all_occupied().count() >= crate::nnue::MIN_ANIMALS)
    }

    /// Brings the accumulator of ply `ply + 1` up to date with `m` played in `pos`
    /// (when the network is used there: `network_for`).
    #[inline]
    fn update_accumulator(&mut self, pos: &Position, m: Move, ply: usize) {
        if let Some(net) = self.network_for(pos) {
            self.accumulators.push_move(net, ply, pos, m);
        }
    }

    pub fn time(&self) -> &TimeManager {
        &self.time
    }

    /// Whether the clock runs: not while pondering. The first call after `ponderhit`
    /// starts the clock, so a ponder search that is hit gets its whole budget.
    pub(super) fn clock_running(&mut self) -> bool {
        if self.shared.pondering.load(Ordering::Relaxed) {
            return false;
        }
        if self.awaiting_ponderhit {
            self.awaiting_ponderhit = false;
            self.time.restart(crate::clock::Instant::now());
        }
        true
    }

    pub fn shared_state(&self) -> &SharedState {
        self.shared
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Counts a node at `ply`, unless the search must stop: returns true to stop.
    /// The node limit is checked before counting, so a one-thread search visits exactly
    /// `nodes` nodes; the clock is read every 1024 nodes (main thread only).
    #[inline]
    fn visit(&mut self, ply: usize) -> bool {
        if self.id == 0 {
            if let Some(limit) = self.limits.nodes {
                if self.nodes >= limit {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.shared.stopped() {
            return true;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.id == 0 && self.clock_running() && self.time.out_of_time() {
                self.shared.stop.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }

    /// Records a move made on the search path.
    #[inline]
    fn push_move(&mut self, pos: &Position, m: Move, child_key: u64) {
        self.keys.push(child_key);
        if self.rules.anti_chase {
            self.records.push(MoveRecord::of(pos, m));
        }
    }

    #[inline]
    fn pop_move(&mut self) {
        self.keys.pop();
        if self.rules.anti_chase {
            self.records.pop();
        }
    }

    /// Moves the anti-chase rules forbid here (none unless they are on).
    #[inline]
    fn forbidden(&self, pos: &Position) -> Option<Forbidden> {
        if self.rules.anti_chase {
            Some(anti_chase::forbidden::<R>(pos, &self.records)).filter(|f| !f.is_empty())
        } else {
            None
        }
    }

    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.shared.tb_hits[self.id].store(self.tb_hits, Ordering::Relaxed);
    }

    /// The tablebase score of a position with few enough animals.
    #[inline]
    fn probe_tb(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let score = self.tb?.score(pos, ply)?;
        self.tb_hits += 1;
        Some(score)
    }

    /// The position repeats an earlier one with the same side to move since the last
    /// capture (a repetition inside the search is scored as a draw at once). With
    /// `rules_repetition`, one of a position from before the root (or of the root)
    /// only when it is the occurrence the rules draw at.
    #[inline]
    fn is_repetition(&self, pos: &Position) -> bool {
        let n = self.keys.len();
        let window = (pos.halfmove_clock() as usize).min(n - 1);
        let key = pos.key();
        let needed = usize::from(self.rules.draw.repetitions).max(2);
        let mut earlier = 0;
        let mut i = 2;
        while i <= window {
            let j = n - 1 - i;
            if self.keys[j] == key {
                if !self.rules_repetition || j > self.root_index {
                    return true;
                }
                earlier += 1;
                if earlier + 1 >= needed {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// Draw by the rules in force (repetition, no-capture count), for a node with moves.
    #[inline]
    fn is_draw(&self, pos: &Position) -> bool {
        let draw = self.rules.draw;
        (draw.repetitions > 0 && self.is_repetition(pos))
            || (draw.no_capture_plies > 0
                && pos.halfmove_clock() >= draw.no_capture_plies
                && count_with::<R>(pos) > 0)
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - ply - 1);
        self.pv[ply][0] = Some(m);
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// The principal variation at `ply` is the den entry from `from`.
    fn update_pv_with_den_entry(
        &mut self,
        ply: usize,
        from: crate::board::Square,
        enemy: crate::board::Color,
    ) {
        self.pv_len[ply + 1] = 0;
        let den = crate::board::geometry::DEN[enemy.index()];
        self.update_pv(ply, Move::new(from, den));
    }

    /// Searches the root moves `root_moves[pv_index..]` to `depth` in the window.
    pub fn search_root(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[0] = 0;
        let mut best = -INFINITE;
        let in_check =
            (pos.occupied(pos.side_to_move().other()) & TRAPS[pos.side_to_move().index()]).any();
        // The only full refresh of the accumulators: every other ply is updated.
        if let Some(net) = self.nnue {
            self.accumulators.refresh_root(net, pos);
        }
        for i in self.pv_index..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.visit(1) {
                return best;
            }
            let mut child = *pos;
            child.play(m);
            self.update_accumulator(pos, m, 0);
            self.push_move(pos, m, child.key());
            self.set_continuation_row(0, pos, Some(m));
            let new_depth = depth - 1 + in_check as i32;
            let score = if i == self.pv_index {
                -self.negamax(&child, new_depth, -beta, -alpha, 1, true, true)
            } else {
                let s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, 1, false, true);
                if s > alpha && s < beta {
                    -self.negamax(&child, new_depth, -beta, -alpha, 1, true, true)
                } else {
                    s
                }
            };
            self.pop_move();
            if self.shared.stopped() {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.bound = if score >= beta {
                    Some(Bound::Lower)
                } else if score <= alpha {
                    Some(Bound::Upper)
                } else {
                    None
                };
                rm.display_score = score;
                rm.pv.clear();
                rm.pv.push(m);
                let len = self.pv_len[1];
                rm.pv.extend(self.pv[1][..len].iter().flatten());
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        null_allowed: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        let us = pos.side_to_move();
        let them = us.other();

        // The previous move ended the game: den entered or our last animal taken.
        if pos.is_over_on_board() {
            return mated_in(ply);
        }
        // An animal on an enemy trap stands next to the enemy den and enters it now.
        if let Some(from) = (pos.occupied(us) & TRAPS[them.index()]).first() {
            if pv_node {
                self.update_pv_with_den_entry(ply, from, them);
            }
            return mate_in(ply + 1);
        }
        if self.is_draw(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if let Some(score) = self.probe_tb(pos, ply) {
            return score;
        }

        // An enemy animal on one of our traps enters our den next move unless taken:
        // like check in chess, the only defences are capturing it.
        let checkers = pos.occupied(them) & TRAPS[us.index()];
        let in_check = checkers.any();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, 0);
        }

        if self.visit(ply) {
            return 0;
        }

        let forbidden = self.forbidden(pos);
        let key = pos.key();
        let hit = self.tt.probe(key);
        let hash_move = hit.and_then(|h| h.mv).filter(|&m| {
            is_legal_with::<R>(pos, m)
                && !forbidden.is_some_and(|f| f.forbids(pos.mover(m), m.to()))
        });
        if let Some(h) = hit {
            let score = from_table(h.score, ply);
            if !pv_node
                && h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::None => false,
                }
            {
                return score;
            }
        }
        let static_eval = match hit {
            Some(h) => h.eval,
            None => self.evaluate(pos, ply),
        };
        self.static_evals[ply] = static_eval;
        // The side to move stands better than two plies ago: prune less, reduce less.
        let improving = !in_check && ply >= 2 && static_eval > self.static_evals[ply - 2];
        // The table's score bounds the true score better than the static one does.
        let eval = match hit {
            Some(h) if !is_mate(h.score) => {
                let score = from_table(h.score, ply);
                match h.bound {
                    Bound::Exact => score,
                    Bound::Lower if score > static_eval => score,
                    Bound::Upper if score < static_eval => score,
                    _ => static_eval,
                }
            }
            _ => static_eval,
        };

        let p = self.params;
        if !pv_node && !in_check && !is_mate(beta) {
            // Both prunings below trust the evaluation, which knows nothing of "the
            // side to move has no legal move: it loses"; they check for a move first.
            // Reverse futility: far above beta at low depth.
            if depth <= p.rfp_max_depth
                && eval - p.rfp_margin * (depth - improving as i32) >= beta
                && count_with::<R>(pos) > 0
            {
                return eval;
            }
            // Null move: give the opponent a free move; if we still stand above beta,
            // this node is good enough. Off with few animals (moving can be a burden).
            if null_allowed
                && !self.rules.anti_chase
                && depth >= p.nmp_min_depth
                && eval >= beta
                && pos.animal_count(us) >= 3
                && count_with::<R>(pos) > 0
            {
                let r = p.nmp_base
                    + depth / p.nmp_depth_divisor
                    + ((eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max);
                let mut child = *pos;
                child.play_null();
                if self.network_for(pos).is_some() {
                    self.accumulators.push_null(ply);
                }
                self.keys.push(child.key());
                self.set_continuation_row(ply, pos, None);
                let score =
                    -self.negamax(&child, depth - r, -beta, -beta + 1, ply + 1, false, false);
                self.keys.pop();
                if self.shared.stopped() {
                    return 0;
                }
                if score >= beta {
                    return if is_mate(score) { beta } else { score };
                }
            }
        }

        // In check, only captures of the animals on our traps can stop the den entry.
        let targets = if in_check { checkers } else { Bitboard::ALL };
        let continuation = self.continuation(ply);
        let mut picker = MovePicker::new(hash_move, targets, forbidden, continuation);
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried = MoveList::new();
        let mut moves_seen = 0;

        while let Some(m) = picker.next::<R>(pos, self.heur, ply) {
            let i = moves_seen;
            moves_seen += 1;
            let tactical = is_tactical(pos, m);

            if !pv_node && !in_check && !tactical && best_score > -MATE_BOUND {
                // Late move pruning: at low depth, the quiet moves ordered last rarely
                // help, and less so when the side to move is not improving.
                let late = if improving {
                    p.lmp_improving_base + p.lmp_improving_scale * depth * depth
                } else {
                    p.lmp_base + p.lmp_scale * depth * depth
                };
                if depth <= p.lmp_max_depth && i >= late as usize {
                    continue;
                }
                // Futility: a quiet move cannot lift a score far below alpha at low depth.
                if depth <= p.futility_max_depth
                    && eval + p.futility_base + p.futility_scale * depth <= alpha
                {
                    continue;
                }
            }

            let mut child = *pos;
            child.play(m);
            self.tt.prefetch(child.key());
            self.update_accumulator(pos, m, ply);
            self.push_move(pos, m, child.key());
            self.set_continuation_row(ply, pos, Some(m));

            let new_depth = depth - 1;
            let score = if i == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, pv_node, true)
            } else {
                // Late move reductions for quiet moves.
                let mut r = 0;
                if depth >= p.lmr_min_depth && !tactical && !in_check {
                    r = self.reductions.get(depth, i + 1);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if Some(m) == self.heur.killers[ply][0] || Some(m) == self.heur.killers[ply][1]
                    {
                        r -= 1;
                    }
                    r -= (self.heur.history(pos, m)
                        + self.heur.continuation_score(&continuation, pos, m))
                        / p.lmr_history_divisor;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(
                    &child,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false, true);
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true, true);
                }
                s
            };
            self.pop_move();
            if self.shared.stopped() {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if alpha >= beta {
                        if !tactical {
                            let bonus = p.history_bonus(depth);
                            self.heur.reward_quiet(
                                pos,
                                m,
                                &quiets_tried,
                                bonus,
                                ply,
                                &continuation,
                            );
                        }
                        break;
                    }
                }
            }
            if !tactical {
                quiets_tried.push(m);
            }
        }

        if moves_seen == 0 {
            // No move at all: "the side to move has no legal move: it loses". In check
            // with no capture of the intruder: the den falls next move.
            return if in_check && count_with::<R>(pos) > 0 {
                mated_in(ply + 2)
            } else {
                mated_in(ply)
            };
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_table(best_score, ply),
            static_eval,
            depth,
            bound,
        );
        best_score
    }

    /// Quiescence: captures, and at the first level moves that threaten the den, until
    /// the position is quiet; an animal on our trap must be taken.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        if self.visit(ply) {
            return 0;
        }
        let us = pos.side_to_move();
        let them = us.other();
        if pos.is_over_on_board() {
            return mated_in(ply);
        }
        if (pos.occupied(us) & TRAPS[them.index()]).any() {
            return mate_in(ply + 1);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        if let Some(score) = self.probe_tb(pos, ply) {
            return score;
        }
        let checkers = pos.occupied(them) & TRAPS[us.index()];
        let in_check = checkers.any();

        let mut best = -INFINITE;
        if !in_check {
            // A side with few animals may be blocked: no legal move loses, whatever the
            // static score says. (With more animals a full block is too rare to pay
            // for the count at every node.)
            if pos.animal_count(us) <= 3 && count_with::<R>(pos) == 0 {
                return mated_in(ply);
            }
            let stand_pat = self.evaluate(pos, ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }

        // Forcing moves only: captures of the animals on our traps when they threaten
        // the den; otherwise captures, and at the first level steps onto enemy traps.
        let targets = if in_check {
            checkers
        } else if qdepth == 0 {
            pos.occupied(them) | TRAPS[them.index()]
        } else {
            pos.occupied(them)
        };
        let mut forcing = MoveList::new();
        generate_to_with::<R>(pos, targets, &mut forcing);
        if self.rules.anti_chase {
            if let Some(forbidden) = self.forbidden(pos) {
                forcing.retain(|&m| !forbidden.forbids(pos.mover(m), m.to()));
            }
        }
        if in_check && forcing.is_empty() {
            // The den falls next move, unless we have no move at all (lost now).
            return if count_with::<R>(pos) == 0 {
                mated_in(ply)
            } else {
                mated_in(ply + 2)
            };
        }

        ordering::order(pos, &mut forcing, self.heur, ply);
        for &m in forcing.iter() {
            let mut child = *pos;
            child.play(m);
            self.update_accumulator(pos, m, ply);
            self.push_move(pos, m, child.key());
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, qdepth + 1);
            self.pop_move();
            if self.shared.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
