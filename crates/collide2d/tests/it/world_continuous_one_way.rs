//! Continuous colliders against one-way colliders: the sweep applies the one-way rule of the
//! narrow phase (blocking side only, no deeper than the margin), so a body passing up through a
//! platform never touches it, whatever placements the updates see on the way, and a body coming
//! down onto it touches it at the step that reaches its top, with the exact time of impact.
//!
//! Each case places a one-way platform (box, capsule or hexagon, any rotation, its blocking side
//! its local `+y`) about the origin or 1e3 or 1e5 out, and a body (circle, capsule or square,
//! fixed rotation) on a straight path across it along the platform's `±y`, cut into one to six
//! updates; the platform, the body or both move (the relative motion is the same). Update ends
//! are kept out of the band where the narrow phase itself lets the platform hold the body
//! (the body's lowest point within the margin below the top face, or just above it).

use crate::support::Rng;
use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, World};
use collide2d::{Rot, Transform, Vec2};

fn circle(radius: f32) -> Shape {
    Shape::from(Circle::with_radius(radius).unwrap())
}

fn at(x: f32, y: f32) -> Transform {
    Transform::new(Vec2::new(x, y), 0.0)
}

/// A body that jumped up into a one-way platform and goes on up through it: the update that
/// finds it deep inside (deeper than the margin) moving on upwards reports nothing (it used to
/// report a `Begin` at time 0, as if the body had landed on the platform).
#[test]
fn a_continuous_body_inside_a_one_way_platform_going_up_does_not_touch_it() {
    for kind in [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 2.0 },
        BroadPhaseKind::SweepAndPrune,
    ] {
        let mut world = World::with_broad_phase(kind).unwrap();
        let platform = Collider::new(Polygon::rect(4.0, 1.0).unwrap()).with_one_way(Vec2::Y, 0.1);
        world.insert(platform).unwrap();
        let body = world
            .insert(
                Collider::new(circle(0.1))
                    .with_transform(at(0.0, -2.0))
                    .with_continuous(true),
            )
            .unwrap();
        world.update();
        // Up into the platform's upper half, 0.4 deep: through its bottom, not blocked.
        for y in [0.2, 0.35, 2.0] {
            world.set_transform(body, at(0.0, y)).unwrap();
            world.update();
            assert!(
                world.events().is_empty(),
                "{kind:?}, up to {y}: {:?}",
                world.events()
            );
        }
        // Falling back from inside, deep, and out of the bottom: nothing either.
        world.teleport(body, at(0.0, 0.3)).unwrap();
        world.update();
        for y in [0.1, -2.0] {
            world.set_transform(body, at(0.0, y)).unwrap();
            world.update();
            assert!(
                world.events().is_empty(),
                "{kind:?}, down to {y}: {:?}",
                world.events()
            );
        }
    }
}

/// `sweep_to` stops a body on a one-way platform by the same rule: not from deep inside.
#[test]
fn sweep_to_from_deep_inside_a_one_way_platform_is_not_stopped() {
    let mut world = World::new();
    let platform = Collider::new(Polygon::rect(4.0, 1.0).unwrap()).with_one_way(Vec2::Y, 0.1);
    world.insert(platform).unwrap();
    let body = world
        .insert(Collider::new(circle(0.1)).with_transform(at(0.0, 0.2)))
        .unwrap();
    for target in [at(0.0, -3.0), at(0.0, 3.0), at(0.0, 0.0)] {
        world.teleport(body, at(0.0, 0.2)).unwrap();
        assert_eq!(world.sweep_to(body, target).unwrap(), None, "{target:?}");
        assert_eq!(world.get(body).unwrap().transform(), target);
    }
}

/// The platform of a case: shape, half thickness along its `y`, half width along its `x`.
fn platform_shape(rng: &mut Rng) -> (Shape, f32, f32) {
    let (width, height) = (rng.range(2.0, 6.0), rng.range(0.2, 2.0));
    match rng.below(3) {
        0 => (
            Shape::from(Polygon::rect(width, height).unwrap()),
            height / 2.0,
            width / 2.0,
        ),
        1 => {
            let radius = height / 2.0;
            let half = width / 2.0;
            let capsule = Capsule::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0), radius);
            (Shape::from(capsule.unwrap()), radius, half)
        }
        _ => {
            // A flat hexagon: top and bottom faces `width` long.
            let (w, h) = (width / 2.0, height / 2.0);
            let points = [
                Vec2::new(-w, -h),
                Vec2::new(w, -h),
                Vec2::new(w + h, 0.0),
                Vec2::new(w, h),
                Vec2::new(-w, h),
                Vec2::new(-w - h, 0.0),
            ];
            (Shape::from(Polygon::new(&points).unwrap()), h, w)
        }
    }
}

/// The body of a case, in the platform's frame (unturned), and how far it reaches along `-y`.
fn body_shape(rng: &mut Rng) -> (Shape, f32) {
    let size = rng.range(0.02, 0.3);
    match rng.below(3) {
        0 => (circle(size), size),
        1 => {
            let half = rng.point(size);
            let radius = size * 0.5;
            let capsule = Capsule::new(-half, half, radius).unwrap();
            (Shape::from(capsule), radius + half.y.abs())
        }
        _ => (
            Shape::from(Polygon::rect(2.0 * size, 2.0 * size).unwrap()),
            size,
        ),
    }
}

#[test]
fn continuous_bodies_pass_up_through_one_way_platforms_and_land_on_them() {
    let kinds = [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 2.0 },
        BroadPhaseKind::SweepAndPrune,
    ];
    let mut landings = 0;
    let mut inside_ends = 0;
    for case in 0..3000u64 {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ case.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let kind = kinds[case as usize % 3];
        let center = rng.pick(&[
            Vec2::ZERO,
            Vec2::new(1.0e3, -1.0e3),
            Vec2::new(-1.0e5, 1.0e5),
        ]);
        let angle = rng.angle();
        let rot = Rot::from_angle(angle);
        let (platform_shape, half_thickness, half_width) = platform_shape(&mut rng);
        let margin = rng.range(0.0, half_thickness);
        let (body_shape, reach) = body_shape(&mut rng);
        // The body's height (along `up`) at which its lowest point is on the top face.
        let on_top = half_thickness + reach;
        let lateral = rng.range(-0.5, 0.5) * half_width;
        let going_up = rng.below(2) == 0;
        let (from, to) = if going_up {
            (-on_top - rng.range(0.5, 3.0), on_top + rng.range(0.5, 3.0))
        } else {
            (on_top + rng.range(0.5, 3.0), -on_top - rng.range(0.5, 3.0))
        };
        // Stops on the way, kept out of the band the narrow phase lets the platform hold (and
        // the tolerance about it, scaled for `f32` far out).
        let slack = 0.02 + center.abs().max_element() * 4.0e-7;
        let mut heights: Vec<f32> = (0..rng.below(6))
            .map(|_| rng.range(from.min(to), from.max(to)))
            .filter(|&h| !(on_top - margin - slack..=on_top + slack).contains(&h))
            .collect();
        heights.sort_by(|a, b| a.total_cmp(b));
        if !going_up {
            heights.reverse();
        }
        heights.push(to);
        let place = |height: f32| center + rot.rotate(Vec2::new(lateral, height));
        let mover = rng.below(3); // 0: the body, 1: the platform, 2: both
        let mut world = World::with_broad_phase(kind).unwrap();
        let platform = world
            .insert(
                Collider::new(platform_shape)
                    .with_transform(Transform::new(center, angle))
                    .with_one_way(Vec2::Y, margin)
                    .with_continuous(mover != 0),
            )
            .unwrap();
        let body = world
            .insert(
                Collider::new(body_shape)
                    .with_transform(Transform::new(place(from), angle))
                    .with_continuous(mover != 1),
            )
            .unwrap();
        world.update();
        let context = format!(
            "case {case}, {kind:?}, up {going_up}, mover {mover}, heights {from} {heights:?}, \
             on top at {on_top}, margin {margin}"
        );
        assert!(world.events().is_empty(), "{context}: at the start");
        let mut last = from;
        let mut landed = false;
        for &height in &heights {
            // The same relative motion: the body up by `d` is the platform down by `d`.
            let (body_at, platform_at) = match mover {
                0 => (place(height), center),
                1 => (place(from), center - rot.rotate(Vec2::Y * (height - from))),
                _ => {
                    let half = (height - from) / 2.0;
                    (
                        place(from + half),
                        center - rot.rotate(Vec2::Y * (height - from - half)),
                    )
                }
            };
            world
                .set_transform(body, Transform::new(body_at, angle))
                .unwrap();
            world
                .set_transform(platform, Transform::new(platform_at, angle))
                .unwrap();
            world.update();
            let events: Vec<CollisionEvent> = world.events().to_vec();
            let crosses_top = !going_up && !landed && last > on_top && height <= on_top;
            if going_up || (landed && height < on_top - margin) {
                // Going up, or after the landing: nothing new begins.
                assert!(
                    events
                        .iter()
                        .all(|e| !matches!(e, CollisionEvent::Begin { .. })),
                    "{context}: from {last} to {height}: {events:?}"
                );
            }
            if going_up && (-on_top..on_top - margin).contains(&height) {
                inside_ends += 1;
            }
            if crosses_top {
                landings += 1;
                landed = true;
                let begin = events.iter().find_map(|e| match *e {
                    CollisionEvent::Begin {
                        a,
                        b,
                        time_of_impact,
                        ..
                    } => Some(((a, b), time_of_impact)),
                    _ => None,
                });
                let pair: (ColliderHandle, ColliderHandle) =
                    (platform.min(body), platform.max(body));
                let Some((found, time)) = begin else {
                    panic!("{context}: from {last} to {height}: no landing: {events:?}");
                };
                assert_eq!(found, pair, "{context}");
                // First contact where the lowest point reaches the top face (relative motion
                // along `up`; the moves are rounded at the coordinates' spacing).
                let exact = f64::from(last - on_top) / f64::from(last - height);
                let time = f64::from(time.expect("a swept contact has a time").get());
                let allowed = f64::from(slack) / f64::from(last - height);
                assert!(
                    (time - exact).abs() <= allowed,
                    "{context}: from {last} to {height}: time {time}, exact {exact}"
                );
            }
            last = height;
        }
        if !going_up {
            assert!(landed, "{context}: never landed");
        }
    }
    assert!(
        landings > 1000 && inside_ends > 500,
        "{landings} landings, {inside_ends} ends inside"
    );
}
