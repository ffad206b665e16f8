//! Colliders, layers, sensors and transforms into the collision world.

use bevy_ecs::entity::{Entity, EntityHashSet};
use bevy_ecs::entity_disabling::Disabled;
use bevy_ecs::prelude::*;
use bevy_ecs::query::Allow;
use bevy_transform::components::GlobalTransform;
use collide2d::shape::Shape;
use collide2d::world::{Collider as WorldCollider, LayerId, OneWay, WorldError};
use collide2d::{Transform, Vec2};

use crate::components::{Collider, CollisionLayer, Sensor};
use crate::convert::{placement, to_lib};
use crate::{entity_order, CollisionError, CollisionWorld, Pending, Tracked};

/// Every collider entity's parts, as the sync reads them.
type ColliderParts<'a> = (
    Entity,
    Ref<'a, Collider>,
    Ref<'a, GlobalTransform>,
    Option<Ref<'a, CollisionLayer>>,
    Option<Ref<'a, Sensor>>,
);

/// The shape as placed in the world, and the scale applied: the collider's shape scaled by
/// `scale`. A non-uniform scale that the shape cannot take exactly (circles, capsules, rounded
/// polygons) is applied as its larger factor, keeping the signs.
fn scaled_shape(shape: &Shape, scale: Vec2) -> Result<(Shape, Vec2), WorldError> {
    if scale == Vec2::ONE {
        return Ok((shape.clone(), scale));
    }
    let shape_error = |e| WorldError::InvalidInput(shape_error_text(e));
    match shape.scaled(scale) {
        Ok(scaled) => Ok((scaled, scale)),
        Err(collide2d::ShapeError::NonUniformScale) => {
            let factor = scale.x.abs().max(scale.y.abs());
            let applied = Vec2::new(factor.copysign(scale.x), factor.copysign(scale.y));
            let scaled = shape.scaled(applied).map_err(shape_error)?;
            Ok((scaled, applied))
        }
        Err(e) => Err(shape_error(e)),
    }
}

/// The collider's one-way side for a shape scaled by `applied`: the blocking direction is a
/// normal of the shape, so it maps by the inverse scale (a mirror turns it over), and the
/// margin is a depth along it, so it scales as the shape's size along that normal does: a
/// depth `m` along the unit normal `n` becomes `m / |n / applied|` (`m |s|` under a uniform
/// scale `s`; unchanged under ±1).
fn one_way(collider: &Collider, applied: Vec2) -> Option<OneWay> {
    collider.one_way.map(|(direction, margin)| {
        let direction = to_lib(direction);
        let normal = direction / applied;
        // `|d| / |d / applied|` is `1 / |n / applied|` for the unit `n` along `d`, and exactly
        // 1 when `applied` is ±1 on both axes. A direction the world refuses (zero,
        // non-finite) keeps the margin as given.
        let factor = direction.length() / normal.length();
        OneWay {
            direction: normal,
            margin: if factor.is_finite() && factor > 0.0 {
                margin * factor
            } else {
                margin
            },
        }
    })
}

fn shape_error_text(error: collide2d::ShapeError) -> &'static str {
    match error {
        collide2d::ShapeError::NonPositiveSize { .. } => "zero collider scale",
        collide2d::ShapeError::NonFinite => "non-finite collider scale",
        _ => "collider scale",
    }
}

/// The part of an object's scale (as [`placement`] reads it) that a collider takes: all of it,
/// or under [`Collider::with_ignore_object_scale`] its mirror only (±1 per axis).
///
/// The mirror stays because it is the only answer that depends on the entity's
/// `GlobalTransform` alone. A mirrored transform is a turn times a mirror in many ways (a
/// scale of (1, -1) is a half turn times (-1, 1)); a collider that left the mirror out would
/// have to pick one of those turns, and would stand upside down under one spelling of the
/// same transform and upright under another. Kept, the mirror maps the collider as the
/// transform maps the sprite, with only the size left out.
pub(crate) fn taken_scale(collider: &Collider, object_scale: Vec2) -> Vec2 {
    if collider.ignore_object_scale {
        // `placement` puts a mirror on x; a negative y is kept alike, should one come.
        let sign = |s: f32| if s < 0.0 { -1.0 } else { 1.0 };
        Vec2::new(sign(object_scale.x), sign(object_scale.y))
    } else {
        object_scale
    }
}

/// The scale a collider's shape takes on an object of scale `object_scale`.
fn shape_scale(collider: &Collider, object_scale: Vec2) -> Vec2 {
    to_lib(collider.scale) * taken_scale(collider, object_scale)
}

/// The collider's offset on its object: its translation scaled by the object's scale (its
/// mirror only under `ignore_object_scale`), and its turn reversed when that scale mirrors (a
/// turn seen in a mirror turns the other way).
fn offset(collider: &Collider, object_scale: Vec2) -> Transform {
    let object_scale = taken_scale(collider, object_scale);
    let angle = if object_scale.x * object_scale.y < 0.0 {
        -collider.angle
    } else {
        collider.angle
    };
    Transform::new(to_lib(collider.offset) * object_scale, angle)
}

fn layer_id(
    world: &collide2d::World,
    layer: Option<&CollisionLayer>,
) -> Result<LayerId, WorldError> {
    match layer {
        Some(layer) => world.layers().id(&layer.0),
        None => Ok(LayerId::DEFAULT),
    }
}

/// The layer an entity's `CollisionLayer` names: the default layer while the name is unknown,
/// with the error recorded and the entity kept in `unresolved`, to be resolved again (and the
/// error recorded again) at each step until the layer exists.
fn resolve_layer(
    world: &collide2d::World,
    unresolved: &mut EntityHashSet,
    errors: &mut Vec<CollisionError>,
    entity: Entity,
    layer: Option<&CollisionLayer>,
) -> LayerId {
    match layer_id(world, layer) {
        Ok(id) => {
            unresolved.remove(&entity);
            id
        }
        Err(error) => {
            unresolved.insert(entity);
            errors.push(CollisionError {
                entity: Some(entity),
                error,
            });
            LayerId::DEFAULT
        }
    }
}

/// Whether the world's layer names differ from `names` (the ones last resolved against).
fn names_differ(world: &collide2d::World, names: &[String]) -> bool {
    !world
        .layers()
        .iter()
        .map(|(_, name)| name)
        .eq(names.iter().map(String::as_str))
}

/// The world's collider for an entity's parts.
fn world_collider(
    entity: Entity,
    collider: &Collider,
    global: &GlobalTransform,
    layer: LayerId,
    sensor: bool,
) -> Result<(WorldCollider, (Vec2, Vec2)), WorldError> {
    let (xf, object_scale) = placement(global);
    let scale = shape_scale(collider, object_scale);
    let (shape, applied) = scaled_shape(&collider.shape, scale)?;
    let mut built = WorldCollider::new(shape)
        .with_transform(xf)
        .with_offset(offset(collider, object_scale))
        .with_layer(layer)
        .with_sensor(sensor)
        .with_continuous(collider.continuous)
        .with_user_data(entity.to_bits());
    if let Some(OneWay { direction, margin }) = one_way(collider, applied) {
        built = built.with_one_way(direction, margin);
    }
    Ok((built, (scale, taken_scale(collider, object_scale))))
}

/// Notes that `entity`'s collider went away (its `Collider` removed, or the entity despawned
/// or disabled), for the next step to apply whenever it runs.
pub(crate) fn note_gone(gone: On<Remove, Collider>, mut world: ResMut<CollisionWorld>) {
    world.note(gone.entity, Pending::Gone);
}

/// Notes that `entity` was disabled (Bevy's `Disabled`), for the next step.
pub(crate) fn note_disabled(disabled: On<Add, Disabled>, mut world: ResMut<CollisionWorld>) {
    world.note(disabled.entity, Pending::Gone);
}

/// Marks an entity's `Transform` changed as it is enabled again: Bevy's propagation skips
/// disabled entities, so a move made while disabled would otherwise leave its
/// `GlobalTransform` (and its descendants', and so their colliders) where it was.
///
/// An entity with a `Collider` enabled again before the step has its collider back at once
/// (for [`CollisionWorld::handle`]; the step would find it there).
pub(crate) fn propagate_enabled(
    enabled: On<Remove, Disabled>,
    mut transforms: Query<&mut bevy_transform::components::Transform, Allow<Disabled>>,
    with_collider: Query<(), (With<Collider>, With<Disabled>)>,
    mut world: ResMut<CollisionWorld>,
) {
    if let Ok(mut transform) = transforms.get_mut(enabled.entity) {
        transform.set_changed();
    }
    if with_collider.contains(enabled.entity) {
        world.gone.remove(&enabled.entity);
    }
}

/// Notes that an enabled entity's `Collider` came back before the step that would have taken
/// its collider away: the step finds it there (the collider is rebuilt from the new
/// component), so [`CollisionWorld::handle`] answers it again at once.
pub(crate) fn note_back(
    back: On<Add, Collider>,
    disabled: Query<(), With<Disabled>>,
    mut world: ResMut<CollisionWorld>,
) {
    if !disabled.contains(back.entity) {
        world.gone.remove(&back.entity);
    }
}

/// Notes that `entity`'s layer went away, for the next step.
pub(crate) fn note_layer_gone(gone: On<Remove, CollisionLayer>, mut world: ResMut<CollisionWorld>) {
    world.note(gone.entity, Pending::Changed);
}

/// Notes that `entity`'s sensor flag went away, for the next step.
pub(crate) fn note_sensor_gone(gone: On<Remove, Sensor>, mut world: ResMut<CollisionWorld>) {
    world.note(gone.entity, Pending::Changed);
}

/// Brings the collision world up to date with the ECS: removals, insertions, changes, moves.
pub(crate) fn sync_colliders(
    mut world: ResMut<CollisionWorld>,
    colliders: Query<ColliderParts>,
    disabled: Query<(), (With<Collider>, With<Disabled>)>,
) {
    let CollisionWorld {
        world,
        tracked,
        errors,
        gone,
        touched,
        layer_names,
        unresolved,
        shapes_built,
    } = &mut *world;
    errors.retain(|e| e.entity.is_none());

    // Removals and disablings, in entity order: a despawned entity's collider, a removed
    // `Collider`, a disabled entity (unless it came back since).
    let mut gone: Vec<Entity> = std::mem::take(gone).into_iter().collect();
    gone.retain(|&entity| !colliders.contains(entity));
    gone.sort_unstable_by_key(|&e| entity_order(e));
    for entity in gone {
        let result = if disabled.contains(entity) {
            match tracked.get_mut(&entity) {
                Some(t) if !t.disabled => {
                    t.disabled = true;
                    world.set_enabled(t.handle, false)
                }
                _ => Ok(()),
            }
        } else {
            match tracked.remove(&entity) {
                Some(t) => world.remove(t.handle).map(|_| ()),
                None => Ok(()),
            }
        };
        if let Err(error) = result {
            errors.push(CollisionError {
                entity: Some(entity),
                error,
            });
        }
    }

    // Entities whose layer or sensor component went away.
    let mut touched: Vec<Entity> = std::mem::take(touched);

    // Insertions, then changes, each in entity order.
    let mut new = Vec::new();
    let mut changed = Vec::new();
    let mut enabled = Vec::new();
    for (entity, collider, _, layer, sensor) in &colliders {
        match tracked.get(&entity) {
            // Enabled again: built afresh from its components as they are now.
            Some(t) if t.disabled => enabled.push(entity),
            None => new.push(entity),
            Some(_)
                if collider.is_changed()
                    || layer.as_ref().is_some_and(|l| l.is_changed())
                    || sensor.as_ref().is_some_and(|s| s.is_added()) =>
            {
                changed.push(entity)
            }
            // Moved only (or not at all): pushed in the batch below.
            Some(_) => {}
        }
    }
    // The disabled colliders of entities enabled again leave the world (they have no contacts)
    // in entity order, so the handles the insertions reuse do not depend on the query's order.
    enabled.sort_unstable_by_key(|&e| entity_order(e));
    for entity in enabled {
        if let Some(t) = tracked.remove(&entity) {
            if let Err(error) = world.remove(t.handle) {
                errors.push(CollisionError {
                    entity: Some(entity),
                    error,
                });
            }
        }
        new.push(entity);
    }
    new.sort_unstable_by_key(|&e| entity_order(e));
    for &entity in &new {
        let Ok((_, collider, global, layer, sensor)) = colliders.get(entity) else {
            continue;
        };
        let layer = resolve_layer(world, unresolved, errors, entity, layer.as_deref());
        let built = world_collider(entity, &collider, &global, layer, sensor.is_some());
        *shapes_built += u64::from(built.is_ok());
        match built.and_then(|(c, t)| Ok((world.insert(c)?, t))) {
            Ok((handle, (scale, object_scale))) => {
                let t = Tracked {
                    handle,
                    scale,
                    object_scale,
                    disabled: false,
                };
                tracked.insert(entity, t);
            }
            Err(error) => errors.push(CollisionError {
                entity: Some(entity),
                error,
            }),
        }
    }
    let new_set: EntityHashSet = new.iter().copied().collect();
    touched.retain(|entity| colliders.contains(*entity) && !new_set.contains(entity));
    changed.extend(touched);
    changed.sort_unstable_by_key(|&e| entity_order(e));
    changed.dedup();
    for &entity in &changed {
        if let Err(error) = apply_change(
            world,
            tracked,
            shapes_built,
            unresolved,
            errors,
            &colliders,
            entity,
        ) {
            errors.push(CollisionError {
                entity: Some(entity),
                error,
            });
        }
    }

    // Layer names resolved again: every named layer when the names changed (a layer added,
    // renamed or reordered since the last step), else those still unknown (their error
    // recorded again). The colliders built or changed above were resolved against the names
    // as they are now.
    let done: EntityHashSet = new.iter().chain(&changed).copied().collect();
    let mut again: Vec<Entity> = if names_differ(world, layer_names) {
        *layer_names = world
            .layers()
            .iter()
            .map(|(_, name)| name.to_string())
            .collect();
        colliders
            .iter()
            .filter(|(_, _, _, layer, _)| layer.is_some())
            .map(|(entity, ..)| entity)
            .collect()
    } else {
        unresolved.iter().copied().collect()
    };
    // An entity gone or disabled since is resolved again when it is built again.
    unresolved.retain(|&entity| colliders.contains(entity) && tracked.contains_key(&entity));
    again.retain(|entity| !done.contains(entity));
    again.sort_unstable_by_key(|&e| entity_order(e));
    for entity in again {
        let (Some(t), Ok((_, _, _, layer, _))) = (tracked.get(&entity), colliders.get(entity))
        else {
            continue;
        };
        let id = resolve_layer(world, unresolved, errors, entity, layer.as_deref());
        let result = match world.get(t.handle) {
            Ok(c) if c.layer() != id => world.set_layer(t.handle, id),
            Ok(_) => Ok(()),
            Err(error) => Err(error),
        };
        if let Err(error) = result {
            errors.push(CollisionError {
                entity: Some(entity),
                error,
            });
        }
    }

    // Moves: the changed global transforms, in entity order (reshapes for a new scale too,
    // and the errors they record), as one batch. The new colliders were placed as built.
    let new = new_set;
    let mut moved: Vec<Entity> = colliders
        .iter()
        .filter(|(entity, _, global, _, _)| global.is_changed() && !new.contains(entity))
        .map(|(entity, ..)| entity)
        .collect();
    moved.sort_unstable_by_key(|&e| entity_order(e));
    let moves: Vec<(Entity, collide2d::world::ColliderHandle, Transform)> = moved
        .into_iter()
        .filter_map(|entity| {
            let (_, collider, global, _, _) = colliders.get(entity).ok()?;
            let (handle, xf) = planned_move(
                world,
                tracked,
                errors,
                shapes_built,
                entity,
                &collider,
                &global,
            )?;
            Some((entity, handle, xf))
        })
        .collect();
    let batch: Vec<_> = moves.iter().map(|&(_, handle, xf)| (handle, xf)).collect();
    if world.set_transforms(&batch).is_err() {
        // All or nothing: move the acceptable ones one by one and report the others.
        for (entity, handle, xf) in moves {
            if let Err(error) = world.set_transform(handle, xf) {
                errors.push(CollisionError {
                    entity: Some(entity),
                    error,
                });
            }
        }
    }
}

/// The move that brings a tracked collider to its entity's `global` transform: its handle and
/// placement, the collider reshaped first when the entity's scale changed; `None` when the
/// entity has no collider in the world or the collider is already there.
fn planned_move(
    world: &mut collide2d::World,
    tracked: &mut bevy_ecs::entity::EntityHashMap<Tracked>,
    errors: &mut Vec<CollisionError>,
    shapes_built: &mut u64,
    entity: Entity,
    collider: &Collider,
    global: &GlobalTransform,
) -> Option<(collide2d::world::ColliderHandle, Transform)> {
    let t = tracked.get(&entity)?;
    let (xf, object_scale) = placement(global);
    // A change of the scale the collider takes reshapes it before it moves (only then: a
    // turned parent's scale reads the same at every turn, see `placement`).
    if taken_scale(collider, object_scale) != t.object_scale {
        if let Err(error) = rescale(world, tracked, shapes_built, entity, collider, object_scale) {
            errors.push(CollisionError {
                entity: Some(entity),
                error,
            });
        }
    }
    let handle = tracked.get(&entity)?.handle;
    // A transform marked changed with the same value (a second propagation, a re-parenting
    // that keeps the pose) is not a move.
    let unchanged = world.get(handle).is_ok_and(|c| c.transform() == xf);
    (!unchanged).then_some((handle, xf))
}

/// Moves `entity`'s collider, if it has one in the world, to its entity's `global` transform
/// at once (a descendant carried along by a character's move).
pub(crate) fn follow(
    world: &mut CollisionWorld,
    entity: Entity,
    collider: &Collider,
    global: &GlobalTransform,
) {
    let CollisionWorld {
        world,
        tracked,
        errors,
        shapes_built,
        ..
    } = world;
    if tracked.get(&entity).is_none_or(|t| t.disabled) {
        return;
    }
    if let Some((handle, xf)) = planned_move(
        world,
        tracked,
        errors,
        shapes_built,
        entity,
        collider,
        global,
    ) {
        if let Err(error) = world.set_transform(handle, xf) {
            errors.push(CollisionError {
                entity: Some(entity),
                error,
            });
        }
    }
}

/// Re-applies a changed collider, layer or sensor flag.
fn apply_change(
    world: &mut collide2d::World,
    tracked: &mut bevy_ecs::entity::EntityHashMap<Tracked>,
    shapes_built: &mut u64,
    unresolved: &mut EntityHashSet,
    errors: &mut Vec<CollisionError>,
    colliders: &Query<ColliderParts>,
    entity: Entity,
) -> Result<(), WorldError> {
    let Some(t) = tracked.get(&entity).copied() else {
        return Ok(());
    };
    let Ok((_, collider, global, layer, sensor)) = colliders.get(entity) else {
        return Ok(());
    };
    if collider.is_changed() {
        // The entity's scale as it is now: the one stored may be stale (not followed while
        // the collider ignored it, or refused).
        let (_, object_scale) = placement(&global);
        if let Err(error) = rescale(
            world,
            tracked,
            shapes_built,
            entity,
            &collider,
            object_scale,
        ) {
            // The shape is refused; the layer and sensor flag still apply.
            errors.push(CollisionError {
                entity: Some(entity),
                error,
            });
        }
        world.set_continuous(t.handle, collider.continuous)?;
    }
    let layer_id = resolve_layer(world, unresolved, errors, entity, layer.as_deref());
    if world.get(t.handle)?.layer() != layer_id {
        world.set_layer(t.handle, layer_id)?;
    }
    if world.get(t.handle)?.is_sensor() != sensor.is_some() {
        world.set_sensor(t.handle, sensor.is_some())?;
    }
    Ok(())
}

/// Gives a collider the shape and offset for its object's scale.
fn rescale(
    world: &mut collide2d::World,
    tracked: &mut bevy_ecs::entity::EntityHashMap<Tracked>,
    shapes_built: &mut u64,
    entity: Entity,
    collider: &Collider,
    object_scale: Vec2,
) -> Result<(), WorldError> {
    let Some(t) = tracked.get_mut(&entity) else {
        return Ok(());
    };
    let scale = shape_scale(collider, object_scale);
    let (shape, applied) = scaled_shape(&collider.shape, scale)?;
    *shapes_built += 1;
    world.set_shape(t.handle, shape)?;
    world.set_offset(t.handle, offset(collider, object_scale))?;
    let one_way = one_way(collider, applied);
    if one_way.is_some() || world.get(t.handle)?.one_way().is_some() {
        // Set in place: a contact the collider still has goes on without an end and a begin.
        world.set_one_way(t.handle, one_way)?;
    }
    t.scale = scale;
    t.object_scale = taken_scale(collider, object_scale);
    Ok(())
}
