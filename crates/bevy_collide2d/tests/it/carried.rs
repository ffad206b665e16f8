//! Characters in hierarchies. What a character's move carries: its descendants'
//! `GlobalTransform`s and colliders follow in the same step, so the step's contacts and queries
//! see them where they are on the character. How it moves under parents turned, scaled,
//! mirrored, tilted out of the plane or flattened along `z`: its entity moves by what it
//! reports, as a plain world's `move_and_slide` moves the same shape.

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_collide2d::convert::{placement, to_lib};
use bevy_collide2d::prelude::*;
use bevy_ecs::entity_disabling::Disabled;
use bevy_ecs::prelude::*;
use bevy_ecs::system::RunSystemOnce;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::world::{Collider as WorldCollider, MoveOptions, World};

use crate::support::{app, step, Rng};

fn at(x: f32, y: f32) -> Transform {
    Transform::from_xyz(x, y, 0.0)
}

/// The world's object transform of `entity`'s collider.
fn placed(app: &App, entity: Entity) -> collide2d::Transform {
    let world = app.world().resource::<CollisionWorld>();
    world
        .world()
        .get(world.handle(entity).unwrap())
        .unwrap()
        .transform()
}

/// `entity`'s global transform as Bevy's propagation computes it from the `Transform`s of it
/// and its ancestors as they are now (the root's first).
fn fresh_global(app: &App, entity: Entity) -> GlobalTransform {
    let mut chain = vec![*app.world().get::<Transform>(entity).unwrap()];
    let mut at = entity;
    while let Some(parent) = app.world().get::<ChildOf>(at) {
        at = parent.parent();
        chain.push(*app.world().get::<Transform>(at).unwrap());
    }
    let root = GlobalTransform::from(chain.pop().unwrap());
    chain
        .into_iter()
        .rev()
        .fold(root, |global, t| global.mul_transform(t))
}

/// A sword on a character's child runs into a coin: the contact starts at the step the sword
/// reaches the coin, and the sword's collider is where the moved character holds it. The
/// colliders of a character's descendants used to stay one step behind its move (the sword
/// started touching the coin a step late, when the character itself got there).
#[test]
fn a_characters_child_hitbox_moves_with_it_in_the_same_step() {
    let mut app = app();
    let hero = app
        .world_mut()
        .spawn((
            Collider::rect(0.5, 0.5).unwrap(),
            at(0.0, 0.0),
            CharacterController::default(),
        ))
        .id();
    let arm = app.world_mut().spawn((at(0.5, 0.0), ChildOf(hero))).id();
    let sword = app
        .world_mut()
        .spawn((
            Collider::rect(0.2, 0.2).unwrap(),
            Sensor,
            at(0.5, 0.0),
            ChildOf(arm),
        ))
        .id();
    let coin = app
        .world_mut()
        .spawn((Collider::circle(0.1).unwrap(), Sensor, at(3.0, 0.0)))
        .id();
    step(&mut app);
    let mut started_at = None;
    for i in 1..=3 {
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = Vec2::new(1.0, 0.0);
        let (started, _) = step(&mut app);
        // The sword sits 1 ahead of the hero.
        let sword_at = placed(&app, sword).p;
        assert!(
            (sword_at.x - (i as f32 + 1.0)).abs() < 1e-5 && sword_at.y.abs() < 1e-5,
            "step {i}: sword at {sword_at:?}"
        );
        let global = app.world().get::<GlobalTransform>(sword).unwrap();
        assert_eq!(global.translation(), Vec3::new(i as f32 + 1.0, 0.0, 0.0));
        if started.iter().any(|s| (s.a, s.b) == (sword, coin)) {
            started_at.get_or_insert(i);
        }
        let found = app
            .world_mut()
            .run_system_once(move |q: SpatialQuery| {
                q.point_intersections(
                    Vec2::new(i as f32 + 1.0, 0.0),
                    &SpatialQueryFilter::default().with_sensors(true),
                )
                .unwrap()
            })
            .unwrap();
        assert!(found.contains(&sword), "step {i}: {found:?}");
    }
    assert_eq!(started_at, Some(2), "the sword reaches the coin at step 2");
}

/// Seeded hierarchies: a character (box, circle or capsule) at the root or under a parent
/// turned, scaled (non-uniformly, mirrored) and far out, carrying children and grandchildren
/// with colliders at random turns, mirrors and offsets, among walls and sensor coins. After
/// every step, every collider is placed where its entity's `Transform`s put it now (Bevy's
/// propagation of them, to 1e-4 of the size), and the started and ended messages, applied in
/// order, give exactly the pairs a brute-force pass over those placements finds touching.
#[test]
fn colliders_under_moving_characters_are_placed_and_touch_where_their_transforms_put_them() {
    let mut checked = (0, 0);
    for seed in 1..=40u64 {
        let counts = carried_run(seed);
        checked.0 += counts.0;
        checked.1 += counts.1;
    }
    // Placements compared, brute-force pairs compared.
    assert!(checked.0 > 3000 && checked.1 > 100, "{checked:?}");
}

fn carried_run(seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut app = app();
    let far = if seed.is_multiple_of(4) {
        Vec2::new(1e5, -3e4)
    } else {
        Vec2::ZERO
    };
    let mut entities = Vec::new();
    // Walls around and coins inside.
    for (x, y, w, h) in [
        (0.0, -6.0, 14.0, 1.0),
        (0.0, 6.0, 14.0, 1.0),
        (-6.5, 0.0, 1.0, 12.0),
        (6.5, 0.0, 1.0, 12.0),
    ] {
        let wall = (
            Collider::rect(w, h).unwrap(),
            at(far.x + x, far.y + y).with_rotation(Quat::from_rotation_z(rng.range(-0.1, 0.1))),
        );
        entities.push(app.world_mut().spawn(wall).id());
    }
    for _ in 0..8 {
        let coin = (
            Collider::circle(rng.range(0.1, 0.4)).unwrap(),
            Sensor,
            at(far.x + rng.range(-5.0, 5.0), far.y + rng.range(-5.0, 5.0)),
        );
        entities.push(app.world_mut().spawn(coin).id());
    }
    // The character, maybe under a parent.
    let parent = (rng.below(3) > 0).then(|| {
        let sign = |rng: &mut Rng| if rng.below(4) == 0 { -1.0 } else { 1.0 };
        let scale = Vec3::new(
            sign(&mut rng) * rng.range(0.5, 2.0),
            sign(&mut rng) * rng.range(0.5, 2.0),
            1.0,
        );
        let parent = Transform::from_xyz(far.x + rng.range(-1.0, 1.0), far.y, 0.0)
            .with_rotation(Quat::from_rotation_z(rng.range(-3.1, 3.1)))
            .with_scale(if rng.below(2) == 0 {
                scale
            } else {
                Vec3::new(scale.x, scale.x.abs(), 1.0)
            });
        app.world_mut().spawn(parent).id()
    });
    let shape = match rng.below(3) {
        0 => Collider::rect(0.6, 0.8).unwrap(),
        1 => Collider::circle(0.35).unwrap(),
        _ => Collider::capsule(Vec2::new(0.0, -0.2), Vec2::new(0.0, 0.2), 0.25).unwrap(),
    };
    let hero_at = if parent.is_some() {
        at(0.0, 0.0)
    } else {
        at(far.x, far.y)
    };
    let mut hero = app
        .world_mut()
        .spawn((shape, hero_at, CharacterController::default()));
    if let Some(parent) = parent {
        hero.insert(ChildOf(parent));
    }
    let hero = hero.id();
    entities.push(hero);
    // Children and grandchildren, some with colliders.
    let mut holders = vec![hero];
    for _ in 0..1 + rng.below(4) {
        let holder = holders[rng.below(holders.len())];
        let mirror = if rng.below(3) == 0 { -1.0 } else { 1.0 };
        let local = at(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))
            .with_rotation(Quat::from_rotation_z(rng.range(-3.1, 3.1)))
            .with_scale(Vec3::new(mirror, 1.0, 1.0));
        let mut child = app.world_mut().spawn((local, ChildOf(holder)));
        if rng.below(4) > 0 {
            let collider = Collider::rect(rng.range(0.1, 0.5), rng.range(0.1, 0.5))
                .unwrap()
                .with_offset(
                    Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)),
                    rng.range(-1.0, 1.0),
                );
            child.insert(collider);
            if rng.below(2) == 0 {
                child.insert(Sensor);
            }
        }
        let child = child.id();
        holders.push(child);
        entities.push(child);
    }
    let mut touching: BTreeSet<(Entity, Entity)> = BTreeSet::new();
    let mut counts = (0, 0);
    for frame in 0..30 {
        let motion = Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = motion;
        let (started, ended) = step(&mut app);
        for s in &started {
            let key = (s.a.min(s.b), s.a.max(s.b));
            assert!(touching.insert(key), "seed {seed} frame {frame}: {s:?}");
        }
        for e in &ended {
            let key = (e.a.min(e.b), e.a.max(e.b));
            assert!(touching.remove(&key), "seed {seed} frame {frame}: {e:?}");
        }
        // Placements.
        let mut parts = Vec::new();
        for &entity in &entities {
            let world = app.world().resource::<CollisionWorld>();
            let Some(handle) = world.handle(entity) else {
                continue;
            };
            let collider = world.world().get(handle).unwrap();
            let (expected, _) = placement(&fresh_global(&app, entity));
            let got = collider.transform();
            let size = 1.0 + expected.p.abs().max_element();
            assert!(
                (got.p - expected.p).abs().max_element() <= 1e-4 * size
                    && (got.q.c - expected.q.c).abs() <= 1e-4
                    && (got.q.s - expected.q.s).abs() <= 1e-4,
                "seed {seed} frame {frame}: {entity} placed {got:?}, its transforms say {expected:?}"
            );
            counts.0 += 1;
            parts.push((
                entity,
                collider.shape().clone(),
                expected.mul(&collider.offset()),
                collider.is_sensor(),
            ));
        }
        // Brute force over the placements the transforms give.
        for (i, a) in parts.iter().enumerate() {
            for b in &parts[i + 1..] {
                if a.3 && b.3 {
                    continue;
                }
                let key = (a.0.min(b.0), a.0.max(b.0));
                let distance = collide2d::distance(&a.1, &a.2, &b.1, &b.2).distance;
                let depth = collide2d::collide(&a.1, &a.2, &b.1, &b.2).max_penetration();
                if distance < 1e-3 && depth < 1e-3 {
                    continue; // too close to call
                }
                let overlaps = collide2d::overlaps(&a.1, &a.2, &b.1, &b.2);
                assert_eq!(
                    touching.contains(&key),
                    overlaps,
                    "seed {seed} frame {frame}: {key:?}"
                );
                counts.1 += 1;
            }
        }
    }
    counts
}

/// A parent scaled by 2 with `z` scale 0 (as a 2D game may write `Vec2::splat(2.0).extend(0.0)`)
/// has no inverse in space but maps the plane one to one: its character walks 1 a step along
/// the floor. It used to have every move undone as if the parent were scaled to nothing.
#[test]
fn a_character_under_a_parent_flattened_along_z_walks() {
    let mut app = app();
    app.world_mut()
        .spawn((Collider::rect(40.0, 1.0).unwrap(), at(0.0, -0.5)));
    let parent = app
        .world_mut()
        .spawn(Transform::from_scale(Vec3::new(2.0, 2.0, 0.0)))
        .id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::rect(0.5, 0.5).unwrap(),
            at(0.0, 0.25),
            ChildOf(parent),
            CharacterController::default(),
        ))
        .id();
    step(&mut app);
    for i in 1..=3 {
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = Vec2::new(1.0, -0.5);
        step(&mut app);
        let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
        assert!(errors.is_empty(), "step {i}: {errors:?}");
        let state = app.world().get::<CharacterState>(hero).unwrap();
        assert!(
            state.on_floor && (state.moved.x - 1.0).abs() < 1e-4,
            "{state:?}"
        );
        let global = fresh_global(&app, hero).translation();
        assert!((global.x - i as f32).abs() < 1e-4, "step {i}: {global}");
        assert!((placed(&app, hero).p.x - global.x).abs() < 1e-4);
    }
}

/// A move that is refused (a NaN motion) or undone (a parent scaled to nothing) made no
/// displacement: the state says so, instead of repeating the last step's.
#[test]
fn a_refused_or_undone_move_reports_no_displacement() {
    let mut app = app();
    app.world_mut()
        .spawn((Collider::rect(40.0, 1.0).unwrap(), at(0.0, -0.5)));
    let parent = app.world_mut().spawn(at(0.0, 0.0)).id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::rect(0.5, 0.5).unwrap(),
            at(0.0, 0.25),
            ChildOf(parent),
            CharacterController::default(),
        ))
        .id();
    step(&mut app);
    let walk = |app: &mut App, motion: Vec2| {
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = motion;
        step(app);
        let errors = app.world().resource::<CollisionWorld>().errors().len();
        (
            app.world().get::<CharacterState>(hero).unwrap().moved,
            errors,
        )
    };
    assert_eq!(
        walk(&mut app, Vec2::new(1.0, 0.0)),
        (Vec2::new(1.0, 0.0), 0)
    );
    assert_eq!(walk(&mut app, Vec2::NAN), (Vec2::ZERO, 1));
    assert_eq!(
        walk(&mut app, Vec2::new(1.0, 0.0)),
        (Vec2::new(1.0, 0.0), 0)
    );
    app.world_mut().get_mut::<Transform>(parent).unwrap().scale = Vec3::ZERO;
    assert_eq!(walk(&mut app, Vec2::new(1.0, 0.0)).0, Vec2::ZERO);
}

/// Seeded chains of one or two parents, each turned about `z`, some tilted out of the plane
/// (less than a right angle), scaled by ±0.3 to 3 in `x` and `y` and by 0, 1 or a random
/// factor in `z`, with a character of each kind walking in an open room: after every step its
/// entity (its `Transform`s propagated afresh) has moved in the plane by exactly the
/// displacement it reports, to 1e-4 of the size, and its collider is where that places it.
#[test]
fn characters_under_any_parent_that_maps_the_plane_move_their_entity_by_what_they_report() {
    let mut checked = 0;
    for seed in 1..=60u64 {
        let mut rng = Rng(seed.wrapping_mul(0xd1b5_4a32_d192_ed03) | 1);
        let mut app = app();
        for (x, y, w, h) in [(0.0, -8.0, 18.0, 1.0), (-8.5, 0.0, 1.0, 16.0)] {
            app.world_mut()
                .spawn((Collider::rect(w, h).unwrap(), at(x, y)));
        }
        let mut parent: Option<Entity> = None;
        for _ in 0..1 + rng.below(2) {
            let sign = |rng: &mut Rng| if rng.below(3) == 0 { -1.0 } else { 1.0 };
            let z = match rng.below(3) {
                0 => 0.0,
                1 => 1.0,
                _ => rng.range(0.2, 3.0),
            };
            let scale = Vec3::new(
                sign(&mut rng) * rng.range(0.3, 3.0),
                sign(&mut rng) * rng.range(0.3, 3.0),
                z,
            );
            let tilt = if rng.below(3) == 0 {
                Quat::from_rotation_x(rng.range(-1.2, 1.2))
            } else {
                Quat::IDENTITY
            };
            let transform = at(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))
                .with_rotation(Quat::from_rotation_z(rng.range(-3.1, 3.1)) * tilt)
                .with_scale(scale);
            let mut spawned = app.world_mut().spawn(transform);
            if let Some(p) = parent {
                spawned.insert(ChildOf(p));
            }
            parent = Some(spawned.id());
        }
        let shape = match rng.below(3) {
            0 => Collider::rect(0.3, 0.4).unwrap(),
            1 => Collider::circle(0.2).unwrap(),
            _ => Collider::capsule(Vec2::new(0.0, -0.1), Vec2::new(0.0, 0.1), 0.15).unwrap(),
        };
        let hero = app
            .world_mut()
            .spawn((
                shape,
                at(0.0, 0.0),
                ChildOf(parent.unwrap()),
                CharacterController::default(),
            ))
            .id();
        step(&mut app);
        for frame in 0..25 {
            let before = fresh_global(&app, hero).translation();
            let motion = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            app.world_mut()
                .get_mut::<CharacterController>(hero)
                .unwrap()
                .motion = motion;
            step(&mut app);
            let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
            assert!(errors.is_empty(), "seed {seed} frame {frame}: {errors:?}");
            let moved = app.world().get::<CharacterState>(hero).unwrap().moved;
            let global = fresh_global(&app, hero);
            let size = 1.0 + before.abs().max_element();
            let made = (global.translation() - before).truncate();
            assert!(
                (made - moved).abs().max_element() <= 1e-4 * size,
                "seed {seed} frame {frame}: entity moved {made}, reported {moved}"
            );
            let (expected, _) = placement(&global);
            assert!(
                (placed(&app, hero).p - expected.p).abs().max_element() <= 1e-4 * size,
                "seed {seed} frame {frame}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 60 * 25);
}

/// A ramp, a ledge, a step and a floor; a capsule character under parents turned and scaled
/// (uniformly, mirrored) walks right and back with gravity. Step by step it goes where a
/// plain world's `move_and_slide` takes the same shape (built at its scaled size) and reports
/// the same contacts.
#[test]
fn a_character_under_a_turned_or_scaled_parent_walks_slopes_and_steps_as_the_plain_world() {
    use collide2d::{Capsule, Polygon, Transform as Xf, Vec2 as V};
    let scene = || -> Vec<(collide2d::shape::Shape, Xf)> {
        vec![
            (
                Polygon::rect(40.0, 1.0).unwrap().into(),
                Xf::new(V::new(0.0, -0.5), 0.0),
            ),
            (
                Polygon::hull(&[V::new(2.0, 0.0), V::new(8.0, 0.0), V::new(8.0, 3.0)])
                    .unwrap()
                    .into(),
                Xf::IDENTITY,
            ),
            (
                Polygon::rect(4.0, 0.2).unwrap().into(),
                Xf::new(V::new(10.0, 3.1), 0.0),
            ),
            (
                Polygon::rect(2.0, 0.25).unwrap().into(),
                Xf::new(V::new(-3.0, 0.125), 0.0),
            ),
        ]
    };
    let cap = Capsule::new(V::new(0.0, -0.3), V::new(0.0, 0.3), 0.25).unwrap();
    let mut rng = Rng(0x5eed_0042);
    let mut cases = vec![
        (0.0f32, 1.0f32),
        (0.6, 1.0),
        (0.0, 1.5),
        (0.6, -1.5),
        (-2.0, 0.7),
    ];
    for _ in 0..10 {
        let sign = if rng.below(3) == 0 { -1.0 } else { 1.0 };
        cases.push((rng.range(-3.1, 3.1), sign * rng.range(0.5, 2.0)));
    }
    for (turn, scale) in cases {
        let mut app = app();
        for (shape, xf) in scene() {
            let transform = Transform::from_xyz(xf.p.x, xf.p.y, 0.0);
            app.world_mut().spawn((Collider::new(shape), transform));
        }
        let parent = app
            .world_mut()
            .spawn(
                at(-1.0, 1.0)
                    .with_rotation(Quat::from_rotation_z(turn))
                    .with_scale(Vec3::new(scale, scale.abs(), 1.0)),
            )
            .id();
        let controller = CharacterController {
            step_height: 0.3,
            snap_distance: 0.2,
            ..Default::default()
        };
        let hero = app
            .world_mut()
            .spawn((
                Collider::new(cap),
                at(0.0, 0.0),
                ChildOf(parent),
                controller,
            ))
            .id();
        step(&mut app);
        // The plain world: the same scene, the capsule scaled by hand.
        let mut plain = World::new();
        for (shape, xf) in scene() {
            plain
                .insert(WorldCollider::new(shape).with_transform(xf))
                .unwrap();
        }
        let (xf, _) = placement(app.world().get::<GlobalTransform>(hero).unwrap());
        let s = scale.abs();
        let shape = Capsule::new(V::new(0.0, -0.3 * s), V::new(0.0, 0.3 * s), 0.25 * s).unwrap();
        let h = plain
            .insert(WorldCollider::new(shape).with_transform(xf))
            .unwrap();
        plain.update();
        let options = MoveOptions::default()
            .with_step_height(0.3)
            .with_snap_distance(0.2);
        for i in 0..60 {
            let motion = Vec2::new(if i < 40 { 0.3 } else { -0.3 }, -0.2);
            app.world_mut()
                .get_mut::<CharacterController>(hero)
                .unwrap()
                .motion = motion;
            step(&mut app);
            let want = plain.move_and_slide(h, to_lib(motion), options).unwrap();
            plain.update();
            let state = app.world().get::<CharacterState>(hero).unwrap().clone();
            let got = placed(&app, hero).p;
            let expected = plain.get(h).unwrap().transform().p;
            assert!(
                (got - expected).length() < 1e-4,
                "turn {turn} scale {scale} step {i}: {got:?} vs {expected:?}"
            );
            assert_eq!(
                (state.on_floor, state.on_wall, state.on_ceiling),
                (want.on_floor, want.on_wall, want.on_ceiling),
                "turn {turn} scale {scale} step {i}"
            );
        }
    }
}

/// A character carrying another (a rider on a mount), spawned in either order so that either
/// moves first: after every step both colliders are where their `Transform`s put them, and the
/// rider has moved by its own displacement plus its mount's.
#[test]
fn a_character_riding_another_moves_by_both_displacements_in_either_order() {
    for rider_first in [false, true] {
        let mut rng = Rng(0xface_b00c);
        let mut app = app();
        app.world_mut()
            .spawn((Collider::rect(60.0, 1.0).unwrap(), at(0.0, -8.5)));
        let (mount, rider) = if rider_first {
            let rider = app.world_mut().spawn_empty().id();
            (app.world_mut().spawn_empty().id(), rider)
        } else {
            let mount = app.world_mut().spawn_empty().id();
            (mount, app.world_mut().spawn_empty().id())
        };
        let parent = app
            .world_mut()
            .spawn(
                at(0.0, 0.0)
                    .with_rotation(Quat::from_rotation_z(0.4))
                    .with_scale(Vec3::new(-1.5, 1.5, 1.0)),
            )
            .id();
        app.world_mut().entity_mut(mount).insert((
            Collider::rect(1.0, 0.6).unwrap(),
            at(0.0, 0.0),
            ChildOf(parent),
            CharacterController::default(),
        ));
        app.world_mut().entity_mut(rider).insert((
            Collider::circle(0.2).unwrap(),
            at(0.2, 1.0).with_rotation(Quat::from_rotation_z(-1.0)),
            ChildOf(mount),
            CharacterController::default(),
        ));
        step(&mut app);
        for frame in 0..20 {
            let before = fresh_global(&app, rider).translation().truncate();
            for entity in [mount, rider] {
                app.world_mut()
                    .get_mut::<CharacterController>(entity)
                    .unwrap()
                    .motion = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
            }
            step(&mut app);
            let moved = |app: &App, e: Entity| app.world().get::<CharacterState>(e).unwrap().moved;
            let made = fresh_global(&app, rider).translation().truncate() - before;
            let reported = moved(&app, mount) + moved(&app, rider);
            assert!(
                (made - reported).length() < 1e-4,
                "rider first {rider_first}, frame {frame}: made {made}, reported {reported}"
            );
            for entity in [mount, rider] {
                let (expected, _) = placement(&fresh_global(&app, entity));
                assert!(
                    (placed(&app, entity).p - expected.p).length() < 1e-4,
                    "rider first {rider_first}, frame {frame}: {entity}"
                );
            }
        }
    }
}

/// Whether every ancestor of `entity` is enabled (Bevy's propagation reaches it).
fn ancestors_enabled(app: &App, entity: Entity) -> bool {
    let mut at = entity;
    while let Some(parent) = app.world().get::<ChildOf>(at) {
        at = parent.parent();
        if app.world().get::<Disabled>(at).is_some() {
            return false;
        }
    }
    true
}

/// A character under a turned parent that is disabled for three steps while the game keeps
/// asking it to move: it stays where it is (its `Transform`, `GlobalTransform` and collider
/// together, nothing moved), and when the parent is enabled again it is where it was, then
/// moves from there. It used to take its local `Transform` for its global one (the parent,
/// hidden from queries, seemed absent): its collider went to the parent's frame and its
/// `GlobalTransform` elsewhere, and it jumped back when the parent was enabled.
#[test]
fn a_character_under_a_disabled_parent_does_not_move_until_the_parent_is_back() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn(
            Transform::from_xyz(10.0, 0.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        )
        .id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::rect(0.5, 0.5).unwrap(),
            at(1.0, 0.0),
            CharacterController::default(),
            ChildOf(parent),
        ))
        .id();
    step(&mut app);
    let global = *app.world().get::<GlobalTransform>(hero).unwrap();
    assert!((global.translation() - Vec3::new(10.0, 1.0, 0.0)).length() < 1e-5);

    app.world_mut().entity_mut(parent).insert(Disabled);
    for _ in 0..3 {
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = Vec2::new(1.0, 0.0);
        step(&mut app);
        assert_eq!(
            app.world().get::<CharacterState>(hero).unwrap().moved,
            Vec2::ZERO
        );
        assert_eq!(*app.world().get::<Transform>(hero).unwrap(), at(1.0, 0.0));
        assert_eq!(*app.world().get::<GlobalTransform>(hero).unwrap(), global);
        assert_eq!(placed(&app, hero), placement(&global).0);
    }

    app.world_mut().entity_mut(parent).remove::<Disabled>();
    step(&mut app);
    let now = *app.world().get::<GlobalTransform>(hero).unwrap();
    assert!(
        (now.translation() - global.translation()).length() < 1e-5,
        "no jump"
    );
    assert!((placed(&app, hero).p - placement(&global).0.p).length() < 1e-5);

    app.world_mut()
        .get_mut::<CharacterController>(hero)
        .unwrap()
        .motion = Vec2::new(1.0, 0.0);
    step(&mut app);
    let moved = app.world().get::<CharacterState>(hero).unwrap().moved;
    assert!((moved - Vec2::new(1.0, 0.0)).length() < 1e-4, "{moved}");
    let now = *app.world().get::<GlobalTransform>(hero).unwrap();
    assert!((now.translation() - Vec3::new(11.0, 1.0, 0.0)).length() < 1e-4);
    assert!((placed(&app, hero).p - placement(&now).0.p).length() < 1e-4);
}

/// Seeded sweep: a character at the end of a chain of one to three ancestors (each moved,
/// turned, scaled and sometimes mirrored), asked to move at every step, while random ancestors
/// are disabled and enabled and moved meanwhile. After each step its collider is where its
/// `GlobalTransform` places it; with every ancestor enabled that `GlobalTransform` is the one
/// its `Transform`s give (as propagation computes it), and under a disabled ancestor its
/// `Transform` and `GlobalTransform` did not change and it reports no displacement.
#[test]
fn characters_under_disabled_ancestors_stay_with_their_colliders_seeded() {
    let mut checks = 0;
    for seed in 1..=40u64 {
        let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
        let mut app = app();
        let mut chain = Vec::new();
        let mut parent: Option<Entity> = None;
        for _ in 0..1 + rng.below(3) {
            let scale = rng.range(0.5, 2.0);
            let mirror = if rng.below(4) == 0 { -1.0 } else { 1.0 };
            let transform = Transform::from_xyz(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), 0.0)
                .with_rotation(Quat::from_rotation_z(rng.range(-3.0, 3.0)))
                .with_scale(Vec3::new(scale * mirror, scale, 1.0));
            let mut entity = app.world_mut().spawn(transform);
            if let Some(p) = parent {
                entity.insert(ChildOf(p));
            }
            parent = Some(entity.id());
            chain.push(entity.id());
        }
        let hero = app
            .world_mut()
            .spawn((
                Collider::rect(0.5, 0.5).unwrap(),
                at(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                CharacterController::default(),
                ChildOf(parent.unwrap()),
            ))
            .id();
        step(&mut app);
        for round in 0..10 {
            let ancestor = chain[rng.below(chain.len())];
            match rng.below(3) {
                0 => {
                    app.world_mut().entity_mut(ancestor).insert(Disabled);
                }
                1 => {
                    app.world_mut().entity_mut(ancestor).remove::<Disabled>();
                }
                _ => {}
            }
            if rng.below(3) == 0 {
                let ancestor = chain[rng.below(chain.len())];
                let mut entity = app.world_mut().entity_mut(ancestor);
                let mut transform = entity.get_mut::<Transform>().unwrap();
                transform.translation += Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0);
            }
            let motion = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            app.world_mut()
                .get_mut::<CharacterController>(hero)
                .unwrap()
                .motion = motion;
            let before = (
                *app.world().get::<Transform>(hero).unwrap(),
                *app.world().get::<GlobalTransform>(hero).unwrap(),
            );
            let enabled = ancestors_enabled(&app, hero);
            step(&mut app);
            let global = *app.world().get::<GlobalTransform>(hero).unwrap();
            let (expected, _) = placement(&global);
            let size = 1.0 + global.translation().length();
            assert!(
                (placed(&app, hero).p - expected.p).abs().max_element() <= 1e-4 * size,
                "seed {seed} round {round}: collider {:?}, global {:?}",
                placed(&app, hero).p,
                expected.p
            );
            let moved = app.world().get::<CharacterState>(hero).unwrap().moved;
            if enabled {
                let fresh = fresh_global(&app, hero).translation();
                assert!(
                    (global.translation() - fresh).abs().max_element() <= 1e-4 * size,
                    "seed {seed} round {round}: global {global:?}, propagated {fresh:?}"
                );
                assert!(
                    (moved - motion).length() < 1e-3,
                    "seed {seed} round {round}"
                );
            } else {
                assert_eq!(moved, Vec2::ZERO, "seed {seed} round {round}");
                assert_eq!(*app.world().get::<Transform>(hero).unwrap(), before.0);
                assert_eq!(global, before.1, "seed {seed} round {round}");
            }
            checks += 1;
        }
    }
    assert_eq!(checks, 400);
}
