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

    /// The handle as one integer, `generation << 32 | index`: for keeping handles in plain
    /// integer arrays (e.g. in bindings to other languages). [`from_bits`](Self::from_bits)
    /// gives the handle back; a made-up number is a handle like any other, stale in a world
    /// that never gave it out.
    ///
    /// ```
    /// use collide2d::{shape::{Circle, Shape}, world::{Collider, ColliderHandle, World}};
    /// let mut world = World::new();
    /// let ball = world.insert(Collider::new(Shape::from(Circle::with_radius(0.5)?)))?;
    /// assert_eq!(ColliderHandle::from_bits(ball.to_bits()), ball);
    /// assert!(!world.contains(ColliderHandle::from_bits(ball.to_bits() + (1 << 32))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bits(self) -> u64 {
        self.to_key()
    }

    /// The handle that [`to_bits`](Self::to_bits) packed into `bits`.
    pub fn from_bits(bits: u64) -> ColliderHandle {
        ColliderHandle::from_key(bits)
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
