//! An exact referee for two convex shapes, in `f64`, independent of the library's algorithms:
//! each shape is a core (a point, a segment or a convex polygon, placed with the transform's own
//! `c`, `s` and position) plus a radius.
//!
//! - Cores apart: the signed distance is the smallest distance between their edges (a point
//!   is an edge of zero length) minus both radii; the normal points from A's closest point to
//!   B's.
//! - Cores meeting (edges crossing or touching, or one core inside the other): the depth is the
//!   smallest, over the unit normals of both cores' edges taken both ways, of how far B must
//!   move along the normal to clear A (the Minkowski difference of two convex outlines has its
//!   edges along theirs, so its nearest face is found among these normals), plus both radii.
//! - Compounds: every pair of children, the deepest deciding ([`deepest`]).

use collide2d::shape::Shape;
use collide2d::{Transform, Vec2};

use crate::support::vec64::{
    closest_on_segment, core_edges, cross, dot, outline_holds, segments_meet, sub, P as Point,
};

/// A shape as an `f64` core and a radius, placed relative to `origin`.
pub struct Core {
    points: Vec<Point>,
    radius: f64,
}

/// The exact answer for a pair: `depth` is the penetration (negative: the distance apart) and
/// `normal` the unit direction from A to B.
#[derive(Clone, Copy, Debug)]
pub struct Exact {
    pub depth: f64,
    pub normal: Point,
}

impl Exact {
    /// The normal in `f32`, or `Vec2::X` where it is not a usable direction (no gap to point
    /// along: not finite, or far from unit length).
    pub fn normal_or_x(&self) -> Vec2 {
        let normal = Vec2::new(self.normal[0] as f32, self.normal[1] as f32);
        if normal.is_finite() && normal.length() > 0.5 {
            normal
        } else {
            Vec2::X
        }
    }
}

/// The core of a convex shape placed by `xf`, relative to `origin`; `None` for compounds and
/// chains.
pub fn core(shape: &Shape, xf: &Transform, origin: Vec2) -> Option<Core> {
    let (points, radius) = core_points(shape, xf, origin)?;
    Some(Core { points, radius })
}

/// A convex shape's core points (one, two, or its CCW outline) placed by `xf` in `f64` with the
/// transform's own `c`, `s` and position, relative to `origin`, and its radius; `None` for
/// compounds and chains.
pub fn core_points(shape: &Shape, xf: &Transform, origin: Vec2) -> Option<(Vec<Point>, f64)> {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    let (px, py) = (
        f64::from(xf.p.x) - f64::from(origin.x),
        f64::from(xf.p.y) - f64::from(origin.y),
    );
    let place = |v: Vec2| {
        let (x, y) = (f64::from(v.x), f64::from(v.y));
        [c * x - s * y + px, s * x + c * y + py]
    };
    let (points, radius) = match shape {
        Shape::Circle(circle) => (vec![place(circle.center())], circle.radius()),
        Shape::Capsule(capsule) => (
            vec![place(capsule.a()), place(capsule.b())],
            capsule.radius(),
        ),
        Shape::Segment(segment) => (vec![place(segment.a()), place(segment.b())], 0.0),
        Shape::Polygon(polygon) => (
            polygon.vertices().iter().map(|&v| place(v)).collect(),
            polygon.radius(),
        ),
        _ => return None,
    };
    Some((points, f64::from(radius)))
}

impl Core {
    /// The edges: a polygon's sides, a segment once, a point as an edge of zero length.
    fn edges(&self) -> Vec<(Point, Point)> {
        core_edges(&self.points)
    }

    /// How deep this shape and `other` (each core with its radius) overlap along the unit
    /// direction `n`: this one's far side minus `other`'s near side (negative: apart by that
    /// much along `n`).
    pub fn depth_along(&self, other: &Core, n: Point) -> f64 {
        let reach = self
            .points
            .iter()
            .map(|&p| dot(p, n))
            .fold(f64::NEG_INFINITY, f64::max);
        let low = other
            .points
            .iter()
            .map(|&p| dot(p, n))
            .fold(f64::INFINITY, f64::min);
        reach + self.radius - (low - other.radius)
    }

    /// The same core moved by `d`, in `f64`.
    pub fn shifted(&self, d: Point) -> Core {
        Core {
            points: self
                .points
                .iter()
                .map(|p| [p[0] + d[0], p[1] + d[1]])
                .collect(),
            radius: self.radius,
        }
    }

    /// Whether `p` lies inside or on this core's outline (polygons only).
    fn holds(&self, p: Point) -> bool {
        outline_holds(&self.points, p)
    }
}

/// The exact penetration of A and B (see the module notes).
pub fn exact(a: &Core, b: &Core) -> Exact {
    let radii = a.radius + b.radius;
    let (edges_a, edges_b) = (a.edges(), b.edges());
    let meet = edges_a
        .iter()
        .any(|&ea| edges_b.iter().any(|&eb| segments_meet(ea, eb)))
        || a.holds(b.points[0])
        || b.holds(a.points[0]);
    if !meet {
        // The closest pair lies at an endpoint of one of two edges that do not meet.
        let mut best = (f64::INFINITY, [0.0, 0.0], [0.0, 0.0]);
        for &(p, q) in &edges_a {
            for &(r, s) in &edges_b {
                for (from_a, point, (start, end)) in [
                    (true, p, (r, s)),
                    (true, q, (r, s)),
                    (false, r, (p, q)),
                    (false, s, (p, q)),
                ] {
                    let other = closest_on_segment(point, start, end);
                    let gap = sub(other, point);
                    let distance = dot(gap, gap).sqrt();
                    if distance < best.0 {
                        best = if from_a {
                            (distance, point, other)
                        } else {
                            (distance, other, point)
                        };
                    }
                }
            }
        }
        let (distance, on_a, on_b) = best;
        let gap = sub(on_b, on_a);
        return Exact {
            depth: radii - distance,
            normal: [gap[0] / distance, gap[1] / distance],
        };
    }
    let mut best = Exact {
        depth: f64::INFINITY,
        normal: [0.0, 0.0],
    };
    for &(p, q) in edges_a.iter().chain(&edges_b) {
        let edge = sub(q, p);
        let length = dot(edge, edge).sqrt();
        if length == 0.0 {
            continue;
        }
        for sign in [1.0, -1.0] {
            let normal = [sign * edge[1] / length, -sign * edge[0] / length];
            let reach_a = a
                .points
                .iter()
                .map(|&v| dot(v, normal))
                .fold(f64::NEG_INFINITY, f64::max);
            let low_b = b
                .points
                .iter()
                .map(|&v| dot(v, normal))
                .fold(f64::INFINITY, f64::min);
            let depth = reach_a - low_b;
            if depth < best.depth {
                best = Exact { depth, normal };
            }
        }
    }
    if best.depth.is_infinite() {
        // Two points on top of each other: any direction.
        best = Exact {
            depth: 0.0,
            normal: [1.0, 0.0],
        };
    }
    best.depth += radii;
    best
}

/// The cores of a shape placed by `xf` relative to `origin`: one per child of a compound (each
/// placed by the compound's transform after its own, composed in `f64`), else one.
pub fn cores(shape: &Shape, xf: &Transform, origin: Vec2) -> Vec<Core> {
    match shape {
        Shape::Compound(compound) => compound
            .children()
            .iter()
            .map(|(child_xf, child)| {
                let mut placed = core(child, child_xf, Vec2::ZERO).expect("convex children");
                let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
                let (px, py) = (
                    f64::from(xf.p.x) - f64::from(origin.x),
                    f64::from(xf.p.y) - f64::from(origin.y),
                );
                for point in &mut placed.points {
                    let [x, y] = *point;
                    *point = [c * x - s * y + px, s * x + c * y + py];
                }
                placed
            })
            .collect(),
        _ => core(shape, xf, origin).into_iter().collect(),
    }
}

/// The deepest answer over every pair of cores, the indices of that pair, and how much less
/// deep the next pair is (infinite when there is one pair).
pub fn deepest(a: &[Core], b: &[Core]) -> (Exact, (u32, u32), f64) {
    let mut answers: Vec<(Exact, (u32, u32))> = Vec::new();
    for (i, core_a) in a.iter().enumerate() {
        for (j, core_b) in b.iter().enumerate() {
            answers.push((exact(core_a, core_b), (i as u32, j as u32)));
        }
    }
    answers.sort_by(|x, y| y.0.depth.total_cmp(&x.0.depth));
    let lead = answers
        .get(1)
        .map_or(f64::INFINITY, |next| answers[0].0.depth - next.0.depth);
    (answers[0].0, answers[0].1, lead)
}

/// The angle between `normal` and the exact one, in radians.
pub fn angle_to(exact: &Exact, normal: Vec2) -> f64 {
    let (x, y) = (f64::from(normal.x), f64::from(normal.y));
    let [ex, ey] = exact.normal;
    (ex * y - ey * x).atan2(ex * x + ey * y).abs()
}

/// The signed distance from `p` to the surface of `core` (negative inside), in `f64`: the
/// distance to the core's edges (inside a polygon core: its negation) minus the radius.
pub fn signed_distance(core: &Core, p: Point) -> f64 {
    let nearest = core
        .edges()
        .iter()
        .map(|&(a, b)| {
            let q = closest_on_segment(p, a, b);
            let gap = sub(p, q);
            dot(gap, gap).sqrt()
        })
        .fold(f64::INFINITY, f64::min);
    let outline = if core.holds(p) { -nearest } else { nearest };
    outline - core.radius
}

/// Where the line `p + λ d` (`d` unit) runs inside `core`: `Some((lowest λ, highest λ))`, or
/// `None` when it misses. Exact in `f64`: a rounded core is the union of its outline and, for
/// each edge, the rectangle around it and the discs at its ends, each met by the line in one
/// interval (half-plane clipping or a quadratic); the union is convex, so one interval.
pub fn line_extent(core: &Core, p: Point, d: Point) -> Option<(f64, f64)> {
    let mut extent: Option<(f64, f64)> = None;
    let mut join = |piece: Option<(f64, f64)>| {
        if let Some((low, high)) = piece {
            extent = Some(match extent {
                Some((l, h)) => (l.min(low), h.max(high)),
                None => (low, high),
            });
        }
    };
    // Half-planes `normal · x <= offset`, clipping the line.
    let clip = |planes: &[(Point, f64)]| -> Option<(f64, f64)> {
        let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
        for &(normal, offset) in planes {
            let along = dot(normal, d);
            let start = dot(normal, p) - offset;
            if along == 0.0 {
                if start > 0.0 {
                    return None;
                }
            } else if along > 0.0 {
                high = high.min(-start / along);
            } else {
                low = low.max(-start / along);
            }
        }
        (low <= high).then_some((low, high))
    };
    let r = core.radius;
    let n = core.points.len();
    if n >= 3 {
        let planes: Vec<(Point, f64)> = (0..n)
            .map(|i| {
                let (a, b) = (core.points[i], core.points[(i + 1) % n]);
                let edge = sub(b, a);
                let length = dot(edge, edge).sqrt();
                let normal = [edge[1] / length, -edge[0] / length];
                (normal, dot(normal, a))
            })
            .collect();
        join(clip(&planes));
    }
    if r > 0.0 {
        for &(a, b) in &core.edges() {
            let edge = sub(b, a);
            let length = dot(edge, edge).sqrt();
            if length > 0.0 {
                let t = [edge[0] / length, edge[1] / length];
                let m = [t[1], -t[0]];
                join(clip(&[
                    (m, dot(m, a) + r),
                    ([-m[0], -m[1]], -dot(m, a) + r),
                    ([-t[0], -t[1]], -dot(t, a)),
                    (t, dot(t, b)),
                ]));
            }
            for centre in [a, b] {
                let w = sub(p, centre);
                let half_b = dot(w, d);
                let c = dot(w, w) - r * r;
                let discriminant = half_b * half_b - c;
                if discriminant >= 0.0 {
                    let root = discriminant.sqrt();
                    join(Some((-half_b - root, -half_b + root)));
                }
            }
        }
    } else if n <= 2 {
        // A bare segment or point: where the line crosses it.
        let (a, b) = (core.points[0], core.points[n - 1]);
        let edge = sub(b, a);
        let across = cross(d, edge);
        if across != 0.0 {
            let w = sub(a, p);
            let lambda = cross(w, edge) / across;
            let along = cross(w, d) / across;
            if (0.0..=1.0).contains(&along) {
                join(Some((lambda, lambda)));
            }
        }
    }
    extent
}

/// How far the point of `core`'s outline nearest to `p` lies from the nearest vertex (0 when
/// `p` lies at a corner of the rounded shape, or beyond it).
pub fn corner_distance(core: &Core, p: Point) -> f64 {
    let mut best = (f64::INFINITY, f64::INFINITY);
    for &(a, b) in &core.edges() {
        let q = closest_on_segment(p, a, b);
        let gap = sub(p, q);
        let distance = dot(gap, gap);
        if distance < best.0 {
            let to_vertex = dot(sub(q, a), sub(q, a)).min(dot(sub(q, b), sub(q, b)));
            best = (distance, to_vertex.sqrt());
        }
    }
    best.1
}
