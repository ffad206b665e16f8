//! Outline tracing: a region's boundary as closed loops of lattice vertices.
//!
//! The boundary of a set of cells is made of unit *cracks*: cell sides with the region on one
//! side only. Direct each crack so the region is on its left; then every lattice vertex has as
//! many cracks leaving as entering, and following them traces closed loops (crack following, the
//! border tracer of digital topology; see Rosenfeld & Kak, *Digital Picture Processing*, 1982).
//!
//! ```text
//! for each cell c of the region, in row-major order:
//!     if c's bottom side is a crack not walked yet:
//!         start at c's lower-left corner heading east
//!         repeat: walk one crack; at the vertex reached, leave by the first crack among
//!                 (turn left, go straight, turn right); record the vertex if the heading changed
//!         until back at the start vertex heading east
//! ```
//!
//! A vertex has two leaving cracks only at a *saddle*, where the region holds two diagonally
//! opposite cells of the four around the vertex. Trying the left turn first keeps the walk on
//! the cell it came along, so diagonal neighbours stay unconnected as 4-connectivity says and
//! loops touch themselves at saddles without crossing.
//!
//! Every loop has a crack on some cell's bottom side heading east (its lowest horizontal run has
//! the region above it), so starting only there finds every loop, and marking the bottom sides
//! walked is enough to start each loop once. The first loop found starts at the region's lowest
//! row, below which nothing of the region lies, so it is the outer boundary.

use crate::level::grid::{BuildBuffers, GridView, BOTTOM_TRACED};

/// Headings, counter-clockwise: turning left adds one (mod 4).
const EAST: usize = 0;

/// `(dx, dy)` of one step in each heading, as wrapping `u32` offsets.
const STEPS: [(u32, u32); 4] = [(1, 0), (0, 1), (u32::MAX, 0), (0, u32::MAX)];

/// The four cells around a vertex, counter-clockwise from north-east, as wrapping offsets from
/// the vertex. The crack leaving a vertex in heading `h` has cell `h` on its left and cell
/// `(h + 3) % 4` on its right.
const CELLS_AROUND: [(u32, u32); 4] = [(0, 0), (u32::MAX, 0), (u32::MAX, u32::MAX), (0, u32::MAX)];

/// Traces every boundary loop of the region labelled `slot` (cells `sorted_cells`, row-major)
/// into `buffers.corners` (lattice vertices, the outer boundary first) and `buffers.loop_starts`
/// (where each later loop begins). Sets [`BOTTOM_TRACED`] on cells whose bottom side it walks.
pub(crate) fn trace_outlines(
    view: &GridView<'_>,
    scratch: &mut [u8],
    slot: u32,
    sorted_cells: &[u32],
    buffers: &mut BuildBuffers,
) {
    let width = view.width;
    // A region of n cells has at most 4n cracks: a bound that stops a walk even if a broken
    // invariant ever left it without a way home.
    let max_steps = 4 * sorted_cells.len();
    buffers.corners.clear();
    buffers.loop_starts.clear();
    for &cell in sorted_cells {
        if scratch[cell as usize] & BOTTOM_TRACED != 0 {
            continue;
        }
        let (x, y) = (cell % width, cell / width);
        if view.label(x, y.wrapping_sub(1)) == slot {
            continue; // the bottom side is interior, not a crack
        }
        if !buffers.corners.is_empty() {
            buffers.loop_starts.push(buffers.corners.len() as u32);
        }
        trace_loop(view, scratch, slot, (x, y), max_steps, &mut buffers.corners);
    }
    debug_assert!(outer_area_is_positive(buffers));
}

/// Walks the loop through the eastward crack leaving vertex `start`, appending its corner
/// vertices (where the heading changes) to `corners`.
fn trace_loop(
    view: &GridView<'_>,
    scratch: &mut [u8],
    slot: u32,
    start: (u32, u32),
    max_steps: usize,
    corners: &mut Vec<(u32, u32)>,
) {
    let width = view.width as usize;
    let (mut x, mut y) = start;
    let mut heading = EAST;
    for _ in 0..max_steps {
        if heading == EAST {
            // The crack is the bottom side of the cell to its left, the one at (x, y).
            scratch[y as usize * width + x as usize] |= BOTTOM_TRACED;
        }
        x = x.wrapping_add(STEPS[heading].0);
        y = y.wrapping_add(STEPS[heading].1);

        let is_inside =
            |(dx, dy): (u32, u32)| view.label(x.wrapping_add(dx), y.wrapping_add(dy)) == slot;
        let inside = [
            is_inside(CELLS_AROUND[0]),
            is_inside(CELLS_AROUND[1]),
            is_inside(CELLS_AROUND[2]),
            is_inside(CELLS_AROUND[3]),
        ];
        let leaves = |h: usize| inside[h] && !inside[(h + 3) % 4];
        let turn_left = (heading + 1) % 4;
        let turn_right = (heading + 3) % 4;
        let next = if leaves(turn_left) {
            turn_left
        } else if leaves(heading) {
            heading
        } else if leaves(turn_right) {
            turn_right
        } else {
            debug_assert!(false, "crack walk stranded at ({x}, {y})");
            return;
        };
        if next != heading {
            corners.push((x, y));
        }
        heading = next;
        if (x, y) == start && heading == EAST {
            return;
        }
    }
    debug_assert!(false, "crack walk from {start:?} did not close");
}

/// Whether the first loop traced (the outer boundary) winds counter-clockwise.
fn outer_area_is_positive(buffers: &BuildBuffers) -> bool {
    let end = buffers
        .loop_starts
        .first()
        .map_or(buffers.corners.len(), |&end| end as usize);
    let outer = &buffers.corners[..end];
    let mut twice_area = 0i64;
    let mut previous = outer.last().copied().unwrap_or_default();
    for &vertex in outer {
        twice_area += i64::from(previous.0) * i64::from(vertex.1)
            - i64::from(vertex.0) * i64::from(previous.1);
        previous = vertex;
    }
    outer.is_empty() || twice_area > 0
}
