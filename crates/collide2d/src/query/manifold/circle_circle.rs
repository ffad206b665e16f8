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
/// path of [`contacts`](crate::contacts) and [`overlaps`](crate::overlaps), which both call it.
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
    // Centres relative to A's origin, in world orientation.
    let center_a = xf_a.rotate(circle_a.center());
    let rotated_b = xf_b.rotate(circle_b.center());
    let origin_offset = xf_b.p - xf_a.p;
    let center_b = origin_offset + rotated_b;
    // The offset between the centres, summed so that swapping A and B negates every rounding
    // step exactly (`x - y == -(y - x)` in floating point): the two argument orders see the
    // same distance and exactly opposite directions, even when one term is absorbed by another
    // far larger one.
    let offset = origin_offset + (rotated_b - center_a);
    let distance = crate::math::robust_length(offset);
    let total_radius = circle_a.radius() + circle_b.radius();
    if distance - total_radius > margin {
        return Manifold::EMPTY;
    }
    // Nearly coincident centres: the direction is at the mercy of rounding, which differs
    // between the A-relative and B-relative computations. Compute in the canonical order of the
    // pair so that swapping the arguments gives exactly the mirrored result.
    if distance <= 1e-5 * total_radius && placed_before(circle_b, xf_b, circle_a, xf_a) {
        return collide_circle_circle_world(circle_b, xf_b, circle_a, xf_a, margin).swapped();
    }
    let unit = if distance > 0.0 {
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
