//! The board page's modules (page/manifest.txt), checked without a browser: the page's
//! scripts declare no globals but the manifest's; every module wraps itself, in
//! strict mode, and exports onto the namespace `Jungle` only its own entry; a module
//! uses another only through what that one exports (by `Jungle.<module>.<name>`, a
//! destructuring of `Jungle.<module>` or a name given to it), only a module before it
//! in the manifest (so no cycle), and writes nothing into another; only link.js talks
//! to the host's back end, every back end the manifest lists provides what link.js
//! says a back end provides, and link.js asks nothing else of it. The checks run on the scripts' tokens (comments, strings and
//! regular expressions read as such), and each has a test below that makes it fail.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn page(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("page")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// page/manifest.txt: the scripts joined into app.js, the back ends, the globals.
struct Manifest {
    scripts: Vec<String>,
    backends: Vec<String>,
    globals: BTreeSet<String>,
}

fn manifest() -> Manifest {
    let mut m = Manifest {
        scripts: Vec::new(),
        backends: Vec::new(),
        globals: BTreeSet::new(),
    };
    for line in page("manifest.txt").lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, what) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("manifest.txt: not '<kind> <what>': {line}"));
        let what = what.trim().to_string();
        match kind {
            "app.js" => m.scripts.push(what),
            "backend" => m.backends.push(what),
            "global" => {
                m.globals.insert(what);
            }
            "app.css" => {}
            _ => panic!("manifest.txt: unknown kind {kind}"),
        }
    }
    m
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Ident,
    Punct,
    /// A string, a template or a regular expression (its text with the quotes).
    Literal,
    Number,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    text: String,
    /// The brackets ((), [], {}) around the token; a bracket has its pair's depth.
    depth: usize,
}

impl Tok {
    fn is(&self, text: &str) -> bool {
        self.kind != Kind::Literal && self.text == text
    }
}

/// The tokens of a script.
fn tokens(src: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    lex(src.as_bytes(), &mut i, &mut out, false);
    let mut depth = 0usize;
    for t in &mut out {
        if t.kind == Kind::Punct && matches!(t.text.as_str(), ")" | "]" | "}") {
            depth = depth.saturating_sub(1);
        }
        t.depth = depth;
        if t.kind == Kind::Punct && matches!(t.text.as_str(), "(" | "[" | "{") {
            depth += 1;
        }
    }
    out
}

/// After these a `/` starts a regular expression, not a division.
fn regex_may_follow(last: Option<&Tok>) -> bool {
    match last {
        None => true,
        Some(t) if t.kind == Kind::Punct => "(,=:[!&|?{};+-*%<>~^".contains(t.text.as_str()),
        Some(t) if t.kind == Kind::Ident => matches!(
            t.text.as_str(),
            "return" | "typeof" | "case" | "in" | "of" | "delete" | "void" | "throw" | "new"
        ),
        Some(_) => false,
    }
}

/// Reads code from `*i` to the end, or (`in_template`) to the `}` that closes a
/// template's `${`.
fn lex(s: &[u8], i: &mut usize, out: &mut Vec<Tok>, in_template: bool) {
    let mut braces = 0usize;
    let tok = |kind, text: &[u8]| Tok {
        kind,
        text: String::from_utf8_lossy(text).into_owned(),
        depth: 0,
    };
    while *i < s.len() {
        let c = s[*i];
        let start = *i;
        if c.is_ascii_whitespace() {
            *i += 1;
        } else if s[*i..].starts_with(b"//") {
            while *i < s.len() && s[*i] != b'\n' {
                *i += 1;
            }
        } else if s[*i..].starts_with(b"/*") {
            *i += 2;
            while *i < s.len() && !s[*i..].starts_with(b"*/") {
                *i += 1;
            }
            *i = (*i + 2).min(s.len());
        } else if c == b'"' || c == b'\'' {
            *i += 1;
            while *i < s.len() && s[*i] != c && s[*i] != b'\n' {
                *i += if s[*i] == b'\\' { 2 } else { 1 };
            }
            *i = (*i + 1).min(s.len());
            out.push(tok(Kind::Literal, &s[start..*i]));
        } else if c == b'`' {
            *i += 1;
            let mut inner = Vec::new();
            while *i < s.len() && s[*i] != b'`' {
                if s[*i] == b'\\' {
                    *i += 2;
                } else if s[*i..].starts_with(b"${") {
                    *i += 2;
                    lex(s, i, &mut inner, true);
                } else {
                    *i += 1;
                }
            }
            *i = (*i + 1).min(s.len());
            out.push(tok(Kind::Literal, &s[start..*i]));
            out.extend(inner);
        } else if c == b'/' && regex_may_follow(out.last()) {
            *i += 1;
            let mut class = false;
            while *i < s.len() && s[*i] != b'\n' && (class || s[*i] != b'/') {
                match s[*i] {
                    b'\\' => *i += 1,
                    b'[' => class = true,
                    b']' => class = false,
                    _ => {}
                }
                *i += 1;
            }
            *i += 1;
            while *i < s.len() && s[*i].is_ascii_alphabetic() {
                *i += 1;
            }
            *i = (*i).min(s.len());
            out.push(tok(Kind::Literal, &s[start..*i]));
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_' || s[*i] == b'$')
            {
                *i += 1;
            }
            out.push(tok(Kind::Ident, &s[start..*i]));
        } else if c.is_ascii_digit() {
            while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'.') {
                *i += 1;
            }
            out.push(tok(Kind::Number, &s[start..*i]));
        } else {
            *i += 1;
            if in_template && c == b'}' && braces == 0 {
                return;
            }
            if c == b'{' {
                braces += 1;
            } else if c == b'}' {
                braces = braces.saturating_sub(1);
            }
            out.push(tok(Kind::Punct, &s[start..*i]));
        }
    }
}

/// The index of the bracket that closes the one at `open`.
fn closing(t: &[Tok], open: usize) -> Option<usize> {
    let close = match t[open].text.as_str() {
        "(" => ")",
        "[" => "]",
        _ => "}",
    };
    (open + 1..t.len()).find(|&k| t[k].depth == t[open].depth && t[k].is(close))
}

/// `t[k]` is `=` that assigns (not `==`, `===`, `=>`, `<=`, `>=`, `!=`).
fn assigns(t: &[Tok], k: usize) -> bool {
    t.get(k).is_some_and(|e| e.is("="))
        && !t.get(k + 1).is_some_and(|n| n.is("=") || n.is(">"))
        && !(k > 0 && ["=", "<", ">", "!"].iter().any(|p| t[k - 1].is(p)))
}

/// The names of an object's or a destructuring's entries between the brackets at
/// `open` and its pair: each entry's first name (`a`, `a: …`, `a() {…}`, `get a() {…}`).
fn entry_names(t: &[Tok], open: usize) -> Vec<String> {
    let Some(close) = closing(t, open) else {
        return Vec::new();
    };
    let inner = t[open].depth + 1;
    let mut names = Vec::new();
    let mut first = true;
    for k in open + 1..close {
        if t[k].depth != inner {
            continue;
        }
        if t[k].is(",") {
            first = true;
        } else if first && t[k].kind == Kind::Ident {
            let accessor = matches!(t[k].text.as_str(), "get" | "set" | "async")
                && t.get(k + 1).is_some_and(|n| n.kind == Kind::Ident);
            if !accessor {
                names.push(t[k].text.clone());
                first = false;
            }
        }
    }
    names
}

/// A module's definition in a script: its name and its body's `{`.
struct Module {
    name: String,
    file: usize,
    body: usize,
}

/// The statements at the top of a script (their token ranges, split at `;`).
fn statements(t: &[Tok]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (k, tok) in t.iter().enumerate() {
        if tok.depth == 0 && tok.is(";") {
            if k > start {
                out.push((start, k));
            }
            start = k + 1;
        }
    }
    if start < t.len() {
        out.push((start, t.len()));
    }
    out
}

/// `(() => {` at `k`: the index of the `{`.
fn arrow_body(t: &[Tok], k: usize) -> Option<usize> {
    let shape = ["(", "(", ")", "=", ">", "{"];
    shape
        .iter()
        .enumerate()
        .all(|(n, p)| t.get(k + n).is_some_and(|x| x.is(p)))
        .then_some(k + 5)
}

/// Whether the function whose body opens at `body` starts with "use strict" and is
/// called at once, ending the statement (`…})()` up to `end`).
fn strict_and_called(t: &[Tok], body: usize, end: usize) -> bool {
    let strict = t.get(body + 1).is_some_and(|x| {
        x.kind == Kind::Literal && x.text.trim_matches(['"', '\'']) == "use strict"
    });
    let called = closing(t, body)
        .is_some_and(|c| c + 4 == end && t[c + 1].is(")") && t[c + 2].is("(") && t[c + 3].is(")"));
    strict && called
}

/// The top of `file`'s script: what it declares, and the modules it defines.
fn check_top(
    file: &str,
    t: &[Tok],
    globals: &BTreeSet<String>,
    index: usize,
    modules: &mut Vec<Module>,
    errors: &mut Vec<String>,
) {
    for (start, end) in statements(t) {
        let at = |n: usize| t.get(start + n).filter(|_| start + n < end);
        let first: Vec<&str> = (start..end.min(start + 6))
            .map(|k| t[k].text.as_str())
            .collect();
        if at(0).is_some_and(|x| x.is("const") || x.is("let") || x.is("var")) {
            let name = at(1).map(|x| x.text.clone()).unwrap_or_default();
            if !globals.contains(&name) {
                errors.push(format!(
                    "{file}: declares a global {name:?} that manifest.txt does not list"
                ));
            }
        } else if at(0).is_some_and(|x| x.is("Jungle"))
            && at(1).is_some_and(|x| x.is("."))
            && assigns(t, start + 3)
        {
            let name = at(2).map(|x| x.text.clone()).unwrap_or_default();
            match arrow_body(t, start + 4) {
                Some(body) if strict_and_called(t, body, end) => {
                    if modules.iter().any(|m| m.name == name) {
                        errors.push(format!("{file}: defines the module {name} again"));
                    }
                    modules.push(Module {
                        name,
                        file: index,
                        body,
                    });
                }
                _ => errors.push(format!(
                    "{file}: Jungle.{name} is not a module wrapped as `Jungle.{name} = (() => {{ \"use strict\"; … }})();`"
                )),
            }
        } else if let Some(body) = arrow_body(t, start) {
            if !strict_and_called(t, body, end) {
                errors.push(format!(
                    "{file}: a function at the top that is not `(() => {{ \"use strict\"; … }})();`"
                ));
            }
        } else {
            let window = if at(0).is_some_and(|x| x.is("(")) {
                1
            } else {
                0
            };
            let data = at(window).is_some_and(|x| x.is("window"))
                && at(window + 1).is_some_and(|x| x.is("."))
                && assigns(t, start + window + 3);
            // window.X = … is checked with every other write to window.
            if !data {
                errors.push(format!(
                    "{file}: a statement at the top that is neither a module nor a global the manifest lists: {}",
                    first.join(" ")
                ));
            }
        }
    }
}

/// Writes anywhere to `window.X` (or `globalThis.X`, `self.X`): X must be a global of
/// the manifest.
fn check_window_writes(
    file: &str,
    t: &[Tok],
    globals: &BTreeSet<String>,
    errors: &mut Vec<String>,
) {
    for k in 0..t.len().saturating_sub(3) {
        let global_object = ["window", "globalThis", "self"].iter().any(|w| t[k].is(w));
        let member = !(k > 0 && t[k - 1].is("."));
        if global_object && member && t[k + 1].is(".") && assigns(t, k + 3) {
            let name = &t[k + 2].text;
            if !globals.contains(name) {
                errors.push(format!(
                    "{file}: writes the global window.{name}, which manifest.txt does not list"
                ));
            }
        }
    }
}

/// A module's exports: the names of the object its body returns last.
fn exports(t: &[Tok], body: usize) -> BTreeSet<String> {
    let depth = t[body].depth + 1;
    let end = closing(t, body).unwrap_or(t.len());
    (body + 1..end)
        .rev()
        .find(|&k| t[k].depth == depth && t[k].is("return") && t[k + 1].is("{"))
        .map(|k| entry_names(t, k + 1).into_iter().collect())
        .unwrap_or_default()
}

/// How `file` uses the modules: only those before it, only what they export, writing
/// nothing into them.
fn check_uses(
    file: &str,
    index: usize,
    t: &[Tok],
    modules: &[Module],
    exported: &BTreeMap<String, BTreeSet<String>>,
    errors: &mut Vec<String>,
) {
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    for k in 0..t.len().saturating_sub(2) {
        if !(t[k].is("Jungle") && t[k + 1].is(".") && t[k + 2].kind == Kind::Ident) {
            continue;
        }
        let name = t[k + 2].text.clone();
        let own = modules
            .iter()
            .any(|m| m.name == name && m.file == index && (k == 0 || t[k - 1].is(";")));
        if own {
            continue;
        }
        let Some(module) = modules.iter().find(|m| m.name == name) else {
            errors.push(format!(
                "{file}: uses Jungle.{name}, which no module defines"
            ));
            continue;
        };
        if module.file >= index {
            errors.push(format!(
                "{file}: uses Jungle.{name}, which comes after it in manifest.txt (a module uses only those before it)"
            ));
        }
        let exports = &exported[&name];
        let mut used = Vec::new();
        if t.get(k + 3).is_some_and(|x| x.is(".")) {
            used.push(t[k + 4].text.clone());
            if assigns(t, k + 5) {
                errors.push(format!("{file}: writes Jungle.{name}.{}", t[k + 4].text));
            }
        } else if assigns(t, k + 3) {
            errors.push(format!("{file}: writes Jungle.{name}"));
        } else if k >= 2 && t[k - 1].is("=") && t[k - 2].is("}") {
            let open = (0..k - 2)
                .rev()
                .find(|&o| t[o].depth == t[k - 2].depth && t[o].is("{"));
            used.extend(open.map(|o| entry_names(t, o)).unwrap_or_default());
        } else if k >= 3
            && t[k - 1].is("=")
            && t[k - 2].kind == Kind::Ident
            && (t[k - 3].is("const") || t[k - 3].is("let"))
        {
            aliases.insert(t[k - 2].text.clone(), name.clone());
        }
        for u in used {
            if !exports.contains(&u) {
                errors.push(format!(
                    "{file}: uses {u} of Jungle.{name}, which it does not export"
                ));
            }
        }
    }
    // What a name given to a module reaches: `board.draw`.
    for k in 1..t.len().saturating_sub(2) {
        let Some(name) = aliases.get(&t[k].text) else {
            continue;
        };
        if t[k].kind != Kind::Ident || t[k - 1].is(".") || !t[k + 1].is(".") {
            continue;
        }
        let member = &t[k + 2].text;
        if !exported[name].contains(member) {
            errors.push(format!(
                "{file}: uses {member} of Jungle.{name} (as {}), which it does not export",
                t[k].text
            ));
        }
        if assigns(t, k + 3) {
            errors.push(format!("{file}: writes Jungle.{name}.{member}"));
        }
    }
}

/// Every check on the scripts (name, text) in the manifest's order.
fn check(scripts: &[(String, String)], globals: &BTreeSet<String>) -> Vec<String> {
    let mut errors = Vec::new();
    let mut modules = Vec::new();
    let toks: Vec<Vec<Tok>> = scripts.iter().map(|(_, text)| tokens(text)).collect();
    for (i, (file, _)) in scripts.iter().enumerate() {
        check_top(file, &toks[i], globals, i, &mut modules, &mut errors);
        check_window_writes(file, &toks[i], globals, &mut errors);
    }
    let exported: BTreeMap<String, BTreeSet<String>> = modules
        .iter()
        .map(|m| (m.name.clone(), exports(&toks[m.file], m.body)))
        .collect();
    for (name, names) in &exported {
        if names.is_empty() {
            errors.push(format!(
                "Jungle.{name} exports nothing (no `return {{ … }}` at its end)"
            ));
        }
    }
    for (i, (file, _)) in scripts.iter().enumerate() {
        check_uses(file, i, &toks[i], &modules, &exported, &mut errors);
        if !modules.iter().any(|m| m.name == "link" && m.file == i) {
            check_no_backend(file, &toks[i], &mut errors);
        }
    }
    errors
}

/// Only the module `link` talks to the host's back end (the global `backend`).
fn check_no_backend(file: &str, t: &[Tok], errors: &mut Vec<String>) {
    for k in 0..t.len() {
        let member = k > 0 && t[k - 1].is(".") && !(k > 1 && t[k - 2].is("window"));
        let key = t.get(k + 1).is_some_and(|n| n.is(":"));
        if t[k].is("backend") && t[k].kind == Kind::Ident && !member && !key {
            errors.push(format!(
                "{file}: uses the back end other than through Jungle.link"
            ));
            return;
        }
    }
}

fn page_scripts(m: &Manifest) -> Vec<(String, String)> {
    m.scripts.iter().map(|f| (f.clone(), page(f))).collect()
}

#[test]
fn the_page_modules_use_each_other_only_through_what_they_export() {
    let m = manifest();
    let scripts = page_scripts(&m);
    assert!(scripts.len() >= 10, "{} scripts", scripts.len());
    let errors = check(&scripts, &m.globals);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // The modules the page is made of, each in its place.
    let defined: Vec<String> = scripts
        .iter()
        .flat_map(|(_, text)| {
            let t = tokens(text);
            statements(&t)
                .into_iter()
                .filter(|&(s, _)| t[s].is("Jungle") && t.get(s + 1).is_some_and(|x| x.is(".")))
                .map(|(s, _)| t[s + 2].text.clone())
                .collect::<Vec<_>>()
        })
        .collect();
    for name in [
        "words", "link", "board", "game", "panels", "lessons", "puzzles",
    ] {
        assert!(
            defined.iter().any(|d| d == name),
            "no module {name}: {defined:?}"
        );
    }
}

/// The members of a back end that link.js's comment lists ("What a back end provides").
fn provided() -> Vec<String> {
    let link = page("link.js");
    let from = link
        .find("What a back end provides")
        .expect("link.js says what a back end provides");
    link[from..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("// - `"))
        .map(|l| l.split(['`', '(']).next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn every_back_end_provides_what_link_js_says_and_link_js_asks_nothing_else() {
    let m = manifest();
    let members = provided();
    for name in ["name", "request", "connect", "window.jungleErrors"] {
        assert!(
            members.iter().any(|p| p == name),
            "link.js does not list {name}: {members:?}"
        );
    }
    assert!(m.backends.len() >= 2, "{:?}", m.backends);
    for file in &m.backends {
        let text = page(file);
        let t = tokens(&text);
        let mut errors = Vec::new();
        check_window_writes(file, &t, &m.globals, &mut errors);
        for (start, _) in statements(&t) {
            if ["const", "let", "var", "function", "class"]
                .iter()
                .any(|d| t[start].is(d))
                && !m.globals.contains(&t[start + 1].text)
            {
                errors.push(format!("{file}: declares a global {}", t[start + 1].text));
            }
        }
        assert!(errors.is_empty(), "{}", errors.join("\n"));
        for member in &members {
            let has = match member.strip_prefix("window.") {
                Some(global) => (0..t.len() - 3)
                    .any(|k| t[k].is("window") && t[k + 2].is(global) && assigns(&t, k + 3)),
                None => (0..t.len() - 1).any(|k| {
                    t[k].is(member)
                        && !(k > 0 && t[k - 1].is("."))
                        && (t[k + 1].is(":") || t[k + 1].is("("))
                }),
            };
            assert!(has, "{file} does not provide {member} (link.js)");
        }
    }
    // link.js uses of the host's back end only what a back end provides.
    let t = tokens(&page("link.js"));
    let host = (2..t.len())
        .find(|&k| t[k].is("backend") && t[k - 1].is("="))
        .map(|k| t[k - 2].text.clone())
        .expect("link.js names the host's back end");
    for k in 0..t.len() - 2 {
        if t[k].is(&host) && t[k + 1].is(".") {
            assert!(
                members.contains(&t[k + 2].text),
                "link.js uses {} of the back end, which link.js does not list",
                t[k + 2].text
            );
        }
    }
}

// ----- the checks fail where they should ----------------------------------------

fn globals() -> BTreeSet<String> {
    ["Jungle", "backend"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

const BASE: &str = "const Jungle = {};\n";
const GAME: &str = r#"
// A module with a secret: its state.
Jungle.game = (() => {
  "use strict";
  let state = { ply: 0 };
  const re = /[}{'"]/g; // a regular expression with brackets and quotes
  const s = `a ${ "}" } b`;
  return { ply: () => state.ply, get version() { return 1; } };
})();
"#;

fn errors_with(user: &str) -> Vec<String> {
    let scripts = [("base.js", BASE), ("game.js", GAME), ("user.js", user)]
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect::<Vec<_>>();
    check(&scripts, &globals())
}

fn assert_refused(user: &str, says: &str) {
    let errors = errors_with(user);
    assert!(
        errors.iter().any(|e| e.contains(says)),
        "expected an error with {says:?} for\n{user}\ngot {errors:?}"
    );
}

#[test]
fn a_module_that_uses_only_exports_passes() {
    let user = r#"
Jungle.user = (() => {
  "use strict";
  const { ply, version } = Jungle.game;
  const game = Jungle.game;
  const n = Jungle.game.ply() + game.ply() + ply() / 2;
  return { n };
})();
(() => {
  "use strict";
  const { ply } = Jungle.game;
  ply();
})();
"#;
    assert_eq!(errors_with(user), Vec::<String>::new());
}

#[test]
fn reaching_another_modules_state_fails() {
    let wrap = |body: &str| {
        format!("Jungle.user = (() => {{\n  \"use strict\";\n{body}\n  return {{ x }};\n}})();\n")
    };
    assert_refused(
        &wrap("const x = Jungle.game.state;"),
        "uses state of Jungle.game",
    );
    assert_refused(
        &wrap("const { state: x } = Jungle.game;"),
        "uses state of Jungle.game",
    );
    assert_refused(
        &wrap("const game = Jungle.game;\nconst x = game.state;"),
        "uses state of Jungle.game (as game)",
    );
    assert_refused(
        &wrap("const x = 1;\nJungle.game.ply = () => 2;"),
        "writes Jungle.game.ply",
    );
    assert_refused(
        &wrap("const game = Jungle.game;\nconst x = 1;\ngame.ply = null;"),
        "writes Jungle.game.ply",
    );
    assert_refused(&wrap("const x = Jungle.later.y;"), "no module defines");
    assert_refused(
        &wrap("const x = backend.request(\"state\", null);"),
        "other than through Jungle.link",
    );
    assert_refused(
        &wrap("const x = window.backend;"),
        "other than through Jungle.link",
    );
}

#[test]
fn a_global_or_an_unwrapped_module_fails() {
    assert_refused("let state = null;\n", "declares a global \"state\"");
    assert_refused("function render() {}\n", "neither a module nor a global");
    assert_refused("window.leak = 1;\n", "writes the global window.leak");
    assert_refused(
        "Jungle.user = (() => {\n  \"use strict\";\n  window.leak = [];\n  return { a: 1 };\n})();\n",
        "window.leak",
    );
    assert_refused(
        "Jungle.user = (() => {\n  return { a: 1 };\n})();\n",
        "is not a module wrapped",
    );
    assert_refused("Jungle.user = {};\n", "is not a module wrapped");
    assert_refused(
        "Jungle.game = (() => {\n  \"use strict\";\n  return { a: 1 };\n})();\n",
        "defines the module game again",
    );
}

#[test]
fn a_module_that_uses_a_later_one_fails() {
    let scripts = [("base.js", BASE), ("user.js", "Jungle.user = (() => {\n  \"use strict\";\n  const { ply } = Jungle.game;\n  return { ply };\n})();\n"), ("game.js", GAME)]
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect::<Vec<_>>();
    let errors = check(&scripts, &globals());
    assert!(
        errors.iter().any(|e| e.contains("comes after it")),
        "{errors:?}"
    );
}
