//! The exact push of a convex shape out of a union of convex shapes.
//!
//! A translation `t` of convex A clears convex child `C_i` exactly when `t` lies outside
//! `M_i = core(C_i) ⊕ (−core(A)) ⊕ disc(r_A + r_C)`: a convex polygon (the hull of the core
//! differences) rounded by the summed radii. The smallest push of A out of the union of the
//! children is the point of the union's complement nearest the origin, which lies on the
//! boundary of some `M_i` and outside every other. It is one of:
//!
//! ```text
//! the nearest point to the origin of each boundary piece of each M_i (its edges and, when
//!     rounded, the arcs at its corners), and each piece's ends;
//! each crossing of two pieces of different M_i;
//! kept only when strictly inside no other M_j; the answer is the nearest kept one.
//! ```
//!
//! Computed in `f64` in the compound's frame (the inputs are `f32`, so the core differences
//! are exact).

use crate::math::Vec2;

/// A point or vector in `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct D {
    x: f64,
    y: f64,
}

impl D {
    fn of(v: Vec2) -> D {
        D {
            x: f64::from(v.x),
            y: f64::from(v.y),
        }
    }
    fn add(self, o: D) -> D {
        D {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
    fn sub(self, o: D) -> D {
        D {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
    fn scale(self, s: f64) -> D {
        D {
            x: self.x * s,
            y: self.y * s,
        }
    }
    fn dot(self, o: D) -> f64 {
        self.x * o.x + self.y * o.y
    }
    fn cross(self, o: D) -> f64 {
        self.x * o.y - self.y * o.x
    }
    fn length(self) -> f64 {
        self.x.hypot(self.y)
    }
    fn unit(self) -> Option<D> {
        let length = self.length();
        (length > 0.0 && length.is_finite()).then(|| self.scale(1.0 / length))
    }
    fn to_vec2(self) -> Vec2 {
        Vec2::new(self.x as f32, self.y as f32)
    }
}

/// One `M_i`: a convex core hull (counter-clockwise, 1 or more points, no repeats) rounded by
/// `radius`.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    hull: Vec<D>,
    /// Per hull point: the child's core point and A's it is the difference of.
    origins: Vec<(D, D)>,
    /// Outward unit normal of edge `j` (from `hull[j]` to `hull[j + 1]`), for 2 points or more.
    normals: Vec<D>,
    radius: f64,
}

/// A piece of a region's boundary.
#[derive(Clone, Copy, Debug)]
enum Piece {
    /// A straight edge with its outward unit normal: the core hull's edge moved out by
    /// `radius`.
    Edge { a: D, b: D, normal: D, radius: f64 },
    /// An arc about `centre` counter-clockwise from direction `from` to `to` (a whole circle
    /// when `whole`).
    Arc {
        centre: D,
        radius: f64,
        from: D,
        to: D,
        whole: bool,
    },
}

impl Piece {
    /// Whether the unit direction `w` from an arc's centre lies on the arc.
    fn arc_holds(from: D, to: D, whole: bool, w: D) -> bool {
        whole || (from.cross(w) >= 0.0 && w.cross(to) >= 0.0)
    }
}

/// A point of some region's boundary offered as the push: where, its outward normal there,
/// and the regions whose boundary it is on.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    point: D,
    /// The outward normals of the two pieces it is on there (the same one twice when on one).
    normals: (D, D),
    /// The points of the two regions' core hulls under it.
    cores: (D, D),
    on: (usize, usize),
}

/// The push of A out of the union: the translation (compound frame) and the outward unit
/// normal of the union's complement there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Push {
    /// The smallest translation that clears A of every region.
    pub(crate) translation: Vec2,
    /// Its direction, or the boundary's outward normal when it is (nearly) zero.
    pub(crate) normal: Vec2,
    /// Its length.
    pub(crate) depth: f32,
    /// The region (child) on whose boundary it ends.
    pub(crate) region: usize,
    /// The points of the child's core and of A's core (compound frame) whose difference is
    /// the core point under the push's end: where the two touch once A is pushed out.
    pub(crate) cores: (Vec2, Vec2),
}

impl Region {
    /// The region of a child with core points `child` and A with core points `a` (both in the
    /// compound's frame), rounded by `radius` (the sum of both radii).
    pub(crate) fn new(child: &[Vec2], a: &[Vec2], radius: f32) -> Region {
        let mut points: Vec<(D, D, D)> = Vec::with_capacity(child.len() * a.len());
        for c in child {
            for p in a {
                let (c, p) = (D::of(*c), D::of(*p));
                points.push((c.sub(p), c, p));
            }
        }
        let (hull, origins): (Vec<D>, Vec<(D, D)>) = convex_hull(points)
            .into_iter()
            .map(|(d, c, p)| (d, (c, p)))
            .unzip();
        let count = hull.len();
        let normals = if count >= 2 {
            (0..count)
                .map(|j| {
                    let e = hull[(j + 1) % count].sub(hull[j]);
                    D { x: e.y, y: -e.x }.unit().unwrap_or(D { x: 0.0, y: 1.0 })
                })
                .collect()
        } else {
            Vec::new()
        };
        Region {
            hull,
            origins,
            normals,
            radius: f64::from(radius),
        }
    }

    /// The distance from `p` to the core hull, negative inside a hull of 3 points or more.
    fn core_distance(&self, p: D) -> f64 {
        let count = self.hull.len();
        match count {
            0 => f64::INFINITY,
            1 => p.sub(self.hull[0]).length(),
            2 => segment_distance(p, self.hull[0], self.hull[1]),
            _ => {
                let most = (0..count)
                    .map(|j| p.sub(self.hull[j]).dot(self.normals[j]))
                    .fold(f64::NEG_INFINITY, f64::max);
                if most <= 0.0 {
                    most
                } else {
                    (0..count)
                        .map(|j| segment_distance(p, self.hull[j], self.hull[(j + 1) % count]))
                        .fold(f64::INFINITY, f64::min)
                }
            }
        }
    }

    /// The child's and A's core points whose difference is the core hull point `h` (on the
    /// hull's boundary): interpolated along the hull edge nearest `h`.
    fn split(&self, h: D) -> (D, D) {
        let count = self.hull.len();
        if count == 1 {
            return self.origins[0];
        }
        let mut best = (f64::INFINITY, self.origins[0]);
        for j in 0..count {
            let k = (j + 1) % count;
            let (a, b) = (self.hull[j], self.hull[k]);
            let e = b.sub(a);
            let ee = e.dot(e);
            let t = if ee > 0.0 {
                (h.sub(a).dot(e) / ee).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let distance = h.sub(a.add(e.scale(t))).length();
            if distance < best.0 {
                let ((c1, a1), (c2, a2)) = (self.origins[j], self.origins[k]);
                let split = (c1.add(c2.sub(c1).scale(t)), a1.add(a2.sub(a1).scale(t)));
                best = (distance, split);
            }
        }
        best.1
    }

    /// Whether `p` lies inside the region by more than `slack`.
    fn strictly_contains(&self, p: D, slack: f64) -> bool {
        self.core_distance(p) < self.radius - slack
    }

    /// The largest coordinate magnitude of the region.
    fn magnitude(&self) -> f64 {
        self.hull
            .iter()
            .map(|p| p.x.abs().max(p.y.abs()))
            .fold(0.0, f64::max)
            + self.radius
    }

    /// The pieces of the region's boundary.
    fn pieces(&self) -> Vec<Piece> {
        let count = self.hull.len();
        let r = self.radius;
        if count == 1 {
            let any = D { x: 1.0, y: 0.0 };
            return vec![Piece::Arc {
                centre: self.hull[0],
                radius: r,
                from: any,
                to: any,
                whole: true,
            }];
        }
        let mut pieces = Vec::with_capacity(2 * count);
        for j in 0..count {
            let n = self.normals[j];
            pieces.push(Piece::Edge {
                a: self.hull[j].add(n.scale(r)),
                b: self.hull[(j + 1) % count].add(n.scale(r)),
                normal: n,
                radius: r,
            });
            if r > 0.0 {
                pieces.push(Piece::Arc {
                    centre: self.hull[j],
                    radius: r,
                    from: self.normals[(j + count - 1) % count],
                    to: n,
                    whole: false,
                });
            }
        }
        pieces
    }
}

/// The hull of `points`, counter-clockwise, without repeated or collinear points (monotone
/// chain); one point when all coincide, two when all lie on a line.
fn convex_hull(mut points: Vec<(D, D, D)>) -> Vec<(D, D, D)> {
    points.sort_by(|p, q| p.0.x.total_cmp(&q.0.x).then(p.0.y.total_cmp(&q.0.y)));
    points.dedup_by(|p, q| p.0 == q.0);
    if points.len() <= 2 {
        return points;
    }
    let mut hull: Vec<(D, D, D)> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &(D, D, D)>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in ordered {
            while hull.len() >= start + 2 {
                let (o, a) = (hull[hull.len() - 2].0, hull[hull.len() - 1].0);
                if a.sub(o).cross(p.0.sub(o)) <= 0.0 {
                    hull.pop();
                } else {
                    break;
                }
            }
            hull.push(p);
        }
        hull.pop();
    }
    if hull.len() < 2 {
        // All on a line: its two ends.
        return vec![points[0], points[points.len() - 1]];
    }
    hull
}

/// The distance from `p` to segment `a`–`b`.
fn segment_distance(p: D, a: D, b: D) -> f64 {
    p.sub(closest_on_segment(p, a, b)).length()
}

/// The point of segment `a`–`b` nearest `p`.
fn closest_on_segment(p: D, a: D, b: D) -> D {
    let e = b.sub(a);
    let ee = e.dot(e);
    if ee <= 0.0 {
        return a;
    }
    let t = (p.sub(a).dot(e) / ee).clamp(0.0, 1.0);
    a.add(e.scale(t))
}

/// The points where pieces `p` and `q` cross (collinear overlaps and coincident arcs give
/// none: their ends are candidates of their own), with an outward normal for each (the mean of
/// both pieces' normals there).
fn crossings(p: &Piece, q: &Piece, out: &mut Vec<(D, D, D)>) {
    match (*p, *q) {
        (
            Piece::Edge {
                a: a1,
                b: b1,
                normal: n1,
                ..
            },
            Piece::Edge {
                a: a2,
                b: b2,
                normal: n2,
                ..
            },
        ) => {
            let (e1, e2) = (b1.sub(a1), b2.sub(a2));
            let denominator = e1.cross(e2);
            if denominator == 0.0 {
                return;
            }
            let w = a2.sub(a1);
            let s = w.cross(e2) / denominator;
            let t = w.cross(e1) / denominator;
            if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
                out.push((a1.add(e1.scale(s)), n1, n2));
            }
        }
        (Piece::Edge { a, b, normal, .. }, arc @ Piece::Arc { .. })
        | (arc @ Piece::Arc { .. }, Piece::Edge { a, b, normal, .. }) => {
            let Piece::Arc {
                centre,
                radius,
                from,
                to,
                whole,
            } = arc
            else {
                return;
            };
            let e = b.sub(a);
            let f = a.sub(centre);
            let (qa, qb, qc) = (e.dot(e), 2.0 * f.dot(e), f.dot(f) - radius * radius);
            let discriminant = qb * qb - 4.0 * qa * qc;
            if qa <= 0.0 || discriminant < 0.0 {
                return;
            }
            let root = discriminant.sqrt();
            for t in [(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)] {
                if !(0.0..=1.0).contains(&t) {
                    continue;
                }
                let point = a.add(e.scale(t));
                if let Some(w) = point.sub(centre).unit() {
                    if Piece::arc_holds(from, to, whole, w) {
                        let (np, nq) = if matches!(p, Piece::Edge { .. }) {
                            (normal, w)
                        } else {
                            (w, normal)
                        };
                        out.push((point, np, nq));
                    }
                }
            }
        }
        (
            Piece::Arc {
                centre: c1,
                radius: r1,
                from: f1,
                to: t1,
                whole: w1,
            },
            Piece::Arc {
                centre: c2,
                radius: r2,
                from: f2,
                to: t2,
                whole: w2,
            },
        ) => {
            let between = c2.sub(c1);
            let d = between.length();
            if d == 0.0 || d > r1 + r2 || d < (r1 - r2).abs() {
                return;
            }
            let along = (d * d + r1 * r1 - r2 * r2) / (2.0 * d);
            let across = (r1 * r1 - along * along).max(0.0).sqrt();
            let u = between.scale(1.0 / d);
            let v = D { x: -u.y, y: u.x };
            for side in [-1.0, 1.0] {
                let point = c1.add(u.scale(along)).add(v.scale(side * across));
                let (Some(m1), Some(m2)) = (point.sub(c1).unit(), point.sub(c2).unit()) else {
                    continue;
                };
                if Piece::arc_holds(f1, t1, w1, m1) && Piece::arc_holds(f2, t2, w2, m2) {
                    out.push((point, m1, m2));
                }
            }
        }
    }
}

/// The point of a region's core hull under `point` of piece `piece`.
fn core_under(piece: &Piece, point: D) -> D {
    match *piece {
        Piece::Edge { normal, radius, .. } => point.sub(normal.scale(radius)),
        Piece::Arc { centre, .. } => centre,
    }
}

/// The points of one piece that may be nearest the origin: its own nearest point (with the
/// outward normal there) and its ends.
fn own_candidates(piece: &Piece, out: &mut Vec<(D, D, D)>) {
    let origin = D { x: 0.0, y: 0.0 };
    match *piece {
        Piece::Edge { a, b, normal, .. } => {
            out.push((closest_on_segment(origin, a, b), normal, normal));
            out.push((a, normal, normal));
            out.push((b, normal, normal));
        }
        Piece::Arc {
            centre,
            radius,
            from,
            to,
            whole,
        } => {
            let w = origin.sub(centre).unit().unwrap_or(from);
            if Piece::arc_holds(from, to, whole, w) {
                out.push((centre.add(w.scale(radius)), w, w));
            }
            if !whole {
                out.push((centre.add(from.scale(radius)), from, from));
                out.push((centre.add(to.scale(radius)), to, to));
            }
        }
    }
}

/// The smallest push out of the union of `regions` (see the module docs); `None` when the
/// origin is strictly inside none of them (A clear of every child, or only touching).
pub(crate) fn smallest_push(regions: &[Region]) -> Option<Push> {
    let scale = regions.iter().map(Region::magnitude).fold(1.0, f64::max);
    // Inside by more than this, against the rounding of the crossings.
    let slack = 1e-11 * scale;
    let origin = D { x: 0.0, y: 0.0 };
    if !regions.iter().any(|r| r.strictly_contains(origin, slack)) {
        return None;
    }
    let pieces: Vec<Vec<Piece>> = regions.iter().map(Region::pieces).collect();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut found: Vec<(D, D, D)> = Vec::new();
    for (i, own) in pieces.iter().enumerate() {
        for piece in own {
            found.clear();
            own_candidates(piece, &mut found);
            candidates.extend(found.iter().map(|&(point, n1, n2)| Candidate {
                point,
                normals: (n1, n2),
                cores: (core_under(piece, point), core_under(piece, point)),
                on: (i, i),
            }));
            for (j, others) in pieces.iter().enumerate().skip(i + 1) {
                for other in others {
                    found.clear();
                    crossings(piece, other, &mut found);
                    candidates.extend(found.iter().map(|&(point, n1, n2)| Candidate {
                        point,
                        normals: (n1, n2),
                        cores: (core_under(piece, point), core_under(other, point)),
                        on: (i, j),
                    }));
                }
            }
        }
    }
    let mut best: Option<(f64, Candidate)> = None;
    for candidate in candidates {
        let distance = candidate.point.length();
        if best.is_some_and(|(b, _)| distance >= b) {
            continue;
        }
        let covered = regions.iter().enumerate().any(|(k, region)| {
            k != candidate.on.0
                && k != candidate.on.1
                && region.strictly_contains(candidate.point, slack)
        });
        if !covered {
            best = Some((distance, candidate));
        }
    }
    let (distance, candidate) = best?;
    let (n1, n2) = candidate.normals;
    let normal = if distance > slack {
        candidate.point.scale(1.0 / distance)
    } else {
        n1.add(n2).unit().unwrap_or(n1)
    };
    // At a crossing, the region whose boundary there faces most along the push.
    let (region, core) = if normal.dot(n2) > normal.dot(n1) {
        (candidate.on.1, candidate.cores.1)
    } else {
        (candidate.on.0, candidate.cores.0)
    };
    let (child_core, a_core) = regions[region].split(core);
    Some(Push {
        translation: candidate.point.to_vec2(),
        normal: normal.to_vec2(),
        depth: distance as f32,
        region,
        cores: (child_core.to_vec2(), a_core.to_vec2()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(centre: Vec2, half: f32) -> Vec<Vec2> {
        vec![
            centre + Vec2::new(-half, -half),
            centre + Vec2::new(half, -half),
            centre + Vec2::new(half, half),
            centre + Vec2::new(-half, half),
        ]
    }

    #[test]
    fn a_box_across_the_seam_of_two_boxes_is_pushed_up() {
        // Two boxes 2 × 1 with their seam at x = 0, top at y = 0.5; a box 0.25 wide, 1 tall,
        // its bottom at y = 0.35.
        let left = [
            Vec2::new(-2.0, -0.5),
            Vec2::new(0.0, -0.5),
            Vec2::new(0.0, 0.5),
            Vec2::new(-2.0, 0.5),
        ];
        let right: Vec<Vec2> = left.iter().map(|p| *p + Vec2::new(2.0, 0.0)).collect();
        let a = [
            Vec2::new(-0.13, 0.35),
            Vec2::new(0.12, 0.35),
            Vec2::new(0.12, 1.35),
            Vec2::new(-0.13, 1.35),
        ];
        let regions = [Region::new(&left, &a, 0.0), Region::new(&right, &a, 0.0)];
        let push = smallest_push(&regions).unwrap();
        assert!((push.normal - Vec2::Y).length() < 1e-6, "{push:?}");
        assert!((push.depth - 0.15).abs() < 1e-6, "{push:?}");
    }

    #[test]
    fn a_circle_in_a_concave_corner_is_pushed_into_the_corner() {
        // Floor below y = 0, wall left of x = 0; a circle of radius 0.5 at (0.4, 0.3).
        let floor = square(Vec2::new(5.0, -5.0), 5.0);
        let wall = square(Vec2::new(-5.0, 5.0), 5.0);
        let a = [Vec2::new(0.4, 0.3)];
        let regions = [Region::new(&floor, &a, 0.5), Region::new(&wall, &a, 0.5)];
        let push = smallest_push(&regions).unwrap();
        assert!(
            (push.translation - Vec2::new(0.1, 0.2)).length() < 1e-6,
            "{push:?}"
        );
    }

    #[test]
    fn apart_shapes_have_no_push() {
        let a = [Vec2::new(0.0, 3.0)];
        let regions = [Region::new(&square(Vec2::ZERO, 1.0), &a, 0.5)];
        assert!(smallest_push(&regions).is_none());
    }
}
