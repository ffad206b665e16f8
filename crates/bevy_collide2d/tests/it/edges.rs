//! The edges a game reaches: mirrored and out-of-plane transforms, placements far from the
//! origin, bad transforms.

use std::collections::BTreeSet;
use std::f32::consts::PI;

use bevy_app::App;
use bevy_collide2d::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::system::RunSystemOnce;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::shape::Shape;

use crate::support::{app, step};

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

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
        for case in 0..14 {
            let far = [0.0, 1e3, 1e5, 1e6][case % 4];
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
    let global = app
        .world()
        .get::<GlobalTransform>(hero)
        .unwrap()
        .translation();
    // The box is 1 x 1 under the parent's scale of 2: its centre rests 0.5 above the floor.
    assert!(
        (global.x - (far.x + 4.0)).abs() < 0.05,
        "walked right: {global}"
    );
    assert!(
        (global.y - (far.y + 0.5)).abs() < 0.05,
        "on the floor: {global}"
    );
    let world = app.world().resource::<CollisionWorld>();
    let placed = world
        .world()
        .get(world.handle(hero).unwrap())
        .unwrap()
        .world_transform()
        .p;
    assert!((placed.x - global.x).abs() < 0.02 && (placed.y - global.y).abs() < 0.02);
}
