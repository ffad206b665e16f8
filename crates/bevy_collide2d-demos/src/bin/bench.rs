//! Frame time of collision detection with many moving colliders: bevy_collide2d's systems
//! beside avian2d's physics step on the same scene (every collider a kinematic sensor, so
//! avian2d runs its broad and narrow phase and collision events, and nothing is solved).
//!
//! ```text
//! cargo run --release --bin bench -- [collide2d|avian2d|solid] [colliders] [frames]
//! ```
//!
//! `solid` is bevy_collide2d with solid colliders (contact manifolds computed). Prints the mean
//! and median time of the engine's systems per frame, the whole frame, and the started events.

use std::time::{Duration, Instant};

use bevy::app::{App, PostUpdate, Update};
use bevy::ecs::message::MessageReader;
use bevy::prelude::*;

#[derive(Resource, Default)]
struct Timing {
    start: Option<Instant>,
    spans: Vec<Duration>,
    started: usize,
}

#[derive(Component)]
struct Mover {
    home: Vec2,
    phase: f32,
}

fn begin(mut timing: ResMut<Timing>) {
    timing.start = Some(Instant::now());
}

fn end(mut timing: ResMut<Timing>) {
    if let Some(start) = timing.start.take() {
        timing.spans.push(start.elapsed());
    }
}

#[derive(Resource)]
struct Frame(u32);

/// Each collider circles around its home, two units out, at its own phase.
fn move_all(mut frame: ResMut<Frame>, mut movers: Query<(&Mover, &mut Transform)>) {
    frame.0 += 1;
    let t = frame.0 as f32 * 0.05;
    for (mover, mut transform) in &mut movers {
        let p =
            mover.home + 2.0 * Vec2::new((t + mover.phase).sin(), (0.7 * t + mover.phase).cos());
        transform.translation = p.extend(0.0);
    }
}

/// Homes on a square grid two units apart: about one overlap per collider as they move.
fn homes(count: usize) -> impl Iterator<Item = (Vec2, f32)> {
    let side = (count as f32).sqrt().ceil() as usize;
    (0..count).map(move |i| {
        let (x, y) = ((i % side) as f32, (i / side) as f32);
        (Vec2::new(2.0 * x, 2.0 * y), i as f32 * 0.618)
    })
}

fn count_collide2d(
    mut started: MessageReader<bevy_collide2d::CollisionStarted>,
    mut timing: ResMut<Timing>,
) {
    timing.started += started.read().count();
}

fn count_avian(
    mut started: MessageReader<avian2d::prelude::CollisionStart>,
    mut timing: ResMut<Timing>,
) {
    timing.started += started.read().count();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = args.get(1).map_or("collide2d", String::as_str).to_string();
    let count: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let frames: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(300);
    let warm_up = 30;

    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin))
        .init_resource::<Timing>()
        .insert_resource(Frame(0))
        .add_systems(Update, move_all);
    match engine.as_str() {
        "collide2d" | "solid" => {
            use bevy_collide2d::prelude::*;
            app.add_plugins(Collide2dPlugin::new(PostUpdate))
                .add_systems(
                    PostUpdate,
                    (
                        begin.before(Collide2dSystems::Propagate),
                        end.after(Collide2dSystems::Update),
                    ),
                )
                .add_systems(Last, count_collide2d);
            let solid = engine == "solid";
            for (home, phase) in homes(count) {
                let mut entity = app.world_mut().spawn((
                    Collider::circle(0.5).expect("a valid radius"),
                    Transform::from_translation(home.extend(0.0)),
                    Mover { home, phase },
                ));
                if !solid {
                    entity.insert(Sensor);
                }
            }
        }
        "avian2d" => {
            use avian2d::prelude::*;
            app.add_plugins(PhysicsPlugins::new(PostUpdate))
                .add_systems(
                    PostUpdate,
                    (
                        begin.before(PhysicsSystems::First),
                        end.after(PhysicsSystems::Last),
                    ),
                )
                .add_systems(Last, count_avian);
            for (home, phase) in homes(count) {
                app.world_mut().spawn((
                    RigidBody::Kinematic,
                    Collider::circle(0.5),
                    Sensor,
                    CollisionEventsEnabled,
                    Transform::from_translation(home.extend(0.0)),
                    Mover { home, phase },
                ));
            }
        }
        other => {
            eprintln!("unknown engine {other}: collide2d, solid or avian2d");
            std::process::exit(2);
        }
    }
    app.finish();
    app.cleanup();
    let mut whole = Vec::new();
    for frame in 0..warm_up + frames {
        let start = Instant::now();
        app.update();
        if frame >= warm_up {
            whole.push(start.elapsed());
        }
    }
    let timing = app.world().resource::<Timing>();
    let spans = &timing.spans[timing.spans.len() - frames..];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let stats = |v: &[Duration]| {
        let mut sorted = v.to_vec();
        sorted.sort_unstable();
        let mean = v.iter().map(|&d| ms(d)).sum::<f64>() / v.len() as f64;
        (mean, ms(sorted[sorted.len() / 2]))
    };
    let (mean, median) = stats(spans);
    let (whole_mean, whole_median) = stats(&whole);
    println!(
        "{engine}: {count} colliders, {frames} frames: systems mean {mean:.2} ms, median {median:.2} ms; \
         whole frame mean {whole_mean:.2} ms, median {whole_median:.2} ms; {} started events",
        timing.started
    );
}
