//! Snapshot and restore: continuing after a restore gives the same events as not stopping.
#![cfg(feature = "serde")]

mod support;

use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, CollisionEvent, World, WorldSnapshot};
use collide2d::Transform;
use support::Rng;

/// One random operation applied to a world; returns the update's events when it was an update.
fn step(
    world: &mut World,
    rng: &mut Rng,
    handles: &mut Vec<ColliderHandle>,
) -> Option<Vec<CollisionEvent>> {
    match rng.below(8) {
        0 | 1 if handles.len() < 30 => {
            let shape = if rng.below(2) == 0 {
                Shape::from(Circle::with_radius(rng.range(0.3, 1.0)).unwrap())
            } else {
                Shape::from(Polygon::rect(rng.range(0.3, 2.0), rng.range(0.3, 2.0)).unwrap())
            };
            let collider = Collider::new(shape)
                .transform(Transform::new(rng.point(5.0), rng.angle()))
                .sensor(rng.below(5) == 0);
            handles.push(world.insert(collider).unwrap());
        }
        2 | 3 if !handles.is_empty() => {
            let h = handles[rng.below(handles.len())];
            world
                .set_transform(h, Transform::new(rng.point(5.0), rng.angle()))
                .unwrap();
        }
        4 if !handles.is_empty() => {
            let h = handles.swap_remove(rng.below(handles.len()));
            world.remove(h).unwrap();
        }
        5 if !handles.is_empty() => {
            let h = handles[rng.below(handles.len())];
            world.set_enabled(h, rng.below(2) == 0).unwrap();
        }
        _ => return Some(world.update().to_vec()),
    }
    None
}

#[test]
fn restored_world_continues_with_identical_events() {
    for scenario in 0..100 {
        let mut rng = Rng(0x5a5 + scenario);
        let mut world = World::new();
        let player = world.layers_mut().add("Player").unwrap();
        let _ = player;
        let mut handles = Vec::new();
        for _ in 0..150 {
            step(&mut world, &mut rng, &mut handles);
        }
        // Snapshot mid-run (possibly with moves pending), through JSON.
        let json = serde_json::to_string(&world.snapshot()).unwrap();
        let snapshot: WorldSnapshot = serde_json::from_str(&json).unwrap();
        let mut restored = World::restore(snapshot).unwrap();
        let (mut rng_a, mut rng_b) = (Rng(rng.0), Rng(rng.0));
        let (mut handles_a, mut handles_b) = (handles.clone(), handles);
        for _ in 0..150 {
            let a = step(&mut world, &mut rng_a, &mut handles_a);
            let b = step(&mut restored, &mut rng_b, &mut handles_b);
            if a != b {
                let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
                let only_a: Vec<_> = a.iter().filter(|e| !b.contains(e)).collect();
                let only_b: Vec<_> = b.iter().filter(|e| !a.contains(e)).collect();
                panic!("scenario {scenario}: events differ after restore\nonly before: {only_a:?}\nonly restored: {only_b:?}");
            }
        }
        let (x, y) = (
            format!("{:?}", world.snapshot()),
            format!("{:?}", restored.snapshot()),
        );
        if x != y {
            let at = x
                .bytes()
                .zip(y.bytes())
                .position(|(p, q)| p != q)
                .unwrap_or(0);
            panic!(
                "scenario {scenario}: snapshots differ at {at}: {} | {}",
                &x[at.saturating_sub(200)..(at + 100).min(x.len())],
                &y[at.saturating_sub(200)..(at + 100).min(y.len())]
            );
        }
    }
}

#[test]
fn hand_edited_snapshots_are_rejected() {
    let mut world = World::new();
    world
        .insert(Collider::new(Shape::from(
            Circle::with_radius(1.0).unwrap(),
        )))
        .unwrap();
    let json = serde_json::to_string(&world.snapshot()).unwrap();
    let broken = json.replacen("\"radius\":1.0", "\"radius\":-1.0", 1);
    assert!(serde_json::from_str::<WorldSnapshot>(&broken).is_err());
    // A rotation that is not unit length is caught when the world is rebuilt.
    assert!(json.contains("\"q\":{\"c\":1.0,\"s\":0.0}"), "{json}");
    let skewed = json.replacen(
        "\"q\":{\"c\":1.0,\"s\":0.0}",
        "\"q\":{\"c\":5.0,\"s\":0.0}",
        1,
    );
    let snapshot: WorldSnapshot = serde_json::from_str(&skewed).unwrap();
    assert!(World::restore(snapshot).is_err());
    // A free list naming a live slot is caught too.
    let bad_free = json.replacen("\"free\":[]", "\"free\":[0]", 1);
    assert_ne!(bad_free, json);
    assert!(World::restore(serde_json::from_str(&bad_free).unwrap()).is_err());
    assert!(World::restore(serde_json::from_str(&json).unwrap()).is_ok());
}
