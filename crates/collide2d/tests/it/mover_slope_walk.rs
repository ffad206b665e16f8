//! Walking on slopes under gravity: a walkable floor absorbs the request's downward part
//! (`MoveOptions::stop_on_slope`), so walking up a walkable slope climbs it whatever the
//! gravity, walking down it stays on it and standing still stays still; steeper slopes are
//! not climbed, and a character in the air falls as asked.

use crate::character_mover::depth;
use crate::mover_edges::{body_shape, Body, BODIES};
use crate::support::{assert_no_failures, Rng};

use collide2d::query::distance;
use collide2d::shape::{Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, MoveOptions, MoveResult, World};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The spacing of `f32` values at `x`.
fn spacing(x: f32) -> f32 {
    let x = x.abs().max(f32::MIN_POSITIVE);
    f32::from_bits(x.to_bits() + 1) - x
}

fn at(world: &World, hero: ColliderHandle) -> Vec2 {
    world.get(hero).unwrap().transform().p
}

/// `b - a` in `f64` (exact for `f32` inputs).
fn diff(a: Vec2, b: Vec2) -> (f64, f64) {
    (b.x as f64 - a.x as f64, b.y as f64 - a.y as f64)
}

/// A slope through `origin` rising at `angle` (negative: rising to the left): a slab
/// `length` long and `2 × size` thick whose top face passes through `origin`. Returns the slab's
/// handle, shape and transform.
fn slope(
    world: &mut World,
    origin: Vec2,
    angle: f32,
    length: f32,
    size: f32,
) -> (ColliderHandle, Shape, Transform) {
    let normal = v(-angle.sin(), angle.cos());
    let shape = Shape::from(Polygon::rect(length, 2.0 * size).unwrap());
    let xf = Transform::new(origin - normal * size, angle);
    let handle = world
        .insert(Collider::new(shape.clone()).with_transform(xf))
        .unwrap();
    (handle, shape, xf)
}

/// The gap between the character and a slab, measured relative to `origin` so that it keeps
/// the precision of the scene's size far from the world's origin.
fn gap(world: &World, hero: ColliderHandle, slab: (&Shape, Transform), origin: Vec2) -> f32 {
    let me = world.get(hero).unwrap();
    let relative = |xf: Transform| {
        let (x, y) = diff(origin, xf.p);
        Transform {
            p: v(x as f32, y as f32),
            q: xf.q,
        }
    };
    distance(
        me.shape(),
        &relative(me.world_transform()),
        slab.0,
        &relative(slab.1),
    )
    .distance
}

/// The exact reported case: a unit box standing on a 25° slope, walking up it with
/// `delta = (0.003, -0.009)` a call (gravity three times the walk, more than cot 25° ≈ 2.14
/// times it) slid down the slope, since the whole request was projected onto the slope's
/// plane. It climbs at the walk's projection on the slope (0.003 · cos 25° along it a call).
#[test]
fn a_box_walking_up_a_25_degree_slope_under_gravity_climbs_it() {
    let mut world = World::new();
    let angle = 25f32.to_radians();
    let (_, shape, xf) = slope(&mut world, Vec2::ZERO, angle, 40.0, 1.0);
    let hero = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                .with_transform(Transform::new(v(0.0, 1.5), 0.0)),
        )
        .unwrap();
    let opts = MoveOptions::default();
    for _ in 0..40 {
        world.move_and_slide(hero, v(0.0, -0.1), opts).unwrap();
    }
    let uphill = v(angle.cos(), angle.sin());
    for call in 0..100 {
        let before = at(&world, hero);
        let result = world.move_and_slide(hero, v(0.003, -0.009), opts).unwrap();
        let moved = at(&world, hero) - before;
        let climbed = moved.dot(uphill);
        assert!(
            climbed > 0.9 * 0.003 * angle.cos(),
            "call {call}: moved {moved:?} ({climbed} up the slope): {result:?}"
        );
        assert!(result.on_floor, "call {call}: {result:?}");
        assert!(
            moved.dot(v(0.003, 0.0)) >= 0.0,
            "call {call}: moved {moved:?} against the walk"
        );
        let gap = gap(&world, hero, (&shape, xf), Vec2::ZERO);
        assert!(gap <= 0.02 + 1e-4, "call {call}: {gap} above the slope");
        assert!(depth(&world, hero) <= 1e-3, "call {call}");
    }
}

/// With `stop_on_slope` off the request is projected whole, as before: the same walk slides
/// down the slope.
#[test]
fn without_stop_on_slope_gravity_slides_a_walker_down_the_slope() {
    let mut world = World::new();
    let angle = 25f32.to_radians();
    slope(&mut world, Vec2::ZERO, angle, 40.0, 1.0);
    let hero = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                .with_transform(Transform::new(v(0.0, 1.5), 0.0)),
        )
        .unwrap();
    let opts = MoveOptions::default().with_stop_on_slope(false);
    for _ in 0..40 {
        world.move_and_slide(hero, v(0.0, -0.1), opts).unwrap();
    }
    let before = at(&world, hero);
    for _ in 0..20 {
        world.move_and_slide(hero, v(0.003, -0.009), opts).unwrap();
    }
    assert!(at(&world, hero).x < before.x - 0.01);
}

/// A scene origin: near the world's, or up to 1e5 from it for a character at least 2 units
/// in size (smaller ones far out keep a skin of the coordinates' spacing instead of their
/// size's, see `MoveOptions`).
fn far_or_near(rng: &mut Rng, size: f32) -> Vec2 {
    if size < 2.0 || rng.chance(0.5) {
        Vec2::ZERO
    } else {
        v(rng.range(-1.0e5, 1.0e5), rng.range(-1.0e5, 1.0e5))
    }
}

/// What the character does on the slope.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Walk {
    Up,
    Down,
    Still,
}

struct SlopeCase {
    body: Body,
    size: f32,
    origin: Vec2,
    /// Signed: negative rises to the left.
    angle: f32,
    walk: Walk,
    speed: f32,
    gravity: f32,
}

/// Settles the character onto the slope under pure gravity, then walks it 40 calls; returns a
/// failure message.
fn check_slope_walk(case: &SlopeCase) -> Option<String> {
    let SlopeCase {
        body,
        size,
        origin,
        angle,
        walk,
        speed,
        gravity,
    } = *case;
    let opts = MoveOptions::for_size(size);
    let skin = opts.skin;
    let mut world = World::new();
    let (_, slab_shape, slab_xf) = slope(&mut world, origin, angle, 80.0 * size, size);
    let hero = world
        .insert(
            Collider::new(body_shape(body, size))
                .with_transform(Transform::new(origin + v(0.0, 2.0 * size), 0.0)),
        )
        .unwrap();
    let rounding = 4.0 * spacing(origin.abs().max_element() + 2.0 * size);
    let mut landed = false;
    for _ in 0..200 {
        let result = world
            .move_and_slide(hero, v(0.0, -0.1 * size), opts)
            .unwrap();
        if result.on_floor && result.moved.length() <= 1e-4 * size + rounding {
            landed = true;
            break;
        }
    }
    if !landed {
        return Some("did not settle on the slope".into());
    }
    let rising = angle.signum();
    let direction = match walk {
        Walk::Up => rising,
        Walk::Down => -rising,
        Walk::Still => 0.0,
    };
    let request = v(direction * speed, -gravity);
    // Up the slope, along it.
    let uphill = v(angle.cos(), angle.sin()) * rising;
    let still = 1e-4 * size + 2.0 * rounding;
    // Near the origin every call makes at least half the walk's projection on the slope; far
    // out (coordinates' spacing above 1e-3) a call whose casts stop short on the slope's
    // rounded surface may make less, so there every call makes some and all of them together
    // at least a quarter (the same as with no gravity at all: the casts far out, not the
    // absorbing, lose it).
    let far = spacing(origin.abs().max_element()) > 1.0e-3;
    let least = 0.5 * (speed * angle.cos()) as f64 - rounding as f64;
    let per_call = if far { 0.0 } else { least };
    let mut total = 0.0;
    for call in 0..40 {
        let before = at(&world, hero);
        let result: MoveResult = world.move_and_slide(hero, request, opts).unwrap();
        let (dx, dy) = diff(before, at(&world, hero));
        let along = dx * uphill.x as f64 + dy * uphill.y as f64;
        let deep = depth(&world, hero);
        if deep > 1e-3 * size + rounding {
            return Some(format!("call {call}: {deep} deep: {result:?}"));
        }
        // The solved motion (snapping aside) never goes against the walk.
        let walked = dx * request.x as f64;
        if walked < -(rounding as f64) * speed as f64 {
            return Some(format!("call {call}: moved ({dx}, {dy}) against the walk"));
        }
        match walk {
            Walk::Up => {
                if call >= 2 && along <= per_call {
                    return Some(format!(
                        "call {call}: {along} up the slope (at least {per_call}): {result:?}"
                    ));
                }
                if call >= 2 && !result.on_floor {
                    return Some(format!("call {call}: not on the floor: {result:?}"));
                }
            }
            Walk::Down => {
                let gap = gap(&world, hero, (&slab_shape, slab_xf), origin);
                if !result.on_floor || gap > 2.0 * skin + rounding {
                    return Some(format!(
                        "call {call}: {gap} above the slope (skin {skin}): {result:?}"
                    ));
                }
                if call >= 2 && along >= -per_call {
                    return Some(format!("call {call}: {along} up the slope walking down"));
                }
            }
            Walk::Still => {
                let moved = dx.hypot(dy);
                if moved > still as f64 || !result.on_floor {
                    return Some(format!(
                        "call {call}: moved {moved} standing still (at most {still}): {result:?}"
                    ));
                }
            }
        }
        if call >= 2 {
            total += along.abs();
        }
    }
    let whole = 38.0 * (speed * angle.cos()) as f64;
    let share = if far { 0.25 } else { 0.5 };
    if walk != Walk::Still && total < share * whole {
        return Some(format!(
            "{total} along the slope in 38 calls (at least {share} of {whole})"
        ));
    }
    None
}

/// Every body, 0.05 to 50 units (`MoveOptions::for_size`), near the origin and (from 2 units)
/// up to 1e5 from it, on a slope of 5° to 1e-3 rad below the 45° limit rising either way,
/// settled onto it by gravity, then 40 calls of a walk of 0.002 to 0.3 of its size a call
/// (at least 16 `f32` spacings of its coordinates) with gravity 0 to 10 times the walk:
/// - walking uphill it climbs every call from the third on, at least half the walk's
///   projection on the slope (`walk · cos(slope)`) up it, and is on the floor;
/// - walking downhill it is on the floor every call, never more than two skins from the slope
///   (a skin above where it rests), and goes down the slope from the third call on;
/// - standing still (walk 0, gravity 0.001 to 0.3 of its size) it moves at most 1e-4 of its
///   size (and a few `f32` spacings of its coordinates) a call and stays on the floor;
/// - it never moves against the walk and never overlaps the slope by more than a thousandth of
///   its size.
#[test]
fn walking_on_walkable_slopes_under_any_gravity_climbs_descends_and_stands() {
    let mut rng = Rng(0x51_0be);
    let max_slope = MoveOptions::default().max_slope;
    let mut failures = Vec::new();
    let mut cases = 0;
    for _ in 0..600 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let angle = rng.range(5f32.to_radians(), max_slope - 1.0e-3) * rng.pick(&[1.0, -1.0]);
        let walk = rng.pick(&[Walk::Up, Walk::Down, Walk::Still]);
        let floor_speed = 16.0 * spacing(origin.abs().max_element());
        let speed = (rng.log_size(2.0e-3, 0.3) * size).max(floor_speed);
        let (speed, gravity) = if walk == Walk::Still {
            (0.0, rng.log_size(1.0e-3, 0.3) * size)
        } else {
            let ratio = if rng.chance(0.1) {
                rng.pick(&[0.0, 10.0])
            } else {
                rng.range(0.0, 10.0)
            };
            (speed, ratio * speed)
        };
        let case = SlopeCase {
            body,
            size,
            origin,
            angle,
            walk,
            speed,
            gravity,
        };
        cases += 1;
        if let Some(message) = check_slope_walk(&case) {
            failures.push(format!(
                "{body:?} {size} at {origin:?}, slope {:.3}°, {walk:?} speed {speed} gravity \
                 {gravity}: {message}",
                angle.to_degrees()
            ));
        }
    }
    assert_no_failures(&failures, cases, failures.len());
}

/// Every body, 0.05 to 50 units, near the origin and (from 2 units) up to 1e5 from it, walking
/// from level ground into a slope 1e-3 rad to 80° steeper than the 45° limit, 0.002 to 0.3 of
/// its size a call with gravity 0 to 10 times the walk: it never climbs it (its bottom never
/// rises more than a skin above where it stood on the ground, and a few `f32` spacings).
#[test]
fn slopes_steeper_than_the_limit_are_not_climbed_under_any_gravity() {
    let mut rng = Rng(0x57ee9);
    let max_slope = MoveOptions::default().max_slope;
    let mut failures = Vec::new();
    let mut cases = 0;
    for _ in 0..200 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let angle = rng.range(max_slope + 1.0e-3, 80f32.to_radians());
        let opts = MoveOptions::for_size(size);
        let skin = opts.skin;
        let speed =
            (rng.log_size(2.0e-3, 0.3) * size).max(16.0 * spacing(origin.abs().max_element()));
        let gravity = rng.range(0.0, 10.0) * speed;
        let mut world = World::new();
        // Level ground left of `origin` (top at `origin.y`), the slope rising from it.
        world
            .insert(
                Collider::new(Shape::from(Polygon::rect(40.0 * size, 2.0 * size).unwrap()))
                    .with_transform(Transform::new(origin + v(-20.0 * size, -size), 0.0)),
            )
            .unwrap();
        slope(&mut world, origin, angle, 40.0 * size, size);
        let shape = body_shape(body, size);
        let local = shape.aabb(&Transform::IDENTITY);
        let hero = world
            .insert(Collider::new(shape).with_transform(Transform::new(
                origin + v(-local.max.x - size, -local.min.y + 0.5 * skin),
                0.0,
            )))
            .unwrap();
        cases += 1;
        let rounding = 4.0 * spacing(origin.abs().max_element() + 2.0 * size) as f64;
        let frames = ((4.0 * size / speed) as usize).min(1500);
        let mut message = None;
        let mut highest = f64::MIN;
        for frame in 0..frames {
            let result = world
                .move_and_slide(hero, v(speed, -gravity), opts)
                .unwrap();
            let me = world.get(hero).unwrap();
            let bottom = me.shape().aabb(&me.world_transform()).min.y as f64 - origin.y as f64;
            highest = highest.max(bottom);
            if bottom > 1.5 * skin as f64 + rounding {
                message = Some(format!("frame {frame}: climbed to {bottom}: {result:?}"));
                break;
            }
            let deep = depth(&world, hero);
            if deep > 1e-3 * size + rounding as f32 {
                message = Some(format!("frame {frame}: {deep} deep"));
                break;
            }
        }
        if let Some(m) = message {
            failures.push(format!(
                "{body:?} {size} at {origin:?}, slope {:.3}°, speed {speed} gravity {gravity} \
                 (highest {highest}): {m}",
                angle.to_degrees()
            ));
        }
    }
    assert_no_failures(&failures, cases, failures.len());
}

/// Every body on an unwalkable slope (1e-3 rad to 80° past the limit), not standing on
/// anything walkable, under gravity alone or walking down it or up it (with gravity at least
/// twice what holds the request along the slope): gravity acts, it slides down every call from
/// the third on.
#[test]
fn on_an_unwalkable_slope_gravity_still_slides_the_character_down() {
    let mut rng = Rng(0xd0_5117);
    let max_slope = MoveOptions::default().max_slope;
    for case in 0..200 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let angle = rng.range(max_slope + 1.0e-3, 80f32.to_radians()) * rng.pick(&[1.0, -1.0]);
        let opts = MoveOptions::for_size(size);
        let floor_speed = 16.0 * spacing(origin.abs().max_element());
        let speed = (rng.log_size(2.0e-3, 0.3) * size).max(floor_speed);
        let rising = angle.signum();
        let cot = 1.0 / angle.abs().tan();
        let (walk, gravity) = match rng.below(3) {
            0 => (0.0, speed),
            1 => (-rising * speed, rng.range(0.0, 10.0) * speed),
            _ => (
                rising * speed,
                rng.range(2.0 * cot, 10.0f32.max(2.0 * cot)) * speed,
            ),
        };
        let mut world = World::new();
        slope(&mut world, origin, angle, 200.0 * size, size);
        let hero = world
            .insert(
                Collider::new(body_shape(body, size))
                    .with_transform(Transform::new(origin + v(0.0, 3.0 * size), 0.0)),
            )
            .unwrap();
        let rounding = 4.0 * spacing(origin.abs().max_element() + 3.0 * size) as f64;
        // Down onto it first.
        for _ in 0..200 {
            let result = world
                .move_and_slide(hero, v(0.0, -0.1 * size), opts)
                .unwrap();
            if !result.hits.is_empty() {
                break;
            }
        }
        let far = spacing(origin.abs().max_element()) > 1.0e-3;
        let start = at(&world, hero);
        for call in 0..20 {
            let before = at(&world, hero);
            let result = world.move_and_slide(hero, v(walk, -gravity), opts).unwrap();
            let (_, dy) = diff(before, at(&world, hero));
            let most = if far { 0.0 } else { -f64::MIN_POSITIVE };
            assert!(
                call < 2 || dy <= most,
                "case {case}: {body:?} {size} at {origin:?}, slope {:.3}°, walk {walk} gravity \
                 {gravity}: call {call} moved {dy} up: {result:?}",
                angle.to_degrees()
            );
            assert!(
                !result.on_floor,
                "case {case}: on an unwalkable slope: {result:?}"
            );
        }
        let (_, fell) = diff(start, at(&world, hero));
        assert!(
            fell < -rounding,
            "case {case}: {body:?} {size} at {origin:?}: {fell} down in 20 calls"
        );
    }
}

/// Every body in the air, well above a walkable slope, with a request of any walk (0 to 0.3
/// of its size) and gravity (up to 10 times the walk, at least enough to come down on the slope
/// within its length and a hundredth of its size): while more than half its size above the slope it moves exactly as asked (to the
/// `f32` rounding of its coordinates), is not on the floor, and lands on the slope in the end.
#[test]
fn a_character_in_the_air_falls_at_the_requested_speed() {
    let mut rng = Rng(0xfa11);
    for case in 0..200 {
        let body = rng.pick(&BODIES);
        let size = rng.log_size(0.05, 50.0);
        let origin = far_or_near(&mut rng, size);
        let angle = rng.range(-40f32.to_radians(), 40f32.to_radians());
        let opts = MoveOptions::for_size(size);
        let floor_speed = 16.0 * spacing(origin.abs().max_element());
        let speed = rng.range(0.0, 0.3) * size * rng.pick(&[1.0, -1.0]);
        // Enough to come down within the slope's length, walking down it too.
        let least = angle.abs().tan() + 0.125;
        let gravity = (rng.range(0.0, 10.0).max(least) * speed.abs())
            .max(0.01 * size)
            .max(floor_speed);
        let mut world = World::new();
        let (_, slab_shape, slab_xf) = slope(&mut world, origin, angle, 200.0 * size, size);
        let height = 10.0 * size;
        let hero = world
            .insert(
                Collider::new(body_shape(body, size))
                    .with_transform(Transform::new(origin + v(0.0, height), 0.0)),
            )
            .unwrap();
        let rounding = 2.0 * spacing(origin.abs().max_element() + height) as f64;
        let request = v(speed, -gravity);
        let slab = (slab_shape, slab_xf);
        let mut landed = false;
        for call in 0..2000 {
            let before = at(&world, hero);
            let result = world.move_and_slide(hero, request, opts).unwrap();
            let (dx, dy) = diff(before, at(&world, hero));
            if gap(&world, hero, (&slab.0, slab.1), origin) > 0.5 * size {
                let off = (dx - speed as f64).hypot(dy + gravity as f64);
                assert!(
                    off <= 2.0 * rounding,
                    "case {case}: {body:?} {size} at {origin:?} call {call}: moved ({dx}, {dy}) \
                     for {request:?}"
                );
                assert!(!result.on_floor, "case {case}: {result:?}");
            }
            if result.on_floor {
                landed = true;
                break;
            }
        }
        assert!(
            landed,
            "case {case}: {body:?} {size} at {origin:?}, slope {angle}, request {request:?}: never \
             landed, at {:?}",
            at(&world, hero) - origin
        );
    }
}
