//! Compounds and chains at the edges a game reaches: touching, resting (0 to 1e-6 deep), tilted
//! (1e-8 to 1e-3 rad), size ratios up to 1e6 and 1e4 to 1e6 from the origin, against exact
//! `f64` answers: a compound's answer is its children's best ([`manifold_common::exact`]'s
//! `deepest`), a chain's is its segments' under the one-sided and no-ghost rules of
//! [`Chain`]'s docs, and a polygon decomposed by [`Compound::from_concave`] answers as the
//! original outline does.

use crate::manifold_common::exact::{cores, deepest, signed_distance};
use crate::support::Rng;

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
        heading += if convex || rng.chance(0.5) { turn } else { -turn };
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
    assert!(
        failures.is_empty(),
        "{} of {count} wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
}

/// The exact first hit of a ray on a chain's segments from their front sides, in `f64`:
/// `(distance, segment)`; a ray parallel to a segment does not hit it.
fn exact_chain_ray(chain: &Chain, xf: &Transform, ray: &Ray) -> Option<(f64, usize)> {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    let place = |v: Vec2| {
        let (x, y) = (f64::from(v.x), f64::from(v.y));
        [
            c * x - s * y + f64::from(xf.p.x),
            s * x + c * y + f64::from(xf.p.y),
        ]
    };
    let o = [f64::from(ray.origin.x), f64::from(ray.origin.y)];
    let d = [f64::from(ray.direction.x), f64::from(ray.direction.y)];
    let length = d[0].hypot(d[1]);
    let d = [d[0] / length, d[1] / length];
    let mut best: Option<(f64, usize)> = None;
    for i in 0..chain.segment_count() {
        let segment = chain.segment(i).unwrap();
        let (a, b) = (place(segment.a()), place(segment.b()));
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
            let polygon = Polygon::hull(&points).unwrap_or_else(|_| Polygon::regular(count, half).unwrap());
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
        write!(f, "{:?} at {:?} / {:?} at {:?}", self.a, self.xf_a, self.b, self.xf_b)
    }
}

impl Placed {
    fn tolerance(&self) -> f64 {
        let far = self.xf_a.p.abs().max_element().max(self.xf_b.p.abs().max_element())
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
        deepest(&cores(&self.a, &self.xf_a, origin), &cores(&self.b, &self.xf_b, origin))
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
        (size_a, size_b) = if rng.chance(0.5) { (1e-3, 1e3) } else { (1e3, 1e-3) };
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
    let at = |s: f64| Transform { p: xf_a.p + direction * s as f32, q };
    let depth_at = |s: f64| {
        let origin = xf_a.p;
        deepest(&cores(&a, &xf_a, origin), &cores(&b, &at(s), origin)).0.depth
    };
    let (mut low, mut high) = (0.0, 2.0 * f64::from(extent(&a) + extent(&b)));
    if depth_at(low) >= wanted {
        for _ in 0..70 {
            let middle = 0.5 * (low + high);
            if depth_at(middle) >= wanted {
                low = middle;
            } else {
                high = middle;
            }
        }
    }
    Placed { xf_b: at(low), a, xf_a, b }
}

const DEPTHS: [Depth; 4] = [Depth::Touching, Depth::Resting, Depth::Tilted, Depth::General];

fn probe_compounds(seed: u64, per: usize, mut check: impl FnMut(&Placed, &mut Rng) -> Option<String>) {
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut count = 0;
    for setting in SETTINGS {
        for depth in DEPTHS {
            for case in 0..per {
                let placed = place_compounds(&mut rng, setting, depth);
                count += 1;
                if let Some(message) = check(&placed, &mut rng) {
                    failures.push(format!("{setting:?} {depth:?} case {case}: {message}\n  {placed:?}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(6)].join("\n")
    );
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
            return Some(format!("depth {}, exact {truth:?} ({m:?})", m.max_penetration()));
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
        let (Some(core_a), Some(core_b)) =
            (cores_a.get(m.child_a as usize), cores_b.get(m.child_b as usize))
        else {
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
                return Some(format!("point {point:?} {off_a:e} off A, {off_b:e} off B ({m:?})"));
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
                cs.iter().map(|c| signed_distance(c, p)).fold(f64::INFINITY, f64::min)
            };
            let (pa, pb) = (placed.local(out.point_a), placed.local(out.point_b));
            let off_a = near(&cores(&placed.a, &placed.xf_a, origin), pa);
            let off_b = near(&cores(&placed.b, &placed.xf_b, origin), pb);
            let gap = (pb[0] - pa[0]).hypot(pb[1] - pa[1]);
            if off_a.abs().max(off_b.abs()) > tolerance
                || (gap - f64::from(out.distance)).abs() > tolerance
            {
                return Some(format!("closest points {off_a:e}, {off_b:e} off, {gap:e} apart: {out:?}"));
            }
        }
        None
    })
}
