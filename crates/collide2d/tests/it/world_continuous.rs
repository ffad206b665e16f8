//! Continuous colliders: swept between updates, so nothing is passed through, with the time of
//! impact on their `Begin` events.

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, CollisionGroups, World,
};
use collide2d::{Transform, Vec2};

fn circle(radius: f32) -> Shape {
    Shape::from(Circle::with_radius(radius).unwrap())
}

fn rect(width: f32, height: f32) -> Shape {
    Shape::from(Polygon::rect(width, height).unwrap())
}

fn at(x: f32, y: f32) -> Transform {
    Transform::new(Vec2::new(x, y), 0.0)
}

/// The events as `(kind, a, b)`, with kind `"begin"`, `"stay"` or `"end"`.
/// Runs one update and lists its events by kind and pair.
fn step(world: &mut World) -> Vec<(&'static str, ColliderHandle, ColliderHandle)> {
    kinds(events_of(world).as_slice())
}

/// Runs one update and returns a copy of its events.
fn events_of(world: &mut World) -> Vec<CollisionEvent> {
    world.update();
    world.events().to_vec()
}

fn kinds(events: &[CollisionEvent]) -> Vec<(&'static str, ColliderHandle, ColliderHandle)> {
    events
        .iter()
        .map(|event| {
            let (a, b) = event.pair();
            let kind = match event {
                CollisionEvent::Begin { .. } => "begin",
                CollisionEvent::Stay { .. } => "stay",
                CollisionEvent::End { .. } => "end",
            };
            (kind, a, b)
        })
        .collect()
}

/// A wall 1 cm thick at `x = 500` and a bullet of radius 0.05 at the origin.
fn wall_and_bullet(continuous: bool) -> (World, ColliderHandle, ColliderHandle) {
    let mut world = World::new();
    let wall = world
        .insert(Collider::new(rect(0.01, 4.0)).with_transform(at(500.0, 0.0)))
        .unwrap();
    let bullet = world
        .insert(Collider::new(circle(0.05)).with_continuous(continuous))
        .unwrap();
    assert!(step(&mut world).is_empty());
    (world, wall, bullet)
}

#[test]
fn a_bullet_moved_through_a_thin_wall_between_updates_begins_then_ends() {
    let (mut world, wall, bullet) = wall_and_bullet(true);
    assert!(world.get(bullet).unwrap().is_continuous());
    world.set_transform(bullet, at(1000.0, 0.0)).unwrap();
    let events = events_of(&mut world);
    assert_eq!(kinds(&events), [("begin", wall, bullet)]);
    let time = events[0].time_of_impact().unwrap();
    // First contact when the bullet's front reaches the wall's face: x = 500 - 0.005 - 0.05.
    assert!((time * 1000.0 - 499.945).abs() < 1e-3, "{time}");
    let manifold = events[0].manifold().unwrap();
    // The normal points from the wall (a) to the bullet (b), which came from the left.
    assert!(
        (manifold.normal - Vec2::NEG_X).length() < 1e-4,
        "{manifold:?}"
    );
    assert_eq!(manifold.points().len(), 1);
    assert!((manifold.points()[0].point - Vec2::new(499.995, 0.0)).length() < 1e-3);
    // Apart at the end of the step: the `End` comes at the next update, and only there.
    assert_eq!(step(&mut world), [("end", wall, bullet)]);
    assert!(step(&mut world).is_empty());
}

#[test]
fn without_the_setting_the_same_move_reports_nothing() {
    let (mut world, _, bullet) = wall_and_bullet(false);
    world.set_transform(bullet, at(1000.0, 0.0)).unwrap();
    assert!(step(&mut world).is_empty());
}

#[test]
fn a_bullet_that_stops_inside_the_wall_begins_with_its_time_then_stays() {
    let (mut world, wall, bullet) = wall_and_bullet(true);
    world.set_transform(bullet, at(500.0, 0.0)).unwrap();
    let events = events_of(&mut world);
    assert_eq!(kinds(&events), [("begin", wall, bullet)]);
    let time = events[0].time_of_impact().unwrap();
    assert!((time * 500.0 - 499.945).abs() < 1e-3, "{time}");
    // The next update re-tests the pair: the contact at the end, as `Stay`.
    let events = events_of(&mut world);
    assert_eq!(kinds(&events), [("stay", wall, bullet)]);
    assert!(events[0].manifold().unwrap().max_penetration() > 0.05);
    world.set_transform(bullet, at(-10.0, 0.0)).unwrap();
    assert_eq!(step(&mut world), [("end", wall, bullet)]);
}

#[test]
fn a_fast_player_never_misses_a_coin_sensor() {
    let mut world = World::new();
    let coin = world
        .insert(
            Collider::new(circle(0.2))
                .with_sensor(true)
                .with_transform(at(30.0, 0.1)),
        )
        .unwrap();
    let player = world
        .insert(Collider::new(rect(0.5, 1.0)).with_continuous(true))
        .unwrap();
    world.update();
    world.set_transform(player, at(60.0, 0.0)).unwrap();
    let events = events_of(&mut world);
    assert_eq!(kinds(&events), [("begin", coin, player)]);
    assert!(events[0].manifold().is_none());
    let time = events[0].time_of_impact().unwrap();
    assert!((time * 60.0 - (30.0 - 0.2 - 0.25)).abs() < 1e-3, "{time}");
    assert_eq!(step(&mut world), [("end", coin, player)]);
}

#[test]
fn two_continuous_bullets_meet_head_on_between_updates() {
    let mut world = World::new();
    let left = world
        .insert(Collider::new(circle(0.05)).with_continuous(true))
        .unwrap();
    let right = world
        .insert(
            Collider::new(circle(0.05))
                .with_continuous(true)
                .with_transform(at(100.0, 0.0)),
        )
        .unwrap();
    world.update();
    // They swap places: they met at the middle, t = (100 - 0.1) / 200.
    world.set_transform(left, at(100.0, 0.0)).unwrap();
    world.set_transform(right, at(0.0, 0.0)).unwrap();
    let events = events_of(&mut world);
    assert_eq!(kinds(&events), [("begin", left, right)]);
    let time = events[0].time_of_impact().unwrap();
    // (The circles' closed form loses a little to cancellation in `f32` here: 1e-5 of the step.)
    assert!((time - 99.9 / 200.0).abs() < 1e-4, "{time}");
    assert!((events[0].manifold().unwrap().normal - Vec2::X).length() < 1e-4);
    assert_eq!(step(&mut world), [("end", left, right)]);
}

#[test]
fn crossing_paths_at_different_times_do_not_touch() {
    let mut world = World::new();
    let first = world
        .insert(
            Collider::new(circle(0.05))
                .with_continuous(true)
                .with_transform(at(-10.0, 0.0)),
        )
        .unwrap();
    let second = world
        .insert(
            Collider::new(circle(0.05))
                .with_continuous(true)
                .with_transform(at(0.0, -1.0)),
        )
        .unwrap();
    world.update();
    // The first crosses x = 0 at t = 0.5, the second crosses y = 0 at t = 0.1.
    world.set_transform(first, at(10.0, 0.0)).unwrap();
    world.set_transform(second, at(0.0, 9.0)).unwrap();
    assert!(step(&mut world).is_empty());
}

#[test]
fn filtered_pairs_are_never_swept() {
    let mut world = World::new();
    let ghost_layer = world.layers_mut().add("ghost").unwrap();
    let default_layer = world.layers().id("default").unwrap();
    world.layers_mut().disable(ghost_layer, default_layer);
    world
        .insert(Collider::new(rect(0.01, 4.0)).with_transform(at(50.0, 0.0)))
        .unwrap();
    let masked = world
        .insert(Collider::new(rect(0.01, 4.0)).with_transform(at(60.0, 0.0)))
        .unwrap();
    world
        .set_groups(masked, CollisionGroups::new(2, u32::MAX))
        .unwrap();
    let bullet = world
        .insert(
            Collider::new(circle(0.05))
                .with_continuous(true)
                .with_layer(ghost_layer)
                .with_groups(CollisionGroups::new(1, 1)),
        )
        .unwrap();
    world.update();
    world.set_transform(bullet, at(100.0, 0.0)).unwrap();
    assert!(step(&mut world).is_empty());
}

#[test]
fn a_one_way_wall_stops_bullets_from_its_blocking_side_only() {
    let mut world = World::new();
    // Blocks what comes from the left (its blocking side faces -x).
    let wall = world
        .insert(
            Collider::new(rect(0.1, 4.0))
                .with_transform(at(50.0, 0.0))
                .with_one_way(Vec2::NEG_X, 0.05),
        )
        .unwrap();
    let from_left = world
        .insert(Collider::new(circle(0.05)).with_continuous(true))
        .unwrap();
    let from_right = world
        .insert(
            Collider::new(circle(0.05))
                .with_continuous(true)
                .with_transform(at(100.0, 1.0)),
        )
        .unwrap();
    world.update();
    world.set_transform(from_left, at(100.0, 0.0)).unwrap();
    world.set_transform(from_right, at(0.0, 1.0)).unwrap();
    assert_eq!(step(&mut world), [("begin", wall, from_left)]);
}

#[test]
fn teleporting_moves_without_sweeping() {
    let (mut world, _, bullet) = wall_and_bullet(true);
    world.teleport(bullet, at(1000.0, 0.0)).unwrap();
    assert!(step(&mut world).is_empty());
    // And the next sweep starts from the teleport's end.
    world.set_transform(bullet, at(1100.0, 0.0)).unwrap();
    assert!(step(&mut world).is_empty());
}

#[test]
fn set_continuous_starts_sweeping_from_where_the_collider_is() {
    let (mut world, wall, bullet) = wall_and_bullet(false);
    world.set_transform(bullet, at(1000.0, 0.0)).unwrap();
    world.set_continuous(bullet, true).unwrap();
    assert!(step(&mut world).is_empty());
    world.set_transform(bullet, at(0.0, 0.0)).unwrap();
    assert_eq!(step(&mut world), [("begin", wall, bullet)]);
    world.set_continuous(bullet, false).unwrap();
    assert_eq!(step(&mut world), [("end", wall, bullet)]);
    world.set_transform(bullet, at(1000.0, 0.0)).unwrap();
    assert!(step(&mut world).is_empty());
}

#[test]
fn removing_a_bullet_that_passed_ends_its_pair_once() {
    let (mut world, wall, bullet) = wall_and_bullet(true);
    world.set_transform(bullet, at(1000.0, 0.0)).unwrap();
    assert_eq!(step(&mut world), [("begin", wall, bullet)]);
    world.remove(bullet).unwrap();
    assert_eq!(step(&mut world), [("end", wall, bullet)]);
    assert!(step(&mut world).is_empty());
}

#[test]
fn a_bullet_that_passes_back_within_the_next_step_stays() {
    let (mut world, wall, bullet) = wall_and_bullet(true);
    world.set_transform(bullet, at(1000.0, 0.0)).unwrap();
    assert_eq!(step(&mut world), [("begin", wall, bullet)]);
    world.set_transform(bullet, at(0.0, 0.0)).unwrap();
    let events = events_of(&mut world);
    assert_eq!(kinds(&events), [("stay", wall, bullet)]);
    assert_eq!(step(&mut world), [("end", wall, bullet)]);
}

#[test]
fn a_spinning_rod_sweeps_the_turn_it_was_given() {
    use std::f32::consts::TAU;
    // A rod 2 long turning about its centre, 0.9 from a wall's face: turning a little it
    // clears the wall; a whole turn passes the wall's side.
    let mut world = World::new();
    let wall = world
        .insert(Collider::new(rect(0.1, 10.0)).with_transform(at(0.95, 0.0)))
        .unwrap();
    let rod = world
        .insert(Collider::new(rect(0.02, 2.0)).with_continuous(true))
        .unwrap();
    let turned = |angle: f32| Transform::new(Vec2::ZERO, angle);
    world.update();
    world.set_transform_spinning(rod, turned(0.0), TAU).unwrap();
    let events = events_of(&mut world);
    assert_eq!(kinds(&events), [("begin", wall, rod)]);
    // A corner reaches x = 0.9 when sin θ + 0.01 cos θ = 0.9, with θ = 2π t.
    let expected = {
        let (mut low, mut high) = (0.0f64, std::f64::consts::FRAC_PI_2);
        for _ in 0..60 {
            let middle = 0.5 * (low + high);
            if middle.sin() + 0.01 * middle.cos() < 0.9 {
                low = middle;
            } else {
                high = middle;
            }
        }
        low / std::f64::consts::TAU
    };
    let time = events[0].time_of_impact().unwrap();
    assert!(
        (f64::from(time) - expected).abs() < 1e-4,
        "{time} {expected}"
    );
    assert_eq!(step(&mut world), [("end", wall, rod)]);
    // The shortest way to 0.3 rad clears the wall; the same end reached the long way does not.
    world.set_transform(rod, turned(0.3)).unwrap();
    assert!(step(&mut world).is_empty());
    world
        .set_transform_spinning(rod, turned(0.0), -0.3)
        .unwrap();
    assert!(step(&mut world).is_empty());
    world
        .set_transform_spinning(rod, turned(0.3), 0.3 - TAU)
        .unwrap();
    assert_eq!(step(&mut world), [("begin", wall, rod)]);
    assert!(world
        .set_transform_spinning(rod, turned(0.0), f32::NAN)
        .is_err());
}

#[test]
fn sweep_to_stops_at_the_first_solid_collider() {
    let mut world = World::new();
    let sensor = world
        .insert(
            Collider::new(rect(1.0, 4.0))
                .with_sensor(true)
                .with_transform(at(20.0, 0.0)),
        )
        .unwrap();
    let near = world
        .insert(Collider::new(rect(0.1, 4.0)).with_transform(at(50.0, 0.0)))
        .unwrap();
    world
        .insert(Collider::new(rect(0.1, 4.0)).with_transform(at(60.0, 0.0)))
        .unwrap();
    let bullet = world
        .insert(Collider::new(Shape::from(
            Capsule::new(Vec2::new(-0.1, 0.0), Vec2::new(0.1, 0.0), 0.02).unwrap(),
        )))
        .unwrap();
    let hit = world
        .sweep_to(bullet, at(100.0, 0.0))
        .unwrap()
        .expect("the wall at 50 stops it");
    assert_eq!(hit.collider, near);
    assert!((hit.normal - Vec2::X).length() < 1e-4);
    let stopped = world.get(bullet).unwrap().transform().p;
    assert!((stopped.x - (50.0 - 0.05 - 0.12)).abs() < 1e-3, "{stopped}");
    // Resting against it, it cannot go further…
    let again = world.sweep_to(bullet, at(100.0, 0.0)).unwrap().unwrap();
    assert_eq!((again.collider, again.fraction), (near, 0.0));
    // …but can leave, and reach a free target.
    assert!(world.sweep_to(bullet, at(0.0, 0.0)).unwrap().is_none());
    assert_eq!(world.get(bullet).unwrap().transform().p, Vec2::ZERO);
    assert!(world.contains(sensor));
    assert!(world.sweep_to(bullet, at(f32::NAN, 0.0)).is_err());
    assert_eq!(world.get(bullet).unwrap().transform().p, Vec2::ZERO);
}

#[test]
fn the_same_events_from_every_broad_phase() {
    let mut streams = Vec::new();
    for kind in [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 2.0 },
        BroadPhaseKind::SweepAndPrune,
    ] {
        let mut world = World::with_broad_phase(kind).unwrap();
        for i in 0..20 {
            world
                .insert(Collider::new(rect(0.02, 3.0)).with_transform(at(10.0 * i as f32, 0.0)))
                .unwrap();
        }
        let bullets: Vec<_> = (0..10)
            .map(|i| {
                world
                    .insert(
                        Collider::new(circle(0.05))
                            .with_continuous(true)
                            .with_transform(at(-5.0, i as f32 * 0.3 - 1.5)),
                    )
                    .unwrap()
            })
            .collect();
        let mut stream = Vec::new();
        for step in 1..6 {
            for (i, &bullet) in bullets.iter().enumerate() {
                let x = -5.0 + step as f32 * (7.0 + 9.0 * i as f32);
                world
                    .set_transform(bullet, at(x, i as f32 * 0.3 - 1.5))
                    .unwrap();
            }
            stream.push(format!("{:?}", {
                world.update();
                world.events()
            }));
        }
        streams.push(stream);
    }
    assert_eq!(streams[0], streams[1]);
    assert_eq!(streams[0], streams[2]);
}

/// A fixed scene of many continuous colliders (enough for the parallel sweep path) flying
/// about among walls, sensors and each other: the hash of its event stream.
fn swarm_event_hash(kind: BroadPhaseKind) -> (u64, usize) {
    let mut state = 0x2545f4914f6cdd1du64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut world = World::with_broad_phase(kind).unwrap();
    for i in 0..300 {
        let (x, y) = (random() * 200.0 - 100.0, random() * 200.0 - 100.0);
        let wall = Collider::new(rect(0.05 + random(), 2.0 + 8.0 * random()))
            .with_transform(Transform::new(Vec2::new(x, y), random() * 6.0))
            .with_sensor(i % 5 == 0);
        world.insert(wall).unwrap();
    }
    let bullets: Vec<ColliderHandle> = (0..400)
        .map(|i| {
            let shape = if i % 2 == 0 {
                circle(0.05 + 0.2 * random())
            } else {
                rect(0.1 + 0.5 * random(), 0.05)
            };
            let start = Transform::new(
                Vec2::new(random() * 200.0 - 100.0, random() * 200.0 - 100.0),
                random() * 6.0,
            );
            world
                .insert(
                    Collider::new(shape)
                        .with_continuous(true)
                        .with_transform(start),
                )
                .unwrap()
        })
        .collect();
    let (mut hash, mut count) = (0xcbf29ce484222325u64, 0);
    for _ in 0..30 {
        for &bullet in &bullets {
            let at = world.get(bullet).unwrap().transform();
            let step = Vec2::new(random() - 0.5, random() - 0.5) * 60.0;
            let target = Transform::new(
                (at.p + step).clamp(Vec2::splat(-100.0), Vec2::splat(100.0)),
                at.angle() + (random() - 0.5) * 4.0,
            );
            world.set_transform(bullet, target).unwrap();
        }
        for event in {
            world.update();
            world.events()
        } {
            for byte in format!("{event:?}").bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x100000001b3);
            }
            count += 1;
        }
    }
    (hash, count)
}

#[test]
fn many_sweeps_give_the_same_events_in_every_broad_phase_and_build() {
    let tree = swarm_event_hash(BroadPhaseKind::Tree);
    assert_eq!(
        swarm_event_hash(BroadPhaseKind::Grid { cell_size: 4.0 }),
        tree
    );
    assert_eq!(swarm_event_hash(BroadPhaseKind::SweepAndPrune), tree);
    // The same with and without the `rayon` feature (whose sweeps run in parallel). The
    // sensor walls' `End` events print `sensor: true` since ends carry the flag, rotating
    // casts start GJK from the line between the shapes' origins (other last bits), their
    // steps bound the turning by the farthest vertex (other times within the tolerance), and
    // their normals are GJK's converged axis (other normals, closer to the exact ones), and a
    // sweep's rotation at time t is its start rotation (as given) turned by the turn so far,
    // not a rotation rebuilt from the angle (other last bits, the same events). A sweep that
    // starts with the cores overlapping takes the normal and point of the contact there (9
    // `Begin`s at time 0 a broad phase carry other numbers; the same events otherwise). Pairs
    // that touched at the last update are swept too: 187 bullets that a step carried on
    // through a wall they touched report a `Stay` with the contact on the way, and their `End`
    // one update later.
    assert_eq!(tree, (10966798983030267909, 18269), "golden");
}

#[test]
fn a_snapshot_keeps_where_continuous_colliders_were_and_what_they_passed() {
    let (mut world, wall, bullet) = wall_and_bullet(true);
    world.set_transform(bullet, at(1000.0, 0.0)).unwrap();
    // Saved between the move and the update: the restored world sweeps the same path.
    let mut restored = World::restore(world.snapshot()).unwrap();
    let events = events_of(&mut world);
    assert_eq!(
        {
            restored.update();
            restored.events()
        },
        &events[..]
    );
    // Saved with a passed pair pending: both end it next.
    let mut restored = World::restore(world.snapshot()).unwrap();
    assert_eq!(step(&mut restored), [("end", wall, bullet)]);
    assert_eq!(step(&mut world), [("end", wall, bullet)]);
}
