//! Narrow-phase benchmarks: each case runs ours, parry2d's fastest equivalent typed call and
//! Box2D v3's on the same 256 precomputed configurations (all three compute the relative pose
//! inside the loop). Box2D's pair functions answer in A's frame and ours in world space, so
//! each Box2D manifold is moved into world space in the loop ([`box2d::to_world`]), as
//! Box2D's contact update does.
//!
//! `cargo bench -p collide2d --bench narrow_phase -- --warm-up-time 1 --measurement-time 2`

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::{collide, distance, distance_with_cache, overlaps, Transform, Vec2};
use criterion::{criterion_group, criterion_main, Criterion};
use parry2d::math::{Pose, Rot2, Vector};
use parry2d::query::details;
use parry2d::query::ContactManifold;
use parry2d::shape::{Ball, Capsule as ParryCapsule, ConvexPolygon, Cuboid};
use std::hint::black_box;

#[path = "support/box2d.rs"]
mod box2d;
#[path = "../tests/it/support/mod.rs"]
mod support;

use box2d::b2Transform;
use support::narrow_placements::{
    box_placements, placements, separated_placements, CONFIGURATIONS,
};

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

/// One benchmark group: collide2d, parry2d, and Box2D v3 where it has the query (`box2d`
/// receives both placements in Box2D's type and computes the relative one itself).
fn bench_pair<F, G, H>(
    c: &mut Criterion,
    name: &str,
    configurations: &[(Transform, Transform)],
    mut ours: F,
    mut theirs: G,
    box2d: Option<H>,
) where
    F: FnMut(&Transform, &Transform),
    G: FnMut(&Pose, &Pose),
    H: FnMut(&b2Transform, &b2Transform),
{
    let poses: Vec<(Pose, Pose)> = configurations
        .iter()
        .map(|(a, b)| (pose(a), pose(b)))
        .collect();
    let box2d_poses: Vec<(b2Transform, b2Transform)> = configurations
        .iter()
        .map(|(a, b)| (box2d::transform(a), box2d::transform(b)))
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
    if let Some(mut box2d) = box2d {
        group.bench_function("box2d", |bencher| {
            let mut index = 0;
            bencher.iter(|| {
                let (a, b) = &box2d_poses[index % CONFIGURATIONS];
                index += 1;
                box2d(a, b)
            })
        });
    }
    group.finish();
}

/// No Box2D column for this case.
const NO_BOX2D: Option<fn(&b2Transform, &b2Transform)> = None;

fn narrow_phase(c: &mut Criterion) {
    // 1. 8-gon against 8-gon, overlapping, random rotations, fresh manifold.
    let octagon = Polygon::regular(8, 1.0).unwrap();
    let octagon_shape = Shape::from(octagon.clone());
    let parry_octagon = parry_polygon(&octagon);
    let b2_octagon = box2d::polygon(&octagon);
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
        Some(|a: &b2Transform, b: &b2Transform| {
            black_box(box2d::to_world(
                a,
                box2d::collide_polygons(&b2_octagon, &b2_octagon, box2d::inv_mul(a, b)),
            ));
        }),
    );

    // 2. Box against box: manifold, then the boolean overlap test (Box2D has none).
    let square_polygon = Polygon::rect(2.0, 2.0).unwrap();
    let b2_square = box2d::polygon(&square_polygon);
    let square = Shape::from(square_polygon);
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
        Some(|a: &b2Transform, b: &b2Transform| {
            black_box(box2d::to_world(
                a,
                box2d::collide_polygons(&b2_square, &b2_square, box2d::inv_mul(a, b)),
            ));
        }),
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
        NO_BOX2D,
    );

    // 3. Rounded box against rounded box (parry's round cuboids go through its general
    //    support-map path, so it has no typed call here).
    let rounded_polygon = Polygon::rounded_rect(2.0, 2.0, 0.2).unwrap();
    let b2_rounded = box2d::polygon(&rounded_polygon);
    let rounded = Shape::from(rounded_polygon);
    let parry_rounded = parry2d::shape::RoundCuboid {
        inner_shape: Cuboid::new(Vector::new(0.8, 0.8)),
        border_radius: 0.2,
    };
    bench_pair(
        c,
        "rounded_box_manifold",
        &boxes,
        |a, b| {
            black_box(collide(&rounded, a, &rounded, b));
        },
        |a, b| {
            black_box(parry2d::query::contact(a, &parry_rounded, b, &parry_rounded, 0.0).ok());
        },
        Some(|a: &b2Transform, b: &b2Transform| {
            black_box(box2d::to_world(
                a,
                box2d::collide_polygons(&b2_rounded, &b2_rounded, box2d::inv_mul(a, b)),
            ));
        }),
    );

    // 4. Circle against circle.
    let ball = Shape::from(Circle::with_radius(1.0).unwrap());
    let parry_ball = Ball::new(1.0);
    let b2_ball = box2d::circle(1.0);
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
        Some(|a: &b2Transform, b: &b2Transform| {
            black_box(box2d::to_world(
                a,
                box2d::collide_circles(&b2_ball, &b2_ball, box2d::inv_mul(a, b)),
            ));
        }),
    );

    // 5. Circle against an 8-gon (parry and Box2D take the polygon first).
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
        Some(|a: &b2Transform, b: &b2Transform| {
            // The polygon is Box2D's A: its manifold is in the polygon's frame.
            black_box(box2d::to_world(
                b,
                box2d::collide_polygon_circle(&b2_octagon, &b2_ball, box2d::inv_mul(b, a)),
            ));
        }),
    );

    // 6. Capsule against capsule.
    let pill_capsule = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap();
    let b2_pill = box2d::capsule(&pill_capsule);
    let pill = Shape::from(pill_capsule);
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
        Some(|a: &b2Transform, b: &b2Transform| {
            black_box(box2d::to_world(
                a,
                box2d::collide_capsules(&b2_pill, &b2_pill, box2d::inv_mul(a, b)),
            ));
        }),
    );

    // 7. GJK distance between two separated 8-gons: from scratch each call, then warm-started
    //    from the previous call's simplex (each configuration keeps its own cache, as a game
    //    keeps one per pair; parry has no cache argument, so it runs cold in both).
    let b2_octagon_proxy = box2d::polygon_proxy(&b2_octagon);
    let apart = separated_placements();
    bench_pair(
        c,
        "distance_octagons_cold",
        &apart,
        |a, b| {
            black_box(distance(&octagon_shape, a, &octagon_shape, b));
        },
        |a, b| {
            black_box(parry2d::query::distance(a, &parry_octagon, b, &parry_octagon).ok());
        },
        Some(|a: &b2Transform, b: &b2Transform| {
            let mut cache = box2d::b2SimplexCache {
                count: 0,
                indexA: [0; 3],
                indexB: [0; 3],
            };
            black_box(box2d::shape_distance(
                &b2_octagon_proxy,
                &b2_octagon_proxy,
                box2d::inv_mul(a, b),
                &mut cache,
            ));
        }),
    );
    let mut our_caches = vec![collide2d::query::SimplexCache::default(); CONFIGURATIONS];
    let mut box2d_caches = vec![
        box2d::b2SimplexCache {
            count: 0,
            indexA: [0; 3],
            indexB: [0; 3],
        };
        CONFIGURATIONS
    ];
    let mut our_turn = 0;
    let mut box2d_turn = 0;
    bench_pair(
        c,
        "distance_octagons_warm",
        &apart,
        |a, b| {
            let cache = &mut our_caches[our_turn % CONFIGURATIONS];
            our_turn += 1;
            black_box(distance_with_cache(
                &octagon_shape,
                a,
                &octagon_shape,
                b,
                cache,
            ));
        },
        |a, b| {
            black_box(parry2d::query::distance(a, &parry_octagon, b, &parry_octagon).ok());
        },
        Some(|a: &b2Transform, b: &b2Transform| {
            let cache = &mut box2d_caches[box2d_turn % CONFIGURATIONS];
            box2d_turn += 1;
            black_box(box2d::shape_distance(
                &b2_octagon_proxy,
                &b2_octagon_proxy,
                box2d::inv_mul(a, b),
                cache,
            ));
        }),
    );
}

criterion_group!(benches, narrow_phase);
criterion_main!(benches);
