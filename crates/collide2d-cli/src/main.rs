//! The `collide2d` command: the demo, scene runs, renders, pair queries and benchmarks.

use clap::{Parser, Subcommand};
use collide2d_cli::animation::GifRecorder;
use collide2d_cli::render::{legend_line, render_world, RenderOptions};
use collide2d_cli::run::run_frames;
use collide2d_cli::scene::{load_scene, parse_scene, SceneError};
use collide2d_cli::sim::Sim;
use collide2d_cli::{bench, pair, DEMO_SCENE};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// collide2d: collision detection for 2D games. With no subcommand, runs the built-in demo.
#[derive(Parser)]
#[command(name = "collide2d", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// The built-in demo: about 3,000 shapes on four layers for 300 frames, then a PNG.
    Demo {
        /// Frames to run.
        #[arg(long, default_value_t = 300)]
        frames: u32,
        /// Where to write the picture of the last frame.
        #[arg(long, default_value = "collide2d-demo.png")]
        png: PathBuf,
        /// Picture width in pixels.
        #[arg(long, default_value_t = 1600)]
        width: u32,
        /// Picture height in pixels.
        #[arg(long, default_value_t = 1000)]
        height: u32,
    },
    /// Runs a scene file and prints per-phase timings and event counts.
    Run {
        /// The scene (JSON, see scenes/README.md).
        scene: PathBuf,
        /// Frames to run (default: the scene's `frames`, else 120).
        #[arg(long)]
        frames: Option<u32>,
        /// Write every event as one JSON object per line.
        #[arg(long)]
        events: Option<PathBuf>,
        /// Write a picture of the last frame.
        #[arg(long)]
        png: Option<PathBuf>,
        /// Write an animated GIF (one picture every `--gif-every` frames).
        #[arg(long)]
        gif: Option<PathBuf>,
        /// Frames between GIF pictures.
        #[arg(long, default_value_t = 3)]
        gif_every: u32,
        /// GIF width in pixels (the height follows the view, 2:3).
        #[arg(long, default_value_t = 600)]
        gif_width: u32,
    },
    /// Draws one frame of a scene (after one update) to a PNG.
    Render {
        /// The scene.
        scene: PathBuf,
        /// The picture to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Draw every collider's bounding box.
        #[arg(long)]
        aabbs: bool,
        /// Draw the broad phase: its boxes, grid cells (hash grid) and candidate pairs.
        #[arg(long)]
        broad: bool,
        /// Frames to run before drawing.
        #[arg(long, default_value_t = 1)]
        frames: u32,
        /// Picture width in pixels.
        #[arg(long, default_value_t = 1200)]
        width: u32,
        /// Picture height in pixels.
        #[arg(long, default_value_t = 800)]
        height: u32,
    },
    /// Overlap, manifold, distance and cast for two placed shapes.
    Query {
        /// The pair file (see scenes/README.md).
        pair: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// World-update time per frame for growing collider counts, per broad phase.
    Bench {
        /// Collider counts, comma separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "1000,10000,100000,1000000"
        )]
        n: Vec<usize>,
        /// Broad phases: tree, grid, sap (comma separated).
        #[arg(long, value_delimiter = ',', default_value = "tree,grid,sap")]
        broad: Vec<String>,
        /// Timed frames per measurement.
        #[arg(long, default_value_t = 5)]
        frames: u32,
        /// Write a log-log plot.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Demo {
        frames: 300,
        png: PathBuf::from("collide2d-demo.png"),
        width: 1600,
        height: 1000,
    });
    match execute(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("collide2d: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn execute(command: Command) -> Result<(), String> {
    match command {
        Command::Demo {
            frames,
            png,
            width,
            height,
        } => demo(frames, &png, width, height),
        Command::Run {
            scene,
            frames,
            events,
            png,
            gif,
            gif_every,
            gif_width,
        } => run(
            &scene,
            frames,
            events.as_deref(),
            png.as_deref(),
            gif.as_deref()
                .map(|path| (path, gif_every.max(1), gif_width)),
        ),
        Command::Render {
            scene,
            output,
            aabbs,
            broad,
            frames,
            width,
            height,
        } => {
            let mut sim = build(&scene)?;
            run_frames(&mut sim, frames.max(1), None, None, false)?;
            let options = RenderOptions {
                width,
                height,
                view: sim.view,
                aabbs,
                broad,
                title: String::new(),
            };
            save(&sim, &options, &output)
        }
        Command::Query { pair: path, json } => {
            let pair = pair::load_pair(&path).map_err(|e| e.to_string())?;
            if json {
                println!("{}", pair::answer(&pair));
            } else {
                print!("{}", pair::describe(&pair));
            }
            Ok(())
        }
        Command::Bench {
            n,
            broad,
            frames,
            plot,
        } => run_bench(&n, &broad, frames, plot.as_deref()),
    }
}

fn build(path: &Path) -> Result<Sim, String> {
    let scene = load_scene(path).map_err(|e| e.to_string())?;
    Sim::build(&scene, path).map_err(|e: SceneError| e.to_string())
}

fn save(sim: &Sim, options: &RenderOptions, path: &Path) -> Result<(), String> {
    let canvas =
        render_world(&sim.world, options).map_err(|e| format!("{}: {e}", path.display()))?;
    canvas
        .save_png(path)
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn demo(frames: u32, png: &Path, width: u32, height: u32) -> Result<(), String> {
    let path = Path::new("scenes/demo.json (built in)");
    let scene = parse_scene(path, DEMO_SCENE).map_err(|e| e.to_string())?;
    let mut sim = Sim::build(&scene, path).map_err(|e| e.to_string())?;
    println!(
        "collide2d demo: {} colliders on layers {}, {frames} frames",
        sim.world.len(),
        layer_names(&sim)
    );
    let report = run_frames(&mut sim, frames, None, None, true)?;
    print!("\n{}", report.table());
    let options = RenderOptions {
        width,
        height,
        view: sim.view,
        aabbs: false,
        broad: false,
        title: format!(
            "collide2d demo  frame {}  {} colliders",
            sim.frame,
            sim.world.len()
        ),
    };
    save(&sim, &options, png)?;
    println!("\nwrote {}", png.display());
    println!("{}", legend_line());
    Ok(())
}

fn layer_names(sim: &Sim) -> String {
    sim.world
        .layers()
        .iter()
        .map(|(_, name)| name.to_string())
        .filter(|name| name != "default")
        .collect::<Vec<_>>()
        .join(", ")
}

fn run(
    path: &Path,
    frames: Option<u32>,
    events: Option<&Path>,
    png: Option<&Path>,
    gif: Option<(&Path, u32, u32)>,
) -> Result<(), String> {
    let mut sim = build(path)?;
    let mut recorder = match gif {
        Some((gif_path, every, width)) => {
            let height = (width * 2 / 3).max(1);
            let delay = ((sim.dt * every as f32 * 100.0).round() as u16).max(2);
            let recorder = GifRecorder::create(gif_path, width, height, delay)?;
            Some((recorder, every, width, height, gif_path))
        }
        None => None,
    };
    let view = sim.view;
    let mut record = |sim: &Sim| -> Result<(), String> {
        let Some((recorder, every, width, height, gif_path)) = recorder.as_mut() else {
            return Ok(());
        };
        if sim.frame % *every != 0 {
            return Ok(());
        }
        let options = RenderOptions {
            width: *width,
            height: *height,
            view,
            ..RenderOptions::default()
        };
        let canvas = render_world(&sim.world, &options)
            .map_err(|e| format!("{}: {e}", gif_path.display()))?;
        recorder
            .add(&canvas)
            .map_err(|e| format!("{}: {e}", gif_path.display()))
    };
    let frames = frames.unwrap_or(sim.default_frames);
    let mut writer = match events {
        Some(events) => Some(BufWriter::new(
            std::fs::File::create(events)
                .map_err(|e| format!("{}: cannot create: {e}", events.display()))?,
        )),
        None => None,
    };
    let report = run_frames(
        &mut sim,
        frames,
        writer.as_mut().map(|w| w as &mut dyn Write),
        Some(&mut record),
        true,
    )?;
    if let (Some(mut writer), Some(events)) = (writer, events) {
        writer
            .flush()
            .map_err(|e| format!("{}: {e}", events.display()))?;
    }
    let title = if sim.title.is_empty() {
        path.display().to_string()
    } else {
        sim.title.clone()
    };
    println!("{title}");
    print!("{}", report.table());
    if let Some(png) = png {
        let options = RenderOptions {
            width: 1200,
            height: 800,
            view: sim.view,
            title: format!("{title}  frame {}", sim.frame),
            ..RenderOptions::default()
        };
        save(&sim, &options, png)?;
        println!("wrote {}", png.display());
    }
    if let Some((recorder, .., gif_path)) = recorder {
        recorder
            .finish()
            .map_err(|e| format!("{}: {e}", gif_path.display()))?;
        println!("wrote {}", gif_path.display());
    }
    Ok(())
}

fn run_bench(
    sizes: &[usize],
    broads: &[String],
    frames: u32,
    plot: Option<&Path>,
) -> Result<(), String> {
    let kinds = broads
        .iter()
        .map(|name| bench::parse_broad(name))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(&zero) = sizes.iter().find(|&&n| n == 0 || n > 10_000_000) {
        return Err(format!(
            "--n {zero}: counts must be between 1 and 10,000,000"
        ));
    }
    let bar = indicatif::ProgressBar::new((sizes.len() * kinds.len()) as u64);
    let mut points = Vec::new();
    for &n in sizes {
        for (name, kind) in &kinds {
            bar.set_message(format!("{name} n={n}"));
            points.push(bench::measure(n, name, *kind, frames));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let names: Vec<String> = kinds.iter().map(|(name, _)| name.clone()).collect();
    println!("World::update, median of {frames} frames (every collider moves every frame)\n");
    print!("{}", bench::table(&points, sizes, &names));
    if let Some(plot) = plot {
        let canvas = bench::plot(&points, &names, 900, 600)
            .map_err(|e| format!("{}: {e}", plot.display()))?;
        canvas
            .save_png(plot)
            .map_err(|e| format!("{}: {e}", plot.display()))?;
        println!("\nwrote {}", plot.display());
    }
    Ok(())
}
