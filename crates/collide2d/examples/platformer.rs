//! A platformer character on a tile map: gravity, walking, a jump up through a one-way
//! platform, landing on it, and dropping back through it to the floor.
//!
//! `cargo run --example platformer`

use collide2d::level::{Tile, TileMap};
use collide2d::world::{
    Collider, ColliderHandle, MoveOptions, TileGeometry, TileMapColliders, World,
};
use collide2d::{Transform, Vec2};

const DT: f32 = 1.0 / 60.0;
const GRAVITY: f32 = 30.0;
const JUMP_SPEED: f32 = 14.0;
const WALK_SPEED: f32 = 5.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 24 × 8 tiles of one unit: a floor (row 0), a wall on the right, and a one-way
    // platform over columns 8 to 12 whose top is at y = 4.
    let map = TileMap::from_fn(24, 8, 1.0, Vec2::ZERO, |x, y| match (x, y) {
        (_, 0) | (23, _) => Tile::SOLID,
        (8..=12, 3) => Tile::SOLID.with_one_way(true),
        _ => Tile::EMPTY,
    })?;
    let mut world = World::new();
    let tiles = TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines)?;
    let hero = world.insert(
        Collider::rect(0.8, 1.0)?.with_transform(Transform::from_translation(Vec2::new(2.0, 1.6))),
    )?;
    // What the character stands on, read from the tile under it.
    let standing_on = |h: ColliderHandle| match tiles.region_of(h).and_then(|id| map.region(id)) {
        Some(region) if region.tile().one_way => "the one-way platform",
        Some(_) => "the floor",
        None => "something else",
    };

    let mut velocity = Vec2::ZERO;
    let mut was_on = None;
    for frame in 0..240 {
        let x = world.get(hero)?.transform().p.x;
        // The script: walk right to x = 10, jump at frame 40, press "down" at frame 150.
        velocity.x = if x < 10.0 { WALK_SPEED } else { 0.0 };
        if frame == 40 && was_on.is_some() {
            velocity.y = JUMP_SPEED;
            println!("frame {frame}: jump at x = {x:.2}");
        }
        velocity.y -= GRAVITY * DT;
        // Holding "down" ignores one-way platforms for these calls only: the drop-through.
        let drop_through = (150..160).contains(&frame);
        let options = MoveOptions::default().with_skip_one_way(drop_through);
        let moved = world.move_and_slide(hero, velocity * DT, options)?;
        if moved.on_floor && velocity.y < 0.0 {
            velocity.y = 0.0;
        }
        let now_on = moved.floor_collider.filter(|_| moved.on_floor);
        if now_on != was_on {
            let at = world.get(hero)?.transform().p;
            match now_on {
                Some(h) => println!("frame {frame}: landed on {} at {at:.2}", standing_on(h)),
                None if drop_through => println!("frame {frame}: dropping through at {at:.2}"),
                None => println!("frame {frame}: in the air at {at:.2}"),
            }
            was_on = now_on;
        }
        if frame == 149 {
            assert_eq!(was_on.map(standing_on), Some("the one-way platform"));
        }
    }
    let end = world.get(hero)?.transform().p;
    println!(
        "end: standing on {} at {end:.2}",
        was_on.map_or("nothing", standing_on)
    );
    // The character ends on the floor (its centre half a height above y = 1), under the platform.
    assert_eq!(was_on.map(standing_on), Some("the floor"));
    assert!((end.y - 1.5).abs() < 0.05 && (8.0..13.0).contains(&end.x));
    Ok(())
}
