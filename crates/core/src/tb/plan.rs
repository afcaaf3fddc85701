//! Planning the build of every signature with N animals as N-way shards: the size of
//! each table, the split into groups of about equal work, and the order inside one.
//!
//! A table's work is its number of positions, as the index counts them (`Indexer`):
//! swimmers (the rats, and the dogs when dogs swim) have more squares than the others,
//! so a signature with rats is larger than one without. The groups come from the
//! longest-processing-time rule: the signatures, largest first, each to the group with
//! the least work so far (the lowest-numbered one on a tie). Nothing depends on the
//! machine, so every array task computes the same split.

use super::index::Indexer;
use super::material::Material;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One signature of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    pub material: Material,
    pub positions: u64,
    /// The group it belongs to, 1-based.
    pub shard: u32,
}

/// The number of positions of a signature's table.
pub fn positions(material: Material, dog_swims: bool) -> u64 {
    Indexer::new(material, dog_swims).len() as u64
}

/// Every signature with `animals` animals, split into `shards` groups (1-based
/// numbers), smallest first (then by signature).
pub fn plan(animals: usize, dog_swims: bool, shards: u32) -> Vec<Planned> {
    let sized: Vec<(Material, u64)> = Material::all_with(animals)
        .into_iter()
        .map(|m| (m, positions(m, dog_swims)))
        .collect();
    split(&sized, shards)
}

/// `plan` for any list of signatures with their sizes.
pub fn split(sized: &[(Material, u64)], shards: u32) -> Vec<Planned> {
    assert!(shards >= 1, "at least one shard");
    let mut by_size: Vec<(Material, u64)> = sized.to_vec();
    by_size.sort_by_key(|&(m, n)| (Reverse(n), m));
    // The group with the least work, then the lowest number.
    let mut loads: BinaryHeap<Reverse<(u64, u32)>> =
        (1..=shards).map(|k| Reverse((0u64, k))).collect();
    let mut out: Vec<Planned> = by_size
        .into_iter()
        .map(|(material, positions)| {
            let Reverse((load, shard)) = loads.pop().expect("a shard");
            loads.push(Reverse((load + positions, shard)));
            Planned {
                material,
                positions,
                shard,
            }
        })
        .collect();
    out.sort_by_key(|p| (p.positions, p.material));
    out
}

/// Positions of each group (index 0: group 1).
pub fn loads(plan: &[Planned], shards: u32) -> Vec<u64> {
    let mut loads = vec![0u64; shards as usize];
    for p in plan {
        loads[p.shard as usize - 1] += p.positions;
    }
    loads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_signature_once_and_balance_the_work() {
        for animals in 2..=4 {
            let all = Material::all_with(animals);
            for shards in [1u32, 2, 3, 4, 7, 16] {
                let p = plan(animals, false, shards);
                assert_eq!(p.len(), all.len());
                let mut seen: Vec<Material> = p.iter().map(|x| x.material).collect();
                seen.sort();
                assert_eq!(seen, all, "{animals} animals in {shards} shards");
                assert!(p.iter().all(|x| (1..=shards).contains(&x.shard)));
                assert!(p.windows(2).all(|w| w[0].positions <= w[1].positions));
                // The longest-processing-time rule: no group is longer than the
                // average by more than the largest table.
                let loads = loads(&p, shards);
                let total: u64 = loads.iter().sum();
                let largest = p.iter().map(|x| x.positions).max().unwrap_or(0);
                let max = *loads.iter().max().unwrap();
                assert!(max <= total / u64::from(shards) + largest, "{loads:?}");
                // Deterministic.
                assert_eq!(p, plan(animals, false, shards));
            }
        }
    }

    #[test]
    fn rats_make_a_table_larger() {
        let no_rat = Material::parse("LE v T").unwrap();
        let rat = Material::parse("RE v T").unwrap();
        assert!(positions(rat, false) > positions(no_rat, false));
        // Dogs swim under that rule: the dog counts as a rat.
        let dog = Material::parse("DE v T").unwrap();
        assert_eq!(positions(dog, true), positions(rat, false));
        assert_eq!(positions(dog, false), positions(no_rat, false));
    }
}
