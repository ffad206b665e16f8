//! Motion over a step, and closed-form sweeps for circles, half-planes and boxes.
//!
//! A [`Sweep`] moves a shape from `start` to `end` over normalised time `t ∈ [0, 1]`: the
//! position along a straight line and the angle linearly (the shortest way round is *not*
//! assumed: the shape turns by `turn` from its start rotation as given, so several turns per
//! step are possible). The rotation is about the shape's local `center` (usually its centroid), which
//! keeps that point on the straight line.
//!
//! The closed-form sweeps answer `None` unless every position, offset and size they are given
//! lies within `±4 ·` [`MAX_COORDINATE`](crate::shape::MAX_COORDINATE), the reach of any shape
//! at a valid transform (radii also `>= 0`): NaN, infinities and numbers whose squares
//! overflow `f32` never reach the arithmetic.

use crate::math::{Rot, Transform, Vec2};
use crate::shape::{Aabb, MAX_WORLD_COORDINATE};
use glam::Vec4;

/// Whether every number lies within ±`MAX_WORLD_COORDINATE` (NaN and infinities do not).
#[inline]
fn within_range<const N: usize>(numbers: [f32; N]) -> bool {
    numbers
        .iter()
        .all(|number| number.abs() <= MAX_WORLD_COORDINATE)
}

/// Whether every component of every point lies within ±`MAX_WORLD_COORDINATE`.
#[inline]
fn points_within_range<const N: usize>(points: [Vec2; N]) -> bool {
    points.iter().all(|point| within_range([point.x, point.y]))
}

/// A shape's motion over one step.
///
/// The rotation at `t = 0` is kept as given (cosine and sine), with the turn over the step in
/// radians beside it: a sweep that does not turn needs no trigonometry, and a turn may exceed
/// a half or a whole revolution.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sweep {
    /// The rotation centre in the shape's local frame (e.g. its centroid).
    pub local_center: Vec2,
    /// World position of the rotation centre at `t = 0`.
    pub center_start: Vec2,
    /// World position of the rotation centre at `t = 1`.
    pub center_end: Vec2,
    /// Rotation at `t = 0`.
    pub rotation_start: Rot,
    /// Turn over the whole step (radians, counter-clockwise; any amount).
    pub turn: f32,
}

impl Sweep {
    /// A shape that stays at `xf` for the whole step.
    pub fn fixed(xf: &Transform) -> Sweep {
        Sweep::linear(xf, Vec2::ZERO)
    }

    /// Motion from `start` to `end`, rotating about the local origin by the smallest angle.
    pub fn between(start: &Transform, end: &Transform) -> Sweep {
        let turn = if start.q == end.q {
            0.0
        } else {
            start.q.inv_mul(end.q).angle()
        };
        Sweep {
            local_center: Vec2::ZERO,
            center_start: start.p,
            center_end: end.p,
            rotation_start: start.q,
            turn,
        }
    }

    /// Straight-line motion by `delta` from `xf` without rotating.
    pub fn linear(xf: &Transform, delta: Vec2) -> Sweep {
        Sweep::spinning(xf, delta, 0.0)
    }

    /// Motion by `delta` while turning by `turn` radians (any amount) about the local origin.
    pub fn spinning(xf: &Transform, delta: Vec2, turn: f32) -> Sweep {
        Sweep {
            local_center: Vec2::ZERO,
            center_start: xf.p,
            center_end: xf.p + delta,
            rotation_start: xf.q,
            turn,
        }
    }

    /// The same motion rotating about `local_center` instead (same start and end placement
    /// of the rotation centre's path; the shape's placement at `t = 0` is unchanged).
    pub fn about(mut self, local_center: Vec2) -> Sweep {
        let start = self.transform_at(0.0);
        let end = self.transform_at(1.0);
        self.local_center = local_center;
        self.center_start = start.apply(local_center);
        self.center_end = end.apply(local_center);
        self
    }

    /// The placement at normalised time `t`.
    #[inline]
    pub fn transform_at(&self, t: f32) -> Transform {
        let center = self.center_start + (self.center_end - self.center_start) * t;
        let q = if self.turn == 0.0 {
            self.rotation_start
        } else {
            self.rotation_start.mul(Rot::from_angle(self.turn * t))
        };
        Transform {
            p: center - q.rotate(self.local_center),
            q,
        }
    }

    /// Displacement of the rotation centre over the whole step.
    #[inline]
    pub fn translation(&self) -> Vec2 {
        self.center_end - self.center_start
    }

    /// Total rotation over the step (radians).
    #[inline]
    pub fn rotation(&self) -> f32 {
        self.turn
    }

    /// Rotation at `t = 1`.
    #[inline]
    pub fn rotation_end(&self) -> Rot {
        self.transform_at(1.0).q
    }

    /// Whether every query accepts the sweep: finite, its centres and local centre within
    /// ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE), a start rotation of unit length (as
    /// [`Transform::is_valid`] asks) and a finite turn.
    pub fn is_valid(&self) -> bool {
        let limit = crate::shape::MAX_COORDINATE;
        // Two four-lane comparisons (NaN fails them): the positions within the limit and the
        // turn finite.
        let positions = Vec4::new(
            self.local_center.x,
            self.local_center.y,
            self.center_start.x,
            self.center_start.y,
        );
        let rest = Vec4::new(self.center_end.x, self.center_end.y, self.turn, 0.0);
        let in_range = positions.abs().cmple(Vec4::splat(limit))
            & rest.abs().cmple(Vec4::new(limit, limit, f32::MAX, limit));
        let start = Transform {
            p: Vec2::ZERO,
            q: self.rotation_start,
        };
        in_range.all() & start.is_valid()
    }

    /// Whether every number is finite.
    pub fn is_finite(&self) -> bool {
        self.local_center.is_finite()
            && self.center_start.is_finite()
            && self.center_end.is_finite()
            && self.rotation_start.c.is_finite()
            && self.rotation_start.s.is_finite()
            && self.turn.is_finite()
    }
}

/// When and with which normal a closed-form sweep first touches: [`sweep_circles`],
/// [`sweep_circle_segment`], [`sweep_aabbs`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SweepHit {
    /// Fraction of the step, in `[0, 1]`, at which the shapes first touch.
    pub t: f32,
    /// Unit normal from the moving shape to the other at that time.
    pub normal: Vec2,
}

/// When and where a circle first touches a half-plane ([`sweep_circle_half_plane`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HalfPlaneHit {
    /// Fraction of the step, in `[0, 1]`, at which the circle first touches.
    pub t: f32,
    /// The touching point on the half-plane's boundary (deepest point when already overlapping).
    pub point: Vec2,
}

/// First time `t ∈ [0, 1]` at which a circle moving from `start` to `end` touches a circle moving
/// from `other_start` to `other_end`, with the contact normal from the first to the second.
///
/// Circles already touching at `t = 0` report `t = 0`. Solves `|Δp + Δv t| = r₁ + r₂` for its
/// smaller root (Gomez, "Simple Intersection Tests for Games", 1999).
pub fn sweep_circles(
    start: Vec2,
    end: Vec2,
    radius: f32,
    other_start: Vec2,
    other_end: Vec2,
    other_radius: f32,
) -> Option<SweepHit> {
    if !(points_within_range([start, end, other_start, other_end])
        && within_range([radius, other_radius])
        && radius >= 0.0
        && other_radius >= 0.0)
    {
        return None;
    }
    let offset = other_start - start;
    let relative_motion = (other_end - other_start) - (end - start);
    let reach = radius + other_radius;
    let normal_at = |t: f32| {
        crate::math::try_unit(offset + relative_motion * t)
            .or_else(|| crate::math::try_unit(-relative_motion))
            .unwrap_or(Vec2::X)
    };
    if offset.length_squared() <= reach * reach {
        return Some(SweepHit {
            t: 0.0,
            normal: normal_at(0.0),
        });
    }
    let t = smallest_root_in_unit(relative_motion, offset, reach)?;
    Some(SweepHit {
        t,
        normal: normal_at(t),
    })
}

/// The smallest `t ∈ [0, 1]` with `|offset + motion t| = reach`, starting outside.
///
/// The quadratic's coefficients cancel: `|motion|²`, `offset · motion` and
/// `|offset|² − reach²` are each near `|offset|²·|motion|²` in the discriminant, so in `f32`
/// a ball 1e-2 across shot 1e3 at a post was placed up to 1e-2 off the contact. They are
/// formed in `f64`, where each product of two `f32` numbers is exact and the cancellation
/// leaves 29 more bits than `f32` holds.
fn smallest_root_in_unit(motion: Vec2, offset: Vec2, reach: f32) -> Option<f32> {
    let (motion, offset, reach) = (motion.as_dvec2(), offset.as_dvec2(), f64::from(reach));
    let a = motion.length_squared();
    if a == 0.0 {
        return None;
    }
    let half_b = offset.dot(motion);
    if half_b >= 0.0 {
        return None; // moving apart
    }
    let c = offset.length_squared() - reach * reach;
    let discriminant = half_b * half_b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    // Stable form of the smaller root: c / (−b/2 + √disc).
    let t = (c / (-half_b + discriminant.sqrt())).max(0.0) as f32;
    (t <= 1.0).then_some(t)
}

/// First time a circle moving from `start` to `end` touches the half-plane
/// `{ p : normal · p <= offset }` (unit `normal` pointing out of the solid side), and where.
///
/// A circle already overlapping the half-plane at `t = 0` reports `t = 0`.
pub fn sweep_circle_half_plane(
    start: Vec2,
    end: Vec2,
    radius: f32,
    normal: Vec2,
    offset: f32,
) -> Option<HalfPlaneHit> {
    if !(points_within_range([start, end, normal])
        && within_range([radius, offset])
        && radius >= 0.0)
    {
        return None;
    }
    let distance_start = normal.dot(start) - offset;
    if distance_start <= radius {
        return Some(HalfPlaneHit {
            t: 0.0,
            point: start - normal * distance_start.min(radius),
        });
    }
    let distance_end = normal.dot(end) - offset;
    if distance_end > radius {
        return None;
    }
    let t = (distance_start - radius) / (distance_start - distance_end);
    let center = start + (end - start) * t;
    Some(HalfPlaneHit {
        t,
        point: center - normal * radius,
    })
}

/// First time a circle moving from `start` to `end` touches the segment `a`–`b`, with the
/// normal from the circle to the segment.
pub fn sweep_circle_segment(
    start: Vec2,
    end: Vec2,
    radius: f32,
    a: Vec2,
    b: Vec2,
) -> Option<SweepHit> {
    if !(points_within_range([start, end, a, b]) && within_range([radius]) && radius >= 0.0) {
        return None;
    }
    // Already touching.
    let closest = crate::shape::closest_point_on_segment(a, b, start);
    if closest.distance_squared(start) <= radius * radius {
        let normal = crate::math::try_unit(closest - start)
            .or_else(|| crate::math::try_unit(end - start))
            .unwrap_or(Vec2::X);
        return Some(SweepHit { t: 0.0, normal });
    }
    let motion = end - start;
    let mut best: Option<(f32, Vec2)> = None;
    // The segment's interior: the line offset by the radius on the side the circle comes from.
    let face = crate::math::try_unit(b - a).map(|direction| {
        let mut side = crate::math::left_perp(direction);
        if side.dot(start - a) < 0.0 {
            side = -side;
        }
        (direction, side)
    });
    let inside_face = |t: f32, direction: Vec2| {
        let along = (start + motion * t - a).dot(direction);
        along >= 0.0 && along <= a.distance(b)
    };
    if let Some((direction, side)) = face {
        let distance_start = side.dot(start - a);
        let approach = side.dot(motion);
        if approach < 0.0 {
            let t = (distance_start - radius) / -approach;
            if (0.0..=1.0).contains(&t) && inside_face(t, direction) {
                best = Some((t, -side));
            }
        }
    }
    // The end points, as circles of zero radius.
    for end_point in [a, b] {
        if let Some(SweepHit { t, normal }) =
            sweep_circles(start, end, radius, end_point, end_point, 0.0)
        {
            if best.is_none_or(|(best_t, _)| t < best_t) {
                // Grazing the face near an end, the face's time is ill-conditioned and the end's
                // may come first by rounding while the centre is already beside the face: the
                // contact there is the face's, and so is its normal (the line to the end leans
                // by the centre's distance from the end over the radius).
                let normal = match face {
                    Some((direction, side)) if inside_face(t, direction) => {
                        // From the centre to the line, whichever side it came round to.
                        if side.dot(start + motion * t - a) >= 0.0 {
                            -side
                        } else {
                            side
                        }
                    }
                    _ => normal,
                };
                best = Some((t, normal));
            }
        }
    }
    best.map(|(t, normal)| SweepHit { t, normal })
}

/// First time box `moving` displaced by `delta` over the step touches the fixed box `fixed`, with
/// the face normal from `moving` to `fixed`.
///
/// Per-axis entry and exit times (Gomez 1999): boxes overlap on both axes between the later entry
/// and the earlier exit. Boxes already touching report `t = 0`.
pub fn sweep_aabbs(moving: &Aabb, delta: Vec2, fixed: &Aabb) -> Option<SweepHit> {
    if !(moving.is_valid()
        && fixed.is_valid()
        && points_within_range([moving.min, moving.max, fixed.min, fixed.max, delta]))
    {
        return None;
    }
    if moving.overlaps(fixed) {
        let center_offset = fixed.center() - moving.center();
        let overlap = moving.half_extents() + fixed.half_extents() - center_offset.abs();
        let normal = if overlap.x < overlap.y {
            Vec2::new(center_offset.x.signum(), 0.0)
        } else {
            Vec2::new(0.0, center_offset.y.signum())
        };
        return Some(SweepHit { t: 0.0, normal });
    }
    let mut entry = 0.0f32;
    let mut exit = 1.0f32;
    let mut normal = Vec2::ZERO;
    for axis in 0..2 {
        let d = delta[axis];
        let (entry_gap, exit_gap) = if d >= 0.0 {
            (
                fixed.min[axis] - moving.max[axis],
                fixed.max[axis] - moving.min[axis],
            )
        } else {
            (
                moving.min[axis] - fixed.max[axis],
                moving.max[axis] - fixed.min[axis],
            )
        };
        let speed = d.abs();
        if speed == 0.0 {
            if entry_gap > 0.0 || exit_gap < 0.0 {
                return None;
            }
            continue;
        }
        let axis_entry = entry_gap / speed;
        let axis_exit = exit_gap / speed;
        if axis_entry > entry {
            entry = axis_entry;
            normal = Vec2::ZERO;
            normal[axis] = if d >= 0.0 { 1.0 } else { -1.0 };
        }
        exit = exit.min(axis_exit);
    }
    (entry <= exit && entry <= 1.0 && normal != Vec2::ZERO).then_some(SweepHit { t: entry, normal })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn head_on_circles_meet_at_the_right_time() {
        // Gap of 8 between surfaces, closing speed 10 per step.
        let SweepHit { t, normal } = sweep_circles(
            v(0.0, 0.0),
            v(5.0, 0.0),
            1.0,
            v(10.0, 0.0),
            v(5.0, 0.0),
            1.0,
        )
        .unwrap();
        assert!((t - 0.8).abs() < 1e-6);
        assert_eq!(normal, v(1.0, 0.0));
        assert!(
            sweep_circles(v(0.0, 0.0), v(5.0, 0.0), 1.0, v(0.0, 3.0), v(5.0, 3.0), 1.0).is_none()
        );
        let SweepHit { t, .. } =
            sweep_circles(v(0.0, 0.0), v(5.0, 0.0), 1.0, v(1.5, 0.0), v(9.0, 0.0), 1.0).unwrap();
        assert_eq!(t, 0.0);
    }

    #[test]
    fn fast_circle_does_not_tunnel_through_a_half_plane() {
        // The floor y <= 0; a circle falling 1000 units in one step.
        let HalfPlaneHit { t, point } =
            sweep_circle_half_plane(v(0.0, 10.0), v(0.0, -990.0), 0.5, v(0.0, 1.0), 0.0).unwrap();
        assert!((t - 9.5 / 1000.0).abs() < 1e-6);
        assert!((point - v(0.0, 0.0)).length() < 1e-4);
        assert_eq!(
            sweep_circle_half_plane(v(0.0, 0.2), v(0.0, 5.0), 0.5, v(0.0, 1.0), 0.0)
                .unwrap()
                .t,
            0.0
        );
        assert!(sweep_circle_half_plane(v(0.0, 2.0), v(5.0, 2.0), 0.5, v(0.0, 1.0), 0.0).is_none());
    }

    #[test]
    fn circle_against_segment_face_and_end() {
        let SweepHit { t, normal } =
            sweep_circle_segment(v(0.0, 5.0), v(0.0, -5.0), 1.0, v(-1.0, 0.0), v(1.0, 0.0))
                .unwrap();
        assert!((t - 0.4).abs() < 1e-6);
        assert_eq!(normal, v(0.0, -1.0));
        // Passing the end point at a distance of 0.5: touches the end cap.
        let SweepHit { t, normal } =
            sweep_circle_segment(v(-5.0, 0.5), v(5.0, 0.5), 1.0, v(0.0, -3.0), v(0.0, 0.0))
                .unwrap();
        let expected = (5.0 - (1.0f32 - 0.25).sqrt()) / 10.0;
        assert!((t - expected).abs() < 1e-5, "{t}");
        assert!(normal.x > 0.0 && normal.y < 0.0);
    }

    #[test]
    fn boxes_sweep_and_miss() {
        let moving = Aabb::new(v(0.0, 0.0), v(1.0, 1.0)).unwrap();
        let wall = Aabb::new(v(5.0, -10.0), v(5.01, 10.0)).unwrap();
        let SweepHit { t, normal } = sweep_aabbs(&moving, v(1000.0, 0.0), &wall).unwrap();
        assert!((t - 0.004).abs() < 1e-6);
        assert_eq!(normal, v(1.0, 0.0));
        assert!(sweep_aabbs(&moving, v(3.0, 0.0), &wall).is_none());
        assert!(sweep_aabbs(&moving, v(0.0, 1000.0), &wall).is_none());
        let SweepHit { t, normal } = sweep_aabbs(
            &moving,
            v(-1.0, 0.0),
            &Aabb::new(v(0.5, 0.5), v(3.0, 3.0)).unwrap(),
        )
        .unwrap();
        assert_eq!(t, 0.0);
        assert!(normal.length() == 1.0);
    }

    #[test]
    fn sweep_placement_interpolates() {
        let start = Transform::new(v(0.0, 0.0), 0.0);
        let end = Transform::new(v(10.0, 0.0), 1.0);
        let sweep = Sweep::between(&start, &end);
        let half = sweep.transform_at(0.5);
        assert!((half.p - v(5.0, 0.0)).length() < 1e-6);
        assert!((half.angle() - 0.5).abs() < 1e-6);
        // Rotating about a local centre keeps the placement at t = 0.
        let about = sweep.about(v(1.0, 0.0));
        assert!((about.transform_at(0.0).p - start.p).length() < 1e-6);
        assert!((about.transform_at(1.0).p - end.p).length() < 1e-5);
    }

    #[test]
    fn a_sweep_that_does_not_turn_keeps_its_rotation_bit_for_bit() {
        // The placement's rotation is the given one at every time, not one rebuilt from an
        // angle (which differs from it in the last bits).
        let mut numbers = crate::test_numbers::Numbers(0x0005_ee9d_a7e5_0001);
        for _ in 0..1000 {
            let xf = Transform::new(
                v(
                    numbers.unit() * 200.0 - 100.0,
                    numbers.unit() * 200.0 - 100.0,
                ),
                numbers.unit() * 20.0 - 10.0,
            );
            let delta = v(numbers.unit() * 8.0 - 4.0, numbers.unit() * 8.0 - 4.0);
            for sweep in [
                Sweep::fixed(&xf),
                Sweep::linear(&xf, delta),
                Sweep::between(
                    &xf,
                    &Transform {
                        p: xf.p + delta,
                        q: xf.q,
                    },
                ),
                Sweep::linear(&xf, delta).about(v(0.25, -0.5)),
            ] {
                assert_eq!(sweep.rotation(), 0.0);
                for t in [0.0, 0.3, 1.0] {
                    assert_eq!(sweep.transform_at(t).q, xf.q);
                }
                if sweep.local_center == Vec2::ZERO {
                    assert_eq!(sweep.transform_at(0.0).p, xf.p);
                }
            }
        }
    }

    #[test]
    fn a_turning_sweep_follows_its_angle_exactly_within_rounding() {
        // Against the f64 placement `angle(t) = angle_0 + turn t`, turns of any size.
        let mut numbers = crate::test_numbers::Numbers(0x0005_ee9d_a7e5_0002);
        for _ in 0..1000 {
            let angle = f64::from(numbers.unit()) * 12.0 - 6.0;
            let turn = numbers.unit() * 40.0 - 20.0;
            let start = Transform::new(v(3.0, -2.0), angle as f32);
            let sweep = Sweep::spinning(&start, v(1.0, 1.0), turn);
            assert_eq!(sweep.rotation(), turn);
            assert_eq!(sweep.transform_at(0.0).q, start.q);
            let start_angle = f64::from(start.q.s).atan2(f64::from(start.q.c));
            for t in [0.25f32, 0.5, 1.0] {
                let exact = start_angle + f64::from(turn) * f64::from(t);
                let q = sweep.transform_at(t).q;
                assert!((f64::from(q.c) - exact.cos()).abs() < 1e-5, "{turn} {t}");
                assert!((f64::from(q.s) - exact.sin()).abs() < 1e-5, "{turn} {t}");
            }
        }
        // The shortest turn between two placements, either way round.
        let start = Transform::new(v(0.0, 0.0), 3.0);
        let end = Transform::new(v(0.0, 0.0), -3.0);
        let sweep = Sweep::between(&start, &end);
        let shortest = std::f32::consts::TAU - 6.0;
        assert!((sweep.rotation() - shortest).abs() < 1e-5);
        assert!((sweep.rotation_end().angle() - end.angle()).abs() < 1e-5);
    }
}
