//! Model-based test of the world: random operations checked against a brute-force reference.

use crate::support;

use collide2d::query::collide;
use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, CollisionGroups, EndReason, LayerId,
    Layers, World, WorldError,
};
use collide2d::{Transform, Vec2};
use std::collections::{BTreeMap, BTreeSet};
use support::threads::on_threads;
use support::Rng;

/// What the reference remembers of each collider.
#[derive(Clone)]
struct Model {
    collider: Collider,
    /// Where a continuous collider's next sweep starts (its object transform at the last
    /// update, or when it was inserted, teleported or made continuous since).
    sweep_from: Transform,
}

impl Model {
    fn new(collider: Collider) -> Model {
        let sweep_from = collider.transform();
        Model {
            collider,
            sweep_from,
        }
    }
}

fn random_collider(rng: &mut Rng, layers: &[LayerId]) -> Collider {
    let shape = match rng.below(4) {
        0 => Shape::from(Circle::with_radius(rng.range(0.2, 1.0)).unwrap()),
        1 => Shape::from(Polygon::rect(rng.range(0.3, 2.0), rng.range(0.3, 2.0)).unwrap()),
        2 => Shape::from(Polygon::regular(3 + rng.below(5), rng.range(0.3, 1.0)).unwrap()),
        _ => Shape::from(
            collide2d::shape::Capsule::new(
                Vec2::ZERO,
                Vec2::new(rng.range(0.2, 1.5), 0.0),
                rng.range(0.1, 0.5),
            )
            .unwrap(),
        ),
    };
    let mut collider = Collider::new(shape)
        .with_transform(Transform::new(rng.point(6.0), rng.angle()))
        .with_layer(layers[rng.below(layers.len())])
        .with_sensor(rng.below(6) == 0);
    if rng.below(5) == 0 {
        collider = collider.with_offset(Transform::new(rng.point(0.5), rng.angle()));
    }
    if rng.below(8) == 0 {
        collider = collider.with_groups(CollisionGroups::new(
            1 << rng.below(3),
            0b101 | (1 << rng.below(3)),
        ));
    }
    collider
}

/// The pairs that touch, by brute force over every pair.
fn reference_pairs(
    world: &World,
    models: &BTreeMap<ColliderHandle, Model>,
) -> BTreeSet<(ColliderHandle, ColliderHandle)> {
    let mut touching = BTreeSet::new();
    let live: Vec<(&ColliderHandle, &Model)> = models
        .iter()
        .filter(|(_, m)| m.collider.is_enabled())
        .collect();
    for i in 0..live.len() {
        for j in i + 1..live.len() {
            let (ha, a) = (live[i].0, &live[i].1.collider);
            let (hb, b) = (live[j].0, &live[j].1.collider);
            if support::touches(world, a, b) {
                touching.insert((*ha, *hb));
            }
        }
    }
    touching
}

/// Every kind of broad phase, as the model tests run them.
const BROAD_PHASES: [BroadPhaseKind; 3] = [
    BroadPhaseKind::Tree,
    BroadPhaseKind::Grid { cell_size: 1.5 },
    BroadPhaseKind::SweepAndPrune,
];

/// A random sequence of operations and updates on a world, every update checked against the
/// brute-force reference; returns a digest of the event stream. With `continuous`, a third of
/// the colliders are continuous and continuous-only operations (teleports, swept moves,
/// switching the setting) join in; the checks then allow the pairs their sweeps add.
fn run_scenario(seed: u64, kind: BroadPhaseKind, operations: usize, continuous: bool) -> u64 {
    let mut rng = Rng(seed);
    let mut world = World::with_broad_phase(kind).unwrap();
    let mut layers = vec![LayerId::DEFAULT];
    for name in ["Player", "Monster", "Bullet"] {
        layers.push(world.layers_mut().add(name).unwrap());
    }
    let mut models: BTreeMap<ColliderHandle, Model> = BTreeMap::new();
    let mut previous: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
    // The pairs touching at the end of the last update's step (with `continuous`, `previous`
    // also holds the pairs a sweep passed through).
    let mut previous_at_end: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
    let mut open: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
    let mut removed: Vec<ColliderHandle> = Vec::new();
    // Whole layer settings a game keeps and assigns through `layers_mut()`.
    let mut presets: Vec<Layers> = Vec::new();
    let mut digest = 0xcbf29ce484222325u64;
    // What the events carry besides their pairs: each collider's user data (kept after its
    // removal), whether each touching pair was a sensor pair at the last update, and why a
    // pair detached since then will end (first cause wins; a pair detached by disabling whose
    // collider came back may end for any reason, by its re-test or its detachment).
    let mut data_of: BTreeMap<ColliderHandle, u64> = BTreeMap::new();
    let mut sensor_at_last: BTreeMap<(ColliderHandle, ColliderHandle), bool> = BTreeMap::new();
    let mut causes: BTreeMap<(ColliderHandle, ColliderHandle), EndReason> = BTreeMap::new();
    let mut uncertain: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
    let detach = |h: ColliderHandle,
                  reason: EndReason,
                  previous: &BTreeSet<(ColliderHandle, ColliderHandle)>,
                  causes: &mut BTreeMap<(ColliderHandle, ColliderHandle), EndReason>,
                  uncertain: &BTreeSet<(ColliderHandle, ColliderHandle)>| {
        for &pair in previous.iter().filter(|p| p.0 == h || p.1 == h) {
            if !uncertain.contains(&pair) {
                causes.entry(pair).or_insert(reason);
            }
        }
    };
    for step in 0..operations {
        let handles: Vec<ColliderHandle> = models.keys().copied().collect();
        let pick = |rng: &mut Rng| handles[rng.below(handles.len())];
        match rng.below(10) {
            0 | 1 if models.len() < 40 => {
                let collider = random_collider(&mut rng, &layers);
                let collider = if continuous && rng.below(3) == 0 {
                    collider.with_continuous(true)
                } else {
                    collider
                };
                let collider = collider.with_user_data(step as u64 + 1);
                let handle = world.insert(collider.clone()).unwrap();
                data_of.insert(handle, step as u64 + 1);
                models.insert(handle, Model::new(collider));
            }
            2 if !handles.is_empty() => {
                let h = pick(&mut rng);
                let xf = Transform::new(rng.point(6.0), rng.angle());
                world.set_transform(h, xf).unwrap();
                let m = models.get_mut(&h).unwrap();
                m.collider = m.collider.clone().with_transform(xf);
            }
            3 if !handles.is_empty() => {
                // Several at once, the same collider possibly twice (the last move wins).
                let moves: Vec<(ColliderHandle, Transform)> = (0..1 + rng.below(4))
                    .map(|_| (pick(&mut rng), Transform::new(rng.point(6.0), rng.angle())))
                    .collect();
                world.set_transforms(&moves).unwrap();
                for (h, xf) in moves {
                    let m = models.get_mut(&h).unwrap();
                    m.collider = m.collider.clone().with_transform(xf);
                }
            }
            4 if !handles.is_empty() => {
                let h = pick(&mut rng);
                world.remove(h).unwrap();
                if models[&h].collider.is_enabled() {
                    detach(h, EndReason::Removed, &previous, &mut causes, &uncertain);
                }
                // Disabled since the last update and now removed: its pairs end as removals.
                for (pair, cause) in causes.iter_mut() {
                    if pair.0 == h || pair.1 == h {
                        *cause = EndReason::Removed;
                    }
                }
                models.remove(&h);
                removed.push(h);
            }
            5 if !handles.is_empty() => {
                let h = pick(&mut rng);
                let enabled = rng.below(2) == 0;
                world.set_enabled(h, enabled).unwrap();
                match (models[&h].collider.is_enabled(), enabled) {
                    (true, false) => {
                        detach(h, EndReason::Disabled, &previous, &mut causes, &uncertain)
                    }
                    (false, true) => {
                        let back: Vec<_> = causes
                            .keys()
                            .filter(|p| p.0 == h || p.1 == h)
                            .copied()
                            .collect();
                        for pair in back {
                            causes.remove(&pair);
                            uncertain.insert(pair);
                        }
                    }
                    _ => {}
                }
                let m = models.get_mut(&h).unwrap();
                m.collider = m.collider.clone().with_enabled(enabled);
            }
            6 if !handles.is_empty() => {
                let h = pick(&mut rng);
                let layer = layers[rng.below(layers.len())];
                world.set_layer(h, layer).unwrap();
                let m = models.get_mut(&h).unwrap();
                m.collider = m.collider.clone().with_layer(layer);
            }
            7 => {
                let (a, b) = (layers[rng.below(4)], layers[rng.below(4)]);
                match rng.below(4) {
                    // A preset: a copy of the current layers with one more edit, so that two
                    // presets often differ by as many edits from where they started.
                    0 => {
                        let mut preset = world.layers().clone();
                        if preset.collides(a, b) {
                            preset.disable(a, b);
                        } else {
                            preset.enable(a, b);
                        }
                        presets.push(preset);
                    }
                    1 if !presets.is_empty() => {
                        *world.layers_mut() = presets[rng.below(presets.len())].clone();
                    }
                    2 => world.layers_mut().disable(a, b),
                    _ => world.layers_mut().enable(a, b),
                }
            }
            8 if continuous && !handles.is_empty() && rng.below(2) == 0 => {
                let h = pick(&mut rng);
                let xf = Transform::new(rng.point(6.0), rng.angle());
                let m = models.get_mut(&h).unwrap();
                match rng.below(3) {
                    0 => {
                        world.teleport(h, xf).unwrap();
                        m.sweep_from = xf;
                    }
                    1 => {
                        world.sweep_to(h, xf).unwrap();
                    }
                    _ => {
                        let on = rng.below(2) == 0;
                        world.set_continuous(h, on).unwrap();
                        if on && !m.collider.is_continuous() {
                            m.sweep_from = m.collider.transform();
                        }
                        m.collider = m.collider.clone().with_continuous(on);
                    }
                }
                m.collider = m
                    .collider
                    .clone()
                    .with_transform(world.get(h).unwrap().transform());
            }
            8 if !removed.is_empty() => {
                // Stale handles are refused and change nothing.
                let stale = removed[rng.below(removed.len())];
                assert_eq!(
                    world.set_transform(stale, Transform::IDENTITY),
                    Err(WorldError::StaleHandle(stale))
                );
                assert!(world.remove(stale).is_err());
                // A batch with a stale handle or a bad transform moves nothing.
                if let Some(&live) = handles.first() {
                    let before = world.get(live).unwrap().transform();
                    let away = Transform::new(Vec2::new(50.0, 50.0), 0.0);
                    assert_eq!(
                        world.set_transforms(&[(live, away), (stale, away)]),
                        Err(WorldError::StaleHandle(stale))
                    );
                    let nan = Transform::new(Vec2::new(f32::NAN, 0.0), 0.0);
                    assert!(world.set_transforms(&[(live, away), (live, nan)]).is_err());
                    assert_eq!(world.get(live).unwrap().transform(), before);
                }
            }
            _ => {
                // Stay events are switched off now and then; Begin and End must not change.
                let report_stay = rng.below(4) != 0;
                world.set_report_stay(report_stay);
                let events = {
                    world.update();
                    world.events()
                }
                .to_vec();
                assert_eq!(world.events(), &events[..], "seed {seed} step {step}");
                let at_end = reference_pairs(&world, &models);
                let contacts: BTreeSet<_> = world.contacts().map(|(a, b, _)| (a, b)).collect();
                let now = if continuous {
                    check_swept_pairs(
                        &world,
                        &models,
                        (&at_end, &contacts),
                        &previous_at_end,
                        &events,
                    )
                    .unwrap_or_else(|problem| {
                        panic!("seed {seed} step {step} ({kind:?}): {problem}")
                    });
                    for model in models.values_mut() {
                        model.sweep_from = model.collider.transform();
                    }
                    contacts.clone()
                } else {
                    at_end.clone()
                };
                assert_eq!(
                    contacts, now,
                    "seed {seed} step {step} ({kind:?}): contacts"
                );
                let mut began = BTreeSet::new();
                let mut ended = BTreeSet::new();
                let mut stayed = BTreeSet::new();
                let mut last: Option<(ColliderHandle, ColliderHandle)> = None;
                for event in &events {
                    let pair = event.pair();
                    assert!(pair.0 < pair.1, "seed {seed} step {step}: unordered pair");
                    assert!(
                        last.is_none_or(|l| l < pair),
                        "seed {seed} step {step}: events not sorted"
                    );
                    last = Some(pair);
                    match event {
                        CollisionEvent::Begin { user_data, .. } => {
                            assert!(
                                open.insert(pair),
                                "seed {seed} step {step}: two Begins without an End"
                            );
                            began.insert(pair);
                            assert_eq!(*user_data, [data_of[&pair.0], data_of[&pair.1]]);
                            let sensor = models[&pair.0].collider.is_sensor()
                                || models[&pair.1].collider.is_sensor();
                            assert_eq!(event.is_sensor(), sensor, "seed {seed} step {step}");
                        }
                        CollisionEvent::End {
                            reason,
                            sensor,
                            user_data,
                            ..
                        } => {
                            assert!(
                                open.remove(&pair),
                                "seed {seed} step {step}: End without Begin"
                            );
                            ended.insert(pair);
                            assert_eq!(*user_data, [data_of[&pair.0], data_of[&pair.1]]);
                            assert_eq!(
                                Some(sensor),
                                sensor_at_last.get(&pair),
                                "seed {seed} step {step}: End's sensor flag"
                            );
                            let expected = match causes.get(&pair) {
                                Some(&cause) => Some(cause),
                                None if uncertain.contains(&pair) => None,
                                None => Some(support::reason_they_stop(
                                    &world,
                                    &models[&pair.0].collider,
                                    &models[&pair.1].collider,
                                )),
                            };
                            if let Some(expected) = expected {
                                assert_eq!(
                                    *reason, expected,
                                    "seed {seed} step {step} ({kind:?}): End reason of {pair:?}"
                                );
                            }
                        }
                        CollisionEvent::Stay { .. } => {
                            stayed.insert(pair);
                        }
                    }
                    digest = (digest
                        ^ format!("{event:?}").len() as u64
                        ^ (pair.0.index() as u64) << 20
                        ^ pair.1.index() as u64)
                        .wrapping_mul(0x100000001b3);
                }
                let expected_began: BTreeSet<_> = now.difference(&previous).copied().collect();
                let expected_ended: BTreeSet<_> = previous.difference(&now).copied().collect();
                let expected_stayed: BTreeSet<_> = now.intersection(&previous).copied().collect();
                assert_eq!(
                    began, expected_began,
                    "seed {seed} step {step} ({kind:?}): Begin"
                );
                assert_eq!(
                    ended, expected_ended,
                    "seed {seed} step {step} ({kind:?}): End"
                );
                if report_stay {
                    assert_eq!(
                        stayed, expected_stayed,
                        "seed {seed} step {step} ({kind:?}): Stay"
                    );
                } else {
                    assert!(stayed.is_empty(), "seed {seed} step {step}: Stay while off");
                }
                assert_eq!(open, now);
                let changes = |begin: bool| -> Vec<CollisionEvent> {
                    events
                        .iter()
                        .filter(|e| match e {
                            CollisionEvent::Begin { .. } => begin,
                            CollisionEvent::End { .. } => !begin,
                            CollisionEvent::Stay { .. } => false,
                        })
                        .copied()
                        .collect()
                };
                assert_eq!(world.began(), &changes(true)[..]);
                assert_eq!(world.ended(), &changes(false)[..]);
                sensor_at_last = world
                    .contacts()
                    .map(|(a, b, manifold)| ((a, b), manifold.is_none()))
                    .collect();
                for &(a, b) in &now {
                    let contacts_of: Vec<_> =
                        world.contacts_of(a).map(|(x, y, _)| (x, y)).collect();
                    assert!(contacts_of.contains(&(a, b)), "seed {seed} step {step}");
                    assert!(world.contacts_of(b).any(|(x, y, _)| (x, y) == (a, b)));
                }
                causes.clear();
                uncertain.clear();
                previous = now;
                previous_at_end = at_end;
            }
        }
    }
    digest
}

#[test]
fn events_match_brute_force_for_every_broad_phase() {
    for (k, kind) in BROAD_PHASES.into_iter().enumerate() {
        for scenario in 0..400 {
            run_scenario(0x3000 + scenario * 7 + k as u64, kind, 250, false);
        }
    }
}

#[test]
fn a_layer_preset_assigned_whole_ends_the_pairs_it_filters() {
    for kind in BROAD_PHASES {
        let mut world = World::with_broad_phase(kind).unwrap();
        let player = world.layers_mut().add("Player").unwrap();
        let enemy = world.layers_mut().add("Enemy").unwrap();
        let ball = Shape::from(Circle::with_radius(1.0).unwrap());
        let p = world
            .insert(Collider::new(ball.clone()).with_layer(player))
            .unwrap();
        let e = world
            .insert(
                Collider::new(ball)
                    .with_layer(enemy)
                    .with_transform(Transform::new(Vec2::new(1.5, 0.0), 0.0)),
            )
            .unwrap();
        // Two presets made by one edit each from the same layers.
        let mut friendly = world.layers().clone();
        friendly.disable(player, enemy);
        let mut hostile = world.layers().clone();
        hostile.disable(enemy, enemy);
        *world.layers_mut() = hostile;
        assert!(
            matches!({ world.update(); world.events() }, [CollisionEvent::Begin { a, b, .. }] if (*a, *b) == (p, e))
        );
        *world.layers_mut() = friendly;
        assert!(
            matches!({ world.update(); world.events() }, [CollisionEvent::End { a, b, .. }] if (*a, *b) == (p, e)),
            "{kind:?}: {:?}",
            world.events()
        );
        assert_eq!(world.contacts().count(), 0);
    }
}

#[test]
fn the_same_operations_give_the_same_events_on_1_2_and_4_threads() {
    for scenario in 0..20 {
        let digests: Vec<u64> = [1, 2, 4]
            .into_iter()
            .map(|threads| {
                on_threads(threads, || {
                    run_scenario(
                        0x9100 + scenario,
                        BroadPhaseKind::Tree,
                        250,
                        scenario % 2 == 1,
                    )
                })
            })
            .collect();
        assert_eq!(
            digests[0], digests[1],
            "scenario {scenario}: 1 and 2 threads"
        );
        assert_eq!(
            digests[0], digests[2],
            "scenario {scenario}: 1 and 4 threads"
        );
    }
}

/// A crowd of random colliders for [`crowd_events`].
#[derive(Clone, Copy)]
struct Crowd<'a> {
    colliders: usize,
    /// The side of the square the colliders start in.
    side: f32,
    /// In frame `i`, a share `shares[i % shares.len()]` of the colliders moves.
    shares: &'a [f32],
    /// How far a moving collider goes at most along each axis (it also turns).
    step: f32,
}

/// The events of `crowd`, before and after each of `frames` frames (one `set_transforms`
/// batch each, in which every 97th moved collider moves twice).
fn crowd_events(kind: BroadPhaseKind, crowd: Crowd, frames: usize) -> Vec<Vec<CollisionEvent>> {
    let Crowd {
        colliders,
        side,
        shares,
        step,
    } = crowd;
    let mut rng = Rng(0x1a_c4d5);
    let mut world = World::with_broad_phase(kind).unwrap();
    let layers = [LayerId::DEFAULT];
    let handles: Vec<ColliderHandle> = (0..colliders)
        .map(|_| {
            let collider = random_collider(&mut rng, &layers)
                .with_transform(Transform::new(rng.point(side), rng.angle()));
            world.insert(collider).unwrap()
        })
        .collect();
    world.update();
    let mut events = vec![world.events().to_vec()];
    for frame in 0..frames {
        let share = shares[frame % shares.len()];
        let mut moves = Vec::new();
        for &handle in &handles {
            if rng.range(0.0, 1.0) < share {
                let placement = world.get(handle).unwrap().transform();
                moves.push((
                    handle,
                    Transform::new(placement.p + rng.point(step), rng.angle()),
                ));
            }
        }
        // Some colliders move twice in the batch: the second move is the one that counts.
        let again: Vec<_> = moves
            .iter()
            .step_by(97)
            .map(|&(handle, xf)| (handle, Transform::new(xf.p + rng.point(step), rng.angle())))
            .collect();
        moves.extend(again);
        world.set_transforms(&moves).unwrap();
        world.update();
        events.push(world.events().to_vec());
    }
    events
}

/// Asserts that `crowd` gives the same events with the tree on 1, 2 and 4 threads and with the
/// grid (which finds its pairs another way), and at least `least_events` events in all.
fn assert_crowd_agrees(crowd: Crowd, least_events: usize) {
    let frames = 4 * crowd.shares.len();
    let tree = |threads| {
        on_threads(threads, || {
            crowd_events(BroadPhaseKind::Tree, crowd, frames)
        })
    };
    let serial = tree(1);
    let grid = on_threads(1, || {
        crowd_events(BroadPhaseKind::Grid { cell_size: 2.0 }, crowd, frames)
    });
    assert!(serial == grid, "tree and grid differ");
    let events: usize = serial.iter().map(Vec::len).sum();
    assert!(events > least_events, "only {events} events");
    for threads in [2, 4] {
        let parallel = tree(threads);
        for (frame, (one, many)) in serial.iter().zip(&parallel).enumerate() {
            assert!(one == many, "frame {frame}: 1 and {threads} threads differ");
        }
    }
}

/// A crowd large enough for every parallel part of the update (thousands of moved colliders
/// and narrow-phase tests each frame; between a quarter and a half moving, so the tree takes
/// its incremental refresh, and every collider moving, so it finds pairs from scratch): the
/// same events, manifolds included, on 1, 2 and 4 threads and with the grid broad phase.
#[test]
fn a_large_crowd_gives_the_same_events_on_1_2_and_4_threads() {
    let crowd = Crowd {
        colliders: 16_000,
        side: 260.0,
        shares: &[0.3, 0.45, 1.0],
        step: 0.4,
    };
    assert_crowd_agrees(crowd, 20_000);
}

/// A larger crowd with a fifth moving (thousands of changed colliders, under a quarter of all):
/// the pairs to re-test are listed and sorted in parts, and (the moves being long) the partner
/// lists follow thousands of pair changes in slot ranges, on 2 and 4 threads; a tenth moving
/// in between takes the serial path. The same events on 1, 2 and 4 threads and with the grid.
#[test]
fn a_larger_crowd_with_a_fifth_moving_gives_the_same_events_on_1_2_and_4_threads() {
    let crowd = Crowd {
        colliders: 24_000,
        side: 200.0,
        shares: &[0.2, 0.2, 0.1],
        step: 1.5,
    };
    assert_crowd_agrees(crowd, 100_000);
}

/// A world after large `set_transforms` batches on `threads` threads (from 4,096 moves a batch
/// is checked, and written in slot ranges, on several threads; most moves leave their fat
/// boxes, a fifth of the colliders, so the tree's fat-partner queries also run in parts and
/// the refresh stays incremental): batches in random handle
/// order with some colliders moved twice, a batch refused for a stale handle near its end and
/// one for a bad transform in its middle. Checks that each accepted batch leaves every
/// collider at its last move and that a refused one changes nothing, and returns the errors,
/// the transforms and the events of each frame.
fn world_after_large_batches(threads: usize) -> Vec<String> {
    on_threads(threads, || {
        let mut rng = Rng(0x5e7_7a5);
        let mut world = World::new();
        let layers = [LayerId::DEFAULT];
        let mut handles: Vec<ColliderHandle> = (0..30_000)
            .map(|_| {
                let collider = random_collider(&mut rng, &layers)
                    .with_transform(Transform::new(rng.point(150.0), rng.angle()));
                world.insert(collider).unwrap()
            })
            .collect();
        // Removed and inserted again: slots of a later generation, and stale handles.
        let stale: Vec<ColliderHandle> = handles.iter().step_by(50).copied().collect();
        for &handle in &stale {
            world.remove(handle).unwrap();
        }
        handles.retain(|handle| world.contains(*handle));
        for _ in 0..stale.len() {
            let collider = random_collider(&mut rng, &layers)
                .with_transform(Transform::new(rng.point(150.0), rng.angle()));
            handles.push(world.insert(collider).unwrap());
        }
        world.update();
        let transforms = |world: &World| -> Vec<(Transform, Transform)> {
            handles
                .iter()
                .map(|&handle| {
                    let collider = world.get(handle).unwrap();
                    (collider.transform(), collider.world_transform())
                })
                .collect()
        };
        let mut report = vec![format!("{:?}", world.events())];
        for batch in 0..6 {
            let mut moves: Vec<(ColliderHandle, Transform)> = (0..6_000)
                .map(|_| {
                    let handle = handles[rng.below(handles.len())];
                    let placement = world.get(handle).unwrap().transform();
                    (
                        handle,
                        Transform::new(placement.p + rng.point(1.5), rng.angle()),
                    )
                })
                .collect();
            let before = transforms(&world);
            if batch % 3 == 1 {
                if batch == 1 {
                    moves[5_900].0 = stale[3];
                } else {
                    moves[3_000].1.p.x = f32::NAN;
                }
                let error = world.set_transforms(&moves).expect_err("a refused move");
                assert!(
                    transforms(&world) == before,
                    "batch {batch}: a refused batch moved"
                );
                report.push(format!("refused: {error:?}"));
                continue;
            }
            world.set_transforms(&moves).unwrap();
            let mut last_move = BTreeMap::new();
            for &(handle, xf) in &moves {
                last_move.insert(handle, xf);
            }
            for (&handle, &(xf, _)) in handles.iter().zip(&before) {
                let expected = last_move.get(&handle).copied().unwrap_or(xf);
                assert_eq!(world.get(handle).unwrap().transform(), expected);
            }
            world.update();
            report.push(format!("{:?}", transforms(&world)));
            report.push(format!("{:?}", world.events()));
        }
        report
    })
}

#[test]
fn large_move_batches_give_the_same_world_and_events_on_1_2_and_4_threads() {
    let serial = world_after_large_batches(1);
    assert_eq!(
        serial
            .iter()
            .filter(|line| line.starts_with("refused"))
            .count(),
        2
    );
    for threads in [2, 4] {
        let parallel = world_after_large_batches(threads);
        for (step, (one, many)) in serial.iter().zip(&parallel).enumerate() {
            assert!(one == many, "step {step}: 1 and {threads} threads differ");
        }
    }
}

#[test]
fn the_same_operations_give_the_same_events() {
    for scenario in 0..50 {
        let first = run_scenario(0x77 + scenario, BroadPhaseKind::Tree, 250, false);
        let second = run_scenario(0x77 + scenario, BroadPhaseKind::Tree, 250, false);
        assert_eq!(first, second);
        // And the broad phase does not change them.
        let grid = run_scenario(
            0x77 + scenario,
            BroadPhaseKind::Grid { cell_size: 2.0 },
            250,
            false,
        );
        assert_eq!(first, grid);
    }
}

#[test]
fn continuous_colliders_keep_every_event_rule_and_the_same_events_in_every_broad_phase() {
    for scenario in 0..150 {
        let digests: Vec<u64> = BROAD_PHASES
            .into_iter()
            .map(|kind| run_scenario(0x5000 + scenario, kind, 250, true))
            .collect();
        assert_eq!(digests[0], digests[1], "scenario {scenario}: tree and grid");
        assert_eq!(
            digests[0], digests[2],
            "scenario {scenario}: tree and sweep-and-prune"
        );
    }
}

/// A set of collider pairs, `a < b`.
type PairSet = BTreeSet<(ColliderHandle, ColliderHandle)>;

/// Whether the world's filters let two colliders touch.
fn allowed(world: &World, a: &Collider, b: &Collider) -> bool {
    let (groups_a, groups_b) = (a.groups(), b.groups());
    let (cat_a, mask_a) = (groups_a.category, groups_a.mask);
    let (cat_b, mask_b) = (groups_b.category, groups_b.mask);
    a.is_enabled()
        && b.is_enabled()
        && world.layers().collides(a.layer(), b.layer())
        && cat_a & mask_b != 0
        && cat_b & mask_a != 0
}

/// The placement of a model's shape at time `t` of its sweep since the last update (its
/// object's origin on a straight line, turning the shortest way), or where it is when it does
/// not sweep.
fn swept_placement(model: &Model, t: f32) -> Transform {
    let end = model.collider.transform();
    if !model.collider.is_continuous() || !model.collider.is_enabled() {
        return model.collider.world_transform();
    }
    let start = model.sweep_from;
    let turn = {
        use std::f32::consts::{PI, TAU};
        (end.angle() - start.angle() + PI).rem_euclid(TAU) - PI
    };
    Transform::new(start.p + (end.p - start.p) * t, start.angle() + turn * t)
        .mul(&model.collider.offset())
}

/// The checks of an update with continuous colliders:
/// - every pair touching at the end of the step touches;
/// - a touching pair that does not touch at the end involves a continuous collider, is allowed
///   by the filters, and its `Begin` (if this update's) carries a time of impact;
/// - no crossing is missed: a pair that did not touch at the end of the last step and whose
///   shapes overlap by more than 1e-3 somewhere along this step (sampled) touches.
///
/// Returns a description of the first rule broken.
fn check_swept_pairs(
    world: &World,
    models: &BTreeMap<ColliderHandle, Model>,
    (at_end, contacts): (&PairSet, &PairSet),
    previous_at_end: &PairSet,
    events: &[CollisionEvent],
) -> Result<(), String> {
    if let Some(missing) = at_end.difference(contacts).next() {
        return Err(format!(
            "{missing:?} touches at the end but is not a contact"
        ));
    }
    for pair in contacts.difference(at_end) {
        let (a, b) = (&models[&pair.0].collider, &models[&pair.1].collider);
        if !(a.is_continuous() || b.is_continuous()) {
            return Err(format!(
                "{pair:?} is a contact without touching or sweeping"
            ));
        }
        if !allowed(world, a, b) {
            return Err(format!("{pair:?} is a contact of a filtered pair"));
        }
    }
    for event in events {
        if let CollisionEvent::Begin { time_of_impact, .. } = event {
            let pair = event.pair();
            let (a, b) = (&models[&pair.0].collider, &models[&pair.1].collider);
            if !allowed(world, a, b) {
                return Err(format!("Begin of filtered pair {pair:?}"));
            }
            if !at_end.contains(&pair) && time_of_impact.is_none() {
                return Err(format!("swept Begin {pair:?} without a time of impact"));
            }
        }
    }
    let handles: Vec<ColliderHandle> = models.keys().copied().collect();
    for (i, &ha) in handles.iter().enumerate() {
        for &hb in &handles[i + 1..] {
            let (ma, mb) = (&models[&ha], &models[&hb]);
            let (a, b) = (&ma.collider, &mb.collider);
            let sweeping = |m: &Model| {
                m.collider.is_continuous()
                    && m.collider.is_enabled()
                    && m.sweep_from != m.collider.transform()
            };
            if !(sweeping(ma) || sweeping(mb))
                || !allowed(world, a, b)
                || previous_at_end.contains(&(ha, hb))
                || contacts.contains(&(ha, hb))
            {
                continue;
            }
            for sample in 0..=64 {
                let t = sample as f32 / 64.0;
                let (xa, xb) = (swept_placement(ma, t), swept_placement(mb, t));
                if collide(a.shape(), &xa, b.shape(), &xb).max_penetration() > 1e-3 {
                    return Err(format!("{:?} crossed at t = {t} and was missed", (ha, hb)));
                }
            }
        }
    }
    Ok(())
}

/// Every touching pair of a crowd by brute force, with each pair's boxes (computed here from
/// the shapes) tested first so that hundreds of colliders stay quick.
fn crowd_reference(world: &World) -> BTreeSet<(ColliderHandle, ColliderHandle)> {
    let colliders: Vec<(ColliderHandle, &Collider, collide2d::Aabb)> = world
        .iter()
        .map(|(handle, collider)| {
            let aabb = collider.shape().aabb(&collider.world_transform());
            (handle, collider, aabb)
        })
        .collect();
    let mut touching = BTreeSet::new();
    for (i, &(ha, a, box_a)) in colliders.iter().enumerate() {
        for &(hb, b, box_b) in &colliders[i + 1..] {
            let (groups_a, groups_b) = (a.groups(), b.groups());
            let (cat_a, mask_a) = (groups_a.category, groups_a.mask);
            let (cat_b, mask_b) = (groups_b.category, groups_b.mask);
            if !box_a.overlaps(&box_b) || cat_a & mask_b == 0 || cat_b & mask_a == 0 {
                continue;
            }
            let (xa, xb) = (a.world_transform(), b.world_transform());
            if !collide(a.shape(), &xa, b.shape(), &xb).is_empty() {
                touching.insert((ha.min(hb), ha.max(hb)));
            }
        }
    }
    touching
}

#[test]
fn crowds_where_most_colliders_move_match_brute_force() {
    // Hundreds of colliders, 30 % to 100 % of them moving each frame, some removed and
    // inserted: the broad phases switch between finding pairs incrementally and from scratch.
    for kind in BROAD_PHASES {
        let mut rng = Rng(0x00c2_0bd5);
        let mut world = World::with_broad_phase(kind).unwrap();
        let layers = [LayerId::DEFAULT];
        let mut handles: Vec<ColliderHandle> = (0..320)
            .map(|_| {
                let collider = random_collider(&mut rng, &layers)
                    .with_transform(Transform::new(rng.point(14.0), rng.angle()));
                world.insert(collider).unwrap()
            })
            .collect();
        let mut previous = BTreeSet::new();
        for frame in 0..24 {
            let share = [0.3, 0.6, 1.0][frame % 3];
            let mut moves = Vec::new();
            for &handle in &handles {
                if rng.range(0.0, 1.0) < share {
                    let placement = world.get(handle).unwrap().transform();
                    let step = Transform::new(placement.p + rng.point(0.3), rng.angle());
                    moves.push((handle, step));
                }
            }
            if frame % 2 == 0 {
                world.set_transforms(&moves).unwrap();
            } else {
                for &(handle, step) in &moves {
                    world.set_transform(handle, step).unwrap();
                }
            }
            if frame % 4 == 3 {
                for _ in 0..5 {
                    let handle = handles.swap_remove(rng.below(handles.len()));
                    world.remove(handle).unwrap();
                }
                for _ in 0..4 {
                    let collider = random_collider(&mut rng, &layers)
                        .with_transform(Transform::new(rng.point(14.0), rng.angle()));
                    handles.push(world.insert(collider).unwrap());
                }
            }
            let events = {
                world.update();
                world.events()
            }
            .to_vec();
            let now = crowd_reference(&world);
            let (mut began, mut ended, mut stayed) =
                (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
            for event in &events {
                let set = match event {
                    CollisionEvent::Begin { .. } => &mut began,
                    CollisionEvent::End { .. } => &mut ended,
                    CollisionEvent::Stay { .. } => &mut stayed,
                };
                assert!(set.insert(event.pair()), "{kind:?} frame {frame}: twice");
            }
            let context = format!("{kind:?} frame {frame}");
            assert_eq!(began, &now - &previous, "{context}: Begin");
            assert_eq!(ended, &previous - &now, "{context}: End");
            assert_eq!(stayed, &now & &previous, "{context}: Stay");
            previous = now;
        }
    }
}

/// Identical colliders stacked at one point (every pair touches): every broad phase reports the
/// brute-force set, the second update (nothing moved) only `Stay`, and pulling colliders out of
/// the pile and back ends and begins exactly their pairs.
#[test]
fn stacked_identical_colliders_match_brute_force() {
    let n = 300;
    for kind in BROAD_PHASES {
        let mut world = World::with_broad_phase(kind).unwrap();
        let shape = Shape::from(Polygon::rect(1.0, 0.6).unwrap());
        let at = Transform::new(Vec2::new(2.0, -1.0), 0.3);
        let handles: Vec<ColliderHandle> = (0..n)
            .map(|i| {
                let collider = Collider::new(shape.clone())
                    .with_transform(at)
                    .with_sensor(i % 3 == 0);
                world.insert(collider).unwrap()
            })
            .collect();
        let all = crowd_reference(&world);
        assert_eq!(all.len(), n * (n - 1) / 2, "{kind:?}: the pile");
        let kinds = |events: &[CollisionEvent]| {
            let mut count = [0usize; 3];
            for event in events {
                count[match event {
                    CollisionEvent::Begin { .. } => 0,
                    CollisionEvent::Stay { .. } => 1,
                    CollisionEvent::End { .. } => 2,
                }] += 1;
            }
            count
        };
        let first = {
            world.update();
            world.events()
        }
        .to_vec();
        assert_eq!(kinds(&first), [all.len(), 0, 0], "{kind:?}: first update");
        let pairs: BTreeSet<_> = first.iter().map(CollisionEvent::pair).collect();
        assert_eq!(pairs, all, "{kind:?}: first update's pairs");
        for _ in 0..2 {
            let again = {
                world.update();
                world.events()
            }
            .to_vec();
            assert_eq!(kinds(&again), [0, all.len(), 0], "{kind:?}: nothing moved");
            let pairs: BTreeSet<_> = again.iter().map(CollisionEvent::pair).collect();
            assert_eq!(pairs, all, "{kind:?}: later update's pairs");
        }
        // Ten leave the pile, then come back.
        let away = Transform::new(Vec2::new(40.0, 40.0), 0.0);
        let leaving: Vec<(ColliderHandle, Transform)> = handles
            .iter()
            .step_by(n / 10)
            .enumerate()
            .map(|(i, &h)| {
                (
                    h,
                    Transform::new(away.p + Vec2::new(3.0 * i as f32, 0.0), 0.0),
                )
            })
            .collect();
        world.set_transforms(&leaving).unwrap();
        let left = crowd_reference(&world);
        let events = {
            world.update();
            world.events()
        }
        .to_vec();
        let ended = (n - 1) * 10 - 45;
        assert_eq!(kinds(&events), [0, left.len(), ended], "{kind:?}: ten left");
        let back: Vec<(ColliderHandle, Transform)> =
            leaving.iter().map(|&(h, _)| (h, at)).collect();
        world.set_transforms(&back).unwrap();
        let events = {
            world.update();
            world.events()
        }
        .to_vec();
        assert_eq!(kinds(&events), [ended, left.len(), 0], "{kind:?}: ten back");
        assert_eq!(crowd_reference(&world), all);
    }
}
