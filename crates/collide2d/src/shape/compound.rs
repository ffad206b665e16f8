//! Compounds: several convex shapes moving as one.

use crate::math::{Transform, Vec2};
use crate::shape::compound_seams::Seams;
use crate::shape::error::ShapeError;
use crate::shape::{Aabb, PointProjection, Polygon, Shape};

/// Several convex child shapes, each placed in the compound's local frame by its own transform.
///
/// Contacts ([`collide`](crate::collide)) treat the compound as the union of its children: a
/// face of a sharp polygon child that other children cover (a seam between two children) is
/// found when the compound is built and is never a contact's normal (where the deepest child
/// pair would push along one, the contact is the exact smallest push out of the union), and a
/// face contact on outer child faces lying on one line spans them all.
/// [`collide_all`](crate::query::collide_all) gives every child pair as it is.
///
/// **Invariant:** at least one child; no child is itself a compound; child transforms are finite
/// with normalised rotations; `local_aabb` bounds every child.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "CompoundData", into = "CompoundData")
)]
pub struct Compound {
    /// Boxed so that a [`Shape`](crate::shape::Shape) stays small.
    parts: Box<CompoundParts>,
}

/// The fields of a [`Compound`], in one heap block.
#[derive(Clone, Debug, PartialEq)]
struct CompoundParts {
    children: Vec<(Transform, Shape)>,
    child_aabbs: Vec<Aabb>,
    local_aabb: Aabb,
    /// The covered child faces and flat runs; `None` when no child face is covered.
    seams: Option<Box<Seams>>,
}

/// The serialised form of a [`Compound`]: its children, re-validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct CompoundData {
    children: Vec<(Transform, Shape)>,
}

#[cfg(feature = "serde")]
impl TryFrom<CompoundData> for Compound {
    type Error = ShapeError;
    fn try_from(data: CompoundData) -> Result<Self, ShapeError> {
        Compound::new(data.children)
    }
}

#[cfg(feature = "serde")]
impl From<Compound> for CompoundData {
    fn from(compound: Compound) -> Self {
        CompoundData {
            children: compound.parts.children,
        }
    }
}

impl Compound {
    /// A compound from convex children placed by transforms in the compound's frame.
    pub fn new(children: Vec<(Transform, Shape)>) -> Result<Compound, ShapeError> {
        if children.is_empty() {
            return Err(ShapeError::EmptyCompound);
        }
        let mut checked = Vec::with_capacity(children.len());
        for (xf, shape) in children {
            if matches!(shape, Shape::Compound(_) | Shape::Chain(_)) {
                return Err(ShapeError::NestedCompound);
            }
            if !xf.is_finite() {
                return Err(ShapeError::NonFinite);
            }
            crate::shape::error::check_point(xf.p)?;
            // A rotation already of unit length to rounding (any a `Transform` makes, and any
            // this makes) is kept as it is, so that building a compound from another's
            // children (a snapshot read back) gives the same compound: normalising again may
            // move a rotation to its neighbouring floats and back, and a restored world would
            // then find its contacts changed.
            let unit = (xf.q.c * xf.q.c + xf.q.s * xf.q.s - 1.0).abs() <= 4.0 * f32::EPSILON;
            let q = if unit {
                xf.q
            } else {
                crate::math::Rot::try_from_cos_sin(xf.q.c, xf.q.s).ok_or(ShapeError::NonFinite)?
            };
            checked.push((Transform { p: xf.p, q }, shape));
        }
        let child_aabbs: Vec<Aabb> = checked.iter().map(|(xf, s)| s.aabb(xf)).collect();
        let local_aabb = child_aabbs[1..]
            .iter()
            .fold(child_aabbs[0], |acc, b| acc.union(b));
        let seams = Seams::find(&checked, &child_aabbs, seam_tolerance(&local_aabb));
        Ok(Compound {
            parts: Box::new(CompoundParts {
                children: checked,
                child_aabbs,
                local_aabb,
                seams,
            }),
        })
    }

    /// Splits a simple (non-self-intersecting) outline, in either winding, into convex polygons.
    ///
    /// The pieces come from ear clipping followed by Hertel–Mehlhorn merging: at most four times
    /// the optimal number of convex pieces, none with more than
    /// [`MAX_POLYGON_VERTICES`](crate::shape::MAX_POLYGON_VERTICES) vertices. The result is
    /// deterministic.
    ///
    /// ```
    /// use collide2d::{shape::Compound, Vec2};
    /// // An L-shaped outline.
    /// let outline = [
    ///     Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(2.0, 1.0),
    ///     Vec2::new(1.0, 1.0), Vec2::new(1.0, 2.0), Vec2::new(0.0, 2.0),
    /// ];
    /// let l_shape = Compound::from_concave(&outline)?;
    /// assert_eq!(l_shape.children().len(), 2);
    /// assert!((l_shape.area() - 3.0).abs() < 1e-5);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn from_concave(outline: &[Vec2]) -> Result<Compound, ShapeError> {
        let pieces = crate::shape::decompose::decompose_simple_polygon(outline)?;
        // The pieces are strictly convex and counter-clockwise by exact tests: built as they are,
        // not through `Polygon::new`, whose welding (relative to each piece's own size) would
        // call a thin spike's piece collinear and reject an outline the split accepted.
        let children = pieces
            .into_iter()
            .map(|piece| {
                Ok((
                    Transform::IDENTITY,
                    Shape::Polygon(Polygon::from_ccw(piece, 0.0)?),
                ))
            })
            .collect::<Result<Vec<_>, ShapeError>>()?;
        Compound::new(children)
    }

    /// The children and their placements in the compound's frame.
    #[inline]
    pub fn children(&self) -> &[(Transform, Shape)] {
        &self.parts.children
    }

    /// Each child's bounding box in the compound's frame (same order as [`children`](Self::children)).
    #[inline]
    pub fn child_aabbs(&self) -> &[Aabb] {
        &self.parts.child_aabbs
    }

    /// The bounding box of all children in the compound's frame.
    #[inline]
    pub fn local_aabb(&self) -> Aabb {
        self.parts.local_aabb
    }

    /// The child faces inside the compound (covered by other children) and the flat runs of
    /// its outer faces; `None` when no child face is covered.
    #[inline]
    pub(crate) fn seams(&self) -> Option<&Seams> {
        self.parts.seams.as_deref()
    }

    /// The world-space bounding box.
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        let mut iter = self
            .parts
            .children
            .iter()
            .map(|(child_xf, s)| s.aabb(&xf.mul(child_xf)));
        let first = iter.next().expect("a compound has at least one child");
        iter.fold(first, |acc, b| acc.union(&b))
    }

    /// Whether the world point is inside or on any child.
    pub fn contains(&self, xf: &Transform, point: Vec2) -> bool {
        let local = xf.apply_inv(point);
        self.parts
            .children
            .iter()
            .zip(&self.parts.child_aabbs)
            .any(|((child_xf, s), aabb)| aabb.contains_point(local) && s.contains(child_xf, local))
    }

    /// The closest point on the compound's outer boundary to a world point.
    ///
    /// Outside, this is the nearest child surface point (exact). Inside, seams and overlaps
    /// between children are not boundary: the result is the nearest point of the union's outer
    /// boundary. That is exact when the outer boundary nearest the point belongs to sharp polygon
    /// children (as for [`Compound::from_concave`]). On a rounded child (circle, capsule,
    /// rounded polygon) whose own nearest point is covered by another child, each side and arc
    /// is searched for where the covering begins and ends (32 samples each, then bisection), so
    /// a covered stretch narrower than a thirty-second of a side or arc may be missed and a
    /// farther boundary point given; the point given always lies on the union's boundary.
    pub fn project_point(&self, xf: &Transform, point: Vec2) -> PointProjection {
        let local = xf.apply_inv(point);
        let projections: Vec<PointProjection> = self
            .parts
            .children
            .iter()
            .map(|(child_xf, s)| s.project_point(child_xf, local))
            .collect();
        let inside = projections.iter().any(|p| p.inside);
        let best = if inside {
            self.nearest_uncovered_boundary(local, &projections)
        } else {
            *projections
                .iter()
                .min_by(|a, b| a.distance.total_cmp(&b.distance))
                .expect("a compound has at least one child")
        };
        PointProjection {
            point: xf.apply(best.point),
            inside,
            distance: best.distance,
        }
    }

    /// For a point inside the union: the nearest point on the union's boundary.
    ///
    /// Candidates are each child's own projection plus, for sharp polygon children, the nearest
    /// point of every edge portion not covered by another child.
    fn nearest_uncovered_boundary(
        &self,
        local: Vec2,
        projections: &[PointProjection],
    ) -> PointProjection {
        let mut best: Option<PointProjection> = None;
        let mut consider = |candidate: Vec2| {
            let distance = candidate.distance(local);
            if best.is_none_or(|b| distance < b.distance) {
                best = Some(PointProjection {
                    point: candidate,
                    inside: true,
                    distance,
                });
            }
        };
        for (index, ((child_xf, shape), projection)) in
            self.parts.children.iter().zip(projections).enumerate()
        {
            match shape {
                Shape::Polygon(polygon) if polygon.radius() == 0.0 => {
                    let n = polygon.vertices().len();
                    for i in 0..n {
                        let a = child_xf.apply(polygon.vertices()[i]);
                        let b = child_xf.apply(polygon.vertices()[(i + 1) % n]);
                        let outward = child_xf.rotate(polygon.normals()[i]);
                        for (start, end) in self.uncovered_parts(index, a, b, outward) {
                            consider(super::closest_point_on_segment(start, end, local));
                        }
                    }
                }
                _ => {
                    let outward = crate::math::unit_or(projection.point - local, Vec2::ZERO);
                    let nudged =
                        projection.point + outward * seam_tolerance(&self.parts.local_aabb);
                    if !self.covered_by_other(index, nudged) {
                        consider(projection.point);
                    } else {
                        // The child's own nearest point is covered: the nearest uncovered
                        // point of its boundary lies on one of its sides or arcs, at that
                        // piece's nearest point or where the piece's covering begins or ends.
                        for piece in rounded_pieces(shape, child_xf) {
                            self.uncovered_points_of(index, &piece, local, &mut consider);
                        }
                    }
                }
            }
        }
        best.unwrap_or_else(|| {
            *projections
                .iter()
                .min_by(|a, b| a.distance.total_cmp(&b.distance))
                .expect("a compound has at least one child")
        })
    }

    /// The uncovered points of one boundary piece of child `index` that can be nearest to
    /// `local` among the piece's uncovered points: its own nearest point, its ends, and where
    /// another child's cover begins or ends along it (found among 32 samples, to about 1e-7 of
    /// the piece). A cover narrower than a sample step may be passed over, which can only leave
    /// out a candidate (a farther answer), never offer a covered point: each is tested.
    fn uncovered_points_of(
        &self,
        index: usize,
        piece: &Piece,
        local: Vec2,
        consider: &mut impl FnMut(Vec2),
    ) {
        const SAMPLES: usize = 32;
        let seam = seam_tolerance(&self.parts.local_aabb);
        let uncovered = |s: f32| {
            let (point, outward) = piece.at(s);
            (!self.covered_by_other(index, point + outward * seam)).then_some(point)
        };
        if let Some(s) = piece.nearest(local) {
            if let Some(point) = uncovered(s) {
                consider(point);
            }
        }
        let mut previous = uncovered(0.0);
        if let Some(point) = previous {
            consider(point);
        }
        for k in 1..=SAMPLES {
            let s = k as f32 / SAMPLES as f32;
            let here = uncovered(s);
            if previous.is_some() != here.is_some() {
                // Bisect to where the cover begins or ends; keep the uncovered side.
                let (mut low, mut high) = ((k - 1) as f32 / SAMPLES as f32, s);
                let low_uncovered = previous.is_some();
                for _ in 0..24 {
                    let middle = 0.5 * (low + high);
                    if uncovered(middle).is_some() == low_uncovered {
                        low = middle;
                    } else {
                        high = middle;
                    }
                }
                if let Some(point) = uncovered(if low_uncovered { low } else { high }) {
                    consider(point);
                }
            }
            if k == SAMPLES {
                if let Some(point) = here {
                    consider(point);
                }
            }
            previous = here;
        }
    }

    /// Whether the point `point` of child `index`'s surface is inside the union: moved out along
    /// the unit `outward` by the seam tolerance, it lies inside another child.
    pub(crate) fn inside_union(&self, index: usize, point: Vec2, outward: Vec2) -> bool {
        let nudged = point + outward * seam_tolerance(&self.parts.local_aabb);
        self.parts
            .children
            .iter()
            .zip(&self.parts.child_aabbs)
            .enumerate()
            .any(|(j, ((xf, s), aabb))| {
                j != index && aabb.contains_point(nudged) && s.contains(xf, nudged)
            })
    }

    /// Whether a point lies inside a child other than `index`.
    fn covered_by_other(&self, index: usize, point: Vec2) -> bool {
        self.parts
            .children
            .iter()
            .enumerate()
            .any(|(j, (xf, s))| j != index && s.contains(xf, point))
    }

    /// The parts of segment `a`–`b` (an edge of child `index` with unit `outward` normal) that
    /// are outer boundary: the region just outside them is not covered by another child.
    ///
    /// Testing the edge nudged outward treats both overlaps and shared seams as interior.
    fn uncovered_parts(&self, index: usize, a: Vec2, b: Vec2, outward: Vec2) -> Vec<(Vec2, Vec2)> {
        // Parameter intervals [t0, t1] of the segment covered by other children.
        let mut covered: Vec<(f32, f32)> = Vec::new();
        let nudge = outward * seam_tolerance(&self.parts.local_aabb);
        let (nudged_a, nudged_b) = (a + nudge, b + nudge);
        for (j, (xf, s)) in self.parts.children.iter().enumerate() {
            if j == index {
                continue;
            }
            let interval = match s {
                Shape::Polygon(p) if p.radius() == 0.0 => {
                    clip_segment_to_polygon(p, xf, nudged_a, nudged_b)
                }
                _ => convex_interval(s, xf, nudged_a, nudged_b),
            };
            covered.extend(interval);
        }
        covered.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut parts = Vec::new();
        let mut cursor = 0.0f32;
        for (t0, t1) in covered {
            if t0 > cursor {
                parts.push((a.lerp(b, cursor), a.lerp(b, t0)));
            }
            cursor = cursor.max(t1);
        }
        if cursor < 1.0 {
            parts.push((a.lerp(b, cursor), b));
        }
        parts
    }

    /// The total area of the children (overlapping children count their overlap twice).
    pub fn area(&self) -> f32 {
        self.parts.children.iter().map(|(_, s)| s.area()).sum()
    }

    /// The area-weighted centroid of the children, in the compound's frame.
    pub fn centroid(&self) -> Vec2 {
        // f64 moments: centroid × area can exceed f32 for large shapes.
        let mut moment = glam::DVec2::ZERO;
        let mut total = 0.0f64;
        for (xf, s) in &self.parts.children {
            let area = s.area() as f64;
            moment += xf.apply(s.centroid()).as_dvec2() * area;
            total += area;
        }
        if total > 0.0 {
            (moment / total).as_vec2()
        } else {
            self.parts.local_aabb.center()
        }
    }

    /// The compound with every child scaled about the compound's origin.
    pub(crate) fn scaled(&self, scale: Vec2) -> Result<Compound, ShapeError> {
        let uniform = scale.x.abs() == scale.y.abs();
        let children = self
            .parts
            .children
            .iter()
            .map(|(xf, s)| {
                if uniform && scale.x == scale.y {
                    // Uniform positive scale keeps the child's rotation.
                    Ok((
                        Transform {
                            p: xf.p * scale,
                            q: xf.q,
                        },
                        s.scaled(scale)?,
                    ))
                } else {
                    // Otherwise bake the child's placement into the geometry, then scale.
                    Ok((Transform::IDENTITY, s.transformed(xf)?.scaled(scale)?))
                }
            })
            .collect::<Result<Vec<_>, ShapeError>>()?;
        Compound::new(children)
    }
}

/// One piece of a rounded child's boundary, in the compound's frame: a flat side (the core's
/// edge moved out by the radius) or the arc about a core vertex between its edges' normals.
enum Piece {
    /// From `start` to `end`, with the outward unit `normal`.
    Side {
        start: Vec2,
        end: Vec2,
        normal: Vec2,
    },
    /// About `center`, counter-clockwise from angle `from` through `sweep` radians.
    Arc {
        center: Vec2,
        radius: f32,
        from: f32,
        sweep: f32,
    },
}

impl Piece {
    /// The point at parameter `s ∈ [0, 1]` along the piece, and the outward normal there.
    fn at(&self, s: f32) -> (Vec2, Vec2) {
        match *self {
            Piece::Side { start, end, normal } => (start.lerp(end, s), normal),
            Piece::Arc {
                center,
                radius,
                from,
                sweep,
            } => {
                let angle = from + s * sweep;
                let outward = Vec2::new(angle.cos(), angle.sin());
                (center + outward * radius, outward)
            }
        }
    }

    /// The parameter of the piece's point nearest to `p`, when that is not one of its ends.
    fn nearest(&self, p: Vec2) -> Option<f32> {
        match *self {
            Piece::Side { start, end, .. } => {
                let edge = end - start;
                let length_squared = edge.length_squared();
                (length_squared > 0.0)
                    .then(|| ((p - start).dot(edge) / length_squared).clamp(0.0, 1.0))
            }
            Piece::Arc {
                center,
                from,
                sweep,
                ..
            } => {
                let offset = p - center;
                if offset == Vec2::ZERO || sweep <= 0.0 {
                    return None;
                }
                let turn = (offset.y.atan2(offset.x) - from).rem_euclid(std::f32::consts::TAU);
                (turn <= sweep).then(|| turn / sweep)
            }
        }
    }
}

/// The sides and arcs of a rounded convex child (circle, capsule, rounded polygon) placed by
/// `xf`; empty for other shapes.
fn rounded_pieces(shape: &Shape, xf: &Transform) -> Vec<Piece> {
    let (vertices, normals, radius): (Vec<Vec2>, Vec<Vec2>, f32) = match shape {
        Shape::Circle(circle) => {
            return vec![Piece::Arc {
                center: xf.apply(circle.center()),
                radius: circle.radius(),
                from: 0.0,
                sweep: std::f32::consts::TAU,
            }]
        }
        Shape::Capsule(capsule) => {
            let Some(axis) = crate::math::try_unit(capsule.b() - capsule.a()) else {
                return rounded_pieces(
                    &Shape::Circle(match super::Circle::new(capsule.a(), capsule.radius()) {
                        Ok(circle) => circle,
                        Err(_) => return Vec::new(),
                    }),
                    xf,
                );
            };
            let side = crate::math::left_perp(axis);
            (
                vec![capsule.a(), capsule.b()],
                vec![-side, side],
                capsule.radius(),
            )
        }
        Shape::Polygon(polygon) => (
            polygon.vertices().to_vec(),
            polygon.normals().to_vec(),
            polygon.radius(),
        ),
        _ => return Vec::new(),
    };
    let count = vertices.len();
    let mut pieces = Vec::with_capacity(2 * count);
    for i in 0..count {
        let normal = xf.rotate(normals[i]);
        let (start, end) = (xf.apply(vertices[i]), xf.apply(vertices[(i + 1) % count]));
        pieces.push(Piece::Side {
            start: start + normal * radius,
            end: end + normal * radius,
            normal,
        });
        // The arc about the edge's end vertex, from this edge's normal to the next edge's.
        let next = xf.rotate(normals[(i + 1) % count]);
        let from = normal.y.atan2(normal.x);
        let sweep = (next.y.atan2(next.x) - from).rem_euclid(std::f32::consts::TAU);
        pieces.push(Piece::Arc {
            center: end,
            radius,
            from,
            sweep,
        });
    }
    pieces
}

/// Distance under which a point counts as on a seam rather than strictly inside a neighbour.
fn seam_tolerance(aabb: &Aabb) -> f32 {
    1.0e-6 * aabb.extents().length()
}

/// The parameter interval of segment `a`–`b` inside any convex shape placed by `xf`.
///
/// The signed distance to a convex shape is convex along a line, so a ternary search finds its
/// minimum and bisection finds where it crosses zero on either side (to about 1e-7 of the
/// segment's length).
pub(super) fn convex_interval(
    shape: &Shape,
    xf: &Transform,
    a: Vec2,
    b: Vec2,
) -> Option<(f32, f32)> {
    let signed = |t: f32| {
        let p = shape.project_point(xf, a.lerp(b, t));
        if p.inside {
            -p.distance
        } else {
            p.distance
        }
    };
    let (mut low, mut high) = (0.0f32, 1.0f32);
    for _ in 0..48 {
        let m1 = low + (high - low) / 3.0;
        let m2 = high - (high - low) / 3.0;
        if signed(m1) <= signed(m2) {
            high = m2;
        } else {
            low = m1;
        }
    }
    let deepest = 0.5 * (low + high);
    if signed(deepest) > 0.0 {
        return None;
    }
    let crossing = |mut inside: f32, mut outside: f32| {
        if signed(outside) <= 0.0 {
            return outside;
        }
        for _ in 0..32 {
            let mid = 0.5 * (inside + outside);
            if signed(mid) <= 0.0 {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        inside
    };
    Some((crossing(deepest, 0.0), crossing(deepest, 1.0)))
}

/// The parameter interval of segment `a`–`b` inside a sharp convex polygon placed by `xf`
/// (Cyrus–Beck clipping); `None` when the segment misses it.
pub(super) fn clip_segment_to_polygon(
    polygon: &Polygon,
    xf: &Transform,
    a: Vec2,
    b: Vec2,
) -> Option<(f32, f32)> {
    let local_a = xf.apply_inv(a);
    let direction = xf.rotate_inv(b - a);
    let mut t0 = 0.0f32;
    let mut t1 = 1.0f32;
    for (v, n) in polygon.vertices().iter().zip(polygon.normals()) {
        // Inside the half-plane: n · (p − v) <= 0.
        let numerator = -n.dot(local_a - *v);
        let denominator = n.dot(direction);
        if denominator == 0.0 {
            if numerator < 0.0 {
                return None;
            }
        } else {
            let t = numerator / denominator;
            if denominator > 0.0 {
                t1 = t1.min(t);
            } else {
                t0 = t0.max(t);
            }
            if t0 >= t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}
