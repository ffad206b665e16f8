//! Broad-phase benchmarks: build, all pairs from scratch, and a frame where 10% of the boxes
//! move a little; ours (tree, grid, sweep and prune) beside parry2d's `Bvh` and, for the frame,
//! Box2D v3's dynamic tree on the same boxes.
//!
//! Run: `cargo bench -p collide2d --bench broad_phase` (a few minutes), then
//! `cargo run --release -p collide2d-tools --bin broad_plot` for the table and the plot.
//! Filter with e.g. `-- frame/uniform`.

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Duration;

use collide2d::broad::{BroadPhase, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
use collide2d::Aabb;
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkGroup, Criterion};
use parry2d::bounding_volume::Aabb as ParryAabb;
use parry2d::math::Vector as ParryVector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

#[path = "support/box2d.rs"]
mod box2d;
#[path = "../tests/it/support/mod.rs"]
mod support;

use support::broad_scene::{
    keyed, scene_boxes, Mover, Scene, SETTLING_FRAMES, SETTLING_FRAMES_WITHOUT_FAT_BOXES,
};

fn to_parry(aabb: &Aabb) -> ParryAabb {
    ParryAabb::new(
        ParryVector::new(aabb.min.x, aabb.min.y),
        ParryVector::new(aabb.max.x, aabb.max.y),
    )
}

/// One of our structures, built in bulk.
trait Ours: BroadPhase + Sized {
    const NAME: &'static str;
    /// Unmeasured frames before the measured ones (see [`SETTLING_FRAMES`]).
    const SETTLING: usize;
    fn build(items: &[(Aabb, u64)]) -> (Self, Vec<ProxyId>);
}

impl Ours for DynamicTree {
    const NAME: &'static str = "tree";
    const SETTLING: usize = SETTLING_FRAMES;
    fn build(items: &[(Aabb, u64)]) -> (Self, Vec<ProxyId>) {
        DynamicTree::build(items).unwrap()
    }
}

impl Ours for HashGrid {
    const NAME: &'static str = "grid";
    const SETTLING: usize = SETTLING_FRAMES_WITHOUT_FAT_BOXES;
    fn build(items: &[(Aabb, u64)]) -> (Self, Vec<ProxyId>) {
        HashGrid::build(items).unwrap()
    }
}

impl Ours for SweepAndPrune {
    const NAME: &'static str = "sap";
    const SETTLING: usize = SETTLING_FRAMES_WITHOUT_FAT_BOXES;
    fn build(items: &[(Aabb, u64)]) -> (Self, Vec<ProxyId>) {
        SweepAndPrune::build(items).unwrap()
    }
}

fn configure(c: &mut Criterion, n: usize) -> BenchmarkGroup<'_, WallTime> {
    let mut group = c.benchmark_group("broad");
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_millis(if n >= 1_000_000 {
        3000
    } else {
        1200
    }));
    group.sample_size(10);
    group
}

/// Benchmarks frames after running `settling` of them unmeasured (on the first call only, so a
/// benchmark left out by a filter runs none). Each frame is `prepare` (unmeasured: the benchmark
/// walks its boxes and lists the moves, each with its new box) and then `apply` (measured: the
/// structure's updates for those moves and its pair finding, the frame the targets speak of).
fn bench_settled_frames<M>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: String,
    settling: usize,
    mut prepare: impl FnMut() -> M,
    mut apply: impl FnMut(&mut M) -> usize,
) {
    let mut settled = false;
    group.bench_function(name, |bencher| {
        if !std::mem::replace(&mut settled, true) {
            for _ in 0..settling {
                black_box(apply(&mut prepare()));
            }
        }
        bencher.iter_batched_ref(&mut prepare, &mut apply, BatchSize::PerIteration)
    });
}

fn bench_ours<B: Ours>(c: &mut Criterion, scene: Scene, n: usize) {
    let boxes = scene_boxes(scene, n);
    let items = keyed(&boxes);
    let label = |what: &str| format!("{what}/{}/{}/{n}", scene.name(), B::NAME);
    let mut group = configure(c, n);
    group.bench_function(label("build"), |bencher| {
        bencher.iter(|| black_box(B::build(black_box(&items))))
    });
    let (structure, _) = B::build(&items);
    group.bench_function(label("pairs"), |bencher| {
        bencher.iter(|| {
            let mut count = 0usize;
            structure.for_each_pair(&mut |_| count += 1);
            black_box(count)
        })
    });
    drop(structure);
    let (mut structure, ids) = B::build(&items);
    structure.update_pairs();
    let mut moving = boxes.clone();
    let mut mover = Mover::new();
    let prepare = || mover.moves(&mut moving, |index| ids[index]);
    let apply = |moves: &mut Vec<(ProxyId, Aabb)>| {
        structure.update_many(moves).unwrap();
        let changes = structure.update_pairs();
        changes.began.len() + changes.ended.len()
    };
    bench_settled_frames(&mut group, label("frame"), B::SETTLING, prepare, apply);
    group.finish();
}

fn bench_parry(c: &mut Criterion, scene: Scene, n: usize) {
    let boxes = scene_boxes(scene, n);
    let parry_boxes: Vec<ParryAabb> = boxes.iter().map(to_parry).collect();
    let label = |what: &str| format!("{what}/{}/parry/{n}", scene.name());
    let mut group = configure(c, n);
    group.bench_function(label("build"), |bencher| {
        bencher.iter(|| {
            black_box(Bvh::from_leaves(
                BvhBuildStrategy::Binned,
                black_box(&parry_boxes),
            ))
        })
    });
    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
    let mut workspace = BvhWorkspace::default();
    group.bench_function(label("pairs"), |bencher| {
        bencher.iter(|| {
            let mut count = 0usize;
            bvh.traverse_bvtt_single_tree::<false>(&mut workspace, &mut |first, second| {
                count += boxes[first as usize].overlaps(&boxes[second as usize]) as usize;
            });
            black_box(count)
        })
    });
    // Frame: in-place leaf updates with a 0.1 margin (like our fat boxes), refit, then traverse
    // the pairs touching changed leaves, testing exact boxes.
    let mut bvh = Bvh::new();
    for (index, b) in parry_boxes.iter().enumerate() {
        bvh.insert_or_update_partially(*b, index as u32, 0.1);
    }
    bvh.refit(&mut workspace);
    bvh.traverse_bvtt_single_tree::<true>(&mut workspace, &mut |_, _| {});
    // The exact boxes: written while a frame is prepared, read by the measured traversal.
    let moving = RefCell::new(boxes.clone());
    let mut mover = Mover::new();
    let prepare = || {
        let moves = mover.moves(&mut moving.borrow_mut(), |index| index as u32);
        moves
            .into_iter()
            .map(|(index, aabb)| (index, to_parry(&aabb)))
            .collect::<Vec<_>>()
    };
    let apply = |moves: &mut Vec<(u32, ParryAabb)>| {
        for &(index, aabb) in moves.iter() {
            bvh.insert_or_update_partially(aabb, index, 0.1);
        }
        bvh.refit(&mut workspace);
        let moving = moving.borrow();
        let mut count = 0usize;
        bvh.traverse_bvtt_single_tree::<true>(&mut workspace, &mut |first, second| {
            count += moving[first as usize].overlaps(&moving[second as usize]) as usize;
        });
        count
    };
    bench_settled_frames(&mut group, label("frame"), SETTLING_FRAMES, prepare, apply);
    group.finish();
}

/// How a Box2D frame updates the leaves of moved boxes that left their fat boxes.
#[derive(Clone, Copy)]
enum Box2dUpdate {
    /// As Box2D's solver does for dynamic bodies: `EnlargeProxy` on each leaf, then one partial
    /// `Rebuild` of the enlarged nodes.
    Enlarge,
    /// `MoveProxy` on each leaf (remove and insert again), as Box2D does for teleported bodies.
    Move,
}

/// The frame in Box2D v3's dynamic tree, as its broad phase runs it: a moved box that leaves
/// its fat box (grown by 0.1, as ours) gets a new fat box and is marked moved; then each marked
/// leaf queries the tree with its fat box, and every other leaf it meets is a pair (a pair of
/// two marked leaves is counted from the larger id only, as Box2D removes such duplicates).
/// Box2D's pair set, which tells new pairs from known ones, is left out.
fn bench_box2d(c: &mut Criterion, scene: Scene, n: usize, update: Box2dUpdate) {
    const MARGIN: f32 = 0.1;
    let boxes = scene_boxes(scene, n);
    let name = match update {
        Box2dUpdate::Enlarge => "box2d",
        Box2dUpdate::Move => "box2d-move",
    };
    let label = |what: &str| format!("{what}/{}/{name}/{n}", scene.name());
    let mut group = configure(c, n);
    let fat = |aabb: &Aabb| Aabb {
        min: aabb.min - collide2d::Vec2::splat(MARGIN),
        max: aabb.max + collide2d::Vec2::splat(MARGIN),
    };
    let mut tree = box2d::DynamicTree::new(n);
    let mut fat_boxes: Vec<Aabb> = boxes.iter().map(fat).collect();
    let proxies: Vec<i32> = fat_boxes
        .iter()
        .enumerate()
        .map(|(index, aabb)| tree.create_proxy(box2d::aabb(aabb), index as u64))
        .collect();
    tree.rebuild(true);
    let mut moving = boxes.clone();
    let mut mover = Mover::new();
    let mut marked = vec![false; n];
    let mut moved: Vec<usize> = Vec::with_capacity(n);
    let prepare = || mover.moves(&mut moving, |index| index);
    let apply = |moves: &mut Vec<(usize, Aabb)>| {
        moved.clear();
        for &(index, aabb) in moves.iter() {
            let known = &fat_boxes[index];
            let inside = known.min.x <= aabb.min.x
                && known.min.y <= aabb.min.y
                && aabb.max.x <= known.max.x
                && aabb.max.y <= known.max.y;
            if !inside {
                fat_boxes[index] = fat(&aabb);
                let new_box = box2d::aabb(&fat_boxes[index]);
                match update {
                    Box2dUpdate::Enlarge => tree.enlarge_proxy(proxies[index], new_box),
                    Box2dUpdate::Move => tree.move_proxy(proxies[index], new_box),
                }
                marked[index] = true;
                moved.push(index);
            }
        }
        if let Box2dUpdate::Enlarge = update {
            tree.rebuild(false);
        }
        let mut pairs = 0usize;
        for &index in &moved {
            tree.query(box2d::aabb(&fat_boxes[index]), &mut |_, user_data| {
                let other = user_data as usize;
                if other != index && !(marked[other] && other < index) {
                    pairs += 1;
                }
                true
            });
        }
        for &index in &moved {
            marked[index] = false;
        }
        pairs
    };
    bench_settled_frames(&mut group, label("frame"), SETTLING_FRAMES, prepare, apply);
    group.finish();
}

fn broad_phase(c: &mut Criterion) {
    let sizes = [1_000usize, 10_000, 100_000, 1_000_000];
    for &n in &sizes {
        bench_ours::<DynamicTree>(c, Scene::Uniform, n);
        bench_ours::<HashGrid>(c, Scene::Uniform, n);
        bench_ours::<SweepAndPrune>(c, Scene::Uniform, n);
        bench_parry(c, Scene::Uniform, n);
        bench_box2d(c, Scene::Uniform, n, Box2dUpdate::Enlarge);
        bench_box2d(c, Scene::Uniform, n, Box2dUpdate::Move);
    }
    for scene in [Scene::Clustered, Scene::Mixed] {
        bench_ours::<DynamicTree>(c, scene, 100_000);
        bench_ours::<HashGrid>(c, scene, 100_000);
        bench_ours::<SweepAndPrune>(c, scene, 100_000);
        bench_parry(c, scene, 100_000);
        bench_box2d(c, scene, 100_000, Box2dUpdate::Enlarge);
    }
}

criterion_group!(benches, broad_phase);
criterion_main!(benches);
