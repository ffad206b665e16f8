//! The lengths one move works with: [`MoveOptions`]' skin, step height, snap distance and
//! recovery bound, held to the character's size and to the `f32` spacing of its coordinates.
//!
//! The rule (stated for users on [`MoveOptions`]):
//! - step height and snap distance at most half the character's extent along up, the
//!   recovery bound at most that extent;
//! - the skin at most a fiftieth of its smallest extent (along up or across), and at least
//!   four `f32` spacings of its coordinates (of the largest coordinate of its bounding box)
//!   and 64 `f32` epsilons of its size, so it stays a gap the numbers can hold: the recovery
//!   gap and the lowest a cast stops at are a quarter of the skin, one spacing. (Measured on
//!   the far sweeps of `tests/it/mover_invariance.rs`, 1,220 runs 5e3 to 1e5 out: with a
//!   floor of one spacing, as before, 67 runs failed; with the mover's spacing-aware reach a
//!   floor of two spacings leaves 33, four 28, six 30; at two, far shafts, corridors and
//!   thin walls still fail in turned frames, and from six on small characters, whose skin
//!   the floor then makes more than a fiftieth of their size, fail the rules of
//!   `mover_edges` and `mover_scale` as well.)
//! - the casts' tolerance a hundredth of that skin, at most 1e-4 (the casts' default) and at
//!   least 4 `f32` epsilons of the character's size.
//!
//! A character at least 0.5 units tall and wide within 16,384 of the origin keeps the
//! default options as given (four spacings there are 0.0078; and a platformer's 0.64-unit
//! capsule still climbs 0.18 stairs with the default 0.2 step); further out its skin is at
//! least 0.0156 (to 32,768), 0.031 (to 65,536), 0.0625 (to 131,072).
//! [`MoveOptions::for_size`] scales the defaults for other sizes.

use super::MoveOptions;
use crate::math::{Rot, Transform, Vec2};
use crate::query::CastOptions;
use crate::shape::Shape;

/// Most step height and snap distance, as a fraction of the character's extent along up.
pub(crate) const STEP_OF_HEIGHT: f32 = 0.5;
/// Most push-out per call, as a fraction of the character's extent along up.
const RECOVERY_OF_HEIGHT: f32 = 1.0;
/// Most skin, as a fraction of the character's smallest extent.
pub(crate) const SKIN_OF_WIDTH: f32 = 0.02;

/// Least skin, in `f32` spacings of the character's coordinates (see the module's rule).
pub(crate) const SKIN_OF_SPACING: f32 = 4.0;

/// The lengths of one call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lengths {
    pub skin: f32,
    pub step_height: f32,
    pub snap_distance: f32,
    pub max_recovery: f32,
    /// The tolerance of the mover's casts.
    pub tolerance: f32,
    /// The `f32` spacing of the character's coordinates: how finely a gap measured where it
    /// is (by a cast, or by the planes) is known.
    pub spacing: f32,
    /// The length the mover's "negligible" thresholds are relative to: the character's extent
    /// along up, at most 1.
    pub unit: f32,
}

impl Lengths {
    /// The lengths for `shape` placed at `xf`, with `up` (unit) and the options' values.
    pub fn new(shape: &Shape, xf: &Transform, up: Vec2, opts: &MoveOptions) -> Lengths {
        let (height, width, reach) = extents(shape, xf, up);
        let smallest = height.min(width);
        let size = height.max(width);
        let spacing = f32_spacing(reach);
        let skin = opts
            .skin
            .min(SKIN_OF_WIDTH * smallest)
            .max(SKIN_OF_SPACING * spacing)
            .max(64.0 * f32::EPSILON * size);
        let default_tolerance = CastOptions::default().tolerance;
        let tolerance = (0.01 * skin)
            .min(default_tolerance)
            .max(4.0 * f32::EPSILON * size);
        Lengths {
            skin,
            step_height: opts.step_height.min(STEP_OF_HEIGHT * height),
            snap_distance: opts.snap_distance.min(STEP_OF_HEIGHT * height),
            max_recovery: opts.max_recovery.min(RECOVERY_OF_HEIGHT * height),
            tolerance,
            spacing,
            unit: height.min(1.0),
        }
    }
}

/// The extents of `shape` at `xf` along `up` and across it, and the largest coordinate of its
/// bounding box (how far from the origin its numbers are).
fn extents(shape: &Shape, xf: &Transform, up: Vec2) -> (f32, f32, f32) {
    // Turned so that `up` is +y: the box of the turned shape measures along and across up.
    let upright = Rot::try_from_cos_sin(up.y, up.x).unwrap_or(Rot::IDENTITY);
    let turned = Transform {
        p: Vec2::ZERO,
        q: upright.mul(xf.q),
    };
    let local = shape.aabb(&turned);
    let placed = shape.aabb(xf);
    let reach = placed.min.abs().max(placed.max.abs()).max_element();
    let size = local.max - local.min;
    (size.y, size.x, reach)
}

/// The spacing of `f32` values at `x` (one unit in the last place), at least the smallest
/// normal number.
pub(crate) fn f32_spacing(x: f32) -> f32 {
    let x = x.abs();
    if !x.is_finite() || x < f32::MIN_POSITIVE {
        return f32::MIN_POSITIVE;
    }
    f32::from_bits(x.to_bits() + 1) - x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Polygon};

    #[test]
    fn a_unit_character_near_the_origin_keeps_the_options() {
        let shape = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
        let lengths = Lengths::new(
            &shape,
            &Transform::IDENTITY,
            Vec2::Y,
            &MoveOptions::default(),
        );
        assert_eq!(lengths.skin, 0.01);
        assert_eq!(lengths.step_height, 0.2);
        assert_eq!(lengths.snap_distance, 0.2);
        assert_eq!(lengths.max_recovery, 0.5);
        assert_eq!(lengths.tolerance, CastOptions::default().tolerance);
    }

    #[test]
    fn a_small_character_gets_lengths_of_its_size() {
        let capsule = Capsule::vertical(0.05, 0.01).unwrap();
        let shape = Shape::from(capsule);
        let lengths = Lengths::new(
            &shape,
            &Transform::IDENTITY,
            Vec2::Y,
            &MoveOptions::default(),
        );
        assert!((lengths.step_height - 0.025).abs() < 1e-7, "{lengths:?}");
        assert!((lengths.snap_distance - 0.025).abs() < 1e-7, "{lengths:?}");
        assert!((lengths.max_recovery - 0.05).abs() < 1e-7, "{lengths:?}");
        assert!((lengths.skin - 0.0004).abs() < 1e-9, "{lengths:?}");
        // Sideways up: the capsule's long axis lies across up.
        let sideways = Lengths::new(
            &shape,
            &Transform::IDENTITY,
            Vec2::X,
            &MoveOptions::default(),
        );
        assert!((sideways.step_height - 0.01).abs() < 1e-7, "{sideways:?}");
    }

    #[test]
    fn far_from_the_origin_the_skin_is_at_least_the_coordinates_spacing() {
        let shape = Shape::from(Polygon::rect(1000.0, 1000.0).unwrap());
        let far = Transform::new(Vec2::new(3.0e7, 1.0e7), 0.0);
        let lengths = Lengths::new(&shape, &far, Vec2::Y, &MoveOptions::default());
        assert_eq!(lengths.skin, 4.0 * 2.0);
        // A 0.05-unit character 5e3 out: its options' 5e-4 skin is one spacing there.
        let small = Shape::from(Polygon::rect(0.05, 0.05).unwrap());
        let out = Transform::new(Vec2::new(5.0e3, 0.0), 0.0);
        let options = MoveOptions::for_size(0.05);
        let lengths = Lengths::new(&small, &out, Vec2::Y, &options);
        assert_eq!(lengths.skin, 4.0 * f32_spacing(5.0e3));
    }
}
