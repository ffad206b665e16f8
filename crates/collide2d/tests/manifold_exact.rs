//! Contact points and depths against an exact `f64` referee: every reported point, moved by
//! `±normal · penetration / 2`, lies on the two surfaces, and its penetration is the depth of
//! the two surfaces along the normal through that point. Resting, nearly parallel and general
//! configurations of every convex pair family; the regressions of contact points found far
//! from the contact, shapes missing their own copies, nearly parallel capsules reported apart
//! and understated second points.

mod manifold_common;

use collide2d::query::Manifold;
use collide2d::shape::{Polygon, Shape};
use collide2d::{contacts, Rot, Transform, Vec2};
use manifold_common::exact::{core, corner_distance, line_extent, signed_distance, Core};
use manifold_common::{make_shape, placements, random_polygon, shape_size, Kind, Numbers};
use std::f32::consts::TAU;

/// How far a point's placement and penetration are from the exact surfaces, relative to the
/// tolerance (1e-4 × size plus the rounding of the coordinates): at most 1 passes.
#[derive(Clone, Copy, Debug, Default)]
struct Errors {
    /// `A`'s surface at `point + normal · penetration / 2`, `B`'s at `point − …`.
    surface: f64,
    /// The penetration against the depth of the surfaces along the normal at the point.
    depth: f64,
}

/// The errors of every point of `m` (the manifold of `a` at `xf_a` and `b` at `xf_b`).
fn point_errors(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform, m: &Manifold) -> Errors {
    let origin = xf_a.p;
    let (Some(core_a), Some(core_b)) = (core(a, xf_a, origin), core(b, xf_b, origin)) else {
        return Errors::default();
    };
    let scale = f64::from(shape_size(a).max(shape_size(b)));
    let far = f64::from(xf_a.p.abs().max_element().max(xf_b.p.abs().max_element())) + scale;
    let tolerance = 1e-4 * scale + 8.0 * f64::from(f32::EPSILON) * far;
    let normal = [f64::from(m.normal.x), f64::from(m.normal.y)];
    let length = (normal[0] * normal[0] + normal[1] * normal[1]).sqrt();
    let normal = [normal[0] / length, normal[1] / length];
    let mut errors = Errors::default();
    for point in m.points() {
        let p = [
            f64::from(point.point.x) - f64::from(origin.x),
            f64::from(point.point.y) - f64::from(origin.y),
        ];
        let half = 0.5 * f64::from(point.penetration);
        let on_a = [p[0] + normal[0] * half, p[1] + normal[1] * half];
        let on_b = [p[0] - normal[0] * half, p[1] - normal[1] * half];
        let surface = signed_distance(&core_a, on_a)
            .abs()
            .max(signed_distance(&core_b, on_b).abs());
        errors.surface = errors.surface.max(surface / tolerance);
        let depth = depth_error(
            (&core_a, &core_b),
            p,
            normal,
            f64::from(point.penetration),
            tolerance,
        );
        errors.depth = errors.depth.max(depth / tolerance);
    }
    errors
}

/// How far the two surfaces along the normal through `p` are from `p ± normal · penetration / 2`
/// (A's far side at `+`, B's near side at `-`), each the best of the lines through `p` and up
/// to `lateral` to either side. At a corner (the nearest point of the shape's core is within
/// `lateral` of a vertex)
/// the line may graze a side, where the surface along it jumps between the corner and the
/// side's far end: there the distance to the surface counts instead. Lines that miss a shape
/// count as no error (the point is then at a corner, which the surface check covers).
fn depth_error(
    (a, b): (&Core, &Core),
    p: [f64; 2],
    normal: [f64; 2],
    penetration: f64,
    lateral: f64,
) -> f64 {
    let across = [-normal[1], normal[0]];
    let half = 0.5 * penetration;
    let side = |core: &Core, sign: f64| {
        let on = [
            p[0] + normal[0] * sign * half,
            p[1] + normal[1] * sign * half,
        ];
        if corner_distance(core, on) <= lateral {
            return signed_distance(core, on).abs();
        }
        [0.0, 0.5, -0.5, 1.0, -1.0]
            .iter()
            .map(|&shift| {
                let q = [
                    p[0] + across[0] * shift * lateral,
                    p[1] + across[1] * shift * lateral,
                ];
                line_extent(core, q, normal).map_or(0.0, |(low, high)| {
                    let surface = if sign > 0.0 { high } else { -low };
                    (surface - half).abs()
                })
            })
            .fold(f64::INFINITY, f64::min)
    };
    side(a, 1.0) + side(b, -1.0)
}

/// Runs `cases` configurations from `make`, collide and the speculative contacts, and returns
/// the worst errors with the case that showed them.
fn worst_over(
    cases: usize,
    seed: u64,
    mut make: impl FnMut(&mut Numbers, usize) -> (Shape, Transform, Shape, Transform),
) -> (Errors, String) {
    let mut rng = Numbers(seed);
    let mut worst = Errors::default();
    let mut worst_cases = [String::new(), String::new()];
    for round in 0..cases {
        let (a, xf_a, b, xf_b) = make(&mut rng, round);
        let scale = shape_size(&a).max(shape_size(&b));
        for margin in [0.0, 0.05 * scale] {
            let m = contacts(&a, &xf_a, &b, &xf_b, margin);
            let errors = point_errors(&a, &xf_a, &b, &xf_b, &m);
            let case =
                || format!("round {round} margin {margin}: {a:?} {xf_a:?} {b:?} {xf_b:?} -> {m:?}");
            if errors.surface > worst.surface {
                worst.surface = errors.surface;
                worst_cases[0] = case();
            }
            if errors.depth > worst.depth {
                worst.depth = errors.depth;
                worst_cases[1] = case();
            }
        }
    }
    (worst, worst_cases.join("\n"))
}

fn assert_exact(
    cases: usize,
    seed: u64,
    make: impl FnMut(&mut Numbers, usize) -> (Shape, Transform, Shape, Transform),
) {
    let (worst, case) = worst_over(cases, seed, make);
    println!(
        "worst surface {:.3}, depth {:.3} (1 = tolerance)",
        worst.surface, worst.depth
    );
    assert!(
        worst.surface <= 1.0 && worst.depth <= 1.0,
        "{worst:?}\n{case}"
    );
}

/// A box, a rounded box or an n-gon about `size` across.
fn random_outline(rng: &mut Numbers, round: usize, size: f32) -> Polygon {
    let polygon = match round % 3 {
        0 => Polygon::rect(size * rng.range(0.2, 1.0), size * rng.range(0.2, 1.0)).unwrap(),
        1 => Polygon::regular(3 + (rng.unit() * 6.0) as usize, 0.5 * size).unwrap(),
        _ => random_polygon(0.5 * size, Vec2::ZERO, rng),
    };
    if round % 5 == 3 {
        polygon.with_radius(size * rng.range(0.01, 0.2)).unwrap()
    } else {
        polygon
    }
}

/// B resting on one of A's faces with one of its own, turned by `tilt` and `depth` deep
/// (negative: apart), its face centre `along` A's face (0 and 1: A's ends).
fn resting_on(
    a: &Polygon,
    xf_a: &Transform,
    b: &Polygon,
    (face_a, face_b): (usize, usize),
    (tilt, depth, along): (f32, f32, f32),
) -> Transform {
    let count_a = a.vertices().len();
    let count_b = b.vertices().len();
    let (v1, v2) = (a.vertices()[face_a], a.vertices()[(face_a + 1) % count_a]);
    let normal_a = a.normals()[face_a];
    let normal_b = b.normals()[face_b];
    let middle_b = (b.vertices()[face_b] + b.vertices()[(face_b + 1) % count_b]) * 0.5;
    // Turn B so that its face normal is A's, reversed, then tilted.
    let wanted = (-normal_a).y.atan2((-normal_a).x) + tilt;
    let angle = wanted - normal_b.y.atan2(normal_b.x);
    let rotation = Rot::from_angle(angle);
    let surface_gap = a.radius() + b.radius() - depth;
    let target = v1 + (v2 - v1) * along + normal_a * surface_gap;
    let b_in_a = Transform {
        p: target - rotation.rotate(middle_b),
        q: rotation,
    };
    xf_a.mul(&b_in_a)
}

fn random_pose(rng: &mut Numbers, spread: f32) -> Transform {
    Transform::new(
        Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread)),
        rng.range(0.0, TAU),
    )
}

/// Resting, nearly parallel polygon faces: tilts of 1e-7 to 1e-2 rad, depths within ±1e-6
/// and up to 1e-3 of the size.
fn resting_polygons(rng: &mut Numbers, round: usize) -> (Shape, Transform, Shape, Transform) {
    let (size_a, size_b) = (rng.size(0.1, 10.0), rng.size(0.1, 10.0));
    let a = random_outline(rng, round, size_a);
    let b = random_outline(rng, round / 3 + round, size_b);
    let xf_a = random_pose(rng, 100.0);
    let face_a = (rng.unit() * a.vertices().len() as f32) as usize % a.vertices().len();
    let face_b = (rng.unit() * b.vertices().len() as f32) as usize % b.vertices().len();
    let sign = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
    let tilt = sign
        * if round % 4 == 0 {
            0.0
        } else {
            rng.size(1e-7, 1e-2)
        };
    let size = shape_size(&Shape::from(a.clone())).min(shape_size(&Shape::from(b.clone())));
    let depth = if round % 2 == 0 {
        rng.range(-1e-6, 1e-6)
    } else {
        rng.range(-1e-3, 1e-3) * size
    };
    let along = rng.range(-0.3, 1.3);
    let xf_b = resting_on(&a, &xf_a, &b, (face_a, face_b), (tilt, depth, along));
    (Shape::from(a), xf_a, Shape::from(b), xf_b)
}

/// Two random polygons (boxes, rounded boxes, n-gons) placed near each other.
fn general_polygons(rng: &mut Numbers, round: usize) -> (Shape, Transform, Shape, Transform) {
    let (size_a, size_b) = (rng.size(0.1, 10.0), rng.size(0.1, 10.0));
    let a = Shape::from(random_outline(rng, round, size_a));
    let b = Shape::from(random_outline(rng, round / 3 + round, size_b));
    let (xf_a, xf_b) = placements(shape_size(&a), shape_size(&b), 100.0, rng);
    (a, xf_a, b, xf_b)
}

#[test]
fn resting_polygon_contacts_lie_on_both_surfaces() {
    assert_exact(50_000, 0x9e37_79b9_7f4a_7c15, resting_polygons);
}

#[test]
fn general_polygon_contacts_lie_on_both_surfaces() {
    assert_exact(50_000, 0x2545_f491_4f6c_dd1d, general_polygons);
}

const FAMILIES: [Kind; 5] = [
    Kind::Circle,
    Kind::Capsule,
    Kind::Segment,
    Kind::Polygon,
    Kind::RoundedPolygon,
];

/// Every pair family, random placements: each point's penetration is its own depth.
#[test]
fn every_family_reports_each_points_own_depth() {
    for (i, &kind_a) in FAMILIES.iter().enumerate() {
        for (j, &kind_b) in FAMILIES.iter().enumerate() {
            let seed = 0x5851_f42d_4c95_7f2d ^ ((i * 8 + j) as u64 + 1);
            assert_exact(4_000, seed, |rng, _| {
                let (size_a, size_b) = (rng.size(0.1, 10.0), rng.size(0.1, 10.0));
                let a = make_shape(kind_a, size_a, rng);
                let b = make_shape(kind_b, size_b, rng);
                let (xf_a, xf_b) = placements(shape_size(&a), shape_size(&b), 100.0, rng);
                (a, xf_a, b, xf_b)
            });
        }
    }
}
