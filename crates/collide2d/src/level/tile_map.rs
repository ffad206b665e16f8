//! The tile grid: cells, their tiles, and the merged regions kept up to date under edits.

use std::fmt;

use crate::level::error::{TileMapError, MAX_CELLS, MAX_COORDINATE_IN_CELLS};
use crate::level::grid::{corner, BuildBuffers, GridView, Tile, NO_REGION};
use crate::level::labelling::LabelGrid;
use crate::level::region::{build_region, Region, RegionChange, RegionId};
use crate::math::Vec2;
use crate::shape::Aabb;

/// One region slot: the region living there, if any, and how often the slot was freed.
#[derive(Clone, Debug)]
struct Slot {
    generation: u32,
    region: Option<Region>,
}

/// A `width × height` grid of [`Tile`]s and the regions merged from them.
///
/// Cell `(x, y)` covers `[origin + (x, y) × cell_size, origin + (x + 1, y + 1) × cell_size]`,
/// with y up. The regions are built when the map is and kept current by
/// [`set_tile`](TileMap::set_tile), which rebuilds only the regions the edit touches. See the
/// [module docs](crate::level) for the conventions of the geometry.
#[derive(Clone)]
pub struct TileMap {
    width: u32,
    height: u32,
    cell_size: f32,
    origin: Vec2,
    /// One tile per cell, row-major (`y × width + x`).
    tiles: Vec<Tile>,
    /// One region slot per cell, row-major; `NO_REGION` for empty cells.
    labels: Vec<u32>,
    /// Per-cell bits used while building a region; zero between calls.
    scratch: Vec<u8>,
    slots: Vec<Slot>,
    /// Freed slots, reused last-freed first.
    free_slots: Vec<u32>,
    region_count: usize,
}

impl TileMap {
    /// An all-empty map of `width × height` cells of side `cell_size`, cell `(0, 0)`'s min
    /// corner at `origin`.
    ///
    /// Fails when a side is zero, the map has more than [`MAX_CELLS`] cells, `cell_size` is not
    /// finite and positive, `origin` is not finite, or the map reaches further than
    /// [`MAX_COORDINATE_IN_CELLS`] cells from zero or beyond
    /// ±[`MAX_COORDINATE`](crate::math::MAX_COORDINATE).
    pub fn new(
        width: u32,
        height: u32,
        cell_size: f32,
        origin: Vec2,
    ) -> Result<TileMap, TileMapError> {
        TileMap::from_fn(width, height, cell_size, origin, |_, _| Tile::EMPTY)
    }

    /// A map whose cell `(x, y)` holds `tile_at(x, y)`, with every region built at once.
    ///
    /// `tile_at` is called once per cell, row by row from the bottom, each row left to right.
    /// Building is linear in the number of cells plus the length of the outlines (the time for a
    /// random 1,000 × 1,000 map is in the repository's `BENCHMARKS.md`). Fails like
    /// [`TileMap::new`], before calling `tile_at`.
    pub fn from_fn(
        width: u32,
        height: u32,
        cell_size: f32,
        origin: Vec2,
        mut tile_at: impl FnMut(u32, u32) -> Tile,
    ) -> Result<TileMap, TileMapError> {
        check_dimensions(width, height, cell_size, origin)?;
        let cell_count = width as usize * height as usize;
        let mut tiles = Vec::with_capacity(cell_count);
        for y in 0..height {
            for x in 0..width {
                tiles.push(tile_at(x, y));
            }
        }
        let mut map = TileMap {
            width,
            height,
            cell_size,
            origin,
            tiles,
            labels: vec![NO_REGION; cell_count],
            scratch: vec![0; cell_count],
            slots: Vec::new(),
            free_slots: Vec::new(),
            region_count: 0,
        };
        map.build_all_regions();
        Ok(map)
    }

    /// Labels every region of a fresh map and builds their geometry.
    fn build_all_regions(&mut self) {
        let labelled = LabelGrid {
            width: self.width,
            height: self.height,
            tiles: &self.tiles,
            labels: &mut self.labels,
        }
        .label_all();
        let view = GridView {
            width: self.width,
            height: self.height,
            labels: &self.labels,
            origin: self.origin,
            cell_size: self.cell_size,
        };
        let mut buffers = BuildBuffers::default();
        self.slots = labelled
            .region_tiles
            .iter()
            .enumerate()
            .map(|(slot, &tile)| Slot {
                generation: 0,
                region: Some(build_region(
                    &view,
                    &mut self.scratch,
                    &mut buffers,
                    slot as u32,
                    tile,
                    labelled.cells_of(slot),
                )),
            })
            .collect();
        self.region_count = self.slots.len();
    }

    /// Width in cells.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Side length of a cell in world units.
    #[inline]
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// World position of cell `(0, 0)`'s min corner.
    #[inline]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// The whole map's box in world coordinates.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        Aabb {
            min: self.origin,
            max: corner(self.origin, self.cell_size, self.width, self.height),
        }
    }

    /// The tile of cell `(x, y)`, `None` outside the map.
    #[inline]
    pub fn tile(&self, x: u32, y: u32) -> Option<Tile> {
        self.cell_index(x, y).ok().map(|cell| self.tiles[cell])
    }

    /// Every tile, row-major: cell `(x, y)` at index `y × width + x`.
    #[inline]
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The world box of cell `(x, y)`, `None` outside the map.
    pub fn cell_aabb(&self, x: u32, y: u32) -> Option<Aabb> {
        self.cell_index(x, y).ok()?;
        Some(Aabb {
            min: corner(self.origin, self.cell_size, x, y),
            max: corner(self.origin, self.cell_size, x + 1, y + 1),
        })
    }

    /// How many regions the map has.
    #[inline]
    pub fn region_count(&self) -> usize {
        self.region_count
    }

    /// Every region with its id, in slot order.
    ///
    /// The order is deterministic: a freshly built map lists its regions by their first cell in
    /// row-major order; after edits, regions created by an edit take freed slots first.
    pub fn regions(&self) -> impl Iterator<Item = (RegionId, &Region)> + '_ {
        self.slots.iter().enumerate().filter_map(|(index, slot)| {
            let region = slot.region.as_ref()?;
            Some((RegionId::new(index as u32, slot.generation), region))
        })
    }

    /// The region named by `id`, or `None` when an edit removed it (or `id` is from another map).
    pub fn region(&self, id: RegionId) -> Option<&Region> {
        let slot = self.slots.get(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        slot.region.as_ref()
    }

    /// The region cell `(x, y)` belongs to; `None` for an empty cell or outside the map. O(1).
    #[inline]
    pub fn region_at(&self, x: u32, y: u32) -> Option<RegionId> {
        let cell = self.cell_index(x, y).ok()?;
        let label = self.labels[cell];
        (label != NO_REGION).then(|| RegionId::new(label, self.slots[label as usize].generation))
    }

    /// The cell whose half-open square `[min, max)` holds `world_point`, `None` outside the map
    /// or for a non-finite point.
    ///
    /// A point on a grid line belongs to the cell above or to the right of it. The cell is found
    /// by `floor((world_point - origin) / cell_size)`, so within a few units in the last place of
    /// a grid line the answer may differ from the outlines' exact edges.
    pub fn cell_at(&self, world_point: Vec2) -> Option<(u32, u32)> {
        let local = (world_point - self.origin) / self.cell_size;
        if !(local.x >= 0.0 && local.y >= 0.0) {
            return None; // also rejects NaN
        }
        let (column, row) = (local.x.floor(), local.y.floor());
        if column >= self.width as f32 || row >= self.height as f32 {
            return None; // also rejects infinity
        }
        Some((
            (column as u32).min(self.width - 1),
            (row as u32).min(self.height - 1),
        ))
    }

    /// Whether `world_point` lies in a solid cell or on its boundary (the crate's
    /// [boundary convention](crate#conventions)), read from the cells: the ground truth the
    /// outlines and rectangles are built to match. O(1); `false` for a non-finite point.
    pub fn is_solid_at(&self, world_point: Vec2) -> bool {
        let local = (world_point - self.origin) / self.cell_size;
        if !local.is_finite() {
            return false;
        }
        // A point on a grid line touches the cells on both sides of it.
        let candidates = |coordinate: f32, count: u32| {
            let floor = coordinate.floor();
            let below = if coordinate == floor {
                floor - 1.0
            } else {
                floor
            };
            [floor, below]
                .into_iter()
                .filter(move |&c| c >= 0.0 && c < count as f32)
                .map(|c| c as u32)
        };
        candidates(local.y, self.height).any(|row| {
            candidates(local.x, self.width).any(|column| {
                self.tiles[row as usize * self.width as usize + column as usize].solid
            })
        })
    }

    /// Puts `tile` in cell `(x, y)` and rebuilds the regions this changes.
    ///
    /// Only two kinds of region can change: the one that held the cell (it loses the cell and
    /// may split) and side neighbours holding `tile` (they merge through the cell). Those are
    /// removed, their ids retired for good; their cells and the edited one are labelled again
    /// and traced into new regions with fresh ids. Every other region keeps its id and geometry.
    /// The cost is `O(k log k)` for the `k` cells of the changed regions, whatever the size of
    /// the map.
    ///
    /// Setting a cell to the tile it already holds, or changing an empty cell into another empty
    /// tile, changes no region and returns an empty [`RegionChange`]. Fails with
    /// [`TileMapError::OutOfBounds`] outside the map, changing nothing.
    pub fn set_tile(&mut self, x: u32, y: u32, tile: Tile) -> Result<RegionChange, TileMapError> {
        let cell = self.cell_index(x, y)?;
        let old_tile = self.tiles[cell];
        if old_tile == tile {
            return Ok(RegionChange::default());
        }

        // 1. The slots whose regions change: the cell's own, and neighbours that will merge.
        let mut changed_slots: Vec<u32> = Vec::with_capacity(5);
        if old_tile.solid {
            changed_slots.push(self.labels[cell]);
        }
        if tile.solid {
            for neighbour in self.side_neighbours(x, y).into_iter().flatten() {
                let label = self.labels[neighbour];
                if self.tiles[neighbour] == tile && !changed_slots.contains(&label) {
                    changed_slots.push(label);
                }
            }
        }

        // 2. Remove those regions: unlabel their cells (the seeds of relabelling), free the slots.
        let mut change = RegionChange::default();
        let mut seeds = Vec::new();
        for &slot in &changed_slots {
            change.removed.push(self.retire_slot(slot, &mut seeds));
        }

        // 3. Write the tile, then label and trace every seed not yet claimed by a new region.
        self.tiles[cell] = tile;
        if tile.solid {
            seeds.push(cell as u32);
        }
        let mut stack = Vec::new();
        let mut region_cells = Vec::new();
        let mut buffers = BuildBuffers::default();
        for &seed in &seeds {
            if !self.tiles[seed as usize].solid || self.labels[seed as usize] != NO_REGION {
                continue;
            }
            let slot = self.allocate_slot();
            region_cells.clear();
            LabelGrid {
                width: self.width,
                height: self.height,
                tiles: &self.tiles,
                labels: &mut self.labels,
            }
            .flood_fill(seed, slot, &mut stack, Some(&mut region_cells));
            region_cells.sort_unstable();
            let view = GridView {
                width: self.width,
                height: self.height,
                labels: &self.labels,
                origin: self.origin,
                cell_size: self.cell_size,
            };
            let region = build_region(
                &view,
                &mut self.scratch,
                &mut buffers,
                slot,
                self.tiles[seed as usize],
                &region_cells,
            );
            let entry = &mut self.slots[slot as usize];
            entry.region = Some(region);
            self.region_count += 1;
            change.added.push(RegionId::new(slot, entry.generation));
        }
        Ok(change)
    }

    /// Removes the region in `slot`: unlabels its cells (appending them to `cells`), retires its
    /// id and frees the slot. Returns the retired id.
    fn retire_slot(&mut self, slot: u32, cells: &mut Vec<u32>) -> RegionId {
        let entry = &mut self.slots[slot as usize];
        let id = RegionId::new(slot, entry.generation);
        if let Some(region) = entry.region.take() {
            for (x, y) in region.cells() {
                let cell = y as usize * self.width as usize + x as usize;
                self.labels[cell] = NO_REGION;
                cells.push(cell as u32);
            }
            self.region_count -= 1;
        }
        // A slot whose generation would wrap is never reused, so ids stay unique.
        if let Some(generation) = entry.generation.checked_add(1) {
            entry.generation = generation;
            self.free_slots.push(slot);
        }
        id
    }

    /// A slot for a new region: the last freed one, or a new one.
    fn allocate_slot(&mut self) -> u32 {
        if let Some(slot) = self.free_slots.pop() {
            return slot;
        }
        self.slots.push(Slot {
            generation: 0,
            region: None,
        });
        (self.slots.len() - 1) as u32
    }

    /// The row-major index of cell `(x, y)`, or the out-of-bounds error.
    #[inline]
    fn cell_index(&self, x: u32, y: u32) -> Result<usize, TileMapError> {
        if x < self.width && y < self.height {
            Ok(y as usize * self.width as usize + x as usize)
        } else {
            Err(TileMapError::OutOfBounds {
                x,
                y,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// Row-major indices of the side neighbours of `(x, y)` inside the map.
    fn side_neighbours(&self, x: u32, y: u32) -> [Option<usize>; 4] {
        let offsets = [
            (x.wrapping_sub(1), y),
            (x + 1, y),
            (x, y.wrapping_sub(1)),
            (x, y + 1),
        ];
        offsets.map(|(x, y)| self.cell_index(x, y).ok())
    }
}

impl fmt::Debug for TileMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TileMap")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("cell_size", &self.cell_size)
            .field("origin", &self.origin)
            .field("region_count", &self.region_count)
            .finish_non_exhaustive()
    }
}

/// Checks the arguments of [`TileMap::new`] and [`TileMap::from_fn`].
fn check_dimensions(
    width: u32,
    height: u32,
    cell_size: f32,
    origin: Vec2,
) -> Result<(), TileMapError> {
    if width == 0 || height == 0 {
        return Err(TileMapError::ZeroSize { width, height });
    }
    if u64::from(width) * u64::from(height) > MAX_CELLS {
        return Err(TileMapError::TooManyCells { width, height });
    }
    if !(cell_size.is_finite() && cell_size > 0.0) {
        return Err(TileMapError::InvalidCellSize { cell_size });
    }
    if !origin.is_finite() {
        return Err(TileMapError::NonFiniteOrigin);
    }
    let far_corner = corner(origin, cell_size, width, height);
    let largest_coordinate = origin.abs().max(far_corner.abs()).max_element();
    // An overflowing far corner makes the ratio infinite, which fails too.
    let reach_in_cells = largest_coordinate / cell_size;
    if reach_in_cells.is_nan() || reach_in_cells > MAX_COORDINATE_IN_CELLS {
        return Err(TileMapError::PrecisionLoss {
            cell_size,
            largest_coordinate,
        });
    }
    if largest_coordinate > crate::math::MAX_COORDINATE {
        return Err(TileMapError::OutOfRange { largest_coordinate });
    }
    Ok(())
}
