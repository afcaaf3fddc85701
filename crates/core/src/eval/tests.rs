use super::distance::{to_enemy_den, Mover, DISTANCE, UNREACHABLE};
use super::*;
use crate::board::fen::placement_of_cells;
use crate::board::movegen::legal_moves;
use crate::board::square::{Square, NUM_SQUARES};
use crate::rng::Rng;

/// The start position and every position along fixed-seed random games.
fn sample_positions(games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut out = vec![Position::startpos()];
    for _ in 0..games {
        let mut p = Position::startpos();
        for _ in 0..max_plies {
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            p.play(moves[rng.below(moves.len())]);
            out.push(p);
        }
    }
    out
}

/// Ranks flipped 1<->9, colours swapped, side to move swapped.
fn mirror(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let mut fields = fen.split_whitespace();
    let placement = fields.next().unwrap();
    let side = match fields.next().unwrap() {
        "r" => "b",
        _ => "r",
    };
    let counters: Vec<&str> = fields.collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let ranks: Vec<String> = placement
        .split('/')
        .rev()
        .map(|r| r.chars().map(swap).collect())
        .collect();
    let text = format!("{} {} {}", ranks.join("/"), side, counters.join(" "));
    Position::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn s(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn colour_symmetry() {
    let positions = sample_positions(200, 150);
    assert!(positions.len() > 5_000);
    for p in &positions {
        let m = mirror(p);
        assert_eq!(mirror(&m), *p);
        assert_eq!(evaluate(p), evaluate(&m), "{p:?} vs {m:?}");
        let (tp, tm) = (trace(p), trace(&m));
        for (a, b) in tp.terms.iter().zip(&tm.terms) {
            assert_eq!((a.red, a.blue), (b.blue, b.red), "{} in {p:?}", a.name);
        }
    }
}

#[test]
fn start_position_is_nearly_even() {
    let p = Position::startpos();
    let e = evaluate(&p);
    assert!(e.abs() < 50, "start eval {e}");
    // Only the tempo separates the sides: the start is symmetric under a half turn.
    assert_eq!(e, Weights::DEFAULT.tempo);
}

#[test]
fn trace_matches_evaluate() {
    for p in sample_positions(50, 150) {
        let t = trace(&p);
        let red_view = match p.side_to_move() {
            Color::Red => evaluate(&p),
            Color::Blue => -evaluate(&p),
        };
        assert_eq!(t.total, red_view, "{p:?}");
        assert_eq!(t.side_to_move_score, evaluate(&p));
        let sum: i32 = t.terms.iter().map(|t| t.red - t.blue).sum();
        assert_eq!(t.total, sum.clamp(-EVAL_LIMIT, EVAL_LIMIT));
        assert_eq!(t.terms.len(), TERM_NAMES.len());
    }
}

#[test]
fn evaluation_stays_in_range_and_is_deterministic() {
    for p in sample_positions(50, 200) {
        let e = evaluate(&p);
        assert!(e.abs() <= EVAL_LIMIT);
        assert_eq!(e, evaluate(&p));
        assert_eq!(e, evaluate_with(&p, &Weights::DEFAULT));
    }
}

#[test]
fn weights_round_trip() {
    let w = Weights::DEFAULT;
    let p = w.params();
    assert_eq!(Weights::names().len(), p.len());
    assert_eq!(Weights::from_params(&p), Some(w));
    assert_eq!(Weights::from_params(&p[1..]), None);
    // Each slot is distinct: changing entry i changes exactly entry i.
    for i in 0..p.len() {
        let mut q = p.clone();
        q[i] += 7;
        let w2 = Weights::from_params(&q).unwrap();
        assert_eq!(w2.params(), q, "slot {} ({})", i, Weights::names()[i]);
    }
    let names = Weights::names();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "names are unique");
    assert_eq!(Weights::default(), Weights::DEFAULT);
    for a in Animal::ALL {
        assert_eq!(material(a), w.material[a.index()]);
    }
}

#[test]
fn extra_lion_is_clearly_better() {
    let start = Position::startpos();
    // Blue's lion (a9) removed.
    let no_blue_lion = pos("6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1");
    assert!(evaluate(&no_blue_lion) > evaluate(&start) + 700);
    let blue_to_move = pos("6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1");
    assert!(evaluate(&blue_to_move) < -700);
}

#[test]
fn enemy_near_our_den_is_worse_than_far_away() {
    // Red lion g1, rat g3; Blue lion a9 and a wolf near Red's den or far from it.
    for (near, far) in [
        ("d3", "d7"),
        ("c2", "c8"),
        ("d2", "d5"),
        ("a2", "a8"),
        ("e3", "g7"),
    ] {
        let make = |at: &str| {
            let mut p = pos("l6/7/7/7/7/7/6R/7/6L r 0 1");
            p.put(
                crate::board::piece::Piece::new(Color::Blue, Animal::Wolf),
                s(at),
            );
            assert_eq!(p.key(), p.compute_key());
            p
        };
        let (n, f) = (make(near), make(far));
        assert!(
            evaluate(&n) < evaluate(&f),
            "wolf {near}: {} vs {far}: {}",
            evaluate(&n),
            evaluate(&f)
        );
    }
}

#[test]
fn guarded_trap_is_better_than_open() {
    // Blue wolf on d3 threatens d2; a Red dog next to the trap guards it.
    let guarded = pos("l6/7/7/7/7/7/3w2R/4D2/6L r 0 1");
    let open = pos("l6/7/7/D6/7/7/3w2R/7/6L r 0 1");
    assert!(evaluate(&guarded) > evaluate(&open));
}

#[test]
fn rat_next_to_elephant_threatens_it() {
    let threat = pos("l6/7/7/7/7/7/2Re3/7/6L r 0 1");
    let quiet = pos("l6/7/R6/7/7/7/3e3/7/6L r 0 1");
    let t = trace(&threat);
    let q = trace(&quiet);
    let rat_el = |t: &Trace| t.terms[T_RAT_ELEPHANT].red;
    assert_eq!(
        rat_el(&t),
        Weights::DEFAULT.rat_vs_elephant + Weights::DEFAULT.rat_attacks_elephant
    );
    assert_eq!(rat_el(&q), Weights::DEFAULT.rat_vs_elephant);
}

#[test]
fn rat_in_river_blocks_enemy_jump() {
    // Blue lion on b7 would jump to b3 over b6 b5 b4; the Red rat sits on b6.
    let p = pos("7/7/1l5/1R5/7/7/7/7/6L r 0 1");
    let t = trace(&p);
    assert_eq!(
        t.terms[T_RAT_RIVER].red,
        Weights::DEFAULT.rat_in_river + Weights::DEFAULT.rat_blocks_jump
    );
}

#[test]
fn distance_spot_checks() {
    let walker = |c, sq: &str| to_enemy_den(c, Animal::Wolf, s(sq));
    let rat = |c, sq: &str| to_enemy_den(c, Animal::Rat, s(sq));
    let lion = |c, sq: &str| to_enemy_den(c, Animal::Lion, s(sq));
    use Color::{Blue, Red};
    // a1 up the a-file (8) then along rank 9 to d9 (3).
    assert_eq!(walker(Red, "a1"), 11);
    assert_eq!(walker(Red, "d8"), 1);
    assert_eq!(walker(Red, "d9"), 0);
    assert_eq!(walker(Red, "d1"), UNREACHABLE, "own den");
    assert_eq!(walker(Red, "b5"), UNREACHABLE, "water");
    // e1 -> e2 -> e3 -> d3 -> ... -> d9, or any Manhattan path.
    assert_eq!(walker(Red, "e1"), 9);
    assert_eq!(rat(Red, "g3"), 9);
    // The rat swims: b5 -> b6 -> b7 -> b8 -> b9 -> c9 -> d9.
    assert_eq!(rat(Red, "b5"), 6);
    assert_eq!(rat(Red, "c6"), 4);
    // Lion d5: jumps only go sideways from there, so straight up the d-file.
    assert_eq!(lion(Red, "d5"), 4);
    // Lion a5 jumps to d5 (1) then walks 4; a walker needs a5..a9 + 3 = 7.
    assert_eq!(lion(Red, "a5"), 5);
    assert_eq!(walker(Red, "a5"), 7);
    // Lion c3 jumps to c7, then c8 c9 d9 (or d7 d8 d9).
    assert_eq!(lion(Red, "c3"), 4);
    assert_eq!(walker(Red, "c3"), 7);
    assert_eq!(lion(Red, "b3"), 5);
    assert_eq!(lion(Red, "c5"), UNREACHABLE);
    // Blue mirrors Red.
    assert_eq!(walker(Blue, "a9"), 11);
    assert_eq!(lion(Blue, "c7"), 4);
    assert_eq!(rat(Blue, "b5"), 6);
    assert_eq!(walker(Blue, "d9"), UNREACHABLE);
}

#[test]
fn distance_tables_are_mirror_images_and_bounded() {
    for (red, blue) in DISTANCE[0].iter().zip(&DISTANCE[1]) {
        for sq in Square::all() {
            assert_eq!(red[sq.index()], blue[sq.flip_rank().index()], "{sq}");
            let d = red[sq.index()];
            assert!(d == UNREACHABLE || (d as usize) < PROGRESS_LEN, "{sq}: {d}");
        }
        assert_eq!(red[63], UNREACHABLE);
        assert_eq!(blue[63], UNREACHABLE);
    }
    // Land walkers and jumpers reach every land square but their own den; the rat
    // every square but its own den.
    let reachable = |c: usize, m: Mover| {
        (0..NUM_SQUARES)
            .filter(|&i| DISTANCE[c][m as usize][i] != UNREACHABLE)
            .count()
    };
    assert_eq!(reachable(0, Mover::Walker), 50);
    assert_eq!(reachable(0, Mover::Jumper), 50);
    assert_eq!(reachable(0, Mover::Swimmer), 62);
    // Jumping never makes a path longer; swimming never makes it longer either.
    let red = &DISTANCE[0];
    for sq in Square::all() {
        let i = sq.index();
        let w = red[Mover::Walker as usize][i];
        assert!(red[Mover::Jumper as usize][i] <= w);
        assert!(red[Mover::Swimmer as usize][i] <= w);
    }
}

/// Nanoseconds this thread has spent on a CPU (Linux), so that the timing below does
/// not count time spent waiting for a busy machine; wall-clock time elsewhere.
fn thread_cpu_ns() -> Option<u128> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

#[test]
fn speed_of_evaluate() {
    let positions = sample_positions(100, 120);
    let n = if cfg!(debug_assertions) {
        100_000
    } else {
        1_000_000
    };
    let wall = std::time::Instant::now();
    let cpu = thread_cpu_ns();
    let mut acc = 0i64;
    for i in 0..n {
        let p = &positions[i % positions.len()];
        acc += evaluate(std::hint::black_box(p)) as i64;
    }
    let wall = wall.elapsed().as_nanos();
    let cpu = thread_cpu_ns().zip(cpu).map(|(b, a)| b - a);
    std::hint::black_box(acc);
    println!(
        "evaluate: {n} calls over {} positions: {:.1} ns/call wall-clock{}",
        positions.len(),
        wall as f64 / n as f64,
        cpu.map_or(String::new(), |c| format!(
            ", {:.1} ns/call thread CPU time",
            c as f64 / n as f64
        ))
    );
}

#[test]
fn zones_and_trap_masks() {
    let names = |b: Bitboard| b.map(|q| q.to_string()).collect::<Vec<_>>().join(" ");
    assert_eq!(names(DEN_ZONE[0]), "b1 c1 e1 f1 c2 d2 e2 d3");
    assert_eq!(names(DEN_ZONE[1]), "d7 c8 d8 e8 b9 c9 e9 f9");
    assert_eq!(names(TRAP_GUARD[0][2]), "d1 c2 d2 e2 d3");
    assert_eq!(names(TRAP_GUARD[1][0]), "c8 b9 c9 d9");
    for c in 0..2 {
        let all = TRAP_GUARD[c][0] | TRAP_GUARD[c][1] | TRAP_GUARD[c][2];
        assert_eq!(all.minus(DEN_BB[c]), DEN_ZONE[c]);
    }
}

#[test]
fn trace_prints_every_term() {
    let text = trace(&Position::startpos()).to_string();
    for name in TERM_NAMES {
        assert!(text.contains(name), "{text}");
    }
    assert!(text.ends_with(&format!("side to move: {}", Weights::DEFAULT.tempo)));
}

/// Files a<->g swapped, nothing else.
fn mirror_files(p: &Position) -> Position {
    let fen = p.to_fen();
    let (placement, rest) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = placement
        .split('/')
        .map(|r| {
            let mut cells = String::new();
            for c in r.chars() {
                match c.to_digit(10) {
                    Some(n) => cells.extend(std::iter::repeat_n('.', n as usize)),
                    None => cells.push(c),
                }
            }
            cells.chars().rev().collect::<String>()
        })
        .collect();
    pos(&format!("{} {rest}", placement_of_cells(ranks)))
}

#[test]
fn placement_tables_are_seen_from_each_side_and_fold_the_files() {
    for s in 0..NUM_SQUARES {
        let (file, rank) = (s % 7, s / 7);
        let red = placement_index(Color::Red, s);
        assert!(red < PLACEMENT_LEN);
        // Blue sees the board from rank 9.
        assert_eq!(placement_index(Color::Blue, (8 - rank) * 7 + file), red);
        // Files e-g use the tables of c-a.
        assert_eq!(placement_index(Color::Red, rank * 7 + (6 - file)), red);
    }
    // Every entry is used by some square.
    let mut used = [false; PLACEMENT_LEN];
    for s in 0..NUM_SQUARES {
        used[placement_index(Color::Red, s)] = true;
    }
    assert!(used.iter().all(|&u| u));

    // With every entry distinct, the evaluation is still colour- and file-symmetric.
    let mut w = Weights::DEFAULT;
    for (a, table) in w.placement.iter_mut().enumerate() {
        for (i, v) in table.iter_mut().enumerate() {
            *v = (a * 100 + i) as i32;
        }
    }
    for p in sample_positions(50, 150) {
        assert_eq!(
            evaluate_with(&p, &w),
            evaluate_with(&mirror(&p), &w),
            "{p:?}"
        );
        assert_eq!(
            evaluate_with(&p, &w),
            evaluate_with(&mirror_files(&p), &w),
            "{p:?}"
        );
    }
    // And the table moves the score: a lone red lion counts its square's entry.
    let lion = pos("1l5/7/7/7/7/7/7/7/L6 r");
    let entry = placement_index(Color::Red, s("a1").index());
    let mut w2 = Weights::DEFAULT;
    w2.placement[Animal::Lion.index()][entry] += 77;
    assert_eq!(
        evaluate_with(&lion, &w2) - evaluate_with(&lion, &Weights::DEFAULT),
        77
    );
}
