//! What `World::update` reports.

use super::handle::ColliderHandle;
use crate::query::Manifold;
use std::num::NonZeroU32;

/// A time of impact: a fraction of the step in `[0, 1]` (0 at the previous update's
/// placements, 1 at the current ones). Four bytes with a spare value, so that `Begin` stays
/// as small as before and its variant is read as cheaply.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TimeOfImpact(NonZeroU32);

impl TimeOfImpact {
    /// The time `t`, clamped to `[0, 1]` (NaN is taken as 0).
    pub fn new(t: f32) -> TimeOfImpact {
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        // The bits of a number in [0, 1] are at most 0x3f80_0000: one more is never zero.
        TimeOfImpact(NonZeroU32::MIN.saturating_add(t.to_bits()))
    }

    /// The time as a fraction of the step.
    pub fn get(self) -> f32 {
        f32::from_bits(self.0.get() - 1)
    }
}

impl std::fmt::Debug for TimeOfImpact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TimeOfImpact {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f32(self.get())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TimeOfImpact {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let t = f32::deserialize(deserializer)?;
        if !(0.0..=1.0).contains(&t) {
            return Err(serde::de::Error::custom("time of impact outside [0, 1]"));
        }
        Ok(TimeOfImpact::new(t))
    }
}

/// Why a contact ended (see [`CollisionEvent::End`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EndReason {
    /// The two no longer touch by the world's rules: their shapes moved (or were reshaped)
    /// apart, or a one-way collider let the other pass.
    #[default]
    Separated,
    /// One of the two was removed ([`World::remove`](super::World::remove)), also when it
    /// was disabled or filtered out first since the last update: the `End` says it is gone.
    Removed,
    /// One of the two was disabled ([`World::set_enabled`](super::World::set_enabled)).
    Disabled,
    /// The pair may no longer touch: a layer, layer-matrix or groups change filters it out.
    Filtered,
    /// One of the two became a sensor or stopped being one while they touched
    /// ([`World::set_sensor`](super::World::set_sensor)), so the pair changed kind: it ends as
    /// the kind it was (the `End`'s `sensor` flag) and, in the same update, right after this
    /// `End`, begins as the other kind.
    SensorChanged,
}

/// A change, or continuation, of contact between two colliders, with `a < b`.
///
/// Sensor pairs carry no manifold. Every `Begin` is followed by exactly one `End`, whatever
/// ends the contact: moving apart, removal, disabling, a layer or filter change, or one of the
/// two becoming a sensor or solid (a `Begin` and its `End` always agree on `sensor`); the `End`
/// says which ([`EndReason`]), and carries what a game needs to act on it once a collider is
/// gone: whether the pair was a sensor pair and both colliders' user data.
///
/// `Begin` and `End` carry both colliders' user data as it was when the event was written (an
/// `End` caused by a removal keeps the removed collider's). Use [`CollisionEvent::involves`]
/// and [`CollisionEvent::other`] to read an event from one collider's side.
///
/// A `Begin` found by a continuous collider's sweep (see
/// [`Collider::with_continuous`](super::Collider::with_continuous)) carries its time of
/// impact, and its manifold is the contact at that time: one point midway between the
/// surfaces, no depth, the normal there (sensor pairs: no manifold, as always). The next
/// update re-tests the pair and reports the contact at the end of its step. When the pair
/// touched during the step but is apart at its end (a bullet through a thin wall), the `Begin`
/// comes in this update and the `End` in the next one, so that an update names such a pair
/// once. A pair that already touched at the previous update and that the sweep carries further
/// into each other (a ball rolling along a level chain's floor into its wall) but leaves apart
/// at the end of the step reports a `Stay` with the contact at the time of impact, then its
/// `End` in the next update.
///
/// An update names each pair at most once, except a pair that changed kind while touching
/// (one collider became a sensor or solid: [`EndReason::SensorChanged`]): its `End`, then its
/// `Begin`, one right after the other.
///
/// `Debug` leaves out what has its plain value (`time_of_impact` when `None`, `user_data` when
/// both are 0, an `End`'s `reason` when `Separated` and `sensor` when `false`), so that logs of
/// worlds that use none of these read as they always did.
#[derive(Clone, Copy, PartialEq)]
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
        /// When a continuous collider's sweep first touched, as a fraction of the step in
        /// `[0, 1]` (0 at the previous update's placements, 1 at the current ones); `None` for
        /// contacts found at the end of the step only.
        #[cfg_attr(feature = "serde", serde(default))]
        time_of_impact: Option<TimeOfImpact>,
        /// `a`'s and `b`'s user data.
        #[cfg_attr(feature = "serde", serde(default))]
        user_data: [u64; 2],
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
        /// Why the contact ended.
        #[cfg_attr(feature = "serde", serde(default))]
        reason: EndReason,
        /// Whether the pair was a sensor pair while it touched.
        #[cfg_attr(feature = "serde", serde(default))]
        sensor: bool,
        /// `a`'s and `b`'s user data (a removed collider's as it was when removed).
        #[cfg_attr(feature = "serde", serde(default))]
        user_data: [u64; 2],
    },
}

// The touching pairs are kept as events, copied once per update: what a `Begin` carries beside
// its manifold sets the size of every stored pair.
const _: () = assert!(std::mem::size_of::<CollisionEvent>() == 96);

impl CollisionEvent {
    /// The two colliders.
    pub fn pair(&self) -> (ColliderHandle, ColliderHandle) {
        match *self {
            CollisionEvent::Begin { a, b, .. }
            | CollisionEvent::Stay { a, b, .. }
            | CollisionEvent::End { a, b, .. } => (a, b),
        }
    }

    /// Whether `handle` is one of the two colliders.
    pub fn involves(&self, handle: ColliderHandle) -> bool {
        let (a, b) = self.pair();
        a == handle || b == handle
    }

    /// The collider paired with `handle`, or `None` when `handle` is not in the event.
    pub fn other(&self, handle: ColliderHandle) -> Option<ColliderHandle> {
        match self.pair() {
            (a, b) if a == handle => Some(b),
            (a, b) if b == handle => Some(a),
            _ => None,
        }
    }

    /// Whether the pair is a sensor pair (for `Begin` and `Stay`: it has no manifold).
    pub fn is_sensor(&self) -> bool {
        match *self {
            CollisionEvent::Begin { manifold, .. } | CollisionEvent::Stay { manifold, .. } => {
                manifold.is_none()
            }
            CollisionEvent::End { sensor, .. } => sensor,
        }
    }

    /// `a`'s and `b`'s user data, carried by `Begin` and `End` (`None` for `Stay`: read the
    /// live colliders).
    pub fn user_data(&self) -> Option<[u64; 2]> {
        match *self {
            CollisionEvent::Begin { user_data, .. } | CollisionEvent::End { user_data, .. } => {
                Some(user_data)
            }
            CollisionEvent::Stay { .. } => None,
        }
    }

    /// The user data of `handle`'s partner in a `Begin` or `End` (`None` for `Stay` or when
    /// `handle` is not in the event).
    pub fn other_user_data(&self, handle: ColliderHandle) -> Option<u64> {
        let [data_a, data_b] = self.user_data()?;
        match self.pair() {
            (a, _) if a == handle => Some(data_b),
            (_, b) if b == handle => Some(data_a),
            _ => None,
        }
    }

    /// Why an `End` happened (`None` for `Begin` and `Stay`).
    pub fn end_reason(&self) -> Option<EndReason> {
        match *self {
            CollisionEvent::End { reason, .. } => Some(reason),
            _ => None,
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

    /// The time of impact of a `Begin` found by a continuous sweep.
    pub fn time_of_impact(&self) -> Option<f32> {
        match *self {
            CollisionEvent::Begin { time_of_impact, .. } => time_of_impact.map(TimeOfImpact::get),
            _ => None,
        }
    }
}

impl std::fmt::Debug for CollisionEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CollisionEvent::Begin {
                a,
                b,
                manifold,
                time_of_impact,
                user_data,
            } => {
                let mut out = f.debug_struct("Begin");
                out.field("a", a).field("b", b).field("manifold", manifold);
                if let Some(time) = time_of_impact {
                    out.field("time_of_impact", time);
                }
                if *user_data != [0, 0] {
                    out.field("user_data", user_data);
                }
                out.finish()
            }
            CollisionEvent::Stay { a, b, manifold } => f
                .debug_struct("Stay")
                .field("a", a)
                .field("b", b)
                .field("manifold", manifold)
                .finish(),
            CollisionEvent::End {
                a,
                b,
                reason,
                sensor,
                user_data,
            } => {
                let mut out = f.debug_struct("End");
                out.field("a", a).field("b", b);
                if *reason != EndReason::Separated {
                    out.field("reason", reason);
                }
                if *sensor {
                    out.field("sensor", sensor);
                }
                if *user_data != [0, 0] {
                    out.field("user_data", user_data);
                }
                out.finish()
            }
        }
    }
}
