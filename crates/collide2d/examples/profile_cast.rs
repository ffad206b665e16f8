//! Cast profiling driver: runs one case of `benches/cast.rs` on the same 256 configurations,
//! many times over, for `valgrind --tool=callgrind`.
//!
//! ```text
//! cargo build --release -p collide2d --example profile_cast
//! valgrind --tool=callgrind target/release/examples/profile_cast ray 100000
//! ```
//! Cases: `ray` (ray vs 8-gon), `linear` (linear cast 8-gon vs 8-gon), `rotating` (the same
//! turning up to ±3 rad), `setup` (builds the inputs only, to subtract the fixed cost).

use collide2d::query::{cast, CastOptions, Ray, Sweep};
use collide2d::shape::{Polygon, Shape};
use collide2d::{Transform, Vec2};
use std::hint::black_box;

const CASES: usize = 256;

/// The bench's generator, so the configurations are the same.
struct Lcg(u64);
impl Lcg {
    fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }
}

fn ray_cases() -> Vec<(Transform, Ray)> {
    let mut rng = Lcg(7);
    (0..CASES)
        .map(|_| {
            let xf = Transform::new(
                Vec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)),
                rng.range(-3.0, 3.0),
            );
            let origin = xf.p + Vec2::from_angle(rng.range(-3.0, 3.0)) * 5.0;
            let target = xf.p + Vec2::new(rng.range(-1.2, 1.2), rng.range(-1.2, 1.2));
            (xf, Ray::new(origin, target - origin, 20.0).unwrap())
        })
        .collect()
}

fn cast_cases(spin: bool) -> Vec<(Transform, Vec2, f32, Transform)> {
    let mut rng = Lcg(11);
    (0..CASES)
        .map(|_| {
            let xf_a = Transform::new(
                Vec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)),
                rng.range(-3.0, 3.0),
            );
            let xf_b = Transform::new(
                xf_a.p + Vec2::from_angle(rng.range(-3.0, 3.0)) * 5.0,
                rng.range(-3.0, 3.0),
            );
            let motion =
                (xf_b.p - xf_a.p) * 1.5 + Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            let turn = if spin { rng.range(-3.0, 3.0) } else { 0.0 };
            (xf_a, motion, turn, xf_b)
        })
        .collect()
}

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
                found += black_box(cast(
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
