//! Circles.

use crate::math::{Transform, Vec2};
use crate::shape::error::{check_point, check_radius, ShapeError};
use crate::shape::{Aabb, PointProjection};

/// A solid disc of `radius` around a local `center`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "CircleData", into = "CircleData")
)]
pub struct Circle {
    center: Vec2,
    radius: f32,
}

/// The serialised form of a [`Circle`], validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct CircleData {
    center: Vec2,
    radius: f32,
}

#[cfg(feature = "serde")]
impl TryFrom<CircleData> for Circle {
    type Error = ShapeError;
    fn try_from(data: CircleData) -> Result<Self, ShapeError> {
        Circle::new(data.center, data.radius)
    }
}

#[cfg(feature = "serde")]
impl From<Circle> for CircleData {
    fn from(circle: Circle) -> Self {
        CircleData {
            center: circle.center,
            radius: circle.radius,
        }
    }
}

impl Circle {
    /// A circle at `center` (local space) with `radius >= 0`.
    pub fn new(center: Vec2, radius: f32) -> Result<Circle, ShapeError> {
        Ok(Circle {
            center: check_point(center)?,
            radius: check_radius(radius)?,
        })
    }

    /// A circle of `radius` centred on the local origin.
    pub fn with_radius(radius: f32) -> Result<Circle, ShapeError> {
        Circle::new(Vec2::ZERO, radius)
    }

    /// The centre in local space.
    #[inline]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The centre, borrowed.
    #[inline(always)]
    pub(crate) fn center_ref(&self) -> &Vec2 {
        &self.center
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The world-space bounding box.
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        Aabb::from_center(xf.apply(self.center), Vec2::splat(self.radius))
    }

    /// Whether the world point is inside or on the circle.
    pub fn contains(&self, xf: &Transform, point: Vec2) -> bool {
        super::within_radius(xf.apply_inv(point) - self.center, self.radius)
    }

    /// The closest point on the circle's boundary to a world point.
    pub fn project_point(&self, xf: &Transform, point: Vec2) -> PointProjection {
        let local = xf.apply_inv(point);
        let offset = local - self.center;
        let length = crate::math::robust_length(offset);
        // A point at the centre projects along +x of the local frame.
        let direction = if length > 0.0 {
            offset / length
        } else {
            Vec2::X
        };
        let surface = self.center + direction * self.radius;
        PointProjection {
            point: xf.apply(surface),
            inside: length <= self.radius,
            distance: (length - self.radius).abs(),
        }
    }

    /// The area `π r²`.
    pub fn area(&self) -> f32 {
        std::f32::consts::PI * self.radius * self.radius
    }

    /// The centroid in local space.
    pub fn centroid(&self) -> Vec2 {
        self.center
    }
}
