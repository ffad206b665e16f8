//! A game's lifecycles against a plain `collide2d::World` built by hand: seeded frames of
//! spawns (under scaled, mirrored and turned pivots), moves of parents and children,
//! despawns (recursive, of a parent, of descendants only), `Disabled` and a visibility-like
//! marker toggled, layers set and removed, colliders replaced (continuous or not), removed and
//! put back, and reparenting, with the plugin's fixed schedule run zero to three times a
//! frame. Manifolds are on.
//!
//! The reference is brought to the ECS's state at each run (removals and disablings,
//! colliders enabled again, insertions, changes, reshapes and moves, each in entity order, as
//! the plugin documents), and must give the same events. Beside it: every begin has exactly
//! one end, no started event names an entity that is gone, `CollidingEntities` holds the
//! reference's contacts, and the observers see each event once on each living entity.
//! Between frames and after each run, point and ray queries answer as the reference world
//! does with the entities that have a collider now: never one despawned or disabled since.

use std::collections::{BTreeMap, BTreeSet};
use std::f32::consts::PI;

use bevy_app::App;
use bevy_collide2d::convert::placement;
use bevy_collide2d::entity_order;
use bevy_collide2d::prelude::*;
use bevy_ecs::entity_disabling::Disabled;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_ecs::system::RunSystemOnce;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::shape::Shape;
use collide2d::world::{Collider as WorldCollider, ColliderHandle, LayerId, QueryFilter, World};

use crate::support::{app_with, drain_messages, messages_of, Rng};

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct Fixed;

/// A visibility-like marker a game toggles: no part of collisions.
#[derive(Component)]
struct Hidden;

/// What the observers saw: `(observed, other, started)`.
#[derive(Resource, Default)]
struct Observed(Vec<(Entity, Entity, bool)>);

const LAYERS: [Option<&str>; 4] = [None, Some("A"), Some("B"), Some("C")];

/// What the test put on an entity.
struct Ent {
    /// The collider's shape, unscaled (`None`: a pivot, or a collider removed).
    shape: Option<Shape>,
    /// Whether the collider is continuous.
    continuous: bool,
    layer: Option<&'static str>,
    sensor: bool,
    disabled: bool,
}

/// The reference's collider of an entity.
struct Placed {
    handle: ColliderHandle,
    /// The object scale its shape was made with.
    scale: collide2d::Vec2,
    disabled: bool,
}

struct Reference {
    world: World,
    placed: BTreeMap<Entity, Placed>,
}

/// The shape under an object scale: exact where the shape takes it, else its larger factor.
fn scaled(shape: &Shape, scale: collide2d::Vec2) -> Shape {
    if scale == collide2d::Vec2::ONE {
        return shape.clone();
    }
    match shape.scaled(scale) {
        Ok(s) => s,
        Err(collide2d::ShapeError::NonUniformScale) => {
            let f = scale.x.abs().max(scale.y.abs());
            shape
                .scaled(collide2d::Vec2::new(
                    f.copysign(scale.x),
                    f.copysign(scale.y),
                ))
                .unwrap()
        }
        Err(e) => panic!("{e:?} at scale {scale}"),
    }
}

/// A centred collider's offset under an object scale: none, its (zero) turn reversed by a
/// mirror.
fn offset(scale: collide2d::Vec2) -> collide2d::Transform {
    let angle = if scale.x * scale.y < 0.0 { -0.0 } else { 0.0 };
    collide2d::Transform::new(collide2d::Vec2::ZERO, angle)
}

impl Reference {
    fn new() -> Reference {
        let mut world = World::new();
        world.set_report_stay(false);
        for name in ["A", "B", "C"] {
            world.layers_mut().add(name).unwrap();
        }
        world.layers_mut().disable_by_name("A", "B").unwrap();
        Reference {
            world,
            placed: BTreeMap::new(),
        }
    }

    fn layer_id(&self, layer: Option<&str>) -> LayerId {
        layer.map_or(LayerId::DEFAULT, |name| {
            self.world.layers().id(name).unwrap()
        })
    }

    /// Brings the world to the ECS's state (`replaced`: colliders inserted again since the
    /// last run) and runs its update; returns its events as the plugin's messages.
    fn run(
        &mut self,
        app: &App,
        ents: &BTreeMap<Entity, Ent>,
        replaced: &BTreeSet<Entity>,
    ) -> (Vec<CollisionStarted>, Vec<CollisionEnded>) {
        let sorted = |mut v: Vec<Entity>| {
            v.sort_unstable_by_key(|&e| entity_order(e));
            v
        };
        let has_collider = |e: &Entity| ents.get(e).is_some_and(|x| x.shape.is_some());
        let disabled = |e: &Entity| ents.get(e).is_some_and(|x| x.disabled);
        let global = |e: Entity| placement(app.world().get::<GlobalTransform>(e).unwrap());
        // Removals (despawned, collider removed) and disablings, in entity order.
        let gone = sorted(
            self.placed
                .iter()
                .filter(|(e, p)| !has_collider(e) || (disabled(e) && !p.disabled))
                .map(|(&e, _)| e)
                .collect(),
        );
        for e in gone {
            if has_collider(&e) {
                let p = self.placed.get_mut(&e).unwrap();
                p.disabled = true;
                self.world.set_enabled(p.handle, false).unwrap();
            } else {
                let p = self.placed.remove(&e).unwrap();
                self.world.remove(p.handle).unwrap();
            }
        }
        // Enabled again: out, to be inserted afresh.
        let back = sorted(
            self.placed
                .iter()
                .filter(|(e, p)| p.disabled && !disabled(e))
                .map(|(&e, _)| e)
                .collect(),
        );
        for e in back {
            let p = self.placed.remove(&e).unwrap();
            self.world.remove(p.handle).unwrap();
        }
        // Insertions.
        let new = sorted(
            ents.iter()
                .filter(|(e, x)| x.shape.is_some() && !x.disabled && !self.placed.contains_key(e))
                .map(|(&e, _)| e)
                .collect(),
        );
        for &e in &new {
            let x = &ents[&e];
            let (xf, scale) = global(e);
            let collider = WorldCollider::new(scaled(x.shape.as_ref().unwrap(), scale))
                .with_transform(xf)
                .with_offset(offset(scale))
                .with_layer(self.layer_id(x.layer))
                .with_sensor(x.sensor)
                .with_continuous(x.continuous)
                .with_user_data(e.to_bits());
            let handle = self.world.insert(collider).unwrap();
            self.placed.insert(
                e,
                Placed {
                    handle,
                    scale,
                    disabled: false,
                },
            );
        }
        let kept = sorted(
            self.placed
                .iter()
                .filter(|(e, p)| !p.disabled && !new.contains(e))
                .map(|(&e, _)| e)
                .collect(),
        );
        // Changes: colliders replaced (reshaped at the scale of now), layers.
        for &e in &kept {
            let x = &ents[&e];
            let p = self.placed.get_mut(&e).unwrap();
            if replaced.contains(&e) {
                let (_, scale) = global(e);
                self.world
                    .set_shape(p.handle, scaled(x.shape.as_ref().unwrap(), scale))
                    .unwrap();
                self.world.set_offset(p.handle, offset(scale)).unwrap();
                p.scale = scale;
                self.world.set_continuous(p.handle, x.continuous).unwrap();
            }
            let layer = x.layer.map_or(LayerId::DEFAULT, |name| {
                self.world.layers().id(name).unwrap()
            });
            if self.world.get(p.handle).unwrap().layer() != layer {
                self.world.set_layer(p.handle, layer).unwrap();
            }
        }
        // Reshapes for a new scale, then the moves as one batch.
        let mut moves = Vec::new();
        for &e in &kept {
            let x = &ents[&e];
            let p = self.placed.get_mut(&e).unwrap();
            let (xf, scale) = global(e);
            if scale != p.scale {
                self.world
                    .set_shape(p.handle, scaled(x.shape.as_ref().unwrap(), scale))
                    .unwrap();
                self.world.set_offset(p.handle, offset(scale)).unwrap();
                p.scale = scale;
            }
            if self.world.get(p.handle).unwrap().transform() != xf {
                moves.push((p.handle, xf));
            }
        }
        self.world.set_transforms(&moves).unwrap();
        self.world.update();
        messages_of(&self.world)
    }
}

fn fixed_app() -> App {
    let mut app = app_with(
        Collide2dPlugin::new(Fixed)
            .with_layers(["A", "B", "C"])
            .with_layer_pair("A", "B", false)
            .with_manifolds(true),
    );
    app.init_schedule(Fixed);
    app.init_resource::<Observed>();
    app.add_observer(|on: On<CollisionStarted>, mut seen: ResMut<Observed>| {
        seen.0.push((on.a, on.b, true));
    });
    app.add_observer(|on: On<CollisionEnded>, mut seen: ResMut<Observed>| {
        seen.0.push((on.a, on.b, false));
    });
    app
}

fn descendants(app: &App, entity: Entity, out: &mut Vec<Entity>) {
    if let Some(children) = app.world().get::<Children>(entity) {
        for child in children.iter().collect::<Vec<_>>() {
            out.push(child);
            descendants(app, child, out);
        }
    }
}

fn random_shape(rng: &mut Rng) -> Shape {
    if rng.below(2) == 0 {
        Shape::from(collide2d::Circle::with_radius(rng.range(0.3, 1.0)).unwrap())
    } else {
        Shape::from(collide2d::Polygon::rect(rng.range(0.4, 2.0), rng.range(0.4, 2.0)).unwrap())
    }
}

fn random_transform(rng: &mut Rng) -> Transform {
    Transform::from_xyz(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), 0.0)
        .with_rotation(Quat::from_rotation_z(rng.range(-PI, PI)))
}

fn pivot_scale(rng: &mut Rng) -> Vec3 {
    [
        Vec3::ONE,
        Vec3::new(2.0, 2.0, 1.0),
        Vec3::new(0.5, 0.5, 1.0),
        Vec3::new(-1.0, 1.0, 1.0),
        Vec3::new(1.0, -1.0, 1.0),
    ][rng.below(5)]
}

#[derive(Default)]
struct Counts {
    starts: usize,
    ends: usize,
    runs: usize,
    idle_frames: usize,
    multi_run_frames: usize,
    removed_ends: usize,
    disabled_ends: usize,
    filtered_ends: usize,
    scaled_contacts: usize,
    queries: usize,
    /// Begins of continuous colliders' hits (with a time of impact).
    swept: usize,
    /// Begins with a manifold.
    manifolds: usize,
    /// Query answers of the world as of the last run that name an entity gone since.
    stale: usize,
}

/// Point and ray queries through `SpatialQuery` against the reference world's, with the
/// entities that have a collider now (`ents`) only.
fn check_queries(
    app: &mut App,
    reference: &Reference,
    ents: &BTreeMap<Entity, Ent>,
    rng: &mut Rng,
    counts: &mut Counts,
    label: &str,
) {
    let alive = |e: Entity| {
        ents.get(&e)
            .is_some_and(|x| x.shape.is_some() && !x.disabled)
    };
    let accepts = |_: ColliderHandle, c: &WorldCollider| alive(Entity::from_bits(c.user_data()));
    let entity = |h: ColliderHandle| Entity::from_bits(reference.world.get(h).unwrap().user_data());
    // `CollisionWorld`'s own look-ups name only entities with a collider now, and agree.
    let world = app.world().resource::<CollisionWorld>();
    for &e in ents.keys() {
        if let Some(handle) = world.handle(e) {
            assert!(
                alive(e),
                "{label}: a handle for {e:?}, whose collider is gone"
            );
            assert_eq!(
                world.entity(handle),
                Some(e),
                "{label}: the entity of {e:?}'s handle"
            );
        } else {
            assert!(
                !world.is_touching(e),
                "{label}: {e:?} touching without a handle"
            );
        }
    }
    for _ in 0..3 {
        let p = Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
        let turn = rng.range(-PI, PI);
        let direction = Vec2::new(turn.cos(), turn.sin());
        let sensors = rng.below(2) == 0;
        let (mut points, ray) = app
            .world_mut()
            .run_system_once(move |q: SpatialQuery| {
                let filter = SpatialQueryFilter::default().with_sensors(sensors);
                (
                    q.point_intersections(p, &filter).unwrap(),
                    q.cast_ray(p, direction, 8.0, &filter).unwrap(),
                )
            })
            .unwrap();
        let lib = |v: Vec2| collide2d::Vec2::new(v.x, v.y);
        let all = if sensors {
            QueryFilter::new().with_sensors()
        } else {
            QueryFilter::new()
        };
        let live = all.with_predicate(&accepts);
        let stale = reference.world.overlap_point(lib(p), &all).unwrap();
        counts.stale += stale.iter().filter(|&&h| !alive(entity(h))).count();
        let mut expected: Vec<Entity> = reference
            .world
            .overlap_point(lib(p), &live)
            .unwrap()
            .into_iter()
            .map(entity)
            .collect();
        points.sort_unstable();
        expected.sort_unstable();
        assert_eq!(points, expected, "{label}: points at {p}");
        let ray_ref = collide2d::shape::Ray::new(lib(p), lib(direction), 8.0).unwrap();
        let expected = reference
            .world
            .ray_cast(&ray_ref, &live)
            .unwrap()
            .map(|hit| (entity(hit.collider), hit.distance));
        assert_eq!(
            ray.map(|hit| (hit.entity, hit.distance)),
            expected,
            "{label}: ray from {p} along {direction}"
        );
        counts.queries += 2;
    }
}

/// Checks one run: the plugin's messages against the reference's events, the begin/end
/// pairing, the entities named, `CollidingEntities` and the observers.
fn check_run(
    app: &mut App,
    reference: &mut Reference,
    ents: &BTreeMap<Entity, Ent>,
    replaced: &BTreeSet<Entity>,
    open: &mut BTreeSet<(Entity, Entity)>,
    counts: &mut Counts,
    label: &str,
) {
    app.world_mut().resource_mut::<Observed>().0.clear();
    app.world_mut().run_schedule(Fixed);
    counts.runs += 1;
    let plugin = drain_messages(app);
    let expected = reference.run(app, ents, replaced);
    assert_eq!(plugin, expected, "{label}");
    let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
    assert!(errors.is_empty(), "{label}: {errors:?}");
    let key = |a: Entity, b: Entity| if a < b { (a, b) } else { (b, a) };
    let mut observed_expected = Vec::new();
    for end in &plugin.1 {
        assert!(
            open.remove(&key(end.a, end.b)),
            "{label}: an end without a begin: {end:?}"
        );
        counts.ends += 1;
        match end.reason {
            EndReason::Removed => counts.removed_ends += 1,
            EndReason::Disabled => counts.disabled_ends += 1,
            EndReason::Filtered => counts.filtered_ends += 1,
            _ => {}
        }
        for (me, other) in [(end.a, end.b), (end.b, end.a)] {
            if app.world().get_entity(me).is_ok() {
                observed_expected.push((me, other, false));
            }
        }
    }
    for start in &plugin.0 {
        assert!(
            open.insert(key(start.a, start.b)),
            "{label}: a second begin: {start:?}"
        );
        for e in [start.a, start.b] {
            assert!(
                ents.get(&e)
                    .is_some_and(|x| x.shape.is_some() && !x.disabled),
                "{label}: a begin names {e}, gone or without a collider: {start:?}"
            );
            let scale = placement(app.world().get::<GlobalTransform>(e).unwrap()).1;
            counts.scaled_contacts += usize::from(scale != collide2d::Vec2::ONE);
        }
        observed_expected.push((start.a, start.b, true));
        observed_expected.push((start.b, start.a, true));
        counts.starts += 1;
        counts.swept += usize::from(start.time_of_impact.is_some());
        counts.manifolds += usize::from(start.manifold.is_some());
    }
    let mut observed = std::mem::take(&mut app.world_mut().resource_mut::<Observed>().0);
    observed.sort_unstable();
    observed_expected.sort_unstable();
    assert_eq!(observed, observed_expected, "{label}: observers");
    // CollidingEntities holds the reference's contacts of each entity.
    for (&e, x) in ents {
        let Some(set) = app.world().get::<CollidingEntities>(e) else {
            continue;
        };
        let mut seen: Vec<Entity> = set.0.iter().copied().collect();
        seen.sort_unstable();
        let mut touching: Vec<Entity> = match reference.placed.get(&e) {
            Some(p) => reference
                .world
                .contacts_of(p.handle)
                .map(|(a, b, _)| {
                    let other = if a == p.handle { b } else { a };
                    Entity::from_bits(reference.world.get(other).unwrap().user_data())
                })
                .collect(),
            None => Vec::new(),
        };
        touching.sort_unstable();
        assert_eq!(
            seen,
            touching,
            "{label}: CollidingEntities of {e} ({})",
            x.shape.is_some()
        );
    }
}

fn sweep(seed: u64, frames: usize, counts: &mut Counts) {
    let mut rng = Rng(seed);
    let mut app = fixed_app();
    let mut reference = Reference::new();
    let mut ents: BTreeMap<Entity, Ent> = BTreeMap::new();
    let mut replaced: BTreeSet<Entity> = BTreeSet::new();
    let mut open: BTreeSet<(Entity, Entity)> = BTreeSet::new();
    for frame in 0..frames {
        for _ in 0..1 + rng.below(3) {
            let live: Vec<Entity> = ents.keys().copied().collect();
            let op = if live.len() < 4 {
                rng.below(2)
            } else {
                rng.below(13)
            };
            let pick = |rng: &mut Rng| live[rng.below(live.len())];
            match op {
                0 | 1 if live.len() < 18 => {
                    let collider = op == 0 || rng.below(2) == 0;
                    let mut spawned = app.world_mut().spawn(random_transform(&mut rng));
                    let entity = spawned.id();
                    let mut ent = Ent {
                        shape: None,
                        continuous: false,
                        layer: None,
                        sensor: false,
                        disabled: false,
                    };
                    if collider {
                        let shape = random_shape(&mut rng);
                        ent.layer = LAYERS[rng.below(4)];
                        ent.sensor = rng.below(5) == 0;
                        ent.continuous = rng.below(4) == 0;
                        spawned.insert((
                            Collider::new(shape.clone()).with_continuous(ent.continuous),
                            CollidingEntities::default(),
                        ));
                        if let Some(name) = ent.layer {
                            spawned.insert(CollisionLayer::named(name));
                        }
                        if ent.sensor {
                            spawned.insert(Sensor);
                        }
                        ent.shape = Some(shape);
                    } else {
                        // A pivot: scaled, mirrored or not.
                        let scale = pivot_scale(&mut rng);
                        spawned.get_mut::<Transform>().unwrap().scale = scale;
                    }
                    if !live.is_empty() && rng.below(2) == 0 {
                        let parent = pick(&mut rng);
                        app.world_mut().entity_mut(entity).insert(ChildOf(parent));
                    }
                    ents.insert(entity, ent);
                }
                0 | 1 => {}
                2 | 3 => {
                    let e = pick(&mut rng);
                    let scale = app.world().get::<Transform>(e).unwrap().scale;
                    *app.world_mut().get_mut::<Transform>(e).unwrap() =
                        random_transform(&mut rng).with_scale(scale);
                }
                4 => {
                    // Recursive despawn.
                    let e = pick(&mut rng);
                    app.world_mut().despawn(e);
                }
                5 => {
                    // The descendants only: the parent stays.
                    let e = pick(&mut rng);
                    app.world_mut().entity_mut(e).despawn_related::<Children>();
                }
                6 => {
                    let e = pick(&mut rng);
                    let ent = ents.get_mut(&e).unwrap();
                    if ent.disabled {
                        app.world_mut().entity_mut(e).remove::<Disabled>();
                    } else {
                        app.world_mut().entity_mut(e).insert(Disabled);
                    }
                    ent.disabled = !ent.disabled;
                }
                7 => {
                    let e = pick(&mut rng);
                    let mut entity = app.world_mut().entity_mut(e);
                    if entity.contains::<Hidden>() {
                        entity.remove::<Hidden>();
                    } else {
                        entity.insert(Hidden);
                    }
                }
                8 => {
                    let e = pick(&mut rng);
                    let layer = LAYERS[rng.below(4)];
                    match layer {
                        Some(name) => {
                            app.world_mut()
                                .entity_mut(e)
                                .insert(CollisionLayer::named(name));
                        }
                        None => {
                            app.world_mut().entity_mut(e).remove::<CollisionLayer>();
                        }
                    }
                    ents.get_mut(&e).unwrap().layer = layer;
                }
                9 => {
                    // A collider replaced, removed, or put (back) on an entity.
                    let e = pick(&mut rng);
                    let ent = ents.get_mut(&e).unwrap();
                    if ent.shape.is_some() && rng.below(3) == 0 {
                        app.world_mut().entity_mut(e).remove::<Collider>();
                        ent.shape = None;
                        replaced.remove(&e);
                    } else {
                        let shape = random_shape(&mut rng);
                        ent.continuous = rng.below(4) == 0;
                        let mut entity = app.world_mut().entity_mut(e);
                        entity.insert(Collider::new(shape.clone()).with_continuous(ent.continuous));
                        if !entity.contains::<CollidingEntities>() {
                            entity.insert(CollidingEntities::default());
                        }
                        ent.shape = Some(shape);
                        replaced.insert(e);
                    }
                }
                10 => {
                    // Reparent to an entity that is not a descendant, or detach.
                    let e = pick(&mut rng);
                    let mut below = vec![e];
                    descendants(&app, e, &mut below);
                    let parents: Vec<Entity> = live
                        .iter()
                        .copied()
                        .filter(|p| !below.contains(p))
                        .collect();
                    if rng.below(3) == 0 || parents.is_empty() {
                        app.world_mut().entity_mut(e).remove::<ChildOf>();
                    } else {
                        let parent = parents[rng.below(parents.len())];
                        app.world_mut().entity_mut(e).insert(ChildOf(parent));
                    }
                }
                _ => {
                    // A new scale on any entity (a pivot's children follow).
                    let e = pick(&mut rng);
                    let scale = pivot_scale(&mut rng);
                    app.world_mut().get_mut::<Transform>(e).unwrap().scale = scale;
                }
            }
            ents.retain(|&e, _| app.world().get_entity(e).is_ok());
            replaced.retain(|e| ents.contains_key(e));
        }
        // A frame: Bevy's own propagation, then zero to three runs of the fixed schedule.
        app.update();
        let label = format!("seed {seed:#x} frame {frame} before its runs");
        check_queries(&mut app, &reference, &ents, &mut rng, counts, &label);
        let runs = [0, 1, 1, 2, 3][rng.below(5)];
        counts.idle_frames += usize::from(runs == 0);
        counts.multi_run_frames += usize::from(runs > 1);
        for run in 0..runs {
            let label = format!("seed {seed:#x} frame {frame} run {run}");
            check_run(
                &mut app,
                &mut reference,
                &ents,
                &replaced,
                &mut open,
                counts,
                &label,
            );
            replaced.clear();
            check_queries(&mut app, &reference, &ents, &mut rng, counts, &label);
        }
    }
    // Everything despawned: every contact still open ends, naming its entities, gone.
    let roots: Vec<Entity> = ents
        .keys()
        .copied()
        .filter(|&e| app.world().get::<ChildOf>(e).is_none())
        .collect();
    for e in roots {
        app.world_mut().despawn(e);
    }
    ents.clear();
    app.update();
    let label = format!("seed {seed:#x} all despawned");
    check_run(
        &mut app,
        &mut reference,
        &ents,
        &replaced,
        &mut open,
        counts,
        &label,
    );
    assert!(open.is_empty(), "{label}: begins without an end: {open:?}");
    assert_eq!(
        app.world().resource::<CollisionWorld>().world().len(),
        0,
        "{label}"
    );
}

/// 60 seeds of 50 frames: the plugin's events are the reference world's, every begin has one
/// end, no begin names an entity gone, and `CollidingEntities` and the observers agree.
#[test]
fn lifecycles_with_fixed_steps_give_the_reference_worlds_events() {
    let mut counts = Counts::default();
    for seed in 1..=60u64 {
        sweep(
            seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            50,
            &mut counts,
        );
    }
    let c = &counts;
    // The generator reaches what the test is about.
    assert!(
        c.starts > 400 && c.ends == c.starts,
        "{} starts {} ends",
        c.starts,
        c.ends
    );
    assert!(c.idle_frames > 200 && c.multi_run_frames > 200 && c.runs > 3000);
    assert!(
        c.removed_ends > 50 && c.disabled_ends > 30 && c.filtered_ends > 5,
        "removed {} disabled {} filtered {}",
        c.removed_ends,
        c.disabled_ends,
        c.filtered_ends
    );
    assert!(
        c.scaled_contacts > 100,
        "{} scaled contacts",
        c.scaled_contacts
    );
    assert!(
        c.swept > 20 && c.manifolds > 200,
        "{} swept, {} manifolds",
        c.swept,
        c.manifolds
    );
    assert!(
        c.queries > 10_000 && c.stale > 30,
        "{} queries, {} stale",
        c.queries,
        c.stale
    );
}

/// The exact example: between two runs of the fixed schedule, a point query where a despawned,
/// a disabled and a collider-less entity were answers none of them (the world still holds
/// their colliders until the next run; it answered all three, so a game acting on what a
/// query named could be handed an entity that no longer exists), and the ones that stay.
#[test]
fn queries_between_runs_leave_out_entities_gone_since_the_last_run() {
    let mut app = fixed_app();
    let spawn = |app: &mut App| {
        app.world_mut()
            .spawn((Collider::circle(1.0).unwrap(), Transform::default()))
            .id()
    };
    let [despawned, disabled, stripped, kept] = [(); 4].map(|_| spawn(&mut app));
    app.update();
    app.world_mut().run_schedule(Fixed);
    let point = |app: &mut App| {
        let mut found = app
            .world_mut()
            .run_system_once(|q: SpatialQuery| {
                q.point_intersections(Vec2::ZERO, &SpatialQueryFilter::default())
                    .unwrap()
            })
            .unwrap();
        found.sort_unstable();
        found
    };
    let mut all = vec![despawned, disabled, stripped, kept];
    all.sort_unstable();
    assert_eq!(point(&mut app), all);
    app.world_mut().despawn(despawned);
    app.world_mut().entity_mut(disabled).insert(Disabled);
    app.world_mut().entity_mut(stripped).remove::<Collider>();
    app.update();
    assert_eq!(app.world().resource::<CollisionWorld>().world().len(), 4);
    assert_eq!(point(&mut app), vec![kept]);
    // Despawning what a ray found: the entity exists.
    app.world_mut()
        .run_system_once(|q: SpatialQuery, mut commands: Commands| {
            let hit = q
                .cast_ray(
                    Vec2::new(-5.0, 0.0),
                    Vec2::X,
                    10.0,
                    &SpatialQueryFilter::default(),
                )
                .unwrap()
                .unwrap();
            commands.entity(hit.entity).despawn();
        })
        .unwrap();
    app.world_mut().flush();
    assert!(app.world().get_entity(kept).is_err());
    // Enabled again before the next run: answered again, as its collider never left.
    app.world_mut().entity_mut(disabled).remove::<Disabled>();
    assert_eq!(point(&mut app), vec![disabled]);
    app.world_mut().run_schedule(Fixed);
    assert_eq!(point(&mut app), vec![disabled]);
}
