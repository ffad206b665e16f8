//! Queries between placed shapes: overlap tests, contact manifolds, distance and casts.
//!
//! Every function takes each shape with the [`Transform`](crate::Transform) that places it.
//! Results follow the crate's [conventions](crate#conventions): normals point from A to B,
//! penetration is positive when overlapping, contact points lie midway between the surfaces.

mod cast;
mod distance;
pub(crate) mod manifold;
mod overlap;
mod ray;
mod support;
mod sweep;
mod types;

pub(crate) use cast::{chain_passed_segment, child_sweep};
pub use cast::{shape_cast, CastHit, CastOptions};
pub use distance::{distance, distance_with_cache};
pub(crate) use manifold::contacts_of_valid;
pub use manifold::AabbManifold;
pub use manifold::{collide, collide_all, collide_speculative};
pub use overlap::overlaps;
pub(crate) use overlap::overlaps_of_valid;
pub use ray::{AabbRayCast, RayHit, RayInside};
pub use sweep::{
    sweep_aabbs, sweep_circle_half_plane, sweep_circle_segment, sweep_circles, HalfPlaneHit, Sweep,
    SweepHit,
};
pub use types::{ContactPoint, DistanceOutput, Feature, FeatureId, Manifold, SimplexCache};
