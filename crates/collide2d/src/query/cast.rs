//! Shape casts: the first time two moving shapes touch (time of impact).

use super::distance::{
    distance, distance_between_convex, gjk_distance, Simplex, SimplexVertex, MAX_GJK_ITERATIONS,
};
use super::manifold::FACE_TOLERANCE;
use super::support::{lane_support_index, ConvexProxy};
use super::sweep::{sweep_circle_segment, sweep_circles, Sweep, SweepHit};
use super::types::{DistanceOutput, SimplexCache};
use crate::math::{both_valid, cross, left_perp, right_perp, Lanes, Rot, Transform, Vec2};
use crate::shape::{Aabb, Chain, Joint, PaddedOutline, Segment, Shape};
use glam::Vec4;

/// Settings for [`shape_cast`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CastOptions {
    /// Separation at which the cast stops ("skin"): a mover that stops there does not start its
    /// next cast already touching. 0 finds the moment of contact.
    pub target_separation: f32,
    /// How close to `target_separation` the result must be (world units, > 0).
    pub tolerance: f32,
    /// Most distance evaluations before the cast gives up and reports the time reached so far
    /// as a hit (the conservative answer: the shapes are not touching yet, but are approaching).
    pub max_iterations: u32,
    /// Whether shapes already within `target_separation` at `t = 0` but moving apart count as a
    /// hit. `false` (the default) lets a mover leave a surface it rests on.
    pub separating_overlap_hits: bool,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            target_separation: 0.0,
            tolerance: 1.0e-4,
            max_iterations: 64,
            separating_overlap_hits: false,
        }
    }
}

/// Where and when a cast first touches.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CastHit {
    /// Normalised time of impact in `[0, 1]` (0 when already touching).
    pub t: f32,
    /// World point midway between the shapes at time `t`.
    pub point: Vec2,
    /// Unit normal from A to B at time `t`.
    pub normal: Vec2,
    /// Whether the separation at `t` is within tolerance of the target; `false` only when
    /// `max_iterations` ran out first (the hit is then early, never late).
    pub converged: bool,
}

/// The first time in `[0, 1]` at which `a` moving by `sweep_a` and `b` moving by `sweep_b` come
/// within `opts.target_separation` of each other, with the point and normal there.
///
/// Works for every pair, compounds included, with translation and rotation. The algorithm is
/// conservative advancement: each step moves time forward by a lower bound on the gap divided
/// by an upper bound on how fast it can close, so a contact is never stepped over — fast, thin
/// and spinning shapes do not tunnel. Convex pairs that only translate run it as a GJK ray cast
/// (one simplex for the whole sweep, each step along a separating plane); rotating pairs measure
/// the gap with GJK at every step. Circle pairs and circle–segment pairs without rotation use
/// exact closed forms. A sweep that is not [valid](Sweep::is_valid) (non-finite, or beyond
/// ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE)) gives `None`.
///
/// ```
/// use collide2d::{query::{shape_cast, CastOptions, Sweep}, shape::{Circle, Polygon, Shape}, Transform, Vec2};
/// let bullet = Shape::from(Circle::with_radius(0.05)?);
/// let wall = Shape::from(Polygon::rect(0.01, 4.0)?);
/// // 1,000 units in one step, through a wall 1 cm thick.
/// let shot = Sweep::linear(&Transform::IDENTITY, Vec2::new(1000.0, 0.0));
/// let wall_at = Sweep::fixed(&Transform::new(Vec2::new(500.0, 0.0), 0.0));
/// let hit = shape_cast(&bullet, &shot, &wall, &wall_at, CastOptions::default()).unwrap();
/// assert!((hit.t * 1000.0 - (500.0 - 0.005 - 0.05)).abs() < 1e-3);
/// assert!((hit.normal - Vec2::X).length() < 1e-4);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
pub fn shape_cast(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: CastOptions,
) -> Option<CastHit> {
    if !sweep_a.is_valid() || !sweep_b.is_valid() {
        return None;
    }
    let opts = CastOptions {
        target_separation: opts.target_separation.max(0.0),
        tolerance: if opts.tolerance > 0.0 {
            opts.tolerance
        } else {
            1.0e-4
        },
        ..opts
    };
    if let (Shape::Polygon(_), Shape::Polygon(_)) = (a, b) {
        // The common pair asks no closed form and no other kind of shape first.
        return convex_cast(a, sweep_a, b, sweep_b, &opts);
    }
    if let Some(hit) = cast_analytic(a, sweep_a, b, sweep_b, &opts) {
        return hit;
    }
    match (a, b) {
        (Shape::Chain(_), Shape::Chain(_)) => None,
        (Shape::Chain(chain), _) => cast_chain(chain, sweep_a, b, sweep_b, opts),
        (_, Shape::Chain(_)) => shape_cast(b, sweep_b, a, sweep_a, opts).map(|hit| CastHit {
            normal: -hit.normal,
            ..hit
        }),
        (Shape::Compound(compound), _) => {
            let mut best: Option<CastHit> = None;
            for (child_xf, child) in compound.children() {
                let child_sweep = child_sweep(sweep_a, child_xf);
                if let Some(hit) = shape_cast(child, &child_sweep, b, sweep_b, opts) {
                    if best.is_none_or(|best| hit.t < best.t) {
                        best = Some(hit);
                    }
                }
            }
            best
        }
        (_, Shape::Compound(_)) => shape_cast(b, sweep_b, a, sweep_a, opts).map(|hit| CastHit {
            normal: -hit.normal,
            ..hit
        }),
        _ => convex_cast(a, sweep_a, b, sweep_b, &opts),
    }
}

/// [`shape_cast`] of two convex shapes: by GJK ray casting when neither turns, else by
/// conservative advancement.
#[inline(always)]
fn convex_cast(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: &CastOptions,
) -> Option<CastHit> {
    if sweep_a.rotation() == 0.0 && sweep_b.rotation() == 0.0 {
        if let (Some(proxy_a), Some(proxy_b)) =
            (ConvexProxy::from_shape(a), ConvexProxy::from_shape(b))
        {
            return linear_advancement((a, &proxy_a), sweep_a, (b, &proxy_b), sweep_b, opts);
        }
    }
    conservative_advancement(a, sweep_a, b, sweep_b, opts)
}

/// A chain moving by `sweep_a` against `b`: the earliest hit on a segment that `b`'s centroid is
/// in front of when they first touch, with the normal kept to what a one-sided segment with neighbours can have (a hit
/// at a flat or concave joint gets the face normal; one at a convex joint stays between the two
/// face normals). A later touch that a translating `b` makes only by sliding over a flat or
/// convex joint within the tolerance is no hit ([`translating_into`]).
///
/// A start within the band around the target lowers the target only for the segments B starts
/// near. Hits on several segments within the time the gap takes to close by twice the
/// tolerance are one touch (a shape meeting a joint): a hit whose normal the chain's manifold
/// gives to the neighbouring segment stands only if no admitted one comes within that time,
/// and among those left the one whose normal turned least from the touch's own is reported.
fn cast_chain(
    chain: &Chain,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: CastOptions,
) -> Option<CastHit> {
    let chain_start = sweep_a.transform_at(0.0);
    let indices = segments_near_path(chain, sweep_a, b, sweep_b, &opts);
    // A start within the band around the target (B resting a skin from the chain, sliding
    // along it): the chain's gap is the smallest of its segments', and a neighbouring segment
    // in line with the one B rests on comes within the band without the chain's gap closing.
    // The target then drops to just below that gap, so only a gap that really closes is a hit.
    let b_start = sweep_b.transform_at(0.0);
    let centroid_start = chain_start.apply_inv(b_start.apply(b.centroid()));
    // Only segments whose boxes come within the band of B's starting box can be that close.
    let near_start = b
        .aabb(&chain_start.inv_mul(&b_start))
        .expanded(opts.target_separation + opts.tolerance);
    // Each segment's gap at the start, for those within the band (B's centroid in front).
    let start_gaps: Vec<(usize, f32)> = indices
        .iter()
        .filter(|&&index| {
            let (start, end) = chain.segment_points(index);
            let segment_box = Aabb {
                min: start.min(end),
                max: start.max(end),
            };
            segment_box.overlaps(&near_start)
                && (centroid_start - start).dot(chain.normals()[index]) >= 0.0
        })
        .map(|&index| {
            let (start, end) = chain.segment_points(index);
            let segment = Shape::Segment(Segment::new_unchecked(start, end));
            (
                index,
                distance(&segment, &chain_start, b, &b_start).distance,
            )
        })
        .filter(|&(_, gap)| gap <= opts.target_separation + opts.tolerance)
        .collect();
    let start_gap = start_gaps
        .iter()
        .map(|&(_, gap)| gap)
        .fold(f32::INFINITY, f32::min);
    // The lowered target holds for the segments B starts within the band of. A segment that
    // starts further away keeps the target: B resting on one face (or still overlapping one it
    // passed from behind) stops a target away from another, as it would starting anywhere else
    // on the same path. (An in-line neighbour that B slides onto is a ghost that
    // [`translating_into`] drops.)
    let resting_opts = if start_gap <= opts.target_separation + opts.tolerance {
        CastOptions {
            target_separation: (start_gap - 2.0 * opts.tolerance)
                .min(opts.target_separation)
                .max(0.0),
            ..opts
        }
    } else {
        opts
    };
    // How long the gap takes to close by twice the tolerance at the fastest it can close: hits
    // on different segments that far apart in time are the same touch to within the tolerance.
    let reach = |shape_box: Aabb, center: Vec2| {
        [shape_box.min, shape_box.max]
            .iter()
            .map(|corner| corner.distance(center) + shape_box.extents().length())
            .fold(0.0f32, f32::max)
    };
    let closing = (sweep_b.translation() - sweep_a.translation()).length()
        + sweep_a.rotation().abs() * reach(chain.local_aabb(), sweep_a.local_center)
        + sweep_b.rotation().abs() * reach(b.aabb(&Transform::IDENTITY), sweep_b.local_center);
    let window = if closing > 0.0 {
        (2.0 * opts.tolerance / closing).min(1.0)
    } else {
        0.0
    };
    // Each segment's hit with the normal kept for it, whether the chain's manifold admits that
    // normal for the segment, and how far the kept normal turned from the touch's own.
    let mut candidates: Vec<(CastHit, bool, f32)> = Vec::new();
    let mut earliest_admitted = f32::INFINITY;
    let mut try_segment = |index: usize| {
        let (start, end) = chain.segment_points(index);
        let face_normal = chain.normals()[index];
        let segment = Shape::Segment(Segment::new_unchecked(start, end));
        let opts = if start_gaps.iter().any(|&(near, _)| near == index) {
            resting_opts
        } else {
            opts
        };
        let Some(hit) = shape_cast(&segment, sweep_a, b, sweep_b, opts) else {
            return;
        };
        if hit.t > earliest_admitted + window {
            return;
        }
        let chain_at_hit = sweep_a.transform_at(hit.t);
        // One-sided: the first touch counts only from the front (a shape that meets the segment
        // with its centroid behind it is passing through).
        let centroid_at_hit =
            chain_at_hit.apply_inv(sweep_b.transform_at(hit.t).apply(b.centroid()));
        if (centroid_at_hit - start).dot(face_normal) < 0.0 {
            return;
        }
        if hit.t > 0.0 && !translating_into(chain, index, sweep_a, b, sweep_b, &hit, opts.tolerance)
        {
            return;
        }
        let touch_normal = chain_at_hit.rotate_inv(hit.normal);
        let (local_normal, admitted) = one_sided_normal(chain, index, touch_normal);
        if admitted {
            earliest_admitted = earliest_admitted.min(hit.t);
        }
        candidates.push((
            CastHit {
                normal: chain_at_hit.rotate(local_normal),
                ..hit
            },
            admitted,
            local_normal.dot(touch_normal),
        ));
    };
    for index in indices {
        try_segment(index);
    }
    // A hit clamped to a convex joint's neighbour normal stands only when no admitted hit comes
    // within the window: the chain's manifold gives such a touch to the neighbour, whose own
    // hit comes at the same time. Among the hits of the kind chosen within the window of the
    // earliest (a shape meeting a joint touches both segments, and rounding decides which
    // comes first), the one whose normal turned least from the touch's own stands.
    let earliest = |admitted: bool| {
        candidates
            .iter()
            .filter(|candidate| candidate.1 == admitted)
            .map(|candidate| candidate.0.t)
            .fold(f32::INFINITY, f32::min)
    };
    let (first_admitted, first_clamped) = (earliest(true), earliest(false));
    let kind = first_admitted.is_finite() && first_admitted <= first_clamped + window;
    let first = if kind { first_admitted } else { first_clamped };
    candidates
        .iter()
        .filter(|candidate| candidate.1 == kind && candidate.0.t <= first + window)
        .fold(
            None,
            |chosen: Option<&(CastHit, bool, f32)>, candidate| match chosen {
                Some(chosen) if chosen.2 >= candidate.2 => Some(chosen),
                _ => Some(candidate),
            },
        )
        .map(|candidate| candidate.0)
}

/// The segments of `chain` (moving by `sweep_a`) that `b` may touch over its sweep: those whose
/// boxes come within reach of the straight path of `b`'s rotation centre in the chain's frame
/// when the chain only translates, else all of them.
fn segments_near_path(
    chain: &Chain,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: &CastOptions,
) -> Vec<usize> {
    let chain_start = sweep_a.transform_at(0.0);
    let mut indices = Vec::new();
    if sweep_a.rotation() == 0.0 {
        // B's path in the (only translating) chain's frame is a straight line of its rotation
        // centre; every point of B stays within `reach` of it.
        let local_aabb = b.aabb(&Transform::IDENTITY);
        let reach = [
            local_aabb.min,
            local_aabb.max,
            Vec2::new(local_aabb.min.x, local_aabb.max.y),
            Vec2::new(local_aabb.max.x, local_aabb.min.y),
        ]
        .iter()
        .map(|corner| corner.distance(sweep_b.local_center))
        .fold(0.0f32, f32::max);
        let chain_end = sweep_a.transform_at(1.0);
        let from = chain_start.apply_inv(sweep_b.center_start);
        let to = chain_end.apply_inv(sweep_b.center_end);
        let bounds = Aabb {
            min: from.min(to),
            max: from.max(to),
        }
        .expanded(reach * (1.0 + 1.0e-5) + opts.target_separation + opts.tolerance);
        chain.for_each_segment_in(&bounds, &mut |index| {
            indices.push(index);
            true
        });
    } else {
        indices.extend(0..chain.segment_count());
    }
    indices
}

/// The earliest hit over the step of `b` on a segment of `chain` (moving by `sweep_a`) that `b`
/// passes through: met from the front (B's centroid in front of the segment when they touch,
/// at the start included when B goes further in from there) and left behind (B's centroid
/// behind the segment's line at the end of the step), with the normal a one-sided segment with
/// neighbours can have. `None` when B passes through no segment.
///
/// A chain's manifold sees a segment only from the front: a body resting on a level chain's
/// floor and carried in one step through its wall ends touching the floor alone (or nothing),
/// and the chain's cast, which takes the floor the body starts on as a hit at 0 when the step
/// takes it deeper (a box turning as it rolls), never reports the wall met later.
pub(crate) fn chain_passed_segment(
    chain: &Chain,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: CastOptions,
) -> Option<CastHit> {
    let opts = CastOptions {
        separating_overlap_hits: false,
        ..opts
    };
    let centroid_in_chain = |t: f32| {
        sweep_a
            .transform_at(t)
            .apply_inv(sweep_b.transform_at(t).apply(b.centroid()))
    };
    let centroid_end = centroid_in_chain(1.0);
    let mut best: Option<CastHit> = None;
    for index in segments_near_path(chain, sweep_a, b, sweep_b, &opts) {
        let (start, end) = chain.segment_points(index);
        let face_normal = chain.normals()[index];
        if (centroid_end - start).dot(face_normal) >= 0.0 {
            continue;
        }
        let segment = Shape::Segment(Segment::new_unchecked(start, end));
        let Some(hit) = shape_cast(&segment, sweep_a, b, sweep_b, opts) else {
            continue;
        };
        if best.is_some_and(|best| best.t <= hit.t)
            || (centroid_in_chain(hit.t) - start).dot(face_normal) < 0.0
        {
            continue;
        }
        let chain_at_hit = sweep_a.transform_at(hit.t);
        let (local_normal, _) = one_sided_normal(chain, index, chain_at_hit.rotate_inv(hit.normal));
        best = Some(CastHit {
            normal: chain_at_hit.rotate(local_normal),
            ..hit
        });
    }
    best
}

/// Whether a touch of segment `index` at time `hit.t > 0` is a contact that a translating B
/// really makes, rather than the ghost of a joint it slides over.
///
/// The ghost: B slides within the cast's `tolerance` of the chain (the start rules above let
/// it leave or slide along the segment it rests on) and meets the next segment's end where the
/// two join in line or bend away; a box resting on a flat chain stopped there, at every gap
/// below the tolerance. The touch is dropped when some line that the whole segment lies on or
/// behind (its own; the neighbour's at a flat or convex joint) has B wholly in front of it and
/// B moves into it by at most the tolerance over the rest of the step: B's distance to the
/// half-plane behind that line then shrinks by at most the tolerance, so B cannot meet the
/// segment by more. Open ends, turning sweeps and compounds keep every touch.
fn translating_into(
    chain: &Chain,
    index: usize,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    hit: &CastHit,
    tolerance: f32,
) -> bool {
    if sweep_a.rotation() != 0.0 || sweep_b.rotation() != 0.0 {
        return true;
    }
    let Some(proxy) = ConvexProxy::from_shape(b) else {
        return true;
    };
    let chain_at_hit = sweep_a.transform_at(hit.t);
    let (start, end) = chain.segment_points(index);
    let local = chain_at_hit.apply_inv(hit.point);
    let at_end = (local - start).length_squared() > (local - end).length_squared();
    if chain.joint(index, at_end) == Joint::End {
        return true;
    }
    let face_normal = chain.normals()[index];
    let joint = if at_end { end } else { start };
    let far = if at_end { start } else { end };
    let neighbour_normal = chain.neighbour_normal(index, at_end);
    let rest =
        chain_at_hit.rotate_inv(sweep_b.translation() - sweep_a.translation()) * (1.0 - hit.t);
    // B's place at the hit is rounded to its world coordinates: 8 ulps of them are slack too.
    let slack = tolerance + 8.0 * f32::EPSILON * hit.point.abs().max_element();
    let b_in_chain = chain_at_hit.inv_mul(&sweep_b.transform_at(hit.t));
    // Lines the whole segment lies on or behind: its own, and the neighbour's at a flat or
    // convex joint.
    let neighbour_line = (far - joint).dot(neighbour_normal) <= 0.0;
    let lines = [(face_normal, true), (neighbour_normal, neighbour_line)];
    !lines.iter().any(|&(normal, holds_segment)| {
        let deepest = proxy.point(proxy.support_index(b_in_chain.rotate_inv(-normal)));
        holds_segment
            && -rest.dot(normal) <= tolerance
            && normal.dot(b_in_chain.apply(deepest) - joint) - proxy.radius() >= -slack
    })
}

/// A hit normal off segment `index` (chain frame), kept to the normals a one-sided segment with
/// neighbours can have. At a convex joint those run from the face normal to the neighbour's,
/// both included: a flat bottom coming down onto the top of a square corner meets the side's
/// end along the top's normal, square to the side's own (it stands on the corner; it was given
/// the side's normal, a wall, and a box walking off a chain's ledge stood on nothing).
///
/// With it, whether the chain's manifold admits the normal for this segment: `false` for a
/// normal in front of the face that leans past the neighbour's normal at a convex joint (beyond
/// the slack of [`FACE_TOLERANCE`]), which is clamped to the neighbour's. The manifold gives that
/// touch to the neighbour's own face or end; this segment reports it only as the smaller push
/// along its cone's edges. (Clamped, a
/// polygon 500 across meeting a joint of a chain 0.01 across was 28 units deep along the normal
/// given, and which of the segments' nearly simultaneous hits came first, and so which normal,
/// was decided by rounding.)
fn one_sided_normal(chain: &Chain, index: usize, normal: Vec2) -> (Vec2, bool) {
    let face_normal = chain.normals()[index];
    if cross(normal, face_normal).abs() <= FACE_TOLERANCE {
        return (face_normal, true);
    }
    let at_end = normal.dot(left_perp(face_normal)) > 0.0;
    let joint = chain.joint(index, at_end);
    // Square to the face or behind it: only the neighbour's side of a convex joint has it.
    let towards_neighbour = matches!(joint, Joint::Convex { neighbour_normal }
        if normal.dot(neighbour_normal) > 0.0);
    if normal.dot(face_normal) <= 0.0 && !towards_neighbour {
        if joint == Joint::End {
            // Round an open end the normals run from the face's to square to it, outwards
            // along the segment: one at or behind square is held there, next to those in
            // front of it. (Turned to the face normal, a ball grazing past the end got the
            // face's normal or the end's, 90° apart, as rounding put its normal a hair in
            // front of square or behind it.)
            let along = left_perp(face_normal);
            return (if at_end { along } else { -along }, true);
        }
        return (face_normal, true);
    }
    match joint {
        Joint::End => (normal, true),
        Joint::FlatOrConcave => (face_normal, true),
        Joint::Convex { neighbour_normal } => {
            let (from, to) = if at_end {
                (face_normal, neighbour_normal)
            } else {
                (neighbour_normal, face_normal)
            };
            let admitted = normal.dot(face_normal) <= 0.0
                || (cross(from, normal) >= -FACE_TOLERANCE && cross(normal, to) >= -FACE_TOLERANCE);
            let kept = if cross(from, normal) < 0.0 {
                from
            } else if cross(normal, to) < 0.0 {
                to
            } else {
                normal
            };
            (kept, admitted)
        }
    }
}

/// The sweep of a compound's child: the parent's motion with the rotation centre expressed in
/// the child's frame and the child's own rotation composed after the parent's.
pub(crate) fn child_sweep(parent: &Sweep, child_xf: &Transform) -> Sweep {
    Sweep {
        local_center: child_xf.apply_inv(parent.local_center),
        center_start: parent.center_start,
        center_end: parent.center_end,
        rotation_start: parent.rotation_start.mul(child_xf.q),
        turn: parent.turn,
    }
}

/// Closed forms for non-rotating circle–circle and circle–segment pairs; `None` when the pair
/// has no closed form here, `Some(result)` otherwise.
fn cast_analytic(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: &CastOptions,
) -> Option<Option<CastHit>> {
    let closed_form = matches!(
        (a, b),
        (Shape::Circle(_), Shape::Circle(_) | Shape::Segment(_))
            | (Shape::Segment(_), Shape::Circle(_))
    );
    if !closed_form
        || sweep_a.rotation() != 0.0
        || sweep_b.rotation() != 0.0
        || opts.separating_overlap_hits
    {
        return None;
    }
    let (start_a, end_a) = (sweep_a.transform_at(0.0), sweep_a.transform_at(1.0));
    let (start_b, end_b) = (sweep_b.transform_at(0.0), sweep_b.transform_at(1.0));
    // A start within `target + tolerance` (a mover resting a skin away, or sliding along a
    // surface) is decided by the rules of `time_of_impact`: a hit only if the gap really closes.
    // The closed forms would report any start inside the inflated radius as a hit at 0.
    if start_gap(a, &start_a, b, &start_b) <= opts.target_separation + opts.tolerance {
        return None;
    }
    match (a, b) {
        (Shape::Circle(ca), Shape::Circle(cb)) => {
            let radius_a = ca.radius() + opts.target_separation;
            let result = sweep_circles(
                start_a.apply(ca.center()),
                end_a.apply(ca.center()),
                radius_a,
                start_b.apply(cb.center()),
                end_b.apply(cb.center()),
                cb.radius(),
            )
            .and_then(|SweepHit { t, normal }| {
                let center_a = sweep_a.transform_at(t).apply(ca.center());
                let center_b = sweep_b.transform_at(t).apply(cb.center());
                let relative = sweep_b.translation() - sweep_a.translation();
                (t > 0.0 || relative.dot(normal) < 0.0).then(|| CastHit {
                    t,
                    point: 0.5
                        * ((center_a + normal * ca.radius()) + (center_b - normal * cb.radius())),
                    normal,
                    converged: true,
                })
            });
            Some(result)
        }
        (Shape::Circle(circle), Shape::Segment(segment)) => {
            // Work in the segment's (non-rotating) frame moving with B.
            let relative = sweep_a.translation() - sweep_b.translation();
            let start = start_b.apply_inv(start_a.apply(circle.center()));
            let end = start + start_b.rotate_inv(relative);
            let radius = circle.radius() + opts.target_separation;
            let result = sweep_circle_segment(start, end, radius, segment.a(), segment.b())
                .and_then(
                    |SweepHit {
                         t,
                         normal: local_normal,
                     }| {
                        let normal = start_b.rotate(local_normal);
                        (t > 0.0 || relative.dot(normal) > 0.0).then(|| {
                            let center = sweep_a.transform_at(t).apply(circle.center());
                            CastHit {
                                t,
                                point: center
                                    + normal * (circle.radius() + 0.5 * opts.target_separation),
                                normal,
                                converged: true,
                            }
                        })
                    },
                );
            Some(result)
        }
        (Shape::Segment(_), Shape::Circle(_)) => {
            cast_analytic(b, sweep_b, a, sweep_a, opts).map(|result| {
                result.map(|hit| CastHit {
                    normal: -hit.normal,
                    ..hit
                })
            })
        }
        _ => None,
    }
}

/// The gap at `t = 0` of a pair with a closed form in [`cast_analytic`] (`INFINITY` for others).
fn start_gap(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> f32 {
    match (a, b) {
        (Shape::Circle(ca), Shape::Circle(cb)) => {
            xf_a.apply(ca.center()).distance(xf_b.apply(cb.center())) - ca.radius() - cb.radius()
        }
        (Shape::Circle(circle), Shape::Segment(segment)) => {
            let (p, q) = (xf_b.apply(segment.a()), xf_b.apply(segment.b()));
            let center = xf_a.apply(circle.center());
            crate::shape::closest_point_on_segment(p, q, center).distance(center) - circle.radius()
        }
        (Shape::Segment(_), Shape::Circle(_)) => start_gap(b, xf_b, a, xf_a),
        _ => f32::INFINITY,
    }
}

/// The gap, normal (A to B) and contact midpoint of a pair at one time, in some frame.
#[derive(Clone, Copy, Debug)]
struct Probe {
    gap: f32,
    normal: Vec2,
    point: Vec2,
    /// Whether `normal` was measured between separate cores; `false` when the cores overlap
    /// (or are rounding noise apart) and the normal is a stand-in (the previous step's, or
    /// along the centres).
    measured: bool,
}

/// How the gap between two moving shapes is measured: `probe(t, previous_normal)`, and an
/// upper bound on how fast the gap can close along a normal (per unit `t`).
trait GapFunction {
    fn probe(&mut self, t: f32, previous_normal: Option<Vec2>) -> Probe;
    fn closing_bound(&self, normal: Vec2) -> f32;
    /// An upper bound on how fast shapes that overlap can go further into each other along
    /// `normal` (per unit `t`): as [`closing_bound`](Self::closing_bound), but a shape's
    /// rounding turning onto itself counts for nothing (a ball turning about its centre
    /// cannot sink deeper by turning).
    fn deepening_bound(&self, normal: Vec2) -> f32;
    /// An upper bound on how fast the gap, measured past touching, can change in any
    /// direction (per unit `t`), and whether it is convex in time (a translating pair).
    fn speed_bound(&self) -> (f32, bool);
    /// The contact at time `t` as the narrow phase sees it, speculative within the tolerance
    /// (normal from A to B, deepest point in the probe's frame, and its penetration), `None`
    /// when the shapes are farther apart: how deep shapes whose gap is 0 overlap, and their
    /// normal when the cores overlap or are rounding noise apart.
    fn contact_at(&self, t: f32) -> Option<(Vec2, Vec2, f32)>;
}

/// The gap at time `t` measured past touching: the probe's gap while the shapes are apart,
/// minus the contact's penetration once they overlap.
fn signed_gap(gaps: &mut impl GapFunction, t: f32, normal: Vec2) -> f32 {
    let gap = gaps.probe(t, Some(normal)).gap;
    if gap > 0.0 {
        return gap;
    }
    -gaps
        .contact_at(t)
        .map_or(0.0, |(_, _, penetration)| penetration)
}

/// Most steps of the golden-section search of [`sinks_below`]: 0.618^96 is below the `f32`
/// resolution of any time in the step.
const MAX_GOLDEN_STEPS: u32 = 96;

/// Whether the gap, measured past touching, falls below `below` at some time of the step;
/// `None` when `max_iterations` run out before that is known.
///
/// A translating pair's gap is convex in time: the end of the step, then the lowest point a
/// golden-section search finds (its minimum). A turning pair's gap is not (a box resting on a
/// corner and turning into the floor sinks at once and rises again long before the middle of
/// the step, where the search went): conservative advancement from 0 towards `below`, each
/// step the gap above a tolerance below it over the pair's speed bound, so no dip is stepped
/// over.
fn sinks_below(
    gaps: &mut impl GapFunction,
    normal: Vec2,
    below: f32,
    tolerance: f32,
    max_iterations: u32,
) -> Option<bool> {
    const RATIO: f32 = 0.618_034;
    let (speed, convex) = gaps.speed_bound();
    if !convex {
        let mut t = 0.0f32;
        for _ in 0..max_iterations.max(1) {
            let gap = signed_gap(gaps, t, normal);
            if gap < below {
                return Some(true);
            }
            // Aimed a tolerance lower, so that a gap sinking past `below` is passed in a few
            // steps rather than approached for ever.
            t += (gap - below + tolerance) / speed;
            if t > 1.0 {
                return Some(false);
            }
        }
        return None;
    }
    if signed_gap(gaps, 1.0, normal) < below {
        return Some(true);
    }
    // At least 24 steps, then on until the bracket is shorter than the time the pair takes to
    // close by the tolerance: a fast pair's dip (a bullet resting on a thin floor, shot through
    // it at 1e3 units a step) lasts a millionth of the step or less.
    let (mut low, mut high) = (0.0f32, 1.0f32);
    for step in 0..MAX_GOLDEN_STEPS {
        if step >= 24 && (high - low) * speed <= tolerance {
            break;
        }
        let (early, late) = (high - RATIO * (high - low), low + RATIO * (high - low));
        let (at_early, at_late) = (
            signed_gap(gaps, early, normal),
            signed_gap(gaps, late, normal),
        );
        if at_early.min(at_late) < below {
            return Some(true);
        }
        if at_early <= at_late {
            high = late;
        } else {
            low = early;
        }
    }
    Some(false)
}

/// The normal, deepest point and its penetration of the contact manifold of `a` at `xf_a` and
/// `b` at `xf_b`, with speculative points within `margin`.
fn contact_of(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    margin: f32,
) -> Option<(Vec2, Vec2, f32)> {
    let manifold = super::manifold::collide_speculative(a, xf_a, b, xf_b, margin);
    let deepest = manifold
        .points()
        .iter()
        .max_by(|x, y| x.penetration.total_cmp(&y.penetration))?;
    Some((manifold.normal, deepest.point, deepest.penetration))
}

/// Advances `t` from `start` until the gap is at most `stop`, aiming each step at `aim`
/// (below `stop`, so that the steps end): returns the time with its probe, `None` when the gap
/// stays above `stop` through `t = 1`. Also returns whether it converged (it reports the time
/// reached, early, when the iterations run out).
fn march(
    gaps: &mut impl GapFunction,
    start: f32,
    first: Probe,
    aim: f32,
    stop: f32,
    max_iterations: u32,
) -> Option<(f32, Probe, bool)> {
    let mut t = start;
    let mut probe = first;
    for _ in 0..max_iterations.max(1) {
        if probe.gap <= stop {
            return Some((t, probe, true));
        }
        let bound = gaps.closing_bound(probe.normal);
        if bound <= 0.0 {
            return None;
        }
        t += (probe.gap - aim) / bound;
        if t > 1.0 {
            return None;
        }
        probe = gaps.probe(t, Some(probe.normal));
    }
    Some((t, probe, probe.gap <= stop))
}

/// The time-of-impact logic shared by every convex pair.
///
/// 1. Measure the gap at `t = 0`.
/// 2. Already within `target + tolerance`: with `separating_overlap_hits`, a hit at 0. Deeper
///    than `target − tolerance` (inside the skin, or overlapping by more than the tolerance,
///    as deep as the contact manifold says): a hit at 0 if approaching along the normal (the
///    manifold's when the cores overlap). Within the band
///    around the target (a mover resting a skin away): a hit at 0 only if the gap really closes
///    by more than the tolerance during the step — sliding along a surface, or across the seam
///    between two tiles, is not a hit. A turning pair's gap can dip anywhere in the step: it is
///    followed from 0 by conservative advancement ([`sinks_below`]), and when `max_iterations`
///    run out first the answer is the early one, a hit at 0 that is not converged.
/// 3. Otherwise march to the first time the gap is within tolerance of the target.
fn time_of_impact(gaps: &mut impl GapFunction, opts: &CastOptions) -> Option<(f32, Probe, bool)> {
    let first = gaps.probe(0.0, None);
    if first.gap <= opts.target_separation + opts.tolerance {
        return contact_at_start(gaps, first, opts);
    }
    march(
        gaps,
        0.0,
        first,
        opts.target_separation,
        opts.target_separation + opts.tolerance,
        opts.max_iterations,
    )
}

/// Step 2 of [`time_of_impact`]: the answer when the gap at `t = 0` (`first`) is already within
/// `target + tolerance`.
fn contact_at_start(
    gaps: &mut impl GapFunction,
    first: Probe,
    opts: &CastOptions,
) -> Option<(f32, Probe, bool)> {
    let target = opts.target_separation;
    let tolerance = opts.tolerance;
    // The gap is measured clamped at 0: how deep shapes that touch overlap, and, when their
    // cores overlap or are rounding noise apart (no closest points to give a normal), the
    // contact's normal (the direction they overlap least) rather than the stand-in between
    // their centres, which points anywhere for a long floor, come from the narrow phase.
    let mut first = first;
    let mut depth = 0.0;
    if first.gap <= 0.0 || !first.measured {
        if let Some((normal, point, penetration)) = gaps.contact_at(0.0) {
            if first.gap <= 0.0 {
                depth = penetration.max(0.0);
            }
            if !first.measured {
                (first.normal, first.point) = (normal, point);
            }
        }
    }
    if opts.separating_overlap_hits {
        return Some((0.0, first, true));
    }
    // Overlapping by more than the tolerance is deeper than the band around any target
    // (`target` is at least 0), so a slow push further in is a hit at once, not a gap that
    // cannot close below its clamp.
    // Deeper in only by the motion of the cores: the rounding's turn does not move the
    // surfaces (a ball resting on a floor and turning as it rolls along it does not sink).
    if first.gap - depth < target - tolerance {
        return (gaps.deepening_bound(first.normal) > tolerance).then_some((0.0, first, true));
    }
    // Within the band around the target. A gap within the tolerance of touching cannot close
    // by the tolerance while measured clamped at 0 (a ball resting on a floor and pushed 0.01
    // into it over the step would march on to `t > 1`): the overlap past touching is
    // measured with the narrow phase instead.
    if first.gap < tolerance {
        if gaps.closing_bound(first.normal) <= tolerance {
            return None;
        }
        // Undecided when the iterations run out: the early answer, as `march` gives.
        return match sinks_below(
            gaps,
            first.normal,
            first.gap - depth - tolerance,
            tolerance,
            opts.max_iterations,
        ) {
            Some(true) => Some((0.0, first, true)),
            Some(false) => None,
            None => Some((0.0, first, false)),
        };
    }
    let closes = march(
        gaps,
        0.0,
        first,
        first.gap - 2.0 * tolerance,
        first.gap - tolerance,
        opts.max_iterations,
    );
    closes.map(|_| (0.0, first, true))
}

/// Two convex shapes that only translate, measured in A's starting frame: B's placement
/// relative to A moves on a straight line, so no trigonometry is needed per step, and the gap is
/// a convex function of `t` (a Newton step along the current normal never passes the first
/// contact).
struct LinearGap<'a> {
    /// The two shapes, for the contact at the start ([`GapFunction::contact_at`]).
    shapes: (&'a Shape, &'a Shape),
    proxy_a: &'a ConvexProxy<'a>,
    proxy_b: &'a ConvexProxy<'a>,
    b_in_a_start: Transform,
    local_motion: Vec2,
    tolerance: f32,
    cache: SimplexCache,
}

impl LinearGap<'_> {
    /// B's placement in A's starting frame at time `t`.
    #[inline]
    fn b_in_a(&self, t: f32) -> Transform {
        Transform {
            p: self.b_in_a_start.p + self.local_motion * t,
            q: self.b_in_a_start.q,
        }
    }
}

impl GapFunction for LinearGap<'_> {
    fn probe(&mut self, t: f32, previous_normal: Option<Vec2>) -> Probe {
        let b_in_a = self.b_in_a(t);
        let cores = gjk_distance(self.proxy_a, self.proxy_b, &b_in_a, &mut self.cache);
        let (radius_a, radius_b) = (self.proxy_a.radius(), self.proxy_b.radius());
        // A normal from cores closer than a fraction of the tolerance is rounding noise; the
        // previous step's normal is then the better one.
        let well_defined = cores.distance > 0.1 * self.tolerance
            || (cores.distance > 0.0 && previous_normal.is_none());
        let fallback = || {
            previous_normal.unwrap_or_else(|| {
                crate::math::try_unit(b_in_a.p)
                    .or_else(|| crate::math::try_unit(-self.local_motion))
                    .unwrap_or(Vec2::X)
            })
        };
        let offset = cores.point_b - cores.point_a;
        // As in `distance`: the axis GJK converged along, when it has one. For an edge of
        // `B − A` the offset between the closest points is tilted by the rounding of the
        // barycentric weights (an ulp of the edge's coordinates over the distance: a tenth of
        // a radian for a ball 1e-3 across on a face 1e3 long); the edge's perpendicular is not.
        let axis = (-cores.axis).try_normalize().filter(|_| well_defined);
        let normal = if let Some(axis) = axis {
            axis
        } else if well_defined && cores.distance >= 1e-15 {
            offset / cores.distance
        } else if well_defined {
            // Cores a few ulps apart: their offset squares into subnormals, so its measured
            // length is off by up to tens of percents; normalised at its own scale instead.
            crate::math::try_unit(offset).unwrap_or_else(fallback)
        } else {
            fallback()
        };
        Probe {
            gap: (cores.distance - radius_a - radius_b).max(0.0),
            normal,
            point: cores.point_a + normal * (0.5 * (cores.distance + radius_a - radius_b)),
            // A first probe takes even cores a few ulps apart, but their normal is noise: the
            // offset must stand out of the tolerance and of the rounding of the points'
            // coordinates (ulps of 300 for a shape 1e3 across, in the frame of one 1e-3 across).
            measured: cores.distance > 0.1 * self.tolerance
                && cores.distance
                    > 8.0
                        * f32::EPSILON
                        * cores.point_a.abs().max(cores.point_b.abs()).max_element(),
        }
    }

    fn closing_bound(&self, normal: Vec2) -> f32 {
        -self.local_motion.dot(normal)
    }

    fn deepening_bound(&self, normal: Vec2) -> f32 {
        self.closing_bound(normal)
    }

    fn speed_bound(&self) -> (f32, bool) {
        (self.local_motion.length(), true)
    }

    fn contact_at(&self, t: f32) -> Option<(Vec2, Vec2, f32)> {
        let (a, b) = self.shapes;
        // The rounding is worked out here, not once a cast: only a start that touches asks.
        let rounding = pair_rounding(
            self.proxy_a,
            self.proxy_b,
            self.b_in_a_start.p,
            self.local_motion,
        );
        contact_of(
            a,
            &Transform::IDENTITY,
            b,
            &self.b_in_a(t),
            self.tolerance + rounding,
        )
    }
}

/// Most support points [`linear_ray_cast`] computes before it hands over to [`march`].
const MAX_RAY_CAST_SUPPORTS: usize = 4 * MAX_GJK_ITERATIONS;

/// [`time_of_impact`] for a [`LinearGap`] pair by GJK ray casting: one simplex carried over
/// the whole sweep.
///
/// B's motion relative to A moves the Minkowski difference `D = B − A` of the cores rigidly
/// along `local_motion`, so the question is when the origin first comes within
/// `aim = radii + target` of the moving `D`. GJK refines a simplex of `D` at the current time;
/// each support point `w` along the axis `n` from the origin towards `D` gives a plane that all
/// of `D` lies beyond (`n · x ≥ n · w`). While that plane is farther than the aim, no contact
/// can happen before the plane has closed the difference, so time jumps there. Van den Bergen,
/// "Ray casting against general convex objects with application to continuous collision
/// detection" (2004), with the inflated target of Catto's shape cast:
///
/// ```text
/// t ← 0; simplex ← {the support point of D along the motion}
/// loop:
///     reduce the simplex to the part nearest the origin; v ← its nearest point
///     |v| ≤ aim + tolerance (or the origin is inside) → hit at t, once no support point of
///         D lies nearer the origin along v's axis by more than the tolerance (else add it and
///         go on), normal that axis (n while v is rounding noise)
///     n ← unit axis from the origin towards v; w ← support point of D(t) along −n
///     if n · w > aim (at t = 0: > aim + tolerance):   (a plane beyond the aim separates)
///         closing ← −n · motion; closing ≤ 0 → miss
///         t ← t + (n · w − aim) / closing; t > 1 → miss
///         move the simplex and w to D(t)
///     add w to the simplex unless it is there already
/// ```
///
/// Each jump is a conservative-advancement step along a plane that really separates, so the
/// result is never past the first contact, and `max_iterations` caps the jumps as it caps the
/// steps of [`march`]. At `t = 0` time only moves once the gap is known to exceed
/// `target + tolerance`; a start within that band (or any doubt there) goes to
/// [`time_of_impact`], whose rules for it are the documented ones. When the simplex stops making
/// progress later (rounding), [`march`] finishes from the time reached.
fn linear_ray_cast(gaps: &mut LinearGap, opts: &CastOptions) -> Option<(f32, Probe, bool)> {
    let (proxy_a, proxy_b) = (gaps.proxy_a, gaps.proxy_b);
    if let (Some(outline_a), Some(outline_b)) = (proxy_a.outline(), proxy_b.outline()) {
        let supports = PolygonSupports {
            a: FlatLanes::vertices(outline_a),
            turned_b: FlatLanes::turned(outline_b, gaps.b_in_a_start.q),
        };
        return linear_ray_cast_with(gaps, opts, &supports);
    }
    linear_ray_cast_with(gaps, opts, &ProxySupports { proxy_a, proxy_b })
}

/// [`linear_ray_cast`] with the support points of `D` from `supports`.
#[inline(always)]
fn linear_ray_cast_with(
    gaps: &mut LinearGap,
    opts: &CastOptions,
    supports: &impl CastSupports,
) -> Option<(f32, Probe, bool)> {
    let (proxy_a, proxy_b) = (gaps.proxy_a, gaps.proxy_b);
    let (radius_a, radius_b) = (proxy_a.radius(), proxy_b.radius());
    let aim = radius_a + radius_b + opts.target_separation;
    let stop = aim + opts.tolerance;
    let motion = gaps.local_motion;
    let max_jumps = opts.max_iterations.max(1);
    let mut jumps = 0u32;
    let mut t = 0.0f32;
    let mut normal = Vec2::ZERO;
    let mut b_in_a = gaps.b_in_a(0.0);
    // Start from the part of D leading along the motion: the first to reach the origin when
    // the motion is head-on.
    let mut simplex = Simplex::from_vertex(supports.along(motion, None, &b_in_a));
    let hit_at = |simplex: &Simplex, normal: Vec2| {
        let (point_a, point_b) = simplex.witness_points();
        Probe {
            gap: ((point_b - point_a).length() - radius_a - radius_b).max(0.0),
            normal,
            point: 0.5 * (point_a + point_b) + normal * (0.5 * (radius_a - radius_b)),
            measured: true,
        }
    };
    for _ in 0..MAX_RAY_CAST_SUPPORTS {
        // 1. The part of the simplex nearest the origin; a triangle means the cores overlap
        //    (after a jump only by rounding, since every jump stops short of the aim).
        let closest = simplex.solve();
        if simplex.count == 3 || closest.length_squared() <= stop * stop {
            if jumps == 0 {
                return time_of_impact(gaps, opts);
            }
            if simplex.count < 3 && aim > 0.0 {
                // Within the aim along the simplex, which may be a chord of D: its witness
                // points then lie on the cores' faces within the tolerance only along the
                // last jump's plane, taken before the jump, and pushed out by the radii along
                // it they miss the surfaces (a normal 9e-3 rad off and a point 6e-3 off a
                // bullet 1e-2 across reaching a ball 2.7 across). The simplex holds D's
                // nearest points once no support point lies nearer the origin along its axis
                // by more than the tolerance, and that axis is then the normal (unless the
                // simplex is rounding noise from the origin). Sharp pairs kept a target apart
                // stop the same way, a target from D (their normal was the jump's plane, 24
                // degrees off the closest points' direction for a quad sliding a skin above a
                // segment's end); with no target they stop at `|v| ≤ tolerance`, where any
                // witness points of the cores are within it of both.
                let towards_origin = simplex.search_direction();
                let length = towards_origin.length();
                if length > 0.0 && length.is_finite() {
                    let axis = towards_origin / -length;
                    let vertex =
                        supports.along(towards_origin, Some(simplex.first_indices()), &b_in_a);
                    let nearest = axis.dot(closest);
                    if axis.dot(vertex.difference) < nearest - opts.tolerance
                        && !simplex.contains_source(vertex.source())
                    {
                        simplex.push(vertex);
                        continue;
                    }
                    let (point_a, point_b) = simplex.witness_points();
                    let rounding =
                        8.0 * f32::EPSILON * point_a.abs().max(point_b.abs()).max_element();
                    if nearest > 0.1 * opts.tolerance && nearest > rounding {
                        normal = axis;
                    }
                }
            }
            if radius_a + radius_b == 0.0 {
                if let Some(corners) = simplex.corner_indices() {
                    let gap = simplex.witness_points();
                    let gap = (gap.1 - gap.0).length();
                    normal = least_resisting_normal(
                        proxy_a, proxy_b, &b_in_a, corners, gap, motion, normal,
                    );
                }
            }
            return Some((t, hit_at(&simplex, normal), true));
        }
        // 2. The axis from the origin towards the simplex and the support point of D along −axis.
        let towards_origin = simplex.search_direction();
        let length = towards_origin.length();
        if length.is_nan() || length <= 0.0 {
            break;
        }
        let axis = towards_origin / -length;
        let mut vertex = supports.along(towards_origin, Some(simplex.first_indices()), &b_in_a);
        let plane = axis.dot(vertex.difference);
        if plane > if jumps == 0 { stop } else { aim } {
            // 3. D lies beyond a plane farther than the aim: jump to where the plane reaches it.
            let closing = -axis.dot(motion);
            if closing <= 0.0 {
                return None;
            }
            if jumps == max_jumps {
                return Some((t, hit_at(&simplex, normal), false));
            }
            jumps += 1;
            let step = (plane - aim) / closing;
            t += step;
            if t > 1.0 {
                return None;
            }
            normal = axis;
            b_in_a = gaps.b_in_a(t);
            let offset = motion * step;
            simplex.translate_b(offset);
            vertex.translate_b(offset);
        } else if simplex.contains_source(vertex.source()) {
            // 4. No better support point and no jump: the simplex is as good as rounding allows.
            break;
        }
        // 5. Grow the simplex (a repeated support point after a jump is already in it).
        if !simplex.contains_source(vertex.source()) {
            simplex.push(vertex);
        }
    }
    if jumps == 0 {
        return time_of_impact(gaps, opts);
    }
    simplex.write_cache(&mut gaps.cache);
    let probe = gaps.probe(t, Some(normal));
    march(
        gaps,
        t,
        probe,
        opts.target_separation,
        opts.target_separation + opts.tolerance,
        max_jumps - jumps,
    )
}

/// The normal of a hit between sharp cores (no rounding) where a corner of each meets the
/// other's (core points `corners`, `gap` apart), in A's frame.
///
/// There the axis the cast last jumped along is one of a cone of normals that all separate
/// the cores (a box sliding level with the top of the next box in a row meets that box's corner
/// along any direction from up to forwards, and the jump may take any of them). Of the normals
/// of the four edges at the two corners that separate the cores by their distance (normals of
/// the contact as much as the jump axis; with a target separation, only where an edge lies
/// across the line between the corners), the one that resists the relative `motion` (B's, in
/// A's frame) least is the answer: across a seam, that is the face slid along, so a mover is
/// not turned aside by a corner it only grazes. `normal` (valid already) is kept unless a
/// candidate resists strictly less.
fn least_resisting_normal(
    proxy_a: &ConvexProxy,
    proxy_b: &ConvexProxy,
    b_in_a: &Transform,
    (corner_a, corner_b): (usize, usize),
    gap: f32,
    motion: Vec2,
    normal: Vec2,
) -> Vec2 {
    let (a, b) = (proxy_a.points(), proxy_b.points());
    if a.len() < 2 || b.len() < 2 || corner_a >= a.len() || corner_b >= b.len() {
        return normal;
    }
    let place_b = |p: &Vec2| b_in_a.apply(*p);
    // The outward normal of the edge from vertex `from`, turned into an axis from A to B (B's
    // negated), with B's vertices placed in A's frame.
    let edge_axis = |points: &[Vec2], from: usize, placed: bool| {
        let to = (from + 1) % points.len();
        let (start, end, sign) = if placed {
            (place_b(&points[from]), place_b(&points[to]), -1.0)
        } else {
            (points[from], points[to], 1.0)
        };
        right_perp(end - start).try_normalize().map(|n| n * sign)
    };
    let previous = |points: &[Vec2], i: usize| (i + points.len() - 1) % points.len();
    let candidates = [
        edge_axis(a, previous(a, corner_a), false),
        edge_axis(a, corner_a, false),
        edge_axis(b, previous(b, corner_b), true),
        edge_axis(b, corner_b, true),
    ];
    let slack = 1e-6 * motion.length();
    // A candidate must separate the cores by their distance, to the rounding of their
    // coordinates (measured once, at the first candidate that resists less).
    let mut rounding = None;
    let mut best = normal;
    let mut best_score = normal.dot(motion);
    for axis in candidates.into_iter().flatten() {
        let score = axis.dot(motion);
        if score <= best_score + slack {
            continue;
        }
        let lowest_b = b
            .iter()
            .map(|p| axis.dot(place_b(p)))
            .fold(f32::INFINITY, f32::min);
        let highest_a = a
            .iter()
            .map(|p| axis.dot(*p))
            .fold(f32::NEG_INFINITY, f32::max);
        let rounding = *rounding.get_or_insert_with(|| {
            let size = a
                .iter()
                .copied()
                .chain(b.iter().map(place_b))
                .fold(0.0f32, |m, p| m.max(p.abs().max_element()));
            8.0 * f32::EPSILON * size
        });
        if lowest_b - highest_a >= gap - rounding {
            best = axis;
            best_score = score;
        }
    }
    best
}

/// The support points of `D = B − A` for [`linear_ray_cast`], in A's frame.
trait CastSupports {
    /// The support point of D along `towards` (A's frame): A's core point furthest along
    /// `−towards` and B's furthest along `towards`, with B placed by `b_in_a` (whose rotation
    /// is B's starting one in A's frame). `near` holds core point indices from which a
    /// walking search may start.
    fn along(
        &self,
        towards: Vec2,
        near: Option<(usize, usize)>,
        b_in_a: &Transform,
    ) -> SimplexVertex;
}

/// Any pair of convex cores, searched through their proxies.
struct ProxySupports<'a> {
    proxy_a: &'a ConvexProxy<'a>,
    proxy_b: &'a ConvexProxy<'a>,
}

impl CastSupports for ProxySupports<'_> {
    #[inline(always)]
    fn along(
        &self,
        towards: Vec2,
        near: Option<(usize, usize)>,
        b_in_a: &Transform,
    ) -> SimplexVertex {
        let (proxy_a, proxy_b) = (self.proxy_a, self.proxy_b);
        let local_towards = b_in_a.rotate_inv(towards);
        let (index_a, index_b) = match near {
            Some((near_a, near_b)) => (
                proxy_a.support_index_near(near_a, -towards),
                proxy_b.support_index_near(near_b, local_towards),
            ),
            None => (
                proxy_a.support_index(-towards),
                proxy_b.support_index(local_towards),
            ),
        };
        SimplexVertex::new(proxy_a, index_a, proxy_b, index_b, b_in_a)
    }
}

/// Two polygons of at most 8 vertices, in padded lanes. B only translates in A's frame, so
/// its vertices are turned into A's frame once (`turned_b`): each support search on B is
/// then a lane scan along the axis as it is, and its point needs only the translation,
/// neither waiting for a rotation.
struct PolygonSupports {
    /// A's vertices (A's frame).
    a: FlatLanes,
    /// B's vertices turned into A's frame (not yet translated).
    turned_b: FlatLanes,
}

impl CastSupports for PolygonSupports {
    #[inline(always)]
    fn along(&self, towards: Vec2, _: Option<(usize, usize)>, b_in_a: &Transform) -> SimplexVertex {
        let index_a = self.a.support_index(-towards);
        let index_b = self.turned_b.support_index(towards);
        let point_b = self.turned_b.point(index_b) + b_in_a.p;
        SimplexVertex::from_points(self.a.point(index_a), index_a, point_b, index_b)
    }
}

/// At most 8 points as padded lanes, in flat arrays so that point `i` is one indexed load.
struct FlatLanes {
    x: [f32; 8],
    y: [f32; 8],
}

impl FlatLanes {
    /// A polygon outline's vertices.
    #[inline(always)]
    fn vertices(outline: &PaddedOutline<2>) -> FlatLanes {
        let flat = |lanes: [Lanes; 2]| {
            let mut values = [0.0; 8];
            values[..4].copy_from_slice(&lanes[0].0);
            values[4..].copy_from_slice(&lanes[1].0);
            values
        };
        FlatLanes {
            x: flat(outline.vertex_x),
            y: flat(outline.vertex_y),
        }
    }

    /// A polygon outline's vertices turned by `q` (no translation): [`Rot::rotate`]'s
    /// arithmetic, lane by lane.
    #[inline(always)]
    fn turned(outline: &PaddedOutline<2>, q: Rot) -> FlatLanes {
        let (c, s) = (Vec4::splat(q.c), Vec4::splat(q.s));
        let mut turned = FlatLanes {
            x: [0.0; 8],
            y: [0.0; 8],
        };
        for chunk in 0..2 {
            let x = Vec4::from_array(outline.vertex_x[chunk].0);
            let y = Vec4::from_array(outline.vertex_y[chunk].0);
            (c * x - s * y).write_to_slice(&mut turned.x[4 * chunk..4 * chunk + 4]);
            (s * x + c * y).write_to_slice(&mut turned.y[4 * chunk..4 * chunk + 4]);
        }
        turned
    }

    /// The index of the point furthest along `direction` (see [`lane_support_index`]).
    #[inline(always)]
    fn support_index(&self, direction: Vec2) -> usize {
        let chunks = |values: &[f32; 8]| {
            [
                Vec4::from_slice(&values[..4]),
                Vec4::from_slice(&values[4..]),
            ]
        };
        lane_support_index(chunks(&self.x), chunks(&self.y), direction)
    }

    /// Point `index` (below 8).
    #[inline(always)]
    fn point(&self, index: usize) -> Vec2 {
        Vec2::new(self.x[index & 7], self.y[index & 7])
    }
}

/// Time of impact for two convex shapes that only translate (see [`LinearGap`]).
fn linear_advancement(
    (a, proxy_a): (&Shape, &ConvexProxy),
    sweep_a: &Sweep,
    (b, proxy_b): (&Shape, &ConvexProxy),
    sweep_b: &Sweep,
    opts: &CastOptions,
) -> Option<CastHit> {
    let start_a = sweep_a.transform_at(0.0);
    let b_in_a_start = start_a.inv_mul(&sweep_b.transform_at(0.0));
    let local_motion = start_a.rotate_inv(sweep_b.translation() - sweep_a.translation());
    let mut gaps = LinearGap {
        shapes: (a, b),
        proxy_a,
        proxy_b,
        b_in_a_start,
        local_motion,
        tolerance: opts.tolerance,
        cache: SimplexCache::default(),
    };
    let (t, probe, converged) = linear_ray_cast(&mut gaps, opts)?;
    // A's placement at time t: its start rotation, translated.
    let xf_a = Transform {
        p: start_a.p + sweep_a.translation() * t,
        q: start_a.q,
    };
    Some(CastHit {
        t,
        point: xf_a.apply(probe.point),
        normal: xf_a.rotate(probe.normal),
        converged,
    })
}

/// How far apart the rounding of coordinates may put two shapes' surfaces when one is placed
/// `offset` from the other and moves by `motion`: 8 ulps of the largest coordinate reached.
/// Contacts within it are contacts for the rules of a start already touching.
fn pair_rounding(proxy_a: &ConvexProxy, proxy_b: &ConvexProxy, offset: Vec2, motion: Vec2) -> f32 {
    let reach = reach_from_center(proxy_a, Vec2::ZERO) + reach_from_center(proxy_b, Vec2::ZERO);
    8.0 * f32::EPSILON * (offset.abs().max_element() + motion.abs().max_element() + reach)
}

/// The largest distance from a sweep's rotation centre to any point of a convex shape: how far
/// a point of the shape can move per radian of rotation. The farthest point of a core inflated
/// by a radius is a core point pushed out by the radius; a few ulps are added for the rounding
/// of the lengths.
fn reach_from_center(proxy: &ConvexProxy, local_center: Vec2) -> f32 {
    (farthest_core(proxy, local_center) + proxy.radius()) * (1.0 + 4.0 * f32::EPSILON)
}

/// The largest distance from a sweep's rotation centre to a core point. Times the turn (and a
/// few ulps), it bounds how fast the gap can change: the rounding turns onto itself (the shape
/// is its core inflated by a disc), so a ball turning about its centre does not change the gap
/// at all, and a ball rolling along a floor it rests on is no hit ([`sinks_below`]). The
/// march keeps [`reach_from_center`]'s bound, radius included, so its steps and the times it
/// reports are as before.
fn farthest_core(proxy: &ConvexProxy, local_center: Vec2) -> f32 {
    proxy
        .points()
        .iter()
        .map(|point| point.distance(local_center))
        .fold(0.0, f32::max)
}

/// Two shapes moving with rotation, measured in world space with GJK at each time.
///
/// The closing bound is Mirtich's: the relative translation along the normal plus `|ω| r` for
/// each shape, `r` its farthest point from its rotation centre (Mirtich, "Impulse-based Dynamic
/// Simulation of Rigid Body Systems", 1996, §2.3; Coumans, "Continuous Collision Detection and
/// Physics", 2005).
struct RotatingGap<'a> {
    /// The two shapes, for the contact at the start ([`GapFunction::contact_at`]).
    shapes: (&'a Shape, &'a Shape),
    proxy_a: ConvexProxy<'a>,
    placements_a: Placements<'a>,
    proxy_b: ConvexProxy<'a>,
    placements_b: Placements<'a>,
    relative_translation: Vec2,
    angular_reach: f32,
    /// The turning part of the gap's speed bound from the cores alone ([`farthest_core`]).
    core_angular_reach: f32,
    tolerance: f32,
    cache: SimplexCache,
}

impl GapFunction for RotatingGap<'_> {
    fn probe(&mut self, t: f32, previous_normal: Option<Vec2>) -> Probe {
        let xf_a = self.placements_a.at(t);
        let xf_b = self.placements_b.at(t);
        let output = if both_valid(&xf_a, &xf_b) {
            distance_between_convex(&self.proxy_a, &xf_a, &self.proxy_b, &xf_b, &mut self.cache)
        } else {
            DistanceOutput::NONE
        };
        // Near exact contact the normal is rounding noise: keep the previous step's.
        let well_defined = output.normal != Vec2::ZERO
            && (output.distance > 0.1 * self.tolerance || previous_normal.is_none());
        let normal = if well_defined {
            output.normal
        } else {
            previous_normal
                .unwrap_or_else(|| fallback_normal(&xf_a, &xf_b, self.relative_translation))
        };
        Probe {
            gap: output.distance,
            normal,
            point: 0.5 * (output.point_a + output.point_b),
            measured: well_defined,
        }
    }

    fn closing_bound(&self, normal: Vec2) -> f32 {
        (-self.relative_translation.dot(normal)).max(0.0) + self.angular_reach
    }

    fn deepening_bound(&self, normal: Vec2) -> f32 {
        (-self.relative_translation.dot(normal)).max(0.0) + self.core_angular_reach
    }

    fn speed_bound(&self) -> (f32, bool) {
        // A pair whose cores do not turn (a ball turning about its centre) is a translating
        // one.
        let convex = self.core_angular_reach == 0.0;
        (
            self.relative_translation.length() + self.core_angular_reach,
            convex,
        )
    }

    fn contact_at(&self, t: f32) -> Option<(Vec2, Vec2, f32)> {
        let (a, b) = self.shapes;
        let (xf_a, xf_b) = (self.placements_a.at(t), self.placements_b.at(t));
        // As for a linear cast: worked out only when a start that touches asks.
        let rounding = pair_rounding(
            &self.proxy_a,
            &self.proxy_b,
            self.placements_b.at(0.0).p - self.placements_a.at(0.0).p,
            self.relative_translation,
        );
        let margin = self.tolerance + rounding;
        both_valid(&xf_a, &xf_b).then(|| contact_of(a, &xf_a, b, &xf_b, margin))?
    }
}

/// A sweep's placement at any time: [`Sweep::transform_at`], to the bit, with the question
/// whether the sweep turns asked once instead of at every time.
struct Placements<'a> {
    sweep: &'a Sweep,
    still_rotation: Option<Rot>,
}

impl<'a> Placements<'a> {
    fn new(sweep: &'a Sweep) -> Placements<'a> {
        Placements {
            sweep,
            still_rotation: (sweep.turn == 0.0).then_some(sweep.rotation_start),
        }
    }

    /// The placement at time `t` in `[0, 1]`.
    #[inline]
    fn at(&self, t: f32) -> Transform {
        let Some(q) = self.still_rotation else {
            return self.sweep.transform_at(t);
        };
        let sweep = self.sweep;
        let center = sweep.center_start + (sweep.center_end - sweep.center_start) * t;
        Transform {
            p: center - q.rotate(sweep.local_center),
            q,
        }
    }
}

/// Time of impact for any convex pair, rotation included (see [`RotatingGap`]).
fn conservative_advancement(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: &CastOptions,
) -> Option<CastHit> {
    let (Some(proxy_a), Some(proxy_b)) = (ConvexProxy::from_shape(a), ConvexProxy::from_shape(b))
    else {
        // Compounds and chains are taken apart before a pair gets here.
        return None;
    };
    // Each core's farthest point once: with the radius for the march's bound (as
    // `reach_from_center`, to the bit), without for the search of a start in contact.
    let (farthest_a, farthest_b) = (
        farthest_core(&proxy_a, sweep_a.local_center),
        farthest_core(&proxy_b, sweep_b.local_center),
    );
    let (turn_a, turn_b) = (sweep_a.rotation().abs(), sweep_b.rotation().abs());
    let rounding = 1.0 + 4.0 * f32::EPSILON;
    let angular_reach = turn_a * ((farthest_a + proxy_a.radius()) * rounding)
        + turn_b * ((farthest_b + proxy_b.radius()) * rounding);
    let core_angular_reach = turn_a * (farthest_a * rounding) + turn_b * (farthest_b * rounding);
    let mut gaps = RotatingGap {
        shapes: (a, b),
        proxy_a,
        placements_a: Placements::new(sweep_a),
        proxy_b,
        placements_b: Placements::new(sweep_b),
        relative_translation: sweep_b.translation() - sweep_a.translation(),
        angular_reach,
        core_angular_reach,
        tolerance: opts.tolerance,
        cache: SimplexCache::default(),
    };
    let (t, probe, converged) = time_of_impact(&mut gaps, opts)?;
    Some(CastHit {
        t,
        point: probe.point,
        normal: probe.normal,
        converged,
    })
}

/// A normal for overlapping shapes when GJK has none: along the centres, else against the
/// relative motion, else +x.
fn fallback_normal(xf_a: &Transform, xf_b: &Transform, relative_translation: Vec2) -> Vec2 {
    crate::math::try_unit(xf_b.p - xf_a.p)
        .or_else(|| crate::math::try_unit(-relative_translation))
        .unwrap_or(Vec2::X)
}
