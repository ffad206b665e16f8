//! Reads the criterion results of `benches/broad_phase.rs` and writes the broad-phase table
//! (Markdown, to stdout) and a log-log plot (`docs/broad_phase.svg`, hand-written SVG).
//!
//! Run after the bench: `cargo run --release -p collide2d-tools --bin broad_plot`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// (operation, scene, structure, n) → mean time in nanoseconds.
type Results = BTreeMap<(String, String, String, u64), f64>;

fn find_files(directory: &Path, name: &str, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            find_files(&path, name, found);
        } else if path.file_name().is_some_and(|file| file == name)
            && path.parent().is_some_and(|parent| parent.ends_with("new"))
        {
            found.push(path);
        }
    }
}

fn load(criterion_directory: &Path) -> Results {
    let mut files = Vec::new();
    find_files(criterion_directory, "benchmark.json", &mut files);
    let mut results = Results::new();
    for file in files {
        let read_json = |path: &Path| -> Option<serde_json::Value> {
            serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
        };
        let Some(benchmark) = read_json(&file) else {
            continue;
        };
        let Some(estimates) = read_json(&file.with_file_name("estimates.json")) else {
            continue;
        };
        let Some(function) = benchmark["function_id"].as_str() else {
            continue;
        };
        let parts: Vec<&str> = function.split('/').collect();
        let (Some(mean), [operation, scene, structure, n]) = (
            estimates["mean"]["point_estimate"].as_f64(),
            parts.as_slice(),
        ) else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else { continue };
        results.insert(
            (
                operation.to_string(),
                scene.to_string(),
                structure.to_string(),
                n,
            ),
            mean,
        );
    }
    results
}

fn format_time(nanoseconds: f64) -> String {
    if nanoseconds >= 1.0e9 {
        format!("{:.2} s", nanoseconds / 1.0e9)
    } else if nanoseconds >= 1.0e6 {
        format!("{:.2} ms", nanoseconds / 1.0e6)
    } else {
        format!("{:.1} µs", nanoseconds / 1.0e3)
    }
}

const STRUCTURES: [&str; 4] = ["tree", "grid", "sap", "parry"];

fn table(results: &Results) -> String {
    let mut out = String::new();
    let mut rows: Vec<(String, String, u64)> = results
        .keys()
        .map(|(operation, scene, _, n)| (operation.clone(), scene.clone(), *n))
        .collect();
    rows.sort_by_key(|(operation, scene, n)| {
        let order = ["frame", "pairs", "build"]
            .iter()
            .position(|o| o == operation);
        (order, scene != "uniform", scene.clone(), *n)
    });
    rows.dedup();
    let _ = writeln!(
        out,
        "| operation | scene | n | tree | grid | sap | parry2d Bvh | parry / tree |"
    );
    let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|");
    for (operation, scene, n) in rows {
        let time = |structure: &str| {
            results
                .get(&(operation.clone(), scene.clone(), structure.to_string(), n))
                .copied()
        };
        let cells: Vec<String> = STRUCTURES
            .iter()
            .map(|structure| time(structure).map_or("–".to_string(), format_time))
            .collect();
        let ratio = match (time("parry"), time("tree")) {
            (Some(parry), Some(tree)) => format!("{:.2}×", parry / tree),
            _ => "–".to_string(),
        };
        let _ = writeln!(
            out,
            "| {operation} | {scene} | {n} | {} | {} | {} | {} | {ratio} |",
            cells[0], cells[1], cells[2], cells[3]
        );
    }
    out
}

/// One log-log panel: time against n for each structure, uniform scene.
fn panel(svg: &mut String, results: &Results, operation: &str, title: &str, left: f64) {
    let (width, height, top) = (420.0, 320.0, 40.0);
    let (n_min, n_max) = (1.0e3f64.log10(), 1.0e6f64.log10());
    let times: Vec<f64> = results
        .iter()
        .filter(|((op, scene, _, _), _)| op == operation && scene == "uniform")
        .map(|(_, time)| *time)
        .collect();
    if times.is_empty() {
        return;
    }
    let t_min = times
        .iter()
        .cloned()
        .fold(f64::INFINITY, f64::min)
        .log10()
        .floor();
    let t_max = times.iter().cloned().fold(0.0, f64::max).log10().ceil();
    let x_of = |n: f64| left + 50.0 + (n.log10() - n_min) / (n_max - n_min) * (width - 70.0);
    let y_of =
        |t: f64| top + height - 40.0 - (t.log10() - t_min) / (t_max - t_min) * (height - 60.0);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" font-size="15" text-anchor="middle">{title}</text>"#,
        left + width / 2.0,
        top - 14.0
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{}" y="{top}" width="{}" height="{}" fill="none" stroke="#888"/>"##,
        left + 50.0,
        width - 70.0,
        height - 40.0
    );
    for n in [1.0e3, 1.0e4, 1.0e5, 1.0e6] {
        let x = x_of(n);
        let _ = writeln!(
            svg,
            r##"<line x1="{x}" y1="{top}" x2="{x}" y2="{}" stroke="#eee"/><text x="{x}" y="{}" font-size="11" text-anchor="middle">{}</text>"##,
            top + height - 40.0,
            top + height - 25.0,
            match n as u64 {
                1_000 => "1k",
                10_000 => "10k",
                100_000 => "100k",
                _ => "1M",
            }
        );
    }
    let mut decade = t_min;
    while decade <= t_max {
        let t = 10f64.powf(decade);
        let y = y_of(t);
        let _ = writeln!(
            svg,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#eee"/><text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>"##,
            left + 50.0,
            left + width - 20.0,
            left + 46.0,
            y + 4.0,
            format_time(t)
        );
        decade += 1.0;
    }
    let colors = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a"];
    for (structure, color) in STRUCTURES.iter().zip(colors) {
        let points: Vec<(f64, f64)> = results
            .iter()
            .filter(|((op, scene, s, _), _)| {
                op == operation && scene == "uniform" && s == structure
            })
            .map(|((_, _, _, n), time)| (x_of(*n as f64), y_of(*time)))
            .collect();
        let path: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for (x, y) in points {
            let _ = writeln!(
                svg,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{color}"/>"#
            );
        }
    }
}

fn plot(results: &Results) -> String {
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="880" height="400" font-family="sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="880" height="400" fill="white"/>"#);
    panel(
        &mut svg,
        results,
        "frame",
        "Frame: 10% of boxes move (update + pair changes)",
        0.0,
    );
    panel(&mut svg, results, "pairs", "All pairs from scratch", 440.0);
    let names = ["DynamicTree", "HashGrid", "SweepAndPrune", "parry2d Bvh"];
    let colors = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a"];
    for (index, (name, color)) in names.iter().zip(colors).enumerate() {
        let x = 120.0 + index as f64 * 170.0;
        let _ = writeln!(
            svg,
            r#"<rect x="{x}" y="372" width="14" height="4" fill="{color}"/><text x="{}" y="378" font-size="12">{name}</text>"#,
            x + 20.0
        );
    }
    let _ = writeln!(svg, "</svg>");
    svg
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let criterion = root.join("target/criterion");
    let results = load(&criterion);
    if results.is_empty() {
        eprintln!(
            "no results under {}; run `cargo bench -p collide2d --bench broad_phase` first",
            criterion.display()
        );
        std::process::exit(1);
    }
    print!("{}", table(&results));
    let docs = root.join("docs");
    std::fs::create_dir_all(&docs).expect("create docs/");
    std::fs::write(docs.join("broad_phase.svg"), plot(&results))
        .expect("write docs/broad_phase.svg");
    eprintln!("wrote {}", docs.join("broad_phase.svg").display());
}
