//! Boolean overlap tests.
//!
//! **Invariant:** `overlaps(a, xa, b, xb) == !collide(a, xa, b, xb).is_empty()` for every input.
//! Each fast path below runs the very arithmetic the manifold code uses for its apart/touching
//! decision (the same functions), and falls through to the manifold wherever it cannot decide.

use crate::math::{both_valid, Transform};
use crate::query::manifold::box_box::overlap_box_box;
use crate::query::manifold::polygon_polygon::overlap_polygon_like;
use crate::query::manifold::{
    any_child_pair_overlaps, circles_overlap, contacts_convex_local, for_each_chain_contact,
    placement_in_a, rank, same_kind_swapped,
};
use crate::shape::Shape;

/// Whether two placed shapes overlap; touching counts.
///
/// Always equal to `!collide(a, xf_a, b, xf_b).is_empty()`, only cheaper where it can be:
/// `false` when either transform is not [valid](Transform::is_valid).
///
/// ```
/// use collide2d::{overlaps, shape::{Capsule, Polygon, Shape}, Transform, Vec2};
/// let wall = Shape::from(Polygon::rect(1.0, 4.0)?);
/// let pill = Shape::from(Capsule::vertical(2.0, 0.5)?);
/// let near = Transform::new(Vec2::new(1.0, 0.0), 0.0); // surfaces exactly touch
/// assert!(overlaps(&wall, &Transform::IDENTITY, &pill, &near));
/// let far = Transform::new(Vec2::new(1.01, 0.0), 0.0);
/// assert!(!overlaps(&wall, &Transform::IDENTITY, &pill, &far));
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[inline]
pub fn overlaps(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> bool {
    if !both_valid(xf_a, xf_b) {
        return false;
    }
    overlaps_of_valid(a, xf_a, b, xf_b)
}

/// [`overlaps`] for transforms the caller has already found
/// [valid](Transform::is_valid) (the world checks every placement when it is set).
#[inline(always)]
pub(crate) fn overlaps_of_valid(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> bool {
    match (a, b) {
        (Shape::Circle(circle_a), Shape::Circle(circle_b)) => {
            circles_overlap(circle_a, xf_a, circle_b, xf_b)
        }
        (Shape::Polygon(polygon_a), Shape::Polygon(polygon_b)) => {
            match (polygon_a.box_half_extents(), polygon_b.box_half_extents()) {
                // The manifold's canonical order, so both make the identical decision.
                (Some(half_a), Some(half_b)) => {
                    if same_kind_swapped(a, xf_a, b, xf_b) {
                        overlap_box_box(polygon_b, half_b, polygon_a, half_a, &xf_b.inv_mul(xf_a))
                    } else {
                        overlap_box_box(polygon_a, half_a, polygon_b, half_b, &xf_a.inv_mul(xf_b))
                    }
                }
                _ => overlaps_general(a, xf_a, b, xf_b),
            }
        }
        _ => overlaps_general(a, xf_a, b, xf_b),
    }
}

/// [`overlaps`] for every pair but circle–circle and box–box.
fn overlaps_general(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> bool {
    // The same order as the manifold path, so both make the identical decision.
    if rank(a) > rank(b) || (rank(a) == rank(b) && same_kind_swapped(a, xf_a, b, xf_b)) {
        return overlaps_general(b, xf_b, a, xf_a);
    }
    if let Shape::Chain(chain) = b {
        let mut found = false;
        for_each_chain_contact(chain, a, &placement_in_a(xf_b, xf_a), 0.0, &mut |_| {
            found = true;
            false
        });
        return found;
    }
    let b_in_a = placement_in_a(xf_a, xf_b);
    match b {
        Shape::Compound(_) => any_child_pair_overlaps(a, b, &b_in_a),
        Shape::Polygon(polygon) => overlap_polygon_like(a, polygon, &b_in_a),
        _ => !contacts_convex_local(a, b, &b_in_a, 0.0).is_empty(),
    }
}
