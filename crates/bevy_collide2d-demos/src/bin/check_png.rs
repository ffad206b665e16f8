//! Fails unless each PNG given is a picture: readable, and not one flat colour (at least 1 %
//! of its pixels differ from the most common colour, and at least 8 colours are used).

use std::collections::HashMap;

fn check(path: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .map_err(|e| format!("{path}: {e}"))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| format!("{path}: picture too large"))?;
    let mut buffer = vec![0; size];
    let info = reader
        .next_frame(&mut buffer)
        .map_err(|e| format!("{path}: {e}"))?;
    let channels = info.color_type.samples();
    let pixels = &buffer[..info.buffer_size()];
    let mut counts: HashMap<&[u8], usize> = HashMap::new();
    for pixel in pixels.chunks_exact(channels) {
        *counts.entry(&pixel[..channels.min(3)]).or_default() += 1;
    }
    let total = pixels.len() / channels;
    let most = counts.values().copied().max().unwrap_or(0);
    let other = total - most;
    if counts.len() < 8 || other * 100 < total {
        return Err(format!(
            "{path}: blank ({} colours, {other} of {total} pixels off the background)",
            counts.len()
        ));
    }
    Ok(format!(
        "{path}: {}×{}, {} colours, {:.1} % off the background",
        info.width,
        info.height,
        counts.len(),
        100.0 * other as f64 / total as f64
    ))
}

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        match check(&path) {
            Ok(line) => println!("{line}"),
            Err(line) => {
                eprintln!("{line}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
