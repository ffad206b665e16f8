//! Mouse picking with `overlap_point`, and a line of sight from the player to the cursor that
//! ignores the player and the gun it holds.
//!
//! `cargo run --example picking`

use collide2d::shape::Ray;
use collide2d::world::{Collider, QueryFilter, World};
use collide2d::{Transform, Vec2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new();
    let at = |x: f32, y: f32| Transform::from_translation(Vec2::new(x, y));
    // User data names each collider for the printout.
    let names = ["player", "gun", "crate", "barrel", "lamp"];
    let mut put = |collider: Collider, data: u64, x: f32, y: f32| {
        world.insert(collider.with_user_data(data).with_transform(at(x, y)))
    };
    let player = put(Collider::circle(0.5)?, 0, 0.0, 0.0)?;
    let gun = put(Collider::rect(0.8, 0.2)?, 1, 0.6, 0.0)?;
    let crate_ = put(Collider::rect(1.0, 1.0)?, 2, 5.0, 0.0)?;
    let barrel = put(Collider::circle(0.4)?, 3, 3.0, 3.0)?;
    put(Collider::circle(0.3)?.with_sensor(true), 4, 4.0, 2.0)?;
    let name = |world: &World, h| world.get(h).map_or("?", |c| names[c.user_data() as usize]);

    // Picking: which colliders are under the cursor (sensors included on request).
    for cursor in [
        Vec2::new(5.2, 0.3),
        Vec2::new(4.0, 2.1),
        Vec2::new(1.5, 1.5),
    ] {
        let under = world.overlap_point(cursor, &QueryFilter::new().with_sensors())?;
        let list: Vec<_> = under.iter().map(|&h| name(&world, h)).collect();
        println!("cursor at {cursor}: {list:?}");
    }
    assert_eq!(
        world.overlap_point(Vec2::new(5.2, 0.3), &QueryFilter::new())?,
        [crate_]
    );
    assert!(world
        .overlap_point(Vec2::new(4.0, 2.1), &QueryFilter::new())?
        .is_empty()); // a sensor

    // Line of sight: a ray from the player's centre towards the cursor. Excluding only the
    // player (inside which it starts), it meets the gun first.
    let origin = world.get(player)?.transform().p;
    let cursor = Vec2::new(6.0, 0.2);
    let towards = |target: Vec2| Ray::new(origin, (target - origin).normalize(), 20.0);
    let no_self = world.ray_cast(&towards(cursor)?, &QueryFilter::new().excluding(&[player]))?;
    // Any number of exclusions: the player and what it holds.
    let ignored = [player, gun];
    let sight = QueryFilter::new().excluding(&ignored);
    let hit = world
        .ray_cast(&towards(cursor)?, &sight)?
        .ok_or("nothing in sight")?;
    let gun_hit = no_self.ok_or("the ray missed")?;
    for (what, h) in [
        ("without the player", gun_hit),
        ("without player and gun", hit),
    ] {
        let (who, point) = (name(&world, h.collider), h.point);
        println!("{what}: {who} at {point} (distance {:.2})", h.distance);
    }
    assert_eq!(gun_hit.collider, gun);
    assert_eq!(hit.collider, crate_);

    // A predicate for what a list cannot say: here, only things farther than 4.5 units.
    let far = |_, c: &Collider| c.transform().p.distance(origin) > 4.5;
    let far_only = sight.with_predicate(&far);
    let high = world.ray_cast(&towards(Vec2::new(3.0, 3.0))?, &far_only)?;
    println!(
        "towards the barrel, only far things: {:?}",
        high.map(|h| name(&world, h.collider))
    );
    let near = world.ray_cast(&towards(Vec2::new(3.0, 3.0))?, &sight)?;
    assert!(high.is_none() && near.map(|h| h.collider) == Some(barrel));
    Ok(())
}
