//! What fast bullets leave behind in pictures: a trail of their last positions and a marker at
//! each recent hit, so that a bullet a few centimetres wide stays visible at any zoom.

use crate::sim::{FrameReport, Motion, Sim};
use collide2d::world::ColliderHandle;
use collide2d::Vec2;
use std::collections::VecDeque;

/// Positions kept per bullet (the current one included).
pub const TRAIL_FRAMES: usize = 4;

/// Frames a hit marker stays.
pub const HIT_FRAMES: u32 = 20;

/// A hit remembered for drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HitMark {
    /// Where the cast touched.
    pub point: Vec2,
    /// The surface normal there.
    pub normal: Vec2,
    /// The frame it happened in.
    pub frame: u32,
}

/// Recent bullet positions and hits.
#[derive(Clone, Debug, Default)]
pub struct Trails {
    paths: Vec<(ColliderHandle, VecDeque<Vec2>)>,
    hits: VecDeque<HitMark>,
    frame: u32,
}

impl Trails {
    /// Trails for the bullets of `sim`, starting at their current positions.
    pub fn new(sim: &Sim) -> Trails {
        let paths = sim
            .bodies
            .iter()
            .filter(|body| matches!(body.motion, Motion::Bullet { .. }))
            .map(|body| (body.handle, VecDeque::from([body.position])))
            .collect();
        Trails {
            paths,
            hits: VecDeque::new(),
            frame: sim.frame,
        }
    }

    /// Whether there is nothing to draw (no bullets).
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Records the frame `sim` just ran, whose cast hits are in `report`.
    pub fn record(&mut self, sim: &Sim, report: &FrameReport) {
        self.frame = sim.frame;
        for (handle, path) in &mut self.paths {
            let Some(body) = sim.body_index(*handle).map(|i| &sim.bodies[i]) else {
                continue;
            };
            if path.back() != Some(&body.position) {
                path.push_back(body.position);
            } else if path.len() > 1 {
                // A stopped bullet's trail fades away.
                path.pop_front();
            }
            while path.len() > TRAIL_FRAMES {
                path.pop_front();
            }
        }
        for (_, _, point, normal) in &report.cast_hits {
            self.hits.push_back(HitMark {
                point: *point,
                normal: *normal,
                frame: sim.frame,
            });
        }
        while self
            .hits
            .front()
            .is_some_and(|hit| hit.frame + HIT_FRAMES <= self.frame)
        {
            self.hits.pop_front();
        }
    }

    /// The bullets followed.
    pub fn bullets(&self) -> impl Iterator<Item = ColliderHandle> + '_ {
        self.paths.iter().map(|(handle, _)| *handle)
    }

    /// Each bullet's recent positions, oldest first.
    pub fn paths(&self) -> impl Iterator<Item = &VecDeque<Vec2>> {
        self.paths.iter().map(|(_, path)| path)
    }

    /// The recent hits with their age in frames (0: this frame).
    pub fn hits(&self) -> impl Iterator<Item = (HitMark, u32)> + '_ {
        self.hits
            .iter()
            .map(|hit| (*hit, self.frame.saturating_sub(hit.frame)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;
    use std::path::Path;

    #[test]
    fn trails_keep_the_last_positions_and_hits_fade_out() {
        let text = r#"{"version": 1,
            "colliders": [{"shape": {"kind": "box", "width": 1, "height": 10}, "position": [10, 0]}],
            "bullets": [{"position": [0, 0], "velocity": [120, 0], "bounces": 0}]}"#;
        let scene = parse_scene(Path::new("t.json"), text).unwrap();
        let mut sim = Sim::build(&scene, Path::new("t.json")).unwrap();
        let mut trails = Trails::new(&sim);
        let mut hits = 0;
        for _ in 0..(HIT_FRAMES + 10) {
            let report = sim.step();
            hits += report.cast_hits.len();
            trails.record(&sim, &report);
            let path = trails.paths().next().unwrap();
            assert!(path.len() <= TRAIL_FRAMES);
        }
        // 2 units a frame: the wall face at x = 9.5 is hit in the fifth frame, then it stops.
        assert_eq!(hits, 1);
        let path = trails.paths().next().unwrap();
        assert_eq!(
            path.len(),
            1,
            "a stopped bullet's trail has faded: {path:?}"
        );
        assert!((path[0].x - 9.45).abs() < 0.01, "{path:?}");
        assert_eq!(
            trails.hits().count(),
            0,
            "the hit marker is older than HIT_FRAMES"
        );
    }
}
