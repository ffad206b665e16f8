//! The random shapes of the exact-reference probes (`query_edges`, `cast_reference`): each kind
//! about a given size across, around its local origin, drawn from a seeded [`Rng`].

use super::rng::Rng;
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{Rot, Transform, Vec2};
use std::f32::consts::TAU;

/// The shape kinds drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Circle,
    Capsule,
    Segment,
    Box,
    Polygon,
    Rounded,
    Compound,
    Chain,
}

/// Every kind.
pub const KINDS: [Kind; 8] = [
    Kind::Circle,
    Kind::Capsule,
    Kind::Segment,
    Kind::Box,
    Kind::Polygon,
    Kind::Rounded,
    Kind::Compound,
    Kind::Chain,
];

/// The convex kinds (no compounds, no chains).
pub const CONVEX_KINDS: [Kind; 6] = [
    Kind::Circle,
    Kind::Capsule,
    Kind::Segment,
    Kind::Box,
    Kind::Polygon,
    Kind::Rounded,
];

/// The unit vector at `angle`.
pub fn unit(angle: f32) -> Vec2 {
    Rot::from_angle(angle).rotate(Vec2::X)
}

/// A shape of `kind` about `size` across around its local origin.
pub fn make(kind: Kind, size: f32, rng: &mut Rng) -> Shape {
    let half = 0.5 * size;
    let offset = rng.point(0.1 * size);
    let axis = unit(rng.range(0.0, TAU));
    match kind {
        Kind::Circle => Shape::from(Circle::new(offset, half * rng.range(0.5, 1.0)).unwrap()),
        Kind::Capsule => {
            let d = axis * half * rng.range(0.3, 0.7);
            Shape::from(Capsule::new(offset - d, offset + d, half * rng.range(0.1, 0.4)).unwrap())
        }
        Kind::Segment => {
            let d = axis * half * rng.range(0.5, 1.0);
            Shape::from(Segment::new(offset - d, offset + d).unwrap())
        }
        Kind::Box => Shape::from(
            Polygon::rect(size * rng.range(0.3, 1.0), size * rng.range(0.3, 1.0)).unwrap(),
        ),
        Kind::Polygon | Kind::Rounded => {
            let count = 3 + rng.below(6);
            let points: Vec<Vec2> = (0..count)
                .map(|_| offset + unit(rng.range(0.0, TAU)) * half * rng.range(0.6, 1.0))
                .collect();
            let polygon =
                Polygon::hull(&points).unwrap_or_else(|_| Polygon::regular(count, half).unwrap());
            if kind == Kind::Rounded {
                Shape::from(polygon.with_radius(half * rng.range(0.02, 0.3)).unwrap())
            } else {
                Shape::from(polygon)
            }
        }
        Kind::Compound => {
            let first = make(Kind::Box, 0.6 * size, rng);
            let second = make(
                rng.pick(&[Kind::Circle, Kind::Capsule, Kind::Rounded]),
                0.5 * size,
                rng,
            );
            let place = |rng: &mut Rng| Transform::new(rng.point(0.25 * size), rng.angle());
            Shape::from(Compound::new(vec![(place(rng), first), (place(rng), second)]).unwrap())
        }
        Kind::Chain => {
            // A zig-zag floor with flat, convex and concave joints, or a closed loop.
            if rng.chance(0.3) {
                let count = 3 + rng.below(4);
                let mut points: Vec<Vec2> = (0..count)
                    .map(|k| unit(TAU * k as f32 / count as f32 + rng.range(-0.3, 0.3)) * half)
                    .collect();
                if rng.chance(0.5) {
                    points.reverse();
                }
                return Shape::from(Chain::closed(&points).unwrap());
            }
            let count = 2 + rng.below(4);
            let step = size / count as f32;
            let mut direction = rng.angle();
            let mut at = offset - unit(direction) * half;
            let mut points = vec![at];
            for _ in 0..count {
                at += unit(direction) * step;
                points.push(at);
                direction += match rng.below(3) {
                    0 => 0.0,
                    _ => rng.range(-0.8, 0.8),
                };
            }
            Shape::from(Chain::open(&points).unwrap())
        }
    }
}
