//! Running a scene for some frames: progress bar, per-phase statistics, event output.

use crate::error::CliError;
use crate::progress::{Progress, ProgressMode};
use crate::sim::{FrameReport, Sim};
use collide2d::world::CollisionEvent;
use std::io::Write;
use std::time::{Duration, Instant};

/// Totals and per-frame timings of a run.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Frames run.
    pub frames: u32,
    /// Colliders in the world.
    pub colliders: usize,
    /// Broad-phase time of each frame.
    pub broad: Vec<Duration>,
    /// Narrow-phase time of each frame.
    pub narrow: Vec<Duration>,
    /// Event-building time of each frame.
    pub events: Vec<Duration>,
    /// Whole `World::update` time of each frame (the sum of the three phases).
    pub update: Vec<Duration>,
    /// Sum of candidate pairs over all frames.
    pub candidate_pairs: u64,
    /// Sum of narrow-phase tests over all frames.
    pub narrow_tests: u64,
    /// `Begin` events.
    pub begin: u64,
    /// `Stay` events.
    pub stay: u64,
    /// `End` events.
    pub end: u64,
    /// Bullet cast hits.
    pub cast_hits: u64,
    /// Frames the character ended on the floor.
    pub on_floor_frames: u32,
    /// Wall-clock time of the whole run (moving, updating, responding).
    pub wall: Duration,
}

/// A statistic of a list of durations in milliseconds: the value at quantile `q` (0.5 = median).
pub fn quantile_ms(samples: &[Duration], q: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut sorted: Vec<Duration> = samples.to_vec();
    sorted.sort_unstable();
    let index = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[index].as_secs_f64() * 1e3
}

impl RunReport {
    /// The table printed after a run.
    pub fn table(&self) -> String {
        let frames = u64::from(self.frames.max(1));
        let mut out = String::new();
        out.push_str(&format!(
            "{} colliders, {} frames\n\n",
            self.colliders, self.frames
        ));
        out.push_str("phase        median ms    p95 ms\n");
        for (name, samples) in [
            ("broad", &self.broad),
            ("narrow", &self.narrow),
            ("events", &self.events),
            ("update", &self.update),
        ] {
            out.push_str(&format!(
                "{name:<10} {:>11.3} {:>9.3}\n",
                quantile_ms(samples, 0.5),
                quantile_ms(samples, 0.95)
            ));
        }
        out.push('\n');
        out.push_str(&format!(
            "candidate pairs per frame  {:>12.1}\n",
            self.candidate_pairs as f64 / frames as f64
        ));
        out.push_str(&format!(
            "narrow tests per frame     {:>12.1}\n",
            self.narrow_tests as f64 / frames as f64
        ));
        out.push_str(&format!("begin events               {:>12}\n", self.begin));
        out.push_str(&format!("stay events                {:>12}\n", self.stay));
        out.push_str(&format!("end events                 {:>12}\n", self.end));
        if self.cast_hits > 0 {
            out.push_str(&format!(
                "bullet cast hits           {:>12}\n",
                self.cast_hits
            ));
        }
        if self.on_floor_frames > 0 {
            out.push_str(&format!(
                "character on floor frames  {:>12}\n",
                self.on_floor_frames
            ));
        }
        out.push_str(&format!(
            "total wall time            {:>10.3} s\n",
            self.wall.as_secs_f64()
        ));
        out
    }
}

/// Called after every frame with the frame's cast and character report (e.g. to record an
/// animation); an error stops the run.
pub type FrameHook<'a> = &'a mut dyn FnMut(&Sim, &FrameReport) -> Result<(), CliError>;

/// Runs `frames` frames; writes each event as a JSON line to `events` when given, calls
/// `hook` after each frame, and shows progress (see [`crate::progress`]) when `progress` is set.
pub fn run_frames(
    sim: &mut Sim,
    frames: u32,
    mut events: Option<&mut dyn Write>,
    mut hook: Option<FrameHook<'_>>,
    progress: bool,
) -> Result<RunReport, CliError> {
    let mode = if progress {
        ProgressMode::from_env()
    } else {
        ProgressMode::Never
    };
    let bar = Progress::with_mode(mode, "running", u64::from(frames), "frames");
    let mut report = RunReport {
        frames,
        colliders: sim.world.len(),
        ..RunReport::default()
    };
    let started = Instant::now();
    for _ in 0..frames {
        let frame = sim.step();
        let stats = sim.stats();
        report.broad.push(stats.broad);
        report.narrow.push(stats.narrow);
        report.events.push(stats.events);
        report
            .update
            .push(stats.broad + stats.narrow + stats.events);
        report.candidate_pairs += stats.candidate_pairs as u64;
        report.narrow_tests += stats.narrow_tests as u64;
        report.cast_hits += frame.cast_hits.len() as u64;
        report.on_floor_frames += u32::from(frame.on_floor);
        for event in sim.events() {
            match event {
                CollisionEvent::Begin { .. } => report.begin += 1,
                CollisionEvent::Stay { .. } => report.stay += 1,
                CollisionEvent::End { .. } => report.end += 1,
            }
        }
        if let Some(out) = events.as_deref_mut() {
            write_events(sim, &frame, out).map_err(CliError::Events)?;
        }
        if let Some(hook) = hook.as_deref_mut() {
            hook(sim, &frame)?;
        }
        bar.advance(1);
    }
    bar.finish();
    report.wall = started.elapsed();
    Ok(report)
}

/// An `f32` as a JSON number written with the shortest decimal that reads back as the same
/// `f32` (`0.1`, not the `f64` widening `0.10000000149011612`).
pub fn f32_value(value: f32) -> serde_json::Value {
    // `f32`'s `Display` is the shortest round-trip decimal; the `f64` nearest that decimal is
    // what serde_json then prints, again as its shortest decimal. Non-finite values (never
    // produced from valid input) become `null`.
    format!("{value}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// A vector as a JSON pair of shortest `f32` decimals.
pub fn vec2_value(v: collide2d::Vec2) -> serde_json::Value {
    serde_json::Value::Array(vec![f32_value(v.x), f32_value(v.y)])
}

/// One JSON object per event per line; a `Begin` found by a continuous collider's sweep also
/// gives its `time_of_impact` (a fraction of the frame).
fn write_events(sim: &Sim, frame: &FrameReport, out: &mut dyn Write) -> std::io::Result<()> {
    let number = sim.frame;
    for event in sim.events() {
        let (a, b) = event.pair();
        let kind = match event {
            CollisionEvent::Begin { .. } => "begin",
            CollisionEvent::Stay { .. } => "stay",
            CollisionEvent::End { .. } => "end",
        };
        let mut line = serde_json::json!({
            "frame": number,
            "kind": kind,
            "a": a.index(),
            "b": b.index(),
        });
        for (key, handle) in [("a_name", a), ("b_name", b)] {
            let name = sim.name(handle);
            if !name.is_empty() {
                line[key] = serde_json::Value::from(name);
            }
        }
        if let Some(manifold) = event.manifold() {
            line["normal"] = vec2_value(manifold.normal);
            line["points"] = manifold
                .points()
                .iter()
                .map(|p| serde_json::json!({"point": vec2_value(p.point), "penetration": f32_value(p.penetration)}))
                .collect();
        }
        if let Some(time_of_impact) = event.time_of_impact() {
            line["time_of_impact"] = f32_value(time_of_impact);
        }
        writeln!(out, "{line}")?;
    }
    for (bullet, hit, point, normal) in &frame.cast_hits {
        let line = serde_json::json!({
            "frame": number,
            "kind": "cast_hit",
            "a": bullet.index(),
            "b": hit.index(),
            "point": vec2_value(*point),
            "normal": vec2_value(*normal),
        });
        writeln!(out, "{line}")?;
    }
    Ok(())
}
