//! Ray casts through the grid: walk the cells the ray crosses, report boxes nearest first.

use std::collections::{BinaryHeap, HashSet};

use super::{CellKey, HashGrid, Placement, CELL_COORDINATE_LIMIT};
use crate::broad::ray::{RayCandidate, RaySegment};
use crate::broad::{apply_ray_control, BroadPhaseError, FxBuildHasher, ProxyRayHit, RayControl};
use crate::math::Vec2;
use crate::shape::Aabb;

impl HashGrid {
    /// Ray cast; see [`crate::broad::BroadPhase::ray_cast_each`].
    ///
    /// Cell walk of Amanatides and Woo (*A Fast Voxel Traversal Algorithm*, 1987), with a heap
    /// so that hits come out in order of entry distance:
    ///
    /// 1. Large boxes go straight into the heap.
    /// 2. Clip the ray to the occupied area grown by one empty cell on each side. If the walk
    ///    would cross many more cells than there are boxes, test every box instead.
    /// 3. Walk the cells in order. In each cell, push every unseen box the ray enters. A box is
    ///    registered in the cell holding its entry point, so once the walk has passed distance
    ///    `t`, every box entered before `t` is in the heap: report those (with a small tolerance
    ///    for rounding, and both side cells visited when the ray passes near a cell corner).
    /// 4. After the walk, report what is left in the heap.
    pub fn ray_cast_each(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        callback: &mut dyn FnMut(ProxyRayHit) -> RayControl,
    ) -> Result<(), BroadPhaseError> {
        let ray = RaySegment::new(origin, direction, max_distance)?;
        let mut limit = ray.max_distance;
        let mut heap: BinaryHeap<RayCandidate> = BinaryHeap::new();
        let mut report =
            |heap: &mut BinaryHeap<RayCandidate>, limit: &mut f32, up_to: f32| -> bool {
                while let Some(candidate) = heap.peek().copied() {
                    if candidate.distance > up_to || candidate.distance > *limit {
                        break;
                    }
                    heap.pop();
                    let hit = ProxyRayHit {
                        id: self.proxies.id_of(candidate.index),
                        key: self.proxies.keys[candidate.index as usize],
                        distance: candidate.distance,
                    };
                    match apply_ray_control(callback(hit), *limit) {
                        Some(new_limit) => *limit = new_limit,
                        None => return false,
                    }
                }
                true
            };

        // 1. Large boxes.
        for &slot in &self.large {
            if let Some(distance) = ray.entry_distance(&self.proxies.tight[slot as usize], limit) {
                heap.push(RayCandidate {
                    distance,
                    index: slot,
                });
            }
        }

        // 2. Clip to the occupied area.
        let walk = self.occupied.and_then(|occupied| {
            let margin = Vec2::splat(self.cell_size);
            let grown = Aabb {
                min: occupied.min - margin,
                max: occupied.max + margin,
            };
            let start = ray.entry_distance(&grown, limit)?;
            let end = exit_distance(&ray, &grown).min(limit);
            let start_cell = self.cell_of_point(ray.origin + ray.direction * start);
            let end_cell = self.cell_of_point(ray.origin + ray.direction * end);
            let crossed = (i64::from(end_cell.x) - i64::from(start_cell.x)).unsigned_abs()
                + (i64::from(end_cell.y) - i64::from(start_cell.y)).unsigned_abs()
                + 1;
            let far_away = grown.min.abs().max(grown.max.abs()).max_element()
                >= 0.5 * CELL_COORDINATE_LIMIT * self.cell_size;
            let too_long = crossed > 4 * (self.in_cells_count as u64 + 16);
            Some((
                start,
                end,
                start_cell,
                crossed,
                far_away || too_long || !end.is_finite(),
            ))
        });

        match walk {
            None => {}
            Some((_, _, _, _, true)) => {
                // Brute force: every box registered in cells.
                for (slot, placement) in self.placements.iter().enumerate() {
                    if matches!(placement, Placement::Cells(_)) {
                        if let Some(distance) = ray.entry_distance(&self.proxies.tight[slot], limit)
                        {
                            heap.push(RayCandidate {
                                distance,
                                index: slot as u32,
                            });
                        }
                    }
                }
            }
            Some((_, end, start_cell, crossed, false)) => {
                // 3. Walk.
                let mut seen: HashSet<u32, FxBuildHasher> = HashSet::default();
                let step_x = step_of(ray.direction.x);
                let step_y = step_of(ray.direction.y);
                let scale = ray.origin.abs().max_element() + self.cell_size;
                let mut cell = start_cell;
                let mut visit = |key: CellKey, heap: &mut BinaryHeap<RayCandidate>, limit: f32| {
                    if let Some(&cell_slot) = self.cell_of_key.get(&key) {
                        for entry in &self.cells[cell_slot as usize].entries {
                            if seen.insert(entry.proxy) {
                                if let Some(distance) = ray.entry_distance(&entry.tight, limit) {
                                    heap.push(RayCandidate {
                                        distance,
                                        index: entry.proxy,
                                    });
                                }
                            }
                        }
                    }
                };
                for _ in 0..(2 * crossed + 8) {
                    visit(cell, &mut heap, limit);
                    let next_x = self.boundary_distance(&ray, 0, cell.x, step_x);
                    let next_y = self.boundary_distance(&ray, 1, cell.y, step_y);
                    let cell_exit = next_x.min(next_y);
                    let tolerance = 1.0e-3 * self.cell_size + 1.0e-6 * (scale + cell_exit.abs());
                    if !report(&mut heap, &mut limit, cell_exit - tolerance) {
                        return Ok(());
                    }
                    if cell_exit > end.min(limit) {
                        break;
                    }
                    if (next_x - next_y).abs() <= tolerance {
                        // Near a corner: visit both side cells, then go diagonally.
                        visit(
                            CellKey {
                                x: cell.x + step_x,
                                y: cell.y,
                            },
                            &mut heap,
                            limit,
                        );
                        visit(
                            CellKey {
                                x: cell.x,
                                y: cell.y + step_y,
                            },
                            &mut heap,
                            limit,
                        );
                        cell.x += step_x;
                        cell.y += step_y;
                    } else if next_x < next_y {
                        cell.x += step_x;
                    } else {
                        cell.y += step_y;
                    }
                }
            }
        }

        // 4. The rest, in order.
        report(&mut heap, &mut limit, f32::INFINITY);
        Ok(())
    }

    /// Distance along the ray to the boundary that `cell` (on `axis`) is left through.
    #[inline]
    fn boundary_distance(&self, ray: &RaySegment, axis: usize, cell: i32, step: i32) -> f32 {
        if step == 0 {
            return f32::INFINITY;
        }
        let boundary_cell = if step > 0 { cell + 1 } else { cell };
        let boundary = boundary_cell as f32 * self.cell_size;
        (boundary - ray.origin[axis]) * ray.inverse_direction[axis]
    }
}

/// Which way the cell index moves along an axis.
#[inline]
fn step_of(direction: f32) -> i32 {
    if direction > 0.0 {
        1
    } else if direction < 0.0 {
        -1
    } else {
        0
    }
}

/// Distance at which the ray leaves `aabb` (the ray must enter it).
fn exit_distance(ray: &RaySegment, aabb: &Aabb) -> f32 {
    let mut exit = f32::INFINITY;
    for axis in 0..2 {
        if ray.direction[axis] == 0.0 {
            continue;
        }
        let to_min = (aabb.min[axis] - ray.origin[axis]) * ray.inverse_direction[axis];
        let to_max = (aabb.max[axis] - ray.origin[axis]) * ray.inverse_direction[axis];
        exit = exit.min(to_min.max(to_max));
    }
    exit
}
