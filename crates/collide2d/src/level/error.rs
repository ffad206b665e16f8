//! The error returned by tile-map constructors and edits, and the size limits it enforces.

use std::fmt;

/// Most cells a [`TileMap`](crate::level::TileMap) may have: `width × height ≤ 2^28`
/// (268,435,456).
///
/// A map stores eight bytes per cell (the tile, its region's slot and scratch bits used while
/// tracing), so the largest map needs about 2 GiB before any geometry.
pub const MAX_CELLS: u64 = 1 << 28;

/// Largest world coordinate a map may reach, measured in cells: `2^22`.
///
/// Outline vertices are computed in `f32` as `origin + k × cell_size`. While every coordinate of
/// the map (its origin and its far corner) stays within `2^22` cells of zero, neighbouring grid
/// lines are at least two units in the last place apart, so no two of them round to the same
/// number and every cell keeps a non-empty interior (a cell's world extent is still only as
/// exact as `f32` allows there: within one unit in the last place of the largest coordinate, a
/// rounding that is negligible for maps near the origin). Maps beyond this are refused with
/// [`TileMapError::PrecisionLoss`]; move the origin closer to zero or use larger cells.
pub const MAX_COORDINATE_IN_CELLS: f32 = 4_194_304.0;

/// Why a tile map could not be built or edited. A refused call changes nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum TileMapError {
    /// The width or the height was zero.
    ZeroSize {
        /// The requested width in cells.
        width: u32,
        /// The requested height in cells.
        height: u32,
    },
    /// `width × height` was above [`MAX_CELLS`].
    TooManyCells {
        /// The requested width in cells.
        width: u32,
        /// The requested height in cells.
        height: u32,
    },
    /// The cell size was NaN, infinite, zero or negative.
    InvalidCellSize {
        /// The offending cell size.
        cell_size: f32,
    },
    /// The origin had a NaN or infinite component.
    NonFiniteOrigin,
    /// The map reaches coordinates too large for its cell size: some coordinate of the origin or
    /// the far corner is more than [`MAX_COORDINATE_IN_CELLS`] cells from zero (or overflowed).
    PrecisionLoss {
        /// The cell size.
        cell_size: f32,
        /// The largest coordinate magnitude of the map's corners (may be infinite).
        largest_coordinate: f32,
    },
    /// Some corner of the map lies beyond ±[`MAX_COORDINATE`](crate::math::MAX_COORDINATE),
    /// where no shape may be placed.
    OutOfRange {
        /// The largest coordinate magnitude of the map's corners (may be infinite).
        largest_coordinate: f32,
    },
    /// A cell coordinate was outside the map.
    OutOfBounds {
        /// The requested column.
        x: u32,
        /// The requested row.
        y: u32,
        /// The map's width in cells.
        width: u32,
        /// The map's height in cells.
        height: u32,
    },
}

impl fmt::Display for TileMapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TileMapError::ZeroSize { width, height } => {
                write!(f, "tile map size {width} × {height} has a zero side")
            }
            TileMapError::TooManyCells { width, height } => write!(
                f,
                "tile map size {width} × {height} has more than the supported {MAX_CELLS} cells"
            ),
            TileMapError::InvalidCellSize { cell_size } => {
                write!(
                    f,
                    "cell size {cell_size} must be finite and greater than zero"
                )
            }
            TileMapError::NonFiniteOrigin => write!(f, "tile map origin is NaN or infinite"),
            TileMapError::PrecisionLoss {
                cell_size,
                largest_coordinate,
            } => write!(
                f,
                "tile map reaches coordinate {largest_coordinate}, more than \
                 {MAX_COORDINATE_IN_CELLS} cells of size {cell_size} from zero: f32 cannot \
                 keep its grid lines apart"
            ),
            TileMapError::OutOfRange { largest_coordinate } => write!(
                f,
                "tile map reaches coordinate {largest_coordinate}, beyond ±{:e}",
                crate::math::MAX_COORDINATE
            ),
            TileMapError::OutOfBounds {
                x,
                y,
                width,
                height,
            } => write!(
                f,
                "cell ({x}, {y}) is outside the {width} × {height} tile map"
            ),
        }
    }
}

impl std::error::Error for TileMapError {}
