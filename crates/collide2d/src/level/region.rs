//! Regions: maximal 4-connected groups of identical solid tiles, with their merged geometry.

use std::fmt;

use crate::level::grid::{corner, BuildBuffers, CellRect, GridView, Tile};
use crate::level::outline::trace_outlines;
use crate::level::rectangles::merge_rectangles;
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
