//! Circle against capsule, and circle against segment (a capsule of radius zero).

use crate::math::{right_perp, Transform, Vec2};
use crate::query::manifold::{midpoint_between_surfaces, rounded_points_manifold};
use crate::query::{Feature, FeatureId, Manifold};
use crate::shape::{Capsule, Circle, Segment};

/// Circle A against capsule B, in A's frame.
#[inline]
pub(crate) fn collide_circle_capsule(
    circle: &Circle,
    capsule: &Capsule,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    rounded_point_segment(
        circle.center(),
        circle.radius(),
        b_in_a.apply(capsule.a()),
        b_in_a.apply(capsule.b()),
        capsule.radius(),
        margin,
    )
}

/// Circle A against segment B, in A's frame.
#[inline]
pub(crate) fn collide_circle_segment(
    circle: &Circle,
    segment: &Segment,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    rounded_point_segment(
        circle.center(),
        circle.radius(),
        b_in_a.apply(segment.a()),
        b_in_a.apply(segment.b()),
        0.0,
        margin,
    )
}

/// A rounded point (A) against a rounded segment `start`–`end` (B), all in one frame.
///
/// ```text
/// t = clamp((c − start)·d / d·d, 0, 1);  closest = start + t d
/// one point between the circle and the closest core point (vertex 0, vertex 1 or edge 0)
/// ```
/// Ericson, *Real-Time Collision Detection*, §5.1.2. A centre on the core pushes sideways.
#[inline(always)]
pub(crate) fn rounded_point_segment(
    center: Vec2,
    radius: f32,
    start: Vec2,
    end: Vec2,
    segment_radius: f32,
    margin: f32,
) -> Manifold {
    let direction = end - start;
    let length_sq = direction.length_squared();
    let fraction = if length_sq > 0.0 {
        ((center - start).dot(direction) / length_sq).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (closest, feature) = if fraction <= 0.0 {
        (start, Feature::Vertex(0))
    } else if fraction >= 1.0 {
        (end, Feature::Vertex(1))
    } else {
        (start + direction * fraction, Feature::Edge(0))
    };
    // Apart: decided before the segment's normal is needed.
    let offset = closest - center;
    let distance = crate::math::robust_length(offset);
    if distance - (radius + segment_radius) > margin {
        return Manifold::EMPTY;
    }
    // From A (the circle) towards B: a centre on B's core pushes B to its right side; a
    // closest point inside the core makes the normal exactly perpendicular to it.
    let perpendicular = crate::math::unit_or(right_perp(direction), Vec2::X);
    let fallback = -perpendicular;
    let mut manifold = rounded_points_manifold(
        (center, radius),
        (closest, segment_radius),
        (offset, distance),
        FeatureId {
            a: Feature::Vertex(0),
            b: feature,
        },
        fallback,
    );
    if manifold.count == 1 && feature == Feature::Edge(0) && manifold.normal != fallback {
        let normal = if perpendicular.dot(closest - center) >= 0.0 {
            perpendicular
        } else {
            -perpendicular
        };
        manifold.normal = normal;
        manifold.points[0].point =
            midpoint_between_surfaces(center, closest, normal, radius, segment_radius);
    }
    manifold
}
