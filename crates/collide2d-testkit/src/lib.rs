//! Test support shared by the workspace's crates: the one seeded random number generator
//! ([`Rng`]), random shapes of every kind, the benchmarks' scenes and placements, and (with the
//! `parry` feature) conversion of collide2d's shapes and placements to parry2d's.
//!
//! The files live in `crates/collide2d/tests/it/support/` so the packaged library's tests and
//! benchmarks build without this unpublished crate; the modules below include them by `#[path]`.

#[path = "../../collide2d/tests/it/support/broad_scene.rs"]
pub mod broad_scene;
#[path = "../../collide2d/tests/it/support/cast_cases.rs"]
pub mod cast_cases;
#[path = "../../collide2d/tests/it/support/narrow_placements.rs"]
pub mod narrow_placements;
#[cfg(feature = "parry")]
#[path = "../../collide2d/tests/it/support/parry.rs"]
pub mod parry;
#[path = "../../collide2d/tests/it/support/rng.rs"]
pub mod rng;
#[path = "../../collide2d/tests/it/support/shapes.rs"]
pub mod shapes;
#[path = "../../collide2d/tests/it/support/world_scene.rs"]
pub mod world_scene;

pub use rng::Rng;
