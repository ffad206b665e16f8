//! Anything against a compound: every pair of children whose bounding boxes meet, and the
//! contacts of a convex shape with the compound's surface.
//!
//! A child's contact may push along a face the child shares with a neighbour (a box split in
//! two, the pieces of [`Compound::from_concave`], a row of tiles), which is inside the union:
//! a ghost normal. [`for_each_surface_contact`] checks each child pair's normal against the
//! union's surface, found once when the compound is built (see `shape/compound_seams.rs`):
//!
//! ```text
//! for each child pair manifold m (normal n from the convex shape A to the child):
//!     -n within 0.11° of an outer face's normal of the child:
//!         the face contact over the face's whole flat run across children (A's surface
//!         under its incident feature clipped to the run), or m when nothing of A is over it
//!     -n a covered face's normal, or off a vertex outside the union's normals there:
//!         left out; its replacement kept: the smallest face contact over the runs of the
//!         child's outer faces that have A's centroid in front (any outer face when the
//!         centroid is inside the compound)
//!     else: m, less a point whose place on the child is inside the union (A's face clipped
//!         against a shared face of the child)
//! when every child pair was left out: the deepest replacement, else the deepest of them as
//! they came (a contact is never lost)
//! ```
//!
//! Compounds without covered faces take the plain child pairs at no extra cost.

use crate::math::Transform;
use crate::query::manifold::chain::face_manifold;
use crate::query::manifold::{contacts_convex_local, finish_local, placement_in_a};
use crate::query::Manifold;
use crate::shape::{Aabb, Admission, Compound, Shape};

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

/// Calls `visit` with each contact of `a` against compound `b` as a contact with the union's
/// surface (see the module docs), in A's frame with `child_a`/`child_b` set, until `visit`
/// returns `false`: the child pairs of [`for_each_child_pair`], with the normals of faces
/// inside the compound replaced and face contacts spanning flat runs across children.
///
/// A compound `a` against a compound takes the plain child pairs.
pub(crate) fn for_each_surface_contact(
    a: &Shape,
    b: &Shape,
    b_in_a: &Transform,
    margin: f32,
    visit: &mut dyn FnMut(Manifold) -> bool,
) {
    let Shape::Compound(compound) = b else {
        return;
    };
    let Some(seams) = compound.seams() else {
        return for_each_child_pair(a, b, b_in_a, margin, visit);
    };
    if matches!(a, Shape::Compound(_)) {
        return for_each_child_pair(a, b, b_in_a, margin, visit);
    }
    let a_in_b = b_in_a.inv();
    let centroid = a_in_b.apply(a.centroid());
    let centroid_inside = compound.contains(&Transform::IDENTITY, centroid);
    let mut visited = false;
    // The deepest replacement of a contact along an inside normal, and the deepest such
    // contact as it came: the answers when no child pair has a normal of the union.
    let mut deepest_replaced: Option<Manifold> = None;
    let mut deepest_left_out: Option<Manifold> = None;
    let deeper = |candidate: &Manifold, kept: &Option<Manifold>| {
        kept.is_none_or(|k| candidate.max_penetration() > k.max_penetration())
    };
    let mut go_on = true;
    for_each_child_pair(a, b, b_in_a, margin, &mut |manifold| {
        let child = manifold.child_b as usize;
        let outward = a_in_b.rotate(-manifold.normal);
        let surface = match seams.admit(child, outward) {
            Admission::Keep => Some(on_surface(manifold, compound, child, &a_in_b, outward)),
            Admission::Run(face) => {
                let run = run_contact(face.run, face.normal, a, &a_in_b, b_in_a, margin, child);
                Some(if run.is_empty() { manifold } else { run })
            }
            Admission::Inside => {
                let replaced = seams
                    .outer_faces(child)
                    .filter(|face| {
                        centroid_inside || (centroid - face.run.0).dot(face.normal) > 0.0
                    })
                    .map(|face| {
                        run_contact(face.run, face.normal, a, &a_in_b, b_in_a, margin, child)
                    })
                    .filter(|m| !m.is_empty())
                    .min_by(|x, y| x.max_penetration().total_cmp(&y.max_penetration()));
                match replaced {
                    Some(m) if deeper(&m, &deepest_replaced) => deepest_replaced = Some(m),
                    Some(_) => {}
                    None if deeper(&manifold, &deepest_left_out) => {
                        deepest_left_out = Some(manifold)
                    }
                    None => {}
                }
                None
            }
        };
        match surface {
            Some(m) => {
                visited = true;
                go_on = visit(m);
                go_on
            }
            None => true,
        }
    });
    if go_on && !visited {
        if let Some(manifold) = deepest_replaced.or(deepest_left_out) {
            visit(manifold);
        }
    }
}

/// A child pair's manifold (A's frame) whose normal is the union's, without its points whose
/// place on the child's surface is inside the union (on a face the child shares; in the
/// compound's frame by `a_in_b`, `outward` the child's normal there): a face of A clipped
/// against a shared face of the child. Unchanged when that would leave no point.
fn on_surface(
    manifold: Manifold,
    compound: &Compound,
    child: usize,
    a_in_b: &Transform,
    outward: crate::math::Vec2,
) -> Manifold {
    if manifold.count < 2 {
        return manifold;
    }
    let inside = |index: usize| {
        let p = manifold.points[index];
        let on_child = p.point - manifold.normal * (0.5 * p.penetration);
        compound.inside_union(child, a_in_b.apply(on_child), outward)
    };
    match (inside(0), inside(1)) {
        (false, false) | (true, true) => manifold,
        (first, _) => {
            let mut kept = manifold;
            kept.count = 1;
            if first {
                kept.points[0] = manifold.points[1];
            }
            kept
        }
    }
}

/// The face contact of convex `a` (placed by `a_in_b` in the compound's frame) against the
/// flat run `start → end` with outward `normal` of child `child`, in A's frame (compound `b`
/// placed by `b_in_a`), turned round so that its normal points from A to the compound.
fn run_contact(
    (start, end): (crate::math::Vec2, crate::math::Vec2),
    normal: crate::math::Vec2,
    a: &Shape,
    a_in_b: &Transform,
    b_in_a: &Transform,
    margin: f32,
    child: usize,
) -> Manifold {
    let in_b = face_manifold(start, end, normal, a, a_in_b, margin);
    if in_b.is_empty() {
        return Manifold::EMPTY;
    }
    let mut manifold = finish_local(in_b, b_in_a).swapped();
    manifold.child_a = 0;
    manifold.child_b = child as u32;
    manifold
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
