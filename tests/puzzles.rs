//! The shipped puzzle set (`puzzles/puzzles.txt`): at least 1,000 puzzles, each
//! solution legal and ending as its goal says, none from the test books, each
//! position once; the puzzles the 3-animal tables cover verified again exactly
//! (the full check of every puzzle is `jungle puzzles check --verify`, too slow for a
//! test: README, "Puzzles").

use jungle::game::Rules;
use jungle::puzzle::{read_puzzles, Goal, Puzzle, Settings, Verifier};
use jungle::puzzles::{in_test_books, test_book_keys};
use jungle::tb::material::TbRules;
use jungle::tb::Tablebases;
use std::collections::HashSet;
use std::sync::Arc;

fn shipped() -> Vec<Puzzle> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/puzzles.txt"))
        .expect("puzzles/puzzles.txt is readable");
    read_puzzles(&text).expect("every line of puzzles/puzzles.txt reads")
}

#[test]
fn the_set_has_at_least_a_thousand_distinct_puzzles() {
    let set = shipped();
    assert!(set.len() >= 1000, "{} puzzles", set.len());
    let ids: HashSet<&str> = set.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), set.len(), "ids are unique");
    let starts: HashSet<u64> = set
        .iter()
        .map(|p| p.game().expect("sets up").position().key())
        .collect();
    assert_eq!(starts.len(), set.len(), "each position once");
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

#[test]
fn the_puzzles_of_three_animals_verify_again_by_the_tables() {
    let rules = TbRules::for_rules(&Rules::default()).expect("tables for the default rules");
    let tables = Arc::new(Tablebases::new(rules, None).building(3, false));
    let mut verifier = Verifier::new(Settings::default(), 1, Some(tables), 3).expect("a verifier");
    let small: Vec<Puzzle> = shipped()
        .into_iter()
        .filter(|p| {
            p.rules == Rules::default()
                && p.game().expect("sets up").position().all_occupied().count() <= 3
        })
        .collect();
    assert!(small.len() >= 100, "{} puzzles of 3 animals", small.len());
    for p in &small {
        if let Err(e) = verifier.verify(p) {
            panic!("{}: {e}", p.id);
        }
    }
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
