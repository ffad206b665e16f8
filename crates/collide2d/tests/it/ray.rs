//! Ray casts: hand-computed cases and properties checked against point projection.

use crate::support;

use collide2d::query::{AabbRayCast, RayInside};
use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape};
use collide2d::shape::{Ray, RayError};
use collide2d::{Aabb, Transform, Vec2};
use support::{random_ray_case, RayCase, Rng, ALL_KINDS};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn ray(origin: Vec2, direction: Vec2) -> Ray {
    Ray::new(origin, direction, 100.0).unwrap()
}

fn close(a: Vec2, b: Vec2) -> bool {
    (a - b).length() < 1e-5
}

#[test]
fn circle_front_hit_miss_and_inside() {
    let circle = Shape::from(Circle::with_radius(1.0).unwrap());
    let xf = Transform::new(v(5.0, 0.0), 0.3);
    let hit = circle
        .ray_cast(&xf, &ray(v(0.0, 0.0), v(1.0, 0.0)))
        .unwrap();
    assert!((hit.distance - 4.0).abs() < 1e-6);
    assert!(close(hit.normal, v(-1.0, 0.0)));
    assert!(close(hit.point, v(4.0, 0.0)));
    assert!(circle
        .ray_cast(&xf, &ray(v(0.0, 1.01), v(1.0, 0.0)))
        .is_none());
    // Grazing the top counts (unrotated, so the tangent is exact).
    let unrotated = Transform::new(v(5.0, 0.0), 0.0);
    assert!(circle
        .ray_cast(&unrotated, &ray(v(0.0, 1.0), v(1.0, 0.0)))
        .is_some());
    // Pointing away misses; beyond max distance misses.
    assert!(circle
        .ray_cast(&xf, &ray(v(0.0, 0.0), v(-1.0, 0.0)))
        .is_none());
    let short = Ray::new(v(0.0, 0.0), v(1.0, 0.0), 3.9).unwrap();
    assert!(circle.ray_cast(&xf, &short).is_none());
    // From inside: hit at 0 facing back along the ray, or the exit on request.
    let inside = ray(v(5.5, 0.0), v(1.0, 0.0));
    let hit = circle.ray_cast(&xf, &inside).unwrap();
    assert_eq!(
        (hit.distance, hit.point, hit.normal),
        (0.0, v(5.5, 0.0), v(-1.0, 0.0))
    );
    let exit = circle
        .ray_cast_with(&xf, &inside, RayInside::ReportExit)
        .unwrap();
    assert!((exit.distance - 0.5).abs() < 1e-6 && close(exit.normal, v(1.0, 0.0)));
}

#[test]
fn box_faces_corners_and_inside_exit() {
    let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
    let xf = Transform::new(v(0.0, 0.0), 0.0);
    let hit = square
        .ray_cast(&xf, &ray(v(-5.0, 0.5), v(1.0, 0.0)))
        .unwrap();
    assert_eq!((hit.distance, hit.normal), (4.0, v(-1.0, 0.0)));
    let hit = square
        .ray_cast(&xf, &ray(v(0.5, 5.0), v(0.0, -1.0)))
        .unwrap();
    assert_eq!((hit.distance, hit.normal), (4.0, v(0.0, 1.0)));
    // Along an edge's line, touching the boundary.
    assert!(square
        .ray_cast(&xf, &ray(v(-5.0, 1.0), v(1.0, 0.0)))
        .is_some());
    assert!(square
        .ray_cast(&xf, &ray(v(-5.0, 1.001), v(1.0, 0.0)))
        .is_none());
    let exit = square
        .ray_cast_with(&xf, &ray(v(0.0, 0.0), v(0.0, 1.0)), RayInside::ReportExit)
        .unwrap();
    assert_eq!((exit.distance, exit.normal), (1.0, v(0.0, 1.0)));
    // A rotated box: the diamond's left corner at x = -√2.
    let diamond = Transform::new(Vec2::ZERO, std::f32::consts::FRAC_PI_4);
    let hit = square
        .ray_cast(&diamond, &ray(v(-5.0, 0.0), v(1.0, 0.0)))
        .unwrap();
    assert!((hit.distance - (5.0 - 2f32.sqrt())).abs() < 1e-5);
}

#[test]
fn rounded_box_corner_is_exact() {
    let rounded = Shape::from(Polygon::rounded_rect(2.0, 2.0, 0.5).unwrap());
    // The diagonal ray meets the corner arc centred at (0.5, 0.5) with radius 0.5.
    let hit = rounded
        .ray_cast(&Transform::IDENTITY, &ray(v(3.0, 3.0), v(-1.0, -1.0)))
        .unwrap();
    let expected = v(0.5, 0.5) + Vec2::splat(0.5 / 2f32.sqrt());
    assert!(close(hit.point, expected), "{hit:?}");
    assert!(close(hit.normal, Vec2::splat(1.0 / 2f32.sqrt())));
    // A ray missing the cut-away sharp corner misses the rounded box.
    let graze = rounded.ray_cast(&Transform::IDENTITY, &ray(v(0.98, 3.0), v(1.0, -1.0)));
    assert!(graze.is_none());
    // Flat part of a side.
    let side = rounded
        .ray_cast(&Transform::IDENTITY, &ray(v(5.0, 0.2), v(-1.0, 0.0)))
        .unwrap();
    assert_eq!((side.distance, side.normal), (4.0, v(1.0, 0.0)));
}

#[test]
fn capsule_sides_and_caps() {
    let capsule = Shape::from(Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap());
    let side = capsule
        .ray_cast(&Transform::IDENTITY, &ray(v(0.3, 4.0), v(0.0, -1.0)))
        .unwrap();
    assert_eq!((side.distance, side.normal), (3.5, v(0.0, 1.0)));
    let cap = capsule
        .ray_cast(&Transform::IDENTITY, &ray(v(5.0, 0.0), v(-1.0, 0.0)))
        .unwrap();
    assert_eq!((cap.distance, cap.normal), (3.5, v(1.0, 0.0)));
    let exit = capsule
        .ray_cast_with(
            &Transform::IDENTITY,
            &ray(Vec2::ZERO, v(0.0, -1.0)),
            RayInside::ReportExit,
        )
        .unwrap();
    assert_eq!((exit.distance, exit.normal), (0.5, v(0.0, -1.0)));
}

#[test]
fn segment_front_back_parallel_collinear() {
    let segment = Shape::from(Segment::new(v(-1.0, 0.0), v(1.0, 0.0)).unwrap());
    let from_above = segment
        .ray_cast(&Transform::IDENTITY, &ray(v(0.0, 2.0), v(0.0, -1.0)))
        .unwrap();
    assert_eq!((from_above.distance, from_above.normal), (2.0, v(0.0, 1.0)));
    let from_below = segment
        .ray_cast(&Transform::IDENTITY, &ray(v(0.0, -2.0), v(0.0, 1.0)))
        .unwrap();
    assert_eq!(from_below.normal, v(0.0, -1.0));
    assert!(segment
        .ray_cast(&Transform::IDENTITY, &ray(v(-5.0, 0.5), v(1.0, 0.0)))
        .is_none());
    let collinear = segment
        .ray_cast(&Transform::IDENTITY, &ray(v(-5.0, 0.0), v(1.0, 0.0)))
        .unwrap();
    assert_eq!((collinear.distance, collinear.normal), (4.0, v(-1.0, 0.0)));
    // Past the end.
    assert!(segment
        .ray_cast(&Transform::IDENTITY, &ray(v(1.5, 2.0), v(0.0, -1.0)))
        .is_none());
}

#[test]
fn compound_reports_nearest_child_and_exits_the_union() {
    let left = Polygon::box_at(v(0.5, 0.0), v(0.5, 0.5), 0.0).unwrap();
    let right = Polygon::box_at(v(1.5, 0.0), v(0.5, 0.5), 0.0).unwrap();
    let compound = Shape::from(
        Compound::new(vec![
            (Transform::IDENTITY, Shape::from(right)),
            (Transform::IDENTITY, Shape::from(left)),
        ])
        .unwrap(),
    );
    let hit = compound
        .ray_cast(&Transform::IDENTITY, &ray(v(-3.0, 0.0), v(1.0, 0.0)))
        .unwrap();
    assert_eq!((hit.distance, hit.child), (3.0, 1));
    let from_right = compound
        .ray_cast(&Transform::IDENTITY, &ray(v(5.0, 0.0), v(-1.0, 0.0)))
        .unwrap();
    assert_eq!((from_right.distance, from_right.child), (3.0, 0));
    // From inside the left box, the exit is through the right box's far side.
    let exit = compound
        .ray_cast_with(
            &Transform::IDENTITY,
            &ray(v(0.2, 0.0), v(1.0, 0.0)),
            RayInside::ReportExit,
        )
        .unwrap();
    assert!((exit.distance - 1.8).abs() < 1e-5, "{exit:?}");
    assert_eq!((exit.normal, exit.child), (v(1.0, 0.0), 0));
}

#[test]
fn aabb_slab_test() {
    let aabb = Aabb::new(v(0.0, 0.0), v(2.0, 1.0)).unwrap();
    let hit = aabb.ray_cast(&ray(v(-1.0, 0.5), v(1.0, 0.0))).unwrap();
    assert_eq!((hit.distance, hit.normal), (1.0, v(-1.0, 0.0)));
    let hit = aabb.ray_cast(&ray(v(1.0, 3.0), v(0.0, -1.0))).unwrap();
    assert_eq!((hit.distance, hit.normal), (2.0, v(0.0, 1.0)));
    assert!(aabb.ray_cast(&ray(v(-1.0, 1.5), v(1.0, 0.0))).is_none());
    assert!(aabb.ray_cast(&ray(v(3.0, 0.5), v(1.0, 0.0))).is_none());
    let inside = aabb.ray_cast(&ray(v(1.0, 0.5), v(1.0, 0.0))).unwrap();
    assert_eq!(inside.distance, 0.0);
    let diagonal = aabb.ray_cast(&ray(v(-1.0, -1.0), v(1.0, 1.0))).unwrap();
    assert!((diagonal.distance - 2f32.sqrt()).abs() < 1e-6);
}

#[test]
fn bad_rays_are_errors_or_misses() {
    assert_eq!(
        Ray::new(Vec2::ZERO, Vec2::ZERO, 1.0),
        Err(RayError::ZeroDirection)
    );
    assert_eq!(
        Ray::new(v(f32::NAN, 0.0), Vec2::X, 1.0),
        Err(RayError::NonFinite)
    );
    assert_eq!(
        Ray::new(Vec2::ZERO, Vec2::X, -1.0),
        Err(RayError::NegativeMaxDistance)
    );
    assert!(Ray::new(Vec2::ZERO, Vec2::X, f32::INFINITY).is_ok());
    let circle = Shape::from(Circle::with_radius(1.0).unwrap());
    let broken = Ray {
        origin: v(f32::NAN, 0.0),
        direction: Vec2::X,
        max_distance: 10.0,
    };
    assert!(circle.ray_cast(&Transform::IDENTITY, &broken).is_none());
    let zero = Ray {
        origin: v(-3.0, 0.0),
        direction: Vec2::ZERO,
        max_distance: 10.0,
    };
    assert!(circle.ray_cast(&Transform::IDENTITY, &zero).is_none());
}

/// Rays at random shapes: every hit lies on the surface, the ray is outside just before it,
/// and a miss never passes through the shape.
#[test]
fn hits_lie_on_the_surface_and_misses_never_enter() {
    let mut rng = Rng(0x5eed_0001);
    for kind in ALL_KINDS {
        for case in 0..20_000 {
            let RayCase {
                shape,
                size,
                xf,
                ray,
            } = random_ray_case(&mut rng, kind);
            let Some(ray) = ray else {
                continue;
            };
            let slack = 1e-4 * size + 2e-7 * xf.p.length();
            let context = || format!("case {case} {kind:?} {shape:?} at {xf:?}, {ray:?}");
            match shape.ray_cast(&xf, &ray) {
                Some(hit) => {
                    assert!(
                        hit.distance >= 0.0 && hit.distance <= ray.max_distance,
                        "{}",
                        context()
                    );
                    assert!((hit.normal.length() - 1.0).abs() < 1e-4, "{}", context());
                    if hit.distance > 0.0 {
                        let projection = shape.project_point(&xf, hit.point);
                        assert!(
                            projection.distance <= slack,
                            "off surface by {}: {}",
                            projection.distance,
                            context()
                        );
                        assert!(
                            hit.normal.dot(ray.direction) <= 1e-3,
                            "normal faces away: {}",
                            context()
                        );
                    } else {
                        assert!(
                            shape.contains(&xf, ray.origin) || matches!(shape, Shape::Segment(_)),
                            "{}",
                            context()
                        );
                    }
                }
                None => {
                    for step in 0..64 {
                        let point = ray.at(ray.max_distance * step as f32 / 63.0);
                        let projection = shape.project_point(&xf, point);
                        assert!(
                            !projection.inside || projection.distance <= slack,
                            "miss passes inside at step {step}: {}",
                            context()
                        );
                    }
                }
            }
        }
    }
}
