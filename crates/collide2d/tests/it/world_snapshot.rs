//! Snapshot and restore: continuing after a restore gives the same events as not stopping.
#![cfg(feature = "serde")]

use crate::support;

use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{
    Collider, ColliderHandle, CollisionEvent, CollisionGroups, LayerId, World, WorldSnapshot,
    MAX_LAYERS,
};
use collide2d::Transform;
use std::collections::{BTreeMap, BTreeSet};
use support::Rng;

/// One random operation applied to a world; returns the update's events when it was an update.
fn step(
    world: &mut World,
    rng: &mut Rng,
    handles: &mut Vec<ColliderHandle>,
) -> Option<Vec<CollisionEvent>> {
    match rng.below(9) {
        0 | 1 if handles.len() < 30 => {
            let shape = if rng.below(2) == 0 {
                Shape::from(Circle::with_radius(rng.range(0.3, 1.0)).unwrap())
            } else {
                Shape::from(Polygon::rect(rng.range(0.3, 2.0), rng.range(0.3, 2.0)).unwrap())
            };
            let collider = Collider::new(shape)
                .with_transform(Transform::new(rng.point(5.0), rng.angle()))
                .with_sensor(rng.below(5) == 0);
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
        // An origin shift leaves every touching pair waiting for its re-test, so a snapshot
        // taken then must still restore.
        6 if rng.below(3) == 0 => {
            world.shift_origin(rng.point(3.0)).unwrap();
        }
        _ => {
            return Some(
                {
                    world.update();
                    world.events()
                }
                .to_vec(),
            )
        }
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

/// A world of colliders on three layers (none on `"default"`), some sensors, some with
/// filter bits, one layer pair disabled, updated once. With `removals`, that many colliders are
/// removed after the update, so the snapshot holds pending ends; nothing else changed since the
/// update, so every collider is unchanged and every part of the snapshot can be checked.
fn settled_world(seed: u64, removals: usize) -> World {
    let mut rng = Rng(seed);
    let mut world = World::new();
    let layers: Vec<LayerId> = ["Player", "Monster", "Bullet"]
        .iter()
        .map(|name| world.layers_mut().add(name).unwrap())
        .collect();
    world.layers_mut().disable(layers[0], layers[2]);
    let mut handles = Vec::new();
    for _ in 0..14 {
        let shape = if rng.below(2) == 0 {
            Shape::from(Circle::with_radius(rng.range(0.4, 1.2)).unwrap())
        } else {
            Shape::from(Polygon::rect(rng.range(0.5, 2.0), rng.range(0.5, 2.0)).unwrap())
        };
        let mut collider = Collider::new(shape)
            .with_transform(Transform::new(rng.point(2.5), rng.angle()))
            .with_layer(layers[rng.below(3)])
            .with_sensor(rng.below(4) == 0);
        if rng.below(4) == 0 {
            collider = collider.with_groups(CollisionGroups::new(0b10, 0b11));
        }
        handles.push(world.insert(collider).unwrap());
    }
    world.update();
    for _ in 0..removals {
        let handle = handles.swap_remove(rng.below(handles.len()));
        world.remove(handle).unwrap();
    }
    world
}

/// Every way of editing one value of a snapshot's JSON: numbers one up and one down, booleans
/// flipped, strings emptied, array items removed, repeated and swapped; layer names added up to
/// one more than a world may have. Each comes with the path it edits.
fn mutations(value: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    use serde_json::Value;
    fn edit(root: &Value, at: &mut Vec<String>, value: &Value, out: &mut Vec<(String, Value)>) {
        let pointer = format!("/{}", at.join("/"));
        let replace = |new: Value| {
            let mut copy = root.clone();
            *copy.pointer_mut(&pointer).unwrap() = new;
            (pointer.clone(), copy)
        };
        match value {
            Value::Number(number) => {
                if let Some(integer) = number.as_u64() {
                    out.push(replace(Value::from(integer + 1)));
                    if integer > 0 {
                        out.push(replace(Value::from(integer - 1)));
                    }
                    out.push(replace(Value::from(integer + 32)));
                } else if let Some(float) = number.as_f64() {
                    out.push(replace(Value::from(float + 0.5)));
                    out.push(replace(Value::from(-float)));
                }
            }
            Value::Bool(flag) => out.push(replace(Value::from(!flag))),
            Value::String(_) => out.push(replace(Value::from(""))),
            Value::Array(items) => {
                for i in 0..items.len() {
                    let mut removed = items.clone();
                    removed.remove(i);
                    out.push(replace(Value::from(removed)));
                    let mut repeated = items.clone();
                    repeated.insert(i, items[i].clone());
                    out.push(replace(Value::from(repeated)));
                    if i + 1 < items.len() {
                        let mut swapped = items.clone();
                        swapped.swap(i, i + 1);
                        out.push(replace(Value::from(swapped)));
                    }
                    at.push(i.to_string());
                    edit(root, at, &items[i], out);
                    at.pop();
                }
            }
            Value::Object(fields) => {
                for (name, field) in fields {
                    at.push(name.clone());
                    edit(root, at, field, out);
                    at.pop();
                }
            }
            Value::Null => {}
        }
    }
    let mut out = Vec::new();
    edit(value, &mut Vec::new(), value, &mut out);
    let names = value["layers"]["names"].as_array().unwrap();
    for count in names.len() + 1..=MAX_LAYERS + 1 {
        let mut copy = value.clone();
        let mut more = names.clone();
        more.extend((names.len()..count).map(|i| Value::from(format!("extra {i}"))));
        copy["layers"]["names"] = Value::from(more);
        out.push((format!("/layers/names ({count} names)"), copy));
    }
    out
}

/// The pairs that touch now in `world`, by brute force.
fn touching_now(world: &World) -> BTreeSet<(ColliderHandle, ColliderHandle)> {
    let colliders: Vec<_> = world.iter().filter(|(_, c)| c.is_enabled()).collect();
    let mut pairs = BTreeSet::new();
    for (i, &(ha, a)) in colliders.iter().enumerate() {
        for &(hb, b) in &colliders[i + 1..] {
            if support::touches(world, a, b) {
                pairs.insert((ha, hb));
            }
        }
    }
    pairs
}

/// A snapshot edited in any one value is refused, or gives a world whose next update reports
/// exactly what the unedited snapshot's does. Two edits give another world a game could
/// have, and are checked for that instead: the pending ends (a different list of pairs that
/// touched before a removal cannot be told from the real one) and the `Stay` switch (set the
/// same on both before comparing).
#[test]
fn every_single_edit_of_a_snapshot_is_refused_or_changes_nothing() {
    let mut refused = BTreeMap::<String, usize>::new();
    let mut checked = 0;
    for seed in 0..6 {
        let world = settled_world(0x51a7 + seed, (seed % 3) as usize);
        let json = serde_json::to_value(world.snapshot()).unwrap();
        let expected = {
            let mut restored = World::restore(serde_json::from_value(json.clone()).unwrap())
                .unwrap_or_else(|error| panic!("seed {seed}: the real snapshot: {error}"));
            {
                restored.update();
                restored.events()
            }
            .to_vec()
        };
        let mut original = world;
        assert_eq!(
            {
                original.update();
                original.events()
            },
            &expected[..],
            "seed {seed}"
        );
        for (path, edited) in mutations(&json) {
            let restored = serde_json::from_value::<WorldSnapshot>(edited)
                .map_err(|error| error.to_string())
                .and_then(|snapshot| World::restore(snapshot).map_err(|e| e.to_string()));
            let mut restored = match restored {
                Ok(world) => world,
                Err(reason) => {
                    let field = path.split('/').nth(1).unwrap_or("").to_string();
                    *refused.entry(format!("{field}: {reason}")).or_default() += 1;
                    continue;
                }
            };
            restored.set_report_stay(true);
            checked += 1;
            let contacts_before: BTreeSet<_> =
                restored.contacts().map(|(a, b, _)| (a, b)).collect();
            let pending_before: BTreeSet<(ColliderHandle, ColliderHandle)> =
                serde_json::from_value(
                    serde_json::to_value(restored.snapshot()).unwrap()["pending_ends"].clone(),
                )
                .unwrap();
            let events = {
                restored.update();
                restored.events()
            }
            .to_vec();
            if path.starts_with("/pending_ends") {
                // Another valid history: the pairs touching now begin or stay, the listed ones
                // that do not end, and so do the pending ones.
                let now = touching_now(&restored);
                let of_kind = |kind: fn(&CollisionEvent) -> bool| -> BTreeSet<_> {
                    events
                        .iter()
                        .filter(|e| kind(e))
                        .map(|e| e.pair())
                        .collect()
                };
                let begins = of_kind(|e| matches!(e, CollisionEvent::Begin { .. }));
                let stays = of_kind(|e| matches!(e, CollisionEvent::Stay { .. }));
                let ends = of_kind(|e| matches!(e, CollisionEvent::End { .. }));
                assert_eq!(begins, &now - &contacts_before, "seed {seed} {path}");
                assert_eq!(stays, &now & &contacts_before, "seed {seed} {path}");
                let gone = &contacts_before - &now;
                assert_eq!(ends, &gone | &pending_before, "seed {seed} {path}");
                continue;
            }
            if path.starts_with("/pending_end_details") {
                // What a pending end will say (reason, sensor flag, user data) is the record of
                // colliders that may be gone, kept only by the snapshot: an edit there can change
                // those details, but never which pairs end, stay or begin, nor any manifold.
                let without_end_details = |events: &[CollisionEvent]| -> Vec<String> {
                    events
                        .iter()
                        .map(|e| match e {
                            CollisionEvent::End { a, b, .. } => format!("End {a:?} {b:?}"),
                            other => format!("{other:?}"),
                        })
                        .collect()
                };
                assert_eq!(
                    without_end_details(&events),
                    without_end_details(&expected),
                    "seed {seed}: edit {path} changed more than the pending ends' details"
                );
                continue;
            }
            assert_eq!(events, expected, "seed {seed}: edit {path} was accepted");
        }
    }
    // Every kind of refusal the restore knows was met.
    let reasons: Vec<&String> = refused.keys().collect();
    for needed in [
        "free list",
        "contact names",
        "contact disagrees",
        "pending end names",
        "at most 32 layers",
        "must not be empty",
        "exists already",
        "not symmetric",
        "layer 4 does not exist",
    ] {
        assert!(
            reasons.iter().any(|reason| reason.contains(needed)),
            "no edit was refused for `{needed}`: {reasons:#?}"
        );
    }
    assert!(checked > 100, "only {checked} edits were accepted");
}

/// An empty slot left out of the free list is retired: accepted only at the last generation,
/// where it stays empty after a restore (a handle of any generation to it names nothing).
#[test]
fn a_snapshot_may_retire_only_a_slot_at_the_last_generation() {
    let mut world = World::new();
    let ball = Shape::from(Circle::with_radius(1.0).unwrap());
    let kept = world.insert(Collider::new(ball.clone())).unwrap();
    let gone = world.insert(Collider::new(ball.clone())).unwrap();
    world.remove(gone).unwrap();
    let json = serde_json::to_value(world.snapshot()).unwrap();
    assert_eq!(json["free"], serde_json::json!([1]));
    assert_eq!(json["slots"][1], serde_json::json!([1, null]));
    let mut left_out = json.clone();
    left_out["free"] = serde_json::json!([]);
    assert!(World::restore(serde_json::from_value(left_out.clone()).unwrap()).is_err());
    let mut retired = left_out;
    retired["slots"][1][0] = serde_json::json!(u32::MAX);
    let mut restored = World::restore(serde_json::from_value(retired).unwrap()).unwrap();
    let next = restored.insert(Collider::new(ball)).unwrap();
    assert_eq!(next.index(), 2);
    assert!(restored.contains(kept) && restored.contains(next) && !restored.contains(gone));
    assert_eq!(restored.len(), 2);
}
