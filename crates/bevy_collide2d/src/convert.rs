//! Conversions between Bevy's math types and collide2d's, which use different glam versions.

use bevy_math::{Vec2, Vec3};
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
/// The placement is the translation's `x, y` and the turn about `z` (the angle of the object's
/// rotated `x` axis); the scale is the object's `x, y` scale. Rotations out of the plane are
/// dropped. A scale factor within 1e-5 of ±1 is taken as ±1: propagating a turned parent
/// leaves its children's scales a rounding away from 1, which would otherwise reshape their
/// colliders at every move.
pub fn placement(global: &GlobalTransform) -> (collide2d::Transform, collide2d::Vec2) {
    let (scale, rotation, translation) = global.to_scale_rotation_translation();
    let x_axis = rotation * Vec3::X;
    let angle = x_axis.y.atan2(x_axis.x);
    let angle = if angle.is_finite() { angle } else { 0.0 };
    (
        collide2d::Transform::new(collide2d::Vec2::new(translation.x, translation.y), angle),
        collide2d::Vec2::new(snap_unit(scale.x), snap_unit(scale.y)),
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
