//! A character walking over seams between floor pieces, resting anywhere in the skin band: the
//! walk is never shortened nor lengthened (whatever the ratio of gravity to walking speed, 45°
//! included), the height never jumps, and nothing pushes it along a seam's hidden side.

use crate::character_mover::depth;
use crate::support::{place, Rng};

use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Shape};
use collide2d::world::{Collider, MoveOptions, TileGeometry, TileMapColliders, World};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The skin a call uses for `shape` near the origin: the default 0.01, at most a fiftieth of
/// its smallest extent.
fn skin_of(shape: &Shape) -> f32 {
    let extent = shape.aabb(&Transform::IDENTITY);
    let smallest = (extent.max - extent.min).min_element();
    (0.02 * smallest).min(0.01)
}

/// `count` floor boxes `tile` wide (less `gap`), tops at 0 (every other one `mismatch`
/// higher), the first from `left`.
fn floor_boxes(world: &mut World, left: f32, count: usize, tile: f32, (gap, mismatch): (f32, f32)) {
    for i in 0..count {
        let rise = if i % 2 == 1 { mismatch } else { 0.0 };
        let center = v(left + (i as f32 + 0.5) * tile, -0.5 + rise);
        world
            .insert(
                Collider::new(Shape::from(Polygon::rect(tile - gap, 1.0).unwrap()))
                    .with_transform(Transform::new(center, 0.0)),
            )
            .unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// The wrong answers found, each with its exact example.

/// A unit box resting on level floor boxes half a unit wide, walking (-0.0054, -0.0054) a call
/// (gravity as strong as the walk): on the call its right side came 0.0026 short of the seam
/// behind it, the hidden side face of the box behind (which the walk leaves, so it resisted
/// least) was 0.0026 away along its normal, under the recovery gap, and the box was pushed
/// 0.0074 forward along it: it moved 0.0128. How far the box is from an obstacle at all (here
/// its height above the floor) now decides a recovery, which pushes out of the floor.
#[test]
fn a_box_walking_at_45_degrees_is_not_pushed_along_a_seams_hidden_side() {
    for gap in [0.0, 0.0025, 0.005, 0.0075, 0.01] {
        let mut world = World::new();
        floor_boxes(&mut world, -2.0, 8, 0.5, (0.0, 0.0));
        let hero = place(
            &mut world,
            Shape::from(Polygon::rect(1.0, 1.0).unwrap()),
            v(0.1, 0.5 + gap),
        );
        let mut height = None;
        for call in 0..60 {
            let result = world
                .move_and_slide(hero, v(-0.0054, -0.0054), MoveOptions::default())
                .unwrap();
            let y = world.get(hero).unwrap().transform().p.y;
            assert!(
                (result.moved.x + 0.0054).abs() <= 1.0e-6 && result.on_floor && !result.on_wall,
                "resting {gap} up, call {call}: {result:?}"
            );
            if call > 0 {
                assert_eq!(Some(y), height, "resting {gap} up, call {call}: {result:?}");
            }
            height = Some(y);
        }
    }
}

/// A 0.22 box resting 0.00085 above floor boxes 0.3 wide (every other one 1e-6 higher), its
/// left side 0.0014 past a seam, walking left 0.0167 a call with as much gravity: it was
/// pushed out of the box behind along that box's hidden side, 0.0091 back against the walk,
/// and made 0.0076 of its 0.0167. A recovery now pushes out along the face facing up most of
/// those the box is in front of: straight up, once, and the walk is whole.
#[test]
fn a_box_resting_low_beside_a_seam_is_pushed_up_not_back() {
    let (size, speed, tile) = (0.22095712f32, 0.016710497f32, 0.3f32);
    let count = ((4.0 + 2.0 * speed * 60.0) / tile) as usize + 4;
    let mut world = World::new();
    let left = -0.5 * count as f32 * tile;
    floor_boxes(&mut world, left, count, tile, (0.0, 1.0e-6));
    let shape = Shape::from(Polygon::rect(size, size).unwrap());
    let hero = place(&mut world, shape, v(0.111372724, 0.5 * size + 0.0008542084));
    let result = world
        .move_and_slide(hero, v(-speed, -speed), MoveOptions::default())
        .unwrap();
    assert!(
        (result.moved.x + speed).abs() <= 1.0e-3 * speed && result.recovery.x == 0.0,
        "{result:?}"
    );
}

/// A 2.98 box resting 0.0018 above floor boxes half a unit wide, its left side 0.002 right of
/// the seam behind, walking right 0.00195 a call with as much gravity: the recovery pushed
/// it 0.008 forward along the hidden side of the box behind as well as up (it made 0.00998
/// of its 0.00195). The push is now straight up.
#[test]
fn a_large_box_resting_low_beside_a_seam_is_pushed_straight_up() {
    let (size, speed, tile) = (2.977205f32, 0.0019507093f32, 0.5f32);
    let count = ((4.0 + 2.0 * speed * 60.0) / tile) as usize + 4;
    let mut world = World::new();
    let left = -0.5 * count as f32 * tile;
    floor_boxes(&mut world, left, count, tile, (0.0, 1.0e-6));
    let shape = Shape::from(Polygon::rect(size, size).unwrap());
    let hero = place(&mut world, shape, v(0.49057072, 0.5 * size + 0.0018113309));
    for call in 0..20 {
        let result = world
            .move_and_slide(hero, v(speed, -speed), MoveOptions::default())
            .unwrap();
        assert!(
            (result.moved.x - speed).abs() <= 1.0e-3 * speed && result.recovery.x == 0.0,
            "call {call}: {result:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Every seam, every body, every ratio of gravity to the walk.

#[derive(Clone, Copy, Debug)]
enum Floor {
    Boxes { gap: f32, mismatch: f32 },
    Chain,
    TileOutlines,
    TileRectangles,
}

const FLOORS: [Floor; 9] = [
    Floor::Boxes {
        gap: 0.0,
        mismatch: 0.0,
    },
    Floor::Boxes {
        gap: 0.0,
        mismatch: 1.0e-7,
    },
    Floor::Boxes {
        gap: 0.0,
        mismatch: -1.0e-6,
    },
    Floor::Boxes {
        gap: 1.0e-7,
        mismatch: 0.0,
    },
    Floor::Boxes {
        gap: 1.0e-6,
        mismatch: 1.0e-6,
    },
    Floor::Boxes {
        gap: 1.0e-6,
        mismatch: -1.0e-7,
    },
    Floor::Chain,
    Floor::TileOutlines,
    Floor::TileRectangles,
];

/// A floor of `kind`, top at 0, pieces `tile` wide, from `-half` to `half`.
fn floor(world: &mut World, kind: Floor, half: f32, tile: f32) {
    let count = (2.0 * half / tile).ceil() as usize;
    let left = -0.5 * count as f32 * tile;
    match kind {
        Floor::Boxes { gap, mismatch } => floor_boxes(world, left, count, tile, (gap, mismatch)),
        Floor::Chain => {
            // Right to left, so the collision side is up.
            let points: Vec<Vec2> = (0..=count)
                .rev()
                .map(|i| v(left + i as f32 * tile, 0.0))
                .collect();
            world
                .insert(Collider::new(Shape::from(Chain::open(&points).unwrap())))
                .unwrap();
        }
        Floor::TileOutlines | Floor::TileRectangles => {
            let solid = |_, y| if y == 0 { Tile::SOLID } else { Tile::EMPTY };
            let map = TileMap::from_fn(count as u32, 2, tile, v(left, -tile), solid).unwrap();
            let geometry = if matches!(kind, Floor::TileOutlines) {
                TileGeometry::Outlines
            } else {
                TileGeometry::Rectangles
            };
            TileMapColliders::insert(world, &map, geometry).unwrap();
        }
    }
}

fn body(kind: usize, size: f32) -> Shape {
    match kind {
        0 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
        1 => Shape::from(Capsule::vertical(size, 0.3 * size).unwrap()),
        2 => Shape::from(Polygon::rect(size, size).unwrap()),
        3 => Shape::from(Polygon::rounded_rect(size, size, 0.2 * size).unwrap()),
        _ => {
            let hexagon: Vec<Vec2> = (0..6)
                .map(|i| Vec2::from_angle(i as f32 * std::f32::consts::FRAC_PI_3) * (0.5 * size))
                .collect();
            Shape::from(Polygon::new(&hexagon).unwrap())
        }
    }
}

/// Every seam (floor boxes level, 1e-7 or 1e-6 apart in height, with gaps of 0, 1e-7 or 1e-6;
/// a chain; tile outlines and rectangles) under circles, capsules, boxes, rounded boxes and
/// hexagons from 0.05 to 3 units resting anywhere from a third of the skin to the skin up,
/// walking either way at 5e-4 to 0.05 a call under no gravity or 0.1, 0.5, 1 (45°), 2 or 10
/// times the walk, 60 calls each: every call moves the whole request along the floor (to 1e-3
/// of it; on a step down of 1e-6 a rounded body rolling off the corner under gravity ten times
/// the walk gains up to 2 %), never loses any of it, keeps its height to 1e-6 of its size (plus
/// the floor's own mismatch), stays on the floor, meets no wall and overlaps nothing.
#[test]
fn seams_never_stop_lengthen_or_lift_a_walk() {
    let mut rng = Rng(0x5ea3);
    for floor_kind in FLOORS {
        for body_kind in 0..5 {
            for _ in 0..6 {
                let size = rng.log_size(0.05, 3.0);
                let tile = rng.pick(&[0.3, 0.5, 1.0]);
                let speed = rng.log_size(5.0e-4, 0.05) * rng.pick(&[1.0, -1.0]);
                let ratio = rng.pick(&[0.0, 0.1, 0.5, 1.0, 1.0, 2.0, 10.0]);
                let rest = rng.range(0.34, 1.0);
                let mut world = World::new();
                floor(
                    &mut world,
                    floor_kind,
                    60.0 * speed.abs() + 2.0 * size + 4.0,
                    tile,
                );
                let shape = body(body_kind, size);
                let rest = rest * skin_of(&shape);
                let low = shape.aabb(&Transform::IDENTITY).min.y;
                let hero = place(&mut world, shape, v(rng.range(0.0, tile), rest - low));
                let name = format!(
                    "body {body_kind} of size {size} resting {rest} up on {floor_kind:?} (tile \
                     {tile}), walking {speed} with gravity {ratio} times that"
                );
                let mismatch = match floor_kind {
                    Floor::Boxes { mismatch, .. } => mismatch.abs(),
                    _ => 0.0,
                };
                let rolls = if mismatch >= 1.0e-6 && body_kind != 2 && body_kind != 4 {
                    0.02
                } else {
                    1.0e-3
                };
                let mut height: Option<f32> = None;
                for call in 0..60 {
                    let result = world
                        .move_and_slide(
                            hero,
                            v(speed, -ratio * speed.abs()),
                            MoveOptions::default(),
                        )
                        .unwrap();
                    let y = world.get(hero).unwrap().transform().p.y;
                    let along = result.moved.x * speed.signum();
                    assert!(
                        along >= (1.0 - 1.0e-3) * speed.abs()
                            && along <= (1.0 + rolls) * speed.abs(),
                        "{name}: call {call} moved {:?}: {result:?}",
                        result.moved
                    );
                    assert!(
                        result.on_floor && !result.on_wall,
                        "{name}: call {call}: {result:?}"
                    );
                    if let Some(before) = height {
                        let jump = (y - before).abs();
                        assert!(
                            jump <= mismatch + 1.0e-6 * size.max(1.0),
                            "{name}: call {call} height changed by {jump}: {result:?}"
                        );
                    }
                    height = Some(y);
                    let deep = depth(&world, hero);
                    assert!(deep <= 1.0e-4 * size, "{name}: call {call} {deep} deep");
                }
            }
        }
    }
}

/// A character resting below the recovery gap (a quarter of the skin) beside a seam, walking
/// over it with gravity from 0 to 10 times the walk: its first call pushes it up to the skin
/// (reported as recovery, straight up), never along the walk nor against it, and from then on
/// its height holds.
#[test]
fn a_character_resting_low_is_pushed_up_once_and_keeps_its_height() {
    let mut rng = Rng(0x10e5);
    for body_kind in 0..5 {
        for _ in 0..24 {
            let size = rng.log_size(0.05, 3.0);
            let tile = rng.pick(&[0.3, 0.5, 1.0]);
            let speed = rng.log_size(5.0e-4, 0.05) * rng.pick(&[1.0, -1.0]);
            let ratio = rng.pick(&[0.0, 0.5, 1.0, 2.0, 10.0]);
            let rest = rng.range(0.0, 0.25);
            let mut world = World::new();
            let floor_kind = Floor::Boxes {
                gap: 0.0,
                mismatch: 0.0,
            };
            floor(
                &mut world,
                floor_kind,
                60.0 * speed.abs() + 2.0 * size + 4.0,
                tile,
            );
            let shape = body(body_kind, size);
            let skin = skin_of(&shape);
            let rest = rest * skin;
            let low = shape.aabb(&Transform::IDENTITY).min.y;
            // Its side within the recovery gap of a seam.
            let half_width = shape.aabb(&Transform::IDENTITY).max.x;
            let beside = tile - half_width - rng.range(0.0, 0.25) * skin * speed.signum();
            let hero = place(&mut world, shape, v(beside, rest - low));
            let name = format!(
                "body {body_kind} of size {size} resting {rest} up on tiles {tile} wide, \
                 walking {speed} with gravity {ratio} times that"
            );
            let mut height: Option<f32> = None;
            for call in 0..30 {
                let result = world
                    .move_and_slide(hero, v(speed, -ratio * speed.abs()), MoveOptions::default())
                    .unwrap();
                let y = world.get(hero).unwrap().transform().p.y;
                let along = result.moved.x * speed.signum();
                assert!(
                    (along - speed.abs()).abs() <= 1.0e-3 * speed.abs()
                        && result.recovery.x.abs() <= 1.0e-6 * size,
                    "{name}: call {call}: {result:?}"
                );
                if let Some(before) = height {
                    assert!(
                        (y - before).abs() <= 1.0e-6 * size.max(1.0),
                        "{name}: call {call} height changed by {}",
                        y - before
                    );
                }
                height = Some(y);
            }
        }
    }
}
