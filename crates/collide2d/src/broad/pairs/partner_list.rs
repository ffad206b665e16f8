//! A short list of proxy slots stored inline, spilling to the heap only when long.

/// An unordered list of slots: the partners of one proxy, up to `N` of them stored inline.
///
/// **Invariant:** when `len <= N` the items are `inline[..len]` and `spill` is empty;
/// otherwise all items are in `spill`.
#[derive(Clone, Debug)]
pub(crate) struct SlotList<const N: usize> {
    len: u32,
    inline: [u32; N],
    spill: Vec<u32>,
}

impl<const N: usize> Default for SlotList<N> {
    fn default() -> Self {
        SlotList {
            len: 0,
            inline: [0; N],
            spill: Vec::new(),
        }
    }
}

/// The partners whose exact boxes overlap a proxy's: typical scenes have one to four.
pub(crate) type PartnerList = SlotList<5>;

/// The partners whose fat boxes overlap a proxy's (the tree keeps a flag in each entry's top
/// bit, see `tree_partners.rs`): usually more than exact partners (a third
/// of the proxies in a crowd of steadily moving shapes have six to nine). Nine fill the 64 bytes
/// of one cache line, and the alignment keeps each list in one line wherever the table lies.
#[derive(Clone, Debug, Default)]
#[repr(align(64))]
pub(crate) struct FatPartnerList(SlotList<9>);

impl std::ops::Deref for FatPartnerList {
    type Target = SlotList<9>;
    #[inline]
    fn deref(&self) -> &SlotList<9> {
        &self.0
    }
}

impl std::ops::DerefMut for FatPartnerList {
    #[inline]
    fn deref_mut(&mut self) -> &mut SlotList<9> {
        &mut self.0
    }
}

// A fat partner list is one cache line.
const _: () = assert!(std::mem::size_of::<FatPartnerList>() == 64);
const _: () = assert!(std::mem::align_of::<FatPartnerList>() == 64);

/// Read access to the items of either kind of list, for checks shared by both.
pub(crate) trait Slots {
    /// The items.
    fn slots(&self) -> &[u32];
}

impl<const N: usize> Slots for SlotList<N> {
    fn slots(&self) -> &[u32] {
        self.as_slice()
    }
}

impl<const N: usize> SlotList<N> {
    /// The items.
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        if self.len as usize <= N {
            &self.inline[..self.len as usize]
        } else {
            &self.spill
        }
    }

    /// The items, to change in place.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u32] {
        if self.len as usize <= N {
            &mut self.inline[..self.len as usize]
        } else {
            &mut self.spill
        }
    }

    /// The number of items.
    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Appends an item.
    #[inline]
    pub fn push(&mut self, value: u32) {
        let len = self.len as usize;
        if len < N {
            self.inline[len] = value;
        } else {
            if len == N {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(value);
        }
        self.len += 1;
    }

    /// Removes the item at `position` (the last item takes its place).
    #[inline]
    pub fn swap_remove(&mut self, position: usize) {
        let len = self.len as usize;
        if len <= N {
            self.inline[position] = self.inline[len - 1];
        } else {
            self.spill.swap_remove(position);
            if len - 1 == N {
                self.inline.copy_from_slice(&self.spill);
                self.spill.clear();
            }
        }
        self.len -= 1;
    }

    /// Removes one occurrence of `value`, if present.
    #[inline]
    pub fn remove_value(&mut self, value: u32) {
        if let Some(position) = self.as_slice().iter().position(|&item| item == value) {
            self.swap_remove(position);
        }
    }

    /// Removes every item, keeping any heap capacity.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    /// Moves the items out into `out` (cleared first) and empties the list.
    pub fn take_into(&mut self, out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(self.as_slice());
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_past_inline_capacity_and_shrinks_back() {
        let mut list = PartnerList::default();
        for value in 0..8 {
            list.push(value);
        }
        assert_eq!(list.as_slice(), &[0, 1, 2, 3, 4, 5, 6, 7]);
        list.remove_value(2);
        list.remove_value(6);
        list.remove_value(42);
        let mut items = list.as_slice().to_vec();
        items.sort();
        assert_eq!(items, vec![0, 1, 3, 4, 5, 7]);
        list.remove_value(0);
        let mut items = list.as_slice().to_vec();
        items.sort();
        assert_eq!(items, vec![1, 3, 4, 5, 7]);
        list.push(9);
        list.remove_value(9);
        list.clear();
        assert!(list.len() == 0);
        assert!(list.as_slice().is_empty());
    }
}
