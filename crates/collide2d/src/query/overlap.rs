//! Boolean overlap tests.
//!
//! **Invariant:** `overlaps(a, xa, b, xb) == !collide(a, xa, b, xb).is_empty()` for every input.
//! Each fast path below runs the very arithmetic the manifold code uses for its apart/touching
//! decision (the same functions), and falls through to the manifold wherever it cannot decide.

use crate::math::Transform;
use crate::query::manifold::polygon_polygon::overlap_polygon_like;
use crate::query::manifold::{
    any_child_pair_overlaps, collide_circle_circle_world, contacts_convex_local,
    for_each_chain_contact, rank, same_kind_swapped,
};
use crate::shape::Shape;

/// Whether two placed shapes overlap; touching counts.
///
/// Always equal to `!collide(a, xf_a, b, xf_b).is_empty()`, only cheaper where it can be.
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
pub fn overlaps(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> bool {
    if let (Shape::Circle(circle_a), Shape::Circle(circle_b)) = (a, b) {
        return !collide_circle_circle_world(circle_a, xf_a, circle_b, xf_b, 0.0).is_empty();
    }
    // The same order as the manifold path, so both make the identical decision.
    if rank(a) > rank(b) || (rank(a) == rank(b) && same_kind_swapped(a, xf_a, b, xf_b)) {
        return overlaps(b, xf_b, a, xf_a);
    }
    if let Shape::Chain(chain) = b {
        let mut found = false;
        for_each_chain_contact(chain, a, &xf_b.inv_mul(xf_a), 0.0, &mut |_| {
            found = true;
            false
        });
        return found;
    }
    let b_in_a = xf_a.inv_mul(xf_b);
    match b {
        Shape::Compound(_) => any_child_pair_overlaps(a, b, &b_in_a),
        Shape::Polygon(polygon) => overlap_polygon_like(a, polygon, &b_in_a),
        _ => !contacts_convex_local(a, b, &b_in_a, 0.0).is_empty(),
    }
}
