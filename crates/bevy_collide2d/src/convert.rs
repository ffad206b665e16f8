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
/// parent, or a tilt out of the plane) is dropped. A scale factor within 1e-5 of ±1 is taken
/// as ±1: propagating a turned parent leaves its children's scales a rounding away from 1,
/// which would otherwise reshape their colliders at every move. An axis that projects to
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
        collide2d::Vec2::new(snap_unit(mirror * x_length), snap_unit(y_scale)),
    )
}

/// `x`, or ±1 when within 1e-5 of it.
fn snap_unit(x: f32) -> f32 {
    if (x.abs() - 1.0).abs() <= 1e-5 {
        1.0f32.copysign(x)
    } else {
        x
    }
}
