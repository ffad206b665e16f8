//! Regions: maximal 4-connected groups of identical solid tiles, with their merged geometry.

use std::fmt;

use crate::level::labelling::NO_REGION;
use crate::level::outline::trace_outlines;
use crate::level::rectangles::merge_rectangles;
use crate::level::tile_map::Tile;
use crate::math::Vec2;
use crate::shape::Aabb;

/// A small copyable handle to one region of one [`TileMap`](crate::level::TileMap).
///
/// The `index` names a slot that is reused after the region is removed by an edit; the
/// `generation` counts how often the slot was freed before, so the pair is never handed out twice
/// by the same map and an id kept across an edit that removed its region is detected as stale
/// ([`TileMap::region`](crate::level::TileMap::region) answers `None`). A slot whose generation
/// would overflow is retired for good. Ids order by index first; an id means nothing to another
/// map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId {
    index: u32,
    generation: u32,
}

impl RegionId {
    /// Builds an id from its parts (useful in tests; maps hand out ids).
    #[inline]
    pub const fn new(index: u32, generation: u32) -> RegionId {
        RegionId { index, generation }
    }

    /// The slot index, dense from zero: fine for indexing a side table.
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many times the slot had been freed when this id was handed out.
    #[inline]
    pub const fn generation(self) -> u32 {
        self.generation
    }
}

impl fmt::Display for RegionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "region {}v{}", self.index, self.generation)
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

/// What an edit changed: the regions it removed and the ones it created.
///
/// Every region not listed kept its id, cells and geometry. An edit that changes no region (for
/// example setting a cell to the tile it already holds, or changing an empty cell's flags) has
/// both lists empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegionChange {
    /// Ids of the regions that no longer exist; they will never resolve again.
    pub removed: Vec<RegionId>,
    /// Ids of the regions the edit created, fresh ids never handed out before.
    pub added: Vec<RegionId>,
}

impl RegionChange {
    /// Whether the edit left every region as it was.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty() && self.added.is_empty()
    }
}

/// A maximal 4-connected set of solid cells holding identical tiles, and its merged geometry.
///
/// The geometry follows the conventions of the [module docs](crate::level): outlines are closed
/// loops in world coordinates with the region on the left (outer boundary counter-clockwise
/// first, then the holes clockwise); rectangles are disjoint and cover exactly the region's
/// cells. A region owns two allocations whatever its shape (the outline vertices and the
/// rectangles; a third only if it has holes), so maps with hundreds of thousands of small
/// regions build quickly.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    tile: Tile,
    cell_count: u32,
    cell_bounds: CellRect,
    /// The map's origin and cell size, to place the rectangles in the world.
    origin: Vec2,
    cell_size: f32,
    /// Every loop's vertices, one loop after another, the outer boundary first.
    outline_vertices: Box<[Vec2]>,
    /// Where each hole's loop begins in `outline_vertices`; empty (no allocation) without holes.
    hole_starts: Box<[u32]>,
    cell_rectangles: Box<[CellRect]>,
}

impl Region {
    /// The tile every cell of the region holds.
    #[inline]
    pub fn tile(&self) -> Tile {
        self.tile
    }

    /// How many cells the region has.
    #[inline]
    pub fn cell_count(&self) -> u32 {
        self.cell_count
    }

    /// The smallest rectangle of cells holding the region.
    #[inline]
    pub fn cell_bounds(&self) -> CellRect {
        self.cell_bounds
    }

    /// The region's bounding box in world coordinates.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        rect_to_world(self.origin, self.cell_size, &self.cell_bounds)
    }

    /// How many boundary loops the region has: one plus the number of holes.
    #[inline]
    pub fn outline_count(&self) -> usize {
        1 + self.hole_starts.len()
    }

    /// Boundary loop `index` (0 is the outer boundary), `None` past the last loop.
    ///
    /// A loop lists its vertices once, without repeating the first at the end, and has no
    /// collinear vertices. Walking it, the region is on the left; the outward normal of the edge
    /// from `p` to `q` is `(d.y, -d.x)` with `d = q - p`. A loop may pass twice through a vertex
    /// where the region touches itself diagonally (see the
    /// [module docs](crate::level#saddle-vertices)); it never crosses itself or another loop.
    pub fn outline(&self, index: usize) -> Option<&[Vec2]> {
        if index > self.hole_starts.len() {
            return None;
        }
        let start = match index {
            0 => 0,
            _ => self.hole_starts[index - 1] as usize,
        };
        let end = self
            .hole_starts
            .get(index)
            .map_or(self.outline_vertices.len(), |&end| end as usize);
        self.outline_vertices.get(start..end)
    }

    /// Every boundary loop ([`outline`](Region::outline)): the outer boundary first
    /// (counter-clockwise), then the holes (clockwise).
    pub fn outlines(&self) -> impl ExactSizeIterator<Item = &[Vec2]> + '_ {
        (0..self.outline_count()).map(|index| self.outline(index).unwrap_or(&[]))
    }

    /// The outer boundary, counter-clockwise.
    #[inline]
    pub fn outer_boundary(&self) -> &[Vec2] {
        self.outline(0).unwrap_or(&[])
    }

    /// The boundaries of the holes, each clockwise.
    pub fn holes(&self) -> impl ExactSizeIterator<Item = &[Vec2]> + '_ {
        (1..self.outline_count()).map(|index| self.outline(index).unwrap_or(&[]))
    }

    /// Disjoint boxes covering exactly the region's cells, in world coordinates: the
    /// [`cell_rectangles`](Region::cell_rectangles) placed in the world.
    pub fn rectangles(&self) -> impl ExactSizeIterator<Item = Aabb> + '_ {
        self.cell_rectangles
            .iter()
            .map(|rect| rect_to_world(self.origin, self.cell_size, rect))
    }

    /// Disjoint rectangles of cells covering exactly the region.
    ///
    /// Built greedily: taking the region's cells row by row from the bottom, each cell not yet
    /// covered starts a rectangle that grows right as far as it can, then up while whole rows
    /// fit. The result depends only on the region's cells, not on how the map was edited.
    #[inline]
    pub fn cell_rectangles(&self) -> &[CellRect] {
        &self.cell_rectangles
    }

    /// The region's cells, rectangle by rectangle.
    pub fn cells(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.cell_rectangles.iter().flat_map(CellRect::cells)
    }

    /// Whether `world_point` is inside the region or on its boundary, decided from the outlines
    /// (even-odd crossings of a ray towards +x), not from the cells.
    ///
    /// Costs `O(outline vertices)` after a bounding-box test; for a constant-time answer from
    /// the cells, use [`TileMap::region_at`](crate::level::TileMap::region_at) and
    /// [`TileMap::is_solid_at`](crate::level::TileMap::is_solid_at).
    pub fn contains(&self, world_point: Vec2) -> bool {
        if !self.aabb().contains_point(world_point) {
            return false;
        }
        let Vec2 { x, y } = world_point;
        let mut inside = false;
        for outline in self.outlines() {
            let Some(&last) = outline.last() else {
                continue;
            };
            let mut previous = last;
            for &vertex in outline {
                // Every edge is axis-aligned, so both tests are exact.
                if previous.y == vertex.y {
                    let (left, right) = (previous.x.min(vertex.x), previous.x.max(vertex.x));
                    if y == vertex.y && x >= left && x <= right {
                        return true;
                    }
                } else {
                    let (low, high) = (previous.y.min(vertex.y), previous.y.max(vertex.y));
                    if x == vertex.x && y >= low && y <= high {
                        return true;
                    }
                    if (previous.y > y) != (vertex.y > y) && x < vertex.x {
                        inside = !inside;
                    }
                }
                previous = vertex;
            }
        }
        inside
    }
}

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

/// Builds the geometry of the region labelled `slot`, whose cells are `sorted_cells` (row-major
/// order, non-empty). `scratch` (one byte per cell) must be zero on the region's cells and is
/// left zero again.
pub(crate) fn build_region(
    view: &GridView<'_>,
    scratch: &mut [u8],
    buffers: &mut BuildBuffers,
    slot: u32,
    tile: Tile,
    sorted_cells: &[u32],
) -> Region {
    let width = view.width;
    // Rows come in order, so only the columns need a scan.
    let row = |cell: Option<&u32>| cell.map_or(0, |&cell| cell / width);
    let (first_row, last_row) = (row(sorted_cells.first()), row(sorted_cells.last()));
    let (mut first_column, mut last_column) = (u32::MAX, 0);
    for &cell in sorted_cells {
        let column = cell % width;
        first_column = first_column.min(column);
        last_column = last_column.max(column);
    }
    let cell_bounds = if sorted_cells.is_empty() {
        CellRect::default()
    } else {
        CellRect {
            x: first_column,
            y: first_row,
            width: last_column - first_column + 1,
            height: last_row - first_row + 1,
        }
    };

    trace_outlines(view, scratch, slot, sorted_cells, buffers);
    merge_rectangles(view, scratch, slot, sorted_cells, &mut buffers.rectangles);
    for &cell in sorted_cells {
        scratch[cell as usize] = 0;
    }

    Region {
        tile,
        cell_count: sorted_cells.len() as u32,
        cell_bounds,
        origin: view.origin,
        cell_size: view.cell_size,
        outline_vertices: buffers
            .corners
            .iter()
            .map(|&(x, y)| view.corner(x, y))
            .collect(),
        hole_starts: buffers.loop_starts.as_slice().into(),
        cell_rectangles: buffers.rectangles.as_slice().into(),
    }
}

/// The world box of a rectangle of cells.
#[inline]
fn rect_to_world(origin: Vec2, cell_size: f32, rect: &CellRect) -> Aabb {
    Aabb {
        min: corner(origin, cell_size, rect.x, rect.y),
        max: corner(origin, cell_size, rect.x + rect.width, rect.y + rect.height),
    }
}
