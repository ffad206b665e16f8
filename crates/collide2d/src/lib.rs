//! collide2d: the collision layer of a 2D game or simulation.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod broad;
pub mod math;
pub mod shape;

pub use broad::{BroadPhase, BroadPhaseError, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
pub use glam;
pub use math::{Rot, Transform, Vec2};
pub use shape::{Aabb, ShapeError};
