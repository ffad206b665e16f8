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
//! kept one would understate the overlap), the smallest push
//! of A out of the union among the candidate directions: the left-out normals, A's face
//! normals, the directions from the near children's vertices to a round A's core (each
//! pushed by the overlap of A's and the near children's projections on it), and the outer
//! face normals near A (their face contact over the run when it reaches as deep)
//! ```
//!
//! For a compound tiling a convex polygon that is the polygon's answer (the sweeps of
//! `tests/it/compound_seams.rs`); where the union is concave, a push measured by projections
//! may be larger than the union needs (A could pass beside a child).
//!
//! Compounds without covered faces take the plain child pairs at no extra cost.

use crate::math::{Transform, Vec2};
use crate::query::manifold::chain::face_manifold;
use crate::query::manifold::{contacts_convex_local, finish_local, placement_in_a};
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
    // The normals of the child pairs left out, and the deepest of those as it came: the
    // answers when no child pair has a normal of the union.
    let mut inside_normals: Vec<Vec2> = Vec::new();
    let mut deepest_left_out: Option<Manifold> = None;
    let deeper = |candidate: &Manifold, kept: &Option<Manifold>| {
        kept.is_none_or(|k| candidate.max_penetration() > k.max_penetration())
    };
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
                inside_normals.push(outward);
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
    // of the union then (at least as deep as every child pair near A).
    let kept_enough = match (&deepest_kept, &deepest_left_out) {
        (Some(kept), Some(left_out)) => kept.max_penetration() >= left_out.max_penetration(),
        (Some(_), None) => true,
        (None, _) => false,
    };
    if kept_enough {
        if let Some(manifold) = deepest_kept {
            visit(manifold);
        }
    } else if !inside_normals.is_empty() {
        let union = Against {
            compound,
            seams,
            a,
            a_in_b: &a_in_b,
            b_in_a,
            margin,
        };
        let pushed = union.smallest_push(&inside_normals);
        if let Some(manifold) = pushed.or(deepest_left_out) {
            visit(manifold);
        }
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
    /// The smallest push of A out of the union among candidate directions (compound frame,
    /// outward): the normals of the child pairs left out, A's own face normals and, for a
    /// circle or capsule, the directions from the near children's vertices to A's core, pushed by
    /// how far the children near A reach past A along them (the projections' overlap), and
    /// the normals of the outer faces near A, with their face contact over the run where it
    /// reaches as deep. `None` when no direction leaves A within the margin.
    fn smallest_push(&self, inside_normals: &[Vec2]) -> Option<Manifold> {
        let proxy_a = ConvexProxy::from_shape(self.a)?;
        let bounds = culling_box(self.a, self.a_in_b, self.margin);
        let near: Vec<usize> = self
            .compound
            .child_aabbs()
            .iter()
            .enumerate()
            .filter(|(_, aabb)| aabb.overlaps(&bounds))
            .map(|(i, _)| i)
            .collect();
        // How far A reaches along -d, and the point that does.
        let reach_a = |d: Vec2| {
            let index = proxy_a.support_index(self.a_in_b.rotate_inv(-d));
            let point = self.a_in_b.apply(proxy_a.point(index)) - d * proxy_a.radius();
            (-d.dot(point), point, index)
        };
        // How far the children near A reach along d, the point and child that do.
        let reach_union = |d: Vec2| {
            let mut best: Option<(f32, Vec2, usize, usize)> = None;
            for &k in &near {
                let (xf, child) = &self.compound.children()[k];
                let Some(proxy) = ConvexProxy::from_shape(child) else {
                    continue;
                };
                let index = proxy.support_index(xf.rotate_inv(d));
                let point = xf.apply(proxy.point(index)) + d * proxy.radius();
                let along = d.dot(point);
                if best.is_none_or(|(b, ..)| along > b) {
                    best = Some((along, point, k, index));
                }
            }
            best
        };
        let mut best: Option<(f32, Manifold)> = None;
        let mut consider = |depth: f32, manifold: Manifold| {
            if depth.is_finite()
                && depth >= -self.margin.max(0.0)
                && best.as_ref().is_none_or(|(b, _)| depth < *b)
            {
                best = Some((depth, manifold));
            }
        };
        // The outer faces near A: A's deepest point against the face's line, or the face
        // contact over the run when that reaches as deep.
        for &k in &near {
            for face in self.seams.outer_faces(k) {
                let d = face.normal;
                let Some((along, ..)) = reach_union(d) else {
                    continue;
                };
                let (reach, point, index) = reach_a(d);
                let depth = along + reach;
                let run = run_contact(
                    face.run,
                    face.normal,
                    self.a,
                    self.a_in_b,
                    self.b_in_a,
                    self.margin,
                    k,
                );
                let tolerance = 1e-5 * (1.0 + depth.abs() + bounds.extents().max_element());
                if !run.is_empty() && (run.max_penetration() - depth).abs() <= tolerance {
                    consider(depth, run);
                    continue;
                }
                let contact = ContactPoint {
                    point: point + d * (0.5 * depth),
                    penetration: depth,
                    id: FeatureId {
                        a: Feature::Edge(0),
                        b: Feature::Vertex(index as u8),
                    },
                };
                consider(depth, self.placed(Manifold::one_point(d, contact), k));
            }
        }
        // The directions off A (its faces, or the left-out normals): the union's point that
        // reaches furthest, A's surface behind it.
        let mut own_normals: Vec<Vec2> = match self.a {
            Shape::Polygon(polygon) => polygon
                .normals()
                .iter()
                .map(|n| -self.a_in_b.rotate(*n))
                .collect(),
            _ => Vec::new(),
        };
        // A circle or capsule: the directions from the near children's vertices to A's core
        // (a corner of the union pressed into A's round).
        if proxy_a.radius() > 0.0 {
            let core: Vec<Vec2> = proxy_a
                .points()
                .iter()
                .map(|p| self.a_in_b.apply(*p))
                .collect();
            for &k in &near {
                let (xf, child) = &self.compound.children()[k];
                let Some(proxy) = ConvexProxy::from_shape(child) else {
                    continue;
                };
                for v in proxy.points() {
                    let v = xf.apply(*v);
                    let nearest = match core.as_slice() {
                        [a, b] => crate::shape::closest_point_on_segment(*a, *b, v),
                        [a] => *a,
                        _ => continue,
                    };
                    own_normals.extend(crate::math::try_unit(nearest - v));
                }
            }
        }
        for &d in inside_normals.iter().chain(&own_normals) {
            let Some((along, point, child, index)) = reach_union(d) else {
                continue;
            };
            let (reach, ..) = reach_a(d);
            let depth = along + reach;
            let contact = ContactPoint {
                point: point - d * (0.5 * depth),
                penetration: depth,
                id: FeatureId {
                    a: Feature::Vertex(index as u8),
                    b: Feature::Edge(0),
                },
            };
            // Only clearly smaller than a face's push (which has the run's points).
            let slack = 1e-5 * (1.0 + depth.abs() + bounds.extents().max_element());
            consider(
                depth + slack,
                self.placed(Manifold::one_point(d, contact), child),
            );
        }
        best.map(|(_, manifold)| manifold)
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
