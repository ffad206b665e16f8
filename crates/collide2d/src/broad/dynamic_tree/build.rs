//! Bulk build: a binned surface-area-heuristic split, top-down.

use super::{DynamicTree, TreeNode, NULL_NODE};
use crate::broad::{BroadPhase, BroadPhaseError, ProxyId};
use crate::huge_pages;
use crate::math::Vec2;
use crate::shape::Aabb;

/// Number of bins per split (Wald, *On fast Construction of SAH-based Bounding Volume
/// Hierarchies*, 2007, found 8 to 32 enough).
const BIN_COUNT: usize = 16;

/// One leaf waiting to be placed.
#[derive(Clone, Copy)]
struct BuildItem {
    center: Vec2,
    fat: Aabb,
    proxy: u32,
}

/// A range of items still to split, and where to link the subtree built from it.
struct BuildTask {
    start: usize,
    end: usize,
    parent: u32,
}

impl DynamicTree {
    /// Builds a tree from many boxes at once (much faster than inserting one by one, and a
    /// better tree). Returns the ids in input order. Fails on the first invalid box, building nothing.
    pub fn build(items: &[(Aabb, u64)]) -> Result<(DynamicTree, Vec<ProxyId>), BroadPhaseError> {
        DynamicTree::build_with_margin(DynamicTree::new().margin, items)
    }

    /// [`DynamicTree::build`] with a chosen fat-box margin.
    pub fn build_with_margin(
        margin: f32,
        items: &[(Aabb, u64)],
    ) -> Result<(DynamicTree, Vec<ProxyId>), BroadPhaseError> {
        for (aabb, _) in items {
            crate::broad::check_aabb(*aabb)?;
        }
        let mut tree = DynamicTree::with_margin(margin);
        tree.check_room(items.len())?;
        let mut ids = Vec::with_capacity(items.len());
        tree.proxies.reserve(items.len());
        for &(aabb, key) in items {
            ids.push(tree.proxies.allocate(aabb, key)?);
        }
        tree.reserve_proxy_slots();
        for id in &ids {
            let slot = id.index() as usize;
            tree.slot_info[slot].generation = id.generation();
            tree.mark_fat_changed(slot);
            tree.pairs.mark_moved(slot as u32);
        }
        // Fat boxes are set by rebuild from the exact boxes.
        tree.rebuild_from_exact_boxes(true);
        Ok((tree, ids))
    }

    /// Rebuilds the whole tree with the binned SAH builder, keeping ids, fat boxes and pairs.
    ///
    /// Worth calling after many insertions, or when [`DynamicTree::area_ratio`] has grown.
    pub fn rebuild(&mut self) {
        self.rebuild_from_exact_boxes(false);
    }

    /// Rebuilds the node array in depth-first order (good memory locality for traversals).
    /// With `refatten`, every fat box is recomputed from the exact box.
    ///
    /// 1. Collect one item per live proxy (fat box and its centre).
    /// 2. Split ranges top-down: bin the centres along the longer axis of their bounds into
    ///    [`BIN_COUNT`] bins, sweep the bins from both sides to price each of the 15 planes as
    ///    `perimeter(left) × count(left) + perimeter(right) × count(right)`, and partition at the
    ///    cheapest. Identical centres (or a split that leaves one side empty) split at the middle.
    /// 3. Nodes are created parent first; a final reverse sweep computes boxes and heights
    ///    bottom-up.
    fn rebuild_from_exact_boxes(&mut self, refatten: bool) {
        // 1. Items.
        let mut items: Vec<BuildItem> = Vec::with_capacity(self.proxies.len());
        for slot in self.proxies.live_indices() {
            let tight = self.proxies.tight[slot as usize];
            let info = self.slot_info[slot as usize];
            let fat = if refatten || info.leaf == NULL_NODE {
                self.fatten(tight, Vec2::ZERO)
            } else {
                info.fat
            };
            items.push(BuildItem {
                center: fat.center(),
                fat,
                proxy: slot,
            });
        }
        self.nodes.clear();
        huge_pages::reserve(&mut self.nodes, items.len().saturating_mul(2));
        self.free_node = NULL_NODE;
        self.free_node_count = 0;
        self.root = NULL_NODE;
        if items.is_empty() {
            return;
        }

        // 2. Split top-down.
        let mut internal_nodes: Vec<u32> = Vec::with_capacity(items.len());
        let mut tasks = vec![BuildTask {
            start: 0,
            end: items.len(),
            parent: NULL_NODE,
        }];
        while let Some(task) = tasks.pop() {
            let node_index = self.nodes.len() as u32;
            if task.end - task.start == 1 {
                let item = items[task.start];
                self.nodes.push(TreeNode {
                    fat: item.fat,
                    parent: task.parent,
                    child_a: NULL_NODE,
                    child_b: item.proxy,
                    height: 0,
                });
                let info = &mut self.slot_info[item.proxy as usize];
                info.fat = item.fat;
                info.leaf = node_index;
            } else {
                let middle = split_items(&mut items[task.start..task.end]) + task.start;
                self.nodes.push(TreeNode {
                    fat: Aabb::default(),
                    parent: task.parent,
                    child_a: NULL_NODE,
                    child_b: NULL_NODE,
                    height: 0,
                });
                internal_nodes.push(node_index);
                tasks.push(BuildTask {
                    start: middle,
                    end: task.end,
                    parent: node_index,
                });
                tasks.push(BuildTask {
                    start: task.start,
                    end: middle,
                    parent: node_index,
                });
            }
            if task.parent == NULL_NODE {
                self.root = node_index;
            } else {
                let parent = &mut self.nodes[task.parent as usize];
                if parent.child_a == NULL_NODE {
                    parent.child_a = node_index;
                } else {
                    parent.child_b = node_index;
                }
            }
        }

        // 3. Boxes and heights, children before parents.
        for &index in internal_nodes.iter().rev() {
            self.refit_node(index);
        }
        if refatten {
            for item in &items {
                self.mark_fat_changed(item.proxy as usize);
            }
        }
    }
}

/// Partitions `items` for one split and returns the index where the second half starts
/// (always strictly inside the slice).
fn split_items(items: &mut [BuildItem]) -> usize {
    let count = items.len();
    let middle = count / 2;
    let mut center_min = Vec2::splat(f32::INFINITY);
    let mut center_max = Vec2::splat(f32::NEG_INFINITY);
    for item in items.iter() {
        center_min = center_min.min(item.center);
        center_max = center_max.max(item.center);
    }
    let spread = center_max - center_min;
    let axis = if spread.x >= spread.y { 0 } else { 1 };
    let axis_min = center_min[axis];
    let axis_spread = spread[axis];
    if axis_spread.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
        || !axis_spread.is_finite()
    {
        return middle;
    }
    let scale = BIN_COUNT as f32 / axis_spread;
    let bin_of = |item: &BuildItem| -> usize {
        (((item.center[axis] - axis_min) * scale) as usize).min(BIN_COUNT - 1)
    };

    // Fill bins.
    let mut bin_boxes = [None::<Aabb>; BIN_COUNT];
    let mut bin_counts = [0usize; BIN_COUNT];
    for item in items.iter() {
        let bin = bin_of(item);
        bin_counts[bin] += 1;
        bin_boxes[bin] = Some(match bin_boxes[bin] {
            Some(existing) => existing.union(&item.fat),
            None => item.fat,
        });
    }

    // Sweep from the right: cost of everything at or after each bin.
    let mut right_cost = [0.0f32; BIN_COUNT];
    let mut running_box: Option<Aabb> = None;
    let mut running_count = 0usize;
    for bin in (1..BIN_COUNT).rev() {
        if let Some(bin_box) = bin_boxes[bin] {
            running_box = Some(running_box.map_or(bin_box, |b| b.union(&bin_box)));
        }
        running_count += bin_counts[bin];
        right_cost[bin] = running_box.map_or(0.0, |b| b.perimeter()) * running_count as f32;
    }
    // Sweep from the left and pick the cheapest plane (between bin - 1 and bin).
    let mut best_plane = 0usize;
    let mut best_cost = f32::INFINITY;
    let mut running_box: Option<Aabb> = None;
    let mut running_count = 0usize;
    for bin in 1..BIN_COUNT {
        if let Some(bin_box) = bin_boxes[bin - 1] {
            running_box = Some(running_box.map_or(bin_box, |b| b.union(&bin_box)));
        }
        running_count += bin_counts[bin - 1];
        if running_count == 0 || running_count == count {
            continue;
        }
        let cost =
            running_box.map_or(0.0, |b| b.perimeter()) * running_count as f32 + right_cost[bin];
        if cost < best_cost {
            best_cost = cost;
            best_plane = bin;
        }
    }
    if best_plane == 0 {
        return middle;
    }

    // Partition in place.
    let mut split = 0;
    for index in 0..count {
        if bin_of(&items[index]) < best_plane {
            items.swap(index, split);
            split += 1;
        }
    }
    if split == 0 || split == count {
        middle
    } else {
        split
    }
}

impl DynamicTree {
    /// Inserts many boxes one by one (keeps the existing tree), returning their ids in order.
    /// Prefer [`DynamicTree::build`] for a fresh scene.
    pub fn insert_many(&mut self, items: &[(Aabb, u64)]) -> Result<Vec<ProxyId>, BroadPhaseError> {
        for (aabb, _) in items {
            crate::broad::check_aabb(*aabb)?;
        }
        self.proxies.reserve(items.len());
        items
            .iter()
            .map(|&(aabb, key)| self.insert(aabb, key))
            .collect()
    }
}
