//! The page's drawings of the animals (`page/index.html`, one `<symbol>` each), for
//! `jungle.pictures` to draw boards with in SVG: the one source of the pictures.

use pyo3::prelude::*;

/// The page, read when the package is built from the repository.
const PAGE: &str = include_str!("../../../page/index.html");

/// The `<symbol id="animal-…">…</symbol>` elements of the page, by animal.
#[pyfunction]
pub fn animal_symbols() -> Vec<(String, String)> {
    let mut symbols = Vec::new();
    let mut rest = PAGE;
    while let Some(start) = rest.find("<symbol id=\"animal-") {
        let from = &rest[start..];
        let Some(end) = from.find("</symbol>") else {
            break;
        };
        let symbol = &from[..end + "</symbol>".len()];
        let name = symbol["<symbol id=\"animal-".len()..]
            .split('"')
            .next()
            .unwrap_or_default();
        symbols.push((name.to_string(), symbol.to_string()));
        rest = &from[end..];
    }
    symbols
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_draws_every_animal() {
        let names: Vec<String> = animal_symbols().into_iter().map(|(n, _)| n).collect();
        let animals = [
            "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant",
        ];
        assert_eq!(names, animals);
    }
}
