//! Every kind of world edit in any order (continuous colliders' too), with origin shifts and
//! snapshot restores among them:
//! after each update the event stream, `contacts()` and a brute-force test of every pair agree,
//! and a world restored from a snapshot at random moments gives exactly the events of one that
//! never stopped; batch queries equal single ones between any two edits.

use crate::support;

use collide2d::shape::Shape;
use collide2d::world::QueryFilter;
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, CollisionGroups, LayerId, World,
};
use collide2d::{Transform, Vec2};
use std::collections::BTreeSet;
use support::{random_shape, Rng, ALL_KINDS};

fn any_shape(rng: &mut Rng) -> Shape {
    let (kind, size) = (rng.pick(&ALL_KINDS), rng.range(0.4, 1.6));
    random_shape(rng, kind, size)
}

fn random_collider(rng: &mut Rng, layers: &[LayerId]) -> Collider {
    let shape = any_shape(rng);
    Collider::new(shape)
        .with_transform(Transform::new(rng.point(3.5), rng.angle()))
        .with_layer(rng.pick(layers))
        .with_sensor(rng.below(6) == 0)
        .with_continuous(rng.below(5) == 0)
}

/// One edit, applied the same way to every world in `worlds`.
fn edit(
    rng: &mut Rng,
    worlds: &mut [World; 2],
    handles: &mut Vec<ColliderHandle>,
    layers: &[LayerId],
) {
    let pick = |rng: &mut Rng, handles: &[ColliderHandle]| handles[rng.below(handles.len())];
    let choice = rng.below(15);
    if handles.is_empty() && (2..=11).contains(&choice) {
        return;
    }
    match choice {
        0 if handles.len() < 36 => {
            let collider = random_collider(rng, layers);
            let added: Vec<_> = worlds
                .iter_mut()
                .map(|w| w.insert(collider.clone()).unwrap())
                .collect();
            assert_eq!(added[0], added[1]);
            handles.push(added[0]);
        }
        1 if handles.len() < 36 => {
            let colliders: Vec<_> = (0..1 + rng.below(5))
                .map(|_| random_collider(rng, layers))
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
                Transform::new(rng.point(3.5), rng.angle()),
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
                        Transform::new(rng.point(3.5), rng.angle()),
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
                Transform::new(rng.point(3.5), rng.angle()),
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
            worlds.iter_mut().for_each(|w| w.shift_origin(to).unwrap());
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
fn batches_agree(rng: &mut Rng, world: &World, context: &str) {
    if world.is_empty() {
        return; // empty worlds: `world_batch::empty_batches_and_empty_worlds_answer_nothing`
    }
    let filters = [QueryFilter::new()];
    crate::world_batch::check_batches_equal_singles(
        rng,
        world,
        &filters,
        (Vec2::ZERO, 5.0),
        48,
        context,
    );
}

#[test]
fn every_edit_in_any_order_keeps_events_contacts_and_restores_exact() {
    let kinds = [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 1.5 },
        BroadPhaseKind::SweepAndPrune,
    ];
    let mut updates = 0;
    let mut ends = 0;
    for seed in 0..60u64 {
        let kind = kinds[seed as usize % kinds.len()];
        let mut rng = Rng(0x243f_6a88_85a3_08d3 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut worlds = [
            World::with_broad_phase(kind).unwrap(),
            World::with_broad_phase(kind).unwrap(),
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
        for step in 0..400 {
            if rng.below(8) == 0 {
                batches_agree(&mut rng, &worlds[0], &format!("seed {seed}, step {step}"));
            }
            if rng.below(4) != 0 {
                edit(&mut rng, &mut worlds, &mut handles, &layers);
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
            let context = format!("seed {seed}, step {step}, {kind:?}");
            assert_eq!(
                events[0], events[1],
                "{context}: a restored world answers differently"
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
        updates > 5000 && ends > 1000,
        "{updates} updates, {ends} ends"
    );
}
