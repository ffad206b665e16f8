//! Colliders: a shape placed on an object, with its layer and flags.

use super::error::WorldError;
use super::groups::CollisionGroups;
use super::layers::LayerId;
use crate::math::{Transform, Vec2};
use crate::shape::{Aabb, Capsule, Circle, Polygon, Segment, Shape, ShapeError};
use glam::Vec4;

/// A platform that only blocks from one side (e.g. jump up through it, stand on it).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OneWay {
    /// The blocking side, as a unit direction in the collider's local frame (e.g. `+y` for a
    /// platform you stand on).
    pub direction: Vec2,
    /// How deep another shape may be inside and still be pushed out; deeper contacts are from
    /// the other side and ignored.
    pub margin: f32,
}

/// A shape with its placement, layer and flags, ready to insert into a [`World`](crate::World).
///
/// The shape is placed by `transform ∘ offset`: the game sets `transform` (its object's pose)
/// every frame, and `offset` places the shape relative to the object.
///
/// ```
/// use collide2d::{world::Collider, Transform, Vec2};
/// let collider = Collider::circle(0.5)?
///     .with_transform(Transform::new(Vec2::new(3.0, 1.0), 0.0))
///     .with_offset(Transform::new(Vec2::new(0.0, 0.5), 0.0))
///     .with_sensor(true)
///     .with_user_data(42);
/// assert_eq!(collider.world_transform().p, Vec2::new(3.0, 1.5));
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
///
/// Laid out in declaration order: the shape first (a world's pair tests read it beside the
/// placement), then the transforms a move reads and writes.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Collider {
    pub(crate) shape: Shape,
    pub(crate) transform: Transform,
    pub(crate) offset: Transform,
    pub(crate) user_data: u64,
    pub(crate) one_way: Option<OneWay>,
    pub(crate) groups: CollisionGroups,
    pub(crate) layer: LayerId,
    pub(crate) sensor: bool,
    pub(crate) enabled: bool,
    /// Whether the world sweeps the collider from its last placement at every update (old
    /// collider data without the field loads as not continuous).
    #[cfg_attr(feature = "serde", serde(default))]
    pub(crate) continuous: bool,
}

impl Collider {
    /// A collider of `shape` (a [`Shape`] or any one shape) at the origin, on the default
    /// layer, solid, enabled.
    pub fn new(shape: impl Into<Shape>) -> Collider {
        Collider {
            shape: shape.into(),
            transform: Transform::IDENTITY,
            offset: Transform::IDENTITY,
            layer: LayerId::DEFAULT,
            sensor: false,
            enabled: true,
            user_data: 0,
            one_way: None,
            groups: CollisionGroups::ALL,
            continuous: false,
        }
    }

    /// A collider of a circle of `radius` centred on its object ([`Circle::with_radius`]).
    pub fn circle(radius: f32) -> Result<Collider, ShapeError> {
        Ok(Collider::new(Circle::with_radius(radius)?))
    }

    /// A collider of a `width × height` rectangle centred on its object ([`Polygon::rect`]).
    pub fn rect(width: f32, height: f32) -> Result<Collider, ShapeError> {
        Ok(Collider::new(Polygon::rect(width, height)?))
    }

    /// A collider of the capsule around segment `a`–`b` with `radius` ([`Capsule::new`]).
    pub fn capsule(a: Vec2, b: Vec2, radius: f32) -> Result<Collider, ShapeError> {
        Ok(Collider::new(Capsule::new(a, b, radius)?))
    }

    /// A collider of the segment `a`–`b` ([`Segment::new`]).
    pub fn segment(a: Vec2, b: Vec2) -> Result<Collider, ShapeError> {
        Ok(Collider::new(Segment::new(a, b)?))
    }

    /// A collider of a convex outline, in either winding ([`Polygon::new`]).
    pub fn polygon(outline: &[Vec2]) -> Result<Collider, ShapeError> {
        Ok(Collider::new(Polygon::new(outline)?))
    }

    /// Sets the object transform.
    pub fn with_transform(mut self, transform: Transform) -> Collider {
        self.transform = transform;
        self
    }

    /// Moves the object to `position`, keeping its rotation.
    ///
    /// ```
    /// use collide2d::world::Collider;
    /// use collide2d::Vec2;
    ///
    /// let ball = Collider::circle(0.5)?.with_position(Vec2::new(3.0, 1.0));
    /// assert_eq!(ball.position(), Vec2::new(3.0, 1.0));
    /// assert!((ball.aabb().center() - Vec2::new(3.0, 1.0)).length() < 1e-5);
    /// # Ok::<(), collide2d::shape::ShapeError>(())
    /// ```
    pub fn with_position(mut self, position: Vec2) -> Collider {
        self.transform.p = position;
        self
    }

    /// Sets the offset of the shape on its object.
    pub fn with_offset(mut self, offset: Transform) -> Collider {
        self.offset = offset;
        self
    }

    /// Sets the layer.
    pub fn with_layer(mut self, layer: LayerId) -> Collider {
        self.layer = layer;
        self
    }

    /// Makes the collider a sensor: it reports overlaps but has no manifold and blocks nothing.
    pub fn with_sensor(mut self, sensor: bool) -> Collider {
        self.sensor = sensor;
        self
    }

    /// Starts the collider enabled or disabled.
    pub fn with_enabled(mut self, enabled: bool) -> Collider {
        self.enabled = enabled;
        self
    }

    /// Sets the game's own data for this collider.
    pub fn with_user_data(mut self, user_data: u64) -> Collider {
        self.user_data = user_data;
        self
    }

    /// Makes the collider one-way (see [`OneWay`]).
    pub fn with_one_way(mut self, direction: Vec2, margin: f32) -> Collider {
        self.one_way = Some(OneWay { direction, margin });
        self
    }

    /// Sets the collision groups (default [`CollisionGroups::ALL`]); applied together with the
    /// layer matrix.
    pub fn with_groups(mut self, groups: CollisionGroups) -> Collider {
        self.groups = groups;
        self
    }

    /// Makes the collider continuous: at every [`World::update`](crate::World::update) the world
    /// sweeps it from where it was at the previous update to where it is now (translation and
    /// rotation), so that it cannot pass through a thin collider between two updates, and its
    /// `Begin` events carry the time of impact (see
    /// [`CollisionEvent`](super::CollisionEvent)). Costs one shape cast per candidate pair
    /// along its path, only while it moves.
    pub fn with_continuous(mut self, continuous: bool) -> Collider {
        self.continuous = continuous;
        self
    }

    /// Whether the world sweeps this collider between updates (see
    /// [`with_continuous`](Self::with_continuous)).
    pub fn is_continuous(&self) -> bool {
        self.continuous
    }

    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The object transform.
    pub fn transform(&self) -> Transform {
        self.transform
    }

    /// The object's position: the translation of [`Collider::transform`].
    pub fn position(&self) -> Vec2 {
        self.transform.p
    }

    /// The offset of the shape on its object.
    pub fn offset(&self) -> Transform {
        self.offset
    }

    /// Where the shape is: `transform ∘ offset`.
    pub fn world_transform(&self) -> Transform {
        self.transform.mul(&self.offset)
    }

    /// The world bounding box, padded by a few units in the last place of its coordinates so
    /// that rounding far from the origin never leaves a touching point outside it.
    pub fn aabb(&self) -> Aabb {
        self.aabb_at(&self.world_transform())
    }

    /// [`aabb`](Self::aabb) for the shape placed at `placement` (its world transform).
    ///
    /// The box is padded by a few ulps of the largest number the narrow phase works with for
    /// this collider: its world coordinates and its placement's position. (A shape whose local
    /// coordinates cancel its position, e.g. a circle centred at `(0, -1e-11)` placed at
    /// `(0, 1e-11)`, has a tiny box near the origin, but pair tests in its own frame round at
    /// the scale of `1e-11`; padding by the box alone could then drop a pair those tests find.)
    pub(crate) fn aabb_at(&self, placement: &Transform) -> Aabb {
        padded_aabb(&self.shape, placement)
    }

    /// The layer.
    pub fn layer(&self) -> LayerId {
        self.layer
    }

    /// Whether this is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// Whether it takes part in updates and queries.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// The game's data.
    pub fn user_data(&self) -> u64 {
        self.user_data
    }

    /// The one-way setting, if any.
    pub fn one_way(&self) -> Option<OneWay> {
        self.one_way
    }

    /// The collision groups.
    pub fn groups(&self) -> CollisionGroups {
        self.groups
    }

    /// The one-way blocking direction in world space.
    pub(crate) fn one_way_world(&self) -> Option<(Vec2, f32)> {
        self.one_way
            .map(|w| (self.world_transform().rotate(w.direction), w.margin))
    }

    /// Checks every number a user could have set.
    pub(crate) fn validate(&mut self) -> Result<(), WorldError> {
        check_transform(&self.transform)?;
        check_transform(&self.offset)?;
        if let Some(one_way) = &mut self.one_way {
            if !one_way.margin.is_finite() || one_way.margin < 0.0 {
                return Err(WorldError::InvalidOneWay);
            }
            one_way.direction =
                crate::math::try_unit(one_way.direction).ok_or(WorldError::InvalidOneWay)?;
        }
        check_placement(&self.world_transform(), &self.aabb())
    }
}

/// A transform is usable when finite, within ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE)
/// (beyond it, products in the narrow phase overflow `f32`), with a (nearly) unit rotation;
/// the error names the first of these that fails.
pub(crate) fn check_transform(xf: &Transform) -> Result<(), WorldError> {
    if xf.is_valid() {
        return Ok(());
    }
    let numbers = [xf.p.x, xf.p.y, xf.q.c, xf.q.s];
    Err(if numbers.iter().any(|number| !number.is_finite()) {
        WorldError::NonFiniteTransform
    } else if xf.p.abs().max_element() > crate::shape::MAX_COORDINATE {
        WorldError::TransformOutOfRange
    } else {
        WorldError::RotationNotUnit
    })
}

/// Checks where a valid transform and offset put the shape: their product and the shape's box
/// there. Both inputs being finite and in range, a product that is not is out of range.
pub(crate) fn check_placement(placement: &Transform, aabb: &Aabb) -> Result<(), WorldError> {
    check_placement_transform(placement)?;
    check_placed_box(aabb)
}

/// The first half of [`check_placement`]: the product of a valid transform and offset.
#[inline]
pub(crate) fn check_placement_transform(placement: &Transform) -> Result<(), WorldError> {
    if placement.is_valid() {
        return Ok(());
    }
    match check_transform(placement) {
        Err(WorldError::RotationNotUnit) => Err(WorldError::RotationNotUnit),
        _ => Err(WorldError::TransformOutOfRange),
    }
}

/// The second half of [`check_placement`]: the shape's box at a checked placement, in two
/// four-lane comparisons (finite corners, not inverted).
#[inline]
pub(crate) fn check_placed_box(aabb: &Aabb) -> Result<(), WorldError> {
    let corners = Vec4::new(aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y);
    if corners.is_finite() && aabb.min.cmple(aabb.max).all() {
        Ok(())
    } else {
        Err(WorldError::TransformOutOfRange)
    }
}

/// `shape`'s box at `placement`, padded by a few ulps of the largest coordinate involved: of
/// the box and of the placement's position. The exact tests compute in one shape's frame and
/// round at the scale of that shape's position, which can be far larger than the box when the
/// shape's local coordinates cancel its position; the padding keeps every pair those tests
/// find among the box candidates.
pub(crate) fn padded_aabb(shape: &Shape, placement: &Transform) -> Aabb {
    padded(shape.aabb(placement), placement)
}

/// [`padded_aabb`] at a placement already checked ([`Transform::is_valid`]).
#[inline]
pub(crate) fn padded_aabb_of_valid(shape: &Shape, placement: &Transform) -> Aabb {
    padded(shape.aabb_of_valid(placement), placement)
}

/// The box `tight` of a shape at `placement`, padded as [`padded_aabb`] says.
#[inline]
fn padded(tight: Aabb, placement: &Transform) -> Aabb {
    let magnitude = tight
        .min
        .abs()
        .max(tight.max.abs())
        .max(placement.p.abs())
        .max_element();
    let pad = Vec2::splat(magnitude * (4.0 * f32::EPSILON));
    Aabb {
        min: tight.min - pad,
        max: tight.max + pad,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_constructors_build_the_shape_they_name_and_refuse_bad_numbers() {
        let circle = Collider::circle(0.5).unwrap();
        assert_eq!(
            circle.shape(),
            &Shape::from(Circle::with_radius(0.5).unwrap())
        );
        let rect = Collider::rect(2.0, 1.0).unwrap();
        assert_eq!(rect.shape(), &Shape::from(Polygon::rect(2.0, 1.0).unwrap()));
        let (a, b) = (Vec2::ZERO, Vec2::X);
        let capsule = Collider::capsule(a, b, 0.25).unwrap();
        assert_eq!(
            capsule.shape(),
            &Shape::from(Capsule::new(a, b, 0.25).unwrap())
        );
        let segment = Collider::segment(a, b).unwrap();
        assert_eq!(segment.shape(), &Shape::from(Segment::new(a, b).unwrap()));
        let outline = [Vec2::ZERO, Vec2::X, Vec2::Y];
        let polygon = Collider::polygon(&outline).unwrap();
        assert_eq!(
            polygon.shape(),
            &Shape::from(Polygon::new(&outline).unwrap())
        );
        assert_eq!(Collider::new(Circle::with_radius(0.5).unwrap()), circle);

        assert!(Collider::circle(-1.0).is_err());
        assert!(Collider::rect(f32::NAN, 1.0).is_err());
        assert!(Collider::capsule(a, b, -0.1).is_err());
        assert!(Collider::segment(a, a).is_err());
        assert!(Collider::polygon(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]).is_err());
    }
}
