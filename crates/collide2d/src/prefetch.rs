//! A hint to the processor that an item will be read soon.
//!
//! A loop that visits items scattered through large arrays (the incremental pair refresh, which
//! reads each moved proxy's candidate list and then the candidates' boxes) waits on memory far
//! more than it computes. Asking for the items of a later iteration a few steps ahead lets those
//! loads overlap the current work. A batch loop does the same by asking for every item of the
//! batch in a short first pass ([`prefetch_item`]), then working through them.

/// Asks the processor to bring `items[index]` into the cache: the cache lines of its first and
/// last byte, which are all of it for items up to a line long. Out-of-range indices are ignored.
/// Has no effect on anything but timing; a no-op off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T], index: usize) {
    if let Some(item) = items.get(index) {
        let first = (item as *const T).cast::<u8>();
        prefetch_address(first);
        if std::mem::size_of::<T>() > 1 {
            prefetch_address(first.wrapping_add(std::mem::size_of::<T>() - 1));
        }
    }
}

/// Asks the processor to bring `item` into the cache, as [`prefetch`] does for an item of a
/// slice. For a loop that first asks for everything a batch will read, then does the work.
#[inline(always)]
pub(crate) fn prefetch_item<T>(item: &T) {
    prefetch(std::slice::from_ref(item), 0);
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code)]
fn prefetch_address(address: *const u8) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: `_mm_prefetch` is an `unsafe fn` only because it is declared with
    // `#[target_feature(enable = "sse")]`, and SSE is part of every x86-64 processor. The
    // instruction reads nothing into the program, writes nothing and cannot fault, whatever
    // the address; here it is always inside a live item.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn prefetch_address(_address: *const u8) {}

#[cfg(test)]
mod tests {
    use super::prefetch;

    #[test]
    fn prefetching_any_index_changes_nothing() {
        let items: Vec<u64> = (0..1000).collect();
        for index in [0, 1, 500, 999, 1000, usize::MAX] {
            prefetch(&items, index);
        }
        prefetch::<u64>(&[], 0);
        assert!(items.iter().enumerate().all(|(i, &v)| v == i as u64));
    }
}
