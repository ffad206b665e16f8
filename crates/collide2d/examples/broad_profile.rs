//! A small driver for profiling the broad phase under callgrind: a scene of
//! `benches/broad_phase.rs` (the same boxes and motion, from `benches/support/broad_scene.rs`),
//! then either frames (10% of the boxes move a little) or all pairs from scratch. Only `run` is
//! meant to be measured:
//!
//! ```text
//! cargo build -p collide2d --release --example broad_profile
//! valgrind --tool=callgrind --toggle-collect='*broad_profile*run*' \
//!     target/release/examples/broad_profile frame tree 100000 10
//! ```
//!
//! `frame` first runs the benchmark's unmeasured settling frames, outside `run` (as many as the
//! benchmark runs for the structure).
//!
//! Arguments: `frame|pairs`, `tree|grid|sap`, box count, repetitions, and optionally the scene:
//! `uniform` (the default), `clustered` or `mixed`.
//!
//! `trace tree N frames [scene]` runs frames on the tree and prints, for every 50 frames, the time spent
//! moving the boxes (`update`, with the loop around it) and finding pairs (`update_pairs`), and how
//! many proxies a frame left their fat boxes (counting them reads each mover's fat box first,
//! which the moves' time includes) and how many pairs began or ended; at the end, the tree's
//! area ratio against a fresh rebuild. It shows how a long run settles: the first frames after the
//! build have no leavers.

use std::hint::black_box;

use collide2d::broad::{BroadPhase, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
use collide2d::Aabb;

#[path = "../benches/support/broad_scene.rs"]
mod broad_scene;

use broad_scene::{
    keyed, scene_boxes, Mover, Scene, SETTLING_FRAMES, SETTLING_FRAMES_WITHOUT_FAT_BOXES,
};

/// The measured part: `repetitions` frames or pair searches.
#[inline(never)]
fn run(
    structure: &mut dyn BroadPhase,
    ids: &[ProxyId],
    moving: &mut [Aabb],
    frame: bool,
    repetitions: usize,
    mover: &mut Mover,
    update_time: &mut std::time::Duration,
) -> usize {
    let mut total = 0;
    for _ in 0..repetitions {
        if frame {
            let start = std::time::Instant::now();
            mover.frame(moving, |index, aabb| {
                structure.update(ids[index], aabb).unwrap()
            });
            *update_time += start.elapsed();
            let changes = structure.update_pairs();
            total += changes.began.len() + changes.ended.len();
        } else {
            structure.for_each_pair(&mut |_| total += 1);
        }
    }
    total
}

/// Time this thread has spent on a CPU, in nanoseconds (Linux; `None` elsewhere). On a shared
/// machine this is steadier than wall-clock time, which also counts time spent waiting for a core.
fn thread_cpu_nanoseconds() -> Option<u64> {
    let schedstat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    schedstat.split_whitespace().next()?.parse().ok()
}

/// `trace`: the tree's frames in blocks of 50, moves and pair finding timed apart.
fn trace(scene: Scene, n: usize, frames: usize) {
    let boxes = scene_boxes(scene, n);
    let items = keyed(&boxes);
    let (mut tree, ids) = DynamicTree::build(&items).unwrap();
    tree.update_pairs();
    let mut moving = boxes;
    let mut mover = Mover::new();
    const BLOCK: usize = 50;
    let (mut moves, mut pairs, mut leavers, mut changes) = (0.0f64, 0.0f64, 0usize, 0usize);
    for frame in 0..frames {
        let start = std::time::Instant::now();
        mover.frame(&mut moving, |index, aabb| {
            if !tree.fat_aabb(ids[index]).unwrap().contains(&aabb) {
                leavers += 1;
            }
            tree.update(ids[index], aabb).unwrap();
        });
        let moved = std::time::Instant::now();
        let reported = tree.update_pairs();
        let found = std::time::Instant::now();
        changes += reported.began.len() + reported.ended.len();
        moves += (moved - start).as_secs_f64();
        pairs += (found - moved).as_secs_f64();
        if (frame + 1) % BLOCK == 0 {
            let per_frame = |seconds: f64| seconds * 1e3 / BLOCK as f64;
            println!(
                "frames {:5}-{:5}: moves {:.3} ms, update_pairs {:.3} ms a frame; {} leavers, {} pairs began or ended a frame",
                frame + 2 - BLOCK,
                frame + 1,
                per_frame(moves),
                per_frame(pairs),
                leavers / BLOCK,
                changes / BLOCK
            );
            (moves, pairs, leavers, changes) = (0.0, 0.0, 0, 0);
        }
    }
    println!(
        "tree area ratio after {frames} frames: {:.1} (a fresh rebuild: {:.1})",
        tree.area_ratio(),
        {
            tree.rebuild();
            tree.area_ratio()
        }
    );
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    let what = arguments.get(1).map_or("frame", String::as_str);
    let structure_name = arguments.get(2).map_or("tree", String::as_str);
    let n: usize = arguments
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let count = |default: usize| {
        arguments
            .get(4)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let scene = match arguments.get(5).map_or("uniform", String::as_str) {
        "clustered" => Scene::Clustered,
        "mixed" => Scene::Mixed,
        _ => Scene::Uniform,
    };
    if what == "trace" {
        trace(scene, n, count(300));
        return;
    }
    let repetitions = count(10);
    let boxes = scene_boxes(scene, n);
    let items = keyed(&boxes);
    // Each structure with the settling frames the benchmark gives it.
    let (mut structure, ids, settling_frames): (Box<dyn BroadPhase>, Vec<ProxyId>, usize) =
        match structure_name {
            "grid" => {
                let (grid, ids) = HashGrid::build(&items).unwrap();
                (Box::new(grid), ids, SETTLING_FRAMES_WITHOUT_FAT_BOXES)
            }
            "sap" => {
                let (sap, ids) = SweepAndPrune::build(&items).unwrap();
                (Box::new(sap), ids, SETTLING_FRAMES_WITHOUT_FAT_BOXES)
            }
            _ => {
                let (tree, ids) = DynamicTree::build(&items).unwrap();
                (Box::new(tree), ids, SETTLING_FRAMES)
            }
        };
    let first_update = std::time::Instant::now();
    structure.update_pairs();
    let first_update = first_update.elapsed();
    let mut moving = boxes;
    let mut mover = Mover::new();
    let mut update_time = std::time::Duration::ZERO;
    if what == "frame" {
        let settling = std::time::Instant::now();
        for _ in 0..settling_frames {
            mover.frame(&mut moving, |index, aabb| {
                structure.update(ids[index], aabb).unwrap()
            });
            black_box(structure.update_pairs());
        }
        println!(
            "{settling_frames} settling frames first (as in the benchmark): {:.3} ms a frame",
            settling.elapsed().as_secs_f64() * 1e3 / settling_frames as f64
        );
    }
    let cpu_start = thread_cpu_nanoseconds();
    let start = std::time::Instant::now();
    let total = run(
        structure.as_mut(),
        &ids,
        &mut moving,
        what == "frame",
        repetitions,
        &mut mover,
        &mut update_time,
    );
    let elapsed = start.elapsed();
    let cpu_time = cpu_start
        .zip(thread_cpu_nanoseconds())
        .map(|(before, after)| std::time::Duration::from_nanos(after - before));
    let per_repetition = |time: std::time::Duration| time.as_secs_f64() * 1e3 / repetitions as f64;
    println!(
        "{what} {structure_name} {} n={n}: {:.3} ms per repetition ({:.3} ms in update), cpu {:.3} ms, checksum {}",
        scene.name(),
        per_repetition(elapsed),
        per_repetition(update_time),
        cpu_time.map_or(f64::NAN, per_repetition),
        black_box(total)
    );
    println!(
        "first update_pairs after the build: {:.3} ms",
        first_update.as_secs_f64() * 1e3
    );
}
