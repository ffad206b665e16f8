//! The `collide2d` command as a user runs it: every subcommand, bad files, and the pictures.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    let output = collide2d(
        &[
            "run",
            scene.to_str().unwrap(),
            "--frames",
            "120",
            "--events",
            "events.jsonl",
            "--png",
            "last.png",
        ],
        &dir,
    );
    assert_ok(&output);
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
    let output = collide2d(
        &[
            "run",
            scene.to_str().unwrap(),
            "--frames",
            "30",
            "--events",
            "events.jsonl",
        ],
        &dir,
    );
    assert_ok(&output);
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
    // 200 × 200 pixels showing 0..20 on both axes: 10 pixels per unit, y up.
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
    let at = |x: f32, y: f32| pixel(&pixels, width, (x * 10.0) as u32, (200.0 - y * 10.0) as u32);
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
    let (x, y) = (120, 60);
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
    let output = collide2d(
        &[
            "run",
            scene.to_str().unwrap(),
            "--frames",
            "30",
            "--gif",
            "shots.gif",
            "--gif-every",
            "3",
            "--gif-width",
            "150",
        ],
        &dir,
    );
    assert_ok(&output);
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
