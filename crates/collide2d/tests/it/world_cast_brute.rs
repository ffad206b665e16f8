//! `World::ray_cast` and `World::shape_cast` against the best answer over every collider (each
//! collider's own `ray_cast` and `shape_cast`, the smallest distance or time, then the smallest
//! handle): the broad-phase candidates must never leave the right collider out, about the origin
//! or 1e3..1e6 out, with rays and casts up to three times the scene across (10..1e4), in every
//! broad phase. Scenes hold 30 colliders (circles, thin boxes, capsules, polygons, open chains,
//! compounds, some offset from their object); one-way colliders are skipped by the filter and
//! left out of the reference.

use crate::support::{Rng, BROAD_PHASES};
use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Ray, Shape};
use collide2d::world::{Collider, QueryFilter, World};
use collide2d::{Transform, Vec2};

fn shape(rng: &mut Rng, s: f32) -> Shape {
    match rng.below(6) {
        0 => Shape::from(Circle::with_radius(s * rng.range(0.01, 1.0)).unwrap()),
        1 => Shape::from(
            Polygon::rect(s * rng.log_size(0.001, 1.0), s * rng.range(0.5, 3.0)).unwrap(),
        ),
        2 => Shape::from(
            Capsule::new(
                Vec2::ZERO,
                Vec2::new(s * rng.range(0.1, 2.0), 0.0),
                s * rng.log_size(0.001, 0.5),
            )
            .unwrap(),
        ),
        3 => Shape::from(Polygon::regular(3 + rng.below(5), s * rng.range(0.1, 1.0)).unwrap()),
        4 => {
            let n = 2 + rng.below(5);
            let pts: Vec<Vec2> = (0..n)
                .map(|i| Vec2::new(i as f32 * s, rng.range(-s, s)))
                .collect();
            Shape::from(Chain::open(&pts).unwrap())
        }
        _ => Shape::from(
            Compound::new(vec![
                (
                    Transform::new(Vec2::new(rng.range(-s, s), 0.0), rng.angle()),
                    Shape::from(Polygon::rect(s * 0.05, s).unwrap()),
                ),
                (
                    Transform::new(Vec2::new(0.0, rng.range(-s, s)), rng.angle()),
                    Shape::from(Circle::with_radius(s * 0.2).unwrap()),
                ),
            ])
            .unwrap(),
        ),
    }
}

#[test]
fn world_ray_and_shape_casts_equal_the_best_of_every_collider_far_out_in_every_broad_phase() {
    let mut bad = 0;
    let mut failures = Vec::new();
    let mut cases = 0;
    for seed in 0..150u64 {
        let mut rng = Rng(seed);
        let kind = BROAD_PHASES[seed as usize % 3];
        let mut world = World::with_broad_phase(kind).unwrap();
        let far = [0.0, 1e3, 1e4, 1e5, 1e6][rng.below(5)];
        let center = Vec2::new(far * rng.range(-1.0, 1.0), far * rng.range(-1.0, 1.0));
        let span = rng.log_size(10.0, 1e4);
        let mut cols = vec![];
        for _ in 0..30 {
            let s = rng.log_size(0.1, 5.0);
            let mut c = Collider::new(shape(&mut rng, s)).with_transform(Transform::new(
                center + Vec2::new(rng.range(-span, span), rng.range(-span, span)),
                rng.angle(),
            ));
            if rng.below(6) == 0 {
                c = c.with_one_way(Vec2::new(0.0, 1.0), 0.1);
            }
            if rng.below(4) == 0 {
                c = c.with_offset(Transform::new(
                    Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
                    rng.angle(),
                ));
            }
            let h = world.insert(c).unwrap();
            cols.push(h);
        }
        world.update();
        for _ in 0..50 {
            cases += 1;
            let origin = center + Vec2::new(rng.range(-span, span), rng.range(-span, span));
            let a = rng.angle();
            let dir = Vec2::new(a.cos(), a.sin());
            let len = rng.log_size(1.0, 3.0 * span);
            // ray
            let ray = Ray::new(origin, dir, len).unwrap();
            let got = world
                .ray_cast(&ray, &QueryFilter::new().with_skip_one_way(true))
                .unwrap();
            let mut best: Option<(f32, u32)> = None;
            for (h, c) in world.iter() {
                if c.one_way().is_some() {
                    continue;
                }
                if let Some(hit) = c.shape().ray_cast(&c.world_transform(), &ray) {
                    if best.is_none_or(|b| (hit.distance, h.index()) < b) {
                        best = Some((hit.distance, h.index()));
                    }
                }
            }
            let g = got.map(|h| (h.distance, h.collider.index()));
            if g != best {
                bad += 1;
                failures.push(format!(
                    "seed {seed} ray {:?} got {:?} brute {:?}",
                    ray, g, best
                ));
            }
            // shape cast
            let s = rng.log_size(0.01, 1.0);
            let sh = shape(&mut rng, s);
            let xf = Transform::new(origin, rng.angle());
            let delta = dir * len;
            let opts = CastOptions::default();
            let Ok(got) = world.shape_cast(
                &sh,
                &xf,
                delta,
                &QueryFilter::new().with_skip_one_way(true),
                opts,
            ) else {
                continue;
            };
            let mut best: Option<(f32, u32)> = None;
            for (h, c) in world.iter() {
                if c.one_way().is_some() {
                    continue;
                }
                if let Some(hit) = shape_cast(
                    &sh,
                    &Sweep::linear(&xf, delta),
                    c.shape(),
                    &Sweep::fixed(&c.world_transform()),
                    opts,
                ) {
                    if best.is_none_or(|b| (hit.t, h.index()) < b) {
                        best = Some((hit.t, h.index()));
                    }
                }
            }
            let g = got.map(|h| (h.fraction, h.collider.index()));
            if g != best {
                bad += 1;
                failures.push(format!(
                    "seed {seed} far {far} cast got {:?} brute {:?}",
                    g, best
                ));
            }
        }
    }
    assert_eq!(bad, failures.len());
    crate::support::assert_no_failures(&failures, 2 * cases, 10);
}
