//! The collide2d testbed: interactive samples of every query, broad phase and world feature,
//! drawn through the library's [`DebugDraw`](collide2d::debug::DebugDraw) interface on an egui
//! canvas.
//!
//! Run it with `cargo run -p collide2d-testbed --release`. Each sample is a [`Sample`] in its
//! own file under `samples/`, listed in [`samples::REGISTRY`]; the window is [`app::TestbedApp`].
//! `--screenshot <name|all> --out <dir>` visits samples in turn and saves one PNG each.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod app;
pub mod body;
pub mod camera;
pub mod painter;
pub mod recorder;
pub mod sample;
pub mod samples;
pub mod screenshot;

pub use sample::{Category, Input, Keys, Sample, View};
