//! The broad-phase benchmark's scenes and motion, shared by `benches/broad_phase.rs` and
//! the `broad_profile` tool, so the profiler runs exactly the benchmark's boxes and frames.

use super::rng::Rng;
use collide2d::{Aabb, Vec2};

/// Side of the square holding `n` boxes of mean side 1 so each overlaps about 1.5 others:
/// two boxes overlap with probability (a₁ + b₁)(a₂ + b₂) / L² ≈ 4 / L², so L² = 4n / 1.5.
pub fn world_side(n: usize) -> f32 {
    (4.0 * n as f32 / 1.5).sqrt()
}

#[derive(Clone, Copy, Debug)]
pub enum Scene {
    /// Sides uniform in [0.5, 1.5], centres uniform in the square.
    Uniform,
    /// Same boxes, centres gathered around n/64 cluster centres (spread 4).
    Clustered,
    /// 90% sides in [0.5, 1.5], 9% in [2, 8], 1% in [10, 40].
    Mixed,
}

impl Scene {
    pub fn name(self) -> &'static str {
        match self {
            Scene::Uniform => "uniform",
            Scene::Clustered => "clustered",
            Scene::Mixed => "mixed",
        }
    }
}

pub fn scene_boxes(scene: Scene, n: usize) -> Vec<Aabb> {
    let mut rng = Rng(n as u64 * 31 + scene as u64);
    let side = world_side(n);
    let cluster_count = (n / 64).max(1);
    let clusters: Vec<Vec2> = (0..cluster_count)
        .map(|_| Vec2::new(rng.range(0.0, side), rng.range(0.0, side)))
        .collect();
    (0..n)
        .map(|i| {
            let center = match scene {
                Scene::Clustered => {
                    let c = clusters[i % cluster_count];
                    c + Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0))
                }
                _ => Vec2::new(rng.range(0.0, side), rng.range(0.0, side)),
            };
            let size_roll = rng.unit();
            let (low, high) = match scene {
                Scene::Mixed if size_roll < 0.01 => (10.0, 40.0),
                Scene::Mixed if size_roll < 0.10 => (2.0, 8.0),
                _ => (0.5, 1.5),
            };
            let half = 0.5 * Vec2::new(rng.range(low, high), rng.range(low, high));
            Aabb {
                min: center - half,
                max: center + half,
            }
        })
        .collect()
}

/// Frames run once, unmeasured, before frames are measured, by structures that keep fat boxes
/// (our tree; parry2d's `Bvh`, whose leaves carry a margin too): the boxes random-walk, and the
/// share of them leaving their fat boxes takes long to settle after the build. None leaves in
/// the first ~50 frames; the tree's leavers then overshoot, up to 3% of the movers a frame near
/// frame 200, and fall to their lasting level, 1.7%, by frame 1,200–1,500 at every size
/// (`broad_profile trace`). Criterion runs many more frames of a small scene than of a large
/// one (about 1,300 at 100k, 200 at 1M), so after a short settling the large scene would be
/// measured in the overshoot and the small one mostly after it, and the sizes would not compare.
pub const SETTLING_FRAMES: usize = 1500;

/// Settling frames for the structures without fat boxes (grid, sweep and prune): nothing in
/// them depends on how long the boxes have moved, so a few hundred frames only warm them up.
pub const SETTLING_FRAMES_WITHOUT_FAT_BOXES: usize = 300;

/// Moves every tenth box (a different tenth each frame) by up to 0.05 on each axis.
pub struct Mover {
    rng: Rng,
    phase: usize,
}

impl Default for Mover {
    fn default() -> Mover {
        Mover::new()
    }
}

impl Mover {
    pub fn new() -> Mover {
        Mover {
            rng: Rng(7),
            phase: 0,
        }
    }
    pub fn frame(&mut self, boxes: &mut [Aabb], mut moved: impl FnMut(usize, Aabb)) {
        self.phase = (self.phase + 1) % 10;
        let mut index = self.phase;
        while index < boxes.len() {
            let offset = Vec2::new(self.rng.range(-0.05, 0.05), self.rng.range(-0.05, 0.05));
            let b = &mut boxes[index];
            b.min += offset;
            b.max += offset;
            moved(index, *b);
            index += 10;
        }
    }

    /// The next frame's moves, listed in order as (the box's handle, its new box), for the
    /// structure to apply after: the benchmark's own walk over its boxes stays out of what a
    /// frame measures.
    pub fn moves<H>(&mut self, boxes: &mut [Aabb], handle: impl Fn(usize) -> H) -> Vec<(H, Aabb)> {
        let mut moves = Vec::with_capacity(boxes.len() / 10 + 1);
        self.frame(boxes, |index, aabb| moves.push((handle(index), aabb)));
        moves
    }
}

/// The boxes with their indices as keys, ready for a bulk build.
pub fn keyed(boxes: &[Aabb]) -> Vec<(Aabb, u64)> {
    boxes
        .iter()
        .enumerate()
        .map(|(index, aabb)| (*aabb, index as u64))
        .collect()
}
