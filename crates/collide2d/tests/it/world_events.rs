//! What game code reads from a world: event fields and helpers, touching pairs, bulk insertion,
//! query filters, drop-through and "collides only with" layers.

use crate::support;

use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, CollisionGroups, EndReason,
    MoveOptions, QueryFilter, World, WorldError,
};
use collide2d::{Transform, Vec2};
use support::Rng;

fn ball() -> Shape {
    Shape::from(Circle::with_radius(0.5).unwrap())
}

fn at(x: f32, y: f32) -> Transform {
    Transform::new(Vec2::new(x, y), 0.0)
}

/// Two overlapping balls with user data 10 and 20, updated once (one `Begin`).
fn touching_pair(sensor: bool) -> (World, ColliderHandle, ColliderHandle) {
    let mut world = World::new();
    let a = world
        .insert(
            Collider::new(ball())
                .with_user_data(10)
                .with_transform(at(0.0, 0.0)),
        )
        .unwrap();
    let b = world
        .insert(
            Collider::new(ball())
                .with_user_data(20)
                .with_sensor(sensor)
                .with_transform(at(0.8, 0.0)),
        )
        .unwrap();
    world.update();
    (world, a, b)
}

fn only_end(world: &World) -> CollisionEvent {
    assert_eq!(world.ended().len(), 1, "{:?}", world.events());
    world.ended()[0]
}

#[test]
fn the_natural_loop_reads_the_world_while_walking_the_events() {
    let (mut world, a, _) = touching_pair(false);
    world.set_transform(a, at(0.1, 0.0)).unwrap();
    let stats = world.update();
    assert_eq!((stats.began, stats.ended), (0, 0));
    let mut read = 0;
    for event in world.events() {
        let (a, b) = event.pair();
        read += world.get(a).unwrap().user_data() + world.get(b).unwrap().user_data();
    }
    assert_eq!(read, 30);
}

#[test]
fn begin_carries_both_user_data_values_and_the_sensor_flag() {
    for sensor in [false, true] {
        let (world, a, b) = touching_pair(sensor);
        assert_eq!(world.began().len(), 1);
        let begin = world.began()[0];
        assert_eq!(begin.pair(), (a, b));
        assert_eq!(begin.user_data(), Some([10, 20]));
        assert_eq!(begin.is_sensor(), sensor);
        assert_eq!(begin.end_reason(), None);
    }
}

#[test]
fn involves_and_other_read_an_event_from_either_side() {
    let (mut world, a, b) = touching_pair(false);
    let stranger = world
        .insert(Collider::new(ball()).with_transform(at(50.0, 0.0)))
        .unwrap();
    let begin = world.began()[0];
    assert!(begin.involves(a) && begin.involves(b) && !begin.involves(stranger));
    assert_eq!(begin.other(a), Some(b));
    assert_eq!(begin.other(b), Some(a));
    assert_eq!(begin.other(stranger), None);
    assert_eq!(begin.other_user_data(a), Some(20));
    assert_eq!(begin.other_user_data(b), Some(10));
    assert_eq!(begin.other_user_data(stranger), None);
}

#[test]
fn an_end_after_removal_keeps_the_removed_colliders_data_and_sensor_flag() {
    for sensor in [false, true] {
        let (mut world, a, b) = touching_pair(sensor);
        world.set_user_data(a, 11).unwrap();
        let removed = world.remove(b).unwrap();
        assert_eq!(removed.user_data(), 20);
        world.update();
        let end = only_end(&world);
        assert_eq!(end.pair(), (a, b));
        assert_eq!(end.end_reason(), Some(EndReason::Removed));
        assert_eq!(end.is_sensor(), sensor);
        assert_eq!(end.user_data(), Some([11, 20]));
        assert_eq!(end.other_user_data(a), Some(20));
    }
}

#[test]
fn an_end_says_disabled_filtered_or_separated() {
    // Disabled.
    let (mut world, a, _) = touching_pair(false);
    world.set_enabled(a, false).unwrap();
    world.update();
    assert_eq!(only_end(&world).end_reason(), Some(EndReason::Disabled));
    assert_eq!(only_end(&world).user_data(), Some([10, 20]));

    // Filtered by a layer change.
    let (mut world, a, _) = touching_pair(false);
    let ghost = world.layers_mut().add("ghost").unwrap();
    world
        .layers_mut()
        .disable(ghost, collide2d::world::LayerId::DEFAULT);
    world.set_layer(a, ghost).unwrap();
    world.update();
    assert_eq!(only_end(&world).end_reason(), Some(EndReason::Filtered));

    // Filtered by a layer-matrix change alone.
    let (mut world, _, _) = touching_pair(false);
    let default = collide2d::world::LayerId::DEFAULT;
    world.layers_mut().disable(default, default);
    world.update();
    assert_eq!(only_end(&world).end_reason(), Some(EndReason::Filtered));

    // Filtered by groups.
    let (mut world, a, b) = touching_pair(false);
    world
        .set_groups(a, CollisionGroups::new(0b01, 0b01))
        .unwrap();
    world
        .set_groups(b, CollisionGroups::new(0b10, 0b10))
        .unwrap();
    world.update();
    assert_eq!(only_end(&world).end_reason(), Some(EndReason::Filtered));

    // Separated.
    let (mut world, a, _) = touching_pair(true);
    world.set_transform(a, at(-5.0, 0.0)).unwrap();
    world.update();
    let end = only_end(&world);
    assert_eq!(end.end_reason(), Some(EndReason::Separated));
    assert!(end.is_sensor());
}

#[test]
fn began_and_ended_hold_the_changes_whether_stay_is_reported_or_not() {
    for report_stay in [true, false] {
        let mut world = World::new();
        world.set_report_stay(report_stay);
        let handles: Vec<_> = (0..6)
            .map(|i| {
                world
                    .insert(Collider::new(ball()).with_transform(at(i as f32 * 0.9, 0.0)))
                    .unwrap()
            })
            .collect();
        world.update();
        assert_eq!(world.began().len(), 5);
        world.set_transform(handles[5], at(40.0, 0.0)).unwrap();
        world.set_transform(handles[0], at(0.1, 0.0)).unwrap();
        let stats = world.update();
        assert_eq!((stats.began, stats.ended), (0, 1));
        assert_eq!(world.ended()[0].pair(), (handles[4], handles[5]));
        assert!(world.began().is_empty());
        let stays = world
            .events()
            .iter()
            .filter(|e| matches!(e, CollisionEvent::Stay { .. }))
            .count();
        assert_eq!(stays, if report_stay { 4 } else { 0 });
        assert_eq!(world.contacts().count(), 4);
    }
}

#[test]
fn contacts_of_lists_one_colliders_touching_pairs_with_their_manifolds() {
    let mut world = World::new();
    let middle = world.insert(Collider::new(ball())).unwrap();
    let left = world
        .insert(Collider::new(ball()).with_transform(at(-0.9, 0.0)))
        .unwrap();
    let right = world
        .insert(
            Collider::new(ball())
                .with_sensor(true)
                .with_transform(at(0.9, 0.0)),
        )
        .unwrap();
    let near = world
        .insert(Collider::new(ball()).with_transform(at(0.0, 1.01)))
        .unwrap();
    world.update();
    let of_middle: Vec<_> = world
        .contacts_of(middle)
        .map(|(a, b, manifold)| (a, b, manifold.is_some()))
        .collect();
    assert_eq!(of_middle, [(middle, left, true), (middle, right, false)]);
    assert_eq!(world.contacts_of(near).count(), 0); // boxes overlap, shapes do not
    world.remove(left).unwrap();
    // Readable before the next update: the removed pair no longer counts.
    assert_eq!(world.contacts_of(middle).count(), 1);
    assert_eq!(world.contacts_of(left).count(), 0);
}

/// `collider` as the `i`-th of a mixed crowd: every 7th a sensor, every 11th disabled, its user
/// data `i`.
fn with_mixed_flags(collider: Collider, i: u64) -> Collider {
    collider
        .with_sensor(i % 7 == 0)
        .with_enabled(i % 11 != 0)
        .with_user_data(i)
}

/// Moves every collider of `world` to `factor` times its position, turned to `angle`, in one
/// `set_transforms`, then updates.
fn pull_all_towards_the_origin(world: &mut World, factor: f32, angle: f32) {
    let moves: Vec<_> = world
        .iter()
        .map(|(handle, collider)| {
            (
                handle,
                Transform::new(collider.transform().p * factor, angle),
            )
        })
        .collect();
    world.set_transforms(&moves).unwrap();
    world.update();
}

#[test]
fn insert_many_gives_the_same_events_as_one_insert_at_a_time() {
    for kind in [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 2.0 },
        BroadPhaseKind::SweepAndPrune,
    ] {
        let mut rng = Rng(0x1e5);
        let colliders: Vec<Collider> = (0..500)
            .map(|i| {
                let shape = if i % 3 == 0 {
                    Shape::from(Polygon::rect(rng.range(0.2, 2.0), rng.range(0.2, 2.0)).unwrap())
                } else {
                    Shape::from(Circle::with_radius(rng.range(0.1, 1.0)).unwrap())
                };
                with_mixed_flags(
                    Collider::new(shape)
                        .with_transform(Transform::new(rng.point(20.0), rng.angle())),
                    i,
                )
            })
            .collect();
        let mut one_by_one = World::with_broad_phase(kind).unwrap();
        let mut bulk = World::with_broad_phase(kind).unwrap();
        // Into a populated world, after a removal (a freed slot to reuse), and into an empty one.
        for world in [&mut one_by_one, &mut bulk] {
            let first = world.insert(Collider::new(ball())).unwrap();
            world.insert(Collider::new(ball())).unwrap();
            world.update();
            world.remove(first).unwrap();
        }
        let mut expected = Vec::new();
        for collider in &colliders {
            expected.push(one_by_one.insert(collider.clone()).unwrap());
        }
        assert_eq!(bulk.insert_many(colliders.clone()).unwrap(), expected);
        one_by_one.update();
        bulk.update();
        assert_eq!(bulk.events(), one_by_one.events(), "{kind:?}");
        assert!(bulk.began().len() > 100);

        let mut empty = World::with_broad_phase(kind).unwrap();
        let mut empty_one_by_one = World::with_broad_phase(kind).unwrap();
        empty.insert_many(colliders.clone()).unwrap();
        for collider in &colliders {
            empty_one_by_one.insert(collider.clone()).unwrap();
        }
        empty.update();
        empty_one_by_one.update();
        assert_eq!(empty.events(), empty_one_by_one.events(), "{kind:?}");
        // Moving everything afterwards still reports the same changes.
        for world in [&mut empty, &mut empty_one_by_one] {
            pull_all_towards_the_origin(world, 0.5, 0.3);
        }
        assert_eq!(empty.events(), empty_one_by_one.events(), "{kind:?}");
    }
}

#[test]
fn insert_many_is_all_or_nothing() {
    let mut world = World::new();
    world.insert(Collider::new(ball())).unwrap();
    let bad = Collider::new(ball()).with_transform(at(f32::NAN, 0.0));
    let error = world
        .insert_many([Collider::new(ball()), bad, Collider::new(ball())])
        .unwrap_err();
    assert_eq!(error, WorldError::NonFiniteTransform);
    assert_eq!(world.len(), 1);
    assert_eq!(world.broad_phase().len(), 1);
    let handles = world.insert_many([Collider::new(ball())]).unwrap();
    assert_eq!(handles[0].index(), 1);
}

#[test]
fn a_collider_placed_by_position_is_where_it_says_and_a_bad_position_is_refused() {
    let mut world = World::new();
    let turned = Collider::new(ball())
        .with_transform(Transform::new(Vec2::new(1.0, 2.0), 0.5))
        .with_position(Vec2::new(-4.0, 7.5));
    assert_eq!(turned.position(), Vec2::new(-4.0, 7.5));
    assert_eq!(turned.transform().q, Transform::new(Vec2::ZERO, 0.5).q);
    let handle = world.insert(turned).unwrap();
    assert_eq!(world.get(handle).unwrap().position(), Vec2::new(-4.0, 7.5));
    let found = world.overlap_point(Vec2::new(-4.0, 7.5), &QueryFilter::default());
    assert_eq!(found.unwrap(), [handle]);
    for bad in [f32::NAN, f32::INFINITY, 1e30] {
        let error = world
            .insert(Collider::new(ball()).with_position(Vec2::new(0.0, bad)))
            .unwrap_err();
        assert!(
            matches!(
                error,
                WorldError::NonFiniteTransform | WorldError::TransformOutOfRange
            ),
            "{bad}: {error:?}"
        );
    }
    assert_eq!(world.len(), 1);
}

/// `remove_many` against `remove` one handle at a time, on every broad phase: the same
/// colliders come back, the same `End`s (with reason, sensor flag and both user data values)
/// come at the next update, and the worlds stay equal through a later insert and move.
#[test]
fn remove_many_gives_the_same_events_as_one_remove_at_a_time() {
    for kind in [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 2.0 },
        BroadPhaseKind::SweepAndPrune,
    ] {
        let mut rng = Rng(0xde5);
        let colliders: Vec<Collider> = (0..400)
            .map(|i| {
                with_mixed_flags(
                    Collider::new(Shape::from(
                        Circle::with_radius(rng.range(0.3, 1.2)).unwrap(),
                    ))
                    .with_transform(Transform::new(rng.point(15.0), 0.0)),
                    i,
                )
            })
            .collect();
        let mut one_by_one = World::with_broad_phase(kind).unwrap();
        let mut bulk = World::with_broad_phase(kind).unwrap();
        let handles = one_by_one.insert_many(colliders.clone()).unwrap();
        assert_eq!(bulk.insert_many(colliders).unwrap(), handles);
        one_by_one.update();
        bulk.update();
        // Every third collider, in a shuffled order.
        let mut leaving: Vec<ColliderHandle> = handles.iter().copied().step_by(3).collect();
        for index in (1..leaving.len()).rev() {
            leaving.swap(index, rng.below(index + 1));
        }
        let expected: Vec<Collider> = leaving
            .iter()
            .map(|&handle| one_by_one.remove(handle).unwrap())
            .collect();
        let removed = bulk.remove_many(&leaving).unwrap();
        assert_eq!(removed.len(), expected.len());
        for (got, want) in removed.iter().zip(&expected) {
            assert_eq!(got.user_data(), want.user_data(), "{kind:?}");
        }
        assert_eq!(bulk.len(), one_by_one.len());
        assert_eq!(bulk.broad_phase().len(), one_by_one.broad_phase().len());
        one_by_one.update();
        bulk.update();
        assert!(bulk.ended().len() > 50, "{kind:?}: {}", bulk.ended().len());
        assert_eq!(bulk.events(), one_by_one.events(), "{kind:?}");
        // The freed slots are taken in the same order, and later changes report alike.
        for world in [&mut bulk, &mut one_by_one] {
            world.insert(Collider::new(ball())).unwrap();
            pull_all_towards_the_origin(world, 0.8, 0.0);
        }
        assert_eq!(bulk.events(), one_by_one.events(), "{kind:?}");
    }
}

#[test]
fn remove_many_is_all_or_nothing() {
    let mut world = World::new();
    let handles = world
        .insert_many((0..4).map(|i| Collider::new(ball()).with_transform(at(0.8 * i as f32, 0.0))))
        .unwrap();
    world.update();
    world.remove(handles[3]).unwrap();
    // A stale handle, and a handle named twice, are refused; nothing is removed.
    for batch in [
        vec![handles[0], handles[3], handles[1]],
        vec![handles[0], handles[1], handles[0]],
    ] {
        let error = world.remove_many(&batch).unwrap_err();
        assert!(matches!(error, WorldError::StaleHandle(_)), "{error:?}");
        assert_eq!(world.len(), 3);
        assert_eq!(world.broad_phase().len(), 3);
        assert!(world.contains(handles[0]) && world.contains(handles[1]));
    }
    world.update();
    assert_eq!(world.ended().len(), 1); // only the single removal's pair
    assert_eq!(
        world.remove_many(&[handles[1], handles[0]]).unwrap().len(),
        2
    );
    world.update();
    assert_eq!(world.ended().len(), 2);
}

/// A row of five unit balls at x = 0, 2, 4, 6, 8 with user data = x.
fn row() -> (World, Vec<ColliderHandle>) {
    let mut world = World::new();
    let handles = (0..5)
        .map(|i| {
            let x = 2.0 * i as f32;
            world
                .insert(
                    Collider::new(ball())
                        .with_user_data(x as u64)
                        .with_transform(at(x, 0.0)),
                )
                .unwrap()
        })
        .collect();
    world.update();
    (world, handles)
}

#[test]
fn a_filter_excludes_any_number_of_colliders_and_asks_its_predicate() {
    let (world, handles) = row();
    let ray = collide2d::shape::Ray::new(Vec2::new(-5.0, 0.0), Vec2::X, 100.0).unwrap();
    let all: Vec<_> = world
        .ray_cast_all(&ray, &QueryFilter::new())
        .unwrap()
        .iter()
        .map(|hit| hit.collider)
        .collect();
    assert_eq!(all, handles);
    let skipped = [handles[0], handles[1], handles[3]];
    let hit = world
        .ray_cast(&ray, &QueryFilter::new().excluding(&skipped))
        .unwrap()
        .unwrap();
    assert_eq!(hit.collider, handles[2]);
    assert_eq!(hit.distance, 8.5);
    let past_four = |_, collider: &Collider| collider.user_data() > 4;
    let filter = QueryFilter::new().with_predicate(&past_four);
    assert_eq!(
        world.ray_cast(&ray, &filter).unwrap().unwrap().collider,
        handles[3]
    );
    let box_all = collide2d::shape::Aabb {
        min: Vec2::splat(-10.0),
        max: Vec2::splat(10.0),
    };
    let filter = QueryFilter::new()
        .with_predicate(&past_four)
        .excluding(&skipped);
    assert_eq!(world.overlap_aabb(box_all, &filter).unwrap(), [handles[4]]);
}

#[test]
fn a_predicate_may_borrow_the_games_own_data() {
    let (world, handles) = row();
    // A table the game keeps beside the world, borrowed (not moved) by the predicate.
    let dead: Vec<u64> = vec![0, 2, 4];
    let alive = |_, collider: &Collider| !dead.contains(&collider.user_data());
    let filter = QueryFilter::new().with_predicate(&alive);
    let ray = collide2d::shape::Ray::new(Vec2::new(-5.0, 0.0), Vec2::X, 100.0).unwrap();
    let hits: Vec<_> = world
        .ray_cast_all(&ray, &filter)
        .unwrap()
        .iter()
        .map(|hit| hit.collider)
        .collect();
    assert_eq!(hits, [handles[3], handles[4]]);
    // The table is still the game's.
    assert_eq!(dead.len(), 3);
}

#[test]
fn a_filter_with_groups_sees_only_colliders_whose_groups_meet_it() {
    let (mut world, handles) = row();
    world
        .set_groups(handles[1], CollisionGroups::new(0b10, u32::MAX))
        .unwrap();
    world
        .set_groups(handles[2], CollisionGroups::new(0b01, 0b10))
        .unwrap();
    let everything = collide2d::shape::Aabb {
        min: Vec2::splat(-10.0),
        max: Vec2::splat(10.0),
    };
    // Without groups the query sees every collider.
    assert_eq!(
        world
            .overlap_aabb(everything, &QueryFilter::new())
            .unwrap()
            .len(),
        5
    );
    // A query in group 0b10 looking for group 0b10: only handles[1] belongs there and lets it.
    let filter = QueryFilter::new().with_groups(CollisionGroups::new(0b10, 0b10));
    assert_eq!(
        world.overlap_aabb(everything, &filter).unwrap(),
        [handles[1]]
    );
    // A query in group 0b01 looking for 0b01: handles[2] belongs there but does not let 0b01 in.
    let filter = QueryFilter::new().with_groups(CollisionGroups::new(0b01, 0b01));
    let found = world.overlap_aabb(everything, &filter).unwrap();
    assert_eq!(found, [handles[0], handles[3], handles[4]]);
}

/// A one-way platform (blocking from above) under a ball resting on it.
fn ball_on_platform() -> (World, ColliderHandle, ColliderHandle) {
    let mut world = World::new();
    let platform = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(6.0, 0.2).unwrap())).with_one_way(Vec2::Y, 0.1),
        )
        .unwrap();
    let hero = world
        .insert(Collider::new(ball()).with_transform(at(0.0, 0.61)))
        .unwrap();
    (world, platform, hero)
}

#[test]
fn drop_through_passes_a_one_way_platform_for_one_call_only() {
    let (mut world, _, hero) = ball_on_platform();
    let fall = Vec2::new(0.0, -0.5);
    let held = world
        .move_and_slide(hero, fall, MoveOptions::default())
        .unwrap();
    assert!(held.on_floor);
    assert!(world.get(hero).unwrap().transform().p.y > 0.6);
    let dropped = world
        .move_and_slide(hero, fall, MoveOptions::default().with_skip_one_way(true))
        .unwrap();
    assert!(!dropped.on_floor);
    let y = world.get(hero).unwrap().transform().p.y;
    assert!((y - 0.11).abs() < 1e-5, "{y}");
    // Half inside the platform now; the next plain call does not pull it back up onto it.
    world
        .move_and_slide(hero, fall, MoveOptions::default().with_snap_distance(0.0))
        .unwrap();
    assert!(world.get(hero).unwrap().transform().p.y < 0.11);
}

#[test]
fn a_move_passes_through_excluded_colliders_and_still_skips_itself() {
    let mut world = World::new();
    let wall = |x: f32| {
        Collider::new(Shape::from(Polygon::rect(0.2, 4.0).unwrap())).with_transform(at(x, 0.0))
    };
    let gun = world.insert(wall(1.0)).unwrap();
    let door = world.insert(wall(3.0)).unwrap();
    let hero = world.insert(Collider::new(ball())).unwrap();
    let options = MoveOptions::default().with_up(Vec2::Y);
    let blocked = world
        .move_and_slide(hero, Vec2::new(0.6, 0.0), options)
        .unwrap();
    assert!(blocked.hits.iter().any(|hit| hit.collider == gun));
    let carried = [gun];
    let moved = world
        .move_and_slide(hero, Vec2::new(2.5, 0.0), options.excluding(&carried))
        .unwrap();
    assert_eq!(moved.hits.first().map(|hit| hit.collider), Some(door));
    let x = world.get(hero).unwrap().transform().p.x;
    assert!((x - 2.39).abs() < 1e-3, "{x}");
}

#[test]
fn collide_only_keeps_bullets_off_layers_added_later() {
    let mut world = World::new();
    let layers = world.layers_mut();
    let bullet = layers.add("bullet").unwrap();
    let enemy = layers.add("enemy").unwrap();
    let wall = layers.add("wall").unwrap();
    layers.collide_only(bullet, &[enemy, wall]);
    let pickup = layers.add("pickup").unwrap();
    let default = collide2d::world::LayerId::DEFAULT;
    assert!(layers.collides(bullet, enemy) && layers.collides(enemy, bullet));
    assert!(layers.collides(bullet, wall));
    for other in [default, bullet, pickup] {
        assert!(!layers.collides(bullet, other) && !layers.collides(other, bullet));
    }
    assert!(layers.collides(pickup, enemy) && layers.collides(pickup, pickup));
    layers.enable(bullet, pickup);
    assert!(layers.collides(pickup, bullet));
    // In a world: a bullet overlapping one of each touches only the enemy and the wall.
    let mut handles = Vec::new();
    for layer in [bullet, enemy, wall, pickup, default] {
        handles.push(
            world
                .insert(Collider::new(ball()).with_layer(layer))
                .unwrap(),
        );
    }
    world.layers_mut().disable(bullet, pickup);
    world.update();
    let bullet_pairs: Vec<_> = world
        .contacts_of(handles[0])
        .map(|(a, b, _)| if a == handles[0] { b } else { a })
        .collect();
    assert_eq!(bullet_pairs, [handles[1], handles[2]]);
}

#[test]
fn set_one_way_keeps_a_contact_it_still_has_and_ends_one_it_no_longer_has() {
    use collide2d::world::OneWay;
    // A box resting 0.05 into a two-way platform's top.
    let mut world = World::new();
    let platform = world
        .insert(Collider::new(Shape::from(Polygon::rect(4.0, 0.5).unwrap())))
        .unwrap();
    let boxed = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                .with_transform(at(0.0, 0.7)),
        )
        .unwrap();
    world.update();
    assert_eq!(world.began().len(), 1);
    let up = |margin| {
        Some(OneWay {
            direction: Vec2::new(0.0, 3.0),
            margin,
        })
    };
    // Blocking upwards: the box above is still held; the contact goes on, silently.
    world.set_one_way(platform, up(0.1)).unwrap();
    world.update();
    assert_eq!(
        (world.began().len(), world.ended().len()),
        (0, 0),
        "{:?}",
        world.events()
    );
    let set = world.get(platform).unwrap().one_way().unwrap();
    assert_eq!((set.direction, set.margin), (Vec2::Y, 0.1), "made unit");
    assert!(world.is_touching(boxed));
    // Bad input is refused and changes nothing.
    for bad in [
        up(-1.0),
        up(f32::NAN),
        Some(OneWay {
            direction: Vec2::ZERO,
            margin: 0.1,
        }),
    ] {
        assert_eq!(
            world.set_one_way(platform, bad),
            Err(WorldError::InvalidOneWay)
        );
    }
    assert_eq!(world.get(platform).unwrap().one_way(), Some(set));
    // Blocking downwards: the box is on the passing side; the contact ends, once.
    world
        .set_one_way(
            platform,
            Some(OneWay {
                direction: -Vec2::Y,
                margin: 0.1,
            }),
        )
        .unwrap();
    world.update();
    assert_eq!(world.began().len(), 0);
    assert!(matches!(
        only_end(&world),
        CollisionEvent::End {
            reason: EndReason::Separated,
            ..
        }
    ));
    // Two-way again: it begins again, once.
    world.set_one_way(platform, None).unwrap();
    world.update();
    assert_eq!((world.began().len(), world.ended().len()), (1, 0));
    assert_eq!(world.get(platform).unwrap().one_way(), None);
}
