//! The tree's pair state: for each proxy, the proxies whose fat boxes overlap its own, each entry
//! flagged while the pair is reported (its exact boxes overlapped at the last `update_pairs`).
//!
//! One list per proxy serves both as the candidates of a moved proxy and as the record of what
//! was reported, so the refresh reads one cache line of lists per moved proxy, and finding whether
//! a candidate was a partner is a bit test.

use crate::broad::pairs::dense_pairs::DensePairs;
use crate::broad::pairs::pair_tracker::{next_mark, sorted_pairs, MarkedSlots, PairsByLower};
use crate::broad::pairs::partner_list::FatPartnerList;
use crate::broad::proxy_table::ProxyTable;
use crate::broad::{Pair, PairChanges};
use crate::huge_pages;
use crate::prefetch::prefetch;
use crate::shape::Aabb;

/// The flag bit of a list entry: the pair is reported.
pub(crate) const REPORTED: u32 = 1 << 31;

/// The bits of a list entry that name the partner's slot.
pub(crate) const SLOT_BITS: u32 = REPORTED - 1;

/// How many slots the tree can hold: list entries keep their flag in the top bit of the slot.
pub(crate) const MAX_SLOTS: usize = REPORTED as usize;

/// How many moved proxies ahead the refresh asks for a proxy's candidate boxes; its list is
/// asked for twice as far ahead.
const PREFETCH_DISTANCE: usize = 4;

/// The fewest moved proxies whose refresh is split over threads (feature `rayon`).
#[cfg(feature = "rayon")]
pub(super) const PARALLEL_MOVED: usize = 4096;

/// How many moved proxies one part of the refresh takes: all of them without the `rayon`
/// feature, below [`PARALLEL_MOVED`] or on one thread; else about four parts a thread (so that
/// a slow thread does not hold up the others), of at least 1,024.
fn flip_part_len(moved: usize) -> usize {
    #[cfg(feature = "rayon")]
    {
        let threads = rayon::current_num_threads();
        if moved >= PARALLEL_MOVED && threads > 1 {
            return moved.div_ceil(4 * threads).max(1024);
        }
    }
    moved.max(1)
}

/// A pair whose overlap a moved proxy found different from its flag.
#[derive(Clone, Copy, Debug)]
struct Flip {
    /// The moved proxy's slot.
    slot: u32,
    /// Where the partner's entry is in the moved proxy's list.
    position: u32,
    /// The partner's slot with the new flag ([`REPORTED`] when the pair now overlaps).
    partner: u32,
}

/// Step 1 of [`TreePairs::refresh`]: what it reads, shared by every thread.
struct FlipFinder<'a> {
    lists: &'a [FatPartnerList],
    moved: &'a MarkedSlots,
    alive: &'a [bool],
    tight: &'a [Aabb],
    /// Whether a pair of two moved proxies is tested by the lower one only.
    mutual: bool,
}

impl FlipFinder<'_> {
    /// Appends to `flips` the pairs of the moved proxies `moved` (slots; a slot no longer
    /// marked is skipped) whose overlap differs from their flag. Reads only; a proxy's list
    /// and boxes are asked for a few proxies ahead.
    fn find(&self, moved: &[u32], flips: &mut Vec<Flip>) {
        let (lists, tight) = (self.lists, self.tight);
        for (position, &index) in moved.iter().enumerate() {
            if let Some(&ahead) = moved.get(position + 2 * PREFETCH_DISTANCE) {
                prefetch(lists, ahead as usize);
                prefetch(tight, ahead as usize);
            }
            if let Some(&near) = moved.get(position + PREFETCH_DISTANCE) {
                if let Some(list) = lists.get(near as usize) {
                    for &entry in list.as_slice() {
                        prefetch(tight, (entry & SLOT_BITS) as usize);
                    }
                }
            }
            let slot = index as usize;
            if !self.moved.contains(slot) || !self.alive[slot] {
                continue;
            }
            let own = tight[slot];
            for (entry_position, &entry) in lists[slot].as_slice().iter().enumerate() {
                let partner = entry & SLOT_BITS;
                if self.mutual && partner < index && self.moved.contains(partner as usize) {
                    continue;
                }
                let overlapping = own.overlaps(&tight[partner as usize]);
                if overlapping == (entry & REPORTED != 0) {
                    continue;
                }
                let flag = if overlapping { REPORTED } else { 0 };
                flips.push(Flip {
                    slot: index,
                    position: entry_position as u32,
                    partner: partner | flag,
                });
            }
        }
    }
}

/// Fat-partner lists with reported flags, the moved proxies, and the changes of the last refresh.
///
/// **Invariants:**
/// * `lists` is symmetric with equal flags: `b` appears in `lists[a]` exactly once, flagged or
///   not, exactly when `a` appears in `lists[b]` with the same flag; lists name only live proxies
///   and never their own slot.
/// * The flagged entries are the pairs whose exact boxes overlapped at the last refresh, minus
///   pairs of proxies removed since (those wait in `pending_ended`), minus pairs lifted out while
///   lists are rebuilt inside one `update_pairs` (those wait in `lifted`).
/// * After the fat lists are brought up to date in an `update_pairs`, `lists[a]` holds every proxy
///   whose fat box overlaps `a`'s (and possibly a few more, added by a pass from scratch).
#[derive(Clone, Debug, Default)]
pub(crate) struct TreePairs {
    lists: Vec<FatPartnerList>,
    moved: MarkedSlots,
    marks: Vec<u32>,
    mark: u32,
    pending_ended: Vec<Pair>,
    /// Reported pairs taken out of the lists while they are rebuilt, once from each side
    /// (`(a, b)` and `(b, a)`); see [`TreePairs::restore_lifted`].
    lifted: Vec<(u32, u32)>,
    changes: PairChanges,
    /// [`TreePairs::refresh`]: the flips each part of the moved proxies found, in the order of
    /// the parts.
    flip_parts: Vec<Vec<Flip>>,
    scratch: Vec<u32>,
    /// [`TreePairs::refresh_from_all`]: the pairs found.
    found: PairsByLower,
}

impl TreePairs {
    /// Grows the per-slot tables to `slot_count`.
    pub fn reserve_slots(&mut self, slot_count: usize) {
        if self.lists.len() < slot_count {
            huge_pages::grow_to(&mut self.lists, slot_count, FatPartnerList::default());
            self.moved.reserve(slot_count);
            huge_pages::grow_to(&mut self.marks, slot_count, 0);
        }
    }

    /// The fat-partner entries of slot `slot` (partner slot, [`REPORTED`] flag).
    #[inline]
    pub fn entries(&self, slot: usize) -> &[u32] {
        self.lists[slot].as_slice()
    }

    /// Asks for slot `slot`'s list ahead of its use, so that the lists' cache misses overlap.
    #[inline]
    pub fn prefetch_list(&self, slot: usize) {
        prefetch(&self.lists, slot);
    }

    /// Records that slot `index` was inserted or its box changed.
    #[inline(always)]
    pub fn mark_moved(&mut self, index: u32) {
        self.moved.mark(index);
    }

    /// Whether slot `index` is marked as moved since the last refresh.
    #[inline]
    pub fn is_moved(&self, index: usize) -> bool {
        self.moved.contains(index)
    }

    /// Takes back a mark of [`TreePairs::mark_moved`] (a refused batch of moves).
    #[inline]
    pub fn unmark_moved(&mut self, index: usize) {
        self.moved.unmark(index);
    }

    /// Takes slot `index` (about to be freed, still live in `proxies`) out of every list and ends
    /// its reported pairs.
    pub fn proxy_removed(&mut self, index: u32, proxies: &ProxyTable) {
        self.reserve_slots(index as usize + 1);
        self.moved.unmark(index as usize);
        let removed_id = proxies.id_of(index);
        let entries = self.take_out(index);
        for &entry in entries.iter().filter(|&&entry| entry & REPORTED != 0) {
            let partner = entry & SLOT_BITS;
            self.pending_ended
                .push(Pair::new(removed_id, proxies.id_of(partner)));
        }
        self.scratch = entries;
    }

    /// Empties slot `index`'s list before it is rebuilt, taking it out of its partners' lists;
    /// its reported pairs wait in `lifted` for [`TreePairs::restore_lifted`].
    pub fn unlink(&mut self, index: u32) {
        let entries = self.take_out(index);
        for &entry in entries.iter().filter(|&&entry| entry & REPORTED != 0) {
            let partner = entry & SLOT_BITS;
            self.lifted.push((index, partner));
            self.lifted.push((partner, index));
        }
        self.scratch = entries;
    }

    /// Empties slot `index`'s list and takes it out of its partners' lists; returns its entries
    /// in the scratch buffer, to be given back to `scratch`.
    fn take_out(&mut self, index: u32) -> Vec<u32> {
        let mut entries = std::mem::take(&mut self.scratch);
        self.lists[index as usize].take_into(&mut entries);
        for &entry in &entries {
            self.lists[(entry & SLOT_BITS) as usize].remove_slot(index);
        }
        entries
    }

    /// Empties every list before all are rebuilt; the reported pairs wait in `lifted` (each
    /// list names its side of the pair, so they come out grouped by slot already).
    pub fn unlink_all(&mut self) {
        for (slot, list) in self.lists.iter_mut().enumerate() {
            let slot = slot as u32;
            for &entry in list.as_slice() {
                if entry & REPORTED != 0 {
                    self.lifted.push((slot, entry & SLOT_BITS));
                }
            }
            list.clear();
        }
    }

    /// Adds the fat-box pair `(a, b)`, unflagged, to both lists (neither may hold the other).
    #[inline]
    pub fn link(&mut self, a: u32, b: u32) {
        self.lists[a as usize].push(b);
        self.lists[b as usize].push(a);
    }

    /// Flags again each lifted pair whose proxies are fat partners again; the others end (their
    /// fat boxes, which hold the exact ones, no longer overlap).
    ///
    /// The lifted pairs, once from each side, are grouped by slot (sorted by it, unless they
    /// come grouped already from [`TreePairs::unlink_all`]); each slot marks its lifted partners and reads its rebuilt list once,
    /// flagging the marked entries. So a pile of `n` proxies all fat partners of each other
    /// costs `O(n²)`, as many as its pairs, not a list search per pair (`O(n³)`).
    pub fn restore_lifted(&mut self, proxies: &ProxyTable) {
        let mut lifted = std::mem::take(&mut self.lifted);
        if !lifted.is_sorted_by_key(|&(slot, _)| slot) {
            lifted.sort_unstable_by_key(|&(slot, _)| slot);
        }
        for run in lifted.chunk_by(|first, second| first.0 == second.0) {
            let slot = run[0].0;
            let mark = next_mark(&mut self.mark, &mut self.marks);
            for &(_, partner) in run {
                self.marks[partner as usize] = mark;
            }
            for entry in self.lists[slot as usize].as_mut_slice() {
                let partner = (*entry & SLOT_BITS) as usize;
                if self.marks[partner] == mark {
                    *entry |= REPORTED;
                    self.marks[partner] = 0;
                }
            }
            // Not listed again: ended (noted from the lower side; the lists are symmetric, so
            // the higher side did not find it either).
            for &(_, partner) in run {
                if slot < partner && self.marks[partner as usize] == mark {
                    self.pending_ended
                        .push(Pair::new(proxies.id_of(slot), proxies.id_of(partner)));
                }
            }
        }
        lifted.clear();
        self.lifted = lifted;
    }

    /// The changes of the last refresh.
    pub fn changes(&self) -> &PairChanges {
        &self.changes
    }

    /// Brings the reported set up to date after moves and returns what changed.
    ///
    /// 1. Each moved proxy tests its exact box against the exact box of every fat partner: a
    ///    pair whose overlap differs from its flag began or ended, and is noted as a flip
    ///    (nothing is written yet, so the moved proxies can be split over threads: feature
    ///    `rayon`, from [`PARALLEL_MOVED`] moved proxies on). When a quarter or more of the
    ///    proxies moved, a pair of two moved proxies is tested by its lower slot only (each
    ///    skip saves a box test).
    /// 2. The noted flips are applied to both lists and reported, in a loop whose scattered
    ///    reads are asked for ahead. Setting a flag is idempotent, so a pair of two moved
    ///    proxies that both sides tested (same boxes, same answer) is set twice to one value.
    /// 3. Both lists of changes are sorted, and a change found from both sides kept once.
    ///
    /// The lists must be up to date with the fat boxes. The changes and the lists come out the
    /// same whatever the number of threads.
    pub fn refresh(&mut self, proxies: &ProxyTable) -> &PairChanges {
        self.reserve_slots(proxies.slot_count());
        self.changes.began.clear();
        self.changes.ended.clear();
        self.changes.ended.append(&mut self.pending_ended);
        let moved = self.moved.take_list();

        // 1. Flips, per part of the moved proxies.
        let finder = FlipFinder {
            lists: &self.lists,
            moved: &self.moved,
            alive: &proxies.alive,
            tight: &proxies.tight,
            // Worth its extra read only when many moved.
            mutual: moved.len() * 4 >= proxies.len(),
        };
        let parts = &mut self.flip_parts;
        let part_len = flip_part_len(moved.len());
        let part_count = moved.len().div_ceil(part_len).max(1);
        if parts.len() < part_count {
            parts.resize_with(part_count, Vec::new);
        }
        parts.iter_mut().for_each(Vec::clear);
        let parts = &mut parts[..part_count];
        #[cfg(feature = "rayon")]
        if part_count > 1 {
            use rayon::prelude::*;
            parts
                .par_iter_mut()
                .zip(moved.par_chunks(part_len))
                .for_each(|(flips, chunk)| finder.find(chunk, flips));
        }
        if part_count == 1 {
            finder.find(&moved, &mut parts[0]);
        }
        for &index in &moved {
            self.moved.unmark(index as usize);
        }
        self.moved.give_back(moved);

        // 2. Both sides of each flip, asking for the lists and generations a few flips ahead.
        for flips in self.flip_parts[..part_count].iter() {
            for (position, flip) in flips.iter().enumerate() {
                if let Some(ahead) = flips.get(position + 2 * PREFETCH_DISTANCE) {
                    prefetch(&self.lists, ahead.slot as usize);
                    prefetch(&self.lists, (ahead.partner & SLOT_BITS) as usize);
                    prefetch(&proxies.generations, (ahead.partner & SLOT_BITS) as usize);
                }
                let (index, flagged) = (flip.slot, flip.partner);
                let (partner, flag) = (flagged & SLOT_BITS, flagged & REPORTED);
                self.lists[index as usize].as_mut_slice()[flip.position as usize] = flagged;
                self.lists[partner as usize].set_flag(index, flag);
                let pair = Pair::new(proxies.id_of(index), proxies.id_of(partner));
                if flag != 0 {
                    self.changes.began.push(pair);
                } else {
                    self.changes.ended.push(pair);
                }
            }
        }
        self.changes.began.sort_unstable();
        self.changes.began.dedup();
        self.changes.ended.sort_unstable();
        self.changes.ended.dedup();
        &self.changes
    }

    /// Whether so many proxies moved since the last refresh (half or more, in a set large enough
    /// for it to matter) that finding every pair from scratch beats the incremental refresh.
    pub fn most_moved(&self, proxies: &ProxyTable) -> bool {
        self.moved.most_of(proxies.len())
    }

    /// Brings the reported set up to date from every overlapping pair of `dense` (the live boxes
    /// found from scratch) and returns what changed: exactly what the incremental refresh would
    /// return. The lists need not be up to date with the fat boxes: a pair found and missing from
    /// them is added (flagged), and the next rebuild of the list of whichever of the two has a
    /// new fat box settles it. `stale` holds the slots whose fat box changed since their list
    /// was built; an ended pair of such a slot leaves both lists.
    ///
    /// 1. Group the pairs by their lower slot (a counting sort).
    /// 2. For each slot, mark its higher partners found now; an entry of a higher partner whose
    ///    flag disagrees with its mark began or ended; a marked partner without an entry began.
    /// 3. Sort both lists of changes.
    pub fn refresh_from_all(
        &mut self,
        proxies: &ProxyTable,
        dense: &DensePairs,
        stale: &MarkedSlots,
    ) -> &PairChanges {
        let slots = proxies.slot_count();
        self.reserve_slots(slots);
        self.changes.began.clear();
        self.changes.ended.clear();
        self.changes.ended.append(&mut self.pending_ended);
        self.moved.clear();

        // 1. Grouped by lower slot.
        self.found.group(dense, slots);

        // 2. Flags compared with the pairs found.
        for slot in 0..slots {
            let found = self.found.higher(slot);
            let has_reported = self.lists[slot]
                .as_slice()
                .iter()
                .any(|&entry| entry & REPORTED != 0);
            if found.is_empty() && !has_reported {
                continue;
            }
            let lower = slot as u32;
            let mark = next_mark(&mut self.mark, &mut self.marks);
            for &higher in found {
                self.marks[higher as usize] = mark;
            }
            let mut position = 0;
            loop {
                // Most entries keep their flag: they are scanned over one borrowed slice,
                // which is taken again after each (rare) change to the lists.
                let entries = self.lists[slot].as_slice();
                let mut changed = None;
                while position < entries.len() {
                    let entry = entries[position];
                    let partner = entry & SLOT_BITS;
                    position += 1;
                    if partner < lower {
                        continue;
                    }
                    let overlapping = self.marks[partner as usize] == mark;
                    // Found and listed: not to be added below.
                    self.marks[partner as usize] = 0;
                    if overlapping != (entry & REPORTED != 0) {
                        changed = Some((entry, partner, overlapping));
                        break;
                    }
                }
                let Some((entry, partner, overlapping)) = changed else {
                    break;
                };
                let pair = Pair::new(proxies.id_of(lower), proxies.id_of(partner));
                if overlapping {
                    self.lists[slot].as_mut_slice()[position - 1] = entry | REPORTED;
                    self.lists[partner as usize].set_flag(lower, REPORTED);
                    self.changes.began.push(pair);
                    continue;
                }
                self.changes.ended.push(pair);
                if stale.contains(slot) || stale.contains(partner as usize) {
                    // Perhaps not fat partners any more, perhaps added below in an earlier
                    // frame: dropped, so that lists waiting for their rebuild do not grow.
                    position -= 1;
                    self.lists[slot].swap_remove(position);
                    self.lists[partner as usize].remove_slot(lower);
                } else {
                    self.lists[slot].as_mut_slice()[position - 1] = entry & SLOT_BITS;
                    self.lists[partner as usize].set_flag(lower, 0);
                }
            }
            for &higher in found {
                if self.marks[higher as usize] == mark {
                    self.lists[slot].push(higher | REPORTED);
                    self.lists[higher as usize].push(lower | REPORTED);
                    self.changes
                        .began
                        .push(Pair::new(proxies.id_of(lower), proxies.id_of(higher)));
                }
            }
        }
        self.found.trim();
        self.changes.began.sort_unstable();
        self.changes.ended.sort_unstable();
        &self.changes
    }

    /// Every reported pair, sorted.
    pub fn current_pairs(&self, proxies: &ProxyTable) -> Vec<Pair> {
        sorted_pairs(
            proxies,
            self.lists.iter().enumerate().flat_map(|(slot, list)| {
                list.as_slice()
                    .iter()
                    .filter(|&&entry| entry & REPORTED != 0)
                    .map(move |&entry| (slot as u32, entry & SLOT_BITS))
            }),
        )
    }

    /// Checks the symmetry invariant.
    pub fn validate(&self, proxies: &ProxyTable) -> Result<(), String> {
        if !self.lifted.is_empty() {
            return Err("fat partners: lifted pairs left over".to_string());
        }
        let mut seen = Vec::new();
        for (slot, list) in self.lists.iter().enumerate() {
            if list.len() > 0 && !proxies.alive[slot] {
                return Err(format!("fat partners: free slot {slot} has a list"));
            }
            seen.clear();
            seen.extend(list.as_slice().iter().map(|&entry| entry & SLOT_BITS));
            seen.sort_unstable();
            if seen.windows(2).any(|pair| pair[0] == pair[1]) {
                return Err(format!("fat partners: slot {slot} lists a partner twice"));
            }
            for &entry in list.as_slice() {
                let partner = entry & SLOT_BITS;
                if partner as usize == slot {
                    return Err(format!("fat partners: slot {slot} lists itself"));
                }
                let back = self
                    .lists
                    .get(partner as usize)
                    .and_then(|other| {
                        let position = other.position_of_slot(slot as u32)?;
                        Some(other.as_slice()[position])
                    })
                    .map(|back| back & REPORTED);
                if back != Some(entry & REPORTED) {
                    return Err(format!(
                        "fat partners: {slot} lists {partner} (flag {}) but the other list \
                         disagrees ({back:?})",
                        entry & REPORTED != 0
                    ));
                }
            }
        }
        Ok(())
    }
}

impl FatPartnerList {
    /// Where the entry of partner `slot` is, whatever its flag.
    #[inline]
    fn position_of_slot(&self, slot: u32) -> Option<usize> {
        self.as_slice()
            .iter()
            .position(|&entry| entry & SLOT_BITS == slot)
    }

    /// Removes the entry of partner `slot`, if present.
    #[inline]
    fn remove_slot(&mut self, slot: u32) {
        if let Some(position) = self.position_of_slot(slot) {
            self.swap_remove(position);
        }
    }

    /// Sets the flag of partner `slot`'s entry to `flag` (0 or [`REPORTED`]).
    #[inline]
    fn set_flag(&mut self, slot: u32, flag: u32) {
        if let Some(position) = self.position_of_slot(slot) {
            let entry = &mut self.as_mut_slice()[position];
            *entry = (*entry & SLOT_BITS) | flag;
        } else {
            debug_assert!(false, "fat partner lists out of step");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::broad::{BroadPhase, DynamicTree};
    use crate::math::Vec2;
    use crate::shape::Aabb;

    fn unit_box(x: f32, y: f32) -> Aabb {
        Aabb {
            min: Vec2::new(x, y),
            max: Vec2::new(x + 1.0, y + 1.0),
        }
    }

    /// Two proxies that move in the same frame and begin (then end) overlapping each find the
    /// change from their own side, with few enough moving for both to test the pair: it is
    /// reported once, and both flags agree.
    #[test]
    fn a_pair_of_two_moved_proxies_changes_once() {
        let mut items: Vec<(Aabb, u64)> = (0..40)
            .map(|i| (unit_box(3.0 * i as f32, 10.0), i))
            .collect();
        items.push((unit_box(0.0, 0.0), 40));
        items.push((unit_box(1.2, 0.0), 41));
        let (mut tree, ids) = DynamicTree::build(&items).unwrap();
        assert!(tree.update_pairs().began.is_empty());
        let (a, b) = (ids[40], ids[41]);
        for (x_a, x_b, began, ended) in [(0.1, 1.05, 1, 0), (0.0, 1.2, 0, 1), (0.15, 1.1, 1, 0)] {
            tree.update(a, unit_box(x_a, 0.0)).unwrap();
            tree.update(b, unit_box(x_b, 0.0)).unwrap();
            let changes = tree.update_pairs();
            assert_eq!((changes.began.len(), changes.ended.len()), (began, ended));
            tree.validate().unwrap();
        }
        assert_eq!(tree.current_pairs().len(), 1);
    }

    /// Every proxy moves every frame, so every frame takes the pass from scratch and the lists
    /// wait for their rebuild; one box walks along a row of 400 others. Its list keeps only
    /// the pairs it had when its list was built and those overlapping now, not every box it met.
    #[test]
    fn lists_waiting_for_their_rebuild_stay_short() {
        let row: Vec<(Aabb, u64)> = (0..400)
            .map(|i| (unit_box(1.5 * i as f32, 0.0), i))
            .collect();
        let (mut tree, ids) = DynamicTree::build(&row).unwrap();
        let walker = tree.insert(unit_box(-3.0, 0.5), 400).unwrap();
        tree.update_pairs();
        let mut longest = 0;
        for frame in 1..=600 {
            let jitter = if frame % 2 == 0 { 0.01 } else { -0.01 };
            for (id, (aabb, _)) in ids.iter().zip(&row) {
                let moved = Aabb {
                    min: aabb.min + Vec2::new(0.0, jitter),
                    max: aabb.max + Vec2::new(0.0, jitter),
                };
                tree.update(*id, moved).unwrap();
            }
            tree.update(walker, unit_box(-3.0 + frame as f32, 0.5))
                .unwrap();
            tree.update_pairs();
            tree.validate().unwrap();
            longest = longest.max(tree.pairs.entries(walker.index() as usize).len());
        }
        let walker_pairs = tree
            .current_pairs()
            .iter()
            .filter(|pair| pair.lower() == walker || pair.higher() == walker)
            .count();
        assert!(walker_pairs > 0, "the walker ends inside the row");
        assert!(longest <= 6, "the walker's list reached {longest} entries");
    }
}
