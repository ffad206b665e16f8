//! Scale through hierarchies: the collider a `GlobalTransform` gives, however the hierarchy
//! spells it (a mirror in x or y, a half turn about z, x or y, split between a parent and its
//! child), with the entity's scale taken or ignored; and colliders reshaped only when the
//! scale they take changes, never by a move or a turn alone.

use std::f32::consts::PI;

use bevy_app::App;
use bevy_collide2d::prelude::*;
use bevy_ecs::prelude::*;
use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::shape::Shape;

use crate::support::{app, step, Rng};

/// A triangle with no symmetry, so that a mirror or a half turn shows.
fn lopsided() -> Collider {
    Collider::polygon(&[
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.2, 0.6),
    ])
    .unwrap()
}

const LOPSIDED: [[f64; 2]; 3] = [[0.0, 0.0], [1.0, 0.0], [0.2, 0.6]];

/// The plane vertices of `entity`'s polygon collider as the plugin's world placed them.
fn placed_vertices(app: &App, entity: Entity) -> Vec<[f64; 2]> {
    let world = app.world().resource::<CollisionWorld>();
    let collider = world.world().get(world.handle(entity).unwrap()).unwrap();
    let xf = collider.world_transform();
    let Shape::Polygon(polygon) = collider.shape() else {
        panic!("a polygon collider")
    };
    polygon
        .vertices()
        .iter()
        .map(|&v| {
            let w = xf.apply(v);
            [w.x as f64, w.y as f64]
        })
        .collect()
}

/// A target pose in the plane: `p + R(turn) diag(mirror * sx, sy)`.
#[derive(Clone, Copy, Debug)]
struct Pose {
    p: [f64; 2],
    turn: f64,
    mirror: f64,
    sx: f64,
    sy: f64,
}

impl Pose {
    /// A point of the entity's frame in the plane; `with_scale` false leaves the size out
    /// (the mirror stays).
    fn apply(&self, q: [f64; 2], with_scale: bool) -> [f64; 2] {
        let (sx, sy) = if with_scale {
            (self.sx, self.sy)
        } else {
            (1.0, 1.0)
        };
        let (x, y) = (q[0] * self.mirror * sx, q[1] * sy);
        let (s, c) = self.turn.sin_cos();
        [self.p[0] + c * x - s * y, self.p[1] + s * x + c * y]
    }
}

/// The expected plane vertices of the lopsided collider with `offset`, `angle` and own scale
/// `own` on an entity at `pose`, in `f64`.
fn expected_vertices(
    pose: &Pose,
    offset: Vec2,
    angle: f32,
    own: Vec2,
    with_scale: bool,
) -> Vec<[f64; 2]> {
    let (s, c) = (angle as f64).sin_cos();
    LOPSIDED
        .iter()
        .map(|v| {
            let (x, y) = (v[0] * own.x as f64, v[1] * own.y as f64);
            let q = [
                offset.x as f64 + c * x - s * y,
                offset.y as f64 + s * x + c * y,
            ];
            pose.apply(q, with_scale)
        })
        .collect()
}

/// Whether every vertex of `a` has one of `b` within `tolerance` and the counts agree.
fn same_points(a: &[[f64; 2]], b: &[[f64; 2]], tolerance: f64) -> bool {
    a.len() == b.len()
        && a.iter().all(|p| {
            b.iter()
                .any(|q| (p[0] - q[0]).abs() <= tolerance && (p[1] - q[1]).abs() <= tolerance)
        })
}

/// The ways a hierarchy spells `pose`: `(parent, child)` transforms, the parent `None` for an
/// entity of its own. `parent_turn` and `parent_scale` (uniform, positive) shape the split
/// spellings.
fn spellings(
    pose: &Pose,
    parent_turn: f32,
    parent_scale: f32,
) -> Vec<(Option<Transform>, Transform)> {
    let p = Vec3::new(pose.p[0] as f32, pose.p[1] as f32, 0.0);
    let turn = pose.turn as f32;
    let (m, sx, sy) = (pose.mirror as f32, pose.sx as f32, pose.sy as f32);
    let z = Quat::from_rotation_z;
    let mut out = vec![
        // The mirror in x.
        (
            None,
            Transform::from_translation(p)
                .with_rotation(z(turn))
                .with_scale(Vec3::new(m * sx, sy, 1.0)),
        ),
        // A half turn more, both factors negated: the mirror in y when mirrored.
        (
            None,
            Transform::from_translation(p)
                .with_rotation(z(turn + PI))
                .with_scale(Vec3::new(-m * sx, -sy, 1.0)),
        ),
        // A half turn about y is a mirror in x as the camera sees it.
        (
            None,
            Transform::from_translation(p)
                .with_rotation(z(turn) * Quat::from_rotation_y(PI))
                .with_scale(Vec3::new(-m * sx, sy, 1.0)),
        ),
        // A half turn about x is a mirror in y.
        (
            None,
            Transform::from_translation(p)
                .with_rotation(z(turn) * Quat::from_rotation_x(PI))
                .with_scale(Vec3::new(m * sx, -sy, 1.0)),
        ),
    ];
    // Split between a parent (turned, uniformly scaled, mirrored or not) and its child.
    for parent_mirror in [1.0f32, -1.0] {
        let parent = Transform::from_xyz(0.3 * p.x - 1.0, 0.7 * p.y + 2.0, 0.0)
            .with_rotation(z(parent_turn))
            .with_scale(Vec3::new(parent_mirror * parent_scale, parent_scale, 1.0));
        // parent^-1 · pose: under an unmirrored parent the turn is relative; under a mirrored
        // one the mirror moves through the turn and reverses it.
        let (child_turn, child_mirror) = if parent_mirror > 0.0 {
            (turn - parent_turn, m)
        } else {
            (parent_turn - turn, -m)
        };
        let inverse = GlobalTransform::from(parent).affine().inverse();
        let at = inverse.transform_point3(p);
        let child = Transform::from_translation(Vec3::new(at.x, at.y, 0.0))
            .with_rotation(z(child_turn))
            .with_scale(Vec3::new(
                child_mirror * sx / parent_scale,
                sy / parent_scale,
                1.0,
            ));
        out.push((Some(parent), child));
    }
    out
}

fn spawn_spelling(
    app: &mut App,
    spelling: &(Option<Transform>, Transform),
    collider: &Collider,
) -> (Option<Entity>, Entity) {
    let (parent, child) = spelling;
    let parent = parent.map(|t| app.world_mut().spawn(t).id());
    let mut entity = app.world_mut().spawn((collider.clone(), *child));
    if let Some(parent) = parent {
        entity.insert(ChildOf(parent));
    }
    (parent, entity.id())
}

fn random_pose(rng: &mut Rng, uniform: bool) -> Pose {
    let sx = [1.0, 2.0, 0.5, rng.range(0.3, 3.0) as f64][rng.below(4)];
    let sy = if uniform {
        sx
    } else {
        rng.range(0.3, 3.0) as f64
    };
    Pose {
        p: [rng.range(-50.0, 50.0) as f64, rng.range(-50.0, 50.0) as f64],
        turn: rng.range(-PI, PI) as f64,
        mirror: if rng.below(2) == 0 { 1.0 } else { -1.0 },
        sx,
        sy,
    }
}

/// The same `GlobalTransform` spelled six ways, mirrored or not, then moved to another pose
/// spelled the same ways: a collider ignoring its entity's scale is its shape mapped by that
/// transform without its size (the mirror kept), whichever way the hierarchy spells it; a
/// collider taking the scale (uniform scales) is the shape mapped by the whole transform.
#[test]
fn a_collider_ignoring_its_entitys_scale_depends_only_on_the_global_transform() {
    let mut rng = Rng(0x1e0b_5ca1_e5ee_d001);
    let (mut checked, mut mirrored) = (0, 0);
    for case in 0..60 {
        let uniform = case % 2 == 0;
        let own = Vec2::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let offset = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let angle = rng.range(-PI, PI);
        let ignoring = lopsided()
            .with_offset(offset, angle)
            .with_scale(own)
            .with_ignore_object_scale(true);
        // Uniform own scale for the collider taking the entity's: exact for any turn.
        let own_uniform = Vec2::splat(own.x);
        let taking = lopsided()
            .with_offset(offset, angle)
            .with_scale(own_uniform);
        let parent_turn = rng.range(-PI, PI);
        let parent_scale = [1.0, 2.0, rng.range(0.4, 2.5)][rng.below(3)];
        let mut app = app();
        let mut pose = random_pose(&mut rng, uniform);
        let mut spawned = Vec::new();
        for spelling in spellings(&pose, parent_turn, parent_scale) {
            let a = spawn_spelling(&mut app, &spelling, &ignoring);
            let b = spawn_spelling(&mut app, &spelling, &taking);
            spawned.push((a, b));
        }
        for round in 0..2 {
            if round == 1 {
                // Another pose, the same spellings: the hierarchies move, mirror or unmirror.
                pose = random_pose(&mut rng, uniform);
                for (spelling, &((pa, a), (pb, b))) in spellings(&pose, parent_turn, parent_scale)
                    .iter()
                    .zip(&spawned)
                {
                    for (parent, entity) in [(pa, a), (pb, b)] {
                        if let (Some(parent), Some(t)) = (parent, spelling.0) {
                            *app.world_mut().get_mut::<Transform>(parent).unwrap() = t;
                        }
                        *app.world_mut().get_mut::<Transform>(entity).unwrap() = spelling.1;
                    }
                }
            }
            step(&mut app);
            let errors = app.world().resource::<CollisionWorld>().errors().to_vec();
            assert!(errors.is_empty(), "case {case}: {errors:?}");
            mirrored += usize::from(pose.mirror < 0.0);
            let size = 1.0 + pose.sx.max(pose.sy) * 2.0;
            let tolerance = 2e-5 * (50.0 + size);
            let expected = expected_vertices(&pose, offset, angle, own, false);
            let expected_taking = expected_vertices(&pose, offset, angle, own_uniform, true);
            for (spelling, &((_, a), (_, b))) in spawned.iter().enumerate() {
                let placed = placed_vertices(&app, a);
                assert!(
                    same_points(&placed, &expected, tolerance),
                    "case {case} round {round} spelling {spelling}: ignoring the scale, \
                     {placed:?} != {expected:?} ({pose:?})"
                );
                if uniform {
                    let placed = placed_vertices(&app, b);
                    assert!(
                        same_points(&placed, &expected_taking, tolerance * size),
                        "case {case} round {round} spelling {spelling}: taking the scale, \
                         {placed:?} != {expected_taking:?} ({pose:?})"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked == 60 * 2 * 6 && mirrored > 30,
        "{checked} {mirrored}"
    );
}

/// The exact example: a sprite flipped upside down by a scale of (1, -1), by a half turn
/// times a scale of (-1, 1), or by a half turn about x, with a collider ignoring its scale,
/// has the same collider: its shape mirrored upside down, as the sprite (not turned upside
/// down, as one spelling made it; nor upright, as another did).
#[test]
fn an_upside_down_sprite_ignoring_its_scale_is_mirrored_however_it_is_flipped() {
    let mut app = app();
    let collider = lopsided().with_ignore_object_scale(true);
    let flips = [
        Transform::from_scale(Vec3::new(2.0, -2.0, 1.0)),
        Transform::from_rotation(Quat::from_rotation_z(PI)).with_scale(Vec3::new(-2.0, 2.0, 1.0)),
        Transform::from_rotation(Quat::from_rotation_x(PI)).with_scale(Vec3::splat(2.0)),
    ];
    let entities: Vec<Entity> = flips
        .iter()
        .map(|&t| app.world_mut().spawn((collider.clone(), t)).id())
        .collect();
    step(&mut app);
    // (x, y) -> (x, -y), the size left out.
    let expected: Vec<[f64; 2]> = LOPSIDED.iter().map(|v| [v[0], -v[1]]).collect();
    for (i, &e) in entities.iter().enumerate() {
        let placed = placed_vertices(&app, e);
        assert!(
            same_points(&placed, &expected, 1e-5),
            "flip {i}: {placed:?} != {expected:?}"
        );
    }
}

/// A parent of uniform scale `scale` (mirrored in x when `mirror`) carrying `children` collider
/// children of assorted shapes, local poses and scales (seeded scales unless `nice`, then
/// scales of few bits: 1, 0.5, 3, 1.5).
fn platform(
    app: &mut App,
    rng: &mut Rng,
    scale: f32,
    mirror: bool,
    children: usize,
    nice: bool,
) -> (Entity, Vec<Entity>) {
    let sx = if mirror { -scale } else { scale };
    let parent = app
        .world_mut()
        .spawn(Transform::from_scale(Vec3::new(sx, scale, 1.0)))
        .id();
    let kids = (0..children)
        .map(|i| {
            let collider = match i % 4 {
                0 => Collider::circle(rng.range(0.1, 0.5)).unwrap(),
                1 => Collider::rect(rng.range(0.1, 1.0), rng.range(0.1, 1.0)).unwrap(),
                2 => Collider::capsule(Vec2::ZERO, Vec2::new(0.5, 0.2), 0.1).unwrap(),
                _ => lopsided()
                    .with_offset(Vec2::new(0.2, -0.1), rng.range(-PI, PI))
                    .with_ignore_object_scale(i % 8 == 7),
            };
            let own = [1.0, 0.5, 3.0, 1.5][rng.below(4)];
            let own = if nice { own } else { rng.range(0.3, 3.0) };
            let local = Transform::from_xyz(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0), 0.0)
                .with_rotation(Quat::from_rotation_z(rng.range(-PI, PI)))
                .with_scale(Vec3::new(own, own, 1.0));
            app.world_mut()
                .spawn((collider, local, ChildOf(parent)))
                .id()
        })
        .collect();
    (parent, kids)
}

/// Each of `kids`' colliders in `app` equals the one a fresh app builds from the same
/// transforms: same shape, same placement, same offset.
fn assert_as_built_fresh(app: &App, parent: Entity, kids: &[Entity], label: &str) {
    let mut fresh = crate::support::app();
    let fresh_parent = fresh
        .world_mut()
        .spawn(*app.world().get::<Transform>(parent).unwrap())
        .id();
    let fresh_kids: Vec<Entity> = kids
        .iter()
        .map(|&k| {
            let collider = app.world().get::<Collider>(k).unwrap().clone();
            let t = *app.world().get::<Transform>(k).unwrap();
            fresh
                .world_mut()
                .spawn((collider, t, ChildOf(fresh_parent)))
                .id()
        })
        .collect();
    step(&mut fresh);
    let ours = app.world().resource::<CollisionWorld>();
    let theirs = fresh.world().resource::<CollisionWorld>();
    for (&k, &f) in kids.iter().zip(&fresh_kids) {
        let a = ours.world().get(ours.handle(k).unwrap()).unwrap();
        let b = theirs.world().get(theirs.handle(f).unwrap()).unwrap();
        assert_eq!(a.shape(), b.shape(), "{label}: shape of {k}");
        assert_eq!(a.offset(), b.offset(), "{label}: offset of {k}");
        assert_eq!(a.transform(), b.transform(), "{label}: placement of {k}");
    }
}

/// A turning, moving parent of uniform scale (2, 0.5, 3, 1.25 or a seeded one; mirrored or
/// not) carrying 100 collider children (of scales 1, 0.5, 3, 1.5 or seeded ones) reshapes
/// none of them (scales of few bits) or almost none (seeded scales) while only its turn and place
/// change, and each child's collider stays the one a fresh build makes; a change of the
/// parent's scale reshapes each child once.
#[test]
fn a_turning_scaled_platform_moves_its_children_without_reshaping_them() {
    let mut rng = Rng(0x0009_1a7f_0e5e_ed02);
    let (mut moves, mut reshaped_by_moves, mut random_scales) = (0u64, 0u64, 0);
    for case in 0..8 {
        let nice = [2.0, 0.5, 3.0, 1.25][case % 4];
        let scale = if case >= 4 {
            random_scales += 1;
            rng.range(0.3, 4.0)
        } else {
            nice
        };
        let mut app = app();
        let (parent, kids) = platform(&mut app, &mut rng, scale, case % 3 == 1, 100, case < 4);
        step(&mut app);
        let built = |app: &App| app.world().resource::<CollisionWorld>().shapes_built();
        assert_eq!(
            built(&app),
            100,
            "case {case}: one shape per child to begin with"
        );
        for frame in 0..24 {
            let mut t = app.world_mut().get_mut::<Transform>(parent).unwrap();
            t.translation += Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0);
            t.rotation = Quat::from_rotation_z(rng.range(-PI, PI));
            let before = built(&app);
            step(&mut app);
            moves += 100;
            let reshaped = built(&app) - before;
            reshaped_by_moves += reshaped;
            if case < 4 {
                assert_eq!(reshaped, 0, "case {case} (scale {scale}) frame {frame}");
            }
            if frame % 6 == 5 {
                assert_as_built_fresh(&app, parent, &kids, &format!("case {case} frame {frame}"));
            }
        }
        // A new scale reshapes each child once (those ignoring it: only when the mirror flips).
        let mut t = app.world_mut().get_mut::<Transform>(parent).unwrap();
        t.scale = Vec3::new(-t.scale.x * 1.5, t.scale.y * 1.5, 1.0);
        let before = built(&app);
        step(&mut app);
        assert_eq!(built(&app) - before, 100, "case {case}: the scale changed");
        assert_as_built_fresh(&app, parent, &kids, &format!("case {case} rescaled"));
    }
    // Seeded scales may sit on a rounding boundary of the scale read (a reshape, still the
    // fresh build's shape); rarely.
    assert!(random_scales == 4 && moves == 8 * 24 * 100);
    assert!(
        reshaped_by_moves * 100 <= moves,
        "{reshaped_by_moves} reshapes in {moves} moves"
    );
}

/// The exact example: a parent of scale 2 turned a little at each step reshapes its child's
/// collider at none of them (the scale read off the turned transform rounded differently at
/// each turn, and reshaped the child at almost every step).
#[test]
fn a_parent_of_scale_two_turning_reshapes_its_child_once() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn(Transform::from_scale(Vec3::new(2.0, 2.0, 1.0)))
        .id();
    let child = app
        .world_mut()
        .spawn((
            Collider::rect(1.0, 0.5).unwrap(),
            Transform::from_xyz(1.0, 0.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    step(&mut app);
    for i in 1..=90 {
        app.world_mut()
            .get_mut::<Transform>(parent)
            .unwrap()
            .rotation = Quat::from_rotation_z(i as f32 * 0.07);
        step(&mut app);
    }
    let world = app.world().resource::<CollisionWorld>();
    assert_eq!(world.shapes_built(), 1);
    let collider = world.world().get(world.handle(child).unwrap()).unwrap();
    assert_eq!(
        collider.shape(),
        &Shape::from(collide2d::Polygon::rect(2.0, 1.0).unwrap())
    );
}
