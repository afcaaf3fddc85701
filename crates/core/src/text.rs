//! Outside text shown inside an error message.
//!
//! Every error that echoes what it refuses (a protocol token, a position string, an
//! option value, a record tag, a file name) quotes it through [`quote`], so that an
//! error is always one short line: a carriage return, an escape sequence or a line
//! separator in the input cannot split the line, overwrite it on a terminal or clear
//! the screen, and a megabyte of input is not printed back.

/// The longest quoted text, in characters after escaping (without the `...`).
pub const QUOTE_MAX: usize = 40;

/// `text` as an error shows it: control characters and invisible format characters
/// escaped as Rust writes them (`\r`, `\n`, `\t`, `\u{1b}`, `\u{202e}`); when longer
/// than [`QUOTE_MAX`] characters, its start and its end (where a file name is) with
/// `...` between. Cuts fall between characters and between escapes, so the result is
/// valid UTF-8 and no escape is broken. The caller adds the quotes around it.
pub fn quote(text: &str) -> String {
    let pieces: Vec<String> = text.chars().map(escaped).collect();
    let width = |ps: &[String]| ps.iter().map(|p| p.chars().count()).sum::<usize>();
    if width(&pieces) <= QUOTE_MAX {
        return pieces.concat();
    }
    let half = QUOTE_MAX / 2;
    let head = fitting(pieces.iter(), half);
    let tail = fitting(pieces[head..].iter().rev(), QUOTE_MAX - half);
    let end = pieces.len() - tail;
    format!("{}...{}", pieces[..head].concat(), pieces[end..].concat())
}

/// A file name as an error shows it: [`quote`] of its text.
pub fn quote_path(path: &std::path::Path) -> String {
    quote(&path.to_string_lossy())
}

/// How many of `pieces`, taken in order, fit in `room` characters.
fn fitting<'a>(pieces: impl Iterator<Item = &'a String>, room: usize) -> usize {
    let mut used = 0;
    pieces
        .take_while(|p| {
            used += p.chars().count();
            used <= room
        })
        .count()
}

/// One character as shown: itself, or its escape.
fn escaped(c: char) -> String {
    if needs_escape(c) {
        c.escape_default().collect()
    } else {
        c.to_string()
    }
}

/// Characters that move the cursor, end a line, or change how the text after them is
/// shown: the C0 and C1 controls (tab, line feed, carriage return, escape, DEL, NEL),
/// the Unicode line and paragraph separators, the zero-width and direction marks, the
/// bidirectional embeddings, overrides and isolates, and the byte-order mark.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_kept() {
        assert_eq!(quote("g3g4"), "g3g4");
        assert_eq!(quote(""), "");
        assert_eq!(quote("象 獅 虎"), "象 獅 虎");
    }

    #[test]
    fn controls_are_escaped() {
        assert_eq!(quote("jungle\rINJECTED"), "jungle\\rINJECTED");
        assert_eq!(quote("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(quote("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(quote("\u{7f}\u{85}"), "\\u{7f}\\u{85}");
        assert_eq!(quote("x\u{2028}y\u{202e}z"), "x\\u{2028}y\\u{202e}z");
        assert_eq!(quote("\u{feff}a"), "\\u{feff}a");
    }

    #[test]
    fn long_text_keeps_its_start_and_end() {
        let long = format!("{}{}", "é".repeat(100), "ü".repeat(100));
        let half = QUOTE_MAX / 2;
        assert_eq!(
            quote(&long),
            format!("{}...{}", "é".repeat(half), "ü".repeat(QUOTE_MAX - half))
        );
        assert_eq!(quote(&"a".repeat(QUOTE_MAX)), "a".repeat(QUOTE_MAX));
        let path = format!("/{}/tables/ELvR.jtb", "deep/".repeat(30));
        assert!(
            quote(&path).ends_with("/tables/ELvR.jtb"),
            "{}",
            quote(&path)
        );
    }

    #[test]
    fn an_escape_is_never_cut() {
        let half = QUOTE_MAX / 2;
        let text = format!("{}\u{1b}{}", "a".repeat(half - 3), "b".repeat(100));
        assert_eq!(
            quote(&text),
            format!(
                "{}...{}",
                "a".repeat(half - 3),
                "b".repeat(QUOTE_MAX - half)
            )
        );
    }

    #[test]
    fn nothing_quoted_holds_a_control_character() {
        let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        for chunk in all.chars().collect::<Vec<_>>().chunks(7) {
            let text: String = chunk.iter().collect();
            let q = quote(&text);
            assert!(!q.chars().any(needs_escape), "{q:?}");
            assert!(q.chars().count() <= QUOTE_MAX + 3);
        }
    }
}
