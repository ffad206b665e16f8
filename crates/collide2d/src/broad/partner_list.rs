//! A short list of proxy slots stored inline, spilling to the heap only when long.

/// How many partners fit without a heap allocation (typical scenes have one to four).
const INLINE_CAPACITY: usize = 5;

/// An unordered list of slots: the partners of one proxy.
///
/// **Invariant:** when `len <= INLINE_CAPACITY` the items are `inline[..len]` and `spill` is
/// empty; otherwise all items are in `spill`.
#[derive(Clone, Debug, Default)]
pub(crate) struct PartnerList {
    len: u32,
    inline: [u32; INLINE_CAPACITY],
    spill: Vec<u32>,
}

impl PartnerList {
    /// The items.
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        if self.len as usize <= INLINE_CAPACITY {
            &self.inline[..self.len as usize]
        } else {
            &self.spill
        }
    }

    /// The number of items.
    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends an item.
    #[inline]
    pub fn push(&mut self, value: u32) {
        let len = self.len as usize;
        if len < INLINE_CAPACITY {
            self.inline[len] = value;
        } else {
            if len == INLINE_CAPACITY {
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
        if len <= INLINE_CAPACITY {
            self.inline[position] = self.inline[len - 1];
        } else {
            self.spill.swap_remove(position);
            if len - 1 == INLINE_CAPACITY {
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
        assert!(list.is_empty());
        assert!(list.as_slice().is_empty());
    }
}
