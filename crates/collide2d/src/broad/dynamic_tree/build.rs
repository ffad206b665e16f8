//! Bulk build: a binned surface-area-heuristic split, top-down.

use super::{DynamicTree, TreeNode, NULL_NODE};
use crate::broad::{BroadPhase, BroadPhaseError, ProxyId};
use crate::huge_pages;
use crate::math::Vec2;
use crate::shape::Aabb;

/// Most bins per split (Wald, *On fast Construction of SAH-based Bounding Volume
/// Hierarchies*, 2007, found 8 to 32 enough). A range of fewer items uses one bin per item, so
/// a split's fixed cost (clearing and sweeping the bins) stays in proportion to its items.
const BIN_COUNT: usize = 16;

/// One leaf waiting to be placed: 20 bytes, so that each split's two passes over a large range
/// read little memory (the centre is recomputed from the box, two additions and a product).
#[derive(Clone, Copy)]
struct BuildItem {
    fat: Aabb,
    proxy: u32,
}

impl BuildItem {
    #[inline]
    fn center(&self) -> Vec2 {
        self.fat.center()
    }
}

/// A range of items still to split, the bounds of their centres, and where to link the subtree
/// built from it.
struct BuildTask {
    start: usize,
    end: usize,
    centers: Aabb,
    parent: u32,
}

/// Where a split cut its range, with the bounds of each side's centres.
struct Split {
    middle: usize,
    first_centers: Aabb,
    second_centers: Aabb,
}

/// One bin of a split: how many centres fell in it and the union of their boxes.
#[derive(Clone, Copy)]
struct Bin {
    bounds: Aabb,
    count: usize,
}

impl Bin {
    const EMPTY: Bin = Bin {
        bounds: Aabb::EMPTY,
        count: 0,
    };
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
    /// 1. Collect one item per live proxy (its fat box), and the bounds of their centres.
    /// 2. Split ranges top-down: bin the centres along the longer axis of their bounds into
    ///    [`BIN_COUNT`] bins (fewer for a smaller range), sweep the bins from both sides to
    ///    price each plane as `perimeter(left) × count(left) + perimeter(right) × count(right)`,
    ///    and partition at the cheapest, measuring each side's centre bounds on the way.
    ///    Identical centres (or a split that leaves one side empty) split at the middle.
    /// 3. Nodes are created parent first; a final reverse sweep computes boxes and heights
    ///    bottom-up.
    fn rebuild_from_exact_boxes(&mut self, refatten: bool) {
        // 1. Items.
        let mut items: Vec<BuildItem> = Vec::with_capacity(self.proxies.len());
        let mut centers = Aabb::EMPTY;
        for slot in self.proxies.live_indices() {
            let tight = self.proxies.tight[slot as usize];
            let info = self.slot_info[slot as usize];
            let fat = if refatten || info.leaf == NULL_NODE {
                self.fatten(tight, Vec2::ZERO)
            } else {
                info.fat
            };
            centers = grow_to_point(centers, fat.center());
            items.push(BuildItem { fat, proxy: slot });
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
            centers,
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
                let split = split_items(&mut items[task.start..task.end], task.centers);
                let middle = task.start + split.middle;
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
                    centers: split.second_centers,
                    parent: node_index,
                });
                tasks.push(BuildTask {
                    start: task.start,
                    end: middle,
                    centers: split.first_centers,
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

/// Partitions `items`, whose centres lie in `centers`, for one split; returns where the second
/// half starts (always strictly inside the slice) and the bounds of both halves' centres.
fn split_items(items: &mut [BuildItem], centers: Aabb) -> Split {
    if items.len() == 2 {
        return Split {
            middle: 1,
            first_centers: point_box(items[0].center()),
            second_centers: point_box(items[1].center()),
        };
    }
    let spread = centers.max - centers.min;
    if spread.x >= spread.y {
        split_along::<0>(items, centers)
    } else {
        split_along::<1>(items, centers)
    }
}

/// A centre's coordinate on axis `AXIS` (0 for x, 1 for y).
#[inline(always)]
fn along<const AXIS: usize>(point: Vec2) -> f32 {
    if AXIS == 0 {
        point.x
    } else {
        point.y
    }
}

/// [`split_items`] along axis `AXIS` (the longer side of the centres' bounds), in two passes
/// over the items: one fills the bins (count and box union), one partitions at the cheapest
/// plane from both ends (Hoare's scheme, each misplaced pair swapped once) while gathering each
/// side's centre bounds, which the next splits start from.
fn split_along<const AXIS: usize>(items: &mut [BuildItem], centers: Aabb) -> Split {
    let count = items.len();
    let axis_min = along::<AXIS>(centers.min);
    let axis_spread = along::<AXIS>(centers.max) - axis_min;
    if axis_spread.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        // Every centre is the same point (or the bounds are not finite): halve.
        return split_at_middle(items);
    }
    let bin_count = count.min(BIN_COUNT);
    let scale = bin_count as f32 / axis_spread;
    if !scale.is_finite() {
        return split_at_middle(items);
    }
    // A centre's position in bins: in [0, bin_count] (centres lie within the bounds), and
    // finite (so are the bounds and the scale).
    let bin_position = |center: Vec2| (along::<AXIS>(center) - axis_min) * scale;
    let last_bin = bin_count as i32 - 1;

    // Fill the bins.
    let mut bins = [Bin::EMPTY; BIN_COUNT];
    for item in items.iter() {
        let bin = &mut bins[(bin_position(item.center()) as i32).min(last_bin) as usize];
        bin.count += 1;
        bin.bounds = bin.bounds.union(&item.fat);
    }

    // Sweep from the right: the cost of everything at or after each bin. An empty side costs
    // nothing (its box is empty, its count zero).
    let mut right_cost = [0.0f32; BIN_COUNT];
    let mut running = Bin::EMPTY;
    for bin in (1..bin_count).rev() {
        running.bounds = running.bounds.union(&bins[bin].bounds);
        running.count += bins[bin].count;
        right_cost[bin] = bin_cost(&running);
    }
    // Sweep from the left and pick the cheapest plane (between bin - 1 and bin) that leaves
    // items on both sides.
    let mut best_plane = 0usize;
    let mut best_cost = f32::INFINITY;
    let mut running = Bin::EMPTY;
    for bin in 1..bin_count {
        running.bounds = running.bounds.union(&bins[bin - 1].bounds);
        running.count += bins[bin - 1].count;
        if running.count == 0 || running.count == count {
            continue;
        }
        let cost = bin_cost(&running) + right_cost[bin];
        if cost < best_cost {
            best_cost = cost;
            best_plane = bin;
        }
    }
    if best_plane == 0 {
        return split_at_middle(items);
    }

    // Partition from both ends, gathering each side's centre bounds. A centre is binned at
    // `best_plane` or later exactly when its position is at least `best_plane` (the binning
    // rounds down, and the planes are below the last bin's clamp), so the test needs no
    // conversion.
    let plane = best_plane as f32;
    let mut first_centers = Aabb::EMPTY;
    let mut second_centers = Aabb::EMPTY;
    let mut low = 0;
    let mut high = count;
    loop {
        while low < high {
            let center = items[low].center();
            if bin_position(center) >= plane {
                break;
            }
            first_centers = grow_to_point(first_centers, center);
            low += 1;
        }
        while low < high {
            let center = items[high - 1].center();
            if bin_position(center) < plane {
                break;
            }
            second_centers = grow_to_point(second_centers, center);
            high -= 1;
        }
        if low == high {
            break;
        }
        // items[low] belongs to the second side and items[high - 1] to the first.
        items.swap(low, high - 1);
        first_centers = grow_to_point(first_centers, items[low].center());
        second_centers = grow_to_point(second_centers, items[high - 1].center());
        low += 1;
        high -= 1;
    }
    if low == 0 || low == count {
        split_at_middle(items)
    } else {
        Split {
            middle: low,
            first_centers,
            second_centers,
        }
    }
}

/// A split at the middle, for centres that binning cannot separate; measures both halves'
/// centre bounds.
fn split_at_middle(items: &[BuildItem]) -> Split {
    let middle = items.len() / 2;
    let bounds_of = |half: &[BuildItem]| {
        half.iter().fold(Aabb::EMPTY, |bounds, item| {
            grow_to_point(bounds, item.center())
        })
    };
    Split {
        middle,
        first_centers: bounds_of(&items[..middle]),
        second_centers: bounds_of(&items[middle..]),
    }
}

/// The surface-area-heuristic price of one side of a split: perimeter × count (0 when empty).
#[inline]
fn bin_cost(side: &Bin) -> f32 {
    if side.count == 0 {
        0.0
    } else {
        side.bounds.perimeter() * side.count as f32
    }
}

#[inline]
fn point_box(point: Vec2) -> Aabb {
    Aabb {
        min: point,
        max: point,
    }
}

#[inline]
fn grow_to_point(bounds: Aabb, point: Vec2) -> Aabb {
    Aabb {
        min: bounds.min.min(point),
        max: bounds.max.max(point),
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
