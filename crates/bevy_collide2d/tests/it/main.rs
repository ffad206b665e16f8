//! The plugin in headless apps: no window, no renderer. One binary, one module per theme.

mod carried;
mod ecs;
mod edges;
mod late_layers;
mod lifecycle;
mod model;
mod one_way;
mod scale;
mod support;
mod tile_map;
