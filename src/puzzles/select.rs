//! The shipped set chosen from candidate puzzles: each position once (a position with
//! the colours exchanged or mirrored left to right is the same puzzle), none from the
//! test books, every puzzle with a rare theme, and the rest spread evenly over the
//! ratings; trivial puzzles (a den entry in one move, a capture that cannot be
//! retaken) at most `TRIVIAL_SHARE` of the set; at least `GAMES_SHARE` of the set from
//! games, the puzzles from the tables cut to fit by dropping the most alike (those of
//! the signatures, goals and themes with most puzzles) first.

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
pub const GAMES_SHARE: f64 = 0.5;

/// True for a puzzle mined from a game (not from the tables).
pub fn from_games(p: &Puzzle) -> bool {
    !p.has(Theme::Endgame)
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
    /// Puzzles in the set (all when there are fewer).
    pub count: usize,
    pub seed: u64,
    /// A theme of at most this share of the candidates is rare.
    pub rare_share: f64,
    /// The most trivial puzzles, as a share of the set.
    pub trivial_share: f64,
    /// The least share of the set from games.
    pub games_share: f64,
}

/// Chooses puzzles from `candidates` as `choice` says: each position once, none of
/// `excluded`, trivial ones at most `trivial_share` of the set (the lowest rated kept).
/// Sorted by id.
pub fn select(candidates: Vec<Puzzle>, choice: &Choice, excluded: &HashSet<u64>) -> Vec<Puzzle> {
    let Choice {
        count,
        seed,
        rare_share,
        trivial_share,
        games_share,
    } = *choice;
    let mut seen = HashSet::new();
    let mut ids = HashSet::new();
    let unique: Vec<Puzzle> = candidates
        .into_iter()
        .filter(|p| !super::in_test_books(p, excluded))
        .filter(|p| seen.insert(symmetry_key(p)) && ids.insert(p.id.clone()))
        .collect();
    let (mut easy, pool): (Vec<Puzzle>, Vec<Puzzle>) = unique.into_iter().partition(trivial);
    let easy_room = ((trivial_share * count as f64).floor() as usize).min(easy.len());
    let hard = count - easy_room;
    // From games first, then from the tables as many as the games' share allows.
    let (games, tables): (Vec<Puzzle>, Vec<Puzzle>) = pool.into_iter().partition(from_games);
    let mut chosen = if games.len() <= hard {
        games
    } else {
        choose(games, hard, seed, rare_share)
    };
    let games_share = games_share.clamp(0.0, 1.0);
    let tables_room = if games_share <= 0.0 {
        usize::MAX
    } else {
        ((1.0 - games_share) / games_share * chosen.len() as f64).floor() as usize
    }
    .min(hard - chosen.len());
    chosen.extend(thin(tables, tables_room, seed, rare_share));
    // The trivial ones: at most `trivial_share` of the set, taken in turns from each
    // set of themes (so that captures on a trap or of the last animal stay beside den
    // entries), the easiest of each first (in a random order among equals).
    let share = trivial_share.clamp(0.0, 1.0);
    let of_set = if share >= 1.0 {
        usize::MAX
    } else {
        (share / (1.0 - share) * chosen.len() as f64).floor() as usize
    };
    let room = easy_room.min(of_set);
    easy.sort_by_key(|p| std::cmp::Reverse((p.rating, Rng::new(seed ^ start_key(p)).next_u64())));
    let mut by_themes: BTreeMap<Vec<Theme>, Vec<Puzzle>> = BTreeMap::new();
    for p in easy {
        let themes = p.themes.iter().copied().filter(|&t| t != Theme::Endgame);
        by_themes.entry(themes.collect()).or_default().push(p);
    }
    // Those of a theme no chosen puzzle has first (the rare themes of the trivial end,
    // the opponent left without a move), then in turns.
    let mut taken = 0;
    for group in by_themes.values_mut() {
        let new = |p: &Puzzle| {
            p.themes
                .iter()
                .any(|t| *t != Theme::Endgame && !chosen.iter().any(|c| c.has(*t)))
        };
        if let Some(i) = group.iter().rposition(new) {
            if taken < room {
                chosen.push(group.remove(i));
                taken += 1;
            }
        }
    }
    while taken < room && by_themes.values().any(|g| !g.is_empty()) {
        for group in by_themes.values_mut() {
            if taken < room {
                if let Some(p) = group.pop() {
                    // A trivial one from the tables only while the games keep their share.
                    let games = chosen.iter().filter(|p| from_games(p)).count();
                    if from_games(&p) || (games as f64) >= games_share * (chosen.len() + 1) as f64 {
                        chosen.push(p);
                        taken += 1;
                    }
                }
            }
        }
    }
    chosen.sort_by(|a, b| a.id.cmp(&b.id));
    chosen
}

/// `count` puzzles of `pool` (all when there are fewer), the most alike dropped first:
/// every puzzle with a rare theme, then in turns from each group of the same
/// signature, goal and themes, in a random order within each, so that the groups with
/// most puzzles lose most.
fn thin(pool: Vec<Puzzle>, count: usize, seed: u64, rare_share: f64) -> Vec<Puzzle> {
    if pool.len() <= count {
        return pool;
    }
    let rare = rare_themes(&pool, rare_share);
    let (mut chosen, rest): (Vec<Puzzle>, Vec<Puzzle>) = pool
        .into_iter()
        .partition(|p| p.themes.iter().any(|t| rare.contains(t)));
    chosen.truncate(count);
    let mut groups: BTreeMap<Alike, Vec<(u64, Puzzle)>> = BTreeMap::new();
    for p in rest {
        let pos = p.game().map_or(p.start, |g| *g.position());
        let m = crate::tb::Material::of(&pos).canonical();
        let key = (
            u16::from(m.red) << 8 | u16::from(m.blue),
            p.themes.clone(),
            p.goal == crate::puzzle::Goal::Win,
        );
        let order = Rng::new(seed ^ start_key(&p)).next_u64();
        groups.entry(key).or_default().push((order, p));
    }
    for g in groups.values_mut() {
        g.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
    }
    while chosen.len() < count && groups.values().any(|g| !g.is_empty()) {
        for g in groups.values_mut() {
            if chosen.len() >= count {
                break;
            }
            if let Some((_, p)) = g.pop() {
                chosen.push(p);
            }
        }
    }
    chosen
}

/// What makes puzzles from the tables alike: the signature (Red's and Blue's animals),
/// the themes and whether it is a win.
type Alike = (u16, Vec<Theme>, bool);

/// The themes held by at most `rare_share` of `pool` (and by one at least).
fn rare_themes(pool: &[Puzzle], rare_share: f64) -> Vec<Theme> {
    Theme::ALL
        .into_iter()
        .filter(|&t| {
            let n = pool.iter().filter(|p| p.has(t)).count();
            n > 0 && (n as f64) <= rare_share * pool.len() as f64
        })
        .collect()
}

fn choose(pool: Vec<Puzzle>, count: usize, seed: u64, rare_share: f64) -> Vec<Puzzle> {
    let rare = rare_themes(&pool, rare_share);
    let (mut chosen, rest): (Vec<Puzzle>, Vec<Puzzle>) = pool
        .into_iter()
        .partition(|p| p.themes.iter().any(|t| rare.contains(t)));
    chosen.truncate(count);
    // The rest by rating bucket, each bucket in a random order, taken in turns.
    let mut buckets: BTreeMap<u32, Vec<(u64, Puzzle)>> = BTreeMap::new();
    for p in rest {
        let order = Rng::new(seed ^ start_key(&p)).next_u64();
        buckets
            .entry(p.rating / BUCKET)
            .or_default()
            .push((order, p));
    }
    for b in buckets.values_mut() {
        b.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
    }
    while chosen.len() < count && buckets.values().any(|b| !b.is_empty()) {
        for b in buckets.values_mut() {
            if chosen.len() >= count {
                break;
            }
            if let Some((_, p)) = b.pop() {
                chosen.push(p);
            }
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(id: &str, fen_rat: &str, rating: u32, themes: &str) -> Puzzle {
        Puzzle::parse(&format!(
            "{id};7/7/3L3/7/7/7/7/7/{fen_rat} r 0 1;-;d7d8 a1a2 d8d9;jungle;win;{themes};{rating}"
        ))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
    }

    #[test]
    fn the_set_takes_rare_themes_spreads_ratings_and_drops_repeats() {
        let mut candidates = Vec::new();
        let rats = ["r6", "r5R", "r4R1", "r3R2", "r1R4", "rR5"];
        for (i, rat) in rats.iter().enumerate() {
            // Ratings 800, 800, 800, 800, 1500 and one rare theme at 2000.
            let (rating, themes) = match i {
                4 => (1500, "den"),
                5 => (2000, "den,jump"),
                _ => (800, "den"),
            };
            candidates.push(puzzle(&format!("p{i}"), rat, rating, themes));
        }
        // The same position again under another id, and turned round (Blue's lion
        // on d3 to enter Red's den, Red's rat on a9).
        candidates.push(puzzle("again", "r6", 900, "den"));
        candidates.push(
            Puzzle::parse("turned;R6/7/7/7/7/7/3l3/7/7 b 0 1;-;d3d2 a9a8 d2d1;jungle;win;den;900")
                .expect("a puzzle"),
        );
        assert_eq!(
            symmetry_key(&candidates[0]),
            symmetry_key(&candidates[candidates.len() - 1])
        );
        let choice = |count| Choice {
            count,
            seed: 1,
            rare_share: 0.2,
            trivial_share: 1.0,
            games_share: 0.0,
        };
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
        let rats = ["r6", "r5R", "r4R1", "r3R2", "r1R4", "rR5"];
        let mut candidates = Vec::new();
        for (i, rat) in rats.iter().enumerate() {
            let (themes, id) = if i < 2 {
                ("den", format!("game{i}"))
            } else {
                ("den,endgame", format!("table{i}"))
            };
            candidates.push(puzzle(&id, rat, 800 + 10 * i as u32, themes));
        }
        candidates.push(
            Puzzle::parse(
                "dog;7/7/3L3/7/7/7/7/D6/r6 r 0 1;-;d7d8 a1b1 d8d9;jungle;win;den,endgame;900",
            )
            .expect("a puzzle"),
        );
        let choice = Choice {
            count: 100,
            seed: 1,
            rare_share: 0.0,
            trivial_share: 1.0,
            games_share: 0.5,
        };
        let chosen = select(candidates, &choice, &HashSet::new());
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

    #[test]
    fn trivial_puzzles_are_capped() {
        // A den entry in one move, a capture that cannot be retaken (Red's elephant
        // takes the lion; Blue's rat is far away), and a den entry in two moves.
        let den = Puzzle::parse("den1;7/3L3/7/7/7/7/7/7/r6 r 0 1;-;d8d9;jungle;win;den;600")
            .expect("a puzzle");
        let free =
            Puzzle::parse("free;7/7/7/3l3/3E3/7/7/7/r6 r 0 1;-;d5d6;jungle;draw;endgame;700")
                .expect("a puzzle");
        let retaken =
            Puzzle::parse("back;7/7/3e3/3l3/3E3/7/7/7/7 r 0 1;-;d5d6;jungle;draw;endgame;700")
                .expect("a puzzle");
        let two = puzzle("two", "r6", 800, "den");
        assert!(trivial(&den) && trivial(&free));
        assert!(!trivial(&retaken) && !trivial(&two));
        // A third of 10 may be trivial, but no more than a third of the set: with two
        // others, one. (Two den entries: the first one's position with the rat on b1.)
        let choice = Choice {
            count: 10,
            seed: 1,
            rare_share: 0.0,
            trivial_share: 0.34,
            games_share: 0.0,
        };
        let mut den2 = den.clone();
        den2.id = "den2".into();
        den2.rating = 650;
        den2.start = Position::from_fen("7/3L3/7/7/7/7/7/7/1r5 r 0 1").expect("a position");
        let candidates = vec![den, den2, free, retaken, two];
        let chosen = select(candidates.clone(), &choice, &HashSet::new());
        let ids: Vec<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), 3, "one trivial puzzle: {ids:?}");
        assert!(ids.contains(&"back") && ids.contains(&"two"), "{ids:?}");
        // With room for two, one of each set of themes, the easiest den entry.
        let choice = Choice {
            trivial_share: 0.5,
            ..choice
        };
        let chosen = select(candidates, &choice, &HashSet::new());
        let ids: Vec<&str> = chosen.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["back", "den1", "free", "two"]);
    }
}
