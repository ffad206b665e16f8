//! Convex polygon against convex polygon, sharp or rounded, by separating axes and clipping.
//!
//! Capsules and segments take part as two-vertex polygons (see
//! [`core_shape`](super::core_shape)), so this file also serves capsule–polygon,
//! segment–polygon and the crossing-cores case of capsule–capsule.

use crate::math::Lanes;
use crate::math::{Transform, Vec2};
use crate::query::manifold::circle_polygon::rounded_point_polygon;
use crate::query::manifold::clip::{contact_from_axes, Side, TwoVertexSide};
use crate::query::manifold::core_shape::{CoreShape, SegmentCore};
use crate::query::manifold::sat::{first_largest, max_separation_padded, max_separation_value};
use crate::query::Manifold;
use crate::shape::PaddedOutline;
use crate::shape::{Capsule, Polygon, Segment, Shape};

/// Polygon A against polygon B, in A's frame (`b_in_a` places B).
#[inline]
pub(crate) fn collide_polygon_polygon(
    polygon_a: &Polygon,
    polygon_b: &Polygon,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    collide_cores(
        &CoreShape::of_polygon(polygon_a),
        &CoreShape::of_polygon(polygon_b),
        b_in_a,
        margin,
    )
}

/// Capsule A against polygon B, in A's frame; a capsule with coincident ends is a circle.
pub(crate) fn collide_capsule_polygon(
    capsule: &Capsule,
    polygon: &Polygon,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    if capsule.a() == capsule.b() {
        return rounded_point_polygon(capsule.a(), capsule.radius(), polygon, b_in_a, margin);
    }
    let core = SegmentCore::new(capsule.a(), capsule.b(), capsule.radius());
    collide_segment_core_polygon(&core.view(), polygon, b_in_a, margin)
}

/// Segment A against polygon B, in A's frame.
pub(crate) fn collide_segment_polygon(
    segment: &Segment,
    polygon: &Polygon,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    let core = SegmentCore::new(segment.a(), segment.b(), 0.0);
    collide_segment_core_polygon(&core.view(), polygon, b_in_a, margin)
}

/// [`collide_cores`] of a two-vertex core A (segment or capsule) and polygon B, with the same
/// result: the separating axes are computed directly, without padding A to a polygon.
///
/// ```text
/// w_j, m_j = B's vertices and normals in A's frame (Transform::apply / rotate, in lanes)
/// A's edge i (vertex a_i, normal n_i):  min_j n_i · w_j − n_i · a_i
/// B's edge j:                           min(m_j · a_0, m_j · a_1) − m_j · w_j
/// ```
/// The products, the `<`-minimum and the first-of-largest choice are those of the padded
/// kernel (whose padding repeats vertex 0, which changes neither minimum nor choice). Polygons
/// without padded lanes (more than 8 vertices) take [`collide_cores`].
#[inline(always)]
fn collide_segment_core_polygon(
    core: &CoreShape<'_>,
    polygon: &Polygon,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    match polygon.padded_outline() {
        Some(stored) if polygon.vertices().len() <= 4 => {
            let outline = stored.narrowed::<1>().transformed(b_in_a);
            segment_core_padded_polygon(core, polygon, &outline, margin)
        }
        Some(stored) => {
            let outline = stored.transformed(b_in_a);
            segment_core_padded_polygon(core, polygon, &outline, margin)
        }
        None => collide_cores(core, &CoreShape::of_polygon(polygon), b_in_a, margin),
    }
}

/// [`collide_segment_core_polygon`] with B's outline already in A's frame in padded lanes
/// (`outline`, computed with [`PaddedOutline::transformed`]): the same products as the scalar
/// steps, four lanes at a time.
///
/// Each lane's products and separations are bit-for-bit the scalar ones. The minimum over B's
/// vertices for A's two axes is taken in another order, which can change only the sign of a
/// zero minimum (`-0.0` against `0.0`); A's separations are only compared (with `>`), never
/// used as numbers, so the manifold is the same.
#[inline(always)]
fn segment_core_padded_polygon<const CB: usize>(
    core: &CoreShape<'_>,
    polygon: &Polygon,
    outline: &PaddedOutline<CB>,
    margin: f32,
) -> Manifold {
    let count_b = polygon.vertices().len();
    let polygon_radius = polygon.radius();
    let (a0, a1) = (core.vertices[0], core.vertices[1]);
    let (n0, n1) = (core.normals[0], core.normals[1]);
    let total_radius = core.radius + polygon_radius;
    let limit = total_radius + margin;

    // 1. A's two axes: the lowest of B's vertices along n0 and n1.
    let splat = Lanes::splat;
    let (mut lowest0, mut lowest1) = (splat(f32::INFINITY), splat(f32::INFINITY));
    for k in 0..CB {
        let (x, y) = (outline.vertex_x[k], outline.vertex_y[k]);
        lowest0 = (splat(n0.x) * x + splat(n0.y) * y).lesser(lowest0);
        lowest1 = (splat(n1.x) * x + splat(n1.y) * y).lesser(lowest1);
    }
    let lowest_lane = |lanes: Lanes| {
        let [l0, l1, l2, l3] = lanes.0;
        lesser(lesser(l3, l2), lesser(l1, l0))
    };
    let separation0 = lowest_lane(lowest0) - n0.dot(a0);
    let separation1 = lowest_lane(lowest1) - n1.dot(a1);
    let (mut separation_a, mut edge_a) = (f32::NEG_INFINITY, 0);
    if separation0 > separation_a {
        separation_a = separation0;
    }
    if separation1 > separation_a {
        separation_a = separation1;
        edge_a = 1;
    }
    if separation_a > limit {
        return Manifold::EMPTY;
    }

    // 2. B's axes: A's two vertices against each edge line of B.
    // A loop rather than `array::from_fn`: the closure was sometimes left out of line, and its
    // lanes then computed one by one (capsule–hexagon 8 % more instructions, 11/2026).
    let mut separations = [splat(0.0); CB];
    for (k, separation) in separations.iter_mut().enumerate() {
        let (mx, my) = (outline.normal_x[k], outline.normal_y[k]);
        let along0 = mx * splat(a0.x) + my * splat(a0.y);
        let along1 = mx * splat(a1.x) + my * splat(a1.y);
        let lowest = along1.lesser(along0.lesser(splat(f32::INFINITY)));
        *separation = lowest - (mx * outline.vertex_x[k] + my * outline.vertex_y[k]);
    }
    let (separation_b, edge_b) = first_largest(&separations);
    if separation_b > limit {
        return Manifold::EMPTY;
    }

    // 3. The clipping steps on B's outline out of its lanes.
    let vertices_b: [[Vec2; 4]; CB] =
        std::array::from_fn(|k| std::array::from_fn(|lane| outline.vertex(4 * k + lane)));
    let normals_b: [[Vec2; 4]; CB] =
        std::array::from_fn(|k| std::array::from_fn(|lane| outline.normal(4 * k + lane)));
    let side_a = Side {
        vertices: core.vertices,
        normals: core.normals,
        radius: core.radius,
    };
    let side_b = Side {
        vertices: &vertices_b.as_flattened()[..count_b],
        normals: &normals_b.as_flattened()[..count_b],
        radius: polygon_radius,
    };
    contact_from_axes(
        (side_a, separation_a, edge_a, core.size()),
        (
            side_b,
            separation_b,
            edge_b,
            CoreShape::of_polygon(polygon).size(),
        ),
        total_radius,
        margin,
    )
}

/// `if value < lowest { value } else { lowest }`: the minimum step of the padded kernel
/// ([`Lanes::lesser`](crate::math::Lanes::lesser)), which skips a NaN `value`.
#[inline(always)]
fn lesser(value: f32, lowest: f32) -> f32 {
    if value < lowest {
        value
    } else {
        lowest
    }
}

/// Whether polygon-like A and polygon B overlap; identical to the manifold being non-empty.
pub(crate) fn overlap_polygon_like(a: &Shape, polygon: &Polygon, b_in_a: &Transform) -> bool {
    let polygon_core = CoreShape::of_polygon(polygon);
    match a {
        Shape::Polygon(p) => overlap_cores(&CoreShape::of_polygon(p), &polygon_core, b_in_a),
        Shape::Segment(s) => overlap_cores(
            &SegmentCore::new(s.a(), s.b(), 0.0).view(),
            &polygon_core,
            b_in_a,
        ),
        Shape::Capsule(c) if c.a() != c.b() => overlap_cores(
            &SegmentCore::new(c.a(), c.b(), c.radius()).view(),
            &polygon_core,
            b_in_a,
        ),
        Shape::Capsule(c) => {
            !rounded_point_polygon(c.a(), c.radius(), polygon, b_in_a, 0.0).is_empty()
        }
        Shape::Circle(c) => {
            !rounded_point_polygon(c.center(), c.radius(), polygon, b_in_a, 0.0).is_empty()
        }
        Shape::Compound(_) | Shape::Chain(_) => false,
    }
}

/// The largest separation of `other_vertices` from the edge lines of a reference outline, and
/// its edge; stops early once a separation exceeds `limit` (the shapes are then apart).
///
/// `separation(i) = min_j normal_i · vertex_j − normal_i · reference_vertex_i`. The overlap test
/// calls this very function, so both paths see bit-identical separations.
#[inline(always)]
pub(crate) fn max_separation(
    reference_vertices: &[Vec2],
    reference_normals: &[Vec2],
    other_vertices: &[Vec2],
    limit: f32,
) -> (f32, usize) {
    let mut best_separation = f32::NEG_INFINITY;
    let mut best_edge = 0;
    for (i, (vertex, normal)) in reference_vertices.iter().zip(reference_normals).enumerate() {
        let offset = normal.dot(*vertex);
        let mut smallest = f32::INFINITY;
        for other in other_vertices {
            smallest = smallest.min(normal.dot(*other));
        }
        let separation = smallest - offset;
        if separation > best_separation {
            best_separation = separation;
            best_edge = i;
            if separation > limit {
                break;
            }
        }
    }
    (best_separation, best_edge)
}

/// Contact manifold of two convex cores, B placed in A's frame by `b_in_a`; result in A's frame.
///
/// ```text
/// move B into A's frame
/// sA, eA = max over A's edges of (min over B's vertices of the signed distance)
/// sB, eB = the same with the roles exchanged;  apart if either exceeds rA + rB + margin
/// reference = A's edge eA unless sB beats sA by a relative tolerance (then B's edge eB)
/// if the cores are apart (s > 0): find the exact closest core features;
///     vertex–vertex -> one point along the line between them
/// incident = the other outline's edge most anti-parallel to the reference normal
/// clip the incident edge to the reference edge's side planes; keep points within the margin
/// ```
/// Gottschalk et al. / Ericson, *Real-Time Collision Detection* §5.2.1 (separating axes);
/// reference/incident clipping after Catto, "Contact Manifolds", GDC 2007.
///
/// Outlines of up to 8 vertices run the padded, allocation-free kernel of [`sat`](super::sat);
/// larger ones the slice-based loops. Both compute bit-identical separations.
pub(crate) fn collide_cores(
    core_a: &CoreShape<'_>,
    core_b: &CoreShape<'_>,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    let (count_a, count_b) = (core_a.vertices.len(), core_b.vertices.len());
    let largest = count_a.max(count_b);
    if largest <= 2 {
        // Two segment cores: 2 × 2 dot products need no padding.
        collide_two_vertex_cores(core_a, core_b, b_in_a, margin)
    } else if largest <= 8 {
        // Each outline in as few chunks as hold it (a box against a hexagon: one and two).
        // Outlines of two chunks are read from the stored lanes in place.
        match (count_a <= 4, count_b <= 4) {
            (true, true) => collide_cores_padded(
                (core_a, &core_a.padded_outline::<1>()),
                (core_b, &core_b.padded_outline::<1>()),
                b_in_a,
                margin,
            ),
            (true, false) => {
                let mut slot = None;
                let outline_b = whole_outline(core_b, &mut slot);
                collide_cores_padded(
                    (core_a, &core_a.padded_outline::<1>()),
                    (core_b, outline_b),
                    b_in_a,
                    margin,
                )
            }
            (false, true) => {
                let mut slot = None;
                let outline_a = whole_outline(core_a, &mut slot);
                collide_cores_padded(
                    (core_a, outline_a),
                    (core_b, &core_b.padded_outline::<1>()),
                    b_in_a,
                    margin,
                )
            }
            (false, false) => {
                let (mut slot_a, mut slot_b) = (None, None);
                let outline_a = whole_outline(core_a, &mut slot_a);
                let outline_b = whole_outline(core_b, &mut slot_b);
                collide_cores_padded((core_a, outline_a), (core_b, outline_b), b_in_a, margin)
            }
        }
    } else {
        collide_cores_slices::<{ crate::shape::MAX_POLYGON_VERTICES }>(
            core_a, core_b, b_in_a, margin,
        )
    }
}

/// A core's outline in two padded chunks: its stored lanes, or lanes built into `built`.
#[inline(always)]
fn whole_outline<'s, 'a: 's>(
    core: &CoreShape<'a>,
    built: &'s mut Option<PaddedOutline<2>>,
) -> &'s PaddedOutline<2> {
    match core.padded {
        Some(stored) => stored,
        None => built.insert(PaddedOutline::new(core.vertices, core.normals)),
    }
}

/// Whether two cores overlap (touching counts): identical to `!collide_cores(..).is_empty()`.
///
/// Both SAT passes are the same kernel as in [`collide_cores`]; only when the cores are apart
/// by less than the radii does this fall through to the full manifold.
pub(crate) fn overlap_cores(
    core_a: &CoreShape<'_>,
    core_b: &CoreShape<'_>,
    b_in_a: &Transform,
) -> bool {
    let (count_a, count_b) = (core_a.vertices.len(), core_b.vertices.len());
    let cores_overlap = if count_a.max(count_b) <= 8 {
        match (count_a <= 4, count_b <= 4) {
            (true, true) => overlap_cores_padded::<1, 1>(core_a, core_b, b_in_a),
            (true, false) => overlap_cores_padded::<1, 2>(core_a, core_b, b_in_a),
            (false, true) => overlap_cores_padded::<2, 1>(core_a, core_b, b_in_a),
            (false, false) => overlap_cores_padded::<2, 2>(core_a, core_b, b_in_a),
        }
    } else {
        None
    };
    cores_overlap.unwrap_or_else(|| !collide_cores(core_a, core_b, b_in_a, 0.0).is_empty())
}

/// The overlap decision from the separating axes alone, `None` when only the manifold can tell
/// (the cores are apart by no more than the radii).
#[inline(always)]
fn overlap_cores_padded<const CA: usize, const CB: usize>(
    core_a: &CoreShape<'_>,
    core_b: &CoreShape<'_>,
    b_in_a: &Transform,
) -> Option<bool> {
    let outline_a = core_a.padded_outline::<CA>();
    let outline_b = core_b.padded_outline::<CB>().transformed(b_in_a);
    // The manifold's limit with a zero margin: `total_radius + 0.0`.
    let limit = (core_a.radius + core_b.radius) + 0.0;
    let separation_a = max_separation_value(&outline_a, &outline_b);
    if separation_a > limit {
        return Some(false);
    }
    let separation_b = max_separation_value(&outline_b, &outline_a);
    if separation_b > limit {
        return Some(false);
    }
    // Overlapping cores always produce a point (see the fallback in `clip_or_fallback`).
    (separation_a <= 0.0 && separation_b <= 0.0).then_some(true)
}

/// [`collide_cores`] for outlines of at most `4 × CA` and `4 × CB` vertices: the padded SAT
/// kernel, then the shared reference/incident steps.
#[inline(always)]
fn collide_cores_padded<const CA: usize, const CB: usize>(
    (core_a, outline_a): (&CoreShape<'_>, &PaddedOutline<CA>),
    (core_b, outline_b): (&CoreShape<'_>, &PaddedOutline<CB>),
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    // 1. B's outline in A's frame.
    let outline_b = outline_b.transformed(b_in_a);
    let total_radius = core_a.radius + core_b.radius;
    let limit = total_radius + margin;

    // 2. Separating axes of A, then of B.
    let (separation_a, edge_a) = max_separation_padded(outline_a, &outline_b);
    if separation_a > limit {
        return Manifold::EMPTY;
    }
    let (separation_b, edge_b) = max_separation_padded(&outline_b, outline_a);
    if separation_b > limit {
        return Manifold::EMPTY;
    }

    let count_b = core_b.vertices.len();
    let vertices_b: [[Vec2; 4]; CB] =
        std::array::from_fn(|k| std::array::from_fn(|lane| outline_b.vertex(4 * k + lane)));
    let normals_b: [[Vec2; 4]; CB] =
        std::array::from_fn(|k| std::array::from_fn(|lane| outline_b.normal(4 * k + lane)));
    let side_a = Side {
        vertices: core_a.vertices,
        normals: core_a.normals,
        radius: core_a.radius,
    };
    let side_b = Side {
        vertices: &vertices_b.as_flattened()[..count_b],
        normals: &normals_b.as_flattened()[..count_b],
        radius: core_b.radius,
    };
    contact_from_axes(
        (side_a, separation_a, edge_a, core_a.size()),
        (side_b, separation_b, edge_b, core_b.size()),
        total_radius,
        margin,
    )
}

/// [`collide_cores`] for two two-vertex cores (segments, capsules), in fixed arrays: the
/// arithmetic of [`collide_cores_slices`], step for step, with every loop unrolled (crossing
/// capsule cores: 695 instructions a call through the slices, 11/2026).
#[inline(always)]
pub(crate) fn collide_two_vertex_cores(
    core_a: &CoreShape<'_>,
    core_b: &CoreShape<'_>,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    // 1. B's outline in A's frame.
    let side_a = TwoVertexSide {
        vertices: [core_a.vertices[0], core_a.vertices[1]],
        normals: [core_a.normals[0], core_a.normals[1]],
        radius: core_a.radius,
    };
    let side_b = TwoVertexSide {
        vertices: [
            b_in_a.apply(core_b.vertices[0]),
            b_in_a.apply(core_b.vertices[1]),
        ],
        normals: [
            b_in_a.rotate(core_b.normals[0]),
            b_in_a.rotate(core_b.normals[1]),
        ],
        radius: core_b.radius,
    };
    let total_radius = core_a.radius + core_b.radius;
    let limit = total_radius + margin;

    // 2. Separating axes of A, then of B.
    let Some(((separation_a, edge_a), (separation_b, edge_b))) =
        two_vertex_axes(&side_a, &side_b, limit)
    else {
        return Manifold::EMPTY;
    };
    contact_from_axes(
        (&side_a, separation_a, edge_a, core_a.size()),
        (&side_b, separation_b, edge_b, core_b.size()),
        total_radius,
        margin,
    )
}

/// [`collide_cores`] with slice loops, B's outline copied into a stack buffer: for outlines of
/// more than 8 vertices (B has at most `N` vertices).
#[inline(always)]
fn collide_cores_slices<const N: usize>(
    core_a: &CoreShape<'_>,
    core_b: &CoreShape<'_>,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    // 1. B's outline in A's frame.
    let count_b = core_b.vertices.len();
    let mut vertices_b = [Vec2::ZERO; N];
    let mut normals_b = [Vec2::ZERO; N];
    for i in 0..count_b {
        vertices_b[i] = b_in_a.apply(core_b.vertices[i]);
        normals_b[i] = b_in_a.rotate(core_b.normals[i]);
    }
    let side_a = Side {
        vertices: core_a.vertices,
        normals: core_a.normals,
        radius: core_a.radius,
    };
    let side_b = Side {
        vertices: &vertices_b[..count_b],
        normals: &normals_b[..count_b],
        radius: core_b.radius,
    };
    let total_radius = core_a.radius + core_b.radius;
    let limit = total_radius + margin;

    // 2. Separating axes of A, then of B.
    let (separation_a, edge_a) =
        max_separation(side_a.vertices, side_a.normals, side_b.vertices, limit);
    if separation_a > limit {
        return Manifold::EMPTY;
    }
    let (separation_b, edge_b) =
        max_separation(side_b.vertices, side_b.normals, side_a.vertices, limit);
    if separation_b > limit {
        return Manifold::EMPTY;
    }
    contact_from_axes(
        (side_a, separation_a, edge_a, core_a.size()),
        (side_b, separation_b, edge_b, core_b.size()),
        total_radius,
        margin,
    )
}

/// The best separating axes of two two-vertex outlines in one frame, `(separation, edge)` of
/// A's then of B's ([`max_separation`]); `None` as soon as one separates them by more than
/// `limit` (A's is measured first, B's only when A's does not).
#[inline(always)]
pub(crate) fn two_vertex_axes(
    side_a: &TwoVertexSide,
    side_b: &TwoVertexSide,
    limit: f32,
) -> Option<((f32, usize), (f32, usize))> {
    let axis_a = max_separation(&side_a.vertices, &side_a.normals, &side_b.vertices, limit);
    if axis_a.0 > limit {
        return None;
    }
    let axis_b = max_separation(&side_b.vertices, &side_b.normals, &side_a.vertices, limit);
    if axis_b.0 > limit {
        return None;
    }
    Some((axis_a, axis_b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::manifold::test_numbers::{manifold_bits, round_polygon, Numbers};

    #[test]
    fn segment_core_path_matches_the_general_cores_bit_for_bit() {
        let mut numbers = Numbers(0x3c6e_f372_fe94_f82b);
        for round in 0..20_000 {
            let polygon = round_polygon(&mut numbers, round, 3 + round % 10);
            let half = numbers.unit() * 1.5;
            let angle = numbers.unit() * std::f32::consts::TAU;
            let (a, b) = if round % 11 == 0 {
                // Axis-aligned cores on a coarse grid: exact ties and touching.
                (Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0))
            } else {
                let d = Vec2::new(angle.cos(), angle.sin()) * (0.01 + half);
                (-d, d)
            };
            let radius = if round % 4 == 0 {
                0.0
            } else {
                numbers.unit() * 0.5
            };
            let mut offset = Vec2::new(numbers.unit() * 2.0 - 1.0, numbers.unit() * 2.0 - 1.0)
                * (0.5 + 2.5 * numbers.unit());
            let mut turn = numbers.unit() * std::f32::consts::TAU;
            if round % 11 == 0 {
                offset = (offset * 4.0).round() * 0.25;
                turn = (turn * 4.0 / std::f32::consts::TAU).floor() * std::f32::consts::FRAC_PI_2;
            }
            let b_in_a = Transform::new(offset, turn);
            let margin = if round % 3 == 1 { 0.1 } else { 0.0 };
            let core = SegmentCore::new(a, b, radius);
            let expected = collide_cores(
                &core.view(),
                &CoreShape::of_polygon(&polygon),
                &b_in_a,
                margin,
            );
            let got = collide_segment_core_polygon(&core.view(), &polygon, &b_in_a, margin);
            assert_eq!(
                manifold_bits(&got),
                manifold_bits(&expected),
                "round {round}"
            );
        }
    }
}
