//! Layer ids and sets of layers: the names a tile map and a world share (the [`Layers`]
//! matrix of which layers collide lives in the world).
//!
//! [`Layers`]: crate::world::Layers

/// Most layers a world can have.
pub const MAX_LAYERS: usize = 32;

/// A layer, by its index in [`Layers`](crate::world::Layers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LayerId(pub(crate) u8);

impl LayerId {
    /// The layer every world starts with, named `"default"`.
    pub const DEFAULT: LayerId = LayerId(0);

    /// The layer at `index`, or `None` for an index of [`MAX_LAYERS`] or more. A world refuses
    /// an id that is not one of its layers with
    /// [`WorldError::InvalidLayer`](crate::world::WorldError::InvalidLayer).
    ///
    /// ```
    /// use collide2d::LayerId;
    /// assert_eq!(LayerId::new(0), Some(LayerId::DEFAULT));
    /// assert_eq!(LayerId::new(3).map(LayerId::index), Some(3));
    /// assert_eq!(LayerId::new(32), None);
    /// ```
    pub const fn new(index: u8) -> Option<LayerId> {
        if (index as usize) < MAX_LAYERS {
            Some(LayerId(index))
        } else {
            None
        }
    }

    /// The layer's index (0 to 31).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A set of layers, for query filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LayerMask(pub u32);

impl LayerMask {
    /// Every layer.
    pub const ALL: LayerMask = LayerMask(u32::MAX);
    /// No layer.
    pub const NONE: LayerMask = LayerMask(0);

    /// Whether `layer` is in the set.
    pub fn contains(self, layer: LayerId) -> bool {
        self.0 & bit(layer) != 0
    }

    /// The set with `layer` added.
    pub fn with(self, layer: LayerId) -> LayerMask {
        LayerMask(self.0 | bit(layer))
    }

    /// The set of just `layer`.
    pub fn only(layer: LayerId) -> LayerMask {
        LayerMask(bit(layer))
    }
}

impl Default for LayerMask {
    fn default() -> Self {
        LayerMask::ALL
    }
}

/// `layer`'s bit in a mask (none for an id beyond [`MAX_LAYERS`], which only a hand-edited
/// serialised id can hold).
#[inline]
const fn bit(layer: LayerId) -> u32 {
    match 1u32.checked_shl(layer.0 as u32) {
        Some(bit) => bit,
        None => 0,
    }
}
