//! Circle against convex polygon (sharp or rounded), by Voronoi regions.

use crate::math::{Transform, Vec2};
use crate::query::manifold::core_shape::CoreShape;
use crate::query::manifold::sat::{first_largest, point_separations};
use crate::query::manifold::{mirror_local, rounded_points_contact};
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
use crate::shape::{Circle, Polygon};

/// Circle A against polygon B, in A's frame.
///
/// Computed in the polygon's frame (one point to move instead of the whole outline), then
/// brought back into A's frame.
#[inline]
pub(crate) fn collide_circle_polygon(
    circle: &Circle,
    polygon: &Polygon,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    rounded_point_polygon(circle.center(), circle.radius(), polygon, b_in_a, margin)
}

/// A rounded point (A, centre in A's frame) against polygon B, in A's frame.
#[inline]
pub(crate) fn rounded_point_polygon(
    center: Vec2,
    radius: f32,
    polygon: &Polygon,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    let center_in_b = b_in_a.apply_inv(center);
    let in_b =
        core_against_rounded_point(&CoreShape::of_polygon(polygon), center_in_b, radius, margin);
    mirror_local(in_b, b_in_a)
}

/// A core (as A) against a rounded point (as B), both in the core's frame.
///
/// ```text
/// s, i = max over edges of n_i · (c − v_i)          (the edge facing the centre)
/// s <= 0: centre inside the core -> push out through edge i
/// else by Voronoi region of edge i: before v_i -> vertex i, after v_i+1 -> vertex i+1,
///      otherwise edge i; apart when the distance exceeds rA + rB + margin
/// ```
/// Ericson, *Real-Time Collision Detection*, §5.2.3 (the largest-separation edge is adjacent to
/// the closest feature of a convex polygon).
pub(crate) fn core_against_rounded_point(
    core: &CoreShape<'_>,
    center: Vec2,
    radius: f32,
    margin: f32,
) -> Manifold {
    // 1. The edge of largest separation (in padded lanes when the outline has them: padding
    //    repeats edge 0, which cannot win a first-strictly-greater maximum).
    let count = core.vertices.len();
    let (separation, edge) = match core.padded {
        Some(padded) if count <= 4 => {
            first_largest(&point_separations(&padded.narrowed::<1>(), center))
        }
        Some(padded) => first_largest(&point_separations(padded, center)),
        None => {
            let mut separation = f32::NEG_INFINITY;
            let mut edge = 0;
            for i in 0..count {
                let s = core.normals[i].dot(center - core.vertices[i]);
                if s > separation {
                    separation = s;
                    edge = i;
                }
            }
            (separation, edge)
        }
    };
    let total_radius = core.radius + radius;
    if separation - total_radius > margin {
        return Manifold::EMPTY;
    }

    // 2. Outside the core: vertex regions at either end of the edge.
    if separation > 0.0 {
        let next = if edge + 1 == count { 0 } else { edge + 1 };
        let v1 = core.vertices[edge];
        let v2 = core.vertices[next];
        let vertex = if (center - v1).dot(v2 - v1) <= 0.0 {
            Some(edge)
        } else if (center - v2).dot(v1 - v2) <= 0.0 {
            Some(next)
        } else {
            None
        };
        if let Some(k) = vertex {
            return rounded_points_contact(
                core.vertices[k],
                core.radius,
                center,
                radius,
                margin,
                FeatureId {
                    a: Feature::Vertex(k as u8),
                    b: Feature::Vertex(0),
                },
                core.normals[edge],
            );
        }
    }

    // 3. Face region (or centre inside the core): push out through the edge.
    let normal = core.normals[edge];
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    manifold.count = 1;
    manifold.points[0] = ContactPoint {
        point: center + normal * (0.5 * (core.radius - radius - separation)),
        penetration: total_radius - separation,
        id: FeatureId {
            a: core.edge_feature(edge),
            b: Feature::Vertex(0),
        },
    };
    manifold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::manifold::test_numbers::{
        all_manifold_bits, manifold_bits, round_polygon, Numbers,
    };

    /// The manifold with the scalar edge loop: the outline without its padded lanes.
    fn scalar(polygon: &Polygon, center: Vec2, radius: f32, margin: f32) -> Manifold {
        let core = CoreShape {
            padded: None,
            ..CoreShape::of_polygon(polygon)
        };
        core_against_rounded_point(&core, center, radius, margin)
    }

    #[test]
    fn polygon_circle_order_is_the_swapped_circle_polygon_bit_for_bit() {
        use crate::shape::Shape;
        let mut numbers = Numbers(0x1f83_d9ab_fb41_bd6b);
        for round in 0..20_000 {
            let polygon = round_polygon(&mut numbers, round, 3 + round % 8);
            let polygon = Shape::from(polygon);
            let circle = Shape::from(Circle::with_radius(0.05 + numbers.unit()).unwrap());
            let place = |numbers: &mut Numbers| {
                Transform::new(
                    Vec2::new(numbers.unit() * 3.0 + 40.0, numbers.unit() * 3.0 - 7.0),
                    numbers.unit() * std::f32::consts::TAU,
                )
            };
            let (xf_p, xf_c) = (place(&mut numbers), place(&mut numbers));
            let margin = if round % 2 == 0 { 0.0 } else { 0.1 };
            let direct = crate::collide_speculative(&polygon, &xf_p, &circle, &xf_c, margin);
            let swapped =
                crate::collide_speculative(&circle, &xf_c, &polygon, &xf_p, margin).swapped();
            assert_eq!(
                all_manifold_bits(&direct),
                all_manifold_bits(&swapped),
                "round {round}"
            );
        }
    }

    #[test]
    fn padded_edge_search_matches_the_scalar_loop_bit_for_bit() {
        let mut numbers = Numbers(0x7f4a_7c15_9e37_79b9);
        for round in 0..20_000 {
            let polygon = round_polygon(&mut numbers, round, 3 + round % 8);
            let mut center = Vec2::new(numbers.unit() * 4.0 - 2.0, numbers.unit() * 4.0 - 2.0);
            if round % 7 == 0 {
                center = (center * 4.0).round() * 0.25;
            }
            let radius = numbers.unit() * 0.5;
            let margin = if round % 2 == 0 { 0.0 } else { 0.1 };
            let core = CoreShape::of_polygon(&polygon);
            let got = core_against_rounded_point(&core, center, radius, margin);
            let expected = scalar(&polygon, center, radius, margin);
            assert_eq!(
                manifold_bits(&got),
                manifold_bits(&expected),
                "round {round}"
            );
        }
    }
}
