//! Counting moves without making them: the number of legal moves of a side (perft's
//! last ply, the search's no-move checks, the classical evaluation's mobility) and
//! the leaves two plies deep (perft's last two plies).
//!
//! Moves onto empty squares need no ranks: the land animals' steps are four shifts of
//! one set, the swimmers' and the jumpers' come from their tables, and each is counted
//! by one popcount. Captures need the ranks: they are counted by each animal's
//! destinations (`movegen`), and only when an enemy is next to one of ours or at an
//! open jump's end, which is rare.

use super::bitboard::Bitboard;
use super::geometry::{own_den, DEN_BB, JUMPS, LAND, NEIGHBOURS, SQUARE_BB};
use super::movegen::{may_capture, open_jumps, Destinations};
use super::moves::Move;
use super::piece::{Animal, Color};
use super::position::{Position, CAPTURED, EMPTY};
use super::rules::{MoveRules, Standard};
use super::square::{Square, FILES};

/// Where the animals of one side step and jump, captures aside: eight sets, so that
/// the moves onto the free squares `F` are `Σ popcount(set & F)`.
#[derive(Clone, Copy)]
struct Reach {
    /// 0–3: the land animals' neighbours on land, one set per direction, so that each
    /// animal has at most one bit in each. 4–5: the landing squares of the tiger's and
    /// the lion's open river jumps. 6–7: the swimmers' neighbours, land or water: the
    /// rat's, and the dog's when dogs swim.
    sets: [Bitboard; 8],
}

const LANDINGS: usize = 4;

impl Reach {
    #[inline(always)]
    fn of<R: MoveRules>(side: Color, occupied: &[Bitboard; 2], squares: &[[u8; 8]; 2]) -> Reach {
        let own = &squares[side.index()];
        let rat = SQUARE_BB[own[Animal::Rat.index()] as usize];
        let dog = SQUARE_BB[own[Animal::Dog.index()] as usize];
        // Only the rat swims (and the dog, when dogs swim): every other animal stands
        // on land and steps onto land.
        let walkers = if R::DOG_SWIMS {
            occupied[side.index()].minus(rat | dog)
        } else {
            occupied[side.index()].minus(rat)
        };
        let swims = |a: Animal| NEIGHBOURS[own[a.index()] as usize];
        let [tiger, lion] = landings(own, jump_blockers::<R>(squares));
        Reach {
            sets: [
                walkers.north() & LAND,
                walkers.south() & LAND,
                walkers.east() & LAND,
                walkers.west() & LAND,
                tiger,
                lion,
                swims(Animal::Rat),
                if R::DOG_SWIMS {
                    swims(Animal::Dog)
                } else {
                    Bitboard::EMPTY
                },
            ],
        }
    }

    /// The moves onto `free`, the empty squares the side may enter.
    #[inline(always)]
    fn count_onto(&self, free: Bitboard) -> u32 {
        self.sets.iter().map(|s| (*s & free).count()).sum()
    }

    /// Every square a move may land on, captures included.
    #[inline(always)]
    fn all(&self) -> Bitboard {
        self.sets.iter().fold(Bitboard::EMPTY, |all, s| all | *s)
    }
}

/// The eight sets of a `Reach` added up square by square, as a 3-bit number per square
/// in three bitboards (bit-sliced; no square is in more than six sets: four
/// neighbours and two jumps), so that `Σ popcount(set & F)` takes three popcounts.
#[derive(Clone, Copy)]
struct Multiplicity([Bitboard; 3]);

impl Multiplicity {
    #[inline(always)]
    fn of(reach: &Reach) -> Multiplicity {
        let [mut ones, mut twos, mut fours] = [Bitboard::EMPTY; 3];
        for set in reach.sets {
            let carry = ones & set;
            ones ^= set;
            let carry2 = twos & carry;
            twos ^= carry;
            fours |= carry2;
        }
        Multiplicity([ones, twos, fours])
    }

    #[inline(always)]
    fn count_onto(&self, free: Bitboard) -> u32 {
        let [ones, twos, fours] = self.0;
        (ones & free).count() + 2 * (twos & free).count() + 4 * (fours & free).count()
    }
}

/// The open jumps of the tiger and the lion standing on `own`'s squares.
#[inline(always)]
fn landings(own: &[u8; 8], blockers: Bitboard) -> [Bitboard; 2] {
    [
        open_jumps(own[Animal::Tiger.index()] as usize, blockers),
        open_jumps(own[Animal::Lion.index()] as usize, blockers),
    ]
}

/// The animals whose water squares block a river jump: both rats, and both dogs when
/// dogs swim.
#[inline(always)]
fn jump_blockers<R: MoveRules>(squares: &[[u8; 8]; 2]) -> Bitboard {
    let bb_of = |c: Color, a: Animal| SQUARE_BB[squares[c.index()][a.index()] as usize];
    let rats = bb_of(Color::Red, Animal::Rat) | bb_of(Color::Blue, Animal::Rat);
    if R::DOG_SWIMS {
        rats | bb_of(Color::Red, Animal::Dog) | bb_of(Color::Blue, Animal::Dog)
    } else {
        rats
    }
}

/// The squares `side` enters without capturing: empty, and never its own den.
#[inline(always)]
fn free_for(side: Color, occupied: &[Bitboard; 2]) -> Bitboard {
    !(occupied[0] | occupied[1] | own_den(side))
}

/// The number of legal moves, counted without building them (perft's last ply).
#[inline]
pub fn count_with<R: MoveRules>(pos: &Position) -> u32 {
    count_parts::<R>(pos.side, &pos.occupied, &pos.squares)
}

/// Number of legal moves under the default rules.
#[inline]
pub fn count(pos: &Position) -> u32 {
    count_with::<Standard>(pos)
}

/// How many moves `side` would have here if it were its turn (for evaluation);
/// 0 when the game is over on the board.
#[inline]
pub fn mobility(pos: &Position, side: Color) -> u32 {
    count_parts::<Standard>(side, &pos.occupied, &pos.squares)
}

/// How many moves `side` would have here if it were its turn, under the move rules
/// `R`; 0 when the game is over on the board.
#[inline]
pub fn mobility_with<R: MoveRules>(pos: &Position, side: Color) -> u32 {
    count_parts::<R>(side, &pos.occupied, &pos.squares)
}

/// The number of legal replies after `m`, without making the whole move (no key,
/// mailbox or counters).
#[inline]
pub fn count_after_with<R: MoveRules>(pos: &Position, m: Move) -> u32 {
    let (from, to) = (m.from().index(), m.to().index());
    let us = pos.side;
    let them = us.other();
    let mut occupied = pos.occupied;
    let mut squares = pos.squares;
    let captured = pos.mailbox[to];
    if captured != EMPTY {
        occupied[them.index()] ^= Bitboard(1 << to);
        squares[them.index()][captured as usize & 7] = CAPTURED;
    }
    occupied[us.index()] ^= Bitboard(1 << from | 1 << to);
    squares[us.index()][pos.mailbox[from] as usize & 7] = to as u8;
    count_parts::<R>(them, &occupied, &squares)
}

/// The number of legal moves of `side` (whether or not it is its turn).
#[inline(always)]
pub(super) fn count_parts<R: MoveRules>(
    side: Color,
    occupied: &[Bitboard; 2],
    squares: &[[u8; 8]; 2],
) -> u32 {
    let in_den = (occupied[0] & DEN_BB[1]) | (occupied[1] & DEN_BB[0]);
    if in_den.any() || occupied[0].is_empty() || occupied[1].is_empty() {
        return 0;
    }
    let reach = Reach::of::<R>(side, occupied, squares);
    let mut count = reach.count_onto(free_for(side, occupied));
    // Every capture lands on an enemy next to one of ours (on land, but for the
    // swimmers) or at an open jump's end.
    if (reach.all() & occupied[side.other().index()]).any() {
        count += count_captures::<R>(side, occupied, squares, &reach);
    }
    count
}

/// The captures of `side`, whose reach is `reach`: for each enemy in reach, the
/// animals next to it, and the jumpers landing on it, that may take it.
#[inline(never)]
fn count_captures<R: MoveRules>(
    side: Color,
    occupied: &[Bitboard; 2],
    squares: &[[u8; 8]; 2],
    reach: &Reach,
) -> u32 {
    let them = side.other().index();
    let mut count = 0;
    for to in reach.all() & occupied[them] {
        let to = to.index();
        let victim = animal_on(&squares[them], to);
        count += captures_onto::<R>(side, occupied, squares, reach, victim, to);
    }
    count
}

/// The captures by `side` (whose reach is `reach`) of the enemy `victim` standing on
/// `to`: by the animals next to it and the jumpers landing on it, each checked by the
/// capture rules.
#[inline(always)]
fn captures_onto<R: MoveRules>(
    side: Color,
    occupied: &[Bitboard; 2],
    squares: &[[u8; 8]; 2],
    reach: &Reach,
    victim: Animal,
    to: usize,
) -> u32 {
    let own = &squares[side.index()];
    let may_take = |attacker: Animal, from: usize| {
        u32::from(may_capture::<R>(side, attacker, from, victim, to))
    };
    let mut count = 0;
    for from in NEIGHBOURS[to] & occupied[side.index()] {
        count += may_take(animal_on(own, from.index()), from.index());
    }
    for (i, jumper) in [Animal::Tiger, Animal::Lion].into_iter().enumerate() {
        if (reach.sets[LANDINGS + i].0 >> to) & 1 != 0 {
            count += may_take(jumper, own[jumper.index()] as usize);
        }
    }
    count
}

/// The replies' captures onto each of the mover's animals in their reach, before the
/// mover's move, as a 3-bit number per square (at most six: four neighbours and two
/// jumps), and their sum.
#[inline(never)]
fn captures_by_square<R: MoveRules>(
    them: Color,
    occupied: &[Bitboard; 2],
    squares: &[[u8; 8]; 2],
    replies: &Reach,
    attacked: Bitboard,
) -> (Multiplicity, u32) {
    let us = them.other().index();
    let mut planes = [Bitboard::EMPTY; 3];
    let mut total = 0;
    for sq in attacked {
        let to = sq.index();
        let victim = animal_on(&squares[us], to);
        let n = captures_onto::<R>(them, occupied, squares, replies, victim, to);
        total += n;
        for (bit, plane) in planes.iter_mut().enumerate() {
            if (n >> bit) & 1 != 0 {
                *plane |= Bitboard::from_square(sq);
            }
        }
    }
    (Multiplicity(planes), total)
}

/// The animal of a side standing on `sq` (which one of its animals occupies): the
/// byte equal to `sq` among its eight squares, found eight at a time.
#[inline(always)]
fn animal_on(squares: &[u8; 8], sq: usize) -> Animal {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let equal = u64::from_le_bytes(*squares) ^ (ONES * sq as u64);
    // The lowest zero byte of `equal` has the lowest set bit here (exact for it).
    let zero_bytes = equal.wrapping_sub(ONES) & !equal & (ONES << 7);
    Animal::from_index(zero_bytes.trailing_zeros() as usize / 8)
}

/// What the replies to the mover's quiet steps are counted from (see
/// `count_two_plies`): the replies' reach and its multiplicity, and their captures onto
/// each of the mover's animals before the move.
struct QuietSteps<'a> {
    /// The replies after a move that changes neither their reach nor their captures.
    unchanged: u64,
    multiplicity: Multiplicity,
    capture_planes: Multiplicity,
    captures_before: u32,
    reply_reach: Bitboard,
    replies: &'a Reach,
    them: Color,
    occupied: &'a [Bitboard; 2],
    squares: &'a [[u8; 8]; 2],
}

impl QuietSteps<'_> {
    /// The replies to the steps onto `to` of one direction, each from `DELTA` squares
    /// back: `|T| (M + C) + Σm(F) - Σm(T) - Σc(F)`, and the captures onto the moved
    /// animal for the steps into the replies' reach.
    #[inline(always)]
    fn direction<R: MoveRules, const DELTA: isize>(&self, to: Bitboard) -> u64 {
        let from = Bitboard(if DELTA > 0 {
            to.0 >> DELTA
        } else {
            to.0 << -DELTA
        });
        let mut count = u64::from(to.count()) * self.unchanged
            + u64::from(self.multiplicity.count_onto(from))
            - u64::from(self.multiplicity.count_onto(to));
        if self.captures_before != 0 {
            count -= u64::from(self.capture_planes.count_onto(from));
        }
        let mover_squares = &self.squares[self.them.other().index()];
        for t in to & self.reply_reach {
            let t = t.index();
            let mover = animal_on(mover_squares, (t as isize - DELTA) as usize);
            let (occupied, squares) = (self.occupied, self.squares);
            count += u64::from(captures_onto::<R>(
                self.them,
                occupied,
                squares,
                self.replies,
                mover,
                t,
            ));
        }
        count
    }
}

/// The leaves two plies below `pos` (perft 2): for each legal move, the number of
/// legal replies, counted without making the move.
///
/// A move that captures nothing changes two squares of the mover's side and nothing
/// of the replying side, so the replies' reach is the same after every such move
/// (but for the jumps when the mover is a jump blocker): it is built once here, with
/// its multiplicity, and each move's replies are three popcounts against that move's
/// free squares, plus the captures when an enemy is in reach. The mover's own moves
/// that capture nothing need no ranks either: they are walked a direction at a time
/// (the land animals' steps), then the jumps and the swimmers' steps. The replies to a
/// capture are counted by `count_after_with`; a move into the enemy den has none.
pub fn count_two_plies<R: MoveRules>(pos: &Position) -> u64 {
    if pos.is_over_on_board() {
        return 0;
    }
    let (us, them) = (pos.side, pos.side.other());
    let (occupied, squares) = (&pos.occupied, &pos.squares);
    let replies = Reach::of::<R>(them, occupied, squares);
    let multiplicity = Multiplicity::of(&replies);
    let reply_reach = replies.all();
    let free = free_for(them, occupied);
    let movers = occupied[us.index()];
    let blockers = jump_blockers::<R>(squares);
    let reply_jump_paths = [Animal::Tiger, Animal::Lion]
        .iter()
        .map(|a| &JUMPS[squares[them.index()][a.index()] as usize])
        .fold(Bitboard::EMPTY, |all, set| all | set.over[0] | set.over[1]);
    // Where the movers go without capturing, the enemy den left out (no replies).
    let open = free_for(us, occupied).minus(own_den(them));
    // The replies that capture, after the mover's move `change` (its from and to
    // squares; the animal is the one on the from square).
    let captures_after = |change: Bitboard, reach: &Reach| {
        let from = change & movers;
        let mut occupied = *occupied;
        let mut squares = *squares;
        occupied[us.index()] ^= change;
        let animal = pos.mailbox[from.0.trailing_zeros() as usize] as usize & 7;
        squares[us.index()][animal] = change.minus(from).0.trailing_zeros() as u8;
        u64::from(count_captures::<R>(them, &occupied, &squares, reach))
    };
    // The replies after a move that leaves the replies' reach as it is.
    let replies_as_reached = |change: Bitboard| {
        let mut count = u64::from(multiplicity.count_onto(free ^ change));
        if (reply_reach & (movers ^ change)).any() {
            count += captures_after(change, &replies);
        }
        count
    };
    let own = &squares[us.index()];
    let mut total = 0u64;
    // The steps of every animal but the swimmers, one direction at a time: a set of
    // targets, each with its from square one step back.
    let walkers = if R::DOG_SWIMS {
        movers.minus(
            SQUARE_BB[own[Animal::Rat.index()] as usize]
                | SQUARE_BB[own[Animal::Dog.index()] as usize],
        )
    } else {
        movers.minus(SQUARE_BB[own[Animal::Rat.index()] as usize])
    };
    // A quiet step f -> t leaves the replies' reach as it is: their moves onto free
    // squares are `M(free) + m(f) - m(t)` (m the multiplicity of a square), and their
    // captures `C - c(f) + c'(t)`, c the captures onto each of our animals before the
    // move and c'(t) those onto the moved animal at t (none out of their reach). So the
    // steps of one direction are counted together, from their sets of targets and of
    // from squares, and only the steps into the replies' reach one by one.
    let attacked = reply_reach & movers;
    let (capture_planes, captures_before) = if attacked.any() {
        captures_by_square::<R>(them, occupied, squares, &replies, attacked)
    } else {
        (Multiplicity([Bitboard::EMPTY; 3]), 0)
    };
    let steps = QuietSteps {
        unchanged: u64::from(multiplicity.count_onto(free) + captures_before),
        multiplicity,
        capture_planes,
        captures_before,
        reply_reach,
        replies: &replies,
        them,
        occupied,
        squares,
    };
    let targets = open & LAND;
    const UP: isize = FILES as isize;
    total += steps.direction::<R, UP>(walkers.north() & targets)
        + steps.direction::<R, { -UP }>(walkers.south() & targets)
        + steps.direction::<R, 1>(walkers.east() & targets)
        + steps.direction::<R, -1>(walkers.west() & targets);
    let jumps = landings(own, blockers);
    for (jumper, landing) in [Animal::Tiger, Animal::Lion].into_iter().zip(jumps) {
        let from = own[jumper.index()] as usize;
        for to in landing & open {
            total += replies_as_reached(SQUARE_BB[from] | Bitboard::from_square(to));
        }
    }
    // The swimmers step onto land or water; they block jumps, so the replies' jumps
    // change when one enters or leaves the water they fly over.
    let swimmers: &[Animal] = if R::DOG_SWIMS {
        &[Animal::Rat, Animal::Dog]
    } else {
        &[Animal::Rat]
    };
    for swimmer in swimmers {
        let from = own[swimmer.index()] as usize;
        for to in NEIGHBOURS[from] & open {
            let change = SQUARE_BB[from] | Bitboard::from_square(to);
            if (change & reply_jump_paths).is_empty() {
                total += replies_as_reached(change);
                continue;
            }
            let mut after = replies;
            let jumps = landings(&squares[them.index()], blockers ^ change);
            after.sets[LANDINGS..LANDINGS + 2].copy_from_slice(&jumps);
            total += u64::from(after.count_onto(free ^ change));
            if (after.all() & (movers ^ change)).any() {
                total += captures_after(change, &after);
            }
        }
    }
    // Whether the mover can capture at all: a step capture is made from land, or
    // from water onto water (a swimmer), so its square is one the enemy animal
    // reaches by a step (steps being symmetric); a jump capture lands on the enemy.
    let enemies = occupied[them.index()];
    let stepping_reach = replies.sets[..LANDINGS]
        .iter()
        .chain(&replies.sets[LANDINGS + 2..])
        .fold(Bitboard::EMPTY, |all, s| all | *s);
    if (stepping_reach & movers).any() || ((jumps[0] | jumps[1]) & enemies).any() {
        let dest = Destinations::new::<R>(pos);
        for animal in Animal::ALL {
            let from = squares[us.index()][animal.index()];
            for to in dest.targets::<R>(animal, from as usize) & enemies {
                // `from` is a real square: only a living animal has targets.
                let m = Move::new(Square::from_index_unchecked(from), to);
                total += u64::from(count_after_with::<R>(pos, m));
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::generate_with;
    use crate::board::rules::{DogSwims, DogSwimsTrappedLoseAttack, TrappedLoseAttack};
    use crate::board::MoveList;

    /// The counter (steps and jumps on whole bitboards, captures by destinations)
    /// against the generator, and the two-ply count against making each move, along
    /// random games under the rules `R`: positions with rats and dogs in the water,
    /// jumps open and blocked, captures and traps.
    fn counting_agrees_with_generation<R: MoveRules>() {
        let mut rng = crate::rng::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut positions = 0;
        for _game in 0..200 {
            let mut p = Position::startpos();
            for _ in 0..300 {
                let mut moves = MoveList::new();
                generate_with::<R>(&p, &mut moves);
                assert_eq!(count_with::<R>(&p) as usize, moves.len(), "{p:?}");
                let two_plies: u64 = moves
                    .iter()
                    .map(|&m| {
                        let mut child = p;
                        child.play(m);
                        u64::from(count_with::<R>(&child))
                    })
                    .sum();
                assert_eq!(count_two_plies::<R>(&p), two_plies, "two plies in {p:?}");
                for side in Color::BOTH {
                    let mut turned = p;
                    if turned.side != side {
                        turned.play_null();
                    }
                    let mut list = MoveList::new();
                    generate_with::<R>(&turned, &mut list);
                    let counted = count_parts::<R>(side, &p.occupied, &p.squares);
                    assert_eq!(counted as usize, list.len(), "{side} in {p:?}");
                }
                positions += 1;
                if moves.is_empty() {
                    break;
                }
                p.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(positions > 10_000);
    }

    #[test]
    fn counting_agrees_with_generation_under_every_rule_set() {
        counting_agrees_with_generation::<Standard>();
        counting_agrees_with_generation::<DogSwims>();
        counting_agrees_with_generation::<TrappedLoseAttack>();
        counting_agrees_with_generation::<DogSwimsTrappedLoseAttack>();
    }
}
