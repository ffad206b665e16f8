//! Opens the testbed window, saves a screenshot of every sample and checks none is blank.
//!
//! Needs a display: skipped (with the reason printed) when `DISPLAY` is unset. CI runs it under
//! `xvfb-run`.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use collide2d_testbed::samples;
use collide2d_testbed::screenshot::Picture;

/// Software GL on a busy machine: allow a few seconds per sample.
const TIME_LIMIT: Duration = Duration::from_secs(300);

#[test]
fn every_sample_renders_a_screenshot() {
    if std::env::var_os("DISPLAY").is_none() {
        eprintln!("skipped: DISPLAY is unset (run under xvfb-run to take the screenshots)");
        return;
    }
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
