//! How this machine's memory answers as the data grows: the latency of dependent random reads
//! (a pointer chase through one random cycle over the buffer) and the rate of a strided read
//! that touches one cache line per step (the access pattern of the broad-phase benchmark's
//! loop, which moves every tenth box of an array of 16-byte boxes).
//!
//! ```text
//! cargo run --release -p collide2d-tools --bin memory_probe
//! ```
//!
//! The broad-phase frame at 100k boxes works on about 19 MB, at 1M on about 190 MB; the two
//! columns say what one cache miss costs at each size.

use collide2d_testkit::Rng;
use std::hint::black_box;
use std::time::Instant;

/// One 64-byte cache line; the chase stores the next line's index in the first word.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u64; 8]);

/// Nanoseconds per read of a pointer chase through `megabytes` of lines in random order.
fn chase_latency(megabytes: usize) -> f64 {
    let count = megabytes * 1024 * 1024 / 64;
    let mut order: Vec<usize> = (0..count).collect();
    let mut rng = Rng(megabytes as u64);
    for i in (1..count).rev() {
        order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    let mut lines = vec![Line([0; 8]); count];
    for (i, &line) in order.iter().enumerate() {
        lines[line].0[0] = order[(i + 1) % count] as u64;
    }
    let steps = 10_000_000;
    let mut at = order[0];
    let start = Instant::now();
    for _ in 0..steps {
        at = lines[at].0[0] as usize;
    }
    let elapsed = start.elapsed();
    black_box(at);
    elapsed.as_secs_f64() * 1e9 / steps as f64
}

/// Gigabytes of cache lines per second for a read of every tenth 16-byte item of `megabytes`.
fn strided_rate(megabytes: usize) -> f64 {
    let count = megabytes * 1024 * 1024 / 16;
    let items: Vec<[f32; 4]> = (0..count).map(|i| [i as f32; 4]).collect();
    let repetitions = (2048 / megabytes).max(4);
    let mut sum = 0.0f32;
    let start = Instant::now();
    for _ in 0..repetitions {
        for item in items.iter().step_by(10) {
            sum += item[0];
        }
    }
    let elapsed = start.elapsed();
    black_box(sum);
    let lines = repetitions * count.div_ceil(10);
    lines as f64 * 64.0 / elapsed.as_secs_f64() / 1e9
}

fn main() {
    println!("| data | dependent random read | strided read (one line a step) |");
    println!("|---|---|---|");
    for megabytes in [1, 4, 16, 32, 64, 128, 256] {
        println!(
            "| {megabytes} MB | {:.0} ns | {:.1} GB/s |",
            chase_latency(megabytes),
            strided_rate(megabytes)
        );
    }
}
