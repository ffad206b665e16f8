//! `World::is_touching` and `World::contacts_of` agree with `World::contacts` for every
//! collider, also for pairs touching without overlapping boxes (a continuous collider's sweep
//! met a wall it is past at the end of the step).

use crate::support::Rng;
use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{BroadPhaseKind, Collider, ColliderHandle, World};
use collide2d::{Transform, Vec2};

fn at(x: f32, y: f32) -> Transform {
    Transform::new(Vec2::new(x, y), 0.0)
}

/// Every collider's `is_touching` and `contacts_of` against the pairs `contacts()` lists.
fn check_every_collider(world: &World, context: &str) -> usize {
    let listed: Vec<(ColliderHandle, ColliderHandle)> =
        world.contacts().map(|(a, b, _)| (a, b)).collect();
    crate::support::check_contacts_of_each_collider(world, &listed, context);
    listed.len()
}

/// A bullet swept through a thin wall touches it at this update (`Begin` with a time of
/// impact): both are touching, though their boxes are far apart (`is_touching` said `false`).
#[test]
fn a_bullet_past_a_wall_it_touched_on_the_way_is_touching_it() {
    let mut world = World::new();
    let wall = world
        .insert(Collider::new(Polygon::rect(0.01, 4.0).unwrap()).with_transform(at(50.0, 0.0)))
        .unwrap();
    let bullet = world
        .insert(Collider::new(Circle::with_radius(0.05).unwrap()).with_continuous(true))
        .unwrap();
    world.update();
    world.set_transform(bullet, at(100.0, 0.0)).unwrap();
    world.update();
    assert_eq!(world.began().len(), 1);
    assert!(world.is_touching(bullet) && world.is_touching(wall));
    assert_eq!(world.contacts_of(bullet).count(), 1);
    world.update();
    assert_eq!(world.ended().len(), 1);
    assert!(!world.is_touching(bullet) && !world.is_touching(wall));
}

/// Seeded rounds of bullets through walls on the three broad phases, some landing in them, some
/// past them: after every update each collider's answers equal the listed contacts.
#[test]
fn is_touching_equals_the_listed_contacts_for_swept_pairs() {
    let kinds = [
        BroadPhaseKind::Tree,
        BroadPhaseKind::Grid { cell_size: 2.0 },
        BroadPhaseKind::SweepAndPrune,
    ];
    let mut swept_pairs = 0;
    for seed in 0..30u64 {
        let mut rng = Rng(0x1234_5678_9abc_def1 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut world = World::with_broad_phase(kinds[seed as usize % 3]).unwrap();
        let wall = Shape::from(Polygon::rect(0.05, 6.0).unwrap());
        for i in 0..5 {
            world
                .insert(Collider::new(wall.clone()).with_transform(at(10.0 * i as f32, 0.0)))
                .unwrap();
        }
        let bullets: Vec<ColliderHandle> = (0..8)
            .map(|_| {
                let collider = Collider::new(Circle::with_radius(0.1).unwrap())
                    .with_transform(at(rng.range(-5.0, 45.0), rng.range(-2.5, 2.5)))
                    .with_continuous(true);
                world.insert(collider).unwrap()
            })
            .collect();
        for round in 0..20 {
            for &bullet in &bullets {
                let to = at(rng.range(-5.0, 45.0), rng.range(-2.5, 2.5));
                world.set_transform(bullet, to).unwrap();
            }
            world.update();
            swept_pairs += world
                .began()
                .iter()
                .filter(|e| e.time_of_impact().is_some())
                .count();
            check_every_collider(&world, &format!("seed {seed}, round {round}"));
        }
    }
    assert!(swept_pairs > 500, "{swept_pairs} swept pairs");
}
