//! World queries in bulk, for callgrind and timing: 10,000 static circles and rotated boxes
//! (sides 1 to 3) in a 1,000 × 1,000 square, then `n` rays 100 long (nearest hit) or `n` point
//! queries, each from a seeded random start; `batch-rays` and `batch-points` ask the same rows
//! in one `World::ray_cast_many` / `World::overlap_points_each` call; with a `-warm` suffix
//! (`batch-rays-warm`) an earlier batch has built the world's batch grid, so the run measures
//! the batch with a kept grid:
//!
//! ```text
//! cargo build --release -p collide2d-tools --bin query_profile
//! target/release/query_profile rays 4096
//! valgrind --tool=callgrind --toggle-collect='*query_profile*run_*' target/release/query_profile points 100000
//! ```

use collide2d::shape::{Circle, Polygon, Ray, Shape};
use collide2d::world::{Collider, QueryFilter, World};
use collide2d::{Transform, Vec2};
use collide2d_testkit::Rng;
use std::hint::black_box;
use std::time::Instant;

fn scene(rng: &mut Rng) -> World {
    let mut world = World::new();
    let colliders: Vec<Collider> = (0..10_000)
        .map(|i| {
            let size = rng.range(1.0, 3.0);
            let shape = if i % 2 == 0 {
                Shape::from(Circle::with_radius(size).expect("a radius"))
            } else {
                Shape::from(Polygon::rect(size, size).expect("a box"))
            };
            let at = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
            Collider::new(shape).with_transform(Transform::new(at, rng.range(-3.0, 3.0)))
        })
        .collect();
    world.insert_many(colliders).expect("valid colliders");
    world.update();
    world
}

#[inline(never)]
fn run_rays(world: &World, rays: &[Ray]) -> usize {
    let filter = QueryFilter::default();
    rays.iter()
        .filter(|ray| matches!(world.ray_cast(ray, &filter), Ok(Some(_))))
        .count()
}

#[inline(never)]
fn run_points(world: &World, points: &[Vec2]) -> usize {
    let filter = QueryFilter::default();
    points
        .iter()
        .map(|&p| {
            world
                .overlap_point(p, &filter)
                .map_or(0, |found| found.len())
        })
        .sum()
}

#[inline(never)]
fn run_batch_rays(world: &World, rays: &[Ray]) -> usize {
    let hits = world
        .ray_cast_many(rays, &QueryFilter::default())
        .expect("valid rays");
    hits.iter().filter(|hit| hit.is_some()).count()
}

#[inline(never)]
fn run_batch_points(world: &World, points: &[Vec2]) -> usize {
    let mut found = 0;
    world
        .overlap_points_each(points, &QueryFilter::default(), |_, _| found += 1)
        .expect("valid points");
    found
}

/// One small batch, so that the world builds (and keeps) its batch grid outside the measured
/// runs.
#[inline(never)]
fn build_batch_grid(world: &World) {
    let rays = vec![Ray::new(Vec2::ZERO, Vec2::X, 1.0).expect("a ray"); world.len()];
    black_box(
        world
            .ray_cast_many(&rays, &QueryFilter::default())
            .expect("valid rays"),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("rays", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4096);
    let mut rng = Rng(20261127);
    let world = scene(&mut rng);
    let batch = what.starts_with("batch-");
    let what = what.trim_end_matches("-warm");
    if what.len() < args.get(1).map_or(0, String::len) {
        build_batch_grid(&world);
    }
    let start = Instant::now();
    let found = if what.ends_with("points") {
        let points: Vec<Vec2> = (0..n)
            .map(|_| Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0)))
            .collect();
        if batch {
            run_batch_points(&world, black_box(&points))
        } else {
            run_points(&world, black_box(&points))
        }
    } else {
        let rays: Vec<Ray> = (0..n)
            .map(|_| {
                let origin = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
                let angle = rng.range(-std::f32::consts::PI, std::f32::consts::PI);
                Ray::new(origin, Vec2::new(angle.cos(), angle.sin()), 100.0).expect("a ray")
            })
            .collect();
        if batch {
            run_batch_rays(&world, black_box(&rays))
        } else {
            run_rays(&world, black_box(&rays))
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{what} {n}: {found} found, {:.1} ns each",
        seconds * 1e9 / n as f64
    );
}
