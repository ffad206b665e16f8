//! Placing and removing leaves: perimeter-cost sibling search, node allocation, upward refit.

use super::{DynamicTree, TreeNode, FREE_HEIGHT, NULL_NODE};
use crate::huge_pages;
use crate::shape::Aabb;

impl DynamicTree {
    /// Takes a node from the free list (or grows the array).
    pub(super) fn allocate_node(&mut self, node: TreeNode) -> u32 {
        if self.free_node != NULL_NODE {
            let index = self.free_node;
            self.free_node = self.nodes[index as usize].parent;
            self.free_node_count -= 1;
            self.nodes[index as usize] = node;
            return index;
        }
        let index = u32::try_from(self.nodes.len()).expect("more than u32::MAX tree nodes");
        huge_pages::reserve(&mut self.nodes, 1);
        self.nodes.push(node);
        index
    }

    /// A detached leaf for proxy slot `proxy`.
    pub(super) fn allocate_leaf(&mut self, fat: Aabb, proxy: u32) -> u32 {
        self.allocate_node(TreeNode {
            fat,
            parent: NULL_NODE,
            child_a: NULL_NODE,
            child_b: proxy,
            height: 0,
        })
    }

    /// Returns a detached node to the free list.
    pub(super) fn free_node(&mut self, index: u32) {
        let node = &mut self.nodes[index as usize];
        node.height = FREE_HEIGHT;
        node.child_a = NULL_NODE;
        node.child_b = NULL_NODE;
        node.parent = self.free_node;
        self.free_node = index;
        self.free_node_count += 1;
    }

    /// The node that, paired with a new leaf of box `leaf_box`, adds the least total perimeter.
    ///
    /// Branch and bound over the perimeter cost (Bittner et al., *Fast Insertion-Based
    /// Optimization of Bounding Volume Hierarchies*, 2015; Catto, *Dynamic BVH*, GDC 2019):
    ///
    /// 1. Making node `N` the sibling costs `perimeter(N ∪ leaf)` for the new parent plus the
    ///    growth `perimeter(A ∪ leaf) − perimeter(A)` of every ancestor `A` (the inherited cost).
    /// 2. Going below `N` costs at least `perimeter(leaf)` plus the inherited cost including
    ///    `N`'s own growth: stop once that bound exceeds the best cost found.
    /// 3. Otherwise descend into the child with the lower estimated cost; on a tie take the
    ///    shorter child, which keeps runs of identical boxes balanced.
    ///
    /// The search covers the subtree of `start` (the root, or an ancestor whose box already
    /// holds `leaf_box`: then no node above it grows, whatever the choice below, so the costs
    /// inside the subtree are exact).
    pub(super) fn find_best_sibling(&self, start: u32, leaf_box: &Aabb) -> u32 {
        let leaf_perimeter = leaf_box.perimeter();
        let mut index = start;
        let start_box = &self.nodes[index as usize].fat;
        let mut best_sibling = index;
        let mut best_cost = start_box.union(leaf_box).perimeter();
        let mut inherited_cost = 0.0f32;
        loop {
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                break;
            }
            // 1. Cost of pairing with this node.
            let combined_perimeter = node.fat.union(leaf_box).perimeter();
            let direct_cost = combined_perimeter + inherited_cost;
            if direct_cost <= best_cost && index != start {
                best_cost = direct_cost;
                best_sibling = index;
            }
            // 2. Lower bound for anything below.
            let child_inherited = inherited_cost + combined_perimeter - node.fat.perimeter();
            if leaf_perimeter + child_inherited > best_cost {
                break;
            }
            // 3. Estimated cost of each child.
            let child_cost = |child: u32| -> f32 {
                let child_node = &self.nodes[child as usize];
                let combined = child_node.fat.union(leaf_box).perimeter();
                if child_node.is_leaf() {
                    combined + child_inherited
                } else {
                    combined - child_node.fat.perimeter() + leaf_perimeter + child_inherited
                }
            };
            let cost_a = child_cost(node.child_a);
            let cost_b = child_cost(node.child_b);
            let (child, cost) = if cost_a < cost_b
                || (cost_a == cost_b
                    && self.nodes[node.child_a as usize].height
                        <= self.nodes[node.child_b as usize].height)
            {
                (node.child_a, cost_a)
            } else {
                (node.child_b, cost_b)
            };
            let child_node = &self.nodes[child as usize];
            if child_node.is_leaf() {
                if cost <= best_cost {
                    best_sibling = child;
                }
                break;
            }
            inherited_cost = child_inherited;
            index = child;
        }
        best_sibling
    }

    /// Links a detached leaf into the tree beside the best sibling, then refits upwards.
    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        self.insert_leaf_below(leaf, self.root);
    }

    /// [`DynamicTree::insert_leaf`], the sibling searched for below `start` only: the root, or
    /// a node whose box holds the leaf's box.
    pub(super) fn insert_leaf_below(&mut self, leaf: u32, start: u32) {
        if self.root == NULL_NODE {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL_NODE;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].fat;
        debug_assert!(start == self.root || self.nodes[start as usize].fat.contains(&leaf_box));
        let sibling = self.find_best_sibling(start, &leaf_box);
        let sibling_node = self.nodes[sibling as usize];
        let old_parent = sibling_node.parent;
        let combined = sibling_node.fat.union(&leaf_box);
        let new_parent = self.allocate_node(TreeNode {
            fat: combined,
            parent: old_parent,
            child_a: sibling,
            child_b: leaf,
            height: sibling_node.height + 1,
        });
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL_NODE {
            self.root = new_parent;
        } else {
            self.replace_child(old_parent, sibling, new_parent);
        }
        self.rotate(new_parent);
        self.refit_node(new_parent);
        self.refit_upwards(old_parent);
    }

    /// Unlinks a leaf (left detached, not freed); its sibling takes the parent's place.
    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        self.remove_leaf_near(leaf);
    }

    /// [`DynamicTree::remove_leaf`], returning the node that took the removed parent's place
    /// (`NULL_NODE` when the leaf was the root): the place to start looking for where a leaf
    /// that moved a little belongs again.
    pub(super) fn remove_leaf_near(&mut self, leaf: u32) -> u32 {
        if leaf == self.root {
            self.root = NULL_NODE;
            return NULL_NODE;
        }
        let parent = self.nodes[leaf as usize].parent;
        let parent_node = self.nodes[parent as usize];
        let sibling = if parent_node.child_a == leaf {
            parent_node.child_b
        } else {
            parent_node.child_a
        };
        let grandparent = parent_node.parent;
        self.nodes[sibling as usize].parent = grandparent;
        self.nodes[leaf as usize].parent = NULL_NODE;
        self.free_node(parent);
        if grandparent == NULL_NODE {
            self.root = sibling;
        } else {
            self.replace_child(grandparent, parent, sibling);
            self.shrink_upwards(grandparent);
        }
        sibling
    }

    /// Moves a leaf whose fat box changed to `fat`: unlinks it, then searches for its new
    /// sibling below the lowest former ancestor whose box holds `fat` (the root when none
    /// does). A leaf that moved a little lands back in the same region, and the search touches
    /// only the few nodes around its old place instead of a path from the root.
    pub(super) fn move_leaf(&mut self, leaf: u32, fat: Aabb) {
        let mut start = self.remove_leaf_near(leaf);
        while start != NULL_NODE && !self.nodes[start as usize].fat.contains(&fat) {
            start = self.nodes[start as usize].parent;
        }
        self.nodes[leaf as usize].fat = fat;
        if start == NULL_NODE {
            start = self.root;
        }
        self.insert_leaf_below(leaf, start);
    }

    /// In `parent`, replaces the link to `old_child` by `new_child`.
    pub(super) fn replace_child(&mut self, parent: u32, old_child: u32, new_child: u32) {
        let node = &mut self.nodes[parent as usize];
        if node.child_a == old_child {
            node.child_a = new_child;
        } else {
            debug_assert_eq!(node.child_b, old_child);
            node.child_b = new_child;
        }
    }

    /// Recomputes box and height of `index` from its children.
    #[inline]
    pub(super) fn refit_node(&mut self, index: u32) {
        let node = self.nodes[index as usize];
        let child_a = &self.nodes[node.child_a as usize];
        let child_b = &self.nodes[node.child_b as usize];
        let fat = child_a.fat.union(&child_b.fat);
        let height = 1 + child_a.height.max(child_b.height);
        let node = &mut self.nodes[index as usize];
        node.fat = fat;
        node.height = height;
    }

    /// After a removal: refits from `index` towards the root without rotating, stopping as soon
    /// as a node's box and height come out unchanged (then no ancestor changes either).
    pub(super) fn shrink_upwards(&mut self, mut index: u32) {
        while index != NULL_NODE {
            let before = self.nodes[index as usize];
            self.refit_node(index);
            let after = &self.nodes[index as usize];
            if after.fat == before.fat && after.height == before.height {
                break;
            }
            index = after.parent;
        }
    }

    /// Walks from `index` towards the root, rotating where it helps and refitting each node,
    /// and stops at the first node whose box and height come out unchanged: every node above
    /// then has the same children's boxes and heights as before, so its box, its height and
    /// the rotations it was last offered stay as they are. (A reinserted leaf usually lands a
    /// few levels below a node that already covered it, so this saves most of the walk.)
    pub(super) fn refit_upwards(&mut self, mut index: u32) {
        while index != NULL_NODE {
            let (fat, height) = {
                let node = &self.nodes[index as usize];
                (node.fat, node.height)
            };
            self.rotate(index);
            self.refit_node(index);
            let node = &self.nodes[index as usize];
            if node.fat == fat && node.height == height {
                break;
            }
            index = node.parent;
        }
    }
}
