//! Tree rotations: swap a child with a grandchild when that lowers the perimeter or the height.

use super::DynamicTree;

/// A rotation is only worth doing when it saves more than this fraction of the node's perimeter
/// (avoids flip-flopping on ties and rounding noise).
const MINIMUM_RELATIVE_GAIN: f32 = 1.0e-6;

impl DynamicTree {
    /// Considers the four swaps of a child of `index` with a grandchild under the other child,
    /// and performs the best one.
    ///
    /// For node A with children B and C (the idea of Kopta et al., *Fast, Effective BVH Updates
    /// for Animated Scenes*, 2012, as used by Box2D v3):
    ///
    /// 1. If C has children F and G, swapping B with F leaves C′ = B ∪ G, a perimeter change of
    ///    `perimeter(B ∪ G) − perimeter(C)`; likewise B with G. Symmetric for C with B's children.
    /// 2. Take the swap with the largest perimeter saving (A's own box does not change).
    /// 3. If no swap saves perimeter but one child is more than one level taller than the other,
    ///    swap the shorter child with the taller grandchild (an AVL-like rebalance) provided that
    ///    costs no perimeter either, so runs of identical boxes do not degrade into a list while
    ///    spatial quality is never traded for height.
    pub(super) fn rotate(&mut self, index: u32) {
        let node = self.nodes[index as usize];
        if node.is_leaf() {
            return;
        }
        let child_b = node.child_a;
        let child_c = node.child_b;
        let node_b = self.nodes[child_b as usize];
        let node_c = self.nodes[child_c as usize];
        if node_b.is_leaf() && node_c.is_leaf() {
            return;
        }

        // 1. Candidate swaps: (child moved down, grandchild moved up, its parent, saving).
        let threshold = MINIMUM_RELATIVE_GAIN * node.fat.perimeter();
        let mut best: Option<(u32, u32, u32, f32)> = None;
        let mut consider = |down: u32, up: u32, under: u32, saving: f32| {
            if saving > threshold && best.is_none_or(|(_, _, _, best_saving)| saving > best_saving)
            {
                best = Some((down, up, under, saving));
            }
        };
        if !node_c.is_leaf() {
            let box_f = self.nodes[node_c.child_a as usize].fat;
            let box_g = self.nodes[node_c.child_b as usize].fat;
            let perimeter_c = node_c.fat.perimeter();
            consider(
                child_b,
                node_c.child_a,
                child_c,
                perimeter_c - node_b.fat.union(&box_g).perimeter(),
            );
            consider(
                child_b,
                node_c.child_b,
                child_c,
                perimeter_c - node_b.fat.union(&box_f).perimeter(),
            );
        }
        if !node_b.is_leaf() {
            let box_d = self.nodes[node_b.child_a as usize].fat;
            let box_e = self.nodes[node_b.child_b as usize].fat;
            let perimeter_b = node_b.fat.perimeter();
            consider(
                child_c,
                node_b.child_a,
                child_b,
                perimeter_b - node_c.fat.union(&box_e).perimeter(),
            );
            consider(
                child_c,
                node_b.child_b,
                child_b,
                perimeter_b - node_c.fat.union(&box_d).perimeter(),
            );
        }

        // 2. Best perimeter saving, else 3. height rebalance at no perimeter cost.
        let swap = best
            .map(|(down, up, under, _)| (down, up, under))
            .or_else(|| {
                let (short, tall, node_tall) = if node_b.height > node_c.height + 1 {
                    (child_c, child_b, &node_b)
                } else if node_c.height > node_b.height + 1 {
                    (child_b, child_c, &node_c)
                } else {
                    return None;
                };
                let (grandchild_up, grandchild_stay) = if self.nodes[node_tall.child_a as usize]
                    .height
                    >= self.nodes[node_tall.child_b as usize].height
                {
                    (node_tall.child_a, node_tall.child_b)
                } else {
                    (node_tall.child_b, node_tall.child_a)
                };
                let short_box = self.nodes[short as usize].fat;
                let stay_box = self.nodes[grandchild_stay as usize].fat;
                let saving = node_tall.fat.perimeter() - short_box.union(&stay_box).perimeter();
                (saving >= -threshold).then_some((short, grandchild_up, tall))
            });
        if let Some((down, up, under)) = swap {
            self.swap_child_with_grandchild(index, down, up, under);
        }
    }

    /// Under `index`, moves child `down` beneath `under` (the other child) in place of its child
    /// `up`, which moves up to `index`. Refits `under`; the caller refits `index`.
    fn swap_child_with_grandchild(&mut self, index: u32, down: u32, up: u32, under: u32) {
        self.replace_child(index, down, up);
        self.replace_child(under, up, down);
        self.nodes[up as usize].parent = index;
        self.nodes[down as usize].parent = under;
        self.refit_node(under);
    }
}
