//! `collide2d bench`: how `World::update` scales with the number of colliders, per broad phase.
//!
//! Each world holds N circles of radius 0.5 at a constant density (about 20% of the area
//! covered) moving at 1–3 units per second inside a box; every frame moves all of them, so
//! every pair is re-tested: the worst case for incremental work.

use crate::error::CliError;
use crate::font::{draw_text, fill_rect, text_width};
use crate::rng::Rng;
use collide2d::debug::{Canvas, Color, DebugDraw, RenderError};
use collide2d::shape::{Aabb, Circle, Shape};
use collide2d::world::{BroadPhaseKind, Collider, World};
use collide2d::{Transform, Vec2};
use std::time::{Duration, Instant};

/// A broad phase by its command-line name.
pub fn parse_broad(name: &str) -> Result<(String, BroadPhaseKind), CliError> {
    match name.trim() {
        "tree" => Ok(("tree".into(), BroadPhaseKind::Tree)),
        "grid" => Ok(("grid".into(), BroadPhaseKind::Grid { cell_size: 2.0 })),
        "sap" => Ok(("sap".into(), BroadPhaseKind::SweepAndPrune)),
        other => Err(CliError::Argument(format!(
            "unknown broad phase `{other}` (expected tree, grid or sap)"
        ))),
    }
}

/// One measured point.
#[derive(Clone, Debug)]
pub struct BenchPoint {
    /// Broad phase name.
    pub broad: String,
    /// Number of colliders.
    pub n: usize,
    /// Median `World::update` time per frame.
    pub update: Duration,
    /// Time to build the world and run the first update.
    pub build: Duration,
    /// Candidate pairs in the last frame.
    pub pairs: usize,
}

/// Measures `frames` updates of an `n`-circle world with broad phase `kind`.
pub fn measure(n: usize, name: &str, kind: BroadPhaseKind, frames: u32) -> BenchPoint {
    let started = Instant::now();
    let side = (n as f32 * 4.0).sqrt().max(4.0);
    let mut world = World::with_broad_phase(kind).expect("bench broad phases are valid");
    let shape = Shape::from(Circle::with_radius(0.5).expect("a valid radius"));
    let mut rng = Rng::new(n as u64);
    let mut bodies = Vec::with_capacity(n);
    for _ in 0..n {
        let position = Vec2::new(rng.range(0.5, side - 0.5), rng.range(0.5, side - 0.5));
        let velocity =
            Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)) * rng.range(1.0, 3.0);
        let handle = world
            .insert(
                Collider::new(shape.clone()).with_transform(Transform::from_translation(position)),
            )
            .expect("finite bench positions");
        bodies.push((handle, position, velocity));
    }
    world.update();
    let build = started.elapsed();
    let dt = 1.0 / 60.0;
    let mut times = Vec::with_capacity(frames as usize);
    for _ in 0..frames.max(1) {
        for (handle, position, velocity) in &mut bodies {
            *position += *velocity * dt;
            for axis in 0..2 {
                if position[axis] < 0.5 || position[axis] > side - 0.5 {
                    velocity[axis] = -velocity[axis];
                }
            }
            let _ = world.set_transform(*handle, Transform::from_translation(*position));
        }
        let before = Instant::now();
        world.update();
        times.push(before.elapsed());
    }
    times.sort_unstable();
    BenchPoint {
        broad: name.to_string(),
        n,
        update: times[times.len() / 2],
        build,
        pairs: world.stats().candidate_pairs,
    }
}

/// The scaling table: one row per N, one column per broad phase (median ms per frame).
pub fn table(points: &[BenchPoint], sizes: &[usize], broads: &[String]) -> String {
    let mut out = format!("{:>10}", "colliders");
    for broad in broads {
        out.push_str(&format!(" {:>12}", format!("{broad} ms")));
    }
    out.push_str(&format!(" {:>14}\n", "pairs/frame"));
    for &n in sizes {
        out.push_str(&format!("{n:>10}"));
        let mut pairs = 0;
        for broad in broads {
            match points.iter().find(|p| p.n == n && &p.broad == broad) {
                Some(point) => {
                    out.push_str(&format!(" {:>12.3}", point.update.as_secs_f64() * 1e3));
                    pairs = point.pairs;
                }
                None => out.push_str(&format!(" {:>12}", "-")),
            }
        }
        out.push_str(&format!(" {pairs:>14}\n"));
    }
    out
}

/// Line colours of the plot, by broad phase order.
const SERIES: [Color; 3] = [Color::FREE, Color::SENSOR, Color::CONTACT];

/// A log-log plot of ms per frame against colliders, one line per broad phase.
pub fn plot(
    points: &[BenchPoint],
    broads: &[String],
    width: u32,
    height: u32,
) -> Result<Canvas, RenderError> {
    let log = |v: f64| v.max(1e-6).log10() as f32;
    let ns = points.iter().map(|p| log(p.n as f64));
    let ms = points.iter().map(|p| log(p.update.as_secs_f64() * 1e3));
    let (x0, x1) = bounds(ns);
    let (y0, y1) = bounds(ms);
    // Plot coordinates: x in [0, aspect], y in [0, 1].
    let aspect = 1.5;
    let to_plot = |n: f32, t: f32| Vec2::new((n - x0) / (x1 - x0) * aspect, (t - y0) / (y1 - y0));
    let view = Aabb {
        min: Vec2::new(-0.17, -0.14),
        max: Vec2::new(aspect + 0.05, 1.13),
    };
    let mut canvas = Canvas::new(width, height, view)?;
    let axis = Color::BOUNDS;
    canvas.segment(Vec2::ZERO, Vec2::new(aspect, 0.0), axis);
    canvas.segment(Vec2::ZERO, Vec2::new(0.0, 1.0), axis);
    let text = 2.0;
    for decade in (x0.round() as i32)..=(x1.round() as i32) {
        let x = to_plot(decade as f32, y0).x;
        canvas.segment(Vec2::new(x, 0.0), Vec2::new(x, -0.02), axis);
        canvas.segment(Vec2::new(x, 0.0), Vec2::new(x, 1.0), axis.with_alpha(50));
        let label = count_label(decade);
        let pixel = canvas.to_pixel(Vec2::new(x, -0.03));
        draw_text(
            &mut canvas,
            &label,
            pixel - Vec2::new(text_width(&label, text) / 2.0, 0.0),
            text,
            Color::NORMAL,
        );
    }
    for decade in (y0.round() as i32)..=(y1.round() as i32) {
        let y = to_plot(x0, decade as f32).y;
        canvas.segment(Vec2::new(0.0, y), Vec2::new(-0.02, y), axis);
        canvas.segment(Vec2::new(0.0, y), Vec2::new(aspect, y), axis.with_alpha(50));
        let label = ms_label(decade);
        let pixel = canvas.to_pixel(Vec2::new(-0.03, y));
        draw_text(
            &mut canvas,
            &label,
            pixel - Vec2::new(text_width(&label, text), 3.5 * text),
            text,
            Color::NORMAL,
        );
    }
    for (index, broad) in broads.iter().enumerate() {
        let color = SERIES[index % SERIES.len()];
        let mut series: Vec<&BenchPoint> = points.iter().filter(|p| &p.broad == broad).collect();
        series.sort_by_key(|p| p.n);
        let plotted: Vec<Vec2> = series
            .iter()
            .map(|p| to_plot(log(p.n as f64), log(p.update.as_secs_f64() * 1e3)))
            .collect();
        for pair in plotted.windows(2) {
            canvas.segment(pair[0], pair[1], color);
        }
        for point in &plotted {
            canvas.point(*point, 7.0, color);
        }
        // Legend entry.
        let top_left = canvas.to_pixel(Vec2::new(0.04, 0.97)) + Vec2::new(0.0, index as f32 * 22.0);
        fill_rect(&mut canvas, top_left, Vec2::splat(14.0), color);
        draw_text(
            &mut canvas,
            broad,
            top_left + Vec2::new(22.0, 0.0),
            text,
            Color::NORMAL,
        );
    }
    let title = "world update, ms per frame (y) vs colliders (x), log-log";
    let pixel = canvas.to_pixel(Vec2::new(0.0, 1.1));
    draw_text(&mut canvas, title, pixel, text, Color::NORMAL);
    Ok(canvas)
}

/// The smallest and largest value, widened to whole decades with a little room.
fn bounds(values: impl Iterator<Item = f32>) -> (f32, f32) {
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for v in values {
        low = low.min(v);
        high = high.max(v);
    }
    if !low.is_finite() || !high.is_finite() {
        return (0.0, 1.0);
    }
    let (low, high) = (low.floor(), high.ceil());
    if high - low < 1.0 {
        (low, low + 1.0)
    } else {
        (low, high)
    }
}

fn count_label(decade: i32) -> String {
    match decade {
        d if d < 3 => format!("{}", 10f64.powi(d)),
        d if d < 6 => format!("{}K", 10f64.powi(d - 3)),
        d => format!("{}M", 10f64.powi(d - 6)),
    }
}

fn ms_label(decade: i32) -> String {
    let value = 10f64.powi(decade);
    if decade < 0 {
        format!("{value:.*}", (-decade) as usize)
    } else {
        format!("{value}")
    }
}
