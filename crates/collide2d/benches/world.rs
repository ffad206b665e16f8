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

criterion_group!(benches, world_updates);
criterion_main!(benches);
