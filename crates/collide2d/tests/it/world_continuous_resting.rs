//! Continuous colliders that touched a collider at the last update and that the next step
//! carries further into it: the sweep must find that contact too. A ball rolling along the
//! floor of a level built as one chain (or one compound) and shot into that level's wall used
//! to pass through it with only an `End`: the sweep skipped every pair touching at the last
//! update and left it to the end of the step.
//!
//! Each case builds a level piece (a chain floor and wall, or a compound of a floor box and a
//! wall box 0.01–1 thick), the wall upright or leaning up to 45° either way, the whole piece
//! turned and placed about the origin or 1e3 or 1e4 out. A continuous body (circle, capsule or
//! box, 0.05–0.5 across) rests on the floor (the first update reports its `Begin`), and one
//! update moves it along the floor by up to 1e4:
//!
//! - into the wall and past it (the path meets the wall at least a body size below its top):
//!   the pair reports a `Stay` whose contact is on the wall, facing it, then an `End` at the
//!   next update;
//! - over the wall (the path clears its top by at least a body size), or away from the wall
//!   and off the floor's far end, or up off the floor: an `End` at once;
//! - along the floor, stopping short of the wall: a `Stay`, still touching the floor;
//! - straight down through the floor (1 thick) it rests on: a `Stay` whose contact is on the
//!   floor, then an `End` (a body resting on a chain with its centre within three sweep
//!   tolerances of the chain's line, where rounding decides its side, is left out).
//!
//! The three broad phases take turns.

use crate::support::{Rng, BROAD_PHASES};
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, CollisionEvent, World};
use collide2d::{Transform, Vec2};

fn at(x: f32, y: f32) -> Transform {
    Transform::new(Vec2::new(x, y), 0.0)
}

/// Runs one update and returns its events as `(kind, a, b)` with the event itself.
fn step(world: &mut World) -> Vec<(&'static str, CollisionEvent)> {
    world.update();
    world
        .events()
        .iter()
        .map(|event| {
            let kind = match event {
                CollisionEvent::Begin { .. } => "begin",
                CollisionEvent::Stay { .. } => "stay",
                CollisionEvent::End { .. } => "end",
            };
            (kind, *event)
        })
        .collect()
}

fn kinds(events: &[(&'static str, CollisionEvent)]) -> Vec<&'static str> {
    events.iter().map(|(kind, _)| *kind).collect()
}

/// The exact example: a floor from `x = -10` to the foot of a wall at `x = 10` (as one chain,
/// or as a compound of two boxes), a ball of radius 0.5 resting on it at the origin, moved
/// 1,000 along the floor in one update. It used to report only an `End`.
#[test]
fn a_ball_rolling_on_a_level_piece_meets_its_wall() {
    let chain = Shape::from(
        Chain::open(&[
            Vec2::new(10.0, 100.0),
            Vec2::new(10.0, 0.0),
            Vec2::new(-10.0, 0.0),
        ])
        .unwrap(),
    );
    let compound = |thickness: f32| {
        Shape::from(
            Compound::new(vec![
                (
                    at(0.0, -0.5),
                    Shape::from(Polygon::rect(20.0, 1.0).unwrap()),
                ),
                (
                    at(10.0 + thickness / 2.0, 50.0),
                    Shape::from(Polygon::rect(thickness, 100.0).unwrap()),
                ),
            ])
            .unwrap(),
        )
    };
    for level_shape in [chain, compound(1.0), compound(0.01)] {
        for kind in BROAD_PHASES {
            let mut world = World::with_broad_phase(kind).unwrap();
            let level = world.insert(Collider::new(level_shape.clone())).unwrap();
            let ball = world
                .insert(
                    Collider::new(Shape::from(Circle::with_radius(0.5).unwrap()))
                        .with_transform(at(0.0, 0.5))
                        .with_continuous(true),
                )
                .unwrap();
            assert_eq!(kinds(&step(&mut world)), ["begin"]);
            world.set_transform(ball, at(1000.0, 0.5)).unwrap();
            let events = step(&mut world);
            assert_eq!(kinds(&events), ["stay"], "{kind:?} {level_shape:?}");
            assert_eq!(events[0].1.pair(), (level, ball));
            // The contact at the time of impact: on the wall, the normal from the level to
            // the ball.
            let manifold = *events[0].1.manifold().unwrap();
            assert!((manifold.normal - Vec2::new(-1.0, 0.0)).length() < 1e-4);
            let point = manifold.points[0].point;
            assert!((point - Vec2::new(10.0, 0.5)).length() < 1e-3, "{point:?}");
            assert!(world.contacts().any(|(a, b, _)| (a, b) == (level, ball)));
            assert_eq!(kinds(&step(&mut world)), ["end"]);
            assert!(step(&mut world).is_empty());
        }
    }
}

/// A bullet stopped at the middle of a thin wall, moved back out the way it came: it leaves
/// the wall (an `End` at once), though a cast from there, with two equal ways out, judges the
/// move by the contact normal of one of them. A ball resting on a thin floor and dropped
/// through it touches it (a `Stay`, then an `End`).
#[test]
fn leaving_a_wall_ends_at_once_and_dropping_through_a_floor_touches_it() {
    for kind in BROAD_PHASES {
        let mut world = World::with_broad_phase(kind).unwrap();
        let wall = world
            .insert(
                Collider::new(Shape::from(Polygon::rect(0.01, 4.0).unwrap()))
                    .with_transform(at(500.0, 0.0)),
            )
            .unwrap();
        let bullet = world
            .insert(
                Collider::new(Shape::from(Circle::with_radius(0.05).unwrap()))
                    .with_transform(at(500.0, 0.0))
                    .with_continuous(true),
            )
            .unwrap();
        assert_eq!(kinds(&step(&mut world)), ["begin"]);
        world.set_transform(bullet, at(-10.0, 0.0)).unwrap();
        let events = step(&mut world);
        assert_eq!(kinds(&events), ["end"], "{kind:?}");
        assert_eq!(events[0].1.pair(), (wall, bullet));

        let floor = world
            .insert(
                Collider::new(Shape::from(Polygon::rect(4.0, 0.01).unwrap()))
                    .with_transform(at(0.0, -0.005)),
            )
            .unwrap();
        world.teleport(bullet, at(0.0, 0.049)).unwrap();
        assert_eq!(kinds(&step(&mut world)), ["begin"]);
        world.set_transform(bullet, at(0.0, -1000.0)).unwrap();
        let events = step(&mut world);
        assert_eq!(kinds(&events), ["stay"], "{kind:?}");
        assert_eq!(events[0].1.pair(), (bullet, floor));
        let manifold = events[0].1.manifold().unwrap();
        assert!((manifold.normal - Vec2::new(0.0, -1.0)).length() < 1e-4);
        assert_eq!(kinds(&step(&mut world)), ["end"]);
    }
}

/// What a case's shot does, by construction.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shot {
    /// Into the wall, well below its top, and on past it.
    Into,
    /// Over the wall, well above its top.
    Over,
    /// Away from the wall, along the floor.
    Away,
    /// Straight up off the floor.
    Up,
    /// Along the floor, stopping well short of the wall.
    Short,
    /// Straight down through the floor.
    Down,
}

#[test]
fn resting_bodies_shot_along_their_floor_meet_the_wall_of_the_same_collider() {
    let mut rng = Rng(0x7e57_1e5e);
    let cases = 1500;
    let mut failures = Vec::new();
    let mut counts = [0usize; 6];
    for case in 0..cases {
        let kind = BROAD_PHASES[case % 3];
        let far = [0.0f32, 1e3, 1e4][rng.below(3)];
        let center = Vec2::new(far * rng.range(-1.0, 1.0), far * rng.range(-1.0, 1.0));
        let turn = rng.angle();
        let frame = Transform::new(center, turn);
        // Level frame: floor top along y = 0 from x = -floor_back to the wall's foot at
        // x = wall_x; the wall rises to `height`, leaning by `lean` (its top at
        // x = wall_x + height tan(lean)).
        let wall_x = rng.log_size(1.0, 1.0e4);
        let floor_back = wall_x + rng.range(1.0, 10.0);
        let height = rng.range(2.0, 20.0);
        let lean = rng.range(-0.7, 0.7);
        let top_x = wall_x + height * lean.tan();
        let chain = rng.chance(0.5);
        let thickness = rng.log_size(0.01, 1.0);
        let level_shape = if chain {
            Shape::from(
                Chain::open(&[
                    Vec2::new(top_x, height),
                    Vec2::new(wall_x, 0.0),
                    Vec2::new(-floor_back, 0.0),
                ])
                .unwrap(),
            )
        } else {
            // A floor box under y = 0 and a wall box whose inner face runs from the foot to
            // the top.
            let floor = (
                at((wall_x - floor_back) / 2.0, -0.5),
                Shape::from(Polygon::rect(wall_x + floor_back, 1.0).unwrap()),
            );
            let length = (height * height + (top_x - wall_x).powi(2)).sqrt();
            let along = Vec2::new(top_x - wall_x, height) / length;
            let outward = Vec2::new(along.y, -along.x);
            let middle =
                Vec2::new((wall_x + top_x) / 2.0, height / 2.0) + outward * (thickness / 2.0);
            let wall = (
                Transform::new(middle, along.y.atan2(along.x) - std::f32::consts::FRAC_PI_2),
                Shape::from(Polygon::rect(thickness, length).unwrap()),
            );
            Shape::from(Compound::new(vec![floor, wall]).unwrap())
        };
        let size = rng.log_size(0.05, 0.5);
        let body_kind = rng.below(3);
        let (body_shape, half_height, half_length) = match body_kind {
            0 => (
                Shape::from(Circle::with_radius(size / 2.0).unwrap()),
                size / 2.0,
                size / 2.0,
            ),
            1 => (
                Shape::from(
                    Capsule::new(Vec2::new(-size, 0.0), Vec2::new(size, 0.0), size / 4.0).unwrap(),
                ),
                size / 4.0,
                size * 1.25,
            ),
            _ => (
                Shape::from(Polygon::rect(2.0 * size, size / 2.0).unwrap()),
                size / 4.0,
                size,
            ),
        };
        // Resting a little into the floor, so that it touches whatever the rounding far out.
        let sink = (size * 0.02)
            .max(center.abs().max_element() * 8.0 * f32::EPSILON)
            .min(half_height / 2.0);
        let start_x = rng.range(-floor_back * 0.5, wall_x * 0.5);
        let start = Vec2::new(start_x, half_height - sink);
        let shot = [
            Shot::Into,
            Shot::Over,
            Shot::Away,
            Shot::Up,
            Shot::Short,
            Shot::Down,
        ][rng.below(6)];
        // The wall's inner face at height y.
        let face_x = |y: f32| wall_x + y * lean.tan();
        let end = match shot {
            Shot::Into => {
                // Cross the wall at a height between resting and a body size below the top.
                let cross_y = rng.range(start.y, height - 2.0 * size - half_height);
                let beyond = rng.log_size(3.0, 1.0e4);
                let cross_x = face_x(cross_y);
                if cross_x < start.x + 2.0 * half_length + size {
                    // A wall leaning back over the body: no rising path from here meets its face.
                    continue;
                }
                let slope = (cross_y - start.y) / (cross_x - start.x);
                let end_x = cross_x + beyond;
                Vec2::new(end_x, start.y + slope * (end_x - start.x))
            }
            Shot::Over => {
                // Above the wall's whole reach (its top, and a leaning box's corner above it) by
                // a body size, from before its nearest point on.
                let clear_y = height + thickness + 2.0 * size + half_length;
                let clear_x = top_x.min(wall_x) - 1.0;
                if clear_x - start.x < 1.0 {
                    continue;
                }
                let slope = (clear_y - start.y) / (clear_x - start.x);
                let end_x = top_x.max(wall_x) + rng.log_size(3.0, 1.0e4);
                let end_y = start.y + slope * (end_x - start.x);
                if end_y > 1.0e4 {
                    continue;
                }
                Vec2::new(end_x, end_y)
            }
            Shot::Away => Vec2::new(
                -floor_back - half_length - rng.log_size(1.0, 1.0e4),
                start.y,
            ),
            Shot::Up => {
                if start.x + half_length + size + thickness > top_x.min(wall_x) {
                    // Under a wall leaning back over the floor.
                    continue;
                }
                Vec2::new(start.x, start.y + rng.log_size(1.0, 1.0e3))
            }
            Shot::Down => Vec2::new(start.x, -1.0 - size - rng.log_size(1.0, 1.0e4)),
            Shot::Short => Vec2::new(
                rng.range(start.x, face_x(0.0) - half_length - 2.0 * size),
                start.y,
            ),
        };
        let tolerance = 4.0 * f32::EPSILON * center.abs().max_element().max((end - start).length());
        if chain && shot == Shot::Down && start.y < 3.0 * tolerance {
            // Its centre rests within the margin of the one-sided chain's line where rounding
            // decides which side it is on.
            continue;
        }
        counts[shot as usize] += 1;
        let mut world = World::with_broad_phase(kind).unwrap();
        let level = world
            .insert(Collider::new(level_shape).with_transform(frame))
            .unwrap();
        let place = |p: Vec2| Transform {
            p: frame.apply(p),
            q: frame.q,
        };
        let body = world
            .insert(
                Collider::new(body_shape)
                    .with_transform(place(start))
                    .with_continuous(true),
            )
            .unwrap();
        let describe = format!(
            "case {case} ({kind:?}): {shot:?}, chain {chain}, body {body_kind} size {size}, \
             far {far}, wall_x {wall_x}, height {height}, lean {lean}, thickness {thickness}, \
             start {start:?}, end {end:?}"
        );
        let first = step(&mut world);
        if kinds(&first) != ["begin"] {
            failures.push(format!("{describe}: resting gives {:?}", kinds(&first)));
            continue;
        }
        world.set_transform(body, place(end)).unwrap();
        let events = step(&mut world);
        // The sweep's tolerance and the rounding of the placements: ulps of the farthest
        // coordinate or motion.
        let scale =
            (frame.p.abs().max_element() + start.abs().max_element() + end.abs().max_element())
                .max((end - start).length());
        let allowance = 1e-4 + 16.0 * f32::EPSILON * scale;
        let problem = check(
            &world,
            (level, body),
            shot,
            &events,
            &frame,
            (lean, wall_x),
            allowance,
        );
        if let Some(problem) = problem {
            failures.push(format!("{describe}: {problem}"));
            continue;
        }
        if shot == Shot::Into || shot == Shot::Down {
            let next = step(&mut world);
            if kinds(&next) != ["end"] {
                failures.push(format!("{describe}: next update gives {:?}", kinds(&next)));
            }
        }
    }
    assert!(counts.iter().all(|&count| count > 100), "{counts:?}");
    crate::support::assert_no_failures(&failures, cases, 10);
}

/// What the shot's update must report.
fn check(
    world: &World,
    pair: (ColliderHandle, ColliderHandle),
    shot: Shot,
    events: &[(&'static str, CollisionEvent)],
    frame: &Transform,
    (lean, wall_x): (f32, f32),
    allowance: f32,
) -> Option<String> {
    let expected = match shot {
        Shot::Into | Shot::Short | Shot::Down => "stay",
        Shot::Over | Shot::Away | Shot::Up => "end",
    };
    if kinds(events) != [expected] {
        return Some(format!("gives {:?}, not [{expected}]", kinds(events)));
    }
    if events[0].1.pair() != pair {
        return Some("another pair".into());
    }
    if shot == Shot::Away || shot == Shot::Short {
        return None;
    }
    let manifold = events[0].1.manifold()?;
    if shot == Shot::Down {
        // At the start of the step, on the floor (the body sinks into it by less than 0.5):
        // the normal up out of it.
        let normal = frame.rotate_inv(manifold.normal);
        let point = frame.apply_inv(manifold.points[0].point);
        if normal.dot(Vec2::Y) < 0.999 || point.y.abs() > allowance + 0.5 {
            return Some(format!(
                "contact {point:?} normal {normal:?} is not on the floor"
            ));
        }
        return None;
    }
    // In the level's frame the wall's inner face runs from (wall_x, 0) along
    // (sin lean, cos lean), facing (−cos lean, sin lean); the normal goes from the level to the
    // body, out of the face: the face's own normal, or (a body's flat side meeting the foot
    // of a wall leaning away, the wall box's corner there) within the lean of it.
    let face_normal = Vec2::new(-lean.cos(), lean.sin());
    let normal = frame.rotate_inv(manifold.normal);
    if normal.dot(face_normal) < lean.abs().cos().min(0.999) - 1e-3 {
        return Some(format!("normal {normal:?} does not face out of the wall"));
    }
    let point = frame.apply_inv(manifold.points[0].point);
    let off_face = (point - Vec2::new(wall_x, 0.0)).dot(face_normal).abs();
    if off_face > allowance {
        return Some(format!(
            "contact point {point:?} is {off_face} off the wall's face"
        ));
    }
    if !world.contacts().any(|(a, b, _)| (a, b) == pair) {
        return Some("not among the contacts".into());
    }
    None
}
