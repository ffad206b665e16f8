//! Features that collapse to a few ulps: a shape whose local edges are valid but tiny (down to
//! `MIN_EDGE_LENGTH`), placed beside coordinates of 1 to 1e4, or built from coordinates mixing
//! subnormal and ordinary numbers, turns into segments, offsets and directions whose squares
//! underflow `f32`. Every unit vector a query reports must still be unit length (to 1e-5), and a
//! projected point must lie at the distance it reports, for every kind of shape and pair.

use crate::support;

use collide2d::query::{shape_cast, CastOptions, DistanceOutput, Sweep};
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Ray, Segment, Shape};
use collide2d::{collide, collide_speculative, distance, Rot, Transform, Vec2};
use support::Rng;

const UNIT_TOLERANCE: f32 = 1e-5;

/// A coordinate: zero, tiny (subnormal included), small, or ordinary, either sign.
fn coordinate(rng: &mut Rng) -> f32 {
    let magnitude = match rng.below(5) {
        0 => 0.0,
        1 => rng.log_size(1e-44, 1e-15),
        2 => rng.log_size(1e-12, 1e-3),
        3 => rng.pick(&[1.0, 100.0, 1e4]),
        _ => rng.log_size(0.1, 1e4),
    };
    if rng.chance(0.5) {
        -magnitude
    } else {
        magnitude
    }
}

fn coordinates(rng: &mut Rng) -> Vec2 {
    Vec2::new(coordinate(rng), coordinate(rng))
}

/// A point near `base`: the same point nudged by a tiny or small amount along each axis.
fn near(rng: &mut Rng, base: Vec2) -> Vec2 {
    let mut nudge = || match rng.below(3) {
        0 => 0.0,
        1 => rng.range(-1.0, 1.0) * rng.log_size(1e-44, 1e-15),
        _ => rng.range(-1.0, 1.0) * rng.log_size(1e-12, 1e-3),
    };
    base + Vec2::new(nudge(), nudge())
}

fn radius(rng: &mut Rng) -> f32 {
    match rng.below(4) {
        0 => 0.0,
        1 => rng.log_size(1e-44, 1e-15),
        2 => rng.log_size(1e-6, 1.0),
        _ => rng.log_size(1.0, 200.0),
    }
}

fn rotation(rng: &mut Rng) -> Rot {
    match rng.below(3) {
        0 => Rot::IDENTITY,
        // Turned by a tiny angle: the sine is subnormal-scale, the cosine one.
        1 => Rot::try_from_cos_sin(1.0, rng.range(-1.0, 1.0) * rng.log_size(1e-40, 1e-6)).unwrap(),
        _ => Rot::from_angle(rng.angle()),
    }
}

fn transform(rng: &mut Rng) -> Transform {
    Transform {
        p: coordinates(rng),
        q: rotation(rng),
    }
}

/// A tiny convex leaf around a point with ordinary or tiny coordinates, or `None` when the
/// constructor refuses the numbers drawn.
fn leaf(rng: &mut Rng) -> Option<Shape> {
    let base = coordinates(rng);
    match rng.below(5) {
        0 => Circle::new(base, radius(rng)).ok().map(Shape::from),
        1 => Capsule::new(base, near(rng, base), radius(rng))
            .ok()
            .map(Shape::from),
        2 => Segment::new(base, near(rng, base)).ok().map(Shape::from),
        3 => {
            let points: Vec<Vec2> = (0..3 + rng.below(3)).map(|_| near(rng, base)).collect();
            let polygon = Polygon::hull(&points).ok()?;
            if rng.chance(0.5) {
                polygon.with_radius(radius(rng)).ok().map(Shape::from)
            } else {
                Some(Shape::from(polygon))
            }
        }
        _ => {
            let size = rng.log_size(1e-11, 1e-3);
            Polygon::rounded_rect(size, size * rng.range(0.5, 2.0), 0.0)
                .ok()
                .map(Shape::from)
        }
    }
}

/// Any kind of shape, tiny or with tiny features.
fn shape(rng: &mut Rng) -> Option<Shape> {
    match rng.below(8) {
        0 => {
            let children: Vec<(Transform, Shape)> = (0..1 + rng.below(3))
                .filter_map(|_| Some((transform(rng), leaf(rng)?)))
                .collect();
            Compound::new(children).ok().map(Shape::from)
        }
        1 => {
            let base = coordinates(rng);
            let points: Vec<Vec2> = (0..3).map(|_| near(rng, base)).collect();
            Chain::open(&points).ok().map(Shape::from)
        }
        _ => leaf(rng),
    }
}

fn is_unit(v: Vec2) -> bool {
    v.is_finite() && (v.length() - 1.0).abs() <= UNIT_TOLERANCE
}

/// The largest coordinate magnitude a placed shape reaches (its box's corners).
fn reach(shape: &Shape, xf: &Transform) -> f32 {
    let aabb = shape.aabb(xf);
    aabb.min.abs().max(aabb.max.abs()).max_element()
}

#[test]
fn pair_queries_report_unit_normals_for_collapsed_features() {
    let mut rng = Rng(0xc011_a95e);
    let (mut pairs, mut touching, mut casts) = (0, 0, 0);
    while pairs < 100_000 {
        let Some(a) = shape(&mut rng) else {
            continue;
        };
        let xf_a = transform(&mut rng);
        // A quarter of the time B is a point a few ulps off A's surface: the cores start a
        // subnormal distance apart.
        if rng.chance(0.25) {
            let aabb = a.aabb(&xf_a);
            let inside = aabb.min.lerp(aabb.max, rng.unit());
            let surface = a.project_point(&xf_a, inside).point;
            let b = Shape::from(Circle::new(Vec2::ZERO, 0.0).unwrap());
            let xf_b = Transform::from_translation(near(&mut rng, surface));
            pairs += 1;
            check_pair(&a, &xf_a, &b, &xf_b, &mut touching, &mut casts);
            continue;
        }
        let Some(b) = shape(&mut rng) else {
            continue;
        };
        // B near A's surface half the time, so that the pair touches or nearly does.
        let xf_b = if rng.chance(0.5) {
            let aabb = a.aabb(&xf_a);
            let inside = aabb.min.lerp(aabb.max, rng.unit());
            Transform {
                p: near(&mut rng, inside),
                q: rotation(&mut rng),
            }
        } else {
            transform(&mut rng)
        };
        pairs += 1;
        check_pair(&a, &xf_a, &b, &xf_b, &mut touching, &mut casts);
    }
    // The draw reaches the cases it is about.
    assert!(touching > 2_000 && casts > 2_000, "{touching} {casts}");
}

#[test]
fn shape_queries_report_unit_directions_for_collapsed_features() {
    let mut rng = Rng(0x5111_ce00);
    let mut shapes = 0;
    while shapes < 100_000 {
        let Some(shape) = shape(&mut rng) else {
            continue;
        };
        shapes += 1;
        let xf = transform(&mut rng);
        let aabb = shape.aabb(&xf);
        let inside = aabb.min.lerp(aabb.max, rng.unit());
        let query = near(&mut rng, inside);
        let context = format!("{shape:?} {xf:?} {query:?}");

        // The projection lies where it says: |point − query| is the reported distance, to the
        // rounding of coordinates as large as the shape's and the query's.
        let projection = shape.project_point(&xf, query);
        // A compound's children are placed by translations of their own.
        let children_reach = match &shape {
            Shape::Compound(compound) => compound
                .children()
                .iter()
                .map(|(child_xf, child)| {
                    child_xf
                        .p
                        .abs()
                        .max_element()
                        .max(reach(child, &Transform::IDENTITY))
                })
                .fold(0.0, f32::max),
            _ => 0.0,
        };
        let local_reach = reach(&shape, &Transform::IDENTITY).max(children_reach);
        let scale = 1.0
            + reach(&shape, &xf)
                .max(query.abs().max_element())
                .max(xf.p.abs().max_element())
                .max(local_reach);
        let error = (projection.point.distance(query) - projection.distance).abs();
        assert!(
            error <= 4.0 * f32::EPSILON * scale,
            "{context}: {projection:?} off by {error}"
        );

        match &shape {
            Shape::Segment(segment) => assert!(is_unit(segment.normal()), "{context}"),
            Shape::Chain(chain) => {
                assert!(chain.normals().iter().all(|&n| is_unit(n)), "{context}")
            }
            Shape::Polygon(polygon) => {
                assert!(polygon.normals().iter().all(|&n| is_unit(n)), "{context}")
            }
            _ => {}
        }

        let direction = coordinates(&mut rng);
        if let Ok(ray) = Ray::new(query - direction * 10.0, direction, 1e5) {
            assert!(is_unit(ray.direction), "{context}: {ray:?}");
            if let Some(hit) = shape.ray_cast(&xf, &ray) {
                assert!(is_unit(hit.normal), "{context}: {ray:?} {hit:?}");
            }
        }
    }
}

/// Every unit vector the pair queries report for A and B, placed: collide both ways, with a
/// margin, distance, and a linear cast of A onto B.
fn check_pair(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    touching: &mut usize,
    casts: &mut usize,
) {
    let context = format!("{a:?} {xf_a:?} {b:?} {xf_b:?}");

    for manifold in [
        collide(a, xf_a, b, xf_b),
        collide(b, xf_b, a, xf_a),
        collide_speculative(a, xf_a, b, xf_b, 1.0),
    ] {
        if !manifold.is_empty() {
            *touching += 1;
            assert!(is_unit(manifold.normal), "{context}: {manifold:?}");
            assert!(
                manifold.points().iter().all(|p| p.point.is_finite()),
                "{context}: {manifold:?}"
            );
        }
    }

    let out = distance(a, xf_a, b, xf_b);
    assert_ne!(out, DistanceOutput::NONE, "{context}");
    assert!(
        out.normal == Vec2::ZERO || is_unit(out.normal),
        "{context}: {out:?}"
    );
    if out.distance > 0.0 {
        assert!(is_unit(out.normal), "{context}: {out:?}");
    }

    let motion = xf_b.p - xf_a.p;
    let hit = shape_cast(
        a,
        &Sweep::linear(xf_a, motion),
        b,
        &Sweep::fixed(xf_b),
        CastOptions::default(),
    );
    if let Some(hit) = hit {
        *casts += 1;
        assert!(is_unit(hit.normal), "{context}: {hit:?}");
    }
}

#[test]
fn casts_from_cores_a_subnormal_distance_apart_report_unit_normals() {
    // Two shapes whose closest features start a tiny distance apart, along every direction:
    // the first step of the cast measures that offset.
    let mut checked = 0;
    for exponent in -45..-15 {
        let gap = 10f32.powi(exponent).max(f32::from_bits(1));
        for step in 0..16 {
            let direction = Vec2::from_angle(step as f32 * std::f32::consts::TAU / 16.0);
            let corner = Vec2::new(0.0, 0.0);
            let shapes = [
                Shape::from(Segment::new(corner, Vec2::new(-3.0, -1.0)).unwrap()),
                Shape::from(
                    Polygon::hull(&[corner, Vec2::new(-2.0, -1.0), Vec2::new(-1.0, -2.0)]).unwrap(),
                ),
            ];
            let point = Shape::from(Circle::new(Vec2::ZERO, 0.0).unwrap());
            for a in &shapes {
                let xf_a = Transform::IDENTITY;
                let xf_b = Transform::from_translation(direction * gap);
                if xf_b.p == Vec2::ZERO {
                    continue;
                }
                let hit = shape_cast(
                    a,
                    &Sweep::linear(&xf_a, direction),
                    &point,
                    &Sweep::fixed(&xf_b),
                    CastOptions::default(),
                );
                // Grazing pairs already touching and moving apart have no hit (documented).
                if let Some(hit) = hit {
                    assert!(is_unit(hit.normal), "{a:?} {xf_b:?}: {hit:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 25, "{checked}");
}
