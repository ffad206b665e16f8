//! With the `rayon` feature, parallel pair finding from scratch gives exactly the serial output,
//! in the same order.
#![cfg(feature = "rayon")]

use crate::support::Rng;
use collide2d::broad::{BroadPhase, DynamicTree, HashGrid, Pair, SweepAndPrune};
use collide2d::{Aabb, Vec2};

/// Deterministic boxes: a dense field of small boxes plus a few large and far ones.
fn scene(count: usize, seed: u64) -> Vec<(Aabb, u64)> {
    let mut rng = Rng(seed);
    let mut next = move || rng.unit();
    let side = (4.0 * count as f32 / 1.5).sqrt();
    (0..count)
        .map(|key| {
            let center = Vec2::new(next() * side, next() * side);
            let half = if key % 97 == 0 {
                Vec2::new(next() * 20.0, next() * 20.0)
            } else {
                Vec2::new(0.25 + next() * 0.5, 0.25 + next() * 0.5)
            };
            (
                Aabb {
                    min: center - half,
                    max: center + half,
                },
                key as u64,
            )
        })
        .collect()
}

fn serial(structure: &impl BroadPhase) -> Vec<Pair> {
    let mut pairs = Vec::new();
    structure.for_each_pair(&mut |pair| pairs.push(pair));
    pairs
}

#[test]
fn parallel_pairs_equal_serial_pairs_in_order() {
    for (count, seed) in [(0usize, 1u64), (1, 2), (2, 3), (500, 4), (20_000, 5)] {
        let items = scene(count, seed);
        let (tree, _) = DynamicTree::build(&items).unwrap();
        assert_eq!(tree.par_find_pairs(), serial(&tree), "tree, {count} boxes");
        let (grid, _) = HashGrid::build(&items).unwrap();
        assert_eq!(grid.par_find_pairs(), serial(&grid), "grid, {count} boxes");
        let (sweep, _) = SweepAndPrune::build(&items).unwrap();
        assert_eq!(
            sweep.par_find_pairs(),
            serial(&sweep),
            "sweep, {count} boxes"
        );
        let mut sorted = serial(&tree);
        sorted.sort_unstable();
        assert_eq!(sorted, grid.find_pairs(), "{count} boxes");
        assert_eq!(sorted, sweep.find_pairs(), "{count} boxes");
    }
}

#[test]
fn parallel_pairs_of_an_incrementally_built_tree_equal_serial_pairs() {
    let items = scene(5_000, 9);
    let mut tree = DynamicTree::new();
    let ids = tree.insert_many(&items).unwrap();
    for (index, id) in ids.iter().enumerate().step_by(3) {
        let (aabb, _) = items[index];
        let offset = Vec2::new(0.7, -0.4);
        tree.update(
            *id,
            Aabb {
                min: aabb.min + offset,
                max: aabb.max + offset,
            },
        )
        .unwrap();
    }
    for id in ids.iter().step_by(7) {
        tree.remove(*id).unwrap();
    }
    tree.validate().unwrap();
    assert_eq!(tree.par_find_pairs(), serial(&tree));
}
