//! Circle against circle.

use crate::math::{Transform, Vec2};
use crate::query::manifold::{midpoint_between_surfaces, rounded_points_contact};
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
use crate::shape::Circle;

/// The feature id of every circle–circle point.
const CENTRE_TO_CENTRE: FeatureId = FeatureId {
    a: Feature::Vertex(0),
    b: Feature::Vertex(0),
};

/// Circle A against circle B, in A's frame (`b_in_a` places B).
///
/// One point on the line between the centres; coincident centres push along A's local +x.
#[inline]
pub(crate) fn collide_circle_circle(
    circle_a: &Circle,
    circle_b: &Circle,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    rounded_points_contact(
        circle_a.center(),
        circle_a.radius(),
        b_in_a.apply(circle_b.center()),
        circle_b.radius(),
        margin,
        CENTRE_TO_CENTRE,
        Vec2::X,
    )
}

/// Circle A against circle B placed in the world, result in world space: the top-level fast
/// path of [`collide_speculative`](crate::collide_speculative) and [`overlaps`](crate::overlaps).
///
/// Works relative to A's position (`xf_b.p − xf_a.p` first, then the rotated centre offsets), so
/// it is as accurate far from the origin as the A-frame path, with no frame change to undo.
/// Coincident centres push along the local +x of whichever circle comes first in the canonical
/// order (placement, then radius and centre), negated when that is B.
#[inline(always)]
pub(crate) fn collide_circle_circle_world(
    circle_a: &Circle,
    xf_a: &Transform,
    circle_b: &Circle,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let (center_a, center_b, offset) = centers_relative_to_a(circle_a, xf_a, circle_b, xf_b);
    let length_squared = offset.length_squared();
    let total_radius = circle_a.radius() + circle_b.radius();
    // The common case: an offset whose squared length is a normal number, so its length needs
    // no rescaling and `offset / distance` is unit to within rounding; centres not nearly
    // coincident. Everything else takes the careful path.
    if length_squared > SMALLEST_PLAIN_LENGTH_SQUARED {
        let distance = length_squared.sqrt();
        if distance - total_radius > margin {
            return Manifold::EMPTY;
        }
        if distance > NEARLY_COINCIDENT * total_radius {
            let normal = offset / distance;
            return one_point(
                xf_a.p,
                center_a,
                center_b,
                normal,
                circle_a.radius(),
                circle_b.radius(),
                total_radius - distance,
            );
        }
    }
    collide_circle_circle_world_carefully(circle_a, xf_a, circle_b, xf_b, margin)
}

/// Whether two circles placed in the world overlap (touching counts): the very decision of
/// [`collide_circle_circle_world`] with a zero margin.
#[inline(always)]
pub(crate) fn circles_overlap(
    circle_a: &Circle,
    xf_a: &Transform,
    circle_b: &Circle,
    xf_b: &Transform,
) -> bool {
    let (_, _, offset) = centers_relative_to_a(circle_a, xf_a, circle_b, xf_b);
    let length_squared = offset.length_squared();
    let distance = if length_squared > SMALLEST_PLAIN_LENGTH_SQUARED {
        length_squared.sqrt()
    } else {
        crate::math::robust_length(offset)
    };
    let apart = distance - (circle_a.radius() + circle_b.radius()) > 0.0;
    !apart
}

/// Above this squared length both components' squares are far from underflow's reach: the
/// largest component is above `1.4e-18`, where [`robust_length`](crate::math::robust_length) is
/// the plain `sqrt(x² + y²)`.
const SMALLEST_PLAIN_LENGTH_SQUARED: f32 = 4e-36;

/// Centres closer than this fraction of the summed radii have a direction at the mercy of
/// rounding: they are computed in the canonical order of the pair.
const NEARLY_COINCIDENT: f32 = 1e-5;

/// The circles' centres relative to A's origin, in world orientation, and the offset from A's
/// centre to B's.
///
/// The offset is summed so that swapping A and B negates every rounding step exactly
/// (`x - y == -(y - x)` in floating point): both argument orders see the same distance and
/// exactly opposite directions, even when a tiny term is absorbed by a far larger one.
#[inline(always)]
fn centers_relative_to_a(
    circle_a: &Circle,
    xf_a: &Transform,
    circle_b: &Circle,
    xf_b: &Transform,
) -> (Vec2, Vec2, Vec2) {
    // Most circles sit on their body's origin: nothing to rotate then.
    let rotated = |circle: &Circle, xf: &Transform| {
        if circle.center() == Vec2::ZERO {
            Vec2::ZERO
        } else {
            xf.rotate(circle.center())
        }
    };
    let center_a = rotated(circle_a, xf_a);
    let rotated_b = rotated(circle_b, xf_b);
    let origin_offset = xf_b.p - xf_a.p;
    let center_b = origin_offset + rotated_b;
    let offset = origin_offset + (rotated_b - center_a);
    (center_a, center_b, offset)
}

/// The one-point manifold, written out in a single pass.
#[inline(always)]
fn one_point(
    origin: Vec2,
    center_a: Vec2,
    center_b: Vec2,
    normal: Vec2,
    radius_a: f32,
    radius_b: f32,
    penetration: f32,
) -> Manifold {
    let point = ContactPoint {
        point: origin + midpoint_between_surfaces(center_a, center_b, normal, radius_a, radius_b),
        penetration,
        id: CENTRE_TO_CENTRE,
    };
    Manifold {
        normal,
        points: [point, Manifold::EMPTY.points[1]],
        count: 1,
        child_a: 0,
        child_b: 0,
    }
}

/// [`collide_circle_circle_world`] for tiny offsets and nearly coincident centres: the length
/// measured without underflow, the normal renormalised, the pair taken in its canonical order.
#[cold]
#[inline(never)]
fn collide_circle_circle_world_carefully(
    circle_a: &Circle,
    xf_a: &Transform,
    circle_b: &Circle,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let (center_a, center_b, offset) = centers_relative_to_a(circle_a, xf_a, circle_b, xf_b);
    let distance = crate::math::robust_length(offset);
    let total_radius = circle_a.radius() + circle_b.radius();
    if distance - total_radius > margin {
        return Manifold::EMPTY;
    }
    // Nearly coincident centres: the direction is at the mercy of rounding, which differs
    // between the A-relative and B-relative computations. Compute in the canonical order of the
    // pair so that swapping the arguments gives exactly the mirrored result.
    if distance <= NEARLY_COINCIDENT * total_radius && placed_before(circle_b, xf_b, circle_a, xf_a)
    {
        return collide_circle_circle_world_carefully(circle_b, xf_b, circle_a, xf_a, margin)
            .swapped();
    }
    let unit = if offset.length_squared() > SMALLEST_PLAIN_LENGTH_SQUARED {
        // As on the fast path, so that both give the same bits for the same order.
        Some(offset / distance)
    } else if distance > 0.0 {
        // Renormalised: for offsets near the bottom of the f32 range the quotient alone is
        // not quite unit length.
        (offset / distance).try_normalize()
    } else {
        None
    };
    let normal = if let Some(unit) = unit {
        unit
    } else if placed_before(circle_b, xf_b, circle_a, xf_a) {
        // Coincident centres: the fallback follows the canonical order of the pair, so that
        // swapping the arguments negates it (B's local +x, seen from B, turned round).
        -Vec2::new(xf_b.q.c, xf_b.q.s)
    } else {
        Vec2::new(xf_a.q.c, xf_a.q.s)
    };
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    manifold.count = 1;
    manifold.points[0] = ContactPoint {
        point: xf_a.p
            + midpoint_between_surfaces(
                center_a,
                center_b,
                normal,
                circle_a.radius(),
                circle_b.radius(),
            ),
        penetration: total_radius - distance,
        id: CENTRE_TO_CENTRE,
    };
    manifold
}

/// Whether circle `first` placed by `xf_first` comes strictly before `second` in the canonical
/// pair order (placement, then radius, then local centre).
#[cold]
fn placed_before(
    first: &Circle,
    xf_first: &Transform,
    second: &Circle,
    xf_second: &Transform,
) -> bool {
    let key = |c: &Circle, xf: &Transform| {
        [
            xf.p.x,
            xf.p.y,
            xf.q.c,
            xf.q.s,
            c.radius(),
            c.center().x,
            c.center().y,
        ]
    };
    let (x, y) = (key(first, xf_first), key(second, xf_second));
    for (a, b) in x.iter().zip(&y) {
        match a.total_cmp(b) {
            std::cmp::Ordering::Less => return true,
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Equal => {}
        }
    }
    false
}
