//! Character movement as a game drives it, frame after frame: falling along walls built of
//! stacked tiles, by characters whose sides come to a point.

use crate::character_mover::depth;
use crate::support::{assert_no_failures, place, Rng};

use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Shape};
use collide2d::world::{Collider, MoveOptions, World};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The spacing of `f32` values at `x`.
fn spacing(x: f32) -> f32 {
    let x = x.abs().max(f32::MIN_POSITIVE);
    f32::from_bits(x.to_bits() + 1) - x
}

/// How a wall of tiles is built.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Wall {
    /// A box per tile, placed at its centre (as a tile game places them).
    Boxes,
    /// The tiles' boxes as one compound.
    Compound,
    /// Each row of tiles one closed chain around it, placed at its lower left corner.
    ChainRows,
}

/// A wall of square tiles `tile` wide, columns `columns.0..columns.1` and rows `0..rows` of
/// a grid whose cell (0, 0) has its lower left corner at `origin`, built as `kind` says.
fn tile_wall(
    world: &mut World,
    origin: Vec2,
    tile: f32,
    columns: (i32, i32),
    rows: i32,
    kind: Wall,
) {
    if kind == Wall::ChainRows {
        let width = (columns.1 - columns.0) as f32 * tile;
        let outline = [v(0.0, 0.0), v(width, 0.0), v(width, tile), v(0.0, tile)];
        for j in 0..rows {
            let corner = v(columns.0 as f32 * tile, j as f32 * tile);
            let shape = Shape::from(Chain::closed(&outline).unwrap());
            let placed = Transform::new(origin + corner, 0.0);
            world
                .insert(Collider::new(shape).with_transform(placed))
                .unwrap();
        }
        return;
    }
    let compound = kind == Wall::Compound;
    let centre = |i: i32, j: i32| v((i as f32 + 0.5) * tile, (j as f32 + 0.5) * tile);
    let cells = (columns.0..columns.1).flat_map(|i| (0..rows).map(move |j| (i, j)));
    let piece = || Shape::from(Polygon::rect(tile, tile).unwrap());
    if compound {
        let children = cells
            .map(|(i, j)| (Transform::new(centre(i, j), 0.0), piece()))
            .collect();
        let shape = Shape::from(Compound::new(children).unwrap());
        world
            .insert(Collider::new(shape).with_transform(Transform::new(origin, 0.0)))
            .unwrap();
    } else {
        for (i, j) in cells {
            let placed = Transform::new(origin + centre(i, j), 0.0);
            world
                .insert(Collider::new(piece()).with_transform(placed))
                .unwrap();
        }
    }
}

/// A hexagon 0.05 tall, its pointed sides left and right, falls 1e4 from the origin while it
/// pushes right into a wall of tiles 0.0125 wide (a box each), a skin (0.0039 there) and a spacing from it.
/// The top of the box below its side lies a skin below its bottom, though the hexagon is
/// beside that box, not over it (the box as a whole is twice the skin away): it read that top
/// as floor under it and hung on the wall, moving nothing call after call.
#[test]
fn a_pointed_character_falling_along_a_wall_of_boxes_far_out_slides_down() {
    let origin = v(1.0e4, 1.0e4);
    let mut world = World::new();
    tile_wall(&mut world, origin, 0.0125, (8, 16), 60, Wall::Boxes);
    let hexagon = [
        v(-0.2, -0.5),
        v(0.2, -0.5),
        v(0.3, 0.0),
        v(0.2, 0.5),
        v(-0.2, 0.5),
        v(-0.3, 0.0),
    ];
    let shape = Shape::from(Polygon::new(&hexagon.map(|p| p * 0.05)).unwrap());
    let hero = place(&mut world, shape, v(10000.081, 10000.468));
    let request = v(0.005, -0.0054166676);
    let r = world
        .move_and_slide(hero, request, MoveOptions::for_size(0.05))
        .unwrap();
    assert!(r.moved.y < -0.004 && !r.on_floor && r.on_wall, "{r:?}");
}

/// Characters made by `body` (from the random source and a size: the shape and its name),
/// 0.05 to 5 units near the origin or 8e3 to 2e4 from it (three in four 0.05 to 0.2 units and
/// far out, where the skin is a large part of the size), fall along a wall of square tiles a
/// tenth to a half of their size wide (at least 16 spacings) built as one of `walls`, pushing
/// into it each call with a walk of 0.02 to 0.2 of their size and a fall of 0.02 to 0.3 (at
/// least 16 spacings of their coordinates), from a skin and up to nine tenths of the walk
/// away. Every call until they are twice their size above the wall's foot, at least half the
/// fall is made, `on_floor` false; from the second call on (once they touch the wall) the fall
/// is made in full (to 2 spacings and 1e-4 of it) and they are `on_wall`; they never overlap
/// it by more than a thousandth of their size and 4 spacings. Returns the failures and the
/// number of cases.
fn fall_along_walls(
    seed: u64,
    count: usize,
    body: fn(&mut Rng, f32) -> (Shape, String),
    walls: &[Wall],
) -> (Vec<String>, usize) {
    let mut rng = Rng(seed);
    let mut failures = Vec::new();
    let mut cases = 0;
    for _ in 0..count {
        let small = rng.chance(0.75);
        let size = if small {
            rng.log_size(0.05, 0.2)
        } else {
            rng.log_size(0.05, 5.0)
        };
        let origin = if !small && rng.chance(0.5) {
            v(0.0, 0.0)
        } else {
            let far = rng.log_size(8.0e3, 2.0e4);
            v(far * rng.pick(&[-1.0, 1.0]), rng.range(-2.0e4, 2.0e4))
        };
        let dir = rng.pick(&[-1.0f32, 1.0]);
        let (shape, body_name) = body(&mut rng, size);
        let half = shape.aabb(&Transform::IDENTITY).max.x;
        let fine = spacing(origin.abs().max_element() + 12.0 * size);
        let tile = (rng.range(0.1, 0.5) * size).max(16.0 * fine);
        let rows = (12.0 * size / tile).ceil() as i32;
        let kind = rng.pick(walls);
        let mut world = World::new();
        let columns = if dir > 0.0 { (0, 3) } else { (-3, 0) };
        tile_wall(&mut world, origin, tile, columns, rows, kind);
        let opts = MoveOptions::for_size(size);
        let walk = rng.range(0.02, 0.2) * size * dir;
        let gap = opts.skin.max(4.0 * fine) + rng.range(0.0, 0.9) * walk.abs();
        let start = origin + v(-dir * (half + gap), 10.0 * size + rng.range(0.0, tile));
        let hero = place(&mut world, shape, start);
        let fall = (rng.range(0.02, 0.3) * size).max(16.0 * fine);
        cases += 1;
        let name = format!(
            "{body_name} {size} at {origin:?} dir {dir} tile {tile} {kind:?} walk {walk} \
             fall {fall}"
        );
        for frame in 0..200 {
            let y = world.get(hero).unwrap().transform().p.y;
            if (y as f64 - origin.y as f64) < 2.0 * size as f64 {
                break;
            }
            let r = world.move_and_slide(hero, v(walk, -fall), opts).unwrap();
            let deep = depth(&world, hero);
            let wrong = if r.moved.y > -0.5 * fall {
                Some("fall not half made")
            } else if frame >= 1 && (r.moved.y + fall).abs() > 2.0 * fine + 1.0e-4 * fall {
                Some("fall not made")
            } else if r.on_floor {
                Some("on_floor")
            } else if frame >= 1 && !r.on_wall {
                Some("not on_wall")
            } else if deep > 1.0e-3 * size + 4.0 * fine {
                Some("overlapping")
            } else {
                None
            };
            if let Some(what) = wrong {
                failures.push(format!("{name}: frame {frame} {what}: {r:?}, {deep} deep"));
                break;
            }
        }
    }
    (failures, cases)
}

/// Sharp characters whose sides come to a point or are flat (hexagons, octagons, diamonds,
/// boxes) fall along walls of tiles, a box each or one compound, as `fall_along_walls` says.
/// (Far out a small character's skin is four spacings of its coordinates, a few hundredths of
/// its size: the top of the tile below a pointed side, or a box's side, came within it.)
#[test]
fn sharp_characters_falling_along_a_wall_of_tiles_slide_down_it() {
    let body = |rng: &mut Rng, size: f32| {
        let sides = rng.pick(&[4usize, 6, 8, 0]);
        let shape = if sides == 0 {
            Polygon::rect(0.6 * size, size).unwrap()
        } else {
            Polygon::regular(sides, 0.5 * size).unwrap()
        };
        (Shape::from(shape), format!("{sides}-sided"))
    };
    let (failures, cases) =
        fall_along_walls(0x6a3e_fa11, 240, body, &[Wall::Boxes, Wall::Compound]);
    assert_no_failures(&failures, cases, 8);
}

/// A rounded box 1 unit tall, 1e4 from the origin, falls while it pushes right into a wall of
/// rows of tiles 0.25 high, each row a closed chain, standing on a floor of chains. Its
/// rounding has just passed the corner of the lowest row, whose top the row above covers:
/// the closest-point direction to that corner leans up (0.059), and the plane it made held
/// the fall in a crease with the wall's side, in mid-air 0.15 above the floor, call after call.
#[test]
fn a_rounded_character_falling_along_a_wall_of_chain_rows_far_out_reaches_the_floor() {
    let origin = v(-1.0e4, 3000.0);
    let mut world = World::new();
    tile_wall(&mut world, origin, 0.25, (8, 16), 60, Wall::ChainRows);
    let floor = [v(0.0, 0.0), v(20.0, 0.0), v(20.0, 0.25), v(0.0, 0.25)];
    for j in -4..0 {
        let shape = Shape::from(Chain::closed(&floor).unwrap());
        let placed = Transform::new(origin + v(-10.0, j as f32 * 0.25), 0.0);
        world
            .insert(Collider::new(shape).with_transform(placed))
            .unwrap();
    }
    let shape = Shape::from(Polygon::rounded_rect(0.6, 1.0, 0.1).unwrap());
    let hero = place(&mut world, shape, origin + v(1.6904297, 0.65649414));
    let r = world
        .move_and_slide(hero, v(0.1, -0.45), MoveOptions::for_size(1.0))
        .unwrap();
    assert!(r.moved.y < -0.14 && r.on_wall, "{r:?}");
}

/// Rounded characters (circles, capsules, rounded boxes) fall along walls of tiles built as
/// rows of closed chains (or a box each, or one compound), as `fall_along_walls` says.
#[test]
fn rounded_characters_falling_along_a_wall_of_chain_rows_slide_down_it() {
    let body = |rng: &mut Rng, size: f32| {
        let kind = rng.below(3);
        let shape = match kind {
            0 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
            1 => Shape::from(Capsule::vertical(size, 0.3 * size).unwrap()),
            _ => Shape::from(Polygon::rounded_rect(0.6 * size, size, 0.1 * size).unwrap()),
        };
        (
            shape,
            ["circle", "capsule", "rounded box"][kind].to_string(),
        )
    };
    let walls = [
        Wall::ChainRows,
        Wall::ChainRows,
        Wall::Boxes,
        Wall::Compound,
    ];
    let (failures, cases) = fall_along_walls(0x2b0c_ba11, 240, body, &walls);
    assert_no_failures(&failures, cases, 8);
}
