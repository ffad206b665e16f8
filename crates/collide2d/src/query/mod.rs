//! Queries between placed shapes: overlap tests, contact manifolds, distance and casts.
//!
//! Every function takes each shape with the [`Transform`](crate::Transform) that places it.
//! Results follow the crate's [conventions](crate#conventions): normals point from A to B,
//! penetration is positive when overlapping, contact points lie midway between the surfaces.

mod manifold;
mod overlap;
mod types;

#[doc(hidden)]
pub use manifold::sat_axis_gap;
pub use manifold::{collide, collide_all, contacts};
pub use overlap::overlaps;
pub use types::{ContactPoint, DistanceOutput, Feature, FeatureId, Manifold, SimplexCache};
