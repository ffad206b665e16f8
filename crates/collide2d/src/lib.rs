//! collide2d: the collision layer of a 2D game or simulation.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod math;
pub mod query;
pub mod shape;

pub use glam;
pub use math::{Rot, Transform, Vec2};
pub use query::{collide, collide_all, contacts, overlaps};
pub use shape::{
    Aabb, Capsule, Circle, Compound, PointProjection, Polygon, Segment, Shape, ShapeError,
};
