//! The pairs touching as of the last update: a vector sorted by handle pair, merged with the
//! update's re-tested pairs in one pass that also writes the events.

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
/// **Invariant:** `store` is sorted by pair and names each pair at most once; `detached` is
/// sorted and holds only pairs of `Begin`/`Stay` entries of `store`.
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
    /// The last update's `End` events, in pair order.
    ended: Vec<CollisionEvent>,
    /// Whether the last merge reported `Stay`.
    report_stay: bool,
    /// Whether `store` holds events of an update (and not pairs handed over by a restore).
    merged: bool,
    /// Touching pairs one of whose colliders was removed or disabled since the last update,
    /// sorted by pair: they no longer touch, and their `End` comes at the next update.
    detached: Vec<Detached>,
}

impl Touching {
    /// Builds the set from pairs sorted by `(a, b)`, each at most once.
    pub fn from_sorted(pairs: Vec<TouchingPair>) -> Touching {
        debug_assert!(pairs.windows(2).all(|w| w[0].pair() < w[1].pair()));
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
        if self.is_detached(pair) {
            return None;
        }
        self.find(pair).map(|index| match &self.store[index] {
            CollisionEvent::Begin { manifold, .. } | CollisionEvent::Stay { manifold, .. } => {
                manifold.as_ref()
            }
            CollisionEvent::End { .. } => None,
        })
    }

    fn is_detached(&self, pair: (ColliderHandle, ColliderHandle)) -> bool {
        self.detached
            .binary_search_by(|probe| probe.pair.cmp(&pair))
            .is_ok()
    }

    /// The pairs that touch (not detached), in order, with their manifolds.
    pub fn live(
        &self,
    ) -> impl Iterator<Item = (ColliderHandle, ColliderHandle, Option<&Manifold>)> + '_ {
        let mut detached = self.detached.iter().peekable();
        self.store.iter().filter_map(move |event| {
            let (a, b) = event.pair();
            if matches!(event, CollisionEvent::End { .. }) {
                return None;
            }
            while detached.next_if(|pending| pending.pair < (a, b)).is_some() {}
            if detached.next_if(|pending| pending.pair == (a, b)).is_some() {
                return None;
            }
            Some((a, b, event.manifold()))
        })
    }

    /// The detached pairs, in order: their `End` is due.
    pub fn detached(&self) -> impl Iterator<Item = (ColliderHandle, ColliderHandle)> + '_ {
        self.detached.iter().map(|pending| pending.pair)
    }

    /// The detached pairs' pending `End`s, in pair order.
    pub fn pending_ends(&self) -> impl Iterator<Item = PendingEnd> + '_ {
        self.detached.iter().map(|pending| pending.end)
    }

    /// Whether the pair (in canonical order) touches.
    pub fn contains(&self, pair: (ColliderHandle, ColliderHandle)) -> bool {
        self.find(pair).is_some() && !self.is_detached(pair)
    }

    /// The position of the pair's `Begin` or `Stay` entry.
    fn find(&self, pair: (ColliderHandle, ColliderHandle)) -> Option<usize> {
        self.store
            .binary_search_by(|probe| probe.pair().cmp(&pair))
            .ok()
            .filter(|&index| !matches!(self.store[index], CollisionEvent::End { .. }))
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
        let sensor = self.store[index].manifold().is_none();
        match self
            .detached
            .binary_search_by(|probe| probe.pair.cmp(&pair))
        {
            Ok(_) => false,
            Err(position) => {
                let end = PendingEnd {
                    reason,
                    sensor,
                    user_data,
                };
                self.detached.insert(position, Detached { pair, end });
                true
            }
        }
    }

    /// Applies an update's answers and writes its events in pair order.
    ///
    /// `tests` is sorted by pair, each pair once; `answer(chunk, results)` fills `results` with
    /// the answers to a chunk of them, `results[i]` answering `chunk[i]`: `Some(manifold)` when
    /// touching, `None` when apart. `facts(a, b)` tells what a `Begin` or `End` of the live pair
    /// `(a, b)` carries (asked only for those). The tests are answered [`MERGE_CHUNK`] at a time as the
    /// merge reaches them, so the answers never take more memory than one chunk's, however
    /// many pairs are tested (a pile of `n` colliders tests `n²/2`). Pairs not tested keep
    /// their state, except detached ones, which end. A detached pair that touches again by this
    /// update never stopped touching as far as updates can tell: it stays.
    pub fn merge(
        &mut self,
        tests: &[PairTest],
        mut answer: impl FnMut(&[PairTest], &mut Vec<Option<Option<Manifold>>>),
        facts: impl Fn(ColliderHandle, ColliderHandle) -> PairFacts,
        results: &mut Vec<Option<Option<Manifold>>>,
        report_stay: bool,
    ) {
        let old = std::mem::take(&mut self.store);
        let mut next = std::mem::take(&mut self.next);
        next.clear();
        next.reserve(old.len() + tests.len());
        let mut changes = Changes {
            began: std::mem::take(&mut self.began),
            ended: std::mem::take(&mut self.ended),
            reported: std::mem::take(&mut self.reported),
            report_all: !report_stay,
        };
        changes.clear();
        let detached = std::mem::take(&mut self.detached);
        let mut detached_left = detached.as_slice();
        let mut position = 0;
        for chunk in tests.chunks(MERGE_CHUNK) {
            answer(chunk, results);
            debug_assert_eq!(chunk.len(), results.len());
            for (test, &result) in chunk.iter().zip(results.iter()) {
                let key = order_key((test.a, test.b));
                if old
                    .get(position)
                    .is_some_and(|event| event_key(event) < key)
                {
                    let run_end = position + first_not_below(&old[position..], key);
                    keep_run(
                        &old[position..run_end],
                        &mut detached_left,
                        &mut next,
                        &mut changes,
                    );
                    position = run_end;
                }
                let old_touching = old.get(position).filter(|event| {
                    event_key(event) == key && !matches!(event, CollisionEvent::End { .. })
                });
                let was_touching = old_touching.is_some();
                let was_sensor = old_touching.is_some_and(|event| event.manifold().is_none());
                if old
                    .get(position)
                    .is_some_and(|event| event_key(event) == key)
                {
                    position += 1;
                }
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
                match (was_touching, result) {
                    (true, Some(manifold)) => next.push(CollisionEvent::Stay { a, b, manifold }),
                    (true, None) => {
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
                        changes.push_end(
                            &mut next,
                            CollisionEvent::End {
                                a,
                                b,
                                reason: end.reason,
                                sensor: end.sensor,
                                user_data: end.user_data,
                            },
                        );
                    }
                    (false, Some(manifold)) => changes.push_begin(
                        &mut next,
                        CollisionEvent::Begin {
                            a,
                            b,
                            manifold,
                            time_of_impact: None,
                            user_data: facts(a, b).user_data,
                        },
                    ),
                    (false, None) => {}
                }
            }
        }
        keep_run(
            &old[position..],
            &mut detached_left,
            &mut next,
            &mut changes,
        );
        self.next = old;
        self.store = next;
        self.detached = detached;
        self.detached.clear();
        self.merged = true;
        self.report_stay = report_stay;
        self.began = changes.began;
        self.ended = changes.ended;
        self.reported = changes.reported;
    }
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
    fn push_begin(&mut self, next: &mut Vec<CollisionEvent>, event: CollisionEvent) {
        next.push(event);
        self.began.push(event);
        if self.report_all {
            self.reported.push(event);
        }
    }

    #[inline]
    fn push_end(&mut self, next: &mut Vec<CollisionEvent>, event: CollisionEvent) {
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
            if times.len() * 16 < list.len() {
                for &(pair, time) in times {
                    if let Ok(index) = list.binary_search_by(|event| event.pair().cmp(&pair)) {
                        set(&mut list[index], time);
                    }
                }
            } else {
                let mut events = list.iter_mut().peekable();
                for &(pair, time) in times {
                    while events.next_if(|event| event.pair() < pair).is_some() {}
                    if let Some(event) = events.next_if(|event| event.pair() == pair) {
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
    next: &mut Vec<CollisionEvent>,
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
            changes.push_end(
                next,
                CollisionEvent::End {
                    a,
                    b,
                    reason: end.reason,
                    sensor: end.sensor,
                    user_data: end.user_data,
                },
            );
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
        let results = [Some(None), None, Some(None)];
        set.merge(
            &tests,
            |_, answers| {
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
