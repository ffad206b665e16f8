//! Contact manifolds for every pair of shapes.
//!
//! Each pair is written once, in the canonical order
//! Circle < Capsule < Segment < Polygon < Compound < Chain, and computed in A's local frame
//! (`b_in_a = xf_a.inv_mul(xf_b)`), so results stay accurate far from the world origin. The
//! mirrored pair calls the canonical function and applies [`Manifold::swapped`]. The capsule
//! pair's kernel writes its one-point answer straight into world space, already turned round
//! (the same numbers, bit for bit), instead of moving and copying its local manifold.
//!
//! | file | pairs |
//! |---|---|
//! | `circle_circle.rs` | circle–circle |
//! | `circle_capsule.rs` | circle–capsule, circle–segment |
//! | `circle_polygon.rs` | circle–polygon (Voronoi regions) |
//! | `capsule_capsule.rs` | capsule–capsule, capsule–segment, segment–segment |
//! | `polygon_polygon.rs` | polygon–polygon, capsule–polygon, segment–polygon (SAT + clipping) |
//! | `box_box.rs` | box–box (polygons built as centred boxes), bit-identical to polygon–polygon |
//! | `clip.rs` | the reference/incident clipping steps both of the above share |
//! | `compound.rs` | anything against a compound (seams inside it left out) |
//! | `union_push.rs` | the exact push of a convex shape out of a union of convex shapes |
//! | `chain.rs` | anything against a chain (one-sided segments, ghost normals removed) |
//! | `aabb.rs` | the [`Aabb`](crate::Aabb) manifolds |

mod aabb;
pub(crate) mod box_box;
mod capsule_capsule;
mod chain;
mod circle_capsule;
mod circle_circle;
mod circle_polygon;
mod clip;
pub(crate) mod closest_features;
mod compound;
pub(crate) mod core_shape;
pub(crate) mod polygon_polygon;
mod sat;
#[cfg(test)]
pub(crate) mod test_numbers;
mod union_push;

use crate::math::{both_valid, Transform, Vec2};
use crate::query::{FeatureId, Manifold};
use crate::shape::{Circle, Polygon, Shape};
use box_box::{collide_box_box, contacts_box_box};

pub use aabb::AabbManifold;
pub(crate) use capsule_capsule::{
    collide_capsule_capsule, collide_capsule_capsule_placed, collide_capsule_segment,
    collide_segment_segment, Placement,
};
pub(crate) use chain::{for_each_chain_contact, FACE_TOLERANCE};
pub(crate) use circle_capsule::{collide_circle_capsule, collide_circle_segment};
pub(crate) use circle_circle::{
    circles_overlap, collide_circle_circle, collide_circle_circle_world,
};
pub(crate) use circle_polygon::collide_circle_polygon;
pub(crate) use compound::{any_child_pair_overlaps, for_each_child_pair, for_each_surface_contact};
pub(crate) use polygon_polygon::{
    collide_capsule_polygon, collide_polygon_polygon, collide_segment_polygon,
};

/// The contact manifold of two shapes; empty when they do not touch.
///
/// Touching counts: shapes whose surfaces meet exactly give points with penetration `0`.
/// Against a compound this is the contact with the union of its children: a child face that
/// another child covers (a shared seam) is never its normal (when the deepest child pair's
/// normal would be one, the answer is the exact smallest push out of the union), and a face
/// contact on a flat run of child faces spans the whole run; otherwise the deepest child-pair
/// manifold (see [`collide_all`] for every child pair as it is). Two compounds give their
/// deepest child pair.
/// Same as [`collide_speculative`] with a zero margin. Empty when either transform is not
/// [valid](Transform::is_valid).
///
/// ```
/// use collide2d::{collide, shape::{Circle, Polygon, Shape}, Transform, Vec2};
/// let ground = Shape::from(Polygon::rect(10.0, 1.0)?);
/// let ball = Shape::from(Circle::with_radius(0.5)?);
/// let manifold = collide(&ground, &Transform::IDENTITY, &ball, &Transform::new(Vec2::new(0.0, 0.9), 0.0));
/// assert_eq!(manifold.count, 1);
/// assert!((manifold.normal - Vec2::Y).length() < 1e-6); // from the ground towards the ball
/// assert!((manifold.points[0].penetration - 0.1).abs() < 1e-5);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[inline]
pub fn collide(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> Manifold {
    collide_speculative(a, xf_a, b, xf_b, 0.0)
}

/// The speculative contact manifold: like [`collide`], but also reports points whose
/// separation is at most `margin` (their penetration is then negative, down to `-margin`).
///
/// ```
/// use collide2d::{collide_speculative, shape::{Polygon, Shape}, Transform, Vec2};
/// let box_shape = Shape::from(Polygon::rect(1.0, 1.0)?);
/// let above = Transform::new(Vec2::new(0.0, 1.05), 0.0); // 0.05 above the other box
/// let manifold = collide_speculative(&box_shape, &Transform::IDENTITY, &box_shape, &above, 0.1);
/// assert_eq!(manifold.count, 2); // face against face
/// assert!((manifold.points[0].penetration + 0.05).abs() < 1e-5);
/// assert!(collide_speculative(&box_shape, &Transform::IDENTITY, &box_shape, &above, 0.0).is_empty());
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[inline]
pub fn collide_speculative(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    if !both_valid(xf_a, xf_b) {
        return Manifold::EMPTY;
    }
    contacts_of_valid(a, xf_a, b, xf_b, margin)
}

/// [`collide_speculative`] for transforms the caller has already found
/// [valid](Transform::is_valid) (the world checks every placement when it is set).
#[inline(always)]
pub(crate) fn contacts_of_valid(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    match (a, b) {
        // Circle–circle needs no frame change at all: a few arithmetic operations in world space.
        (Shape::Circle(circle_a), Shape::Circle(circle_b)) => {
            collide_circle_circle_world(circle_a, xf_a, circle_b, xf_b, sanitize_margin(margin))
        }
        // The most common pair in games, with the canonical order decided once.
        (Shape::Polygon(polygon_a), Shape::Polygon(polygon_b)) => {
            match (polygon_a.box_half_extents(), polygon_b.box_half_extents()) {
                (Some(_), Some(_)) => contacts_box_box(a, xf_a, b, xf_b, sanitize_margin(margin)),
                _ => contacts_polygons(a, polygon_a, xf_a, b, polygon_b, xf_b, margin),
            }
        }
        (Shape::Circle(circle), Shape::Polygon(polygon)) => {
            in_frame_of_a(collide_circle_polygon, circle, xf_a, polygon, xf_b, margin)
        }
        // The other pairs of two different kinds among circles, capsules and polygons, in
        // either order: the canonical pair and its turning round, without the general dispatch.
        (Shape::Polygon(polygon), Shape::Circle(circle)) => {
            contacts_polygon_circle(polygon, xf_a, circle, xf_b, margin)
        }
        (Shape::Capsule(capsule), Shape::Polygon(polygon)) => in_frame_of_a(
            collide_capsule_polygon,
            capsule,
            xf_a,
            polygon,
            xf_b,
            margin,
        ),
        (Shape::Polygon(polygon), Shape::Capsule(capsule)) => in_frame_of_a(
            collide_capsule_polygon,
            capsule,
            xf_b,
            polygon,
            xf_a,
            margin,
        )
        .swapped(),
        (Shape::Circle(circle), Shape::Capsule(capsule)) => {
            in_frame_of_a(collide_circle_capsule, circle, xf_a, capsule, xf_b, margin)
        }
        (Shape::Capsule(capsule), Shape::Circle(circle)) => {
            in_frame_of_a(collide_circle_capsule, circle, xf_b, capsule, xf_a, margin).swapped()
        }
        // Same kind: the canonical order of `contacts_general`.
        // The kernel writes its manifold in world space, turned round for the mirrored pair.
        (Shape::Capsule(capsule_a), Shape::Capsule(capsule_b)) => {
            let margin = sanitize_margin(margin);
            if same_kind_swapped(a, xf_a, b, xf_b) {
                collide_capsule_capsule_placed(
                    capsule_b,
                    capsule_a,
                    &xf_b.inv_mul(xf_a),
                    margin,
                    Placement {
                        frame: Some(xf_b),
                        swap: true,
                    },
                )
            } else {
                collide_capsule_capsule_placed(
                    capsule_a,
                    capsule_b,
                    &xf_a.inv_mul(xf_b),
                    margin,
                    Placement {
                        frame: Some(xf_a),
                        swap: false,
                    },
                )
            }
        }
        _ => contacts_general(a, xf_a, b, xf_b, margin),
    }
}

/// [`collide_speculative`] of two polygons (world space), in either order.
#[inline(always)]
fn contacts_polygons(
    a: &Shape,
    polygon_a: &Polygon,
    xf_a: &Transform,
    b: &Shape,
    polygon_b: &Polygon,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let swap = same_kind_swapped(a, xf_a, b, xf_b);
    let (first, xf_first, second, xf_second) = if swap {
        (polygon_b, xf_b, polygon_a, xf_a)
    } else {
        (polygon_a, xf_a, polygon_b, xf_b)
    };
    let mut manifold = contacts_polygon_polygon(first, xf_first, second, xf_second, margin);
    if swap {
        manifold.swap_sides();
    }
    manifold
}

/// [`collide_speculative`] of two polygons given as shapes (empty for other shapes), through the general
/// steps: for the box pairs the box path leaves to them.
#[cold]
#[inline(never)]
pub(crate) fn contacts_polygon_pair(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let (Shape::Polygon(polygon_a), Shape::Polygon(polygon_b)) = (a, b) else {
        return Manifold::EMPTY;
    };
    contacts_polygons(a, polygon_a, xf_a, b, polygon_b, xf_b, margin)
}

/// [`collide_speculative`] for the pairs it does not dispatch itself: those with a segment, a compound
/// or a chain.
fn contacts_general(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    // Two shapes of the same kind are put in one canonical order, so that swapping the
    // arguments gives exactly the mirrored result (ties between equally good axes, and the
    // choice of reference edge, would otherwise depend on the argument order).
    if rank(a) == rank(b) && same_kind_swapped(a, xf_a, b, xf_b) {
        return contacts_general(b, xf_b, a, xf_a, margin).swapped();
    }
    if rank(a) > rank(b) {
        return contacts_general(b, xf_b, a, xf_a, margin).swapped();
    }
    let margin = sanitize_margin(margin);
    if let Shape::Chain(chain) = b {
        // Computed in the chain's frame, with the chain as A, then turned round.
        let a_in_b = placement_in_a(xf_b, xf_a);
        let deepest =
            deepest_manifold(|visit| for_each_chain_contact(chain, a, &a_in_b, margin, visit));
        return finish_local(deepest, xf_b).swapped();
    }
    let b_in_a = placement_in_a(xf_a, xf_b);
    let local = if matches!(b, Shape::Compound(_)) {
        deepest_manifold(|visit| for_each_surface_contact(a, b, &b_in_a, margin, visit))
    } else {
        contacts_convex_local(a, b, &b_in_a, margin)
    };
    finish_local(local, xf_a)
}

/// The manifold of greatest penetration among those `for_each` visits (the first of equals;
/// empty when it visits none): a compound's or a chain's answer from its pieces' manifolds.
#[inline]
fn deepest_manifold(for_each: impl FnOnce(&mut dyn FnMut(Manifold) -> bool)) -> Manifold {
    let mut deepest = Manifold::EMPTY;
    let mut deepest_penetration = f32::NEG_INFINITY;
    for_each(&mut |manifold| {
        let penetration = manifold.max_penetration();
        if penetration > deepest_penetration {
            deepest_penetration = penetration;
            deepest = manifold;
        }
        true
    });
    deepest
}

/// B's placement in A's frame, `xf_a.inv_mul(xf_b)`, and exactly the identity when both
/// placements are equal: for the pairs that may hold a segment (segments, compounds, chains).
/// A rotation relative to itself has `c = c² + s²`, which rounds to `1 ± ε` and would scale
/// the copy of a shape at the same pose by that factor; a segment has no area to absorb it and
/// would miss its own copy. The other pairs keep the plain `inv_mul` (a comparison there costs
/// measurably in the narrow phase, and shapes with area overlap their scaled copies anyway).
#[inline]
pub(crate) fn placement_in_a(xf_a: &Transform, xf_b: &Transform) -> Transform {
    if xf_a == xf_b {
        Transform::IDENTITY
    } else {
        xf_a.inv_mul(xf_b)
    }
}

/// [`collide_speculative`] of two polygons (world space), already in the canonical order; centred boxes
/// take the box–box path.
#[inline]
fn contacts_polygon_polygon(
    polygon_a: &Polygon,
    xf_a: &Transform,
    polygon_b: &Polygon,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let b_in_a = xf_a.inv_mul(xf_b);
    let margin = sanitize_margin(margin);
    let local = match (polygon_a.box_half_extents(), polygon_b.box_half_extents()) {
        (Some(half_a), Some(half_b)) => {
            collide_box_box(polygon_a, half_a, polygon_b, half_b, &b_in_a, margin)
        }
        _ => collide_polygon_polygon(polygon_a, polygon_b, &b_in_a, margin),
    };
    finish_local(local, xf_a)
}

/// [`collide_speculative`] of a polygon and a circle (world space): `contacts_circle_polygon` with the
/// arguments exchanged, then swapped. That computes the polygon's manifold first and turns it
/// round twice (once into the circle's view, once back); the two turnings cancel exactly
/// (negation commutes with rotation bit for bit), so they are left out. An empty result is
/// still the swapped empty manifold.
#[inline]
fn contacts_polygon_circle(
    polygon: &Polygon,
    xf_a: &Transform,
    circle: &Circle,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let a_in_b = xf_b.inv_mul(xf_a);
    let center_in_a = a_in_b.apply_inv(circle.center());
    let in_a = circle_polygon::core_against_rounded_point(
        &core_shape::CoreShape::of_polygon(polygon),
        center_in_a,
        circle.radius(),
        sanitize_margin(margin),
    );
    let world = finish_local(finish_local(in_a, &a_in_b), xf_b);
    if world.count == 0 {
        return Manifold::EMPTY.swapped();
    }
    world
}

/// [`collide_speculative`] of two shapes through `local`, their manifold in A's frame: B is placed in A's
/// frame, the margin sanitized, and the result moved back to world space.
#[inline(always)]
fn in_frame_of_a<A, B>(
    local: impl Fn(&A, &B, &Transform, f32) -> Manifold,
    a: &A,
    xf_a: &Transform,
    b: &B,
    xf_b: &Transform,
    margin: f32,
) -> Manifold {
    let b_in_a = xf_a.inv_mul(xf_b);
    finish_local(local(a, b, &b_in_a, sanitize_margin(margin)), xf_a)
}

/// Every touching pair of children, appended to `out` (world space, `child_a`/`child_b` set);
/// a single manifold for two convex shapes. Nothing is appended when the shapes are apart or
/// either transform is not [valid](Transform::is_valid).
///
/// Points are reported down to a separation of `margin`, as in [`collide_speculative`].
pub fn collide_all(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    margin: f32,
    out: &mut Vec<Manifold>,
) {
    if !both_valid(xf_a, xf_b) {
        return;
    }
    if let (Shape::Circle(circle_a), Shape::Circle(circle_b)) = (a, b) {
        let manifold =
            collide_circle_circle_world(circle_a, xf_a, circle_b, xf_b, sanitize_margin(margin));
        if !manifold.is_empty() {
            out.push(manifold);
        }
        return;
    }
    let mirrored = rank(a) > rank(b);
    let (a, xf_a, b, xf_b) = if mirrored {
        (b, xf_b, a, xf_a)
    } else {
        (a, xf_a, b, xf_b)
    };
    let margin = sanitize_margin(margin);
    if let Shape::Chain(chain) = b {
        let a_in_b = placement_in_a(xf_b, xf_a);
        for_each_chain_contact(chain, a, &a_in_b, margin, &mut |manifold| {
            let world = finish_local(manifold, xf_b).swapped();
            out.push(if mirrored { world.swapped() } else { world });
            true
        });
        return;
    }
    let b_in_a = placement_in_a(xf_a, xf_b);
    let orient = |manifold: Manifold| {
        let world = finish_local(manifold, xf_a);
        if mirrored {
            world.swapped()
        } else {
            world
        }
    };
    if matches!(b, Shape::Compound(_)) {
        for_each_child_pair(a, b, &b_in_a, margin, &mut |manifold| {
            out.push(orient(manifold));
            true
        });
    } else {
        let manifold = contacts_convex_local(a, b, &b_in_a, margin);
        if !manifold.is_empty() {
            out.push(orient(manifold));
        }
    }
}

/// For two shapes of the same kind: whether `(b, xf_b)` comes before `(a, xf_a)` in a fixed
/// total order (placement first, then the shape's own numbers), i.e. whether the pair should be
/// computed the other way round. Identical inputs are never swapped.
#[inline]
pub(crate) fn same_kind_swapped(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> bool {
    // Placement first, number by number: almost always decided by the first one. Two numbers
    // that are neither NaN nor equal compare the same way under `total_cmp` as under `<`.
    if xf_a.p.x < xf_b.p.x {
        return false;
    }
    if xf_a.p.x > xf_b.p.x {
        return true;
    }
    same_kind_swapped_in_full(a, xf_a, b, xf_b)
}

/// [`same_kind_swapped`] when the first coordinates do not decide.
fn same_kind_swapped_in_full(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> bool {
    let placement = |xf: &Transform| [xf.p.x, xf.p.y, xf.q.c, xf.q.s];
    match lexicographic(&placement(xf_a), &placement(xf_b)) {
        std::cmp::Ordering::Less => return false,
        std::cmp::Ordering::Greater => return true,
        std::cmp::Ordering::Equal => {}
    }
    let own = |shape: &Shape| -> [f32; 4] {
        match shape {
            Shape::Circle(c) => [c.radius(), c.center().x, c.center().y, 0.0],
            Shape::Capsule(c) => [c.radius(), c.a().x, c.a().y, c.b().x + c.b().y],
            Shape::Segment(s) => [s.a().x, s.a().y, s.b().x, s.b().y],
            Shape::Polygon(p) => {
                let first = p.vertices()[0];
                [p.radius(), p.vertices().len() as f32, first.x, first.y]
            }
            Shape::Compound(c) => {
                let bounds = c.local_aabb();
                [
                    c.children().len() as f32,
                    bounds.min.x,
                    bounds.min.y,
                    bounds.max.x,
                ]
            }
            Shape::Chain(c) => {
                let first = c.vertices()[0];
                [c.vertices().len() as f32, first.x, first.y, 0.0]
            }
        }
    };
    match lexicographic(&own(a), &own(b)) {
        std::cmp::Ordering::Equal => full_order(a, b) == std::cmp::Ordering::Greater,
        decided => decided == std::cmp::Ordering::Greater,
    }
}

/// Every number of two same-kind shapes compared in turn: the tie-breaker when placement and
/// the short keys agree (rare), so that different shapes always have one canonical order.
#[cold]
fn full_order(a: &Shape, b: &Shape) -> std::cmp::Ordering {
    fn numbers(shape: &Shape, out: &mut Vec<f32>) {
        match shape {
            Shape::Circle(c) => out.extend([c.radius(), c.center().x, c.center().y]),
            Shape::Capsule(c) => out.extend([c.radius(), c.a().x, c.a().y, c.b().x, c.b().y]),
            Shape::Segment(s) => out.extend([s.a().x, s.a().y, s.b().x, s.b().y]),
            Shape::Polygon(p) => {
                out.push(p.radius());
                out.push(p.vertices().len() as f32);
                out.extend(p.vertices().iter().flat_map(|v| [v.x, v.y]));
            }
            Shape::Compound(c) => {
                out.push(c.children().len() as f32);
                for (xf, child) in c.children() {
                    out.extend([xf.p.x, xf.p.y, xf.q.c, xf.q.s, rank(child) as f32]);
                    numbers(child, out);
                }
            }
            Shape::Chain(c) => {
                out.push(c.vertices().len() as f32);
                out.push(if c.is_closed() { 1.0 } else { 0.0 });
                out.extend(c.vertices().iter().flat_map(|v| [v.x, v.y]));
            }
        }
    }
    let (mut first, mut second) = (Vec::new(), Vec::new());
    numbers(a, &mut first);
    numbers(b, &mut second);
    for (x, y) in first.iter().zip(&second) {
        match x.total_cmp(y) {
            std::cmp::Ordering::Equal => {}
            decided => return decided,
        }
    }
    first.len().cmp(&second.len())
}

/// Compares two keys number by number with `f32::total_cmp`.
#[inline(always)]
fn lexicographic(first: &[f32; 4], second: &[f32; 4]) -> std::cmp::Ordering {
    for (x, y) in first.iter().zip(second) {
        match x.total_cmp(y) {
            std::cmp::Ordering::Equal => {}
            decided => return decided,
        }
    }
    std::cmp::Ordering::Equal
}

/// The position of a shape kind in the canonical pair order.
#[inline]
pub(crate) fn rank(shape: &Shape) -> u8 {
    match shape {
        Shape::Circle(_) => 0,
        Shape::Capsule(_) => 1,
        Shape::Segment(_) => 2,
        Shape::Polygon(_) => 3,
        Shape::Compound(_) => 4,
        Shape::Chain(_) => 5,
    }
}

/// A usable margin: NaN becomes zero, infinities are kept finite.
#[inline]
pub(crate) fn sanitize_margin(margin: f32) -> f32 {
    if margin.is_nan() {
        0.0
    } else {
        margin.clamp(-f32::MAX, f32::MAX)
    }
}

/// The manifold of two convex shapes in either order, in A's frame.
pub(crate) fn contacts_convex_local(
    a: &Shape,
    b: &Shape,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    match (a, b) {
        (Shape::Circle(a), Shape::Circle(b)) => collide_circle_circle(a, b, b_in_a, margin),
        (Shape::Circle(a), Shape::Capsule(b)) => collide_circle_capsule(a, b, b_in_a, margin),
        (Shape::Circle(a), Shape::Segment(b)) => collide_circle_segment(a, b, b_in_a, margin),
        (Shape::Circle(a), Shape::Polygon(b)) => collide_circle_polygon(a, b, b_in_a, margin),
        (Shape::Capsule(a), Shape::Capsule(b)) => collide_capsule_capsule(a, b, b_in_a, margin),
        (Shape::Capsule(a), Shape::Segment(b)) => collide_capsule_segment(a, b, b_in_a, margin),
        (Shape::Capsule(a), Shape::Polygon(b)) => collide_capsule_polygon(a, b, b_in_a, margin),
        (Shape::Segment(a), Shape::Segment(b)) => collide_segment_segment(a, b, b_in_a, margin),
        (Shape::Segment(a), Shape::Polygon(b)) => collide_segment_polygon(a, b, b_in_a, margin),
        (Shape::Polygon(a), Shape::Polygon(b)) => collide_polygon_polygon(a, b, b_in_a, margin),
        (Shape::Compound(_) | Shape::Chain(_), _) | (_, Shape::Compound(_) | Shape::Chain(_)) => {
            Manifold::EMPTY
        }
        // Mirrored pair: compute the canonical one in B's frame, bring it into A's and swap.
        _ => mirror_local(contacts_convex_local(b, a, &b_in_a.inv(), margin), b_in_a),
    }
}

/// A manifold computed with B as the first shape, in B's frame, turned into A's view in A's
/// frame.
#[inline]
pub(crate) fn mirror_local(manifold_in_b: Manifold, b_in_a: &Transform) -> Manifold {
    finish_local(manifold_in_b, b_in_a).swapped()
}

/// Moves a manifold from a local frame into the frame `xf` maps to.
#[inline(always)]
pub(crate) fn finish_local(mut manifold: Manifold, xf: &Transform) -> Manifold {
    if manifold.count == 0 {
        return Manifold::EMPTY;
    }
    manifold.normal = xf.rotate(manifold.normal);
    manifold.points[0].point = xf.apply(manifold.points[0].point);
    if manifold.count > 1 {
        manifold.points[1].point = xf.apply(manifold.points[1].point);
    }
    manifold
}

/// The point midway between the surface of a shape with core point `core_a` and radius
/// `radius_a` and one with `core_b`/`radius_b`, along `normal` (from A to B).
#[inline(always)]
pub(crate) fn midpoint_between_surfaces(
    core_a: Vec2,
    core_b: Vec2,
    normal: Vec2,
    radius_a: f32,
    radius_b: f32,
) -> Vec2 {
    0.5 * (core_a + core_b) + normal * (0.5 * (radius_a - radius_b))
}

/// One-point contact between two rounded points (cores `point_a`, `point_b` in one frame).
///
/// Apart when `|b − a| − (rA + rB) > margin`; coincident cores push along `fallback_normal`.
#[inline(always)]
pub(crate) fn rounded_points_contact(
    point_a: Vec2,
    radius_a: f32,
    point_b: Vec2,
    radius_b: f32,
    margin: f32,
    id: FeatureId,
    fallback_normal: Vec2,
) -> Manifold {
    let offset = point_b - point_a;
    let distance = crate::math::robust_length(offset);
    if distance - (radius_a + radius_b) > margin {
        return Manifold::EMPTY;
    }
    rounded_points_manifold(
        (point_a, radius_a),
        (point_b, radius_b),
        (offset, distance),
        id,
        fallback_normal,
    )
}

/// The manifold of [`rounded_points_contact`] once the rounded points are known to be within
/// the margin: `offset = point_b − point_a`, `distance = robust_length(offset)`.
#[inline(always)]
pub(crate) fn rounded_points_manifold(
    (point_a, radius_a): (Vec2, f32),
    (point_b, radius_b): (Vec2, f32),
    (offset, distance): (Vec2, f32),
    id: FeatureId,
    fallback_normal: Vec2,
) -> Manifold {
    let total_radius = radius_a + radius_b;
    let normal = if distance > 0.0 {
        (offset / distance)
            .try_normalize()
            .unwrap_or(fallback_normal)
    } else {
        fallback_normal
    };
    let mut manifold = Manifold::EMPTY;
    manifold.normal = normal;
    manifold.count = 1;
    manifold.points[0].point =
        midpoint_between_surfaces(point_a, point_b, normal, radius_a, radius_b);
    manifold.points[0].penetration = total_radius - distance;
    manifold.points[0].id = id;
    manifold
}
