//! Cast profiling driver: runs one case of `benches/cast.rs` on the same 256 configurations,
//! many times over, for `valgrind --tool=callgrind`.
//!
//! ```text
//! cargo build --release -p collide2d-tools --bin profile_cast
//! valgrind --tool=callgrind target/release/profile_cast ray 100000
//! ```
//! Cases: `ray` (ray vs 8-gon; `ray_box2d` runs Box2D v3's `b2RayCastPolygon` on the same
//! rays), `linear` (linear cast 8-gon vs 8-gon), `rotating` (the same
//! turning up to ±3 rad), `rotating_pi4` (turning within ±π/4), `setup` (builds the inputs
//! only, to subtract the fixed cost); `linear_box2d`, `rotating_box2d` and `rotating_pi4_box2d`
//! run Box2D v3's `b2ShapeCast` and `b2TimeOfImpact` on the same cases.

use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Polygon, Shape};
use std::hint::black_box;

#[path = "../../../collide2d/benches/support/box2d.rs"]
mod box2d;

use collide2d_testkit::cast_cases::{cast_cases, cast_cases_turning, ray_cases, CASES};
use std::f32::consts::FRAC_PI_4;

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "ray".to_string());
    let iterations: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let octagon = Shape::from(Polygon::regular(8, 1.0).unwrap());
    let mut found = 0usize;
    match case.as_str() {
        "ray" => {
            let cases = ray_cases();
            for i in 0..iterations {
                let (xf, ray) = &cases[i % CASES];
                found +=
                    black_box(octagon.ray_cast(black_box(xf), black_box(ray))).is_some() as usize;
            }
        }
        "ray_box2d" => {
            // The benchmark's Box2D column: the ray moved into the polygon's frame, the hit out.
            let b2_octagon = box2d::polygon(&Polygon::regular(8, 1.0).unwrap());
            let cases: Vec<_> = ray_cases()
                .iter()
                .map(|(xf, ray)| {
                    let translation = box2d::vec(ray.direction * ray.max_distance);
                    (box2d::transform(xf), box2d::vec(ray.origin), translation)
                })
                .collect();
            for i in 0..iterations {
                let (xf, origin, translation) = black_box(&cases[i % CASES]);
                let hit = box2d::ray_cast_placed_polygon(&b2_octagon, xf, *origin, *translation);
                found += black_box(hit).hit as usize;
            }
        }
        "linear" | "rotating" | "rotating_pi4" => {
            let cases = cast_cases_turning(max_turn(&case));
            for i in 0..iterations {
                let (xf_a, motion, turn, xf_b) = &cases[i % CASES];
                let sweep_a = Sweep::spinning(xf_a, *motion, *turn);
                let sweep_b = Sweep::fixed(xf_b);
                found += black_box(shape_cast(
                    &octagon,
                    &sweep_a,
                    &octagon,
                    &sweep_b,
                    CastOptions::default(),
                ))
                .is_some() as usize;
            }
        }
        "linear_box2d" | "rotating_box2d" | "rotating_pi4_box2d" => {
            let cases = cast_cases_turning(max_turn(&case));
            let b2_octagon = box2d::polygon(&Polygon::regular(8, 1.0).unwrap());
            let proxy = box2d::polygon_proxy(&b2_octagon);
            for i in 0..iterations {
                let (xf_a, motion, turn, xf_b) = &cases[i % CASES];
                let (xf_a, xf_b) = (box2d::transform(xf_a), box2d::transform(xf_b));
                found += if case == "linear_box2d" {
                    let b_in_a = box2d::inv_mul(&xf_a, &xf_b);
                    let translation_b = box2d::rotate_inv(&xf_a.q, box2d::vec(-*motion));
                    black_box(box2d::shape_cast(&proxy, &proxy, b_in_a, translation_b)).hit as usize
                } else {
                    let sweep_a = box2d::sweep(&xf_a, *motion, *turn);
                    let sweep_b = box2d::sweep(&xf_b, collide2d::Vec2::ZERO, 0.0);
                    let out = box2d::time_of_impact(&proxy, sweep_a, &proxy, sweep_b);
                    (black_box(out).fraction < 1.0) as usize
                };
            }
        }
        "setup" => {
            black_box((ray_cases(), cast_cases(false), cast_cases(true)));
        }
        other => panic!("unknown case {other}"),
    }
    println!("{case}: {found} hits");
}

/// The largest turn of a case's casts: none for the linear ones.
fn max_turn(case: &str) -> f32 {
    if case.starts_with("rotating_pi4") {
        FRAC_PI_4
    } else if case.starts_with("rotating") {
        3.0
    } else {
        0.0
    }
}
