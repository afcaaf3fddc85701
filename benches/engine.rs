//! Criterion benchmarks of the engine: static evaluation and a fixed-depth search.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jungle::board::movegen::legal_moves;
use jungle::board::Position;
use jungle::eval::evaluate;
use jungle::game::Game;
use jungle::nnue::{self, Accumulator};
use jungle::search::search::SharedState;
use jungle::search::{Engine, Limits};

/// Positions reached by playing the first legal move a few times from the start,
/// plus a middle game, so that the evaluation sees varied placements.
fn positions() -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    let mut p = Position::startpos();
    for i in 0..40 {
        let moves = legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        p.play(moves[(i * 7) % moves.len()]);
        out.push(p);
    }
    out
}

fn bench_eval(c: &mut Criterion) {
    let ps = positions();
    c.bench_function("evaluate (41 positions)", |b| {
        b.iter(|| ps.iter().map(|p| evaluate(black_box(p))).sum::<i32>())
    });
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let game = Game::startpos();
    let mut engine = Engine::new(16).expect("16 MB table");
    engine.options.report = false;
    group.bench_function("start position depth 10", |b| {
        b.iter(|| {
            engine.clear();
            let shared = SharedState::new(1);
            engine
                .search(&game, &Limits::depth(10), &shared, &|_| {})
                .nodes
        })
    });
    group.finish();
}

/// The network: one evaluation from an up-to-date accumulator, one incremental update
/// (a quiet move and a capture), and a full refresh.
fn bench_nnue(c: &mut Criterion) {
    let net = nnue::embedded();
    let ps = positions();
    let accs: Vec<Accumulator> = ps.iter().map(|p| Accumulator::refresh(&net, p)).collect();
    let mut group = c.benchmark_group("nnue");
    group.bench_function("evaluate (41 positions)", |b| {
        b.iter(|| {
            ps.iter()
                .zip(&accs)
                .map(|(p, a)| {
                    net.evaluate(black_box(a), p.side_to_move(), p.all_occupied().count())
                })
                .sum::<i32>()
        })
    });
    // Every legal move of every position: quiet moves and captures as they come.
    let moves: Vec<(usize, jungle::board::Move)> = ps
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            legal_moves(p)
                .iter()
                .map(move |&m| (i, m))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut child = accs[0];
    group.bench_function(format!("update ({} moves)", moves.len()), |b| {
        b.iter(|| {
            for &(i, m) in &moves {
                accs[i].apply_move(&net, &ps[i], black_box(m), &mut child);
                black_box(&child);
            }
            child.0[0].0[0]
        })
    });
    group.bench_function("refresh (41 positions)", |b| {
        b.iter(|| {
            ps.iter()
                .map(|p| black_box(Accumulator::refresh(&net, black_box(p))).0[1].0[3])
                .fold(0i16, i16::wrapping_add)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_eval, bench_search, bench_nnue);
criterion_main!(benches);
