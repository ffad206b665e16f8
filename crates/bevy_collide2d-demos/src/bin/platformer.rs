//! A platformer on a tile map: solid ground, one-way platforms the hero jumps up through and
//! stands on, and coins picked up by touching them. The hero is a `CharacterController`;
//! arrows or A/D walk, Space jumps, Down drops through a platform. Without keys pressed an
//! autopilot walks and jumps, so the example also runs unattended (`--screenshot PATH`).

use bevy::prelude::*;
use bevy_collide2d::collide2d::level::{Tile, TileMap};
use bevy_collide2d::collide2d::world::TileGeometry;
use bevy_collide2d::collide2d::{self, LayerId};
use bevy_collide2d::prelude::*;
use bevy_collide2d::spawn_tile_map;
use bevy_collide2d_demos::{camera, demo_app};

/// `#` solid, `-` one-way platform (the tile map), `o` coin, `P` the hero. One tile is one world
/// unit.
const LEVEL: &[&str] = &[
    "#..............................#",
    "#..............................#",
    "#.......o.o.o..........o.o.....#",
    "#......-------........-----....#",
    "#..............o...............#",
    "#.............---....o.o.o.....#",
    "#...o.o.............#######....#",
    "#..-----.......................#",
    "#.................o.o..........#",
    "#..........###..-------....o...#",
    "#.P........###............###..#",
    "################################",
];

const GRAVITY: f32 = 30.0;
const JUMP_SPEED: f32 = 13.0;
const WALK_SPEED: f32 = 6.0;

#[derive(Component)]
struct Hero {
    velocity: Vec2,
    autopilot_dir: f32,
}

#[derive(Component)]
struct Coin;

#[derive(Resource, Default)]
struct Score(u32);

fn main() {
    let mut app = demo_app("bevy_collide2d: platformer");
    app.add_plugins(
        Collide2dPlugin::default()
            .with_layers(["Hero", "Ground", "Coin"])
            .with_layer_pair("Coin", "Ground", false)
            .with_layer_pair("Coin", "Coin", false),
    )
    .init_resource::<Score>()
    .add_systems(Startup, build_level)
    .add_systems(FixedUpdate, drive_hero)
    .add_systems(Update, pick_up_coins)
    .run();
}

fn tile_xy(column: usize, row: usize) -> Vec2 {
    Vec2::new(column as f32 + 0.5, (LEVEL.len() - 1 - row) as f32 + 0.5)
}

/// The level's ground and platforms as a tile map on the `Ground` layer (row 0 of `LEVEL` is
/// the top row of the map).
fn level_map(ground: LayerId) -> TileMap {
    let height = LEVEL.len();
    TileMap::from_fn(
        LEVEL[0].len() as u32,
        height as u32,
        1.0,
        collide2d::Vec2::ZERO,
        |x, y| match LEVEL[height - 1 - y as usize].as_bytes()[x as usize] {
            b'#' => Tile::SOLID.with_layer(ground),
            b'-' => Tile::SOLID.with_layer(ground).with_one_way(true),
            _ => Tile::EMPTY,
        },
    )
    .expect("a small level")
}

fn build_level(mut commands: Commands, world: Res<CollisionWorld>) {
    let width = LEVEL[0].len() as f32;
    camera(
        &mut commands,
        Vec2::new(width / 2.0, LEVEL.len() as f32 / 2.0),
        18.5,
    );
    // Ground, walls and platforms: the tile map's merged regions, one closed outline each, so
    // the hero slides along them with no seams to catch on; one-way tiles become platforms
    // the hero jumps up through.
    let ground = world.layer("Ground").expect("the plugin has the layer");
    let map = level_map(ground);
    spawn_tile_map(
        &mut commands,
        &map,
        TileGeometry::Outlines,
        world.world().layers(),
    )
    .expect("tiles on the plugin's layers");
    for (_, region) in map.regions() {
        let color = if region.tile().one_way {
            Color::srgb(0.55, 0.45, 0.3)
        } else {
            Color::srgb(0.35, 0.32, 0.45)
        };
        for rectangle in region.rectangles() {
            let (min, max) = (rectangle.min, rectangle.max);
            let size = Vec2::new(max.x - min.x, max.y - min.y);
            let centre = Vec2::new(min.x + max.x, min.y + max.y) / 2.0;
            commands.spawn((
                Sprite::from_color(color, size),
                Transform::from_translation(centre.extend(0.0)),
            ));
        }
    }
    for (row, line) in LEVEL.iter().enumerate() {
        for (column, tile) in line.bytes().enumerate() {
            let at = tile_xy(column, row);
            match tile {
                b'o' => {
                    commands.spawn((
                        Coin,
                        Collider::circle(0.25).expect("a positive radius"),
                        Sensor,
                        CollisionLayer::named("Coin"),
                        Sprite::from_color(Color::srgb(1.0, 0.85, 0.2), Vec2::splat(0.4)),
                        Transform::from_translation(at.extend(0.0)),
                    ));
                }
                b'P' => {
                    commands.spawn((
                        Hero {
                            velocity: Vec2::ZERO,
                            autopilot_dir: 1.0,
                        },
                        Collider::capsule(Vec2::new(0.0, -0.3), Vec2::new(0.0, 0.3), 0.3)
                            .expect("a valid capsule"),
                        CollisionLayer::named("Hero"),
                        CharacterController {
                            layers: bevy_collide2d::collide2d::LayerMask::ALL,
                            ..default()
                        },
                        CollidingEntities::default(),
                        Sprite::from_color(Color::srgb(0.3, 0.75, 1.0), Vec2::new(0.6, 1.2)),
                        Transform::from_translation(at.extend(1.0)),
                    ));
                }
                _ => {}
            }
        }
    }
}

fn drive_hero(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut hero: Query<(
        &mut Hero,
        &mut CharacterController,
        &CharacterState,
        &Transform,
    )>,
) {
    let dt = time.delta_secs();
    let Ok((mut hero, mut controller, state, transform)) = hero.single_mut() else {
        return;
    };
    let left = keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]);
    let right = keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]);
    let manual = left || right || keys.pressed(KeyCode::Space);
    let mut walk = (right as i32 - left as i32) as f32;
    let mut jump = keys.just_pressed(KeyCode::Space);
    let drop = keys.pressed(KeyCode::ArrowDown);
    if !manual {
        // Autopilot: walk to a wall and turn, jump now and then.
        let x = transform.translation.x;
        if x > LEVEL[0].len() as f32 - 2.5 {
            hero.autopilot_dir = -1.0;
        } else if x < 2.5 {
            hero.autopilot_dir = 1.0;
        }
        if state.on_wall {
            hero.autopilot_dir = -hero.autopilot_dir;
        }
        walk = hero.autopilot_dir;
        jump = state.on_floor && (time.elapsed_secs() % 1.3) < dt;
    }
    if state.on_floor && hero.velocity.y <= 0.0 {
        hero.velocity.y = 0.0;
    }
    if state.on_ceiling && hero.velocity.y > 0.0 {
        hero.velocity.y = 0.0;
    }
    if jump && state.on_floor {
        hero.velocity.y = JUMP_SPEED;
    }
    hero.velocity.y -= GRAVITY * dt;
    hero.velocity.x = walk * WALK_SPEED;
    controller.motion = hero.velocity * dt;
    controller.drop_through = drop;
}

fn pick_up_coins(
    mut started: MessageReader<CollisionStarted>,
    coins: Query<(), With<Coin>>,
    mut score: ResMut<Score>,
    mut commands: Commands,
) {
    for event in started.read() {
        for coin in [event.a, event.b] {
            if coins.contains(coin) {
                commands.entity(coin).despawn();
                score.0 += 1;
            }
        }
    }
}
