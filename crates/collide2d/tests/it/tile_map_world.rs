//! Tile maps in a world: merged floors without ghost collisions, edits that touch only their
//! regions, characters on tile levels.

use crate::support;

use collide2d::level::{Tile, TileMap};
use collide2d::query::collide_all;
use collide2d::shape::{Polygon, Shape};
use collide2d::world::{Collider, MoveOptions, TileGeometry, TileMapColliders, World};
use collide2d::{LayerId, Transform, Vec2};
use std::collections::BTreeSet;
use support::{sliding_body, Rng};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A 1,000-tile floor (row 0 of a 1000 × 4 map) and nothing else.
fn floor_map() -> TileMap {
    TileMap::from_fn(1000, 4, 1.0, Vec2::ZERO, |_, y| {
        if y == 0 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap()
}

/// The acceptance runs of the chain test, on the merged outline of a floor of 1,000 box tiles:
/// a box, a circle and a capsule pressed slightly into it and pushed along at 0.1–100 units per
/// step; no contact normal more than 1° from vertical.
#[test]
fn sliding_along_a_merged_tile_floor_never_sees_a_ghost_normal() {
    let mut world = World::new();
    let map = floor_map();
    let colliders = TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).unwrap();
    assert_eq!(colliders.len(), 1, "one region, one outline");
    let floor = world
        .get(colliders.handles().next().unwrap())
        .unwrap()
        .clone();
    let mut rng = Rng(0x71_1e5);
    let mut contacts = 0usize;
    for run in 0..30_000 {
        let (shape, size) = sliding_body(&mut rng, run);
        let lowest = shape.aabb(&Transform::IDENTITY).min.y;
        let speed = rng.log_size(0.1, 100.0);
        let pressure = rng.log_size(1e-4, 0.05) * size;
        let mut x = rng.range(5.0, 20.0);
        for _ in 0..8 {
            if x > 995.0 {
                break;
            }
            let xf = Transform::new(v(x, 1.0 - lowest - pressure), 0.0);
            let mut manifolds = Vec::new();
            collide_all(
                floor.shape(),
                &floor.world_transform(),
                &shape,
                &xf,
                0.0,
                &mut manifolds,
            );
            assert!(!manifolds.is_empty(), "run {run}: no contact at x = {x}");
            for m in &manifolds {
                let angle = m.normal.dot(Vec2::Y).clamp(-1.0, 1.0).acos().to_degrees();
                assert!(
                    angle <= 1.0,
                    "run {run} at x = {x}: normal {angle}° off vertical"
                );
                assert!((m.max_penetration() - pressure).abs() < 1e-3 * (1.0 + x / 100.0));
            }
            contacts += manifolds.len();
            x += speed;
        }
    }
    println!("merged tile floor: {contacts} contacts, none more than 1° off vertical");
}

#[test]
fn a_character_crosses_a_tile_level_without_catching() {
    // Floor with steps and a one-way platform: the character walks right along row 0's top.
    let map = TileMap::from_fn(300, 12, 0.5, v(-10.0, -3.0), |x, y| match (x, y) {
        (_, 0) => Tile::SOLID,
        (100..=140, 6) => Tile::SOLID.with_one_way(true),
        _ => Tile::EMPTY,
    })
    .unwrap();
    let mut world = World::new();
    TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).unwrap();
    let hero = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(0.4, 0.9).unwrap()))
                .with_transform(Transform::new(v(-9.0, -2.5 + 0.45 + 0.01), 0.0)),
        )
        .unwrap();
    for _ in 0..1400 {
        let result = world
            .move_and_slide(hero, v(0.1, -0.02), MoveOptions::default())
            .unwrap();
        assert!(
            !result.on_wall,
            "caught at {:?}",
            world.get(hero).unwrap().transform().p
        );
    }
    let end = world.get(hero).unwrap().transform().p;
    assert!((end.x - (-9.0 + 140.0)).abs() < 0.05, "walked to {end:?}");
}

#[test]
fn editing_a_tile_replaces_only_its_regions_colliders() {
    let mut rng = Rng(99);
    let mut map = TileMap::from_fn(64, 64, 1.0, Vec2::ZERO, |_, _| {
        if rng.unit() < 0.45 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    for geometry in [TileGeometry::Outlines, TileGeometry::Rectangles] {
        let mut world = World::new();
        let mut colliders = TileMapColliders::insert(&mut world, &map, geometry).unwrap();
        let mut edit_rng = Rng(7);
        for _ in 0..300 {
            let (x, y) = (edit_rng.below(64) as u32, edit_rng.below(64) as u32);
            let before: BTreeSet<_> = colliders.handles().collect();
            let tile = if map.tile(x, y).unwrap().solid {
                Tile::EMPTY
            } else {
                Tile::SOLID
            };
            let change = map.set_tile(x, y, tile).unwrap();
            let untouched: BTreeSet<_> = map
                .regions()
                .filter(|(id, _)| !change.added.contains(id))
                .flat_map(|(id, _)| colliders.region_colliders(id).to_vec())
                .collect();
            colliders.apply(&mut world, &map, &change).unwrap();
            let after: BTreeSet<_> = colliders.handles().collect();
            // Regions the edit did not touch keep their very colliders.
            assert!(untouched.is_subset(&before) && untouched.is_subset(&after));
            assert_eq!(world.len(), colliders.len());
            // Each region stands as its outlines or its rectangles, nothing more or less.
            for (id, region) in map.regions() {
                let expected = match geometry {
                    TileGeometry::Outlines => region.outline_count(),
                    TileGeometry::Rectangles => region.rectangles().len(),
                };
                assert_eq!(colliders.region_colliders(id).len(), expected);
                // Each collider names its region; its user data stays the game's.
                for &handle in colliders.region_colliders(id) {
                    assert_eq!(colliders.region_of(handle), Some(id));
                    assert_eq!(world.get(handle).unwrap().user_data(), 0);
                }
            }
            // Colliders the edit replaced no longer name a region.
            for handle in before.difference(&after) {
                assert_eq!(colliders.region_of(*handle), None);
            }
            // Rectangles cover exactly the solid cells at sampled points.
            if geometry == TileGeometry::Rectangles {
                for _ in 0..20 {
                    let p = v(edit_rng.range(0.01, 63.99), edit_rng.range(0.01, 63.99));
                    let covered = colliders.handles().any(|h| {
                        let c = world.get(h).unwrap();
                        c.shape().contains(&c.world_transform(), p)
                    });
                    assert_eq!(covered, map.is_solid_at(p), "{p:?}");
                }
            }
        }
    }
}

#[test]
fn unknown_layers_are_refused_and_leave_nothing_behind() {
    let map = TileMap::from_fn(8, 8, 1.0, Vec2::ZERO, |x, _| {
        if x < 4 {
            Tile::SOLID
        } else {
            Tile::SOLID.with_layer(LayerId::new(5).unwrap())
        }
    })
    .unwrap();
    let mut world = World::new();
    assert!(TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).is_err());
    assert!(world.is_empty());
}
