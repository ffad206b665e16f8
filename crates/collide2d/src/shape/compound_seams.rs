//! The inside faces of a compound and the flat runs of its outer faces, found once when the
//! compound is built.
//!
//! A face of a sharp polygon child is *covered* when the region just outside it lies inside
//! other children and the region just inside it does not (a face shared with neighbours, a
//! seam; a face lying deep inside another child, where children overlap, is left as it is):
//! it is not surface of the union, and a contact must never push along its normal. A vertex where a
//! covered face meets an outer one is a flat or concave point of the union, unless another
//! child's outer face leaves it turning outward (a convex corner of the union made by two
//! children); its admissible normals are the union's there. The outer faces that continue one
//! another on one line across children make a *flat run*: a face contact on one of them
//! spans the run, as on one polygon.

use crate::math::{cross, Transform, Vec2};
use crate::shape::compound::{clip_segment_to_polygon, convex_interval};
use crate::shape::{Aabb, Shape};

/// Largest sine of the angle between two face normals for faces of different children to
/// count as one flat run.
const FLAT_SINE: f32 = 1.0e-4;

/// Largest uncovered share of a face (of its length) for it to count as covered.
const COVERED_SHARE: f32 = 1.0e-4;

/// The seams of a compound: per child, its faces and vertices as surface of the union.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Seams {
    /// Per child: its faces when it is a sharp polygon; `None` for the others (their own
    /// normals all stand).
    children: Vec<Option<ChildFaces>>,
}

/// The faces and vertex cones of one sharp polygon child, in the compound's frame.
#[derive(Clone, Debug, PartialEq)]
struct ChildFaces {
    /// Face `i` runs from vertex `i` to vertex `i + 1`.
    faces: Vec<Face>,
    /// At vertex `i` (between faces `i − 1` and `i`): the normals of the union there, from and
    /// to counter-clockwise; `None` when the vertex is not a convex point of the union.
    cones: Vec<Option<(Vec2, Vec2)>>,
}

/// One face of a sharp polygon child, in the compound's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Face {
    /// The outward unit normal.
    pub(crate) normal: Vec2,
    /// Whether the face is inside the union (covered by other children).
    pub(crate) covered: bool,
    /// The flat run of outer faces it belongs to, in the face's own direction (the face
    /// itself when it continues no other child's face, or when it is covered).
    pub(crate) run: (Vec2, Vec2),
    /// Whether the run is longer than the face.
    pub(crate) extended: bool,
}

/// What a child's contact normal is, as a normal of the union.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Admission {
    /// A normal of the union: the contact stands.
    Keep,
    /// The normal of an outer face of the child that is part of a longer flat run.
    Run(Face),
    /// Not a normal of the union (a covered face's, or a vertex's beyond the union's cone).
    Inside,
}

impl Seams {
    /// The seams of children placed in a compound (`tolerance`: the distance under which a
    /// point counts as on a seam); `None` when no child face is covered.
    pub(crate) fn find(
        children: &[(Transform, Shape)],
        child_aabbs: &[Aabb],
        tolerance: f32,
    ) -> Option<Box<Seams>> {
        if children.len() < 2 {
            return None;
        }
        // The outlines of the sharp polygon children, in the compound's frame.
        let outlines: Vec<Option<(Vec<Vec2>, Vec<Vec2>)>> = children
            .iter()
            .map(|(xf, shape)| match shape {
                Shape::Polygon(p) if p.radius() == 0.0 => Some((
                    p.vertices().iter().map(|v| xf.apply(*v)).collect(),
                    p.normals().iter().map(|n| xf.rotate(*n)).collect(),
                )),
                _ => None,
            })
            .collect();
        let mut covered: Vec<Vec<bool>> = Vec::with_capacity(children.len());
        let mut any = false;
        for (index, outline) in outlines.iter().enumerate() {
            let Some((vertices, normals)) = outline else {
                covered.push(Vec::new());
                continue;
            };
            let count = vertices.len();
            let flags: Vec<bool> = (0..count)
                .map(|i| {
                    let (a, b) = (vertices[i], vertices[(i + 1) % count]);
                    face_covered(children, child_aabbs, index, a, b, normals[i], tolerance)
                })
                .collect();
            any |= flags.iter().any(|&c| c);
            covered.push(flags);
        }
        if !any {
            return None;
        }
        // Every outer face, for the runs and the cones.
        let mut outer: Vec<(usize, Vec2, Vec2, Vec2)> = Vec::new();
        for (index, outline) in outlines.iter().enumerate() {
            if let Some((vertices, normals)) = outline {
                let count = vertices.len();
                for i in 0..count {
                    if !covered[index][i] {
                        outer.push((index, vertices[i], vertices[(i + 1) % count], normals[i]));
                    }
                }
            }
        }
        let near = |p: Vec2, q: Vec2| (p - q).length() <= 4.0 * tolerance;
        let mut result = Vec::with_capacity(children.len());
        for (index, outline) in outlines.iter().enumerate() {
            let Some((vertices, normals)) = outline else {
                result.push(None);
                continue;
            };
            let count = vertices.len();
            let faces: Vec<Face> = (0..count)
                .map(|i| {
                    let (a, b) = (vertices[i], vertices[(i + 1) % count]);
                    let is_covered = covered[index][i];
                    let (run, extended) = if is_covered {
                        ((a, b), false)
                    } else {
                        flat_run(&outer, index, a, b, normals[i], tolerance)
                    };
                    Face {
                        normal: normals[i],
                        covered: is_covered,
                        run,
                        extended,
                    }
                })
                .collect();
            let cones = (0..count)
                .map(|i| {
                    let (previous, next) = (faces[(i + count - 1) % count], faces[i]);
                    let v = vertices[i];
                    let strictly_between = |n: Vec2| {
                        cross(previous.normal, n) > FLAT_SINE && cross(n, next.normal) > FLAT_SINE
                    };
                    match (previous.covered, next.covered) {
                        (false, false) => Some((previous.normal, next.normal)),
                        (true, true) => None,
                        // The union's boundary comes into the vertex along another child's
                        // outer face, turning outward: a convex corner made by two children.
                        (true, false) => outer
                            .iter()
                            .find(|&&(j, _, end, n)| {
                                j != index && near(end, v) && strictly_between(n)
                            })
                            .map(|&(.., n)| (n, next.normal)),
                        (false, true) => outer
                            .iter()
                            .find(|&&(j, start, _, n)| {
                                j != index && near(start, v) && strictly_between(n)
                            })
                            .map(|&(.., n)| (previous.normal, n)),
                    }
                })
                .collect();
            result.push(Some(ChildFaces { faces, cones }));
        }
        Some(Box::new(Seams { children: result }))
    }

    /// What the outward unit normal `outward` (compound frame) of a contact on child `child` is
    /// as a normal of the union; `face_tolerance` is the largest sine of the angle between it
    /// and a face normal for the two to count as the same direction (the narrow phase's, as
    /// for chains' faces).
    pub(crate) fn admit(&self, child: usize, outward: Vec2, face_tolerance: f32) -> Admission {
        let Some(Some(child)) = self.children.get(child) else {
            return Admission::Keep;
        };
        for face in &child.faces {
            if cross(outward, face.normal).abs() <= face_tolerance && outward.dot(face.normal) > 0.0
            {
                return if face.covered {
                    Admission::Inside
                } else if face.extended {
                    Admission::Run(*face)
                } else {
                    Admission::Keep
                };
            }
        }
        let count = child.faces.len();
        for i in 0..count {
            let previous = child.faces[(i + count - 1) % count].normal;
            let next = child.faces[i].normal;
            if cross(previous, outward) >= 0.0 && cross(outward, next) >= 0.0 {
                return match child.cones[i] {
                    Some((from, to))
                        if cross(from, outward) >= -face_tolerance
                            && cross(outward, to) >= -face_tolerance =>
                    {
                        Admission::Keep
                    }
                    _ => Admission::Inside,
                };
            }
        }
        Admission::Keep
    }

    /// The outer faces of child `child` (none for children that are not sharp polygons).
    pub(crate) fn outer_faces(&self, child: usize) -> impl Iterator<Item = &Face> {
        self.children
            .get(child)
            .and_then(|c| c.as_ref())
            .into_iter()
            .flat_map(|c| c.faces.iter().filter(|f| !f.covered))
    }
}

/// Whether the face `a`–`b` of child `index` (outward unit `normal`) is a seam covered by the
/// other children: the face moved out by `tolerance` lies inside them but for a share of at
/// most [`COVERED_SHARE`] of its length, and moved in by as much it does not (a face lying
/// deep inside another child, where children overlap, is not a seam: such a compound keeps
/// its deepest child pair).
fn face_covered(
    children: &[(Transform, Shape)],
    child_aabbs: &[Aabb],
    index: usize,
    a: Vec2,
    b: Vec2,
    normal: Vec2,
    tolerance: f32,
) -> bool {
    let uncovered = |offset: f32| {
        let nudge = normal * offset;
        let (a, b) = (a + nudge, b + nudge);
        let bounds = Aabb {
            min: a.min(b),
            max: a.max(b),
        }
        .expanded(tolerance);
        let mut intervals: Vec<(f32, f32)> = Vec::new();
        for (j, ((xf, shape), aabb)) in children.iter().zip(child_aabbs).enumerate() {
            if j == index || !aabb.overlaps(&bounds) {
                continue;
            }
            let interval = match shape {
                Shape::Polygon(p) if p.radius() == 0.0 => clip_segment_to_polygon(p, xf, a, b),
                _ => convex_interval(shape, xf, a, b),
            };
            intervals.extend(interval);
        }
        intervals.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut share = 0.0f32;
        let mut cursor = 0.0f32;
        for (t0, t1) in intervals {
            if t0 > cursor {
                share += t0 - cursor;
            }
            cursor = cursor.max(t1);
        }
        share + (1.0 - cursor).max(0.0)
    };
    uncovered(tolerance) <= COVERED_SHARE && uncovered(-tolerance) > COVERED_SHARE
}

/// The flat run of outer faces on the line of face `a`–`b` of child `index` (outward unit
/// `normal`): the face extended over the other children's outer faces that continue it on the
/// same line, overlapping or meeting end to end; and whether that is longer than the face.
fn flat_run(
    outer: &[(usize, Vec2, Vec2, Vec2)],
    index: usize,
    a: Vec2,
    b: Vec2,
    normal: Vec2,
    tolerance: f32,
) -> ((Vec2, Vec2), bool) {
    let Some(direction) = crate::math::try_unit(b - a) else {
        return ((a, b), false);
    };
    let offset = normal.dot(a);
    let slack = 4.0 * tolerance;
    let mut spans: Vec<(f32, f32)> = outer
        .iter()
        .filter(|&&(j, start, end, n)| {
            j != index
                && cross(normal, n).abs() <= FLAT_SINE
                && normal.dot(n) > 0.0
                && (normal.dot(start) - offset).abs() <= slack
                && (normal.dot(end) - offset).abs() <= slack
        })
        .map(|&(_, start, end, _)| {
            let (s, e) = ((start - a).dot(direction), (end - a).dot(direction));
            (s.min(e), s.max(e))
        })
        .collect();
    spans.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (mut low, mut high) = (0.0f32, (b - a).dot(direction));
    let (face_low, face_high) = (low, high);
    // Grow the interval over the spans that reach it, until none does.
    loop {
        let mut grown = false;
        for &(s, e) in &spans {
            if s <= high + slack && e >= low - slack && (s < low || e > high) {
                low = low.min(s);
                high = high.max(e);
                grown = true;
            }
        }
        if !grown {
            break;
        }
    }
    let extended = low < face_low - slack || high > face_high + slack;
    if !extended {
        return ((a, b), false);
    }
    ((a + direction * low, a + direction * high), true)
}
