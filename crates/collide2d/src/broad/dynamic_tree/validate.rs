//! The structural check of the tree.

use super::{DynamicTree, FREE_HEIGHT, NULL_NODE};

impl DynamicTree {
    /// Checks every structural invariant and returns a description of the first one broken.
    ///
    /// * **Links:** the root has no parent; every child's parent link points back; leaves have no
    ///   children and internal nodes two.
    /// * **Boxes:** an internal node's box contains both children's boxes; a leaf's fat box
    ///   contains its exact box, which equals the stored proxy box.
    /// * **Heights:** 0 for leaves, 1 + the taller child's for internal nodes.
    /// * **Slot records:** a live slot's record names its leaf, the leaf's fat box and the slot's
    ///   generation; a free slot's names no leaf.
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
                    if node.height != 0 {
                        return Err(format!("leaf {index} has a height"));
                    }
                    let slot = node.proxy() as usize;
                    if slot >= self.proxies.slot_count() || !self.proxies.alive[slot] {
                        return Err(format!("leaf {index} names dead proxy {slot}"));
                    }
                    let info = &self.slot_info[slot];
                    if info.leaf != index {
                        return Err(format!("proxy {slot} does not point to its leaf {index}"));
                    }
                    if info.generation != self.proxies.id_of(slot as u32).generation() {
                        return Err(format!("proxy {slot}'s record has a stale generation"));
                    }
                    if node.fat != info.fat {
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
        if self.slot_info.len() != self.proxies.slot_count() {
            return Err(format!(
                "{} slot records for {} slots",
                self.slot_info.len(),
                self.proxies.slot_count()
            ));
        }
        for (slot, info) in self.slot_info.iter().enumerate() {
            if (info.leaf != NULL_NODE) != self.proxies.alive[slot] {
                return Err(format!(
                    "slot {slot}: its record's leaf does not say whether it is live"
                ));
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
        self.pairs.validate(&self.proxies)
    }
}

#[cfg(test)]
mod tests {
    use crate::broad::{BroadPhase, DynamicTree};
    use crate::math::Vec2;
    use crate::shape::Aabb;
    use crate::test_numbers::Numbers;

    fn square(x: f32, y: f32) -> Aabb {
        Aabb {
            min: Vec2::new(x, y),
            max: Vec2::new(x + 1.0, y + 1.0),
        }
    }

    #[test]
    fn new_leaf_pairs_with_its_nearest_neighbour() {
        // Two far clusters; a box inserted next to the right cluster must end up under it.
        let mut tree = DynamicTree::with_margin(0.0);
        let left = tree.insert(square(0.0, 0.0), 0).unwrap();
        let right = tree.insert(square(100.0, 0.0), 1).unwrap();
        let near_right = tree.insert(square(101.5, 0.0), 2).unwrap();
        tree.validate().unwrap();
        // Root = {left, {right, near_right}}: root box plus one internal box of width 2.5.
        assert_eq!(tree.height(), 2);
        let root_perimeter = 2.0 * (102.5 + 1.0);
        let inner_perimeter = 2.0 * (2.5 + 1.0);
        assert!(
            (tree.area_ratio() - (root_perimeter + inner_perimeter) / root_perimeter).abs() < 1e-5
        );
        let _ = (left, right, near_right);
    }

    #[test]
    fn rotation_repairs_a_bad_grouping() {
        // Inserting 0, 100, then 1 (next to 0) first groups {0, 100}; after the third insertion
        // the tree must pair the two neighbours, whatever the insertion order.
        let mut tree = DynamicTree::with_margin(0.0);
        tree.insert(square(0.0, 0.0), 0).unwrap();
        tree.insert(square(100.0, 0.0), 1).unwrap();
        tree.insert(square(1.0, 0.0), 2).unwrap();
        tree.insert(square(101.0, 0.0), 3).unwrap();
        tree.validate().unwrap();
        // Best tree: {{0, 1}, {100, 101}}: inner perimeters 2·(2+1) each.
        let root_perimeter = 2.0 * (102.0 + 1.0);
        let expected = (root_perimeter + 12.0) / root_perimeter;
        assert!(
            (tree.area_ratio() - expected).abs() < 1e-5,
            "{}",
            tree.area_ratio()
        );
    }

    #[test]
    fn small_motion_keeps_the_leaf_and_large_motion_moves_it() {
        let mut tree = DynamicTree::with_margin(0.5);
        let id = tree.insert(square(0.0, 0.0), 0).unwrap();
        let fat = tree.fat_aabb(id).unwrap();
        assert_eq!(
            fat,
            Aabb {
                min: Vec2::splat(-0.5),
                max: Vec2::splat(1.5)
            }
        );
        tree.update(id, square(0.25, 0.25)).unwrap();
        assert_eq!(tree.fat_aabb(id).unwrap(), fat);
        // Leaving the fat box: re-fattened around the new box, stretched 8× along the motion.
        tree.update(id, square(0.75, 0.25)).unwrap();
        let moved = tree.fat_aabb(id).unwrap();
        assert_eq!(moved.min, Vec2::new(0.25, -0.25));
        assert_eq!(moved.max, Vec2::new(2.25 + 8.0 * 0.5, 1.75));
        tree.validate().unwrap();
    }

    #[test]
    fn identical_boxes_stay_balanced() {
        let mut tree = DynamicTree::new();
        for key in 0..1024 {
            tree.insert(square(0.0, 0.0), key).unwrap();
        }
        tree.validate().unwrap();
        assert!(tree.height() <= 20, "height {}", tree.height());
    }

    #[test]
    fn rebuild_keeps_ids_and_pairs() {
        let mut tree = DynamicTree::new();
        let ids: Vec<_> = (0..50)
            .map(|i| tree.insert(square(i as f32 * 0.75, 0.0), i).unwrap())
            .collect();
        let before = tree.find_pairs();
        tree.update_pairs();
        tree.rebuild();
        tree.validate().unwrap();
        assert_eq!(tree.find_pairs(), before);
        assert!(tree.update_pairs().is_empty());
        assert_eq!(tree.key(ids[7]), Ok(7));
    }

    #[test]
    fn a_leaf_that_moves_a_little_is_placed_again_beside_its_neighbour() {
        // Two far pairs; the leaf leaves its fat box but stays by its neighbour, so it must be
        // grouped with that neighbour again (the search starts at the pair's common ancestor).
        let mut tree = DynamicTree::with_margin(0.1);
        let moving = tree.insert(square(0.0, 0.0), 0).unwrap();
        tree.insert(square(1.5, 0.0), 1).unwrap();
        tree.insert(square(100.0, 0.0), 2).unwrap();
        tree.insert(square(101.5, 0.0), 3).unwrap();
        let before = tree.area_ratio();
        for step in 1..=4 {
            tree.update(moving, square(0.1 * step as f32, 0.05))
                .unwrap();
            tree.validate().unwrap();
        }
        assert_eq!(tree.height(), 2);
        assert!(
            tree.area_ratio() <= before * 1.01,
            "{} vs {before}",
            tree.area_ratio()
        );
        // A jump to the other group leaves every old ancestor behind: searched from the root.
        tree.update(moving, square(99.0, 2.0)).unwrap();
        tree.validate().unwrap();
        assert_eq!(tree.height(), 3);
    }

    #[test]
    fn random_walks_keep_the_tree_valid_and_close_to_a_fresh_build() {
        let mut numbers = Numbers(0x853c_49e6_748f_ea9b);
        let mut unit = move || numbers.unit();
        let mut boxes: Vec<Aabb> = (0..2000)
            .map(|_| {
                let (x, y) = (unit() * 70.0, unit() * 70.0);
                let size = Vec2::new(0.5 + unit(), 0.5 + unit());
                Aabb {
                    min: Vec2::new(x, y),
                    max: Vec2::new(x, y) + size,
                }
            })
            .collect();
        let items: Vec<(Aabb, u64)> = boxes.iter().map(|b| (*b, 0)).collect();
        let (mut tree, ids) = DynamicTree::build(&items).unwrap();
        for frame in 0..300 {
            for (index, aabb) in boxes.iter_mut().enumerate().skip(frame % 3).step_by(3) {
                let step = Vec2::new(unit() - 0.5, unit() - 0.5) * 0.3;
                aabb.min += step;
                aabb.max += step;
                tree.update(ids[index], *aabb).unwrap();
            }
            if frame % 50 == 0 {
                tree.validate().unwrap();
            }
        }
        tree.validate().unwrap();
        let walked = tree.area_ratio();
        let mut fresh = tree.clone();
        fresh.rebuild();
        assert!(
            walked <= 1.1 * fresh.area_ratio(),
            "{walked} vs {}",
            fresh.area_ratio()
        );
        let mut expected: Vec<_> = tree.find_pairs();
        expected.sort_unstable();
        let mut found = fresh.find_pairs();
        found.sort_unstable();
        assert_eq!(found, expected);
    }
}
