//! World queries at the edges a game reaches, against brute force over every collider: walls
//! of boxes sharing edges, rays and points on those edges and corners, tiny and huge colliders
//! side by side, scenes 1e4 to 1e6 from the origin; with every broad phase, after moves, after
//! `shift_origin` and after a snapshot restore. Each query must give exactly the answer of its
//! own exact test run over every collider the filter accepts (the broad phase may only make it
//! faster), and the batch forms exactly the single ones.

use crate::support::{random_shape, Rng, ALL_KINDS};

use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Circle, Polygon, Shape};
use collide2d::world::{
    BroadPhaseKind, Collider, ColliderHandle, QueryFilter, World, WorldCastHit, WorldRayHit,
};
use collide2d::{overlaps, Aabb, Ray, Transform, Vec2};

/// A scene around `center`: a wall of unit boxes sharing edges (axis-aligned, on a lattice),
/// a stack of boxes resting on each other, tiny (1e-3) and huge (1e3) colliders, and random
/// shapes of every kind, some sensors and some disabled.
fn scene(rng: &mut Rng, kind: BroadPhaseKind, center: Vec2) -> World {
    let mut world = World::with_broad_phase(kind).unwrap();
    let unit = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
    for i in 0..12 {
        for j in 0..2 {
            let at = center + Vec2::new(i as f32 - 6.0, j as f32 - 0.5);
            world
                .insert(Collider::new(unit.clone()).with_transform(Transform::new(at, 0.0)))
                .unwrap();
        }
    }
    for i in 0..5 {
        let at = center + Vec2::new(8.0, 0.25 + 0.5 * i as f32);
        let plank = Shape::from(Polygon::rect(2.0, 0.5).unwrap());
        world
            .insert(Collider::new(plank).with_transform(Transform::new(at, 0.0)))
            .unwrap();
    }
    world
        .insert(
            Collider::new(Shape::from(Polygon::rect(1e3, 1e3).unwrap()))
                .with_transform(Transform::new(center + Vec2::new(0.0, -501.0), 0.0)),
        )
        .unwrap();
    for _ in 0..40 {
        let size = rng.pick(&[1e-3, 0.05, 1.0, 3.0]);
        let kind = rng.pick(&ALL_KINDS);
        let shape = random_shape(rng, kind, size);
        let at = center + rng.point(12.0);
        world
            .insert(
                Collider::new(shape)
                    .with_transform(Transform::new(at, rng.angle()))
                    .with_sensor(rng.chance(0.15))
                    .with_enabled(!rng.chance(0.05)),
            )
            .unwrap();
    }
    for _ in 0..6 {
        let tiny = Shape::from(Circle::with_radius(1e-3).unwrap());
        let at = center + Vec2::new(rng.range(-6.5, 5.5), 1.5 + 1e-3);
        world
            .insert(Collider::new(tiny).with_transform(Transform::new(at, 0.0)))
            .unwrap();
    }
    world
}

/// Points on box corners and edges, at collider centres and at random.
fn points(rng: &mut Rng, world: &World, center: Vec2) -> Vec<Vec2> {
    let boxes: Vec<Aabb> = world.iter().map(|(_, c)| c.aabb()).collect();
    (0..200)
        .map(|_| {
            let aabb = boxes[rng.below(boxes.len())];
            match rng.below(5) {
                0 => aabb.min,
                1 => aabb.max,
                2 => Vec2::new(aabb.min.x, rng.range(aabb.min.y, aabb.max.y)),
                3 => center + Vec2::new(rng.below(14) as f32 - 6.5, rng.below(4) as f32 - 1.0),
                _ => center + rng.point(14.0),
            }
        })
        .collect()
}

/// Rays along the wall's shared edges and top, through its corners, grazing the stack's sides,
/// ending exactly on a surface, starting on one, and at random.
fn rays(rng: &mut Rng, center: Vec2) -> Vec<Ray> {
    (0..300)
        .map(|_| {
            let edge = rng.below(14) as f32 - 6.5;
            let level = rng.below(4) as f32 - 1.0;
            let (origin, direction, max) = match rng.below(7) {
                // Along a horizontal edge of the wall (between rows, top and bottom).
                0 => (
                    center + Vec2::new(-20.0, level),
                    Vec2::X * if rng.chance(0.5) { 1.0 } else { -1.0 },
                    40.0,
                ),
                // Down a vertical edge shared by two boxes.
                1 => (center + Vec2::new(edge, 10.0), -Vec2::Y, 30.0),
                // Through a lattice corner, diagonally.
                2 => {
                    let corner = center + Vec2::new(edge, level);
                    let direction = Vec2::from_angle(rng.angle());
                    (corner - direction * 5.0, direction, 10.0)
                }
                // Ending exactly on the wall's top.
                3 => (center + Vec2::new(edge + 0.25, 5.0), -Vec2::Y, 3.5),
                // Starting on a surface.
                4 => (
                    center + Vec2::new(edge + 0.5, 1.5),
                    Vec2::from_angle(rng.angle()),
                    5.0,
                ),
                // Grazing the stack's left side.
                5 => (center + Vec2::new(7.0, -5.0), Vec2::Y, 20.0),
                _ => (
                    center + rng.point(20.0),
                    Vec2::from_angle(rng.angle()),
                    rng.pick(&[0.0, 1.0, 30.0, f32::INFINITY]),
                ),
            };
            Ray::new(origin, direction, max).unwrap()
        })
        .collect()
}

/// The hits brute force finds: every accepted collider's own ray cast.
fn ray_hits(world: &World, ray: &Ray, filter: &QueryFilter) -> Vec<WorldRayHit> {
    let mut hits: Vec<WorldRayHit> = world
        .iter()
        .filter(|&(h, c)| filter.accepts(h, c))
        .filter_map(|(handle, c)| {
            c.shape()
                .ray_cast(&c.world_transform(), ray)
                .map(|hit| WorldRayHit {
                    collider: handle,
                    distance: hit.distance,
                    point: hit.point,
                    normal: hit.normal,
                    child: hit.child,
                })
        })
        .collect();
    hits.sort_by(|x, y| {
        x.distance
            .total_cmp(&y.distance)
            .then(x.collider.cmp(&y.collider))
    });
    hits
}

fn brute<'a>(
    world: &'a World,
    filter: &'a QueryFilter,
    keep: impl Fn(&Collider) -> bool + 'a,
) -> Vec<ColliderHandle> {
    let mut found: Vec<ColliderHandle> = world
        .iter()
        .filter(|&(h, c)| filter.accepts(h, c) && keep(c))
        .map(|(h, _)| h)
        .collect();
    found.sort_unstable();
    found
}

/// Every query of `world` against brute force; `what` names the state for messages.
fn check(world: &World, rng: &mut Rng, center: Vec2, what: &str) {
    let filters = [QueryFilter::new(), QueryFilter::new().with_sensors()];
    let points = points(rng, world, center);
    let rays = rays(rng, center);
    for filter in &filters {
        let mut batch_points = Vec::new();
        world
            .overlap_points_each(&points, filter, |row, handle| {
                batch_points.push((row, handle))
            })
            .unwrap();
        let mut single_points = Vec::new();
        for (row, &point) in points.iter().enumerate() {
            let found = world.overlap_point(point, filter).unwrap();
            let expected = brute(world, filter, |c| {
                c.shape().contains(&c.world_transform(), point)
            });
            assert_eq!(found, expected, "{what}: overlap_point {point:?}");
            single_points.extend(found.into_iter().map(|h| (row, h)));
        }
        assert_eq!(batch_points, single_points, "{what}: overlap_points_each");

        let many = world.ray_cast_many(&rays, filter).unwrap();
        for (ray, batch) in rays.iter().zip(many) {
            let expected = ray_hits(world, ray, filter);
            let single = world.ray_cast(ray, filter).unwrap();
            assert_eq!(
                single,
                expected.first().copied(),
                "{what}: ray_cast {ray:?}"
            );
            assert_eq!(batch, single, "{what}: ray_cast_many {ray:?}");
            let all = world.ray_cast_all(ray, filter).unwrap();
            assert_eq!(all, expected, "{what}: ray_cast_all {ray:?}");
        }

        for _ in 0..60 {
            let at = points[rng.below(points.len())];
            let probe = match rng.below(3) {
                0 => Aabb {
                    min: at,
                    max: at + Vec2::new(rng.range(0.0, 2.0), rng.range(0.0, 2.0)),
                },
                1 => Aabb { min: at, max: at },
                _ => Aabb {
                    min: at - Vec2::splat(1.0),
                    max: at,
                },
            };
            let found = world.overlap_aabb(probe, filter).unwrap();
            assert_eq!(
                found,
                brute(world, filter, |c| c.aabb().overlaps(&probe)),
                "{what}: overlap_aabb {probe:?}"
            );
            let shape = match rng.below(3) {
                0 => Shape::from(Polygon::rect(1.0, 1.0).unwrap()),
                1 => Shape::from(Circle::with_radius(0.5).unwrap()),
                _ => Shape::from(Circle::with_radius(1e-3).unwrap()),
            };
            let xf = Transform::new(at, if rng.chance(0.5) { 0.0 } else { rng.angle() });
            let found = world.overlap_shape(&shape, &xf, filter).unwrap();
            assert_eq!(
                found,
                brute(world, filter, |c| overlaps(
                    &shape,
                    &xf,
                    c.shape(),
                    &c.world_transform()
                )),
                "{what}: overlap_shape {shape:?} at {xf:?}"
            );
            let turn = Vec2::from_angle(rng.angle());
            let delta = rng.pick(&[Vec2::X * 20.0, -Vec2::Y * 5.0, turn * 8.0]);
            let options = CastOptions::default();
            let found = world
                .shape_cast(&shape, &xf, delta, filter, options)
                .unwrap();
            let sweep = Sweep::linear(&xf, delta);
            let mut expected: Option<WorldCastHit> = None;
            for (handle, c) in world.iter().filter(|&(h, c)| filter.accepts(h, c)) {
                let hit = shape_cast(
                    &shape,
                    &sweep,
                    c.shape(),
                    &Sweep::fixed(&c.world_transform()),
                    options,
                );
                if let Some(hit) = hit {
                    if expected.is_none_or(|b| (hit.t, handle) < (b.fraction, b.collider)) {
                        expected = Some(WorldCastHit {
                            collider: handle,
                            fraction: hit.t,
                            point: hit.point,
                            normal: hit.normal,
                            converged: hit.converged,
                        });
                    }
                }
            }
            assert_eq!(
                found, expected,
                "{what}: shape_cast {shape:?} from {xf:?} by {delta:?}"
            );
        }
    }
}

fn broad_phases() -> [BroadPhaseKind; 4] {
    [
        BroadPhaseKind::Tree,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::Grid { cell_size: 1.0 },
        BroadPhaseKind::Grid { cell_size: 0.37 },
    ]
}

#[test]
fn world_queries_equal_brute_force_at_the_edges() {
    for (seed, center) in [
        (1, Vec2::ZERO),
        (2, Vec2::new(1.25e4, -3.5e4)),
        (3, Vec2::new(-6.0e5, 2.5e5)),
    ] {
        for kind in broad_phases() {
            let mut rng = Rng(0x0e_d6e5 + seed);
            let mut world = scene(&mut rng, kind, center);
            world.update();
            check(&world, &mut rng, center, &format!("{kind:?} at {center:?}"));
            // Move some colliders by small and large steps, then ask again.
            let handles: Vec<ColliderHandle> = world.iter().map(|(h, _)| h).collect();
            for _ in 0..20 {
                let handle = handles[rng.below(handles.len())];
                let xf = world.get(handle).unwrap().transform();
                let step = rng.pick(&[1e-4, 0.5, 7.0]);
                let moved = Transform {
                    p: xf.p + rng.point(step),
                    q: xf.q,
                };
                world.set_transform(handle, moved).unwrap();
            }
            world.update();
            check(
                &world,
                &mut rng,
                center,
                &format!("{kind:?} at {center:?} moved"),
            );
            // Bring the scene to the origin.
            world.shift_origin(center).unwrap();
            world.update();
            check(
                &world,
                &mut rng,
                Vec2::ZERO,
                &format!("{kind:?} at {center:?} shifted"),
            );
            #[cfg(feature = "serde")]
            {
                let restored = World::restore(world.snapshot()).unwrap();
                check(
                    &restored,
                    &mut rng,
                    Vec2::ZERO,
                    &format!("{kind:?} at {center:?} restored"),
                );
            }
        }
    }
}
