//! The separating-axis kernel for small outlines, padded to whole four-lane chunks (see
//! [`PaddedOutline`]) so that its loops unroll into SIMD arithmetic.
//!
//! **Invariant:** every separation computed here is bit-for-bit the one the slice-based
//! `max_separation` in [`polygon_polygon`](super::polygon_polygon) computes (same products,
//! same sums, same order) for finite input, so the padded and the general paths pick the same
//! axes.

use crate::math::Lanes;
use crate::shape::PaddedOutline;

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
/// every value is NaN.
#[inline(always)]
pub(crate) fn first_largest<const C: usize>(values: &[Lanes; C]) -> (f32, usize) {
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
/// `point` from the edge line, with the arithmetic of `Vec2::dot` and `Vec2::sub`.
#[inline(always)]
pub(crate) fn point_separations<const C: usize>(
    outline: &PaddedOutline<C>,
    point: crate::math::Vec2,
) -> [Lanes; C] {
    let (x, y) = (Lanes::splat(point.x), Lanes::splat(point.y));
    std::array::from_fn(|k| {
        outline.normal_x[k] * (x - outline.vertex_x[k])
            + outline.normal_y[k] * (y - outline.vertex_y[k])
    })
}

/// The value of [`max_separation_padded`] without its edge (for the boolean overlap test).
#[inline(always)]
pub(crate) fn max_separation_value<const R: usize, const O: usize>(
    reference: &PaddedOutline<R>,
    other: &PaddedOutline<O>,
) -> f32 {
    let separation = separations(reference, other);
    let mut best_separation = f32::NEG_INFINITY;
    for i in 0..4 * R {
        let value = separation[i / 4].0[i % 4];
        best_separation = if value > best_separation {
            value
        } else {
            best_separation
        };
    }
    best_separation
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
