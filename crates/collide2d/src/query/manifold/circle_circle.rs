//! Circle against circle.

use crate::math::{Transform, Vec2};
use crate::query::manifold::rounded_points_contact;
use crate::query::{Feature, FeatureId, Manifold};
use crate::shape::Circle;

/// Circle A against circle B, in A's frame (`b_in_a` places B).
///
/// One point on the line between the centres; coincident centres push along A's local +x.
#[inline]
pub(crate) fn collide_circle_circle(
    circle_a: &Circle,
    circle_b: &Circle,
    b_in_a: &Transform,
    margin: f32,
) -> Manifold {
    rounded_points_contact(
        circle_a.center(),
        circle_a.radius(),
        b_in_a.apply(circle_b.center()),
        circle_b.radius(),
        margin,
        FeatureId {
            a: Feature::Vertex(0),
            b: Feature::Vertex(0),
        },
        Vec2::X,
    )
}
