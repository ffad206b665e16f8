//! Chains against other shapes: per-segment manifolds with ghost normals removed.
//!
//! Each segment near the other shape is collided as a plain two-sided segment, then the result
//! is checked against what a one-sided segment with known neighbours can produce. The rule: a
//! segment reports the smallest push-out of B among the directions the one-sided segment
//! admits. Along its interior and at flat or concave joints that is the face normal only; at a
//! convex joint, the directions between the two face normals; at an open end of the chain, the
//! directions from the face normal round to the outward direction along the segment (the end
//! acts as a small wall facing outward).
//!
//! Off a convex joint along the neighbour's face normal (within 0.11°), a one-point answer is
//! replaced by the neighbour's face contact (both ends of B's face over it), or, where B's
//! face reaches far past the neighbour (as above), by the neighbour's two-sided contact along
//! B's face.
//!
//! A segment is taken together with the flat run it belongs to (its neighbours continuing it
//! across flat joints, within the shape's culling box), as the one segment the run makes up: a
//! side split by collinear vertices answers as the whole side, and the joints that count are
//! the ones ending the run.
//!
//! ```text
//! for each segment i whose box meets the shape's box:
//!     skip if the shape's centroid is behind the segment            (one-sided)
//!     r = the flat run of segment i; m = run–shape manifold (two-sided)
//!     if m.normal is within 0.11° of the face normal n_i (in front), and B reaches
//!     no deeper below the run's line than m's depth (up to the tie tolerance of the
//!     separating-axis step; else B's face, tilted within the 0.11° but reaching
//!     far past the run, gives the normal, and m goes on below):
//!         the face manifold along n_i (B's surface under its incident feature
//!         clipped to the run); if nothing of B lies over the run (B meets it at a
//!         vertex only), m at an open end or convex joint, else nothing
//!     else if m is admitted (in front and off an open end, or within the cone of a
//!     convex joint at the end it leans to: between n_i and the neighbour's normal):
//!         keep m
//!     else the smallest of:
//!         the face manifold along n_i, clipped to the run;
//!         at each convex joint ending the run, the push along the neighbour's
//!         normal (one point, the run's point B reaches furthest behind along it;
//!         along the run, out past the joint, at a right angle; behind the face at
//!         a sharper turn), and the push along each of B's face normals (reversed)
//!         that lies within the joint's cone (B resting on the corner with a face
//!         tilted towards the neighbour);
//!         if m points behind the run (B touches it from behind), at each open end,
//!         the push out past that end along the run (one point between the end
//!         vertex and B's surface, depth how far B reaches behind the vertex along
//!         the run's line; no push at all when B does not meet that line)
//!     (at both ends whichever way m leans, so that nothing jumps as m crosses the
//!     face, and a normal straight behind it, which leans by a rounding residue,
//!     gets the same answer at every scale)
//! ```
//!
//! Continuity. The depth grows from zero as B first touches a segment in front or at an open
//! end, also from behind: a shape whose centroid is in front but whose surface meets an open
//! end from behind (a character walking into the end of a one-way ledge at chest height) is
//! pushed out along the ledge by how far the end reaches into it, not up by the depth of its
//! surface below the whole ledge. Two switches are discontinuous by design:
//! - the centroid crossing a segment's line switches that segment on or off (the one-sided
//!   rule);
//! - a shape first touching a segment from behind at a joint (convex, flat or concave) gets a
//!   contact at once as deep as the smallest admissible push, which may have to carry it past
//!   the whole segment (up through the face, or out past an open end further along); at a
//!   convex joint the push along the neighbour's normal, out past the joint, grows from zero
//!   where nothing else of the segment lies in its way.
//!
//! Along a cone's edge the depth is a push along a fixed direction, so it changes by up to
//! `1 / cos b` per unit B moves, where `b` is the angle between that direction and B's
//! unconstrained (two-sided) push-out: the price of admitting only those directions.
//!
//! The same idea as "ghost vertices" in Box2D's chain shapes (Catto, *Ghost Collisions*, 2020),
//! written for every shape kind through one face-manifold routine.

use crate::math::{cross, left_perp, right_perp, try_unit, Transform, Vec2};
use crate::query::manifold::clip::{
    clip_to_face, IncidentEdge, ReferenceFace, REFERENCE_AXIS_TOLERANCE,
};
use crate::query::manifold::compound::culling_box;
use crate::query::manifold::contacts_convex_local;
use crate::query::support::ConvexProxy;
use crate::query::RayInside;
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
use crate::shape::{Aabb, Chain, Joint, Ray, Segment, Shape};

/// Largest sine of the angle between a manifold normal and a face normal for the two to count
/// as the same direction (about 0.11°); also the slack of the cone tests at convex joints.
pub(crate) const FACE_TOLERANCE: f32 = 2.0e-3;

/// Calls `visit` with each admissible manifold of chain A against `b` (a convex shape or a
/// compound; placed by `b_in_a` in the chain's frame), in the chain's frame with `child_a` set to
/// the segment index and `child_b` to B's child, until `visit` returns `false`. Chains against
/// chains give nothing.
pub(crate) fn for_each_chain_contact(
    chain: &Chain,
    b: &Shape,
    b_in_a: &Transform,
    margin: f32,
    visit: &mut dyn FnMut(Manifold) -> bool,
) {
    match b {
        Shape::Chain(_) => {}
        Shape::Compound(compound) => {
            // One-sidedness follows the whole compound's centroid: its children pass through
            // together.
            let centroid = b_in_a.apply(compound.centroid());
            for (index, (child_xf, child)) in compound.children().iter().enumerate() {
                let mut go_on = true;
                let child_in_a = b_in_a.mul(child_xf);
                chain_against_convex(chain, child, &child_in_a, centroid, margin, &mut |m| {
                    go_on = visit(Manifold {
                        child_b: index as u32,
                        ..m
                    });
                    go_on
                });
                if !go_on {
                    return;
                }
            }
        }
        _ => {
            let centroid = b_in_a.apply(b.centroid());
            chain_against_convex(chain, b, b_in_a, centroid, margin, visit);
        }
    }
}

/// [`for_each_chain_contact`] for a convex B.
/// `centroid` (chain frame) decides which side B is on.
fn chain_against_convex(
    chain: &Chain,
    convex: &Shape,
    convex_in_chain: &Transform,
    centroid: Vec2,
    margin: f32,
    visit: &mut dyn FnMut(Manifold) -> bool,
) {
    let against = Against {
        shape: convex,
        pose: convex_in_chain,
        margin,
        bounds: culling_box(convex, convex_in_chain, margin),
    };
    chain.for_each_segment_in(&against.bounds, &mut |index| {
        let start = chain.segment_points(index).0;
        let normal = chain.normals()[index];
        if (centroid - start).dot(normal) < 0.0 {
            return true;
        }
        // The flat run the segment belongs to, as the one segment it makes up.
        let run = flat_run(chain, index, &against.bounds);
        let segment = Shape::Segment(Segment::new_unchecked(run.low, run.high));
        let manifold = contacts_convex_local(&segment, convex, convex_in_chain, margin);
        if manifold.is_empty() {
            return true;
        }
        match admit(chain, index, &run, manifold, &against) {
            Some((admitted, segment)) => visit(Manifold {
                child_a: segment as u32,
                ..admitted
            }),
            None => true,
        }
    });
}

/// The convex shape B a chain's segments are tested against: its pose in the chain's frame,
/// the contact margin, and its culling box there (the segments near it).
struct Against<'a> {
    shape: &'a Shape,
    pose: &'a Transform,
    margin: f32,
    bounds: Aabb,
}

/// The manifold segment `index` may report in place of `manifold` (see the module docs), with
/// the segment whose face it is (`index`, or its neighbour at a convex joint).
fn admit(
    chain: &Chain,
    index: usize,
    run: &FlatRun,
    manifold: Manifold,
    against: &Against,
) -> Option<(Manifold, usize)> {
    let m = admit_own(chain, index, run, manifold, against)?;
    // Off a convex joint along the neighbour's face normal (B resting on the neighbour and
    // reaching past the corner): the neighbour's face contact, all of it (both ends of B's
    // face over the neighbour), rather than the corner point alone.
    if m.count != 1 || m.normal != manifold.normal {
        return Some((m, index));
    }
    let at_end = m.normal.dot(left_perp(chain.normals()[index])) > 0.0;
    let (joint, last) = run.end(at_end);
    let Joint::Convex { neighbour_normal } = joint else {
        return Some((m, index));
    };
    if cross(m.normal, neighbour_normal).abs() > FACE_TOLERANCE
        || m.normal.dot(neighbour_normal) <= 0.0
    {
        return Some((m, index));
    }
    let Some(neighbour) = chain.neighbour(last, at_end) else {
        return Some((m, index));
    };
    let (start, end) = chain.segment_points(neighbour);
    // Where B's face, tilted within the tolerance, reaches far past the neighbour, B's face
    // is the reference: the neighbour's two-sided contact along it, all of it.
    if !face_axis_ties(
        start,
        end,
        neighbour_normal,
        &m,
        against.shape,
        against.pose,
    ) {
        let segment = Shape::Segment(Segment::new_unchecked(start, end));
        let two_sided =
            contacts_convex_local(&segment, against.shape, against.pose, against.margin);
        let along = !two_sided.is_empty()
            && cross(two_sided.normal, m.normal).abs() <= FACE_TOLERANCE
            && two_sided.normal.dot(m.normal) > 0.0;
        return Some(if along {
            (two_sided, neighbour)
        } else {
            (m, index)
        });
    }
    let face = face_manifold(
        start,
        end,
        neighbour_normal,
        against.shape,
        against.pose,
        against.margin,
    );
    Some(if face.is_empty() {
        (m, index)
    } else {
        (face, neighbour)
    })
}

/// [`admit`] along the rules of segment `index` (with the flat run it belongs to, against
/// which `manifold` was computed).
fn admit_own(
    chain: &Chain,
    index: usize,
    run: &FlatRun,
    manifold: Manifold,
    against: &Against,
) -> Option<Manifold> {
    let (convex, convex_in_chain, margin) = (against.shape, against.pose, against.margin);
    let face_normal = chain.normals()[index];
    let normal = manifold.normal;
    let (low, high) = (run.low, run.high);
    let joint_at = |at_end: bool| run.end(at_end).0;
    // Within rounding of the face normal, and no deeper along it: the face contact, exactly
    // along it, with B's incident feature clipped to the run (the same points whichever face
    // the segment–shape test chose as reference). A face of B tilted within the tolerance but
    // reaching far past the run dips below its line by its length times the tilt: there B's
    // own face normal is the answer, as for the solid the chain outlines.
    if cross(normal, face_normal).abs() <= FACE_TOLERANCE
        && normal.dot(face_normal) > 0.0
        && face_axis_ties(low, high, face_normal, &manifold, convex, convex_in_chain)
    {
        let face = face_manifold(low, high, face_normal, convex, convex_in_chain, margin);
        if !face.is_empty() {
            return Some(face);
        }
        // Nothing of B lies over the run: B's surface meets it only at a vertex (a face of B
        // ending at the run's end, an overlap of no length that rounding may lose). The
        // two-sided answer stands at an open end or a convex joint, whose cones hold the face
        // normal; at a concave joint the neighbour's face reports the contact.
        let deepest = manifold
            .points()
            .iter()
            .fold(manifold.points[0], |best, p| {
                if p.penetration > best.penetration {
                    *p
                } else {
                    best
                }
            })
            .point;
        let at_end = (deepest - low).dot(high - low) > 0.5 * (high - low).length_squared();
        return match joint_at(at_end) {
            Joint::End | Joint::Convex { .. } => Some(manifold),
            Joint::FlatOrConcave => None,
        };
    }
    // Off the face normal by more than the tolerance, the normal leans clearly towards the end
    // whose vertex made it.
    let at_end = normal.dot(left_perp(face_normal)) > 0.0;
    let joint = joint_at(at_end);
    let behind = normal.dot(face_normal) <= 0.0;
    // The two-sided answer stands where the one-sided run admits its normal: in front, off an
    // open end; or within the cone of a convex joint (a normal square to the face, B resting
    // on the neighbour and reaching past the corner, or, at a joint turning by more than a
    // right angle, one behind it: a vertex normal of the solid).
    let admitted = match joint {
        Joint::End => !behind,
        Joint::Convex { neighbour_normal } => {
            inside_cone(face_normal, neighbour_normal, at_end, normal)
        }
        Joint::FlatOrConcave => false,
    };
    if admitted {
        return Some(manifold);
    }
    // Otherwise the smallest of the pushes the one-sided run admits (see the module docs): the
    // face contact, over the whole flat run (clipped to one segment alone it would leave out
    // the points over its flat neighbours, and, as deep as theirs, could be the answer kept);
    // at each convex joint the push along the neighbour's normal (the cone's other edge: along
    // the segment, out past the joint, at a right angle; behind the face at a sharper turn),
    // equal to `m` where `m` leaves the cone, so the depth does not jump there; and, for a
    // normal behind the face, the push out past each open end along the segment. Both ends,
    // whichever way the normal leans (one straight behind the face leans either way by a
    // rounding residue), so that the answer does not jump as the normal crosses the face.
    let face = face_manifold(low, high, face_normal, convex, convex_in_chain, margin);
    let mut best = (!face.is_empty()).then_some(face);
    let mut keep_smaller = |candidate: Option<Manifold>| {
        let Some(candidate) = candidate else {
            return;
        };
        if best.is_none_or(|b| b.max_penetration() > candidate.max_penetration()) {
            best = Some(candidate);
        }
    };
    for at_end in [false, true] {
        match joint_at(at_end) {
            Joint::End if behind => {
                keep_smaller(past_end(low, high, at_end, convex, convex_in_chain));
            }
            Joint::Convex { neighbour_normal } => {
                keep_smaller(push_along(
                    (low, high),
                    face_normal,
                    neighbour_normal,
                    convex,
                    convex_in_chain,
                ));
                // Within the cone, along B's faces that face it (the polygon's reference
                // face where B rests on the corner, tilted towards the neighbour).
                for_each_face_direction(convex, convex_in_chain, &mut |direction| {
                    if inside_cone(face_normal, neighbour_normal, at_end, direction) {
                        keep_smaller(push_along(
                            (low, high),
                            face_normal,
                            direction,
                            convex,
                            convex_in_chain,
                        ));
                    }
                });
            }
            _ => {}
        }
    }
    // The smallest push, if B is within the margin along it.
    best.filter(|m| m.max_penetration() >= -margin.max(0.0))
}

/// Whether the segment's face normal is as good a separating axis as the two-sided manifold
/// `m` (whose normal is within [`FACE_TOLERANCE`] of it): B reaches below the segment's line by
/// no more than `m`'s depth, up to the tie tolerance of the separating-axis step (relative to
/// the smaller of the segment and B) and rounding.
fn face_axis_ties(
    start: Vec2,
    end: Vec2,
    face_normal: Vec2,
    m: &Manifold,
    convex: &Shape,
    convex_in_chain: &Transform,
) -> bool {
    let Some((deepest, _)) = deepest_point(convex, convex_in_chain, face_normal) else {
        return true;
    };
    let along_face = (start - deepest).dot(face_normal);
    let bounds = convex.aabb(convex_in_chain);
    let size = (end - start)
        .length()
        .min((bounds.max - bounds.min).length());
    let rounding = 8.0 * f32::EPSILON * (start.abs().max_element() + deepest.abs().max_element());
    along_face - m.max_penetration() <= REFERENCE_AXIS_TOLERANCE * size + rounding
}

/// Largest sine of the turn at a joint for its two segments to count as one flat face.
const FLAT_SINE: f32 = 1.0e-4;

/// The flat run a segment belongs to (see [`flat_run`]).
#[derive(Clone, Copy)]
struct FlatRun {
    /// The run's ends on the segment's line, in the segment's direction.
    low: Vec2,
    high: Vec2,
    /// The joint ending the run at its start and at its end, each with the run's last segment
    /// that way; a run cut short by B's culling box ends at a flat joint.
    ends: [(Joint, usize); 2],
}

impl FlatRun {
    /// The joint ending the run at its end (`at_end`) or start, with the run's last segment.
    fn end(&self, at_end: bool) -> (Joint, usize) {
        self.ends[usize::from(at_end)]
    }
}

/// Segment `index` extended along its own line over the run of neighbours that continue it
/// flat (turning by at most [`FLAT_SINE`]) and reach `bounds`, B's culling box, with the joints
/// that end the run: a face B rests on across flat joints is clipped to the whole run, so its
/// points cover all of B's face over the floor rather than the part over one segment, and the
/// joints that count are those at the run's ends.
fn flat_run(chain: &Chain, index: usize, bounds: &Aabb) -> FlatRun {
    let (start, end) = chain.segment_points(index);
    let normal = chain.normals()[index];
    let direction = try_unit(end - start);
    let (mut low, mut high) = (0.0f32, direction.map_or(0.0, |d| (end - start).dot(d)));
    let (mut extended_low, mut extended_high) = (false, false);
    let mut ends = [(Joint::FlatOrConcave, index); 2];
    for at_end in [false, true] {
        let mut current = index;
        let mut cut_short = false;
        for _ in 0..chain.segment_count() {
            let Some(next) = chain.neighbour(current, at_end) else {
                break;
            };
            let other = chain.normals()[next];
            if next == index || cross(normal, other).abs() > FLAT_SINE || normal.dot(other) <= 0.0 {
                break;
            }
            if !chain.segment_aabb(next).overlaps(bounds) {
                cut_short = true;
                break;
            }
            if let Some(direction) = direction {
                let (next_start, next_end) = chain.segment_points(next);
                let far = if at_end { next_end } else { next_start };
                let along = (far - start).dot(direction);
                if at_end && along > high {
                    high = along;
                    extended_high = true;
                } else if !at_end && along < low {
                    low = along;
                    extended_low = true;
                }
            }
            current = next;
        }
        let joint = if cut_short {
            Joint::FlatOrConcave
        } else {
            chain.joint(current, at_end)
        };
        ends[usize::from(at_end)] = (joint, current);
    }
    let along = |extended: bool, at: f32, vertex: Vec2| match direction {
        Some(direction) if extended => start + direction * at,
        _ => vertex,
    };
    FlatRun {
        low: along(extended_low, low, start),
        high: along(extended_high, high, end),
        ends,
    }
}

/// Whether `normal` lies between the face normal and the neighbour's normal of a convex joint
/// (at the segment's end vertex when `at_end`, else at its start), with the slack of
/// [`FACE_TOLERANCE`] on both sides.
#[inline]
fn inside_cone(face_normal: Vec2, neighbour_normal: Vec2, at_end: bool, normal: Vec2) -> bool {
    let (from, to) = if at_end {
        (face_normal, neighbour_normal)
    } else {
        (neighbour_normal, face_normal)
    };
    cross(from, normal) >= -FACE_TOLERANCE && cross(normal, to) >= -FACE_TOLERANCE
}

/// The contact of a convex shape pushed along segment `start → end` out past its `end` (or its
/// `start` when `at_end` is false): the push-out along the outward direction `u` of that end,
/// which is how far B's surface lies behind the end vertex along the segment's line (negative
/// when B lies ahead of the end: how far it is). One point, between the end vertex and B's
/// surface; when B does not meet the segment's line, a depth of minus infinity (B slides along
/// the line without ever meeting the segment: no push is needed); `None` for a degenerate
/// segment. The caller compares it with the other pushes before it applies the margin.
fn past_end(
    start: Vec2,
    end: Vec2,
    at_end: bool,
    convex: &Shape,
    convex_in_chain: &Transform,
) -> Option<Manifold> {
    let (vertex, other, vertex_index) = if at_end {
        (end, start, 1)
    } else {
        (start, end, 0)
    };
    let outward = try_unit(vertex - other)?;
    // Cast along `outward` from a point behind B and the vertex on the segment's line: B's
    // first point on the line, counted back from the vertex.
    let bounds = convex.aabb(convex_in_chain);
    let back = (bounds.max - bounds.min).length() + (vertex - bounds.center()).length() + 1e-30;
    let ray = Ray {
        origin: vertex - outward * back,
        direction: outward,
        max_distance: f32::INFINITY,
    };
    let Some(hit) = convex.ray_cast_with(convex_in_chain, &ray, RayInside::HitAtStart) else {
        // B is clear of the segment's line: it slides along it, out past the end, without
        // ever meeting the segment (a touch from behind within rounding, or a part of a
        // compound lying wholly behind the line).
        return Some(Manifold::one_point(
            outward,
            ContactPoint {
                point: vertex,
                penetration: f32::NEG_INFINITY,
                id: FeatureId {
                    a: Feature::Vertex(vertex_index),
                    b: Feature::Vertex(0),
                },
            },
        ));
    };
    let depth = back - hit.distance;
    if !depth.is_finite() {
        return None;
    }
    Some(Manifold::one_point(
        outward,
        ContactPoint {
            point: vertex - outward * (0.5 * depth),
            penetration: depth,
            id: FeatureId {
                a: Feature::Vertex(vertex_index),
                b: hit_feature(convex, convex_in_chain, hit.point, hit.normal),
            },
        },
    ))
}

/// The contact of a convex shape pushed off segment `start → end` (face normal `face_normal`)
/// along the unit `direction` (in front of the face, along it, or behind it): how far B must
/// move along it so that no point of the segment is left inside it (negative: how far it may
/// move the other way before it touches). One point, between the segment point that leaves B
/// last and B's surface behind it; `None` when no line along `direction` through the segment
/// meets B. The caller compares it with the other pushes before it applies the margin.
///
/// The distance a segment point must go is how far B reaches from it along `-direction`, a
/// concave function along the segment: its largest value is at an end or at the point whose
/// line runs through B's point furthest from the segment's line on the side `-direction`
/// points to (behind it for a direction in front; none for a direction along the segment,
/// where the function is linear).
fn push_along(
    (start, end): (Vec2, Vec2),
    face_normal: Vec2,
    direction: Vec2,
    convex: &Shape,
    convex_in_chain: &Transform,
) -> Option<Manifold> {
    let across = direction.dot(face_normal);
    if across.is_nan() {
        return None;
    }
    let bounds = convex.aabb(convex_in_chain);
    let centre = bounds.center();
    let back = (bounds.max - bounds.min).length()
        + (start - centre).length().max((end - centre).length())
        + 1e-30;
    // How far B reaches behind `point` along `-direction`.
    let reach = |point: Vec2| {
        let ray = Ray {
            origin: point - direction * back,
            direction,
            max_distance: f32::INFINITY,
        };
        convex
            .ray_cast_with(convex_in_chain, &ray, RayInside::HitAtStart)
            .map(|hit| (back - hit.distance, hit))
    };
    let mut best: Option<(f32, Vec2, Feature, Feature)> = None;
    let mut consider = |depth: f32, point: Vec2, a: Feature, b: Feature| {
        if best.is_none_or(|(deepest, ..)| depth > deepest) {
            best = Some((depth, point, a, b));
        }
    };
    for (point, vertex) in [(start, 0), (end, 1)] {
        if let Some((depth, hit)) = reach(point) {
            let feature = hit_feature(convex, convex_in_chain, hit.point, hit.normal);
            consider(depth, point, Feature::Vertex(vertex), feature);
        }
    }
    // B's point furthest from the segment's line on the side `-direction` points to, carried
    // back along `direction` onto it (off the segment's span, or at no finite distance, for a
    // direction along the segment).
    let side = if across >= 0.0 {
        face_normal
    } else {
        -face_normal
    };
    if let Some((deepest, feature)) = deepest_point(convex, convex_in_chain, side) {
        let depth = (start - deepest).dot(face_normal) / across;
        let point = deepest + direction * depth;
        let span = end - start;
        let along = (point - start).dot(span);
        if depth.is_finite() && along > 0.0 && along < span.length_squared() {
            consider(depth, point, Feature::Edge(0), feature);
        }
    }
    let (depth, point, a, b) = best?;
    if !depth.is_finite() {
        return None;
    }
    Some(Manifold::one_point(
        direction,
        ContactPoint {
            point: point - direction * (0.5 * depth),
            penetration: depth,
            id: FeatureId { a, b },
        },
    ))
}

/// Calls `visit` with the reversed outward normal of each straight face of a convex shape's
/// core (chain frame): the directions pushing it off something it rests on with that face.
fn for_each_face_direction(
    convex: &Shape,
    convex_in_chain: &Transform,
    visit: &mut dyn FnMut(Vec2),
) {
    let two = |a: Vec2, b: Vec2, visit: &mut dyn FnMut(Vec2)| {
        if let Some(direction) = try_unit(convex_in_chain.rotate(b - a)) {
            visit(left_perp(direction));
            visit(right_perp(direction));
        }
    };
    match convex {
        Shape::Polygon(polygon) => {
            for &normal in polygon.normals() {
                visit(-convex_in_chain.rotate(normal));
            }
        }
        Shape::Capsule(capsule) => two(capsule.a(), capsule.b(), visit),
        Shape::Segment(segment) => two(segment.a(), segment.b(), visit),
        _ => {}
    }
}

/// The point of a convex shape (placed by `convex_in_chain`) furthest along `-normal` (chain
/// frame), with its feature; `None` for shapes that are not convex.
fn deepest_point(
    convex: &Shape,
    convex_in_chain: &Transform,
    normal: Vec2,
) -> Option<(Vec2, Feature)> {
    let core = ConvexProxy::from_shape(convex)?;
    let index = core.support_index(convex_in_chain.rotate_inv(-normal));
    let point = convex_in_chain.apply(core.point(index)) - normal * core.radius();
    Some((point, Feature::Vertex(index as u8)))
}

/// The feature of a convex shape (placed by `convex_in_chain`) at a ray's hit `point` with
/// outward `normal` (chain frame): the polygon edge facing most along the normal, a core's side
/// or the end cap nearer the point, a circle's centre.
fn hit_feature(convex: &Shape, convex_in_chain: &Transform, point: Vec2, normal: Vec2) -> Feature {
    let local_normal = convex_in_chain.rotate_inv(normal);
    let two = |a: Vec2, b: Vec2| {
        let (a, b) = (convex_in_chain.apply(a), convex_in_chain.apply(b));
        match try_unit(b - a) {
            Some(direction) if normal.dot(direction).abs() <= FACE_TOLERANCE => Feature::Edge(0),
            _ if (point - a).length_squared() <= (point - b).length_squared() => Feature::Vertex(0),
            _ => Feature::Vertex(1),
        }
    };
    match convex {
        Shape::Polygon(polygon) => {
            Feature::Edge(least_along(polygon.normals(), -local_normal) as u8)
        }
        Shape::Capsule(capsule) => two(capsule.a(), capsule.b()),
        Shape::Segment(segment) => two(segment.a(), segment.b()),
        _ => Feature::Vertex(0),
    }
}

/// The contact of a convex shape against the face of segment `start → end` along its normal,
/// with the surface under the shape's incident feature clipped to the segment's extent (chain
/// frame). Points separated by more than `margin` are left out.
///
/// A circle's deepest point lies straight down the face normal from its centre. An edge (a
/// polygon's, or a capsule's or segment's core) goes through the clipping every pair of
/// straight outlines shares ([`clip_to_face`]): a rounded edge tilted against the face is
/// clipped along its own flat side and its deeper end's cap, so each point lies on the shape's
/// surface and reports the depth there (the core clipped and moved by the radius along the face
/// normal would lie inside the shape, understating the depth of a clipped end).
pub(crate) fn face_manifold(
    start: Vec2,
    end: Vec2,
    face_normal: Vec2,
    convex: &Shape,
    convex_in_chain: &Transform,
    margin: f32,
) -> Manifold {
    let Some(incident) = IncidentFeature::of(convex, convex_in_chain, face_normal) else {
        return Manifold::EMPTY;
    };
    match incident {
        IncidentFeature::Point { centre, radius } => {
            let direction = left_perp(face_normal);
            let along = centre.dot(direction);
            if along < start.dot(direction) || along > end.dot(direction) {
                return Manifold::EMPTY;
            }
            let separation = (centre - start).dot(face_normal) - radius;
            if separation > margin {
                return Manifold::EMPTY;
            }
            Manifold::one_point(
                face_normal,
                ContactPoint {
                    point: centre - face_normal * (radius + 0.5 * separation),
                    penetration: -separation,
                    id: FeatureId {
                        a: Feature::Edge(0),
                        b: Feature::Vertex(0),
                    },
                },
            )
        }
        IncidentFeature::Edge(edge) => clip_to_face(
            &ReferenceFace {
                start,
                end,
                normal: face_normal,
                radius: 0.0,
                face: Feature::Edge(0),
                start_vertex: 0,
                end_vertex: 1,
            },
            &edge,
            margin,
        ),
    }
}

/// The part of a convex shape's core that faces a direction most directly, with its radius.
enum IncidentFeature {
    /// A circle (or a capsule whose ends coincide): its centre (chain frame) and radius.
    Point { centre: Vec2, radius: f32 },
    /// The edge of the core most anti-parallel to the face normal (chain frame).
    Edge(IncidentEdge),
}

impl IncidentFeature {
    /// The incident feature of `convex` against a face with normal `face_normal`; `None` for
    /// shapes that are not convex.
    fn of(convex: &Shape, convex_in_chain: &Transform, face_normal: Vec2) -> Option<Self> {
        let place = |p: Vec2| convex_in_chain.apply(p);
        // A two-vertex core, taken in the direction whose outward normal faces the face.
        let two = |a: Vec2, b: Vec2, radius: f32| {
            let (a, b) = (place(a), place(b));
            let Some(direction) = try_unit(b - a) else {
                return IncidentFeature::Point { centre: a, radius };
            };
            let normal = right_perp(direction);
            let (first, second, normal, first_vertex) = if normal.dot(face_normal) <= 0.0 {
                (a, b, normal, 0)
            } else {
                (b, a, -normal, 1)
            };
            IncidentFeature::Edge(IncidentEdge {
                first,
                second,
                normal,
                radius,
                edge: Feature::Edge(0),
                first_vertex,
                second_vertex: 1 - first_vertex,
            })
        };
        Some(match convex {
            Shape::Circle(circle) => IncidentFeature::Point {
                centre: place(circle.center()),
                radius: circle.radius(),
            },
            Shape::Capsule(capsule) => two(capsule.a(), capsule.b(), capsule.radius()),
            Shape::Segment(segment) => two(segment.a(), segment.b(), 0.0),
            Shape::Polygon(polygon) => {
                let local_normal = convex_in_chain.rotate_inv(face_normal);
                let edge = least_along(polygon.normals(), local_normal);
                let vertices = polygon.vertices();
                let next = (edge + 1) % vertices.len();
                IncidentFeature::Edge(IncidentEdge {
                    first: place(vertices[edge]),
                    second: place(vertices[next]),
                    normal: convex_in_chain.rotate(polygon.normals()[edge]),
                    radius: polygon.radius(),
                    edge: Feature::Edge(edge as u8),
                    first_vertex: edge as u8,
                    second_vertex: next as u8,
                })
            }
            Shape::Compound(_) | Shape::Chain(_) => return None,
        })
    }
}

/// The index of the vector with the least dot product with `direction` (the first of equals;
/// 0 for an empty list).
fn least_along(vectors: &[Vec2], direction: Vec2) -> usize {
    vectors
        .iter()
        .enumerate()
        .map(|(i, v)| (i, v.dot(direction)))
        .fold((0, f32::INFINITY), |best, candidate| {
            if candidate.1 < best.1 {
                candidate
            } else {
                best
            }
        })
        .0
}
