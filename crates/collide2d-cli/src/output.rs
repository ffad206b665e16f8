//! Output files checked before any work: the folder exists and takes files, the extension
//! matches what is written, and pictures have a size that can be made.
//!
//! Every subcommand calls these first, so a typo in `--png` fails at once instead of after a
//! thirty-second run.

use crate::error::CliError;
use std::path::Path;

/// Largest side of a PNG picture in pixels (the canvas's own limit).
pub const MAX_PNG_SIDE: u32 = 16_384;

/// Largest side of a GIF picture in pixels: every recorded picture is kept as an RGBA canvas
/// while it is encoded, so GIFs stay smaller than single pictures.
pub const MAX_GIF_SIDE: u32 = 4_096;

/// What a file holds, for the extension check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A PNG picture: the name must end in `.png`.
    Png,
    /// An animated GIF: the name must end in `.gif`.
    Gif,
    /// Text of any kind (no extension check).
    Text,
}

impl FileKind {
    fn extension(self) -> Option<&'static str> {
        match self {
            FileKind::Png => Some("png"),
            FileKind::Gif => Some("gif"),
            FileKind::Text => None,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            FileKind::Png => "a PNG picture",
            FileKind::Gif => "an animated GIF",
            FileKind::Text => "text",
        }
    }
}

/// Checks that `path` (given with command-line option `flag`) can be written as `kind`: its
/// extension, that it is not a folder, that its folder exists and accepts new files, and that
/// an existing file there may be overwritten. Nothing is left behind.
pub fn check_output(flag: &str, path: &Path, kind: FileKind) -> Result<(), CliError> {
    output_problem(flag, path, kind).map_err(CliError::Argument)
}

/// What [`check_output`] refuses, as a message.
fn output_problem(flag: &str, path: &Path, kind: FileKind) -> Result<(), String> {
    let shown = path.display();
    if let Some(expected) = kind.extension() {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if extension.as_deref() != Some(expected) {
            let found = match path.extension() {
                Some(e) => format!("ends in .{}", e.to_string_lossy()),
                None => "has no extension".to_string(),
            };
            return Err(format!(
                "{flag} {shown}: the name {found}, but {} is written; use a name ending in .{expected}",
                kind.noun()
            ));
        }
    }
    if path.is_dir() {
        return Err(format!("{flag} {shown}: is a folder, not a file name"));
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{flag} {shown}: the folder {} does not exist",
            folder.display()
        ));
    }
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{flag} {shown}: cannot be overwritten: {e}"))?;
        return Ok(());
    }
    // Create and remove a probe file: the only sure test that the folder takes new files.
    let probe = folder.join(format!(".collide2d-write-check-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(format!(
            "{flag} {shown}: cannot create files in the folder {}: {e}",
            folder.display()
        )),
    }
}

/// Checks a picture size given with options `width_flag` and `height_flag`: each side from 1 to
/// `max` pixels.
pub fn check_size(
    width_flag: &str,
    width: u32,
    height_flag: &str,
    height: u32,
    max: u32,
) -> Result<(), CliError> {
    for (flag, value, side) in [(width_flag, width, "wide"), (height_flag, height, "high")] {
        if value == 0 || value > max {
            return Err(CliError::Argument(format!(
                "{flag} {value}: a picture is 1 to {max} pixels {side}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_must_match_the_format() {
        let error = check_output("--png", Path::new("out.jpg"), FileKind::Png)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "--png out.jpg: the name ends in .jpg, but a PNG picture is written; use a name ending in .png"
        );
        let error = check_output("--gif", Path::new("out"), FileKind::Gif)
            .unwrap_err()
            .to_string();
        assert!(error.contains("has no extension"), "{error}");
        assert!(check_output("--png", Path::new("target-check.PNG"), FileKind::Png).is_ok());
        assert!(check_output("--events", Path::new("e.jsonl"), FileKind::Text).is_ok());
    }

    #[test]
    fn a_missing_folder_is_named() {
        let error = check_output("--png", Path::new("/nonexistent/m.png"), FileKind::Png)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "--png /nonexistent/m.png: the folder /nonexistent does not exist"
        );
        let error = check_output("-o", Path::new("."), FileKind::Text)
            .unwrap_err()
            .to_string();
        assert!(error.contains("is a folder"), "{error}");
    }

    #[test]
    fn sizes_are_between_one_and_the_maximum() {
        assert!(check_size("--width", 1, "--height", MAX_PNG_SIDE, MAX_PNG_SIDE).is_ok());
        assert_eq!(
            check_size("--width", 0, "--height", 10, MAX_PNG_SIDE)
                .unwrap_err()
                .to_string(),
            "--width 0: a picture is 1 to 16384 pixels wide"
        );
        assert_eq!(
            check_size("--width", 10, "--height", 20_000, MAX_PNG_SIDE)
                .unwrap_err()
                .to_string(),
            "--height 20000: a picture is 1 to 16384 pixels high"
        );
    }
}
