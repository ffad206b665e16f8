//! The `collide2d` command: the demo, scene runs, renders, pair queries and benchmarks.

use clap::{Args, Parser, Subcommand};
use collide2d::shape::Aabb;
use collide2d_cli::animation::GifRecorder;
use collide2d_cli::defaults::{COMMAND, DEMO};
use collide2d_cli::error::CliError;
use collide2d_cli::output::{check_output, check_size, FileKind, MAX_GIF_SIDE, MAX_PNG_SIDE};
use collide2d_cli::progress::Progress;
use collide2d_cli::render::{legend_line, render_world_with, Extras, RenderOptions, RenderSummary};
use collide2d_cli::run::run_frames;
use collide2d_cli::scene::{load_scene, parse_scene};
use collide2d_cli::sim::{FrameReport, Sim};
use collide2d_cli::trails::Trails;
use collide2d_cli::view::{self, view_text, ViewChoice};
use collide2d_cli::{bench, memory, out, outln, pair, DEMO_SCENE};
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
    Demo(DemoArgs),
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
        /// Write a picture of the last frame (.png).
        #[arg(long)]
        png: Option<PathBuf>,
        /// Width of the --png picture in pixels.
        #[arg(long, default_value_t = COMMAND.width)]
        width: u32,
        /// Height of the --png picture in pixels.
        #[arg(long, default_value_t = COMMAND.height)]
        height: u32,
        /// Write an animated GIF (.gif; one picture every `--gif-every` frames and the last).
        #[arg(long)]
        gif: Option<PathBuf>,
        /// Frames between GIF pictures.
        #[arg(long, default_value_t = COMMAND.gif_every, value_parser = clap::value_parser!(u32).range(1..))]
        gif_every: u32,
        /// GIF width in pixels (the height is two thirds of it).
        #[arg(long, default_value_t = COMMAND.gif_width)]
        gif_width: u32,
        /// The world box to draw, `x0,y0,x1,y1` (default: the scene's `view`, else everything).
        #[arg(long, value_parser = view::parse_view, allow_hyphen_values = true)]
        view: Option<Aabb>,
        /// Keep the collider of this name in the middle of every picture (the scene's
        /// character is `character`); the view keeps the size of --view, else 24 units wide.
        #[arg(long)]
        follow: Option<String>,
    },
    /// Draws one frame of a scene (after one update) to a PNG.
    Render {
        /// The scene.
        scene: PathBuf,
        /// The picture to write (.png).
        #[arg(short, long)]
        output: PathBuf,
        /// Draw every collider's bounding box.
        #[arg(long)]
        aabbs: bool,
        /// Draw the broad phase: its boxes, grid cells (hash grid) and candidate pairs.
        #[arg(long)]
        broad: bool,
        /// Frames to run before drawing.
        #[arg(long, default_value_t = COMMAND.render_frames)]
        frames: u32,
        /// Picture width in pixels.
        #[arg(long, default_value_t = COMMAND.width)]
        width: u32,
        /// Picture height in pixels.
        #[arg(long, default_value_t = COMMAND.height)]
        height: u32,
        /// The world box to draw, `x0,y0,x1,y1` (default: the scene's `view`, else everything).
        #[arg(long, value_parser = view::parse_view, allow_hyphen_values = true)]
        view: Option<Aabb>,
        /// Centre the picture on the collider of this name (see `run --follow`).
        #[arg(long)]
        follow: Option<String>,
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
        #[arg(long, value_delimiter = ',', default_value = COMMAND.bench_sizes)]
        n: Vec<usize>,
        /// Broad phases: tree, grid, sap (comma separated).
        #[arg(long, value_delimiter = ',', default_value = COMMAND.bench_broad_phases)]
        broad: Vec<String>,
        /// Timed frames per measurement (at least 1).
        #[arg(long, default_value_t = COMMAND.bench_frames)]
        frames: u32,
        /// Write a log-log plot (.png).
        #[arg(long)]
        plot: Option<PathBuf>,
    },
}

/// The demo's settings.
#[derive(Args)]
struct DemoArgs {
    /// Frames to run.
    #[arg(long, default_value_t = DEMO.frames)]
    frames: u32,
    /// Where to write the picture of the last frame (.png).
    #[arg(long, default_value = DEMO.png)]
    png: PathBuf,
    /// Picture width in pixels.
    #[arg(long, default_value_t = DEMO.width)]
    width: u32,
    /// Picture height in pixels.
    #[arg(long, default_value_t = DEMO.height)]
    height: u32,
}

impl Default for DemoArgs {
    /// What `collide2d` with no subcommand runs.
    fn default() -> DemoArgs {
        DemoArgs {
            frames: DEMO.frames,
            png: PathBuf::from(DEMO.png),
            width: DEMO.width,
            height: DEMO.height,
        }
    }
}

/// What `run` writes besides its table.
struct RunOutputs<'a> {
    frames: Option<u32>,
    events: Option<&'a Path>,
    png: Option<(&'a Path, u32, u32)>,
    gif: Option<(&'a Path, u32, u32)>,
    view: Option<Aabb>,
    follow: Option<&'a str>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli
        .command
        .unwrap_or_else(|| Command::Demo(DemoArgs::default()));
    match execute(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("collide2d: error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn execute(command: Command) -> Result<(), CliError> {
    match command {
        Command::Demo(DemoArgs {
            frames,
            png,
            width,
            height,
        }) => demo(frames, &png, width, height),
        Command::Run {
            scene,
            frames,
            events,
            png,
            width,
            height,
            gif,
            gif_every,
            gif_width,
            view,
            follow,
        } => run(
            &scene,
            RunOutputs {
                frames,
                events: events.as_deref(),
                png: png.as_deref().map(|path| (path, width, height)),
                gif: gif.as_deref().map(|path| (path, gif_every, gif_width)),
                view,
                follow: follow.as_deref(),
            },
        ),
        Command::Render {
            scene,
            output,
            aabbs,
            broad,
            frames,
            width,
            height,
            view,
            follow,
        } => {
            check_output("--output", &output, FileKind::Png)?;
            check_size("--width", width, "--height", height, MAX_PNG_SIDE)?;
            let mut sim = build(&scene)?;
            let choice =
                ViewChoice::choose(&sim, view, follow.as_deref(), width as f32 / height as f32)?;
            let frames = frames.max(1);
            run_frames(&mut sim, frames, None, None, true)?;
            let options = RenderOptions {
                width,
                height,
                view: choice.current(&sim),
                aabbs,
                broad,
                title: picture_title(&sim, &scene),
            };
            let summary = save(&sim, &options, None, &output)?;
            outln!(
                "wrote {} ({width} × {height}, frame {}, {} colliders; view {}; {} outlined, {} as density)",
                output.display(),
                sim.frame,
                sim.world.len(),
                summary.view.as_ref().map_or("everything".into(), view_text),
                summary.outlined,
                summary.tinted
            )?;
            outln!("{}", legend_line())
        }
        Command::Query { pair: path, json } => {
            let pair = pair::load_pair(&path)?;
            if json {
                outln!("{}", pair::answer(&pair))
            } else {
                out!("{}", pair::describe(&pair))
            }
        }
        Command::Bench {
            n,
            broad,
            frames,
            plot,
        } => run_bench(&n, &broad, frames, plot.as_deref()),
    }
}

/// Loads a scene, refuses it if it would not fit in memory, then builds it with progress.
fn build(path: &Path) -> Result<Sim, CliError> {
    let scene = load_scene(path)?;
    let budget = memory::budget()?;
    memory::check(&scene, path, budget.as_ref())?;
    let progress = Progress::start("building", memory::collider_count(&scene), "colliders");
    Ok(Sim::build_with_progress(&scene, path, Some(progress))?)
}

/// The title of every picture of a scene: its name (else its file), the frame and the count.
fn picture_title(sim: &Sim, path: &Path) -> String {
    let name = if sim.title.is_empty() {
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    } else {
        sim.title.clone()
    };
    format!(
        "{name}  frame {}  {} colliders",
        sim.frame,
        thousands(sim.world.len())
    )
}

/// A count with thousands separators (`1,000,000`).
fn thousands(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn save(
    sim: &Sim,
    options: &RenderOptions,
    trails: Option<&Trails>,
    path: &Path,
) -> Result<RenderSummary, CliError> {
    let progress = Progress::start("drawing", sim.world.len() as u64, "colliders");
    let extras = Extras {
        trails,
        progress: Some(&progress),
    };
    let (canvas, summary) =
        render_world_with(&sim.world, options, &extras).map_err(|e| CliError::output(path, e))?;
    progress.finish();
    canvas
        .save_png(path)
        .map_err(|e| CliError::output(path, e))?;
    Ok(summary)
}

fn demo(frames: u32, png: &Path, width: u32, height: u32) -> Result<(), CliError> {
    check_output("--png", png, FileKind::Png)?;
    check_size("--width", width, "--height", height, MAX_PNG_SIDE)?;
    let path = Path::new(DEMO.scene_name);
    let scene = parse_scene(path, DEMO_SCENE)?;
    let mut sim = Sim::build(&scene, path)?;
    outln!(
        "collide2d demo: {} colliders on layers {}, {frames} frames",
        sim.world.len(),
        layer_names(&sim)
    )?;
    let report = run_frames(&mut sim, frames, None, None, true)?;
    out!("\n{}", report.table())?;
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
    save(&sim, &options, None, png)?;
    outln!("\nwrote {}", png.display())?;
    outln!("{}", legend_line())
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

/// A GIF being recorded: every `every` frames a `width × height` picture.
struct Recording<'a> {
    recorder: GifRecorder,
    every: u32,
    width: u32,
    height: u32,
    path: &'a Path,
    /// The frame of the last picture.
    last: Option<u32>,
}

impl Recording<'_> {
    fn add(
        &mut self,
        sim: &Sim,
        choice: &ViewChoice,
        trails: &Trails,
        scene: &Path,
    ) -> Result<(), CliError> {
        let options = RenderOptions {
            width: self.width,
            height: self.height,
            view: choice.current(sim),
            title: picture_title(sim, scene),
            ..RenderOptions::default()
        };
        let extras = Extras {
            trails: Some(trails),
            progress: None,
        };
        let (canvas, _) = render_world_with(&sim.world, &options, &extras)
            .map_err(|e| CliError::output(self.path, e))?;
        self.last = Some(sim.frame);
        self.recorder.add(&canvas)
    }
}

fn run(path: &Path, outputs: RunOutputs<'_>) -> Result<(), CliError> {
    // Every output is checked before the scene is even read.
    if let Some(events) = outputs.events {
        check_output("--events", events, FileKind::Text)?;
    }
    if let Some((png, width, height)) = outputs.png {
        check_output("--png", png, FileKind::Png)?;
        check_size("--width", width, "--height", height, MAX_PNG_SIDE)?;
    }
    if let Some((gif, _, width)) = outputs.gif {
        check_output("--gif", gif, FileKind::Gif)?;
        check_size(
            "--gif-width",
            width,
            "--gif-width",
            (width * 2 / 3).max(1),
            MAX_GIF_SIDE,
        )?;
    }
    let mut sim = build(path)?;
    let aspect_of = |width: u32, height: u32| width as f32 / height.max(1) as f32;
    let png_view = match outputs.png {
        Some((_, width, height)) => Some(ViewChoice::choose(
            &sim,
            outputs.view,
            outputs.follow,
            aspect_of(width, height),
        )?),
        None => None,
    };
    let gif_view = ViewChoice::choose(&sim, outputs.view, outputs.follow, 1.5)?;
    let mut recording = match outputs.gif {
        Some((gif_path, every, width)) => {
            let height = (width * 2 / 3).max(1);
            let delay = ((sim.dt * every as f32 * 100.0).round() as u16).max(2);
            let recorder = GifRecorder::create(gif_path, width, height, delay)?;
            Some(Recording {
                recorder,
                every,
                width,
                height,
                path: gif_path,
                last: None,
            })
        }
        None => None,
    };
    let mut trails = Trails::new(&sim);
    let mut record = |sim: &Sim, frame: &FrameReport| -> Result<(), CliError> {
        trails.record(sim, frame);
        match recording.as_mut() {
            Some(recording) if sim.frame % recording.every == 0 => {
                recording.add(sim, &gif_view, &trails, path)
            }
            _ => Ok(()),
        }
    };
    let frames = outputs.frames.unwrap_or(sim.default_frames);
    let mut writer = match outputs.events {
        Some(events) => Some(BufWriter::new(
            std::fs::File::create(events)
                .map_err(|e| CliError::output(events, format!("cannot create: {e}")))?,
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
    if let (Some(mut writer), Some(events)) = (writer, outputs.events) {
        writer.flush().map_err(|e| CliError::output(events, e))?;
    }
    let title = if sim.title.is_empty() {
        path.display().to_string()
    } else {
        sim.title.clone()
    };
    outln!("{title}")?;
    out!("{}", report.table())?;
    if let (Some((png, width, height)), Some(choice)) = (outputs.png, &png_view) {
        let options = RenderOptions {
            width,
            height,
            view: choice.current(&sim),
            title: picture_title(&sim, path),
            ..RenderOptions::default()
        };
        save(&sim, &options, Some(&trails), png)?;
        outln!("wrote {}", png.display())?;
    }
    if let Some(mut recording) = recording {
        // The last frame is always in the GIF, so a run shorter than --gif-every still makes
        // a GIF that opens.
        if recording.last != Some(sim.frame) {
            recording.add(&sim, &gif_view, &trails, path)?;
        }
        let pictures = recording.recorder.pictures();
        let gif_path = recording.path;
        recording.recorder.finish()?;
        let count = if pictures == 1 {
            "1 picture".to_string()
        } else {
            format!("{pictures} pictures")
        };
        outln!("wrote {} ({count})", gif_path.display())?;
    }
    Ok(())
}

fn run_bench(
    sizes: &[usize],
    broads: &[String],
    frames: u32,
    plot: Option<&Path>,
) -> Result<(), CliError> {
    if frames == 0 {
        return Err(CliError::Argument(
            "--frames 0: the bench times at least 1 frame per measurement".into(),
        ));
    }
    let kinds = broads
        .iter()
        .map(|name| bench::parse_broad(name))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(&zero) = sizes.iter().find(|&&n| n == 0 || n > 10_000_000) {
        return Err(CliError::Argument(format!(
            "--n {zero}: counts must be between 1 and 10,000,000"
        )));
    }
    if let Some(plot) = plot {
        check_output("--plot", plot, FileKind::Png)?;
    }
    // Work is counted in collider-frames (building counts as one frame), so the time left
    // is estimated fairly across sizes.
    let work = |n: usize| n as u64 * (u64::from(frames) + 1);
    let total: u64 = sizes.iter().map(|&n| work(n) * kinds.len() as u64).sum();
    let progress = Progress::start("benchmarking", total, "collider-frames");
    let mut points = Vec::new();
    for &n in sizes {
        for (name, kind) in &kinds {
            progress.note(&format!("{name}, {n} colliders"));
            points.push(bench::measure(n, name, *kind, frames));
            progress.advance(work(n));
        }
    }
    progress.finish();
    let names: Vec<String> = kinds.iter().map(|(name, _)| name.clone()).collect();
    let plural = if frames == 1 { "" } else { "s" };
    outln!("World::update, median of {frames} frame{plural} (every collider moves every frame)\n")?;
    out!("{}", bench::table(&points, sizes, &names))?;
    if let Some(plot) = plot {
        let canvas =
            bench::plot(&points, &names, 900, 600).map_err(|e| CliError::output(plot, e))?;
        canvas
            .save_png(plot)
            .map_err(|e| CliError::output(plot, e))?;
        outln!("\nwrote {}", plot.display())?;
    }
    Ok(())
}
