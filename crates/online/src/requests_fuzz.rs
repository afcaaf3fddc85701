//! The fuzz target `account_requests`'s exercise (and `cargo test`'s, over seeded
//! inputs): the account and puzzle-rating requests read from any bytes as the server
//! reads them, and the ratings computed from any figures. Checks: nothing panics; a
//! username accepted is accepted again as shown, with the key a log-in looks it up
//! by; a puzzle attempt with any field but `id` and `solved` (a rating) is refused;
//! an attempt is for a shipped puzzle or refused; a rating is always finite and
//! within lichess's bounds.

use crate::accounts;
use crate::puzzles::{theme, AttemptRequest, NextQuery};
use crate::sessions::{Credentials, DeleteReq, PasswordReq};
use axum::extract::Query;
use jungle_glicko2::{Rating, MAX_RATING, MAX_RD, MIN_RATING, MIN_RD};

/// One input: its first byte chooses the request, the rest is its body (or query).
pub fn exercise(data: &[u8]) {
    let Some((&kind, body)) = data.split_first() else {
        return;
    };
    match kind % 5 {
        0 => credentials(body),
        1 => {
            let _ = serde_json::from_slice::<PasswordReq>(body);
            let _ = serde_json::from_slice::<DeleteReq>(body);
        }
        2 => attempt(body),
        3 => next_query(body),
        _ => ratings(body),
    }
}

fn credentials(body: &[u8]) {
    let Ok(c) = serde_json::from_slice::<Credentials>(body) else {
        return;
    };
    let key = accounts::username_key(&c.username);
    if let Ok(name) = accounts::username(&c.username) {
        assert_eq!(name.key, key, "{:?}", c.username);
        let again = accounts::username(&name.shown).expect("a name accepted is accepted again");
        assert_eq!(
            (again.shown, again.key),
            (name.shown.clone(), name.key.clone())
        );
        let _ = accounts::password_ok(&c.password, &name);
    }
}

fn attempt(body: &[u8]) {
    let read = serde_json::from_slice::<AttemptRequest>(body);
    if let Ok(serde_json::Value::Object(fields)) = serde_json::from_slice(body) {
        if fields.keys().any(|k| k != "id" && k != "solved") {
            assert!(read.is_err(), "an attempt with other fields read");
        }
    }
    if let Ok(a) = read {
        let shipped = jungle_app::puzzles::shipped().iter().any(|p| p.id == a.id);
        assert_eq!(crate::puzzles::find(&a.id).is_ok(), shipped);
    }
}

fn next_query(body: &[u8]) {
    let text = String::from_utf8_lossy(body);
    let Ok(uri) = format!("/api/puzzles/next?{text}").parse::<axum::http::Uri>() else {
        return;
    };
    if let Ok(Query(q)) = Query::<NextQuery>::try_from_uri(&uri) {
        let _ = theme(q.theme.as_deref());
    }
}

/// Two ratings from the bytes (any figures, as a damaged row might hold) and a
/// result: both updates finite and within the bounds.
fn ratings(body: &[u8]) {
    let mut figures = body
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            f64::from_le_bytes(b)
        })
        .chain(std::iter::repeat(0.0));
    let mut rating = || Rating {
        rating: figures.next().unwrap_or_default(),
        rd: figures.next().unwrap_or_default(),
        vol: figures.next().unwrap_or_default(),
    };
    let (player, puzzle) = (rating(), rating());
    let solved = body.first().is_some_and(|b| b & 1 == 1);
    let idle = body.len() as i64 * 86_400_000;
    let (p, z) = jungle_glicko2::game(player, idle, puzzle, 0, f64::from(u8::from(solved)));
    for r in [p, z] {
        assert!((MIN_RATING..=MAX_RATING).contains(&r.rating), "{r:?}");
        assert!((MIN_RD..=MAX_RD).contains(&r.rd), "{r:?}");
        assert!(r.vol.is_finite() && r.vol > 0.0, "{r:?}");
    }
}

#[cfg(test)]
mod tests {
    use jungle_core::rng::Rng;

    /// The seeds of the fuzz target and 2000 seeded inputs built from them.
    #[test]
    fn the_requests_survive_any_bytes() {
        let seeds: Vec<Vec<u8>> = [
            &b"\x00{\"username\":\"Ann\",\"password\":\"correct horse battery\"}"[..],
            b"\x00{\"username\":\"\xef\xbc\xa1nn\",\"password\":\"annannann\"}",
            b"\x01{\"old\":\"a\",\"new\":\"b\"}",
            b"\x02{\"id\":\"0fh3axw\",\"solved\":true}",
            b"\x02{\"id\":\"0fh3axw\",\"solved\":true,\"rating\":3000}",
            b"\x03theme=den&id=0fh3axw",
            b"\x03rating=3000",
            b"\x04\xff\xff\xff\xff\xff\xff\xf7\x7f",
        ]
        .iter()
        .map(|s| s.to_vec())
        .collect();
        for s in &seeds {
            super::exercise(s);
        }
        let mut rng = Rng::new(62);
        for _ in 0..2000 {
            let mut input = seeds[(rng.next_u64() % seeds.len() as u64) as usize].clone();
            for _ in 0..1 + rng.next_u64() % 4 {
                let at = (rng.next_u64() % input.len() as u64) as usize;
                match rng.next_u64() % 3 {
                    0 => input[at] = rng.next_u64() as u8,
                    1 => input.insert(at, rng.next_u64() as u8),
                    _ if input.len() > 1 => {
                        input.remove(at);
                    }
                    _ => {}
                }
            }
            super::exercise(&input);
        }
    }
}
