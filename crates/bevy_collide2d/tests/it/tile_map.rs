//! Tile maps spawned as collider entities: the library's colliders, walked on, jumped through.

use bevy_collide2d::prelude::*;
use bevy_collide2d::{spawn_tile_map, TileRegion};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_transform::components::Transform;
use collide2d::level::{Tile, TileMap};
use collide2d::world::{Layers, TileGeometry, TileMapColliders, World, WorldError};

use crate::support::{app, step};

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

fn layers(app: &bevy_app::App) -> Layers {
    app.world()
        .resource::<CollisionWorld>()
        .world()
        .layers()
        .clone()
}

/// Spawns the map's colliders in the app, then steps once so they reach the collision world.
fn spawn(
    app: &mut bevy_app::App,
    map: &TileMap,
    geometry: TileGeometry,
) -> Result<Vec<Entity>, WorldError> {
    let layers = layers(app);
    let world = app.world_mut();
    let mut commands = world.commands();
    let entities = spawn_tile_map(&mut commands, map, geometry, &layers);
    world.flush();
    step(app);
    entities
}

/// Every collider of a world as (layer, one-way margin, AABB), sorted: what a tile collider is.
fn summary(world: &World) -> Vec<(usize, Option<u32>, [u32; 4])> {
    let mut all: Vec<_> = world
        .iter()
        .map(|(_, c)| {
            let b = c.aabb();
            (
                c.layer().index(),
                c.one_way().map(|o| {
                    assert_eq!((o.direction.x, o.direction.y), (0.0, 1.0));
                    o.margin.to_bits()
                }),
                [b.min.x, b.min.y, b.max.x, b.max.y].map(f32::to_bits),
            )
        })
        .collect();
    all.sort_unstable();
    all
}

/// A seeded map on layers `default`, `A`, `B` and `C`, some tiles one-way, with holes.
fn random_map(seed: u64, layers: &Layers) -> TileMap {
    let mut rng = Rng(seed);
    let (width, height) = (4 + rng.below(20) as u32, 3 + rng.below(12) as u32);
    let cell = [0.5, 1.0, 16.0][rng.below(3) as usize];
    let ids: Vec<_> = layers.iter().map(|(id, _)| id).collect();
    let tiles: Vec<Tile> = (0..width * height)
        .map(|_| match rng.below(10) {
            0..=4 => Tile::EMPTY,
            5..=7 => Tile::SOLID.with_layer(ids[1]),
            8 => Tile::SOLID
                .with_layer(ids[rng.below(ids.len() as u64) as usize])
                .with_one_way(true),
            _ => Tile::SOLID.with_layer(ids[3]),
        })
        .collect();
    TileMap::from_fn(
        width,
        height,
        cell,
        collide2d::Vec2::new(-3.0, 2.0),
        |x, y| tiles[(y * width + x) as usize],
    )
    .unwrap()
}

#[test]
fn a_maps_regions_become_the_colliders_the_library_world_gets() {
    for seed in 1..=40u64 {
        for geometry in [TileGeometry::Outlines, TileGeometry::Rectangles] {
            let mut app = app();
            let map = random_map(seed, &layers(&app));
            let mut reference = World::new();
            *reference.layers_mut() = layers(&app);
            let library = TileMapColliders::insert(&mut reference, &map, geometry).unwrap();

            let entities = spawn(&mut app, &map, geometry).unwrap();
            assert_eq!(entities.len(), library.len(), "seed {seed} {geometry:?}");
            let world = app.world().resource::<CollisionWorld>();
            assert!(world.errors().is_empty(), "{:?}", world.errors());
            assert_eq!(
                summary(world.world()),
                summary(&reference),
                "seed {seed} {geometry:?}: same layers, one-way margins and bounds"
            );
            // Every entity names its region, and the region has that many colliders.
            for &entity in &entities {
                let region = app.world().get::<TileRegion>(entity).unwrap().0;
                let count = entities
                    .iter()
                    .filter(|&&e| app.world().get::<TileRegion>(e).unwrap().0 == region)
                    .count();
                assert_eq!(count, library.region_colliders(region).len());
            }
        }
    }
}

#[test]
fn a_tile_on_a_layer_the_plugin_lacks_is_refused_and_nothing_spawns() {
    let mut app = app();
    let before = app.world().entities().count_spawned();
    let unknown = collide2d::LayerId::new(9).unwrap();
    let map = TileMap::from_fn(4, 2, 1.0, collide2d::Vec2::ZERO, |x, _| {
        if x == 3 {
            Tile::SOLID.with_layer(unknown)
        } else {
            Tile::SOLID
        }
    })
    .unwrap();
    let result = spawn(&mut app, &map, TileGeometry::Outlines);
    assert_eq!(result, Err(WorldError::InvalidLayer(unknown)));
    assert_eq!(app.world().entities().count_spawned(), before);
}

/// A capsule character 1.2 high standing with its bottom at `(x, y)`.
fn hero(app: &mut bevy_app::App, x: f32, y: f32) -> Entity {
    app.world_mut()
        .spawn((
            Collider::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3).unwrap(),
            Transform::from_xyz(x, y + 0.6, 0.0),
            CharacterController::default(),
        ))
        .id()
}

fn walk(app: &mut bevy_app::App, hero: Entity, motion: Vec2) -> CharacterState {
    app.world_mut()
        .get_mut::<CharacterController>(hero)
        .unwrap()
        .motion = motion;
    step(app);
    app.world().get::<CharacterState>(hero).unwrap().clone()
}

fn position(app: &bevy_app::App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .unwrap()
        .translation
        .truncate()
}

#[test]
fn a_character_walks_a_merged_floor_of_many_tiles_without_a_wall_hit() {
    // A floor 60 tiles long over a toothed underside (every other column two tiles deep), and a
    // wall at its right end, 5 tiles high: one region, one outline, no seams along the top.
    let mut app = app();
    let map = TileMap::from_fn(60, 8, 1.0, collide2d::Vec2::ZERO, |x, y| {
        if y == 1 || (y == 0 && x % 2 == 0) || (x == 59 && y < 7) {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    let ground = spawn(&mut app, &map, TileGeometry::Outlines).unwrap();
    assert_eq!(
        ground.len(),
        1,
        "floor, teeth and wall merge into one outline"
    );
    let hero = hero(&mut app, 1.5, 2.0);
    step(&mut app);
    let mut steps = 0;
    let state = loop {
        let state = walk(&mut app, hero, Vec2::new(0.2, -0.05));
        steps += 1;
        if state.on_wall || steps == 400 {
            break state;
        }
        assert!(state.on_floor, "step {steps}: {state:?}");
        assert_eq!(state.floor, Some(ground[0]));
        let at = position(&app, hero);
        assert!(
            (at.y - 2.6).abs() < 0.05,
            "step {steps}: on the floor's top: {at}"
        );
    };
    // The only wall hit is the real wall: the capsule (radius 0.3) stops at x = 59 - 0.3.
    assert!(state.on_wall, "{state:?}");
    let at = position(&app, hero);
    assert!(
        (at.x - 58.7).abs() < 0.05,
        "stopped by the wall at its face: {at}"
    );
}

#[test]
fn a_one_way_platform_is_passed_from_below_and_stood_on_from_above() {
    let mut app = app();
    // Solid floor row 0; a one-way platform on row 4 (cells 4..5), columns 2..12.
    let map = TileMap::from_fn(14, 8, 1.0, collide2d::Vec2::ZERO, |x, y| match y {
        0 => Tile::SOLID,
        4 if (2..12).contains(&x) => Tile::SOLID.with_one_way(true),
        _ => Tile::EMPTY,
    })
    .unwrap();
    let entities = spawn(&mut app, &map, TileGeometry::Outlines).unwrap();
    assert_eq!(entities.len(), 2);
    let platform = entities
        .iter()
        .copied()
        .find(|&e| app.world().get::<Collider>(e).unwrap().one_way().is_some())
        .unwrap();
    assert_eq!(
        app.world().get::<Collider>(platform).unwrap().one_way(),
        Some((Vec2::Y, 0.25))
    );
    let hero = hero(&mut app, 6.5, 1.0);
    step(&mut app);
    // Up through the platform from below: nothing stops the jump.
    for i in 0..12 {
        let state = walk(&mut app, hero, Vec2::new(0.0, 0.5));
        assert!(!state.on_ceiling, "jump step {i}: {state:?}");
        assert!(
            (state.moved.y - 0.5).abs() < 1e-4,
            "jump step {i}: {state:?}"
        );
    }
    assert!(position(&app, hero).y > 5.6, "above the platform");
    // Down onto it: it holds.
    let mut state = CharacterState::default();
    for _ in 0..20 {
        state = walk(&mut app, hero, Vec2::new(0.0, -0.5));
    }
    assert!(state.on_floor, "{state:?}");
    assert_eq!(state.floor, Some(platform));
    let at = position(&app, hero);
    assert!(
        (at.y - 5.6).abs() < 0.05,
        "standing on the platform's top: {at}"
    );
    // Dropping through it lands on the floor.
    app.world_mut()
        .get_mut::<CharacterController>(hero)
        .unwrap()
        .drop_through = true;
    walk(&mut app, hero, Vec2::new(0.0, -0.5));
    for _ in 0..20 {
        state = walk(&mut app, hero, Vec2::new(0.0, -0.5));
    }
    assert!(state.on_floor && state.floor != Some(platform), "{state:?}");
    assert!((position(&app, hero).y - 1.6).abs() < 0.05);
}
