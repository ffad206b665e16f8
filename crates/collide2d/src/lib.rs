//! collide2d: the collision layer of a 2D game or simulation.
//!
//! It answers *which of my objects touch, where, how deep, and when will this moving thing first
//! hit something*. It does not integrate velocities or solve constraints; it gives a physics
//! engine, a character controller or a game's own logic what it needs to do so.
//!
//! # A short tour
//!
//! - [`math`]: [`Vec2`] (glam's), [`Rot`] and [`Transform`].
//! - [`shape`]: [`Circle`], [`Capsule`], [`Segment`], convex [`Polygon`] (optionally rounded),
//!   [`Compound`] (several convex children, e.g. from a concave outline), [`Chain`] (one-sided
//!   polylines for level geometry, without ghost collisions at joints) and [`Aabb`], gathered
//!   in the [`Shape`] enum. Every shape answers `aabb`, `contains`, `project_point`, `area` and
//!   `centroid` when placed by a [`Transform`]. [`Ray`] is the half-line every ray cast takes.
//! - [`query`]: questions about two placed shapes: [`overlaps`], contact manifolds
//!   ([`collide`]), [`distance`], ray casts and time of impact ([`shape_cast`]).
//! - [`broad`]: three spatial indexes behind one [`BroadPhase`] trait ([`DynamicTree`],
//!   [`HashGrid`], [`SweepAndPrune`]) that find the overlapping pairs among many boxes and the
//!   boxes a point, box or ray reaches; they give the same answers and differ only in speed.
//! - [`layer`]: [`LayerId`] and [`LayerMask`], shared by tile maps and the world.
//! - [`level`]: tile maps merged into region outlines and rectangles, kept current under edits.
//! - [`world`]: the [`World`], which puts the layers together: colliders behind handles, named
//!   layers, begin/stay/end events, queries with filters, `move_and_slide` character movement,
//!   continuous colliders, tile-map colliders and snapshots.
//! - [`debug`]: one small drawing interface, [`debug::DebugDraw`], through which shapes,
//!   contacts and worlds are drawn, and a PNG canvas behind the `render` feature.
//!
//! `shape` and `query` are stateless and usable on their own, as is `broad` (its proxies carry a
//! `u64` key); `world` is the only module that keeps colliders, layers and events.
//!
//! ```
//! use collide2d::{shape::{Circle, Polygon, Shape}, Transform, Vec2};
//!
//! let crate_box = Shape::from(Polygon::rect(2.0, 1.0)?);
//! let placed = Transform::new(Vec2::new(5.0, 0.0), 0.5);
//! assert!(crate_box.contains(&placed, Vec2::new(5.2, 0.1)));
//!
//! // Bad input is an error, never a broken shape or a panic.
//! assert!(Circle::with_radius(-1.0).is_err());
//! assert!(Polygon::hull(&[Vec2::ZERO, Vec2::ONE, Vec2::splat(2.0)]).is_err());
//! # Ok::<(), collide2d::ShapeError>(())
//! ```
//!
//! # API themes
//!
//! Names follow a few rules, stated here once:
//!
//! - **Builders** are `with_*` and take the value (`Collider::with_sensor(true)`); **getters**
//!   are the bare noun (`Collider::layer()`); boolean getters are `is_*`. World setters are
//!   `set_*` and take a handle.
//! - **One verb order** in every layer: `ray_cast`, `shape_cast`, `overlap_*`; `collide` for
//!   a contact manifold.
//! - **`_with`** means "with an options value" (`Shape::ray_cast_with`) and nothing else; a
//!   form that calls a callback for each answer is named `*_each`.
//! - **Distinct names for distinct things**: `query::RayHit` is a ray against a shape,
//!   `broad::ProxyRayHit` a ray against a stored box.
//! - **Result and option types** are re-exported at the crate root beside the functions that
//!   use them ([`Manifold`], [`CastHit`], [`CastOptions`], [`Ray`], [`RayHit`], …).
//! - **Errors** are one enum per module, each variant naming one cause.
//!
//! # Conventions
//!
//! These hold everywhere in the crate; other docs link here rather than repeat them.
//!
//! - **Units and scalars.** `f32` throughout; lengths in whatever unit the game uses (metres or
//!   pixels both work: tolerances are relative to shape size where it matters). Angles are in
//!   radians, counter-clockwise positive.
//! - **Frames.** Shapes are plain values in their own local frame; a [`Transform`] places them in
//!   the world (rotate by `q`, then translate by `p`). Local coordinates and translations must
//!   stay within ±[`shape::MAX_COORDINATE`] (1e9), the range over which every query is exact
//!   to `f32` rounding; put objects far away with their transform, not their vertices. Pair
//!   queries compute in A's local frame, so two shapes far from the origin but close to each
//!   other keep their precision. A position itself rounds to the spacing of its coordinates
//!   (0.0078 at 1e5): [`World::move_and_slide`](world::World::move_and_slide) keeps a skin
//!   of at least four such spacings (see [`world::MoveOptions`]), so a small character far
//!   out keeps a larger gap to what it touches than near the origin.
//! - **Winding.** Polygons are stored counter-clockwise with outward edge normals; constructors
//!   accept either winding. `normals()[i]` belongs to the edge from vertex `i` to vertex `i + 1`.
//! - **Rounding.** A polygon or capsule with radius `r` is its core inflated by `r`: every point
//!   within `r` of the core belongs to the shape.
//! - **Boundaries.** A point on the boundary is inside; touching shapes overlap.
//! - **Normals** point **from A to B** and have unit length. For overlapping polygon-like
//!   shapes the normal is a face normal of one of them, preferring A's: B's face becomes the
//!   reference only when its depth is smaller by more than 1e-4 × the smaller shape's size, so
//!   that the choice stays put while two faces rest on each other. The normal may therefore be
//!   a near-tie axis whose depth is within 1e-4 × size of the exact minimum.
//! - **Penetration** is positive when shapes overlap, zero when they just touch, and negative
//!   only for speculative contacts within a caller-given margin. Each contact point lies midway
//!   between the two surfaces along the normal, and its penetration is the depth of the two
//!   surfaces along the normal at that point: `point ± normal × penetration / 2` lie on A's
//!   and B's surfaces (to within 1e-4 × size and rounding).
//! - **Tolerances.** Polygon construction welds points closer than
//!   [`shape::WELD_TOLERANCE`] × the size of the point set and drops vertices that close to
//!   collinear.
//! - **Errors.** Every constructor that takes user numbers returns `Result<_, ShapeError>`:
//!   non-finite values, negative radii, degenerate or non-convex outlines are reported, never
//!   turned into NaN or a panic.
//! - **Never NaN.** No query returns NaN, whatever it is given. Input a query cannot use gets
//!   one documented answer, checked on entry (queries keep their signatures):
//!   - a [`Transform`] that is not [valid](Transform::is_valid) (non-finite, translation beyond
//!     ±[`shape::MAX_COORDINATE`], or `|c² + s² − 1| >` [`math::ROTATION_TOLERANCE`]):
//!     [`collide`] and [`collide_speculative`] give an empty manifold, [`collide_all`] appends nothing,
//!     [`overlaps`] and [`Shape::contains`] give `false`, [`distance`] gives
//!     [`query::DistanceOutput::NONE`] (infinitely far), [`Shape::project_point`] gives
//!     [`shape::PointProjection::NONE`], [`Shape::aabb`] gives [`Aabb::EMPTY`], and ray casts
//!     miss; a [`query::Sweep`] that is not [valid](query::Sweep::is_valid) makes [`shape_cast`]
//!     miss. Rotations within the tolerance are used as given (not normalised).
//!   - a hand-built [`Ray`] that [`Ray::new`] would refuse
//!     ([`is_valid`](Ray::is_valid) is false): [`Shape::ray_cast`] and
//!     [`Aabb::ray_cast`] miss; the broad phases and the [`World`] refuse it with an error.
//!     A hit whose point `f32` cannot hold is a miss too.
//!   - world points beyond ±4 · [`shape::MAX_COORDINATE`] (farther than any placed shape
//!     reaches): `contains` is `false`, `project_point` gives
//!     [`shape::PointProjection::NONE`], the closed-form sweeps give `None`.
//!
//!   The [`World`] refuses the same inputs with a [`world::WorldError`]. The per-kind methods
//!   (`Circle::contains`, …) skip these checks: they are for callers who hold valid input.
//!
//! # Crate features
//!
//! | feature | what it adds |
//! |---|---|
//! | `serde` | `Serialize`/`Deserialize` for shapes, transforms, results, colliders, layers and whole-world snapshots ([`World::snapshot`], [`World::restore`]); deserialising re-validates every shape, and a restore checks the snapshot |
//! | `rayon` | `World::update` and `set_transforms` on the current rayon pool (moved proxies' pair refresh, partner lists, pairs to re-test, narrow phase, events merge, move checks), parallel pair finding and continuous colliders' sweeps; output identical to the serial path, which small worlds keep |
//! | `render` | `debug::Canvas`: a [`debug::DebugDraw`] that draws into a picture and writes it as a PNG (through `tiny-skia`) |
#![warn(missing_docs)]
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod broad;
pub mod debug;
mod huge_pages;
pub mod layer;
pub mod level;
pub mod math;
mod prefetch;
pub mod query;
pub mod shape;
#[cfg(feature = "rayon")]
mod slot_ranges;
#[cfg(test)]
mod test_numbers;
pub mod world;

pub use broad::{BroadPhase, BroadPhaseError, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
pub use glam;
pub use layer::{LayerId, LayerMask};
pub use math::{Rot, Transform, Vec2};
pub use query::{collide, collide_all, collide_speculative, overlaps, shape_cast};
pub use query::{distance, distance_with_cache};
pub use query::{
    sweep_aabbs, sweep_circle_half_plane, sweep_circle_segment, sweep_circles, CastHit,
    CastOptions, ContactPoint, DistanceOutput, Feature, FeatureId, Manifold, RayHit, RayInside,
    SimplexCache, Sweep,
};
pub use query::{AabbManifold, AabbRayCast};
pub use shape::{
    Aabb, Capsule, Chain, Circle, Compound, PointProjection, Polygon, Ray, RayError, Segment,
    Shape, ShapeError,
};
pub use world::{Collider, CollisionGroups, World};

/// The README's example, compiled and run as a doc-test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
