//! Ray and shape casts at the edges a game reaches, against exact `f64` references.
//!
//! Rays that start on the boundary of a rounded shape (circle, capsule, rounded polygon): the
//! origin is an `f32` rounding of a boundary point, so it lies a rounding inside or outside.
//! The crate's contract (query/ray.rs): a ray starting inside a solid shape or on its boundary
//! hits it at distance 0. Such a ray running into the shape was dropped as starting outside
//! with its entry behind it: it missed, or hit at a vertex disc's entry deep inside the shape.
//!
//! Shape casts of translating convex pairs: the time of impact against the exact `f64` ray cast
//! of the Minkowski difference (the cores' difference hull, rounded by the radii and the
//! target), and, for sharp pairs kept a target apart, the normal against the direction between
//! the closest points (it was the last separating plane the cast jumped along, up to 24
//! degrees off near a corner).

use crate::support::vec64::{closest_on_segment, core_edges, cross, length, place64, sub, P};
use crate::support::{assert_no_failures, Rng};
use collide2d::query::{shape_cast, CastOptions, RayInside, Sweep};
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Ray, Segment, Shape};
use collide2d::world::{Collider, ColliderHandle, CollisionGroups, QueryFilter, World};
use collide2d::{LayerId, LayerMask, Rot, Transform, Vec2};

/// A convex core (one point, a segment, or a CCW outline) rounded by `radius`, in `f64`.
struct Rounded {
    points: Vec<P>,
    radius: f64,
}

impl Rounded {
    /// The shape placed by `xf` (circle, capsule, segment or polygon).
    fn of(shape: &Shape, xf: &Transform) -> Rounded {
        let place = |v: Vec2| place64(xf, v);
        let (points, radius) = match shape {
            Shape::Circle(c) => (vec![place(c.center())], c.radius()),
            Shape::Capsule(c) => (vec![place(c.a()), place(c.b())], c.radius()),
            Shape::Segment(s) => (vec![place(s.a()), place(s.b())], 0.0),
            Shape::Polygon(p) => (p.vertices().iter().map(|v| place(*v)).collect(), p.radius()),
            _ => unreachable!("convex shapes only"),
        };
        Rounded {
            points,
            radius: f64::from(radius),
        }
    }

    /// Signed distance of `p` from the surface (negative inside).
    fn signed_distance(&self, p: P) -> f64 {
        let n = self.points.len();
        if n >= 3 {
            let deepest = (0..n)
                .map(|i| {
                    let (a, b) = (self.points[i], self.points[(i + 1) % n]);
                    cross(sub(b, a), sub(p, a)) / -length(sub(b, a))
                })
                .fold(f64::NEG_INFINITY, f64::max);
            if deepest <= 0.0 {
                return deepest - self.radius;
            }
        }
        core_edges(&self.points)
            .into_iter()
            .map(|(a, b)| length(sub(p, closest_on_segment(p, a, b))))
            .fold(f64::INFINITY, f64::min)
            - self.radius
    }

    /// The signed distance of `origin + t direction`.
    fn along(&self, origin: P, direction: P, t: f64) -> f64 {
        self.signed_distance([origin[0] + direction[0] * t, origin[1] + direction[1] * t])
    }

    /// The lowest signed distance on `origin + t direction` for `t` in `[low, high]` (convex in
    /// `t`: a ternary search), with the `t` reaching it.
    fn deepest(&self, origin: P, direction: P, low: f64, high: f64) -> (f64, f64) {
        let (mut lo, mut hi) = (low, high);
        for _ in 0..200 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if self.along(origin, direction, m1) < self.along(origin, direction, m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        let middle = 0.5 * (lo + hi);
        [low, middle, high]
            .into_iter()
            .map(|t| (self.along(origin, direction, t), t))
            .fold((f64::INFINITY, 0.0), |a, b| if b.0 < a.0 { b } else { a })
    }

    /// The first `t >= 0` at which the ray reaches the shape (exact, `f64`), `None` if never.
    fn entry(&self, origin: P, direction: P, max_t: f64) -> Option<f64> {
        if self.signed_distance(origin) <= 0.0 {
            return Some(0.0);
        }
        let (depth, at) = self.deepest(origin, direction, 0.0, max_t);
        if depth > 0.0 {
            return None;
        }
        let (mut outside, mut inside) = (0.0, at);
        for _ in 0..200 {
            let middle = 0.5 * (outside + inside);
            if self.along(origin, direction, middle) <= 0.0 {
                inside = middle;
            } else {
                outside = middle;
            }
        }
        Some(inside)
    }
}

fn p64(v: Vec2) -> P {
    [f64::from(v.x), f64::from(v.y)]
}

/// The f32 point nearest to `p`.
fn rounded(p: P) -> Vec2 {
    Vec2::new(p[0] as f32, p[1] as f32)
}

/// Checks one ray cast against the reference: a ray that goes deeper than `slack` into the
/// shape within its reach hits it, and a hit beyond 0 is on the surface within `slack` with
/// no part of the ray before it deeper than `slack` (the first hit, never a point inside).
fn check_ray(shape: &Shape, xf: &Transform, ray: &Ray, slack: f64) -> Result<(), String> {
    let reference = Rounded::of(shape, xf);
    let (origin, direction) = (p64(ray.origin), p64(ray.direction));
    let size = reference.radius
        + reference
            .points
            .iter()
            .map(|p| length(sub(*p, reference.points[0])))
            .fold(0.0, f64::max);
    // Far enough to cross the whole shape from a start on its boundary.
    let reach = f64::from(ray.max_distance).min(4.0 * size / length(direction));
    let got = shape.ray_cast_with(xf, ray, RayInside::HitAtStart);
    match got {
        None => {
            let (depth, _) = reference.deepest(origin, direction, 0.0, reach);
            if depth < -slack {
                return Err(format!("missed a ray going {depth:e} deep"));
            }
        }
        Some(hit) if hit.distance > 0.0 => {
            let t = f64::from(hit.distance);
            let surface = reference.along(origin, direction, t);
            let (before, _) = reference.deepest(origin, direction, 0.0, t);
            if surface.abs() > slack || before < -slack {
                return Err(format!(
                    "hit {hit:?}: surface distance {surface:e}, deepest before {before:e}"
                ));
            }
        }
        Some(_) => {
            let start = reference.signed_distance(origin);
            if start > slack {
                return Err(format!("hit at 0 from {start:e} outside"));
            }
        }
    }
    Ok(())
}

#[test]
fn capsule_ray_from_its_boundary_into_it_hits_at_zero_not_inside() {
    // The origin is on the capsule's end cap (1e-11 inside in f64); the old cast took it as
    // outside with the cap's entry behind it and reported the far cap's disc entry, 0.6 of
    // the radius inside the capsule: distance 0.006149124, normal (0.080, 0.997).
    let capsule = Shape::from(
        Capsule::new(
            Vec2::new(-0.005, 0.0),
            Vec2::new(0.005, 5.4644774e-5),
            0.0010719232,
        )
        .unwrap(),
    );
    let xf = Transform {
        p: Vec2::ZERO,
        q: Rot {
            c: -0.36535916,
            s: 0.93086666,
        },
    };
    let ray = Ray {
        origin: Vec2::new(0.00019948817, 0.0023196863),
        direction: Vec2::new(0.27865466, -0.96039134),
        max_distance: f32::MAX,
    };
    let hit = capsule
        .ray_cast(&xf, &ray)
        .expect("the ray runs into the capsule");
    assert_eq!(hit.distance, 0.0, "{hit:?}");
    assert!((hit.normal + ray.direction).length() < 1e-6, "{hit:?}");
}

#[test]
fn capsule_ray_from_exactly_its_radius_into_it_hits_at_zero() {
    // The origin is exactly the radius from an end in f32 (the disc's entry root is 0): the
    // old cast dropped that entry and missed the capsule within 5000 (the ray runs 5 units
    // deep), or with no limit hit at 101776.58, at the other end's disc inside the capsule.
    let capsule = Shape::from(
        Capsule::new(
            Vec2::new(-50.0, 0.0),
            Vec2::new(50.0, -13.553074),
            33.649803,
        )
        .unwrap(),
    );
    let xf = Transform {
        p: Vec2::ZERO,
        q: Rot {
            c: -0.73477113,
            s: -0.6783151,
        },
    };
    for max_distance in [5000.0, f32::INFINITY] {
        let ray = Ray {
            origin: Vec2::new(-74.25069, -42.132896),
            direction: Vec2::new(0.000786201, 0.00061797095),
            max_distance,
        };
        let hit = capsule
            .ray_cast(&xf, &ray)
            .expect("the ray runs into the capsule");
        assert_eq!(hit.distance, 0.0, "{hit:?}");
    }
}

#[test]
fn circle_ray_from_its_boundary_far_out_into_it_hits_at_zero() {
    // A circle of radius 634 at (-6197, -41050); the origin is on it (5e-7 outside in f64,
    // below the f32 spacing there), the direction 0.001 long: the entry root came out
    // negative and the ray, running 50 units deep, missed.
    let circle = Shape::from(Circle::new(Vec2::new(-131.42834, 0.0), 633.6406).unwrap());
    let xf = Transform {
        p: Vec2::new(-6197.0034, -41049.777),
        q: Rot {
            c: -0.12053784,
            s: 0.99270874,
        },
    };
    let ray = Ray {
        origin: Vec2::new(-5631.033, -40865.83),
        direction: Vec2::new(-0.0007947212, 0.0006069747),
        max_distance: f32::INFINITY,
    };
    let hit = circle
        .ray_cast(&xf, &ray)
        .expect("the ray runs into the circle");
    assert_eq!(hit.distance, 0.0, "{hit:?}");
    // Asked for the exit, it reports where the ray leaves (about 1.2e6 direction lengths on).
    let exit = circle
        .ray_cast_with(&xf, &ray, RayInside::ReportExit)
        .expect("the ray leaves the circle");
    let reference = Rounded::of(&circle, &xf);
    assert!(
        reference.signed_distance(p64(exit.point)).abs() < 1e-2,
        "{exit:?}"
    );
}

/// A random rounded shape (circle, capsule, rounded polygon of 3 to 14 sides) of about `size`.
fn rounded_shape(rng: &mut Rng, size: f32) -> Shape {
    match rng.below(3) {
        0 => Shape::from(
            Circle::new(
                Vec2::new(rng.range(-0.3, 0.3) * size, 0.0),
                size * rng.range(0.2, 1.0),
            )
            .unwrap(),
        ),
        1 => Shape::from(
            Capsule::new(
                Vec2::new(-0.5 * size, 0.0),
                Vec2::new(0.5 * size, rng.range(-0.3, 0.3) * size),
                size * rng.range(0.05, 0.5),
            )
            .unwrap(),
        ),
        _ => Shape::from(
            Polygon::regular(3 + rng.below(12), size)
                .unwrap()
                .with_radius(size * rng.range(0.01, 0.5))
                .unwrap(),
        ),
    }
}

#[test]
fn rays_from_the_boundary_of_rounded_shapes_hit_at_zero_or_first_entry() {
    // Origins: f32 roundings of boundary points (reached by an f64 ray aimed past the centre),
    // at 0 to 1e6 out, sizes 0.01 to 1000, directions of length 1e-3 to 1e3 in any heading
    // (into the shape, along it, out of it). Slack: 1e-4 of the size plus 1e-6 of the
    // coordinates (the origin's own rounding is 6e-8 of them). 6,000 rays; the old cast failed
    // 46 (missed, or hit inside).
    let mut rng = Rng(0x0c45_7ed6_e5a1_b0a7);
    let mut failures = Vec::new();
    for case in 0..6000 {
        let size = rng.pick(&[0.01f32, 1.0, 100.0, 1000.0]);
        let far = rng.pick(&[0.0f32, 0.0, 1e4, 1e5, 1e6]);
        let shape = rounded_shape(&mut rng, size);
        let xf = Transform::new(rng.point(far), rng.angle());
        let reference = Rounded::of(&shape, &xf);
        let centre = reference.points.iter().fold([0.0, 0.0], |c, p| {
            let n = reference.points.len() as f64;
            [c[0] + p[0] / n, c[1] + p[1] / n]
        });
        let heading = f64::from(rng.angle());
        let aim = [heading.cos(), heading.sin()];
        let from = [
            centre[0] - aim[0] * 10.0 * f64::from(size),
            centre[1] - aim[1] * 10.0 * f64::from(size),
        ];
        let Some(entry) = reference.entry(from, aim, 20.0 * f64::from(size)) else {
            continue;
        };
        let origin = rounded([from[0] + aim[0] * entry, from[1] + aim[1] * entry]);
        let length = rng.pick(&[1.0f32, 1.0, 1e-3, 1e3, 3.7]);
        let direction = Vec2::from_angle(rng.angle()) * length;
        let max_distance = rng.pick(&[f32::INFINITY, f32::MAX, 50.0 * size / length]);
        let ray = Ray {
            origin,
            direction,
            max_distance,
        };
        let slack = 1e-4 * f64::from(size) + 1e-6 * length_of(p64(origin));
        if let Err(why) = check_ray(&shape, &xf, &ray, slack) {
            failures.push(format!("case {case}: {shape:?} at {xf:?}, {ray:?}: {why}"));
        }
    }
    assert_no_failures(&failures, 6000, failures.len());
}

fn length_of(p: P) -> f64 {
    length(p)
}

/// The convex hull of `points` (CCW, collinear points dropped), `f64`.
fn hull(mut points: Vec<P>) -> Vec<P> {
    points.sort_by(|a, b| a.partial_cmp(b).unwrap());
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let chain = |points: &mut dyn Iterator<Item = P>| {
        let mut half: Vec<P> = Vec::new();
        for p in points {
            while half.len() >= 2
                && cross(
                    sub(half[half.len() - 1], half[half.len() - 2]),
                    sub(p, half[half.len() - 2]),
                ) <= 0.0
            {
                half.pop();
            }
            half.push(p);
        }
        half.pop();
        half
    };
    let mut outline = chain(&mut points.iter().copied());
    outline.extend(chain(&mut points.iter().rev().copied()));
    outline
}

/// A random convex shape of about `size`: circle, capsule, segment, box, regular or random
/// polygon, sharp or rounded.
fn convex_shape(rng: &mut Rng, size: f32) -> Shape {
    match rng.below(6) {
        0..=2 => rounded_shape(rng, size),
        3 => Shape::from(
            Segment::new(
                Vec2::new(-size, rng.range(-0.5, 0.5) * size),
                Vec2::new(size, rng.range(-0.5, 0.5) * size),
            )
            .unwrap(),
        ),
        4 => Shape::from(
            Polygon::rect(size * rng.range(0.2, 2.0), size * rng.range(0.2, 2.0)).unwrap(),
        ),
        _ => {
            let points: Vec<Vec2> = (0..3 + rng.below(14))
                .map(|_| Vec2::from_angle(rng.angle()) * size * rng.range(0.3, 1.0))
                .collect();
            Shape::from(Polygon::hull(&points).unwrap_or(Polygon::rect(size, size).unwrap()))
        }
    }
}

#[test]
fn sharp_pair_at_a_target_separation_gets_the_normal_between_closest_points() {
    // A box-like quad sliding onto a 2e-3 segment with a skin of 1e-3 (tolerance 1e-4): the
    // cast stopped on a chord of the Minkowski difference and reported the last jump's plane,
    // (0.54, -0.84), where the closest points lie along (0.83, -0.56): 23 degrees off.
    let quad = Shape::from(
        Polygon::new(&[
            Vec2::new(-0.07248561, 0.041858837),
            Vec2::new(0.0009072906, -0.08590587),
            Vec2::new(0.09118999, -0.011598221),
            Vec2::new(0.013362553, 0.07214808),
        ])
        .unwrap(),
    );
    let xf_a = Transform {
        p: Vec2::new(-0.04335695, 0.073716834),
        q: Rot {
            c: -0.6309744,
            s: -0.7758036,
        },
    };
    let delta = Vec2::new(-0.04293729, -0.119998276);
    let segment = Shape::from(
        Segment::new(
            Vec2::new(-0.001, 0.00017994092),
            Vec2::new(0.001, -0.00023649562),
        )
        .unwrap(),
    );
    let xf_b = Transform {
        p: Vec2::ZERO,
        q: Rot {
            c: 0.9883299,
            s: -0.15232867,
        },
    };
    let options = CastOptions {
        target_separation: 0.001,
        tolerance: 1e-4,
        ..CastOptions::default()
    };
    let sweep_a = Sweep::linear(&xf_a, delta);
    let hit = shape_cast(&quad, &sweep_a, &segment, &Sweep::fixed(&xf_b), options).unwrap();
    assert!(hit.converged && hit.t > 0.0, "{hit:?}");
    // The closest points at t, exactly: the nearest pair of a core point and the other core's
    // edges.
    let (a, b) = (
        Rounded::of(&quad, &sweep_a.transform_at(hit.t)),
        Rounded::of(&segment, &xf_b),
    );
    let mut between = [f64::INFINITY, 0.0];
    for (from, onto, sign) in [(&a, &b, 1.0), (&b, &a, -1.0)] {
        for point in &from.points {
            for (p, q) in core_edges(&onto.points) {
                let d = sub(closest_on_segment(*point, p, q), *point);
                if length(d) < length(between) {
                    between = [d[0] * sign, d[1] * sign];
                }
            }
        }
    }
    let exact = [between[0] / length(between), between[1] / length(between)];
    let error = length(sub(p64(hit.normal), exact));
    assert!(error < 1e-3, "{hit:?}: normal {error} off {exact:?}");
}

/// How far (length of the difference of unit vectors) a sharp pair's normal at a target
/// separation may be from the direction between the cores' closest points.
const NORMAL_BOUND: f64 = 1e-2;

#[test]
fn translating_convex_casts_meet_the_minkowski_difference_reference() {
    // A moves by `delta`, B stays; A at offset x touches B when x is in the difference
    // B - A rounded by both radii. Starts clear of the band (gap above target + tolerance +
    // slack): a converged hit has its gap within tolerance + slack of the target and no
    // earlier time below target - tolerance - slack, with the point midway between the
    // surfaces (each within tolerance + slack of half the gap); a miss has no time below
    // target - tolerance - slack. Approaches at random, fast ones from 50 to 500 sizes away,
    // and passes by a vertex of the difference within ±2 tolerances of touching; size ratios
    // to 1e3, coordinates to 1e5 (slack 4e-7 of the coordinates). For sharp pairs with a
    // target 100 slacks or more, the normal is within `NORMAL_BOUND` of the direction between
    // the closest points. 4,000 casts; the old cast failed 22, all on that normal (up to 0.42
    // off, a sharp pair stopping a target apart with the last jump's plane for a normal).
    let mut rng = Rng(0x7c1d_2a9e_4b3f_8e61);
    let mut failures = Vec::new();
    for case in 0..4000 {
        let size_a = rng.pick(&[1.0f32, 0.1, 10.0]);
        let size_b = size_a * rng.pick(&[1.0f32, 10.0, 100.0, 1000.0, 0.01]);
        let far = rng.pick(&[0.0f32, 0.0, 1e3, 1e4, 1e5]);
        let (a, b) = (
            convex_shape(&mut rng, size_a),
            convex_shape(&mut rng, size_b),
        );
        let xf_b = Transform::new(rng.point(far), rng.angle());
        let angle_a = rng.angle();
        let target = rng.pick(&[0.0f32, 0.0, 0.01 * size_a]);
        let tolerance = (1e-4 * size_a.min(size_b)).max(1e-4);
        let at_origin = Rounded::of(&a, &Transform::new(Vec2::ZERO, angle_a));
        let placed_b = Rounded::of(&b, &xf_b);
        let difference = |a: &Rounded| Rounded {
            points: hull(
                placed_b
                    .points
                    .iter()
                    .flat_map(|pb| a.points.iter().map(move |pa| sub(*pb, *pa)))
                    .collect(),
            ),
            radius: a.radius + placed_b.radius,
        };
        let shape_at_origin = difference(&at_origin);
        let middle = shape_at_origin.points.iter().fold([0.0, 0.0], |c, p| {
            let n = shape_at_origin.points.len() as f64;
            [c[0] + p[0] / n, c[1] + p[1] / n]
        });
        let reach = f64::from(size_a + size_b);
        let (start, delta): (P, P) = match rng.below(4) {
            0 => {
                let heading = f64::from(rng.angle());
                let distance = reach * rng.range_f64(2.0, 6.0);
                let start = [
                    middle[0] - heading.cos() * distance,
                    middle[1] - heading.sin() * distance,
                ];
                let aim = [
                    middle[0] + rng.range_f64(-1.0, 1.0) * f64::from(size_b),
                    middle[1] + rng.range_f64(-1.0, 1.0) * f64::from(size_b),
                ];
                let scale = rng.range_f64(0.5, 2.0);
                (
                    start,
                    [(aim[0] - start[0]) * scale, (aim[1] - start[1]) * scale],
                )
            }
            1 => {
                let distance = reach * rng.range_f64(50.0, 500.0);
                let heading = f64::from(rng.angle());
                let start = [
                    middle[0] - heading.cos() * distance,
                    middle[1] - heading.sin() * distance,
                ];
                (
                    start,
                    [2.0 * (middle[0] - start[0]), 2.0 * (middle[1] - start[1])],
                )
            }
            2 if shape_at_origin.points.len() >= 3 => {
                // Sliding level with a face at about the target, from before its start to
                // past its end: arriving onto it by its first corner.
                let n = shape_at_origin.points.len();
                let i = rng.below(n);
                let (from, to) = (
                    shape_at_origin.points[i],
                    shape_at_origin.points[(i + 1) % n],
                );
                let face = sub(to, from);
                let face_length = length(face);
                let along = [face[0] / face_length, face[1] / face_length];
                let out = [along[1], -along[0]];
                let offset = shape_at_origin.radius
                    + f64::from(target)
                    + rng.pick(&[0.5, 2.0, 20.0]) * f64::from(tolerance);
                let back = rng.range_f64(0.05, 1.0) * reach;
                (
                    [
                        from[0] - along[0] * back + out[0] * offset,
                        from[1] - along[1] * back + out[1] * offset,
                    ],
                    [
                        along[0] * (back + 1.2 * face_length),
                        along[1] * (back + 1.2 * face_length),
                    ],
                )
            }
            _ => {
                let vertex = shape_at_origin.points[rng.below(shape_at_origin.points.len())];
                let out = sub(vertex, middle);
                let out_length = length(out).max(1e-30);
                let out = [out[0] / out_length, out[1] / out_length];
                let hair = rng.pick(&[1e-5, 2.0, -2.0, 0.5]) * f64::from(tolerance);
                let offset = shape_at_origin.radius + f64::from(target) + hair;
                let pass = [vertex[0] + out[0] * offset, vertex[1] + out[1] * offset];
                let along = [-out[1], out[0]];
                (
                    [
                        pass[0] - along[0] * 3.0 * reach,
                        pass[1] - along[1] * 3.0 * reach,
                    ],
                    [along[0] * 6.0 * reach, along[1] * 6.0 * reach],
                )
            }
        };
        let xf_a = Transform::new(rounded(start), angle_a);
        let delta = rounded(delta);
        let options = CastOptions {
            target_separation: target,
            tolerance,
            ..CastOptions::default()
        };
        let got = shape_cast(
            &a,
            &Sweep::linear(&xf_a, delta),
            &b,
            &Sweep::fixed(&xf_b),
            options,
        );
        // The gap at time t is the signed distance of t·delta from the difference of the
        // placed shapes.
        let placed_a = Rounded::of(&a, &xf_a);
        let shapes = difference(&placed_a);
        let step = p64(delta);
        let gap = |t: f64| shapes.along([0.0, 0.0], step, t);
        let scale = length_of(p64(xf_a.p)).max(length_of(p64(xf_b.p))) + reach + length(step);
        let allowance = f64::from(tolerance) + 4e-7 * scale;
        let (target, start_gap) = (f64::from(target), gap(0.0));
        if start_gap - target <= allowance {
            continue;
        }
        let (lowest, _) = shapes.deepest([0.0, 0.0], step, 0.0, 1.0);
        let why = match got {
            Some(hit) if hit.converged => {
                let t = f64::from(hit.t);
                let (earlier, _) = shapes.deepest([0.0, 0.0], step, 0.0, t);
                let moved = Rounded {
                    points: placed_a
                        .points
                        .iter()
                        .map(|p| [p[0] + step[0] * t, p[1] + step[1] * t])
                        .collect(),
                    radius: placed_a.radius,
                };
                let point = p64(hit.point);
                let half = 0.5 * gap(t);
                let (from_a, from_b) = (
                    moved.signed_distance(point),
                    placed_b.signed_distance(point),
                );
                // Sharp cores kept a target apart: the normal is the direction between their
                // closest points, the closest point of the (sharp) difference to the origin.
                let sharp_normal_error = (shapes.radius == 0.0
                    && target > 100.0 * (allowance - f64::from(tolerance)))
                .then(|| {
                    let here = [step[0] * t, step[1] * t];
                    let closest = core_edges(&shapes.points)
                        .into_iter()
                        .map(|(p, q)| sub(closest_on_segment(here, p, q), here))
                        .fold([f64::INFINITY, 0.0], |best, c| {
                            if length(c) < length(best) {
                                c
                            } else {
                                best
                            }
                        });
                    let exact = [closest[0] / length(closest), closest[1] / length(closest)];
                    length(sub(p64(hit.normal), exact))
                });
                if (gap(t) - target).abs() > allowance || earlier < target - allowance {
                    Some(format!(
                        "{hit:?}: gap {:e}, lowest before {earlier:e}",
                        gap(t)
                    ))
                } else if sharp_normal_error.is_some_and(|error| error > NORMAL_BOUND) {
                    Some(format!(
                        "{hit:?}: normal {sharp_normal_error:?} off the exact one"
                    ))
                } else if (from_a - half).abs() > allowance || (from_b - half).abs() > allowance {
                    Some(format!(
                        "{hit:?}: point {from_a:e} from A, {from_b:e} from B"
                    ))
                } else {
                    None
                }
            }
            Some(_) => None,
            None => (lowest < target - allowance).then(|| format!("missed, lowest gap {lowest:e}")),
        };
        if let Some(why) = why {
            failures.push(format!(
                "case {case}: {a:?} at {xf_a:?} by {delta:?}, {b:?} at {xf_b:?}, target {target}: {why}"
            ));
        }
    }
    assert_no_failures(&failures, 4000, failures.len());
}

#[test]
fn world_casts_return_the_first_accepted_hit_among_many() {
    // 120 scenes of 40 colliders (circles, boxes, capsules, rounded polygons) on four layers,
    // some sensors, some disabled, in three collision groups, about the origin or 1e3 and 1e5
    // out; 40 queries each with a random filter (layers, sensors, an exclusion list, groups,
    // a predicate). `ray_cast`, `ray_cast_all` and `shape_cast` against every collider's own
    // cast under an acceptance written out here: the nearest (then lowest handle), and every
    // hit in order. 4,800 queries of each; none wrong (a guard).
    let mut rng = Rng(0x3f6a_81c2_5d09_e4b7);
    let mut failures = Vec::new();
    for scene in 0..120 {
        let mut world = World::new();
        let mut layers = vec![LayerId::DEFAULT];
        for name in ["a", "b", "c"] {
            layers.push(world.layers_mut().add(name).unwrap());
        }
        let far = rng.pick(&[0.0f32, 1e3, 1e5]);
        let center = rng.point(far);
        let span = 20.0;
        let mut handles = Vec::new();
        for _ in 0..40 {
            let size = rng.range(0.2, 3.0);
            let shape: Shape = match rng.below(4) {
                0 => Circle::with_radius(size).unwrap().into(),
                1 => Polygon::rect(size, size * rng.range(0.1, 2.0))
                    .unwrap()
                    .into(),
                2 => Capsule::new(Vec2::new(-size, 0.0), Vec2::new(size, 0.0), 0.3 * size)
                    .unwrap()
                    .into(),
                _ => Polygon::regular(3 + rng.below(8), size)
                    .unwrap()
                    .with_radius(0.1 * size)
                    .unwrap()
                    .into(),
            };
            let collider = Collider::new(shape)
                .with_transform(Transform::new(center + rng.point(span), rng.angle()))
                .with_layer(rng.pick(&layers))
                .with_sensor(rng.chance(0.2))
                .with_enabled(!rng.chance(0.125))
                .with_groups(CollisionGroups {
                    category: 1 << rng.below(3),
                    mask: rng.pick(&[u32::MAX, 1, 2, 5]),
                })
                .with_user_data(rng.below(3) as u64);
            handles.push(world.insert(collider).unwrap());
        }
        world.update();
        for query in 0..40 {
            let mask = layers
                .iter()
                .filter(|_| rng.chance(0.5))
                .fold(LayerMask::NONE, |mask, layer| mask.with(*layer));
            let sensors = rng.chance(0.5);
            let excluded: Vec<_> = (0..rng.below(4))
                .map(|_| handles[rng.below(handles.len())])
                .collect();
            let groups = rng.chance(0.5).then(|| CollisionGroups {
                category: 1 << rng.below(3),
                mask: rng.pick(&[u32::MAX, 1, 2, 6]),
            });
            let not_two = |_, collider: &Collider| collider.user_data() != 2;
            let predicate = rng.chance(0.3);
            let mut filter = QueryFilter::new().layers(mask).excluding(&excluded);
            if sensors {
                filter = filter.with_sensors();
            }
            if let Some(groups) = groups {
                filter = filter.with_groups(groups);
            }
            if predicate {
                filter = filter.with_predicate(&not_two);
            }
            let accepts = |handle: ColliderHandle, collider: &Collider| {
                collider.is_enabled()
                    && mask.contains(collider.layer())
                    && (sensors || !collider.is_sensor())
                    && !excluded.contains(&handle)
                    && groups.is_none_or(|g| {
                        g.category & collider.groups().mask != 0
                            && collider.groups().category & g.mask != 0
                    })
                    && (!predicate || collider.user_data() != 2)
            };
            let origin = center + rng.point(span);
            let heading = Vec2::from_angle(rng.angle());
            let reach = rng.range(0.0, 60.0);
            let ray = Ray::new(origin, heading * rng.range(0.5, 3.0), reach).unwrap();
            let mut every: Vec<(f32, ColliderHandle)> = world
                .iter()
                .filter(|(handle, collider)| accepts(*handle, collider))
                .filter_map(|(handle, collider)| {
                    let hit = collider
                        .shape()
                        .ray_cast(&collider.world_transform(), &ray)?;
                    Some((hit.distance, handle))
                })
                .collect();
            every.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            let first = world.ray_cast(&ray, &filter).unwrap();
            let all = world.ray_cast_all(&ray, &filter).unwrap();
            let all: Vec<_> = all.iter().map(|hit| (hit.distance, hit.collider)).collect();
            if first.map(|hit| (hit.distance, hit.collider)) != every.first().copied()
                || all != every
            {
                failures.push(format!(
                    "scene {scene} query {query} {ray:?}: {first:?}, all {all:?}, expected {every:?}"
                ));
            }
            let size = rng.range(0.1, 1.0);
            let mover: Shape = if rng.chance(0.5) {
                Circle::with_radius(size).unwrap().into()
            } else {
                Polygon::rect(size, size).unwrap().into()
            };
            let xf = Transform::new(origin, rng.angle());
            let delta = heading * reach;
            let options = CastOptions {
                target_separation: rng.pick(&[0.0, 0.01]),
                ..CastOptions::default()
            };
            let sweep = Sweep::linear(&xf, delta);
            let expected = world
                .iter()
                .filter(|(handle, collider)| accepts(*handle, collider))
                .filter_map(|(handle, collider)| {
                    let placed = Sweep::fixed(&collider.world_transform());
                    let hit = shape_cast(&mover, &sweep, collider.shape(), &placed, options)?;
                    Some((hit.t, handle))
                })
                .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            let got = world
                .shape_cast(&mover, &xf, delta, &filter, options)
                .unwrap()
                .map(|hit| (hit.fraction, hit.collider));
            if got != expected {
                failures.push(format!(
                    "scene {scene} query {query} cast {xf:?} by {delta:?}: {got:?}, expected {expected:?}"
                ));
            }
        }
    }
    assert_no_failures(&failures, 120 * 40, failures.len());
}

#[test]
fn chain_ray_through_a_joint_hits_it() {
    // Aimed at the joint of segments 1 and 2 from the front of both: the crossing rounded a
    // hair past the end of each segment and the ray passed through the chain.
    let chain = Shape::from(
        Chain::open(&[
            Vec2::new(0.0, -0.28819442),
            Vec2::new(0.8565336, -0.45112687),
            Vec2::new(1.7606192, 0.032611847),
            Vec2::new(2.9950256, 0.14428598),
            Vec2::new(3.8174157, -0.32330078),
        ])
        .unwrap(),
    );
    let xf = Transform {
        p: Vec2::ZERO,
        q: Rot {
            c: -0.64293957,
            s: -0.7659169,
        },
    };
    let ray = Ray {
        origin: Vec2::new(-0.644199, 1.5946332),
        direction: Vec2::new(-0.15426493, -0.98802954),
        max_distance: 10.0,
    };
    let hit = chain.ray_cast(&xf, &ray).expect("the ray meets the joint");
    let joint = xf.apply(Vec2::new(1.7606192, 0.032611847));
    assert!((hit.point - joint).length() < 1e-5, "{hit:?} at {joint:?}");
}

#[test]
fn chain_rays_aimed_at_joints_from_the_front_hit_there() {
    // Open chains of 3 to 8 points along x (joints convex and concave) with spacing 0.01 to
    // 100, about the origin or 1e3..1e5 out where the spacing is at least 1e3 f32 spacings of
    // the coordinates; rays aimed at an interior joint's f32 point from three spacings away,
    // in front of both segments there (cosine at least 0.05): the hit is within 1e-4 of the
    // spacing plus 1e-6 of the coordinates of the joint (a nearer hit, on a segment in front
    // of the joint, also stands). 20,000 draws, 5,160 rays; the old cast missed 282.
    let mut rng = Rng(0x5a0d_13e7_c2b4_96f8);
    let mut failures = Vec::new();
    for case in 0..20_000 {
        let count = 3 + rng.below(6);
        let far = rng.pick(&[0.0f32, 1e3, 1e5]);
        let spacing = rng.pick(&[0.01f32, 1.0, 100.0]);
        if spacing < 1e3 * f32::EPSILON * far {
            continue;
        }
        let mut x = 0.0;
        let points: Vec<Vec2> = (0..count)
            .map(|_| {
                let point = Vec2::new(x, rng.range(-0.5, 0.5) * spacing);
                x += spacing * rng.range(0.5, 1.5);
                point
            })
            .collect();
        let Ok(chain) = Chain::open(&points) else {
            continue;
        };
        let normals = chain.normals().to_vec();
        let shape = Shape::from(chain);
        let xf = Transform::new(rng.point(far), rng.angle());
        let i = 1 + rng.below(count - 2);
        let joint = xf.apply(points[i]);
        let direction = Vec2::from_angle(rng.angle());
        if xf.rotate(normals[i - 1]).dot(direction) > -0.05
            || xf.rotate(normals[i]).dot(direction) > -0.05
        {
            continue;
        }
        let ray = Ray {
            origin: joint - direction * (3.0 * spacing),
            direction,
            max_distance: 10.0 * spacing,
        };
        let slack = 1e-4 * spacing + 1e-6 * far;
        match shape.ray_cast(&xf, &ray) {
            Some(hit) if (hit.point - joint).length() <= slack => {}
            Some(hit) if hit.distance < 3.0 * spacing - slack => {}
            got => failures.push(format!(
                "case {case}: {points:?} at {xf:?}, {ray:?}: {got:?}, joint {joint:?}"
            )),
        }
    }
    assert_no_failures(&failures, 20_000, failures.len());
}

#[test]
fn compound_casts_meet_the_nearest_child_reference() {
    // Compounds of 2 to 4 convex children (no segments) of about 0.1 to 10, placed about the
    // origin or 1e3 and 1e4 out. A ray from within four sizes of the compound: a miss never
    // goes deeper than the slack into a child, a hit beyond 0 is on a child's surface with no
    // child deeper before it. The compound moving by 12 sizes past a convex B from a clear
    // start: a converged hit has the smallest child gap within tolerance + slack of the target
    // and none below it earlier; a miss has none below it. Slack: 1e-5 of the size plus 1e-6
    // of the coordinates (rays), 4e-7 of the coordinates (casts). 2,000 compounds; none wrong
    // (a guard).
    let mut rng = Rng(0x9d3c_57a1_0e6b_24f8);
    let mut failures = Vec::new();
    for case in 0..2000 {
        let size = rng.pick(&[1.0f32, 0.1, 10.0]);
        let far = rng.pick(&[0.0f32, 1e3, 1e4]);
        let children: Vec<(Transform, Shape)> = (0..2 + rng.below(3))
            .map(|_| {
                let child_size = size * rng.range(0.3, 1.0);
                let mut shape = convex_shape(&mut rng, child_size);
                while matches!(shape, Shape::Segment(_)) {
                    shape = convex_shape(&mut rng, child_size);
                }
                (Transform::new(rng.point(size), rng.angle()), shape)
            })
            .collect();
        let compound = Shape::from(Compound::new(children.clone()).unwrap());
        let xf = Transform::new(rng.point(far), rng.angle());
        let placed = |at: &Transform| -> Vec<Rounded> {
            children
                .iter()
                .map(|(child_xf, shape)| Rounded::of(shape, &at.mul(child_xf)))
                .collect()
        };
        let pieces = placed(&xf);
        let heading = Vec2::from_angle(rng.angle());
        let origin = xf.p + rng.point(4.0 * size);
        let ray = Ray {
            origin,
            direction: heading,
            max_distance: 20.0 * size,
        };
        let (from, along) = (p64(ray.origin), p64(ray.direction));
        let slack = 1e-5 * f64::from(size) + 1e-6 * f64::from(far);
        let deepest = |low: f64, high: f64| {
            pieces
                .iter()
                .map(|piece| piece.deepest(from, along, low, high).0)
                .fold(f64::INFINITY, f64::min)
        };
        let surface = |t: f64| {
            pieces
                .iter()
                .map(|piece| piece.along(from, along, t))
                .fold(f64::INFINITY, f64::min)
        };
        match compound.ray_cast(&xf, &ray) {
            None if deepest(0.0, f64::from(ray.max_distance)) < -slack => {
                failures.push(format!("case {case}: {ray:?} missed"));
            }
            Some(hit)
                if hit.distance > 0.0
                    && (surface(f64::from(hit.distance)).abs() > slack
                        || deepest(0.0, f64::from(hit.distance)) < -slack) =>
            {
                failures.push(format!("case {case}: {ray:?} hit {hit:?}"));
            }
            Some(hit) if hit.distance == 0.0 && surface(0.0) > slack => {
                failures.push(format!("case {case}: {ray:?} hit at 0 from outside"));
            }
            _ => {}
        }
        let b = convex_shape(&mut rng, size);
        let xf_b = Transform::new(xf.p + rng.point(size), rng.angle());
        let start = Transform::new(origin - heading * (6.0 * size), rng.angle());
        let delta = heading * (12.0 * size);
        let target = rng.pick(&[0.0f32, 0.01 * size]);
        let tolerance = (1e-4 * size).max(1e-4);
        let options = CastOptions {
            target_separation: target,
            tolerance,
            ..CastOptions::default()
        };
        let got = shape_cast(
            &compound,
            &Sweep::linear(&start, delta),
            &b,
            &Sweep::fixed(&xf_b),
            options,
        );
        let placed_b = Rounded::of(&b, &xf_b);
        let differences: Vec<Rounded> = placed(&start)
            .iter()
            .map(|piece| Rounded {
                points: hull(
                    placed_b
                        .points
                        .iter()
                        .flat_map(|pb| piece.points.iter().map(move |pa| sub(*pb, *pa)))
                        .collect(),
                ),
                radius: piece.radius + placed_b.radius,
            })
            .collect();
        let step = p64(delta);
        let gap = |t: f64| {
            differences
                .iter()
                .map(|m| m.along([0.0, 0.0], step, t))
                .fold(f64::INFINITY, f64::min)
        };
        let lowest = |high: f64| {
            differences
                .iter()
                .map(|m| m.deepest([0.0, 0.0], step, 0.0, high).0)
                .fold(f64::INFINITY, f64::min)
        };
        let allowance = f64::from(tolerance) + 4e-7 * f64::from(far + 20.0 * size);
        let target = f64::from(target);
        if gap(0.0) - target <= allowance {
            continue;
        }
        match got {
            None if lowest(1.0) < target - allowance => {
                failures.push(format!(
                    "case {case}: cast missed, lowest {:e}",
                    lowest(1.0)
                ));
            }
            Some(hit)
                if hit.converged
                    && ((gap(f64::from(hit.t)) - target).abs() > allowance
                        || lowest(f64::from(hit.t)) < target - allowance) =>
            {
                failures.push(format!(
                    "case {case}: cast {hit:?}, gap {:e}",
                    gap(f64::from(hit.t))
                ));
            }
            _ => {}
        }
    }
    assert_no_failures(&failures, 2000, failures.len());
}

#[test]
fn ray_leaving_a_rounded_polygon_it_crossed_behind_far_out_misses() {
    // The line crosses the shape 12 to 50 units behind the origin, 3e7 out: no exit ahead.
    let shape = Shape::from(
        Polygon::new(&[
            Vec2::new(-0.15989551, 0.02523917),
            Vec2::new(-0.15004542, -0.3208408),
            Vec2::new(-0.054852992, -0.3291129),
            Vec2::new(0.10930765, -0.24589534),
            Vec2::new(0.21943063, 0.12909234),
        ])
        .unwrap()
        .with_radius(0.053836137)
        .unwrap(),
    );
    let xf = Transform {
        p: Vec2::new(-29999978.0, 15000010.0),
        q: Rot {
            c: -0.9220834,
            s: -0.38699132,
        },
    };
    for max_distance in [0.0, 1.0, f32::INFINITY] {
        let ray = Ray {
            origin: Vec2::new(-29999990.0, 14999962.0),
            direction: Vec2::new(-0.24308069, -0.97000605),
            max_distance,
        };
        assert_eq!(shape.ray_cast(&xf, &ray), None, "{ray:?}");
    }
}

#[test]
fn rays_pointing_away_from_rounded_shapes_they_line_up_with_miss() {
    // Origins 0.01 to 1e4 sizes outside, the line through the shape behind them, at 0 to 3e7
    // out, sizes 0.01 to 1000, directions of length 1e-3 to 1e3. None may hit (a hit at 0 is
    // allowed only within the slack of the surface).
    let mut rng = Rng(0x7a11_aa7e_bee1_0001);
    let mut failures = Vec::new();
    for case in 0..6000 {
        let size = rng.pick(&[0.01f32, 1.0, 100.0, 1000.0]);
        let far = rng.pick(&[0.0f32, 1e4, 1e6, 3e7]);
        let shape = rounded_shape(&mut rng, size);
        let xf = Transform::new(rng.point(far), rng.angle());
        let reference = Rounded::of(&shape, &xf);
        let centre = reference.points.iter().fold([0.0, 0.0], |c, p| {
            let n = reference.points.len() as f64;
            [c[0] + p[0] / n, c[1] + p[1] / n]
        });
        let heading = f64::from(rng.angle());
        let away = [heading.cos(), heading.sin()];
        let distance = f64::from(size) * 10f64.powf(f64::from(rng.range(-2.0, 4.0)));
        let origin = rounded([
            centre[0] + away[0] * (distance + 2.0 * f64::from(size)),
            centre[1] + away[1] * (distance + 2.0 * f64::from(size)),
        ]);
        let length = rng.pick(&[1.0f32, 1e-3, 1e3, 0.72]);
        let direction = rounded(away) * length;
        let max_distance = rng.pick(&[0.0, f32::INFINITY, 10.0 * size / length]);
        let ray = Ray {
            origin,
            direction,
            max_distance,
        };
        let slack = 1e-4 * f64::from(size) + 1e-6 * length_of(p64(origin));
        if let Err(why) = check_ray(&shape, &xf, &ray, slack) {
            failures.push(format!("case {case}: {shape:?} at {xf:?}, {ray:?}: {why}"));
        }
    }
    assert_no_failures(&failures, 6000, failures.len());
}
