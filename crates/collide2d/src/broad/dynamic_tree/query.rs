//! Tree traversals: box and point queries, best-first ray cast, and self-overlap pair finding.

use std::collections::BinaryHeap;

#[cfg(feature = "rayon")]
use super::pairs::CompactTree;
use super::{DynamicTree, TreeNode, NULL_NODE};
use crate::broad::ray::{RayCandidate, RaySegment};
use crate::broad::{apply_ray_control, BroadPhaseError, ProxyId, RayControl, RayHit};
use crate::math::Vec2;
use crate::shape::Aabb;

/// Calls `visit(proxy)` for every leaf whose *fat* box overlaps `aabb`.
pub(super) fn visit_fat_leaves(
    nodes: &[TreeNode],
    root: u32,
    aabb: &Aabb,
    stack: &mut Vec<u32>,
    visit: &mut impl FnMut(u32),
) {
    if root == NULL_NODE {
        return;
    }
    stack.clear();
    stack.push(root);
    while let Some(index) = stack.pop() {
        let node = &nodes[index as usize];
        if !node.fat.overlaps(aabb) {
            continue;
        }
        if node.is_leaf() {
            visit(node.proxy);
        } else {
            stack.push(node.child_b);
            stack.push(node.child_a);
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
            (true, true) => report(node_first.proxy, node_second.proxy),
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
    /// Box query with a generic callback (no dynamic dispatch); see [`crate::broad::BroadPhase::query_aabb`].
    pub fn query_aabb_with(&self, aabb: Aabb, mut callback: impl FnMut(ProxyId, u64) -> bool) {
        if self.root == NULL_NODE || !aabb.is_valid() {
            return;
        }
        let mut stack = Vec::with_capacity(64);
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            if !node.pruning_box(&self.proxies.tight).overlaps(&aabb) {
                continue;
            }
            if node.is_leaf() {
                let slot = node.proxy;
                if !callback(self.proxies.id_of(slot), self.proxies.keys[slot as usize]) {
                    return;
                }
            } else {
                stack.push(node.child_b);
                stack.push(node.child_a);
            }
        }
    }

    /// Best-first ray cast; see [`crate::broad::BroadPhase::ray_cast`].
    ///
    /// 1. A min-heap holds nodes keyed by the ray's entry distance into their box (fat for
    ///    internal nodes, exact for leaves); a box's entry distance never exceeds that of any box
    ///    inside it, so a leaf popped from the heap is the nearest one left.
    /// 2. Popping a leaf reports it; popping an internal node pushes the children the ray enters
    ///    within the current limit, which the callback may lower.
    pub fn ray_cast_with(
        &self,
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
        callback: &mut dyn FnMut(RayHit) -> RayControl,
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
                let slot = node.proxy;
                let hit = RayHit {
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
