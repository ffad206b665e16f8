//! A small driver for profiling `World::update` under callgrind: the scene of
//! `benches/world.rs` (mixed circles, boxes, capsules and hexagons, about 1.5 box overlaps
//! each), then a few frames where every `every`-th collider moves a little. Only `run` is meant
//! to be measured:
//!
//! ```text
//! cargo build -p collide2d --release --example world_profile
//! valgrind --tool=callgrind --toggle-collect='world_profile::run' \
//!     target/release/examples/world_profile 100000 10 5
//! callgrind_annotate --inclusive=yes callgrind.out.<pid>
//! ```
//!
//! Arguments: collider count, `every` (10 = 10% moving per frame, 1 = all), frames, and
//! optionally `batched` (move with one `World::set_transforms` call per frame). Prints the
//! mean frame time (moves and update) and its per-phase split from `World::stats()`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, World};
use collide2d::{Transform, Vec2};

/// The benchmark's scene: the same shapes, positions and velocities.
struct Scene {
    world: World,
    bodies: Vec<(ColliderHandle, Vec2, Vec2)>,
    /// Whether a frame moves its bodies with one `set_transforms` call.
    batched: bool,
    /// The moves of a batched frame.
    moves: Vec<(ColliderHandle, Transform)>,
    state: u64,
    /// Sums of the broad, narrow and events times of `World::stats()`.
    totals: [Duration; 3],
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
            batched: false,
            moves: Vec::new(),
            state: 99,
            totals: [Duration::ZERO; 3],
        };
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

    /// Moves every `every`-th body a little (one call per body, or all in one
    /// `set_transforms` call when `self.batched`), then updates; returns the event count.
    fn frame(&mut self, every: usize, offset: usize) -> usize {
        let batched = self.batched;
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

/// The measured part: `frames` frames.
#[inline(never)]
fn run(scene: &mut Scene, every: usize, first_frame: usize, frames: usize) -> usize {
    frames_from(scene, every, first_frame, frames)
}

/// Frames outside the measured part (warming up).
#[inline(never)]
fn settle(scene: &mut Scene, every: usize, frames: usize) -> usize {
    frames_from(scene, every, 0, frames)
}

fn frames_from(scene: &mut Scene, every: usize, first_frame: usize, frames: usize) -> usize {
    let mut events = 0;
    for frame in first_frame..first_frame + frames {
        events += black_box(scene.frame(every, frame));
        let stats = scene.world.stats();
        scene.totals[0] += stats.broad;
        scene.totals[1] += stats.narrow;
        scene.totals[2] += stats.events;
    }
    events
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    let number = |index: usize, default: usize| {
        arguments
            .get(index)
            .and_then(|text| text.parse().ok())
            .unwrap_or(default)
    };
    let (count, every, frames) = (number(1, 100_000), number(2, 10).max(1), number(3, 5));
    let mut scene = Scene::new(count);
    scene.batched = arguments.get(4).is_some_and(|mode| mode == "batched");
    // Warm up: one full round of movers, so every collider has moved once (as in the bench).
    settle(&mut scene, every, every);
    scene.totals = [Duration::ZERO; 3];
    let started = Instant::now();
    let events = run(&mut scene, every, every, frames);
    let per_frame = started.elapsed() / frames.max(1) as u32;
    let [broad, narrow, update_events] = scene.totals.map(|total| total / frames.max(1) as u32);
    let stats = scene.world.stats();
    println!(
        "{count} colliders, 1/{every} moving, {frames} frames, {events} events: per frame \
         {per_frame:?} (broad {broad:?}, narrow {narrow:?}, events {update_events:?}, the rest \
         moving colliders); {} candidate pairs, {} narrow tests in the last frame",
        stats.candidate_pairs, stats.narrow_tests
    );
}
