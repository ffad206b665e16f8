//! Spatial queries in entity terms: rays, shape casts, points, boxes and shapes.

use bevy_ecs::entity::Entity;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_math::Vec2;
use collide2d::shape::{Aabb, Ray, Shape};
use collide2d::world::{
    Collider as WorldCollider, ColliderHandle, LayerMask, QueryFilter, WorldError,
};
use collide2d::{CastOptions, Transform};

use crate::components::Collider;
use crate::convert::{from_lib, to_lib};
use crate::{entity_of, CollisionWorld};

/// Which colliders a spatial query considers: the library's [`QueryFilter`] in entity terms.
///
/// ```
/// # use bevy_ecs::entity::Entity;
/// use bevy_collide2d::SpatialQueryFilter;
/// let player = Entity::from_raw_u32(1).unwrap();
/// let not_ghosts = |entity: Entity| entity != Entity::from_raw_u32(7).unwrap();
/// let skipped = [player]; // the filter borrows the list: keep it in a variable
/// let filter = SpatialQueryFilter::default()
///     .excluding(&skipped)
///     .with_sensors(true)
///     .with_predicate(&not_ghosts);
/// # let _ = filter;
/// ```
#[derive(Clone, Copy)]
pub struct SpatialQueryFilter<'a> {
    /// Only colliders on these layers (default all; see
    /// [`CollisionWorld::layer_mask`](crate::CollisionWorld::layer_mask)).
    pub layers: LayerMask,
    /// Whether sensors count (default `false`).
    pub include_sensors: bool,
    /// Whether one-way colliders are skipped (default `false`).
    pub skip_one_way: bool,
    /// Entities to skip.
    pub excluded: &'a [Entity],
    /// When set, only entities it accepts (asked last).
    pub predicate: Option<&'a dyn Fn(Entity) -> bool>,
}

impl Default for SpatialQueryFilter<'_> {
    fn default() -> Self {
        SpatialQueryFilter {
            layers: LayerMask::ALL,
            include_sensors: false,
            skip_one_way: false,
            excluded: &[],
            predicate: None,
        }
    }
}

impl std::fmt::Debug for SpatialQueryFilter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpatialQueryFilter")
            .field("layers", &self.layers)
            .field("include_sensors", &self.include_sensors)
            .field("skip_one_way", &self.skip_one_way)
            .field("excluded", &self.excluded)
            .field("predicate", &self.predicate.map(|_| ".."))
            .finish()
    }
}

impl<'a> SpatialQueryFilter<'a> {
    /// Only these layers.
    pub fn with_layers(mut self, layers: LayerMask) -> Self {
        self.layers = layers;
        self
    }

    /// Sensors counted (`true`) or not.
    pub fn with_sensors(mut self, include: bool) -> Self {
        self.include_sensors = include;
        self
    }

    /// One-way colliders skipped (`true`) or not.
    pub fn with_skip_one_way(mut self, skip: bool) -> Self {
        self.skip_one_way = skip;
        self
    }

    /// Everything but these entities (replaces the list).
    pub fn excluding(mut self, entities: &'a [Entity]) -> Self {
        self.excluded = entities;
        self
    }

    /// Only entities that `predicate` accepts.
    pub fn with_predicate(mut self, predicate: &'a dyn Fn(Entity) -> bool) -> Self {
        self.predicate = Some(predicate);
        self
    }
}

/// A ray's hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHitData {
    /// The entity hit.
    pub entity: Entity,
    /// Distance along the ray (0 when it starts inside).
    pub distance: f32,
    /// The point hit.
    pub point: Vec2,
    /// The surface normal there (facing the ray; zero when it starts inside).
    pub normal: Vec2,
}

/// A shape cast's first hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHitData {
    /// The entity hit.
    pub entity: Entity,
    /// The fraction of the motion travelled before touching (0 to 1).
    pub fraction: f32,
    /// The contact point.
    pub point: Vec2,
    /// The contact normal, from the cast shape towards the entity's.
    pub normal: Vec2,
}

/// Spatial queries against the colliders as of the last step, answered in entities.
///
/// Only entities that have a collider now are answered: one despawned, disabled
/// (`Disabled`) or whose `Collider` was removed since the last step is left out at once,
/// although its collider stays in the world until the next step (as it may when the fixed
/// schedule skips frames), so a game never gets an entity it cannot use. Everything else
/// (places, shapes, layers) is as of the last step.
///
/// Every method checks its input: a non-finite or out-of-range point, direction or motion is a
/// [`WorldError`], never a panic or NaN.
#[derive(SystemParam)]
pub struct SpatialQuery<'w, 's> {
    world: Res<'w, CollisionWorld>,
    /// The entities with a collider now (`Disabled` ones left out by Bevy's default filter);
    /// `With` reads no component, so a system may hold this beside `&mut Collider`.
    live: Query<'w, 's, (), With<Collider>>,
}

impl SpatialQuery<'_, '_> {
    /// The collision world behind the queries.
    pub fn collision_world(&self) -> &CollisionWorld {
        &self.world
    }

    /// Runs `query` with the library filter for `filter`.
    fn with_filter<T>(
        &self,
        filter: &SpatialQueryFilter,
        query: impl FnOnce(&collide2d::World, &QueryFilter) -> Result<T, WorldError>,
    ) -> Result<T, WorldError> {
        let excluded: Vec<ColliderHandle> = filter
            .excluded
            .iter()
            .filter_map(|&entity| self.world.handle(entity))
            .collect();
        let predicate = filter.predicate;
        let live = &self.live;
        let accepts = move |_: ColliderHandle, collider: &WorldCollider| {
            entity_of(collider.user_data()).is_some_and(|entity| {
                live.contains(entity) && predicate.is_none_or(|predicate| predicate(entity))
            })
        };
        let mut library = QueryFilter::new()
            .layers(filter.layers)
            .excluding(&excluded)
            .with_skip_one_way(filter.skip_one_way)
            .with_predicate(&accepts);
        if filter.include_sensors {
            library = library.with_sensors();
        }
        query(&self.world.world, &library)
    }

    fn entity(&self, handle: ColliderHandle) -> Option<Entity> {
        self.world.entity(handle)
    }

    /// The first collider along the ray from `origin` in `direction` (any length, not zero),
    /// within `max_distance`.
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Result<Option<RayHitData>, WorldError> {
        let ray = Ray::new(to_lib(origin), to_lib(direction), max_distance)
            .map_err(|_| WorldError::InvalidInput("ray"))?;
        let hit = self.with_filter(filter, |world, f| world.ray_cast(&ray, f))?;
        Ok(hit.and_then(|hit| {
            Some(RayHitData {
                entity: self.entity(hit.collider)?,
                distance: hit.distance,
                point: from_lib(hit.point),
                normal: from_lib(hit.normal),
            })
        }))
    }

    /// Every collider along the ray, nearest first.
    pub fn cast_ray_all(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<RayHitData>, WorldError> {
        let ray = Ray::new(to_lib(origin), to_lib(direction), max_distance)
            .map_err(|_| WorldError::InvalidInput("ray"))?;
        let hits = self.with_filter(filter, |world, f| world.ray_cast_all(&ray, f))?;
        Ok(hits
            .into_iter()
            .filter_map(|hit| {
                Some(RayHitData {
                    entity: self.entity(hit.collider)?,
                    distance: hit.distance,
                    point: from_lib(hit.point),
                    normal: from_lib(hit.normal),
                })
            })
            .collect())
    }

    /// The first collider that `shape`, placed at `position` turned by `angle`, meets when
    /// moved by `motion`.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        position: Vec2,
        angle: f32,
        motion: Vec2,
        filter: &SpatialQueryFilter,
    ) -> Result<Option<ShapeHitData>, WorldError> {
        let xf = Transform::new(to_lib(position), angle);
        let hit = self.with_filter(filter, |world, f| {
            world.shape_cast(shape, &xf, to_lib(motion), f, CastOptions::default())
        })?;
        Ok(hit.and_then(|hit| {
            Some(ShapeHitData {
                entity: self.entity(hit.collider)?,
                fraction: hit.fraction,
                point: from_lib(hit.point),
                normal: from_lib(hit.normal),
            })
        }))
    }

    /// The entities whose colliders contain `point`, in the world's handle order.
    pub fn point_intersections(
        &self,
        point: Vec2,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<Entity>, WorldError> {
        let found = self.with_filter(filter, |world, f| world.overlap_point(to_lib(point), f))?;
        Ok(found.into_iter().filter_map(|h| self.entity(h)).collect())
    }

    /// The entities whose colliders' bounding boxes overlap the box `min`–`max`.
    pub fn aabb_intersections(
        &self,
        min: Vec2,
        max: Vec2,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<Entity>, WorldError> {
        let aabb = Aabb {
            min: to_lib(min),
            max: to_lib(max),
        };
        let found = self.with_filter(filter, |world, f| world.overlap_aabb(aabb, f))?;
        Ok(found.into_iter().filter_map(|h| self.entity(h)).collect())
    }

    /// The entities whose colliders overlap `shape` placed at `position` turned by `angle`.
    pub fn shape_intersections(
        &self,
        shape: &Shape,
        position: Vec2,
        angle: f32,
        filter: &SpatialQueryFilter,
    ) -> Result<Vec<Entity>, WorldError> {
        let xf = Transform::new(to_lib(position), angle);
        let found = self.with_filter(filter, |world, f| world.overlap_shape(shape, &xf, f))?;
        Ok(found.into_iter().filter_map(|h| self.entity(h)).collect())
    }
}
