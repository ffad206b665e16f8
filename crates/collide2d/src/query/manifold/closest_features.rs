//! Closest points between segments and between separated convex cores.
//!
//! Used when two cores are apart but their rounded (or speculative) shells may still touch:
//! the contact then follows the closest core features exactly, not the separating axis.

use crate::math::{cross, Vec2};
use crate::query::manifold::core_shape::CoreShape;

/// The closest points of segments `p1`–`q1` and `p2`–`q2`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentClosest {
    /// Parameter along the first segment, in `[0, 1]`.
    pub fraction1: f32,
    /// Parameter along the second segment, in `[0, 1]`.
    pub fraction2: f32,
    /// The closest point on the first segment.
    pub point1: Vec2,
    /// The closest point on the second segment.
    pub point2: Vec2,
}

/// The closest points between two segments (either may be a single point).
///
/// Minimise `|p1 + s d1 − (p2 + t d2)|²` over the unit square: take the lines' crossing
/// `s = (d2 × (p1 − p2)) / (d1 × d2)`, clamp it, recompute `t` for it, and if `t` leaves
/// `[0, 1]` clamp it and recompute `s` (Ericson, *Real-Time Collision Detection*, §5.1.9).
/// In 2D Ericson's denominator `|d1|²|d2|² − (d1·d2)²` is `(d1 × d2)²`; formed as a
/// difference it cancels to rounding noise for nearly parallel segments (a sine below about
/// 3e-4 in `f32`), which picked an arbitrary end, while the cross product keeps its sign down
/// to a sine of about 1e-7, below which both ends are equally close to within rounding.
/// Exactly parallel segments take `s = 0` first, so the answer is one of the (equally close)
/// pairs.
#[inline]
pub(crate) fn closest_points_on_segments(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentClosest {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let offset = p1 - p2;
    let length1_sq = d1.length_squared();
    let length2_sq = d2.length_squared();
    let d2_dot_offset = d2.dot(offset);

    let (s, t) = if length1_sq <= 0.0 && length2_sq <= 0.0 {
        (0.0, 0.0)
    } else if length1_sq <= 0.0 {
        (0.0, (d2_dot_offset / length2_sq).clamp(0.0, 1.0))
    } else {
        let d1_dot_offset = d1.dot(offset);
        if length2_sq <= 0.0 {
            ((-d1_dot_offset / length1_sq).clamp(0.0, 1.0), 0.0)
        } else {
            // 1. Where the lines cross, along the first segment (s = 0 when parallel).
            let d1_dot_d2 = d1.dot(d2);
            let turn = cross(d1, d2);
            let mut s = if turn != 0.0 {
                (cross(d2, offset) / turn).clamp(0.0, 1.0)
            } else {
                0.0
            };
            // 2. The best t for that s, clamped; if clamped, the best s for the clamped t.
            let mut t = (d1_dot_d2 * s + d2_dot_offset) / length2_sq;
            if t < 0.0 {
                t = 0.0;
                s = (-d1_dot_offset / length1_sq).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((d1_dot_d2 - d1_dot_offset) / length1_sq).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    SegmentClosest {
        fraction1: s,
        fraction2: t,
        point1: p1 + d1 * s,
        point2: p2 + d2 * t,
    }
}

/// A feature of a core: a vertex, or a point strictly inside an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CoreFeature {
    /// Vertex `i`.
    Vertex(usize),
    /// The inside of edge `i` (from vertex `i` to vertex `i + 1`).
    Edge(usize),
}

/// The closest features of two separated cores, both given in the same frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreClosest {
    /// Feature of the first core.
    pub feature1: CoreFeature,
    /// Feature of the second core.
    pub feature2: CoreFeature,
    /// Closest point on the first core.
    pub point1: Vec2,
    /// Closest point on the second core.
    pub point2: Vec2,
}

/// The feature at parameter `fraction` along edge `edge` of a core with `count` vertices.
#[inline]
pub(crate) fn feature_at(edge: usize, count: usize, fraction: f32) -> CoreFeature {
    if fraction <= 0.0 {
        CoreFeature::Vertex(edge)
    } else if fraction >= 1.0 {
        CoreFeature::Vertex(if edge + 1 == count { 0 } else { edge + 1 })
    } else {
        CoreFeature::Edge(edge)
    }
}

/// Whether `direction` (unit) leaves the core `core` at `feature` within its normal cone.
///
/// The cone of a vertex spans the normals of its two edges; an edge's cone is its normal.
#[inline]
pub(crate) fn in_normal_cone(
    normals: &[Vec2],
    feature: CoreFeature,
    direction: Vec2,
    tolerance: f32,
) -> bool {
    match feature {
        // The closest point inside an edge makes the offset perpendicular to it already; only
        // the side matters (a two-vertex core has both sides of one segment).
        CoreFeature::Edge(i) => normals[i].dot(direction) > 0.0,
        CoreFeature::Vertex(i) => {
            let previous = normals[if i == 0 { normals.len() - 1 } else { i - 1 }];
            let next = normals[i];
            cross(previous, direction) >= -tolerance && cross(direction, next) >= -tolerance
        }
    }
}

/// The closest features of two disjoint cores by checking every vertex against every edge.
///
/// O(n·m): the fallback when the reference/incident edges did not hold the closest points.
/// `towards` is a direction separating the cores, from the first to the second (the separating
/// axis that found them apart): a point inside a two-vertex core's segment is on the side of
/// the segment that faces the other core, the side whose normal leans along `towards` (for the
/// first core; against it for the second). The offset between the closest points would decide
/// the same where it is longer than its rounding, but for cores closer than the rounding of
/// their coordinates it points either way, and the wrong side turns the contact inside out
/// (a small segment touching a long one was pushed through it, its whole length deep).
pub(crate) fn closest_features_exhaustive(
    (vertices1, normals1): (&[Vec2], &[Vec2]),
    (vertices2, normals2): (&[Vec2], &[Vec2]),
    towards: Vec2,
) -> CoreClosest {
    let mut best_distance_sq = f32::INFINITY;
    let mut best = CoreClosest {
        feature1: CoreFeature::Vertex(0),
        feature2: CoreFeature::Vertex(0),
        point1: vertices1[0],
        point2: vertices2[0],
    };
    let count1 = vertices1.len();
    let count2 = vertices2.len();
    for i in 0..count1 {
        let a1 = vertices1[i];
        let b1 = vertices1[(i + 1) % count1];
        for j in 0..count2 {
            let a2 = vertices2[j];
            let b2 = vertices2[(j + 1) % count2];
            let closest = closest_points_on_segments(a1, b1, a2, b2);
            let distance_sq = closest.point1.distance_squared(closest.point2);
            if distance_sq < best_distance_sq {
                let facing = |feature: CoreFeature, normals: &[Vec2], direction: Vec2| match feature
                {
                    CoreFeature::Edge(k)
                        if normals.len() == 2 && normals[k].dot(direction) < 0.0 =>
                    {
                        CoreFeature::Edge(1 - k)
                    }
                    other => other,
                };
                best_distance_sq = distance_sq;
                best = CoreClosest {
                    feature1: facing(feature_at(i, count1, closest.fraction1), normals1, towards),
                    feature2: facing(feature_at(j, count2, closest.fraction2), normals2, -towards),
                    point1: closest.point1,
                    point2: closest.point2,
                };
            }
        }
    }
    best
}

/// Checks that `closest` is the globally closest pair of two disjoint cores: the direction
/// between the points must lie in both normal cones.
pub(crate) fn is_globally_closest(
    core1: &CoreShape<'_>,
    normals2: &[Vec2],
    closest: &CoreClosest,
) -> bool {
    let Some(direction) = crate::math::try_unit(closest.point2 - closest.point1) else {
        return false;
    };
    const CONE_TOLERANCE: f32 = 1e-5;
    in_normal_cone(core1.normals, closest.feature1, direction, CONE_TOLERANCE)
        && in_normal_cone(normals2, closest.feature2, -direction, CONE_TOLERANCE)
}
