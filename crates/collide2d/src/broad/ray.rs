//! Rays against boxes: the entry distance every broad phase orders its ray hits by.

use std::cmp::Ordering;

use crate::broad::{BroadPhaseError, ProxyId};
use crate::math::Vec2;
use crate::shape::Aabb;

/// One box reached by a broad-phase ray cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProxyRayHit {
    /// The proxy whose box the ray entered.
    pub id: ProxyId,
    /// The user key stored with the proxy.
    pub key: u64,
    /// Distance along the (normalised) direction from the origin to where the ray enters the
    /// box grown by a few ulps (see [`ray_entry_distance`]); 0 when the origin is inside.
    pub distance: f32,
}

/// What a ray-cast callback asks the broad phase to do next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayControl {
    /// Keep visiting boxes up to the current maximum distance.
    Continue,
    /// Keep visiting, but only boxes entered at or before this distance (an exact shape hit was
    /// found there, so nothing farther can matter). A larger value than the current limit is ignored.
    Clip(f32),
    /// Stop the cast now.
    Stop,
}

/// A validated ray: finite origin, unit direction, maximum distance `>= 0` (may be infinite).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RaySegment {
    pub origin: Vec2,
    pub direction: Vec2,
    pub inverse_direction: Vec2,
    pub max_distance: f32,
    /// The origin's largest coordinate, for the padding of [`RaySegment::entry_distance`].
    origin_magnitude: f32,
}

/// Boxes are grown by this many ulps of the largest coordinate involved before a ray is tested
/// against them (see [`ray_entry_distance`]).
pub const RAY_PADDING: f32 = 8.0;

impl RaySegment {
    /// Validates and normalises the caller's ray.
    pub fn new(
        origin: Vec2,
        direction: Vec2,
        max_distance: f32,
    ) -> Result<RaySegment, BroadPhaseError> {
        if !origin.is_finite() || max_distance.is_nan() || max_distance < 0.0 {
            return Err(BroadPhaseError::InvalidRay);
        }
        let direction = crate::math::try_unit(direction).ok_or(BroadPhaseError::InvalidRay)?;
        Ok(RaySegment {
            origin,
            direction,
            inverse_direction: Vec2::ONE / direction,
            max_distance,
            origin_magnitude: origin.abs().max_element(),
        })
    }

    /// Distance at which the ray enters `aabb`, grown by [`RAY_PADDING`] ulps of the largest
    /// coordinate involved (the origin's or the box's), if it does so within
    /// `[0, max_distance]`.
    ///
    /// Slab test (Kay and Kajiya 1986; Ericson, *Real-Time Collision Detection*, §5.3.3). The
    /// growth keeps every box an exact shape test can hit: such a test moves the ray into the
    /// shape's frame and rounds at the scale of the origin, which far from the shape is much
    /// coarser than the box. The result only grows when the box shrinks (a smaller box has no
    /// larger coordinates, so it grows no more), so a box's entry distance is a lower bound
    /// for every box it contains, which the tree's best-first search relies on.
    #[inline]
    pub fn entry_distance(&self, aabb: &Aabb, max_distance: f32) -> Option<f32> {
        let magnitude = aabb
            .min
            .abs()
            .max(aabb.max.abs())
            .max_element()
            .max(self.origin_magnitude);
        let pad = Vec2::splat(magnitude * (RAY_PADDING * f32::EPSILON));
        let (low, high) = (aabb.min - pad, aabb.max + pad);
        let mut enter = 0.0f32;
        let mut exit = max_distance;
        for axis in 0..2 {
            let origin = self.origin[axis];
            if self.direction[axis] == 0.0 {
                if origin < low[axis] || origin > high[axis] {
                    return None;
                }
                continue;
            }
            let inverse = self.inverse_direction[axis];
            let to_min = (low[axis] - origin) * inverse;
            let to_max = (high[axis] - origin) * inverse;
            let (near, far) = if to_min <= to_max {
                (to_min, to_max)
            } else {
                (to_max, to_min)
            };
            enter = enter.max(near);
            exit = exit.min(far);
            if enter > exit {
                return None;
            }
        }
        Some(enter)
    }
}

/// Distance at which the ray from `origin` along `direction` (normalised here) enters `aabb`,
/// if within `[0, max_distance]`; 0 when `origin` is inside. `None` also for an invalid ray.
///
/// The box is first grown on every side by [`RAY_PADDING`] ulps of the largest coordinate of
/// the origin and the box (`8 · f32::EPSILON · that`), so that no box is left out whose shape
/// an exact ray test, which rounds at the scale of the origin, can hit.
///
/// This is exactly the number every broad phase reports in [`ProxyRayHit::distance`].
pub fn ray_entry_distance(
    origin: Vec2,
    direction: Vec2,
    max_distance: f32,
    aabb: Aabb,
) -> Option<f32> {
    let ray = RaySegment::new(origin, direction, max_distance).ok()?;
    ray.entry_distance(&aabb, max_distance)
}

/// A heap entry ordering ray candidates by distance, then by index (for a deterministic order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RayCandidate {
    pub distance: f32,
    pub index: u32,
}

impl Eq for RayCandidate {}

impl Ord for RayCandidate {
    /// Reversed, so that `BinaryHeap` pops the nearest candidate first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .distance
            .total_cmp(&self.distance)
            .then_with(|| other.index.cmp(&self.index))
    }
}

impl PartialOrd for RayCandidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aabb(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb {
            min: Vec2::new(x0, y0),
            max: Vec2::new(x1, y1),
        }
    }

    #[test]
    fn entry_distance_cases() {
        let unit = aabb(1.0, -1.0, 3.0, 1.0);
        let cases = [
            // (origin, direction, max, expected)
            (Vec2::ZERO, Vec2::X, 10.0, Some(1.0)),
            (Vec2::ZERO, Vec2::new(5.0, 0.0), 10.0, Some(1.0)),
            (Vec2::ZERO, Vec2::X, 0.5, None),
            (Vec2::ZERO, Vec2::NEG_X, 10.0, None),
            (Vec2::new(2.0, 0.0), Vec2::X, 10.0, Some(0.0)),
            (Vec2::new(0.0, 1.0), Vec2::X, 10.0, Some(1.0)), // grazes the top edge
            (Vec2::new(0.0, 1.5), Vec2::X, 10.0, None),
            (Vec2::new(2.0, 5.0), Vec2::NEG_Y, f32::INFINITY, Some(4.0)),
        ];
        for (origin, direction, max, expected) in cases {
            // The box is grown by 8 ulps of 3 (its largest coordinate): entries come a few
            // 1e-6 early.
            let found = ray_entry_distance(origin, direction, max, unit);
            assert_eq!(
                found.is_some(),
                expected.is_some(),
                "origin {origin} max {max}"
            );
            if let (Some(found), Some(expected)) = (found, expected) {
                let early = expected - found;
                assert!(
                    (0.0..=1e-5).contains(&early),
                    "origin {origin} direction {direction} max {max}: {found}"
                );
            }
        }
    }

    #[test]
    fn invalid_rays_are_rejected() {
        assert!(RaySegment::new(Vec2::ZERO, Vec2::ZERO, 1.0).is_err());
        assert!(RaySegment::new(Vec2::ZERO, Vec2::new(f32::NAN, 1.0), 1.0).is_err());
        assert!(RaySegment::new(Vec2::new(f32::INFINITY, 0.0), Vec2::X, 1.0).is_err());
        assert!(RaySegment::new(Vec2::ZERO, Vec2::X, -1.0).is_err());
        assert!(RaySegment::new(Vec2::ZERO, Vec2::X, f32::NAN).is_err());
        assert!(RaySegment::new(Vec2::ZERO, Vec2::X, f32::INFINITY).is_ok());
    }

    #[test]
    fn candidates_pop_nearest_first() {
        let mut heap = std::collections::BinaryHeap::new();
        for (distance, index) in [(3.0, 0), (1.0, 5), (1.0, 2), (2.0, 1)] {
            heap.push(RayCandidate { distance, index });
        }
        let order: Vec<u32> = std::iter::from_fn(|| heap.pop().map(|c| c.index)).collect();
        assert_eq!(order, vec![2, 5, 1, 0]);
    }
}
