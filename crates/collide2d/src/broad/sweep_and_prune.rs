//! Sweep and prune on the x axis: boxes kept sorted by their left edge.

use crate::broad::pairs::dense_pairs::DensePairs;
use crate::broad::pairs::pair_tracker::{CandidateSource, PairTracker};
use crate::broad::proxy_table::ProxyTable;
use crate::broad::ray::{RayCandidate, RaySegment};
use crate::broad::{
    apply_ray_control, check_aabb, BroadPhase, BroadPhaseError, Pair, PairChanges, ProxyId,
    ProxyRayHit, RayControl,
};
use crate::math::Vec2;
use crate::shape::Aabb;

/// One box in the sorted array.
#[derive(Clone, Copy, Debug)]
struct SweepEntry {
    tight: Aabb,
    proxy: u32,
}

impl SweepEntry {
    /// Sort key: left edge, then slot (a total order, so every entry can be found by bisection).
    #[inline]
    fn precedes(&self, other: &SweepEntry) -> bool {
        match self.tight.min.x.total_cmp(&other.tight.min.x) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => self.proxy < other.proxy,
        }
    }
}

/// Sweep and prune (Baraff 1992; Cohen et al., *I-COLLIDE*, 1995) on one axis.
///
/// Boxes are kept in an array sorted by `min.x` (then slot). An update moves the entry with
/// insertion sort, which costs the number of entries it passes: tiny for small motions (nearly
/// sorted data). Boxes overlapping a query are those whose left edge lies in
/// `[query.min.x − widest, query.max.x]`, where `widest` bounds every box's width.
///
/// Pairs from scratch sweep the array once. `update_pairs` queries each moved box. Rays test the
/// boxes under the ray's x extent. Inserting or removing one box shifts the array (O(n)); use
/// [`SweepAndPrune::build`] or [`SweepAndPrune::insert_many`] (one merge) for many boxes at once,
/// and [`SweepAndPrune::remove_many`] (one compaction) to remove many. A few very wide boxes make every query scan
/// more: prefer the tree or the grid for such scenes.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    entries: Vec<SweepEntry>,
    proxies: ProxyTable,
    widest: f32,
    pairs: PairTracker,
}

impl SweepAndPrune {
    /// An empty structure.
    pub fn new() -> SweepAndPrune {
        SweepAndPrune::default()
    }

    /// A structure holding all `items`, sorted once. Returns the ids in input order; fails on
    /// the first invalid box, building nothing.
    pub fn build(items: &[(Aabb, u64)]) -> Result<(SweepAndPrune, Vec<ProxyId>), BroadPhaseError> {
        let mut sweep = SweepAndPrune::new();
        let ids = sweep.insert_many(items)?;
        Ok((sweep, ids))
    }

    /// Inserts many boxes and returns their ids in input order (the ids one `insert` at a time
    /// would hand out). All or none: every box is checked first; if one is refused, nothing
    /// changes.
    ///
    /// The new entries are sorted among themselves and merged into the array from its end in
    /// one pass, `O(n + k log k)` for `k` boxes into `n`, where `k` single inserts shift the
    /// array `k` times, `O(k · n)`.
    pub fn insert_many(&mut self, items: &[(Aabb, u64)]) -> Result<Vec<ProxyId>, BroadPhaseError> {
        for (aabb, _) in items {
            check_aabb(*aabb)?;
        }
        self.proxies.reserve(items.len());
        let mut ids = Vec::with_capacity(items.len());
        let mut new_entries = Vec::with_capacity(items.len());
        for &(aabb, key) in items {
            // Cannot fail: the box was checked above.
            let id = self.proxies.allocate(aabb, key)?;
            new_entries.push(SweepEntry {
                tight: aabb,
                proxy: id.index(),
            });
            self.widest = self.widest.max(aabb.max.x - aabb.min.x);
            self.pairs.mark_moved(id.index());
            ids.push(id);
        }
        new_entries.sort_unstable_by(|first, second| {
            first
                .tight
                .min
                .x
                .total_cmp(&second.tight.min.x)
                .then(first.proxy.cmp(&second.proxy))
        });
        self.merge_sorted(&new_entries);
        Ok(ids)
    }

    /// Removes many proxies: the same as `remove` on each id in order. All or none: every id
    /// is checked first, and a stale id (or one named twice) is refused, changing nothing.
    ///
    /// The array is compacted once, `O(n)`, where `k` single removals shift it `k` times.
    pub fn remove_many(&mut self, ids: &[ProxyId]) -> Result<(), BroadPhaseError> {
        let mut leaving = vec![false; self.proxies.slot_count()];
        for &id in ids {
            let slot = self.proxies.resolve(id)?;
            if std::mem::replace(&mut leaving[slot], true) {
                return Err(BroadPhaseError::StaleProxy { id });
            }
        }
        self.entries.retain(|entry| !leaving[entry.proxy as usize]);
        let mut widest_left = false;
        for id in ids {
            let slot = id.index();
            let old = self.proxies.tight[slot as usize];
            widest_left |= old.max.x - old.min.x >= self.widest;
            self.pairs.proxy_removed(slot, &self.proxies);
            self.proxies.release(slot);
        }
        if widest_left {
            self.recompute_widest();
        }
        Ok(())
    }

    /// Merges sorted entries into the sorted array, from the back: each step writes the later
    /// of the two last unplaced entries into the last free place, so no entry moves twice and
    /// the old entries before the first new one never move.
    fn merge_sorted(&mut self, new_entries: &[SweepEntry]) {
        let mut old_end = self.entries.len();
        let mut new_end = new_entries.len();
        self.entries.extend_from_slice(new_entries);
        let mut write = self.entries.len();
        while new_end > 0 {
            write -= 1;
            let new_entry = new_entries[new_end - 1];
            if old_end > 0 && new_entry.precedes(&self.entries[old_end - 1]) {
                self.entries[write] = self.entries[old_end - 1];
                old_end -= 1;
            } else {
                self.entries[write] = new_entry;
                new_end -= 1;
            }
        }
    }

    /// Position of slot `slot` (with box `tight`) in the sorted array.
    fn position_of(&self, slot: u32, tight: &Aabb) -> usize {
        let probe = SweepEntry {
            tight: *tight,
            proxy: slot,
        };
        self.entries.partition_point(|entry| entry.precedes(&probe))
    }

    /// Recomputes the widest box after the widest one shrank or left.
    fn recompute_widest(&mut self) {
        self.widest = self
            .entries
            .iter()
            .map(|entry| entry.tight.max.x - entry.tight.min.x)
            .fold(0.0, f32::max);
    }

    /// The first array position whose box may overlap the x range `[min_x, max_x]`.
    #[inline]
    fn scan_start(&self, min_x: f32) -> usize {
        // Widened by a relative epsilon: `max.x - min.x` may round down.
        let lower = min_x - self.widest * (1.0 + 1.0e-5) - 1.0e-5 * min_x.abs();
        self.entries
            .partition_point(|entry| entry.tight.min.x < lower)
    }

    /// Calls `visit(slot)` for every box overlapping `aabb`, until it returns `false`.
    fn visit_overlapping_slots<F: FnMut(u32) -> bool>(&self, aabb: &Aabb, visit: &mut F) {
        for entry in &self.entries[self.scan_start(aabb.min.x)..] {
            if entry.tight.min.x > aabb.max.x {
                break;
            }
            if entry.tight.overlaps(aabb) && !visit(entry.proxy) {
                return;
            }
        }
    }

    /// Sweep over the array: each entry against the following entries that start before it ends.
    fn for_each_overlapping_slot_pair<F: FnMut(u32, u32)>(
        entries: &[SweepEntry],
        range: std::ops::Range<usize>,
        report: &mut F,
    ) {
        for position in range {
            let first = &entries[position];
            for second in &entries[position + 1..] {
                if second.tight.min.x > first.tight.max.x {
                    break;
                }
                if first.tight.min.y <= second.tight.max.y
                    && second.tight.min.y <= first.tight.max.y
                {
                    report(first.proxy, second.proxy);
                }
            }
        }
    }

    /// Every overlapping pair found from scratch with all rayon threads: exactly the pairs and the
    /// order of [`for_each_pair`](crate::broad::BroadPhase::for_each_pair).
    #[cfg(feature = "rayon")]
    pub fn par_find_pairs(&self) -> Vec<Pair> {
        use rayon::prelude::*;
        const CHUNK: usize = 1024;
        let chunk_count = self.entries.len().div_ceil(CHUNK);
        let chunks: Vec<Vec<Pair>> = (0..chunk_count)
            .into_par_iter()
            .map(|chunk| {
                let start = chunk * CHUNK;
                let end = (start + CHUNK).min(self.entries.len());
                let mut found = Vec::new();
                SweepAndPrune::for_each_overlapping_slot_pair(
                    &self.entries,
                    start..end,
                    &mut |first, second| {
                        found.push(Pair::new(
                            self.proxies.id_of(first),
                            self.proxies.id_of(second),
                        ))
                    },
                );
                found
            })
            .collect();
        chunks.concat()
    }

    /// Checks the invariants: array sorted by (left edge, slot), one entry per live proxy with
    /// its current box, `widest` bounds every width, pair lists symmetric.
    pub fn validate(&self) -> Result<(), String> {
        if self.entries.len() != self.proxies.len() {
            return Err(format!(
                "{} entries for {} proxies",
                self.entries.len(),
                self.proxies.len()
            ));
        }
        for window in self.entries.windows(2) {
            if !window[0].precedes(&window[1]) {
                return Err(format!(
                    "entries of {} and {} out of order",
                    window[0].proxy, window[1].proxy
                ));
            }
        }
        for entry in &self.entries {
            let slot = entry.proxy as usize;
            if !self.proxies.alive[slot] || self.proxies.tight[slot] != entry.tight {
                return Err(format!("entry of {slot} is dead or stale"));
            }
            if entry.tight.max.x - entry.tight.min.x > self.widest {
                return Err(format!("entry of {slot} is wider than the bound"));
            }
        }
        self.pairs.validate(&self.proxies)
    }
}

impl CandidateSource for SweepAndPrune {
    #[inline]
    fn for_each_candidate(&self, slot: u32, visit: &mut impl FnMut(u32)) {
        let tight = self.proxies.tight[slot as usize];
        self.visit_overlapping_slots(&tight, &mut |other| {
            visit(other);
            true
        });
    }
}

impl BroadPhase for SweepAndPrune {
    fn insert(&mut self, aabb: Aabb, key: u64) -> Result<ProxyId, BroadPhaseError> {
        let id = self.proxies.allocate(aabb, key)?;
        let position = self.position_of(id.index(), &aabb);
        self.entries.insert(
            position,
            SweepEntry {
                tight: aabb,
                proxy: id.index(),
            },
        );
        self.widest = self.widest.max(aabb.max.x - aabb.min.x);
        self.pairs.mark_moved(id.index());
        Ok(id)
    }

    /// Moves the entry to its new place by insertion sort (swaps with its neighbours).
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError> {
        let slot = self.proxies.resolve(id)?;
        let aabb = check_aabb(aabb)?;
        let old = self.proxies.tight[slot];
        let mut position = self.position_of(slot as u32, &old);
        self.proxies.tight[slot] = aabb;
        self.entries[position].tight = aabb;
        while position > 0 && self.entries[position].precedes(&self.entries[position - 1]) {
            self.entries.swap(position, position - 1);
            position -= 1;
        }
        while position + 1 < self.entries.len()
            && self.entries[position + 1].precedes(&self.entries[position])
        {
            self.entries.swap(position, position + 1);
            position += 1;
        }
        let old_width = old.max.x - old.min.x;
        let new_width = aabb.max.x - aabb.min.x;
        if new_width >= self.widest {
            self.widest = new_width;
        } else if old_width >= self.widest {
            self.recompute_widest();
        }
        self.pairs.mark_moved(slot as u32);
        Ok(())
    }

    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError> {
        let slot = self.proxies.resolve(id)?;
        let old = self.proxies.tight[slot];
        let position = self.position_of(slot as u32, &old);
        self.entries.remove(position);
        if old.max.x - old.min.x >= self.widest {
            self.recompute_widest();
        }
        self.pairs.proxy_removed(slot as u32, &self.proxies);
        self.proxies.release(slot as u32);
        Ok(())
    }

    proxy_table_lookups!();

    fn update_pairs(&mut self) -> &PairChanges {
        let mut tracker = std::mem::take(&mut self.pairs);
        let proxies = &self.proxies;
        if !tracker.refresh_from_scratch(proxies, || {
            DensePairs::of_sampled_boxes(proxies.dense_input())
        }) {
            tracker.refresh(proxies, &*self);
        }
        self.pairs = tracker;
        self.pairs.changes()
    }

    fn current_pairs(&self) -> Vec<Pair> {
        self.pairs.current_pairs(&self.proxies)
    }

    fn for_each_pair(&self, callback: &mut dyn FnMut(Pair)) {
        SweepAndPrune::for_each_overlapping_slot_pair(
            &self.entries,
            0..self.entries.len(),
            &mut |first, second| {
                callback(Pair::new(
                    self.proxies.id_of(first),
                    self.proxies.id_of(second),
                ))
            },
        );
    }

    fn overlap_aabb_each(&self, aabb: Aabb, callback: &mut dyn FnMut(ProxyId, u64) -> bool) {
        if !aabb.is_valid() {
            return;
        }
        self.visit_overlapping_slots(&aabb, &mut |slot| {
            callback(self.proxies.id_of(slot), self.proxies.keys[slot as usize])
        });
    }

    /// Tests the boxes under the ray's x extent, then reports the hits sorted by distance.
    fn ray_cast_each(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        callback: &mut dyn FnMut(ProxyRayHit) -> RayControl,
    ) -> Result<(), BroadPhaseError> {
        let ray = RaySegment::new(origin, direction, max_distance)?;
        let end_x = ray.origin.x + ray.direction.x * ray.max_distance;
        let (min_x, max_x) = if ray.direction.x == 0.0 {
            (ray.origin.x, ray.origin.x)
        } else if end_x.is_finite() {
            (ray.origin.x.min(end_x), ray.origin.x.max(end_x))
        } else if ray.direction.x > 0.0 {
            (ray.origin.x, f32::INFINITY)
        } else {
            (f32::NEG_INFINITY, ray.origin.x)
        };
        let start = if min_x.is_finite() {
            self.scan_start(min_x)
        } else {
            0
        };
        let mut hits: Vec<RayCandidate> = Vec::new();
        for entry in &self.entries[start..] {
            if entry.tight.min.x > max_x {
                break;
            }
            if let Some(distance) = ray.entry_distance(&entry.tight, ray.max_distance) {
                hits.push(RayCandidate {
                    distance,
                    index: entry.proxy,
                });
            }
        }
        // RayCandidate orders nearest last (it is built for a max-heap), so sort descending.
        hits.sort_unstable_by(|first, second| second.cmp(first));
        let mut limit = ray.max_distance;
        for candidate in hits {
            if candidate.distance > limit {
                break;
            }
            let hit = ProxyRayHit {
                id: self.proxies.id_of(candidate.index),
                key: self.proxies.keys[candidate.index as usize],
                distance: candidate.distance,
            };
            match apply_ray_control(callback(hit), limit) {
                Some(new_limit) => limit = new_limit,
                None => break,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(x0: f32, x1: f32) -> Aabb {
        Aabb {
            min: Vec2::new(x0, 0.0),
            max: Vec2::new(x1, 1.0),
        }
    }

    #[test]
    fn updates_keep_the_array_sorted() {
        let mut sweep = SweepAndPrune::new();
        let ids: Vec<ProxyId> = (0..6)
            .map(|i| sweep.insert(interval(i as f32, i as f32 + 0.5), i).unwrap())
            .collect();
        sweep.update(ids[0], interval(10.0, 10.5)).unwrap();
        sweep.update(ids[5], interval(-3.0, -2.0)).unwrap();
        sweep.validate().unwrap();
        let order: Vec<u32> = sweep.entries.iter().map(|entry| entry.proxy).collect();
        assert_eq!(order, vec![5, 1, 2, 3, 4, 0]);
    }

    #[test]
    fn widest_bound_shrinks_when_the_widest_box_leaves() {
        let mut sweep = SweepAndPrune::new();
        let wide = sweep.insert(interval(-50.0, 50.0), 0).unwrap();
        sweep.insert(interval(0.0, 2.0), 1).unwrap();
        assert_eq!(sweep.widest, 100.0);
        sweep.remove(wide).unwrap();
        assert_eq!(sweep.widest, 2.0);
        sweep.validate().unwrap();
    }

    #[test]
    fn sweep_reports_touching_intervals() {
        let (sweep, ids) = SweepAndPrune::build(&[
            (interval(0.0, 1.0), 0),
            (interval(1.0, 2.0), 1),
            (interval(2.5, 3.0), 2),
        ])
        .unwrap();
        assert_eq!(sweep.find_pairs(), vec![Pair::new(ids[0], ids[1])]);
    }
}
