//! What `World::update` reports.

use super::handle::ColliderHandle;
use crate::query::Manifold;

/// A change, or continuation, of contact between two colliders, with `a < b`.
///
/// Sensor pairs carry no manifold. Every `Begin` is followed by exactly one `End`, whatever
/// ends the contact: moving apart, removal, disabling, or a layer or filter change.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CollisionEvent {
    /// `a` and `b` started touching this update.
    Begin {
        /// The collider with the smaller handle.
        a: ColliderHandle,
        /// The other collider.
        b: ColliderHandle,
        /// The contact (normal from `a` to `b`); `None` for sensor pairs.
        manifold: Option<Manifold>,
    },
    /// `a` and `b` touched at the previous update and still do.
    Stay {
        /// The collider with the smaller handle.
        a: ColliderHandle,
        /// The other collider.
        b: ColliderHandle,
        /// The contact now; `None` for sensor pairs.
        manifold: Option<Manifold>,
    },
    /// `a` and `b` touched at the previous update and no longer do.
    End {
        /// The collider with the smaller handle (possibly removed by now).
        a: ColliderHandle,
        /// The other collider (possibly removed by now).
        b: ColliderHandle,
    },
}

impl CollisionEvent {
    /// The two colliders.
    pub fn pair(&self) -> (ColliderHandle, ColliderHandle) {
        match *self {
            CollisionEvent::Begin { a, b, .. }
            | CollisionEvent::Stay { a, b, .. }
            | CollisionEvent::End { a, b } => (a, b),
        }
    }

    /// The manifold, for `Begin` and `Stay` of solid pairs.
    pub fn manifold(&self) -> Option<&Manifold> {
        match self {
            CollisionEvent::Begin { manifold, .. } | CollisionEvent::Stay { manifold, .. } => {
                manifold.as_ref()
            }
            CollisionEvent::End { .. } => None,
        }
    }
}
