//! The pairs touching as of the last update: a vector sorted by handle pair, merged with the
//! update's re-tested pairs in one pass that also writes the events.

use super::update::PairAnswer;
use super::{ColliderHandle, CollisionEvent, EndReason};
use crate::query::Manifold;

/// What the `End` of a detached pair says: written when the pair is detached, since by its
/// update a removed collider is gone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PendingEnd {
    pub reason: EndReason,
    pub sensor: bool,
    pub user_data: [u64; 2],
}

/// A collider as a pending `End` reads it when the update writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum ColliderNow {
    /// Live, with its user data now.
    Live(u64),
    /// Removed since the last update, with its user data when removed.
    Removed(u64),
    /// Gone before (a pair restored from a snapshot): the `End` keeps what it says.
    Unknown,
}

impl PendingEnd {
    /// This `End` of `pair` as the colliders are now (`now(h)`): a collider removed since the
    /// pair was detached (disabled first, then removed) makes it an `End` for a removal, since
    /// what a game reads from it is that the collider is gone; each collider's user data is
    /// its data now, or when it was removed, as every event carries a live collider's data as
    /// of the update that writes it.
    pub fn settled(
        mut self,
        (a, b): (ColliderHandle, ColliderHandle),
        now: impl Fn(ColliderHandle) -> ColliderNow,
    ) -> PendingEnd {
        for (side, handle) in [a, b].into_iter().enumerate() {
            match now(handle) {
                ColliderNow::Live(data) => self.user_data[side] = data,
                ColliderNow::Removed(data) => {
                    self.user_data[side] = data;
                    self.reason = EndReason::Removed;
                }
                ColliderNow::Unknown => {}
            }
        }
        self
    }

    /// The `End` of pair `(a, b)` that this says.
    #[inline]
    pub fn event(self, a: ColliderHandle, b: ColliderHandle) -> CollisionEvent {
        CollisionEvent::End {
            a,
            b,
            reason: self.reason,
            sensor: self.sensor,
            user_data: self.user_data,
        }
    }
}

/// A detached pair and its pending `End`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Detached {
    pub pair: (ColliderHandle, ColliderHandle),
    pub end: PendingEnd,
}

/// What the merge asks the world about a pair of live colliders when it writes their `Begin`
/// or `End`.
#[derive(Clone, Copy, Debug)]
pub(super) struct PairFacts {
    /// Both colliders' user data.
    pub user_data: [u64; 2],
    /// Whether layers and groups let the pair touch.
    pub allowed: bool,
}

/// One touching pair (`a < b`), as a snapshot restore hands it over.
#[derive(Clone, Copy, Debug)]
pub(super) struct TouchingPair {
    pub a: ColliderHandle,
    pub b: ColliderHandle,
    /// The last manifold; `None` for sensor pairs.
    pub manifold: Option<Manifold>,
    /// One of the two colliders was removed or disabled since the last update: the pair no
    /// longer counts as touching and this `End` is due at the next update.
    pub detached: Option<PendingEnd>,
}

impl TouchingPair {
    #[inline]
    pub fn pair(&self) -> (ColliderHandle, ColliderHandle) {
        (self.a, self.b)
    }
}

/// A handle pair as one number ordered like the pair: one comparison instead of four.
#[inline]
fn order_key((a, b): (ColliderHandle, ColliderHandle)) -> u128 {
    (u128::from(a.index) << 96)
        | (u128::from(a.generation) << 64)
        | (u128::from(b.index) << 32)
        | u128::from(b.generation)
}

/// The order key of an event's pair.
#[inline]
fn event_key(event: &CollisionEvent) -> u128 {
    order_key(event.pair())
}

/// How many tests [`Touching::merge`] has answered at a time.
pub(super) const MERGE_CHUNK: usize = 1 << 14;

/// A pair the update re-tests (`a < b`, both live).
#[derive(Clone, Copy, Debug)]
pub(super) struct PairTest {
    pub a: ColliderHandle,
    pub b: ColliderHandle,
    /// The pair's boxes stopped overlapping: it is apart without a narrow-phase test.
    pub boxes_apart: bool,
}

/// The touching pairs, kept as the last update's events.
///
/// An update's events, `Stay` included, list every pair that touches after it (`Begin` and
/// `Stay`, with their manifolds) and the pairs that stopped (`End`), in pair order. So the
/// events are also the set of touching pairs, and the next update reads them once and writes
/// its own, instead of keeping a second copy of every manifold.
///
/// **Invariant:** `store` is sorted by pair and names each pair at most once, except a pair
/// that changed kind (one collider became a sensor or solid): its `End`, then its `Begin`;
/// `detached` holds only pairs of `Begin`/`Stay` entries of `store`, each once, in the order
/// they were detached; `marks` is empty when nothing is detached, else as long as `store`,
/// `marks[i]` telling whether `store[i]`'s pair is in `detached`. (Detaching is then a search and a push, so taking out many
/// touching colliders between two updates costs no more than their pairs, in any order.)
#[derive(Clone, Debug, Default)]
pub(super) struct Touching {
    store: Vec<CollisionEvent>,
    /// The merge's output buffer, kept between updates so merging allocates nothing.
    next: Vec<CollisionEvent>,
    /// The events reported when `Stay` is off: `store` without its `Stay` entries, written by
    /// the merge beside them (empty when `Stay` is reported).
    reported: Vec<CollisionEvent>,
    /// The last update's `Begin` events, in pair order.
    began: Vec<CollisionEvent>,
    /// The last update's `End` events, in pair order: exactly the `End` entries of `store`.
    ended: Vec<CollisionEvent>,
    /// The update before's `End` events, kept through a merge that reads them (and reused as
    /// the next merge's buffer for `ended`).
    #[cfg(feature = "rayon")]
    ended_before: Vec<CollisionEvent>,
    /// When as long as `store`, the order key of each of its entries, in the same order: what
    /// a merge split over threads reads to count each range's events before writing them.
    /// Written by every merge split over threads; emptied by the others.
    #[cfg(feature = "rayon")]
    keys: Vec<u128>,
    /// The keys a merge split over threads writes beside its events (swapped with `keys`).
    #[cfg(feature = "rayon")]
    next_keys: Vec<u128>,
    /// Whether the last merge reported `Stay`.
    report_stay: bool,
    /// Whether `store` holds events of an update (and not pairs handed over by a restore).
    merged: bool,
    /// Touching pairs one of whose colliders was removed or disabled since the last update, in
    /// the order they were detached: they no longer touch, and their `End` comes at the next
    /// update (which sorts them by pair).
    detached: Vec<Detached>,
    /// Which entries of `store` are detached (empty when none is).
    marks: Vec<bool>,
    /// Whether a collider's sensor flag changed since the last update, or the last update
    /// changed a pair's kind (so `store` may hold that pair twice), or `store` was handed over
    /// by a restore: only then does a merge split over threads read the stored events to
    /// count the events of each range.
    kinds_may_change: bool,
    /// The buffers of a merge split over threads, one per range of pairs.
    #[cfg(feature = "rayon")]
    parts: Vec<MergePart>,
}

impl Touching {
    /// Builds the set from pairs sorted by `(a, b)`, each at most once.
    pub fn from_sorted(pairs: Vec<TouchingPair>) -> Touching {
        debug_assert!(pairs.windows(2).all(|w| w[0].pair() < w[1].pair()));
        let marks = if pairs.iter().any(|pair| pair.detached.is_some()) {
            pairs.iter().map(|pair| pair.detached.is_some()).collect()
        } else {
            Vec::new()
        };
        let detached = pairs
            .iter()
            .filter_map(|pair| {
                pair.detached.map(|end| Detached {
                    pair: pair.pair(),
                    end,
                })
            })
            .collect();
        let store = pairs
            .into_iter()
            .map(|pair| CollisionEvent::Stay {
                a: pair.a,
                b: pair.b,
                manifold: pair.manifold,
            })
            .collect();
        Touching {
            store,
            detached,
            marks,
            kinds_may_change: true,
            ..Touching::default()
        }
    }

    /// The last update's events: all of them when it reported `Stay`, else `Begin` and `End`.
    pub fn events(&self) -> &[CollisionEvent] {
        match (self.merged, self.report_stay) {
            (false, _) => &[],
            (true, true) => &self.store,
            (true, false) => &self.reported,
        }
    }

    /// The last update's `Begin` events, in pair order.
    pub fn began(&self) -> &[CollisionEvent] {
        &self.began
    }

    /// The last update's `End` events, in pair order.
    pub fn ended(&self) -> &[CollisionEvent] {
        &self.ended
    }

    /// The manifold of a touching pair (in canonical order): `Some(None)` for a sensor pair,
    /// `None` when the pair does not touch.
    pub fn manifold(&self, pair: (ColliderHandle, ColliderHandle)) -> Option<Option<&Manifold>> {
        let index = self.find(pair)?;
        if self.is_marked(index) {
            return None;
        }
        Some(match &self.store[index] {
            CollisionEvent::Begin { manifold, .. } | CollisionEvent::Stay { manifold, .. } => {
                manifold.as_ref()
            }
            CollisionEvent::End { .. } => None,
        })
    }

    /// Whether `store[index]`'s pair is detached.
    fn is_marked(&self, index: usize) -> bool {
        self.marks.get(index).copied().unwrap_or(false)
    }

    /// The pairs that touch (not detached), in order, with their manifolds.
    pub fn live(
        &self,
    ) -> impl Iterator<Item = (ColliderHandle, ColliderHandle, Option<&Manifold>)> + '_ {
        self.store
            .iter()
            .enumerate()
            .filter_map(move |(index, event)| {
                if matches!(event, CollisionEvent::End { .. }) || self.is_marked(index) {
                    return None;
                }
                let (a, b) = event.pair();
                Some((a, b, event.manifold()))
            })
    }

    /// The detached pairs and their pending `End`s as the next update will write them
    /// ([`PendingEnd::settled`] by `now`, as [`Touching::settle_detached`] takes it), in pair
    /// order: their `End` is due.
    pub fn pending(
        &self,
        now: impl Fn(ColliderHandle) -> ColliderNow,
    ) -> Vec<((ColliderHandle, ColliderHandle), PendingEnd)> {
        let mut pending: Vec<_> = self
            .detached
            .iter()
            .map(|d| (d.pair, d.end.settled(d.pair, &now)))
            .collect();
        pending.sort_unstable_by_key(|&(pair, _)| pair);
        pending
    }

    /// Whether the pair (in canonical order) touches.
    pub fn contains(&self, pair: (ColliderHandle, ColliderHandle)) -> bool {
        self.find(pair).is_some_and(|index| !self.is_marked(index))
    }

    /// The position of the pair's `Begin` or `Stay` entry (after its `End` when it changed
    /// kind at the last update).
    fn find(&self, pair: (ColliderHandle, ColliderHandle)) -> Option<usize> {
        let first = self.store.partition_point(|probe| probe.pair() < pair);
        self.store[first..]
            .iter()
            .take_while(|event| event.pair() == pair)
            .position(|event| !matches!(event, CollisionEvent::End { .. }))
            .map(|offset| first + offset)
    }

    /// Marks a touching pair detached (its collider leaves) with the reason and the user data
    /// its `End` will carry; returns whether it was touching.
    pub fn detach(
        &mut self,
        pair: (ColliderHandle, ColliderHandle),
        reason: EndReason,
        user_data: [u64; 2],
    ) -> bool {
        let Some(index) = self.find(pair) else {
            return false;
        };
        if self.is_marked(index) {
            return false;
        }
        if self.marks.is_empty() {
            self.marks.resize(self.store.len(), false);
        }
        self.marks[index] = true;
        let end = PendingEnd {
            reason,
            sensor: self.store[index].manifold().is_none(),
            user_data,
        };
        self.detached.push(Detached { pair, end });
        true
    }

    /// Brings every pending `End` up to date with the colliders as they are now (see
    /// [`PendingEnd::settled`]). One pass over the pairs detached since the last update, made
    /// by the update before it writes their `End`s, so that removing or relabelling many
    /// colliders between two updates costs no pass per collider.
    pub fn settle_detached(&mut self, now: impl Fn(ColliderHandle) -> ColliderNow) {
        for detached in &mut self.detached {
            detached.end = detached.end.settled(detached.pair, &now);
        }
    }

    /// Applies an update's answers and writes its events in pair order.
    ///
    /// `tests` is sorted by pair, each pair once; `answer(first, chunk, results)` fills
    /// `results` with the answers to `chunk`, the tests from `tests[first]` on, `results[i]`
    /// answering `chunk[i]`. `facts(a, b)` tells what a `Begin` or `End` of the live pair
    /// `(a, b)` carries (asked only for those). The tests are answered [`MERGE_CHUNK`] at a
    /// time as the merge reaches them, so the answers never take more memory than one chunk's
    /// (a thread's), however many pairs are tested (a pile of `n` colliders tests `n²/2`).
    /// Pairs not tested keep their state, except detached ones, which end. A detached pair that
    /// touches again by this update never stopped touching as far as updates can tell: it
    /// stays.
    ///
    /// With the `rayon` feature and at least [`PARALLEL_MERGE`] tests and stored events, the
    /// pairs are cut into ranges (by the tests, evenly), each merged on its own on the threads
    /// of the current pool, straight into its place among the events when it can be counted
    /// first (see `MergeRanges::merge_in_parallel`), else into its own buffers, put together
    /// in range order: the same events in the same order. Returns how many threads the merge
    /// ran on.
    pub fn merge(
        &mut self,
        tests: &[PairTest],
        answer: impl Fn(usize, &[PairTest], &mut Vec<PairAnswer>) + Sync,
        facts: impl Fn(ColliderHandle, ColliderHandle) -> PairFacts + Sync,
        results: &mut Vec<PairAnswer>,
        report_stay: bool,
    ) -> usize {
        let old = std::mem::take(&mut self.store);
        let mut next = std::mem::take(&mut self.next);
        // The stored `End` events stay readable through the merge (which writes the new ones).
        #[cfg(feature = "rayon")]
        std::mem::swap(&mut self.ended, &mut self.ended_before);
        debug_assert!({
            #[cfg(feature = "rayon")]
            let stored_ends = &self.ended_before;
            #[cfg(not(feature = "rayon"))]
            let stored_ends = &self.ended;
            old.iter()
                .filter(|event| matches!(event, CollisionEvent::End { .. }))
                .eq(stored_ends.iter())
        });
        let mut changes = Changes {
            began: std::mem::take(&mut self.began),
            ended: std::mem::take(&mut self.ended),
            reported: std::mem::take(&mut self.reported),
            report_all: !report_stay,
        };
        changes.clear();
        let mut detached = std::mem::take(&mut self.detached);
        // Each pair is detached at most once, so the order by pair is total.
        detached.sort_unstable_by_key(|pending| pending.pair);
        self.marks.clear();
        let threads = merge_threads(old.len() + tests.len());
        #[cfg(feature = "rayon")]
        if threads > 1 {
            let ranges = MergeRanges {
                old: &old,
                old_keys: (self.keys.len() == old.len()).then_some(&self.keys[..]),
                old_ends: &self.ended_before,
                kinds_may_change: self.kinds_may_change,
                tests,
                detached: &detached,
            };
            let mut parts = std::mem::take(&mut self.parts);
            let mut next_keys = std::mem::take(&mut self.next_keys);
            ranges.merge_in_parallel(
                4 * threads,
                &mut parts,
                &answer,
                &facts,
                (&mut next, &mut next_keys),
                &mut changes,
            );
            self.parts = parts;
            self.next_keys = std::mem::replace(&mut self.keys, next_keys);
        }
        #[cfg(feature = "rayon")]
        if threads == 1 {
            self.keys.clear();
        }
        if threads == 1 {
            next.clear();
            crate::huge_pages::reserve(&mut next, old.len() + tests.len());
            merge_range(
                &old,
                tests,
                0,
                &detached,
                &answer,
                &facts,
                results,
                &mut next,
                &mut changes,
            );
        }
        self.next = old;
        self.store = next;
        self.detached = detached;
        self.detached.clear();
        self.merged = true;
        self.report_stay = report_stay;
        self.kinds_may_change = changes
            .ended
            .iter()
            .any(|end| end.end_reason() == Some(EndReason::SensorChanged));
        self.began = changes.began;
        self.ended = changes.ended;
        self.reported = changes.reported;
        threads
    }

    /// Notes that a collider's sensor flag changed: its touching pairs may change kind at the
    /// next update.
    pub fn note_kind_change(&mut self) {
        self.kinds_may_change = true;
    }
}

#[cfg(feature = "rayon")]
impl Touching {
    /// Whether a merge of `tests` tests splits over threads (see [`Touching::merge`]).
    pub fn splits(&self, tests: usize) -> bool {
        merge_threads(self.store.len() + tests) > 1
    }
}

/// The fewest tests and stored events together that [`Touching::merge`] splits over threads
/// (feature `rayon`).
// 100k colliders, 10% moving, one thread (callgrind): the parts that split over threads (this
// merge with its narrow phase, the tree's flag flips, the move checks) hold 76% of the
// instructions and 85% of the last-level misses of a frame (27 Nov 2026).
#[cfg(feature = "rayon")]
pub(super) const PARALLEL_MERGE: usize = 16_384;

/// How many threads [`Touching::merge`] runs on for `work` tests and stored events: those of
/// the current pool from [`PARALLEL_MERGE`] on (feature `rayon`), else one.
fn merge_threads(work: usize) -> usize {
    #[cfg(feature = "rayon")]
    if work >= PARALLEL_MERGE {
        return rayon::current_num_threads();
    }
    let _ = work;
    1
}

/// What one range of a parallel merge writes, kept between updates so merging allocates
/// nothing once warm.
#[cfg(feature = "rayon")]
#[derive(Clone, Debug, Default)]
pub(super) struct MergePart {
    next: Vec<CollisionEvent>,
    began: Vec<CollisionEvent>,
    ended: Vec<CollisionEvent>,
    reported: Vec<CollisionEvent>,
    results: Vec<PairAnswer>,
    /// Every answer of the range's tests, when they are all answered before the range's
    /// events are written in place.
    answers: Vec<PairAnswer>,
    /// The range: its tests, stored events and detached pairs.
    span: MergeSpan,
    /// How many events the range writes.
    count: usize,
    /// Whether the range wrote exactly `count` events into its place.
    in_place: bool,
}

/// One range of a merge split over threads: positions in the tests, the stored events and
/// the detached pairs, and its bounds as order keys (`None`: unbounded).
#[cfg(feature = "rayon")]
#[derive(Clone, Debug, Default)]
struct MergeSpan {
    tests: std::ops::Range<usize>,
    old: std::ops::Range<usize>,
    detached: std::ops::Range<usize>,
    low: Option<u128>,
    high: Option<u128>,
}

/// The most tests whose answers a merge split over threads keeps all at once, so that each
/// range's events can be counted, then written straight into their place; above it, answers
/// come a chunk at a time and each range's events are written apart, then copied (a pile of
/// colliders can make millions of tests).
#[cfg(feature = "rayon")]
const IN_PLACE_TESTS: usize = 1 << 18;

/// The sorted inputs of a merge.
#[cfg(feature = "rayon")]
struct MergeRanges<'a> {
    old: &'a [CollisionEvent],
    /// The order keys of `old`, when known: only then are the events written in place.
    old_keys: Option<&'a [u128]>,
    /// The `End` entries of `old`, in order.
    old_ends: &'a [CollisionEvent],
    /// Whether a pair may change kind, or `old` holds a pair twice (see
    /// [`Touching::note_kind_change`]).
    kinds_may_change: bool,
    tests: &'a [PairTest],
    detached: &'a [Detached],
}

/// Where a merge writes its events: a vector it grows, or a slice it fills
/// ([`SliceSink`]).
trait EventSink {
    fn push(&mut self, event: CollisionEvent);
    fn extend_from_slice(&mut self, events: &[CollisionEvent]);
}

impl EventSink for Vec<CollisionEvent> {
    #[inline]
    fn push(&mut self, event: CollisionEvent) {
        Vec::push(self, event);
    }

    #[inline]
    fn extend_from_slice(&mut self, events: &[CollisionEvent]) {
        Vec::extend_from_slice(self, events);
    }
}

/// Fills a slice from its start; events past its end are dropped and noted.
#[cfg(feature = "rayon")]
struct SliceSink<'a> {
    slice: &'a mut [CollisionEvent],
    /// The order key of each event written, beside it.
    keys: &'a mut [u128],
    len: usize,
    overflowed: bool,
}

#[cfg(feature = "rayon")]
impl<'a> SliceSink<'a> {
    /// Sinks over consecutive places of the given lengths in `events`, which is made exactly
    /// as long as they together, and the same places in `keys`. `events` keeps the events it
    /// held (any values will do) so that only growth is filled.
    fn places(
        events: &'a mut Vec<CollisionEvent>,
        keys: &'a mut Vec<u128>,
        lengths: impl Iterator<Item = usize> + Clone,
    ) -> Vec<SliceSink<'a>> {
        const PLACEHOLDER: CollisionEvent = CollisionEvent::Stay {
            a: ColliderHandle {
                index: u32::MAX,
                generation: 0,
            },
            b: ColliderHandle {
                index: u32::MAX,
                generation: 0,
            },
            manifold: None,
        };
        let total = lengths.clone().sum();
        events.truncate(total);
        keys.truncate(total);
        crate::huge_pages::grow_to(events, total, PLACEHOLDER);
        crate::huge_pages::grow_to(keys, total, 0);
        split_into(events, lengths.clone())
            .into_iter()
            .zip(split_into(keys, lengths))
            .map(|(slice, keys)| SliceSink {
                slice,
                keys,
                len: 0,
                overflowed: false,
            })
            .collect()
    }

    /// Whether exactly the whole slice was written.
    fn filled(&self) -> bool {
        !self.overflowed && self.len == self.slice.len()
    }
}

#[cfg(feature = "rayon")]
impl EventSink for SliceSink<'_> {
    #[inline]
    fn push(&mut self, event: CollisionEvent) {
        match (self.slice.get_mut(self.len), self.keys.get_mut(self.len)) {
            (Some(place), Some(key)) => {
                *place = event;
                *key = event_key(&event);
                self.len += 1;
            }
            _ => self.overflowed = true,
        }
    }

    #[inline]
    fn extend_from_slice(&mut self, events: &[CollisionEvent]) {
        let range = self.len..self.len + events.len();
        match (self.slice.get_mut(range.clone()), self.keys.get_mut(range)) {
            (Some(places), Some(keys)) => {
                places.copy_from_slice(events);
                for (key, event) in keys.iter_mut().zip(events) {
                    *key = event_key(event);
                }
                self.len += events.len();
            }
            _ => self.overflowed = true,
        }
    }
}

#[cfg(feature = "rayon")]
impl MergeRanges<'_> {
    /// Merges `part_count` ranges of pairs, cut at tests spread evenly, on the current pool's
    /// threads, into `next` and `changes`.
    ///
    /// Range `i` holds the pairs from the key of its first test up to that of the next
    /// range's first test: its tests, and the stored events and detached pairs in that span.
    /// A merge of a range reads nothing outside it, so the ranges merged one after another
    /// give exactly what one merge of everything gives.
    ///
    /// Up to [`IN_PLACE_TESTS`] tests, each range first answers all its tests and counts its
    /// events: its stored events, less their `End`s (dropped), plus one `Begin` for each pair
    /// that touches now and did not, or did as the other kind (every other tested or detached
    /// pair replaces its stored event). Then each range writes its events straight into its
    /// place in `next`. Above it, or should a range not fill its place exactly, each range
    /// writes into its own buffer, and the buffers are copied into `next` one after another.
    #[allow(clippy::too_many_arguments)]
    fn merge_in_parallel(
        &self,
        part_count: usize,
        parts: &mut Vec<MergePart>,
        answer: &(impl Fn(usize, &[PairTest], &mut Vec<PairAnswer>) + Sync),
        facts: &(impl Fn(ColliderHandle, ColliderHandle) -> PairFacts + Sync),
        (next, next_keys): (&mut Vec<CollisionEvent>, &mut Vec<u128>),
        changes: &mut Changes,
    ) {
        use rayon::prelude::*;
        let tests_per_part = self.tests.len().div_ceil(part_count).max(1);
        let part_count = self.tests.len().div_ceil(tests_per_part).max(1);
        if parts.len() < part_count {
            parts.resize_with(part_count, MergePart::default);
        }
        let parts = &mut parts[..part_count];
        let report_all = changes.report_all;
        let in_place_keys = self.old_keys.filter(|_| self.tests.len() <= IN_PLACE_TESTS);
        let in_place = in_place_keys.is_some();
        parts.par_iter_mut().enumerate().for_each(|(index, part)| {
            part.span = self.span(index, tests_per_part);
            part.in_place = false;
            if let Some(old_keys) = in_place_keys {
                let tests = part.span.tests.clone();
                answer(tests.start, &self.tests[tests], &mut part.answers);
                part.count = self.event_count(&part.span, &part.answers, old_keys);
            }
        });
        if in_place {
            let sinks = SliceSink::places(next, next_keys, parts.iter().map(|part| part.count));
            sinks
                .into_par_iter()
                .zip(parts.par_iter_mut())
                .for_each(|(mut sink, part)| {
                    self.merge_part(
                        part,
                        None::<&fn(usize, &[PairTest], &mut Vec<PairAnswer>)>,
                        facts,
                        report_all,
                        &mut sink,
                    );
                    part.in_place = sink.filled();
                });
            // Not expected (the counts are exact); else the merge is redone apart below.
            debug_assert!(
                parts.iter().all(|part| part.in_place),
                "a merge range did not fill its place"
            );
        }
        if !parts.iter().all(|part| part.in_place) {
            parts.par_iter_mut().for_each(|part| {
                let mut sink = std::mem::take(&mut part.next);
                sink.clear();
                let fresh = (!in_place).then_some(answer);
                self.merge_part(part, fresh, facts, report_all, &mut sink);
                part.next = sink;
            });
            let sinks =
                SliceSink::places(next, next_keys, parts.iter().map(|part| part.next.len()));
            sinks
                .into_par_iter()
                .zip(parts.par_iter())
                .for_each(|(mut sink, part)| sink.extend_from_slice(&part.next));
        }
        for part in parts.iter() {
            changes.began.extend_from_slice(&part.began);
            changes.ended.extend_from_slice(&part.ended);
            changes.reported.extend_from_slice(&part.reported);
        }
    }

    /// The span of range `index` when each range but the last holds `tests_per_part` tests.
    fn span(&self, index: usize, tests_per_part: usize) -> MergeSpan {
        let first = index * tests_per_part;
        let last = ((index + 1) * tests_per_part).min(self.tests.len());
        // The span's bounds: the keys of this range's first test and the next one's.
        let bound = |test: usize| {
            (test < self.tests.len()).then(|| order_key((self.tests[test].a, self.tests[test].b)))
        };
        let (low, high) = (bound(first).filter(|_| index > 0), bound(last));
        let span = |keys: &dyn Fn(usize) -> u128, len: usize| {
            let start = low.map_or(0, |low| partition_point(len, |i| keys(i) < low));
            let end = high.map_or(len, |high| partition_point(len, |i| keys(i) < high));
            start..end
        };
        MergeSpan {
            tests: first..last,
            old: span(&|i| event_key(&self.old[i]), self.old.len()),
            detached: span(&|i| order_key(self.detached[i].pair), self.detached.len()),
            low,
            high,
        }
    }

    /// How many events the range `span` writes, given every answer of its tests and the
    /// order keys of the stored events (see [`MergeRanges::merge_in_parallel`]).
    fn event_count(&self, span: &MergeSpan, answers: &[PairAnswer], old_keys: &[u128]) -> usize {
        let keys = &old_keys[span.old.clone()];
        let ends_before = |bound: Option<u128>| {
            bound.map(|key| {
                partition_point(self.old_ends.len(), |i| event_key(&self.old_ends[i]) < key)
            })
        };
        let ends = &self.old_ends[ends_before(span.low).unwrap_or(0)
            ..ends_before(span.high).unwrap_or(self.old_ends.len())];
        // Walk the stored keys beside the tests (all sorted, one step at a time: the merge
        // reads every stored event after this anyway): a test that touches begins unless its
        // pair is stored and not as an `End`.
        let old = &self.old[span.old.clone()];
        let (mut position, mut end_position, mut begins) = (0, 0, 0);
        for (test, answer) in self.tests[span.tests.clone()].iter().zip(answers) {
            if !answer.is_touching() {
                continue;
            }
            let key = order_key((test.a, test.b));
            while keys.get(position).is_some_and(|&stored| stored < key) {
                position += 1;
            }
            let begins_here = if self.kinds_may_change {
                // The stored events themselves: the pair may be stored as an `End` then a
                // `Begin` (it changed kind at the last update), or as the other kind (then it
                // ends first, and begins).
                let was_sensor = stored_touching(old, &mut position, key)
                    .map(|event| event.manifold().is_none());
                was_sensor != Some(answer.manifold().is_none())
            } else {
                // Each pair stored once, none changing kind: the keys and the `End`s tell.
                let stored = keys.get(position) == Some(&key);
                let ended = stored && {
                    while ends
                        .get(end_position)
                        .is_some_and(|end| event_key(end) < key)
                    {
                        end_position += 1;
                    }
                    ends.get(end_position)
                        .is_some_and(|end| event_key(end) == key)
                };
                !stored || ended
            };
            begins += usize::from(begins_here);
        }
        keys.len() - ends.len() + begins
    }

    /// Merges `part`'s range into `sink` and the part's changes: with the answers of `answer`,
    /// or, when `None`, those kept in `part.answers`.
    fn merge_part(
        &self,
        part: &mut MergePart,
        answer: Option<&(impl Fn(usize, &[PairTest], &mut Vec<PairAnswer>) + Sync)>,
        facts: &(impl Fn(ColliderHandle, ColliderHandle) -> PairFacts + Sync),
        report_all: bool,
        sink: &mut impl EventSink,
    ) {
        let mut part_changes = Changes {
            began: std::mem::take(&mut part.began),
            ended: std::mem::take(&mut part.ended),
            reported: std::mem::take(&mut part.reported),
            report_all,
        };
        part_changes.clear();
        let span = &part.span;
        let first = span.tests.start;
        let (old, tests, detached) = (
            &self.old[span.old.clone()],
            &self.tests[span.tests.clone()],
            &self.detached[span.detached.clone()],
        );
        match answer {
            Some(answer) => merge_range(
                old,
                tests,
                first,
                detached,
                answer,
                facts,
                &mut part.results,
                sink,
                &mut part_changes,
            ),
            None => {
                let kept = &part.answers;
                let from_kept = |at: usize, chunk: &[PairTest], results: &mut Vec<PairAnswer>| {
                    results.clear();
                    results.extend_from_slice(&kept[at - first..at - first + chunk.len()]);
                };
                merge_range(
                    old,
                    tests,
                    first,
                    detached,
                    &from_kept,
                    facts,
                    &mut part.results,
                    sink,
                    &mut part_changes,
                )
            }
        }
        part.began = part_changes.began;
        part.ended = part_changes.ended;
        part.reported = part_changes.reported;
    }
}

/// `items` cut into consecutive slices of the given lengths (which add up to its length).
#[cfg(feature = "rayon")]
fn split_into<T>(items: &mut [T], lengths: impl Iterator<Item = usize>) -> Vec<&mut [T]> {
    let mut slices = Vec::new();
    let mut rest = items;
    for len in lengths {
        let (slice, tail) = rest.split_at_mut(len);
        slices.push(slice);
        rest = tail;
    }
    slices
}

/// The first index in `0..len` for which `below(index)` is false (`below` holds for a
/// prefix).
#[cfg(feature = "rayon")]
fn partition_point(len: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, len);
    while low < high {
        let middle = low + (high - low) / 2;
        if below(middle) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    low
}

/// The merge of one range of pairs (see [`Touching::merge`]): `old`, the stored events in the
/// range, sorted; `tests`, the range's tests, the first of them `tests[first_test]` of the
/// update; `detached`, the range's detached pairs. Appends the range's events to `next` and
/// `changes`.
#[allow(clippy::too_many_arguments)]
fn merge_range(
    old: &[CollisionEvent],
    tests: &[PairTest],
    first_test: usize,
    detached: &[Detached],
    answer: &impl Fn(usize, &[PairTest], &mut Vec<PairAnswer>),
    facts: &impl Fn(ColliderHandle, ColliderHandle) -> PairFacts,
    results: &mut Vec<PairAnswer>,
    next: &mut impl EventSink,
    changes: &mut Changes,
) {
    let mut detached_left = detached;
    let mut position = 0;
    for (chunk_index, chunk) in tests.chunks(MERGE_CHUNK).enumerate() {
        answer(first_test + chunk_index * MERGE_CHUNK, chunk, results);
        debug_assert_eq!(chunk.len(), results.len());
        for (test, &result) in chunk.iter().zip(results.iter()) {
            let key = order_key((test.a, test.b));
            if old
                .get(position)
                .is_some_and(|event| event_key(event) < key)
            {
                let run_end = position + first_not_below(&old[position..], key);
                keep_run(&old[position..run_end], &mut detached_left, next, changes);
                position = run_end;
            }
            let old_touching = stored_touching(old, &mut position, key);
            let was_touching = old_touching.is_some();
            let was_sensor = old_touching.is_some_and(|event| event.manifold().is_none());
            // A tested pair that was detached was re-enabled since: its state comes from the
            // test.
            // A tested pair detached since the last update that ends anyway ends for the
            // reason it was detached.
            let mut pending = None;
            while let Some((first, rest)) = detached_left.split_first() {
                if order_key(first.pair) > key {
                    break;
                }
                if order_key(first.pair) == key {
                    pending = Some(first.end);
                }
                detached_left = rest;
            }
            let (a, b) = (test.a, test.b);
            let manifold = result.manifold();
            match (was_touching, result.is_touching()) {
                (true, true) if was_sensor == manifold.is_none() => {
                    next.push(CollisionEvent::Stay { a, b, manifold });
                }
                // One of the two became a sensor or solid while they touched: the pair ends as
                // the kind it was and begins as the other, both in this update, in that order.
                (true, true) => {
                    let user_data = facts(a, b).user_data;
                    let end = PendingEnd {
                        reason: EndReason::SensorChanged,
                        sensor: was_sensor,
                        user_data,
                    };
                    changes.push_end(next, end.event(a, b));
                    changes.push_begin(
                        next,
                        CollisionEvent::Begin {
                            a,
                            b,
                            manifold,
                            time_of_impact: None,
                            user_data,
                        },
                    );
                }
                (true, false) => {
                    let end = pending.unwrap_or_else(|| {
                        let facts = facts(a, b);
                        PendingEnd {
                            reason: if facts.allowed {
                                EndReason::Separated
                            } else {
                                EndReason::Filtered
                            },
                            sensor: was_sensor,
                            user_data: facts.user_data,
                        }
                    });
                    changes.push_end(next, end.event(a, b));
                }
                (false, true) => changes.push_begin(
                    next,
                    CollisionEvent::Begin {
                        a,
                        b,
                        manifold,
                        time_of_impact: None,
                        user_data: facts(a, b).user_data,
                    },
                ),
                (false, false) => {}
            }
        }
    }
    keep_run(&old[position..], &mut detached_left, next, changes);
}

/// The stored entry of the pair with order key `key`, read from `old[*position]` on, when the
/// pair touched at the last update; `position` moves past the pair's entries. A pair is stored
/// once, or as an `End` then a `Begin` when it changed kind at the last update (the `Begin`
/// is the entry that touches).
#[inline]
fn stored_touching<'a>(
    old: &'a [CollisionEvent],
    position: &mut usize,
    key: u128,
) -> Option<&'a CollisionEvent> {
    let entry = |at: usize| old.get(at).filter(|event| event_key(event) == key);
    let event = entry(*position)?;
    *position += 1;
    if !matches!(event, CollisionEvent::End { .. }) {
        return Some(event);
    }
    let begin = entry(*position)?;
    *position += 1;
    Some(begin)
}

/// The merge's `Begin` and `End` events, written beside the stored ones.
struct Changes {
    began: Vec<CollisionEvent>,
    ended: Vec<CollisionEvent>,
    /// `Begin` and `End` in pair order, kept only when `Stay` is not reported.
    reported: Vec<CollisionEvent>,
    report_all: bool,
}

impl Changes {
    fn clear(&mut self) {
        self.began.clear();
        self.ended.clear();
        self.reported.clear();
    }

    #[inline]
    fn push_begin(&mut self, next: &mut impl EventSink, event: CollisionEvent) {
        next.push(event);
        self.began.push(event);
        if self.report_all {
            self.reported.push(event);
        }
    }

    #[inline]
    fn push_end(&mut self, next: &mut impl EventSink, event: CollisionEvent) {
        next.push(event);
        self.ended.push(event);
        if self.report_all {
            self.reported.push(event);
        }
    }
}

impl Touching {
    /// Puts the times of impact of continuous sweeps, sorted by pair, on this update's `Begin`
    /// events of those pairs (other events of them are left alone). Many times are merged in
    /// one pass over the events; a few are searched for.
    pub fn set_times_of_impact(&mut self, times: &[((ColliderHandle, ColliderHandle), f32)]) {
        for list in [&mut self.store, &mut self.reported, &mut self.began] {
            let set = |event: &mut CollisionEvent, time: f32| {
                if let CollisionEvent::Begin { time_of_impact, .. } = event {
                    *time_of_impact = Some(super::events::TimeOfImpact::new(time));
                }
            };
            // A pair that changed kind has an `End` before its `Begin`.
            if times.len() * 16 < list.len() {
                for &(pair, time) in times {
                    let first = list.partition_point(|event| event.pair() < pair);
                    for event in list[first..]
                        .iter_mut()
                        .take_while(|event| event.pair() == pair)
                    {
                        set(event, time);
                    }
                }
            } else {
                let mut events = list.iter_mut().peekable();
                for &(pair, time) in times {
                    while events.next_if(|event| event.pair() < pair).is_some() {}
                    while let Some(event) = events.next_if(|event| event.pair() == pair) {
                        set(event, time);
                    }
                }
            }
        }
    }

    /// Keeps the pairs (sorted) that did not touch at the last update, or are in `also` (sorted).
    /// Many pairs are merged with the touching pairs in one pass; a few are searched for.
    pub fn retain_not_touching<T>(
        &self,
        items: &mut Vec<T>,
        pair_of: impl Fn(&T) -> (ColliderHandle, ColliderHandle),
        also: &[(ColliderHandle, ColliderHandle)],
    ) {
        let keep = |pair, touching: bool| !touching || also.binary_search(&pair).is_ok();
        if items.len() * 16 < self.store.len() {
            items.retain(|item| {
                let pair = pair_of(item);
                keep(pair, self.contains(pair))
            });
        } else {
            let mut live = self.live().map(|(a, b, _)| (a, b)).peekable();
            items.retain(|item| {
                let pair = pair_of(item);
                while live.next_if(|&touching| touching < pair).is_some() {}
                keep(pair, live.peek() == Some(&pair))
            });
        }
    }
}

/// Pairs the update did not test, in order: those that ended already are dropped, detached
/// ones end, the rest stay. `detached` is the sorted detached pairs not yet passed.
#[inline]
fn keep_run(
    run: &[CollisionEvent],
    detached: &mut &[Detached],
    next: &mut impl EventSink,
    changes: &mut Changes,
) {
    if detached.is_empty() {
        // Most of a run is `Stay` events, copied as they are in blocks; a `Begin` becomes a
        // `Stay`, an `End` is dropped.
        let mut rest = run;
        while !rest.is_empty() {
            let stays = rest
                .iter()
                .position(|event| !matches!(event, CollisionEvent::Stay { .. }))
                .unwrap_or(rest.len());
            next.extend_from_slice(&rest[..stays]);
            rest = &rest[stays..];
            if let Some((event, tail)) = rest.split_first() {
                if let CollisionEvent::Begin { a, b, manifold, .. } = *event {
                    next.push(CollisionEvent::Stay { a, b, manifold });
                }
                rest = tail;
            }
        }
        return;
    }
    for event in run {
        let (a, b) = event.pair();
        let manifold = match *event {
            CollisionEvent::Begin { manifold, .. } | CollisionEvent::Stay { manifold, .. } => {
                manifold
            }
            CollisionEvent::End { .. } => continue,
        };
        while let Some((first, rest)) = detached.split_first() {
            if first.pair >= (a, b) {
                break;
            }
            *detached = rest;
        }
        if let Some(pending) = detached.first().filter(|pending| pending.pair == (a, b)) {
            let end = pending.end;
            *detached = &detached[1..];
            changes.push_end(next, end.event(a, b));
        } else {
            next.push(CollisionEvent::Stay { a, b, manifold });
        }
    }
}

/// The index of the first event whose pair is not below `key`, searched from the front with
/// doubling steps (the next tested pair is usually a few places on).
#[inline]
fn first_not_below(run: &[CollisionEvent], key: u128) -> usize {
    let mut low = 0;
    let mut step = 1;
    while step <= run.len() && event_key(&run[step - 1]) < key {
        low = step;
        step *= 2;
    }
    let high = step.min(run.len());
    low + run[low..high].partition_point(|event| event_key(event) < key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(index: u32) -> ColliderHandle {
        ColliderHandle {
            index,
            generation: 0,
        }
    }

    fn touching(indices: &[(u32, u32)]) -> Touching {
        Touching::from_sorted(
            indices
                .iter()
                .map(|&(a, b)| TouchingPair {
                    a: handle(a),
                    b: handle(b),
                    manifold: None,
                    detached: None,
                })
                .collect(),
        )
    }

    #[test]
    fn search_finds_the_first_pair_not_below() {
        let set = touching(&[(0, 1), (0, 3), (1, 2), (2, 5), (3, 4), (4, 9), (7, 8)]);
        for (key, expected) in [
            ((0, 0), 0),
            ((0, 1), 0),
            ((0, 2), 1),
            ((1, 9), 3),
            ((4, 9), 5),
            ((5, 0), 6),
            ((9, 9), 7),
        ] {
            let key = (handle(key.0), handle(key.1));
            assert_eq!(
                first_not_below(&set.store, order_key(key)),
                expected,
                "{key:?}"
            );
        }
    }

    /// A merge split over 2 or 4 threads writes exactly the events, `began`, `ended` and
    /// reported lists of the merge on one thread, over several updates of 30,000 stored pairs
    /// (some detached, some sensors) and 20,000 tests, with and without `Stay` reported.
    #[cfg(feature = "rayon")]
    #[test]
    fn a_merge_on_several_threads_writes_what_one_thread_writes() {
        let state = std::cell::Cell::new(11u64);
        let random = |below: u64| {
            let next = state
                .get()
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state.set(next);
            (next >> 33) % below
        };
        let mut pairs: Vec<(u32, u32)> = (0..40_000)
            .map(|_| {
                let a = random(20_000) as u32;
                (a, a + 1 + random(50) as u32)
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        let stored: Vec<TouchingPair> = pairs
            .iter()
            .filter(|_| random(4) != 0)
            .map(|&(a, b)| TouchingPair {
                a: handle(a),
                b: handle(b),
                manifold: (random(3) != 0).then_some(Manifold::EMPTY),
                detached: (random(50) == 0).then_some(PendingEnd {
                    reason: EndReason::Removed,
                    sensor: false,
                    user_data: [u64::from(a), u64::from(b)],
                }),
            })
            .collect();
        let updates: Vec<(Vec<PairTest>, Vec<PairAnswer>)> = (0..3)
            .map(|_| {
                let tests: Vec<PairTest> = pairs
                    .iter()
                    .filter(|_| random(2) == 0)
                    .map(|&(a, b)| PairTest {
                        a: handle(a),
                        b: handle(b),
                        boxes_apart: random(10) == 0,
                    })
                    .collect();
                let answers = tests
                    .iter()
                    .map(|test| match random(3) {
                        _ if test.boxes_apart => PairAnswer::Apart,
                        0 => PairAnswer::Apart,
                        1 => PairAnswer::SensorOverlap,
                        _ => PairAnswer::Touching(Manifold::EMPTY),
                    })
                    .collect();
                (tests, answers)
            })
            .collect();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut set = Touching::from_sorted(stored.clone());
                let mut seen = Vec::new();
                let mut draw = 99u64;
                for (update, (tests, answers)) in updates.iter().enumerate() {
                    // Between updates, some touching pairs are detached (their collider
                    // removed or disabled), a few of which the update tests all the same.
                    let live: Vec<_> = set.live().map(|(a, b, _)| (a, b)).collect();
                    for (i, &pair) in live.iter().enumerate() {
                        draw = draw
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(i as u64);
                        if (draw >> 33) % 40 == 0 {
                            let reason = if (draw >> 40) % 2 == 0 {
                                EndReason::Removed
                            } else {
                                EndReason::Disabled
                            };
                            assert!(set.detach(pair, reason, [1, 2]));
                        }
                    }
                    let used = set.merge(
                        tests,
                        |first, chunk, results| {
                            results.clear();
                            results.extend_from_slice(&answers[first..first + chunk.len()]);
                        },
                        |a, b| PairFacts {
                            user_data: [u64::from(a.index), u64::from(b.index)],
                            allowed: a.index % 7 != 0,
                        },
                        &mut Vec::new(),
                        update % 2 == 0,
                    );
                    assert_eq!(used, threads);
                    // From the second update on, the keys of the stored events are known
                    // and the ranges write their events in place.
                    if threads > 1 && update > 0 {
                        assert!(
                            set.parts.iter().all(|part| part.in_place),
                            "update {update}"
                        );
                    }
                    seen.push((
                        set.events().to_vec(),
                        set.began().to_vec(),
                        set.ended().to_vec(),
                    ));
                }
                seen
            })
        };
        let serial = run(1);
        assert!(serial[0].0.len() > 20_000);
        for threads in [2, 4] {
            assert!(run(threads) == serial, "{threads} threads");
        }
    }

    #[test]
    fn merge_reports_begin_stay_and_end_in_pair_order() {
        let mut set = touching(&[(0, 1), (1, 2), (2, 3), (4, 5)]);
        assert!(set.detach((handle(4), handle(5)), EndReason::Removed, [40, 50]));
        assert!(!set.contains((handle(4), handle(5))));
        let test = |a, b| PairTest {
            a: handle(a),
            b: handle(b),
            boxes_apart: false,
        };
        let tests = [test(0, 2), test(1, 2), test(3, 4)];
        let results = [
            PairAnswer::SensorOverlap,
            PairAnswer::Apart,
            PairAnswer::SensorOverlap,
        ];
        set.merge(
            &tests,
            |_, _, answers| {
                answers.clear();
                answers.extend_from_slice(&results);
            },
            |a, b| PairFacts {
                user_data: [u64::from(a.index) * 10, u64::from(b.index) * 10],
                allowed: true,
            },
            &mut Vec::new(),
            true,
        );
        let kinds: Vec<_> = set
            .events()
            .iter()
            .map(|e| {
                let (a, b) = e.pair();
                let kind = match e {
                    CollisionEvent::Begin { .. } => "begin",
                    CollisionEvent::Stay { .. } => "stay",
                    CollisionEvent::End { .. } => "end",
                };
                (kind, a.index, b.index)
            })
            .collect();
        assert_eq!(
            kinds,
            [
                ("stay", 0, 1),
                ("begin", 0, 2),
                ("end", 1, 2),
                ("stay", 2, 3),
                ("begin", 3, 4),
                ("end", 4, 5)
            ]
        );
        let left: Vec<_> = set.live().map(|(a, b, _)| (a.index, b.index)).collect();
        assert_eq!(left, [(0, 1), (0, 2), (2, 3), (3, 4)]);
        let pairs = |events: &[CollisionEvent]| -> Vec<(u32, u32)> {
            events
                .iter()
                .map(|e| (e.pair().0.index, e.pair().1.index))
                .collect()
        };
        assert_eq!(pairs(set.began()), [(0, 2), (3, 4)]);
        assert_eq!(pairs(set.ended()), [(1, 2), (4, 5)]);
        assert_eq!(set.began()[1].user_data(), Some([30, 40]));
        assert_eq!(set.ended()[0].end_reason(), Some(EndReason::Separated));
        assert_eq!(set.ended()[0].user_data(), Some([10, 20]));
        assert_eq!(set.ended()[1].end_reason(), Some(EndReason::Removed));
        assert_eq!(set.ended()[1].user_data(), Some([40, 50]));
    }
}
