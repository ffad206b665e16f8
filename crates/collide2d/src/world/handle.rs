//! Generational collider handles.

/// Names a collider in a [`World`](crate::World).
///
/// A handle stays valid until its collider is removed; after that every call with it returns
/// [`WorldError::StaleHandle`](crate::world::WorldError::StaleHandle), and it never names a
/// collider inserted later (the slot's generation changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColliderHandle {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl ColliderHandle {
    /// The slot index (reused after removal, with a new generation).
    pub fn index(self) -> u32 {
        self.index
    }

    /// The generation of the slot when this handle was made.
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// The handle packed into a broad-phase key.
    pub(crate) fn to_key(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }

    /// The handle from a broad-phase key.
    pub(crate) fn from_key(key: u64) -> ColliderHandle {
        ColliderHandle {
            index: key as u32,
            generation: (key >> 32) as u32,
        }
    }
}
