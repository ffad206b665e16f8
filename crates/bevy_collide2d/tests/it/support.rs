//! Headless apps and their messages.

use bevy_app::{App, PostUpdate};
use bevy_collide2d::prelude::*;
use bevy_ecs::message::Messages;
use bevy_ecs::prelude::Entity;
use collide2d::world::CollisionEvent;

/// An app with transform propagation and the plugin in `PostUpdate` (one step per update),
/// layers `A`, `B`, `C`; `A` and `B` do not collide.
pub fn app() -> App {
    app_with(
        Collide2dPlugin::new(PostUpdate)
            .with_layers(["A", "B", "C"])
            .with_layer_pair("A", "B", false)
            .with_manifolds(true),
    )
}

/// An app with transform propagation and `plugin`.
pub fn app_with(plugin: Collide2dPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((bevy_transform::TransformPlugin, plugin));
    app
}

/// Runs one update and returns the started and ended messages it wrote.
pub fn step(app: &mut App) -> (Vec<CollisionStarted>, Vec<CollisionEnded>) {
    app.update();
    drain_messages(app)
}

/// Takes the started and ended messages written so far.
pub fn drain_messages(app: &mut App) -> (Vec<CollisionStarted>, Vec<CollisionEnded>) {
    let world = app.world_mut();
    let started = world
        .resource_mut::<Messages<CollisionStarted>>()
        .drain()
        .collect();
    let ended = world
        .resource_mut::<Messages<CollisionEnded>>()
        .drain()
        .collect();
    (started, ended)
}

/// The started messages' pairs.
pub fn pairs(
    started: &[CollisionStarted],
) -> Vec<(bevy_ecs::entity::Entity, bevy_ecs::entity::Entity)> {
    started.iter().map(|s| (s.a, s.b)).collect()
}

/// xorshift64*: small, seeded, reproducible.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// Where the plugin's `World` places `entity`'s collider (its world transform's position).
pub fn placed_position(app: &App, entity: bevy_ecs::entity::Entity) -> collide2d::Vec2 {
    let world = app.world().resource::<CollisionWorld>();
    world
        .world()
        .get(world.handle(entity).unwrap())
        .unwrap()
        .world_transform()
        .p
}

/// `entity`'s `GlobalTransform` translation, as transform propagation left it.
pub fn global_translation(app: &App, entity: bevy_ecs::entity::Entity) -> bevy_math::Vec3 {
    app.world()
        .get::<bevy_transform::components::GlobalTransform>(entity)
        .unwrap()
        .translation()
}

/// The messages the plugin writes for a plain world's last update (`Stay` off), colliders'
/// user data being their entities' bits: what a reference world built by hand must match.
pub fn messages_of(world: &collide2d::World) -> (Vec<CollisionStarted>, Vec<CollisionEnded>) {
    let mut started = Vec::new();
    let mut ended = Vec::new();
    for event in world.events() {
        let [a, b] = event.user_data().unwrap().map(Entity::from_bits);
        match *event {
            CollisionEvent::Begin { manifold, .. } => started.push(CollisionStarted {
                a,
                b,
                sensor: event.is_sensor(),
                manifold: manifold.map(|m| ContactManifold::from_manifold(&m)),
                time_of_impact: event.time_of_impact(),
            }),
            CollisionEvent::End { reason, sensor, .. } => ended.push(CollisionEnded {
                a,
                b,
                sensor,
                reason,
            }),
            CollisionEvent::Stay { .. } => unreachable!("stay events are off"),
        }
    }
    (started, ended)
}
