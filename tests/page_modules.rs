//! The board page's modules (page/, ES modules), checked without a browser: every file
//! of page/ is built into the binary (`jungle_app::page::FILES`) and nothing else is;
//! every module parses (under Node, where there is one); every name a module imports
//! is one its module exports; only link.js reaches the host's back end (no other
//! module imports backend.js or talks to a network or a worker itself); and every back
//! end provides what link.js says a back end provides. Each check has a test below
//! that makes it fail.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The page's files below page/ (`main.js`, `i18n/en.js`), sorted.
fn page_files() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["", "i18n"] {
        let path = root().join("page").join(dir);
        for e in std::fs::read_dir(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
            let name = e
                .expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if [".js", ".css", ".html"].iter().any(|x| name.ends_with(x)) {
                out.push(if dir.is_empty() {
                    name
                } else {
                    format!("{dir}/{name}")
                });
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `import { a, b as c } from "./x.js"` and `import d from "./y.js"`: (names, from).
fn imports(text: &str) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("import ")) {
        let Some((what, from)) = line.rsplit_once(" from ") else {
            // `import "./errors.js";`: a module run for its effect.
            continue;
        };
        let from = from
            .trim()
            .trim_end_matches(';')
            .trim_matches('"')
            .to_string();
        let what = what.trim_start_matches("import ").trim();
        let names = match what.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
            Some(list) => list
                .split(',')
                .map(|n| n.split(" as ").next().unwrap_or("").trim().to_string())
                .filter(|n| !n.is_empty())
                .collect(),
            None => vec!["default".to_string()],
        };
        out.push((names, from));
    }
    out
}

/// The names a module exports (`export const x`, `export function f`, `export
/// default`, `export { a }`).
fn exports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let declared = [
            "export const ",
            "export function ",
            "export async function ",
        ]
        .iter()
        .find_map(|p| line.strip_prefix(p));
        if let Some(rest) = declared {
            out.insert(rest.split([' ', '=', '(']).next().unwrap_or("").to_string());
        } else if line.starts_with("export default") {
            out.insert("default".into());
        } else if let Some(list) = line.strip_prefix("export {") {
            let list = list.split('}').next().unwrap_or("");
            for n in list.split(',') {
                let n = n.trim();
                let name = n.rsplit(" as ").next().unwrap_or(n).trim();
                if !name.is_empty() {
                    out.insert(name.to_string());
                }
            }
        }
    }
    out
}

/// What is wrong with a set of modules (file name → text): imports of names not
/// exported, of files not there, and any reach for the back end or the network but
/// link.js's.
fn check(modules: &BTreeMap<String, String>) -> Vec<String> {
    let mut errors = Vec::new();
    for (file, text) in modules {
        let dir = Path::new(file).parent().unwrap_or(Path::new(""));
        for (names, from) in imports(text) {
            let target = dir.join(from.trim_start_matches("./"));
            let target = target.to_string_lossy().replace("i18n/../", "");
            if from == "./backend.js" || from.contains("local/") {
                if file != "link.js" {
                    errors.push(format!(
                        "{file}: imports the back end ({from}): only link.js may"
                    ));
                }
                continue;
            }
            let Some(other) = modules.get(&target) else {
                errors.push(format!(
                    "{file}: imports {from}, which is not a page module"
                ));
                continue;
            };
            let exported = exports(other);
            for n in names {
                if !exported.contains(&n) {
                    errors.push(format!(
                        "{file}: imports '{n}' from {from}, which does not export it"
                    ));
                }
            }
        }
        // The code, without its comment lines.
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for reach in [
            "fetch(",
            "new WebSocket(",
            "new EventSource(",
            "new Worker(",
            "backend.",
        ] {
            if file != "link.js" && code.contains(reach) {
                errors.push(format!("{file}: '{reach}' (the back end is link.js's)"));
            }
        }
    }
    errors
}

fn page_modules() -> BTreeMap<String, String> {
    page_files()
        .into_iter()
        .filter(|f| f.ends_with(".js"))
        .map(|f| {
            let text = read(&root().join("page").join(&f));
            (f, text)
        })
        .collect()
}

#[test]
fn every_page_file_is_built_in_and_nothing_else() {
    let built: Vec<String> = {
        let mut b: Vec<String> = jungle_app::page::FILES
            .iter()
            .map(|f| f.path.to_string())
            .collect();
        b.sort();
        b
    };
    assert_eq!(
        built,
        page_files(),
        "page/ and jungle_app::page::FILES differ"
    );
    for f in jungle_app::page::FILES {
        assert_eq!(
            f.body,
            read(&root().join("page").join(f.path)),
            "{}",
            f.path
        );
    }
}

#[test]
fn the_page_modules_use_each_other_only_through_what_they_export() {
    let modules = page_modules();
    assert!(modules.len() >= 20, "only {} modules", modules.len());
    let errors = check(&modules);
    assert!(errors.is_empty(), "{errors:#?}");
    // main.js reaches every module, directly or not.
    let mut seen = BTreeSet::from(["main.js".to_string()]);
    let mut todo = vec!["main.js".to_string()];
    while let Some(f) = todo.pop() {
        for (_, from) in imports(&modules[&f]) {
            let target = Path::new(&f)
                .parent()
                .unwrap_or(Path::new(""))
                .join(from.trim_start_matches("./"));
            let target = target.to_string_lossy().into_owned();
            if modules.contains_key(&target) && seen.insert(target.clone()) {
                todo.push(target);
            }
        }
    }
    // errors.js is imported for its effect (`import "./errors.js"`).
    seen.insert("errors.js".to_string());
    let unreached: Vec<&String> = modules.keys().filter(|m| !seen.contains(*m)).collect();
    assert!(
        unreached.is_empty(),
        "modules main.js never imports: {unreached:?}"
    );
}

#[test]
fn an_import_of_a_name_not_exported_or_a_reach_for_the_network_fails() {
    let mut modules = BTreeMap::new();
    modules.insert(
        "a.js".to_string(),
        "export const a = { x: 1 };\n".to_string(),
    );
    modules.insert(
        "b.js".to_string(),
        "import { a } from \"./a.js\";\nexport const b = a;\n".to_string(),
    );
    assert!(check(&modules).is_empty());
    modules.insert(
        "c.js".to_string(),
        "import { secret } from \"./a.js\";\n".to_string(),
    );
    modules.insert(
        "d.js".to_string(),
        "import { backend } from \"./backend.js\";\n".to_string(),
    );
    modules.insert(
        "e.js".to_string(),
        "const r = fetch(\"/api/state\");\n".to_string(),
    );
    modules.insert(
        "f.js".to_string(),
        "import { z } from \"./nowhere.js\";\n".to_string(),
    );
    let errors = check(&modules).join("\n");
    for says in [
        "c.js: imports 'secret' from ./a.js",
        "d.js: imports the back end",
        "e.js: 'fetch('",
        "f.js: imports ./nowhere.js",
    ] {
        assert!(errors.contains(says), "{says} not found in:\n{errors}");
    }
}

/// Every module parses as an ES module (`node --check` on a copy named .mjs), where
/// Node is installed (CI has it: tests/web_module.rs needs it too).
#[test]
fn every_module_parses() {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(std::env::var_os("CI").is_none(), "CI must have node");
        eprintln!("SKIPPED: no node");
        return;
    }
    let dir = std::env::temp_dir().join(format!("jungle-page-modules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut backends: Vec<PathBuf> = [
        "crates/app/js/backend.js",
        "crates/web/js/backend.js",
        "crates/web/js/worker-backend.js",
    ]
    .iter()
    .map(|p| root().join(p))
    .collect();
    backends.extend(
        online_files()
            .into_iter()
            .map(|f| root().join("crates/online/js").join(f)),
    );
    backends.extend(
        page_files()
            .iter()
            .filter(|f| f.ends_with(".js"))
            .map(|f| root().join("page").join(f)),
    );
    for (i, path) in backends.iter().enumerate() {
        let copy = dir.join(format!("m{i}.mjs"));
        std::fs::write(&copy, read(path)).expect("a copy");
        let out = std::process::Command::new("node")
            .arg("--check")
            .arg(&copy)
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The properties link.js names as a back end's: `name`, `request(`, `connect(`.
fn provides(text: &str) -> Vec<&'static str> {
    ["name:", "request(", "connect("]
        .into_iter()
        .filter(|p| text.contains(p))
        .collect()
}

#[test]
fn every_back_end_provides_what_link_js_says() {
    let link = read(&root().join("page/link.js"));
    for asked in ["host.request(", "host.connect(", "host.name"] {
        assert!(
            link.contains(asked),
            "link.js no longer asks {asked}: update this test"
        );
    }
    for path in [
        "crates/app/js/backend.js",
        "crates/web/js/worker-backend.js",
        "crates/online/js/backend.js",
    ] {
        let text = read(&root().join(path));
        assert!(
            text.contains("export const backend"),
            "{path}: no `export const backend`"
        );
        assert_eq!(provides(&text), ["name:", "request(", "connect("], "{path}");
    }
    let static_site = read(&root().join("crates/web/js/backend.js"));
    assert!(static_site.contains("export { backend } from \"./worker-backend.js\""));
    // One that lacks one is found.
    assert_eq!(
        provides("export const backend = { name: \"x\", request() {} };"),
        ["name:", "request("]
    );
}

/// The online back end's files (crates/online/js/), sorted.
fn online_files() -> Vec<String> {
    let dir = root().join("crates/online/js");
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".js"))
        .collect();
    out.sort();
    out
}

/// The online back end (`jungle serve`'s backend.js) is backend.js and its modules:
/// every file of crates/online/js/ is built into the server as it is (backend.js at
/// `/backend.js`, the others under `/online/`), and each imports only names the others
/// export, or the visitor's own back end (backend.js only).
#[test]
fn the_online_back_end_is_its_modules_built_into_the_server() {
    let built: BTreeMap<String, String> = jungle_online::server::BACKEND_FILES
        .iter()
        .map(|(path, body)| {
            (
                path.rsplit('/').next().unwrap_or("").to_string(),
                body.to_string(),
            )
        })
        .collect();
    assert_eq!(built.keys().cloned().collect::<Vec<_>>(), online_files());
    let served: BTreeSet<String> = jungle_online::server::BACKEND_FILES
        .iter()
        .map(|(path, _)| path.to_string())
        .collect();
    for f in online_files() {
        let text = read(&root().join("crates/online/js").join(&f));
        assert_eq!(built[&f], text, "{f}: not as built");
        let at = if f == "backend.js" {
            "/backend.js".to_string()
        } else {
            format!("/online/{f}")
        };
        assert!(served.contains(&at), "{f} not served at {at}");
        for (names, from) in imports(&text) {
            if from == "./local/backend.js" {
                assert_eq!(
                    f, "backend.js",
                    "{f}: only backend.js carries to the visitor's own back end"
                );
                continue;
            }
            let target = from.trim_start_matches("./").trim_start_matches("online/");
            let Some(other) = built.get(target) else {
                panic!("{f}: imports {from}, not a module of the online back end");
            };
            assert_eq!(
                from.starts_with("./online/"),
                f == "backend.js",
                "{f}: {from}"
            );
            let exported = exports(other);
            for n in names {
                assert!(
                    exported.contains(&n),
                    "{f}: imports '{n}' from {from}, which does not export it"
                );
            }
        }
    }
}
