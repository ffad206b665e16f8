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
        let child_grid = BoxGrid::new(child_aabbs);
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
                    let face = (a, b, normals[i]);
                    face_covered(children, &child_grid, index, face, tolerance)
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
        let slack = 4.0 * tolerance;
        let outer_boxes: Vec<Aabb> = outer
            .iter()
            .map(|&(_, start, end, _)| {
                Aabb {
                    min: start.min(end),
                    max: start.max(end),
                }
                .expanded(slack)
            })
            .collect();
        let outer_grid = BoxGrid::new(&outer_boxes);
        let runs = flat_runs(&outer, &outer_boxes, &outer_grid, slack);
        let mut next_outer = 0;
        let near = |p: Vec2, q: Vec2| (p - q).length() <= slack;
        // The first outer face (in `outer`'s order) of another child ending (or starting) at
        // `v` whose normal `turns` accepts.
        let meeting = |index: usize, v: Vec2, at_end: bool, turns: &dyn Fn(Vec2) -> bool| {
            let probe = Aabb { min: v, max: v }.expanded(slack);
            outer_grid
                .overlapping(&probe)
                .into_iter()
                .map(|k| outer[k])
                .find(|&(j, start, end, n)| {
                    j != index && near(if at_end { end } else { start }, v) && turns(n)
                })
                .map(|(.., n)| n)
        };
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
                        let run = runs[next_outer];
                        next_outer += 1;
                        face_run(run, a, b, slack)
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
                        (true, false) => {
                            meeting(index, v, true, &strictly_between).map(|n| (n, next.normal))
                        }
                        (false, true) => meeting(index, v, false, &strictly_between)
                            .map(|n| (previous.normal, n)),
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
    child_grid: &BoxGrid,
    index: usize,
    (a, b, normal): (Vec2, Vec2, Vec2),
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
        for j in child_grid.overlapping(&bounds) {
            if j == index {
                continue;
            }
            let (xf, shape) = &children[j];
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

/// The flat run of every outer face (in `outer`'s order), as two points on its line: the
/// outer faces of the compound that continue one another on one line, overlapping or meeting
/// end to end within `slack`, taken together (a face that continues no other is its own run).
/// Each line's run is found once, by a walk over the faces that touch it.
fn flat_runs(
    outer: &[(usize, Vec2, Vec2, Vec2)],
    boxes: &[Aabb],
    grid: &BoxGrid,
    slack: f32,
) -> Vec<(Vec2, Vec2)> {
    const UNSET: usize = usize::MAX;
    let mut run_of = vec![UNSET; outer.len()];
    let mut runs: Vec<(Vec2, Vec2)> = Vec::new();
    let mut stack = Vec::new();
    for seed in 0..outer.len() {
        if run_of[seed] != UNSET {
            continue;
        }
        let (_, a, b, normal) = outer[seed];
        let direction = crate::math::try_unit(b - a).unwrap_or(Vec2::new(-normal.y, normal.x));
        let offset = normal.dot(a);
        let along = |p: Vec2| (p - a).dot(direction);
        let on_line = |(_, start, end, n): (usize, Vec2, Vec2, Vec2)| {
            cross(normal, n).abs() <= FLAT_SINE
                && normal.dot(n) > 0.0
                && (normal.dot(start) - offset).abs() <= slack
                && (normal.dot(end) - offset).abs() <= slack
        };
        let span = |k: usize| {
            let (s, e) = (along(outer[k].1), along(outer[k].2));
            (s.min(e), s.max(e))
        };
        let id = runs.len();
        let (mut low, mut high) = span(seed);
        run_of[seed] = id;
        stack.push(seed);
        while let Some(k) = stack.pop() {
            let (k_low, k_high) = span(k);
            for other in grid.overlapping(&boxes[k]) {
                if run_of[other] != UNSET || outer[other].0 == outer[k].0 || !on_line(outer[other])
                {
                    continue;
                }
                let (s, e) = span(other);
                if s <= k_high + slack && e >= k_low - slack {
                    run_of[other] = id;
                    low = low.min(s);
                    high = high.max(e);
                    stack.push(other);
                }
            }
        }
        runs.push((a + direction * low, a + direction * high));
    }
    run_of.into_iter().map(|id| runs[id]).collect()
}

/// The run `run` of the face `a`–`b` in the face's own direction, and whether it is longer
/// than the face by more than `slack`.
fn face_run(run: (Vec2, Vec2), a: Vec2, b: Vec2, slack: f32) -> ((Vec2, Vec2), bool) {
    let Some(direction) = crate::math::try_unit(b - a) else {
        return ((a, b), false);
    };
    let (s, e) = ((run.0 - a).dot(direction), (run.1 - a).dot(direction));
    let (low, high) = (s.min(e).min(0.0), s.max(e).max((b - a).dot(direction)));
    let extended = low < -slack || high > (b - a).dot(direction) + slack;
    if !extended {
        return ((a, b), false);
    }
    ((a + direction * low, a + direction * high), true)
}

/// A uniform grid over boxes, for finding the boxes a box overlaps without testing them all
/// (a compound of thousands of children is analysed once, in about linear time).
struct BoxGrid {
    /// The side of a cell.
    cell: f32,
    /// The boxes' indices by cell.
    cells: std::collections::HashMap<(i32, i32), Vec<usize>>,
    /// Boxes spanning more than [`BoxGrid::SPAN`] cells on an axis, tested by every query.
    big: Vec<usize>,
    /// Every box, for queries spanning too many cells.
    boxes: Vec<Aabb>,
}

impl BoxGrid {
    /// Most cells a box spans on an axis before it goes to the list every query tests.
    const SPAN: i64 = 8;

    /// A grid over `boxes`, its cell the median of their larger sides.
    fn new(boxes: &[Aabb]) -> BoxGrid {
        let mut sides: Vec<f32> = boxes
            .iter()
            .map(|b| (b.max - b.min).max_element())
            .filter(|s| s.is_finite() && *s > 0.0)
            .collect();
        let cell = if sides.is_empty() {
            1.0
        } else {
            let middle = sides.len() / 2;
            *sides.select_nth_unstable_by(middle, f32::total_cmp).1
        };
        let mut grid = BoxGrid {
            cell,
            cells: std::collections::HashMap::new(),
            big: Vec::new(),
            boxes: boxes.to_vec(),
        };
        for (index, aabb) in boxes.iter().enumerate() {
            let ((x0, y0), (x1, y1)) = grid.range(aabb);
            if i64::from(x1) - i64::from(x0) >= Self::SPAN
                || i64::from(y1) - i64::from(y0) >= Self::SPAN
            {
                grid.big.push(index);
                continue;
            }
            for x in x0..=x1 {
                for y in y0..=y1 {
                    grid.cells.entry((x, y)).or_default().push(index);
                }
            }
        }
        grid
    }

    /// The cells a box covers, first and last on each axis.
    fn range(&self, aabb: &Aabb) -> ((i32, i32), (i32, i32)) {
        // `as` saturates: boxes far out share the edge cells, which stays correct.
        let at = |v: f32| (v / self.cell).floor() as i32;
        (
            (at(aabb.min.x), at(aabb.min.y)),
            (at(aabb.max.x), at(aabb.max.y)),
        )
    }

    /// The indices of the boxes overlapping `aabb`, ascending, each once.
    fn overlapping(&self, aabb: &Aabb) -> Vec<usize> {
        let ((x0, y0), (x1, y1)) = self.range(aabb);
        // Saturating: a box across the whole range of cells spans 2^32 of them on each axis.
        let cells =
            (i64::from(x1) - i64::from(x0) + 1).saturating_mul(i64::from(y1) - i64::from(y0) + 1);
        let mut found: Vec<usize> = if cells > self.boxes.len() as i64 + 64 {
            (0..self.boxes.len()).collect()
        } else {
            let mut found = self.big.clone();
            for x in x0..=x1 {
                for y in y0..=y1 {
                    if let Some(list) = self.cells.get(&(x, y)) {
                        found.extend_from_slice(list);
                    }
                }
            }
            found
        };
        found.sort_unstable();
        found.dedup();
        found.retain(|&i| self.boxes[i].overlaps(aabb));
        found
    }
}
