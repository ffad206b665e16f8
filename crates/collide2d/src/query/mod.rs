//! Queries between placed shapes: overlap tests, contact manifolds, distance and casts.
//!
//! Every function takes each shape with the [`Transform`](crate::Transform) that places it.
//! Results follow the crate's [conventions](crate#conventions): normals point from A to B,
//! penetration is positive when overlapping, contact points lie midway between the surfaces.

mod ray;
mod types;

pub use ray::{Ray, RayError, RayHit, RayInside};
pub use types::{ContactPoint, DistanceOutput, Feature, FeatureId, Manifold, SimplexCache};
