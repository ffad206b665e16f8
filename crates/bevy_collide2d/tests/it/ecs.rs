//! Spawning, moving, despawning, reparenting, layers, sensors, scale, queries and characters.

use bevy_collide2d::prelude::*;
use bevy_collide2d::{CollisionError, RayHitData};
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::Transform;
use collide2d::world::WorldError;

use crate::support::{app, global_translation, pairs, placed_position, step};

fn at(x: f32, y: f32) -> Transform {
    Transform::from_xyz(x, y, 0.0)
}

fn ball(radius: f32) -> Collider {
    Collider::circle(radius).unwrap()
}

#[test]
fn spawn_move_and_separate_give_one_start_and_one_end() {
    let mut app = app();
    let a = app.world_mut().spawn((ball(0.5), at(0.0, 0.0))).id();
    let b = app.world_mut().spawn((ball(0.5), at(3.0, 0.0))).id();
    assert_eq!(step(&mut app), (vec![], vec![]));

    app.world_mut()
        .get_mut::<Transform>(b)
        .unwrap()
        .translation
        .x = 0.9;
    let (started, ended) = step(&mut app);
    assert_eq!((pairs(&started), ended.len()), (vec![(a, b)], 0));
    let manifold = started[0]
        .manifold
        .expect("solid pair with manifolds asked");
    assert_eq!(manifold.count, 1);
    assert!((manifold.normal - Vec2::X).length() < 1e-6, "{manifold:?}");
    assert!((manifold.penetrations[0] - 0.1).abs() < 1e-5);

    assert_eq!(
        step(&mut app),
        (vec![], vec![]),
        "staying in contact is silent"
    );

    app.world_mut()
        .get_mut::<Transform>(b)
        .unwrap()
        .translation
        .x = 1.5;
    let (started, ended) = step(&mut app);
    assert!(started.is_empty());
    assert_eq!(
        ended,
        vec![CollisionEnded {
            a,
            b,
            sensor: false,
            reason: EndReason::Separated
        }]
    );
}

#[test]
fn only_changed_transforms_reach_the_world() {
    let mut app = app();
    app.world_mut().spawn((ball(0.5), at(0.0, 0.0)));
    let b = app.world_mut().spawn((ball(0.5), at(0.5, 0.0))).id();
    step(&mut app);
    step(&mut app);
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!(world.world().stats().narrow_tests, 0, "nothing moved");

    app.world_mut()
        .get_mut::<Transform>(b)
        .unwrap()
        .translation
        .x = 0.6;
    step(&mut app);
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!(world.world().stats().narrow_tests, 1, "the moved pair only");
    let handle = world.handle(b).unwrap();
    let placed = world.world().get(handle).unwrap().world_transform();
    assert_eq!(placed.p, collide2d::Vec2::new(0.6, 0.0));
}

#[test]
fn despawn_mid_contact_ends_the_contact_and_tells_the_survivor() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollidingEntities::default()))
        .id();
    let b = app.world_mut().spawn((ball(0.5), at(0.5, 0.0))).id();
    #[derive(Resource, Default)]
    struct Seen(Vec<(Entity, Entity, EndReason)>);
    app.init_resource::<Seen>();
    app.world_mut()
        .entity_mut(a)
        .observe(|end: On<CollisionEnded>, mut seen: ResMut<Seen>| {
            seen.0.push((end.a, end.b, end.reason));
        });
    step(&mut app);
    assert!(app
        .world()
        .get::<CollidingEntities>(a)
        .unwrap()
        .contains(&b));

    app.world_mut().despawn(b);
    let (started, ended) = step(&mut app);
    assert!(started.is_empty());
    assert_eq!(
        ended,
        vec![CollisionEnded {
            a,
            b,
            sensor: false,
            reason: EndReason::Removed
        }]
    );
    assert_eq!(
        app.world().resource::<Seen>().0,
        vec![(a, b, EndReason::Removed)]
    );
    assert!(app.world().get::<CollidingEntities>(a).unwrap().is_empty());
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!((world.world().len(), world.handle(b)), (1, None));
}

#[test]
fn removing_the_collider_component_ends_contacts_like_a_despawn() {
    let mut app = app();
    let a = app.world_mut().spawn((ball(0.5), at(0.0, 0.0))).id();
    let b = app.world_mut().spawn((ball(0.5), at(0.5, 0.0))).id();
    step(&mut app);
    app.world_mut().entity_mut(a).remove::<Collider>();
    let (_, ended) = step(&mut app);
    assert_eq!(ended.len(), 1);
    assert_eq!(
        (ended[0].a, ended[0].b, ended[0].reason),
        (a, b, EndReason::Removed)
    );
}

#[test]
fn observers_see_each_start_from_their_own_side() {
    let mut app = app();
    let a = app.world_mut().spawn((ball(0.5), at(0.0, 0.0))).id();
    let b = app.world_mut().spawn((ball(0.5), at(0.8, 0.0))).id();
    #[derive(Resource, Default)]
    struct Seen(Vec<(Entity, Entity, Vec2)>);
    app.init_resource::<Seen>();
    for entity in [a, b] {
        app.world_mut().entity_mut(entity).observe(
            |start: On<CollisionStarted>, mut seen: ResMut<Seen>| {
                seen.0
                    .push((start.a, start.b, start.manifold.unwrap().normal));
            },
        );
    }
    step(&mut app);
    let seen = &app.world().resource::<Seen>().0;
    assert_eq!(seen.len(), 2);
    assert!(seen.contains(&(a, b, Vec2::X)), "{seen:?}");
    assert!(seen.contains(&(b, a, -Vec2::X)), "{seen:?}");
}

#[test]
fn children_follow_their_parent_with_their_offsets_and_reparenting_moves_them() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn(
            Transform::from_xyz(10.0, 0.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
        )
        .id();
    let other = app.world_mut().spawn(at(-10.0, 0.0)).id();
    // A child one unit along its parent's x, its collider one more unit along x on it.
    let child = app
        .world_mut()
        .spawn((
            ball(0.25).with_offset(Vec2::new(1.0, 0.0), 0.0),
            at(1.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    step(&mut app);
    let centre = |app: &bevy_app::App| {
        let world = app.world().resource::<CollisionWorld>();
        let handle = world.handle(child).unwrap();
        world.world().get(handle).unwrap().world_transform().p
    };
    // Parent turned a quarter: the child's x is the world's y.
    assert!(
        (centre(&app) - collide2d::Vec2::new(10.0, 2.0)).length() < 1e-5,
        "{:?}",
        centre(&app)
    );

    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .y = 5.0;
    step(&mut app);
    assert!((centre(&app) - collide2d::Vec2::new(10.0, 7.0)).length() < 1e-5);

    app.world_mut().entity_mut(child).insert(ChildOf(other));
    step(&mut app);
    assert!(
        (centre(&app) - collide2d::Vec2::new(-8.0, 0.0)).length() < 1e-5,
        "{:?}",
        centre(&app)
    );

    app.world_mut().entity_mut(child).remove::<ChildOf>();
    step(&mut app);
    assert!(
        (centre(&app) - collide2d::Vec2::new(2.0, 0.0)).length() < 1e-5,
        "{:?}",
        centre(&app)
    );
}

#[test]
fn layer_changes_follow_the_matrix_and_unknown_names_are_reported() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollisionLayer::named("A")))
        .id();
    let b = app
        .world_mut()
        .spawn((ball(0.5), at(0.5, 0.0), CollisionLayer::named("B")))
        .id();
    assert_eq!(step(&mut app), (vec![], vec![]), "A and B do not collide");

    app.world_mut()
        .entity_mut(b)
        .insert(CollisionLayer::named("C"));
    let (started, _) = step(&mut app);
    assert_eq!(pairs(&started), vec![(a, b)]);

    app.world_mut()
        .entity_mut(a)
        .insert(CollisionLayer::named("B"));
    assert_eq!(step(&mut app), (vec![], vec![]), "B and C collide");

    app.world_mut().entity_mut(b).remove::<CollisionLayer>();
    assert_eq!(step(&mut app).1, vec![], "default collides with everything");

    app.world_mut()
        .entity_mut(a)
        .insert(CollisionLayer::named("A"));
    app.world_mut()
        .entity_mut(b)
        .insert(CollisionLayer::named("B"));
    let (_, ended) = step(&mut app);
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].reason, EndReason::Filtered);

    app.world_mut()
        .entity_mut(a)
        .insert(CollisionLayer::named("Nope"));
    step(&mut app);
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!(
        world.errors(),
        [CollisionError {
            entity: Some(a),
            error: WorldError::UnknownLayer("Nope".to_string())
        }]
    );
    let handle = world.handle(a).unwrap();
    assert_eq!(
        world.world().get(handle).unwrap().layer(),
        collide2d::LayerId::DEFAULT
    );
}

#[test]
fn toggling_sensor_changes_the_pair_kind() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollidingEntities::default()))
        .id();
    let b = app
        .world_mut()
        .spawn((ball(0.5), at(0.5, 0.0), Sensor))
        .id();
    let (started, _) = step(&mut app);
    assert_eq!(started.len(), 1);
    assert!(started[0].sensor && started[0].manifold.is_none());

    // Each change of kind ends the pair as the kind it was, then starts it as the other.
    let kinds = |started: &[CollisionStarted], ended: &[CollisionEnded]| {
        (
            ended
                .iter()
                .map(|e| (e.a, e.b, e.sensor, e.reason))
                .collect::<Vec<_>>(),
            started
                .iter()
                .map(|s| (s.a, s.b, s.sensor, s.manifold.is_some()))
                .collect::<Vec<_>>(),
        )
    };
    app.world_mut().entity_mut(b).remove::<Sensor>();
    let (started, ended) = step(&mut app);
    assert_eq!(
        kinds(&started, &ended),
        (
            vec![(a, b, true, EndReason::SensorChanged)],
            vec![(a, b, false, true)]
        )
    );
    let world = app.world().resource::<CollisionWorld>();
    assert!(!world
        .world()
        .get(world.handle(b).unwrap())
        .unwrap()
        .is_sensor());
    let contacts: Vec<_> = world.world().contacts().collect();
    assert_eq!(contacts.len(), 1);
    assert!(
        contacts[0].2.is_some(),
        "a solid pair now: it has a manifold"
    );

    app.world_mut().entity_mut(b).insert(Sensor);
    let (started, ended) = step(&mut app);
    assert_eq!(
        kinds(&started, &ended),
        (
            vec![(a, b, false, EndReason::SensorChanged)],
            vec![(a, b, true, false)]
        )
    );
    let world = app.world().resource::<CollisionWorld>();
    assert!(world
        .world()
        .get(world.handle(b).unwrap())
        .unwrap()
        .is_sensor());
    assert!(world.world().contacts().all(|(_, _, m)| m.is_none()));
    assert!(world.is_touching(a));
    // The end is applied before the start: `a` still lists `b`.
    assert!(app
        .world()
        .get::<CollidingEntities>(a)
        .unwrap()
        .contains(&b));
}

#[test]
fn scale_applies_to_shape_and_offset_unless_ignored() {
    let mut app = app();
    // A unit circle scaled by 2 reaches x = 2; a probe at x = 1.5 is inside.
    let scaled = app
        .world_mut()
        .spawn((ball(1.0), Transform::from_scale(Vec3::splat(2.0))))
        .id();
    let ignoring = app
        .world_mut()
        .spawn((
            ball(1.0).with_ignore_object_scale(true),
            Transform::from_xyz(10.0, 0.0, 0.0).with_scale(Vec3::splat(2.0)),
        ))
        .id();
    // Non-uniform on a circle: the larger factor (3).
    let stretched = app
        .world_mut()
        .spawn((
            ball(1.0),
            Transform::from_xyz(20.0, 0.0, 0.0).with_scale(Vec3::new(1.0, 3.0, 1.0)),
        ))
        .id();
    // Non-uniform on a box: exact. Offset (1, 0) on an object scaled 2 sits at 2.
    let boxed = app
        .world_mut()
        .spawn((
            Collider::rect(1.0, 1.0)
                .unwrap()
                .with_offset(Vec2::new(1.0, 0.0), 0.0),
            Transform::from_xyz(30.0, 0.0, 0.0).with_scale(Vec3::new(2.0, 0.5, 1.0)),
        ))
        .id();
    step(&mut app);
    let hits = |app: &mut bevy_app::App, x: f32, y: f32| -> Vec<Entity> {
        app.world_mut()
            .run_system_once(move |q: SpatialQuery| {
                q.point_intersections(Vec2::new(x, y), &SpatialQueryFilter::default())
                    .unwrap()
            })
            .unwrap()
    };
    use bevy_ecs::system::RunSystemOnce;
    assert_eq!(hits(&mut app, 1.5, 0.0), vec![scaled]);
    assert_eq!(hits(&mut app, 11.5, 0.0), vec![]);
    assert_eq!(hits(&mut app, 10.9, 0.0), vec![ignoring]);
    assert_eq!(hits(&mut app, 20.0, 2.9), vec![stretched]);
    assert_eq!(
        hits(&mut app, 22.9, 0.0),
        vec![stretched],
        "a circle stays a circle"
    );
    assert_eq!(hits(&mut app, 32.9, 0.2), vec![boxed]);
    assert_eq!(hits(&mut app, 32.0, 0.3), vec![], "the box is 0.5 tall");

    // A scale change alone reshapes the collider.
    app.world_mut().get_mut::<Transform>(scaled).unwrap().scale = Vec3::ONE;
    step(&mut app);
    assert_eq!(hits(&mut app, 1.5, 0.0), vec![]);

    // A zero scale is refused and reported; the collider keeps its last shape.
    app.world_mut().get_mut::<Transform>(scaled).unwrap().scale = Vec3::new(0.0, 1.0, 1.0);
    step(&mut app);
    assert_eq!(hits(&mut app, 0.9, 0.0), vec![scaled]);
    let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].entity, Some(scaled));
}

#[test]
fn spatial_queries_answer_in_entities_with_filters() {
    use bevy_ecs::system::RunSystemOnce;
    let mut app = app();
    let near = app
        .world_mut()
        .spawn((ball(0.5), at(2.0, 0.0), CollisionLayer::named("A")))
        .id();
    let far = app
        .world_mut()
        .spawn((ball(0.5), at(5.0, 0.0), CollisionLayer::named("C")))
        .id();
    let sensor = app
        .world_mut()
        .spawn((ball(0.5), at(1.0, 0.0), Sensor))
        .id();
    step(&mut app);
    let answers = app
        .world_mut()
        .run_system_once(move |q: SpatialQuery| {
            let all = SpatialQueryFilter::default();
            let first = q.cast_ray(Vec2::ZERO, Vec2::X, 100.0, &all).unwrap();
            let with_sensors = q
                .cast_ray(
                    Vec2::ZERO,
                    Vec2::new(3.0, 0.0),
                    100.0,
                    &all.with_sensors(true),
                )
                .unwrap();
            let skip = [near];
            let past_near = q
                .cast_ray(Vec2::ZERO, Vec2::X, 100.0, &all.excluding(&skip))
                .unwrap();
            let only_c = q.collision_world().layer_mask(&["C"]).unwrap();
            let by_layer = q
                .cast_ray(Vec2::ZERO, Vec2::X, 100.0, &all.with_layers(only_c))
                .unwrap();
            let not_far = move |e: Entity| e != far;
            let predicate = q
                .cast_ray_all(Vec2::ZERO, Vec2::X, 100.0, &all.with_predicate(&not_far))
                .unwrap();
            let boxed = q
                .aabb_intersections(Vec2::new(0.0, -1.0), Vec2::new(4.0, 1.0), &all)
                .unwrap();
            let probe = collide2d::shape::Shape::from(collide2d::Circle::with_radius(0.5).unwrap());
            let shaped = q
                .shape_intersections(&probe, Vec2::new(4.2, 0.0), 0.0, &all)
                .unwrap();
            let cast = q
                .cast_shape(&probe, Vec2::new(0.0, 0.0), 0.0, Vec2::new(10.0, 0.0), &all)
                .unwrap();
            let bad = q.cast_ray(Vec2::ZERO, Vec2::ZERO, 1.0, &all);
            let nan = q.point_intersections(Vec2::NAN, &all);
            (
                first,
                with_sensors,
                past_near,
                by_layer,
                predicate,
                boxed,
                shaped,
                cast,
                bad,
                nan,
            )
        })
        .unwrap();
    let (first, with_sensors, past_near, by_layer, predicate, boxed, shaped, cast, bad, nan) =
        answers;
    let hit = |entity, distance: f32| RayHitData {
        entity,
        distance,
        point: Vec2::new(distance, 0.0),
        normal: -Vec2::X,
    };
    assert_eq!(first, Some(hit(near, 1.5)));
    assert_eq!(with_sensors, Some(hit(sensor, 0.5)));
    assert_eq!(past_near, Some(hit(far, 4.5)));
    assert_eq!(by_layer, Some(hit(far, 4.5)));
    assert_eq!(predicate, vec![hit(near, 1.5)]);
    assert_eq!(boxed, vec![near], "sensors only when asked");
    assert_eq!(shaped, vec![far]);
    let cast = cast.unwrap();
    assert_eq!(cast.entity, near);
    assert!((cast.fraction - 0.1).abs() < 1e-3, "{cast:?}");
    assert!(bad.is_err() && nan.is_err());
}

#[test]
fn a_character_falls_onto_the_floor_and_walks_along_it() {
    let mut app = app();
    let floor = app
        .world_mut()
        .spawn((Collider::rect(20.0, 1.0).unwrap(), at(0.0, -0.5)))
        .id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::rect(1.0, 1.0).unwrap(),
            at(0.0, 2.0),
            CharacterController::default(),
        ))
        .id();
    step(&mut app);
    for _ in 0..4 {
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = Vec2::new(0.25, -1.0);
        step(&mut app);
    }
    let state = app.world().get::<CharacterState>(hero).unwrap().clone();
    assert!(state.on_floor, "{state:?}");
    assert_eq!(state.floor, Some(floor));
    let t = app.world().get::<Transform>(hero).unwrap().translation;
    assert!((t.x - 1.0).abs() < 1e-3, "walked the whole way: {t}");
    assert!((t.y - 0.5).abs() < 0.05, "resting on the floor's top: {t}");
    let motion = app.world().get::<CharacterController>(hero).unwrap().motion;
    assert_eq!(motion, Vec2::ZERO, "the request is used once");
    // The world agrees with the transform after propagation.
    step(&mut app);
    let placed = placed_position(&app, hero);
    let global = global_translation(&app, hero);
    assert_eq!((placed.x, placed.y), (global.x, global.y));
}

#[test]
fn continuous_colliders_do_not_pass_through_thin_walls() {
    let mut app = app();
    let wall = app
        .world_mut()
        .spawn((Collider::rect(0.1, 4.0).unwrap(), at(5.0, 0.0)))
        .id();
    let bullet = app
        .world_mut()
        .spawn((ball(0.1).with_continuous(true), at(0.0, 0.0), Sensor))
        .id();
    let plain = app
        .world_mut()
        .spawn((ball(0.1), at(0.0, 1.0), Sensor))
        .id();
    step(&mut app);
    for entity in [bullet, plain] {
        app.world_mut()
            .get_mut::<Transform>(entity)
            .unwrap()
            .translation
            .x = 10.0;
    }
    let (started, _) = step(&mut app);
    assert_eq!(
        pairs(&started),
        vec![(wall, bullet)],
        "only the swept one hits"
    );
    let toi = started[0].time_of_impact.unwrap();
    assert!((toi - 0.49).abs() < 0.01, "{toi}");
}
