//! Layer names resolved when the layer set changes: a `CollisionLayer` naming a layer that does
//! not exist yet is on the default layer, reported at each step, until the layer is added (or a
//! preset naming it is assigned); from that step on the collider is on it. Names are resolved
//! again whenever the world's names change, so a preset that reorders or drops layers leaves
//! no collider on a stale id.

use std::collections::BTreeSet;

use bevy_app::{App, PostUpdate};
use bevy_collide2d::prelude::*;
use bevy_collide2d::CollisionError;
use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use collide2d::world::{LayerId, Layers, WorldError};

use crate::support::{app, app_with, step, Rng};

fn ball(radius: f32) -> Collider {
    Collider::circle(radius).unwrap()
}

fn at(x: f32, y: f32) -> Transform {
    Transform::from_xyz(x, y, 0.0)
}

/// The layer of `entity`'s collider in the plugin's world.
fn world_layer(app: &App, entity: Entity) -> LayerId {
    let world = app.world().resource::<CollisionWorld>();
    world
        .world()
        .get(world.handle(entity).unwrap())
        .unwrap()
        .layer()
}

/// An unordered pair, smaller entity first.
fn pair(a: Entity, b: Entity) -> (Entity, Entity) {
    if a.to_bits() <= b.to_bits() {
        (a, b)
    } else {
        (b, a)
    }
}

/// A player spawned on a layer the game registers only later: it is on the default layer
/// (touching the `A` ball, which the default layer collides with) and reported at each step;
/// once `Late` exists, and collides not with `A`, the player joins it and the contact ends as
/// filtered. It used to stay on the default layer for good (the contact never ended).
#[test]
fn a_layer_added_after_spawning_takes_in_the_colliders_that_named_it() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollisionLayer::named("A")))
        .id();
    let late = app
        .world_mut()
        .spawn((ball(0.5), at(0.5, 0.0), CollisionLayer::named("Late")))
        .id();
    let unknown = [CollisionError {
        entity: Some(late),
        error: WorldError::UnknownLayer("Late".to_string()),
    }];
    for round in 0..2 {
        let (started, ended) = step(&mut app);
        if round == 0 {
            assert_eq!(
                started.iter().map(|s| pair(s.a, s.b)).collect::<Vec<_>>(),
                vec![pair(a, late)]
            );
        } else {
            assert!(started.is_empty());
        }
        assert!(ended.is_empty());
        assert_eq!(world_layer(&app, late), LayerId::DEFAULT);
        assert_eq!(
            app.world().resource::<CollisionWorld>().errors(),
            unknown,
            "reported at each step (round {round})"
        );
    }

    {
        let mut world = app.world_mut().resource_mut::<CollisionWorld>();
        world.layers_mut().add("Late").unwrap();
        world.layers_mut().disable_by_name("Late", "A").unwrap();
    }
    let (started, ended) = step(&mut app);
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!(world_layer(&app, late), world.layer("Late").unwrap());
    assert!(world.errors().is_empty(), "{:?}", world.errors());
    assert!(started.is_empty());
    assert_eq!(ended.len(), 1);
    assert_eq!(pair(ended[0].a, ended[0].b), pair(a, late));
    assert_eq!(ended[0].reason, EndReason::Filtered);
}

/// A preset assigned at run time that puts the layers in another order: each collider stays on
/// the layer it names (it used to keep the old id, which the preset gave to another layer).
#[test]
fn a_preset_that_reorders_the_layers_keeps_each_collider_on_its_named_layer() {
    let mut app = app();
    let b = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollisionLayer::named("B")))
        .id();
    step(&mut app);
    let old = world_layer(&app, b);
    let mut preset = Layers::default();
    preset.add("B").unwrap();
    preset.add("C").unwrap();
    preset.add("A").unwrap();
    *app.world_mut()
        .resource_mut::<CollisionWorld>()
        .layers_mut() = preset;
    step(&mut app);
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!(world_layer(&app, b), world.layer("B").unwrap());
    assert_ne!(world.layer("B").unwrap(), old, "the preset moved B");
    assert!(world.errors().is_empty());
}

/// Seeded sweep: eight balls on a 3 × 3 grid (spacing 0.75, radius 0.5: neighbours along an
/// axis touch, diagonal ones are 0.06 apart) name layers from a pool, some of which exist;
/// between steps layers are added, presets (a random subset of the pool in random order, with
/// random pairs off) assigned, pairs switched, layers renamed on entities and balls moved.
/// After each step: each collider's layer is the one its name resolves to now (the default
/// layer while unknown, reported that step), and the started and ended messages are exactly
/// the changes of the touching pairs a brute force over all pairs finds (distance in f64 below
/// 1, layers colliding by the world's matrix).
#[test]
fn layers_resolve_against_the_names_at_each_step_seeded() {
    const POOL: [&str; 5] = ["P", "Q", "R", "S", "T"];
    let mut steps = 0;
    for seed in 1..=40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let initial: Vec<&str> = POOL.iter().copied().filter(|_| rng.below(2) == 0).collect();
        let mut app = app_with(Collide2dPlugin::new(PostUpdate).with_layers(initial));
        let mut cells: Vec<usize> = (0..9).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        let name = |rng: &mut Rng| -> Option<&'static str> {
            let i = rng.below(POOL.len() + 1);
            POOL.get(i).copied()
        };
        let cell_at = |cell: usize| at((cell % 3) as f32 * 0.75, (cell / 3) as f32 * 0.75);
        let mut balls: Vec<(Entity, usize)> = Vec::new();
        for &cell in &cells[..8] {
            let mut entity = app.world_mut().spawn((ball(0.5), cell_at(cell)));
            if let Some(n) = name(&mut rng) {
                entity.insert(CollisionLayer::named(n));
            }
            balls.push((entity.id(), cell));
        }
        let mut free = cells[8];
        let mut touching: BTreeSet<(Entity, Entity)> = BTreeSet::new();
        for round in 0..12 {
            if round > 0 {
                let mut world = app.world_mut().resource_mut::<CollisionWorld>();
                match rng.below(4) {
                    0 => {
                        let _ = world.layers_mut().add(POOL[rng.below(POOL.len())]);
                    }
                    1 => {
                        let mut preset = Layers::default();
                        let mut pool = POOL.to_vec();
                        for i in (1..pool.len()).rev() {
                            pool.swap(i, rng.below(i + 1));
                        }
                        for n in pool.into_iter().filter(|_| rng.below(3) != 0) {
                            preset.add(n).unwrap();
                        }
                        for _ in 0..rng.below(4) {
                            let x = LayerId::new(rng.below(preset.len()) as u8).unwrap();
                            let y = LayerId::new(rng.below(preset.len()) as u8).unwrap();
                            preset.disable(x, y);
                        }
                        *world.layers_mut() = preset;
                    }
                    2 => {
                        let len = world.world().layers().len();
                        let x = LayerId::new(rng.below(len) as u8).unwrap();
                        let y = LayerId::new(rng.below(len) as u8).unwrap();
                        if rng.below(2) == 0 {
                            world.layers_mut().disable(x, y);
                        } else {
                            world.layers_mut().enable(x, y);
                        }
                    }
                    _ => {}
                }
                for _ in 0..rng.below(3) {
                    let i = rng.below(balls.len());
                    let entity = balls[i].0;
                    match name(&mut rng) {
                        Some(n) => {
                            app.world_mut()
                                .entity_mut(entity)
                                .insert(CollisionLayer::named(n));
                        }
                        None => {
                            app.world_mut()
                                .entity_mut(entity)
                                .remove::<CollisionLayer>();
                        }
                    }
                }
                if rng.below(2) == 0 {
                    let i = rng.below(balls.len());
                    std::mem::swap(&mut balls[i].1, &mut free);
                    let cell = balls[i].1;
                    app.world_mut().entity_mut(balls[i].0).insert(cell_at(cell));
                }
            }
            let (started, ended) = step(&mut app);
            steps += 1;

            let world = app.world().resource::<CollisionWorld>();
            let layers = world.world().layers();
            let mut reported = BTreeSet::new();
            let mut layer_of = Vec::new();
            for &(entity, _) in &balls {
                let named = app.world().get::<CollisionLayer>(entity);
                let expected = match named {
                    None => LayerId::DEFAULT,
                    Some(n) => layers.id(&n.0).unwrap_or_else(|_| {
                        reported.insert(entity);
                        LayerId::DEFAULT
                    }),
                };
                assert_eq!(
                    world_layer(&app, entity),
                    expected,
                    "seed {seed} round {round}: {named:?}"
                );
                layer_of.push(expected);
            }
            let errors: BTreeSet<Entity> = world
                .errors()
                .iter()
                .map(|e| {
                    assert!(matches!(e.error, WorldError::UnknownLayer(_)), "{e:?}");
                    e.entity.unwrap()
                })
                .collect();
            assert_eq!(errors, reported, "seed {seed} round {round}");
            assert_eq!(world.errors().len(), reported.len(), "one error each");

            let mut now = BTreeSet::new();
            for i in 0..balls.len() {
                for j in i + 1..balls.len() {
                    let (ci, cj) = (balls[i].1, balls[j].1);
                    let dx = ((ci % 3) as f64 - (cj % 3) as f64) * 0.75;
                    let dy = ((ci / 3) as f64 - (cj / 3) as f64) * 0.75;
                    if (dx * dx + dy * dy).sqrt() < 1.0 && layers.collides(layer_of[i], layer_of[j])
                    {
                        now.insert(pair(balls[i].0, balls[j].0));
                    }
                }
            }
            let got_started: BTreeSet<_> = started.iter().map(|s| pair(s.a, s.b)).collect();
            let got_ended: BTreeSet<_> = ended.iter().map(|e| pair(e.a, e.b)).collect();
            assert_eq!(started.len(), got_started.len());
            assert_eq!(ended.len(), got_ended.len());
            assert_eq!(
                got_started,
                now.difference(&touching).copied().collect(),
                "seed {seed} round {round}: started"
            );
            assert_eq!(
                got_ended,
                touching.difference(&now).copied().collect(),
                "seed {seed} round {round}: ended"
            );
            touching = now;
        }
    }
    assert_eq!(steps, 480);
}
