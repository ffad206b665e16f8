//! `move_and_slide`: move a character, stop at what it hits, slide along it.

use super::{check_vector, ColliderHandle, QueryFilter, World, WorldError};
use crate::math::Vec2;
use crate::query::CastOptions;
use crate::shape::{Polygon, Shape};
use crate::Transform;

/// Settings for [`World::move_and_slide`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveOptions {
    /// The "up" direction, for floor and ceiling detection (normalised here).
    pub up: Vec2,
    /// Steepest slope still counted as floor, in radians (default 45°).
    pub max_slope: f32,
    /// Gap kept between the character and what it touches, so its next move does not start in
    /// contact (default 0.01).
    pub skin: f32,
    /// Most cast-and-slide steps per call (default 4).
    pub max_iterations: u32,
    /// What the character collides with (the character itself is always excluded).
    pub filter: QueryFilter,
}

impl Default for MoveOptions {
    fn default() -> Self {
        MoveOptions {
            up: Vec2::Y,
            max_slope: std::f32::consts::FRAC_PI_4,
            skin: 0.01,
            max_iterations: 4,
            filter: QueryFilter::default(),
        }
    }
}

/// One surface the character ran into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveHit {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// The contact point.
    pub point: Vec2,
    /// The surface normal, pointing from the surface towards the character.
    pub normal: Vec2,
}

/// What [`World::move_and_slide`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveResult {
    /// The displacement actually made.
    pub moved: Vec2,
    /// Every surface hit, in order.
    pub hits: Vec<MoveHit>,
    /// A hit surface faced up within `max_slope`.
    pub on_floor: bool,
    /// A hit surface faced down within `max_slope`.
    pub on_ceiling: bool,
    /// A hit surface was steeper than `max_slope` both ways.
    pub on_wall: bool,
}

impl World {
    /// Moves a collider's object by up to `delta`: cast, stop `skin` short of the first hit,
    /// remove the part of the remaining motion that goes into the surface, and repeat.
    ///
    /// One-way colliders block only from their blocking side, so a character jumps up through
    /// a one-way platform and lands on it. Errors (the world unchanged) for a stale handle or
    /// non-finite input.
    ///
    /// ```
    /// use collide2d::{shape::{Polygon, Shape}, world::{Collider, MoveOptions, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// world.insert(Collider::new(Shape::from(Polygon::rect(20.0, 1.0)?)))?; // floor, top at y = 0.5
    /// let hero = world.insert(
    ///     Collider::new(Shape::from(Polygon::rect(1.0, 1.0)?)).transform(Transform::new(Vec2::new(0.0, 1.2), 0.0)),
    /// )?;
    /// let result = world.move_and_slide(hero, Vec2::new(1.0, -1.0), MoveOptions::default())?;
    /// assert!(result.on_floor && !result.on_wall);
    /// assert!((result.moved.x - 1.0).abs() < 1e-4); // slid the whole way along the floor
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_and_slide(
        &mut self,
        handle: ColliderHandle,
        delta: Vec2,
        opts: MoveOptions,
    ) -> Result<MoveResult, WorldError> {
        check_vector(delta, "move delta")?;
        let up = opts
            .up
            .try_normalize()
            .ok_or(WorldError::InvalidInput("up direction"))?;
        if !opts.skin.is_finite() || opts.skin < 0.0 {
            return Err(WorldError::InvalidInput("skin"));
        }
        if !opts.max_slope.is_finite() {
            return Err(WorldError::InvalidInput("max slope"));
        }
        let collider = self.get(handle)?;
        let shape = collider.shape.clone();
        let object = collider.transform;
        let start = collider.world_transform();
        let filter = opts.filter.excluding(handle);
        let cast_options = CastOptions {
            target_separation: opts.skin,
            ..CastOptions::default()
        };
        let floor_cos = opts.max_slope.clamp(0.0, std::f32::consts::PI).cos();
        let scale = 1.0 + delta.length();

        let mut position = start;
        let mut remaining = delta;
        let mut result = MoveResult::default();
        let mut previous_normal: Option<Vec2> = None;
        for _ in 0..opts.max_iterations.max(1) {
            if remaining.length() <= 1e-6 * scale {
                break;
            }
            let Some(found) =
                self.cast_shape(&shape, &position, remaining, &filter, cast_options)?
            else {
                position.p += remaining;
                break;
            };
            position.p += remaining * found.hit.t;
            // Slide along a face normal: for two polygons, the separating axis of largest
            // separation. The cast's closest-point direction leans on a corner at a seam between
            // two tiles (the character hovers a skin above both) and would push it sideways.
            let obstacle = self.get(found.collider)?;
            let normal = face_normal(
                &shape,
                &position,
                &obstacle.shape,
                &obstacle.world_transform(),
            )
            .filter(|n| n.dot(found.hit.normal) < 0.0)
            .unwrap_or(-found.hit.normal);
            let facing = normal.dot(up);
            if facing >= floor_cos {
                result.on_floor = true;
            } else if facing <= -floor_cos {
                result.on_ceiling = true;
            } else {
                result.on_wall = true;
            }
            result.hits.push(MoveHit {
                collider: found.collider,
                point: found.hit.point,
                normal,
            });
            remaining *= 1.0 - found.hit.t;
            let into = remaining.dot(normal);
            if into < 0.0 {
                remaining -= normal * into;
            }
            // In a corner the slide along one surface runs into the other: stop there instead of
            // bouncing between them.
            if let Some(previous) = previous_normal {
                if remaining.dot(previous) < 0.0 {
                    remaining = Vec2::ZERO;
                }
            }
            previous_normal = Some(normal);
        }
        result.moved = position.p - start.p;
        let mut moved_object = object;
        moved_object.p += result.moved;
        self.set_transform(handle, moved_object)?;
        Ok(result)
    }
}

/// For a polygon mover and a polygon obstacle that are apart: the unit normal, pointing from the
/// obstacle towards the mover, of the separating axis with the largest separation among both
/// polygons' edge normals (SAT). `None` for other shapes.
fn face_normal(
    mover: &Shape,
    mover_xf: &Transform,
    obstacle: &Shape,
    obstacle_xf: &Transform,
) -> Option<Vec2> {
    let (Shape::Polygon(mover), Shape::Polygon(obstacle)) = (mover, obstacle) else {
        return None;
    };
    // Largest separation of `other` from the faces of `reference`, with that face's normal.
    let best_face =
        |reference: &Polygon, reference_xf: &Transform, other: &Polygon, other_xf: &Transform| {
            let mut best = (f32::NEG_INFINITY, Vec2::ZERO);
            for (vertex, normal) in reference.vertices().iter().zip(reference.normals()) {
                let world_normal = reference_xf.rotate(*normal);
                let world_vertex = reference_xf.apply(*vertex);
                let separation = other
                    .vertices()
                    .iter()
                    .map(|v| world_normal.dot(other_xf.apply(*v) - world_vertex))
                    .fold(f32::INFINITY, f32::min);
                if separation > best.0 {
                    best = (separation, world_normal);
                }
            }
            best
        };
    let (obstacle_separation, obstacle_normal) = best_face(obstacle, obstacle_xf, mover, mover_xf);
    let (mover_separation, mover_normal) = best_face(mover, mover_xf, obstacle, obstacle_xf);
    // Prefer the obstacle's face unless the mover's is clearly better.
    if obstacle_separation >= mover_separation - 1e-5 {
        Some(obstacle_normal)
    } else {
        Some(-mover_normal)
    }
}
