//! A top-down shooter: a turret in an arena of thin walls fires fast bullets at wandering
//! enemies. Bullets are continuous sensors, so at 90 units per second against 0.2-unit walls
//! they hit instead of passing through between steps. The mouse aims and the left button fires
//! when used; otherwise the turret turns and fires on its own (`--screenshot PATH` works
//! unattended).

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_collide2d::prelude::*;
use bevy_collide2d_demos::{camera, demo_app};

const ARENA: Vec2 = Vec2::new(32.0, 18.0);
const BULLET_SPEED: f32 = 90.0;
const ENEMIES: usize = 14;

#[derive(Component)]
struct Turret {
    cooldown: f32,
}

#[derive(Component)]
struct Bullet {
    velocity: Vec2,
    age: f32,
}

#[derive(Component)]
struct Enemy {
    velocity: Vec2,
}

#[derive(Component)]
struct Wall;

#[derive(Resource)]
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn main() {
    let mut app = demo_app("bevy_collide2d: shooter");
    app.add_plugins(
        Collide2dPlugin::default()
            .with_layers(["Turret", "Bullet", "Enemy", "Wall"])
            .with_layer_pair("Bullet", "Bullet", false)
            .with_layer_pair("Bullet", "Turret", false)
            .with_layer_pair("Enemy", "Enemy", false)
            .with_layer_pair("Wall", "Wall", false),
    )
    .insert_resource(Rng(0x2545_f491_4f6c_dd1d))
    .add_systems(Startup, build_arena)
    .add_systems(FixedUpdate, (aim_and_fire, fly, wander))
    .add_systems(Update, resolve_hits)
    .run();
}

fn wall(commands: &mut Commands, centre: Vec2, size: Vec2, angle: f32) {
    commands.spawn((
        Wall,
        Collider::rect(size.x, size.y).expect("a positive size"),
        CollisionLayer::named("Wall"),
        Sprite::from_color(Color::srgb(0.45, 0.45, 0.55), size),
        Transform::from_translation(centre.extend(0.0)).with_rotation(Quat::from_rotation_z(angle)),
    ));
}

fn build_arena(mut commands: Commands, mut rng: ResMut<Rng>) {
    camera(&mut commands, Vec2::ZERO, ARENA.y + 2.0);
    let (hx, hy) = (ARENA.x / 2.0, ARENA.y / 2.0);
    wall(
        &mut commands,
        Vec2::new(0.0, hy),
        Vec2::new(ARENA.x, 0.2),
        0.0,
    );
    wall(
        &mut commands,
        Vec2::new(0.0, -hy),
        Vec2::new(ARENA.x, 0.2),
        0.0,
    );
    wall(
        &mut commands,
        Vec2::new(hx, 0.0),
        Vec2::new(0.2, ARENA.y),
        0.0,
    );
    wall(
        &mut commands,
        Vec2::new(-hx, 0.0),
        Vec2::new(0.2, ARENA.y),
        0.0,
    );
    // Thin inner walls, some turned.
    wall(
        &mut commands,
        Vec2::new(-8.0, 3.0),
        Vec2::new(5.0, 0.2),
        0.4,
    );
    wall(
        &mut commands,
        Vec2::new(8.0, -3.0),
        Vec2::new(5.0, 0.2),
        -0.4,
    );
    wall(&mut commands, Vec2::new(6.0, 5.0), Vec2::new(0.2, 4.0), 0.0);
    wall(
        &mut commands,
        Vec2::new(-6.0, -5.0),
        Vec2::new(0.2, 4.0),
        0.0,
    );

    commands.spawn((
        Turret { cooldown: 0.0 },
        Collider::circle(0.6).expect("a positive radius"),
        CollisionLayer::named("Turret"),
        Sprite::from_color(Color::srgb(0.3, 0.75, 1.0), Vec2::new(1.4, 0.5)),
        Transform::default(),
    ));
    for _ in 0..ENEMIES {
        spawn_enemy(&mut commands, &mut rng);
    }
}

fn spawn_enemy(commands: &mut Commands, rng: &mut Rng) {
    let at = Vec2::new(
        (rng.unit() - 0.5) * (ARENA.x - 3.0),
        (rng.unit() - 0.5) * (ARENA.y - 3.0),
    );
    let at = if at.length() < 4.0 {
        at.normalize_or(Vec2::X) * 6.0
    } else {
        at
    };
    let angle = rng.unit() * std::f32::consts::TAU;
    commands.spawn((
        Enemy {
            velocity: Vec2::from_angle(angle) * 2.5,
        },
        Collider::circle(0.45).expect("a positive radius"),
        CollisionLayer::named("Enemy"),
        Sprite::from_color(Color::srgb(0.9, 0.35, 0.4), Vec2::splat(0.7)),
        Transform::from_translation(at.extend(0.0)),
    ));
}

fn aim_and_fire(
    time: Res<Time>,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    mut turret: Query<(&mut Turret, &mut Transform)>,
    mut commands: Commands,
) {
    let Ok((mut turret, mut transform)) = turret.single_mut() else {
        return;
    };
    let cursor = window
        .single()
        .ok()
        .and_then(|w| w.cursor_position())
        .and_then(|p| {
            let (camera, at) = cameras.single().ok()?;
            camera.viewport_to_world_2d(at, p).ok()
        });
    let manual = buttons.pressed(MouseButton::Left);
    let direction = match cursor.filter(|_| manual) {
        Some(target) => (target - transform.translation.truncate()).normalize_or(Vec2::X),
        None => Vec2::from_angle(time.elapsed_secs() * 0.9),
    };
    transform.rotation = Quat::from_rotation_z(direction.to_angle());
    turret.cooldown -= time.delta_secs();
    if turret.cooldown <= 0.0 {
        turret.cooldown = 0.12;
        let start = transform.translation.truncate() + direction * 0.9;
        commands.spawn((
            Bullet {
                velocity: direction * BULLET_SPEED,
                age: 0.0,
            },
            Collider::circle(0.08)
                .expect("a positive radius")
                .with_continuous(true),
            Sensor,
            CollisionLayer::named("Bullet"),
            Sprite::from_color(Color::srgb(1.0, 0.9, 0.4), Vec2::new(0.5, 0.12)),
            Transform::from_translation(start.extend(1.0))
                .with_rotation(Quat::from_rotation_z(direction.to_angle())),
        ));
    }
}

fn fly(
    time: Res<Time>,
    mut bullets: Query<(Entity, &mut Bullet, &mut Transform)>,
    mut commands: Commands,
) {
    let dt = time.delta_secs();
    for (entity, mut bullet, mut transform) in &mut bullets {
        bullet.age += dt;
        transform.translation += (bullet.velocity * dt).extend(0.0);
        if bullet.age > 2.0 {
            commands.entity(entity).despawn();
        }
    }
}

fn wander(time: Res<Time>, mut enemies: Query<(&mut Enemy, &mut Transform)>) {
    let dt = time.delta_secs();
    let (hx, hy) = (ARENA.x / 2.0 - 1.0, ARENA.y / 2.0 - 1.0);
    for (mut enemy, mut transform) in &mut enemies {
        let p = transform.translation.truncate() + enemy.velocity * dt;
        if p.x.abs() > hx {
            enemy.velocity.x = -enemy.velocity.x;
        }
        if p.y.abs() > hy {
            enemy.velocity.y = -enemy.velocity.y;
        }
        transform.translation = p.clamp(Vec2::new(-hx, -hy), Vec2::new(hx, hy)).extend(0.0);
    }
}

/// A bullet that reaches a wall stops there; one that reaches an enemy takes it down, and a
/// new enemy comes in.
fn resolve_hits(
    mut started: MessageReader<CollisionStarted>,
    bullets: Query<(), With<Bullet>>,
    enemies: Query<(), With<Enemy>>,
    mut rng: ResMut<Rng>,
    mut commands: Commands,
) {
    let mut gone = Vec::new();
    for event in started.read() {
        let (bullet, other) = if bullets.contains(event.a) {
            (event.a, event.b)
        } else if bullets.contains(event.b) {
            (event.b, event.a)
        } else {
            continue;
        };
        if gone.contains(&bullet) {
            continue;
        }
        gone.push(bullet);
        commands.entity(bullet).despawn();
        if enemies.contains(other) && !gone.contains(&other) {
            gone.push(other);
            commands.entity(other).despawn();
            spawn_enemy(&mut commands, &mut rng);
        }
    }
}
