//! A small driver for timing and profiling bulk insertion: `n` unit balls on a square grid
//! (spacing 1.1, so neighbours are near but apart), put into a fresh world one `insert` at a
//! time or with one `insert_many`, or into a bare tree with `DynamicTree::build`; then one
//! update. Only `run_*` are meant to be measured:
//!
//! ```text
//! cargo build --release -p collide2d-tools --bin bulk_profile
//! target/release/bulk_profile many 1000000
//! valgrind --tool=callgrind --toggle-collect='*bulk_profile*run_*' \
//!     target/release/bulk_profile build 100000
//! ```
//!
//! Arguments: `one|many|build`, collider count; or `spawn|spawn-one`, collider count, extra
//! count and optionally `tree|sap|grid`: the extra colliders put into a world already holding
//! the first ones (and updated once), with one `insert_many` or one `insert` at a time; or
//! `despawn|despawn-one` with the same arguments: that many of the colliders, in a shuffled
//! order, taken out with one `remove_many` or one `remove` at a time.

use std::hint::black_box;
use std::time::Instant;

use collide2d::broad::DynamicTree;
use collide2d::shape::{Circle, Shape};
use collide2d::world::{BroadPhaseKind, Collider, ColliderHandle, World};
use collide2d::{Aabb, Transform, Vec2};

/// Processor time of this thread so far, in seconds (Linux; zero elsewhere): on a machine
/// shared with other jobs it varies much less than the wall clock.
fn cpu_seconds() -> f64 {
    let (user, system) = cpu_split();
    user + system
}

/// User and system processor time of this thread so far, in seconds.
fn cpu_split() -> (f64, f64) {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return (0.0, 0.0);
    };
    // Fields after the command name (which ends with the last ')'): utime and stime are the
    // 12th and 13th, in clock ticks of 1/100 s.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |index: usize| fields.get(index).and_then(|f| f.parse::<f64>().ok());
    (
        ticks(11).unwrap_or(0.0) / 100.0,
        ticks(12).unwrap_or(0.0) / 100.0,
    )
}

/// `count` unit balls on a grid of `side` columns, from the `first`-th grid place on.
fn colliders_from(first: usize, count: usize, side: usize) -> Vec<Collider> {
    let ball = Shape::from(Circle::with_radius(0.5).expect("a valid radius"));
    (first..first + count)
        .map(|i| {
            let position = Vec2::new((i % side) as f32 * 1.1, (i / side) as f32 * 1.1);
            Collider::new(ball.clone()).with_transform(Transform::new(position, 0.0))
        })
        .collect()
}

#[inline(never)]
fn run_one(world: &mut World, colliders: Vec<Collider>) -> Vec<ColliderHandle> {
    colliders
        .into_iter()
        .map(|collider| world.insert(collider).expect("valid colliders"))
        .collect()
}

#[inline(never)]
fn run_many(world: &mut World, colliders: Vec<Collider>) -> Vec<ColliderHandle> {
    world.insert_many(colliders).expect("valid colliders")
}

#[inline(never)]
fn run_remove(world: &mut World, handles: &[ColliderHandle], at_once: bool) -> usize {
    if at_once {
        world.remove_many(handles).expect("live handles").len()
    } else {
        handles
            .iter()
            .map(|&handle| world.remove(handle).expect("a live handle"))
            .count()
    }
}

fn broad_phase_kind(name: Option<&String>) -> BroadPhaseKind {
    match name.map(String::as_str) {
        Some("sap") => BroadPhaseKind::SweepAndPrune,
        Some("grid") => BroadPhaseKind::Grid { cell_size: 2.0 },
        _ => BroadPhaseKind::Tree,
    }
}

#[inline(never)]
fn run_build(boxes: &[(Aabb, u64)]) -> DynamicTree {
    DynamicTree::build(boxes).expect("valid boxes").0
}

fn colliders(count: usize) -> Vec<Collider> {
    colliders_from(0, count, (count as f64).sqrt().ceil() as usize)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("many", String::as_str);
    let count: usize = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    if mode == "spawn" || mode == "spawn-one" {
        // `count` colliders already there (and updated once), then `extra` more.
        let extra: usize = args
            .get(3)
            .and_then(|a| a.parse().ok())
            .unwrap_or(count / 10);
        let side = ((count + extra) as f64).sqrt().ceil() as usize;
        let mut world =
            World::with_broad_phase(broad_phase_kind(args.get(4))).expect("a valid broad phase");
        world
            .insert_many(colliders_from(0, count, side))
            .expect("valid colliders");
        world.update();
        let spawned = colliders_from(count, extra, side);
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        if mode == "spawn" {
            black_box(run_many(&mut world, spawned));
        } else {
            black_box(run_one(&mut world, spawned));
        }
        let inserted = start.elapsed();
        let inserted_cpu = cpu_seconds() - cpu_start;
        let start = Instant::now();
        let stats = world.update();
        println!(
            "{mode} {extra} into {count}: insert {:.3} s (processor {inserted_cpu:.2} s), next update {:.3} s, {} began",
            inserted.as_secs_f64(),
            start.elapsed().as_secs_f64(),
            stats.began
        );
        return;
    }
    if mode == "despawn" || mode == "despawn-one" {
        // `count` colliders (updated once), then `extra` of them, in a shuffled order, removed.
        let extra: usize = args
            .get(3)
            .and_then(|a| a.parse().ok())
            .unwrap_or(count / 10);
        let mut world =
            World::with_broad_phase(broad_phase_kind(args.get(4))).expect("a valid broad phase");
        let mut handles = world
            .insert_many(colliders(count))
            .expect("valid colliders");
        world.update();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for index in (1..handles.len()).rev() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            handles.swap(index, (state >> 33) as usize % (index + 1));
        }
        handles.truncate(extra);
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        black_box(run_remove(&mut world, &handles, mode == "despawn"));
        let removed_cpu = cpu_seconds() - cpu_start;
        println!(
            "{mode} {extra} of {count}: remove {:.3} s (processor {removed_cpu:.2} s)",
            start.elapsed().as_secs_f64()
        );
        return;
    }
    let colliders = colliders(count);
    let mut world = World::new();
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let system_start = cpu_split().1;
    match mode {
        "one" => {
            black_box(run_one(&mut world, colliders));
        }
        "many" => {
            black_box(run_many(&mut world, colliders));
        }
        "build" => {
            let boxes: Vec<(Aabb, u64)> = colliders
                .iter()
                .enumerate()
                .map(|(i, c)| (c.aabb(), i as u64))
                .collect();
            let start = Instant::now();
            let cpu_start = cpu_seconds();
            let tree = run_build(&boxes);
            println!(
                "build {count}: {:.3} s (processor {:.2} s), height {}, area ratio {:.1}",
                start.elapsed().as_secs_f64(),
                cpu_seconds() - cpu_start,
                tree.height(),
                tree.area_ratio()
            );
            return;
        }
        other => panic!("unknown mode {other}"),
    }
    let inserted = start.elapsed();
    let inserted_cpu = cpu_seconds() - cpu_start;
    let system = cpu_split().1 - system_start;
    let start = Instant::now();
    let stats = world.update();
    println!(
        "{mode} {count}: insert {:.3} s (processor {inserted_cpu:.2} s, of which system {system:.2} s), first update {:.3} s, {} began",
        inserted.as_secs_f64(),
        start.elapsed().as_secs_f64(),
        stats.began
    );
}
