//! Headless apps and their messages.

use bevy_app::{App, PostUpdate};
use bevy_collide2d::prelude::*;
use bevy_ecs::message::Messages;

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
