//! The narrow-phase benchmark's placements, shared by `benches/narrow_phase.rs` and
//! the `profile_narrow` tool, so the profiler runs exactly the benchmark's configurations.

use super::rng::Rng;
use collide2d::{Transform, Vec2};

/// How many placements each case cycles through.
pub const CONFIGURATIONS: usize = 256;

/// A transform anywhere in a 100-unit square, at any angle.
fn scattered(rng: &mut Rng) -> Transform {
    Transform::new(
        Vec2::new(rng.unit() * 100.0, rng.unit() * 100.0),
        rng.unit() * std::f32::consts::TAU,
    )
}

/// Pairs of transforms placing B overlapping A (centres `reach` apart at most), random rotations.
pub fn placements(reach: f32) -> Vec<(Transform, Transform)> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..CONFIGURATIONS)
        .map(|_| {
            let a = scattered(&mut rng);
            let angle = rng.unit() * std::f32::consts::TAU;
            let b = Transform::new(
                a.p + Vec2::new(angle.cos(), angle.sin()) * reach * rng.unit(),
                rng.unit() * std::f32::consts::TAU,
            );
            (a, b)
        })
        .collect()
}

/// Axis-aligned placements for the box–box cases (rotations by small angles only).
pub fn box_placements() -> Vec<(Transform, Transform)> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    (0..CONFIGURATIONS)
        .map(|_| {
            let a = scattered(&mut rng);
            let offset = a.rotate(Vec2::new(rng.unit() * 1.6 - 0.8, 0.9 + rng.unit() * 0.2));
            let b = Transform::new(a.p + offset, a.angle() + (rng.unit() - 0.5) * 0.2);
            (a, b)
        })
        .collect()
}

/// Pairs of transforms placing B apart from A (circumradius-1 shapes: centres 2.2 to 4 apart),
/// random rotations: the distance cases.
pub fn separated_placements() -> Vec<(Transform, Transform)> {
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    (0..CONFIGURATIONS)
        .map(|_| {
            let a = scattered(&mut rng);
            let angle = rng.unit() * std::f32::consts::TAU;
            let b = Transform::new(
                a.p + Vec2::new(angle.cos(), angle.sin()) * (2.2 + 1.8 * rng.unit()),
                rng.unit() * std::f32::consts::TAU,
            );
            (a, b)
        })
        .collect()
}
