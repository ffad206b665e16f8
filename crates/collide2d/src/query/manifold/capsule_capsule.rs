//! Capsule against capsule; also capsule–segment and segment–segment (radius zero).

use crate::math::{cross, left_perp, robust_length, try_unit, unit_or, Transform, Vec2};
use crate::query::manifold::circle_capsule::rounded_point_segment;
use crate::query::manifold::clip::{reference_is_b, TwoVertexSide, REFERENCE_AXIS_TOLERANCE};
use crate::query::manifold::closest_features::closest_points_on_segments;
use crate::query::manifold::core_shape::SegmentCore;
use crate::query::manifold::polygon_polygon::{collide_two_vertex_cores, two_vertex_axes};
use crate::query::manifold::{finish_local, midpoint_between_surfaces};
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
        Placement::LOCAL,
    )
}

/// Capsule A against capsule B, in A's frame, the manifold written straight into the frame
/// `place` names (and turned round when it says so): the same numbers as
/// [`collide_capsule_capsule`] followed by `finish_local` and `swap_sides`, bit for bit.
#[inline]
pub(crate) fn collide_capsule_capsule_placed(
    capsule_a: &Capsule,
    capsule_b: &Capsule,
    b_in_a: &Transform,
    margin: f32,
    place: Placement<'_>,
) -> Manifold {
    collide_rounded_segments(
        (capsule_a.a(), capsule_a.b(), capsule_a.radius()),
        (capsule_b.a(), capsule_b.b(), capsule_b.radius()),
        b_in_a,
        margin,
        place,
    )
}

/// Where a rounded-segment kernel writes its manifold: moved from A's frame by `frame` (none:
/// left in A's frame) and, when `swap`, turned round into the other shape's view.
#[derive(Clone, Copy)]
pub(crate) struct Placement<'a> {
    /// The frame A's local manifold is moved into.
    pub(crate) frame: Option<&'a Transform>,
    /// Whether the sides are exchanged afterwards (the kernel ran on the mirrored pair).
    pub(crate) swap: bool,
}

impl Placement<'_> {
    /// The manifold left in A's frame, A first.
    pub(crate) const LOCAL: Placement<'static> = Placement {
        frame: None,
        swap: false,
    };

    /// A finished local manifold moved into place: `finish_local`, then `swap_sides`.
    #[inline(always)]
    fn finish(self, manifold: Manifold) -> Manifold {
        let mut manifold = match self.frame {
            Some(frame) => finish_local(manifold, frame),
            None => manifold,
        };
        if self.swap {
            manifold.swap_sides();
        }
        manifold
    }
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
        Placement::LOCAL,
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
        Placement::LOCAL,
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
    place: Placement<'_>,
) -> Manifold {
    // 0. Capsules with coincident ends are circles.
    if start_b == end_b {
        return place.finish(
            rounded_point_segment(
                b_in_a.apply(start_b),
                radius_b,
                start_a,
                end_a,
                radius_a,
                margin,
            )
            .swapped(),
        );
    }
    let start_b = b_in_a.apply(start_b);
    let end_b = b_in_a.apply(end_b);
    if start_a == end_a {
        return place.finish(rounded_point_segment(
            start_a, radius_a, start_b, end_b, radius_b, margin,
        ));
    }

    // 1. Closest points of the cores.
    let closest = closest_points_on_segments(start_a, end_a, start_b, end_b);
    let offset = closest.point2 - closest.point1;
    let distance_sq = offset.length_squared();
    let distance = distance_sq.sqrt();
    let total_radius = radius_a + radius_b;

    // 2. Crossing (or barely apart) cores: the separating-axis path finds the shallowest way
    //    out and decides apart/touching itself.
    let direction_a = end_a - start_a;
    let direction_b = end_b - start_b;
    let size = direction_a.x.abs()
        + direction_a.y.abs()
        + direction_b.x.abs()
        + direction_b.y.abs()
        + total_radius;
    if distance <= CROSSING_RELATIVE_DISTANCE * size || distance_sq < f32::MIN_POSITIVE {
        //  Except for parallel cores whose closest points are an end of each, measured apart:
        //  the separating axes of two segments are their normals, which miss a gap along a
        //  common line (collinear cores end to end, 4e-6 apart with radii of 1e-35, looked
        //  touching), while the distance between two ends is measured to a rounding.
        let end_to_end = (closest.fraction1 <= 0.0 || closest.fraction1 >= 1.0)
            && (closest.fraction2 <= 0.0 || closest.fraction2 >= 1.0)
            && distance_sq >= f32::MIN_POSITIVE
            && cores_parallel(
                (direction_a, robust_length(direction_a)),
                (direction_b, robust_length(direction_b)),
            );
        if end_to_end && distance - total_radius > margin {
            return place.finish(Manifold::EMPTY);
        }
        return place.finish(crossing_cores(
            (start_a, end_a, radius_a),
            (start_b, end_b, radius_b),
            margin,
        ));
    }
    if distance - total_radius > margin {
        return place.finish(Manifold::EMPTY);
    }
    // The normal: exactly perpendicular to a core whose inside holds the closest point
    // (better conditioned than normalising a short offset), else along the offset.
    //    Both cores have non-zero directions here, possibly tiny ones (a short core placed
    //    beside large coordinates), so they are scaled without squaring underflow.
    let length_a = robust_length(direction_a);
    let length_b = robust_length(direction_b);
    let tangent = direction_a / length_a;
    let tangent_b = direction_b / length_b;
    let normal = if closest.fraction2 > 0.0 && closest.fraction2 < 1.0 {
        let perpendicular = left_perp(tangent_b);
        if perpendicular.dot(offset) >= 0.0 {
            perpendicular
        } else {
            -perpendicular
        }
    } else if closest.fraction1 > 0.0 && closest.fraction1 < 1.0 {
        let perpendicular = left_perp(tangent);
        if perpendicular.dot(offset) >= 0.0 {
            perpendicular
        } else {
            -perpendicular
        }
    } else {
        offset / distance
    };

    // 3. Nearly parallel cores overlapping along A: two points.
    if cores_parallel((direction_a, length_a), (direction_b, length_b)) {
        let manifold = parallel_cores(
            (start_a, end_a, radius_a),
            (start_b, end_b, radius_b),
            normal,
            margin,
        );
        if !manifold.is_empty() {
            return place.finish(manifold);
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
    //    Written once, straight into place: the moves of `finish_local` and `swap_sides`.
    let point =
        midpoint_between_surfaces(closest.point1, closest.point2, normal, radius_a, radius_b);
    let mut id = FeatureId {
        a: feature(closest.fraction1),
        b: feature(closest.fraction2),
    };
    let (mut normal, point) = match place.frame {
        Some(frame) => (frame.rotate(normal), frame.apply(point)),
        None => (normal, point),
    };
    if place.swap {
        normal = -normal;
        id = id.swapped();
    }
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    manifold.count = 1;
    manifold.points[0] = ContactPoint {
        point,
        penetration: total_radius - distance,
        id,
    };
    manifold
}

/// Whether two cores, given by their directions and lengths (not zero), are parallel within
/// [`PARALLEL_SINE`]. (For tiny cores the products underflow, so their unit directions are
/// compared instead.)
#[inline(always)]
fn cores_parallel(
    (direction_a, length_a): (Vec2, f32),
    (direction_b, length_b): (Vec2, f32),
) -> bool {
    if length_a * length_b >= 1e-30 {
        cross(direction_a, direction_b).abs() <= PARALLEL_SINE * length_a * length_b
    } else {
        cross(direction_a / length_a, direction_b / length_b).abs() <= PARALLEL_SINE
    }
}

/// Nearly parallel cores: the two ends of their common extent along the bisecting direction.
///
/// Measured along the direction halfway between the cores, so that swapping A and B gives the
/// same points; each point sits midway between the two surfaces along `normal`.
#[inline(always)]
fn parallel_cores(
    (start_a, end_a, radius_a): (Vec2, Vec2, f32),
    (start_b, end_b, radius_b): (Vec2, Vec2, f32),
    normal: Vec2,
    margin: f32,
) -> Manifold {
    // 1. The bisecting direction and each core's extent along it.
    let direction_a = end_a - start_a;
    let direction_b = end_b - start_b;
    let aligned_b = if direction_a.dot(direction_b) >= 0.0 {
        direction_b
    } else {
        -direction_b
    };
    let Some(axis) = try_unit(unit_or(direction_a, Vec2::ZERO) + unit_or(aligned_b, Vec2::ZERO))
    else {
        return Manifold::EMPTY;
    };
    let (a0, a1) = (start_a.dot(axis), end_a.dot(axis));
    let (b0, b1) = (start_b.dot(axis), end_b.dot(axis));
    let (low_a, high_a) = if a0 <= a1 {
        ((a0, 0u8), (a1, 1u8))
    } else {
        ((a1, 1), (a0, 0))
    };
    let (low_b, high_b) = if b0 <= b1 {
        ((b0, 0u8), (b1, 1u8))
    } else {
        ((b1, 1), (b0, 0))
    };

    // 2. The common extent; too short for two distinct points -> none.
    let low = low_a.0.max(low_b.0);
    let high = high_a.0.min(high_b.0);
    let shorter = (high_a.0 - low_a.0).min(high_b.0 - low_b.0);
    if high - low <= 1e-3 * shorter {
        return Manifold::EMPTY;
    }
    let end_ids = [
        // The lower end belongs to whichever core starts later along the axis.
        if low_a.0 >= low_b.0 {
            FeatureId {
                a: Feature::Vertex(low_a.1),
                b: Feature::Edge(0),
            }
        } else {
            FeatureId {
                a: Feature::Edge(0),
                b: Feature::Vertex(low_b.1),
            }
        },
        if high_a.0 <= high_b.0 {
            FeatureId {
                a: Feature::Vertex(high_a.1),
                b: Feature::Edge(0),
            }
        } else {
            FeatureId {
                a: Feature::Edge(0),
                b: Feature::Vertex(high_b.1),
            }
        },
    ];

    // 3. The core points at each end, kept when within the margin: the end vertex that
    //    bounds the common extent, and the point of the other core on the line through it
    //    along the normal, so that the point's penetration is the depth along that line.
    let total_radius = radius_a + radius_b;
    let tangent = left_perp(normal);
    let opposite = |vertex: Vec2, start: Vec2, direction: Vec2, fallback: f32| {
        let across = tangent.dot(direction);
        let fraction = if across.abs() >= 0.5 * direction.length() {
            (tangent.dot(vertex - start) / across).clamp(0.0, 1.0)
        } else {
            fallback
        };
        start + direction * fraction
    };
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    let mut count = 0;
    for (along, id) in [(low, end_ids[0]), (high, end_ids[1])] {
        let fraction_a = (along - a0) / (a1 - a0);
        let fraction_b = (along - b0) / (b1 - b0);
        let (point_a, point_b) = match id.a {
            Feature::Vertex(end) => {
                let vertex = if end == 0 { start_a } else { end_a };
                (vertex, opposite(vertex, start_b, direction_b, fraction_b))
            }
            _ => {
                let vertex = match id.b {
                    Feature::Vertex(0) => start_b,
                    _ => end_b,
                };
                (opposite(vertex, start_a, direction_a, fraction_a), vertex)
            }
        };
        let separation = normal.dot(point_b - point_a);
        if separation - total_radius <= margin {
            manifold.points[count] = ContactPoint {
                point: midpoint_between_surfaces(point_a, point_b, normal, radius_a, radius_b),
                penetration: total_radius - separation,
                id,
            };
            count += 1;
        }
    }
    manifold.count = count;
    manifold
}

/// Cores that cross or touch: the answer of the two-vertex polygon path (separating axes ±n of
/// each core, as [`collide_cores`](super::polygon_polygon::collide_cores) takes it), in closed
/// form for two segments.
///
/// ```text
/// each core as a two-vertex outline: edge 0 from its start with normal n, edge 1 back with −n
/// sA, eA = the better of A's two axes; sB, eB = B's (the same sums as `max_separation`)
/// reference = A's axis unless B's beats it by the relative tolerance; the other is incident
/// the incident edge runs along the incident core, facing the reference normal
/// clip it to the reference edge's side planes, keep the ends within the margin
/// ```
/// Every number is the one the polygon path computes (checked bit for bit by
/// `crossing_cores_match_the_polygon_path`); the rare turns (cores apart along the best axis,
/// no clipped end within the margin, or a clipped end that may sink beyond the face's end) are
/// handed to that path.
#[inline(never)]
fn crossing_cores(
    (start_a, end_a, radius_a): (Vec2, Vec2, f32),
    (start_b, end_b, radius_b): (Vec2, Vec2, f32),
    margin: f32,
) -> Manifold {
    // 1. The outlines and their best separating axes.
    //    B's numbers go through the identity placement as the polygon path moves them into
    //    A's frame: it turns some zeros' signs, and the answer keeps every bit of that path's.
    let side_a = TwoVertexSide::new(start_a, end_a, radius_a);
    let mut side_b = TwoVertexSide::new(start_b, end_b, radius_b);
    // `Transform::IDENTITY.apply(v)` is `v + 0` to the bit: only a zero's sign changes.
    side_b.vertices = side_b.vertices.map(|vertex| vertex + Vec2::ZERO);
    side_b.normals = side_b
        .normals
        .map(|normal| Transform::IDENTITY.rotate(normal));
    let total_radius = radius_a + radius_b;
    let limit = total_radius + margin;
    let Some(((separation_a, edge_a), (separation_b, edge_b))) =
        two_vertex_axes(&side_a, &side_b, limit)
    else {
        return Manifold::EMPTY;
    };

    // 2. The reference axis: A's unless B's is better by the tolerance, or alone separates
    //    the cores (which then go to the polygon path).
    let tolerance = REFERENCE_AXIS_TOLERANCE * side_a.size().min(side_b.size());
    let flip = reference_is_b(separation_a, separation_b, tolerance);
    let (reference, incident, reference_edge, separation) = if flip {
        (&side_b, &side_a, edge_b, separation_b)
    } else {
        (&side_a, &side_b, edge_a, separation_a)
    };
    if separation > 0.0 {
        return crossing_cores_by_polygons(
            (start_a, end_a, radius_a),
            (start_b, end_b, radius_b),
            margin,
        );
    }

    // 3. The clipped incident edge.
    let mut manifold = clip_crossing(reference, incident, reference_edge, margin);
    if manifold.is_empty() {
        return crossing_cores_by_polygons(
            (start_a, end_a, radius_a),
            (start_b, end_b, radius_b),
            margin,
        );
    }
    if flip {
        manifold.swap_sides();
    }
    manifold
}

/// The clipping of the polygon path (`clip_edges`) for two two-vertex outlines, with the
/// reference edge's ends and normal picked once: the incident edge, clipped to the side planes
/// of `reference_edge`, keeping the points whose surfaces are at most `margin` apart. Empty
/// when no point is kept, or when an end clipped at a rounded face's side plane may sink into
/// the end vertex's cap beyond it (the polygon path then takes the pair).
#[inline(always)]
fn clip_crossing(
    reference: &TwoVertexSide,
    incident: &TwoVertexSide,
    reference_edge: usize,
    margin: f32,
) -> Manifold {
    // 1. The reference edge v1 -> v2 and the incident edge facing it (edge 1 when its normal
    //    points along the reference normal; the first of equal ones otherwise).
    let (normal, v1, v2, reference_next) = if reference_edge == 0 {
        (
            reference.normals[0],
            reference.vertices[0],
            reference.vertices[1],
            1u8,
        )
    } else {
        (
            reference.normals[1],
            reference.vertices[1],
            reference.vertices[0],
            0u8,
        )
    };
    let facing = normal.dot(incident.normals[0]);
    let flipped_incident = normal.dot(incident.normals[1]) < facing;
    let (w1, w2, incident_normal, first_vertex) = if flipped_incident {
        (
            incident.vertices[1],
            incident.vertices[0],
            incident.normals[1],
            1u8,
        )
    } else {
        (
            incident.vertices[0],
            incident.vertices[1],
            incident.normals[0],
            0u8,
        )
    };
    let second_vertex = 1 - first_vertex;
    let tangent = left_perp(normal);
    let edge_length = (v2 - v1).dot(tangent);

    // 2. The incident surface edge with tangential coordinates, lower end first; an end
    //    that is the deepest incident vertex (reaching furthest straight down the reference
    //    normal) stands for its rounded surface below it when kept unclipped.
    let shift = incident_normal * incident.radius;
    let (s1, s2) = (w1 + shift, w2 + shift);
    let t1 = (s1 - v1).dot(tangent);
    let t2 = (s2 - v1).dot(tangent);
    let first_is_support = normal.dot(w1) <= normal.dot(w2);
    let (mut low, mut low_t, low_vertex, mut high, mut high_t, high_vertex, low_is_support) =
        if t1 <= t2 {
            (
                s1,
                t1,
                first_vertex,
                s2,
                t2,
                second_vertex,
                first_is_support,
            )
        } else {
            (
                s2,
                t2,
                second_vertex,
                s1,
                t1,
                first_vertex,
                !first_is_support,
            )
        };
    if high_t < 0.0 || low_t > edge_length {
        return Manifold::EMPTY;
    }
    let use_support = incident.radius > 0.0;
    let rounded_support = if first_is_support { w1 } else { w2 } - normal * incident.radius;
    if use_support {
        // The rounded support beyond the side plane of an unclipped end, or a clipped edge
        // shrunk to a point: the polygon path follows the cap (`clip_to_face`).
        let support_t = (rounded_support - v1).dot(tangent);
        if (low_is_support && low_t >= 0.0 && support_t < 0.0)
            || (!low_is_support && high_t <= edge_length && support_t > edge_length)
        {
            return Manifold::EMPTY;
        }
    }
    let mut low_surface = if use_support && low_is_support {
        rounded_support
    } else {
        low
    };
    let mut high_surface = if use_support && !low_is_support {
        rounded_support
    } else {
        high
    };
    let mut low_id = FeatureId {
        a: Feature::Edge(0),
        b: Feature::Vertex(low_vertex),
    };
    let mut high_id = FeatureId {
        a: Feature::Edge(0),
        b: Feature::Vertex(high_vertex),
    };

    // 3. Clip to the side planes at 0 and L. An end clipped where the edge goes on down beyond
    //    the plane of a rounded face may sink deeper into the end vertex's cap: the polygon
    //    path deepens it (`clip_to_face`).
    let (low_clipped, high_clipped) = (low_t < 0.0, high_t > edge_length);
    if reference.radius > 0.0 && (low_clipped || high_clipped) {
        let sinks_beyond = if low_is_support {
            low_clipped
        } else {
            high_clipped
        };
        if sinks_beyond && sinks_into_cap(normal, incident_normal) {
            return Manifold::EMPTY;
        }
    }
    if low_t < 0.0 {
        let fraction = (0.0 - low_t) / (high_t - low_t);
        low += (high - low) * fraction;
        low_surface = low;
        low_t = 0.0;
        low_id = FeatureId {
            a: Feature::Vertex(reference_edge as u8),
            b: Feature::Edge(0),
        };
    }
    if high_t > edge_length {
        let fraction = (edge_length - low_t) / (high_t - low_t);
        high = low + (high - low) * fraction;
        high_surface = high;
        high_t = edge_length;
        high_id = FeatureId {
            a: Feature::Vertex(reference_next),
            b: Feature::Edge(0),
        };
    }

    // 4. Keep the points within the margin; each sits midway between the two surfaces. A
    //    clipped edge shrunk to a point gives one contact, at the deeper end.
    let offset = normal.dot(v1);
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    let mut count = 0;
    let mut keep = |surface: Vec2, id: FeatureId| {
        let separation = normal.dot(surface) - offset - reference.radius;
        if separation <= margin {
            manifold.points[count] = ContactPoint {
                point: surface - normal * (0.5 * separation),
                penetration: -separation,
                id,
            };
            count += 1;
        }
    };
    if high_t - low_t <= 1e-6 * edge_length {
        if use_support {
            return Manifold::EMPTY;
        }
        if normal.dot(high) < normal.dot(low) {
            keep(high_surface, high_id);
        } else {
            keep(low_surface, low_id);
        }
    } else {
        keep(low_surface, low_id);
        keep(high_surface, high_id);
    }
    manifold.count = count;

    manifold
}

/// [`may_sink_beyond`] for a reference normal and an incident normal.
#[inline(always)]
fn sinks_into_cap(normal: Vec2, incident_normal: Vec2) -> bool {
    let cosine = -normal.dot(incident_normal);
    1.0 - cosine > 1e-4 * cosine
}

/// Crossing cores through the two-vertex polygon path (separating axes ±n of each core), as
/// [`collide_cores`](super::polygon_polygon::collide_cores) takes it: for the rare turns of
/// [`crossing_cores`].
#[cold]
#[inline(never)]
fn crossing_cores_by_polygons(
    (start_a, end_a, radius_a): (Vec2, Vec2, f32),
    (start_b, end_b, radius_b): (Vec2, Vec2, f32),
    margin: f32,
) -> Manifold {
    let core_a = SegmentCore::new(start_a, end_a, radius_a);
    let core_b = SegmentCore::new(start_b, end_b, radius_b);
    collide_two_vertex_cores(&core_a.view(), &core_b.view(), &Transform::IDENTITY, margin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::manifold::test_numbers::{all_manifold_bits, manifold_bits, Numbers};

    #[test]
    fn placed_capsule_pairs_match_the_local_manifold_moved_and_turned() {
        // Apart, touching, crossing, parallel and degenerate (point) capsules, placed anywhere
        // with any turn and a zero turn (exact zeros in the rotation), either side first.
        fn coordinate(numbers: &mut Numbers, coarse: bool) -> f32 {
            let value = numbers.unit() * 4.0 - 2.0;
            if coarse {
                (value * 2.0).round() * 0.5
            } else {
                value
            }
        }
        let mut numbers = Numbers(0x0ca9_5a1e_9a1e_d00d);
        let mut touching = 0;
        for round in 0..100_000 {
            let coarse = round % 3 == 0;
            let start_a = Vec2::new(
                coordinate(&mut numbers, coarse),
                coordinate(&mut numbers, coarse),
            );
            let mut end_a = Vec2::new(
                coordinate(&mut numbers, coarse),
                coordinate(&mut numbers, coarse),
            );
            let start_b = Vec2::new(
                coordinate(&mut numbers, coarse),
                coordinate(&mut numbers, coarse),
            );
            let mut end_b = Vec2::new(
                coordinate(&mut numbers, coarse),
                coordinate(&mut numbers, coarse),
            );
            if round % 13 == 0 {
                end_a = start_a;
            }
            if round % 17 == 0 {
                end_b = start_b;
            }
            if round % 5 == 0 {
                // Parallel cores: B's core along A's.
                end_b = start_b + (end_a - start_a) * (numbers.unit() * 2.0 - 1.0);
            }
            let radius_a = numbers.unit();
            let radius_b = numbers.unit();
            let (Ok(capsule_a), Ok(capsule_b)) = (
                Capsule::new(start_a, end_a, radius_a),
                Capsule::new(start_b, end_b, radius_b),
            ) else {
                continue;
            };
            let placement = |numbers: &mut Numbers| {
                let angle = if round % 4 == 0 {
                    0.0
                } else {
                    numbers.unit() * 12.0 - 6.0
                };
                Transform::new(
                    Vec2::new(coordinate(numbers, false), coordinate(numbers, false)),
                    angle,
                )
            };
            let (frame, b_in_a) = (placement(&mut numbers), placement(&mut numbers));
            let margin = numbers.unit() * 0.2 - 0.05;
            let local = collide_capsule_capsule(&capsule_a, &capsule_b, &b_in_a, margin);
            touching += usize::from(local.count > 0);
            for swap in [false, true] {
                let mut expected = finish_local(local, &frame);
                if swap {
                    expected.swap_sides();
                }
                let placed = collide_capsule_capsule_placed(
                    &capsule_a,
                    &capsule_b,
                    &b_in_a,
                    margin,
                    Placement {
                        frame: Some(&frame),
                        swap,
                    },
                );
                assert_eq!(
                    all_manifold_bits(&placed),
                    all_manifold_bits(&expected),
                    "{capsule_a:?} {capsule_b:?} {b_in_a:?} {frame:?} {margin} {swap}"
                );
            }
        }
        assert!(touching > 20_000, "only {touching} touching pairs");
    }

    #[test]
    fn collinear_cores_end_to_end_are_apart_exactly_when_their_ends_are() {
        // Two cores on one line (or turned by less than the parallel tolerance), end to end
        // with a gap along the line, at several scales and places: the pair touches exactly
        // when the gap between the ends is within the radii, whatever the separating axes of
        // the segments (their normals, along which the gap does not show) say.
        use crate::query::{distance, overlaps};
        use crate::shape::{Capsule, Shape};
        use crate::{collide, Transform};
        let mut checked = 0;
        for &scale in &[1e-3f32, 1.0, 1e3] {
            for &place in &[0.0f32, 1.5, 1e4] {
                for &turn in &[0.0f32, 1e-4, 5e-3] {
                    for &gap in &[4e-6f32, 1e-4, 1e-2] {
                        for &radius in &[0.0f32, 6e-36, 1e-7, 1e-3] {
                            let (c, s) = (turn.cos(), turn.sin());
                            let y = place;
                            let a_end = Vec2::new(place, y);
                            let a = Capsule::new(a_end - Vec2::new(scale, 0.0), a_end, radius);
                            let b_start = a_end + Vec2::new(gap * scale, 0.0);
                            let b_end = b_start + Vec2::new(c, s) * (2.0 * scale);
                            let b = Capsule::new(b_start, b_end, radius);
                            let (Ok(a), Ok(b)) = (a, b) else { continue };
                            let (a, b) = (Shape::from(a), Shape::from(b));
                            let xf = Transform::IDENTITY;
                            let measured = distance(&a, &xf, &b, &xf).distance;
                            let m = collide(&a, &xf, &b, &xf);
                            for (touching, what) in [
                                (!m.is_empty(), "collide"),
                                (overlaps(&a, &xf, &b, &xf), "overlaps"),
                                (!collide(&b, &xf, &a, &xf).is_empty(), "collide swapped"),
                            ] {
                                assert_eq!(
                                    touching,
                                    measured <= 0.0,
                                    "{what}: scale {scale}, place {place}, turn {turn}, gap \
                                     {gap}, radius {radius}: distance {measured}, {m:?}"
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 300, "{checked} configurations");
    }

    #[test]
    fn crossing_cores_match_the_polygon_path() {
        // Crossing, touching, collinear and barely apart cores; radii zero to large; margins
        // negative to large; end coordinates on a coarse grid (exact ties) and off it.
        let mut numbers = Numbers(0x5eed_cafe_0dd5_a11e);
        let mut crossing = 0;
        for round in 0..200_000 {
            let mut coordinate = |coarse: bool| {
                let value = numbers.unit() * 8.0 - 4.0;
                if coarse {
                    (value * 2.0).round() * 0.5
                } else {
                    value
                }
            };
            let coarse = round % 3 == 0;
            let start_a = Vec2::new(coordinate(coarse), coordinate(coarse));
            let end_a = Vec2::new(coordinate(coarse), coordinate(coarse));
            let mut start_b = Vec2::new(coordinate(coarse), coordinate(coarse));
            let end_b = Vec2::new(coordinate(coarse), coordinate(coarse));
            if round % 7 == 0 {
                // B's start on A's core: touching or collinear cores.
                start_b = start_a + (end_a - start_a) * (numbers.unit() * 1.5 - 0.25);
            }
            let radius_a = if round % 5 == 0 { 0.0 } else { numbers.unit() };
            let radius_b = if round % 11 == 0 {
                0.0
            } else {
                numbers.unit() * 2.0
            };
            let margin = numbers.unit() * 0.4 - 0.1;
            if start_a == end_a || start_b == end_b {
                continue;
            }
            let fast = crossing_cores(
                (start_a, end_a, radius_a),
                (start_b, end_b, radius_b),
                margin,
            );
            let general = crossing_cores_by_polygons(
                (start_a, end_a, radius_a),
                (start_b, end_b, radius_b),
                margin,
            );
            crossing += usize::from(fast.count > 0);
            assert_eq!(
                manifold_bits(&fast),
                manifold_bits(&general),
                "{start_a} {end_a} {radius_a} / {start_b} {end_b} {radius_b}, margin {margin}"
            );
        }
        assert!(crossing > 50_000, "only {crossing} touching pairs");
    }
}
