//! Slot storage shared by the broad phases: tight box, user key and generation per proxy.

use crate::broad::pairs::dense_pairs::DenseInput;
use crate::broad::{check_aabb, BroadPhaseError, ProxyId};
use crate::huge_pages;
use crate::shape::Aabb;

/// The slot index of `id`, given what its slot holds (`None` when there is no such slot; else
/// whether it is live and its generation), or why `id` names no live proxy. The one rule for
/// every copy of the slots' liveness and generations.
#[inline]
pub(crate) fn check_id(id: ProxyId, slot: Option<(bool, u32)>) -> Result<usize, BroadPhaseError> {
    match slot {
        None => Err(BroadPhaseError::UnknownProxy { id }),
        Some((live, generation)) if live && generation == id.generation() => {
            Ok(id.index() as usize)
        }
        Some(_) => Err(BroadPhaseError::StaleProxy { id }),
    }
}

/// Proxies stored in reusable slots; a freed slot's generation is bumped so old ids go stale.
///
/// **Invariant:** `alive[i]` is false exactly for the slots on the free list and the retired
/// ones (at generation `u32::MAX`, never reused).
#[derive(Clone, Debug, Default)]
pub(crate) struct ProxyTable {
    /// Exact box of each slot (meaningless for free slots).
    pub tight: Vec<Aabb>,
    /// User key of each slot.
    pub keys: Vec<u64>,
    /// Current generation of each slot.
    pub generations: Vec<u32>,
    /// Whether the slot holds a live proxy.
    pub alive: Vec<bool>,
    free_slots: Vec<u32>,
    live_count: usize,
}

impl ProxyTable {
    /// The exact boxes, for a pass from scratch.
    pub fn dense_input(&self) -> DenseInput<'_> {
        DenseInput {
            boxes: &self.tight,
            alive: &self.alive,
            live: self.len(),
        }
    }

    /// Number of live proxies.
    #[inline]
    pub fn len(&self) -> usize {
        self.live_count
    }

    /// Number of slots, live or free (every index handed out is below this).
    #[inline]
    pub fn slot_count(&self) -> usize {
        self.tight.len()
    }

    /// Makes room for `additional` more slots without moving the arrays again (large arrays
    /// are asked to be backed by huge pages; see [`huge_pages`]).
    pub fn reserve(&mut self, additional: usize) {
        let additional = additional.saturating_sub(self.free_slots.len());
        huge_pages::reserve(&mut self.tight, additional);
        huge_pages::reserve(&mut self.keys, additional);
        huge_pages::reserve(&mut self.generations, additional);
        huge_pages::reserve(&mut self.alive, additional);
    }

    /// Stores a validated box and returns its new id (reusing the most recently freed slot).
    pub fn allocate(&mut self, aabb: Aabb, key: u64) -> Result<ProxyId, BroadPhaseError> {
        let aabb = check_aabb(aabb)?;
        self.live_count += 1;
        if let Some(index) = self.free_slots.pop() {
            let slot = index as usize;
            self.tight[slot] = aabb;
            self.keys[slot] = key;
            self.alive[slot] = true;
            return Ok(ProxyId::new(index, self.generations[slot]));
        }
        let index = u32::try_from(self.tight.len()).expect("more than u32::MAX proxies");
        self.reserve(1);
        self.tight.push(aabb);
        self.keys.push(key);
        self.generations.push(0);
        self.alive.push(true);
        Ok(ProxyId::new(index, 0))
    }

    /// Frees a live slot; its current id becomes stale. A slot already at the last generation
    /// is retired instead of reused: a wrapped counter would make an id from 2³² releases ago
    /// name a new proxy.
    pub fn release(&mut self, index: u32) {
        let slot = index as usize;
        debug_assert!(self.alive[slot]);
        self.alive[slot] = false;
        if let Some(next) = self.generations[slot].checked_add(1) {
            self.generations[slot] = next;
            self.free_slots.push(index);
        }
        self.live_count -= 1;
    }

    /// The slot index of a live id, or why it is not live.
    #[inline]
    pub fn resolve(&self, id: ProxyId) -> Result<usize, BroadPhaseError> {
        let slot = id.index() as usize;
        check_id(
            id,
            (slot < self.tight.len()).then(|| (self.alive[slot], self.generations[slot])),
        )
    }

    /// The current id of slot `index`.
    #[inline]
    pub fn id_of(&self, index: u32) -> ProxyId {
        ProxyId::new(index, self.generations[index as usize])
    }

    /// Indices of live slots, ascending.
    pub fn live_indices(&self) -> impl Iterator<Item = u32> + '_ {
        self.alive
            .iter()
            .enumerate()
            .filter(|(_, alive)| **alive)
            .map(|(index, _)| index as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    #[test]
    fn freed_slot_is_reused_with_a_new_generation() {
        let mut table = ProxyTable::default();
        let aabb = Aabb {
            min: Vec2::ZERO,
            max: Vec2::ONE,
        };
        let first = table.allocate(aabb, 7).unwrap();
        table.release(first.index());
        let second = table.allocate(aabb, 8).unwrap();
        assert_eq!(second.index(), first.index());
        assert_eq!(second.generation(), first.generation() + 1);
        assert_eq!(
            table.resolve(first),
            Err(BroadPhaseError::StaleProxy { id: first })
        );
        assert_eq!(table.resolve(second), Ok(0));
        let unknown = ProxyId::new(5, 0);
        assert_eq!(
            table.resolve(unknown),
            Err(BroadPhaseError::UnknownProxy { id: unknown })
        );
    }

    #[test]
    fn a_slot_at_the_last_generation_is_retired() {
        let mut table = ProxyTable::default();
        let aabb = Aabb {
            min: Vec2::ZERO,
            max: Vec2::ONE,
        };
        let first = table.allocate(aabb, 7).unwrap();
        // As after 2³² − 1 releases of slot 0.
        table.generations[0] = u32::MAX;
        table.release(0);
        let next = table.allocate(aabb, 8).unwrap();
        assert_eq!((next.index(), next.generation()), (1, 0));
        for stale in [first, ProxyId::new(0, u32::MAX)] {
            assert_eq!(
                table.resolve(stale),
                Err(BroadPhaseError::StaleProxy { id: stale })
            );
        }
        assert_eq!((table.len(), table.live_indices().count()), (1, 1));
    }
}
