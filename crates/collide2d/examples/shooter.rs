//! A top-down shooter: fast continuous bullets that collide only with enemies and walls,
//! pickups as sensors, and the begin events driving the game.
//!
//! `cargo run --example shooter`

use collide2d::world::{Collider, World};
use collide2d::{LayerId, Transform, Vec2};

// What each collider is, kept in its user data (sorted so a pair reads smaller kind first).
const PLAYER: u64 = 1;
const ENEMY: u64 = 2;
const WALL: u64 = 3;
const PICKUP: u64 = 4;
const BULLET: u64 = 5;

/// `collider` on `layer`, of game kind `kind`, at `(x, y)`.
fn place(collider: Collider, layer: LayerId, kind: u64, x: f32, y: f32) -> Collider {
    let at = Transform::from_translation(Vec2::new(x, y));
    collider
        .with_layer(layer)
        .with_user_data(kind)
        .with_transform(at)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new();
    let [players, enemies, walls, pickups, bullets] =
        ["Player", "Enemy", "Wall", "Pickup", "Bullet"].map(|name| world.layers_mut().add(name));
    let (players, enemies, walls, pickups, bullets) =
        (players?, enemies?, walls?, pickups?, bullets?);
    // Bullets hit enemies and walls only, and stay off any layer added later.
    world.layers_mut().collide_only(bullets, &[enemies, walls]);
    let props = world.layers_mut().add("Prop")?;

    let player = world.insert(place(Collider::circle(0.5)?, players, PLAYER, 0.0, 0.0))?;
    world.insert(place(Collider::circle(0.3)?, pickups, PICKUP, 1.5, 0.0).with_sensor(true))?;
    let enemy_a = world.insert(place(Collider::circle(0.4)?, enemies, ENEMY, 12.0, 2.0))?;
    let enemy_b = world.insert(place(Collider::circle(0.4)?, enemies, ENEMY, 12.0, -4.0))?;
    world.insert(place(Collider::rect(0.2, 4.0)?, walls, WALL, 8.0, -4.0))?;
    world.insert(place(Collider::circle(0.5)?, props, 0, 6.0, 1.0))?; // a bush on the first shot's path

    // Two shots at 120 units a second: 2 units a frame, more than an enemy is wide, so the
    // bullets are continuous (their contacts are found anywhere along each step).
    let mut shots = Vec::new();
    for target in [Vec2::new(12.0, 2.0), Vec2::new(12.0, -4.0)] {
        let bullet = place(Collider::circle(0.1)?, bullets, BULLET, 0.0, 0.0).with_continuous(true);
        shots.push((world.insert(bullet)?, target.normalize() * 2.0));
    }

    let (mut ammo, mut killed, mut stopped_by_wall) = (0, Vec::new(), 0);
    for frame in 0..12 {
        let walk = Transform::from_translation(Vec2::X * (frame as f32 * 0.2));
        world.set_transform(player, walk)?;
        for &(bullet, step) in &shots {
            let p = world.get(bullet)?.transform().p;
            world.set_transform(bullet, Transform::from_translation(p + step))?;
        }
        world.update();
        // The events borrow the world: decide while reading, change the world afterwards.
        let mut remove = Vec::new();
        for event in world.began() {
            let ([kind_a, kind_b], (a, b)) = (event.user_data().unwrap_or_default(), event.pair());
            let mut sides = [(kind_a, a), (kind_b, b)];
            sides.sort_by_key(|&(kind, _)| kind);
            let [(first, x), (second, y)] = sides;
            match (first, second) {
                (PLAYER, PICKUP) => {
                    ammo += 5;
                    remove.push(y);
                    println!("frame {frame}: picked up ammo");
                }
                (ENEMY, BULLET) => {
                    let t = event.time_of_impact().unwrap_or(1.0);
                    println!("frame {frame}: enemy hit at {t:.2} of the bullet's step");
                    killed.push(x);
                    remove.extend([x, y]);
                }
                (WALL, BULLET) => {
                    stopped_by_wall += 1;
                    remove.push(y);
                    println!("frame {frame}: a bullet hit the wall");
                }
                kinds => return Err(format!("unexpected contact between kinds {kinds:?}").into()),
            }
        }
        for handle in remove {
            world.remove(handle)?;
            shots.retain(|&(bullet, _)| bullet != handle);
        }
    }
    // The first bullet killed enemy A; the second hit the wall, so enemy B lives. Neither
    // touched the player, the pickup or the bush.
    println!("ammo {ammo}, killed {killed:?}, bullets stopped by the wall {stopped_by_wall}");
    assert_eq!((ammo, killed, stopped_by_wall), (5, vec![enemy_a], 1));
    assert!(world.contains(enemy_b) && shots.is_empty());
    Ok(())
}
