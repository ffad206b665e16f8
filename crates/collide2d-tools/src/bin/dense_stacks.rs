//! Dense stacks: `n` identical sensors inserted at one point (every pair touches), then two
//! `World::update` calls, the second with nothing moved. Prints, per broad phase and update, the
//! time and the process's peak resident memory during that update (Linux: the peak is reset
//! through `/proc/self/clear_refs` before each update and read from `VmHWM` after it), beside
//! the size of one update's event list.
//!
//! ```text
//! cargo run --release -p collide2d-tools --bin dense_stacks -- 1000 2000 3000 5000
//! cargo run --release -p collide2d-tools --bin dense_stacks -- 10000 tree quiet
//! ```
//!
//! Arguments: stack sizes; optionally `tree`, `grid` or `sap` to run only those broad phases;
//! `quiet` to switch `Stay` reporting off (`World::set_report_stay(false)`), as a game that
//! reads only `Begin`/`End` would.

use collide2d::shape::{Circle, Shape};
use collide2d::world::{BroadPhaseKind, Collider, CollisionEvent, World};
use collide2d::{Transform, Vec2};
use std::time::Instant;

/// A figure of `/proc/self/status` (`VmHWM`: peak resident memory since the last reset,
/// `VmRSS`: resident now), in MiB (0 where unknown).
fn status_mib(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with(field))?;
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// Resets the peak to the current resident memory (Linux 4.0 and later).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn run(n: usize, kind: BroadPhaseKind, report_stay: bool) {
    let mut world = World::with_broad_phase(kind).expect("valid broad phase");
    world.set_report_stay(report_stay);
    let ball = Shape::from(Circle::with_radius(0.5).expect("valid radius"));
    for _ in 0..n {
        let collider = Collider::new(ball.clone())
            .with_transform(Transform::new(Vec2::new(3.0, 4.0), 0.0))
            .with_sensor(true);
        world.insert(collider).expect("valid collider");
    }
    let pairs = n * (n - 1) / 2;
    let list_mib = (pairs * std::mem::size_of::<CollisionEvent>()) as f64 / (1024.0 * 1024.0);
    for update in 1..=2 {
        reset_peak();
        let before = status_mib("VmRSS:");
        let start = Instant::now();
        let events = {
            world.update();
            world.events().len()
        };
        let seconds = start.elapsed().as_secs_f64();
        let peak = status_mib("VmHWM:");
        println!(
            "{kind:?} n={n} pairs={pairs} update {update}: {seconds:.3} s, {events} events, \
             resident before {before:.0} MiB, peak {peak:.0} MiB (event list {list_mib:.0} MiB, \
             peak/list {:.2})",
            peak / list_mib
        );
        assert_eq!(world.contacts().count(), pairs);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() {
        vec![1000, 2000, 3000]
    } else {
        sizes
    };
    let all = [
        ("tree", BroadPhaseKind::Tree),
        ("grid", BroadPhaseKind::Grid { cell_size: 2.0 }),
        ("sap", BroadPhaseKind::SweepAndPrune),
    ];
    let chosen: Vec<BroadPhaseKind> = all
        .iter()
        .filter(|(name, _)| {
            args.iter().all(|a| !all.iter().any(|(n, _)| n == a))
                || args.contains(&name.to_string())
        })
        .map(|&(_, kind)| kind)
        .collect();
    let report_stay = !args.iter().any(|a| a == "quiet");
    for &n in &sizes {
        for &kind in &chosen {
            run(n, kind, report_stay);
        }
    }
}
