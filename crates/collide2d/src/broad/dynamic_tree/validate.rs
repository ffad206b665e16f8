//! The structural check of the tree.

use super::{validate_symmetric, DynamicTree, FREE_HEIGHT, NULL_NODE};

impl DynamicTree {
    /// Checks every structural invariant and returns a description of the first one broken.
    ///
    /// * **Links:** the root has no parent; every child's parent link points back; leaves have no
    ///   children and internal nodes two.
    /// * **Boxes:** an internal node's box contains both children's boxes; a leaf's fat box
    ///   contains its exact box, which equals the stored proxy box.
    /// * **Heights:** 0 for leaves, 1 + the taller child's for internal nodes.
    /// * **Counts:** one reachable leaf per live proxy, each pointed to by its proxy; reachable
    ///   plus free nodes account for the whole node array; the free list has no cycle.
    /// * **Pairs:** the reported pair lists and the fat-partner lists are symmetric.
    ///
    /// Costs O(n); meant for tests and debugging.
    pub fn validate(&self) -> Result<(), String> {
        let node_total = self.nodes.len();
        let mut reachable = 0usize;
        let mut leaves = 0usize;
        if self.root != NULL_NODE {
            if self.nodes[self.root as usize].parent != NULL_NODE {
                return Err(format!("root {} has a parent", self.root));
            }
            let mut stack = vec![self.root];
            while let Some(index) = stack.pop() {
                reachable += 1;
                if reachable > node_total {
                    return Err("cycle in the tree".to_string());
                }
                let node = &self.nodes[index as usize];
                if node.height == FREE_HEIGHT {
                    return Err(format!("free node {index} is reachable"));
                }
                if node.is_leaf() {
                    leaves += 1;
                    if node.child_b != NULL_NODE || node.height != 0 {
                        return Err(format!("leaf {index} has a second child or height"));
                    }
                    let slot = node.proxy as usize;
                    if slot >= self.proxies.slot_count() || !self.proxies.alive[slot] {
                        return Err(format!("leaf {index} names dead proxy {slot}"));
                    }
                    if self.leaf_of_proxy[slot] != index {
                        return Err(format!("proxy {slot} does not point to its leaf {index}"));
                    }
                    if node.fat != self.fat_of_proxy[slot] {
                        return Err(format!(
                            "leaf {index} fat box differs from proxy {slot}'s copy"
                        ));
                    }
                    if !node.fat.contains(&self.proxies.tight[slot]) {
                        return Err(format!("leaf {index} fat box does not contain its box"));
                    }
                    continue;
                }
                if node.child_b == NULL_NODE {
                    return Err(format!("internal node {index} has one child"));
                }
                let child_a = &self.nodes[node.child_a as usize];
                let child_b = &self.nodes[node.child_b as usize];
                for (child, child_node) in [(node.child_a, child_a), (node.child_b, child_b)] {
                    if child_node.parent != index {
                        return Err(format!(
                            "child {child} of {index} has parent {}",
                            child_node.parent
                        ));
                    }
                    if !node.fat.contains(&child_node.fat) {
                        return Err(format!("node {index} box does not contain child {child}"));
                    }
                }
                if node.height != 1 + child_a.height.max(child_b.height) {
                    return Err(format!("node {index} has wrong height {}", node.height));
                }
                stack.push(node.child_a);
                stack.push(node.child_b);
            }
        }
        if leaves != self.proxies.len() {
            return Err(format!(
                "{leaves} leaves for {} live proxies",
                self.proxies.len()
            ));
        }
        let mut free = 0usize;
        let mut index = self.free_node;
        while index != NULL_NODE {
            free += 1;
            if free > node_total {
                return Err("cycle in the free list".to_string());
            }
            if self.nodes[index as usize].height != FREE_HEIGHT {
                return Err(format!("node {index} on the free list is not marked free"));
            }
            index = self.nodes[index as usize].parent;
        }
        if free != self.free_node_count || reachable + free != node_total {
            return Err(format!(
                "{reachable} reachable + {free} free nodes (counted {}) != {node_total} nodes",
                self.free_node_count
            ));
        }
        validate_symmetric("fat partners", &self.fat_partners, &self.proxies)?;
        self.pairs.validate(&self.proxies)
    }
}
