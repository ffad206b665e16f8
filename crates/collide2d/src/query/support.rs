//! Convex proxies: the few core points of a convex shape plus its radius, for GJK.
//!
//! Every convex shape in the crate is the Minkowski sum of a convex *core* (a point, a segment or
//! a convex polygon) and a disc of some radius (possibly zero). GJK only needs the core's points
//! and a support function; the radius is added back at the end. A proxy borrows a polygon's
//! vertices and stores the one or two points of a circle, capsule or segment inline, so building
//! one never allocates.

use crate::math::Vec2;
use crate::shape::{PaddedOutline, Shape};
use glam::Vec4;

/// The core points of a convex shape in its local frame, and the radius around them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConvexProxy<'a> {
    /// The core points: a circle's centre, a capsule's or segment's two ends, a polygon's
    /// vertices, all borrowed from the shape.
    points: &'a [Vec2],
    /// The same vertices in padded lanes, for a polygon of at most 8 vertices.
    outline: Option<&'a PaddedOutline<2>>,
    /// The radius added around the core.
    radius: f32,
}

impl<'a> ConvexProxy<'a> {
    /// The proxy of a convex shape; `None` for a compound or a chain.
    #[inline(always)]
    pub(crate) fn from_shape(shape: &'a Shape) -> Option<ConvexProxy<'a>> {
        let (points, outline, radius): (&[Vec2], _, _) = match shape {
            Shape::Circle(circle) => (
                std::slice::from_ref(circle.center_ref()),
                None,
                circle.radius(),
            ),
            Shape::Capsule(capsule) => (capsule.ends(), None, capsule.radius()),
            Shape::Segment(segment) => (segment.ends(), None, 0.0),
            Shape::Polygon(polygon) => (
                polygon.vertices(),
                polygon.padded_outline(),
                polygon.radius(),
            ),
            Shape::Compound(_) | Shape::Chain(_) => return None,
        };
        Some(ConvexProxy {
            points,
            outline,
            radius,
        })
    }

    /// The core points (local frame), at least one.
    #[inline]
    pub(crate) fn points(&self) -> &'a [Vec2] {
        self.points
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

    /// A polygon's vertices in padded lanes (at most 8 vertices), else `None`.
    #[inline(always)]
    pub(crate) fn outline(&self) -> Option<&'a PaddedOutline<2>> {
        self.outline
    }

    /// The index of the core point furthest along `local_direction` (the first one on ties).
    #[inline]
    pub(crate) fn support_index(&self, local_direction: Vec2) -> usize {
        if let Some(outline) = self.outline {
            return padded_support_index(outline, local_direction);
        }
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

impl ConvexProxy<'_> {
    /// [`support_index`](Self::support_index), found by walking the outline from core point
    /// `start` (any index) instead of scanning every point: GJK asks along directions that turn
    /// a little at a time, so the previous support point is usually the answer or a neighbour.
    ///
    /// The dot products along a convex outline rise to one peak and fall, so the first point
    /// whose neighbours are both strictly lower is the furthest one. A tie with a neighbour
    /// (an edge square to the direction) or a NaN product hands over to the full scan, which
    /// picks the first index as the scan always does; the answer is then the scan's own.
    /// A polygon with a padded outline (at most 8 vertices) takes the branch-free lane scan
    /// instead: cheaper than a walk there (29 instructions a warm distance call on 8-gons).
    #[inline(always)]
    pub(crate) fn support_index_near(&self, start: usize, local_direction: Vec2) -> usize {
        if let Some(outline) = self.outline {
            return padded_support_index(outline, local_direction);
        }
        let points = self.points();
        let count = points.len();
        if count < 4 || start >= count {
            return self.support_index(local_direction);
        }
        let value = |index: usize| points[index].dot(local_direction);
        let next = |index: usize| if index + 1 == count { 0 } else { index + 1 };
        let previous = |index: usize| if index == 0 { count - 1 } else { index - 1 };
        let mut best = start;
        let mut best_value = value(best);
        let mut next_value = value(next(best));
        let mut previous_value = value(previous(best));
        // Each step raises the value, so neither walk comes round to its start (a NaN stops it).
        if next_value > best_value {
            while next_value > best_value {
                best = next(best);
                (previous_value, best_value) = (best_value, next_value);
                next_value = value(next(best));
            }
        } else {
            while previous_value > best_value {
                best = previous(best);
                (next_value, best_value) = (best_value, previous_value);
                previous_value = value(previous(best));
            }
        }
        if !(previous_value < best_value && next_value < best_value) {
            return self.support_index(local_direction);
        }
        best
    }
}

/// [`ConvexProxy::support_index`] on a padded outline: the same dot products (`x·dx + y·dy`,
/// in that order) in two chunks of four lanes, their largest value, and the first index that
/// holds it, without a branch (glam's four-lane vectors: SSE2 on x86-64). Padding slots repeat
/// vertex 0, so they tie with it and lose; a direction that makes every product NaN gives
/// index 0, as the point loop does.
#[inline(always)]
fn padded_support_index(outline: &PaddedOutline<2>, direction: Vec2) -> usize {
    let (direction_x, direction_y) = (Vec4::splat(direction.x), Vec4::splat(direction.y));
    let lanes = |chunk: usize| {
        let x = Vec4::from_array(outline.vertex_x[chunk].0);
        let y = Vec4::from_array(outline.vertex_y[chunk].0);
        x * direction_x + y * direction_y
    };
    first_largest_lane(lanes(0), lanes(1))
}

/// [`padded_support_index`]'s search on points given as lanes (`x[chunk]`, `y[chunk]`; point
/// `4 · chunk + lane`), e.g. an outline turned into another frame.
#[inline(always)]
pub(crate) fn lane_support_index(x: [Vec4; 2], y: [Vec4; 2], direction: Vec2) -> usize {
    let (direction_x, direction_y) = (Vec4::splat(direction.x), Vec4::splat(direction.y));
    let lanes = |chunk: usize| x[chunk] * direction_x + y[chunk] * direction_y;
    first_largest_lane(lanes(0), lanes(1))
}

/// The first of eight lanes (`low` holds 0–3, `high` 4–7) holding their largest value, without
/// a branch; 0 when no lane holds it (every value NaN).
#[inline(always)]
fn first_largest_lane(low: Vec4, high: Vec4) -> usize {
    let largest = Vec4::splat(low.max(high).max_element());
    let mask = low.cmpeq(largest).bitmask() | high.cmpeq(largest).bitmask() << 4;
    // No lane holds it only when the values are NaN: then index 0 (32 & 7).
    mask.trailing_zeros() as usize & 7
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::manifold::test_numbers::Numbers;
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
    fn padded_support_matches_the_point_loop() {
        let mut numbers = Numbers(0x5eed);
        let mut unit = move || numbers.unit();
        let shapes: Vec<Polygon> = (3..=8)
            .map(|sides| Polygon::regular(sides, 1.5).unwrap())
            .chain([
                Polygon::rect(2.0, 1.0).unwrap(),
                Polygon::rect(1.0, 1.0).unwrap(),
            ])
            .collect();
        for polygon in &shapes {
            let shape = Shape::from(polygon.clone());
            let proxy = ConvexProxy::from_shape(&shape).unwrap();
            assert!(proxy.outline.is_some());
            let mut directions: Vec<Vec2> = (0..2000)
                .map(|_| Vec2::from_angle(unit() * std::f32::consts::TAU) * (0.1 + unit() * 9.0))
                .collect();
            // Ties: face normals and axis directions.
            directions.extend(polygon.normals().iter().copied());
            directions.extend([Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y, Vec2::ZERO]);
            directions.push(Vec2::new(f32::NAN, 1.0));
            for direction in directions {
                let points = proxy.points();
                let mut expected = 0;
                for (index, point) in points.iter().enumerate() {
                    if point.dot(direction) > points[expected].dot(direction) {
                        expected = index;
                    }
                }
                assert_eq!(
                    proxy.support_index(direction),
                    expected,
                    "{polygon:?} {direction:?}"
                );
            }
        }
    }

    /// The walk from any start gives the scan's index: random directions, the face normals and
    /// axes (ties between two vertices), zero and NaN directions, on regular polygons, boxes,
    /// random hulls, a 64-gon and outlines a million units across.
    #[test]
    fn walking_support_matches_the_scan_from_every_start() {
        let mut numbers = Numbers(0x0ddba11);
        let mut polygons: Vec<Polygon> = (3..=8)
            .map(|sides| Polygon::regular(sides, 1.5).unwrap())
            .chain([
                Polygon::rect(2.0, 1.0).unwrap(),
                Polygon::regular(64, 3.0).unwrap(),
                Polygon::regular(7, 1.0e6).unwrap(),
            ])
            .collect();
        for _ in 0..40 {
            let cloud: Vec<Vec2> = (0..12)
                .map(|_| Vec2::new(numbers.unit() - 0.5, numbers.unit() - 0.5) * 4.0)
                .collect();
            polygons.push(Polygon::hull(&cloud).unwrap());
        }
        for polygon in &polygons {
            let shape = Shape::from(polygon.clone());
            let proxy = ConvexProxy::from_shape(&shape).unwrap();
            let mut directions: Vec<Vec2> = (0..300)
                .map(|_| Vec2::from_angle(numbers.unit() * std::f32::consts::TAU))
                .collect();
            directions.extend(polygon.normals().iter().copied());
            directions.extend([Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y, Vec2::ZERO]);
            directions.push(Vec2::new(f32::NAN, 1.0));
            for direction in directions {
                let expected = proxy.support_index(direction);
                for start in 0..proxy.count() {
                    assert_eq!(
                        proxy.support_index_near(start, direction),
                        expected,
                        "{polygon:?} {direction:?} from {start}"
                    );
                }
            }
        }
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
