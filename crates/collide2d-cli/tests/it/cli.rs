//! The `collide2d` command as a user runs it: every subcommand, bad files, and the pictures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's `scenes/` folder.
fn scenes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes")
}

/// A fresh scratch folder for one test, removed again when the test ends (pass or fail).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("collide2d-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn collide2d(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_collide2d"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// Runs `collide2d run SCENE --frames FRAMES EXTRA…` in `dir` and asserts that it succeeded.
fn run_scene(scene: &Path, frames: u32, extra: &[&str], dir: &Path) -> Output {
    let frames = frames.to_string();
    let mut args = vec!["run", scene.to_str().unwrap(), "--frames", &frames];
    args.extend_from_slice(extra);
    let output = collide2d(&args, dir);
    assert_ok(&output);
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn assert_ok(output: &Output) {
    assert!(
        output.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        stdout(output),
        stderr(output)
    );
}

/// A refused input: non-zero exit, no panic, and a message containing every `needles`.
fn assert_refused(output: &Output, needles: &[&str]) {
    let message = stderr(output);
    assert!(!output.status.success(), "should fail; stderr: {message}");
    assert!(!message.contains("panicked"), "panicked: {message}");
    for needle in needles {
        assert!(message.contains(needle), "`{needle}` not in: {message}");
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// RGBA pixels of a PNG file, with its width.
fn decode_png(path: &Path) -> (Vec<u8>, u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    pixels.truncate(info.buffer_size());
    (pixels, info.width, info.height)
}

/// Height of the title and legend strip of a picture under 1100 pixels wide.
const LEGEND_STRIP: f32 = 29.0;

/// The pixel of world point `(x, y)` in a `width × height` picture of the square view
/// `0..side` on both axes: the view is fitted, centred, into the part below the legend strip.
fn view_pixel(side: f32, width: u32, height: u32, x: f32, y: f32) -> (u32, u32) {
    let (width, height) = (width as f32, height as f32);
    let area = height - LEGEND_STRIP;
    let scale = (width / side).min(area / side);
    let margin_x = (width - side * scale) / 2.0;
    let margin_bottom = (area - side * scale) / 2.0;
    (
        (margin_x + x * scale) as u32,
        (height - margin_bottom - y * scale) as u32,
    )
}

fn pixel(pixels: &[u8], width: u32, x: u32, y: u32) -> [u8; 3] {
    let i = ((y * width + x) * 4) as usize;
    [pixels[i], pixels[i + 1], pixels[i + 2]]
}

/// Which channel is clearly strongest: 0 red, 1 green, 2 blue.
fn dominant(rgb: [u8; 3]) -> Option<usize> {
    let max = *rgb.iter().max().unwrap();
    let strongest = rgb.iter().position(|&c| c == max).unwrap();
    let others_lower = rgb
        .iter()
        .enumerate()
        .all(|(i, &c)| i == strongest || u16::from(c) + 30 < u16::from(max));
    others_lower.then_some(strongest)
}

#[test]
fn no_arguments_runs_the_demo_and_writes_its_picture() {
    let dir = scratch("demo");
    let output = collide2d(&[], &dir);
    assert_ok(&output);
    let text = stdout(&output);
    for line in [
        "broad",
        "narrow",
        "events",
        "candidate pairs per frame",
        "begin events",
        "stay events",
        "end events",
        "total wall time",
        "legend:",
    ] {
        assert!(text.contains(line), "`{line}` missing from:\n{text}");
    }
    assert!(text.contains("300 frames"), "{text}");
    let (_, width, height) = decode_png(&dir.join("collide2d-demo.png"));
    assert_eq!((width, height), (1600, 1000));
}

#[test]
fn demo_subcommand_takes_frames_and_size() {
    let dir = scratch("demo-small");
    let output = collide2d(
        &[
            "demo",
            "--frames",
            "3",
            "--png",
            "small.png",
            "--width",
            "320",
            "--height",
            "200",
        ],
        &dir,
    );
    assert_ok(&output);
    assert_eq!(decode_png(&dir.join("small.png")).1, 320);
}

#[test]
fn run_writes_one_json_object_per_event_line() {
    let dir = scratch("run-events");
    let scene = scenes().join("tilemap.json");
    let output = run_scene(
        &scene,
        120,
        &["--events", "events.jsonl", "--png", "last.png"],
        &dir,
    );
    assert!(stdout(&output).contains("character on floor frames"));
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for line in events.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(value["frame"].as_u64().unwrap() >= 1);
        kinds.insert(value["kind"].as_str().unwrap().to_string());
    }
    assert!(
        kinds.contains("begin") && kinds.contains("end"),
        "{kinds:?}"
    );
    assert!(dir.join("last.png").exists());
}

#[test]
fn bullets_scene_reports_cast_hits_and_never_passes_the_thin_wall() {
    let dir = scratch("bullets");
    let scene = scenes().join("bullets.json");
    run_scene(&scene, 30, &["--events", "events.jsonl"], &dir);
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    let hits: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["kind"] == "cast_hit")
        .collect();
    assert!(hits.len() >= 20, "{} hits", hits.len());
    // The first hit of the fan fired along +x at 900 units/s is the 2 cm wall at x = 30.
    assert!(hits
        .iter()
        .any(|h| (h["point"][0].as_f64().unwrap() - 29.99).abs() < 0.05));
}

#[test]
fn the_staircase_scene_character_walks_to_the_goal() {
    let dir = scratch("staircases");
    let scene = scenes().join("staircases.json");
    let output = collide2d(
        &["run", scene.to_str().unwrap(), "--events", "events.jsonl"],
        &dir,
    );
    assert_ok(&output);
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    // The only thing that can touch the goal sensor is the character (the level ignores it),
    // and it stands beyond three staircases up and two valleys down.
    let reached = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["kind"] == "begin" && (v["a_name"] == "goal" || v["b_name"] == "goal"));
    let frame = reached.map(|v| v["frame"].as_u64().unwrap());
    assert!(frame.is_some(), "the character never reached the goal");
}

#[test]
fn render_colours_overlapping_free_and_sensor_colliders() {
    let dir = scratch("render");
    // 200 × 200 pixels showing 0..20 on both axes below the legend strip, y up.
    let scene = write(
        &dir,
        "three.json",
        r#"{
          "version": 1,
          "view": [0, 0, 20, 20],
          "colliders": [
            { "shape": { "kind": "box", "width": 4, "height": 4 }, "position": [4, 4] },
            { "shape": { "kind": "box", "width": 4, "height": 4 }, "position": [6, 6] },
            { "shape": { "kind": "circle", "radius": 2 }, "position": [15, 15] },
            { "shape": { "kind": "circle", "radius": 2 }, "position": [15, 5], "sensor": true }
          ]
        }"#,
    );
    let output = collide2d(
        &[
            "render",
            scene.to_str().unwrap(),
            "-o",
            "out.png",
            "--width",
            "200",
            "--height",
            "200",
            "--aabbs",
        ],
        &dir,
    );
    assert_ok(&output);
    let (pixels, width, height) = decode_png(&dir.join("out.png"));
    assert_eq!((width, height), (200, 200));
    let at = |x: f32, y: f32| {
        let (px, py) = view_pixel(20.0, 200, 200, x, y);
        pixel(&pixels, width, px, py)
    };
    assert_eq!(
        dominant(at(3.0, 3.0)),
        Some(0),
        "overlapping box is red: {:?}",
        at(3.0, 3.0)
    );
    assert_eq!(
        dominant(at(15.5, 14.5)),
        Some(1),
        "lone circle is green: {:?}",
        at(15.5, 14.5)
    );
    assert_eq!(
        dominant(at(15.5, 4.5)),
        Some(2),
        "sensor is blue: {:?}",
        at(15.5, 4.5)
    );
    let background = at(10.0, 18.0);
    assert!(background.iter().all(|&c| c < 40), "{background:?}");
}

#[test]
fn render_in_process_matches_the_library_colours() {
    use collide2d::debug::Color;
    use collide2d::Vec2;
    use collide2d_cli::render::{render_world, RenderOptions};
    let path = Path::new("inline.json");
    let scene = collide2d_cli::scene::parse_scene(
        path,
        r#"{"version": 1, "colliders": [
            { "shape": { "kind": "circle", "radius": 1 }, "position": [0, 0] },
            { "shape": { "kind": "circle", "radius": 1 }, "position": [1.5, 0] },
            { "shape": { "kind": "regular", "sides": 6, "radius": 1 }, "position": [6, 0] }
        ]}"#,
    )
    .unwrap();
    let mut sim = collide2d_cli::sim::Sim::build(&scene, path).unwrap();
    sim.world.update();
    let options = RenderOptions {
        width: 300,
        height: 100,
        ..RenderOptions::default()
    };
    let canvas = render_world(&sim.world, &options).unwrap();
    let overlap = canvas.pixel_at(Vec2::new(-0.5, 0.3)).unwrap();
    let free = canvas.pixel_at(Vec2::new(6.2, 0.3)).unwrap();
    // Fills are the state colour at half opacity over the background.
    let closest = |c: Color| {
        [Color::FREE, Color::OVERLAPPING, Color::SENSOR]
            .into_iter()
            .min_by_key(|k| {
                let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
                d(k.r, c.r) + d(k.g, c.g) + d(k.b, c.b)
            })
            .unwrap()
    };
    assert_eq!(closest(overlap), Color::OVERLAPPING, "{overlap:?}");
    assert_eq!(closest(free), Color::FREE, "{free:?}");
}

#[test]
fn query_prints_text_and_json() {
    let dir = scratch("query");
    let pair = scenes().join("pair.json");
    let text = collide2d(&["query", pair.to_str().unwrap()], &dir);
    assert_ok(&text);
    for word in ["overlap:", "manifold:", "distance:", "cast:"] {
        assert!(stdout(&text).contains(word), "{}", stdout(&text));
    }
    let json = collide2d(&["query", pair.to_str().unwrap(), "--json"], &dir);
    assert_ok(&json);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["overlap"], false);
    assert!(value["distance"]["distance"].as_f64().unwrap() > 0.0);
    let t = value["cast"]["t"].as_f64().unwrap();
    assert!(t > 0.0 && t < 1.0, "{t}");
}

#[test]
fn query_reports_an_overlapping_pair_with_its_manifold() {
    let dir = scratch("query-overlap");
    let pair = write(
        &dir,
        "pair.json",
        r#"{"version": 1,
            "a": {"shape": {"kind": "circle", "radius": 1}},
            "b": {"shape": {"kind": "circle", "radius": 1}, "position": [1.5, 0]}}"#,
    );
    let output = collide2d(&["query", pair.to_str().unwrap(), "--json"], &dir);
    assert_ok(&output);
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["overlap"], true);
    assert_eq!(value["manifold"]["normal"][0], 1.0);
    let depth = value["manifold"]["points"][0]["penetration"]
        .as_f64()
        .unwrap();
    assert!((depth - 0.5).abs() < 1e-5, "{depth}");
}

#[test]
fn bench_prints_a_table_per_broad_phase_and_a_plot() {
    let dir = scratch("bench");
    let output = collide2d(
        &[
            "bench",
            "--n",
            "100,1000",
            "--broad",
            "tree,grid,sap",
            "--frames",
            "2",
            "--plot",
            "plot.png",
        ],
        &dir,
    );
    assert_ok(&output);
    let text = stdout(&output);
    assert!(
        text.contains("tree ms") && text.contains("grid ms") && text.contains("sap ms"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("1000 ")),
        "{text}"
    );
    assert_eq!(decode_png(&dir.join("plot.png")).1, 900);
}

#[test]
fn bench_refuses_an_unknown_broad_phase() {
    let dir = scratch("bench-bad");
    let output = collide2d(&["bench", "--n", "10", "--broad", "quadtree"], &dir);
    assert_refused(&output, &["unknown broad phase `quadtree`"]);
}

#[test]
fn malformed_json_names_file_line_and_column() {
    let dir = scratch("malformed");
    let scene = write(
        &dir,
        "broken.json",
        "{\n  \"version\": 1,\n  \"colliders\": [\n}\n",
    );
    let output = collide2d(&["run", scene.to_str().unwrap()], &dir);
    assert_refused(&output, &["broken.json", "invalid JSON", "line 4 column 1"]);
}

#[test]
fn unknown_shape_kind_is_named() {
    let dir = scratch("unknown-kind");
    let scene = write(
        &dir,
        "blob.json",
        "{\"version\": 1,\n\"colliders\": [{\"shape\": {\"kind\": \"blob\", \"radius\": 1}}]}",
    );
    let output = collide2d(&["render", scene.to_str().unwrap(), "-o", "x.png"], &dir);
    assert_refused(&output, &["blob.json", "unknown variant `blob`", "line 2"]);
    assert!(!dir.join("x.png").exists());
}

#[test]
fn nan_in_a_transform_is_refused() {
    let dir = scratch("nan");
    let scene = write(
        &dir,
        "nan.json",
        "{\"version\": 1, \"colliders\": [\n {\"shape\": {\"kind\": \"circle\", \"radius\": 1}, \"position\": [NaN, 0]}]}",
    );
    let output = collide2d(&["run", scene.to_str().unwrap()], &dir);
    assert_refused(&output, &["nan.json", "line 2", "no NaN"]);
    let huge = write(
        &dir,
        "huge.json",
        "{\"version\": 1, \"colliders\": [\n {\"shape\": {\"kind\": \"circle\", \"radius\": 1}, \"angle\": 1e39}]}",
    );
    let output = collide2d(&["run", huge.to_str().unwrap()], &dir);
    assert_refused(
        &output,
        &["huge.json", "not a finite 32-bit float", "line 2"],
    );
}

#[test]
fn negative_radius_unknown_layer_and_bad_version_are_explained() {
    let dir = scratch("semantic");
    let negative = write(
        &dir,
        "negative.json",
        r#"{"version": 1, "colliders": [{"shape": {"kind": "capsule", "a": [0, 0], "b": [1, 0], "radius": -2}}]}"#,
    );
    assert_refused(
        &collide2d(&["run", negative.to_str().unwrap()], &dir),
        &[
            "negative.json",
            "bad capsule: radius -2 is negative",
            "line 1",
        ],
    );
    let layer = write(
        &dir,
        "layer.json",
        r#"{"version": 1, "layers": ["A"], "colliders": [{"shape": {"kind": "circle", "radius": 1}, "layer": "B"}]}"#,
    );
    assert_refused(
        &collide2d(&["run", layer.to_str().unwrap()], &dir),
        &["layer.json", "colliders[0].layer", "no layer is named `B`"],
    );
    let version = write(&dir, "v2.json", r#"{"version": 2}"#);
    assert_refused(
        &collide2d(&["run", version.to_str().unwrap()], &dir),
        &["v2.json", "unsupported version 2"],
    );
    let field = write(&dir, "typo.json", r#"{"version": 1, "colliderz": []}"#);
    assert_refused(
        &collide2d(&["run", field.to_str().unwrap()], &dir),
        &["typo.json", "unknown field `colliderz`"],
    );
}

#[test]
fn missing_files_are_reported_by_every_subcommand() {
    let dir = scratch("missing");
    for args in [
        vec!["run", "nowhere.json"],
        vec!["render", "nowhere.json", "-o", "x.png"],
        vec!["query", "nowhere.json"],
    ] {
        assert_refused(&collide2d(&args, &dir), &["nowhere.json", "cannot read"]);
    }
}

#[test]
fn bad_pair_files_are_refused() {
    let dir = scratch("bad-pair");
    let pair = write(
        &dir,
        "pair.json",
        "{\"version\": 1,\n \"a\": {\"shape\": {\"kind\": \"circle\", \"radius\": 1}}}",
    );
    assert_refused(
        &collide2d(&["query", pair.to_str().unwrap()], &dir),
        &["pair.json", "missing field `b`"],
    );
}

#[test]
fn render_draws_the_broad_phase_of_a_hash_grid() {
    let dir = scratch("render-broad");
    let scene = write(
        &dir,
        "grid.json",
        r#"{"version": 1, "broad_phase": "grid", "grid_cell": 2, "view": [0, 0, 20, 20],
            "colliders": [{ "shape": { "kind": "circle", "radius": 0.5 }, "position": [5, 5] }]}"#,
    );
    let plain = collide2d(
        &[
            "render",
            scene.to_str().unwrap(),
            "-o",
            "plain.png",
            "--width",
            "200",
            "--height",
            "200",
        ],
        &dir,
    );
    assert_ok(&plain);
    let broad = collide2d(
        &[
            "render",
            scene.to_str().unwrap(),
            "-o",
            "broad.png",
            "--broad",
            "--width",
            "200",
            "--height",
            "200",
        ],
        &dir,
    );
    assert_ok(&broad);
    // A grid line at x = 12 crosses empty space: background without --broad, lighter with it.
    let (plain, width, _) = decode_png(&dir.join("plain.png"));
    let (lined, _, _) = decode_png(&dir.join("broad.png"));
    let (x, y) = view_pixel(20.0, 200, 200, 12.0, 16.0);
    let brightness = |p: [u8; 3]| p.iter().map(|&c| u32::from(c)).sum::<u32>();
    assert!(
        brightness(pixel(&lined, width, x, y)) > brightness(pixel(&plain, width, x, y)) + 20,
        "{:?} vs {:?}",
        pixel(&lined, width, x, y),
        pixel(&plain, width, x, y)
    );
}

#[test]
fn every_shipped_scene_loads_and_runs_a_frame() {
    let dir = scratch("shipped");
    for name in [
        "demo.json",
        "tilemap.json",
        "bullets.json",
        "staircases.json",
    ] {
        let scene = scenes().join(name);
        let output = collide2d(&["run", scene.to_str().unwrap(), "--frames", "1"], &dir);
        assert_ok(&output);
    }
}

#[test]
#[ignore = "builds a million colliders: a few seconds in release, longer in debug"]
fn million_circle_scene_runs_one_frame() {
    let dir = scratch("million");
    let scene = scenes().join("million.json");
    let output = collide2d(&["run", scene.to_str().unwrap(), "--frames", "1"], &dir);
    assert_ok(&output);
    assert!(stdout(&output).contains("1000000 colliders"));
}

#[test]
fn run_records_an_animated_gif() {
    let dir = scratch("gif");
    let scene = scenes().join("bullets.json");
    run_scene(
        &scene,
        30,
        &[
            "--gif",
            "shots.gif",
            "--gif-every",
            "3",
            "--gif-width",
            "150",
        ],
        &dir,
    );
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(dir.join("shots.gif")).unwrap())
        .unwrap();
    assert_eq!((decoder.width(), decoder.height()), (150, 100));
    let mut frames = 0;
    let mut green_pixels = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames += 1;
        green_pixels += frame
            .buffer
            .chunks_exact(4)
            .filter(|p| dominant([p[0], p[1], p[2]]) == Some(1))
            .count();
    }
    assert_eq!(frames, 10);
    assert!(green_pixels > 0, "the walls are drawn");
}

/// Like [`collide2d`], with extra environment variables.
fn collide2d_env(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_collide2d"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// Progress as plain lines on stderr, so a test can see which jobs started.
const PROGRESS_LINES: (&str, &str) = ("COLLIDE2D_PROGRESS", "lines");

/// The exact block from the field report: 4,000 × 5,000 = 20,000,000 moving circles, within
/// the 20,000,000-copy cap of a `grids` block, but about 12 GB once built.
const OVER_MEMORY_GRID: &str = r#"{"version": 1, "grids": [{"rows": 4000, "cols": 5000,
    "spacing": [1, 1], "shape": {"kind": "circle", "radius": 0.4}, "speed": [0, 1]}]}"#;

#[test]
fn a_scene_too_large_for_memory_is_refused_before_building() {
    let dir = scratch("over-memory");
    let scene = write(&dir, "huge.json", OVER_MEMORY_GRID);
    let output = collide2d_env(
        &["run", scene.to_str().unwrap(), "--png", "never.png"],
        &dir,
        &[PROGRESS_LINES, ("COLLIDE2D_MEMORY_LIMIT", "8G")],
    );
    assert_refused(
        &output,
        &[
            "huge.json: grids[0]: 4000 × 5000 = 20000000 colliders would need about",
            "but only 6.4 GB of the 8.0 GB COLLIDE2D_MEMORY_LIMIT may be used; refused before building",
        ],
    );
    let message = stderr(&output);
    assert!(
        !message.contains("building:"),
        "the build started: {message}"
    );
    assert_eq!(message.lines().count(), 1, "one line: {message}");
    assert!(!dir.join("never.png").exists());

    // Without a limit, the machine's own MemAvailable decides: fifty such blocks (about
    // 650 GB) fit nowhere, and the message names the block that tips the scene over.
    let blocks = vec![
        r#"{"rows": 4000, "cols": 5000, "spacing": [1, 1], "shape": {"kind": "circle", "radius": 0.4}}"#;
        50
    ];
    let many = write(
        &dir,
        "many.json",
        &format!(r#"{{"version": 1, "grids": [{}]}}"#, blocks.join(",")),
    );
    let output = collide2d_env(
        &["render", many.to_str().unwrap(), "-o", "x.png"],
        &dir,
        &[PROGRESS_LINES],
    );
    assert_refused(
        &output,
        &[
            "many.json: grids[",
            "MemAvailable may be used; refused before building",
        ],
    );
    assert!(!stderr(&output).contains("building:"));
}

#[test]
fn a_scene_that_fits_shows_its_build_progress() {
    // The counterpart of the refusal test: with progress lines on, a build is visible.
    let dir = scratch("build-progress");
    let scene = write(
        &dir,
        "small.json",
        r#"{"version": 1, "grids": [{"rows": 10, "cols": 10, "spacing": [1, 1],
            "shape": {"kind": "circle", "radius": 0.4}}]}"#,
    );
    let output = collide2d_env(
        &["run", scene.to_str().unwrap(), "--frames", "2"],
        &dir,
        &[PROGRESS_LINES, ("COLLIDE2D_MEMORY_LIMIT", "8G")],
    );
    assert_ok(&output);
    let message = stderr(&output);
    for line in [
        "building: 100 colliders",
        "building: done, 100 colliders in",
        "running: 2 frames",
        "running: done, 2 frames in",
    ] {
        assert!(message.contains(line), "`{line}` not in: {message}");
    }
}

#[test]
fn bad_output_paths_and_sizes_fail_before_any_work() {
    let dir = scratch("bad-outputs");
    let bullets = scenes().join("bullets.json");
    let bullets = bullets.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["run", bullets, "--png", "/nonexistent/m.png"],
            "--png /nonexistent/m.png: the folder /nonexistent does not exist",
        ),
        (
            vec!["run", bullets, "--png", "out.jpg"],
            "--png out.jpg: the name ends in .jpg, but a PNG picture is written; use a name ending in .png",
        ),
        (
            vec!["run", bullets, "--gif", "out.png"],
            "--gif out.png: the name ends in .png, but an animated GIF is written; use a name ending in .gif",
        ),
        (
            vec!["run", bullets, "--events", "/nonexistent/e.jsonl"],
            "--events /nonexistent/e.jsonl: the folder /nonexistent does not exist",
        ),
        (
            vec!["run", bullets, "--gif", "a.gif", "--gif-width", "0"],
            "--gif-width 0: a picture is 1 to 4096 pixels wide",
        ),
        (
            vec!["run", bullets, "--png", "a.png", "--height", "0"],
            "--height 0: a picture is 1 to 16384 pixels high",
        ),
        (
            vec!["render", bullets, "-o", "frame"],
            "--output frame: the name has no extension, but a PNG picture is written",
        ),
        (
            vec!["render", bullets, "-o", "a.png", "--width", "20000"],
            "--width 20000: a picture is 1 to 16384 pixels wide",
        ),
        (
            vec!["demo", "--width", "0"],
            "--width 0: a picture is 1 to 16384 pixels wide",
        ),
        (
            vec!["demo", "--png", "/nonexistent/d.png"],
            "--png /nonexistent/d.png: the folder /nonexistent does not exist",
        ),
        (
            vec!["bench", "--n", "100", "--plot", "/nonexistent/p.png"],
            "--plot /nonexistent/p.png: the folder /nonexistent does not exist",
        ),
        (
            vec!["bench", "--n", "100", "--plot", "plot.svg"],
            "--plot plot.svg: the name ends in .svg, but a PNG picture is written",
        ),
    ];
    for (args, message) in cases {
        let output = collide2d_env(&args, &dir, &[PROGRESS_LINES]);
        assert_refused(&output, &[message]);
        let log = stderr(&output);
        // No job started: no build, run, drawing or bench progress, and no table printed.
        for job in ["building:", "running:", "drawing:", "benchmarking:"] {
            assert!(!log.contains(job), "{args:?}: `{job}` started: {log}");
        }
        assert_eq!(stdout(&output), "", "{args:?}");
    }
    assert_eq!(
        std::fs::read_dir(&*dir).unwrap().count(),
        0,
        "nothing written"
    );
}

#[test]
fn a_run_shorter_than_the_gif_interval_writes_a_gif_that_opens() {
    let dir = scratch("short-gif");
    let scene = scenes().join("bullets.json");
    let output = run_scene(
        &scene,
        2,
        &[
            "--gif",
            "short.gif",
            "--gif-every",
            "5",
            "--gif-width",
            "90",
        ],
        &dir,
    );
    assert!(
        stdout(&output).contains("wrote short.gif (1 picture)"),
        "{}",
        stdout(&output)
    );
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(dir.join("short.gif")).unwrap())
        .unwrap();
    assert_eq!((decoder.width(), decoder.height()), (90, 60));
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 1);
}

#[test]
fn ragged_tile_rows_and_empty_files_are_named() {
    let dir = scratch("ragged-empty");
    let ragged = write(
        &dir,
        "ragged.json",
        r#####"{"version": 1, "tiles": {"size": 1, "rows": ["####", "#..", "####"]}}"#####,
    );
    assert_refused(
        &collide2d(&["run", ragged.to_str().unwrap()], &dir),
        &["ragged.json: tiles.rows[1]: 3 characters, but row 0 has 4; every row must be as long as the first"],
    );
    let empty = write(&dir, "empty.json", "");
    let blank = write(&dir, "blank.json", " \n\t\n");
    for (file, what) in [
        (&empty, "the file is empty"),
        (&blank, "the file holds only white space"),
    ] {
        for args in [
            vec!["run", file.to_str().unwrap()],
            vec!["query", file.to_str().unwrap()],
        ] {
            let name = file.file_name().unwrap().to_str().unwrap();
            assert_refused(
                &collide2d(&args, &dir),
                &[&format!(
                    "{name}: {what}; expected one JSON object with \"version\": 1"
                )],
            );
        }
    }
}

#[test]
fn bench_refuses_zero_frames_and_names_one_frame_in_the_singular() {
    let dir = scratch("bench-frames");
    assert_refused(
        &collide2d(&["bench", "--n", "10", "--frames", "0"], &dir),
        &["--frames 0: the bench times at least 1 frame per measurement"],
    );
    let output = collide2d(
        &["bench", "--n", "10", "--broad", "tree", "--frames", "1"],
        &dir,
    );
    assert_ok(&output);
    assert!(
        stdout(&output).contains("median of 1 frame (every"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn json_syntax_errors_get_the_nan_hint_only_when_the_text_has_nan_or_infinity() {
    let dir = scratch("json-hint");
    let comma = write(&dir, "comma.json", "{\"version\": 1,\n \"colliders\": [,]}");
    let output = collide2d(&["run", comma.to_str().unwrap()], &dir);
    assert_refused(
        &output,
        &["comma.json: invalid JSON: expected value at line 2 column 16"],
    );
    assert!(!stderr(&output).contains("NaN"), "{}", stderr(&output));
    let infinity = write(
        &dir,
        "infinity.json",
        "{\"version\": 1, \"colliders\": [{\"shape\": {\"kind\": \"circle\", \"radius\": Infinity}}]}",
    );
    assert_refused(
        &collide2d(&["run", infinity.to_str().unwrap()], &dir),
        &["infinity.json: invalid JSON", "JSON has no NaN or Infinity"],
    );
}

/// Every number token of a JSON line.
fn number_tokens(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
        .filter(|token| token.chars().any(|c| c.is_ascii_digit()))
        .collect()
}

#[test]
fn event_json_numbers_are_the_shortest_f32_decimals() {
    let dir = scratch("f32-json");
    let scene = scenes().join("bullets.json");
    run_scene(&scene, 30, &["--events", "e.jsonl"], &dir);
    let events = std::fs::read_to_string(dir.join("e.jsonl")).unwrap();
    let mut fractional = 0;
    for line in events.lines() {
        for token in number_tokens(line) {
            // The token reads back as an f32 whose shortest decimal is the token itself.
            let value: f32 = token.parse().unwrap();
            let shortest: f64 = format!("{value}").parse().unwrap();
            assert_eq!(token.parse::<f64>().unwrap(), shortest, "{token} in {line}");
            fractional += usize::from(token.contains('.'));
        }
    }
    assert!(fractional > 100, "{fractional} fractional numbers checked");
    // The regression: 0.1 written through f64 used to read 0.10000000149011612.
    assert!(!events.contains("0000000"), "long decimals remain");
}

#[test]
fn render_prints_what_it_drew_and_zooms_with_view_and_follow() {
    let dir = scratch("render-view");
    let scene = scenes().join("tilemap.json");
    let scene = scene.to_str().unwrap();
    let output = collide2d(
        &[
            "render",
            scene,
            "-o",
            "zoom.png",
            "--view",
            "-2,-1,6,4",
            "--width",
            "400",
            "--height",
            "300",
        ],
        &dir,
    );
    assert_ok(&output);
    let text = stdout(&output);
    assert!(
        text.contains("wrote zoom.png (400 × 300, frame 1,"),
        "{text}"
    );
    assert!(text.contains("view -2,-1,6,4;"), "{text}");
    assert!(text.contains("legend: free = rgb"), "{text}");
    let follow = collide2d(
        &[
            "render",
            scene,
            "-o",
            "follow.png",
            "--follow",
            "character",
            "--frames",
            "10",
        ],
        &dir,
    );
    assert_ok(&follow);
    assert!(
        stdout(&follow).contains("wrote follow.png"),
        "{}",
        stdout(&follow)
    );
    assert_refused(
        &collide2d(
            &["render", scene, "-o", "x.png", "--follow", "nobody"],
            &dir,
        ),
        &["--follow nobody: no collider is named `nobody` (names in the scene include: "],
    );
    assert_refused(
        &collide2d(&["render", scene, "-o", "x.png", "--view", "0,0,1"], &dir),
        &[
            "--view",
            "expected four numbers x0,y0,x1,y1 separated by commas, found 3",
        ],
    );
    assert_refused(
        &collide2d(&["render", scene, "-o", "x.png", "--view", "5,0,1,1"], &dir),
        &["x0 < x1 and y0 < y1 are needed"],
    );
}

/// `collide2d render ... | head -1`: a reader that closes the pipe before the command prints
/// must not make it panic. The command still writes its files and exits successfully.
#[test]
fn a_closed_standard_output_ends_quietly_and_files_are_still_written() {
    let dir = scratch("closed-pipe");
    let bullets = scenes().join("bullets.json");
    let tilemap = scenes().join("tilemap.json");
    let pair = scenes().join("pair.json");
    let cases: [(Vec<&str>, Option<&str>); 4] = [
        (
            vec!["render", bullets.to_str().unwrap(), "-o", "frame.png"],
            Some("frame.png"),
        ),
        (
            vec![
                "run",
                tilemap.to_str().unwrap(),
                "--frames",
                "5",
                "--png",
                "last.png",
            ],
            Some("last.png"),
        ),
        (vec!["query", pair.to_str().unwrap()], None),
        (
            vec!["bench", "--n", "100", "--broad", "tree", "--frames", "1"],
            None,
        ),
    ];
    for (args, file) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_collide2d"))
            .args(&args)
            .current_dir(&*dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // The reader goes away before the command has printed anything.
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success() && !stderr(&output).contains("panicked"),
            "{args:?}: exit {:?}\nstderr:\n{}",
            output.status,
            stderr(&output)
        );
        if let Some(file) = file {
            assert!(dir.join(file).exists(), "{args:?} did not write {file}");
        }
    }
}

/// A `begin` found by a continuous collider's sweep gives the moment of first touch as a
/// fraction of the frame; a `begin` found at the end of a frame gives none.
#[test]
fn event_output_gives_the_time_of_impact_of_a_swept_begin() {
    let dir = scratch("time-of-impact");
    // The shot moves 10 units in its first frame (600 units/s at 60 frames a second), from
    // x = 0 through the 0.1-wide wall at x = 5: it first touches when its centre is at
    // 5 - 0.05 - 0.1 = 4.85, 0.485 of the way. The two circles overlap from the start.
    let scene = write(
        &dir,
        "shot.json",
        r#"{
  "version": 1,
  "colliders": [
    { "name": "wall", "shape": { "kind": "box", "width": 0.1, "height": 4 }, "position": [5, 0] },
    { "name": "shot", "shape": { "kind": "circle", "radius": 0.1 }, "position": [0, 0],
      "velocity": [600, 0], "body": "kinematic", "continuous": true },
    { "name": "left", "shape": { "kind": "circle", "radius": 0.5 }, "position": [0, 10] },
    { "name": "right", "shape": { "kind": "circle", "radius": 0.5 }, "position": [0.5, 10] }
  ]
}"#,
    );
    run_scene(&scene, 2, &["--events", "events.jsonl"], &dir);
    let events: Vec<serde_json::Value> = std::fs::read_to_string(dir.join("events.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let find = |kind: &str, name: &str| {
        events
            .iter()
            .find(|e| e["kind"] == kind && (e["a_name"] == name || e["b_name"] == name))
            .unwrap_or_else(|| panic!("no {kind} of {name} in {events:?}"))
    };
    let swept = find("begin", "shot");
    assert_eq!(swept["frame"], 1);
    let time = swept["time_of_impact"]
        .as_f64()
        .unwrap_or_else(|| panic!("no time_of_impact in {swept}"));
    assert!((time - 0.485).abs() < 1e-3, "time of impact {time}");
    assert_eq!(find("end", "shot")["frame"], 2);
    let resting = find("begin", "left");
    assert_eq!(resting["frame"], 1);
    assert!(resting.get("time_of_impact").is_none(), "{resting}");
}
