//! World queries: points, boxes, shapes, rays and shape casts, each with a filter.

use super::{check_vector, Collider, ColliderHandle, LayerMask, World, WorldError};
use crate::broad::RayControl;
use crate::math::{Transform, Vec2};
use crate::query::{collide, overlaps, shape_cast, CastHit, CastOptions, RayHit, Sweep};
use crate::shape::Ray;
use crate::shape::{Aabb, Shape};

/// Which colliders a query considers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryFilter {
    /// Only colliders on these layers.
    pub layers: LayerMask,
    /// Whether sensors count (default `false`).
    pub include_sensors: bool,
    /// A collider to skip, e.g. the one doing the query.
    pub exclude: Option<ColliderHandle>,
}

impl Default for QueryFilter {
    fn default() -> Self {
        QueryFilter {
            layers: LayerMask::ALL,
            include_sensors: false,
            exclude: None,
        }
    }
}

impl QueryFilter {
    /// Every solid collider.
    pub fn new() -> QueryFilter {
        QueryFilter::default()
    }

    /// Only these layers.
    pub fn layers(mut self, layers: LayerMask) -> QueryFilter {
        self.layers = layers;
        self
    }

    /// Sensors too.
    pub fn with_sensors(mut self) -> QueryFilter {
        self.include_sensors = true;
        self
    }

    /// Everything but `handle`.
    pub fn excluding(mut self, handle: ColliderHandle) -> QueryFilter {
        self.exclude = Some(handle);
        self
    }

    fn accepts(&self, handle: ColliderHandle, collider: &Collider) -> bool {
        collider.enabled
            && self.layers.contains(collider.layer)
            && (self.include_sensors || !collider.sensor)
            && self.exclude != Some(handle)
    }
}

/// A ray hit on a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// Where and how (world space).
    pub hit: RayHit,
}

/// A shape-cast hit on a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldCastHit {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// When and where; `normal` points from the moving shape to the collider.
    pub hit: CastHit,
}

impl World {
    /// Colliders accepted by `filter` whose broad-phase box overlaps `aabb`, candidates for
    /// `visit`.
    pub(super) fn candidates(
        &self,
        aabb: Aabb,
        filter: &QueryFilter,
        mut visit: impl FnMut(ColliderHandle, &Collider),
    ) {
        self.broad.get().overlap_aabb_each(aabb, &mut |_, key| {
            let handle = ColliderHandle::from_key(key);
            if let Ok(entry) = self.entry(handle) {
                if filter.accepts(handle, &entry.collider) {
                    visit(handle, &entry.collider);
                }
            }
            true
        });
    }

    /// Colliders containing `point` (boundary included), sorted by handle.
    pub fn query_point(
        &self,
        point: Vec2,
        filter: &QueryFilter,
    ) -> Result<Vec<ColliderHandle>, WorldError> {
        check_vector(point, "query point")?;
        let mut found = Vec::new();
        self.candidates(
            Aabb {
                min: point,
                max: point,
            },
            filter,
            |handle, collider| {
                if collider.shape.contains(&collider.world_transform(), point) {
                    found.push(handle);
                }
            },
        );
        found.sort_unstable();
        Ok(found)
    }

    /// Colliders whose bounding box overlaps `aabb`, sorted by handle.
    pub fn query_aabb(
        &self,
        aabb: Aabb,
        filter: &QueryFilter,
    ) -> Result<Vec<ColliderHandle>, WorldError> {
        if !aabb.is_valid() {
            return Err(WorldError::InvalidInput("query box"));
        }
        let mut found = Vec::new();
        self.candidates(aabb, filter, |handle, collider| {
            if collider.aabb().overlaps(&aabb) {
                found.push(handle);
            }
        });
        found.sort_unstable();
        Ok(found)
    }

    /// Colliders that `shape` placed at `xf` overlaps (exact test), sorted by handle.
    pub fn overlap_shape(
        &self,
        shape: &Shape,
        xf: &Transform,
        filter: &QueryFilter,
    ) -> Result<Vec<ColliderHandle>, WorldError> {
        super::collider::check_transform(xf)?;
        let mut found = Vec::new();
        // Padded like the colliders' boxes, so no pair the exact test finds is left out.
        let aabb = super::collider::padded_aabb(shape, xf);
        self.candidates(aabb, filter, |handle, collider| {
            if overlaps(shape, xf, &collider.shape, &collider.world_transform()) {
                found.push(handle);
            }
        });
        found.sort_unstable();
        Ok(found)
    }

    /// The nearest collider hit by `ray`. One-way colliders are hit only from their blocking
    /// side.
    pub fn cast_ray(
        &self,
        ray: &Ray,
        filter: &QueryFilter,
    ) -> Result<Option<WorldRayHit>, WorldError> {
        let mut best: Option<WorldRayHit> = None;
        self.ray_candidates(ray, filter, &mut |hit| {
            if best.is_none_or(|b| (hit.hit.distance, hit.collider) < (b.hit.distance, b.collider))
            {
                best = Some(hit);
            }
            RayControl::Clip(best.map_or(f32::INFINITY, |b| b.hit.distance))
        })?;
        Ok(best)
    }

    /// Every collider hit by `ray`, nearest first (ties by handle).
    pub fn cast_ray_all(
        &self,
        ray: &Ray,
        filter: &QueryFilter,
    ) -> Result<Vec<WorldRayHit>, WorldError> {
        let mut all = Vec::new();
        self.ray_candidates(ray, filter, &mut |hit| {
            all.push(hit);
            RayControl::Continue
        })?;
        all.sort_by(|x, y| {
            x.hit
                .distance
                .total_cmp(&y.hit.distance)
                .then(x.collider.cmp(&y.collider))
        });
        Ok(all)
    }

    fn ray_candidates(
        &self,
        ray: &Ray,
        filter: &QueryFilter,
        on_hit: &mut dyn FnMut(WorldRayHit) -> RayControl,
    ) -> Result<(), WorldError> {
        let checked = Ray::new(ray.origin, ray.direction, ray.max_distance)
            .map_err(|_| WorldError::InvalidInput("ray"))?;
        // A unit direction is kept as given: normalising it again can move it by an ulp, and
        // the exact tests would then differ from each collider's own `ray_cast` of this ray.
        let ray = if (ray.direction.length_squared() - 1.0).abs() <= 4.0 * f32::EPSILON {
            *ray
        } else {
            checked
        };
        self.broad.get().ray_cast_each(
            ray.origin,
            ray.direction,
            ray.max_distance,
            &mut |box_hit| {
                let handle = ColliderHandle::from_key(box_hit.key);
                let Ok(entry) = self.entry(handle) else {
                    return RayControl::Continue;
                };
                let collider = &entry.collider;
                if !filter.accepts(handle, collider) {
                    return RayControl::Continue;
                }
                match collider.shape.ray_cast(&collider.world_transform(), &ray) {
                    Some(hit) if ray_respects_one_way(collider, &hit) => on_hit(WorldRayHit {
                        collider: handle,
                        hit,
                    }),
                    _ => RayControl::Continue,
                }
            },
        )?;
        Ok(())
    }

    /// The first collider that `shape`, starting at `xf` and moving by `delta` (no rotation),
    /// would hit, with the time of impact in `[0, 1]`. One-way colliders block only motion
    /// into their blocking side.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        xf: &Transform,
        delta: Vec2,
        filter: &QueryFilter,
        opts: CastOptions,
    ) -> Result<Option<WorldCastHit>, WorldError> {
        super::collider::check_transform(xf)?;
        check_vector(delta, "cast motion")?;
        let start = super::collider::padded_aabb(shape, xf);
        let end = Aabb {
            min: start.min + delta,
            max: start.max + delta,
        };
        let swept = start
            .union(&end)
            .expanded(opts.target_separation.max(0.0) + opts.tolerance.max(0.0));
        let sweep = Sweep::linear(xf, delta);
        let mut best: Option<WorldCastHit> = None;
        self.candidates(swept, filter, |handle, collider| {
            let collider_xf = collider.world_transform();
            let Some(hit) = shape_cast(
                shape,
                &sweep,
                &collider.shape,
                &Sweep::fixed(&collider_xf),
                opts,
            ) else {
                return;
            };
            if !cast_respects_one_way(shape, xf, delta, collider, &collider_xf, &hit) {
                return;
            }
            if best.is_none_or(|b| (hit.t, handle) < (b.hit.t, b.collider)) {
                best = Some(WorldCastHit {
                    collider: handle,
                    hit,
                });
            }
        });
        Ok(best)
    }
}

/// A ray hits a one-way collider only on its blocking side, from outside.
fn ray_respects_one_way(collider: &Collider, hit: &RayHit) -> bool {
    match collider.one_way_world() {
        Some((direction, _)) => hit.distance > 0.0 && hit.normal.dot(direction) > 0.0,
        None => true,
    }
}

/// A moving shape is stopped by a one-way collider only when it comes down onto the blocking
/// side: moving against the direction, hitting the surface that faces it, and (when already in
/// contact at the start) not deeper inside than the margin.
pub(crate) fn cast_respects_one_way(
    shape: &Shape,
    xf: &Transform,
    delta: Vec2,
    collider: &Collider,
    collider_xf: &Transform,
    hit: &CastHit,
) -> bool {
    let Some((direction, margin)) = collider.one_way_world() else {
        return true;
    };
    // `hit.normal` points from the mover into the collider; the surface faces the other way.
    if delta.dot(direction) >= 0.0 || (-hit.normal).dot(direction) <= 0.0 {
        return false;
    }
    if hit.t == 0.0 {
        let manifold = collide(shape, xf, &collider.shape, collider_xf);
        if !manifold.is_empty() && manifold.max_penetration() > margin {
            return false;
        }
    }
    true
}
