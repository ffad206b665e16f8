//! Standard output that a closed pipe silences instead of stopping the command.
//!
//! `collide2d run scene.json --png last.png | head -1` closes the pipe after one line. Whether
//! the later lines fail depends on when `head` exits, so stopping there would make the files a
//! command writes depend on timing: instead the first broken pipe silences standard output for
//! the rest of the command, which finishes its work and exits successfully.

use crate::error::CliError;
use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a write to standard output found the pipe closed.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes to standard output; a closed pipe silences this and every later write.
pub fn write_out(text: std::fmt::Arguments<'_>) -> Result<(), CliError> {
    if CLOSED.load(Ordering::Relaxed) {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match out.write_fmt(text).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(error) => Err(CliError::Stdout(error)),
    }
}

/// `print!` through [`write_out`]: evaluates to `Result<(), CliError>`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::write_out(format_args!($($arg)*))
    };
}

/// `println!` through [`write_out`]: evaluates to `Result<(), CliError>`.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::console::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::console::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}
