//! Vectors, rotations and rigid transforms.
//!
//! Angles are in radians, counter-clockwise positive. A [`Transform`] maps a shape's local
//! coordinates to world coordinates: first rotate by `q`, then translate by `p`.

pub use glam::Vec2;
use glam::{Vec4, Vec4Swizzles};

/// Largest coordinate magnitude a shape constructor accepts, and the largest translation a
/// query or the world accepts in a [`Transform`].
///
/// Every query is exact to `f32` rounding up to here: the closest points of two segments
/// multiply four lengths (`|d1|²|d2|²`), which overflows `f32` once two segments are about
/// 4e9 long, and segments within ±1e9 are at most 2.8e9 long. Measured over 120,000 random
/// pairs of every convex kind with size ratios up to 1e8, `distance`, `overlaps` and `collide`
/// agree everywhere up to 2e9 and first disagree at 1e10 (a capsule pair). Place shapes far
/// away with a transform instead of far-away local coordinates.
pub const MAX_COORDINATE: f32 = 1.0e9;

/// A rotation stored as the cosine and sine of its angle.
///
/// Any `c`, `s` with `c² + s² = 1` is a valid rotation; [`Rot::from_angle`] and
/// [`Rot::try_from_cos_sin`] build normalised values.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle.
    pub s: f32,
}

impl Rot {
    /// The rotation by zero radians.
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// The rotation by `angle` radians (counter-clockwise).
    #[inline]
    pub fn from_angle(angle: f32) -> Rot {
        let (s, c) = angle.sin_cos();
        Rot { c, s }
    }

    /// Normalises `(c, s)` into a rotation; `None` when the pair is not finite or has zero length.
    ///
    /// Tiny and huge pairs are scaled before normalising, so that their squares neither
    /// underflow nor overflow: `(0, 2.6e-23)` is the quarter turn `(0, 1)`.
    pub fn try_from_cos_sin(c: f32, s: f32) -> Option<Rot> {
        let unit = try_unit(Vec2::new(c, s))?;
        Some(Rot {
            c: unit.x,
            s: unit.y,
        })
    }

    /// The angle in radians, in `(-π, π]`.
    #[inline]
    pub fn angle(self) -> f32 {
        self.s.atan2(self.c)
    }

    /// Rotates vector `v` by this rotation.
    #[inline]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// The half extents of the axis-aligned box around a centred box with half extents `half`
    /// turned by this rotation: `(|c hx| + |s hy|, |s hx| + |c hy|)`. Each is, to the bit, the
    /// farthest turned corner's coordinate ([`rotate`](Rot::rotate) of `(±hx, ±hy)`): the
    /// products are the same, and subtracting a negated product is adding it.
    #[inline(always)]
    pub(crate) fn turned_half_extents(self, half: Vec2) -> Vec2 {
        Vec2::new(
            (self.c * half.x).abs() + (self.s * half.y).abs(),
            (self.s * half.x).abs() + (self.c * half.y).abs(),
        )
    }

    /// Rotates vector `v` by the inverse of this rotation.
    #[inline]
    pub fn rotate_inv(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// The composition `self ∘ other` (apply `other` first); also available as `self * other`.
    #[inline]
    #[allow(clippy::should_implement_trait)] // the trait is implemented too; the name is the API
    pub fn mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c - self.s * other.s,
            s: self.s * other.c + self.c * other.s,
        }
    }

    /// The composition `self⁻¹ ∘ other`: `other` expressed relative to `self`.
    #[inline]
    pub fn inv_mul(self, other: Rot) -> Rot {
        Rot {
            c: self.c * other.c + self.s * other.s,
            s: self.c * other.s - self.s * other.c,
        }
    }

    /// The inverse rotation.
    #[inline]
    pub fn inv(self) -> Rot {
        Rot {
            c: self.c,
            s: -self.s,
        }
    }

    /// Re-normalises a rotation that drifted after many compositions.
    pub fn normalized(self) -> Rot {
        Rot::try_from_cos_sin(self.c, self.s).unwrap_or(Rot::IDENTITY)
    }

    /// Whether both components are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.c.is_finite() && self.s.is_finite()
    }
}

impl Default for Rot {
    fn default() -> Self {
        Rot::IDENTITY
    }
}

/// A rigid transform: rotation `q` followed by translation `p`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transform {
    /// Translation (the position of the local origin in world space).
    pub p: Vec2,
    /// Rotation.
    pub q: Rot,
}

impl Transform {
    /// The transform that leaves every point where it is.
    pub const IDENTITY: Transform = Transform {
        p: Vec2::ZERO,
        q: Rot::IDENTITY,
    };

    /// A transform placing the local origin at `p`, rotated by `angle` radians.
    #[inline]
    pub fn new(p: Vec2, angle: f32) -> Transform {
        Transform {
            p,
            q: Rot::from_angle(angle),
        }
    }

    /// A pure translation.
    #[inline]
    pub fn from_translation(p: Vec2) -> Transform {
        Transform {
            p,
            q: Rot::IDENTITY,
        }
    }

    /// Maps a local point to world space.
    #[inline]
    pub fn apply(&self, local_point: Vec2) -> Vec2 {
        self.q.rotate(local_point) + self.p
    }

    /// Maps a world point to local space.
    #[inline]
    pub fn apply_inv(&self, world_point: Vec2) -> Vec2 {
        self.q.rotate_inv(world_point - self.p)
    }

    /// Rotates a local vector into world space (no translation).
    #[inline]
    pub fn rotate(&self, local_vector: Vec2) -> Vec2 {
        self.q.rotate(local_vector)
    }

    /// Rotates a world vector into local space (no translation).
    #[inline]
    pub fn rotate_inv(&self, world_vector: Vec2) -> Vec2 {
        self.q.rotate_inv(world_vector)
    }

    /// The composition `self ∘ other`: apply `other`, then `self`; also `self * other`.
    #[inline]
    #[allow(clippy::should_implement_trait)] // the trait is implemented too; the name is the API
    pub fn mul(&self, other: &Transform) -> Transform {
        Transform {
            p: self.q.rotate(other.p) + self.p,
            q: self.q.mul(other.q),
        }
    }

    /// The composition `self⁻¹ ∘ other`: `other` expressed in this transform's local frame.
    ///
    /// `a.inv_mul(&b)` is the placement of B in A's frame (`b_in_a`); it avoids the rounding of
    /// computing `a.inv()` first, which matters far from the origin.
    #[inline]
    pub fn inv_mul(&self, other: &Transform) -> Transform {
        Transform {
            p: self.q.rotate_inv(other.p - self.p),
            q: self.q.inv_mul(other.q),
        }
    }

    /// The inverse transform.
    #[inline]
    pub fn inv(&self) -> Transform {
        let q = self.q.inv();
        Transform {
            p: -q.rotate(self.p),
            q,
        }
    }

    /// The rotation angle in radians.
    #[inline]
    pub fn angle(&self) -> f32 {
        self.q.angle()
    }

    /// Whether every component is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.p.is_finite() && self.q.is_finite()
    }

    /// Whether the transform is one every query accepts: translation within
    /// ±[`MAX_COORDINATE`] on both axes and a rotation of unit
    /// length within [`ROTATION_TOLERANCE`] (`|c² + s² − 1|`); NaN and infinities fail.
    ///
    /// Queries given any other transform give their documented empty answer (see the crate's
    /// [conventions](crate#conventions)); the world refuses it with an error.
    #[inline]
    pub fn is_valid(&self) -> bool {
        let length_squared = self.q.c * self.q.c + self.q.s * self.q.s;
        let deviation = (length_squared - 1.0) * DEVIATION_SCALE;
        // One four-lane comparison; NaN fails it.
        Vec4::new(self.p.x, self.p.y, deviation, 0.0)
            .abs()
            .cmple(Vec4::splat(MAX_COORDINATE))
            .all()
    }
}

/// Whether both transforms are [valid](Transform::is_valid), in two four-lane comparisons and
/// one branch: the entry check of every pair query.
#[inline(always)]
pub(crate) fn both_valid(first: &Transform, second: &Transform) -> bool {
    let positions = Vec4::new(first.p.x, first.p.y, second.p.x, second.p.y);
    let rotations = Vec4::new(first.q.c, first.q.s, second.q.c, second.q.s);
    let squares = rotations * rotations;
    // c² + s² − 1 of each rotation, twice: lanes (first, first, second, second).
    let deviations = squares + squares.yxwz() - Vec4::ONE;
    // Two comparisons joined, not `max`: a NaN lane must fail, and `max` may skip it.
    (positions.abs().cmple(Vec4::splat(MAX_COORDINATE))
        & deviations.abs().cmple(Vec4::splat(ROTATION_TOLERANCE)))
    .all()
}

/// Scales a rotation's `c² + s² − 1` so that [`ROTATION_TOLERANCE`] maps onto
/// [`MAX_COORDINATE`], and both checks share one comparison.
const DEVIATION_SCALE: f32 = MAX_COORDINATE / ROTATION_TOLERANCE;

/// How far `c² + s²` of a [`Transform`]'s rotation may be from 1 for [`Transform::is_valid`]:
/// enough for rotations composed or integrated for a long time without re-normalising.
pub const ROTATION_TOLERANCE: f32 = 1.0e-3;

impl std::ops::Mul for Rot {
    type Output = Rot;
    #[inline]
    fn mul(self, other: Rot) -> Rot {
        Rot::mul(self, other)
    }
}

impl std::ops::Mul for Transform {
    type Output = Transform;
    #[inline]
    fn mul(self, other: Transform) -> Transform {
        Transform::mul(&self, &other)
    }
}

/// 2D cross product of two vectors (the z component of their 3D cross product).
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Cross product of a vector with a scalar z: `v × s`, a vector rotated clockwise and scaled.
#[inline]
pub fn cross_vs(v: Vec2, s: f32) -> Vec2 {
    Vec2::new(s * v.y, -s * v.x)
}

/// Cross product of a scalar z with a vector: `s × v`, a vector rotated counter-clockwise and scaled.
#[inline]
pub fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}

/// The length of `v` without underflow: components below about 1e-19 would square to zero, so
/// tiny vectors are measured at their own scale.
#[inline]
pub(crate) fn robust_length(v: Vec2) -> f32 {
    let length_squared = v.dot(v);
    if length_squared >= 1e-30 {
        length_squared.sqrt()
    } else {
        robust_length_small(v)
    }
}

/// [`robust_length`] below a squared length of 1e-30 (and for NaN).
#[cold]
#[inline(never)]
fn robust_length_small(v: Vec2) -> f32 {
    let largest = v.abs().max_element();
    if largest < 1e-18 && largest > 0.0 {
        largest * (v / largest).length()
    } else {
        v.length()
    }
}

/// Squared lengths between these are normal `f32` numbers whose square root is exact to
/// rounding, with room for the smaller component's square to underflow harmlessly.
const PLAIN_LENGTH_SQUARED: std::ops::RangeInclusive<f32> = 1.0e-30..=1.0e36;

/// `v` scaled to unit length; `None` when it is zero or not finite.
///
/// `Vec2::try_normalize` squares the components: below a length of about 1e-19 the square is
/// subnormal or zero and its root is off by up to tens of percents, so the "unit" vector is not
/// (a segment a few ulps long after being placed beside coordinates of 100 is such a vector).
/// Here such vectors, and huge ones whose square overflows, are first scaled by their largest
/// component. In the plain range the answer is `try_normalize`'s, to the bit.
#[inline(always)]
pub(crate) fn try_unit(v: Vec2) -> Option<Vec2> {
    let length_squared = v.dot(v);
    if PLAIN_LENGTH_SQUARED.contains(&length_squared) {
        Some(v * (1.0 / length_squared.sqrt()))
    } else {
        try_unit_rescaled(v)
    }
}

/// [`try_unit`] for tiny, huge, zero and non-finite vectors.
#[cold]
#[inline(never)]
fn try_unit_rescaled(v: Vec2) -> Option<Vec2> {
    let largest = v.abs().max_element();
    (v / largest).try_normalize()
}

/// [`try_unit`], or `fallback` for a zero or non-finite `v`.
#[inline(always)]
pub(crate) fn unit_or(v: Vec2, fallback: Vec2) -> Vec2 {
    try_unit(v).unwrap_or(fallback)
}

/// The left perpendicular `(-y, x)` (rotated by +90°).
#[inline]
pub fn left_perp(v: Vec2) -> Vec2 {
    Vec2::new(-v.y, v.x)
}

/// The right perpendicular `(y, -x)` (rotated by −90°): the outward normal of a CCW edge.
#[inline]
pub fn right_perp(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

/// Four `f32` lanes with element-wise arithmetic: written out lane by lane so that, once
/// inlined, each operation compiles to one SIMD instruction (no `unsafe`, no intrinsics).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Lanes(pub [f32; 4]);

impl Lanes {
    /// All four lanes set to `value`.
    #[inline(always)]
    pub fn splat(value: f32) -> Lanes {
        Lanes([value; 4])
    }

    /// The lane-wise `if self < other { self } else { other }`: `f32::min` without its NaN
    /// branch (a NaN in `self` is skipped, as `f32::min` skips it).
    #[inline(always)]
    pub fn lesser(self, other: Lanes) -> Lanes {
        let (a, b) = (self.0, other.0);
        Lanes([
            if a[0] < b[0] { a[0] } else { b[0] },
            if a[1] < b[1] { a[1] } else { b[1] },
            if a[2] < b[2] { a[2] } else { b[2] },
            if a[3] < b[3] { a[3] } else { b[3] },
        ])
    }
}

impl std::ops::Add for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn add(self, other: Lanes) -> Lanes {
        let (a, b) = (self.0, other.0);
        Lanes([a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]])
    }
}

impl std::ops::Sub for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn sub(self, other: Lanes) -> Lanes {
        let (a, b) = (self.0, other.0);
        Lanes([a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]])
    }
}

impl std::ops::Mul for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn mul(self, other: Lanes) -> Lanes {
        let (a, b) = (self.0, other.0);
        Lanes([a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec2, b: Vec2) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn quarter_turn_rotates_x_to_y() {
        let q = Rot::from_angle(std::f32::consts::FRAC_PI_2);
        assert!(close(q.rotate(Vec2::X), Vec2::Y));
        assert!(close(q.rotate_inv(Vec2::Y), Vec2::X));
    }

    #[test]
    fn apply_then_apply_inv_is_identity() {
        let xf = Transform::new(Vec2::new(3.0, -2.0), 0.7);
        let p = Vec2::new(1.5, 4.0);
        assert!(close(xf.apply_inv(xf.apply(p)), p));
        assert!(close(xf.inv().apply(xf.apply(p)), p));
    }

    #[test]
    fn mul_composes_in_order() {
        let a = Transform::new(Vec2::new(1.0, 2.0), 0.3);
        let b = Transform::new(Vec2::new(-4.0, 0.5), -1.1);
        let p = Vec2::new(0.25, 2.0);
        assert!(close(a.mul(&b).apply(p), a.apply(b.apply(p))));
        assert!(close(a.inv_mul(&b).apply(p), a.inv().apply(b.apply(p))));
        assert!((a.mul(&b).angle() - (0.3 - 1.1)).abs() < 1e-6);
    }

    #[test]
    fn degenerate_cos_sin_is_rejected() {
        assert!(Rot::try_from_cos_sin(0.0, 0.0).is_none());
        assert!(Rot::try_from_cos_sin(f32::NAN, 1.0).is_none());
        let r = Rot::try_from_cos_sin(3.0, 4.0).unwrap();
        assert!((r.c - 0.6).abs() < 1e-6 && (r.s - 0.8).abs() < 1e-6);
        // Squares that underflow or overflow: still unit.
        assert_eq!(
            Rot::try_from_cos_sin(0.0, 2.6469783e-23),
            Some(Rot { c: 0.0, s: 1.0 })
        );
        for (c, s) in [(1e-40, 1e-40), (3e38, -3e38), (1e-30, 2e-30)] {
            let r = Rot::try_from_cos_sin(c, s).unwrap();
            assert!(((r.c * r.c + r.s * r.s) - 1.0).abs() < 1e-6, "{r:?}");
        }
        assert!(Rot::try_from_cos_sin(f32::INFINITY, 0.0).is_none());
    }
}
