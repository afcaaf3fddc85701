//! Joins the board's page for `jungle gui` (src/gui/http.rs embeds the result): the
//! files that page/manifest.txt lists for app.js and for app.css, in its order, each
//! into `$OUT_DIR/<name>`; the script without its comment lines, blank lines and
//! indentation (the page's sources keep them). scripts/build-web.sh joins them the
//! same way for the static site.

use std::collections::BTreeMap;
use std::path::Path;

fn main() {
    let page = Path::new("page");
    let manifest = page.join("manifest.txt");
    println!("cargo:rerun-if-changed={}", manifest.display());
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut joined: BTreeMap<&str, String> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (bundle, file) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{}:{}: not '<bundle> <file>'", manifest.display(), n + 1));
        if bundle != "app.js" && bundle != "app.css" {
            continue;
        }
        let path = page.join(file.trim());
        println!("cargo:rerun-if-changed={}", path.display());
        let part =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let joined = joined.entry(bundle).or_default();
        if bundle == "app.js" {
            served_script(&part, joined);
        } else {
            joined.push_str(&part);
        }
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for bundle in ["app.js", "app.css"] {
        let text = joined
            .get(bundle)
            .unwrap_or_else(|| panic!("{}: no file for {bundle}", manifest.display()));
        let path = Path::new(&out).join(bundle);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// Appends `script`'s lines to `out` without the comment lines (`//` first), the blank
/// lines and the indentation (spaces and tabs), as scripts/build-web.sh's sed does. No
/// page script has a string or template that spans such a line.
fn served_script(script: &str, out: &mut String) {
    for line in script.lines() {
        let line = line.trim_start_matches([' ', '\t']);
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
}
