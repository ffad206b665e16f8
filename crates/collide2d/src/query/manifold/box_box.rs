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

use crate::math::{Transform, Vec2};
use crate::query::manifold::polygon_polygon::{
    clip_or_fallback, contact_from_axes, first_smallest, oriented, ClipSide, Side,
    REFERENCE_AXIS_TOLERANCE,
};
use crate::query::Manifold;
use crate::shape::Polygon;

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
    let (c, s) = (b_in_a.q.c, b_in_a.q.s);
    let extent_x = (c * half_b.x).abs() + (s * half_b.y).abs();
    let extent_y = (s * half_b.x).abs() + (c * half_b.y).abs();
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
    let lowest_02 = (s * half_a.x).abs() + (c * half_a.y).abs();
    let lowest_13 = (c * half_a.x).abs() + (s * half_a.y).abs();
    let [w0, w1, w2, w3] = *vertices_b;
    [
        -lowest_02 - (s * w0.x + -c * w0.y),
        -lowest_13 - (c * w1.x + s * w1.y),
        -lowest_02 - (-s * w2.x + c * w2.y),
        -lowest_13 - (-c * w3.x + -s * w3.y),
    ]
}

/// A box outline in A's frame for the clipping steps, in fixed arrays (no bounds checks).
#[derive(Clone, Copy)]
struct BoxSide {
    vertices: [Vec2; 4],
    normals: [Vec2; 4],
    radius: f32,
}

impl BoxSide {
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

impl ClipSide for &BoxSide {
    #[inline(always)]
    fn count(&self) -> usize {
        4
    }
    #[inline(always)]
    fn vertex(&self, i: usize) -> Vec2 {
        self.vertices[i & 3]
    }
    #[inline(always)]
    fn normal(&self, i: usize) -> Vec2 {
        self.normals[i & 3]
    }
    #[inline(always)]
    fn radius(&self) -> f32 {
        self.radius
    }
    #[inline(always)]
    fn next(&self, i: usize) -> usize {
        (i + 1) & 3
    }
    /// A box's normals 2 and 3 are the negations of 0 and 1 (up to the signs of zero
    /// components), so their products with any vector are the negated products (rounding is
    /// symmetric; a zero's sign cannot change a comparison).
    #[inline(always)]
    fn most_anti_parallel(&self, reference_normal: Vec2) -> usize {
        let d0 = reference_normal.dot(self.normals[0]);
        let d1 = reference_normal.dot(self.normals[1]);
        first_smallest([d0, d1, -d0, -d1].into_iter())
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

/// The size [`CoreShape::of_polygon`](super::core_shape::CoreShape::of_polygon) gives a box.
#[inline(always)]
fn box_size(half: Vec2, radius: f32) -> f32 {
    let across = half + half;
    across.x + across.y + 2.0 * radius
}

/// Box A against box B in A's frame (`b_in_a` places B); `half_a`, `half_b` are their
/// [`Polygon::box_half_extents`].
#[inline(always)]
pub(crate) fn collide_box_box(
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
    let flip = separation_b > separation_a + tolerance;
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
        || !collide_box_box(box_a, half_a, box_b, half_b, b_in_a, 0.0).is_empty()
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

    use crate::query::manifold::test_numbers::Numbers;

    /// Every number of a manifold, as bits (so `-0.0` and `0.0` differ).
    fn bits(manifold: &Manifold) -> Vec<u32> {
        let mut out = vec![
            manifold.normal.x.to_bits(),
            manifold.normal.y.to_bits(),
            manifold.count as u32,
        ];
        for point in manifold.points() {
            out.extend([
                point.point.x.to_bits(),
                point.point.y.to_bits(),
                point.penetration.to_bits(),
            ]);
        }
        out
    }

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
            let exact = [
                (1.0, 0.0),
                (1.0, -0.0),
                (0.0, 1.0),
                (-0.0, -1.0),
                (-1.0, 0.0),
            ];
            let (c, s) = exact[(numbers.unit() * 5.0) as usize % 5];
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
                bits(&boxes),
                bits(&general),
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
}
