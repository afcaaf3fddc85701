//! Puzzles from game records: in each game (decisive or not), the positions of the
//! last `scan_plies` plies with at least `min_animals` animals are judged at a small
//! budget (`scan_nodes`), whichever side is to move, so that a win the side to move
//! missed counts as well as the one the winner played; each that looks like a puzzle
//! is verified at the full budget, earliest first. A puzzle found skips the positions
//! its line spans, and a game gives at most `per_game` puzzles. Its setup is the
//! position string some plies earlier with the moves since as `before`: the
//! opponent's last move under `jungle`, the last 34 plies (what the 7-3 and 17-5
//! rules look back on) under `jungle-cn`.

use super::mine::{candidate_game, CandidateSettings, Layout, PuzzlesRow, SourceGame, VERIFIER};
use super::{in_parallel, Worker};
use crate::board::{Move, Position};
use crate::game::{Game, GameResult, Rules};
use crate::puzzle::theme::chase_forbids;
use crate::puzzle::{Goal, Puzzle};
use crate::record::{self, ReadGame, RecordResult};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

/// How a game is mined.
#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
    /// The last plies of a game looked at.
    pub scan_plies: usize,
    /// Nodes of the first look at a position.
    pub scan_nodes: u64,
    /// Positions with fewer animals on the board are not looked at.
    pub min_animals: usize,
    /// The most puzzles taken from one game.
    pub per_game: usize,
}

/// The most puzzles a mined game gives (`jungle puzzles mine`).
pub const PER_GAME: usize = 3;

/// What became of one game.
#[derive(Clone, Debug, Default)]
pub struct GameReport {
    pub decisive: bool,
    /// Positions where the anti-chase rules forbid the side to move a move.
    pub chased: usize,
    /// Positions that looked like puzzles at the small budget.
    pub candidates: usize,
    /// Why candidates were refused at the full budget.
    pub refusals: Vec<String>,
    /// The game's puzzles, earliest first.
    pub puzzles: Vec<Puzzle>,
}

/// A position of a game that looked like a puzzle at the small budget: the game's
/// index and ply, the goal, the setup (a position string and the moves since) and
/// what the search saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub game: u64,
    pub ply: usize,
    pub goal: Goal,
    pub start: Position,
    pub before: Vec<Move>,
    pub rules: Rules,
    pub best: Move,
    pub score: String,
}

impl Candidate {
    /// `game;ply;goal;position;before;rules;best;score`.
    pub fn to_line(&self) -> String {
        let before: Vec<String> = self.before.iter().map(Move::to_string).collect();
        format!(
            "{};{};{};{};{};{};{};{}",
            self.game,
            self.ply,
            self.goal.name(),
            self.start.to_fen(),
            if before.is_empty() {
                "-".to_string()
            } else {
                before.join(" ")
            },
            self.rules,
            self.best,
            self.score
        )
    }

    /// Reads `to_line`.
    pub fn parse(line: &str) -> Result<Candidate, String> {
        let f: Vec<&str> = line.split(';').collect();
        let [game, ply, goal, fen, before, rules, best, score] = f[..] else {
            return Err(format!("{} fields, expected 8", f.len()));
        };
        let rules: Rules = rules.parse()?;
        let start =
            Position::from_fen_with(fen, rules.moves).map_err(|e| format!("position: {e}"))?;
        let before = if before == "-" {
            Vec::new()
        } else {
            before
                .split_whitespace()
                .map(|m| m.parse::<Move>().map_err(|_| format!("bad move {m:?}")))
                .collect::<Result<_, _>>()?
        };
        let c = Candidate {
            game: game.parse().map_err(|_| format!("bad game {game:?}"))?,
            ply: ply.parse().map_err(|_| format!("bad ply {ply:?}"))?,
            goal: Goal::from_name(goal).ok_or_else(|| format!("bad goal {goal:?}"))?,
            start,
            before,
            rules,
            best: best.parse().map_err(|_| format!("bad move {best:?}"))?,
            score: score.to_string(),
        };
        candidate_game(&c)?;
        Ok(c)
    }
}

/// Plies of history kept before a puzzle: the opponent's last move, or under the
/// anti-chase rules all they can look back on (the mover's last 17 moves).
pub fn history_plies(rules: &Rules) -> usize {
    if rules.anti_chase {
        34
    } else {
        1
    }
}

/// The game up to `ply`, set up as a puzzle would be: the position string `k` plies
/// earlier and the moves since.
fn setup(
    start: Position,
    rules: Rules,
    moves: &[Move],
    ply: usize,
) -> Result<(Game, usize), String> {
    let k = history_plies(&rules).min(ply);
    let mut full = Game::with_rules(start, rules);
    for &m in &moves[..ply - k] {
        full.play(m).map_err(|e| e.to_string())?;
    }
    let mut game = Game::with_rules(*full.position(), rules);
    for &m in &moves[ply - k..ply] {
        game.play(m).map_err(|e| e.to_string())?;
    }
    Ok((game, k))
}

/// The plies of a game under the anti-chase rules before which they forbid the side
/// to move a move (none under other rules).
fn chase_plies(start: Position, rules: Rules, moves: &[Move]) -> Vec<usize> {
    let mut plies = Vec::new();
    if !rules.anti_chase {
        return plies;
    }
    let mut game = Game::with_rules(start, rules);
    for (ply, &m) in moves.iter().enumerate() {
        let (a, b) = chase_forbids(&game);
        if a || b {
            plies.push(ply);
        }
        if game.play(m).is_err() {
            break;
        }
    }
    plies
}

/// The candidates of one game, earliest first.
pub fn mine_candidates(
    w: &mut Worker,
    g: &SourceGame,
    settings: &CandidateSettings,
) -> Vec<Candidate> {
    let moves = &g.moves;
    let first = moves.len().saturating_sub(settings.scan_plies);
    // Under the anti-chase rules, positions anywhere in the game from which a move
    // forbidden by them is at most 3 plies away are looked at too.
    let chased = chase_plies(g.start, g.rules, moves);
    let mut out = Vec::new();
    for ply in 0..=moves.len() {
        if ply < first && !chased.iter().any(|&c| c >= ply && c <= ply + 3) {
            continue;
        }
        let Ok((game, k)) = setup(g.start, g.rules, moves, ply) else {
            continue;
        };
        if game.result() != GameResult::Ongoing
            || (game.position().all_occupied().count() as usize) < settings.min_animals
        {
            continue;
        }
        if let Some((goal, best, score)) =
            w.verifier
                .scan(&game, settings.scan_nodes, settings.max_moves)
        {
            out.push(Candidate {
                game: g.index,
                ply,
                goal,
                start: *game.start_position(),
                before: moves[ply - k..ply].to_vec(),
                rules: g.rules,
                best,
                score: score.to_string(),
            });
        }
    }
    out
}

/// Verifies the candidates of one game, earliest first: a puzzle found skips the
/// candidates its line spans, and at most `per_game` are taken.
pub fn verify_candidates(
    w: &mut Worker,
    candidates: &[Candidate],
    per_game: usize,
    excluded: &HashSet<u64>,
) -> GameReport {
    let mut report = GameReport {
        candidates: candidates.len(),
        ..GameReport::default()
    };
    // The first ply not inside a puzzle's line already taken.
    let mut free = 0;
    for c in candidates {
        if c.ply < free || report.puzzles.len() >= per_game {
            continue;
        }
        if c.before.is_empty() {
            // The game's first position: a puzzle from a game carries the move before.
            report.refusals.push("no move before it".into());
            continue;
        }
        let Ok(game) = candidate_game(c) else {
            report.refusals.push("the candidate does not replay".into());
            continue;
        };
        if excluded.contains(&game.position().key()) || excluded.contains(&c.start.key()) {
            report.refusals.push("a test-book position".into());
            continue;
        }
        match w.verifier.find(&game, c.goal) {
            Ok(found) => match w.puzzle(c.start, c.before.clone(), c.rules, found) {
                Ok(p) if !super::in_test_books(&p, excluded) => {
                    free = c.ply + p.solution.len();
                    report.puzzles.push(p);
                }
                Ok(_) => report.refusals.push("a test-book position".into()),
                Err(e) => report.refusals.push(e),
            },
            Err(refusal) => report.refusals.push(refusal.to_string()),
        }
    }
    report
}

/// A read record as a game to mine.
fn source_game(index: u64, g: &ReadGame) -> Result<SourceGame, String> {
    let end = record::replay(g)?;
    Ok(SourceGame {
        index,
        red: g.tag("Red").unwrap_or("?").to_string(),
        blue: g.tag("Blue").unwrap_or("?").to_string(),
        rules: g.rules,
        start: g.start,
        moves: end.moves().to_vec(),
        result: g.result.unwrap_or(RecordResult::Unfinished),
        termination: g.tag("Termination").unwrap_or("").to_string(),
    })
}

/// Mines one game of a record file for puzzles (`jungle puzzles games`).
pub fn mine_game(
    w: &mut Worker,
    g: &ReadGame,
    settings: &GameSettings,
    excluded: &HashSet<u64>,
) -> GameReport {
    let Ok(game) = source_game(0, g) else {
        return GameReport {
            refusals: vec!["the game does not replay".into()],
            ..GameReport::default()
        };
    };
    let scan = CandidateSettings {
        scan_plies: settings.scan_plies,
        scan_nodes: settings.scan_nodes,
        min_animals: settings.min_animals,
        max_moves: w.verifier.settings.max_moves,
    };
    let candidates = mine_candidates(w, &game, &scan);
    let mut report = verify_candidates(w, &candidates, settings.per_game, excluded);
    report.decisive = matches!(game.result, RecordResult::RedWins | RecordResult::BlueWins);
    report.chased = chase_plies(game.start, game.rules, &game.moves).len();
    report
}

/// Verifies shard `k`'s candidates into `shard-K.txt` (through a `.part` file) and
/// writes its row beside it (`shard-K.puzzles.row`).
pub fn verify_shard(
    layout: &Layout,
    k: u32,
    workers: &mut [Worker],
    log: &mut dyn FnMut(&str),
) -> Result<PuzzlesRow, String> {
    let started = std::time::Instant::now();
    let path = layout.file(k, "cand");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut by_game: BTreeMap<u64, Vec<Candidate>> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let c = Candidate::parse(line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
        by_game.entry(c.game).or_default().push(c);
    }
    let groups: Vec<Vec<Candidate>> = by_game.into_values().collect();
    let excluded = super::test_book_keys();
    let mut tally = Tally::default();
    let mut out = String::new();
    let job =
        |w: &mut Worker, cands: &Vec<Candidate>| verify_candidates(w, cands, PER_GAME, &excluded);
    // Large batches keep every worker busy (a batch waits for its slowest game); the
    // tables of 4 animals loaded for one are trimmed after it.
    let batch = 32 * workers.len().max(1);
    for chunk in groups.chunks(batch) {
        in_parallel(workers, chunk, &job, &mut |_, report| {
            tally.add(&report);
            for p in &report.puzzles {
                out += &p.to_string();
                out.push('\n');
            }
        });
        super::trim_tables(&workers_tables(workers), 4, 64);
    }
    let _ = writeln!(out, "# shard {k}: {tally}");
    let part = layout.file(k, "txt.part");
    let done = layout.file(k, "txt");
    std::fs::write(&part, &out).map_err(|e| format!("cannot write {}: {e}", part.display()))?;
    std::fs::rename(&part, &done)
        .map_err(|e| format!("cannot rename to {}: {e}", done.display()))?;
    let row = PuzzlesRow {
        verifier: VERIFIER,
        puzzles: tally.puzzles as u64,
        sha: super::mine::sha_of(out.as_bytes()),
        seconds: started.elapsed().as_secs(),
    };
    let row_path = layout.file(k, "puzzles.row");
    std::fs::write(&row_path, format!("{}\n", row.line(k)))
        .map_err(|e| format!("cannot write {}: {e}", row_path.display()))?;
    log(&format!("shard {k}: {tally} in {} s", row.seconds));
    Ok(row)
}

fn workers_tables(workers: &[Worker]) -> Option<std::sync::Arc<crate::tb::Tablebases>> {
    workers.first().and_then(|w| w.verifier.tables())
}

/// Counts over many games, for the summary.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: usize,
    pub decisive: usize,
    pub chased: usize,
    pub candidates: usize,
    pub puzzles: usize,
    /// Refusals by their kind (the text up to the first ':' or digit).
    pub refusals: BTreeMap<String, usize>,
}

impl Tally {
    pub fn add(&mut self, r: &GameReport) {
        self.games += 1;
        self.decisive += usize::from(r.decisive);
        self.candidates += r.candidates;
        self.chased += r.chased;
        self.puzzles += r.puzzles.len();
        for reason in &r.refusals {
            *self.refusals.entry(refusal_kind(reason)).or_default() += 1;
        }
    }
}

/// A refusal's kind for the summary: its text without the solver move it names
/// ("solver move 2: ") and without the moves or details after a ':' or '('.
fn refusal_kind(reason: &str) -> String {
    let text = match reason.strip_prefix("solver move ") {
        Some(rest) => rest.split_once(": ").map_or(rest, |(_, kind)| kind),
        None => reason,
    };
    text.split([':', '('])
        .next()
        .unwrap_or(text)
        .trim()
        .to_string()
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, {} decisive, {} positions with a move the anti-chase rules \
             forbid, {} candidates, {} puzzles",
            self.games, self.decisive, self.chased, self.candidates, self.puzzles
        )?;
        for (kind, n) in &self.refusals {
            write!(f, "; {n} refused: {kind}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;
    use crate::puzzle::{Settings, Theme};

    fn worker() -> Worker {
        let tables = super::super::default_tables(None, 3);
        let settings = Settings {
            nodes: 20_000,
            ..Settings::default()
        };
        Worker::new(settings, tables, 3).expect("a worker")
    }

    fn game(pgn: &str) -> ReadGame {
        let mut games = record::read_records(pgn, Rules::default()).expect("a record");
        games.remove(0)
    }

    /// The composed games of `scripts/puzzle-themes.pgn` give a puzzle each that
    /// relies on an anti-chase rule: tagged with it, and no puzzle without the history
    /// that makes the rule forbid the defence.
    #[test]
    fn the_composed_games_give_the_anti_chase_puzzles() {
        let text = include_str!("../../scripts/puzzle-themes.pgn");
        let games = record::read_records(text, Rules::default()).expect("records");
        let settings = GameSettings {
            scan_plies: 80,
            scan_nodes: 20_000,
            min_animals: 2,
            per_game: 3,
        };
        let mut w = Worker::new(crate::puzzle::Settings::default(), None, 0).expect("a worker");
        let themes = [Theme::Chase73, Theme::Chase175];
        for (g, theme) in games.iter().zip(themes) {
            let report = mine_game(&mut w, g, &settings, &HashSet::new());
            let [p] = &report.puzzles[..] else {
                panic!("one puzzle expected: {report:?}");
            };
            assert!(p.rules.anti_chase && p.has(theme), "{p}");
            assert_eq!(p.solution[0].to_string(), "a9b9", "{p}");
            assert_eq!(w.verifier.verify(p), Ok(()), "{p}");
            // The same position without its history: Blue defends with c7c8.
            let bare = Game::with_rules(*p.game().expect("sets up").position(), p.rules);
            assert!(w.verifier.find(&bare, Goal::Win).is_err(), "{p}");
        }
    }

    #[test]
    fn a_win_the_loser_missed_is_a_puzzle_too() {
        // Red's lion steps to d8 and could enter the den but steps aside; Blue's rat,
        // come to c1, enters Red's den. Both moves were the only win: the loser's
        // missed one and the winner's are each a puzzle (a game may give several).
        // (The game's first position has no move before it: no puzzle.)
        let g = game(
            "[Rules \"jungle\"]\n[FEN \"7/7/3L3/7/7/7/7/7/1r5 r 0 1\"]\n[Result \"0-1\"]\n\n\
             1. d7d8 b1c1 2. d8c8 c1d1 0-1\n",
        );
        let settings = GameSettings {
            scan_plies: 80,
            scan_nodes: 20_000,
            min_animals: 2,
            per_game: 3,
        };
        let report = mine_game(&mut worker(), &g, &settings, &HashSet::new());
        assert!(report.decisive);
        let lines: Vec<String> = report
            .puzzles
            .iter()
            .map(|p| p.solution[0].to_string())
            .collect();
        assert_eq!(lines, ["d8d9", "c1d1"], "{report:?}");
        // At most one a game, and none where fewer animals than asked are on the board.
        let one = GameSettings {
            per_game: 1,
            ..settings
        };
        assert_eq!(
            mine_game(&mut worker(), &g, &one, &HashSet::new())
                .puzzles
                .len(),
            1
        );
        let six = GameSettings {
            min_animals: 6,
            ..settings
        };
        let report = mine_game(&mut worker(), &g, &six, &HashSet::new());
        assert_eq!((report.candidates, report.puzzles.len()), (0, 0));
    }

    #[test]
    fn refusals_are_counted_by_their_kind() {
        assert_eq!(
            refusal_kind("solver move 2: more than one move wins (or holds): e7e8 d7d8"),
            "more than one move wins"
        );
        assert_eq!(
            refusal_kind("the win takes too many moves"),
            "the win takes too many moves"
        );
        assert_eq!(refusal_kind("a test-book position"), "a test-book position");
    }
}
