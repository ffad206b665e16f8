//! Shapes in local space: circles, capsules, segments, convex polygons, compounds and boxes.

mod aabb;
mod decompose;
mod error;

pub use aabb::Aabb;
pub use error::{ShapeError, MAX_COORDINATE};

/// Most vertices a convex polygon may have.
pub const MAX_POLYGON_VERTICES: usize = 64;
