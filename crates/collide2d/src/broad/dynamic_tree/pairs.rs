//! Every overlapping pair from scratch: a self-overlap traversal over a compact copy of the tree
//! that stores both children's boxes in their parent.
//!
//! The copy is built for each pass, in depth-first order, with *exact* boxes: a leaf's exact box
//! and, for an internal node, the union of the exact boxes below it. These prune far better than
//! the fat boxes of the tree itself, and one node load gives the two boxes that are tested
//! against each other or against another node's two.

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

/// A unit of work: pairs inside compact node `first` (when `first == second`), or pairs between
/// the subtrees `first` and `second`, whose boxes are known to overlap. When one side is a leaf
/// it is `first`, and `first_box` is its exact box.
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
    /// Copies the tree under `root` (`None` when it has fewer than two leaves).
    ///
    /// 1. Depth-first, parents before children: give each internal node the next index, link it
    ///    from its parent, and store leaves' exact boxes in their parents.
    /// 2. Backwards (children before parents): fill each internal child's box with the union
    ///    of its own two boxes.
    pub fn new(nodes: &[TreeNode], tight: &[Aabb], root: u32) -> Option<CompactTree> {
        if root == NULL_NODE || nodes[root as usize].is_leaf() {
            return None;
        }
        let placeholder = CompactNode {
            boxes: [PackedBox(Vec4::ZERO); 2],
            children: [0; 2],
        };
        let mut compact = Vec::with_capacity(nodes.len() / 2 + 1);
        // 1. Links, parents first: (tree node, parent compact index, child position).
        let mut stack: Vec<(u32, u32, usize)> = Vec::with_capacity(64);
        stack.push((root, u32::MAX, 0));
        while let Some((index, parent, position)) = stack.pop() {
            let node = &nodes[index as usize];
            if node.is_leaf() {
                let parent_node: &mut CompactNode = &mut compact[parent as usize];
                parent_node.children[position] = LEAF | node.proxy;
                parent_node.boxes[position] = PackedBox::new(&tight[node.proxy as usize]);
                continue;
            }
            let own = compact.len() as u32;
            compact.push(placeholder);
            if parent != u32::MAX {
                compact[parent as usize].children[position] = own;
            }
            stack.push((node.child_b, own, 1));
            stack.push((node.child_a, own, 0));
        }
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

    /// The first task: every pair inside the root.
    pub fn root_task() -> PairTask {
        PairTask {
            first: 0,
            second: 0,
            first_box: PackedBox(Vec4::ZERO),
        }
    }

    /// Calls `report(first, second)` (slots) for each overlapping pair found by `task`, whose
    /// sub-tasks run depth first, in the order [`CompactTree::expand`] lists them.
    pub fn run(
        &self,
        task: PairTask,
        stack: &mut Vec<PairTask>,
        report: &mut impl FnMut(u32, u32),
    ) {
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
            let start = stack.len();
            self.push_subtasks(task, stack);
            stack[start..].reverse();
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

    /// Appends the sub-tasks of an internal task in the order they run.
    ///
    /// * Inside node n with children a, b: inside a, inside b, then between a and b if their
    ///   boxes overlap.
    /// * Between internal nodes x and y: each of the four child pairs whose boxes overlap, x's
    ///   first child first. A child pair with one leaf puts the leaf first.
    #[inline]
    fn push_subtasks(&self, task: PairTask, out: &mut Vec<PairTask>) {
        let first = &self.nodes[task.first as usize];
        if task.first == task.second {
            for position in 0..2 {
                let child = first.children[position];
                if child & LEAF == 0 {
                    out.push(PairTask {
                        first: child,
                        second: child,
                        first_box: first.boxes[position],
                    });
                }
            }
            if first.boxes[0].overlaps(first.boxes[1]) {
                out.push(between(
                    first.children[0],
                    first.boxes[0],
                    first.children[1],
                    first.boxes[1],
                ));
            }
            return;
        }
        let second = &self.nodes[task.second as usize];
        for first_position in 0..2 {
            for second_position in 0..2 {
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

    /// The sub-tasks of `task` in running order, or the task itself when it only has leaf work
    /// left (which [`CompactTree::run`] does without further tasks).
    #[cfg(feature = "rayon")]
    pub fn expand(&self, task: PairTask) -> Vec<PairTask> {
        if task.first & LEAF != 0 {
            return vec![task];
        }
        let mut out = Vec::new();
        self.push_subtasks(task, &mut out);
        out
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
