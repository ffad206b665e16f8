//! Casts and character moves whose motion ends beyond ±`MAX_COORDINATE`: refused with
//! `TransformOutOfRange`, never answered as "nothing in the way" (a world cast with a motion of
//! 2e9 returned `None` with a wall 3 units ahead, and `move_and_slide` by 1e30 moved nothing
//! and reported no hit), while every motion that ends within the range still answers.

use crate::support::{random_shape, Rng, ALL_KINDS};

use collide2d::shape::{Circle, Polygon, Shape, MAX_COORDINATE};
use collide2d::world::{Collider, MoveOptions, QueryFilter, World, WorldError};
use collide2d::{CastOptions, Transform, Vec2};

fn wall_world() -> (World, collide2d::world::ColliderHandle) {
    let mut world = World::new();
    world
        .insert(
            Collider::new(Shape::from(Circle::with_radius(1.0).unwrap()))
                .with_transform(Transform::new(Vec2::new(3.0, 0.0), 0.0)),
        )
        .unwrap();
    let hero = world
        .insert(Collider::new(Shape::from(Polygon::rect(0.5, 0.5).unwrap())))
        .unwrap();
    (world, hero)
}

#[test]
fn the_exact_cases_are_refused() {
    let (mut world, hero) = wall_world();
    let ball = Shape::from(Circle::with_radius(1.0).unwrap());
    for far in [2e9_f32, 1e30, f32::MAX] {
        let cast = world.shape_cast(
            &ball,
            &Transform::IDENTITY,
            Vec2::new(far, 0.0),
            &QueryFilter::new(),
            CastOptions::default(),
        );
        assert_eq!(
            cast.err(),
            Some(WorldError::TransformOutOfRange),
            "cast by {far}"
        );
        let before = world.get(hero).unwrap().transform();
        let moved = world.move_and_slide(hero, Vec2::new(far, 0.0), MoveOptions::default());
        assert_eq!(
            moved.err(),
            Some(WorldError::TransformOutOfRange),
            "move by {far}"
        );
        assert_eq!(world.get(hero).unwrap().transform(), before);
    }
}

/// Random shapes at random placements near the edge of the range, cast and moved by random
/// motions: a motion ending beyond the range is refused, one ending within it answers.
#[test]
fn motions_are_refused_exactly_when_they_end_beyond_the_range() {
    let mut rng = Rng(0x6d6f_7469_6f6e);
    let mut refused = 0;
    let mut answered = 0;
    for case in 0..600 {
        let kind = rng.pick(&ALL_KINDS);
        let size = rng.log_size(0.01, 10.0);
        let shape = random_shape(&mut rng, kind, size);
        let near_edge = MAX_COORDINATE * rng.range(0.5, 1.0);
        let start = Vec2::new(near_edge * rng.pick(&[-1.0, 1.0]), rng.range(-1e3, 1e3));
        let reach = rng.pick(&[1.0, 1e3, 1e8, 1e9, 3e9, 1e20, 3e38]);
        let delta = Vec2::new(rng.range(-1.0, 1.0) * reach, rng.range(-1.0, 1.0) * reach);
        let mut world = World::new();
        let hero = world
            .insert(Collider::new(shape.clone()).with_transform(Transform::new(start, 0.0)))
            .unwrap();
        let end = start + delta;
        let beyond = !(end.x.abs() <= MAX_COORDINATE && end.y.abs() <= MAX_COORDINATE);
        let xf = Transform::new(start, 0.0);
        let cast = world.shape_cast(
            &shape,
            &xf,
            delta,
            &QueryFilter::new().excluding(&[hero]),
            CastOptions::default(),
        );
        let moved = world.move_and_slide(hero, delta, MoveOptions::default());
        if beyond {
            assert_eq!(
                cast.err(),
                Some(WorldError::TransformOutOfRange),
                "case {case}"
            );
            assert_eq!(
                moved.err(),
                Some(WorldError::TransformOutOfRange),
                "case {case}"
            );
            assert_eq!(world.get(hero).unwrap().transform(), xf, "case {case}");
            refused += 1;
        } else {
            assert!(cast.is_ok(), "case {case}: {cast:?}");
            // A move may still be refused when its shape's box, not its origin, leaves the
            // range; it never errs for any other reason here.
            if let Err(error) = moved {
                assert_eq!(error, WorldError::TransformOutOfRange, "case {case}");
            }
            answered += 1;
        }
    }
    assert!(
        refused > 100 && answered > 100,
        "{refused} refused, {answered} answered"
    );
}
