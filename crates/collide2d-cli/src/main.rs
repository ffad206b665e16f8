//! The `collide2d` command.

use std::process::ExitCode;

const USAGE: &str = "\
usage: collide2d [--version | --help]

collide2d is the collision layer of a 2D game: shapes, manifolds, casts,
broad phases and a collision world. The demo and the scene subcommands
arrive with the world; for now this command reports its version.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("--help") | Some("-h") => {
            println!("collide2d {}", env!("CARGO_PKG_VERSION"));
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--version") | Some("-V") => {
            println!("collide2d {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("collide2d: unknown argument `{other}`\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
