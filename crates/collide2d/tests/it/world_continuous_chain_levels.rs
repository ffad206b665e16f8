//! Continuous bodies resting on the floor of a level built as one chain (an open chain of floor
//! and wall, a closed outline, a tile map's outline chains) and carried in one update through
//! its wall or its floor, turning or not.
//!
//! A chain's segments are one-sided: a body whose centroid ends behind the wall is not seen by
//! the chain's manifold there, so the pair ends touching the floor alone (or nothing), and the
//! chain's cast, taking the floor the body rests on as a hit at the start when the step goes
//! deeper into it (a box or capsule turning as it rolls), never reported the wall met later.
//! The contact reported must be the wall's (or the floor's, pushed down through it), pushing
//! the body back the way it came.

use crate::support::{Rng, BROAD_PHASES};
use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, CollisionEvent, TileGeometry, TileMapColliders, World,
};
use collide2d::{Rot, Transform, Vec2};

/// The kinds of level: the floor's top is the frame's `y = 0` for `x < 2`, the wall's face the
/// frame's `x = 2` for `0 < y < 3`.
#[derive(Clone, Copy, Debug)]
enum Level {
    /// `(2, 3) → (2, 0) → (-10, 0)`: wall face and floor, one-sided towards the body.
    Open,
    /// The outline of floor and wall as one solid, wound counter-clockwise.
    Closed,
    /// A tile map (unit tiles) of a floor row and a wall three tiles high, as outline chains.
    Tiles,
}

const LEVELS: [Level; 3] = [Level::Open, Level::Closed, Level::Tiles];

/// Inserts `level` in `frame` (a tile map is not turned: only `frame.p` counts); returns the
/// colliders the body can touch.
fn insert_level(world: &mut World, level: Level, frame: Transform) -> Vec<ColliderHandle> {
    let points =
        |list: &[(f32, f32)]| -> Vec<Vec2> { list.iter().map(|&(x, y)| Vec2::new(x, y)).collect() };
    let chain = match level {
        Level::Open => Chain::open(&points(&[(2.0, 3.0), (2.0, 0.0), (-10.0, 0.0)])).unwrap(),
        Level::Closed => Chain::closed(&points(&[
            (-10.0, -1.0),
            (3.0, -1.0),
            (3.0, 3.0),
            (2.0, 3.0),
            (2.0, 0.0),
            (-10.0, 0.0),
        ]))
        .unwrap(),
        Level::Tiles => {
            let map = TileMap::from_fn(16, 6, 1.0, frame.p - Vec2::new(10.0, 1.0), |x, y| {
                if y == 0 || (x >= 12 && y <= 3) {
                    Tile::SOLID
                } else {
                    Tile::EMPTY
                }
            })
            .unwrap();
            let tiles = TileMapColliders::insert(world, &map, TileGeometry::Outlines).unwrap();
            return tiles.handles().collect();
        }
    };
    vec![world
        .insert(Collider::new(Shape::from(chain)).with_transform(frame))
        .unwrap()]
}

/// The direction the level's contacts push `body` out at the last update, from the first
/// `Begin`/`Stay` with a manifold (`None` when it touches none of them).
fn push_on(world: &World, body: ColliderHandle, level: &[ColliderHandle]) -> Option<Vec2> {
    world.events().iter().find_map(|event| match *event {
        CollisionEvent::Begin { b, manifold, .. } | CollisionEvent::Stay { b, manifold, .. }
            if event.involves(body) && level.iter().any(|&part| event.involves(part)) =>
        {
            let normal = manifold?.normal;
            Some(if b == body { normal } else { -normal })
        }
        _ => None,
    })
}

/// A body resting on the level's floor (its lowest point `sink` below the floor's top) at
/// frame `x`, after one update; `None` when it does not touch the level then.
fn resting_body(
    kind: BroadPhaseKind,
    level: Level,
    frame: Transform,
    shape: &Shape,
    x: f32,
    sink: f32,
) -> Option<(World, Vec<ColliderHandle>, ColliderHandle, Vec2)> {
    let mut world = World::with_broad_phase(kind).unwrap();
    let parts = insert_level(&mut world, level, frame);
    let rest = Vec2::new(x, -sink - shape.aabb(&Transform::IDENTITY).min.y);
    let body = world
        .insert(
            Collider::new(shape.clone())
                .with_continuous(true)
                .with_transform(Transform {
                    p: frame.apply(rest),
                    q: frame.q,
                }),
        )
        .unwrap();
    world.update();
    push_on(&world, body, &parts)?;
    Some((world, parts, body, rest))
}

/// Moves `body` to frame point `end` turned by `turn` (stated with `set_transform_spinning`
/// when `spinning`) and updates.
fn carry(
    world: &mut World,
    body: ColliderHandle,
    frame: Transform,
    end: Vec2,
    turn: f32,
    spinning: bool,
) {
    let xf = Transform {
        p: frame.apply(end),
        q: frame.q.mul(Rot::from_angle(turn)),
    };
    if spinning {
        world.set_transform_spinning(body, xf, turn).unwrap();
    } else {
        world.set_transform(body, xf).unwrap();
    }
    world.update();
}

/// A box, a ball and a capsule (0.4 across), with their half heights.
fn bodies() -> [(Shape, f32); 3] {
    [
        (Shape::from(Polygon::rect(0.4, 0.4).unwrap()), 0.2),
        (Shape::from(Circle::with_radius(0.2).unwrap()), 0.2),
        (
            Shape::from(Capsule::new(Vec2::new(-0.1, 0.0), Vec2::new(0.1, 0.0), 0.1).unwrap()),
            0.1,
        ),
    ]
}

/// A box, ball or capsule resting on the floor of each kind of chain level at `x = 0`, carried
/// in one update along the floor (or 0.05 down into it) until its centre is 0.1, 0.3 or 0.5
/// past the wall's face, turning by 0, ±0.3 rad (shortest) or 0.3 rad stated: the contact is
/// the wall's, pushing it back (`-x`). Before, 288 of these 432 cases reported the floor's
/// contact (`+y`) or none: a body still touching the floor kept that end contact, and one
/// that turned deeper into the floor as it went had its cast stop at the floor at the start.
#[test]
fn a_body_resting_on_a_chain_levels_floor_carried_through_its_wall_is_pushed_back() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for kind in BROAD_PHASES {
        for level in LEVELS {
            for (shape, half) in bodies() {
                for (past, down) in [(0.1, 0.0), (0.3, 0.0), (0.5, 0.0), (0.1, 0.05)] {
                    for (turn, spinning) in [(0.0, false), (0.3, false), (-0.3, false), (0.3, true)]
                    {
                        let Some((mut world, parts, body, rest)) =
                            resting_body(kind, level, Transform::IDENTITY, &shape, 0.0, 0.002)
                        else {
                            failures.push(format!("{level:?} {shape:?}: not resting"));
                            continue;
                        };
                        cases += 1;
                        let end = Vec2::new(2.0 + past, rest.y - down);
                        carry(&mut world, body, Transform::IDENTITY, end, turn, spinning);
                        let push = push_on(&world, body, &parts);
                        if push.is_none_or(|push| (push + Vec2::X).length() > 1e-4) {
                            failures.push(format!(
                                "{kind:?} {level:?} {shape:?} half {half} to {end:?} turning {turn} (spinning {spinning}): {push:?}"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert_eq!(cases, 3 * 3 * 3 * 4 * 4);
    assert!(
        failures.is_empty(),
        "{} of {cases} wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

/// Bodies (boxes, balls, capsules 0.1..0.6 across) resting on the floor of a chain level
/// (open chain, closed outline, tile-map outlines; the chains turned any way), about the origin
/// or 1e3 or 1e4 out, carried in one update along the floor into the wall, to anywhere from
/// touching it to well past it, or down into the floor to up to past it, at up to 45° from
/// straight, turning up to ±0.5 rad (stated in every other case). Whenever the body's centre
/// ends behind the wall's face (or the floor's top) by more than the rounding out there, the
/// pair must touch at that update with the contact of that face, pushing the body back; when
/// it does not, a contact must never push the body on along its motion.
#[test]
fn bodies_resting_on_chain_levels_carried_through_a_wall_or_the_floor_are_pushed_back() {
    let mut failures = Vec::new();
    let (mut cases, mut through) = (0usize, 0usize);
    for case in 0..1500u64 {
        let seed = 0xc4a1_0000 + case;
        let mut rng = Rng(seed);
        let level = LEVELS[(case % 3) as usize];
        let kind = BROAD_PHASES[(case / 3 % 3) as usize];
        let centre = match case / 9 % 3 {
            0 => Vec2::ZERO,
            1 => Vec2::new(-1.0e3, 4.0e2),
            _ => Vec2::new(1.0e4, 7.0e3),
        };
        let angle = match level {
            Level::Tiles => 0.0,
            _ if rng.chance(0.3) => 0.0,
            _ => rng.angle(),
        };
        let frame = Transform::new(centre, angle);
        let size = rng.log_size(0.1, 0.6);
        let shape = match rng.below(3) {
            0 => Shape::from(Polygon::rect(size, size * rng.range(0.3, 1.0)).unwrap()),
            1 => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
            _ => Shape::from(
                Capsule::new(
                    Vec2::new(-0.3 * size, 0.0),
                    Vec2::new(0.3 * size, 0.0),
                    0.2 * size,
                )
                .unwrap(),
            ),
        };
        let slack = 1e-3 + centre.abs().max_element() * 1e-6;
        // Overlapping the floor a little (more than the rounding out there), its centre well
        // in front of the floor's top.
        let sink = 2e-3 + centre.abs().max_element() * 4.0 * f32::EPSILON;
        let x = rng.range(-2.0, 0.0);
        let Some((mut world, parts, body, rest)) =
            resting_body(kind, level, frame, &shape, x, sink)
        else {
            failures.push(format!("case {case} seed {seed:#x}: not resting"));
            continue;
        };
        cases += 1;
        let local = shape.aabb(&Transform::IDENTITY);
        let into_wall = rng.chance(0.6);
        let end = if into_wall {
            // From touching the face to the whole body past it, a little down into the floor
            // (its centre staying in front of the floor's top).
            let x_end = 2.0 - local.max.x + rng.range(0.0, 1.2 * (local.max.x - local.min.x));
            Vec2::new(x_end, rest.y + rng.range(0.0, 0.3) * local.min.y)
        } else {
            let depth = rng.range(0.0, 1.5 * (local.max.y - local.min.y));
            Vec2::new(rest.x + rng.range(-1.0, 1.0) * depth, rest.y - depth)
        };
        let turn = rng.range(-0.5, 0.5);
        let spinning = case % 2 == 1;
        carry(&mut world, body, frame, end, turn, spinning);
        let push = push_on(&world, body, &parts);
        let (face, behind) = if into_wall {
            (-Vec2::X, end.x - 2.0)
        } else {
            (Vec2::Y, -end.y)
        };
        let face = frame.q.rotate(face);
        let motion = frame.q.rotate(end - rest);
        let direction = motion / motion.length().max(f32::MIN_POSITIVE);
        let label = || {
            format!(
                "case {case} seed {seed:#x} {kind:?} {level:?} in {frame:?}: {shape:?} from {rest:?} to {end:?} turning {turn} (spinning {spinning}): {push:?}"
            )
        };
        if behind > slack {
            through += 1;
            if push.is_none_or(|push| push.dot(face) < 0.999) {
                failures.push(format!("through, not pushed back: {}", label()));
            }
        } else if push.is_some_and(|push| push.dot(direction) > 1e-3) {
            failures.push(format!("pushed on along its motion: {}", label()));
        }
    }
    eprintln!("{cases} cases, {through} through the wall or floor");
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
    assert!(
        cases >= 1400 && through >= 400,
        "{cases} cases, {through} through"
    );
}
