//! Overlapping pairs and the changes reported by incremental pair finding.

use crate::broad::ProxyId;

/// An unordered pair of proxies whose boxes overlap, stored with the lower id first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    lower: ProxyId,
    higher: ProxyId,
}

impl Pair {
    /// The pair of `first` and `second` in canonical order (lower id first).
    #[inline]
    pub fn new(first: ProxyId, second: ProxyId) -> Pair {
        if first <= second {
            Pair {
                lower: first,
                higher: second,
            }
        } else {
            Pair {
                lower: second,
                higher: first,
            }
        }
    }

    /// The proxy with the lower id.
    #[inline]
    pub fn lower(self) -> ProxyId {
        self.lower
    }

    /// The proxy with the higher id.
    #[inline]
    pub fn higher(self) -> ProxyId {
        self.higher
    }
}

/// Pairs that began and ended overlapping between two calls of
/// [`update_pairs`](crate::broad::BroadPhase::update_pairs), each list sorted by [`Pair`] order.
///
/// A pair that ended because a proxy was removed names the removed (now stale) id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairChanges {
    /// Pairs overlapping now that did not overlap at the previous call.
    pub began: Vec<Pair>,
    /// Pairs that overlapped at the previous call and do not any more.
    pub ended: Vec<Pair>,
}

impl PairChanges {
    /// Whether nothing began or ended.
    pub fn is_empty(&self) -> bool {
        self.began.is_empty() && self.ended.is_empty()
    }
}
