//! The shipped puzzle set (`puzzles/puzzles.txt`): at least 950 puzzles, each
//! solution legal and ending as its goal says, none from the test books, each
//! position once (nor turned round or mirrored), trivial ones at most 10%; the
//! puzzles the 3-animal tables cover verified again exactly, and a sample of those
//! from games by the search (the full check of every puzzle is `jungle puzzles check
//! --verify`, too slow for a test: README, "Puzzles").

use jungle::game::Rules;
use jungle::puzzle::{read_puzzles, Goal, Puzzle, Settings, Theme, Verifier};
use jungle::puzzles::select::symmetry_key;
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

/// 950: the 1,200 of 2026-12-04 less the puzzles with a slower second win and the
/// trivial ones beyond 10%, with new 4-animal ones (protocol.md, "The shipped set").
#[test]
fn the_set_has_enough_distinct_puzzles() {
    let set = shipped();
    assert!(set.len() >= 950, "{} puzzles", set.len());
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

/// The puzzles from games are decided by searches: every 8th is verified again here
/// as `jungle puzzles check --verify` does (the default budget, every solver move the
/// only win of any length), with the 3-animal tables.
#[test]
fn a_sample_of_the_puzzles_from_games_verifies_again() {
    let sample: Vec<Puzzle> = shipped()
        .into_iter()
        .filter(|p| !p.has(Theme::Endgame))
        .step_by(8)
        .collect();
    assert!(sample.len() >= 8, "{} puzzles", sample.len());
    verify_all(&mut verifier(32), &sample);
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
