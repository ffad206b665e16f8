//! A world with named layers and the layer matrix, a sensor, user data, and the begin/end
//! events of a few updates (with why each contact ended), then one collider's contacts.
//!
//! `cargo run --example layers_and_events`

use collide2d::world::{Collider, CollisionEvent, EndReason, World};
use collide2d::{Transform, Vec2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new();
    let players = world.layers_mut().add("Player")?;
    let walls = world.layers_mut().add("Wall")?;
    let pickups = world.layers_mut().add("Pickup")?;
    // The matrix: every pair of layers collides unless disabled. Walls and pickups never meet.
    world.layers_mut().disable(walls, pickups);
    world.layers_mut().disable(pickups, pickups);

    let at = |x: f32, y: f32| Transform::from_translation(Vec2::new(x, y));
    // User data is a u64 the game chooses: here an entity id.
    let hero = world.insert(Collider::circle(0.5)?.with_layer(players).with_user_data(1))?;
    let wall = world.insert(
        Collider::rect(1.0, 4.0)?
            .with_layer(walls)
            .with_user_data(2)
            .with_transform(at(3.0, 0.0)),
    )?;
    let coin = world.insert(
        Collider::circle(0.3)?
            .with_layer(pickups)
            .with_sensor(true)
            .with_user_data(3)
            .with_transform(at(1.5, 0.0)),
    )?;
    // A coin inside the wall: the matrix keeps the pair out of the narrow phase.
    world.insert(
        Collider::circle(0.3)?
            .with_layer(pickups)
            .with_sensor(true)
            .with_transform(at(3.0, 1.0)),
    )?;

    // The hero walks right into the coin and the wall, then the coin is collected (removed).
    let mut ends = Vec::new();
    for frame in 0..6 {
        world.set_transform(hero, at(frame as f32 * 0.5, 0.0))?;
        if frame == 4 {
            world.remove(coin)?;
        }
        world.update();
        // `update` returned; the events stay in the world, which can be read in the loop.
        for event in world.began() {
            let other = event.other(hero).ok_or("an event without the hero")?;
            let kind = if event.is_sensor() { "sensor" } else { "solid" };
            println!(
                "frame {frame}: Begin hero with entity {} ({kind}, layer {:?})",
                event.other_user_data(hero).unwrap_or(0),
                world.layers().name(world.get(other)?.layer())
            );
        }
        for event in world.ended() {
            if let CollisionEvent::End { reason, sensor, .. } = *event {
                println!(
                    "frame {frame}: End hero with entity {} ({reason:?}, sensor: {sensor})",
                    event.other_user_data(hero).unwrap_or(0)
                );
                ends.push((event.other_user_data(hero), reason));
            }
        }
    }

    // Touching pairs can be read at any time; here the hero's.
    let touching: Vec<_> = world.contacts_of(hero).collect();
    for &(a, b, manifold) in &touching {
        let other = if a == hero { b } else { a };
        let depth = manifold.map_or(0.0, |m| m.points[0].penetration);
        println!(
            "now the hero touches entity {} at depth {depth}",
            world.get(other)?.user_data()
        );
    }
    assert_eq!(ends, [(Some(3), EndReason::Removed)]);
    assert_eq!(touching.len(), 1);
    assert!(touching[0].1 == wall && world.is_touching(wall));
    Ok(())
}
