//! The shipped set chosen from candidate puzzles (docs/puzzles.md, "Commands"): each
//! position once (a position with the colours exchanged or mirrored left to right is
//! the same puzzle), none from the test books, and within the set's limits: at least
//! `games_share` of the set from games, no theme on more than `theme_share` of it,
//! trivial puzzles (a den entry in one move, a capture that cannot be retaken) at most
//! `trivial_share`.
//! The puzzles are taken in turns: first every one of a rare theme, from games and
//! then from the tables; then the rest from games in turns from each rating bucket
//! (each in a random order); then the rest from the tables in turns from each group
//! of the same signature, goal and themes, so that the most alike are left out
//! first. A puzzle that would break a
//! limit of the set's size is passed over; when the limits leave the set smaller than
//! asked, it is chosen again for that size until it holds.

use super::tables::transformed;
use crate::board::Position;
use crate::puzzle::{Puzzle, Theme};
use crate::rng::Rng;
use std::collections::{BTreeMap, HashSet};

/// A theme held by at most this share of the candidates is rare: all its puzzles are
/// taken first (`jungle puzzles select`'s default).
pub const RARE_SHARE: f64 = 0.05;
/// Width of the rating buckets the rest is spread over.
pub const BUCKET: u32 = 100;
/// The most trivial puzzles (`trivial`) the set holds, as a share of its size
/// (`jungle puzzles select`'s default).
pub const TRIVIAL_SHARE: f64 = 0.1;
/// The least share of the set from games (`jungle puzzles select`'s default).
pub const GAMES_SHARE: f64 = 0.6;
/// The most share of the set with any one theme (`jungle puzzles select`'s default).
pub const THEME_SHARE: f64 = 0.4;

/// True for a puzzle mined from a game (not from the tables): a game's puzzle carries
/// the game's last move (or moves) in `before`, one from the tables none.
pub fn from_games(p: &Puzzle) -> bool {
    !p.before.is_empty()
}

/// A puzzle whose first solver move needs no finding: it enters the den (a puzzle of
/// one move), or it captures an animal and no reply can take the capturer back.
pub fn trivial(p: &Puzzle) -> bool {
    let Ok(game) = p.game() else {
        return false;
    };
    let Some(&first) = p.solution.first() else {
        return false;
    };
    let pos = game.position();
    if pos.is_den_entry(first) {
        return true;
    }
    if pos.captured_by(first).is_none() {
        return false;
    }
    let mut after = game.clone();
    if after.play(first).is_err() {
        return false;
    }
    after.result() != crate::game::GameResult::Ongoing
        || !after.legal_moves().iter().any(|m| m.to() == first.to())
}

/// The key of the position the solver starts from (the order of the random choice).
fn start_key(p: &Puzzle) -> u64 {
    p.game().map_or(p.start.key(), |g| g.position().key())
}

/// The key that makes two puzzles the same: the position the solver starts from, up
/// to the board turned round (the colours exchanged, the other side to move) and
/// mirrored left to right, under which the game is the same.
pub fn symmetry_key(p: &Puzzle) -> u64 {
    let pos = p.game().map_or(p.start, |g| *g.position());
    [(true, false), (false, true), (true, true)]
        .into_iter()
        .filter_map(|(swap, mirror)| Position::from_fen(&transformed(&pos, swap, mirror)).ok())
        .map(|t| t.key())
        .fold(pos.key(), u64::min)
}

/// How the set is chosen.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    /// Puzzles in the set (fewer when the limits or the candidates do not allow it).
    pub count: usize,
    pub seed: u64,
    /// A theme of at most this share of the candidates is rare.
    pub rare_share: f64,
    /// The most trivial puzzles, as a share of the set.
    pub trivial_share: f64,
    /// The least share of the set from games.
    pub games_share: f64,
    /// The most share of the set any one theme may have.
    pub theme_share: f64,
}

/// Chooses puzzles from `candidates` as `choice` says (see the module's comment).
/// Sorted by id.
pub fn select(candidates: Vec<Puzzle>, choice: &Choice, excluded: &HashSet<u64>) -> Vec<Puzzle> {
    let mut seen = HashSet::new();
    let mut ids = HashSet::new();
    let unique: Vec<Puzzle> = candidates
        .into_iter()
        .filter(|p| !super::in_test_books(p, excluded))
        // A puzzle from neither a game nor the tables (no move before it, not
        // decided by the tables) has no place.
        .filter(|p| from_games(p) || p.has(Theme::Endgame))
        .filter(|p| seen.insert(symmetry_key(p)) && ids.insert(p.id.clone()))
        .collect();
    let order = priority(unique, choice);
    let games = order.iter().filter(|p| from_games(p)).count();
    let mut size = choice.count;
    if choice.games_share > 0.0 {
        size = size.min((games as f64 / choice.games_share).floor() as usize);
    }
    // The limits are shares of the size: take again for a smaller size until all hold.
    loop {
        let chosen = take(&order, size, choice);
        if chosen.len() >= size || chosen.is_empty() {
            let mut out: Vec<Puzzle> = chosen.into_iter().cloned().collect();
            out.sort_by(|a, b| a.id.cmp(&b.id));
            return out;
        }
        size = chosen.len();
    }
}

/// Takes puzzles from `order` while they keep the limits of a set of `size`.
fn take<'a>(order: &'a [Puzzle], size: usize, choice: &Choice) -> Vec<&'a Puzzle> {
    let cap = |share: f64| (share.clamp(0.0, 1.0) * size as f64).floor() as usize;
    let theme_cap = cap(choice.theme_share);
    let tables_cap =
        size - ((choice.games_share.clamp(0.0, 1.0) * size as f64).ceil() as usize).min(size);
    let trivial_cap = cap(choice.trivial_share);
    let mut themes: BTreeMap<Theme, usize> = BTreeMap::new();
    let (mut tables, mut trivials) = (0, 0);
    let mut chosen = Vec::new();
    for p in order {
        if chosen.len() >= size {
            break;
        }
        if p.themes
            .iter()
            .any(|t| themes.get(t).copied().unwrap_or(0) >= theme_cap)
        {
            continue;
        }
        let table = !from_games(p);
        if table && tables >= tables_cap {
            continue;
        }
        let easy = trivial(p);
        if easy && trivials >= trivial_cap {
            continue;
        }
        for &t in &p.themes {
            *themes.entry(t).or_default() += 1;
        }
        tables += usize::from(table);
        trivials += usize::from(easy);
        chosen.push(p);
    }
    chosen
}

/// The candidates in the order they are taken: those of a rare theme from games, then
/// from the tables; then the rest from games, then from the tables, in turns from
/// each group (rating buckets for games, alike puzzles for the tables), each group in
/// a random order.
fn priority(pool: Vec<Puzzle>, choice: &Choice) -> Vec<Puzzle> {
    let (games, tables): (Vec<Puzzle>, Vec<Puzzle>) = pool.into_iter().partition(from_games);
    let (mut out, games) = in_turns(games, choice, |p| u64::from(p.rating / BUCKET));
    let (rare_tables, tables) = in_turns(tables, choice, |p| {
        let pos = p.game().map_or(p.start, |g| *g.position());
        let m = crate::tb::Material::of(&pos).canonical();
        let mut h = Rng::new(u64::from(m.red) << 8 | u64::from(m.blue)).next_u64();
        for t in &p.themes {
            h = Rng::new(h ^ *t as u64).next_u64();
        }
        h ^ u64::from(p.goal.name().len() as u8)
    });
    // The rare themes of both before the rest of either, so that a cap filled by
    // the games (the trivial puzzles') never passes over the tables' rare ones.
    out.extend(rare_tables);
    out.extend(games);
    out.extend(tables);
    out
}

/// `pool` in the order to take it: every puzzle with a rare theme (rarest theme
/// first), and then the rest in turns from each group of `group`, each in a random
/// order.
fn in_turns(
    pool: Vec<Puzzle>,
    choice: &Choice,
    group: impl Fn(&Puzzle) -> u64,
) -> (Vec<Puzzle>, Vec<Puzzle>) {
    let rare = rare_themes(&pool, choice.rare_share);
    let random = |p: &Puzzle| Rng::new(choice.seed ^ start_key(p)).next_u64();
    let (mut first, rest): (Vec<Puzzle>, Vec<Puzzle>) = pool
        .into_iter()
        .partition(|p| p.themes.iter().any(|t| rare.contains(t)));
    // The rarest theme's puzzles first, so that a cap never passes them over.
    let rank = |p: &Puzzle| rare.iter().position(|t| p.has(*t)).unwrap_or(rare.len());
    first.sort_by_key(|p| (rank(p), random(p)));
    let mut groups: BTreeMap<u64, Vec<(u64, Puzzle)>> = BTreeMap::new();
    for p in rest {
        groups.entry(group(&p)).or_default().push((random(&p), p));
    }
    for g in groups.values_mut() {
        g.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
    }
    let mut then = Vec::new();
    while groups.values().any(|g| !g.is_empty()) {
        for g in groups.values_mut() {
            if let Some((_, p)) = g.pop() {
                then.push(p);
            }
        }
    }
    (first, then)
}

/// The themes held by at most `rare_share` of `pool` (and by one at least), rarest
/// first.
fn rare_themes(pool: &[Puzzle], rare_share: f64) -> Vec<Theme> {
    let mut rare: Vec<(usize, Theme)> = Theme::ALL
        .into_iter()
        .map(|t| (pool.iter().filter(|p| p.has(t)).count(), t))
        .filter(|&(n, _)| n > 0 && (n as f64) <= rare_share * pool.len() as f64)
        .collect();
    rare.sort();
    rare.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A den entry in two from a game (a move before it) with Blue's rat on `rat`.
    fn puzzle(id: &str, rat: &str, rating: u32, themes: &str) -> Puzzle {
        Puzzle::parse(&format!(
            "{id};7/7/3L3/7/7/7/7/7/{rat} b 0 1;a1a2;d7d8 a2a1 d8d9;jungle;win;{themes};{rating}"
        ))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
    }

    /// The same from the tables (no move before it).
    fn table_puzzle(id: &str, rat: &str, rating: u32, themes: &str) -> Puzzle {
        Puzzle::parse(&format!(
            "{id};7/7/3L3/7/7/7/7/7/{rat} r 0 1;-;d7d8 a1a2 d8d9;jungle;win;{themes};{rating}"
        ))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
    }

    const RATS: [&str; 6] = ["r6", "r5R", "r4R1", "r3R2", "r1R4", "rR5"];

    fn choice(count: usize) -> Choice {
        Choice {
            count,
            seed: 1,
            rare_share: 0.2,
            trivial_share: 1.0,
            games_share: 0.0,
            theme_share: 1.0,
        }
    }

    #[test]
    fn the_set_takes_rare_themes_spreads_ratings_and_drops_repeats() {
        let mut candidates = Vec::new();
        for (i, rat) in RATS.iter().enumerate() {
            // Ratings 800, 800, 800, 800, 1500 and one rare theme at 2000.
            let (rating, themes) = match i {
                4 => (1500, "den"),
                5 => (2000, "den,jump"),
                _ => (800, "den"),
            };
            candidates.push(puzzle(&format!("p{i}"), rat, rating, themes));
        }
        // The same position again under another id, and turned round (Blue's lion
        // on d3 to enter Red's den, Red's rat on a8).
        candidates.push(puzzle("again", "r6", 900, "den"));
        candidates.push(
            Puzzle::parse(
                "turned;7/R6/7/7/7/7/3l3/7/7 b 0 1;-;d3d2 a8a9 d2d1;jungle;win;den,endgame;900",
            )
            .expect("a puzzle"),
        );
        assert_eq!(
            symmetry_key(&candidates[0]),
            symmetry_key(&candidates[candidates.len() - 1])
        );
        let chosen = select(candidates.clone(), &choice(3), &HashSet::new());
        let ids: Vec<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(chosen.len(), 3);
        assert!(ids.contains(&"p5"), "the rare theme first: {ids:?}");
        assert!(ids.contains(&"p4"), "the other rating bucket: {ids:?}");
        let all = select(candidates, &choice(100), &HashSet::new());
        assert_eq!(all.len(), 6, "the repeated and turned round position once");
        assert!(all.windows(2).all(|w| w[0].id < w[1].id));
    }

    #[test]
    fn the_games_keep_their_share_and_the_most_alike_tables_puzzles_go() {
        // Two puzzles from games; five from the tables, four of one signature (Red's
        // lion and rat, Blue's rat) and one of another (Red's lion and dog).
        let mut candidates = Vec::new();
        for (i, rat) in RATS.iter().enumerate() {
            candidates.push(if i < 2 {
                puzzle(&format!("game{i}"), rat, 800 + 10 * i as u32, "den")
            } else {
                table_puzzle(
                    &format!("table{i}"),
                    rat,
                    800 + 10 * i as u32,
                    "den,endgame",
                )
            });
        }
        candidates.push(
            Puzzle::parse(
                "dog;7/7/3L3/7/7/7/7/D6/r6 r 0 1;-;d7d8 a1b1 d8d9;jungle;win;den,endgame;900",
            )
            .expect("a puzzle"),
        );
        let c = Choice {
            rare_share: 0.0,
            games_share: 0.5,
            ..choice(100)
        };
        let chosen = select(candidates, &c, &HashSet::new());
        let ids: Vec<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(chosen.len(), 4, "{ids:?}");
        assert_eq!(
            chosen.iter().filter(|p| from_games(p)).count(),
            2,
            "{ids:?}"
        );
        assert!(
            ids.contains(&"dog"),
            "the signature with one puzzle stays: {ids:?}"
        );
    }

    /// No theme on more than its share: with den on every candidate but two and a
    /// cap of half the set, the set is four (two den, two not).
    #[test]
    fn no_theme_takes_more_than_its_share() {
        let mut candidates: Vec<Puzzle> = RATS
            .iter()
            .enumerate()
            .map(|(i, rat)| puzzle(&format!("den{i}"), rat, 800 + 100 * i as u32, "den"))
            .collect();
        candidates.push(
            Puzzle::parse("hold1;r6/7/7/7/7/7/7/2C4/4l2 b 0 1;a9a8;c2b2;jungle;hold;defence;1200")
                .expect("a puzzle"),
        );
        candidates.push(
            Puzzle::parse("hold2;r6/7/7/7/7/7/7/2C4/5l1 b 0 1;a9a8;c2b2;jungle;hold;defence;1300")
                .expect("a puzzle"),
        );
        let c = Choice {
            theme_share: 0.5,
            ..choice(100)
        };
        let chosen = select(candidates, &c, &HashSet::new());
        let den = chosen.iter().filter(|p| p.has(Theme::Den)).count();
        assert_eq!((chosen.len(), den), (4, 2));
    }

    #[test]
    fn trivial_puzzles_are_capped() {
        // A den entry in one move, a capture that cannot be retaken (Red's elephant
        // takes the lion; Blue's rat is far away), a den entry in two moves.
        let den = Puzzle::parse("den1;7/3L3/7/7/7/7/7/7/r6 b 0 1;a1b1;d8d9;jungle;win;den;600")
            .expect("a puzzle");
        let free =
            Puzzle::parse("free;7/7/7/3l3/3E3/7/7/7/r6 r 0 1;-;d5d6;jungle;draw;endgame;700")
                .expect("a puzzle");
        let retaken =
            Puzzle::parse("back;7/7/3e3/3l3/3E3/7/7/7/7 r 0 1;-;d5d6;jungle;draw;endgame;700")
                .expect("a puzzle");
        let trap =
            Puzzle::parse("trap;7/7/7/7/7/7/7/2C4/2l4 r 0 1;-;c2c1;jungle;win;trap,endgame;700")
                .expect("a puzzle");
        let two = puzzle("two", "r6", 800, "den");
        assert!(trivial(&den) && trivial(&free) && trivial(&trap));
        assert!(!trivial(&retaken) && !trivial(&two));
        // A third of the set at most: of four, one.
        let c = Choice {
            trivial_share: 0.34,
            rare_share: 0.0,
            ..choice(10)
        };
        let chosen = select(vec![den, free, retaken, two], &c, &HashSet::new());
        let ids: Vec<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(chosen.iter().filter(|p| trivial(p)).count(), 1, "{ids:?}");
        assert!(ids.contains(&"back") && ids.contains(&"two"), "{ids:?}");
    }

    /// A rare theme from the tables goes in before the games fill a cap: with room
    /// for one trivial puzzle, the tables' trivial trap (rare among them) is kept and
    /// the games' den entry in one is not.
    #[test]
    fn the_tables_rare_themes_come_before_the_games_fill_a_cap() {
        let den = Puzzle::parse("den1;7/3L3/7/7/7/7/7/7/r6 b 0 1;a1b1;d8d9;jungle;win;den;600")
            .expect("a puzzle");
        let trap =
            Puzzle::parse("trap;7/7/7/7/7/7/7/2C4/2l4 r 0 1;-;c2c1;jungle;win;trap,endgame;700")
                .expect("a puzzle");
        let mut candidates = vec![den, trap, puzzle("two", "r6", 800, "den")];
        for (i, rat) in RATS[1..4].iter().enumerate() {
            candidates.push(table_puzzle(&format!("t{i}"), rat, 900, "den,endgame"));
        }
        let c = Choice {
            trivial_share: 0.2,
            rare_share: 0.3,
            ..choice(5)
        };
        let chosen = select(candidates, &c, &HashSet::new());
        let ids: Vec<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(chosen.len(), 5, "{ids:?}");
        assert!(ids.contains(&"trap") && !ids.contains(&"den1"), "{ids:?}");
    }
}
