//! Far from the origin: `World::shift_origin` keeps full accuracy at ±1e5 and ±1e6.

use crate::support;

use collide2d::world::{BroadPhaseKind, Collider, CollisionEvent, EndReason, World};
use collide2d::{Transform, Vec2};
use support::{random_shape, Rng, ALL_KINDS};

/// A touching pair's handles (as indices) and deepest penetration, from an event list.
fn depths(events: &[CollisionEvent]) -> Vec<(u32, u32, f32)> {
    events
        .iter()
        .filter_map(|event| match event {
            CollisionEvent::Begin { a, b, manifold, .. }
            | CollisionEvent::Stay { a, b, manifold } => Some((
                a.index(),
                b.index(),
                manifold.map_or(0.0, |m| m.max_penetration()),
            )),
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
            .insert(Collider::new(shape.clone()).with_transform(Transform::new(position, *angle)))
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
            let expected = depths({
                reference.update();
                reference.events()
            });
            assert!(expected.len() > 10, "a crowded scene has touching pairs");
            // Without shifting, pair queries run in A's frame and stay close too. (This once
            // lost barely touching pairs: world boxes rounded at 1e6 could shrink past a contact;
            // collider boxes are now padded by a few ulps.)
            let unshifted = depths({
                far.update();
                far.events()
            });
            assert_eq!(unshifted.len(), expected.len());
            for (x, y) in expected.iter().zip(&unshifted) {
                assert_eq!((x.0, x.1), (y.0, y.1));
                worst_unshifted = worst_unshifted.max((x.2 - y.2).abs());
            }
            // Shift back to the origin: every placement is exactly the reference one, the
            // contacts continue as Stay, and their depths match within 1e-3.
            far.shift_origin(center.as_vec2()).unwrap();
            for ((_, a), (_, b)) in reference.iter().zip(far.iter()) {
                assert_eq!(a.transform(), b.transform());
            }
            let events = {
                far.update();
                far.events()
            }
            .to_vec();
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
                .map(|(h, c)| (h, c.transform()))
                .collect::<Vec<_>>()
                .into_iter()
                .zip(
                    far.iter()
                        .map(|(h, c)| (h, c.transform()))
                        .collect::<Vec<_>>(),
                )
            {
                let step = Transform::new(a.p + Vec2::new(0.01, -0.02), a.angle() + 0.01);
                reference.set_transform(ha, step).unwrap();
                far.set_transform(hb, step).unwrap();
            }
            assert_eq!(
                {
                    reference.update();
                    reference.events()
                },
                {
                    far.update();
                    far.events()
                }
            );
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
        .insert(Collider::new(ball).with_transform(Transform::new(far, 0.0)))
        .unwrap();
    // 0.01 is below f32's spacing at 1e6 (0.0625): the step rounds away.
    world
        .set_transform(h, Transform::new(far + Vec2::new(0.01, 0.0), 0.0))
        .unwrap();
    assert_eq!(world.get(h).unwrap().transform().p, far);
    world.shift_origin(far).unwrap();
    world
        .set_transform(h, Transform::new(Vec2::new(0.01, 0.0), 0.0))
        .unwrap();
    assert_eq!(world.get(h).unwrap().transform().p, Vec2::new(0.01, 0.0));
}

#[test]
fn bad_origins_are_refused_and_change_nothing() {
    let mut world = World::new();
    let ball = collide2d::Shape::from(collide2d::shape::Circle::with_radius(0.5).unwrap());
    let h = world
        .insert(Collider::new(ball).with_transform(Transform::new(Vec2::new(9.0e8, 0.0), 0.0)))
        .unwrap();
    assert!(world.shift_origin(Vec2::new(f32::NAN, 0.0)).is_err());
    assert!(world.shift_origin(Vec2::new(f32::INFINITY, 0.0)).is_err());
    // Shifting would push this collider past the 1e9 limit on positions.
    assert!(world.shift_origin(Vec2::new(-2.0e8, 0.0)).is_err());
    assert_eq!(world.get(h).unwrap().transform().p, Vec2::new(9.0e8, 0.0));
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
            .insert(Collider::new(ball()).with_transform(Transform::new(Vec2::new(0.75, 0.0), 0.0)))
            .unwrap();
        assert!(matches!(
            {
                world.update();
                world.events()
            },
            [CollisionEvent::Begin { .. }]
        ));
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
        assert_eq!(
            {
                world.update();
                world.events()
            },
            [CollisionEvent::End {
                a,
                b,
                reason: if disable {
                    EndReason::Disabled
                } else {
                    EndReason::Removed
                },
                sensor: false,
                user_data: [0, 0],
            }]
        );
        assert!({
            world.update();
            world.events()
        }
        .is_empty());
    }
}

/// A query shape whose local outline lies far from its own origin, placed so the two cancel
/// (its box is small and near the world origin while its transform is far away): the exact
/// test then rounds at the scale of the transform, and `overlap_shape` and `cast_shape` must
/// still find every collider that tests report, the same as testing every collider.
#[test]
fn shape_queries_agree_with_testing_every_collider_when_offsets_cancel() {
    use collide2d::shape::{Circle, Polygon, Shape};
    use collide2d::world::QueryFilter;
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let mut near_tolerance = 0;
    for round in 0..4000 {
        let far = [1.0e3f32, 3.0e4, 1.0e6][round % 3] * (1.0 + rng.unit());
        let size = far * 1e-5 * (1.0 + rng.unit() * 10.0);
        let local = Vec2::new(-far, rng.range(-1.0, 1.0) * far);
        // Every other round the box is axis-aligned, and half of the colliders are boxes
        // placed against its right face with a gap of a few roundings either way.
        let aligned = round % 2 == 0;
        let angle = if aligned { 0.0 } else { rng.angle() };
        let query = Shape::from(Polygon::box_at(local, Vec2::splat(size), angle).unwrap());
        let xf = Transform::new(-local + rng.point(size), 0.0);
        let right_face = query.aabb(&xf).max.x;
        let mut world = World::new();
        let mut handles = Vec::new();
        for index in 0..8 {
            let width = size * (1.0 + rng.unit());
            let (shape, at) = if aligned && index % 2 == 0 {
                let gap = far * 1e-7 * rng.range(-3.0, 3.0);
                let y = xf.p.y + local.y + rng.range(-1.5, 1.5) * size;
                let at = Transform::new(Vec2::new(right_face + 0.5 * width + gap, y), 0.0);
                (Shape::from(Polygon::rect(width, size).unwrap()), at)
            } else if rng.unit() < 0.5 {
                let shape = Shape::from(Circle::with_radius(0.5 * width).unwrap());
                (shape, Transform::new(rng.point(4.0 * size), rng.angle()))
            } else {
                let shape = Shape::from(Polygon::rect(width, size).unwrap());
                (shape, Transform::new(rng.point(4.0 * size), rng.angle()))
            };
            handles.push((
                world
                    .insert(Collider::new(shape.clone()).with_transform(at))
                    .unwrap(),
                shape,
                at,
            ));
        }
        let filter = QueryFilter::default();
        let found = world.overlap_shape(&query, &xf, &filter).unwrap();
        let mut expected: Vec<_> = handles
            .iter()
            .filter(|(_, shape, at)| collide2d::overlaps(&query, &xf, shape, at))
            .map(|(handle, _, _)| *handle)
            .collect();
        expected.sort_unstable();
        for (_, shape, at) in &handles {
            let exact = collide2d::overlaps(&query, &xf, shape, at);
            let boxes = query.aabb(&xf).overlaps(&shape.aabb(at));
            near_tolerance += usize::from(exact && !boxes);
        }
        assert_eq!(found, expected, "round {round}: {query:?} at {xf:?}");

        // The same for a short cast: the first hit among all colliders.
        use collide2d::query::{shape_cast, CastOptions, Sweep};
        let delta = rng.point(size);
        let opts = CastOptions::default();
        let hit = world
            .shape_cast(&query, &xf, delta, &filter, opts)
            .unwrap()
            .map(|hit| (hit.fraction, hit.collider));
        let first = handles
            .iter()
            .filter_map(|(handle, shape, at)| {
                shape_cast(
                    &query,
                    &Sweep::linear(&xf, delta),
                    shape,
                    &Sweep::fixed(at),
                    opts,
                )
                .map(|hit| (hit.t, *handle))
            })
            .min_by(|x, y| x.partial_cmp(y).unwrap());
        assert_eq!(
            hit, first,
            "round {round}: {query:?} at {xf:?} by {delta:?}"
        );
    }
    // The scene is built to reach the rounding of the exact test: some pairs it reports
    // touching have boxes that do not overlap.
    assert!(near_tolerance > 0, "no case at the rounding limit");
}

/// Rays from far away (1e3 to 2e6 units) aimed at small colliders near the origin, many of them
/// grazing: the exact ray test rounds at the scale of the ray's origin, and `cast_ray` must
/// still return what testing every collider returns, with every broad phase.
#[test]
fn far_rays_agree_with_testing_every_collider() {
    use collide2d::shape::Ray;
    use collide2d::shape::{Circle, Polygon, Shape};
    use collide2d::world::QueryFilter;
    let mut rng = Rng(0x1234_5678);
    let mut hits = 0;
    for round in 0..6000 {
        let far = [1.0e3f32, 3.0e4, 1.0e6][round % 3] * (1.0 + rng.unit());
        let size = far * 1e-6 * (1.0 + rng.unit() * 10.0);
        let kind = match (round / 3) % 3 {
            0 => BroadPhaseKind::Tree,
            1 => BroadPhaseKind::Grid {
                cell_size: 2.0 * size,
            },
            _ => BroadPhaseKind::SweepAndPrune,
        };
        let mut world = World::with_broad_phase(kind).unwrap();
        let mut colliders = Vec::new();
        for _ in 0..6 {
            let shape = if rng.unit() < 0.5 {
                Shape::from(Circle::with_radius(size * (0.5 + rng.unit())).unwrap())
            } else {
                Shape::from(Polygon::rect(size * (1.0 + rng.unit()), size).unwrap())
            };
            let at = Transform::new(rng.point(4.0 * size), rng.angle());
            let handle = world
                .insert(Collider::new(shape.clone()).with_transform(at))
                .unwrap();
            colliders.push((handle, shape, at));
        }
        let angle = rng.angle();
        let direction = Vec2::new(angle.cos(), angle.sin());
        let origin = rng.point(4.0 * size) - direction * far;
        let ray = Ray::new(origin, direction, 2.0 * far).unwrap();
        let found = world
            .ray_cast(&ray, &QueryFilter::default())
            .unwrap()
            .map(|hit| (hit.distance, hit.collider));
        let expected = colliders
            .iter()
            .filter_map(|(handle, shape, at)| {
                shape.ray_cast(at, &ray).map(|hit| (hit.distance, *handle))
            })
            .min_by(|x, y| x.partial_cmp(y).unwrap());
        assert_eq!(found, expected, "round {round}: {ray:?}");
        hits += usize::from(expected.is_some());
    }
    assert!(hits > 1000, "{hits}");
}

/// The class of the regression above, broadly: a crowd of touching balls, some moved apart
/// without an update, then an origin shift, a snapshot restore or neither; then many leave
/// before the next update (one `remove_many`, single removals, disabled colliders). Every
/// touching pair with a leaving collider must end with its reason, and the events must equal
/// those of the same world without the shift or restore (positions are exact in `f32`, so the
/// shift rounds nothing).
#[test]
fn many_colliders_leaving_after_a_shift_or_restore_end_every_contact() {
    let ball = || collide2d::Shape::from(collide2d::shape::Circle::with_radius(0.5).unwrap());
    let project = |events: &[CollisionEvent]| -> Vec<(u8, u32, u32, Option<EndReason>)> {
        events
            .iter()
            .map(|event| match *event {
                CollisionEvent::Begin { a, b, .. } => (0, a.index(), b.index(), None),
                CollisionEvent::Stay { a, b, .. } => (1, a.index(), b.index(), None),
                CollisionEvent::End { a, b, reason, .. } => (2, a.index(), b.index(), Some(reason)),
            })
            .collect()
    };
    for seed in 0..12u64 {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ seed.wrapping_mul(0x1000_0000_01b3));
        let side = 12 + rng.below(8);
        let mut worlds = [World::new(), World::new()];
        let mut handles = Vec::new();
        for world in &mut worlds {
            handles = (0..side * side)
                .map(|i| {
                    let at = Vec2::new((i % side) as f32 * 0.75, (i / side) as f32 * 0.75);
                    world
                        .insert(Collider::new(ball()).with_transform(Transform::new(at, 0.0)))
                        .unwrap()
                })
                .collect();
            world.update();
        }
        let touching = worlds[0].contacts().count();
        assert!(touching > side * side, "seed {seed}: a crowd touches");
        let moved: Vec<_> = handles
            .iter()
            .filter(|_| rng.below(4) == 0)
            .copied()
            .collect();
        let mut leaving: Vec<_> = handles
            .iter()
            .filter(|_| rng.below(3) == 0)
            .copied()
            .collect();
        let single = leaving.split_off(leaving.len() / 2);
        let (single, disabled) = single.split_at(single.len() / 2);
        for world in &mut worlds {
            for &h in &moved {
                let p = world.get(h).unwrap().transform().p;
                world
                    .set_transform(h, Transform::new(p + Vec2::new(0.0, 512.0), 0.0))
                    .unwrap();
            }
        }
        match seed % 3 {
            0 => worlds[1].shift_origin(Vec2::new(4.0, -2.0)).unwrap(),
            1 => {
                worlds[1] = World::restore(worlds[1].snapshot())
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
            }
            _ => {
                worlds[1].shift_origin(Vec2::new(-8.0, 16.0)).unwrap();
                worlds[1] = World::restore(worlds[1].snapshot())
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
        }
        let mut events = Vec::new();
        for world in &mut worlds {
            assert_eq!(world.remove_many(&leaving).unwrap().len(), leaving.len());
            for &h in single {
                world.remove(h).unwrap();
            }
            for &h in disabled {
                world.set_enabled(h, false).unwrap();
            }
            world.update();
            events.push(project(world.events()));
        }
        assert_eq!(events[0], events[1], "seed {seed}");
        // Removals come before disabling: a pair with a removed collider ends as removed.
        let removed = |index: u32| leaving.iter().chain(single).any(|h| h.index() == index);
        let gone = |index: u32| removed(index) || disabled.iter().any(|h| h.index() == index);
        for event in &events[1] {
            if gone(event.1) || gone(event.2) {
                let reason = if removed(event.1) || removed(event.2) {
                    EndReason::Removed
                } else {
                    EndReason::Disabled
                };
                assert_eq!(
                    (event.0, event.3),
                    (2, Some(reason)),
                    "seed {seed}: a leaving collider's contacts only end, with its reason"
                );
            }
        }
        let ends = events[1].iter().filter(|e| e.0 == 2).count();
        assert!(
            ends > leaving.len(),
            "seed {seed}: many contacts end ({ends})"
        );
    }
}
