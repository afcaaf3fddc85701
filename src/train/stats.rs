//! `jungle data stats`: what a set of data files holds, to judge data before training
//! on it: the share of samples from decided games, the plies since the last capture,
//! the spread of |score|, the number of animals on the board, the samples per file.
//! Given a manifest it also reports the games (from the shards' rows).

use super::data::{decode, DataError, Outcome, RECORD_BYTES};
use super::shards::Manifest;
use crate::board::{Animal, Color};
use std::fmt::Write as _;
use std::io::{self, Read};

/// The limits of the plies-since-capture classes (each from the previous limit).
const PLY_CLASSES: [u16; 5] = [10, 20, 50, 80, 256];

/// Counts over the samples of one or more files.
#[derive(Clone, Debug)]
pub struct DataStats {
    pub samples: u64,
    pub wins: u64,
    pub losses: u64,
    /// Samples by plies since the last capture (saturated at 255).
    pub plies: [u64; 256],
    /// Samples by |score| (centipawns, saturated at 32767).
    pub abs_score: Vec<u64>,
    /// Samples by the number of animals on the board (0..=16).
    pub animals: [u64; 17],
    /// (file name, samples) in the order read.
    pub files: Vec<(String, u64)>,
}

impl Default for DataStats {
    fn default() -> Self {
        DataStats {
            samples: 0,
            wins: 0,
            losses: 0,
            plies: [0; 256],
            abs_score: vec![0; 32768],
            animals: [0; 17],
            files: Vec::new(),
        }
    }
}

impl DataStats {
    /// Adds the records read from `input` (named `name` in the report and errors).
    pub fn add_file(&mut self, name: &str, input: &mut impl Read) -> Result<(), DataError> {
        let mut buf = vec![0u8; RECORD_BYTES * 65536];
        let mut count = 0u64;
        let mut filled = 0;
        loop {
            let n = input.read(&mut buf[filled..])?;
            filled += n;
            let whole = filled / RECORD_BYTES * RECORD_BYTES;
            for chunk in buf[..whole].chunks_exact(RECORD_BYTES) {
                let mut record = [0u8; RECORD_BYTES];
                record.copy_from_slice(chunk);
                let sample = decode(&record, count)?;
                count += 1;
                self.samples += 1;
                match sample.outcome {
                    Outcome::Win => self.wins += 1,
                    Outcome::Loss => self.losses += 1,
                    Outcome::Draw => {}
                }
                self.plies[usize::from(record[13])] += 1;
                self.abs_score[usize::from(sample.score.unsigned_abs().min(32767))] += 1;
                let on_board = Color::BOTH
                    .iter()
                    .flat_map(|&c| Animal::ALL.map(|a| sample.pos.square_of(c, a)))
                    .flatten()
                    .count();
                self.animals[on_board] += 1;
            }
            buf.copy_within(whole..filled, 0);
            filled -= whole;
            if n == 0 {
                break;
            }
        }
        if filled != 0 {
            return Err(DataError::TruncatedFile {
                bytes: count * RECORD_BYTES as u64 + filled as u64,
            });
        }
        self.files.push((name.to_string(), count));
        Ok(())
    }

    /// The smallest |score| with at least `q` of the samples at or below it.
    pub fn score_quantile(&self, q: f64) -> u32 {
        let want = (q * self.samples as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (cp, &n) in self.abs_score.iter().enumerate() {
            seen += n;
            if seen >= want {
                return cp as u32;
            }
        }
        32767
    }

    /// Samples with at most `n` animals on the board.
    pub fn at_most_animals(&self, n: usize) -> u64 {
        self.animals[..=n.min(16)].iter().sum()
    }

    /// Samples `from` plies or more after the last capture.
    pub fn plies_at_least(&self, from: usize) -> u64 {
        self.plies[from.min(255)..].iter().sum()
    }

    /// The report (`manifest`: the games of its shards are reported too).
    pub fn report(&self, manifest: Option<&Manifest>) -> String {
        let n = self.samples.max(1) as f64;
        let pct = |x: u64| 100.0 * x as f64 / n;
        let mut out = String::new();
        let _ = writeln!(out, "files {}, samples {}", self.files.len(), self.samples);
        if let Some(m) = manifest {
            let rows = m.done.values();
            let (mut games, mut red, mut blue, mut rep, mut nocap) = (0, 0, 0, 0, 0);
            for r in rows {
                games += r.games;
                red += r.red_wins;
                blue += r.blue_wins;
                rep += r.repetitions;
                nocap += r.no_capture_draws;
            }
            let g = games.max(1) as f64;
            let _ = writeln!(
                out,
                "games {games} (shards {} of {}): decided {:.1}% (Red {red}, Blue {blue}), drawn by repetition {:.1}%, by the no-capture rule {:.1}%; {:.1} samples a game",
                m.done.len(),
                m.shards,
                100.0 * (red + blue) as f64 / g,
                100.0 * rep as f64 / g,
                100.0 * nocap as f64 / g,
                self.samples as f64 / g
            );
        }
        let _ = writeln!(
            out,
            "samples from decided games {:.1}% (won {:.1}%, lost {:.1}%), from drawn games {:.1}%",
            pct(self.wins + self.losses),
            pct(self.wins),
            pct(self.losses),
            pct(self.samples - self.wins - self.losses)
        );
        let mut classes = String::new();
        let mut from = 0u16;
        for to in PLY_CLASSES {
            let count: u64 = self.plies[usize::from(from)..usize::from(to)].iter().sum();
            let label = if to == 256 {
                format!("{from}+")
            } else {
                format!("{from}-{}", to - 1)
            };
            let _ = write!(classes, " {label} {:.1}%", pct(count));
            from = to;
        }
        let _ = writeln!(
            out,
            "plies since the last capture:{classes}; 50 or more {:.1}%",
            pct(self.plies_at_least(50))
        );
        let beyond: u64 = self.abs_score[301..].iter().sum();
        let _ = writeln!(
            out,
            "|score| (cp): median {}, quartiles {} and {}, 90th percentile {}, beyond 300 {:.1}%",
            self.score_quantile(0.5),
            self.score_quantile(0.25),
            self.score_quantile(0.75),
            self.score_quantile(0.9),
            pct(beyond)
        );
        let mut by_count = String::new();
        for count in (2..=16).rev() {
            if self.animals[count] > 0 {
                let _ = write!(by_count, " {count}: {}", self.animals[count]);
            }
        }
        let _ = writeln!(out, "animals on the board:{by_count}");
        let _ = writeln!(
            out,
            "6 animals or fewer {} ({:.2}%), 4 or fewer {}",
            self.at_most_animals(6),
            pct(self.at_most_animals(6)),
            self.at_most_animals(4)
        );
        for (name, count) in &self.files {
            let _ = writeln!(out, "{name}: {count} samples");
        }
        out
    }
}

/// The statistics of the files at `paths`.
pub fn of_files(paths: &[String]) -> Result<DataStats, String> {
    let mut stats = DataStats::default();
    for path in paths {
        let mut file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", crate::text::quote(path)))?;
        stats
            .add_file(path, &mut io::BufReader::new(&mut file))
            .map_err(|e| format!("{}: {e}", crate::text::quote(path)))?;
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::train::data::{encode, Sample};

    fn sample(fen: &str, score: i16, outcome: Outcome) -> [u8; RECORD_BYTES] {
        encode(&Sample {
            pos: Position::from_fen(fen).expect("valid"),
            score,
            outcome,
        })
    }

    #[test]
    fn counts_results_plies_scores_and_animals() {
        let mut bytes = Vec::new();
        // Two animals, 60 plies since a capture, a win.
        bytes.extend(sample("l6/7/7/7/7/7/7/7/6L r 60 80", 500, Outcome::Win));
        // The start: 16 animals.
        for score in [-10, 20, -30] {
            bytes.extend(sample(&Position::startpos().to_fen(), score, Outcome::Draw));
        }
        let mut stats = DataStats::default();
        stats.add_file("a", &mut bytes.as_slice()).expect("reads");
        stats
            .add_file("b", &mut bytes[..16].as_ref())
            .expect("reads");
        assert_eq!(stats.samples, 5);
        assert_eq!((stats.wins, stats.losses), (2, 0));
        assert_eq!(stats.plies[60], 2);
        assert_eq!(stats.plies_at_least(50), 2);
        assert_eq!((stats.animals[2], stats.animals[16]), (2, 3));
        assert_eq!(stats.at_most_animals(6), 2);
        // |score|: 10 20 30 500 500.
        assert_eq!(stats.score_quantile(0.5), 30);
        assert_eq!(stats.score_quantile(0.2), 10);
        assert_eq!(stats.score_quantile(1.0), 500);
        let report = stats.report(None);
        assert!(
            report.contains("samples from decided games 40.0%"),
            "{report}"
        );
        assert!(report.contains("50 or more 40.0%"), "{report}");
        assert!(report.contains("median 30"), "{report}");
        assert!(report.contains("6 animals or fewer 2 (40.00%)"), "{report}");
        assert!(report.contains("a: 4 samples\nb: 1 samples"), "{report}");
        // A file cut inside a record is an error.
        let err = DataStats::default()
            .add_file("c", &mut bytes[..20].as_ref())
            .expect_err("truncated");
        assert!(matches!(err, DataError::TruncatedFile { bytes: 20 }));
        assert!(of_files(&["/nonexistent/x.bin".into()]).is_err());
    }
}
