//! Box against box: polygons that are centred, axis-aligned boxes in their own frames (see
//! [`Polygon::box_half_extents`]), sharp or rounded; oriented boxes once placed.
//!
//! **Invariant:** every result here is bit-for-bit the one the general polygon path
//! ([`collide_polygon_polygon`](super::polygon_polygon::collide_polygon_polygon) and its overlap
//! test) gives for the same boxes: the same separations, the same axes and the same clipping. Only
//! the separating-axis step is shorter, because a box's outline is known in closed form:
//!
//! ```text
//! A's edge lines are x = ±hA.x and y = ±hA.y, with offsets exactly hA:
//!     separation along +x = min_j wx_j − hA.x,  along −x = −max_j wx_j − hA.x  (same for y)
//!     where w_j are B's corners in A's frame, computed as the general path computes them
//! B's edge n against A's corners (±hA.x, ±hA.y): the smallest n · corner is
//!     −(|n.x hA.x| + |n.y hA.y|)  (rounding is monotone and symmetric, so no corner rounds lower)
//!     separation = that − n · w_n
//! ```
//! Gottschalk, Lin, Manocha, "OBBTree", SIGGRAPH 1996 (separating axes of oriented boxes).
//!
//! [`contacts_box_box`] serves [`collide_speculative`](super::collide_speculative) for two boxes: with the canonical
//! argument order, the frame change and the turning round of the general dispatch folded in,
//! and its three coin-flip choices (argument order, reference face, clipped end) made without
//! branches. Rare cases (cores apart, a clipped edge shrunk to a point, equal first coordinates)
//! go through the general steps.

use crate::math::{Transform, Vec2};
use crate::query::manifold::clip::{
    clip_or_fallback, contact_from_axes, first_smallest, oriented, reference_is_b, FixedSide,
    REFERENCE_AXIS_TOLERANCE,
};
use crate::query::{Feature, FeatureId, Manifold};
use crate::shape::{Polygon, Shape};

/// Box B placed in A's frame, ready for the clipping steps: corners and edge normals, each
/// computed with the very arithmetic of
/// [`PaddedOutline::transformed`](crate::shape::PaddedOutline::transformed) (`c x − s y + p` on
/// the local corner `(±h.x, ±h.y)` and on the local axis normal), so every bit agrees.
#[inline(always)]
fn placed_box(half: Vec2, radius: f32, xf: &Transform) -> BoxSide {
    let (c, s) = (xf.q.c, xf.q.s);
    let vertices = placed_corners(half, xf);
    // Products with 0 are kept: they decide the signs of zero components (a product with ±1
    // is the factor or its negation, exactly).
    let normals = [
        Vec2::new(c * 0.0 - -s, s * 0.0 + -c),
        Vec2::new(c * 1.0 - s * 0.0, s * 1.0 + c * 0.0),
        Vec2::new(c * 0.0 - s * 1.0, s * 0.0 + c * 1.0),
        Vec2::new(-c - s * 0.0, -s + c * 0.0),
    ];
    BoxSide {
        vertices,
        normals,
        radius,
    }
}

/// The corners of [`placed_box`].
#[inline(always)]
fn placed_corners(half: Vec2, xf: &Transform) -> [Vec2; 4] {
    let (c, s) = (xf.q.c, xf.q.s);
    let p = xf.p;
    // c·(±h) = ±(c·h) exactly, so four products serve all corners.
    let (cx, sy, sx, cy) = (c * half.x, s * half.y, s * half.x, c * half.y);
    [
        Vec2::new((-cx - -sy) + p.x, (-sx + -cy) + p.y),
        Vec2::new((cx - -sy) + p.x, (sx + -cy) + p.y),
        Vec2::new((cx - sy) + p.x, (sx + cy) + p.y),
        Vec2::new((-cx - sy) + p.x, (-sx + cy) + p.y),
    ]
}

/// The separations of B's corners from A's four edge lines, in closed form: the extent of B
/// along x is `|c hB.x| + |s hB.y|` (no corner rounds further out, rounding being monotone and
/// symmetric), and A's offsets along its own normals are exactly `hA`.
#[inline(always)]
fn separations_of_a(half_a: Vec2, half_b: Vec2, b_in_a: &Transform) -> [f32; 4] {
    let extent = b_in_a.q.turned_half_extents(half_b);
    let (extent_x, extent_y) = (extent.x, extent.y);
    let p = b_in_a.p;
    [
        -(p.y + extent_y) - half_a.y,
        (p.x - extent_x) - half_a.x,
        (p.y - extent_y) - half_a.y,
        -(p.x + extent_x) - half_a.x,
    ]
}

/// The separations of A's corners from B's four edge lines: B's normals are `(s, −c)`,
/// `(c, s)`, `(−s, c)`, `(−c, −s)` up to the signs of zero components (which cannot change a
/// separation, the lowest corner term being non-zero), and the lowest of A's corners along
/// `n` is `−(|n.x hA.x| + |n.y hA.y|)`.
#[inline(always)]
fn separations_of_b(half_a: Vec2, vertices_b: &[Vec2; 4], b_in_a: &Transform) -> [f32; 4] {
    let (c, s) = (b_in_a.q.c, b_in_a.q.s);
    // A's lowest corner lies |c hA.x| + |s hA.y| below along normals 1 and 3 (±(c, s)), and
    // |s hA.x| + |c hA.y| along 0 and 2: A's half extents turned by this rotation.
    let lowest = b_in_a.q.turned_half_extents(half_a);
    let (lowest_13, lowest_02) = (lowest.x, lowest.y);
    let [w0, w1, w2, w3] = *vertices_b;
    [
        -lowest_02 - (s * w0.x + -c * w0.y),
        -lowest_13 - (c * w1.x + s * w1.y),
        -lowest_02 - (-s * w2.x + c * w2.y),
        -lowest_13 - (-c * w3.x + -s * w3.y),
    ]
}

/// A box outline in A's frame for the clipping steps, in fixed arrays (no bounds checks).
type BoxSide = FixedSide<4>;

impl FixedSide<4> {
    /// Box A in its own frame: the very numbers [`Polygon::rect`] stores.
    #[inline(always)]
    fn local(half: Vec2, radius: f32) -> BoxSide {
        BoxSide {
            vertices: [
                Vec2::new(-half.x, -half.y),
                Vec2::new(half.x, -half.y),
                Vec2::new(half.x, half.y),
                Vec2::new(-half.x, half.y),
            ],
            normals: [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X],
            radius,
        }
    }
}

/// The largest of four separations and its edge (the first of equal ones), as the general
/// kernel picks it.
#[inline(always)]
fn best_axis(separations: [f32; 4]) -> (f32, usize) {
    let mut best = (f32::NEG_INFINITY, 0);
    for (edge, separation) in separations.into_iter().enumerate() {
        if separation > best.0 {
            best = (separation, edge);
        }
    }
    best
}

/// The size [`CoreShape::of_polygon`](super::core_shape::CoreShape::of_polygon) gives a box,
/// `2 hx + 2 hy + 2 r`: doubling is exact, so that is `2 ((hx + hy) + r)` to the bit.
#[inline(always)]
fn box_size(half: Vec2, radius: f32) -> f32 {
    2.0 * ((half.x + half.y) + radius)
}

/// Box A against box B in A's frame (`b_in_a` places B); `half_a`, `half_b` are their
/// [`Polygon::box_half_extents`]. (Box pairs given to [`collide_speculative`](super::collide_speculative) take
/// [`contacts_box_box`]; this serves the other routes.)
#[inline(never)]
pub(crate) fn collide_box_box(
    box_a: &Polygon,
    half_a: Vec2,
    box_b: &Polygon,
    half_b: Vec2,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    let (first, second) = ((half_a, box_a.radius()), (half_b, box_b.radius()));
    match clipped_box_contact(first, second, b_in_a, margin) {
        BoxContact::Apart => Manifold::EMPTY,
        BoxContact::Clipped(mut local, [id0, id1], flip) => {
            local.points[0].id = unpacked_id(id0, flip);
            local.points[1].id = unpacked_id(id1, flip);
            local
        }
        BoxContact::Other => collide_box_box_in_full(box_a, half_a, box_b, half_b, b_in_a, margin),
    }
}

/// Box A against box B in world space (`shape_a`, `shape_b` are the two boxes as shapes,
/// `margin` is already sanitized): the very result of the general dispatch, which puts the pair
/// in the canonical order of [`same_kind_swapped`](super::same_kind_swapped), computes it in the
/// first box's frame and turns it round when swapped. Here the argument order, the reference
/// face and the clipped ends are chosen without branches (see [`Choice`]): on boxes resting on
/// each other each goes either way about half the time.
///
/// Not inlined: inside a caller's loop the compiler turns conditional moves back into jumps.
/// The boxes' sizes are read here from the shapes, not passed in: values the caller has just
/// stored and that are then picked by index are slower to reload than the shapes' own fields.
#[inline(never)]
pub(crate) fn contacts_box_box(
    shape_a: &Shape,
    xf_a: &Transform,
    shape_b: &Shape,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let (Shape::Polygon(box_a), Shape::Polygon(box_b)) = (shape_a, shape_b) else {
        return Manifold::EMPTY;
    };
    let (Some(half_a), Some(half_b)) = (box_a.box_half_extents(), box_b.box_half_extents()) else {
        return super::contacts_polygon_pair(shape_a, xf_a, shape_b, xf_b, margin);
    };
    // The canonical order is decided by the first coordinates unless they are equal (or NaN).
    let (before, after) = (xf_a.p.x < xf_b.p.x, xf_a.p.x > xf_b.p.x);
    if !(before | after) {
        return super::contacts_polygon_pair(shape_a, xf_a, shape_b, xf_b, margin);
    }
    let swap = Choice::new(after);
    let (box_a, box_b) = ((half_a, box_a.radius()), (half_b, box_b.radius()));
    let boxes = [box_a, box_b];
    let (first, second) = (boxes[swap.0], boxes[swap.0 ^ 1]);
    // Pointers: conditional moves.
    let xf_first = *select(after, xf_b, xf_a);
    let xf_second = *select(after, xf_a, xf_b);
    let b_in_a = xf_first.inv_mul(&xf_second);
    match clipped_box_contact(first, second, &b_in_a, margin) {
        BoxContact::Apart => {
            // The empty manifold, turned round as the general dispatch does (zeros negated).
            let mut empty = Manifold::EMPTY;
            empty.normal = swap.negate(empty.normal);
            empty
        }
        BoxContact::Clipped(local, [id0, id1], flip) => {
            // `finish_local`, then `swap_sides` when the pair was swapped.
            let xf = &xf_first;
            let mut world = local;
            world.normal = swap.negate(xf.rotate(local.normal));
            world.points[0].point = xf.apply(local.points[0].point);
            // Exchanged once by the reference face, once more by the argument order.
            let exchanged = flip ^ swap.0;
            world.points[0].id = unpacked_id(id0, exchanged);
            world.points[1].id = unpacked_id(id1, exchanged);
            if local.count > 1 {
                world.points[1].point = xf.apply(local.points[1].point);
            }
            world
        }
        BoxContact::Other => super::contacts_polygon_pair(shape_a, xf_a, shape_b, xf_b, margin),
    }
}

/// `if condition { when_true } else { when_false }`, both already computed (for choices the
/// branch predictor handles well; see [`Choice`] for the others).
#[inline(always)]
fn select<T>(condition: bool, when_true: T, when_false: T) -> T {
    if condition {
        when_true
    } else {
        when_false
    }
}

/// A choice between two computed values made by indexing, never with a branch: for the
/// conditions that go either way about half the time on resting boxes (which argument comes
/// first, which face is the reference, which end of the incident edge is clipped). The index
/// passes through [`black_box`](std::hint::black_box) so that the compiler cannot turn the
/// lookup back into a conditional jump.
#[derive(Clone, Copy)]
struct Choice(usize);

impl Choice {
    #[inline(always)]
    fn new(condition: bool) -> Choice {
        Choice(std::hint::black_box(usize::from(condition)) & 1)
    }

    #[inline(always)]
    fn holds(self) -> bool {
        self.0 != 0
    }

    /// `if condition { when_true } else { when_false }`.
    #[inline(always)]
    fn pick<T: Copy>(self, when_true: T, when_false: T) -> T {
        [when_false, when_true][self.0]
    }

    /// `-v` when the condition holds (a sign flip, exact).
    #[inline(always)]
    fn negate(self, v: Vec2) -> Vec2 {
        let sign = (self.0 as u32) << 31;
        Vec2::new(
            f32::from_bits(v.x.to_bits() ^ sign),
            f32::from_bits(v.y.to_bits() ^ sign),
        )
    }

    /// `when_true` or `when_false` by masking.
    #[inline(always)]
    fn bits(self, when_true: u32, when_false: u32) -> u32 {
        let mask = 0u32.wrapping_sub(self.0 as u32);
        when_false ^ ((when_false ^ when_true) & mask)
    }
}

/// A feature id of two boxes as 6 bits, built without branches: A's feature in bits 0 to 2,
/// B's in bits 3 to 5, each as `is_edge | index << 1` (indices below 4).
#[inline(always)]
fn packed_id((a_is_edge, a_index): (u32, u32), (b_is_edge, b_index): (u32, u32)) -> u32 {
    (a_is_edge | (a_index << 1)) | ((b_is_edge | (b_index << 1)) << 3)
}

/// Every [`FeatureId`] of two boxes, by [`packed_id`]: as packed (`[0]`), and with A and B
/// exchanged (`[1]`, for a result turned round).
const FEATURE_IDS: [[FeatureId; 64]; 2] = {
    const fn feature(bits: u32) -> Feature {
        let index = (bits >> 1) as u8;
        if bits & 1 != 0 {
            Feature::Edge(index)
        } else {
            Feature::Vertex(index)
        }
    }
    let mut ids = [[FeatureId {
        a: Feature::Vertex(0),
        b: Feature::Vertex(0),
    }; 64]; 2];
    let mut bits = 0;
    while bits < 64 {
        let (a, b) = (feature(bits & 7), feature(bits >> 3));
        ids[0][bits as usize] = FeatureId { a, b };
        ids[1][bits as usize] = FeatureId { a: b, b: a };
        bits += 1;
    }
    ids
};

/// The [`FeatureId`] of a [`packed_id`], with A and B exchanged when `exchanged` is 1.
#[inline(always)]
fn unpacked_id(bits: u32, exchanged: usize) -> FeatureId {
    FEATURE_IDS[exchanged & 1][(bits & 63) as usize]
}

/// What the quick box path found.
enum BoxContact {
    /// The boxes are apart: the manifold is empty.
    Apart,
    /// The clipped manifold in A's frame (never empty), its points' ids still to be set from
    /// the [`packed_id`]s (the second `0` when there is one point), which name the reference
    /// box first: A and B are exchanged in them when the last number is 1 (B's face is the
    /// reference).
    Clipped(Manifold, [u32; 2], usize),
    /// Anything else (cores apart by less than the radii, a clipped edge that shrank to a
    /// point or lost both points): the general steps decide.
    Other,
}

/// Box A against box B in A's frame, for the common cases: apart, or overlapping cores whose
/// clipped incident edge keeps one or two points. The arithmetic is that of
/// [`contact_from_axes`] and [`clip_or_fallback`] on [`BoxSide`]s, step for step; only the
/// choices between its branches are made by selecting among values computed both ways.
#[inline(always)]
fn clipped_box_contact(
    (half_a, radius_a): (Vec2, f32),
    (half_b, radius_b): (Vec2, f32),
    b_in_a: &Transform,
    margin: f32,
) -> BoxContact {
    let total_radius = radius_a + radius_b;
    let limit = total_radius + margin;

    // 1. Separating axes of A (closed form), then of B.
    let (separation_a, edge_a) = best_axis(separations_of_a(half_a, half_b, b_in_a));
    if separation_a > limit {
        return BoxContact::Apart;
    }
    let corners_b = placed_corners(half_b, b_in_a);
    let (separation_b, edge_b) = best_axis(separations_of_b(half_a, &corners_b, b_in_a));
    if separation_b > limit {
        return BoxContact::Apart;
    }

    // 2. The reference face; cores apart go the general way.
    let tolerance =
        REFERENCE_AXIS_TOLERANCE * box_size(half_a, radius_a).min(box_size(half_b, radius_b));
    let flip = Choice::new(reference_is_b(separation_a, separation_b, tolerance));
    if flip.pick(separation_b, separation_a) > 0.0 {
        return BoxContact::Other;
    }
    // Both outlines side by side, the reference one chosen by index.
    let sides = [
        BoxSide::local(half_a, radius_a),
        placed_box(half_b, radius_b, b_in_a),
    ];
    let reference = &sides[flip.0];
    let incident = &sides[flip.0 ^ 1];
    let reference_edge = flip.pick(edge_b, edge_a);

    // 3. `clip_edges`: the incident edge, most anti-parallel to the reference normal.
    let normal = reference.normals[reference_edge];
    let d0 = normal.dot(incident.normals[0]);
    let d1 = normal.dot(incident.normals[1]);
    let incident_index = first_smallest([d0, d1, -d0, -d1].into_iter());
    let reference_next = (reference_edge + 1) & 3;
    let incident_next = (incident_index + 1) & 3;
    let v1 = reference.vertices[reference_edge];
    let v2 = reference.vertices[reference_next];
    let tangent = crate::math::left_perp(normal);
    let edge_length = (v2 - v1).dot(tangent);

    // The incident surface edge, lower end first (the general path recomputes each end from
    // its vertex, by the same arithmetic, so picking the computed ones gives the same bits).
    let (w1, w2) = (
        incident.vertices[incident_index],
        incident.vertices[incident_next],
    );
    let shift = incident.normals[incident_index] * incident.radius;
    let (end1, end2) = (w1 + shift, w2 + shift);
    let t1 = (end1 - v1).dot(tangent);
    let t2 = (end2 - v1).dot(tangent);
    // Anti-parallel edges of two counter-clockwise outlines run opposite ways, so this choice
    // nearly always goes the same way: a plain branch.
    let in_order = t1 <= t2;
    let low_vertex = (incident_index + 1 - usize::from(in_order)) & 3;
    let high_vertex = (incident_index + usize::from(in_order)) & 3;
    let ((low, low_t), (high, high_t)) = if in_order {
        ((end1, t1), (end2, t2))
    } else {
        ((end2, t2), (end1, t1))
    };
    if high_t < 0.0 || low_t > edge_length {
        return BoxContact::Other;
    }

    // Both side planes, each end replaced when it lies beyond its plane.
    // The high end is clipped after the low one (from the clipped low end when that one was
    // clipped): both ways are computed, so that no division waits for a choice.
    let clip_low = Choice::new(low_t < 0.0);
    let clip_high = Choice::new(high_t > edge_length);
    let fraction_low = (0.0 - low_t) / (high_t - low_t);
    let fraction_high_after_low = (edge_length - 0.0) / (high_t - 0.0);
    let fraction_high = (edge_length - low_t) / (high_t - low_t);
    let clipped_low = low + (high - low) * fraction_low;
    let clipped_high = clip_low.pick(
        clipped_low + (high - clipped_low) * fraction_high_after_low,
        low + (high - low) * fraction_high,
    );
    let (low, low_t) = clip_low.pick((clipped_low, 0.0), (low, low_t));
    // Unclipped: (reference face, incident vertex); clipped: (reference vertex, incident edge).
    let low_id = packed_id(
        (1 ^ clip_low.0 as u32, reference_edge as u32),
        (
            clip_low.0 as u32,
            clip_low.bits(incident_index as u32, low_vertex as u32),
        ),
    );
    let (high, high_t) = clip_high.pick((clipped_high, edge_length), (high, high_t));
    let high_id = packed_id(
        (
            1 ^ clip_high.0 as u32,
            clip_high.bits(reference_next as u32, reference_edge as u32),
        ),
        (
            clip_high.0 as u32,
            clip_high.bits(incident_index as u32, high_vertex as u32),
        ),
    );
    if high_t - low_t <= 1e-6 * edge_length {
        // Shrank to a point: one contact, the general way.
        return BoxContact::Other;
    }

    // The deepest incident vertex, rounded straight towards the reference face, stands in for
    // an unclipped end that is that vertex.
    let (w1, w2) = (
        incident.vertices[incident_index],
        incident.vertices[incident_next],
    );
    let (low_surface, high_surface) = if incident.radius > 0.0 {
        let support_first = normal.dot(w1) <= normal.dot(w2);
        let support_vertex = select(support_first, incident_index, incident_next);
        let rounded_support = select(support_first, w1, w2) - normal * incident.radius;
        let low_is_support = !clip_low.holds() && low_vertex == support_vertex;
        let high_is_support = !clip_high.holds() && high_vertex == support_vertex;
        // A rounded support beyond a side plane: the general steps follow its cap to the plane.
        let support_t = (rounded_support - v1).dot(tangent);
        if (low_is_support && support_t < 0.0) || (high_is_support && support_t > edge_length) {
            return BoxContact::Other;
        }
        (
            select(low_is_support, rounded_support, low),
            select(high_is_support, rounded_support, high),
        )
    } else {
        (low, high)
    };

    // 4. Points within the margin, each midway between the surfaces.
    let offset = normal.dot(v1);
    let low_separation = normal.dot(low_surface) - offset - reference.radius;
    let high_separation = normal.dot(high_surface) - offset - reference.radius;
    let keep_low = low_separation <= margin;
    let keep_high = high_separation <= margin;
    if !(keep_low && keep_high) {
        if !(keep_low || keep_high) {
            return BoxContact::Other;
        }
        // One point kept.
        let (surface, separation, id) = select(
            keep_low,
            (low_surface, low_separation, low_id),
            (high_surface, high_separation, high_id),
        );
        let mut manifold = Manifold::EMPTY;
        manifold.normal = flip.negate(normal);
        manifold.points[0].point = surface - normal * (0.5 * separation);
        manifold.points[0].penetration = -separation;
        manifold.count = 1;
        return BoxContact::Clipped(manifold, [id, 0], flip.0);
    }
    let mut manifold = Manifold::EMPTY;
    manifold.normal = flip.negate(normal);
    manifold.points[0].point = low_surface - normal * (0.5 * low_separation);
    manifold.points[0].penetration = -low_separation;
    manifold.points[1].point = high_surface - normal * (0.5 * high_separation);
    manifold.points[1].penetration = -high_separation;
    manifold.count = 2;
    BoxContact::Clipped(manifold, [low_id, high_id], flip.0)
}

/// [`collide_box_box`] through the general reference/incident steps.
#[cold]
#[inline(never)]
fn collide_box_box_in_full(
    box_a: &Polygon,
    half_a: Vec2,
    box_b: &Polygon,
    half_b: Vec2,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    let total_radius = box_a.radius() + box_b.radius();
    let limit = total_radius + margin;

    // 1. Separating axes of A (closed form), then B's outline in A's frame and its axes.
    let (separation_a, edge_a) = best_axis(separations_of_a(half_a, half_b, b_in_a));
    if separation_a > limit {
        return Manifold::EMPTY;
    }
    let side_b = placed_box(half_b, box_b.radius(), b_in_a);
    let (separation_b, edge_b) = best_axis(separations_of_b(half_a, &side_b.vertices, b_in_a));
    if separation_b > limit {
        return Manifold::EMPTY;
    }

    // 2. The reference/incident steps of `contact_from_axes`; overlapping cores (the common
    //    case) go straight to the clipping, without choosing the outlines through pointers.
    let side_a = BoxSide::local(half_a, box_a.radius());
    let (size_a, size_b) = (
        box_size(half_a, box_a.radius()),
        box_size(half_b, box_b.radius()),
    );
    let tolerance = REFERENCE_AXIS_TOLERANCE * size_a.min(size_b);
    let flip = reference_is_b(separation_a, separation_b, tolerance);
    if flip {
        if separation_b <= 0.0 {
            let local = clip_or_fallback(&side_b, &side_a, edge_b, total_radius, margin);
            return oriented(local, true);
        }
    } else if separation_a <= 0.0 {
        return clip_or_fallback(&side_a, &side_b, edge_a, total_radius, margin);
    }
    contact_from_axes(
        (&side_a, separation_a, edge_a, size_a),
        (&side_b, separation_b, edge_b, size_b),
        total_radius,
        margin,
    )
}

/// Whether box A and box B (placed by `b_in_a`) overlap, touching included: identical to
/// `!collide_box_box(.., 0.0).is_empty()`.
#[inline(always)]
pub(crate) fn overlap_box_box(
    box_a: &Polygon,
    half_a: Vec2,
    box_b: &Polygon,
    half_b: Vec2,
    b_in_a: &Transform,
) -> bool {
    // The manifold's limit with a zero margin; its largest separation exceeds a bound exactly
    // when one of the four does.
    let limit = (box_a.radius() + box_b.radius()) + 0.0;
    let separations_a = separations_of_a(half_a, half_b, b_in_a);
    if any_above(separations_a, limit) {
        return false;
    }
    let corners_b = placed_corners(half_b, b_in_a);
    let separations_b = separations_of_b(half_a, &corners_b, b_in_a);
    if any_above(separations_b, limit) {
        return false;
    }
    // Overlapping cores always give a point; cores apart by less than the radii need the
    // manifold to tell.
    !(any_above(separations_a, 0.0) || any_above(separations_b, 0.0))
        || !collide_box_box_in_full(box_a, half_a, box_b, half_b, b_in_a, 0.0).is_empty()
}

/// Whether one of four separations exceeds `bound` (NaN never does), without branches.
#[inline(always)]
fn any_above(separations: [f32; 4], bound: f32) -> bool {
    let [s0, s1, s2, s3] = separations;
    (s0 > bound) | (s1 > bound) | (s2 > bound) | (s3 > bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::manifold::polygon_polygon::{collide_polygon_polygon, overlap_polygon_like};
    use crate::shape::Shape;

    use crate::query::manifold::test_numbers::{
        all_manifold_bits, manifold_bits, Numbers, EXACT_TURNS,
    };

    fn random_box(numbers: &mut Numbers, round: usize) -> Polygon {
        let (width, height) = if round % 7 == 0 {
            let side = 0.05 + numbers.unit() * 4.0;
            (side, side)
        } else {
            (0.05 + numbers.unit() * 4.0, 0.05 + numbers.unit() * 4.0)
        };
        let polygon = Polygon::rect(width, height).unwrap();
        if round % 5 == 0 {
            polygon.with_radius(numbers.unit() * 0.5).unwrap()
        } else {
            polygon
        }
    }

    fn random_placement(numbers: &mut Numbers, round: usize, reach: f32) -> Transform {
        let angle = match round % 4 {
            // Exact quarter turns and aligned boxes: faces resting flat on each other.
            0 => (numbers.unit() * 4.0).floor() * std::f32::consts::FRAC_PI_2,
            1 => 0.0,
            _ => numbers.unit() * std::f32::consts::TAU,
        };
        let mut offset = Vec2::new(numbers.unit() * 2.0 - 1.0, numbers.unit() * 2.0 - 1.0) * reach;
        if round % 8 == 1 {
            // Coordinates on a coarse grid: exact touching and coincident edges.
            offset = (offset * 4.0).round() * 0.25;
        }
        if round % 16 == 2 {
            // Exact rotations, signed zeros included: aligned boxes give `s = ±0` in `b_in_a`.
            let (c, s) = EXACT_TURNS[(numbers.unit() * 5.0) as usize % 5];
            return Transform {
                p: offset,
                q: crate::math::Rot { c, s },
            };
        }
        Transform::new(offset, angle)
    }

    #[test]
    fn rect_builds_a_flagged_box() {
        let mut numbers = Numbers(0x51_7cc1_b727_220a);
        for _ in 0..10_000 {
            let (width, height) = (0.01 + numbers.unit() * 50.0, 0.01 + numbers.unit() * 50.0);
            let polygon = Polygon::rect(width, height).unwrap();
            assert_eq!(
                polygon.box_half_extents(),
                Some(Vec2::new(width, height) * 0.5)
            );
        }
        assert_eq!(Polygon::regular(4, 1.0).unwrap().box_half_extents(), None);
        let turned = Polygon::box_at(Vec2::ZERO, Vec2::ONE, 0.3).unwrap();
        assert_eq!(turned.box_half_extents(), None);
        let shifted = Polygon::box_at(Vec2::new(1.0, 0.0), Vec2::ONE, 0.0).unwrap();
        assert_eq!(shifted.box_half_extents(), None);
    }

    #[test]
    fn box_path_matches_the_polygon_path_bit_for_bit() {
        let mut numbers = Numbers(0x2545_f491_4f6c_dd1d);
        let mut touching = 0;
        for round in 0..200_000 {
            let box_a = random_box(&mut numbers, round);
            let box_b = random_box(&mut numbers, round / 3);
            let half_a = box_a.box_half_extents().unwrap();
            let half_b = box_b.box_half_extents().unwrap();
            let b_in_a = random_placement(&mut numbers, round, 4.0);
            let margin = if round % 3 == 0 {
                numbers.unit() * 0.3
            } else {
                0.0
            };
            let general = collide_polygon_polygon(&box_a, &box_b, &b_in_a, margin);
            let boxes = collide_box_box(&box_a, half_a, &box_b, half_b, &b_in_a, margin);
            assert_eq!(
                manifold_bits(&boxes),
                manifold_bits(&general),
                "{box_a:?} {box_b:?} {b_in_a:?} margin {margin}: {boxes:?} vs {general:?}"
            );
            assert_eq!(boxes, general);
            let overlapping = overlap_box_box(&box_a, half_a, &box_b, half_b, &b_in_a);
            let shape_a = Shape::from(box_a.clone());
            assert_eq!(overlapping, overlap_polygon_like(&shape_a, &box_b, &b_in_a));
            assert_eq!(
                overlapping,
                !collide_polygon_polygon(&box_a, &box_b, &b_in_a, 0.0).is_empty()
            );
            touching += usize::from(overlapping);
        }
        assert!(touching > 20_000, "{touching}");
    }

    #[test]
    fn world_box_path_matches_the_general_dispatch_bit_for_bit() {
        let mut numbers = Numbers(0x9e37_79b9_7f4a_7c15);
        let mut touching = 0;
        for round in 0..200_000 {
            let box_a = random_box(&mut numbers, round);
            let box_b = random_box(&mut numbers, round / 3);
            let origin = Vec2::new(
                numbers.unit() * 200.0 - 100.0,
                numbers.unit() * 200.0 - 100.0,
            );
            let mut xf_a = random_placement(&mut numbers, round / 2, 1.0);
            xf_a.p += origin;
            let b_in_a = random_placement(&mut numbers, round, 4.0);
            let mut xf_b = xf_a.mul(&b_in_a);
            if round % 11 == 0 {
                // Equal first coordinates: the canonical order needs the other numbers.
                xf_b.p.x = xf_a.p.x;
            }
            let margin = if round % 3 == 0 {
                numbers.unit() * 0.3
            } else {
                0.0
            };
            let (shape_a, shape_b) = (Shape::from(box_a), Shape::from(box_b));
            for (a, xf_a, b, xf_b) in [
                (&shape_a, &xf_a, &shape_b, &xf_b),
                (&shape_b, &xf_b, &shape_a, &xf_a),
            ] {
                let boxes = crate::query::manifold::collide_speculative(a, xf_a, b, xf_b, margin);
                let general =
                    crate::query::manifold::contacts_polygon_pair(a, xf_a, b, xf_b, margin);
                assert_eq!(
                    all_manifold_bits(&boxes),
                    all_manifold_bits(&general),
                    "{a:?} {xf_a:?} {b:?} {xf_b:?} margin {margin}: {boxes:?} vs {general:?}"
                );
                assert_eq!(boxes, general);
                touching += usize::from(!boxes.is_empty());
            }
        }
        assert!(touching > 40_000, "{touching}");
    }
}
