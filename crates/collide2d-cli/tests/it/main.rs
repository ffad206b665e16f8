//! The command's integration tests, built as a single test binary.

mod cli;
mod fuzz_regressions;
mod readme_figures;
