//! `jungle datagen`: training positions for the evaluation, from the engine's own games.
//!
//! **Games.** Game `i` of a run starts from a random opening: `min_plies..=max_plies`
//! uniformly random legal plies from the start position (how many is random too). The
//! opening is thrown away and another drawn (from the same random stream) when the game
//! ends within those plies, when it is a position of the test books (`openings.txt`,
//! `books/unbalanced.txt`, `books/verified.txt`, `books/calibrated.txt`,
//! `books/calibrated-100k.txt`, and any `--exclude` file: the
//! training and test openings are disjoint), or when the engine's search of its first
//! move scores it beyond ±`opening_margin` or as a mate. Then the engine plays both
//! sides to the end, with a fixed node count per move (one thread; its hash table and
//! move-ordering tables cleared at the start of each opening tried), so a game depends
//! only on the seed, its index `i`, `nodes` and `hash_mb`: never on the thread that
//! played it.
//!
//! **Variety** (all off by default, and then the games are those of earlier versions,
//! byte for byte). `drop_min..=drop_max` animals, drawn at random from both sides, are
//! taken off the board after the random plies (the clock of plies since a capture
//! starts again at 0), so games start from unbalanced positions with fewer animals;
//! such a start is kept as any other is, by the margin and the test books. For the first
//! `sample_plies` plies of the game that follows, the engine searches `sample_lines`
//! lines (MultiPV, within the same node count) and the move played is drawn uniformly
//! among the lines that score within `sample_margin` centipawns of the best one (the
//! recorded score stays the best line's). Both draw from the game's random stream, so
//! a game still depends only on the seed, its index and the settings.
//!
//! **Ends.** Games end by the rules only (`Game::result`: den entered, no animals left,
//! no legal move, threefold repetition, 100 plies without a capture). There is no
//! adjudication: decided games are short in Jungle (a den entry follows soon), and the
//! result label of every position is then the rules' own.
//!
//! **Samples.** Every position the engine moved in is a candidate: the position, the
//! score of its search (centipawns, side to move's view) and the game's final result
//! (side to move's view). A candidate is **not** written when
//! 1. it is not quiet (`quiet::is_quiet`): the side to move has a capture, or an animal
//!    stands on an enemy trap (each trap touches the den, so this covers every pending
//!    den entry, as well as a trapped animal about to be taken);
//! 2. its score is a mate score (the game is decided: the number is a distance, not an
//!    evaluation);
//! 3. it is one of the excluded test-book positions.
//!
//! **Output.** Samples are written in game order, games in index order, whatever the
//! number of threads, in the record format of `data` (16-byte records, no header).
//! `--shard K/N` plays the games `[⌊(K−1)G/N⌋, ⌊KG/N⌋)` of the `G` games
//! (`common::shard`), so the files of shards 1…N concatenate into the unsharded file.

use super::data::{encode, Sample, Wdl};
use super::quiet::is_quiet;
use crate::board::{Animal, Color, Move, Position};
use crate::common::shard::Shard;
use crate::common::test_books::{book_keys, TEST_BOOKS};
use crate::game::{DrawReason, Game, GameResult, Rules};
use crate::nnue::EvalKind;
use crate::rng::Rng;
use crate::search::search::SharedState;
use crate::search::{Engine, Limits, Score, SearchInfo, SearchOutcome};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Openings tried per game before giving up (far more than a sane margin needs).
const MAX_OPENING_TRIES: u32 = 10_000;

#[derive(Clone, Debug)]
pub struct Settings {
    /// Games of the whole (unsharded) run.
    pub games: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    pub threads: usize,
    pub hash_mb: usize,
    pub seed: u64,
    /// Random plies of an opening: between these, both included.
    pub min_plies: u32,
    pub max_plies: u32,
    /// An opening is kept when its first search scores it within this many centipawns.
    pub opening_margin: i32,
    pub shard: Shard,
    /// Animals taken off the board after the random plies: between these, both
    /// included (0 and 0: none).
    pub drop_min: u32,
    pub drop_max: u32,
    /// Plies at the start of a game whose move is drawn among the near-best lines.
    pub sample_plies: u32,
    /// Lines searched (MultiPV) in those plies.
    pub sample_lines: usize,
    /// A line is near-best when it scores within this many centipawns of the best.
    pub sample_margin: i32,
    /// Evaluation of the searches.
    pub eval: EvalKind,
    /// Keys of positions never used as openings or samples.
    pub excluded: HashSet<u64>,
    /// Show a progress line on stderr.
    pub progress: bool,
}

impl Settings {
    /// Settings with the defaults of `jungle datagen` and the test books excluded.
    pub fn new(games: u64, nodes: u64, seed: u64) -> Settings {
        let mut excluded = HashSet::new();
        for (name, text) in TEST_BOOKS {
            // The books are committed and checked by a test: they always parse.
            if let Ok(keys) = book_keys(name, text) {
                excluded.extend(keys);
            }
        }
        Settings {
            games,
            nodes,
            threads: 1,
            hash_mb: 16,
            seed,
            min_plies: 8,
            max_plies: 12,
            opening_margin: 200,
            drop_min: 0,
            drop_max: 0,
            sample_plies: 0,
            sample_lines: 4,
            sample_margin: 30,
            shard: Shard::WHOLE,
            eval: EvalKind::default(),
            excluded,
            progress: false,
        }
    }
}

impl Settings {
    /// Refuses settings that cannot work.
    pub fn check(&self) -> Result<(), DatagenError> {
        let bad = |what: String| Err(DatagenError::Settings(what));
        if self.min_plies > self.max_plies {
            return bad(format!(
                "--min-plies {} is above --max-plies {}",
                self.min_plies, self.max_plies
            ));
        }
        if self.drop_min > self.drop_max {
            return bad(format!(
                "--drop-min {} is above --drop-max {}",
                self.drop_min, self.drop_max
            ));
        }
        if self.drop_max > 14 {
            return bad(format!(
                "--drop-max {} leaves fewer than 2 of the 16 animals",
                self.drop_max
            ));
        }
        if self.sample_plies > 0 && !(1..=64).contains(&self.sample_lines) {
            return bad(format!(
                "--sample-lines {} is not from 1 to 64",
                self.sample_lines
            ));
        }
        if self.sample_margin < 0 {
            return bad(format!(
                "--sample-margin {} is negative",
                self.sample_margin
            ));
        }
        Ok(())
    }
}

/// Why data generation stopped.
#[derive(Debug)]
pub enum DatagenError {
    Io(io::Error),
    /// Settings that cannot work (caught before any game).
    Settings(String),
    /// No opening within the margin was found in `MAX_OPENING_TRIES` tries.
    NoOpening {
        game: u64,
    },
    /// The engine gave no move, or an illegal one, in an ongoing game (a bug).
    Engine {
        game: u64,
        what: String,
    },
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Io(e) => write!(f, "cannot write the data: {e}"),
            DatagenError::Settings(what) => write!(f, "{what}"),
            DatagenError::NoOpening { game } => write!(
                f,
                "game {game}: no opening scored within the margin in {MAX_OPENING_TRIES} tries (is --opening-margin too small?)"
            ),
            DatagenError::Engine { game, what } => write!(f, "game {game}: {what}"),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<io::Error> for DatagenError {
    fn from(e: io::Error) -> DatagenError {
        DatagenError::Io(e)
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    /// Positions the engine moved in.
    pub positions: u64,
    /// Positions written.
    pub samples: u64,
    /// Wins of Red, of Blue; draws by repetition, by the no-capture rule.
    pub red_wins: u64,
    pub blue_wins: u64,
    pub repetitions: u64,
    pub no_capture_draws: u64,
}

impl Stats {
    fn add(&mut self, g: &PlayedGame) {
        self.games += 1;
        self.positions += g.positions;
        self.samples += g.samples.len() as u64;
        match g.result {
            GameResult::Win {
                winner: Color::Red, ..
            } => self.red_wins += 1,
            GameResult::Win { .. } => self.blue_wins += 1,
            GameResult::Draw(DrawReason::Repetition) => self.repetitions += 1,
            _ => self.no_capture_draws += 1,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub index: u64,
    /// The opening the engine started from, and the score of its first search.
    pub start: Position,
    pub opening_score: i32,
    /// Positions the engine moved in.
    pub positions: u64,
    pub samples: Vec<Sample>,
    pub result: GameResult,
}

/// The random stream of game `index` of a run seeded with `seed`.
fn game_rng(seed: u64, index: u64) -> Rng {
    let base = Rng::new(seed).next_u64();
    Rng::new(base ^ index.wrapping_mul(0xd6e8_feb8_6659_fd93))
}

/// Searches the current position of `game` with the node limit.
fn search(engine: &mut Engine, game: &Game, nodes: u64) -> SearchOutcome {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    // A fresh shared state each time: the search sets its stop flag when it ends.
    let shared = SharedState::new(1);
    engine.search(game, &limits, &shared, &|_| {})
}

/// Searches the current position of `game` for `lines` lines (MultiPV) with the node
/// limit; returns the search and the lines of its last completed depth, best first
/// (empty when no depth completed).
fn search_lines(
    engine: &mut Engine,
    game: &Game,
    nodes: u64,
    lines: usize,
) -> (SearchOutcome, Vec<(Move, Score)>) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let shared = SharedState::new(1);
    let reports = Mutex::new(Vec::new());
    let keep = |info: &SearchInfo| {
        if let (Ok(mut r), Some(&mv)) = (reports.lock(), info.pv.first()) {
            r.push((info.depth, info.multipv, mv, info.score));
        }
    };
    let saved = engine.options;
    engine.options.multipv = lines.max(1);
    engine.options.report = true;
    let outcome = engine.search(game, &limits, &shared, &keep);
    engine.options = saved;
    let reports = reports.into_inner().unwrap_or_default();
    // Lines are reported after each completed depth (and, past a second, while one
    // runs): the last report of each line at the completed depth is its final one.
    let mut found: BTreeMap<usize, (Move, Score)> = BTreeMap::new();
    for (depth, k, mv, score) in reports {
        if depth == outcome.depth {
            found.insert(k, (mv, score));
        }
    }
    (outcome, found.into_values().collect())
}

/// A move drawn uniformly among `lines` (best first) that score within `margin` of
/// the best; `None` when there are no lines or the best is not a centipawn score.
fn near_best(lines: &[(Move, Score)], margin: i32, rng: &mut Rng) -> Option<Move> {
    let &(_, Score::Cp(best)) = lines.first()? else {
        return None;
    };
    let near: Vec<Move> = lines
        .iter()
        .filter_map(|&(mv, score)| match score {
            Score::Cp(cp) if cp >= best - margin => Some(mv),
            _ => None,
        })
        .collect();
    Some(near[rng.below(near.len())])
}

/// Random plies from the start; `None` when the game ends within them or the position
/// is excluded.
fn random_opening(rng: &mut Rng, s: &Settings) -> Option<Game> {
    let plies = s.min_plies + rng.below((s.max_plies - s.min_plies + 1) as usize) as u32;
    let mut game = Game::startpos();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]).ok()?;
        if game.result() != GameResult::Ongoing {
            return None;
        }
    }
    if s.drop_max > 0 {
        let drops = s.drop_min + rng.below((s.drop_max - s.drop_min + 1) as usize) as u32;
        game = drop_animals(game.position(), drops, rng)?;
        if game.result() != GameResult::Ongoing {
            return None;
        }
    }
    (!s.excluded.contains(&game.position().key())).then_some(game)
}

/// A new game from `pos` with `count` of its animals, drawn at random, taken off;
/// `None` when there are not that many or the rest is no position.
fn drop_animals(pos: &Position, count: u32, rng: &mut Rng) -> Option<Game> {
    let mut squares = [[None; 8]; 2];
    let mut present = Vec::new();
    for c in Color::BOTH {
        for a in Animal::ALL {
            squares[c.index()][a.index()] = pos.square_of(c, a);
            if squares[c.index()][a.index()].is_some() {
                present.push((c.index(), a.index()));
            }
        }
    }
    if present.len() <= count as usize {
        return None;
    }
    for _ in 0..count {
        let (c, a) = present.swap_remove(rng.below(present.len()));
        squares[c][a] = None;
    }
    let start = Position::from_squares(squares, pos.side_to_move(), 0, Default::default()).ok()?;
    Some(Game::new(start))
}

/// The score to record for a position the engine searched, or `None` when the
/// position is filtered out (see the module header).
pub fn sample_score(pos: &Position, score: Score, excluded: &HashSet<u64>) -> Option<i16> {
    let Score::Cp(cp) = score else {
        return None;
    };
    if !is_quiet(pos, Rules::default()) || excluded.contains(&pos.key()) {
        return None;
    }
    Some(cp.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16)
}

/// The result of a finished game for the side to move in `pos`.
fn outcome_for(result: GameResult, pos: &Position) -> Wdl {
    match result {
        GameResult::Win { winner, .. } if winner == pos.side_to_move() => Wdl::Win,
        GameResult::Win { .. } => Wdl::Loss,
        _ => Wdl::Draw,
    }
}

/// Plays game `index` of the run.
pub fn play_game(
    index: u64,
    s: &Settings,
    engine: &mut Engine,
) -> Result<PlayedGame, DatagenError> {
    let mut rng = game_rng(s.seed, index);
    for _ in 0..MAX_OPENING_TRIES {
        let Some(game) = random_opening(&mut rng, s) else {
            continue;
        };
        engine.clear();
        let first = search(engine, &game, s.nodes);
        match first.score {
            Score::Cp(cp) if cp.abs() <= s.opening_margin => {
                return play_out(index, game, first, cp, s, engine, &mut rng);
            }
            _ => continue,
        }
    }
    Err(DatagenError::NoOpening { game: index })
}

/// Plays `game` to its end; `first` is the search of its current position, which
/// scored `opening_score`.
fn play_out(
    index: u64,
    mut game: Game,
    first: SearchOutcome,
    opening_score: i32,
    s: &Settings,
    engine: &mut Engine,
    rng: &mut Rng,
) -> Result<PlayedGame, DatagenError> {
    let engine_error = |what: String| DatagenError::Engine { game: index, what };
    let start = *game.position();
    let mut kept: Vec<(Position, i16)> = Vec::new();
    let mut positions = 0;
    let mut outcome = first;
    let mut lines = Vec::new();
    if s.sample_plies > 0 {
        (outcome, lines) = search_lines(engine, &game, s.nodes, s.sample_lines);
    }
    loop {
        let pos = *game.position();
        let best = outcome.best.ok_or_else(|| {
            engine_error(format!("no move in the ongoing game at {}", pos.to_fen()))
        })?;
        let best = near_best(&lines, s.sample_margin, rng).unwrap_or(best);
        positions += 1;
        if let Some(score) = sample_score(&pos, outcome.score, &s.excluded) {
            kept.push((pos, score));
        }
        game.play(best)
            .map_err(|e| engine_error(format!("move {best} at {}: {e}", pos.to_fen())))?;
        if game.result() != GameResult::Ongoing {
            break;
        }
        if positions < u64::from(s.sample_plies) {
            (outcome, lines) = search_lines(engine, &game, s.nodes, s.sample_lines);
        } else {
            outcome = search(engine, &game, s.nodes);
            lines.clear();
        }
    }
    let result = game.result();
    let samples = kept
        .into_iter()
        .map(|(pos, score)| Sample {
            pos,
            score,
            outcome: outcome_for(result, &pos),
        })
        .collect();
    Ok(PlayedGame {
        index,
        start,
        opening_score,
        positions,
        samples,
        result,
    })
}

/// Plays this shard's games on `settings.threads` threads and writes their samples to
/// `out` in game order.
pub fn generate(s: &Settings, out: &mut impl Write) -> Result<Stats, DatagenError> {
    s.check()?;
    let range = s.shard.range(s.games);
    let threads = s
        .threads
        .max(1)
        .min((range.end - range.start).max(1) as usize);
    let mut engines = Vec::with_capacity(threads);
    for _ in 0..threads {
        let mut engine = Engine::new(s.hash_mb)
            .map_err(|e| DatagenError::Settings(format!("--hash {}: {e}", s.hash_mb)))?;
        engine.options.report = false;
        engine.options.eval = s.eval;
        engines.push(engine);
    }
    let next = AtomicU64::new(range.start);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<PlayedGame, DatagenError>>();
    let mut progress = Progress::new(s, range.end - range.start);
    let mut stats = Stats::default();
    let mut failure = None;

    std::thread::scope(|scope| {
        for mut engine in engines {
            let (next, stop, tx) = (&next, &stop, tx.clone());
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= range.end || tx.send(play_game(i, s, &mut engine)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);

        // Games finish out of order: hold them until all earlier ones are written.
        let mut pending = BTreeMap::new();
        let mut expected = range.start;
        for played in rx {
            if failure.is_some() {
                continue;
            }
            let played = match played {
                Ok(g) => g,
                Err(e) => {
                    failure = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            pending.insert(played.index, played);
            while let Some(g) = pending.remove(&expected) {
                let mut bytes = Vec::with_capacity(g.samples.len() * super::data::RECORD_BYTES);
                for sample in &g.samples {
                    bytes.extend_from_slice(&encode(sample));
                }
                if let Err(e) = out.write_all(&bytes) {
                    failure = Some(e.into());
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                stats.add(&g);
                expected += 1;
                progress.update(&stats);
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    out.flush()?;
    progress.finish(&stats);
    Ok(stats)
}

/// The progress line on stderr: a bar on a terminal, otherwise a plain line every
/// half minute (for the log of a batch job).
struct Progress {
    start: Instant,
    total_games: u64,
    bar: Option<indicatif::ProgressBar>,
    last_line: Instant,
    enabled: bool,
}

impl Progress {
    fn new(s: &Settings, total_games: u64) -> Progress {
        let bar = (s.progress && io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(total_games);
            let style = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg}, ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style.progress_chars("=> "));
            bar
        });
        Progress {
            start: Instant::now(),
            total_games,
            bar,
            last_line: Instant::now(),
            enabled: s.progress,
        }
    }

    fn message(&self, stats: &Stats) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        format!(
            "{} positions ({:.0}/s), {} samples ({:.0}/s)",
            stats.positions,
            stats.positions as f64 / secs,
            stats.samples,
            stats.samples as f64 / secs
        )
    }

    fn update(&mut self, stats: &Stats) {
        if !self.enabled {
            return;
        }
        let message = self.message(stats);
        if let Some(bar) = &self.bar {
            bar.set_position(stats.games);
            bar.set_message(message);
        } else if self.last_line.elapsed() >= Duration::from_secs(30) {
            self.last_line = Instant::now();
            let elapsed = self.start.elapsed().as_secs_f64();
            let eta = elapsed / stats.games.max(1) as f64
                * self.total_games.saturating_sub(stats.games) as f64;
            eprintln!(
                "datagen: {}/{} games, {message}, ETA {:.0} s",
                stats.games, self.total_games, eta
            );
        }
    }

    fn finish(&self, stats: &Stats) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if self.enabled {
            eprintln!(
                "datagen: {} games in {:.1} s, {}; Red won {}, Blue won {}, drawn {} by repetition and {} by the no-capture rule",
                stats.games,
                self.start.elapsed().as_secs_f64(),
                self.message(stats),
                stats.red_wins,
                stats.blue_wins,
                stats.repetitions,
                stats.no_capture_draws
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::{read_samples, RECORD_BYTES};

    fn settings(games: u64) -> Settings {
        let mut s = Settings::new(games, 400, 11);
        s.hash_mb = 1;
        s
    }

    fn run(s: &Settings) -> (Vec<u8>, Stats) {
        let mut out = Vec::new();
        let stats = generate(s, &mut out).expect("generates");
        (out, stats)
    }

    #[test]
    fn output_does_not_depend_on_threads_and_shards_concatenate() {
        let mut s = settings(7);
        let (whole, stats) = run(&s);
        assert_eq!(stats.games, 7);
        assert_eq!(whole.len() as u64, stats.samples * RECORD_BYTES as u64);
        assert!(stats.samples > 7 * 10, "{stats:?}");
        s.threads = 3;
        assert_eq!(run(&s).0, whole, "3 threads");
        let mut joined = Vec::new();
        let mut games = 0;
        for k in 1..=3 {
            s.shard = Shard::new(k, 3).expect("valid");
            s.threads = k as usize;
            let (part, stats) = run(&s);
            games += stats.games;
            joined.extend(part);
        }
        assert_eq!(games, 7);
        assert_eq!(joined, whole, "shards 1/3 + 2/3 + 3/3");
        // Another seed, other games.
        s.shard = Shard::WHOLE;
        s.seed = 12;
        assert_ne!(run(&s).0, whole);
    }

    #[test]
    fn samples_round_trip_and_carry_the_game_result() {
        let s = settings(4);
        let mut engine = Engine::new(1).expect("hash");
        engine.options.report = false;
        let mut all = Vec::new();
        for i in 0..4 {
            let g = play_game(i, &s, &mut engine).expect("plays");
            assert!(g.positions >= g.samples.len() as u64 && !g.samples.is_empty());
            for sample in &g.samples {
                let expected = match g.result {
                    GameResult::Win { winner, .. } if winner == sample.pos.side_to_move() => {
                        Wdl::Win
                    }
                    GameResult::Win { .. } => Wdl::Loss,
                    _ => Wdl::Draw,
                };
                assert_eq!(sample.outcome, expected);
                assert!(is_quiet(&sample.pos, Rules::default()));
            }
            all.extend(g.samples);
        }
        let (bytes, _) = run(&s);
        let back = read_samples(&mut bytes.as_slice()).expect("reads");
        assert_eq!(back.len(), all.len());
        for (a, b) in all.iter().zip(&back) {
            assert_eq!(
                (a.pos.key(), a.score, a.outcome),
                (b.pos.key(), b.score, b.outcome)
            );
            assert_eq!(a.pos.halfmove_clock().min(255), b.pos.halfmove_clock());
        }
    }

    #[test]
    fn filters_drop_captures_trap_intruders_mates_and_book_positions() {
        let none = HashSet::new();
        let quiet = Position::from_fen("l6/7/7/7/7/7/7/7/6L r").expect("valid");
        assert_eq!(sample_score(&quiet, Score::Cp(35), &none), Some(35));
        assert_eq!(
            sample_score(&quiet, Score::Cp(-99_999), &none),
            Some(-32767)
        );
        assert_eq!(sample_score(&quiet, Score::Mate(3), &none), None);
        assert_eq!(sample_score(&quiet, Score::Mate(-1), &none), None);
        let capture = Position::from_fen("l6/7/7/7/c6/D6/7/7/6L r").expect("valid");
        assert_eq!(sample_score(&capture, Score::Cp(35), &none), None);
        let intruder = Position::from_fen("l6/3R3/7/7/7/7/7/7/6L b").expect("valid");
        assert_eq!(sample_score(&intruder, Score::Cp(35), &none), None);
        let book: HashSet<u64> = [quiet.key()].into();
        assert_eq!(sample_score(&quiet, Score::Cp(35), &book), None);
    }

    #[test]
    fn openings_avoid_excluded_positions_and_keep_to_the_margin() {
        let mut s = settings(1);
        s.excluded.clear();
        let mut engine = Engine::new(1).expect("hash");
        engine.options.report = false;
        let first = play_game(0, &s, &mut engine).expect("plays").start;
        s.excluded.insert(first.key());
        let second = play_game(0, &s, &mut engine).expect("plays").start;
        assert_ne!(first.key(), second.key());
        // The first search of every opening is within the margin; none is a book position.
        let s = settings(6);
        for i in 0..6 {
            let g = play_game(i, &s, &mut engine).expect("plays");
            assert!(!s.excluded.contains(&g.start.key()));
            let plies = g.start.fullmove_number() * 2 - 2
                + u32::from(g.start.side_to_move() == Color::Blue);
            assert!((8..=12).contains(&plies), "{plies}");
            assert!(
                g.opening_score.abs() <= s.opening_margin,
                "{}",
                g.opening_score
            );
        }
        // An impossible opening band is an error, not a hang.
        let mut s = settings(1);
        s.min_plies = 5;
        s.max_plies = 4;
        let err = generate(&s, &mut Vec::new()).expect_err("refused");
        assert!(err
            .to_string()
            .contains("--min-plies 5 is above --max-plies 4"));
    }

    fn animals(pos: &Position) -> usize {
        Color::BOTH
            .iter()
            .flat_map(|&c| Animal::ALL.map(|a| pos.square_of(c, a)))
            .flatten()
            .count()
    }

    #[test]
    fn dropped_animals_start_unbalanced_games_the_same_on_any_thread_count() {
        let mut s = settings(4);
        s.drop_min = 3;
        s.drop_max = 5;
        s.opening_margin = 600;
        let mut engine = Engine::new(1).expect("hash");
        engine.options.report = false;
        let mut seen = HashSet::new();
        for i in 0..4 {
            let g = play_game(i, &s, &mut engine).expect("plays");
            let n = animals(&g.start);
            assert!((11..=13).contains(&n), "{n} animals");
            assert_eq!(g.start.halfmove_clock(), 0);
            assert!(g.opening_score.abs() <= 600);
            seen.insert(n);
        }
        assert!(seen.len() >= 2, "{seen:?}");
        let (one, _) = run(&s);
        s.threads = 2;
        assert_eq!(run(&s).0, one);
        // Off, the games are those of the defaults.
        s.drop_max = 0;
        s.drop_min = 0;
        s.opening_margin = 200;
        assert_eq!(run(&s).0, run(&settings(4)).0);
        assert_ne!(run(&s).0, one);
    }

    #[test]
    fn near_best_sampling_varies_the_games_and_stays_deterministic() {
        let mut s = settings(4);
        let (plain, _) = run(&s);
        s.sample_plies = 8;
        s.sample_lines = 4;
        s.sample_margin = 1000;
        let (sampled, stats) = run(&s);
        assert_ne!(sampled, plain);
        assert_eq!(stats.games, 4);
        s.threads = 3;
        assert_eq!(run(&s).0, sampled);
        // The lines of a search: the best first, from its completed depth.
        let game = Game::startpos();
        let mut engine = Engine::new(1).expect("hash");
        engine.options.report = false;
        let (outcome, lines) = search_lines(&mut engine, &game, 2000, 4);
        assert_eq!(lines.len(), 4);
        assert!(outcome.depth >= 1);
        // Four different moves, best first (the search's own best may come from the
        // depth it was stopped in, after the lines' completed one).
        let moves: std::collections::HashSet<Move> = lines.iter().map(|l| l.0).collect();
        assert_eq!(moves.len(), 4);
        assert!(
            lines
                .windows(2)
                .all(|w| w[0].1.to_internal() >= w[1].1.to_internal()),
            "{lines:?}"
        );
        assert_eq!((engine.options.multipv, engine.options.report), (1, false));
    }

    #[test]
    fn near_best_draws_only_within_the_margin() {
        let game = Game::startpos();
        let moves = game.legal_moves();
        let (a, b, c) = (moves[0], moves[1], moves[2]);
        let lines = [(a, Score::Cp(10)), (b, Score::Cp(-5)), (c, Score::Cp(-50))];
        let mut rng = Rng::new(3);
        let drawn: HashSet<Move> = (0..200)
            .filter_map(|_| near_best(&lines, 20, &mut rng))
            .collect();
        assert_eq!(drawn, [a, b].into());
        assert_eq!(near_best(&lines, 0, &mut rng), Some(a));
        assert_eq!(
            near_best(&[(a, Score::Mate(2)), (b, Score::Cp(0))], 500, &mut rng),
            None
        );
        assert_eq!(near_best(&[], 500, &mut rng), None);
    }

    #[test]
    fn impossible_variety_settings_are_refused() {
        for (change, message) in [
            (
                (|s: &mut Settings| {
                    s.drop_min = 3;
                    s.drop_max = 2;
                }) as fn(&mut Settings),
                "--drop-min 3 is above --drop-max 2",
            ),
            (|s| s.drop_max = 15, "--drop-max 15 leaves fewer than 2"),
            (
                |s| {
                    s.sample_plies = 4;
                    s.sample_lines = 0;
                },
                "--sample-lines 0 is not from 1 to 64",
            ),
            (|s| s.sample_margin = -1, "--sample-margin -1 is negative"),
        ] {
            let mut s = settings(1);
            change(&mut s);
            let err = generate(&s, &mut Vec::new()).expect_err("refused");
            assert!(err.to_string().contains(message), "{err}");
        }
    }

    #[test]
    fn the_test_books_parse_and_share_no_position() {
        let openings = book_keys(TEST_BOOKS[0].0, TEST_BOOKS[0].1).expect("parses");
        let unbalanced = book_keys(TEST_BOOKS[1].0, TEST_BOOKS[1].1).expect("parses");
        assert!(openings.len() >= 1000 && unbalanced.len() >= 1000);
        let a: HashSet<u64> = openings.iter().copied().collect();
        let b: HashSet<u64> = unbalanced.iter().copied().collect();
        assert_eq!(a.len(), openings.len(), "openings.txt repeats a position");
        assert_eq!(
            b.len(),
            unbalanced.len(),
            "the unbalanced book repeats a position"
        );
        assert!(a.is_disjoint(&b));
        // The verified book comes from the same random lines as the unbalanced one
        // (same seed, plies and depth, a wider band): they share positions, but
        // neither shares any with openings.txt.
        let verified = book_keys(TEST_BOOKS[2].0, TEST_BOOKS[2].1).expect("parses");
        let c: HashSet<u64> = verified.iter().copied().collect();
        assert_eq!(
            c.len(),
            verified.len(),
            "the verified book repeats a position"
        );
        assert!(a.is_disjoint(&c));
        // The calibrated book shares no position with any other.
        let calibrated = book_keys(TEST_BOOKS[3].0, TEST_BOOKS[3].1).expect("parses");
        let d: HashSet<u64> = calibrated.iter().copied().collect();
        assert_eq!(
            d.len(),
            calibrated.len(),
            "the calibrated book repeats a position"
        );
        assert!(d.len() >= 100);
        assert!(a.is_disjoint(&d) && b.is_disjoint(&d) && c.is_disjoint(&d));
        // So does the one calibrated at 100k nodes.
        let near_clock = book_keys(TEST_BOOKS[4].0, TEST_BOOKS[4].1).expect("parses");
        let e: HashSet<u64> = near_clock.iter().copied().collect();
        assert_eq!(
            e.len(),
            near_clock.len(),
            "the 100k book repeats a position"
        );
        assert!(e.len() >= 60);
        assert!([&a, &b, &c, &d].iter().all(|other| other.is_disjoint(&e)));
        let all: HashSet<u64> = a
            .iter()
            .chain(&b)
            .chain(&c)
            .chain(&d)
            .chain(&e)
            .copied()
            .collect();
        assert_eq!(settings(1).excluded, all);
    }
}
