//! The cast benchmark's configurations, shared by `benches/cast.rs` and
//! the `profile_cast` tool, so the profiler runs exactly the benchmark's cases.

use super::rng::Rng;
use collide2d::shape::Ray;
use collide2d::{Transform, Vec2};

/// How many configurations each case cycles through.
pub const CASES: usize = 256;

/// A transform in the square ±10 at an angle within ±3 rad.
fn pose(rng: &mut Rng) -> Transform {
    Transform::new(
        Vec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)),
        rng.range(-3.0, 3.0),
    )
}

/// A transformed 8-gon and a ray aimed near its centre from 5 units away.
pub fn ray_cases() -> Vec<(Transform, Ray)> {
    let mut rng = Rng(7);
    (0..CASES)
        .map(|_| {
            let xf = pose(&mut rng);
            let origin = xf.p + Vec2::from_angle(rng.range(-3.0, 3.0)) * 5.0;
            let target = xf.p + Vec2::new(rng.range(-1.2, 1.2), rng.range(-1.2, 1.2));
            (xf, Ray::new(origin, target - origin, 20.0).unwrap())
        })
        .collect()
}

/// Pairs of octagons: A moving at B, B still; with `spin`, A also turns by up to ±3 rad.
pub fn cast_cases(spin: bool) -> Vec<(Transform, Vec2, f32, Transform)> {
    cast_cases_turning(if spin { 3.0 } else { 0.0 })
}

/// Pairs of octagons: A moving at B, B still, A turning by up to ±`max_turn` rad over the step.
pub fn cast_cases_turning(max_turn: f32) -> Vec<(Transform, Vec2, f32, Transform)> {
    let mut rng = Rng(11);
    (0..CASES)
        .map(|_| {
            let xf_a = pose(&mut rng);
            let xf_b = Transform::new(
                xf_a.p + Vec2::from_angle(rng.range(-3.0, 3.0)) * 5.0,
                rng.range(-3.0, 3.0),
            );
            let motion =
                (xf_b.p - xf_a.p) * 1.5 + Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            let turn = if max_turn > 0.0 {
                rng.range(-max_turn, max_turn)
            } else {
                0.0
            };
            (xf_a, motion, turn, xf_b)
        })
        .collect()
}
