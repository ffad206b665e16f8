//! Manifolds of axis-aligned boxes: box–box, box–circle and box–polygon.
//!
//! A box numbers its features like [`Aabb::to_polygon`]: vertices counter-clockwise from the
//! lower left (`min`), edge `0` at the bottom, `1` on the right, `2` at the top, `3` on the left.

use crate::math::{Transform, Vec2};
use crate::query::manifold::core_shape::{BoxCore, CoreShape};
use crate::query::manifold::polygon_polygon::collide_cores;
use crate::query::manifold::{finish_local, rounded_points_contact};
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
use crate::shape::{Aabb, Circle, Polygon};

/// The contact manifolds of a bare [`Aabb`], methods of the box that live beside the other pair
/// tests because they answer with a [`Manifold`] (the box itself belongs to
/// [`shape`](crate::shape)).
pub trait AabbManifold {
    /// The contact manifold of this box (A) against `other` (B), both in world space.
    fn manifold(&self, other: &Aabb) -> Manifold;
    /// The contact manifold of this box (A) against `circle` (B) placed by `xf`.
    fn manifold_circle(&self, circle: &Circle, xf: &Transform) -> Manifold;
    /// The contact manifold of this box (A) against `polygon` (B) placed by `xf`.
    fn manifold_polygon(&self, polygon: &Polygon, xf: &Transform) -> Manifold;
}

impl AabbManifold for Aabb {
    /// The contact manifold of this box (A) against `other` (B), both in world space.
    ///
    /// The normal is the axis of least overlap (x on a tie), pointing from A to B; the two
    /// points are the ends of the overlap along the other axis, midway between the faces.
    /// Touching boxes give penetration `0`; apart boxes an empty manifold.
    ///
    /// ```
    /// use collide2d::{Aabb, AabbManifold, Vec2};
    /// let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0))?;
    /// let b = Aabb::new(Vec2::new(1.5, 1.0), Vec2::new(4.0, 3.0))?;
    /// let manifold = a.manifold(&b);
    /// assert_eq!(manifold.normal, Vec2::X);
    /// assert_eq!(manifold.count, 2);
    /// assert_eq!(manifold.points[0].penetration, 0.5);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    fn manifold(&self, other: &Aabb) -> Manifold {
        // 1. How far B must move along each axis direction to clear A.
        let push_right = self.max.x - other.min.x;
        let push_left = other.max.x - self.min.x;
        let push_up = self.max.y - other.min.y;
        let push_down = other.max.y - self.min.y;
        if !(push_right >= 0.0 && push_left >= 0.0 && push_up >= 0.0 && push_down >= 0.0) {
            return Manifold::EMPTY;
        }
        let (depth_x, positive_x) = if push_right <= push_left {
            (push_right, true)
        } else {
            (push_left, false)
        };
        let (depth_y, positive_y) = if push_up <= push_down {
            (push_up, true)
        } else {
            (push_down, false)
        };

        // 2. Faces and the overlap interval along the other axis. Features per case:
        //    (normal, A's face, B's face, A's vertices low/high, B's vertices low/high).
        let mut manifold = Manifold::EMPTY;
        let (normal, depth, face_coordinate, axis_x, low, high, low_from_b, high_from_b, ids) =
            if depth_x <= depth_y {
                let face = if positive_x {
                    0.5 * (self.max.x + other.min.x)
                } else {
                    0.5 * (self.min.x + other.max.x)
                };
                let ids = if positive_x {
                    (1, 3, [1, 2], [0, 3])
                } else {
                    (3, 1, [0, 3], [1, 2])
                };
                (
                    if positive_x { Vec2::X } else { Vec2::NEG_X },
                    depth_x,
                    face,
                    true,
                    self.min.y.max(other.min.y),
                    self.max.y.min(other.max.y),
                    other.min.y >= self.min.y,
                    other.max.y <= self.max.y,
                    ids,
                )
            } else {
                let face = if positive_y {
                    0.5 * (self.max.y + other.min.y)
                } else {
                    0.5 * (self.min.y + other.max.y)
                };
                let ids = if positive_y {
                    (2, 0, [3, 2], [0, 1])
                } else {
                    (0, 2, [0, 1], [3, 2])
                };
                (
                    if positive_y { Vec2::Y } else { Vec2::NEG_Y },
                    depth_y,
                    face,
                    false,
                    self.min.x.max(other.min.x),
                    self.max.x.min(other.max.x),
                    other.min.x >= self.min.x,
                    other.max.x <= self.max.x,
                    ids,
                )
            };
        let (face_a, face_b, vertices_a, vertices_b) = ids;
        let point_at = |along: f32| {
            if axis_x {
                Vec2::new(face_coordinate, along)
            } else {
                Vec2::new(along, face_coordinate)
            }
        };
        let id_for = |end: usize, from_b: bool| {
            if from_b {
                FeatureId {
                    a: Feature::Edge(face_a),
                    b: Feature::Vertex(vertices_b[end]),
                }
            } else {
                FeatureId {
                    a: Feature::Vertex(vertices_a[end]),
                    b: Feature::Edge(face_b),
                }
            }
        };

        // 3. Two points at the ends of the overlap (one when it has no length).
        manifold.normal = normal;
        manifold.points[0] = ContactPoint {
            point: point_at(low),
            penetration: depth,
            id: id_for(0, low_from_b),
        };
        manifold.count = 1;
        if high > low {
            manifold.points[1] = ContactPoint {
                point: point_at(high),
                penetration: depth,
                id: id_for(1, high_from_b),
            };
            manifold.count = 2;
        }
        manifold
    }

    /// The contact manifold of this box (A) against a circle (B) placed by `xf`.
    ///
    /// Clamps the circle's centre to the box; a centre inside the box is pushed out through the
    /// nearest face.
    fn manifold_circle(&self, circle: &Circle, xf: &Transform) -> Manifold {
        let center = xf.apply(circle.center());
        let radius = circle.radius();
        let closest = self.closest_point(center);

        // 1. Centre outside: one point between the clamped point and the circle.
        if closest != center {
            let clamped_x = closest.x != center.x;
            let clamped_y = closest.y != center.y;
            let feature = match (clamped_x, clamped_y) {
                (true, true) => {
                    Feature::Vertex(match (center.x > self.max.x, center.y > self.max.y) {
                        (false, false) => 0,
                        (true, false) => 1,
                        (true, true) => 2,
                        (false, true) => 3,
                    })
                }
                (true, false) => Feature::Edge(if center.x > self.max.x { 1 } else { 3 }),
                _ => Feature::Edge(if center.y > self.max.y { 2 } else { 0 }),
            };
            return rounded_points_contact(
                closest,
                0.0,
                center,
                radius,
                0.0,
                FeatureId {
                    a: feature,
                    b: Feature::Vertex(0),
                },
                Vec2::X,
            );
        }

        // 2. Centre inside: out through the nearest face.
        let faces = [
            (center.y - self.min.y, Vec2::NEG_Y, 0u8),
            (self.max.x - center.x, Vec2::X, 1),
            (self.max.y - center.y, Vec2::Y, 2),
            (center.x - self.min.x, Vec2::NEG_X, 3),
        ];
        let mut best = faces[0];
        for face in &faces[1..] {
            if face.0 < best.0 {
                best = *face;
            }
        }
        let (depth, normal, edge) = best;
        let mut manifold = Manifold::EMPTY;
        manifold.normal = normal;
        manifold.count = 1;
        manifold.points[0] = ContactPoint {
            point: center + normal * (0.5 * (depth - radius)),
            penetration: depth + radius,
            id: FeatureId {
                a: Feature::Edge(edge),
                b: Feature::Vertex(0),
            },
        };
        manifold
    }

    /// The contact manifold of this box (A, as a sharp box polygon) against a polygon (B)
    /// placed by `xf`.
    fn manifold_polygon(&self, polygon: &Polygon, xf: &Transform) -> Manifold {
        let box_core = BoxCore::new(self.half_extents());
        let box_xf = Transform::from_translation(self.center());
        let b_in_a = box_xf.inv_mul(xf);
        let local = collide_cores(
            &box_core.view(),
            &CoreShape::of_polygon(polygon),
            &b_in_a,
            0.0,
        );
        finish_local(local, &box_xf)
    }
}
