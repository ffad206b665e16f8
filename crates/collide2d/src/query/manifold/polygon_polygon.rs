//! Convex polygon against convex polygon, sharp or rounded, by separating axes and clipping.
//!
//! Capsules and segments take part as two-vertex polygons (see
//! [`core_shape`](super::core_shape)), so this file also serves capsule–polygon,
//! segment–polygon and the crossing-cores case of capsule–capsule.

use crate::math::Lanes;
use crate::math::{Transform, Vec2};
use crate::query::manifold::circle_polygon::rounded_point_polygon;
use crate::query::manifold::closest_features::{
    closest_features_exhaustive, closest_points_on_segments, feature_at, is_globally_closest,
    CoreClosest, CoreFeature,
};
use crate::query::manifold::core_shape::{CoreShape, SegmentCore};
use crate::query::manifold::midpoint_between_surfaces;
use crate::query::manifold::sat::{first_largest, max_separation_padded, max_separation_value};
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
use crate::shape::PaddedOutline;
use crate::shape::{Capsule, Polygon, Segment, Shape};

/// Relative tolerance (of the smaller shape's size) by which B's axis must beat A's before B
/// becomes the reference: keeps the choice stable while two faces rest on each other.
pub(crate) const REFERENCE_AXIS_TOLERANCE: f32 = 1e-4;

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

/// Closest core points whose direction is within this sine of a face normal make a face contact.
const FACE_ALIGNMENT_SINE: f32 = 5e-4;

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

/// The edge of an outline whose normal is most anti-parallel to `reference_normal`.
#[inline(always)]
fn incident_edge<S: ClipSide>(reference_normal: Vec2, incident: S) -> usize {
    incident.most_anti_parallel(reference_normal)
}

/// The first of `products` that is smallest (0 when none is below infinity).
#[inline(always)]
pub(crate) fn first_smallest(products: impl Iterator<Item = f32>) -> usize {
    let mut best_edge = 0;
    let mut smallest = f32::INFINITY;
    for (j, d) in products.enumerate() {
        if d < smallest {
            smallest = d;
            best_edge = j;
        }
    }
    best_edge
}

/// An outline taking part in the clipping, in the common frame: a [`Side`] of slices, or a
/// box's fixed arrays.
pub(crate) trait ClipSide: Copy {
    /// How many vertices (and edges).
    fn count(&self) -> usize;
    /// Vertex `i`.
    fn vertex(&self, i: usize) -> Vec2;
    /// The outward unit normal of edge `i`.
    fn normal(&self, i: usize) -> Vec2;
    /// The rounding radius.
    fn radius(&self) -> f32;
    /// The vertex after `i`.
    fn next(&self, i: usize) -> usize;
    /// The same outline as slices (for the rare steps written once, on slices).
    fn slices(&self) -> Side<'_>;

    /// The edge whose normal is most anti-parallel to `reference_normal` (the first of equal
    /// ones).
    #[inline(always)]
    fn most_anti_parallel(&self, reference_normal: Vec2) -> usize {
        first_smallest((0..self.count()).map(|j| reference_normal.dot(self.normal(j))))
    }

    /// The feature id of edge `i` (both sides of a two-vertex core are edge 0).
    #[inline(always)]
    fn edge_feature(&self, i: usize) -> Feature {
        if self.count() == 2 {
            Feature::Edge(0)
        } else {
            Feature::Edge(i as u8)
        }
    }
}

impl ClipSide for Side<'_> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.vertices.len()
    }
    #[inline(always)]
    fn vertex(&self, i: usize) -> Vec2 {
        self.vertices[i]
    }
    #[inline(always)]
    fn normal(&self, i: usize) -> Vec2 {
        self.normals[i]
    }
    #[inline(always)]
    fn radius(&self) -> f32 {
        self.radius
    }
    #[inline(always)]
    fn next(&self, i: usize) -> usize {
        Side::next(self, i)
    }
    #[inline(always)]
    fn slices(&self) -> Side<'_> {
        *self
    }
}

/// One outline taking part in the clipping, in the common frame.
#[derive(Clone, Copy)]
pub(crate) struct Side<'s> {
    /// Counter-clockwise vertices.
    pub vertices: &'s [Vec2],
    /// `normals[i]`: outward unit normal of the edge from vertex `i` to vertex `i + 1`.
    pub normals: &'s [Vec2],
    /// Rounding radius.
    pub radius: f32,
}

impl Side<'_> {
    #[inline]
    fn next(&self, i: usize) -> usize {
        if i + 1 == self.vertices.len() {
            0
        } else {
            i + 1
        }
    }

    #[inline]
    fn edge_feature(&self, i: usize) -> Feature {
        if self.vertices.len() == 2 {
            Feature::Edge(0)
        } else {
            Feature::Edge(i as u8)
        }
    }

    #[inline]
    fn feature(&self, feature: CoreFeature) -> Feature {
        match feature {
            CoreFeature::Vertex(i) => Feature::Vertex(i as u8),
            CoreFeature::Edge(i) => self.edge_feature(i),
        }
    }
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
        collide_cores_slices::<2>(core_a, core_b, b_in_a, margin)
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

/// [`collide_cores`] with slice loops, B's outline copied into a stack buffer: for outlines of
/// more than 8 vertices, and for two segment cores (B has at most `N` vertices).
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

/// Steps 3 to 5 of [`collide_cores`], once both sides' best axes are known and neither
/// separates the shapes: each side is `(outline, separation, edge, size)`.
#[inline(always)]
pub(crate) fn contact_from_axes<S: ClipSide>(
    (side_a, separation_a, edge_a, size_a): (S, f32, usize, f32),
    (side_b, separation_b, edge_b, size_b): (S, f32, usize, f32),
    total_radius: f32,
    margin: f32,
) -> Manifold {
    // 3. Reference face: A's unless B's is better by the tolerance.
    let tolerance = REFERENCE_AXIS_TOLERANCE * size_a.min(size_b);
    let flip = separation_b > separation_a + tolerance;
    let (reference, incident, reference_edge, separation) = if flip {
        (side_b, side_a, edge_b, separation_b)
    } else {
        (side_a, side_b, edge_a, separation_a)
    };

    // 4. Cores apart: the exact closest features decide between a corner and a face contact.
    if separation > 0.0 {
        return separated_cores(
            reference.slices(),
            incident.slices(),
            reference_edge,
            flip,
            total_radius,
            margin,
        );
    }

    // 5. Cores overlap: clip the incident edge against the reference face.
    let local = clip_or_fallback(reference, incident, reference_edge, total_radius, margin);
    oriented(local, flip)
}

/// A manifold computed with `reference` as A, turned around when the reference was really B.
#[inline(always)]
pub(crate) fn oriented(mut manifold: Manifold, flip: bool) -> Manifold {
    if flip {
        manifold.swap_sides();
        manifold.child_a = 0;
        manifold.child_b = 0;
    }
    manifold
}

/// The contact of two cores whose separating axis shows a positive gap (within the radii):
/// common for rounded shapes (capsules), so not marked cold.
#[inline(never)]
fn separated_cores(
    reference: Side<'_>,
    incident: Side<'_>,
    reference_edge: usize,
    flip: bool,
    total_radius: f32,
    margin: f32,
) -> Manifold {
    let reference_normal = reference.normals[reference_edge];
    let incident_edge_index = incident_edge(reference_normal, incident);

    // 1. Closest points of the reference and incident edges; check they are the global ones.
    let segment = closest_points_on_segments(
        reference.vertices[reference_edge],
        reference.vertices[reference.next(reference_edge)],
        incident.vertices[incident_edge_index],
        incident.vertices[incident.next(incident_edge_index)],
    );
    let mut closest = CoreClosest {
        feature1: feature_at(reference_edge, reference.vertices.len(), segment.fraction1),
        feature2: feature_at(
            incident_edge_index,
            incident.vertices.len(),
            segment.fraction2,
        ),
        point1: segment.point1,
        point2: segment.point2,
    };
    let reference_core = CoreShape {
        vertices: reference.vertices,
        normals: reference.normals,
        radius: reference.radius,
        padded: None,
    };
    let mut exhaustive = false;
    if !is_globally_closest(&reference_core, incident.normals, &closest) {
        closest = closest_features_exhaustive(
            (reference.vertices, reference.normals),
            (incident.vertices, incident.normals),
        );
        exhaustive = true;
    }

    // 2. Too far apart even with the radii and margin.
    let offset = closest.point2 - closest.point1;
    let distance = crate::math::robust_length(offset);
    if distance - total_radius > margin {
        return Manifold::EMPTY;
    }

    // 3. Corner: one point along the line between the closest core points.
    let corner = |closest: &CoreClosest| -> Manifold {
        let normal = if distance > 0.0 {
            // Renormalised: tiny offsets divide to not quite unit length.
            (offset / distance)
                .try_normalize()
                .unwrap_or(reference_normal)
        } else {
            reference_normal
        };
        let mut manifold = Manifold::EMPTY;
        manifold.normal = normal;
        manifold.count = 1;
        manifold.points[0] = ContactPoint {
            point: midpoint_between_surfaces(
                closest.point1,
                closest.point2,
                normal,
                reference.radius,
                incident.radius,
            ),
            penetration: total_radius - distance,
            id: FeatureId {
                a: reference.feature(closest.feature1),
                b: incident.feature(closest.feature2),
            },
        };
        manifold
    };
    // Closest points at two vertices along a face normal (parallel edges) are a face contact.
    let along_face = |normal: Vec2| {
        distance > 0.0
            && normal.dot(offset) > 0.0
            && crate::math::cross(normal, offset).abs() <= FACE_ALIGNMENT_SINE * distance
    };
    let local = match (closest.feature1, closest.feature2) {
        (CoreFeature::Vertex(_), CoreFeature::Vertex(_))
            if !along_face(reference_normal)
                && !along_face(-incident.normals[incident_edge_index]) =>
        {
            corner(&closest)
        }
        // The closest feature of the incident side is the inside of one of its edges: that edge
        // is the true reference (only possible after the exhaustive search, or within tolerance).
        (CoreFeature::Vertex(_), CoreFeature::Edge(j)) if exhaustive => {
            let local = clip_edges(incident, reference, j, margin);
            if local.is_empty() {
                return oriented(corner(&closest), flip);
            }
            return oriented(local, !flip);
        }
        (CoreFeature::Edge(i), _) if exhaustive => clip_edges(reference, incident, i, margin),
        _ => clip_edges(reference, incident, reference_edge, margin),
    };
    if local.is_empty() {
        return oriented(corner(&closest), flip);
    }
    oriented(local, flip)
}

/// Clipping for overlapping cores, with a fallback so that overlapping cores never give an
/// empty manifold.
#[inline(always)]
pub(crate) fn clip_or_fallback<S: ClipSide>(
    reference: S,
    incident: S,
    reference_edge: usize,
    total_radius: f32,
    margin: f32,
) -> Manifold {
    let local = clip_edges(reference, incident, reference_edge, margin);
    if !local.is_empty() {
        return local;
    }
    clipped_point_fallback(
        reference.slices(),
        incident.slices(),
        reference_edge,
        total_radius,
        margin,
    )
}

/// The contact of overlapping cores whose clipped points all lie beyond the margin.
///
/// Three ways to get here: the cores meet by no more than rounding (two nearly parallel faces
/// resting on each other, the reference separation at or just below zero while the clipped
/// ends round to just above it); the incident edge, chosen by its normal alone, lies beside
/// the reference face (two nearly collinear incident edges have nearly equal normals, and the
/// more anti-parallel one may be the one off the face); or rounded cores cross, and only the
/// deepest incident vertex, rounded straight towards the reference face, reaches it.
///
/// The candidates are the clipped ends of the incident edge and of its two neighbours, taken
/// without the margin, and the deepest incident vertex when it lies within the reference face's
/// extent; the deepest of them stands for the contact. Each lies on both surfaces, within the
/// reference face's extent (the deepest vertex beyond it may lie half a shape away from the
/// contact). The penetration is limited to `-margin`, the least a point may report. Only when
/// there is no candidate does the deepest incident vertex stand in.
#[cold]
#[inline(never)]
fn clipped_point_fallback(
    reference: Side<'_>,
    incident: Side<'_>,
    reference_edge: usize,
    total_radius: f32,
    margin: f32,
) -> Manifold {
    // 1. The deepest incident vertex, measured with the same arithmetic as `max_separation`.
    let normal = reference.normal(reference_edge);
    let v1 = reference.vertex(reference_edge);
    let offset = normal.dot(v1);
    let mut deepest = 0;
    let mut smallest = f32::INFINITY;
    for k in 0..incident.count() {
        let d = normal.dot(incident.vertex(k));
        if d < smallest {
            smallest = d;
            deepest = k;
        }
    }
    let separation = smallest - offset;
    let vertex = incident.vertex(deepest);
    let mut best = Manifold::EMPTY;
    best.normal = normal;
    best.count = 1;
    best.points[0] = ContactPoint {
        point: vertex + normal * (0.5 * (reference.radius() - incident.radius() - separation)),
        penetration: total_radius - separation,
        id: FeatureId {
            a: reference.edge_feature(reference_edge),
            b: Feature::Vertex(deepest as u8),
        },
    };
    let tangent = crate::math::left_perp(normal);
    let along = (vertex - v1).dot(tangent);
    let edge_length = (reference.vertex(reference.next(reference_edge)) - v1).dot(tangent);
    if (0.0..=edge_length).contains(&along) {
        // Rounded straight down, the deepest vertex is the deepest point of the incident
        // shape: no clipped end is deeper (the common case here, crossing rounded cores).
        return best;
    }

    // 2. The clipped ends of the incident edge and its neighbours.
    let chosen = incident_edge(normal, incident);
    let count = incident.count();
    let mut found = false;
    for incident_index in [chosen, (chosen + count - 1) % count, incident.next(chosen)] {
        let clipped = clip_incident_edge(
            reference,
            incident,
            reference_edge,
            incident_index,
            f32::INFINITY,
        );
        for point in clipped.points() {
            if !found || point.penetration > best.points[0].penetration {
                best.points[0] = *point;
                found = true;
            }
        }
    }
    if found {
        best.points[0].penetration = best.points[0].penetration.max(-margin);
    }
    best
}

/// Clips the incident edge (most anti-parallel to the reference normal) to the side planes of
/// `reference_edge` and keeps the points whose surfaces are at most `margin` apart.
///
/// ```text
/// t = unit tangent of the reference edge v1 -> v2, L = its length
/// incident surface edge w1' -> w2' = incident edge pushed out by its radius along its normal
/// clip w1' -> w2' to the side planes 0 <= (w - v1) · t <= L (interpolating along it)
/// an unclipped end that is the deepest incident vertex w: use w - r_inc n instead (its
///     rounded surface straight towards the reference face)
/// the other unclipped end keeps w + r_inc n_inc: its cap (the directions between the normals
///     of its two edges) does not hold -n, so it is deepest where it meets the flat side; the
///     point w - r_inc n lies inside the incident shape, and r minus the core's height there
///     would overstate that end's depth by r_inc (1 - cos tilt) (`tests/manifold_caps.rs`)
/// for each point q: s = n · (q - v1) - r_ref; keep if s <= margin; place it midway, q - s/2 n
/// ```
#[inline(always)]
fn clip_edges<S: ClipSide>(
    reference: S,
    incident: S,
    reference_edge: usize,
    margin: f32,
) -> Manifold {
    let incident_index = incident_edge(reference.normal(reference_edge), incident);
    clip_incident_edge(reference, incident, reference_edge, incident_index, margin)
}

/// [`clip_edges`] with the incident edge given.
#[inline(always)]
fn clip_incident_edge<S: ClipSide>(
    reference: S,
    incident: S,
    reference_edge: usize,
    incident_index: usize,
    margin: f32,
) -> Manifold {
    let normal = reference.normal(reference_edge);
    let reference_next = reference.next(reference_edge);
    let incident_next = incident.next(incident_index);
    let v1 = reference.vertex(reference_edge);
    let v2 = reference.vertex(reference_next);
    let tangent = crate::math::left_perp(normal);
    let edge_length = (v2 - v1).dot(tangent);

    // 1. The incident surface edge with tangential coordinates, lower end first.
    let w1 = incident.vertex(incident_index);
    let w2 = incident.vertex(incident_next);
    let incident_normal = incident.normal(incident_index);
    let shift = incident_normal * incident.radius();
    let (s1, s2) = (w1 + shift, w2 + shift);
    let t1 = (s1 - v1).dot(tangent);
    let t2 = (s2 - v1).dot(tangent);
    let reference_face = reference.edge_feature(reference_edge);
    let incident_edge_feature = incident.edge_feature(incident_index);
    let (mut low, mut low_t, low_vertex, mut high, mut high_t, high_vertex) = if t1 <= t2 {
        (s1, t1, incident_index, s2, t2, incident_next)
    } else {
        (s2, t2, incident_next, s1, t1, incident_index)
    };
    if high_t < 0.0 || low_t > edge_length {
        return Manifold::EMPTY;
    }
    let mut low_id = FeatureId {
        a: reference_face,
        b: Feature::Vertex(low_vertex as u8),
    };
    let mut high_id = FeatureId {
        a: reference_face,
        b: Feature::Vertex(high_vertex as u8),
    };

    // 2. Clip to the side planes at 0 and L.
    if low_t < 0.0 {
        let fraction = (0.0 - low_t) / (high_t - low_t);
        low += (high - low) * fraction;
        low_t = 0.0;
        low_id = FeatureId {
            a: Feature::Vertex(reference_edge as u8),
            b: incident_edge_feature,
        };
    }
    if high_t > edge_length {
        let fraction = (edge_length - low_t) / (high_t - low_t);
        high = low + (high - low) * fraction;
        high_t = edge_length;
        high_id = FeatureId {
            a: Feature::Vertex(reference_next as u8),
            b: incident_edge_feature,
        };
    }

    // 3. The deepest incident vertex reaches furthest straight down the reference normal.
    let support_vertex = if normal.dot(w1) <= normal.dot(w2) {
        incident_index
    } else {
        incident_next
    };
    let rounded_support = incident.vertex(support_vertex) - normal * incident.radius();
    let use_support = incident.radius() > 0.0;
    let support_feature = Feature::Vertex(support_vertex as u8);

    let mut candidates = [(low, low_id), (high, high_id)];
    let mut candidate_count = 2;
    if high_t - low_t <= 1e-6 * edge_length {
        // The clipped edge shrank to a point: one contact, the deeper end.
        if normal.dot(high) < normal.dot(low) {
            candidates[0] = candidates[1];
        }
        candidate_count = 1;
    }

    // 4. Keep the points within the margin; each sits midway between the two surfaces.
    let offset = normal.dot(v1);
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    let mut count = 0;
    for &(point, id) in &candidates[..candidate_count] {
        let surface = if use_support && id.b == support_feature {
            rounded_support
        } else {
            point
        };
        let separation = normal.dot(surface) - offset - reference.radius();
        if separation <= margin {
            manifold.points[count] = ContactPoint {
                point: surface - normal * (0.5 * separation),
                penetration: -separation,
                id,
            };
            count += 1;
        }
    }
    manifold.count = count;
    manifold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::manifold::test_numbers::{manifold_bits, Numbers};

    #[test]
    fn segment_core_path_matches_the_general_cores_bit_for_bit() {
        let mut numbers = Numbers(0x3c6e_f372_fe94_f82b);
        for round in 0..20_000 {
            let sides = 3 + round % 10;
            let mut polygon = if round % 3 == 0 {
                Polygon::rect(0.1 + numbers.unit() * 2.0, 0.1 + numbers.unit() * 2.0).unwrap()
            } else {
                Polygon::regular(sides, 0.1 + numbers.unit() * 2.0).unwrap()
            };
            if round % 5 == 0 {
                polygon = polygon.with_radius(numbers.unit() * 0.3).unwrap();
            }
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
