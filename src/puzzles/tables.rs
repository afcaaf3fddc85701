//! Puzzles from the endgame tables: random positions of chosen signatures, kept when
//! the tables make them puzzles. A win is a position the side to move wins within the
//! line's length; a draw one where it draws. Each position is shown at random with
//! the colours exchanged (the board turned round) and mirrored left to right, so that
//! the set is not all Red to move on the left half (the tables store one of each).

use super::Worker;
use crate::board::geometry::WATER;
use crate::board::Position;
use crate::board::{Animal, Color, WinReason};
use crate::game::Game;
use crate::game::GameResult;
use crate::puzzle::verify::wins_at_once;
use crate::puzzle::{Goal, Puzzle, Theme};
use crate::rng::Rng;
use crate::tb::{Material, Tablebases, TbValue};
use std::collections::HashSet;

/// How many puzzles to take from one signature, and how hard to look.
#[derive(Clone, Copy, Debug)]
pub struct TableSettings {
    pub wins: usize,
    pub draws: usize,
    /// Positions drawn from the table at most.
    pub tries: usize,
    pub seed: u64,
    /// Only puzzles with this theme are kept.
    pub theme: Option<Theme>,
    /// Only win puzzles of at least this many solver moves are kept (1: all).
    pub min_moves: usize,
}

/// The position string of `pos` with the colours exchanged (ranks reversed, letters'
/// case swapped, the other side to move) and/or files mirrored: the board is the same
/// under both.
pub fn transformed(pos: &Position, swap_colours: bool, mirror: bool) -> String {
    let fen = pos.to_fen();
    let mut fields = fen.split_whitespace();
    let placement = fields.next().unwrap_or_default();
    let side = fields.next().unwrap_or("r");
    let rest: Vec<&str> = fields.collect();
    let mut ranks: Vec<String> = placement.split('/').map(str::to_string).collect();
    if mirror {
        ranks = ranks.iter().map(|r| r.chars().rev().collect()).collect();
    }
    let mut side = side.to_string();
    if swap_colours {
        ranks.reverse();
        ranks = ranks
            .iter()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        side = if side == "r" { "b".into() } else { "r".into() };
    }
    let mut out = format!("{} {side}", ranks.join("/"));
    for f in rest {
        out.push(' ');
        out.push_str(f);
    }
    out
}

/// Puzzles from one signature's table (built or loaded first).
pub fn mine_signature(
    w: &mut Worker,
    tables: &Tablebases,
    material: Material,
    settings: &TableSettings,
    excluded: &HashSet<u64>,
) -> Result<Vec<Puzzle>, String> {
    let table = tables
        .ensure(material, &|_| {})
        .map_err(|e| format!("{material}: {e}"))?;
    let max = w.verifier.settings.max_moves;
    let mut out = Vec::new();
    let (mut wins, mut draws) = (0, 0);
    let mut seen = HashSet::new();
    let mut rng =
        Rng::new(settings.seed ^ (u64::from(material.red) << 8 | u64::from(material.blue)))
            .next_u64();
    // With a theme (rare), a walk over the whole table from a random start by a
    // stride prime to its length; otherwise random draws.
    let len = table.len() as u64;
    let stride = [7919, 104_729, 1]
        .into_iter()
        .find(|&p| len % p != 0)
        .unwrap_or(1);
    let origin = rng;
    for i in 0..settings.tries {
        if wins >= settings.wins && draws >= settings.draws {
            break;
        }
        rng = Rng::new(rng).next_u64();
        let index = match settings.theme {
            Some(_) if i as u64 >= len => break,
            Some(_) => (origin.wrapping_add(i as u64 * stride) % len) as usize,
            None => (rng % len) as usize,
        };
        let goal = match table.entry(index).outcome() {
            // A win in d plies is a line of d / 2 solver moves, rounded up.
            TbValue::Win(d)
                if (d as usize) < 2 * max
                    && (d as usize).div_ceil(2) >= settings.min_moves
                    && wins < settings.wins =>
            {
                Goal::Win
            }
            TbValue::Draw if draws < settings.draws => Goal::Draw,
            _ => continue,
        };
        let pos = table.indexer.position(&table.indexer.decode(index));
        if pos.is_over_on_board() || settings.theme.is_some_and(|t| !may_start(&pos, t)) {
            continue;
        }
        let fen = transformed(&pos, rng >> 62 & 1 == 1, rng >> 61 & 1 == 1);
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        if excluded.contains(&pos.key()) || !seen.insert(pos.key()) {
            continue;
        }
        let game = Game::new(pos);
        let Ok(found) = w.verifier.find(&game, goal) else {
            continue;
        };
        // A line the puzzle format refuses (a draw's line that ends the game by
        // repetition) is passed over, said on stderr; the signature's other positions
        // still count.
        let puzzle = match w.puzzle(pos, Vec::new(), *game.rules(), found) {
            Ok(puzzle) => puzzle,
            Err(e) => {
                eprintln!("puzzles: {material} {}: passed over: {e}", pos.to_fen());
                continue;
            }
        };
        if settings.theme.is_some_and(|t| !puzzle.has(t))
            || (goal == Goal::Win && puzzle.solver_moves().count() < settings.min_moves)
        {
            continue;
        }
        match goal {
            Goal::Win => wins += 1,
            Goal::Draw | Goal::Hold => draws += 1,
        }
        out.push(puzzle);
    }
    Ok(out)
}

/// True when a line of a position of signature `m` can have `theme`: a blocked jump
/// needs a rat and a lion or tiger; the anti-chase themes need `jungle-cn`, which has
/// no tables.
pub fn may_have(m: Material, theme: Theme) -> bool {
    let all = m.red | m.blue;
    let has = |a: Animal| all & (1 << a.index()) != 0;
    match theme {
        Theme::BlockedJump => has(Animal::Rat) && (has(Animal::Lion) || has(Animal::Tiger)),
        Theme::RatTakesElephant => has(Animal::Rat) && has(Animal::Elephant),
        Theme::RiverJump => has(Animal::Lion) || has(Animal::Tiger),
        Theme::Chase73 | Theme::Chase175 | Theme::GameEndgame => false,
        Theme::RiverRat => has(Animal::Rat),
        _ => true,
    }
}

/// False when a line from `pos` cannot have `theme` (a quick look before verifying):
/// a blocked jump needs a rat in the water, and the opponent left without a move a
/// win in one move that does it.
fn may_start(pos: &Position, theme: Theme) -> bool {
    match theme {
        Theme::BlockedJump => {
            !((pos.bb_of(Color::Red, Animal::Rat) | pos.bb_of(Color::Blue, Animal::Rat)) & WATER)
                .is_empty()
        }
        Theme::NoMoves => {
            let game = Game::new(*pos);
            wins_at_once(&game).into_iter().any(|m| {
                let mut g = game.clone();
                g.play(m).is_ok()
                    && matches!(
                        g.result(),
                        GameResult::Win {
                            reason: WinReason::NoMoves,
                            ..
                        }
                    )
            })
        }
        // The opponent to move after the first solver move has few moves.
        Theme::Zugzwang => {
            let game = Game::new(*pos);
            game.legal_moves().iter().any(|&m| {
                let mut g = game.clone();
                g.play(m).is_ok() && g.result() == GameResult::Ongoing && g.legal_moves().len() <= 3
            })
        }
        _ => true,
    }
}

/// `count` signatures of `animals` animals drawn at random (by `seed`), in a fixed
/// order; all of them when there are fewer. With `theme`, only those that may have it.
pub fn signatures(animals: usize, count: usize, seed: u64, theme: Option<Theme>) -> Vec<Material> {
    let mut all: Vec<(u64, Material)> = Material::all_with(animals)
        .into_iter()
        .filter(|&m| theme.map_or(true, |t| may_have(m, t)))
        .map(|m| {
            (
                Rng::new(seed ^ (u64::from(m.red) << 8 | u64::from(m.blue))).next_u64(),
                m,
            )
        })
        .collect();
    all.sort();
    all.into_iter().take(count).map(|(_, m)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Settings;

    /// A position whose line the puzzle format refuses is passed over: LR v D under
    /// the stage's seed once gave a draw line that ends by repetition, and the whole
    /// signature was lost with it.
    #[test]
    fn a_refused_line_costs_its_position_not_its_signature() {
        let tables = super::super::default_tables(None, 3).expect("tables");
        let mut w = Worker::new(Settings::default(), Some(tables.clone()), 3).expect("a worker");
        let settings = TableSettings {
            wins: 2,
            draws: 1,
            tries: 2000,
            seed: 61,
            theme: None,
            min_moves: 1,
        };
        let material = Material::parse("LR v D").expect("a signature");
        let found =
            mine_signature(&mut w, &tables, material, &settings, &HashSet::new()).expect("puzzles");
        assert_eq!(found.len(), 3, "{found:?}");
        for p in &found {
            p.replay().expect("a line the format takes");
        }
    }

    /// With `min_moves`, the last animal is hunted down rather than taken at once:
    /// every win kept takes at least that many solver moves, and each has the theme.
    #[test]
    fn a_least_length_keeps_only_the_longer_hunts() {
        let tables = super::super::default_tables(None, 3).expect("tables");
        let mut w = Worker::new(Settings::default(), Some(tables.clone()), 3).expect("a worker");
        let material = Material::parse("DR v T").expect("a signature");
        let mine = |w: &mut Worker, min_moves: usize| {
            let settings = TableSettings {
                wins: 2,
                draws: 0,
                tries: 200_000,
                seed: 5,
                theme: Some(Theme::LastAnimal),
                min_moves,
            };
            mine_signature(w, &tables, material, &settings, &HashSet::new()).expect("puzzles")
        };
        let any = mine(&mut w, 1);
        assert_eq!(any.len(), 2);
        // Unfiltered, the table's positions are mostly a capture in one.
        assert!(any.iter().any(|p| p.solver_moves().count() == 1), "{any:?}");
        let long = mine(&mut w, 2);
        assert_eq!(long.len(), 2, "{long:?}");
        for p in &long {
            assert!(p.solver_moves().count() >= 2, "{p:?}");
            assert!(p.has(Theme::LastAnimal), "{p:?}");
        }
    }

    #[test]
    fn the_board_turned_round_and_mirrored_is_the_same_game() {
        let pos = Position::from_fen("7/3e3/7/7/7/7/2L4/7/6R r 5 9").expect("a position");
        assert_eq!(
            transformed(&pos, true, false),
            "6r/7/2l4/7/7/7/7/3E3/7 b 5 9"
        );
        assert_eq!(
            transformed(&pos, false, true),
            "7/3e3/7/7/7/7/4L2/7/R6 r 5 9"
        );
        let twice = Position::from_fen(&transformed(&pos, true, true)).expect("a position");
        assert_eq!(
            Position::from_fen(&transformed(&twice, true, true)).expect("a position"),
            pos
        );
    }
}
