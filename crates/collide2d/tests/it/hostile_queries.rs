//! Every public query fed hostile numbers (NaN, ±∞, huge, tiny, subnormal, zero-length
//! directions, rotations that are not unit length): each answer is the documented one for
//! input it cannot use, and no answer anywhere holds a NaN.

use crate::support;

use collide2d::broad::{BroadPhase, DynamicTree, HashGrid, RayControl, SweepAndPrune};
use collide2d::query::{
    collide_all, collide_speculative, shape_cast, sweep_aabbs, sweep_circle_half_plane,
    sweep_circle_segment, sweep_circles, CastHit, CastOptions, DistanceOutput, Manifold, RayHit,
    RayInside, SimplexCache, Sweep,
};
use collide2d::shape::{
    Capsule, Chain, Circle, Compound, PointProjection, Polygon, Ray, Segment, Shape, MAX_COORDINATE,
};
use collide2d::world::{Collider, QueryFilter, World};
use collide2d::{
    collide, distance, distance_with_cache, overlaps, Aabb, AabbRayCast, Rot, Transform, Vec2,
};
use support::Rng;

/// The numbers a hostile caller might pass.
const HOSTILE: [f32; 22] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    1e30,
    -1e30,
    1e20,
    MAX_COORDINATE,
    -MAX_COORDINATE,
    2.0 * MAX_COORDINATE,
    1e-30,
    -1e-30,
    1e-40,
    -1e-40,
    f32::MIN_POSITIVE,
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
];

fn number(rng: &mut Rng) -> f32 {
    match rng.below(3) {
        0 => HOSTILE[rng.below(HOSTILE.len())],
        1 => rng.range(-10.0, 10.0),
        _ => rng.range(-1.0, 1.0) * rng.log_size(1e-20, 1e20),
    }
}

fn vector(rng: &mut Rng) -> Vec2 {
    Vec2::new(number(rng), number(rng))
}

fn transform(rng: &mut Rng) -> Transform {
    let p = if rng.below(2) == 0 {
        rng.point(10.0)
    } else {
        vector(rng)
    };
    let q = match rng.below(4) {
        0 => Rot::from_angle(rng.angle()),
        1 => Rot {
            c: number(rng),
            s: number(rng),
        },
        // Not unit: scaled by a little or a lot.
        2 => {
            let turn = Rot::from_angle(rng.angle());
            let scale = [1.0005, 0.9995, 1.01, 0.5, 2.0, 1e-20, 1e20][rng.below(7)];
            Rot {
                c: turn.c * scale,
                s: turn.s * scale,
            }
        }
        _ => Rot::IDENTITY,
    };
    Transform { p, q }
}

fn hand_built_ray(rng: &mut Rng) -> Ray {
    Ray {
        origin: if rng.below(2) == 0 {
            rng.point(10.0)
        } else {
            vector(rng)
        },
        direction: match rng.below(3) {
            0 => Vec2::from_angle(rng.angle()),
            1 => Vec2::ZERO,
            _ => vector(rng),
        },
        max_distance: if rng.below(2) == 0 {
            rng.range(0.0, 30.0)
        } else {
            number(rng)
        },
    }
}

/// Every kind of shape, small and at the coordinate limit.
fn shapes() -> Vec<Shape> {
    let big = 0.5 * MAX_COORDINATE;
    vec![
        Shape::from(Circle::with_radius(1.0).unwrap()),
        Shape::from(Circle::new(Vec2::new(big, -big), big).unwrap()),
        Shape::from(Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.5), 0.5).unwrap()),
        Shape::from(Capsule::new(Vec2::new(-big, 0.0), Vec2::new(big, big), big).unwrap()),
        Shape::from(Segment::new(Vec2::new(-1.0, -1.0), Vec2::new(2.0, 1.0)).unwrap()),
        Shape::from(Segment::new(Vec2::splat(-big), Vec2::splat(big)).unwrap()),
        Shape::from(Polygon::rect(2.0, 1.0).unwrap()),
        Shape::from(Polygon::regular(7, 1.5).unwrap()),
        Shape::from(Polygon::regular(7, MAX_COORDINATE).unwrap()),
        Shape::from(Polygon::regular(20, 2.0).unwrap()),
        Shape::from(Polygon::rounded_rect(2.0, 2.0, 0.25).unwrap()),
        Shape::from(
            Compound::new(vec![
                (
                    Transform::new(Vec2::new(1.0, 0.0), 0.3),
                    Shape::from(Polygon::rect(1.0, 1.0).unwrap()),
                ),
                (
                    Transform::from_translation(Vec2::new(-1.0, 0.0)),
                    Shape::from(Circle::with_radius(0.5).unwrap()),
                ),
            ])
            .unwrap(),
        ),
        Shape::from(
            Chain::open(&[
                Vec2::new(-5.0, 0.0),
                Vec2::new(0.0, -1.0),
                Vec2::new(5.0, 0.0),
                Vec2::new(6.0, 3.0),
            ])
            .unwrap(),
        ),
    ]
}

fn manifold_is_clean(manifold: &Manifold) -> bool {
    manifold.is_empty()
        || (manifold.normal.is_finite()
            // Unit within 1e-2: circle-polygon normals a unit circle away from a polygon
            // 1e9 across are off by 1.5e-3 (the manifold's own business, not this test's).
            && (manifold.normal.length() - 1.0).abs() < 1e-2
            && manifold.points[..manifold.count]
                .iter()
                .all(|point| point.point.is_finite() && point.penetration.is_finite()))
}

fn distance_is_clean(out: &DistanceOutput) -> bool {
    *out == DistanceOutput::NONE
        || (out.distance.is_finite()
            && out.distance >= 0.0
            && out.point_a.is_finite()
            && out.point_b.is_finite()
            && out.normal.is_finite())
}

fn ray_hit_is_clean(hit: &RayHit, ray: &Ray) -> bool {
    hit.distance.is_finite()
        && hit.distance >= 0.0
        && hit.distance <= ray.max_distance
        && hit.point.is_finite()
        && hit.normal.is_finite()
        && (hit.normal.length() - 1.0).abs() < 1e-3
}

/// [`ray_hit_is_clean`] of a world ray cast's hit (the collider left aside).
fn world_ray_hit_is_clean(hit: &collide2d::world::WorldRayHit, ray: &Ray) -> bool {
    let hit = RayHit {
        distance: hit.distance,
        point: hit.point,
        normal: hit.normal,
        child: hit.child,
    };
    ray_hit_is_clean(&hit, ray)
}

fn cast_hit_is_clean(hit: &CastHit) -> bool {
    (0.0..=1.0).contains(&hit.t) && hit.point.is_finite() && hit.normal.is_finite()
}

fn projection_is_clean(projection: &PointProjection) -> bool {
    projection.point.is_finite() && !projection.distance.is_nan() && projection.distance >= 0.0
}

const CASES: usize = 40_000;

#[test]
fn pair_queries_answer_without_nan_and_refuse_invalid_transforms() {
    let shapes = shapes();
    let mut rng = Rng(0x4057_11e5);
    let mut all = Vec::new();
    let mut valid_pairs = 0;
    for case in 0..CASES {
        let a = &shapes[rng.below(shapes.len())];
        let b = &shapes[rng.below(shapes.len())];
        let (xf_a, xf_b) = (transform(&mut rng), transform(&mut rng));
        let valid = xf_a.is_valid() && xf_b.is_valid();
        valid_pairs += usize::from(valid);
        let context = format!("case {case}: {a:?} {xf_a:?} {b:?} {xf_b:?}");

        let manifold = collide(a, &xf_a, b, &xf_b);
        assert!(manifold_is_clean(&manifold), "{context} {manifold:?}");
        let margin = number(&mut rng);
        let speculative = collide_speculative(a, &xf_a, b, &xf_b, margin);
        assert!(
            manifold_is_clean(&speculative),
            "{context} margin {margin} {speculative:?}"
        );
        all.clear();
        collide_all(a, &xf_a, b, &xf_b, margin, &mut all);
        let unclean: Vec<_> = all.iter().filter(|m| !manifold_is_clean(m)).collect();
        assert!(unclean.is_empty(), "{context} margin {margin} {unclean:?}");
        let overlapping = overlaps(a, &xf_a, b, &xf_b);
        assert_eq!(overlapping, !manifold.is_empty(), "{context}");

        let out = distance(a, &xf_a, b, &xf_b);
        assert!(distance_is_clean(&out), "{context} {out:?}");
        let mut cache = SimplexCache::default();
        let cached = distance_with_cache(a, &xf_a, b, &xf_b, &mut cache);
        assert!(distance_is_clean(&cached), "{context} {cached:?}");

        if !valid {
            assert!(manifold.is_empty() && speculative.is_empty() && all.is_empty());
            assert!(!overlapping);
            assert_eq!(out, DistanceOutput::NONE, "{context}");
        }
    }
    // The hostile transforms leave enough valid pairs to exercise the answers too.
    assert!(valid_pairs > CASES / 10, "{valid_pairs}");
}

#[test]
fn shape_queries_answer_without_nan() {
    let shapes = shapes();
    let mut rng = Rng(0x5aa9_e000);
    for case in 0..CASES {
        let shape = &shapes[rng.below(shapes.len())];
        let xf = transform(&mut rng);
        let point = if rng.below(2) == 0 {
            rng.point(10.0)
        } else {
            vector(&mut rng)
        };
        let context = format!("case {case}: {shape:?} {xf:?} {point:?}");

        let aabb = shape.aabb(&xf);
        if xf.is_valid() {
            assert!(aabb.is_valid(), "{context} {aabb:?}");
        } else {
            assert_eq!(aabb, Aabb::EMPTY, "{context}");
        }
        let inside = shape.contains(&xf, point);
        let projection = shape.project_point(&xf, point);
        assert!(projection_is_clean(&projection), "{context} {projection:?}");
        if !(xf.is_valid() && point.is_finite()) {
            assert!(!inside);
            assert_eq!(projection, PointProjection::NONE);
        }

        let ray = hand_built_ray(&mut rng);
        for mode in [RayInside::HitAtStart, RayInside::ReportExit] {
            let hit = shape.ray_cast_with(&xf, &ray, mode);
            if let Some(hit) = hit {
                assert!(ray.is_valid() && xf.is_valid(), "{context} {ray:?} {hit:?}");
                assert!(ray_hit_is_clean(&hit, &ray), "{context} {ray:?} {hit:?}");
            }
        }
        assert_eq!(
            shape.ray_cast(&xf, &ray),
            shape.ray_cast_with(&xf, &ray, RayInside::HitAtStart)
        );
    }
}

#[test]
fn box_queries_answer_without_nan() {
    let mut rng = Rng(0xb0c5_0001);
    let mut hits = 0;
    for case in 0..CASES {
        let corner = vector(&mut rng);
        let aabb = match rng.below(3) {
            0 => Aabb::from_center(rng.point(5.0), Vec2::new(rng.unit(), rng.unit())),
            1 => Aabb::from_center(corner, vector(&mut rng)),
            _ => Aabb {
                min: corner,
                max: vector(&mut rng),
            },
        };
        let ray = hand_built_ray(&mut rng);
        if let Some(hit) = aabb.ray_cast(&ray) {
            hits += 1;
            assert!(ray.is_valid() && aabb.is_valid(), "case {case}");
            assert!(
                ray_hit_is_clean(&hit, &ray),
                "case {case}: {aabb:?} {ray:?} {hit:?}"
            );
        }
        let other = Aabb::from_center(vector(&mut rng), vector(&mut rng));
        // Plain predicates: any answer is fine, they just must not panic.
        let _ = (
            aabb.overlaps(&other),
            aabb.contains(&other),
            aabb.contains_point(corner),
        );
        assert!(!Aabb::EMPTY.overlaps(&aabb) || !aabb.is_valid());
        if other.is_valid() {
            assert_eq!(Aabb::EMPTY.union(&other), other);
        }
    }
    assert!(hits > CASES / 50, "{hits}");
}

/// The examples: a hand-built ray with a NaN or infinite number, or a zero direction.
#[test]
fn hand_built_rays_that_ray_new_refuses_miss_the_box() {
    let aabb = Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0)).unwrap();
    let bad = [
        (Vec2::new(f32::NAN, 0.0), Vec2::X, 10.0),
        (Vec2::new(f32::INFINITY, 0.0), Vec2::X, 10.0),
        (Vec2::new(-5.0, 0.0), Vec2::new(f32::NAN, 0.0), 10.0),
        (Vec2::new(-5.0, 0.0), Vec2::new(f32::INFINITY, 0.0), 10.0),
        (Vec2::new(0.0, 0.0), Vec2::ZERO, 10.0),
        (Vec2::new(-5.0, 0.0), Vec2::X, f32::NAN),
        (Vec2::new(-5.0, 0.0), Vec2::X, -1.0),
    ];
    for (origin, direction, max_distance) in bad {
        let ray = Ray {
            origin,
            direction,
            max_distance,
        };
        assert!(Ray::new(origin, direction, max_distance).is_err());
        assert!(!ray.is_valid());
        assert_eq!(aabb.ray_cast(&ray), None, "{ray:?}");
        let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
        assert_eq!(square.ray_cast(&Transform::IDENTITY, &ray), None, "{ray:?}");
    }
    // A ray starting inside with a tiny or huge direction still gets a unit normal.
    for direction in [Vec2::new(1e-40, 0.0), Vec2::new(0.0, 3e30)] {
        let ray = Ray {
            origin: Vec2::ZERO,
            direction,
            max_distance: 1.0,
        };
        let hit = aabb.ray_cast(&ray).unwrap();
        let expected = -(direction / direction.abs().max_element());
        assert_eq!(hit.normal, expected);
    }
}

#[test]
fn casts_and_sweeps_answer_without_nan() {
    let shapes = shapes();
    let mut rng = Rng(0xca57_0001);
    let options = [
        CastOptions::default(),
        CastOptions {
            target_separation: 0.1,
            tolerance: 1e-3,
            max_iterations: 20,
            separating_overlap_hits: true,
        },
    ];
    for case in 0..CASES / 4 {
        let a = &shapes[rng.below(shapes.len())];
        let b = &shapes[rng.below(shapes.len())];
        let sweep = |rng: &mut Rng| match rng.below(3) {
            0 => Sweep::linear(&transform(rng), vector(rng)),
            1 => Sweep::spinning(&transform(rng), rng.point(10.0), number(rng)),
            _ => Sweep::between(&transform(rng), &transform(rng)).about(vector(rng)),
        };
        let (sweep_a, sweep_b) = (sweep(&mut rng), sweep(&mut rng));
        let opts = CastOptions {
            target_separation: number(&mut rng),
            tolerance: number(&mut rng),
            ..options[rng.below(2)]
        };
        if let Some(hit) = shape_cast(a, &sweep_a, b, &sweep_b, opts) {
            assert!(sweep_a.is_valid() && sweep_b.is_valid());
            assert!(
                cast_hit_is_clean(&hit),
                "case {case}: {a:?} {sweep_a:?} {b:?} {sweep_b:?} {opts:?} {hit:?}"
            );
        }
        let (start, end, other_start, other_end) = (
            vector(&mut rng),
            vector(&mut rng),
            vector(&mut rng),
            vector(&mut rng),
        );
        let (radius, other_radius) = (number(&mut rng), number(&mut rng));
        let clean = |answer: Option<(f32, Vec2)>| {
            answer.is_none_or(|(t, v)| (0.0..=1.0).contains(&t) && v.is_finite())
        };
        let context = format!(
            "case {case}: {start:?} {end:?} {radius} {other_start:?} {other_end:?} {other_radius}"
        );
        assert!(
            clean(
                sweep_circles(start, end, radius, other_start, other_end, other_radius)
                    .map(|hit| (hit.t, hit.normal))
            ),
            "{context}"
        );
        assert!(
            clean(
                sweep_circle_half_plane(start, end, radius, other_start, other_radius)
                    .map(|hit| (hit.t, hit.point))
            ),
            "{context}"
        );
        assert!(
            clean(
                sweep_circle_segment(start, end, radius, other_start, other_end)
                    .map(|hit| (hit.t, hit.normal))
            ),
            "{context}"
        );
        let moving = Aabb::from_center(start, end);
        let fixed = Aabb::from_center(other_start, other_end);
        assert!(
            clean(sweep_aabbs(&moving, vector(&mut rng), &fixed).map(|hit| (hit.t, hit.normal))),
            "{context}"
        );
    }
}

#[test]
fn broad_phase_queries_answer_without_nan() {
    let mut rng = Rng(0xb40a_d001);
    let mut structures: Vec<Box<dyn BroadPhase>> = vec![
        Box::new(DynamicTree::new()),
        Box::new(HashGrid::new(2.0).unwrap()),
        Box::new(SweepAndPrune::new()),
    ];
    for structure in &mut structures {
        for key in 0..50 {
            let aabb = Aabb::from_center(rng.point(20.0), Vec2::new(rng.unit(), rng.unit()));
            structure.insert(aabb, key).unwrap();
        }
        // Hostile boxes are refused.
        for _ in 0..200 {
            let aabb = Aabb {
                min: vector(&mut rng),
                max: vector(&mut rng),
            };
            if !aabb.is_valid() {
                assert!(structure.insert(aabb, 999).is_err(), "{aabb:?}");
            }
        }
        for case in 0..2_000 {
            let aabb = Aabb {
                min: vector(&mut rng),
                max: vector(&mut rng),
            };
            structure.overlap_aabb_each(aabb, &mut |_, _| true);
            structure.overlap_point_each(vector(&mut rng), &mut |_, _| true);
            let ray = hand_built_ray(&mut rng);
            let answer =
                structure.ray_cast_each(ray.origin, ray.direction, ray.max_distance, &mut |hit| {
                    assert!(
                        hit.distance.is_finite() && hit.distance >= 0.0,
                        "case {case}: {ray:?} {hit:?}"
                    );
                    RayControl::Continue
                });
            if answer.is_ok() {
                assert!(Ray::new(ray.origin, ray.direction, ray.max_distance).is_ok());
            }
        }
    }
}

#[test]
fn world_queries_answer_without_nan() {
    let shapes = shapes();
    let mut rng = Rng(0x3041_d001);
    let mut world = World::new();
    for shape in &shapes {
        for _ in 0..3 {
            let placement = Transform::new(rng.point(20.0), rng.angle());
            world
                .insert(Collider::new(shape.clone()).with_transform(placement))
                .unwrap();
        }
    }
    world.update();
    let filter = QueryFilter::new().with_sensors();
    for case in 0..3_000 {
        let point = vector(&mut rng);
        if let Ok(found) = world.overlap_point(point, &filter) {
            assert!(point.is_finite() && found.len() <= world.len());
        }
        let aabb = Aabb {
            min: vector(&mut rng),
            max: vector(&mut rng),
        };
        assert_eq!(world.overlap_aabb(aabb, &filter).is_ok(), aabb.is_valid());
        let shape = &shapes[rng.below(shapes.len())];
        let xf = transform(&mut rng);
        assert_eq!(
            world.overlap_shape(shape, &xf, &filter).is_ok(),
            xf.is_valid(),
            "case {case}: {xf:?}"
        );
        let ray = hand_built_ray(&mut rng);
        match world.ray_cast(&ray, &filter) {
            Ok(hit) => {
                let checked = Ray::new(ray.origin, ray.direction, ray.max_distance).unwrap();
                if let Some(hit) = hit {
                    assert!(
                        world_ray_hit_is_clean(&hit, &checked),
                        "case {case}: {ray:?} {hit:?}"
                    );
                }
            }
            Err(_) => assert!(Ray::new(ray.origin, ray.direction, ray.max_distance).is_err()),
        }
        if let Ok(hits) = world.ray_cast_all(&ray, &filter) {
            let checked = Ray::new(ray.origin, ray.direction, ray.max_distance).unwrap();
            for hit in hits {
                assert!(
                    world_ray_hit_is_clean(&hit, &checked),
                    "case {case}: {ray:?} {hit:?}"
                );
            }
        }
        let delta = vector(&mut rng);
        if let Ok(Some(hit)) = world.shape_cast(shape, &xf, delta, &filter, CastOptions::default())
        {
            assert!(
                cast_hit_is_clean(&CastHit {
                    t: hit.fraction,
                    point: hit.point,
                    normal: hit.normal,
                    converged: hit.converged
                }),
                "case {case}: {xf:?} {delta:?} {hit:?}"
            );
        }
    }
}

/// The examples: a NaN or infinite transform, or a rotation far from unit length, in each
/// stateless query gives its documented answer.
#[test]
fn invalid_transforms_give_the_documented_answers() {
    let crate_box = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
    let ball = Shape::from(Circle::with_radius(0.5).unwrap());
    let good = Transform::IDENTITY;
    let invalid = [
        Transform::from_translation(Vec2::new(f32::NAN, 0.0)),
        Transform::from_translation(Vec2::new(0.0, f32::INFINITY)),
        Transform::from_translation(Vec2::new(2.0 * MAX_COORDINATE, 0.0)),
        Transform {
            p: Vec2::ZERO,
            q: Rot {
                c: f32::NAN,
                s: 0.0,
            },
        },
        Transform {
            p: Vec2::ZERO,
            q: Rot { c: 2.0, s: 0.0 },
        },
        Transform {
            p: Vec2::ZERO,
            q: Rot { c: 0.0, s: 0.0 },
        },
    ];
    let ray = Ray::new(Vec2::new(-5.0, 0.0), Vec2::X, 10.0).unwrap();
    for bad in invalid {
        assert!(!bad.is_valid());
        for (a, b) in [
            (&crate_box, &ball),
            (&ball, &ball),
            (&crate_box, &crate_box),
        ] {
            for (xf_a, xf_b) in [(bad, good), (good, bad), (bad, bad)] {
                assert!(collide(a, &xf_a, b, &xf_b).is_empty());
                assert!(collide_speculative(a, &xf_a, b, &xf_b, 1.0).is_empty());
                assert!(!overlaps(a, &xf_a, b, &xf_b));
                assert_eq!(distance(a, &xf_a, b, &xf_b), DistanceOutput::NONE);
                let mut all = Vec::new();
                collide_all(a, &xf_a, b, &xf_b, 0.0, &mut all);
                assert!(all.is_empty());
                let sweep_a = Sweep::linear(&xf_a, Vec2::X);
                let sweep_b = Sweep::fixed(&xf_b);
                if !(sweep_a.is_valid() && sweep_b.is_valid()) {
                    assert_eq!(
                        shape_cast(a, &sweep_a, b, &sweep_b, CastOptions::default()),
                        None
                    );
                }
            }
        }
        assert_eq!(crate_box.aabb(&bad), Aabb::EMPTY);
        assert!(!crate_box.contains(&bad, Vec2::ZERO));
        assert_eq!(
            crate_box.project_point(&bad, Vec2::ZERO),
            PointProjection::NONE
        );
        assert_eq!(crate_box.ray_cast(&bad, &ray), None);
    }
    // Rotations within the tolerance are used as given.
    let drifted = Transform {
        p: Vec2::ZERO,
        q: Rot { c: 1.0004, s: 0.0 },
    };
    assert!(drifted.is_valid());
    assert!(overlaps(&crate_box, &drifted, &ball, &good));
    assert_eq!(distance(&crate_box, &drifted, &ball, &good).distance, 0.0);
}
