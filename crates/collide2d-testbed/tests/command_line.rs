//! The testbed's command line without a window: help, and refused arguments.

use std::process::Command;

fn testbed(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_collide2d-testbed"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the testbed starts")
}

#[test]
fn help_prints_the_usage_and_exits_zero() {
    for flag in ["--help", "-h"] {
        let output = testbed(&[flag]);
        assert_eq!(output.status.code(), Some(0), "{flag}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.starts_with("usage: collide2d-testbed"), "{text}");
        assert!(text.contains("samples: "), "{text}");
        assert!(output.stderr.is_empty());
    }
}

#[test]
fn unknown_arguments_and_samples_exit_two_with_the_usage() {
    for args in [vec!["--bogus"], vec!["--sample", "nothing-by-this-name"]] {
        let output = testbed(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let text = String::from_utf8_lossy(&output.stderr);
        assert!(text.contains("usage: collide2d-testbed"), "{text}");
    }
}
