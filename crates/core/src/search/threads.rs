//! The search controller: runs iterative deepening on the main thread and Lazy SMP
//! helpers on the others (all sharing the transposition table), reports progress, and
//! picks the move to play.

use super::info::{Report, SearchInfo};
use super::limits::{Limits, SearchOptions};
use super::ordering::Heuristics;
use super::score::{mate_in, Score, ScoreBound, INFINITE, MAX_PLY};
use super::search::{SharedState, Worker};
use super::strength::Strength;
use super::tbprobe::TbSearch;
use super::time::TimeManager;
use super::tt::{AllocError, Bound, TranspositionTable};
use crate::board::{Move, MoveRules};
use crate::clock::Instant;
use crate::game::{Game, GameResult};
use crate::nnue::{self, EvalKind, Network};
use crate::rng::Rng;
use crate::tb::Tablebases;
use crate::with_move_rules;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// `None` when the side to move has no legal move or the game is over.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The engine's search state that lives between searches.
pub struct Engine {
    tt: TranspositionTable,
    heuristics: Vec<Box<Heuristics>>,
    /// The Lazy SMP helper threads, kept between searches: a thread spawned for each
    /// search starts behind the scheduler's penalty for new tasks (tens of ms on a
    /// loaded machine), and the search must wait for it to end before `bestmove`.
    helpers: Option<rayon::ThreadPool>,
    pub options: SearchOptions,
    /// The network used when `options.eval` is `EvalKind::Nnue`.
    network: Arc<Network>,
    /// Endgame tables (none: no probing).
    pub tablebases: Option<Arc<Tablebases>>,
    /// Drawn anew for each game (`clear`): a strength between two measured rows plays
    /// the whole game with one of them (`Strength::at_elo`).
    game_seed: u64,
    /// Where the random choices of weakened play come from: the clock (`None`), or
    /// the stream `seed` started, so that a seeded engine plays its games again.
    seeds: Option<Rng>,
}

/// The state of a seeded engine's random choices (`Engine::seed_state`): its stream
/// and the current game's seed. An engine given it (`set_seed_state`) draws what the
/// engine it came from would draw next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedState {
    pub stream: u64,
    pub game: u64,
}

/// Stack of a search thread: the search recurses up to `MAX_PLY` plies.
const SEARCH_STACK: usize = 16 * 1024 * 1024;

impl Engine {
    pub fn new(hash_mb: usize) -> Result<Engine, AllocError> {
        Ok(Engine {
            tt: TranspositionTable::new(hash_mb)?,
            heuristics: vec![Box::default()],
            helpers: None,
            options: SearchOptions::default(),
            network: nnue::embedded(),
            tablebases: None,
            game_seed: clock_seed(),
            seeds: None,
        })
    }

    /// Draws weakened play's random choices from a stream seeded with `seed` from now
    /// on (instead of the clock), and the game's seed at once: the same seed, the
    /// same positions and limits, one thread, the same moves.
    pub fn seed(&mut self, seed: u64) {
        let mut stream = Rng::new(seed);
        self.game_seed = stream.next_u64();
        self.seeds = Some(stream);
    }

    /// Where a seeded engine's random choices stand (`None`: drawn from the clock).
    pub fn seed_state(&self) -> Option<SeedState> {
        self.seeds.as_ref().map(|s| SeedState {
            stream: s.state(),
            game: self.game_seed,
        })
    }

    /// Continues the random choices from `state` (of `seed_state`).
    pub fn set_seed_state(&mut self, state: SeedState) {
        self.seeds = Some(Rng::new(state.stream));
        self.game_seed = state.game;
    }

    /// The next seed of weakened play: from the seeded stream, else the clock.
    fn next_seed(&mut self) -> u64 {
        match &mut self.seeds {
            Some(stream) => stream.next_u64(),
            None => clock_seed(),
        }
    }

    /// A pool of `n` helper threads, built (or rebuilt) when the count changes. `None`
    /// when no helper is wanted or the threads cannot be started (the search then runs
    /// on one thread).
    fn helper_pool(
        helpers: &mut Option<rayon::ThreadPool>,
        n: usize,
    ) -> Option<&rayon::ThreadPool> {
        if n == 0 {
            *helpers = None;
            return None;
        }
        if helpers.as_ref().map(rayon::ThreadPool::current_num_threads) != Some(n) {
            *helpers = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .stack_size(SEARCH_STACK)
                .thread_name(|i| format!("search-helper-{}", i + 1))
                .build()
                .map_err(|e| log::warn!("cannot start {n} helper threads, searching on one: {e}"))
                .ok();
        }
        helpers.as_ref()
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Uses `network` from the next search on (when `options.eval` is `Nnue`).
    pub fn set_network(&mut self, network: Arc<Network>) {
        self.network = network;
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }

    pub fn set_hash(&mut self, mb: usize) -> Result<(), AllocError> {
        self.tt.resize(mb)
    }

    /// Forgets the hash table.
    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Forgets everything learned: hash, killers, history (`ucinewgame`), and draws
    /// the new game's seed.
    pub fn clear(&mut self) {
        self.game_seed = self.next_seed();
        self.forget();
    }

    /// Forgets what the searches learned (hash, killers, history) and stays in the
    /// same game (its seed kept): the next search depends on its position, limits and
    /// seed alone.
    pub fn forget(&mut self) {
        self.tt.clear();
        for h in &mut self.heuristics {
            h.clear();
        }
    }

    /// Searches `game` within `limits`; returns when the search is over (limits reached
    /// or `shared.stop` set). `report` receives what the search finds as it goes.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        shared: &SharedState,
        report: Report,
    ) -> SearchOutcome {
        with_move_rules!(game.rules().moves, R => self.search_with::<R>(game, limits, shared, report))
    }

    /// `search`, compiled for the move rules `R` of the game.
    fn search_with<R: MoveRules>(
        &mut self,
        game: &Game,
        limits: &Limits,
        shared: &SharedState,
        report: Report,
    ) -> SearchOutcome {
        let start = Instant::now();
        let pos = *game.position();
        let threads = self.options.threads.clamp(1, shared.nodes.len());
        while self.heuristics.len() < threads {
            self.heuristics.push(Box::default());
        }
        self.tt.new_search();
        for n in &shared.nodes {
            n.store(0, Ordering::Relaxed);
        }

        let mut root: Vec<Move> = game.legal_moves().iter().copied().collect();
        if !limits.searchmoves.is_empty() {
            root.retain(|m| limits.searchmoves.contains(m));
        }
        if game.result() != GameResult::Ongoing || root.is_empty() {
            return SearchOutcome {
                best: None,
                ponder: None,
                score: Score::Cp(0),
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
            };
        }

        // The tables keep only the root moves that hold the best value.
        let tb = self
            .tablebases
            .as_ref()
            .and_then(|t| TbSearch::prepare(t, self.options.tb_probe_limit, game, limits));
        if let Some(tb) = &tb {
            tb.filter_root::<R>(&pos, &mut root);
        }
        let tb = tb.as_ref();

        let time = if limits.uses_clock() {
            TimeManager::new(
                limits,
                pos.side_to_move(),
                self.options.move_overhead_ms,
                start,
            )
        } else {
            TimeManager::unlimited(start)
        };
        let search_seed = self.next_seed();
        let skill = Strength::for_options(&self.options, self.game_seed, search_seed);
        let mut options = self.options;
        // Weaker levels choose among several moves; only the asked number of lines is
        // reported.
        options.multipv = skill.multipv(options.multipv);
        let shown_lines = self.options.multipv;
        let tt = &self.tt;
        let nnue = (options.eval == EvalKind::Nnue).then_some(&*self.network);
        let (main_heur, helper_heur) = self.heuristics[..threads].split_at_mut(1);
        let pool = Engine::helper_pool(&mut self.helpers, threads - 1);
        // The helpers get copies of what they read of the game.
        let helper = |i: usize, heur: &mut Heuristics| {
            let mut w = Worker::<R>::new(
                i + 1,
                tt,
                shared,
                heur,
                limits,
                TimeManager::unlimited(start),
                *game.rules(),
                game.keys(),
                game.records(),
                root.clone(),
                nnue,
            );
            w.tb = tb;
            w.rules_repetition = options.rules_repetition;
            w.set_params(options.params);
            iterate(&mut w, &pos, limits, &options, skill, None, 0);
            w.publish_nodes();
        };
        let main_thread = |heur: &mut Heuristics| {
            let mut w = Worker::<R>::new(
                0,
                tt,
                shared,
                heur,
                limits,
                time,
                *game.rules(),
                game.keys(),
                game.records(),
                root.clone(),
                nnue,
            );
            w.tb = tb;
            w.rules_repetition = options.rules_repetition;
            w.set_params(options.params);
            let reporter = if options.report { Some(report) } else { None };
            iterate(&mut w, &pos, limits, &options, skill, reporter, shown_lines);
            w.publish_nodes();
            // The main thread is done: stop the helpers.
            shared.stop.store(true, Ordering::Relaxed);
            (w.root_moves.clone(), w.completed_depth)
        };
        let main = match pool {
            // The main search runs on this thread; the helpers on the pool's, which the
            // scope waits for before it returns.
            Some(pool) => pool.in_place_scope(|scope| {
                for (i, heur) in helper_heur.iter_mut().enumerate() {
                    let helper = &helper;
                    scope.spawn(move |_| helper(i, heur));
                }
                main_thread(&mut main_heur[0])
            }),
            None => main_thread(&mut main_heur[0]),
        };

        let (root_moves, depth) = main;
        let chosen = if skill.enabled() {
            skill.pick::<R>(&pos, &root_moves, options.multipv)
        } else {
            0
        };
        let best = &root_moves[chosen];
        let ponder = best.pv.get(1).copied().or_else(|| {
            let mut child = pos;
            child.play(best.mv);
            tt.probe(child.key())
                .and_then(|h| h.mv)
                .filter(|&m| crate::board::movegen::is_legal_with::<R>(&child, m))
        });
        SearchOutcome {
            best: Some(best.mv),
            ponder,
            score: Score::from_internal(if best.display_score == -INFINITE {
                best.previous_score
            } else {
                best.display_score
            }),
            depth,
            nodes: shared.total_nodes(),
            elapsed: start.elapsed(),
        }
    }
}

/// Iterative deepening for one thread. Only the main thread (`report` given or id 0)
/// decides when to stop.
fn iterate<R: MoveRules>(
    w: &mut Worker<R>,
    pos: &crate::board::Position,
    limits: &Limits,
    options: &SearchOptions,
    skill: Strength,
    report: Option<Report>,
    shown_lines: usize,
) {
    let is_main = w.id == 0;
    let mut max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as i32 - 4)
        .clamp(1, MAX_PLY as i32 - 4);
    if skill.depth > 0 {
        max_depth = max_depth.min(skill.depth);
    }
    let multipv = options.multipv.clamp(1, w.root_moves.len());
    let mut best_changes = 0.0f64;
    let mut last_best = None;
    let single_reply = w.root_moves.len() == 1;

    let first = limits.start_depth.unwrap_or(1).clamp(1, max_depth);
    let mut depth = first + (w.id % 2) as i32;
    while depth <= max_depth {
        for rm in &mut w.root_moves {
            rm.previous_score = rm.score;
        }
        for pv_index in 0..multipv {
            w.pv_index = pv_index;
            w.seldepth = 0;
            aspiration(w, pos, depth, pv_index, report);
            if w.shared_stopped() {
                break;
            }
            w.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        }
        if w.shared_stopped() {
            break;
        }
        w.completed_depth = depth;

        if !is_main {
            depth += 1;
            continue;
        }
        if let Some(report) = report {
            report_pv(w, depth, multipv.min(shown_lines), report);
        }

        // Stop conditions of the main thread.
        let best = w.root_moves[0].score;
        if let Some(n) = limits.mate {
            if n > 0 && best >= mate_in(2 * n as usize - 1) {
                break;
            }
        }
        if best >= super::score::MATE_BOUND && !limits.infinite && limits.mate.is_none() {
            // A win proven well within the searched depth cannot change.
            let plies = super::score::MATE - best;
            if plies + 2 <= depth {
                break;
            }
        }
        if limits.uses_clock() && w.clock_running() {
            if single_reply {
                break;
            }
            if last_best != Some(w.root_moves[0].mv) {
                best_changes += 1.0;
            }
            best_changes *= 0.5;
            last_best = Some(w.root_moves[0].mv);
            let scale = (0.8 + best_changes).min(2.0);
            if !w.time().may_start_iteration(scale) {
                break;
            }
        }
        depth += 1;
    }
}

/// One iteration at the root with an aspiration window around the last score.
fn aspiration<R: MoveRules>(
    w: &mut Worker<R>,
    pos: &crate::board::Position,
    depth: i32,
    pv_index: usize,
    report: Option<Report>,
) {
    let previous = w.root_moves[pv_index].previous_score;
    let mut delta = 20;
    let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < 20_000 {
        (
            (previous - delta).max(-INFINITE),
            (previous + delta).min(INFINITE),
        )
    } else {
        (-INFINITE, INFINITE)
    };
    loop {
        let score = w.search_root(pos, depth, alpha, beta);
        w.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        if w.shared_stopped() {
            return;
        }
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITE);
        } else if score >= beta {
            beta = (score + delta).min(INFINITE);
        } else {
            return;
        }
        if let Some(report) = report {
            if w.time().elapsed() > Duration::from_secs(1) {
                report_line(w, depth, pv_index, report);
            }
        }
        delta += delta / 2;
    }
}

fn report_pv<R: MoveRules>(w: &Worker<R>, depth: i32, multipv: usize, report: Report) {
    for k in 0..multipv {
        report_line(w, depth, k, report);
    }
}

fn report_line<R: MoveRules>(w: &Worker<R>, depth: i32, k: usize, report: Report) {
    let rm = &w.root_moves[k];
    let time = w.time().elapsed();
    let nodes = w.total_nodes();
    report(&SearchInfo {
        depth,
        seldepth: rm.seldepth.max(1) as i32,
        multipv: k + 1,
        score: Score::from_internal(if rm.display_score == -INFINITE {
            rm.previous_score
        } else {
            rm.display_score
        }),
        bound: match rm.bound {
            Some(Bound::Lower) => ScoreBound::Lower,
            Some(Bound::Upper) => ScoreBound::Upper,
            _ => ScoreBound::Exact,
        },
        nodes,
        nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
        time,
        hashfull: w.hashfull(),
        tbhits: w.total_tb_hits(),
        pv: rm.pv.clone(),
    });
}

/// A seed for the random choices of weakened play: the clock and a count of searches,
/// mixed so that searches close in time choose independently.
fn clock_seed() -> u64 {
    static SEARCHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let count = SEARCHES.fetch_add(1, Ordering::Relaxed);
    crate::rng::Rng::new(crate::clock::seed_bits() ^ count.rotate_left(32)).next_u64()
}

impl<R: MoveRules> Worker<'_, R> {
    fn shared_stopped(&self) -> bool {
        self.shared_state().stopped()
    }
    fn total_nodes(&self) -> u64 {
        self.shared_state().total_nodes().max(self.nodes)
    }
    fn total_tb_hits(&self) -> u64 {
        self.shared_state().total_tb_hits().max(self.tb_hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn search(fen: &str, limits: Limits) -> SearchOutcome {
        let mut engine = Engine::new(2).expect("small table");
        engine.options.report = false;
        let game = Game::new(Position::from_fen(fen).expect("valid"));
        let shared = SharedState::new(1);
        engine.search(&game, &limits, &shared, &|_| {})
    }

    /// The continuation history (on by default) changes the tree, and off or at twice
    /// the weight the search finds the same forced wins.
    #[test]
    fn the_continuation_history_changes_the_tree_and_finds_the_same_wins() {
        use crate::search::parameters::SearchParams;
        let run = |params: &str, fen: &str, depth: i32| {
            let mut engine = Engine::new(2).expect("small table");
            engine.options.report = false;
            engine.options.params = SearchParams::parse(params).expect("valid");
            let game = Game::new(Position::from_fen(fen).expect("valid"));
            engine.search(&game, &Limits::depth(depth), &SharedState::new(1), &|_| {})
        };
        assert_eq!(SearchParams::DEFAULT.cont_history, 100);
        let start = crate::board::START_FEN;
        let default = run("", start, 9);
        for weight in ["cont_history=0", "cont_history=200"] {
            let out = run(weight, start, 9);
            assert_ne!(out.nodes, default.nodes, "{weight} searches the same tree");
            for (fen, depth, mate) in [
                ("l5t/3R3/7/7/7/7/7/7/6L r", 6, 1),
                ("l5t/7/3R3/7/7/7/7/7/6L r", 7, 2),
            ] {
                let out = run(weight, fen, depth);
                assert_eq!(out.score, Score::Mate(mate), "{weight} on {fen}");
            }
        }
    }

    #[test]
    fn enters_the_den_at_once() {
        let out = search("l5t/3R3/7/7/7/7/7/7/6L r", Limits::depth(4));
        assert_eq!(out.best.map(|m| m.to_string()), Some("d8d9".into()));
        assert_eq!(out.score, Score::Mate(1));
    }

    #[test]
    fn walks_to_the_den_in_two() {
        // Red rat d7 -> d8 (Blue's trap) -> d9; Blue's lion a9 cannot reach d8 in time.
        let out = search("l5t/7/3R3/7/7/7/7/7/6L r", Limits::depth(5));
        assert_eq!(out.best.map(|m| m.to_string()), Some("d7d8".into()));
        assert_eq!(out.score, Score::Mate(2));
    }

    #[test]
    fn defends_by_taking_the_intruder() {
        // Blue rat on d2 (Red's trap) threatens d1; the red elephant takes it (any
        // animal may take an enemy on its own trap).
        let out = search("l5t/7/7/7/7/7/7/2Er3/6L r", Limits::depth(4));
        assert_eq!(out.best.map(|m| m.to_string()), Some("c2d2".into()));
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let out = search("3R3/7/7/7/7/7/7/7/6l b", Limits::depth(3));
        assert_eq!(out.best, None);
    }

    #[test]
    fn node_limit_is_exact_on_one_thread_and_repeatable() {
        let limits = Limits {
            nodes: Some(5000),
            ..Limits::default()
        };
        let a = search(crate::board::START_FEN, limits.clone());
        let b = search(crate::board::START_FEN, limits);
        assert_eq!(
            a,
            SearchOutcome {
                elapsed: a.elapsed,
                ..b.clone()
            }
        );
        assert_eq!(a.nodes, 5000);
    }

    #[test]
    fn searchmoves_restricts_the_root() {
        let pos = Position::startpos();
        let only = pos.parse_move("a1b1").expect("legal");
        let out = search(
            crate::board::START_FEN,
            Limits {
                depth: Some(4),
                searchmoves: vec![only],
                ..Limits::default()
            },
        );
        assert_eq!(out.best, Some(only));
    }

    #[test]
    fn repetition_is_a_draw_in_search() {
        // Red is a lion up but the position has occurred twice already: a third time
        // ends the game in a draw, which the search must see through the game history.
        let mut game = Game::new(Position::from_fen("l6/7/7/7/7/7/7/7/T5L r").expect("valid"));
        for m in ["a1a2", "a9a8", "a2a1", "a8a9", "a1a2", "a9a8", "a2a1"] {
            game.play_text(m).expect("legal");
        }
        assert_eq!(game.repetition_count(), 2);
        let mut engine = Engine::new(2).expect("small table");
        engine.options.report = false;
        // The test is about the history, so it needs an evaluation that sees Red's extra
        // tiger: the network, trained on positions with many animals, does not (three
        // animals are the tablebases' domain in play).
        engine.options.eval = crate::nnue::EvalKind::Classical;
        let shared = SharedState::new(1);
        let out = engine.search(&game, &Limits::depth(3), &shared, &|_| {});
        // Blue to move: returning a8a9 repeats the start a third time, a draw, which is
        // better than anything else for the weaker side.
        assert_eq!(out.best.map(|m| m.to_string()), Some("a8a9".into()));
        assert_eq!(out.score, Score::Cp(0));
    }

    /// A seeded engine plays its weakened games again, a copy of its seed state goes
    /// on as it would, and `forget` keeps the game's level row while the seed decides.
    #[test]
    fn a_seeded_engine_plays_the_same_weakened_moves() {
        // 1200 lies between two rows, so the game's seed picks the row too.
        let play = |engine: &mut Engine, games: usize| -> Vec<String> {
            let mut moves = Vec::new();
            for _ in 0..games {
                engine.clear();
                let mut game = Game::startpos();
                for _ in 0..6 {
                    engine.forget();
                    let out =
                        engine.search(&game, &Limits::depth(2), &SharedState::new(1), &|_| {});
                    let m = out.best.expect("a move");
                    moves.push(m.to_string());
                    game.play(m).expect("legal");
                }
            }
            moves
        };
        let weakened = |seed: Option<u64>| {
            let mut engine = Engine::new(1).expect("small table");
            engine.options.report = false;
            engine.options.limit_elo = Some(1200);
            if let Some(seed) = seed {
                engine.seed(seed);
            }
            engine
        };
        let first = play(&mut weakened(Some(7)), 4);
        assert_eq!(first, play(&mut weakened(Some(7)), 4));
        assert_ne!(first, play(&mut weakened(Some(8)), 4));
        let mut original = weakened(Some(7));
        play(&mut original, 1);
        let state = original.seed_state().expect("seeded");
        let mut copy = weakened(None);
        assert_eq!(copy.seed_state(), None);
        copy.set_seed_state(state);
        assert_eq!(play(&mut original, 2), play(&mut copy, 2));
    }

    /// With `rules_repetition`, going back to a position of the game that occurred
    /// once is its second occurrence, not a draw (the rules draw at the third); in
    /// play every repetition scores as a draw at once.
    #[test]
    fn a_second_occurrence_before_the_root_is_no_draw_by_the_rules() {
        let mut game = Game::new(Position::from_fen("l6/7/7/7/7/7/7/7/T5L r").expect("valid"));
        for m in ["a1a2", "a9a8", "a2a1"] {
            game.play_text(m).expect("legal");
        }
        let score = |rules_repetition: bool| {
            let mut engine = Engine::new(2).expect("small table");
            engine.options.report = false;
            engine.options.eval = crate::nnue::EvalKind::Classical;
            engine.options.rules_repetition = rules_repetition;
            let shared = SharedState::new(1);
            let out = engine.search(&game, &Limits::depth(3), &shared, &|_| {});
            (out.best.map(|m| m.to_string()), out.score)
        };
        assert_eq!(score(false), (Some("a8a9".into()), Score::Cp(0)));
        let (_, by_rules) = score(true);
        assert!(matches!(by_rules, Score::Cp(cp) if cp < 0), "{by_rules:?}");
    }
}
