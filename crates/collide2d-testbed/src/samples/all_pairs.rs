//! Every pair of shape kinds at once, A down the rows and B along the columns, each touching.

use collide2d::debug::{draw_manifold, draw_shape, DebugDraw};
use collide2d::query::{collide_all, Manifold};
use collide2d::{Transform, Vec2};

use super::kinds::ShapeKind;
use super::shape_pair::{COLOR_A, COLOR_B, TEXT};
use crate::sample::{Category, Sample, View};

/// Distance between the centres of neighbouring cells.
const CELL: f32 = 4.0;

/// The 8 × 8 table of pairs.
pub struct AllPairs {
    turn: f32,
    spin: bool,
}

impl Default for AllPairs {
    fn default() -> Self {
        AllPairs {
            turn: 0.4,
            spin: false,
        }
    }
}

impl AllPairs {
    /// Where cell (row, column) puts A and B: B overlapping A from the upper right.
    fn poses(&self, row: usize, column: usize) -> (Transform, Transform) {
        let center = Vec2::new(column as f32 * CELL, -(row as f32) * CELL);
        let a = Transform::new(center + Vec2::new(-0.4, -0.2), 0.0);
        let b = Transform::new(center + Vec2::new(0.4, 0.3), self.turn);
        (a, b)
    }
}

impl Sample for AllPairs {
    fn name(&self) -> &'static str {
        "all-pairs"
    }

    fn category(&self) -> Category {
        Category::Shapes
    }

    fn help(&self) -> &'static str {
        "Rows are A, columns are B (circle, capsule, segment, box, rounded box, 8-gon, \
         concave, chain). The slider turns every B."
    }

    fn view(&self) -> View {
        View {
            center: Vec2::new(3.5 * CELL - 0.7, -3.5 * CELL + 0.4),
            half_width: 4.55 * CELL,
            half_height: 4.2 * CELL,
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        ui.add(egui::Slider::new(&mut self.turn, -3.2..=3.2).text("B angle"));
        ui.checkbox(&mut self.spin, "spin");
    }

    fn step(&mut self) {
        if self.spin {
            self.turn = (self.turn + 0.01 + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
                - std::f32::consts::PI;
        }
    }

    fn is_animating(&self) -> bool {
        self.spin
    }

    fn draw(&mut self, draw: &mut dyn DebugDraw) {
        let shapes: Vec<_> = ShapeKind::ALL.iter().map(|kind| kind.shape()).collect();
        let mut manifolds: Vec<Manifold> = Vec::new();
        for (row, kind_a) in ShapeKind::ALL.iter().enumerate() {
            let y = -(row as f32) * CELL;
            draw.label(Vec2::new(-0.6 * CELL - 2.3, y), kind_a.title(), COLOR_A);
            for (column, kind_b) in ShapeKind::ALL.iter().enumerate() {
                if row == 0 {
                    let x = column as f32 * CELL;
                    // Alternate heights so long names do not run into each other.
                    let y = (0.5 + 0.08 * (column % 2) as f32) * CELL;
                    draw.label(Vec2::new(x - 1.2, y), kind_b.title(), COLOR_B);
                }
                let (xf_a, xf_b) = self.poses(row, column);
                draw_shape(draw, &shapes[row], &xf_a, COLOR_A);
                draw_shape(draw, &shapes[column], &xf_b, COLOR_B);
                manifolds.clear();
                collide_all(
                    &shapes[row],
                    &xf_a,
                    &shapes[column],
                    &xf_b,
                    0.0,
                    &mut manifolds,
                );
                for manifold in &manifolds {
                    draw_manifold(draw, manifold, 0.8);
                }
                let points: usize = manifolds.iter().map(|m| m.count).sum();
                let depth = manifolds
                    .iter()
                    .map(|m| m.max_penetration())
                    .fold(f32::NEG_INFINITY, f32::max);
                let text = if points == 0 {
                    "apart".to_owned()
                } else {
                    format!("{points} pt, {depth:.2}")
                };
                let corner = xf_a.p + Vec2::new(-1.4, -1.5);
                draw.label(corner, &text, TEXT);
            }
        }
    }
}
