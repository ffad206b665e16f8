//! Compounds and chains at the edges a game reaches: touching, resting (0 to 1e-6 deep), tilted
//! (1e-8 to 1e-3 rad), size ratios up to 1e6 and 1e4 to 1e6 from the origin, against exact
//! `f64` answers: a compound's answer is its children's best ([`manifold_common::exact`]'s
//! `deepest`), a chain's is its segments' under the one-sided and no-ghost rules of
//! [`Chain`]'s docs, and a polygon decomposed by [`Compound::from_concave`] answers as the
//! original outline does.
//!
//! Covered: compound manifolds (depth, children, points on both surfaces), distances,
//! overlaps, ray casts and linear casts; rays through chain joints; shapes resting on,
//! touching and sunk into straight chains (face normal, depth); casts sliding along straight
//! and convexly bending chains across their joints (no ghost stop); `from_concave` on
//! outlines with collinear, nearly collinear and spike corners (area, containment, distances,
//! rays).

use crate::manifold_common::exact::{cores, deepest, signed_distance};
use crate::support::vec64::place64;
use crate::support::{assert_no_failures, bisect, Rng};

use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Shape};
use collide2d::{collide, distance, overlaps, Ray, Rot, Transform, Vec2};

/// A unit vector at `angle`.
fn unit(angle: f32) -> Vec2 {
    Rot::from_angle(angle).rotate(Vec2::X)
}

/// The settings every probe draws its scale and place from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Setting {
    /// Sizes 0.2 to 5, within 50 of the origin.
    Near,
    /// Placed 1e4 to 1e6 from the origin.
    Far,
    /// One side 1e-3 across, the other 1e3.
    HugeRatio,
}

const SETTINGS: [Setting; 3] = [Setting::Near, Setting::Far, Setting::HugeRatio];

/// Where a setting puts things.
fn position(setting: Setting, rng: &mut Rng) -> Vec2 {
    match setting {
        Setting::Far => unit(rng.angle()) * rng.log_size(1e4, 1e6),
        _ => rng.point(50.0),
    }
}

/// Rounding allowance for coordinates up to `far` from the origin: 8 `f32` ulps.
fn ulps(far: f32) -> f64 {
    8.0 * f64::from(f32::EPSILON) * f64::from(far)
}

// ---------------------------------------------------------------------------------------------
// Chains and rays.

/// A random open or closed chain of `count` segments of about `length`, turning by up to
/// `bend` radians at each joint (to the left, the solid side, when `convex`).
fn wiggly_chain(rng: &mut Rng, count: usize, length: f32, bend: f32, convex: bool) -> Vec<Vec2> {
    let mut heading = rng.angle();
    let mut at = Vec2::ZERO;
    let mut points = vec![at];
    for _ in 0..count {
        at += unit(heading) * length * rng.range(0.5, 1.5);
        points.push(at);
        let turn = rng.range(0.0, bend);
        heading += if convex || rng.chance(0.5) {
            turn
        } else {
            -turn
        };
    }
    points
}

/// Rays at a chain placed by `xf`: through one of its interior vertices from the front of
/// both segments (must hit there), along a segment (passes or hits a neighbour, never the
/// segment itself), or from behind a segment (never hits that segment first).
#[test]
fn rays_through_chain_vertices_hit_and_from_behind_pass() {
    let mut rng = Rng(0xc4a1_0001);
    let mut failures = Vec::new();
    let mut count = 0;
    for setting in SETTINGS {
        for case in 0..400 {
            let length = match setting {
                Setting::HugeRatio => 1e3,
                _ => rng.log_size(0.2, 5.0),
            };
            let bend = if rng.chance(0.3) { 0.0 } else { 0.8 };
            let convex = rng.chance(0.5);
            let points = wiggly_chain(&mut rng, 6, length, bend, convex);
            let Ok(chain) = Chain::open(&points) else {
                continue;
            };
            let xf = Transform::new(position(setting, &mut rng), rng.angle());
            let shape = Shape::from(chain.clone());
            let far = xf.p.abs().max_element() + 10.0 * length;
            let tolerance = 1e-4 * f64::from(length) + ulps(far);
            // An interior vertex whose two segments both face the ray.
            let vertex = 1 + rng.below(chain.segment_count() - 1);
            let (n0, n1) = (
                xf.rotate(chain.normals()[vertex - 1]),
                xf.rotate(chain.normals()[vertex]),
            );
            let target = xf.apply(chain.vertices()[vertex]);
            let outward = (n0 + n1).normalize_or_zero();
            if outward == Vec2::ZERO {
                continue;
            }
            let spread = rng.range(-0.8, 0.8);
            let direction = -Rot::from_angle(spread).rotate(outward);
            if direction.dot(n0) > -1e-2 || direction.dot(n1) > -1e-2 {
                continue;
            }
            let reach = length * rng.range(0.1, 3.0);
            // Aimed a little behind the vertex, so the exact ray crosses the chain there by more
            // than the tolerance.
            let aim = target - outward * (4.0 * tolerance) as f32;
            let ray = Ray::new(aim - direction * reach, direction, 2.0 * reach).unwrap();
            // Counted only where the exact answer stays a hit with the ray moved sideways by
            // the tolerance either way (else rounding of the placement decides).
            let side = ray.direction.perp() * tolerance as f32;
            let robust = [side, -side].iter().all(|&offset| {
                let moved = Ray::new(ray.origin + offset, ray.direction, ray.max_distance).unwrap();
                exact_chain_ray(&chain, &xf, &moved).is_some()
            });
            if !robust {
                continue;
            }
            count += 1;
            match shape.ray_cast(&xf, &ray) {
                None => failures.push(format!(
                    "{setting:?} case {case}: {ray:?} aimed at vertex {vertex} {target:?} misses {points:?} at {xf:?}; exact {:?}",
                    exact_chain_ray(&chain, &xf, &ray)
                )),
                Some(hit) => {
                    // Nothing else of the chain is in the way of a vertex seen from outside
                    // a convex-ish neighbourhood, so the hit is at the vertex (or earlier on
                    // another segment, which the exact check below accepts).
                    let earliest = exact_chain_ray(&chain, &xf, &ray);
                    let wrong = earliest.is_none_or(|(t, _)| {
                        (f64::from(hit.distance) - t).abs() > tolerance
                    });
                    if wrong {
                        failures.push(format!(
                            "{setting:?} case {case}: {ray:?} at vertex {vertex}: {hit:?}, exact {earliest:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(count > 900, "only {count} rays checked");
    assert_no_failures(&failures, count, 8);
}

/// The exact first hit of a ray on a chain's segments from their front sides, in `f64`:
/// `(distance, segment)`; a ray parallel to a segment does not hit it.
fn exact_chain_ray(chain: &Chain, xf: &Transform, ray: &Ray) -> Option<(f64, usize)> {
    let o = [f64::from(ray.origin.x), f64::from(ray.origin.y)];
    let d = [f64::from(ray.direction.x), f64::from(ray.direction.y)];
    let length = d[0].hypot(d[1]);
    let d = [d[0] / length, d[1] / length];
    let mut best: Option<(f64, usize)> = None;
    for i in 0..chain.segment_count() {
        let segment = chain.segment(i).unwrap();
        let (a, b) = (place64(xf, segment.a()), place64(xf, segment.b()));
        let e = [b[0] - a[0], b[1] - a[1]];
        // Right normal (unnormalised): (e.y, -e.x).
        let n = [e[1], -e[0]];
        let approach = n[0] * d[0] + n[1] * d[1];
        if approach >= 0.0 {
            continue;
        }
        let t = (n[0] * (a[0] - o[0]) + n[1] * (a[1] - o[1])) / approach;
        if t < 0.0 || t > f64::from(ray.max_distance) {
            continue;
        }
        let p = [o[0] + d[0] * t - a[0], o[1] + d[1] * t - a[1]];
        let along = (p[0] * e[0] + p[1] * e[1]) / (e[0] * e[0] + e[1] * e[1]);
        if (0.0..=1.0).contains(&along) && best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, i));
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------
// Compounds against convex shapes and compounds.

/// A random convex shape about `size` across around `offset`.
fn convex(rng: &mut Rng, size: f32, offset: Vec2) -> Shape {
    let half = 0.5 * size;
    let axis = unit(rng.angle());
    match rng.below(4) {
        0 => Shape::from(Circle::new(offset, half * rng.range(0.5, 1.0)).unwrap()),
        1 => {
            let d = axis * half * rng.range(0.3, 0.7);
            Shape::from(Capsule::new(offset - d, offset + d, half * rng.range(0.1, 0.4)).unwrap())
        }
        2 => Shape::from(
            Polygon::rect(size * rng.range(0.3, 1.0), size * rng.range(0.3, 1.0)).unwrap(),
        ),
        _ => {
            let count = 3 + rng.below(6);
            let points: Vec<Vec2> = (0..count)
                .map(|_| offset + unit(rng.angle()) * half * rng.range(0.6, 1.0))
                .collect();
            let polygon =
                Polygon::hull(&points).unwrap_or_else(|_| Polygon::regular(count, half).unwrap());
            if rng.chance(0.3) {
                Shape::from(polygon.with_radius(half * rng.range(0.02, 0.3)).unwrap())
            } else {
                Shape::from(polygon)
            }
        }
    }
}

/// A compound of one to four convex children about `size` across, each placed by its own
/// transform (overlapping, touching or apart), or a convex shape when `compound` is false.
fn body(rng: &mut Rng, size: f32, compound: bool) -> Shape {
    if !compound {
        return convex(rng, size, Vec2::ZERO);
    }
    let count = 1 + rng.below(4);
    let children = (0..count)
        .map(|_| {
            let child_size = size * rng.range(0.3, 0.6);
            let xf = Transform::new(rng.point(0.3 * size), rng.angle());
            (xf, convex(rng, child_size, Vec2::ZERO))
        })
        .collect();
    Shape::from(Compound::new(children).unwrap())
}

fn extent(shape: &Shape) -> f32 {
    shape.aabb(&Transform::IDENTITY).extents().max_element() * 2.0
}

/// The smallest child (or the shape) across, for the tolerance.
fn smallest_part(shape: &Shape) -> f32 {
    match shape {
        Shape::Compound(compound) => compound
            .children()
            .iter()
            .map(|(_, child)| extent(child))
            .fold(f32::INFINITY, f32::min),
        _ => extent(shape),
    }
}

struct Placed {
    a: Shape,
    xf_a: Transform,
    b: Shape,
    xf_b: Transform,
}

impl std::fmt::Debug for Placed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} at {:?} / {:?} at {:?}",
            self.a, self.xf_a, self.b, self.xf_b
        )
    }
}

impl Placed {
    fn tolerance(&self) -> f64 {
        let far = self
            .xf_a
            .p
            .abs()
            .max_element()
            .max(self.xf_b.p.abs().max_element())
            + extent(&self.a).max(extent(&self.b));
        1e-4 * f64::from(smallest_part(&self.a).min(smallest_part(&self.b))) + ulps(far)
    }
    fn local(&self, p: Vec2) -> [f64; 2] {
        [
            f64::from(p.x) - f64::from(self.xf_a.p.x),
            f64::from(p.y) - f64::from(self.xf_a.p.y),
        ]
    }
    /// The exact deepest child pair: answer, indices, lead over the next pair.
    fn exact(&self) -> (crate::manifold_common::exact::Exact, (u32, u32), f64) {
        let origin = self.xf_a.p;
        deepest(
            &cores(&self.a, &self.xf_a, origin),
            &cores(&self.b, &self.xf_b, origin),
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Depth {
    Touching,
    Resting,
    Tilted,
    General,
}

/// A (compound or convex) pair with at least one compound, B pushed along a random direction
/// from A until the exact deepest child pair is the wanted depth; resting and tilted pairs
/// turn B so one of its faces meets the nearest child's face (tilted by 1e-8 to 1e-3 rad).
fn place_compounds(rng: &mut Rng, setting: Setting, depth: Depth) -> Placed {
    let (mut size_a, mut size_b) = (rng.log_size(0.2, 5.0), rng.log_size(0.2, 5.0));
    if setting == Setting::HugeRatio {
        (size_a, size_b) = if rng.chance(0.5) {
            (1e-3, 1e3)
        } else {
            (1e3, 1e-3)
        };
    }
    let which = rng.below(3);
    let a = body(rng, size_a, which != 1);
    let b = body(rng, size_b, which != 0);
    let xf_a = Transform::new(position(setting, rng), rng.angle());
    let direction = unit(rng.angle());
    let mut q = Rot::from_angle(rng.angle());
    if matches!(depth, Depth::Resting | Depth::Tilted) {
        // Face B's first face against the direction, so flat faces meet flat faces often.
        let face_b = match &b {
            Shape::Polygon(p) => p.normals()[0],
            Shape::Compound(c) => match &c.children()[0] {
                (xf, Shape::Polygon(p)) => xf.rotate(p.normals()[0]),
                _ => Vec2::X,
            },
            _ => Vec2::X,
        };
        let face_a = match &a {
            Shape::Polygon(p) => xf_a.rotate(p.normals()[0]),
            Shape::Compound(c) => match &c.children()[0] {
                (xf, Shape::Polygon(p)) => xf_a.rotate(xf.rotate(p.normals()[0])),
                _ => direction,
            },
            _ => direction,
        };
        let tilt = if depth == Depth::Tilted {
            rng.log_size(1e-8, 1e-3) * if rng.chance(0.5) { 1.0 } else { -1.0 }
        } else {
            0.0
        };
        let angle = (-face_a).y.atan2((-face_a).x) + tilt - face_b.y.atan2(face_b.x);
        q = Rot::from_angle(angle);
    }
    let small = smallest_part(&a).min(smallest_part(&b));
    let wanted = match depth {
        Depth::Touching => 0.0,
        Depth::Resting => f64::from(small) * rng.range_f64(0.0, 1e-6),
        Depth::Tilted => f64::from(small) * rng.range_f64(-1e-6, 1e-6),
        Depth::General => f64::from(small) * rng.range_f64(-0.1, 0.1),
    };
    let at = |s: f64| Transform {
        p: xf_a.p + direction * s as f32,
        q,
    };
    let depth_at = |s: f64| {
        let origin = xf_a.p;
        deepest(&cores(&a, &xf_a, origin), &cores(&b, &at(s), origin))
            .0
            .depth
    };
    let mut low = 0.0;
    if depth_at(low) >= wanted {
        let high = 2.0 * f64::from(extent(&a) + extent(&b));
        (low, _) = bisect(low, high, 70, |s| depth_at(s) >= wanted);
    }
    Placed {
        xf_b: at(low),
        a,
        xf_a,
        b,
    }
}

const DEPTHS: [Depth; 4] = [
    Depth::Touching,
    Depth::Resting,
    Depth::Tilted,
    Depth::General,
];

fn probe_compounds(
    seed: u64,
    per: usize,
    mut check: impl FnMut(&Placed, &mut Rng) -> Option<String>,
) {
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut count = 0;
    for setting in SETTINGS {
        for depth in DEPTHS {
            for case in 0..per {
                let placed = place_compounds(&mut rng, setting, depth);
                count += 1;
                if let Some(message) = check(&placed, &mut rng) {
                    failures.push(format!(
                        "{setting:?} {depth:?} case {case}: {message}\n  {placed:?}"
                    ));
                }
            }
        }
    }
    assert_no_failures(&failures, count, 6);
}

/// `collide` against the deepest exact child pair: present exactly when that pair overlaps
/// beyond the tolerance, as deep, on the right children when the pair leads by more than
/// the tolerance, its points on those children's surfaces.
#[test]
fn compound_manifolds_are_their_deepest_child_pair() {
    probe_compounds(0xc4a1_0002, 60, |placed, _| {
        let m = collide(&placed.a, &placed.xf_a, &placed.b, &placed.xf_b);
        let (truth, (child_a, child_b), lead) = placed.exact();
        let tolerance = placed.tolerance();
        if m.is_empty() {
            return (truth.depth > tolerance).then(|| format!("no contact, exact {truth:?}"));
        }
        if truth.depth < -tolerance {
            return Some(format!("contact {m:?}, exact {truth:?}"));
        }
        if (f64::from(m.max_penetration()) - truth.depth).abs() > 2.0 * tolerance {
            return Some(format!(
                "depth {}, exact {truth:?} ({m:?})",
                m.max_penetration()
            ));
        }
        if lead > 4.0 * tolerance && (m.child_a, m.child_b) != (child_a, child_b) {
            return Some(format!(
                "children {:?}, exact {:?} leading by {lead:e} ({m:?})",
                (m.child_a, m.child_b),
                (child_a, child_b)
            ));
        }
        let origin = placed.xf_a.p;
        let cores_a = cores(&placed.a, &placed.xf_a, origin);
        let cores_b = cores(&placed.b, &placed.xf_b, origin);
        let (Some(core_a), Some(core_b)) = (
            cores_a.get(m.child_a as usize),
            cores_b.get(m.child_b as usize),
        ) else {
            return Some(format!("children out of range: {m:?}"));
        };
        let n = [f64::from(m.normal.x), f64::from(m.normal.y)];
        for point in m.points() {
            let p = placed.local(point.point);
            let half = 0.5 * f64::from(point.penetration);
            let on_a = [p[0] + n[0] * half, p[1] + n[1] * half];
            let on_b = [p[0] - n[0] * half, p[1] - n[1] * half];
            let (off_a, off_b) = (signed_distance(core_a, on_a), signed_distance(core_b, on_b));
            if off_a.abs().max(off_b.abs()) > 2.0 * tolerance {
                return Some(format!(
                    "point {point:?} {off_a:e} off A, {off_b:e} off B ({m:?})"
                ));
            }
        }
        None
    })
}

/// `distance` and `overlaps` against the nearest exact child pair.
#[test]
fn compound_distances_are_their_nearest_child_pair() {
    probe_compounds(0xc4a1_0003, 60, |placed, _| {
        let out = distance(&placed.a, &placed.xf_a, &placed.b, &placed.xf_b);
        let (truth, _, _) = placed.exact();
        let tolerance = placed.tolerance();
        let expected = (-truth.depth).max(0.0);
        if (f64::from(out.distance) - expected).abs() > tolerance {
            return Some(format!("distance {out:?}, exact {expected:e}"));
        }
        let overlapping = overlaps(&placed.a, &placed.xf_a, &placed.b, &placed.xf_b);
        if overlapping != (truth.depth >= 0.0) && truth.depth.abs() > tolerance {
            return Some(format!("overlaps {overlapping}, exact {truth:?}"));
        }
        if out.distance > 0.0 {
            let origin = placed.xf_a.p;
            let near = |cs: &[crate::manifold_common::exact::Core], p: [f64; 2]| {
                cs.iter()
                    .map(|c| signed_distance(c, p))
                    .fold(f64::INFINITY, f64::min)
            };
            let (pa, pb) = (placed.local(out.point_a), placed.local(out.point_b));
            let off_a = near(&cores(&placed.a, &placed.xf_a, origin), pa);
            let off_b = near(&cores(&placed.b, &placed.xf_b, origin), pb);
            let gap = (pb[0] - pa[0]).hypot(pb[1] - pa[1]);
            if off_a.abs().max(off_b.abs()) > tolerance
                || (gap - f64::from(out.distance)).abs() > tolerance
            {
                return Some(format!(
                    "closest points {off_a:e}, {off_b:e} off, {gap:e} apart: {out:?}"
                ));
            }
        }
        None
    })
}

// ---------------------------------------------------------------------------------------------
// Sliding along chains.

/// A floor chain along local y = 0 (straight, every vertex exactly on the line) or bending
/// convexly (each joint turning by 1e-6 to 0.3 rad towards the solid, away from a shape
/// sliding on it), facing up, run right to left from `x = 0`, with segments about `length`.
fn floor(rng: &mut Rng, count: usize, length: f32, straight: bool) -> Vec<Vec2> {
    let mut at = Vec2::ZERO;
    let mut heading = std::f32::consts::PI;
    let mut points = vec![at];
    for _ in 0..count {
        let step = length * rng.range(0.2, 1.5);
        at = if straight {
            Vec2::new(at.x - step, 0.0)
        } else {
            at + unit(heading) * step
        };
        points.push(at);
        if !straight {
            // Running towards −x with the solid below (on the left), a left turn heads down.
            heading += rng.log_size(1e-6, 0.3);
        }
    }
    points
}

/// The sliding body: a box, a circle, a capsule, a rounded box or a polygon, `size` across.
fn slider(rng: &mut Rng, size: f32) -> Shape {
    let half = 0.5 * size;
    match rng.below(5) {
        0 => Shape::from(Polygon::rect(size, size * rng.range(0.5, 1.5)).unwrap()),
        1 => Shape::from(Circle::with_radius(half).unwrap()),
        2 => Shape::from(
            Capsule::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0), 0.5 * half).unwrap(),
        ),
        3 => Shape::from(
            Polygon::rect(size, size)
                .unwrap()
                .with_radius(half * rng.range(0.02, 0.3))
                .unwrap(),
        ),
        _ => Shape::from(Polygon::regular(3 + rng.below(6), half).unwrap()),
    }
}

/// A shape resting on a straight chain (touching, or up to 1e-6 of its size above it) and
/// cast along the segment it rests on, or tilted away by up to 1e-3 rad, across several joints,
/// never comes closer to the chain than where it starts: a hit after the start is a ghost
/// collision with a joint. Near the origin, far out (where a hit is only checked when the
/// sweep's rounded end does not lean into the floor) and at size ratios of 1e6.
#[test]
fn slides_along_straight_chains_have_no_ghost_hits() {
    slide_probe(0xc4a1_0004, true);
}

/// The same slides along chains bending convexly (away from the shape) at every joint, by
/// 1e-6 to 0.3 rad: a shape resting on one segment reaches behind the next segment's line
/// extended back past the joint, and a cast along the segment stopped there.
#[test]
fn slides_along_convex_chains_have_no_ghost_hits() {
    slide_probe(0xc4a1_0005, false);
}

fn slide_probe(seed: u64, straight: bool) {
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut count = 0;
    for setting in SETTINGS {
        for case in 0..300 {
            let (size, length) = match setting {
                Setting::HugeRatio if rng.chance(0.5) => (1e-3, 1e3),
                Setting::HugeRatio => (1e3, 1e-3 * rng.range(1.0, 10.0)),
                _ => (rng.log_size(0.2, 2.0), rng.log_size(0.05, 3.0)),
            };
            let points = floor(&mut rng, 12, length, straight);
            let Ok(chain) = Chain::open(&points) else {
                continue;
            };
            let body = slider(&mut rng, size);
            // Rest on segment `index`, somewhere along it, turned to its slope.
            let index = rng.below(chain.segment_count() / 2);
            let (start, end) = (points[index], points[index + 1]);
            let along = (end - start).normalize();
            let up = chain.normals()[index];
            let base = start + (end - start) * rng.range(0.0, 1.0);
            let turn = Rot::from_angle(up.y.atan2(up.x) - std::f32::consts::FRAC_PI_2);
            // The body's lowest point (a vertex, or the bottom of its rounding) put on `base`.
            let lowest = turn.rotate(body_lowest(&body, -turn.rotate_inv(up)));
            let gap = if rng.chance(0.3) {
                0.0
            } else {
                size * rng.range(0.0, 1e-6)
            };
            let center = base - lowest + up * gap;
            let xf_chain = Transform::new(position(setting, &mut rng), rng.angle());
            let xf_body = xf_chain.mul(&Transform { p: center, q: turn });
            // Along the segment, towards the chain's end, possibly tilted up by ≤ 1e-3 rad.
            let tilt = if rng.chance(0.5) {
                0.0
            } else {
                rng.log_size(1e-8, 1e-3)
            };
            let motion = Rot::from_angle(-tilt).rotate(along) * length * rng.range(2.0, 6.0);
            let delta = xf_chain.rotate(motion);
            let sweep = Sweep::linear(&xf_body, delta);
            // Far out, the sweep's end rounds to a whole ulp of its coordinates: the motion it
            // stands for may lean into the segment's line; then a hit is a real one.
            let moved = [
                f64::from(sweep.center_end.x) - f64::from(sweep.center_start.x),
                f64::from(sweep.center_end.y) - f64::from(sweep.center_start.y),
            ];
            let (c, s) = (f64::from(xf_chain.q.c), f64::from(xf_chain.q.s));
            let up64 = [
                c * f64::from(up.x) - s * f64::from(up.y),
                s * f64::from(up.x) + c * f64::from(up.y),
            ];
            // And its start rounds too: a shape placed behind the line by more than the cast's
            // tolerance starts overlapping, where sliding on may stop or not.
            let bottom = place64(
                &xf_body,
                body_lowest(&body, xf_body.rotate_inv(-xf_chain.rotate(up))),
            );
            let on_line = place64(&xf_chain, start);
            let start_gap = (bottom[0] - on_line[0]) * up64[0] + (bottom[1] - on_line[1]) * up64[1];
            let cast_tolerance = f64::from((1e-4 * size.min(length)).max(1e-6));
            if moved[0] * up64[0] + moved[1] * up64[1] < 0.0 || start_gap < -cast_tolerance {
                continue;
            }
            let hit = shape_cast(
                &body,
                &sweep,
                &Shape::from(chain.clone()),
                &Sweep::fixed(&xf_chain),
                CastOptions {
                    tolerance: cast_tolerance as f32,
                    ..CastOptions::default()
                },
            );
            count += 1;
            if let Some(hit) = hit.filter(|hit| hit.t > 0.0) {
                let body = match &body {
                    Shape::Polygon(p) => {
                        format!("polygon {:?} radius {}", p.vertices(), p.radius())
                    }
                    other => format!("{other:?}"),
                };
                failures.push(format!(
                    "{setting:?} case {case} ({}): {body} at {xf_body:?} by {delta:?} hits {hit:?}; chain {points:?} at {xf_chain:?}",
                    if straight { "straight" } else { "convex" }
                ));
            }
        }
    }
    assert!(count > 400, "only {count} slides checked");
    assert_no_failures(&failures, count, 6);
}

/// The point of a convex shape (its own frame) farthest along the unit direction `d`.
fn body_lowest(shape: &Shape, d: Vec2) -> Vec2 {
    let (points, radius): (Vec<Vec2>, f32) = match shape {
        Shape::Circle(c) => (vec![c.center()], c.radius()),
        Shape::Capsule(c) => (vec![c.a(), c.b()], c.radius()),
        Shape::Polygon(p) => (p.vertices().to_vec(), p.radius()),
        _ => unreachable!("convex sliders only"),
    };
    // Ties (a flat bottom) give the middle of the tied points.
    let reach = points
        .iter()
        .map(|v| v.dot(d))
        .fold(f32::NEG_INFINITY, f32::max);
    let tied: Vec<Vec2> = points
        .into_iter()
        .filter(|v| v.dot(d) >= reach - 1e-6 * reach.abs())
        .collect();
    let middle = tied.iter().fold(Vec2::ZERO, |sum, v| sum + *v) / tied.len() as f32;
    middle + d * radius
}

/// A box and a ball resting on a straight chain (touching, or up to the cast's tolerance
/// above it) and cast along it: the box stopped where its leading corner met the next joint
/// (t = 0.1167 at x = −1 for every gap up to 1e-4), the ball at a later joint (t = 0.533 at
/// x = −2 for a gap of 1e-7), though neither ever comes closer to the floor.
#[test]
fn resting_shapes_slide_over_flat_joints_without_stopping() {
    let floor: Vec<Vec2> = (0..5).map(|i| Vec2::new(-(i as f32), 0.0)).collect();
    let chain = Shape::from(Chain::open(&floor).unwrap());
    let fixed = Sweep::fixed(&Transform::IDENTITY);
    let bodies = [
        Shape::from(Polygon::rect(0.5, 0.5).unwrap()),
        Shape::from(Circle::with_radius(0.25).unwrap()),
    ];
    for body in &bodies {
        for gap in [0.0, 1e-7, 1e-6, 1e-5, 5e-5, 1e-4] {
            for rise in [0.0, 1e-4] {
                let start = Transform::new(Vec2::new(-0.4, 0.25 + gap), 0.0);
                let delta = Rot::from_angle(-rise).rotate(Vec2::new(-3.0, 0.0));
                let hit = shape_cast(
                    body,
                    &Sweep::linear(&start, delta),
                    &chain,
                    &fixed,
                    CastOptions::default(),
                );
                assert!(
                    hit.is_none(),
                    "{body:?} {gap} above, rising {rise}: {hit:?}"
                );
            }
        }
        // Moving into the floor at a slope of 1e-3 still stops on it at once.
        let start = Transform::new(Vec2::new(-0.4, 0.25), 0.0);
        let delta = Rot::from_angle(1e-3).rotate(Vec2::new(-3.0, 0.0));
        let hit = shape_cast(
            body,
            &Sweep::linear(&start, delta),
            &chain,
            &fixed,
            CastOptions::default(),
        );
        assert!(hit.is_some_and(|hit| hit.t == 0.0), "{body:?}: {hit:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Concave outlines split by `Compound::from_concave`.

/// A random simple (star-shaped) outline about `size` across around `center`: 5 to 24 corners
/// at sorted angles, some pushed out as thin spikes (1e-3 to 1e-5 of a turn wide, 3 to 10
/// times as long), with exactly collinear and nearly collinear (1e-7 to 1e-4 of the edge off
/// the line) points added on some edges.
fn concave_outline(rng: &mut Rng, size: f32, center: Vec2) -> Vec<[f64; 2]> {
    let count = 5 + rng.below(20);
    let mut angles: Vec<f64> = (0..count)
        .map(|_| rng.range_f64(0.0, std::f64::consts::TAU))
        .collect();
    angles.sort_by(f64::total_cmp);
    angles.dedup_by(|a, b| (*a - *b).abs() < 0.05);
    let half = 0.5 * f64::from(size);
    let mut corners: Vec<[f64; 2]> = Vec::new();
    for &angle in &angles {
        let radius = half * rng.range_f64(0.2, 1.0);
        if rng.chance(0.15) {
            // A spike: in at the base, far out at the tip, in again.
            let width = rng.range_f64(1e-5, 1e-3) * std::f64::consts::TAU;
            let tip = radius * rng.range_f64(3.0, 10.0);
            corners.push([
                radius * (angle - width).cos(),
                radius * (angle - width).sin(),
            ]);
            corners.push([tip * angle.cos(), tip * angle.sin()]);
            corners.push([
                radius * (angle + width).cos(),
                radius * (angle + width).sin(),
            ]);
        } else {
            corners.push([radius * angle.cos(), radius * angle.sin()]);
        }
    }
    let mut outline = Vec::new();
    for i in 0..corners.len() {
        let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
        outline.push(a);
        if rng.chance(0.2) {
            let s = rng.range_f64(0.2, 0.8);
            let off = if rng.chance(0.5) {
                0.0
            } else {
                rng.range_f64(-1e-4, 1e-4) * rng.range_f64(1e-3, 1.0)
            };
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            outline.push([a[0] + dx * s - dy * off, a[1] + dy * s + dx * off]);
        }
    }
    outline
        .into_iter()
        .map(|[x, y]| [x + f64::from(center.x), y + f64::from(center.y)])
        .collect()
}

/// Whether no two edges of the outline meet except neighbours at their shared corner, decided
/// exactly (orientations of `f32` points are exact in `f64`).
fn is_simple(outline: &[Vec2]) -> bool {
    let p = |i: usize| {
        let v = outline[i % outline.len()];
        [f64::from(v.x), f64::from(v.y)]
    };
    let turn = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).signum()
    };
    let on = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        c[0] >= a[0].min(b[0])
            && c[0] <= a[0].max(b[0])
            && c[1] >= a[1].min(b[1])
            && c[1] <= a[1].max(b[1])
    };
    let n = outline.len();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b, c, d) = (p(i), p(i + 1), p(j), p(j + 1));
            let neighbours = j == i + 1 || (i == 0 && j == n - 1);
            if neighbours {
                // Only the shared corner: the other ends must not fold back onto the edge.
                let (shared, x, y) = if j == i + 1 { (b, a, d) } else { (a, b, c) };
                if turn(x, shared, y) == 0.0 && (on(x, shared, y) || on(shared, y, x)) {
                    return false;
                }
                continue;
            }
            let (d1, d2, d3, d4) = (turn(c, d, a), turn(c, d, b), turn(a, b, c), turn(a, b, d));
            if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
                return false;
            }
            if (d1 == 0.0 && on(c, d, a))
                || (d2 == 0.0 && on(c, d, b))
                || (d3 == 0.0 && on(a, b, c))
                || (d4 == 0.0 && on(a, b, d))
            {
                return false;
            }
        }
    }
    true
}

/// Twice the signed area of an `f64` outline.
fn twice_area(points: &[[f64; 2]]) -> f64 {
    (0..points.len())
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum()
}

/// The signed distance from `p` to an `f64` outline (negative inside), exactly in `f64`.
fn outline_distance(points: &[[f64; 2]], p: [f64; 2]) -> f64 {
    let mut nearest = f64::INFINITY;
    let mut inside = false;
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
        let s = (((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
        nearest = nearest.min((p[0] - a[0] - ex * s).hypot(p[1] - a[1] - ey * s));
        if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < a[0] + (p[1] - a[1]) / ey * ex {
            inside = !inside;
        }
    }
    if inside {
        -nearest
    } else {
        nearest
    }
}

/// `from_concave` on random outlines with collinear points, nearly collinear points and thin
/// spikes, near the origin and 1e4 to 1e6 out: it accepts every one, its pieces cover the
/// outline's area, and points, distances and rays against the compound agree with the
/// outline itself beyond the tolerance.
#[test]
fn concave_outlines_split_into_pieces_that_answer_as_the_outline() {
    let mut rng = Rng(0xc4a1_0006);
    let mut failures = Vec::new();
    let mut count = 0;
    for setting in [Setting::Near, Setting::Far] {
        for case in 0..150 {
            let size = rng.log_size(0.2, 20.0);
            // The outline in its own frame, placed far out by the shape's transform.
            let center = position(setting, &mut rng);
            let xf = Transform::new(center, rng.angle());
            let local = concave_outline(&mut rng, size, Vec2::ZERO);
            let outline: Vec<Vec2> = local
                .iter()
                .map(|p| Vec2::new(p[0] as f32, p[1] as f32))
                .collect();
            // Compare with the outline as it is stored, placed in `f64`.
            let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
            let exact: Vec<[f64; 2]> = outline
                .iter()
                .map(|p| {
                    let (x, y) = (f64::from(p.x), f64::from(p.y));
                    [
                        c * x - s * y + f64::from(center.x),
                        s * x + c * y + f64::from(center.y),
                    ]
                })
                .collect();
            if !is_simple(&outline) {
                continue;
            }
            count += 1;
            let compound = match Compound::from_concave(&outline) {
                Ok(compound) => compound,
                Err(error) => {
                    failures.push(format!(
                        "{setting:?} case {case}: {error:?} for {outline:?}"
                    ));
                    continue;
                }
            };
            let far = center.abs().max_element() + 10.0 * size;
            let tolerance = 1e-4 * f64::from(size) + ulps(far);
            let area = 0.5 * twice_area(&exact).abs();
            let pieces = f64::from(compound.area());
            if (pieces - area).abs() > 1e-5 * area + tolerance * f64::from(size) * 4.0 {
                failures.push(format!(
                    "{setting:?} case {case}: pieces' area {pieces}, outline's {area}: {outline:?}"
                ));
                continue;
            }
            let shape = Shape::from(compound.clone());
            for _ in 0..20 {
                let p = center + rng.point(0.6 * size);
                let truth = outline_distance(&exact, [f64::from(p.x), f64::from(p.y)]);
                let inside = shape.contains(&xf, p);
                if truth.abs() > tolerance && inside != (truth < 0.0) {
                    failures.push(format!("{setting:?} case {case}: {p:?} inside {inside}, exact distance {truth:e}: {outline:?}"));
                    break;
                }
                if truth > tolerance {
                    let probe = Shape::from(Circle::new(p, 1e-3 * size).unwrap());
                    let out = distance(&shape, &xf, &probe, &Transform::IDENTITY);
                    let expected = truth - 1e-3 * f64::from(size);
                    if (f64::from(out.distance) - expected.max(0.0)).abs() > tolerance {
                        failures.push(format!("{setting:?} case {case}: distance from {p:?} {}, exact {expected:e}: {outline:?}", out.distance));
                        break;
                    }
                    // A ray from the point towards a random inside point meets the outline
                    // where its distance turns negative.
                    let aim = center + rng.point(0.3 * size);
                    if outline_distance(&exact, [f64::from(aim.x), f64::from(aim.y)]) < -tolerance {
                        let ray = Ray::new(p, aim - p, (aim - p).length()).unwrap();
                        let hit = shape.ray_cast(&xf, &ray);
                        let d = ray.direction.normalize();
                        let at = |t: f64| {
                            [
                                f64::from(p.x) + f64::from(d.x) * t,
                                f64::from(p.y) + f64::from(d.y) * t,
                            ]
                        };
                        match hit {
                            None => {
                                failures.push(format!("{setting:?} case {case}: {ray:?} misses though it ends inside: {outline:?}"));
                                break;
                            }
                            Some(hit) => {
                                let t = f64::from(hit.distance);
                                let off = outline_distance(&exact, at(t));
                                // Nothing of the outline deeper than the tolerance before it.
                                let steps = 200;
                                let before = (0..steps)
                                    .map(|k| {
                                        outline_distance(&exact, at(t * k as f64 / steps as f64))
                                    })
                                    .fold(f64::INFINITY, f64::min);
                                if off.abs() > tolerance || before < -tolerance {
                                    failures.push(format!("{setting:?} case {case}: {ray:?} hit {hit:?}, {off:e} off the outline, {before:e} before: {outline:?}"));
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert_no_failures(&failures, count, 6);
}

/// A simple outline with thin spikes (the widest 1e-3 of a turn across) that `from_concave`
/// rejected as `Collinear`: a spike's own piece is thinner than polygon welding allows
/// relative to that piece's size, though the split had found it strictly convex.
#[test]
fn thin_spikes_split_into_pieces() {
    let v = Vec2::new;
    let outline = [
        v(0.30799234, 0.34094658),
        v(0.263869, 0.49015856),
        v(0.07449466, 0.6863397),
        v(-0.014219269, 0.36124435),
        v(-0.2718079, 0.7026936),
        v(-2.5310774, 6.5273666),
        v(-2.0537224, 5.2965364),
        v(-0.27297506, 0.702241),
        v(-0.26490155, 0.6154822),
        v(-0.2428493, 0.37850675),
        v(-2.2816975, 3.5316365),
        v(-0.24523951, 0.37696248),
        v(-0.63624936, 0.38930458),
        v(-0.5846686, 0.19900012),
        v(-0.7367021, 0.11767563),
        v(-0.17980035, 0.007302947),
        v(-0.2788514, -0.032821134),
        v(-0.40956143, -0.29730505),
        v(-0.34127757, -0.28335324),
        v(-0.19118674, -0.2526866),
        v(-0.116160266, -0.38894188),
        v(-0.009160452, -0.23673373),
        v(0.13739607, -0.71882886),
        v(0.089314856, -0.3271755),
        v(0.06820864, -0.15548487),
        v(0.28991377, -0.6528755),
        v(0.06960436, -0.1548651),
        v(0.19975506, -0.30852684),
        v(0.45890754, -0.08762727),
        v(0.41181833, 0.04606066),
    ];
    assert!(is_simple(&outline));
    let compound = Compound::from_concave(&outline).unwrap();
    let exact: Vec<[f64; 2]> = outline
        .iter()
        .map(|p| [f64::from(p.x), f64::from(p.y)])
        .collect();
    let area = 0.5 * twice_area(&exact).abs();
    assert!(
        (f64::from(compound.area()) - area).abs() < 1e-6 * area,
        "{} against {area}",
        compound.area()
    );
    // The longest spike is part of the shape: the middle of its tip's corner triangle.
    let shape = Shape::from(compound);
    let inside = (outline[4] + outline[5] + outline[6]) / 3.0;
    assert!(outline_distance(&exact, [f64::from(inside.x), f64::from(inside.y)]) < 0.0);
    assert!(shape.contains(&Transform::IDENTITY, inside));
}

/// Ray casts at a compound against its children's exact entries (`line_extent` per child, the
/// nearest deciding): a ray that enters a child deeper than the tolerance hits, at that
/// child's entry within the tolerance (0 when it starts inside), with the right child index
/// when that child's entry leads the next by more than the tolerance.
#[test]
fn compound_rays_hit_their_nearest_child() {
    let mut entered = 0;
    probe_compounds(0xc4a1_0007, 40, |placed, rng| {
        let (shape, xf) = (&placed.a, &placed.xf_a);
        let size = extent(shape);
        let target = xf.p + rng.point(0.4 * size);
        let from = target + unit(rng.angle()) * size * rng.range(0.6, 3.0);
        let length = (target - from).length() * rng.range(0.5, 2.0);
        let ray = Ray::new(from, target - from, length).unwrap();
        let hit = shape.ray_cast(xf, &ray);
        let origin = xf.p;
        let o = placed.local(ray.origin);
        let d = ray.direction.normalize();
        let d = [f64::from(d.x), f64::from(d.y)];
        let max = f64::from(ray.max_distance);
        let far =
            xf.p.abs().max_element() + size + ray.origin.abs().max_element() + ray.max_distance;
        let tolerance = 1e-4 * f64::from(smallest_part(shape)) + ulps(far);
        // Each child's entry along the ray, if it enters within the ray's length.
        let mut entries: Vec<(f64, f64, usize)> = cores(shape, xf, origin)
            .iter()
            .enumerate()
            .filter_map(|(i, core)| {
                crate::manifold_common::exact::line_extent(core, o, d)
                    .filter(|&(low, high)| high >= 0.0 && low <= max)
                    .map(|(low, high)| (low.max(0.0), high.min(max) - low.max(0.0), i))
            })
            .collect();
        entries.sort_by(|a, b| a.0.total_cmp(&b.0));
        let firm = entries.iter().find(|&&(_, run, _)| run > tolerance);
        entered += usize::from(firm.is_some());
        match (hit, firm) {
            (None, Some(&(entry, run, child))) => Some(format!(
                "{ray:?} misses; child {child} entered at {entry:e} for {run:e}"
            )),
            (None, None) => None,
            (Some(hit), _) => {
                let Some(&(entry, _, child)) = entries.first() else {
                    return Some(format!("{ray:?} hit {hit:?}, exact none"));
                };
                let t = f64::from(hit.distance);
                if (t - entry).abs() > tolerance && firm.is_none_or(|f| (t - f.0).abs() > tolerance)
                {
                    return Some(format!(
                        "{ray:?} hit {hit:?}, exact entry {entry:e} of child {child}"
                    ));
                }
                let lead = entries.get(1).map_or(f64::INFINITY, |next| next.0 - entry);
                if lead > tolerance && hit.child as usize != child && t > 0.0 {
                    return Some(format!(
                        "{ray:?} hit {hit:?}, exact child {child} leading by {lead:e}"
                    ));
                }
                None
            }
        }
    });
    assert!(entered > 120, "only {entered} rays enter the compound");
}

/// Linear casts of a compound against a compound or convex shape: the hit time against the
/// exact gap along the path (the smallest over child pairs, each convex in time): no stepping
/// past a contact by more than the tolerance, no stop with a gap above it, no miss of a gap
/// that closes.
#[test]
fn compound_linear_casts_stop_at_the_first_child_contact() {
    let (mut checked, mut hits) = (0, 0);
    probe_compounds(0xc4a1_0008, 30, |placed, rng| {
        let small = smallest_part(&placed.a).min(smallest_part(&placed.b));
        let (truth, _, _) = placed.exact();
        let toward = truth.normal_or_x();
        let length = small * rng.log_size(0.5, 20.0);
        let delta = Rot::from_angle(rng.range(-1.2, 1.2)).rotate(toward) * length;
        // Start a whole step back, so the placed contact lies inside the step.
        let t0 = rng.range(0.2, 0.9);
        let start = Transform {
            p: placed.xf_a.p - delta * t0,
            q: placed.xf_a.q,
        };
        let options = CastOptions {
            tolerance: (1e-4 * small).max(1e-6),
            ..CastOptions::default()
        };
        let sweep = Sweep::linear(&start, delta);
        let hit = shape_cast(
            &placed.a,
            &sweep,
            &placed.b,
            &Sweep::fixed(&placed.xf_b),
            options,
        );
        let origin = placed.xf_a.p;
        let cores_b = cores(&placed.b, &placed.xf_b, origin);
        let gap_at = |t: f64| {
            let xf = Transform {
                p: start.p + delta * t as f32,
                q: start.q,
            };
            -deepest(&cores(&placed.a, &xf, origin), &cores_b).0.depth
        };
        let tolerance = placed.tolerance()
            + ulps(start.p.abs().max_element() + length)
            + f64::from(options.tolerance);
        let start_gap = gap_at(0.0);
        if start_gap < tolerance {
            return None; // starts touching: the convex probes' business
        }
        checked += 1;
        hits += usize::from(hit.is_some());
        // The first time the gap drops below −tolerance, by scanning (the gap is a minimum of
        // convex functions, so it may dip between samples: a bisection refines each dip).
        let steps = 400u32;
        let first_deep = (1..=steps)
            .map(|k| f64::from(k) / f64::from(steps))
            .find(|&t| gap_at(t) < -tolerance);
        match hit {
            None => first_deep.map(|t| format!("miss; gap {:e} at {t}", gap_at(t))),
            Some(hit) => {
                let t = f64::from(hit.t);
                let gap = gap_at(t);
                if gap < -tolerance {
                    return Some(format!("{hit:?} stepped in, gap {gap:e}"));
                }
                if hit.converged && gap > 2.0 * tolerance {
                    return Some(format!("{hit:?} stopped early, gap {gap:e}"));
                }
                if first_deep.is_some_and(|deep| deep + 1.0 / f64::from(steps) < t) {
                    return Some(format!("{hit:?} later than a contact at {first_deep:?}"));
                }
                None
            }
        }
    });
    assert!(
        checked > 200 && hits > 100,
        "{checked} casts checked, {hits} hits"
    );
}

/// Shapes resting on, touching or sunk into a straight chain (0 to 1e-6 and up to 10 % of
/// their size deep, turned by 0 or 1e-8 to 1e-3 rad), away from its ends: every manifold
/// `collide_all` reports has the face normal (no ghost normal from a joint), the deepest one
/// is as deep as the shape is below the line, and one is there whenever that depth is beyond
/// the tolerance. Near the origin, far out and at size ratios of 1e6 (a shape 1e-3 across on
/// segments 1e3 long).
#[test]
fn shapes_on_straight_chains_get_the_face_normal_and_depth() {
    let mut rng = Rng(0xc4a1_0009);
    let mut failures = Vec::new();
    let mut count = 0;
    for setting in SETTINGS {
        for case in 0..300 {
            // A shape far larger than the whole chain covers its open ends, whose vertex
            // normals are real: the huge ratio here is a small shape on long segments.
            let (size, length) = match setting {
                Setting::HugeRatio => (1e-3, 1e3),
                _ => (rng.log_size(0.2, 2.0), rng.log_size(0.05, 3.0)),
            };
            let points = floor(&mut rng, 16, length, true);
            let chain = Chain::open(&points).unwrap();
            let body = slider(&mut rng, size);
            let index = 4 + rng.below(8);
            let (start, end) = (points[index], points[index + 1]);
            let base = start + (end - start) * rng.range(0.0, 1.0);
            let tilt = if rng.chance(0.5) {
                0.0
            } else {
                rng.log_size(1e-8, 1e-3) * if rng.chance(0.5) { 1.0 } else { -1.0 }
            };
            let turn = Rot::from_angle(tilt);
            let lowest = turn.rotate(body_lowest(&body, turn.rotate_inv(-Vec2::Y)));
            let depth = match rng.below(3) {
                0 => 0.0,
                1 => size * rng.range(0.0, 1e-6),
                _ => size * rng.range(0.0, 0.1),
            };
            let center = base - lowest - Vec2::Y * depth;
            let xf_chain = Transform::new(position(setting, &mut rng), rng.angle());
            let xf_body = xf_chain.mul(&Transform { p: center, q: turn });
            // The exact depth below the line, from the body's placed transform in `f64`.
            let (c, s) = (f64::from(xf_chain.q.c), f64::from(xf_chain.q.s));
            let up = [-s, c];
            let bottom = {
                let d = xf_body.rotate_inv(-xf_chain.rotate(Vec2::Y));
                let p = body_lowest(&body, d);
                let (bc, bs) = (f64::from(xf_body.q.c), f64::from(xf_body.q.s));
                [
                    bc * f64::from(p.x) - bs * f64::from(p.y) + f64::from(xf_body.p.x),
                    bs * f64::from(p.x) + bc * f64::from(p.y) + f64::from(xf_body.p.y),
                ]
            };
            let line = [f64::from(xf_chain.p.x), f64::from(xf_chain.p.y)];
            let exact = -((bottom[0] - line[0]) * up[0] + (bottom[1] - line[1]) * up[1]);
            let far = xf_chain.p.abs().max_element() + 20.0 * length + size;
            let tolerance = 1e-4 * f64::from(size.min(length)) + ulps(far);
            let chain_shape = Shape::from(chain.clone());
            let mut manifolds = Vec::new();
            collide2d::query::collide_all(
                &chain_shape,
                &xf_chain,
                &body,
                &xf_body,
                0.0,
                &mut manifolds,
            );
            count += 1;
            let face = xf_chain.rotate(Vec2::Y);
            let describe = || {
                format!("{setting:?} case {case}: {body:?} at {xf_body:?} on {points:?} at {xf_chain:?}, exact depth {exact:e}: {manifolds:?}")
            };
            if let Some(ghost) = manifolds.iter().find(|m| (m.normal - face).length() > 1e-5) {
                failures.push(format!(
                    "normal {:?} off the face {face:?}; {}",
                    ghost.normal,
                    describe()
                ));
                continue;
            }
            let deepest = manifolds
                .iter()
                .map(|m| f64::from(m.max_penetration()))
                .fold(f64::NEG_INFINITY, f64::max);
            if manifolds.is_empty() {
                if exact > tolerance {
                    failures.push(format!("no contact; {}", describe()));
                }
            } else if (deepest - exact).abs() > tolerance {
                failures.push(format!("deepest {deepest:e}; {}", describe()));
            }
        }
    }
    assert_no_failures(&failures, count, 6);
}

/// A box resting on the first segment of a chain that bends down by 0.2 rad at x = −1 (a
/// convex joint) and cast along that segment, over the joint: it reaches behind the second
/// segment's line extended back, and stopped where its corner met the joint.
#[test]
fn resting_shapes_slide_over_convex_joints_without_stopping() {
    let chain = Shape::from(
        Chain::open(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(-1.0, 0.0),
            Vec2::new(-2.0, -0.2),
            Vec2::new(-3.0, -0.6),
        ])
        .unwrap(),
    );
    let fixed = Sweep::fixed(&Transform::IDENTITY);
    let crate_box = Shape::from(Polygon::rect(0.5, 0.5).unwrap());
    for gap in [0.0, 1e-7, 1e-5, 5e-5] {
        let start = Transform::new(Vec2::new(-0.4, 0.25 + gap), 0.0);
        let hit = shape_cast(
            &crate_box,
            &Sweep::linear(&start, Vec2::new(-2.0, 0.0)),
            &chain,
            &fixed,
            CastOptions::default(),
        );
        assert!(hit.is_none(), "{gap} above: {hit:?}");
    }
    // Falling onto the joint still lands on it.
    let fall = Sweep::linear(
        &Transform::new(Vec2::new(-1.0, 1.0), 0.0),
        Vec2::new(0.0, -2.0),
    );
    let hit = shape_cast(&crate_box, &fall, &chain, &fixed, CastOptions::default()).unwrap();
    assert!((hit.t * 2.0 - 0.75).abs() < 1e-3, "{hit:?}");
}

/// `collide_speculative` on compounds: a manifold exactly when the deepest exact child pair is
/// within the margin (beyond the tolerance either way), its deepest point as deep as that
/// pair (negative: the gap), on the children that lead by more than the tolerance.
#[test]
fn compound_speculative_manifolds_reach_the_margin() {
    let mut present = 0;
    probe_compounds(0xc4a1_000a, 40, |placed, rng| {
        let small = f64::from(smallest_part(&placed.a).min(smallest_part(&placed.b)));
        let margin = (small * rng.range_f64(0.0, 0.2)) as f32;
        let m = collide2d::collide_speculative(
            &placed.a,
            &placed.xf_a,
            &placed.b,
            &placed.xf_b,
            margin,
        );
        let (truth, children, lead) = placed.exact();
        let tolerance = placed.tolerance();
        let reach = truth.depth + f64::from(margin);
        if m.is_empty() {
            return (reach > tolerance)
                .then(|| format!("none within margin {margin}: exact {truth:?}"));
        }
        present += 1;
        if reach < -tolerance {
            return Some(format!("{m:?} beyond margin {margin}: exact {truth:?}"));
        }
        if (f64::from(m.max_penetration()) - truth.depth).abs() > 2.0 * tolerance {
            return Some(format!(
                "deepest {} against exact {truth:?} ({m:?})",
                m.max_penetration()
            ));
        }
        if lead > 4.0 * tolerance && (m.child_a, m.child_b) != children {
            return Some(format!(
                "children {:?}, exact {children:?} by {lead:e}",
                (m.child_a, m.child_b)
            ));
        }
        None
    });
    assert!(present > 200, "only {present} manifolds");
}

/// Rays from behind a chain's segment through it, along a segment (on its line, exactly or
/// tilted by 1e-8 to 1e-3 rad), and from anywhere at a random segment, against the exact
/// first front-side crossing: where moving the ray sideways by the tolerance either way
/// keeps the exact answer (a hit within the tolerance of the same distance, or a miss), the
/// cast gives it.
#[test]
fn rays_along_and_from_behind_chains_match_the_exact_crossing() {
    let mut rng = Rng(0xc4a1_000b);
    let mut failures = Vec::new();
    let (mut count, mut hits) = (0, 0);
    for setting in SETTINGS {
        for case in 0..400 {
            let length = match setting {
                Setting::HugeRatio => 1e3,
                _ => rng.log_size(0.2, 5.0),
            };
            let convex = rng.chance(0.5);
            let points = wiggly_chain(&mut rng, 6, length, 0.8, convex);
            let Ok(chain) = Chain::open(&points) else {
                continue;
            };
            let xf = Transform::new(position(setting, &mut rng), rng.angle());
            let shape = Shape::from(chain.clone());
            let far = xf.p.abs().max_element() + 10.0 * length;
            let tolerance = 1e-4 * f64::from(length) + ulps(far);
            let index = rng.below(chain.segment_count());
            let (a, b) = (xf.apply(points[index]), xf.apply(points[index + 1]));
            let normal = xf.rotate(chain.normals()[index]);
            let on = a.lerp(b, rng.range(-0.2, 1.2));
            let reach = length * rng.range(0.2, 3.0);
            let (origin, direction) = match rng.below(3) {
                // From behind, through the segment.
                0 => {
                    let direction = Rot::from_angle(rng.range(-1.2, 1.2)).rotate(normal);
                    (on - direction * reach, direction)
                }
                // Along the segment's line.
                1 => {
                    let along = (b - a).normalize();
                    let tilt = if rng.chance(0.5) {
                        0.0
                    } else {
                        rng.log_size(1e-8, 1e-3) * if rng.chance(0.5) { 1.0 } else { -1.0 }
                    };
                    let direction =
                        Rot::from_angle(tilt).rotate(if rng.chance(0.5) { along } else { -along });
                    (on - direction * reach, direction)
                }
                _ => {
                    let from = on + rng.point(2.0 * length);
                    (from, on - from)
                }
            };
            let Ok(ray) = Ray::new(origin, direction, 2.0 * reach + length) else {
                continue;
            };
            let side = ray.direction.normalize().perp() * tolerance as f32;
            let answers: Vec<Option<(f64, usize)>> = [Vec2::ZERO, side, -side]
                .iter()
                .map(|&offset| {
                    exact_chain_ray(
                        &chain,
                        &xf,
                        &Ray::new(ray.origin + offset, ray.direction, ray.max_distance).unwrap(),
                    )
                })
                .collect();
            let agree = match (answers[1], answers[2]) {
                (None, None) => answers[0].is_none(),
                (Some((t1, _)), Some((t2, _))) => {
                    (t1 - t2).abs() <= 2.0 * tolerance && answers[0].is_some()
                }
                _ => false,
            };
            if !agree {
                continue;
            }
            count += 1;
            let hit = shape.ray_cast(&xf, &ray);
            hits += usize::from(hit.is_some());
            let wrong = match (hit, answers[0]) {
                (None, None) => false,
                (Some(hit), Some((t, _))) => (f64::from(hit.distance) - t).abs() > 2.0 * tolerance,
                _ => true,
            };
            if wrong {
                failures.push(format!(
                    "{setting:?} case {case}: {ray:?} at segment {index}: {hit:?}, exact {:?}; {points:?} at {xf:?}",
                    answers[0]
                ));
            }
        }
    }
    assert!(
        count > 600 && hits > 50,
        "{count} rays checked, {hits} hits"
    );
    assert_no_failures(&failures, count, 6);
}
