//! `World::update`: broad phase, filter, narrow phase and events.

use super::touching::{ColliderNow, PairFacts, PairTest};
use super::{
    bit_is_set, one_way_allows, ordered, prefetch_shape_heap, ColliderHandle, EndReason,
    UpdateStats, World,
};
use crate::prefetch::{prefetch, prefetch_item};
use crate::query::{contacts_of_valid, overlaps_of_valid, Manifold};

/// What the narrow phase answers for one re-tested pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum PairAnswer {
    /// Not touching: boxes apart, filtered out, shapes apart, or refused by a one-way setting.
    Apart,
    /// Touching, with a sensor on either side: no manifold.
    SensorOverlap,
    /// Two solid colliders touching, with their manifold.
    Touching(Manifold),
}

impl PairAnswer {
    /// The answer for a pair known to touch, from its stored manifold (`None` for sensors).
    #[inline]
    pub fn touching_with(manifold: Option<Manifold>) -> PairAnswer {
        match manifold {
            Some(manifold) => PairAnswer::Touching(manifold),
            None => PairAnswer::SensorOverlap,
        }
    }

    /// Whether the pair touches.
    #[inline]
    pub fn is_touching(&self) -> bool {
        !matches!(self, PairAnswer::Apart)
    }

    /// The manifold of a solid touching pair; `None` for sensors and apart pairs.
    #[inline]
    pub fn manifold(&self) -> Option<Manifold> {
        match self {
            PairAnswer::Touching(manifold) => Some(*manifold),
            PairAnswer::Apart | PairAnswer::SensorOverlap => None,
        }
    }
}

/// A pair of live colliders (`a < b`) to re-test, as one sortable number
/// `(a.index << 32) | b.index` (handle order is index order among live colliders, so sorting
/// keys sorts pairs) and the two generations, so the handles come back without reading the
/// colliders' slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PairKey {
    pub(super) key: u64,
    generations: u64,
}

impl PairKey {
    /// The key of the pair `(a, b)`, which must be in order (`a < b`).
    #[inline]
    pub(super) fn new(a: ColliderHandle, b: ColliderHandle) -> PairKey {
        PairKey {
            key: (u64::from(a.index) << 32) | u64::from(b.index),
            generations: (u64::from(a.generation) << 32) | u64::from(b.generation),
        }
    }

    /// The pair's handles, `a < b`.
    #[inline]
    pub(super) fn handles(self) -> (ColliderHandle, ColliderHandle) {
        let handle = |index: u64, generation: u64| ColliderHandle {
            index: index as u32,
            generation: generation as u32,
        };
        (
            handle(self.key >> 32, self.generations >> 32),
            handle(
                self.key & u64::from(u32::MAX),
                self.generations & u64::from(u32::MAX),
            ),
        )
    }
}

/// Sorts pair keys whose indices are below `2^index_bits`: a least-significant-digit radix
/// sort over the `2 * index_bits` bits in use (a few passes of up to 12 bits), which for the
/// thousands of pairs of an update costs a fraction of a comparison sort. `buffer` is working
/// memory.
pub(super) fn sort_pair_keys(keys: &mut Vec<PairKey>, buffer: &mut Vec<PairKey>, index_bits: u32) {
    const MAX_DIGIT_BITS: u32 = 12;
    if keys.len() < 256 {
        keys.sort_unstable_by_key(|pair| pair.key);
        return;
    }
    // Pack the keys to `(a << index_bits) | b` so that only the bits in use are sorted.
    let low_mask = (1u64 << index_bits) - 1;
    for pair in keys.iter_mut() {
        pair.key = ((pair.key >> 32) << index_bits) | (pair.key & low_mask);
    }
    let total_bits = 2 * index_bits;
    // Fewer keys, narrower digits, so that the digit counts stay a small part of each pass
    // (a part of a sort split over threads holds a few thousand keys).
    let significant_bits = usize::BITS - keys.len().leading_zeros();
    let max_digit_bits = significant_bits.saturating_sub(2).clamp(8, MAX_DIGIT_BITS);
    let passes = total_bits.div_ceil(max_digit_bits);
    let digit_bits = total_bits.div_ceil(passes);
    let digit_mask = (1u64 << digit_bits) - 1;
    let mut counts = vec![0usize; 1 << digit_bits];
    buffer.clear();
    buffer.resize(
        keys.len(),
        PairKey {
            key: 0,
            generations: 0,
        },
    );
    for pass in 0..passes {
        let shift = pass * digit_bits;
        counts.iter_mut().for_each(|count| *count = 0);
        for pair in keys.iter() {
            counts[((pair.key >> shift) & digit_mask) as usize] += 1;
        }
        let mut start = 0;
        for count in counts.iter_mut() {
            let size = *count;
            *count = start;
            start += size;
        }
        for &pair in keys.iter() {
            let digit = ((pair.key >> shift) & digit_mask) as usize;
            buffer[counts[digit]] = pair;
            counts[digit] += 1;
        }
        std::mem::swap(keys, buffer);
    }
    for pair in keys.iter_mut() {
        pair.key = ((pair.key >> index_bits) << 32) | (pair.key & low_mask);
    }
}

impl super::UpdateScratch {
    /// Frees the buffers that grew far beyond this update's needs (a pile of colliders that
    /// began touching all at once, then settled), before the merge writes the events: their
    /// memory would otherwise stay taken beside the events. A buffer used about as much every
    /// update is kept, so that updates allocate nothing once warm. Called once the pairs to
    /// test are listed: every buffer but `tests` holds only what this update used.
    fn release_excess(&mut self) {
        release_excess(&mut self.began);
        release_excess(&mut self.ended);
        release_excess(&mut self.retest_keys);
        release_excess(&mut self.apart_keys);
        release_excess(&mut self.sort_buffer);
        release_excess(&mut self.merge_buffer);
        release_excess(&mut self.tests);
        release_excess(&mut self.answers);
    }
}

/// Shrinks `buffer` to its length when it holds 16 MiB or more, over four times what it holds.
fn release_excess<T>(buffer: &mut Vec<T>) {
    const LARGE_BYTES: usize = 16 << 20;
    let capacity_bytes = buffer.capacity() * std::mem::size_of::<T>();
    if capacity_bytes >= LARGE_BYTES && buffer.capacity() > 4 * buffer.len() {
        buffer.shrink_to(buffer.len());
    }
}

/// Visits the union of two sorted lists of distinct keys in key order, each key once (as
/// `first` has it when both do), with whether `second` holds it.
#[inline]
pub(super) fn for_each_in_union(
    first: &[PairKey],
    second: &[PairKey],
    mut visit: impl FnMut(PairKey, bool),
) {
    let (mut i, mut j) = (0, 0);
    while i < first.len() && j < second.len() {
        let (a, b) = (first[i], second[j]);
        if a.key <= b.key {
            let in_both = a.key == b.key;
            visit(a, in_both);
            i += 1;
            j += usize::from(in_both);
        } else {
            visit(b, true);
            j += 1;
        }
    }
    first[i..].iter().for_each(|&a| visit(a, false));
    second[j..].iter().for_each(|&b| visit(b, true));
}

/// The union of two sorted lists of distinct keys into `merged`, sorted (a key in both is kept
/// once).
fn merge_keys(first: &[PairKey], second: &[PairKey], merged: &mut Vec<PairKey>) {
    merged.clear();
    for_each_in_union(first, second, |key, _| merged.push(key));
}

/// Lists the pairs of each changed collider of `changed` with its partners into `keys`, in
/// `changed`'s order: a pair of two changed colliders only from the smaller one. Stale handles
/// (of colliders removed since) list nothing.
pub(super) fn list_changed_pairs(
    slots: &[super::Slot],
    dirty_bits: &[u64],
    changed: &[ColliderHandle],
    keys: &mut Vec<PairKey>,
) {
    let live_entry = |handle: ColliderHandle| {
        let slot = &slots[handle.index as usize];
        slot.entry
            .as_ref()
            .filter(|_| slot.generation == handle.generation)
    };
    for batch in changed.chunks(NARROW_BATCH) {
        // Ask for the batch's partner lists first, so that their cache misses overlap.
        for entry in batch.iter().filter_map(|&handle| live_entry(handle)) {
            prefetch(&entry.partners, 0);
        }
        for &handle in batch {
            let Some(entry) = live_entry(handle) else {
                continue;
            };
            keys.extend(
                entry
                    .partners
                    .iter()
                    .filter(|&&partner| handle < partner || !bit_is_set(dirty_bits, partner.index))
                    .map(|&partner| {
                        let (a, b) = ordered(handle, partner);
                        PairKey::new(a, b)
                    }),
            );
        }
    }
}

/// Updates the partner lists of `slots`' colliders: the pairs of `ended` leave them, then
/// those of `began` join them, in list order. With the `rayon` feature and at least
/// [`PARALLEL_PARTNER_CHANGES`] changes, the slots are cut into one range a thread and each
/// thread applies, in the same order, the changes of the lists in its range: every list ends
/// exactly as the serial order leaves it.
fn update_partner_lists(slots: &mut [super::Slot], ended: &[PairKey], began: &[PairKey]) {
    // The entry of `handle` if `slots`, starting at slot `first_index`, holds it.
    fn entry_of(
        slots: &mut [super::Slot],
        first_index: usize,
        handle: ColliderHandle,
    ) -> Option<&mut super::Entry> {
        (handle.index as usize)
            .checked_sub(first_index)
            .and_then(|index| slots.get_mut(index))
            .and_then(|slot| slot.entry.as_mut())
    }
    let apply = |slots: &mut [super::Slot], first_index: usize| {
        for &pair in ended {
            let (a, b) = pair.handles();
            for (from, to) in [(a, b), (b, a)] {
                if let Some(entry) = entry_of(slots, first_index, from) {
                    if let Some(position) = entry.partners.iter().position(|&p| p == to) {
                        entry.partners.swap_remove(position);
                    }
                }
            }
        }
        for &pair in began {
            let (a, b) = pair.handles();
            for (from, to) in [(a, b), (b, a)] {
                if let Some(entry) = entry_of(slots, first_index, from) {
                    entry.partners.push(to);
                }
            }
        }
    };
    #[cfg(feature = "rayon")]
    {
        let threads = rayon::current_num_threads();
        if ended.len() + began.len() >= PARALLEL_PARTNER_CHANGES && threads > 1 {
            use rayon::prelude::*;
            let range_len = slots.len().div_ceil(threads).max(1);
            slots
                .par_chunks_mut(range_len)
                .enumerate()
                .for_each(|(range, slots)| apply(slots, range * range_len));
            return;
        }
    }
    apply(slots, 0);
}

/// `broad`'s `update_pairs` with `beside`, when given, run on the other side of a
/// `rayon::join` (feature `rayon`; else first).
fn update_pairs_beside<B: crate::broad::BroadPhase + Send>(
    broad: &mut B,
    beside: Option<impl FnOnce() + Send>,
) -> &crate::broad::PairChanges {
    match beside {
        #[cfg(feature = "rayon")]
        Some(beside) => rayon::join(|| broad.update_pairs(), beside).0,
        #[cfg(not(feature = "rayon"))]
        Some(beside) => {
            beside();
            broad.update_pairs()
        }
        None => broad.update_pairs(),
    }
}

/// Where [`BroadKeys::fetch`] writes the broad phase's changes: its began and ended box
/// pairs, and their keys.
struct BroadKeys<'a> {
    pub began: &'a mut Vec<crate::broad::Pair>,
    pub ended: &'a mut Vec<crate::broad::Pair>,
    pub retest_keys: &'a mut Vec<PairKey>,
    pub apart_keys: &'a mut Vec<PairKey>,
}

impl BroadKeys<'_> {
    /// Brings the broad phase's pairs up to date and writes the keys of the box pairs that
    /// began (`retest_keys`) and ended (`apart_keys`), counting them into `box_pairs`. Reads
    /// and writes nothing of the colliders' slots; `beside`, when given (it must not need the
    /// broad phase), runs meanwhile on another thread of the current pool (feature `rayon`), beside
    /// the broad phase's serial part where it has one.
    pub fn fetch(
        &mut self,
        broad: &mut super::Broad,
        box_pairs: &mut usize,
        beside: Option<impl FnOnce() + Send>,
    ) {
        // The tree's leaves moved by `set_transforms` are placed again later, beside the
        // narrow phase (`World::update`).
        let changes = match &mut *broad {
            super::Broad::Tree(tree) => tree.update_pairs_beside(beside),
            super::Broad::Grid(grid) => update_pairs_beside(grid, beside),
            super::Broad::Sap(sap) => update_pairs_beside(sap, beside),
        };
        self.began.clear();
        self.began.extend_from_slice(&changes.began);
        self.ended.clear();
        self.ended.extend_from_slice(&changes.ended);
        self.retest_keys.clear();
        self.apart_keys.clear();
        let broad = broad.get();
        // A removed or disabled collider's pairs were already forgotten.
        let handles =
            |pair: &crate::broad::Pair| match (broad.key(pair.lower()), broad.key(pair.higher())) {
                (Ok(a), Ok(b)) => Some(ordered(
                    ColliderHandle::from_key(a),
                    ColliderHandle::from_key(b),
                )),
                _ => None,
            };
        self.apart_keys.extend(
            self.ended
                .iter()
                .filter_map(handles)
                .map(|(a, b)| PairKey::new(a, b)),
        );
        self.retest_keys.extend(
            self.began
                .iter()
                .filter_map(handles)
                .map(|(a, b)| PairKey::new(a, b)),
        );
        *box_pairs += self.retest_keys.len();
        *box_pairs -= self.apart_keys.len();
    }
}

/// The fewest partner-list changes an update applies on several threads (feature `rayon`):
/// below it, each thread's pass over all the changes costs more than the lists it updates.
#[cfg(feature = "rayon")]
const PARALLEL_PARTNER_CHANGES: usize = 2048;

/// Pair tests per batch of the narrow phase (see `World::answer_run`): enough to overlap
/// many cache misses, few enough that three batches' data stays in the first-level cache.
const NARROW_BATCH: usize = 32;

/// The most pair tests a thread takes at a time in a narrow phase split over threads: enough
/// batches that asking for memory two batches ahead pays.
#[cfg(feature = "rayon")]
const NARROW_RUN: usize = 16 * NARROW_BATCH;

/// The fewest tests the narrow phase splits over threads (feature `rayon`): below it, handing
/// batches to other threads costs more than the tests.
#[cfg(feature = "rayon")]
const PARALLEL_NARROW_TESTS: usize = 512;

impl World {
    /// Forgets a collider's box pairs (it is being removed or disabled) and detaches the pairs
    /// it was touching: their `End` comes at the next update.
    pub(super) fn detach(&mut self, handle: ColliderHandle, reason: EndReason) {
        let (partners, own_data) = match self.entry_mut(handle) {
            Ok(entry) => (
                std::mem::take(&mut entry.partners),
                entry.collider.user_data,
            ),
            Err(_) => return,
        };
        let user_data = |world: &World, a: ColliderHandle, b: ColliderHandle| {
            let data = |h: ColliderHandle| {
                if h == handle {
                    own_data
                } else {
                    world.entry(h).map_or(0, |entry| entry.collider.user_data)
                }
            };
            [data(a), data(b)]
        };
        if reason == EndReason::Removed {
            self.removed_since_update.insert(handle, own_data);
        }
        self.box_pairs -= partners.len();
        for partner in partners {
            if let Ok(other) = self.entry_mut(partner) {
                if let Some(position) = other.partners.iter().position(|&p| p == handle) {
                    other.partners.swap_remove(position);
                }
            }
            let (a, b) = ordered(handle, partner);
            let data = user_data(self, a, b);
            self.touching.detach((a, b), reason, data);
        }
        // After a restore or origin shift, a touching pair's boxes may no longer overlap (so
        // the two are not partners) while the pair still waits for its re-test.
        for (a, b) in self.retest_pending.involving(handle) {
            let data = user_data(self, a, b);
            self.touching.detach((a, b), reason, data);
        }
    }

    /// Runs broad phase → filter → narrow phase and returns the update's counts and timings;
    /// the events are read after it with [`World::events`], [`World::began`] and
    /// [`World::ended`], while the world can be read as well.
    ///
    /// 1. The broad phase reports which box pairs began and ended overlapping; partner lists
    ///    follow.
    /// 2. Only pairs with a changed collider (or new pairs, or all pairs after a layer-matrix
    ///    change) are re-tested: layer matrix and filter bits, then the narrow phase. Pairs
    ///    whose boxes stopped overlapping stop touching.
    /// 3. Events: one pass merges the answers into the sorted touching pairs and writes `End`
    ///    for pairs no longer touching (including removed and disabled colliders), `Begin` for
    ///    new ones, `Stay` for the rest, in pair order.
    ///
    /// # Threads
    ///
    /// With the `rayon` feature, the parts of an update that grow with the number of colliders
    /// (the broad phase's pair refresh and fat-partner queries, the partner lists, listing
    /// and sorting the pairs to re-test, the narrow phase and the events merge; before it,
    /// [`World::set_transforms`]' checks and writes) run on the rayon thread pool current
    /// at the call: the global pool, or the caller's own pool when the update is
    /// called inside `ThreadPool::install`, so that a game shares one pool with the rest of its
    /// frame. Small updates (a few thousand moved colliders or a few hundred pair tests) and
    /// one-thread pools stay on the calling thread. The events are the same, bit for bit and
    /// in the same order, whatever the pool.
    ///
    /// ```
    /// use collide2d::shape::{Circle, Shape};
    /// use collide2d::world::{Collider, World};
    /// use collide2d::{Transform, Vec2};
    ///
    /// let mut world = World::new();
    /// let ball = Shape::from(Circle::with_radius(0.5).unwrap());
    /// for i in 0..1_000 {
    ///     let position = Vec2::new((i % 40) as f32 * 0.9, (i / 40) as f32 * 0.9);
    ///     let collider = Collider::new(ball.clone()).with_transform(Transform::new(position, 0.0));
    ///     world.insert(collider).unwrap();
    /// }
    /// # #[cfg(feature = "rayon")]
    /// let touching = {
    ///     // The game's own pool, shared with the rest of its frame.
    ///     let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    ///     pool.install(|| world.update());
    ///     world.events().len()
    /// };
    /// # #[cfg(not(feature = "rayon"))]
    /// # let touching = {
    /// #     world.update();
    /// #     world.events().len()
    /// # };
    /// // Neighbours in a row (39 a row) and in a column (24 a column) touch.
    /// assert_eq!(touching, 39 * 25 + 40 * 24);
    /// ```
    pub fn update(&mut self) -> UpdateStats {
        let started = std::time::Instant::now();
        // 1. Broad phase, partner lists, and the pairs to test.
        self.find_tests();
        let broad_done = std::time::Instant::now();

        // 2 and 3. Filter and narrow phase on the re-tested pairs, a chunk at a time, each
        // chunk's answers merged into the events in pair order.
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.release_excess();
        let mut narrow = std::time::Duration::ZERO;
        // Continuous colliders' sweeps join the answers (`continuous.rs`; free without any).
        // They need every answer of the step first (whether a swept pair still touches at its
        // end), so with any continuous collider the narrow phase answers all tests at once and
        // the merge reads its answers a chunk at a time.
        let sweeping = self.continuous.count() > 0;
        let mut answers = std::mem::take(&mut scratch.answers);
        if sweeping {
            let narrow_started = std::time::Instant::now();
            self.run_narrow_phase(&scratch.tests, &mut answers);
            self.run_continuous_phase(&mut scratch.tests, &mut answers);
            narrow = narrow_started.elapsed();
        }
        let mut touching = std::mem::take(&mut self.touching);
        touching.settle_detached(|h| self.collider_now(h));
        self.removed_since_update.clear();
        // Time in the narrow phase, summed over the threads the merge runs on.
        let narrow_nanos = std::sync::atomic::AtomicU64::new(0);
        // The tree's leaves that `set_transforms` grew in place are placed again beside the
        // merge when it splits over threads (it does not read the broad phase), else after
        // it: the tree's shape changes, not its answers, by the same operations in the same
        // order on any pool.
        #[cfg(feature = "rayon")]
        let beside_merge = touching.splits(scratch.tests.len());
        let mut unplaced_tree = match &mut self.broad {
            super::Broad::Tree(tree) if tree.has_unplaced() => Some(std::mem::take(tree)),
            _ => None,
        };
        let mut merge = || {
            touching.merge(
                &scratch.tests,
                |first, chunk, results| {
                    if sweeping {
                        results.clear();
                        results.extend_from_slice(&answers[first..first + chunk.len()]);
                    } else {
                        let chunk_started = std::time::Instant::now();
                        self.run_narrow_phase(chunk, results);
                        let nanos = chunk_started.elapsed().as_nanos();
                        narrow_nanos.fetch_add(
                            u64::try_from(nanos).unwrap_or(u64::MAX),
                            std::sync::atomic::Ordering::Relaxed,
                        );
                    }
                },
                |a, b| self.pair_facts(a, b),
                &mut scratch.results,
                self.report_stay,
            )
        };
        let merge_threads = match unplaced_tree.as_mut() {
            #[cfg(feature = "rayon")]
            Some(tree) if beside_merge => rayon::join(|| tree.place_unplaced(), merge).1,
            Some(tree) => {
                let threads = merge();
                tree.place_unplaced();
                threads
            }
            None => merge(),
        };
        if let Some(tree) = unplaced_tree {
            self.broad = super::Broad::Tree(tree);
        }
        // Split over threads, the merge's narrow phase takes about its summed time over the
        // thread count.
        narrow += std::time::Duration::from_nanos(narrow_nanos.into_inner())
            / merge_threads.max(1) as u32;
        self.touching = touching;
        answers.clear();
        scratch.answers = answers;
        if sweeping {
            self.finish_continuous_phase();
        }
        let mut dirty = std::mem::take(&mut self.dirty);
        for handle in &dirty {
            self.clear_dirty(handle.index);
        }
        dirty.clear();
        self.dirty = dirty;
        self.seen_layer_matrix = self.layers.matrix();
        let done = std::time::Instant::now();
        self.stats = UpdateStats {
            broad: broad_done - started,
            narrow,
            events: (done - broad_done).saturating_sub(narrow),
            candidate_pairs: self.box_pairs,
            narrow_tests: scratch.tests.iter().filter(|t| !t.boxes_apart).count(),
            began: self.touching.began().len(),
            ended: self.touching.ended().len(),
        };
        self.scratch = scratch;
        self.stats
    }

    /// What a pending `End` reads of a collider now: live, or removed since the last update,
    /// with its user data (then).
    pub(super) fn collider_now(&self, handle: ColliderHandle) -> ColliderNow {
        match self.entry(handle) {
            Ok(entry) => ColliderNow::Live(entry.collider.user_data),
            Err(_) => match self.removed_since_update.get(&handle) {
                Some(&data) => ColliderNow::Removed(data),
                None => ColliderNow::Unknown,
            },
        }
    }

    /// What a `Begin` or `End` of two live colliders carries, for the merge.
    fn pair_facts(&self, a: ColliderHandle, b: ColliderHandle) -> PairFacts {
        match (self.entry(a), self.entry(b)) {
            (Ok(entry_a), Ok(entry_b)) => PairFacts {
                user_data: [entry_a.collider.user_data, entry_b.collider.user_data],
                allowed: self.pair_allowed(&entry_a.filter, &entry_b.filter),
            },
            _ => PairFacts {
                user_data: [0, 0],
                allowed: true,
            },
        }
    }

    /// Step 1 of an update: the broad phase's changes, the partner lists, and the pairs to
    /// re-test in `scratch.tests`. With many changed colliders on a pool of several threads,
    /// the changed colliders' pairs are listed beside the broad phase (`test_parts.rs`).
    fn find_tests(&mut self) {
        #[cfg(feature = "rayon")]
        if self.tests_in_parts() {
            self.follow_broad_phase(true);
            self.finish_tests_in_parts();
            return;
        }
        self.follow_broad_phase(false);
        self.collect_tests();
    }

    /// Fetches the broad phase's began and ended box pairs and updates the partner lists.
    /// Leaves the began pairs' keys in `scratch.retest_keys` and the ended ones' in
    /// `scratch.apart_keys`.
    ///
    /// With `list_changed` (feature `rayon`), the changed colliders' pairs are listed and
    /// sorted in parts beside the broad phase (`test_parts::list_changed_in_parts`, on the
    /// other side of a `rayon::join`). The listing reads the partner lists as they were before
    /// this update's box pairs joined or left them. The tests come out the same: a pair that
    /// began overlapping is listed with the began pairs anyway, and one that stopped is listed
    /// with the ended ones, which mark it apart whether or not it is listed there too.
    fn follow_broad_phase(&mut self, list_changed: bool) {
        #[cfg(feature = "rayon")]
        let index_bits = self.key_index_bits();
        let scratch = &mut self.scratch;
        let mut keys = BroadKeys {
            began: &mut scratch.began,
            ended: &mut scratch.ended,
            retest_keys: &mut scratch.retest_keys,
            apart_keys: &mut scratch.apart_keys,
        };
        #[cfg(feature = "rayon")]
        let listing = {
            let key_parts = &mut scratch.key_parts;
            let (slots, dirty, dirty_bits) = (&self.slots, &self.dirty, &self.dirty_bits);
            list_changed.then_some(move || {
                super::test_parts::list_changed_in_parts(
                    key_parts, slots, dirty, dirty_bits, index_bits,
                )
            })
        };
        #[cfg(not(feature = "rayon"))]
        let listing = {
            let _ = list_changed;
            None::<fn()>
        };
        keys.fetch(&mut self.broad, &mut self.box_pairs, listing);
        update_partner_lists(&mut self.slots, &scratch.apart_keys, &scratch.retest_keys);
    }

    /// The bits a collider index of this world takes, as [`sort_pair_keys`] reads them.
    pub(super) fn key_index_bits(&self) -> u32 {
        (usize::BITS - self.slots.len().leading_zeros()).max(1)
    }

    /// Whether [`World::collect_tests`] lists the pairs to re-test by one walk over every
    /// collider, in key order: many changed (say, everything moves every frame), the filters
    /// as they were, and nothing else pending.
    pub(super) fn pairs_listed_in_order(&self, filters_changed: bool) -> bool {
        !filters_changed && self.dirty.len() * 4 >= self.live && self.retest_pending.is_empty()
    }

    /// Builds `scratch.tests`: the pairs to re-test, sorted, each once, with the box pairs that
    /// ended marked apart.
    fn collect_tests(&mut self) {
        let filters_changed = self.layers.matrix() != self.seen_layer_matrix;
        let listed_in_order = self.pairs_listed_in_order(filters_changed);
        let index_bits = self.key_index_bits();
        let scratch = &mut self.scratch;
        // Emptied first, so that their lengths after this say what this update used.
        scratch.sort_buffer.clear();
        scratch.merge_buffer.clear();
        if filters_changed {
            for (index, slot) in self.slots.iter().enumerate() {
                if let Some(entry) = &slot.entry {
                    let handle = ColliderHandle {
                        index: index as u32,
                        generation: slot.generation,
                    };
                    scratch.retest_keys.extend(
                        entry
                            .partners
                            .iter()
                            .filter(|&&p| handle < p)
                            .map(|&p| PairKey::new(handle, p)),
                    );
                }
            }
        } else if listed_in_order {
            // Walking every collider in index order lists each pair with a changed collider
            // once, from its lower side, already in key order, so no sort and no deduplication
            // are needed. Only the began pairs (few) are sorted and merged in.
            scratch.retest_keys.sort_unstable_by_key(|pair| pair.key);
            scratch.retest_keys.dedup_by_key(|pair| pair.key);
            let walked = &mut scratch.sort_buffer;
            walked.clear();
            let dirty_bits = &self.dirty_bits;
            for (index, slot) in self.slots.iter().enumerate() {
                let Some(entry) = &slot.entry else {
                    continue;
                };
                let handle = ColliderHandle {
                    index: index as u32,
                    generation: slot.generation,
                };
                let changed = bit_is_set(dirty_bits, handle.index);
                let start = walked.len();
                walked.extend(
                    entry
                        .partners
                        .iter()
                        .filter(|&&partner| {
                            handle < partner && (changed || bit_is_set(dirty_bits, partner.index))
                        })
                        .map(|&partner| PairKey::new(handle, partner)),
                );
                walked[start..].sort_unstable_by_key(|pair| pair.key);
            }
            if scratch.retest_keys.is_empty() {
                std::mem::swap(&mut scratch.retest_keys, walked);
            } else {
                merge_keys(&scratch.retest_keys, walked, &mut scratch.merge_buffer);
                std::mem::swap(&mut scratch.retest_keys, &mut scratch.merge_buffer);
            }
        } else {
            list_changed_pairs(
                &self.slots,
                &self.dirty_bits,
                &self.dirty,
                &mut scratch.retest_keys,
            );
        }
        if !listed_in_order {
            for (a, b) in self.retest_pending.drain() {
                // Pairs of colliders removed since are detached already: their `End` is due.
                let live = |h: ColliderHandle| {
                    self.slots
                        .get(h.index as usize)
                        .is_some_and(|s| s.generation == h.generation && s.entry.is_some())
                };
                if live(a) && live(b) {
                    scratch.retest_keys.push(PairKey::new(a, b));
                }
            }
            sort_pair_keys(
                &mut scratch.retest_keys,
                &mut scratch.sort_buffer,
                index_bits,
            );
            scratch.retest_keys.dedup_by_key(|pair| pair.key);
        }
        scratch.apart_keys.sort_unstable_by_key(|pair| pair.key);

        // Union of the two sorted lists; a pair in both is apart.
        let tests = &mut scratch.tests;
        tests.clear();
        for_each_in_union(
            &scratch.retest_keys,
            &scratch.apart_keys,
            |pair, boxes_apart| {
                let (a, b) = pair.handles();
                tests.push(PairTest { a, b, boxes_apart });
            },
        );
    }

    /// The narrow-phase answer for each pair, into `results` (`results[i]` answers `tests[i]`).
    /// With the `rayon` feature and at least [`PARALLEL_NARROW_TESTS`] tests, runs of
    /// [`NARROW_RUN`] tests go to the threads of the current rayon pool, each writing its own
    /// part of `results`: the answers are the same and in the same order.
    fn run_narrow_phase(&self, tests: &[PairTest], results: &mut Vec<PairAnswer>) {
        results.clear();
        results.resize(tests.len(), PairAnswer::Apart);
        #[cfg(feature = "rayon")]
        if tests.len() >= PARALLEL_NARROW_TESTS && rayon::current_num_threads() > 1 {
            use rayon::prelude::*;
            // At least four runs a thread, so that the threads share the work evenly.
            let run = tests
                .len()
                .div_ceil(4 * rayon::current_num_threads())
                .next_multiple_of(NARROW_BATCH)
                .min(NARROW_RUN);
            tests
                .par_chunks(run)
                .zip(results.par_chunks_mut(run))
                .for_each(|(run, answers)| self.answer_run(run, answers));
            return;
        }
        self.answer_run(tests, results);
    }

    /// Answers a run of tests into `answers` (as long), in batches of [`NARROW_BATCH`] pairs
    /// whose memory is asked for ahead, in two steps. In a large world the two colliders of a
    /// pair lie anywhere in memory, and a test that waited on each would spend most of its time
    /// waiting. So while batch `i` is tested, the slots of batch `i + 2` are asked for (their
    /// places follow from the handles alone), and batch `i + 1`'s slots, in cache by then, are
    /// read to ask for their shapes' outlines ([`World::touch_pairs`]): each batch finds its
    /// data in cache, and its misses overlap the tests before it.
    ///
    /// A world that [stays in cache](World::stays_in_cache) finds its data there anyway: its
    /// tests run one after another without asking.
    fn answer_run(&self, tests: &[PairTest], answers: &mut [PairAnswer]) {
        if self.stays_in_cache() {
            for (test, answer) in tests.iter().zip(answers) {
                if !test.boxes_apart {
                    *answer = self.narrow_pair(test.a, test.b);
                }
            }
            return;
        }
        let batch = |index: usize| {
            let start = (index * NARROW_BATCH).min(tests.len());
            start..((index + 1) * NARROW_BATCH).min(tests.len())
        };
        let batches = tests.len().div_ceil(NARROW_BATCH);
        self.ask_for_slots(&tests[batch(0)]);
        self.ask_for_slots(&tests[batch(1)]);
        self.touch_pairs(&tests[batch(0)]);
        for index in 0..batches {
            self.ask_for_slots(&tests[batch(index + 2)]);
            self.touch_pairs(&tests[batch(index + 1)]);
            let range = batch(index);
            for (test, answer) in tests[range.clone()].iter().zip(&mut answers[range]) {
                if !test.boxes_apart {
                    *answer = self.narrow_pair(test.a, test.b);
                }
            }
        }
    }

    /// Asks the processor for the first cache line of both colliders' slots of every pair of
    /// the batch (what a pair test reads, but for a polygon's outline), reading nothing.
    fn ask_for_slots(&self, batch: &[PairTest]) {
        for test in batch.iter().filter(|test| !test.boxes_apart) {
            for handle in [test.a, test.b] {
                if let Some(slot) = self.slots.get(handle.index as usize) {
                    prefetch_item(&slot.generation);
                }
            }
        }
    }

    /// Reads, for every pair of the batch, the start of both colliders' slots, and asks for
    /// their shapes' outlines, so that the tests that follow find them in cache. Changes
    /// nothing.
    fn touch_pairs(&self, batch: &[PairTest]) {
        for test in batch.iter().filter(|test| !test.boxes_apart) {
            for handle in [test.a, test.b] {
                if let Some(entry) = self
                    .slots
                    .get(handle.index as usize)
                    .and_then(|slot| slot.entry.as_ref())
                {
                    prefetch_shape_heap(&entry.collider.shape);
                }
            }
        }
    }

    /// Whether colliders `a` and `b` touch now, with their manifold for solid pairs.
    pub(super) fn narrow_pair(&self, a: ColliderHandle, b: ColliderHandle) -> PairAnswer {
        let (Ok(entry_a), Ok(entry_b)) = (self.entry(a), self.entry(b)) else {
            return PairAnswer::Apart;
        };
        let (fa, fb) = (&entry_a.filter, &entry_b.filter);
        if !fa.enabled || !fb.enabled || !self.pair_allowed(fa, fb) {
            return PairAnswer::Apart;
        }
        let (ca, cb) = (&entry_a.collider, &entry_b.collider);
        let (xa, xb) = (&entry_a.placement, &entry_b.placement);
        // Placements are checked when they are set, so the queries' own check is skipped.
        if fa.sensor || fb.sensor {
            return match overlaps_of_valid(&ca.shape, xa, &cb.shape, xb) {
                true => PairAnswer::SensorOverlap,
                false => PairAnswer::Apart,
            };
        }
        let manifold = contacts_of_valid(&ca.shape, xa, &cb.shape, xb, 0.0);
        if manifold.is_empty() || ((fa.one_way || fb.one_way) && !one_way_allows(ca, cb, &manifold))
        {
            return PairAnswer::Apart;
        }
        PairAnswer::Touching(manifold)
    }
}

#[cfg(test)]
mod tests {
    use super::{merge_keys, sort_pair_keys, PairKey};

    #[test]
    fn merging_sorted_keys_keeps_each_key_once_in_order() {
        let key = |k: u64| PairKey {
            key: k,
            generations: k * 7,
        };
        let first: Vec<PairKey> = [1, 4, 5, 9].into_iter().map(key).collect();
        let second: Vec<PairKey> = [2, 4, 9, 10, 11].into_iter().map(key).collect();
        let mut merged = vec![key(99)];
        merge_keys(&first, &second, &mut merged);
        let keys: Vec<u64> = merged.iter().map(|pair| pair.key).collect();
        assert_eq!(keys, [1, 2, 4, 5, 9, 10, 11]);
        assert!(merged.iter().all(|pair| pair.generations == pair.key * 7));
        merge_keys(&[], &second, &mut merged);
        assert_eq!(merged, second);
    }

    #[test]
    fn radix_sort_of_pair_keys_matches_a_comparison_sort() {
        let mut state = 7u64;
        let mut random = |below: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % below
        };
        for (count, slots) in [
            (10, 5),
            (300, 3),
            (1000, 100),
            (5000, 100_000),
            (3000, 1 << 20),
        ] {
            let index_bits = (usize::BITS - (slots as usize).leading_zeros()).max(1);
            let mut keys: Vec<PairKey> = (0..count)
                .map(|_| {
                    let (a, b) = (random(slots), random(slots));
                    PairKey {
                        key: (a.min(b) << 32) | a.max(b),
                        generations: random(1 << 40),
                    }
                })
                .collect();
            // Stable order on equal keys is not promised: compare keys, and the multiset of
            // whole records.
            let mut expected = keys.clone();
            expected.sort_unstable_by_key(|pair| (pair.key, pair.generations));
            sort_pair_keys(&mut keys, &mut Vec::new(), index_bits);
            assert!(
                keys.windows(2).all(|w| w[0].key <= w[1].key),
                "{count} keys below {slots}"
            );
            let mut sorted = keys.clone();
            sorted.sort_unstable_by_key(|pair| (pair.key, pair.generations));
            assert_eq!(sorted, expected, "{count} keys below {slots}");
        }
    }
}
