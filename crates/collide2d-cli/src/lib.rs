//! The `collide2d` command's parts, as a library so its tests can render in-process.
//!
//! - [`scene`]: the versioned JSON scene format and its checks (see `scenes/README.md`);
//! - [`build`]: a scene's world and moving bodies, built from a scene file;
//! - [`sim`]: a built scene run with simple kinematic motion (no solver);
//! - [`memory`]: the memory estimate of a scene, checked before building it;
//! - [`run`]: running frames with statistics, a progress bar and event output;
//! - [`progress`]: labelled progress with elapsed time and time left, on a terminal;
//! - [`output`]: output paths, extensions and picture sizes, checked before any work;
//! - [`render`] and [`font`]: PNG pictures with a title, a legend and level of detail;
//! - [`view`]: `--view` boxes and `--follow` views;
//! - [`trails`]: bullet trails and hit markers;
//! - [`animation`]: animated GIF output;
//! - [`pair`]: the `query` subcommand's pair file and answers;
//! - [`bench`](mod@bench): the scaling benchmark and its plot;
//! - [`rng`]: a seeded random number generator;
//! - [`defaults`]: every default of the command and of scene files, in one place;
//! - [`error`]: [`CliError`](error::CliError), why a command stopped;
//! - [`console`]: standard output that a closed pipe silences instead of stopping a command.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod animation;
pub mod bench;
pub mod build;
pub mod console;
pub mod defaults;
pub mod error;
pub mod font;
pub mod memory;
pub mod output;
pub mod pair;
pub mod progress;
pub mod render;
pub mod rng;
pub mod run;
pub mod scene;
pub mod sim;
pub mod trails;
pub mod view;

/// The built-in demo scene (also `scenes/demo.json`).
pub const DEMO_SCENE: &str = include_str!("../../../scenes/demo.json");
