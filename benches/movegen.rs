//! Criterion benchmarks of the rules core: move generation, counting, make-move, perft.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jungle::board::movegen::{count, generate, legal_moves};
use jungle::board::{MoveList, Position};
use jungle::tools::perft::perft;

const POSITIONS: [&str; 3] = [
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
    // A busy middle game with rats in the rivers and jumpers on the banks.
    "2l1c2/1d1t3/4w2/3L1r1/1R5/p2T3/e3W2/1C1P1D1/7 r 0 20",
    "4t2/2l4/7/1r1L3/7/4R2/3e3/7/2T4 b 0 40",
];

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).expect("bench position"))
        .collect()
}

fn bench_movegen(c: &mut Criterion) {
    let ps = positions();
    c.bench_function("generate (3 positions)", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &ps {
                let mut list = MoveList::new();
                generate(black_box(p), &mut list);
                n += list.len();
            }
            n
        })
    });
    c.bench_function("count (3 positions)", |b| {
        b.iter(|| ps.iter().map(|p| count(black_box(p))).sum::<u32>())
    });
}

fn bench_make(c: &mut Criterion) {
    let ps = positions();
    let lists: Vec<MoveList> = ps.iter().map(legal_moves).collect();
    c.bench_function("play every move (3 positions)", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (p, list) in ps.iter().zip(&lists) {
                for &m in list.iter() {
                    let mut child = *black_box(p);
                    child.play(m);
                    acc ^= child.key();
                }
            }
            acc
        })
    });
}

fn bench_perft(c: &mut Criterion) {
    let start = Position::startpos();
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.bench_function("start depth 4", |b| b.iter(|| perft(black_box(&start), 4)));
    group.bench_function("start depth 5", |b| b.iter(|| perft(black_box(&start), 5)));
    group.finish();
}

criterion_group!(benches, bench_movegen, bench_make, bench_perft);
criterion_main!(benches);
