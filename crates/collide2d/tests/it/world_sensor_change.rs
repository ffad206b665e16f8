//! A collider made a sensor, or solid again, while it touches: each pair that changes kind ends
//! as the kind it was (`EndReason::SensorChanged`) and begins as the other right after, in the
//! same update, so a game that keeps solid contacts and sensor overlaps apart never sees a
//! `Begin` of one kind closed by an `End` of the other, and the pair never stops being listed
//! as touching.

use crate::support::threads::on_threads;
use crate::support::{random_shape, touches, Rng, ALL_KINDS};

use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, CollisionEvent, EndReason, World};
use collide2d::{Transform, Vec2};
use std::collections::{BTreeMap, BTreeSet};

type Pair = (ColliderHandle, ColliderHandle);

/// A ball resting 0.01 into a floor: the floor toggled to a sensor and back.
#[test]
fn a_floor_made_a_sensor_and_solid_again_ends_and_begins_its_contact_each_time() {
    for report_stay in [true, false] {
        let mut world = World::new();
        world.set_report_stay(report_stay);
        let floor = world
            .insert(Collider::new(Shape::from(Polygon::rect(10.0, 1.0).unwrap())).with_user_data(1))
            .unwrap();
        let ball = world
            .insert(
                Collider::new(Shape::from(Circle::with_radius(0.5).unwrap()))
                    .with_transform(Transform::new(Vec2::new(0.0, 0.99), 0.0))
                    .with_user_data(2),
            )
            .unwrap();
        world.update();
        assert!(matches!(
            world.events(),
            [CollisionEvent::Begin {
                manifold: Some(_),
                ..
            }]
        ));
        for (sensor, step) in [(true, 0), (false, 1), (true, 2)] {
            world.set_sensor(floor, sensor).unwrap();
            world.update();
            let expected = [
                CollisionEvent::End {
                    a: floor,
                    b: ball,
                    reason: EndReason::SensorChanged,
                    sensor: !sensor,
                    user_data: [1, 2],
                },
                CollisionEvent::Begin {
                    a: floor,
                    b: ball,
                    manifold: world.contacts_of(floor).next().unwrap().2.copied(),
                    time_of_impact: None,
                    user_data: [1, 2],
                },
            ];
            assert_eq!(world.events(), expected, "step {step}, stay {report_stay}");
            assert_eq!(world.ended(), &expected[..1], "step {step}");
            assert_eq!(world.began(), &expected[1..], "step {step}");
            assert_eq!(expected[1].is_sensor(), sensor, "step {step}");
            assert!(world.is_touching(floor) && world.is_touching(ball));
            assert_eq!(world.contacts().count(), 1, "step {step}");
            // Nothing changes: the pair stays, as the new kind.
            world.update();
            let stays: Vec<_> = world.events().to_vec();
            if report_stay {
                assert!(
                    matches!(stays[..], [CollisionEvent::Stay { manifold, .. }] if manifold.is_none() == sensor),
                    "step {step}: {stays:?}"
                );
            } else {
                assert!(stays.is_empty(), "step {step}: {stays:?}");
            }
        }
        // Setting the flag it already has changes nothing.
        world.set_sensor(floor, true).unwrap();
        world.update();
        assert!(world.ended().is_empty() && world.began().is_empty());
        // Toggled and toggled back before the update: the same kind, no events.
        world.set_sensor(floor, false).unwrap();
        world.set_sensor(floor, true).unwrap();
        world.update();
        assert!(world.ended().is_empty() && world.began().is_empty());
        // A ball that is itself a sensor: the pair stays a sensor pair whatever the floor is.
        world.set_sensor(ball, true).unwrap();
        world.set_sensor(floor, false).unwrap();
        world.update();
        assert!(world.ended().is_empty() && world.began().is_empty());
        // Made solid and moved apart in one step: it ends as the sensor pair it was.
        world.set_sensor(ball, false).unwrap();
        world
            .set_transform(ball, Transform::new(Vec2::new(0.0, 3.0), 0.0))
            .unwrap();
        world.update();
        assert!(world.began().is_empty());
        assert!(matches!(
            world.ended(),
            [CollisionEvent::End {
                reason: EndReason::Separated,
                sensor: true,
                ..
            }]
        ));
    }
}

/// A collider disabled, made the other kind and enabled again before the update, and one
/// made the other kind and then removed: the `End` says what a game must know.
#[test]
fn a_kind_change_with_a_disabling_or_a_removal_in_the_same_step() {
    let mut world = World::new();
    let ball = Shape::from(Circle::with_radius(0.5).unwrap());
    let a = world.insert(Collider::new(ball.clone())).unwrap();
    let b = world
        .insert(
            Collider::new(ball.clone()).with_transform(Transform::new(Vec2::new(0.9, 0.0), 0.0)),
        )
        .unwrap();
    let c = world
        .insert(Collider::new(ball).with_transform(Transform::new(Vec2::new(-0.9, 0.0), 0.0)))
        .unwrap();
    world.update();
    assert_eq!(world.began().len(), 2);
    world.set_enabled(b, false).unwrap();
    world.set_sensor(b, true).unwrap();
    world.set_enabled(b, true).unwrap();
    world.set_sensor(c, true).unwrap();
    world.remove(c).unwrap();
    world.update();
    let reasons: Vec<_> = world
        .events()
        .iter()
        .map(|e| (e.pair(), e.end_reason(), e.is_sensor()))
        .collect();
    assert_eq!(
        reasons,
        [
            ((a, b), Some(EndReason::SensorChanged), false),
            ((a, b), None, true),
            ((a, c), Some(EndReason::Removed), false),
        ]
    );
}

/// One seeded run: a crowd of every shape kind, a share `toggled` of them switching kind each
/// frame and a share moving; checks every frame against brute force and returns the events.
fn run(seed: u64, count: usize, frames: usize, toggled: f64, report_stay: bool) -> Vec<String> {
    let mut rng = Rng(seed);
    let spread = (count as f32).sqrt() * 0.45;
    let mut world = World::new();
    world.set_report_stay(report_stay);
    let handles: Vec<ColliderHandle> = (0..count)
        .map(|_| {
            let kind = ALL_KINDS[rng.below(ALL_KINDS.len())];
            let size = rng.range(0.3, 1.2);
            let at = Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread));
            let collider = Collider::new(random_shape(&mut rng, kind, size))
                .with_transform(Transform::new(at, rng.range(-3.0, 3.0)))
                .with_sensor(rng.chance(0.3))
                .with_user_data(rng.next_u64() % 1000);
            world.insert(collider).unwrap()
        })
        .collect();
    let mut open: BTreeMap<Pair, bool> = BTreeMap::new();
    let mut stream = Vec::new();
    for frame in 0..frames {
        let mut moves = Vec::new();
        for &h in &handles {
            let collider = world.get(h).unwrap();
            if rng.chance(toggled) {
                let sensor = !collider.is_sensor();
                world.set_sensor(h, sensor).unwrap();
            }
            if rng.chance(0.1) {
                let xf = world.get(h).unwrap().transform();
                moves.push((h, Transform::new(xf.p + rng.point(0.2), xf.angle())));
            }
        }
        world.set_transforms(&moves).unwrap();
        world.update();
        let sensor_now =
            |(a, b): Pair| world.get(a).unwrap().is_sensor() || world.get(b).unwrap().is_sensor();
        let mut begins_next = None;
        for event in world.events() {
            stream.push(format!("{event:?}"));
            let pair = event.pair();
            if let Some(changed) = begins_next.take() {
                assert!(
                    changed == pair && matches!(event, CollisionEvent::Begin { .. }),
                    "seed {seed} frame {frame}: {changed:?} changed kind, then {event:?}"
                );
            }
            match event {
                CollisionEvent::Begin { .. } => {
                    assert_eq!(event.is_sensor(), sensor_now(pair), "{event:?}");
                    assert!(open.insert(pair, event.is_sensor()).is_none(), "{event:?}");
                }
                CollisionEvent::Stay { .. } => {
                    assert_eq!(open.get(&pair), Some(&event.is_sensor()), "{event:?}");
                    assert_eq!(event.is_sensor(), sensor_now(pair), "{event:?}");
                }
                CollisionEvent::End { reason, .. } => {
                    assert_eq!(
                        open.remove(&pair),
                        Some(event.is_sensor()),
                        "seed {seed} frame {frame}: {event:?} closes a pair of the other kind"
                    );
                    if *reason == EndReason::SensorChanged {
                        assert_ne!(event.is_sensor(), sensor_now(pair), "{event:?}");
                        begins_next = Some(pair);
                    } else {
                        assert_eq!(*reason, EndReason::Separated, "{event:?}");
                    }
                }
            }
        }
        assert_eq!(begins_next, None, "seed {seed} frame {frame}");
        // Every touching pair is listed, each once, as its kind now.
        let listed: Vec<(Pair, bool)> = world
            .contacts()
            .map(|(a, b, manifold)| ((a, b), manifold.is_none()))
            .collect();
        let from_events: Vec<(Pair, bool)> = open.iter().map(|(&p, &s)| (p, s)).collect();
        assert_eq!(listed, from_events, "seed {seed} frame {frame}");
        if count <= 200 {
            let mut truth = BTreeSet::new();
            for (i, &a) in handles.iter().enumerate() {
                for &b in &handles[i + 1..] {
                    if touches(&world, world.get(a).unwrap(), world.get(b).unwrap()) {
                        truth.insert((a.min(b), a.max(b)));
                    }
                }
            }
            let open_pairs: BTreeSet<Pair> = open.keys().copied().collect();
            assert_eq!(open_pairs, truth, "seed {seed} frame {frame}: brute force");
        }
    }
    stream
}

#[test]
fn crowds_switching_kind_keep_every_pair_one_kind_from_begin_to_end() {
    for seed in 0..16 {
        let toggled = [0.02, 0.2, 0.6][seed as usize % 3];
        run(0x5e45 + seed, 120, 24, toggled, seed % 2 == 0);
    }
}

#[test]
fn a_large_crowd_switching_kind_gives_the_same_events_on_1_2_and_4_threads() {
    // Enough touching pairs and tests that the events merge splits over threads and writes in
    // place (from 16,384), with many pairs changing kind in every range.
    for report_stay in [true, false] {
        let reference = on_threads(1, || run(0x5e4e, 12_000, 4, 0.25, report_stay));
        assert!(reference.len() > 20_000, "{} events", reference.len());
        for threads in [2, 4] {
            let stream = on_threads(threads, || run(0x5e4e, 12_000, 4, 0.25, report_stay));
            assert!(
                stream == reference,
                "{threads} threads: another event stream"
            );
        }
    }
}
