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
//!         left out
//!     else: m, less a point whose place on the child is inside the union (A's face clipped
//!         against a shared face of the child)
//! answer: the deepest of those kept; when none is kept or a left-out one is deeper (the
//!     kept one would understate the overlap), the exact smallest push of A out of the union
//!     (`union_push.rs`), with the face contact over a flat run when the push is along an
//!     outer face and reaches as deep, else a child pair's manifold along it, else one point
//! ```
//!
//! The push is exact for concave unions too: A sunk into the side of a wall standing on a
//! floor goes out sideways (or into the corner), never over the wall's top.
//!
//! Compounds without covered faces take the plain child pairs at no extra cost.

use crate::math::{cross, Transform, Vec2};
use crate::query::manifold::chain::face_manifold;
use crate::query::manifold::union_push::{smallest_push, Push, Region};
use crate::query::manifold::{contacts_convex_local, finish_local, placement_in_a, FACE_TOLERANCE};
use crate::query::support::ConvexProxy;
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
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

/// Calls `visit` with the contact of `a` against compound `b` as a contact with the union's
/// surface (see the module docs), in A's frame with `child_a`/`child_b` set; not at all when
/// they are apart. Without seams, or for a compound `a`, every child pair of
/// [`for_each_child_pair`] instead (the caller keeps the deepest).
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
    let mut deepest_kept: Option<Manifold> = None;
    // Every child pair as it came (for the points of the union's push), and the deepest of
    // those left out.
    let mut pairs: Vec<Manifold> = Vec::new();
    let mut deepest_left_out: Option<Manifold> = None;
    let deeper = |candidate: &Manifold, kept: &Option<Manifold>| {
        kept.is_none_or(|k| candidate.max_penetration() > k.max_penetration())
    };
    for_each_child_pair(a, b, b_in_a, margin, &mut |manifold| {
        pairs.push(manifold);
        let child = manifold.child_b as usize;
        let outward = a_in_b.rotate(-manifold.normal);
        let surface = match seams.admit(child, outward, super::FACE_TOLERANCE) {
            Admission::Keep => Some(on_surface(manifold, compound, child, &a_in_b, outward)),
            Admission::Run(face) => {
                let run = run_contact(face.run, face.normal, a, &a_in_b, b_in_a, margin, child);
                Some(if run.is_empty() { manifold } else { run })
            }
            Admission::Inside => {
                if deeper(&manifold, &deepest_left_out) {
                    deepest_left_out = Some(manifold);
                }
                None
            }
        };
        if let Some(m) = surface {
            if deeper(&m, &deepest_kept) {
                deepest_kept = Some(m);
            }
        }
        true
    });
    // A kept contact shallower than a left-out one would understate the overlap: the push out
    // of the union then (at least as deep as every child pair).
    let kept_enough = match (&deepest_kept, &deepest_left_out) {
        (Some(kept), Some(left_out)) => kept.max_penetration() >= left_out.max_penetration(),
        (Some(_), None) => true,
        (None, _) => false,
    };
    let union = Against {
        compound,
        seams,
        a,
        a_in_b: &a_in_b,
        b_in_a,
        margin,
    };
    // A kept contact as deep as every left-out one stands (its normal is the union's).
    let answer = if kept_enough {
        deepest_kept
    } else {
        match union.exact_push() {
            Some((push, (near, extent))) => {
                let tolerance = 1e-5 * (1.0 + push.depth + extent);
                Some(union.contact_along(&push, &near, tolerance, &pairs))
            }
            // Touching or within the margin only: a kept contact rather than a seam's.
            None => deepest_kept.or(deepest_left_out),
        }
    };
    if let Some(manifold) = answer {
        visit(manifold);
    }
}

/// A convex shape A against a compound with seams, for the push out of the union.
struct Against<'a> {
    compound: &'a Compound,
    seams: &'a crate::shape::Seams,
    a: &'a Shape,
    a_in_b: &'a Transform,
    b_in_a: &'a Transform,
    margin: f32,
}

impl Against<'_> {
    /// The exact smallest push of A out of the union (see `union_push.rs`), compound frame,
    /// with the children it was found among and A's extent; `None` when A overlaps no child
    /// (touching or apart).
    fn exact_push(&self) -> Option<(Push, (Vec<usize>, f32))> {
        let proxy_a = ConvexProxy::from_shape(self.a)?;
        let core_a: Vec<Vec2> = proxy_a
            .points()
            .iter()
            .map(|p| self.a_in_b.apply(*p))
            .collect();
        let region = |k: usize| {
            let (xf, child) = &self.compound.children()[k];
            let proxy = ConvexProxy::from_shape(child)?;
            let core: Vec<Vec2> = proxy.points().iter().map(|p| xf.apply(*p)).collect();
            Some(Region::new(
                &core,
                &core_a,
                proxy.radius() + proxy_a.radius(),
            ))
        };
        let bounds = culling_box(self.a, self.a_in_b, 0.0);
        let near_of = |moved: &Aabb| -> Vec<usize> {
            self.compound
                .child_aabbs()
                .iter()
                .enumerate()
                .filter(|(_, aabb)| aabb.overlaps(moved))
                .map(|(k, _)| k)
                .collect()
        };
        // The children near A where it is, then also those near where the push takes it,
        // until the push ends clear of them all: a child A does not reach yet may stand in
        // the way (a push out of the union of some children that ends outside the others is
        // the push out of them all).
        let mut near = near_of(&bounds);
        loop {
            let regions: Vec<Region> = near.iter().filter_map(|&k| region(k)).collect();
            if regions.len() != near.len() {
                return None;
            }
            let push = smallest_push(&regions)?;
            let t = push.translation;
            let moved = Aabb {
                min: bounds.min + t,
                max: bounds.max + t,
            };
            let mut grown = near.clone();
            for k in near_of(&moved) {
                if !grown.contains(&k) {
                    grown.push(k);
                }
            }
            if grown.len() == near.len() {
                return Some((push, (near, bounds.extents().max_element())));
            }
            grown.sort_unstable();
            near = grown;
        }
    }

    /// The contact of A with the union along its exact push (`near`: the children it was
    /// found among), in A's frame: the face contact over a flat run of outer faces when the
    /// push is along one and reaches as deep (within `tolerance`), else a child pair's manifold
    /// along the push as deep (`pairs`, A's frame), else one point where A and the child touch
    /// once pushed out.
    fn contact_along(
        &self,
        push: &Push,
        near: &[usize],
        tolerance: f32,
        pairs: &[Manifold],
    ) -> Manifold {
        let (n, depth) = (push.normal, push.depth);
        let child = near[push.region];
        let along =
            |outward: Vec2| cross(outward, n).abs() <= FACE_TOLERANCE && outward.dot(n) > 0.0;
        // A face of the union along the push: its contact over the whole flat run.
        for &k in near {
            for face in self.seams.outer_faces(k) {
                if !along(face.normal) {
                    continue;
                }
                let run = run_contact(
                    face.run,
                    face.normal,
                    self.a,
                    self.a_in_b,
                    self.b_in_a,
                    self.margin,
                    k,
                );
                if !run.is_empty() && (run.max_penetration() - depth).abs() <= tolerance {
                    return run;
                }
            }
        }
        // A child pair along the push, as deep.
        if let Some(pair) = pairs.iter().find(|m| {
            along(self.a_in_b.rotate(-m.normal)) && (m.max_penetration() - depth).abs() <= tolerance
        }) {
            return *pair;
        }
        // One point, midway between the child's surface and A's where they touch once A is
        // pushed out.
        let (child_core, a_core) = push.cores;
        let radius = |shape: &Shape| ConvexProxy::from_shape(shape).map_or(0.0, |p| p.radius());
        let on_child = child_core + n * radius(&self.compound.children()[child].1);
        let on_a = a_core - n * radius(self.a);
        let contact = ContactPoint {
            point: 0.5 * (on_child + on_a),
            penetration: depth,
            id: FeatureId {
                a: Feature::Edge(0),
                b: Feature::Vertex(0),
            },
        };
        self.placed(Manifold::one_point(n, contact), child)
    }

    /// A manifold in the compound's frame (normal from the compound to A) turned into A's
    /// frame and view, on child `child`.
    fn placed(&self, manifold: Manifold, child: usize) -> Manifold {
        let mut placed = finish_local(manifold, self.b_in_a).swapped();
        placed.child_a = 0;
        placed.child_b = child as u32;
        placed
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
    outward: Vec2,
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
    (start, end): (Vec2, Vec2),
    normal: Vec2,
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
