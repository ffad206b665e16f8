//! Walking down off ledges: rounded characters (circles, capsules, rounded boxes) stay on the
//! floor walking off a ledge lower than the snap distance, as boxes do.

use crate::character_mover::depth;
use crate::mover_edges::{body_shape, Body, BODIES};
use crate::support::Rng;

use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, MoveOptions, MoveResult, World};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn slab(world: &mut World, center: Vec2, width: f32, height: f32) -> ColliderHandle {
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(width, height).unwrap()))
                .with_transform(Transform::new(center, 0.0)),
        )
        .unwrap()
}

/// An upper floor with its top at y = 0 ending at x = 0, and a lower one `height` below
/// beyond it; `shape` standing on the upper floor, its right side `back` short of the edge,
/// `skin / 2` above the floor.
fn ledge_scene(shape: Shape, height: f32, back: f32) -> (World, ColliderHandle) {
    let mut world = World::new();
    slab(&mut world, v(-2.0, -0.5), 4.0, 1.0);
    slab(&mut world, v(2.0, -0.5 - height), 4.0, 1.0);
    let half = shape.aabb(&Transform::IDENTITY).max;
    let hero = world
        .insert(Collider::new(shape).with_transform(Transform::new(v(-half.x - back, half.y + 0.005), 0.0)))
        .unwrap();
    (world, hero)
}

#[test]
fn probe_exact() {
    for (name, shape) in [
        ("capsule", Shape::from(Capsule::vertical(1.0, 0.3).unwrap())),
        ("circle", Shape::from(Circle::with_radius(0.5).unwrap())),
        ("rbox", Shape::from(Polygon::rounded_rect(1.0, 1.0, 0.2).unwrap())),
        ("box", Shape::from(Polygon::rect(1.0, 1.0).unwrap())),
    ] {
        for height in [0.05f32, 0.1, 0.15, 0.19] {
        for gravity in [0.0f32, 0.05] {
          for k in 0..10 {
            let back = 0.005 * k as f32;
            let (mut world, hero) = ledge_scene(shape.clone(), height, back);
            let mut lost = 0;
            let mut last = MoveResult::default();
            let mut deep = 0.0f32;
            for _call in 0..40 {
                let r = world.move_and_slide(hero, v(0.05, -gravity), MoveOptions::default()).unwrap();
                if !r.on_floor { lost += 1; }
                deep = deep.max(depth(&world, hero));
                last = r;
            }
            let bottom = world.get(hero).unwrap().shape().aabb(&world.get(hero).unwrap().world_transform()).min.y;
            println!("{name} h={height} g={gravity} back={back} lost={lost} gap={} last_on_floor={} deep={deep}", bottom + height, last.on_floor);
          }
        }
        }
    }
}
