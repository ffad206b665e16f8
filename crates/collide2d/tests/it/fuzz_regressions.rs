//! Replays every input committed under `tests/regressions/<target>/` through the same checks the
//! fuzz targets run (`tests/it/fuzz_checks/`): crashes found once stay fixed, and the seed corpus
//! keeps exercising the checks under `cargo test`.

use crate::fuzz_checks;

use std::path::PathBuf;

/// Runs `check` on every file of `tests/regressions/<target>/`; returns how many there were.
/// The inputs live inside this crate so that its packaged copy replays them too.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{} fails again", file.display());
    }
    files.len()
}

#[test]
fn shapes_inputs_replay() {
    assert!(replay("shapes", fuzz_checks::run_shapes) > 0);
}

#[test]
fn pairs_inputs_replay() {
    assert!(replay("pairs", fuzz_checks::run_pairs) > 0);
}

#[test]
fn broad_inputs_replay() {
    assert!(replay("broad", fuzz_checks::run_broad) > 0);
}

#[test]
fn world_inputs_replay() {
    assert!(replay("world", fuzz_checks::run_world) > 0);
}
