//! Ray casts against every shape and against boxes.
//!
//! A ray that starts inside a solid shape (or on its boundary) hits it at distance 0 with the
//! normal `-direction`; [`RayInside::ReportExit`] asks for the point where it leaves instead.
//! Segments have no inside: a ray starting on one hits it at 0.

use crate::math::{left_perp, Lanes, Transform, Vec2};
use crate::shape::{
    Aabb, Capsule, Chain, Circle, Compound, PaddedOutline, Polygon, Ray, Segment, Shape,
};
use glam::Vec4;

/// A non-zero finite `direction` scaled to unit length, also when its squared length
/// underflows or overflows `f32` (zero for a zero direction): `math::unit_or(direction, ZERO)`
/// to within rounding, in the form that keeps the 8-gon ray kernel at its speed (12.8 ns
/// against 13.8 through `unit_or`, whose range test sits on the hit's critical path).
#[inline]
fn unit_direction(direction: Vec2) -> Vec2 {
    let largest = direction.abs().max_element();
    if largest > 1e-18 && largest < 1e18 {
        direction.normalize_or_zero()
    } else {
        (direction / largest).normalize_or_zero()
    }
}

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit {
    /// Distance along the ray (0 when the ray starts inside).
    pub distance: f32,
    /// The hit point (world space).
    pub point: Vec2,
    /// The unit surface normal at the hit, facing the ray (world space).
    pub normal: Vec2,
    /// For a compound, the index of the child that was hit (0 otherwise).
    pub child: u32,
}

/// What a ray that starts inside a solid shape reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RayInside {
    /// A hit at distance 0 at the origin, with normal `-direction` (the default).
    #[default]
    HitAtStart,
    /// The point where the ray leaves the shape, with the outward normal there (pointing along
    /// the ray). A ray that does not leave within `max_distance` misses.
    ReportExit,
}

/// A hit in a shape's local frame, before it is transformed out.
#[derive(Clone, Copy, Debug)]
struct LocalHit {
    distance: f32,
    normal: Vec2,
    child: u32,
}

impl LocalHit {
    fn to_world(self, xf: &Transform, ray: &Ray) -> RayHit {
        RayHit {
            distance: self.distance,
            point: ray.at(self.distance),
            normal: xf.rotate(self.normal),
            child: self.child,
        }
    }
}

impl Shape {
    /// The first hit of `ray` on the shape placed by `xf`, or `None` within `max_distance`.
    ///
    /// A ray starting inside hits at 0 (see [`RayInside`]). Compounds report the nearest child.
    /// A ray that is not [valid](Ray::is_valid) misses, as does every ray when `xf` is not
    /// [valid](Transform::is_valid), and a hit whose point `f32` cannot hold (an origin
    /// near `f32::MAX`, a direction so short that the distance overflows).
    pub fn ray_cast(&self, xf: &Transform, ray: &Ray) -> Option<RayHit> {
        self.ray_cast_with(xf, ray, RayInside::HitAtStart)
    }

    /// [`Shape::ray_cast`] with a choice of what a ray starting inside reports.
    pub fn ray_cast_with(&self, xf: &Transform, ray: &Ray, inside: RayInside) -> Option<RayHit> {
        if !(ray.is_valid() && xf.is_valid()) {
            return None;
        }
        self.ray_cast_valid(xf, ray, inside)
    }

    /// [`Shape::ray_cast_with`] for a [valid](Ray::is_valid) `ray` and a
    /// [valid](Transform::is_valid) `xf`, which a caller that checked them once (a batch of
    /// rays against placements it keeps) does not check again; the same answer.
    #[inline]
    pub(crate) fn ray_cast_valid(
        &self,
        xf: &Transform,
        ray: &Ray,
        inside: RayInside,
    ) -> Option<RayHit> {
        debug_assert!(ray.is_valid() && xf.is_valid());
        if let Shape::Polygon(polygon) = self {
            if let (Some(outline), 0.0) = (polygon.padded_outline(), polygon.radius()) {
                // Both coordinates in one four-lane test.
                return ray_cast_small_polygon(outline, xf, ray, inside)
                    .filter(|hit| Vec4::new(hit.point.x, hit.point.y, 0.0, 0.0).is_finite());
            }
        }
        self.ray_cast_general(xf, ray, inside)
    }

    /// [`Shape::ray_cast_valid`] for every shape but a sharp polygon of at most 8 vertices:
    /// out of line, so that the small polygon's path above compiles the same whatever the
    /// other shapes' casts become.
    #[inline(never)]
    fn ray_cast_general(&self, xf: &Transform, ray: &Ray, inside: RayInside) -> Option<RayHit> {
        let local = ray.to_local(xf);
        let hit = match self {
            Shape::Circle(s) => ray_cast_circle(s, &local, inside),
            Shape::Capsule(s) => ray_cast_capsule(s, &local, inside),
            Shape::Segment(s) => ray_cast_segment(s, &local),
            Shape::Polygon(s) => ray_cast_polygon(s, &local, inside),
            Shape::Compound(s) => ray_cast_compound(s, &local, inside),
            Shape::Chain(s) => ray_cast_chain(s, &local),
        }?;
        let mut world = hit.to_world(xf, ray);
        if world.distance == 0.0 && inside == RayInside::HitAtStart {
            // Exactly -direction, not a rotated round trip of it.
            world.normal = -unit_direction(ray.direction);
        }
        // A finite point implies a finite distance: the direction is finite and not zero.
        world.point.is_finite().then_some(world)
    }
}

/// The ray cast of a bare [`Aabb`], a method of the box that lives beside the other ray casts
/// because it answers with a [`RayHit`] (the box itself belongs to [`shape`](crate::shape)).
pub trait AabbRayCast {
    /// The first hit of `ray` on the box (slab test), with the face normal; a ray starting inside
    /// hits at 0 with normal `-direction` (normalised).
    ///
    /// Misses, like [`Shape::ray_cast`], when the ray is not [valid](Ray::is_valid), the box
    /// is not [valid](Aabb::is_valid), or the hit point overflows `f32`.
    fn ray_cast(&self, ray: &Ray) -> Option<RayHit>;
}

impl AabbRayCast for Aabb {
    fn ray_cast(&self, ray: &Ray) -> Option<RayHit> {
        if !(ray.is_valid() && self.is_valid()) {
            return None;
        }
        let mut entry = 0.0f32;
        let mut exit = ray.max_distance;
        let mut normal = -unit_direction(ray.direction);
        for axis in 0..2 {
            let origin = ray.origin[axis];
            let direction = ray.direction[axis];
            let (low, high) = (self.min[axis], self.max[axis]);
            if direction == 0.0 {
                if origin < low || origin > high {
                    return None;
                }
                continue;
            }
            let inverse = 1.0 / direction;
            let (mut near, mut far) = ((low - origin) * inverse, (high - origin) * inverse);
            let mut face = Vec2::ZERO;
            face[axis] = -direction.signum();
            if near > far {
                std::mem::swap(&mut near, &mut far);
            }
            if near > entry {
                entry = near;
                normal = face;
            }
            exit = exit.min(far);
            if entry > exit {
                return None;
            }
        }
        let point = ray.at(entry);
        point.is_finite().then_some(RayHit {
            distance: entry,
            point,
            normal,
            child: 0,
        })
    }
}

/// Ray against a disc: solve |o + t d − c|² = r² for the smaller root.
fn ray_cast_circle(circle: &Circle, ray: &Ray, inside: RayInside) -> Option<LocalHit> {
    ray_cast_disc(circle.center(), circle.radius(), ray, inside)
}

fn ray_cast_disc(center: Vec2, radius: f32, ray: &Ray, inside: RayInside) -> Option<LocalHit> {
    let (offset, enter, leave) = disc_crossings(center, radius, ray)?;
    // An origin on the circle is inside or outside as rounding has it; when the roots put it
    // inside (the line entered behind it and leaves ahead), it starts on the boundary: taken
    // as outside, the negative entry was dropped and a ray running into the disc missed it.
    if offset.length_squared() <= radius * radius || (enter < 0.0 && leave >= 0.0) {
        return inside_hit(ray, inside, leave, |t| {
            crate::math::try_unit(offset + ray.direction * t)
                .unwrap_or(unit_direction(ray.direction))
        });
    }
    if enter < 0.0 || enter > ray.max_distance {
        return None;
    }
    let normal = crate::math::try_unit(offset + ray.direction * enter)
        .unwrap_or(-unit_direction(ray.direction));
    Some(LocalHit {
        distance: enter,
        normal,
        child: 0,
    })
}

/// Where the line of `ray` crosses the disc of `radius` about `center`: the ray's origin
/// relative to the centre, and the entering and leaving roots of
/// `|origin + t direction − center| = radius`; `None` when the line misses the disc.
fn disc_crossings(center: Vec2, radius: f32, ray: &Ray) -> Option<(Vec2, f32, f32)> {
    let offset = ray.origin - center;
    let direction_squared = ray.direction.length_squared();
    // Project the centre onto the line to keep the quadratic well conditioned.
    let closest_t = -offset.dot(ray.direction) / direction_squared;
    let closest = offset + ray.direction * closest_t;
    let chord_squared = radius * radius - closest.length_squared();
    if chord_squared < 0.0 {
        return None;
    }
    let half_chord = (chord_squared / direction_squared).sqrt();
    Some((offset, closest_t - half_chord, closest_t + half_chord))
}

/// The hit reported for a ray starting inside: at 0, or at the exit `exit_t` with `normal_at`.
fn inside_hit(
    ray: &Ray,
    inside: RayInside,
    exit_t: f32,
    normal_at: impl Fn(f32) -> Vec2,
) -> Option<LocalHit> {
    match inside {
        RayInside::HitAtStart => Some(LocalHit {
            distance: 0.0,
            normal: -unit_direction(ray.direction),
            child: 0,
        }),
        RayInside::ReportExit => (exit_t <= ray.max_distance).then(|| LocalHit {
            distance: exit_t.max(0.0),
            normal: normal_at(exit_t),
            child: 0,
        }),
    }
}

/// Ray against a segment with no thickness; the normal faces the ray's origin.
fn ray_cast_segment(segment: &Segment, ray: &Ray) -> Option<LocalHit> {
    let (a, b) = (segment.a(), segment.b());
    let edge = b - a;
    let normal = left_perp(edge);
    let denominator = normal.dot(ray.direction);
    let numerator = normal.dot(a - ray.origin);
    if denominator == 0.0 {
        // Parallel: a hit only when collinear, at the nearer end (or 0 when starting on it).
        if numerator != 0.0 {
            return None;
        }
        let along = |p: Vec2| (p - ray.origin).dot(ray.direction) / ray.direction.length_squared();
        let (ta, tb) = (along(a), along(b));
        let (near, far) = (ta.min(tb), ta.max(tb));
        if far < 0.0 {
            return None;
        }
        let distance = near.max(0.0);
        return (distance <= ray.max_distance).then(|| LocalHit {
            distance,
            normal: -unit_direction(ray.direction),
            child: 0,
        });
    }
    let t = numerator / denominator;
    if t < 0.0 || t > ray.max_distance {
        return None;
    }
    let hit = ray.origin + ray.direction * t;
    let s = (hit - a).dot(edge) / edge.length_squared();
    if !(0.0..=1.0).contains(&s) {
        return None;
    }
    let unit = crate::math::unit_or(normal, Vec2::X);
    Some(LocalHit {
        distance: t,
        normal: if denominator > 0.0 { -unit } else { unit },
        child: 0,
    })
}

/// Ray against a capsule: the two side edges offset by the radius and the two end discs.
fn ray_cast_capsule(capsule: &Capsule, ray: &Ray, inside: RayInside) -> Option<LocalHit> {
    let (a, b, radius) = (capsule.a(), capsule.b(), capsule.radius());
    let Some(axis) = crate::math::try_unit(b - a) else {
        return ray_cast_disc(a, radius, ray, inside);
    };
    let side = left_perp(axis);
    let vertices = [a, b];
    let normals = [-side, side];
    ray_cast_rounded_core(&vertices, &normals, radius, ray, inside)
}

/// Ray against a convex polygon, sharp (Cyrus–Beck clipping) or rounded (exact: offset edges and
/// vertex discs).
fn ray_cast_polygon(polygon: &Polygon, ray: &Ray, inside: RayInside) -> Option<LocalHit> {
    if polygon.radius() > 0.0 {
        return ray_cast_rounded_core(
            polygon.vertices(),
            polygon.normals(),
            polygon.radius(),
            ray,
            inside,
        );
    }
    // Cyrus–Beck: intersect the ray's parameter range with every edge's inner half-plane.
    // Reference: Cyrus and Beck, "Generalized two- and three-dimensional clipping", 1978.
    //
    // The bounds are kept as fractions (numerator, denominator) and compared by
    // cross-multiplying, so the loop has no division; the one division is at the end.
    // Entering bound: t ≥ num / den with den < 0; leaving bound: t ≤ num / den with den > 0.
    let (mut lower_num, mut lower_den) = (0.0f32, -1.0f32); // t ≥ 0
    let (mut upper_num, mut upper_den) = (f32::INFINITY, 1.0f32);
    let mut entry_edge = None;
    let mut exit_edge = 0usize;
    for (index, (vertex, normal)) in polygon.vertices().iter().zip(polygon.normals()).enumerate() {
        let numerator = normal.dot(*vertex - ray.origin);
        let denominator = normal.dot(ray.direction);
        if denominator < 0.0 {
            // num/den > lower_num/lower_den; multiplying by both (negative) denominators keeps the order.
            if numerator * lower_den > lower_num * denominator {
                lower_num = numerator;
                lower_den = denominator;
                entry_edge = Some(index);
            }
        } else if denominator > 0.0 {
            if numerator * upper_den < upper_num * denominator {
                upper_num = numerator;
                upper_den = denominator;
                exit_edge = index;
            }
        } else if numerator < 0.0 {
            return None; // parallel to this edge and outside it
        }
    }
    let lower = lower_num / lower_den;
    let upper = upper_num / upper_den;
    if upper < lower {
        return None;
    }
    match entry_edge {
        Some(edge) if lower <= ray.max_distance => Some(LocalHit {
            distance: lower,
            normal: polygon.normals()[edge],
            child: 0,
        }),
        Some(_) => None,
        None => inside_hit(ray, inside, upper, |_| polygon.normals()[exit_edge]),
    }
}

/// Cyrus–Beck on a sharp polygon of at most 8 vertices stored in padded lanes, from the world
/// ray to the world hit: the same clipping as [`ray_cast_polygon`]'s loop, written lane by lane
/// so that it compiles to a few SIMD instructions with no branch per edge.
///
/// ```text
/// origin, direction ← the ray in the polygon's frame
/// for each edge i (8 lanes; padding repeats edge 0, which changes no minimum or maximum):
///     numerator_i   = n_i · (v_i − origin)      (how far the origin is inside edge i)
///     denominator_i = n_i · direction           (< 0: the ray enters across edge i; > 0: leaves)
///     t_i = numerator_i / denominator_i
/// entry = max(0, t_i over entering edges), with the first edge reaching it above 0
/// exit  = min(t_i over leaving edges; −∞ for an edge the ray runs parallel to, outside it)
/// miss when exit < entry; no entering edge above 0 means the ray starts inside
/// ```
///
/// The eight divisions run as two four-lane divisions, independent of each other, so they do
/// not lengthen the dependency chain the way one division per edge in a loop does. The largest
/// entering and smallest leaving bounds are found across the lanes by shuffles, and an edge
/// index is only looked up for the bound that is reported (the first lane holding it).
#[inline(always)]
fn ray_cast_small_polygon(
    outline: &PaddedOutline<2>,
    xf: &Transform,
    ray: &Ray,
    inside: RayInside,
) -> Option<RayHit> {
    let Clipping {
        entering,
        leaving,
        parallel_outside,
    } = clip_ray(
        outline,
        xf.apply_inv(ray.origin),
        xf.rotate_inv(ray.direction),
    );
    let entry = entering[0].max(entering[1]).max_element();
    let earliest_exit = leaving[0].min(leaving[1]).min_element();
    let latest_entry = if entry > 0.0 { entry } else { 0.0 };
    if parallel_outside || earliest_exit < latest_entry {
        return None;
    }
    let (distance, edge) = if latest_entry > 0.0 {
        if latest_entry > ray.max_distance {
            return None;
        }
        (latest_entry, first_lane_holding(entering, entry))
    } else {
        match inside {
            RayInside::HitAtStart => {
                return Some(RayHit {
                    distance: 0.0,
                    point: ray.origin,
                    normal: -unit_direction(ray.direction),
                    child: 0,
                })
            }
            RayInside::ReportExit if earliest_exit <= ray.max_distance => (
                earliest_exit.max(0.0),
                first_lane_holding(leaving, earliest_exit),
            ),
            RayInside::ReportExit => return None,
        }
    };
    Some(RayHit {
        distance,
        point: ray.at(distance),
        normal: xf.rotate(outline.normal(edge)),
        child: 0,
    })
}

/// The bounds of a ray clipped by a polygon's edge lines ([`clip_ray`]).
struct Clipping {
    /// Two chunks of four lanes (edge `4 · chunk + lane`): each edge's entering bound, −∞ for
    /// an edge the ray does not enter across.
    entering: [Vec4; 2],
    /// Each edge's leaving bound, +∞ for an edge the ray does not leave across.
    leaving: [Vec4; 2],
    /// Whether the ray runs parallel to an edge, outside it (it then misses).
    parallel_outside: bool,
}

/// Cyrus–Beck clipping of the line `origin + t direction` (polygon frame) by every edge line.
///
/// In glam's four-lane vectors, so it stays SIMD when inlined (written lane by lane it had to
/// be kept out of line, and the call spilled the caller's registers). Each select is
/// `if condition { value } else { otherwise }` lane by lane; a NaN comparison is false.
#[inline(always)]
fn clip_ray(outline: &PaddedOutline<2>, origin: Vec2, direction: Vec2) -> Clipping {
    let lanes = |values: Lanes| Vec4::from_array(values.0);
    let (origin_x, origin_y) = (Vec4::splat(origin.x), Vec4::splat(origin.y));
    let (direction_x, direction_y) = (Vec4::splat(direction.x), Vec4::splat(direction.y));
    let zero = Vec4::ZERO;
    let mut entering = [zero; 2];
    let mut leaving = [zero; 2];
    let mut parallel_outside = [zero.cmplt(zero); 2];
    for chunk in 0..2 {
        let (normal_x, normal_y) = (
            lanes(outline.normal_x[chunk]),
            lanes(outline.normal_y[chunk]),
        );
        let numerator = normal_x * (lanes(outline.vertex_x[chunk]) - origin_x)
            + normal_y * (lanes(outline.vertex_y[chunk]) - origin_y);
        let denominator = normal_x * direction_x + normal_y * direction_y;
        let t = numerator / denominator;
        // Entering bound: `t` where the ray crosses the edge inwards (`denominator < 0`).
        entering[chunk] = Vec4::select(denominator.cmplt(zero), t, Vec4::NEG_INFINITY);
        // Leaving bound: `t` where it crosses outwards (`denominator > 0`); else +∞.
        leaving[chunk] = Vec4::select(zero.cmplt(denominator), t, Vec4::INFINITY);
        parallel_outside[chunk] = denominator.cmpeq(zero) & numerator.cmplt(zero);
    }
    Clipping {
        entering,
        leaving,
        parallel_outside: (parallel_outside[0] | parallel_outside[1]).any(),
    }
}

/// The first edge (`4 · chunk + lane`) whose bound in `bounds` equals `value` (edge 0 when
/// none does).
#[inline(always)]
fn first_lane_holding(bounds: [Vec4; 2], value: f32) -> usize {
    let value = Vec4::splat(value);
    let mask = bounds[0].cmpeq(value).bitmask() | bounds[1].cmpeq(value).bitmask() << 4;
    // An empty mask gives 32, and 32 & 7 = 0.
    mask.trailing_zeros() as usize & 7
}

/// Ray against a convex core (1, 2 or more vertices with outward edge normals) inflated by
/// `radius`: the nearest of the edges pushed out by `radius` and the discs at the vertices.
fn ray_cast_rounded_core(
    vertices: &[Vec2],
    normals: &[Vec2],
    radius: f32,
    ray: &Ray,
    inside: RayInside,
) -> Option<LocalHit> {
    let count = vertices.len();
    let contains_origin = core_contains(vertices, normals, radius, ray.origin);
    if contains_origin || enters_behind(vertices, normals, radius, ray) {
        // Leave through the farthest exit among the pieces whose union is the shape; the exit
        // of the union is the latest exit of any piece containing the path, found by marching.
        let exit = rounded_core_exit(vertices, normals, radius, ray);
        // An origin that rounding put just outside, with the line's entry behind it and its
        // exit found ahead, starts on the boundary (one past the exit has left the shape, and
        // one whose line crosses the shape wholly behind it finds no exit ahead).
        let exit = match exit {
            Some(exit) if contains_origin || exit.0 >= 0.0 => Some(exit),
            None if contains_origin => Some((0.0, -unit_direction(ray.direction))),
            _ => None,
        };
        if let Some((distance, normal)) = exit {
            return inside_hit(ray, inside, distance, |_| normal);
        }
    }
    let mut best: Option<LocalHit> = None;
    let mut keep = |distance: f32, normal: Vec2| {
        if distance >= 0.0
            && distance <= ray.max_distance
            && best.is_none_or(|b| distance < b.distance)
        {
            best = Some(LocalHit {
                distance,
                normal,
                child: 0,
            });
        }
    };
    for i in 0..count {
        let normal = normals[i];
        let start = vertices[i] + normal * radius;
        let end = vertices[(i + 1) % count] + normal * radius;
        let denominator = normal.dot(ray.direction);
        if denominator < 0.0 {
            let t = normal.dot(start - ray.origin) / denominator;
            let hit = ray.origin + ray.direction * t;
            let edge = end - start;
            let s = (hit - start).dot(edge) / edge.length_squared();
            // A ray nearly along the side crosses its line at a `t` rounded by ulps of the
            // coordinates over the (small) denominator; the crossing may then land just past
            // an end while the ray, rounded the other way, also misses that end's disc and runs
            // inside the shape along the side. The side's range is widened by that rounding,
            // at most by 1 % of the radius: a crossing that far past an end lies on the side's
            // line, within 5e-5 × the radius of the end's disc.
            let length = edge.length();
            let rounding = (4.0 * f32::EPSILON * (start - ray.origin).abs().max_element()
                / -denominator
                * ray.direction.length())
            .min(0.01 * radius)
                / length;
            if (-rounding..=1.0 + rounding).contains(&s) {
                keep(t, normal);
            }
        }
    }
    if radius > 0.0 {
        for vertex in vertices {
            if let Some(hit) = ray_cast_disc(*vertex, radius, ray, RayInside::HitAtStart) {
                // A hit at 0 from a disc the origin is outside of (by the disc's own test) is
                // an entry at the origin; one the origin is in took the path above.
                if hit.distance > 0.0 || (ray.origin - *vertex).length_squared() > radius * radius {
                    keep(hit.distance, hit.normal);
                }
            }
        }
    }
    best
}

/// Whether the line of `ray` enters the rounded core behind the origin: across a side (the
/// crossing within the side's ends) or into a vertex's disc that the origin is in (by its
/// distance from the vertex or by the disc's roots). The origin is then inside the shape or
/// past its exit, never in front of it; [`core_contains`], rounded otherwise, can call an
/// origin on the boundary outside, and the entries ahead of such an origin are pieces'
/// entries inside the shape.
fn enters_behind(vertices: &[Vec2], normals: &[Vec2], radius: f32, ray: &Ray) -> bool {
    let count = vertices.len();
    let across_side = (0..count).any(|i| {
        let normal = normals[i];
        let start = vertices[i] + normal * radius;
        let end = vertices[(i + 1) % count] + normal * radius;
        let denominator = normal.dot(ray.direction);
        if denominator >= 0.0 {
            return false;
        }
        let t = normal.dot(start - ray.origin) / denominator;
        let edge = end - start;
        let s = (ray.origin + ray.direction * t - start).dot(edge) / edge.length_squared();
        t < 0.0 && (0.0..=1.0).contains(&s)
    });
    across_side
        || (radius > 0.0
            && vertices.iter().any(|vertex| {
                disc_crossings(*vertex, radius, ray).is_some_and(|(offset, enter, leave)| {
                    offset.length_squared() <= radius * radius || (enter < 0.0 && leave >= 0.0)
                })
            }))
}

/// Whether a local point lies in the rounded core (core points: 1, 2 or a polygon).
fn core_contains(vertices: &[Vec2], normals: &[Vec2], radius: f32, point: Vec2) -> bool {
    let count = vertices.len();
    let mut max_separation = f32::NEG_INFINITY;
    for i in 0..count {
        max_separation = max_separation.max(normals[i].dot(point - vertices[i]));
    }
    if max_separation <= 0.0 && count >= 3 {
        return true;
    }
    let mut best = f32::INFINITY;
    for i in 0..count {
        let closest =
            crate::shape::closest_point_on_segment(vertices[i], vertices[(i + 1) % count], point);
        best = best.min(closest.distance_squared(point));
    }
    best <= radius * radius
}

/// Where a ray starting inside a rounded core leaves it, and the outward normal there.
///
/// The exit from a convex set is the largest `t` still inside; along the ray, inside-ness is
/// an interval, so the exit is the largest crossing among the offset edges and vertex discs;
/// `None` when no crossing lies in the shape (the line misses it, or crosses it only where
/// rounding puts every crossing outside).
fn rounded_core_exit(
    vertices: &[Vec2],
    normals: &[Vec2],
    radius: f32,
    ray: &Ray,
) -> Option<(f32, Vec2)> {
    let count = vertices.len();
    let mut candidates: Vec<(f32, Vec2)> = Vec::with_capacity(2 * count);
    for i in 0..count {
        let normal = normals[i];
        let start = vertices[i] + normal * radius;
        let denominator = normal.dot(ray.direction);
        if denominator > 0.0 {
            let t = normal.dot(start - ray.origin) / denominator;
            candidates.push((t, normal));
        }
        if radius > 0.0 {
            // Where the line leaves the vertex's disc, whether or not the ray starts in that
            // disc (the disc's own cast reports its entry for a ray starting outside it, which
            // for a ray leaving through a rounded end is a point inside the shape).
            if let Some((leave, normal)) = disc_leave(vertices[i], radius, ray) {
                candidates.push((leave, normal));
            }
        }
    }
    // The exit is the largest candidate whose point is still (within rounding) in the shape.
    let size = radius
        + vertices
            .iter()
            .map(|v| v.distance(vertices[0]))
            .fold(0.0, f32::max);
    let slack = 1e-5 * size.max(f32::MIN_POSITIVE);
    candidates
        .into_iter()
        .filter(|(t, _)| {
            let point = ray.origin + ray.direction * *t;
            core_contains(vertices, normals, radius + slack, point)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Where the line of `ray` leaves the disc of `radius` about `center` (the larger root of
/// `|origin + t direction − center| = radius`, negative when behind the origin), with the
/// outward normal there; `None` when the line misses the disc.
fn disc_leave(center: Vec2, radius: f32, ray: &Ray) -> Option<(f32, Vec2)> {
    let (offset, _, leave) = disc_crossings(center, radius, ray)?;
    let normal = crate::math::try_unit(offset + ray.direction * leave)
        .unwrap_or(unit_direction(ray.direction));
    Some((leave, normal))
}

/// Ray against a compound: the nearest child hit; from inside, the exit of the union.
fn ray_cast_compound(compound: &Compound, ray: &Ray, inside: RayInside) -> Option<LocalHit> {
    let child_hit = |index: usize, mode: RayInside, from: &Ray| {
        let (child_xf, shape) = &compound.children()[index];
        shape
            .ray_cast_with(child_xf, from, mode)
            .map(|hit| LocalHit {
                distance: hit.distance,
                normal: hit.normal,
                child: index as u32,
            })
    };
    let starts_inside = compound
        .children()
        .iter()
        .position(|(xf, s)| s.is_solid() && s.contains(xf, ray.origin));
    if let Some(first) = starts_inside {
        if inside == RayInside::HitAtStart {
            return Some(LocalHit {
                distance: 0.0,
                normal: -unit_direction(ray.direction),
                child: first as u32,
            });
        }
        // March through overlapping or adjacent children to the exit of the union.
        let mut travelled = 0.0f32;
        let mut last = LocalHit {
            distance: 0.0,
            normal: -unit_direction(ray.direction),
            child: first as u32,
        };
        for _ in 0..=compound.children().len() {
            let here = Ray {
                origin: ray.at(travelled),
                max_distance: f32::INFINITY,
                ..*ray
            };
            let farthest = (0..compound.children().len())
                .filter(|&i| {
                    let (xf, s) = &compound.children()[i];
                    s.is_solid() && s.contains(xf, here.origin)
                })
                .filter_map(|i| child_hit(i, RayInside::ReportExit, &here))
                .max_by(|a, b| a.distance.total_cmp(&b.distance));
            match farthest {
                Some(exit) if exit.distance > 0.0 => {
                    travelled += exit.distance;
                    last = LocalHit {
                        distance: travelled,
                        ..exit
                    };
                }
                _ => break,
            }
        }
        return (last.distance <= ray.max_distance).then_some(last);
    }
    let mut best: Option<LocalHit> = None;
    for (index, aabb) in compound.child_aabbs().iter().enumerate() {
        if let Some(box_hit) = aabb.ray_cast(ray) {
            if best.is_some_and(|b| box_hit.distance > b.distance) {
                continue;
            }
            if let Some(hit) = child_hit(index, RayInside::HitAtStart, ray) {
                if best.is_none_or(|b| hit.distance < b.distance) {
                    best = Some(hit);
                }
            }
        }
    }
    best
}

/// Ray against a chain: the nearest segment hit from its collision side (a ray from behind, or
/// running along a segment, passes). Chains enclose no area, so there is no inside.
fn ray_cast_chain(chain: &Chain, ray: &Ray) -> Option<LocalHit> {
    let mut best: Option<LocalHit> = None;
    chain.for_each_segment_along(ray, &mut |index| {
        let normal = chain.normals()[index];
        let approach = normal.dot(ray.direction);
        if approach >= 0.0 {
            return best.map_or(f32::INFINITY, |b| b.distance);
        }
        let (start, end) = chain.segment_points(index);
        let t = normal.dot(start - ray.origin) / approach;
        if t >= 0.0 && t <= ray.max_distance && best.is_none_or(|b| t < b.distance) {
            let point = ray.origin + ray.direction * t;
            let edge = end - start;
            let along = (point - start).dot(edge) / edge.length_squared();
            // A ray through a joint crosses both segments' lines at the shared point, which
            // rounding may put a hair past the end of each: the range is widened by the
            // rounding of the crossing (8 ulps of the coordinates over the approach's cosine),
            // at most a thousandth of the segment.
            let reach = start
                .abs()
                .max(end.abs())
                .max(ray.origin.abs())
                .max(point.abs())
                .max_element();
            let rounding = (8.0 * f32::EPSILON * reach * ray.direction.length() / -approach)
                .min(1e-3 * edge.length())
                / edge.length();
            if (-rounding..=1.0 + rounding).contains(&along) {
                best = Some(LocalHit {
                    distance: t,
                    normal,
                    child: index as u32,
                });
            }
        }
        best.map_or(f32::INFINITY, |b| b.distance)
    });
    best
}

impl Chain {
    /// Calls `visit` with each segment whose box the ray enters within `max_distance`, nearer
    /// boxes first where the hierarchy allows; `visit` returns the distance beyond which boxes
    /// need no visit (the best hit so far).
    fn for_each_segment_along(&self, ray: &Ray, visit: &mut dyn FnMut(usize) -> f32) {
        let mut limit = ray.max_distance;
        let box_entry = |aabb: &Aabb| aabb.ray_cast(ray).map(|hit| hit.distance);
        self.for_each_box_along(box_entry, &mut |index, entry| {
            if entry > limit {
                return;
            }
            limit = limit.min(visit(index));
        });
    }
}

impl Shape {
    /// Whether the shape encloses area (everything but a segment).
    fn is_solid(&self) -> bool {
        !matches!(self, Shape::Segment(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::manifold::test_numbers::Numbers;

    /// [`clip_ray`] by its definition, one edge at a time: the bits of each edge's entering and
    /// leaving bound, and whether the ray runs parallel to an edge, outside it.
    fn clip_ray_by_edges(
        outline: &PaddedOutline<2>,
        origin: Vec2,
        direction: Vec2,
    ) -> ([u32; 16], bool) {
        let mut bits = [0u32; 16];
        let mut parallel_outside = false;
        for edge in 0..8 {
            let (normal, vertex) = (outline.normal(edge), outline.vertex(edge));
            let numerator = normal.x * (vertex.x - origin.x) + normal.y * (vertex.y - origin.y);
            let denominator = normal.x * direction.x + normal.y * direction.y;
            let t = numerator / denominator;
            let entering = if denominator < 0.0 {
                t
            } else {
                f32::NEG_INFINITY
            };
            let leaving = if 0.0 < denominator { t } else { f32::INFINITY };
            parallel_outside |= denominator == 0.0 && numerator < 0.0;
            bits[edge] = entering.to_bits();
            bits[8 + edge] = leaving.to_bits();
        }
        (bits, parallel_outside)
    }

    #[test]
    fn clip_ray_is_the_edge_by_edge_clipping_bit_for_bit() {
        let mut numbers = Numbers(0x5851_f42d_4c95_7f2d);
        for round in 0..20_000 {
            let sides = 3 + round % 6;
            let polygon = if round % 4 == 0 {
                Polygon::rect(0.1 + numbers.unit() * 3.0, 0.1 + numbers.unit() * 3.0).unwrap()
            } else {
                Polygon::regular(sides, 0.1 + numbers.unit() * 3.0).unwrap()
            };
            let outline = polygon.padded_outline().unwrap();
            let mut origin = Vec2::new(numbers.unit() * 8.0 - 4.0, numbers.unit() * 8.0 - 4.0);
            let angle = numbers.unit() * std::f32::consts::TAU;
            let mut direction = Vec2::new(angle.cos(), angle.sin());
            if round % 5 == 0 {
                // Axis-aligned rays on a coarse grid: parallel edges, origins on edge lines.
                origin = (origin * 2.0).round() * 0.5;
                direction = [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][round % 4];
            }
            let got = clip_ray(outline, origin, direction);
            let got_bits: Vec<u32> = [got.entering, got.leaving]
                .iter()
                .flatten()
                .flat_map(|lanes| lanes.to_array().map(f32::to_bits))
                .collect();
            let (bits, parallel_outside) = clip_ray_by_edges(outline, origin, direction);
            assert_eq!(
                (got_bits, got.parallel_outside),
                (bits.to_vec(), parallel_outside),
                "round {round}"
            );
        }
    }
}
