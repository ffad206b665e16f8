//! The components a game puts on its entities.

use std::borrow::Cow;

use bevy_ecs::component::Component;
use bevy_ecs::entity::EntityHashSet;
use bevy_math::Vec2;
use collide2d::shape::Shape;
use collide2d::ShapeError;

use crate::convert::to_lib;

/// A collision shape on an entity, placed by the entity's `GlobalTransform`.
///
/// The shape sits at [`offset`](Collider::offset) and [`angle`](Collider::angle) on the entity
/// and is scaled by [`scale`](Collider::scale) times the entity's own scale, unless
/// [`ignore_object_scale`](Collider::with_ignore_object_scale) is set. Scaling follows
/// [`Shape::scaled`]: polygons, segments and chains take any scale; a circle, capsule or rounded
/// polygon under a non-uniform scale takes the larger of the two factors instead (a circle
/// stays a circle, enclosing the ellipse the scale describes).
#[derive(Component, Clone, Debug)]
#[require(bevy_transform::components::Transform)]
pub struct Collider {
    pub(crate) shape: Shape,
    pub(crate) offset: Vec2,
    pub(crate) angle: f32,
    pub(crate) scale: Vec2,
    pub(crate) ignore_object_scale: bool,
    pub(crate) continuous: bool,
    pub(crate) one_way: Option<(Vec2, f32)>,
}

impl Collider {
    /// A collider of this shape, centred on its entity.
    pub fn new(shape: impl Into<Shape>) -> Collider {
        Collider {
            shape: shape.into(),
            offset: Vec2::ZERO,
            angle: 0.0,
            scale: Vec2::ONE,
            ignore_object_scale: false,
            continuous: false,
            one_way: None,
        }
    }

    /// A circle of this radius.
    pub fn circle(radius: f32) -> Result<Collider, ShapeError> {
        Ok(Collider::new(collide2d::Circle::with_radius(radius)?))
    }

    /// A `width × height` rectangle.
    pub fn rect(width: f32, height: f32) -> Result<Collider, ShapeError> {
        Ok(Collider::new(collide2d::Polygon::rect(width, height)?))
    }

    /// A capsule around the segment `a`–`b`.
    pub fn capsule(a: Vec2, b: Vec2, radius: f32) -> Result<Collider, ShapeError> {
        Ok(Collider::new(collide2d::Capsule::new(
            to_lib(a),
            to_lib(b),
            radius,
        )?))
    }

    /// The convex hull of these points.
    pub fn polygon(points: &[Vec2]) -> Result<Collider, ShapeError> {
        let points: Vec<_> = points.iter().map(|&p| to_lib(p)).collect();
        Ok(Collider::new(collide2d::Polygon::hull(&points)?))
    }

    /// With the shape moved by `offset` and turned by `angle` (radians) on its entity.
    pub fn with_offset(mut self, offset: Vec2, angle: f32) -> Collider {
        self.offset = offset;
        self.angle = angle;
        self
    }

    /// With the shape scaled by `scale` (on top of the entity's scale).
    pub fn with_scale(mut self, scale: Vec2) -> Collider {
        self.scale = scale;
        self
    }

    /// Whether the entity's own scale is left out (`true`) or applied (`false`, the default).
    ///
    /// Left out, the size goes but a mirror stays: the shape is mapped by the entity's
    /// `GlobalTransform` with its scale factors taken as ±1, so a sprite flipped upside down
    /// (a scale of (1, -1), a half turn about `x`, or a half turn times (-1, 1)) has its
    /// collider mirrored upside down with it, the same whichever way it was flipped.
    pub fn with_ignore_object_scale(mut self, ignore: bool) -> Collider {
        self.ignore_object_scale = ignore;
        self
    }

    /// A continuous collider: each step sweeps it from its previous placement, so a fast one
    /// cannot pass through thin colliders between two steps.
    pub fn with_continuous(mut self, continuous: bool) -> Collider {
        self.continuous = continuous;
        self
    }

    /// A one-way collider: it blocks only what comes against `direction` (its side facing
    /// `direction`, in the shape's frame: scaled and mirrored with it), within `margin` of its
    /// surface (see collide2d's `Collider::with_one_way`). The margin is a depth in the shape's
    /// frame too: it scales with the shape along `direction` (twice as deep under a scale of 2,
    /// as the shape is twice as thick). Made one-way or two-way at run time,
    /// a collider keeps the contacts it still has (no end and begin).
    pub fn with_one_way(mut self, direction: Vec2, margin: f32) -> Collider {
        self.one_way = Some((direction, margin));
        self
    }

    /// The shape, unscaled.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The shape's offset on its entity.
    pub fn offset(&self) -> Vec2 {
        self.offset
    }

    /// The shape's turn on its entity (radians).
    pub fn angle(&self) -> f32 {
        self.angle
    }

    /// The collider's own scale.
    pub fn scale(&self) -> Vec2 {
        self.scale
    }

    /// Whether the entity's scale is left out.
    pub fn ignores_object_scale(&self) -> bool {
        self.ignore_object_scale
    }

    /// Whether the collider is continuous.
    pub fn is_continuous(&self) -> bool {
        self.continuous
    }

    /// The one-way direction and margin, when one-way.
    pub fn one_way(&self) -> Option<(Vec2, f32)> {
        self.one_way
    }
}

/// The named collision layer of a collider (the layer named `"default"` without it).
///
/// Names are those given to [`Collide2dPlugin::with_layers`](crate::Collide2dPlugin::with_layers);
/// which layers collide is the layer matrix of
/// [`CollisionWorld::layers_mut`](crate::CollisionWorld::layers_mut). Names are resolved again
/// whenever the world's layer names change, so a layer added at run time takes in the colliders
/// that named it before it existed. Until then an unknown name puts the collider on the default
/// layer and records a [`CollisionError`](crate::CollisionError) at each step.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct CollisionLayer(pub Cow<'static, str>);

impl CollisionLayer {
    /// The layer with this name.
    pub fn named(name: impl Into<Cow<'static, str>>) -> CollisionLayer {
        CollisionLayer(name.into())
    }
}

/// Makes a collider a sensor: it reports contacts (without manifolds) and character movement
/// and solid-only queries pass through it.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Sensor;

/// The entities this entity's collider touches, kept current from the collision events.
///
/// Insert it together with the [`Collider`] (or before the collider first touches anything):
/// it is filled from the started and ended events that follow.
#[derive(Component, Clone, Debug, Default)]
pub struct CollidingEntities(pub EntityHashSet);

impl CollidingEntities {
    /// Whether `entity` touches this one.
    pub fn contains(&self, entity: &bevy_ecs::entity::Entity) -> bool {
        self.0.contains(entity)
    }

    /// How many entities touch this one.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether nothing touches this one.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
