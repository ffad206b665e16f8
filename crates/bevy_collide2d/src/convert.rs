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
/// dropped.
pub fn placement(global: &GlobalTransform) -> (collide2d::Transform, collide2d::Vec2) {
    let (scale, rotation, translation) = global.to_scale_rotation_translation();
    let x_axis = rotation * Vec3::X;
    let angle = x_axis.y.atan2(x_axis.x);
    let angle = if angle.is_finite() { angle } else { 0.0 };
    (
        collide2d::Transform::new(collide2d::Vec2::new(translation.x, translation.y), angle),
        collide2d::Vec2::new(scale.x, scale.y),
    )
}
