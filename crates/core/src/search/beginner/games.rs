//! The first level in whole games against a player that moves at random: it wins,
//! it advances, it captures and threatens, and through the engine it plays only
//! legal moves. Every game is seeded, so the figures are fixed; together they take
//! well under a second.

use super::attack_made;
use crate::board::geometry::{distance, DEN};
use crate::board::movegen::legal_moves;
use crate::board::{Color, Move, Position, Standard};
use crate::game::{Game, GameResult, Variant};
use crate::rng::Rng;
use crate::search::search::RootMove;
use crate::search::strength::{Strength, ELO_MIN};
use crate::search::{Engine, Limits};

/// The first level's move in `pos` (legal moves `moves`), drawn as the engine draws
/// it: `Strength` at the lowest `UCI_Elo`, with the search's seed `seed`.
fn level_one(pos: &Position, moves: &[Move], seed: u64) -> Move {
    let roots: Vec<RootMove> = moves
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: 0,
            previous_score: 0,
            display_score: 0,
            bound: None,
            seldepth: 1,
            pv: vec![mv],
        })
        .collect();
    let strength = Strength::at_elo(ELO_MIN, seed, seed);
    moves[strength.pick::<Standard>(pos, &roots, roots.len())]
}

/// A legal move at random.
fn random_move(moves: &[Move], seed: u64) -> Move {
    moves[Rng::new(seed).below(moves.len())]
}

/// The average distance of `side`'s animals to the enemy den.
fn mean_distance(pos: &Position, side: Color) -> f64 {
    let den = DEN[side.other().index()];
    let squares: Vec<u8> = pos.occupied(side).map(|sq| distance(sq, den)).collect();
    squares.iter().map(|&d| f64::from(d)).sum::<f64>() / squares.len().max(1) as f64
}

/// True when `m` takes an animal that nothing can take back (and the opponent cannot
/// enter the den instead).
fn keeps(pos: &Position, m: Move) -> bool {
    if !pos.is_capture(m) {
        return false;
    }
    let mut after = *pos;
    after.play(m);
    !legal_moves(&after)
        .as_slice()
        .iter()
        .any(|&r| r.to() == m.to() || after.is_den_entry(r))
}

/// What a game of the first level against random play showed.
struct Played {
    result: GameResult,
    /// The first level's side.
    side: Color,
    /// Its captures and its threats (moves after which the animal moved could take an
    /// enemy animal) in the first `early` plies of the game.
    early_captures: usize,
    early_threats: usize,
    /// The average distance of its animals to the enemy den before each of its moves.
    distances: Vec<f64>,
    /// Its moves with an enemy animal left hanging (one it can take and keep), and
    /// how many of them took one.
    hanging: usize,
    hanging_taken: usize,
}

/// Plays game `seed` (the first level Red in even games, Blue in odd ones) to its end
/// or 400 plies, counting captures and threats in the first `early` plies.
fn play(seed: u64, early: usize) -> Played {
    let side = if seed % 2 == 0 {
        Color::Red
    } else {
        Color::Blue
    };
    let mut game = Game::startpos();
    let mut played = Played {
        result: GameResult::Ongoing,
        side,
        early_captures: 0,
        early_threats: 0,
        distances: Vec::new(),
        hanging: 0,
        hanging_taken: 0,
    };
    for ply in 0..400u64 {
        played.result = game.result();
        if played.result != GameResult::Ongoing {
            break;
        }
        let pos = *game.position();
        let moves = game.legal_moves();
        let draw = Rng::new(seed << 16 | ply).next_u64();
        let m = if pos.side_to_move() == side {
            played.distances.push(mean_distance(&pos, side));
            let m = level_one(&pos, moves.as_slice(), draw);
            let free: Vec<Move> = moves.iter().copied().filter(|&c| keeps(&pos, c)).collect();
            if !free.is_empty() {
                played.hanging += 1;
                played.hanging_taken += usize::from(free.contains(&m));
            }
            if (ply as usize) < early {
                let mut after = pos;
                after.play(m);
                played.early_captures += usize::from(pos.is_capture(m));
                played.early_threats += usize::from(attack_made::<Standard>(&after, m) > 0);
            }
            m
        } else {
            random_move(moves.as_slice(), draw)
        };
        game.play(m).expect("a legal move");
    }
    played
}

fn won(p: &Played) -> bool {
    matches!(p.result, GameResult::Win { winner, .. } if winner == p.side)
}

#[test]
fn it_beats_random_play() {
    // 100 games, 50 as each colour (refereed at 50 ms a move over 200 games it won
    // 197 and drew 2).
    let games: Vec<Played> = (0..100).map(|seed| play(seed, 0)).collect();
    let wins = games.iter().filter(|p| won(p)).count();
    assert!(wins >= 95, "{wins} wins of 100");
}

#[test]
fn it_takes_free_animals_in_play() {
    // Of its moves in 40 games against random play that had an animal to take for
    // free, the share that took one. Alone on the board (the `HANGING` positions) it
    // takes most; in play a bigger animal next to it lures it (`confusion`) and it
    // overlooks captures (`sight`), so here it takes fewer, but far more than the
    // level before it, which took 28 of 200 even alone.
    let games: Vec<Played> = (0..40).map(|seed| play(seed, 0)).collect();
    let hanging: usize = games.iter().map(|p| p.hanging).sum();
    let taken: usize = games.iter().map(|p| p.hanging_taken).sum();
    eprintln!("animals left hanging: taken on {taken} of {hanging} moves");
    assert!(
        taken * 10 > hanging * 3,
        "taken on {taken} of {hanging} moves"
    );
}

#[test]
fn its_animals_come_nearer_the_enemy_den() {
    // Its animals come nearer the enemy den over its first 15 moves, in nearly
    // every game and by more than a step on average.
    let games: Vec<Played> = (0..40).map(|seed| play(seed, 0)).collect();
    let gains: Vec<f64> = games
        .iter()
        .filter(|p| p.distances.len() > 15)
        .map(|p| p.distances[0] - p.distances[15])
        .collect();
    let advanced = gains.iter().filter(|&&g| g > 0.0).count();
    let mean = gains.iter().sum::<f64>() / gains.len() as f64;
    assert!(
        advanced * 10 >= gains.len() * 9,
        "{advanced} of {}",
        gains.len()
    );
    assert!(mean > 1.0, "{mean}");
}

/// Captures and threats in the first `plies` plies of 40 games: (captures, games with
/// one, threats, games with one).
fn early_play(plies: usize) -> (usize, usize, usize, usize) {
    let games: Vec<Played> = (0..40).map(|seed| play(seed, plies)).collect();
    let captures = games.iter().map(|p| p.early_captures).sum();
    let capturing = games.iter().filter(|p| p.early_captures > 0).count();
    let threats = games.iter().map(|p| p.early_threats).sum();
    let threatening = games.iter().filter(|p| p.early_threats > 0).count();
    eprintln!(
        "first {plies} plies of 40 games: {captures} captures ({capturing} games with one), \
         {threats} threats ({threatening} games with one)"
    );
    (captures, capturing, threats, threatening)
}

#[test]
fn it_captures_and_threatens_against_random_play() {
    // The weakest level before the beginner made no capture and no threat over 20
    // random moves of its opponent. `cargo test --release -p jungle-core
    // captures_and_threatens -- --nocapture` prints the figures.
    let (captures, capturing, threats, threatening) = early_play(40);
    assert!(
        capturing >= 25 && threatening >= 32,
        "{capturing}, {threatening} of 40"
    );
    assert!(
        captures >= 35 && threats >= 70,
        "{captures} captures, {threats} threats"
    );
    // The sides meet after a few moves: some come within the first ten.
    let (captures, _, threats, _) = early_play(20);
    assert!(
        captures + threats >= 20,
        "{captures} captures, {threats} threats"
    );
}

#[test]
fn through_the_engine_it_plays_only_legal_moves() {
    // The first level as the protocol selects it, under the Chinese rules (whose
    // anti-chase rules forbid some moves) against random play; the engine's own
    // seeds come from the clock, so any move it draws must be legal.
    let mut engine = Engine::new(2).expect("small table");
    engine.options.report = false;
    engine.options.limit_elo = Some(ELO_MIN);
    let mut game = Game::with_rules(Position::startpos(), Variant::JungleCn.rules());
    for ply in 0..120u64 {
        if game.result() != GameResult::Ongoing {
            break;
        }
        let moves = game.legal_moves();
        let m = if ply % 2 == 0 {
            let shared = crate::search::search::SharedState::new(1);
            let out = engine.search(&game, &Limits::depth(5), &shared, &|_| {});
            let m = out.best.expect("a move");
            assert!(moves.as_slice().contains(&m), "{m} at ply {ply}");
            m
        } else {
            random_move(moves.as_slice(), Rng::new(ply).next_u64())
        };
        game.play(m).expect("a legal move");
    }
}
