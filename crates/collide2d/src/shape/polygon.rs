//! Convex polygons, optionally rounded.

use crate::math::{right_perp, Transform, Vec2};
use crate::shape::error::{check_point, check_radius, check_size, ShapeError};
use crate::shape::hull::{convex_hull, turns_left, weld_distance};
use crate::shape::{
    closest_point_on_segment, Aabb, PaddedOutline, PointProjection, MAX_POLYGON_VERTICES,
};

/// A convex polygon in local space, optionally inflated by a rounding `radius`.
///
/// **Invariant:** 3 to [`MAX_POLYGON_VERTICES`] vertices in counter-clockwise order, strictly
/// convex (no collinear vertices), every edge longer than zero, unit outward `normals[i]` for the
/// edge from vertex `i` to vertex `i + 1`, finite `radius >= 0`. Constructors enforce it; the
/// fields are private so it cannot be broken afterwards.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "PolygonData", into = "PolygonData")
)]
pub struct Polygon {
    /// Boxed so that a [`Shape`](crate::shape::Shape) stays small: a world keeps one beside
    /// each collider's placement, and a pair test then reads one cache line per collider plus,
    /// for a polygon, this one block.
    outline: Box<Outline>,
}

/// Everything a polygon stores, in one heap block, aligned so that the padded lanes (the
/// separating-axis kernel's input) are exactly its first two cache lines.
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
struct Outline {
    /// The same vertices and normals in padded lanes (derived data, built once here so the
    /// separating-axis kernel never gathers them per query). Meaningful only for at most 8
    /// vertices; larger polygons hold their first vertex here and never read it.
    padded: PaddedOutline<2>,
    points: Points,
    /// `Some(half extents)` when the outline is exactly the centred axis-aligned box
    /// [`Polygon::rect`] builds (vertices counter-clockwise from the lower left, exact axis
    /// normals): derived data that lets box pairs take a shorter path with identical results.
    box_half_extents: Option<Vec2>,
    centroid: Vec2,
    radius: f32,
    /// The number of vertices.
    count: u32,
}

/// Where the vertices and normals are.
#[derive(Clone, Debug, PartialEq)]
enum Points {
    /// Up to [`INLINE_VERTICES`] vertices from index 0 and their normals from index
    /// `INLINE_VERTICES`, unused places zero.
    Inline([Vec2; 2 * INLINE_VERTICES]),
    /// The vertices, then the normals.
    Heap(Vec<Vec2>),
}

/// Polygons with up to this many vertices keep their outline inside the polygon's block and in
/// the padded lanes (which hold exactly this many).
const INLINE_VERTICES: usize = 8;
const _: () = assert!(
    INLINE_VERTICES == 4 * 2,
    "PaddedOutline<2> holds 8 vertices"
);

/// The serialised form of a [`Polygon`]: its vertices and radius, re-validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct PolygonData {
    vertices: Vec<Vec2>,
    #[serde(default)]
    radius: f32,
}

#[cfg(feature = "serde")]
impl TryFrom<PolygonData> for Polygon {
    type Error = ShapeError;
    /// The polygon that was saved, vertex for vertex, when the data is a strictly convex
    /// counter-clockwise outline (as every saved polygon is); anything else goes through
    /// [`Polygon::new`]. `Polygon::new` alone refused polygons the other constructors make: a
    /// `rect(1.0, 1e-6)` has edges shorter than its weld distance, so its snapshot did not
    /// restore.
    fn try_from(data: PolygonData) -> Result<Self, ShapeError> {
        let polygon = match Polygon::from_saved(&data.vertices)? {
            Some(polygon) => polygon,
            None => Polygon::new(&data.vertices)?,
        };
        polygon.with_radius(data.radius)
    }
}

#[cfg(feature = "serde")]
impl Polygon {
    /// `vertices` as they are, when they are finite, in range, 3 to
    /// [`MAX_POLYGON_VERTICES`], turning strictly left at every vertex and winding once: the
    /// form of every polygon's vertices. `None` when they are not.
    fn from_saved(vertices: &[Vec2]) -> Result<Option<Polygon>, ShapeError> {
        let n = vertices.len();
        if !(3..=MAX_POLYGON_VERTICES).contains(&n) {
            return Ok(None);
        }
        for p in vertices {
            check_point(*p)?;
        }
        let turn = |i: usize| {
            (
                vertices[(i + n - 1) % n],
                vertices[i],
                vertices[(i + 1) % n],
            )
        };
        if !(0..n).all(|i| {
            let (prev, here, next) = turn(i);
            turns_left(prev, here, next, 0.0)
        }) {
            return Ok(None);
        }
        let turning: f64 = (0..n)
            .map(|i| {
                let (prev, here, next) = turn(i);
                let (d0, d1) = ((here - prev).as_dvec2(), (next - here).as_dvec2());
                (d0.x * d1.y - d0.y * d1.x).atan2(d0.dot(d1))
            })
            .sum();
        if turning > 3.0 * std::f64::consts::PI {
            return Ok(None);
        }
        Polygon::from_ccw(vertices.to_vec(), 0.0).map(Some)
    }
}

#[cfg(feature = "serde")]
impl From<Polygon> for PolygonData {
    fn from(polygon: Polygon) -> Self {
        PolygonData {
            vertices: polygon.vertices().to_vec(),
            radius: polygon.radius(),
        }
    }
}

impl Polygon {
    /// The convex hull of a point cloud, in any order and winding.
    ///
    /// Points closer together than [`WELD_TOLERANCE`](crate::shape::WELD_TOLERANCE) × the cloud's
    /// bounding diagonal are welded; collinear points are dropped.
    ///
    /// ```
    /// use collide2d::{shape::Polygon, Vec2};
    /// let points = [Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.5), Vec2::new(1.0, 2.0)];
    /// let triangle = Polygon::hull(&points)?;
    /// assert_eq!(triangle.vertices().len(), 3);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn hull(points: &[Vec2]) -> Result<Polygon, ShapeError> {
        Polygon::from_ccw(convex_hull(points)?, 0.0)
    }

    /// A polygon from an outline that is already convex, in either winding.
    ///
    /// Near-duplicate consecutive points are welded and collinear vertices dropped, as in
    /// [`Polygon::hull`]; an outline that turns the wrong way somewhere, or winds around more
    /// than once, is [`ShapeError::NotConvex`].
    pub fn new(outline: &[Vec2]) -> Result<Polygon, ShapeError> {
        for p in outline {
            check_point(*p)?;
        }
        let tolerance = weld_distance(outline);

        // Weld consecutive near-duplicates, including the closing point, keeping original indices.
        let mut welded: Vec<(usize, Vec2)> = Vec::with_capacity(outline.len());
        for (index, &p) in outline.iter().enumerate() {
            if welded
                .last()
                .is_none_or(|&(_, q)| (p - q).as_dvec2().length() > tolerance)
            {
                welded.push((index, p));
            }
        }
        while welded.len() > 1 {
            let first = welded[0].1;
            let last = welded[welded.len() - 1].1;
            if (first - last).as_dvec2().length() <= tolerance {
                welded.pop();
            } else {
                break;
            }
        }
        if welded.len() < 3 {
            return Err(ShapeError::TooFewPoints {
                distinct: welded.len(),
            });
        }

        // Orient counter-clockwise by the sign of the area.
        let twice_area: f64 = (0..welded.len())
            .map(|i| {
                let a = welded[i].1.as_dvec2();
                let b = welded[(i + 1) % welded.len()].1.as_dvec2();
                a.x * b.y - a.y * b.x
            })
            .sum();
        if twice_area < 0.0 {
            welded.reverse();
        }

        // Drop collinear vertices, then require a strict left turn everywhere.
        let mut kept = welded;
        loop {
            let n = kept.len();
            if n < 3 {
                return Err(ShapeError::Collinear);
            }
            let collinear = (0..n).find(|&i| {
                let prev = kept[(i + n - 1) % n].1;
                let next = kept[(i + 1) % n].1;
                let here = kept[i].1;
                (-crate::shape::hull::orient(prev, next, here)).abs()
                    <= tolerance * (next - prev).as_dvec2().length()
                    && (here - prev).dot(next - here) >= 0.0
            });
            match collinear {
                Some(i) => {
                    kept.remove(i);
                }
                None => break,
            }
        }
        let n = kept.len();
        for i in 0..n {
            let prev = kept[(i + n - 1) % n].1;
            let next = kept[(i + 1) % n].1;
            if !turns_left(prev, kept[i].1, next, 0.0) {
                return Err(ShapeError::NotConvex { vertex: kept[i].0 });
            }
        }
        // All turns are left; the outline is simple only if it winds around exactly once.
        let mut turning = 0.0f64;
        for i in 0..n {
            let d0 = (kept[i].1 - kept[(i + n - 1) % n].1).as_dvec2();
            let d1 = (kept[(i + 1) % n].1 - kept[i].1).as_dvec2();
            turning += (d0.x * d1.y - d0.y * d1.x).atan2(d0.dot(d1));
        }
        if turning > 3.0 * std::f64::consts::PI {
            return Err(ShapeError::NotConvex { vertex: kept[0].0 });
        }
        if n > MAX_POLYGON_VERTICES {
            return Err(ShapeError::TooManyVertices { count: n });
        }
        Polygon::from_ccw(kept.into_iter().map(|(_, p)| p).collect(), 0.0)
    }

    /// A `width × height` rectangle centred on the local origin.
    pub fn rect(width: f32, height: f32) -> Result<Polygon, ShapeError> {
        let half = Vec2::new(check_size(width)?, check_size(height)?) * 0.5;
        Polygon::from_ccw(box_corners(half).to_vec(), 0.0)
    }

    /// A box with the given half extents, centred at `center` and rotated by `angle` radians,
    /// all in local space.
    pub fn box_at(center: Vec2, half_extents: Vec2, angle: f32) -> Result<Polygon, ShapeError> {
        check_point(center)?;
        check_size(half_extents.x)?;
        check_size(half_extents.y)?;
        if !angle.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        let xf = Transform::new(center, angle);
        let corners = box_corners(half_extents).map(|c| xf.apply(c));
        // Rotation rounding can only move corners by an ulp; the box stays convex.
        Polygon::new(&corners)
    }

    /// A rectangle of outer size `width × height` whose corners are rounded with `radius`.
    ///
    /// The core rectangle is `(width − 2r) × (height − 2r)`; both must stay positive.
    pub fn rounded_rect(width: f32, height: f32, radius: f32) -> Result<Polygon, ShapeError> {
        check_size(width)?;
        check_size(height)?;
        check_radius(radius)?;
        Polygon::rect(width - 2.0 * radius, height - 2.0 * radius)?.with_radius(radius)
    }

    /// A regular polygon with `sides` vertices (3 to 64) on a circle of `circumradius`,
    /// the first vertex on the +x axis.
    pub fn regular(sides: usize, circumradius: f32) -> Result<Polygon, ShapeError> {
        check_size(circumradius)?;
        if sides < 3 {
            return Err(ShapeError::TooFewPoints { distinct: sides });
        }
        if sides > MAX_POLYGON_VERTICES {
            return Err(ShapeError::TooManyVertices { count: sides });
        }
        let vertices: Vec<Vec2> = (0..sides)
            .map(|i| {
                let angle = i as f32 / sides as f32 * std::f32::consts::TAU;
                Vec2::new(angle.cos(), angle.sin()) * circumradius
            })
            .collect();
        Polygon::new(&vertices)
    }

    /// The same polygon with rounding radius `radius >= 0` (replacing any previous radius).
    pub fn with_radius(mut self, radius: f32) -> Result<Polygon, ShapeError> {
        self.outline.radius = check_radius(radius)?;
        Ok(self)
    }

    /// Builds from vertices already known to be strictly convex and counter-clockwise.
    ///
    /// Fails with [`ShapeError::TooSmall`] when an edge is shorter than
    /// [`MIN_EDGE_LENGTH`](crate::shape::MIN_EDGE_LENGTH).
    pub(crate) fn from_ccw(vertices: Vec<Vec2>, radius: f32) -> Result<Polygon, ShapeError> {
        let n = vertices.len();
        debug_assert!((3..=MAX_POLYGON_VERTICES).contains(&n));
        let normals = (0..n)
            .map(|i| {
                let edge = vertices[(i + 1) % n] - vertices[i];
                if edge.length() < crate::shape::MIN_EDGE_LENGTH {
                    return Err(ShapeError::TooSmall);
                }
                unit_normal(right_perp(edge)).ok_or(ShapeError::TooSmall)
            })
            .collect::<Result<Vec<Vec2>, ShapeError>>()?;
        let centroid = polygon_centroid(&vertices);
        if !centroid.is_finite() {
            return Err(ShapeError::TooSmall);
        }
        let padded_count = if n <= INLINE_VERTICES { n } else { 1 };
        let padded = PaddedOutline::<2>::new(&vertices[..padded_count], &normals[..padded_count]);
        let box_half_extents = centred_box_half_extents(&vertices, &normals);
        let points = if n <= INLINE_VERTICES {
            let mut inline = [Vec2::ZERO; 2 * INLINE_VERTICES];
            inline[..n].copy_from_slice(&vertices);
            inline[INLINE_VERTICES..INLINE_VERTICES + n].copy_from_slice(&normals);
            Points::Inline(inline)
        } else {
            let mut both = vertices;
            both.extend_from_slice(&normals);
            Points::Heap(both)
        };
        Ok(Polygon {
            outline: Box::new(Outline {
                padded,
                box_half_extents,
                centroid,
                radius,
                count: n as u32,
                points,
            }),
        })
    }

    /// The vertices in counter-clockwise order (local space).
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        let n = self.outline.count as usize;
        match &self.outline.points {
            Points::Inline(points) => &points[..n],
            Points::Heap(points) => &points[..n],
        }
    }

    /// The unit outward normal of each edge; `normals()[i]` belongs to the edge from vertex `i`
    /// to vertex `i + 1`.
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        let n = self.outline.count as usize;
        match &self.outline.points {
            Points::Inline(points) => &points[INLINE_VERTICES..INLINE_VERTICES + n],
            Points::Heap(points) => &points[n..2 * n],
        }
    }

    /// The outline in padded lanes for the separating-axis kernel (`None` above 8 vertices).
    #[inline]
    pub(crate) fn padded_outline(&self) -> Option<&PaddedOutline<2>> {
        (self.outline.count as usize <= INLINE_VERTICES).then_some(&self.outline.padded)
    }

    /// The half extents when this is a centred axis-aligned box numbered as [`Polygon::rect`]
    /// numbers it (whatever its radius), `None` otherwise.
    #[inline]
    pub(crate) fn box_half_extents(&self) -> Option<Vec2> {
        self.outline.box_half_extents
    }

    /// The rounding radius (0 for a sharp polygon).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.outline.radius
    }

    /// The world-space bounding box, rounding included.
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        if let Some(half) = self.outline.box_half_extents {
            // A centred box in closed form, without reading its corners: the extreme corner's
            // coordinate is the turned half extent plus `p`, the very sum the corner loop below
            // computes for it.
            let extent = xf.q.turned_half_extents(half);
            let r = Vec2::splat(self.outline.radius);
            return Aabb {
                min: (-extent + xf.p) - r,
                max: (extent + xf.p) + r,
            };
        }
        let vertices = self.vertices();
        let mut min = xf.apply(vertices[0]);
        let mut max = min;
        for v in &vertices[1..] {
            let w = xf.apply(*v);
            min = min.min(w);
            max = max.max(w);
        }
        let r = Vec2::splat(self.outline.radius);
        Aabb {
            min: min - r,
            max: max + r,
        }
    }

    /// Whether the world point is inside or on the (rounded) polygon.
    pub fn contains(&self, xf: &Transform, point: Vec2) -> bool {
        let local = xf.apply_inv(point);
        let (separation, _) = self.max_separation(local);
        if separation <= 0.0 {
            return true;
        }
        if separation > self.outline.radius {
            return false;
        }
        let closest = self.closest_core_boundary_point(local);
        super::within_radius(local - closest, self.outline.radius)
    }

    /// The closest point on the (rounded) polygon's boundary to a world point.
    pub fn project_point(&self, xf: &Transform, point: Vec2) -> PointProjection {
        let local = xf.apply_inv(point);
        let (separation, edge) = self.max_separation(local);
        if separation <= 0.0 {
            // Inside the core: the nearest boundary is straight out through the nearest edge.
            let normal = self.normals()[edge];
            let surface = local + normal * (self.outline.radius - separation);
            return PointProjection {
                point: xf.apply(surface),
                inside: true,
                distance: self.outline.radius - separation,
            };
        }
        let closest = self.closest_core_boundary_point(local);
        let offset = local - closest;
        let length = crate::math::robust_length(offset);
        let direction = if length > 0.0 {
            offset / length
        } else {
            self.normals()[edge]
        };
        PointProjection {
            point: xf.apply(closest + direction * self.outline.radius),
            inside: length <= self.outline.radius,
            distance: (length - self.outline.radius).abs(),
        }
    }

    /// The largest signed distance from the core's edge lines to a local point, and its edge.
    #[inline]
    pub(crate) fn max_separation(&self, local_point: Vec2) -> (f32, usize) {
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, (v, n)) in self.vertices().iter().zip(self.normals()).enumerate() {
            let s = n.dot(local_point - *v);
            if s > best.0 {
                best = (s, i);
            }
        }
        best
    }

    /// The closest point on the core outline to a local point outside the core.
    fn closest_core_boundary_point(&self, local_point: Vec2) -> Vec2 {
        let vertices = self.vertices();
        let n = vertices.len();
        let mut best = vertices[0];
        let mut best_distance = f32::INFINITY;
        for i in 0..n {
            let c = closest_point_on_segment(vertices[i], vertices[(i + 1) % n], local_point);
            let d = c.distance_squared(local_point);
            if d < best_distance {
                best_distance = d;
                best = c;
            }
        }
        best
    }

    /// The area, rounding included: core + edge strips + one full disc of the radius.
    pub fn area(&self) -> f32 {
        let core = polygon_area(self.vertices());
        core + self.perimeter_core() * self.outline.radius
            + std::f32::consts::PI * self.outline.radius * self.outline.radius
    }

    /// The centroid in local space, rounding included.
    pub fn centroid(&self) -> Vec2 {
        if self.outline.radius == 0.0 {
            return self.outline.centroid;
        }
        // Sum the core, one rectangle per edge and one circular sector per vertex, in f64 so
        // that large radii cannot overflow the moments.
        let r = self.outline.radius as f64;
        let (vertices, normals) = (self.vertices(), self.normals());
        let n = vertices.len();
        let core_area = polygon_area(vertices) as f64;
        let mut moment = self.outline.centroid.as_dvec2() * core_area;
        let mut total = core_area;
        for i in 0..n {
            let a = vertices[i].as_dvec2();
            let b = vertices[(i + 1) % n].as_dvec2();
            let normal = normals[i].as_dvec2();
            let strip_area = a.distance(b) * r;
            moment += (0.5 * (a + b) + normal * (0.5 * r)) * strip_area;
            total += strip_area;
            // Sector at vertex b between this edge's normal and the next one's.
            let next_normal = normals[(i + 1) % n].as_dvec2();
            let half_angle = 0.5 * normal.perp_dot(next_normal).atan2(normal.dot(next_normal));
            if half_angle > 0.0 {
                let sector_area = half_angle * r * r;
                let bisector = (normal + next_normal).normalize_or_zero();
                let arm = 2.0 * r * half_angle.sin() / (3.0 * half_angle);
                moment += (b + bisector * arm) * sector_area;
                total += sector_area;
            }
        }
        (moment / total).as_vec2()
    }

    fn perimeter_core(&self) -> f32 {
        let vertices = self.vertices();
        let n = vertices.len();
        (0..n)
            .map(|i| vertices[i].distance(vertices[(i + 1) % n]))
            .sum()
    }
}

/// The four corners of a centred box, counter-clockwise from the lower left.
fn box_corners(half: Vec2) -> [Vec2; 4] {
    [
        Vec2::new(-half.x, -half.y),
        Vec2::new(half.x, -half.y),
        Vec2::new(half.x, half.y),
        Vec2::new(-half.x, half.y),
    ]
}

/// The unit vector along `direction`; exact (`±1` and `0`) for an axis-aligned direction, where
/// scaling by the rounded reciprocal of the length could leave it an ulp short of unit length.
fn unit_normal(direction: Vec2) -> Option<Vec2> {
    if direction.x == 0.0 && direction.y != 0.0 {
        Some(Vec2::new(0.0, direction.y.signum()))
    } else if direction.y == 0.0 && direction.x != 0.0 {
        Some(Vec2::new(direction.x.signum(), 0.0))
    } else {
        crate::math::try_unit(direction)
    }
}

/// The half extents of an outline that is exactly `box_corners(h)` with the exact axis normals
/// `-y, +x, +y, -x`; `None` for any other outline.
fn centred_box_half_extents(vertices: &[Vec2], normals: &[Vec2]) -> Option<Vec2> {
    if vertices.len() != 4 {
        return None;
    }
    let half = vertices[2];
    let axes = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
    (half.x > 0.0 && half.y > 0.0 && vertices == box_corners(half) && normals == axes)
        .then_some(half)
}

/// Signed area of a simple polygon (positive when counter-clockwise).
pub(crate) fn polygon_area(vertices: &[Vec2]) -> f32 {
    let origin = vertices[0];
    let mut twice = 0.0f64;
    for i in 1..vertices.len().saturating_sub(1) {
        let e1 = (vertices[i] - origin).as_dvec2();
        let e2 = (vertices[i + 1] - origin).as_dvec2();
        twice += e1.x * e2.y - e1.y * e2.x;
    }
    (0.5 * twice) as f32
}

/// Centroid of a simple polygon, computed relative to its first vertex for accuracy.
fn polygon_centroid(vertices: &[Vec2]) -> Vec2 {
    let origin = vertices[0];
    let mut twice_area = 0.0f64;
    let mut moment = glam::DVec2::ZERO;
    for i in 1..vertices.len() - 1 {
        let e1 = (vertices[i] - origin).as_dvec2();
        let e2 = (vertices[i + 1] - origin).as_dvec2();
        let a = e1.x * e2.y - e1.y * e2.x;
        twice_area += a;
        moment += (e1 + e2) * (a / 3.0);
    }
    origin + (moment / twice_area).as_vec2()
}

#[cfg(test)]
mod tests {
    use super::Polygon;
    use crate::math::{Rot, Transform, Vec2};
    use crate::test_numbers::{Numbers, EXACT_TURNS};

    #[test]
    fn box_bounds_in_closed_form_equal_the_corner_loop() {
        let mut numbers = Numbers(0x6a09_e667_f3bc_c908);
        for round in 0..100_000 {
            let (width, height) = (0.01 + numbers.unit() * 50.0, 0.01 + numbers.unit() * 50.0);
            let mut polygon = Polygon::rect(width, height).unwrap();
            if round % 3 == 0 {
                polygon = polygon.with_radius(numbers.unit() * 2.0).unwrap();
            }
            assert!(polygon.box_half_extents().is_some());
            let p = Vec2::new(numbers.unit() - 0.5, numbers.unit() - 0.5)
                * 2e6_f32.powf(numbers.unit());
            let xf = match round % 4 {
                // Exact quarter turns and signed zeros.
                0 => {
                    let (c, s) = EXACT_TURNS[round / 4 % 5];
                    Transform { p, q: Rot { c, s } }
                }
                _ => Transform::new(p, numbers.unit() * std::f32::consts::TAU),
            };
            let corners = polygon.vertices().iter().map(|&v| xf.apply(v));
            let min = corners.clone().fold(Vec2::INFINITY, Vec2::min);
            let max = corners.fold(Vec2::NEG_INFINITY, Vec2::max);
            let r = Vec2::splat(polygon.radius());
            let aabb = polygon.aabb(&xf);
            assert_eq!(
                (aabb.min, aabb.max),
                (min - r, max + r),
                "{polygon:?} {xf:?}"
            );
        }
    }
}

#[cfg(test)]
mod layout_tests {
    use super::Polygon;

    #[test]
    fn the_padded_lanes_are_the_first_two_cache_lines_of_the_block() {
        let polygon = Polygon::regular(6, 1.0).unwrap();
        let block = &*polygon.outline as *const _ as usize;
        let lanes = polygon.padded_outline().unwrap() as *const _ as usize;
        assert_eq!(block % 64, 0);
        assert_eq!(lanes, block);
        assert!(Polygon::regular(9, 1.0).unwrap().padded_outline().is_none());
    }
}
