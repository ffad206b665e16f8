//! Grid queries: boxes, points and pairs, each hit reported from exactly one cell.

use super::{CellKey, CellRange, GridCell, HashGrid};
use crate::broad::pairs::dense_pairs::DensePairs;
use crate::broad::ProxyId;
use crate::math::Vec2;
use crate::shape::Aabb;

impl HashGrid {
    /// The dense copy of the live boxes for pair finding from scratch (see
    /// [`DensePairs`]), or `None` when the boxes are spread too far apart for it.
    pub(crate) fn dense_pairs(&self) -> Option<DensePairs> {
        DensePairs::of_boxes(self.proxies.dense_input(), self.cell_size, self.occupied)
    }

    /// Calls `report(first, second)` once per overlapping pair: the dense pass when the boxes
    /// are compact enough, otherwise the walk over the stored cells.
    pub(crate) fn for_each_id_pair<F: FnMut(ProxyId, ProxyId)>(&self, report: &mut F) {
        let mut by_id =
            |first: u32, second: u32| report(self.proxies.id_of(first), self.proxies.id_of(second));
        match self.dense_pairs() {
            Some(dense) => dense.for_each_pair(&mut by_id),
            None => self.for_each_overlapping_slot_pair(&mut by_id),
        }
    }

    /// Calls `visit(slot)` for every proxy whose box overlaps `aabb`, until it returns `false`.
    ///
    /// 1. Test the large list directly.
    /// 2. Walk the query's cells, or every occupied cell when that is fewer; in each cell report
    ///    an entry only if this cell is the first cell shared by the entry's and the query's
    ///    ranges, so a box spanning several of the cells is reported once.
    pub(crate) fn visit_overlapping_slots<F: FnMut(u32) -> bool>(
        &self,
        aabb: &Aabb,
        visit: &mut F,
    ) {
        // 1. Large boxes.
        for &slot in &self.large {
            if self.proxies.tight[slot as usize].overlaps(aabb) && !visit(slot) {
                return;
            }
        }
        // 2. Cells.
        self.visit_overlapping_cell_slots(aabb, visit);
    }

    /// Step 2 of [`HashGrid::visit_overlapping_slots`]: only the boxes registered in cells.
    fn visit_overlapping_cell_slots<F: FnMut(u32) -> bool>(&self, aabb: &Aabb, visit: &mut F) {
        let range = self.range_of(aabb);
        let mut scan_cell = |cell: &GridCell| -> bool {
            for entry in &cell.entries {
                if entry.tight.overlaps(aabb)
                    && CellRange::first_shared_cell(entry.first_cell, range.min) == cell.key
                    && !visit(entry.proxy)
                {
                    return false;
                }
            }
            true
        };
        if range.cell_count() <= self.cell_of_key.len() as u64 {
            for key in range.cells() {
                if let Some(&cell) = self.cell_of_key.get(&key) {
                    if !scan_cell(&self.cells[cell as usize]) {
                        return;
                    }
                }
            }
        } else {
            for cell in &self.cells {
                let inside = cell.key.x >= range.min.x
                    && cell.key.x <= range.max.x
                    && cell.key.y >= range.min.y
                    && cell.key.y <= range.max.y;
                if inside && !scan_cell(cell) {
                    return;
                }
            }
        }
    }

    /// Calls `visit(slot)` for every proxy whose box contains `point`, until it returns `false`.
    pub(crate) fn visit_slots_containing<F: FnMut(u32) -> bool>(&self, point: Vec2, visit: &mut F) {
        for &slot in &self.large {
            if self.proxies.tight[slot as usize].contains_point(point) && !visit(slot) {
                return;
            }
        }
        let key: CellKey = self.cell_of_point(point);
        if let Some(&cell) = self.cell_of_key.get(&key) {
            for entry in &self.cells[cell as usize].entries {
                if entry.tight.contains_point(point) && !visit(entry.proxy) {
                    return;
                }
            }
        }
    }

    /// The overlapping pairs registered in one cell and owned by it.
    #[inline]
    fn cell_pairs<F: FnMut(u32, u32)>(cell: &GridCell, report: &mut F) {
        let entries = &cell.entries;
        for (position, first) in entries.iter().enumerate() {
            for second in &entries[position + 1..] {
                if first.tight.overlaps(&second.tight)
                    && CellRange::first_shared_cell(first.first_cell, second.first_cell) == cell.key
                {
                    report(first.proxy, second.proxy);
                }
            }
        }
    }

    /// Pairs involving the large list: large with large, then each large box with the proxies
    /// registered in the cells it covers (or in all cells, when fewer).
    fn large_pairs<F: FnMut(u32, u32)>(&self, report: &mut F) {
        for (position, &first) in self.large.iter().enumerate() {
            let first_box = self.proxies.tight[first as usize];
            for &second in &self.large[position + 1..] {
                if first_box.overlaps(&self.proxies.tight[second as usize]) {
                    report(first, second);
                }
            }
            self.visit_overlapping_cell_slots(&first_box, &mut |second| {
                report(first, second);
                true
            });
        }
    }

    /// Calls `report(first, second)` (slots) once per overlapping pair: cells in storage order,
    /// then the large list. Deterministic for a given history of operations.
    pub(crate) fn for_each_overlapping_slot_pair<F: FnMut(u32, u32)>(&self, report: &mut F) {
        for cell in &self.cells {
            HashGrid::cell_pairs(cell, report);
        }
        self.large_pairs(report);
    }

    /// Every overlapping pair found from scratch with all rayon threads: exactly the pairs and the
    /// order of [`for_each_pair`](crate::broad::BroadPhase::for_each_pair). The dense pass is
    /// cut into blocks of rows and the walk over stored cells into runs of cells, each searched
    /// on its own and concatenated in order.
    #[cfg(feature = "rayon")]
    pub fn par_find_pairs(&self) -> Vec<crate::broad::Pair> {
        use rayon::prelude::*;
        let id = |slot: u32| self.proxies.id_of(slot);
        if let Some(dense) = self.dense_pairs() {
            let parts = 8 * rayon::current_num_threads().max(1);
            let units = dense.units(dense.rows_for_parts(parts));
            let chunks: Vec<Vec<crate::broad::Pair>> = units
                .par_iter()
                .map(|(level, rows)| {
                    let mut found = Vec::new();
                    dense.rows_pairs(*level, rows.clone(), &mut |first, second| {
                        found.push(crate::broad::Pair::new(id(first), id(second)))
                    });
                    found
                })
                .collect();
            return chunks.concat();
        }
        let chunks: Vec<Vec<crate::broad::Pair>> = self
            .cells
            .par_chunks(512)
            .map(|cells| {
                let mut found = Vec::new();
                for cell in cells {
                    HashGrid::cell_pairs(cell, &mut |first, second| {
                        found.push(crate::broad::Pair::new(id(first), id(second)))
                    });
                }
                found
            })
            .collect();
        let mut pairs = chunks.concat();
        self.large_pairs(&mut |first, second| {
            pairs.push(crate::broad::Pair::new(id(first), id(second)))
        });
        pairs
    }
}
