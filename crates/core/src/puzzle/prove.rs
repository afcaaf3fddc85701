//! Exact proofs of forced wins within a number of moves: the puzzles' uniqueness
//! (docs/puzzles.md, "Verification").
//!
//! `Prover` answers "does the side to move (the attacker) win within `n` of its own
//! moves, whatever the opponent plays?" exactly, by an exhaustive search: every move
//! of the attacker, the defender's replies until one refutes, with no pruning but
//! bounds that are proven sound:
//!
//! - the win on the board comes only by entering the den, taking the last animal or
//!   leaving the opponent without a legal move;
//! - an attacker node with `n` moves left is cut when no attacker animal can reach
//!   the enemy den in `n` moves on an empty board (river jumps counted, rats and
//!   blockers ignored), the defender has more than `n` animals, and the defender has
//!   an animal that can step back and forth between two squares no attacker animal can
//!   reach in `n` moves (under the anti-chase rules: two such animals, neither moved
//!   in the defender's last 7 moves, played in turns, which neither rule can stop), so
//!   it always has a legal move;
//! - a defender with an animal of the attacker on one of its traps must take it (it
//!   enters the den next move otherwise); a defender with more legal moves than one
//!   move of the attacker can take away (12, 18 under the anti-chase rules) is never
//!   left without a move by it.
//!
//! Draws are the rules': the no-capture count, and under `jungle` the third
//! occurrence of a position, counting the game's moves before the search. A
//! position repeated inside the search is not scored as a draw: the fastest forced
//! win never repeats a position (the position's second visit would have a larger
//! no-capture count, which never helps the attacker), so "wins within n" is the same
//! with or without those draws, and without them a stored result does not depend on
//! the path. The search stores what it proves (won within k, not won within k) in a
//! table keyed by the position, the no-capture count when it can matter, and under
//! the anti-chase rules the moves they look back on (nodes with one move left are
//! answered again rather than stored: cheaper than a look-up that misses the cache).

use crate::board::geometry::{enemy_den, own_den, JUMPS, LAND, NEIGHBOURS, TRAPS, WATER};
use crate::board::movegen::{count_after_with, generate_with, mobility_with};
use crate::board::{Animal, Bitboard, Move, MoveList, MoveRules, Position, Square};
use crate::game::anti_chase::{self, MoveRecord};
use crate::game::{Game, GameResult, Rules};
use crate::with_move_rules;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The node budget ran out before the question was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfNodes;

/// The most moves a question may ask about.
pub const MAX_MOVES: usize = 60;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Proven: the attacker does not win within this many moves (0: nothing known).
    no_win: u8,
    /// Proven: the attacker wins within this many moves (0: nothing known).
    win: u8,
    /// The attacker's winning move (attacker nodes) or the defender's refuting move
    /// (defender nodes), as `Move::raw`; 0 for none.
    mv: u16,
}

/// Exhaustive forced-win search with a table of proven results.
pub struct Prover {
    table: Vec<Entry>,
    /// Nodes visited by the last question.
    pub nodes: u64,
    /// The table holds results (it has been asked since it was last cleared).
    used: bool,
}

/// Moves on an empty board from each square to each other, for each way of moving.
struct Distances {
    /// `[kind][from][to]`: kinds walker (land only), swimmer (land and water),
    /// jumper (land and river jumps).
    d: Vec<[[u8; 64]; 64]>,
}

const WALKER: usize = 0;
const SWIMMER: usize = 1;
const JUMPER: usize = 2;

fn distances() -> &'static Distances {
    static D: OnceLock<Distances> = OnceLock::new();
    D.get_or_init(|| {
        let mut d = vec![[[u8::MAX; 64]; 64]; 3];
        for (kind, table) in d.iter_mut().enumerate() {
            for from in 0..63usize {
                let row = &mut table[from];
                row[from] = 0;
                let mut frontier = vec![from];
                let mut step = 0u8;
                while !frontier.is_empty() {
                    step += 1;
                    let mut next = Vec::new();
                    for &s in &frontier {
                        if kind != SWIMMER && WATER.0 >> s & 1 == 1 {
                            continue;
                        }
                        let mut to = NEIGHBOURS[s];
                        if kind != SWIMMER {
                            to &= LAND;
                        }
                        if kind == JUMPER {
                            to |= JUMPS[s].targets();
                        }
                        for t in to {
                            if row[t.index()] == u8::MAX {
                                row[t.index()] = step;
                                next.push(t.index());
                            }
                        }
                    }
                    frontier = next;
                }
            }
        }
        Distances { d }
    })
}

/// How an animal moves, for the distances.
fn kind(animal: Animal, dog_swims: bool) -> usize {
    match animal {
        Animal::Rat => SWIMMER,
        Animal::Dog if dog_swims => SWIMMER,
        Animal::Lion | Animal::Tiger => JUMPER,
        _ => WALKER,
    }
}

/// What one question needs besides the position.
struct Question<'a, R: MoveRules> {
    rules: Rules,
    /// Keys of positions that, reached again, make a draw by repetition.
    drawn: &'a [u64],
    /// The no-capture count is part of the table's key.
    clock_keyed: bool,
    /// Mixed into every key: the rules and the positions drawn on their next
    /// occurrence, on which the stored results depend.
    context: u64,
    /// The game's moves so far (kept only under the anti-chase rules).
    records: Vec<MoveRecord>,
    /// Under the anti-chase rules, the hash of the last `WINDOW` records after each
    /// move of the search (the last is the current one): kept as moves are played, so
    /// that a key costs no walk over the records.
    windows: Vec<u64>,
    nodes: u64,
    limit: u64,
    _rules: std::marker::PhantomData<R>,
}

impl Prover {
    /// A prover with a table of about `mb` megabytes.
    pub fn new(mb: usize) -> Prover {
        let entries = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let size = entries.next_power_of_two() / 2;
        Prover {
            table: vec![Entry::default(); size.max(1024)],
            nodes: 0,
            used: false,
        }
    }

    /// Forgets every stored result, so that what it answers next depends on nothing
    /// asked before (which, at a node limit, it otherwise may).
    pub fn clear(&mut self) {
        if self.used {
            self.table.fill(Entry::default());
            self.used = false;
        }
    }

    /// The first of `among` (every legal move when empty) with which the side to move
    /// of `game` wins within `n` of its moves, whatever the opponent replies; `None`
    /// when none does. At most `limit` nodes.
    pub fn win_within(
        &mut self,
        game: &Game,
        among: &[Move],
        n: usize,
        limit: u64,
    ) -> Result<Option<Move>, OutOfNodes> {
        Ok(self
            .winners(game, among, n, limit, true)?
            .into_iter()
            .next())
    }

    /// The fewest moves, at most `max`, in which the side to move of `game` wins
    /// starting with one of `among` (every legal move when empty), and every such first
    /// move; `None` when it does not win within `max`. At most `limit` nodes in all.
    pub fn fastest(
        &mut self,
        game: &Game,
        among: &[Move],
        max: usize,
        limit: u64,
    ) -> Result<Option<(usize, Vec<Move>)>, OutOfNodes> {
        self.nodes = 0;
        let mut spent = 0;
        for n in 1..=max.min(MAX_MOVES) {
            let wins = self.winners(game, among, n, limit.saturating_sub(spent), false)?;
            spent += self.nodes;
            if !wins.is_empty() {
                self.nodes = spent;
                return Ok(Some((n, wins)));
            }
        }
        self.nodes = spent;
        Ok(None)
    }

    /// The moves of `among` that win within `n` (only the first when `first_only`).
    fn winners(
        &mut self,
        game: &Game,
        among: &[Move],
        n: usize,
        limit: u64,
        first_only: bool,
    ) -> Result<Vec<Move>, OutOfNodes> {
        self.nodes = 0;
        if game.result() != GameResult::Ongoing || n == 0 {
            return Ok(Vec::new());
        }
        self.used = true;
        let n = n.min(MAX_MOVES) as u8;
        let rules = *game.rules();
        let pos = *game.position();
        // Positions met twice already are drawn on their third occurrence.
        let mut counts: HashMap<u64, usize> = HashMap::new();
        for &k in game.keys() {
            *counts.entry(k).or_default() += 1;
        }
        let need = usize::from(rules.draw.repetitions);
        let drawn: Vec<u64> = if need == 0 {
            Vec::new()
        } else {
            counts
                .into_iter()
                .filter(|&(_, c)| c + 1 >= need)
                .map(|(k, _)| k)
                .collect()
        };
        let mut sorted = drawn.clone();
        sorted.sort_unstable();
        let mut context = mix(u64::from(rules.draw.no_capture_plies)
            | u64::from(rules.draw.repetitions) << 16
            | u64::from(rules.anti_chase) << 24
            | u64::from(rules.moves.dog_swims) << 25
            | u64::from(rules.moves.trapped_lose_attack) << 26);
        for k in sorted {
            context = mix(context ^ k);
        }
        let limit_plies = rules.draw.no_capture_plies;
        let clock_keyed = limit_plies > 0
            && usize::from(pos.halfmove_clock()) + 2 * usize::from(n) + 2
                >= usize::from(limit_plies);
        let legal = game.legal_moves();
        let moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| among.is_empty() || among.contains(m))
            .collect();
        let records = if rules.anti_chase {
            game.records().to_vec()
        } else {
            Vec::new()
        };
        let mut windows = Vec::with_capacity(2 * MAX_MOVES + 2);
        windows.push(window_of(&records));
        with_move_rules!(rules.moves, R => {
            let mut q = Question::<R> {
                rules,
                drawn: &drawn,
                clock_keyed,
                context,
                records,
                windows,
                nodes: 0,
                limit,
                _rules: std::marker::PhantomData,
            };
            let mut wins = Vec::new();
            let mut outcome = Ok(());
            for &m in &moves {
                match q.root_move(&mut self.table, &pos, m, n) {
                    Ok(true) => {
                        wins.push(m);
                        if first_only {
                            break;
                        }
                    }
                    Ok(false) => {}
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                }
            }
            self.nodes = q.nodes;
            outcome.map(|()| wins)
        })
    }
}

/// What a move leads to.
enum After {
    /// The mover wins at once.
    Won,
    /// A draw by the rules.
    Drawn,
    /// The game goes on.
    Going,
}

impl<R: MoveRules> Question<'_, R> {
    fn count(&mut self) -> Result<(), OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.limit {
            Err(OutOfNodes)
        } else {
            Ok(())
        }
    }

    /// The table's key of `pos` as an attacker's node or (`defending`) a defender's:
    /// the same position means "the side to move wins" at one and "the other side
    /// wins" at the other.
    fn key(&self, pos: &Position, defending: bool) -> u64 {
        let mut key = pos.key() ^ self.context ^ if defending { DEFENDING } else { 0 };
        if self.clock_keyed {
            key ^= mix(0xC10C ^ u64::from(pos.halfmove_clock()));
        }
        if self.rules.anti_chase {
            key = mix(key ^ self.windows.last().copied().unwrap_or(0));
        }
        key
    }

    /// The legal moves of the side to move (the anti-chase rules applied).
    fn legal(&self, pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        generate_with::<R>(pos, &mut list);
        if self.rules.anti_chase {
            let forbidden = anti_chase::forbidden::<R>(pos, &self.records);
            if !forbidden.is_empty() {
                list.retain(|&m| !forbidden.forbids(pos.mover(m), m.to()));
            }
        }
        list
    }

    /// The position after `m` (the move recorded under the anti-chase rules; the
    /// caller pops it) and what it leads to.
    fn play(&mut self, pos: &Position, m: Move) -> (Position, After) {
        let mut child = *pos;
        child.play(m);
        if self.rules.anti_chase {
            let record = MoveRecord::of(pos, m);
            let leaving = self
                .records
                .len()
                .checked_sub(WINDOW)
                .map(|i| record_hash(&self.records[i]));
            let window = self.windows.last().copied().unwrap_or(0);
            self.windows
                .push(slide(window, record_hash(&record), leaving));
            self.records.push(record);
        }
        if child.decided_on_board().is_some() {
            return (child, After::Won);
        }
        let draw = self.rules.draw;
        let drawn = (draw.repetitions > 0 && self.drawn.contains(&child.key()))
            || (draw.no_capture_plies > 0 && child.halfmove_clock() >= draw.no_capture_plies);
        if drawn {
            // Unless the side to move has no move: that loss comes first.
            if self.legal(&child).is_empty() {
                return (child, After::Won);
            }
            return (child, After::Drawn);
        }
        (child, After::Going)
    }

    fn unplay(&mut self) {
        if self.rules.anti_chase {
            self.records.pop();
            self.windows.pop();
        }
    }

    fn root_move(
        &mut self,
        table: &mut [Entry],
        pos: &Position,
        m: Move,
        n: u8,
    ) -> Result<bool, OutOfNodes> {
        let (child, after) = self.play(pos, m);
        let result = match after {
            After::Won => Ok(true),
            After::Drawn => Ok(false),
            After::Going if self.legal(&child).is_empty() => Ok(true),
            After::Going if n <= 1 => Ok(false),
            After::Going => self.defend(table, &child, n - 1),
        };
        self.unplay();
        result
    }

    fn probe(&self, table: &[Entry], key: u64, n: u8) -> (Option<bool>, Option<Move>) {
        let e = table[key as usize & (table.len() - 1)];
        if e.key != key {
            return (None, None);
        }
        let mv = Move::from_raw(e.mv);
        if e.win != 0 && e.win <= n {
            return (Some(true), mv);
        }
        if e.no_win >= n {
            return (Some(false), mv);
        }
        (None, mv)
    }

    fn store(&self, table: &mut [Entry], key: u64, n: u8, won: bool, mv: Option<Move>) {
        let slot = &mut table[key as usize & (table.len() - 1)];
        if slot.key != key {
            *slot = Entry {
                key,
                ..Entry::default()
            };
        }
        if won {
            if slot.win == 0 || n < slot.win {
                slot.win = n;
            }
        } else {
            slot.no_win = slot.no_win.max(n);
        }
        if let Some(m) = mv {
            slot.mv = m.raw();
        }
    }

    /// A node: counted, its key, what the table knows for `n` and its stored move.
    fn look_up(
        &mut self,
        table: &[Entry],
        pos: &Position,
        n: u8,
        defending: bool,
    ) -> Result<(u64, Option<bool>, Option<Move>), OutOfNodes> {
        self.count()?;
        let key = self.key(pos, defending);
        let (known, hint) = self.probe(table, key, n);
        Ok((key, known, hint))
    }

    /// The attacker is to move in `pos` (the game going on): does it win within `n`?
    fn attack(&mut self, table: &mut [Entry], pos: &Position, n: u8) -> Result<bool, OutOfNodes> {
        if n <= 1 {
            return self.attack_once(pos);
        }
        let (key, known, hint) = self.look_up(table, pos, n, false)?;
        if let Some(k) = known {
            return Ok(k);
        }
        let moves = self.legal(pos);
        if moves.is_empty() {
            return Ok(false);
        }
        // Wins at once: the den, the last animal, no move left.
        if let Some(m) = ends_at_once(pos, &moves) {
            self.store(table, key, 1, true, Some(m));
            return Ok(true);
        }
        if let Some(m) = self.stalemating_move(pos, &moves) {
            self.store(table, key, 1, true, Some(m));
            return Ok(true);
        }
        if n <= 1 || self.cannot_win(pos, n) {
            self.store(table, key, n, false, None);
            return Ok(false);
        }
        let ordered = order_attack(pos, &moves, hint);
        for &m in ordered.iter() {
            let (child, after) = self.play(pos, m);
            let won = match after {
                After::Won => Ok(true),
                After::Drawn => Ok(false),
                After::Going => self.defend(table, &child, n - 1),
            };
            self.unplay();
            if won? {
                self.store(table, key, n, true, Some(m));
                return Ok(true);
            }
        }
        self.store(table, key, n, false, None);
        Ok(false)
    }

    /// `attack` with one move left, without the table: the most numerous nodes, whose
    /// answer costs less to find again than a look-up that misses the cache.
    fn attack_once(&mut self, pos: &Position) -> Result<bool, OutOfNodes> {
        self.count()?;
        let moves = self.legal(pos);
        if moves.is_empty() {
            return Ok(false);
        }
        Ok(ends_at_once(pos, &moves).is_some() || self.stalemating_move(pos, &moves).is_some())
    }

    /// The defender is to move in `pos` (the game going on): does the attacker win
    /// within `n` more of its moves, whatever the defender plays?
    fn defend(&mut self, table: &mut [Entry], pos: &Position, n: u8) -> Result<bool, OutOfNodes> {
        if n == 0 {
            return Ok(false);
        }
        let (key, known, hint) = self.look_up(table, pos, n, true)?;
        if let Some(k) = known {
            return Ok(k);
        }
        let us = pos.side_to_move();
        let them = us.other();
        let moves = self.legal(pos);
        if moves.is_empty() {
            self.store(table, key, n, true, None);
            return Ok(true);
        }
        if let Some(m) = ends_at_once(pos, &moves) {
            self.store(table, key, n, false, Some(m));
            return Ok(false);
        }
        // An attacker's animal on our trap enters the den next move unless taken.
        let intruders = pos.occupied(them) & TRAPS[us.index()];
        let ordered = order_defence(pos, &moves, hint, intruders);
        for &m in ordered.iter() {
            let (child, after) = self.play(pos, m);
            let refuted = match after {
                After::Won | After::Drawn => Ok(true),
                After::Going => self.attack(table, &child, n).map(|won| !won),
            };
            self.unplay();
            if refuted? {
                self.store(table, key, n, false, Some(m));
                return Ok(false);
            }
        }
        self.store(table, key, n, true, None);
        Ok(true)
    }

    /// A move of the side to move after which the opponent has no legal move.
    fn stalemating_move(&mut self, pos: &Position, moves: &MoveList) -> Option<Move> {
        let them = pos.side_to_move().other();
        // One move takes away at most 12 of the opponent's moves (the 4 steps and 2
        // jumps onto the square it enters, the 4 moves of the animal it takes, the 2
        // jumps over the water it enters); the anti-chase rules at most 6 more (two
        // squares by 7-3, four moves of one animal by 17-5).
        let most = if self.rules.anti_chase { 18 } else { 12 };
        if mobility_with::<R>(pos, them) > most {
            return None;
        }
        for &m in moves.iter() {
            let left = count_after_with::<R>(pos, m);
            if left == 0 {
                return Some(m);
            }
            if self.rules.anti_chase && left <= 6 {
                let mut child = *pos;
                child.play(m);
                self.records.push(MoveRecord::of(pos, m));
                let mut list = MoveList::new();
                generate_with::<R>(&child, &mut list);
                let forbidden = anti_chase::forbidden::<R>(&child, &self.records);
                self.records.pop();
                if list
                    .iter()
                    .all(|&r| forbidden.forbids(child.mover(r), r.to()))
                {
                    return Some(m);
                }
            }
        }
        None
    }

    /// True when the side to move of `pos` cannot win within `n` moves (n >= 2) by the
    /// bounds of the module's comment.
    fn cannot_win(&self, pos: &Position, n: u8) -> bool {
        let us = pos.side_to_move();
        let them = us.other();
        if pos.animal_count(them) <= u32::from(n) {
            return false;
        }
        let d = distances();
        let dog_swims = R::DOG_SWIMS;
        let den = enemy_den(us).first().map_or(0, Square::index);
        // Fixed arrays, not vectors: this runs at every attacker node.
        let mut attackers = [(0usize, 0usize); 8];
        let mut count = 0;
        for a in Animal::ALL {
            if let Some(sq) = pos.square_of(us, a) {
                let k = kind(a, dog_swims);
                if d.d[k][sq.index()][den] <= n {
                    return false;
                }
                attackers[count] = (k, sq.index());
                count += 1;
            }
        }
        let attackers = &attackers[..count];
        let out_of_reach = |s: usize| attackers.iter().all(|&(k, from)| d.d[k][from][s] > n);
        // The defender's animals that can shuttle between two squares out of reach.
        let empty = !pos.all_occupied();
        let mut shuttles = [(Animal::Rat, Bitboard::EMPTY); 8];
        let mut found = 0;
        for a in Animal::ALL {
            let Some(sq) = pos.square_of(them, a) else {
                continue;
            };
            if !out_of_reach(sq.index()) {
                continue;
            }
            let swims = kind(a, dog_swims) == SWIMMER;
            let mut steps = NEIGHBOURS[sq.index()] & empty & !own_den(them);
            if !swims {
                steps &= LAND;
            }
            if let Some(t) = steps.into_iter().find(|t| out_of_reach(t.index())) {
                shuttles[found] = (a, Bitboard::from_square(sq) | Bitboard::from_square(t));
                found += 1;
            }
        }
        if !self.rules.anti_chase {
            return found > 0;
        }
        // Two animals, neither moved in the defender's last 7 moves, in turns.
        let recent = |a: Animal| {
            self.records
                .iter()
                .rev()
                .filter(|r| r.color == them)
                .take(7)
                .any(|r| r.animal == a)
        };
        let mut fresh = [Bitboard::EMPTY; 8];
        let mut fresh_count = 0;
        for &(a, squares) in &shuttles[..found] {
            if !recent(a) {
                fresh[fresh_count] = squares;
                fresh_count += 1;
            }
        }
        let fresh = &fresh[..fresh_count];
        fresh
            .iter()
            .enumerate()
            .any(|(i, x)| fresh[i + 1..].iter().any(|y| (*x & *y).is_empty()))
    }
}

/// A move of the side to move that wins at once on the board: into the den, or
/// taking the opponent's last animal.
fn ends_at_once(pos: &Position, moves: &MoveList) -> Option<Move> {
    let den = enemy_den(pos.side_to_move());
    let last = pos.animal_count(pos.side_to_move().other()) == 1;
    moves
        .iter()
        .copied()
        .find(|&m| den.contains(m.to()) || (last && pos.is_capture(m)))
}

/// The attacker's moves, most promising first: the stored move, captures, then moves
/// of the animals nearest the den that bring them nearer.
fn order_attack(pos: &Position, moves: &MoveList, hint: Option<Move>) -> MoveList {
    let d = distances();
    let us = pos.side_to_move();
    let den = enemy_den(us).first().map_or(0, Square::index);
    best_first(moves.iter().map(|&m| {
        let k = kind(pos.mover(m), false);
        let before = i32::from(d.d[k][m.from().index()][den]);
        let after = i32::from(d.d[k][m.to().index()][den]);
        let mut s = -8 * after + 4 * (before - after);
        if pos.is_capture(m) {
            s += 20 + i32::from(pos.captured_by(m).map_or(0, Animal::rank));
        }
        if Some(m) == hint {
            s += 10_000;
        }
        (s, m)
    }))
}

/// The defender's replies, most promising first: the stored move, captures of the
/// animals on its traps (the only replies when there are any), captures of the
/// attacker's animals nearest its den, then moves onto squares next to its den.
fn order_defence(
    pos: &Position,
    moves: &MoveList,
    hint: Option<Move>,
    intruders: Bitboard,
) -> MoveList {
    let d = distances();
    let us = pos.side_to_move();
    let own = own_den(us).first().map_or(0, Square::index);
    let scored = moves
        .iter()
        .filter(|m| intruders.is_empty() || intruders.contains(m.to()))
        .map(|&m| {
            let mut s = 0;
            if pos.is_capture(m) {
                let to = m.to().index();
                let victim = pos.piece_at(m.to()).map_or(Animal::Rat, |p| p.animal);
                let near = i32::from(d.d[kind(victim, false)][to][own]);
                s += 100 - 8 * near;
            }
            let guard = i32::from(d.d[WALKER][m.to().index()][own]);
            s -= guard;
            if Some(m) == hint {
                s += 10_000;
            }
            (s, m)
        });
    best_first(scored)
}

/// The moves by their scores, highest first, equal scores in the order given (an
/// insertion sort on the stack: the prover orders moves at every node).
fn best_first(scored: impl Iterator<Item = (i32, Move)>) -> MoveList {
    let mut list = MoveList::new();
    let mut scores = [0i32; crate::board::moves::MAX_MOVES];
    for (s, m) in scored {
        let n = list.len();
        if n == scores.len() {
            break;
        }
        list.push(m);
        let moves = list.as_mut_slice();
        let mut i = n;
        while i > 0 && scores[i - 1] < s {
            scores[i] = scores[i - 1];
            moves[i] = moves[i - 1];
            i -= 1;
        }
        scores[i] = s;
        moves[i] = m;
    }
    list
}

/// Mixed into the keys of the defender's nodes.
const DEFENDING: u64 = 0x5D0F_E6D1_4B1C_2E93;

/// The records a key looks back on under the anti-chase rules: 17 moves of each side,
/// more than the 7-3 and 17-5 rules ever read.
const WINDOW: usize = 34;

fn record_hash(r: &MoveRecord) -> u64 {
    mix(u64::from(r.mv.raw()) ^ (r.animal.index() as u64) << 16)
}

/// The window's hash after a record enters it (and, once it is full, the oldest
/// leaves): the XOR of each record's hash rotated by its age, so that the order counts
/// and the window slides in constant time.
fn slide(window: u64, entering: u64, leaving: Option<u64>) -> u64 {
    let kept = match leaving {
        Some(old) => window ^ old.rotate_left(WINDOW as u32 - 1),
        None => window,
    };
    entering ^ kept.rotate_left(1)
}

/// The hash of the last `WINDOW` of `records`.
fn window_of(records: &[MoveRecord]) -> u64 {
    let start = records.len().saturating_sub(WINDOW);
    records[start..]
        .iter()
        .fold(0, |w, r| slide(w, record_hash(r), None))
}

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    #[test]
    fn the_window_slides_to_the_hash_of_its_last_records() {
        let mut g = Game::with_rules(Position::startpos(), Variant::JungleCn.rules());
        let mut slid = vec![0u64];
        for ply in 0..80 {
            let legal = g.legal_moves();
            let m = legal.as_slice()[(ply * 7) % legal.len()];
            let n = g.records().len();
            let leaving = n.checked_sub(WINDOW).map(|i| record_hash(&g.records()[i]));
            let record = MoveRecord::of(g.position(), m);
            slid.push(slide(*slid.last().unwrap(), record_hash(&record), leaving));
            g.play(m).unwrap();
            let records = g.records();
            assert_eq!(*slid.last().unwrap(), window_of(records), "ply {ply}");
            let start = records.len().saturating_sub(WINDOW);
            assert_eq!(window_of(records), window_of(&records[start..]));
        }
        // The order of the records counts.
        let r = g.records();
        let swapped = [r[r.len() - 1], r[r.len() - 2]];
        assert_ne!(window_of(&r[r.len() - 2..]), window_of(&swapped));
    }

    fn game(fen: &str) -> Game {
        Game::new(Position::from_fen(fen).expect("a position"))
    }

    fn mv(g: &Game, text: &str) -> Move {
        g.parse_move(text).expect("a legal move")
    }

    /// The fastest win, which must be found within `max` moves and `nodes`.
    fn won(p: &mut Prover, g: &Game, max: usize, nodes: u64) -> (usize, Vec<Move>) {
        p.fastest(g, &[], max, nodes)
            .expect("decided")
            .expect("a win")
    }

    #[test]
    fn distances_count_jumps_and_swims() {
        let d = distances();
        let sq = |t: &str| t.parse::<Square>().expect("a square").index();
        // A walker goes round the river, a jumper over it, a swimmer through it.
        assert_eq!(d.d[WALKER][sq("b3")][sq("b7")], 6);
        assert_eq!(d.d[JUMPER][sq("b3")][sq("b7")], 1);
        assert_eq!(d.d[SWIMMER][sq("b3")][sq("b7")], 4);
        assert_eq!(d.d[WALKER][sq("d1")][sq("d9")], 8);
    }

    #[test]
    fn a_den_entry_in_two_is_found_and_nothing_faster() {
        // Red's lion on d7 enters the den at d9 in two moves; Blue's rat is far away.
        let g = game("7/7/3L3/7/7/7/7/7/r6 r 0 1");
        let mut p = Prover::new(1);
        let (n, wins) = won(&mut p, &g, 5, 1_000_000);
        assert_eq!(n, 2);
        let names: Vec<String> = wins.iter().map(Move::to_string).collect();
        // d8 is the only square next to the den the lion reaches in one move (c7 and
        // e7 are not next to d9).
        assert_eq!(names, ["d7d8"]);
        // No win in one.
        assert_eq!(p.win_within(&g, &[], 1, 1_000_000), Ok(None));
    }

    #[test]
    fn a_defence_that_takes_the_intruder_refutes() {
        // Red's lion on d7 with Blue's elephant on e8: the lion on d8 (a Blue trap) is
        // taken by the elephant, so d7d8 does not win in two.
        let g = game("7/4e2/3L3/7/7/7/7/7/7 r 0 1");
        let mut p = Prover::new(1);
        assert_eq!(p.win_within(&g, &[mv(&g, "d7d8")], 2, 1_000_000), Ok(None));
    }

    #[test]
    fn the_budget_is_kept() {
        let g = Game::startpos();
        let mut p = Prover::new(1);
        // From the start no animal reaches the den in 6 moves: cut at once.
        assert_eq!(p.win_within(&g, &[], 6, 1000), Ok(None));
        assert_eq!(p.win_within(&g, &[], 12, 1000), Err(OutOfNodes));
    }

    #[test]
    fn leaving_no_move_wins() {
        // Blue's lone rat in the corner a1, Red's cat on b1 and dog on a3: a3a2 leaves
        // the rat no move (it may not take the cat or the dog); b1a1 takes it.
        let g = game("7/7/7/7/7/7/D6/7/rC5 r 0 1");
        let mut p = Prover::new(1);
        let (n, wins) = won(&mut p, &g, 1, 100_000);
        assert_eq!(n, 1);
        assert_eq!(wins, vec![mv(&g, "b1a1"), mv(&g, "a3a2")]);
    }

    /// Red's lion on d8 next to Blue's den, Blue's rat on a5; the lion steps back and
    /// forth while the rat does: the position with the lion on d8 and Blue to move
    /// has occurred twice, so d7d8 now draws (its third occurrence) and the lion must
    /// go round, in 4. Without that history d7d8 wins in 2.
    #[test]
    fn a_third_occurrence_counting_the_moves_before_is_a_draw() {
        let start = Position::from_fen("7/3L3/7/7/r6/7/7/7/7 b 0 1").expect("fen");
        let mut g = Game::with_rules(start, Variant::Jungle.rules());
        for m in ["a5a6", "d8d7", "a6a5", "d7d8", "a5a6", "d8d7", "a6a5"] {
            g.play_text(m).expect("plays");
        }
        let mut p = Prover::new(1);
        let (n, wins) = won(&mut p, &g, 6, 10_000_000);
        assert!(n > 2, "{n} {wins:?}");
        assert!(!wins.contains(&mv(&g, "d7d8")), "{wins:?}");
        let fresh = Game::new(*g.position());
        let (n, wins) = won(&mut p, &fresh, 6, 10_000_000);
        assert_eq!((n, wins), (2, vec![mv(&fresh, "d7d8")]));
        // Under jungle-cn there is no repetition draw.
        let mut cn = Game::with_rules(start, Variant::JungleCn.rules());
        for m in ["a5a6", "d8d7", "a6a5", "d7d8", "a5a6", "d8d7", "a6a5"] {
            cn.play_text(m).expect("plays");
        }
        let (n, _) = won(&mut p, &cn, 6, 10_000_000);
        assert_eq!(n, 2);
    }

    /// The proofs agree with the endgame tables (exact DTM): on positions of 3- and
    /// 4-animal signatures, the fewest moves to win within 4 and the moves that win
    /// in that many are the tables' (Red's lion, tiger or elephant against Blue's rat
    /// and another, and the other way round).
    #[test]
    fn the_proofs_agree_with_the_tables() {
        use crate::tb::{probe_moves, Material, Tablebases, TbRules, TbValue};
        let rules = TbRules::for_rules(&Rules::default()).expect("tables");
        let tables = Tablebases::new(rules, None).building(4, false);
        let mut prover = Prover::new(4);
        let mut checked = [0usize; 2];
        for sig in ["LvR", "TvC", "ERvR", "LvDR", "CRvL"] {
            let material = Material::parse(sig).expect("a signature");
            let table = tables.ensure(material, &|_| {}).expect("built");
            let mut rng = crate::rng::Rng::new(7);
            for _ in 0..150 {
                let index = rng.below(table.len());
                let pos = table.indexer.position(&table.indexer.decode(index));
                if pos.is_over_on_board() {
                    continue;
                }
                let game = Game::new(pos);
                if game.result() != GameResult::Ongoing {
                    continue;
                }
                let values = with_move_rules!(game.rules().moves, R => probe_moves::<R>(&tables.snapshot(), &pos))
                    .expect("covered");
                let best = values
                    .iter()
                    .filter_map(|v| match v.outcome {
                        TbValue::Win(d) => Some(d),
                        _ => None,
                    })
                    .min();
                let expected = best.filter(|&d| d <= 7).map(|d| {
                    let moves = values
                        .iter()
                        .filter(|v| v.outcome == TbValue::Win(d))
                        .map(|v| v.mv)
                        .collect::<Vec<_>>();
                    (usize::from(d).div_ceil(2), moves)
                });
                let got = prover.fastest(&game, &[], 4, 50_000_000).expect("decided");
                let sorted = |x: Option<(usize, Vec<Move>)>| {
                    x.map(|(n, mut m)| {
                        m.sort_by_key(|m| m.raw());
                        (n, m)
                    })
                };
                assert_eq!(sorted(got), sorted(expected), "{sig}: {}", pos.to_fen());
                checked[usize::from(best.is_some())] += 1;
            }
        }
        assert!(checked[0] > 50 && checked[1] > 50, "{checked:?}");
    }
}
