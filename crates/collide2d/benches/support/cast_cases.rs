//! The cast benchmark's configurations, shared by `benches/cast.rs` and
//! `examples/profile_cast.rs`, so the profiler runs exactly the benchmark's cases.

use collide2d::shape::Ray;
use collide2d::{Transform, Vec2};

/// How many configurations each case cycles through.
pub const CASES: usize = 256;

/// Deterministic random numbers (a 64-bit linear congruential generator).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in [0, 1).
    pub fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    /// A number in [low, high).
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.unit()
    }
}

/// A transform in the square ±10 at an angle within ±3 rad.
fn pose(rng: &mut Lcg) -> Transform {
    Transform::new(
        Vec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)),
        rng.range(-3.0, 3.0),
    )
}

/// A transformed 8-gon and a ray aimed near its centre from 5 units away.
pub fn ray_cases() -> Vec<(Transform, Ray)> {
    let mut rng = Lcg(7);
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
    let mut rng = Lcg(11);
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
