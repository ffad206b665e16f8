//! The separating-axis kernel for small outlines, padded to whole four-lane chunks (see
//! [`PaddedOutline`]) so that its loops unroll into SIMD arithmetic.
//!
//! **Invariant:** every separation computed here is bit-for-bit the one the slice-based
//! `max_separation` in [`polygon_polygon`](super::polygon_polygon) computes (same products,
//! same sums, same order) for finite input, so the padded and the general paths pick the same
//! axes.

use crate::math::Lanes;
use crate::shape::PaddedOutline;
use glam::{Vec4, Vec4Swizzles};

/// For each edge line `i` of `reference`: `min_j normal_i · vertex_j − normal_i · vertex_i`
/// over the vertices `j` of `other` (the separation of `other` from that line). The outlines
/// may have different chunk counts (`R` and `O`): each is read over its own padded length only.
///
/// Kept out of line on purpose: on its own it compiles to straight SIMD arithmetic, while
/// inlined next to the scalar arg-max LLVM's SLP vectoriser falls back to scalar code.
#[inline(never)]
fn separations<const R: usize, const O: usize>(
    reference: &PaddedOutline<R>,
    other: &PaddedOutline<O>,
) -> [Lanes; R] {
    let mut smallest = [Lanes::splat(f32::INFINITY); R];
    for j in 0..4 * O {
        let x = Lanes::splat(other.vertex_x[j / 4].0[j % 4]);
        let y = Lanes::splat(other.vertex_y[j / 4].0[j % 4]);
        for (k, lowest) in smallest.iter_mut().enumerate() {
            let d = reference.normal_x[k] * x + reference.normal_y[k] * y;
            *lowest = d.lesser(*lowest);
        }
    }
    let mut separation = smallest;
    for (k, value) in separation.iter_mut().enumerate() {
        let offset = reference.normal_x[k] * reference.vertex_x[k]
            + reference.normal_y[k] * reference.vertex_y[k];
        *value = *value - offset;
    }
    separation
}

/// The largest separation of `other` from the edge lines of `reference`, and its edge (the
/// first of equal ones); `(-∞, 0)` when every separation is NaN.
#[inline(always)]
pub(crate) fn max_separation_padded<const R: usize, const O: usize>(
    reference: &PaddedOutline<R>,
    other: &PaddedOutline<O>,
) -> (f32, usize) {
    first_largest(&separations(reference, other))
}

/// The largest of padded lane values and its index (the first of equal ones); `(-∞, 0)` when
/// every value is NaN: the answer of [`first_largest_scan`].
///
/// ```text
/// largest ← the lane-wise maximum of the chunks, then of the four lanes (two swaps)
/// index ← the first lane equal to it (one bit per lane); value ← that lane's own bits
/// ```
/// The scan keeps the first of equal values (also `-0.0` before `0.0`), and so does the first
/// lane equal to the maximum; `max` returns one of its operands, so some lane equals it. A NaN
/// (never larger in the scan, but taken by `max` in some orders) sends the values to the scan.
/// Written with four-lane vectors: the scan's eight dependent compare-and-select steps were
/// the longest chain of circle–polygon and of each separating-axis pass.
#[inline(always)]
pub(crate) fn first_largest<const C: usize>(values: &[Lanes; C]) -> (f32, usize) {
    let lanes: [Vec4; C] = std::array::from_fn(|k| Vec4::from_array(values[k].0));
    let mut unordered = lanes[0].is_nan_mask();
    for lane in &lanes[1..] {
        unordered |= lane.is_nan_mask();
    }
    if unordered.any() {
        return first_largest_scan(values);
    }
    let mut largest = lanes[0];
    for lane in &lanes[1..] {
        largest = largest.max(*lane);
    }
    let largest = largest.max(largest.zwxy());
    let largest = largest.max(largest.yxwz());
    let mut equal = 0u32;
    for (k, lane) in lanes.iter().enumerate() {
        equal |= lane.cmpeq(largest).bitmask() << (4 * k);
    }
    // Some lane equals the maximum, so a bit is set; the bound only spares a check.
    let index = (equal.trailing_zeros() as usize).min(4 * C - 1);
    // Read from memory: picking a vector lane by a varying index compiles to a jump table.
    (values[index / 4].0[index % 4], index)
}

/// [`first_largest`] by its definition: the scan over the lanes in order, keeping a value
/// when it is larger than the best so far (a NaN never is), from `(-∞, 0)`.
#[cold]
#[inline(never)]
pub(crate) fn first_largest_scan<const C: usize>(values: &[Lanes; C]) -> (f32, usize) {
    let mut best_value = f32::NEG_INFINITY;
    let mut best_index = 0;
    for i in 0..4 * C {
        let value = values[i / 4].0[i % 4];
        if value > best_value {
            best_value = value;
            best_index = i;
        }
    }
    (best_value, best_index)
}

/// For each edge `i` of `outline`: `normal_i · (point − vertex_i)`, the signed distance of
/// `point` from the edge line, with the arithmetic of `Vec2::dot` and `Vec2::sub` (in
/// four-lane vectors: the lane-by-lane form was left scalar once inlined).
#[inline(always)]
pub(crate) fn point_separations<const C: usize>(
    outline: &PaddedOutline<C>,
    point: crate::math::Vec2,
) -> [Lanes; C] {
    let (x, y) = (Vec4::splat(point.x), Vec4::splat(point.y));
    let lane = |lanes: Lanes| Vec4::from_array(lanes.0);
    std::array::from_fn(|k| {
        let separation = lane(outline.normal_x[k]) * (x - lane(outline.vertex_x[k]))
            + lane(outline.normal_y[k]) * (y - lane(outline.vertex_y[k]));
        Lanes(separation.to_array())
    })
}

/// The value of [`max_separation_padded`] without its edge (for the boolean overlap test).
#[inline(always)]
pub(crate) fn max_separation_value<const R: usize, const O: usize>(
    reference: &PaddedOutline<R>,
    other: &PaddedOutline<O>,
) -> f32 {
    max_separation_padded(reference, other).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Transform, Vec2};
    use crate::query::manifold::polygon_polygon::max_separation;
    use crate::shape::Polygon;

    use crate::query::manifold::test_numbers::Numbers;

    fn check<const C: usize>(a: &Polygon, b: &Polygon, b_in_a: &Transform) {
        check_mixed::<C, C>(a, b, b_in_a);
    }

    fn check_mixed<const CA: usize, const CB: usize>(a: &Polygon, b: &Polygon, b_in_a: &Transform) {
        let vertices_b: Vec<Vec2> = b.vertices().iter().map(|v| b_in_a.apply(*v)).collect();
        let normals_b: Vec<Vec2> = b.normals().iter().map(|n| b_in_a.rotate(*n)).collect();
        let slice_a = max_separation(a.vertices(), a.normals(), &vertices_b, f32::INFINITY);
        let slice_b = max_separation(&vertices_b, &normals_b, a.vertices(), f32::INFINITY);
        let outline_a = PaddedOutline::<CA>::new(a.vertices(), a.normals());
        let outline_b = PaddedOutline::<CB>::new(b.vertices(), b.normals()).transformed(b_in_a);
        assert_eq!(max_separation_padded(&outline_a, &outline_b), slice_a);
        assert_eq!(max_separation_padded(&outline_b, &outline_a), slice_b);
        assert_eq!(max_separation_value(&outline_a, &outline_b), slice_a.0);
        assert_eq!(max_separation_value(&outline_b, &outline_a), slice_b.0);
    }

    #[test]
    fn first_largest_is_the_scan_bit_for_bit() {
        // Ties, signed zeros, infinities and NaN in every position, one and two chunks.
        let pool = [
            0.0,
            -0.0,
            1.5,
            -1.5,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
        ];
        let mut numbers = Numbers(0x0ddb_a11c_afe5_eed5);
        for _ in 0..20_000 {
            let mut pick = || pool[(numbers.unit() * pool.len() as f32) as usize % pool.len()];
            let two = [
                Lanes([pick(), pick(), pick(), pick()]),
                Lanes([pick(), pick(), pick(), pick()]),
            ];
            let one = [two[1]];
            let bits = |(value, index): (f32, usize)| (value.to_bits(), index);
            assert_eq!(
                bits(first_largest(&two)),
                bits(first_largest_scan(&two)),
                "{two:?}"
            );
            assert_eq!(
                bits(first_largest(&one)),
                bits(first_largest_scan(&one)),
                "{one:?}"
            );
        }
    }

    #[test]
    fn padded_kernel_matches_the_slice_loops() {
        let mut numbers = Numbers(0x1234_5678_9abc_def1);
        for round in 0..4000 {
            let sides_a = 3 + round % 6;
            let sides_b = 3 + (round / 6) % 6;
            let a = Polygon::regular(sides_a, 0.1 + numbers.unit() * 3.0).unwrap();
            let b = Polygon::regular(sides_b, 0.1 + numbers.unit() * 3.0).unwrap();
            let b_in_a = Transform::new(
                Vec2::new(numbers.unit() * 8.0 - 4.0, numbers.unit() * 8.0 - 4.0),
                numbers.unit() * std::f32::consts::TAU,
            );
            if sides_a.max(sides_b) <= 4 {
                check::<1>(&a, &b, &b_in_a);
            }
            if sides_a <= 4 {
                check_mixed::<1, 2>(&a, &b, &b_in_a);
            }
            if sides_b <= 4 {
                check_mixed::<2, 1>(&a, &b, &b_in_a);
            }
            check::<2>(&a, &b, &b_in_a);
        }
    }
}
