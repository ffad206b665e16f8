//! Line segments: zero-thickness edges.

use crate::math::{Transform, Vec2};
use crate::shape::error::{check_point, ShapeError};
use crate::shape::{closest_point_on_segment, Aabb, PointProjection};

/// The straight segment from `a` to `b` (local space), with no thickness.
///
/// A segment encloses no area: a point is "inside" only when it lies exactly on it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "SegmentData", into = "SegmentData")
)]
pub struct Segment {
    /// The two ends `[a, b]`, side by side so that they can be read as a slice.
    ends: [Vec2; 2],
}

/// The serialised form of a [`Segment`], validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct SegmentData {
    a: Vec2,
    b: Vec2,
}

#[cfg(feature = "serde")]
impl TryFrom<SegmentData> for Segment {
    type Error = ShapeError;
    fn try_from(data: SegmentData) -> Result<Self, ShapeError> {
        Segment::new(data.a, data.b)
    }
}

#[cfg(feature = "serde")]
impl From<Segment> for SegmentData {
    fn from(segment: Segment) -> Self {
        SegmentData {
            a: segment.ends[0],
            b: segment.ends[1],
        }
    }
}

impl Segment {
    /// The segment from `a` to `b`; the ends must differ ([`ShapeError::DegenerateSegment`]) by
    /// at least [`MIN_EDGE_LENGTH`](crate::shape::MIN_EDGE_LENGTH) ([`ShapeError::TooSmall`]).
    pub fn new(a: Vec2, b: Vec2) -> Result<Segment, ShapeError> {
        let a = check_point(a)?;
        let b = check_point(b)?;
        if a == b {
            return Err(ShapeError::DegenerateSegment);
        }
        if (b - a).length() < crate::shape::MIN_EDGE_LENGTH {
            // Shorter than `MIN_EDGE_LENGTH`.
            return Err(ShapeError::TooSmall);
        }
        Ok(Segment { ends: [a, b] })
    }

    /// A segment from already validated, distinct end points.
    #[inline]
    pub(crate) fn new_unchecked(a: Vec2, b: Vec2) -> Segment {
        Segment { ends: [a, b] }
    }

    /// The first end point (local space).
    #[inline]
    pub fn a(&self) -> Vec2 {
        self.ends[0]
    }

    /// The second end point (local space).
    #[inline]
    pub fn b(&self) -> Vec2 {
        self.ends[1]
    }

    /// Both ends `[a, b]`, borrowed.
    #[inline(always)]
    pub(crate) fn ends(&self) -> &[Vec2; 2] {
        &self.ends
    }

    /// The unit normal on the left of the direction `a → b` (local space).
    #[inline]
    pub fn normal(&self) -> Vec2 {
        crate::math::left_perp(crate::math::unit_or(self.ends[1] - self.ends[0], Vec2::X))
    }

    /// The world-space bounding box.
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        let a = xf.apply(self.ends[0]);
        let b = xf.apply(self.ends[1]);
        Aabb {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// Whether the world point lies exactly on the segment.
    pub fn contains(&self, xf: &Transform, point: Vec2) -> bool {
        let local = xf.apply_inv(point);
        closest_point_on_segment(self.ends[0], self.ends[1], local) == local
    }

    /// The closest point of the segment to a world point.
    pub fn project_point(&self, xf: &Transform, point: Vec2) -> PointProjection {
        let local = xf.apply_inv(point);
        let closest = closest_point_on_segment(self.ends[0], self.ends[1], local);
        PointProjection {
            point: xf.apply(closest),
            inside: closest == local,
            distance: local.distance(closest),
        }
    }

    /// The length of the segment.
    pub fn length(&self) -> f32 {
        self.ends[0].distance(self.ends[1])
    }

    /// The midpoint, in local space.
    pub fn centroid(&self) -> Vec2 {
        0.5 * (self.ends[0] + self.ends[1])
    }
}
