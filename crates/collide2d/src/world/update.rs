//! `World::update`: broad phase, filter, narrow phase and events.

use super::{one_way_allows, ordered, ColliderHandle, CollisionEvent, UpdateStats, World};
use crate::query::{collide, overlaps, Manifold};

impl World {
    /// Forgets a collider's box pairs (it is being removed or disabled) and schedules `End`
    /// for the pairs it was touching.
    pub(super) fn detach(&mut self, handle: ColliderHandle) {
        let partners = match self.entry_mut(handle) {
            Ok(entry) => std::mem::take(&mut entry.partners),
            Err(_) => return,
        };
        for partner in partners {
            if let Ok(other) = self.entry_mut(partner) {
                other.partners.retain(|&p| p != handle);
            }
            let key = ordered(handle, partner);
            if self.touching.remove(&key).is_some() {
                self.pending_ends.push(key);
            }
        }
    }

    /// Runs broad phase → filter → narrow phase and returns this update's events.
    ///
    /// 1. The broad phase reports which box pairs began and ended overlapping; partner lists
    ///    follow.
    /// 2. Only pairs with a changed collider (or new pairs, or all pairs after a layer-matrix
    ///    change) are re-tested: layer matrix and filter bits, then the narrow phase. Pairs
    ///    whose boxes stopped overlapping stop touching.
    /// 3. Events: `End` for pairs no longer touching (including removed and disabled
    ///    colliders), `Begin` for new ones, `Stay` for the rest, sorted by pair.
    pub fn update(&mut self) -> &[CollisionEvent] {
        let started = std::time::Instant::now();
        // 1. Broad phase and partner lists.
        let changes = self.broad.get_mut().update_pairs().clone();
        let mut retest: Vec<(ColliderHandle, ColliderHandle)> = Vec::new();
        let mut ended_boxes: Vec<(ColliderHandle, ColliderHandle)> = Vec::new();
        for pair in &changes.ended {
            let broad = self.broad.get();
            // A removed or disabled collider's pairs were already forgotten.
            let (Ok(a), Ok(b)) = (broad.key(pair.lower()), broad.key(pair.higher())) else {
                continue;
            };
            let (a, b) = ordered(ColliderHandle::from_key(a), ColliderHandle::from_key(b));
            if let Ok(entry) = self.entry_mut(a) {
                entry.partners.retain(|&p| p != b);
            }
            if let Ok(entry) = self.entry_mut(b) {
                entry.partners.retain(|&p| p != a);
            }
            ended_boxes.push((a, b));
        }
        for pair in &changes.began {
            let broad = self.broad.get();
            let (Ok(a), Ok(b)) = (broad.key(pair.lower()), broad.key(pair.higher())) else {
                continue;
            };
            let (a, b) = ordered(ColliderHandle::from_key(a), ColliderHandle::from_key(b));
            if let Ok(entry) = self.entry_mut(a) {
                entry.partners.push(b);
            }
            if let Ok(entry) = self.entry_mut(b) {
                entry.partners.push(a);
            }
            retest.push((a, b));
        }
        let filters_changed = self.layers.version() != self.seen_layers_version;
        if filters_changed {
            for (index, slot) in self.slots.iter().enumerate() {
                if let Some(entry) = &slot.entry {
                    let handle = ColliderHandle {
                        index: index as u32,
                        generation: slot.generation,
                    };
                    retest.extend(
                        entry
                            .partners
                            .iter()
                            .filter(|&&p| handle < p)
                            .map(|&p| (handle, p)),
                    );
                }
            }
        } else {
            for &handle in &self.dirty {
                if let Ok(entry) = self.entry(handle) {
                    retest.extend(entry.partners.iter().map(|&p| ordered(handle, p)));
                }
            }
        }
        retest.append(&mut self.retest_pending);
        retest.sort_unstable();
        retest.dedup();
        let broad_done = std::time::Instant::now();

        // 2. Filter and narrow phase on the re-tested pairs.
        let results = self.run_narrow_phase(&retest);
        let mut began: Vec<(ColliderHandle, ColliderHandle)> = Vec::new();
        let mut ended: Vec<(ColliderHandle, ColliderHandle)> =
            std::mem::take(&mut self.pending_ends);
        for (&pair, result) in retest.iter().zip(results) {
            match result {
                Some(manifold) => {
                    if self.touching.insert(pair, manifold).is_none() {
                        began.push(pair);
                    }
                }
                None => {
                    if self.touching.remove(&pair).is_some() {
                        ended.push(pair);
                    }
                }
            }
        }
        for pair in ended_boxes {
            if self.touching.remove(&pair).is_some() {
                ended.push(pair);
            }
        }
        let narrow_done = std::time::Instant::now();

        // 3. Events in pair order. A pair that ended (its collider was disabled or re-shaped)
        //    and touches again by this update never stopped touching as far as updates can
        //    tell: it stays.
        ended.sort_unstable();
        ended.dedup();
        began.sort_unstable();
        if !ended.is_empty() {
            let still_touching: Vec<_> = ended
                .iter()
                .copied()
                .filter(|pair| self.touching.contains_key(pair))
                .collect();
            if !still_touching.is_empty() {
                ended.retain(|pair| !self.touching.contains_key(pair));
                began.retain(|pair| still_touching.binary_search(pair).is_err());
            }
        }
        self.events.clear();
        let mut ends = ended.into_iter().peekable();
        let mut push_ends_before =
            |events: &mut Vec<CollisionEvent>, limit: Option<(ColliderHandle, ColliderHandle)>| {
                while let Some(&(a, b)) = ends.peek() {
                    if limit.is_some_and(|l| (a, b) >= l) {
                        break;
                    }
                    events.push(CollisionEvent::End { a, b });
                    ends.next();
                }
            };
        if self.report_stay {
            let mut begun = began.iter().peekable();
            for (&(a, b), manifold) in &self.touching {
                push_ends_before(&mut self.events, Some((a, b)));
                if begun.peek() == Some(&&(a, b)) {
                    begun.next();
                    self.events.push(CollisionEvent::Begin {
                        a,
                        b,
                        manifold: *manifold,
                    });
                } else {
                    self.events.push(CollisionEvent::Stay {
                        a,
                        b,
                        manifold: *manifold,
                    });
                }
            }
        } else {
            for (a, b) in began {
                push_ends_before(&mut self.events, Some((a, b)));
                let manifold = self.touching.get(&(a, b)).copied().flatten();
                self.events.push(CollisionEvent::Begin { a, b, manifold });
            }
        }
        push_ends_before(&mut self.events, None);

        for handle in std::mem::take(&mut self.dirty) {
            if let Ok(entry) = self.entry_mut(handle) {
                entry.dirty = false;
            }
        }
        self.seen_layers_version = self.layers.version();
        let done = std::time::Instant::now();
        self.stats = UpdateStats {
            broad: broad_done - started,
            narrow: narrow_done - broad_done,
            events: done - narrow_done,
            candidate_pairs: self
                .slots
                .iter()
                .filter_map(|s| s.entry.as_ref())
                .map(|e| e.partners.len())
                .sum::<usize>()
                / 2,
            narrow_tests: retest.len(),
        };
        &self.events
    }

    /// The narrow-phase answer for each pair: `Some(manifold)` when touching (`None` inside
    /// for sensors), `None` when apart. With the `rayon` feature, large batches run in
    /// parallel; the answers are the same and in the same order.
    fn run_narrow_phase(
        &self,
        pairs: &[(ColliderHandle, ColliderHandle)],
    ) -> Vec<Option<Option<Manifold>>> {
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            if pairs.len() >= 256 {
                return pairs
                    .par_iter()
                    .map(|&(a, b)| self.narrow_pair(a, b))
                    .collect();
            }
        }
        pairs.iter().map(|&(a, b)| self.narrow_pair(a, b)).collect()
    }

    /// Whether colliders `a` and `b` touch now, with their manifold for solid pairs.
    fn narrow_pair(&self, a: ColliderHandle, b: ColliderHandle) -> Option<Option<Manifold>> {
        let (ca, cb) = (&self.entry(a).ok()?.collider, &self.entry(b).ok()?.collider);
        if !ca.enabled || !cb.enabled || !self.pair_allowed(ca, cb) {
            return None;
        }
        let (xa, xb) = (ca.world_transform(), cb.world_transform());
        if ca.sensor || cb.sensor {
            return overlaps(&ca.shape, &xa, &cb.shape, &xb).then_some(None);
        }
        let manifold = collide(&ca.shape, &xa, &cb.shape, &xb);
        if manifold.is_empty() || !one_way_allows(ca, cb, &manifold) {
            return None;
        }
        Some(Some(manifold))
    }
}
