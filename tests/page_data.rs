//! The board page's data (page/i18n/*.js, page/lessons.js), checked without a
//! browser: every catalogue has every key of the English one, and every key the page
//! names (`t("…")` in the page's scripts, `data-i18n…="…"` in index.html and
//! puzzles.js, the lessons' words, the puzzle themes' names, the refusals the back end
//! codes in crates/app/src) is in it; every lesson's task starts from a valid, undecided position with Red to
//! move, and every move it accepts is legal under the rules core and reaches the
//! task's goal. tests/gui_browser.rs and tests/web_site.rs then play a lesson in the
//! browser.

use jungle_core::board::geometry::WATER;
use jungle_core::board::movegen::MoveError;
use jungle_core::board::{Color, Position};
use jungle_core::game::{Game, GameResult, Rules, Variant};
use jungle_core::puzzle::Theme;
use std::collections::BTreeMap;
use std::path::Path;

const LANGS: [&str; 4] = ["en", "de", "zh", "zh-Hant"];

/// The page's modules (every file of the page the binary serves), joined.
fn script() -> String {
    jungle_app::page::FILES
        .iter()
        .filter(|f| f.path.ends_with(".js"))
        .map(|f| f.body)
        .collect()
}

fn page(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("page")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The JSON a data module exports: everything after its `export default`, without the
/// closing semicolon.
fn assigned_json(name: &str) -> serde_json::Value {
    let text = page(name);
    let start = text
        .find("export default ")
        .unwrap_or_else(|| panic!("{name}: no `export default`"));
    let json = text[start + "export default ".len()..]
        .trim()
        .trim_end_matches(';');
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{name}: not JSON after '=': {e}"))
}

fn catalogue(lang: &str) -> BTreeMap<String, String> {
    let value = assigned_json(&format!("i18n/{lang}.js"));
    serde_json::from_value(value)
        .unwrap_or_else(|e| panic!("i18n/{lang}.js: not a map of strings: {e}"))
}

/// The `{name}` placeholders of a text.
fn placeholders(text: &str) -> Vec<&str> {
    let mut names: Vec<&str> = text
        .split('{')
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(name, _)| name))
        .collect();
    names.sort_unstable();
    names
}

/// The quoted arguments of `call` in `text` (`t("status.toMove"` → status.toMove),
/// where `call` starts a word (not `post("`).
fn quoted_after<'a>(text: &'a str, call: &str) -> Vec<&'a str> {
    text.match_indices(call)
        .filter(|(i, _)| {
            !text[..*i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '-')
        })
        .filter_map(|(i, _)| {
            let rest = &text[i + call.len()..];
            rest.split_once('"').map(|(key, _)| key)
        })
        .collect()
}

/// The refusal codes the back end sends (`.coded("key", …)` in crates/app/src and
/// below, the key perhaps on the next line), each with the file that names it.
fn coded_refusals() -> Vec<(String, String)> {
    fn walk(dir: &Path, found: &mut Vec<(String, String)>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("reads");
                for (i, call) in text.match_indices(".coded(") {
                    let rest = text[i + call.len()..].trim_start();
                    let key = rest
                        .strip_prefix('"')
                        .and_then(|r| r.split_once('"'))
                        .map(|(key, _)| key)
                        .unwrap_or_else(|| {
                            panic!("{}: a code that is not a literal", path.display())
                        });
                    found.push((key.to_string(), path.display().to_string()));
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/app/src"),
        &mut found,
    );
    found
}

#[derive(serde::Deserialize)]
struct Lesson {
    id: String,
    tasks: Vec<Task>,
}

#[derive(serde::Deserialize)]
struct Task {
    fen: String,
    accept: Vec<String>,
    goal: String,
    /// The rule set (default jungle).
    #[serde(default)]
    variant: Option<String>,
    /// Moves played from `fen` before the task.
    #[serde(default)]
    before: Vec<String>,
    /// Moves the rules forbid when the task is set.
    #[serde(default)]
    refused: Vec<String>,
}

fn lessons() -> Vec<Lesson> {
    serde_json::from_value(assigned_json("lessons.js")).expect("lessons.js: lessons")
}

#[test]
fn every_catalogue_has_every_key_with_the_same_placeholders() {
    let en = catalogue("en");
    assert!(
        en.len() > 100,
        "the English catalogue has {} keys",
        en.len()
    );
    for lang in LANGS {
        let cat = catalogue(lang);
        let missing: Vec<&String> = en.keys().filter(|k| !cat.contains_key(*k)).collect();
        let extra: Vec<&String> = cat.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "i18n/{lang}.js: missing {missing:?}, not in en.js {extra:?}"
        );
        for (key, text) in &cat {
            assert!(!text.trim().is_empty(), "i18n/{lang}.js: {key} is empty");
            assert_eq!(
                placeholders(text),
                placeholders(&en[key]),
                "i18n/{lang}.js: {key} names other placeholders than en.js"
            );
        }
    }
}

#[test]
fn every_key_the_page_names_is_in_the_catalogue() {
    let en = catalogue("en");
    let app = script();
    let html = page("index.html");
    let puzzles = page("puzzles.js");
    let mut named: Vec<String> = Vec::new();
    named.extend(quoted_after(&app, "t(\"").into_iter().map(str::to_string));
    // The Puzzles mode's words (its box's static ones are data-i18n, below).
    let puzzle_words = quoted_after(&puzzles, "t(\"").len();
    assert!(puzzle_words > 20, "puzzles.js names {puzzle_words} keys");
    for attr in [
        "data-i18n=\"",
        "data-i18n-title=\"",
        "data-i18n-placeholder=\"",
        "data-i18n-aria-label=\"",
    ] {
        for text in [&html, &puzzles] {
            named.extend(quoted_after(text, attr).into_iter().map(str::to_string));
        }
    }
    // Keys made from parts in puzzles.js: the themes (every one the back end knows,
    // not only those of the shipped set) and the difficulties.
    for theme in Theme::ALL {
        named.push(format!("puzzle.theme.{}", theme.name()));
    }
    for difficulty in ["easy", "medium", "hard", "veryHard"] {
        assert!(
            puzzles.contains(&format!("\"{difficulty}\"")),
            "puzzles.js has no difficulty {difficulty}"
        );
        named.push(format!("puzzle.difficulty.{difficulty}"));
    }
    // The refusals the back end codes, worded by the page (words.js's refusalText).
    let refusals = coded_refusals();
    for code in ["puzzleProgress", "puzzleTheme", "puzzleUnknown", "illegal"] {
        assert!(
            refusals.iter().any(|(key, _)| key == code),
            "no refusal coded {code} in crates/app/src"
        );
    }
    for (code, file) in &refusals {
        let key = format!("refusal.{code}");
        assert!(
            en.contains_key(&key),
            "{file} codes a refusal {code}, but en.js has no {key}"
        );
    }
    // Keys made from parts in the scripts: levels, animals, marks, reasons, lessons.
    for n in 1..=8 {
        named.push(format!("level.{n}"));
    }
    for animal in [
        "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant",
    ] {
        named.push(format!("animal.{animal}"));
        named.push(format!("char.{animal}"));
    }
    for mark in ["inaccuracy", "mistake", "blunder"] {
        named.push(format!("mark.{mark}"));
    }
    for kind in ["inaccuracies", "mistakes", "blunders"] {
        named.push(format!("review.{kind}.one"));
        named.push(format!("review.{kind}.many"));
    }
    for lesson in lessons() {
        named.push(format!("lesson.{}.title", lesson.id));
        for n in 1..=lesson.tasks.len() {
            named.push(format!("lesson.{}.{n}.task", lesson.id));
            named.push(format!("lesson.{}.{n}.hint", lesson.id));
        }
    }
    assert!(named.len() > 150, "only {} keys found", named.len());
    let missing: Vec<&String> = named
        .iter()
        // A key built from parts shows here as its prefix ("lesson.").
        .filter(|k| !k.ends_with('.') && !en.contains_key(*k))
        .collect();
    assert!(missing.is_empty(), "keys not in en.js: {missing:?}");
    // The Chinese pieces are written in the page's script: simplified.
    let zh = catalogue("zh");
    assert_eq!(
        (zh["char.lion"].as_str(), zh["char.cat"].as_str()),
        ("狮", "猫")
    );
    let hant = catalogue("zh-Hant");
    assert_eq!(
        (hant["char.lion"].as_str(), hant["char.cat"].as_str()),
        ("獅", "貓")
    );
}

#[test]
fn every_lesson_task_is_solved_by_its_moves_under_the_rules_core() {
    let lessons = lessons();
    assert!(lessons.len() >= 8, "{} lessons", lessons.len());
    for lesson in &lessons {
        assert!(!lesson.tasks.is_empty(), "{}: no tasks", lesson.id);
        for (n, task) in lesson.tasks.iter().enumerate() {
            let name = format!("{} task {}", lesson.id, n + 1);
            let rules = match &task.variant {
                Some(v) => Variant::from_name(v)
                    .unwrap_or_else(|| panic!("{name}: no rule set {v}"))
                    .rules(),
                None => Rules::default(),
            };
            let position = Position::from_fen(&task.fen)
                .unwrap_or_else(|e| panic!("{name}: bad position {}: {e}", task.fen));
            let mut game = Game::with_rules(position, rules);
            for text in &task.before {
                game.play_text(text)
                    .unwrap_or_else(|e| panic!("{name}: {text} before the task: {e}"));
            }
            let start = *game.position();
            assert_eq!(start.side_to_move(), Color::Red, "{name}: Red moves");
            assert_eq!(game.result(), GameResult::Ongoing, "{name}: decided");
            // A refused move is one only the anti-chase rules forbid: the same game
            // without them takes it.
            let mut free = Game::with_rules(
                position,
                Rules {
                    anti_chase: false,
                    ..rules
                },
            );
            for text in &task.before {
                free.play_text(text)
                    .unwrap_or_else(|e| panic!("{name}: {text} before the task: {e}"));
            }
            for text in &task.refused {
                assert!(
                    matches!(game.parse_move(text), Err(MoveError::Forbidden(_))),
                    "{name}: {text} should be forbidden by the anti-chase rules"
                );
                assert!(
                    free.parse_move(text).is_ok(),
                    "{name}: {text} is refused even without the anti-chase rules"
                );
            }
            assert!(!task.accept.is_empty(), "{name}: no solution");
            for text in &task.accept {
                let mut after = game.clone();
                let m = after
                    .play_text(text)
                    .unwrap_or_else(|e| panic!("{name}: {text} is refused: {e}"));
                let reached = match task.goal.as_str() {
                    "move" => true,
                    "capture" => start.is_capture(m),
                    "water" => WATER.contains(m.to()),
                    "jump" => m.is_jump(),
                    "den" => start.is_den_entry(m),
                    // No animal of Blue's can walk into Red's den after it.
                    "guard" => {
                        let there = *after.position();
                        !after.legal_moves().iter().any(|&b| there.is_den_entry(b))
                    }
                    "win" => matches!(
                        after.result(),
                        GameResult::Win {
                            winner: Color::Red,
                            ..
                        }
                    ),
                    other => panic!("{name}: unknown goal {other}"),
                };
                assert!(reached, "{name}: {text} does not reach '{}'", task.goal);
            }
            // A task whose goal is a kind of move has a wrong try to answer: some
            // other legal move.
            let others = game
                .legal_moves()
                .iter()
                .filter(|m| !task.accept.contains(&m.to_string()))
                .count();
            assert!(
                task.goal == "move" || others > 0,
                "{name}: no wrong try possible"
            );
        }
    }
}

/// The Rust side's sources whose words reach the page (the other crates' are the
/// engine's and the command line's), the Puzzles mode's (`crates/app/src/puzzles.rs`)
/// among them.
fn board_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "crates/app/src",
        "crates/app/src/controller",
        "src/gui",
        "crates/web/src",
    ] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rs" || x == "js"))
            .collect();
        names.sort();
        for path in names {
            let name = path
                .strip_prefix(root)
                .expect("under the root")
                .display()
                .to_string();
            let text = std::fs::read_to_string(&path).expect("readable");
            files.push((name, text));
        }
    }
    for js in [
        "crates/app/js/backend.js",
        "crates/web/js/worker-backend.js",
    ] {
        files.push((
            js.to_string(),
            std::fs::read_to_string(root.join(js)).expect(js),
        ));
    }
    files
}

/// The end of the call that opens at `open` (the index of its '('), skipping strings.
fn call_end(text: &str, open: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut i, mut in_string) = (0usize, open, false);
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'(' if !in_string => depth += 1,
            b')' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Every code the Rust side (and the back ends' scripts) can send the page: the
/// refusals (`.coded("…"`, the server's `error(…, "…"`), the notices
/// (`Code::notice("…"`, the back ends' `code: "…"`) and the reasons a game ended
/// (`Code::reason("…"`), each with its catalogue key.
fn sent_codes() -> Vec<(String, String)> {
    let mut keys = Vec::new();
    for (file, text) in board_sources() {
        for (call, prefix) in [
            (".coded(\"", "refusal."),
            ("Code::notice(\"", "notice."),
            ("Code::reason(\"", "reason."),
            ("code: \"", "notice."),
        ] {
            for code in quoted_after(&text, call) {
                keys.push((format!("{prefix}{code}"), file.clone()));
            }
        }
        // The server's own errors: `error(503, "busy", …)`.
        if file == "src/gui/http.rs" {
            for (i, _) in text.match_indices("error(") {
                let rest = &text[i + "error(".len()..];
                if let Some((status, after)) = rest.split_once(", \"") {
                    if status.chars().all(|c| c.is_ascii_digit()) && !status.is_empty() {
                        let code = after.split('"').next().unwrap_or("");
                        keys.push((format!("refusal.{code}"), file.clone()));
                    }
                }
            }
        }
    }
    keys
}

#[test]
fn every_code_the_rust_side_sends_is_worded_in_every_catalogue() {
    let codes = sent_codes();
    // Enough of each kind that the scan still finds them.
    for (prefix, least) in [("refusal.", 25), ("notice.", 10), ("reason.", 7)] {
        let n = codes.iter().filter(|(k, _)| k.starts_with(prefix)).count();
        assert!(n >= least, "only {n} codes {prefix}* found");
    }
    // The rules a refused move breaks, sent by their code (`illegal.<code>`).
    let mut codes = codes;
    for code in jungle_core::board::Illegal::CODES {
        codes.push((
            format!("illegal.{code}"),
            "crates/core/src/board/illegal.rs".into(),
        ));
    }
    for lang in LANGS {
        let cat = catalogue(lang);
        let missing: Vec<&(String, String)> =
            codes.iter().filter(|(k, _)| !cat.contains_key(k)).collect();
        assert!(
            missing.is_empty(),
            "i18n/{lang}.js lacks the words of {missing:?}"
        );
    }
    // The page words by the code, never by the English sentence: every refusal the
    // board's sources make carries a code, and every code is named where it is made
    // (a key passed in a variable would escape this scan).
    for (file, text) in board_sources() {
        if !file.ends_with(".rs") {
            continue;
        }
        for call in ["Code::notice(", "Code::reason(", ".coded("] {
            for (i, _) in text.match_indices(call) {
                let after = text[i + call.len()..].trim_start();
                let line = text[..i].lines().count();
                assert!(
                    after.starts_with('"')
                        || (file == "src/gui/http.rs" && after.starts_with("code,")),
                    "{file}:{line}: {call}… without its key written out"
                );
            }
        }
        for call in ["Refusal::bad(", "Refusal::conflict(", "Refusal::new("] {
            for (i, _) in text.match_indices(call) {
                let end = call_end(&text, i + call.len() - 1);
                let after = text[end..].trim_start();
                let line = text[..i].lines().count();
                assert!(
                    after.starts_with(".coded("),
                    "{file}:{line}: a refusal without a code (the page could only show its English)"
                );
            }
        }
    }
}

/// A translation is not the English left in place: no text of another catalogue is
/// the English one word for word, except names the languages share (the subtitle's
/// pinyin, the rule sets, animals German calls as English does, "Start", the
/// zugzwang English took from German). The
/// browser's walk (`browser_common::no_english_left`) then finds English that does
/// not come from a catalogue.
#[test]
fn no_catalogue_keeps_the_english_text() {
    const SHARED: [&str; 9] = [
        "subtitle",
        "animal.wolf",
        "animal.leopard",
        "animal.tiger",
        "variant.jungle",
        "variant.jungle-cn",
        "watch.start",
        // The mark beside a bot's name, the same in every language (as lichess's).
        "online.botMark",
        "puzzle.theme.zugzwang",
    ];
    let en = catalogue("en");
    // The words of a text, its placeholders left out.
    let words = |text: &str| -> usize {
        let mut plain = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        plain
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() >= 3)
            .count()
    };
    for lang in ["de", "zh", "zh-Hant"] {
        let cat = catalogue(lang);
        let kept: Vec<&String> = en
            .iter()
            .filter(|(k, v)| {
                cat.get(*k) == Some(v) && words(v) > 0 && !SHARED.contains(&k.as_str())
            })
            .map(|(k, _)| k)
            .collect();
        assert!(
            kept.is_empty(),
            "i18n/{lang}.js keeps the English of {kept:?}"
        );
    }
}
