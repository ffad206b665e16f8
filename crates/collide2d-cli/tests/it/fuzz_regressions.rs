//! Replays every input under `tests/regressions/scene/` through the scene parser, as the `scene`
//! fuzz target runs it: no input may panic.

use std::path::{Path, PathBuf};

#[test]
fn scene_inputs_replay() {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/regressions/scene");
    let mut count = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&data).into_owned();
        let outcome = std::panic::catch_unwind(|| {
            let _ = collide2d_cli::scene::parse_scene(Path::new("fuzz.json"), &text);
        });
        assert!(outcome.is_ok(), "{} panics again", path.display());
        count += 1;
    }
    assert!(count > 0, "no inputs in {}", folder.display());
}
