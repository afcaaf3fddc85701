//! Tests of the tables against the rules core: a brute-force AND-OR search on random
//! positions (`brute`, which knows nothing of the tables), and the local consistency of
//! every stored value with the values of its moves.
//!
//! CI builds and checks the small signatures; the full check of every signature up to
//! four animals is `cargo test --release -- --ignored full_four_animal_verification`.

use super::brute::Brute;
use super::material::{Material, TbRules};
use super::probe::{move_value, probe_position};
use super::store::{TableSet, Tablebases};
use super::table::{Table, TbValue, Wdl};
use crate::board::movegen::{generate_with, legal_moves};
use crate::board::rules::MoveRuleFlags;
use crate::board::{MoveList, MoveRules, Position, Standard};
use crate::rng::Rng;
use crate::with_move_rules;

/// The tables of `names` and their dependencies, built in memory.
pub(crate) fn tables(rules: TbRules, names: &[&str]) -> (Tablebases, TableSet) {
    let tb = Tablebases::new(rules, None).building(5, false);
    for name in names {
        let m = Material::parse(name).expect("valid signature");
        tb.ensure(m, &|_| {}).expect("builds");
    }
    let set = tb.snapshot();
    (tb, set)
}

/// `verify::consistency`, which must hold.
fn check_consistency<R: MoveRules>(set: &TableSet, table: &Table, step: usize) -> usize {
    super::verify::consistency::<R>(set, table, step).unwrap_or_else(|e| panic!("{e}"))
}

/// `verify::against_brute`, which must hold.
fn check_against_brute<R: MoveRules>(
    set: &TableSet,
    table: &Table,
    samples: usize,
    horizon: u32,
    seed: u64,
) -> (usize, usize) {
    super::verify::against_brute::<R>(set, table, samples, horizon, seed)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn rules_default() -> TbRules {
    TbRules::default()
}

#[test]
fn two_animal_tables_are_consistent_and_dtz_equals_dtm() {
    let all: Vec<String> = Material::all_with(2)
        .iter()
        .map(|m| m.to_string())
        .collect();
    let names: Vec<&str> = all.iter().map(String::as_str).collect();
    let (_tb, set) = tables(rules_default(), &names);
    for m in Material::all_with(2) {
        let t = set.table(m).expect("built");
        check_consistency::<Standard>(&set, t, 1);
        // With one animal each, every capture ends the game, so the distance to the
        // zeroing move is the distance to mate whenever that fits in the rule.
        for i in 0..t.len() {
            let e = t.entry(i);
            let dtm = e.outcome().plies();
            let want = dtm.filter(|&d| d <= 100);
            assert_eq!(e.dtz(), want, "{m} at {i}");
        }
    }
}

#[test]
fn three_animal_tables_are_consistent() {
    // A spread of kinds: swimmers, jumpers, the rat/elephant pair, symmetric sides.
    let names = [
        "ELvR", "LRvT", "TRvR", "RCvE", "EWvL", "LTvE", "DCvR", "PRvW",
    ];
    let (_tb, set) = tables(rules_default(), &names);
    for name in names {
        let t = set.table(Material::parse(name).unwrap()).unwrap();
        let n = check_consistency::<Standard>(&set, t, 7);
        assert!(n > 10_000, "{name}: {n}");
    }
}

#[test]
fn tables_agree_with_brute_force_search() {
    let names = ["LvR", "EvR", "RvR", "TvL", "ELvR", "LRvT", "TRvR", "RCvE"];
    let (_tb, set) = tables(rules_default(), &names);
    let mut total = 0;
    let mut exact = 0;
    for (k, name) in names.iter().enumerate() {
        let t = set.table(Material::parse(name).unwrap()).unwrap();
        let (n, e) = check_against_brute::<Standard>(&set, t, 1000, 7, 0x5eed + k as u64);
        total += n;
        exact += e;
    }
    assert_eq!(total, 8000);
    assert!(exact > 1000, "only {exact} exact checks");
}

/// DTZ checked by brute force with the counter: three-animal positions whose captures
/// lead to two-animal positions, which the brute force solves within the whole rule.
#[test]
fn dtz_agrees_with_brute_force_with_the_counter() {
    let rules = TbRules {
        no_capture_plies: 20,
        ..TbRules::default()
    };
    let names = ["ELvR", "LRvT", "TvRC"];
    let (_tb, set) = tables(rules, &names);
    let mut rng = Rng::new(77);
    let mut checked = 0;
    for name in names {
        let t = set.table(Material::parse(name).unwrap()).unwrap();
        let mut brute = Brute::<Standard>::new(20);
        for _ in 0..150 {
            let i = rng.below(t.len());
            let pos = t.indexer.position(&t.indexer.decode(i));
            let e = t.entry(i);
            match (e.wdl(20, 0), e.dtz()) {
                (Wdl::Win, Some(z)) if z <= 9 => {
                    assert!(brute.wins_within_rule(&pos, z as u32), "{pos:?} z {z}");
                    assert!(!brute.wins_within_rule(&pos, z as u32 - 1), "{pos:?} z {z}");
                    checked += 1;
                }
                (Wdl::Loss, Some(z)) if z <= 9 => {
                    assert!(brute.loses_within_rule(&pos, z as u32), "{pos:?} z {z}");
                    assert!(z < 1 || !brute.loses_within_rule(&pos, z as u32 - 1));
                    checked += 1;
                }
                (_, Some(_)) => {}
                (_, None) => {
                    assert!(!brute.wins_within_rule(&pos, 9), "{pos:?} undecided");
                    assert!(!brute.loses_within_rule(&pos, 9), "{pos:?} undecided");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

/// The variants' move rules give other values, each consistent under its own rules.
#[test]
fn variant_tables_follow_their_own_rules() {
    for moves in [
        MoveRuleFlags {
            dog_swims: true,
            trapped_lose_attack: false,
        },
        MoveRuleFlags {
            dog_swims: false,
            trapped_lose_attack: true,
        },
    ] {
        let rules = TbRules {
            moves,
            no_capture_plies: 100,
        };
        let names = ["DRvL", "LvD", "EvW"];
        let (_tb, set) = tables(rules, &names);
        for name in names {
            let t = set.table(Material::parse(name).unwrap()).unwrap();
            with_move_rules!(moves, R => {
                check_consistency::<R>(&set, t, 3);
                check_against_brute::<R>(&set, t, 200, 7, 99);
            });
        }
    }
}

#[test]
fn probes_of_known_positions() {
    let (_tb, set) = tables(rules_default(), &["LvR", "EvR", "RvR", "DCvR"]);
    // Red lion d8 (on Blue's trap) enters the den at once.
    let pos = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 r").unwrap();
    let p = probe_position(&set, &pos).unwrap();
    assert_eq!(p.outcome, TbValue::Win(1));
    assert_eq!(p.wdl, Wdl::Win);
    // Blue to move in the same position: whatever it does, the lion enters.
    let pos = Position::from_fen("7/3L3/7/7/7/7/7/7/r6 b").unwrap();
    let p = probe_position(&set, &pos).unwrap();
    assert_eq!(p.outcome, TbValue::Loss(2));
    // Blue's rat a9 is boxed in by the red cat b9 and dog a8, which it may not take.
    let pos = Position::from_fen("rC5/D6/7/7/7/7/7/7/7 b").unwrap();
    assert!(legal_moves(&pos).is_empty());
    let p = probe_position(&set, &pos).unwrap();
    assert_eq!(
        (p.outcome, p.wdl, p.dtz),
        (TbValue::Loss(0), Wdl::Loss, Some(0))
    );
    // The colour twin has the same value.
    let a = Position::from_fen("7/7/1l5/7/7/7/7/4R2/7 r").unwrap();
    let b = Position::from_fen("7/4r2/7/7/7/7/1L5/7/7 b").unwrap();
    assert_eq!(
        probe_position(&set, &a).map(|p| p.entry),
        probe_position(&set, &b).map(|p| p.entry)
    );
}

#[test]
fn positions_outside_the_tables_are_not_probed() {
    let (_tb, set) = tables(rules_default(), &["LvR"]);
    let start = Position::startpos();
    assert!(probe_position(&set, &start).is_none());
    let over = Position::from_fen("3R3/7/7/7/7/7/7/7/6l b").unwrap();
    assert!(probe_position(&set, &over).is_none());
}

/// Building needs every table a capture leads to, for the same rules.
#[test]
fn missing_or_mismatched_children_are_errors() {
    let tb = Tablebases::new(TbRules::default(), None).building(2, false);
    let err = tb
        .ensure(Material::parse("ELvR").unwrap(), &|_| {})
        .unwrap_err();
    assert!(err.to_string().contains("ELvR"), "{err}");
    let blocked = Tablebases::new(TbRules::default(), None).building(3, false);
    assert!(blocked.ensure(Material::new(0, 1), &|_| {}).is_err());
}

#[test]
#[cfg(feature = "files")]
fn files_round_trip_and_damage_is_refused() {
    use super::file;
    let (_tb, set) = tables(rules_default(), &["LRvT"]);
    let m = Material::parse("LRvT").unwrap();
    let t = set.table(m).unwrap();
    let bytes = file::encode(t).unwrap();
    let back = file::decode(&bytes, m, &rules_default()).unwrap();
    assert_eq!(back.dtm, t.dtm);
    assert_eq!(back.dtz, t.dtz);
    assert_eq!(back.stats, t.stats);
    // Truncated, one byte changed, other rules, other material, other version.
    let cut = file::decode(&bytes[..bytes.len() - 10], m, &rules_default()).unwrap_err();
    assert!(cut.to_string().contains("checksum"), "{cut}");
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x40;
    assert!(file::decode(&flipped, m, &rules_default()).is_err());
    let other = TbRules {
        no_capture_plies: 50,
        ..TbRules::default()
    };
    assert!(matches!(
        file::decode(&bytes, m, &other),
        Err(super::TbError::Rules(_))
    ));
    assert!(file::decode(&bytes, Material::parse("LRvE").unwrap(), &rules_default()).is_err());
    let mut v2 = bytes.clone();
    v2[8] = 2;
    let err = file::decode(&v2, m, &rules_default()).unwrap_err();
    assert!(err.to_string().contains("version"), "{err}");
    assert!(file::decode(b"JUNGLETB", m, &rules_default()).is_err());
    assert!(file::decode(&[], m, &rules_default()).is_err());
}

#[test]
#[cfg(feature = "files")]
fn a_directory_is_read_back_and_a_corrupt_file_is_rebuilt() {
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("jungle-tb-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = rules_default();
    let m = Material::parse("EvR").unwrap();
    let writer = Tablebases::new(rules, Some(dir.clone())).building(3, true);
    let built = writer.ensure(m, &|_| {}).unwrap();
    let path = super::file::path_in(&dir, m, &rules);
    assert!(path.exists());
    let events = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    let reader = Tablebases::new(rules, Some(dir.clone()))
        .building(0, false)
        .reporting(move |e| seen.lock().unwrap().push(format!("{e:?}")));
    let loaded = reader.ensure(m, &|_| {}).unwrap();
    assert_eq!(loaded.dtm, built.dtm);
    assert!(events.lock().unwrap()[0].starts_with("Loaded"));
    // Damage the file: it is refused, and rebuilt in memory.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let events = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    let rebuilder = Tablebases::new(rules, Some(dir.clone()))
        .reporting(move |e| seen.lock().unwrap().push(format!("{e:?}")));
    let again = rebuilder.ensure(m, &|_| {}).unwrap();
    assert_eq!(again.dtm, built.dtm);
    let log = events.lock().unwrap().join("\n");
    assert!(log.contains("Refused") && log.contains("checksum"), "{log}");
    assert!(log.contains("Built"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The whole verification of every signature up to four animals (about an hour on
/// two cores): `cargo test --release -- --ignored full_four_animal_verification
/// --nocapture`. With `JUNGLE_VERIFY_DIR` set to a directory of table files (`jungle
/// tb build --animals 4 --dir DIR`), the files are read and checked instead of
/// building the tables in memory.
#[test]
#[ignore]
fn full_four_animal_verification() {
    let rules = rules_default();
    let dir = std::env::var_os("JUNGLE_VERIFY_DIR").map(std::path::PathBuf::from);
    let tb = Tablebases::new(rules, dir).building(4, false);
    let mut checked = 0usize;
    let mut brute_checked = 0usize;
    for n in 2..=4 {
        for m in Material::all_with(n) {
            tb.ensure(m, &|_| {}).unwrap();
            let set = tb.snapshot();
            let t = set.table(m).unwrap();
            checked += check_consistency::<Standard>(&set, t, 1);
            brute_checked += check_against_brute::<Standard>(
                &set,
                t,
                200,
                7,
                m.red as u64 * 256 + m.blue as u64,
            )
            .0;
            eprintln!("{m}: consistent ({checked} positions so far, {brute_checked} brute-force)");
            if n == 4 {
                // Four-animal tables are not children of one another: free each one.
                tb.forget(m);
            }
        }
    }
    eprintln!("every table up to 4 animals: {checked} positions consistent, {brute_checked} agree with brute force");
}

/// The two-animal patterns van Rijn and Vis report ("Endgame Analysis of Dou Shou
/// Qi", ICGA Journal 2014): with one animal of the same kind each, no position is
/// drawn, and the parity of the distance (files + ranks) between the two animals
/// decides most of them. The squares form a bipartite grid, so every step changes the
/// parity: the side to move at an odd distance is the one that can arrive next to the
/// other animal and take it, and the side to move at an even distance wins only by a
/// race to the den (no capture ends its fastest win). What else breaks the rule: the
/// jumps of the lion and the tiger (a jump along the river covers 4 ranks and keeps
/// the parity; at an even distance the side to move then wins more often than it
/// loses), and the rats, which are safe from each other across the water's edge (a rat
/// in water takes nothing on land, no rat on land takes one in water): `RvR` has draws.
/// `cargo test --release --lib two_animal_patterns -- --nocapture` prints the counts.
#[test]
fn two_animal_patterns() {
    for letter in ["R", "C", "D", "W", "P", "T", "L", "E"] {
        let name = format!("{letter}v{letter}");
        let (_tb, set) = tables(rules_default(), &[name.as_str()]);
        let t = set.table(Material::parse(&name).unwrap()).unwrap();
        // [parity][win, draw, loss] for Red to move (the only side stored for an
        // equal signature).
        let mut counts = [[0u32; 3]; 2];
        for i in 0..t.len() {
            let k = match t.entry(i).outcome() {
                TbValue::Win(_) => 0,
                TbValue::Draw => 1,
                TbValue::Loss(_) => 2,
            };
            counts[distance(&t.indexer.decode(i)) % 2][k] += 1;
        }
        eprintln!(
            "{name}: even distance win/draw/loss {:?}, odd distance {:?}",
            counts[0], counts[1]
        );
        let [even, odd] = counts;
        let draws = even[1] + odd[1];
        if letter == "R" {
            assert!(
                draws > 0,
                "{name}: rats across the water's edge hold a draw"
            );
        } else {
            assert_eq!(draws, 0, "{name}: no draws with one equal animal each");
        }
        // Odd distance: the side to move wins most positions.
        assert!(odd[0] > odd[2], "{name}: odd distance {odd:?}");
        if matches!(letter, "C" | "D" | "W" | "P" | "E") {
            // Without jumps or water, even distance loses most positions too, and
            // the parity decides at least 70% of all.
            assert!(even[2] > even[0], "{name}: even distance {even:?}");
            let decided = odd[0] + even[2];
            let all = odd[0] + odd[2] + even[0] + even[2];
            assert!(decided * 10 >= all * 7, "{name}: {decided} of {all}");
            // And the side that moves at an even distance wins only by a race to
            // the den: its fastest win never ends with the capture.
            for i in 0..t.len() {
                let p = t.indexer.decode(i);
                if distance(&p) % 2 == 0 && matches!(t.entry(i).outcome(), TbValue::Win(_)) {
                    let pos = t.indexer.position(&p);
                    assert!(!won_by_capture(&set, pos), "{name}: {pos}");
                }
            }
        }
    }
}

/// Whether the game from a won position, both sides following the tables (the winner
/// fastest, the loser longest), ends with the capture of the last animal.
fn won_by_capture(set: &TableSet, mut pos: Position) -> bool {
    loop {
        let mut list = MoveList::new();
        generate_with::<Standard>(&pos, &mut list);
        let best = list
            .iter()
            .map(|&m| move_value(set, &pos, m).expect("covered"))
            .max_by_key(|v| v.rank())
            .expect("a won position has a move");
        pos.play(best.mv);
        if pos.is_over_on_board() {
            return best.capture;
        }
    }
}

/// Files plus ranks between the first two animals of a placement.
fn distance(p: &super::index::Placement) -> usize {
    let (a, b) = (p.squares[0] as usize, p.squares[1] as usize);
    (a % 7).abs_diff(b % 7) + (a / 7).abs_diff(b / 7)
}
