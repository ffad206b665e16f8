//! Whole-world updates: move some colliders, then `World::update` with events.
//!
//! Scenes: mixed circles, boxes, capsules and polygons, uniform in a square sized so each
//! collider's box overlaps about 1.5 others. Criterion reports the frame time; the per-phase
//! split (broad, narrow, events) is printed from `World::stats()` averaged over the samples.
//! Each scene runs twice: moving the colliders one `set_transform` call at a time, and with one
//! `set_transforms` call per frame.

#[path = "../tests/it/support/mod.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use support::world_scene::Scene;

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
        scene.batched = batched;
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
                let events = scene.frame(every, frame);
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

/// The same update on one and on two threads (feature `rayon`; each run inside a pool of that
/// many threads), at 1k, 10k, 100k and 1M colliders: how the update scales with cores, and how
/// the frame grows with the collider count at a fixed thread count. Each thread count gets its
/// own scene, built alike and warmed up alike (`WARM_FRAMES` frames), so that both measure
/// the same stretch of the same motion.
#[cfg(feature = "rayon")]
fn world_updates_on_threads(c: &mut Criterion) {
    /// Frames before the measured ones: by then moving colliders leave their fat boxes at
    /// the steady rate of a long run (fewer do in the first frames, more around frame 100).
    const WARM_FRAMES: usize = 300;
    let mut group = c.benchmark_group("world update threads");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, count, every) in [
        ("1k mixed, 10% moving", 1_000, 10),
        ("10k mixed, all moving", 10_000, 1),
        ("100k mixed, 10% moving", 100_000, 10),
        ("1M mixed, 10% moving", 1_000_000, 10),
    ] {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            let mut scene = Scene::new(count);
            scene.batched = true;
            let mut frame = 0;
            // Into the steady state, where moving colliders keep leaving their fat boxes.
            for _ in 0..WARM_FRAMES {
                frame += 1;
                pool.install(|| scene.frame(every, frame));
            }
            let mut totals = [Duration::ZERO; 3];
            let mut frames = 0u32;
            group.bench_function(format!("{name}, {threads} thread(s)"), |b| {
                b.iter(|| {
                    frame += 1;
                    let events = pool.install(|| scene.frame(every, frame));
                    let stats = scene.world.stats();
                    totals[0] += stats.broad;
                    totals[1] += stats.narrow;
                    totals[2] += stats.events;
                    frames += 1;
                    events
                })
            });
            if frames == 0 {
                continue;
            }
            let [broad, narrow, events] = totals.map(|total| total / frames);
            println!(
                "{name}, {threads} thread(s): per frame broad {broad:?}, narrow {narrow:?}, \
                 events {events:?}"
            );
        }
    }
    group.finish();
}

#[cfg(not(feature = "rayon"))]
fn world_updates_on_threads(_: &mut Criterion) {}

criterion_group!(benches, world_updates, world_updates_on_threads);
criterion_main!(benches);
