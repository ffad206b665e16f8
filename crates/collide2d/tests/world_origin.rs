//! Far from the origin: `World::shift_origin` keeps full accuracy at ±1e5 and ±1e6.

mod support;

use collide2d::world::{BroadPhaseKind, Collider, CollisionEvent, World};
use collide2d::{Transform, Vec2};
use support::{random_shape, Rng, ALL_KINDS};

/// A touching pair's handles (as indices) and deepest penetration, from an event list.
fn depths(events: &[CollisionEvent]) -> Vec<(u32, u32, f32)> {
    events
        .iter()
        .filter_map(|event| match event {
            CollisionEvent::Begin { a, b, manifold } | CollisionEvent::Stay { a, b, manifold } => {
                Some((
                    a.index(),
                    b.index(),
                    manifold.map_or(0.0, |m| m.max_penetration()),
                ))
            }
            CollisionEvent::End { .. } => None,
        })
        .collect()
}

/// Random shapes crowded into a 12 × 12 area around `center`, with positions that `f32` can
/// hold exactly at `center` (so the same scene can also be built around the origin).
fn scene(rng: &mut Rng, count: usize, center: glam::DVec2) -> Vec<(collide2d::Shape, Vec2, f32)> {
    (0..count)
        .map(|i| {
            let kind = ALL_KINDS[i % ALL_KINDS.len()];
            let size = rng.log_size(0.5, 3.0);
            let shape = random_shape(rng, kind, size);
            let wanted = center + rng.point(6.0).as_dvec2();
            let stored = wanted.as_vec2(); // rounded to the f32 grid at `center`
            let local = (stored.as_dvec2() - center).as_vec2(); // exact
            (shape, local, rng.angle())
        })
        .collect()
}

fn build(kind: BroadPhaseKind, scene: &[(collide2d::Shape, Vec2, f32)], center: Vec2) -> World {
    let mut world = World::with_broad_phase(kind).unwrap();
    for (shape, local, angle) in scene {
        let position = (center.as_dvec2() + local.as_dvec2()).as_vec2();
        world
            .insert(Collider::new(shape.clone()).transform(Transform::new(position, *angle)))
            .unwrap();
    }
    world
}

#[test]
fn shifted_worlds_match_the_same_scene_at_the_origin() {
    let mut rng = Rng(0x0f15e7);
    let kinds = [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 2.0 },
        BroadPhaseKind::SweepAndPrune,
    ];
    let mut compared = 0;
    let mut worst_unshifted = 0.0f32;
    for offset in [1.0e5f64, -1.0e5, 1.0e6, -1.0e6] {
        for round in 0..10 {
            let center = glam::DVec2::new(offset, -0.5 * offset);
            let scene = scene(&mut rng, 60, center);
            let kind = kinds[round % kinds.len()];
            let mut reference = build(kind, &scene, Vec2::ZERO);
            let mut far = build(kind, &scene, center.as_vec2());
            let expected = depths(reference.update());
            assert!(expected.len() > 10, "a crowded scene has touching pairs");
            // Without shifting, pair queries run in A's frame and stay close too. (This once
            // lost barely touching pairs: world boxes rounded at 1e6 could shrink past a contact;
            // collider boxes are now padded by a few ulps.)
            let unshifted = depths(far.update());
            assert_eq!(unshifted.len(), expected.len());
            for (x, y) in expected.iter().zip(&unshifted) {
                assert_eq!((x.0, x.1), (y.0, y.1));
                worst_unshifted = worst_unshifted.max((x.2 - y.2).abs());
            }
            // Shift back to the origin: every placement is exactly the reference one, the
            // contacts continue as Stay, and their depths match within 1e-3.
            far.shift_origin(center.as_vec2()).unwrap();
            for ((_, a), (_, b)) in reference.iter().zip(far.iter()) {
                assert_eq!(a.object_transform(), b.object_transform());
            }
            let events = far.update().to_vec();
            assert!(events
                .iter()
                .all(|e| matches!(e, CollisionEvent::Stay { .. })));
            let shifted = depths(&events);
            assert_eq!(shifted.len(), expected.len(), "offset {offset}");
            for (x, y) in expected.iter().zip(&shifted) {
                assert_eq!((x.0, x.1), (y.0, y.1));
                assert!((x.2 - y.2).abs() <= 1e-3, "offset {offset}: {x:?} vs {y:?}");
                compared += 1;
            }
            // And the two worlds go on alike: move everything by a small step.
            for ((ha, a), (hb, _)) in reference
                .iter()
                .map(|(h, c)| (h, c.object_transform()))
                .collect::<Vec<_>>()
                .into_iter()
                .zip(
                    far.iter()
                        .map(|(h, c)| (h, c.object_transform()))
                        .collect::<Vec<_>>(),
                )
            {
                let step = Transform::new(a.p + Vec2::new(0.01, -0.02), a.angle() + 0.01);
                reference.set_transform(ha, step).unwrap();
                far.set_transform(hb, step).unwrap();
            }
            assert_eq!(reference.update(), far.update());
        }
    }
    println!("{compared} pairs compared; unshifted depths differ by at most {worst_unshifted}");
    assert!(compared > 1_000, "{compared} pairs compared");
    assert!(
        worst_unshifted <= 1e-3,
        "unshifted depths differ by {worst_unshifted}"
    );
}

#[test]
fn small_steps_are_lost_far_away_and_kept_after_a_shift() {
    let mut world = World::new();
    let ball = collide2d::Shape::from(collide2d::shape::Circle::with_radius(0.5).unwrap());
    let far = Vec2::new(1.0e6, 1.0e6);
    let h = world
        .insert(Collider::new(ball).transform(Transform::new(far, 0.0)))
        .unwrap();
    // 0.01 is below f32's spacing at 1e6 (0.0625): the step rounds away.
    world
        .set_transform(h, Transform::new(far + Vec2::new(0.01, 0.0), 0.0))
        .unwrap();
    assert_eq!(world.get(h).unwrap().object_transform().p, far);
    world.shift_origin(far).unwrap();
    world
        .set_transform(h, Transform::new(Vec2::new(0.01, 0.0), 0.0))
        .unwrap();
    assert_eq!(
        world.get(h).unwrap().object_transform().p,
        Vec2::new(0.01, 0.0)
    );
}

#[test]
fn bad_origins_are_refused_and_change_nothing() {
    let mut world = World::new();
    let ball = collide2d::Shape::from(collide2d::shape::Circle::with_radius(0.5).unwrap());
    let h = world
        .insert(Collider::new(ball).transform(Transform::new(Vec2::new(9.0e14, 0.0), 0.0)))
        .unwrap();
    assert!(world.shift_origin(Vec2::new(f32::NAN, 0.0)).is_err());
    assert!(world.shift_origin(Vec2::new(f32::INFINITY, 0.0)).is_err());
    // Shifting would push this collider past the 1e15 limit on positions.
    assert!(world.shift_origin(Vec2::new(-2.0e14, 0.0)).is_err());
    assert_eq!(
        world.get(h).unwrap().object_transform().p,
        Vec2::new(9.0e14, 0.0)
    );
}

/// Regression: a shift re-tests every touching pair at the next update. A pair whose boxes
/// came apart before the shift (one collider moved, no update yet) is no longer a box pair
/// afterwards; removing or disabling one of its colliders before that update must still end it.
#[test]
fn contacts_apart_before_a_shift_end_when_a_collider_leaves() {
    for disable in [false, true] {
        let ball = || collide2d::Shape::from(collide2d::shape::Circle::with_radius(0.5).unwrap());
        let mut world = World::new();
        let a = world.insert(Collider::new(ball())).unwrap();
        let b = world
            .insert(Collider::new(ball()).transform(Transform::new(Vec2::new(0.75, 0.0), 0.0)))
            .unwrap();
        assert!(matches!(world.update(), [CollisionEvent::Begin { .. }]));
        world
            .set_transform(b, Transform::new(Vec2::new(10.0, 0.0), 0.0))
            .unwrap();
        world.shift_origin(Vec2::new(1.0, 0.0)).unwrap();
        if disable {
            world.set_enabled(b, false).unwrap();
        } else {
            world.remove(b).unwrap();
        }
        assert_eq!(world.contacts().count(), 0);
        assert_eq!(world.update(), [CollisionEvent::End { a, b }]);
        assert!(world.update().is_empty());
    }
}
