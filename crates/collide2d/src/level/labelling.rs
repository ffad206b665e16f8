//! Region labelling: which region slot each solid cell belongs to.
//!
//! A region is a maximal set of solid cells holding identical tiles and connected through shared
//! sides (4-connectivity). Labelling is a flood fill with an explicit stack, so every cell is
//! visited once and deep regions cannot overflow the call stack.

use crate::level::grid::{Tile, NO_REGION};

/// The cell grid as the labelling sees it: tiles and labels in row-major order (`y × width + x`).
pub(crate) struct LabelGrid<'a> {
    /// Width in cells.
    pub(crate) width: u32,
    /// Height in cells.
    pub(crate) height: u32,
    /// One tile per cell.
    pub(crate) tiles: &'a [Tile],
    /// One region slot per cell, [`NO_REGION`] for cells without one.
    pub(crate) labels: &'a mut [u32],
}

impl LabelGrid<'_> {
    /// Gives `label` to the unlabelled cells 4-connected to `seed` through cells holding the same
    /// tile as `seed`, and appends them to `cells` if given (in no particular order).
    ///
    /// `seed` must be solid and unlabelled. Cells that already carry a label are walls: the caller
    /// guarantees that no labelled cell with the seed's tile touches the filled set.
    pub(crate) fn flood_fill(
        &mut self,
        seed: u32,
        label: u32,
        stack: &mut Vec<u32>,
        mut cells: Option<&mut Vec<u32>>,
    ) {
        let (width, height) = (self.width, self.height);
        let tile = self.tiles[seed as usize];
        debug_assert!(tile.solid && self.labels[seed as usize] == NO_REGION);
        stack.clear();
        self.labels[seed as usize] = label;
        stack.push(seed);
        while let Some(cell) = stack.pop() {
            if let Some(cells) = cells.as_deref_mut() {
                cells.push(cell);
            }
            // u32 division: several times cheaper than u64 on common hardware.
            let (x, y) = (cell % width, cell / width);
            let neighbours = [
                (x > 0).then(|| cell - 1),
                (x + 1 < width).then(|| cell + 1),
                (y > 0).then(|| cell - width),
                (y + 1 < height).then(|| cell + width),
            ];
            for neighbour in neighbours.into_iter().flatten() {
                let index = neighbour as usize;
                if self.labels[index] == NO_REGION && self.tiles[index] == tile {
                    self.labels[index] = label;
                    stack.push(neighbour);
                }
            }
        }
    }

    /// Labels every solid cell of a freshly built map, slots numbered from zero in the order of
    /// each region's first cell (row-major). Returns, per slot, its tile, and all cells grouped
    /// by slot with each group in row-major order: slot `s` owns
    /// `cells[starts[s] as usize..starts[s + 1] as usize]`.
    pub(crate) fn label_all(&mut self) -> LabelledCells {
        let mut region_tiles = Vec::new();
        let mut stack = Vec::new();
        for cell in 0..self.tiles.len() {
            if self.tiles[cell].solid && self.labels[cell] == NO_REGION {
                let label = region_tiles.len() as u32;
                self.flood_fill(cell as u32, label, &mut stack, None);
                region_tiles.push(self.tiles[cell]);
            }
        }

        // Counting sort by label: one pass counts, a prefix sum places, one pass fills. Cells are
        // visited in row-major order, so each group comes out sorted.
        let mut starts = vec![0u32; region_tiles.len() + 1];
        for &label in self.labels.iter() {
            if label != NO_REGION {
                starts[label as usize + 1] += 1;
            }
        }
        for slot in 0..region_tiles.len() {
            starts[slot + 1] += starts[slot];
        }
        let mut next = starts.clone();
        let mut cells = vec![0u32; starts[region_tiles.len()] as usize];
        for (cell, &label) in self.labels.iter().enumerate() {
            if label != NO_REGION {
                let position = &mut next[label as usize];
                cells[*position as usize] = cell as u32;
                *position += 1;
            }
        }
        LabelledCells {
            region_tiles,
            starts,
            cells,
        }
    }
}

/// The regions of a freshly labelled map, cells grouped by slot (see [`LabelGrid::label_all`]).
pub(crate) struct LabelledCells {
    /// The tile of each slot's region.
    pub(crate) region_tiles: Vec<Tile>,
    /// Where each slot's cells begin in `cells`, plus the total at the end.
    pub(crate) starts: Vec<u32>,
    /// Cell indices grouped by slot, row-major within a group.
    pub(crate) cells: Vec<u32>,
}

impl LabelledCells {
    /// The cells of slot `slot`, in row-major order.
    pub(crate) fn cells_of(&self, slot: usize) -> &[u32] {
        &self.cells[self.starts[slot] as usize..self.starts[slot + 1] as usize]
    }
}
