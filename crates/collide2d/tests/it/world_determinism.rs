//! Golden determinism: a fixed scene gives the same event stream, bit for bit, in debug and
//! release builds, with or without the `rayon` feature, and on 1, 2 and 4 threads.

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, World};
use collide2d::{Transform, Vec2};

use crate::support::threads::on_threads;

/// FNV-1a over bytes.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x100000001b3);
    }
}

/// A crowded box of 600 shapes bouncing about for 600 frames; the hash covers every event with
/// its manifold's exact bits.
fn event_stream_hash() -> (u64, usize) {
    let mut world = World::new();
    let mut state: u64 = 12345;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut bodies = Vec::new();
    for i in 0..600 {
        let shape = match i % 4 {
            0 => Shape::from(Circle::with_radius(0.3 + 0.4 * next()).unwrap()),
            1 => Shape::from(Polygon::rect(0.4 + next(), 0.4 + next()).unwrap()),
            2 => Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(0.5 + next(), 0.0), 0.2).unwrap()),
            _ => Shape::from(Polygon::regular(5, 0.5).unwrap().with_radius(0.1).unwrap()),
        };
        let position = Vec2::new(next() * 40.0, next() * 40.0);
        let velocity = Vec2::new(next() - 0.5, next() - 0.5) * 0.4;
        let spin = (next() - 0.5) * 0.2;
        let handle = world
            .insert(Collider::new(shape).with_transform(Transform::new(position, 0.0)))
            .unwrap();
        bodies.push((handle, position, velocity, 0.0f32, spin));
    }
    let mut hash = 0xcbf29ce484222325u64;
    let mut count = 0;
    for _frame in 0..600 {
        for (handle, position, velocity, angle, spin) in &mut bodies {
            *position += *velocity;
            *angle += *spin;
            for axis in 0..2 {
                if position[axis] < 0.0 || position[axis] > 40.0 {
                    velocity[axis] = -velocity[axis];
                }
            }
            world
                .set_transform(*handle, Transform::new(*position, *angle))
                .unwrap();
        }
        for event in {
            world.update();
            world.events()
        } {
            fnv(&mut hash, format!("{event:?}").as_bytes());
            count += 1;
        }
    }
    (hash, count)
}

#[test]
fn event_stream_matches_the_golden_hash() {
    for threads in [1, 2, 4] {
        let (hash, count) = on_threads(threads, event_stream_hash);
        println!("{threads} threads: {count} events, hash {hash:#018x}");
        assert_eq!(
            (hash, count),
            GOLDEN,
            "{threads} threads: the event stream changed"
        );
    }
}

/// A field of 12,000 shapes, a third of them moving each frame (so the update's parallel parts
/// run: thousands of moved colliders and of narrow-phase tests), for 40 frames; the hash covers
/// every event with its manifold's exact bits.
fn large_event_stream_hash() -> (u64, usize) {
    let mut world = World::new();
    let mut state: u64 = 777;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let side = 150.0;
    let mut bodies = Vec::new();
    for i in 0..12_000 {
        let shape = match i % 4 {
            0 => Shape::from(Circle::with_radius(0.3 + 0.4 * next()).unwrap()),
            1 => Shape::from(Polygon::rect(0.4 + next(), 0.4 + next()).unwrap()),
            2 => Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(0.5 + next(), 0.0), 0.2).unwrap()),
            _ => Shape::from(Polygon::regular(5, 0.5).unwrap().with_radius(0.1).unwrap()),
        };
        let position = Vec2::new(next() * side, next() * side);
        let velocity = Vec2::new(next() - 0.5, next() - 0.5) * 0.3;
        let handle = world
            .insert(Collider::new(shape).with_transform(Transform::new(position, 0.0)))
            .unwrap();
        bodies.push((handle, position, velocity, 0.0f32));
    }
    let mut hash = 0xcbf29ce484222325u64;
    let mut count = 0;
    for frame in 0..40 {
        for (handle, position, velocity, angle) in bodies.iter_mut().skip(frame % 3).step_by(3) {
            *position += *velocity;
            *angle += 0.05;
            world
                .set_transform(*handle, Transform::new(*position, *angle))
                .unwrap();
        }
        world.update();
        for event in world.events() {
            fnv(&mut hash, format!("{event:?}").as_bytes());
            count += 1;
        }
    }
    (hash, count)
}

#[test]
fn a_large_event_stream_matches_its_golden_hash_on_1_2_and_4_threads() {
    for threads in [1, 2, 4] {
        let (hash, count) = on_threads(threads, large_event_stream_hash);
        println!("{threads} threads: {count} events, hash {hash:#018x}");
        assert_eq!(
            (hash, count),
            LARGE_GOLDEN,
            "{threads} threads: the event stream changed"
        );
    }
}

/// Recorded once, as [`GOLDEN`].
const LARGE_GOLDEN: (u64, usize) = (0xe74d0135ea59d3d1, 431100);

/// Recorded once; a change here means results changed somewhere in the pipeline.
const GOLDEN: (u64, usize) = (0x5d7f3586c6f43414, 255371);
