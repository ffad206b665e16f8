//! Capsule against capsule; also capsule–segment and segment–segment (radius zero).

use crate::math::{cross, Transform, Vec2};
use crate::query::manifold::circle_capsule::rounded_point_segment;
use crate::query::manifold::closest_features::closest_points_on_segments;
use crate::query::manifold::core_shape::SegmentCore;
use crate::query::manifold::polygon_polygon::collide_cores;
use crate::query::manifold::rounded_points_contact;
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
use crate::shape::{Capsule, Segment};

/// Below this sine of the angle between the cores, a capsule pair may get two points.
const PARALLEL_SINE: f32 = 0.01;

/// Closer cores than this (relative to the shapes' size) are treated as crossing.
const CROSSING_RELATIVE_DISTANCE: f32 = 1e-5;

/// Capsule A against capsule B, in A's frame.
#[inline]
pub(crate) fn collide_capsule_capsule(
    capsule_a: &Capsule,
    capsule_b: &Capsule,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    collide_rounded_segments(
        (capsule_a.a(), capsule_a.b(), capsule_a.radius()),
        (capsule_b.a(), capsule_b.b(), capsule_b.radius()),
        b_in_a,
        margin,
    )
}

/// Capsule A against segment B, in A's frame.
#[inline]
pub(crate) fn collide_capsule_segment(
    capsule: &Capsule,
    segment: &Segment,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    collide_rounded_segments(
        (capsule.a(), capsule.b(), capsule.radius()),
        (segment.a(), segment.b(), 0.0),
        b_in_a,
        margin,
    )
}

/// Segment A against segment B, in A's frame.
#[inline]
pub(crate) fn collide_segment_segment(
    segment_a: &Segment,
    segment_b: &Segment,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    collide_rounded_segments(
        (segment_a.a(), segment_a.b(), 0.0),
        (segment_b.a(), segment_b.b(), 0.0),
        b_in_a,
        margin,
    )
}

/// Two rounded segments `(start, end, radius)`, B placed in A's frame by `b_in_a`.
///
/// ```text
/// closest points c1, c2 of the two cores (Ericson §5.1.9)
/// apart when |c2 − c1| − (r1 + r2) > margin
/// cores crossing (|c2 − c1| ≈ 0): separating axes over both segment normals
/// normal n = (c2 − c1) / |c2 − c1|
/// nearly parallel and overlapping along A: clip B's core to A's extent -> two points
/// otherwise one point between c1 and c2
/// ```
#[inline(always)]
fn collide_rounded_segments(
    (start_a, end_a, radius_a): (Vec2, Vec2, f32),
    (start_b, end_b, radius_b): (Vec2, Vec2, f32),
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    // 0. Capsules with coincident ends are circles.
    if start_b == end_b {
        return rounded_point_segment(
            b_in_a.apply(start_b),
            radius_b,
            start_a,
            end_a,
            radius_a,
            margin,
        )
        .swapped();
    }
    let start_b = b_in_a.apply(start_b);
    let end_b = b_in_a.apply(end_b);
    if start_a == end_a {
        return rounded_point_segment(start_a, radius_a, start_b, end_b, radius_b, margin);
    }

    // 1. Closest points of the cores.
    let closest = closest_points_on_segments(start_a, end_a, start_b, end_b);
    let offset = closest.point2 - closest.point1;
    let distance_sq = offset.length_squared();
    let distance = distance_sq.sqrt();
    let total_radius = radius_a + radius_b;
    if distance - total_radius > margin {
        return Manifold::EMPTY;
    }

    // 2. Crossing cores: the separating-axis path finds the shallowest way out.
    let direction_a = end_a - start_a;
    let direction_b = end_b - start_b;
    let size = direction_a.x.abs()
        + direction_a.y.abs()
        + direction_b.x.abs()
        + direction_b.y.abs()
        + total_radius;
    if distance <= CROSSING_RELATIVE_DISTANCE * size || distance_sq < f32::MIN_POSITIVE {
        return crossing_cores(
            (start_a, end_a, radius_a),
            (start_b, end_b, radius_b),
            margin,
        );
    }
    let normal = offset / distance;

    // 3. Nearly parallel cores overlapping along A: two points.
    let length_a = direction_a.length();
    let length_b = direction_b.length();
    let tangent = direction_a / length_a;
    if cross(direction_a, direction_b).abs() <= PARALLEL_SINE * length_a * length_b {
        let manifold = parallel_cores(
            (start_a, tangent, length_a, radius_a),
            (start_b, end_b, radius_b),
            normal,
            margin,
        );
        if !manifold.is_empty() {
            return manifold;
        }
    }

    // 4. One point between the closest core points.
    let feature = |fraction: f32| {
        if fraction <= 0.0 {
            Feature::Vertex(0)
        } else if fraction >= 1.0 {
            Feature::Vertex(1)
        } else {
            Feature::Edge(0)
        }
    };
    rounded_points_contact(
        closest.point1,
        radius_a,
        closest.point2,
        radius_b,
        margin,
        FeatureId {
            a: feature(closest.fraction1),
            b: feature(closest.fraction2),
        },
        normal,
    )
}

/// Nearly parallel cores: B's core clipped to A's extent, each end measured along `normal`.
#[inline(always)]
fn parallel_cores(
    (start_a, tangent, length_a, radius_a): (Vec2, Vec2, f32, f32),
    (start_b, end_b, radius_b): (Vec2, Vec2, f32),
    normal: Vec2,
    margin: f32,
) -> Manifold {
    // 1. B's ends in A's tangential coordinate, lower first.
    let t1 = (start_b - start_a).dot(tangent);
    let t2 = (end_b - start_a).dot(tangent);
    let (mut low, mut low_t, mut low_id, mut high, mut high_t, mut high_id) = if t1 <= t2 {
        (
            start_b,
            t1,
            Feature::Vertex(0),
            end_b,
            t2,
            Feature::Vertex(1),
        )
    } else {
        (
            end_b,
            t2,
            Feature::Vertex(1),
            start_b,
            t1,
            Feature::Vertex(0),
        )
    };
    let mut low_a = Feature::Edge(0);
    let mut high_a = Feature::Edge(0);
    // 2. Too little common extent for two distinct points.
    let common = high_t.min(length_a) - low_t.max(0.0);
    if common <= 1e-3 * length_a {
        return Manifold::EMPTY;
    }
    if low_t < 0.0 {
        low += (high - low) * ((0.0 - low_t) / (high_t - low_t));
        low_t = 0.0;
        low_id = Feature::Edge(0);
        low_a = Feature::Vertex(0);
    }
    if high_t > length_a {
        high = low + (high - low) * ((length_a - low_t) / (high_t - low_t));
        high_t = length_a;
        high_id = Feature::Edge(0);
        high_a = Feature::Vertex(1);
    }
    // 3. Keep the ends within the margin, measured from their projection onto A's core.
    let total_radius = radius_a + radius_b;
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    let mut count = 0;
    for (point_b, along, feature_a, feature_b) in
        [(low, low_t, low_a, low_id), (high, high_t, high_a, high_id)]
    {
        let point_a = start_a + tangent * along;
        let separation = normal.dot(point_b - point_a);
        if separation - total_radius <= margin {
            manifold.points[count] = ContactPoint {
                point: point_b + normal * (0.5 * (radius_a - radius_b - separation)),
                penetration: total_radius - separation,
                id: FeatureId {
                    a: feature_a,
                    b: feature_b,
                },
            };
            count += 1;
        }
    }
    manifold.count = count;
    manifold
}

/// Cores that cross or touch: the two-vertex polygon path (separating axes ±n of each core).
#[cold]
#[inline(never)]
fn crossing_cores(
    (start_a, end_a, radius_a): (Vec2, Vec2, f32),
    (start_b, end_b, radius_b): (Vec2, Vec2, f32),
    margin: f32,
) -> Manifold {
    let core_a = SegmentCore::new(start_a, end_a, radius_a);
    let core_b = SegmentCore::new(start_b, end_b, radius_b);
    collide_cores(&core_a.view(), &core_b.view(), &Transform::IDENTITY, margin)
}
