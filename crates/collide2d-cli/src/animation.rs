//! Animated GIF output for `run --gif`: every few frames a picture, mapped to a fixed palette.
//!
//! The library's canvas gives PNG bytes, so each picture is decoded back to RGBA here (a
//! `Canvas::pixels()` accessor would save that step).

use crate::error::CliError;
use collide2d::debug::Canvas;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// Levels per channel of the colour cube (6 × 6 × 6 = 216 colours, plus 40 greys).
const LEVELS: u8 = 6;

/// Writes frames into an animated GIF.
pub struct GifRecorder {
    encoder: gif::Encoder<BufWriter<File>>,
    /// The file, for messages.
    path: PathBuf,
    width: u16,
    height: u16,
    /// Delay between pictures in hundredths of a second.
    delay: u16,
    /// Pictures written so far.
    pictures: u32,
}

/// The fixed palette: a 6-level colour cube then 40 greys.
fn palette() -> Vec<u8> {
    let mut colours = Vec::with_capacity(256 * 3);
    let step = 255 / (LEVELS - 1);
    for r in 0..LEVELS {
        for g in 0..LEVELS {
            for b in 0..LEVELS {
                colours.extend_from_slice(&[r * step, g * step, b * step]);
            }
        }
    }
    for i in 0..40u32 {
        let grey = (i * 255 / 39) as u8;
        colours.extend_from_slice(&[grey, grey, grey]);
    }
    colours
}

/// The palette index nearest to an RGB colour.
fn index_of(r: u8, g: u8, b: u8) -> u8 {
    let level = |c: u8| (u16::from(c) * u16::from(LEVELS - 1) + 127) / 255;
    let (lr, lg, lb) = (level(r), level(g), level(b));
    let spread = r.max(g).max(b) - r.min(g).min(b);
    if spread < 12 {
        // Near-grey: the finer grey ramp.
        let grey = (u16::from(r) + u16::from(g) + u16::from(b)) / 3;
        return (216 + (grey * 39 + 127) / 255) as u8;
    }
    (lr * 36 + lg * 6 + lb) as u8
}

impl GifRecorder {
    /// Starts a GIF of `width × height` pictures, each shown `delay` hundredths of a second.
    pub fn create(
        path: &Path,
        width: u32,
        height: u32,
        delay: u16,
    ) -> Result<GifRecorder, CliError> {
        let too_big = || CliError::output(path, "a GIF is at most 65535 pixels wide and high");
        let width = u16::try_from(width).map_err(|_| too_big())?;
        let height = u16::try_from(height).map_err(|_| too_big())?;
        let file = File::create(path)
            .map_err(|e| CliError::output(path, format!("cannot create: {e}")))?;
        let mut encoder = gif::Encoder::new(BufWriter::new(file), width, height, &palette())
            .map_err(|e| CliError::output(path, e))?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| CliError::output(path, e))?;
        Ok(GifRecorder {
            encoder,
            path: path.to_path_buf(),
            width,
            height,
            delay,
            pictures: 0,
        })
    }

    /// Adds a picture (same size as given to [`create`](GifRecorder::create)).
    pub fn add(&mut self, canvas: &Canvas) -> Result<(), CliError> {
        let failed = |message: &dyn std::fmt::Display| CliError::output(&self.path, message);
        let bytes = canvas.encode_png().map_err(|e| failed(&e))?;
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().map_err(|e| failed(&e))?;
        let mut rgba = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let info = reader.next_frame(&mut rgba).map_err(|e| failed(&e))?;
        if (info.width, info.height) != (u32::from(self.width), u32::from(self.height))
            || info.color_type != png::ColorType::Rgba
        {
            return Err(failed(&"picture size or format changed between GIF frames"));
        }
        let indices: Vec<u8> = rgba[..info.buffer_size()]
            .chunks_exact(4)
            .map(|p| index_of(p[0], p[1], p[2]))
            .collect();
        let frame = gif::Frame {
            width: self.width,
            height: self.height,
            delay: self.delay,
            buffer: std::borrow::Cow::Owned(indices),
            ..gif::Frame::default()
        };
        let path = &self.path;
        self.encoder
            .write_frame(&frame)
            .map_err(|e| CliError::output(path, e))?;
        self.pictures += 1;
        Ok(())
    }

    /// Pictures added so far (a GIF needs at least one to open).
    pub fn pictures(&self) -> u32 {
        self.pictures
    }

    /// Writes the end of the file and flushes it.
    pub fn finish(self) -> Result<(), CliError> {
        use std::io::Write;
        let path = self.path;
        let mut writer = self
            .encoder
            .into_inner()
            .map_err(|e| CliError::output(&path, e))?;
        writer.flush().map_err(|e| CliError::output(&path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_indices_are_nearest_cube_or_grey() {
        let palette = palette();
        assert_eq!(palette.len(), 256 * 3);
        for (r, g, b) in [(46, 204, 64), (232, 52, 52), (22, 24, 30), (255, 255, 255)] {
            let i = usize::from(index_of(r, g, b)) * 3;
            let distance = |a: u8, b: u8| (i32::from(a) - i32::from(b)).abs();
            assert!(distance(palette[i], r) <= 26, "{r} {g} {b}");
            assert!(distance(palette[i + 1], g) <= 26, "{r} {g} {b}");
            assert!(distance(palette[i + 2], b) <= 26, "{r} {g} {b}");
        }
    }
}
