//! A small driver for profiling `World::update` under callgrind: the scene of
//! `benches/world.rs` (mixed circles, boxes, capsules and hexagons, about 1.5 box overlaps
//! each), then a few frames where every `every`-th collider moves a little. Only `run` is meant
//! to be measured:
//!
//! ```text
//! cargo build --release -p collide2d-tools --bin world_profile
//! valgrind --tool=callgrind --toggle-collect='world_profile::run' \
//!     target/release/world_profile 100000 10 5
//! callgrind_annotate --inclusive=yes callgrind.out.<pid>
//! ```
//!
//! Arguments: collider count, `every` (10 = 10% moving per frame, 1 = all), frames, `batched` or
//! `single` (one `World::set_transforms` call per frame, or one `set_transform` per collider),
//! warm-up frames before the measured ones (default 300: the benchmark measures the steady
//! state, in which moving colliders keep leaving their fat boxes; the first frames after the
//! build are cheaper), and with the `rayon` feature the threads of the pool the frames run on
//! (default: rayon's global pool). Prints the
//! mean frame time (moves and update) and its per-phase split from `World::stats()`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use collide2d_testkit::world_scene::Scene;

/// The measured part: `frames` frames.
#[inline(never)]
fn run(
    scene: &mut Scene,
    every: usize,
    first_frame: usize,
    frames: usize,
    totals: &mut [Duration; 3],
) -> usize {
    frames_from(scene, every, first_frame, frames, totals)
}

/// Frames outside the measured part (warming up).
#[inline(never)]
fn settle(scene: &mut Scene, every: usize, frames: usize) -> usize {
    frames_from(scene, every, 0, frames, &mut [Duration::ZERO; 3])
}

/// Runs frames, adding the broad, narrow and events times of `World::stats()` to `totals`.
fn frames_from(
    scene: &mut Scene,
    every: usize,
    first_frame: usize,
    frames: usize,
    totals: &mut [Duration; 3],
) -> usize {
    let mut events = 0;
    for frame in first_frame..first_frame + frames {
        events += black_box(scene.frame(every, frame));
        let stats = scene.world.stats();
        totals[0] += stats.broad;
        totals[1] += stats.narrow;
        totals[2] += stats.events;
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
    // Warm up into the steady state the benchmark measures.
    let warm_up = number(5, 300);
    settle(&mut scene, every, warm_up);
    let mut totals = [Duration::ZERO; 3];
    let mut measure = || {
        let started = Instant::now();
        let events = run(&mut scene, every, warm_up, frames, &mut totals);
        (events, started.elapsed() / frames.max(1) as u32)
    };
    #[cfg(feature = "rayon")]
    let (events, per_frame) = match arguments.get(6).and_then(|text| text.parse().ok()) {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
            .install(measure),
        None => measure(),
    };
    #[cfg(not(feature = "rayon"))]
    let (events, per_frame) = measure();
    let [broad, narrow, update_events] = totals.map(|total| total / frames.max(1) as u32);
    let stats = scene.world.stats();
    println!(
        "{count} colliders, 1/{every} moving, {frames} frames, {events} events: per frame \
         {per_frame:?} (broad {broad:?}, narrow {narrow:?}, events {update_events:?}, the rest \
         moving colliders); {} candidate pairs, {} narrow tests in the last frame",
        stats.candidate_pairs, stats.narrow_tests
    );
}
