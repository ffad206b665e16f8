//! Random shapes of every kind, sized and placed from a seeded [`Rng`].

use super::rng::Rng;
use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{Transform, Vec2};

/// The kinds of shape the random generator makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Circle,
    Capsule,
    Segment,
    Polygon,
    RoundedPolygon,
    Compound,
}

/// Every kind, in the order of the enum.
pub const ALL_KINDS: [Kind; 6] = [
    Kind::Circle,
    Kind::Capsule,
    Kind::Segment,
    Kind::Polygon,
    Kind::RoundedPolygon,
    Kind::Compound,
];

/// A random convex polygon of 3..=8 vertices around the origin, about `size` across.
pub fn random_polygon(rng: &mut Rng, size: f32) -> Polygon {
    loop {
        let count = 3 + rng.below(6);
        let points: Vec<Vec2> = (0..count * 2).map(|_| rng.point(0.5 * size)).collect();
        if let Ok(polygon) = Polygon::hull(&points) {
            if polygon.vertices().len() <= 8 && polygon.area() > 0.05 * size * size {
                return polygon;
            }
        }
    }
}

/// A random shape of `kind` with its size drawn from `size`.
pub fn random_shape(rng: &mut Rng, kind: Kind, size: f32) -> Shape {
    match kind {
        Kind::Circle => Shape::from(Circle::new(rng.point(0.2 * size), 0.5 * size).unwrap()),
        Kind::Capsule => loop {
            let a = rng.point(0.5 * size);
            let b = rng.point(0.5 * size);
            if let Ok(c) = Capsule::new(a, b, rng.range(0.05, 0.4) * size) {
                if a.distance(b) > 0.01 * size {
                    return Shape::from(c);
                }
            }
        },
        Kind::Segment => loop {
            let a = rng.point(0.5 * size);
            let b = rng.point(0.5 * size);
            if a.distance(b) > 0.05 * size {
                return Shape::from(Segment::new(a, b).unwrap());
            }
        },
        Kind::Polygon => Shape::from(random_polygon(rng, size)),
        Kind::RoundedPolygon => {
            let radius = rng.range(0.02, 0.3) * size;
            Shape::from(random_polygon(rng, size).with_radius(radius).unwrap())
        }
        Kind::Compound => {
            let count = 1 + rng.below(3);
            let children = (0..count)
                .map(|_| {
                    let child_kind = [
                        Kind::Circle,
                        Kind::Capsule,
                        Kind::Polygon,
                        Kind::RoundedPolygon,
                    ][rng.below(4)];
                    let child = random_shape(rng, child_kind, 0.5 * size);
                    (Transform::new(rng.point(0.3 * size), rng.angle()), child)
                })
                .collect();
            Shape::from(Compound::new(children).unwrap())
        }
    }
}

/// A rough size of the shape: its local bounding box's larger side.
pub fn size_of(shape: &Shape) -> f32 {
    shape.aabb(&Transform::IDENTITY).extents().max_element()
}

/// A ray test's draw: a random shape of `kind` placed within 1000 of the origin, its size
/// ([`size_of`]), and a ray from within two sizes of its origin aimed at a point within 0.6 of
/// a size of it, four sizes long (`None` where that direction is zero).
pub struct RayCase {
    /// The shape.
    pub shape: Shape,
    /// Its [`size_of`].
    pub size: f32,
    /// Its placement.
    pub xf: Transform,
    /// The ray, when it has a direction.
    pub ray: Option<collide2d::shape::Ray>,
}

/// Draws a [`RayCase`] of `kind` (the shape's size from 0.01 to 100).
pub fn random_ray_case(rng: &mut Rng, kind: Kind) -> RayCase {
    let size = rng.log_size(0.01, 100.0);
    let shape = random_shape(rng, kind, size);
    let size = size_of(&shape);
    let xf = Transform::new(rng.point(1000.0), rng.angle());
    let origin = xf.p + rng.point(2.0 * size);
    let target = xf.p + rng.point(0.6 * size);
    let ray = collide2d::shape::Ray::new(origin, target - origin, 4.0 * size).ok();
    RayCase {
        shape,
        size,
        xf,
        ray,
    }
}

/// A body slid along a floor in the ghost-collision tests: a box, a ball or a lying capsule (by
/// `turn % 3`), and its size, drawn from 0.2 to 2 across.
pub fn sliding_body(rng: &mut Rng, turn: usize) -> (Shape, f32) {
    let size = rng.log_size(0.2, 2.0);
    let half = 0.5 * size;
    let shape = match turn % 3 {
        0 => Shape::from(Polygon::rect(size, size * rng.range(0.5, 1.5)).unwrap()),
        1 => Shape::from(Circle::with_radius(half).unwrap()),
        _ => Shape::from(
            Capsule::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0), 0.5 * half).unwrap(),
        ),
    };
    (shape, size)
}
