//! Bit-level views of manifolds, for the manifold unit tests, beside the crate's repeatable
//! pseudo-random numbers (`crate::test_numbers`), re-exported here for them.

use crate::query::{FeatureId, Manifold};
use crate::shape::Polygon;
pub(crate) use crate::test_numbers::{Numbers, EXACT_TURNS};

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

/// A test round's polygon: on every third round a box, else a regular polygon of `sides`;
/// rounded on every fifth round. Its sizes come from `numbers` in that order.
pub(crate) fn round_polygon(numbers: &mut Numbers, round: usize, sides: usize) -> Polygon {
    let polygon = if round % 3 == 0 {
        Polygon::rect(0.1 + numbers.unit() * 2.0, 0.1 + numbers.unit() * 2.0).unwrap()
    } else {
        Polygon::regular(sides, 0.1 + numbers.unit() * 2.0).unwrap()
    };
    if round % 5 == 0 {
        polygon.with_radius(numbers.unit() * 0.3).unwrap()
    } else {
        polygon
    }
}
