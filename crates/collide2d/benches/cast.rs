//! Ray casts and shape casts, ours beside parry2d on the same inputs.
//!
//! Each benchmark cycles through 256 prepared random configurations so that branch prediction
//! cannot learn one case; the time reported is per query.

use collide2d::query::{cast, CastOptions, Sweep};
use collide2d::shape::{Polygon, Shape};
use collide2d::Transform;
use criterion::{criterion_group, criterion_main, Criterion};
use parry2d::math::{Pose, Vector};
use parry2d::query::details::{cast_shapes_support_map_support_map, ShapeCastOptions};
use parry2d::query::{cast_shapes_nonlinear, NonlinearRigidMotion, RayCast};
use parry2d::shape::ConvexPolygon;
use std::hint::black_box;

#[path = "support/cast_cases.rs"]
mod cast_cases;

use cast_cases::{cast_cases, ray_cases, CASES};

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
            black_box(cast(
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
    group.finish();
}

fn rotating_casts(c: &mut Criterion) {
    let (shape, polygon) = octagon();
    let cases = cast_cases(true);
    let mut group = c.benchmark_group("rotating cast 8-gon vs 8-gon");
    let mut i = 0;
    group.bench_function("collide2d", |b| {
        b.iter(|| {
            i = (i + 1) % CASES;
            let (xf_a, motion, turn, xf_b) = &cases[i];
            let sweep_a = Sweep::spinning(xf_a, *motion, *turn);
            let sweep_b = Sweep::fixed(xf_b);
            black_box(cast(
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
