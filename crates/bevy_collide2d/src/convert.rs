//! Conversions between Bevy's math types and collide2d's, which use different glam versions.

use bevy_math::Vec2;
use bevy_transform::components::GlobalTransform;

/// A Bevy vector as collide2d's.
#[inline]
pub fn to_lib(v: Vec2) -> collide2d::Vec2 {
    collide2d::Vec2::new(v.x, v.y)
}

/// A collide2d vector as Bevy's.
#[inline]
pub fn from_lib(v: collide2d::Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// An object's placement in the plane and its scale, read from its `GlobalTransform`.
///
/// What counts is the transform as a camera looking down `z` sees it: the translation's
/// `x, y` and the map of the object's `x` and `y` axes onto the plane. That map is taken apart
/// into a turn (the angle of the object's projected `x` axis) and a scale along the object's
/// own axes, negative in `x` for a mirror: a half turn about `x` or `y` (a sprite flipped
/// that way) is the mirror the camera sees, and a transform that is not out of the plane
/// reads as its rotation about `z` and its scale. A skew (a non-uniform scale under a turned
/// parent, or a tilt out of the plane) is dropped. Each scale factor is read to 16 fraction
/// bits ([`read_scale`]; ±1 within 1e-5), so that the same scale under another turn reads the
/// same: a turned parent moving its scaled children does not reshape their colliders at every
/// move, as the roundings of its turn would otherwise make them. An axis that projects to
/// nothing (a zero scale, an object edge-on to the camera) gives a zero scale factor; the turn
/// is then read from the other axis. A non-finite transform gives a non-finite placement
/// (which the world refuses), never a made-up one.
pub fn placement(global: &GlobalTransform) -> (collide2d::Transform, collide2d::Vec2) {
    let affine = global.affine();
    let x_axis = Vec2::new(affine.matrix3.x_axis.x, affine.matrix3.x_axis.y);
    let y_axis = Vec2::new(affine.matrix3.y_axis.x, affine.matrix3.y_axis.y);
    let translation = affine.translation;
    // A mirror (the axes' turn reversed) goes on x, as glam's decomposition puts it.
    let mirror = if x_axis.perp_dot(y_axis) < 0.0 {
        -1.0
    } else {
        1.0
    };
    let x_length = x_axis.length();
    let angle = if x_length > 0.0 {
        let x_dir = x_axis * mirror;
        x_dir.y.atan2(x_dir.x)
    } else {
        // The projected y axis is the turned y axis (no mirror without an x axis).
        (-y_axis.x).atan2(y_axis.y)
    };
    let (sin, cos) = angle.sin_cos();
    // The y axis along the turned y direction; what lies along the turned x is skew.
    let y_scale = -sin * y_axis.x + cos * y_axis.y;
    (
        collide2d::Transform::new(collide2d::Vec2::new(translation.x, translation.y), angle),
        collide2d::Vec2::new(read_scale(mirror * x_length), read_scale(y_scale)),
    )
}

/// A scale factor as the plugin reads it: ±1 when within 1e-5 of it, else rounded to 16
/// fraction bits (a relative step of 2^-16 to 2^-17, so within 7.7e-6 of the factor read).
///
/// Reading a scale off a turned transform leaves a few units in the last place of rounding
/// that change as the turn does: a parent of scale 2 turned a little reads 2.0000002 one
/// step and 1.9999999 the next. Rounded this way, a scale reads the same at every turn (a
/// factor with 16 or fewer fraction bits, such as 2, 0.5 or 1.25, exactly), so a collider is
/// reshaped only when its entity's scale changes, and the shape is the one a fresh build
/// would make. A factor that lies within those roundings of a boundary between two steps can
/// still read one step or the other as the turn changes (each such read reshapes the collider,
/// still to a fresh build's shape): about one move in a hundred for seeded arbitrary scales in
/// the plugin's tests, none for scales of 16 fraction bits or fewer.
/// Zero, subnormal and non-finite factors are kept as they are (the world
/// refuses what it cannot take), and so is a factor that would round past `f32::MAX`.
pub fn read_scale(x: f32) -> f32 {
    if (x.abs() - 1.0).abs() <= 1e-5 {
        return 1.0f32.copysign(x);
    }
    if !x.is_normal() {
        return x;
    }
    // 23 fraction bits in an f32: drop the low 7, rounding half away from zero (a carry out of
    // the fraction moves to the next power of two, as it should).
    const DROPPED: u32 = 23 - 16;
    let bits = x.to_bits();
    let rounded = f32::from_bits((bits + (1 << (DROPPED - 1))) & !((1 << DROPPED) - 1));
    if rounded.is_finite() {
        rounded
    } else {
        x
    }
}
