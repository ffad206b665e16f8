//! Repeatable pseudo-random numbers (xorshift64), for the crate's unit tests, and bit-level
//! views of manifolds, for the manifold unit tests.

use crate::query::{FeatureId, Manifold};

/// A xorshift64 state; the seed must not be zero.
pub(crate) struct Numbers(pub(crate) u64);

impl Numbers {
    /// The next number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Rotations with exact cosine and sine, `(c, s)`: quarter turns, with signed zeros.
pub(crate) const EXACT_TURNS: [(f32, f32); 5] = [
    (1.0, 0.0),
    (1.0, -0.0),
    (0.0, 1.0),
    (-0.0, -1.0),
    (-1.0, 0.0),
];

/// The numbers of the points in use, `normal` and `count`, as bits (so `-0.0` and `0.0`
/// differ), and the points' feature ids.
pub(crate) fn manifold_bits(manifold: &Manifold) -> (Vec<u32>, Vec<FeatureId>) {
    points_bits(manifold, manifold.points())
}

/// [`manifold_bits`] of every stored point, the unused one included, with the child indices.
pub(crate) fn all_manifold_bits(manifold: &Manifold) -> (Vec<u32>, Vec<FeatureId>) {
    let (mut out, ids) = points_bits(manifold, &manifold.points);
    out.extend([manifold.child_a, manifold.child_b]);
    (out, ids)
}

fn points_bits(
    manifold: &Manifold,
    points: &[crate::query::ContactPoint],
) -> (Vec<u32>, Vec<FeatureId>) {
    let mut out = vec![
        manifold.normal.x.to_bits(),
        manifold.normal.y.to_bits(),
        manifold.count as u32,
    ];
    for point in points {
        out.extend([
            point.point.x.to_bits(),
            point.point.y.to_bits(),
            point.penetration.to_bits(),
        ]);
    }
    (out, points.iter().map(|point| point.id).collect())
}
