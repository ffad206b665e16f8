//! One-way colliders under scale: the margin (how deep something may be and still be pushed
//! out) is a depth in the shape's frame, scaled with the shape as its blocking side is.

use bevy_app::App;
use bevy_collide2d::prelude::*;
use bevy_collide2d::spawn_tile_map;
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::Transform;
use collide2d::level::{Tile, TileMap};
use collide2d::world::{Collider as WorldCollider, TileGeometry, World};
use collide2d::Polygon;

use crate::support::{app, step, Rng};

/// Whether the plugin's world has `a` and `b` touching.
fn touching(app: &App, a: Entity, b: Entity) -> bool {
    let world = app.world().resource::<CollisionWorld>();
    let (a, b) = (world.handle(a).unwrap(), world.handle(b).unwrap());
    world
        .world()
        .contacts_of(a)
        .any(|(x, y, _)| (x, y) == (a, b) || (x, y) == (b, a))
}

/// A one-way tile platform in a map of 1-unit cells under a parent scaled by 4 is 4 units a
/// cell, so its margin is a quarter of that cell (1 unit), as `spawn_tile_map` documents and as
/// the same map built with 4-unit cells at the root has it. A box resting 0.5 deep in the
/// platform's top touches it in both; with the margin left at 0.25 it went through the scaled
/// one.
#[test]
fn a_one_way_tile_platform_under_a_scaled_parent_keeps_a_quarter_cell_margin() {
    let mut touches = Vec::new();
    for (cell, scale) in [(4.0, 1.0), (1.0, 4.0)] {
        let mut app = app();
        let map = TileMap::from_fn(6, 3, cell, collide2d::Vec2::ZERO, |x, y| {
            if y == 1 && (1..5).contains(&x) {
                Tile::SOLID.with_one_way(true)
            } else {
                Tile::EMPTY
            }
        })
        .unwrap();
        let parent = app
            .world_mut()
            .spawn(Transform::from_scale(Vec3::new(scale, scale, 1.0)))
            .id();
        let layers = app
            .world()
            .resource::<CollisionWorld>()
            .world()
            .layers()
            .clone();
        let world = app.world_mut();
        let mut commands = world.commands();
        let platforms =
            spawn_tile_map(&mut commands, &map, TileGeometry::Rectangles, &layers).unwrap();
        world.flush();
        for &platform in &platforms {
            app.world_mut().entity_mut(platform).insert(ChildOf(parent));
        }
        // The platform's top is at 8 either way; the box's bottom 0.5 below it.
        let crate_ = app
            .world_mut()
            .spawn((
                Collider::rect(2.0, 2.0).unwrap(),
                Transform::from_xyz(10.0, 8.5, 0.0),
            ))
            .id();
        step(&mut app);
        touches.push(touching(&app, platforms[0], crate_));
    }
    assert_eq!(touches, [true, true]);
}

/// Seeded one-way boxes (blocking up, down, left or right) under parents scaled uniformly,
/// non-uniformly and mirrored, turned, with the collider's own scale on top, and a box pushed
/// into the blocking side to a random depth: the plugin's world has them touching exactly when
/// a plain world does with the box built at its scaled size and the margin scaled along the
/// blocking side by hand.
#[test]
fn one_way_margins_scale_with_the_shape_along_the_blocking_side() {
    let mut rng = Rng(0x51ed_2701);
    let (mut touched, mut cases) = (0, 0);
    for case in 0..300 {
        let mut app = app();
        let size = Vec2::new(rng.range(1.0, 4.0), rng.range(1.0, 4.0));
        let sign = |rng: &mut Rng| if rng.below(3) == 0 { -1.0 } else { 1.0 };
        let object = Vec2::new(
            sign(&mut rng) * rng.range(0.25, 4.0),
            sign(&mut rng) * rng.range(0.25, 4.0),
        );
        let own = if rng.below(2) == 0 {
            Vec2::ONE
        } else {
            Vec2::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0))
        };
        let direction = [Vec2::Y, -Vec2::Y, Vec2::X, -Vec2::X][rng.below(4)];
        let margin = rng.range(0.05, 0.5);
        let turn = rng.range(-3.1, 3.1);
        let collider = Collider::rect(size.x, size.y)
            .unwrap()
            .with_scale(own)
            .with_one_way(direction, margin);
        let platform = app
            .world_mut()
            .spawn((
                collider,
                Transform::from_rotation(Quat::from_rotation_z(turn))
                    .with_scale(object.extend(1.0)),
            ))
            .id();
        // By hand: the box's half extents in the world, and the world's blocking side: the
        // direction mirrored by the scale's signs (a box's face normals keep their axis).
        let scale = own * object;
        let half = (size * scale).abs() / 2.0;
        let world_side = direction * scale.signum();
        let axis_half = (world_side * half).length();
        let scaled_margin = margin * (direction * scale).length();
        // A small box pushed `depth` into that side, in the platform's turned frame; not so
        // deep that it is nearer another side (which side then holds it is a close call).
        let across_half = (world_side.perp() * half).length();
        let depth = rng.range(0.0, (2.0 * scaled_margin).min(across_half));
        let probe_half = 0.2;
        let local = world_side * (axis_half + probe_half - depth);
        let at = Vec2::from_angle(turn).rotate(local);
        let probe = app
            .world_mut()
            .spawn((
                Collider::rect(2.0 * probe_half, 2.0 * probe_half).unwrap(),
                Transform::from_xyz(at.x, at.y, 0.0).with_rotation(Quat::from_rotation_z(turn)),
            ))
            .id();
        step(&mut app);
        // The plain world with the box built at its size and the margin scaled by hand.
        let mut plain = World::new();
        let turned = collide2d::Transform::new(collide2d::Vec2::ZERO, turn);
        let side = collide2d::Vec2::new(world_side.x, world_side.y);
        let shape = Polygon::rect(2.0 * half.x, 2.0 * half.y).unwrap();
        let a = plain
            .insert(
                WorldCollider::new(shape)
                    .with_transform(turned)
                    .with_one_way(side, scaled_margin),
            )
            .unwrap();
        let small = Polygon::rect(2.0 * probe_half, 2.0 * probe_half).unwrap();
        let placed = collide2d::Transform::new(collide2d::Vec2::new(at.x, at.y), turn);
        let b = plain
            .insert(WorldCollider::new(small).with_transform(placed))
            .unwrap();
        plain.update();
        // Too close to the margin to call in f32: skip.
        if (depth - scaled_margin).abs() < 1e-3 * (1.0 + scaled_margin) || depth < 1e-3 {
            continue;
        }
        let want = plain.contacts_of(a).any(|(x, y, _)| (x, y) == (a, b));
        assert_eq!(
            touching(&app, platform, probe),
            want,
            "case {case}: size {size} object {object} own {own} direction {direction} margin \
             {margin} (scaled {scaled_margin}) depth {depth}"
        );
        touched += usize::from(want);
        cases += 1;
    }
    assert!(
        cases > 250 && touched > 60 && cases - touched > 60,
        "{touched} of {cases}"
    );
}
