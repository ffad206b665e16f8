//! The plugin in headless apps: no window, no renderer. One binary, one module per theme.

mod carried;
mod ecs;
mod edges;
mod late_layers;
mod model;
mod one_way;
mod support;
mod tile_map;
