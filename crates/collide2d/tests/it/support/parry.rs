//! Conversion of our shapes and placements to parry2d's, for the differential tests and the
//! benchmarks against parry2d.

use collide2d::shape::Shape;
use collide2d::{Transform, Vec2};
use parry2d::math::{Pose, Vector};
use parry2d::shape::{self as ps, SharedShape};

pub fn vector(v: Vec2) -> Vector {
    Vector::new(v.x, v.y)
}

pub fn ours(v: Vector) -> Vec2 {
    Vec2::new(v.x, v.y)
}

pub fn pose(xf: &Transform) -> Pose {
    Pose::new(vector(xf.p), xf.angle())
}

/// The parry shape and the pose offset to apply after ours (circles carry a centre).
pub fn shape(shape: &Shape) -> SharedShape {
    match shape {
        Shape::Circle(c) => {
            // parry balls are centred: wrap in a one-child compound when offset.
            if c.center() == Vec2::ZERO {
                SharedShape::ball(c.radius())
            } else {
                SharedShape::compound(vec![(
                    Pose::from_translation(vector(c.center())),
                    SharedShape::ball(c.radius()),
                )])
            }
        }
        Shape::Capsule(c) => {
            SharedShape::new(ps::Capsule::new(vector(c.a()), vector(c.b()), c.radius()))
        }
        Shape::Segment(s) => SharedShape::segment(vector(s.a()), vector(s.b())),
        Shape::Polygon(p) => {
            let points: Vec<Vector> = p.vertices().iter().map(|v| vector(*v)).collect();
            let polygon = ps::ConvexPolygon::from_convex_polyline_unmodified(points)
                .expect("our polygons are convex");
            if p.radius() > 0.0 {
                SharedShape::new(ps::RoundShape {
                    inner_shape: polygon,
                    border_radius: p.radius(),
                })
            } else {
                SharedShape::new(polygon)
            }
        }
        Shape::Compound(c) => SharedShape::compound(
            c.children()
                .iter()
                .map(|(xf, s)| match s {
                    // parry forbids nested compounds: move a circle's centre into the pose.
                    Shape::Circle(circle) => (
                        pose(&xf.mul(&Transform::from_translation(circle.center()))),
                        SharedShape::ball(circle.radius()),
                    ),
                    _ => (pose(xf), self::shape(s)),
                })
                .collect(),
        ),
        // parry's polyline is two-sided; differential tests never hand it chains.
        Shape::Chain(c) => {
            SharedShape::polyline(c.vertices().iter().map(|v| vector(*v)).collect(), None)
        }
    }
}
