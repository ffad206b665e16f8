//! Distance between two shapes: GJK on the convex cores, then the radii; compounds child by child.
//!
//! Every convex shape is a core (point, segment or polygon) inflated by a radius, so the distance
//! between two convex shapes is the distance between their cores minus both radii. GJK finds the
//! core distance as the distance from the origin to the Minkowski difference `B − A`, which it
//! explores one support point at a time. All of it runs in A's local frame, so shapes far from the
//! world origin lose no precision.

use crate::math::{both_valid, cross, left_perp, right_perp, Transform, Vec2};
use crate::query::support::ConvexProxy;
use crate::query::{DistanceOutput, SimplexCache};
use crate::shape::{Aabb, Segment, Shape};
use std::borrow::Cow;

/// Most support points GJK asks for before it returns its best answer.
pub(crate) const MAX_GJK_ITERATIONS: usize = 30;

/// How many ulps of the simplex's largest coordinate its side tests may be off by: a distance
/// below `GJK_ROUNDING · ε · that` cannot be told from zero (a bound with a factor 8 to spare:
/// rounding the support points and a 2×2 determinant of them err by about 2 ulps).
const GJK_ROUNDING: f32 = 16.0;

/// The closest points of two convex cores, as found by [`gjk_distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GjkOutput {
    /// The point of A's core closest to B's core (A's local frame).
    pub(crate) point_a: Vec2,
    /// The point of B's core closest to A's core (A's local frame).
    pub(crate) point_b: Vec2,
    /// The distance between the cores, `point_a.distance(point_b)` to the bit; `0` when they
    /// overlap (then `point_a == point_b`).
    pub(crate) distance: f32,
    /// How many support points were computed.
    pub(crate) iterations: usize,
    /// The size of the final simplex: 3 means the cores overlap.
    pub(crate) simplex_count: usize,
    /// The search direction GJK converged along (from B's core towards A's, not normalised;
    /// for an edge of `B − A`, its perpendicular), or zero when it did not end on a repeated
    /// support point (cores overlapping or touching, or out of iterations).
    pub(crate) axis: Vec2,
}

/// The distance between two shapes, with the closest points and the normal (world space).
///
/// The distance is between the surfaces, radii included, and is `0` when the shapes touch or
/// overlap. When they are apart, `point_a` and `point_b` lie on the surfaces of A and B,
/// `|point_b − point_a| == distance` and `normal` is the unit vector from `point_a` to `point_b`
/// (taken from the axis GJK converged along, so it stays accurate for a gap tiny against the
/// shapes).
///
/// When they overlap, `point_a == point_b` and:
/// - if only the radii overlap (the cores are apart), the point lies in both shapes, in the middle
///   of the stretch of the line joining the closest core points that both shapes cover, and
///   `normal` is the unit vector from A's closest core point to B's;
/// - if the cores themselves overlap, the point is a point common to both cores and `normal` is
///   zero (GJK does not measure penetration).
///
/// For a compound, the answer is the closest pair of children (the first pair found to overlap
/// when they overlap); for a chain, the closest segment, measured on both sides (the distance
/// is geometric: one-sidedness applies to contacts, casts and rays).
///
/// When either transform is not [valid](Transform::is_valid) the answer is
/// [`DistanceOutput::NONE`]: infinitely far, with zero points and normal.
///
/// ```
/// use collide2d::{distance, shape::{Circle, Polygon, Shape}, Transform, Vec2};
/// let ball = Shape::from(Circle::with_radius(0.5)?);
/// let crate_box = Shape::from(Polygon::rect(2.0, 2.0)?);
/// let out = distance(
///     &ball, &Transform::from_translation(Vec2::new(-3.0, 0.0)),
///     &crate_box, &Transform::from_translation(Vec2::new(1.0, 0.0)),
/// );
/// // Box's left face at x = 0, ball's right side at x = -2.5.
/// assert!((out.distance - 2.5).abs() < 1e-6);
/// assert!((out.normal - Vec2::X).length() < 1e-6);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
pub fn distance(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> DistanceOutput {
    distance_with_cache(a, xf_a, b, xf_b, &mut SimplexCache::default())
}

/// [`distance`] warm-started from, and updating, a [`SimplexCache`] kept by the caller.
///
/// Pass the same cache for the same pair every frame: the result is the same as without it,
/// usually after fewer GJK iterations. The cache is only used when both shapes are convex; when
/// either is a compound it is neither read nor written.
pub fn distance_with_cache(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    cache: &mut SimplexCache,
) -> DistanceOutput {
    if !both_valid(xf_a, xf_b) {
        return DistanceOutput::NONE;
    }
    match (ConvexProxy::from_shape(a), ConvexProxy::from_shape(b)) {
        (Some(proxy_a), Some(proxy_b)) => {
            distance_between_convex(&proxy_a, xf_a, &proxy_b, xf_b, cache)
        }
        _ => distance_involving_compound(a, xf_a, b, xf_b),
    }
}

/// The distance between convex A and B, both placed in a common frame; the result is in that frame.
#[inline(always)]
pub(crate) fn distance_between_convex(
    proxy_a: &ConvexProxy,
    a_in_frame: &Transform,
    proxy_b: &ConvexProxy,
    b_in_frame: &Transform,
    cache: &mut SimplexCache,
) -> DistanceOutput {
    let b_in_a = a_in_frame.inv_mul(b_in_frame);
    let cores = gjk_distance(proxy_a, proxy_b, &b_in_a, cache);
    let local = add_radii(&cores, proxy_a.radius(), proxy_b.radius());
    DistanceOutput {
        distance: local.distance,
        point_a: a_in_frame.apply(local.point_a),
        point_b: a_in_frame.apply(local.point_b),
        normal: a_in_frame.rotate(local.normal),
    }
}

/// Turns closest core points into closest surface points (A's local frame), as documented on
/// [`distance`].
fn add_radii(cores: &GjkOutput, radius_a: f32, radius_b: f32) -> DistanceOutput {
    // Apart when the distance has a finite inverse (false for zero and NaN).
    let apart = cores.distance >= SMALLEST_INVERTIBLE;
    if !apart {
        return DistanceOutput {
            distance: 0.0,
            point_a: cores.point_a,
            point_b: cores.point_a,
            normal: Vec2::ZERO,
        };
    }
    // The normal is the axis GJK converged along. For an edge of `B − A` that is the edge's
    // perpendicular, which the rounding of the barycentric weights cannot tilt as it tilts the
    // offset between the closest points (by up to an ulp of the edge's length over the
    // distance); for a vertex it is the offset itself, to the bit. It also does not wait for
    // the closest points and their distance to be computed. (`try_normalize` is exact here,
    // no `math::try_unit` needed: GJK stops before searching along a direction whose squared
    // length is below `f32::EPSILON²`, so a converged axis never squares into subnormals; a
    // zero axis takes the offset, normalised at its own scale.)
    let normal = match (-cores.axis).try_normalize() {
        Some(normal) => normal,
        None => normal_from_offset(cores),
    };
    let surface_a = cores.point_a + normal * radius_a;
    let surface_b = cores.point_b - normal * radius_b;
    if cores.distance > radius_a + radius_b {
        DistanceOutput {
            distance: cores.distance - (radius_a + radius_b),
            point_a: surface_a,
            point_b: surface_b,
            normal,
        }
    } else {
        // Along the core line from A's closest core point, the stretch inside both shapes is
        // [max(−ra, d − rb), min(ra, d + rb)]; report its middle, a point common to both.
        let start = (-radius_a).max(cores.distance - radius_b);
        let end = radius_a.min(cores.distance + radius_b);
        let common = cores.point_a + normal * (0.5 * (start + end));
        DistanceOutput {
            distance: 0.0,
            point_a: common,
            point_b: common,
            normal,
        }
    }
}

/// The smallest positive `f32` whose inverse is finite (`1.0 / x` overflows below it), so that
/// `x >= SMALLEST_INVERTIBLE` is `x > 0.0 && (1.0 / x).is_finite()` without the division.
const SMALLEST_INVERTIBLE: f32 = f32::from_bits(0x0020_0001);

/// The unit vector from `cores.point_a` to `cores.point_b`, for a result without a converged
/// axis (rare: kept out of line so that the usual normal does not wait for it).
#[cold]
#[inline(never)]
fn normal_from_offset(cores: &GjkOutput) -> Vec2 {
    // Not `offset / cores.distance`: for an offset whose squared length underflows, that
    // length is off by up to tens of percents. `add_radii` checked the offset is not zero.
    crate::math::unit_or(cores.point_b - cores.point_a, Vec2::ZERO)
}

/// The minimum over all pairs of convex parts, in A's local frame, then mapped to the world.
///
/// A pair is skipped when the gap between the parts' bounding boxes (radii included) is already
/// at least the best distance found. Kept out of line, so that the convex path, which inlines
/// GJK, stays small.
#[inline(never)]
fn distance_involving_compound(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
) -> DistanceOutput {
    let b_in_a = xf_a.inv_mul(xf_b);
    let mut best: Option<DistanceOutput> = None;
    'parts_of_b: for index_b in 0..convex_part_count(b) {
        let (part_b_in_b, part_b, _) = convex_part(b, index_b);
        let part_b_in_a = b_in_a.mul(&part_b_in_b);
        let aabb_b_in_a = part_b.aabb(&part_b_in_a);
        let Some(proxy_b) = ConvexProxy::from_shape(&part_b) else {
            continue;
        };
        for index_a in 0..convex_part_count(a) {
            let (part_a_in_a, part_a, aabb_a) = convex_part(a, index_a);
            if best.is_some_and(|found| aabb_gap(&aabb_a, &aabb_b_in_a) >= found.distance) {
                continue;
            }
            let Some(proxy_a) = ConvexProxy::from_shape(&part_a) else {
                continue;
            };
            let candidate = distance_between_convex(
                &proxy_a,
                &part_a_in_a,
                &proxy_b,
                &part_b_in_a,
                &mut SimplexCache::default(),
            );
            if best.is_none_or(|found| candidate.distance < found.distance) {
                best = Some(candidate);
                if candidate.distance <= 0.0 {
                    break 'parts_of_b;
                }
            }
        }
    }
    // A compound has at least one child, so `best` is always set; the fallback is never used.
    let local = best.unwrap_or(DistanceOutput {
        distance: 0.0,
        point_a: Vec2::ZERO,
        point_b: Vec2::ZERO,
        normal: Vec2::ZERO,
    });
    DistanceOutput {
        distance: local.distance,
        point_a: xf_a.apply(local.point_a),
        point_b: xf_a.apply(local.point_b),
        normal: xf_a.rotate(local.normal),
    }
}

/// How many convex parts a shape has: its children for a compound, its segments for a chain,
/// else one (itself).
fn convex_part_count(shape: &Shape) -> usize {
    match shape {
        Shape::Compound(compound) => compound.children().len(),
        Shape::Chain(chain) => chain.segment_count(),
        _ => 1,
    }
}

/// Convex part `index` of a shape: its placement in the shape's frame, the part, and its bounding
/// box in the shape's frame.
fn convex_part(shape: &Shape, index: usize) -> (Transform, Cow<'_, Shape>, Aabb) {
    match shape {
        Shape::Compound(compound) => {
            let (placement, child) = &compound.children()[index];
            (
                *placement,
                Cow::Borrowed(child),
                compound.child_aabbs()[index],
            )
        }
        Shape::Chain(chain) => {
            let (start, end) = chain.segment_points(index);
            (
                Transform::IDENTITY,
                Cow::Owned(Shape::Segment(Segment::new_unchecked(start, end))),
                chain.segment_aabb(index),
            )
        }
        _ => (
            Transform::IDENTITY,
            Cow::Borrowed(shape),
            shape.aabb(&Transform::IDENTITY),
        ),
    }
}

/// The distance between two boxes (zero when they overlap).
fn aabb_gap(first: &Aabb, second: &Aabb) -> f32 {
    let gap = (first.min - second.max)
        .max(second.min - first.max)
        .max(Vec2::ZERO);
    gap.length()
}

/// One vertex of the GJK simplex: a point of the Minkowski difference `B − A` and where it came from.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SimplexVertex {
    /// Support point of A's core (A's frame).
    point_a: Vec2,
    /// Support point of B's core (A's frame).
    point_b: Vec2,
    /// `point_b − point_a`.
    pub(crate) difference: Vec2,
    /// Barycentric weight of this vertex in the closest point.
    weight: f32,
    /// The indices of `point_a` among A's core points and of `point_b` among B's, as one
    /// [`source_key`].
    source: u32,
}

// Two vertices fill a cache line.
const _: () = assert!(std::mem::size_of::<SimplexVertex>() == 32);

impl SimplexVertex {
    /// The difference of A's core point `index_a` and B's core point `index_b` placed by `b_in_a`.
    #[inline(always)]
    pub(crate) fn new(
        proxy_a: &ConvexProxy,
        index_a: usize,
        proxy_b: &ConvexProxy,
        index_b: usize,
        b_in_a: &Transform,
    ) -> SimplexVertex {
        let point_a = proxy_a.point(index_a);
        let point_b = b_in_a.apply(proxy_b.point(index_b));
        SimplexVertex::from_points(point_a, index_a, point_b, index_b)
    }

    /// The difference of `point_b` (B's core point `index_b`, already placed in A's frame) and
    /// `point_a` (A's core point `index_a`): [`new`](Self::new) when the caller has placed
    /// B's point itself.
    #[inline(always)]
    pub(crate) fn from_points(
        point_a: Vec2,
        index_a: usize,
        point_b: Vec2,
        index_b: usize,
    ) -> SimplexVertex {
        SimplexVertex {
            point_a,
            point_b,
            difference: point_b - point_a,
            weight: 1.0,
            source: source_key(index_a, index_b),
        }
    }

    /// The [`source_key`] of the core points this vertex came from.
    #[inline]
    pub(crate) fn source(&self) -> u32 {
        self.source
    }

    /// The index of `point_a` among A's core points.
    #[inline]
    fn index_a(&self) -> u8 {
        self.source as u8
    }

    /// The index of `point_b` among B's core points.
    #[inline]
    fn index_b(&self) -> u8 {
        (self.source >> 16) as u8
    }

    /// The same vertex with B's point moved by `offset` (A's frame).
    #[inline]
    pub(crate) fn translate_b(&mut self, offset: Vec2) {
        self.point_b += offset;
        self.difference += offset;
    }
}

/// One number for a support point's pair of core point indices (each below 256).
#[inline(always)]
pub(crate) fn source_key(index_a: usize, index_b: usize) -> u32 {
    (index_a as u32) | (index_b as u32) << 16
}

/// A point, segment or triangle of the Minkowski difference, with barycentric weights.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simplex {
    vertices: [SimplexVertex; 3],
    /// How many vertices are in use (1 to 3).
    pub(crate) count: usize,
}

impl Simplex {
    /// The cached simplex when its indices are valid for these proxies, else the support point
    /// of `B − A` against the offset of B's origin from A's (usually the closest feature or its
    /// neighbour; 2.98 support points per call instead of 3.43 from the first core points on
    /// separated 8-gons, 2026-11).
    #[inline(always)]
    pub(crate) fn from_cache(
        cache: &SimplexCache,
        proxy_a: &ConvexProxy,
        proxy_b: &ConvexProxy,
        b_in_a: &Transform,
    ) -> Simplex {
        let count = usize::from(cache.count);
        let valid = (1..=3).contains(&count)
            && (0..count).all(|i| {
                usize::from(cache.index_a[i]) < proxy_a.count()
                    && usize::from(cache.index_b[i]) < proxy_b.count()
            });
        if !valid {
            let offset = b_in_a.p;
            let index_a = proxy_a.support_index(offset);
            let index_b = proxy_b.support_index(b_in_a.rotate_inv(-offset));
            return Simplex::from_vertex(SimplexVertex::new(
                proxy_a, index_a, proxy_b, index_b, b_in_a,
            ));
        }
        let vertex = |i: usize| {
            SimplexVertex::new(
                proxy_a,
                usize::from(cache.index_a[i]),
                proxy_b,
                usize::from(cache.index_b[i]),
                b_in_a,
            )
        };
        // Each vertex written once; an unused place holds a copy of the first.
        let first = vertex(0);
        let second = if count >= 2 { vertex(1) } else { first };
        let third = if count == 3 { vertex(2) } else { first };
        Simplex {
            vertices: [first, second, third],
            count,
        }
    }

    pub(crate) fn write_cache(&self, cache: &mut SimplexCache) {
        cache.count = self.count as u8;
        for (i, vertex) in self.vertices[..self.count].iter().enumerate() {
            // Core point counts are at most MAX_POLYGON_VERTICES (64), so indices fit a byte.
            cache.index_a[i] = vertex.index_a();
            cache.index_b[i] = vertex.index_b();
        }
    }

    /// Reduces the simplex to the smallest sub-simplex whose span holds the point closest to the
    /// origin, sets the barycentric weights of that point, and returns it:
    /// [`closest_point`](Self::closest_point) to the bit, from the values at hand rather than
    /// read back from the weights just stored (a load that waits for those stores).
    #[inline(always)]
    pub(crate) fn solve(&mut self) -> Vec2 {
        match self.count {
            2 => self.solve_segment(),
            3 => self.solve_triangle(),
            _ => {
                self.vertices[0].weight = 1.0;
                self.vertices[0].difference
            }
        }
    }

    /// Voronoi regions of the segment `w1 w2`: vertex 1, vertex 2 or the edge.
    #[inline(always)]
    fn solve_segment(&mut self) -> Vec2 {
        let w1 = self.vertices[0].difference;
        let w2 = self.vertices[1].difference;
        let edge = w2 - w1;
        // Barycentric numerators: the closest point is (weight_1 · w1 + weight_2 · w2) / |edge|².
        let weight_2 = -w1.dot(edge);
        if weight_2 <= 0.0 {
            self.vertices[0].weight = 1.0;
            self.count = 1;
            return w1;
        }
        let weight_1 = w2.dot(edge);
        if weight_1 <= 0.0 {
            self.vertices[0] = self.vertices[1];
            self.vertices[0].weight = 1.0;
            self.count = 1;
            return w2;
        }
        let inverse_sum = 1.0 / (weight_1 + weight_2);
        if !inverse_sum.is_finite() {
            // An edge so short that its weights underflow: it is a point.
            let nearer = if w2.length_squared() < w1.length_squared() {
                self.vertices[0] = self.vertices[1];
                w2
            } else {
                w1
            };
            self.vertices[0].weight = 1.0;
            self.count = 1;
            return nearer;
        }
        let (scaled_1, scaled_2) = (weight_1 * inverse_sum, weight_2 * inverse_sum);
        self.vertices[0].weight = scaled_1;
        self.vertices[1].weight = scaled_2;
        self.count = 2;
        scaled_1 * w1 + scaled_2 * w2
    }

    /// Voronoi regions of the triangle `w1 w2 w3`: three vertices, three edges or the inside.
    ///
    /// Ericson, *Real-Time Collision Detection*, §5.1.5 and §9.5.2: the signs of the edge
    /// barycentric numerators and of the triangle's (signed) sub-areas pick the region.
    fn solve_triangle(&mut self) -> Vec2 {
        // Only the differences are read here (a copy of the whole vertices would load the one
        // just added with wider loads than the stores that wrote it, and wait for them).
        let (w1, w2, w3) = (
            self.vertices[0].difference,
            self.vertices[1].difference,
            self.vertices[2].difference,
        );

        let edge_12 = w2 - w1;
        let weight_12_1 = w2.dot(edge_12);
        let weight_12_2 = -w1.dot(edge_12);
        let edge_13 = w3 - w1;
        let weight_13_1 = w3.dot(edge_13);
        let weight_13_2 = -w1.dot(edge_13);
        let edge_23 = w3 - w2;
        let weight_23_1 = w3.dot(edge_23);
        let weight_23_2 = -w2.dot(edge_23);

        // The sub-area weights only matter through their signs and ratios, so they are scaled by
        // the triangle's orientation (±1) rather than its area: a product of two areas
        // overflows f32 once the coordinates pass about 1e9.
        let twice_area = cross(edge_12, edge_13);
        let orientation = if twice_area > 0.0 {
            1.0
        } else if twice_area < 0.0 {
            -1.0
        } else {
            0.0
        };
        let weight_123_1 = orientation * cross(w2, w3);
        let weight_123_2 = orientation * cross(w3, w1);
        let weight_123_3 = orientation * cross(w1, w2);

        if weight_12_2 <= 0.0 && weight_13_2 <= 0.0 {
            self.keep_vertex(0)
        } else if weight_12_1 > 0.0 && weight_12_2 > 0.0 && weight_123_3 <= 0.0 {
            self.keep_edge(0, weight_12_1, 1, weight_12_2)
        } else if weight_13_1 > 0.0 && weight_13_2 > 0.0 && weight_123_2 <= 0.0 {
            self.keep_edge(0, weight_13_1, 2, weight_13_2)
        } else if weight_12_1 <= 0.0 && weight_23_2 <= 0.0 {
            self.keep_vertex(1)
        } else if weight_13_1 <= 0.0 && weight_23_1 <= 0.0 {
            self.keep_vertex(2)
        } else if weight_23_1 > 0.0 && weight_23_2 > 0.0 && weight_123_1 <= 0.0 {
            self.keep_edge(1, weight_23_1, 2, weight_23_2)
        } else if twice_area.abs()
            <= 8.0 * f32::EPSILON * edge_12.length() * edge_13.length().max(edge_23.length())
        {
            // A sliver: the signs above are rounding noise. Keep the edge nearest the origin.
            self.keep_nearest_edge()
        } else {
            let inverse_sum = 1.0 / (weight_123_1 + weight_123_2 + weight_123_3);
            // Far from the origin a small triangle's signs are rounding noise too (the cross
            // products cancel terms the size of its distance): it holds the origin only if its
            // box does and the weights' sum can be inverted.
            let origin_in_box = w1.min(w2).min(w3).cmple(Vec2::ZERO).all()
                && w1.max(w2).max(w3).cmpge(Vec2::ZERO).all();
            if !(origin_in_box && inverse_sum.is_finite()) {
                return self.keep_nearest_edge();
            }
            self.vertices[0].weight = weight_123_1 * inverse_sum;
            self.vertices[1].weight = weight_123_2 * inverse_sum;
            self.vertices[2].weight = weight_123_3 * inverse_sum;
            self.count = 3;
            Vec2::ZERO
        }
    }

    /// Keeps vertex `index` alone; returns it (the closest point).
    fn keep_vertex(&mut self, index: usize) -> Vec2 {
        self.vertices[0] = self.vertices[index];
        self.vertices[0].weight = 1.0;
        self.count = 1;
        self.vertices[0].difference
    }

    /// Keeps the edge from vertex `first` to vertex `second` (`first < second`) with these
    /// barycentric numerators; returns its closest point.
    fn keep_edge(
        &mut self,
        first: usize,
        weight_first: f32,
        second: usize,
        weight_second: f32,
    ) -> Vec2 {
        let (w_first, w_second) = (
            self.vertices[first].difference,
            self.vertices[second].difference,
        );
        let inverse_sum = 1.0 / (weight_first + weight_second);
        if !inverse_sum.is_finite() {
            // Weights that underflow: the edge is a point.
            let nearer = if w_second.length_squared() < w_first.length_squared() {
                second
            } else {
                first
            };
            return self.keep_vertex(nearer);
        }
        let (scaled_first, scaled_second) =
            (weight_first * inverse_sum, weight_second * inverse_sum);
        self.vertices[0] = self.vertices[first];
        self.vertices[0].weight = scaled_first;
        self.vertices[1] = self.vertices[second];
        self.vertices[1].weight = scaled_second;
        self.count = 2;
        scaled_first * w_first + scaled_second * w_second
    }

    /// Keeps the edge of the triangle nearest the origin (solved); returns its closest point.
    fn keep_nearest_edge(&mut self) -> Vec2 {
        let [v1, v2, v3] = self.vertices;
        let mut best: Option<(f32, Vec2, Simplex)> = None;
        for (first, second) in [(v1, v2), (v1, v3), (v2, v3)] {
            let mut edge = Simplex {
                vertices: [first, second, second],
                count: 2,
            };
            let closest = edge.solve_segment();
            let distance_squared = closest.length_squared();
            if best.is_none_or(|(found, _, _)| distance_squared < found) {
                best = Some((distance_squared, closest, edge));
            }
        }
        let Some((_, closest, edge)) = best else {
            return self.closest_point();
        };
        *self = edge;
        closest
    }

    /// The point of the simplex closest to the origin (after [`solve`](Self::solve)).
    pub(crate) fn closest_point(&self) -> Vec2 {
        match self.count {
            1 => self.vertices[0].difference,
            2 => {
                self.vertices[0].weight * self.vertices[0].difference
                    + self.vertices[1].weight * self.vertices[1].difference
            }
            _ => Vec2::ZERO,
        }
    }

    /// A direction from the simplex towards the origin (not normalised).
    ///
    /// For an edge this is the edge's perpendicular on the origin's side, which rounding cannot
    /// tilt the way it tilts the closest point.
    pub(crate) fn search_direction(&self) -> Vec2 {
        match self.count {
            1 => -self.vertices[0].difference,
            _ => {
                let w1 = self.vertices[0].difference;
                let edge = self.vertices[1].difference - w1;
                if cross(edge, -w1) > 0.0 {
                    left_perp(edge)
                } else {
                    right_perp(edge)
                }
            }
        }
    }

    /// Whether the origin lies in the Minkowski difference as far as `f32` can tell, when the
    /// support point `repeated` (the furthest along `direction`, the search direction from the
    /// simplex towards the origin) is one the simplex already had.
    ///
    /// A repeat normally means convergence: nothing lies nearer the origin than the simplex. It
    /// can also mean that the last [`solve`](Self::solve) dropped `repeated` on a side test that
    /// is rounding noise: when the origin is closer to an inner edge of the Minkowski difference
    /// (a diagonal of a box 1e8 across, say) than the rounding of points that large, the triangle
    /// holding it looks like it does not, and the same vertex comes back. The origin is then
    /// within that rounding of the simplex while the support reaches past it along the search
    /// direction (no plane across that direction separates the origin), so the cores overlap
    /// within rounding. (The direction, not the closest point, decides which side the support
    /// reached: near an edge through the origin the closest point is rounding noise.)
    #[inline]
    pub(crate) fn holds_origin_within_rounding(
        &self,
        repeated: &SimplexVertex,
        direction: Vec2,
    ) -> bool {
        if repeated.difference.dot(direction) < 0.0 {
            // The support stops short of the origin: a separating plane exists.
            return false;
        }
        let closest = self.closest_point();
        let magnitude = self.vertices[..self.count]
            .iter()
            .map(|vertex| vertex.difference.abs().max_element())
            .fold(repeated.difference.abs().max_element(), f32::max);
        closest.length() <= GJK_ROUNDING * f32::EPSILON * magnitude
    }

    /// The closest points on A and on B that the weights describe.
    #[inline]
    pub(crate) fn witness_points(&self) -> (Vec2, Vec2) {
        let [v1, v2, v3] = &self.vertices;
        // The sums start from zero, as a sum over the vertices in use does (the same bits).
        match self.count {
            1 => (
                Vec2::ZERO + v1.weight * v1.point_a,
                Vec2::ZERO + v1.weight * v1.point_b,
            ),
            2 => (
                Vec2::ZERO + v1.weight * v1.point_a + v2.weight * v2.point_a,
                Vec2::ZERO + v1.weight * v1.point_b + v2.weight * v2.point_b,
            ),
            _ => {
                let point_a = Vec2::ZERO
                    + v1.weight * v1.point_a
                    + v2.weight * v2.point_a
                    + v3.weight * v3.point_a;
                (point_a, point_a)
            }
        }
    }

    /// The [`source_key`] of each vertex in use; the unused places hold a key no vertex has.
    #[inline(always)]
    fn sources(&self) -> [u32; 3] {
        let key = |i: usize| {
            if i < self.count {
                self.vertices[i].source
            } else {
                u32::MAX
            }
        };
        [key(0), key(1), key(2)]
    }

    /// The core point indices of the first vertex (a place to start the next support search).
    #[inline(always)]
    pub(crate) fn first_indices(&self) -> (usize, usize) {
        let first = &self.vertices[0];
        (usize::from(first.index_a()), usize::from(first.index_b()))
    }

    /// The core point indices of the closest point when it is one point of `B − A` (the only
    /// vertex in use with weight): there a corner of each core meets the other's.
    #[inline]
    pub(crate) fn corner_indices(&self) -> Option<(usize, usize)> {
        let mut corner = None;
        for vertex in &self.vertices[..self.count] {
            if vertex.weight > 0.0 {
                if corner.is_some() {
                    return None;
                }
                corner = Some((usize::from(vertex.index_a()), usize::from(vertex.index_b())));
            }
        }
        corner
    }

    /// Whether a vertex in use has the support point of these core point indices.
    pub(crate) fn contains_source(&self, source: u32) -> bool {
        self.vertices[..self.count]
            .iter()
            .any(|vertex| vertex.source == source)
    }

    /// The simplex of one vertex.
    pub(crate) fn from_vertex(vertex: SimplexVertex) -> Simplex {
        Simplex {
            vertices: [vertex; 3],
            count: 1,
        }
    }

    /// Adds a vertex to a point or a segment (after [`solve`](Self::solve), which leaves at
    /// most two).
    pub(crate) fn push(&mut self, vertex: SimplexVertex) {
        debug_assert!(self.count < 3);
        self.vertices[self.count] = vertex;
        self.count += 1;
    }

    /// The same vertices with B moved by `offset` (A's frame).
    pub(crate) fn translate_b(&mut self, offset: Vec2) {
        for vertex in &mut self.vertices[..self.count] {
            vertex.translate_b(offset);
        }
    }
}

/// GJK: the closest points of two convex cores, with B placed in A's local frame by `b_in_a`.
///
/// Gilbert, Johnson and Keerthi (1988), in the form of Ericson, *Real-Time Collision Detection*,
/// §9.5, and Catto, "Computing Distance" (GDC 2010):
///
/// ```text
/// simplex ← cached simplex, or {support_B(−o) − support_A(o)}, o = offset of B's origin in A
/// loop (at most MAX_GJK_ITERATIONS support points):
///     reduce simplex to the sub-simplex nearest the origin; if it is a triangle → overlap
///     d ← direction from the simplex towards the origin; if d ≈ 0 → touching
///     w ← support_B(d) − support_A(−d)
///     if w is already in the simplex → converged
///     add w to the simplex
/// closest points ← barycentric combination of the simplex's source points; axis ← the last d
/// ```
///
/// The simplex ends in `cache` for the next call. Radii are ignored here.
#[inline(always)]
pub(crate) fn gjk_distance(
    proxy_a: &ConvexProxy,
    proxy_b: &ConvexProxy,
    b_in_a: &Transform,
    cache: &mut SimplexCache,
) -> GjkOutput {
    // 1. Start from the cached simplex (or a single vertex).
    let mut simplex = Simplex::from_cache(cache, proxy_a, proxy_b, b_in_a);
    let mut iterations = 0;
    let mut overlap_within_rounding = false;
    let mut axis = Vec2::ZERO;

    loop {
        // 2. Remember the vertices' sources before reducing, to detect a support point seen again.
        let previous = simplex.sources();

        // 3. Keep the sub-simplex nearest the origin; a full triangle holds the origin. At the
        //    iteration limit the reduced simplex is the answer.
        simplex.solve();
        if simplex.count == 3 || iterations == MAX_GJK_ITERATIONS {
            break;
        }

        // 4. Direction towards the origin; none means the origin is on the simplex.
        let direction = simplex.search_direction();
        if direction.length_squared() < f32::EPSILON * f32::EPSILON {
            break;
        }

        // 5. New support point of B − A along the direction.
        //    The walks start from the core points of the simplex's first vertex.
        let (near_a, near_b) = simplex.first_indices();
        let index_a = proxy_a.support_index_near(near_a, -direction);
        let index_b = proxy_b.support_index_near(near_b, b_in_a.rotate_inv(direction));
        let vertex = SimplexVertex::new(proxy_a, index_a, proxy_b, index_b, b_in_a);
        iterations += 1;

        // 6. Converged when the support point repeats. (A test on the progress along the
        //    search direction stops too early when an edge of A and an edge of B are nearly
        //    parallel: the better vertex then looks no closer within rounding, though the edge
        //    it opens is. The next solve decides instead, and repeats end the loop.)
        if previous.contains(&vertex.source) {
            overlap_within_rounding = simplex.holds_origin_within_rounding(&vertex, direction);
            axis = direction;
            break;
        }

        // 7. Grow the simplex.
        simplex.vertices[simplex.count] = vertex;
        simplex.count += 1;
    }

    // 8. Closest points from the barycentric weights, and the cache for next time.
    let (point_a, point_b) = simplex.witness_points();
    simplex.write_cache(cache);
    if overlap_within_rounding {
        return GjkOutput {
            point_a,
            point_b: point_a,
            distance: 0.0,
            iterations,
            simplex_count: 3,
            axis: Vec2::ZERO,
        };
    }
    GjkOutput {
        point_a,
        point_b,
        distance: if simplex.count == 3 {
            0.0
        } else {
            point_a.distance(point_b)
        },
        iterations,
        simplex_count: simplex.count,
        axis,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Circle, Polygon, Segment};

    fn proxy(shape: &Shape) -> ConvexProxy<'_> {
        ConvexProxy::from_shape(shape).unwrap()
    }

    /// [`gjk_distance`] from a cold cache.
    fn cold_distance(a: &Shape, b: &Shape, b_in_a: &Transform) -> GjkOutput {
        gjk_distance(&proxy(a), &proxy(b), b_in_a, &mut SimplexCache::default())
    }

    #[test]
    fn boxes_side_by_side_have_their_gap_as_core_distance() {
        let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
        let b_in_a = Transform::new(Vec2::new(3.5, 0.25), 0.0);
        let out = cold_distance(&square, &square, &b_in_a);
        assert!((out.distance - 1.5).abs() < 1e-6, "{out:?}");
        assert!((out.point_a.x - 1.0).abs() < 1e-6 && (out.point_b.x - 2.5).abs() < 1e-6);
        assert!(out.simplex_count <= 2);
    }

    #[test]
    fn overlapping_cores_end_with_a_triangle() {
        let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
        let b_in_a = Transform::new(Vec2::new(0.5, 0.3), 0.4);
        let out = cold_distance(&square, &square, &b_in_a);
        assert_eq!(out.distance, 0.0);
        assert_eq!(out.simplex_count, 3);
        assert_eq!(out.point_a, out.point_b);
    }

    #[test]
    fn warm_start_converges_in_fewer_iterations() {
        let octagon = Shape::from(Polygon::regular(8, 1.0).unwrap());
        let mut cache = SimplexCache::default();
        let mut cold_total = 0;
        let mut warm_total = 0;
        for step in 0..50 {
            let t = step as f32 * 0.01;
            let b_in_a = Transform::new(Vec2::new(2.5 + t, 0.7 - t), 0.3 + t);
            let cold = cold_distance(&octagon, &octagon, &b_in_a);
            let warm = gjk_distance(&proxy(&octagon), &proxy(&octagon), &b_in_a, &mut cache);
            assert!(
                (cold.distance - warm.distance).abs() < 1e-5,
                "{cold:?} {warm:?}"
            );
            if step > 0 {
                cold_total += cold.iterations;
                warm_total += warm.iterations;
                assert!(warm.iterations <= cold.iterations);
            }
        }
        assert!(
            warm_total < cold_total,
            "warm {warm_total} cold {cold_total}"
        );
    }

    #[test]
    fn stale_cache_indices_are_ignored() {
        let circle = Shape::from(Circle::with_radius(1.0).unwrap());
        let segment = Shape::from(Segment::new(Vec2::ZERO, Vec2::X).unwrap());
        let mut cache = SimplexCache {
            count: 3,
            index_a: [7, 9, 1],
            index_b: [5, 0, 2],
        };
        let out = gjk_distance(
            &proxy(&circle),
            &proxy(&segment),
            &Transform::from_translation(Vec2::new(0.0, 2.0)),
            &mut cache,
        );
        assert!((out.distance - 2.0).abs() < 1e-6);
        assert!(cache.count >= 1 && cache.index_a[0] == 0);
    }

    #[test]
    fn iterations_stay_within_the_limit_for_many_sided_polygons() {
        let many = Shape::from(Polygon::regular(64, 10.0).unwrap());
        let capsule = Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(3.0, 1.0), 0.5).unwrap());
        for step in 0..200 {
            let angle = step as f32 * 0.031;
            let b_in_a = Transform::new(Vec2::new(angle.cos(), angle.sin()) * 12.0, angle * 3.0);
            let out = cold_distance(&many, &capsule, &b_in_a);
            assert!(out.iterations <= MAX_GJK_ITERATIONS);
            assert!(out.distance.is_finite());
        }
    }

    /// A small box near the centre of a huge polygon: the first supports of a cold start are
    /// nearly opposite vertices of `B − A`, so the first edge passes within rounding of the
    /// origin and the side it searches is a coin toss. Regression: the repeat then came from
    /// the far side of that edge, and the overlap test, judging the side by the (rounding
    /// noise) closest point, reported a gap of 16 between shapes one inside the other.
    #[test]
    fn a_box_inside_a_huge_polygon_overlaps_it_whichever_side_the_search_takes() {
        let big = Shape::from(Polygon::regular(16, 1.0e9).unwrap());
        let unit = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
        let b_in_a = Transform::new(Vec2::new(0.3, 0.1), 0.4);
        let out = cold_distance(&big, &unit, &b_in_a);
        assert_eq!(out.distance, 0.0, "{out:?}");

        // The class: near-concentric pairs at every scale, polygons and capsules inside.
        let mut numbers = crate::query::manifold::test_numbers::Numbers(0x0dd5_ca1e);
        for exponent in 0..=9 {
            let size = 10f32.powi(exponent);
            for sides in [3, 4, 5, 8, 16, 64] {
                let outer = Shape::from(Polygon::regular(sides, size).unwrap());
                let inner = [
                    Shape::from(Polygon::rect(1.0, 1.0).unwrap()),
                    Shape::from(Polygon::regular(7, 0.5).unwrap()),
                    Shape::from(Capsule::new(-Vec2::X, Vec2::X, 0.0).unwrap()),
                ];
                for shape in &inner {
                    for _ in 0..8 {
                        let offset = Vec2::new(numbers.unit() - 0.5, numbers.unit() - 0.5);
                        let b_in_a = Transform::new(offset, numbers.unit() * 6.0);
                        let out = cold_distance(&outer, shape, &b_in_a);
                        assert_eq!(out.distance, 0.0, "size {size} sides {sides} {out:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_smallest_invertible_distance_is_where_the_inverse_stops_overflowing() {
        let bits = SMALLEST_INVERTIBLE.to_bits();
        for candidate in (bits - 64..bits + 64).map(f32::from_bits) {
            assert_eq!(
                candidate >= SMALLEST_INVERTIBLE,
                candidate > 0.0 && (1.0 / candidate).is_finite(),
                "{candidate:e}"
            );
        }
        for special in [0.0, -0.0, f32::NAN, f32::INFINITY, 1.0, f32::MAX, -1.0] {
            assert_eq!(
                special >= SMALLEST_INVERTIBLE,
                special > 0.0 && (1.0 / special).is_finite()
            );
        }
    }

    #[test]
    fn radii_are_removed_and_points_moved_to_the_surfaces() {
        let cores = GjkOutput {
            point_a: Vec2::ZERO,
            point_b: Vec2::new(3.0, 0.0),
            distance: 3.0,
            iterations: 1,
            simplex_count: 1,
            axis: Vec2::ZERO,
        };
        let apart = add_radii(&cores, 1.0, 0.5);
        assert!((apart.distance - 1.5).abs() < 1e-6);
        assert_eq!(apart.point_a, Vec2::new(1.0, 0.0));
        assert_eq!(apart.point_b, Vec2::new(2.5, 0.0));
        assert_eq!(apart.normal, Vec2::X);

        let touching = add_radii(&cores, 2.0, 1.5);
        assert_eq!(touching.distance, 0.0);
        assert_eq!(touching.point_a, touching.point_b);
        // Both cover [1.5, 2.0] along the core line.
        assert_eq!(touching.point_a, Vec2::new(1.75, 0.0));
        let deep = add_radii(&cores, 0.0, 3.5);
        assert_eq!(deep.point_a, Vec2::ZERO);
        assert_eq!(touching.normal, Vec2::X);
    }
}
