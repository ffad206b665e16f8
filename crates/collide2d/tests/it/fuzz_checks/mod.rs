//! The checks behind the fuzz targets in `fuzz/`, shared with `tests/fuzz_regressions.rs` so
//! every committed input replays under `cargo test` exactly as the fuzzer ran it.
//!
//! Each `run_*` decodes arbitrary bytes into operations (`arbitrary`), feeds them to the library
//! and panics on a broken property: a panic inside the library, a non-finite output for finite
//! input, `overlaps` disagreeing with the manifold, a swap that does not mirror, a broad phase or
//! world that disagrees with brute force.
#![allow(dead_code)]

use arbitrary::{Arbitrary, Unstructured};
use collide2d::broad::{BroadPhase, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
use collide2d::query::{
    collide_all, collide_speculative, shape_cast, CastOptions, Manifold, Sweep,
};
use collide2d::shape::{Aabb, Capsule, Chain, Circle, Compound, Polygon, Ray, Segment, Shape};
use collide2d::world::{Collider, ColliderHandle, CollisionEvent, LayerId, QueryFilter, World};
use collide2d::{collide, distance, overlaps, Transform, Vec2};
use std::collections::{BTreeMap, BTreeSet};

/// A number the fuzzer picks, used as it is (NaN and infinities included).
fn raw(value: f32) -> f32 {
    value
}

/// A finite number in `[-limit, limit]` from arbitrary bits (non-finite values become 0).
fn bounded(value: f32, limit: f32) -> f32 {
    if value.is_finite() {
        value.clamp(-limit, limit)
    } else {
        0.0
    }
}

/// A point from a pair of numbers, bounded.
fn point((x, y): (f32, f32), limit: f32) -> Vec2 {
    Vec2::new(bounded(x, limit), bounded(y, limit))
}

/// A placement: bounded translation, any finite angle.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub struct PlaceInput {
    x: f32,
    y: f32,
    angle: f32,
}

impl PlaceInput {
    fn transform(&self, limit: f32) -> Transform {
        Transform::new(point((self.x, self.y), limit), bounded(self.angle, 100.0))
    }
}

/// A convex shape description; constructors decide whether it is valid.
#[derive(Arbitrary, Clone, Debug)]
pub enum LeafInput {
    Circle((f32, f32), f32),
    Capsule((f32, f32), (f32, f32), f32),
    Segment((f32, f32), (f32, f32)),
    Hull(Vec<(f32, f32)>, f32),
    Exact(Vec<(f32, f32)>),
    Rect(f32, f32, f32),
    Regular(u8, f32),
}

/// Any shape description.
#[derive(Arbitrary, Clone, Debug)]
pub enum ShapeInput {
    Leaf(LeafInput),
    Concave(Vec<(f32, f32)>),
    Compound(Vec<(PlaceInput, LeafInput)>),
    Chain(Vec<(f32, f32)>, bool),
}

/// Up to 64 points, raw or bounded.
fn points(input: &[(f32, f32)], limit: Option<f32>) -> Vec<Vec2> {
    input
        .iter()
        .take(64)
        .map(|&(x, y)| match limit {
            Some(limit) => point((x, y), limit),
            None => Vec2::new(raw(x), raw(y)),
        })
        .collect()
}

/// Builds a leaf; `limit` bounds coordinates (`None`: raw numbers straight to the constructor).
fn build_leaf(input: &LeafInput, limit: Option<f32>) -> Option<Shape> {
    let p = |pair: (f32, f32)| match limit {
        Some(limit) => point(pair, limit),
        None => Vec2::new(pair.0, pair.1),
    };
    let s = |value: f32| match limit {
        Some(limit) => bounded(value, limit),
        None => value,
    };
    match input {
        LeafInput::Circle(center, radius) => {
            Circle::new(p(*center), s(*radius)).ok().map(Shape::from)
        }
        LeafInput::Capsule(a, b, radius) => {
            Capsule::new(p(*a), p(*b), s(*radius)).ok().map(Shape::from)
        }
        LeafInput::Segment(a, b) => Segment::new(p(*a), p(*b)).ok().map(Shape::from),
        LeafInput::Hull(list, radius) => Polygon::hull(&points(list, limit))
            .and_then(|polygon| polygon.with_radius(s(*radius).abs()))
            .ok()
            .map(Shape::from),
        LeafInput::Exact(list) => Polygon::new(&points(list, limit)).ok().map(Shape::from),
        LeafInput::Rect(width, height, radius) => {
            Polygon::rounded_rect(s(*width), s(*height), s(*radius))
                .ok()
                .map(Shape::from)
        }
        LeafInput::Regular(sides, radius) => Polygon::regular(*sides as usize, s(*radius))
            .ok()
            .map(Shape::from),
    }
}

/// Builds any shape (compounds of at most 8 children).
fn build_shape(input: &ShapeInput, limit: Option<f32>) -> Option<Shape> {
    match input {
        ShapeInput::Leaf(leaf) => build_leaf(leaf, limit),
        ShapeInput::Concave(list) => Compound::from_concave(&points(list, limit))
            .ok()
            .map(Shape::from),
        ShapeInput::Compound(children) => {
            let built: Vec<(Transform, Shape)> = children
                .iter()
                .take(8)
                .filter_map(|(place, leaf)| {
                    Some((
                        place.transform(limit.unwrap_or(1e6)),
                        build_leaf(leaf, limit)?,
                    ))
                })
                .collect();
            Compound::new(built).ok().map(Shape::from)
        }
        ShapeInput::Chain(list, closed) => {
            let vertices = points(list, limit);
            if *closed {
                Chain::closed(&vertices).ok().map(Shape::from)
            } else {
                Chain::open(&vertices).ok().map(Shape::from)
            }
        }
    }
}

fn finite(v: Vec2) -> bool {
    v.is_finite()
}

// ---------------------------------------------------------------------------------------------
// shapes

/// Shape construction from arbitrary numbers, then the point queries.
#[derive(Arbitrary, Debug)]
pub struct ShapesInput {
    shape: ShapeInput,
    place: PlaceInput,
    query: (f32, f32),
    aabb: ((f32, f32), (f32, f32)),
}

pub fn run_shapes(data: &[u8]) {
    let Ok(input) = ShapesInput::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    // Raw numbers: constructors must refuse, never panic.
    let _ = build_shape(&input.shape, None);
    let _ = Aabb::new(
        Vec2::new(input.aabb.0 .0, input.aabb.0 .1),
        Vec2::new(input.aabb.1 .0, input.aabb.1 .1),
    );
    // Bounded numbers: whatever builds answers every query with finite numbers.
    let Some(shape) = build_shape(&input.shape, Some(1e4)) else {
        return;
    };
    let xf = input.place.transform(1e6);
    let query = point(input.query, 1e6);
    let aabb = shape.aabb(&xf);
    assert!(aabb.is_valid(), "{shape:?}: aabb {aabb:?}");
    let _ = shape.contains(&xf, query);
    let projection = shape.project_point(&xf, query);
    assert!(
        finite(projection.point) && projection.distance.is_finite() && projection.distance >= 0.0,
        "{shape:?}: projection {projection:?}"
    );
    assert!(
        shape.area().is_finite() && finite(shape.centroid()),
        "{shape:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// pairs

/// Two shapes, placements, a margin, motions and a ray.
#[derive(Arbitrary, Debug)]
pub struct PairsInput {
    a: ShapeInput,
    b: ShapeInput,
    place_a: PlaceInput,
    place_b: PlaceInput,
    margin: f32,
    motion_a: (f32, f32, f32),
    motion_b: (f32, f32, f32),
    skin: f32,
    ray: ((f32, f32), (f32, f32), f32),
}

fn check_manifold(m: &Manifold, what: &str) {
    if m.is_empty() {
        return;
    }
    assert!(
        finite(m.normal) && (m.normal.length() - 1.0).abs() < 1e-5,
        "{what}: {m:?}"
    );
    for p in m.points() {
        assert!(
            finite(p.point) && p.penetration.is_finite(),
            "{what}: {m:?}"
        );
    }
}

pub fn run_pairs(data: &[u8]) {
    let Ok(input) = PairsInput::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    let (Some(a), Some(b)) = (
        build_shape(&input.a, Some(100.0)),
        build_shape(&input.b, Some(100.0)),
    ) else {
        return;
    };
    // Placed near each other (within a few hundred units) somewhere up to 1e5 from the origin.
    let xa = input.place_a.transform(1e5);
    let offset = input.place_b.transform(300.0);
    let xb = Transform {
        p: xa.p + offset.p,
        q: offset.q,
    };
    let m = collide(&a, &xa, &b, &xb);
    check_manifold(&m, "collide(a, b)");
    let swapped = collide(&b, &xb, &a, &xa);
    check_manifold(&swapped, "collide(b, a)");
    assert_eq!(
        overlaps(&a, &xa, &b, &xb),
        !m.is_empty(),
        "overlaps(a, b) vs collide"
    );
    assert_eq!(
        overlaps(&b, &xb, &a, &xa),
        !swapped.is_empty(),
        "overlaps(b, a) vs collide"
    );
    assert_eq!(
        m.count, swapped.count,
        "swap changed the point count: {m:?} / {swapped:?}"
    );
    // (Identical arguments make the swapped call the same call: nothing to negate.)
    let identical = format!("{a:?}{xa:?}") == format!("{b:?}{xb:?}");
    if !m.is_empty() && !identical {
        assert!(
            (m.normal + swapped.normal).length() < 1e-4,
            "swap did not negate: {m:?} / {swapped:?}"
        );
    }
    let margin = bounded(input.margin, 10.0);
    check_manifold(&collide_speculative(&a, &xa, &b, &xb, margin), "contacts");
    let mut all = Vec::new();
    collide_all(&a, &xa, &b, &xb, margin, &mut all);
    for manifold in &all {
        check_manifold(manifold, "collide_all");
    }
    let d = distance(&a, &xa, &b, &xb);
    assert!(
        d.distance.is_finite()
            && d.distance >= 0.0
            && finite(d.point_a)
            && finite(d.point_b)
            && finite(d.normal)
            && (d.normal == Vec2::ZERO || (d.normal.length() - 1.0).abs() < 1e-5),
        "distance {d:?}"
    );
    let sweep = |xf: &Transform, (dx, dy, turn): (f32, f32, f32)| {
        Sweep::spinning(xf, point((dx, dy), 1000.0), bounded(turn, 20.0))
    };
    let opts = CastOptions {
        target_separation: bounded(input.skin, 1.0).abs(),
        max_iterations: 32,
        ..CastOptions::default()
    };
    if let Some(hit) = shape_cast(
        &a,
        &sweep(&xa, input.motion_a),
        &b,
        &sweep(&xb, input.motion_b),
        opts,
    ) {
        assert!(
            (0.0..=1.0).contains(&hit.t)
                && finite(hit.point)
                && finite(hit.normal)
                && (hit.normal.length() - 1.0).abs() < 1e-5,
            "cast {hit:?}"
        );
    }
    let ((ox, oy), (dx, dy), reach) = input.ray;
    if let Ok(ray) = Ray::new(
        xa.p + point((ox, oy), 300.0),
        point((dx, dy), 10.0),
        bounded(reach, 1e4).abs(),
    ) {
        if let Some(hit) = b.ray_cast(&xb, &ray) {
            assert!(
                hit.distance.is_finite()
                    && finite(hit.point)
                    && finite(hit.normal)
                    && (hit.normal.length() - 1.0).abs() < 1e-5,
                "ray {hit:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// broad phases

#[derive(Arbitrary, Debug)]
pub enum BroadOp {
    Insert((f32, f32), (f32, f32)),
    Update(u8, (f32, f32), (f32, f32)),
    Remove(u8),
    QueryAabb((f32, f32), (f32, f32)),
    QueryPoint((f32, f32)),
    Pairs,
    /// One `update_many` of up to 16 raw boxes: refused as a whole if any is invalid.
    UpdateMany(Vec<RawMove>),
}

/// A proxy (by position among the live ones) and the two corners of its raw new box.
pub type RawMove = (u8, (f32, f32), (f32, f32));

#[derive(Arbitrary, Debug)]
pub struct BroadInput {
    cell_size: u8,
    ops: Vec<BroadOp>,
}

/// A box from two corners, raw (may be invalid: the structure must refuse it).
fn raw_box(min: (f32, f32), max: (f32, f32)) -> Aabb {
    Aabb {
        min: Vec2::new(min.0, min.1),
        max: Vec2::new(max.0, max.1),
    }
}

/// A valid box from two corners (sorted, bounded to ±1e6).
fn valid_box(a: (f32, f32), b: (f32, f32)) -> Aabb {
    let (a, b) = (point(a, 1e6), point(b, 1e6));
    Aabb {
        min: a.min(b),
        max: a.max(b),
    }
}

pub fn run_broad(data: &[u8]) {
    let Ok(input) = BroadInput::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    let cell_size = 0.25 + input.cell_size as f32 * 0.25;
    let mut tree = DynamicTree::new();
    let mut grid = HashGrid::new(cell_size).expect("a positive cell size");
    let mut sap = SweepAndPrune::new();
    // The reference: key → box, and each structure's proxy id per key.
    let mut boxes: BTreeMap<u64, Aabb> = BTreeMap::new();
    let mut ids: Vec<BTreeMap<u64, ProxyId>> = vec![BTreeMap::new(); 3];
    let mut next_key = 0u64;
    for op in input.ops.iter().take(200) {
        let mut structures: [&mut dyn BroadPhase; 3] = [&mut tree, &mut grid, &mut sap];
        match op {
            BroadOp::Insert(a, b) => {
                let raw = raw_box(*a, *b);
                let accepted = structures
                    .iter_mut()
                    .zip(&mut ids)
                    .map(|(s, ids)| match s.insert(raw, next_key) {
                        Ok(id) => {
                            ids.insert(next_key, id);
                            true
                        }
                        Err(_) => false,
                    })
                    .collect::<Vec<_>>();
                assert!(
                    accepted.iter().all(|&x| x == accepted[0]),
                    "structures disagree on {raw:?}"
                );
                assert_eq!(accepted[0], raw.is_valid(), "{raw:?}");
                if accepted[0] {
                    boxes.insert(next_key, raw);
                }
                next_key += 1;
            }
            BroadOp::Update(which, a, b) => {
                let Some(&key) = boxes.keys().nth(*which as usize % boxes.len().max(1)) else {
                    continue;
                };
                let aabb = valid_box(*a, *b);
                for (s, ids) in structures.iter_mut().zip(&ids) {
                    s.update(ids[&key], aabb)
                        .expect("a valid box on a live proxy");
                }
                boxes.insert(key, aabb);
            }
            BroadOp::UpdateMany(moves) => {
                if boxes.is_empty() {
                    continue;
                }
                let keys: Vec<u64> = boxes.keys().copied().collect();
                let batch: Vec<(u64, Aabb)> = moves
                    .iter()
                    .take(16)
                    .map(|&(which, a, b)| (keys[which as usize % keys.len()], raw_box(a, b)))
                    .collect();
                let valid = batch.iter().all(|(_, aabb)| aabb.is_valid());
                // Accepted: the last move of each key wins; refused: nothing moved.
                let mut expected = boxes.clone();
                if valid {
                    expected.extend(batch.iter().copied());
                }
                for (s, ids) in structures.iter_mut().zip(&ids) {
                    let moves: Vec<(ProxyId, Aabb)> =
                        batch.iter().map(|&(key, aabb)| (ids[&key], aabb)).collect();
                    assert_eq!(s.update_many(&moves).is_ok(), valid, "{batch:?}");
                    for (key, aabb) in &expected {
                        assert_eq!(s.get_aabb(ids[key]), Ok(*aabb), "{batch:?}");
                    }
                }
                boxes = expected;
            }
            BroadOp::Remove(which) => {
                let Some(&key) = boxes.keys().nth(*which as usize % boxes.len().max(1)) else {
                    continue;
                };
                for (s, ids) in structures.iter_mut().zip(&mut ids) {
                    let id = ids.remove(&key).expect("known key");
                    s.remove(id).expect("a live proxy");
                    assert!(s.remove(id).is_err(), "removing twice must fail");
                }
                boxes.remove(&key);
            }
            BroadOp::QueryAabb(a, b) => {
                let query = valid_box(*a, *b);
                let expected: BTreeSet<u64> = boxes
                    .iter()
                    .filter(|(_, bx)| bx.overlaps(&query))
                    .map(|(k, _)| *k)
                    .collect();
                for s in &structures {
                    let mut found = BTreeSet::new();
                    s.overlap_aabb_each(query, &mut |_, key| {
                        assert!(found.insert(key), "key {key} reported twice");
                        true
                    });
                    assert_eq!(found, expected, "query_aabb {query:?}");
                }
            }
            BroadOp::QueryPoint(p) => {
                let p = point(*p, 1e6);
                let expected: BTreeSet<u64> = boxes
                    .iter()
                    .filter(|(_, bx)| bx.contains_point(p))
                    .map(|(k, _)| *k)
                    .collect();
                for s in &structures {
                    let mut found = BTreeSet::new();
                    s.overlap_point_each(p, &mut |_, key| {
                        found.insert(key);
                        true
                    });
                    assert_eq!(found, expected, "query_point {p:?}");
                }
            }
            BroadOp::Pairs => {
                let keys: Vec<(&u64, &Aabb)> = boxes.iter().collect();
                let mut expected = BTreeSet::new();
                for i in 0..keys.len() {
                    for j in i + 1..keys.len() {
                        if keys[i].1.overlaps(keys[j].1) {
                            expected.insert((*keys[i].0, *keys[j].0));
                        }
                    }
                }
                for s in structures.iter_mut() {
                    s.update_pairs();
                    let pairs: Vec<_> = s.current_pairs();
                    let found: BTreeSet<(u64, u64)> = pairs
                        .iter()
                        .map(|pair| {
                            let (x, y) =
                                (s.key(pair.lower()).unwrap(), s.key(pair.higher()).unwrap());
                            (x.min(y), x.max(y))
                        })
                        .collect();
                    assert_eq!(found.len(), pairs.len(), "a pair reported twice");
                    assert_eq!(found, expected, "pairs");
                }
            }
        }
        for s in &structures {
            assert_eq!(s.len(), boxes.len());
        }
        // The tree's own invariants hold after every operation.
        tree.validate().expect("a valid tree");
    }
}

// ---------------------------------------------------------------------------------------------
// world

#[derive(Arbitrary, Debug)]
pub enum WorldOp {
    Insert(LeafInput, PlaceInput, u8, bool),
    Remove(u8),
    RemoveStale(u8),
    Move(u8, PlaceInput),
    MoveRaw(u8, f32, f32, f32),
    Offset(u8, PlaceInput),
    SetLayer(u8, u8),
    SetEnabled(u8, bool),
    SetSensor(u8, bool),
    Matrix(u8, u8, bool),
    Update,
    QueryPoint((f32, f32)),
    CastRay((f32, f32), (f32, f32)),
    Slide(u8, (f32, f32)),
    ShiftOrigin((f32, f32)),
}

#[derive(Arbitrary, Debug)]
pub struct WorldInput {
    ops: Vec<WorldOp>,
}

/// The pairs that touch, by brute force (as `tests/world_model.rs` computes them).
fn reference_pairs(world: &World) -> BTreeSet<(ColliderHandle, ColliderHandle)> {
    let live: Vec<(ColliderHandle, &Collider)> =
        world.iter().filter(|(_, c)| c.is_enabled()).collect();
    let mut touching = BTreeSet::new();
    for i in 0..live.len() {
        for j in i + 1..live.len() {
            let ((ha, a), (hb, b)) = (live[i], live[j]);
            if !world.layers().collides(a.layer(), b.layer()) {
                continue;
            }
            let (xa, xb) = (a.world_transform(), b.world_transform());
            let touch = if a.is_sensor() || b.is_sensor() {
                overlaps(a.shape(), &xa, b.shape(), &xb)
            } else {
                !collide(a.shape(), &xa, b.shape(), &xb).is_empty()
            };
            if touch {
                touching.insert((ha.min(hb), ha.max(hb)));
            }
        }
    }
    touching
}

pub fn run_world(data: &[u8]) {
    let Ok(input) = WorldInput::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    let mut world = World::new();
    let mut layers = vec![LayerId::DEFAULT];
    for name in ["A", "B", "C"] {
        layers.push(world.layers_mut().add(name).expect("a fresh name"));
    }
    let mut handles: Vec<ColliderHandle> = Vec::new();
    let mut removed: Vec<ColliderHandle> = Vec::new();
    let mut open: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
    let pick = |handles: &[ColliderHandle], which: u8| -> Option<ColliderHandle> {
        (!handles.is_empty()).then(|| handles[which as usize % handles.len()])
    };
    for op in input.ops.iter().take(120) {
        match op {
            WorldOp::Insert(leaf, place, layer, sensor) => {
                if handles.len() >= 24 {
                    continue;
                }
                let Some(shape) = build_leaf(leaf, Some(4.0)) else {
                    continue;
                };
                let collider = Collider::new(shape)
                    .with_transform(place.transform(12.0))
                    .with_layer(layers[*layer as usize % layers.len()])
                    .with_sensor(*sensor);
                handles.push(world.insert(collider).expect("a valid collider"));
            }
            WorldOp::Remove(which) => {
                if let Some(h) = pick(&handles, *which) {
                    world.remove(h).expect("live handle");
                    handles.retain(|&x| x != h);
                    removed.push(h);
                }
            }
            WorldOp::RemoveStale(which) => {
                if let Some(h) = pick(&removed, *which) {
                    let before = world.len();
                    assert!(
                        world.remove(h).is_err()
                            && world.set_transform(h, Transform::IDENTITY).is_err()
                    );
                    assert_eq!(world.len(), before);
                }
            }
            WorldOp::Move(which, place) => {
                if let Some(h) = pick(&handles, *which) {
                    world
                        .set_transform(h, place.transform(12.0))
                        .expect("finite transform");
                }
            }
            WorldOp::MoveRaw(which, x, y, angle) => {
                if let Some(h) = pick(&handles, *which) {
                    let before = world.get(h).unwrap().clone();
                    let xf = Transform::new(Vec2::new(*x, *y), *angle);
                    if world.set_transform(h, xf).is_err() {
                        assert_eq!(
                            world.get(h).unwrap(),
                            &before,
                            "a refused call changed the collider"
                        );
                    }
                }
            }
            WorldOp::Offset(which, place) => {
                if let Some(h) = pick(&handles, *which) {
                    world
                        .set_offset(h, place.transform(2.0))
                        .expect("finite offset");
                }
            }
            WorldOp::SetLayer(which, layer) => {
                if let Some(h) = pick(&handles, *which) {
                    world
                        .set_layer(h, layers[*layer as usize % layers.len()])
                        .expect("known layer");
                }
            }
            WorldOp::SetEnabled(which, enabled) => {
                if let Some(h) = pick(&handles, *which) {
                    world.set_enabled(h, *enabled).expect("live handle");
                }
            }
            WorldOp::SetSensor(which, sensor) => {
                if let Some(h) = pick(&handles, *which) {
                    world.set_sensor(h, *sensor).expect("live handle");
                }
            }
            WorldOp::Matrix(x, y, enable) => {
                let (x, y) = (
                    layers[*x as usize % layers.len()],
                    layers[*y as usize % layers.len()],
                );
                if *enable {
                    world.layers_mut().enable(x, y);
                } else {
                    world.layers_mut().disable(x, y);
                }
            }
            WorldOp::Update => {
                let events = {
                    world.update();
                    world.events()
                }
                .to_vec();
                for event in &events {
                    match event {
                        CollisionEvent::Begin { a, b, .. } => {
                            assert!(open.insert((*a, *b)), "Begin twice for {a:?} {b:?}")
                        }
                        CollisionEvent::Stay { a, b, .. } => {
                            assert!(open.contains(&(*a, *b)), "Stay without Begin")
                        }
                        CollisionEvent::End { a, b, .. } => {
                            assert!(open.remove(&(*a, *b)), "End without Begin for {a:?} {b:?}")
                        }
                    }
                }
                let reference = reference_pairs(&world);
                if open != reference {
                    let details: Vec<String> = open
                        .symmetric_difference(&reference)
                        .map(|(a, b)| {
                            let (ca, cb) = (world.get(*a).unwrap(), world.get(*b).unwrap());
                            format!("{a:?} {ca:?} {:?}\n{b:?} {cb:?} {:?}", ca.aabb(), cb.aabb())
                        })
                        .collect();
                    panic!(
                        "touching pairs differ from brute force: world {open:?}, brute force \
                         {reference:?}\n{}",
                        details.join("\n")
                    );
                }
            }
            WorldOp::QueryPoint(p) => {
                let p = point(*p, 20.0);
                let found = world
                    .overlap_point(p, &QueryFilter::default().with_sensors())
                    .unwrap();
                let mut expected: Vec<ColliderHandle> = world
                    .iter()
                    .filter(|(_, c)| c.is_enabled() && c.shape().contains(&c.world_transform(), p))
                    .map(|(h, _)| h)
                    .collect();
                expected.sort();
                assert_eq!(found, expected, "query_point {p:?}");
            }
            WorldOp::CastRay(origin, direction) => {
                if let Ok(ray) = Ray::new(point(*origin, 20.0), point(*direction, 1.0), 50.0) {
                    if let Some(hit) = world.ray_cast(&ray, &QueryFilter::default()).unwrap() {
                        assert!(
                            hit.distance.is_finite()
                                && finite(hit.normal)
                                && (hit.normal.length() - 1.0).abs() < 1e-5,
                            "ray {hit:?}"
                        );
                    }
                }
            }
            WorldOp::Slide(which, delta) => {
                if let Some(h) = pick(&handles, *which) {
                    if let Ok(result) =
                        world.move_and_slide(h, point(*delta, 20.0), Default::default())
                    {
                        assert!(finite(result.moved), "{result:?}");
                    }
                }
            }
            WorldOp::ShiftOrigin(origin) => {
                world
                    .shift_origin(point(*origin, 20.0))
                    .expect("a finite origin");
            }
        }
    }
}

/// The decoded operations of an input, for reading a crash (`target` as in `fuzz/`).
pub fn describe(target: &str, data: &[u8]) -> String {
    let mut u = Unstructured::new(data);
    match target {
        "shapes" => format!("{:#?}", ShapesInput::arbitrary(&mut u)),
        "pairs" => format!("{:#?}", PairsInput::arbitrary(&mut u)),
        "broad" => format!("{:#?}", BroadInput::arbitrary(&mut u)),
        "world" => format!("{:#?}", WorldInput::arbitrary(&mut u)),
        _ => String::from("unknown target"),
    }
}
