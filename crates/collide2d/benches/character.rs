//! `World::move_and_slide` in a 1,000-tile level: ns per call.
//!
//! The level is a 1,000-tile floor (merged outline) with a one-tile step up every 25 tiles and
//! back down 10 tiles later. A box, a circle and a capsule walk right under gravity, one call per
//! frame (0.1 units right, 0.05 down), and start again at the left end when they reach the right.

use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{
    Collider, ColliderHandle, MoveOptions, TileGeometry, TileMapColliders, World,
};
use collide2d::{Transform, Vec2};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

fn level() -> World {
    let mut world = World::new();
    let map = TileMap::from_fn(1000, 6, 1.0, Vec2::ZERO, |x, y| {
        let step = x % 25 >= 15 && x % 25 < 20 && y == 1;
        if y == 0 || step {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).unwrap();
    world
}

fn walkers(world: &mut World) -> Vec<(ColliderHandle, Transform)> {
    let shapes = [
        Shape::from(Polygon::rect(0.8, 0.8).unwrap()),
        Shape::from(Circle::with_radius(0.4).unwrap()),
        Shape::from(Capsule::vertical(0.6, 0.3).unwrap()),
    ];
    shapes
        .into_iter()
        .enumerate()
        .map(|(i, shape)| {
            let start = Transform::new(Vec2::new(2.0 + i as f32, 2.5), 0.0);
            (
                world
                    .insert(Collider::new(shape).with_transform(start))
                    .unwrap(),
                start,
            )
        })
        .collect()
}

fn character(c: &mut Criterion) {
    let mut group = c.benchmark_group("character");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    let mut world = level();
    let movers = walkers(&mut world);
    let mut next = 0usize;
    group.bench_function("move_and_slide_1000_tiles", |b| {
        b.iter(|| {
            let (hero, start) = movers[next % movers.len()];
            next += 1;
            let result = world
                .move_and_slide(hero, Vec2::new(0.1, -0.05), MoveOptions::default())
                .unwrap();
            let at = world.get(hero).unwrap().transform();
            if at.p.x > 990.0 || at.p.y < -1.0 || result.moved.x.abs() < 1e-3 {
                world.set_transform(hero, start).unwrap();
            }
            result.moved
        })
    });
    group.finish();
}

criterion_group!(benches, character);
criterion_main!(benches);
