//! Character movement at the edges a game reaches: flat floors of every construction at offsets
//! up to 1e5, characters from 0.1 to 10 units, walking speeds from 1e-4 to 10 units a call.

use crate::character_mover::depth;
use crate::support;

use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Shape};
use collide2d::world::{
    Collider, ColliderHandle, MoveOptions, MoveResult, TileGeometry, TileMapColliders, World,
};
use collide2d::{Transform, Vec2};
use support::Rng;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

const SKIN: f32 = 0.01;

#[derive(Clone, Copy, Debug)]
enum Floor {
    LongBox,
    Boxes { gap: f32, mismatch: f32 },
    Chain,
    TileOutlines,
    TileRectangles,
    CollinearPolygons,
}

const FLOORS: [Floor; 7] = [
    Floor::LongBox,
    Floor::Boxes {
        gap: 0.0,
        mismatch: 0.0,
    },
    Floor::Boxes {
        gap: 1.0e-6,
        mismatch: 1.0e-6,
    },
    Floor::Chain,
    Floor::TileOutlines,
    Floor::TileRectangles,
    Floor::CollinearPolygons,
];

/// A flat floor with its top at `origin.y`, from `origin.x - length` to `origin.x + length`.
fn floor(world: &mut World, kind: Floor, origin: Vec2, length: f32, tile: f32, rng: &mut Rng) {
    let from = -length;
    let count = (2.0 * length / tile).ceil() as usize + 1;
    let solid = |world: &mut World, shape: Shape, at: Vec2| {
        world
            .insert(Collider::new(shape).with_transform(Transform::new(at, 0.0)))
            .unwrap();
    };
    match kind {
        Floor::LongBox => {
            let width = count as f32 * tile;
            solid(
                world,
                Shape::from(Polygon::rect(width, 1.0).unwrap()),
                origin + v(from + 0.5 * width, -0.5),
            );
        }
        Floor::Boxes { gap, mismatch } => {
            for i in 0..count {
                let dy = if i % 2 == 1 {
                    rng.range(-1.0, 1.0) * mismatch
                } else {
                    0.0
                };
                let center = v(from + (i as f32 + 0.5) * tile, -0.5 + dy);
                solid(
                    world,
                    Shape::from(Polygon::rect(tile - gap, 1.0).unwrap()),
                    origin + center,
                );
            }
        }
        Floor::Chain => {
            // Right to left so the collision side is up, with collinear extra points.
            let mut points = Vec::new();
            for i in (0..=count).rev() {
                points.push(v(from + i as f32 * tile, 0.0));
                if i > 0 && rng.chance(0.5) {
                    points.push(v(from + (i as f32 - rng.range(0.1, 0.9)) * tile, 0.0));
                }
            }
            solid(world, Shape::from(Chain::open(&points).unwrap()), origin);
        }
        Floor::TileOutlines | Floor::TileRectangles => {
            let map = TileMap::from_fn(count as u32, 2, tile, origin + v(from, -tile), |_, y| {
                if y == 0 {
                    Tile::SOLID
                } else {
                    Tile::EMPTY
                }
            })
            .unwrap();
            let geometry = if matches!(kind, Floor::TileOutlines) {
                TileGeometry::Outlines
            } else {
                TileGeometry::Rectangles
            };
            TileMapColliders::insert(world, &map, geometry).unwrap();
        }
        Floor::CollinearPolygons => {
            for i in 0..count {
                let shape = collinear_piece(i, tile, rng);
                solid(world, shape, origin + v(from, 0.0));
            }
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Body {
    Circle,
    Capsule,
    Box,
    RoundedBox,
}

pub(crate) const BODIES: [Body; 4] = [Body::Circle, Body::Capsule, Body::Box, Body::RoundedBox];

/// Piece `i` of a floor of `tile`-wide polygons whose tops are collinear at y = 0 (a unit
/// deep): each top has an extra vertex at a random point along it, so neighbours meet at
/// seams of a straight line drawn in pieces.
pub(crate) fn collinear_piece(i: usize, tile: f32, rng: &mut Rng) -> Shape {
    let (x0, x1) = (i as f32 * tile, (i + 1) as f32 * tile);
    let mid = x0 + rng.range(0.2, 0.8) * tile;
    let outline = [
        v(x0, -1.0),
        v(x1, -1.0),
        v(x1, 0.0),
        v(mid, 0.0),
        v(x0, 0.0),
    ];
    Shape::from(Polygon::new(&outline).unwrap())
}

/// A character `size` tall.
pub(crate) fn body_shape(kind: Body, size: f32) -> Shape {
    match kind {
        Body::Circle => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
        Body::Capsule => Shape::from(Capsule::vertical(size, 0.3 * size).unwrap()),
        Body::Box => Shape::from(Polygon::rect(size, size).unwrap()),
        Body::RoundedBox => Shape::from(Polygon::rounded_rect(size, size, 0.2 * size).unwrap()),
    }
}

/// The character's lowest point's height above the floor top (`origin.y`), in `f64`.
fn bottom_gap(world: &World, hero: ColliderHandle, origin: Vec2) -> f64 {
    let me = world.get(hero).unwrap();
    let aabb = me.shape().aabb(&me.world_transform());
    aabb.min.y as f64 - origin.y as f64
}

#[derive(Clone, Debug, Default)]
struct Walk {
    /// (x relative to origin, bottom gap) after each call, in f64.
    path: Vec<(f64, f64)>,
    results: Vec<MoveResult>,
    deepest: f32,
    grounded_lost: usize,
}

#[allow(clippy::too_many_arguments)]
fn walk(
    floor_kind: Floor,
    body_kind: Body,
    size: f32,
    origin: Vec2,
    speed: f32,
    gravity: f32,
    frames: usize,
    tile: f32,
    seed: u64,
) -> Walk {
    let mut rng = Rng(seed);
    let mut world = World::new();
    let length = speed.abs() * frames as f32 + 2.0 * size + 5.0;
    floor(&mut world, floor_kind, origin, length, tile, &mut rng);
    let shape = body_shape(body_kind, size);
    let half = shape.aabb(&Transform::IDENTITY).min.y;
    let start = origin + v(rng.range(0.0, tile), -half + 0.5 * SKIN);
    let hero = world
        .insert(Collider::new(shape).with_transform(Transform::new(start, 0.0)))
        .unwrap();
    let mut out = Walk::default();
    for _ in 0..5 {
        world
            .move_and_slide(hero, v(0.0, -gravity.max(0.01)), MoveOptions::default())
            .unwrap();
    }
    for _ in 0..frames {
        let result = world
            .move_and_slide(hero, v(speed, -gravity), MoveOptions::default())
            .unwrap();
        let p = world.get(hero).unwrap().transform().p;
        out.path.push((
            p.x as f64 - origin.x as f64,
            bottom_gap(&world, hero, origin),
        ));
        out.deepest = out.deepest.max(depth(&world, hero));
        if !result.on_floor {
            out.grounded_lost += 1;
        }
        out.results.push(result);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The wrong answers found, each with its exact example.

/// A capsule (radius 0.081) resting a half skin above a straight chain floor, stopped 0.015
/// before one of the chain's vertices, takes a long step along the floor: the next segment's
/// end, within the skin, used to give a plane leaning back against the walk (its closest-point
/// direction, about 15° from up), and the step solved against it climbed 0.70 units into the
/// air. The segment's top face, which the capsule is wholly above, holds it level instead.
#[test]
fn a_capsule_stepping_over_a_chain_vertex_stays_level() {
    let mut world = World::new();
    let floor = [v(200.0, 0.0), v(10.0, 0.0), v(-5.0, 0.0)];
    world
        .insert(Collider::new(Shape::from(Chain::open(&floor).unwrap())))
        .unwrap();
    let capsule = Capsule::vertical(0.27018404, 0.08105522).unwrap();
    let rest = 0.5 * 0.27018404 + 0.5 * SKIN;
    let hero = world
        .insert(
            Collider::new(Shape::from(capsule)).with_transform(Transform::new(v(9.985, rest), 0.0)),
        )
        .unwrap();
    let result = world
        .move_and_slide(hero, v(4.1421857, 0.0), MoveOptions::default())
        .unwrap();
    let p = world.get(hero).unwrap().transform().p;
    assert!((result.moved.x - 4.1421857).abs() < 1e-5, "{result:?}");
    assert!(
        (p.y - rest).abs() < 1e-4,
        "rose to {} from {rest}: {result:?}",
        p.y
    );
    assert!(result.on_floor, "{result:?}");
}

/// The same at a seam between two floor boxes: a circle of radius 0.52 walking 2.92 a call
/// with no gravity used to climb the next box's corner and leave the floor.
#[test]
fn a_circle_stepping_over_a_seam_between_boxes_stays_level() {
    let mut world = World::new();
    for i in 0..4 {
        world
            .insert(
                Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                    .with_transform(Transform::new(v(0.5 + i as f32, -0.5), 0.0)),
            )
            .unwrap();
    }
    let radius = 0.5247254;
    let rest = radius + 0.5 * SKIN;
    let hero = world
        .insert(
            Collider::new(Shape::from(Circle::with_radius(radius).unwrap()))
                .with_transform(Transform::new(v(0.96, rest), 0.0)),
        )
        .unwrap();
    let result = world
        .move_and_slide(hero, v(2.9189425, 0.0), MoveOptions::default())
        .unwrap();
    let p = world.get(hero).unwrap().transform().p;
    assert!((result.moved.x - 2.9189425).abs() < 1e-5, "{result:?}");
    assert!(
        (p.y - rest).abs() < 1e-4,
        "rose to {} from {rest}: {result:?}",
        p.y
    );
    assert!(result.on_floor, "{result:?}");
}

/// A 9.4-unit box on one 400-unit floor box, the scene 100,000 units from the origin, walking
/// 1.56 a call: the skin planes were measured in world coordinates, where `f32` steps by
/// 0.0078, so the gap under the box read 0.0039 while it was 0.0031; the cast, told to stop at
/// the larger gap, stopped at once on every call from the third on.
#[test]
fn a_large_box_far_from_the_origin_walks_a_long_floor() {
    let mut world = World::new();
    let origin = v(1.0e5, 5.0e4);
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(400.0, 1.0).unwrap()))
                .with_transform(Transform::new(origin + v(195.0, -0.5), 0.0)),
        )
        .unwrap();
    let size = 9.407884;
    let hero = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(size, size).unwrap()))
                .with_transform(Transform::new(origin + v(0.2, 0.5 * size + 0.005), 0.0)),
        )
        .unwrap();
    for _ in 0..5 {
        world
            .move_and_slide(hero, v(0.0, -0.01), MoveOptions::default())
            .unwrap();
    }
    for call in 0..100 {
        let result = world
            .move_and_slide(hero, v(1.5612206, 0.0), MoveOptions::default())
            .unwrap();
        // 1.5612206 rounds to a multiple of 1/128 at x = 1e5.
        assert!(
            (result.moved.x - 1.5612206).abs() <= 1.0 / 128.0,
            "call {call}: {result:?}"
        );
        assert!(result.on_floor, "call {call}: {result:?}");
    }
}

/// A 0.125-unit box resting half a skin above two level floor boxes, walking left over their
/// seam at 0.0054 a call with half that as gravity: the top face of the box ahead was ignored
/// (its separation, half a skin, was under the threshold for a face other than the most
/// separated one), so the hidden side face under the seam stopped the box as a wall.
#[test]
fn a_small_box_resting_half_a_skin_up_walks_over_a_seam() {
    let mut world = World::new();
    for x in [-0.25, 0.25] {
        world
            .insert(
                Collider::new(Shape::from(Polygon::rect(0.5, 1.0).unwrap()))
                    .with_transform(Transform::new(v(x, -0.5), 0.0)),
            )
            .unwrap();
    }
    let size = 0.12458406;
    let shape = Shape::from(Polygon::rect(size, size).unwrap());
    let start = v(0.0693739, 0.5 * size + 0.5 * SKIN);
    let hero = world
        .insert(Collider::new(shape).with_transform(Transform::new(start, 0.0)))
        .unwrap();
    for call in 0..40 {
        let result = world
            .move_and_slide(hero, v(-0.005360834, -0.002680417), MoveOptions::default())
            .unwrap();
        assert!(
            (result.moved.x + 0.005360834).abs() < 1e-5 && !result.on_wall,
            "call {call}: {result:?}"
        );
    }
}

/// A 0.53-unit box walking 3.4 a call along a tile-outline floor 100,000 units out: the
/// outline's chain held world coordinates, so casts against it measured gaps of a few
/// thousandths in steps of 1/128, and the box met a normal of (-0.89, 0.45) on the flat floor
/// and was thrown 1.35 up. The colliders are now placed at their first corner.
#[test]
fn a_box_walks_a_tile_outline_floor_far_from_the_origin() {
    let origin = v(1.0e5, 5.0e4);
    for geometry in [TileGeometry::Outlines, TileGeometry::Rectangles] {
        let mut world = World::new();
        let map = TileMap::from_fn(800, 2, 1.0, origin + v(-5.0, -1.0), |_, y| {
            if y == 0 {
                Tile::SOLID
            } else {
                Tile::EMPTY
            }
        })
        .unwrap();
        TileMapColliders::insert(&mut world, &map, geometry).unwrap();
        let size = 0.5305471;
        let shape = Shape::from(Polygon::rect(size, size).unwrap());
        let skin = skin_at(origin.x + 800.0);
        let start = origin + v(0.3, 0.5 * size + 0.5 * skin);
        let hero = world
            .insert(Collider::new(shape).with_transform(Transform::new(start, 0.0)))
            .unwrap();
        for call in 0..200 {
            let result = world
                .move_and_slide(hero, v(3.3990808, -0.01), MoveOptions::default())
                .unwrap();
            let gap = world.get(hero).unwrap().transform().p.y - 0.5 * size - origin.y;
            assert!(
                (result.moved.x - 3.3990808).abs() <= 1.0 / 64.0
                    && result.on_floor
                    && (0.0..=2.0 * skin).contains(&gap),
                "{geometry:?} call {call}: {gap} above the floor, {result:?}"
            );
        }
    }
}

/// A unit box resting on level unit floor boxes, walking 0.003 a call under gravity of 0.01 a
/// call, its side 0.008 from the seam ahead: the side face hidden under the seam resisted the
/// walk (0.003) less than the next box's top resisted gravity (0.01), so it was taken, and the
/// box stood at the seam as at a wall on every call, whatever its resting gap.
#[test]
fn a_box_walking_slowly_under_gravity_crosses_a_seam() {
    for gap in [0.003, 0.005, 0.01] {
        let mut world = World::new();
        for i in 0..4 {
            world
                .insert(
                    Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                        .with_transform(Transform::new(v(0.5 + i as f32, -0.5), 0.0)),
                )
                .unwrap();
        }
        let shape = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
        let hero = world
            .insert(Collider::new(shape).with_transform(Transform::new(v(1.492, 0.5 + gap), 0.0)))
            .unwrap();
        for call in 0..10 {
            let result = world
                .move_and_slide(hero, v(0.003, -0.01), MoveOptions::default())
                .unwrap();
            assert!(
                (result.moved.x - 0.003).abs() < 1e-6 && !result.on_wall && result.on_floor,
                "gap {gap}, call {call}: {result:?}"
            );
        }
    }
}

/// A rounded box (2.23 units) dropped 2.23 a call into a 160° V 100,000 units out lands on an
/// arm: the plane of the arm it was cast against and the arm's plane held along up (gravity
/// alone stops a character on a walkable slope) are 10° apart, and rounding in either moved
/// their crossing: the box slid 0.15 down the arm on landing, 19 ulps, where at the origin it
/// slid 1.4e-5. The cast's plane is held along up too now.
#[test]
fn a_box_landing_on_a_walkable_slope_far_out_stays_where_it_lands() {
    let (size, opening) = (2.22708f32, 160.1879f32.to_radians());
    let origin = v(1.0e5, 5.0e4);
    let mut world = World::new();
    v_dip(&mut world, origin, opening, 40.0 * size, 2.0 * size);
    let rise = 0.5 * (std::f32::consts::PI - opening);
    let start = origin + v(0.8385824 * size, 2.0 * size + 2.0 * size * rise.tan());
    let hero = world
        .insert(
            Collider::new(body_shape(Body::RoundedBox, size))
                .with_transform(Transform::new(start, 0.0)),
        )
        .unwrap();
    for call in 0..4 {
        let result = world
            .move_and_slide(hero, v(0.0, -size), MoveOptions::default())
            .unwrap();
        assert!(
            result.moved.x.abs() <= ulp(origin.x),
            "call {call}: {result:?}"
        );
    }
}

/// A capsule 0.12 tall walking into a 71.6° slope: the step-up, lifted by the step height,
/// came down on the slope's face; looking for the ledge's top just beyond, its ray started
/// inside the slope and reported a hit at its start facing up, and the capsule was lifted
/// 0.135 onto the slope it cannot walk.
#[test]
fn a_small_capsule_does_not_step_up_onto_a_steep_slope() {
    let size = 0.11871806;
    let angle = 71.63907f32.to_radians();
    let mut world = World::new();
    slab(&mut world, v(0.0, -size), 8.0 * size, 2.0 * size, 0.0);
    let foot = v(2.0 * size, 0.0);
    let length = 40.0 * size;
    let (along, normal) = (v(angle.cos(), angle.sin()), v(-angle.sin(), angle.cos()));
    slab(
        &mut world,
        foot + along * (0.5 * length) - normal * size,
        length,
        2.0 * size,
        angle,
    );
    let (hero, _) = stand(&mut world, Body::Capsule, size, Vec2::ZERO, 0.0);
    let start = world.get(hero).unwrap().transform().p;
    for call in 0..10 {
        let result = world
            .move_and_slide(hero, v(0.058384955, -0.058384955), MoveOptions::default())
            .unwrap();
        let rise = world.get(hero).unwrap().transform().p.y - start.y;
        assert!(
            rise <= SKIN && result.step == 0.0,
            "call {call}: rose {rise}: {result:?}"
        );
    }
}

/// A floor and, from x = 2 `size` on, a slope of `angle` (radians) rising to the right, the
/// floor's top at `origin.y`.
fn slope_scene(origin: Vec2, size: f32, angle: f32, length: f32) -> World {
    let mut world = World::new();
    slab(
        &mut world,
        origin + v(0.0, -size),
        8.0 * size,
        2.0 * size,
        0.0,
    );
    let foot = origin + v(2.0 * size, 0.0);
    let (along, normal) = (v(angle.cos(), angle.sin()), v(-angle.sin(), angle.cos()));
    slab(
        &mut world,
        foot + along * (0.5 * length) - normal * size,
        length,
        2.0 * size,
        angle,
    );
    world
}

/// A 0.36 box walking up a 19.8° slope 100,000 units out, 0.143 a call with as much gravity:
/// rounding left it 0.2505 skins from the slope, and the cast, whose target never goes below a
/// quarter of the skin, started within its tolerance of that target and stopped at once, on
/// every call from the seventh on. A surface closer than a quarter of the skin plus four times
/// the cast's tolerance now pushes the character out.
#[test]
fn a_box_walks_up_a_slope_far_from_the_origin() {
    let (size, speed) = (0.36115688f32, 0.14269093f32);
    let origin = v(1.0e5, 5.0e4);
    let mut world = slope_scene(
        origin,
        size,
        19.819807f32.to_radians(),
        40.0 * (size + speed),
    );
    let (hero, _) = stand(&mut world, Body::Box, size, origin, 0.0);
    let mut stuck = 0;
    for _ in 0..30 {
        let result = world
            .move_and_slide(hero, v(speed, -speed), MoveOptions::default())
            .unwrap();
        if result.moved.x == 0.0 {
            stuck += 1;
        }
    }
    assert_eq!(stuck, 0, "stopped on {stuck} of 30 calls");
}

/// A 0.19 circle walking 0.49 a call into a 67.8° slope 100,000 units out: rounding put it in
/// the skin, it was pushed out, and the slope the cast then stopped at became a plane along
/// its own normal, not the wall a slope too steep to walk is for a character on the floor, so
/// the step slid 0.133 up it. The cast's plane is turned as the measured ones are.
#[test]
fn a_circle_does_not_climb_a_steep_slope_far_from_the_origin() {
    let (size, speed) = (0.19473727f32, 0.49252698f32);
    let origin = v(1.0e5, 5.0e4);
    let mut world = slope_scene(
        origin,
        size,
        67.84357f32.to_radians(),
        40.0 * (size + speed),
    );
    let (hero, _) = stand(&mut world, Body::Circle, size, origin, 0.0);
    let start = world.get(hero).unwrap().transform().p;
    for call in 0..20 {
        world
            .move_and_slide(hero, v(speed, -0.0492527), MoveOptions::default())
            .unwrap();
        let rise = world.get(hero).unwrap().transform().p.y - start.y;
        let skin = skin_at(origin.x + 40.0 * (size + speed));
        assert!(rise <= skin + ulp(origin.y), "call {call}: rose {rise}");
    }
}

// ---------------------------------------------------------------------------------------------
// Flat floors.

/// The skin a call uses for a character at least half a unit across with the default
/// options whose coordinates reach `reach` (the rule on `MoveOptions::skin`): the options'
/// skin, at least `SKIN_SPACINGS` spacings of its coordinates.
fn skin_at(reach: f32) -> f32 {
    SKIN.max(crate::mover_scale::SKIN_SPACINGS * ulp(reach))
}

/// The spacing of `f32` values at `x` (one unit in the last place).
fn ulp(x: f32) -> f32 {
    let x = x.abs().max(f32::MIN_POSITIVE);
    f32::from_bits(x.to_bits() + 1) - x
}

/// One random flat-floor walk: what it was and what happened.
struct FloorCase {
    floor: Floor,
    body: Body,
    size: f32,
    offset: f32,
    speed: f32,
    gravity: f32,
    tile: f32,
    seed: u64,
}

impl FloorCase {
    fn random(rng: &mut Rng, floor: Floor, body: Body, offset: f32) -> FloorCase {
        // Slower than a few ulps of the position a call is rounding, not motion.
        let slowest = (16.0 * ulp(offset)).max(1.0e-4);
        let speed = rng.log_size(slowest, 10.0) * rng.pick(&[1.0, -1.0]);
        FloorCase {
            floor,
            body,
            size: rng.log_size(0.1, 10.0),
            offset,
            speed,
            gravity: rng.pick(&[0.0, 0.01, 0.1 * speed.abs(), speed.abs(), 0.1]),
            tile: rng.pick(&[1.0, 0.5, 2.0, 0.3]),
            seed: rng.next_u64(),
        }
    }

    fn origin(&self) -> Vec2 {
        v(self.offset, 0.5 * self.offset)
    }

    fn walk(&self, origin: Vec2) -> Walk {
        walk(
            self.floor,
            self.body,
            self.size,
            origin,
            self.speed,
            self.gravity,
            FRAMES,
            self.tile,
            self.seed,
        )
    }
}

const FRAMES: usize = 200;

/// How far from its target separation a cast may stop (`CastOptions::default().tolerance`):
/// resting heights may differ by this much between two placements of the same scene.
const CAST_TOLERANCE: f64 = 2.0e-4;

/// Every floor construction (one box; boxes side by side, level or with 1e-6 gaps and height
/// mismatches; a chain with collinear extra points; tile outlines and tile rectangles; polygons
/// given collinear extra vertices) at offsets 0, 1e3 and 1e5, every character from 0.1 to 10
/// units, walking either way at 1e-4 to 10 units a call (down to 16 ulps of the position far
/// out) with no gravity, 0.01 or 0.1 a call, or a tenth of or as much as the walking speed,
/// 200 calls: every call moves the requested distance
/// along the floor (to 1e-3 of it plus two ulps of the position), keeps the gap under the
/// character between 0 and twice the skin (it neither sinks nor hops), stays on the floor,
/// meets no wall, overlaps nothing, and gives finite results; the same walk twice gives the
/// same bits, and the walk at the origin differs from the one far out only by rounding (and
/// the cast's tolerance, 1e-4, on each side for the height).
#[test]
fn flat_floors_are_walked_level_and_at_full_speed_at_any_offset() {
    let mut rng = Rng(0x0f1a7);
    for floor in FLOORS {
        for body in BODIES {
            for offset in [0.0f32, 1.0e3, 1.0e5] {
                for _ in 0..2 {
                    let case = FloorCase::random(&mut rng, floor, body, offset);
                    check_floor_walk(&case);
                }
            }
        }
    }
}

fn check_floor_walk(case: &FloorCase) {
    let FloorCase {
        floor,
        body,
        size,
        offset,
        speed,
        gravity,
        tile,
        seed,
    } = case;
    let name = format!(
        "{body:?} of size {size} on {floor:?} (tile {tile}) at {offset}, walking {speed} \
         with gravity {gravity}, seed {seed}"
    );
    let origin = case.origin();
    let far = case.walk(origin);
    let rounding_x = 2.0 * ulp(origin.x + speed.abs() * FRAMES as f32) as f64;
    let rounding_y = 2.0 * ulp(origin.y + size) as f64;
    // The skin far out (see `skin_at`), and how much more than the options' it may be.
    let skin = skin_at(origin.x.abs().max(origin.y.abs()) + speed.abs() * FRAMES as f32 + size);
    let far_skin = (skin - SKIN).max(0.0) as f64;
    let mut previous = None;
    for (frame, (&(x, gap), result)) in far.path.iter().zip(&far.results).enumerate() {
        assert!(
            x.is_finite() && gap.is_finite() && result.moved.is_finite(),
            "{name}: frame {frame}"
        );
        if let Some(before) = previous {
            let made: f64 = x - before;
            let error = (made - *speed as f64).abs();
            assert!(
                error <= 1.0e-3 * speed.abs() as f64 + rounding_x,
                "{name}: frame {frame} moved {made} along the floor, from {before} ({result:?})"
            );
        }
        previous = Some(x);
        assert!(
            (-rounding_y..=2.0 * skin as f64 + rounding_y).contains(&gap),
            "{name}: frame {frame} ends {gap} above the floor"
        );
        assert!(
            result.on_floor && !result.on_wall,
            "{name}: frame {frame}: {result:?}"
        );
    }
    assert!(
        far.deepest <= 1.0e-4,
        "{name}: overlaps the floor by {}",
        far.deepest
    );
    if *offset > 0.0 {
        let near = case.walk(Vec2::ZERO);
        for (frame, (a, b)) in near.path.iter().zip(&far.path).enumerate() {
            assert!(
                (a.1 - b.1).abs() <= rounding_y + CAST_TOLERANCE + 2.0 * far_skin,
                "{name}: frame {frame} ends {} above the floor, {} at the origin",
                b.1,
                a.1
            );
        }
        let progress = |w: &Walk| w.path[w.path.len() - 1].0 - w.path[0].0;
        let (near_progress, far_progress) = (progress(&near), progress(&far));
        assert!(
            (near_progress - far_progress).abs()
                <= 1.0e-3 * near_progress.abs() + FRAMES as f64 * rounding_x,
            "{name}: walked {far_progress}, {near_progress} at the origin"
        );
    } else {
        let again = case.walk(origin);
        assert_eq!(again.path, far.path, "{name}: a second run differs");
    }
}

// ---------------------------------------------------------------------------------------------
// Creases and wall corners.

fn slab(world: &mut World, center: Vec2, width: f32, height: f32, angle: f32) -> ColliderHandle {
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(width, height).unwrap()))
                .with_transform(Transform::new(center, angle)),
        )
        .unwrap()
}

/// The distance between two colliders' shapes.
fn gap_between(world: &World, a: ColliderHandle, b: ColliderHandle) -> f32 {
    let (a, b) = (world.get(a).unwrap(), world.get(b).unwrap());
    collide2d::query::distance(
        a.shape(),
        &a.world_transform(),
        b.shape(),
        &b.world_transform(),
    )
    .distance
}

/// A V whose arms meet at `vertex` with interior angle `opening` (radians), each arm `length`
/// long and `thickness` thick, the slabs running a thickness past the vertex into each other.
fn v_dip(world: &mut World, vertex: Vec2, opening: f32, length: f32, thickness: f32) {
    let rise = 0.5 * (std::f32::consts::PI - opening);
    for side in [-1.0f32, 1.0] {
        let along = v(side * rise.cos(), rise.sin());
        let normal = v(-side * rise.sin(), rise.cos());
        let center = vertex + along * (0.5 * length - thickness) - normal * (0.5 * thickness);
        slab(world, center, length, thickness, side * rise);
    }
}

/// V-dips of interior angle 60° to 175° at offsets 0, 1e3 and 1e5, every character from 0.1
/// to 10 units, dropped in from above one side (its size a call for 50 calls) and held down by
/// gravity (1e-3 to 1 a call) for 100 calls, then pushed sideways (with the gravity) into an arm too steep to walk for
/// 100 more: it never ends more than 1e-3 of its size inside an arm, never moves against the
/// request (less the part a walkable arm absorbs, `MoveResult::absorbed`), settles (still for the last 50 calls of each phase, the pushed one when the arm is
/// too steep to walk, to 1e-4 of its size plus two ulps), never climbs a steep arm (no higher than where it settled, plus the skin), and
/// settles where the same dip at the origin settles, to the skin plus rounding.
#[test]
fn v_dips_hold_a_character_at_the_bottom_without_climbing_or_shaking() {
    let mut rng = Rng(0xd1b5);
    for body in BODIES {
        for offset in [0.0f32, 1.0e3, 1.0e5] {
            for _ in 0..6 {
                let size = rng.log_size(0.1, 10.0);
                let opening = rng.range(60.0, 175.0).to_radians();
                let gravity = rng.log_size(1.0e-3, 1.0) * size.max(1.0);
                let push = rng.log_size(0.1, 1.0) * gravity * rng.pick(&[1.0, -1.0]);
                let start_side = rng.range(-1.0, 1.0);
                let run = |origin: Vec2| -> (Vec2, Vec<(Vec2, MoveResult, Vec2)>) {
                    let mut world = World::new();
                    v_dip(&mut world, origin, opening, 40.0 * size, 2.0 * size);
                    let shape = body_shape(body, size);
                    let rise = 0.5 * (std::f32::consts::PI - opening);
                    let start = origin + v(start_side * size, 2.0 * size + 2.0 * size * rise.tan());
                    let hero = world
                        .insert(Collider::new(shape).with_transform(Transform::new(start, 0.0)))
                        .unwrap();
                    let mut calls = Vec::new();
                    for call in 0..250 {
                        let request = if call < 50 {
                            v(0.0, -size)
                        } else if call < 150 {
                            v(0.0, -gravity)
                        } else {
                            v(push, -gravity)
                        };
                        let result = world
                            .move_and_slide(hero, request, MoveOptions::default())
                            .unwrap();
                        let p = world.get(hero).unwrap().transform().p;
                        assert!(
                            depth(&world, hero) <= 1.0e-3 * size,
                            "{body:?} {size} in a {}° dip at {offset}: call {call} ends {} deep",
                            opening.to_degrees(),
                            depth(&world, hero)
                        );
                        calls.push((request, result, p - origin));
                    }
                    (world.get(hero).unwrap().transform().p - origin, calls)
                };
                let origin = v(offset, 0.5 * offset);
                let name = format!(
                    "{body:?} of size {size} in a {}° dip at {offset}, gravity {gravity}, push {push}, side {start_side}",
                    opening.to_degrees()
                );
                let (_, calls) = run(origin);
                let still = 1.0e-4 * size + 2.0 * ulp(offset + 40.0 * size);
                let steep = opening < 90.0f32.to_radians();
                for (call, (request, result, at)) in calls.iter().enumerate() {
                    assert!(
                        at.is_finite() && result.moved.is_finite(),
                        "{name}: call {call}"
                    );
                    assert!(
                        result.moved.dot(*request - result.absorbed) >= -still * request.length(),
                        "{name}: call {call} moved {:?} against {request:?}",
                        result.moved
                    );
                    if (100..150).contains(&call) || (steep && (200..250).contains(&call)) {
                        assert!(
                            result.moved.length() <= still,
                            "{name}: call {call} still moving {:?}",
                            result.moved
                        );
                    }
                }
                let settled = calls[149].2;
                if steep {
                    let highest = calls[150..].iter().map(|c| c.2.y).fold(f32::MIN, f32::max);
                    assert!(
                        highest <= settled.y + SKIN + still,
                        "{name}: climbed from {} to {highest}",
                        settled.y
                    );
                }
                if offset > 0.0 {
                    let (_, near) = run(Vec2::ZERO);
                    let apart = (near[149].2 - settled).length();
                    // To the skin used there, which far out is more than the options' (a
                    // character rests a skin from each arm, higher by its difference over
                    // the sine of half the opening: 1e5 out, 0.041 in a 62° dip).
                    let reach = offset + 40.0 * size;
                    assert!(
                        apart <= 2.0 * skin_at(reach) + 4.0 * ulp(reach),
                        "{name}: settled at {settled:?}, at {:?} at the origin",
                        near[149].2
                    );
                }
            }
        }
    }
}

/// A floor and a wall taller than any step, at offsets 0, 1e3 and 1e5, every character from
/// 0.1 to 10 units walking into the wall at 1e-3 to 10 units a call (down to 16 ulps of the
/// position far out) with gravity: it never passes the wall's face, ends against it (within
/// two skins plus rounding), never climbs it or leaves the floor, and stays put once there.
#[test]
fn walls_stop_a_walking_character_at_their_face() {
    let mut rng = Rng(0xa11);
    for body in BODIES {
        for offset in [0.0f32, 1.0e3, 1.0e5] {
            for _ in 0..6 {
                let size = rng.log_size(0.1, 10.0);
                let slowest = (16.0 * ulp(offset)).max(1.0e-3);
                let speed = rng.log_size(slowest, 10.0);
                let gravity = rng.pick(&[0.0, 0.01, speed]);
                let origin = v(offset, 0.5 * offset);
                let distance = rng.range(1.0, 40.0) * speed;
                let mut world = World::new();
                slab(
                    &mut world,
                    origin + v(0.0, -size),
                    4.0 * distance + 40.0 * size,
                    2.0 * size,
                    0.0,
                );
                let wall_height = 3.0 * size + 1.0;
                slab(
                    &mut world,
                    origin + v(distance + size, 0.5 * wall_height),
                    2.0 * size,
                    wall_height,
                    0.0,
                );
                let shape = body_shape(body, size);
                let half = shape.aabb(&Transform::IDENTITY).max;
                let start = origin + v(-half.x, half.y + 0.5 * SKIN);
                let hero = world
                    .insert(Collider::new(shape).with_transform(Transform::new(start, 0.0)))
                    .unwrap();
                let name = format!("{body:?} of size {size} at {offset}, walking {speed} a call, gravity {gravity}, {distance} from the wall");
                let rounding = 4.0 * ulp(offset + distance + 2.0 * size);
                let face = origin.x + distance;
                let calls = 50 + (distance / speed) as usize;
                let mut last = Vec2::ZERO;
                for call in 0..calls {
                    let result = world
                        .move_and_slide(hero, v(speed, -gravity), MoveOptions::default())
                        .unwrap();
                    let p = world.get(hero).unwrap().transform().p;
                    assert!(
                        p.x + half.x <= face + rounding,
                        "{name}: call {call} at {} past the face",
                        p.x + half.x - face
                    );
                    assert!(
                        (p.y - start.y).abs() <= SKIN + rounding,
                        "{name}: call {call} at height {}",
                        p.y - start.y
                    );
                    assert!(result.on_floor, "{name}: call {call} {result:?}");
                    if call + 10 >= calls {
                        assert!(
                            result.moved.length() <= rounding + 1.0e-5,
                            "{name}: call {call} still moving {:?}",
                            result.moved
                        );
                    }
                    last = p;
                }
                assert!(
                    face - (last.x + half.x) <= 2.0 * SKIN + rounding,
                    "{name}: stopped {} short",
                    face - (last.x + half.x)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Slopes, steps, ceilings and one-way platforms.

/// Places `body` of `size` resting half a skin above the floor top at `x` (relative to
/// `origin`, floor top at `origin.y`).
fn stand(world: &mut World, body: Body, size: f32, origin: Vec2, x: f32) -> (ColliderHandle, Vec2) {
    let shape = body_shape(body, size);
    let half = shape.aabb(&Transform::IDENTITY).max;
    let at = origin + v(x, half.y + 0.5 * SKIN);
    let hero = world
        .insert(Collider::new(shape).with_transform(Transform::new(at, 0.0)))
        .unwrap();
    (hero, half)
}

/// At offsets 0, 1e3 and 1e5, every character from 0.1 to 4 units walking at 0.01 to 0.5 a
/// call under gravity: up a slope of 5° to 40° from a floor it climbs (half its request along
/// the floor or more, on the floor every call); into a slope of 50° to 80° it never rises more
/// than a skin (plus rounding) and stops; onto a ledge lower than the step height it steps up
/// and walks on, and a ledge higher than it (and than its rounding rolls onto) stops it as a
/// wall; jumping into a ceiling it ends
/// under it, a skin or less away and reports it; jumping up through a one-way platform it passes
/// and then lands on it. It never overlaps anything by more than 1e-3 of its size.
#[test]
fn slopes_steps_ceilings_and_one_way_platforms_hold_at_any_offset() {
    let mut rng = Rng(0x5109e);
    for body in BODIES {
        for offset in [0.0f32, 1.0e3, 1.0e5] {
            for _ in 0..3 {
                let size = rng.log_size(0.1, 4.0);
                let slowest = (16.0 * ulp(offset)).max(0.01);
                let speed = rng.log_size(slowest, 0.5);
                let gravity = rng.pick(&[0.01, 0.1 * speed, speed]);
                let origin = v(offset, 0.5 * offset);
                let rounding = 4.0 * ulp(offset + 100.0);
                let name = format!("{body:?} of size {size} at {offset}, walking {speed} a call, gravity {gravity}");
                let deep = |world: &World, hero: ColliderHandle, what: &str, call: usize| {
                    let d = depth(world, hero);
                    assert!(
                        d <= 1.0e-3 * size + rounding,
                        "{name}, {what}: call {call} {d} deep"
                    );
                };

                // Slopes from the floor at x = 2 size.
                for (steep, angle) in [(false, rng.range(5.0, 40.0)), (true, rng.range(50.0, 80.0))]
                {
                    let angle = angle.to_radians();
                    let mut world = World::new();
                    slab(
                        &mut world,
                        origin + v(0.0, -size),
                        8.0 * size,
                        2.0 * size,
                        0.0,
                    );
                    let foot = origin + v(2.0 * size, 0.0);
                    let length = 40.0 * (size + speed);
                    let along = v(angle.cos(), angle.sin());
                    let normal = v(-angle.sin(), angle.cos());
                    slab(
                        &mut world,
                        foot + along * (0.5 * length) - normal * size,
                        length,
                        2.0 * size,
                        angle,
                    );
                    let (hero, half) = stand(&mut world, body, size, origin, 0.0);
                    let start = world.get(hero).unwrap().transform().p;
                    let calls = (4.0 * size / speed) as usize + 20;

                    for call in 0..calls {
                        let result = world
                            .move_and_slide(hero, v(speed, -gravity), MoveOptions::default())
                            .unwrap();
                        deep(&world, hero, "slope", call);
                        let p = world.get(hero).unwrap().transform().p;
                        if steep {
                            assert!(
                                p.y - start.y <= SKIN + rounding,
                                "{name}: climbed {} up a {}° slope",
                                p.y - start.y,
                                angle.to_degrees()
                            );
                        } else {
                            assert!(
                                result.on_floor,
                                "{name}: call {call} off the floor on a {}° slope: {result:?}",
                                angle.to_degrees()
                            );
                        }
                    }
                    let p = world.get(hero).unwrap().transform().p;
                    if steep {
                        assert!(
                            p.x + half.x
                                <= foot.x
                                    + 2.0 * size * angle.cos().max(0.1) / angle.sin()
                                    + rounding,
                            "{name}: ran into a {}° slope to {}",
                            angle.to_degrees(),
                            p.x - foot.x
                        );
                    } else {
                        // The request slid along the slope: gravity takes back part of the walk.
                        let (sin, cos) = angle.sin_cos();
                        let per_call = (speed * cos * cos - sin * cos * gravity).max(0.0);
                        assert!(
                            p.x - start.x >= 0.5 * per_call * calls as f32,
                            "{name}: {} up a {}° slope in {calls} calls",
                            p.x - start.x,
                            angle.to_degrees()
                        );
                    }
                }

                // A ledge below and one above the step height (0.2, at most half the
                // character's height), starting against it. A
                // rounded bottom of radius r meets a ledge r (1 − cos 45°) above where it
                // stepped up to on a walkable slope of its rounding, and rolls onto it: the high
                // ledge is higher than both.
                let reach_x = body_shape(body, size).aabb(&Transform::IDENTITY).max.x;
                let rounding_radius = match body {
                    Body::Circle => 0.5 * size,
                    Body::Capsule => 0.3 * size,
                    Body::Box => 0.0,
                    Body::RoundedBox => 0.2 * size,
                };
                let rolls_onto = rounding_radius * (1.0 - std::f32::consts::FRAC_1_SQRT_2);
                // The step height used: the option's 0.2, at most half the height.
                let step = (0.5 * size).min(0.2);
                let high = 1.25 * step + rolls_onto;
                for (climbs, height) in [
                    (true, rng.range(0.1 * step, 0.9 * step)),
                    (false, rng.range(high, high + 0.35)),
                ] {
                    let mut world = World::new();
                    slab(
                        &mut world,
                        origin + v(0.0, -size),
                        8.0 * size,
                        2.0 * size,
                        0.0,
                    );
                    let ledge_length = 8.0 * size + 40.0 * speed;
                    let ledge = slab(
                        &mut world,
                        origin + v(2.0 * size + 0.5 * ledge_length, 0.5 * height - size),
                        ledge_length,
                        height + 2.0 * size,
                        0.0,
                    );
                    let (hero, _) = stand(
                        &mut world,
                        body,
                        size,
                        origin,
                        2.0 * size - reach_x - SKIN - 0.5 * speed,
                    );
                    let start = world.get(hero).unwrap().transform().p;
                    let mut last = None;
                    for call in 0..(size / speed) as usize + 20 {
                        let result = world
                            .move_and_slide(hero, v(speed, -gravity), MoveOptions::default())
                            .unwrap();
                        deep(&world, hero, "ledge", call);
                        last = Some(result);
                    }
                    let p = world.get(hero).unwrap().transform().p;
                    let last = last.unwrap();
                    if climbs {
                        assert!(
                            p.x - start.x >= size
                                && (p.y - start.y - height).abs() <= SKIN + rounding
                                && last.on_floor,
                            "{name}: a {height} ledge left it at {:?}: {last:?}",
                            p - start
                        );
                    } else {
                        let short = gap_between(&world, hero, ledge);
                        assert!(
                            short <= 2.0 * SKIN + rounding
                                && (p.y - start.y).abs() <= SKIN + rounding
                                && last.on_wall,
                            "{name}: a {height} ledge left it {short} short at height {}: {last:?}",
                            p.y - start.y
                        );
                    }
                }

                // A ceiling 0.5 size above its head, jumped into; a one-way platform there,
                // jumped through and landed on.
                for one_way in [false, true] {
                    let mut world = World::new();
                    slab(
                        &mut world,
                        origin + v(0.0, -size),
                        8.0 * size,
                        2.0 * size,
                        0.0,
                    );
                    let (hero, half) = stand(&mut world, body, size, origin, 0.0);
                    let start = world.get(hero).unwrap().transform().p;
                    let under = start.y + half.y + 0.5 * size;
                    let thickness = 0.2 * size;
                    let collider =
                        Collider::new(Shape::from(Polygon::rect(8.0 * size, thickness).unwrap()))
                            .with_transform(Transform::new(
                                v(origin.x, under + 0.5 * thickness),
                                0.0,
                            ));
                    let collider = if one_way {
                        collider.with_one_way(Vec2::Y, 0.5 * thickness)
                    } else {
                        collider
                    };
                    world.insert(collider).unwrap();
                    let jump = 0.3 * size;
                    for call in 0..20 {
                        let result = world
                            .move_and_slide(hero, v(0.0, jump), MoveOptions::default())
                            .unwrap();
                        if !one_way {
                            // Passing through a one-way platform overlaps it on the way.
                            deep(&world, hero, "ceiling", call);
                        }
                        let top = world.get(hero).unwrap().transform().p.y + half.y;
                        if !one_way {
                            assert!(
                                top <= under + rounding,
                                "{name}: call {call} through the ceiling by {}",
                                top - under
                            );
                            if call >= 5 {
                                assert!(
                                    under - top <= SKIN + rounding && result.on_ceiling,
                                    "{name}: call {call} {} under the ceiling: {result:?}",
                                    under - top
                                );
                            }
                        }
                    }
                    if one_way {
                        let p = world.get(hero).unwrap().transform().p;
                        assert!(
                            p.y - half.y >= under + thickness,
                            "{name}: did not jump through the platform: {}",
                            p.y - half.y - under - thickness
                        );
                        let mut landed = None;
                        for call in 0..100 {
                            let result = world
                                .move_and_slide(hero, v(0.0, -0.1 * size), MoveOptions::default())
                                .unwrap();
                            deep(&world, hero, "one-way", call);
                            landed = Some(result);
                        }
                        let p = world.get(hero).unwrap().transform().p;
                        let gap = p.y - half.y - (under + thickness);
                        assert!(
                            (-rounding..=SKIN + rounding).contains(&gap)
                                && landed.unwrap().on_floor,
                            "{name}: landed {gap} above the platform"
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Moving platforms.

/// At offsets 0, 1e3 and 1e5, every character from 0.1 to 4 units standing on a platform that
/// moves 1e-3 to 0.5 a call in a random direction (with its own gravity call after each carry):
/// it rides along (its place on the platform changes by no more than the skin plus rounding),
/// stays on the floor, and never overlaps the platform by more than 1e-3 of its size.
#[test]
fn a_character_rides_a_moving_platform_at_any_offset() {
    let mut rng = Rng(0x91a7);
    for body in BODIES {
        for offset in [0.0f32, 1.0e3, 1.0e5] {
            for _ in 0..3 {
                let size = rng.log_size(0.1, 4.0);
                let slowest = (16.0 * ulp(offset)).max(1.0e-3);
                let velocity = Vec2::from_angle(rng.angle()) * rng.log_size(slowest, 0.5);
                let origin = v(offset, 0.5 * offset);
                let name = format!(
                    "{body:?} of size {size} at {offset}, platform moving {velocity:?} a call"
                );
                let mut world = World::new();
                let platform = slab(
                    &mut world,
                    origin + v(0.0, -0.25 * size),
                    6.0 * size,
                    0.5 * size,
                    0.0,
                );
                let (hero, _) = stand(&mut world, body, size, origin, 0.0);
                let place = |world: &World| {
                    world.get(hero).unwrap().transform().p
                        - world.get(platform).unwrap().transform().p
                };
                let first = place(&world);
                let rounding = 4.0 * ulp(offset + 100.0);
                for call in 0..100 {
                    let previous = world.get(platform).unwrap().transform();
                    let moved = Transform::new(previous.p + velocity, 0.0);
                    world.set_transform(platform, moved).unwrap();
                    world
                        .carry(hero, platform, previous, MoveOptions::default())
                        .unwrap();
                    let result = world
                        .move_and_slide(hero, v(0.0, -0.01), MoveOptions::default())
                        .unwrap();
                    let drift = place(&world) - first;
                    assert!(
                        drift.x.abs() <= rounding && drift.y.abs() <= SKIN + rounding,
                        "{name}: call {call} drifted {drift:?} on the platform"
                    );
                    assert!(result.on_floor, "{name}: call {call}: {result:?}");
                    let d = depth(&world, hero);
                    assert!(
                        d <= 1.0e-3 * size + rounding,
                        "{name}: call {call} {d} deep"
                    );
                }
            }
        }
    }
}
