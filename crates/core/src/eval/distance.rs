//! Shortest-path distances to the enemy den, computed once at compile time.
//!
//! Three ways of moving (see `Mover`): land walkers, the swimming rat and the jumping
//! lion and tiger. Paths ignore every animal on the board (rats blocking jumps
//! included) and never pass through the mover's own den, which no animal may enter.

use crate::board::geometry::WATER;
use crate::board::piece::{Animal, Color};
use crate::board::square::{Square, FILES, RANKS};

/// Distance of a square the mover can never stand on (water for non-rats, the own
/// den) and of the "captured" slot 63.
pub const UNREACHABLE: u8 = u8::MAX;

/// How an animal travels.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mover {
    /// Land squares only: cat, dog, wolf, leopard, elephant.
    Walker = 0,
    /// Land and water: the rat.
    Swimmer = 1,
    /// Land steps plus river jumps: lion and tiger.
    Jumper = 2,
}

impl Mover {
    #[inline]
    pub const fn of(animal: Animal) -> Mover {
        match animal {
            Animal::Rat => Mover::Swimmer,
            Animal::Lion | Animal::Tiger => Mover::Jumper,
            _ => Mover::Walker,
        }
    }
}

/// `DISTANCE[color][mover][square]`: moves `color`'s animal needs from `square` to
/// enter the enemy den (0 on the enemy den itself). Index 63 is `UNREACHABLE`.
pub static DISTANCE: [[[u8; 64]; 3]; 2] = [
    [
        build(Color::Red, Mover::Walker),
        build(Color::Red, Mover::Swimmer),
        build(Color::Red, Mover::Jumper),
    ],
    [
        build(Color::Blue, Mover::Walker),
        build(Color::Blue, Mover::Swimmer),
        build(Color::Blue, Mover::Jumper),
    ],
];

/// Moves `color`'s `animal` needs from `sq` to the enemy den, ignoring other animals.
#[inline]
pub fn to_enemy_den(color: Color, animal: Animal, sq: Square) -> u8 {
    DISTANCE[color.index()][Mover::of(animal) as usize][sq.index()]
}

const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn is_water(s: usize) -> bool {
    WATER.0 >> s & 1 != 0
}

/// The square one step from (file, rank) in direction `d`, if on the board.
const fn step(file: i8, rank: i8, d: usize) -> Option<(i8, i8)> {
    let f = file + DIRS[d].0;
    let r = rank + DIRS[d].1;
    if f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
        Some((f, r))
    } else {
        None
    }
}

const fn index(f: i8, r: i8) -> usize {
    r as usize * FILES as usize + f as usize
}

/// Breadth-first search backwards from the enemy den. Every move is reversible (steps
/// and river jumps alike), so the distance from a square to the den equals the
/// distance from the den to the square.
const fn build(color: Color, mover: Mover) -> [u8; 64] {
    // Red's den is d1 (3), Blue's d9 (59).
    let (target, own_den) = match color {
        Color::Red => (59usize, 3usize),
        Color::Blue => (3usize, 59usize),
    };
    let mut dist = [UNREACHABLE; 64];
    let mut queue = [0usize; 64];
    let (mut head, mut tail) = (0usize, 0usize);
    dist[target] = 0;
    queue[tail] = target;
    tail += 1;
    while head < tail {
        let s = queue[head];
        head += 1;
        let file = (s % FILES as usize) as i8;
        let rank = (s / FILES as usize) as i8;
        let mut d = 0;
        while d < 4 {
            // One orthogonal step.
            if let Some((f, r)) = step(file, rank, d) {
                let n = index(f, r);
                let passable = n != own_den && (matches!(mover, Mover::Swimmer) || !is_water(n));
                if passable && dist[n] == UNREACHABLE {
                    dist[n] = dist[s] + 1;
                    queue[tail] = n;
                    tail += 1;
                }
            }
            // A river jump: straight over at least one water square to the first land
            // square beyond, from land only.
            if matches!(mover, Mover::Jumper) && !is_water(s) {
                let (mut f, mut r) = (file, rank);
                let mut crossed = 0;
                let mut landing = None;
                while let Some((nf, nr)) = step(f, r, d) {
                    if is_water(index(nf, nr)) {
                        crossed += 1;
                        f = nf;
                        r = nr;
                    } else {
                        if crossed > 0 {
                            landing = Some(index(nf, nr));
                        }
                        break;
                    }
                }
                if let Some(n) = landing {
                    if n != own_den && dist[n] == UNREACHABLE {
                        dist[n] = dist[s] + 1;
                        queue[tail] = n;
                        tail += 1;
                    }
                }
            }
            d += 1;
        }
    }
    dist
}
