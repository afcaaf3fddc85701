//! The puzzles the board offers: the shipped set (`puzzles/puzzles.txt`, built into
//! the board so that it works offline), the choice of the next puzzle near the
//! person's rating, and the person's progress (rating, streak, puzzles seen), which
//! the page keeps in the browser as JSON.

use crate::api::{PuzzleRequest, Refusal};
use crate::puzzle_rating::Rating;
use jungle_core::puzzle::{read_puzzles, Puzzle, Theme};
use jungle_core::rng::Rng;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::OnceLock;

/// The shipped set as text (protocol.md, "Puzzles", has the format).
pub const SHIPPED_TEXT: &str = include_str!("../../../puzzles/puzzles.txt");

/// The shipped set, read once. It is checked by a test, so it always reads; were it
/// damaged, the board would offer no puzzles rather than fail.
pub fn shipped() -> &'static [Puzzle] {
    static SET: OnceLock<Vec<Puzzle>> = OnceLock::new();
    SET.get_or_init(|| {
        read_puzzles(SHIPPED_TEXT).unwrap_or_else(|e| {
            log::error!("the shipped puzzles do not read: {e}");
            Vec::new()
        })
    })
}

/// The window around the target rating the next puzzle is first looked for in; it
/// doubles until a puzzle is found.
pub const WINDOW: f64 = 100.0;

/// A puzzle of `theme` (any, when `None`) near `rating`: one drawn by `seed` among
/// those not `seen` within ±`WINDOW` of it, the window doubling until there is one;
/// when every puzzle of the theme has been seen, the seen ones are offered again.
/// The puzzle `left` (the one on the board when "Next" was pressed, perhaps not
/// finished and so not seen) is never offered again at once, unless it is the only
/// one of the theme. `None` only when no puzzle has the theme.
pub fn next_puzzle<'a>(
    puzzles: &'a [Puzzle],
    rating: f64,
    theme: Option<Theme>,
    seen: &dyn Fn(&Puzzle) -> bool,
    left: Option<&str>,
    seed: u64,
) -> Option<&'a Puzzle> {
    let of_theme: Vec<&Puzzle> = puzzles
        .iter()
        .filter(|p| theme.map_or(true, |t| p.has(t)))
        .collect();
    let not_left = |p: &&Puzzle| Some(p.id.as_str()) != left;
    let fresh: Vec<&Puzzle> = of_theme
        .iter()
        .copied()
        .filter(|p| !seen(p) && not_left(p))
        .collect();
    let again: Vec<&Puzzle> = of_theme.iter().copied().filter(not_left).collect();
    let pool = [fresh, again, of_theme]
        .into_iter()
        .find(|pool| !pool.is_empty())?;
    let mut window = WINDOW;
    loop {
        let near: Vec<&Puzzle> = pool
            .iter()
            .copied()
            .filter(|p| (f64::from(p.rating) - rating).abs() <= window)
            .collect();
        if !near.is_empty() {
            return Some(near[(Rng::new(seed).next_u64() % near.len() as u64) as usize]);
        }
        window *= 2.0;
    }
}

/// What the board remembers of a person's puzzles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub rating: Rating,
    /// Puzzles solved in a row (without a wrong move, hint or shown solution).
    pub streak: u32,
    pub best_streak: u32,
    pub solved: u32,
    pub failed: u32,
    /// Ids of the puzzles tried, oldest first.
    pub seen: Vec<String>,
}

impl Progress {
    /// Counts a finished puzzle: the rating, the streak, the puzzle seen.
    pub fn record(&mut self, puzzle: &Puzzle, solved: bool) {
        self.rating = self.rating.after_puzzle(f64::from(puzzle.rating), solved);
        if solved {
            self.solved += 1;
            self.streak += 1;
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.failed += 1;
            self.streak = 0;
        }
        if !self.seen.contains(&puzzle.id) {
            self.seen.push(puzzle.id.clone());
        }
    }

    /// The next puzzle for this person (`next_puzzle` at their rating).
    pub fn next<'a>(
        &self,
        puzzles: &'a [Puzzle],
        theme: Option<Theme>,
        left: Option<&str>,
        seed: u64,
    ) -> Option<&'a Puzzle> {
        next_puzzle(
            puzzles,
            self.rating.rating,
            theme,
            &|p| self.seen.contains(&p.id),
            left,
            seed,
        )
    }
}

/// Answers `POST /api/puzzle`: counts the finished puzzle (when it is one of the set)
/// in the progress sent, and returns the progress, the rating's change (`change`,
/// whole points, when a puzzle was counted), the next puzzle near its rating
/// (of the theme asked for) and the themes with their counts. Its refusals carry the
/// codes the page words (`refusal.<code>` in page/i18n/): `puzzleProgress` (the
/// progress does not read), `puzzleTheme` (`theme`), `puzzleUnknown` (`id`).
pub fn answer(request: &PuzzleRequest) -> Result<serde_json::Value, Refusal> {
    let set = shipped();
    let mut progress: Progress = match &request.progress {
        Some(v) => serde_json::from_value(v.clone()).map_err(|e| {
            Refusal::bad(format!("bad puzzle progress: {e}")).coded("puzzleProgress", &[])
        })?,
        None => Progress::default(),
    };
    let theme = match request.theme.as_deref() {
        None | Some("") | Some("any") => None,
        Some(name) => Some(Theme::from_name(name).ok_or_else(|| {
            let name = jungle_core::text::quote(name);
            Refusal::bad(format!("no puzzle theme '{name}'"))
                .coded("puzzleTheme", &[("theme", &name)])
        })?),
    };
    let find = |id: &str| {
        set.iter().find(|p| p.id == id).ok_or_else(|| {
            let id = jungle_core::text::quote(id);
            Refusal::bad(format!("no puzzle '{id}'")).coded("puzzleUnknown", &[("id", &id)])
        })
    };
    let asked = request.id.as_deref().map(find).transpose()?;
    // The rating's change as the page shows it (whole points), when a puzzle counts.
    let mut change = None;
    if let Some(finished) = &request.finished {
        let puzzle = find(&finished.id)?;
        let before = progress.rating.rating.round();
        progress.record(puzzle, finished.solved);
        change = Some((progress.rating.rating.round() - before) as i64);
    }
    let next = match asked {
        Some(p) => Some(puzzle_json(p)),
        None => progress
            .next(set, theme, request.left.as_deref(), request.seed)
            .map(puzzle_json),
    };
    Ok(json!({
        "progress": progress,
        "change": change,
        "puzzle": next,
        "themes": themes_json(set),
        "total": set.len(),
    }))
}

/// The themes of a set that some puzzle has, with their counts, as the page reads
/// them (`[{name, count}]`).
pub fn themes_json(set: &[Puzzle]) -> Vec<serde_json::Value> {
    Theme::ALL
        .iter()
        .map(|&t| json!({"name": t.name(), "count": set.iter().filter(|p| p.has(t)).count()}))
        .filter(|v| v["count"].as_u64() != Some(0))
        .collect()
}

/// A puzzle as the page reads it (`jungle serve`'s puzzle requests too).
pub fn puzzle_json(p: &Puzzle) -> serde_json::Value {
    let moves = |ms: &[jungle_core::board::Move]| -> Vec<String> {
        ms.iter().map(|m| m.to_string()).collect()
    };
    json!({
        "id": p.id,
        "fen": p.start.to_fen(),
        "before": moves(&p.before),
        // Read by the browser tests, which play it; the page asks the judge.
        "solution": moves(&p.solution),
        // The person's moves to find.
        "moves": p.solution.len().div_ceil(2),
        "rules": {
            "variant": p.rules.variant.name(),
            "dogSwims": p.rules.moves.dog_swims,
            "trappedLoseAttack": p.rules.moves.trapped_lose_attack,
        },
        "goal": p.goal.name(),
        "themes": p.themes.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "rating": p.rating,
        "solver": p.solver().name(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A den entry in two (one line per rating and theme set).
    fn puzzle(id: &str, rating: u32, themes: &str) -> Puzzle {
        Puzzle::parse(&format!(
            "{id};7/7/3L3/7/7/7/7/7/r6 r 0 1;-;d7d8 a1a2 d8d9;jungle;win;{themes};{rating}"
        ))
        .expect("a puzzle")
    }

    #[test]
    fn the_next_puzzle_is_near_the_rating_of_the_theme_and_not_seen() {
        let set = vec![
            puzzle("a", 800, "den"),
            puzzle("b", 1450, "den"),
            puzzle("c", 1550, "den,trap"),
            puzzle("d", 2400, "trap"),
        ];
        for seed in 0..20 {
            let p = next_puzzle(&set, 1500.0, None, &|_| false, None, seed).expect("one");
            assert!(["b", "c"].contains(&p.id.as_str()), "{}", p.id);
        }
        let trap = next_puzzle(&set, 2300.0, Some(Theme::TrapCapture), &|_| false, None, 1);
        assert_eq!(trap.map(|p| p.id.as_str()), Some("d"));
        // The near ones seen: the window widens to the next nearest.
        let p = next_puzzle(&set, 1500.0, None, &|p| p.id != "a", None, 3).expect("one");
        assert_eq!(p.id, "a");
        // All seen: offered again.
        assert!(next_puzzle(&set, 1500.0, None, &|_| true, None, 3).is_some());
        assert!(next_puzzle(&set, 1500.0, Some(Theme::NoMoves), &|_| false, None, 3).is_none());
    }

    /// "Next" on a puzzle not finished (so not seen) offers another one, never the
    /// same again, whatever the draw; unless it is the only one of its theme.
    #[test]
    fn the_puzzle_left_is_not_offered_again_at_once() {
        let set = vec![
            puzzle("b", 1450, "den"),
            puzzle("c", 1550, "den"),
            puzzle("d", 2400, "trap"),
        ];
        for seed in 0..40 {
            let p = next_puzzle(&set, 1500.0, None, &|_| false, Some("b"), seed).expect("one");
            assert_eq!(p.id, "c", "seed {seed}");
            // All seen: offered again, but not the one left.
            let p = next_puzzle(&set, 1500.0, None, &|_| true, Some("c"), seed).expect("one");
            assert_eq!(p.id, "b", "seed {seed}");
        }
        let only = next_puzzle(
            &set,
            1500.0,
            Some(Theme::TrapCapture),
            &|_| false,
            Some("d"),
            1,
        );
        assert_eq!(only.map(|p| p.id.as_str()), Some("d"));
    }

    #[test]
    fn the_request_counts_a_finished_puzzle_and_offers_the_next() {
        let request = |body: &str| match crate::api::parse("puzzle", body) {
            Ok(crate::api::Request::Puzzle(p)) => answer(&p),
            other => panic!("{other:?}"),
        };
        let first = request("{}").expect("an answer");
        let puzzle = &first["puzzle"];
        let id = puzzle["id"].as_str().expect("a puzzle of the set");
        assert!(first["total"].as_u64() >= Some(300));
        assert_eq!(first["progress"]["rating"]["rating"], 1500.0);
        let body = format!(
            r#"{{"progress":{},"finished":{{"id":"{id}","solved":true}},"seed":2}}"#,
            first["progress"]
        );
        let second = request(&body).expect("an answer");
        assert!(second["progress"]["rating"]["rating"].as_f64() > Some(1500.0));
        assert_eq!(second["progress"]["streak"], 1);
        let rise = second["progress"]["rating"]["rating"]
            .as_f64()
            .expect("a rating")
            .round()
            - 1500.0;
        assert_eq!(second["change"].as_f64(), Some(rise));
        assert!(first["change"].is_null());
        assert_eq!(
            first["puzzle"]["moves"].as_u64(),
            first["puzzle"]["solution"]
                .as_array()
                .map(|s| (s.len() as u64).div_ceil(2))
        );
        assert_ne!(second["puzzle"]["id"].as_str(), Some(id));
        // A puzzle asked for by its id (a page's address): that one, seen or not.
        let again = request(&format!(r#"{{"id":"{id}","seed":2}}"#)).expect("an answer");
        assert_eq!(again["puzzle"]["id"].as_str(), Some(id));
        let den = request(r#"{"theme":"den"}"#).expect("an answer");
        assert!(den["puzzle"]["themes"]
            .as_array()
            .is_some_and(|t| t.contains(&"den".into())));
        // Refused with the code and arguments the page words.
        for (bad, code, expected) in [
            (
                r#"{"theme":"chess"}"#,
                "puzzleTheme",
                vec![("theme", "chess")],
            ),
            (
                r#"{"finished":{"id":"zzz","solved":true}}"#,
                "puzzleUnknown",
                vec![("id", "zzz")],
            ),
            (r#"{"progress":{"rating":1}}"#, "puzzleProgress", vec![]),
            (r#"{"id":"nope"}"#, "puzzleUnknown", vec![("id", "nope")]),
        ] {
            let refusal = request(bad).expect_err(bad);
            assert_eq!(refusal.status, 400, "{bad}");
            let coded = refusal.code.expect(bad);
            assert_eq!(coded.key, code, "{bad}");
            let args: Vec<(&str, &str)> =
                coded.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            assert_eq!(args, expected, "{bad}");
        }
    }

    #[test]
    fn progress_counts_the_streak_and_moves_the_rating() {
        let set = vec![puzzle("a", 1500, "den"), puzzle("b", 1500, "den")];
        let mut progress = Progress::default();
        progress.record(&set[0], true);
        progress.record(&set[1], true);
        assert_eq!((progress.streak, progress.best_streak), (2, 2));
        assert!(progress.rating.rating > 1500.0);
        let before = progress.rating.rating;
        progress.record(&set[0], false);
        assert_eq!(
            (progress.streak, progress.best_streak, progress.failed),
            (0, 2, 1)
        );
        assert!(progress.rating.rating < before);
        assert_eq!(progress.seen, vec!["a".to_string(), "b".to_string()]);
        let json = serde_json::to_string(&progress).expect("serialises");
        assert_eq!(
            serde_json::from_str::<Progress>(&json).expect("reads"),
            progress
        );
        assert!(progress.next(&set, None, None, 1).is_some());
    }
}
