//! A small driver for profiling the broad phase under callgrind: a scene of
//! `benches/broad_phase.rs` (the same boxes and motion, from `benches/support/broad_scene.rs`),
//! then either frames (10% of the boxes move a little) or all pairs from scratch. Only
//! `run_frame` and `run_pairs` are meant to be measured (each frame's moves are listed before it,
//! as in the benchmark, and not timed):
//!
//! ```text
//! cargo build --release -p collide2d-tools --bin broad_profile
//! valgrind --tool=callgrind --toggle-collect='*broad_profile*run_*' \
//!     target/release/broad_profile frame tree 100000 10
//! ```
//!
//! `frame` first runs the benchmark's unmeasured settling frames, outside `run_frame` (as many
//! as the benchmark runs for the structure).
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

use collide2d_testkit::broad_scene::{
    keyed, scene_boxes, Mover, Scene, SETTLING_FRAMES, SETTLING_FRAMES_WITHOUT_FAT_BOXES,
};

/// A measured frame, as the benchmark measures it: the structure's updates for the prepared
/// moves (one `update_many`), then its pair finding. Returns how many pairs began or ended, and
/// the time spent in the updates.
#[inline(never)]
fn run_frame(
    structure: &mut dyn BroadPhase,
    moves: &[(ProxyId, Aabb)],
) -> (usize, std::time::Duration) {
    let start = std::time::Instant::now();
    structure.update_many(moves).unwrap();
    let update_time = start.elapsed();
    let changes = structure.update_pairs();
    (changes.began.len() + changes.ended.len(), update_time)
}

/// A measured search for every pair from scratch; returns the number of pairs.
#[inline(never)]
fn run_pairs(structure: &dyn BroadPhase) -> usize {
    let mut total = 0;
    structure.for_each_pair(&mut |_| total += 1);
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
            // Not `run_frame`, so that callgrind leaves these out.
            let moves = mover.moves(&mut moving, |index| ids[index]);
            structure.update_many(&moves).unwrap();
            black_box(structure.update_pairs());
        }
        println!(
            "{settling_frames} settling frames first (as in the benchmark): {:.3} ms a frame",
            settling.elapsed().as_secs_f64() * 1e3 / settling_frames as f64
        );
    }
    // Only the frames (or searches) are timed, not the preparation of each frame's moves.
    let (mut elapsed, mut cpu_nanoseconds) = (std::time::Duration::ZERO, Some(0u64));
    let mut total = 0;
    for _ in 0..repetitions {
        let moves = if what == "frame" {
            mover.moves(&mut moving, |index| ids[index])
        } else {
            Vec::new()
        };
        let cpu_start = thread_cpu_nanoseconds();
        let start = std::time::Instant::now();
        if what == "frame" {
            let (changes, updates) = run_frame(structure.as_mut(), &moves);
            total += changes;
            update_time += updates;
        } else {
            total += run_pairs(structure.as_ref());
        }
        elapsed += start.elapsed();
        cpu_nanoseconds = cpu_nanoseconds
            .zip(cpu_start.zip(thread_cpu_nanoseconds()))
            .map(|(sum, (before, after))| sum + (after - before));
    }
    let cpu_time = cpu_nanoseconds.map(std::time::Duration::from_nanos);
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
