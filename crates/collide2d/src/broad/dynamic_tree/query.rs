//! Tree traversals: box and point queries, best-first ray cast, and self-overlap pair finding.

use std::collections::BinaryHeap;

#[cfg(feature = "rayon")]
use super::pairs::CompactTree;
use super::{DynamicTree, TreeNode, NULL_NODE};
use crate::broad::ray::{RayCandidate, RaySegment};
use crate::broad::{apply_ray_control, BroadPhaseError, ProxyId, ProxyRayHit, RayControl};
use crate::math::Vec2;
use crate::prefetch::prefetch;
use crate::shape::Aabb;

/// How many queries [`fat_leaves_together`] walks in step.
pub(super) const QUERY_LANES: usize = 32;

/// Working memory of [`fat_leaves_together`], kept between calls: per lane a stack and the
/// leaves found.
#[derive(Clone, Debug, Default)]
pub(super) struct QueryLanes {
    stacks: Vec<Vec<u32>>,
    /// `found[i]`: the proxies whose fat boxes overlap the `i`-th box of the last call.
    pub found: Vec<Vec<u32>>,
}

/// For each of `boxes` (at most [`QUERY_LANES`]), the proxies whose *fat* boxes overlap it, into
/// `lanes.found` (each once, in an order fixed by the tree).
///
/// The walks go in step: each round takes one internal node per lane and tests both its
/// children, whose lines are first read for every lane in a loop whose loads do not wait on one
/// another. In a large tree whose nodes lie scattered in memory, a single walk waits for one
/// cache miss after another; here the lanes' misses of a round overlap, and a walk takes one
/// round a level.
pub(super) fn fat_leaves_together(
    nodes: &[TreeNode],
    root: u32,
    boxes: &[Aabb],
    lanes: &mut QueryLanes,
) {
    debug_assert!(boxes.len() <= QUERY_LANES);
    let count = boxes.len();
    lanes
        .stacks
        .resize_with(count.max(lanes.stacks.len()), Vec::new);
    lanes
        .found
        .resize_with(count.max(lanes.found.len()), Vec::new);
    let (stacks, found) = (&mut lanes.stacks[..count], &mut lanes.found[..count]);
    // The stacks hold internal nodes whose box overlaps the lane's box and whose children are
    // still to be tested.
    for ((stack, found), aabb) in stacks.iter_mut().zip(found.iter_mut()).zip(boxes) {
        stack.clear();
        found.clear();
        if root == NULL_NODE {
            continue;
        }
        enter(nodes, root, aabb, stack, found);
    }
    loop {
        // Ask ahead for both children of every lane's next node (that node itself was read
        // when it was tested).
        let mut active = false;
        for stack in stacks.iter() {
            if let Some(&index) = stack.last() {
                let node = &nodes[index as usize];
                prefetch(nodes, node.child_a as usize);
                prefetch(nodes, node.child_b as usize);
                active = true;
            }
        }
        if !active {
            return;
        }
        // Then one step of each walk: both children tested, the overlapping ones entered.
        for ((stack, found), aabb) in stacks.iter_mut().zip(found.iter_mut()).zip(boxes) {
            let Some(index) = stack.pop() else {
                continue;
            };
            let node = &nodes[index as usize];
            // The first child is pushed last, so that its subtree is walked first.
            enter(nodes, node.child_b, aabb, stack, found);
            enter(nodes, node.child_a, aabb, stack, found);
        }
    }
}

/// A depth-first walk's nodes still to visit. Each level of the walk leaves at most one
/// sibling waiting, so a tree of height `h` never needs more than `h + 1` entries.
trait NodeStack {
    fn push(&mut self, node: u32);
    fn pop(&mut self) -> Option<u32>;
}

/// The stack of a walk of a tree lower than [`ArrayStack::CAPACITY`]: on the call's own frame,
/// so a query allocates nothing.
struct ArrayStack {
    nodes: [u32; ArrayStack::CAPACITY],
    len: usize,
}

impl ArrayStack {
    /// Room for a walk of a tree of height up to 63 (a balanced tree of 2⁶³ leaves).
    const CAPACITY: usize = 64;
}

impl NodeStack for ArrayStack {
    #[inline(always)]
    fn push(&mut self, node: u32) {
        self.nodes[self.len] = node;
        self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        self.len = self.len.checked_sub(1)?;
        Some(self.nodes[self.len])
    }
}

impl NodeStack for Vec<u32> {
    #[inline(always)]
    fn push(&mut self, node: u32) {
        Vec::push(self, node);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<u32> {
        Vec::pop(self)
    }
}

/// One node met by a walk of [`fat_leaves_together`]: when its box overlaps `aabb`, a leaf is
/// reported and an internal node is pushed, its children to be tested in a later round.
#[inline]
fn enter(nodes: &[TreeNode], index: u32, aabb: &Aabb, stack: &mut Vec<u32>, found: &mut Vec<u32>) {
    let node = &nodes[index as usize];
    if node.fat.overlaps(aabb) {
        if node.is_leaf() {
            found.push(node.proxy());
        } else {
            stack.push(index);
        }
    }
}

/// Calls `visit(first, second)` (proxy slots) once for each pair of leaves whose *fat* boxes
/// overlap (the fat-partner lists; exact pairs from scratch go through
/// [`CompactTree`](super::pairs::CompactTree)).
///
/// Self-overlap traversal of the tree against itself (Ericson, *Real-Time Collision Detection*,
/// §6.5.2). Tasks live on an explicit stack, a task `(n, n)` meaning "pairs inside subtree n" and
/// `(x, y)` meaning "pairs between subtrees x and y":
///
/// 1. Inside `n` with children a, b: do inside a, then inside b, then between a and b.
/// 2. Between x and y: stop if their boxes are apart; report two leaves; otherwise split the
///    internal one with the larger perimeter (both children, first child first).
pub(super) fn for_each_fat_leaf_pair(
    nodes: &[TreeNode],
    root: u32,
    stack: &mut Vec<(u32, u32)>,
    report: &mut impl FnMut(u32, u32),
) {
    if root == NULL_NODE {
        return;
    }
    stack.clear();
    stack.push((root, root));
    while let Some((first, second)) = stack.pop() {
        let node_first = &nodes[first as usize];
        if first == second {
            // 1. Inside one subtree.
            if !node_first.is_leaf() {
                stack.push((node_first.child_a, node_first.child_b));
                stack.push((node_first.child_b, node_first.child_b));
                stack.push((node_first.child_a, node_first.child_a));
            }
            continue;
        }
        // 2. Between two subtrees.
        let node_second = &nodes[second as usize];
        if !node_first.fat.overlaps(&node_second.fat) {
            continue;
        }
        match (node_first.is_leaf(), node_second.is_leaf()) {
            (true, true) => report(node_first.proxy(), node_second.proxy()),
            (true, false) => {
                stack.push((first, node_second.child_b));
                stack.push((first, node_second.child_a));
            }
            (false, true) => {
                stack.push((node_first.child_b, second));
                stack.push((node_first.child_a, second));
            }
            (false, false) => {
                if node_first.fat.perimeter() >= node_second.fat.perimeter() {
                    stack.push((node_first.child_b, second));
                    stack.push((node_first.child_a, second));
                } else {
                    stack.push((first, node_second.child_b));
                    stack.push((first, node_second.child_a));
                }
            }
        }
    }
}

/// The exact-box pairs of the tree, found on all rayon threads, in exactly the order of the
/// serial pass ([`CompactTree::for_each_pair_below`] over all nodes, highest index first): the
/// nodes are cut into ranges, each range runs on a worker, and the results are concatenated
/// from the highest range down.
#[cfg(feature = "rayon")]
pub(super) fn collect_pairs_parallel(
    nodes: &[TreeNode],
    tight: &[Aabb],
    root: u32,
    leaf_count: usize,
) -> Vec<(u32, u32)> {
    use rayon::prelude::*;
    let Some(compact) = CompactTree::new(nodes, tight, root, leaf_count) else {
        return Vec::new();
    };
    let node_count = compact.node_count();
    let chunk_size = node_count
        .div_ceil(64 * rayon::current_num_threads().max(1))
        .max(256);
    let chunks: Vec<Vec<(u32, u32)>> = (0..node_count.div_ceil(chunk_size))
        .into_par_iter()
        .map(|chunk| {
            let end = node_count - chunk * chunk_size;
            let start = end.saturating_sub(chunk_size);
            let mut stack = Vec::new();
            let mut found = Vec::new();
            compact.for_each_pair_below(start..end, &mut stack, &mut |first, second| {
                found.push((first, second))
            });
            found
        })
        .collect();
    chunks.concat()
}

impl DynamicTree {
    /// Box query with a generic callback (no dynamic dispatch); see [`crate::broad::BroadPhase::overlap_aabb_each`].
    pub fn overlap_aabb_each(&self, aabb: Aabb, callback: impl FnMut(ProxyId, u64) -> bool) {
        if self.root == NULL_NODE || !aabb.is_valid() {
            return;
        }
        if (self.height() as usize) < ArrayStack::CAPACITY {
            let stack = ArrayStack {
                nodes: [0; ArrayStack::CAPACITY],
                len: 0,
            };
            self.walk_overlapping(aabb, stack, callback);
        } else {
            self.walk_overlapping(aabb, Vec::with_capacity(64), callback);
        }
    }

    /// The depth-first walk of [`overlap_aabb_each`](Self::overlap_aabb_each) on `stack`.
    #[inline(always)]
    fn walk_overlapping(
        &self,
        aabb: Aabb,
        mut stack: impl NodeStack,
        mut callback: impl FnMut(ProxyId, u64) -> bool,
    ) {
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            if !node.pruning_box(&self.proxies.tight).overlaps(&aabb) {
                continue;
            }
            if node.is_leaf() {
                let slot = node.proxy();
                if !callback(self.proxies.id_of(slot), self.proxies.keys[slot as usize]) {
                    return;
                }
            } else {
                stack.push(node.child_b);
                stack.push(node.child_a);
            }
        }
    }

    /// Best-first ray cast; see [`crate::broad::BroadPhase::ray_cast_each`].
    ///
    /// 1. A min-heap holds nodes keyed by the ray's entry distance into their box (fat for
    ///    internal nodes, exact for leaves); a box's entry distance never exceeds that of any box
    ///    inside it, so a leaf popped from the heap is the nearest one left.
    /// 2. Popping a leaf reports it; popping an internal node pushes the children the ray enters
    ///    within the current limit, which the callback may lower.
    pub fn ray_cast_each(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        callback: &mut dyn FnMut(ProxyRayHit) -> RayControl,
    ) -> Result<(), BroadPhaseError> {
        let ray = RaySegment::new(origin, direction, max_distance)?;
        if self.root == NULL_NODE {
            return Ok(());
        }
        let mut limit = ray.max_distance;
        let mut heap = BinaryHeap::new();
        let root = &self.nodes[self.root as usize];
        if let Some(distance) = ray.entry_distance(root.pruning_box(&self.proxies.tight), limit) {
            heap.push(RayCandidate {
                distance,
                index: self.root,
            });
        }
        while let Some(candidate) = heap.pop() {
            if candidate.distance > limit {
                break;
            }
            let node = &self.nodes[candidate.index as usize];
            if node.is_leaf() {
                // 2. Report.
                let slot = node.proxy();
                let hit = ProxyRayHit {
                    id: self.proxies.id_of(slot),
                    key: self.proxies.keys[slot as usize],
                    distance: candidate.distance,
                };
                match apply_ray_control(callback(hit), limit) {
                    Some(new_limit) => limit = new_limit,
                    None => return Ok(()),
                }
                continue;
            }
            for child in [node.child_a, node.child_b] {
                let child_node = &self.nodes[child as usize];
                if let Some(distance) =
                    ray.entry_distance(child_node.pruning_box(&self.proxies.tight), limit)
                {
                    heap.push(RayCandidate {
                        distance,
                        index: child,
                    });
                }
            }
        }
        Ok(())
    }

    /// Every overlapping pair found from scratch with all rayon threads: exactly the pairs and the
    /// order of [`for_each_pair`](crate::broad::BroadPhase::for_each_pair).
    #[cfg(feature = "rayon")]
    pub fn par_find_pairs(&self) -> Vec<crate::broad::Pair> {
        collect_pairs_parallel(
            &self.nodes,
            &self.proxies.tight,
            self.root,
            self.proxies.len(),
        )
        .into_iter()
        .map(|(first, second)| {
            crate::broad::Pair::new(self.proxies.id_of(first), self.proxies.id_of(second))
        })
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{fat_leaves_together, QueryLanes, QUERY_LANES};
    use crate::broad::{BroadPhase, DynamicTree};
    use crate::math::Vec2;
    use crate::shape::Aabb;
    use crate::test_numbers::Numbers;

    fn random_box(numbers: &mut Numbers, reach: f32, size: f32) -> Aabb {
        let min = Vec2::new(numbers.unit() * reach, numbers.unit() * reach);
        Aabb {
            min,
            max: min + Vec2::new(numbers.unit() * size, numbers.unit() * size),
        }
    }

    #[test]
    fn walks_in_step_find_what_testing_every_leaf_finds() {
        let mut numbers = Numbers(0x1f83_d9ab_fb41_bd6b);
        let mut lanes = QueryLanes::default();
        for (count, reach) in [(0, 10.0), (1, 10.0), (7, 3.0), (300, 40.0), (2000, 60.0)] {
            let mut tree = DynamicTree::new();
            let ids: Vec<_> = (0..count)
                .map(|key| {
                    tree.insert(random_box(&mut numbers, reach, 2.0), key)
                        .unwrap()
                })
                .collect();
            // Some moves and removals, so the tree is not only freshly inserted.
            for (i, &id) in ids.iter().enumerate() {
                match i % 5 {
                    0 => tree
                        .update(id, random_box(&mut numbers, reach, 2.0))
                        .unwrap(),
                    1 => tree.remove(id).unwrap(),
                    _ => {}
                }
            }
            let leaves: Vec<(u32, Aabb)> = tree
                .nodes
                .iter()
                .filter(|node| node.height == 0 && node.is_leaf())
                .map(|node| (node.proxy(), node.fat))
                .collect();
            for batch_size in [0, 1, 5, QUERY_LANES] {
                let boxes: Vec<Aabb> = (0..batch_size)
                    .map(|_| random_box(&mut numbers, reach, 6.0))
                    .collect();
                fat_leaves_together(&tree.nodes, tree.root, &boxes, &mut lanes);
                for (aabb, found) in boxes.iter().zip(&lanes.found) {
                    let mut found = found.clone();
                    found.sort_unstable();
                    let mut expected: Vec<u32> = leaves
                        .iter()
                        .filter(|(_, fat)| fat.overlaps(aabb))
                        .map(|&(proxy, _)| proxy)
                        .collect();
                    expected.sort_unstable();
                    assert_eq!(found, expected, "{count} leaves, batch of {batch_size}");
                }
            }
        }
    }
}
