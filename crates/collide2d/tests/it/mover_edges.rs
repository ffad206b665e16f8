//! Character movement at the edges a game reaches: flat floors of every construction at offsets
//! up to 1e5, characters from 0.1 to 10 units, walking speeds from 1e-4 to 10 units a call.

use collide2d::shape::{Capsule, Chain, Circle, Polygon, Shape};
use collide2d::world::{Collider, MoveOptions, World};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

const SKIN: f32 = 0.01;

// ---------------------------------------------------------------------------------------------
// The wrong answers found, each with its exact example.

/// A capsule (radius 0.081) resting a half skin above a straight chain floor, stopped 0.015
/// before one of the chain's vertices, takes a long step along the floor: the next segment's
/// end, within the skin, used to give a plane leaning back against the walk (its closest-point
/// direction, about 15° from up), and the step solved against it climbed 0.70 units into the
/// air. The segment's top face, which the capsule is wholly above, holds it level instead.
#[test]
fn a_capsule_stepping_over_a_chain_vertex_stays_level() {
    let mut world = World::new();
    let floor = [v(200.0, 0.0), v(10.0, 0.0), v(-5.0, 0.0)];
    world
        .insert(Collider::new(Shape::from(Chain::open(&floor).unwrap())))
        .unwrap();
    let capsule = Capsule::vertical(0.27018404, 0.081055216).unwrap();
    let rest = 0.5 * 0.27018404 + 0.5 * SKIN;
    let hero = world
        .insert(
            Collider::new(Shape::from(capsule)).with_transform(Transform::new(v(9.985, rest), 0.0)),
        )
        .unwrap();
    let result = world
        .move_and_slide(hero, v(4.1421857, 0.0), MoveOptions::default())
        .unwrap();
    let p = world.get(hero).unwrap().transform().p;
    assert!((result.moved.x - 4.1421857).abs() < 1e-5, "{result:?}");
    assert!(
        (p.y - rest).abs() < 1e-4,
        "rose to {} from {rest}: {result:?}",
        p.y
    );
    assert!(result.on_floor, "{result:?}");
}

/// The same at a seam between two floor boxes: a circle of radius 0.52 walking 2.92 a call
/// with no gravity used to climb the next box's corner and leave the floor.
#[test]
fn a_circle_stepping_over_a_seam_between_boxes_stays_level() {
    let mut world = World::new();
    for i in 0..4 {
        world
            .insert(
                Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                    .with_transform(Transform::new(v(0.5 + i as f32, -0.5), 0.0)),
            )
            .unwrap();
    }
    let radius = 0.5247254;
    let rest = radius + 0.5 * SKIN;
    let hero = world
        .insert(
            Collider::new(Shape::from(Circle::with_radius(radius).unwrap()))
                .with_transform(Transform::new(v(0.96, rest), 0.0)),
        )
        .unwrap();
    let result = world
        .move_and_slide(hero, v(2.9189425, 0.0), MoveOptions::default())
        .unwrap();
    let p = world.get(hero).unwrap().transform().p;
    assert!((result.moved.x - 2.9189425).abs() < 1e-5, "{result:?}");
    assert!(
        (p.y - rest).abs() < 1e-4,
        "rose to {} from {rest}: {result:?}",
        p.y
    );
    assert!(result.on_floor, "{result:?}");
}

/// A 9.4-unit box on one 400-unit floor box, the scene 100,000 units from the origin, walking
/// 1.56 a call: the skin planes were measured in world coordinates, where `f32` steps by
/// 0.0078, so the gap under the box read 0.0039 while it was 0.0031; the cast, told to stop at
/// the larger gap, stopped at once on every call from the third on.
#[test]
fn a_large_box_far_from_the_origin_walks_a_long_floor() {
    let mut world = World::new();
    let origin = v(1.0e5, 5.0e4);
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(400.0, 1.0).unwrap()))
                .with_transform(Transform::new(origin + v(195.0, -0.5), 0.0)),
        )
        .unwrap();
    let size = 9.407884;
    let hero = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(size, size).unwrap()))
                .with_transform(Transform::new(origin + v(0.2, 0.5 * size + 0.005), 0.0)),
        )
        .unwrap();
    for _ in 0..5 {
        world
            .move_and_slide(hero, v(0.0, -0.01), MoveOptions::default())
            .unwrap();
    }
    for call in 0..100 {
        let result = world
            .move_and_slide(hero, v(1.5612206, 0.0), MoveOptions::default())
            .unwrap();
        // 1.5612206 rounds to a multiple of 1/128 at x = 1e5.
        assert!(
            (result.moved.x - 1.5612206).abs() <= 1.0 / 128.0,
            "call {call}: {result:?}"
        );
        assert!(result.on_floor, "call {call}: {result:?}");
    }
}
