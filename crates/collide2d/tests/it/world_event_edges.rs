//! Events at the edges a game reaches: a crowded world of every shape kind edited every frame
//! by every kind of edit at once (batched moves, teleports, inserts, removals, disabling,
//! layer, layer-matrix, group, sensor and shape changes, continuous colliders, origin shifts
//! and snapshot round trips), checked after each update against a model:
//!
//! - every `Begin` opens a pair that was not open, every `Stay` and `End` is of an open pair
//!   and of the kind (sensor or solid) it began as, and each `End` says why (`Removed` when one
//!   of the two was removed since the last update, disabled first or not, `Disabled` when one
//!   is disabled, `Filtered` when the layers or groups now keep them apart, `SensorChanged`
//!   when they touch as the other kind, then right after it the pair's `Begin` as that kind,
//!   `Separated` otherwise);
//! - the open pairs without a continuous collider are exactly the brute-force touching pairs;
//! - the whole stream is the same, bit for bit, on 1, 2 and 4 threads (feature `rayon`).

use crate::support::threads::on_threads;
use crate::support::{random_shape, touches, Rng, ALL_KINDS};

use collide2d::world::{
    Collider, ColliderHandle, CollisionEvent, CollisionGroups, EndReason, LayerId, World,
};
use collide2d::Transform;
use std::collections::{BTreeMap, BTreeSet};

type Pair = (ColliderHandle, ColliderHandle);

fn ordered(a: ColliderHandle, b: ColliderHandle) -> Pair {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

fn collider(rng: &mut Rng, layers: &[LayerId], spread: f32) -> Collider {
    let kind = rng.pick(&ALL_KINDS);
    let size = rng.range(0.3, 1.5);
    let shape = random_shape(rng, kind, size);
    Collider::new(shape)
        .with_transform(Transform::new(rng.point(spread), rng.angle()))
        .with_layer(rng.pick(layers))
        .with_sensor(rng.chance(0.1))
        .with_continuous(rng.chance(0.05))
}

/// The pairs touching now by the world's rules, among enabled colliders.
fn brute_force(world: &World) -> BTreeSet<Pair> {
    let colliders: Vec<(ColliderHandle, &Collider)> =
        world.iter().filter(|(_, c)| c.is_enabled()).collect();
    let mut pairs = BTreeSet::new();
    for (i, &(ha, a)) in colliders.iter().enumerate() {
        for &(hb, b) in &colliders[i + 1..] {
            if touches(world, a, b) {
                pairs.insert(ordered(ha, hb));
            }
        }
    }
    pairs
}

/// Whether the layers and groups let two colliders touch.
fn allowed(world: &World, a: &Collider, b: &Collider) -> bool {
    let (ga, gb) = (a.groups(), b.groups());
    world.layers().collides(a.layer(), b.layer())
        && ga.category & gb.mask != 0
        && gb.category & ga.mask != 0
}

/// One seeded run: `frames` frames of random edits of a world of `count` colliders, a share
/// `moving` of them moved each frame; returns every event's debug text, checking the model
/// along the way (the brute-force touching pairs only with `brute`: quadratic).
fn run(seed: u64, count: usize, frames: usize, moving: f64, brute: bool) -> Vec<String> {
    let mut rng = Rng(seed);
    let spread = (count as f32).sqrt() * 0.45;
    let mut world = World::new();
    world.set_report_stay(true);
    let layers = [
        LayerId::DEFAULT,
        world.layers_mut().add("one").unwrap(),
        world.layers_mut().add("two").unwrap(),
    ];
    let mut handles: Vec<ColliderHandle> = (0..count)
        .map(|_| world.insert(collider(&mut rng, &layers, spread)).unwrap())
        .collect();
    // Each open pair, and whether it began as a sensor pair.
    let mut open: BTreeMap<Pair, bool> = BTreeMap::new();
    let mut stream = Vec::new();
    for frame in 0..frames {
        let mut removed: BTreeSet<ColliderHandle> = BTreeSet::new();
        // A batch of moves, most small, some teleports.
        let mut moves: Vec<(ColliderHandle, Transform)> = Vec::new();
        for &h in &handles {
            if rng.chance(moving) {
                let xf = world.get(h).unwrap().transform();
                let step = if rng.chance(0.05) { spread } else { 0.2 };
                let at = xf.p + rng.point(step);
                moves.push((h, Transform::new(at, xf.angle() + rng.range(-0.3, 0.3))));
            }
        }
        world.set_transforms(&moves).unwrap();
        for _ in 0..rng.below(12) {
            let h = handles[rng.below(handles.len())];
            match rng.below(10) {
                0 => {
                    world.remove(h).unwrap();
                    removed.insert(h);
                    handles.retain(|&x| x != h);
                    handles.push(world.insert(collider(&mut rng, &layers, spread)).unwrap());
                }
                1 => {
                    let enabled = world.get(h).unwrap().is_enabled();
                    world.set_enabled(h, !enabled).unwrap();
                }
                2 => world.set_layer(h, rng.pick(&layers)).unwrap(),
                3 => {
                    let groups = CollisionGroups {
                        category: 1 << rng.below(3),
                        mask: if rng.chance(0.5) {
                            u32::MAX
                        } else {
                            1 << rng.below(3)
                        },
                    };
                    world.set_groups(h, groups).unwrap();
                }
                4 => {
                    let sensor = world.get(h).unwrap().is_sensor();
                    world.set_sensor(h, !sensor).unwrap();
                }
                5 => {
                    let kind = rng.pick(&ALL_KINDS);
                    let size = rng.range(0.3, 1.5);
                    let shape = random_shape(&mut rng, kind, size);
                    world.set_shape(h, shape).unwrap();
                }
                6 => {
                    let (a, b) = (rng.pick(&layers), rng.pick(&layers));
                    if rng.chance(0.5) {
                        world.layers_mut().disable(a, b);
                    } else {
                        world.layers_mut().enable(a, b);
                    }
                }
                _ => {}
            }
        }
        if frame % 7 == 3 {
            let shift = rng.point(spread);
            world.shift_origin(shift).unwrap();
        }
        #[cfg(feature = "serde")]
        if frame % 11 == 5 {
            world = World::restore(world.snapshot()).unwrap();
        }
        world.update();
        // A pair that changed kind: its `Begin` must come right after its `End`.
        let mut begins_next = None;
        for event in world.events() {
            stream.push(format!("{event:?}"));
            let (a, b) = event.pair();
            let pair = ordered(a, b);
            if let Some(changed) = begins_next.take() {
                assert!(
                    changed == pair && matches!(event, CollisionEvent::Begin { .. }),
                    "frame {frame}: {changed:?} changed kind, then {event:?}"
                );
            }
            // Whether the pair is a sensor pair now.
            let sensor_now = world.get(a).is_ok_and(|c| c.is_sensor())
                || world.get(b).is_ok_and(|c| c.is_sensor());
            match event {
                CollisionEvent::Begin { .. } => {
                    assert_eq!(event.is_sensor(), sensor_now, "frame {frame}: {event:?}");
                    assert!(
                        open.insert(pair, event.is_sensor()).is_none(),
                        "frame {frame}: Begin of an open pair {event:?}"
                    );
                }
                CollisionEvent::Stay { .. } => {
                    assert_eq!(
                        open.get(&pair),
                        Some(&event.is_sensor()),
                        "frame {frame}: Stay of a closed pair, or of the other kind {event:?}"
                    );
                }
                CollisionEvent::End { .. } => {
                    assert_eq!(
                        open.remove(&pair),
                        Some(event.is_sensor()),
                        "frame {frame}: End of a closed pair, or of the other kind {event:?}"
                    );
                    let reason = event.end_reason().unwrap();
                    if reason == EndReason::SensorChanged {
                        begins_next = Some(pair);
                    }
                    let gone = removed.contains(&a) || removed.contains(&b);
                    // Removed, also when disabled first this frame: the End says it is gone.
                    let expected: &[EndReason] = if gone {
                        &[EndReason::Removed]
                    } else {
                        let (ca, cb) = (world.get(a).unwrap(), world.get(b).unwrap());
                        if !ca.is_enabled() || !cb.is_enabled() {
                            &[EndReason::Disabled]
                        } else if !allowed(&world, ca, cb) {
                            // Filtered; also apart, perhaps, which may say either.
                            &[EndReason::Filtered, EndReason::Separated]
                        } else if event.is_sensor() != sensor_now {
                            // Still touching as the other kind, or apart.
                            &[EndReason::SensorChanged, EndReason::Separated]
                        } else {
                            &[EndReason::Separated]
                        }
                    };
                    assert!(
                        expected.contains(&reason),
                        "frame {frame}: {event:?} ends for {reason:?}, expected one of {expected:?}"
                    );
                }
            }
        }
        assert_eq!(
            begins_next, None,
            "frame {frame}: a changed kind never began"
        );
        if !brute {
            continue;
        }
        // Pairs without a continuous collider are open exactly when touching now.
        let truth = brute_force(&world);
        let plain = |&(a, b): &Pair| {
            !world.get(a).unwrap().is_continuous() && !world.get(b).unwrap().is_continuous()
        };
        let open_plain: BTreeSet<Pair> = open.keys().copied().filter(plain).collect();
        let truth_plain: BTreeSet<Pair> = truth.iter().copied().filter(plain).collect();
        assert_eq!(
            open_plain, truth_plain,
            "frame {frame}: open pairs against brute force"
        );
    }
    stream
}

#[test]
fn events_follow_every_edit_with_their_reasons_on_every_thread_count() {
    // Large enough that every parallel part of the update runs: 4,500 moves a frame (the
    // threaded moves start at 4,096), and tens of thousands of touching pairs (the threaded
    // events merge starts at 16,384).
    let reference = on_threads(1, || run(0xe7e7, 10_000, 5, 0.45, false));
    assert!(
        reference.len() > 50_000,
        "a busy world: {} events",
        reference.len()
    );
    for threads in [2, 4] {
        let stream = on_threads(threads, || run(0xe7e7, 10_000, 5, 0.45, false));
        assert!(
            stream == reference,
            "{threads} threads: another event stream"
        );
    }
}

#[test]
fn a_small_world_edited_every_frame_keeps_its_events_exact() {
    for seed in 0..12 {
        run(0x5e11 + seed, 60, 60, 0.3, true);
    }
}

/// A collider disabled and then removed before the update ended its pairs with
/// `EndReason::Disabled` and a dead handle, so a game reading `Disabled` looked the collider up
/// and found nothing. Every such pair now ends as `Removed`, whichever of the two is removed,
/// through `remove` or `remove_many`, and after a layer change as well.
#[test]
fn a_collider_disabled_or_filtered_then_removed_ends_its_pairs_as_removed() {
    let ball = || {
        Collider::new(collide2d::shape::Shape::from(
            collide2d::shape::Circle::with_radius(0.5).unwrap(),
        ))
    };
    for case in 0..8 {
        let mut world = World::new();
        let other_layer = world.layers_mut().add("other").unwrap();
        world.layers_mut().disable(LayerId::DEFAULT, other_layer);
        let a = world.insert(ball().with_user_data(1)).unwrap();
        let b = world
            .insert(
                ball()
                    .with_user_data(2)
                    .with_position(collide2d::Vec2::X * 0.6),
            )
            .unwrap();
        world.update();
        assert_eq!(world.began().len(), 1);
        // Which collider leaves first (by disabling or a layer change), which one is removed.
        let (first, removed) = match case % 4 {
            0 => (a, a),
            1 => (a, b),
            2 => (b, a),
            _ => (b, b),
        };
        if case < 4 {
            world.set_enabled(first, false).unwrap();
        } else {
            world.set_layer(first, other_layer).unwrap();
        }
        if case % 2 == 0 {
            world.remove(removed).unwrap();
        } else {
            world.remove_many(&[removed]).unwrap();
        }
        world.update();
        let ends: Vec<_> = world
            .ended()
            .iter()
            .map(|e| (e.pair(), e.end_reason()))
            .collect();
        assert_eq!(ends, [((a, b), Some(EndReason::Removed))], "case {case}");
        assert_eq!(world.events().len(), 1, "case {case}");
    }
}
