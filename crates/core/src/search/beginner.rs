//! How the weakest levels choose a move: like a beginner, not like a weakened engine.
//!
//! A beginner has a plan and a narrow view. The plan: walk the animals towards the
//! enemy den, take what can be taken, go for the opponent's animals, and enter the den
//! whenever it can (it never passes that up). The view is one move deep and has gaps,
//! each of a kind people have, and a `Profile` sets how wide each gap is:
//!
//! - `attention`: for every move it weighs, it looks at the captures (and den entries)
//!   the opponent would have in reply and notices each with this chance: a den entry
//!   next move or an attack on the animal just moved at the full chance, an attack on
//!   another animal (a threat already there, or one the move uncovers) less often
//!   (`less_often`), a hidden one least often (`least_often`): a river jump of a lion
//!   or tiger, a rat on an elephant, a weaker animal that can take because the victim
//!   stands in a trap. At 100 it notices every one.
//! - `sight`: it sees each of its own plain captures with this chance, a hidden one
//!   (the same three kinds) least often. A capture it does not see it weighs as the
//!   step it is.
//! - `confusion`: it misjudges the ranks. It believes its animal attacks an enemy
//!   animal next to it that is up to this many ranks stronger, and goes for it, so it
//!   walks into the reach of animals it cannot take.
//!
//! Each chance is drawn once per search for each reply or capture (the draw depends on
//! the move, not on the candidate being weighed), so an overlooked threat is
//! overlooked for every candidate, as a person overlooks it. The move played has the
//! best sum of the material it sees itself taking, 20 for each step nearer the enemy
//! den, the worth of the best animal it believes it attacks next, minus the worst loss
//! it notices, plus a random spread of 0–39 that varies equal-looking choices. It does
//! not look further: a threat two moves deep, a trap that closes later or a defender it
//! could have brought are beyond it at every profile.

use crate::board::geometry::{distance, DEN, DEN_BB, NEIGHBOURS, TRAPS};
use crate::board::movegen::generate_to_with;
use crate::board::{Animal, Move, MoveList, MoveRules, Position};
use crate::rng::Rng;

/// The game itself in the beginner's reckoning: above any material.
const GAME: i32 = 100_000;
/// A step nearer the enemy den (Manhattan distance).
const ADVANCE: i32 = 20;
/// The random spread added to each move's value (0 to this, exclusive).
const SPREAD: u64 = 40;

/// What an animal is worth to a beginner: its rank (a rat taking the elephant takes
/// an elephant).
fn worth(a: Animal) -> i32 {
    100 * i32::from(a.rank())
}

/// How wide the beginner's gaps are (see the module's comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The chance, in percent, of noticing a plain threat.
    pub attention: u32,
    /// The chance, in percent, of seeing a plain capture of its own.
    pub sight: u32,
    /// How many ranks above its own it believes an animal can attack.
    pub confusion: u8,
}

/// The kinds of capture (and den entry), from the easiest to see to the easiest to
/// miss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The opponent enters the den next move.
    DenEntry,
    /// The animal just moved can be taken.
    OnMoved,
    /// Another animal can be taken.
    OnOther,
    /// A river jump, a rat on an elephant, or a capture only the trap allows.
    Hidden,
    /// One of the beginner's own plain captures.
    OwnPlain,
    /// One of its own hidden captures.
    OwnHidden,
}

/// The beginner's view for one search.
#[derive(Clone, Copy, Debug)]
pub struct Beginner {
    pub profile: Profile,
    pub seed: u64,
}

impl Beginner {
    /// Index into `moves` (the legal moves of `pos`, non-empty) of the move to play.
    pub fn choose<R: MoveRules>(self, pos: &Position, moves: &[Move]) -> usize {
        if let Some(den) = moves.iter().position(|&m| pos.is_den_entry(m)) {
            return den;
        }
        let mut best = (i32::MIN, 0);
        for (i, &m) in moves.iter().enumerate() {
            let spread = (self.draw(m, 0xF00D) % SPREAD) as i32;
            let value = self.value::<R>(pos, m) + spread;
            if value > best.0 {
                best = (value, i);
            }
        }
        best.1
    }

    /// What `m` looks like: material it sees itself take, steps gained, the attack it
    /// believes it makes, minus the worst loss it notices in reply.
    fn value<R: MoveRules>(self, pos: &Position, m: Move) -> i32 {
        let den = DEN[pos.side_to_move().other().index()];
        let steps = i32::from(distance(m.from(), den)) - i32::from(distance(m.to(), den));
        let gain = match pos.captured_by(m) {
            Some(victim) if self.notices(m, own_kind(pos, m, victim)) => worth(victim),
            _ => 0,
        };
        let mut after = *pos;
        after.play(m);
        gain + ADVANCE * steps + self.attack_believed::<R>(&after, m) - self.danger::<R>(&after, m)
    }

    /// The worst noticed loss among the opponent's replies in `after` (the position
    /// after `m`): a den entry loses the game, a capture the animal.
    fn danger<R: MoveRules>(self, after: &Position, m: Move) -> i32 {
        let us = after.side_to_move().other();
        let mut replies = MoveList::new();
        let targets = after.occupied(us) | DEN_BB[us.index()];
        generate_to_with::<R>(after, targets, &mut replies);
        replies
            .as_slice()
            .iter()
            .map(|&r| match after.captured_by(r) {
                None => (GAME, Kind::DenEntry, r),
                Some(victim) => (worth(victim), threat_kind(after, m, r, victim), r),
            })
            .filter(|&(_, kind, r)| self.notices(r, kind))
            .map(|(loss, _, _)| loss)
            .max()
            .unwrap_or(0)
    }

    /// The most valuable enemy animal the mover of `m` could take next if the
    /// opponent let it, or believes it could: one next to it up to `confusion` ranks
    /// stronger (`after` is the position after `m`).
    fn attack_believed<R: MoveRules>(self, after: &Position, m: Move) -> i32 {
        let Some(mover) = after.piece_at(m.to()) else {
            return 0;
        };
        let reach = mover.animal.rank() + self.profile.confusion;
        let believed = NEIGHBOURS[m.to().index()]
            .into_iter()
            .filter_map(|sq| after.piece_at(sq))
            .filter(|p| p.color == after.side_to_move())
            .filter(|p| p.animal.rank() <= reach)
            .map(|p| worth(p.animal));
        attack_made::<R>(after, m).max(believed.max().unwrap_or(0))
    }

    /// True when the beginner sees the capture or den entry `r` of this kind.
    fn notices(self, r: Move, kind: Kind) -> bool {
        let (attention, sight) = (self.profile.attention, self.profile.sight);
        let chance = match kind {
            Kind::DenEntry | Kind::OnMoved => attention,
            Kind::OnOther => less_often(attention),
            Kind::Hidden => least_often(attention),
            Kind::OwnPlain => sight,
            Kind::OwnHidden => least_often(sight),
        };
        self.draw(r, kind as u64) % 100 < u64::from(chance)
    }

    /// A random number fixed for this search, this move and this purpose.
    fn draw(self, m: Move, purpose: u64) -> u64 {
        Rng::new(self.seed ^ (u64::from(m.raw()) << 16 | purpose)).next_u64()
    }
}

/// The chance (percent) of noticing a less obvious threat: `p (p + 100) / 200`, all of
/// them at 100, about 3/4 of `p` at 50, none at 0.
fn less_often(p: u32) -> u32 {
    p * (p + 100) / 200
}

/// The chance (percent) of noticing a hidden capture: `p² / 100`, all of them at 100,
/// a quarter at 50.
fn least_often(p: u32) -> u32 {
    p * p / 100
}

/// True when the capture `r` of `victim` in `pos` is of a kind people overlook: a
/// river jump, a rat on an elephant, or a weaker animal taking one in its trap.
fn hidden(pos: &Position, r: Move, victim: Animal) -> bool {
    let attacker = pos.mover(r);
    let jump = distance(r.from(), r.to()) > 1;
    let rat_on_elephant = attacker == Animal::Rat && victim == Animal::Elephant;
    let by_trap =
        attacker.rank() < victim.rank() && TRAPS[pos.side_to_move().index()].contains(r.to());
    jump || rat_on_elephant || by_trap
}

/// The kind of the beginner's own capture `m` of `victim`.
fn own_kind(pos: &Position, m: Move, victim: Animal) -> Kind {
    if hidden(pos, m, victim) {
        Kind::OwnHidden
    } else {
        Kind::OwnPlain
    }
}

/// The kind of the reply `r`, a capture of `victim` in `after`, the position after `m`.
fn threat_kind(after: &Position, m: Move, r: Move, victim: Animal) -> Kind {
    if hidden(after, r, victim) {
        Kind::Hidden
    } else if r.to() == m.to() {
        Kind::OnMoved
    } else {
        Kind::OnOther
    }
}

/// The most valuable animal the mover of `m` could take next, if the opponent let it
/// (`after` is the position after `m`).
fn attack_made<R: MoveRules>(after: &Position, m: Move) -> i32 {
    let mut again = *after;
    again.play_null();
    let mut captures = MoveList::new();
    let targets = again.occupied(again.side_to_move().other());
    generate_to_with::<R>(&again, targets, &mut captures);
    captures
        .as_slice()
        .iter()
        .filter(|c| c.from() == m.to())
        .filter_map(|&c| again.captured_by(c))
        .map(worth)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod games;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::Standard;
    use crate::search::strength::LEVELS;

    /// The first level's profile.
    fn first_level() -> Profile {
        LEVELS[0].beginner.expect("the first level is a beginner")
    }

    /// Sees everything, knows the ranks.
    const WATCHFUL: Profile = Profile {
        attention: 100,
        sight: 100,
        confusion: 0,
    };

    /// Sees nothing, knows no ranks.
    const BLIND: Profile = Profile {
        attention: 0,
        sight: 0,
        confusion: 7,
    };

    fn choose(fen: &str, profile: Profile, seed: u64) -> String {
        let pos = Position::from_fen(fen).expect("valid");
        let moves = legal_moves(&pos);
        let i = Beginner { profile, seed }.choose::<Standard>(&pos, moves.as_slice());
        moves.as_slice()[i].to_string()
    }

    /// How many of the searches with seeds 0..n play `m`.
    fn count(fen: &str, profile: Profile, n: u64, m: &str) -> usize {
        (0..n)
            .filter(|&seed| choose(fen, profile, seed) == m)
            .count()
    }

    /// Positions where the side to move can take an animal that nothing takes back,
    /// each with a capture of it (taking it with another animal counts too): a free
    /// elephant, wolf, dog, cat and leopard; one taken by a river jump, one by the rat,
    /// one in a trap, and the other side's rat on an elephant.
    const HANGING: [(&str, &str); 10] = [
        ("l5t/7/7/3e3/3E3/7/7/7/T5L r", "d5d6"),
        ("l5t/1d3c1/r1p3e/7/7/7/E1WwP1R/1C3D1/T5L r", "c3d3"),
        ("l5t/5c1/r1p1w1e/7/7/d6/E1W1P1R/1C3D1/T5L r", "a3a4"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1LWP1R/1C3D1/T6 r", "c3c7"),
        ("l5t/1d3c1/r1p1w2/7/7/6e/E1W1P1R/1C3D1/T5L r", "g3g4"),
        ("l6/1d3c1/r1p1w1e/7/7/7/E1W1P1R/2Ct1D1/T5L r", "c2d2"),
        ("l5t/1d3c1/r1p3e/7/7/7/E1W1PwR/1C3D1/T5L r", "e3f3"),
        ("l5t/1d5/r1p1w1e/7/3c3/3D3/E1W1P1R/1C5/T5L r", "d4d5"),
        ("l5t/1d3c1/r1p3e/7/T2w3/7/E1W1P1R/1C3D1/6L r", "a5d5"),
        ("l5t/1d3c1/2p1w1e/7/7/r6/E1W1P1R/1C3D1/T5L b", "a4a3"),
    ];

    #[test]
    fn the_hanging_animals_hang() {
        for (fen, capture) in HANGING {
            let pos = Position::from_fen(fen).expect("valid");
            let m = pos.parse_move(capture).expect("legal");
            assert!(pos.is_capture(m), "{fen} {capture}");
            let mut after = pos;
            after.play(m);
            let retake = legal_moves(&after)
                .as_slice()
                .iter()
                .any(|r| r.to() == m.to() || after.is_den_entry(*r));
            assert!(!retake, "{fen} {capture}");
        }
    }

    /// How many of the 200 searches (10 positions, seeds 0..20) take the animal that
    /// hangs.
    fn hanging_taken(profile: Profile) -> usize {
        HANGING
            .iter()
            .map(|(fen, capture)| {
                (0..20)
                    .filter(|&seed| choose(fen, profile, seed).ends_with(&capture[2..]))
                    .count()
            })
            .sum()
    }

    #[test]
    fn the_first_level_takes_most_of_what_hangs() {
        // Fixed seeds: the count is fixed too. The weakest level before the beginner
        // took 28 of 200 (`UCI_Elo` 1016, depth 1, softmax at 1200 cp, measured
        // through the engine).
        let taken = hanging_taken(first_level());
        eprintln!("hanging alone: taken in {taken} of 200");
        assert!(taken > 100, "{taken} of 200");
        assert_eq!(hanging_taken(WATCHFUL), 200);
    }

    #[test]
    fn it_takes_a_free_elephant_and_never_passes_up_the_den() {
        let (elephant, capture) = HANGING[0];
        assert_eq!(count(elephant, WATCHFUL, 50, capture), 50);
        let taken = count(elephant, first_level(), 50, capture);
        assert!(taken > 25, "{taken} of 50");
        // The rat on d8 can take the elephant on e8 or enter the den: it enters,
        // however little it sees.
        for profile in [BLIND, first_level(), WATCHFUL] {
            assert_eq!(count("6l/3Re2/7/7/7/7/7/7/6L r", profile, 50, "d8d9"), 50);
        }
    }

    #[test]
    fn it_advances() {
        let start = Position::startpos();
        let den = DEN[1];
        let forward = (0..100)
            .filter(|&seed| {
                let m = start
                    .parse_move(&choose(crate::board::START_FEN, first_level(), seed))
                    .expect("legal");
                distance(m.to(), den) < distance(m.from(), den)
            })
            .count();
        assert!(forward >= 90, "{forward} of 100 forward");
    }

    #[test]
    fn attention_decides_whether_a_plain_attack_is_seen() {
        // The red dog on d3 steps forward into the blue lion's reach on d5 (d3d4) only
        // when it does not look.
        let fen = "e5t/7/7/7/3l3/7/3D3/7/T6 r";
        assert_eq!(count(fen, WATCHFUL, 50, "d3d4"), 0);
        let careless = Profile {
            attention: 0,
            ..WATCHFUL
        };
        assert!(count(fen, careless, 50, "d3d4") > 10);
    }

    #[test]
    fn attention_decides_whether_the_den_is_defended() {
        // The blue rat on d2 enters the red den next; the red cat on c2 can take it, the
        // red elephant on a3 can take the lion on a4 instead.
        let fen = "6t/7/7/7/7/l6/E6/2Cr3/7 r";
        assert_eq!(count(fen, WATCHFUL, 50, "c2d2"), 50);
        let careless = Profile {
            attention: 0,
            ..WATCHFUL
        };
        assert_eq!(count(fen, careless, 50, "c2d2"), 0);
    }

    #[test]
    fn confusion_lures_it_next_to_stronger_animals() {
        // The red cat on d4 can step forward to d5 or back to d3, next to the blue
        // leopard on e3, which it can only attack in its confusion.
        let fen = "l6/7/7/7/7/3C3/4p2/7/6L r";
        let knows_ranks = Profile {
            attention: 0,
            ..WATCHFUL
        };
        assert_eq!(count(fen, knows_ranks, 50, "d4d3"), 0);
        let confused = Profile {
            confusion: 3,
            ..knows_ranks
        };
        assert_eq!(count(fen, confused, 50, "d4d3"), 50);
    }

    #[test]
    fn sight_decides_whether_its_own_captures_are_seen() {
        // The red lion on d5 can take the blue wolf behind it on d4; without seeing
        // that, it is a step back.
        let fen = "l6/7/7/7/3L3/3w3/7/7/6T r";
        assert_eq!(count(fen, WATCHFUL, 50, "d5d4"), 50);
        let blind = Profile {
            sight: 0,
            ..WATCHFUL
        };
        assert_eq!(count(fen, blind, 50, "d5d4"), 0);
        let half = Profile {
            sight: 50,
            ..WATCHFUL
        };
        assert!((15..=35).contains(&count(fen, half, 50, "d5d4")));
    }
}
