//! Model-based tests: every broad phase against a brute-force model, on one shared corpus of
//! random operation sequences and hand-written edge cases, compared after every step.

use std::collections::BTreeSet;

use crate::support::Rng;
use collide2d::broad::{
    ray_entry_distance, BroadPhase, BroadPhaseError, DynamicTree, HashGrid, Pair, ProxyId,
    RayControl, SweepAndPrune,
};
use collide2d::{Aabb, Vec2};

// ---------------------------------------------------------------------------------------------
// Deterministic random numbers (the shared SplitMix64 generator).

/// Helpers of these tests on the shared generator.
impl Rng {
    /// A multiple of 0.5 in [-half, half]: exact touches happen often.
    fn lattice(&mut self, half: f32) -> f32 {
        let steps = (2.0 * half) as usize * 2;
        self.below(steps + 1) as f32 * 0.5 - half
    }
}

fn aabb(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb {
        min: Vec2::new(x0, y0),
        max: Vec2::new(x1, y1),
    }
}

// ---------------------------------------------------------------------------------------------
// Operations. Proxies are named by their position in the runner's list of live proxies, so the
// same sequence runs unchanged on every structure.

#[derive(Clone, Copy, Debug)]
enum RayMode {
    All,
    StopAfter(usize),
    ClipAtFirst,
}

#[derive(Clone, Debug)]
enum Op {
    Insert(Aabb, u64),
    Update(usize, Aabb),
    /// One `update_many` call (a position may come more than once).
    UpdateMany(Vec<(usize, Aabb)>),
    /// An `update_many` call with one bad move inserted at the given place: a bad box for the
    /// first live proxy, or (`None`) the most recently removed id. Nothing may change.
    RefusedBatch(Vec<(usize, Aabb)>, usize, Option<Aabb>),
    Remove(usize),
    /// Update, remove and read an id that was removed earlier (index into the stale list).
    UseStale(usize),
    /// Insert or update with a bad box (update uses live position).
    BadBox(usize, Aabb),
    QueryAabb(Aabb),
    QueryPoint(Vec2),
    Ray(Vec2, Vec2, f32, RayMode),
    /// Structure-specific maintenance (the tree rebuilds itself).
    Maintain,
}

const WORLD: f32 = 12.0;

fn random_box(rng: &mut Rng, live_boxes: &[Aabb]) -> Aabb {
    let roll = rng.below(100);
    if roll < 4 && !live_boxes.is_empty() {
        // Identical to a live box.
        return rng.pick(live_boxes);
    }
    if roll < 8 {
        // Far away (±1e6), small.
        let cx = if rng.chance(0.5) { 1.0e6 } else { -1.0e6 } + rng.lattice(2.0);
        let cy = if rng.chance(0.5) { 1.0e6 } else { -1.0e6 } + rng.lattice(2.0);
        let size = rng.pick(&[0.0, 0.5, 1.0, 2.0]);
        return aabb(cx, cy, cx + size, cy + size);
    }
    if roll < 10 {
        // Huge: world-covering or wider than the whole scene.
        return rng.pick(&[
            aabb(-2.0e6, -2.0e6, 2.0e6, 2.0e6),
            aabb(-WORLD, -WORLD, WORLD, WORLD),
            aabb(-1.0e6, -0.5, 1.0e6, 0.5),
        ]);
    }
    let x = rng.lattice(WORLD);
    let y = rng.lattice(WORLD);
    let sizes = [0.0, 0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 3.5, 6.0];
    let w = rng.pick(&sizes);
    let h = rng.pick(&sizes);
    aabb(x, y, x + w, y + h)
}

fn moved_box(rng: &mut Rng, old: Aabb, live_boxes: &[Aabb]) -> Aabb {
    match rng.below(10) {
        0..=5 => {
            let offset = Vec2::new(rng.lattice(1.0), rng.lattice(1.0));
            Aabb {
                min: old.min + offset,
                max: old.max + offset,
            }
        }
        6 => {
            let grow = rng.pick(&[0.0, 0.5, 1.0]);
            Aabb {
                min: old.min,
                max: old.max + Vec2::splat(grow),
            }
        }
        _ => random_box(rng, live_boxes),
    }
}

fn random_ray(rng: &mut Rng) -> Op {
    let origin = Vec2::new(rng.lattice(WORLD + 3.0), rng.lattice(WORLD + 3.0));
    let direction = match rng.below(4) {
        0 => rng.pick(&[Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y]),
        1 => Vec2::new(rng.lattice(2.0), rng.lattice(2.0)) + Vec2::new(0.25, 0.0),
        _ => Vec2::new(rng.lattice(4.0) + 0.1, rng.lattice(4.0) - 0.3),
    };
    let max_distance = rng.pick(&[f32::INFINITY, 5.0, 20.0, 100.0, 0.0, 3.0e6]);
    let mode = match rng.below(6) {
        0 => RayMode::StopAfter(1),
        1 => RayMode::StopAfter(3),
        2 => RayMode::ClipAtFirst,
        _ => RayMode::All,
    };
    Op::Ray(origin, direction, max_distance, mode)
}

/// 1 to 12 moves of live proxies, in order; a proxy may move more than once.
fn random_moves(rng: &mut Rng, live_boxes: &[Aabb]) -> Vec<(usize, Aabb)> {
    let mut boxes = live_boxes.to_vec();
    (0..1 + rng.below(12))
        .map(|_| {
            let position = rng.below(boxes.len());
            boxes[position] = moved_box(rng, boxes[position], live_boxes);
            (position, boxes[position])
        })
        .collect()
}

/// A random sequence whose live count hovers around `target_live`.
fn random_corpus(seed: u64, steps: usize, target_live: usize) -> Vec<Op> {
    let mut rng = Rng(seed);
    let mut live_boxes: Vec<Aabb> = Vec::new();
    let mut stale_count = 0usize;
    let mut ops = Vec::with_capacity(steps);
    let mut next_key = 0u64;
    while ops.len() < steps {
        let roll = rng.below(100);
        let insert_weight = if live_boxes.len() < target_live {
            40
        } else {
            10
        };
        let op = if live_boxes.is_empty() || roll < insert_weight {
            let b = random_box(&mut rng, &live_boxes);
            live_boxes.push(b);
            next_key += 1;
            Op::Insert(b, next_key)
        } else if roll < insert_weight + 30 {
            let position = rng.below(live_boxes.len());
            let b = moved_box(&mut rng, live_boxes[position], &live_boxes);
            live_boxes[position] = b;
            Op::Update(position, b)
        } else if roll < insert_weight + 40 {
            let position = rng.below(live_boxes.len());
            live_boxes.swap_remove(position);
            stale_count += 1;
            Op::Remove(position)
        } else if roll < insert_weight + 42 && stale_count > 0 {
            Op::UseStale(rng.below(stale_count))
        } else if roll < insert_weight + 44 {
            let bad = rng.pick(&[
                aabb(f32::NAN, 0.0, 1.0, 1.0),
                aabb(0.0, 0.0, f32::INFINITY, 1.0),
                aabb(1.0, 0.0, 0.0, 1.0),
                aabb(0.0, 2.0, 1.0, 1.0),
                aabb(0.0, f32::NEG_INFINITY, 1.0, 1.0),
            ]);
            if rng.chance(0.5) {
                Op::BadBox(rng.below(live_boxes.len()), bad)
            } else {
                let moves = random_moves(&mut rng, &live_boxes);
                let bad = if stale_count > 0 && rng.chance(0.5) {
                    None
                } else {
                    Some(bad)
                };
                Op::RefusedBatch(moves, rng.below(8), bad)
            }
        } else if roll < insert_weight + 50 {
            let b = random_box(&mut rng, &live_boxes);
            Op::QueryAabb(b)
        } else if roll < insert_weight + 54 {
            Op::QueryPoint(Vec2::new(rng.lattice(WORLD), rng.lattice(WORLD)))
        } else if roll < insert_weight + 59 {
            random_ray(&mut rng)
        } else if roll < insert_weight + 60 {
            Op::Maintain
        } else if roll < insert_weight + 70 {
            let moves = random_moves(&mut rng, &live_boxes);
            for &(position, b) in &moves {
                live_boxes[position] = b;
            }
            Op::UpdateMany(moves)
        } else {
            let position = rng.below(live_boxes.len());
            let b = moved_box(&mut rng, live_boxes[position], &live_boxes);
            live_boxes[position] = b;
            Op::Update(position, b)
        };
        ops.push(op);
    }
    ops
}

/// Hand-written edge cases: identical boxes, zero-size boxes, far and huge boxes, stale ids.
fn edge_corpus() -> Vec<Op> {
    let mut ops = Vec::new();
    // 40 identical boxes, one leaves and comes back, half removed.
    let unit = aabb(0.0, 0.0, 1.0, 1.0);
    for key in 0..40 {
        ops.push(Op::Insert(unit, key));
    }
    ops.push(Op::Update(7, aabb(5.0, 5.0, 6.0, 6.0)));
    ops.push(Op::Update(7, unit));
    ops.push(Op::QueryPoint(Vec2::new(0.5, 0.5)));
    ops.push(Op::Ray(Vec2::new(-3.0, 0.5), Vec2::X, 10.0, RayMode::All));
    ops.push(Op::Ray(
        Vec2::new(-3.0, 0.5),
        Vec2::X,
        10.0,
        RayMode::ClipAtFirst,
    ));
    for _ in 0..20 {
        ops.push(Op::Remove(0));
    }
    ops.push(Op::UseStale(3));
    // Zero-size boxes touching at corners and edges.
    ops.push(Op::Insert(aabb(3.0, 3.0, 3.0, 3.0), 100));
    ops.push(Op::Insert(aabb(3.0, 3.0, 4.0, 4.0), 101));
    ops.push(Op::Insert(aabb(2.0, 2.0, 3.0, 3.0), 102));
    ops.push(Op::Insert(aabb(4.0, 3.0, 4.0, 5.0), 103));
    ops.push(Op::QueryPoint(Vec2::new(3.0, 3.0)));
    ops.push(Op::QueryAabb(aabb(4.0, 4.0, 4.0, 4.0)));
    ops.push(Op::Ray(
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 1.0),
        100.0,
        RayMode::All,
    ));
    // Far away and huge boxes.
    ops.push(Op::Insert(
        aabb(1.0e6, 1.0e6, 1.0e6 + 1.0, 1.0e6 + 1.0),
        200,
    ));
    ops.push(Op::Insert(
        aabb(-1.0e6 - 1.0, -1.0e6 - 1.0, -1.0e6, -1.0e6),
        201,
    ));
    ops.push(Op::Insert(
        aabb(1.0e6 + 0.5, 1.0e6 + 0.5, 1.0e6 + 2.0, 1.0e6 + 2.0),
        202,
    ));
    ops.push(Op::Insert(aabb(-2.0e6, -2.0e6, 2.0e6, 2.0e6), 203));
    ops.push(Op::Insert(aabb(-1.0e6, -0.5, 1.0e6, 0.5), 204));
    ops.push(Op::Ray(
        Vec2::new(-1.5e6, -1.5e6),
        Vec2::new(1.0, 1.0),
        f32::INFINITY,
        RayMode::All,
    ));
    ops.push(Op::Ray(
        Vec2::new(-1.5e6, 0.0),
        Vec2::X,
        f32::INFINITY,
        RayMode::StopAfter(3),
    ));
    ops.push(Op::QueryAabb(aabb(-3.0e6, -3.0e6, 3.0e6, 3.0e6)));
    ops.push(Op::QueryPoint(Vec2::new(1.0e6 + 0.75, 1.0e6 + 0.75)));
    ops.push(Op::Maintain);
    ops.push(Op::Update(
        0,
        aabb(1.0e6 - 0.5, 1.0e6 - 0.5, 1.0e6 + 0.5, 1.0e6 + 0.5),
    ));
    ops.push(Op::Remove(1));
    ops.push(Op::UseStale(0));
    ops.push(Op::BadBox(0, aabb(f32::NAN, 0.0, 0.0, 0.0)));
    ops.push(Op::BadBox(2, aabb(2.0, 0.0, 1.0, 0.0)));
    for _ in 0..5 {
        ops.push(Op::Remove(0));
    }
    ops.push(Op::Maintain);
    ops
}

// ---------------------------------------------------------------------------------------------
// The structures under test.

trait Checked: BroadPhase {
    fn check(&self) -> Result<(), String>;
    fn maintain(&mut self) {}
}

impl Checked for DynamicTree {
    fn check(&self) -> Result<(), String> {
        self.validate()
    }
    fn maintain(&mut self) {
        self.rebuild();
    }
}

impl Checked for HashGrid {
    fn check(&self) -> Result<(), String> {
        self.validate()
    }
}

impl Checked for SweepAndPrune {
    fn check(&self) -> Result<(), String> {
        self.validate()
    }
}

// ---------------------------------------------------------------------------------------------
// The brute-force model and the runner.

fn brute_force_pairs(live: &[(ProxyId, Aabb)]) -> BTreeSet<Pair> {
    let mut pairs = BTreeSet::new();
    for (position, (first, first_box)) in live.iter().enumerate() {
        for (second, second_box) in &live[position + 1..] {
            if first_box.overlaps(second_box) {
                pairs.insert(Pair::new(*first, *second));
            }
        }
    }
    pairs
}

fn sorted_ids(mut ids: Vec<ProxyId>) -> Vec<ProxyId> {
    ids.sort();
    ids
}

/// The ids and boxes of `moves` (positions taken modulo the live count, which is not zero).
fn batch_of(moves: &[(usize, Aabb)], live: &[(ProxyId, Aabb)]) -> Vec<(ProxyId, Aabb)> {
    moves
        .iter()
        .map(|&(position, b)| (live[position % live.len()].0, b))
        .collect()
}

/// Runs `ops` on `structure`, comparing with the model after every step.
fn run<B: Checked>(name: &str, ops: &[Op], mut structure: B) {
    let mut live: Vec<(ProxyId, Aabb)> = Vec::new();
    let mut stale: Vec<ProxyId> = Vec::new();
    let mut reported: BTreeSet<Pair> = BTreeSet::new();
    for (step, op) in ops.iter().enumerate() {
        let context = format!("{name}, step {step}: {op:?}");
        match op.clone() {
            Op::Insert(b, key) => {
                let id = structure.insert(b, key).expect(&context);
                assert_eq!(structure.key(id), Ok(key), "{context}");
                live.push((id, b));
            }
            Op::Update(position, b) => {
                if live.is_empty() {
                    continue;
                }
                let position = position % live.len();
                structure.update(live[position].0, b).expect(&context);
                live[position].1 = b;
            }
            Op::UpdateMany(moves) => {
                if live.is_empty() {
                    continue;
                }
                structure
                    .update_many(&batch_of(&moves, &live))
                    .expect(&context);
                let count = live.len();
                for &(position, b) in &moves {
                    live[position % count].1 = b;
                }
            }
            Op::RefusedBatch(moves, place, bad) => {
                if live.is_empty() {
                    continue;
                }
                let mut batch = batch_of(&moves, &live);
                let (bad_move, expected) = match (bad, stale.last()) {
                    (Some(b), _) => {
                        let kind = if b.min.is_finite() && b.max.is_finite() {
                            BroadPhaseError::InvertedAabb { aabb: b }
                        } else {
                            BroadPhaseError::NonFiniteAabb { aabb: b }
                        };
                        ((live[0].0, b), kind)
                    }
                    (None, Some(&id)) => (
                        (id, aabb(0.0, 0.0, 1.0, 1.0)),
                        BroadPhaseError::StaleProxy { id },
                    ),
                    (None, None) => continue,
                };
                batch.insert(place.min(batch.len()), bad_move);
                let error = structure.update_many(&batch).expect_err(&context);
                // NaN boxes are not equal to themselves: compare the kind and the id.
                assert_eq!(
                    std::mem::discriminant(&error),
                    std::mem::discriminant(&expected),
                    "{context}: {error}"
                );
                if let BroadPhaseError::StaleProxy { .. } = expected {
                    assert_eq!(error, expected, "{context}");
                }
                for &(id, b) in &live {
                    assert_eq!(structure.get_aabb(id), Ok(b), "{context}: {id:?} changed");
                }
            }
            Op::Remove(position) => {
                if live.is_empty() {
                    continue;
                }
                let position = position % live.len();
                let (id, _) = live.swap_remove(position);
                structure.remove(id).expect(&context);
                stale.push(id);
            }
            Op::UseStale(which) => {
                if stale.is_empty() {
                    continue;
                }
                let id = stale[which % stale.len()];
                let expected = Err(BroadPhaseError::StaleProxy { id });
                assert_eq!(structure.remove(id), expected, "{context}");
                assert_eq!(
                    structure.update(id, aabb(0.0, 0.0, 1.0, 1.0)),
                    expected,
                    "{context}"
                );
                assert_eq!(structure.get_aabb(id).map(|_| ()), expected, "{context}");
                assert_eq!(structure.key(id).map(|_| ()), expected, "{context}");
                assert!(!structure.contains(id), "{context}");
                let unknown = ProxyId::new(1 << 30, 0);
                assert_eq!(
                    structure.remove(unknown),
                    Err(BroadPhaseError::UnknownProxy { id: unknown }),
                    "{context}"
                );
            }
            Op::BadBox(position, b) => {
                let expected_kind = |error: BroadPhaseError| match error {
                    BroadPhaseError::NonFiniteAabb { .. } => {
                        !b.min.is_finite() || !b.max.is_finite()
                    }
                    BroadPhaseError::InvertedAabb { .. } => b.min.x > b.max.x || b.min.y > b.max.y,
                    _ => false,
                };
                let before = structure.len();
                let error = structure.insert(b, 0).expect_err(&context);
                assert!(expected_kind(error), "{context}: {error}");
                assert_eq!(structure.len(), before, "{context}");
                if !live.is_empty() {
                    let (id, old) = live[position % live.len()];
                    let error = structure.update(id, b).expect_err(&context);
                    assert!(expected_kind(error), "{context}: {error}");
                    assert_eq!(structure.get_aabb(id), Ok(old), "{context}");
                }
            }
            Op::QueryAabb(query) => {
                let mut found = Vec::new();
                structure.overlap_aabb_each(query, &mut |id, _| {
                    found.push(id);
                    true
                });
                let expected: Vec<ProxyId> = live
                    .iter()
                    .filter(|(_, b)| b.overlaps(&query))
                    .map(|(id, _)| *id)
                    .collect();
                assert_eq!(sorted_ids(found), sorted_ids(expected), "{context}");
                // Stopping after the first hit reports exactly one.
                let mut count = 0;
                structure.overlap_aabb_each(query, &mut |_, _| {
                    count += 1;
                    false
                });
                assert_eq!(
                    count,
                    live.iter().any(|(_, b)| b.overlaps(&query)) as usize,
                    "{context}"
                );
            }
            Op::QueryPoint(point) => {
                let mut found = Vec::new();
                structure.overlap_point_each(point, &mut |id, _| {
                    found.push(id);
                    true
                });
                let expected: Vec<ProxyId> = live
                    .iter()
                    .filter(|(_, b)| b.contains_point(point))
                    .map(|(id, _)| *id)
                    .collect();
                assert_eq!(sorted_ids(found), sorted_ids(expected), "{context}");
            }
            Op::Ray(origin, direction, max_distance, mode) => {
                check_ray(
                    &structure,
                    &live,
                    origin,
                    direction,
                    max_distance,
                    mode,
                    &context,
                );
            }
            Op::Maintain => structure.maintain(),
        }
        if let Err(message) = structure.check() {
            panic!("{context}: invalid structure: {message}");
        }
        assert_eq!(structure.len(), live.len(), "{context}");

        // Pairs: incremental changes, the reported set, and from scratch.
        let expected = brute_force_pairs(&live);
        let changes = structure.update_pairs().clone();
        let began: Vec<Pair> = expected.difference(&reported).copied().collect();
        let ended: Vec<Pair> = reported.difference(&expected).copied().collect();
        assert_eq!(changes.began, began, "{context}: began");
        assert_eq!(changes.ended, ended, "{context}: ended");
        let expected_vec: Vec<Pair> = expected.iter().copied().collect();
        assert_eq!(
            structure.current_pairs(),
            expected_vec,
            "{context}: current pairs"
        );
        assert_eq!(
            structure.find_pairs(),
            expected_vec,
            "{context}: pairs from scratch"
        );
        reported = expected;
    }
}

fn check_ray<B: BroadPhase>(
    structure: &B,
    live: &[(ProxyId, Aabb)],
    origin: Vec2,
    direction: Vec2,
    max_distance: f32,
    mode: RayMode,
    context: &str,
) {
    let mut expected: Vec<(f32, ProxyId)> = live
        .iter()
        .filter_map(|(id, b)| {
            ray_entry_distance(origin, direction, max_distance, *b).map(|t| (t, *id))
        })
        .collect();
    expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut visited: Vec<(f32, ProxyId)> = Vec::new();
    structure
        .ray_cast_each(origin, direction, max_distance, &mut |hit| {
            visited.push((hit.distance, hit.id));
            match mode {
                RayMode::All => RayControl::Continue,
                RayMode::StopAfter(count) if visited.len() >= count => RayControl::Stop,
                RayMode::StopAfter(_) => RayControl::Continue,
                RayMode::ClipAtFirst => RayControl::Clip(hit.distance),
            }
        })
        .expect(context);
    for window in visited.windows(2) {
        assert!(
            window[0].0 <= window[1].0,
            "{context}: distances decrease: {visited:?}"
        );
    }
    match mode {
        RayMode::All => {
            let mut got = visited.clone();
            got.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(got, expected, "{context}");
        }
        RayMode::StopAfter(count) => {
            let prefix: Vec<f32> = expected.iter().take(count).map(|e| e.0).collect();
            let got: Vec<f32> = visited.iter().map(|e| e.0).collect();
            assert_eq!(got, prefix, "{context}");
        }
        RayMode::ClipAtFirst => {
            let nearest: Vec<(f32, ProxyId)> = expected
                .iter()
                .copied()
                .filter(|e| e.0 == expected[0].0)
                .collect();
            let mut got = visited.clone();
            got.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(got, nearest, "{context}");
        }
    }
}

/// Every structure configuration the corpus runs against.
fn run_all(name: &str, ops: &[Op]) {
    run(&format!("{name} / tree"), ops, DynamicTree::new());
    run(
        &format!("{name} / tree, margin 0"),
        ops,
        DynamicTree::with_margin(0.0),
    );
    run(
        &format!("{name} / tree, margin 2"),
        ops,
        DynamicTree::with_margin(2.0),
    );
    run(
        &format!("{name} / grid 1.0"),
        ops,
        HashGrid::new(1.0).unwrap(),
    );
    run(
        &format!("{name} / grid 3.0, 4 cells max"),
        ops,
        HashGrid::with_max_cells_per_proxy(3.0, 4).unwrap(),
    );
    run(
        &format!("{name} / sweep and prune"),
        ops,
        SweepAndPrune::new(),
    );
}

#[test]
fn edge_cases_match_brute_force() {
    run_all("edge corpus", &edge_corpus());
}

#[test]
fn random_operations_around_60_boxes_match_brute_force() {
    run_all("seed 1", &random_corpus(1, 10_000, 60));
}

#[test]
fn random_operations_around_100_boxes_match_brute_force() {
    run_all("seed 2", &random_corpus(2, 10_000, 100));
}

#[test]
fn random_operations_around_20_boxes_match_brute_force() {
    run_all("seed 3", &random_corpus(3, 10_000, 20));
}

#[test]
fn bulk_built_structures_match_brute_force() {
    let mut rng = Rng(99);
    let boxes: Vec<(Aabb, u64)> = (0..400)
        .map(|key| (random_box(&mut rng, &[]), key))
        .collect();
    let (tree, tree_ids) = DynamicTree::build(&boxes).unwrap();
    let (grid, grid_ids) = HashGrid::build(&boxes).unwrap();
    let (sweep, sweep_ids) = SweepAndPrune::build(&boxes).unwrap();
    tree.validate().unwrap();
    grid.validate().unwrap();
    sweep.validate().unwrap();
    let live: Vec<(ProxyId, Aabb)> = tree_ids
        .iter()
        .zip(&boxes)
        .map(|(id, (b, _))| (*id, *b))
        .collect();
    let expected: Vec<Pair> = brute_force_pairs(&live).into_iter().collect();
    assert_eq!(tree_ids, grid_ids);
    assert_eq!(tree_ids, sweep_ids);
    assert_eq!(tree.find_pairs(), expected);
    assert_eq!(grid.find_pairs(), expected);
    assert_eq!(sweep.find_pairs(), expected);
    // Continue with random operations on the bulk-built structures.
    let ops = random_corpus(7, 2_000, 400);
    let prefix: Vec<Op> = boxes.iter().map(|&(b, key)| Op::Insert(b, key)).collect();
    let _ = prefix; // the structures below already hold these boxes
    run_prebuilt("bulk tree", &ops, tree, &live);
    run_prebuilt("bulk grid", &ops, grid, &live);
    run_prebuilt("bulk sweep", &ops, sweep, &live);
}

/// Like [`run`] for a structure that already holds `live`: checks the first report, then
/// replays `ops` (Insert ops add to the existing boxes).
fn run_prebuilt<B: Checked>(name: &str, ops: &[Op], mut structure: B, live: &[(ProxyId, Aabb)]) {
    let changes = structure.update_pairs().clone();
    let expected: Vec<Pair> = brute_force_pairs(live).into_iter().collect();
    assert_eq!(changes.began, expected, "{name}: first report");
    assert!(changes.ended.is_empty());
    // Remove everything through the ops runner's own bookkeeping: simplest is to remove here.
    for (id, _) in live {
        structure.remove(*id).unwrap();
    }
    let changes = structure.update_pairs().clone();
    assert_eq!(changes.ended, expected, "{name}: removal ends every pair");
    run(name, ops, structure);
}

/// `insert_many` into a structure that already holds boxes (some slots freed): the tree takes a
/// batch smaller than itself one box at a time and rebuilds itself once for a larger one;
/// sweep and prune sorts the batch and merges it. Either way it hands out the ids one `insert`
/// at a time would (freed slots first), keeps the ids already there, reports the pairs one
/// `insert` at a time reports, which are exactly the brute-force pairs, and a batch holding
/// one bad box changes nothing. Returns the structure and the one built by single inserts.
fn check_insert_many_into_a_populated_structure<B: Checked + Clone>(
    name: &str,
    mut structure: B,
    insert_many: impl Fn(&mut B, &[(Aabb, u64)]) -> Result<Vec<ProxyId>, BroadPhaseError>,
) -> (B, B) {
    let mut rng = Rng(0xb01c);
    let mut live: Vec<(ProxyId, Aabb)> = Vec::new();
    for key in 0..200 {
        let boxes: Vec<Aabb> = live.iter().map(|(_, b)| *b).collect();
        let b = random_box(&mut rng, &boxes);
        live.push((structure.insert(b, key).unwrap(), b));
    }
    for _ in 0..20 {
        let (id, _) = live.swap_remove(rng.below(live.len()));
        structure.remove(id).unwrap();
    }
    let mut reported: BTreeSet<Pair> = structure.update_pairs().began.iter().copied().collect();
    assert_eq!(reported, brute_force_pairs(&live));
    let mut single = structure.clone();
    // For the tree, 30 < 180 live boxes goes one at a time; 180 and 800 rebuild it once each.
    for (batch_index, batch_len) in [30usize, 180, 800, 0].into_iter().enumerate() {
        let boxes: Vec<Aabb> = live.iter().map(|(_, b)| *b).collect();
        let batch: Vec<(Aabb, u64)> = (0..batch_len)
            .map(|k| {
                (
                    random_box(&mut rng, &boxes),
                    (1000 * (batch_index + 1) + k) as u64,
                )
            })
            .collect();
        if batch_len > 0 {
            let mut bad = batch.clone();
            bad.insert(batch_len / 2, (aabb(0.0, 0.0, f32::NAN, 1.0), 7));
            assert!(matches!(
                insert_many(&mut structure, &bad),
                Err(BroadPhaseError::NonFiniteAabb { .. })
            ));
            assert_eq!(structure.len(), live.len(), "{name}, {batch_len}: refused");
            structure.check().unwrap();
            assert!(
                structure.update_pairs().is_empty(),
                "{name}, {batch_len}: refused"
            );
            single.update_pairs();
        }
        let expected_ids: Vec<ProxyId> = batch
            .iter()
            .map(|&(b, key)| single.insert(b, key).unwrap())
            .collect();
        let ids = insert_many(&mut structure, &batch).unwrap();
        structure.check().unwrap();
        assert_eq!(ids, expected_ids, "{name}, {batch_len}");
        live.extend(ids.iter().copied().zip(batch.iter().map(|&(b, _)| b)));
        for (id, (_, key)) in ids.iter().zip(&batch) {
            assert_eq!(structure.key(*id), Ok(*key));
        }
        for (id, _) in &live {
            assert!(structure.key(*id).is_ok(), "{name}: {id:?} stays live");
        }
        let changes = structure.update_pairs().clone();
        assert_eq!(&changes, single.update_pairs(), "{name}, {batch_len}");
        assert!(changes.ended.is_empty());
        reported.extend(changes.began.iter().copied());
        let expected = brute_force_pairs(&live);
        assert_eq!(reported, expected, "{name}, {batch_len}");
        assert_eq!(
            structure.find_pairs(),
            expected.iter().copied().collect::<Vec<_>>()
        );
    }
    // The structure keeps working: move every third box and compare again.
    let mut expected = reported;
    for (id, b) in live.iter_mut().step_by(3) {
        *b = moved_box(&mut rng, *b, &[]);
        structure.update(*id, *b).unwrap();
        single.update(*id, *b).unwrap();
    }
    let changes = structure.update_pairs().clone();
    for pair in &changes.ended {
        assert!(expected.remove(pair), "{name}");
    }
    expected.extend(changes.began.iter().copied());
    assert_eq!(expected, brute_force_pairs(&live), "{name}");
    structure.check().unwrap();
    (structure, single)
}

#[test]
fn tree_insert_many_into_a_populated_tree_matches_single_inserts_and_brute_force() {
    let (tree, single) = check_insert_many_into_a_populated_structure(
        "tree",
        DynamicTree::new(),
        DynamicTree::insert_many,
    );
    // Rebuilt by the large batches (then both moved alike): no worse a tree than the same
    // boxes inserted singly.
    assert!(
        tree.area_ratio() <= single.area_ratio(),
        "{} vs {}",
        tree.area_ratio(),
        single.area_ratio()
    );
}

#[test]
fn sweep_and_prune_insert_many_into_a_populated_array_matches_single_inserts_and_brute_force() {
    check_insert_many_into_a_populated_structure(
        "sweep and prune",
        SweepAndPrune::new(),
        SweepAndPrune::insert_many,
    );
}

/// `SweepAndPrune::remove_many` against `remove` one id at a time: the same pairs end (among
/// the removed boxes and across), the array stays sorted, the remaining pairs are exactly the
/// brute-force ones, and a batch naming a stale id, or one id twice, changes nothing.
#[test]
fn sweep_and_prune_remove_many_matches_single_removals_and_brute_force() {
    let mut rng = Rng(0x4e40);
    let mut sweep = SweepAndPrune::new();
    let mut live: Vec<(ProxyId, Aabb)> = Vec::new();
    for key in 0..300 {
        let boxes: Vec<Aabb> = live.iter().map(|(_, b)| *b).collect();
        let b = random_box(&mut rng, &boxes);
        live.push((sweep.insert(b, key).unwrap(), b));
    }
    let (gone, _) = live.remove(1);
    sweep.remove(gone).unwrap();
    sweep.update_pairs();
    let mut single = sweep.clone();
    let mut leaving: Vec<ProxyId> = live.iter().step_by(2).map(|(id, _)| *id).collect();
    for index in (1..leaving.len()).rev() {
        leaving.swap(index, rng.below(index + 1));
    }
    for bad in [
        vec![leaving[0], gone, leaving[1]],
        vec![leaving[0], leaving[1], leaving[0]],
    ] {
        assert!(matches!(
            sweep.remove_many(&bad),
            Err(BroadPhaseError::StaleProxy { .. })
        ));
        sweep.validate().unwrap();
        assert_eq!(sweep.len(), live.len());
        assert!(sweep.update_pairs().is_empty());
    }
    for id in &leaving {
        single.remove(*id).unwrap();
    }
    sweep.remove_many(&leaving).unwrap();
    sweep.validate().unwrap();
    let changes = sweep.update_pairs().clone();
    assert!(changes.ended.len() > 20, "{}", changes.ended.len());
    assert_eq!(&changes, single.update_pairs());
    live.retain(|(id, _)| !leaving.contains(id));
    let expected: Vec<Pair> = brute_force_pairs(&live).into_iter().collect();
    assert_eq!(sweep.find_pairs(), expected);
    assert_eq!(sweep.current_pairs(), expected);
    // The freed slots are taken again as single removals leave them.
    let b = aabb(0.0, 0.0, 1.0, 1.0);
    assert_eq!(sweep.insert(b, 9).unwrap(), single.insert(b, 9).unwrap());
}

#[test]
fn ten_thousand_identical_boxes() {
    let unit = aabb(-0.5, -0.5, 0.5, 0.5);
    let items: Vec<(Aabb, u64)> = (0..10_000).map(|key| (unit, key)).collect();
    let expected_pairs = 10_000u64 * 9_999 / 2;
    fn exercise<B: Checked>(name: &str, mut structure: B, ids: Vec<ProxyId>, expected_pairs: u64) {
        let mut count = 0u64;
        structure.for_each_pair(&mut |_| count += 1);
        assert_eq!(count, expected_pairs, "{name}");
        let mut hits = 0;
        structure.overlap_point_each(Vec2::ZERO, &mut |_, _| {
            hits += 1;
            true
        });
        assert_eq!(hits, 10_000, "{name}");
        let mut ray_hits = 0;
        structure
            .ray_cast_each(Vec2::new(-5.0, 0.0), Vec2::X, 10.0, &mut |hit| {
                // The box edge at -0.5, grown by 8 ulps of 5 (the origin's coordinate).
                let expected = ray_entry_distance(
                    Vec2::new(-5.0, 0.0),
                    Vec2::X,
                    10.0,
                    aabb(-0.5, -0.5, 0.5, 0.5),
                );
                assert_eq!(Some(hit.distance), expected);
                assert!((hit.distance - 4.5).abs() < 1e-5);
                ray_hits += 1;
                RayControl::Continue
            })
            .unwrap();
        assert_eq!(ray_hits, 10_000, "{name}");
        for id in ids.iter().step_by(2) {
            structure.remove(*id).unwrap();
        }
        for id in ids.iter().skip(1).step_by(20) {
            structure.update(*id, aabb(3.0, 3.0, 4.0, 4.0)).unwrap();
        }
        structure.check().unwrap();
        assert_eq!(structure.len(), 5_000, "{name}");
    }
    let (tree, ids) = DynamicTree::build(&items).unwrap();
    exercise("built tree", tree, ids, expected_pairs);
    let mut tree = DynamicTree::new();
    let ids = tree.insert_many(&items).unwrap();
    assert!(
        tree.height() < 64,
        "identical boxes must not degrade into a list: {}",
        tree.height()
    );
    exercise("inserted tree", tree, ids, expected_pairs);
    let (grid, ids) = HashGrid::build(&items).unwrap();
    exercise("grid", grid, ids, expected_pairs);
    let (sweep, ids) = SweepAndPrune::build(&items).unwrap();
    exercise("sweep and prune", sweep, ids, expected_pairs);
}

#[test]
fn incremental_pairs_of_many_identical_boxes() {
    let unit = aabb(0.0, 0.0, 1.0, 1.0);
    fn exercise<B: BroadPhase>(mut structure: B) {
        let ids: Vec<ProxyId> = (0..1_200)
            .map(|key| structure.insert(aabb(0.0, 0.0, 1.0, 1.0), key).unwrap())
            .collect();
        assert_eq!(structure.update_pairs().began.len(), 1_200 * 1_199 / 2);
        structure
            .update(ids[5], aabb(10.0, 10.0, 11.0, 11.0))
            .unwrap();
        assert_eq!(structure.update_pairs().ended.len(), 1_199);
        structure.update(ids[5], aabb(1.0, 1.0, 2.0, 2.0)).unwrap();
        assert_eq!(structure.update_pairs().began.len(), 1_199);
        assert_eq!(structure.current_pairs().len(), 1_200 * 1_199 / 2);
    }
    let _ = unit;
    exercise(DynamicTree::new());
    exercise(HashGrid::new(1.0).unwrap());
    exercise(SweepAndPrune::new());
}

/// Frames in which most proxies move at once (from 30% to all of them): the pairs of two moved
/// proxies are settled by one side only, and every frame's began and ended pairs must still be
/// exactly the change of the brute-force pair set.
#[test]
fn frames_where_most_proxies_move_match_brute_force() {
    // Shares of 30 % to 100 % moving, so frames alternate between the incremental refresh and
    // the pass from scratch (half or more moved), with proxies removed and inserted between
    // frames, and a far-away box for ten frames, which turns the pass from scratch down.
    fn exercise<B: Checked>(name: &str, mut structure: B) {
        let mut rng = Rng(0x0005_eed0_fa11);
        let mut next_key = 0u64;
        let new_box = |rng: &mut Rng| {
            let (x, y) = (rng.lattice(12.0), rng.lattice(12.0));
            let (w, h) = (rng.pick(&[0.5, 1.0, 1.5]), rng.pick(&[0.5, 1.0, 2.0]));
            aabb(x, y, x + w, y + h)
        };
        let mut live: Vec<(ProxyId, Aabb)> = Vec::new();
        for _ in 0..400 {
            let b = new_box(&mut rng);
            live.push((structure.insert(b, next_key).unwrap(), b));
            next_key += 1;
        }
        let far = aabb(1.0e6, -1.0e6, 1.0e6 + 1.0, -1.0e6 + 1.0);
        let mut far_id = None;
        let mut reported: BTreeSet<Pair> = BTreeSet::new();
        for frame in 0..90 {
            if frame > 0 {
                let share = [0.3, 0.6, 1.0][frame % 3];
                for (id, b) in live.iter_mut() {
                    if !rng.chance(share) {
                        continue;
                    }
                    let offset = if rng.chance(0.05) {
                        Vec2::new(rng.lattice(12.0), rng.lattice(12.0)) - b.min
                    } else {
                        Vec2::new(rng.lattice(0.5), rng.lattice(0.5))
                    };
                    *b = Aabb {
                        min: b.min + offset,
                        max: b.max + offset,
                    };
                    structure.update(*id, *b).unwrap();
                }
            }
            if frame % 4 == 1 {
                for _ in 0..6 {
                    let (id, _) = live.swap_remove(rng.below(live.len()));
                    structure.remove(id).unwrap();
                }
                for _ in 0..5 {
                    let b = new_box(&mut rng);
                    live.push((structure.insert(b, next_key).unwrap(), b));
                    next_key += 1;
                }
            }
            if frame == 40 {
                far_id = Some(structure.insert(far, next_key).unwrap());
                next_key += 1;
            }
            if frame == 50 {
                structure.remove(far_id.take().unwrap()).unwrap();
            }
            let changes = structure.update_pairs().clone();
            for pair in &changes.ended {
                assert!(
                    reported.remove(pair),
                    "{name}, frame {frame}: {pair:?} ended unreported"
                );
            }
            for pair in &changes.began {
                assert!(
                    reported.insert(*pair),
                    "{name}, frame {frame}: {pair:?} began twice"
                );
            }
            assert_eq!(reported, brute_force_pairs(&live), "{name}, frame {frame}");
            assert_eq!(
                structure.current_pairs(),
                reported.iter().copied().collect::<Vec<_>>(),
                "{name}, frame {frame}"
            );
            structure.check().unwrap();
        }
    }
    exercise("tree", DynamicTree::new());
    exercise("grid", HashGrid::new(1.0).unwrap());
    exercise("sweep and prune", SweepAndPrune::new());
}

/// The tree's pairs, the pairs its next `update_pairs` reports, the proxies a query finds and
/// the tree's nodes, after batches of `update_many` on `threads` threads (batches large enough
/// that the fat-partner queries run on several threads): a large world, batches with repeated proxies, and a
/// batch refused for a bad move in its middle, which must change nothing.
fn tree_after_large_batches(threads: usize) -> Vec<String> {
    crate::support::threads::on_threads(threads, || {
        let mut rng = Rng(0x7ee_ba7c);
        let mut tree = DynamicTree::new();
        let ids: Vec<ProxyId> = (0..12_000u64)
            .map(|key| {
                let p = rng.point(150.0);
                tree.insert(aabb(p.x, p.y, p.x + 1.0, p.y + 1.0), key)
                    .unwrap()
            })
            .collect();
        let mut report = Vec::new();
        let pairs_of = |tree: &mut DynamicTree| {
            let changes = tree.update_pairs();
            let changed = format!("began {:?} ended {:?}", changes.began, changes.ended);
            format!("{changed} pairs {:?}", tree.current_pairs())
        };
        report.push(pairs_of(&mut tree));
        for batch in 0..6 {
            let mut moves: Vec<(ProxyId, Aabb)> = (0..5_000)
                .map(|_| {
                    let id = ids[rng.below(ids.len())];
                    let p = rng.point(150.0);
                    let size = rng.pick(&[0.0, 0.5, 1.0, 2.0]);
                    (id, aabb(p.x, p.y, p.x + size, p.y + size))
                })
                .collect();
            if batch % 3 == 2 {
                // A bad box in the middle: refused, nothing changes.
                moves[2_500].1 = aabb(1.0, 1.0, 0.0, 0.0);
                let error = tree.update_many(&moves).expect_err("an inverted box");
                report.push(format!("refused: {error:?}"));
            } else {
                tree.update_many(&moves).unwrap();
            }
            tree.validate().unwrap();
            report.push(pairs_of(&mut tree));
            let mut found = Vec::new();
            tree.overlap_aabb_each(aabb(-20.0, -20.0, 20.0, 20.0), &mut |_, key| {
                found.push(key);
                true
            });
            found.sort_unstable();
            report.push(format!("query {found:?}"));
            // The tree itself: every node's box and level, in the tree's order.
            let mut nodes = Vec::new();
            tree.for_each_structure_box(&mut |node, level| nodes.push((node, level)));
            report.push(format!("nodes {nodes:?}"));
        }
        report
    })
}

#[test]
fn large_tree_batches_give_the_same_pairs_on_1_2_and_4_threads() {
    let serial = tree_after_large_batches(1);
    assert!(serial.iter().any(|line| line.starts_with("refused")));
    for threads in [2, 4] {
        let parallel = tree_after_large_batches(threads);
        for (step, (one, many)) in serial.iter().zip(&parallel).enumerate() {
            assert!(one == many, "step {step}: 1 and {threads} threads differ");
        }
    }
}
