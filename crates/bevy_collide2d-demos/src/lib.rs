//! What the two examples share: a window, a camera, the plugin's gizmos and the screenshot
//! option (`--screenshot PATH`: the example saves one frame there and exits).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::window::screenshot::{save_to_disk, Screenshot};
use bevy::window::WindowResolution;

/// The frame at which a requested screenshot is taken (the scene has played for a while).
const SHOT_FRAME: u32 = 150;
/// Frames to wait for the picture to reach the disk before giving up.
const SHOT_TIMEOUT: u32 = 600;

#[derive(Resource)]
struct ShotRequest {
    path: PathBuf,
    frame: u32,
    taken: bool,
}

/// Default plugins with a titled 960×540 window, the gizmo drawing, and `--screenshot PATH`.
pub fn demo_app(title: &str) -> App {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: title.to_string(),
            resolution: WindowResolution::new(960, 540),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(bevy_collide2d::debug::DebugDrawPlugin)
    .insert_resource(ClearColor(Color::srgb(0.08, 0.09, 0.12)));
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--screenshot") {
        let Some(path) = args.get(i + 1) else {
            eprintln!("--screenshot needs a path");
            std::process::exit(2);
        };
        app.insert_resource(ShotRequest {
            path: PathBuf::from(path),
            frame: 0,
            taken: false,
        })
        .add_systems(Last, take_screenshot);
    }
    app
}

/// A 2D camera showing `height` world units vertically, centred on `center`.
pub fn camera(commands: &mut Commands, center: Vec2, height: f32) {
    commands.spawn((
        Camera2d,
        Projection::from(OrthographicProjection {
            scaling_mode: bevy::camera::ScalingMode::FixedVertical {
                viewport_height: height,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_translation(center.extend(0.0)),
    ));
}

fn take_screenshot(
    mut request: ResMut<ShotRequest>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    request.frame += 1;
    if request.frame == SHOT_FRAME {
        let _ = std::fs::remove_file(&request.path);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(request.path.clone()));
        request.taken = true;
    }
    if request.taken && request.frame > SHOT_FRAME + 10 {
        let written = std::fs::metadata(&request.path).is_ok_and(|m| m.len() > 0);
        if written {
            exit.write(AppExit::Success);
        } else if request.frame > SHOT_FRAME + SHOT_TIMEOUT {
            eprintln!("no screenshot at {}", request.path.display());
            exit.write(AppExit::error());
        }
    }
}
