//! Opens the testbed window, saves a screenshot of every sample and checks none is blank.
//!
//! Needs a display. Without one (`DISPLAY` unset) it prints `skipped` with the reason and
//! claims no pass: it runs without the standard test harness (`harness = false`), whose only
//! answers are "ok" and "FAILED". CI runs it under `xvfb-run`.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use collide2d_testbed::samples;
use collide2d_testbed::screenshot::Picture;

/// Software GL on a busy machine: allow a few seconds per sample.
const TIME_LIMIT: Duration = Duration::from_secs(300);

const NAME: &str = "every_sample_renders_a_screenshot";

fn main() {
    if std::env::var_os("DISPLAY").is_none() {
        println!("\nrunning 1 test");
        println!("test {NAME} ... skipped: DISPLAY is unset (run under xvfb-run to take the screenshots)");
        println!("\ntest result: skipped. 0 passed; 0 failed; 1 skipped\n");
        return;
    }
    println!("\nrunning 1 test");
    every_sample_renders_a_screenshot();
    println!("test {NAME} ... ok");
    println!("\ntest result: ok. 1 passed; 0 failed\n");
}

fn every_sample_renders_a_screenshot() {
    let out_dir: PathBuf =
        std::env::temp_dir().join(format!("collide2d-testbed-shots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_collide2d-testbed"))
        .args(["--screenshot", "all", "--out"])
        .arg(&out_dir)
        .spawn()
        .expect("the testbed starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the testbed can be waited for") {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            panic!("the screenshot run took longer than {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "the screenshot run failed: {status}");
    for name in samples::names() {
        let path = out_dir.join(format!("{name}.png"));
        let picture = Picture::load_png(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            picture.width >= 640 && picture.height >= 400,
            "{name}: too small"
        );
        assert!(
            !picture.is_blank(),
            "{name}: blank ({} colours)",
            picture.distinct_colors()
        );
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}
