//! Bulk build: a binned surface-area-heuristic split, top-down.

use super::{DynamicTree, TreeNode, NULL_NODE};
use crate::broad::{BroadPhase, BroadPhaseError, ProxyId};
use crate::huge_pages;
use crate::math::{Lanes, Vec2};
use crate::shape::Aabb;

/// Most bins per split (Wald, *On fast Construction of SAH-based Bounding Volume
/// Hierarchies*, 2007, found 8 to 32 enough). A range of fewer items uses one bin per item, so
/// a split's fixed cost (clearing and sweeping the bins) stays in proportion to its items.
const BIN_COUNT: usize = 16;

/// A box as four lanes `[min.x, min.y, −max.x, −max.y]`: the union of two boxes is then their
/// lane-wise minimum, one SIMD instruction where [`Aabb::union`] takes several, and it is the
/// same box (negation is exact). A point is the box `[x, y, −x, −y]`.
#[derive(Clone, Copy)]
struct LaneBox(Lanes);

impl LaneBox {
    /// The empty box, identity of [`LaneBox::union`].
    const EMPTY: LaneBox = LaneBox(Lanes([f32::INFINITY; 4]));

    #[inline(always)]
    fn from_aabb(aabb: &Aabb) -> LaneBox {
        LaneBox(Lanes([aabb.min.x, aabb.min.y, -aabb.max.x, -aabb.max.y]))
    }

    #[inline(always)]
    fn to_aabb(self) -> Aabb {
        let [min_x, min_y, negated_max_x, negated_max_y] = self.0 .0;
        Aabb {
            min: Vec2::new(min_x, min_y),
            max: Vec2::new(-negated_max_x, -negated_max_y),
        }
    }

    #[inline(always)]
    fn union(self, other: LaneBox) -> LaneBox {
        LaneBox(self.0.lesser(other.0))
    }

    /// The centre as a point box: `0.5 · (min + max)` on each axis, exactly as
    /// [`Aabb::center`] computes it (`min − (−max)` is `min + max`).
    #[inline(always)]
    fn center(self) -> LaneBox {
        let [min_x, min_y, negated_max_x, negated_max_y] = self.0 .0;
        let swapped = Lanes([negated_max_x, negated_max_y, min_x, min_y]);
        LaneBox((self.0 - swapped) * Lanes::splat(0.5))
    }

    /// The lower corner's coordinate on axis `AXIS` (0 for x, 1 for y); for a point box, the
    /// point's.
    #[inline(always)]
    fn min_along<const AXIS: usize>(self) -> f32 {
        self.0 .0[AXIS]
    }

    /// The perimeter, as [`Aabb::perimeter`] computes it (with both signs flipped, which is
    /// exact); `−∞` for the empty box.
    #[inline(always)]
    fn perimeter(self) -> f32 {
        let [min_x, min_y, negated_max_x, negated_max_y] = self.0 .0;
        -2.0 * ((min_x + negated_max_x) + (min_y + negated_max_y))
    }
}

/// One leaf waiting to be placed: its fat box and proxy slot, 20 bytes, so that each split's
/// two passes over a large range read little memory (the centre is recomputed from the box).
#[derive(Clone, Copy)]
struct BuildItem {
    fat: LaneBox,
    proxy: u32,
}

/// A range of items still to split, the bounds of their centres, and where to link the subtree
/// built from it.
struct BuildTask {
    start: usize,
    end: usize,
    centers: LaneBox,
    parent: u32,
}

/// Where a split cut its range, with the bounds of each side's centres.
struct Split {
    middle: usize,
    first_centers: LaneBox,
    second_centers: LaneBox,
}

/// One bin of a split: how many centres fell in it and the union of their boxes.
#[derive(Clone, Copy)]
struct Bin {
    bounds: LaneBox,
    count: usize,
}

impl Bin {
    const EMPTY: Bin = Bin {
        bounds: LaneBox::EMPTY,
        count: 0,
    };

    /// The surface-area-heuristic price of one side of a split: perimeter × count (0 when
    /// empty).
    #[inline(always)]
    fn cost(&self) -> f32 {
        if self.count == 0 {
            0.0
        } else {
            self.bounds.perimeter() * self.count as f32
        }
    }
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
        let mut tree = DynamicTree::with_margin(margin);
        let ids = tree.insert_many(items)?;
        Ok((tree, ids))
    }

    /// Inserts many boxes and returns their ids in input order. All or none: every box, and
    /// the room for all of them, is checked first; if one is refused, nothing changes.
    ///
    /// A batch at least as large as the tree already is (every batch into an empty tree) is
    /// placed by rebuilding the whole tree once with the binned build, which costs less than
    /// inserting the batch one box at a time and leaves a better tree; the proxies already there
    /// keep their ids, fat boxes and pairs, as with [`DynamicTree::rebuild`]. A smaller batch is
    /// inserted one box at a time. Either way the next [`update_pairs`](BroadPhase::update_pairs)
    /// reports the same pairs.
    pub fn insert_many(&mut self, items: &[(Aabb, u64)]) -> Result<Vec<ProxyId>, BroadPhaseError> {
        for (aabb, _) in items {
            crate::broad::check_aabb(*aabb)?;
        }
        self.check_room(items.len())?;
        self.proxies.reserve(items.len());
        if items.len() < self.proxies.len().max(1) {
            // Cannot fail: the boxes and the room were checked above.
            return items
                .iter()
                .map(|&(aabb, key)| self.insert(aabb, key))
                .collect();
        }
        let mut ids = Vec::with_capacity(items.len());
        for &(aabb, key) in items {
            // Cannot fail: the box was checked above.
            ids.push(self.proxies.allocate(aabb, key)?);
        }
        self.reserve_proxy_slots();
        for id in &ids {
            let slot = id.index() as usize;
            // A free slot's record names no leaf, so the rebuild fattens the new box.
            self.slot_info[slot].generation = id.generation();
            self.mark_fat_changed(slot);
            self.pairs.mark_moved(slot as u32);
        }
        self.rebuild_nodes();
        Ok(ids)
    }

    /// Rebuilds the whole tree with the binned SAH builder, keeping ids, fat boxes and pairs.
    ///
    /// Worth calling after many insertions, or when [`DynamicTree::area_ratio`] has grown.
    pub fn rebuild(&mut self) {
        self.rebuild_nodes();
    }

    /// Rebuilds the node array in depth-first order (good memory locality for traversals).
    /// A proxy without a leaf yet (just allocated) gets its fat box from its exact box; the
    /// others keep theirs.
    ///
    /// 1. Collect one item per live proxy (its fat box), and the bounds of their centres.
    /// 2. Split ranges top-down: bin the centres along the longer axis of their bounds into
    ///    [`BIN_COUNT`] bins (fewer for a smaller range), sweep the bins from both sides to
    ///    price each plane as `perimeter(left) × count(left) + perimeter(right) × count(right)`,
    ///    and partition at the cheapest, measuring each side's centre bounds on the way.
    ///    Identical centres (or a split that leaves one side empty) split at the middle.
    /// 3. Nodes are created parent first; a final reverse sweep computes boxes and heights
    ///    bottom-up.
    fn rebuild_nodes(&mut self) {
        // 1. Items.
        let mut items: Vec<BuildItem> = Vec::with_capacity(self.proxies.len());
        let mut centers = LaneBox::EMPTY;
        for slot in self.proxies.live_indices() {
            let tight = self.proxies.tight[slot as usize];
            let info = self.slot_info[slot as usize];
            let fat = if info.leaf == NULL_NODE {
                self.fatten(tight, Vec2::ZERO)
            } else {
                info.fat
            };
            let fat = LaneBox::from_aabb(&fat);
            centers = centers.union(fat.center());
            items.push(BuildItem { fat, proxy: slot });
        }
        self.nodes.clear();
        // Every leaf is placed afresh.
        self.unplaced.clear();
        huge_pages::reserve(&mut self.nodes, items.len().saturating_mul(2));
        self.free_node = NULL_NODE;
        self.free_node_count = 0;
        self.root = NULL_NODE;
        if items.is_empty() {
            return;
        }

        // 2. Split top-down.
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
                let fat = item.fat.to_aabb();
                self.nodes.push(TreeNode {
                    fat,
                    parent: task.parent,
                    child_a: NULL_NODE,
                    child_b: item.proxy,
                    height: 0,
                });
                let info = &mut self.slot_info[item.proxy as usize];
                info.fat = fat;
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

        // 3. Boxes and heights, children before parents (a child comes after its parent).
        for index in (0..self.nodes.len()).rev() {
            if !self.nodes[index].is_leaf() {
                self.refit_node(index as u32);
            }
        }
    }
}

/// Partitions `items`, whose centres lie in `centers`, for one split; returns where the second
/// half starts (always strictly inside the slice) and the bounds of both halves' centres.
fn split_items(items: &mut [BuildItem], centers: LaneBox) -> Split {
    if items.len() == 2 {
        return Split {
            middle: 1,
            first_centers: items[0].fat.center(),
            second_centers: items[1].fat.center(),
        };
    }
    let bounds = centers.to_aabb();
    let spread = bounds.max - bounds.min;
    if spread.x >= spread.y {
        split_along::<0>(items, bounds.min.x, spread.x)
    } else {
        split_along::<1>(items, bounds.min.y, spread.y)
    }
}

/// [`split_items`] along axis `AXIS` (the longer side of the centres' bounds, which start at
/// `axis_min` and span `axis_spread` on it), in two passes over the items: one fills the bins
/// (count and box union), one partitions at the cheapest plane from both ends (Hoare's scheme,
/// each misplaced pair swapped once) while gathering each side's centre bounds, which the next
/// splits start from.
fn split_along<const AXIS: usize>(
    items: &mut [BuildItem],
    axis_min: f32,
    axis_spread: f32,
) -> Split {
    let count = items.len();
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
    let bin_position = |center: LaneBox| (center.min_along::<AXIS>() - axis_min) * scale;
    let last_bin = bin_count as i32 - 1;

    // Fill the bins.
    let mut bins = [Bin::EMPTY; BIN_COUNT];
    for item in items.iter() {
        let position = bin_position(item.fat.center());
        let bin = &mut bins[(position as i32).min(last_bin) as usize];
        bin.count += 1;
        bin.bounds = bin.bounds.union(item.fat);
    }
    let bins = &bins[..bin_count];

    // Sweep from the right: the cost of everything at or after each bin.
    let mut right_cost = [0.0f32; BIN_COUNT];
    let mut running = Bin::EMPTY;
    for (bin, cost) in bins.iter().zip(right_cost.iter_mut()).skip(1).rev() {
        running.bounds = running.bounds.union(bin.bounds);
        running.count += bin.count;
        *cost = running.cost();
    }
    // Sweep from the left and pick the cheapest plane (between bin `plane - 1` and bin
    // `plane`) that leaves items on both sides.
    let mut best_plane = 0usize;
    let mut best_cost = f32::INFINITY;
    let mut running = Bin::EMPTY;
    for (plane, (bin, right)) in bins[..bin_count - 1]
        .iter()
        .zip(&right_cost[1..])
        .enumerate()
    {
        running.bounds = running.bounds.union(bin.bounds);
        running.count += bin.count;
        if running.count == 0 || running.count == count {
            continue;
        }
        let cost = running.cost() + right;
        if cost < best_cost {
            best_cost = cost;
            best_plane = plane + 1;
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
    let mut first_centers = LaneBox::EMPTY;
    let mut second_centers = LaneBox::EMPTY;
    let mut low = 0;
    let mut high = count;
    loop {
        while low < high {
            let center = items[low].fat.center();
            if bin_position(center) >= plane {
                break;
            }
            first_centers = first_centers.union(center);
            low += 1;
        }
        while low < high {
            let center = items[high - 1].fat.center();
            if bin_position(center) < plane {
                break;
            }
            second_centers = second_centers.union(center);
            high -= 1;
        }
        if low == high {
            break;
        }
        // items[low] belongs to the second side and items[high - 1] to the first.
        items.swap(low, high - 1);
        first_centers = first_centers.union(items[low].fat.center());
        second_centers = second_centers.union(items[high - 1].fat.center());
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
        half.iter().fold(LaneBox::EMPTY, |bounds, item| {
            bounds.union(item.fat.center())
        })
    };
    Split {
        middle,
        first_centers: bounds_of(&items[..middle]),
        second_centers: bounds_of(&items[middle..]),
    }
}
