//! Narrow-phase benchmarks: each case runs ours and parry2d's fastest equivalent typed call on the
//! same 256 precomputed configurations (both compute the relative pose inside the loop).
//!
//! `cargo bench -p collide2d --bench narrow_phase -- --warm-up-time 1 --measurement-time 2`

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::{collide, overlaps, Transform, Vec2};
use criterion::{criterion_group, criterion_main, Criterion};
use parry2d::math::{Pose, Rot2, Vector};
use parry2d::query::details;
use parry2d::query::ContactManifold;
use parry2d::shape::{Ball, Capsule as ParryCapsule, ConvexPolygon, Cuboid};
use std::hint::black_box;

#[path = "support/narrow_placements.rs"]
mod narrow_placements;

use narrow_placements::{box_placements, placements, CONFIGURATIONS};

fn pose(xf: &Transform) -> Pose {
    Pose::from_parts(
        Vector::new(xf.p.x, xf.p.y),
        Rot2::from_cos_sin_unchecked(xf.q.c, xf.q.s),
    )
}

fn parry_polygon(polygon: &Polygon) -> ConvexPolygon {
    let points = polygon
        .vertices()
        .iter()
        .map(|v| Vector::new(v.x, v.y))
        .collect();
    ConvexPolygon::from_convex_polyline_unmodified(points).expect("a convex polygon")
}

fn bench_pair<F: FnMut(&Transform, &Transform), G: FnMut(&Pose, &Pose)>(
    c: &mut Criterion,
    name: &str,
    configurations: &[(Transform, Transform)],
    mut ours: F,
    mut theirs: G,
) {
    let poses: Vec<(Pose, Pose)> = configurations
        .iter()
        .map(|(a, b)| (pose(a), pose(b)))
        .collect();
    let mut group = c.benchmark_group(name);
    group.bench_function("collide2d", |bencher| {
        let mut index = 0;
        bencher.iter(|| {
            let (a, b) = &configurations[index % CONFIGURATIONS];
            index += 1;
            ours(a, b)
        })
    });
    group.bench_function("parry2d", |bencher| {
        let mut index = 0;
        bencher.iter(|| {
            let (a, b) = &poses[index % CONFIGURATIONS];
            index += 1;
            theirs(a, b)
        })
    });
    group.finish();
}

fn narrow_phase(c: &mut Criterion) {
    // 1. 8-gon against 8-gon, overlapping, random rotations, fresh manifold.
    let octagon = Polygon::regular(8, 1.0).unwrap();
    let octagon_shape = Shape::from(octagon.clone());
    let parry_octagon = parry_polygon(&octagon);
    bench_pair(
        c,
        "octagon_octagon_manifold",
        &placements(1.8),
        |a, b| {
            black_box(collide(&octagon_shape, a, &octagon_shape, b));
        },
        |a, b| {
            let mut manifold = ContactManifold::<(), ()>::new();
            details::contact_manifold_pfm_pfm(
                &a.inv_mul(b),
                &parry_octagon,
                0.0,
                None,
                &parry_octagon,
                0.0,
                None,
                0.0,
                &mut manifold,
            );
            black_box(&manifold);
        },
    );

    // 2. Box against box: manifold, then the boolean overlap test.
    let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
    let cuboid = Cuboid::new(Vector::new(1.0, 1.0));
    let boxes = box_placements();
    bench_pair(
        c,
        "box_box_manifold",
        &boxes,
        |a, b| {
            black_box(collide(&square, a, &square, b));
        },
        |a, b| {
            let mut manifold = ContactManifold::<(), ()>::new();
            details::contact_manifold_cuboid_cuboid(
                &a.inv_mul(b),
                &cuboid,
                &cuboid,
                0.0,
                &mut manifold,
            );
            black_box(&manifold);
        },
    );
    let mixed = placements(2.6);
    bench_pair(
        c,
        "box_box_overlap",
        &mixed,
        |a, b| {
            black_box(overlaps(&square, a, &square, b));
        },
        |a, b| {
            black_box(details::intersection_test_cuboid_cuboid(
                &a.inv_mul(b),
                &cuboid,
                &cuboid,
            ));
        },
    );

    // 3. Circle against circle.
    let ball = Shape::from(Circle::with_radius(1.0).unwrap());
    let parry_ball = Ball::new(1.0);
    bench_pair(
        c,
        "circle_circle_manifold",
        &placements(1.9),
        |a, b| {
            black_box(collide(&ball, a, &ball, b));
        },
        |a, b| {
            black_box(details::contact_ball_ball(
                &a.inv_mul(b),
                &parry_ball,
                &parry_ball,
                0.0,
            ));
        },
    );

    // 4. Circle against an 8-gon (parry takes the polygon first).
    bench_pair(
        c,
        "circle_polygon_manifold",
        &placements(1.8),
        |a, b| {
            black_box(collide(&ball, a, &octagon_shape, b));
        },
        |a, b| {
            let mut manifold = ContactManifold::<(), ()>::new();
            details::contact_manifold_convex_ball(
                &b.inv_mul(a),
                &parry_octagon,
                &parry_ball,
                None,
                None,
                0.0,
                &mut manifold,
                false,
            );
            black_box(&manifold);
        },
    );

    // 5. Capsule against capsule.
    let pill = Shape::from(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap());
    let parry_pill = ParryCapsule::new(Vector::new(-1.0, 0.0), Vector::new(1.0, 0.0), 0.5);
    bench_pair(
        c,
        "capsule_capsule_manifold",
        &placements(2.5),
        |a, b| {
            black_box(collide(&pill, a, &pill, b));
        },
        |a, b| {
            let mut manifold = ContactManifold::<(), ()>::new();
            details::contact_manifold_capsule_capsule(
                &a.inv_mul(b),
                &parry_pill,
                &parry_pill,
                0.0,
                &mut manifold,
            );
            black_box(&manifold);
        },
    );
}

criterion_group!(benches, narrow_phase);
criterion_main!(benches);
