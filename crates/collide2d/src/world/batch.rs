//! Batch queries: many points or rays against one world in one call, with the answers of the
//! single queries ([`World::overlap_point`], [`World::ray_cast`]) row for row.
//!
//! A batch that is large against the world (see [`COLLIDERS_PER_POINT_ROW`],
//! [`COLLIDERS_PER_RAY_ROW`]) is answered from a uniform grid that the world keeps between
//! calls, built by the first batch after a change:
//!
//! 1. Gather every collider the broad phase holds (enabled ones), with its handle, world
//!    transform and box. The grid does not depend on the filter: each query applies its
//!    [`QueryFilter`] to the candidates it reaches, as the single queries do.
//! 2. Cell size: the median of the boxes' larger sides, grown by √2 until the grid has at most
//!    [`CELLS_PER_COLLIDER`] cells a collider. A box covering more than [`MAX_CELLS_SPANNED`]
//!    cells goes to a list every query tests instead.
//!    Each box is filed in the cells of the box grown by a margin: the padding (well beyond
//!    the rounding of the exact tests) of a ray from within twice the grid's coordinates.
//! 3. Points: the one cell holding the point, then box test, filter and `Shape::contains`.
//! 4. Rays: the ray, clipped to the grid's bounds, walks the cells it passes through (a 2-D
//!    DDA), tests each collider once a ray (box, then filter, then the exact test), keeps the
//!    nearest hit (ties by the smaller handle) and stops once the next cell starts beyond it.
//!    A ray from farther away, whose padding is more than the margin, is marched instead in
//!    steps one cell long, each visiting the cells its padded box covers.
//!
//! Every cell index comes from one monotone function of a coordinate, so a box that overlaps a
//! region shares a cell with it; the exact tests are the single queries' own, so the answers
//! are equal bit for bit. A smaller batch walks the broad phase once a row. With the `rayon`
//! feature a large ray batch runs on the current pool's threads, in chunks of rows.
//!
//! The grid is dropped by every change that can move a collider's shape or take it in or out
//! of the broad phase: whatever marks a collider changed for the next update (insert, moves,
//! shape, offset, layer, sensor, groups, enabling), removal, and `shift_origin`. A restored
//! snapshot starts without one, and `update` keeps it (it moves nothing). It holds 40 bytes a
//! collider, 4 bytes a cell (at most [`CELLS_PER_COLLIDER`] cells a collider) and 20 bytes a
//! cell entry (one per cell a grown box covers: the box, so that a query tests it before it
//! reads the collider, and the collider's index), and is never saved in a snapshot.

use super::queries::{checked_ray, ray_hit, ray_hit_at_valid};
use super::{check_vector, Collider, ColliderHandle, QueryFilter, World, WorldError, WorldRayHit};
use crate::math::{Transform, Vec2};
use crate::shape::{Aabb, Ray};
use glam::{Vec4, Vec4Swizzles};

/// A point batch uses the grid when it has at least one row for this many colliders.
/// Callgrind, 10,000 colliders (27/11/2026): the grid costs ~490 instructions a collider to
/// build and saves ~870 a point, ~6,900 a ray; break-even near 0.56 points or 0.07 rays a
/// collider.
const COLLIDERS_PER_POINT_ROW: usize = 1;
/// A ray batch uses the grid when it has at least one row for this many colliders.
const COLLIDERS_PER_RAY_ROW: usize = 8;
/// The grid has at most this many cells a collider. Callgrind, the 10,000-collider benchmark
/// (27/11/2026), warm rays: cells of 1, 2, 2.8 and 4 median sides cost 1,374, 1,215, 1,195
/// and 1,217 instructions a ray; 2.8 costs points 5 % more than 2.
const CELLS_PER_COLLIDER: f64 = 2.0;
/// A collider whose box covers more cells than this is tested by every query instead.
const MAX_CELLS_SPANNED: usize = 16;
/// Ray steps are padded by this many ulps of the largest coordinate involved (the exact tests
/// round at a few ulps of it; the broad phase pads boxes by
/// [`RAY_PADDING`](crate::broad::RAY_PADDING)).
const STEP_PADDING_ULPS: f64 = 32.0;
/// Boxes are filed in the cells of the box grown by the margin: the padding of a ray from
/// within this many times the grid's largest coordinate, plus [`WALK_TOLERANCE`].
const MARGIN_MAGNITUDES: f64 = 2.0;
/// How far, in cells, the walk's cells may be trusted to follow the ray (the rounding of its
/// crossings is below 1e-12 cells).
const WALK_TOLERANCE: f64 = 1e-3;

/// A collider in the grid: what the box test and the exact test read, besides the shape.
struct Member {
    handle: ColliderHandle,
    /// The collider's world transform.
    placement: Transform,
    aabb: Aabb,
}

const _: () = assert!(std::mem::size_of::<Member>() == 40);

/// One member filed in one cell, with its box inline so that a query tests the box before it
/// reads the member.
#[derive(Clone, Copy)]
struct CellEntry {
    aabb: Aabb,
    /// The member's index in [`BatchGrid::members`].
    member: u32,
}

const _: () = assert!(std::mem::size_of::<CellEntry>() == 20);

/// A uniform grid over the boxes of the colliders in the broad phase, kept by the world
/// between batch queries until a change drops it.
pub(super) struct BatchGrid {
    members: Vec<Member>,
    /// Lower-left corner of cell (0, 0).
    origin: [f64; 2],
    cell_size: f64,
    inverse_cell_size: f64,
    columns: usize,
    rows: usize,
    /// Cell `c`'s entries are `cell_entries[cell_starts[c]..cell_starts[c + 1]]`, in handle
    /// order.
    cell_starts: Vec<u32>,
    cell_entries: Vec<CellEntry>,
    /// Members whose boxes cover too many cells, tested by every query.
    spanning: Vec<u32>,
    /// The union of the members' boxes.
    bounds_min: [f64; 2],
    bounds_max: [f64; 2],
    /// The largest coordinate of any member's box.
    magnitude: f64,
    /// Each member is filed in the cells of its box grown by this much on every side.
    margin: f64,
    /// Whether every member's placement is [valid](Transform::is_valid), so that the exact
    /// tests of a checked ray need not check it again.
    placements_valid: bool,
}

impl BatchGrid {
    fn new(world: &World) -> BatchGrid {
        // 1. The colliders in the broad phase, in handle order.
        let mut members = Vec::with_capacity(world.len());
        for (index, slot) in world.slots.iter().enumerate() {
            let Some(entry) = slot.entry.as_ref() else {
                continue;
            };
            let handle = ColliderHandle {
                index: index as u32,
                generation: slot.generation,
            };
            if entry.proxy.is_none() {
                continue;
            }
            let placement = entry.collider.world_transform();
            members.push(Member {
                handle,
                aabb: entry.collider.aabb_at(&placement),
                placement,
            });
        }
        let mut bounds_min = [f64::INFINITY; 2];
        let mut bounds_max = [f64::NEG_INFINITY; 2];
        let mut magnitude = 0.0f64;
        let mut sides = Vec::with_capacity(members.len());
        for member in &members {
            for axis in 0..2 {
                bounds_min[axis] = bounds_min[axis].min(member.aabb.min[axis] as f64);
                bounds_max[axis] = bounds_max[axis].max(member.aabb.max[axis] as f64);
            }
            magnitude = magnitude.max(
                member
                    .aabb
                    .min
                    .abs()
                    .max(member.aabb.max.abs())
                    .max_element() as f64,
            );
            let size = member.aabb.max - member.aabb.min;
            sides.push(size.max_element() as f64);
        }
        if members.is_empty() {
            bounds_min = [0.0; 2];
            bounds_max = [0.0; 2];
        }
        // 2. Cell size: the median side, grown until the cells are few enough.
        let width = bounds_max[0] - bounds_min[0];
        let height = bounds_max[1] - bounds_min[1];
        let mut cell_size = if sides.is_empty() {
            1.0
        } else {
            let middle = sides.len() / 2;
            *sides.select_nth_unstable_by(middle, f64::total_cmp).1
        };
        let floor = (width.max(height) * 1e-6).max(magnitude * 1e-6).max(1e-30);
        cell_size = cell_size.max(floor);
        let cell_cap = (members.len() as f64 * CELLS_PER_COLLIDER).max(1.0);
        while ((width / cell_size).floor() + 1.0) * ((height / cell_size).floor() + 1.0) > cell_cap
        {
            cell_size *= std::f64::consts::SQRT_2;
        }
        let columns = (width / cell_size) as usize + 1;
        let rows = (height / cell_size) as usize + 1;
        let placements_valid = members.iter().all(|member| member.placement.is_valid());
        let mut grid = BatchGrid {
            members,
            origin: bounds_min,
            cell_size,
            inverse_cell_size: 1.0 / cell_size,
            columns,
            rows,
            cell_starts: vec![0; columns * rows + 1],
            cell_entries: Vec::new(),
            spanning: Vec::new(),
            bounds_min,
            bounds_max,
            magnitude,
            margin: ray_padding(MARGIN_MAGNITUDES * magnitude, cell_size)
                + WALK_TOLERANCE * cell_size,
            placements_valid,
        };
        grid.fill();
        grid
    }

    /// Places every member in the cells its box covers (counting, then filling).
    fn fill(&mut self) {
        let mut ranges = Vec::with_capacity(self.members.len());
        for (index, member) in self.members.iter().enumerate() {
            let margin = self.margin;
            let (columns, rows) = self.cell_range(
                [
                    member.aabb.min.x as f64 - margin,
                    member.aabb.min.y as f64 - margin,
                ],
                [
                    member.aabb.max.x as f64 + margin,
                    member.aabb.max.y as f64 + margin,
                ],
            );
            if columns.len() * rows.len() > MAX_CELLS_SPANNED {
                self.spanning.push(index as u32);
                ranges.push(None);
                continue;
            }
            for row in rows.clone() {
                for column in columns.clone() {
                    self.cell_starts[row * self.columns + column + 1] += 1;
                }
            }
            ranges.push(Some((columns, rows)));
        }
        for cell in 1..self.cell_starts.len() {
            self.cell_starts[cell] += self.cell_starts[cell - 1];
        }
        let mut next = self.cell_starts.clone();
        let empty = CellEntry {
            aabb: Aabb {
                min: Vec2::ZERO,
                max: Vec2::ZERO,
            },
            member: 0,
        };
        self.cell_entries = vec![empty; *self.cell_starts.last().unwrap_or(&0) as usize];
        for (index, range) in ranges.into_iter().enumerate() {
            let Some((columns, rows)) = range else {
                continue;
            };
            let aabb = self.members[index].aabb;
            for row in rows {
                for column in columns.clone() {
                    let slot = &mut next[row * self.columns + column];
                    self.cell_entries[*slot as usize] = CellEntry {
                        aabb,
                        member: index as u32,
                    };
                    *slot += 1;
                }
            }
        }
    }

    /// The cell holding coordinate `value` on `axis`, clamped to the grid. Monotone in `value`.
    #[inline]
    fn cell_of(&self, value: f64, axis: usize) -> usize {
        let count = if axis == 0 { self.columns } else { self.rows };
        // Truncation is the floor for the positive values kept (and cheaper than `floor`).
        let cell = (value - self.origin[axis]) * self.inverse_cell_size;
        if cell > 0.0 {
            // Through `u32` (saturating, and cheaper than to `usize`): the grid has fewer
            // cells on a side.
            (cell as u32 as usize).min(count - 1)
        } else {
            0
        }
    }

    /// The columns and rows of the cells the box `[min, max]` covers.
    #[inline]
    fn cell_range(
        &self,
        min: [f64; 2],
        max: [f64; 2],
    ) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        (
            self.cell_of(min[0], 0)..self.cell_of(max[0], 0) + 1,
            self.cell_of(min[1], 1)..self.cell_of(max[1], 1) + 1,
        )
    }

    /// The members `filter` accepts containing `point`, pushed to `found` (not sorted).
    fn overlap_point(
        &self,
        world: &World,
        point: Vec2,
        filter: &QueryFilter,
        found: &mut Vec<ColliderHandle>,
    ) {
        let contains = |index: u32, aabb: &Aabb| {
            let member = &self.members[index as usize];
            aabb.min.x <= point.x
                && point.x <= aabb.max.x
                && aabb.min.y <= point.y
                && point.y <= aabb.max.y
                && world
                    .accepted(member.handle, filter)
                    .is_some_and(|collider| collider.shape.contains(&member.placement, point))
        };
        for &index in &self.spanning {
            if contains(index, &self.members[index as usize].aabb) {
                found.push(self.members[index as usize].handle);
            }
        }
        let (x, y) = (point.x as f64, point.y as f64);
        if x < self.bounds_min[0]
            || x > self.bounds_max[0]
            || y < self.bounds_min[1]
            || y > self.bounds_max[1]
        {
            return;
        }
        let cell = self.cell_of(y, 1) * self.columns + self.cell_of(x, 0);
        for entry in self.cell_entries(cell) {
            if contains(entry.member, &entry.aabb) {
                found.push(self.members[entry.member as usize].handle);
            }
        }
    }

    /// The nearest hit of a checked `ray` on a member `filter` accepts (ties by the smaller
    /// handle). `stamps` has one entry a member; `stamp` is this ray's, different from every
    /// earlier ray's.
    fn ray_cast(
        &self,
        world: &World,
        ray: &Ray,
        filter: &QueryFilter,
        stamps: &mut [u32],
        stamp: u32,
    ) -> Option<WorldRayHit> {
        let box_test = RayBoxTest::new(ray, self.magnitude)?;
        // Plain comparisons here and below: no value is NaN (the ray is checked, the bounds
        // are finite).
        let origin_magnitude = ray.origin.abs().max_element() as f64;
        let scale = if origin_magnitude > self.magnitude {
            origin_magnitude
        } else {
            self.magnitude
        };
        let pad = ray_padding(scale, self.cell_size);
        let mut query = RayQuery {
            grid: self,
            world,
            ray,
            filter,
            box_test,
            stamps,
            stamp,
            nearest: None,
            nearest_distance: ray.max_distance,
            pad,
            stop: f64::INFINITY,
        };
        for &index in &self.spanning {
            let aabb = &self.members[index as usize].aabb;
            if query.box_test.any_parallel {
                query.consider::<true>(index, aabb);
            } else {
                query.consider::<false>(index, aabb);
            }
        }
        // The ray's parameter range inside the grid's bounds, padded.
        let origin = [ray.origin.x as f64, ray.origin.y as f64];
        let direction = [ray.direction.x as f64, ray.direction.y as f64];
        let mut enter = 0.0f64;
        let mut exit = ray.max_distance as f64;
        for axis in 0..2 {
            let low = self.bounds_min[axis] - pad;
            let high = self.bounds_max[axis] + pad;
            if direction[axis] == 0.0 {
                if origin[axis] < low || origin[axis] > high {
                    return query.nearest;
                }
                continue;
            }
            let to_low = (low - origin[axis]) / direction[axis];
            let to_high = (high - origin[axis]) / direction[axis];
            let (near, far) = if to_low < to_high {
                (to_low, to_high)
            } else {
                (to_high, to_low)
            };
            if near > enter {
                enter = near;
            }
            if far < exit {
                exit = far;
            }
        }
        if enter > exit {
            return query.nearest;
        }
        if exit < query.stop {
            query.stop = exit;
        }
        let ray_range = RayRange {
            origin,
            direction,
            enter,
            exit,
            pad,
        };
        if pad + WALK_TOLERANCE * self.cell_size <= self.margin {
            // The box test's kind decided once a ray, not once a candidate.
            if query.box_test.any_parallel {
                self.walk::<true>(&ray_range, &mut query);
            } else {
                self.walk::<false>(&ray_range, &mut query);
            }
        } else {
            self.march(&ray_range, &mut query);
        }
        query.nearest
    }

    /// The entries of the cell with index `cell` (row-major).
    #[inline]
    fn cell_entries(&self, cell: usize) -> &[CellEntry] {
        match self.cell_starts.get(cell..cell + 2) {
            Some(&[start, end]) => self
                .cell_entries
                .get(start as usize..end as usize)
                .unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Visits the cells the ray passes through, in order, until it leaves the range or the
    /// next cell starts beyond the nearest hit (plus the padding).
    ///
    /// A 2-D DDA (Amanatides and Woo, *A Fast Voxel Traversal Algorithm for Ray Tracing*,
    /// 1987): the cell of the range's first point, then on each step the axis whose next cell
    /// boundary the ray crosses first, the crossings a cell apart along each axis. Their
    /// rounding, over the few hundred cells of a grid's side, stays far below
    /// [`WALK_TOLERANCE`] cells, so the cells agree with [`BatchGrid::cell_of`] at every
    /// point of the ray to within it; a member box holding a point within the padding of the
    /// ray is filed, grown by the margin, in a cell the walk visits. Off the grid's side the
    /// clamped cell stays.
    fn walk<const PARALLEL: bool>(&self, range: &RayRange, query: &mut RayQuery) {
        let counts = [self.columns, self.rows];
        // The cell's row-major index and, per axis: its column or row, the ray parameter of
        // the next boundary crossing, the parameter between two crossings, the step of the
        // index (±1 column or ±1 row, wrapping), and the crossings left before the last cell
        // that way (then crossings stop).
        let mut cell = [0usize; 2];
        let mut crossing = [f64::INFINITY; 2];
        let mut spacing = [f64::INFINITY; 2];
        let mut index_step = [1usize, self.columns];
        let mut crossings_left = [0usize; 2];
        for axis in 0..2 {
            let start = range.origin[axis] + range.direction[axis] * range.enter;
            cell[axis] = self.cell_of(start, axis);
            let direction = range.direction[axis];
            let last = if direction > 0.0 {
                counts[axis] - 1
            } else {
                index_step[axis] = index_step[axis].wrapping_neg();
                0
            };
            if direction != 0.0 && cell[axis] != last {
                crossings_left[axis] = cell[axis].abs_diff(last);
                let boundary = cell[axis] + usize::from(direction > 0.0);
                // Through `u32`, cheaper than from `usize`: the grid has fewer cells a side.
                let coordinate = self.origin[axis] + boundary as u32 as f64 * self.cell_size;
                crossing[axis] = (coordinate - range.origin[axis]) / direction;
                spacing[axis] = self.cell_size / direction.abs();
            }
        }
        let mut index = cell[1] * self.columns + cell[0];
        // One branch an axis, so that the state stays in registers. A crossing is finite only
        // while crossings are left on its axis, and the stop is finite (the range ends inside
        // the grid's padded bounds), so the walk ends before any count runs out.
        let [mut crossing_x, mut crossing_y] = crossing;
        let [spacing_x, spacing_y] = spacing;
        let [step_x, step_y] = index_step;
        let [mut left_x, mut left_y] = crossings_left;
        loop {
            query.visit::<PARALLEL>(index);
            if crossing_y < crossing_x {
                if crossing_y > query.stop {
                    return;
                }
                index = index.wrapping_add(step_y);
                left_y -= 1;
                if left_y == 0 {
                    crossing_y = f64::INFINITY;
                }
                crossing_y += spacing_y;
            } else {
                if crossing_x > query.stop {
                    return;
                }
                index = index.wrapping_add(step_x);
                left_x -= 1;
                if left_x == 0 {
                    crossing_x = f64::INFINITY;
                }
                crossing_x += spacing_x;
            }
        }
    }

    /// Visits the cells of the ray in steps, each step the cells of its box padded by the
    /// ray's padding: for rays whose padding is more than the grid's margin (an origin far
    /// beyond the grid's coordinates).
    ///
    /// A step is one cell long, or as long as the padding when that is longer: a step's box
    /// reaches a padding beyond its ends anyway. The padding grows with the origin's distance
    /// (about 5e5 for an origin at 1e12), and the ray's range is the grid's bounds padded, so
    /// cell-long steps took that range a cell at a time; near `f32::MAX` a cell is less than
    /// `f64`'s spacing at the ray parameter and such steps would not move at all. Steps at
    /// least as long as the padding always advance, and are at most about `√2 · (2 + the
    /// grid's width in cells)`.
    fn march(&self, range: &RayRange, query: &mut RayQuery) {
        let (origin, direction, pad) = (range.origin, range.direction, range.pad);
        let step = if pad > self.cell_size {
            pad
        } else {
            self.cell_size
        };
        let mut start = range.enter;
        let (mut previous_columns, mut previous_rows) = (0..0, 0..0);
        while start <= range.exit {
            if start > query.stop {
                break;
            }
            let end = (start + step).min(range.exit);
            let mut min = [0.0; 2];
            let mut max = [0.0; 2];
            for axis in 0..2 {
                let a = origin[axis] + direction[axis] * start;
                let b = origin[axis] + direction[axis] * end;
                min[axis] = a.min(b) - pad;
                max[axis] = a.max(b) + pad;
            }
            let (columns, rows) = self.cell_range(min, max);
            for row in rows.clone() {
                for column in columns.clone() {
                    // The previous step visited its cells already.
                    if !(previous_rows.contains(&row) && previous_columns.contains(&column)) {
                        let cell = row * self.columns + column;
                        if query.box_test.any_parallel {
                            query.visit::<true>(cell);
                        } else {
                            query.visit::<false>(cell);
                        }
                    }
                }
            }
            if end >= range.exit {
                break;
            }
            (previous_columns, previous_rows) = (columns, rows);
            start = end;
        }
    }
}

/// One ray's query of the grid: what its candidates are tested against, and the nearest hit
/// found so far.
struct RayQuery<'a> {
    grid: &'a BatchGrid,
    world: &'a World,
    /// The checked ray.
    ray: &'a Ray,
    filter: &'a QueryFilter<'a>,
    box_test: RayBoxTest,
    /// One entry a member: the stamp of the last ray that tested it.
    stamps: &'a mut [u32],
    /// This ray's stamp, different from every earlier ray's.
    stamp: u32,
    /// The nearest hit so far (ties by the smaller handle).
    nearest: Option<WorldRayHit>,
    /// Its distance; the ray's maximum distance until there is one.
    nearest_distance: f32,
    /// How far the exact tests may round a hit point off its collider's box.
    pad: f64,
    /// Where the walk stops: the end of the ray's range in the grid, or the nearest hit plus
    /// the padding if that is sooner.
    stop: f64,
}

impl RayQuery<'_> {
    /// Considers the entries of the cell with index `cell`; `PARALLEL`: whether the ray
    /// runs parallel to an axis.
    #[inline(always)]
    fn visit<const PARALLEL: bool>(&mut self, cell: usize) {
        let grid = self.grid;
        for entry in grid.cell_entries(cell) {
            self.consider::<PARALLEL>(entry.member, &entry.aabb);
        }
    }

    /// Considers the member `index` whose box is `aabb`. The box test comes first: a box
    /// entered beyond the nearest hit cannot hold a nearer one, and a box refused once is
    /// refused for the rest of the ray, whose limit only shrinks.
    #[inline(always)]
    fn consider<const PARALLEL: bool>(&mut self, index: u32, aabb: &Aabb) {
        if self
            .box_test
            .reaches::<PARALLEL>(aabb, self.nearest_distance)
        {
            let seen = &mut self.stamps[index as usize];
            if *seen != self.stamp {
                *seen = self.stamp;
                self.test(index);
            }
        }
    }

    /// Tests the member `index` whose box the ray reaches, once a ray: the filter, which reads
    /// the collider, then the exact test.
    #[inline(never)]
    fn test(&mut self, index: u32) {
        let member = &self.grid.members[index as usize];
        let Some(collider) = self.world.accepted(member.handle, self.filter) else {
            return;
        };
        let hit = if self.grid.placements_valid {
            ray_hit_at_valid(member.handle, collider, &member.placement, self.ray)
        } else {
            ray_hit(member.handle, collider, &member.placement, self.ray)
        };
        let Some(hit) = hit else {
            return;
        };
        if self
            .nearest
            .is_none_or(|kept| (hit.distance, hit.collider) < (kept.distance, kept.collider))
        {
            self.nearest_distance = hit.distance;
            self.nearest = Some(hit);
            let beyond_nearest = hit.distance as f64 + self.pad;
            if beyond_nearest < self.stop {
                self.stop = beyond_nearest;
            }
        }
    }
}

/// The box test of one ray: the broad phase's slab test
/// (`RaySegment::entry_distance`) with its padding worked out once a ray, for the largest
/// coordinate of the grid and the ray's origin, and [`STEP_PADDING_ULPS`] ulps of it instead
/// of the broad phase's [`RAY_PADDING`](crate::broad::RAY_PADDING). Every box is grown at
/// least as much as the broad phase grows it for the single query, so no collider it would
/// test is refused here.
struct RayBoxTest {
    /// Whether the ray runs parallel to each axis.
    parallel: [bool; 2],
    /// Whether it runs parallel to either.
    any_parallel: bool,
    /// The origin, the inverse direction and the padding laid out as a box's four bounds
    /// `(min.x, min.y, max.x, max.y)` are.
    origin_lanes: Vec4,
    inverse_lanes: Vec4,
    pad_lanes: Vec4,
}

impl RayBoxTest {
    /// The box test of a checked `ray`, its direction normalised as the broad phase's
    /// `RaySegment::new` normalises it (`None` for a zero direction, which a checked ray
    /// does not have).
    fn new(ray: &Ray, grid_magnitude: f64) -> Option<RayBoxTest> {
        let direction = crate::math::try_unit(ray.direction)?;
        let origin = ray.origin;
        let inverse = Vec2::ONE / direction;
        let (grid_magnitude, origin_magnitude) =
            (grid_magnitude as f32, origin.abs().max_element());
        let magnitude = if origin_magnitude > grid_magnitude {
            origin_magnitude
        } else {
            grid_magnitude
        };
        let pad = magnitude * (STEP_PADDING_ULPS as f32 * f32::EPSILON);
        let parallel = [direction.x == 0.0, direction.y == 0.0];
        Some(RayBoxTest {
            parallel,
            any_parallel: parallel[0] || parallel[1],
            origin_lanes: Vec4::new(origin.x, origin.y, origin.x, origin.y),
            inverse_lanes: Vec4::new(inverse.x, inverse.y, inverse.x, inverse.y),
            pad_lanes: Vec4::new(-pad, -pad, pad, pad),
        })
    }

    /// Whether the ray enters `aabb`, grown by the padding, within `[0, limit]`; `PARALLEL`
    /// is [`any_parallel`](Self::any_parallel).
    ///
    /// Off the axes' directions in four lanes: the same products, so the same answer, as the
    /// scalar slab test a parallel ray takes.
    #[inline]
    fn reaches<const PARALLEL: bool>(&self, aabb: &Aabb, limit: f32) -> bool {
        debug_assert_eq!(PARALLEL, self.any_parallel);
        if PARALLEL {
            return self.reaches_parallel(aabb, limit);
        }
        // `bound + (−pad)` is `bound − pad` exactly.
        let bounds = Vec4::new(aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y) + self.pad_lanes;
        // Lanes: the parameters of the low x, low y, high x and high y lines; no NaN (the
        // inverse direction is finite on both axes).
        let t = (bounds - self.origin_lanes) * self.inverse_lanes;
        let swapped = t.zwxy();
        let (near, far) = (t.min(swapped), t.max(swapped));
        // Plain comparisons (no NaN here), cheaper than `f32::max`'s NaN handling.
        let larger = |a: f32, b: f32| if b > a { b } else { a };
        let smaller = |a: f32, b: f32| if b < a { b } else { a };
        larger(larger(0.0, near.x), near.y) <= smaller(smaller(limit, far.x), far.y)
    }

    /// [`reaches`](Self::reaches) for a ray parallel to an axis, one axis at a time.
    fn reaches_parallel(&self, aabb: &Aabb, limit: f32) -> bool {
        let pad = Vec2::splat(self.pad_lanes.z);
        let (low, high) = (aabb.min - pad, aabb.max + pad);
        let (origin, inverse) = (self.origin_lanes.xy(), self.inverse_lanes.xy());
        let mut enter = 0.0f32;
        let mut exit = limit;
        for axis in 0..2 {
            let origin = origin[axis];
            if self.parallel[axis] {
                if origin < low[axis] || origin > high[axis] {
                    return false;
                }
                continue;
            }
            let inverse = inverse[axis];
            let to_low = (low[axis] - origin) * inverse;
            let to_high = (high[axis] - origin) * inverse;
            let (near, far) = if to_low <= to_high {
                (to_low, to_high)
            } else {
                (to_high, to_low)
            };
            if near > enter {
                enter = near;
            }
            if far < exit {
                exit = far;
            }
        }
        enter <= exit
    }
}

/// A ray in `f64` with its parameter range inside the grid's padded bounds.
struct RayRange {
    origin: [f64; 2],
    direction: [f64; 2],
    enter: f64,
    exit: f64,
    /// How far the exact tests may round a hit point off its collider's box.
    pad: f64,
}

/// How far a ray's exact tests may round a hit point off its collider's box, for the largest
/// coordinate `scale` of the ray's origin and the grid, and a margin of a thousandth of a cell.
fn ray_padding(scale: f64, cell_size: f64) -> f64 {
    STEP_PADDING_ULPS * f32::EPSILON as f64 * scale + 1e-3 * cell_size
}

impl World {
    /// The world's batch grid, built now if a change dropped it.
    fn batch_grid(&self) -> &BatchGrid {
        self.batch_grid.get_or_init(|| BatchGrid::new(self))
    }

    /// Drops the batch grid: called by every change that can change a query's candidates.
    #[inline]
    pub(super) fn forget_batch_grid(&mut self) {
        if self.batch_grid.get().is_some() {
            self.drop_batch_grid();
        }
    }

    /// The out-of-line part of [`World::forget_batch_grid`].
    #[cold]
    #[inline(never)]
    fn drop_batch_grid(&mut self) {
        self.batch_grid.take();
    }

    /// The collider of a live `handle` when `filter` accepts it.
    #[inline]
    fn accepted(&self, handle: ColliderHandle, filter: &QueryFilter) -> Option<&Collider> {
        let collider = &self.entry(handle).ok()?.collider;
        filter.accepts(handle, collider).then_some(collider)
    }

    /// [`overlap_point`](Self::overlap_point) for each of `points`: calls
    /// `callback(row, handle)` for each collider containing `points[row]`, rows in order,
    /// handles sorted within a row.
    ///
    /// Every point is checked before any is answered: a NaN or infinite one fails the whole
    /// batch with `overlap_point`'s error, [`WorldError::InvalidInput`]. A large batch reads a
    /// grid of the world's colliders that the world keeps until a collider is inserted,
    /// removed, moved or changed (built by the first large batch after such a change; about 40
    /// bytes a collider, 4 a cell and 20 a cell entry). `filter`'s predicate is asked only about
    /// candidates, colliders whose box holds the point.
    ///
    /// ```
    /// use collide2d::{shape::{Circle, Shape}, world::{Collider, QueryFilter, World}, Vec2};
    /// let mut world = World::new();
    /// let ball = world.insert(Collider::new(Shape::from(Circle::with_radius(1.0)?)))?;
    /// let mut found = Vec::new();
    /// let points = [Vec2::ZERO, Vec2::new(5.0, 0.0), Vec2::new(0.5, 0.5)];
    /// world.overlap_points_each(&points, &QueryFilter::new(), |row, handle| found.push((row, handle)))?;
    /// assert_eq!(found, [(0, ball), (2, ball)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn overlap_points_each(
        &self,
        points: &[Vec2],
        filter: &QueryFilter,
        mut callback: impl FnMut(usize, ColliderHandle),
    ) -> Result<(), WorldError> {
        for &point in points {
            check_vector(point, "query point")?;
        }
        if points.len().saturating_mul(COLLIDERS_PER_POINT_ROW) < self.len() {
            for (row, &point) in points.iter().enumerate() {
                for handle in self.overlap_point(point, filter)? {
                    callback(row, handle);
                }
            }
            return Ok(());
        }
        let grid = self.batch_grid();
        let mut found = Vec::new();
        for (row, &point) in points.iter().enumerate() {
            found.clear();
            grid.overlap_point(self, point, filter, &mut found);
            found.sort_unstable();
            for &handle in &found {
                callback(row, handle);
            }
        }
        Ok(())
    }

    /// [`ray_cast`](Self::ray_cast) for each of `rays`: the nearest hit of each (ties by the
    /// smaller handle), in order.
    ///
    /// Every ray is checked before any is cast: an invalid one fails the whole batch with
    /// `ray_cast`'s error, [`WorldError::InvalidInput`]. A large batch reads a grid of the
    /// world's colliders that the world keeps until a collider is inserted, removed, moved or
    /// changed (built by the first large batch after such a change; about 40 bytes a collider,
    /// 4 a cell and 20 a cell entry). `filter`'s predicate is asked only about candidates, colliders
    /// whose box the ray reaches before a nearer hit is known, at most once a ray.
    ///
    /// With the `rayon` feature, a large batch (at least 512 rows) whose filter has no
    /// predicate is cut into chunks of rows cast on the threads of the current rayon pool
    /// (one thread: the calling one); the answers are the same, in the same order.
    pub fn ray_cast_many(
        &self,
        rays: &[Ray],
        filter: &QueryFilter,
    ) -> Result<Vec<Option<WorldRayHit>>, WorldError> {
        let mut checked = Vec::with_capacity(rays.len());
        for ray in rays {
            checked.push(checked_ray(ray)?);
        }
        if rays.len().saturating_mul(COLLIDERS_PER_RAY_ROW) < self.len() {
            return rays.iter().map(|ray| self.ray_cast(ray, filter)).collect();
        }
        let grid = self.batch_grid();
        let mut hits = vec![None; checked.len()];
        #[cfg(feature = "rayon")]
        if filter.predicate.is_none()
            && checked.len() >= PARALLEL_RAYS
            && rayon::current_num_threads() > 1
        {
            use rayon::prelude::*;
            // A filter with a predicate is not `Sync`: without one, its settings are.
            let settings = FilterSettings::of(filter);
            let chunk = checked
                .len()
                .div_ceil(2 * rayon::current_num_threads())
                .max(PARALLEL_RAYS / 2);
            hits.par_chunks_mut(chunk)
                .zip(checked.par_chunks(chunk))
                .for_each(|(answers, rays)| {
                    grid.ray_cast_rows(self, rays, &settings.filter(), answers);
                });
            return Ok(hits);
        }
        grid.ray_cast_rows(self, &checked, filter, &mut hits);
        Ok(hits)
    }
}

/// A ray batch runs on the threads of the current rayon pool (feature `rayon`) when it has at
/// least this many rows and its filter has no predicate.
#[cfg(feature = "rayon")]
const PARALLEL_RAYS: usize = 512;

/// The settings of a [`QueryFilter`] without a predicate, which threads may share.
#[cfg(feature = "rayon")]
struct FilterSettings<'a> {
    layers: super::LayerMask,
    include_sensors: bool,
    exclude: &'a [ColliderHandle],
    groups: Option<super::CollisionGroups>,
    skip_one_way: bool,
    also_exclude: [Option<ColliderHandle>; 2],
}

#[cfg(feature = "rayon")]
impl<'a> FilterSettings<'a> {
    fn of(filter: &QueryFilter<'a>) -> FilterSettings<'a> {
        FilterSettings {
            layers: filter.layers,
            include_sensors: filter.include_sensors,
            exclude: filter.exclude,
            groups: filter.groups,
            skip_one_way: filter.skip_one_way,
            also_exclude: filter.also_exclude,
        }
    }

    fn filter(&self) -> QueryFilter<'a> {
        QueryFilter {
            layers: self.layers,
            include_sensors: self.include_sensors,
            exclude: self.exclude,
            groups: self.groups,
            skip_one_way: self.skip_one_way,
            predicate: None,
            also_exclude: self.also_exclude,
        }
    }
}

impl BatchGrid {
    /// The answers to checked `rays`, in order, into `answers` (as long as `rays`).
    fn ray_cast_rows(
        &self,
        world: &World,
        rays: &[Ray],
        filter: &QueryFilter,
        answers: &mut [Option<WorldRayHit>],
    ) {
        let mut stamps = vec![0u32; self.members.len()];
        let mut stamp = 0u32;
        for (ray, answer) in rays.iter().zip(answers) {
            if stamp == u32::MAX {
                stamps.fill(0);
                stamp = 0;
            }
            stamp += 1;
            *answer = self.ray_cast(world, ray, filter, &mut stamps, stamp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Circle, Polygon, Shape};

    /// A 20 × 20 lattice of boxes and discs of several sizes and turns, 3 apart.
    fn lattice() -> World {
        let mut world = World::new();
        for i in 0..20 {
            for j in 0..20 {
                let size = 0.5 + ((i * 7 + j * 3) % 10) as f32 * 0.1;
                let shape = if (i + j) % 2 == 0 {
                    Shape::from(Circle::with_radius(size).unwrap())
                } else {
                    Shape::from(Polygon::rect(size, 1.5 * size).unwrap())
                };
                let at = Transform::new(
                    Vec2::new(i as f32 * 3.0, j as f32 * 3.0),
                    (i * j) as f32 * 0.1,
                );
                world
                    .insert(Collider::new(shape).with_transform(at))
                    .unwrap();
            }
        }
        world
    }

    fn same_hit(a: Option<WorldRayHit>, b: Option<WorldRayHit>) -> bool {
        let bits = |hit: WorldRayHit| {
            (
                hit.collider,
                hit.child,
                hit.distance.to_bits(),
                [hit.point.x, hit.point.y, hit.normal.x, hit.normal.y].map(f32::to_bits),
            )
        };
        a.map(bits) == b.map(bits)
    }

    /// The batch answers of `rays` equal the single queries bit for bit; returns the hits.
    fn check(world: &World, rays: &[Ray], what: &str) -> usize {
        assert!(
            rays.len() * COLLIDERS_PER_RAY_ROW >= world.len(),
            "{what}: enough rows for the grid"
        );
        let filter = QueryFilter::new();
        let batch = world.ray_cast_many(rays, &filter).unwrap();
        let mut hits = 0;
        for (row, ray) in rays.iter().enumerate() {
            let single = world.ray_cast(ray, &filter).unwrap();
            hits += usize::from(single.is_some());
            assert!(
                same_hit(batch[row], single),
                "{what} ray {row} {ray:?}: batch {:?}, single {single:?}",
                batch[row]
            );
        }
        hits
    }

    fn ray(origin: Vec2, direction: Vec2, max_distance: f32) -> Ray {
        Ray {
            origin,
            direction: direction.normalize(),
            max_distance,
        }
    }

    #[test]
    fn rays_on_cell_boundaries_and_corners_answer_as_single_queries() {
        let world = lattice();
        let grid = world.batch_grid();
        let (origin, cell) = (grid.origin, grid.cell_size);
        assert!(grid.columns > 4 && grid.rows > 4, "a grid of several cells");
        let corner = |column: usize, row: usize| {
            Vec2::new(
                (origin[0] + column as f64 * cell) as f32,
                (origin[1] + row as f64 * cell) as f32,
            )
        };
        let below = (origin[1] - 5.0) as f32;
        let left = (origin[0] - 5.0) as f32;
        let mut boundary_rays = Vec::new();
        for column in 0..=grid.columns {
            let x = corner(column, 0).x;
            boundary_rays.push(ray(Vec2::new(x, below), Vec2::Y, f32::INFINITY));
            boundary_rays.push(ray(Vec2::new(x, -below + 100.0), -Vec2::Y, 200.0));
        }
        for row in 0..=grid.rows {
            let y = corner(0, row).y;
            boundary_rays.push(ray(Vec2::new(left, y), Vec2::X, f32::INFINITY));
            boundary_rays.push(ray(Vec2::new(-left + 100.0, y), -Vec2::X, 200.0));
        }
        assert!(check(&world, &boundary_rays, "boundary") > 10);
        // From corners through corners: diagonals and a 1:2 slope, both ways.
        let mut corner_rays = Vec::new();
        for column in 0..grid.columns.min(grid.rows) {
            for direction in [
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 2.0),
                Vec2::new(2.0, 1.0),
            ] {
                corner_rays.push(ray(corner(column, 0), direction, f32::INFINITY));
                corner_rays.push(ray(corner(0, column), direction, 80.0));
                corner_rays.push(ray(corner(column, column), -direction, f32::INFINITY));
            }
        }
        assert!(check(&world, &corner_rays, "corner") > 10);
    }

    #[test]
    fn axis_parallel_outside_and_zero_length_rays_answer_as_single_queries() {
        let world = lattice();
        let mut rays = Vec::new();
        for k in 0..60 {
            let inside = Vec2::new(k as f32 * 0.97 - 1.0, (k * 37 % 60) as f32 * 0.95 - 1.0);
            for direction in [Vec2::X, -Vec2::X, Vec2::Y, -Vec2::Y] {
                rays.push(ray(inside, direction, 30.0));
                rays.push(ray(inside, direction, f32::INFINITY));
            }
            // From outside the grid, towards it and away from it.
            let angle = k as f32 * 0.2;
            let outside = Vec2::new(28.5, 28.5) + Vec2::from_angle(angle) * 60.0;
            rays.push(ray(outside, -Vec2::from_angle(angle + 0.05), f32::INFINITY));
            rays.push(ray(outside, -Vec2::from_angle(angle), 50.0));
            rays.push(ray(outside, Vec2::from_angle(angle), f32::INFINITY));
            // Zero length: inside a shape, on a lattice point, anywhere.
            rays.push(ray(inside, Vec2::from_angle(angle), 0.0));
            rays.push(ray(Vec2::new(3.0, 3.0 * (k % 20) as f32), Vec2::X, 0.0));
        }
        assert!(check(&world, &rays, "parallel, outside, zero") > 100);
    }

    #[test]
    fn rays_from_far_origins_end_and_answer_as_single_queries() {
        // From -3e38 a step of one cell did not move the march's f64 parameter (its spacing
        // there is 6.7e22): the march stood still, and `ray_cast_many` never returned; from
        // 1e12 it took the padded range (about 1e6) a cell at a time, a second a ray.
        let world = lattice();
        let mut rays = Vec::new();
        for magnitude in [4.0e9f32, 1.0e12, 1.0e20, 1.0e30, 3.0e38, f32::MAX] {
            for k in 0..12 {
                let towards = Vec2::from_angle(k as f32 * std::f32::consts::TAU / 12.0);
                let origin = Vec2::new(28.5, 28.5) - towards * magnitude;
                rays.push(ray(origin, towards, f32::INFINITY));
                rays.push(ray(
                    Vec2::new(origin.x, 28.5 + k as f32),
                    Vec2::X,
                    f32::INFINITY,
                ));
                rays.push(ray(
                    Vec2::new(-magnitude, 3.0 * k as f32),
                    Vec2::X,
                    f32::MAX,
                ));
                rays.push(ray(
                    Vec2::new(-magnitude, 200.0 + k as f32),
                    Vec2::X,
                    f32::INFINITY,
                ));
            }
        }
        check(&world, &rays, "far origins");
    }

    #[test]
    fn rays_ending_exactly_on_cell_boundaries_answer_as_single_queries() {
        let world = lattice();
        let grid = world.batch_grid();
        let (origin, cell) = (grid.origin, grid.cell_size);
        let mut rays = Vec::new();
        for k in 0..=grid.columns.max(grid.rows) {
            // The boundary coordinates as `f32`, and rays 7 long (an exact difference at
            // these magnitudes) ending on them from either side, along both axes.
            let x = (origin[0] + k as f64 * cell) as f32;
            let y = (origin[1] + k as f64 * cell) as f32;
            for lane in 0..12 {
                let across = lane as f32 * 4.9 + 0.3;
                let (along_x, along_y) = (origin[1] as f32 + across, origin[0] as f32 + across);
                rays.push(ray(Vec2::new(x - 7.0, along_x), Vec2::X, 7.0));
                rays.push(ray(Vec2::new(x + 7.0, along_x), -Vec2::X, 7.0));
                rays.push(ray(Vec2::new(along_y, y - 7.0), Vec2::Y, 7.0));
                rays.push(ray(Vec2::new(along_y, y + 7.0), -Vec2::Y, 7.0));
                // Slanted, ending on the corner (k, k) to within rounding.
                let corner = Vec2::new(x, y);
                let direction = Vec2::new(1.0, 0.5 + lane as f32 * 0.1).normalize();
                rays.push(Ray {
                    origin: corner - direction * 9.0,
                    direction,
                    max_distance: 9.0,
                });
            }
        }
        assert!(check(&world, &rays, "ending on a boundary") > 50);
    }

    /// A world of small discs (so the grid's cells are small) around two colliders under
    /// test, placed below them.
    fn with_filler(
        extra: impl FnOnce(&mut World) -> Vec<ColliderHandle>,
    ) -> (World, Vec<ColliderHandle>) {
        let mut world = World::new();
        let handles = extra(&mut world);
        for i in 0..40 {
            for j in 0..10 {
                let at = Vec2::new(i as f32 * 2.0 - 20.0, j as f32 * 2.0 - 40.0);
                world
                    .insert(
                        Collider::new(Shape::from(Circle::with_radius(0.4).unwrap()))
                            .with_transform(Transform::new(at, 0.0)),
                    )
                    .unwrap();
            }
        }
        (world, handles)
    }

    #[test]
    fn a_nearer_hit_in_a_later_cell_wins_over_a_box_seen_first() {
        // A bar turned 45° (box about 10 × 10, so over several cells) is reached by the ray's
        // box test long before its shape is; a disc between the box's entry and the bar's
        // surface is nearer, and one beyond the bar is farther.
        let bar = || {
            Collider::new(Shape::from(Polygon::rect(0.2, 14.0).unwrap()))
                .with_transform(Transform::new(Vec2::ZERO, -std::f32::consts::FRAC_PI_4))
        };
        let disc = |x: f32| {
            Collider::new(Shape::from(Circle::with_radius(0.5).unwrap()))
                .with_transform(Transform::new(Vec2::new(x, 4.0), 0.0))
        };
        for (disc_x, disc_wins) in [(0.0, true), (-3.0, true), (7.0, false)] {
            let (world, handles) = with_filler(|world| {
                vec![
                    world.insert(bar()).unwrap(),
                    world.insert(disc(disc_x)).unwrap(),
                ]
            });
            let grid = world.batch_grid();
            assert!(grid.cell_size < 4.0, "the bar's box covers several cells");
            // Enough rows for the grid: the same few rays again and again.
            let rays: Vec<Ray> = (0..60)
                .map(|k| match k % 3 {
                    0 => ray(Vec2::new(-8.0, 4.0), Vec2::X, f32::INFINITY),
                    1 => ray(Vec2::new(-8.0, 4.1), Vec2::X, 30.0),
                    _ => ray(Vec2::new(-8.0, 3.9), Vec2::new(1.0, 0.01), 30.0),
                })
                .collect();
            assert_eq!(check(&world, &rays, "later cell"), rays.len());
            let expected = if disc_wins { handles[1] } else { handles[0] };
            for hit in world.ray_cast_many(&rays, &QueryFilter::new()).unwrap() {
                assert_eq!(hit.unwrap().collider, expected, "disc at {disc_x}");
            }
        }
    }

    #[test]
    fn equal_distances_across_cells_go_to_the_smaller_handle() {
        // Two boxes share their left face at x = 10, so a ray along x hits both at exactly
        // 10: a short box in one or two cells, and a longer one over many cells (or so many
        // that it is tested by every ray), in either insertion order.
        let slab = |left: f32, width: f32| {
            Collider::new(Shape::from(Polygon::rect(width, 2.0).unwrap()))
                .with_transform(Transform::new(Vec2::new(left + width / 2.0, 0.0), 0.0))
        };
        for long_width in [3.0, 8.0, 30.0] {
            for long_first in [true, false] {
                let (world, handles) = with_filler(|world| {
                    let (short, long) = (slab(10.0, 1.0), slab(10.0, long_width));
                    if long_first {
                        vec![world.insert(long).unwrap(), world.insert(short).unwrap()]
                    } else {
                        vec![world.insert(short).unwrap(), world.insert(long).unwrap()]
                    }
                });
                let rays: Vec<Ray> = (0..30)
                    .flat_map(|k| {
                        let y = (k % 9) as f32 * 0.2 - 0.8;
                        [
                            ray(Vec2::new(0.0, y), Vec2::X, f32::INFINITY),
                            ray(Vec2::new(-5.0, y), Vec2::X, 15.0),
                        ]
                    })
                    .collect();
                let grid = world.batch_grid();
                let spanning = grid
                    .spanning
                    .iter()
                    .any(|&index| handles.contains(&grid.members[index as usize].handle));
                assert_eq!(
                    spanning,
                    long_width > 20.0,
                    "the longest box spans many cells"
                );
                assert_eq!(check(&world, &rays, "tie"), rays.len());
                for hit in world.ray_cast_many(&rays, &QueryFilter::new()).unwrap() {
                    let hit = hit.unwrap();
                    assert_eq!(hit.collider, handles[0].min(handles[1]));
                    assert_eq!(hit.point.x, 10.0);
                }
            }
        }
    }
}
