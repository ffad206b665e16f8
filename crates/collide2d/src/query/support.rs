//! Convex proxies: the few core points of a convex shape plus its radius, for GJK.
//!
//! Every convex shape in the crate is the Minkowski sum of a convex *core* (a point, a segment or
//! a convex polygon) and a disc of some radius (possibly zero). GJK only needs the core's points
//! and a support function; the radius is added back at the end. A proxy borrows a polygon's
//! vertices and stores the one or two points of a circle, capsule or segment inline, so building
//! one never allocates.

use crate::math::Vec2;
use crate::shape::Shape;

/// The core points of a convex shape in its local frame, and the radius around them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConvexProxy<'a> {
    /// Storage for the core of a circle (one point), capsule or segment (two points).
    inline_points: [Vec2; 2],
    /// How many of `inline_points` are used; zero when the points are borrowed.
    inline_count: usize,
    /// A polygon's vertices (empty for the other shapes).
    borrowed_points: &'a [Vec2],
    /// The radius added around the core.
    radius: f32,
}

impl<'a> ConvexProxy<'a> {
    /// The proxy of a convex shape; `None` for a compound or a chain.
    pub(crate) fn from_shape(shape: &'a Shape) -> Option<ConvexProxy<'a>> {
        match shape {
            Shape::Circle(circle) => Some(ConvexProxy::from_inline(
                [circle.center(), circle.center()],
                1,
                circle.radius(),
            )),
            Shape::Capsule(capsule) => Some(ConvexProxy::from_inline(
                [capsule.a(), capsule.b()],
                2,
                capsule.radius(),
            )),
            Shape::Segment(segment) => {
                Some(ConvexProxy::from_inline([segment.a(), segment.b()], 2, 0.0))
            }
            Shape::Polygon(polygon) => Some(ConvexProxy {
                inline_points: [Vec2::ZERO; 2],
                inline_count: 0,
                borrowed_points: polygon.vertices(),
                radius: polygon.radius(),
            }),
            Shape::Compound(_) | Shape::Chain(_) => None,
        }
    }

    fn from_inline(points: [Vec2; 2], count: usize, radius: f32) -> ConvexProxy<'static> {
        ConvexProxy {
            inline_points: points,
            inline_count: count,
            borrowed_points: &[],
            radius,
        }
    }

    /// The core points (local frame), at least one.
    #[inline]
    pub(crate) fn points(&self) -> &[Vec2] {
        if self.inline_count > 0 {
            &self.inline_points[..self.inline_count]
        } else {
            self.borrowed_points
        }
    }

    /// How many core points there are.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        self.points().len()
    }

    /// Core point `index` (local frame).
    #[inline]
    pub(crate) fn point(&self, index: usize) -> Vec2 {
        self.points()[index]
    }

    /// The radius added around the core.
    #[inline]
    pub(crate) fn radius(&self) -> f32 {
        self.radius
    }

    /// The index of the core point furthest along `local_direction` (the first one on ties).
    #[inline]
    pub(crate) fn support_index(&self, local_direction: Vec2) -> usize {
        let points = self.points();
        let mut best_index = 0;
        let mut best_value = points[0].dot(local_direction);
        for (index, point) in points.iter().enumerate().skip(1) {
            let value = point.dot(local_direction);
            if value > best_value {
                best_index = index;
                best_value = value;
            }
        }
        best_index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Circle, Compound, Polygon, Segment};
    use crate::Transform;

    #[test]
    fn proxies_hold_the_core_points() {
        let circle = Shape::from(Circle::new(Vec2::new(1.0, 2.0), 0.5).unwrap());
        let proxy = ConvexProxy::from_shape(&circle).unwrap();
        assert_eq!(proxy.points(), &[Vec2::new(1.0, 2.0)]);
        assert_eq!(proxy.radius(), 0.5);

        let capsule = Shape::from(Capsule::new(Vec2::ZERO, Vec2::X, 0.25).unwrap());
        let proxy = ConvexProxy::from_shape(&capsule).unwrap();
        assert_eq!(proxy.count(), 2);
        assert_eq!(proxy.radius(), 0.25);

        let segment = Shape::from(Segment::new(Vec2::ZERO, Vec2::Y).unwrap());
        let proxy = ConvexProxy::from_shape(&segment).unwrap();
        assert_eq!(proxy.point(1), Vec2::Y);
        assert_eq!(proxy.radius(), 0.0);

        let square = Shape::from(Polygon::rounded_rect(2.0, 2.0, 0.1).unwrap());
        let proxy = ConvexProxy::from_shape(&square).unwrap();
        assert_eq!(proxy.count(), 4);
        assert!((proxy.radius() - 0.1).abs() < 1e-7);
    }

    #[test]
    fn compounds_have_no_proxy() {
        let child = Shape::from(Circle::with_radius(1.0).unwrap());
        let compound = Shape::from(Compound::new(vec![(Transform::IDENTITY, child)]).unwrap());
        assert!(ConvexProxy::from_shape(&compound).is_none());
    }

    #[test]
    fn support_picks_the_furthest_vertex() {
        let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
        let proxy = ConvexProxy::from_shape(&square).unwrap();
        let index = proxy.support_index(Vec2::new(1.0, 0.9));
        assert_eq!(proxy.point(index), Vec2::new(1.0, 1.0));
        let index = proxy.support_index(Vec2::new(-1.0, -0.2));
        assert_eq!(proxy.point(index), Vec2::new(-1.0, -1.0));
    }
}
