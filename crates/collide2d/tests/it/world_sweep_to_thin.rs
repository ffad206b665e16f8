//! `World::sweep_to` with thin colliders and thin walls: the bound its docs state. A collider
//! is stopped at what it would pass through, call after call, when the two are together more
//! than four times the cast's tolerance thick square to the face they meet (the tolerance is
//! `max(1e-5, 4 ε s)` for `s` the largest coordinate of the path's ends or its length).
//! Thinner, a collider stopped touching cannot be told from one resting on a surface it slides
//! along, and its next call passes through.

use crate::support::Rng;
use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, World};
use collide2d::{Transform, Vec2};

/// The tolerance of a `sweep_to` of an object from `from` to `to` (no offset).
fn tolerance(from: Vec2, to: Vec2) -> f32 {
    let scale = from
        .abs()
        .max(to.abs())
        .max_element()
        .max((to - from).length());
    (scale * 4.0 * f32::EPSILON).max(1.0e-5)
}

/// 1,500 seeded cases: a thin box, a capsule of zero-length-ish radius or a small ball pushed
/// by ten `sweep_to` calls towards a target beyond a wall (a box 4 long), square to it or at
/// up to 0.5 rad, both turned any way, about the origin or 1e3 or 1e4 out, 1 to 1e3 from the
/// target, the two together 4 to 8 tolerances thick square to the wall, split between them any
/// way (the wall down to 1e-5 thick). Every call stops the collider (a hit), and it never
/// ends with its centre past the wall's middle.
#[test]
fn sweep_to_stops_thin_colliders_at_thin_walls_four_tolerances_thick_call_after_call() {
    let mut failures = Vec::new();
    let mut thinnest = f32::INFINITY;
    for case in 0..1500u64 {
        let seed = 0x7410_0000 + case;
        let mut rng = Rng(seed);
        let centre = match case % 3 {
            0 => Vec2::ZERO,
            1 => Vec2::new(1.0e3, 7.0e2),
            _ => Vec2::new(-1.0e4, 6.0e3),
        };
        let wall_turn = rng.angle();
        let up = Transform::new(Vec2::ZERO, wall_turn).rotate(Vec2::Y);
        let distance = rng.log_size(1.0, 1.0e3);
        let slant = rng.range(-0.5, 0.5);
        let path = Transform::new(Vec2::ZERO, slant).rotate(up);
        let start = centre - path * (0.5 * distance);
        let target = centre + path * (0.5 * distance);
        // Thicknesses square to the wall (along the path they are 1 / cos(slant) more).
        let total = rng.range(4.0, 8.0) * tolerance(start, target);
        let split = rng.range(0.05, 0.95);
        let (body_thickness, wall_thickness) = (split * total, (1.0 - split) * total);
        thinnest = thinnest.min(wall_thickness);
        let mut world = World::new();
        world
            .insert(
                Collider::new(Shape::from(Polygon::rect(4.0, wall_thickness).unwrap()))
                    .with_transform(Transform::new(centre, wall_turn)),
            )
            .unwrap();
        let body = match rng.below(3) {
            0 => Shape::from(Polygon::rect(0.5, body_thickness).unwrap()),
            1 => Shape::from(
                Capsule::new(
                    Vec2::new(-0.25, 0.0),
                    Vec2::new(0.25, 0.0),
                    0.5 * body_thickness,
                )
                .unwrap(),
            ),
            _ => Shape::from(Circle::with_radius(0.5 * body_thickness).unwrap()),
        };
        let xf = |p: Vec2| Transform::new(p, wall_turn);
        let mover = world
            .insert(
                Collider::new(body.clone())
                    .with_continuous(true)
                    .with_transform(xf(start)),
            )
            .unwrap();
        for call in 0..10 {
            let hit = world.sweep_to(mover, xf(target)).unwrap();
            let side = (world.get(mover).unwrap().transform().p - centre).dot(up);
            if hit.is_none() || side > 0.0 {
                failures.push(format!(
                    "case {case} seed {seed:#x} call {call}: {body:?} against a wall {wall_thickness:e} thick turned {wall_turn} at {centre:?}, {distance} at {slant} rad: hit {hit:?}, centre {side:e} past the wall's middle"
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 1500 passed through:\n{}",
        failures.len(),
        failures[..failures.len().min(4)].join("\n")
    );
    assert!(thinnest < 2.0e-5, "{thinnest:e}");
}
