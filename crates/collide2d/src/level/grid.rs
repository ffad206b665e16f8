//! The low-level pieces the tile-map modules share: what a cell holds, rectangles of cells, the
//! labelled grid as geometry building reads it, and the scratch flags and buffers of a build.
//!
//! Imports go one way: this file uses none of its siblings; `labelling.rs`, `outline.rs` and
//! `rectangles.rs` use only this file; `region.rs` uses those; `tile_map.rs` uses them all.

use crate::layer::LayerId;
use crate::math::Vec2;

/// What one cell holds. Plain data: any value is valid.
///
/// Only solid tiles form [regions](crate::level::Region), and cells merge only with side
/// neighbours holding an identical tile, so a one-way platform never merges with the wall it
/// touches and two layers stay apart. The flags are carried to the region for the game to use
/// ([`Region::tile`](crate::level::Region::tile)); the module gives them no meaning of its own.
/// An empty tile's other fields are kept but ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tile {
    /// Whether the cell takes part in collision geometry.
    pub solid: bool,
    /// Whether the cell is a one-way platform (solid only from above, as the game decides).
    pub one_way: bool,
    /// A game-defined collision layer.
    pub layer: LayerId,
}

impl Tile {
    /// An empty cell.
    pub const EMPTY: Tile = Tile {
        solid: false,
        one_way: false,
        layer: LayerId::DEFAULT,
    };

    /// A plain solid cell on layer 0.
    pub const SOLID: Tile = Tile {
        solid: true,
        one_way: false,
        layer: LayerId::DEFAULT,
    };

    /// The same tile with the one-way flag set to `one_way`.
    #[inline]
    pub const fn with_one_way(self, one_way: bool) -> Tile {
        Tile { one_way, ..self }
    }

    /// The same tile on layer `layer`.
    #[inline]
    pub const fn with_layer(self, layer: LayerId) -> Tile {
        Tile { layer, ..self }
    }
}

/// A rectangle of cells: columns `x..x + width`, rows `y..y + height`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CellRect {
    /// The first column.
    pub x: u32,
    /// The first row.
    pub y: u32,
    /// The number of columns.
    pub width: u32,
    /// The number of rows.
    pub height: u32,
}

impl CellRect {
    /// Whether cell `(x, y)` lies in the rectangle.
    #[inline]
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x.wrapping_sub(self.x) < self.width && y.wrapping_sub(self.y) < self.height
    }

    /// The number of cells, `width × height`.
    #[inline]
    pub fn cell_count(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }

    /// The cells row by row, bottom row first, each row left to right (a rectangle reaching past
    /// `u32::MAX` stops there).
    pub fn cells(&self) -> impl Iterator<Item = (u32, u32)> {
        let CellRect {
            x,
            y,
            width,
            height,
        } = *self;
        let (x_end, y_end) = (x.saturating_add(width), y.saturating_add(height));
        (y..y_end).flat_map(move |row| (x..x_end).map(move |column| (column, row)))
    }
}

/// The label of a cell that belongs to no region (an empty cell, or one being relabelled).
pub(crate) const NO_REGION: u32 = u32::MAX;

/// The labelled grid as geometry building sees it.
pub(crate) struct GridView<'a> {
    /// Width in cells.
    pub(crate) width: u32,
    /// Height in cells.
    pub(crate) height: u32,
    /// One region slot per cell, row-major; [`NO_REGION`] for cells without one.
    pub(crate) labels: &'a [u32],
    /// World position of the lattice vertex `(0, 0)`.
    pub(crate) origin: Vec2,
    /// Side length of a cell.
    pub(crate) cell_size: f32,
}

impl GridView<'_> {
    /// The slot of cell `(x, y)`; [`NO_REGION`] outside the map (so `x = 0.wrapping_sub(1)` is
    /// simply outside).
    #[inline]
    pub(crate) fn label(&self, x: u32, y: u32) -> u32 {
        if x < self.width && y < self.height {
            self.labels[y as usize * self.width as usize + x as usize]
        } else {
            NO_REGION
        }
    }

    /// World position of lattice vertex `(x, y)`, the min corner of cell `(x, y)`.
    ///
    /// Every world coordinate the module hands out is computed here, so equal lattice vertices
    /// always give bit-identical world points.
    #[inline]
    pub(crate) fn corner(&self, x: u32, y: u32) -> Vec2 {
        corner(self.origin, self.cell_size, x, y)
    }
}

/// World position of lattice vertex `(x, y)`: `origin + (x, y) × cell_size`.
#[inline]
pub(crate) fn corner(origin: Vec2, cell_size: f32, x: u32, y: u32) -> Vec2 {
    Vec2::new(
        origin.x + x as f32 * cell_size,
        origin.y + y as f32 * cell_size,
    )
}

/// Scratch bit: the bottom side of this cell has been walked by the outline tracer.
pub(crate) const BOTTOM_TRACED: u8 = 1;
/// Scratch bit: this cell is covered by a rectangle already.
pub(crate) const COVERED: u8 = 2;

/// Buffers reused from one region to the next while building, so that each region allocates
/// only the storage it keeps.
#[derive(Default)]
pub(crate) struct BuildBuffers {
    /// Lattice vertices of every loop traced so far for the current region.
    pub(crate) corners: Vec<(u32, u32)>,
    /// Where each loop after the first begins in `corners`.
    pub(crate) loop_starts: Vec<u32>,
    /// Rectangles merged so far for the current region.
    pub(crate) rectangles: Vec<CellRect>,
}
