//! Result types shared by the narrow-phase queries.

use crate::math::Vec2;

/// One feature of a shape: a vertex or an edge, by index in the shape's own numbering.
///
/// For circles the single feature is `Vertex(0)`; a capsule's core is edge `0` between
/// vertices `0` and `1`; a segment likewise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Feature {
    /// Vertex `i`.
    Vertex(u8),
    /// Edge `i`, from vertex `i` to vertex `i + 1`.
    Edge(u8),
}

/// The pair of features, one on each shape, that produced a contact point.
///
/// Stable from frame to frame while the same features touch, so a solver can warm-start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FeatureId {
    /// The feature of shape A.
    pub a: Feature,
    /// The feature of shape B.
    pub b: Feature,
}

impl FeatureId {
    /// The id with A and B exchanged (for the mirrored pair).
    #[inline]
    pub fn swapped(self) -> FeatureId {
        FeatureId {
            a: self.b,
            b: self.a,
        }
    }
}

/// One point of contact.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPoint {
    /// World-space point midway between the two surfaces.
    pub point: Vec2,
    /// Depth of overlap along the manifold normal: positive when overlapping, negative only for
    /// speculative points within a margin.
    pub penetration: f32,
    /// The features that made this point.
    pub id: FeatureId,
}

impl ContactPoint {
    const ZERO: ContactPoint = ContactPoint {
        point: Vec2::ZERO,
        penetration: 0.0,
        id: FeatureId {
            a: Feature::Vertex(0),
            b: Feature::Vertex(0),
        },
    };
}

/// Where and how deeply two shapes touch: up to two points sharing one normal.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// Unit normal from A to B (world space); zero when the manifold is empty.
    pub normal: Vec2,
    /// Storage for the contact points; only the first `count` are meaningful.
    pub points: [ContactPoint; 2],
    /// How many points are used (0, 1 or 2).
    pub count: usize,
    /// For a compound A, the index of its child that touched (0 otherwise).
    pub child_a: u32,
    /// For a compound B, the index of its child that touched (0 otherwise).
    pub child_b: u32,
}

impl Manifold {
    /// The manifold with no points: the shapes do not touch.
    pub const EMPTY: Manifold = Manifold {
        normal: Vec2::ZERO,
        points: [ContactPoint::ZERO; 2],
        count: 0,
        child_a: 0,
        child_b: 0,
    };

    /// The manifold of one contact point along `normal` (A to B).
    #[inline]
    pub(crate) const fn one_point(normal: Vec2, point: ContactPoint) -> Manifold {
        Manifold {
            normal,
            points: [point, ContactPoint::ZERO],
            count: 1,
            child_a: 0,
            child_b: 0,
        }
    }

    /// The contact points in use.
    #[inline]
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.count]
    }

    /// Whether there are no contact points.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The deepest penetration among the points (`f32::NEG_INFINITY` when empty).
    pub fn max_penetration(&self) -> f32 {
        self.points()
            .iter()
            .map(|p| p.penetration)
            .fold(f32::NEG_INFINITY, f32::max)
    }

    /// The same contact seen from the other shape: normal negated, feature ids and children swapped.
    #[inline]
    pub fn swapped(&self) -> Manifold {
        let mut out = *self;
        out.swap_sides();
        out
    }

    /// [`swapped`](Manifold::swapped) in place.
    #[inline(always)]
    pub(crate) fn swap_sides(&mut self) {
        self.normal = -self.normal;
        for p in &mut self.points[..self.count] {
            p.id = p.id.swapped();
        }
        std::mem::swap(&mut self.child_a, &mut self.child_b);
    }
}

impl Default for Manifold {
    fn default() -> Self {
        Manifold::EMPTY
    }
}

/// The closest points between two shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOutput {
    /// The distance between the surfaces; `0` when they touch or overlap.
    pub distance: f32,
    /// The point of A closest to B (world space).
    pub point_a: Vec2,
    /// The point of B closest to A (world space).
    pub point_b: Vec2,
    /// Unit vector from A towards B along the closest points; for overlapping shapes, the best
    /// separation direction known to the algorithm (may be zero when it has none).
    pub normal: Vec2,
}

impl DistanceOutput {
    /// The answer when there is none (a transform that is not
    /// [valid](crate::Transform::is_valid)): distance `f32::INFINITY`, points and normal zero.
    pub const NONE: DistanceOutput = DistanceOutput {
        distance: f32::INFINITY,
        point_a: Vec2::ZERO,
        point_b: Vec2::ZERO,
        normal: Vec2::ZERO,
    };
}

/// Warm-start data for repeated [`distance_with_cache`](crate::distance_with_cache) calls on the same pair.
///
/// Pass the same cache back each frame: GJK then starts from last frame's simplex and usually
/// converges in one or two iterations. A default (empty) cache is always valid.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimplexCache {
    /// How many vertices the cached simplex has (0 to 3).
    pub count: u8,
    /// Support-vertex indices on A.
    pub index_a: [u8; 3],
    /// Support-vertex indices on B.
    pub index_b: [u8; 3],
}
