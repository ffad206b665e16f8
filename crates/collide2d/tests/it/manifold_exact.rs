//! Contact points and depths against an exact `f64` referee: every reported point, moved by
//! `±normal · penetration / 2`, lies on the two surfaces, and its penetration is the depth of
//! the two surfaces along the normal through that point. Resting, nearly parallel and general
//! configurations of every convex pair family; the regressions of contact points found far
//! from the contact, shapes missing their own copies, nearly parallel capsules reported apart
//! and understated second points.

use crate::manifold_common;

use collide2d::query::Manifold;
use collide2d::shape::{Capsule, Compound, Polygon, Segment, Shape, MIN_EDGE_LENGTH};
use collide2d::{collide, collide_speculative, distance, overlaps, Rot, Transform, Vec2};
use manifold_common::exact::{core, corner_distance, line_extent, signed_distance, Core};
use manifold_common::{make_shape, placements, random_polygon, shape_size, Kind, Rng};
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
pub(crate) fn depth_error(
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
    mut make: impl FnMut(&mut Rng, usize) -> (Shape, Transform, Shape, Transform),
) -> (Errors, String) {
    let mut rng = Rng(seed);
    let mut worst = Errors::default();
    let mut worst_cases = [String::new(), String::new()];
    for round in 0..cases {
        let (a, xf_a, b, xf_b) = make(&mut rng, round);
        let scale = shape_size(&a).max(shape_size(&b));
        for margin in [0.0, 0.05 * scale] {
            let m = collide_speculative(&a, &xf_a, &b, &xf_b, margin);
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
    make: impl FnMut(&mut Rng, usize) -> (Shape, Transform, Shape, Transform),
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
fn random_outline(rng: &mut Rng, round: usize, size: f32) -> Polygon {
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

fn random_pose(rng: &mut Rng, spread: f32) -> Transform {
    Transform::new(
        Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread)),
        rng.range(0.0, TAU),
    )
}

/// Resting, nearly parallel polygon faces: tilts of 1e-7 to 1e-2 rad, depths within ±1e-6
/// and up to 1e-3 of the size.
fn resting_polygons(rng: &mut Rng, round: usize) -> (Shape, Transform, Shape, Transform) {
    let (size_a, size_b) = (rng.log_size(0.1, 10.0), rng.log_size(0.1, 10.0));
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
            rng.log_size(1e-7, 1e-2)
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
fn general_polygons(rng: &mut Rng, round: usize) -> (Shape, Transform, Shape, Transform) {
    let (size_a, size_b) = (rng.log_size(0.1, 10.0), rng.log_size(0.1, 10.0));
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
                let (size_a, size_b) = (rng.log_size(0.1, 10.0), rng.log_size(0.1, 10.0));
                let a = make_shape(kind_a, size_a, rng);
                let b = make_shape(kind_b, size_b, rng);
                let (xf_a, xf_b) = placements(shape_size(&a), shape_size(&b), 100.0, rng);
                (a, xf_a, b, xf_b)
            });
        }
    }
}

/// A capsule (or segment) lying tilted against a polygon face, its lower end up to its
/// radius deep.
fn capsule_on_face(rng: &mut Rng, round: usize) -> (Shape, Transform, Shape, Transform) {
    let size = rng.log_size(0.1, 10.0);
    let polygon = random_outline(rng, round, size);
    let xf_polygon = random_pose(rng, 100.0);
    let face = (rng.unit() * polygon.vertices().len() as f32) as usize % polygon.vertices().len();
    let count = polygon.vertices().len();
    let (v1, v2) = (
        polygon.vertices()[face],
        polygon.vertices()[(face + 1) % count],
    );
    let normal = polygon.normals()[face];
    let half_length = size * rng.range(0.05, 0.6);
    let radius = if round % 4 == 0 {
        0.0
    } else {
        size * rng.range(0.01, 0.3)
    };
    let tilt = rng.range(-0.6, 0.6);
    let depth = rng.range(-0.2, 1.0) * radius.max(0.01 * size);
    let along = rng.range(-0.2, 1.2);
    let tangent = Vec2::new(-normal.y, normal.x);
    let direction = Rot::from_angle(tilt).rotate(tangent);
    let lower = if direction.dot(normal) > 0.0 {
        -direction
    } else {
        direction
    };
    // The lower end touches the face line `depth` deep; the capsule rises away from it.
    let touch = v1 + (v2 - v1) * along;
    let start = touch + normal * (polygon.radius() + radius - depth);
    let end = start - lower * (2.0 * half_length);
    let local = |p: Vec2| p - start;
    let capsule = if radius > 0.0 {
        Shape::from(Capsule::new(local(start), local(end), radius).unwrap())
    } else {
        Shape::from(Segment::new(local(start), local(end)).unwrap())
    };
    let xf_capsule = xf_polygon.mul(&Transform::new(start, 0.0));
    if round % 2 == 0 {
        (Shape::from(polygon), xf_polygon, capsule, xf_capsule)
    } else {
        (capsule, xf_capsule, Shape::from(polygon), xf_polygon)
    }
}

#[test]
fn tilted_capsules_on_polygon_faces_report_each_ends_own_depth() {
    assert_exact(30_000, 0x1405_7b7e_f767_814f, capsule_on_face);
}

// ---- Regressions and their classes ----

/// Resting boxes whose faces are nearly parallel: a point was reported at a vertex half a box
/// away from the contact, 0.74 from A's surface.
#[test]
fn resting_boxes_report_their_contact_on_both_surfaces() {
    let a = Shape::from(Polygon::rect(1.5542687, 1.3491561).unwrap());
    let xf_a = Transform {
        p: Vec2::new(-5.000565, -0.3862772),
        q: Rot {
            c: 0.99217725,
            s: -0.12483701,
        },
    };
    let b = Shape::from(Polygon::rect(1.9005517, 1.2619432).unwrap());
    let xf_b = Transform {
        p: Vec2::new(-3.9224935, 1.1157434),
        q: Rot {
            c: 0.12483797,
            s: 0.9921771,
        },
    };
    for (a, xf_a, b, xf_b) in [(&a, &xf_a, &b, &xf_b), (&b, &xf_b, &a, &xf_a)] {
        let m = collide(a, xf_a, b, xf_b);
        assert!(!m.is_empty());
        let errors = point_errors(a, xf_a, b, xf_b, &m);
        assert!(
            errors.surface <= 1.0 && errors.depth <= 1.0,
            "{errors:?} {m:?}"
        );
    }
}

/// Every convex shape kind, and a compound, at random poses (near and far from the origin).
fn random_shape_of_every_kind(rng: &mut Rng, round: usize) -> Shape {
    let size = rng.log_size(1e-3, 1e3);
    match round % 10 {
        0 => make_shape(Kind::Circle, size, rng),
        1 => make_shape(Kind::Capsule, size, rng),
        2 => make_shape(Kind::Segment, size, rng),
        3 => make_shape(Kind::Polygon, size, rng),
        4 => make_shape(Kind::RoundedPolygon, size, rng),
        5 => make_shape(Kind::Compound, size, rng),
        6 => Shape::from(random_outline(rng, round / 9, size)),
        // Degenerate-looking capsules and segments: coincident ends, or the shortest edge.
        7 => {
            let start = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * size;
            let angle = rng.range(0.0, TAU);
            let end = if rng.unit() < 0.5 {
                start
            } else {
                start + Vec2::new(angle.cos(), angle.sin()) * (1.01 * MIN_EDGE_LENGTH)
            };
            let capsule = Capsule::new(start, end, size * rng.range(1e-3, 0.1))
                .unwrap_or_else(|_| Capsule::new(start, start, size).unwrap());
            Shape::from(capsule)
        }
        // A compound with a segment child: child pairs are placed relative to each other too.
        8 => {
            let start = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * size;
            let segment = Segment::new(start, start + Vec2::new(0.6, -0.3) * size).unwrap();
            let polygon = make_shape(Kind::Polygon, size, rng);
            let children = vec![
                (random_pose(rng, size), Shape::from(segment)),
                (random_pose(rng, size), polygon),
            ];
            Shape::from(Compound::new(children).unwrap())
        }
        _ => {
            let start = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * size;
            let angle = rng.range(0.0, TAU);
            let length = if rng.unit() < 0.5 {
                1.01 * MIN_EDGE_LENGTH
            } else {
                size
            };
            let end = start + Vec2::new(angle.cos(), angle.sin()) * length;
            let segment = Segment::new(start, end)
                .unwrap_or_else(|_| Segment::new(start, start + Vec2::X * size).unwrap());
            Shape::from(segment)
        }
    }
}

/// Identical segments at the same rotated pose were reported apart in 17 % of poses: the copy
/// was scaled by the rounding of `c² + s²` in the relative placement. Chains are left out:
/// chains against chains give nothing, by design (they are level geometry).
#[test]
fn every_shape_overlaps_its_copy_at_the_same_pose() {
    let segment = Shape::from(Segment::new(Vec2::new(-0.3, 0.2), Vec2::new(0.7, -0.1)).unwrap());
    for i in 0..1000 {
        let pose = Transform::new(Vec2::new(1.3, -2.0), i as f32 * 0.0137);
        assert!(overlaps(&segment, &pose, &segment, &pose), "pose {pose:?}");
        assert!(!collide(&segment, &pose, &segment, &pose).is_empty());
    }
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    for round in 0..20_000 {
        let shape = random_shape_of_every_kind(&mut rng, round);
        let spread = [1.0, 1e3, 1e6][round % 3];
        let pose = random_pose(&mut rng, spread);
        assert!(
            overlaps(&shape, &pose, &shape, &pose),
            "{shape:?} at {pose:?}"
        );
        let m = collide(&shape, &pose, &shape, &pose);
        assert!(!m.is_empty(), "{shape:?} at {pose:?}");
        assert!(m.normal.is_finite() && m.points().iter().all(|p| p.point.is_finite()));
    }
}

/// Two placed segment cores in `f64`, relative to `origin`, for the closest-points referee.
fn exact_pair(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> f64 {
    let origin = xf_a.p;
    let (core_a, core_b) = (
        core(a, xf_a, origin).unwrap(),
        core(b, xf_b, origin).unwrap(),
    );
    manifold_common::exact::exact(&core_a, &core_b).depth
}

/// Nearly parallel capsules overlapping by 5.17e-4 were reported apart: the closest points
/// of the cores cancelled to the far end.
#[test]
fn nearly_parallel_capsules_overlapping_slightly_overlap() {
    let a = Shape::from(
        Capsule::new(
            Vec2::new(0.3137133, 0.74925745),
            Vec2::new(-0.10833666, -1.0639749),
            0.7649208,
        )
        .unwrap(),
    );
    let xf_a = Transform {
        p: Vec2::new(-6.944889, -27.381308),
        q: Rot {
            c: 0.90448064,
            s: 0.42651471,
        },
    };
    let b = Shape::from(
        Capsule::new(
            Vec2::new(0.4630524, 0.2497191),
            Vec2::new(-0.8386928, -0.6101349),
            0.36167604,
        )
        .unwrap(),
    );
    let xf_b = Transform {
        p: Vec2::new(-5.7243853, -26.831387),
        q: Rot {
            c: -0.36375856,
            s: -0.9314933,
        },
    };
    let depth = exact_pair(&a, &xf_a, &b, &xf_b);
    assert!((depth - 5.17e-4).abs() < 1e-5, "{depth}");
    assert!(overlaps(&a, &xf_a, &b, &xf_b));
    assert!(overlaps(&b, &xf_b, &a, &xf_a));
    let m = collide(&a, &xf_a, &b, &xf_b);
    assert!(
        (f64::from(m.max_penetration()) - depth).abs() < 1e-5,
        "{m:?}"
    );
    assert_eq!(distance(&a, &xf_a, &b, &xf_b).distance, 0.0);
}

/// Nearly parallel segment and capsule pairs (sines of 0 to 1e-2 between them, overlapping
/// or apart by up to a tenth of their size): the deepest point is the exact depth, and
/// `overlaps` agrees with it.
#[test]
fn nearly_parallel_segments_and_capsules_match_the_exact_depth() {
    let mut rng = Rng(0xbb67_ae85_84ca_a73b);
    let mut worst = 0.0f64;
    for round in 0..100_000 {
        let size = rng.log_size(0.01, 100.0);
        let length_a = size * rng.range(0.2, 1.0);
        let length_b = size * rng.range(0.2, 1.0);
        let radius = |rng: &mut Rng, round: usize| {
            if round % 3 == 0 {
                0.0
            } else {
                size * rng.range(0.01, 0.5)
            }
        };
        let (radius_a, radius_b) = (radius(&mut rng, round), radius(&mut rng, round / 3));
        let turn = if round % 5 == 0 {
            0.0
        } else {
            rng.log_size(1e-8, 1e-2) * if rng.unit() < 0.5 { -1.0 } else { 1.0 }
        };
        let gap = rng.range(-0.1, 0.1) * size;
        let slide = rng.range(-1.0, 1.0) * size;
        let make = |length: f32, radius: f32| {
            let (start, end) = (Vec2::new(-0.5 * length, 0.0), Vec2::new(0.5 * length, 0.0));
            if radius > 0.0 {
                Shape::from(Capsule::new(start, end, radius).unwrap())
            } else {
                Shape::from(Segment::new(start, end).unwrap())
            }
        };
        let a = make(length_a, radius_a);
        let b = make(length_b, radius_b);
        let xf_a = random_pose(&mut rng, 100.0);
        let flipped = if round % 2 == 0 {
            0.0
        } else {
            std::f32::consts::PI
        };
        let b_in_a = Transform::new(Vec2::new(slide, radius_a + radius_b - gap), turn + flipped);
        let xf_b = xf_a.mul(&b_in_a);
        let depth = exact_pair(&a, &xf_a, &b, &xf_b);
        let far = f64::from(xf_a.p.abs().max_element()) + f64::from(size);
        let tolerance = 1e-5 * f64::from(size) + 8.0 * f64::from(f32::EPSILON) * far;
        let margin = 0.2 * size;
        let m = collide_speculative(&a, &xf_a, &b, &xf_b, margin);
        if m.is_empty() {
            assert!(
                depth < -f64::from(margin) + tolerance,
                "round {round}: lost, depth {depth}\n{a:?} {xf_a:?} {b:?} {xf_b:?}"
            );
            continue;
        }
        let error = (f64::from(m.max_penetration()) - depth).abs();
        worst = worst.max(error / tolerance);
        assert!(
            error <= tolerance,
            "round {round}: depth {depth} vs {m:?}\n{a:?} {xf_a:?} {b:?} {xf_b:?}"
        );
        if depth.abs() > tolerance {
            assert_eq!(
                overlaps(&a, &xf_a, &b, &xf_b),
                depth > 0.0,
                "round {round}: depth {depth}\n{a:?} {xf_a:?} {b:?} {xf_b:?}"
            );
        }
    }
    println!("worst depth error {worst:.3} of the tolerance");
}
