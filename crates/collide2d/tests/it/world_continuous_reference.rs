//! Continuous colliders in a `World` against the exact `f64` reference of
//! [`cast_reference`](crate::cast_reference): nothing tunnels between two updates.
//!
//! Each world holds static obstacles (boxes, polygons, capsules, walls 1e-2 thick, compounds,
//! open and closed chains), sensors, and 74 continuous colliders: bullets 1e-2..1e-1 across,
//! small shapes and compounds, and four large ones, some placed by an offset from their
//! object, each moved up to 60 units and turned up to ±3 rad per update (the world sweeps the
//! shortest turn), or up to ±20 rad stated with `set_transform_spinning`. Along the way colliders are teleported,
//! disabled for an update, removed and inserted again. After each update, for every pair with
//! a collider that swept and not touching at the previous update, filters permitting:
//!
//! - where the reference sweeps of both shapes come within the cast's tolerance of touching
//!   (and rounding: see `cast_reference`), the pair touches at this update (`Begin` or
//!   `Stay`): nothing passes through anything;
//! - a `Begin` with a time of impact has the shapes within that allowance then.
//!
//! The three broad phases take turns; with the `rayon` feature each world also runs on one and
//! two threads (74 movers: the sweeps split over the pool) and the events must be identical.

use crate::cast_reference::{deadline, size, Body, Reference};
use crate::support::threads::on_threads;
use crate::support::Rng;
use collide2d::query::Sweep;
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Shape};
use collide2d::world::{BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, World};
use collide2d::{Rot, Transform, Vec2};
use std::collections::{BTreeMap, BTreeSet};

const SIDE: f32 = 40.0;
const STEPS: usize = 10;

fn unit(angle: f32) -> Vec2 {
    Rot::from_angle(angle).rotate(Vec2::X)
}

/// A static obstacle about 0.3..3 across.
fn obstacle(rng: &mut Rng) -> Shape {
    let size = rng.log_size(0.3, 3.0);
    match rng.below(7) {
        0 => Shape::from(Polygon::rect(size, size * rng.range(0.2, 1.0)).unwrap()),
        1 => Shape::from(Polygon::rect(0.01, 4.0).unwrap()),
        2 => Shape::from(
            Polygon::regular(3 + rng.below(6), 0.5 * size)
                .unwrap()
                .with_radius(0.05 * size)
                .unwrap(),
        ),
        3 => {
            let d = unit(rng.angle()) * 0.4 * size;
            Shape::from(Capsule::new(-d, d, 0.1 * size).unwrap())
        }
        4 => Shape::from(
            Compound::new(vec![
                (
                    Transform::new(Vec2::new(-0.3 * size, 0.0), 0.3),
                    Shape::from(Polygon::rect(0.5 * size, 0.3 * size).unwrap()),
                ),
                (
                    Transform::new(Vec2::new(0.3 * size, 0.1 * size), 0.0),
                    Shape::from(Circle::with_radius(0.2 * size).unwrap()),
                ),
            ])
            .unwrap(),
        ),
        5 => {
            // A floor walked on from above (collision side up), with joints of every kind.
            let mut points = vec![Vec2::new(2.0 * size, 0.0)];
            for k in 1..5 {
                points.push(Vec2::new(
                    2.0 * size - k as f32 * size,
                    rng.range(-0.3, 0.3) * size,
                ));
            }
            Shape::from(Chain::open(&points).unwrap())
        }
        _ => {
            let count = 3 + rng.below(4);
            let points: Vec<Vec2> = (0..count)
                .map(|k| unit(std::f32::consts::TAU * k as f32 / count as f32) * 0.5 * size)
                .collect();
            Shape::from(Chain::closed(&points).unwrap())
        }
    }
}

/// A continuous collider: mostly bullets and small shapes, sometimes a large one.
fn mover(rng: &mut Rng, large: bool) -> Shape {
    let size = if large {
        rng.log_size(1.0, 3.0)
    } else {
        rng.log_size(0.01, 0.5)
    };
    match rng.below(5) {
        0 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
        1 => {
            let d = Vec2::new(0.3 * size, 0.0);
            Shape::from(Capsule::new(-d, d, 0.2 * size).unwrap())
        }
        2 => Shape::from(Polygon::rect(size, 0.3 * size).unwrap()),
        3 => Shape::from(
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
        _ => Shape::from(Polygon::regular(5, 0.5 * size).unwrap()),
    }
}

fn random_place(rng: &mut Rng) -> Transform {
    Transform::new(rng.point(SIDE), rng.angle())
}

/// The next placement of a continuous collider: up to 60 units on, turned by up to ±3 rad.
fn next_place(rng: &mut Rng, xf: &Transform) -> Transform {
    let step = unit(rng.angle()) * rng.log_size(0.05, 60.0);
    let p = (xf.p + step).clamp(Vec2::splat(-SIDE), Vec2::splat(SIDE));
    let turn = if rng.chance(0.3) {
        0.0
    } else {
        rng.range(-3.0, 3.0)
    };
    Transform {
        p,
        q: xf.q.mul(Rot::from_angle(turn)),
    }
}

/// What a collider did this update, for the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Motion {
    /// Swept from the shape's placement at the last update, turning by the stated turn (any
    /// amount, rounded by the world to one ending at the new rotation) or the shortest.
    Swept(Transform, Option<f32>),
    /// At its placement for the whole step (static, still, teleported or just inserted).
    Still,
}

/// What a run checked: pairs against the reference, contacts it demanded, swept `Begin`s.
#[derive(Clone, Copy, Debug, Default)]
struct Checked {
    pairs: usize,
    contacts: usize,
    begins: usize,
}

/// One world run: the events of every update, and the failures the reference found. With
/// `continuous` false the movers are ordinary colliders (teleported each update): the
/// reference must then find them passing through things.
fn run(
    seed: u64,
    kind: BroadPhaseKind,
    continuous: bool,
) -> (Vec<Vec<CollisionEvent>>, Vec<String>, Checked) {
    let mut checked = Checked::default();
    let mut rng = Rng(seed);
    let mut world = World::with_broad_phase(kind).unwrap();
    let mut live: Vec<ColliderHandle> = Vec::new();
    for _ in 0..14 {
        let shape = obstacle(&mut rng);
        live.push(
            world
                .insert(Collider::new(shape).with_transform(random_place(&mut rng)))
                .unwrap(),
        );
    }
    for _ in 0..3 {
        let shape = Shape::from(Polygon::rect(rng.range(0.5, 4.0), rng.range(0.5, 4.0)).unwrap());
        live.push(
            world
                .insert(
                    Collider::new(shape)
                        .with_sensor(true)
                        .with_transform(random_place(&mut rng)),
                )
                .unwrap(),
        );
    }
    let mut movers: Vec<ColliderHandle> = Vec::new();
    for k in 0..74 {
        let shape = mover(&mut rng, k < 4);
        let handle = world
            .insert(
                Collider::new(shape)
                    .with_continuous(continuous)
                    .with_offset(if rng.chance(0.3) {
                        Transform::new(rng.point(0.5), rng.angle())
                    } else {
                        Transform::IDENTITY
                    })
                    .with_transform(random_place(&mut rng)),
            )
            .unwrap();
        movers.push(handle);
        live.push(handle);
    }
    world.update();
    let mut touching: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
    for event in world.events() {
        if let CollisionEvent::Begin { a, b, .. } = *event {
            touching.insert((a, b));
        }
    }
    let mut disabled: BTreeSet<ColliderHandle> = BTreeSet::new();
    let mut all_events = Vec::new();
    let mut failures = Vec::new();
    for step in 0..STEPS {
        // 1. Moves, teleports, disabling and re-insertion.
        let mut motions: BTreeMap<ColliderHandle, Motion> = BTreeMap::new();
        for handle in disabled.iter().copied().collect::<Vec<_>>() {
            world.set_enabled(handle, true).unwrap();
            disabled.remove(&handle);
        }
        for slot in movers.iter_mut() {
            let handle = *slot;
            let before = world.get(handle).unwrap().world_transform();
            let roll = rng.unit_f64();
            if roll < 0.03 {
                world.set_enabled(handle, false).unwrap();
                disabled.insert(handle);
            } else if roll < 0.05 {
                let collider = world.remove(handle).unwrap();
                live.retain(|&h| h != handle);
                let again = world
                    .insert(collider.with_transform(random_place(&mut rng)))
                    .unwrap();
                *slot = again;
                live.push(again);
            } else if roll < 0.1 {
                world.teleport(handle, random_place(&mut rng)).unwrap();
            } else {
                let object = world.get(handle).unwrap().transform();
                let next = next_place(&mut rng, &object);
                if rng.chance(0.2) {
                    // Several turns over the step.
                    let stated = rng.range(-20.0, 20.0);
                    let next = Transform {
                        p: next.p,
                        q: object.q.mul(Rot::from_angle(stated)),
                    };
                    world.set_transform_spinning(handle, next, stated).unwrap();
                    motions.insert(handle, Motion::Swept(before, Some(stated)));
                } else {
                    world.set_transform(handle, next).unwrap();
                    motions.insert(handle, Motion::Swept(before, None));
                }
            }
        }
        world.update();
        let events = world.events().to_vec();
        // 2. The pairs touching now, and the swept ones with their times.
        let mut now: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
        let mut times: BTreeMap<(ColliderHandle, ColliderHandle), f32> = BTreeMap::new();
        for event in &events {
            match *event {
                CollisionEvent::Begin {
                    a,
                    b,
                    time_of_impact,
                    ..
                } => {
                    now.insert((a, b));
                    if let Some(time) = time_of_impact {
                        times.insert((a, b), time.get());
                    }
                }
                CollisionEvent::Stay { a, b, .. } => {
                    now.insert((a, b));
                }
                CollisionEvent::End { .. } => {}
            }
        }
        // 3. Every pair with a swept collider against the reference.
        let sweep_of =
            |world: &World, handle: ColliderHandle, motions: &BTreeMap<ColliderHandle, Motion>| {
                let collider = world.get(handle).unwrap();
                let current = collider.world_transform();
                match motions.get(&handle).copied().unwrap_or(Motion::Still) {
                    Motion::Swept(before, stated) => {
                        use std::f32::consts::{PI, TAU};
                        let shortest = if before.q == current.q {
                            0.0
                        } else {
                            (current.angle() - before.angle() + PI).rem_euclid(TAU) - PI
                        };
                        let turn = match stated {
                            Some(stated) => shortest + TAU * ((stated - shortest) / TAU).round(),
                            None => shortest,
                        };
                        // About the object's origin, as the game's object turns.
                        let local_center = collider.offset().apply_inv(Vec2::ZERO);
                        Sweep {
                            local_center,
                            center_start: before.apply(local_center),
                            center_end: current.apply(local_center),
                            rotation_start: before.q,
                            turn,
                        }
                    }
                    Motion::Still => Sweep::fixed(&current),
                }
            };
        let swept: Vec<ColliderHandle> = motions.keys().copied().collect();
        for &first in &swept {
            for &second in &live {
                if first == second
                    || disabled.contains(&second)
                    || (motions.contains_key(&second) && second < first)
                {
                    continue;
                }
                let pair = if first < second {
                    (first, second)
                } else {
                    (second, first)
                };
                if touching.contains(&pair) {
                    continue; // Decided at the end of the step, as before.
                }
                let (collider_a, collider_b) =
                    (world.get(first).unwrap(), world.get(second).unwrap());
                if collider_a.is_sensor() && collider_b.is_sensor() {
                    continue;
                }
                let (shape_a, shape_b) = (collider_a.shape(), collider_b.shape());
                if matches!(shape_a, Shape::Chain(_)) && matches!(shape_b, Shape::Chain(_)) {
                    continue;
                }
                let (sweep_a, sweep_b) = (
                    sweep_of(&world, first, &motions),
                    sweep_of(&world, second, &motions),
                );
                // Boxes of the paths: pairs farther apart cannot touch.
                let reach = |shape: &Shape, sweep: &Sweep| {
                    let local = shape.aabb(&Transform::IDENTITY);
                    (local.min - sweep.local_center)
                        .abs()
                        .max((local.max - sweep.local_center).abs())
                        .length()
                        + 1e-3
                };
                let (reach_a, reach_b) = (reach(shape_a, &sweep_a), reach(shape_b, &sweep_b));
                let low = |s: &Sweep, r: f32| s.center_start.min(s.center_end) - Vec2::splat(r);
                let high = |s: &Sweep, r: f32| s.center_start.max(s.center_end) + Vec2::splat(r);
                if (low(&sweep_a, reach_a).cmpgt(high(&sweep_b, reach_b))
                    | low(&sweep_b, reach_b).cmpgt(high(&sweep_a, reach_a)))
                .any()
                {
                    continue;
                }
                checked.pairs += 1;
                let reference = Reference {
                    a: Body::new(shape_a, &sweep_a),
                    b: Body::new(shape_b, &sweep_b),
                };
                // The world's cast tolerance, and the rounding of the coordinates reached.
                let far = sweep_a
                    .center_start
                    .abs()
                    .max(sweep_a.center_end.abs())
                    .max(sweep_b.center_start.abs())
                    .max(sweep_b.center_end.abs())
                    .max_element();
                let relative = (sweep_a.translation() - sweep_b.translation()).length();
                let tolerance = f64::from((far.max(relative) * 4.0 * f32::EPSILON).max(1.0e-5));
                let scale = f64::from(far + relative)
                    + size(shape_a)
                    + size(shape_b)
                    + 3.0 * f64::from(reach_a.max(reach_b));
                let slack = 8.0 * f64::from(f32::EPSILON) * scale;
                if let Some((due, why)) = deadline(&reference, tolerance, slack, scale, true) {
                    checked.contacts += 1;
                    if !now.contains(&pair) {
                        failures.push(format!(
                            "step {step}: {pair:?} passed through (due at {due}: {why}): {shape_a:?} by {sweep_a:?} / {shape_b:?} by {sweep_b:?}"
                        ));
                    }
                }
                if let Some(&time) = times.get(&pair) {
                    checked.begins += 1;
                    let t = f64::from(time);
                    let closest = reference
                        .pairs()
                        .into_iter()
                        .map(|p| reference.gap(p, t))
                        .fold(f64::INFINITY, f64::min);
                    if closest > tolerance + slack {
                        failures.push(format!(
                            "step {step}: {pair:?} began at {time} with the shapes {closest:e} apart: {shape_a:?} by {sweep_a:?} / {shape_b:?} by {sweep_b:?}"
                        ));
                    }
                }
            }
        }
        touching = now;
        all_events.push(events);
    }
    (all_events, failures, checked)
}

#[test]
fn continuous_colliders_never_pass_through_anything_between_updates() {
    let kinds = [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 4.0 },
        BroadPhaseKind::SweepAndPrune,
    ];
    let mut failures = Vec::new();
    let mut total = Checked::default();
    for world in 0..6u64 {
        let kind = kinds[world as usize % 3];
        let seed = 0x0c01_11de + world;
        let (events, found, checked) = on_threads(1, || run(seed, kind, true));
        failures.extend(
            found
                .into_iter()
                .map(|f| format!("world {world} ({kind:?}): {f}")),
        );
        total.pairs += checked.pairs;
        total.contacts += checked.contacts;
        total.begins += checked.begins;
        if cfg!(feature = "rayon") {
            let (on_two, _, _) = on_threads(2, || run(seed, kind, true));
            assert_eq!(
                events, on_two,
                "world {world}: the same events on 1 and 2 threads"
            );
        }
    }
    eprintln!("{total:?}");
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(total.contacts >= 250 && total.begins >= 250, "{total:?}");
}

/// The probe can fail: the same movers without the setting pass through what they meet.
#[test]
fn without_the_setting_the_reference_finds_passes() {
    let (_, found, _) = run(0x0c01_11de, BroadPhaseKind::Tree, false);
    assert!(found.len() >= 20, "{}", found.len());
}

/// `sweep_to` along a chain floor that a body rests on (0 to 5e-6 above it, within the cast's
/// tolerance of 1e-5) or hovers just above: joints every unit, flat and bending down (convex),
/// near the origin and 1e4 out. Sliding over the joints is no hit: every move reaches its
/// target (the floor never comes nearer than the start, so nothing stops it), while a move
/// on into the slope rising at the right end stops there.
#[test]
fn sweep_to_slides_over_the_joints_of_a_floor_it_rests_on() {
    let mut rng = Rng(0x5117_de05);
    let mut stopped = Vec::new();
    let (mut moves, mut slopes) = (0, 0);
    for case in 0..400 {
        let origin = if case % 2 == 0 {
            Vec2::ZERO
        } else {
            Vec2::new(1.0e4, -2.0e4)
        };
        // Right to left, so the collision side is up; flat joints, then two bending down.
        let mut points = vec![Vec2::new(21.0, 1.0)];
        points.extend((0..=40).rev().map(|k| Vec2::new(k as f32 - 20.0, 0.0)));
        points.push(Vec2::new(-21.0, -0.05));
        points.push(Vec2::new(-22.0, -0.15));
        let mut world = World::with_broad_phase(
            [
                BroadPhaseKind::Tree,
                BroadPhaseKind::Grid { cell_size: 4.0 },
                BroadPhaseKind::SweepAndPrune,
            ][case % 3],
        )
        .unwrap();
        world
            .insert(
                Collider::new(Shape::from(Chain::open(&points).unwrap()))
                    .with_transform(Transform::new(origin, 0.0)),
            )
            .unwrap();
        let size = rng.log_size(0.2, 2.0);
        let body = match case % 4 {
            0 => Shape::from(Polygon::rect(size, 0.5 * size).unwrap()),
            1 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
            2 => Shape::from(
                Capsule::new(
                    Vec2::new(-0.3 * size, 0.0),
                    Vec2::new(0.3 * size, 0.0),
                    0.2 * size,
                )
                .unwrap(),
            ),
            _ => Shape::from(
                Polygon::regular(6, 0.5 * size)
                    .unwrap()
                    .with_radius(0.05 * size)
                    .unwrap(),
            ),
        };
        let lowest = body.aabb(&Transform::IDENTITY).min.y;
        let gap = rng.pick(&[0.0, 1e-7, 1e-6, 5e-6]);
        let x = rng.range(-15.0, 15.0);
        let start = Transform::new(origin + Vec2::new(x, gap - lowest), 0.0);
        let handle = world
            .insert(Collider::new(body.clone()).with_transform(start))
            .unwrap();
        world.update();
        let run = rng.range(-30.0, 30.0);
        // Clear of the slope (its foot at x = 20) by 0.1 at the end of the move, or into it.
        let reach = body.aabb(&Transform::IDENTITY).max.x;
        let end = x + run + reach;
        if (19.9..21.0).contains(&end) {
            continue;
        }
        let target = Transform::new(start.p + Vec2::new(run, 0.0), 0.0);
        moves += 1;
        let hit = world.sweep_to(handle, target).unwrap();
        if end >= 21.0 {
            slopes += 1;
            if hit.is_none() {
                stopped.push(format!(
                    "case {case}: {body:?} from {start:?} by {run} went through the slope"
                ));
            }
            continue;
        }
        if let Some(hit) = hit {
            stopped.push(format!(
                "case {case}: {body:?} from {start:?} by {run} stopped at {} ({hit:?})",
                hit.fraction
            ));
        }
    }
    assert!(slopes >= 50, "{slopes} moves into the slope");
    assert!(
        stopped.is_empty(),
        "{} of {moves} moves wrong:\n{}",
        stopped.len(),
        stopped
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
