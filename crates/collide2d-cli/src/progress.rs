//! Labelled progress for the long jobs (building, running, drawing, benchmarking): what is
//! being done, how far, the elapsed time and an estimate of the time left.
//!
//! Where it goes depends on `COLLIDE2D_PROGRESS`:
//! - unset or `auto`: a bar on standard error when it is a terminal, nothing otherwise (pipes
//!   and logs stay clean);
//! - `lines`: plain lines on standard error (the start, every two seconds, the end), for logs;
//! - `never`: nothing.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// Seconds between two lines in `lines` mode.
const LINE_INTERVAL: Duration = Duration::from_secs(2);

/// Where progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar on a terminal, nothing otherwise.
    Auto,
    /// Plain lines on standard error.
    Lines,
    /// Nothing.
    Never,
}

impl ProgressMode {
    /// The mode named by `COLLIDE2D_PROGRESS` (unknown values mean `Auto`).
    pub fn from_env() -> ProgressMode {
        match std::env::var("COLLIDE2D_PROGRESS").as_deref() {
            Ok("lines") => ProgressMode::Lines,
            Ok("never") => ProgressMode::Never,
            _ => ProgressMode::Auto,
        }
    }
}

/// One job's progress: `label` (e.g. `building`), a position out of `total` `unit`s.
pub struct Progress {
    label: String,
    unit: String,
    total: u64,
    started: Instant,
    bar: Option<indicatif::ProgressBar>,
    lines: bool,
    position: Cell<u64>,
    last_line: Cell<Instant>,
}

impl Progress {
    /// Starts a job of `total` `unit`s, shown as the environment asks.
    pub fn start(label: &str, total: u64, unit: &str) -> Progress {
        Progress::with_mode(ProgressMode::from_env(), label, total, unit)
    }

    /// Starts a job shown in `mode`.
    pub fn with_mode(mode: ProgressMode, label: &str, total: u64, unit: &str) -> Progress {
        let now = Instant::now();
        let bar = (mode == ProgressMode::Auto).then(|| {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(total),
                indicatif::ProgressDrawTarget::stderr(),
            );
            let template = format!(
                "{{prefix}}{{msg}} [{{bar:20}}] {{human_pos}}/{{human_len}} {unit}, {{elapsed}} elapsed, ETA {{eta}}"
            );
            if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(label.to_string());
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        let lines = mode == ProgressMode::Lines;
        if lines {
            eprintln!("{label}: {}", amount(total, unit));
        }
        Progress {
            label: label.to_string(),
            unit: unit.to_string(),
            total,
            started: now,
            bar,
            lines,
            position: Cell::new(0),
            last_line: Cell::new(now),
        }
    }

    /// Moves to `position` (out of the total).
    pub fn set(&self, position: u64) {
        self.position.set(position);
        if let Some(bar) = &self.bar {
            bar.set_position(position);
        }
        if self.lines && self.last_line.get().elapsed() >= LINE_INTERVAL {
            self.last_line.set(Instant::now());
            let elapsed = self.started.elapsed();
            eprintln!(
                "{}: {position}/{} {}, {:.1} s elapsed, ETA {}",
                self.label,
                self.total,
                self.unit,
                elapsed.as_secs_f64(),
                eta_text(elapsed, position, self.total)
            );
        }
    }

    /// Moves on by `steps`.
    pub fn advance(&self, steps: u64) {
        self.set(self.position.get() + steps);
    }

    /// A short note shown after the label (e.g. which broad phase is measured).
    pub fn note(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(" ({text})"));
        }
        if self.lines {
            eprintln!("{}: {text}", self.label);
        }
    }

    /// Ends the job and clears the bar.
    pub fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if self.lines {
            eprintln!(
                "{}: done, {} in {:.1} s",
                self.label,
                amount(self.position.get(), &self.unit),
                self.started.elapsed().as_secs_f64()
            );
        }
    }
}

impl Drop for Progress {
    /// A job that ends early (an error) clears its bar too, so the error line stands alone.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `count` `unit`s, the unit singular for one (`1 frame`, `2 frames`).
fn amount(count: u64, unit: &str) -> String {
    match unit.strip_suffix('s') {
        Some(singular) if count == 1 => format!("1 {singular}"),
        _ => format!("{count} {unit}"),
    }
}

/// The time left at the average pace so far, as text (`?` before any progress).
fn eta_text(elapsed: Duration, position: u64, total: u64) -> String {
    if position == 0 || position >= total {
        return if position >= total {
            "0 s".into()
        } else {
            "?".into()
        };
    }
    let left = elapsed.as_secs_f64() * (total - position) as f64 / position as f64;
    format!("{left:.1} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_a_unit_is_singular() {
        assert_eq!(amount(1, "frames"), "1 frame");
        assert_eq!(amount(2, "frames"), "2 frames");
        assert_eq!(amount(0, "colliders"), "0 colliders");
    }

    #[test]
    fn eta_follows_the_average_pace() {
        assert_eq!(eta_text(Duration::from_secs(2), 1, 4), "6.0 s");
        assert_eq!(eta_text(Duration::from_secs(2), 0, 4), "?");
        assert_eq!(eta_text(Duration::from_secs(2), 4, 4), "0 s");
    }
}
