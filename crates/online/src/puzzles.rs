//! Puzzles rated by the people who solve them (docs/puzzles.md, "Ratings from
//! people"): a logged-in player's attempts (`POST /api/puzzles/attempt`), each first
//! attempt at a puzzle rated for the player and the puzzle by Glicko-2 (the store does
//! it in one transaction), and the next puzzle near the player's puzzle rating (`GET
//! /api/puzzles/next`). The set is the shipped one, built into the program
//! (`jungle_app::puzzles::shipped`); the server keeps only the ratings it learns.
//! A client sends what it did (solved or not), never a rating.

use crate::now_ms;
use crate::server::{Answer, ApiError, App};
use crate::sessions::{rating_body, required, RatingBody};
use crate::store::{NewAttempt, PuzzleRatingRow, PUZZLE_CATEGORY};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use jungle_core::puzzle::{Puzzle, Theme};
use jungle_glicko2::{Rating, DEFAULT_VOLATILITY};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The RD a shipped puzzle's rating starts with on the server: the shipped rating is
/// an engine model's estimate (docs/puzzles.md), so the first attempts may move it,
/// but less than a new player's (RD 500).
pub const PUZZLE_START_RD: f64 = 200.0;

/// `POST /api/puzzles/attempt`'s body: the puzzle and whether it was solved. Any
/// other field (a rating, a deviation) is refused.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    pub id: String,
    pub solved: bool,
}

/// `GET /api/puzzles/next`'s query: a theme (`any` or none: every puzzle), or one
/// puzzle by its id (a page opened at its address).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    pub theme: Option<String>,
    pub id: Option<String>,
    /// The puzzle on the board being left ("Next"): not offered again at once.
    pub left: Option<String>,
}

/// A puzzle's rating on the server.
#[derive(Serialize)]
struct PuzzleBody {
    id: String,
    rating: f64,
    rd: f64,
    attempts: i64,
}

#[derive(Serialize)]
struct AttemptBody {
    rated: bool,
    /// Kept in the database (an account's first `ATTEMPTS_KEPT` at a puzzle).
    recorded: bool,
    solved: bool,
    /// The player's puzzle rating after the attempt.
    player: RatingBody,
    /// Its change in whole points, as the page shows it (0 when casual).
    change: i64,
    puzzle: PuzzleBody,
}

#[derive(Serialize)]
struct NextBody {
    /// The puzzle as the board's `puzzle` request gives it, its rating the server's.
    puzzle: serde_json::Value,
    player: RatingBody,
    themes: Vec<serde_json::Value>,
    total: usize,
}

fn no_puzzle(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_puzzle",
        format!("no puzzle '{}'", jungle_core::text::quote(id)),
    )
}

/// The shipped puzzle `id`, or 404 `no_puzzle`.
pub(crate) fn find(id: &str) -> Result<&'static Puzzle, ApiError> {
    jungle_app::puzzles::shipped()
        .iter()
        .find(|p| p.id == id)
        .ok_or_else(|| no_puzzle(id))
}

/// The theme asked for: `None` for every puzzle; 400 `puzzle_theme` for a name that
/// is not one.
pub fn theme(name: Option<&str>) -> Result<Option<Theme>, ApiError> {
    match name {
        None | Some("") | Some("any") => Ok(None),
        Some(name) => Theme::from_name(name).map(Some).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "puzzle_theme",
                format!("no puzzle theme '{}'", jungle_core::text::quote(name)),
            )
        }),
    }
}

/// Where a puzzle's rating starts on the server: its shipped rating, `PUZZLE_START_RD`.
pub fn start_rating(p: &Puzzle) -> Rating {
    Rating {
        rating: f64::from(p.rating),
        rd: PUZZLE_START_RD,
        vol: DEFAULT_VOLATILITY,
    }
}

fn puzzle_body(p: &PuzzleRatingRow) -> PuzzleBody {
    PuzzleBody {
        id: p.puzzle_id.clone(),
        rating: p.rating.rating,
        rd: p.rating.rd,
        attempts: p.attempts,
    }
}

/// `POST /api/puzzles/attempt {id, solved}`: the logged-in player's attempt (401
/// `login_required` without a session; the origin is checked as for every request
/// with the cookie). Rated when it is the account's first at the puzzle, else casual.
pub async fn attempt(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<AttemptRequest>, JsonRejection>,
) -> Answer {
    let s = required(&app, &headers).await?;
    let Json(req) = body?;
    let puzzle = find(&req.id)?;
    let done = app
        .hub
        .store
        .puzzle_attempt(&NewAttempt {
            user_id: &s.user.id,
            puzzle_id: &puzzle.id,
            start: start_rating(puzzle),
            solved: req.solved,
            at: now_ms(),
        })
        .await?;
    let change = (done.player.rating.rating.round() - done.player_before.rating.round()) as i64;
    Ok(Json(AttemptBody {
        rated: done.rated,
        recorded: done.recorded,
        solved: req.solved,
        change,
        player: rating_body(
            PUZZLE_CATEGORY.into(),
            done.player.rating,
            done.player.games,
        ),
        puzzle: puzzle_body(&done.puzzle),
    })
    .into_response())
}

/// `GET /api/puzzles/next?theme=NAME` (or `?id=ID`): the next puzzle for the
/// logged-in player, near their puzzle rating by the puzzles' ratings on the server
/// and not one they attempted (all attempted: again, casual), as the board's own
/// choice does (`jungle_app::puzzles::next_puzzle`).
pub async fn next(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    query: Result<Query<NextQuery>, QueryRejection>,
) -> Answer {
    let s = required(&app, &headers).await?;
    let Query(q) =
        query.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "malformed", e.body_text()))?;
    let theme = theme(q.theme.as_deref())?;
    let store = &app.hub.store;
    let learnt: HashMap<String, Rating> = store
        .puzzle_ratings()
        .await?
        .into_iter()
        .map(|r| (r.puzzle_id, r.rating))
        .collect();
    let set = rated_set(&learnt);
    let now = now_ms();
    let player = match store.rating(&s.user.id, PUZZLE_CATEGORY).await? {
        Some(r) => (r.rating.after_idle_ms(now - r.updated_at), r.games),
        None => (Rating::default(), 0),
    };
    let chosen = match &q.id {
        Some(id) => set
            .iter()
            .find(|p| &p.id == id)
            .ok_or_else(|| no_puzzle(id))?,
        None => {
            let attempted: HashSet<String> = store
                .puzzles_attempted(&s.user.id)
                .await?
                .into_iter()
                .collect();
            let seed = seed()?;
            jungle_app::puzzles::next_puzzle(
                &set,
                player.0.rating,
                theme,
                &|p| attempted.contains(&p.id),
                q.left.as_deref(),
                seed,
            )
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    "no_puzzle_of_theme",
                    "no puzzle has this theme",
                )
            })?
        }
    };
    Ok(Json(NextBody {
        puzzle: jungle_app::puzzles::puzzle_json(chosen),
        player: rating_body(PUZZLE_CATEGORY.into(), player.0, player.1),
        themes: jungle_app::puzzles::themes_json(&set),
        total: set.len(),
    })
    .into_response())
}

/// The shipped set with the ratings the server has learnt (whole points, within the
/// puzzle format's range).
pub fn rated_set(learnt: &HashMap<String, Rating>) -> Vec<Puzzle> {
    jungle_app::puzzles::shipped()
        .iter()
        .map(|p| match learnt.get(&p.id) {
            Some(r) => Puzzle {
                rating: whole_rating(r.rating),
                ..p.clone()
            },
            None => p.clone(),
        })
        .collect()
}

/// A rating as a puzzle line carries it: whole points within
/// `jungle_core::puzzle::format::RATING_RANGE`.
pub fn whole_rating(rating: f64) -> u32 {
    let (lo, hi) = jungle_core::puzzle::format::RATING_RANGE;
    if rating.is_nan() {
        return lo;
    }
    rating.round().clamp(f64::from(lo), f64::from(hi)) as u32
}

fn seed() -> Result<u64, ApiError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(u64::from_le_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempt_carries_the_puzzle_and_the_result_only() {
        let ok: AttemptRequest =
            serde_json::from_str(r#"{"id":"0fh3axw","solved":true}"#).expect("reads");
        assert_eq!(
            ok,
            AttemptRequest {
                id: "0fh3axw".into(),
                solved: true
            }
        );
        for bad in [
            r#"{"id":"0fh3axw","solved":true,"rating":2900}"#,
            r#"{"id":"0fh3axw","solved":true,"player":{"rating":2900}}"#,
            r#"{"id":"0fh3axw","solved":"yes"}"#,
            r#"{"id":"0fh3axw"}"#,
            r#"[]"#,
        ] {
            assert!(
                serde_json::from_str::<AttemptRequest>(bad).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn themes_and_ratings_are_read_strictly() {
        assert_eq!(theme(None).ok(), Some(None));
        assert_eq!(theme(Some("any")).ok(), Some(None));
        assert_eq!(theme(Some("den")).ok(), Some(Some(Theme::Den)));
        assert!(theme(Some("chess")).is_err());
        assert_eq!(whole_rating(1234.5), 1235);
        assert_eq!(
            whole_rating(f64::NAN),
            jungle_core::puzzle::format::RATING_RANGE.0
        );
        assert_eq!(
            whole_rating(1e9),
            jungle_core::puzzle::format::RATING_RANGE.1
        );
        assert_eq!(
            whole_rating(-5.0),
            jungle_core::puzzle::format::RATING_RANGE.0
        );
    }

    #[test]
    fn the_rated_set_carries_the_learnt_ratings() {
        let shipped = jungle_app::puzzles::shipped();
        let first = &shipped[0];
        let learnt = HashMap::from([(
            first.id.clone(),
            Rating {
                rating: 1777.4,
                rd: 80.0,
                vol: 0.09,
            },
        )]);
        let set = rated_set(&learnt);
        assert_eq!(set.len(), shipped.len());
        assert_eq!(set[0].rating, 1777);
        assert_eq!(set[1..], shipped[1..]);
        assert_eq!(start_rating(first).rating, f64::from(first.rating));
    }
}
