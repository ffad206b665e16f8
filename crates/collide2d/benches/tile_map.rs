//! Tile-map geometry: building every region of a large random map, and one edit on it.
//!
//! The map is 1,000 × 1,000 cells from a fixed seed: each cell solid with probability 0.5; a
//! solid cell is a one-way platform one time in eight and on layer 1 one time in four, so
//! neighbouring solid cells often differ and the map has many small regions, the worst case for
//! region count and outline length. parry2d has no tile-map builder, so there is no comparison.

use collide2d::level::{Tile, TileMap};
use collide2d::{LayerId, Vec2};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

#[path = "../tests/it/support/mod.rs"]
mod support;

use support::Rng;

const SIDE: u32 = 1_000;

/// The tiles of the benchmark map, row-major.
fn random_tiles(seed: u64) -> Vec<Tile> {
    let mut rng = Rng(seed);
    (0..SIDE * SIDE)
        .map(|_| {
            if rng.below(2) == 0 {
                Tile::SOLID
                    .with_one_way(rng.below(8) == 0)
                    .with_layer(LayerId::new(u8::from(rng.below(4) == 0)).unwrap_or_default())
            } else {
                Tile::EMPTY
            }
        })
        .collect()
}

fn build(tiles: &[Tile]) -> TileMap {
    TileMap::from_fn(SIDE, SIDE, 1.0, Vec2::ZERO, |x, y| {
        tiles[(y * SIDE + x) as usize]
    })
    .expect("valid dimensions")
}

fn tile_map(c: &mut Criterion) {
    let tiles = random_tiles(0x2545_f491_4f6c_dd1d);
    let mut group = c.benchmark_group("tile_map");
    group.bench_function("build_1000x1000_random", |b| {
        b.iter(|| build(black_box(&tiles)))
    });

    // One edit per iteration at a random cell, flipping it between empty and plain solid, so
    // the density stays near 0.5 while the benchmark runs.
    let mut map = build(&tiles);
    println!("1000 x 1000 random map: {} regions", map.region_count());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    group.bench_function("set_tile", |b| {
        b.iter(|| {
            let (x, y) = (
                (rng.next_u64() % u64::from(SIDE)) as u32,
                (rng.next_u64() % u64::from(SIDE)) as u32,
            );
            let solid = map.tile(x, y).is_some_and(|tile| tile.solid);
            let tile = if solid { Tile::EMPTY } else { Tile::SOLID };
            map.set_tile(black_box(x), black_box(y), tile)
                .expect("cell inside the map")
        })
    });
    group.finish();
}

criterion_group!(benches, tile_map);
criterion_main!(benches);
