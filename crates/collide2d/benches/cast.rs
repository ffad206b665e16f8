//! Ray casts and shape casts, ours beside parry2d and Box2D v3 on the same inputs.
//!
//! Each benchmark cycles through 256 prepared random configurations so that branch prediction
//! cannot learn one case; the time reported is per query. Every column builds its inputs from
//! the same placements inside the timed loop: ours two `Sweep`s, parry2d its relative pose or
//! motions, Box2D the relative pose or its `b2Sweep`s. Box2D's time of impact interpolates
//! rotations linearly and misses hits for large turns, so the rotating cast is measured twice:
//! turns within ±π/4, where all three agree, and turns up to ±3 rad.

use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Polygon, Shape};
use collide2d::Transform;
use criterion::{criterion_group, criterion_main, Criterion};
use parry2d::math::{Pose, Vector};
use parry2d::query::details::{cast_shapes_support_map_support_map, ShapeCastOptions};
use parry2d::query::{cast_shapes_nonlinear, NonlinearRigidMotion, RayCast};
use parry2d::shape::ConvexPolygon;
use std::f32::consts::FRAC_PI_4;
use std::hint::black_box;

#[path = "support/box2d.rs"]
mod box2d;
#[path = "../tests/it/support/mod.rs"]
mod support;

use support::cast_cases::{cast_cases, cast_cases_turning, ray_cases, CASES};

fn octagon() -> (Shape, ConvexPolygon) {
    let ours = Polygon::regular(8, 1.0).unwrap();
    let points: Vec<Vector> = ours
        .vertices()
        .iter()
        .map(|v| Vector::new(v.x, v.y))
        .collect();
    let theirs = ConvexPolygon::from_convex_polyline_unmodified(points).unwrap();
    (Shape::from(ours), theirs)
}

fn pose(xf: &Transform) -> Pose {
    Pose::new(Vector::new(xf.p.x, xf.p.y), xf.angle())
}

fn rays(c: &mut Criterion) {
    let (shape, polygon) = octagon();
    let cases = ray_cases();
    let parry_cases: Vec<(Pose, parry2d::query::Ray)> = cases
        .iter()
        .map(|(xf, ray)| {
            (
                pose(xf),
                parry2d::query::Ray::new(
                    Vector::new(ray.origin.x, ray.origin.y),
                    Vector::new(ray.direction.x, ray.direction.y),
                ),
            )
        })
        .collect();
    let mut group = c.benchmark_group("ray vs 8-gon");
    let mut i = 0;
    group.bench_function("collide2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf, ray) = &cases[i];
            black_box(shape.ray_cast(black_box(xf), black_box(ray)))
        })
    });
    group.bench_function("parry2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (p, ray) = &parry_cases[i];
            black_box(polygon.cast_ray_and_get_normal(black_box(p), black_box(ray), 20.0, true))
        })
    });
    let b2_octagon = box2d::polygon(&Polygon::regular(8, 1.0).unwrap());
    let box2d_cases: Vec<(box2d::b2Transform, box2d::b2Vec2, box2d::b2Vec2)> = cases
        .iter()
        .map(|(xf, ray)| {
            (
                box2d::transform(xf),
                box2d::vec(ray.origin),
                box2d::vec(ray.direction * ray.max_distance),
            )
        })
        .collect();
    group.bench_function("box2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf, origin, translation) = black_box(&box2d_cases[i]);
            // Box2D casts in the polygon's frame: move the ray in, and the hit out.
            let hit = box2d::ray_cast_placed_polygon(&b2_octagon, xf, *origin, *translation);
            black_box(hit)
        })
    });
    group.finish();
}

fn linear_casts(c: &mut Criterion) {
    let (shape, polygon) = octagon();
    let cases = cast_cases(false);
    let mut group = c.benchmark_group("linear cast 8-gon vs 8-gon");
    let mut i = 0;
    group.bench_function("collide2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf_a, motion, _, xf_b) = &cases[i];
            let sweep_a = Sweep::linear(xf_a, *motion);
            let sweep_b = Sweep::fixed(xf_b);
            black_box(shape_cast(
                &shape,
                &sweep_a,
                &shape,
                &sweep_b,
                CastOptions::default(),
            ))
        })
    });
    group.bench_function("parry2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf_a, motion, _, xf_b) = &cases[i];
            // parry's typed function takes B relative to A, as ours computes internally.
            let pos12 = pose(xf_a).inv_mul(&pose(xf_b));
            let vel12 = pose(xf_a).rotation.inverse() * Vector::new(-motion.x, -motion.y);
            black_box(cast_shapes_support_map_support_map(
                &pos12,
                vel12,
                &polygon,
                &polygon,
                ShapeCastOptions::with_max_time_of_impact(1.0),
            ))
        })
    });
    let b2_octagon = box2d::polygon(&Polygon::regular(8, 1.0).unwrap());
    let b2_proxy = box2d::polygon_proxy(&b2_octagon);
    let box2d_cases: Vec<(box2d::b2Transform, box2d::b2Vec2, box2d::b2Transform)> = cases
        .iter()
        .map(|(xf_a, motion, _, xf_b)| {
            (
                box2d::transform(xf_a),
                box2d::vec(*motion),
                box2d::transform(xf_b),
            )
        })
        .collect();
    group.bench_function("box2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf_a, motion, xf_b) = &box2d_cases[i];
            // B relative to A, moving by -motion in A's frame.
            let b_in_a = box2d::inv_mul(xf_a, xf_b);
            let translation_b = box2d::rotate_inv(
                &xf_a.q,
                box2d::b2Vec2 {
                    x: -motion.x,
                    y: -motion.y,
                },
            );
            black_box(box2d::shape_cast(
                &b2_proxy,
                &b2_proxy,
                b_in_a,
                translation_b,
            ))
        })
    });
    group.finish();
}

fn rotating_casts(c: &mut Criterion) {
    rotating_cast_group(
        c,
        "rotating cast 8-gon vs 8-gon, turn within pi/4",
        FRAC_PI_4,
    );
    rotating_cast_group(c, "rotating cast 8-gon vs 8-gon", 3.0);
}

/// Rotating casts with A turning by up to ±`max_turn` over the step.
fn rotating_cast_group(c: &mut Criterion, name: &str, max_turn: f32) {
    let (shape, polygon) = octagon();
    let cases = cast_cases_turning(max_turn);
    let mut group = c.benchmark_group(name);
    let mut i = 0;
    group.bench_function("collide2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf_a, motion, turn, xf_b) = &cases[i];
            let sweep_a = Sweep::spinning(xf_a, *motion, *turn);
            let sweep_b = Sweep::fixed(xf_b);
            black_box(shape_cast(
                &shape,
                &sweep_a,
                &shape,
                &sweep_b,
                CastOptions::default(),
            ))
        })
    });
    group.bench_function("parry2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf_a, motion, turn, xf_b) = &cases[i];
            let motion_a = NonlinearRigidMotion::new(
                pose(xf_a),
                Vector::ZERO,
                Vector::new(motion.x, motion.y),
                *turn,
            );
            let motion_b = NonlinearRigidMotion::new(pose(xf_b), Vector::ZERO, Vector::ZERO, 0.0);
            black_box(cast_shapes_nonlinear(
                &motion_a, &polygon, &motion_b, &polygon, 0.0, 1.0, true,
            ))
        })
    });
    let b2_octagon = box2d::polygon(&Polygon::regular(8, 1.0).unwrap());
    let b2_proxy = box2d::polygon_proxy(&b2_octagon);
    let box2d_cases: Vec<_> = cases
        .iter()
        .map(|(xf_a, motion, turn, xf_b)| {
            (
                box2d::transform(xf_a),
                *motion,
                *turn,
                box2d::transform(xf_b),
            )
        })
        .collect();
    group.bench_function("box2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf_a, motion, turn, xf_b) = &box2d_cases[i];
            let sweep_a = box2d::sweep(xf_a, *motion, *turn);
            let sweep_b = box2d::sweep(xf_b, collide2d::Vec2::ZERO, 0.0);
            black_box(box2d::time_of_impact(
                &b2_proxy, sweep_a, &b2_proxy, sweep_b,
            ))
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = rays, linear_casts, rotating_casts
}
criterion_main!(benches);
