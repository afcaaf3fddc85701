//! Property tests (proptest) of every parser of outside input, with the invariants of
//! `checks` (shared with the cargo-fuzz targets in `fuzz/`), and the fuzzers' crashing
//! inputs and seeds replayed as regression tests. The case counts keep the whole file
//! within a few seconds; `PROPTEST_SCALE=100 cargo test --release --test properties`
//! runs a hundred times as many.

mod checks;

use jungle::board::{Animal, Color, Position};
use jungle::game::{Game, GameResult, Rules};
use jungle::matches::match_runner::Termination;
use jungle::matches::match_runner::{write_record, GameRecord};
use jungle::record::{read_openings, read_records};
use jungle::rng::Rng;
use jungle::train::data::{self, Sample, Wdl};
use proptest::prelude::*;
use std::path::Path;

/// `cases` cases, times `PROPTEST_SCALE` (default 1) for longer runs.
fn config(cases: u32) -> ProptestConfig {
    let scale: u32 = std::env::var("PROPTEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    ProptestConfig::with_cases(cases.saturating_mul(scale.max(1)))
}

// ---------------------------------------------------------------------------------
// Helpers: random games, position strings written independently of `to_fen`
// ---------------------------------------------------------------------------------

/// A game of up to `plies` random legal moves from the start under `rules`.
fn random_game(seed: u64, plies: usize, rules: Rules) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::with_rules(Position::startpos(), rules);
    for _ in 0..plies {
        if game.result() != GameResult::Ongoing {
            break;
        }
        let legal = game.legal_moves();
        let m = legal.as_slice()[rng.below(legal.len())];
        game.play(m).expect("a legal move of an ongoing game");
    }
    game
}

const LETTERS: [char; 8] = ['R', 'C', 'D', 'W', 'P', 'T', 'L', 'E'];

/// Water: files b, c, e, f of ranks 4–6 (protocol.md section 1).
fn is_water(sq: usize) -> bool {
    let (file, rank) = (sq % 7, sq / 7);
    (3..=5).contains(&rank) && matches!(file, 1 | 2 | 4 | 5)
}

/// Dens: Red d1, Blue d9.
const DEN: [usize; 2] = [3, 59];

/// A board as (colour, animal index) per square index.
type Board = [Option<(usize, usize)>; 63];

/// The placement field, written from the notation's description (ranks 9 to 1, files a
/// to g, runs of empty squares as digits), not by the engine.
fn placement_text(board: &Board) -> String {
    let mut ranks = Vec::new();
    for rank in (0..9).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for file in 0..7 {
            match board[rank * 7 + file] {
                Some((c, a)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let l = LETTERS[a];
                    s.push(if c == 0 { l } else { l.to_ascii_lowercase() });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    ranks.join("/")
}

/// Whether protocol.md's rules admit the board (section 2, position strings).
fn board_is_valid(board: &Board, dog_swims: bool) -> bool {
    let mut any = false;
    let mut in_enemy_den = [false; 2];
    for (sq, p) in board.iter().enumerate() {
        let Some((c, a)) = *p else { continue };
        any = true;
        let swims = a == 0 || (a == 2 && dog_swims);
        if is_water(sq) && !swims {
            return false;
        }
        if sq == DEN[c] {
            return false;
        }
        if sq == DEN[1 - c] {
            in_enemy_den[c] = true;
        }
    }
    any && !(in_enemy_den[0] && in_enemy_den[1])
}

/// Up to 16 animals on distinct squares (a later animal on a taken square is left out).
fn board_strategy() -> impl Strategy<Value = Board> {
    prop::collection::vec(prop::option::weighted(0.7, 0usize..63), 16).prop_map(|squares| {
        let mut board: Board = [None; 63];
        for (i, sq) in squares.into_iter().enumerate() {
            if let Some(sq) = sq {
                if board[sq].is_none() {
                    board[sq] = Some((i / 8, i % 8));
                }
            }
        }
        board
    })
}

fn opt_rules(dog_swims: bool, trapped_lose_attack: bool) -> jungle::board::rules::MoveRuleFlags {
    jungle::board::rules::MoveRuleFlags {
        dog_swims,
        trapped_lose_attack,
    }
}

// ---------------------------------------------------------------------------------
// Position strings
// ---------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(512))]

    /// Any board written in the notation parses exactly when the documented rules
    /// admit it, to a position with the animals where they were written; what parses
    /// prints back to itself.
    #[test]
    fn written_boards_parse_as_documented(
        board in board_strategy(),
        side in prop::sample::select(vec!["r", "b", "w"]),
        counters in prop::option::of((0u32..70000, 0u64..5_000_000_000)),
        sep in prop::sample::select(vec![" ", "\t", "  "]),
        dog_swims in any::<bool>(),
    ) {
        let mut text = format!("{}{sep}{side}", placement_text(&board));
        let mut expected_ok = board_is_valid(&board, dog_swims);
        if let Some((half, full)) = counters {
            text.push_str(&format!("{sep}{half}{sep}{full}"));
            expected_ok &= half <= 65535 && (1..=u64::from(u32::MAX)).contains(&full);
        }
        let rules = opt_rules(dog_swims, false);
        let parsed = Position::from_fen_with(&text, rules);
        prop_assert_eq!(parsed.is_ok(), expected_ok, "{} -> {:?}", text, parsed.as_ref().err());
        if let Ok(pos) = parsed {
            for (sq, p) in board.iter().enumerate() {
                let square = jungle::board::Square::from_index(sq as u8).unwrap();
                let found = pos.piece_at(square).map(|p| (p.color.index(), p.animal.index()));
                prop_assert_eq!(found, *p, "square {} of {}", square, text);
            }
            let side_expected = if side == "b" { Color::Blue } else { Color::Red };
            prop_assert_eq!(pos.side_to_move(), side_expected);
            let game_rules = Rules { moves: rules, ..Rules::default() };
            checks::check_position(&pos, game_rules);
        }
        checks::fen(text.as_bytes());
    }

    /// Position strings with characters inserted, deleted or replaced never panic and
    /// keep the round trip.
    #[test]
    fn mutated_position_strings(
        base in prop::sample::select(checks::MOVE_STARTS.to_vec()),
        edits in prop::collection::vec(
            (0u8..3, any::<prop::sample::Index>(),
             prop::sample::select("rbwRCDWPTLEcdptle0123456789/ -\t\u{e9}\u{1f418}x".chars().collect::<Vec<_>>())),
            1..6),
    ) {
        let mut chars: Vec<char> = base.chars().collect();
        for (op, at, c) in edits {
            let i = at.index(chars.len() + 1);
            match op {
                0 => chars.insert(i, c),
                1 if i < chars.len() => { chars.remove(i); }
                _ if i < chars.len() => chars[i] = c,
                _ => chars.push(c),
            }
        }
        let text: String = chars.into_iter().collect();
        checks::fen(text.as_bytes());
    }
}

// ---------------------------------------------------------------------------------
// Protocol lines, sessions, move lists, option values
// ---------------------------------------------------------------------------------

const VOCABULARY: &[&str] = &[
    "uci",
    "jcei",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "perft",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "rtime",
    "winc",
    "binc",
    "rinc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "Hash",
    "Threads",
    "MultiPV",
    "Move",
    "Overhead",
    "Clear",
    "Skill",
    "Level",
    "UCI_Variant",
    "jungle-cn",
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L",
    "r",
    "b",
    "0",
    "1",
    "-1",
    "124",
    "125",
    "65536",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1099511627777",
    "g3g4",
    "a7a6",
    "a1a1",
    "zz",
    "0000",
    "\u{e9}",
    "",
];

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(VOCABULARY).prop_map(str::to_string),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => "[a-h][0-9][a-h][0-9]",
        1 => "\\PC{0,6}",
    ]
}

fn line() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(token(), 0..10),
        prop::sample::select(vec![" ", "\t", "  ", " \t "]),
    )
        .prop_map(|(tokens, sep)| tokens.join(sep))
}

/// One protocol line of a session, from the protocol's grammar, valid or not.
fn session_line() -> impl Strategy<Value = String> {
    let start_moves = prop::sample::select(vec![
        "",
        " moves g3g4",
        " moves g3g4 a7a6 g4g5 a6a5 a3b3 a5a4",
        " moves a1a1",
        " moves g3g4 g3g4",
        " moves",
        " moves a1b1 a9b9 b1a1 b9a9 a1b1 a9b9 b1a1 b9a9",
    ]);
    let position = (
        prop::sample::select(vec![
            "startpos".to_string(),
            format!("fen {}", checks::MOVE_STARTS[1]),
            format!("fen {}", checks::MOVE_STARTS[3]),
            format!("fen {}", checks::MOVE_STARTS[4]),
            format!("fen {}", checks::MOVE_STARTS[5]),
            "fen 7/7/7 r".to_string(),
            "fen".to_string(),
            "nonsense".to_string(),
        ]),
        start_moves,
    )
        .prop_map(|(p, m)| format!("position {p}{m}"));
    let limit = prop_oneof![
        (1u32..5).prop_map(|d| format!("depth {d}")),
        (1u64..3000).prop_map(|n| format!("nodes {n}")),
        (0u64..30).prop_map(|t| format!("movetime {t}")),
        (0u64..3000, 0u64..3000).prop_map(|(w, b)| format!("wtime {w} btime {b}")),
        (0u64..100, 0u64..100).prop_map(|(w, b)| format!("winc {w} binc {b}")),
        (1u32..5).prop_map(|n| format!("movestogo {n}")),
        (1u32..4).prop_map(|n| format!("mate {n}")),
        Just("infinite".to_string()),
        Just("ponder".to_string()),
        Just("depth".to_string()),
        Just("nodes -5".to_string()),
    ];
    let go = (
        prop::collection::vec(limit, 0..4),
        prop::sample::select(vec![
            "",
            " searchmoves g3g4 a1a2",
            " searchmoves a1a1",
            " searchmoves d8d9",
        ]),
    )
        .prop_map(|(limits, sm)| format!("go {}{sm}", limits.join(" ")));
    let option = prop_oneof![
        (1u32..17).prop_map(|n| format!("setoption name Hash value {n}")),
        (1u32..4).prop_map(|n| format!("setoption name Threads value {n}")),
        (1u32..5).prop_map(|n| format!("setoption name MultiPV value {n}")),
        (0u32..21).prop_map(|n| format!("setoption name Skill Level value {n}")),
        Just("setoption name Clear Hash".to_string()),
        Just("setoption name Ponder value true".to_string()),
        Just("setoption name UCI_Variant value jungle-cn".to_string()),
        Just("setoption name UCI_Variant value jungle".to_string()),
        Just("setoption name DogSwims value true".to_string()),
        Just("setoption name TrappedLoseAttack value true".to_string()),
        Just("setoption name RepetitionDraw value 2".to_string()),
        Just("setoption name Hash value 0".to_string()),
        Just("setoption name Bogus value 1".to_string()),
    ];
    prop_oneof![
        3 => position,
        4 => go,
        2 => Just("stop".to_string()),
        1 => Just("ponderhit".to_string()),
        2 => Just("isready".to_string()),
        2 => option,
        1 => Just("ucinewgame".to_string()),
        1 => prop::sample::select(vec!["d", "eval", "go perft 2", "uci", "jcei"]).prop_map(str::to_string),
        1 => line(),
    ]
}

proptest! {
    #![proptest_config(config(1000))]

    /// Any line of protocol words, numbers and junk: parsed or refused with one short
    /// error; what parses reads the same when written back.
    #[test]
    fn command_lines(l in line()) {
        checks::command_line(l.as_bytes());
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// Sessions of valid and invalid commands in memory: one legal bestmove per go,
    /// refused commands change nothing, and the engine still answers at the end.
    #[test]
    fn sessions(lines in prop::collection::vec(session_line(), 1..24), quit in prop::bool::weighted(0.1)) {
        let mut text = lines.join("\n");
        if quit {
            text.push_str("\nquit\nisready");
        }
        checks::session(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// Move lists as text or as legal-move indices from several starts and rule sets.
    #[test]
    fn move_lists(selector in any::<u8>(), rest in prop::collection::vec(any::<u8>(), 0..160)) {
        let mut data = vec![selector];
        data.extend(rest);
        checks::moves(&data);
    }

    /// Move lists of move-shaped text: accepted exactly when the rules core plays them.
    #[test]
    fn move_texts(selector in 0u8..0x80, moves in prop::collection::vec("[a-g][1-9][a-g][1-9]", 0..12)) {
        let mut data = vec![selector];
        data.extend(moves.join(" ").bytes());
        checks::moves(&data);
    }

    /// Option values: accepted exactly as protocol.md documents.
    #[test]
    fn option_values(
        selector in any::<u8>(),
        value in prop_oneof![
            (-3i64..70000).prop_map(|n| n.to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            prop::sample::select(vec![
                "true", "false", "TRUE", "False", "yes", "jungle", "jungle-cn", "JUNGLE-CN",
                "", " 5 ", "+5", "-0", "007", "5 6", "1e3", "0x10", "99999999999999999999",
                "jungle cn", "\u{e9}",
            ]).prop_map(str::to_string),
            "\\PC{0,10}",
        ],
    ) {
        let mut data = vec![selector];
        data.extend(value.bytes());
        checks::setoption(&data);
    }
}

// ---------------------------------------------------------------------------------
// Files: match records, openings, training data
// ---------------------------------------------------------------------------------

/// Records of random games, as the match runner writes them.
fn record_file(seeds: &[(u64, usize)], rules: Rules) -> (String, Vec<Game>) {
    let mut text = Vec::new();
    let mut games = Vec::new();
    for (i, &(seed, plies)) in seeds.iter().enumerate() {
        let game = random_game(seed, plies, rules);
        let winner = match game.result() {
            GameResult::Win { winner, .. } => Some(winner),
            _ => None,
        };
        let record = GameRecord {
            number: i as u32 + 1,
            red: i % 2,
            start: *game.start_position(),
            moves: game.moves().iter().map(|m| m.to_string()).collect(),
            winner,
            termination: Termination::Rules(game.result()),
            faulty: None,
            unstopped_ponder: Vec::new(),
            ponder_hits: 0,
            ponder_misses: 0,
        };
        write_record(&mut text, &record, &["A".into(), "B".into()], rules).unwrap();
        games.push(game);
    }
    (String::from_utf8(text).unwrap(), games)
}

proptest! {
    #![proptest_config(config(64))]

    /// Written records read back to the same games.
    #[test]
    fn records_round_trip(
        seeds in prop::collection::vec((any::<u64>(), 0usize..150), 1..5),
        rules_index in 0usize..4,
    ) {
        let rules = checks::rule_sets()[rules_index];
        let (text, games) = record_file(&seeds, rules);
        let back = read_records(&text, rules).unwrap();
        prop_assert_eq!(back.len(), games.len());
        for (r, g) in back.iter().zip(&games) {
            prop_assert_eq!(r.start, *g.start_position());
            let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
            prop_assert_eq!(&r.moves, &moves);
        }
        checks::records(text.as_bytes());
    }

    /// Damaged record files: lines dropped, repeated or changed, text cut anywhere.
    #[test]
    fn damaged_records(
        seeds in prop::collection::vec((any::<u64>(), 0usize..80), 1..4),
        edits in prop::collection::vec((0u8..4, any::<prop::sample::Index>(), token()), 0..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let (text, _) = record_file(&seeds, Rules::default());
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for (op, at, tok) in edits {
            let i = at.index(lines.len());
            match op {
                0 => { lines.remove(i); }
                1 => { let l = lines[i].clone(); lines.insert(i, l); }
                2 => lines[i].push_str(&format!(" {tok}")),
                _ => lines[i] = tok,
            }
            if lines.is_empty() {
                break;
            }
        }
        let text = lines.join("\n");
        let end = cut.index(text.len() + 1);
        let bytes = &text.as_bytes()[..end];
        checks::records(bytes);
    }

    /// Openings files: positions of random games (finished ones are refused), comments,
    /// labels and junk lines.
    #[test]
    fn openings_files(
        entries in prop::collection::vec((any::<u64>(), 0usize..60, 0u8..6, token()), 1..8),
    ) {
        let mut text = String::new();
        let mut expected = Vec::new();
        let mut clean = true;
        for (seed, plies, kind, tok) in entries {
            let game = random_game(seed, plies, Rules::default());
            let fen = game.position().to_fen();
            let ongoing = game.result() == GameResult::Ongoing;
            match kind {
                0 | 1 => { text.push_str(&format!("{fen}\n")); clean &= ongoing; expected.push(*game.position()); }
                2 => { text.push_str(&format!("  {fen} ; eval {tok}\n")); clean &= ongoing; expected.push(*game.position()); }
                3 => text.push_str(&format!("# {tok}\n")),
                4 => text.push('\n'),
                _ => { text.push_str(&format!("{tok}\n")); clean = false; }
            }
        }
        if clean && !expected.is_empty() {
            let read = read_openings(&text, Rules::default()).unwrap();
            prop_assert_eq!(read, expected);
        }
        checks::openings(text.as_bytes());
    }

    /// Training samples of random games encode and decode back (all but the move
    /// number, which the format does not keep); flipped bits decode or fail cleanly.
    #[test]
    fn training_records(seed in any::<u64>(), plies in 0usize..120, flips in prop::collection::vec(0usize..128, 0..3)) {
        let mut samples = Vec::new();
        let mut game = Game::new(Position::startpos());
        let mut rng = Rng::new(seed);
        for ply in 0..plies {
            if game.result() != GameResult::Ongoing {
                break;
            }
            let pos = *game.position();
            // The format keeps the plies since the last capture up to 255.
            if pos.halfmove_clock() <= 255 {
                samples.push(Sample {
                    pos,
                    score: (rng.next_u64() as i16).wrapping_add(ply as i16),
                    outcome: [Wdl::Loss, Wdl::Draw, Wdl::Win][ply % 3],
                });
            }
            let legal = game.legal_moves();
            let m = legal.as_slice()[rng.below(legal.len())];
            game.play(m).unwrap();
        }
        let mut bytes = Vec::new();
        data::write_samples(&mut bytes, &samples).unwrap();
        let back = data::decode_all(&bytes).unwrap();
        prop_assert_eq!(back.len(), samples.len());
        for (a, b) in samples.iter().zip(&back) {
            let board = |p: &Position| p.to_fen().rsplit_once(' ').unwrap().0.to_string();
            prop_assert_eq!(board(&a.pos), board(&b.pos));
            prop_assert_eq!((a.score, a.outcome), (b.score, b.outcome));
        }
        checks::training_data(&bytes);
        for bit in flips {
            if !bytes.is_empty() {
                let at = (bit / 8 + 16 * (bit % 7)) % bytes.len();
                bytes[at] ^= 1 << (bit % 8);
            }
        }
        checks::training_data(&bytes);
    }

    /// Arbitrary bytes as training data.
    #[test]
    fn training_bytes(bytes in prop::collection::vec(any::<u8>(), 0..100)) {
        checks::training_data(&bytes);
    }
}

// ---------------------------------------------------------------------------------
// The fuzzers' findings and seeds
// ---------------------------------------------------------------------------------

/// A fuzz target's check.
type Check = fn(&[u8]);

/// The check of each fuzz target, by the target's name.
const TARGETS: [(&str, Check); 11] = [
    ("command_line", checks::command_line),
    ("session", checks::session),
    ("fen", checks::fen),
    ("moves", checks::moves),
    ("setoption", checks::setoption),
    ("records", checks::records),
    ("openings", checks::openings),
    ("training_data", checks::training_data),
    ("board_requests", checks::board_requests),
    // The online server's, whose checks live beside the code they exercise.
    ("online_messages", jungle_online::messages::exercise),
    ("account_requests", jungle_online::requests_fuzz::exercise),
];

/// Runs every file of `fuzz/<dir>/<target>/` through the target's check; returns how
/// many files there were.
fn replay_dir(dir: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(dir);
    let mut count = 0;
    for (target, check) in TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let bytes = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&bytes));
            assert!(outcome.is_ok(), "{target}: {} fails again", path.display());
            count += 1;
        }
    }
    count
}

/// Every input that once broke an invariant (`fuzz/regressions/<target>/`) passes.
#[test]
fn fuzz_regressions() {
    replay_dir("regressions");
}

/// The fuzzers' seed inputs (`fuzz/seeds/<target>/`) pass, and every target has some.
#[test]
fn fuzz_seeds() {
    for (target, _) in TARGETS {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/seeds")
            .join(target);
        let n = std::fs::read_dir(&dir).map_or(0, |d| d.count());
        assert!(n > 0, "no seeds in {}", dir.display());
    }
    assert!(replay_dir("seeds") >= TARGETS.len());
}

/// The placement writer of these tests agrees with the notation on the start position.
#[test]
fn placement_writer_matches_the_start_position() {
    let start = Position::startpos();
    let mut board: Board = [None; 63];
    for sq in 0..63u8 {
        let s = jungle::board::Square::from_index(sq).unwrap();
        board[sq as usize] = start
            .piece_at(s)
            .map(|p| (p.color.index(), p.animal.index()));
    }
    assert_eq!(
        format!("{} r 0 1", placement_text(&board)),
        jungle::board::START_FEN
    );
    assert_eq!(Animal::ALL.map(|a| a.letter()), LETTERS);
}
