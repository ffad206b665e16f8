//! Whole-world updates: move some colliders, then `World::update` with events.
//!
//! Scenes: mixed circles, boxes, capsules and polygons, uniform in a square sized so each
//! collider's box overlaps about 1.5 others. Criterion reports the frame time; the per-phase
//! split (broad, narrow, events) is printed from `World::stats()` averaged over the samples.
//! Each scene runs twice: moving the colliders one `set_transform` call at a time, and with one
//! `set_transforms` call per frame.

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, World};
use collide2d::{Transform, Vec2};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

struct Scene {
    world: World,
    bodies: Vec<(ColliderHandle, Vec2, Vec2)>,
    moves: Vec<(ColliderHandle, Transform)>,
    state: u64,
}

impl Scene {
    fn random(&mut self) -> f32 {
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.state >> 40) as f32 / (1u64 << 24) as f32
    }

    fn new(count: usize) -> Scene {
        let mut scene = Scene {
            world: World::new(),
            bodies: Vec::with_capacity(count),
            moves: Vec::new(),
            state: 99,
        };
        // Shapes about 1 unit across; ~1.5 box overlaps each at this density.
        let side = (count as f32 * 1.6).sqrt();
        for i in 0..count {
            let shape = match i % 4 {
                0 => Shape::from(Circle::with_radius(0.5).unwrap()),
                1 => Shape::from(Polygon::rect(0.9, 0.7).unwrap()),
                2 => Shape::from(
                    Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.25).unwrap(),
                ),
                _ => Shape::from(Polygon::regular(6, 0.5).unwrap()),
            };
            let position = Vec2::new(scene.random() * side, scene.random() * side);
            let velocity = Vec2::new(scene.random() - 0.5, scene.random() - 0.5) * 0.05;
            let angle = scene.random() * 6.0;
            let handle = scene
                .world
                .insert(Collider::new(shape).transform(Transform::new(position, angle)))
                .unwrap();
            scene.bodies.push((handle, position, velocity));
        }
        scene.world.update();
        scene
    }

    /// Moves `every`-th body a little (every = 10 → 10% moving), then updates. The moves go
    /// one `set_transform` call per body, or all in one `set_transforms` call when `batched`.
    fn frame(&mut self, every: usize, offset: usize, batched: bool) -> usize {
        self.moves.clear();
        for (handle, position, velocity) in
            self.bodies.iter_mut().skip(offset % every).step_by(every)
        {
            *position += *velocity;
            let xf = Transform::new(*position, 0.0);
            if batched {
                self.moves.push((*handle, xf));
            } else {
                self.world.set_transform(*handle, xf).unwrap();
            }
        }
        if batched {
            self.world.set_transforms(&self.moves).unwrap();
        }
        self.world.update().len()
    }
}

fn world_updates(c: &mut Criterion) {
    let mut group = c.benchmark_group("world update");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, count, every, batched) in [
        ("100k mixed, 10% moving", 100_000, 10, false),
        ("100k mixed, 10% moving, set_transforms", 100_000, 10, true),
        ("10k mixed, all moving", 10_000, 1, false),
        ("10k mixed, all moving, set_transforms", 10_000, 1, true),
    ] {
        let mut scene = Scene::new(count);
        let mut frame = 0;
        let mut totals = (
            Duration::ZERO,
            Duration::ZERO,
            Duration::ZERO,
            0usize,
            0usize,
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                frame += 1;
                let events = scene.frame(every, frame, batched);
                let stats = scene.world.stats();
                totals.0 += stats.broad;
                totals.1 += stats.narrow;
                totals.2 += stats.events;
                totals.3 += stats.narrow_tests;
                totals.4 += 1;
                events
            })
        });
        let frames = totals.4.max(1) as u32;
        println!(
            "{name}: per frame broad {:?}, narrow {:?}, events {:?}, narrow tests {}",
            totals.0 / frames,
            totals.1 / frames,
            totals.2 / frames,
            totals.3 / totals.4.max(1)
        );
    }
    group.finish();
}

criterion_group!(benches, world_updates);
criterion_main!(benches);
