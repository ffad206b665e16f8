//! Batch queries (`World::overlap_points_each`, `World::ray_cast_many`) answer each row exactly
//! as the single query does, bit for bit, in seeded random worlds of every shape kind.

use crate::support::rng::Rng;
use crate::support::shapes::{random_shape, ALL_KINDS};
use collide2d::shape::{Chain, Circle, Ray, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, QueryFilter, World, WorldError, WorldRayHit,
};
use collide2d::{LayerMask, Transform, Vec2};

/// A world of `count` colliders around `center`, `spread` wide: every shape kind and chains,
/// sensors, two layers, one-way and disabled colliders, a few huge and tiny ones.
fn random_world(
    rng: &mut Rng,
    kind: BroadPhaseKind,
    count: usize,
    center: Vec2,
    spread: f32,
) -> World {
    let mut world = World::with_broad_phase(kind).unwrap();
    let second = world.layers_mut().add("second").unwrap();
    for _ in 0..count {
        let size = if rng.chance(0.03) {
            rng.range(0.2, 0.5) * spread
        } else if rng.chance(0.05) {
            rng.range(0.001, 0.02)
        } else {
            rng.range(0.5, 3.0)
        };
        let shape = if rng.chance(0.05) {
            let points: Vec<Vec2> = (0..2 + rng.below(4)).map(|_| rng.point(size)).collect();
            match Chain::open(&points) {
                Ok(chain) => Shape::from(chain),
                Err(_) => Shape::from(Circle::with_radius(size).unwrap()),
            }
        } else {
            {
                let kind = rng.pick(&ALL_KINDS);
                random_shape(rng, kind, size)
            }
        };
        let position = center + rng.point(0.5 * spread);
        let mut collider = Collider::new(shape)
            .with_transform(Transform::new(position, rng.angle()))
            .with_sensor(rng.chance(0.2))
            .with_enabled(!rng.chance(0.05));
        if rng.chance(0.3) {
            collider = collider.with_layer(second);
        }
        if rng.chance(0.1) {
            collider = collider.with_one_way(Vec2::from_angle(rng.angle()), 0.1);
        }
        world.insert(collider).unwrap();
    }
    world
}

fn same_hit(batch: Option<WorldRayHit>, single: Option<WorldRayHit>) -> bool {
    match (batch, single) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.collider == b.collider
                && a.child == b.child
                && a.distance.to_bits() == b.distance.to_bits()
                && a.point.x.to_bits() == b.point.x.to_bits()
                && a.point.y.to_bits() == b.point.y.to_bits()
                && a.normal.x.to_bits() == b.normal.x.to_bits()
                && a.normal.y.to_bits() == b.normal.y.to_bits()
        }
        _ => false,
    }
}

/// Points: random, at collider positions (inside), on collider box corners and edges.
fn random_points(
    rng: &mut Rng,
    world: &World,
    center: Vec2,
    spread: f32,
    count: usize,
) -> Vec<Vec2> {
    let colliders: Vec<&Collider> = world.iter().map(|(_, c)| c).collect();
    (0..count)
        .map(|_| {
            let collider = colliders[rng.below(colliders.len())];
            let aabb = collider.aabb();
            match rng.below(4) {
                0 => center + rng.point(0.6 * spread),
                1 => collider.transform().p,
                2 => Vec2::new(aabb.min.x, rng.range(aabb.min.y, aabb.max.y)),
                _ => aabb.max,
            }
        })
        .collect()
}

/// Rays: from random points and from inside colliders, along box edges, axis-aligned and
/// random directions, lengths from zero to infinite.
fn random_rays(rng: &mut Rng, world: &World, center: Vec2, spread: f32, count: usize) -> Vec<Ray> {
    let colliders: Vec<&Collider> = world.iter().map(|(_, c)| c).collect();
    (0..count)
        .map(|_| {
            let collider = colliders[rng.below(colliders.len())];
            let aabb = collider.aabb();
            let origin = match rng.below(4) {
                0 => center + rng.point(0.7 * spread),
                1 => collider.transform().p,
                2 => aabb.min,
                _ => center + rng.point(3.0 * spread),
            };
            let direction = match rng.below(3) {
                0 => rng.pick(&[Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y]),
                1 => Vec2::from_angle(rng.angle()),
                _ => rng.point(2.0),
            };
            let direction = if direction.length_squared() < 1e-6 {
                Vec2::X
            } else {
                direction
            };
            let short = rng.range(0.0, 0.2 * spread);
            let long = rng.range(0.0, 4.0 * spread);
            let max_distance = rng.pick(&[0.0, 1e-6, short, long, 1e30, f32::INFINITY]);
            Ray {
                origin,
                direction,
                max_distance,
            }
        })
        .collect()
}

fn check_world(seed: u64, kind: BroadPhaseKind, center: Vec2, spread: f32) {
    let mut rng = Rng(seed);
    let world = random_world(&mut rng, kind, 300, center, spread);
    let handles: Vec<ColliderHandle> = world.iter().map(|(h, _)| h).collect();
    let excluded = [handles[3], handles[10], handles[77]];
    let odd = |handle: ColliderHandle, _: &Collider| handle.to_bits() % 7 != 0;
    let filters = [
        QueryFilter::new(),
        QueryFilter::new().with_sensors(),
        QueryFilter::new()
            .with_sensors()
            .layers(LayerMask::NONE.with(collide2d::LayerId::DEFAULT)),
        QueryFilter::new()
            .with_skip_one_way(true)
            .excluding(&excluded),
        QueryFilter::new().with_sensors().with_predicate(&odd),
    ];
    let points = random_points(&mut rng, &world, center, spread, 3000);
    let rays = random_rays(&mut rng, &world, center, spread, 3000);
    for (f, filter) in filters.iter().enumerate() {
        let mut batch: Vec<Vec<ColliderHandle>> = vec![Vec::new(); points.len()];
        world
            .overlap_points_each(&points, filter, |row, handle| batch[row].push(handle))
            .unwrap();
        let mut nonempty = 0;
        for (row, &point) in points.iter().enumerate() {
            let single = world.overlap_point(point, filter).unwrap();
            nonempty += usize::from(!single.is_empty());
            assert_eq!(
                batch[row], single,
                "seed {seed} filter {f} point {row} {point:?}"
            );
        }
        assert!(
            nonempty > points.len() / 10,
            "seed {seed}: the points test something"
        );
        let hits = world.ray_cast_many(&rays, filter).unwrap();
        let mut hit_count = 0;
        for (row, ray) in rays.iter().enumerate() {
            let single = world.ray_cast(ray, filter).unwrap();
            hit_count += usize::from(single.is_some());
            assert!(
                same_hit(hits[row], single),
                "seed {seed} filter {f} ray {row} {ray:?}: batch {:?}, single {single:?}",
                hits[row]
            );
        }
        assert!(
            hit_count > rays.len() / 10,
            "seed {seed}: the rays hit something"
        );
    }
}

#[test]
fn batch_answers_equal_single_queries_near_the_origin() {
    for seed in 0..3 {
        check_world(seed, BroadPhaseKind::Tree, Vec2::ZERO, 60.0);
    }
}

#[test]
fn batch_answers_equal_single_queries_far_from_the_origin() {
    for (seed, center) in [(10, 1.0e6), (11, -3.0e7), (12, 1.0e8)] {
        check_world(
            seed,
            BroadPhaseKind::Tree,
            Vec2::new(center, -0.5 * center),
            60.0,
        );
    }
}

#[test]
fn batch_answers_equal_single_queries_with_every_broad_phase() {
    check_world(
        20,
        BroadPhaseKind::Grid { cell_size: 4.0 },
        Vec2::ZERO,
        60.0,
    );
    check_world(
        21,
        BroadPhaseKind::SweepAndPrune,
        Vec2::new(2.0e6, 0.0),
        60.0,
    );
}

#[test]
fn sparse_worlds_with_far_apart_clusters_answer_exactly() {
    // Two clusters 1e8 apart: the grid's cells grow to the whole span.
    let mut rng = Rng(30);
    let mut world = random_world(&mut rng, BroadPhaseKind::Tree, 100, Vec2::ZERO, 40.0);
    let far = random_world(
        &mut rng,
        BroadPhaseKind::Tree,
        100,
        Vec2::new(1.0e8, 1.0e8),
        40.0,
    );
    for (_, collider) in far.iter() {
        world.insert(collider.clone()).unwrap();
    }
    let mut points = random_points(&mut rng, &world, Vec2::ZERO, 40.0, 1000);
    points.extend(random_points(
        &mut rng,
        &world,
        Vec2::new(1.0e8, 1.0e8),
        40.0,
        1000,
    ));
    let mut rays = random_rays(&mut rng, &world, Vec2::ZERO, 40.0, 1000);
    rays.extend(random_rays(
        &mut rng,
        &world,
        Vec2::new(1.0e8, 1.0e8),
        40.0,
        1000,
    ));
    let filter = QueryFilter::new().with_sensors();
    let mut batch: Vec<Vec<ColliderHandle>> = vec![Vec::new(); points.len()];
    world
        .overlap_points_each(&points, &filter, |row, handle| batch[row].push(handle))
        .unwrap();
    for (row, &point) in points.iter().enumerate() {
        assert_eq!(
            batch[row],
            world.overlap_point(point, &filter).unwrap(),
            "point {row}"
        );
    }
    let hits = world.ray_cast_many(&rays, &filter).unwrap();
    for (row, ray) in rays.iter().enumerate() {
        assert!(
            same_hit(hits[row], world.ray_cast(ray, &filter).unwrap()),
            "ray {row}"
        );
    }
}

#[test]
fn one_bad_row_fails_the_whole_batch_before_any_answer() {
    let mut world = World::new();
    world
        .insert(Collider::new(Shape::from(
            Circle::with_radius(1.0).unwrap(),
        )))
        .unwrap();
    let mut points = vec![Vec2::ZERO; 10];
    points[5] = Vec2::new(f32::NAN, 0.0);
    let mut answered = 0;
    let result = world.overlap_points_each(&points, &QueryFilter::new(), |_, _| answered += 1);
    assert_eq!(result, Err(WorldError::InvalidInput("query point")));
    assert_eq!(answered, 0);
    let mut rays = vec![
        Ray {
            origin: Vec2::new(-5.0, 0.0),
            direction: Vec2::X,
            max_distance: 10.0
        };
        10
    ];
    rays[7].direction = Vec2::ZERO;
    assert_eq!(
        world.ray_cast_many(&rays, &QueryFilter::new()),
        Err(WorldError::InvalidInput("ray"))
    );
    rays[7].direction = Vec2::X;
    let hits = world.ray_cast_many(&rays, &QueryFilter::new()).unwrap();
    assert!(hits
        .iter()
        .all(|hit| hit.is_some_and(|h| h.distance == 4.0)));
}

#[test]
fn empty_batches_and_empty_worlds_answer_nothing() {
    let world = World::new();
    let mut answered = 0;
    world
        .overlap_points_each(&[Vec2::ZERO; 5], &QueryFilter::new(), |_, _| answered += 1)
        .unwrap();
    assert_eq!(answered, 0);
    let ray = Ray {
        origin: Vec2::ZERO,
        direction: Vec2::X,
        max_distance: f32::INFINITY,
    };
    assert_eq!(
        world.ray_cast_many(&[ray; 3], &QueryFilter::new()),
        Ok(vec![None; 3])
    );
    assert_eq!(world.ray_cast_many(&[], &QueryFilter::new()), Ok(vec![]));
}

/// Checks that the batch answers of a non-empty `world` equal its single queries bit for bit,
/// for `rows` rays and points around `center` under each filter.
pub(crate) fn check_batches_equal_singles(
    rng: &mut Rng,
    world: &World,
    filters: &[QueryFilter],
    (center, spread): (Vec2, f32),
    rows: usize,
    context: &str,
) {
    let points = random_points(rng, world, center, spread, rows);
    let rays = random_rays(rng, world, center, spread, rows);
    for (f, filter) in filters.iter().enumerate() {
        let mut batch: Vec<Vec<ColliderHandle>> = vec![Vec::new(); points.len()];
        world
            .overlap_points_each(&points, filter, |row, handle| batch[row].push(handle))
            .unwrap();
        for (row, &point) in points.iter().enumerate() {
            assert_eq!(
                batch[row],
                world.overlap_point(point, filter).unwrap(),
                "{context}: filter {f} point {row} {point:?}"
            );
        }
        let hits = world.ray_cast_many(&rays, filter).unwrap();
        for (row, ray) in rays.iter().enumerate() {
            let single = world.ray_cast(ray, filter).unwrap();
            assert!(
                same_hit(hits[row], single),
                "{context}: filter {f} ray {row} {ray:?}: batch {:?}, single {single:?}",
                hits[row]
            );
        }
    }
}

/// A shape of a random kind, `low` to `high` in size.
fn any_shape(rng: &mut Rng, low: f32, high: f32) -> Shape {
    let kind = rng.pick(&ALL_KINDS);
    let size = rng.range(low, high);
    random_shape(rng, kind, size)
}

#[test]
fn batches_between_changes_of_every_kind_answer_as_single_queries() {
    // The grid is kept between batches: every kind of change in turn, then batches under
    // filters that read the layer, sensor flag, groups, one-way setting and user data.
    let mut rng = Rng(40);
    let center = Vec2::new(30.0, -20.0);
    let spread = 50.0;
    let mut world = random_world(&mut rng, BroadPhaseKind::Tree, 200, center, spread);
    let second = world.layers().id("second").unwrap();
    let even_data = |_: ColliderHandle, collider: &Collider| collider.user_data() % 2 == 0;
    let groups = collide2d::world::CollisionGroups::new(1, 1);
    for step in 0..48 {
        let handles: Vec<ColliderHandle> = world.iter().map(|(h, _)| h).collect();
        let some = handles[rng.below(handles.len())];
        let at = |rng: &mut Rng| Transform::new(center + rng.point(0.5 * spread), rng.angle());
        let change = match step % 16 {
            0 => {
                let shape = any_shape(&mut rng, 0.5, 3.0);
                world
                    .insert(Collider::new(shape).with_transform(at(&mut rng)))
                    .unwrap();
                "insert"
            }
            1 => {
                world.remove(some).unwrap();
                "remove"
            }
            2 => {
                let colliders: Vec<Collider> = (0..5)
                    .map(|_| {
                        let shape = any_shape(&mut rng, 0.5, 3.0);
                        Collider::new(shape).with_transform(at(&mut rng))
                    })
                    .collect();
                world.insert_many(colliders).unwrap();
                "insert_many"
            }
            3 => {
                let mut chosen: Vec<ColliderHandle> =
                    (0..5).map(|_| handles[rng.below(handles.len())]).collect();
                chosen.sort_unstable();
                chosen.dedup();
                world.remove_many(&chosen).unwrap();
                "remove_many"
            }
            4 => {
                world.set_transform(some, at(&mut rng)).unwrap();
                "set_transform"
            }
            5 => {
                let moves: Vec<(ColliderHandle, Transform)> = (0..20)
                    .map(|_| (handles[rng.below(handles.len())], at(&mut rng)))
                    .collect();
                world.set_transforms(&moves).unwrap();
                "set_transforms"
            }
            6 => {
                let shape = any_shape(&mut rng, 2.0, 6.0);
                world.set_shape(some, shape).unwrap();
                "set_shape"
            }
            7 => {
                let offset = Transform::new(rng.point(3.0), rng.angle());
                world.set_offset(some, offset).unwrap();
                "set_offset"
            }
            8 => {
                let layer = rng.pick(&[collide2d::LayerId::DEFAULT, second]);
                world.set_layer(some, layer).unwrap();
                "set_layer"
            }
            9 => {
                let sensor = !world.get(some).unwrap().is_sensor();
                world.set_sensor(some, sensor).unwrap();
                "set_sensor"
            }
            10 => {
                let enabled = !world.get(some).unwrap().is_enabled();
                world.set_enabled(some, enabled).unwrap();
                "set_enabled"
            }
            11 => {
                world
                    .set_groups(some, collide2d::world::CollisionGroups::new(2, 2))
                    .unwrap();
                "set_groups"
            }
            12 => {
                world.set_user_data(some, rng.below(4) as u64).unwrap();
                "set_user_data"
            }
            13 => {
                world.update();
                "update"
            }
            14 => {
                world.shift_origin(rng.point(20.0)).unwrap();
                "shift_origin"
            }
            _ => {
                world.update();
                world = World::restore(world.snapshot()).unwrap();
                "restore"
            }
        };
        let filters = [
            QueryFilter::new(),
            QueryFilter::new().with_sensors().with_predicate(&even_data),
            QueryFilter::new()
                .layers(LayerMask::NONE.with(second))
                .with_groups(groups)
                .with_skip_one_way(true),
        ];
        let context = format!("step {step} after {change}");
        check_batches_equal_singles(&mut rng, &world, &filters, (center, spread), 300, &context);
    }
}

/// A batch of moves large enough to be written on several threads drops the batch grid as
/// one move at a time does: batch rays and points after it still equal the single queries.
#[test]
fn a_large_move_batch_on_threads_drops_the_batch_grid() {
    use crate::support::threads::on_threads;
    let mut rng = Rng(0x7e57_9a1d_0b5e_ed01);
    let mut world = World::new();
    let handles = world
        .insert_many((0..6_000).map(|_| {
            Collider::new(Shape::from(
                Circle::with_radius(rng.range(0.2, 0.6)).unwrap(),
            ))
            .with_transform(Transform::new(rng.point(60.0), 0.0))
        }))
        .unwrap();
    world.update();
    let filter = QueryFilter::new();
    let rays: Vec<Ray> = (0..2_000)
        .map(|_| Ray::new(rng.point(70.0), Vec2::from_angle(rng.angle()), 40.0).unwrap())
        .collect();
    for round in 0..3 {
        // Builds (or reuses) the grid, then moves every collider in one batch.
        let _ = world.ray_cast_many(&rays, &filter).unwrap();
        let moves: Vec<_> = handles
            .iter()
            .map(|&h| (h, Transform::new(rng.point(60.0), 0.0)))
            .collect();
        on_threads(2, || world.set_transforms(&moves)).unwrap();
        // More rows than colliders: both batches answer from the grid.
        let context = format!("round {round}");
        check_batches_equal_singles(
            &mut rng,
            &world,
            &[filter],
            (Vec2::ZERO, 60.0),
            7_000,
            &context,
        );
    }
}
