//! Who plays which side, and how strongly the engine plays a person: the players, the
//! level (one of `LEVEL_NAMES`, turned into the engine's strength options) and the
//! engine's time per move.

use crate::api::Players;
use crate::board::Color;
use crate::engines::{EngineInfo, PLAYER, SECOND};

/// Named strength levels, weakest first; the last is full strength.
pub const LEVEL_NAMES: [&str; 8] = [
    "Beginner",
    "Novice",
    "Casual",
    "Club",
    "Strong",
    "Expert",
    "Master",
    "Full strength",
];

/// The level of a new board: Novice, for someone who has never played (full strength
/// is the last level, one choice away).
pub const FIRST_LEVEL: u32 = 2;

#[derive(Clone, Debug)]
pub struct Seats {
    pub players: Players,
    /// 1 ..= LEVEL_NAMES.len().
    pub level: u32,
    /// The engine's thinking time per move against a person.
    pub movetime_ms: u64,
}

impl Seats {
    pub fn new(movetime_ms: u64) -> Seats {
        Seats {
            players: Players::Red,
            level: FIRST_LEVEL,
            movetime_ms,
        }
    }

    /// Who plays `color`: `None` for a person, else the engine slot.
    pub fn seat(&self, color: Color) -> Option<usize> {
        match (self.players, color) {
            (Players::Red, Color::Blue) | (Players::Blue, Color::Red) => Some(PLAYER),
            (Players::Engines, Color::Red) => Some(PLAYER),
            (Players::Engines, Color::Blue) => Some(SECOND),
            _ => None,
        }
    }

    /// The level the playing engine plays at: the chosen one against a person, full
    /// strength in a game between engines.
    fn playing_level(&self) -> u32 {
        if self.players == Players::Engines {
            LEVEL_NAMES.len() as u32
        } else {
            self.level
        }
    }

    /// The strength options that give the playing engine `engine` the level: its
    /// `UCI_Elo` scale split evenly, else its `Skill Level`; `None` before it has
    /// declared its options, an empty list when it has neither.
    pub fn strength_options(&self, engine: &EngineInfo) -> Option<Vec<(String, String)>> {
        let top = LEVEL_NAMES.len() as u32;
        let level = self.playing_level();
        let share =
            |min: i64, max: i64| min + (max - min) * i64::from(level - 1) / i64::from(top - 1);
        if let Some((min, max)) = engine.spin("UCI_Elo") {
            let limit = level < top;
            let mut options = vec![("UCI_LimitStrength".to_string(), limit.to_string())];
            if limit {
                options.push(("UCI_Elo".to_string(), share(min, max).to_string()));
            }
            Some(options)
        } else if let Some((min, max)) = engine.spin("Skill Level") {
            Some(vec![(
                "Skill Level".to_string(),
                share(min, max).to_string(),
            )])
        } else if engine.options.is_empty() {
            None
        } else {
            Some(Vec::new())
        }
    }

    /// The Elo (on the engine's `UCI_Elo` scale) of each level, when it has one.
    pub fn level_elos(engine: &EngineInfo) -> Option<Vec<Option<i64>>> {
        let (min, max) = engine.spin("UCI_Elo")?;
        let top = LEVEL_NAMES.len() as i64;
        Some(
            (1..=top)
                .map(|l| (l < top).then(|| min + (max - min) * (l - 1) / (top - 1)))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(options: &[&str]) -> EngineInfo {
        EngineInfo {
            name: "e".into(),
            id_name: Some("e".into()),
            options: options.iter().map(|o| o.to_string()).collect(),
        }
    }

    #[test]
    fn levels_split_the_engines_scale() {
        let mut seats = Seats::new(1000);
        let elo = engine(&["name UCI_Elo type spin default 1000 min 1000 max 2400"]);
        seats.level = 1;
        assert_eq!(
            seats.strength_options(&elo),
            Some(vec![
                ("UCI_LimitStrength".into(), "true".into()),
                ("UCI_Elo".into(), "1000".into())
            ])
        );
        seats.level = 8;
        assert_eq!(
            seats.strength_options(&elo),
            Some(vec![("UCI_LimitStrength".into(), "false".into())])
        );
        let skill = engine(&["name Skill Level type spin default 20 min 0 max 20"]);
        seats.level = 4;
        assert_eq!(
            seats.strength_options(&skill),
            Some(vec![("Skill Level".into(), "8".into())])
        );
        assert_eq!(seats.strength_options(&EngineInfo::default()), None);
        assert_eq!(
            seats.strength_options(&engine(&["name Hash type spin default 1 min 1 max 9"])),
            Some(vec![])
        );
        // Between engines: full strength.
        seats.players = Players::Engines;
        seats.level = 1;
        assert_eq!(
            seats.strength_options(&elo),
            Some(vec![("UCI_LimitStrength".into(), "false".into())])
        );
        let elos = Seats::level_elos(&elo).expect("a scale");
        assert_eq!((elos[0], elos[7]), (Some(1000), None));
    }

    #[test]
    fn seats_follow_the_players() {
        let mut seats = Seats::new(1000);
        assert_eq!(
            (seats.seat(Color::Red), seats.seat(Color::Blue)),
            (None, Some(PLAYER))
        );
        seats.players = Players::Engines;
        assert_eq!(
            (seats.seat(Color::Red), seats.seat(Color::Blue)),
            (Some(PLAYER), Some(SECOND))
        );
        seats.players = Players::Both;
        assert_eq!(seats.seat(Color::Blue), None);
    }
}
