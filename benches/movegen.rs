//! Criterion benchmarks of the rules core: move generation, counting, make-move, perft,
//! and the labelled perft suites (each position at its deepest labelled depth, with
//! leaves per second as the throughput).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use jungle::board::movegen::{count, generate, legal_moves};
use jungle::board::rules::MoveRuleFlags;
use jungle::board::{MoveList, MoveRules, Position};
use jungle::tools::perft::{perft, perft_with};
use jungle::tools::perft_suite::parse_suite;
use jungle::with_move_rules;

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
    for (depth, leaves) in [(4, 260_099), (5, 5_111_620)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("start depth {depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();
}

/// The labelled suites with their rules.
const SUITES: [(&str, &str, MoveRuleFlags); 4] = [
    (
        "suite",
        include_str!("../tests/perft_suite.txt"),
        MoveRuleFlags {
            dog_swims: false,
            trapped_lose_attack: false,
        },
    ),
    (
        "suite dogswims",
        include_str!("../tests/perft_suite_dogswims.txt"),
        MoveRuleFlags {
            dog_swims: true,
            trapped_lose_attack: false,
        },
    ),
    (
        "suite trappedloseattack",
        include_str!("../tests/perft_suite_trappedloseattack.txt"),
        MoveRuleFlags {
            dog_swims: false,
            trapped_lose_attack: true,
        },
    ),
    (
        "suite both",
        include_str!("../tests/perft_suite_both.txt"),
        MoveRuleFlags {
            dog_swims: true,
            trapped_lose_attack: true,
        },
    ),
];

/// Every position of a suite at its deepest labelled depth, and the leaves expected.
fn suite_work(text: &str, flags: MoveRuleFlags) -> (Vec<(Position, u32)>, u64) {
    let mut work = Vec::new();
    let mut leaves = 0;
    for entry in parse_suite(text).expect("suite parses") {
        let pos = Position::from_fen_with(&entry.fen, flags).expect("suite position");
        let &(depth, count) = entry.counts.iter().max().expect("suite counts");
        work.push((pos, depth));
        leaves += count;
    }
    (work, leaves)
}

fn suite_leaves<R: MoveRules>(work: &[(Position, u32)]) -> u64 {
    work.iter()
        .map(|(p, d)| perft_with::<R>(black_box(p), *d))
        .sum()
}

fn bench_suites(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for (name, text, flags) in SUITES {
        let (work, leaves) = suite_work(text, flags);
        let counted = with_move_rules!(flags, R => suite_leaves::<R>(&work));
        assert_eq!(counted, leaves, "{name}: the counts of the suite");
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(name, |b| {
            b.iter(|| with_move_rules!(flags, R => suite_leaves::<R>(&work)))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_movegen,
    bench_make,
    bench_perft,
    bench_suites
);
criterion_main!(benches);
