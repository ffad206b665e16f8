//! Character movement at every size: the mover's scenarios (flat floors with seams, V creases,
//! ledges, drops, ceilings) run with characters of 0.01 to 1000 units in worlds scaled with
//! them, near the origin and 1e4 to 1e5 sizes from it, with `MoveOptions::default()` and with
//! `MoveOptions::for_size`. The lengths a call uses follow the rule stated on `MoveOptions`.

use crate::character_mover::depth;
use crate::mover_edges::{body_shape, Body, BODIES};
use crate::support::{place, Rng};

use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Chain, Polygon, Shape};
use collide2d::world::{
    Collider, ColliderHandle, MoveOptions, MoveResult, TileGeometry, TileMapColliders, World,
};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The spacing of `f32` values at `x` (one unit in the last place).
/// The least skin a call uses, in spacings of the character's coordinates (the rule on
/// `MoveOptions::skin`).
pub(crate) const SKIN_SPACINGS: f32 = 4.0;

pub(crate) fn spacing(x: f32) -> f32 {
    let x = x.abs().max(f32::MIN_POSITIVE);
    f32::from_bits(x.to_bits() + 1) - x
}

fn slab(world: &mut World, center: Vec2, width: f32, height: f32, angle: f32) -> ColliderHandle {
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(width, height).unwrap()))
                .with_transform(Transform::new(center, angle)),
        )
        .unwrap()
}

fn rounding_radius(kind: Body, size: f32) -> f32 {
    match kind {
        Body::Circle => 0.5 * size,
        Body::Capsule => 0.3 * size,
        Body::Box => 0.0,
        Body::RoundedBox => 0.2 * size,
    }
}

/// The lengths a call uses for `shape` at `at` (up is +y), by the rule `MoveOptions` states:
/// (skin, step height, snap distance).
pub(crate) fn used(options: &MoveOptions, shape: &Shape, at: Vec2) -> (f32, f32, f32) {
    let local = shape.aabb(&Transform::IDENTITY);
    let extent = local.max - local.min;
    let placed = shape.aabb(&Transform::new(at, 0.0));
    let reach = placed.min.abs().max(placed.max.abs()).max_element();
    let gap = spacing(reach);
    let skin = options
        .skin
        .min(0.02 * extent.min_element())
        .max(SKIN_SPACINGS * gap)
        .max(64.0 * f32::EPSILON * extent.max_element());
    (
        skin,
        options.step_height.min(0.5 * extent.y),
        options.snap_distance.min(0.5 * extent.y),
    )
}

/// One scale a scenario runs at.
#[derive(Clone, Copy, Debug)]
struct Scale {
    size: f32,
    origin: Vec2,
    for_size: bool,
}

impl Scale {
    fn options(&self) -> MoveOptions<'static> {
        if self.for_size {
            MoveOptions::for_size(self.size)
        } else {
            MoveOptions::default()
        }
    }

    /// Rounding of a position in the scene: a few spacings of its coordinates.
    fn rounding(&self, reach: f32) -> f32 {
        4.0 * spacing(self.origin.abs().max_element() + reach * self.size)
    }

    fn call(&self, world: &mut World, hero: ColliderHandle, delta: Vec2) -> MoveResult {
        world.move_and_slide(hero, delta, self.options()).unwrap()
    }
}

/// The scales probed: characters of 0.01 to 1000 units, near the origin and 1e4 to 1e5 of
/// their sizes from it, with the default options and those for their size.
fn scales(rng: &mut Rng) -> Vec<Scale> {
    let mut all = Vec::new();
    for size in [1.0e-2f32, 1.0e-1, 1.0, 10.0, 1.0e3] {
        for far in [false, true] {
            for for_size in [false, true] {
                let distance = if far {
                    size * rng.log_size(1.0e4, 1.0e5)
                } else {
                    0.0
                };
                let origin = v(distance, 0.5 * distance);
                all.push(Scale {
                    size: size * rng.range(0.8, 1.25),
                    origin,
                    for_size,
                });
            }
        }
    }
    all
}

/// Places `kind` of the scale's size resting `rest` above the floor top (`origin.y`) at `x`.
fn stand(
    world: &mut World,
    scale: &Scale,
    kind: Body,
    x: f32,
    rest: f32,
) -> (ColliderHandle, Shape) {
    let shape = body_shape(kind, scale.size);
    let half = shape.aabb(&Transform::IDENTITY).max;
    let at = scale.origin + v(x, half.y + rest);
    (place(world, shape.clone(), at), shape)
}

// ---------------------------------------------------------------------------------------------
// The wrong answers found, each with its exact example.

/// A floor with its top at y = 0 and, from x = 0.05, a ledge 0.18 high (under the default
/// step height of 0.2); a 0.05-unit box resting against it walks into it.
fn small_box_at_a_ledge(height: f32) -> (World, ColliderHandle) {
    let mut world = World::new();
    slab(&mut world, v(0.0, -0.5), 4.0, 1.0, 0.0);
    slab(
        &mut world,
        v(1.05, 0.5 * height - 0.5),
        2.0,
        height + 1.0,
        0.0,
    );
    let shape = Shape::from(Polygon::rect(0.05, 0.05).unwrap());
    let hero = place(&mut world, shape, v(0.0, 0.025 + 0.0005));
    (world, hero)
}

/// A 0.05-unit box walking into a ledge 0.18 high with the default options stepped onto it,
/// 3.6 times its height (the default step height, 0.2, was absolute). A call now steps at most
/// half the character's height: the ledge is a wall.
#[test]
fn a_small_box_does_not_step_onto_a_ledge_four_times_its_height() {
    let (mut world, hero) = small_box_at_a_ledge(0.18);
    for call in 0..20 {
        let result = world
            .move_and_slide(hero, v(0.01, -0.01), MoveOptions::default())
            .unwrap();
        let p = world.get(hero).unwrap().transform().p;
        assert!(
            result.step == 0.0 && p.y < 0.03 && p.x + 0.025 <= 0.05,
            "call {call} at {p:?}: {result:?}"
        );
    }
    // A ledge under half its height it still steps onto.
    let (mut world, hero) = small_box_at_a_ledge(0.01);
    let mut stepped = 0.0;
    for _ in 0..20 {
        let result = world
            .move_and_slide(hero, v(0.01, -0.01), MoveOptions::default())
            .unwrap();
        stepped += result.step;
    }
    let p = world.get(hero).unwrap().transform().p;
    assert!(
        stepped > 0.009 && p.x > 0.1 && (p.y - 0.035).abs() < 0.002,
        "{p:?}"
    );
}

/// A 0.05-unit box walking off a ledge 0.19 high with the default options was snapped 0.19
/// down onto the floor below, nearly four times its height (the default snap distance, 0.2,
/// was absolute). A call now snaps at most half the character's height: it walks off
/// and falls.
#[test]
fn a_small_box_is_not_snapped_four_heights_down() {
    let mut world = World::new();
    slab(&mut world, v(-1.0, -0.5), 2.0, 1.0, 0.0);
    slab(&mut world, v(1.0, -0.69), 2.0, 1.0, 0.0);
    let shape = Shape::from(Polygon::rect(0.05, 0.05).unwrap());
    // Walking 0.02 a call, its side passes the edge by 0.02, clear of the edge's corner.
    let hero = place(&mut world, shape, v(-0.015, 0.025 + 0.0005));
    let mut snapped = 0.0f32;
    for _ in 0..5 {
        let result = world
            .move_and_slide(hero, v(0.02, 0.0), MoveOptions::default())
            .unwrap();
        snapped = snapped.max(result.snap);
    }
    let p = world.get(hero).unwrap().transform().p;
    assert!(snapped <= 0.025 && p.y > 0.0, "snapped {snapped}, at {p:?}");
}

/// A 0.05-unit box falling onto a floor with the default options rested 0.01 above it, a fifth
/// of its size (the default skin was absolute). A call now keeps at most a fiftieth of the
/// character's smallest extent (0.001), and comes to rest within the casts' tolerance (a
/// hundredth of that) beyond it.
#[test]
fn a_small_box_rests_a_skin_of_its_size_above_the_floor() {
    let mut world = World::new();
    slab(&mut world, v(0.0, -0.5), 4.0, 1.0, 0.0);
    let shape = Shape::from(Polygon::rect(0.05, 0.05).unwrap());
    let hero = place(&mut world, shape, v(0.0, 0.2));
    let mut last = None;
    for _ in 0..40 {
        last = Some(
            world
                .move_and_slide(hero, v(0.0, -0.02), MoveOptions::default())
                .unwrap(),
        );
    }
    let gap = world.get(hero).unwrap().transform().p.y - 0.025;
    assert!(
        (0.001..=0.00101).contains(&gap) && last.unwrap().on_floor,
        "rests {gap} above the floor"
    );
}

/// A 1000-unit box on a floor 3e7 from the origin, where `f32` steps by 2, walking 40 a call
/// under gravity as strong, with the default options: its skin of 0.01 was a two-hundredth
/// of the spacing of its coordinates. It now keeps at least one spacing: it walks the whole
/// request every call, on the floor, at one height, never inside it.
#[test]
fn a_large_box_far_from_the_origin_keeps_a_skin_its_coordinates_can_hold() {
    let origin = v(3.0e7, 1.5e7);
    let mut world = World::new();
    slab(&mut world, origin + v(0.0, -500.0), 40000.0, 1000.0, 0.0);
    let shape = Shape::from(Polygon::rect(1000.0, 1000.0).unwrap());
    let hero = place(&mut world, shape, origin + v(0.0, 502.0));
    let mut height = None;
    for call in 0..60 {
        let result = world
            .move_and_slide(hero, v(40.0, -40.0), MoveOptions::default())
            .unwrap();
        let p = world.get(hero).unwrap().transform().p;
        assert!(
            (result.moved.x - 40.0).abs() <= 4.0 && result.on_floor && !result.on_wall,
            "call {call}: {result:?}"
        );
        if call > 0 {
            assert_eq!(Some(p.y), height, "call {call}: {result:?}");
        }
        height = Some(p.y);
        assert!(p.y - 500.0 - origin.y >= 0.0, "call {call}: {p:?}");
    }
}

/// A 0.0085 box walking 0.00035 a call with no gravity off an edge 0.00067 above the floor
/// beyond (under its snap distance): on the call its side passed the edge within the skin
/// (0.00017), the snap cast stopped on the edge's corner, too steep to stand on, and from then
/// on the box stood on nothing: it was never snapped. Such a cast is made again down to
/// touching (passing beside the corner), stopping a skin short.
#[test]
fn a_box_walking_off_an_edge_beside_its_corner_is_snapped() {
    let (size, speed, drop) = (0.008529863f32, 0.00034672994f32, 0.00066752476f32);
    let mut world = World::new();
    slab(
        &mut world,
        v(-4.0 * size, -size),
        8.0 * size,
        2.0 * size,
        0.0,
    );
    let beyond = v(4.0 * size + 20.0 * speed, -size - drop);
    slab(
        &mut world,
        beyond,
        8.0 * size + 40.0 * speed,
        2.0 * size,
        0.0,
    );
    let shape = Shape::from(Polygon::rect(size, size).unwrap());
    let hero = place(
        &mut world,
        shape,
        v(-0.5 * size - 2.0 * speed, 0.5 * size + 0.00009),
    );
    let mut snapped = 0.0;
    let mut last = None;
    for _ in 0..(2.0 * size / speed) as usize + 6 {
        let result = world
            .move_and_slide(hero, v(speed, 0.0), MoveOptions::default())
            .unwrap();
        snapped += result.snap;
        last = Some(result);
    }
    let bottom = world.get(hero).unwrap().transform().p.y - 0.5 * size;
    let gap = bottom + drop;
    assert!(
        snapped > 0.0 && last.unwrap().on_floor && (0.0..=0.0004).contains(&gap),
        "snapped {snapped}, {gap} above the floor"
    );
}

/// A 9.4-unit box with `for_size(9.4)` walking 0.67 a call with no gravity off an edge 1.13
/// above the floor beyond: on the call its side ended 0.043 past the edge, 0.047 above the
/// edge's top, its snap stopped at once on the corner (walkable there, so it was on the floor);
/// on the next call the face it moved by was the edge's side, so it had not stood on anything
/// and was never snapped. Standing now also counts a walkable face the character is wholly
/// above within reach (the one a recovery would push out along).
#[test]
fn a_box_beside_an_edge_it_stood_on_is_snapped_down() {
    let (size, speed, drop) = (9.396775f32, 0.67427593f32, 1.1251312f32);
    let skin = 0.01 * size;
    let mut world = World::new();
    slab(
        &mut world,
        v(-4.0 * size, -size),
        8.0 * size,
        2.0 * size,
        0.0,
    );
    let beyond = v(4.0 * size + 20.0 * speed, -size - drop);
    slab(
        &mut world,
        beyond,
        8.0 * size + 40.0 * speed,
        2.0 * size,
        0.0,
    );
    let shape = Shape::from(Polygon::rect(size, size).unwrap());
    let start = v(-0.5 * size - 2.0 * speed, 0.5 * size + 0.5 * skin);
    let hero = place(&mut world, shape, start);
    let mut last = None;
    for _ in 0..20 {
        let result = world
            .move_and_slide(hero, v(speed, 0.0), MoveOptions::for_size(size))
            .unwrap();
        last = Some(result);
    }
    let gap = world.get(hero).unwrap().transform().p.y - 0.5 * size + drop;
    let last = last.unwrap();
    assert!(
        last.on_floor && (0.0..=2.0 * skin).contains(&gap),
        "{gap} above the floor: {last:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The scenarios at every scale.

#[derive(Clone, Copy, Debug)]
enum Floor {
    Boxes,
    Chain,
    TileRectangles,
}

/// A flat floor of `kind` with its top at `origin.y`, pieces `tile` wide, `half` each way.
fn floor(world: &mut World, kind: Floor, origin: Vec2, half: f32, tile: f32) {
    let count = (2.0 * half / tile).ceil() as usize;
    let left = -0.5 * count as f32 * tile;
    match kind {
        Floor::Boxes => {
            for i in 0..count {
                let center = origin + v(left + (i as f32 + 0.5) * tile, -0.5 * tile);
                slab(world, center, tile, tile, 0.0);
            }
        }
        Floor::Chain => {
            // Right to left, so the collision side is up; placed at its first point.
            let points: Vec<Vec2> = (0..=count)
                .rev()
                .map(|i| v(left + i as f32 * tile, 0.0))
                .collect();
            world
                .insert(
                    Collider::new(Shape::from(Chain::open(&points).unwrap()))
                        .with_transform(Transform::new(origin, 0.0)),
                )
                .unwrap();
        }
        Floor::TileRectangles => {
            let solid = |_, y| if y == 0 { Tile::SOLID } else { Tile::EMPTY };
            let corner = origin + v(left, -tile);
            let map = TileMap::from_fn(count as u32, 2, tile, corner, solid).unwrap();
            TileMapColliders::insert(world, &map, TileGeometry::Rectangles).unwrap();
        }
    }
}

/// On flat floors of boxes, chains and tile rectangles (pieces a third of to one character
/// wide), every character walking either way at 1e-3 to 0.5 of its size a call (at least 16
/// spacings of its coordinates) under no gravity or 0.5, 1 or 10 times the walk, resting
/// anywhere from a third of its skin to the skin up: every call moves the whole request along
/// the floor (to 1e-3 of it plus rounding), keeps its height (to 1e-6 of its size plus
/// rounding), stays on the floor and meets no wall, and it never overlaps the floor by more
/// than a hundredth of its skin plus rounding.
#[test]
fn flat_floors_are_walked_at_full_speed_and_level_at_every_size() {
    let mut rng = Rng(0x5ca1e);
    for scale in scales(&mut rng) {
        for kind in BODIES.into_iter().cycle().take(12) {
            let size = scale.size;
            let floor_kind = rng.pick(&[Floor::Boxes, Floor::Chain, Floor::TileRectangles]);
            let tile = size * rng.pick(&[0.3, 0.5, 1.0]);
            let slowest = 16.0 * spacing(scale.origin.abs().max_element());
            let speed = (size * rng.log_size(1.0e-3, 0.5)).max(slowest) * rng.pick(&[1.0, -1.0]);
            let ratio = rng.pick(&[0.0, 0.5, 1.0, 10.0]);
            let calls = 40;
            let mut world = World::new();
            let half = calls as f32 * speed.abs() + 4.0 * size;
            floor(&mut world, floor_kind, scale.origin, half, tile);
            let shape = body_shape(kind, size);
            let (skin, _, _) = used(&scale.options(), &shape, scale.origin);
            let rest = rng.range(0.34, 1.0) * skin;
            let (hero, _) = stand(&mut world, &scale, kind, rng.range(0.0, tile), rest);
            let rounding = scale.rounding(half / size + 2.0);
            let name = format!(
                "{kind:?} at {scale:?} (skin {skin}) resting {rest} up on {floor_kind:?} (tile \
                 {tile}), walking {speed} with gravity {ratio} times that"
            );
            let mut height: Option<f32> = None;
            for call in 0..calls {
                let result = scale.call(&mut world, hero, v(speed, -ratio * speed.abs()));
                let y = world.get(hero).unwrap().transform().p.y;
                assert!(
                    (result.moved.x - speed).abs() <= 1.0e-3 * speed.abs() + rounding,
                    "{name}: call {call} moved {:?}: {result:?}",
                    result.moved
                );
                assert!(
                    result.on_floor && !result.on_wall,
                    "{name}: call {call}: {result:?}"
                );
                if let Some(before) = height {
                    assert!(
                        (y - before).abs() <= 1.0e-6 * size + rounding,
                        "{name}: call {call} height changed by {}",
                        y - before
                    );
                }
                height = Some(y);
                let deep = depth(&world, hero);
                assert!(
                    deep <= 0.01 * skin + rounding,
                    "{name}: call {call} {deep} deep"
                );
            }
        }
    }
}

/// A V whose arms meet at `vertex` with interior angle `opening`, each arm `length` long and
/// `thickness` thick.
fn v_dip(world: &mut World, vertex: Vec2, opening: f32, length: f32, thickness: f32) {
    let rise = 0.5 * (std::f32::consts::PI - opening);
    for side in [-1.0f32, 1.0] {
        let along = v(side * rise.cos(), rise.sin());
        let normal = v(-side * rise.sin(), rise.cos());
        let center = vertex + along * (0.5 * length - thickness) - normal * (0.5 * thickness);
        slab(world, center, length, thickness, side * rise);
    }
}

/// V creases with arms too steep to walk (interior angle 50° to 85°): every character dropped
/// in and then pushed sideways into an arm (at a tenth of to as much as its gravity) settles at
/// the bottom and never climbs out (never higher than where it settled, plus its skin and
/// rounding), and never overlaps an arm by more than a thousandth of its size plus rounding.
#[test]
fn v_creases_hold_a_character_at_every_size() {
    let mut rng = Rng(0xc7ea5e);
    for scale in scales(&mut rng) {
        for kind in BODIES.into_iter().cycle().take(8) {
            let size = scale.size;
            let opening = rng.range(50.0, 85.0).to_radians();
            let gravity = size * rng.log_size(1.0e-3, 0.3);
            let push = gravity * rng.log_size(0.1, 1.0) * rng.pick(&[1.0, -1.0]);
            let mut world = World::new();
            v_dip(&mut world, scale.origin, opening, 40.0 * size, 2.0 * size);
            let shape = body_shape(kind, size);
            let rise = 0.5 * (std::f32::consts::PI - opening);
            let start = scale.origin + v(0.3 * size, 2.0 * size + 2.0 * size * rise.tan());
            let hero = place(&mut world, shape.clone(), start);
            let (skin, _, _) = used(&scale.options(), &shape, start);
            let rounding = scale.rounding(40.0);
            let name = format!(
                "{kind:?} at {scale:?} in a {}° crease, gravity {gravity}, push {push}",
                opening.to_degrees()
            );
            let mut settled = None;
            for call in 0..200 {
                let request = if call < 60 {
                    v(0.0, -size)
                } else if call < 100 {
                    v(0.0, -gravity)
                } else {
                    v(push, -gravity)
                };
                scale.call(&mut world, hero, request);
                let p = world.get(hero).unwrap().transform().p;
                if call == 99 {
                    settled = Some(p.y);
                }
                if let Some(bottom) = settled {
                    assert!(
                        p.y <= bottom + skin + rounding,
                        "{name}: call {call} climbed {} from the bottom",
                        p.y - bottom
                    );
                }
                let deep = depth(&world, hero);
                assert!(
                    deep <= 1.0e-3 * size + rounding,
                    "{name}: call {call} {deep} deep"
                );
            }
        }
    }
}

/// Every character walking into a ledge lower than the step height a call uses (a fifth to
/// four fifths of it) steps onto it and walks on (at least a quarter of its size: a rounded
/// bottom meeting the ledge's corner at 45° under gravity as strong as the walk is held there
/// a while, as on a 45° slope); into one higher than that (and than its
/// rounding rolls onto) it stops as at a wall, never rising more than its skin; walking off a
/// drop under the snap distance (with no gravity) a box is snapped down and ends on the floor, and
/// off a drop four times the snap distance (plus what its rounding rolls down round the edge)
/// it is not snapped down to the floor below. Only where the coordinates can hold the step height (64 spacings of
/// them).
#[test]
fn ledges_and_drops_follow_the_step_and_snap_rule_at_every_size() {
    let mut rng = Rng(0x1ed9e);
    for scale in scales(&mut rng) {
        for kind in BODIES {
            let size = scale.size;
            let shape = body_shape(kind, size);
            let (skin, step, snap) = used(&scale.options(), &shape, scale.origin);
            let rounding = scale.rounding(20.0);
            if step < 64.0 * rounding {
                continue;
            }
            let speed = size * rng.log_size(0.02, 0.2);
            let gravity = speed * rng.pick(&[0.1, 1.0]);
            let reach_x = shape.aabb(&Transform::IDENTITY).max.x;
            let rolls_onto = rounding_radius(kind, size) * (1.0 - std::f32::consts::FRAC_1_SQRT_2);
            let low = rng.range(0.2, 0.8) * step;
            let high = rng.range(1.25, 2.0) * step + rolls_onto;
            for (climbs, height) in [(true, low), (false, high)] {
                let mut world = World::new();
                slab(
                    &mut world,
                    scale.origin + v(0.0, -size),
                    8.0 * size,
                    2.0 * size,
                    0.0,
                );
                let length = 8.0 * size + 40.0 * speed;
                let center = scale.origin + v(2.0 * size + 0.5 * length, 0.5 * height - size);
                slab(&mut world, center, length, height + 2.0 * size, 0.0);
                let x = 2.0 * size - reach_x - skin - 0.5 * speed;
                let (hero, _) = stand(&mut world, &scale, kind, x, 0.5 * skin);
                let start = world.get(hero).unwrap().transform().p;
                let name = format!(
                    "{kind:?} at {scale:?} (step {step}, skin {skin}) walking {speed} into a \
                     {height} ledge"
                );
                let mut last = None;
                for call in 0..(size / speed) as usize + 20 {
                    let result = scale.call(&mut world, hero, v(speed, -gravity));
                    let rise = world.get(hero).unwrap().transform().p.y - start.y;
                    if !climbs {
                        assert!(
                            rise <= skin + rounding && result.step == 0.0,
                            "{name}: call {call} rose {rise}: {result:?}"
                        );
                    }
                    let deep = depth(&world, hero);
                    assert!(
                        deep <= 1.0e-3 * size + rounding,
                        "{name}: call {call} {deep} deep"
                    );
                    last = Some(result);
                }
                let p = world.get(hero).unwrap().transform().p;
                let last = last.unwrap();
                if climbs {
                    assert!(
                        p.x - start.x >= 0.25 * size
                            && (p.y - start.y - height).abs() <= skin + rounding
                            && last.on_floor,
                        "{name}: left it at {:?}: {last:?}",
                        p - start
                    );
                } else {
                    assert!(last.on_wall, "{name}: {last:?}");
                }
            }
            // Drops: walking right off the top of a slab onto a floor `drop` lower.
            let over = 4.0 * snap + rolls_onto;
            for (snaps, drop) in [(true, rng.range(0.2, 0.8) * snap), (false, over)] {
                let mut world = World::new();
                slab(
                    &mut world,
                    scale.origin + v(-4.0 * size, -size),
                    8.0 * size,
                    2.0 * size,
                    0.0,
                );
                let far_side = scale.origin + v(4.0 * size + 20.0 * speed, -size - drop);
                slab(
                    &mut world,
                    far_side,
                    8.0 * size + 40.0 * speed,
                    2.0 * size,
                    0.0,
                );
                let x = -reach_x - 2.0 * speed;
                let (hero, _) = stand(&mut world, &scale, kind, x, 0.5 * skin);
                let name = format!(
                    "{kind:?} at {scale:?} (snap {snap}, skin {skin}) walking {speed} off a \
                     {drop} drop"
                );
                let mut snapped = 0.0f32;
                let mut last = None;
                for _ in 0..(2.0 * size / speed) as usize + 6 {
                    let result = scale.call(&mut world, hero, v(speed, 0.0));
                    snapped += result.snap;
                    last = Some(result);
                }
                let last = last.unwrap();
                if snaps {
                    // (A rounded bottom rolling over the edge meets its corner too steep to
                    // stand on, and slides down off it.)
                    assert!(snapped > 0.0 && last.on_floor, "{name}: {last:?}");
                } else {
                    // A rounded bottom may roll a little way round the edge; it never reaches
                    // the floor below.
                    assert!(
                        snapped < drop - skin && !last.on_floor,
                        "{name}: snapped {snapped}: {last:?}"
                    );
                }
            }
        }
    }
}

/// Every character jumping into a ceiling half its size above its head ends under it, a skin
/// or less away, reports it, and never passes it.
#[test]
fn ceilings_stop_a_jump_a_skin_short_at_every_size() {
    let mut rng = Rng(0xce111);
    for scale in scales(&mut rng) {
        for kind in BODIES {
            let size = scale.size;
            let mut world = World::new();
            slab(
                &mut world,
                scale.origin + v(0.0, -size),
                8.0 * size,
                2.0 * size,
                0.0,
            );
            let shape = body_shape(kind, size);
            let (skin, _, _) = used(&scale.options(), &shape, scale.origin);
            let (hero, shape) = stand(&mut world, &scale, kind, 0.0, 0.5 * skin);
            let half = shape.aabb(&Transform::IDENTITY).max;
            let start = world.get(hero).unwrap().transform().p;
            let under = start.y + half.y + 0.5 * size;
            let ceiling = v(scale.origin.x, under + 0.1 * size);
            slab(&mut world, ceiling, 8.0 * size, 0.2 * size, 0.0);
            let rounding = scale.rounding(4.0);
            let jump = size * rng.range(0.05, 0.4);
            let name = format!("{kind:?} at {scale:?} (skin {skin}) jumping {jump} a call");
            for call in 0..20 {
                let result = scale.call(&mut world, hero, v(0.0, jump));
                let top = world.get(hero).unwrap().transform().p.y + half.y;
                assert!(
                    top <= under + rounding,
                    "{name}: call {call} through by {}",
                    top - under
                );
                if call >= 12 {
                    assert!(
                        under - top <= skin + rounding && result.on_ceiling,
                        "{name}: call {call} {} under: {result:?}",
                        under - top
                    );
                }
            }
        }
    }
}
