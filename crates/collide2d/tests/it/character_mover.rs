//! The character mover's acceptance runs: the reported cases, creases, steps and ledges, floors,
//! the game features, and levels after Box2D v3's mover samples. All seeded and deterministic.

use crate::support;

use collide2d::level::{Tile, TileMap};
use collide2d::query::collide_all;
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Segment, Shape};
use collide2d::world::{
    Collider, ColliderHandle, MoveOptions, MoveResult, QueryFilter, TileGeometry, TileMapColliders,
    World,
};
use collide2d::{Transform, Vec2};
use std::f32::consts::{FRAC_PI_2, PI};
use support::Rng;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

const SKIN: f32 = 0.01;

/// The four characters: circle, box, rounded box, capsule.
fn movers() -> [(&'static str, Shape); 4] {
    [
        ("circle", Shape::from(Circle::with_radius(0.4).unwrap())),
        ("box", Shape::from(Polygon::rect(0.8, 0.8).unwrap())),
        (
            "rounded box",
            Shape::from(Polygon::rounded_rect(0.8, 0.8, 0.15).unwrap()),
        ),
        ("capsule", Shape::from(Capsule::vertical(0.8, 0.3).unwrap())),
    ]
}

fn slab(world: &mut World, center: Vec2, width: f32, height: f32, angle: f32) -> ColliderHandle {
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(width, height).unwrap()))
                .with_transform(Transform::new(center, angle)),
        )
        .unwrap()
}

fn place(world: &mut World, shape: &Shape, at: Vec2) -> ColliderHandle {
    world
        .insert(Collider::new(shape.clone()).with_transform(Transform::new(at, 0.0)))
        .unwrap()
}

fn at(world: &World, hero: ColliderHandle) -> Vec2 {
    world.get(hero).unwrap().transform().p
}

/// The deepest overlap of `hero` with any other collider (0 when it overlaps none).
pub(crate) fn depth(world: &World, hero: ColliderHandle) -> f32 {
    let me = world.get(hero).unwrap();
    let mut manifolds = Vec::new();
    let mut deepest = 0.0f32;
    for (handle, other) in world.iter() {
        if handle == hero {
            continue;
        }
        manifolds.clear();
        collide_all(
            me.shape(),
            &me.world_transform(),
            other.shape(),
            &other.world_transform(),
            0.0,
            &mut manifolds,
        );
        for manifold in &manifolds {
            deepest = deepest.max(manifold.max_penetration());
        }
    }
    deepest
}

/// Whether anything is under the character: its shape cast down by twice the skin hits.
fn supported(world: &World, hero: ColliderHandle) -> bool {
    let me = world.get(hero).unwrap();
    world
        .shape_cast(
            me.shape(),
            &me.world_transform(),
            v(0.0, -2.0 * SKIN),
            &QueryFilter::default().excluding(&[hero]),
            Default::default(),
        )
        .unwrap()
        .is_some()
}

fn step(world: &mut World, hero: ColliderHandle, delta: Vec2) -> MoveResult {
    world
        .move_and_slide(hero, delta, MoveOptions::default())
        .unwrap()
}

// ---------------------------------------------------------------------------------------------
// The reported cases.

/// A floor plus a slope whose normal is (0.8, 0.6) (Box2D's `Wedge` sample, samples/
/// sample_continuous.cpp, has this crease): pushed down and left into it, the capsule used to
/// move up the slope, against the request, and oscillate forever. Now it settles and stays,
/// never climbing the slope (too steep to walk) and never moving against the request less the
/// part the floor absorbs (`MoveResult::absorbed`).
#[test]
fn a_capsule_pushed_into_a_wedge_settles_without_moving_against_the_request() {
    let mut world = World::new();
    slab(&mut world, v(0.0, -1.0), 200.0, 2.0, 0.0);
    let n = v(0.8, 0.6);
    slab(&mut world, -n, 20.0, 2.0, n.y.atan2(n.x) - FRAC_PI_2);
    let hero = place(
        &mut world,
        &Shape::from(Capsule::vertical(0.8, 0.2).unwrap()),
        v(2.0, 2.5),
    );
    let request = v(-1.0, -1.0);
    let mut last = Vec2::ZERO;
    for call in 0..12 {
        let result = step(&mut world, hero, request);
        assert!(
            result.moved.dot(request - result.absorbed) >= -1e-6 * request.length(),
            "call {call} moved against the request: {result:?}"
        );
        assert!(result.moved.y <= 1e-6, "call {call} climbed: {result:?}");
        assert!(depth(&world, hero) <= 1e-3);
        last = result.moved;
    }
    assert!(last.length() < 1e-4, "still moving: {last:?}");
}

/// A circle resting a skin above a segment floor (and a chain, and a tile outline) walks on.
#[test]
fn a_circle_walks_along_segment_chain_and_outline_floors() {
    let circle = Shape::from(Circle::with_radius(0.5).unwrap());
    let floors: Vec<Shape> = vec![
        Shape::from(Segment::new(v(50.0, 0.0), v(-50.0, 0.0)).unwrap()),
        Shape::from(Chain::open(&[v(50.0, 0.0), v(0.0, 0.0), v(-50.0, 0.0)]).unwrap()),
    ];
    for floor in floors {
        let mut world = World::new();
        world.insert(Collider::new(floor.clone())).unwrap();
        let hero = place(&mut world, &circle, v(0.02, 0.51));
        for _ in 0..20 {
            let result = step(&mut world, hero, v(0.1, 0.0));
            assert!((result.moved.x - 0.1).abs() < 1e-4, "{floor:?}: {result:?}");
        }
    }
    let mut world = World::new();
    let map = TileMap::from_fn(100, 2, 1.0, Vec2::ZERO, |_, y| {
        if y == 0 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).unwrap();
    let hero = place(&mut world, &circle, v(3.02, 1.51));
    for _ in 0..20 {
        let result = step(&mut world, hero, v(0.1, 0.0));
        assert!((result.moved.x - 0.1).abs() < 1e-4, "outline: {result:?}");
    }
}

/// A box walking onto a floor box 1e-4 higher than the one it stands on crosses the seam.
#[test]
fn a_box_crosses_a_seam_a_hundredth_of_the_skin_high() {
    let mut world = World::new();
    slab(&mut world, v(0.5, -0.5), 1.0, 1.0, 0.0);
    slab(&mut world, v(1.5, -0.5 + 1e-4), 1.0, 1.0, 0.0);
    let hero = place(
        &mut world,
        &Shape::from(Polygon::rect(1.0, 1.0).unwrap()),
        v(-0.2, 0.51),
    );
    for _ in 0..20 {
        step(&mut world, hero, v(0.1, 0.0));
    }
    assert!(
        (at(&world, hero).x - 1.8).abs() < 1e-3,
        "{:?}",
        at(&world, hero)
    );
}

/// A box beside a one-tile step, its bottom below the step's top, moving right or down-right:
/// it is not "on the floor" in mid-air, it is on a wall, and it falls.
#[test]
fn a_box_beside_a_step_is_on_a_wall_and_falls() {
    let mut world = World::new();
    let map = TileMap::from_fn(10, 3, 1.0, Vec2::ZERO, |x, y| {
        if y == 0 || (y == 1 && x >= 7) {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).unwrap();
    let hero = place(
        &mut world,
        &Shape::from(Polygon::rect(0.8, 1.4).unwrap()),
        v(6.59, 2.6),
    );
    let result = step(&mut world, hero, v(0.1, -0.05));
    assert!(!result.on_floor, "{result:?}");
    assert!(result.on_wall, "{result:?}");
    assert!(result.moved.y < -0.04, "the fall stopped: {result:?}");
}

// ---------------------------------------------------------------------------------------------
// Creases.

/// A crease of opening `angle` with its vertex at `vertex`, opening along `bisector`: two slabs
/// whose top faces meet at the vertex. Returns the two face normals.
fn crease(world: &mut World, vertex: Vec2, bisector_angle: f32, angle: f32) -> (Vec2, Vec2) {
    let half = FRAC_PI_2 - 0.5 * angle;
    let mut normals = [Vec2::ZERO; 2];
    for (i, side) in [1.0f32, -1.0].into_iter().enumerate() {
        let normal_angle = bisector_angle + side * half;
        let normal = v(normal_angle.cos(), normal_angle.sin());
        // The face runs from the vertex away from the other face.
        let along = v(normal.y, -normal.x) * side;
        slab(
            world,
            vertex + along * 50.0 - normal * 1.0,
            100.0 + 2.0,
            2.0,
            normal_angle - FRAC_PI_2,
        );
        normals[i] = normal;
    }
    (normals[0], normals[1])
}

/// Random creases from 10° to 170° at random places and tilts, with each mover: random pushes
/// never go against the request (less the downward part a walkable side absorbs, see
/// `MoveResult::absorbed`), are never longer than it and never leave the character more
/// than 1e-3 deep in anything; under constant gravity, started up to one step above its resting
/// place, it is still (|moved| < 1e-4) within 3 calls and stays still. (The pushes run with
/// step-up off: stepping onto a ledge adds motion the request did not ask for, by design.)
#[test]
fn creases_never_push_back_never_overshoot_and_settle_under_gravity() {
    let mut rng = Rng(0xc4ea5e);
    let no_step = MoveOptions::default().with_step_height(0.0);
    for (name, shape) in movers() {
        for case in 0..2000 {
            let angle = rng.range(10.0, 170.0).to_radians();
            // Tilted so that gravity still holds the character in the crease.
            let tilt = rng.range(-0.8, 0.8) * (FRAC_PI_2 - 0.5 * angle);
            let vertex = rng.point(10.0);
            let mut world = World::new();
            crease(&mut world, vertex, FRAC_PI_2 + tilt, angle);
            let bisector = v(-tilt.sin(), tilt.cos());
            let hero = place(&mut world, &shape, vertex + bisector * 8.0);
            let gravity = v(0.0, -rng.range(0.05, 0.5));
            // Fall to the bottom of the crease.
            for _ in 0..400 {
                if step(&mut world, hero, gravity).moved.length() < 1e-4 {
                    break;
                }
            }
            let rest = at(&world, hero);
            assert!(depth(&world, hero) <= 1e-3, "{name} case {case}");
            // Random pushes.
            for push in 0..4 {
                let request = Vec2::from_angle(rng.angle()) * rng.log_size(1e-3, 2.0);
                let before = at(&world, hero);
                let result = world.move_and_slide(hero, request, no_step).unwrap();
                // Step-up (off in these runs) and snapping (reported, subtracted here) are the
                // documented additions to the solved motion.
                let moved = at(&world, hero) - before + Vec2::Y * result.snap;
                // Positions are f32: both ends of `moved` are rounded to a few ulps of |p|.
                let rounding = 4.0 * f32::EPSILON * before.length().max(1.0);
                assert!(
                    moved.dot(request - result.absorbed) >= -(1e-6 + rounding) * request.length(),
                    "{name} case {case} push {push}: crease {:.1}°, moved {moved:?} against {request:?}: {result:?}",
                    angle.to_degrees()
                );
                assert!(
                    moved.length() <= request.length() * (1.0 + 1e-6) + rounding,
                    "{name} case {case} push {push}: moved {moved:?} for {request:?}"
                );
                let deep = depth(&world, hero);
                assert!(deep <= 1e-3, "{name} case {case} push {push}: {deep} deep");
            }
            // Settling from up to one gravity step above the resting place.
            let lift = rng.range(0.0, 1.0) * gravity.length();
            world
                .set_transform(hero, Transform::new(rest + bisector * lift, 0.0))
                .unwrap();
            let mut still_from = None;
            for call in 0..6 {
                let moved = step(&mut world, hero, gravity).moved;
                if moved.length() < 1e-4 {
                    still_from.get_or_insert(call);
                } else {
                    assert!(
                        still_from.is_none(),
                        "{name} case {case}: moved {moved:?} again at call {call} (crease {:.1}°)",
                        angle.to_degrees()
                    );
                }
            }
            assert!(
                still_from.is_some_and(|call| call < 3),
                "{name} case {case}: not still within 3 calls (crease {:.1}°, {still_from:?})",
                angle.to_degrees()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Steps and ledges.

/// Step levels: a floor with a step up of `height` tiles from x = 8, as tile outlines, tile
/// rectangles, one box per tile, and a chain.
fn step_level(kind: usize, height: u32) -> World {
    let mut world = World::new();
    let solid = |x: u32, y: u32| y == 0 || (x >= 8 && y <= height);
    let map = TileMap::from_fn(16, height + 4, 1.0, Vec2::ZERO, |x, y| {
        if solid(x, y) {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    match kind {
        0 => {
            TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).unwrap();
        }
        1 => {
            TileMapColliders::insert(&mut world, &map, TileGeometry::Rectangles).unwrap();
        }
        2 => {
            for x in 0..16 {
                for y in 0..=height {
                    if solid(x, y) {
                        slab(&mut world, v(x as f32 + 0.5, y as f32 + 0.5), 1.0, 1.0, 0.0);
                    }
                }
            }
        }
        _ => {
            let top = height as f32 + 1.0;
            let chain =
                Chain::open(&[v(16.0, top), v(8.0, top), v(8.0, 1.0), v(0.0, 1.0)]).unwrap();
            world.insert(Collider::new(Shape::from(chain))).unwrap();
        }
    }
    world
}

/// One- and three-tile steps in four geometries, every mover, pushes in all eight directions
/// from random starts near the step: never on the floor without support, on a wall whenever the
/// step's face stopped the motion, and falling when nothing holds the character up.
#[test]
fn steps_and_ledges_report_what_really_holds_the_character() {
    let mut rng = Rng(0x57e95);
    let mut checked = 0usize;
    for kind in 0..4 {
        for height in [1u32, 3] {
            let mut world = step_level(kind, height);
            for (name, shape) in movers() {
                let hero = place(&mut world, &shape, v(2.0, 5.0));
                let half = shape.aabb(&Transform::IDENTITY).max;
                for case in 0..60 {
                    // Left of the step's face, anywhere from the floor to above the step.
                    let start = v(
                        8.0 - half.x - SKIN - rng.range(0.0, 0.6),
                        1.0 + half.y + SKIN + rng.range(0.0, height as f32 + 0.5),
                    );
                    for direction in 0..8 {
                        let angle = direction as f32 * PI / 4.0;
                        let request = Vec2::from_angle(angle) * 0.1;
                        world
                            .set_transform(hero, Transform::new(start, 0.0))
                            .unwrap();
                        let result = step(&mut world, hero, request);
                        let label = format!(
                            "{name}, geometry {kind}, height {height}, case {case}, start {start:?}, request {request:?}: {result:?}"
                        );
                        if result.on_floor {
                            assert!(supported(&world, hero), "on the floor in mid-air: {label}");
                        }
                        let end = at(&world, hero);
                        let right = end.x + half.x;
                        // A corner within the rounded part's walkable arc (up to r(1 − cos 45°)
                        // below the bottom: 0.09 for the capsule) is a floor, not a wall.
                        let below_top = end.y - half.y < height as f32 + 1.0 - 0.1;
                        // Pushed right into the step's face and stopped short of the request.
                        if request.x > 0.05
                            && below_top
                            && right > 8.0 - 2.0 * SKIN
                            && result.moved.x < request.x - 1e-3
                            && result.step == 0.0
                        {
                            assert!(
                                result.on_wall,
                                "stopped by the face, not on a wall: {label}"
                            );
                        }
                        // Nothing under it and the request goes down: it falls.
                        if request.y < -1e-3 && !supported(&world, hero) && !result.on_floor {
                            assert!(result.moved.y < 0.0, "hangs in the air: {label}");
                        }
                        assert!(depth(&world, hero) <= 1e-3, "deep: {label}");
                        checked += 1;
                    }
                }
                world.remove(hero).unwrap();
            }
        }
    }
    assert!(checked >= 15_000);
}

// ---------------------------------------------------------------------------------------------
// Floors.

/// A 120-unit floor starting at `origin`: boxes with random vertical offsets up to half the
/// skin, a chain, tile outlines or tile rectangles. Returns the world and the floor's top.
fn floor_level(kind: usize, origin: Vec2, rng: &mut Rng) -> World {
    let mut world = World::new();
    match kind {
        0 => {
            for i in 0..120 {
                let offset = rng.range(-0.5, 0.5) * SKIN;
                slab(
                    &mut world,
                    origin + v(i as f32 + 0.5, -0.5 + offset),
                    1.0,
                    1.0,
                    0.0,
                );
            }
        }
        1 => {
            let points: Vec<Vec2> = (0..=120).rev().map(|i| origin + v(i as f32, 0.0)).collect();
            world
                .insert(Collider::new(Shape::from(Chain::open(&points).unwrap())))
                .unwrap();
        }
        _ => {
            let map = TileMap::from_fn(120, 3, 1.0, origin - v(0.0, 1.0), |_, y| {
                if y == 0 {
                    Tile::SOLID
                } else {
                    Tile::EMPTY
                }
            })
            .unwrap();
            let geometry = if kind == 2 {
                TileGeometry::Outlines
            } else {
                TileGeometry::Rectangles
            };
            TileMapColliders::insert(&mut world, &map, geometry).unwrap();
        }
    }
    world
}

/// The gap between the character and what is under it (a cast straight down, up to 1 unit).
fn gap_below(world: &World, hero: ColliderHandle) -> f32 {
    let me = world.get(hero).unwrap();
    world
        .shape_cast(
            me.shape(),
            &me.world_transform(),
            v(0.0, -1.0),
            &QueryFilter::default().excluding(&[hero]),
            Default::default(),
        )
        .unwrap()
        .map_or(1.0, |hit| hit.fraction)
}

/// Every floor kind, every mover, anywhere within ±10,000 units of the origin: walking 100
/// units (0.1 per call with a little gravity) gets at least 99 % of the way, and the gap to the
/// floor under the character changes by no more than the skin (it neither climbs nor sinks).
#[test]
fn floors_are_walked_end_to_end_anywhere() {
    let mut rng = Rng(0xf1005);
    for kind in 0..4 {
        for run in 0..6 {
            let origin = rng.point(10_000.0);
            let mut world = floor_level(kind, origin, &mut rng);
            for (name, shape) in movers() {
                let half = shape.aabb(&Transform::IDENTITY).max;
                let start = origin + v(5.0, half.y + SKIN);
                let hero = place(&mut world, &shape, start);
                // Settle first.
                for _ in 0..5 {
                    step(&mut world, hero, v(0.0, -0.05));
                }
                let from = at(&world, hero);
                let gap_from = gap_below(&world, hero);
                for _ in 0..1000 {
                    step(&mut world, hero, v(0.1, -0.02));
                }
                let to = at(&world, hero);
                let gap_to = gap_below(&world, hero);
                let progress = to.x - from.x;
                assert!(
                    progress >= 99.0,
                    "{name} on floor {kind} run {run} at {origin:?}: {progress} of 100"
                );
                assert!(
                    (gap_to - gap_from).abs() <= SKIN,
                    "{name} on floor {kind} run {run} at {origin:?}: drifted {} from the floor",
                    gap_to - gap_from
                );
                world.remove(hero).unwrap();
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Game features: each test fails with its feature switched off.

#[test]
fn step_up_climbs_a_low_ledge_only_when_enabled() {
    for (name, shape) in movers() {
        for enabled in [true, false] {
            let mut world = World::new();
            slab(&mut world, v(0.0, -0.5), 40.0, 1.0, 0.0);
            slab(&mut world, v(10.0, -0.5 + 0.15), 10.0, 1.0, 0.0); // a ledge 0.15 high
            let half = shape.aabb(&Transform::IDENTITY).max;
            let hero = place(&mut world, &shape, v(2.0, half.y + SKIN));
            let opts = MoveOptions::default().with_step_height(if enabled { 0.2 } else { 0.0 });
            for _ in 0..60 {
                world.move_and_slide(hero, v(0.1, -0.02), opts).unwrap();
            }
            let x = at(&world, hero).x;
            if enabled {
                assert!(x > 6.0, "{name} did not step up: x = {x}");
            } else {
                assert!(x < 5.0, "{name} stepped up with stepping off: x = {x}");
            }
        }
    }
}

#[test]
fn a_ledge_higher_than_the_step_height_is_a_wall() {
    for (name, shape) in movers() {
        let mut world = World::new();
        slab(&mut world, v(0.0, -0.5), 40.0, 1.0, 0.0);
        slab(&mut world, v(10.0, -0.5 + 0.35), 10.0, 1.0, 0.0);
        let half = shape.aabb(&Transform::IDENTITY).max;
        let hero = place(&mut world, &shape, v(2.0, half.y + SKIN));
        let mut walled = false;
        for _ in 0..60 {
            walled |= step(&mut world, hero, v(0.1, -0.02)).on_wall;
        }
        assert!(
            walled && at(&world, hero).x < 5.0,
            "{name}: {:?}",
            at(&world, hero)
        );
    }
}

#[test]
fn snapping_keeps_the_character_on_a_downward_slope_only_when_enabled() {
    for (name, shape) in movers() {
        for enabled in [true, false] {
            let mut world = World::new();
            slab(&mut world, v(-10.0, -0.5), 20.0, 1.0, 0.0);
            // A 30° slope down from x = 0.
            let angle = -30f32.to_radians();
            let dir = Vec2::from_angle(angle);
            let normal = v(-dir.y, dir.x);
            slab(&mut world, dir * 10.0 - normal * 0.5, 20.0, 1.0, angle);
            let half = shape.aabb(&Transform::IDENTITY).max;
            let hero = place(&mut world, &shape, v(-3.0, half.y + SKIN));
            let opts = MoveOptions::default().with_snap_distance(if enabled { 0.2 } else { 0.0 });
            let mut airborne = 0;
            for _ in 0..60 {
                let result = world.move_and_slide(hero, v(0.1, -0.01), opts).unwrap();
                airborne += usize::from(!result.on_floor);
            }
            if enabled {
                assert_eq!(airborne, 0, "{name} left the slope with snapping on");
            } else {
                assert!(airborne > 0, "{name} stayed on the slope with snapping off");
            }
        }
    }
}

#[test]
fn gravity_alone_leaves_a_character_standing_on_a_walkable_slope_only_when_enabled() {
    for (name, shape) in movers() {
        for enabled in [true, false] {
            let mut world = World::new();
            let angle = 30f32.to_radians();
            slab(&mut world, v(0.0, -0.5), 40.0, 1.0, angle);
            let normal = v(-angle.sin(), angle.cos());
            let hero = place(&mut world, &shape, normal * 1.0);
            let opts = MoveOptions::default().with_stop_on_slope(enabled);
            for _ in 0..40 {
                world.move_and_slide(hero, v(0.0, -0.1), opts).unwrap();
            }
            let before = at(&world, hero);
            for _ in 0..20 {
                world.move_and_slide(hero, v(0.0, -0.1), opts).unwrap();
            }
            let slid = (at(&world, hero) - before).length();
            if enabled {
                assert!(slid < 1e-4, "{name} slid {slid} with stop-on-slope on");
            } else {
                assert!(slid > 0.1, "{name} stood still with stop-on-slope off");
            }
        }
    }
}

#[test]
fn a_character_on_a_moving_platform_is_carried_and_reports_it() {
    for (name, shape) in movers() {
        let mut world = World::new();
        let platform = slab(&mut world, v(0.0, 0.0), 4.0, 0.5, 0.0);
        let half = shape.aabb(&Transform::IDENTITY).max;
        let hero = place(&mut world, &shape, v(0.0, 0.25 + half.y + SKIN));
        let result = step(&mut world, hero, v(0.0, -0.05));
        assert_eq!(result.floor_collider, Some(platform), "{name}");
        for frame in 1..=50 {
            let before = world.get(platform).unwrap().transform();
            let t = frame as f32 * 0.05;
            world
                .set_transform(platform, Transform::new(v(t, 0.3 * t), 0.0))
                .unwrap();
            world
                .carry(hero, platform, before, MoveOptions::default())
                .unwrap();
            let result = step(&mut world, hero, v(0.0, -0.05));
            assert_eq!(
                result.floor_collider,
                Some(platform),
                "{name} frame {frame}"
            );
        }
        let offset = at(&world, hero) - world.get(platform).unwrap().transform().p;
        assert!(offset.x.abs() < 1e-3, "{name} left behind: {offset:?}");
        // Without carrying, the platform leaves it behind.
        let before = at(&world, hero);
        world
            .set_transform(platform, Transform::new(v(10.0, 0.0), 0.0))
            .unwrap();
        assert_eq!(at(&world, hero), before);
    }
}

// ---------------------------------------------------------------------------------------------
// Levels after Box2D v3's mover samples.

/// The points of an SVG path made of M/L/H/V moves (absolute and relative), as Box2D's samples
/// read their level outlines (`Sample::ParsePath` in samples/sample.cpp): each point becomes
/// `(scale (x + offset.x), −scale (y + offset.y))`.
fn svg_points(path: &str, offset: Vec2, scale: f32) -> Vec<Vec2> {
    let mut tokens = Vec::new();
    let mut number = String::new();
    let flush = |number: &mut String, tokens: &mut Vec<String>| {
        if !number.is_empty() {
            tokens.push(std::mem::take(number));
        }
    };
    let mut previous = ' ';
    for c in path.chars() {
        if c.is_ascii_alphabetic() && c != 'e' {
            flush(&mut number, &mut tokens);
            tokens.push(c.to_string());
        } else if c == ',' || c.is_whitespace() {
            flush(&mut number, &mut tokens);
        } else if c == '-' && !number.is_empty() && previous != 'e' {
            flush(&mut number, &mut tokens);
            number.push(c);
        } else {
            number.push(c);
        }
        previous = c;
    }
    flush(&mut number, &mut tokens);
    let mut points = Vec::new();
    let mut current = Vec2::ZERO;
    let mut command = 'M';
    let mut index = 0;
    while index < tokens.len() {
        if let Some(c) = tokens[index]
            .chars()
            .next()
            .filter(|c| c.is_ascii_alphabetic())
        {
            command = c;
            index += 1;
            continue;
        }
        let value = |i: usize| tokens[i].parse::<f32>().unwrap();
        match command {
            'M' | 'L' => {
                current = v(value(index), value(index + 1));
                index += 2;
            }
            'm' | 'l' => {
                current += v(value(index), value(index + 1));
                index += 2;
            }
            'H' => {
                current.x = value(index);
                index += 1;
            }
            'h' => {
                current.x += value(index);
                index += 1;
            }
            'V' => {
                current.y = value(index);
                index += 1;
            }
            'v' => {
                current.y += value(index);
                index += 1;
            }
            other => panic!("unsupported path command {other}"),
        }
        let point = v(
            scale * (current.x + offset.x),
            -scale * (current.y + offset.y),
        );
        if points
            .last()
            .is_none_or(|last: &Vec2| last.distance(point) > 1e-3)
        {
            points.push(point);
        }
    }
    points
}

/// The level of Box2D v3's geometric mover sample (samples/sample_character.cpp,
/// `GeometryMoverSample`, with the mover of samples/geometric_mover.cpp): two closed ground
/// outlines with slopes, a long staircase of 0.26-high steps and creases, and its capsule
/// (0.3 radius, 1.0 between centres) walking right at 6 units/s under gravity 30 units/s² at
/// 60 Hz, jumping at 10 units/s. The sample's player walks each ground end to end (the bridge
/// and elevator between them are bodies, not part of this test); so does this character, with
/// steps up to 0.3 and a jump where a wall stops it.
#[test]
fn the_box2d_mover_level_is_walked_end_to_end() {
    let ground1 = "M -34.395834,201.08333 H 293.68751 v -47.625 h -2.64584 l -10.58333,7.9375 -13.22916,7.9375 -13.24648,5.29167 \
        -31.73269,7.9375 -21.16667,2.64583 -23.8125,10.58333 -15.875,2e-5 v -3.96875 l -17.19792,2e-5 v 2.64582 l \
        -17.19791,0 v -1.32292 h -3.96875 v -1.32292 h -3.96875 v -1.32292 h -3.96875 v -1.32291 h -3.96875 v -1.32292 \
        h -3.96875 v -1.32292 h -3.96875 v -1.32291 l -3.968754,0 v -1.32292 h -3.96875 v -1.32292 h -3.968751 v \
        -1.32291 h -3.96875 v -1.32292 h -3.96875 v -1.32292 h -3.96875 v -1.32291 h -3.96875 v -1.32292 l -3.96875,0 v \
        -1.32292 h -3.968751 v -1.32291 h -3.96875 l -2e-6,-1.32294 H 52.916669 L 39.6875,177.27083 h -5.291667 l \
        -7.937499,5.29167 H 15.875001 l -47.625002,-50.27083 v -26.45834 h -2.645834 l 10e-7,95.25";
    let ground2 = "M 2.6458333,201.08333 H 399.52085 v -23.8125 h -23.8125 l 21.16667,18.52084 -232.83335,-1e-5 -0.0575,2.64584 h \
        -5.29166 v -2.64583 l -7.86855,-1e-5 -0.0114,-2.64583 h -2.64583 l -2.64583,2.64584 h -7.9375 l \
        -2.64584,2.64583 -2.58891,-2.64584 -10.64031,2e-5 v -2.64583 l -7.9375,0 v -2.64584 l -7.9375,0 v -2.64583 l \
        -7.9375,0 v -2.64583 l -7.9375,0 v -2.64583 l -7.937501,-1e-5 v -2.64584 l -7.9375,1e-5 v -2.64583 l \
        -7.937501,-2e-5 V 174.625 l -7.937501,1e-5 v -2.64584 l -5.291669,0 -7.9375,-2.64584 -7.9375,-2.64583 \
        -5.291667,-5.29167 H 21.166667 L 13.229167,158.75 5.2916668,153.45833 H 2.6458334 l -10e-8,47.625";
    let mut world = World::new();
    for (path, offset, position) in [
        (ground1, v(-50.0, -200.0), v(0.0, 0.0)),
        (ground2, v(0.0, -200.0), v(98.0, 0.0)),
    ] {
        let points = svg_points(path, offset, 0.2);
        let chain = Chain::closed(&points[..points.len() - 1]).unwrap();
        world
            .insert(Collider::new(Shape::from(chain)).with_transform(Transform::new(position, 0.0)))
            .unwrap();
    }
    let capsule = Shape::from(Capsule::new(v(0.0, -0.5), v(0.0, 0.5), 0.3).unwrap());
    let opts = MoveOptions::default().with_step_height(0.3);
    let dt = 1.0 / 60.0;
    // Each ground from its left end: walk right, and jump (10 units/s, the sample's jump speed)
    // when a wall stops the character on the floor, as a player does at the 0.53-high steps.
    for (start, goal) in [(v(0.0, 8.0), 47.0), (v(101.0, 11.0), 175.0)] {
        let hero = place(&mut world, &capsule, start);
        let mut velocity = Vec2::ZERO;
        let mut jumps = 0;
        for _ in 0..60 * 40 {
            velocity.x = 6.0;
            velocity.y -= 30.0 * dt;
            let result = world.move_and_slide(hero, velocity * dt, opts).unwrap();
            if (result.on_floor && velocity.y < 0.0) || (result.on_ceiling && velocity.y > 0.0) {
                velocity.y = 0.0;
            }
            if result.on_floor && result.on_wall {
                velocity.y = 10.0;
                jumps += 1;
            }
            let deep = depth(&world, hero);
            assert!(
                deep <= 1e-3,
                "{deep} deep at {:?}: {result:?}",
                at(&world, hero)
            );
            if at(&world, hero).x >= goal {
                break;
            }
        }
        let end = at(&world, hero);
        assert!(
            end.x >= goal,
            "from {start:?}: stopped at {end:?} after {jumps} jumps"
        );
        world.remove(hero).unwrap();
    }
}

/// Box2D v3's `Wedge` sample (samples/sample_continuous.cpp): a circle of radius 0.3 dropped at
/// 200 units/s into the narrow crease between the segments (−4, 8)–(0, 0) and (0, 0)–(0, 8).
/// Box2D's body ends resting in the bottom of the wedge; so does this character, moved at the
/// sample's speed (3.3 units per 60 Hz call), without tunnelling out or sticking on the way.
#[test]
fn the_box2d_wedge_holds_a_fast_circle_at_its_bottom() {
    let mut world = World::new();
    for (a, b) in [(v(-4.0, 8.0), v(0.0, 0.0)), (v(0.0, 0.0), v(0.0, 8.0))] {
        world
            .insert(Collider::new(Shape::from(Segment::new(a, b).unwrap())))
            .unwrap();
    }
    let circle = Shape::from(Circle::with_radius(0.3).unwrap());
    let hero = place(&mut world, &circle, v(-0.45, 10.75));
    let mut last = Vec2::ZERO;
    for _ in 0..120 {
        last = step(&mut world, hero, v(0.0, -200.0 / 60.0)).moved;
        assert!(depth(&world, hero) <= 1e-3);
    }
    let p = at(&world, hero);
    // Inside the wedge, within a radius and a skin of both sides (the bottom is 0.3 / sin 13.3°
    // = 1.3 above the vertex, where the two sides are 0.3 from the centre).
    let slanted = v(2.0, 1.0).normalize(); // the inner normal of (−4, 8)–(0, 0)
    assert!(
        p.x < 0.0 && p.dot(slanted) > 0.0,
        "escaped the wedge: {p:?}"
    );
    assert!(
        (-p.x - 0.3).abs() < 0.02 && (p.dot(slanted) - 0.3).abs() < 0.02,
        "not at the bottom: {p:?}"
    );
    assert!(last.length() < 1e-4, "still moving: {last:?}");
}

/// A start inside geometry is pushed out along the contact normal first, by at most
/// `max_recovery` per call, and the push is reported.
#[test]
fn a_start_inside_the_floor_is_pushed_out_a_bounded_amount_and_reported() {
    for (name, shape) in movers() {
        let mut world = World::new();
        slab(&mut world, v(0.0, -0.5), 20.0, 1.0, 0.0);
        let half = shape.aabb(&Transform::IDENTITY).max;
        // 0.1 into the floor: out in one call, a skin above it.
        let hero = place(&mut world, &shape, v(0.0, half.y - 0.1));
        let result = step(&mut world, hero, v(0.05, 0.0));
        assert!(
            (result.recovery - v(0.0, 0.1 + SKIN)).length() < 2e-3,
            "{name}: {result:?}"
        );
        assert!(depth(&world, hero) <= 1e-3, "{name}");
        assert!((result.moved.x - 0.05).abs() < 1e-4, "{name}: {result:?}");
        // 0.8 into it with the default bound of 0.5: two calls, each push at most 0.5.
        world
            .set_transform(hero, Transform::new(v(0.0, half.y - 0.8), 0.0))
            .unwrap();
        let first = step(&mut world, hero, Vec2::ZERO);
        assert!(
            first.recovery.length() <= 0.5 + 1e-5 && first.recovery.y > 0.49,
            "{name}: {first:?}"
        );
        let second = step(&mut world, hero, Vec2::ZERO);
        assert!(second.recovery.y > 0.0, "{name}: {second:?}");
        assert!(depth(&world, hero) <= 1e-3, "{name}");
    }
}
