//! The pairs to re-test, listed and sorted in parts on the current rayon pool's threads
//! (feature `rayon`), for an update with many changed colliders.
//!
//! The serial path (`update.rs`, `World::collect_tests`) lists every changed collider's pairs,
//! sorts them, drops repeats and merges in the pairs whose boxes stopped overlapping. Here:
//!
//! 1. The changed colliders are cut into parts; each part lists its pairs into its own buffer
//!    and sorts it (one more part holds the pairs that began overlapping and pending
//!    re-tests).
//! 2. Splitting keys, sampled evenly from the sorted parts, cut the key range into ranges.
//! 3. Each range gathers its keys from every part (runs already sorted), sorts them, drops
//!    repeats and merges in its share of the apart pairs, into its own list of tests.
//! 4. The ranges' tests are copied one after another into the update's tests.
//!
//! The result is the sorted set of keys with each key once; two records of one key are the
//! same pair of live handles, so the tests are exactly the serial path's, whatever the number
//! of parts or threads.

use super::touching::PairTest;
use super::update::{for_each_in_union, list_changed_pairs, sort_pair_keys, PairKey};
use super::{ColliderHandle, World};

/// The fewest changed colliders whose pairs are listed in parts on several threads.
// 27 Nov 2026: with this, about 89% of a 100k or 1M frame's instructions (10% moving) split
// over threads; the serial rest is mostly update_many's writes and leaf moves.
pub(super) const PARALLEL_CHANGED: usize = 4096;

/// One part's keys and the working memory of their sort.
#[derive(Default)]
pub(super) struct KeyPart {
    keys: Vec<PairKey>,
    sort_buffer: Vec<PairKey>,
}

/// One key range's keys and its tests.
#[derive(Default)]
pub(super) struct TestRange {
    keys: Vec<PairKey>,
    tests: Vec<PairTest>,
}

/// The part of the sorted `keys` at or above `low` and below `high` (`None`: no bound).
fn key_range(keys: &[PairKey], low: Option<u64>, high: Option<u64>) -> &[PairKey] {
    let start = low.map_or(0, |low| keys.partition_point(|pair| pair.key < low));
    let end = high.map_or(keys.len(), |high| {
        keys.partition_point(|pair| pair.key < high)
    });
    &keys[start..end.max(start)]
}

/// Step 1 (see the module docs), run beside the broad phase
/// ([`World::follow_broad_phase`]): lists the pairs of the changed colliders `dirty` into
/// parts `1..` of `key_parts` (part 0 is left for the began pairs) and sorts each part, on the
/// current rayon pool.
pub(super) fn list_changed_in_parts(
    key_parts: &mut Vec<KeyPart>,
    slots: &[super::Slot],
    dirty: &[ColliderHandle],
    dirty_bits: &[u64],
    index_bits: u32,
) {
    use rayon::prelude::*;
    let part_count = 4 * rayon::current_num_threads();
    key_parts.resize_with(part_count + 1, KeyPart::default);
    let part_len = dirty.len().div_ceil(part_count);
    key_parts[1..]
        .par_iter_mut()
        .enumerate()
        .for_each(|(index, part)| {
            part.keys.clear();
            let start = (index * part_len).min(dirty.len());
            let end = ((index + 1) * part_len).min(dirty.len());
            list_changed_pairs(slots, dirty_bits, &dirty[start..end], &mut part.keys);
            sort_pair_keys(&mut part.keys, &mut part.sort_buffer, index_bits);
        });
}

impl World {
    /// Whether this update lists and sorts the pairs to re-test in parts on several threads
    /// ([`list_changed_in_parts`] beside the broad phase, then
    /// [`World::finish_tests_in_parts`]): many changed colliders, a pool of several threads,
    /// and the filters as they were.
    pub(super) fn tests_in_parts(&self) -> bool {
        let filters_changed = self.layers.matrix() != self.seen_layer_matrix;
        !filters_changed
            && !self.pairs_listed_in_order(filters_changed)
            && self.dirty.len() >= PARALLEL_CHANGED
            && rayon::current_num_threads() > 1
    }

    /// Steps 1 (its first part) to 4 (see the module docs), after [`list_changed_in_parts`]
    /// beside the broad phase: builds `scratch.tests` as
    /// `collect_tests` does. Expects the began pairs' keys in `scratch.retest_keys`, the ended
    /// ones' in `scratch.apart_keys`, and no change of the layer matrix.
    pub(super) fn finish_tests_in_parts(&mut self) {
        use rayon::prelude::*;
        let part_count = self.scratch.key_parts.len() - 1;
        let index_bits = self.key_index_bits();
        let scratch = &mut self.scratch;

        // 1. The first part: pairs that began overlapping and pending re-tests of live pairs.
        scratch.key_parts[0].keys.clear();
        std::mem::swap(&mut scratch.key_parts[0].keys, &mut scratch.retest_keys);
        let slots = &self.slots;
        let live = |h: ColliderHandle| {
            slots
                .get(h.index as usize)
                .is_some_and(|s| s.generation == h.generation && s.entry.is_some())
        };
        for (a, b) in self.retest_pending.drain() {
            if live(a) && live(b) {
                scratch.key_parts[0].keys.push(PairKey::new(a, b));
            }
        }
        let first = &mut scratch.key_parts[0];
        sort_pair_keys(&mut first.keys, &mut first.sort_buffer, index_bits);
        scratch.apart_keys.sort_unstable_by_key(|pair| pair.key);

        // 2. Splitting keys: `range_count - 1` evenly spaced samples of each part, sorted;
        // of those, every `part_count + 1`-th (about `range_count - 1` keys).
        let range_count = part_count;
        let samples = &mut scratch.splitting_keys;
        samples.clear();
        for part in scratch
            .key_parts
            .iter()
            .filter(|part| !part.keys.is_empty())
        {
            let len = part.keys.len();
            samples.extend((1..range_count).map(|j| part.keys[j * len / range_count].key));
        }
        samples.sort_unstable();
        let step = part_count + 1;
        let chosen = samples.len().saturating_sub(step / 2).div_ceil(step);
        for (place, sample) in (step / 2..samples.len()).step_by(step).enumerate() {
            samples[place] = samples[sample];
        }
        samples.truncate(chosen);
        samples.dedup();

        // 3. Each range: its keys from every part, sorted, each once, merged with its apart
        // pairs into tests.
        scratch
            .test_ranges
            .resize_with(scratch.splitting_keys.len() + 1, TestRange::default);
        scratch
            .test_ranges
            .truncate(scratch.splitting_keys.len() + 1);
        let (parts, apart_keys) = (&scratch.key_parts, &scratch.apart_keys);
        let splitting = &scratch.splitting_keys;
        scratch
            .test_ranges
            .par_iter_mut()
            .enumerate()
            .for_each(|(index, range)| {
                let low = index.checked_sub(1).map(|below| splitting[below]);
                let high = splitting.get(index).copied();
                range.keys.clear();
                for part in parts {
                    range
                        .keys
                        .extend_from_slice(key_range(&part.keys, low, high));
                }
                // A stable sort finds the parts' sorted runs and merges them.
                range.keys.sort_by_key(|pair| pair.key);
                range.keys.dedup_by_key(|pair| pair.key);
                range.tests.clear();
                let tests = &mut range.tests;
                for_each_in_union(
                    &range.keys,
                    key_range(apart_keys, low, high),
                    |pair, boxes_apart| {
                        let (a, b) = pair.handles();
                        tests.push(PairTest { a, b, boxes_apart });
                    },
                );
            });

        // 4. The ranges' tests, in key order.
        scratch.tests.clear();
        for range in &scratch.test_ranges {
            scratch.tests.extend_from_slice(&range.tests);
        }
    }
}
