//! Greedy rectangle merging: a region's cells as few disjoint rectangles.
//!
//! ```text
//! for each cell c of the region, in row-major order (bottom row first):
//!     if c is not covered yet:
//!         grow a rectangle from c to the right while cells are in the region and uncovered
//!         grow it upwards while the whole next row is in the region and uncovered
//!         mark its cells covered
//! ```
//!
//! The result is not always the minimum number of rectangles (an exact minimum partition of a
//! rectilinear polygon needs a bipartite matching between chords; see Eppstein, "Graph-theoretic
//! solutions to computational geometry problems", 2009), but it is linear in the region's size,
//! depends only on the cells, and turns long runs and solid blocks into single rectangles.

use crate::level::grid::{CellRect, GridView, COVERED};

/// Writes to `rectangles` disjoint rectangles covering exactly the cells labelled `slot`
/// (`sorted_cells`, row-major). Sets [`COVERED`] on every cell of the region.
pub(crate) fn merge_rectangles(
    view: &GridView<'_>,
    scratch: &mut [u8],
    slot: u32,
    sorted_cells: &[u32],
    rectangles: &mut Vec<CellRect>,
) {
    let width = view.width;
    let is_free = |scratch: &[u8], x: u32, y: u32| {
        view.label(x, y) == slot && scratch[y as usize * width as usize + x as usize] & COVERED == 0
    };
    rectangles.clear();
    for &cell in sorted_cells {
        if scratch[cell as usize] & COVERED != 0 {
            continue;
        }
        let (x0, y0) = (cell % width, cell / width);
        let mut x1 = x0 + 1;
        while is_free(scratch, x1, y0) {
            x1 += 1;
        }
        let mut y1 = y0 + 1;
        while (x0..x1).all(|x| is_free(scratch, x, y1)) {
            y1 += 1;
        }
        for y in y0..y1 {
            let row = y as usize * width as usize;
            for flags in &mut scratch[row + x0 as usize..row + x1 as usize] {
                *flags |= COVERED;
            }
        }
        rectangles.push(CellRect {
            x: x0,
            y: y0,
            width: x1 - x0,
            height: y1 - y0,
        });
    }
}
