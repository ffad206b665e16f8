//! World updates over tile levels: merged outlines and merged rectangles against one box
//! collider per solid tile, with the same movers.
//!
//! Levels: the 1,000 × 1,000 random map of the tile-map benchmark (half the cells solid), and a
//! 1,000 × 100 platformer level (rolling ground, floating platforms). 2,000 movers (circles and
//! boxes, 0.4–0.8 cells) drift over the level; each frame moves 10% of them and updates.

use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, TileGeometry, TileMapColliders, World};
use collide2d::{Transform, Vec2};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Duration;

#[path = "../tests/it/support/mod.rs"]
mod support;

use support::Rng;

fn random_map() -> TileMap {
    let mut rng = Rng(0x1e7e1);
    TileMap::from_fn(1000, 1000, 1.0, Vec2::ZERO, |_, _| {
        if rng.unit() < 0.5 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap()
}

fn platformer_map() -> TileMap {
    let mut rng = Rng(0x91a7);
    let heights: Vec<u32> = (0..1000)
        .map(|x| (12.0 + 6.0 * (x as f32 * 0.05).sin() + 3.0 * (x as f32 * 0.13).cos()) as u32)
        .collect();
    let platforms: Vec<(u32, u32, u32)> = (0..120)
        .map(|_| {
            let x = (rng.unit() * 990.0) as u32;
            let y = 25 + (rng.unit() * 70.0) as u32;
            (x, y, 3 + (rng.unit() * 12.0) as u32)
        })
        .collect();
    TileMap::from_fn(1000, 100, 1.0, Vec2::ZERO, |x, y| {
        let ground = y < heights[x as usize];
        let platform = platforms
            .iter()
            .any(|&(px, py, width)| y == py && x >= px && x < px + width);
        if ground || platform {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap()
}

/// How the level's geometry goes into the world.
#[derive(Clone, Copy, Debug)]
enum Layout {
    Outlines,
    Rectangles,
    TilePerCollider,
}

struct Scene {
    world: World,
    movers: Vec<(ColliderHandle, Vec2, Vec2)>,
    frame: usize,
}

impl Scene {
    fn new(map: &TileMap, layout: Layout) -> Scene {
        let mut world = World::new();
        match layout {
            Layout::Outlines => {
                TileMapColliders::insert(&mut world, map, TileGeometry::Outlines).unwrap();
            }
            Layout::Rectangles => {
                TileMapColliders::insert(&mut world, map, TileGeometry::Rectangles).unwrap();
            }
            Layout::TilePerCollider => {
                let tile = Shape::from(Polygon::rect(map.cell_size(), map.cell_size()).unwrap());
                for y in 0..map.height() {
                    for x in 0..map.width() {
                        if map.tile(x, y).unwrap().solid {
                            let center = map.cell_aabb(x, y).unwrap().center();
                            world
                                .insert(
                                    Collider::new(tile.clone())
                                        .with_transform(Transform::new(center, 0.0)),
                                )
                                .unwrap();
                        }
                    }
                }
            }
        }
        let mut rng = Rng(0x5ca1e);
        let size = map.aabb().extents();
        let movers = (0..2000)
            .map(|i| {
                let extent = 0.4 + 0.4 * rng.unit();
                let shape = if i % 2 == 0 {
                    Shape::from(Circle::with_radius(0.5 * extent).unwrap())
                } else {
                    Shape::from(Polygon::rect(extent, extent).unwrap())
                };
                let position = Vec2::new(rng.unit() * size.x, rng.unit() * size.y);
                let velocity = Vec2::new(rng.unit() - 0.5, rng.unit() - 0.5) * 0.1;
                let handle = world
                    .insert(Collider::new(shape).with_transform(Transform::new(position, 0.0)))
                    .unwrap();
                (handle, position, velocity)
            })
            .collect();
        world.update();
        Scene {
            world,
            movers,
            frame: 0,
        }
    }

    /// Moves every tenth mover (a different tenth each frame), then updates.
    fn step(&mut self) -> usize {
        self.frame += 1;
        for (i, (handle, position, velocity)) in self.movers.iter_mut().enumerate() {
            if i % 10 == self.frame % 10 {
                *position += *velocity;
                self.world
                    .set_transform(*handle, Transform::new(*position, 0.0))
                    .unwrap();
            }
        }
        {
            self.world.update();
            self.world.events().len()
        }
    }
}

fn tile_levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("tile_level");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, map) in [
        ("random_1000x1000", random_map()),
        ("platformer_1000x100", platformer_map()),
    ] {
        for layout in [
            Layout::Outlines,
            Layout::Rectangles,
            Layout::TilePerCollider,
        ] {
            let mut scene = Scene::new(&map, layout);
            eprintln!(
                "{name} {layout:?}: {} colliders ({} movers)",
                scene.world.len(),
                scene.movers.len()
            );
            group.bench_function(BenchmarkId::new(name, format!("{layout:?}")), |b| {
                b.iter(|| scene.step())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, tile_levels);
criterion_main!(benches);
