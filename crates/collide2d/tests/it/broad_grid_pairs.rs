//! The grid's pairs from scratch (`for_each_pair`) against brute force on scenes that exercise
//! the dense pass and its fallback: every overlapping pair exactly once, nothing else.

use crate::support;

use collide2d::broad::{BroadPhase, HashGrid, Pair, ProxyId};
use collide2d::{Aabb, Vec2};
use support::Rng;

fn centred(center: Vec2, size: Vec2) -> Aabb {
    Aabb {
        min: center - 0.5 * size,
        max: center + 0.5 * size,
    }
}

/// Boxes with sides in [0.5, 1.5], about 1.5 overlaps each.
fn uniform(count: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = Rng(seed);
    let side = (4.0 * count as f32 / 1.5).sqrt();
    (0..count)
        .map(|_| {
            let center = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
            centred(center, Vec2::new(rng.range(0.5, 1.5), rng.range(0.5, 1.5)))
        })
        .collect()
}

/// Groups of 64 boxes within a few units of a centre.
fn clustered(count: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = Rng(seed);
    let side = (4.0 * count as f32 / 1.5).sqrt();
    let centres: Vec<Vec2> = (0..(count / 64).max(1))
        .map(|_| Vec2::new(rng.range(0.0, side), rng.range(0.0, side)))
        .collect();
    (0..count)
        .map(|index| {
            let center = centres[index % centres.len()]
                + Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
            centred(center, Vec2::new(rng.range(0.5, 1.5), rng.range(0.5, 1.5)))
        })
        .collect()
}

/// 90% small boxes, 9% medium, 1% huge.
fn mixed(count: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = Rng(seed);
    let side = (4.0 * count as f32 / 1.5).sqrt();
    (0..count)
        .map(|_| {
            let center = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
            let roll = rng.unit();
            let (low, high) = if roll < 0.01 {
                (10.0, 40.0)
            } else if roll < 0.10 {
                (2.0, 8.0)
            } else {
                (0.5, 1.5)
            };
            centred(
                center,
                Vec2::new(rng.range(low, high), rng.range(low, high)),
            )
        })
        .collect()
}

fn brute_force(ids: &[ProxyId], boxes: &[Aabb]) -> Vec<Pair> {
    let mut pairs = Vec::new();
    for first in 0..boxes.len() {
        for second in first + 1..boxes.len() {
            if boxes[first].overlaps(&boxes[second]) {
                pairs.push(Pair::new(ids[first], ids[second]));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Every pair reported, in reporting order.
fn reported(grid: &HashGrid) -> Vec<Pair> {
    let mut pairs = Vec::new();
    grid.for_each_pair(&mut |pair| pairs.push(pair));
    pairs
}

/// The grid's pairs are exactly brute force's, each once; with rayon, the parallel search gives
/// the same pairs in the same order.
fn check(grid: &HashGrid, ids: &[ProxyId], boxes: &[Aabb], what: &str) {
    let found = reported(grid);
    #[cfg(feature = "rayon")]
    assert_eq!(grid.par_find_pairs(), found, "{what}: parallel order");
    let mut sorted = found.clone();
    sorted.sort_unstable();
    let mut unique = sorted.clone();
    unique.dedup();
    assert_eq!(unique.len(), found.len(), "{what}: a pair reported twice");
    let expected = brute_force(ids, boxes);
    assert_eq!(sorted.len(), expected.len(), "{what}: pair count");
    assert_eq!(sorted, expected, "{what}");
}

fn check_built(boxes: &[Aabb], what: &str) {
    let items: Vec<(Aabb, u64)> = boxes
        .iter()
        .enumerate()
        .map(|(key, aabb)| (*aabb, key as u64))
        .collect();
    let (grid, ids) = HashGrid::build(&items).unwrap();
    check(&grid, &ids, boxes, what);
}

fn check_with_cell_size(boxes: &[Aabb], cell_size: f32, what: &str) {
    let mut grid = HashGrid::new(cell_size).unwrap();
    let ids: Vec<ProxyId> = boxes
        .iter()
        .enumerate()
        .map(|(key, aabb)| grid.insert(*aabb, key as u64).unwrap())
        .collect();
    check(&grid, &ids, boxes, what);
}

#[test]
fn uniform_clustered_and_mixed_scenes_match_brute_force() {
    for (count, seed) in [(0, 1), (1, 2), (2, 3), (3, 4), (100, 5), (5_000, 6)] {
        check_built(&uniform(count, seed), &format!("uniform {count}"));
        check_built(&clustered(count, seed), &format!("clustered {count}"));
        check_built(&mixed(count, seed), &format!("mixed {count}"));
    }
}

#[test]
fn cell_sizes_far_from_the_box_size_match_brute_force() {
    let boxes = mixed(2_000, 7);
    for cell_size in [0.05, 0.3, 1.0, 2.5, 16.0, 1000.0] {
        check_with_cell_size(&boxes, cell_size, &format!("cell size {cell_size}"));
    }
}

#[test]
fn zero_size_boxes_match_brute_force() {
    // Points on a lattice (so some coincide and some lie on cell borders) and among boxes.
    let mut rng = Rng(8);
    let mut boxes: Vec<Aabb> = (0..1_500)
        .map(|_| {
            let point = Vec2::new(
                (rng.range(0.0, 30.0) * 4.0).floor() / 4.0,
                (rng.range(0.0, 30.0) * 4.0).floor() / 4.0,
            );
            Aabb {
                min: point,
                max: point,
            }
        })
        .collect();
    check_built(&boxes, "points only");
    boxes.extend(uniform(800, 9));
    check_built(&boxes, "points and boxes");
    check_with_cell_size(&boxes, 0.5, "points and boxes, cell 0.5");
}

#[test]
fn ten_thousand_identical_boxes_pair_each_with_each_once() {
    let count = 10_000usize;
    let aabb = centred(Vec2::new(3.0, -2.0), Vec2::new(1.0, 0.5));
    let items: Vec<(Aabb, u64)> = (0..count).map(|key| (aabb, key as u64)).collect();
    let (grid, ids) = HashGrid::build(&items).unwrap();
    let index_of: std::collections::HashMap<ProxyId, usize> = ids
        .iter()
        .enumerate()
        .map(|(index, id)| (*id, index))
        .collect();
    let mut seen = vec![0u64; (count * count).div_ceil(64)];
    let mut total = 0usize;
    grid.for_each_pair(&mut |pair| {
        let (lower, higher) = (index_of[&pair.lower()], index_of[&pair.higher()]);
        assert!(
            lower < higher,
            "a box paired with itself or ids out of order"
        );
        let bit = lower * count + higher;
        assert_eq!(seen[bit / 64] >> (bit % 64) & 1, 0, "pair reported twice");
        seen[bit / 64] |= 1 << (bit % 64);
        total += 1;
    });
    assert_eq!(total, count * (count - 1) / 2);
}

#[test]
fn far_apart_boxes_match_brute_force() {
    // Groups at ±1e6: far too many cells between them for a dense grid.
    let mut boxes = Vec::new();
    for (group, offset) in [
        Vec2::new(-1.0e6, -1.0e6),
        Vec2::new(1.0e6, 1.0e6),
        Vec2::new(-1.0e6, 1.0e6),
    ]
    .into_iter()
    .enumerate()
    {
        for aabb in uniform(300, 10 + group as u64) {
            boxes.push(Aabb {
                min: aabb.min + offset,
                max: aabb.max + offset,
            });
        }
    }
    check_built(&boxes, "far apart");
    // One far box among a dense field.
    let mut field = uniform(2_000, 13);
    field.push(centred(Vec2::splat(1.0e6), Vec2::ONE));
    field.push(centred(Vec2::splat(-3.0e7), Vec2::splat(2.0)));
    check_built(&field, "one far box");
}

#[test]
fn a_box_covering_everything_pairs_with_every_box() {
    let mut boxes = uniform(3_000, 14);
    boxes.push(Aabb {
        min: Vec2::splat(-1.0e6),
        max: Vec2::splat(1.0e6),
    });
    boxes.extend(mixed(500, 15));
    boxes.push(Aabb {
        min: Vec2::new(-10.0, 20.0),
        max: Vec2::new(1.0e5, 20.5),
    });
    check_built(&boxes, "covering box");
    check_with_cell_size(&boxes, 1.0, "covering box, cell 1");
}

#[test]
fn boxes_touching_at_cell_borders_pair_exactly_once() {
    // Unit squares on the integer lattice touch their 8 neighbours exactly on cell borders
    // (cell size 1 and 2), and half-unit squares touch at half-integers.
    let mut boxes = Vec::new();
    for row in 0..40 {
        for column in 0..40 {
            let min = Vec2::new(column as f32, row as f32);
            boxes.push(Aabb {
                min,
                max: min + Vec2::ONE,
            });
        }
    }
    for row in 0..30 {
        for column in 0..30 {
            let min = Vec2::new(50.0 + 0.5 * column as f32, 0.5 * row as f32);
            boxes.push(Aabb {
                min,
                max: min + Vec2::splat(0.5),
            });
        }
    }
    for cell_size in [0.5, 1.0, 2.0] {
        check_with_cell_size(&boxes, cell_size, &format!("lattice, cell {cell_size}"));
    }
    check_built(&boxes, "lattice, automatic cell");
}

#[test]
fn removed_and_moved_boxes_are_followed() {
    let boxes = mixed(3_000, 16);
    let items: Vec<(Aabb, u64)> = boxes
        .iter()
        .enumerate()
        .map(|(key, aabb)| (*aabb, key as u64))
        .collect();
    let (mut grid, ids) = HashGrid::build(&items).unwrap();
    let mut live_ids = Vec::new();
    let mut live_boxes = Vec::new();
    let mut rng = Rng(17);
    for (index, id) in ids.iter().enumerate() {
        match index % 5 {
            0 => grid.remove(*id).unwrap(),
            1 => {
                let offset = Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
                let moved = Aabb {
                    min: boxes[index].min + offset,
                    max: boxes[index].max + offset,
                };
                grid.update(*id, moved).unwrap();
                live_ids.push(*id);
                live_boxes.push(moved);
            }
            _ => {
                live_ids.push(*id);
                live_boxes.push(boxes[index]);
            }
        }
    }
    check(&grid, &live_ids, &live_boxes, "after removals and moves");
    // Reinsert into the freed slots.
    for aabb in uniform(400, 18) {
        live_ids.push(grid.insert(aabb, 0).unwrap());
        live_boxes.push(aabb);
    }
    check(&grid, &live_ids, &live_boxes, "after reinsertion");
}
