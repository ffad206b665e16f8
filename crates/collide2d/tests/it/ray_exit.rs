//! Rays that start inside a shape and ask for the exit ([`RayInside::ReportExit`]), against an
//! exact `f64` referee ([`manifold_common::exact::line_extent`]): the exit is where the ray's
//! line leaves the shape (for a compound, the union of its children, followed from child to
//! overlapping child), a miss when that lies beyond `max_distance`; the normal points out of the
//! shape there, along the ray.
//!
//! A rounded shape (capsule, rounded polygon) is left either through a flat side or through a
//! vertex's disc that the ray need not have started in; the exit through such a disc is the
//! far crossing of its circle, not the near one.

use crate::manifold_common::exact::{self, line_extent};
use crate::support::probe_shapes::{make, unit, Kind};
use crate::support::vec64::P;
use crate::support::Rng;
use collide2d::shape::{Capsule, Polygon, Shape};
use collide2d::{Ray, RayInside, Transform, Vec2};

fn p64(v: Vec2) -> P {
    [f64::from(v.x), f64::from(v.y)]
}

/// The exact exit distance of a ray from `origin` along unit `d` (both relative to the exact
/// cores' origin): the end of the union of the pieces' line intervals reached from 0, or `None`
/// when the origin is in no piece.
fn exact_exit(cores: &[exact::Core], origin: P, d: P, slack: f64) -> Option<f64> {
    let intervals: Vec<(f64, f64)> = cores
        .iter()
        .filter_map(|core| line_extent(core, origin, d))
        .collect();
    let mut reached = None::<f64>;
    let mut at = 0.0f64;
    loop {
        let next = intervals
            .iter()
            .filter(|(low, high)| *low <= at + slack && *high >= at - slack)
            .map(|&(_, high)| high)
            .fold(f64::NEG_INFINITY, f64::max);
        if next == f64::NEG_INFINITY {
            return reached;
        }
        reached = Some(reached.map_or(next, |r: f64| r.max(next)));
        if next <= at + slack {
            return reached;
        }
        at = next;
    }
}

#[test]
fn ray_leaving_a_capsule_through_the_end_it_did_not_start_in_exits_at_the_far_side() {
    // The origin lies in the capsule's middle, outside both end discs; the ray leaves through
    // the disc about (2, 0), whose near crossing (inside the capsule) was reported as the exit.
    let capsule = Shape::from(Capsule::new(Vec2::ZERO, Vec2::new(2.0, 0.0), 0.5).unwrap());
    let ray = Ray::new(Vec2::new(1.0, 0.0), Vec2::new(1.0, 0.3), 10.0).unwrap();
    let hit = capsule
        .ray_cast_with(&Transform::IDENTITY, &ray, RayInside::ReportExit)
        .unwrap();
    // Exact: |(1, 0) + t d − (2, 0)| = 0.5 for the larger root, d = (1, 0.3)/|(1, 0.3)|.
    let d = [1.0 / 1.09f64.sqrt(), 0.3 / 1.09f64.sqrt()];
    let half_b = -d[0];
    let expected = -half_b + (half_b * half_b - (1.0 - 0.25)).sqrt();
    assert!(
        (f64::from(hit.distance) - expected).abs() < 1e-6,
        "exit at {} instead of {expected}",
        hit.distance
    );
    let centre_to_exit = hit.point - Vec2::new(2.0, 0.0);
    assert!(
        (hit.normal - centre_to_exit / 0.5).length() < 1e-5,
        "{hit:?}"
    );
    assert!((centre_to_exit.length() - 0.5).abs() < 1e-6, "{hit:?}");
    // With the exit beyond max_distance, a miss (it used to hit inside the capsule).
    let short = Ray::new(Vec2::new(1.0, 0.0), Vec2::new(1.0, 0.3), 1.2).unwrap();
    assert!(capsule
        .ray_cast_with(&Transform::IDENTITY, &short, RayInside::ReportExit)
        .is_none());
}

#[test]
fn ray_leaving_a_rounded_box_through_a_corner_exits_at_the_far_side() {
    let rounded = Shape::from(Polygon::rounded_rect(2.0, 2.0, 0.5).unwrap());
    // From the centre towards the corner (1, 1): the corner disc about (0.5, 0.5) (the core is
    // 1 × 1) is entered at ~0.707 (inside the shape) and left at 0.707 + 0.5.
    let ray = Ray::new(Vec2::ZERO, Vec2::new(1.0, 1.0), 10.0).unwrap();
    let hit = rounded
        .ray_cast_with(&Transform::IDENTITY, &ray, RayInside::ReportExit)
        .unwrap();
    let expected = 0.5f64.hypot(0.5) + 0.5;
    assert!(
        (f64::from(hit.distance) - expected).abs() < 1e-6,
        "exit at {} instead of {expected}",
        hit.distance
    );
    assert!((hit.normal - Vec2::new(1.0, 1.0).normalize()).length() < 1e-5);
}

/// Seeded sweep: capsules, rounded and sharp polygons, circles and compounds (with rounded
/// children), 1e-4 to 1e4 across, up to 1e6 from the origin, rotations near multiples of
/// π/2; rays from inside in every direction, some reaching past the exit and some not.
#[test]
fn rays_from_inside_exit_where_the_exact_line_leaves_the_shape() {
    let mut rng = Rng(0x0e71_7001);
    let kinds = [
        Kind::Capsule,
        Kind::Rounded,
        Kind::Rounded,
        Kind::Polygon,
        Kind::Box,
        Kind::Circle,
        Kind::Compound,
    ];
    let (mut checked, mut failures) = (0, Vec::new());
    for round in 0..8000 {
        let kind = rng.pick(&kinds);
        let size = rng.pick(&[1e-4f32, 1e-2, 1.0, 1.0, 1e2, 1e4]);
        let shape = make(kind, size, &mut rng);
        let base = match rng.below(3) {
            0 => Vec2::ZERO,
            1 => rng.point(1e4),
            _ => rng.point(1e6),
        };
        let angle = if rng.chance(0.3) {
            std::f32::consts::FRAC_PI_2 * rng.below(4) as f32 + rng.pick(&[0.0, 1e-7, -1e-6])
        } else {
            rng.angle()
        };
        let xf = Transform::new(base, angle);
        let origin = base + rng.point(0.45 * size);
        if !shape.contains(&xf, origin) {
            continue;
        }
        let direction = unit(rng.angle());
        let max_distance = size * rng.range(0.05, 2.0);
        let ray = Ray::new(origin, direction, max_distance).unwrap();
        let cores = exact::cores(&shape, &xf, base);
        let o = [
            f64::from(origin.x) - f64::from(base.x),
            f64::from(origin.y) - f64::from(base.y),
        ];
        let d = p64(ray.direction);
        let length = (d[0] * d[0] + d[1] * d[1]).sqrt();
        let d = [d[0] / length, d[1] / length];
        let far = base.abs().max_element() + size;
        let slack = 1e-5 * f64::from(size) + 16.0 * f64::from(f32::EPSILON) * f64::from(far);
        let Some(exit) = exact_exit(&cores, o, d, slack) else {
            continue; // the origin lies on the boundary within rounding
        };
        checked += 1;
        let hit = shape.ray_cast_with(&xf, &ray, RayInside::ReportExit);
        let wrong = match hit {
            Some(hit) => {
                let off = (f64::from(hit.distance) - exit).abs();
                let outward = hit.normal.dot(ray.direction);
                if off > slack {
                    Some(format!("exit at {} instead of {exit}", hit.distance))
                } else if outward < -1e-3 {
                    Some(format!("normal {:?} points back along the ray", hit.normal))
                } else {
                    None
                }
            }
            None if exit < f64::from(max_distance) - slack => {
                Some(format!("missed, exact exit {exit} within {max_distance}"))
            }
            None => None,
        };
        if let (Some(hit), true) = (hit, exit > f64::from(max_distance) + slack) {
            failures.push(format!(
                "round {round} {kind:?}: hit at {} beyond which the exact exit {exit} lies past max {max_distance}",
                hit.distance
            ));
        } else if let Some(wrong) = wrong {
            failures.push(format!(
                "round {round} {kind:?} size {size} xf {xf:?} ray {ray:?}: {wrong}"
            ));
        }
    }
    assert!(checked > 3000, "only {checked} rays started inside");
    assert!(
        failures.is_empty(),
        "{} of {checked} exits wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
