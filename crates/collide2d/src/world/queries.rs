//! World queries: points, boxes, shapes, rays and shape casts, each with a filter.

use super::{
    check_vector, Collider, ColliderHandle, CollisionGroups, LayerMask, World, WorldError,
};
use crate::broad::RayControl;
use crate::math::{Transform, Vec2};
use crate::query::{collide, overlaps, shape_cast, CastHit, CastOptions, RayHit, RayInside, Sweep};
use crate::shape::Ray;
use crate::shape::{Aabb, Shape};

/// A test a query asks of each collider it would consider (see [`QueryFilter::with_predicate`]);
/// it may borrow the game's own data for as long as the filter lives.
pub type QueryPredicate<'a> = dyn Fn(ColliderHandle, &Collider) -> bool + 'a;

/// Which colliders a query considers.
///
/// A collider is considered when it is enabled and passes every test the filter sets: its
/// layer is in `layers`; it is solid, or `include_sensors` is set; it is not in `exclude`;
/// its groups meet `groups` when set (the pair rule of [`CollisionGroups`], the query taking the
/// place of the other collider); it is not one-way when `skip_one_way` is set; and `predicate`,
/// when set, accepts it. The filter borrows its exclusion list and predicate, so it is `Copy`:
///
/// ```
/// use collide2d::{shape::{Circle, Shape}, world::{Collider, QueryFilter, World}, Vec2};
/// let mut world = World::new();
/// let ball = Shape::from(Circle::with_radius(1.0)?);
/// let player = world.insert(Collider::new(ball.clone()).with_user_data(1))?;
/// let gun = world.insert(Collider::new(ball.clone()).with_user_data(2))?;
/// let ghost = world.insert(Collider::new(ball.clone()).with_user_data(3))?;
/// let crate_ = world.insert(Collider::new(ball).with_user_data(4))?;
/// let not_ghosts = |_, collider: &Collider| collider.user_data() != 3;
/// let skipped = [player, gun]; // the filter borrows the list: keep it in a variable
/// let filter = QueryFilter::new().excluding(&skipped).with_predicate(&not_ghosts);
/// assert_eq!(world.overlap_point(Vec2::ZERO, &filter)?, [crate_]);
/// # let _ = ghost;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct QueryFilter<'a> {
    /// Only colliders on these layers.
    pub layers: LayerMask,
    /// Whether sensors count (default `false`).
    pub include_sensors: bool,
    /// Colliders to skip, e.g. the one doing the query and what it carries.
    pub exclude: &'a [ColliderHandle],
    /// When set, only colliders whose groups interact with these (default `None`: groups are
    /// not consulted).
    pub groups: Option<CollisionGroups>,
    /// Whether one-way colliders are skipped (default `false`), e.g. to drop through a
    /// platform.
    pub skip_one_way: bool,
    /// When set, only colliders for which it returns `true` (asked last, after every other
    /// test passed).
    pub predicate: Option<&'a QueryPredicate<'a>>,
    /// Colliders the world itself leaves out besides `exclude` (a moving character and the
    /// platform carrying it).
    pub(super) also_exclude: [Option<ColliderHandle>; 2],
}

impl Default for QueryFilter<'_> {
    fn default() -> Self {
        QueryFilter {
            layers: LayerMask::ALL,
            include_sensors: false,
            exclude: &[],
            groups: None,
            skip_one_way: false,
            predicate: None,
            also_exclude: [None; 2],
        }
    }
}

impl std::fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("layers", &self.layers)
            .field("include_sensors", &self.include_sensors)
            .field("exclude", &self.exclude)
            .field("groups", &self.groups)
            .field("skip_one_way", &self.skip_one_way)
            .field("predicate", &self.predicate.map(|_| ".."))
            .finish()
    }
}

impl<'a> QueryFilter<'a> {
    /// Every solid collider.
    pub fn new() -> QueryFilter<'a> {
        QueryFilter::default()
    }

    /// Only these layers.
    pub fn layers(mut self, layers: LayerMask) -> QueryFilter<'a> {
        self.layers = layers;
        self
    }

    /// Sensors too.
    pub fn with_sensors(mut self) -> QueryFilter<'a> {
        self.include_sensors = true;
        self
    }

    /// Everything but these colliders (replaces the list).
    pub fn excluding(mut self, handles: &'a [ColliderHandle]) -> QueryFilter<'a> {
        self.exclude = handles;
        self
    }

    /// Only colliders whose groups interact with `groups` (see [`CollisionGroups`]).
    pub fn with_groups(mut self, groups: CollisionGroups) -> QueryFilter<'a> {
        self.groups = Some(groups);
        self
    }

    /// One-way colliders skipped (`true`) or considered (`false`, the default).
    pub fn with_skip_one_way(mut self, skip: bool) -> QueryFilter<'a> {
        self.skip_one_way = skip;
        self
    }

    /// Only colliders that `predicate(handle, collider)` accepts.
    pub fn with_predicate(mut self, predicate: &'a QueryPredicate<'a>) -> QueryFilter<'a> {
        self.predicate = Some(predicate);
        self
    }

    /// The filter with `handle` left out as well, keeping the caller's exclusions.
    pub(super) fn also_excluding(mut self, handle: ColliderHandle) -> QueryFilter<'a> {
        if let Some(free) = self.also_exclude.iter_mut().find(|slot| slot.is_none()) {
            *free = Some(handle);
        }
        self
    }

    /// Whether the query considers `collider`.
    pub fn accepts(&self, handle: ColliderHandle, collider: &Collider) -> bool {
        collider.enabled
            && self.layers.contains(collider.layer)
            && (self.include_sensors || !collider.sensor)
            && !self.exclude.contains(&handle)
            && !self.also_exclude.contains(&Some(handle))
            && self
                .groups
                .is_none_or(|groups| groups.interacts_with(collider.groups))
            && !(self.skip_one_way && collider.one_way.is_some())
            && self
                .predicate
                .is_none_or(|predicate| predicate(handle, collider))
    }
}

/// A ray hit on a collider (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// Distance along the ray (0 when the ray starts inside).
    pub distance: f32,
    /// The hit point.
    pub point: Vec2,
    /// The unit surface normal at the hit, facing the ray.
    pub normal: Vec2,
    /// For a compound, the index of the child that was hit (0 otherwise).
    pub child: u32,
}

impl WorldRayHit {
    fn new(collider: ColliderHandle, hit: RayHit) -> WorldRayHit {
        WorldRayHit {
            collider,
            distance: hit.distance,
            point: hit.point,
            normal: hit.normal,
            child: hit.child,
        }
    }
}

/// A shape-cast hit on a collider (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldCastHit {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// Time of impact as a fraction of the motion, in `[0, 1]` (0 when already touching).
    pub fraction: f32,
    /// The point midway between the shapes at the time of impact.
    pub point: Vec2,
    /// Unit normal from the moving shape to the collider.
    pub normal: Vec2,
    /// Whether the cast converged (see [`CastHit::converged`]).
    pub converged: bool,
}

impl WorldCastHit {
    pub(super) fn new(collider: ColliderHandle, hit: CastHit) -> WorldCastHit {
        WorldCastHit {
            collider,
            fraction: hit.t,
            point: hit.point,
            normal: hit.normal,
            converged: hit.converged,
        }
    }
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
    pub fn overlap_point(
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
    pub fn overlap_aabb(
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
    pub fn ray_cast(
        &self,
        ray: &Ray,
        filter: &QueryFilter,
    ) -> Result<Option<WorldRayHit>, WorldError> {
        let mut best: Option<WorldRayHit> = None;
        self.ray_candidates(ray, filter, &mut |hit| {
            if best.is_none_or(|b| (hit.distance, hit.collider) < (b.distance, b.collider)) {
                best = Some(hit);
            }
            RayControl::Clip(best.map_or(f32::INFINITY, |b| b.distance))
        })?;
        Ok(best)
    }

    /// Every collider hit by `ray`, nearest first (ties by handle).
    pub fn ray_cast_all(
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
            x.distance
                .total_cmp(&y.distance)
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
        let ray = checked_ray(ray)?;
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
                match ray_hit(handle, collider, &collider.world_transform(), &ray) {
                    Some(hit) => on_hit(hit),
                    None => RayControl::Continue,
                }
            },
        )?;
        Ok(())
    }

    /// The first collider that `shape`, starting at `xf` and moving by `delta` (no rotation),
    /// would hit, with the time of impact in `[0, 1]`. One-way colliders block only motion
    /// into their blocking side. A motion that ends beyond
    /// ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE) is refused
    /// ([`WorldError::TransformOutOfRange`]), not answered as a miss.
    pub fn shape_cast(
        &self,
        shape: &Shape,
        xf: &Transform,
        delta: Vec2,
        filter: &QueryFilter,
        opts: CastOptions,
    ) -> Result<Option<WorldCastHit>, WorldError> {
        super::collider::check_transform(xf)?;
        check_vector(delta, "cast motion")?;
        super::check_motion_end(xf.p, delta)?;
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
            if best.is_none_or(|b| (hit.t, handle) < (b.fraction, b.collider)) {
                best = Some(WorldCastHit::new(handle, hit));
            }
        });
        Ok(best)
    }
}

/// `ray` validated, its direction made unit (a unit direction is kept as given: normalising
/// it again can move it by an ulp, and the exact tests would then differ from each collider's
/// own `ray_cast` of this ray).
pub(super) fn checked_ray(ray: &Ray) -> Result<Ray, WorldError> {
    let checked = Ray::new(ray.origin, ray.direction, ray.max_distance)
        .map_err(|_| WorldError::InvalidInput("ray"))?;
    if (ray.direction.length_squared() - 1.0).abs() <= 4.0 * f32::EPSILON {
        Ok(*ray)
    } else {
        Ok(checked)
    }
}

/// The exact hit of a checked `ray` on `collider` placed at `placement` (its world
/// transform), if it counts (one-way colliders are hit only from their blocking side).
#[inline]
pub(super) fn ray_hit(
    handle: ColliderHandle,
    collider: &Collider,
    placement: &Transform,
    ray: &Ray,
) -> Option<WorldRayHit> {
    let hit = collider.shape.ray_cast(placement, ray)?;
    ray_respects_one_way(collider, &hit).then(|| WorldRayHit::new(handle, hit))
}

/// [`ray_hit`] for a `placement` that is [valid](Transform::is_valid) (the checked ray is
/// valid too): the same answer without checking them again.
#[inline]
pub(super) fn ray_hit_at_valid(
    handle: ColliderHandle,
    collider: &Collider,
    placement: &Transform,
    ray: &Ray,
) -> Option<WorldRayHit> {
    let hit = collider
        .shape
        .ray_cast_valid(placement, ray, RayInside::HitAtStart)?;
    ray_respects_one_way(collider, &hit).then(|| WorldRayHit::new(handle, hit))
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
