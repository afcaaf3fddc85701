//! The committed test books (openings.txt and books/): positions kept out of
//! training data (`jungle datagen`) and out of the puzzles made from games.

use crate::board::Position;
use crate::game::Rules;
use crate::record::read_openings;

/// The committed test books: their positions are never training openings or samples.
pub const TEST_BOOKS: [(&str, &str); 5] = [
    ("openings.txt", include_str!("../../openings.txt")),
    (
        "books/unbalanced.txt",
        include_str!("../../books/unbalanced.txt"),
    ),
    (
        "books/verified.txt",
        include_str!("../../books/verified.txt"),
    ),
    (
        "books/calibrated.txt",
        include_str!("../../books/calibrated.txt"),
    ),
    (
        "books/calibrated-100k.txt",
        include_str!("../../books/calibrated-100k.txt"),
    ),
];

/// The keys of the positions of an openings file (`name` only names it in errors).
pub fn book_keys(name: &str, text: &str) -> Result<Vec<u64>, String> {
    let positions = read_openings(text, Rules::default())
        .map_err(|error| format!("excluded positions file {name}: {error}"))?;
    Ok(positions.iter().map(Position::key).collect())
}
