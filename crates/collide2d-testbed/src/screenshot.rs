//! Saving screenshots as PNG files and telling a real picture from a blank one.

use std::collections::HashSet;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// A picture with fewer distinct colours than this is taken as blank (an empty or unrendered
/// window has one or two).
pub const MIN_DISTINCT_COLORS: usize = 24;

/// An RGB picture, row by row from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height` pixels of three bytes each.
    pub rgb: Vec<u8>,
}

impl Picture {
    /// How many different colours the picture holds.
    pub fn distinct_colors(&self) -> usize {
        self.rgb
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2]])
            .collect::<HashSet<_>>()
            .len()
    }

    /// Whether the picture is too plain to be a rendered sample.
    pub fn is_blank(&self) -> bool {
        self.distinct_colors() < MIN_DISTINCT_COLORS
    }

    /// Writes the picture as an 8-bit RGB PNG.
    pub fn save_png(&self, path: &Path) -> Result<(), String> {
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut encoder = png::Encoder::new(BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::High);
        let mut writer = encoder
            .write_header()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        writer
            .write_image_data(&self.rgb)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        writer
            .finish()
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads an 8-bit RGB or RGBA PNG.
    pub fn load_png(path: &Path) -> Result<Picture, String> {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let mut reader = decoder
            .read_info()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| format!("{}: too large", path.display()))?;
        let mut buffer = vec![0; size];
        let info = reader
            .next_frame(&mut buffer)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let channels = match info.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            other => {
                return Err(format!(
                    "{}: unexpected colour type {other:?}",
                    path.display()
                ))
            }
        };
        let rgb = buffer[..info.buffer_size()]
            .chunks_exact(channels)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Ok(Picture {
            width: info.width,
            height: info.height,
            rgb,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_picture_is_blank_and_a_gradient_is_not() {
        let flat = Picture {
            width: 16,
            height: 16,
            rgb: vec![30; 16 * 16 * 3],
        };
        assert!(flat.is_blank());
        let gradient = Picture {
            width: 16,
            height: 16,
            rgb: (0..16 * 16)
                .flat_map(|i| [i as u8, 0, 255 - i as u8])
                .collect(),
        };
        assert_eq!(gradient.distinct_colors(), 256);
        assert!(!gradient.is_blank());
    }

    #[test]
    fn png_files_round_trip() {
        let picture = Picture {
            width: 5,
            height: 3,
            rgb: (0..15).flat_map(|i| [i as u8 * 10, 7, 200]).collect(),
        };
        let path = std::env::temp_dir().join(format!("testbed-{}.png", std::process::id()));
        picture.save_png(&path).unwrap();
        let loaded = Picture::load_png(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, picture);
    }
}
