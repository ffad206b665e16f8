//! Shape and placement generators shared by the manifold property and differential tests.
#![allow(dead_code)]

pub mod axis_gap;
pub mod exact;

use collide2d::query::Manifold;
use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{Transform, Vec2};
use std::f32::consts::TAU;

/// The shape kinds the tests draw from (the random shapes' own, drawn here by [`make_shape`]).
pub use crate::support::{Kind, ALL_KINDS};

/// The shared seeded generator, so that failing cases can be replayed by seed.
pub use crate::support::Rng;

/// A random shape of `kind` about `size` across, centred near its local origin.
pub fn make_shape(kind: Kind, size: f32, rng: &mut Rng) -> Shape {
    let half = 0.5 * size;
    let offset = Vec2::new(rng.range(-0.1, 0.1), rng.range(-0.1, 0.1)) * size;
    match kind {
        Kind::Circle => Shape::from(Circle::new(offset, half * rng.range(0.3, 1.0)).unwrap()),
        Kind::Capsule | Kind::Segment => {
            let angle = rng.range(0.0, TAU);
            let length = half * rng.range(0.2, 1.0);
            let d = Vec2::new(angle.cos(), angle.sin()) * length;
            if kind == Kind::Capsule {
                let radius = half * rng.range(0.05, 0.5);
                Shape::from(Capsule::new(offset - d, offset + d, radius).unwrap())
            } else {
                Shape::from(Segment::new(offset - d, offset + d).unwrap())
            }
        }
        Kind::Polygon | Kind::RoundedPolygon => {
            let polygon = random_polygon(half, offset, rng);
            if kind == Kind::RoundedPolygon {
                let radius = half * rng.range(0.02, 0.4);
                Shape::from(polygon.with_radius(radius).unwrap())
            } else {
                Shape::from(polygon)
            }
        }
        Kind::Compound => {
            let first = make_shape(Kind::Polygon, 0.6 * size, rng);
            let second_kind = [Kind::Circle, Kind::Capsule, Kind::RoundedPolygon]
                [(rng.unit() * 3.0) as usize % 3];
            let second = make_shape(second_kind, 0.6 * size, rng);
            let place = |rng: &mut Rng| {
                Transform::new(
                    Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)) * size,
                    rng.range(0.0, TAU),
                )
            };
            let children = vec![(place(rng), first), (place(rng), second)];
            Shape::from(Compound::new(children).unwrap())
        }
    }
}

/// A convex polygon of 3 to 8 vertices inside a circle of radius `half`.
pub fn random_polygon(half: f32, offset: Vec2, rng: &mut Rng) -> Polygon {
    let count = 3 + (rng.unit() * 6.0) as usize;
    let points: Vec<Vec2> = (0..count)
        .map(|_| {
            let angle = rng.range(0.0, TAU);
            offset + Vec2::new(angle.cos(), angle.sin()) * half * rng.range(0.6, 1.0)
        })
        .collect();
    Polygon::hull(&points).unwrap_or_else(|_| Polygon::regular(count.max(3), half).unwrap())
}

/// The rounding radius around a shape's core (zero for segments, sharp polygons, and
/// compounds, whose children vary).
pub fn rounding(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle(c) => c.radius(),
        Shape::Capsule(c) => c.radius(),
        Shape::Polygon(p) => p.radius(),
        _ => 0.0,
    }
}

/// A rough size of a shape (the diagonal of its local bounding box).
pub fn shape_size(shape: &Shape) -> f32 {
    let aabb = shape.aabb(&Transform::IDENTITY);
    aabb.extents().length()
}

/// Places B near A: A anywhere within `spread`, B at a distance that makes touching likely.
pub fn placements(size_a: f32, size_b: f32, spread: f32, rng: &mut Rng) -> (Transform, Transform) {
    let xf_a = Transform::new(
        Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread)),
        rng.range(0.0, TAU),
    );
    let angle = rng.range(0.0, TAU);
    let distance = rng.range(0.0, 0.75) * (size_a + size_b);
    let xf_b = Transform::new(
        xf_a.p + Vec2::new(angle.cos(), angle.sin()) * distance,
        rng.range(0.0, TAU),
    );
    (xf_a, xf_b)
}

/// The differential tests' placements: A anywhere within 1000 of the origin at any angle, B at
/// any angle with its origin up to `most` times the mean of the shapes' sizes from A's, in a
/// random direction (drawn in that order).
pub fn placements_within_reach(
    a: &Shape,
    b: &Shape,
    most: f32,
    rng: &mut Rng,
) -> (Transform, Transform) {
    let xf_a = Transform::new(
        Vec2::new(rng.range(-1000.0, 1000.0), rng.range(-1000.0, 1000.0)),
        rng.range(0.0, TAU),
    );
    let direction = rng.range(0.0, TAU);
    let reach = 0.5 * (shape_size(a) + shape_size(b));
    let xf_b = Transform::new(
        xf_a.p + Vec2::new(direction.cos(), direction.sin()) * reach * rng.range(0.0, most),
        rng.range(0.0, TAU),
    );
    (xf_a, xf_b)
}

/// The angle between two unit normals, in radians (0 to π).
pub fn angle_between(normal: Vec2, other: Vec2) -> f32 {
    collide2d::math::cross(normal, other)
        .atan2(normal.dot(other))
        .abs()
}

/// The convex child that produced a manifold (the shape itself when not a compound).
pub fn part(shape: &Shape, xf: &Transform, child: u32) -> (Shape, Transform) {
    match shape {
        Shape::Compound(c) => {
            let (child_xf, child_shape) = &c.children()[child as usize];
            (child_shape.clone(), xf.mul(child_xf))
        }
        other => (other.clone(), *xf),
    }
}

/// `m` carried by the rigid motion `motion`: its normal turned, its points moved.
pub fn moved(m: &Manifold, motion: &Transform) -> Manifold {
    let mut out = *m;
    out.normal = motion.rotate(m.normal);
    for p in &mut out.points[..m.count] {
        p.point = motion.apply(p.point);
    }
    out
}
