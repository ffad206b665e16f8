//! Shared helpers for integration tests: a small deterministic RNG, random shapes, and
//! conversion of our shapes to parry2d's for differential tests.
#![allow(dead_code)]

use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{Transform, Vec2};

/// SplitMix64: tiny, fast, reproducible from a seed printed on failure.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn point(&mut self, half: f32) -> Vec2 {
        Vec2::new(self.range(-half, half), self.range(-half, half))
    }
    /// A size spread log-uniformly over [low, high].
    pub fn log_size(&mut self, low: f32, high: f32) -> f32 {
        (self.range(low.ln(), high.ln())).exp()
    }
    pub fn angle(&mut self) -> f32 {
        self.range(-std::f32::consts::PI, std::f32::consts::PI)
    }
}

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

pub mod parry {
    //! Conversion to parry2d shapes and poses.
    use super::*;
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
}

/// Whether two colliders of `world` touch now, by the rules the world applies (layer matrix,
/// category and mask, sensors by overlap, solid pairs by a non-empty manifold), computed
/// directly from their shapes and placements: the reference of the world model tests.
pub fn touches(
    world: &collide2d::World,
    a: &collide2d::world::Collider,
    b: &collide2d::world::Collider,
) -> bool {
    let (groups_a, groups_b) = (a.groups(), b.groups());
    let (category_a, mask_a) = (groups_a.category, groups_a.mask);
    let (category_b, mask_b) = (groups_b.category, groups_b.mask);
    if !world.layers().collides(a.layer(), b.layer())
        || category_a & mask_b == 0
        || category_b & mask_a == 0
    {
        return false;
    }
    let (xa, xb) = (a.world_transform(), b.world_transform());
    if a.is_sensor() || b.is_sensor() {
        collide2d::overlaps(a.shape(), &xa, b.shape(), &xb)
    } else {
        !collide2d::collide(a.shape(), &xa, b.shape(), &xb).is_empty()
    }
}
