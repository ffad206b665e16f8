//! Continuous colliders: one `World::update` of 10,000 fast bullets among 100,000 static
//! colliders, with the bullets continuous (swept from their last placement) and without.
//!
//! Scene: the world benchmark's static mix (circles, boxes, capsules and hexagons about 1 unit
//! across, each box overlapping about 1.5 others, 400 × 400 units) and bullets of radius 0.05
//! that each frame fly 20 units in their own direction (about twenty static colliders' widths,
//! bouncing off the square's sides), moved with one `set_transforms` call. Without the setting
//! the update only tests where the bullets end; with it, each bullet is also swept along its
//! 20 units against everything its path's box meets.

#[path = "../tests/it/support/mod.rs"]
mod support;

use collide2d::shape::{Circle, Shape};
use collide2d::world::{Collider, ColliderHandle};
use collide2d::{Transform, Vec2};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use support::world_scene::Scene;
use support::Rng;

/// The static scene with `bullets` bullets added, continuous or not.
struct Shooting {
    scene: Scene,
    bullets: Vec<(ColliderHandle, Vec2, Vec2)>,
    side: f32,
    moves: Vec<(ColliderHandle, Transform)>,
}

impl Shooting {
    fn new(statics: usize, bullets: usize, continuous: bool) -> Shooting {
        let mut scene = Scene::new(statics);
        let side = (statics as f32 * 1.6).sqrt();
        let mut rng = Rng(7);
        let mut random = || rng.unit();
        let bullet = Shape::from(Circle::with_radius(0.05).unwrap());
        let bullets = (0..bullets)
            .map(|_| {
                let position = Vec2::new(random() * side, random() * side);
                let angle = random() * std::f32::consts::TAU;
                let velocity = Vec2::from_angle(angle) * 20.0;
                let handle = scene
                    .world
                    .insert(
                        Collider::new(bullet.clone())
                            .with_continuous(continuous)
                            .with_transform(Transform::new(position, 0.0)),
                    )
                    .unwrap();
                (handle, position, velocity)
            })
            .collect();
        scene.world.update();
        Shooting {
            scene,
            bullets,
            side,
            moves: Vec::new(),
        }
    }

    /// Moves every bullet one step (bouncing off the square's sides) and updates the world;
    /// returns the event count.
    fn frame(&mut self) -> usize {
        self.moves.clear();
        for (handle, position, velocity) in &mut self.bullets {
            let mut next = *position + *velocity;
            for axis in 0..2 {
                if next[axis] < 0.0 || next[axis] > self.side {
                    velocity[axis] = -velocity[axis];
                    next[axis] = position[axis] + velocity[axis];
                }
            }
            *position = next;
            self.moves.push((*handle, Transform::new(next, 0.0)));
        }
        self.scene.world.set_transforms(&self.moves).unwrap();
        {
            self.scene.world.update();
            self.scene.world.events().len()
        }
    }
}

fn continuous_updates(c: &mut Criterion) {
    let mut group = c.benchmark_group("continuous colliders");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, continuous) in [
        ("10k bullets among 100k static, continuous", true),
        ("10k bullets among 100k static, not continuous", false),
    ] {
        let mut shooting = Shooting::new(100_000, 10_000, continuous);
        let mut events = 0usize;
        let mut frames = 0usize;
        group.bench_function(name, |b| {
            b.iter(|| {
                events += shooting.frame();
                frames += 1;
            })
        });
        println!(
            "{name}: {} events per frame on average",
            events / frames.max(1)
        );
    }
    group.finish();
}

criterion_group!(benches, continuous_updates);
criterion_main!(benches);
