//! The engine protocol where the engines are someone else's: the option declarations
//! of their handshake (`options` has this project's own; `info` reads their reports).

/// The declaration of option `name` (`name X type spin default …`, any case) among
/// the `option` lines of a handshake.
pub fn declaration<'a>(declared: &'a [String], name: &str) -> Option<&'a str> {
    declared
        .iter()
        .find(|o| {
            o.strip_prefix("name ")
                .and_then(|rest| rest.split(" type ").next())
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .map(String::as_str)
}

/// `(min, max)` of a declared spin option.
pub fn spin_range(declared: &[String], name: &str) -> Option<(i64, i64)> {
    let tokens: Vec<&str> = declaration(declared, name)?.split_whitespace().collect();
    let after = |key: &str| {
        tokens
            .iter()
            .position(|t| *t == key)
            .and_then(|i| tokens.get(i + 1))
            .and_then(|v| v.parse::<i64>().ok())
    };
    Some((after("min")?, after("max")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_option_declarations() {
        let declared = vec![
            "name UCI_Elo type spin default 936 min 936 max 1559".to_string(),
            "name Skill Level type spin default 20 min 0 max 20".to_string(),
            "name Ponder type check default false".to_string(),
        ];
        assert_eq!(spin_range(&declared, "uci_elo"), Some((936, 1559)));
        assert_eq!(spin_range(&declared, "Skill Level"), Some((0, 20)));
        assert_eq!(spin_range(&declared, "Ponder"), None);
        assert_eq!(spin_range(&declared, "Hash"), None);
        assert!(declaration(&declared, "PONDER").is_some());
        assert!(declaration(&declared, "Skill").is_none());
    }
}
