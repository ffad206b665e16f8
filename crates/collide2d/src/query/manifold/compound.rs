//! Anything against a compound: every pair of children whose bounding boxes meet.

use crate::math::Transform;
use crate::query::manifold::{contacts_convex_local, finish_local, placement_in_a};
use crate::query::Manifold;
use crate::shape::{Aabb, Compound, Shape};

/// Calls `visit` with each non-empty child-pair manifold of `a` against compound `b`, in A's
/// frame with `child_a`/`child_b` set, until `visit` returns `false`.
///
/// `a` may itself be a compound. Child pairs are culled by bounding boxes grown by the margin
/// (and a small relative slack, so that culling never drops a touching pair).
pub(crate) fn for_each_child_pair(
    a: &Shape,
    b: &Shape,
    b_in_a: &Transform,
    margin: f32,
    visit: &mut dyn FnMut(Manifold) -> bool,
) {
    let Shape::Compound(compound_b) = b else {
        return;
    };
    let a_in_b = b_in_a.inv();
    match a {
        Shape::Compound(compound_a) => {
            for (index_a, (child_a_xf, child_a)) in compound_a.children().iter().enumerate() {
                let bounds = culling_box(child_a, &a_in_b.mul(child_a_xf), margin);
                let go_on =
                    for_each_child_near(compound_b, &bounds, |index_b, child_b_xf, child_b| {
                        let b_in_child_a = placement_in_a(child_a_xf, &b_in_a.mul(child_b_xf));
                        let in_child_a =
                            contacts_convex_local(child_a, child_b, &b_in_child_a, margin);
                        if in_child_a.is_empty() {
                            return true;
                        }
                        let mut manifold = finish_local(in_child_a, child_a_xf);
                        manifold.child_a = index_a as u32;
                        manifold.child_b = index_b;
                        visit(manifold)
                    });
                if !go_on {
                    return;
                }
            }
        }
        _ => {
            let bounds = culling_box(a, &a_in_b, margin);
            for_each_child_near(compound_b, &bounds, |index_b, child_b_xf, child_b| {
                let mut manifold =
                    contacts_convex_local(a, child_b, &b_in_a.mul(child_b_xf), margin);
                if manifold.is_empty() {
                    return true;
                }
                manifold.child_a = 0;
                manifold.child_b = index_b;
                visit(manifold)
            });
        }
    }
}

/// Calls `visit` with the index, placement and shape of each child of `compound` whose box
/// overlaps `bounds` (in the compound's frame), in order, until `visit` returns `false`;
/// returns `false` when it stopped so.
#[inline(always)]
fn for_each_child_near(
    compound: &Compound,
    bounds: &Aabb,
    mut visit: impl FnMut(u32, &Transform, &Shape) -> bool,
) -> bool {
    for (index, ((child_xf, child), child_aabb)) in compound
        .children()
        .iter()
        .zip(compound.child_aabbs())
        .enumerate()
    {
        if child_aabb.overlaps(bounds) && !visit(index as u32, child_xf, child) {
            return false;
        }
    }
    true
}

/// Whether any child pair of `a` against compound `b` overlaps; the same culling and per-pair
/// decisions as [`for_each_child_pair`] with a zero margin.
pub(crate) fn any_child_pair_overlaps(a: &Shape, b: &Shape, b_in_a: &Transform) -> bool {
    let mut found = false;
    for_each_child_pair(a, b, b_in_a, 0.0, &mut |_| {
        found = true;
        false
    });
    found
}

/// The bounding box of a convex shape placed by `xf`, grown by the margin plus a relative slack.
#[inline]
pub(crate) fn culling_box(shape: &Shape, xf: &Transform, margin: f32) -> Aabb {
    let aabb = shape.aabb(xf);
    let magnitude = aabb.min.abs().max(aabb.max.abs()).max_element();
    aabb.expanded(
        margin.max(0.0) + 1e-4 * (aabb.extents().max_element() + 1e-3 * magnitude) + 1e-30,
    )
}
