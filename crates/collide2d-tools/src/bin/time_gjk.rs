//! Timing driver for the distance and cast benchmarks' cases, ours and Box2D v3's on the same
//! inputs, made to give steady ratios on a busy machine: many short batches of each case in
//! turn, and the fastest batch of each kept (other work on the machine only ever adds time).
//!
//! ```text
//! cargo build --release -p collide2d-tools --bin time_gjk
//! target/release/time_gjk [rounds] [name filter]
//! ```
//! Cases: `distance cold`, `distance warm` (each placement keeps its own cache), `linear cast`,
//! `rotating pi/4`, `rotating 3` (turns up to ±3 rad), each followed by its `box2d` twin.

use collide2d::query::{shape_cast, CastOptions, SimplexCache, Sweep};
use collide2d::shape::{Polygon, Shape};
use collide2d::{distance, distance_with_cache, Transform};
use std::hint::black_box;
use std::time::Instant;

#[path = "../../../collide2d/benches/support/box2d.rs"]
mod box2d;
use collide2d_testkit::{cast_cases, narrow_placements};

type Case<'a> = (&'static str, Box<dyn FnMut(usize) -> usize + 'a>);

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let filter = std::env::args().nth(2).unwrap_or_default();
    let octagon = Shape::from(Polygon::regular(8, 1.0).unwrap());
    let b2_octagon = box2d::polygon(&Polygon::regular(8, 1.0).unwrap());
    let proxy = box2d::polygon_proxy(&b2_octagon);
    let apart = narrow_placements::separated_placements();
    let b2_apart: Vec<_> = apart
        .iter()
        .map(|(a, b)| (box2d::transform(a), box2d::transform(b)))
        .collect();
    let empty = box2d::b2SimplexCache {
        count: 0,
        indexA: [0; 3],
        indexB: [0; 3],
    };
    let mut our_caches = vec![SimplexCache::default(); 256];
    let mut b2_caches = vec![empty; 256];
    let linear = cast_cases::cast_cases_turning(0.0);
    let pi4 = cast_cases::cast_cases_turning(std::f32::consts::FRAC_PI_4);
    let turn3 = cast_cases::cast_cases_turning(3.0);
    let ours_cast = |cases: &[(Transform, collide2d::Vec2, f32, Transform)], i: usize| {
        let (xf_a, motion, turn, xf_b) = &cases[i % 256];
        let sweep_a = Sweep::spinning(xf_a, *motion, *turn);
        let sweep_b = Sweep::fixed(xf_b);
        black_box(shape_cast(
            &octagon,
            &sweep_a,
            &octagon,
            &sweep_b,
            CastOptions::default(),
        ))
        .is_some() as usize
    };
    let b2_toi = |cases: &[(Transform, collide2d::Vec2, f32, Transform)], i: usize| {
        let (xf_a, motion, turn, xf_b) = &cases[i % 256];
        let (xf_a, xf_b) = (box2d::transform(xf_a), box2d::transform(xf_b));
        let sweep_a = box2d::sweep(&xf_a, *motion, *turn);
        let sweep_b = box2d::sweep(&xf_b, collide2d::Vec2::ZERO, 0.0);
        (black_box(box2d::time_of_impact(&proxy, sweep_a, &proxy, sweep_b)).fraction < 1.0) as usize
    };
    let mut cases: Vec<Case> = vec![
        (
            "distance cold",
            Box::new(|i| {
                let (a, b) = &apart[i % 256];
                (black_box(distance(&octagon, a, &octagon, b)).distance > 0.0) as usize
            }),
        ),
        (
            "distance cold box2d",
            Box::new(|i| {
                let (a, b) = &b2_apart[i % 256];
                let mut cache = empty;
                (black_box(box2d::shape_distance(
                    &proxy,
                    &proxy,
                    box2d::inv_mul(a, b),
                    &mut cache,
                ))
                .distance
                    > 0.0) as usize
            }),
        ),
        (
            "distance warm",
            Box::new(|i| {
                let (a, b) = &apart[i % 256];
                (black_box(distance_with_cache(
                    &octagon,
                    a,
                    &octagon,
                    b,
                    &mut our_caches[i % 256],
                ))
                .distance
                    > 0.0) as usize
            }),
        ),
        (
            "distance warm box2d",
            Box::new(|i| {
                let (a, b) = &b2_apart[i % 256];
                (black_box(box2d::shape_distance(
                    &proxy,
                    &proxy,
                    box2d::inv_mul(a, b),
                    &mut b2_caches[i % 256],
                ))
                .distance
                    > 0.0) as usize
            }),
        ),
        ("linear cast", Box::new(|i| ours_cast(&linear, i))),
        (
            "linear cast box2d",
            Box::new(|i| {
                let (xf_a, motion, _, xf_b) = &linear[i % 256];
                let (xf_a, xf_b) = (box2d::transform(xf_a), box2d::transform(xf_b));
                let b_in_a = box2d::inv_mul(&xf_a, &xf_b);
                let translation_b = box2d::rotate_inv(&xf_a.q, box2d::vec(-*motion));
                black_box(box2d::shape_cast(&proxy, &proxy, b_in_a, translation_b)).hit as usize
            }),
        ),
        ("rotating pi/4", Box::new(|i| ours_cast(&pi4, i))),
        ("rotating pi/4 box2d", Box::new(|i| b2_toi(&pi4, i))),
        ("rotating 3", Box::new(|i| ours_cast(&turn3, i))),
        ("rotating 3 box2d", Box::new(|i| b2_toi(&turn3, i))),
    ];
    cases.retain(|(name, _)| name.contains(filter.as_str()));
    const BATCH: usize = 512;
    let mut samples = vec![Vec::new(); cases.len()];
    let mut sink = 0;
    for round in 0..rounds {
        for (k, (_, call)) in cases.iter_mut().enumerate() {
            let start = Instant::now();
            for i in 0..BATCH {
                sink += call(round * BATCH + i);
            }
            samples[k].push(start.elapsed().as_nanos() as f64 / BATCH as f64);
        }
    }
    for (k, (name, _)) in cases.iter().enumerate() {
        let s = &mut samples[k];
        s.sort_by(f64::total_cmp);
        println!(
            "{name:24} min {:7.1} ns  p10 {:7.1}  median {:7.1}",
            s[0],
            s[s.len() / 10],
            s[s.len() / 2]
        );
    }
    black_box(sink);
}
