//! The pairs touching as of the last update: a vector sorted by handle pair, merged with the
//! update's re-tested pairs in one pass that also writes the events.

use super::{ColliderHandle, CollisionEvent};
use crate::query::Manifold;

/// One touching pair (`a < b`).
#[derive(Clone, Copy, Debug)]
pub(super) struct TouchingPair {
    pub a: ColliderHandle,
    pub b: ColliderHandle,
    /// The last manifold; `None` for sensor pairs.
    pub manifold: Option<Manifold>,
    /// One of the two colliders was removed or disabled since the last update: the pair no
    /// longer counts as touching and its `End` is due at the next update.
    pub detached: bool,
}

impl TouchingPair {
    #[inline]
    pub fn pair(&self) -> (ColliderHandle, ColliderHandle) {
        (self.a, self.b)
    }

    /// The pair as one number ordered like `pair()`.
    #[inline]
    fn order_key(&self) -> u128 {
        order_key((self.a, self.b))
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

/// A pair the update re-tests (`a < b`, both live).
#[derive(Clone, Copy, Debug)]
pub(super) struct PairTest {
    pub a: ColliderHandle,
    pub b: ColliderHandle,
    /// The pair's boxes stopped overlapping: it is apart without a narrow-phase test.
    pub boxes_apart: bool,
}

/// The touching pairs, sorted by `(a, b)`.
///
/// **Invariant:** `pairs` is sorted and holds each pair at most once; `detached_count` counts
/// its detached pairs.
#[derive(Clone, Debug, Default)]
pub(super) struct Touching {
    pairs: Vec<TouchingPair>,
    /// The merge's output buffer, kept between updates so merging allocates nothing.
    next: Vec<TouchingPair>,
    detached_count: usize,
}

impl Touching {
    /// Builds the set from pairs sorted by `(a, b)`, each at most once.
    pub fn from_sorted(pairs: Vec<TouchingPair>) -> Touching {
        debug_assert!(pairs.windows(2).all(|w| w[0].pair() < w[1].pair()));
        let detached_count = pairs.iter().filter(|pair| pair.detached).count();
        Touching {
            pairs,
            next: Vec::new(),
            detached_count,
        }
    }

    /// Every stored pair, detached ones included, in order.
    pub fn all(&self) -> &[TouchingPair] {
        &self.pairs
    }

    /// The pairs that touch (not detached), in order.
    pub fn live(&self) -> impl Iterator<Item = &TouchingPair> {
        self.pairs.iter().filter(|pair| !pair.detached)
    }

    /// Whether the pair (in canonical order) touches.
    pub fn contains(&self, pair: (ColliderHandle, ColliderHandle)) -> bool {
        self.find(pair)
            .is_some_and(|index| !self.pairs[index].detached)
    }

    fn find(&self, pair: (ColliderHandle, ColliderHandle)) -> Option<usize> {
        self.pairs
            .binary_search_by(|probe| probe.pair().cmp(&pair))
            .ok()
    }

    /// Marks a touching pair detached (its collider leaves); returns whether it was touching.
    pub fn detach(&mut self, pair: (ColliderHandle, ColliderHandle)) -> bool {
        match self.find(pair) {
            Some(index) if !self.pairs[index].detached => {
                self.pairs[index].detached = true;
                self.detached_count += 1;
                true
            }
            _ => false,
        }
    }

    /// Applies an update's answers and writes its events in pair order.
    ///
    /// `tests` is sorted by pair, each pair once; `results[i]` answers `tests[i]`:
    /// `Some(manifold)` when touching, `None` when apart. Pairs not tested keep their state,
    /// except detached ones, which end. A detached pair that touches again by this update never
    /// stopped touching as far as updates can tell: it stays.
    pub fn merge(
        &mut self,
        tests: &[PairTest],
        results: &[Option<Option<Manifold>>],
        report_stay: bool,
        events: &mut Vec<CollisionEvent>,
    ) {
        debug_assert_eq!(tests.len(), results.len());
        let old = std::mem::take(&mut self.pairs);
        let mut next = std::mem::take(&mut self.next);
        next.clear();
        next.reserve(old.len() + tests.len());
        events.clear();
        if report_stay {
            events.reserve(old.len() + tests.len());
        }
        let copy_runs = self.detached_count == 0;
        let mut position = 0;
        for (test, result) in tests.iter().zip(results) {
            let key = order_key((test.a, test.b));
            if old.get(position).is_some_and(|t| t.order_key() < key) {
                let run_end = position + first_not_below(&old[position..], key);
                keep_run(
                    &old[position..run_end],
                    copy_runs,
                    report_stay,
                    &mut next,
                    events,
                );
                position = run_end;
            }
            let was_touching = old.get(position).is_some_and(|t| t.order_key() == key);
            if was_touching {
                position += 1;
            }
            let (a, b) = (test.a, test.b);
            match (was_touching, *result) {
                (true, Some(manifold)) => {
                    next.push(TouchingPair {
                        a,
                        b,
                        manifold,
                        detached: false,
                    });
                    if report_stay {
                        events.push(CollisionEvent::Stay { a, b, manifold });
                    }
                }
                (true, None) => events.push(CollisionEvent::End { a, b }),
                (false, Some(manifold)) => {
                    next.push(TouchingPair {
                        a,
                        b,
                        manifold,
                        detached: false,
                    });
                    events.push(CollisionEvent::Begin { a, b, manifold });
                }
                (false, None) => {}
            }
        }
        keep_run(&old[position..], copy_runs, report_stay, &mut next, events);
        self.next = old;
        self.pairs = next;
        self.detached_count = 0;
    }
}

/// Pairs the update did not test: detached ones end, the rest stay. `no_detached` says that
/// no pair is detached, so runs are copied whole.
#[inline]
fn keep_run(
    run: &[TouchingPair],
    no_detached: bool,
    report_stay: bool,
    next: &mut Vec<TouchingPair>,
    events: &mut Vec<CollisionEvent>,
) {
    if no_detached {
        next.extend_from_slice(run);
        if report_stay {
            events.extend(run.iter().map(|pair| CollisionEvent::Stay {
                a: pair.a,
                b: pair.b,
                manifold: pair.manifold,
            }));
        }
        return;
    }
    for pair in run {
        let (a, b) = pair.pair();
        if pair.detached {
            events.push(CollisionEvent::End { a, b });
        } else {
            next.push(*pair);
            if report_stay {
                events.push(CollisionEvent::Stay {
                    a,
                    b,
                    manifold: pair.manifold,
                });
            }
        }
    }
}

/// The index of the first pair not below `key`, searched from the front with doubling steps
/// (the next tested pair is usually a few places on).
#[inline]
fn first_not_below(run: &[TouchingPair], key: u128) -> usize {
    let mut low = 0;
    let mut step = 1;
    while step <= run.len() && run[step - 1].order_key() < key {
        low = step;
        step *= 2;
    }
    let high = step.min(run.len());
    low + run[low..high].partition_point(|pair| pair.order_key() < key)
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
                    detached: false,
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
                first_not_below(set.all(), order_key(key)),
                expected,
                "{key:?}"
            );
        }
    }

    #[test]
    fn merge_reports_begin_stay_and_end_in_pair_order() {
        let mut set = touching(&[(0, 1), (1, 2), (2, 3), (4, 5)]);
        assert!(set.detach((handle(4), handle(5))));
        assert!(!set.contains((handle(4), handle(5))));
        let test = |a, b| PairTest {
            a: handle(a),
            b: handle(b),
            boxes_apart: false,
        };
        let tests = [test(0, 2), test(1, 2), test(3, 4)];
        let results = [Some(None), None, Some(None)];
        let mut events = Vec::new();
        set.merge(&tests, &results, true, &mut events);
        let kinds: Vec<_> = events
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
        let left: Vec<_> = set.live().map(|t| (t.a.index, t.b.index)).collect();
        assert_eq!(left, [(0, 1), (0, 2), (2, 3), (3, 4)]);
    }
}
