//! Plain `f64` vector arithmetic for the exact references the tests compare against.

use collide2d::{Transform, Vec2};

/// A point or vector in `f64`.
pub type P = [f64; 2];

/// `a - b`.
pub fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

/// The dot product.
pub fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// The 2D cross product (the `z` of the 3D one).
pub fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// The length.
pub fn length(a: P) -> f64 {
    dot(a, a).sqrt()
}

/// The local point `v` placed by `xf` in `f64`, with the transform's own `c`, `s` and position.
pub fn place64(xf: &Transform, v: Vec2) -> P {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    let (x, y) = (f64::from(v.x), f64::from(v.y));
    [
        c * x - s * y + f64::from(xf.p.x),
        s * x + c * y + f64::from(xf.p.y),
    ]
}

/// The closest point of segment `a`–`b` to `p` (`a` when the segment is a point).
pub fn closest_on_segment(p: P, a: P, b: P) -> P {
    let ab = sub(b, a);
    let length_squared = dot(ab, ab);
    if length_squared == 0.0 {
        return a;
    }
    let t = (dot(sub(p, a), ab) / length_squared).clamp(0.0, 1.0);
    [a[0] + ab[0] * t, a[1] + ab[1] * t]
}

/// The edges of a core: a CCW outline's sides, a segment once, a point as an edge of zero
/// length.
pub fn core_edges(points: &[P]) -> Vec<(P, P)> {
    match points.len() {
        1 => vec![(points[0], points[0])],
        2 => vec![(points[0], points[1])],
        n => (0..n).map(|i| (points[i], points[(i + 1) % n])).collect(),
    }
}

/// Whether `p` lies inside or on a CCW outline (three points or more; `false` for fewer).
pub fn outline_holds(points: &[P], p: P) -> bool {
    let n = points.len();
    n >= 3 && (0..n).all(|i| cross(sub(points[(i + 1) % n], points[i]), sub(p, points[i])) >= 0.0)
}

/// Whether two closed segments share a point: they cross, or an end lies on the other.
pub fn segments_meet((a, b): (P, P), (c, d): (P, P)) -> bool {
    let side = |p: P, q: P, r: P| cross(sub(q, p), sub(r, p));
    let on = |p: P, q: P, r: P| {
        side(p, q, r) == 0.0
            && r[0] >= p[0].min(q[0])
            && r[0] <= p[0].max(q[0])
            && r[1] >= p[1].min(q[1])
            && r[1] <= p[1].max(q[1])
    };
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
        || on(c, d, a)
        || on(c, d, b)
        || on(a, b, c)
        || on(a, b, d)
}
