//! Continuous colliders under the edits a game makes between two updates, in tile-map levels,
//! and `World::sweep_to` into creases, corners and seams, against the exact `f64` reference of
//! [`cast_reference`](crate::cast_reference).
//!
//! Each world is a tile-map level (closed outline chains or merged boxes, with steps, pits and
//! pillars), thin walls 1e-2 thick, compounds and sensors, about the origin or 1e4 or 1e5 out,
//! with continuous movers: bullets 1e-2 across, long thin bars and capsules that spin, small
//! compounds, some placed by an offset from their object, some sensors. Between two updates a
//! mover is moved (once, or twice: only the last placement counts), teleported (then maybe
//! moved on, sweeping from the teleport), disabled and enabled again, put on another layer and
//! back or onto a layer that ignores the level, made a sensor or solid, or left still; now and
//! then an obstacle is removed. After each update, for every pair with a collider that swept
//! and not touching at the previous update, filters permitting:
//!
//! - where the reference sweeps come within the cast's tolerance of touching, the pair touches
//!   at this update (`Begin` or `Stay`): nothing passes through anything;
//! - a swept `Begin` carries a time at which the shapes are within that allowance;
//! - the events agree with the pairs touching before: `Begin` only for pairs that did not
//!   touch, `Stay` and `End` only for pairs that did.
//!
//! `sweep_to` runs move a body (any shape, any offset) again and again towards targets in or
//! beyond a crease of two boxes, a concave chain corner, a tile-map step or the seam of two
//! boxes: no move may pass a contact the reference says it must stop at, and the stop is never
//! deeper than the allowance into anything it was clear of.

use crate::cast_reference::{deadline, size, Body, Reference};
use crate::support::Rng;
use collide2d::level::{Tile, TileMap};
use collide2d::query::Sweep;
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, TileGeometry, TileMapColliders, World,
};
use collide2d::{LayerId, Rot, Transform, Vec2};
use std::collections::{BTreeMap, BTreeSet};

const KINDS: [BroadPhaseKind; 3] = [
    BroadPhaseKind::Tree,
    BroadPhaseKind::Grid { cell_size: 4.0 },
    BroadPhaseKind::SweepAndPrune,
];

fn unit(angle: f32) -> Vec2 {
    Rot::from_angle(angle).rotate(Vec2::X)
}

/// A continuous mover about 0.01..2 across.
fn mover_shape(rng: &mut Rng) -> Shape {
    match rng.below(6) {
        0 => Shape::from(Circle::with_radius(0.5 * rng.log_size(0.01, 1.0)).unwrap()),
        1 => {
            // A long thin bar.
            let length = rng.log_size(0.5, 2.0);
            Shape::from(Polygon::rect(length, rng.log_size(0.02, 0.1)).unwrap())
        }
        2 => {
            let half = 0.5 * rng.log_size(0.3, 2.0);
            Shape::from(
                Capsule::new(
                    Vec2::new(-half, 0.0),
                    Vec2::new(half, 0.0),
                    rng.log_size(0.005, 0.1),
                )
                .unwrap(),
            )
        }
        3 => {
            let size = rng.log_size(0.1, 1.0);
            Shape::from(
                Compound::new(vec![
                    (
                        Transform::new(Vec2::new(-0.3 * size, 0.0), 0.4),
                        Shape::from(Polygon::rect(0.5 * size, 0.1 * size).unwrap()),
                    ),
                    (
                        Transform::new(Vec2::new(0.3 * size, 0.0), 0.0),
                        Shape::from(Circle::with_radius(0.1 * size).unwrap()),
                    ),
                ])
                .unwrap(),
            )
        }
        4 => Shape::from(Polygon::rect(0.01, 0.01).unwrap()),
        _ => {
            Shape::from(Polygon::regular(3 + rng.below(5), 0.5 * rng.log_size(0.05, 1.0)).unwrap())
        }
    }
}

/// A level: a tile map 40 × 16 of unit cells with a floor, steps, pits and pillars.
fn level_map(rng: &mut Rng, origin: Vec2) -> TileMap {
    let pillars: Vec<u32> = (0..6).map(|_| 2 + rng.below(36) as u32).collect();
    let step = 10 + rng.below(20) as u32;
    let pit = rng.below(38) as u32;
    TileMap::from_fn(40, 16, 1.0, origin, |x, y| {
        let solid = (y == 0 && x != pit && x != pit + 1)
            || (x >= step && y <= 2)
            || (pillars.contains(&x) && (4..=6).contains(&y))
            || x == 0
            || x == 39
            || y == 15;
        if solid {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap()
}

/// A loose obstacle about 0.3..3 across.
fn obstacle_shape(rng: &mut Rng) -> Shape {
    let size = rng.log_size(0.3, 3.0);
    match rng.below(4) {
        0 => Shape::from(Polygon::rect(0.01, 4.0).unwrap()),
        1 => Shape::from(
            Compound::new(vec![
                (
                    Transform::new(Vec2::new(-0.3 * size, 0.0), 0.3),
                    Shape::from(Polygon::rect(0.5 * size, 0.02).unwrap()),
                ),
                (
                    Transform::new(Vec2::new(0.3 * size, 0.1 * size), 1.2),
                    Shape::from(Polygon::rect(0.02, 0.5 * size).unwrap()),
                ),
            ])
            .unwrap(),
        ),
        2 => {
            let points: Vec<Vec2> = (0..5)
                .map(|k| Vec2::new(k as f32 * 0.5 * size, rng.range(-0.4, 0.4) * size))
                .collect();
            Shape::from(Chain::open(&points).unwrap())
        }
        _ => {
            let d = unit(rng.angle()) * 0.5 * size;
            Shape::from(Capsule::new(-d, d, 0.01).unwrap())
        }
    }
}

/// The sweep the world makes of a collider whose shape was at `before` at the last update (or
/// its teleport) and is at its placement now: about its object's origin, the shortest turn.
fn world_sweep(collider: &Collider, before: &Transform) -> Sweep {
    use std::f32::consts::{PI, TAU};
    let current = collider.world_transform();
    let turn = if before.q == current.q {
        0.0
    } else {
        (current.angle() - before.angle() + PI).rem_euclid(TAU) - PI
    };
    let local_center = collider.offset().apply_inv(Vec2::ZERO);
    Sweep {
        local_center,
        center_start: before.apply(local_center),
        center_end: current.apply(local_center),
        rotation_start: before.q,
        turn,
    }
}

/// How far from its sweep's rotation centre a shape reaches (a bound).
fn reach(shape: &Shape, sweep: &Sweep) -> f32 {
    let local = shape.aabb(&Transform::IDENTITY);
    (local.min - sweep.local_center)
        .abs()
        .max((local.max - sweep.local_center).abs())
        .length()
        + 1e-3
}

/// The world's cast tolerance for two sweeps, the rounding slack of the coordinates they reach
/// and that scale.
fn allowance(
    shape_a: &Shape,
    sweep_a: &Sweep,
    shape_b: &Shape,
    sweep_b: &Sweep,
) -> (f64, f64, f64) {
    let far = sweep_a
        .center_start
        .abs()
        .max(sweep_a.center_end.abs())
        .max(sweep_b.center_start.abs())
        .max(sweep_b.center_end.abs())
        .max_element();
    let relative = (sweep_a.translation() - sweep_b.translation()).length();
    let tolerance = f64::from((far.max(relative) * 4.0 * f32::EPSILON).max(1.0e-5));
    let turning = f64::from(sweep_a.turn.abs() * reach(shape_a, sweep_a))
        + f64::from(sweep_b.turn.abs() * reach(shape_b, sweep_b));
    let scale = f64::from(far + relative)
        + size(shape_a)
        + size(shape_b)
        + 3.0 * f64::from(reach(shape_a, sweep_a).max(reach(shape_b, sweep_b)))
        + turning;
    let slack = 8.0 * f64::from(f32::EPSILON) * scale;
    (tolerance, slack, scale)
}

/// Whether the boxes of two sweeps' paths (grown by the shapes' reach) overlap.
fn paths_near(shape_a: &Shape, sweep_a: &Sweep, shape_b: &Shape, sweep_b: &Sweep) -> bool {
    let (reach_a, reach_b) = (reach(shape_a, sweep_a), reach(shape_b, sweep_b));
    let low = |s: &Sweep, r: f32| s.center_start.min(s.center_end) - Vec2::splat(r);
    let high = |s: &Sweep, r: f32| s.center_start.max(s.center_end) + Vec2::splat(r);
    !(low(sweep_a, reach_a).cmpgt(high(sweep_b, reach_b))
        | low(sweep_b, reach_b).cmpgt(high(sweep_a, reach_a)))
    .any()
}

/// The nearest the reference places two swept shapes at time `t` (negative: overlapping).
fn closest_at(reference: &Reference, t: f64) -> f64 {
    reference
        .pairs()
        .into_iter()
        .map(|p| reference.gap(p, t))
        .fold(f64::INFINITY, f64::min)
}

/// What the runs checked.
#[derive(Clone, Copy, Debug, Default)]
struct Checked {
    pairs: usize,
    contacts: usize,
    begins: usize,
    updates: usize,
}

/// One mover's edit between two updates, as the reference sees it.
#[derive(Clone, Copy, Debug)]
enum Motion {
    /// Swept from this shape placement.
    Swept(Transform),
    /// Still for the step (teleported, or not moved).
    Still,
}

/// One world of the edits run; returns its failures.
fn edits_run(seed: u64, checked: &mut Checked) -> Vec<String> {
    let mut rng = Rng(seed);
    let kind = KINDS[(seed % 3) as usize];
    let mut world = World::with_broad_phase(kind).unwrap();
    world.set_report_stay(true);
    let ghost = world.layers_mut().add("ghost").unwrap();
    let other = world.layers_mut().add("other").unwrap();
    world.layers_mut().disable(ghost, LayerId::DEFAULT);
    world.layers_mut().disable(ghost, ghost);
    world.layers_mut().disable(other, other);
    let mut centre = match seed % 4 {
        0 => Vec2::ZERO,
        1 => Vec2::new(1.0e4, -3.0e3),
        2 => Vec2::new(-1.0e5, 2.0e4),
        _ => Vec2::new(3.0e4, 1.0e5),
    };
    let geometry = if seed % 2 == 0 {
        TileGeometry::Outlines
    } else {
        TileGeometry::Rectangles
    };
    let map = level_map(&mut rng, centre);
    let tiles = TileMapColliders::insert(&mut world, &map, geometry).unwrap();
    let mut live: Vec<ColliderHandle> = tiles.handles().collect();
    let inside = |rng: &mut Rng, centre: Vec2| {
        centre + Vec2::new(rng.range(1.5, 38.5), rng.range(1.5, 14.5))
    };
    let mut obstacles = Vec::new();
    for _ in 0..8 {
        let handle = world
            .insert(
                Collider::new(obstacle_shape(&mut rng))
                    .with_sensor(rng.chance(0.2))
                    .with_transform(Transform::new(inside(&mut rng, centre), rng.angle())),
            )
            .unwrap();
        obstacles.push(handle);
        live.push(handle);
    }
    let mut movers = Vec::new();
    for _ in 0..16 {
        let offset = if rng.chance(0.3) {
            Transform::new(rng.point(0.5), rng.angle())
        } else {
            Transform::IDENTITY
        };
        let handle = world
            .insert(
                Collider::new(mover_shape(&mut rng))
                    .with_continuous(true)
                    .with_sensor(rng.chance(0.1))
                    .with_offset(offset)
                    .with_transform(Transform::new(inside(&mut rng, centre), rng.angle())),
            )
            .unwrap();
        movers.push(handle);
        live.push(handle);
    }
    // Ordinary colliders moved every update (their moves are teleports).
    let mut jumpers = Vec::new();
    for _ in 0..4 {
        let handle = world
            .insert(
                Collider::new(mover_shape(&mut rng))
                    .with_transform(Transform::new(inside(&mut rng, centre), rng.angle())),
            )
            .unwrap();
        jumpers.push(handle);
        live.push(handle);
    }
    world.update();
    let mut touching: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
    for event in world.events() {
        if let CollisionEvent::Begin { a, b, .. } = *event {
            touching.insert((a, b));
        }
    }
    let mut failures = Vec::new();
    let mut before: BTreeMap<ColliderHandle, Transform> = movers
        .iter()
        .map(|&h| (h, world.get(h).unwrap().world_transform()))
        .collect();
    for step in 0..12 {
        let mut motions: BTreeMap<ColliderHandle, Motion> = BTreeMap::new();
        let mut edits: BTreeMap<ColliderHandle, String> = BTreeMap::new();
        if rng.chance(0.15) {
            // The origin moves: the remembered placements with everything else.
            let new_origin = Vec2::new(rng.range(-3.0e4, 3.0e4), rng.range(-3.0e4, 3.0e4));
            world.shift_origin(new_origin).unwrap();
            centre -= new_origin;
            for placement in before.values_mut() {
                placement.p -= new_origin;
            }
        }
        for &handle in &jumpers {
            world
                .set_transform(
                    handle,
                    Transform::new(inside(&mut rng, centre), rng.angle()),
                )
                .unwrap();
        }
        for &handle in &movers {
            let object = world.get(handle).unwrap().transform();
            let next = |rng: &mut Rng, from: &Transform| {
                let distance = rng.log_size(0.05, env("HUNT_STEP", 40) as f32);
                let p = (from.p + unit(rng.angle()) * distance)
                    .clamp(centre + Vec2::splat(-5.0), centre + Vec2::new(45.0, 20.0));
                let turn = match rng.below(3) {
                    0 => 0.0,
                    1 => rng.range(-0.5, 0.5),
                    _ => rng.range(-3.1, 3.1),
                };
                Transform {
                    p,
                    q: from.q.mul(Rot::from_angle(turn)),
                }
            };
            let mut log = String::new();
            let mut motion = Motion::Swept(before[&handle]);
            match rng.below(10) {
                0 => {
                    // Teleported, maybe moved on from there.
                    world
                        .teleport(
                            handle,
                            Transform::new(inside(&mut rng, centre), rng.angle()),
                        )
                        .unwrap();
                    log += "teleport ";
                    motion = Motion::Still;
                    if rng.chance(0.5) {
                        let from = world.get(handle).unwrap().world_transform();
                        let object = world.get(handle).unwrap().transform();
                        world
                            .set_transform(handle, next(&mut rng, &object))
                            .unwrap();
                        log += "then move ";
                        motion = Motion::Swept(from);
                    }
                }
                1 => {
                    // Moved twice: only the last placement counts.
                    let first = next(&mut rng, &object);
                    world.set_transform(handle, first).unwrap();
                    world.set_transform(handle, next(&mut rng, &first)).unwrap();
                    log += "move twice ";
                }
                2 => {
                    world.set_enabled(handle, false).unwrap();
                    world
                        .set_transform(handle, next(&mut rng, &object))
                        .unwrap();
                    world.set_enabled(handle, true).unwrap();
                    log += "disable, move, enable ";
                }
                3 => {
                    let layer = world.get(handle).unwrap().layer();
                    let to = rng.pick(&[LayerId::DEFAULT, ghost, other]);
                    world.set_layer(handle, to).unwrap();
                    world
                        .set_transform(handle, next(&mut rng, &object))
                        .unwrap();
                    if rng.chance(0.5) {
                        world.set_layer(handle, layer).unwrap();
                    }
                    log += "layer ";
                }
                4 => {
                    let sensor = world.get(handle).unwrap().is_sensor();
                    world.set_sensor(handle, !sensor).unwrap();
                    world
                        .set_transform(handle, next(&mut rng, &object))
                        .unwrap();
                    log += "sensor toggle ";
                }
                5 => {
                    log += "still ";
                    motion = Motion::Still;
                }
                6 => {
                    // Made continuous again: swept from where it is then.
                    world.set_continuous(handle, false).unwrap();
                    world
                        .set_transform(handle, next(&mut rng, &object))
                        .unwrap();
                    world.set_continuous(handle, true).unwrap();
                    log += "continuous again ";
                    motion = Motion::Still;
                }
                _ => {
                    world
                        .set_transform(handle, next(&mut rng, &object))
                        .unwrap();
                    log += "move ";
                }
            }
            motions.insert(handle, motion);
            edits.insert(handle, log);
        }
        if rng.chance(0.3) && !obstacles.is_empty() {
            let gone = obstacles.remove(rng.below(obstacles.len()));
            world.remove(gone).unwrap();
            live.retain(|&h| h != gone);
            touching.retain(|&(a, b)| a != gone && b != gone);
        }
        world.update();
        checked.updates += 1;

        let events = world.events().to_vec();
        let mut now: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
        let mut ended: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
        let mut times: BTreeMap<(ColliderHandle, ColliderHandle), f32> = BTreeMap::new();
        for event in &events {
            match *event {
                CollisionEvent::Begin {
                    a,
                    b,
                    time_of_impact,
                    ..
                } => {
                    // (A pair changing kind ends and begins again in the same update.)
                    if touching.contains(&(a, b)) && !ended.contains(&(a, b)) {
                        failures.push(format!("step {step}: Begin of touching pair {a:?} {b:?}"));
                    }
                    now.insert((a, b));
                    if let Some(time) = time_of_impact {
                        times.insert((a, b), time.get());
                    }
                }
                CollisionEvent::Stay { a, b, .. } => {
                    if !touching.contains(&(a, b)) {
                        failures.push(format!("step {step}: Stay of new pair {a:?} {b:?}"));
                    }
                    now.insert((a, b));
                }
                CollisionEvent::End { a, b, .. } => {
                    ended.insert((a, b));
                    let removed = !world.contains(a) || !world.contains(b);
                    if !touching.contains(&(a, b)) && !removed {
                        failures.push(format!("step {step}: End of pair {a:?} {b:?} not touching"));
                    }
                }
            }
        }
        let sweep_of = |handle: ColliderHandle| {
            let collider = world.get(handle).unwrap();
            match motions.get(&handle) {
                Some(Motion::Swept(from)) => world_sweep(collider, from),
                _ => Sweep::fixed(&collider.world_transform()),
            }
        };
        let allowed = |a: &Collider, b: &Collider| {
            world.layers().collides(a.layer(), b.layer()) && a.groups().interacts_with(b.groups())
        };
        for &first in &movers {
            if !matches!(motions[&first], Motion::Swept(_)) {
                continue;
            }
            for &second in &live {
                if first == second
                    || (matches!(motions.get(&second), Some(Motion::Swept(_))) && second < first)
                {
                    continue;
                }
                let pair = if first < second {
                    (first, second)
                } else {
                    (second, first)
                };
                if touching.contains(&pair) {
                    continue;
                }
                let (collider_a, collider_b) =
                    (world.get(first).unwrap(), world.get(second).unwrap());
                if (collider_a.is_sensor() && collider_b.is_sensor())
                    || !allowed(collider_a, collider_b)
                    || collider_a.one_way().is_some()
                    || collider_b.one_way().is_some()
                {
                    continue;
                }
                let (shape_a, shape_b) = (collider_a.shape(), collider_b.shape());
                let (sweep_a, sweep_b) = (sweep_of(first), sweep_of(second));
                if !paths_near(shape_a, &sweep_a, shape_b, &sweep_b) {
                    continue;
                }
                checked.pairs += 1;
                let reference = Reference {
                    a: Body::new(shape_a, &sweep_a),
                    b: Body::new(shape_b, &sweep_b),
                };
                let (tolerance, slack, scale) = allowance(shape_a, &sweep_a, shape_b, &sweep_b);
                let label = || {
                    format!(
                        "seed {seed:#x} step {step}: {pair:?} ({} / {}): {shape_a:?} by {sweep_a:?} / {shape_b:?} by {sweep_b:?}",
                        edits.get(&first).map_or("", |s| s.as_str()),
                        edits.get(&second).map_or("", |s| s.as_str()),
                    )
                };
                if let Some((due, why)) = deadline(&reference, tolerance, slack, scale, true) {
                    checked.contacts += 1;
                    if !now.contains(&pair) {
                        failures.push(format!("passed through (due {due}: {why}): {}", label()));
                    }
                }
                if let Some(&time) = times.get(&pair) {
                    checked.begins += 1;
                    let closest = closest_at(&reference, f64::from(time));
                    if closest > tolerance + slack {
                        failures.push(format!(
                            "began at {time} with the shapes {closest:e} apart: {}",
                            label()
                        ));
                    }
                }
            }
        }
        touching = now;
        for &handle in &movers {
            before.insert(handle, world.get(handle).unwrap().world_transform());
        }
        if rng.chance(0.15) {
            // Saved and restored: the next sweeps start where they would have.
            world = World::restore(world.snapshot()).unwrap();
        }
    }
    failures
}

/// A count or seed from the environment (for longer local hunts), else `default`.
fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Fails with the first few `failures`; all of them go to stderr first when `HUNT_VERBOSE` is
/// set (for longer local hunts).
fn report(failures: &[String], what: &str) {
    if std::env::var_os("HUNT_VERBOSE").is_some() {
        failures.iter().for_each(|failure| eprintln!("{failure}"));
    }
    assert!(
        failures.is_empty(),
        "{} {what}:\n{}",
        failures.len(),
        failures
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn edited_continuous_movers_never_pass_through_tile_levels_walls_or_each_other() {
    let mut checked = Checked::default();
    let mut failures = Vec::new();
    for world in 0..env("HUNT_WORLDS", 24) {
        failures.extend(edits_run(
            env("HUNT_SEED", 0x4a17_0000) + world,
            &mut checked,
        ));
    }
    eprintln!("{checked:?}");
    report(&failures, "wrong");
    assert!(
        checked.contacts >= 300 && checked.begins >= 300,
        "{checked:?}"
    );
}

/// A crease, corner or seam for `sweep_to` runs, about `centre`: its colliders and a point
/// in the open space beside it.
fn crease(rng: &mut Rng, world: &mut World, centre: Vec2, kind: usize) -> Vec2 {
    let angle = rng.angle();
    let place = |p: Vec2| centre + Rot::from_angle(angle).rotate(p);
    match kind {
        0 => {
            // Two boxes meeting in a V: the opening between 10° and 170°.
            let opening = rng.range(0.17, 2.97);
            for side in [-1.0f32, 1.0] {
                let direction = unit(angle + std::f32::consts::FRAC_PI_2 + side * 0.5 * opening);
                let thickness = rng.log_size(0.01, 1.0);
                let normal = Vec2::new(-direction.y, direction.x) * side;
                world
                    .insert(
                        Collider::rect(8.0, thickness)
                            .unwrap()
                            .with_transform(Transform {
                                p: centre + direction * 4.0 + normal * (0.5 * thickness),
                                q: Rot::from_angle(direction.y.atan2(direction.x)),
                            }),
                    )
                    .unwrap();
            }
            place(Vec2::new(0.0, 3.0))
        }
        1 => {
            // A concave chain corner (collision side inward), some joints bent.
            let bend = rng.range(0.2, 2.5);
            let points = [
                Vec2::new(-6.0, 6.0 * bend),
                Vec2::new(-3.0, rng.range(-0.3, 0.3)),
                Vec2::ZERO,
                Vec2::new(3.0, rng.range(-0.3, 0.3)),
                Vec2::new(6.0, 6.0),
            ];
            let points: Vec<Vec2> = points.iter().rev().copied().collect();
            world
                .insert(
                    Collider::new(Shape::from(Chain::open(&points).unwrap()))
                        .with_transform(Transform::new(centre, angle)),
                )
                .unwrap();
            place(Vec2::new(0.0, 2.0))
        }
        2 => {
            // A tile-map step and floor, outlines or boxes.
            let geometry = if rng.chance(0.5) {
                TileGeometry::Outlines
            } else {
                TileGeometry::Rectangles
            };
            let height = 1 + rng.below(3) as u32;
            let map = TileMap::from_fn(12, 6, 1.0, centre - Vec2::new(6.0, 1.0), |x, y| {
                if y == 0 || (x >= 6 && y < height) {
                    Tile::SOLID
                } else {
                    Tile::EMPTY
                }
            })
            .unwrap();
            TileMapColliders::insert(world, &map, geometry).unwrap();
            centre + Vec2::new(-2.0, 2.5)
        }
        _ => {
            // Two boxes side by side (a seam), their tops level or a hair apart.
            let step = rng.pick(&[0.0, 1e-5, -1e-5, 1e-3]);
            for (x, dy) in [(-2.0f32, 0.0f32), (2.0, step)] {
                world
                    .insert(Collider::rect(4.0, 1.0).unwrap().with_transform(Transform {
                        p: place(Vec2::new(x, -0.5 + dy)),
                        q: Rot::from_angle(angle),
                    }))
                    .unwrap();
            }
            place(Vec2::new(0.0, 2.0))
        }
    }
}

fn sweep_body(rng: &mut Rng) -> Shape {
    let size = rng.log_size(0.05, 1.5);
    match rng.below(5) {
        0 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
        1 => Shape::from(Polygon::rect(size, size * rng.range(0.1, 1.0)).unwrap()),
        2 => Shape::from(
            Capsule::new(
                Vec2::new(-0.4 * size, 0.0),
                Vec2::new(0.4 * size, 0.0),
                0.1 * size,
            )
            .unwrap(),
        ),
        3 => Shape::from(
            Polygon::regular(3 + rng.below(5), 0.5 * size)
                .unwrap()
                .with_radius(0.02 * size)
                .unwrap(),
        ),
        _ => Shape::from(
            Compound::new(vec![
                (
                    Transform::new(Vec2::new(-0.25 * size, 0.0), 0.0),
                    Shape::from(Polygon::rect(0.5 * size, 0.2 * size).unwrap()),
                ),
                (
                    Transform::new(Vec2::new(0.25 * size, 0.0), 0.0),
                    Shape::from(Circle::with_radius(0.15 * size).unwrap()),
                ),
            ])
            .unwrap(),
        ),
    }
}

/// One `sweep_to` run; returns the failures and counts moves and stops.
fn sweep_to_run(seed: u64, moves: &mut usize, stops: &mut usize) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut world = World::with_broad_phase(KINDS[(seed % 3) as usize]).unwrap();
    let centre = match seed % 3 {
        0 => Vec2::ZERO,
        1 => Vec2::new(-1.0e4, 7.0e3),
        _ => Vec2::new(6.0e4, -1.0e5),
    };
    let kind = (seed / 3 % 4) as usize;
    let open = crease(&mut rng, &mut world, centre, kind);
    let walls: Vec<ColliderHandle> = world.iter().map(|(h, _)| h).collect();
    let offset = if rng.chance(0.3) {
        Transform::new(rng.point(0.3), rng.angle())
    } else {
        Transform::IDENTITY
    };
    let body = world
        .insert(
            Collider::new(sweep_body(&mut rng))
                .with_continuous(rng.chance(0.5))
                .with_offset(offset)
                .with_transform(Transform::new(open, rng.angle())),
        )
        .unwrap();
    // Start clear of everything.
    let clear = |world: &World| {
        let collider = world.get(body).unwrap();
        walls.iter().all(|&w| {
            let wall = world.get(w).unwrap();
            let reference = Reference {
                a: Body::new(collider.shape(), &Sweep::fixed(&collider.world_transform())),
                b: Body::new(wall.shape(), &Sweep::fixed(&wall.world_transform())),
            };
            closest_at(&reference, 0.0) > 1e-2
        })
    };
    if !clear(&world) {
        return Vec::new();
    }
    world.update();
    let mut failures = Vec::new();
    for round in 0..12 {
        let collider = world.get(body).unwrap().clone();
        let from = collider.world_transform();
        let object = collider.transform();
        // Towards the crease (through it, mostly), or along what it rests on.
        let aim = match rng.below(4) {
            0 => centre + rng.point(0.5),
            1 => centre + (centre - object.p) * rng.range(0.0, 3.0) + rng.point(0.2),
            2 => object.p + unit(rng.angle()) * rng.log_size(0.01, 2.0),
            _ => object.p + unit(rng.angle()) * rng.log_size(10.0, env("HUNT_FAR", 10_000) as f32),
        };
        let turn = match rng.below(3) {
            0 => 0.0,
            1 => rng.range(-0.3, 0.3),
            _ => rng.range(-3.0, 3.0),
        };
        let target = Transform {
            p: aim,
            q: object.q.mul(Rot::from_angle(turn)),
        };
        let hit = world.sweep_to(body, target).unwrap();
        *moves += 1;
        // The reference sweep of the move as asked (target placement of the shape).
        let wanted = Collider::new(collider.shape().clone())
            .with_offset(collider.offset())
            .with_transform(target);
        let sweep = world_sweep(&wanted, &from);
        let label = || {
            format!(
                "seed {seed:#x} (kind {kind}) round {round}: {:?} offset {:?} from {from:?} to {target:?}: {hit:?}",
                collider.shape(),
                collider.offset()
            )
        };
        let stop = hit.map_or(1.0, |h| f64::from(h.fraction));
        if hit.is_some() {
            *stops += 1;
        }
        for &w in &walls {
            let wall = world.get(w).unwrap();
            let still = Sweep::fixed(&wall.world_transform());
            let reference = Reference {
                a: Body::new(collider.shape(), &sweep),
                b: Body::new(wall.shape(), &still),
            };
            let (tolerance, slack, scale) =
                allowance(collider.shape(), &sweep, wall.shape(), &still);
            // The time of a stop is rounded at the scale of the motion.
            let time_slack = 4.0 * f64::from(f32::EPSILON);
            if let Some((due, why)) = deadline(&reference, tolerance, slack, scale, false) {
                if stop > due + time_slack {
                    failures.push(format!(
                        "passed {w:?} (due {due}, stopped at {stop}: {why}): {}",
                        label()
                    ));
                }
            }
            // Where it stopped: no deeper into a wall it was clear of at the start.
            let start_gap = closest_at(&reference, 0.0);
            let placed = world.get(body).unwrap().world_transform();
            let end = Reference {
                a: Body::new(collider.shape(), &Sweep::fixed(&placed)),
                b: Body::new(wall.shape(), &still),
            };
            let end_gap = closest_at(&end, 0.0);
            // (A chain is passed from behind: only its front counts, and the deadline has it.)
            let chain = matches!(wall.shape(), Shape::Chain(_));
            if !chain && start_gap > tolerance + slack && end_gap < -(tolerance + slack) {
                failures.push(format!(
                    "stopped {end_gap:e} deep in {w:?} (clear by {start_gap:e} at the start): {}",
                    label()
                ));
            }
        }
        if !failures.is_empty() {
            break;
        }
    }
    failures
}

#[test]
fn sweep_to_into_creases_corners_and_seams_never_passes_or_sinks() {
    let (mut moves, mut stops) = (0, 0);
    let mut failures = Vec::new();
    for run in 0..env("HUNT_RUNS", 600) {
        failures.extend(sweep_to_run(
            env("HUNT_SEED", 0x5ee9_0000) + run,
            &mut moves,
            &mut stops,
        ));
    }
    eprintln!("{moves} moves, {stops} stops");
    report(&failures, "wrong");
    assert!(
        moves >= 4000 && stops >= 1500,
        "{moves} moves, {stops} stops"
    );
}

/// A one-way platform for landings, its blocking side its local `+y`, with its half width and
/// the height of its top face above its placement's origin.
fn platform(rng: &mut Rng, world: &mut World, place: Transform) -> (f32, f32) {
    let width = rng.log_size(4.0, 200.0);
    let margin = rng.log_size(0.01, 0.5);
    match rng.below(4) {
        0 => {
            let height = rng.log_size(0.01, 2.0);
            world
                .insert(
                    Collider::rect(width, height)
                        .unwrap()
                        .with_one_way(Vec2::Y, margin)
                        .with_transform(place),
                )
                .unwrap();
            (0.5 * width, 0.5 * height)
        }
        1 => {
            let radius = rng.log_size(0.01, 0.5);
            world
                .insert(
                    Collider::capsule(
                        Vec2::new(-0.5 * width, 0.0),
                        Vec2::new(0.5 * width, 0.0),
                        radius,
                    )
                    .unwrap()
                    .with_one_way(Vec2::Y, margin)
                    .with_transform(place),
                )
                .unwrap();
            (0.5 * width, radius)
        }
        2 => {
            // A closed chain outline (a slab), as a one-way tile region has.
            let height = rng.log_size(0.05, 2.0);
            let (w, h) = (0.5 * width, 0.5 * height);
            let outline = [
                Vec2::new(-w, -h),
                Vec2::new(w, -h),
                Vec2::new(w, h),
                Vec2::new(-w, h),
            ];
            world
                .insert(
                    Collider::new(Shape::from(Chain::closed(&outline).unwrap()))
                        .with_one_way(Vec2::Y, margin)
                        .with_transform(place),
                )
                .unwrap();
            (w, h)
        }
        _ => {
            // A one-way row of a tile map (level, so the placement's rotation is dropped).
            let cells = width.ceil().max(4.0) as u32;
            let geometry = if rng.chance(0.5) {
                TileGeometry::Outlines
            } else {
                TileGeometry::Rectangles
            };
            let origin = place.p - Vec2::new(0.5 * cells as f32, 1.0);
            let map =
                TileMap::from_fn(cells, 1, 1.0, origin, |_, _| Tile::SOLID.with_one_way(true))
                    .unwrap();
            TileMapColliders::insert(world, &map, geometry).unwrap();
            (0.5 * cells as f32, 0.0)
        }
    }
}

/// Continuous bodies falling onto one-way platforms (boxes, capsules, closed chains, one-way
/// tile rows; tilted up to 0.5 rad, about the origin or 1e4 or 1e5 out) from above, at a slant
/// of up to 60° from the platform's down, by 0.5..1e4 in one update while turning (up to ±3 rad
/// the shortest way, or ±50 rad stated): wherever the path crosses the top face well inside
/// its ends, the body must touch the platform at that update, at a time the reference confirms.
#[test]
fn continuous_bodies_landing_on_one_way_platforms_at_a_slant_while_turning_touch_them() {
    let mut failures = Vec::new();
    let (mut landings, mut cases) = (0usize, 0usize);
    for case in 0..env("HUNT_LANDINGS", 3000) {
        let seed = env("HUNT_SEED", 0x1a7d_0000) + case;
        let mut rng = Rng(seed);
        let mut world = World::with_broad_phase(KINDS[(case % 3) as usize]).unwrap();
        let centre = match case % 3 {
            0 => Vec2::ZERO,
            1 => Vec2::new(1.0e4, 2.0e3),
            _ => Vec2::new(-3.0e4, -1.0e5),
        };
        let tilt = if rng.chance(0.3) {
            0.0
        } else {
            rng.range(-0.5, 0.5)
        };
        let place = Transform::new(centre, tilt);
        let (half_width, top) = platform(&mut rng, &mut world, place);
        // (A tile row is level whatever the placement's rotation.)
        let tilt = world
            .iter()
            .next()
            .map_or(0.0, |(_, c)| c.transform().angle());
        let up = unit(tilt + std::f32::consts::FRAC_PI_2);
        let along = unit(tilt);
        let surface = centre + up * top;
        let shape = sweep_body(&mut rng);
        let offset = if rng.chance(0.3) {
            Transform::new(rng.point(0.2), rng.angle())
        } else {
            Transform::IDENTITY
        };
        let spin_start = rng.angle();
        let collider = Collider::new(shape.clone())
            .with_continuous(true)
            .with_offset(offset);
        let probe = collider
            .clone()
            .with_transform(Transform::new(Vec2::ZERO, spin_start));
        let body_reach =
            reach(&shape, &world_sweep(&probe, &probe.world_transform())) + offset.p.length();
        let distance = rng.log_size(0.5, 1.0e4);
        let slant = rng.range(-1.05, 1.05);
        let down = -unit(tilt + std::f32::consts::FRAC_PI_2 + slant);
        // Cross the top face at `cross` (well inside its ends), a fraction of the way along.
        let cross_at = rng.range(-0.8, 0.8) * (half_width - body_reach - 1.0).max(0.0);
        let cross = surface + along * cross_at;
        let before = rng.range(0.05, 0.95);
        let start_p = cross - down * (distance * before);
        let end_p = cross + down * (distance * (1.0 - before));
        // Clear of the platform at the start, by more than its margin and a body.
        if (start_p - surface).dot(up) < body_reach + 1.0 {
            continue;
        }
        if half_width - cross_at.abs() < body_reach + 1.0 {
            continue;
        }
        // And on below the top face by more than the body's reach, so the shape crosses it.
        if (surface - end_p).dot(up) < body_reach + 0.01 {
            continue;
        }
        let start = Transform::new(start_p, spin_start);
        let body = world.insert(collider.with_transform(start)).unwrap();
        world.update();
        let from = world.get(body).unwrap().world_transform();
        let stated = rng.chance(0.3).then(|| rng.range(-50.0, 50.0));
        let turn = stated.unwrap_or_else(|| rng.range(-3.0, 3.0));
        let end = Transform {
            p: end_p,
            q: start.q.mul(Rot::from_angle(turn)),
        };
        match stated {
            Some(stated) => world.set_transform_spinning(body, end, stated).unwrap(),
            None => world.set_transform(body, end).unwrap(),
        }
        world.update();
        cases += 1;
        let touched: Vec<(ColliderHandle, Option<f32>)> = world
            .events()
            .iter()
            .filter_map(|event| match *event {
                CollisionEvent::Begin {
                    a,
                    b,
                    time_of_impact,
                    ..
                } if a == body || b == body => Some((
                    if a == body { b } else { a },
                    time_of_impact.map(|t| t.get()),
                )),
                _ => None,
            })
            .collect();
        let label = || {
            format!(
                "case {case} seed {seed:#x}: {shape:?} offset {offset:?} from {start:?} to {end:?} (stated {stated:?}) onto {:?} at {:?}: events {:?}",
                world.iter().filter(|(h, _)| *h != body).map(|(_, c)| (c.shape().clone(), c.one_way())).collect::<Vec<_>>(),
                place,
                world.events()
            )
        };
        if touched.is_empty() {
            failures.push(format!("no touch: {}", label()));
            continue;
        }
        landings += 1;
        // The time against the reference, for the collider touched first.
        let mover = world.get(body).unwrap();
        let mut sweep = world_sweep(mover, &from);
        if let Some(stated) = stated {
            use std::f32::consts::TAU;
            sweep.turn += TAU * ((stated - sweep.turn) / TAU).round();
        }
        let closest = touched
            .iter()
            .filter_map(|&(other, time)| {
                let other = world.get(other).unwrap();
                let still = Sweep::fixed(&other.world_transform());
                let reference = Reference {
                    a: Body::new(&shape, &sweep),
                    b: Body::new(other.shape(), &still),
                };
                let (tolerance, slack, _) = allowance(&shape, &sweep, other.shape(), &still);
                Some(closest_at(&reference, f64::from(time?)) - tolerance - slack)
            })
            .fold(f64::INFINITY, f64::min);
        if closest > 0.0 {
            failures.push(format!(
                "touched {closest:e} beyond the allowance: {}",
                label()
            ));
        }
    }
    eprintln!("{landings} landings of {cases} cases");
    report(&failures, "wrong");
    assert!(cases >= 1000, "{cases} cases");
}

/// A huge wall (1e2..1e4 long) for a tiny bullet, placed about `centre` turned by `angle`,
/// with the unit normal of the face the bullet comes at and that face's offset from the
/// placement along it.
fn huge_wall(rng: &mut Rng, world: &mut World, place: Transform) -> (Vec2, f32, f32) {
    let length = rng.log_size(100.0, 1.0e4);
    let side = place.q.rotate(Vec2::Y);
    match rng.below(5) {
        0 => {
            let thickness = rng.log_size(0.01, 1.0);
            world
                .insert(
                    Collider::rect(length, thickness)
                        .unwrap()
                        .with_transform(place),
                )
                .unwrap();
            (side, 0.5 * thickness, 0.5 * length)
        }
        1 => {
            let radius = rng.log_size(0.005, 0.5);
            let half = Vec2::new(0.5 * length, 0.0);
            world
                .insert(
                    Collider::capsule(-half, half, radius)
                        .unwrap()
                        .with_transform(place),
                )
                .unwrap();
            (side, radius, 0.5 * length)
        }
        2 => {
            // A chain segment, its collision side facing the bullet (right to left: up).
            let half = Vec2::new(0.5 * length, 0.0);
            world
                .insert(
                    Collider::new(Shape::from(Chain::open(&[half, -half]).unwrap()))
                        .with_transform(place),
                )
                .unwrap();
            (side, 0.0, 0.5 * length)
        }
        3 => {
            // A segment shape.
            let half = Vec2::new(0.5 * length, 0.0);
            world
                .insert(
                    Collider::segment(-half, half)
                        .unwrap()
                        .with_transform(place),
                )
                .unwrap();
            (side, 0.0, 0.5 * length)
        }
        _ => {
            // A tile-map floor a tile thick, its top face through the placement (level).
            let cells = length.ceil() as u32;
            let geometry = if rng.chance(0.5) {
                TileGeometry::Outlines
            } else {
                TileGeometry::Rectangles
            };
            let origin = place.p - Vec2::new(0.5 * cells as f32, 1.0);
            let map = TileMap::from_fn(cells, 1, 1.0, origin, |_, _| Tile::SOLID).unwrap();
            TileMapColliders::insert(world, &map, geometry).unwrap();
            (Vec2::Y, 0.0, 0.5 * cells as f32)
        }
    }
}

/// Tiny bullets (1e-2..1e-1 across) shot at huge walls, boxes, capsules, segments, chain
/// segments and tile floors 1e2..1e4 long, near the origin or 1e3 or 1e4 out, crossing them
/// anywhere along their length (up to their ends) at up to 80° from square, by 0.5..1e4 in one
/// update, some turning: each must touch its wall at that update, at a time the reference
/// confirms; `sweep_to` along the same path must stop there, no deeper than the allowance.
#[test]
fn tiny_bullets_never_pass_through_huge_walls_anywhere_along_them() {
    let mut failures = Vec::new();
    let mut cases = 0usize;
    for case in 0..env("HUNT_BULLETS", 3000) {
        let seed = env("HUNT_SEED", 0xb0_1e70_0000) + case;
        let mut rng = Rng(seed);
        let mut world = World::with_broad_phase(KINDS[(case % 3) as usize]).unwrap();
        let centre = match case % 3 {
            0 => Vec2::ZERO,
            1 => Vec2::new(-1.0e3, 2.0e3),
            _ => Vec2::new(1.0e4, -6.0e3),
        };
        let place = Transform::new(centre, rng.angle());
        let (normal, half_thickness, half_length) = huge_wall(&mut rng, &mut world, place);
        let along = Vec2::new(normal.y, -normal.x);
        let surface = centre + normal * half_thickness;
        let bullet = match rng.below(4) {
            0 => Shape::from(Circle::with_radius(0.5 * rng.log_size(0.01, 0.1)).unwrap()),
            1 => Shape::from(Polygon::rect(rng.log_size(0.01, 0.1), 0.01).unwrap()),
            2 => Shape::from(
                Capsule::new(Vec2::new(-0.02, 0.0), Vec2::new(0.02, 0.0), 0.005).unwrap(),
            ),
            _ => Shape::from(Polygon::regular(5, 0.5 * rng.log_size(0.01, 0.1)).unwrap()),
        };
        let distance = rng.log_size(0.5, 1.0e4);
        let slant = rng.range(-1.4, 1.4);
        let direction = -Rot::from_angle(slant).rotate(normal);
        let cross = surface + along * (rng.range(-1.0, 1.0) * (half_length - 0.2));
        let before = rng.range(0.02, 0.98);
        let start_p = cross - direction * (distance * before);
        let end_p = cross + direction * (distance * (1.0 - before));
        // Clear of the face at the start, and beyond it at the end, by more than the bullet.
        if (start_p - surface).dot(normal) < 0.1 || (surface - end_p).dot(normal) < 0.1 {
            continue;
        }
        let spin = if rng.chance(0.3) {
            rng.range(-3.0, 3.0)
        } else {
            0.0
        };
        let start = Transform::new(start_p, rng.angle());
        let end = Transform {
            p: end_p,
            q: start.q.mul(Rot::from_angle(spin)),
        };
        cases += 1;
        let walls: Vec<ColliderHandle> = world.iter().map(|(h, _)| h).collect();
        let body = world
            .insert(
                Collider::new(bullet.clone())
                    .with_continuous(true)
                    .with_transform(start),
            )
            .unwrap();
        let mut aimed = World::restore(world.snapshot()).unwrap();
        world.update();
        world.set_transform(body, end).unwrap();
        world.update();
        let label = |what: &str| {
            format!(
                "case {case} seed {seed:#x} {what}: {bullet:?} from {start:?} to {end:?} through {:?}",
                walls
                    .iter()
                    .map(|&w| {
                        let c = world.get(w).unwrap();
                        (c.shape().clone(), c.transform())
                    })
                    .collect::<Vec<_>>()
            )
        };
        let from = start;
        let sweep = world_sweep(world.get(body).unwrap(), &from);
        let began: Vec<(ColliderHandle, Option<f32>)> = world
            .began()
            .iter()
            .filter_map(|event| match *event {
                CollisionEvent::Begin {
                    a,
                    b,
                    time_of_impact,
                    ..
                } if a == body || b == body => Some((
                    if a == body { b } else { a },
                    time_of_impact.map(|t| t.get()),
                )),
                _ => None,
            })
            .collect();
        // The reference's first contact over the walls, and the allowance then.
        let mut due: Option<f64> = None;
        for &w in &walls {
            let wall = world.get(w).unwrap();
            let still = Sweep::fixed(&wall.world_transform());
            let reference = Reference {
                a: Body::new(&bullet, &sweep),
                b: Body::new(wall.shape(), &still),
            };
            let (tolerance, slack, scale) = allowance(&bullet, &sweep, wall.shape(), &still);
            let slack = slack + 8.0 * f64::from(f32::EPSILON) * size(wall.shape());
            if let Some((t, _)) = deadline(&reference, tolerance, slack, scale, true) {
                due = Some(due.map_or(t, |d: f64| d.min(t)));
            }
            if let Some(&(_, Some(time))) = began.iter().find(|(other, _)| *other == w) {
                let closest = closest_at(&reference, f64::from(time));
                if closest > tolerance + slack {
                    failures.push(label(&format!("began at {time} {closest:e} apart")));
                }
            }
        }
        if due.is_some() && began.is_empty() {
            failures.push(label("passed through"));
        }
        // The same path by `sweep_to` from the start.
        let hit = aimed.sweep_to(body, end).unwrap();
        if due.is_some() && hit.is_none() {
            failures.push(label("sweep_to passed through"));
        }
        let placed = aimed.get(body).unwrap().world_transform();
        for &w in &walls {
            let wall = aimed.get(w).unwrap();
            if matches!(wall.shape(), Shape::Chain(_)) {
                continue;
            }
            let still = Sweep::fixed(&wall.world_transform());
            let end_reference = Reference {
                a: Body::new(&bullet, &Sweep::fixed(&placed)),
                b: Body::new(wall.shape(), &still),
            };
            let (tolerance, slack, _) = allowance(&bullet, &sweep, wall.shape(), &still);
            let slack = slack + 8.0 * f64::from(f32::EPSILON) * size(wall.shape());
            let gap = closest_at(&end_reference, 0.0);
            if gap < -(tolerance + slack) {
                failures.push(label(&format!("sweep_to stopped {gap:e} deep ({hit:?})")));
            }
        }
    }
    eprintln!("{cases} cases");
    report(&failures, "wrong");
    assert!(cases >= 1500, "{cases} cases");
}

/// The contact a touching pair reports for `body` at the last update, as the direction it
/// pushes `body` out (`None` when the pair does not touch or is a sensor pair).
fn push_on(world: &World, body: ColliderHandle, other: ColliderHandle) -> Option<Vec2> {
    world.events().iter().find_map(|event| match *event {
        CollisionEvent::Begin { b, manifold, .. } | CollisionEvent::Stay { b, manifold, .. }
            if event.involves(body) && event.involves(other) =>
        {
            let normal = manifold?.normal;
            Some(if b == body { normal } else { -normal })
        }
        _ => None,
    })
}

/// A body resting on a thick floor (it touched at the last update) pushed down past the floor's
/// middle, and one rolled along a level piece's floor into its thick wall past the wall's
/// middle: the contact reported is where the sweep met the collider, pushing the body back the
/// way it came. The contact at the end of the step, which the pair used to keep because it
/// touched before, pushed the body on out the far side (through the floor, through the wall),
/// while the same move from apart gave the contact at the time of impact.
#[test]
fn a_resting_body_pushed_past_the_middle_of_what_it_rests_on_is_pushed_back() {
    for kind in KINDS {
        // Through the middle of a floor 1 thick.
        let mut world = World::with_broad_phase(kind).unwrap();
        let floor = world
            .insert(
                Collider::rect(4.0, 1.0)
                    .unwrap()
                    .with_transform(Transform::new(Vec2::new(0.0, -0.5), 0.0)),
            )
            .unwrap();
        let ball = world
            .insert(
                Collider::circle(0.25)
                    .unwrap()
                    .with_continuous(true)
                    .with_transform(Transform::new(Vec2::new(0.0, 0.249), 0.0)),
            )
            .unwrap();
        world.update();
        assert!(push_on(&world, ball, floor).is_some());
        world
            .set_transform(ball, Transform::new(Vec2::new(0.0, -0.6), 0.0))
            .unwrap();
        world.update();
        let push = push_on(&world, ball, floor).expect("still touching");
        assert!((push - Vec2::Y).length() < 1e-4, "{kind:?}: {push:?}");

        // Along a level piece's floor into its wall 1 thick, past the wall's middle.
        let (mut world, level, ball) = level_with_resting_ball(kind);
        world
            .set_transform(ball, Transform::new(Vec2::new(5.1, 0.8), 0.0))
            .unwrap();
        world.update();
        let push = push_on(&world, ball, level).expect("still touching");
        assert!((push + Vec2::X).length() < 1e-4, "{kind:?}: {push:?}");
        // And at the height it rolled at, ending nearer the wall's bottom face than its far side.
        world
            .teleport(ball, Transform::new(Vec2::new(0.0, 0.249), 0.0))
            .unwrap();
        world.update();
        world
            .set_transform(ball, Transform::new(Vec2::new(5.1, 0.249), 0.0))
            .unwrap();
        world.update();
        let push = push_on(&world, ball, level).expect("still touching");
        assert!((push + Vec2::X).length() < 1e-4, "{kind:?}: {push:?}");
    }
}

/// A ball resting on a level piece's floor, rolled in one update past the middle of its wall
/// while turning 0.3 rad (a shortest turn with `set_transform`, a stated one with
/// `set_transform_spinning`): the contact reported is the wall's where the sweep met it,
/// pushing the ball back. A circle turning about its centre cannot sink deeper into the floor,
/// yet the cast counted its radius times the turn as closing and called the floor it rests on
/// a hit at the start, so the wall was never met and the end-of-step contact (on out through
/// the wall) was kept.
#[test]
fn a_resting_ball_turning_as_it_rolls_into_a_levels_wall_is_pushed_back() {
    for kind in KINDS {
        for spinning in [false, true] {
            let (mut world, level, ball) = level_with_resting_ball(kind);
            assert!(push_on(&world, ball, level).is_some());
            let end = Transform::new(Vec2::new(5.1, 0.249), 0.3);
            if spinning {
                world.set_transform_spinning(ball, end, 0.3).unwrap();
            } else {
                world.set_transform(ball, end).unwrap();
            }
            world.update();
            let push = push_on(&world, ball, level).expect("still touching");
            assert!(
                (push + Vec2::X).length() < 1e-4,
                "{kind:?} spinning {spinning}: {push:?}"
            );
        }
    }
}

/// Bodies (circles, boxes, capsules, rounded polygons, 0.1..0.6 across) resting on a floor
/// 0.2..2 thick (a box, or the floor of a level compound with a wall 0.3..2 thick), the whole
/// turned any way and placed about the origin or 1e3 or 1e4 out, then moved in one update
/// down into the floor at up to 45° from straight, or along the floor into the wall (well
/// below its top), to any depth up to through it, without turning. Whenever the pair still
/// touches, its contact must push the body back against its motion (never on along it, nor
/// down into the floor it rolled on), and a body that ends overlapping what it went into must
/// still touch it.
#[test]
fn resting_bodies_pushed_into_what_they_rest_on_are_never_pushed_on_through_it() {
    resting_sweep(false);
}

/// As [`resting_bodies_pushed_into_what_they_rest_on_are_never_pushed_on_through_it`], with
/// the body turning up to ±0.5 rad about its centre over the move (stated with
/// `set_transform_spinning` in every other case, else the shortest turn of `set_transform`):
/// the turn must not hide the contact the sweep meets (a ball turning as it rolls into a
/// level's wall used to keep the end-of-step contact, pushing it on through the wall).
#[test]
fn resting_bodies_turning_while_pushed_into_what_they_rest_on_are_never_pushed_on_through_it() {
    resting_sweep(true);
}

/// The resting sweeps: 1,500 seeded cases of [`resting_push_case`], turning or not; at least
/// 1,000 must rest and 200 end touching past the middle of what they went into.
fn resting_sweep(turning: bool) {
    let mut failures = Vec::new();
    let (mut cases, mut past_middle) = (0usize, 0usize);
    for case in 0..env("HUNT_RESTING", 1500) {
        let seed = env("HUNT_SEED", 0x2e57_0000) + case;
        if let Some(passed) = resting_push_case(case, seed, turning, &mut failures) {
            cases += 1;
            past_middle += usize::from(passed);
        }
    }
    eprintln!("{cases} cases, {past_middle} past the middle and touching");
    report(&failures, "wrong");
    assert!(
        cases >= 1000 && past_middle >= 200,
        "{cases} cases, {past_middle} past the middle"
    );
}

/// One case of the resting sweeps: `None` when the body was not resting (a failure is
/// recorded), else whether it ended touching past the middle of what it went into.
fn resting_push_case(
    case: u64,
    seed: u64,
    turning: bool,
    failures: &mut Vec<String>,
) -> Option<bool> {
    let mut rng = Rng(seed);
    let mut world = World::with_broad_phase(KINDS[(case % 3) as usize]).unwrap();
    let centre = match case % 3 {
        0 => Vec2::ZERO,
        1 => Vec2::new(-1.0e3, 4.0e2),
        _ => Vec2::new(1.0e4, 7.0e3),
    };
    let frame = Transform::new(centre, if rng.chance(0.3) { 0.0 } else { rng.angle() });
    let thickness = rng.log_size(0.2, 2.0);
    let into_wall = rng.chance(0.5);
    let wall_thickness = rng.log_size(0.3, 2.0);
    let wall_x = 3.0;
    let piece = if into_wall {
        Shape::from(
            Compound::new(vec![
                (
                    Transform::new(Vec2::new(0.0, -0.5 * thickness), 0.0),
                    Shape::from(Polygon::rect(20.0, thickness).unwrap()),
                ),
                (
                    Transform::new(Vec2::new(wall_x + 0.5 * wall_thickness, 2.5), 0.0),
                    Shape::from(Polygon::rect(wall_thickness, 5.0).unwrap()),
                ),
            ])
            .unwrap(),
        )
    } else {
        Shape::from(
            Polygon::box_at(
                Vec2::new(0.0, -0.5 * thickness),
                Vec2::new(10.0, 0.5 * thickness),
                0.0,
            )
            .unwrap(),
        )
    };
    let floor = world
        .insert(Collider::new(piece).with_transform(frame))
        .unwrap();
    let size = rng.log_size(0.1, 0.6);
    let shape = match rng.below(4) {
        0 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
        1 => Shape::from(Polygon::rect(size, size * rng.range(0.3, 1.0)).unwrap()),
        2 => Shape::from(
            Capsule::new(
                Vec2::new(-0.3 * size, 0.0),
                Vec2::new(0.3 * size, 0.0),
                0.2 * size,
            )
            .unwrap(),
        ),
        _ => Shape::from(
            Polygon::regular(3 + rng.below(5), 0.5 * size)
                .unwrap()
                .with_radius(0.05 * size)
                .unwrap(),
        ),
    };
    let local = shape.aabb(&Transform::IDENTITY);
    // Resting: overlapping the floor's top a little (more than the rounding out there).
    let overlap = 2e-3 + centre.abs().max_element() * 16.0 * f32::EPSILON;
    let rest = Vec2::new(rng.range(-2.0, 0.0), -overlap - local.min.y);
    let place = |p: Vec2| Transform {
        p: frame.apply(p),
        q: frame.q,
    };
    let body = world
        .insert(
            Collider::new(shape.clone())
                .with_continuous(true)
                .with_transform(place(rest)),
        )
        .unwrap();
    world.update();
    if push_on(&world, body, floor).is_none() {
        failures.push(format!("case {case} seed {seed:#x}: not resting"));
        return None;
    }
    // The move, in the frame: down into the floor, or along it into the wall.
    let (end, middle_passed) = if into_wall {
        let near = wall_x - local.max.x;
        let depth = rng.range(0.0, wall_thickness + local.max.x - local.min.x);
        (
            Vec2::new(near + depth, rest.y),
            depth - local.max.x > 0.5 * wall_thickness,
        )
    } else {
        let depth = rng.range(0.0, thickness + local.max.y - local.min.y);
        let slant = rng.range(-1.0, 1.0);
        let end = Vec2::new(rest.x + slant * depth, rest.y - depth);
        (end, depth + overlap > 0.5 * thickness)
    };
    // Drawn last, so that the cases without turns are as before.
    let turn = if turning { rng.range(-0.5, 0.5) } else { 0.0 };
    let spinning = turning && case % 2 == 1;
    let end_place = Transform {
        q: frame.q.mul(Rot::from_angle(turn)),
        ..place(end)
    };
    if spinning {
        world.set_transform_spinning(body, end_place, turn).unwrap();
    } else {
        world.set_transform(body, end_place).unwrap();
    }
    world.update();
    let mut past_middle = false;
    let motion = frame.q.rotate(end - rest);
    let direction = motion / motion.length().max(f32::MIN_POSITIVE);
    let label = || {
        format!(
            "case {case} seed {seed:#x}: {shape:?} from {rest:?} to {end:?} turning {turn} (spinning {spinning}) in {frame:?} (floor {thickness}, wall {wall_thickness} into it {into_wall}): {:?}",
            world.events()
        )
    };
    match push_on(&world, body, floor) {
        Some(push) => {
            past_middle = middle_passed;
            if push.dot(direction) > 1e-3 {
                failures.push(format!("pushed on along its motion {push:?}: {}", label()));
            }
            // Nor, rolled into the wall, down into the floor it rolled on (out of the
            // wall's bottom face; a contact in the corner of wall and floor may lean).
            if into_wall && push.dot(frame.q.rotate(Vec2::Y)) < -0.5 {
                failures.push(format!("pushed into the floor {push:?}: {}", label()));
            }
        }
        None => {
            // Apart: only when the body ended clear of the collider.
            let placed = world.get(body).unwrap().world_transform();
            let other = world.get(floor).unwrap();
            let reference = Reference {
                a: Body::new(&shape, &Sweep::fixed(&placed)),
                b: Body::new(other.shape(), &Sweep::fixed(&other.world_transform())),
            };
            let gap = closest_at(&reference, 0.0);
            if gap < -(1e-3 + f64::from(centre.abs().max_element()) * 1e-6) {
                failures.push(format!("ended {gap:e} deep without touching: {}", label()));
            }
        }
    }
    Some(past_middle)
}

/// Continuous bodies (boxes, balls, capsules) resting on a floor of unit tiles built as one
/// compound, sunk 0 to 0.02 into it (as a physics engine's slop leaves them), sliding along it
/// across its seams 0.05 to 0.4 a step, some pressed down a little each step and put back
/// (as a solver does), at the origin and 1e3 out: every `Begin`/`Stay` manifold of the pair is
/// the floor's, straight up. The end-of-step contact of a pair that touched stands unless it
/// pushes the body on through the other collider or back into what it rested on; taking the
/// contact where the sweep met a tile's side instead gave seam normals ((-1, 0) for a box,
/// (-0.44, 0.9) for a ball) at 8 to 12 of 60 steps in every such run.
#[test]
fn bodies_sliding_along_a_compound_floor_across_its_seams_only_see_up() {
    let mut failures = Vec::new();
    let mut manifolds = 0usize;
    for case in 0..36u64 {
        let mut rng = Rng(0x5ea_ed00 + case);
        let origin = if case % 2 == 0 {
            Vec2::ZERO
        } else {
            Vec2::new(1.0e3, -4.0e2)
        };
        let tiles: Vec<(Transform, Shape)> = (0..24)
            .map(|i| {
                (
                    Transform::new(Vec2::new(i as f32 + 0.5, -0.5), 0.0),
                    Shape::from(Polygon::rect(1.0, 1.0).unwrap()),
                )
            })
            .collect();
        let size = rng.range(0.2, 0.6);
        let (body, half) = match case % 3 {
            0 => (Shape::from(Polygon::rect(size, size).unwrap()), 0.5 * size),
            1 => (
                Shape::from(Circle::with_radius(0.5 * size).unwrap()),
                0.5 * size,
            ),
            _ => {
                let d = Vec2::new(0.25 * size, 0.0);
                (
                    Shape::from(Capsule::new(-d, d, 0.25 * size).unwrap()),
                    0.25 * size,
                )
            }
        };
        let sink = [0.0, 0.005, 0.02][(case / 3 % 3) as usize];
        let down = if case / 9 % 2 == 0 { 0.0 } else { 0.01 };
        let step = rng.range(0.05, 0.4);
        let mut world = World::new();
        let floor = world
            .insert(
                Collider::new(Shape::from(Compound::new(tiles).unwrap()))
                    .with_transform(Transform::new(origin, 0.0)),
            )
            .unwrap();
        let y = origin.y + half - sink;
        let mut x = origin.x + 1.3 + rng.range(0.0, 1.0);
        let ball = world
            .insert(
                Collider::new(body)
                    .with_continuous(true)
                    .with_transform(Transform::new(Vec2::new(x, y), 0.0)),
            )
            .unwrap();
        world.update();
        for call in 0..60 {
            x += step;
            for height in [y - down, y] {
                world
                    .set_transform(ball, Transform::new(Vec2::new(x, height), 0.0))
                    .unwrap();
                world.update();
                for event in world.events() {
                    let manifold = match event {
                        CollisionEvent::Begin {
                            manifold: Some(m), ..
                        }
                        | CollisionEvent::Stay {
                            manifold: Some(m), ..
                        } => m,
                        _ => continue,
                    };
                    manifolds += 1;
                    let up = if event.pair().0 == floor {
                        manifold.normal
                    } else {
                        -manifold.normal
                    };
                    if up.y < 0.999 {
                        failures.push(format!(
                            "case {case} (sink {sink}, down {down}, step {step}) call {call} at x {x}: {event:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(manifolds > 2000, "{manifolds}");
    assert!(
        failures.is_empty(),
        "{} seam normals:\n{}",
        failures.len(),
        failures[..failures.len().min(4)].join("\n")
    );
}

/// A level piece (one compound: a floor 20 × 1 under y = 0 and a wall 1 × 4 at x = 4.5..5.5)
/// and a continuous ball of radius 0.25 resting on its floor at x = 0, after one update.
fn level_with_resting_ball(kind: BroadPhaseKind) -> (World, ColliderHandle, ColliderHandle) {
    let mut world = World::with_broad_phase(kind).unwrap();
    let level = world
        .insert(Collider::new(Shape::from(
            Compound::new(vec![
                (
                    Transform::new(Vec2::new(0.0, -0.5), 0.0),
                    Shape::from(Polygon::rect(20.0, 1.0).unwrap()),
                ),
                (
                    Transform::new(Vec2::new(5.0, 2.0), 0.0),
                    Shape::from(Polygon::rect(1.0, 4.0).unwrap()),
                ),
            ])
            .unwrap(),
        )))
        .unwrap();
    let ball = world
        .insert(
            Collider::circle(0.25)
                .unwrap()
                .with_continuous(true)
                .with_transform(Transform::new(Vec2::new(0.0, 0.249), 0.0)),
        )
        .unwrap();
    world.update();
    (world, level, ball)
}
