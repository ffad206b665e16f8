//! The handle of a box stored in a broad phase.

use std::fmt;

/// A small copyable handle to a proxy (one box) in a broad phase.
///
/// The `index` names a slot that is reused after removal; the `generation` counts how often the
/// slot was reused, so an id kept after [`remove`](crate::broad::BroadPhase::remove) is detected
/// as stale instead of silently naming the slot's next occupant. Ids order by index first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    /// Builds an id from its parts (useful for tests and serialisation; broad phases hand out ids).
    #[inline]
    pub const fn new(index: u32, generation: u32) -> ProxyId {
        ProxyId { index, generation }
    }

    /// The slot index, dense from zero: fine for indexing a side table.
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many times the slot had been freed when this id was handed out.
    #[inline]
    pub const fn generation(self) -> u32 {
        self.generation
    }
}

impl fmt::Display for ProxyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "proxy {}v{}", self.index, self.generation)
    }
}
