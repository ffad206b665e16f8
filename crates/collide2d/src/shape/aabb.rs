//! Axis-aligned bounding boxes.
//!
//! Every inherent method of [`Aabb`] is here. The two answers that need the query layer's types
//! are extension traits there, imported like any trait:
//! [`AabbRayCast`](crate::query::AabbRayCast) (`ray_cast`) and
//! [`AabbManifold`](crate::query::AabbManifold) (`manifold`, `manifold_circle`,
//! `manifold_polygon`).

use crate::math::Vec2;
use crate::shape::error::{check_point, ShapeError};
use crate::shape::Polygon;

/// An axis-aligned box from `min` to `max` (inclusive), the bounding volume type.
///
/// A valid box has finite corners with `min.x <= max.x` and `min.y <= max.y`; a box of zero
/// width or height is valid. The fields are public for convenience; [`Aabb::new`] validates and
/// [`Aabb::is_valid`] checks a box built by hand.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// The empty box: `min` at `+∞`, `max` at `−∞`. It overlaps and contains nothing, is not
    /// [valid](Aabb::is_valid), and is the identity of [`union`](Aabb::union);
    /// [`Shape::aabb`](crate::Shape::aabb) returns it for a transform that is not
    /// [valid](crate::Transform::is_valid).
    pub const EMPTY: Aabb = Aabb {
        min: Vec2::splat(f32::INFINITY),
        max: Vec2::splat(f32::NEG_INFINITY),
    };

    /// A validated box: corners finite and within range, `min <= max` on both axes.
    pub fn new(min: Vec2, max: Vec2) -> Result<Aabb, ShapeError> {
        check_point(min)?;
        check_point(max)?;
        if min.x > max.x || min.y > max.y {
            return Err(ShapeError::InvertedAabb);
        }
        Ok(Aabb { min, max })
    }

    /// The box centred at `center` with the given half extents (made non-negative).
    #[inline]
    pub fn from_center(center: Vec2, half_extents: Vec2) -> Aabb {
        let h = half_extents.abs();
        Aabb {
            min: center - h,
            max: center + h,
        }
    }

    /// The smallest box holding every point; `None` for an empty slice.
    pub fn from_points(points: &[Vec2]) -> Option<Aabb> {
        let (first, rest) = points.split_first()?;
        let mut aabb = Aabb {
            min: *first,
            max: *first,
        };
        for p in rest {
            aabb.min = aabb.min.min(*p);
            aabb.max = aabb.max.max(*p);
        }
        Some(aabb)
    }

    /// Whether the corners are finite and ordered.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.min.is_finite()
            && self.max.is_finite()
            && self.min.x <= self.max.x
            && self.min.y <= self.max.y
    }

    /// Whether the two boxes share at least one point (touching counts).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// Whether `point` is inside or on the boundary.
    #[inline]
    pub fn contains_point(&self, point: Vec2) -> bool {
        point.x >= self.min.x
            && point.x <= self.max.x
            && point.y >= self.min.y
            && point.y <= self.max.y
    }

    /// Whether `other` lies entirely inside this box (shared boundaries count).
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The overlap of both boxes, or `None` when they do not touch.
    #[inline]
    pub fn intersection(&self, other: &Aabb) -> Option<Aabb> {
        self.overlaps(other).then(|| Aabb {
            min: self.min.max(other.min),
            max: self.max.min(other.max),
        })
    }

    /// The box grown by `margin` on every side (shrunk for a negative margin, never inverted).
    #[inline]
    pub fn expanded(&self, margin: f32) -> Aabb {
        let center = self.center();
        let half = (self.half_extents() + Vec2::splat(margin)).max(Vec2::ZERO);
        Aabb {
            min: center - half,
            max: center + half,
        }
    }

    /// The perimeter, the cost measure of the dynamic tree.
    #[inline]
    pub fn perimeter(&self) -> f32 {
        let d = self.max - self.min;
        2.0 * (d.x + d.y)
    }

    /// The area.
    #[inline]
    pub fn area(&self) -> f32 {
        let d = self.max - self.min;
        d.x * d.y
    }

    /// The centre point.
    #[inline]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Half the size on each axis.
    #[inline]
    pub fn half_extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }

    /// The full size on each axis.
    #[inline]
    pub fn extents(&self) -> Vec2 {
        self.max - self.min
    }

    /// The point of the box closest to `point` (the point itself when inside).
    #[inline]
    pub fn closest_point(&self, point: Vec2) -> Vec2 {
        point.clamp(self.min, self.max)
    }

    /// The box as a sharp [`Polygon`]; an error for a box of zero width or height.
    pub fn to_polygon(&self) -> Result<Polygon, ShapeError> {
        let size = self.extents();
        Polygon::box_at(self.center(), size * 0.5, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aabb(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1)).unwrap()
    }

    #[test]
    fn touching_boxes_overlap() {
        let a = aabb(0.0, 0.0, 1.0, 1.0);
        assert!(a.overlaps(&aabb(1.0, 0.0, 2.0, 1.0)));
        assert!(a.overlaps(&aabb(1.0, 1.0, 2.0, 2.0)));
        assert!(!a.overlaps(&aabb(1.0001, 0.0, 2.0, 1.0)));
        assert!(!a.overlaps(&aabb(0.0, -2.0, 1.0, -0.5)));
    }

    #[test]
    fn containment_counts_boundary() {
        let a = aabb(-1.0, -1.0, 1.0, 1.0);
        assert!(a.contains_point(Vec2::new(1.0, 0.0)));
        assert!(a.contains_point(Vec2::new(-1.0, -1.0)));
        assert!(!a.contains_point(Vec2::new(1.0, 1.0001)));
        assert!(a.contains(&aabb(-1.0, -0.5, 0.0, 1.0)));
        assert!(!a.contains(&aabb(-1.0, -0.5, 0.0, 1.5)));
    }

    #[test]
    fn union_perimeter_center() {
        let u = aabb(0.0, 0.0, 1.0, 1.0).union(&aabb(2.0, -1.0, 3.0, 0.5));
        assert_eq!(u, aabb(0.0, -1.0, 3.0, 1.0));
        assert_eq!(u.perimeter(), 10.0);
        assert_eq!(u.center(), Vec2::new(1.5, 0.0));
        assert_eq!(u.half_extents(), Vec2::new(1.5, 1.0));
    }

    #[test]
    fn bad_boxes_are_rejected() {
        assert_eq!(
            Aabb::new(Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)),
            Err(ShapeError::InvertedAabb)
        );
        assert_eq!(
            Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::ONE),
            Err(ShapeError::NonFinite)
        );
        assert!(Aabb::new(Vec2::ZERO, Vec2::ZERO).is_ok());
        assert!(!Aabb {
            min: Vec2::ONE,
            max: Vec2::ZERO
        }
        .is_valid());
    }

    #[test]
    fn negative_margin_never_inverts() {
        let shrunk = aabb(0.0, 0.0, 1.0, 4.0).expanded(-1.0);
        assert!(shrunk.is_valid());
        assert_eq!(shrunk.min.x, shrunk.max.x);
    }
}
