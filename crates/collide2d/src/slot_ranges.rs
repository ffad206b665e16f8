//! A batch of per-slot writes split over threads by slot range, with what the serial loop would
//! list put back in batch order (feature `rayon`).
//!
//! A batch of moves names slots in any order, a slot possibly twice. Threads cannot share one
//! array's scattered writes, so each thread takes a range of slots (a whole number of 64-slot
//! flag words, so that it owns its words of a bit set too), finds the batch's items in its range
//! in batch order ([`positions_in_range`]) and writes them: a slot named twice is written twice
//! by one thread, in batch order, as the serial loop would. What the serial loop pushes to a
//! list (a slot marked for the first time, a proxy that left its fat box) each range notes with
//! the item's position, and [`for_each_in_batch_order`] visits the notes of all ranges by
//! position: the same list, whatever the number of threads.

/// Slots per range when `slot_count` slots are split over `threads` threads: a multiple of 64.
pub(crate) fn range_len(slot_count: usize, threads: usize) -> usize {
    slot_count
        .div_ceil(threads.max(1))
        .next_multiple_of(64)
        .max(64)
}

/// Lists into `positions`, in batch order, the positions of the batch items whose slot
/// (`slot_of` of each item) is in `first..first + len`.
#[inline]
pub(crate) fn positions_in_range<T>(
    batch: &[T],
    slot_of: impl Fn(&T) -> usize,
    first: usize,
    len: usize,
    positions: &mut Vec<u32>,
) {
    positions.clear();
    positions.extend(
        batch
            .iter()
            .enumerate()
            .filter(|(_, item)| slot_of(item).wrapping_sub(first) < len)
            .map(|(position, _)| position as u32),
    );
}

/// Visits the notes of every range in batch order: `notes[r]` holds range `r`'s notes sorted
/// by `position`, `range_of(p)` is the range of batch item `p`'s slot. One pass over the
/// batch positions, taking each one's note, if any, from the head of its range's list.
pub(crate) fn for_each_in_batch_order<T: Copy>(
    notes: &[Vec<T>],
    batch_len: usize,
    range_of: impl Fn(usize) -> usize,
    position: impl Fn(&T) -> u32,
    mut visit: impl FnMut(T),
) {
    let mut heads: Vec<usize> = vec![0; notes.len()];
    for batch_position in 0..batch_len {
        let range = range_of(batch_position);
        if let Some(&note) = notes[range]
            .get(heads[range])
            .filter(|note| position(note) as usize == batch_position)
        {
            heads[range] += 1;
            visit(note);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_whole_flag_words_covering_every_slot() {
        for (slots, threads) in [(0, 1), (1, 4), (100, 3), (4096, 2), (100_001, 16)] {
            let len = range_len(slots, threads);
            assert_eq!(len % 64, 0);
            assert!(len * threads >= slots);
        }
    }

    #[test]
    fn notes_are_visited_in_batch_order() {
        // A batch of slots, two ranges of 64 slots: each range notes the positions of its
        // slots; the merge gives back every position in order.
        let batch: Vec<usize> = (0..500).map(|i| (i * 37 + i / 7) % 128).collect();
        let notes: Vec<Vec<u32>> = (0..2)
            .map(|range| {
                let mut positions = Vec::new();
                positions_in_range(&batch, |&slot| slot, range * 64, 64, &mut positions);
                positions
            })
            .collect();
        let mut visited = Vec::new();
        let range_of = |position: usize| batch[position] / 64;
        for_each_in_batch_order(&notes, batch.len(), range_of, |&p| p, |p| visited.push(p));
        assert_eq!(visited, (0..500).collect::<Vec<u32>>());
        // Only some items noted (every third of the first range): those, in order.
        let sparse: Vec<Vec<u32>> = vec![notes[0].iter().copied().step_by(3).collect(), Vec::new()];
        let mut visited = Vec::new();
        for_each_in_batch_order(&sparse, batch.len(), range_of, |&p| p, |p| visited.push(p));
        assert_eq!(visited, sparse[0]);
    }
}
