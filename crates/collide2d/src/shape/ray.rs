//! [`Ray`]: a half-line for ray casts, beside the shapes it is cast against (the casts
//! themselves are in [`query`](crate::query)).

use crate::math::{Transform, Vec2};
use glam::Vec4;

/// A half-line from `origin` along unit `direction`, up to `max_distance`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ray {
    /// Start point (world space).
    pub origin: Vec2,
    /// Unit direction. With a non-unit direction, distances come out in multiples of its length.
    pub direction: Vec2,
    /// How far the ray reaches, in world units for a unit direction.
    pub max_distance: f32,
}

/// Why a [`Ray`] could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RayError {
    /// The origin, direction or max distance was NaN or infinite (an infinite max distance is
    /// allowed).
    NonFinite,
    /// The direction has zero length.
    ZeroDirection,
    /// The max distance was negative.
    NegativeMaxDistance,
}

impl std::fmt::Display for RayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RayError::NonFinite => "ray origin, direction or max distance is NaN or infinite",
            RayError::ZeroDirection => "ray direction has zero length",
            RayError::NegativeMaxDistance => "ray max distance is negative",
        })
    }
}

impl std::error::Error for RayError {}

impl Ray {
    /// A ray with its direction normalised. `max_distance` may be `f32::INFINITY`.
    ///
    /// ```
    /// use collide2d::{shape::{Polygon, Ray, Shape}, Transform, Vec2};
    /// let wall = Shape::from(Polygon::rect(1.0, 10.0)?);
    /// let ray = Ray::new(Vec2::ZERO, Vec2::new(3.0, 0.0), 100.0).unwrap();
    /// let hit = wall.ray_cast(&Transform::new(Vec2::new(5.0, 0.0), 0.0), &ray).unwrap();
    /// assert_eq!(hit.distance, 4.5);
    /// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(origin: Vec2, direction: Vec2, max_distance: f32) -> Result<Ray, RayError> {
        if !origin.is_finite() || !direction.is_finite() || max_distance.is_nan() {
            return Err(RayError::NonFinite);
        }
        if max_distance < 0.0 {
            return Err(RayError::NegativeMaxDistance);
        }
        let direction = crate::math::try_unit(direction).ok_or(RayError::ZeroDirection)?;
        Ok(Ray {
            origin,
            direction,
            max_distance,
        })
    }

    /// The ray from `start` to `end` (max distance = their distance).
    pub fn between(start: Vec2, end: Vec2) -> Result<Ray, RayError> {
        Ray::new(start, end - start, start.distance(end))
    }

    /// Whether every ray cast accepts the ray: finite origin and direction, a non-zero
    /// direction (not necessarily unit), and a max distance that is not NaN or negative
    /// (infinity is fine). [`Ray::new`] builds only such rays; one built by hand that is not
    /// misses in every ray cast ([`Shape::ray_cast`](super::Shape::ray_cast),
    /// [`Aabb::ray_cast`](crate::AabbRayCast::ray_cast)) and is refused with an error by the
    /// broad phases and the world.
    #[inline]
    pub fn is_valid(&self) -> bool {
        let numbers = Vec4::new(
            self.origin.x,
            self.origin.y,
            self.direction.x,
            self.direction.y,
        );
        numbers.is_finite() && self.direction != Vec2::ZERO && self.max_distance >= 0.0
    }

    /// The point at `distance` along the ray.
    #[inline]
    pub fn at(&self, distance: f32) -> Vec2 {
        self.origin + self.direction * distance
    }

    /// The ray expressed in a shape's local frame.
    #[inline]
    pub(crate) fn to_local(self, xf: &Transform) -> Ray {
        Ray {
            origin: xf.apply_inv(self.origin),
            direction: xf.rotate_inv(self.direction),
            max_distance: self.max_distance,
        }
    }
}
