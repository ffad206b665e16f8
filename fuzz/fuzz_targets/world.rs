//! Fuzz target `world`: see `run_world` in `crates/collide2d/tests/it/fuzz_checks/mod.rs`.
#![no_main]

#[path = "../../crates/collide2d/tests/it/fuzz_checks/mod.rs"]
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::run_world(data));
