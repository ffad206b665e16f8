//! Fuzz target `scene`: scene files from arbitrary bytes are parsed without a panic (errors are
//! fine). The same check replays in `crates/collide2d-cli/tests/it/fuzz_regressions.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = collide2d_cli::scene::parse_scene(std::path::Path::new("fuzz.json"), &text);
});
