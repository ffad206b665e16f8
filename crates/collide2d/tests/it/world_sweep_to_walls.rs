//! Casts that start touching a thin wall and go on through it at high speed: the start is a
//! hit, so `World::sweep_to` never carries a collider resting against a wall through it.
//!
//! A cast starting within the band around touching is a hit at 0 only if the gap closes by more
//! than the tolerance during the step, which a golden-section search for the gap's minimum
//! decided in 24 steps: a bracket of 1e-5 of the step, wider than the whole dip of a bullet
//! that crosses a thin wall at 1e3..1e5 units a step. The search now goes on until its bracket
//! is shorter than the time the pair takes to close by the tolerance.

/// The exact example: a capsule (radius 0.0128) resting 0.001 into a segment and cast 5,738
/// down through it, tolerance 4 ulps of the motion. It used to be no hit.
#[test]
fn a_capsule_resting_on_a_segment_cast_through_it_fast_hits_at_once() {
    let segment = Shape::from(Segment::new(Vec2::new(3.0, 0.0), Vec2::new(-8.0, 0.0)).unwrap());
    let chain = Shape::from(
        Chain::open(&[
            Vec2::new(10.0, 10.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(-8.0, 0.0),
        ])
        .unwrap(),
    );
    let size = 0.051279034f32;
    let capsule =
        Shape::from(Capsule::new(Vec2::new(-size, 0.0), Vec2::new(size, 0.0), size / 4.0).unwrap());
    let start = Transform::new(Vec2::new(-4.0559382, 0.0118), 0.0);
    let motion = 5738.0;
    let opts = CastOptions {
        tolerance: motion * 4.0 * f32::EPSILON,
        max_iterations: 1000,
        ..CastOptions::default()
    };
    for wall in [segment, chain] {
        let hit = shape_cast(
            &wall,
            &Sweep::fixed(&Transform::IDENTITY),
            &capsule,
            &Sweep::linear(&start, Vec2::new(0.0, -motion)),
            opts,
        )
        .expect("a hit at the start");
        assert_eq!(hit.t, 0.0);
        assert!((hit.normal - Vec2::Y).length() < 1e-4, "{:?}", hit.normal);
    }
}

/// Each case: a wall (a box 0.01-0.5 thick or a one-sided chain segment facing the collider)
/// at any angle about the origin or 1e3..1e5 out, and a collider (circle, capsule or thin box,
/// 0.01-0.5 across, continuous or not) 1..1e4 in front of it, moved five times by
/// `World::sweep_to` towards a target twice as far beyond the wall (turning or not): where its
/// path crosses the wall's face within its length, the collider must end no further past the
/// face than the rounding of the coordinates (8 ulps of the largest) plus 1e-3.
use crate::support::{Rng, BROAD_PHASES};
use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Segment, Shape};
use collide2d::world::{Collider, World};
use collide2d::{Transform, Vec2};

#[test]
fn repeated_sweeps_to_beyond_a_wall_never_end_past_it() {
    let mut bad = 0;
    let mut failures = Vec::new();
    let mut cases = 0;
    let mut worst = 0.0f64;
    for seed in 0..6000u64 {
        let mut rng = Rng(seed);
        let kind = BROAD_PHASES[seed as usize % 3];
        let mut world = World::with_broad_phase(kind).unwrap();
        let far = [0.0f32, 1e3, 1e4, 1e5][rng.below(4)];
        let c = Vec2::new(far * rng.range(-1.0, 1.0), far * rng.range(-1.0, 1.0));
        let wall_angle = rng.angle();
        let n = Vec2::new(wall_angle.cos(), wall_angle.sin()); // wall normal facing the bullet: bullet on -n side
        let thick = rng.log_size(0.01, 0.5);
        let chain = rng.below(3) == 0;
        let wall_shape = if chain {
            // chain segment with its front facing -n: one segment along tangent
            let t = Vec2::new(-n.y, n.x);
            // front (right side of direction d) = (d.y, -d.x) must be -n: d = -t? (d.y,-d.x) with d=t gives (n.x, n.y)... choose d = -t
            let d = -t;
            Shape::from(Chain::open(&[-d * 20.0, d * 20.0]).unwrap())
        } else {
            Shape::from(Polygon::rect(thick, 40.0).unwrap())
        };
        let wall_xf = if chain {
            Transform::new(c, 0.0)
        } else {
            Transform::new(c, wall_angle)
        };
        world
            .insert(Collider::new(wall_shape).with_transform(wall_xf))
            .unwrap();
        let size = rng.log_size(0.01, 0.5);
        let kind_b = rng.below(3);
        let shape = match kind_b {
            0 => Shape::from(Circle::with_radius(size).unwrap()),
            1 => Shape::from(
                Capsule::new(
                    Vec2::new(-size * 3.0, 0.0),
                    Vec2::new(size * 3.0, 0.0),
                    size * 0.3,
                )
                .unwrap(),
            ),
            _ => Shape::from(Polygon::rect(size * 4.0, size * 0.5).unwrap()),
        };
        let reach = size * 3.5;
        let half_thin = [size, size * 0.3, size * 0.25][kind_b];
        let dist = rng.log_size(1.0, 1e4);
        let t = Vec2::new(-n.y, n.x);
        let start = Transform::new(
            c - n * (dist + reach + thick) + t * rng.range(-5.0, 5.0),
            rng.angle(),
        );
        let b = world
            .insert(
                Collider::new(shape.clone())
                    .with_transform(start)
                    .with_continuous(rng.below(2) == 0),
            )
            .unwrap();
        world.update();
        let mut pos = start;
        for k in 0..5 {
            cases += 1;
            let dir = n * rng.range(0.3, 1.0) + t * rng.range(-0.5, 0.5);
            let target = Transform::new(
                pos.p + dir * (dist * 2.0 + 10.0),
                if rng.below(2) == 0 {
                    pos.angle()
                } else {
                    rng.angle()
                },
            );
            let prev = pos;
            let hit = world.sweep_to(b, target).unwrap();
            pos = world.get(b).unwrap().transform();
            let fr = Transform::new(Vec2::ZERO, -wall_angle);
            let (p0, p1) = (fr.apply(prev.p - c), fr.apply(pos.p - c));
            let cross_y = if p1.x != p0.x {
                p0.y + (p1.y - p0.y) * ((0.0 - p0.x) / (p1.x - p0.x)).clamp(0.0, 1.0)
            } else {
                p1.y
            };
            // depth past the wall's front plane: the shape's farthest point along n beyond plane
            let front = if chain { 0.0 } else { -(thick as f64) / 2.0 };
            let frame = Transform::new(Vec2::ZERO, -wall_angle);
            let local = Transform {
                p: frame.apply(pos.p - c),
                q: frame.q.mul(pos.q),
            };
            let bb = shape.aabb(&local);
            let depth = bb.max.x as f64 - front; // > 0 means past the front plane
            let allow = (far.max(dist) as f64) * 8.0 * f32::EPSILON as f64 + 1e-3;
            // A collider thinner than about two cast tolerances (4 ulps of the coordinates)
            // cannot close the gap by more than the tolerance from a resting contact: a cast
            // from there is documented to be no hit.
            let tolerance = (far.max(dist * 3.0) * 4.0 * f32::EPSILON) as f64;
            if (half_thin as f64) < 2.0 * tolerance {
                continue;
            }
            if depth > allow && (cross_y.abs() < 19.0 - reach) && p0.x < 0.0 {
                bad += 1;
                worst = worst.max(depth);
                failures.push(format!(
                    "seed {seed} step {k} far {far} chain {chain}: {depth} past the face, \
                     hit {:?}, from {prev:?} towards {target:?} (size {size}, thickness {thick})",
                    hit.map(|h| h.fraction)
                ));
            }
        }
    }
    assert_eq!(bad, failures.len(), "worst {worst}");
    crate::support::assert_no_failures(&failures, cases, 10);
}

/// The class at the cast: a circle, capsule, box or polygon (0.01-0.5 across, any rotation)
/// starting within half a tolerance of touching the face of a segment, a one-sided chain
/// segment or a box 0.001-0.05 thick, about the origin or 1e3..1e4 out, and cast 1e2..1e5
/// through it within 60° of straight in: a hit at 0 every time. Cases where the body or the
/// wall is thinner than four tolerances across the wall are left out (the gap could not close
/// by more than the tolerance).
#[test]
fn casts_from_a_resting_contact_through_thin_walls_at_any_speed_hit_at_once() {
    let mut rng = Rng(0x0b5e_55ed);
    let (mut failures, mut cases) = (Vec::new(), 0);
    while cases < 20_000 {
        let size = rng.log_size(0.01, 0.5);
        let body = match rng.below(4) {
            0 => Shape::from(Circle::with_radius(size / 2.0).unwrap()),
            1 => Shape::from(
                Capsule::new(Vec2::new(-size, 0.0), Vec2::new(size, 0.0), size / 4.0).unwrap(),
            ),
            2 => Shape::from(Polygon::rect(2.0 * size, size / 2.0).unwrap()),
            _ => Shape::from(Polygon::regular(3 + rng.below(5), size / 2.0).unwrap()),
        };
        let thickness = rng.log_size(0.001, 0.05);
        let wall_kind = rng.below(3);
        let (wall, wall_at) = match wall_kind {
            0 => (
                Shape::from(Segment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0)).unwrap()),
                Transform::IDENTITY,
            ),
            1 => (
                Shape::from(Chain::open(&[Vec2::new(50.0, 0.0), Vec2::new(-50.0, 0.0)]).unwrap()),
                Transform::IDENTITY,
            ),
            _ => (
                Shape::from(Polygon::rect(100.0, thickness).unwrap()),
                Transform::new(Vec2::new(0.0, -thickness / 2.0), 0.0),
            ),
        };
        let far = [0.0f32, 1e3, 1e4][rng.below(3)];
        let frame = Transform::new(
            Vec2::new(far * rng.range(-1.0, 1.0), far * rng.range(-1.0, 1.0)),
            rng.angle(),
        );
        let length = rng.log_size(1e2, 1e5);
        let tolerance =
            (4.0 * f32::EPSILON * (frame.p.abs().max_element() + 100.0).max(length)).max(1e-5);
        let turn = rng.angle();
        let extent = body.aabb(&Transform::new(Vec2::ZERO, turn));
        let across = (extent.max.y - extent.min.y) / 2.0;
        if across < 4.0 * tolerance || (wall_kind == 2 && thickness < 4.0 * tolerance) {
            continue;
        }
        cases += 1;
        let gap = rng.range(-0.5, 0.5) * tolerance;
        let start = Transform::new(Vec2::new(rng.range(-5.0, 5.0), gap - extent.min.y), turn);
        let heading = rng.range(-1.0, 1.0) - std::f32::consts::FRAC_PI_2;
        let motion = Vec2::new(heading.cos(), heading.sin()) * length;
        let start = frame.mul(&start);
        let opts = CastOptions {
            tolerance,
            max_iterations: 1000,
            ..CastOptions::default()
        };
        let hit = shape_cast(
            &body,
            &Sweep::linear(&start, frame.rotate(motion)),
            &wall,
            &Sweep::fixed(&frame.mul(&wall_at)),
            opts,
        );
        if hit.is_none_or(|hit| hit.t != 0.0) {
            failures.push(format!(
                "{body:?} at {start:?} cast by {:?} against {wall:?} at {:?} (tolerance \
                 {tolerance}): {hit:?}",
                frame.rotate(motion),
                frame.mul(&wall_at)
            ));
        }
    }
    crate::support::assert_no_failures(&failures, cases, 5);
}
