//! A seeded model test: random ECS operations on an app with the plugin, and the same
//! operations on a plain `collide2d::World` driven in the order the plugin documents (removals
//! and disablings, insertions (entities enabled again among them), layer and sensor changes,
//! then moves, each in entity order). The plugin's
//! messages must equal the world's events exactly: same pairs in the same order, same
//! manifolds, same end reasons.
//!
//! Bevy's transform propagation is trusted: the model reads each entity's `GlobalTransform`
//! and turns it into a placement with the plugin's public conversion, so that what is compared
//! is what the plugin pushes and when, not float formulas.

use std::collections::{BTreeMap, BTreeSet};

use bevy_app::App;
use bevy_collide2d::convert::placement;
use bevy_collide2d::entity_order;
use bevy_collide2d::prelude::*;
use bevy_ecs::entity_disabling::Disabled;
use bevy_ecs::prelude::*;
use bevy_math::Quat;
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::shape::Shape;
use collide2d::world::{Collider as WorldCollider, ColliderHandle, LayerId, World};

use crate::support::{app, messages_of, step, Rng};

const LAYERS: [Option<&str>; 4] = [None, Some("A"), Some("B"), Some("C")];

struct Model {
    world: World,
    handles: BTreeMap<Entity, ColliderHandle>,
    /// The placement last pushed per entity.
    placed: BTreeMap<Entity, collide2d::Transform>,
    shapes: BTreeMap<Entity, Shape>,
    layer: BTreeMap<Entity, Option<&'static str>>,
    sensor: BTreeMap<Entity, bool>,
    /// The entities the app has `Disabled` now.
    disabled: BTreeSet<Entity>,
    /// The entities whose collider the model world has disabled.
    world_disabled: BTreeSet<Entity>,
}

impl Model {
    fn new() -> Model {
        let mut world = World::new();
        world.set_report_stay(false);
        for name in ["A", "B", "C"] {
            world.layers_mut().add(name).unwrap();
        }
        world.layers_mut().disable_by_name("A", "B").unwrap();
        Model {
            world,
            handles: BTreeMap::new(),
            placed: BTreeMap::new(),
            shapes: BTreeMap::new(),
            layer: BTreeMap::new(),
            sensor: BTreeMap::new(),
            disabled: BTreeSet::new(),
            world_disabled: BTreeSet::new(),
        }
    }

    fn layer_id(&self, layer: Option<&str>) -> LayerId {
        layer.map_or(LayerId::DEFAULT, |name| {
            self.world.layers().id(name).unwrap()
        })
    }

    /// One step: `removed` and `changed` are the entities the step removed and re-layered or
    /// re-sensored, `live` those alive; disablings, enablings, insertions and moves are read
    /// from the model's sets and the app.
    fn step(
        &mut self,
        app: &mut App,
        live: &[Entity],
        removed: &[Entity],
        changed: &[Entity],
    ) -> (Vec<CollisionStarted>, Vec<CollisionEnded>) {
        // Removals and disablings together, in entity order.
        let mut gone: Vec<Entity> = removed.to_vec();
        gone.extend(
            self.handles
                .keys()
                .filter(|e| self.disabled.contains(e) && !self.world_disabled.contains(e)),
        );
        gone.sort_unstable_by_key(|&e| entity_order(e));
        gone.dedup();
        for entity in gone {
            let Some(&handle) = self.handles.get(&entity) else {
                continue;
            };
            if removed.contains(&entity) {
                self.handles.remove(&entity);
                self.world.remove(handle).unwrap();
                self.placed.remove(&entity);
                self.world_disabled.remove(&entity);
            } else {
                self.world.set_enabled(handle, false).unwrap();
                self.world_disabled.insert(entity);
            }
        }
        for entity in removed {
            self.disabled.remove(entity);
        }
        // Enabled again: the disabled collider leaves, in entity order, to be inserted anew.
        let enabled: Vec<Entity> = self
            .world_disabled
            .iter()
            .copied()
            .filter(|e| !self.disabled.contains(e))
            .collect();
        for entity in enabled {
            let handle = self.handles.remove(&entity).unwrap();
            self.world.remove(handle).unwrap();
            self.placed.remove(&entity);
            self.world_disabled.remove(&entity);
        }
        let global = |app: &App, entity| *app.world().get::<GlobalTransform>(entity).unwrap();
        let mut added: Vec<Entity> = live
            .iter()
            .copied()
            .filter(|e| !self.handles.contains_key(e) && !self.disabled.contains(e))
            .collect();
        added.sort_unstable_by_key(|&e| entity_order(e));
        for &entity in &added {
            let (xf, _) = placement(&global(app, entity));
            let collider = WorldCollider::new(self.shapes[&entity].clone())
                .with_transform(xf)
                .with_layer(self.layer_id(self.layer[&entity]))
                .with_sensor(self.sensor[&entity])
                .with_user_data(entity.to_bits());
            self.handles
                .insert(entity, self.world.insert(collider).unwrap());
            self.placed.insert(entity, xf);
        }
        let mut changed = changed.to_vec();
        changed.sort_unstable_by_key(|&e| entity_order(e));
        changed.dedup();
        for entity in changed {
            let Some(&handle) = self.handles.get(&entity) else {
                continue;
            };
            if added.contains(&entity) || self.world_disabled.contains(&entity) {
                continue;
            }
            let layer = self.layer_id(self.layer[&entity]);
            if self.world.get(handle).unwrap().layer() != layer {
                self.world.set_layer(handle, layer).unwrap();
            }
            if self.world.get(handle).unwrap().is_sensor() != self.sensor[&entity] {
                self.world.set_sensor(handle, self.sensor[&entity]).unwrap();
            }
        }
        let mut moves = Vec::new();
        let mut order: Vec<(Entity, ColliderHandle)> =
            self.handles.iter().map(|(&e, &h)| (e, h)).collect();
        order.sort_unstable_by_key(|&(e, _)| entity_order(e));
        for (entity, handle) in order {
            if self.world_disabled.contains(&entity) {
                continue;
            }
            let (xf, _) = placement(&global(app, entity));
            if self.placed[&entity] != xf {
                self.placed.insert(entity, xf);
                moves.push((handle, xf));
            }
        }
        self.world.set_transforms(&moves).unwrap();
        self.world.update();
        messages_of(&self.world)
    }
}

/// Entity and its descendants, as `despawn` removes them.
fn with_descendants(app: &App, entity: Entity, out: &mut Vec<Entity>) {
    out.push(entity);
    if let Some(children) = app.world().get::<Children>(entity) {
        for child in children.iter().collect::<Vec<_>>() {
            with_descendants(app, child, out);
        }
    }
}

fn run(seed: u64, steps: usize) -> (usize, usize, usize, usize) {
    let mut rng = Rng(seed);
    let mut app = app();
    let mut model = Model::new();
    let mut live: Vec<Entity> = Vec::new();
    let (mut starts, mut ends, mut removed_mid_contact, mut disabled_ends) = (0, 0, 0, 0);
    for _ in 0..steps {
        let (mut removed, mut added, mut changed) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..1 + rng.below(3) {
            let op = if live.len() < 3 { 0 } else { rng.below(9) };
            match op {
                0 if live.len() < 14 => {
                    let shape = if rng.below(2) == 0 {
                        Shape::from(collide2d::Circle::with_radius(rng.range(0.3, 1.0)).unwrap())
                    } else {
                        Shape::from(
                            collide2d::Polygon::rect(rng.range(0.4, 2.0), rng.range(0.4, 2.0))
                                .unwrap(),
                        )
                    };
                    let layer = LAYERS[rng.below(4)];
                    let sensor = rng.below(4) == 0;
                    let transform =
                        Transform::from_xyz(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), 0.0)
                            .with_rotation(Quat::from_rotation_z(rng.range(-3.0, 3.0)));
                    let mut spawned = app.world_mut().spawn((
                        Collider::new(shape.clone()),
                        transform,
                        CollidingEntities::default(),
                    ));
                    if let Some(name) = layer {
                        spawned.insert(CollisionLayer::named(name));
                    }
                    if sensor {
                        spawned.insert(Sensor);
                    }
                    let entity = spawned.id();
                    if rng.below(3) == 0 {
                        let parent = live[rng.below(live.len().max(1))..].first().copied();
                        if let Some(parent) = parent {
                            app.world_mut().entity_mut(entity).insert(ChildOf(parent));
                        }
                    }
                    model.shapes.insert(entity, shape);
                    model.layer.insert(entity, layer);
                    model.sensor.insert(entity, sensor);
                    live.push(entity);
                    added.push(entity);
                }
                0 => {}
                1..=3 => {
                    let entity = live[rng.below(live.len())];
                    let mut t = app.world_mut().get_mut::<Transform>(entity).unwrap();
                    t.translation.x = rng.range(-3.0, 3.0);
                    t.translation.y = rng.range(-3.0, 3.0);
                    t.rotation = Quat::from_rotation_z(rng.range(-3.0, 3.0));
                }
                4 => {
                    let entity = live[rng.below(live.len())];
                    let mut gone = Vec::new();
                    with_descendants(&app, entity, &mut gone);
                    for &g in &gone {
                        if model
                            .handles
                            .get(&g)
                            .is_some_and(|&h| model.world.is_touching(h))
                        {
                            removed_mid_contact += 1;
                        }
                    }
                    app.world_mut().despawn(entity);
                    live.retain(|e| !gone.contains(e));
                    // Spawned and despawned within one step: never in either world.
                    for g in gone {
                        if let Some(i) = added.iter().position(|&a| a == g) {
                            added.remove(i);
                        } else {
                            removed.push(g);
                        }
                    }
                }
                5 => {
                    // Reparent to another live entity that is not a descendant, or detach.
                    let entity = live[rng.below(live.len())];
                    let mut below = Vec::new();
                    with_descendants(&app, entity, &mut below);
                    let parents: Vec<Entity> = live
                        .iter()
                        .copied()
                        .filter(|e| !below.contains(e))
                        .collect();
                    if rng.below(3) == 0 || parents.is_empty() {
                        app.world_mut().entity_mut(entity).remove::<ChildOf>();
                    } else {
                        let parent = parents[rng.below(parents.len())];
                        app.world_mut().entity_mut(entity).insert(ChildOf(parent));
                    }
                }
                6 => {
                    let entity = live[rng.below(live.len())];
                    let layer = LAYERS[rng.below(4)];
                    match layer {
                        Some(name) => {
                            app.world_mut()
                                .entity_mut(entity)
                                .insert(CollisionLayer::named(name));
                        }
                        None => {
                            app.world_mut()
                                .entity_mut(entity)
                                .remove::<CollisionLayer>();
                        }
                    }
                    model.layer.insert(entity, layer);
                    changed.push(entity);
                }
                8 => {
                    // Bevy's `Disabled` on or off.
                    let entity = live[rng.below(live.len())];
                    if model.disabled.remove(&entity) {
                        app.world_mut().entity_mut(entity).remove::<Disabled>();
                    } else {
                        app.world_mut().entity_mut(entity).insert(Disabled);
                        model.disabled.insert(entity);
                    }
                }
                _ => {
                    let entity = live[rng.below(live.len())];
                    let sensor = !model.sensor[&entity];
                    if sensor {
                        app.world_mut().entity_mut(entity).insert(Sensor);
                    } else {
                        app.world_mut().entity_mut(entity).remove::<Sensor>();
                    }
                    model.sensor.insert(entity, sensor);
                    changed.push(entity);
                }
            }
        }
        // The plugin propagates transforms itself; the model reads them after the update.
        let plugin = step(&mut app);
        let expected = model.step(&mut app, &live, &removed, &changed);
        assert_eq!(plugin, expected, "seed {seed}");
        assert!(app.world().resource::<CollisionWorld>().errors().is_empty());
        starts += expected.0.len();
        ends += expected.1.len();
        disabled_ends += expected
            .1
            .iter()
            .filter(|e| e.reason == EndReason::Disabled)
            .count();
        // CollidingEntities holds exactly the world's contacts of each entity.
        for &entity in &live {
            let Some(&handle) = model.handles.get(&entity) else {
                let set = app.world().get::<CollidingEntities>(entity).unwrap();
                assert!(set.is_empty(), "seed {seed}, entity {entity}");
                continue;
            };
            let mut touching: Vec<Entity> = model
                .world
                .contacts_of(handle)
                .map(|(a, b, _)| {
                    let other = if a == handle { b } else { a };
                    Entity::from_bits(model.world.get(other).unwrap().user_data())
                })
                .collect();
            touching.sort_unstable();
            let mut seen: Vec<Entity> = app
                .world()
                .get::<CollidingEntities>(entity)
                .unwrap()
                .0
                .iter()
                .copied()
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, touching, "seed {seed}, entity {entity}");
        }
    }
    (starts, ends, removed_mid_contact, disabled_ends)
}

#[test]
fn plugin_events_equal_the_worlds_over_random_ecs_operations() {
    let (mut starts, mut ends, mut mid_contact, mut disabled) = (0, 0, 0, 0);
    for seed in 1..=100u64 {
        let (s, e, m, d) = run(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1, 60);
        starts += s;
        ends += e;
        mid_contact += m;
        disabled += d;
    }
    // The generator reaches what the test is about.
    assert!(starts > 200 && ends > 100, "{starts} starts, {ends} ends");
    assert!(mid_contact > 20, "{mid_contact} despawns mid-contact");
    assert!(disabled > 20, "{disabled} contacts ended by a disabling");
}
