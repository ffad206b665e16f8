//! Large per-proxy and per-collider arrays backed by huge (2 MiB) memory pages where the
//! system allows it.
//!
//! At a million proxies the broad phases keep well over a hundred megabytes of per-slot and
//! per-node arrays, and the world as much again in its collider slots and touching pairs; an
//! incremental update reads them at scattered places. With ordinary
//! 4 KiB pages nearly every such read also misses the processor's address-translation cache
//! (which covers a few megabytes), and in a virtual machine each of those misses walks two sets
//! of page tables. Asking Linux to back the arrays with 2 MiB pages removes most of those
//! misses: in the frame benchmark a million-box tree frame runs about 9 % faster, while a
//! hundred-thousand-box frame, whose arrays are mostly covered anyway, is unchanged; the
//! world's slots and touching pairs on huge pages take about 8 % more off its million-collider
//! update.
//!
//! The request is advice only. Where transparent huge pages are off, on other systems, or for
//! arrays under [`MIN_BYTES`], nothing happens; the arrays' contents and behaviour never depend
//! on it.

/// Arrays smaller than this are left alone: they hold at most one whole huge page.
pub(crate) const MIN_BYTES: usize = 4 << 20;

/// The size of a huge page, to which the advised range is trimmed.
const HUGE_PAGE: usize = 2 << 20;

/// Makes room in `items` for `additional` more items, as [`Vec::reserve`] does (at least
/// doubling the capacity), and when that takes a buffer of at least [`MIN_BYTES`], asks for
/// huge pages for it before anything is written there: the items are moved into a fresh buffer
/// rather than reallocated, since the system may move a large block's pages to its new place
/// as they are, and they would keep their small size.
pub(crate) fn reserve<T>(items: &mut Vec<T>, additional: usize) {
    if items.capacity() - items.len() >= additional {
        return;
    }
    let capacity = items
        .len()
        .checked_add(additional)
        .map(|needed| needed.max(items.capacity().saturating_mul(2)));
    let large = capacity.is_some_and(|capacity| {
        capacity.saturating_mul(std::mem::size_of::<T>()) >= MIN_BYTES
            && capacity <= isize::MAX as usize / std::mem::size_of::<T>().max(1)
    });
    match capacity {
        Some(capacity) if large => {
            let mut fresh = Vec::with_capacity(capacity);
            advise(&fresh);
            fresh.append(items);
            *items = fresh;
        }
        // Small, or more than can be held: `Vec::reserve`'s own growth (and its error).
        _ => items.reserve(additional),
    }
}

/// Grows `items` to `len` items, filling with `value` (no change when it is already as long),
/// through [`reserve`].
pub(crate) fn grow_to<T: Clone>(items: &mut Vec<T>, len: usize, value: T) {
    if items.len() < len {
        reserve(items, len - items.len());
        items.resize(len, value);
    }
}

/// Asks for huge pages for the whole buffer of `items` (its capacity, not only its length) when
/// it is at least [`MIN_BYTES`].
fn advise<T>(items: &Vec<T>) {
    let bytes = items.capacity().saturating_mul(std::mem::size_of::<T>());
    if bytes < MIN_BYTES {
        return;
    }
    let start = items.as_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        advise_range(first, end - first);
    }
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_range(address: usize, length: usize) {
    // SAFETY: `madvise` is an `unsafe fn` only because it is a foreign function. With
    // `MADV_HUGEPAGE` it changes how the kernel may back the pages of the range, never their
    // contents: it reads and writes no memory of the program. The range, a whole number of
    // 2 MiB pages (so of base pages too), lies inside the caller's live allocation. A failure
    // (a kernel without transparent huge pages) leaves everything as it was and is ignored.
    unsafe {
        libc::madvise(address as *mut libc::c_void, length, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_range(_address: usize, _length: usize) {}

#[cfg(test)]
mod tests {
    use super::{grow_to, reserve, MIN_BYTES};

    #[test]
    fn large_and_small_arrays_keep_their_contents_through_growth() {
        for count in [0usize, 1, 1000, MIN_BYTES / 8 + 12_345, 3 * MIN_BYTES / 8] {
            let mut items: Vec<u64> = (0..count as u64).collect();
            reserve(&mut items, count + 1);
            assert!(items.capacity() > 2 * count);
            assert!(items.iter().enumerate().all(|(i, &v)| v == i as u64));
            grow_to(&mut items, 2 * count + 7, 9);
            assert_eq!(items.len(), 2 * count + 7);
            assert!(items[..count]
                .iter()
                .enumerate()
                .all(|(i, &v)| v == i as u64));
            assert!(items[count..].iter().all(|&v| v == 9));
            // Growing to a shorter length changes nothing.
            grow_to(&mut items, count, 0);
            assert_eq!(items.len(), 2 * count + 7);
        }
    }

    /// The kernel's flags of the mapping holding `address`, from `/proc/self/smaps`.
    #[cfg(target_os = "linux")]
    fn mapping_flags(address: usize) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((start, end)) = range.split_once('-') {
                if let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                ) {
                    inside = (start..end).contains(&address);
                    continue;
                }
            }
            if inside {
                if let Some(flags) = line.strip_prefix("VmFlags:") {
                    return Some(flags.trim().to_string());
                }
            }
        }
        None
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_array_is_marked_for_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return; // A kernel without transparent huge pages refuses the advice.
        }
        let mut large: Vec<u8> = Vec::new();
        reserve(&mut large, 3 * MIN_BYTES);
        // The first whole huge page of the buffer ("hg": advised for huge pages).
        let inside = (large.as_ptr() as usize).next_multiple_of(super::HUGE_PAGE);
        let flags = mapping_flags(inside).expect("the buffer is mapped");
        assert!(flags.split_whitespace().any(|flag| flag == "hg"), "{flags}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_array_grown_an_item_at_a_time_is_marked_for_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return;
        }
        let mut items: Vec<u64> = Vec::new();
        for value in 0..(3 * MIN_BYTES / 8) as u64 {
            reserve(&mut items, 1);
            items.push(value);
        }
        assert!(items.iter().enumerate().all(|(i, &v)| v == i as u64));
        let inside = (items.as_ptr() as usize).next_multiple_of(super::HUGE_PAGE);
        let flags = mapping_flags(inside).expect("the buffer is mapped");
        assert!(flags.split_whitespace().any(|flag| flag == "hg"), "{flags}");
    }

    #[test]
    fn zero_sized_items_are_left_alone() {
        let mut items: Vec<()> = Vec::new();
        reserve(&mut items, 1 << 30);
        grow_to(&mut items, 10, ());
        assert_eq!(items.len(), 10);
    }
}
