//! The `collide2d` command's parts, as a library so its tests can render in-process.
//!
//! - [`scene`]: the versioned JSON scene format and its checks (see `scenes/README.md`);
//! - [`sim`]: a world built from a scene, with simple kinematic motion (no solver);
//! - [`run`]: running frames with statistics, a progress bar and event output;
//! - [`render`] and [`font`]: PNG pictures with a legend;
//! - [`animation`]: animated GIF output;
//! - [`pair`]: the `query` subcommand's pair file and answers;
//! - [`bench`](mod@bench): the scaling benchmark and its plot;
//! - [`rng`]: a seeded random number generator.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod animation;
pub mod bench;
pub mod font;
pub mod pair;
pub mod render;
pub mod rng;
pub mod run;
pub mod scene;
pub mod sim;

/// The built-in demo scene (also `scenes/demo.json`).
pub const DEMO_SCENE: &str = include_str!("../../../scenes/demo.json");
