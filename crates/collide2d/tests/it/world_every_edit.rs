//! Every kind of world edit in any order (continuous colliders' and one-way settings too), with
//! origin shifts and snapshot restores among them, about the origin and 1e5 and 1e6 out:
//! after each update the event stream, `contacts()` and a brute-force test of every pair agree,
//! no event names a removed collider but an `End`, and a world restored from a snapshot at
//! random moments gives exactly the events of one that never stopped and runs on another broad
//! phase; batch queries equal single ones, and single queries a brute-force test of every
//! collider, between any two edits.

use crate::support;

use collide2d::shape::Ray;
use collide2d::shape::Shape;
use collide2d::world::LayerMask;
use collide2d::world::QueryFilter;
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, CollisionGroups, EndReason, LayerId,
    OneWay, World,
};
use collide2d::{Transform, Vec2};
use std::collections::BTreeSet;
use support::{random_shape, Rng, ALL_KINDS};

fn any_shape(rng: &mut Rng) -> Shape {
    let (kind, size) = (rng.pick(&ALL_KINDS), rng.range(0.4, 1.6));
    random_shape(rng, kind, size)
}

/// A one-way setting, or none: any direction (not unit), margins from none to deeper than the
/// shapes.
fn any_one_way(rng: &mut Rng) -> Option<OneWay> {
    (rng.below(2) == 0).then(|| OneWay {
        direction: rng.point(2.0) + Vec2::new(0.0, 0.01),
        margin: rng.pick(&[0.0, 0.05, 0.3, 5.0]),
    })
}

fn random_collider(rng: &mut Rng, layers: &[LayerId], center: Vec2) -> Collider {
    let shape = any_shape(rng);
    let mut collider = Collider::new(shape)
        .with_transform(Transform::new(center + rng.point(3.5), rng.angle()))
        .with_layer(rng.pick(layers))
        .with_sensor(rng.below(6) == 0)
        .with_continuous(rng.below(5) == 0);
    if rng.below(6) == 0 {
        if let Some(one_way) = any_one_way(rng) {
            collider = collider.with_one_way(one_way.direction, one_way.margin);
        }
    }
    collider
}

/// One edit, applied the same way to every world in `worlds`.
fn edit(
    rng: &mut Rng,
    worlds: &mut [World; 2],
    handles: &mut Vec<ColliderHandle>,
    layers: &[LayerId],
    center: Vec2,
) {
    let pick = |rng: &mut Rng, handles: &[ColliderHandle]| handles[rng.below(handles.len())];
    let choice = rng.below(16);
    if handles.is_empty() && ((2..=11).contains(&choice) || choice == 15) {
        return;
    }
    match choice {
        0 if handles.len() < 36 => {
            let collider = random_collider(rng, layers, center);
            let added: Vec<_> = worlds
                .iter_mut()
                .map(|w| w.insert(collider.clone()).unwrap())
                .collect();
            assert_eq!(added[0], added[1]);
            handles.push(added[0]);
        }
        1 if handles.len() < 36 => {
            let colliders: Vec<_> = (0..1 + rng.below(5))
                .map(|_| random_collider(rng, layers, center))
                .collect();
            let added: Vec<_> = worlds
                .iter_mut()
                .map(|w| w.insert_many(colliders.clone()).unwrap())
                .collect();
            assert_eq!(added[0], added[1]);
            handles.extend(&added[0]);
        }
        2 => {
            let h = handles.swap_remove(rng.below(handles.len()));
            worlds.iter_mut().for_each(|w| drop(w.remove(h).unwrap()));
        }
        3 => {
            let mut gone = Vec::new();
            for _ in 0..1 + rng.below(handles.len().min(6)) {
                gone.push(handles.swap_remove(rng.below(handles.len())));
            }
            worlds
                .iter_mut()
                .for_each(|w| drop(w.remove_many(&gone).unwrap()));
        }
        4 | 5 => {
            let (h, xf) = (
                pick(rng, handles),
                Transform::new(center + rng.point(3.5), rng.angle()),
            );
            worlds
                .iter_mut()
                .for_each(|w| w.set_transform(h, xf).unwrap());
        }
        6 => {
            let moves: Vec<_> = (0..1 + rng.below(6))
                .map(|_| {
                    (
                        pick(rng, handles),
                        Transform::new(center + rng.point(3.5), rng.angle()),
                    )
                })
                .collect();
            worlds
                .iter_mut()
                .for_each(|w| w.set_transforms(&moves).unwrap());
        }
        7 => {
            let h = pick(rng, handles);
            let offset = Transform::new(rng.point(0.5), rng.angle());
            worlds
                .iter_mut()
                .for_each(|w| w.set_offset(h, offset).unwrap());
        }
        8 => {
            let (h, layer) = (pick(rng, handles), rng.pick(layers));
            worlds
                .iter_mut()
                .for_each(|w| w.set_layer(h, layer).unwrap());
        }
        9 => {
            let h = pick(rng, handles);
            let groups = if rng.below(2) == 0 {
                CollisionGroups::ALL
            } else {
                CollisionGroups::new(1 << rng.below(3), 0b111 & !(1 << rng.below(3)))
            };
            worlds
                .iter_mut()
                .for_each(|w| w.set_groups(h, groups).unwrap());
        }
        10 => {
            let (h, sensor, enabled) = (pick(rng, handles), rng.below(2) == 0, rng.below(3) != 0);
            worlds.iter_mut().for_each(|w| {
                w.set_sensor(h, sensor).unwrap();
                w.set_enabled(h, enabled).unwrap();
            });
        }
        11 => {
            let h = pick(rng, handles);
            let shape: Shape = any_shape(rng);
            worlds
                .iter_mut()
                .for_each(|w| w.set_shape(h, shape.clone()).unwrap());
        }
        12 => {
            let (a, b, on) = (rng.pick(layers), rng.pick(layers), rng.below(2) == 0);
            worlds.iter_mut().for_each(|w| {
                if on {
                    w.layers_mut().enable(a, b)
                } else {
                    w.layers_mut().disable(a, b)
                }
            });
        }
        13 if !handles.is_empty() && rng.below(2) == 0 => {
            // Continuous colliders: switched, teleported, moved with a spin or swept.
            let (h, xf) = (
                pick(rng, handles),
                Transform::new(center + rng.point(3.5), rng.angle()),
            );
            let (how, turn) = (rng.below(4), rng.range(-9.0, 9.0));
            worlds.iter_mut().for_each(|w| match how {
                0 => w
                    .set_continuous(h, w.get(h).is_ok_and(|c| !c.is_continuous()))
                    .unwrap(),
                1 => w.teleport(h, xf).unwrap(),
                2 => w.set_transform_spinning(h, xf, turn).unwrap(),
                _ => drop(w.sweep_to(h, xf).unwrap()),
            });
        }
        13 => {
            let to = rng.point(2.0);
            // (The scene drifts by the shifts; new colliders still go about `center`.)
            worlds.iter_mut().for_each(|w| w.shift_origin(to).unwrap());
        }
        15 => {
            let (h, one_way) = (pick(rng, handles), any_one_way(rng));
            worlds
                .iter_mut()
                .for_each(|w| w.set_one_way(h, one_way).unwrap());
        }
        _ => {
            // Only the first world stops and starts again from its snapshot.
            worlds[0] = World::restore(worlds[0].snapshot()).unwrap();
        }
    }
}

/// The pairs of live, not continuous colliders that touch now (a continuous collider's pairs
/// also hold what its sweep met), by testing every such pair.
fn brute_force(world: &World) -> BTreeSet<(ColliderHandle, ColliderHandle)> {
    let live: Vec<_> = world
        .iter()
        .filter(|(_, c)| c.is_enabled() && !c.is_continuous())
        .collect();
    let mut touching = BTreeSet::new();
    for (i, &(ha, a)) in live.iter().enumerate() {
        for &(hb, b) in &live[i + 1..] {
            if support::touches(world, a, b) {
                touching.insert((ha.min(hb), ha.max(hb)));
            }
        }
    }
    touching
}

/// Batch rays and points (answered from the grid the world keeps between batches) equal the
/// single queries, whatever edits came since the last batch or update.
fn batches_agree(rng: &mut Rng, world: &World, center: Vec2, context: &str) {
    if world.is_empty() {
        return; // empty worlds: `world_batch::empty_batches_and_empty_worlds_answer_nothing`
    }
    let filters = [QueryFilter::new()];
    crate::world_batch::check_batches_equal_singles(
        rng,
        world,
        &filters,
        (center, 5.0),
        48,
        context,
    );
}

/// Single world queries (rays, points, boxes, shapes) equal a brute-force test of every
/// collider the filter accepts, whatever edits came since the last update.
fn queries_agree(rng: &mut Rng, world: &World, layers: &[LayerId], center: Vec2, context: &str) {
    let groups = CollisionGroups::new(1 << rng.below(3), 0b111);
    let filters = [
        QueryFilter::new(),
        QueryFilter::new().with_sensors(),
        QueryFilter::new().with_skip_one_way(true),
        QueryFilter::new()
            .with_sensors()
            .layers(LayerMask::only(rng.pick(layers)))
            .with_groups(groups),
    ];
    let accepted = |filter: &QueryFilter| -> Vec<(ColliderHandle, &Collider)> {
        world
            .iter()
            .filter(|&(h, c)| filter.accepts(h, c))
            .collect()
    };
    for filter in &filters {
        let candidates = accepted(filter);
        // Rays: every hit the colliders' own ray casts give (one-way: from the blocking side,
        // from outside), nearest first, ties by handle.
        let origin = center + rng.point(6.0);
        let direction = Vec2::from_angle(rng.angle());
        let ray = Ray::new(origin, direction, rng.range(0.5, 12.0)).unwrap();
        let mut expected: Vec<(f32, ColliderHandle)> = candidates
            .iter()
            .filter_map(|&(h, c)| {
                let xf = c.world_transform();
                let hit = c.shape().ray_cast(&xf, &ray)?;
                let blocked = c.one_way().is_none_or(|w| {
                    hit.distance > 0.0 && hit.normal.dot(xf.rotate(w.direction)) > 0.0
                });
                blocked.then_some((hit.distance, h))
            })
            .collect();
        expected.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let all: Vec<(f32, ColliderHandle)> = world
            .ray_cast_all(&ray, filter)
            .unwrap()
            .iter()
            .map(|hit| (hit.distance, hit.collider))
            .collect();
        assert_eq!(all, expected, "{context}: ray_cast_all {ray:?}, {filter:?}");
        let first = world.ray_cast(&ray, filter).unwrap();
        assert_eq!(
            first.map(|hit| (hit.distance, hit.collider)),
            expected.first().copied(),
            "{context}: ray_cast {ray:?}, {filter:?}"
        );
        // Points, boxes and shapes.
        let point = center + rng.point(4.0);
        let mut inside: Vec<_> = candidates
            .iter()
            .filter(|(_, c)| c.shape().contains(&c.world_transform(), point))
            .map(|&(h, _)| h)
            .collect();
        inside.sort_unstable();
        assert_eq!(
            world.overlap_point(point, filter).unwrap(),
            inside,
            "{context}: overlap_point {point}"
        );
        let corner = center + rng.point(4.0);
        let aabb = collide2d::shape::Aabb {
            min: corner,
            max: corner + Vec2::new(rng.range(0.0, 2.0), rng.range(0.0, 2.0)),
        };
        let mut in_box: Vec<_> = candidates
            .iter()
            .filter(|(_, c)| c.aabb().overlaps(&aabb))
            .map(|&(h, _)| h)
            .collect();
        in_box.sort_unstable();
        assert_eq!(
            world.overlap_aabb(aabb, filter).unwrap(),
            in_box,
            "{context}: overlap_aabb {aabb:?}"
        );
        let shape = any_shape(rng);
        let xf = Transform::new(center + rng.point(4.0), rng.angle());
        let mut overlapping: Vec<_> = candidates
            .iter()
            .filter(|(_, c)| collide2d::overlaps(&shape, &xf, c.shape(), &c.world_transform()))
            .map(|&(h, _)| h)
            .collect();
        overlapping.sort_unstable();
        assert_eq!(
            world.overlap_shape(&shape, &xf, filter).unwrap(),
            overlapping,
            "{context}: overlap_shape {shape:?} at {xf:?}"
        );
    }
}

#[test]
fn every_edit_in_any_order_keeps_events_contacts_and_restores_exact() {
    every_edit_in_any_order(Vec2::ZERO, 0..60, 400);
}

/// The same far from the origin, where `f32` spacing is 1/128 and 1/16.
#[test]
fn every_edit_in_any_order_far_from_the_origin() {
    every_edit_in_any_order(Vec2::new(1.0e5, -1.0e5), 100..115, 300);
    every_edit_in_any_order(Vec2::new(-1.0e6, 1.0e6), 200..215, 300);
}

/// `seeds` runs of `steps` random edits and updates about `center`, every broad phase in turn.
fn every_edit_in_any_order(center: Vec2, seeds: std::ops::Range<u64>, steps: usize) {
    let runs = seeds.end - seeds.start;
    let kinds = [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 1.5 },
        BroadPhaseKind::SweepAndPrune,
    ];
    let mut updates = 0;
    let mut ends = 0;
    for seed in seeds {
        let kind = kinds[seed as usize % kinds.len()];
        let mut rng = Rng(0x243f_6a88_85a3_08d3 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut worlds = [
            World::with_broad_phase(kind).unwrap(),
            // Another broad phase: the same answers, bit for bit.
            World::with_broad_phase(kinds[(seed as usize + 1) % kinds.len()]).unwrap(),
        ];
        let mut layers = vec![LayerId::DEFAULT];
        for name in ["a", "b"] {
            let added: Vec<_> = worlds
                .iter_mut()
                .map(|w| w.layers_mut().add(name).unwrap())
                .collect();
            layers.push(added[0]);
        }
        let mut handles = Vec::new();
        let mut touching: BTreeSet<(ColliderHandle, ColliderHandle)> = BTreeSet::new();
        for step in 0..steps {
            if rng.below(8) == 0 {
                batches_agree(
                    &mut rng,
                    &worlds[0],
                    center,
                    &format!("seed {seed}, step {step}"),
                );
            }
            if rng.below(8) == 0 {
                queries_agree(
                    &mut rng,
                    &worlds[0],
                    &layers,
                    center,
                    &format!("seed {seed}, step {step}, {kind:?}, about {center}"),
                );
            }
            if rng.below(4) != 0 {
                edit(&mut rng, &mut worlds, &mut handles, &layers, center);
                continue;
            }
            let report_stay = rng.below(3) != 0;
            let events: Vec<Vec<CollisionEvent>> = worlds
                .iter_mut()
                .map(|w| {
                    w.set_report_stay(report_stay);
                    w.update();
                    w.events().to_vec()
                })
                .collect();
            updates += 1;
            let context = format!("seed {seed}, step {step}, {kind:?}, about {center}");
            // No event names a dead collider, but the `End` of a removal (a disabling followed
            // by the removal before this update included: the `End` says the collider is gone).
            for event in &events[1] {
                let (a, b) = event.pair();
                let dead = !worlds[1].contains(a) || !worlds[1].contains(b);
                assert!(
                    !dead
                        || matches!(
                            event,
                            CollisionEvent::End {
                                reason: EndReason::Removed,
                                ..
                            }
                        ),
                    "{context}: {event:?} names a removed collider"
                );
            }
            assert_eq!(
                events[0], events[1],
                "{context}: a restored world, or another broad phase, answers differently"
            );
            for event in &events[1] {
                match *event {
                    CollisionEvent::Begin { a, b, .. } => {
                        assert!(
                            touching.insert((a, b)),
                            "{context}: a second Begin of {a:?} {b:?}"
                        )
                    }
                    CollisionEvent::End { a, b, .. } => {
                        ends += 1;
                        assert!(
                            touching.remove(&(a, b)),
                            "{context}: End without Begin {a:?} {b:?}"
                        )
                    }
                    CollisionEvent::Stay { a, b, .. } => {
                        assert!(
                            report_stay && touching.contains(&(a, b)),
                            "{context}: Stay of {a:?} {b:?}"
                        )
                    }
                }
            }
            for world in &worlds {
                let listed: BTreeSet<_> = world.contacts().map(|(a, b, _)| (a, b)).collect();
                assert_eq!(
                    listed, touching,
                    "{context}: contacts() and the events disagree"
                );
                // Per collider: `contacts_of` and `is_touching` agree with `contacts()`.
                let listed_in_order: Vec<_> = listed.iter().copied().collect();
                support::check_contacts_of_each_collider(world, &listed_in_order, &context);
                let steady: BTreeSet<_> = touching
                    .iter()
                    .filter(|&&(a, b)| {
                        !world.get(a).unwrap().is_continuous()
                            && !world.get(b).unwrap().is_continuous()
                    })
                    .copied()
                    .collect();
                assert_eq!(
                    brute_force(world),
                    steady,
                    "{context}: the brute force disagrees"
                );
            }
        }
    }
    assert!(
        updates > 80 * runs as usize * steps / 400 && ends > 16 * runs as usize * steps / 400,
        "{updates} updates, {ends} ends"
    );
}
