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
