//! Tile maps: a grid of tiles merged into region outlines and rectangles.
//!
//! Game levels are grids of tiles. Colliding against every tile is slow (a million boxes) and
//! wrong (a box sliding along a floor of separate tiles catches on the seams between them: ghost
//! collisions with internal edges). A [`TileMap`] merges the tiles into [`Region`]s, each a
//! maximal group of side-connected cells holding the same [`Tile`], and gives every region
//!
//! - **outlines**: its boundary as closed loops with collinear vertices removed, so a floor of a
//!   thousand tiles is one edge and nothing slides over an internal edge; and
//! - **rectangles**: disjoint boxes covering exactly its cells, for solid-area queries and for
//!   games that want boxes.
//!
//! [`TileMap::set_tile`] edits one cell and rebuilds only the regions that change, reporting
//! them in a [`RegionChange`] so a game can swap the matching colliders.
//!
//! ```
//! use collide2d::level::{Tile, TileMap};
//! use collide2d::Vec2;
//!
//! // A floor ten cells long with a 2 × 2 block standing on it.
//! let mut map = TileMap::from_fn(10, 4, 1.0, Vec2::ZERO, |x, y| {
//!     let block = (4..6).contains(&x) && (1..3).contains(&y);
//!     if y == 0 || block { Tile::SOLID } else { Tile::EMPTY }
//! })?;
//! assert_eq!(map.region_count(), 1);
//! let (floor_id, floor) = map.regions().next().unwrap();
//! assert_eq!(floor.outer_boundary().len(), 8); // the floor's top is split only by the block
//! assert_eq!(floor.rectangles().len(), 2);
//! assert_eq!(map.region_at(7, 0), Some(floor_id));
//!
//! // Digging out the floor under the block splits the region in two.
//! let change = map.set_tile(5, 0, Tile::EMPTY)?;
//! assert_eq!(change.removed, vec![floor_id]);
//! assert_eq!(change.added.len(), 2);
//! assert!(map.region(floor_id).is_none());
//! assert!(map.is_solid_at(Vec2::new(4.5, 2.5)) && !map.is_solid_at(Vec2::new(5.5, 0.5)));
//! # Ok::<(), collide2d::level::TileMapError>(())
//! ```
//!
//! # Conventions
//!
//! The crate's [conventions](crate#conventions) hold; these add to them.
//!
//! - **Cells.** y is up. Cell `(x, y)` covers `[origin + (x, y) × cell_size,
//!   origin + (x + 1, y + 1) × cell_size]`; tiles are stored row-major, cell `(x, y)` at index
//!   `y × width + x`. World coordinates are computed as `origin + k × cell_size` in `f32`, the
//!   same way everywhere, so outlines and rectangles of neighbouring regions share bit-identical
//!   vertices.
//! - **Regions.** Only solid tiles form regions. A region is a maximal set of solid cells holding
//!   identical tiles (all fields equal) and connected through shared sides (4-connectivity):
//!   cells touching only at a corner belong to different regions unless a path of side
//!   neighbours joins them.
//! - **Outlines** are closed loops of world points that do not repeat their first vertex. The
//!   region is on the left of every edge: the outer boundary runs counter-clockwise and comes
//!   first, each hole runs clockwise, and the outward normal of the edge from `p` to `q` is
//!   `(d.y, -d.x)` with `d = q - p`. No vertex is collinear with its neighbours, so consecutive
//!   edges alternate between horizontal and vertical. The signed areas of a region's loops add up
//!   to its cell count × `cell_size²`.
//! - **Rectangles** are disjoint (they may share sides), cover exactly the region's cells, and
//!   come from a greedy merge that depends only on the cells ([`Region::cell_rectangles`]).
//! - **Boundaries.** [`TileMap::is_solid_at`] and [`Region::contains`] count a point on the
//!   boundary as inside, like the rest of the crate. [`TileMap::cell_at`] gives each point one
//!   cell, so it treats cells as half-open.
//! - **Ids.** [`RegionId`]s are slot-and-generation handles: never handed out twice by a map, so
//!   an id whose region an edit removed stays detectably stale.
//! - **Limits.** A map has at most [`MAX_CELLS`] cells and reaches at most
//!   [`MAX_COORDINATE_IN_CELLS`] cells from the world origin; larger maps are refused with a
//!   [`TileMapError`], never built imprecisely.
//!
//! # Saddle vertices
//!
//! Where a region holds two diagonally opposite cells of the four around a lattice vertex (and
//! not the other two), two of its boundary edges leave that vertex. The tracer takes the one
//! turning **left**, which keeps the loop on the cell it arrived along: the two diagonal cells
//! stay unconnected at that vertex, as 4-connectivity says. So a loop may touch itself at a
//! saddle vertex (visit it twice) but never crosses itself or another loop. For example, a ring
//! of cells closed only through a diagonal touch is *one* loop pinched at that corner, not an
//! outer boundary plus a hole: the would-be hole reaches the outside through the corner.
//!
//! # Cost
//!
//! [`TileMap::from_fn`] is linear in the number of cells plus outline length, using flat arrays
//! only (the time for a random 1,000 × 1,000 map of about 268,000 regions is in the
//! repository's `BENCHMARKS.md`). [`TileMap::set_tile`] costs `O(k log k)` for the `k` cells of the regions it
//! removes and creates, whatever the size of the map.
//! [`TileMap::region_at`] and [`TileMap::is_solid_at`] are O(1); [`Region::contains`] is linear
//! in the region's outline length.

mod error;
mod grid;
mod labelling;
mod outline;
mod rectangles;
mod region;
mod tile_map;

pub use error::{TileMapError, MAX_CELLS, MAX_COORDINATE_IN_CELLS};
pub use grid::{CellRect, Tile};
pub use region::{Region, RegionChange, RegionId};
pub use tile_map::TileMap;
