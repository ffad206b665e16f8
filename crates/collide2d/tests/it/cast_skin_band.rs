//! Casts that start within the skin band: motion that does not close the gap is never a hit.

use crate::support;

use collide2d::query::{distance, shape_cast, CastOptions, Sweep};
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Segment, Shape};
use collide2d::{Transform, Vec2};
use support::Rng;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A circle resting exactly a skin above a segment floor and moving along it: no hit (it used to
/// report `t = 0`, which froze characters on chain and tile-outline floors).
#[test]
fn circle_sliding_a_skin_above_a_segment_is_not_a_hit() {
    let circle = Shape::from(Circle::with_radius(0.5).unwrap());
    let floor = Shape::from(Segment::new(v(50.0, 0.0), v(-50.0, 0.0)).unwrap());
    let options = CastOptions {
        target_separation: 0.01,
        ..CastOptions::default()
    };
    let hit = shape_cast(
        &circle,
        &Sweep::linear(&Transform::new(v(0.02, 0.51), 0.0), v(0.1, 0.0)),
        &floor,
        &Sweep::fixed(&Transform::IDENTITY),
        options,
    );
    assert_eq!(hit, None);
    // The same against a box floor, which was already right.
    let box_floor = Shape::from(Polygon::rect(100.0, 1.0).unwrap());
    let hit = shape_cast(
        &circle,
        &Sweep::linear(&Transform::new(v(0.02, 0.51), 0.0), v(0.1, 0.0)),
        &box_floor,
        &Sweep::fixed(&Transform::new(v(0.0, -0.5), 0.0)),
        options,
    );
    assert_eq!(hit, None);
    // Pressing down into it is a hit at once.
    let hit = shape_cast(
        &circle,
        &Sweep::linear(&Transform::new(v(0.02, 0.51), 0.0), v(0.1, -0.05)),
        &floor,
        &Sweep::fixed(&Transform::IDENTITY),
        options,
    )
    .unwrap();
    assert_eq!(hit.t, 0.0);
}

fn mover(rng: &mut Rng, kind: usize) -> Shape {
    let size = rng.log_size(0.2, 3.0);
    match kind {
        0 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
        1 => Shape::from(Polygon::rect(size, size * rng.range(0.3, 2.0)).unwrap()),
        2 => Shape::from(
            Polygon::rect(size, size * rng.range(0.3, 2.0))
                .unwrap()
                .with_radius(0.1 * size)
                .unwrap(),
        ),
        3 => Shape::from(Capsule::vertical(size, 0.3 * size).unwrap()),
        _ => Shape::from(Segment::new(v(-0.5 * size, 0.0), v(0.5 * size, 0.0)).unwrap()),
    }
}

/// An obstacle with its top face along local x, and the half-length of that flat face.
fn obstacle(rng: &mut Rng, kind: usize) -> (Shape, f32) {
    let size = rng.log_size(0.5, 50.0);
    let shape = match kind {
        0 => Shape::from(Segment::new(v(-size, 0.0), v(size, 0.0)).unwrap()),
        1 => {
            let points: Vec<Vec2> = (0..6).map(|i| v(size * (i as f32 - 2.5), 0.0)).collect();
            Shape::from(Chain::open(&points).unwrap())
        }
        2 => Shape::from(Polygon::rect(size, rng.log_size(0.1, 10.0)).unwrap()),
        3 => Shape::from(
            Polygon::rect(size, rng.log_size(0.1, 10.0))
                .unwrap()
                .with_radius(0.05 * size)
                .unwrap(),
        ),
        4 => {
            Shape::from(Capsule::new(v(-size, 0.0), v(size, 0.0), rng.log_size(0.05, 5.0)).unwrap())
        }
        _ => Shape::from(Circle::with_radius(size).unwrap()),
    };
    let flat = match kind {
        0 | 4 => size,
        1 => 2.5 * size,
        2 | 3 => 0.5 * size,
        _ => 0.0,
    };
    (shape, flat)
}

/// Every pair of mover (circle, box, rounded box, capsule, segment) and obstacle (segment, chain,
/// box, rounded box, capsule, circle), the mover placed at a random gap within the tolerance band
/// around the target separation, in a random direction, at up to 300 units from the origin:
/// motion that does not close the gap (along the surface, or away from it) is never a hit, and
/// motion into the surface by more than the band is one.
#[test]
fn a_start_in_the_skin_band_is_a_hit_only_if_the_gap_closes() {
    let mut rng = Rng(0x5c1_2ba4d);
    let mut checked = [[0usize; 6]; 5];
    for case in 0..30_000 {
        let (mover_kind, obstacle_kind) = (case % 5, (case / 5) % 6);
        let a = mover(&mut rng, mover_kind);
        let (b, flat_half) = obstacle(&mut rng, obstacle_kind);
        // Beyond a few hundred units an f32 position step (6e-5 at 1,000) is as wide as the
        // band itself, so the band cannot be placed there.
        let far = if rng.unit() < 0.5 { 10.0 } else { 300.0 };
        let xf_b = Transform::new(rng.point(far), rng.angle());
        // Above the obstacle along its up side (the chain's front), at a random offset along it.
        let up = xf_b.rotate(if let Shape::Chain(chain) = &b {
            chain.normals()[0]
        } else {
            Vec2::Y
        });
        let along =
            xf_b.rotate(Vec2::X) * rng.range(-0.3, 0.3) * b.aabb(&Transform::IDENTITY).max.x;
        let mut xf_a = Transform::new(
            xf_b.p + along + up * 5.0 * (1.0 + b.aabb(&Transform::IDENTITY).max.y),
            rng.angle(),
        );
        let target = rng.log_size(1e-3, 0.05);
        let tolerance = CastOptions::default().tolerance;
        let wanted = target + rng.range(-0.8, 0.8) * tolerance;
        // Two corrections along the closest-point normal put the gap at `wanted`.
        let mut normal = Vec2::ZERO;
        for _ in 0..3 {
            let d = distance(&a, &xf_a, &b, &xf_b);
            if d.distance <= 0.0 {
                break;
            }
            normal = -d.normal;
            xf_a.p += normal * (wanted - d.distance);
        }
        let closest = distance(&a, &xf_a, &b, &xf_b);
        let gap = closest.distance;
        // Against a flat face, its exact normal (the closest-point direction carries rounding
        // noise of about 1e-4 rad at these gaps, which over a long motion is a real approach).
        if xf_b.apply_inv(closest.point_b).x.abs() < 0.999 * flat_half {
            normal = up;
        }
        // f32 positions far from the origin cannot hold the gap to the band: skip those.
        if normal == Vec2::ZERO || (gap - wanted).abs() > 0.1 * tolerance {
            continue;
        }
        let options = CastOptions {
            target_separation: target,
            ..CastOptions::default()
        };
        let length = rng.log_size(1e-3, 20.0);
        let tangent = Vec2::new(-normal.y, normal.x) * if rng.unit() < 0.5 { 1.0 } else { -1.0 };
        // Along the surface or away from it.
        let away = rng.range(0.0, 1.0) * if rng.unit() < 0.3 { 0.0 } else { 1.0 };
        let motion = (tangent + normal * away).normalize() * length;
        let hit = shape_cast(
            &a,
            &Sweep::linear(&xf_a, motion),
            &b,
            &Sweep::fixed(&xf_b),
            options,
        );
        assert!(
            hit.is_none(),
            "case {case}: {a:?} at {xf_a:?} against {b:?} at {xf_b:?}, gap {gap} (target {target}), \
             motion {motion:?} does not close the gap, yet {hit:?}"
        );
        // Into the surface by ten times the band: a hit within the first part of the motion.
        let into = tangent * rng.range(0.0, 1.0) - normal;
        let motion = into * (20.0 * tolerance + length);
        let hit = shape_cast(
            &a,
            &Sweep::linear(&xf_a, motion),
            &b,
            &Sweep::fixed(&xf_b),
            options,
        );
        assert!(
            hit.is_some(),
            "case {case}: {a:?} at {xf_a:?} against {b:?} at {xf_b:?}, gap {gap}, motion {motion:?} \
             into the surface is not a hit"
        );
        checked[mover_kind][obstacle_kind] += 1;
    }
    for (mover_kind, row) in checked.iter().enumerate() {
        for (obstacle_kind, count) in row.iter().enumerate() {
            assert!(
                *count >= 200,
                "pair {mover_kind}/{obstacle_kind}: only {count} cases"
            );
        }
    }
}

/// A ball overlapping a box's face by more than the tolerance (resting on a floor a little
/// deep), moving along the face, away from it or into it while turning up to ±3 rad about its
/// centre, either side of the cast: a hit (at 0) exactly when the motion goes into the face.
/// The turn cannot take the ball deeper (its surface turns onto itself), yet the cast counted
/// the radius times the turn as closing and called every such start a hit, so a ball turning
/// as it rolled along a level's floor never met the level's wall.
#[test]
fn a_ball_overlapping_a_face_and_turning_about_its_centre_hits_only_going_deeper() {
    let mut rng = Rng(0x7a2e_0000);
    let (mut cases, mut into) = (0usize, 0usize);
    let mut failures = Vec::new();
    for case in 0..3000 {
        let radius = rng.log_size(0.01, 1.0);
        let (width, height) = (rng.range(4.0, 8.0), rng.log_size(0.2, 2.0));
        let frame = Transform::new(
            v(rng.range(-100.0, 100.0), rng.range(-100.0, 100.0)),
            rng.angle(),
        );
        let floor = Shape::from(Polygon::rect(width, height).unwrap());
        let ball = Shape::from(Circle::with_radius(radius).unwrap());
        let depth = rng.range(1e-3, 0.2 * radius + 1e-3);
        let span = 0.5 * width - radius - 0.1;
        let (from, to) = (rng.range(-span, span), rng.range(-span, span));
        let (down, dy) = match case % 3 {
            0 => (false, 0.0),
            1 => (false, rng.range(1e-3, 0.5)),
            _ => (true, -rng.range(1e-3, 0.3)),
        };
        let turn = rng.range(-3.0, 3.0);
        let start = Transform {
            p: frame.apply(v(from, 0.5 * height + radius - depth)),
            q: frame.q,
        };
        let ball_sweep = Sweep::spinning(&start, frame.q.rotate(v(to - from, dy)), turn);
        let floor_sweep = Sweep::fixed(&frame);
        let ball_first = case % 2 == 0;
        let hit = if ball_first {
            shape_cast(
                &ball,
                &ball_sweep,
                &floor,
                &floor_sweep,
                CastOptions::default(),
            )
        } else {
            shape_cast(
                &floor,
                &floor_sweep,
                &ball,
                &ball_sweep,
                CastOptions::default(),
            )
        };
        cases += 1;
        into += usize::from(down);
        let right = match hit {
            Some(hit) => down && hit.t == 0.0,
            None => !down,
        };
        if !right {
            failures.push(format!(
                "case {case}: ball {radius} {depth} deep at {from} -> {to} (dy {dy}, turn {turn}) on {width}x{height} at {frame:?}, ball first {ball_first}: {hit:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} wrong ({into} into the face):\n{}",
        failures.len(),
        failures[..failures.len().min(6)].join("\n")
    );
}
