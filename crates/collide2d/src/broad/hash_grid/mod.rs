//! A uniform grid hashed by cell coordinates: each box is registered in every cell it touches.
//!
//! Code map: this file holds the data, placement of boxes in cells and the [`BroadPhase`] glue;
//! `query.rs` has box, point and pair queries (all pairs from scratch through the shared dense
//! pass of `broad/pairs/dense_pairs.rs` when the boxes are compact enough); `ray_cast.rs` walks the
//! cells along a ray.

mod query;
mod ray_cast;

use std::collections::HashMap;

use crate::broad::pairs::pair_tracker::{CandidateSource, PairTracker};
use crate::broad::proxy_table::ProxyTable;
use crate::broad::{
    check_aabb, BroadPhase, BroadPhaseError, FxBuildHasher, Pair, PairChanges, ProxyId,
    ProxyRayHit, RayControl,
};
use crate::math::Vec2;
use crate::shape::Aabb;

/// A box touching more cells than this goes to the separate "large" list instead, so one huge
/// box cannot fill memory with cell entries.
pub const DEFAULT_MAX_CELLS_PER_PROXY: u64 = 16;

/// Cell coordinates are clamped to `±CELL_COORDINATE_LIMIT`, so far-away boxes share edge cells
/// instead of overflowing `i32`.
const CELL_COORDINATE_LIMIT: f32 = (1u32 << 30) as f32;

/// Integer coordinates of a cell: cell `(i, j)` covers `[i·s, (i+1)·s) × [j·s, (j+1)·s)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CellKey {
    pub x: i32,
    pub y: i32,
}

/// The rectangle of cells a box touches, both corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellRange {
    pub min: CellKey,
    pub max: CellKey,
}

impl CellRange {
    /// How many cells the range covers.
    #[inline]
    pub fn cell_count(&self) -> u64 {
        let width = (i64::from(self.max.x) - i64::from(self.min.x) + 1) as u64;
        let height = (i64::from(self.max.y) - i64::from(self.min.y) + 1) as u64;
        width.saturating_mul(height)
    }

    /// Every cell of the range, row by row.
    pub fn cells(&self) -> impl Iterator<Item = CellKey> + '_ {
        (self.min.y..=self.max.y)
            .flat_map(move |y| (self.min.x..=self.max.x).map(move |x| CellKey { x, y }))
    }

    /// The first cell shared with `other` (their ranges must intersect): the cell that reports
    /// a pair or a query hit, so a box spanning several cells is reported once.
    #[inline]
    pub fn first_shared_cell(first: CellKey, second: CellKey) -> CellKey {
        CellKey {
            x: first.x.max(second.x),
            y: first.y.max(second.y),
        }
    }
}

/// Where a proxy is registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Not a live proxy.
    Nowhere,
    /// In every cell of the range.
    Cells(CellRange),
    /// In the large list.
    Large,
}

/// A proxy's registration in one cell, with a copy of its box so cell scans stay in cache.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GridEntry {
    pub tight: Aabb,
    pub first_cell: CellKey,
    pub proxy: u32,
}

/// One occupied cell.
#[derive(Clone, Debug)]
pub(crate) struct GridCell {
    pub key: CellKey,
    pub entries: Vec<GridEntry>,
}

/// A spatial hash grid: boxes are registered in every cell they touch, cells are found by hashing
/// their integer coordinates with `FxHasher` (crate-private).
///
/// * No duplicates: a pair (or a query hit) is reported only from the first cell the two boxes
///   share, `(max(min cell x), max(min cell y))`.
/// * Boxes touching more than [`DEFAULT_MAX_CELLS_PER_PROXY`] cells live in a "large" list tested
///   against everything, so memory stays bounded whatever the box sizes.
/// * [`HashGrid::auto_cell_size`] picks the cell size from a set of boxes: twice the median of
///   each box's longer side (so a typical box touches one to four cells).
///
/// Far-away boxes (±1e6 and beyond) work: cell coordinates are computed in `f32` and clamped.
#[derive(Clone, Debug)]
pub struct HashGrid {
    cell_size: f32,
    inverse_cell_size: f32,
    max_cells_per_proxy: u64,
    cell_of_key: HashMap<CellKey, u32, FxBuildHasher>,
    cells: Vec<GridCell>,
    free_cells: Vec<u32>,
    proxies: ProxyTable,
    placements: Vec<Placement>,
    large: Vec<u32>,
    in_cells_count: usize,
    empty_cell_count: usize,
    occupied: Option<Aabb>,
    pairs: PairTracker,
}

impl HashGrid {
    /// An empty grid with square cells of side `cell_size` (finite and > 0).
    pub fn new(cell_size: f32) -> Result<HashGrid, BroadPhaseError> {
        HashGrid::with_max_cells_per_proxy(cell_size, DEFAULT_MAX_CELLS_PER_PROXY)
    }

    /// An empty grid whose boxes covering more than `max_cells_per_proxy` cells (at least 1) go
    /// to the large list.
    pub fn with_max_cells_per_proxy(
        cell_size: f32,
        max_cells_per_proxy: u64,
    ) -> Result<HashGrid, BroadPhaseError> {
        if !(cell_size.is_finite() && cell_size > 0.0 && (1.0 / cell_size).is_finite()) {
            return Err(BroadPhaseError::InvalidCellSize { cell_size });
        }
        Ok(HashGrid {
            cell_size,
            inverse_cell_size: 1.0 / cell_size,
            max_cells_per_proxy: max_cells_per_proxy.max(1),
            cell_of_key: HashMap::default(),
            cells: Vec::new(),
            free_cells: Vec::new(),
            proxies: ProxyTable::default(),
            placements: Vec::new(),
            large: Vec::new(),
            in_cells_count: 0,
            empty_cell_count: 0,
            occupied: None,
            pairs: PairTracker::default(),
        })
    }

    /// Twice the median of the boxes' longer sides; when that is 0 (mostly points), twice the
    /// mean of the non-zero sides; 1.0 when there is nothing to measure. Invalid boxes are ignored.
    pub fn auto_cell_size(boxes: impl IntoIterator<Item = Aabb>) -> f32 {
        let mut sides: Vec<f32> = boxes
            .into_iter()
            .filter(|aabb| aabb.is_valid())
            .map(|aabb| aabb.extents().max_element())
            .filter(|side| side.is_finite())
            .collect();
        if sides.is_empty() {
            return 1.0;
        }
        let middle = sides.len() / 2;
        let (_, median, _) = sides.select_nth_unstable_by(middle, f32::total_cmp);
        let median = *median;
        let size = if median > 0.0 {
            2.0 * median
        } else {
            let non_zero: Vec<f32> = sides.iter().copied().filter(|side| *side > 0.0).collect();
            if non_zero.is_empty() {
                1.0
            } else {
                2.0 * non_zero.iter().sum::<f32>() / non_zero.len() as f32
            }
        };
        if size.is_finite() && size > 0.0 && (1.0 / size).is_finite() {
            size
        } else {
            1.0
        }
    }

    /// A grid holding all `items`, with the cell size from [`HashGrid::auto_cell_size`]. Returns
    /// the ids in input order; fails on the first invalid box, building nothing.
    pub fn build(items: &[(Aabb, u64)]) -> Result<(HashGrid, Vec<ProxyId>), BroadPhaseError> {
        for (aabb, _) in items {
            check_aabb(*aabb)?;
        }
        let cell_size = HashGrid::auto_cell_size(items.iter().map(|(aabb, _)| *aabb));
        let mut grid = HashGrid::new(cell_size)?;
        grid.cell_of_key.reserve(items.len());
        grid.proxies.reserve(items.len());
        let ids = items
            .iter()
            .map(|&(aabb, key)| grid.insert(aabb, key))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((grid, ids))
    }

    /// The side of a cell.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Number of occupied cells.
    pub fn cell_count(&self) -> usize {
        self.cell_of_key.len() - self.empty_cell_count
    }

    /// Drops emptied cells once they outnumber the occupied ones, so memory follows the boxes.
    fn purge_empty_cells_if_many(&mut self) {
        if self.empty_cell_count <= 64 + self.cell_count() {
            return;
        }
        let cells = &self.cells;
        let free_cells = &mut self.free_cells;
        self.cell_of_key.retain(|_, cell| {
            let keep = !cells[*cell as usize].entries.is_empty();
            if !keep {
                free_cells.push(*cell);
            }
            keep
        });
        self.empty_cell_count = 0;
    }

    /// Number of proxies in the large list.
    pub fn large_count(&self) -> usize {
        self.large.len()
    }

    /// The cell coordinate of a world coordinate (clamped far away).
    #[inline]
    pub(crate) fn cell_coordinate(&self, value: f32) -> i32 {
        let cell = (value * self.inverse_cell_size).floor();
        cell.clamp(-CELL_COORDINATE_LIMIT, CELL_COORDINATE_LIMIT) as i32
    }

    /// The cell containing `point`.
    #[inline]
    pub(crate) fn cell_of_point(&self, point: Vec2) -> CellKey {
        CellKey {
            x: self.cell_coordinate(point.x),
            y: self.cell_coordinate(point.y),
        }
    }

    /// The cells a box touches.
    #[inline]
    pub(crate) fn range_of(&self, aabb: &Aabb) -> CellRange {
        CellRange {
            min: self.cell_of_point(aabb.min),
            max: self.cell_of_point(aabb.max),
        }
    }

    fn placement_for(&self, aabb: &Aabb) -> Placement {
        let range = self.range_of(aabb);
        if range.cell_count() > self.max_cells_per_proxy {
            Placement::Large
        } else {
            Placement::Cells(range)
        }
    }

    /// Registers slot `slot` (box already stored) where `placement` says.
    fn place(&mut self, slot: u32, placement: Placement) {
        let tight = self.proxies.tight[slot as usize];
        match placement {
            Placement::Nowhere => {}
            Placement::Large => self.large.push(slot),
            Placement::Cells(range) => {
                let entry = GridEntry {
                    tight,
                    first_cell: range.min,
                    proxy: slot,
                };
                for key in range.cells() {
                    let cell = self.cell_slot_or_insert(key);
                    self.cells[cell as usize].entries.push(entry);
                }
                self.in_cells_count += 1;
                self.occupied = Some(match self.occupied {
                    Some(occupied) => occupied.union(&tight),
                    None => tight,
                });
            }
        }
        self.placements[slot as usize] = placement;
    }

    /// Undoes [`HashGrid::place`].
    fn unplace(&mut self, slot: u32) {
        match self.placements[slot as usize] {
            Placement::Nowhere => {}
            Placement::Large => {
                if let Some(position) = self.large.iter().position(|&item| item == slot) {
                    self.large.swap_remove(position);
                }
            }
            Placement::Cells(range) => {
                for key in range.cells() {
                    let Some(&cell) = self.cell_of_key.get(&key) else {
                        continue;
                    };
                    let entries = &mut self.cells[cell as usize].entries;
                    if let Some(position) = entries.iter().position(|entry| entry.proxy == slot) {
                        entries.swap_remove(position);
                    }
                    if entries.is_empty() {
                        // Kept for now: objects often come back; purged in bulk later.
                        self.empty_cell_count += 1;
                    }
                }
                self.in_cells_count -= 1;
                if self.in_cells_count == 0 {
                    self.occupied = None;
                }
            }
        }
        self.placements[slot as usize] = Placement::Nowhere;
    }

    fn cell_slot_or_insert(&mut self, key: CellKey) -> u32 {
        if let Some(&cell) = self.cell_of_key.get(&key) {
            if self.cells[cell as usize].entries.is_empty() {
                self.empty_cell_count -= 1;
            }
            return cell;
        }
        let cell = match self.free_cells.pop() {
            Some(cell) => {
                self.cells[cell as usize].key = key;
                cell
            }
            None => {
                self.cells.push(GridCell {
                    key,
                    entries: Vec::new(),
                });
                (self.cells.len() - 1) as u32
            }
        };
        self.cell_of_key.insert(key, cell);
        cell
    }

    /// Checks the grid's invariants: every proxy registered exactly in the cells of its box (or
    /// in the large list), copies of boxes up to date, empty cells counted, pair lists symmetric.
    pub fn validate(&self) -> Result<(), String> {
        let mut registrations = 0usize;
        for slot in self.proxies.live_indices() {
            let tight = self.proxies.tight[slot as usize];
            let expected = self.placement_for(&tight);
            if self.placements[slot as usize] != expected {
                return Err(format!(
                    "proxy {slot} placed {:?}, expected {expected:?}",
                    self.placements[slot as usize]
                ));
            }
            if let Placement::Cells(range) = expected {
                for key in range.cells() {
                    registrations += 1;
                    let found = self.cell_of_key.get(&key).and_then(|&cell| {
                        self.cells[cell as usize]
                            .entries
                            .iter()
                            .find(|entry| entry.proxy == slot)
                    });
                    match found {
                        Some(entry) if entry.tight == tight && entry.first_cell == range.min => {}
                        _ => return Err(format!("proxy {slot} missing or stale in cell {key:?}")),
                    }
                }
            } else if !self.large.contains(&slot) {
                return Err(format!("large proxy {slot} not in the large list"));
            }
        }
        let stored: usize = self
            .cell_of_key
            .values()
            .map(|&cell| self.cells[cell as usize].entries.len())
            .sum();
        if stored != registrations {
            return Err(format!(
                "{stored} cell entries for {registrations} registrations"
            ));
        }
        let empty = self
            .cell_of_key
            .values()
            .filter(|&&cell| self.cells[cell as usize].entries.is_empty())
            .count();
        if empty != self.empty_cell_count {
            return Err(format!(
                "{empty} empty cells, counted {}",
                self.empty_cell_count
            ));
        }
        self.pairs.validate(&self.proxies)
    }
}

impl CandidateSource for HashGrid {
    #[inline]
    fn for_each_candidate(&self, slot: u32, visit: &mut impl FnMut(u32)) {
        let tight = self.proxies.tight[slot as usize];
        self.visit_overlapping_slots(&tight, &mut |other| {
            visit(other);
            true
        });
    }
}

impl BroadPhase for HashGrid {
    fn insert(&mut self, aabb: Aabb, key: u64) -> Result<ProxyId, BroadPhaseError> {
        let id = self.proxies.allocate(aabb, key)?;
        let slot = id.index();
        if self.placements.len() < self.proxies.slot_count() {
            self.placements
                .resize(self.proxies.slot_count(), Placement::Nowhere);
        }
        let placement = self.placement_for(&aabb);
        self.place(slot, placement);
        self.pairs.mark_moved(slot);
        Ok(id)
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        let slot = self.proxies.resolve(id)? as u32;
        let aabb = check_aabb(aabb)?;
        self.proxies.tight[slot as usize] = aabb;
        let placement = self.placement_for(&aabb);
        match (self.placements[slot as usize], placement) {
            (Placement::Large, Placement::Large) => {}
            (Placement::Cells(old), Placement::Cells(new)) if old == new => {
                // Same cells: refresh the box copies only.
                for key in new.cells() {
                    if let Some(&cell) = self.cell_of_key.get(&key) {
                        let entries = &mut self.cells[cell as usize].entries;
                        if let Some(entry) = entries.iter_mut().find(|entry| entry.proxy == slot) {
                            entry.tight = aabb;
                        }
                    }
                }
                if let Some(occupied) = &mut self.occupied {
                    *occupied = occupied.union(&aabb);
                }
            }
            _ => {
                self.unplace(slot);
                self.place(slot, placement);
            }
        }
        self.pairs.mark_moved(slot);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.proxies.resolve(id)? as u32;
        self.unplace(slot);
        self.pairs.proxy_removed(slot, &self.proxies);
        self.proxies.release(slot);
        Ok(())
    }

    proxy_table_lookups!();

    fn update_pairs(&mut self) -> &PairChanges {
        self.purge_empty_cells_if_many();
        let mut tracker = std::mem::take(&mut self.pairs);
        if !tracker.refresh_from_scratch(&self.proxies, || self.dense_pairs()) {
            tracker.refresh(&self.proxies, &*self);
        }
        self.pairs = tracker;
        self.pairs.changes()
    }

    fn current_pairs(&self) -> Vec<Pair> {
        self.pairs.current_pairs(&self.proxies)
    }

    fn for_each_pair(&self, callback: &mut dyn FnMut(Pair)) {
        self.for_each_id_pair(&mut |first, second| callback(Pair::new(first, second)));
    }

    fn overlap_aabb_each(&self, aabb: Aabb, callback: &mut dyn FnMut(ProxyId, u64) -> bool) {
        if !aabb.is_valid() {
            return;
        }
        self.visit_overlapping_slots(&aabb, &mut |slot| {
            callback(self.proxies.id_of(slot), self.proxies.keys[slot as usize])
        });
    }

    fn overlap_point_each(&self, point: Vec2, callback: &mut dyn FnMut(ProxyId, u64) -> bool) {
        if !point.is_finite() {
            return;
        }
        self.visit_slots_containing(point, &mut |slot| {
            callback(self.proxies.id_of(slot), self.proxies.keys[slot as usize])
        });
    }

    fn ray_cast_each(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        callback: &mut dyn FnMut(ProxyRayHit) -> RayControl,
    ) -> Result<(), BroadPhaseError> {
        self.ray_cast_each(origin, direction, max_distance, callback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square with lower-left corner `(x, y)` (also used by `dense_pairs`' tests).
    pub(super) fn square(x: f32, y: f32, side: f32) -> Aabb {
        Aabb {
            min: Vec2::new(x, y),
            max: Vec2::new(x + side, y + side),
        }
    }

    #[test]
    fn auto_cell_size_is_twice_the_median_side() {
        let boxes = [
            square(0.0, 0.0, 1.0),
            square(0.0, 0.0, 3.0),
            square(0.0, 0.0, 2.0),
        ];
        assert_eq!(HashGrid::auto_cell_size(boxes), 4.0);
        let points = [
            square(0.0, 0.0, 0.0),
            square(1.0, 1.0, 0.0),
            square(0.0, 0.0, 0.5),
        ];
        assert_eq!(HashGrid::auto_cell_size(points), 1.0);
        assert_eq!(HashGrid::auto_cell_size([]), 1.0);
    }

    #[test]
    fn a_box_spanning_four_cells_is_reported_once() {
        let mut grid = HashGrid::new(1.0).unwrap();
        let spanning = grid.insert(square(0.5, 0.5, 1.0), 0).unwrap();
        let other = grid.insert(square(1.25, 1.25, 0.5), 1).unwrap();
        assert_eq!(grid.cell_count(), 4);
        assert_eq!(grid.find_pairs(), vec![Pair::new(spanning, other)]);
        let mut hits = Vec::new();
        grid.overlap_aabb_each(square(0.0, 0.0, 3.0), &mut |id, _| {
            hits.push(id);
            true
        });
        assert_eq!(hits.len(), 2);
    }

    #[test]
    fn huge_boxes_go_to_the_large_list() {
        let mut grid = HashGrid::new(1.0).unwrap();
        let world = grid.insert(square(-1.0e6, -1.0e6, 2.0e6), 0).unwrap();
        let small = grid.insert(square(1.0e6 - 0.5, 0.0, 0.25), 1).unwrap();
        assert_eq!(grid.large_count(), 1);
        assert_eq!(grid.cell_count(), 1);
        assert_eq!(grid.find_pairs(), vec![Pair::new(world, small)]);
        let mut hits = 0;
        grid.overlap_point_each(Vec2::new(1.0e6 - 0.4, 0.1), &mut |_, _| {
            hits += 1;
            true
        });
        assert_eq!(hits, 2);
        grid.update(world, square(0.0, 0.0, 1.0)).unwrap();
        assert_eq!(grid.large_count(), 0);
        grid.validate().unwrap();
    }

    #[test]
    fn bad_cell_sizes_are_rejected() {
        for cell_size in [0.0, -1.0, f32::NAN, f32::INFINITY, 1.0e-40] {
            assert!(HashGrid::new(cell_size).is_err(), "{cell_size}");
        }
    }
}

#[cfg(test)]
mod dense_tests {
    use super::tests::square;
    use crate::broad::{BroadPhase, HashGrid};

    fn dense_pairs(grid: &HashGrid) -> Option<Vec<(u32, u32)>> {
        let dense = grid.dense_pairs()?;
        let mut pairs = Vec::new();
        dense.for_each_pair(&mut |lower, higher| {
            assert!(lower < higher);
            pairs.push((lower, higher))
        });
        pairs.sort_unstable();
        Some(pairs)
    }

    #[test]
    fn compact_boxes_take_the_dense_pass_and_far_ones_do_not() {
        let mut grid = HashGrid::new(2.0).unwrap();
        for row in 0..20 {
            for column in 0..20 {
                grid.insert(square(column as f32, row as f32, 1.0), 0)
                    .unwrap();
            }
        }
        // A huge box goes to a higher level, not to the fallback.
        grid.insert(square(-500.0, -500.0, 1000.0), 0).unwrap();
        let pairs = dense_pairs(&grid).expect("dense pass");
        let mut walked = Vec::new();
        grid.for_each_overlapping_slot_pair(&mut |first, second| {
            walked.push((first.min(second), first.max(second)))
        });
        walked.sort_unstable();
        assert_eq!(pairs, walked);
        // Lattice neighbours (8 each inside) plus the huge box with every square.
        assert_eq!(pairs.len(), 2 * 19 * 20 + 2 * 19 * 19 + 400);
        grid.insert(square(1.0e6, 1.0e6, 1.0), 0).unwrap();
        assert!(grid.dense_pairs().is_none());
    }

    #[test]
    fn one_or_no_box_has_no_pairs() {
        let mut grid = HashGrid::new(1.0).unwrap();
        assert_eq!(dense_pairs(&grid), Some(Vec::new()));
        grid.insert(square(0.0, 0.0, 1.0), 0).unwrap();
        assert_eq!(dense_pairs(&grid), Some(Vec::new()));
    }
}
