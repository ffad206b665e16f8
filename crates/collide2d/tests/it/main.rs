//! The library's integration tests, one module per area, built as a single test binary.
//!
//! `support`, `manifold_common` and `fuzz_checks` are the shared helpers (random numbers and
//! shapes, scene builders, parry2d conversions, exact references, the fuzz targets' checks);
//! `collide2d-testkit` exposes the same files to the other crates of the workspace.

#[path = "../../benches/support/box2d.rs"]
mod box2d;
mod fuzz_checks;
mod manifold_common;
mod support;

mod bad_input;
mod broad_grid_pairs;
mod broad_model;
mod broad_parallel;
mod cast;
mod cast_invariance;
mod cast_parry;
mod cast_reference;
mod cast_seams;
mod cast_skin_band;
mod chain;
mod chain_open_end;
mod character_mover;
mod collapsed_features;
mod compound_chain_edges;
mod compound_projection;
mod distance;
mod distance_extremes;
mod fuzz_regressions;
mod hostile_queries;
mod layering;
mod manifold_box2d;
mod manifold_caps;
mod manifold_cases;
mod manifold_distance;
mod manifold_exact;
mod manifold_face_end;
mod manifold_invariance;
mod manifold_parry;
mod manifold_props;
mod motion_range;
mod mover_corner;
mod mover_edges;
mod mover_invariance;
mod mover_ledges;
mod mover_play;
mod mover_rounds;
mod mover_scale;
mod mover_seams;
mod mover_slope_walk;
mod query_edges;
mod ray;
mod ray_exit;
mod ray_parry;
mod serde;
mod shape_props;
mod shapes;
mod tile_map;
mod tile_map_world;
mod world_batch;
mod world_character;
mod world_continuous;
mod world_continuous_bullets;
mod world_continuous_far;
mod world_continuous_one_way;
mod world_continuous_reference;
mod world_determinism;
mod world_event_edges;
mod world_events;
mod world_every_edit;
mod world_invariance;
mod world_is_touching;
mod world_model;
mod world_origin;
mod world_query_edges;
mod world_snapshot;
