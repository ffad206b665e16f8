//! Tile maps as collider entities: each merged region becomes one entity per outline or box.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::system::Commands;
use bevy_math::Vec2;
use bevy_transform::components::Transform;
use collide2d::level::{RegionId, TileMap};
use collide2d::world::{Layers, TileGeometry, WorldError};

use crate::components::{Collider, CollisionLayer};

/// The region of a tile map an entity's collider stands for (see [`spawn_tile_map`]); with
/// `map.region(id)` a game finds the tile under a contact.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileRegion(pub RegionId);

/// The colliders for every region of `map`, region by region, as [`TileMapColliders`] builds
/// them in a library world: a closed chain per outline ([`TileGeometry::Outlines`]) or a box
/// per merged rectangle ([`TileGeometry::Rectangles`]), one-way upwards with a margin of a
/// quarter of a cell when the region's tiles are one-way, on the layer named by `layers` for
/// the tile's [`LayerId`].
///
/// Each shape is about its own first corner, and its `Transform` places it there
/// ([`TileGeometry::anchored_region_shapes`]): queries against it compute in coordinates the
/// size of the shape, so a map far from the origin keeps their precision (shapes in world
/// coordinates at the origin would not). Spawned at the root, the entity covers the region's
/// tiles; under a parent, the map moves with it.
///
/// A tile's layer is the id of a layer the plugin was given (as
/// [`CollisionWorld::layer`](crate::CollisionWorld::layer) returns it); an id `layers` does not
/// name is refused with [`WorldError::InvalidLayer`].
///
/// [`TileMapColliders`]: collide2d::world::TileMapColliders
/// [`LayerId`]: collide2d::LayerId
pub fn tile_map_colliders(
    map: &TileMap,
    geometry: TileGeometry,
    layers: &Layers,
) -> Result<Vec<(TileRegion, Collider, CollisionLayer, Transform)>, WorldError> {
    let mut colliders = Vec::new();
    for (id, region) in map.regions() {
        let tile = region.tile();
        let name = layers
            .name(tile.layer)
            .ok_or(WorldError::InvalidLayer(tile.layer))?;
        for (anchor, shape) in geometry.anchored_region_shapes(region)? {
            let mut collider = Collider::new(shape);
            if tile.one_way {
                collider = collider.with_one_way(Vec2::Y, 0.25 * map.cell_size());
            }
            colliders.push((
                TileRegion(id),
                collider,
                CollisionLayer::named(name.to_string()),
                Transform::from_xyz(anchor.x, anchor.y, 0.0),
            ));
        }
    }
    Ok(colliders)
}

/// Spawns [`tile_map_colliders`] as entities (each with its [`TileRegion`], [`Collider`],
/// [`CollisionLayer`] and the `Transform` placing its shape) and returns them; on error nothing
/// is spawned.
///
/// The entities are static ground like any other collider: move or despawn them as usual. To
/// edit the map, despawn the entities of the regions a [`TileMap::set_tile`] removed and spawn
/// those it added (or all of them again).
///
/// ```
/// use bevy_app::{App, PostUpdate};
/// use bevy_ecs::prelude::*;
/// use bevy_collide2d::prelude::*;
/// use bevy_collide2d::{spawn_tile_map, collide2d};
/// use collide2d::level::{Tile, TileMap};
/// use collide2d::world::TileGeometry;
///
/// let mut app = App::new();
/// app.add_plugins((bevy_transform::TransformPlugin, Collide2dPlugin::new(PostUpdate).with_layers(["Ground"])));
/// let ground = app.world().resource::<CollisionWorld>().layer("Ground")?;
/// // A floor 100 tiles long and a wall 5 tiles high at its right end: one region, one outline.
/// let map = TileMap::from_fn(100, 6, 1.0, collide2d::Vec2::ZERO, |x, y| {
///     if y == 0 || x == 99 { Tile::SOLID.with_layer(ground) } else { Tile::EMPTY }
/// })?;
/// let world = app.world_mut();
/// let layers = world.resource::<CollisionWorld>().world().layers().clone();
/// let mut commands = world.commands();
/// let entities = spawn_tile_map(&mut commands, &map, TileGeometry::Outlines, &layers)?;
/// world.flush();
/// assert_eq!(entities.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn spawn_tile_map(
    commands: &mut Commands,
    map: &TileMap,
    geometry: TileGeometry,
    layers: &Layers,
) -> Result<Vec<Entity>, WorldError> {
    let colliders = tile_map_colliders(map, geometry, layers)?;
    Ok(colliders
        .into_iter()
        .map(|parts| commands.spawn(parts).id())
        .collect())
}
