//! Cast profiling driver: runs one case of `benches/cast.rs` on the same 256 configurations,
//! many times over, for `valgrind --tool=callgrind`.
//!
//! ```text
//! cargo build --release -p collide2d --example profile_cast
//! valgrind --tool=callgrind target/release/examples/profile_cast ray 100000
//! ```
//! Cases: `ray` (ray vs 8-gon), `linear` (linear cast 8-gon vs 8-gon), `rotating` (the same
//! turning up to ±3 rad), `setup` (builds the inputs only, to subtract the fixed cost).

use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Polygon, Shape};
use std::hint::black_box;

#[path = "../benches/support/cast_cases.rs"]
mod cast_cases;

use cast_cases::{cast_cases, ray_cases, CASES};

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
        "linear" | "rotating" => {
            let spin = case == "rotating";
            let cases = cast_cases(spin);
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
        "setup" => {
            black_box((ray_cases(), cast_cases(false), cast_cases(true)));
        }
        other => panic!("unknown case {other}"),
    }
    println!("{case}: {found} hits");
}
