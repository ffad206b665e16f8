//! The pairs an update must re-test whatever changed (after a snapshot restore, an origin
//! shift or a continuous hit), with an index by collider for removals.
//!
//! Removing a collider ends its pending pairs too, so a removal asks for the pairs that name
//! it. A scan of the whole list per removal would make removing `k` colliders right after a
//! restore or a shift cost `k` times the touching pairs; the index, built on the first such
//! question after the list changes, answers each in `O(log n)` plus the pairs found.

use super::ColliderHandle;

/// Pairs to re-test at the next update (`a < b`, possibly repeated), in the order pushed.
#[derive(Clone, Debug, Default)]
pub(super) struct PendingRetests {
    pairs: Vec<(ColliderHandle, ColliderHandle)>,
    /// `(slot index, position in pairs)` for both colliders of every pair, sorted; built on
    /// demand and emptied whenever `pairs` changes.
    by_slot: Vec<(u32, u32)>,
}

impl PendingRetests {
    /// Adds a pair.
    pub fn push(&mut self, pair: (ColliderHandle, ColliderHandle)) {
        self.by_slot.clear();
        self.pairs.push(pair);
    }

    /// Adds pairs.
    pub fn extend(&mut self, pairs: impl IntoIterator<Item = (ColliderHandle, ColliderHandle)>) {
        self.by_slot.clear();
        self.pairs.extend(pairs);
    }

    /// Takes every pair, in the order pushed, leaving none.
    pub fn drain(&mut self) -> std::vec::Drain<'_, (ColliderHandle, ColliderHandle)> {
        self.by_slot.clear();
        self.pairs.drain(..)
    }

    /// Whether no pair waits.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Every pair, in the order pushed.
    pub fn iter(&self) -> impl Iterator<Item = &(ColliderHandle, ColliderHandle)> {
        self.pairs.iter()
    }

    /// The pairs that name `handle` (its slot and generation), in the order pushed.
    pub fn involving(&mut self, handle: ColliderHandle) -> Vec<(ColliderHandle, ColliderHandle)> {
        if self.pairs.is_empty() {
            return Vec::new();
        }
        if self.by_slot.is_empty() {
            self.by_slot.reserve(self.pairs.len() * 2);
            for (position, &(a, b)) in self.pairs.iter().enumerate() {
                self.by_slot.push((a.index, position as u32));
                if b.index != a.index {
                    self.by_slot.push((b.index, position as u32));
                }
            }
            self.by_slot.sort_unstable();
        }
        let start = self
            .by_slot
            .partition_point(|&(slot, _)| slot < handle.index);
        self.by_slot[start..]
            .iter()
            .take_while(|&&(slot, _)| slot == handle.index)
            .map(|&(_, position)| self.pairs[position as usize])
            .filter(|&(a, b)| a == handle || b == handle)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(index: u32, generation: u32) -> ColliderHandle {
        ColliderHandle { index, generation }
    }

    /// The index answers what a scan of the list answers, across pushes, drains and stale
    /// generations, on seeded random lists.
    #[test]
    fn involving_equals_a_scan() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as u32
        };
        let mut pending = PendingRetests::default();
        let mut model: Vec<(ColliderHandle, ColliderHandle)> = Vec::new();
        for round in 0..400 {
            match next(10) {
                0 => {
                    assert_eq!(pending.drain().collect::<Vec<_>>(), model);
                    model.clear();
                }
                1..=4 => {
                    let a = handle(next(40), next(2));
                    let b = handle(next(40), next(2));
                    let pair = if a < b { (a, b) } else { (b, a) };
                    pending.push(pair);
                    model.push(pair);
                }
                _ => {
                    let asked = handle(next(40), next(2));
                    let scan: Vec<_> = model
                        .iter()
                        .copied()
                        .filter(|&(a, b)| a == asked || b == asked)
                        .collect();
                    assert_eq!(pending.involving(asked), scan, "round {round}");
                }
            }
            assert_eq!(pending.is_empty(), model.is_empty());
        }
    }
}
