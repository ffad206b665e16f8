//! Every overlapping pair from scratch through a dense, sorted copy of the boxes: a hierarchy
//! of grids stored as flat arrays, so the pass reads memory in order instead of visiting the
//! hash cells one `Vec` at a time.
//!
//! Built from any slot-indexed boxes (a hash grid's, with its cell size, or another
//! structure's exact or fat boxes, with a cell size sampled from them); pairs come out as slots.
//!
//! 1. Bounds: the box a hash grid keeps around the boxes registered in cells, or, when there is
//!    none or it would make too large a grid (it may have grown stale), the lowest and highest
//!    min corner of the live boxes no larger than a few cells. A coordinate's base cell is
//!    `g(v)`: `(v − origin) / s` for the base cell side `s`, rounded and clamped to the grid.
//!    The pass relies only on `g` being monotonic, so corners outside the bounds are simply
//!    clamped in.
//! 2. Each box goes to the lowest level `L` where it touches at most two cells per axis (level
//!    `L` uses cells `g(v) >> L`), into the cell of its **min corner**, with two flags: whether
//!    it reaches the next column, the next row. Each level is a dense row-major grid with one
//!    empty padding column and one empty row after the last, filled by a counting sort into
//!    contiguous arrays of packed boxes, slots and keys.
//! 3. Same level: two boxes that overlap have min-corner cells at most one apart on each axis.
//!    So for an entry of cell `idx` the candidates are two contiguous runs of the sorted array:
//!    the rest of its own cell plus the cell to its right, `(i + 1) .. start[idx + 2]`, and the
//!    three cells of the next row, `start[idx + stride − 1] .. start[idx + stride + 2]`; the
//!    cells to the right and the next row are left out when the box does not reach them. Every
//!    pair is looked at once; the padding column keeps the end of a row from pairing with the
//!    start of the next.
//! 4. Across levels: each box queries every lower level, row by row, over its own cell range
//!    at that level extended by one cell to the left and below (where the min corners of the
//!    lower boxes that can touch it lie).
//!
//! Candidates are tested a group at a time into bit masks and hits are buffered without
//! branches, so the unpredictable run lengths and hits cost few mispredictions.
//!
//! A structure that builds the copy every frame keeps its arrays in a [`DenseScratch`] between
//! builds, so that a frame allocates nothing and fills only the cell counts; an array more than
//! [`SHRINK_FACTOR`] times longer than the last build needed (and longer than
//! [`SHRINK_FLOOR`] items) is cut down to that need, so memory follows the boxes down after a
//! large frame.
//!
//! When the base grid would have far more cells than there are boxes (boxes spread far apart),
//! there is no dense copy: the [`HashGrid`](crate::broad::HashGrid) then walks its stored cells,
//! and the other structures find their pairs incrementally.

use std::ops::Range;

use glam::{Vec4, Vec4Swizzles};

use crate::shape::Aabb;

/// Scaled coordinates are clamped to at most `CELL_LIMIT` (then to the grid) before they become
/// cell numbers; a grid reaching it is too large for the dense pass.
const CELL_LIMIT: f32 = (1u32 << 22) as f32;

/// Adding 2²³ to a value in `0..=2²²` leaves the nearest integer in the low mantissa bits.
const MAGIC: f32 = (1u32 << 23) as f32;

/// Boxes larger than this many base cells on a side do not count for the grid's bounds.
const BOUNDS_CELLS: f32 = 8.0;

/// The dense pass is used when the base grid (with padding) has at most this many cells per
/// box, plus [`EXTRA_CELLS`].
const CELLS_PER_BOX: u64 = 4;

/// See [`CELLS_PER_BOX`].
const EXTRA_CELLS: u64 = 4096;

/// The base cell side as a fraction of the grid's cell size (the automatic cell size is twice
/// the median box side).
const BASE_CELL_FRACTION: f32 = 1.0;

/// Candidates tested together by [`DenseLevel::scan`] at most; the box and id arrays end with
/// padding so a group can always be read whole.
const GROUP: usize = 8;

/// `FIRST_LANES[k]`: the low bit of each of the first `k` candidates' four bits.
const FIRST_LANES: [u32; GROUP + 1] = [
    0,
    0x1,
    0x11,
    0x111,
    0x1111,
    0x1_1111,
    0x11_1111,
    0x111_1111,
    0x1111_1111,
];

/// An entry's key holds its cell index in the low bits...
const CELL_MASK: u32 = (1 << 30) - 1;

/// ...and this flag when the box reaches into the next column of its level...
const REACHES_RIGHT: u32 = 1 << 30;

/// ...and this one when it reaches into the next row.
const REACHES_UP: u32 = 1 << 31;

/// Boxes sampled for the cell side of [`DensePairs::of_sampled_boxes`].
const CELL_SAMPLE: usize = 256;

/// A [`DenseScratch`] array whose capacity is more than this many times what the last build
/// used is cut down to that use...
const SHRINK_FACTOR: usize = 4;

/// ...unless it holds at most this many items.
const SHRINK_FLOOR: usize = 4096;

/// Pairs found are gathered this many at a time before they are reported.
const PAIR_BUFFER: usize = 64;

/// A box as `(min.x, min.y, -max.x, -max.y)`: `a` and `b` overlap (touching counts) exactly
/// when `a <= upper(b)` in every lane.
#[inline(always)]
fn pack(aabb: &Aabb) -> Vec4 {
    Vec4::new(aabb.min.x, aabb.min.y, -aabb.max.x, -aabb.max.y)
}

/// `(max.x, max.y, -min.x, -min.y)` of a packed box; negation is exact, so the lane test is
/// exactly [`Aabb::overlaps`].
#[inline(always)]
fn upper(packed: Vec4) -> Vec4 {
    -packed.zwxy()
}

/// The key of an entry whose min corner is in `(x0, y0)` and max corner in `(x1, y1)` at its
/// level, in a grid of row stride `stride`.
#[inline(always)]
fn entry_key(x0: u32, y0: u32, x1: u32, y1: u32, stride: u32) -> u32 {
    let mut key = y0 * stride + x0;
    if x1 > x0 {
        key |= REACHES_RIGHT;
    }
    if y1 > y0 {
        key |= REACHES_UP;
    }
    key
}

/// Found pairs waiting to be reported: adding one needs no branch, so hits cost no
/// mispredictions, and the report loop runs over whole buffers.
struct PairBuffer {
    /// The pairs; those from `len` on are scratch.
    pairs: [(u32, u32); PAIR_BUFFER],
    /// Number of pairs kept.
    len: usize,
}

impl PairBuffer {
    fn new() -> PairBuffer {
        PairBuffer {
            pairs: [(0, 0); PAIR_BUFFER],
            len: 0,
        }
    }

    /// Stores `pair`, and keeps it when `keep`.
    #[inline(always)]
    fn push_if(&mut self, pair: (u32, u32), keep: bool, report: &mut impl FnMut(u32, u32)) {
        self.pairs[self.len] = pair;
        self.len += usize::from(keep);
        if self.len == PAIR_BUFFER {
            self.flush(report);
        }
    }

    /// Reports the kept pairs in the order they came, each with the lower slot first (chosen
    /// without a branch, so that ordering them again costs no mispredictions).
    #[cold]
    #[inline(never)]
    fn flush(&mut self, report: &mut impl FnMut(u32, u32)) {
        for &(first, second) in &self.pairs[..self.len] {
            report(first.min(second), first.max(second));
        }
        self.len = 0;
    }
}

/// One level of the hierarchy: boxes sorted by the cell of their min corner.
#[derive(Clone, Debug, Default)]
struct DenseLevel {
    /// Cells of this level are base cells shifted right by this much.
    shift: u32,
    /// Columns holding boxes; the row stride is `width + 1` (one empty padding column).
    width: usize,
    /// Rows holding boxes; one more empty row follows.
    height: usize,
    /// `start[idx]..start[idx + 1]` are the entries of cell `idx`; `(height + 1)·stride + 1`
    /// values, every cell past the boxes empty.
    start: Vec<u32>,
    /// Packed boxes in cell order, then [`GROUP`] NaN boxes.
    boxes: Vec<Vec4>,
    /// Slot of each entry, then `GROUP + 1` placeholders.
    ids: Vec<u32>,
    /// Cell and [`REACHES_RIGHT`], [`REACHES_UP`] of each entry.
    keys: Vec<u32>,
}

impl DenseLevel {
    #[inline]
    fn stride(&self) -> usize {
        self.width + 1
    }

    /// Counting sort of `entries` (key, slot) into a dense level, in the arrays of `spare`.
    fn sorted(
        mut spare: DenseLevel,
        shift: u32,
        width: usize,
        height: usize,
        entries: &[(u32, u32)],
        input: &DenseInput<impl SlotBox>,
    ) -> DenseLevel {
        let mut start = spare.zeroed_start(height, width);
        for &(key, _) in entries {
            start[(key & CELL_MASK) as usize] += 1;
        }
        DenseLevel::from_counts(spare, shift, width, height, start, entries, input)
    }

    /// This level's `start` array taken out, cleared and refilled with zeros for a level of
    /// `height` rows and `width` columns.
    fn zeroed_start(&mut self, height: usize, width: usize) -> Vec<u32> {
        let mut start = std::mem::take(&mut self.start);
        start.clear();
        start.resize((height + 1) * (width + 1) + 1, 0);
        start
    }

    /// The rest of the counting sort, once `start` holds each cell's count of `entries`: a
    /// running sum turns counts into cell ends, then the entries, last first, are each placed
    /// at their cell's end, moved back by one; each cell keeps slot order. The box, slot and key
    /// arrays are those of `spare`, their old values overwritten: every entry's place is written
    /// once, and the padding is set.
    fn from_counts(
        spare: DenseLevel,
        shift: u32,
        width: usize,
        height: usize,
        mut start: Vec<u32>,
        entries: &[(u32, u32)],
        input: &DenseInput<impl SlotBox>,
    ) -> DenseLevel {
        let mut total = 0u32;
        for value in &mut start {
            total += *value;
            *value = total;
        }
        let count = entries.len();
        let DenseLevel {
            mut boxes,
            mut ids,
            mut keys,
            ..
        } = spare;
        refill(&mut boxes, count, GROUP, Vec4::NAN);
        refill(&mut ids, count, GROUP + 1, 0);
        refill(&mut keys, count, 0, 0);
        for &(key, slot) in entries.iter().rev() {
            let position = &mut start[(key & CELL_MASK) as usize];
            *position -= 1;
            let index = *position as usize;
            boxes[index] = pack(input.boxes[slot as usize].slot_box());
            ids[index] = slot;
            keys[index] = key;
        }
        DenseLevel {
            shift,
            width,
            height,
            start,
            boxes,
            ids,
            keys,
        }
    }

    /// Adds `(id, other)` to `found` for each entry of `range` whose box is below `bound`
    /// (the [`upper`] of the probe) in every lane: the boxes overlapping the probe.
    ///
    /// Candidates are tested `N` (at most [`GROUP`]) at a time into a bit mask whatever the
    /// length of the range (the arrays are padded), and the first hit of a group is stored
    /// without a branch: short runs of unpredictable length and rare hits cost no
    /// mispredictions.
    #[inline(always)]
    fn scan<const N: usize>(
        &self,
        range: Range<usize>,
        bound: Vec4,
        id: u32,
        found: &mut PairBuffer,
        report: &mut impl FnMut(u32, u32),
    ) {
        let mut begin = range.start;
        loop {
            let group: &[Vec4; N] = self.boxes[begin..begin + N]
                .try_into()
                .expect("a group is N entries long");
            // Four bits per candidate, one per lane; a candidate overlaps when all four are set.
            let mut bits = 0u32;
            for (lane, other) in group.iter().enumerate() {
                bits |= other.cmple(bound).bitmask() << (4 * lane);
            }
            let count = range.end.saturating_sub(begin).min(N);
            let mut hits = bits & (bits >> 1) & (bits >> 2) & (bits >> 3) & FIRST_LANES[count];
            // No hit gives lane 8: a padding id, stored and dropped.
            let lane = (hits.trailing_zeros() / 4) as usize;
            found.push_if((id, self.ids[begin + lane]), hits != 0, report);
            hits &= hits.wrapping_sub(1);
            while hits != 0 {
                let lane = (hits.trailing_zeros() / 4) as usize;
                found.push_if((id, self.ids[begin + lane]), true, report);
                hits &= hits - 1;
            }
            begin += N;
            if begin >= range.end {
                return;
            }
        }
    }
}

/// `items` made `count + padding` long, its last `padding` items `value`; the first `count`
/// keep whatever they held (the caller overwrites them all).
fn refill<T: Copy>(items: &mut Vec<T>, count: usize, padding: usize, value: T) {
    items.truncate(count);
    items.resize(count + padding, value);
    items[count..].fill(value);
}

/// `items` cut down to its length when its capacity is more than [`SHRINK_FACTOR`] times that
/// (and above [`SHRINK_FLOOR`]).
fn shrink_if_oversized<T>(items: &mut Vec<T>) {
    if items.capacity() > SHRINK_FLOOR && items.capacity() > SHRINK_FACTOR * items.len() {
        items.shrink_to(items.len());
    }
}

/// The arrays of a [`DensePairs`] kept between builds (see [`DensePairs::of_boxes_in`] and
/// [`DenseScratch::keep`]), so that a structure rebuilding it every frame allocates nothing.
/// A clone starts empty: the arrays hold nothing the next build reads.
#[derive(Debug, Default)]
pub(crate) struct DenseScratch {
    /// Key and slot of each box of the base level, before sorting.
    base: Vec<(u32, u32)>,
    /// Key and slot of each box of the higher levels, one list a level, before sorting.
    higher: Vec<Vec<(u32, u32)>>,
    /// The levels of the last build, whose arrays the next one fills.
    spare: Vec<DenseLevel>,
}

impl Clone for DenseScratch {
    fn clone(&self) -> Self {
        DenseScratch::default()
    }
}

impl DenseScratch {
    /// Takes back the arrays of `dense` for the next build, cutting down those far longer
    /// than this build needed.
    pub fn keep(&mut self, dense: DensePairs) {
        // Levels the build left unused go; the base level's arrays, the largest, come out first.
        self.spare.clear();
        for mut level in dense.levels.into_iter().rev() {
            shrink_if_oversized(&mut level.start);
            shrink_if_oversized(&mut level.boxes);
            shrink_if_oversized(&mut level.ids);
            shrink_if_oversized(&mut level.keys);
            self.spare.push(level);
        }
    }
}

/// The dense copy of a grid's boxes, ready for pair finding.
#[derive(Debug)]
pub(crate) struct DensePairs {
    /// `(x, y, x, y)` of the lowest min corner.
    origin: Vec4,
    /// One over the base cell side.
    inverse_cell_size: f32,
    /// `(x, y, x, y)` of the last column and row: cells are clamped to the grid.
    limit: Vec4,
    /// Non-empty levels, lowest first.
    levels: Vec<DenseLevel>,
}

/// A per-slot record that holds a box for the dense pass: a box itself, or a structure's
/// record of which the box is one field (read in place, not copied out first).
pub(crate) trait SlotBox {
    /// The slot's box.
    fn slot_box(&self) -> &Aabb;
}

impl SlotBox for Aabb {
    #[inline]
    fn slot_box(&self) -> &Aabb {
        self
    }
}

/// The boxes a [`DensePairs`] is built from, by slot: `boxes[slot]` counts when
/// `alive[slot]`, and `live` of them do.
pub(crate) struct DenseInput<'a, B: SlotBox = Aabb> {
    /// Each slot's box (anything for a dead slot).
    pub boxes: &'a [B],
    /// Whether each slot is live.
    pub alive: &'a [bool],
    /// How many slots are live.
    pub live: usize,
}

impl<B: SlotBox> Clone for DenseInput<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: SlotBox> Copy for DenseInput<'_, B> {}

impl DensePairs {
    /// The dense copy of the live boxes of `input` in cells of side `cell_size`; `occupied`,
    /// when known, bounds the boxes (it may be larger than they are). `None` when the base grid
    /// would be too large for the number of boxes. Pairs are reported as slots.
    pub fn of_boxes<B: SlotBox>(
        input: DenseInput<B>,
        cell_size: f32,
        occupied: Option<Aabb>,
    ) -> Option<DensePairs> {
        DensePairs::of_boxes_in(&mut DenseScratch::default(), input, cell_size, occupied)
    }

    /// [`of_boxes`](DensePairs::of_boxes) in the arrays of `scratch` (hand them back with
    /// [`DenseScratch::keep`] once the pairs are found).
    pub fn of_boxes_in<B: SlotBox>(
        scratch: &mut DenseScratch,
        input: DenseInput<B>,
        cell_size: f32,
        occupied: Option<Aabb>,
    ) -> Option<DensePairs> {
        let inverse_cell_size = 1.0 / (cell_size * BASE_CELL_FRACTION);
        if !inverse_cell_size.is_finite() {
            return None;
        }
        let count = input.live;
        let mut dense = DensePairs {
            origin: Vec4::ZERO,
            inverse_cell_size,
            limit: Vec4::splat(CELL_LIMIT),
            levels: Vec::new(),
        };
        if count < 2 {
            return Some(dense);
        }
        // 1. The grid's bounds: those of the boxes registered in cells, which the grid keeps
        //    (they may have grown stale, larger than the boxes: that only costs empty cells);
        //    else, or when that grid would be too large, the bounds of the min corners of the
        //    boxes no larger than a few cells. Larger boxes go to higher levels anyway, and
        //    where any corner falls outside, the clamp moves it in.
        let kept = occupied.map(|occupied| {
            Vec4::new(
                occupied.min.x,
                occupied.min.y,
                occupied.max.x,
                occupied.max.y,
            )
        });
        let (width, height) = match kept.and_then(|bounds| dense.fit(bounds, count)) {
            Some(extent) => extent,
            None => dense.fit(min_corner_bounds(input, inverse_cell_size)?, count)?,
        };
        // 2. Level, key and slot of every box; the lowest level apart, as most boxes go there.
        // Written by index, its length kept in a local: a `push` per box reloads the length.
        let DenseScratch {
            base,
            higher,
            spare,
        } = scratch;
        refill(base, count, 0, (0, 0));
        let mut base_len = 0;
        let mut base_level = spare.pop().unwrap_or_default();
        let mut base_start = base_level.zeroed_start(height as usize, width as usize);
        higher.iter_mut().for_each(Vec::clear);
        let base_stride = width as u32 + 1;
        for (slot, (record, &alive)) in input.boxes.iter().zip(input.alive).enumerate() {
            if !alive {
                continue;
            }
            let aabb = record.slot_box();
            let [x0, y0, x1, y1] =
                dense.cells(Vec4::new(aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y));
            if x1 - x0 <= 1 && y1 - y0 <= 1 {
                let key = entry_key(x0, y0, x1, y1, base_stride);
                base_start[(key & CELL_MASK) as usize] += 1;
                base[base_len] = (key, slot as u32);
                base_len += 1;
                continue;
            }
            let mut shift = 1u32;
            while (x1 >> shift) - (x0 >> shift) > 1 || (y1 >> shift) - (y0 >> shift) > 1 {
                shift += 1;
            }
            let level = shift as usize - 1;
            if higher.len() <= level {
                higher.resize_with(level + 1, Vec::new);
            }
            let stride = ((width as u32 - 1) >> shift) + 2;
            let key = entry_key(x0 >> shift, y0 >> shift, x1 >> shift, y1 >> shift, stride);
            higher[level].push((key, slot as u32));
        }
        base.truncate(base_len);
        // 3. The levels' sorted arrays.
        if !base.is_empty() {
            dense.levels.push(DenseLevel::from_counts(
                base_level,
                0,
                width as usize,
                height as usize,
                base_start,
                base,
                &input,
            ));
        } else {
            base_level.start = base_start;
            spare.push(base_level);
        }
        for (level, entries) in higher.iter().enumerate() {
            if entries.is_empty() {
                continue;
            }
            let shift = level + 1;
            dense.levels.push(DenseLevel::sorted(
                spare.pop().unwrap_or_default(),
                shift as u32,
                ((width - 1) >> shift) as usize + 1,
                ((height - 1) >> shift) as usize + 1,
                entries,
                &input,
            ));
        }
        shrink_if_oversized(base);
        higher.iter_mut().for_each(shrink_if_oversized);
        Some(dense)
    }

    /// [`of_boxes`](DensePairs::of_boxes) for a structure without cells of its own: the cell
    /// side is [`HashGrid::auto_cell_size`](crate::broad::HashGrid::auto_cell_size) of about
    /// [`CELL_SAMPLE`] live boxes taken evenly across the slots.
    pub fn of_sampled_boxes<B: SlotBox>(input: DenseInput<B>) -> Option<DensePairs> {
        DensePairs::of_sampled_boxes_in(&mut DenseScratch::default(), input)
    }

    /// [`of_sampled_boxes`](DensePairs::of_sampled_boxes) in the arrays of `scratch` (hand
    /// them back with [`DenseScratch::keep`] once the pairs are found).
    pub fn of_sampled_boxes_in<B: SlotBox>(
        scratch: &mut DenseScratch,
        input: DenseInput<B>,
    ) -> Option<DensePairs> {
        let slots = input.boxes.len().min(input.alive.len());
        let sample = (0..slots)
            .step_by((slots / CELL_SAMPLE).max(1))
            .filter(|&slot| input.alive[slot])
            .map(|slot| *input.boxes[slot].slot_box());
        let cell_size = crate::broad::HashGrid::auto_cell_size(sample);
        DensePairs::of_boxes_in(scratch, input, cell_size, None)
    }

    /// Sets the origin and clamp for `bounds` `(low x, low y, high x, high y)` of the min
    /// corners and returns the grid's columns and rows, or `None` (changing nothing) when that
    /// grid would have too many cells for `count` boxes.
    fn fit(&mut self, bounds: Vec4, count: usize) -> Option<(u64, u64)> {
        let origin = self.origin;
        self.origin = bounds.xyxy();
        let far = self.cells(bounds.zwzw());
        let (width, height) = (u64::from(far[0]) + 1, u64::from(far[1]) + 1);
        let cells = (width + 1) * (height + 1);
        if cells > CELLS_PER_BOX * count as u64 + EXTRA_CELLS
            || cells > u64::from(CELL_MASK)
            || far[0] >= CELL_LIMIT as u32
            || far[1] >= CELL_LIMIT as u32
        {
            self.origin = origin;
            return None;
        }
        // From here on, cells are clamped to the grid: still monotonic, and in range.
        let (last_column, last_row) = (far[0] as f32, far[1] as f32);
        self.limit = Vec4::new(last_column, last_row, last_column, last_row);
        Some((width, height))
    }

    /// Base cell numbers of `(x, y, x, y)` coordinates at or beyond the origin: the scaled
    /// value clamped and rounded to an integer. Only monotonicity matters: a box touches the
    /// cells between those of its corners, and overlapping boxes have corners in order.
    #[inline(always)]
    fn cells(&self, coordinates: Vec4) -> [u32; 4] {
        let scaled = ((coordinates - self.origin) * self.inverse_cell_size)
            .clamp(Vec4::ZERO, self.limit)
            + Vec4::splat(MAGIC);
        scaled
            .to_array()
            .map(|value| value.to_bits() - MAGIC.to_bits())
    }

    /// The units of work, in reporting order: `(level, rows)`, with each level's rows cut into
    /// ranges of about `rows_per_unit` (at least one row).
    #[cfg(feature = "rayon")]
    pub fn units(&self, rows_per_unit: usize) -> Vec<(usize, Range<usize>)> {
        let rows_per_unit = rows_per_unit.max(1);
        let mut units = Vec::new();
        for (index, level) in self.levels.iter().enumerate() {
            let mut row = 0;
            while row < level.height {
                let end = (row + rows_per_unit).min(level.height);
                units.push((index, row..end));
                row = end;
            }
        }
        units
    }

    /// Rows a unit should cover so that the tallest level is cut into about `parts` units.
    #[cfg(feature = "rayon")]
    pub fn rows_for_parts(&self, parts: usize) -> usize {
        let tallest = self.levels.iter().map(|level| level.height).max();
        tallest.unwrap_or(1).div_ceil(parts.max(1))
    }

    /// Calls `report(lower, higher)` for every overlapping pair of slots.
    pub fn for_each_pair(&self, report: &mut impl FnMut(u32, u32)) {
        for (index, level) in self.levels.iter().enumerate() {
            self.rows_pairs(index, 0..level.height, report);
        }
    }

    /// Reports the pairs found from the boxes of level `index` in `rows`: with later boxes of
    /// the same level, and with boxes of every lower level.
    pub fn rows_pairs(&self, index: usize, rows: Range<usize>, report: &mut impl FnMut(u32, u32)) {
        let level = &self.levels[index];
        let lower = &self.levels[..index];
        let stride = level.stride();
        let start = level.start.as_slice();
        let mut found = PairBuffer::new();
        let first = start[rows.start * stride] as usize;
        let last = start[rows.end * stride] as usize;
        let entries = level.keys[first..last]
            .iter()
            .zip(&level.boxes[first..last])
            .zip(&level.ids[first..last]);
        for (offset, ((&key, &packed), &id)) in entries.enumerate() {
            let entry = first + offset;
            let cell = (key & CELL_MASK) as usize;
            let bound = upper(packed);
            // The rest of the cell, and the cell to the right if the box reaches into it (the
            // min corners there lie beyond the max corners of boxes that stay in their column).
            let right = usize::from(key & REACHES_RIGHT != 0);
            let own_end = start[cell + 1 + right] as usize;
            level.scan::<4>(entry + 1..own_end, bound, id, &mut found, report);
            if key & REACHES_UP != 0 {
                // The next row: the cells below-left, below, and below-right if reached.
                let below = cell + stride;
                let below = start[below - 1] as usize..start[below + 1 + right] as usize;
                level.scan::<GROUP>(below, bound, id, &mut found, report);
            }
            for other_level in lower {
                self.query_level(other_level, packed, bound, id, &mut found, report);
            }
        }
        found.flush(report);
    }

    /// Adds `(id, other)` to `found` for every box of `level` overlapping `packed`: the
    /// lower boxes' min corners lie in the box's cell range at that level, extended by one cell
    /// left and down.
    #[inline]
    fn query_level(
        &self,
        level: &DenseLevel,
        packed: Vec4,
        bound: Vec4,
        id: u32,
        found: &mut PairBuffer,
        report: &mut impl FnMut(u32, u32),
    ) {
        let shift = level.shift;
        let [x0, y0, x1, y1] = self.cells(packed * Vec4::new(1.0, 1.0, -1.0, -1.0));
        let x_low = ((x0 >> shift) as usize).saturating_sub(1);
        let y_low = ((y0 >> shift) as usize).saturating_sub(1);
        let x_high = ((x1 >> shift) as usize).min(level.width - 1);
        let y_high = ((y1 >> shift) as usize).min(level.height - 1);
        if x_low > x_high || y_low > y_high {
            return;
        }
        let stride = level.stride();
        for row in y_low..=y_high {
            let begin = level.start[row * stride + x_low] as usize;
            let end = level.start[row * stride + x_high + 1] as usize;
            if begin < end {
                level.scan::<GROUP>(begin..end, bound, id, found, report);
            }
        }
    }
}

/// `(low x, low y, high x, high y)` of the min corners of the live boxes no larger than
/// [`BOUNDS_CELLS`] base cells (of all live boxes when there are none), or `None` when nothing
/// is live.
fn min_corner_bounds<B: SlotBox>(input: DenseInput<B>, inverse_cell_size: f32) -> Option<Vec4> {
    let largest = BOUNDS_CELLS / inverse_cell_size;
    let bounds_of = |only_small: bool| {
        let mut found = false;
        let (mut low_x, mut low_y) = (f32::INFINITY, f32::INFINITY);
        let (mut high_x, mut high_y) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
        for (record, &alive) in input.boxes.iter().zip(input.alive) {
            let aabb = record.slot_box();
            let small = aabb.max.x - aabb.min.x <= largest && aabb.max.y - aabb.min.y <= largest;
            if alive && (small || !only_small) {
                found = true;
                low_x = low_x.min(aabb.min.x);
                low_y = low_y.min(aabb.min.y);
                high_x = high_x.max(aabb.min.x);
                high_y = high_y.max(aabb.min.y);
            }
        }
        found.then_some(Vec4::new(low_x, low_y, high_x, high_y))
    };
    bounds_of(true).or_else(|| bounds_of(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::test_numbers::Numbers;

    /// `count` boxes from `numbers`: mostly small ones in a square of side `spread`, every
    /// tenth several cells wide (a higher level), some touching exactly.
    fn boxes(numbers: &mut Numbers, count: usize, spread: f32) -> Vec<Aabb> {
        (0..count)
            .map(|index| {
                let corner = Vec2::new(numbers.unit(), numbers.unit()) * spread;
                let side = if index % 10 == 0 { 8.0 } else { 1.0 };
                let size = Vec2::new(side, side * (0.5 + numbers.unit()));
                Aabb {
                    min: corner,
                    max: corner + size,
                }
            })
            .chain([
                Aabb {
                    min: Vec2::ZERO,
                    max: Vec2::ONE,
                },
                Aabb {
                    min: Vec2::new(1.0, 0.0),
                    max: Vec2::new(2.0, 1.0),
                },
            ])
            .collect()
    }

    /// Every pair `dense` reports, sorted.
    fn pairs_of(dense: &DensePairs) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        dense.for_each_pair(&mut |a, b| pairs.push((a, b)));
        pairs.sort_unstable();
        pairs
    }

    /// The pairs of live boxes that overlap, by testing every pair.
    fn brute_force(boxes: &[Aabb], alive: &[bool]) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for a in 0..boxes.len() {
            for b in a + 1..boxes.len() {
                if alive[a] && alive[b] && boxes[a].overlaps(&boxes[b]) {
                    pairs.push((a as u32, b as u32));
                }
            }
        }
        pairs
    }

    #[test]
    fn builds_in_kept_arrays_find_the_pairs_of_fresh_builds() {
        let mut numbers = Numbers(7);
        let mut scratch = DenseScratch::default();
        // Large, small, empty of higher levels, then large again: stale values of a longer
        // earlier build must not leak into a shorter one.
        for (round, (count, spread)) in [(3000, 150.0), (40, 30.0), (500, 60.0), (2000, 200.0)]
            .into_iter()
            .enumerate()
        {
            let boxes = boxes(&mut numbers, count, spread);
            let alive: Vec<bool> = (0..boxes.len()).map(|slot| slot % 7 != round).collect();
            let live = alive.iter().filter(|&&alive| alive).count();
            let input = DenseInput {
                boxes: &boxes,
                alive: &alive,
                live,
            };
            let fresh = DensePairs::of_sampled_boxes(input).expect("the boxes are close together");
            let kept = DensePairs::of_sampled_boxes_in(&mut scratch, input)
                .expect("the boxes are close together");
            let expected = brute_force(&boxes, &alive);
            assert!(!expected.is_empty());
            assert_eq!(pairs_of(&fresh), expected, "round {round}: fresh build");
            assert_eq!(pairs_of(&kept), expected, "round {round}: kept arrays");
            scratch.keep(kept);
        }
    }

    #[test]
    fn kept_arrays_shrink_after_a_large_build() {
        let mut numbers = Numbers(11);
        let mut scratch = DenseScratch::default();
        let capacity = |scratch: &DenseScratch| {
            scratch.base.capacity()
                + scratch.higher.iter().map(Vec::capacity).sum::<usize>()
                + scratch
                    .spare
                    .iter()
                    .map(|level| {
                        level.start.capacity()
                            + level.boxes.capacity()
                            + level.ids.capacity()
                            + level.keys.capacity()
                    })
                    .sum::<usize>()
        };
        let mut build = |count: usize, spread: f32, scratch: &mut DenseScratch| {
            let boxes = boxes(&mut numbers, count, spread);
            let alive = vec![true; boxes.len()];
            let input = DenseInput {
                boxes: &boxes,
                alive: &alive,
                live: boxes.len(),
            };
            let dense = DensePairs::of_sampled_boxes_in(scratch, input)
                .expect("the boxes are close together");
            scratch.keep(dense);
        };
        build(100, 30.0, &mut scratch);
        let small = capacity(&scratch);
        build(100_000, 1000.0, &mut scratch);
        let large = capacity(&scratch);
        assert!(
            large > 100 * small,
            "{large} items kept after a large build"
        );
        build(100, 30.0, &mut scratch);
        // Back to the small frame's need: every array within the floor or the factor of it.
        let after = capacity(&scratch);
        assert!(
            after <= SHRINK_FACTOR * small + 12 * SHRINK_FLOOR,
            "{after} items kept after a small build (a small build needs {small})"
        );
        assert!(after * 10 < large);
    }
}
