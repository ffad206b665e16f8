//! What can stop a command: one enum, whose `Display` is the message printed after
//! `collide2d: error:`.

use crate::scene::SceneError;
use std::path::PathBuf;

/// Why a command stopped.
#[derive(Debug)]
pub enum CliError {
    /// A command-line value was refused before any work: an output path, a picture size, a
    /// view, a collider name, a count. The message names the flag.
    Argument(String),
    /// A scene or pair file could not be read, parsed, fitted in memory or built.
    Scene(SceneError),
    /// An environment variable has a value that cannot be read (`COLLIDE2D_MEMORY_LIMIT`).
    Environment(String),
    /// An output file could not be created or written.
    Output {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The `--events` output could not be written.
    Events(std::io::Error),
    /// Standard output could not be written, for a reason other than a closed pipe (a closed
    /// pipe, as in `collide2d render ... | head -1`, only silences the rest of the output).
    Stdout(std::io::Error),
}

impl CliError {
    /// An output file's error.
    pub fn output(path: impl Into<PathBuf>, message: impl std::fmt::Display) -> CliError {
        CliError::Output {
            path: path.into(),
            message: message.to_string(),
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Argument(message) | CliError::Environment(message) => f.write_str(message),
            CliError::Scene(error) => error.fmt(f),
            CliError::Output { path, message } => write!(f, "{}: {message}", path.display()),
            CliError::Events(error) => write!(f, "writing events: {error}"),
            CliError::Stdout(error) => write!(f, "standard output: {error}"),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Scene(error) => Some(error),
            CliError::Events(error) | CliError::Stdout(error) => Some(error),
            CliError::Argument(_) | CliError::Environment(_) | CliError::Output { .. } => None,
        }
    }
}

impl From<SceneError> for CliError {
    fn from(error: SceneError) -> CliError {
        CliError::Scene(error)
    }
}
