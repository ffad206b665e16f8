//! A character controller on the library's `move_and_slide`.

use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::{ChildOf, Children};
use bevy_ecs::prelude::*;
use bevy_math::{Mat2, Vec2, Vec3};
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::world::{LayerMask, MoveOptions, QueryFilter, WorldError};

use crate::components::Collider;
use crate::convert::{from_lib, to_lib};
use crate::{sync, CollisionError, CollisionWorld};

/// Moves its entity with `move_and_slide` at each step: set [`motion`](Self::motion) (the
/// displacement wanted this step, world units), read [`CharacterState`] afterwards.
///
/// The entity needs a [`Collider`](crate::Collider). The move changes its `Transform` (in its
/// parent's frame when it has one) and its collider in the world at once, and carries its
/// descendants along in the same step: their `GlobalTransform`s (as Bevy's propagation computes
/// them) and their colliders; `motion` is reset to zero after each step. A parent flattened
/// along `z` (a scale with `z` zero) moves it in the plane as any other; a move its entity
/// cannot make (under a parent scaled to zero in `x` or `y`) is undone and recorded as a
/// [`CollisionError`], as a refused move is, and [`CharacterState::moved`] is then zero.
/// Under a `Disabled` ancestor (where Bevy's transform propagation stops) it does not move:
/// its `motion` is dropped, `moved` is zero and its collider stays with its `GlobalTransform`.
/// Sensors are passed through; one-way colliders
/// block from their blocking side only, unless [`drop_through`](Self::drop_through) is set for
/// the step.
#[derive(Component, Clone, Copy, Debug)]
#[require(CharacterState)]
pub struct CharacterController {
    /// The displacement wanted at the next step (reset to zero at each step, made or not).
    pub motion: Vec2,
    /// The up direction, for floors and ceilings.
    pub up: Vec2,
    /// Steepest walkable slope (radians).
    pub max_slope: f32,
    /// Gap kept between the character and what it touches (held to the character's size, as
    /// [`MoveOptions`] states).
    pub skin: f32,
    /// Highest ledge stepped onto (0: off; at most half the character's height).
    pub step_height: f32,
    /// Farthest pull down onto the floor along slopes and steps (0: off; at most half the
    /// character's height).
    pub snap_distance: f32,
    /// Only colliders on these layers block the character.
    pub layers: LayerMask,
    /// Pass through one-way colliders at the next step (reset to `false` at each step).
    pub drop_through: bool,
}

impl Default for CharacterController {
    fn default() -> Self {
        let defaults = MoveOptions::default();
        CharacterController {
            motion: Vec2::ZERO,
            up: from_lib(defaults.up),
            max_slope: defaults.max_slope,
            skin: defaults.skin,
            step_height: defaults.step_height,
            snap_distance: defaults.snap_distance,
            layers: LayerMask::ALL,
            drop_through: false,
        }
    }
}

/// What the last step's move did.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct CharacterState {
    /// The displacement made (zero when the move was refused or undone, or the character has
    /// no collider in the world).
    pub moved: Vec2,
    /// Standing on walkable ground.
    pub on_floor: bool,
    /// Stopped by a wall.
    pub on_wall: bool,
    /// Stopped by a ceiling.
    pub on_ceiling: bool,
    /// The floor's normal, when on the floor.
    pub floor_normal: Option<Vec2>,
    /// The entity stood on, when on the floor.
    pub floor: Option<Entity>,
}

/// Moves every character controller.
pub(crate) fn move_characters(
    mut world: ResMut<CollisionWorld>,
    mut characters: Query<(
        Entity,
        &mut CharacterController,
        &mut CharacterState,
        Option<&ChildOf>,
    )>,
    mut transforms: Query<(&mut Transform, &mut GlobalTransform, Option<&Children>)>,
    parents: Query<&ChildOf>,
    colliders: Query<&Collider>,
) {
    let mut order: Vec<Entity> = characters.iter().map(|(entity, ..)| entity).collect();
    order.sort_unstable_by_key(|&e| crate::entity_order(e));
    for entity in order {
        let Ok((_, mut controller, mut state, parent)) = characters.get_mut(entity) else {
            continue;
        };
        let motion = to_lib(controller.motion);
        let skip_one_way = controller.drop_through;
        controller.motion = Vec2::ZERO;
        controller.drop_through = false;
        // Until the move is made, the step moved nothing (a refused move included).
        state.moved = Vec2::ZERO;
        let Some(handle) = world.handle(entity) else {
            continue;
        };
        if !propagated(entity, &parents, &transforms) {
            // Under a disabled ancestor: frozen with its subtree until the ancestor is enabled.
            continue;
        }
        let options = MoveOptions::default()
            .with_up(to_lib(controller.up))
            .with_max_slope(controller.max_slope)
            .with_skin(controller.skin)
            .with_step_height(controller.step_height)
            .with_snap_distance(controller.snap_distance)
            .with_filter(QueryFilter::new().layers(controller.layers))
            .with_skip_one_way(skip_one_way);
        let before = world.world.get(handle).map(|c| c.transform());
        match world.world.move_and_slide(handle, motion, options) {
            Ok(result) => {
                let moved = from_lib(result.moved);
                let parent_global = parent
                    .and_then(|p| transforms.get(p.parent()).ok())
                    .map(|(_, global, _)| *global);
                let local = match parent_global {
                    Some(parent) => local_motion(&parent, moved),
                    None => Some(moved.extend(0.0)),
                };
                let Some(local) = local else {
                    // The parent's transform cannot be undone in the plane (a zero scale):
                    // the entity cannot make the move, so its collider goes back to where it
                    // was.
                    let back = before.and_then(|xf| world.world.set_transform(handle, xf));
                    let error = back
                        .err()
                        .unwrap_or(WorldError::InvalidInput("character parent transform"));
                    world.errors.push(CollisionError {
                        entity: Some(entity),
                        error,
                    });
                    continue;
                };
                if local != Vec3::ZERO {
                    carry(
                        &mut world,
                        &mut transforms,
                        &colliders,
                        entity,
                        parent_global,
                        local,
                    );
                }
                let floor = result.floor_collider.and_then(|floor| world.entity(floor));
                *state = CharacterState {
                    moved,
                    on_floor: result.on_floor,
                    on_wall: result.on_wall,
                    on_ceiling: result.on_ceiling,
                    floor_normal: result.floor_normal.map(from_lib),
                    floor,
                };
            }
            Err(error) => world.errors.push(CollisionError {
                entity: Some(entity),
                error,
            }),
        }
    }
}

/// The deepest hierarchy [`propagated`] follows; a longer chain of parents is taken as one
/// that propagation does not reach (as a chain that loops back on itself is not).
const MAX_DEPTH: usize = 1 << 16;

/// Whether Bevy's transform propagation reaches `entity`: every ancestor up to the root has a
/// transform and is visible to queries (not `Disabled`, nor hidden by another default query
/// filter). Propagation stops at an ancestor that is not, so the `GlobalTransform`s under it
/// stay where they were: a character there does not move (its `Transform`, its
/// `GlobalTransform` and its collider stay together) until the ancestor is back.
fn propagated(
    entity: Entity,
    parents: &Query<&ChildOf>,
    transforms: &Query<(&mut Transform, &mut GlobalTransform, Option<&Children>)>,
) -> bool {
    let mut at = entity;
    for _ in 0..MAX_DEPTH {
        let Ok(parent) = parents.get(at) else {
            // The root (`at` itself was checked below, or is the character).
            return true;
        };
        at = parent.parent();
        if !transforms.contains(at) {
            return false;
        }
    }
    false
}

/// The displacement in the parent's frame (whose transform is `parent`) that moves an entity
/// by `moved` in the plane: through the parent's inverse, which keeps the entity's depth, or,
/// when the parent has none but its map of the plane has one (a parent flattened along `z`,
/// as a 2D game may scale it with `z` zero), through that map's inverse. `None` when the parent
/// flattens the plane itself (a zero scale in `x` or `y`).
fn local_motion(parent: &GlobalTransform, moved: Vec2) -> Option<Vec3> {
    let affine = parent.affine();
    let local = affine.inverse().transform_vector3(moved.extend(0.0));
    if local.is_finite() {
        return Some(local);
    }
    let plane = Mat2::from_cols(
        affine.matrix3.x_axis.truncate(),
        affine.matrix3.y_axis.truncate(),
    );
    let local = plane.inverse() * moved;
    local.is_finite().then(|| local.extend(0.0))
}

/// Moves a character's `Transform` by `local` (in its parent's frame) and carries its
/// descendants along at once: their `GlobalTransform`s as Bevy's propagation computes them,
/// and their colliders in the world, so that the step's contacts and queries see a child
/// (a hitbox, a held item) where it is on the moved character, not one step behind.
fn carry(
    world: &mut CollisionWorld,
    transforms: &mut Query<(&mut Transform, &mut GlobalTransform, Option<&Children>)>,
    colliders: &Query<&Collider>,
    character: Entity,
    parent_global: Option<GlobalTransform>,
    local: Vec3,
) {
    let Ok((mut transform, mut global, children)) = transforms.get_mut(character) else {
        return;
    };
    transform.translation += local;
    // The character's own collider is where `move_and_slide` left it; its `GlobalTransform`
    // is what propagation will make of the new `Transform`.
    *global = match parent_global {
        Some(parent) => parent.mul_transform(*transform),
        None => GlobalTransform::from(*transform),
    };
    let mut stack: Vec<(Entity, GlobalTransform)> = children
        .into_iter()
        .flatten()
        .map(|&child| (child, *global))
        .collect();
    while let Some((entity, parent)) = stack.pop() {
        let Ok((transform, mut global, children)) = transforms.get_mut(entity) else {
            continue;
        };
        *global = parent.mul_transform(*transform);
        let global = *global;
        stack.extend(children.into_iter().flatten().map(|&child| (child, global)));
        if let Ok(collider) = colliders.get(entity) {
            sync::follow(world, entity, collider, &global);
        }
    }
}
