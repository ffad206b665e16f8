//! Contact planes around a character and the solver that finds the displacement closest to a
//! request that violates none of them.

use super::super::{Collider, ColliderHandle, QueryFilter, World};
use crate::math::{cross, Transform, Vec2};
use crate::query::{collide_speculative, distance};
use crate::shape::{Segment, Shape};

/// One surface near the character, linearised: the displacement `d` (from the start of the
/// move, after recovery) must satisfy `normal · d ≥ offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Plane {
    /// Unit normal pointing from the surface towards the character.
    pub normal: Vec2,
    /// The bound on `normal · d`; never above 0, so standing still is always allowed.
    pub offset: f32,
    /// The collider the surface belongs to.
    pub collider: ColliderHandle,
    /// The surface's closest point to the character, when measured.
    pub point: Vec2,
    /// The gap between the character and the surface when measured (negative: overlapping).
    pub separation: f32,
}

/// A surface as measured at one placement of the character.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Surface {
    pub normal: Vec2,
    /// The gap along `normal` (a face's plane, or the closest-point direction).
    pub separation: f32,
    /// How far the character is from the obstacle at all: the distance, or its lower bound
    /// the largest separation along any face axis (negative: overlapping). A corner beside a
    /// seam may be near along its hidden side's normal while the obstacle as a whole is not.
    pub gap: f32,
    /// The direction a recovery pushes the character out along, and the separation along it:
    /// of the obstacle's faces the character is wholly in front of, the one facing up most
    /// (out of the floor, never along a seam's hidden side); else the closest-point direction
    /// or the contact normal.
    pub away: (Vec2, f32),
    pub point: Vec2,
    pub collider: ColliderHandle,
    /// Another face of the same piece that would hold the character as well (a sharp corner
    /// beside a seam: its top and its side); see [`line_up_seams`].
    pub other_face: Option<OtherFace>,
}

/// Another face of the same piece that would hold the character (see [`Surface::other_face`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OtherFace {
    pub normal: Vec2,
    pub separation: f32,
    pub point: Vec2,
    /// Whether it is where the pair touches: a face meeting the other shape's nearest point
    /// across it, so its separation is the distance.
    pub meets: bool,
}

/// A surface of one convex piece as measured, before its collider is known (the fields of
/// [`Surface`]).
#[derive(Clone, Copy, Debug)]
struct Found {
    normal: Vec2,
    separation: f32,
    gap: f32,
    away: (Vec2, f32),
    point: Vec2,
    other_face: Option<OtherFace>,
}

/// How one of several faces that would each hold the character is chosen: the one resisting
/// `motion` least; between faces resisting it equally, the one facing `up` most (the one the
/// character stands on, not a seam's hidden side).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Preference {
    pub motion: Vec2,
    pub up: Vec2,
}

impl Preference {
    /// Whether a face of normal `normal` is preferred to one of normal `other`.
    fn prefers(&self, normal: Vec2, other: Vec2) -> bool {
        let (resistance, other_resistance) = (normal.dot(self.motion), other.dot(self.motion));
        resistance > other_resistance
            || (resistance == other_resistance && normal.dot(self.up) > other.dot(self.up))
    }
}

impl World {
    /// Every surface of the colliders accepted by `filter` within `reach` of `shape` at `xf`.
    /// `motion` is the intended motion, for one-way colliders (they count only when the
    /// character comes down onto their blocking side and is not deeper than their margin);
    /// `preference` chooses between several faces that would each hold the character (see
    /// [`convex_surface`]).
    pub(crate) fn surfaces_near(
        &self,
        shape: &Shape,
        xf: &Transform,
        reach: f32,
        (motion, preference): (Vec2, Preference),
        filter: &QueryFilter,
        out: &mut Vec<Surface>,
    ) {
        let start = out.len();
        let bounds = shape.aabb(xf).expanded(reach);
        let centroid = xf.apply(shape.centroid());
        self.candidates(bounds, filter, |handle, collider| {
            let first = out.len();
            let other_xf = collider.world_transform();
            let mut push = |found: Found| {
                out.push(Surface {
                    normal: found.normal,
                    separation: found.separation,
                    gap: found.gap,
                    away: found.away,
                    point: found.point,
                    collider: handle,
                    other_face: found.other_face,
                });
            };
            shape_surfaces(
                shape,
                xf,
                centroid,
                (&collider.shape, &other_xf),
                reach,
                preference,
                &mut push,
            );
            keep_one_way(collider, motion, out, first);
        });
        line_up_seams(&mut out[start..], reach);
    }
}

/// At a seam between two pieces (level tiles, a stack of boxes), a sharp character beside the
/// seam has the next piece's corner diagonally off it: both the corner's faces hold it, one the
/// face the pieces share (the floor's top, the wall's side) and one hidden inside the seam.
/// Which is which the corner alone does not tell (walking along a floor or falling along a
/// wall, the corner looks the same turned a quarter), and the motion does not either (the
/// hidden top of the box below resists a fall less than the wall's side resists a walk into
/// it, and held the character on the wall). Its neighbour does: the face shared lines up with
/// the neighbour's, at the same separation. So when just one of the two faces lines up with
/// another surface, that face holds the character, and the hidden one is not pushed out along
/// either (nor read as a floor the character is above). When neither does, and the other face
/// is where the pair touches ([`OtherFace::meets`]: a corner of the character's beside a
/// box's side, with the box's corner below it in front of the line of the character's slanted
/// face), the face touched holds it: the slanted line is no surface at all there, and a walk
/// into the box slid down along it, further than the request fell.
fn line_up_seams(surfaces: &mut [Surface], reach: f32) {
    let lines_up = |surfaces: &[Surface], index: usize, normal: Vec2, separation: f32| {
        surfaces.iter().enumerate().any(|(other, s)| {
            other != index
                && s.normal.dot(normal) > 1.0 - 1.0e-5
                && (s.separation - separation).abs() <= 0.5 * reach
        })
    };
    // A face switched to lines up with the faces of pieces looked at before it, which may
    // then switch in turn: passes until none changes (beside a compound stack's seam, the
    // piece below was looked at first, its own faces lining up with nothing yet, and held a
    // character falling along the wall on its hidden top).
    for _ in 0..surfaces.len() {
        let mut changed = false;
        for index in 0..surfaces.len() {
            let surface = surfaces[index];
            let Some(other) = surface.other_face else {
                continue;
            };
            let chosen_lines_up = lines_up(surfaces, index, surface.normal, surface.separation);
            let other_lines_up = lines_up(surfaces, index, other.normal, other.separation);
            let (real, hidden) = match (chosen_lines_up, other_lines_up) {
                (true, false) => ((surface.normal, surface.separation), other.normal),
                (false, true) => ((other.normal, other.separation), surface.normal),
                (false, false) if other.meets => ((other.normal, other.separation), surface.normal),
                _ => continue,
            };
            let held = &mut surfaces[index];
            if real.0 != surface.normal {
                changed = true;
                held.normal = other.normal;
                held.separation = other.separation;
                held.point = other.point;
                held.other_face = Some(OtherFace {
                    normal: surface.normal,
                    separation: surface.separation,
                    point: surface.point,
                    meets: false,
                });
            }
            if held.away.0.dot(hidden) > 1.0 - 1.0e-5 {
                held.away = real;
            }
        }
        if !changed {
            break;
        }
    }
}

/// Drops the surfaces from `first` on that a one-way collider does not block.
fn keep_one_way(collider: &Collider, motion: Vec2, out: &mut Vec<Surface>, first: usize) {
    let Some((direction, margin)) = collider.one_way_world() else {
        return;
    };
    if motion.dot(direction) >= 0.0 {
        out.truncate(first);
        return;
    }
    let mut index = first;
    while index < out.len() {
        let surface = out[index];
        if surface.normal.dot(direction) <= 0.0 || surface.separation < -margin {
            out.swap_remove(index);
        } else {
            index += 1;
        }
    }
}

/// The surfaces of `other` within `reach` of `shape`: one per convex piece (a chain segment
/// with the character in front of it, a compound child).
fn shape_surfaces(
    shape: &Shape,
    xf: &Transform,
    centroid: Vec2,
    (other, other_xf): (&Shape, &Transform),
    reach: f32,
    preference: Preference,
    push: &mut dyn FnMut(Found),
) {
    match other {
        Shape::Chain(chain) => {
            let local = shape.aabb(&other_xf.inv_mul(xf)).expanded(reach);
            let local_centroid = other_xf.apply_inv(centroid);
            chain.for_each_segment_in(&local, &mut |index| {
                let (start, end) = chain.segment_points(index);
                let face = chain.normals()[index];
                // One-sided: only a character in front of the segment is stopped by it.
                if (local_centroid - start).dot(face) < 0.0 {
                    return true;
                }
                let segment = Shape::Segment(Segment::new_unchecked(start, end));
                let pair = (&segment, other_xf);
                let corners = convex_neighbours(chain, index);
                let neighbour_face = |normal: Vec2| {
                    corners
                        .iter()
                        .flatten()
                        .any(|(n, _)| normal.dot(other_xf.rotate(*n)) > 1.0 - 1.0e-6)
                };
                // The corners' faces side by side, without an allocation a segment.
                let mut faces = [(Vec2::ZERO, Vec2::ZERO); 2];
                let mut count = 0;
                for corner in corners.iter().flatten() {
                    faces[count] = *corner;
                    count += 1;
                }
                let faces = &faces[..count];
                let mut keep = |found: Found| {
                    if found.normal.dot(other_xf.rotate(face)) > 0.0 || neighbour_face(found.normal)
                    {
                        push(found);
                    }
                };
                convex_surface_with(shape, xf, pair, faces, reach, preference, &mut keep);
                true
            });
        }
        Shape::Compound(compound) => {
            for (child_xf, child) in compound.children() {
                let child_world = other_xf.mul(child_xf);
                let pair = (child, &child_world);
                shape_surfaces(shape, xf, centroid, pair, reach, preference, push);
            }
        }
        _ => match shape {
            Shape::Compound(compound) => {
                for (child_xf, child) in compound.children() {
                    let child_world = xf.mul(child_xf);
                    convex_surface(
                        child,
                        &child_world,
                        (other, other_xf),
                        reach,
                        preference,
                        push,
                    );
                }
            }
            _ => convex_surface(shape, xf, (other, other_xf), reach, preference, push),
        },
    }
}

/// The surface of convex `other` nearest to convex `shape`.
///
/// A sharp polygon character against a polygon or segment uses the separating axis (face normal) of
/// largest separation; among axes within `reach` (about the skin) of the largest (a corner at a
/// seam between tiles, whose side face is inside the floor), the one that resists `motion`
/// least, so a box slides over the seam instead of stopping at the hidden face. Rounded characters use
/// the closest-point direction (a circle rolls over a corner), or an obstacle face the character
/// is wholly in front of when that resists `motion` less (see [`open_face`]). Overlapping pairs
/// use the contact normal and deepest penetration.
fn convex_surface(
    shape: &Shape,
    xf: &Transform,
    pair: (&Shape, &Transform),
    reach: f32,
    preference: Preference,
    push: &mut dyn FnMut(Found),
) {
    convex_surface_with(shape, xf, pair, &[], reach, preference, push);
}

/// Of chain segment `index`, the faces of its neighbours at its two ends that it lies wholly
/// behind (the chain turns away from its front there: a convex corner), as (normal, a point
/// of the face) in the chain's frame. A character in front of such a face by the skin is
/// that far from the segment too: beside a stack of chain pieces (a wall of tiles), the face
/// of the piece's side holds the character at the corner the piece above covers, where the
/// closest-point direction to the corner leans up, against a fall along the wall.
fn convex_neighbours(chain: &crate::shape::Chain, index: usize) -> [Option<(Vec2, Vec2)>; 2] {
    let count = chain.segment_count();
    let (start, end) = chain.segment_points(index);
    let neighbour = |other: Option<usize>, shared: Vec2, far: Vec2| {
        let other = other?;
        let normal = chain.normals()[other];
        ((far - shared).dot(normal) <= 0.0).then_some((normal, shared))
    };
    let closed = chain.is_closed();
    let previous = if index > 0 {
        Some(index - 1)
    } else if closed {
        Some(count - 1)
    } else {
        None
    };
    let next = if index + 1 < count {
        Some(index + 1)
    } else if closed {
        Some(0)
    } else {
        None
    };
    let previous = previous.filter(|&i| i != index);
    let next = next.filter(|&i| i != index);
    [neighbour(previous, start, end), neighbour(next, end, start)]
}

/// [`convex_surface`], with `extra_faces` (normal and a point, in `other`'s frame) that keep
/// the character out of `other` as well as its own faces do (see [`convex_neighbours`]).
fn convex_surface_with(
    shape: &Shape,
    xf: &Transform,
    (other, other_xf): (&Shape, &Transform),
    extra_faces: &[(Vec2, Vec2)],
    reach: f32,
    preference: Preference,
    push: &mut dyn FnMut(Found),
) {
    if let Some(found) = separating_face(shape, xf, (other, other_xf), preference, reach) {
        // Only an obstacle within `reach` as a whole (its largest separation, a lower bound
        // on the distance, as the closest-point test below asks of rounded characters): a
        // face within `reach` of an obstacle further than that is the line of a face the
        // character is beside, not over (a sharp character falling along a wall 1e4 out, a
        // skin and a spacing from it, read the top of a wall tile below its side as floor,
        // and hung on the wall there).
        if found.separation <= reach && found.gap <= reach {
            push(found);
        }
        return;
    }
    let closest = distance(shape, xf, other, other_xf);
    if closest.distance > reach {
        return;
    }
    if closest.distance > 0.0 && closest.normal != Vec2::ZERO {
        let normal = -closest.normal;
        let pair = (other, other_xf);
        let closest_face = (normal, closest.distance);
        let open = open_face(shape, xf, pair, extra_faces, preference, 0.25 * reach);
        let face = open.filter(|face| preference.prefers(face.0, normal));
        // A face the character is wholly in front of that resists the motion more than the
        // closest-point direction still holds it: beside a seam of a stack of boxes, the
        // next box's corner leans the closest-point direction against a fall along the wall,
        // and only the face lines up with the neighbour's (see `line_up_seams`).
        let other_face = match (face, open) {
            (None, Some((normal, separation))) => Some(OtherFace {
                normal,
                separation,
                point: closest.point_b,
                meets: false,
            }),
            _ => None,
        };
        let upward = Preference {
            motion: Vec2::ZERO,
            ..preference
        };
        let away = open_face(shape, xf, pair, extra_faces, upward, 0.0)
            .filter(|face| upward.prefers(face.0, normal))
            .unwrap_or(closest_face);
        let (normal, separation) = face.unwrap_or(closest_face);
        push(Found {
            normal,
            separation,
            gap: closest.distance,
            away,
            point: closest.point_b,
            other_face,
        });
        return;
    }
    let manifold = collide_speculative(shape, xf, other, other_xf, 0.0);
    if manifold.is_empty() {
        return;
    }
    let deepest = manifold
        .points()
        .iter()
        .copied()
        .max_by(|x, y| x.penetration.total_cmp(&y.penetration))
        .map(|p| (p.penetration, p.point))
        .unwrap_or((0.0, closest.point_b));
    push(Found {
        normal: -manifold.normal,
        separation: -deepest.0,
        gap: -deepest.0,
        away: (-manifold.normal, -deepest.0),
        point: deepest.1,
        other_face: None,
    });
}

/// For a rounded (or any convex) character separated from a polygon or segment: the obstacle
/// face the character lies wholly in front of, by at least `least` along the face normal, that
/// resists `motion` least, as `(normal, separation)`; `None` for other pairs or when the
/// character is in front of no face by that much.
///
/// Keeping in front of a face keeps the character out of the convex obstacle, so the face's
/// plane is as safe as the closest-point one; it differs near a corner. At a seam between two
/// level tiles (or at a vertex of a straight chain) the closest-point direction to the next
/// piece's corner leans back against the walk, and a long step solved against that plane
/// climbs it; the corner's top face lets the character carry on level.
fn open_face(
    shape: &Shape,
    xf: &Transform,
    (other, other_xf): (&Shape, &Transform),
    extra_faces: &[(Vec2, Vec2)],
    preference: Preference,
    least: f32,
) -> Option<(Vec2, f32)> {
    let (core, radius): (&[Vec2], f32) = match shape {
        Shape::Circle(circle) => (std::slice::from_ref(circle.center_ref()), circle.radius()),
        Shape::Capsule(capsule) => (capsule.ends(), capsule.radius()),
        Shape::Polygon(polygon) => (polygon.vertices(), polygon.radius()),
        Shape::Segment(segment) => (segment.ends(), 0.0),
        Shape::Chain(_) | Shape::Compound(_) => return None,
    };
    // Everything relative to the character's origin, so far out the precision is the shapes'.
    let separation_along = |normal: Vec2, face_point: Vec2, obstacle_radius: f32| {
        let lowest = core
            .iter()
            .map(|p| normal.dot(xf.rotate(*p) - face_point))
            .fold(f32::INFINITY, f32::min);
        lowest - radius - obstacle_radius
    };
    let offset = other_xf.p - xf.p;
    let place = |v: Vec2| other_xf.rotate(v) + offset;
    let mut best: Option<(Vec2, f32)> = None;
    let mut consider = |normal: Vec2, face_point: Vec2, obstacle_radius: f32| {
        let separation = separation_along(normal, face_point, obstacle_radius);
        let better = best.is_none_or(|(best_normal, _)| preference.prefers(normal, best_normal));
        if separation >= least && better {
            best = Some((normal, separation));
        }
    };
    match other {
        Shape::Polygon(polygon) => {
            for (vertex, normal) in polygon.vertices().iter().zip(polygon.normals()) {
                consider(other_xf.rotate(*normal), place(*vertex), polygon.radius());
            }
        }
        Shape::Segment(segment) => {
            let (a, b) = (place(segment.a()), place(segment.b()));
            let normal = crate::math::left_perp(crate::math::try_unit(b - a)?);
            consider(normal, a, 0.0);
            consider(-normal, a, 0.0);
        }
        _ => return None,
    }
    for (normal, point) in extra_faces {
        consider(other_xf.rotate(*normal), place(*point), 0.0);
    }
    best
}

/// Vertices (relative to `frame_origin`, world orientation), outward face normals (world space)
/// and radius of a polygon or a segment (two faces, one each way). Measured from a point near
/// the pair (the character's origin), so they keep the precision of the shapes' own sizes far
/// from the world origin.
fn faces(shape: &Shape, xf: &Transform, frame_origin: Vec2) -> Option<(Vec<Vec2>, Vec<Vec2>, f32)> {
    let offset = xf.p - frame_origin;
    let place = |v: Vec2| xf.rotate(v) + offset;
    match shape {
        Shape::Polygon(polygon) => Some((
            polygon.vertices().iter().map(|v| place(*v)).collect(),
            polygon.normals().iter().map(|n| xf.rotate(*n)).collect(),
            polygon.radius(),
        )),
        Shape::Segment(segment) => {
            let (a, b) = (place(segment.a()), place(segment.b()));
            let normal = crate::math::left_perp(crate::math::try_unit(b - a)?);
            Some((vec![a, b], vec![-normal, normal], 0.0))
        }
        _ => None,
    }
}

/// For a sharp polygon character and a polygon or segment obstacle: the surface along a face axis
/// within `tie` of the largest separation that `preference` prefers (normal from the obstacle
/// towards the character), with the largest separation as its gap and, to push out along,
/// the one facing `up` most of those the character is in front of. `None` for other pairs.
///
/// When the face chosen is not where the pair touches (the line of a slanted face of the
/// character's, past its corner, a little in front of a box's corner below it) while another
/// face meets the other shape's nearest point across it (the character's corner beside the
/// box's side), that face, whose separation is the distance, is given as the other face, and
/// marked so: see [`line_up_seams`].
fn separating_face(
    shape: &Shape,
    xf: &Transform,
    (other, other_xf): (&Shape, &Transform),
    preference: Preference,
    tie: f32,
) -> Option<Found> {
    if !matches!(shape, Shape::Polygon(p) if p.radius() == 0.0) {
        return None;
    }
    let frame_origin = xf.p;
    let (mover, mover_normals, mover_radius) = faces(shape, xf, frame_origin)?;
    let (obstacle, obstacle_normals, obstacle_radius) = faces(other, other_xf, frame_origin)?;
    let radii = mover_radius + obstacle_radius;
    // Points this close to the deepest along an axis count as deepest with it (a face parallel
    // to the axis' face, up to rounding and a slight tilt).
    let level = 0.01 * tie;
    let mut axes: Vec<Axis> = Vec::with_capacity(mover.len() + obstacle.len());
    for (i, normal) in obstacle_normals.iter().enumerate() {
        let face = (obstacle[i], obstacle[(i + 1) % obstacle.len()]);
        let (gap, deepest, meets) = deepest_across(&mover, *normal, face, level);
        axes.push(Axis {
            separation: gap - radii,
            normal: *normal,
            point: deepest - *normal * gap,
            meets,
        });
    }
    for (i, normal) in mover_normals.iter().enumerate() {
        let face = (mover[i], mover[(i + 1) % mover.len()]);
        let (gap, deepest, meets) = deepest_across(&obstacle, *normal, face, level);
        axes.push(Axis {
            separation: gap - radii,
            normal: -*normal,
            point: deepest,
            meets,
        });
    }
    let best = axes
        .iter()
        .map(|a| a.separation)
        .fold(f32::NEG_INFINITY, f32::max);
    // An axis well inside the skin is never preferred over the best one: that would push
    // the character out sideways (the face of the tile it just left, at separation 0).
    let window = tie + 1.0e-6 * best.abs();
    let eligible = |a: &&Axis, least: f32| {
        a.separation == best || (a.separation >= best - window && a.separation >= least)
    };
    // Any face the character is wholly in front of keeps it out; pushing out, the one facing
    // up most is taken even when well inside the skin (the floor under a seam's corner).
    let choose = |preference: Preference, least: f32| {
        axes.iter()
            .filter(|a| eligible(a, least))
            .fold(None, |chosen: Option<&Axis>, axis| match chosen {
                Some(kept) if !preference.prefers(axis.normal, kept.normal) => Some(kept),
                _ => Some(axis),
            })
    };
    let chosen = choose(preference, 0.25 * tie)?;
    // The face the character would be held by otherwise: the face contact (within `level` of
    // the largest separation) when the chosen face is another, else of those as eligible
    // facing another way, the one preferred next.
    let contact = axes
        .iter()
        .filter(|a| a.meets && a.separation >= best - level)
        .max_by(|x, y| x.separation.total_cmp(&y.separation))
        .filter(|a| a.normal.dot(chosen.normal) < 1.0 - 1.0e-5);
    let other_face = contact
        .map(|a| (a, true))
        .or_else(|| {
            axes.iter()
                .filter(|a| eligible(a, 0.25 * tie))
                .filter(|a| a.normal.dot(chosen.normal) < 1.0 - 1.0e-5)
                .fold(None, |kept: Option<&Axis>, axis| match kept {
                    Some(kept) if !preference.prefers(axis.normal, kept.normal) => Some(kept),
                    _ => Some(axis),
                })
                .map(|a| (a, false))
        })
        .map(|(a, meets)| OtherFace {
            normal: a.normal,
            separation: a.separation,
            point: a.point + frame_origin,
            meets,
        });
    let upward = choose(
        Preference {
            motion: Vec2::ZERO,
            ..preference
        },
        0.0,
    )?;
    Some(Found {
        normal: chosen.normal,
        separation: chosen.separation,
        gap: best,
        away: (upward.normal, upward.separation),
        point: chosen.point + frame_origin,
        other_face,
    })
}

/// One separating axis of a pair (see [`separating_face`]).
#[derive(Clone, Copy, Debug)]
struct Axis {
    /// The separation along it (negative: overlapping).
    separation: f32,
    /// Its normal, from the obstacle towards the character.
    normal: Vec2,
    /// The point on the obstacle, relative to the frame's origin.
    point: Vec2,
    /// Whether the deepest points along it lie across the face it is the normal of (their
    /// extent along the face overlaps the face's): the face and those points are the nearest
    /// features, and the separation the distance.
    meets: bool,
}

/// Of `points`, the gap of the deepest along `normal` in front of `face` (measured from its
/// first end), that point, and whether the points within `level` of it lie across the face.
fn deepest_across(
    points: &[Vec2],
    normal: Vec2,
    face: (Vec2, Vec2),
    level: f32,
) -> (f32, Vec2, bool) {
    let (gap, deepest) = points.iter().map(|p| (normal.dot(*p - face.0), *p)).fold(
        (f32::INFINITY, face.0),
        |best, x| {
            if x.0 < best.0 {
                x
            } else {
                best
            }
        },
    );
    let along = crate::math::left_perp(normal);
    let (a, b) = (along.dot(face.0), along.dot(face.1));
    let (low, high) = (a.min(b), a.max(b));
    let (mut first, mut last) = (f32::INFINITY, f32::NEG_INFINITY);
    for p in points {
        if normal.dot(*p - face.0) <= gap + level {
            let t = along.dot(*p);
            first = first.min(t);
            last = last.max(t);
        }
    }
    (gap, deepest, first <= high && last >= low)
}

/// The displacement closest to `target` with `normal · d ≥ offset` for every plane.
///
/// The feasible set is a convex polygon (possibly unbounded) that contains the origin, since
/// every offset is at most 0. Its point closest to `target` is `target` itself, the projection
/// of `target` onto one plane's line, or a vertex where two lines cross: the solver tries them
/// all and keeps the nearest feasible one, so every plane is respected at once (in a crease the
/// answer runs along the crease or is zero). The answer `d` satisfies `d · target ≥ |d|²`, hence
/// never goes against the request and is never longer than it.
pub(crate) fn solve_planes(target: Vec2, planes: &[Plane]) -> Vec2 {
    let slack = 1.0e-6 * target.length();
    let feasible = |d: Vec2| planes.iter().all(|p| p.normal.dot(d) >= p.offset - slack);
    if feasible(target) {
        return target;
    }
    let mut best = Vec2::ZERO;
    let mut best_distance = target.length_squared();
    let mut consider = |d: Vec2| {
        let gap = d.distance_squared(target);
        if gap < best_distance && d.is_finite() && feasible(d) {
            best = d;
            best_distance = gap;
        }
    };
    for plane in planes {
        consider(target + plane.normal * (plane.offset - plane.normal.dot(target)));
    }
    for (i, first) in planes.iter().enumerate() {
        for second in &planes[i + 1..] {
            let det = cross(first.normal, second.normal);
            if det.abs() <= 1.0e-6 {
                continue;
            }
            let (n, m) = (first.normal, second.normal);
            let vertex = Vec2::new(
                (first.offset * m.y - n.y * second.offset) / det,
                (n.x * second.offset - first.offset * m.x) / det,
            );
            consider(vertex);
        }
    }
    best
}

/// The displacement for a request `walk + downward` on walkable floor, which absorbs
/// `downward` (the request's part along -up): `walk` solved against the planes
/// ([`solve_planes`]), then as much of `downward` as the planes allow from there, and never
/// longer than `longest` in all. Walking up a slope climbs it at the walk's projection; walking
/// down it the character follows it as far down as `downward` reaches; standing still it stays.
///
/// The answer `d` satisfies `d · walk ≥ 0` (`downward` is across `walk`), where [`solve_planes`]
/// on the whole request would slide the character down a slope it walks up whenever
/// `downward` is more than the walk times the slope's cotangent.
///
/// `spacing` is the `f32` spacing of each coordinate of the character's position (zero where
/// it does not matter): the downward part is added only as far as the coordinates can place
/// it ([`placeable`]). A gap to a plane no more than the position's [`resolution`] along its
/// normal is not closed, and a downward part shorter than the resolution along it is not
/// added: far from the origin each coordinate rounds on its own, and a closing motion finer
/// than the spacing kept the part along the finer axis and dropped the part along the
/// coarser one, so a character standing on a floor turned against the axes slid along it
/// whole spacings of the finer axis a call (a 0.31-unit circle 1e4 out, 5e-4 beyond its
/// skin, moved (-1.2e-4, 0) a call on a floor whose normal is (0.36, -0.93), closing the gap
/// 4e-5 a call).
pub(crate) fn solve_absorbing(
    walk: Vec2,
    downward: Vec2,
    longest: f32,
    planes: &[Plane],
    spacing: Vec2,
) -> Vec2 {
    let walked = solve_planes(walk, planes);
    // The largest `t` in [0, 1] with `walked + t·downward` on the right side of every plane.
    let mut most = 1.0f32;
    for plane in planes {
        let closing = -plane.normal.dot(downward);
        if closing > 0.0 {
            let room = plane.normal.dot(walked) - plane.offset;
            let room = if placeable(room, resolution(spacing, plane.normal)) {
                room
            } else {
                0.0
            };
            most = most.min((room / closing).max(0.0));
        }
    }
    // And `|walked + t·downward| ≤ longest`: the larger root of
    // `|downward|² t² + 2 (walked · downward) t + |walked|² - longest² = 0`.
    let a = downward.length_squared();
    if a > 0.0 {
        let b = walked.dot(downward);
        let c = walked.length_squared() - longest * longest;
        let root = (b * b - a * c).max(0.0).sqrt();
        most = most.min(((root - b) / a).max(0.0));
        let length = a.sqrt();
        if !placeable(length * most, resolution(spacing, downward / length)) {
            most = 0.0;
        }
    }
    if !most.is_finite() {
        return walked;
    }
    walked + downward * most
}

/// How finely a position whose coordinates have the `f32` spacings `spacing` is placed along
/// the unit `direction`: how far a step of one spacing on each coordinate moves it along the
/// direction at most. (Near the origin far below any length the mover works with; 1e4 out
/// about 1e-3.)
pub(crate) fn resolution(spacing: Vec2, direction: Vec2) -> f32 {
    spacing.x * direction.x.abs() + spacing.y * direction.y.abs()
}

/// Whether a motion of `length` along a direction the position is placed to `resolution`
/// along can be made: more than the resolution. Rounded per coordinate, a shorter one keeps
/// only its part along the axis of finer spacing, which may be across the motion.
fn placeable(length: f32, resolution: f32) -> bool {
    length > resolution
}

/// The smallest push `p` with `normal · p ≥ depth` for each `(normal, depth)` (a start inside
/// geometry or deep in the skin). When no point satisfies all (squeezed from opposite sides),
/// the sum of the individual pushes.
pub(crate) fn solve_push(wanted: &[(Vec2, f32)]) -> Vec2 {
    let feasible = |d: Vec2| {
        wanted
            .iter()
            .all(|(n, depth)| n.dot(d) >= depth - 1.0e-6 * depth.abs())
    };
    let mut best: Option<Vec2> = None;
    let mut consider = |d: Vec2| {
        if d.is_finite()
            && feasible(d)
            && best.is_none_or(|b| d.length_squared() < b.length_squared())
        {
            best = Some(d);
        }
    };
    for (n, depth) in wanted {
        consider(*n * *depth);
    }
    for (i, (n, a)) in wanted.iter().enumerate() {
        for (m, b) in &wanted[i + 1..] {
            let det = cross(*n, *m);
            if det.abs() > 1.0e-6 {
                consider(Vec2::new(
                    (a * m.y - n.y * b) / det,
                    (n.x * b - a * m.x) / det,
                ));
            }
        }
    }
    best.unwrap_or_else(|| wanted.iter().map(|(n, depth)| *n * *depth).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plane(normal: Vec2, offset: f32) -> Plane {
        Plane {
            normal: normal.normalize(),
            offset,
            collider: ColliderHandle::from_key(0),
            point: Vec2::ZERO,
            separation: 0.0,
        }
    }

    #[test]
    fn a_crease_gives_motion_along_it_or_none() {
        let floor = plane(Vec2::Y, 0.0);
        let slope = plane(Vec2::new(0.8, 0.6), 0.0);
        // Down and left into the crease: stays put (never up the slope).
        assert_eq!(
            solve_planes(Vec2::new(-1.0, -1.0), &[floor, slope]),
            Vec2::ZERO
        );
        // Right along the floor: free.
        let right = solve_planes(Vec2::new(1.0, -0.2), &[floor, slope]);
        assert!((right - Vec2::new(1.0, 0.0)).length() < 1e-6, "{right:?}");
        // Up the slope's direction: slides along the slope.
        let up = solve_planes(Vec2::new(-1.0, 0.0), &[slope]);
        assert!(
            up.dot(Vec2::new(0.8, 0.6)).abs() < 1e-6 && up.x < 0.0,
            "{up:?}"
        );
    }

    #[test]
    fn absorbing_climbs_a_walkable_slope_follows_it_down_and_stands_still() {
        // A 25° slope rising to the right, touching.
        let (sin, cos) = 25f32.to_radians().sin_cos();
        let slope = plane(Vec2::new(-sin, cos), 0.0);
        let down = Vec2::new(0.0, -0.009);
        let longest = |walk: Vec2| (walk + down).length();
        // Up it: the walk's projection on the slope, whatever the gravity.
        let walk = Vec2::new(0.003, 0.0);
        let up = solve_absorbing(walk, down, longest(walk), &[slope], Vec2::ZERO);
        let along = Vec2::new(cos, sin) * (0.003 * cos);
        assert!((up - along).length() < 1e-8, "{up:?}");
        // Down it: the walk, then down to the slope.
        let walk = Vec2::new(-0.003, 0.0);
        let d = solve_absorbing(walk, down, longest(walk), &[slope], Vec2::ZERO);
        let on_slope = Vec2::new(-0.003, -0.003 * sin / cos);
        assert!((d - on_slope).length() < 1e-8, "{d:?}");
        // Still: stays.
        assert_eq!(
            solve_absorbing(Vec2::ZERO, down, 0.009, &[slope], Vec2::ZERO),
            Vec2::ZERO
        );
        // With room below, down as far as the request reaches, never longer than it.
        let above = plane(Vec2::new(-sin, cos), -1.0);
        let d = solve_absorbing(walk, down, longest(walk), &[above], Vec2::ZERO);
        assert!((d - (walk + down)).length() < 1e-8, "{d:?}");
    }

    #[test]
    fn far_out_a_gap_or_a_fall_finer_than_the_coordinates_is_not_absorbed() {
        // A floor turned against the axes where the coordinates are spaced 6.1e-5 (x, about
        // 1e3) and 9.8e-4 (y, about 1e4): placed to 9.4e-4 along its normal.
        let normal = Vec2::new(0.36, -0.93).normalize();
        let spacing = Vec2::new(6.1e-5, 9.8e-4);
        let down = -normal * 0.06;
        // 5e-4 beyond the skin: left, not closed by whole spacings of x alone.
        let near = plane(normal, -5.0e-4);
        let stays = solve_absorbing(Vec2::ZERO, down, 0.06, &[near], spacing);
        assert_eq!(stays, Vec2::ZERO);
        // 3e-3 beyond it: closed.
        let above = plane(normal, -3.0e-3);
        let d = solve_absorbing(Vec2::ZERO, down, 0.06, &[above], spacing);
        assert!((d + normal * 3.0e-3).length() < 1.0e-7, "{d:?}");
        // Nothing under it: a fall finer than that is not added, a coarser one is.
        let fine = -normal * 5.0e-4;
        assert_eq!(
            solve_absorbing(Vec2::ZERO, fine, 5.0e-4, &[], spacing),
            Vec2::ZERO
        );
        let coarse = -normal * 2.0e-3;
        assert_eq!(
            solve_absorbing(Vec2::ZERO, coarse, 2.0e-3, &[], spacing),
            coarse
        );
        // With no spacing given (near the origin) the gap is closed as before.
        let d = solve_absorbing(Vec2::ZERO, down, 0.06, &[near], Vec2::ZERO);
        assert!((d + normal * 5.0e-4).length() < 1.0e-8, "{d:?}");
    }

    #[test]
    fn planes_a_gap_away_let_the_character_close_it() {
        let floor = plane(Vec2::Y, -0.5);
        let d = solve_planes(Vec2::new(0.3, -2.0), &[floor]);
        assert!((d - Vec2::new(0.3, -0.5)).length() < 1e-6, "{d:?}");
    }
}
