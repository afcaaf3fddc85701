//! The labelled perft suites (`tests/perft_suite*.txt`): one position per line with the
//! leaf counts expected at a few depths, `<label> ; <position> ; D1 <n> ; D2 <n> …`.
//! Lines starting with `#` are comments; blank lines are ignored.

/// One position of a suite and its expected counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line number in the suite text.
    pub line: usize,
    pub label: String,
    pub fen: String,
    /// `(depth, leaves)` in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a suite; the error names the line and the field that is wrong.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, String> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        if fields.len() < 3 {
            return Err(format!(
                "line {}: expected <label> ; <position> ; D<depth> <leaves> …",
                i + 1
            ));
        }
        let counts = fields[2..]
            .iter()
            .map(|f| parse_count(f).ok_or_else(|| format!("line {}: bad count field {f:?}", i + 1)))
            .collect::<Result<_, _>>()?;
        entries.push(SuiteEntry {
            line: i + 1,
            label: fields[0].to_string(),
            fen: fields[1].to_string(),
            counts,
        });
    }
    Ok(entries)
}

/// `D<depth> <leaves>`.
fn parse_count(field: &str) -> Option<(u32, u64)> {
    let (depth, leaves) = field.strip_prefix('D')?.split_once(' ')?;
    Some((depth.parse().ok()?, leaves.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_and_skips_comments() {
        let text = "# comment\n\nstart ; l5t/7/7/7/7/7/7/7/T5L r ; D1 4 ; D2 16\n";
        let entries = parse_suite(text).unwrap();
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].line, 3);
        assert_eq!(entries[0].label, "start");
        assert_eq!(entries[0].counts, vec![(1, 4), (2, 16)]);
    }

    #[test]
    fn names_the_bad_line() {
        assert_eq!(
            parse_suite("a ; b").unwrap_err(),
            "line 1: expected <label> ; <position> ; D<depth> <leaves> …"
        );
        let err = parse_suite("\na ; b ; D1 x").unwrap_err();
        assert_eq!(err, "line 2: bad count field \"D1 x\"");
        assert!(parse_suite("a ; b ; 1 4").is_err());
    }
}
