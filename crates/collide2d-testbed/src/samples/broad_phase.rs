//! Broad-phase stress: up to 100,000 moving boxes in a dynamic tree, a hash grid or
//! sweep-and-prune, with the structure drawn and each phase timed.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use collide2d::broad::{BroadPhase, DynamicTree, HashGrid, ProxyId, SweepAndPrune};
use collide2d::debug::{draw_aabb, Color, DebugDraw};
use collide2d::{Aabb, Vec2};

use super::shape_pair::TEXT;
use crate::sample::{Category, Sample, View};
use collide2d_testkit::Rng;

/// Boxes per unit of area: the arena grows with the count so the density stays the same.
const DENSITY: f32 = 0.25;
/// At most this many boxes (and as many structure boxes) are drawn.
const DRAW_LIMIT: usize = 20_000;
const FREE: Color = Color::rgb(46, 204, 64);
const PAIRED: Color = Color::rgb(232, 52, 52);
const STRUCTURE: Color = Color::rgb(140, 140, 200);

/// The structure behind the sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// [`DynamicTree`].
    Tree,
    /// [`HashGrid`] with an automatic cell size.
    Grid,
    /// [`SweepAndPrune`].
    SweepAndPrune,
}

impl Structure {
    fn title(self) -> &'static str {
        match self {
            Structure::Tree => "dynamic tree",
            Structure::Grid => "hash grid",
            Structure::SweepAndPrune => "sweep and prune",
        }
    }
}

/// One moving box.
#[derive(Clone, Copy, Debug)]
struct Mover {
    center: Vec2,
    half_extents: Vec2,
    velocity: Vec2,
}

impl Mover {
    fn aabb(&self) -> Aabb {
        Aabb::from_center(self.center, self.half_extents)
    }
}

/// Milliseconds of the last frame's phases.
#[derive(Clone, Copy, Debug, Default)]
struct Timings {
    build: Duration,
    update: Duration,
    pairs: Duration,
    query: Duration,
}

/// The stress test.
pub struct BroadPhaseStress {
    structure: Structure,
    count: usize,
    moving: bool,
    draw_structure: bool,
    movers: Vec<Mover>,
    ids: Vec<ProxyId>,
    broad: Box<dyn BroadPhase>,
    cell_size: f32,
    half_size: f32,
    pair_count: usize,
    paired: HashSet<u64>,
    timings: Timings,
    query_hits: usize,
}

impl Default for BroadPhaseStress {
    fn default() -> Self {
        let mut sample = BroadPhaseStress {
            structure: Structure::Tree,
            count: 1_000,
            moving: false,
            draw_structure: true,
            movers: Vec::new(),
            ids: Vec::new(),
            broad: Box::new(DynamicTree::new()),
            cell_size: 1.0,
            half_size: 1.0,
            pair_count: 0,
            paired: HashSet::new(),
            timings: Timings::default(),
            query_hits: 0,
        };
        sample.rebuild();
        sample
    }
}

impl BroadPhaseStress {
    /// New boxes (same seed every time) and a fresh structure holding them.
    fn rebuild(&mut self) {
        let mut rng = Rng(0xB0A5);
        self.half_size = 0.5 * (self.count as f32 / DENSITY).sqrt();
        let half_size = self.half_size;
        self.movers = (0..self.count)
            .map(|_| Mover {
                center: Vec2::new(
                    rng.range(-half_size, half_size),
                    rng.range(-half_size, half_size),
                ),
                half_extents: Vec2::new(rng.range(0.2, 0.9), rng.range(0.2, 0.9)),
                velocity: Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU))
                    * rng.range(0.5, 3.0),
            })
            .collect();
        let items: Vec<(Aabb, u64)> = self
            .movers
            .iter()
            .enumerate()
            .map(|(i, m)| (m.aabb(), i as u64))
            .collect();
        let start = Instant::now();
        let built = match self.structure {
            Structure::Tree => DynamicTree::build(&items)
                .map(|(tree, ids)| (Box::new(tree) as Box<dyn BroadPhase>, ids)),
            Structure::Grid => {
                self.cell_size = HashGrid::auto_cell_size(items.iter().map(|item| item.0));
                HashGrid::new(self.cell_size).and_then(|mut grid| {
                    let ids = items
                        .iter()
                        .map(|&(aabb, key)| grid.insert(aabb, key))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok((Box::new(grid) as Box<dyn BroadPhase>, ids))
                })
            }
            Structure::SweepAndPrune => SweepAndPrune::build(&items)
                .map(|(sap, ids)| (Box::new(sap) as Box<dyn BroadPhase>, ids)),
        };
        let (broad, ids) = built.expect("the sample's boxes are valid");
        self.broad = broad;
        self.ids = ids;
        self.timings.build = start.elapsed();
        self.timings.update = Duration::ZERO;
        self.find_pairs();
    }

    /// Incremental pairs, then the paired set for colouring.
    fn find_pairs(&mut self) {
        let start = Instant::now();
        self.broad.update_pairs();
        self.timings.pairs = start.elapsed();
        self.paired.clear();
        let paired = &mut self.paired;
        let mut count = 0;
        let broad = &self.broad;
        for pair in broad.current_pairs() {
            count += 1;
            for id in [pair.lower(), pair.higher()] {
                if let Ok(key) = broad.key(id) {
                    paired.insert(key);
                }
            }
        }
        self.pair_count = count;
        // A box query in the middle of the arena, as a game's area query would do.
        let start = Instant::now();
        let mut hits = 0;
        self.broad.overlap_aabb_each(
            Aabb::from_center(Vec2::ZERO, Vec2::splat(5.0)),
            &mut |_, _| {
                hits += 1;
                true
            },
        );
        self.timings.query = start.elapsed();
        self.query_hits = hits;
    }
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

impl Sample for BroadPhaseStress {
    fn name(&self) -> &'static str {
        "broad-phase"
    }

    fn category(&self) -> Category {
        Category::BroadPhase
    }

    fn help(&self) -> &'static str {
        "Boxes drift and bounce; red ones overlap another. The tree draws its node boxes, the \
         grid its cells, sweep-and-prune the x intervals below the arena."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(0.0, -0.06 * self.half_size),
            half_width: 1.05 * self.half_size + 1.0,
            half_height: 1.15 * self.half_size,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        let mut rebuild = false;
        egui::ComboBox::from_label("structure")
            .selected_text(self.structure.title())
            .show_ui(ui, |ui| {
                for option in [Structure::Tree, Structure::Grid, Structure::SweepAndPrune] {
                    rebuild |= ui
                        .selectable_value(&mut self.structure, option, option.title())
                        .changed();
                }
            });
        let slider = ui.add(
            egui::Slider::new(&mut self.count, 10..=100_000)
                .logarithmic(true)
                .text("boxes"),
        );
        // Rebuild once the count is chosen, not at every step of a drag.
        rebuild |= slider.drag_stopped() || (slider.changed() && !slider.dragged());
        if rebuild {
            self.rebuild();
        }
        ui.checkbox(&mut self.moving, "move");
        ui.checkbox(&mut self.draw_structure, "draw the structure");
        ui.separator();
        ui.monospace(format!(
            "build    {:8.3} ms\nupdate   {:8.3} ms\npairs    {:8.3} ms\nquery    {:8.3} ms\n\
             {} pairs, {} in the query box",
            millis(self.timings.build),
            millis(self.timings.update),
            millis(self.timings.pairs),
            millis(self.timings.query),
            self.pair_count,
            self.query_hits,
        ));
        if self.count > DRAW_LIMIT {
            ui.label(format!("drawing the first {DRAW_LIMIT} boxes"));
        }
    }

    fn step(&mut self) {
        if !self.moving {
            return;
        }
        let dt = 1.0 / 60.0;
        let limit = self.half_size;
        for mover in &mut self.movers {
            mover.center += mover.velocity * dt;
            for axis in 0..2 {
                if mover.center[axis].abs() > limit {
                    mover.center[axis] = mover.center[axis].clamp(-limit, limit);
                    mover.velocity[axis] = -mover.velocity[axis];
                }
            }
        }
        let start = Instant::now();
        for (mover, &id) in self.movers.iter().zip(&self.ids) {
            // The boxes are finite and the ids live: updates cannot fail.
            let _ = self.broad.update(id, mover.aabb());
        }
        self.timings.update = start.elapsed();
        self.find_pairs();
    }

    fn is_animating(&self) -> bool {
        self.moving
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        let arena = Aabb::from_center(Vec2::ZERO, Vec2::splat(self.half_size + 1.0));
        draw_aabb(draw, &arena, Color::BOUNDS);
        if self.draw_structure {
            self.draw_structure(draw);
        }
        for (i, mover) in self.movers.iter().enumerate().take(DRAW_LIMIT) {
            let color = if self.paired.contains(&(i as u64)) {
                PAIRED
            } else {
                FREE
            };
            draw_aabb(draw, &mover.aabb(), color);
        }
        draw_aabb(
            draw,
            &Aabb::from_center(Vec2::ZERO, Vec2::splat(5.0)),
            Color::CONTACT,
        );
        // Under the arena, clear of the sample's name at the top of the canvas.
        draw.label(
            Vec2::new(-self.half_size - 1.0, -self.half_size - 2.0),
            &format!(
                "{}: {} boxes, {} pairs",
                self.structure.title(),
                self.count,
                self.pair_count
            ),
            TEXT,
        );
    }
}

impl BroadPhaseStress {
    fn draw_structure(&self, draw: &mut dyn DebugDraw) {
        match self.structure {
            Structure::Tree => {
                // Internal nodes only (leaves are the boxes themselves), top levels first.
                let mut nodes = Vec::new();
                self.broad.for_each_structure_box(&mut |aabb, level| {
                    if level > 0 {
                        nodes.push((level, aabb));
                    }
                });
                nodes.sort_by_key(|node| std::cmp::Reverse(node.0));
                for (level, aabb) in nodes.iter().take(DRAW_LIMIT) {
                    let alpha = (60 + 12 * *level).min(255) as u8;
                    draw_aabb(draw, aabb, STRUCTURE.with_alpha(alpha));
                }
            }
            Structure::Grid => {
                let size = self.cell_size;
                let mut cells = HashSet::new();
                for mover in self.movers.iter().take(DRAW_LIMIT) {
                    let aabb = mover.aabb();
                    let (min, max) = ((aabb.min / size).floor(), (aabb.max / size).floor());
                    for x in min.x as i32..=max.x as i32 {
                        for y in min.y as i32..=max.y as i32 {
                            cells.insert((x, y));
                        }
                    }
                }
                for (x, y) in cells {
                    let min = Vec2::new(x as f32, y as f32) * size;
                    let cell = Aabb {
                        min,
                        max: min + Vec2::splat(size),
                    };
                    draw.polygon(
                        &[
                            cell.min,
                            Vec2::new(cell.max.x, cell.min.y),
                            cell.max,
                            Vec2::new(cell.min.x, cell.max.y),
                        ],
                        STRUCTURE.with_alpha(110),
                        true,
                    );
                }
            }
            Structure::SweepAndPrune => {
                // Each box's x interval, stacked in rows under the arena.
                let rows = 24;
                let base = -self.half_size - 2.6;
                let spacing = 0.04 * self.half_size / rows as f32 * 2.0;
                for (i, mover) in self.movers.iter().enumerate().take(DRAW_LIMIT) {
                    let aabb = mover.aabb();
                    let y = base - (i % rows) as f32 * spacing;
                    draw.segment(
                        Vec2::new(aabb.min.x, y),
                        Vec2::new(aabb.max.x, y),
                        STRUCTURE,
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recorder::Recorder;

    #[test]
    fn every_structure_finds_the_same_pairs_while_moving() {
        let mut counts = Vec::new();
        for structure in [Structure::Tree, Structure::Grid, Structure::SweepAndPrune] {
            let mut sample = BroadPhaseStress {
                structure,
                count: 3_000,
                moving: true,
                ..BroadPhaseStress::default()
            };
            sample.rebuild();
            for _ in 0..5 {
                sample.step();
            }
            let mut recorder = Recorder::default();
            sample.draw(&mut recorder);
            assert_eq!(recorder.non_finite, 0);
            counts.push(sample.pair_count);
        }
        assert!(counts[0] > 0);
        assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
    }

    #[test]
    fn a_hundred_thousand_boxes_draw_within_the_limit() {
        let mut sample = BroadPhaseStress {
            count: 100_000,
            ..BroadPhaseStress::default()
        };
        sample.rebuild();
        let mut recorder = Recorder::default();
        sample.draw(&mut recorder);
        assert!(recorder.polygons <= 2 * DRAW_LIMIT + 2);
        assert!(sample.pair_count > 0);
    }
}
