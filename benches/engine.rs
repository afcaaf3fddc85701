//! Criterion benchmarks of the engine: static evaluation and a fixed-depth search.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jungle::board::movegen::legal_moves;
use jungle::board::Position;
use jungle::eval::evaluate;
use jungle::game::Game;
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

criterion_group!(benches, bench_eval, bench_search);
criterion_main!(benches);
