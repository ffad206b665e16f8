//! Collision groups: a category and mask pair deciding which colliders may touch.

/// Which group a collider belongs to and which groups it touches.
///
/// Two colliders `a` and `b` may touch when `a.mask & b.category != 0` and
/// `b.mask & a.category != 0` (the rule is symmetric). It applies together with the layer matrix
/// (see [`Layers`](super::Layers)): a pair must pass both.
///
/// ```
/// use collide2d::world::CollisionGroups;
/// let player = CollisionGroups::new(0b01, 0b10);
/// let enemy = CollisionGroups::new(0b10, 0b11);
/// assert!(player.interacts_with(enemy));
/// assert!(!player.interacts_with(player));
/// assert!(CollisionGroups::ALL.interacts_with(CollisionGroups::default()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct CollisionGroups {
    /// The groups this collider belongs to (bits).
    pub category: u32,
    /// The groups this collider touches (bits).
    pub mask: u32,
}

impl CollisionGroups {
    /// In group 1, touching every group: the default of every collider.
    pub const ALL: CollisionGroups = CollisionGroups {
        category: 1,
        mask: u32::MAX,
    };

    /// Groups with these `category` and `mask` bits.
    pub const fn new(category: u32, mask: u32) -> CollisionGroups {
        CollisionGroups { category, mask }
    }

    /// Whether a collider with these groups may touch one with `other`: each one's mask
    /// meets the other's category.
    #[inline]
    pub const fn interacts_with(self, other: CollisionGroups) -> bool {
        self.mask & other.category != 0 && other.mask & self.category != 0
    }
}

impl Default for CollisionGroups {
    fn default() -> Self {
        CollisionGroups::ALL
    }
}

const _: () = assert!(std::mem::size_of::<CollisionGroups>() == 8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_is_symmetric_and_needs_both_directions() {
        let a = CollisionGroups::new(0b001, 0b010);
        let b = CollisionGroups::new(0b010, 0b100);
        assert!(!a.interacts_with(b) && !b.interacts_with(a));
        let c = CollisionGroups::new(0b010, 0b001);
        assert!(a.interacts_with(c) && c.interacts_with(a));
        assert!(!CollisionGroups::new(0, u32::MAX).interacts_with(CollisionGroups::ALL));
    }
}
