//! The shipped puzzle set (`puzzles/puzzles.txt`): issue 63's figures (size, share
//! from games, themes, ratings), each solution legal and ending as its goal says, none
//! from the test books, each position once (nor turned round or mirrored), trivial ones
//! at most 10%; the puzzles the 3-animal tables cover verified again exactly, and the
//! whole set in the cheap exact form of `jungle puzzles check --verify --sample 25`
//! (the full check of every puzzle, `--sample 1`, is too slow for a test:
//! docs/puzzles.md, "Verification"); a puzzle of each rare theme the verifier accepts.

use jungle::game::Rules;
use jungle::puzzle::theme::detect;
use jungle::puzzle::{read_puzzles, Goal, Puzzle, Settings, Theme, Verifier};
use jungle::puzzles::select::{from_games, symmetry_key};
use jungle::puzzles::{in_test_books, test_book_keys};
use jungle::tb::material::TbRules;
use jungle::tb::Tablebases;
use std::collections::HashSet;
use std::sync::Arc;

#[test]
fn trivial_puzzles_are_at_most_a_tenth() {
    let set = shipped();
    let trivial = set
        .iter()
        .filter(|p| jungle::puzzles::select::trivial(p))
        .count();
    assert!(trivial * 10 <= set.len(), "{trivial} of {}", set.len());
}

fn shipped() -> Vec<Puzzle> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/puzzles.txt"))
        .expect("puzzles/puzzles.txt is readable");
    read_puzzles(&text).expect("every line of puzzles/puzzles.txt reads")
}

/// Each puzzle once, under an id made from it.
#[test]
fn the_set_has_enough_distinct_puzzles() {
    let set = shipped();
    assert!(set.len() >= SET_SIZE, "{} puzzles", set.len());
    let ids: HashSet<&str> = set.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), set.len(), "ids are unique");
    let starts: HashSet<u64> = set
        .iter()
        .map(|p| p.game().expect("sets up").position().key())
        .collect();
    assert_eq!(starts.len(), set.len(), "each position once");
    // Nor turned round (colours exchanged) or mirrored left to right.
    let mut shapes = std::collections::HashMap::new();
    for p in &set {
        if let Some(other) = shapes.insert(symmetry_key(p), &p.id) {
            panic!("{} is {other} turned round or mirrored", p.id);
        }
    }
    for p in &set {
        assert_eq!(
            p.id,
            p.make_id(),
            "{}: the id is made from the puzzle",
            p.id
        );
    }
}

/// The least size of the set (issue 63: 3,000).
const SET_SIZE: usize = 3000;

/// Issue 63's figures (docs/puzzles.md, "The shipped set"): at least `SET_SIZE`
/// puzzles, at least 60% from games, no theme on more than 40% of the set, at least
/// 15% rated 1800 or above, the middle half at least 600 points wide; both rule sets;
/// every theme.
#[test]
fn the_set_meets_the_issues_figures() {
    let set = shipped();
    let n = set.len();
    assert!(n >= SET_SIZE, "{n} puzzles");
    let games = set.iter().filter(|p| from_games(p)).count();
    assert!(10 * games >= 6 * n, "{games} of {n} from games");
    for theme in Theme::ALL {
        let with = set.iter().filter(|p| p.has(theme)).count();
        assert!(with > 0, "no puzzle of {}", theme.name());
        assert!(10 * with <= 4 * n, "{with} of {n} are {}", theme.name());
    }
    let mut ratings: Vec<u32> = set.iter().map(|p| p.rating).collect();
    ratings.sort_unstable();
    let high = ratings.iter().filter(|&&r| r >= 1800).count();
    assert!(100 * high >= 15 * n, "{high} of {n} rated 1800 or above");
    // The quartiles as `jungle puzzles check` prints them.
    let (q1, q3) = (ratings[n / 4], ratings[3 * n / 4]);
    assert!(q3 >= q1 + 600, "the middle half {q1}-{q3}");
    assert!(set.iter().any(|p| p.rules.anti_chase) && set.iter().any(|p| !p.rules.anti_chase));
}

/// The rare themes each have a puzzle the verifier accepts (found by `jungle puzzles
/// tables --theme`; the anti-chase ones are the miner's test): a rat in the water
/// blocks the lion's jump onto the dog on d3, and the elephant's capture leaves
/// Red's cat on a6 without a move.
#[test]
fn a_blocked_jump_and_no_move_left_are_puzzles() {
    let mut v = verifier(32);
    for (line, theme) in [
        (
            "fbjnzh3;7/7/3L3/w1r4/7/7/3p3/7/7 b 0 1;-;d3d2 d7d6 d2d1;jungle;win;den,blocked-jump,endgame;1680",
            Theme::BlockedJump,
        ),
        (
            "c461sxg;7/7/p6/C6/L6/e6/7/7/7 b 0 1;-;a4a5;jungle;win;no-moves,endgame;784",
            Theme::NoMoves,
        ),
    ] {
        let p = Puzzle::parse(line).expect("a puzzle");
        assert_eq!(v.verify(&p), Ok(()), "{line}");
        let game = p.game().expect("sets up");
        let found = v.find(&game, Goal::Win).expect("a puzzle");
        assert_eq!(found.line, p.solution, "{line}");
        assert!(detect(&game, &found.line, false).contains(&theme), "{line}");
    }
}

#[test]
fn every_solution_is_legal_and_ends_as_stated() {
    // `replay` plays every move with the rules core: a win puzzle's last move wins
    // the game for the solver (and none before it ends the game), a draw puzzle's
    // line leaves the game going on.
    let set = shipped();
    for p in &set {
        if let Err(e) = p.replay() {
            panic!("{}: {e}", p.id);
        }
    }
    assert!(set.iter().any(|p| p.goal == Goal::Draw));
}

#[test]
fn no_puzzle_comes_from_the_test_books() {
    let keys = test_book_keys();
    assert!(!keys.is_empty());
    for p in shipped() {
        assert!(
            !in_test_books(&p, &keys),
            "{} is a test-book position",
            p.id
        );
    }
}

/// A verifier at the default budget with `hash_mb` of hash and the 3-animal tables.
fn verifier(hash_mb: usize) -> Verifier {
    let rules = TbRules::for_rules(&Rules::default()).expect("tables for the default rules");
    let tables = Arc::new(Tablebases::new(rules, None).building(3, false));
    Verifier::new(Settings::default(), hash_mb, Some(tables), 3).expect("a verifier")
}

/// Every puzzle of `set` verifies again.
fn verify_all(verifier: &mut Verifier, set: &[Puzzle]) {
    for p in set {
        if let Err(e) = verifier.verify(p) {
            panic!("{}: {e}", p.id);
        }
    }
}

#[test]
fn the_puzzles_of_three_animals_verify_again_by_the_tables() {
    let small: Vec<Puzzle> = shipped()
        .into_iter()
        .filter(|p| {
            p.rules == Rules::default()
                && p.game().expect("sets up").position().all_occupied().count() <= 3
        })
        .collect();
    assert!(small.len() >= 100, "{} puzzles of 3 animals", small.len());
    verify_all(&mut verifier(1), &small);
}

/// The whole set verifies in a cheap exact form (docs/puzzles.md, "Verification"; as
/// `jungle puzzles check --verify --sample 25` but judging only the positions of up
/// to 3 animals by the tables): every puzzle of 3 animals in full by the tables; one
/// in 25 of the others in full (the tables of 4 animals, the proofs that no other
/// move wins within the solution plus 4 moves); every other line exactly but for
/// those proofs (each solver move of a win one of the fastest wins, each other move
/// of a hold proven to lose; a draw of 4 animals replayed).
#[test]
fn the_whole_set_verifies_in_its_cheap_exact_form() {
    let set = shipped();
    let tables = jungle::puzzles::default_tables(None, 4);
    let mut workers =
        jungle::puzzles::workers(2, Settings::default(), &tables, 4).expect("workers");
    let depth = jungle::puzzles::check::Depth::Sample {
        every: 25,
        tables: 3,
    };
    let failures = jungle::puzzles::check::check(&mut workers, &set, depth);
    assert!(failures.is_empty(), "{failures:?}");
    let full = set
        .iter()
        .filter(|p| jungle::puzzles::check::sampled(p, 25))
        .count();
    assert!(
        full * 40 >= set.len(),
        "{full} of {} verified in full",
        set.len()
    );
}

/// The shipped ratings are the strength levels' of this build: a change of `LEVELS`,
/// of the search or evaluation, or of how a puzzle is rated needs `jungle puzzles rate` (protocol.md,
/// "Puzzles"). Every 50th puzzle is rated again, as the command does.
#[test]
fn the_shipped_ratings_are_this_builds() {
    let mut workers = jungle::puzzles::workers(1, Settings::default(), &None, 0).expect("a worker");
    let worker = &mut workers[0];
    let stale: Vec<String> = shipped()
        .iter()
        .step_by(50)
        .filter_map(|p| {
            let rating = worker.rate(p).expect("rates");
            (rating != p.rating).then(|| format!("{}: shipped {}, now {rating}", p.id, p.rating))
        })
        .collect();
    assert!(
        stale.is_empty(),
        "run `jungle puzzles rate puzzles/puzzles.txt --out puzzles/puzzles.txt`: {stale:?}"
    );
}

/// `jungle puzzles rate --explain FILE`: a line a puzzle with the rating written to
/// `--out`, its five parts (0–1), a depth and an effort a solver move, and each row's
/// chance of solving it.
#[test]
fn rate_explains_each_rating() {
    let dir = std::env::temp_dir().join(format!("jungle-rate-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let set = shipped();
    let some: Vec<&Puzzle> = set.iter().step_by(100).collect();
    let input = dir.join("in.txt");
    let text: String = some.iter().map(|p| format!("{p}\n")).collect();
    std::fs::write(&input, text).expect("written");
    let (out, explain) = (dir.join("out.txt"), dir.join("explain.tsv"));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["puzzles", "rate"])
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .arg("--explain")
        .arg(&explain)
        .status()
        .expect("jungle runs");
    assert!(status.success());
    let rated = read_puzzles(&std::fs::read_to_string(&out).expect("out")).expect("reads");
    let lines: Vec<String> = std::fs::read_to_string(&explain)
        .expect("explain")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), some.len() + 1, "{lines:?}");
    assert!(lines[0].starts_with("id\trating\t"), "{}", lines[0]);
    for (line, p) in lines[1..].iter().zip(&rated) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 14, "{line}");
        assert_eq!((f[0], f[1]), (p.id.as_str(), p.rating.to_string().as_str()));
        let moves = p.solution.len().div_ceil(2);
        assert_eq!(f[2], moves.to_string());
        for part in &f[4..10] {
            let x: f64 = part.parse().expect("a part");
            assert!((0.0..=1.0).contains(&x), "{line}");
        }
        assert_eq!(f[10].split(',').count(), moves, "{line}");
        assert_eq!(f[11].split(',').count(), moves, "{line}");
        let rows = jungle::search::strength::LEVELS.len();
        assert_eq!(f[12].split(',').count(), rows, "{line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `jungle puzzles rate --fit` prints a rising curve for `RATING_CURVE` and writes
/// nothing (it needs no `--out`, and refuses one).
#[test]
fn rate_fit_prints_a_rising_curve_without_an_out_file() {
    let dir = std::env::temp_dir().join(format!("jungle-rate-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let input = dir.join("in.txt");
    let text: String = shipped()
        .iter()
        .step_by(150)
        .map(|p| format!("{p}\n"))
        .collect();
    std::fs::write(&input, text).expect("written");
    let rate = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_jungle"))
            .args(["puzzles", "rate", "--fit"])
            .arg(&input)
            .args(extra)
            .output()
            .expect("jungle runs")
    };
    let fit = rate(&[]);
    let printed = String::from_utf8_lossy(&fit.stdout);
    assert!(
        fit.status.success(),
        "{}",
        String::from_utf8_lossy(&fit.stderr)
    );
    assert!(
        printed.starts_with("pub const RATING_CURVE: [(f64, f64); "),
        "{printed}"
    );
    let points: Vec<(f64, f64)> = printed
        .lines()
        .filter_map(|l| l.trim().strip_prefix('(')?.strip_suffix("),"))
        .map(|l| {
            let (h, r) = l.split_once(", ").expect("a point");
            (h.parse().expect("hardness"), r.parse().expect("rating"))
        })
        .collect();
    assert!(points.len() >= 2, "{printed}");
    assert!(
        points
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1),
        "{printed}"
    );
    let out = dir.join("out.txt");
    let both = rate(&["--out", out.to_str().expect("a UTF-8 path")]);
    assert!(!both.status.success());
    assert!(String::from_utf8_lossy(&both.stderr).contains("--out"));
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// `jungle puzzles tables --min-moves` above `--max-moves` could find nothing: it is
/// refused by name before any work, and no file is written.
#[test]
fn a_least_length_above_the_most_is_refused() {
    let out_file = std::env::temp_dir().join(format!("jungle-min-max-{}.txt", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["puzzles", "tables", "--animals", "3", "--signatures", "1"])
        .args(["--wins", "1", "--draws", "0", "--seed", "1"])
        .args(["--min-moves", "4", "--max-moves", "3", "--out"])
        .arg(&out_file)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--min-moves 4 is above --max-moves 3"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(!out_file.exists() && !out_file.with_extension("txt.part").exists());
}

/// A table folder that cannot be read is refused by name before any work, by every
/// command that verifies (here `check --verify` and `tables`).
#[test]
fn an_unreadable_table_folder_is_refused_by_name() {
    let missing = std::env::temp_dir().join(format!("jungle-no-tables-{}", std::process::id()));
    let missing = missing.to_str().expect("a UTF-8 path");
    for args in [
        vec!["check", "puzzles/puzzles.txt", "--verify"],
        vec![
            "tables",
            "--animals",
            "3",
            "--signatures",
            "1",
            "--wins",
            "1",
            "--draws",
            "0",
            "--seed",
            "1",
            "--out",
            "/dev/null",
        ],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jungle"))
            .arg("puzzles")
            .args(&args)
            .args(["--tb-dir", missing])
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("--tb-dir {missing}"))
                && err.contains("cannot read the directory"),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
