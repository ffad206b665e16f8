//! The clipping steps shared by every pair of outlines with straight edges (polygons, boxes,
//! capsule and segment cores): the reference face chosen from the two best separating axes,
//! the incident edge clipped against it (for a rounded edge, the surface under it: its deeper
//! end's cap, then its flat side; [`clip_to_face`]; an end clipped at a rounded face's side
//! plane deepened into the end vertex's cap beyond it), and the exact closest features when the
//! cores are apart.
//!
//! The outlines come as [`ClipSide`]s: a [`Side`] of slices (any polygon, in
//! [`polygon_polygon`](super::polygon_polygon)) or fixed arrays (boxes in
//! [`box_box`](super::box_box), two-vertex cores), so that each caller's loops unroll to its
//! outline's size while the arithmetic, and so every result bit, stays one.

use crate::math::Vec2;
use crate::query::manifold::closest_features::{
    closest_features_exhaustive, closest_points_on_segments, feature_at, is_globally_closest,
    CoreClosest, CoreFeature,
};
use crate::query::manifold::core_shape::CoreShape;
use crate::query::manifold::midpoint_between_surfaces;
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};

/// Relative tolerance (of the smaller shape's size) by which B's axis must beat A's before B
/// becomes the reference: keeps the choice stable while two faces rest on each other.
pub(crate) const REFERENCE_AXIS_TOLERANCE: f32 = 1e-4;

/// Whether B's best axis becomes the reference rather than A's: when it beats A's by
/// `tolerance` ([`REFERENCE_AXIS_TOLERANCE`] of the smaller size), or when it alone separates
/// the cores. A positive separation on either axis means the cores are apart, and the apart
/// steps need that axis: taken from A's overlapping one (B's gap within the tolerance), the
/// cores were clipped as if they crossed, and a clip that missed the incident core reported a
/// depth of zero for capsules whose cores nearly touched, their whole radii deep.
#[inline(always)]
pub(crate) fn reference_is_b(separation_a: f32, separation_b: f32, tolerance: f32) -> bool {
    separation_b > separation_a + tolerance || (separation_b > 0.0 && separation_a <= 0.0)
}

/// How far (relative to the coordinates and radii) a point clipped to a face that holds the
/// closest points of apart cores may come out deeper than those points, by rounding.
const APART_DEPTH_ROUNDING: f32 = 4e-6;

/// Closest core points whose direction is within this sine of a face normal make a face contact.
const FACE_ALIGNMENT_SINE: f32 = 5e-4;

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

/// A centrally symmetric outline of `N` vertices in fixed arrays, `N` a power of two: the core
/// of a segment or a capsule (`N = 2`) or a box (`N = 4`). The same numbers as a [`Side`] of
/// its slices, with every loop over it unrolled.
#[derive(Clone, Copy)]
pub(crate) struct FixedSide<const N: usize> {
    /// Counter-clockwise vertices.
    pub vertices: [Vec2; N],
    /// `normals[i]`: outward unit normal of the edge from vertex `i` to vertex `i + 1`;
    /// `normals[i + N / 2] = -normals[i]` (up to the signs of zero components).
    pub normals: [Vec2; N],
    /// Rounding radius.
    pub radius: f32,
}

/// The core of a segment or a capsule: `normals[0]` faces the core's right side,
/// `normals[1] = -normals[0]`.
pub(crate) type TwoVertexSide = FixedSide<2>;

impl<const N: usize> ClipSide for &FixedSide<N> {
    #[inline(always)]
    fn count(&self) -> usize {
        N
    }
    #[inline(always)]
    fn vertex(&self, i: usize) -> Vec2 {
        self.vertices[i & (N - 1)]
    }
    #[inline(always)]
    fn normal(&self, i: usize) -> Vec2 {
        self.normals[i & (N - 1)]
    }
    #[inline(always)]
    fn radius(&self) -> f32 {
        self.radius
    }
    #[inline(always)]
    fn next(&self, i: usize) -> usize {
        (i + 1) & (N - 1)
    }
    /// The second half of the normals are the negations of the first (up to the signs of
    /// zero components), so their products with any vector are the negated products
    /// (rounding is symmetric; a zero's sign cannot change a comparison).
    #[inline(always)]
    fn most_anti_parallel(&self, reference_normal: Vec2) -> usize {
        let products: [f32; N] = std::array::from_fn(|j| {
            if j < N / 2 {
                reference_normal.dot(self.normals[j])
            } else {
                -reference_normal.dot(self.normals[j - N / 2])
            }
        });
        first_smallest(products.into_iter())
    }
    #[inline(always)]
    fn slices(&self) -> Side<'_> {
        Side {
            vertices: &self.vertices,
            normals: &self.normals,
            radius: self.radius,
        }
    }
}

impl FixedSide<2> {
    /// The core `start`–`end` (distinct points) inflated by `radius`: edge 0 runs from `start`
    /// with the normal on its right, edge 1 back with the opposite normal (as `SegmentCore`).
    #[inline(always)]
    pub(crate) fn new(start: Vec2, end: Vec2, radius: f32) -> TwoVertexSide {
        let normal = crate::math::unit_or(crate::math::right_perp(end - start), Vec2::Y);
        TwoVertexSide {
            vertices: [start, end],
            normals: [normal, -normal],
            radius,
        }
    }

    /// A rough diameter plus the radius, as [`CoreShape::size`].
    #[inline(always)]
    pub(crate) fn size(&self) -> f32 {
        let across = self.vertices[1] - self.vertices[0];
        across.x.abs() + across.y.abs() + 2.0 * self.radius
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

/// Steps 3 to 5 of [`collide_cores`](super::polygon_polygon::collide_cores), once both sides'
/// best axes are known and neither separates the shapes: each side is
/// `(outline, separation, edge, size)`.
#[inline(always)]
pub(crate) fn contact_from_axes<S: ClipSide>(
    (side_a, separation_a, edge_a, size_a): (S, f32, usize, f32),
    (side_b, separation_b, edge_b, size_b): (S, f32, usize, f32),
    total_radius: f32,
    margin: f32,
) -> Manifold {
    // 3. Reference face: A's unless B's is better by the tolerance, or alone separates them.
    let tolerance = REFERENCE_AXIS_TOLERANCE * size_a.min(size_b);
    let flip = reference_is_b(separation_a, separation_b, tolerance);
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
            reference_normal,
        );
        exhaustive = true;
    }

    // 2. Too far apart even with the radii and margin.
    let offset = closest.point2 - closest.point1;
    let distance = crate::math::robust_length(offset);
    if distance - total_radius > margin {
        return Manifold::EMPTY;
    }

    // 3. Corner: one point along the line between the closest core points. When one of them
    //    is the inside of an edge, the line is that edge's normal, taken as stored: the offset
    //    between the rounded points is tilted by the rounding of the edge's coordinates, which
    //    for a face 1e3 long beside a shape 1e-3 across is as large as the offset itself.
    let edge_normal = match (closest.feature1, closest.feature2) {
        (CoreFeature::Edge(i), _) => Some(reference.normals[i]),
        (_, CoreFeature::Edge(j)) => Some(-incident.normals[j]),
        _ => None,
    };
    let corner = |closest: &CoreClosest| -> Manifold {
        let normal = if let Some(normal) = edge_normal.filter(|_| distance > 0.0) {
            normal
        } else if distance > 0.0 {
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
    // A face that holds the closest points separates the cores by their distance: no point
    // clipped to it is deeper than the closest points' depth, beyond rounding. A deeper point
    // means the face does not separate them, its closest point only within rounding of the
    // other core's (cores touching at a corner of both, 1e-9 apart): the clip then measures
    // along a face the incident core dips below (a capsule end touching a small rounded
    // polygon's corner came out 8 deeper than its radii, 27.8 for 19.6), and the corner holds.
    let deeper_than_apart = |local: &Manifold| {
        let depth = total_radius - distance;
        if local.is_empty() || local.max_penetration() <= depth {
            return false;
        }
        let extent = |vertices: &[Vec2]| {
            vertices
                .iter()
                .fold(0.0f32, |largest, v| largest.max(v.abs().max_element()))
        };
        let scale = extent(reference.vertices).max(extent(incident.vertices)) + total_radius;
        local.max_penetration() > depth + APART_DEPTH_ROUNDING * scale
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
            if local.is_empty() || deeper_than_apart(&local) {
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
    if deeper_than_apart(&local) {
        // The reference face does not hold the closest points: its axis won within the
        // tolerance over a face of the incident side, nearly parallel to it, whose inside does
        // (two rounded boxes resting 1.8° apart). That face is the contact's: clipped to it,
        // the face contact keeps both ends, along the closest points' normal.
        if let CoreFeature::Edge(j) = closest.feature2 {
            let across = clip_edges(incident, reference, j, margin);
            if !across.is_empty() && !deeper_than_apart(&across) {
                return oriented(across, !flip);
            }
        }
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
/// contact). Its penetration is at least the depth along the reference normal, the total radius
/// less the (non-positive) reference separation, and never below `-margin`. Only when there is
/// no candidate does the deepest incident vertex stand in.
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
        // The cores overlap along the reference normal (or touch within rounding), so the
        // shapes overlap along it by the total radius less the reference separation: no
        // shallower than the total radius. A clipped end sits on both surfaces, but may be
        // where they barely meet (far down a long face whose clip missed the incident core):
        // its own depth understates the pair's, to zero for capsules whose cores cross.
        let depth = total_radius - separation;
        best.points[0].penetration = best.points[0].penetration.max(depth).max(-margin);
    }
    best
}

/// Clips the incident edge (most anti-parallel to the reference normal) to the side planes of
/// `reference_edge` and keeps the points whose surfaces are at most `margin` apart
/// ([`clip_to_face`]).
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
    let reference_next = reference.next(reference_edge);
    let incident_next = incident.next(incident_index);
    clip_to_face(
        &ReferenceFace {
            start: reference.vertex(reference_edge),
            end: reference.vertex(reference_next),
            normal: reference.normal(reference_edge),
            radius: reference.radius(),
            face: reference.edge_feature(reference_edge),
            start_vertex: reference_edge as u8,
            end_vertex: reference_next as u8,
        },
        &IncidentEdge {
            first: incident.vertex(incident_index),
            second: incident.vertex(incident_next),
            normal: incident.normal(incident_index),
            radius: incident.radius(),
            edge: incident.edge_feature(incident_index),
            first_vertex: incident_index as u8,
            second_vertex: incident_next as u8,
        },
        margin,
    )
}

/// The reference face of a clip, in the common frame: the core edge `start` -> `end` with its
/// outward unit normal, and its shape's rounding radius.
#[derive(Clone, Copy)]
pub(crate) struct ReferenceFace {
    /// The edge's first vertex.
    pub start: Vec2,
    /// The edge's second vertex.
    pub end: Vec2,
    /// The edge's outward unit normal.
    pub normal: Vec2,
    /// The rounding radius of the reference shape.
    pub radius: f32,
    /// The feature id of the edge.
    pub face: Feature,
    /// The index of `start` in its outline.
    pub start_vertex: u8,
    /// The index of `end` in its outline.
    pub end_vertex: u8,
}

/// The incident edge of a clip, in the common frame: the core edge `first` -> `second` with
/// its outward unit normal, and its shape's rounding radius.
#[derive(Clone, Copy)]
pub(crate) struct IncidentEdge {
    /// The edge's first vertex.
    pub first: Vec2,
    /// The edge's second vertex.
    pub second: Vec2,
    /// The edge's outward unit normal.
    pub normal: Vec2,
    /// The rounding radius of the incident shape.
    pub radius: f32,
    /// The feature id of the edge.
    pub edge: Feature,
    /// The index of `first` in its outline.
    pub first_vertex: u8,
    /// The index of `second` in its outline.
    pub second_vertex: u8,
}

/// Clips the incident shape's surface below its edge to the reference face's side planes and
/// keeps the points whose surfaces are at most `margin` apart.
///
/// ```text
/// n, t = the reference normal and left_perp(n); the face spans 0 <= (x - v1) · t <= L
/// w = the incident edge's deeper end (least n · w), u = its other end,
/// n_i = the incident edge's normal, r = the incident radius; the surface below the edge is
///     P0 = w - r n      the deepest point of w's cap, straight down the reference normal
///     P1 = w + r n_i    where w's cap meets the flat side
///     P2 = u + r n_i    the flat side's other end
/// in this order along t (or the reverse): n_i leans towards u as far as the edge rises to it
/// clip the path P0 P1 P2 to the side planes at 0 and L: an end beyond a plane moves along
///     the path to it (between P0 and P1 along the arc of the cap, w + d t - sqrt(r² - d²) n)
/// for each end q: s = n · (q - v1) - r_ref; keep it if s <= margin; place it midway, q - s/2 n
/// ```
///
/// An end inside the face is P0 or P2 itself: P2 keeps `u + r n_i`, not `u - r n`, because
/// `u`'s cap does not hold `-n` (the edge rises to `u`): `u - r n` lies inside the incident
/// shape and would overstate that end's depth by `r (1 - cos θ)` (`tests/it/manifold_caps.rs`).
/// Clipping the whole path rather than the flat side alone keeps the answer continuous while
/// the incident edge slides over a side plane: the clipped end runs along the cap into P0
/// instead of vanishing at P1 with the depth it had (`tests/it/manifold_face_end.rs`).
/// A rounded face goes on past its side planes as its end vertices' caps: an end clipped at a
/// plane, where the edge goes on down beyond it, takes the deepest contact there
/// ([`deepen_beyond_face_ends`]; a steep edge would otherwise lose its slope times its reach
/// beyond the plane).
#[inline(always)]
pub(crate) fn clip_to_face(face: &ReferenceFace, incident: &IncidentEdge, margin: f32) -> Manifold {
    clip_to_face_then::<true>(face, incident, margin)
}

/// [`clip_to_face`], handing an end that may sink beyond its side plane to
/// [`clipped_and_deepened`] when `DEEPEN`.
#[inline(always)]
fn clip_to_face_then<const DEEPEN: bool>(
    face: &ReferenceFace,
    incident: &IncidentEdge,
    margin: f32,
) -> Manifold {
    let normal = face.normal;
    let v1 = face.start;
    let tangent = crate::math::left_perp(normal);
    let edge_length = (face.end - v1).dot(tangent);
    let rounded = incident.radius > 0.0;

    // 1. The flat side P1 P2 with tangential coordinates, lower end first.
    let FlatSide {
        mut low,
        mut low_t,
        low_vertex,
        mut high,
        mut high_t,
        high_vertex,
        first_is_low,
    } = flat_side(incident, v1, tangent);
    if high_t < 0.0 || low_t > edge_length {
        // The flat side lies beyond a side plane; a rounded cap may still reach over it.
        if rounded {
            return clip_along_cap(face, incident, margin);
        }
        return Manifold::EMPTY;
    }
    let reference_face = face.face;
    let mut low_id = FeatureId {
        a: reference_face,
        b: Feature::Vertex(low_vertex),
    };
    let mut high_id = FeatureId {
        a: reference_face,
        b: Feature::Vertex(high_vertex),
    };

    // 2. Clip the flat side to the side planes at 0 and L (the high end from the clipped low
    //    end).
    let low_clipped = low_t < 0.0;
    if low_clipped {
        let fraction = (0.0 - low_t) / (high_t - low_t);
        low += (high - low) * fraction;
        low_t = 0.0;
        low_id = FeatureId {
            a: Feature::Vertex(face.start_vertex),
            b: incident.edge,
        };
    }
    let high_clipped = high_t > edge_length;
    // An end clipped at a side plane of a rounded face where the edge goes on down beyond it
    // may sink deeper into the end vertex's cap ([`clipped_and_deepened`]).
    if DEEPEN && face.radius > 0.0 && (low_clipped || high_clipped) {
        let deep_is_low =
            (normal.dot(incident.first) <= normal.dot(incident.second)) == first_is_low;
        let sinks_beyond = if deep_is_low {
            low_clipped
        } else {
            high_clipped
        };
        if sinks_beyond && may_sink_beyond(face, incident) {
            return clipped_and_deepened(face, incident, margin);
        }
    }
    if high_clipped {
        let fraction = (edge_length - low_t) / (high_t - low_t);
        high = low + (high - low) * fraction;
        high_t = edge_length;
        high_id = FeatureId {
            a: Feature::Vertex(face.end_vertex),
            b: incident.edge,
        };
    }

    // 3. A rounded deeper end left unclipped is P0, when P0 lies within the face.
    let mut low_surface = low;
    let mut high_surface = high;
    if rounded {
        let deep_is_first = normal.dot(incident.first) <= normal.dot(incident.second);
        let (deep, deep_vertex) = if deep_is_first {
            (incident.first, incident.first_vertex)
        } else {
            (incident.second, incident.second_vertex)
        };
        let cap_bottom = deep - normal * incident.radius;
        if !low_clipped && low_vertex == deep_vertex {
            if (cap_bottom - v1).dot(tangent) < 0.0 {
                return clip_along_cap(face, incident, margin);
            }
            low_surface = cap_bottom;
        } else if !high_clipped && high_vertex == deep_vertex {
            if (cap_bottom - v1).dot(tangent) > edge_length {
                return clip_along_cap(face, incident, margin);
            }
            high_surface = cap_bottom;
        }
    }

    let mut candidates = [(low_surface, low_id), (high_surface, high_id)];
    let mut candidate_count = 2;
    if high_t - low_t <= 1e-6 * edge_length {
        if rounded {
            // The path with its cap may be longer than the flat side.
            return clip_along_cap(face, incident, margin);
        }
        // The clipped edge shrank to a point: one contact, the deeper end.
        if normal.dot(high) < normal.dot(low) {
            candidates[0] = candidates[1];
        }
        candidate_count = 1;
    }

    // 4. Keep the points within the margin; each sits midway between the two surfaces.
    within_margin(face, &candidates[..candidate_count], margin)
}

/// An incident edge's flat side P1 P2 (the core edge pushed out by its radius) in a reference
/// face's frame: its ends ordered along the face's tangent, with their tangential coordinates.
struct FlatSide {
    low: Vec2,
    low_t: f32,
    low_vertex: u8,
    high: Vec2,
    high_t: f32,
    high_vertex: u8,
    /// Whether `low` is the end at the edge's first vertex.
    first_is_low: bool,
}

/// The [`FlatSide`] of `incident` on a face starting at `v1` with tangent `tangent`.
#[inline(always)]
fn flat_side(incident: &IncidentEdge, v1: Vec2, tangent: Vec2) -> FlatSide {
    let shift = incident.normal * incident.radius;
    let (s1, s2) = (incident.first + shift, incident.second + shift);
    let t1 = (s1 - v1).dot(tangent);
    let t2 = (s2 - v1).dot(tangent);
    let first_is_low = t1 <= t2;
    let (low, low_t, low_vertex, high, high_t, high_vertex) = if first_is_low {
        (
            s1,
            t1,
            incident.first_vertex,
            s2,
            t2,
            incident.second_vertex,
        )
    } else {
        (
            s2,
            t2,
            incident.second_vertex,
            s1,
            t1,
            incident.first_vertex,
        )
    };
    FlatSide {
        low,
        low_t,
        low_vertex,
        high,
        high_t,
        high_vertex,
        first_is_low,
    }
}

/// The manifold of the clipped `candidates` whose surfaces are at most `margin` apart along the
/// face's normal, each placed midway between the two surfaces.
#[inline(always)]
fn within_margin(face: &ReferenceFace, candidates: &[(Vec2, FeatureId)], margin: f32) -> Manifold {
    let normal = face.normal;
    let offset = normal.dot(face.start);
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    let mut count = 0;
    for &(point, id) in candidates {
        let separation = normal.dot(point) - offset - face.radius;
        if separation <= margin {
            manifold.points[count] = ContactPoint {
                point: point - normal * (0.5 * separation),
                penetration: -separation,
                id,
            };
            count += 1;
        }
    }
    manifold.count = count;
    manifold
}

/// [`clip_to_face`] for an end clipped at a side plane of a rounded face where the edge goes
/// on down beyond it: the clip, then that end deepened ([`deepen_beyond_face_ends`]).
#[cold]
#[inline(never)]
fn clipped_and_deepened(face: &ReferenceFace, incident: &IncidentEdge, margin: f32) -> Manifold {
    let mut manifold = clip_to_face_then::<false>(face, incident, margin);
    deepen_beyond_face_ends(face, incident, &mut manifold);
    manifold
}

/// [`clip_to_face`] for a rounded incident edge whose path leaves the flat side's clipping:
/// the flat side lies beyond a side plane, or P0 does while P1 does not, or the flat side
/// clipped shrinks to a point; every step written out for the whole path.
#[cold]
#[inline(never)]
fn clip_along_cap(face: &ReferenceFace, incident: &IncidentEdge, margin: f32) -> Manifold {
    let normal = face.normal;
    let v1 = face.start;
    let tangent = crate::math::left_perp(normal);
    let edge_length = (face.end - v1).dot(tangent);

    // 1. The flat side P1 P2 with tangential coordinates, lower end first; the deeper end w.
    let FlatSide {
        mut low,
        low_t,
        low_vertex,
        mut high,
        high_t,
        high_vertex,
        ..
    } = flat_side(incident, v1, tangent);
    let (deep, deep_vertex) = if normal.dot(incident.first) <= normal.dot(incident.second) {
        (incident.first, incident.first_vertex)
    } else {
        (incident.second, incident.second_vertex)
    };
    let rounded = incident.radius > 0.0;
    let deep_is_low = deep_vertex == low_vertex;
    // P0, the bottom of w's cap, extends the path beyond P1 (for a sharp edge P0 = P1).
    let cap_bottom = deep - normal * incident.radius;
    let bottom_t = (cap_bottom - v1).dot(tangent);
    let (path_low_t, path_high_t) = match (rounded, deep_is_low) {
        (false, _) => (low_t, high_t),
        (true, true) => (low_t.min(bottom_t), high_t),
        (true, false) => (low_t, high_t.max(bottom_t)),
    };
    if path_high_t < 0.0 || path_low_t > edge_length {
        return Manifold::EMPTY;
    }

    // 2. The flat side clipped to the side planes at 0 and L (the high end from the clipped
    //    low end).
    let reference_face = face.face;
    let clipped_at_start = FeatureId {
        a: Feature::Vertex(face.start_vertex),
        b: incident.edge,
    };
    let clipped_at_end = FeatureId {
        a: Feature::Vertex(face.end_vertex),
        b: incident.edge,
    };
    let mut low_id = FeatureId {
        a: reference_face,
        b: Feature::Vertex(low_vertex),
    };
    let mut high_id = FeatureId {
        a: reference_face,
        b: Feature::Vertex(high_vertex),
    };
    let (mut clipped_low_t, mut clipped_high_t) = (low_t, high_t);
    if low_t < 0.0 {
        let fraction = (0.0 - low_t) / (high_t - low_t);
        low += (high - low) * fraction;
        clipped_low_t = 0.0;
        low_id = clipped_at_start;
    }
    if high_t > edge_length {
        let fraction = (edge_length - clipped_low_t) / (high_t - clipped_low_t);
        high = low + (high - low) * fraction;
        clipped_high_t = edge_length;
        high_id = clipped_at_end;
    }

    // 3. The cap of a rounded w: its end of the path is P0 when P0 lies within the face, else
    //    the point of its arc on the side plane P0 lies beyond (w + d t - sqrt(r² - d²) n at
    //    tangential offset d from w); and when the whole flat side lies beyond one side plane,
    //    the arc holds the other end too.
    if rounded {
        let on_arc = |c: f32| -> Vec2 {
            let along = c - (deep - v1).dot(tangent);
            let below = (incident.radius * incident.radius - along * along).max(0.0);
            deep + tangent * along - normal * below.sqrt()
        };
        let bottom_id = FeatureId {
            a: reference_face,
            b: Feature::Vertex(deep_vertex),
        };
        if deep_is_low {
            if low_t >= 0.0 {
                (low, low_id, clipped_low_t) = if bottom_t >= 0.0 {
                    (cap_bottom, bottom_id, bottom_t.min(low_t))
                } else {
                    (on_arc(0.0), clipped_at_start, 0.0)
                };
            }
            if low_t > edge_length {
                (high, high_id, clipped_high_t) =
                    (on_arc(edge_length), clipped_at_end, edge_length);
            }
        } else {
            if high_t <= edge_length {
                (high, high_id, clipped_high_t) = if bottom_t <= edge_length {
                    (cap_bottom, bottom_id, bottom_t.max(high_t))
                } else {
                    (on_arc(edge_length), clipped_at_end, edge_length)
                };
            }
            if high_t < 0.0 {
                (low, low_id, clipped_low_t) = (on_arc(0.0), clipped_at_start, 0.0);
            }
        }
    }

    let mut candidates = [(low, low_id), (high, high_id)];
    let mut candidate_count = 2;
    if clipped_high_t - clipped_low_t <= 1e-6 * edge_length {
        // The clipped path shrank to a point: one contact, the deeper end.
        if normal.dot(high) < normal.dot(low) {
            candidates[0] = candidates[1];
        }
        candidate_count = 1;
    }

    // 4. Keep the points within the margin; each sits midway between the two surfaces.
    let mut manifold = within_margin(face, &candidates[..candidate_count], margin);
    let deep_end_clipped = if deep_is_low {
        low_id == clipped_at_start
    } else {
        high_id == clipped_at_end
    };
    if face.radius > 0.0 && deep_end_clipped && may_sink_beyond(face, incident) {
        deepen_beyond_face_ends(face, incident, &mut manifold);
    }
    manifold
}

/// Whether the incident surface beyond a side plane can sink into the end vertex's cap by
/// more than 1e-4 of the face's radius deeper than where it crosses the plane.
///
/// Along the cap, at `d` beyond the plane, the face's surface drops by `R - sqrt(R² - d²)`;
/// the incident surface, sloping at most as the edge does (angle `φ` to the face, `cos φ =
/// -n · n_i`), drops by at most `d tan φ`. The difference is largest at `d = R sin φ`, where it
/// is `R (1 / cos φ - 1)`: for a face resting on a face there is nothing to gain.
#[inline(always)]
fn may_sink_beyond(face: &ReferenceFace, incident: &IncidentEdge) -> bool {
    let cosine = -face.normal.dot(incident.normal);
    1.0 - cosine > 1e-4 * cosine
}

/// A point clipped at a side plane of a rounded reference face, deepened to the deepest
/// contact of the incident surface beyond that plane with the reference vertex's cap.
///
/// The reference surface does not end at the side plane: past it lies the cap of the face's
/// end vertex `e`, radius `R`. A steep incident edge (nearly along the normal) clipped at the
/// plane keeps the depth the edge has there, while its deeper part just beyond still sinks
/// into the cap, by as much as the edge's slope times its reach beyond the plane. The deepest
/// contact along the normal `n` of the cap with the incident core `p q` inflated by `r` is
/// where the ray `e - s n` leaves the core inflated by `R + r` (a capsule): the largest `s`
/// over the two discs at `p`, `q` and the band along the core. When the core point it leaves
/// from (the witness) lies beyond the plane and the depth is greater than the clipped point's,
/// the point takes that depth, midway between the cap and the incident surface; a witness on
/// the face's side of the plane means the deepest contact beyond the plane is at the plane.
#[cold]
#[inline(never)]
pub(crate) fn deepen_beyond_face_ends(
    face: &ReferenceFace,
    incident: &IncidentEdge,
    manifold: &mut Manifold,
) {
    let normal = face.normal;
    let tangent = crate::math::left_perp(normal);
    let reach = face.radius + incident.radius;
    // The edge goes down towards its deeper end: only the plane on that side can gain.
    let deep_is_first = normal.dot(incident.first) <= normal.dot(incident.second);
    let deep_towards_start =
        deep_is_first == (tangent.dot(incident.first) <= tangent.dot(incident.second));
    let count = manifold.count;
    for point in &mut manifold.points[..count] {
        if point.id.b != incident.edge {
            continue;
        }
        let (vertex, beyond) =
            if deep_towards_start && point.id.a == Feature::Vertex(face.start_vertex) {
                (face.start, -tangent)
            } else if !deep_towards_start && point.id.a == Feature::Vertex(face.end_vertex) {
                (face.end, tangent)
            } else {
                continue;
            };
        let Some((depth, witness)) =
            ray_exit_from_capsule(vertex, normal, incident.first, incident.second, reach)
        else {
            continue;
        };
        if depth <= point.penetration || (witness - vertex).dot(beyond) < 0.0 {
            continue;
        }
        let across = witness + normal * depth - vertex;
        let Some(direction) = across.try_normalize() else {
            continue;
        };
        let on_cap = vertex + direction * face.radius;
        point.point = on_cap - normal * (0.5 * depth);
        point.penetration = depth;
    }
}

/// The largest `s` at which `origin - s normal` lies within `reach` of the segment
/// `first`–`second` (where the ray leaves that capsule), with the segment's point closest to
/// it there; `None` when the ray meets none of it or leaves it behind the origin.
///
/// The capsule is convex, so the ray leaves it once: through the far side of the band along
/// the segment when that point's foot lies on the segment, else through the disc at the end
/// beyond which the foot lies.
fn ray_exit_from_capsule(
    origin: Vec2,
    normal: Vec2,
    first: Vec2,
    second: Vec2,
    reach: f32,
) -> Option<(f32, Vec2)> {
    let edge = second - first;
    let length = edge.length();
    let mut centre = first;
    if length > 0.0 {
        let unit = edge / length;
        let across = crate::math::right_perp(unit);
        let rate = across.dot(normal);
        if rate.abs() > f32::EPSILON {
            let height = across.dot(origin - first);
            let s = ((height - reach) / rate).max((height + reach) / rate);
            let foot = (origin - normal * s - first).dot(unit);
            if (0.0..=length).contains(&foot) {
                return Some((s, first + unit * foot)).filter(|&(s, _)| s >= 0.0);
            }
            if foot > length {
                centre = second;
            }
        } else if normal.dot(unit) < 0.0 {
            // Along the segment: out through the end the ray runs towards.
            centre = second;
        }
    }
    // The disc at that end: |origin - s n - c|² = reach², the far root.
    let offset = origin - centre;
    let along = normal.dot(offset);
    let discriminant = along * along - offset.length_squared() + reach * reach;
    if discriminant < 0.0 {
        return None;
    }
    Some((along + discriminant.sqrt(), centre)).filter(|&(s, _)| s >= 0.0)
}
