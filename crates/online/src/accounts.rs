//! Accounts with no network and no database: usernames (Unicode NFKC, then the
//! characters allowed, the length, reserved names; the lowercase form is the unique
//! key), passwords (the policy, Argon2id hashes), and the rating categories (a rule
//! set and a speed). docs/accounts.md states every rule.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use jungle_core::game::{Rules, Variant};
use jungle_core::time_control::{Speed, TimeControl};
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;

pub const USERNAME_MIN: usize = 2;
pub const USERNAME_MAX: usize = 20;
pub const PASSWORD_MIN: usize = 8;
/// Bytes: Argon2 takes any length, but a request should not make it hash megabytes.
pub const PASSWORD_MAX: usize = 256;
/// Argon2id's cost, OWASP's first choice (Password Storage Cheat Sheet): 19 MiB of
/// memory, 2 passes, 1 lane.
pub const ARGON2_M_KIB: u32 = 19_456;
pub const ARGON2_T: u32 = 2;
pub const ARGON2_P: u32 = 1;

/// Names no one may take (compared with the normalised key): the site's own words,
/// and names that would pass for the site's staff.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "api",
    "bot",
    "deleted",
    "ghost",
    "guest",
    "help",
    "jungle",
    "lichess",
    "mod",
    "moderator",
    "null",
    "nobody",
    "official",
    "owner",
    "root",
    "server",
    "staff",
    "support",
    "system",
    "undefined",
    "you",
];

/// Passwords refused as too common (beside those shorter than `PASSWORD_MIN`).
const COMMON_PASSWORDS: &[&str] = &[
    "password",
    "12345678",
    "123456789",
    "1234567890",
    "qwertyui",
    "qwertyuiop",
    "11111111",
    "00000000",
    "abcdefgh",
    "iloveyou",
    "password1",
    "passw0rd",
    "sunshine",
    "princess",
    "football",
    "baseball",
    "welcome1",
    "jungle123",
    "dragon12",
    "letmein1",
    "88888888",
    "abc12345",
    "aa123456",
    "qwerty123",
    "1q2w3e4r",
    "12341234",
];

/// Why a username or a password is refused: a code and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub code: &'static str,
    pub reason: String,
}

fn invalid(code: &'static str, reason: impl Into<String>) -> Invalid {
    Invalid {
        code,
        reason: reason.into(),
    }
}

/// A username as shown (NFKC of what was typed, its case kept) and its key (the same
/// in lowercase: unique, so that `Ann` and `ann` are one name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Username {
    pub shown: String,
    pub key: String,
}

/// Checks a username: NFKC first (fullwidth `ａｎｎ` is `ann`), then 2–20 of
/// `A-Z a-z 0-9 _ -`, not starting or ending with `_` or `-`, not reserved.
pub fn username(typed: &str) -> Result<Username, Invalid> {
    let length = || {
        invalid(
            "bad_username",
            format!("a username has {USERNAME_MIN} to {USERNAME_MAX} characters"),
        )
    };
    // Normalising a long text costs little, but there is no need to.
    if typed.len() > 4 * USERNAME_MAX {
        return Err(length());
    }
    let shown: String = typed.nfkc().collect();
    let n = shown.chars().count();
    if !(USERNAME_MIN..=USERNAME_MAX).contains(&n) {
        return Err(length());
    }
    if !shown
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(invalid(
            "bad_username",
            "a username has only letters a-z, digits, _ and -",
        ));
    }
    let edge = |c: Option<char>| matches!(c, Some('_' | '-'));
    if edge(shown.chars().next()) || edge(shown.chars().last()) {
        return Err(invalid(
            "bad_username",
            "a username does not start or end with _ or -",
        ));
    }
    let key = shown.to_ascii_lowercase();
    if RESERVED.contains(&key.as_str()) {
        return Err(invalid(
            "reserved_username",
            format!("'{shown}' is reserved"),
        ));
    }
    Ok(Username { shown, key })
}

/// The key a log-in looks a name up by (no error: a name that cannot exist is
/// simply not found).
pub fn username_key(typed: &str) -> String {
    let shown: String = typed.chars().take(4 * USERNAME_MAX).nfkc().collect();
    shown.to_lowercase()
}

/// Checks a new password: at least 8 characters, at most 256 bytes, not the
/// username, not one character repeated, not a common password.
pub fn password_ok(password: &str, name: &Username) -> Result<(), Invalid> {
    if password.len() > PASSWORD_MAX {
        return Err(invalid(
            "password_too_long",
            format!("a password has at most {PASSWORD_MAX} bytes"),
        ));
    }
    let weak = |why: &str| invalid("weak_password", why.to_string());
    if password.chars().count() < PASSWORD_MIN {
        return Err(weak("a password has at least 8 characters"));
    }
    let lower = password.to_lowercase();
    if lower.contains(&name.key) {
        return Err(weak("a password does not contain the username"));
    }
    let mut chars = password.chars();
    let first = chars.next();
    if chars.all(|c| Some(c) == first) || COMMON_PASSWORDS.contains(&lower.as_str()) {
        return Err(weak("this password is too easy to guess"));
    }
    Ok(())
}

fn hasher() -> Result<Argon2<'static>, String> {
    let params = Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None)
        .map_err(|e| format!("argon2 parameters: {e}"))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// The password's Argon2id hash in the PHC string format (the salt and parameters
/// inside). Slow on purpose (tens of milliseconds): call it off the async threads.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no randomness: {e}"))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| format!("salt: {e}"))?;
    hasher()?
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("argon2: {e}"))
}

/// Whether `password` is the one `hash` was made of (constant time in the password;
/// the parameters are the hash's own). `None` (no account, or a deleted one) checks
/// against a hash of nothing, so that an unknown name takes the time a known one does.
pub fn verify_password(password: &str, hash: Option<&str>) -> bool {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash_password("no account has this").unwrap_or_default());
    let (hash, real) = match hash {
        Some(h) if !h.is_empty() => (h, true),
        _ => (dummy.as_str(), false),
    };
    if password.len() > PASSWORD_MAX {
        return false;
    }
    let Ok(parsed) = PasswordHash::new(hash) else {
        return false;
    };
    let ok = Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .is_ok();
    ok && real
}

/// A rating category: a named rule set and a speed. Its key is `RULES.SPEED`
/// (`jungle.blitz`, `jungle-cn.correspondence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Category {
    pub variant: Variant,
    pub speed: Speed,
}

impl Category {
    /// The category of a game: `None` for rules that are not exactly a named rule
    /// set's (variants with settings of their own are played casual only).
    pub fn of(rules: &Rules, tc: TimeControl) -> Option<Category> {
        if *rules != rules.variant.rules() {
            return None;
        }
        Some(Category {
            variant: rules.variant,
            speed: tc.speed()?,
        })
    }

    /// A stored game's category, from its rules and time control texts.
    pub fn of_texts(rules: &str, tc: &str) -> Option<Category> {
        let rules: Rules = rules.parse().ok()?;
        let tc = crate::clock::stored_tc(tc).ok()?;
        Category::of(&rules, tc)
    }

    pub fn key(&self) -> String {
        format!("{}.{}", self.variant.name(), self.speed.name())
    }

    pub fn parse(key: &str) -> Option<Category> {
        let (v, s) = key.rsplit_once('.')?;
        Some(Category {
            variant: Variant::from_name(v).filter(|x| x.name() == v)?,
            speed: Speed::from_name(s)?,
        })
    }

    /// Every category, rule set by rule set.
    pub fn all() -> Vec<Category> {
        [Variant::Jungle, Variant::JungleCn]
            .into_iter()
            .flat_map(|variant| Speed::ALL.map(|speed| Category { variant, speed }))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<Username, Invalid>) -> &'static str {
        match r {
            Ok(_) => "ok",
            Err(e) => e.code,
        }
    }

    #[test]
    fn usernames() {
        let ann = username("Ann_Lee-2").expect("valid");
        assert_eq!(ann.shown, "Ann_Lee-2");
        assert_eq!(ann.key, "ann_lee-2");
        // NFKC: fullwidth letters are the plain ones, so the same key.
        let wide = username("ＡＮＮ").expect("valid");
        assert_eq!((wide.shown.as_str(), wide.key.as_str()), ("ANN", "ann"));
        assert_eq!(code(username("ab")), "ok");
        assert_eq!(code(username(&"x".repeat(20))), "ok");
        for bad in [
            "a",
            "",
            &"x".repeat(21),
            &"x".repeat(1000),
            "ann lee",
            "ann.lee",
            "élodie",
            "имя",
            "_ann",
            "ann-",
            "an\u{0}n",
        ] {
            assert_eq!(code(username(bad)), "bad_username", "{bad:?}");
        }
        for reserved in [
            "admin",
            "Admin",
            "ＡＤＭＩＮ",
            "jungle",
            "lichess",
            "BOT",
            "system",
        ] {
            assert_eq!(code(username(reserved)), "reserved_username", "{reserved}");
        }
        assert_eq!(username_key("ＡnN"), "ann");
    }

    #[test]
    fn passwords() {
        let ann = username("ann").expect("valid");
        assert!(password_ok("correct horse battery", &ann).is_ok());
        let code = |p: &str| password_ok(p, &ann).err().map(|e| e.code);
        assert_eq!(code("short"), Some("weak_password"));
        assert_eq!(code("PASSWORD"), Some("weak_password"));
        assert_eq!(code("zzzzzzzzzz"), Some("weak_password"));
        assert_eq!(code("my-ANN-pass"), Some("weak_password"));
        assert_eq!(code(&"ab".repeat(128)), None);
        assert_eq!(code(&"ab".repeat(129)), Some("password_too_long"));
    }

    #[test]
    fn hashes_are_argon2id_with_the_stated_cost() {
        let h = hash_password("correct horse").expect("hash");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", Some(&h)));
        assert!(!verify_password("correct horsf", Some(&h)));
        assert!(!verify_password("correct horse", None));
        assert!(!verify_password("", Some("")));
        assert!(!verify_password("x", Some("not a hash")));
        // Two hashes of one password differ (their salts).
        assert_ne!(h, hash_password("correct horse").expect("hash"));
    }

    #[test]
    fn categories() {
        let tc = |t: &str| TimeControl::parse(t).expect("tc");
        let cat =
            |r: &str, t: &str| Category::of(&r.parse().expect("rules"), tc(t)).map(|c| c.key());
        assert_eq!(cat("jungle", "1m+0s").as_deref(), Some("jungle.bullet"));
        assert_eq!(cat("jungle", "2m+1s").as_deref(), Some("jungle.bullet"));
        assert_eq!(cat("jungle", "3m+0s").as_deref(), Some("jungle.blitz"));
        assert_eq!(
            cat("jungle-cn", "5m+3s").as_deref(),
            Some("jungle-cn.blitz")
        );
        assert_eq!(cat("jungle", "10m+0s").as_deref(), Some("jungle.rapid"));
        assert_eq!(cat("jungle", "15m+10s").as_deref(), Some("jungle.rapid"));
        assert_eq!(
            cat("jungle", "20m+15s").as_deref(),
            Some("jungle.classical")
        );
        assert_eq!(cat("jungle", "30m+0s").as_deref(), Some("jungle.classical"));
        assert_eq!(
            cat("jungle-cn", "3d").as_deref(),
            Some("jungle-cn.correspondence")
        );
        assert_eq!(
            cat(
                "jungle (dog swims, no-capture draw 100 plies, repetition draw at 3 occurrences)",
                "5m+0s"
            ),
            None
        );
        assert_eq!(Category::all().len(), 10);
        for c in Category::all() {
            assert_eq!(Category::parse(&c.key()), Some(c));
        }
        assert_eq!(Category::parse("JUNGLE.blitz"), None);
        assert_eq!(Category::parse("jungle.fast"), None);
        assert_eq!(
            Category::of_texts("jungle", "10+5")
                .map(|c| c.key())
                .as_deref(),
            Some("jungle.rapid")
        );
    }
}
