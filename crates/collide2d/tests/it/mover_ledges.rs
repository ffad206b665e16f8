//! Walking down off ledges: every character (circles, capsules, rounded boxes and boxes) stays
//! on the floor walking off a ledge, down stairs, or off the foot of a walkable slope onto
//! floor lower than the snap distance, and leaves the floor off a higher drop.

use crate::character_mover::depth;
use crate::mover_edges::{body_shape, Body, BODIES};
use crate::mover_scale::{spacing, used};
use crate::support::Rng;

use collide2d::query::collide_all;
use collide2d::shape::{Capsule, Chain, Circle, Polygon, Shape};
use collide2d::world::{Collider, ColliderHandle, MoveOptions, MoveResult, World};
use collide2d::{Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A solid `shape` placed at `at`.
fn solid(world: &mut World, shape: Shape, at: Vec2) -> ColliderHandle {
    world
        .insert(Collider::new(shape).with_transform(Transform::new(at, 0.0)))
        .unwrap()
}

fn slab(world: &mut World, center: Vec2, width: f32, height: f32) -> ColliderHandle {
    solid(
        world,
        Shape::from(Polygon::rect(width, height).unwrap()),
        center,
    )
}

/// How deep the character is in anything: as `depth`, but a chain measured segment by segment
/// as two-sided segments (how far the character would have to move to be clear of it). Far out,
/// a box whose side rounds to a few spacings past a chain's square corner overlaps the corner by
/// those spacings across, though the one-sided chain reports it as deep as the box reaches
/// below the corner's top.
fn depth_across(world: &World, hero: ColliderHandle) -> f32 {
    let me = world.get(hero).unwrap();
    let mut deepest = 0.0f32;
    let mut manifolds = Vec::new();
    let mut solids = Vec::new();
    for (handle, other) in world.iter() {
        if handle == hero {
            continue;
        }
        solids.clear();
        match other.shape() {
            Shape::Chain(chain) => solids.extend(
                (0..chain.segment_count()).map(|i| Shape::Segment(chain.segment(i).unwrap())),
            ),
            shape => solids.push(shape.clone()),
        }
        for solid in &solids {
            manifolds.clear();
            collide_all(
                me.shape(),
                &me.world_transform(),
                solid,
                &other.world_transform(),
                0.0,
                &mut manifolds,
            );
            for manifold in &manifolds {
                deepest = deepest.max(manifold.max_penetration());
            }
        }
    }
    deepest
}

/// Fails unless `failures` (each starting "case N:") is empty, listing the first `shown` and
/// how many walks they come from.
#[track_caller]
fn assert_no_failed_walks(failures: &[String], shown: usize) {
    let walks: std::collections::BTreeSet<&str> = failures
        .iter()
        .filter_map(|failure| failure.split(':').next())
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures in {} walks, the first:\n{}",
        failures.len(),
        walks.len(),
        failures[..failures.len().min(shown)].join("\n")
    );
}

/// The character's lowest point.
fn bottom(world: &World, hero: ColliderHandle) -> f32 {
    let me = world.get(hero).unwrap();
    me.shape().aabb(&me.world_transform()).min.y
}

fn centre(world: &World, hero: ColliderHandle) -> Vec2 {
    world.get(hero).unwrap().transform().p
}

// ---------------------------------------------------------------------------------------------
// The exact examples.

/// An upper floor with its top at y = 0 ending at x = 0, and a lower one `height` below
/// beyond it; `shape` standing on the upper floor half a skin (0.005) above it, its right side
/// `back` short of the edge.
fn ledge_scene(shape: Shape, height: f32, back: f32) -> (World, ColliderHandle) {
    let mut world = World::new();
    slab(&mut world, v(-2.0, -0.5), 4.0, 1.0);
    slab(&mut world, v(2.0, -0.5 - height), 4.0, 1.0);
    let half = shape.aabb(&Transform::IDENTITY).max;
    let hero = solid(&mut world, shape, v(-half.x - back, half.y + 0.005));
    (world, hero)
}

/// A unit capsule (radius 0.3) and a circle of radius 0.5 walking 0.05 a call off a 0.1 ledge
/// (half the default snap distance), with no gravity and with gravity 0.05. The capsule's
/// bottom met the ledge's corner at more than 45° on the way down, so the snap cast stopped
/// there, too steep to stand on: with no gravity it was never snapped again and walked on
/// 0.06 above the lower floor, on the floor no more; with gravity it lost the floor for a
/// call or two (the circle, off ledges of 0.19, likewise). It now slides down off the corner
/// onto the lower floor: on the floor every call, ending a skin above the lower floor (no
/// more than two with no gravity: it may come to rest on the corner within them).
#[test]
fn a_capsule_and_a_circle_stay_on_the_floor_walking_off_a_small_ledge() {
    let skin = 0.01;
    for (name, shape) in [
        ("capsule", Shape::from(Capsule::vertical(1.0, 0.3).unwrap())),
        ("circle", Shape::from(Circle::with_radius(0.5).unwrap())),
    ] {
        for height in [0.1f32, 0.19] {
            for gravity in [0.0f32, 0.05] {
                for back in [0.0f32, 0.01, 0.02, 0.03, 0.04] {
                    let (mut world, hero) = ledge_scene(shape.clone(), height, back);
                    for call in 0..40 {
                        let result = world
                            .move_and_slide(hero, v(0.05, -gravity), MoveOptions::default())
                            .unwrap();
                        assert!(
                            result.on_floor && depth(&world, hero) <= 1.0e-3,
                            "{name} walking off a {height} ledge from {back} back, gravity \
                             {gravity}: call {call}: {result:?}"
                        );
                    }
                    let gap = bottom(&world, hero) + height;
                    let highest = if gravity > 0.0 {
                        1.1 * skin
                    } else {
                        2.0 * skin
                    };
                    assert!(
                        centre(&world, hero).x > 1.0 && (0.9 * skin..=highest).contains(&gap),
                        "{name} walking off a {height} ledge from {back} back, gravity \
                         {gravity}: {gap} above the lower floor"
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sweeps.

/// How a ledge is built.
#[derive(Clone, Copy, Debug)]
enum Ledge {
    /// Two boxes, the lower one's top `height` below the upper one's.
    Boxes,
    /// Two polygons; the upper one's side leans by `lean` radians from upright (positive: out
    /// over the lower floor, a steep slope; negative: undercut).
    Polygons { lean: f32 },
    /// One chain along both floors' tops and the ledge's side.
    Chain,
}

/// One walk off a ledge.
#[derive(Clone, Copy, Debug)]
struct Walk {
    kind: Body,
    ledge: Ledge,
    size: f32,
    origin: Vec2,
    height: f32,
    speed: f32,
    gravity: f32,
    /// How far short of the edge the character's side starts.
    back: f32,
}

/// The floors of `walk`: the upper one's top at `origin.y` ending at `origin.x`, the lower
/// one `height` below it beyond, each `reach` long. The shapes are built about `origin` and
/// placed there, so their numbers keep their precision far out.
fn build_ledge(world: &mut World, walk: &Walk, reach: f32) {
    let Walk {
        origin,
        height,
        size,
        ..
    } = *walk;
    let thick = size;
    match walk.ledge {
        Ledge::Boxes => {
            let upper = Polygon::box_at(
                v(-0.5 * reach, -0.5 * thick),
                v(0.5 * reach, 0.5 * thick),
                0.0,
            );
            solid(world, Shape::from(upper.unwrap()), origin);
            let lower = Polygon::box_at(
                v(0.5 * reach, -height - 0.5 * thick),
                v(0.5 * reach, 0.5 * thick),
                0.0,
            );
            solid(world, Shape::from(lower.unwrap()), origin);
        }
        Ledge::Polygons { lean } => {
            let foot = thick * lean.tan();
            let upper = [
                v(-reach, -thick),
                v(foot, -thick),
                v(0.0, 0.0),
                v(-reach, 0.0),
            ];
            solid(world, Shape::from(Polygon::new(&upper).unwrap()), origin);
            let from = foot.min(0.0) - size;
            let lower = [
                v(from, -height - thick),
                v(reach, -height - thick),
                v(reach, -height),
                v(from, -height),
            ];
            solid(world, Shape::from(Polygon::new(&lower).unwrap()), origin);
        }
        Ledge::Chain => {
            // Walked on from above, a chain runs right to left.
            let points: Vec<Vec2> = if height > 0.0 {
                vec![
                    v(reach, -height),
                    v(0.0, -height),
                    v(0.0, 0.0),
                    v(-reach, 0.0),
                ]
            } else {
                vec![v(reach, 0.0), v(-reach, 0.0)]
            };
            solid(world, Shape::from(Chain::open(&points).unwrap()), origin);
        }
    }
}

/// What became of one walk: the results of every call, the deepest overlap after any call,
/// and where the character's bottom ended above the lower floor.
struct Walked {
    results: Vec<MoveResult>,
    deepest: f32,
    /// The lowest the character's bottom came relative to the lower floor's top.
    lowest: f32,
    gap: f32,
    /// The centre's distance past the edge at the end.
    past: f32,
}

/// Walks `walk` (starting `rest` above the upper floor, requesting `lift` along up besides
/// the walk and gravity) until the character is well past the edge.
fn run(walk: &Walk, rest: f32, lift: f32) -> Walked {
    let mut world = World::new();
    let shape = body_shape(walk.kind, walk.size);
    let half = shape.aabb(&Transform::IDENTITY).max;
    let reach = 4.0 * walk.size + 8.0 * walk.speed + 8.0 * half.x;
    build_ledge(&mut world, walk, reach);
    let start = walk.origin + v(-half.x - walk.back, half.y + rest);
    let hero = solid(&mut world, shape, start);
    let options = MoveOptions::for_size(walk.size);
    let delta = v(walk.speed, lift - walk.gravity);
    let goal = 1.5 * half.x + 2.0 * walk.speed;
    let mut walked = Walked {
        results: Vec::new(),
        deepest: 0.0,
        lowest: f32::INFINITY,
        gap: 0.0,
        past: 0.0,
    };
    let mut extra = 0;
    while extra < 3 && walked.results.len() < 5000 {
        let result = world.move_and_slide(hero, delta, options).unwrap();
        walked.results.push(result);
        walked.deepest = walked.deepest.max(depth_across(&world, hero));
        walked.lowest = walked
            .lowest
            .min(bottom(&world, hero) - (walk.origin.y - walk.height));
        if centre(&world, hero).x - walk.origin.x >= goal {
            extra += 1;
        }
    }
    walked.gap = bottom(&world, hero) - (walk.origin.y - walk.height);
    walked.past = centre(&world, hero).x - walk.origin.x;
    walked
}

/// Circles, capsules, rounded boxes and boxes of 0.05 to 50 units (with `MoveOptions::for_size`),
/// near the origin and up to 1e5 from it, walking from a thousandth of their width to their
/// width a call, under gravity from none to three times the walk, off ledges built of boxes,
/// polygons (their sides upright, undercut or leaning out as steep slopes) and chains, from 0
/// to 1.2 times the snap distance high. Lower than the snap distance, the character is on the
/// floor after every call and ends on the lower floor, a skin above it (two at most with no
/// gravity: it may come to rest on the ledge's corner within them); higher than the snap
/// distance (and two skins), with no gravity, it leaves the floor. It never ends a call deeper
/// in anything than a thousandth of its size (and the coordinates' rounding), nor moves across
/// `up` more than the walk and half its width.
#[test]
fn characters_stay_on_the_floor_walking_off_ledges_lower_than_the_snap_distance() {
    let mut rng = Rng(0x1ed6e5);
    let mut counts = [0usize; 2];
    let mut failures = Vec::new();
    for case in 0..288 {
        let kind = BODIES[case % 4];
        let ledge = match (case / 4) % 3 {
            0 => Ledge::Boxes,
            1 => Ledge::Polygons {
                lean: rng.range(-0.3, 0.3),
            },
            _ => Ledge::Chain,
        };
        let size = rng.log_size(0.05, 50.0);
        let shape = body_shape(kind, size);
        let width = 2.0 * shape.aabb(&Transform::IDENTITY).max.x;
        let mut distance = if rng.chance(0.5) {
            rng.log_size(1.0, 1.0e5)
        } else {
            0.0
        };
        let options = MoveOptions::for_size(size);
        let (_, _, snap) = used(&options, &shape, Vec2::ZERO);
        // Only as far out as the coordinates hold the snap distance (64 roundings of them).
        while distance > 0.0 && 256.0 * spacing(distance + 20.0 * size) > snap {
            distance *= 0.1;
        }
        let origin = v(distance, -0.5 * distance);
        let (skin, _, snap) = used(&options, &shape, origin);
        let rounding = 4.0 * spacing(origin.abs().max_element() + 20.0 * size);
        let height = if rng.chance(0.1) {
            0.0
        } else {
            rng.range(0.0, 1.2) * snap
        };
        let height = if matches!(ledge, Ledge::Chain) && height < 1.0e-3 * size {
            0.0
        } else {
            height
        };
        let speed = (width * rng.log_size(1.0e-3, 1.0)).max(64.0 * rounding);
        let gravity = if rng.chance(0.33) {
            0.0
        } else {
            speed * rng.range(0.0, 3.0)
        };
        let walk = Walk {
            kind,
            ledge,
            size,
            origin,
            height,
            speed,
            gravity,
            back: rng.range(0.0, 1.0) * speed.min(0.5 * width) + 0.5 * skin,
        };
        let walked = run(&walk, 0.5 * skin, 0.0);
        let name = format!("case {case}: {walk:?} (skin {skin}, snap {snap})");
        let (deepest, lowest) = (walked.deepest, walked.lowest);
        if deepest > 1.0e-3 * size + rounding || lowest < -1.0e-3 * size - rounding {
            failures.push(format!("{name}: {deepest} deep, down to {lowest}"));
        }
        // Sliding off a ledge's corner carries it across `up` at most half its width beyond
        // the walk (the bound `snap_distance` documents).
        let across = speed + 0.5 * width + rounding;
        if let Some(wide) = walked.results.iter().find(|r| r.moved.x.abs() > across) {
            failures.push(format!("{name}: moved more than {across} across: {wide:?}"));
        }
        // Jumping (the request goes up) or not standing on the floor (floating three skins
        // above it), it is never snapped down.
        let never_snapped = match case % 8 {
            0 => Some(run(&walk, 0.5 * skin, walk.gravity + 0.25 * speed)),
            4 => Some(run(
                &Walk {
                    gravity: 0.0,
                    ..walk
                },
                3.0 * skin,
                0.0,
            )),
            _ => None,
        };
        if let Some(snapped) =
            never_snapped.and_then(|w| w.results.into_iter().find(|r| r.snap != 0.0))
        {
            failures.push(format!("{name}: snapped jumping or floating: {snapped:?}"));
        }
        let last = walked.results.last().unwrap();
        if height <= snap * (1.0 - 1.0e-3) {
            counts[0] += 1;
            if let Some(lost) = walked.results.iter().position(|r| !r.on_floor) {
                let result = &walked.results[lost];
                failures.push(format!("{name}: off the floor at call {lost}: {result:?}"));
            }
            let highest = if gravity >= skin { skin } else { 2.0 * skin };
            let gaps = 0.2 * skin - rounding..=highest + 0.1 * skin + rounding;
            if walked.past <= 0.5 * width
                || !gaps.contains(&walked.gap)
                || !last.floor_normal.is_some_and(|n| n.y > 0.999)
            {
                failures.push(format!(
                    "{name}: ended {} past the edge, {} above the lower floor: {last:?}",
                    walked.past, walked.gap
                ));
            }
        } else if height > snap + 2.0 * skin + rounding && gravity == 0.0 {
            counts[1] += 1;
            if last.on_floor {
                failures.push(format!("{name}: still on the floor: {last:?}"));
            }
        }
    }
    assert_no_failed_walks(&failures, 12);
    assert!(counts[0] >= 150 && counts[1] >= 5, "{counts:?}");
}

/// Walks `hero` by `delta` a call until its centre is at `goal` (x) or `limit` calls were made;
/// the index of the first call that left it off the floor, the deepest overlap and the lowest
/// bottom below `floor` (y) after any call.
fn walk_to(
    world: &mut World,
    hero: ColliderHandle,
    delta: Vec2,
    options: MoveOptions,
    (goal, limit, floor): (f32, usize, f32),
) -> (Option<usize>, f32, f32, f32) {
    let (mut lost, mut deepest, mut lowest) = (None, 0.0f32, f32::INFINITY);
    let mut slowest = f32::INFINITY;
    for call in 0..limit {
        let result = world.move_and_slide(hero, delta, options).unwrap();
        if !result.on_floor && lost.is_none() {
            lost = Some(call);
        }
        deepest = deepest.max(depth_across(world, hero));
        lowest = lowest.min(bottom(world, hero) - floor);
        if centre(world, hero).x >= goal {
            break;
        }
        slowest = slowest.min(result.moved.x);
    }
    (lost, deepest, lowest, slowest)
}

/// Drops `hero` onto what is under it with the mover (pure gravity: it stays where it lands,
/// even on a slope).
fn settle(world: &mut World, hero: ColliderHandle, size: f32) {
    for _ in 0..8 {
        world
            .move_and_slide(hero, v(0.0, -size), MoveOptions::for_size(size))
            .unwrap();
    }
}

/// Every character (0.05 to 50 units, near the origin and far from it) walking down three to
/// six steps, each lower than the snap distance (a tenth to nine tenths of it), with treads of
/// 0.6 to 2 body widths, built of boxes or as one chain, at up to a quarter of a tread a call
/// under gravity from none to three times the walk: on the floor after every call, never slower
/// than half the walk, never deeper
/// in anything than a thousandth of its size, ending on the bottom floor within two skins.
#[test]
fn characters_walk_down_stairs_on_the_floor() {
    let mut rng = Rng(0x57a125);
    let mut failures = Vec::new();
    for case in 0..64 {
        let kind = BODIES[case % 4];
        let chain = (case / 4) % 2 == 1;
        let size = rng.log_size(0.05, 50.0);
        let shape = body_shape(kind, size);
        let half = shape.aabb(&Transform::IDENTITY).max;
        let width = 2.0 * half.x;
        let options = MoveOptions::for_size(size);
        let distance = if rng.chance(0.5) {
            1.0e3 * size.min(1.0)
        } else {
            0.0
        };
        let origin = v(distance, 0.5 * distance);
        let (skin, _, snap) = used(&options, &shape, origin);
        let rounding = 4.0 * spacing(origin.abs().max_element() + 40.0 * size);
        let steps = 3 + rng.below(4);
        let mut heights = Vec::new();
        let mut treads = Vec::new();
        for _ in 0..steps {
            heights.push(rng.range(0.1, 0.9) * snap);
            treads.push(rng.range(0.6, 2.0) * width);
        }
        let speed = (treads.iter().copied().fold(f32::INFINITY, f32::min)
            * rng.log_size(0.01, 0.25))
        .max(64.0 * rounding);
        let gravity = if rng.chance(0.33) {
            0.0
        } else {
            speed * rng.range(0.0, 3.0)
        };
        // The profile, right to left: the bottom floor, then each step's rise and tread up to
        // the top floor (where the character starts).
        let mut world = World::new();
        let run_out = 4.0 * width + 8.0 * speed;
        let mut x = 0.0f32;
        let mut y = 0.0f32;
        let mut profile = vec![v(run_out, 0.0), v(0.0, 0.0)];
        for (height, tread) in heights.iter().zip(&treads) {
            y += height;
            profile.push(v(x, y));
            x -= tread;
            profile.push(v(x, y));
        }
        let top = y;
        profile.last_mut().unwrap().x -= 2.0 * width;
        if chain {
            solid(
                &mut world,
                Shape::from(Chain::open(&profile).unwrap()),
                origin,
            );
        } else {
            let thick = size + top;
            let floor = Polygon::box_at(
                v(0.5 * run_out, -0.5 * thick),
                v(0.5 * run_out, 0.5 * thick),
                0.0,
            );
            solid(&mut world, Shape::from(floor.unwrap()), origin);
            for pair in profile[2..].chunks(2) {
                let (right, left) = (pair[0], pair[1]);
                let step = Polygon::box_at(
                    v(0.5 * (left.x + right.x), right.y - 0.5 * thick),
                    v(0.5 * (right.x - left.x), 0.5 * thick),
                    0.0,
                );
                solid(&mut world, Shape::from(step.unwrap()), origin);
            }
        }
        let start = origin
            + v(
                x + width - 0.5 * treads[steps - 1].min(width),
                top + half.y + 0.5 * skin,
            );
        let hero = solid(&mut world, shape, start);
        let goal = origin.x + 1.5 * half.x + 2.0 * speed;
        let limit = ((goal - start.x) / speed) as usize + 8;
        let delta = v(speed, -gravity);
        let (lost, deepest, _, slowest) =
            walk_to(&mut world, hero, delta, options, (goal, limit, origin.y));
        let gap = bottom(&world, hero) - origin.y;
        let name = format!(
            "case {case}: {kind:?} {size} at {origin:?} (skin {skin}, snap {snap}), chain {chain}, \
             steps {heights:?} treads {treads:?}, walking {speed} under {gravity}"
        );
        if lost.is_some()
            || deepest > 1.0e-3 * size + rounding
            || centre(&world, hero).x < goal
            || slowest < 0.5 * speed
            || !(0.2 * skin - rounding..=2.1 * skin + rounding).contains(&gap)
        {
            failures.push(format!(
                "{name}: lost the floor at {lost:?}, {deepest} deep, slowest call {slowest}, \
                 ended {gap} above the bottom"
            ));
        }
    }
    assert_no_failed_walks(&failures, 8);
}

/// Every character (0.05 to 50 units) walking down a walkable slope (5° to 40°) that ends in a
/// ledge lower than the snap distance (a tenth to nine tenths of it) onto level floor, built of
/// polygons or as one chain, slowly enough that the slope's own drop a call is within half the
/// snap distance, under gravity from none to three times the walk: on the floor after every
/// call, never slower than half the walk, ending on the level floor within two skins.
#[test]
fn characters_walk_down_a_slope_and_off_the_small_ledge_at_its_foot() {
    let mut rng = Rng(0x510be);
    let mut failures = Vec::new();
    for case in 0..48 {
        let kind = BODIES[case % 4];
        let chain = (case / 4) % 2 == 1;
        let size = rng.log_size(0.05, 50.0);
        let shape = body_shape(kind, size);
        let half = shape.aabb(&Transform::IDENTITY).max;
        let width = 2.0 * half.x;
        let options = MoveOptions::for_size(size);
        let (skin, _, snap) = used(&options, &shape, Vec2::ZERO);
        let angle = rng.range(5.0, 40.0).to_radians();
        let height = rng.range(0.1, 0.9) * snap;
        let speed = (0.5 * snap / angle.tan()).min(width) * rng.log_size(0.02, 1.0);
        let gravity = if rng.chance(0.33) {
            0.0
        } else {
            speed * rng.range(0.0, 3.0)
        };
        let run = rng.range(1.5, 3.0) * width;
        let rise = run * angle.tan();
        let run_out = 4.0 * width + 8.0 * speed;
        let mut world = World::new();
        // Right to left: the level floor, the ledge, the slope, the floor above it.
        let profile = [
            v(run_out, -height),
            v(0.0, -height),
            v(0.0, 0.0),
            v(-run, rise),
            v(-run - 2.0 * width, rise),
        ];
        if chain {
            solid(
                &mut world,
                Shape::from(Chain::open(&profile).unwrap()),
                Vec2::ZERO,
            );
        } else {
            let thick = size + rise + height;
            let base = -height - thick;
            let pieces = [
                vec![
                    v(-1.0e-3 * width, base),
                    v(run_out, base),
                    v(run_out, -height),
                    v(-1.0e-3 * width, -height),
                ],
                vec![v(-run, base), v(0.0, base), v(0.0, 0.0), v(-run, rise)],
                vec![
                    v(-run - 2.0 * width, base),
                    v(-run, base),
                    v(-run, rise),
                    v(-run - 2.0 * width, rise),
                ],
            ];
            for outline in pieces {
                solid(
                    &mut world,
                    Shape::from(Polygon::new(&outline).unwrap()),
                    Vec2::ZERO,
                );
            }
        }
        let start = v(-run - 0.5 * width, rise + half.y + 0.1 * size);
        let hero = solid(&mut world, shape, start);
        settle(&mut world, hero, size);
        let goal = 1.5 * half.x + 2.0 * speed;
        let limit = ((goal - start.x) / speed) as usize + 8;
        let delta = v(speed, -gravity);
        let (lost, deepest, _, slowest) =
            walk_to(&mut world, hero, delta, options, (goal, limit, -height));
        let gap = bottom(&world, hero) + height;
        let name = format!(
            "case {case}: {kind:?} {size} (skin {skin}, snap {snap}), chain {chain}, slope {}°, \
             ledge {height}, walking {speed} under {gravity}",
            angle.to_degrees()
        );
        // Walking on (gravity absorbed by the floor) never slows below half the walk: not on
        // the slope, not rolling off the ledge's corner.
        if lost.is_some()
            || deepest > 1.0e-3 * size
            || centre(&world, hero).x < goal
            || slowest < 0.5 * speed
            || !(0.2 * skin..=2.1 * skin).contains(&gap)
        {
            failures.push(format!(
                "{name}: lost the floor at {lost:?}, {deepest} deep, slowest call {slowest}, \
                 ended {gap} above the floor"
            ));
        }
    }
    assert_no_failed_walks(&failures, 8);
}
