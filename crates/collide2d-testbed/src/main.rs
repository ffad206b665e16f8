//! `collide2d-testbed`: the interactive samples window.
//!
//! ```text
//! collide2d-testbed                         open the window
//! collide2d-testbed --sample <name>         open it on one sample
//! collide2d-testbed --screenshot <name|all> [--out <dir>]
//!                                           save <dir>/<name>.png for each sample and exit
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use collide2d_testbed::app::{ScreenshotReport, TestbedApp};
use collide2d_testbed::samples;

/// The window size; screenshots have this size too.
const WINDOW_SIZE: [f32; 2] = [1280.0, 800.0];

/// What the command line asks for.
enum Mode {
    Help,
    Interactive { sample: usize },
    Screenshots { queue: Vec<usize>, out_dir: PathBuf },
}

fn usage() -> String {
    format!(
        "usage: collide2d-testbed [--sample <name>] [--screenshot <name|all> [--out <dir>]]\n\
         samples: {}",
        samples::names().join(", ")
    )
}

fn sample_index(name: &str) -> Result<usize, String> {
    samples::names()
        .iter()
        .position(|n| *n == name)
        .ok_or_else(|| format!("no sample called {name:?}\n{}", usage()))
}

fn parse(args: &[String]) -> Result<Mode, String> {
    let mut sample = 0;
    let mut screenshot: Option<String> = None;
    let mut out_dir = PathBuf::from("docs/testbed");
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || {
            rest.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--sample" => sample = sample_index(&value()?)?,
            "--screenshot" => screenshot = Some(value()?),
            "--out" => out_dir = PathBuf::from(value()?),
            "-h" | "--help" => return Ok(Mode::Help),
            other => return Err(format!("unknown argument {other:?}\n{}", usage())),
        }
    }
    Ok(match screenshot {
        None => Mode::Interactive { sample },
        Some(which) => {
            let queue = if which == "all" {
                (0..samples::REGISTRY.len()).collect()
            } else {
                vec![sample_index(&which)?]
            };
            Mode::Screenshots { queue, out_dir }
        }
    })
}

fn run(app: TestbedApp, resizable: bool) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("collide2d testbed")
            .with_inner_size(WINDOW_SIZE)
            .with_resizable(resizable),
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "collide2d testbed",
        options,
        Box::new(|_| Ok(Box::new(app))),
    )
    .map_err(|e| format!("the window could not run: {e}"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match parse(&args) {
        Ok(mode) => mode,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match mode {
        Mode::Help => {
            println!("{}", usage());
            ExitCode::SUCCESS
        }
        Mode::Interactive { sample } => match run(TestbedApp::new(sample), true) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("{message}");
                ExitCode::FAILURE
            }
        },
        Mode::Screenshots { queue, out_dir } => {
            if let Err(e) = std::fs::create_dir_all(&out_dir) {
                eprintln!("{}: {e}", out_dir.display());
                return ExitCode::FAILURE;
            }
            let expected = queue.len();
            let report = Arc::new(Mutex::new(ScreenshotReport::default()));
            let app = TestbedApp::screenshots(queue, out_dir, Arc::clone(&report));
            if let Err(message) = run(app, false) {
                eprintln!("{message}");
                return ExitCode::FAILURE;
            }
            let report = report.lock().map(|r| r.clone()).unwrap_or_default();
            for path in &report.written {
                println!("wrote {}", path.display());
            }
            for failure in &report.failures {
                eprintln!("failed: {failure}");
            }
            if report.failures.is_empty() && report.written.len() == expected {
                ExitCode::SUCCESS
            } else {
                eprintln!("{} of {expected} screenshots written", report.written.len());
                ExitCode::FAILURE
            }
        }
    }
}
