//! Incremental pair finding shared by the broad phases: which pairs began and ended since the
//! last report, at a cost proportional to the proxies that moved.

use crate::broad::pairs::dense_pairs::DensePairs;
use crate::broad::pairs::partner_list::{PartnerList, Slots};
use crate::broad::proxy_table::ProxyTable;
use crate::broad::{Pair, PairChanges};
use crate::prefetch::prefetch;

/// Where a broad phase finds the proxies that may overlap a moved one.
pub(crate) trait CandidateSource {
    /// Calls `visit` for (at least) every live proxy whose exact box overlaps slot `slot`'s; may
    /// visit more, and may visit `slot` itself.
    fn for_each_candidate(&self, slot: u32, visit: &mut impl FnMut(u32));
}

/// How many moved proxies ahead the refresh asks for a proxy's partner list and box.
const PREFETCH_DISTANCE: usize = 8;

/// Partner lists up to this long are compared by scanning in the pass from scratch; longer
/// ones go through the mark array.
const SCAN_LIMIT: usize = 8;

/// Below this many live proxies pairs are always found incrementally (see
/// [`MarkedSlots::most_of`]).
const FROM_SCRATCH_MIN_PROXIES: usize = 256;

/// The pair set reported at the last [`PairTracker::refresh`], kept as per-proxy partner lists.
///
/// **Invariant:** `partners` is symmetric (`b ∈ partners[a]` ⇔ `a ∈ partners[b]`), names only
/// live proxies, and equals the set of overlapping pairs as of the last refresh, minus pairs of
/// proxies removed since (those wait in `pending_ended`).
#[derive(Clone, Debug, Default)]
pub(crate) struct PairTracker {
    partners: Vec<PartnerList>,
    moved: MarkedSlots,
    marks: Vec<u32>,
    mark: u32,
    pending_ended: Vec<Pair>,
    changes: PairChanges,
    scratch: Vec<u32>,
    /// [`PairTracker::refresh_from_all`]: the pairs found.
    found: PairsByLower,
    /// [`PairTracker::refresh_from_all`]: one slot's began partners.
    began_scratch: Vec<u32>,
}

impl PairTracker {
    /// Grows the per-slot tables to `slot_count`.
    pub fn reserve_slots(&mut self, slot_count: usize) {
        if self.partners.len() < slot_count {
            self.partners.resize_with(slot_count, PartnerList::default);
            self.moved.reserve(slot_count);
            self.marks.resize(slot_count, 0);
        }
    }

    /// Records that slot `index` was inserted or its box changed.
    #[inline]
    pub fn mark_moved(&mut self, index: u32) {
        self.moved.mark(index);
    }

    /// Ends every reported pair of slot `index`, which is about to be freed (still live in `proxies`).
    pub fn proxy_removed(&mut self, index: u32, proxies: &ProxyTable) {
        self.reserve_slots(index as usize + 1);
        let slot = index as usize;
        self.moved.unmark(slot);
        let removed_id = proxies.id_of(index);
        let mut partners = std::mem::take(&mut self.scratch);
        self.partners[slot].take_into(&mut partners);
        for &partner in &partners {
            self.partners[partner as usize].remove_value(index);
            self.pending_ended
                .push(Pair::new(removed_id, proxies.id_of(partner)));
        }
        self.scratch = partners;
    }

    /// Brings the reported set up to date and returns what changed. For each moved proxy:
    ///
    /// 1. Drop reported partners whose exact boxes stopped overlapping: those pairs ended.
    /// 2. Mark the remaining partners, then add every unmarked candidate whose exact box
    ///    overlaps: those pairs began. A pair of two moved proxies is added by the first one
    ///    processed and found marked when the second one is processed.
    /// 3. Finally sort both lists so the report is deterministic and easy to merge.
    pub fn refresh(
        &mut self,
        proxies: &ProxyTable,
        candidates: &impl CandidateSource,
    ) -> &PairChanges {
        self.reserve_slots(proxies.slot_count());
        self.changes.began.clear();
        self.changes.ended.clear();
        self.changes.ended.append(&mut self.pending_ended);
        let moved = self.moved.take_list();
        for (position, &index) in moved.iter().enumerate() {
            if let Some(&ahead) = moved.get(position + PREFETCH_DISTANCE) {
                prefetch(&self.partners, ahead as usize);
                prefetch(&proxies.tight, ahead as usize);
            }
            let slot = index as usize;
            if !self.moved.contains(slot) || !proxies.alive[slot] {
                continue;
            }
            self.moved.unmark(slot);
            let tight = proxies.tight[slot];
            let id = proxies.id_of(index);

            // 1. Lost pairs.
            let mut position = 0;
            while position < self.partners[slot].as_slice().len() {
                let partner = self.partners[slot].as_slice()[position];
                if tight.overlaps(&proxies.tight[partner as usize]) {
                    position += 1;
                    continue;
                }
                self.partners[slot].swap_remove(position);
                self.partners[partner as usize].remove_value(index);
                self.changes
                    .ended
                    .push(Pair::new(id, proxies.id_of(partner)));
            }

            // 2. New pairs.
            let mark = next_mark(&mut self.mark, &mut self.marks);
            for &partner in self.partners[slot].as_slice() {
                self.marks[partner as usize] = mark;
            }
            self.marks[slot] = mark;
            let marks = &mut self.marks;
            let partners = &mut self.partners;
            let began = &mut self.changes.began;
            candidates.for_each_candidate(index, &mut |candidate| {
                let other = candidate as usize;
                if marks[other] == mark
                    || !proxies.alive[other]
                    || !tight.overlaps(&proxies.tight[other])
                {
                    return;
                }
                marks[other] = mark;
                partners[slot].push(candidate);
                partners[other].push(index);
                began.push(Pair::new(id, proxies.id_of(candidate)));
            });
        }
        self.moved.give_back(moved);

        // 3. Deterministic order.
        self.changes.began.sort_unstable();
        self.changes.ended.sort_unstable();
        &self.changes
    }

    /// Whether so many proxies moved since the last refresh (half or more, in a set large
    /// enough for it to matter) that finding every pair from scratch with
    /// [`refresh_from_all`](PairTracker::refresh_from_all) beats the incremental refresh.
    fn most_moved(&self, proxies: &ProxyTable) -> bool {
        self.moved.most_of(proxies.len())
    }

    /// When most proxies moved (see [`most_moved`](PairTracker::most_moved)) and `dense`
    /// builds the dense copy of the live boxes (it may decline, for boxes spread too far
    /// apart), brings the reported set up to date from every pair with
    /// [`refresh_from_all`](PairTracker::refresh_from_all) and returns `true`; otherwise
    /// changes nothing and returns `false`, and the incremental refresh is due.
    pub fn refresh_from_scratch(
        &mut self,
        proxies: &ProxyTable,
        dense: impl FnOnce() -> Option<DensePairs>,
    ) -> bool {
        if !self.most_moved(proxies) {
            return false;
        }
        let Some(dense) = dense() else {
            return false;
        };
        self.refresh_from_all(proxies, &dense);
        true
    }

    /// Brings the reported set up to date from every overlapping pair of `dense` (the live
    /// boxes found from scratch) and returns what changed: exactly what
    /// [`refresh`](PairTracker::refresh) would return.
    ///
    /// 1. Group the pairs by their lower slot (a counting sort).
    /// 2. For each slot, compare its higher partners before and now (by scanning short lists,
    ///    through the mark array otherwise): the old ones not found ended, the found ones not
    ///    old began. Both partner lists of each change are edited at once.
    /// 3. Sort both lists of changes.
    fn refresh_from_all(&mut self, proxies: &ProxyTable, dense: &DensePairs) -> &PairChanges {
        let slots = proxies.slot_count();
        self.reserve_slots(slots);
        self.changes.began.clear();
        self.changes.ended.clear();
        self.changes.ended.append(&mut self.pending_ended);
        self.moved.clear();

        // 1. Grouped by lower slot.
        self.found.group(dense, slots);

        // 2. Ended and began pairs, each applied to both partner lists at once. A slot's list
        //    is read before anything changes it; later slots' changes touch only its entries
        //    of lower slots, which it does not read again.
        let mut ended = std::mem::take(&mut self.scratch);
        let mut began = std::mem::take(&mut self.began_scratch);
        for slot in 0..slots {
            let found = self.found.higher(slot);
            let old = self.partners[slot].as_slice();
            if found.is_empty() && old.is_empty() {
                continue;
            }
            let lower = slot as u32;
            ended.clear();
            began.clear();
            // Short lists are scanned; longer ones go through the mark array.
            let short = old.len() <= SCAN_LIMIT && found.len() <= SCAN_LIMIT;
            let mut marks = (&mut self.mark, self.marks.as_mut_slice());
            push_absent(
                old,
                found,
                |higher| higher > lower,
                short,
                &mut marks,
                &mut ended,
            );
            push_absent(found, old, |_| true, short, &mut marks, &mut began);
            let id = proxies.id_of(lower);
            for &higher in &ended {
                self.partners[slot].remove_value(higher);
                self.partners[higher as usize].remove_value(lower);
                self.changes
                    .ended
                    .push(Pair::new(id, proxies.id_of(higher)));
            }
            for &higher in &began {
                self.partners[slot].push(higher);
                self.partners[higher as usize].push(lower);
                self.changes
                    .began
                    .push(Pair::new(id, proxies.id_of(higher)));
            }
        }
        self.scratch = ended;
        self.began_scratch = began;
        self.found.trim();
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
        sorted_pairs(
            proxies,
            self.partners
                .iter()
                .enumerate()
                .flat_map(|(slot, partners)| {
                    partners
                        .as_slice()
                        .iter()
                        .map(move |&partner| (slot as u32, partner))
                }),
        )
    }

    /// Checks the invariant; used by `validate()` of the structures.
    pub fn validate(&self, proxies: &ProxyTable) -> Result<(), String> {
        validate_symmetric("pair tracker", &self.partners, proxies)
    }
}

/// A set of slots marked since the last refresh (moved proxies, or the tree's proxies with a new
/// fat box): each listed in the order first marked, with a flag bit per slot. A slot unmarked
/// and marked again is listed twice; its first turn clears the flag and the second is skipped.
///
/// The flags are bits, not bytes: a frame marks and tests slots all over the table, and at a
/// million slots the bits take 128 KB, which stays in cache, where bytes would take a megabyte.
#[derive(Clone, Debug, Default)]
pub(crate) struct MarkedSlots {
    listed: Vec<u32>,
    /// Bit `s % 64` of word `s / 64` is slot `s`'s flag.
    flags: Vec<u64>,
}

impl MarkedSlots {
    /// Grows the flags to `slot_count` slots.
    pub fn reserve(&mut self, slot_count: usize) {
        let words = slot_count.div_ceil(64);
        if self.flags.len() < words {
            self.flags.resize(words, 0);
        }
    }

    /// Marks slot `index`.
    #[inline(always)]
    pub fn mark(&mut self, index: u32) {
        let slot = index as usize;
        if slot / 64 >= self.flags.len() {
            self.reserve(slot + 1);
        }
        let word = &mut self.flags[slot / 64];
        let bit = 1u64 << (slot % 64);
        if *word & bit == 0 {
            *word |= bit;
            self.listed.push(index);
        }
    }

    /// Whether slot `slot` is marked (and not yet had its turn).
    #[inline]
    pub fn contains(&self, slot: usize) -> bool {
        self.flags[slot / 64] & (1u64 << (slot % 64)) != 0
    }

    /// Clears the mark of slot `slot` (it may stay listed: its turn is then skipped).
    #[inline]
    pub fn unmark(&mut self, slot: usize) {
        self.flags[slot / 64] &= !(1u64 << (slot % 64));
    }

    /// How many entries are listed.
    pub fn len(&self) -> usize {
        self.listed.len()
    }

    /// Takes the list out for a refresh (the marks stay until each slot's turn); give it
    /// back with [`MarkedSlots::give_back`].
    pub fn take_list(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.listed)
    }

    /// Returns the list taken out, emptied, keeping its capacity.
    pub fn give_back(&mut self, mut list: Vec<u32>) {
        list.clear();
        self.listed = list;
    }

    /// Clears every mark and the list.
    pub fn clear(&mut self) {
        // Every set bit belongs to a listed slot, so zeroing the words of the listed slots
        // clears them all.
        for &index in &self.listed {
            self.flags[index as usize / 64] = 0;
        }
        self.listed.clear();
    }

    /// Whether so many of `live` proxies are marked (half or more, in a set large enough for it
    /// to matter) that finding every pair from scratch beats the incremental refresh.
    pub fn most_of(&self, live: usize) -> bool {
        live >= FROM_SCRATCH_MIN_PROXIES && self.listed.len() * 2 >= live
    }
}

/// Every pair of a pass from scratch, grouped by lower slot with a counting sort.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairsByLower {
    /// Every pair found, `(lower, higher)` slot.
    all_pairs: Vec<(u32, u32)>,
    /// `higher_of[starts[s]..starts[s + 1]]` are the higher slots paired with slot `s`.
    starts: Vec<u32>,
    /// See `starts`.
    higher_of: Vec<u32>,
    /// The pairs each part of the grid found, when the search is split over threads.
    #[cfg(feature = "rayon")]
    parts: Vec<Vec<(u32, u32)>>,
}

/// The fewest slots whose pairs [`PairsByLower::group`] finds on several threads (feature
/// `rayon`).
#[cfg(feature = "rayon")]
const PARALLEL_GROUP_SLOTS: usize = 4096;

impl PairsByLower {
    /// Groups the pairs of `dense` among `slots` slots. With the `rayon` feature and at least
    /// [`PARALLEL_GROUP_SLOTS`] slots, the grid's rows are searched in parts on the current
    /// pool's threads and the parts' pairs concatenated in order: the same pairs, grouped the
    /// same way.
    pub fn group(&mut self, dense: &DensePairs, slots: usize) {
        self.find_all(dense, slots);
        let all_pairs = &mut self.all_pairs;
        let starts = &mut self.starts;
        starts.clear();
        starts.resize(slots + 1, 0);
        for &(lower, _) in all_pairs.iter() {
            starts[lower as usize] += 1;
        }
        let mut total = 0;
        for start in starts.iter_mut() {
            total += *start;
            *start = total;
        }
        let higher_of = &mut self.higher_of;
        higher_of.clear();
        higher_of.resize(all_pairs.len(), 0);
        for &(lower, higher) in all_pairs.iter().rev() {
            let start = &mut starts[lower as usize];
            *start -= 1;
            higher_of[*start as usize] = higher;
        }
    }

    /// Every pair of `dense` into `all_pairs`, `(lower, higher)`, in the grid's order.
    fn find_all(&mut self, dense: &DensePairs, slots: usize) {
        self.all_pairs.clear();
        #[cfg(feature = "rayon")]
        if slots >= PARALLEL_GROUP_SLOTS && rayon::current_num_threads() > 1 {
            use rayon::prelude::*;
            let units = dense.units(dense.rows_for_parts(4 * rayon::current_num_threads()));
            if self.parts.len() < units.len() {
                self.parts.resize_with(units.len(), Vec::new);
            }
            let parts = &mut self.parts[..units.len()];
            parts
                .par_iter_mut()
                .zip(units.par_iter())
                .for_each(|(found, (level, rows))| {
                    found.clear();
                    dense.rows_pairs(*level, rows.clone(), &mut |first, second| {
                        found.push((first.min(second), first.max(second)))
                    });
                });
            for found in parts.iter() {
                self.all_pairs.extend_from_slice(found);
            }
            return;
        }
        let _ = slots;
        let all_pairs = &mut self.all_pairs;
        dense.for_each_pair(&mut |first, second| {
            all_pairs.push((first.min(second), first.max(second)))
        });
    }

    /// The higher slots paired with slot `slot`.
    #[inline]
    pub fn higher(&self, slot: usize) -> &[u32] {
        &self.higher_of[self.starts[slot] as usize..self.starts[slot + 1] as usize]
    }

    /// Gives back buffers far larger than the last grouping needed (after a pathological frame).
    pub fn trim(&mut self) {
        let needed = self.all_pairs.len().max(4096);
        if self.all_pairs.capacity() > 8 * needed {
            self.all_pairs.shrink_to(2 * needed);
            self.higher_of.shrink_to(2 * needed);
        }
    }
}

/// Pushes onto `out` each entry of `values` accepted by `keep` that `among` does not hold: by
/// scanning `among` when `short`, else through the mark array `(stamp, marks)`.
#[inline(always)]
fn push_absent(
    values: &[u32],
    among: &[u32],
    keep: impl Fn(u32) -> bool,
    short: bool,
    (stamp, marks): &mut (&mut u32, &mut [u32]),
    out: &mut Vec<u32>,
) {
    if short {
        for &value in values {
            if keep(value) && !holds(among, value) {
                out.push(value);
            }
        }
        return;
    }
    let mark = next_mark(stamp, marks);
    for &value in among {
        marks[value as usize] = mark;
    }
    out.extend(
        values
            .iter()
            .copied()
            .filter(|&value| keep(value) && marks[value as usize] != mark),
    );
}

/// Whether the short list `values` holds `value` (every entry compared, without an early exit).
#[inline(always)]
fn holds(values: &[u32], value: u32) -> bool {
    values
        .iter()
        .fold(false, |found, &item| found | (item == value))
}

/// The next stamp for the mark array (clearing the array when the stamps wrap round), so that
/// no slot carries it yet; never 0.
pub(crate) fn next_mark(mark: &mut u32, marks: &mut [u32]) -> u32 {
    *mark = mark.wrapping_add(1);
    if *mark == 0 {
        marks.iter_mut().for_each(|value| *value = 0);
        *mark = 1;
    }
    *mark
}

/// The pairs of `slot_pairs` listed from their lower slot (each pair of symmetric lists once),
/// as ids, sorted.
pub(crate) fn sorted_pairs(
    proxies: &ProxyTable,
    slot_pairs: impl Iterator<Item = (u32, u32)>,
) -> Vec<Pair> {
    let mut pairs: Vec<Pair> = slot_pairs
        .filter(|&(slot, partner)| partner > slot)
        .map(|(slot, partner)| Pair::new(proxies.id_of(slot), proxies.id_of(partner)))
        .collect();
    pairs.sort_unstable();
    pairs
}

/// Checks that partner lists are symmetric, free of self-pairs, and name only live proxies.
pub(crate) fn validate_symmetric(
    what: &str,
    lists: &[impl Slots],
    proxies: &ProxyTable,
) -> Result<(), String> {
    for (slot, partners) in lists.iter().enumerate() {
        if !partners.slots().is_empty() && !proxies.alive[slot] {
            return Err(format!("{what}: free slot {slot} still has partners"));
        }
        for &partner in partners.slots() {
            if partner as usize == slot {
                return Err(format!("{what}: slot {slot} paired with itself"));
            }
            if !lists[partner as usize].slots().contains(&(slot as u32)) {
                return Err(format!(
                    "{what}: {slot} lists {partner} but not the other way round"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::shape::Aabb;

    /// Brute force over all live slots.
    struct Everything(usize);

    impl CandidateSource for Everything {
        fn for_each_candidate(&self, _slot: u32, visit: &mut impl FnMut(u32)) {
            (0..self.0 as u32).for_each(visit);
        }
    }

    fn square(x: f32) -> Aabb {
        Aabb {
            min: Vec2::new(x, 0.0),
            max: Vec2::new(x + 1.0, 1.0),
        }
    }

    /// Slots on both sides of word boundaries: each mark, unmark and re-mark touches only its
    /// own bit, a re-marked slot is listed twice, and clearing leaves nothing marked.
    #[test]
    fn marked_slots_keep_one_bit_per_slot() {
        let mut marked = MarkedSlots::default();
        let slots = [0u32, 1, 63, 64, 65, 127, 128, 1000];
        for &slot in &slots {
            marked.mark(slot);
            marked.mark(slot);
        }
        assert_eq!(marked.len(), slots.len());
        for slot in 0..1001 {
            assert_eq!(
                marked.contains(slot),
                slots.contains(&(slot as u32)),
                "slot {slot}"
            );
        }
        marked.unmark(64);
        assert!(!marked.contains(64) && marked.contains(63) && marked.contains(65));
        marked.mark(64);
        assert_eq!(marked.len(), slots.len() + 1);
        marked.clear();
        assert_eq!(marked.len(), 0);
        assert!((0..1001).all(|slot| !marked.contains(slot)));
        // Growing keeps the marks already made.
        marked.mark(5);
        marked.reserve(100_000);
        marked.mark(99_999);
        assert!(marked.contains(5) && marked.contains(99_999) && !marked.contains(99_998));
    }

    #[test]
    fn the_pass_from_scratch_gives_back_what_a_crowded_frame_needed() {
        let mut proxies = ProxyTable::default();
        let mut tracker = PairTracker::default();
        let ids: Vec<_> = (0..1000)
            .map(|key| proxies.allocate(square(0.0), key).unwrap())
            .collect();
        let refresh = |tracker: &mut PairTracker, proxies: &ProxyTable| {
            for id in &ids {
                tracker.mark_moved(id.index());
            }
            assert!(tracker.most_moved(proxies));
            let dense = DensePairs::of_sampled_boxes(proxies.dense_input()).unwrap();
            tracker.refresh_from_all(proxies, &dense).clone()
        };
        let all = 1000 * 999 / 2;
        let changes = refresh(&mut tracker, &proxies);
        assert_eq!((changes.began.len(), changes.ended.len()), (all, 0));
        assert!(tracker.found.all_pairs.capacity() >= all);
        for (k, id) in ids.iter().enumerate() {
            proxies.tight[id.index() as usize] = square(3.0 * k as f32);
        }
        let changes = refresh(&mut tracker, &proxies);
        assert_eq!((changes.began.len(), changes.ended.len()), (0, all));
        assert!(tracker.found.all_pairs.capacity() <= 2 * 4096);
        assert!(tracker.found.higher_of.capacity() <= 2 * 4096);
        assert!(tracker.current_pairs(&proxies).is_empty());
        tracker.validate(&proxies).unwrap();
    }

    #[test]
    fn reports_began_then_ended() {
        let mut proxies = ProxyTable::default();
        let mut tracker = PairTracker::default();
        let a = proxies.allocate(square(0.0), 0).unwrap();
        let b = proxies.allocate(square(0.5), 1).unwrap();
        let c = proxies.allocate(square(5.0), 2).unwrap();
        for id in [a, b, c] {
            tracker.mark_moved(id.index());
        }
        let changes = tracker.refresh(&proxies, &Everything(3)).clone();
        assert_eq!(changes.began, vec![Pair::new(a, b)]);
        assert!(changes.ended.is_empty());

        proxies.tight[b.index() as usize] = square(4.5);
        tracker.mark_moved(b.index());
        let changes = tracker.refresh(&proxies, &Everything(3)).clone();
        assert_eq!(changes.began, vec![Pair::new(b, c)]);
        assert_eq!(changes.ended, vec![Pair::new(a, b)]);

        tracker.proxy_removed(c.index(), &proxies);
        proxies.release(c.index());
        let changes = tracker.refresh(&proxies, &Everything(3)).clone();
        assert_eq!(changes.ended, vec![Pair::new(b, c)]);
        assert!(tracker.current_pairs(&proxies).is_empty());
        tracker.validate(&proxies).unwrap();
    }
}
