//! Contact points made from a rounded core's vertex (a capsule's end, a rounded polygon's
//! corner) against a polygon face: each point stands for that vertex's cap, the part of the
//! rounded shape whose nearest core point is the vertex, and reports the cap's deepest overlap.
//!
//! The cap of core vertex `w` with radius `r` spans the outward directions between the normals
//! of the two core edges at `w`. Its deepest point towards the face (direction `-f`, `f` the
//! face's outward normal) is `w - r f` when `-f` lies within that span (the lower end of a
//! tilted capsule), and otherwise the end of the span nearest to `-f`, where the cap meets the
//! flat side (the upper end: there `w - r f` lies inside the shape, under its flat side, and
//! `r` minus the core's height would overstate the cap's depth by `r (1 - cos tilt)`).
//! Everything is measured in `f64` against the exact shapes.

use crate::manifold_common;

use collide2d::query::{Feature, Manifold};
use collide2d::shape::{Capsule, Polygon, Shape};
use collide2d::{collide, collide_speculative, Rot, Transform, Vec2};
use manifold_common::{random_polygon, shape_size, Rng};
use std::f32::consts::TAU;

use crate::support::vec64::{cross, dot, P as Point};

fn world(xf: &Transform, local: Vec2) -> Point {
    let p = xf.apply(local);
    [f64::from(p.x), f64::from(p.y)]
}

fn unit(v: Point) -> Point {
    let length = dot(v, v).sqrt();
    [v[0] / length, v[1] / length]
}

/// A rounded core in world coordinates: counter-clockwise vertices, each edge's outward normal
/// (edge `i` runs from vertex `i` to `i + 1`; a capsule's core is a two-vertex outline).
struct Rounded {
    vertices: Vec<Point>,
    normals: Vec<Point>,
    radius: f64,
}

impl Rounded {
    fn new(shape: &Shape, xf: &Transform) -> Rounded {
        let (local, radius) = match shape {
            Shape::Capsule(c) => (vec![c.a(), c.b()], c.radius()),
            Shape::Polygon(p) => (p.vertices().to_vec(), p.radius()),
            _ => unreachable!("only capsules and polygons here"),
        };
        let vertices: Vec<Point> = local.iter().map(|&v| world(xf, v)).collect();
        let count = vertices.len();
        let normals = (0..count)
            .map(|i| {
                let (v1, v2) = (vertices[i], vertices[(i + 1) % count]);
                unit([v2[1] - v1[1], v1[0] - v2[0]])
            })
            .collect();
        Rounded {
            vertices,
            normals,
            radius: f64::from(radius),
        }
    }

    /// The point of vertex `k`'s cap furthest along the unit direction `towards`.
    fn deepest_cap_point(&self, k: usize, towards: Point) -> Point {
        let count = self.vertices.len();
        let before = self.normals[(k + count - 1) % count];
        let after = self.normals[k];
        let direction = if cross(before, towards) >= 0.0 && cross(towards, after) >= 0.0 {
            towards
        } else if dot(before, towards) >= dot(after, towards) {
            before
        } else {
            after
        };
        let w = self.vertices[k];
        [
            w[0] + direction[0] * self.radius,
            w[1] + direction[1] * self.radius,
        ]
    }
}

/// The flat face a rounded shape rests on: its outward normal and `f · x` on its surface.
struct Face {
    normal: Point,
    height: f64,
}

/// What the points of `m` made from the rounded shape's core vertices report, against the
/// exact cap depth (and, with `check_place`, the point against the midway point above the
/// cap's deepest point: a cap spanning a tiny angle, at a very short core edge, is nearly
/// flat, and any point of it is as deep): `(points checked, worst error / tolerance, case)`. `rounded_is_a` says which
/// side of `m` the rounded shape is. Points of the rounded shape's own face (another reference)
/// and clipped points (an edge of the rounded shape) are left to `manifold_exact.rs`.
fn cap_errors(
    m: &Manifold,
    rounded: &Rounded,
    face: &Face,
    (rounded_is_a, check_place): (bool, bool),
    tolerance: f64,
) -> (usize, f64, String) {
    // The face must be the reference: the normal is the face normal, pointing A -> B.
    let normal = [f64::from(m.normal.x), f64::from(m.normal.y)];
    let sign = if rounded_is_a { -1.0 } else { 1.0 };
    if dot(normal, face.normal) * sign < 1.0 - 1e-6 {
        return (0, 0.0, String::new());
    }
    let down = [-face.normal[0], -face.normal[1]];
    let mut checked = 0;
    let mut worst = 0.0f64;
    let mut worst_case = String::new();
    for point in m.points() {
        let rounded_feature = if rounded_is_a { point.id.a } else { point.id.b };
        let Feature::Vertex(k) = rounded_feature else {
            continue;
        };
        let deepest = rounded.deepest_cap_point(usize::from(k), down);
        let depth = face.height - dot(face.normal, deepest);
        // Midway between the cap's deepest point and the face above it.
        let midway = [
            deepest[0] + face.normal[0] * 0.5 * depth,
            deepest[1] + face.normal[1] * 0.5 * depth,
        ];
        let penetration_error = (f64::from(point.penetration) - depth).abs();
        let place_error = (f64::from(point.point.x) - midway[0])
            .abs()
            .max((f64::from(point.point.y) - midway[1]).abs());
        let error = if check_place {
            penetration_error.max(place_error)
        } else {
            penetration_error
        } / tolerance;
        checked += 1;
        if error > worst {
            worst = error;
            worst_case = format!(
                "vertex {k}: reported {point:?}, cap depth {depth} at midway point {midway:?}"
            );
        }
    }
    (checked, worst, worst_case)
}

/// The probe: a box 10 × 1 and a capsule, core (-1, 0)–(1, 0), tilted by `tilt` with both
/// ends in the box (the first two as placed at `0.5 + 0.3 - 0.1 + 0.5 sin(tilt)`). Each end
/// reports its cap's deepest point; the upper end's cap is deepest where it meets the flat
/// side, `r sin(tilt)` beyond the core end along the face, `r cos(tilt)` below the core end.
/// (At tilt 0.5 and radius 0.7 the upper cap is 0.0017 deep while `r` minus the core end's
/// height is 0.0887: that point, under the core end, lies inside the capsule.)
#[test]
fn tilted_capsule_on_a_box_reports_each_caps_deepest_point() {
    let base = Shape::from(Polygon::rect(10.0, 1.0).unwrap());
    // (tilt, radius, depth of the upper cap)
    for (tilt, radius, upper_depth) in [
        (0.02f32, 0.3f32, 0.06994203f32),
        (0.05, 0.3, 0.024656355),
        (0.5, 0.7, 0.0017),
        (0.5, 1.0, 0.05),
        (0.3, 0.05, 0.01),
    ] {
        let capsule =
            Shape::from(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), radius).unwrap());
        let height = 0.5 + radius * tilt.cos() - upper_depth - tilt.sin();
        let xf = Transform::new(Vec2::new(0.0, height), tilt);
        let face = Face {
            normal: [0.0, 1.0],
            height: 0.5,
        };
        let rounded = Rounded::new(&capsule, &xf);
        for rounded_is_a in [false, true] {
            let m = if rounded_is_a {
                collide(&capsule, &xf, &base, &Transform::IDENTITY)
            } else {
                collide(&base, &Transform::IDENTITY, &capsule, &xf)
            };
            assert_eq!(m.count, 2, "tilt {tilt} radius {radius}: {m:?}");
            let (checked, worst, case) =
                cap_errors(&m, &rounded, &face, (rounded_is_a, true), 1e-5);
            assert_eq!(checked, 2, "tilt {tilt} radius {radius}: {m:?}");
            assert!(worst <= 1.0, "tilt {tilt} radius {radius}: {case}");
            // Each point, moved half its penetration down, is on the capsule's surface.
            for point in m.points() {
                let on_capsule = [
                    f64::from(point.point.x),
                    f64::from(point.point.y) - 0.5 * f64::from(point.penetration),
                ];
                let (a, b) = (rounded.vertices[0], rounded.vertices[1]);
                let along = [b[0] - a[0], b[1] - a[1]];
                let t = (dot([on_capsule[0] - a[0], on_capsule[1] - a[1]], along)
                    / dot(along, along))
                .clamp(0.0, 1.0);
                let nearest = [a[0] + along[0] * t, a[1] + along[1] * t];
                let offset = [on_capsule[0] - nearest[0], on_capsule[1] - nearest[1]];
                let distance = dot(offset, offset).sqrt() - f64::from(radius);
                assert!(
                    distance.abs() <= 1e-5,
                    "tilt {tilt} radius {radius}: {point:?} is {distance} off the capsule"
                );
            }
        }
    }
}

/// A capsule's or polygon's core outline in its own frame: counter-clockwise vertices, each
/// edge's outward normal, the radius (a capsule's core is a two-vertex outline).
fn core_outline(shape: &Shape) -> (Vec<Vec2>, Vec<Vec2>, f32) {
    match shape {
        Shape::Capsule(c) => {
            let direction = (c.b() - c.a()).normalize();
            let side = Vec2::new(direction.y, -direction.x);
            (vec![c.a(), c.b()], vec![side, -side], c.radius())
        }
        Shape::Polygon(p) => (p.vertices().to_vec(), p.normals().to_vec(), p.radius()),
        _ => unreachable!("only capsules and polygons here"),
    }
}

/// A capsule or a rounded polygon about `size` across, radius `0.05` to `1` times `size`,
/// lying on a face of a (possibly rounded) box or polygon or on a long capsule's side, `tilt`
/// (up to 0.5 rad) off flat,
/// its deepest point up to its radius deep, within the face's extent; both argument orders.
fn resting_rounded(
    rng: &mut Rng,
    round: usize,
) -> Option<(Shape, Transform, Shape, Transform, bool)> {
    let size = rng.log_size(0.1, 10.0);
    let base_polygon = match round % 3 {
        0 => Polygon::rect(size * rng.range(6.0, 12.0), size * rng.range(0.5, 2.0)).unwrap(),
        1 => Polygon::regular(3 + round % 4, size * rng.range(8.0, 12.0)).unwrap(),
        _ => random_polygon(10.0 * size, Vec2::ZERO, rng),
    };
    let base_polygon = if round % 5 == 2 {
        base_polygon
            .with_radius(size * rng.range(0.01, 0.3))
            .unwrap()
    } else {
        base_polygon
    };
    let radius = size * rng.range(0.05, 1.0);
    let rounded = if round % 2 == 0 {
        let half = size * rng.range(0.1, 0.6);
        Shape::from(Capsule::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0), radius).unwrap())
    } else if round % 4 == 1 {
        let outline = Polygon::rect(size * rng.range(0.2, 1.0), size * rng.range(0.2, 1.0));
        Shape::from(outline.unwrap().with_radius(radius).unwrap())
    } else {
        let outline = random_polygon(0.5 * size, Vec2::ZERO, rng);
        Shape::from(outline.with_radius(radius).unwrap())
    };
    // Every seventh base is a long capsule, resting nearly parallel half the time.
    let capsule_base = round % 7 == 6;
    let base = if capsule_base {
        let half = size * rng.range(4.0, 6.0);
        let base_radius = size * rng.range(0.05, 1.0);
        let (start, end) = (Vec2::new(-half, 0.0), Vec2::new(half, 0.0));
        Shape::from(Capsule::new(start, end, base_radius).unwrap())
    } else {
        Shape::from(base_polygon)
    };
    let (base_vertices, base_normals, base_radius) = core_outline(&base);
    let xf_base = Transform::new(
        Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)),
        rng.range(0.0, TAU),
    );

    // Turn the rounded shape so that its resting side's normal is the face's, reversed, then
    // tilted; put its deepest point `depth` into the face at `along` of it.
    let count = base_vertices.len();
    let face = (rng.unit() * count as f32) as usize % count;
    let (v1, v2) = (base_vertices[face], base_vertices[(face + 1) % count]);
    let face_normal = base_normals[face];
    let (core, side_normals, radius) = core_outline(&rounded);
    let side = side_normals[(rng.unit() * side_normals.len() as f32) as usize % side_normals.len()];
    let sign = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
    let tilt = sign
        * if capsule_base && round % 2 == 0 {
            rng.log_size(1e-6, 0.01)
        } else {
            rng.range(0.0, 0.5)
        };
    let wanted = (-face_normal).y.atan2((-face_normal).x) + tilt;
    let rotation = Rot::from_angle(wanted - side.y.atan2(side.x));
    let lowest = core
        .iter()
        .map(|&v| face_normal.dot(rotation.rotate(v)))
        .fold(f32::INFINITY, f32::min);
    let depth = rng.range(-0.1, 1.0) * radius;
    let along = rng.range(0.3, 0.7);
    let target = v1 + (v2 - v1) * along;
    let height = face_normal.dot(target) + base_radius + radius - depth;
    let p = target + face_normal * (height - face_normal.dot(target) - lowest);
    let b_in_base = Transform { p, q: rotation };
    let xf_rounded = xf_base.mul(&b_in_base);

    // Keep only placements whose rounded shape lies within the face's extent.
    let tangent = (v2 - v1).normalize();
    let length = (v2 - v1).length();
    let inside = core.iter().all(|&v| {
        let t = (b_in_base.apply(v) - v1).dot(tangent);
        t - radius > 0.0 && t + radius < length
    });
    if !inside {
        return None;
    }
    let rounded_is_a = round % 3 == 1;
    Some(if rounded_is_a {
        (rounded, xf_rounded, base, xf_base, true)
    } else {
        (base, xf_base, rounded, xf_rounded, false)
    })
}

/// Every point made from a rounded core's vertex reports the deepest overlap of that vertex's
/// cap, within 1e-4 × size.
#[test]
fn points_of_rounded_core_vertices_report_their_caps_deepest_overlap() {
    let mut rng = Rng(0x2f1c_84d3_a9b7_0e65);
    let (mut placements, mut checked, mut upper_ends, mut on_capsules) = (0, 0, 0, 0);
    let mut worst = (0.0f64, String::new());
    for round in 0..40_000 {
        let Some((a, xf_a, b, xf_b, rounded_is_a)) = resting_rounded(&mut rng, round) else {
            continue;
        };
        placements += 1;
        let (rounded_shape, xf_rounded, base_shape, xf_base) = if rounded_is_a {
            (&a, &xf_a, &b, &xf_b)
        } else {
            (&b, &xf_b, &a, &xf_a)
        };
        let rounded = Rounded::new(rounded_shape, xf_rounded);
        let base = Rounded::new(base_shape, xf_base);
        let scale = f64::from(shape_size(rounded_shape));
        let far =
            f64::from(xf_a.p.abs().max_element().max(xf_b.p.abs().max_element())) + 20.0 * scale;
        let tolerance = 1e-4 * scale + 8.0 * f64::from(f32::EPSILON) * far;
        for margin in [0.0, 0.1 * scale as f32] {
            let m = collide_speculative(&a, &xf_a, &b, &xf_b, margin);
            // The face is the base's edge the points name (nearly collinear edges have
            // nearly equal normals), else the one whose normal is the manifold's.
            let normal = if rounded_is_a { -m.normal } else { m.normal };
            let normal = [f64::from(normal.x), f64::from(normal.y)];
            let named = m.points().iter().find_map(|point| {
                match if rounded_is_a { point.id.b } else { point.id.a } {
                    Feature::Edge(i) => Some(usize::from(i)),
                    Feature::Vertex(_) => None,
                }
            });
            let aligned =
                || (0..base.normals.len()).find(|&i| dot(base.normals[i], normal) > 1.0 - 1e-6);
            let Some(face) = named.or_else(aligned) else {
                continue;
            };
            let face = Face {
                normal: base.normals[face],
                height: dot(base.normals[face], base.vertices[face]) + base.radius,
            };
            let (count, error, case) =
                cap_errors(&m, &rounded, &face, (rounded_is_a, false), tolerance);
            checked += count;
            if matches!(base_shape, Shape::Capsule(_)) {
                on_capsules += count;
            }
            if count == 2 {
                upper_ends += 1;
            }
            if error > worst.0 {
                worst = (
                    error,
                    format!("round {round} margin {margin}: {a:?} {xf_a:?} {b:?} {xf_b:?} -> {m:?}\n{case}"),
                );
            }
        }
    }
    println!(
        "{placements} placements, {checked} vertex points ({upper_ends} manifolds with both, \
         {on_capsules} on capsules), worst {:.3} (1 = tolerance)",
        worst.0
    );
    assert!(placements > 10_000 && checked > 10_000 && upper_ends > 1_000 && on_capsules > 1_000);
    assert!(worst.0 <= 1.0, "{}", worst.1);
}
