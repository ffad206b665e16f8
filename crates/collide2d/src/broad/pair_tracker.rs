//! Incremental pair finding shared by the broad phases: which pairs began and ended since the
//! last report, at a cost proportional to the proxies that moved.

use crate::broad::proxy_table::ProxyTable;
use crate::broad::{Pair, PairChanges};

/// The pair set reported at the last [`PairTracker::refresh`], kept as per-proxy partner lists.
///
/// **Invariant:** `partners` is symmetric (`b ∈ partners[a]` ⇔ `a ∈ partners[b]`), names only
/// live proxies, and equals the set of overlapping pairs as of the last refresh, minus pairs of
/// proxies removed since (those wait in `pending_ended`).
#[derive(Clone, Debug, Default)]
pub(crate) struct PairTracker {
    partners: Vec<Vec<u32>>,
    moved: Vec<u32>,
    is_moved: Vec<bool>,
    marks: Vec<u32>,
    mark: u32,
    pending_ended: Vec<Pair>,
    changes: PairChanges,
    candidates: Vec<u32>,
}

impl PairTracker {
    /// Grows the per-slot tables to `slot_count`.
    pub fn reserve_slots(&mut self, slot_count: usize) {
        if self.partners.len() < slot_count {
            self.partners.resize_with(slot_count, Vec::new);
            self.is_moved.resize(slot_count, false);
            self.marks.resize(slot_count, 0);
        }
    }

    /// Records that slot `index` was inserted or its box changed.
    #[inline]
    pub fn mark_moved(&mut self, index: u32) {
        self.reserve_slots(index as usize + 1);
        let slot = index as usize;
        if !self.is_moved[slot] {
            self.is_moved[slot] = true;
            self.moved.push(index);
        }
    }

    /// Ends every reported pair of slot `index`, which is about to be freed (still live in `proxies`).
    pub fn proxy_removed(&mut self, index: u32, proxies: &ProxyTable) {
        self.reserve_slots(index as usize + 1);
        let slot = index as usize;
        self.is_moved[slot] = false;
        let removed_id = proxies.id_of(index);
        let partners = std::mem::take(&mut self.partners[slot]);
        for &partner in &partners {
            remove_value(&mut self.partners[partner as usize], index);
            self.pending_ended
                .push(Pair::new(removed_id, proxies.id_of(partner)));
        }
        self.partners[slot] = partners;
        self.partners[slot].clear();
    }

    /// Brings the reported set up to date and returns what changed.
    ///
    /// `candidates(index, out)` must push (at least) every live proxy whose tight box overlaps
    /// slot `index`'s tight box; it may push more and may push `index` itself.
    ///
    /// 1. For each moved proxy, drop reported partners whose tight boxes stopped overlapping.
    /// 2. For each moved proxy, mark its remaining partners, then add every unmarked candidate
    ///    whose tight box overlaps: that pair began. A pair of two moved proxies is added by the
    ///    first one processed and is marked (so skipped) when the second one is processed.
    /// 3. Sort both lists so the report is deterministic and easy to merge.
    pub fn refresh(
        &mut self,
        proxies: &ProxyTable,
        mut candidates: impl FnMut(u32, &mut Vec<u32>),
    ) -> &PairChanges {
        self.reserve_slots(proxies.slot_count());
        self.changes.began.clear();
        self.changes.ended.clear();
        self.changes.ended.append(&mut self.pending_ended);
        let moved = std::mem::take(&mut self.moved);

        // 1. Lost pairs.
        for &index in &moved {
            let slot = index as usize;
            if !self.is_moved[slot] || !proxies.alive[slot] {
                continue;
            }
            let tight = proxies.tight[slot];
            let mut position = 0;
            while position < self.partners[slot].len() {
                let partner = self.partners[slot][position];
                if tight.overlaps(&proxies.tight[partner as usize]) {
                    position += 1;
                    continue;
                }
                self.partners[slot].swap_remove(position);
                remove_value(&mut self.partners[partner as usize], index);
                self.changes
                    .ended
                    .push(Pair::new(proxies.id_of(index), proxies.id_of(partner)));
            }
        }

        // 2. New pairs.
        let mut found = std::mem::take(&mut self.candidates);
        for &index in &moved {
            let slot = index as usize;
            if !self.is_moved[slot] || !proxies.alive[slot] {
                continue;
            }
            self.is_moved[slot] = false;
            self.mark = self.mark.wrapping_add(1);
            if self.mark == 0 {
                self.marks.iter_mut().for_each(|mark| *mark = 0);
                self.mark = 1;
            }
            for &partner in &self.partners[slot] {
                self.marks[partner as usize] = self.mark;
            }
            self.marks[slot] = self.mark;
            found.clear();
            candidates(index, &mut found);
            let tight = proxies.tight[slot];
            for &candidate in &found {
                let other = candidate as usize;
                if self.marks[other] == self.mark
                    || !proxies.alive[other]
                    || !tight.overlaps(&proxies.tight[other])
                {
                    continue;
                }
                self.marks[other] = self.mark;
                self.partners[slot].push(candidate);
                self.partners[other].push(index);
                self.changes
                    .began
                    .push(Pair::new(proxies.id_of(index), proxies.id_of(candidate)));
            }
        }
        self.candidates = found;
        let mut moved = moved;
        moved.clear();
        self.moved = moved;

        // 3. Deterministic order.
        self.changes.began.sort_unstable();
        self.changes.ended.sort_unstable();
        &self.changes
    }

    /// The changes returned by the last refresh.
    pub fn changes(&self) -> &PairChanges {
        &self.changes
    }

    /// Every reported pair, sorted.
    pub fn current_pairs(&self, proxies: &ProxyTable) -> Vec<Pair> {
        let mut pairs = Vec::new();
        for (slot, partners) in self.partners.iter().enumerate() {
            for &partner in partners {
                if (partner as usize) > slot {
                    pairs.push(Pair::new(
                        proxies.id_of(slot as u32),
                        proxies.id_of(partner),
                    ));
                }
            }
        }
        pairs.sort_unstable();
        pairs
    }

    /// Checks the invariant; used by `validate()` of the structures.
    pub fn validate(&self, proxies: &ProxyTable) -> Result<(), String> {
        for (slot, partners) in self.partners.iter().enumerate() {
            if !partners.is_empty() && !proxies.alive[slot] {
                return Err(format!("pair tracker: free slot {slot} still has partners"));
            }
            for &partner in partners {
                if partner as usize == slot {
                    return Err(format!("pair tracker: slot {slot} paired with itself"));
                }
                if !self.partners[partner as usize].contains(&(slot as u32)) {
                    return Err(format!(
                        "pair tracker: {slot} lists {partner} but not the other way round"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Removes one occurrence of `value` from an unordered list.
#[inline]
pub(crate) fn remove_value(list: &mut Vec<u32>, value: u32) {
    if let Some(position) = list.iter().position(|&item| item == value) {
        list.swap_remove(position);
    }
}
