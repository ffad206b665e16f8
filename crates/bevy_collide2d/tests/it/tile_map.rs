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

/// A map 1e5 and 5e4 units out: a floor row 800 tiles long, a one-way platform and a block
/// on layer `C`, so a few regions of either geometry.
fn far_map(app: &bevy_app::App, origin: collide2d::Vec2) -> TileMap {
    let c = app.world().resource::<CollisionWorld>().layer("C").unwrap();
    TileMap::from_fn(800, 6, 1.0, origin, |x, y| match y {
        0 => Tile::SOLID,
        3 if (20..40).contains(&x) => Tile::SOLID.with_one_way(true),
        1 | 2 if (60..63).contains(&x) => Tile::SOLID.with_layer(c),
        _ => Tile::EMPTY,
    })
    .unwrap()
}

/// The tile colliders far out hold shapes in coordinates the size of the map (no farther from
/// their entity than the map is long), their entities sit on the map at a tile corner, and
/// each is, bit for bit, the collider `TileMapColliders` inserts in a plain world: the same
/// placement and the same shape bounds about it.
#[test]
fn tile_colliders_far_out_hold_small_shapes_placed_by_their_transform() {
    let origin = collide2d::Vec2::new(1.0e5, 5.0e4);
    for geometry in [TileGeometry::Outlines, TileGeometry::Rectangles] {
        let mut app = app();
        let map = far_map(&app, origin);
        let mut reference = World::new();
        *reference.layers_mut() = layers(&app);
        let library = TileMapColliders::insert(&mut reference, &map, geometry).unwrap();
        let entities = spawn(&mut app, &map, geometry).unwrap();
        assert_eq!(entities.len(), library.len(), "{geometry:?}");
        assert!(entities.len() >= 3, "{geometry:?}: {}", entities.len());
        let identity = collide2d::Transform::IDENTITY;
        let mut spawned = Vec::new();
        for &entity in &entities {
            let local = app
                .world()
                .get::<Collider>(entity)
                .unwrap()
                .shape()
                .aabb(&identity);
            let at = position(&app, entity);
            assert!(
                [local.min.x, local.min.y, local.max.x, local.max.y]
                    .iter()
                    .all(|c| c.abs() <= 800.0),
                "{geometry:?}: a shape in world coordinates: {local:?}"
            );
            assert!(
                (origin.x..=origin.x + 800.0).contains(&at.x)
                    && (origin.y..=origin.y + 6.0).contains(&at.y)
                    && at.x.fract() == 0.0
                    && at.y.fract() == 0.0,
                "{geometry:?}: the entity is not at a tile corner of the map: {at}"
            );
            spawned.push(
                [
                    at.x,
                    at.y,
                    local.min.x,
                    local.min.y,
                    local.max.x,
                    local.max.y,
                ]
                .map(f32::to_bits),
            );
        }
        let mut expected: Vec<_> = library
            .handles()
            .map(|handle| {
                let c = reference.get(handle).unwrap();
                let p = c.transform().p;
                let b = c.shape().aabb(&identity);
                [p.x, p.y, b.min.x, b.min.y, b.max.x, b.max.y].map(f32::to_bits)
            })
            .collect();
        spawned.sort_unstable();
        expected.sort_unstable();
        assert_eq!(spawned, expected, "{geometry:?}");
        let world = app.world().resource::<CollisionWorld>();
        assert!(world.errors().is_empty(), "{:?}", world.errors());
        assert_eq!(summary(world.world()), summary(&reference), "{geometry:?}");
    }
}

/// The library's far-out walk (`mover_edges`) through the plugin: a 0.53-unit box walking 3.4
/// a step along a flat tile floor 1e5 units out, where the library's tile colliders once held
/// world coordinates and threw the box up. Every step moves the full distance, on the floor
/// (its normal up), within two skins of its top.
#[test]
fn a_character_walks_a_tile_floor_level_far_from_the_origin() {
    let origin = collide2d::Vec2::new(1.0e5, 5.0e4);
    // The skin a move keeps here: the controller's, but at least four spacings of the
    // character's coordinates (the rule `MoveOptions` states): 0.031 1e5 out.
    let skin = CharacterController::default()
        .skin
        .max(4.0 * ulp(origin.x + 5.0 + 200.0 * 3.4));
    for geometry in [TileGeometry::Outlines, TileGeometry::Rectangles] {
        let mut app = app();
        let map = TileMap::from_fn(
            800,
            2,
            1.0,
            origin - collide2d::Vec2::new(5.0, 1.0),
            |_, y| {
                if y == 0 {
                    Tile::SOLID
                } else {
                    Tile::EMPTY
                }
            },
        )
        .unwrap();
        spawn(&mut app, &map, geometry).unwrap();
        let size = 0.5305471;
        let hero = app
            .world_mut()
            .spawn((
                Collider::rect(size, size).unwrap(),
                Transform::from_xyz(origin.x + 0.3, origin.y + 0.5 * size + 0.5 * skin, 0.0),
                CharacterController::default(),
            ))
            .id();
        step(&mut app);
        for call in 0..200 {
            let state = walk(&mut app, hero, Vec2::new(3.3990808, -0.01));
            let gap = position(&app, hero).y - 0.5 * size - origin.y;
            assert!(
                (state.moved.x - 3.3990808).abs() <= 1.0 / 64.0
                    && state.on_floor
                    && level(&state)
                    && (0.0..=2.0 * skin).contains(&gap),
                "{geometry:?} step {call}: {gap} above the floor, {state:?}"
            );
        }
        let world = app.world().resource::<CollisionWorld>();
        assert!(world.errors().is_empty(), "{:?}", world.errors());
    }
}

/// Whether the state's floor normal is up, to 1e-6 (a flat floor's is exactly up when its
/// shape is built about a corner near it).
fn level(state: &CharacterState) -> bool {
    state
        .floor_normal
        .is_some_and(|n| n.x.abs() <= 1.0e-6 && (n.y - 1.0).abs() <= 1.0e-6)
}

/// The spacing of `f32` values at `x`.
fn ulp(x: f32) -> f32 {
    let x = x.abs().max(f32::MIN_POSITIVE);
    f32::from_bits(x.to_bits() + 1) - x
}

impl Rng {
    /// A size between `lo` and `hi`, evenly spread on a log scale.
    fn log_size(&mut self, lo: f32, hi: f32) -> f32 {
        let u = self.below(1 << 24) as f32 / (1u32 << 24) as f32;
        lo * (hi / lo).powf(u)
    }
}

/// One walk along a flat tile floor: what it is.
#[derive(Clone, Copy, Debug)]
struct FloorWalk {
    geometry: TileGeometry,
    /// 0: a box, 1: a circle, 2: a capsule, `size` tall.
    body: u64,
    size: f32,
    tile: f32,
    offset: f32,
    /// Along x, a step (negative: to the left).
    speed: f32,
    /// Down, a step.
    gravity: f32,
}

const WALK_STEPS: usize = 200;

/// Walks `walk` for 200 steps: every step moves the requested distance along the floor (to
/// 1e-3 of it plus two ulps of the position), ends on the floor with no wall hit and the
/// floor's normal up, within two skins of its top.
fn check_floor_walk(walk: FloorWalk) {
    let FloorWalk {
        geometry,
        body,
        size,
        tile,
        offset,
        speed,
        gravity,
    } = walk;
    let collider = match body {
        0 => Collider::rect(size, size),
        1 => Collider::circle(0.5 * size),
        _ => Collider::capsule(
            Vec2::new(0.0, -0.25 * size),
            Vec2::new(0.0, 0.25 * size),
            0.25 * size,
        ),
    }
    .unwrap();
    let origin = collide2d::Vec2::new(offset, 0.5 * offset);
    let length = speed.abs() * WALK_STEPS as f32 + 4.0 * size + 4.0;
    let cells = (length / tile).ceil() as u32 + 2;
    let map_origin = origin - collide2d::Vec2::new(tile, tile);
    let top = map_origin.y + tile;
    let map = TileMap::from_fn(cells, 2, tile, map_origin, |_, y| {
        if y == 0 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    // The skin a move keeps: the controller's, held to a fiftieth of the body's smallest extent
    // and to at least four spacings of its coordinates (the rule `MoveOptions` states).
    let smallest = if body == 2 { 0.5 * size } else { size };
    let reach = ulp(origin.x.abs().max(origin.y.abs()) + length);
    let skin = CharacterController::default()
        .skin
        .min(0.02 * smallest)
        .max(4.0 * reach)
        .max(64.0 * f32::EPSILON * size);
    let mut app = app();
    spawn(&mut app, &map, geometry).unwrap();
    let start_x = if speed > 0.0 {
        origin.x + size
    } else {
        origin.x + length - size
    };
    let hero = app
        .world_mut()
        .spawn((
            collider,
            Transform::from_xyz(start_x, top + 0.5 * size + 0.5 * skin, 0.0),
            CharacterController::default(),
        ))
        .id();
    step(&mut app);
    let rounding_x = 2.0 * ulp(origin.x + length);
    let rounding_y = 2.0 * ulp(top + size);
    let mut before = position(&app, hero).x;
    for call in 0..WALK_STEPS {
        let state = self::walk(&mut app, hero, Vec2::new(speed, -gravity));
        let at = position(&app, hero);
        let gap = at.y - 0.5 * size - top;
        let made = at.x - before;
        before = at.x;
        assert!(
            (made - speed).abs() <= 1.0e-3 * speed.abs() + rounding_x,
            "{walk:?}: step {call} moved {made}: {state:?}"
        );
        assert!(
            state.on_floor && !state.on_wall && level(&state),
            "{walk:?}: step {call}: {state:?}"
        );
        assert!(
            (-rounding_y..=2.0 * skin + rounding_y).contains(&gap),
            "{walk:?}: step {call} ends {gap} above the floor: {state:?}"
        );
    }
    let world = app.world().resource::<CollisionWorld>();
    assert!(world.errors().is_empty(), "{walk:?}: {:?}", world.errors());
}

/// A 0.24 box walking 9.0 a step to the left, with as much gravity, along a floor of 0.3 tiles
/// as one box 1,805 long, 1e5 units out: with the box built in world coordinates, the floor
/// normal of the last step leant by 1.6e-4 on the flat top.
#[test]
fn a_box_on_a_long_tile_box_far_out_finds_the_floor_level() {
    check_floor_walk(FloorWalk {
        geometry: TileGeometry::Rectangles,
        body: 0,
        size: 0.24359336,
        tile: 0.3,
        offset: 1.0e5,
        speed: -9.0035,
        gravity: 9.0035,
    });
}

/// Seeded walks along a flat tile floor (either geometry, cells 0.3 to 2) at offsets 0, 1e3
/// and 1e5: a box, circle or capsule 0.1 to 10 units tall walking either way at 16 ulps of its
/// position (at least 1e-4) to 10 units a step, under no gravity or up to as much as its speed
/// ([`check_floor_walk`]).
#[test]
fn characters_walk_tile_floors_level_at_any_offset() {
    let mut rng = Rng(0x5eed_711e);
    for case in 0..300usize {
        let offset = [0.0f32, 1.0e3, 1.0e5][case % 3];
        let geometry = [TileGeometry::Outlines, TileGeometry::Rectangles][case / 3 % 2];
        let slowest = (16.0 * ulp(offset)).max(1.0e-4);
        let speed = rng.log_size(slowest, 10.0) * [1.0, -1.0][rng.below(2) as usize];
        let gravity = [0.0, 0.01, 0.1 * speed.abs(), speed.abs()][rng.below(4) as usize];
        let size = rng.log_size(0.1, 10.0);
        let tile = [1.0f32, 0.5, 2.0, 0.3][rng.below(4) as usize];
        let body = rng.below(3);
        check_floor_walk(FloorWalk {
            geometry,
            body,
            size,
            tile,
            offset,
            speed,
            gravity,
        });
    }
}

/// Edits far out, as the docs of `spawn_tile_map` describe them: after each `set_tile`, the
/// entities of the removed regions are despawned and the colliders of the added ones spawned.
/// The entities keep small shapes placed by their transform, and the collision world holds,
/// bit for bit, the colliders `TileMapColliders::apply` leaves in a plain world.
#[test]
fn edits_far_out_respawn_the_regions_placed_like_the_library() {
    let origin = collide2d::Vec2::new(1.0e5, 5.0e4);
    for geometry in [TileGeometry::Outlines, TileGeometry::Rectangles] {
        let mut app = app();
        let mut map = far_map(&app, origin);
        let mut reference = World::new();
        *reference.layers_mut() = layers(&app);
        let mut library = TileMapColliders::insert(&mut reference, &map, geometry).unwrap();
        spawn(&mut app, &map, geometry).unwrap();
        let mut rng = Rng(7);
        for edit in 0..40 {
            let (x, y) = (rng.below(80) as u32, rng.below(5) as u32);
            let tile = if rng.below(2) == 0 {
                Tile::EMPTY
            } else {
                Tile::SOLID
            };
            let change = map.set_tile(x, y, tile).unwrap();
            library.apply(&mut reference, &map, &change).unwrap();
            let gone: Vec<Entity> = app
                .world_mut()
                .query::<(Entity, &TileRegion)>()
                .iter(app.world())
                .filter(|(_, region)| change.removed.contains(&region.0))
                .map(|(entity, _)| entity)
                .collect();
            for entity in gone {
                app.world_mut().despawn(entity);
            }
            let added: Vec<_> = bevy_collide2d::tile_map_colliders(&map, geometry, &layers(&app))
                .unwrap()
                .into_iter()
                .filter(|(region, ..)| change.added.contains(&region.0))
                .collect();
            for parts in added {
                let at = parts.3.translation;
                let local = parts.1.shape().aabb(&collide2d::Transform::IDENTITY);
                assert!(
                    local.min.x.abs().max(local.max.x.abs()) <= 800.0
                        && local.min.y.abs().max(local.max.y.abs()) <= 6.0
                        && (origin.x..=origin.x + 800.0).contains(&at.x),
                    "{geometry:?} edit {edit}: {local:?} at {at}"
                );
                app.world_mut().spawn(parts);
            }
            step(&mut app);
            let world = app.world().resource::<CollisionWorld>();
            assert!(world.errors().is_empty(), "{:?}", world.errors());
            assert_eq!(
                summary(world.world()),
                summary(&reference),
                "{geometry:?} edit {edit} at ({x}, {y})"
            );
            let mut placed: Vec<_> = world
                .world()
                .iter()
                .map(|(_, c)| c.transform().p.to_array().map(f32::to_bits))
                .collect();
            let mut expected: Vec<_> = reference
                .iter()
                .map(|(_, c)| c.transform().p.to_array().map(f32::to_bits))
                .collect();
            placed.sort_unstable();
            expected.sort_unstable();
            assert_eq!(placed, expected, "{geometry:?} edit {edit}");
        }
    }
}
