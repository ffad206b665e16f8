//! Every overlapping pair from scratch: a self-overlap traversal over a compact copy of the tree
//! that stores both children's boxes in their parent.
//!
//! The copy is built for each pass, top down, with *exact* boxes: a leaf's exact box and, for an
//! internal node, the union of the exact boxes below it. These prune far better than the fat
//! boxes of the tree itself, and one node load gives the two boxes that are tested against each
//! other or against another node's two.
//!
//! Each pair is found once, at the node where its two leaves part ways (Ericson, *Real-Time
//! Collision Detection*, §6.5.2, tree against itself): for every internal node whose two child
//! boxes overlap, descend both children together, expanding a task "between x and y" into the
//! (up to four) child pairs whose boxes overlap; a leaf against a subtree is a plain box query.
//! No task is ever pushed for "pairs inside a subtree": walking the nodes does that.

use glam::{Vec4, Vec4Swizzles};

use super::{TreeNode, NULL_NODE};
use crate::shape::Aabb;

/// Marks a child reference that names a proxy slot (a leaf) instead of a compact node.
const LEAF: u32 = 1 << 31;

/// A box as `(min.x, min.y, -max.x, -max.y)`: the union of two boxes is the lane-wise minimum,
/// and boxes `a`, `b` overlap (touching counts) exactly when `b.0 <= a.upper()` in every lane.
#[derive(Clone, Copy, Debug)]
pub(super) struct PackedBox(Vec4);

impl PackedBox {
    #[inline]
    pub fn new(aabb: &Aabb) -> PackedBox {
        PackedBox(Vec4::new(aabb.min.x, aabb.min.y, -aabb.max.x, -aabb.max.y))
    }

    /// `(max.x, max.y, -min.x, -min.y)`; negation is exact, so the test below is exactly
    /// [`Aabb::overlaps`].
    #[inline]
    fn upper(self) -> Vec4 {
        -self.0.zwxy()
    }

    #[inline]
    fn overlaps(self, other: PackedBox) -> bool {
        self.0.cmple(other.upper()).all()
    }

    #[inline]
    fn union(self, other: PackedBox) -> PackedBox {
        PackedBox(self.0.min(other.0))
    }
}

/// One internal node of the copy: its two children's boxes side by side, and the children:
/// a compact node index, or `LEAF | slot`.
#[derive(Clone, Copy, Debug)]
pub(super) struct CompactNode {
    boxes: [PackedBox; 2],
    children: [u32; 2],
}

/// A unit of work: the pairs between the subtrees `first` and `second` (child references),
/// whose boxes are known to overlap. When one side is a leaf it is `first`, and `first_box` is
/// its exact box.
#[derive(Clone, Copy, Debug)]
pub(super) struct PairTask {
    first: u32,
    second: u32,
    first_box: PackedBox,
}

/// The compact copy of a tree, ready for pair finding.
pub(super) struct CompactTree {
    nodes: Vec<CompactNode>,
}

impl CompactTree {
    /// Copies the tree under `root`, which has `leaf_count` leaves (`None` when fewer than two).
    ///
    /// 1. From the root down: give each internal node's internal children the next free
    ///    indices (so children always come after their parent, siblings side by side), link
    ///    them, and store leaf children's exact boxes in the parent.
    /// 2. Backwards (children before parents): fill each internal child's box with the union
    ///    of its own two boxes.
    pub fn new(
        nodes: &[TreeNode],
        tight: &[Aabb],
        root: u32,
        leaf_count: usize,
    ) -> Option<CompactTree> {
        if root == NULL_NODE || nodes[root as usize].is_leaf() || leaf_count < 2 {
            return None;
        }
        let placeholder = CompactNode {
            boxes: [PackedBox(Vec4::ZERO); 2],
            children: [0; 2],
        };
        let mut compact = vec![placeholder; leaf_count - 1];
        // 1. Links: (tree node, its compact index).
        let mut next_free = 1u32;
        let mut stack: Vec<(u32, u32)> = Vec::with_capacity(64);
        stack.push((root, 0));
        while let Some((index, own)) = stack.pop() {
            let node = &nodes[index as usize];
            let compact_node = &mut compact[own as usize];
            let first = link_child(compact_node, 0, node.child_a, nodes, tight, &mut next_free);
            let second = link_child(compact_node, 1, node.child_b, nodes, tight, &mut next_free);
            if let Some(child_index) = second {
                stack.push((node.child_b, child_index));
            }
            if let Some(child_index) = first {
                stack.push((node.child_a, child_index));
            }
        }
        debug_assert_eq!(next_free as usize, compact.len());
        // 2. Boxes, children first.
        for index in (0..compact.len()).rev() {
            for position in 0..2 {
                let child = compact[index].children[position];
                if child & LEAF == 0 {
                    let child_node = &compact[child as usize];
                    compact[index].boxes[position] = child_node.boxes[0].union(child_node.boxes[1]);
                }
            }
        }
        Some(CompactTree { nodes: compact })
    }

    /// Number of internal nodes: [`CompactTree::for_each_pair_below`] takes ranges of them.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Calls `report(first, second)` (slots) for each overlapping pair whose lowest common
    /// ancestor is one of the compact nodes `range`, taken from the highest index down: a pair
    /// is found exactly once, at the node where its two leaves part ways, by the task "between
    /// the node's two children". Over `0..node_count()` that is every pair.
    pub fn for_each_pair_below(
        &self,
        range: std::ops::Range<usize>,
        stack: &mut Vec<PairTask>,
        report: &mut impl FnMut(u32, u32),
    ) {
        for node in self.nodes[range].iter().rev() {
            if node.boxes[0].overlaps(node.boxes[1]) {
                let task = between(
                    node.children[0],
                    node.boxes[0],
                    node.children[1],
                    node.boxes[1],
                );
                self.run(task, stack, report);
            }
        }
    }

    /// Runs one task between two subtrees and all its sub-tasks, depth first, in the order
    /// [`CompactTree::push_subtasks`] gives them.
    fn run(&self, task: PairTask, stack: &mut Vec<PairTask>, report: &mut impl FnMut(u32, u32)) {
        stack.clear();
        stack.push(task);
        while let Some(task) = stack.pop() {
            if task.first & LEAF != 0 {
                if task.second & LEAF != 0 {
                    report(task.first & !LEAF, task.second & !LEAF);
                } else {
                    self.leaf_against_subtree(
                        task.first_box,
                        task.first & !LEAF,
                        task.second,
                        stack.len(),
                        stack,
                        report,
                    );
                }
                continue;
            }
            self.push_subtasks(task, stack);
        }
    }

    /// Reports the leaves under compact node `subtree` whose boxes overlap `leaf_box`, in
    /// depth-first order (first child first). Uses `stack` above `base` as scratch.
    fn leaf_against_subtree(
        &self,
        leaf_box: PackedBox,
        leaf: u32,
        subtree: u32,
        base: usize,
        stack: &mut Vec<PairTask>,
        report: &mut impl FnMut(u32, u32),
    ) {
        let mut pending = subtree;
        loop {
            let node = &self.nodes[pending as usize];
            let mut next = None;
            for position in 0..2 {
                if !leaf_box.overlaps(node.boxes[position]) {
                    continue;
                }
                let child = node.children[position];
                if child & LEAF != 0 {
                    report(leaf, child & !LEAF);
                } else if next.is_none() {
                    next = Some(child);
                } else {
                    // Scratch entry: only `first` (the subtree still to visit) is used.
                    stack.push(PairTask {
                        first: child,
                        second: child,
                        first_box: leaf_box,
                    });
                }
            }
            pending = match next {
                Some(child) => child,
                None if stack.len() > base => stack.pop().map_or(0, |task| task.first),
                None => return,
            };
        }
    }

    /// Pushes the sub-tasks of a task between internal nodes x and y so that they pop in
    /// running order: each of the four child pairs whose boxes overlap, x's first child first.
    #[inline]
    fn push_subtasks(&self, task: PairTask, out: &mut Vec<PairTask>) {
        let first = &self.nodes[task.first as usize];
        let second = &self.nodes[task.second as usize];
        for first_position in [1, 0] {
            for second_position in [1, 0] {
                let (first_box, second_box) =
                    (first.boxes[first_position], second.boxes[second_position]);
                if first_box.overlaps(second_box) {
                    out.push(between(
                        first.children[first_position],
                        first_box,
                        second.children[second_position],
                        second_box,
                    ));
                }
            }
        }
    }
}

/// Links tree node `child` as child `position` of `parent` in the copy: a leaf with its exact
/// box, or an internal node under the next free index (returned, its box is filled later).
#[inline(always)]
fn link_child(
    parent: &mut CompactNode,
    position: usize,
    child: u32,
    nodes: &[TreeNode],
    tight: &[Aabb],
    next_free: &mut u32,
) -> Option<u32> {
    let child_node = &nodes[child as usize];
    if child_node.is_leaf() {
        parent.children[position] = LEAF | child_node.proxy();
        parent.boxes[position] = PackedBox::new(&tight[child_node.proxy() as usize]);
        None
    } else {
        let index = *next_free;
        *next_free += 1;
        parent.children[position] = index;
        Some(index)
    }
}

/// The task for two overlapping subtrees, a leaf (if any) first.
#[inline]
fn between(first: u32, first_box: PackedBox, second: u32, second_box: PackedBox) -> PairTask {
    if second & LEAF != 0 && first & LEAF == 0 {
        PairTask {
            first: second,
            second: first,
            first_box: second_box,
        }
    } else {
        PairTask {
            first,
            second,
            first_box,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::broad::{BroadPhase, DynamicTree, Pair};
    use crate::math::Vec2;
    use crate::shape::Aabb;

    fn brute_force(tree: &DynamicTree, ids: &[crate::broad::ProxyId]) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for (position, &first) in ids.iter().enumerate() {
            for &second in &ids[position + 1..] {
                if tree
                    .get_aabb(first)
                    .unwrap()
                    .overlaps(&tree.get_aabb(second).unwrap())
                {
                    pairs.push(Pair::new(first, second));
                }
            }
        }
        pairs.sort_unstable();
        pairs
    }

    #[test]
    fn touching_and_identical_boxes_in_an_incremental_tree_pair_exactly_once() {
        let mut tree = DynamicTree::new();
        let mut ids = Vec::new();
        // A row of unit boxes that only touch, a stack of identical boxes, and a far one.
        for column in 0..40 {
            let min = Vec2::new(column as f32, 0.0);
            ids.push(
                tree.insert(
                    Aabb {
                        min,
                        max: min + Vec2::ONE,
                    },
                    0,
                )
                .unwrap(),
            );
        }
        for _ in 0..12 {
            let min = Vec2::new(5.5, 0.5);
            ids.push(
                tree.insert(
                    Aabb {
                        min,
                        max: min + Vec2::ONE,
                    },
                    1,
                )
                .unwrap(),
            );
        }
        let far = Vec2::splat(1.0e5);
        ids.push(
            tree.insert(
                Aabb {
                    min: far,
                    max: far + Vec2::ONE,
                },
                2,
            )
            .unwrap(),
        );
        tree.validate().unwrap();
        assert_eq!(tree.find_pairs(), brute_force(&tree, &ids));
    }

    #[test]
    fn fewer_than_two_boxes_have_no_pairs() {
        let mut tree = DynamicTree::new();
        assert!(tree.find_pairs().is_empty());
        tree.insert(
            Aabb {
                min: Vec2::ZERO,
                max: Vec2::ONE,
            },
            0,
        )
        .unwrap();
        assert!(tree.find_pairs().is_empty());
    }
}
