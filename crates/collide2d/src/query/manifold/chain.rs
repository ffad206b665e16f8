//! Chains against other shapes: per-segment manifolds with ghost normals removed.
//!
//! Each segment near the other shape is collided as a plain two-sided segment, then the result
//! is checked against what a one-sided segment with known neighbours can produce:
//!
//! ```text
//! for each segment i whose box meets the shape's box:
//!     skip if the shape's centroid is behind the segment            (one-sided)
//!     m = segment–shape manifold
//!     if m.normal is within 0.11° of the face normal n_i, or points behind the segment:
//!         the face manifold along n_i (B's incident feature clipped to the segment)
//!     else (m comes off vertex v of the segment):
//!         v ends an open chain:                       keep m
//!         v is a convex joint:   keep m if m.normal lies between n_i and the neighbour's normal,
//!                                else drop it (the neighbour's face reports that contact)
//!         v is flat or concave:  replace m by the face manifold along n_i,
//!                                clipped to the segment                 (the ghost case)
//! ```
//!
//! The same idea as "ghost vertices" in Box2D's chain shapes (Catto, *Ghost Collisions*, 2020),
//! written for every shape kind through one face-manifold routine.

use crate::math::{cross, left_perp, Transform, Vec2};
use crate::query::manifold::compound::culling_box;
use crate::query::manifold::contacts_convex_local;
use crate::query::{ContactPoint, Feature, FeatureId, Manifold};
use crate::shape::{Chain, Joint, Segment, Shape};

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
    let bounds = culling_box(convex, convex_in_chain, margin);
    chain.for_each_segment_in(&bounds, &mut |index| {
        let (start, end) = chain.segment_points(index);
        let normal = chain.normals()[index];
        if (centroid - start).dot(normal) < 0.0 {
            return true;
        }
        let segment = Shape::Segment(Segment::new_unchecked(start, end));
        let manifold = contacts_convex_local(&segment, convex, convex_in_chain, margin);
        if manifold.is_empty() {
            return true;
        }
        match admit(chain, index, manifold, convex, convex_in_chain, margin) {
            Some(admitted) => visit(Manifold {
                child_a: index as u32,
                ..admitted
            }),
            None => true,
        }
    });
}

/// The manifold segment `index` may report in place of `manifold` (see the module docs).
fn admit(
    chain: &Chain,
    index: usize,
    manifold: Manifold,
    convex: &Shape,
    convex_in_chain: &Transform,
    margin: f32,
) -> Option<Manifold> {
    let face_normal = chain.normals()[index];
    let normal = manifold.normal;
    // Within rounding of the face normal, or pointing behind the segment (B is in front, so a
    // two-sided answer through the back, e.g. for a shape centred on the line, cannot stand).
    if normal.dot(face_normal) <= 0.0 || cross(normal, face_normal).abs() <= FACE_TOLERANCE {
        // The face normal, or within rounding of it: the face contact, exactly along it, with
        // B's incident feature clipped to the segment (the same points whichever face the
        // segment–shape test chose as reference).
        let (start, end) = chain.segment_points(index);
        let face = face_manifold(start, end, face_normal, convex, convex_in_chain, margin);
        return (!face.is_empty()).then_some(face);
    }
    // Off the face normal by more than the tolerance, the normal leans clearly towards the end
    // whose vertex made it.
    let at_end = normal.dot(left_perp(face_normal)) > 0.0;
    match chain.joint(index, at_end) {
        Joint::End => Some(manifold),
        Joint::Convex { neighbour_normal } => {
            let (from, to) = if at_end {
                (face_normal, neighbour_normal)
            } else {
                (neighbour_normal, face_normal)
            };
            let inside_cone =
                cross(from, normal) >= -FACE_TOLERANCE && cross(normal, to) >= -FACE_TOLERANCE;
            inside_cone.then_some(manifold)
        }
        Joint::FlatOrConcave => {
            let (start, end) = chain.segment_points(index);
            let face = face_manifold(start, end, face_normal, convex, convex_in_chain, margin);
            (!face.is_empty()).then_some(face)
        }
    }
}

/// The contact of a convex shape against the face of segment `start → end` along its normal,
/// with the shape's incident feature clipped to the segment's extent (chain frame). Points
/// separated by more than `margin` are left out.
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
    let direction = left_perp(face_normal);
    let (low, high) = (start.dot(direction), end.dot(direction));
    let mut manifold = Manifold::EMPTY;
    manifold.normal = face_normal;
    let mut keep = |point: Vec2, feature: Feature| {
        let separation = (point - start).dot(face_normal) - incident.radius;
        if separation <= margin && manifold.count < 2 {
            manifold.points[manifold.count] = ContactPoint {
                point: point - face_normal * (incident.radius + 0.5 * separation),
                penetration: -separation,
                id: FeatureId {
                    a: Feature::Edge(0),
                    b: feature,
                },
            };
            manifold.count += 1;
        }
    };
    let (first, first_feature) = incident.points[0];
    let first_along = first.dot(direction);
    if incident.count == 1 {
        if first_along >= low && first_along <= high {
            keep(first, first_feature);
        }
        return manifold;
    }
    let (second, second_feature) = incident.points[1];
    let second_along = second.dot(direction);
    // Clip the incident segment to [low, high] along the face.
    let clip = |from: Vec2, from_along: f32, to: Vec2, to_along: f32| -> Option<Vec2> {
        if from_along >= low && from_along <= high {
            return Some(from);
        }
        let bound = if from_along < low { low } else { high };
        let span = to_along - from_along;
        if span == 0.0 || (bound - from_along) / span > 1.0 || (bound - from_along) / span < 0.0 {
            return None;
        }
        Some(from + (to - from) * ((bound - from_along) / span))
    };
    let clipped_first = clip(first, first_along, second, second_along);
    let clipped_second = clip(second, second_along, first, first_along);
    if let Some(point) = clipped_first {
        let feature = if point == first {
            first_feature
        } else {
            incident.edge
        };
        keep(point, feature);
    }
    if let Some(point) = clipped_second {
        let feature = if point == second {
            second_feature
        } else {
            incident.edge
        };
        keep(point, feature);
    }
    manifold
}

/// The part of a convex shape's core that faces a direction most directly, with its radius.
struct IncidentFeature {
    /// One or two core points (chain frame) and the features they are.
    points: [(Vec2, Feature); 2],
    /// How many of `points` are used.
    count: usize,
    /// The feature a point between the two is on.
    edge: Feature,
    /// The rounding radius around the core.
    radius: f32,
}

impl IncidentFeature {
    /// The incident feature of `convex` against a face with normal `face_normal`; `None` for
    /// shapes that are not convex.
    fn of(convex: &Shape, convex_in_chain: &Transform, face_normal: Vec2) -> Option<Self> {
        let place = |p: Vec2| convex_in_chain.apply(p);
        let two = |a: Vec2, b: Vec2, radius: f32| IncidentFeature {
            points: [
                (place(a), Feature::Vertex(0)),
                (place(b), Feature::Vertex(1)),
            ],
            count: 2,
            edge: Feature::Edge(0),
            radius,
        };
        Some(match convex {
            Shape::Circle(circle) => IncidentFeature {
                points: [(place(circle.center()), Feature::Vertex(0)); 2],
                count: 1,
                edge: Feature::Vertex(0),
                radius: circle.radius(),
            },
            Shape::Capsule(capsule) => two(capsule.a(), capsule.b(), capsule.radius()),
            Shape::Segment(segment) => two(segment.a(), segment.b(), 0.0),
            Shape::Polygon(polygon) => {
                let local_normal = convex_in_chain.rotate_inv(face_normal);
                let (edge, _) = polygon
                    .normals()
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (i, n.dot(local_normal)))
                    .fold((0, f32::INFINITY), |best, candidate| {
                        if candidate.1 < best.1 {
                            candidate
                        } else {
                            best
                        }
                    });
                let vertices = polygon.vertices();
                let next = (edge + 1) % vertices.len();
                IncidentFeature {
                    points: [
                        (place(vertices[edge]), Feature::Vertex(edge as u8)),
                        (place(vertices[next]), Feature::Vertex(next as u8)),
                    ],
                    count: 2,
                    edge: Feature::Edge(edge as u8),
                    radius: polygon.radius(),
                }
            }
            Shape::Compound(_) | Shape::Chain(_) => return None,
        })
    }
}
