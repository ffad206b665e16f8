//! The edges a game reaches: mirrored and out-of-plane transforms, placements far from the
//! origin, bad transforms, entities that come and go within a frame or while the plugin's
//! schedule does not run, disabled entities, and colliders replaced in place.

use std::collections::BTreeSet;
use std::f32::consts::PI;

use bevy_app::App;
use bevy_collide2d::convert::placement;
use bevy_collide2d::prelude::*;
use bevy_ecs::entity_disabling::Disabled;
use bevy_ecs::message::Messages;
use bevy_ecs::prelude::*;
use bevy_ecs::query::Allow;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_ecs::system::RunSystemOnce;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::shape::Shape;

use crate::support::{
    app, app_with, drain_messages, global_translation, pairs, placed_position, step, Rng,
};

fn lib(x: f32, y: f32) -> collide2d::Vec2 {
    collide2d::Vec2::new(x, y)
}

fn ball(radius: f32) -> Collider {
    Collider::circle(radius).unwrap()
}

fn at(x: f32, y: f32) -> Transform {
    Transform::from_xyz(x, y, 0.0)
}

/// The entities whose colliders contain `point`.
fn hits(app: &mut App, x: f32, y: f32) -> Vec<Entity> {
    app.world_mut()
        .run_system_once(move |q: SpatialQuery| {
            q.point_intersections(Vec2::new(x, y), &SpatialQueryFilter::default())
                .unwrap()
        })
        .unwrap()
}

/// Every collider in the world is placed by finite numbers.
fn assert_world_finite(app: &App) {
    let world = app.world().resource::<CollisionWorld>().world();
    for (_, collider) in world.iter() {
        let xf = collider.world_transform();
        assert!(
            xf.p.is_finite() && xf.q.c.is_finite() && xf.q.s.is_finite(),
            "{xf:?}"
        );
    }
}

#[test]
fn a_sprite_turned_half_about_y_or_x_is_mirrored_not_turned() {
    let mut app = app();
    // A box offset to (2, 1) on its entity; the camera looks down z.
    let boxed = || {
        Collider::rect(1.0, 1.0)
            .unwrap()
            .with_offset(Vec2::new(2.0, 1.0), 0.0)
    };
    let about_y = app
        .world_mut()
        .spawn((boxed(), Transform::from_rotation(Quat::from_rotation_y(PI))))
        .id();
    let about_x = app
        .world_mut()
        .spawn((
            boxed(),
            Transform::from_xyz(10.0, 0.0, 0.0).with_rotation(Quat::from_rotation_x(PI)),
        ))
        .id();
    step(&mut app);
    // About y the camera sees x mirrored (the box at (-2, 1)); about x, y mirrored.
    assert_eq!(hits(&mut app, -2.0, 1.0), vec![about_y]);
    assert_eq!(hits(&mut app, -2.0, -1.0), vec![]);
    assert_eq!(hits(&mut app, 12.0, -1.0), vec![about_x]);
    assert_eq!(hits(&mut app, 8.0, -1.0), vec![]);
    assert!(app.world().resource::<CollisionWorld>().errors().is_empty());
}

#[test]
fn a_mirrored_entitys_turned_collider_turns_the_mirrored_way() {
    let mut app = app();
    // A thin bar along x, turned 30 degrees on its entity: it points up and to the right;
    // on an entity mirrored in x it points up and to the left, as the sprite does.
    let turn = PI / 6.0;
    let bar = || {
        Collider::rect(2.0, 0.2)
            .unwrap()
            .with_offset(Vec2::ZERO, turn)
    };
    let mirrored_x = app
        .world_mut()
        .spawn((bar(), Transform::from_scale(Vec3::new(-1.0, 1.0, 1.0))))
        .id();
    let mirrored_y = app
        .world_mut()
        .spawn((
            bar(),
            Transform::from_xyz(10.0, 0.0, 0.0).with_scale(Vec3::new(1.0, -1.0, 1.0)),
        ))
        .id();
    step(&mut app);
    let (c, s) = (0.9 * turn.cos(), 0.9 * turn.sin());
    assert_eq!(hits(&mut app, -c, s), vec![mirrored_x]);
    assert_eq!(hits(&mut app, c, s), vec![]);
    assert_eq!(hits(&mut app, 10.0 + c, -s), vec![mirrored_y]);
    assert_eq!(hits(&mut app, 10.0 + c, s), vec![]);
}

/// One shape of each kind, about a unit in size, not symmetric.
fn every_kind() -> Vec<(&'static str, Shape)> {
    let tri = [lib(0.0, -0.2), lib(1.2, 0.1), lib(0.2, 0.8)];
    vec![
        (
            "circle",
            collide2d::Circle::new(lib(0.3, 0.2), 0.5).unwrap().into(),
        ),
        (
            "capsule",
            collide2d::Capsule::new(lib(-0.5, 0.1), lib(0.6, 0.4), 0.25)
                .unwrap()
                .into(),
        ),
        ("polygon", collide2d::Polygon::new(&tri).unwrap().into()),
        (
            "rounded",
            collide2d::Polygon::new(&tri)
                .unwrap()
                .with_radius(0.1)
                .unwrap()
                .into(),
        ),
        (
            "segment",
            collide2d::Segment::new(lib(-0.5, -0.2), lib(0.7, 0.4))
                .unwrap()
                .into(),
        ),
        (
            "open chain",
            collide2d::Chain::open(&[lib(-1.0, 0.0), lib(0.0, 0.3), lib(0.8, -0.2), lib(1.2, 0.6)])
                .unwrap()
                .into(),
        ),
        (
            "closed chain",
            collide2d::Chain::closed(&[
                lib(-0.6, -0.5),
                lib(0.8, -0.4),
                lib(0.5, 0.7),
                lib(-0.3, 0.4),
            ])
            .unwrap()
            .into(),
        ),
        (
            "compound",
            collide2d::Compound::new(vec![
                (
                    collide2d::Transform::new(lib(0.4, 0.0), 0.5),
                    collide2d::Polygon::rect(0.6, 0.3).unwrap().into(),
                ),
                (
                    collide2d::Transform::new(lib(-0.3, 0.2), -0.3),
                    collide2d::Capsule::new(lib(0.0, 0.0), lib(0.3, 0.0), 0.15)
                        .unwrap()
                        .into(),
                ),
            ])
            .unwrap()
            .into(),
        ),
    ]
}

/// Whether a shape takes any scale exactly (no rounding to keep round).
fn takes_any_scale(name: &str) -> bool {
    matches!(name, "polygon" | "segment" | "open chain" | "closed chain")
}

/// The in-plane affine map of a global transform, in `f64`: columns `x`, `y` and translation.
fn plane_map(global: &GlobalTransform) -> [[f64; 2]; 3] {
    let a = global.affine();
    let x = a.matrix3.x_axis;
    let y = a.matrix3.y_axis;
    let t = a.translation;
    [
        [x.x as f64, x.y as f64],
        [y.x as f64, y.y as f64],
        [t.x as f64, t.y as f64],
    ]
}

/// `p` mapped back through the entity's plane map, the collider's offset and turn and its own
/// scale: the point in the unscaled shape's frame, in `f64`.
fn to_shape_frame(map: &[[f64; 2]; 3], collider: &Collider, p: [f64; 2]) -> [f64; 2] {
    let [x, y, t] = *map;
    let (px, py) = (p[0] - t[0], p[1] - t[1]);
    let det = x[0] * y[1] - y[0] * x[1];
    let lx = (y[1] * px - y[0] * py) / det - collider.offset().x as f64;
    let ly = (-x[1] * px + x[0] * py) / det - collider.offset().y as f64;
    let (s, c) = (collider.angle() as f64).sin_cos();
    let (rx, ry) = (c * lx + s * ly, -s * lx + c * ly);
    let own = collider.scale();
    [rx / own.x as f64, ry / own.y as f64]
}

/// `q` in the shape's frame placed in the plane, in `f64`.
fn from_shape_frame(map: &[[f64; 2]; 3], collider: &Collider, q: [f64; 2]) -> [f64; 2] {
    let own = collider.scale();
    let (qx, qy) = (q[0] * own.x as f64, q[1] * own.y as f64);
    let (s, c) = (collider.angle() as f64).sin_cos();
    let lx = c * qx - s * qy + collider.offset().x as f64;
    let ly = s * qx + c * qy + collider.offset().y as f64;
    let [x, y, t] = *map;
    [t[0] + x[0] * lx + y[0] * ly, t[1] + x[1] * lx + y[1] * ly]
}

/// Mirrors (x, y or both), turns in and out of the plane, parents, offsets and the collider's
/// own scale, 1e6 from the origin and nearer: every shape kind's collider holds exactly the
/// points of its shape mapped by the entity's in-plane transform, its offset and its scale.
#[test]
fn mirrored_turned_and_far_colliders_of_every_kind_match_an_exact_reference() {
    let mut rng = Rng(0x005e_ed0f_4d1f);
    let signs = [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];
    let (mut checked, mut inside, mut mirrored) = (0, 0, 0);
    for (name, base) in every_kind() {
        for case in 0..15 {
            let far = [0.0, 1e3, 1e5, 1e6, 1e7][case % 5];
            // Shapes grow with the distance so that f32 placements resolve them.
            let size = (far * 2e-5f32).max(1.0);
            let shape = base.scaled(collide2d::Vec2::splat(size)).unwrap();
            let exact = takes_any_scale(name) && rng.below(2) == 0;
            let (sx, sy) = signs[rng.below(4)];
            let magnitude = [0.5, 1.0, 2.0][rng.below(3)];
            let (own, object, turn) = if exact {
                // Non-uniform scales: exact for these shapes with the offset unturned.
                let own = Vec2::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0));
                (own, Vec3::new(sx * magnitude, sy * 1.5, 1.0), 0.0)
            } else {
                let own = [Vec2::ONE, Vec2::new(-1.0, 1.0), Vec2::splat(1.5)][rng.below(3)];
                (
                    own,
                    Vec3::new(sx * magnitude, sy * magnitude, 1.0),
                    rng.range(-PI, PI),
                )
            };
            if sx * sy < 0.0 || own.x * own.y < 0.0 {
                mirrored += 1;
            }
            let collider = Collider::new(shape.clone())
                .with_offset(
                    Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * size,
                    turn,
                )
                .with_scale(own);
            let direction = rng.range(-PI, PI);
            let origin = Vec3::new(far * direction.cos(), far * direction.sin(), 0.0);
            // Out of the plane: a half turn about x or y is a mirror as the camera sees it.
            let flip = match rng.below(4) {
                0 => Quat::from_rotation_y(PI),
                1 => Quat::from_rotation_x(PI),
                _ => Quat::IDENTITY,
            };
            let spin = Quat::from_rotation_z(rng.range(-PI, PI));
            let mut app = app();
            let entity = if rng.below(2) == 0 || exact {
                let transform = Transform::from_translation(origin)
                    .with_rotation(flip * spin)
                    .with_scale(object);
                app.world_mut().spawn((collider.clone(), transform)).id()
            } else {
                // The mirror and the turn on a parent, a turn and a move on the child.
                let parent = Transform::from_translation(origin)
                    .with_rotation(flip * spin)
                    .with_scale(object);
                let parent = app.world_mut().spawn(parent).id();
                let child = Transform::from_xyz(size, -0.5 * size, 0.0)
                    .with_rotation(Quat::from_rotation_z(rng.range(-PI, PI)));
                app.world_mut()
                    .spawn((collider.clone(), child, ChildOf(parent)))
                    .id()
            };
            step(&mut app);
            let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
            assert!(errors.is_empty(), "{name} case {case}: {errors:?}");
            let global = *app.world().get::<GlobalTransform>(entity).unwrap();
            let map = plane_map(&global);
            // The factor from the shape's frame to the plane, when uniform.
            let det = (map[0][0] * map[1][1] - map[1][0] * map[0][1]).abs().sqrt();
            let total = det * (own.x as f64).abs();
            let uniform = !exact;
            let probe = 0.1 * size;
            let margin = 0.03 * size as f64;
            let aabb = shape.aabb(&collide2d::Transform::IDENTITY);
            for sample in 0..40 {
                // Half the points within the shape's box, half about it.
                let pad = if sample % 2 == 0 { 0.0 } else { 0.5 * size };
                let q = [
                    rng.range(aabb.min.x - pad, aabb.max.x + pad) as f64,
                    rng.range(aabb.min.y - pad, aabb.max.y + pad) as f64,
                ];
                let p = from_shape_frame(&map, &collider, q);
                let p32 = Vec2::new(p[0] as f32, p[1] as f32);
                let back = to_shape_frame(&map, &collider, [p32.x as f64, p32.y as f64]);
                let local = lib(back[0] as f32, back[1] as f32);
                let (expected, answer) = if uniform {
                    // A probe circle: in the shape's frame a circle of radius probe / total.
                    let dot = Shape::from(collide2d::Circle::with_radius(1e-4).unwrap());
                    let placed = collide2d::Transform::new(local, 0.0);
                    let d =
                        collide2d::distance(&shape, &collide2d::Transform::IDENTITY, &dot, &placed)
                            .distance as f64
                            * total;
                    // Chains are one-sided: a probe centred on one passes or not by a hair.
                    if (d - probe as f64).abs() < margin || d < margin {
                        continue;
                    }
                    let local_disc = Shape::from(
                        collide2d::Circle::with_radius((probe as f64 / total) as f32).unwrap(),
                    );
                    let truth = collide2d::overlaps(
                        &shape,
                        &collide2d::Transform::IDENTITY,
                        &local_disc,
                        &placed,
                    );
                    let disc = Shape::from(collide2d::Circle::with_radius(probe).unwrap());
                    let found = app
                        .world_mut()
                        .run_system_once(move |q: SpatialQuery| {
                            q.shape_intersections(&disc, p32, 0.0, &SpatialQueryFilter::default())
                                .unwrap()
                        })
                        .unwrap();
                    (truth, found.contains(&entity))
                } else {
                    if name != "polygon" {
                        continue;
                    }
                    let projection = shape.project_point(&collide2d::Transform::IDENTITY, local);
                    let scale = (own.x.abs().min(own.y.abs()) * magnitude.min(1.5)) as f64;
                    if (projection.distance as f64) * scale < margin {
                        continue;
                    }
                    (
                        projection.inside,
                        hits(&mut app, p32.x, p32.y).contains(&entity),
                    )
                };
                assert_eq!(
                    answer, expected,
                    "{name} case {case}: point {p32} (shape frame {local}), scale {object} own {own}, turn {turn}, flip {flip}"
                );
                checked += 1;
                inside += expected as usize;
            }
            assert_world_finite(&app);
        }
    }
    // The generator reaches both answers and the mirrors.
    assert!(
        checked > 1500 && inside > 200 && checked - inside > 400,
        "{checked} {inside}"
    );
    assert!(mirrored > 40, "{mirrored} mirrored cases");
}

#[test]
fn a_collider_no_longer_ignoring_its_entitys_scale_takes_the_current_scale() {
    let mut app = app();
    let e = app
        .world_mut()
        .spawn((ball(1.0).with_ignore_object_scale(true), at(0.0, 0.0)))
        .id();
    step(&mut app);
    app.world_mut().get_mut::<Transform>(e).unwrap().scale = Vec3::splat(3.0);
    step(&mut app);
    assert_eq!(hits(&mut app, 2.5, 0.0), vec![], "scale ignored");
    // The same shape, now taking the entity's scale; the transform does not change.
    app.world_mut().entity_mut(e).insert(ball(1.0));
    step(&mut app);
    assert_eq!(
        hits(&mut app, 2.5, 0.0),
        vec![e],
        "a unit circle scaled by 3"
    );
    app.world_mut()
        .entity_mut(e)
        .insert(ball(1.0).with_ignore_object_scale(true));
    step(&mut app);
    assert_eq!(hits(&mut app, 2.5, 0.0), vec![]);
}

/// The plugin in a schedule a test runs by hand, as a fixed-step game runs `FixedPostUpdate`
/// zero, one or several times a frame.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct Fixed;

fn fixed_app() -> App {
    let mut app = app_with(
        Collide2dPlugin::new(Fixed)
            .with_layers(["A", "B", "C"])
            .with_layer_pair("A", "B", false),
    );
    app.init_schedule(Fixed);
    app
}

/// Runs the plugin's schedule once and returns the messages it wrote.
fn fixed_step(app: &mut App) -> (Vec<CollisionStarted>, Vec<CollisionEnded>) {
    app.world_mut().run_schedule(Fixed);
    drain_messages(app)
}

#[test]
fn removals_reach_the_world_when_the_schedule_skips_frames() {
    let mut app = fixed_app();
    let a = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollidingEntities::default()))
        .id();
    let b = app.world_mut().spawn((ball(0.5), at(0.5, 0.0))).id();
    let c = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.5), Sensor, CollisionLayer::named("B")))
        .id();
    app.update();
    let (started, _) = fixed_step(&mut app);
    assert_eq!(started.len(), 3);

    // Three frames without a fixed step, as at a high frame rate.
    app.world_mut().despawn(b);
    app.world_mut()
        .entity_mut(c)
        .remove::<(Sensor, CollisionLayer)>();
    for _ in 0..3 {
        app.update();
    }
    let (_, ended) = fixed_step(&mut app);
    let mut with_b: Vec<(Entity, Entity, EndReason)> = ended
        .iter()
        .filter(|e| e.a == b || e.b == b)
        .map(|e| (e.a, e.b, e.reason))
        .collect();
    with_b.sort_unstable_by_key(|&(x, y, _)| (x.index(), y.index()));
    let expected = vec![(a, b, EndReason::Removed), (b, c, EndReason::Removed)];
    assert_eq!(with_b, expected, "{ended:?}");
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!((world.world().len(), world.handle(b)), (2, None));
    let handle = world.handle(c).unwrap();
    let collider = world.world().get(handle).unwrap();
    assert!(!collider.is_sensor(), "the sensor removal arrived");
    assert_eq!(collider.layer(), collide2d::LayerId::DEFAULT);
    let colliding = app.world().get::<CollidingEntities>(a).unwrap();
    assert!(colliding.contains(&c) && !colliding.contains(&b));
}

/// Between a removal and the step that applies it (which a fixed schedule may not run for
/// frames), `CollisionWorld::handle`, `entity` and `is_touching` stop answering the entity at
/// once: despawned, disabled or stripped of its `Collider`, while the colliders stay in the
/// world. An entity whose collider comes back before the step (enabled again, `Collider`
/// inserted again) is answered again at once, and after the step as before.
#[test]
fn handles_entities_and_touching_stop_naming_an_entity_the_moment_its_collider_goes() {
    let mut app = fixed_app();
    let spawn = |app: &mut App, x: f32| app.world_mut().spawn((ball(0.5), at(x, 0.0))).id();
    let a = spawn(&mut app, 0.0);
    let [despawned, disabled, stripped, back, reinserted] =
        [0.5, -0.5, 0.3, -0.3, 0.1].map(|x| spawn(&mut app, x));
    let others = [despawned, disabled, stripped, back, reinserted];
    app.update();
    fixed_step(&mut app);
    let handles: Vec<collide2d::world::ColliderHandle> = {
        let world = app.world().resource::<CollisionWorld>();
        others.iter().map(|&e| world.handle(e).unwrap()).collect()
    };
    for (&e, &h) in others.iter().zip(&handles) {
        let world = app.world().resource::<CollisionWorld>();
        assert_eq!(world.entity(h), Some(e));
        assert!(world.is_touching(e));
    }

    app.world_mut().despawn(despawned);
    app.world_mut().entity_mut(disabled).insert(Disabled);
    app.world_mut().entity_mut(stripped).remove::<Collider>();
    app.world_mut().entity_mut(back).insert(Disabled);
    app.world_mut().entity_mut(back).remove::<Disabled>();
    app.world_mut().entity_mut(reinserted).remove::<Collider>();
    app.world_mut().entity_mut(reinserted).insert(ball(0.4));
    for _ in 0..3 {
        app.update();
    }
    let gone = [despawned, disabled, stripped];
    let check = |app: &App, when: &str| {
        let world = app.world().resource::<CollisionWorld>();
        for (&e, &h) in others.iter().zip(&handles) {
            let expected = !gone.contains(&e);
            assert_eq!(
                world.handle(e).is_some(),
                expected,
                "{when}: handle of {e:?}"
            );
            assert_eq!(
                world.entity(h).is_some(),
                expected,
                "{when}: entity of {e:?}"
            );
            assert_eq!(world.is_touching(e), expected, "{when}: touching of {e:?}");
        }
        assert!(world.is_touching(a));
    };
    assert_eq!(
        app.world().resource::<CollisionWorld>().world().len(),
        6,
        "not yet applied"
    );
    check(&app, "before the step");
    fixed_step(&mut app);
    assert_eq!(
        app.world().resource::<CollisionWorld>().world().len(),
        4,
        "the disabled one kept"
    );
    check(&app, "after the step");

    // Enabled again: answered again once the step has put it back.
    app.world_mut().entity_mut(disabled).remove::<Disabled>();
    fixed_step(&mut app);
    let world = app.world().resource::<CollisionWorld>();
    let handle = world.handle(disabled).unwrap();
    assert_eq!(
        (world.entity(handle), world.is_touching(disabled)),
        (Some(disabled), true)
    );
}

#[test]
fn a_despawned_entitys_reused_index_carries_no_contact_over() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollidingEntities::default()))
        .id();
    let b = app.world_mut().spawn((ball(0.5), at(0.5, 0.0))).id();
    step(&mut app);
    // Despawned and spawned again at its index (the next generation) within one frame.
    let next = app.world_mut().despawn_no_free(b).unwrap();
    let b2 = app
        .world_mut()
        .spawn_at(
            next,
            (ball(0.5), at(0.5, 0.0), CollidingEntities::default()),
        )
        .unwrap()
        .id();
    assert_eq!(b2.index(), b.index(), "the index is reused");
    assert_ne!(b2, b);
    let (started, ended) = step(&mut app);
    assert_eq!(pairs(&started), vec![(a, b2)]);
    assert_eq!(
        ended,
        vec![CollisionEnded {
            a,
            b,
            sensor: false,
            reason: EndReason::Removed
        }]
    );
    let colliding: Vec<Entity> = app
        .world()
        .get::<CollidingEntities>(a)
        .unwrap()
        .0
        .iter()
        .copied()
        .collect();
    assert_eq!(colliding, vec![b2]);
    assert_eq!(step(&mut app), (vec![], vec![]));
}

#[test]
fn replacing_a_touching_collider_starts_and_ends_by_its_new_shape() {
    let mut app = app();
    let a = app.world_mut().spawn((ball(0.5), at(0.0, 0.0))).id();
    let b = app.world_mut().spawn((ball(0.5), at(1.2, 0.0))).id();
    assert_eq!(step(&mut app), (vec![], vec![]));
    app.world_mut().entity_mut(b).insert(ball(1.0));
    let (started, ended) = step(&mut app);
    assert_eq!((pairs(&started), ended), (vec![(a, b)], vec![]));
    app.world_mut()
        .entity_mut(b)
        .insert(Collider::rect(0.5, 0.5).unwrap());
    let (started, ended) = step(&mut app);
    assert_eq!(started, vec![]);
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].reason, EndReason::Separated);
    // Removed and inserted again within one frame: one collider, still apart.
    app.world_mut().entity_mut(b).remove::<Collider>();
    app.world_mut().entity_mut(b).insert(ball(0.8));
    let (started, ended) = step(&mut app);
    assert_eq!((pairs(&started), ended), (vec![(a, b)], vec![]));
    assert_eq!(app.world().resource::<CollisionWorld>().world().len(), 2);
}

#[test]
fn a_disabled_entity_leaves_the_world_and_comes_back_when_enabled() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.0), CollidingEntities::default()))
        .id();
    let b = app
        .world_mut()
        .spawn((ball(0.5), at(0.5, 0.0), CollidingEntities::default()))
        .id();
    step(&mut app);
    app.world_mut().entity_mut(b).insert(Disabled);
    let (started, ended) = step(&mut app);
    assert_eq!(started, vec![]);
    assert_eq!(ended.len(), 1, "{ended:?}");
    assert_eq!(
        (ended[0].a, ended[0].b, ended[0].reason),
        (a, b, EndReason::Disabled)
    );
    assert!(app.world().get::<CollidingEntities>(a).unwrap().is_empty());
    assert!(
        app.world().get::<CollidingEntities>(b).unwrap().is_empty(),
        "the disabled entity's set is kept current too"
    );
    assert_eq!(hits(&mut app, 0.3, 0.0), vec![a]);
    assert_eq!(step(&mut app), (vec![], vec![]));

    app.world_mut().entity_mut(b).remove::<Disabled>();
    let (started, ended) = step(&mut app);
    assert_eq!((pairs(&started), ended), (vec![(a, b)], vec![]));
    assert!(app
        .world()
        .get::<CollidingEntities>(b)
        .unwrap()
        .contains(&a));

    // Spawned disabled: never in the world until enabled.
    let c = app
        .world_mut()
        .spawn((ball(0.5), at(0.0, 0.5), Disabled))
        .id();
    assert_eq!(step(&mut app), (vec![], vec![]));
    assert_eq!(app.world().resource::<CollisionWorld>().handle(c), None);
}

#[test]
fn bad_transforms_are_reported_and_never_reach_the_world() {
    let mut app = app();
    let nan = app.world_mut().spawn((ball(0.5), at(f32::NAN, 0.0))).id();
    let inf = app
        .world_mut()
        .spawn((
            ball(0.5),
            Transform::from_scale(Vec3::new(f32::INFINITY, 1.0, 1.0)),
        ))
        .id();
    let huge = app
        .world_mut()
        .spawn((ball(0.5), Transform::from_scale(Vec3::splat(1e30))))
        .id();
    // A bar turned a quarter: along y.
    let turned = app
        .world_mut()
        .spawn((
            Collider::rect(2.0, 0.2).unwrap(),
            at(10.0, 0.0).with_rotation(Quat::from_rotation_z(PI / 2.0)),
        ))
        .id();
    step(&mut app);
    assert_world_finite(&app);
    let world = app.world().resource::<CollisionWorld>();
    let refused: BTreeSet<Entity> = world.errors().iter().filter_map(|e| e.entity).collect();
    assert!(
        refused.contains(&nan) && refused.contains(&inf),
        "{refused:?}"
    );
    assert!(world.handle(nan).is_none() && world.handle(inf).is_none());
    let _ = huge;
    assert_eq!(hits(&mut app, 10.0, 0.9), vec![turned]);

    // A zero scale keeps the last shape and its turn; a NaN translation keeps the place.
    app.world_mut().get_mut::<Transform>(turned).unwrap().scale = Vec3::new(0.0, 1.0, 1.0);
    step(&mut app);
    assert_world_finite(&app);
    assert_eq!(hits(&mut app, 10.0, 0.9), vec![turned], "still along y");
    app.world_mut().get_mut::<Transform>(turned).unwrap().scale = Vec3::ONE;
    app.world_mut()
        .get_mut::<Transform>(turned)
        .unwrap()
        .translation
        .y = f32::NAN;
    step(&mut app);
    assert_world_finite(&app);
    assert_eq!(hits(&mut app, 10.0, 0.9), vec![turned]);
    let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
    assert!(
        errors.iter().any(|e| e.entity == Some(turned)),
        "{errors:?}"
    );

    // A NaN rotation keeps the last placement, turn included.
    app.world_mut()
        .get_mut::<Transform>(turned)
        .unwrap()
        .translation
        .y = 0.0;
    app.world_mut()
        .get_mut::<Transform>(turned)
        .unwrap()
        .rotation = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    step(&mut app);
    assert_world_finite(&app);
    assert_eq!(hits(&mut app, 10.0, 0.9), vec![turned], "still along y");
    let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
    assert!(
        errors.iter().any(|e| e.entity == Some(turned)),
        "{errors:?}"
    );

    // Made finite, they enter.
    app.world_mut()
        .get_mut::<Transform>(nan)
        .unwrap()
        .translation
        .x = 30.0;
    app.world_mut().get_mut::<Transform>(inf).unwrap().scale = Vec3::ONE;
    step(&mut app);
    assert_world_finite(&app);
    assert_eq!(hits(&mut app, 30.0, 0.0), vec![nan]);
    assert_eq!(hits(&mut app, 0.0, 0.0), vec![inf]);
}

#[test]
fn a_character_far_out_under_a_mirrored_parent_walks_the_way_it_is_told() {
    let mut app = app();
    let far = Vec2::new(1e5, -1e5);
    let floor = app
        .world_mut()
        .spawn((Collider::rect(40.0, 1.0).unwrap(), at(far.x, far.y - 0.5)))
        .id();
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(far.x, far.y, 0.0).with_scale(Vec3::new(-2.0, 2.0, 1.0)))
        .id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::rect(0.5, 0.5).unwrap(),
            at(0.0, 1.0),
            ChildOf(parent),
            CharacterController::default(),
        ))
        .id();
    step(&mut app);
    for _ in 0..8 {
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = Vec2::new(0.5, -1.0);
        step(&mut app);
    }
    step(&mut app);
    let state = app.world().get::<CharacterState>(hero).unwrap().clone();
    assert_eq!(state.floor, Some(floor), "{state:?}");
    let global = global_translation(&app, hero);
    // The box is 1 x 1 under the parent's scale of 2: its centre rests 0.5 above the floor.
    assert!(
        (global.x - (far.x + 4.0)).abs() < 0.05,
        "walked right: {global}"
    );
    assert!(
        (global.y - (far.y + 0.5)).abs() < 0.05,
        "on the floor: {global}"
    );
    let placed = placed_position(&app, hero);
    assert!((placed.x - global.x).abs() < 0.02 && (placed.y - global.y).abs() < 0.02);
}

/// Pairs of entities, the lesser first.
type Pairs = BTreeSet<(Entity, Entity)>;

/// What a brute-force pass over the entities' final shapes and transforms says touches:
/// the pairs that clearly touch and those too close to call.
fn brute_force(app: &mut App) -> (Pairs, Pairs) {
    let mut query = app
        .world_mut()
        .query::<(Entity, &Collider, &GlobalTransform, Option<&CollisionLayer>)>();
    let parts: Vec<(Entity, Shape, collide2d::Transform, Option<String>)> = query
        .iter(app.world())
        .map(|(e, c, g, l)| {
            (
                e,
                c.shape().clone(),
                placement(g).0,
                l.map(|l| l.0.to_string()),
            )
        })
        .collect();
    let (mut touching, mut close) = (BTreeSet::new(), BTreeSet::new());
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            let layers = (a.3.as_deref(), b.3.as_deref());
            if matches!(layers, (Some("A"), Some("B")) | (Some("B"), Some("A"))) {
                continue;
            }
            let key = (a.0.min(b.0), a.0.max(b.0));
            let distance = collide2d::distance(&a.1, &a.2, &b.1, &b.2).distance;
            let depth = collide2d::collide(&a.1, &a.2, &b.1, &b.2).max_penetration();
            if distance < 1e-3 && depth < 1e-3 {
                close.insert(key);
            } else if collide2d::overlaps(&a.1, &a.2, &b.1, &b.2) {
                touching.insert(key);
            }
        }
    }
    (touching, close)
}

/// Random lifecycle operations (spawns, despawns with children, a despawn and a spawn reusing
/// the index in one frame, moves, reparenting, `Collider`, `Sensor`, `CollisionLayer` and
/// `Disabled` inserted and removed across frames and within one, shapes replaced in place)
/// with the plugin's schedule run 0 to 3 times a frame. After every frame, the started and
/// ended messages, applied in order, give exactly the brute-force touching pairs; every start
/// is of a pair not yet touching and every end of one touching; `CollidingEntities` agrees.
#[test]
fn messages_and_colliding_entities_follow_a_brute_force_reference_over_lifecycles() {
    let (mut starts, mut ends, mut skipped, mut tripled) = (0, 0, 0, 0);
    for seed in 1..=24u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut app = fixed_app();
        let mut live: Vec<Entity> = Vec::new();
        let mut touching = Pairs::new();
        let mut reference = (BTreeSet::new(), BTreeSet::new());
        let random_collider = |rng: &mut Rng| {
            if rng.below(2) == 0 {
                ball(rng.range(0.3, 1.0))
            } else {
                Collider::rect(rng.range(0.4, 2.0), rng.range(0.4, 2.0)).unwrap()
            }
        };
        for frame in 0..50 {
            for _ in 0..1 + rng.below(3) {
                let op = if live.len() < 3 { 0 } else { rng.below(11) };
                match op {
                    0 | 1 if live.len() < 12 => {
                        let transform = at(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0))
                            .with_rotation(Quat::from_rotation_z(rng.range(-3.0, 3.0)));
                        let collider = random_collider(&mut rng);
                        let mut spawned = app.world_mut().spawn((
                            collider,
                            transform,
                            CollidingEntities::default(),
                        ));
                        if rng.below(3) == 0 {
                            spawned.insert(Sensor);
                        }
                        let entity = spawned.id();
                        if rng.below(4) == 0 && !live.is_empty() {
                            let parent = live[rng.below(live.len())];
                            app.world_mut().entity_mut(entity).insert(ChildOf(parent));
                        }
                        live.push(entity);
                    }
                    0 | 1 => {}
                    2 => {
                        let entity = live[rng.below(live.len())];
                        let mut t = app.world_mut().get_mut::<Transform>(entity).unwrap();
                        t.translation.x = rng.range(-3.0, 3.0);
                        t.translation.y = rng.range(-3.0, 3.0);
                        t.rotation = Quat::from_rotation_z(rng.range(-3.0, 3.0));
                    }
                    3 => {
                        // Despawn (children too), maybe spawning at once into the index.
                        let entity = live[rng.below(live.len())];
                        app.world_mut().despawn(entity);
                        live.retain(|&e| app.world().get_entity(e).is_ok());
                        if rng.below(2) == 0 {
                            let collider = random_collider(&mut rng);
                            let t = at(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
                            let e = app
                                .world_mut()
                                .spawn((collider, t, CollidingEntities::default()))
                                .id();
                            live.push(e);
                        }
                    }
                    4 => {
                        // `Collider` off, on, or off and on again within the frame.
                        let entity = live[rng.below(live.len())];
                        let has = app.world().get::<Collider>(entity).is_some();
                        let collider = random_collider(&mut rng);
                        let mut e = app.world_mut().entity_mut(entity);
                        match (has, rng.below(2)) {
                            (true, 0) => {
                                e.remove::<Collider>();
                            }
                            (true, _) => {
                                e.remove::<Collider>();
                                e.insert(collider);
                            }
                            (false, _) => {
                                e.insert(collider);
                            }
                        }
                    }
                    5 => {
                        // The shape replaced in place.
                        let entity = live[rng.below(live.len())];
                        let collider = random_collider(&mut rng);
                        if app.world().get::<Collider>(entity).is_some() {
                            app.world_mut().entity_mut(entity).insert(collider);
                        }
                    }
                    6 => {
                        let entity = live[rng.below(live.len())];
                        let mut e = app.world_mut().entity_mut(entity);
                        match rng.below(3) {
                            0 => {
                                e.insert(Sensor);
                            }
                            1 => {
                                e.remove::<Sensor>();
                            }
                            _ => {
                                e.remove::<Sensor>();
                                e.insert(Sensor);
                            }
                        }
                    }
                    7 => {
                        let entity = live[rng.below(live.len())];
                        let layer = [None, Some("A"), Some("B"), Some("C")][rng.below(4)];
                        let mut e = app.world_mut().entity_mut(entity);
                        match layer {
                            Some(name) => {
                                e.insert(CollisionLayer::named(name));
                            }
                            None => {
                                e.remove::<CollisionLayer>();
                            }
                        }
                    }
                    8 => {
                        let entity = live[rng.below(live.len())];
                        let mut e = app.world_mut().entity_mut(entity);
                        if e.contains::<Disabled>() {
                            e.remove::<Disabled>();
                        } else {
                            e.insert(Disabled);
                        }
                    }
                    _ => {
                        // Reparent to an entity outside the subtree, or detach.
                        let entity = live[rng.below(live.len())];
                        let candidate = live[rng.below(live.len())];
                        let mut up = Some(candidate);
                        let mut cycle = false;
                        while let Some(e) = up {
                            cycle |= e == entity;
                            up = app.world().get::<ChildOf>(e).map(|c| c.parent());
                        }
                        if cycle || rng.below(3) == 0 {
                            app.world_mut().entity_mut(entity).remove::<ChildOf>();
                        } else {
                            app.world_mut()
                                .entity_mut(entity)
                                .insert(ChildOf(candidate));
                        }
                    }
                }
            }
            app.update();
            let runs = rng.below(4);
            skipped += (runs == 0) as usize;
            tripled += (runs == 3) as usize;
            let mut messages = (Vec::new(), Vec::new());
            for _ in 0..runs {
                app.world_mut().run_schedule(Fixed);
                reference = brute_force(&mut app);
                // Messages are read once a frame, as a game's `Update` systems read them.
            }
            let world = app.world_mut();
            messages
                .0
                .extend(world.resource_mut::<Messages<CollisionStarted>>().drain());
            messages
                .1
                .extend(world.resource_mut::<Messages<CollisionEnded>>().drain());
            // Starts and ends interleave per run; a pair's own messages alternate, so
            // applying ends before starts is wrong only for a pair that both ended and
            // started within the frame: apply per pair in order of appearance instead.
            let mut per_pair: Vec<((Entity, Entity), bool)> = Vec::new();
            for s in &messages.0 {
                per_pair.push(((s.a.min(s.b), s.a.max(s.b)), true));
            }
            for e in &messages.1 {
                per_pair.push(((e.a.min(e.b), e.a.max(e.b)), false));
            }
            let keys: BTreeSet<_> = per_pair.iter().map(|(k, _)| *k).collect();
            for key in keys {
                let n_start = per_pair.iter().filter(|(k, s)| *k == key && *s).count();
                let n_end = per_pair.iter().filter(|(k, s)| *k == key && !*s).count();
                let was = touching.contains(&key);
                // Per pair: starts and ends alternate, so their counts differ by at most one,
                // beginning with an end when touching and with a start when not.
                let now = match (was, n_start as i64 - n_end as i64) {
                    (false, 1) | (true, 0) => true,
                    (false, 0) | (true, -1) => false,
                    _ => panic!(
                        "seed {seed} frame {frame}: pair {key:?} touching {was}, {n_start} starts, {n_end} ends"
                    ),
                };
                if now {
                    touching.insert(key);
                } else {
                    touching.remove(&key);
                }
            }
            starts += messages.0.len();
            ends += messages.1.len();
            let (expected, close) = &reference;
            let differ: Vec<_> = touching
                .symmetric_difference(expected)
                .filter(|k| !close.contains(k))
                .collect();
            assert!(
                differ.is_empty(),
                "seed {seed} frame {frame}: messages say {touching:?}, brute force {expected:?} ({differ:?})"
            );
            // Pairs too close to call follow the world, whatever it decided.
            let world = app.world().resource::<CollisionWorld>();
            for key in close {
                let (Some(a), Some(b)) = (world.handle(key.0), world.handle(key.1)) else {
                    continue;
                };
                let contact = world
                    .world()
                    .contacts_of(a)
                    .any(|(x, y, _)| x == b || y == b);
                assert_eq!(touching.contains(key), contact, "seed {seed} frame {frame}");
            }
            let mut everyone = app
                .world_mut()
                .query_filtered::<(Entity, &CollidingEntities), Allow<Disabled>>();
            for (entity, set) in everyone.iter(app.world()) {
                let mine: BTreeSet<Entity> = touching
                    .iter()
                    .filter_map(|&(a, b)| (a == entity).then_some(b).or((b == entity).then_some(a)))
                    .collect();
                let seen: BTreeSet<Entity> = set.0.iter().copied().collect();
                assert_eq!(seen, mine, "seed {seed} frame {frame}, entity {entity}");
            }
            assert!(app.world().resource::<CollisionWorld>().errors().is_empty());
        }
    }
    assert!(starts > 300 && ends > 200, "{starts} starts, {ends} ends");
    assert!(skipped > 100 && tripled > 100, "{skipped} {tripled}");
}

#[derive(Component)]
struct Mover;

/// Moves the `Mover` entities one unit along x.
fn push_movers(mut movers: Query<&mut Transform, With<Mover>>) {
    for mut t in &mut movers {
        t.translation.x += 1.0;
    }
}

#[test]
fn a_move_in_the_schedule_counts_at_once_and_one_between_runs_at_the_next_run() {
    let mut app = fixed_app();
    // The game's fixed-step system, before the plugin's sets (as `FixedUpdate` runs before
    // `FixedPostUpdate`).
    app.add_systems(Fixed, push_movers.before(Collide2dSystems::Propagate));
    let wall = app.world_mut().spawn((ball(0.5), at(2.5, 0.0))).id();
    // A mover under a parent, three levels down, and a plain one.
    let root = app.world_mut().spawn(at(-1.0, 5.0)).id();
    let middle = app.world_mut().spawn((at(0.5, 0.0), ChildOf(root))).id();
    let child = app
        .world_mut()
        .spawn((ball(0.5), at(0.5, -5.0), ChildOf(middle)))
        .id();
    app.world_mut().entity_mut(root).insert(Mover);
    app.update();
    // The first run moves the root to x = 0: the child sits at x = 1, touching the wall at
    // 2.5 only once moved again.
    let (started, _) = fixed_step(&mut app);
    assert_eq!(started, vec![]);
    let (started, _) = fixed_step(&mut app);
    assert_eq!(
        pairs(&started),
        vec![(wall, child)],
        "seen in the run that moved it"
    );
    let placed = |app: &App| {
        let world = app.world().resource::<CollisionWorld>();
        world
            .world()
            .get(world.handle(child).unwrap())
            .unwrap()
            .world_transform()
            .p
    };
    assert_eq!(placed(&app), lib(2.0, 0.0));

    // Moved between runs (in `Update`): the next run places it, however many frames later.
    app.world_mut().entity_mut(root).remove::<Mover>();
    app.world_mut()
        .get_mut::<Transform>(middle)
        .unwrap()
        .translation
        .x = 10.5;
    for _ in 0..3 {
        app.update();
    }
    let (_, ended) = fixed_step(&mut app);
    assert_eq!(ended.len(), 1);
    assert_eq!(placed(&app), lib(12.0, 0.0));
}

#[test]
fn a_deep_hierarchy_of_turns_and_mirrors_places_its_leaf_as_bevy_does() {
    let mut app = app();
    let mut parent = app.world_mut().spawn(at(1e5, -2e5)).id();
    let root = parent;
    for level in 0..40 {
        let mut t = at(0.7, 0.1).with_rotation(Quat::from_rotation_z(0.3));
        if level % 7 == 3 {
            t.scale = Vec3::new(-1.0, 1.0, 1.0);
        }
        if level % 11 == 5 {
            t.rotation = Quat::from_rotation_y(PI) * t.rotation;
        }
        parent = app.world_mut().spawn((t, ChildOf(parent))).id();
    }
    let leaf = app
        .world_mut()
        .spawn((
            Collider::rect(2.0, 0.5)
                .unwrap()
                .with_offset(Vec2::new(0.5, 0.25), 0.4),
            at(0.2, 0.3),
            ChildOf(parent),
        ))
        .id();
    for round in 0..3 {
        step(&mut app);
        let global = *app.world().get::<GlobalTransform>(leaf).unwrap();
        let map = plane_map(&global);
        let collider = app.world().get::<Collider>(leaf).unwrap().clone();
        // Points just inside and just outside each side of the box, in its own frame.
        for (q, inside) in [
            ([0.9, 0.0], true),
            ([1.1, 0.0], false),
            ([-0.9, 0.2], true),
            ([-1.1, 0.2], false),
            ([0.0, 0.2], true),
            ([0.0, 0.3], false),
            ([0.5, -0.2], true),
            ([0.5, -0.3], false),
        ] {
            let p = from_shape_frame(&map, &collider, q);
            let found = hits(&mut app, p[0] as f32, p[1] as f32).contains(&leaf);
            assert_eq!(found, inside, "round {round}, shape-frame point {q:?}");
        }
        // Move the root; the leaf follows at the next step.
        app.world_mut()
            .get_mut::<Transform>(root)
            .unwrap()
            .rotate_z(0.5);
    }
}

#[test]
fn making_a_touching_collider_one_way_keeps_the_contact_it_still_has() {
    let mut app = app();
    let platform = || Collider::rect(4.0, 0.5).unwrap();
    let ground = app.world_mut().spawn((platform(), at(0.0, 0.0))).id();
    // A box resting 0.05 into the platform's top, from above.
    let crate_ = app
        .world_mut()
        .spawn((Collider::rect(1.0, 1.0).unwrap(), at(0.0, 0.7)))
        .id();
    let (started, _) = step(&mut app);
    assert_eq!(pairs(&started), vec![(ground, crate_)]);
    // One-way upwards: the box above it is still held, so nothing starts or ends.
    app.world_mut()
        .entity_mut(ground)
        .insert(platform().with_one_way(Vec2::Y, 0.1));
    assert_eq!(step(&mut app), (vec![], vec![]));
    let world = app.world().resource::<CollisionWorld>();
    let one_way = world
        .world()
        .get(world.handle(ground).unwrap())
        .unwrap()
        .one_way();
    assert!(one_way.is_some_and(|o| o.direction == lib(0.0, 1.0) && o.margin == 0.1));
    // One-way downwards: the box is on its passing side, so the contact ends, once.
    app.world_mut()
        .entity_mut(ground)
        .insert(platform().with_one_way(-Vec2::Y, 0.1));
    let (started, ended) = step(&mut app);
    assert_eq!(started, vec![]);
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].reason, EndReason::Separated);
    // Two-way again: it starts again, once.
    app.world_mut().entity_mut(ground).insert(platform());
    let (started, ended) = step(&mut app);
    assert_eq!((pairs(&started), ended), (vec![(ground, crate_)], vec![]));
}

#[test]
fn a_one_way_platform_mirrored_upside_down_blocks_from_below() {
    let mut app = app();
    let flipped = Transform::from_scale(Vec3::new(1.0, -1.0, 1.0));
    let ceiling = app
        .world_mut()
        .spawn((
            Collider::rect(4.0, 0.5).unwrap().with_one_way(Vec2::Y, 0.1),
            flipped,
        ))
        .id();
    // 0.05 into it from below: held. 0.05 into it from above: passing through.
    let below = app
        .world_mut()
        .spawn((Collider::rect(1.0, 1.0).unwrap(), at(-1.0, -0.7)))
        .id();
    app.world_mut()
        .spawn((Collider::rect(1.0, 1.0).unwrap(), at(1.0, 0.7)));
    let (started, _) = step(&mut app);
    assert_eq!(pairs(&started), vec![(ceiling, below)]);
    // Flipped back at run time: now it holds what is above and lets go of what is below.
    app.world_mut().get_mut::<Transform>(ceiling).unwrap().scale = Vec3::ONE;
    let (started, ended) = step(&mut app);
    assert_eq!(started.len(), 1);
    assert_eq!((ended.len(), ended[0].b), (1, below));
}

#[test]
fn a_one_way_block_mirrored_in_x_blocks_from_the_mirrored_side() {
    let mut app = app();
    // A block that holds what comes from its +x side, on a sprite mirrored in x: it holds
    // what comes from -x.
    let block = app
        .world_mut()
        .spawn((
            Collider::rect(4.0, 4.0).unwrap().with_one_way(Vec2::X, 0.1),
            Transform::from_scale(Vec3::new(-1.0, 1.0, 1.0)),
        ))
        .id();
    let left = app
        .world_mut()
        .spawn((Collider::rect(1.0, 1.0).unwrap(), at(-2.45, 0.0)))
        .id();
    app.world_mut()
        .spawn((Collider::rect(1.0, 1.0).unwrap(), at(2.45, 1.0)));
    let (started, _) = step(&mut app);
    assert_eq!(pairs(&started), vec![(block, left)]);
}

#[test]
fn rays_and_casts_far_out_meet_a_mirrored_shape_where_the_sprite_is() {
    let mut app = app();
    // A right triangle with its long side facing up-right, mirrored in x 1e5 out: the long
    // side faces up-left, along -x + y = 2 about the corner.
    let triangle =
        Collider::polygon(&[Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)]).unwrap();
    let corner = Vec2::new(1e5, -5e4);
    let mirrored = app
        .world_mut()
        .spawn((
            triangle,
            Transform::from_xyz(corner.x, corner.y, 0.0).with_scale(Vec3::new(-1.0, 1.0, 1.0)),
        ))
        .id();
    step(&mut app);
    let (ray, cast, missed, bad) = app
        .world_mut()
        .run_system_once(move |q: SpatialQuery| {
            let all = SpatialQueryFilter::default();
            let origin = corner + Vec2::new(-0.5, 10.0);
            let ray = q.cast_ray(origin, -Vec2::Y, 100.0, &all).unwrap();
            let disc = Shape::from(collide2d::Circle::with_radius(0.25).unwrap());
            let cast = q
                .cast_shape(&disc, origin, 0.0, Vec2::new(0.0, -20.0), &all)
                .unwrap();
            // Where the unmirrored triangle would be: nothing.
            let missed = q
                .cast_ray(corner + Vec2::new(1.5, 10.0), -Vec2::Y, 100.0, &all)
                .unwrap();
            let bad = [
                q.cast_ray(Vec2::NAN, Vec2::X, 1.0, &all).is_err(),
                q.cast_ray(Vec2::ZERO, Vec2::new(f32::INFINITY, 0.0), 1.0, &all)
                    .is_err(),
                q.cast_ray(Vec2::ZERO, Vec2::X, f32::NAN, &all).is_err(),
                q.cast_shape(&disc, Vec2::ZERO, f32::NAN, Vec2::X, &all)
                    .is_err(),
                q.cast_shape(&disc, Vec2::ZERO, 0.0, Vec2::splat(f32::INFINITY), &all)
                    .is_err(),
                q.cast_shape(&disc, Vec2::splat(1e30), 0.0, Vec2::X, &all)
                    .is_err(),
                q.aabb_intersections(Vec2::ONE, Vec2::ZERO, &all).is_err(),
                q.aabb_intersections(Vec2::ZERO, Vec2::splat(f32::NAN), &all)
                    .is_err(),
                q.shape_intersections(&disc, Vec2::new(0.0, f32::INFINITY), 0.0, &all)
                    .is_err(),
                q.point_intersections(Vec2::splat(f32::INFINITY), &all)
                    .is_err(),
            ];
            (ray, cast, missed, bad)
        })
        .unwrap();
    let ray = ray.expect("the mirrored long side is under the ray");
    assert_eq!(ray.entity, mirrored);
    // The long side at x = -0.5 from the corner is at y = 1.5: 8.5 below the origin.
    assert!((ray.distance - 8.5).abs() < 0.02, "{ray:?}");
    let expected_normal = Vec2::new(-1.0, 1.0).normalize();
    assert!((ray.normal - expected_normal).length() < 1e-3, "{ray:?}");
    let cast = cast.expect("the disc meets the long side");
    assert_eq!(cast.entity, mirrored);
    // The disc's centre stops 0.25 off the long side, along its normal.
    let stop = 10.0 - 1.5 - 0.25 * std::f32::consts::SQRT_2;
    assert!((cast.fraction * 20.0 - stop).abs() < 0.02, "{cast:?}");
    assert_eq!(missed, None);
    assert_eq!(bad, [true; 10], "every bad input is an error");
}

#[test]
fn an_entity_moved_while_disabled_comes_back_where_it_was_moved() {
    let mut app = app();
    let a = app.world_mut().spawn((ball(0.5), at(0.0, 0.0))).id();
    let b = app.world_mut().spawn((ball(0.5), at(0.5, 0.0))).id();
    step(&mut app);
    app.world_mut().entity_mut(b).insert(Disabled);
    step(&mut app);
    app.world_mut()
        .get_mut::<Transform>(b)
        .unwrap()
        .translation
        .x = 5.0;
    step(&mut app);
    app.world_mut().entity_mut(b).remove::<Disabled>();
    let (started, _) = step(&mut app);
    assert_eq!(started, vec![], "it came back at x = 5, away from a");
    assert_eq!(hits(&mut app, 5.0, 0.0), vec![b]);
    assert_eq!(hits(&mut app, 0.5, 0.0), vec![a]);

    // A parent (no collider) disabled and moved: its child's collider follows once the
    // parent is enabled again.
    let parent = app.world_mut().spawn(at(-10.0, 0.0)).id();
    let child = app
        .world_mut()
        .spawn((ball(0.5), at(1.0, 0.0), ChildOf(parent)))
        .id();
    step(&mut app);
    assert_eq!(hits(&mut app, -9.0, 0.0), vec![child]);
    app.world_mut().entity_mut(parent).insert(Disabled);
    step(&mut app);
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .y = 10.0;
    step(&mut app);
    app.world_mut().entity_mut(parent).remove::<Disabled>();
    step(&mut app);
    assert_eq!(hits(&mut app, -9.0, 10.0), vec![child]);
    assert_eq!(hits(&mut app, -9.0, 0.0), vec![]);
}

#[test]
fn a_character_whose_parent_shrinks_to_nothing_stays_where_its_entity_is() {
    let mut app = app();
    let parent = app.world_mut().spawn(at(3.0, 0.0)).id();
    let hero = app
        .world_mut()
        .spawn((
            Collider::rect(0.5, 0.5).unwrap(),
            at(1.0, 0.0),
            ChildOf(parent),
            CharacterController::default(),
        ))
        .id();
    step(&mut app);
    app.world_mut().get_mut::<Transform>(parent).unwrap().scale = Vec3::ZERO;
    for _ in 0..3 {
        app.world_mut()
            .get_mut::<CharacterController>(hero)
            .unwrap()
            .motion = Vec2::new(1.0, 0.0);
        step(&mut app);
        let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
        assert!(errors.iter().any(|e| e.entity == Some(hero)), "{errors:?}");
        let global = global_translation(&app, hero);
        let placed = placed_position(&app, hero);
        assert_eq!((placed.x, placed.y), (global.x, global.y));
        assert_world_finite(&app);
    }
}
