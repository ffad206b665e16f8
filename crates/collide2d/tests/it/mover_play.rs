//! Character movement as a game plays it: walking off ledges, slopes at the walkable limit,
//! corridors as narrow as the character, fast motion into thin walls, at sizes from 0.05 to
//! 50 units and offsets up to 1e5, each frame checked against what a player would notice.

use crate::character_mover::depth;
use crate::mover_edges::{body_shape, Body, BODIES};
use crate::support::{assert_no_failures, place, Rng};

use collide2d::shape::{Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, MoveOptions, World};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn slab(world: &mut World, center: Vec2, width: f32, height: f32, angle: f32) -> ColliderHandle {
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(width, height).unwrap()))
                .with_transform(Transform::new(center, angle)),
        )
        .unwrap()
}

/// Level floor left of `origin` (its top at `origin.y`) and a slope of `angle` rising from
/// `origin`, both `40 × size` long and `2 × size` thick.
fn floor_and_slope(world: &mut World, origin: Vec2, size: f32, angle: f32) {
    slab(
        world,
        origin + v(-20.0 * size, -size),
        40.0 * size,
        2.0 * size,
        0.0,
    );
    let length = 40.0 * size;
    let (s, c) = angle.sin_cos();
    let center = v(0.5 * length * c, 0.5 * length * s) + v(s, -c) * size;
    slab(world, origin + center, length, 2.0 * size, angle);
}

/// The origin of a scene: near the world's, or up to 1e5 from it for a character at least
/// 2 units in size (its skin, a hundredth of its size, at least 2.5 `f32` spacings there;
/// smaller ones far out keep a skin the coordinates can hold instead, see `MoveOptions`).
fn far_or_near(rng: &mut Rng, size: f32) -> Vec2 {
    if size < 2.0 || rng.chance(0.5) {
        v(0.0, 0.0)
    } else {
        v(rng.range(-1.0e5, 1.0e5), rng.range(-1.0e5, 1.0e5))
    }
}

/// The spacing of `f32` values at `x`.
fn spacing(x: f32) -> f32 {
    let x = x.abs().max(f32::MIN_POSITIVE);
    f32::from_bits(x.to_bits() + 1) - x
}

/// A walking speed: `low..high` of `size` a call, at least 16 spacings of `origin`.
fn walk_speed(rng: &mut Rng, size: f32, origin: Vec2, (low, high): (f32, f32)) -> f32 {
    (rng.log_size(low, high) * size).max(16.0 * spacing(origin.abs().max_element()))
}

/// The character's lowest point above `height`, in `f64` (exact far from the origin).
fn above(world: &World, hero: ColliderHandle, height: f32) -> f64 {
    let me = world.get(hero).unwrap();
    me.shape().aabb(&me.world_transform()).min.y as f64 - height as f64
}

/// Every body, 0.05 to 50 units, near the origin and (from 2 units) up to 1e5 from it, walks
/// from level ground into a slope 1e-3 rad below or above `max_slope` (0.2 to 1.2 rad), 0.002
/// to 0.3 of its size a call. Below the limit, with no gravity, or half as much as or five
/// times as much as would make the request point down the slope, it climbs (at least a
/// quarter of its size up). Above it, under gravity half the walk, it does not creep up: after
/// the first half of the walk its height never grows by more than 1e-4 of its size. It never
/// overlaps anything by more than a thousandth of its size.
#[test]
fn slopes_at_the_walkable_limit_are_climbed_below_it_and_not_above() {
    let mut rng = Rng(0x5107e);
    let mut failures = Vec::new();
    let mut cases = 0;
    for _ in 0..160 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let max_slope = rng.range(0.2, 1.2);
        let steep = rng.chance(0.5);
        let angle = max_slope + if steep { 1.0e-3 } else { -1.0e-3 };
        let opts = MoveOptions::for_size(size).with_max_slope(max_slope);
        let skin = opts.skin;
        let speed = walk_speed(&mut rng, size, origin, (2.0e-3, 0.3));
        let gravity = if steep {
            0.5 * speed
        } else {
            rng.pick(&[0.0, 0.5, 5.0]) * speed / angle.tan()
        };
        let mut world = World::new();
        floor_and_slope(&mut world, origin, size, angle);
        let shape = body_shape(body, size);
        let low = shape.aabb(&Transform::IDENTITY).min.y;
        let half = shape.aabb(&Transform::IDENTITY).max.x;
        let hero = place(
            &mut world,
            shape,
            origin + v(-half - size, -low + 0.5 * skin),
        );
        cases += 1;
        let name = format!(
            "{body:?} {size} at {origin:?} slope {angle} (max {max_slope}) speed {speed} \
             gravity {gravity}"
        );
        let rounding = 4.0 * spacing(origin.abs().max_element());
        let frames = ((6.0 * size / speed) as usize).min(3000);
        let mut heights = Vec::with_capacity(frames);
        let mut message = None;
        for frame in 0..frames {
            let r = world
                .move_and_slide(hero, v(speed, -gravity), opts)
                .unwrap();
            let deep = depth(&world, hero);
            if deep > 1e-3 * size + rounding {
                message = Some(format!("frame {frame}: {deep} deep, {r:?}"));
                break;
            }
            heights.push(above(&world, hero, origin.y));
        }
        if message.is_none() {
            let last = *heights.last().unwrap();
            if steep {
                let halfway = heights[frames / 2];
                let highest = heights[frames / 2..]
                    .iter()
                    .copied()
                    .fold(f64::MIN, f64::max);
                if highest > halfway + 1e-4 * size as f64 + rounding as f64 {
                    message = Some(format!("crept up from {halfway} to {highest}"));
                }
            } else if last < 0.25 * (size * angle.sin()) as f64 {
                message = Some(format!("did not climb: bottom {last}"));
            }
        }
        if let Some(m) = message {
            failures.push(format!("{name}: {m}"));
        }
    }
    assert_no_failures(&failures, cases, failures.len());
}

/// Every body, 0.05 to 50 units, near the origin and (from 2 units) up to 1e5 from it, moved
/// 0.1 to 200 times its size a call, for 20 calls, at up to 80° from the normal of a wall
/// 0.001 to 0.5 of its size thick at any angle: it never ends past the wall's near face and
/// never overlaps it by more than a thousandth of its size.
#[test]
fn fast_moves_never_pass_through_thin_walls() {
    let mut rng = Rng(0x7e11);
    let mut failures = Vec::new();
    let mut cases = 0;
    for _ in 0..400 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let opts = MoveOptions::for_size(size);
        let thick = rng.log_size(1.0e-3, 0.5) * size;
        let angle = rng.range(-1.5, 1.5);
        let speed = rng.log_size(0.1, 200.0) * size;
        let mut world = World::new();
        // A thin wall through `origin`, normal (cos, sin) of angle, longer than the whole walk.
        let n = Vec2::from_angle(angle);
        slab(&mut world, origin, thick, 50.0 * speed + 20.0 * size, angle);
        let shape = body_shape(body, size);
        let start = origin - n * (0.5 * thick + 1.5 * size);
        let hero = place(&mut world, shape, start);
        let dir = Vec2::from_angle(angle + rng.range(-1.4, 1.4));
        let name = format!(
            "{body:?} {size} at {origin:?} wall {thick} angle {angle} speed {speed} dir {dir:?}"
        );
        cases += 1;
        for frame in 0..20 {
            let _ = world.move_and_slide(hero, dir * speed, opts).unwrap();
            let p = world.get(hero).unwrap().transform().p;
            let side = (p - origin).dot(n);
            if side > -0.5 * thick {
                failures.push(format!("{name}: frame {frame} passed to {side}"));
                break;
            }
            let deep = depth(&world, hero);
            if deep > 1e-3 * size + 8.0 * f32::EPSILON * origin.abs().max_element() {
                failures.push(format!("{name}: frame {frame} {deep} deep"));
                break;
            }
        }
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} of {cases}", failures.len());
}

/// Every body, 0.05 to 50 units, near the origin and (from 2 units) up to 1e5 from it, walks
/// 0.005 to 0.3 of its size a call, with no gravity or 1 or 10 times the walk, into a corridor
/// as tall as it is plus 0 to 4 skins: it never overlaps anything by more than a thousandth of
/// its size; with two skins of room or more its height holds (1e-5 of its size) inside, and
/// with two and a half it walks through.
#[test]
fn corridors_as_tall_as_the_character_hold_it_level() {
    let mut rng = Rng(0xc0dd);
    let mut failures = Vec::new();
    let mut cases = 0;
    for _ in 0..200 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let opts = MoveOptions::for_size(size);
        let skin = opts.skin;
        let shape = body_shape(body, size);
        let aabb = shape.aabb(&Transform::IDENTITY);
        let height = aabb.max.y - aabb.min.y;
        let extra = rng.pick(&[0.0, 0.5, 1.0, 2.0, 2.5, 4.0]) * skin;
        let speed = walk_speed(&mut rng, size, origin, (5.0e-3, 0.3));
        let gravity = rng.pick(&[0.0, 1.0, 10.0]) * speed;
        let mut world = World::new();
        slab(
            &mut world,
            origin + v(0.0, -size),
            40.0 * size,
            2.0 * size,
            0.0,
        );
        // Ceiling from x = 2 size on.
        slab(
            &mut world,
            origin + v(12.0 * size, height + extra + size),
            20.0 * size,
            2.0 * size,
            0.0,
        );
        let hero = place(
            &mut world,
            shape,
            origin + v(-2.0 * size, -aabb.min.y + 0.5 * skin),
        );
        cases += 1;
        let name = format!("{body:?} {size} at {origin:?} extra {extra} (skin {skin}) speed {speed} gravity {gravity}");
        let mut prev_y = None;
        let mut msg = None;
        for frame in 0..((8.0 * size / speed) as usize).min(2000) {
            let r = world
                .move_and_slide(hero, v(speed, -gravity), opts)
                .unwrap();
            let p = world.get(hero).unwrap().transform().p;
            let deep = depth(&world, hero);
            if deep > 1e-3 * size + 8.0 * f32::EPSILON * origin.abs().max_element() {
                msg = Some(format!("frame {frame}: {deep} deep, {r:?}"));
                break;
            }
            if let Some(py) = prev_y {
                let dy: f32 = p.y - py;
                if dy.abs() > 1e-5 * size + 4.0 * f32::EPSILON * origin.y.abs()
                    && frame > 3
                    && extra >= 2.0 * skin
                {
                    msg = Some(format!(
                        "frame {frame}: y jumped by {dy} at x {}",
                        p.x - origin.x
                    ));
                    break;
                }
            }
            prev_y = Some(p.y);
        }
        let x = world.get(hero).unwrap().transform().p.x - origin.x;
        if msg.is_none() && extra >= 2.5 * skin && x < 4.0 * size {
            msg = Some(format!("stuck at x {x}"));
        }
        if let Some(m) = msg {
            failures.push(format!("{name}: {m}"));
        }
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} of {cases}", failures.len());
}

/// A floor with its top at `origin.y` left of `origin.x` and a ledge `rise` higher right of it.
fn step_scene(world: &mut World, origin: Vec2, size: f32, rise: f32) {
    slab(
        world,
        origin + v(-20.0 * size, -size),
        40.0 * size,
        2.0 * size,
        0.0,
    );
    slab(
        world,
        origin + v(20.0 * size, -size + rise),
        40.0 * size,
        2.0 * size,
        0.0,
    );
}

/// Walks `body` (`size` tall, resting half a skin up a skin short of the ledge) into a
/// ledge `rise` high for `frames` calls; the heights of its bottom above the lower floor.
fn walk_into_ledge(
    body: Body,
    size: f32,
    rise: f32,
    (speed, gravity): (f32, f32),
    frames: usize,
) -> Vec<f64> {
    let opts = MoveOptions::for_size(size);
    let mut world = World::new();
    step_scene(&mut world, Vec2::ZERO, size, rise);
    let shape = body_shape(body, size);
    let aabb = shape.aabb(&Transform::IDENTITY);
    let at = v(-aabb.max.x - opts.skin, -aabb.min.y + 0.5 * opts.skin);
    let hero = place(&mut world, shape, at);
    (0..frames)
        .map(|_| {
            world
                .move_and_slide(hero, v(speed, -gravity), opts)
                .unwrap();
            above(&world, hero, 0.0)
        })
        .collect()
}

/// A unit box walking into a ledge exactly its step height (0.2) high: the lift stopped at
/// the step height, leaving its bottom half a skin above the ledge's top, and the cast forward
/// (which keeps half a skin) stopped at once on the ledge's corner: it never stepped. It is
/// lifted by the step height and the skin now, and the ledge measured from the floor.
#[test]
fn a_box_steps_onto_a_ledge_exactly_its_step_height() {
    let heights = walk_into_ledge(Body::Box, 1.0, 0.2, (0.05, 0.0), 3);
    assert!(
        heights.iter().all(|h| (0.2..=0.2 + 0.011).contains(h)),
        "{heights:?}"
    );
}

/// A unit box walking 0.005 a call (half its skin) into a ledge 0.19 high: the walk blocked
/// was less than the skin, and no step was tried; had it been, the cast forward by that much
/// did not bring the box over the ledge. A step is tried for any blocked walk now, and goes
/// at least two skins forward.
#[test]
fn a_slow_box_steps_onto_a_low_ledge() {
    let heights = walk_into_ledge(Body::Box, 1.0, 0.19, (0.005, 0.0), 6);
    assert!(
        (0.19..=0.19 + 0.011).contains(heights.last().unwrap()),
        "{heights:?}"
    );
}

/// A unit capsule (radius 0.3) walking 0.02 a call under gravity as strong into a ledge 0.15
/// high: it came down on the ledge's rim with its rounded bottom, was lifted a skin over the
/// top there with its middle still 0.24 short of the edge, and over the next four calls slid
/// back off the rim to 0.10 above the lower floor (0.05 below the ledge's top), off the floor
/// for two of them. It is carried on until its rounding's centre is over the ledge (0.26 more
/// this once), and stays up.
#[test]
fn a_capsule_stepping_onto_a_ledge_stays_on_it() {
    let heights = walk_into_ledge(Body::Capsule, 1.0, 0.15, (0.02, 0.02), 10);
    let up = heights.iter().position(|h| *h > 0.15).expect("stepped up");
    assert!(
        heights[up..]
            .iter()
            .all(|h| (0.15..=0.15 + 0.011).contains(h)),
        "{heights:?}"
    );
}

/// A 0.136 circle (step height 0.027) walking 0.039 a call under half as much gravity into a
/// ledge 0.030 high (a tenth above its step height): the step came down on the ledge's rim,
/// 0.023 up, took that for the ledge's height and kept it; on the next call the circle rolled
/// over the rim onto the ledge. A step that does not come down over the ledge's top is not
/// taken now; the ledge stays a wall.
#[test]
fn a_circle_does_not_step_onto_a_ledge_above_its_step_height() {
    let size = 0.1361961;
    let heights = walk_into_ledge(
        Body::Circle,
        size,
        0.029963143,
        (0.039276954, 0.019638477),
        20,
    );
    assert!(heights.iter().all(|h| *h < 0.01), "{heights:?}");
}

/// Every body, 0.05 to 50 units, near the origin and (from 2 units) up to 1e5 from it,
/// walking 0.002 to 0.3 of its size a call under no gravity, half as much or three times as
/// much, into a ledge of
/// 0.3 to 1.0 times its step height (`MoveOptions::for_size`): it steps up, ends standing on
/// the ledge a skin up (to half a skin), never goes down again once up, and never overlaps
/// anything by more than a thousandth of its size. Under that gravity, a ledge a twentieth
/// higher than the step height (and a skin) stays a wall it rests against. (Gravity stronger
/// than the walk held a walk pressed into a rounded rim at 45° there, until walkable floor
/// absorbed the request's downward part: see `MoveOptions::stop_on_slope`.)
#[test]
fn ledges_up_to_the_step_height_are_climbed_and_stood_on() {
    let mut rng = Rng(0x57e9);
    let mut failures = Vec::new();
    let mut cases = 0;
    for _ in 0..160 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let opts = MoveOptions::for_size(size);
        let skin = opts.skin;
        let step = opts.step_height;
        let speed = walk_speed(&mut rng, size, origin, (2.0e-3, 0.3));
        let gravity = rng.pick(&[0.0, 0.5, 3.0]) * speed;
        let higher = gravity > 0.0 && rng.chance(0.4);
        let rise = if higher {
            step * 1.05 + skin
        } else if rng.chance(0.3) {
            step
        } else {
            step * rng.range(0.3, 1.0)
        };
        let mut world = World::new();
        step_scene(&mut world, origin, size, rise);
        let shape = body_shape(body, size);
        let aabb = shape.aabb(&Transform::IDENTITY);
        let hero = place(
            &mut world,
            shape,
            origin + v(-aabb.max.x - size, -aabb.min.y + 0.5 * skin),
        );
        cases += 1;
        let name = format!(
            "{body:?} {size} at {origin:?} rise {rise} (step {step} skin {skin}) speed {speed} \
             gravity {gravity}"
        );
        let rounding = 4.0 * spacing(origin.abs().max_element()) as f64;
        let mut message = None;
        let mut up = false;
        for frame in 0..((4.0 * size / speed) as usize).min(2000) {
            let r = world
                .move_and_slide(hero, v(speed, -gravity), opts)
                .unwrap();
            let deep = depth(&world, hero);
            let h = above(&world, hero, origin.y);
            if deep > 1e-3 * size + rounding as f32 {
                message = Some(format!("frame {frame}: {deep} deep, {r:?}"));
                break;
            }
            if up && h < rise as f64 - 1e-4 * size as f64 - rounding {
                message = Some(format!("frame {frame}: down again to {h}"));
                break;
            }
            up |= h > rise as f64 - 1e-4 * size as f64 - rounding;
        }
        let h = above(&world, hero, origin.y);
        let x = world.get(hero).unwrap().transform().p.x - origin.x;
        if message.is_none() {
            let top = (rise + 1.5 * skin) as f64 + rounding;
            if higher && h > 0.5 * rise as f64 {
                message = Some(format!("stepped onto it: bottom {h}, x {x}"));
            }
            let stood =
                h >= rise as f64 - 1e-4 * size as f64 - rounding && h <= top && x > aabb.max.x;
            if !higher && !stood {
                message = Some(format!("did not step: bottom {h}, x {x}"));
            }
        }
        if let Some(m) = message {
            failures.push(format!("{name}: {m}"));
        }
    }
    assert_no_failures(&failures, cases, failures.len());
}

/// A 13.9-unit rounded box (`MoveOptions::for_size(13.9)`) at (81647, -95245), where `f32`
/// values are 0.0078 apart, walking 0.125 a call from level ground into a slope 1e-3 rad below
/// a 1.118 limit, with no gravity, half and five times as much as would make the request point
/// down the slope: it climbs, at least 80% as far in 400 calls as the same walk at the origin
/// (the surfaces are measured from the character's position, so the slope's normal keeps its
/// own precision there and is not tilted past the limit).
#[test]
fn a_rounded_box_far_from_the_origin_climbs_a_slope_just_below_the_limit() {
    let size = 13.9f32;
    let max_slope = 1.118f32;
    let angle = max_slope - 1.0e-3;
    let opts = MoveOptions::for_size(size).with_max_slope(max_slope);
    let speed = 0.125f32;
    let climb = |origin: Vec2, gravity: f32| -> f64 {
        let mut world = World::new();
        floor_and_slope(&mut world, origin, size, angle);
        let shape = body_shape(Body::RoundedBox, size);
        let local = shape.aabb(&Transform::IDENTITY);
        let start = origin + v(-local.max.x - size, -local.min.y + 0.5 * opts.skin);
        let hero = place(&mut world, shape, start);
        for _ in 0..400 {
            world
                .move_and_slide(hero, v(speed, -gravity), opts)
                .unwrap();
        }
        above(&world, hero, origin.y)
    };
    for share in [0.0, 0.5, 5.0] {
        let gravity = share * speed / angle.tan();
        let far = climb(v(81647.0, -95245.0), gravity);
        let near = climb(Vec2::ZERO, gravity);
        assert!(
            near > 0.25 * size as f64 && far >= 0.8 * near,
            "gravity {gravity}: climbed {far} far out, {near} at the origin"
        );
    }
}
