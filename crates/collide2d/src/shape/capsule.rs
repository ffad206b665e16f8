//! Capsules: a segment inflated by a radius.

use crate::math::{Transform, Vec2};
use crate::shape::error::{check_point, check_radius, ShapeError};
use crate::shape::{closest_point_on_segment, Aabb, PointProjection};

/// The set of points within `radius` of the segment from `a` to `b` (local space).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "CapsuleData", into = "CapsuleData")
)]
pub struct Capsule {
    /// The two ends `[a, b]`, side by side so that they can be read as a slice.
    ends: [Vec2; 2],
    radius: f32,
}

/// The serialised form of a [`Capsule`], validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct CapsuleData {
    a: Vec2,
    b: Vec2,
    radius: f32,
}

#[cfg(feature = "serde")]
impl TryFrom<CapsuleData> for Capsule {
    type Error = ShapeError;
    fn try_from(data: CapsuleData) -> Result<Self, ShapeError> {
        Capsule::new(data.a, data.b, data.radius)
    }
}

#[cfg(feature = "serde")]
impl From<Capsule> for CapsuleData {
    fn from(capsule: Capsule) -> Self {
        CapsuleData {
            a: capsule.ends[0],
            b: capsule.ends[1],
            radius: capsule.radius,
        }
    }
}

impl Capsule {
    /// A capsule around the segment `a`–`b` with `radius >= 0`.
    ///
    /// `a == b` gives a circle-shaped capsule; `a == b` with a zero radius is a point and is
    /// rejected with [`ShapeError::DegenerateSegment`].
    pub fn new(a: Vec2, b: Vec2, radius: f32) -> Result<Capsule, ShapeError> {
        let a = check_point(a)?;
        let b = check_point(b)?;
        let radius = check_radius(radius)?;
        if radius == 0.0 && crate::math::try_unit(b - a).is_none() {
            return Err(ShapeError::DegenerateSegment);
        }
        if a != b && (b - a).length() < crate::shape::MIN_EDGE_LENGTH {
            // A core shorter than `MIN_EDGE_LENGTH`: give equal ends (a circle) or a real segment.
            return Err(ShapeError::TooSmall);
        }
        Ok(Capsule {
            ends: [a, b],
            radius,
        })
    }

    /// A vertical capsule centred on the origin: total height `height`, radius `radius`.
    pub fn vertical(height: f32, radius: f32) -> Result<Capsule, ShapeError> {
        let half = 0.5 * crate::shape::error::check_size(height)? - radius;
        if half < 0.0 {
            return Err(ShapeError::NonPositiveSize { size: height });
        }
        Capsule::new(Vec2::new(0.0, -half), Vec2::new(0.0, half), radius)
    }

    /// First end of the core segment (local space).
    #[inline]
    pub fn a(&self) -> Vec2 {
        self.ends[0]
    }

    /// Second end of the core segment (local space).
    #[inline]
    pub fn b(&self) -> Vec2 {
        self.ends[1]
    }

    /// Both ends `[a, b]`, borrowed.
    #[inline(always)]
    pub(crate) fn ends(&self) -> &[Vec2; 2] {
        &self.ends
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The world-space bounding box.
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        let a = xf.apply(self.ends[0]);
        let b = xf.apply(self.ends[1]);
        let r = Vec2::splat(self.radius);
        Aabb {
            min: a.min(b) - r,
            max: a.max(b) + r,
        }
    }

    /// Whether the world point is inside or on the capsule.
    pub fn contains(&self, xf: &Transform, point: Vec2) -> bool {
        let local = xf.apply_inv(point);
        let closest = closest_point_on_segment(self.ends[0], self.ends[1], local);
        super::within_radius(local - closest, self.radius)
    }

    /// The closest point on the capsule's boundary to a world point.
    pub fn project_point(&self, xf: &Transform, point: Vec2) -> PointProjection {
        let local = xf.apply_inv(point);
        let closest = closest_point_on_segment(self.ends[0], self.ends[1], local);
        let offset = local - closest;
        let length = crate::math::robust_length(offset);
        // On the core segment: leave along the segment's left normal.
        let direction = if length > 0.0 {
            offset / length
        } else {
            crate::math::unit_or(crate::math::left_perp(self.ends[1] - self.ends[0]), Vec2::X)
        };
        PointProjection {
            point: xf.apply(closest + direction * self.radius),
            inside: length <= self.radius,
            distance: (length - self.radius).abs(),
        }
    }

    /// The area: a rectangle plus a disc.
    pub fn area(&self) -> f32 {
        let length = self.ends[0].distance(self.ends[1]);
        2.0 * self.radius * length + std::f32::consts::PI * self.radius * self.radius
    }

    /// The centroid in local space (the midpoint of the core segment).
    pub fn centroid(&self) -> Vec2 {
        0.5 * (self.ends[0] + self.ends[1])
    }
}
