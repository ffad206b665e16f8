//! The world's update and its events as Bevy messages, observer triggers and components.

use bevy_ecs::entity::Entity;
use bevy_ecs::entity_disabling::Disabled;
use bevy_ecs::event::EntityEvent;
use bevy_ecs::message::Message;
use bevy_ecs::prelude::*;
use bevy_ecs::query::Allow;
use bevy_math::Vec2;
use collide2d::world::{CollisionEvent, EndReason};
use collide2d::Manifold;

use crate::components::CollidingEntities;
use crate::convert::from_lib;
use crate::{entity_of, CollisionSettings, CollisionWorld};

/// Where and how deeply two colliders touch: up to two points sharing one normal, which
/// points from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactManifold {
    /// Unit normal from `a` to `b`.
    pub normal: Vec2,
    /// The contact points (midway between the surfaces); the first `count` are used.
    pub points: [Vec2; 2],
    /// The depth at each point (positive when overlapping).
    pub penetrations: [f32; 2],
    /// How many points are used (0, 1 or 2).
    pub count: usize,
}

impl ContactManifold {
    /// The library's manifold in Bevy's types.
    pub fn from_manifold(manifold: &Manifold) -> ContactManifold {
        let mut points = [Vec2::ZERO; 2];
        let mut penetrations = [0.0; 2];
        for (i, point) in manifold.points().iter().enumerate().take(2) {
            points[i] = from_lib(point.point);
            penetrations[i] = point.penetration;
        }
        ContactManifold {
            normal: from_lib(manifold.normal),
            points,
            penetrations,
            count: manifold.count.min(2),
        }
    }

    /// The contact points in use.
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }

    /// The same contact seen from `b`'s side (the normal reversed).
    pub fn flipped(self) -> ContactManifold {
        ContactManifold {
            normal: -self.normal,
            ..self
        }
    }
}

/// Two colliders started touching.
///
/// As a message ([`MessageReader<CollisionStarted>`](bevy_ecs::message::MessageReader)) it
/// comes once per pair, `a` being the collider the world holds first. As an observer event
/// (`On<CollisionStarted>`) it is triggered on both entities, `a` being the observed entity
/// and `b` the other, with the manifold turned to match; a global observer therefore sees it
/// twice.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct CollisionStarted {
    /// One entity (the observed one, for observers).
    #[event_target]
    pub a: Entity,
    /// The other entity.
    pub b: Entity,
    /// Whether one of the two is a sensor.
    pub sensor: bool,
    /// The contact, normal from `a` to `b`, when
    /// [`with_manifolds`](crate::Collide2dPlugin::with_manifolds) asked for it (never for
    /// sensor pairs).
    pub manifold: Option<ContactManifold>,
    /// For a continuous collider's hit, when in the step it first touched (0 to 1).
    pub time_of_impact: Option<f32>,
}

/// Two colliders stopped touching: moved apart, removed (despawned included), disabled or
/// filtered out by a layer change; or they changed kind (a [`Sensor`](crate::Sensor) added or
/// removed), and a [`CollisionStarted`] of the other kind follows in the same step.
///
/// Delivered like [`CollisionStarted`]: one message per pair, an observer trigger on each
/// entity that still exists (`a` the observed one).
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct CollisionEnded {
    /// One entity (the observed one, for observers); possibly despawned.
    #[event_target]
    pub a: Entity,
    /// The other entity; possibly despawned.
    pub b: Entity,
    /// Whether the pair was a sensor pair.
    pub sensor: bool,
    /// Why the contact ended.
    pub reason: EndReason,
}

impl CollisionStarted {
    fn swapped(self) -> CollisionStarted {
        CollisionStarted {
            a: self.b,
            b: self.a,
            manifold: self.manifold.map(ContactManifold::flipped),
            ..self
        }
    }
}

impl CollisionEnded {
    fn swapped(self) -> CollisionEnded {
        CollisionEnded {
            a: self.b,
            b: self.a,
            ..self
        }
    }
}

/// The messages of one world event; `None` for `Stay` and for colliders that are not entities.
pub(crate) fn convert_event(
    event: &CollisionEvent,
    manifolds: bool,
) -> Option<Result<CollisionStarted, CollisionEnded>> {
    match *event {
        CollisionEvent::Begin {
            manifold,
            user_data,
            ..
        } => Some(Ok(CollisionStarted {
            a: entity_of(user_data[0])?,
            b: entity_of(user_data[1])?,
            sensor: event.is_sensor(),
            manifold: manifold
                .filter(|_| manifolds)
                .map(|m| ContactManifold::from_manifold(&m)),
            time_of_impact: event.time_of_impact(),
        })),
        CollisionEvent::End {
            reason,
            sensor,
            user_data,
            ..
        } => Some(Err(CollisionEnded {
            a: entity_of(user_data[0])?,
            b: entity_of(user_data[1])?,
            sensor,
            reason,
        })),
        CollisionEvent::Stay { .. } => None,
    }
}

/// Runs the world's update and hands its events to the game.
pub(crate) fn update_world(
    mut world: ResMut<CollisionWorld>,
    settings: Res<CollisionSettings>,
    mut started: MessageWriter<CollisionStarted>,
    mut ended: MessageWriter<CollisionEnded>,
    mut colliding: Query<&mut CollidingEntities, Allow<Disabled>>,
    alive: Query<Entity, Allow<Disabled>>,
    mut commands: Commands,
) {
    world.world.update();
    for event in world.world.events() {
        match convert_event(event, settings.manifolds) {
            Some(Ok(start)) => {
                for (me, other) in [(start.a, start.b), (start.b, start.a)] {
                    if let Ok(mut set) = colliding.get_mut(me) {
                        set.0.insert(other);
                    }
                }
                started.write(start);
                commands.trigger(start);
                commands.trigger(start.swapped());
            }
            Some(Err(end)) => {
                for (me, other) in [(end.a, end.b), (end.b, end.a)] {
                    if let Ok(mut set) = colliding.get_mut(me) {
                        set.0.remove(&other);
                    }
                }
                ended.write(end);
                if alive.contains(end.a) {
                    commands.trigger(end);
                }
                if alive.contains(end.b) {
                    commands.trigger(end.swapped());
                }
            }
            None => {}
        }
    }
}
