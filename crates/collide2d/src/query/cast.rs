//! Shape casts: the first time two moving shapes touch (time of impact).

use super::distance::{distance_with_cache, gjk_distance};
use super::support::ConvexProxy;
use super::sweep::{sweep_circle_segment, sweep_circles, Sweep};
use super::types::SimplexCache;
use crate::math::{Transform, Vec2};
use crate::shape::Shape;

/// Settings for [`cast`].
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
/// conservative advancement: each step moves time forward by the current gap divided by an
/// upper bound on how fast the gap can close, so a contact is never stepped over — fast, thin
/// and spinning shapes do not tunnel. Circle pairs and circle–segment pairs without rotation use
/// exact closed forms. Non-finite sweeps give `None`.
///
/// ```
/// use collide2d::{query::{cast, CastOptions, Sweep}, shape::{Circle, Polygon, Shape}, Transform, Vec2};
/// let bullet = Shape::from(Circle::with_radius(0.05)?);
/// let wall = Shape::from(Polygon::rect(0.01, 4.0)?);
/// // 1,000 units in one step, through a wall 1 cm thick.
/// let shot = Sweep::linear(&Transform::IDENTITY, Vec2::new(1000.0, 0.0));
/// let wall_at = Sweep::fixed(&Transform::new(Vec2::new(500.0, 0.0), 0.0));
/// let hit = cast(&bullet, &shot, &wall, &wall_at, CastOptions::default()).unwrap();
/// assert!((hit.t * 1000.0 - (500.0 - 0.005 - 0.05)).abs() < 1e-3);
/// assert!((hit.normal - Vec2::X).length() < 1e-4);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
pub fn cast(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: CastOptions,
) -> Option<CastHit> {
    if !sweep_a.is_finite() || !sweep_b.is_finite() {
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
    if let Some(hit) = cast_analytic(a, sweep_a, b, sweep_b, &opts) {
        return hit;
    }
    match (a, b) {
        (Shape::Compound(compound), _) => {
            let mut best: Option<CastHit> = None;
            for (child_xf, child) in compound.children() {
                let child_sweep = child_sweep(sweep_a, child_xf);
                if let Some(hit) = cast(child, &child_sweep, b, sweep_b, opts) {
                    if best.is_none_or(|best| hit.t < best.t) {
                        best = Some(hit);
                    }
                }
            }
            best
        }
        (_, Shape::Compound(_)) => cast(b, sweep_b, a, sweep_a, opts).map(|hit| CastHit {
            normal: -hit.normal,
            ..hit
        }),
        _ => {
            if sweep_a.rotation() == 0.0 && sweep_b.rotation() == 0.0 {
                if let (Some(proxy_a), Some(proxy_b)) =
                    (ConvexProxy::from_shape(a), ConvexProxy::from_shape(b))
                {
                    return linear_advancement(&proxy_a, sweep_a, &proxy_b, sweep_b, &opts);
                }
            }
            conservative_advancement(a, sweep_a, b, sweep_b, &opts)
        }
    }
}

/// Conservative advancement for two convex shapes that only translate, done in A's frame.
///
/// Without rotation B's placement relative to A moves on a straight line, so no trigonometry is
/// needed per step, and the gap is a convex function of `t`: stepping by gap / closing speed
/// along the current normal (a Newton step) never passes the first contact.
fn linear_advancement(
    proxy_a: &ConvexProxy,
    sweep_a: &Sweep,
    proxy_b: &ConvexProxy,
    sweep_b: &Sweep,
    opts: &CastOptions,
) -> Option<CastHit> {
    let start_a = sweep_a.transform_at(0.0);
    let b_in_a_start = start_a.inv_mul(&sweep_b.transform_at(0.0));
    let local_motion = start_a.rotate_inv(sweep_b.translation() - sweep_a.translation());
    let radii = proxy_a.radius() + proxy_b.radius();
    let target = opts.target_separation;
    let mut cache = SimplexCache::default();
    let mut t = 0.0f32;
    let mut last_normal: Option<Vec2> = None;
    let mut iteration = 0;
    let hit = loop {
        let b_in_a = Transform {
            p: b_in_a_start.p + local_motion * t,
            q: b_in_a_start.q,
        };
        let cores = gjk_distance(proxy_a, proxy_b, &b_in_a, &mut cache);
        let gap = (cores.distance - radii).max(0.0);
        // A normal from cores closer than a fraction of the tolerance is rounding noise; the
        // previous step's normal is then the better one.
        let well_defined = cores.distance > 0.1 * opts.tolerance
            || (cores.distance > 0.0 && last_normal.is_none());
        let normal = if well_defined {
            (cores.point_b - cores.point_a) / cores.distance
        } else {
            last_normal.unwrap_or_else(|| {
                (b_in_a.p)
                    .try_normalize()
                    .or_else(|| local_motion.try_normalize())
                    .unwrap_or(Vec2::X)
            })
        };
        last_normal = Some(normal);
        let closing = -local_motion.dot(normal);
        let midpoint =
            cores.point_a + normal * (0.5 * (cores.distance + proxy_a.radius() - proxy_b.radius()));
        if gap <= target + opts.tolerance {
            if iteration == 0 && !opts.separating_overlap_hits && closing <= opts.tolerance {
                return None;
            }
            break (t, normal, midpoint, true);
        }
        iteration += 1;
        if closing <= 0.0 {
            return None;
        }
        t += (gap - target) / closing;
        if t > 1.0 {
            return None;
        }
        if iteration >= opts.max_iterations.max(1) {
            break (t, normal, midpoint, false);
        }
    };
    let (t, local_normal, local_point, converged) = hit;
    // A's placement at time t: its start rotation, translated.
    let xf_a = Transform {
        p: start_a.p + sweep_a.translation() * t,
        q: start_a.q,
    };
    Some(CastHit {
        t,
        point: xf_a.apply(local_point),
        normal: xf_a.rotate(local_normal),
        converged,
    })
}

/// The sweep of a compound's child: the parent's motion with the rotation centre expressed in
/// the child's frame and the child's own angle added.
fn child_sweep(parent: &Sweep, child_xf: &Transform) -> Sweep {
    let child_angle = child_xf.angle();
    Sweep {
        local_center: child_xf.apply_inv(parent.local_center),
        center_start: parent.center_start,
        center_end: parent.center_end,
        angle_start: parent.angle_start + child_angle,
        angle_end: parent.angle_end + child_angle,
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
    if sweep_a.rotation() != 0.0 || sweep_b.rotation() != 0.0 || opts.separating_overlap_hits {
        return None;
    }
    let (start_a, end_a) = (sweep_a.transform_at(0.0), sweep_a.transform_at(1.0));
    let (start_b, end_b) = (sweep_b.transform_at(0.0), sweep_b.transform_at(1.0));
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
            .and_then(|(t, normal)| {
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
                .and_then(|(t, local_normal)| {
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
                });
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

/// The largest distance from a sweep's rotation centre to any point of the shape: how far a
/// point of the shape can move per radian of rotation.
fn reach_from_center(shape: &Shape, local_center: Vec2) -> f32 {
    let aabb = shape.aabb(&Transform::IDENTITY);
    [
        aabb.min,
        aabb.max,
        Vec2::new(aabb.min.x, aabb.max.y),
        Vec2::new(aabb.max.x, aabb.min.y),
    ]
    .iter()
    .map(|corner| corner.distance(local_center))
    .fold(0.0, f32::max)
}

/// Conservative advancement for a convex pair (Mirtich, "Impulse-based Dynamic Simulation of
/// Rigid Body Systems", 1996, §2.3; Coumans, "Continuous Collision Detection and Physics", 2005).
///
/// 1. At the current time `t`, measure the gap `d` and the normal `n` with GJK (warm-started).
/// 2. If `d` is within tolerance of the target, report the hit at `t`.
/// 3. Bound the closing speed over the rest of the step: the relative translation's component
///    along `n` (exact for pure translation, where the gap is convex in `t`) plus `|ω| r` for
///    each shape, `r` being its farthest point from its rotation centre.
/// 4. Advance `t` by `(d − target) / bound`; a bound ≤ 0 or `t > 1` means no hit.
fn conservative_advancement(
    a: &Shape,
    sweep_a: &Sweep,
    b: &Shape,
    sweep_b: &Sweep,
    opts: &CastOptions,
) -> Option<CastHit> {
    let relative_translation = sweep_b.translation() - sweep_a.translation();
    let angular_reach = sweep_a.rotation().abs() * reach_from_center(a, sweep_a.local_center)
        + sweep_b.rotation().abs() * reach_from_center(b, sweep_b.local_center);
    let target = opts.target_separation;
    let mut cache = SimplexCache::default();
    let mut t = 0.0f32;
    // The last well-defined normal: when a step lands exactly in contact (zero distance, e.g.
    // crossing segments), GJK has no normal and the approach direction is the best one.
    let mut last_normal: Option<Vec2> = None;
    for iteration in 0..opts.max_iterations.max(1) {
        // 1. Gap and normal now.
        let xf_a = sweep_a.transform_at(t);
        let xf_b = sweep_b.transform_at(t);
        let output = distance_with_cache(a, &xf_a, b, &xf_b, &mut cache);
        // Near exact contact the normal is rounding noise: keep the previous step's.
        let well_defined = output.normal != Vec2::ZERO
            && (output.distance > 0.1 * opts.tolerance || last_normal.is_none());
        let normal = if well_defined {
            output.normal
        } else {
            last_normal.unwrap_or_else(|| fallback_normal(&xf_a, &xf_b, relative_translation))
        };
        last_normal = Some(normal);
        let gap = output.distance;
        // The closing speed along the normal (per unit t) and its upper bound.
        let closing = -relative_translation.dot(normal);
        // 2. Close enough.
        if gap <= target + opts.tolerance {
            if iteration == 0 && !opts.separating_overlap_hits {
                // Already at the target at the start: a hit only if the gap can still close by
                // more than the tolerance over the step (a mover may slide along or leave).
                if closing + angular_reach <= opts.tolerance {
                    return None;
                }
            }
            return Some(CastHit {
                t,
                point: 0.5 * (output.point_a + output.point_b),
                normal,
                converged: true,
            });
        }
        // 3. Bound on how fast the gap can close.
        let bound = closing.max(0.0) + angular_reach;
        if bound <= 0.0 {
            return None;
        }
        // 4. Advance.
        t += (gap - target) / bound;
        if t > 1.0 {
            return None;
        }
    }
    // Out of iterations while still approaching: report the (early) time reached.
    let xf_a = sweep_a.transform_at(t);
    let xf_b = sweep_b.transform_at(t);
    let output = distance_with_cache(a, &xf_a, b, &xf_b, &mut cache);
    Some(CastHit {
        t,
        point: 0.5 * (output.point_a + output.point_b),
        normal: if output.normal != Vec2::ZERO {
            output.normal
        } else {
            last_normal.unwrap_or_else(|| fallback_normal(&xf_a, &xf_b, relative_translation))
        },
        converged: output.distance <= target + opts.tolerance,
    })
}

/// A normal for overlapping shapes when GJK has none: along the centres, else against the
/// relative motion, else +x.
fn fallback_normal(xf_a: &Transform, xf_b: &Transform, relative_translation: Vec2) -> Vec2 {
    (xf_b.p - xf_a.p)
        .try_normalize()
        .or_else(|| (-relative_translation).try_normalize())
        .unwrap_or(Vec2::X)
}
