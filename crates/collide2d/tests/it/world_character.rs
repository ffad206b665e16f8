//! Character movement and world bad-input handling.

use collide2d::shape::Ray;
use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{Collider, MoveOptions, QueryFilter, World, WorldError};
use collide2d::{Rot, Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn tile_floor(world: &mut World, count: usize) {
    for i in 0..count {
        let tile = Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
            .with_transform(Transform::new(v(i as f32 + 0.5, -0.5), 0.0));
        world.insert(tile).unwrap();
    }
}

#[test]
fn box_slides_over_adjacent_tiles_without_wall_hits() {
    let mut world = World::new();
    tile_floor(&mut world, 100);
    for (size, speed) in [(0.8f32, 0.05f32), (0.5, 0.13), (0.9, 0.3), (1.0, 0.5)] {
        let hero = world
            .insert(
                Collider::new(Shape::from(Polygon::rect(size, size).unwrap()))
                    .with_transform(Transform::new(v(1.0, 0.5 * size + 0.01), 0.0)),
            )
            .unwrap();
        let mut x = 1.0;
        while x < 95.0 {
            // Slight downward pressure, as gravity gives.
            let result = world
                .move_and_slide(hero, v(speed, -0.02), MoveOptions::default())
                .unwrap();
            assert!(
                !result.on_wall,
                "wall hit at x = {x} (size {size}, speed {speed}): {result:?}"
            );
            assert!(
                (result.moved.x - speed).abs() < 1e-4,
                "lost speed at x = {x}: {result:?}"
            );
            x += result.moved.x;
        }
        world.remove(hero).unwrap();
    }
}

#[test]
fn pushing_into_a_corner_stops_without_oscillation() {
    let mut world = World::new();
    tile_floor(&mut world, 10);
    let wall = Collider::new(Shape::from(Polygon::rect(1.0, 10.0).unwrap()))
        .with_transform(Transform::new(v(10.5, 5.0), 0.0));
    world.insert(wall).unwrap();
    let hero = world
        .insert(
            Collider::new(Shape::from(Circle::with_radius(0.4).unwrap()))
                .with_transform(Transform::new(v(8.0, 0.41), 0.0)),
        )
        .unwrap();
    let mut positions = Vec::new();
    for _ in 0..60 {
        world
            .move_and_slide(hero, v(0.3, -0.3), MoveOptions::default())
            .unwrap();
        positions.push(world.get(hero).unwrap().transform().p);
    }
    let settled = positions[positions.len() - 1];
    assert!(
        settled.x <= 10.0 - 0.4 && settled.x > 10.0 - 0.4 - 0.05,
        "{settled:?}"
    );
    assert!(settled.y >= 0.4 && settled.y < 0.4 + 0.05, "{settled:?}");
    // Once in the corner it stays exactly put: no jitter.
    for p in &positions[40..] {
        assert!(
            (*p - settled).length() < 1e-5,
            "moved in the corner: {p:?} vs {settled:?}"
        );
    }
}

#[test]
fn one_way_platform_stand_on_top_and_jump_through_from_below() {
    let mut world = World::new();
    let platform = Collider::new(Shape::from(Polygon::rect(4.0, 0.2).unwrap()))
        .with_transform(Transform::new(v(0.0, 2.0), 0.0))
        .with_one_way(Vec2::Y, 0.1);
    world.insert(platform).unwrap();
    let hero = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(0.5, 0.5).unwrap()))
                .with_transform(Transform::new(v(0.0, 0.0), 0.0)),
        )
        .unwrap();
    // Jump up through the platform from below.
    let mut top = 0.0;
    for _ in 0..20 {
        let result = world
            .move_and_slide(hero, v(0.0, 0.3), MoveOptions::default())
            .unwrap();
        assert!(result.hits.is_empty(), "blocked from below: {result:?}");
        top = world.get(hero).unwrap().transform().p.y;
    }
    assert!(top > 3.0);
    // Fall back down: land on top of it.
    let mut landed = false;
    for _ in 0..40 {
        let result = world
            .move_and_slide(hero, v(0.0, -0.2), MoveOptions::default())
            .unwrap();
        landed |= result.on_floor;
    }
    let y = world.get(hero).unwrap().transform().p.y;
    assert!(landed);
    assert!((y - (2.1 + 0.25)).abs() < 0.02, "standing at {y}");
    // Rays from above hit it; rays from below pass.
    let down = Ray::new(v(0.5, 5.0), -Vec2::Y, 10.0).unwrap();
    let up = Ray::new(v(1.5, 0.0), Vec2::Y, 10.0).unwrap();
    assert!(world
        .ray_cast(&down, &QueryFilter::default())
        .unwrap()
        .is_some());
    assert!(world
        .ray_cast(&up, &QueryFilter::default())
        .unwrap()
        .is_none());
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let mut world = World::new();
    let ball = world
        .insert(Collider::new(Shape::from(
            Circle::with_radius(1.0).unwrap(),
        )))
        .unwrap();
    let nan = Transform::new(v(f32::NAN, 0.0), 0.0);
    assert_eq!(
        world.set_transform(ball, nan),
        Err(WorldError::NonFiniteTransform)
    );
    let skewed = Transform {
        p: Vec2::ZERO,
        q: Rot { c: 2.0, s: 0.0 },
    };
    assert_eq!(
        world.set_offset(ball, skewed),
        Err(WorldError::RotationNotUnit)
    );
    let far = Transform::new(v(2.0e9, 0.0), 0.0);
    assert_eq!(
        world.set_transform(ball, far),
        Err(WorldError::TransformOutOfRange)
    );
    assert_eq!(
        world.get(ball).unwrap().world_transform(),
        Transform::IDENTITY
    );
    assert!(world
        .insert(Collider::new(Shape::from(Circle::with_radius(1.0).unwrap())).with_transform(nan))
        .is_err());
    assert!(world
        .layers_mut()
        .disable_by_name("default", "Nope")
        .is_err());
    assert_eq!(
        world.layers().id("Nope"),
        Err(WorldError::UnknownLayer("Nope".into()))
    );
    assert!(world
        .move_and_slide(ball, v(f32::INFINITY, 0.0), MoveOptions::default())
        .is_err());
    assert!(world
        .overlap_point(v(f32::NAN, 0.0), &QueryFilter::default())
        .is_err());
    assert!(world
        .insert(
            Collider::new(Shape::from(Circle::with_radius(1.0).unwrap()))
                .with_one_way(Vec2::ZERO, 0.1)
        )
        .is_err());
    let removed = world.remove(ball).unwrap();
    assert_eq!(
        world.remove(ball).unwrap_err(),
        WorldError::StaleHandle(ball)
    );
    let again = world.insert(removed).unwrap();
    assert_ne!(again, ball, "a new collider never reuses a stale handle");
    assert!(world.get(ball).is_err() && world.get(again).is_ok());
    assert_eq!(world.len(), 1);
}

#[test]
fn queries_find_what_they_should() {
    let mut world = World::new();
    let sensor_layer = world.layers_mut().add("Sensors").unwrap();
    let a = world
        .insert(Collider::new(Shape::from(
            Circle::with_radius(1.0).unwrap(),
        )))
        .unwrap();
    let b = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(2.0, 2.0).unwrap()))
                .with_transform(Transform::new(v(5.0, 0.0), 0.0)),
        )
        .unwrap();
    let s = world
        .insert(
            Collider::new(Shape::from(Circle::with_radius(3.0).unwrap()))
                .with_sensor(true)
                .with_layer(sensor_layer),
        )
        .unwrap();
    let all = QueryFilter::default().with_sensors();
    assert_eq!(
        world
            .overlap_point(v(0.5, 0.0), &QueryFilter::default())
            .unwrap(),
        vec![a]
    );
    assert_eq!(world.overlap_point(v(0.5, 0.0), &all).unwrap(), vec![a, s]);
    let ray = Ray::new(v(-10.0, 0.0), Vec2::X, 100.0).unwrap();
    let nearest = world
        .ray_cast(&ray, &QueryFilter::default())
        .unwrap()
        .unwrap();
    assert_eq!((nearest.collider, nearest.distance), (a, 9.0));
    let hits: Vec<_> = world
        .ray_cast_all(&ray, &all)
        .unwrap()
        .iter()
        .map(|h| h.collider)
        .collect();
    assert_eq!(hits, vec![s, a, b]);
    let probe = Shape::from(Circle::with_radius(0.5).unwrap());
    assert_eq!(
        world
            .overlap_shape(
                &probe,
                &Transform::new(v(3.8, 0.0), 0.0),
                &QueryFilter::default()
            )
            .unwrap(),
        vec![b]
    );
    let hit = world
        .shape_cast(
            &probe,
            &Transform::new(v(-5.0, 3.0), 0.0),
            v(15.0, -3.0),
            &QueryFilter::default().excluding(&[a]),
            Default::default(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.collider, b);
}
