//! How much memory a scene will take, estimated from the file before anything is built, and the
//! refusal of scenes that would not fit.
//!
//! # The per-collider estimate
//!
//! A collider costs a fixed part (its world slot, broad-phase proxy, partner list, contact
//! bookkeeping, the command's name and body tables, the first updates' pair buffers) plus its
//! shape's own heap data (a polygon's outline, a compound's pieces, a chain's vertices).
//!
//! The fixed part was measured as the peak resident memory (`/usr/bin/time -f %M`) of
//! `collide2d run <scene> --frames 3` on Linux, for `grids` blocks of 316 × 316 and
//! 1000 × 1000 circles (radius 0.5, spacing 1.5, jitter 0.3), the slope between the two sizes
//! (2026-11-27, test-profile build):
//!
//! | broad phase | static | moving (speed 0.5–2) |
//! |---|---|---|
//! | hash grid | 480 B | 573 B |
//! | tree | 481 B | 552 B |
//! | sweep-and-prune | | 453 B |
//!
//! The constants below are the largest of these rounded up by a third, so the estimate errs on
//! the side of refusing. Shape heap data is estimated from vertex and piece counts with
//! allocator overhead.
//!
//! A scene is refused when its estimate exceeds [`USABLE_SHARE`] of the memory available:
//! `MemAvailable` from `/proc/meminfo`, lowered to `COLLIDE2D_MEMORY_LIMIT` when that is set
//! (bytes, or a number with a `K`, `M` or `G` suffix). Where neither is known, nothing is
//! refused.

use crate::error::CliError;
use crate::scene::{SceneError, SceneFile, SceneShape};
use collide2d::shape::Shape;
use std::path::Path;

/// Bytes of a static collider, besides its shape's heap data (measured, rounded up; see the
/// module docs).
pub const STATIC_COLLIDER_BYTES: u64 = 640;

/// Extra bytes of a collider that moves (its body record and motion state).
pub const MOVING_COLLIDER_BYTES: u64 = 125;

/// Bytes of the world and command besides the colliders.
pub const BASE_BYTES: u64 = 64 << 20;

/// The share of the available memory a scene may use (the rest is left to pictures, the
/// system and error in the estimate).
pub const USABLE_SHARE: f64 = 0.8;

/// One part of a scene that adds colliders.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Where it is in the file, e.g. `grids[0]`.
    pub location: String,
    /// How many colliders it adds.
    pub colliders: u64,
    /// How many of them move.
    pub moving: u64,
    /// Estimated bytes of it, shapes included.
    pub bytes: u64,
    /// A short description for messages, e.g. `4000 × 5000 = 20000000 colliders`.
    pub what: String,
}

/// Estimated heap bytes of one copy of a shape (allocator overhead included).
pub fn shape_heap_bytes(shape: &Shape) -> u64 {
    const ALLOCATION: u64 = 32;
    match shape {
        Shape::Circle(_) | Shape::Capsule(_) | Shape::Segment(_) => 0,
        // Vertices and normals, plus the outline's header.
        Shape::Polygon(polygon) => ALLOCATION + 64 + 16 * polygon.vertices().len() as u64,
        Shape::Compound(compound) => {
            let pieces: u64 = compound
                .children()
                .iter()
                .map(|(_, child)| 128 + shape_heap_bytes(child))
                .sum();
            // Pieces, their boxes and a small tree over them.
            2 * ALLOCATION + 64 + pieces * 3 / 2
        }
        // Vertices, normals, per-segment boxes and neighbours.
        Shape::Chain(chain) => 2 * ALLOCATION + 64 + 64 * chain.segment_count() as u64,
    }
}

fn block(location: String, what: String, colliders: u64, moving: u64, heap: u64) -> Block {
    let bytes = colliders
        .saturating_mul(STATIC_COLLIDER_BYTES.saturating_add(heap))
        .saturating_add(moving.saturating_mul(MOVING_COLLIDER_BYTES));
    Block {
        location,
        colliders,
        moving,
        bytes,
        what,
    }
}

fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The parts of a scene that add colliders, in the order they are built.
pub fn blocks(scene: &SceneFile) -> Vec<Block> {
    let mut blocks = Vec::new();
    if scene.arena.is_some() {
        blocks.push(block("arena".into(), count(4, "wall"), 4, 0, 64));
    }
    if let Some(tiles) = &scene.tiles {
        // At most one outline piece per solid tile, one platform per `=`.
        let cells: u64 = tiles
            .rows
            .iter()
            .map(|row| row.chars().filter(|&c| c == '#' || c == '=').count() as u64)
            .sum();
        blocks.push(block(
            "tiles".into(),
            count(cells, "tile"),
            cells,
            0,
            4 * 64,
        ));
    }
    if !scene.colliders.is_empty() {
        let moving = scene
            .colliders
            .iter()
            .filter(|c| c.body.is_some() || c.velocity != [crate::scene::Num(0.0); 2])
            .count() as u64;
        let heap: u64 = scene
            .colliders
            .iter()
            .map(|c| shape_heap_bytes(&c.shape.0))
            .sum();
        let n = scene.colliders.len() as u64;
        let mut colliders = block("colliders".into(), count(n, "collider"), n, moving, 0);
        colliders.bytes = colliders.bytes.saturating_add(heap);
        blocks.push(colliders);
    }
    for (i, grid) in scene.grids.iter().enumerate() {
        let n = u64::from(grid.rows) * u64::from(grid.cols);
        let moving = if grid.speed.is_some() || grid.body.is_some() {
            n
        } else {
            0
        };
        blocks.push(block(
            format!("grids[{i}]"),
            format!("{} × {} = {}", grid.rows, grid.cols, count(n, "collider")),
            n,
            moving,
            shape_heap_bytes(&grid.shape.0),
        ));
    }
    for (i, scatter) in scene.scatter.iter().enumerate() {
        let n = u64::from(scatter.count);
        let moving = if scatter.speed.is_some() || scatter.spin.0 != 0.0 || scatter.body.is_some() {
            n
        } else {
            0
        };
        let heap = scatter
            .shapes
            .iter()
            .map(|SceneShape(shape)| shape_heap_bytes(shape))
            .max()
            .unwrap_or(0);
        blocks.push(block(
            format!("scatter[{i}]"),
            count(n, "collider"),
            n,
            moving,
            heap,
        ));
    }
    if let Some(character) = &scene.character {
        blocks.push(block(
            "character".into(),
            "1 character".into(),
            1,
            1,
            shape_heap_bytes(&character.shape.0),
        ));
    }
    for (i, bullets) in scene.bullets.iter().enumerate() {
        let n = u64::from(bullets.count.unwrap_or(1));
        let heap = bullets
            .shape
            .as_ref()
            .map_or(0, |SceneShape(shape)| shape_heap_bytes(shape));
        // Each bullet has a name (`bullet i.k`).
        blocks.push(block(
            format!("bullets[{i}]"),
            count(n, "bullet"),
            n,
            n,
            heap + 32,
        ));
    }
    blocks
}

/// Colliders the scene will have (an upper bound for tile maps).
pub fn collider_count(scene: &SceneFile) -> u64 {
    blocks(scene).iter().map(|b| b.colliders).sum()
}

/// The memory a scene may use and where that figure comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Bytes available.
    pub available: u64,
    /// Where the figure comes from, for messages (e.g. `MemAvailable`).
    pub source: String,
}

/// Parses a byte count: digits with an optional `K`, `M` or `G` (binary) suffix.
pub fn parse_bytes(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, shift) = match text.chars().last()?.to_ascii_uppercase() {
        'K' => (&text[..text.len() - 1], 10),
        'M' => (&text[..text.len() - 1], 20),
        'G' => (&text[..text.len() - 1], 30),
        _ => (text, 0),
    };
    digits.trim().parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// `MemAvailable` in bytes from the text of `/proc/meminfo`.
pub fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kilobytes.checked_mul(1024)
}

/// The memory budget of this machine: `MemAvailable`, lowered to `COLLIDE2D_MEMORY_LIMIT`.
pub fn budget() -> Result<Option<Budget>, CliError> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .as_deref()
        .and_then(mem_available)
        .map(|available| Budget {
            available,
            source: "MemAvailable".into(),
        });
    let limit = match std::env::var("COLLIDE2D_MEMORY_LIMIT") {
        Ok(text) => Some(Budget {
            available: parse_bytes(&text).ok_or_else(|| {
                CliError::Environment(format!(
                    "COLLIDE2D_MEMORY_LIMIT={text}: expected bytes, e.g. 4G or 512M"
                ))
            })?,
            source: "COLLIDE2D_MEMORY_LIMIT".into(),
        }),
        Err(_) => None,
    };
    Ok(match (system, limit) {
        (Some(system), Some(limit)) if system.available < limit.available => Some(system),
        (_, Some(limit)) => Some(limit),
        (system, None) => system,
    })
}

/// Bytes as text in binary units, one decimal (`11.2 GB`).
pub fn bytes_text(bytes: u64) -> String {
    let value = bytes as f64;
    if value >= (1u64 << 30) as f64 {
        format!("{:.1} GB", value / (1u64 << 30) as f64)
    } else if value >= (1u64 << 20) as f64 {
        format!("{:.1} MB", value / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KB", value / 1024.0)
    }
}

/// The scene's estimated size in bytes.
pub fn estimate(scene: &SceneFile) -> u64 {
    blocks(scene)
        .iter()
        .fold(BASE_BYTES, |sum, b| sum.saturating_add(b.bytes))
}

/// Refuses a scene whose estimate does not fit in `budget`, naming the block that tips it over,
/// the estimate and what is available. Returns the estimate.
pub fn check(scene: &SceneFile, path: &Path, budget: Option<&Budget>) -> Result<u64, SceneError> {
    let blocks = blocks(scene);
    let total = estimate(scene);
    let Some(budget) = budget else {
        return Ok(total);
    };
    let usable = (budget.available as f64 * USABLE_SHARE) as u64;
    let mut sum = BASE_BYTES;
    for block in &blocks {
        sum = sum.saturating_add(block.bytes);
        if sum > usable {
            return Err(SceneError::new(
                path,
                format!(
                    "{}: {} would need about {} of memory (scene total about {}), \
                     but only {} of the {} {} may be used; refused before building",
                    block.location,
                    block.what,
                    bytes_text(block.bytes),
                    bytes_text(total),
                    bytes_text(usable),
                    bytes_text(budget.available),
                    budget.source,
                ),
            ));
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;

    fn scene(text: &str) -> SceneFile {
        parse_scene(Path::new("s.json"), text).unwrap()
    }

    const HUGE_GRID: &str = r#"{"version": 1, "grids": [{"rows": 4000, "cols": 5000,
        "spacing": [1, 1], "shape": {"kind": "circle", "radius": 0.4}, "speed": [0, 1]}]}"#;

    #[test]
    fn the_block_that_does_not_fit_is_named_with_the_estimate() {
        let budget = Budget {
            available: 8 << 30,
            source: "MemAvailable".into(),
        };
        let error = check(&scene(HUGE_GRID), Path::new("s.json"), Some(&budget))
            .unwrap_err()
            .message;
        assert_eq!(
            error,
            "s.json: grids[0]: 4000 × 5000 = 20000000 colliders would need about 14.2 GB of memory \
             (scene total about 14.3 GB), but only 6.4 GB of the 8.0 GB MemAvailable may be used; \
             refused before building"
        );
    }

    #[test]
    fn a_scene_that_fits_passes_and_no_budget_refuses_nothing() {
        let budget = Budget {
            available: 32 << 30,
            source: "MemAvailable".into(),
        };
        let huge = scene(HUGE_GRID);
        assert!(check(&huge, Path::new("s.json"), Some(&budget)).is_ok());
        assert!(check(&huge, Path::new("s.json"), None).is_ok());
        assert_eq!(collider_count(&huge), 20_000_000);
    }

    #[test]
    fn every_block_is_counted_in_build_order() {
        let text = r##"{"version": 1, "arena": {"min": [0, 0], "max": [10, 10]},
            "tiles": {"size": 1, "rows": ["#=#", "..."]},
            "colliders": [{"shape": {"kind": "box", "width": 1, "height": 1}}],
            "grids": [{"rows": 2, "cols": 3, "spacing": [1, 1], "shape": {"kind": "circle", "radius": 0.1}}],
            "scatter": [{"count": 7, "area": [0, 0, 1, 1], "shapes": [{"kind": "circle", "radius": 0.1}]}],
            "character": {"shape": {"kind": "circle", "radius": 0.1}, "position": [0, 0]},
            "bullets": [{"position": [0, 0], "velocity": [1, 0], "count": 5}]}"##;
        let found: Vec<(String, u64)> = blocks(&scene(text))
            .into_iter()
            .map(|b| (b.location, b.colliders))
            .collect();
        let expected = [
            ("arena", 4),
            ("tiles", 3),
            ("colliders", 1),
            ("grids[0]", 6),
            ("scatter[0]", 7),
            ("character", 1),
            ("bullets[0]", 5),
        ];
        assert_eq!(found, expected.map(|(l, n)| (l.to_string(), n)).to_vec(),);
    }

    #[test]
    fn byte_counts_and_meminfo_are_read() {
        assert_eq!(parse_bytes("4G"), Some(4 << 30));
        assert_eq!(parse_bytes("512m"), Some(512 << 20));
        assert_eq!(parse_bytes("1000"), Some(1000));
        assert_eq!(parse_bytes("lots"), None);
        assert_eq!(parse_bytes(""), None);
        let meminfo = "MemTotal:       24684092 kB\nMemFree:  1 kB\nMemAvailable:   1000 kB\n";
        assert_eq!(mem_available(meminfo), Some(1_024_000));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn shape_heap_grows_with_vertices_and_pieces() {
        let circle =
            scene(r#"{"version": 1, "colliders": [{"shape": {"kind": "circle", "radius": 1}}]}"#);
        assert_eq!(shape_heap_bytes(&circle.colliders[0].shape.0), 0);
        let shapes = scene(
            r#"{"version": 1, "colliders": [
            {"shape": {"kind": "regular", "sides": 3, "radius": 1}},
            {"shape": {"kind": "regular", "sides": 8, "radius": 1}},
            {"shape": {"kind": "concave", "points": [[0,0],[4,0],[4,4],[3,4],[3,1],[0,1]]}}]}"#,
        );
        let sizes: Vec<u64> = shapes
            .colliders
            .iter()
            .map(|c| shape_heap_bytes(&c.shape.0))
            .collect();
        assert!(sizes[0] < sizes[1], "{sizes:?}");
        assert!(sizes[2] > sizes[0], "{sizes:?}");
    }
}
